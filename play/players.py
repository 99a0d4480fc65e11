"""Who plays the characters at a table, and the stored session that seats them."""

from __future__ import annotations

from typing import Any

from django.contrib.auth.models import User as UserModel

from campaigns.models import Party
from pacg_site.errors import DomainError

from .models import GameSession, SessionPlayer


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


def store_session(
    *,
    by: UserModel,
    party: Party | None,
    scenario: str,
    ruleset: str,
    setup: dict[str, Any],
    state: dict[str, Any],
    users: list[UserModel],
) -> GameSession:
    """A new session at its engine's first state, the n-th user playing engine player "player<n>"."""
    session = GameSession.objects.create(
        created_by=by,
        party=party,
        scenario=scenario,
        ruleset=ruleset,
        setup=setup,
        initial_state=state,
        state=state,
        version=state["version"],
        status=state["status"],
    )
    SessionPlayer.objects.bulk_create(
        [SessionPlayer(session=session, user=user, player=f"player{n}") for n, user in enumerate(users, start=1)]
    )
    return session
