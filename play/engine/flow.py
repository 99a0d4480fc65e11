"""What every step handler builds on: the handler's interface, options and pending decisions, and
matching a player's action to an option (machine.py runs the handlers).

A handler's `run` either changes the stack (pushes, pops, advances its own phase) or returns a
decision; the loop stops at the first decision. `answer` receives the option a player chose,
already validated against the options the decision listed.
"""

from __future__ import annotations

from typing import Any

from .declared import DECLARED_KEYS
from .errors import EngineError
from .game import Decision, Game, Step

CONTROL_KEYS = ("version", "key")


class StepHandler:
    kind = ""

    def run(self, game: Game, step: Step) -> Decision | None:
        raise NotImplementedError

    def answer(self, game: Game, step: Step, option: dict[str, Any]) -> None:
        raise EngineError(f"the step {self.kind} asks no questions")

    def abort(self, game: Game, step: Step) -> None:
        """The turn ends before this step finishes (its character died)."""


def option(action: dict[str, Any], label: str, player: str, **extra: Any) -> dict[str, Any]:
    return {"action": action, "label": label, "player": player, **extra}


def decide(
    game: Game,
    step: Step,
    kind: str,
    character: str | None,
    prompt: str,
    options: list[dict[str, Any]],
    *,
    can_pass: bool = False,
    pass_label: str = "Pass",
    **extra: Any,
) -> Decision:
    """A pending decision: who may answer, what kind, the legal options, whether passing is
    allowed, and, per card in hand, the powers it can be played for right now."""
    options = list(options)
    if can_pass and character is not None:
        options.append(option({"type": "pass"}, pass_label, game.player_of(character)))
    players = sorted({entry["player"] for entry in options} | ({game.player_of(character)} if character else set()))
    decision: Decision = {
        "step": step["id"],
        "kind": kind,
        "character": character,
        "players": players,
        "prompt": prompt,
        "options": options,
        "can_pass": can_pass,
        "by_card": powers_by_card(options),
    }
    decision.update(extra)
    return decision


def powers_by_card(options: list[dict[str, Any]]) -> dict[str, list[dict[str, Any]]]:
    """Per card in hand, the powers it can be played for (or pay for) right now, with the index
    of the option that does it."""
    by_card: dict[str, list[dict[str, Any]]] = {}
    for index, entry in enumerate(options):
        action = entry["action"]
        if action.get("type") != "play":
            continue
        # A card is either played for its own power or used to pay for another one (a
        # character power that recharges a card, say): both show on the card in hand.
        for key, role in (("card", "play"), ("pay", "pay")):
            if action.get(key):
                by_card.setdefault(action[key], []).append(
                    {"power": action["power"], "as": role, "label": entry["label"], "option": index}
                )
    return by_card


def normalise(action: dict[str, Any]) -> dict[str, Any]:
    return {key: value for key, value in action.items() if key not in CONTROL_KEYS}


def find_option(decision: Decision, player: str, action: dict[str, Any]) -> dict[str, Any] | None:
    """The option an action answers. A declared power's option is a template: the action adds
    what the player declares (checked when the power is used, declared.declared_power); an
    option with `enter` takes the values it names (an unknown check, say)."""
    wanted = normalise(action)
    for entry in decision["options"]:
        if entry["player"] != player:
            continue
        if entry["action"] == wanted:
            return entry
        free = DECLARED_KEYS if "declare" in entry else tuple(entry.get("enter", ()))
        if free and entry["action"] == {k: v for k, v in wanted.items() if k not in free}:
            return {**entry, "action": wanted}
    return None
