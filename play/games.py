"""Which rules engine plays a session: PACG's (play.engine) or Aventuria's (play.engine.aventuria).
Both answer the same calls (apply, view, preview, public_events, report) on their own state."""

from __future__ import annotations

from types import ModuleType
from typing import Any

from . import engine
from .engine import aventuria


def engine_for(state: dict[str, Any]) -> ModuleType:
    return aventuria if state.get("game") == "aventuria" else engine
