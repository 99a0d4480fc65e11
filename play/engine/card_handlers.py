"""Handlers for the few powers the effect vocabulary cannot say, registered by card id."""

from __future__ import annotations

from typing import Any

from .check_text import parse_check
from .effects import card_handler
from .flow import StepHandler, decide, option
from .game import Decision, Game, Step
from .starts import push_check


@card_handler("core.boggart")
def boggart_drags_along(game: Game, effects: Step) -> None:
    """Rulebook: "If it's undefeated, it shuffles into a random other location, dragging Alice along for
    the ride" (Example of Play)."""
    encounter = game.step_by_id(effects["context"].get("encounter"))
    if encounter is None or encounter.get("no_move"):
        return
    here = encounter["origin"].get("location")
    others = [name for name in game.locations_in_play() if name != here]
    if here is None or not others:
        return
    target = others[game.pick([game.location(name)["card"] for name in others], "boggart")]
    encounter["destination"] = target
    character = encounter["character"]
    game.character(character)["location"] = target
    game.emit("moved", character=character, location=target, forced=True)


@card_handler("core.laboratory")
def laboratory_spells(game: Game, effects: Step) -> None:
    """Rulebook: "summon 3 spells, attempt to acquire 1 and banish the others" (Example of Play)."""
    summoned = []
    for _ in range(3):
        card = game.vault_random("spell", "summon:spell")
        if card is not None:
            summoned.append(card)
            game.state["set_aside"].append(card)
    if summoned:
        game.emit("summoned", character=effects["character"], cards=[game.card_id(card) for card in summoned])
        game.push("acquire_one", character=effects["character"], cards=summoned, phase="choose", results=[])


class AcquireOne(StepHandler):
    """Summoned cards: choose one to attempt to acquire, banish the others."""

    kind = "acquire_one"

    def run(self, game: Game, step: Step) -> Decision | None:
        character = step["character"]
        if step["phase"] == "choose":
            if not game.alive(character):
                self._banish(game, step["cards"])
                game.pop(step)
                return None
            player = game.player_of(character)
            choices = [
                option({"type": "choose", "card": card}, f"Attempt to acquire {game.name(card)}", player)
                for card in step["cards"]
            ]
            return decide(game, step, "acquire_one", character, "Choose the card to attempt to acquire", choices)
        chosen = step["chosen"]
        succeeded = bool(step["results"]) and all(result["success"] for result in step["results"])
        game.state["set_aside"].remove(chosen)
        if succeeded:
            game.put(character, chosen, "hand")
            game.emit("acquired", character=character, card=game.card_id(chosen))
        else:
            game.to_vault(chosen)
            game.emit("not_acquired", character=character, card=game.card_id(chosen))
        game.pop(step)
        return None

    @staticmethod
    def _banish(game: Game, cards: list[str]) -> None:
        for card in cards:
            game.state["set_aside"].remove(card)
            game.to_vault(card)

    def answer(self, game: Game, step: Step, chosen: dict[str, Any]) -> None:
        card = chosen["action"]["card"]
        step["chosen"] = card
        step["phase"] = "result"
        self._banish(game, [other for other in step["cards"] if other != card])
        for alternatives in reversed(parse_check(game.definition(card).get("check"))):
            push_check(
                game,
                character=step["character"],
                purpose="acquire",
                alternatives=alternatives,
                against=card,
                parent=step,
            )
