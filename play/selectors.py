"""Reads of the play module: only a session's players see it, and each sees their own view."""

from __future__ import annotations

import uuid
from typing import Any

from django.contrib.auth.models import AnonymousUser, User
from django.db.models import QuerySet

from pacg_site.errors import DomainError, NotFoundError

from . import engine
from .engine.odds import check_odds
from .models import GameSession


def sessions_for(user: User | AnonymousUser) -> QuerySet[GameSession]:
    if not user.is_authenticated:
        return GameSession.objects.none()
    return GameSession.objects.filter(players__user=user).distinct()


def session_for(user: User | AnonymousUser, session_id: Any) -> GameSession:
    """The session if the user plays in it; anyone else learns nothing, not even that it exists."""
    session = sessions_for(user).filter(pk=session_id).first() if uuid_like(session_id) else None
    if session is None:
        raise NotFoundError(f"no game session {session_id}")
    return session


def uuid_like(value: Any) -> bool:
    try:
        uuid.UUID(str(value))
    except ValueError:
        return False
    return True


def players_of(session: GameSession, user: User) -> list[str]:
    """The engine players this user answers for (one per character they play)."""
    return list(session.players.filter(user=user).order_by("player").values_list("player", flat=True))


def viewer(session: GameSession, user: User, action: dict[str, Any] | None = None) -> str:
    """The user's engine player an action is for (a user may play several characters): the one
    whose option it is, else the one who plays the character it names, else the one the pending
    decision waits for, else their first."""
    mine = players_of(session, user)
    pending = session.state.get("pending") or {}
    if action is not None:
        wanted = {key: value for key, value in action.items() if key not in ("version", "key")}
        for entry in pending.get("options", []):
            if entry["player"] in mine and entry["action"] == wanted:
                return str(entry["player"])
        sheet = session.state.get("characters", {}).get(action.get("character") or "")
        if sheet is not None and sheet["player"] in mine:
            return str(sheet["player"])
    waiting = pending.get("players", [])
    return next((player for player in mine if player in waiting), mine[0])


def odds(dice: str, difficulty: str) -> dict[str, Any]:
    """The exact chance that the dice meet the difficulty, the distribution, and the expected
    damage on failure (the difference, a result never below 0)."""
    try:
        pool = engine.parse_dice(dice)
    except ValueError as error:
        raise DomainError(f"dice: {error}", details={"dice": dice}) from error
    if not difficulty.strip().lstrip("-").isdigit():
        raise DomainError(f"difficulty must be a whole number, not {difficulty!r}", details={"difficulty": difficulty})
    if len(pool.dice) > 30:
        raise DomainError("at most 30 dice", details={"dice": dice})
    result = check_odds(pool, int(difficulty))
    return {
        "dice": result.dice,
        "difficulty": result.difficulty,
        "probability": float(result.chance),
        "fraction": f"{result.chance.numerator}/{result.chance.denominator}",
        "distribution": {
            str(total): f"{p.numerator}/{p.denominator}" for total, p in sorted(engine.distribution(pool).items())
        },
        "expected_damage_on_failure": float(result.expected_damage_on_failure),
    }
