"""Aventuria combat, beside the PACG rules: the same shape (state as data, decisions, seeded and
logged dice, versions, player views, exact odds) and the same randomness and errors."""

from .combat import apply, describe, legal_actions, new_combat, pending, preview, public_events, replay, report, view
from .rolls import parse_damage

__all__ = [
    "apply",
    "describe",
    "legal_actions",
    "new_combat",
    "parse_damage",
    "pending",
    "preview",
    "public_events",
    "replay",
    "report",
    "view",
]
