"""Who plays the characters at a table."""

from __future__ import annotations

from django.contrib.auth.models import User as UserModel

from pacg_site.errors import DomainError


def players_for(
    by: UserModel, chosen: list[str], known: list[str], players: list[str] | None, what: str = "characters"
) -> list[UserModel]:
    """The users who play the chosen characters (default: the creator plays them all)."""
    unknown = [c for c in chosen if c not in known]
    if unknown or not 1 <= len(chosen) <= len(known) or len(set(chosen)) != len(chosen):
        raise DomainError(
            f"choose 1 to {len(known)} different {what} of {', '.join(known)}", details={"characters": chosen}
        )
    usernames = players or [by.get_username()] * len(chosen)
    if len(usernames) != len(chosen):
        raise DomainError(f"name one player per {what.removesuffix('s')}", details={"players": usernames})
    users = {u.username: u for u in UserModel.objects.filter(username__in=set(usernames))}
    missing = sorted(set(usernames) - set(users))
    if missing:
        raise DomainError(f"no user is called {missing[0]!r}", details={"players": missing})
    return [users[name] for name in usernames]
