"""Suffering damage: increases, reductions (one boon of each type per source, freely plays
exempt), then the player chooses which cards to discard."""

from __future__ import annotations

from typing import Any

from .effects import perform
from .errors import IllegalAction
from .flow import StepHandler, decide
from .game import Decision, Game, Step
from .powers import Scene, options, passives, usable_power

RULE_DAMAGE = "Suffering Damage: choose that number of cards from your hand and discard them"


def _scene(game: Game, step: Step) -> Scene:
    return Scene("damage", step, step["character"], damage=step, encounter=game.innermost("encounter"))


class Damage(StepHandler):
    kind = "damage"

    def run(self, game: Game, step: Step) -> Decision | None:
        character = step["character"]
        if not game.alive(character) or step["amount"] <= 0 and step["phase"] != "increase":
            game.pop(step)
            return None
        if step["phase"] == "increase":
            if step["amount"] > 0:
                for entry in passives(game, character, "increase_damage"):
                    step["amount"] += int(entry["increase_damage"])
            # "damage that may not be reduced": no reduction window at all.
            step["phase"] = "discard" if step.get("unreducible") else "reduce"
            extra = {"unreducible": True} if step.get("unreducible") else {}
            game.emit("damage_dealt", character=character, amount=step["amount"], damage_type=step["type"], **extra)
            return None
        if step["phase"] == "reduce":
            choices = options(game, _scene(game, step), game.living())
            if not choices:
                step["phase"] = "discard"
                return None
            return decide(
                game,
                step,
                "damage",
                character,
                f"{game.character_name(character)} suffers {step['amount']} {step['type']} damage",
                choices,
                can_pass=True,
                pass_label="Suffer the damage",
                damage=self.summary(step),
            )
        hand = game.character(character)["hand"]
        if step["amount"] >= len(hand):
            self._discard(game, step, list(hand))
            return None
        return decide(
            game,
            step,
            "discard",
            character,
            f"Discard {step['amount']} cards for the damage",
            [],
            select={"count": step["amount"], "cards": list(hand)},
            damage=self.summary(step),
        )

    @staticmethod
    def summary(step: Step) -> dict[str, Any]:
        return {"character": step["character"], "amount": step["amount"], "type": step["type"]}

    def _discard(self, game: Game, step: Step, cards: list[str]) -> None:
        character = step["character"]
        for card in cards:
            game.move_from_hand(character, card, "discard")
        game.emit("damage_suffered", character=character, discarded=[game.card_id(card) for card in cards])
        game.pop(step)

    def answer(self, game: Game, step: Step, chosen: dict[str, Any]) -> None:
        action = chosen["action"]
        if action["type"] == "pass":
            step["phase"] = "discard"
        elif action["type"] == "play":
            scene = _scene(game, step)
            power = usable_power(game, scene, action)
            perform(game, scene, action, power)
        elif action["type"] == "select":
            cards = action["cards"]
            hand = game.character(step["character"])["hand"]
            if len(cards) != step["amount"] or len(set(cards)) != len(cards) or not set(cards) <= set(hand):
                raise IllegalAction(f"choose exactly {step['amount']} different cards from your hand", rule=RULE_DAMAGE)
            self._discard(game, step, cards)
