"""The pure-Python rules engine for playing a PACG scenario (see README.md).

State in, state out: a game is one JSON-serialisable dict; `apply` answers its pending
decision and returns the new state with the events it caused.
"""

from .api import apply, legal_actions, new_game, pending, preview, replay, view
from .cards import load_definitions
from .errors import EngineError, GameOver, IllegalAction, NotYourDecision, ReplayMismatch, SetupError, StaleVersion
from .odds import chance, distribution, parse_dice
from .randomness import ScriptedDice, SeededSource
from .report import report
from .rulesets import CLASSIC, CORE_2019, RULESETS, Ruleset, get_ruleset
from .views import public_events

__all__ = [
    "CLASSIC",
    "CORE_2019",
    "RULESETS",
    "EngineError",
    "GameOver",
    "IllegalAction",
    "NotYourDecision",
    "ReplayMismatch",
    "Ruleset",
    "ScriptedDice",
    "SeededSource",
    "SetupError",
    "StaleVersion",
    "apply",
    "chance",
    "distribution",
    "get_ruleset",
    "legal_actions",
    "load_definitions",
    "new_game",
    "parse_dice",
    "pending",
    "preview",
    "public_events",
    "replay",
    "report",
    "view",
]
