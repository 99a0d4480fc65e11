"""The run loop: every step handler the engine has, by the kind of step it runs, and the loop
that runs the top step's handler until a player has a decision to make."""

from __future__ import annotations

from .card_handlers import AcquireOne
from .check import Check
from .closing import CloseLocation, Closing, Relocate
from .damage import Damage
from .effects import CheckEach, Choose, Effects
from .encounter import Avenge, Encounter, Lockdown
from .errors import EngineError
from .flow import StepHandler
from .game import Game
from .turn import EndTurn, GameRoot, Recovery, Reset, Turn
from .windows import Window

MAX_STEPS_PER_APPLY = 100_000
STEPS: tuple[type[StepHandler], ...] = (
    AcquireOne,
    Check,
    CloseLocation,
    Closing,
    Relocate,
    Damage,
    CheckEach,
    Effects,
    Choose,
    Encounter,
    Avenge,
    Lockdown,
    GameRoot,
    Turn,
    EndTurn,
    Recovery,
    Reset,
    Window,
)
HANDLERS: dict[str, StepHandler] = {handler.kind: handler() for handler in STEPS}
if len(HANDLERS) != len(STEPS):
    raise EngineError("two handlers for one step kind")


def run(game: Game) -> None:
    state = game.state
    for _ in range(MAX_STEPS_PER_APPLY):
        if state["status"] != "playing":
            state["pending"] = None
            return
        if state["table"].get("abort_turn"):
            unwind_turn(game)
            continue
        if not state["stack"]:
            raise EngineError("the step stack is empty while the scenario is being played")
        step = game.top()
        decision = HANDLERS[step["kind"]].run(game, step)
        if decision is not None:
            state["pending"] = decision
            return
    raise EngineError("the engine made no progress")


def unwind_turn(game: Game) -> None:
    """Rulebook: "If you are forced to end your turn before an encounter ends, shuffle the encountered
    card back into its location, or if it was summoned, banish it" (Encountering a Card)."""
    stack = game.state["stack"]
    while stack and stack[-1]["kind"] not in ("turn", "game"):
        step = game.pop_top()
        HANDLERS[step["kind"]].abort(game, step)
    if stack and stack[-1]["kind"] == "turn":
        game.top()["phase"] = "over"
    for card in list(game.state["set_aside"]):
        game.state["set_aside"].remove(card)
        game.to_vault(card)
    game.state["table"]["abort_turn"] = False
