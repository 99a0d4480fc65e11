"""The exceptions the engine raises. The Django layer maps each to one JSON error shape."""

from __future__ import annotations

from typing import Any


class EngineError(Exception):
    """Base class: something the caller asked for cannot be done."""

    code = "engine_error"

    def __init__(self, message: str, *, rule: str = "", details: dict[str, Any] | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.rule = rule
        self.details = details or {}

    def as_dict(self) -> dict[str, Any]:
        return {"code": self.code, "message": self.message, "rule": self.rule, "details": self.details}


class IllegalAction(EngineError):
    """An action the rules do not allow now (HTTP 400/422 for the API)."""

    code = "illegal_action"


class NotYourDecision(IllegalAction):
    """The action comes from a player who may not answer the pending decision (HTTP 403)."""

    code = "not_your_decision"


class StaleVersion(EngineError):
    """The action was based on an older version of the game (HTTP 409)."""

    code = "stale_version"


class GameOver(IllegalAction):
    """The scenario has ended; nothing more can be played."""

    code = "game_over"


class SetupError(EngineError):
    """The setup cannot make a legal scenario (missing cards, unknown locations, ...)."""

    code = "setup_error"


class ReplayMismatch(EngineError):
    """The event log does not match what the engine does when replaying it."""

    code = "replay_mismatch"
