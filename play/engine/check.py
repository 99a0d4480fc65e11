"""Attempting a check: determine the skill, play cards, assemble the dice, roll, reroll,
succeed or fail, then suffer damage if a check to defeat a monster failed."""

from __future__ import annotations

from typing import Any

from . import assembly
from .cards import is_monster
from .check_text import resolve_skill
from .effects import perform, push_damage
from .flow import StepHandler, decide, option
from .game import Decision, Game, Step
from .powers import Scene, options, usable_power

RULE_HERO_POINT = "Roll the Dice: you may spend a hero point to reroll the dice once, on your own check only"


def check_scene(game: Game, check: Step, window: str) -> Scene:
    return Scene(window, check, check["character"], check=check, encounter=game.innermost("encounter"))


def _skill_options(game: Game, check: Step) -> list[dict[str, Any]]:
    player = game.player_of(check["character"])
    target = check.get("against")
    immune = set(game.definition(target)["immune"]) if target else set()
    found_passives = assembly.check_passives(game, check["character"])
    found = []
    for index, alternative in enumerate(check["alternatives"]):
        for listed, skill in assembly.skill_choices(alternative):
            die, modifier, traits = resolve_skill(game.sheet(check["character"])["skills"], skill)
            if immune & (set(traits) | {listed}):
                continue
            label = f"{skill} d{die}{modifier:+d}".removesuffix("+0")  # "Strength d10", not "d10+0"
            label += f" for the {listed} check" if listed != skill else ""
            action = {"type": "skill", "alternative": index, "listed": listed, "skill": skill}
            found.append(option(action, label, player, check=_would_be(game, check, action, found_passives)))
    found.extend(options(game, check_scene(game, check, "check.skill"), [check["character"]]))
    return found


def _would_be(game: Game, check: Step, action: dict[str, Any], found_passives: Any) -> dict[str, Any]:
    """The dice and exact odds a plain skill choice gives (cards played later add to them)."""
    trial = dict(check, dice=[], traits=[], skill_traits=[])
    assembly.set_skill(
        game, trial, action["alternative"], action["listed"], action["skill"], found_passives=found_passives
    )
    return {"dice": assembly.dice_text(game, trial), "odds": assembly.odds(game, trial)}


def _describe(game: Game, check: Step) -> str:
    against = f" the {game.name(check['against'])}" if check.get("against") else ""
    purpose = {"recovery": "recover"}.get(check["purpose"], check["purpose"])
    return f"{game.character_name(check['character'])}'s check to {purpose}{against}"


class Check(StepHandler):
    kind = "check"

    def run(self, game: Game, step: Step) -> Decision | None:
        attempter = step["character"]
        if not game.alive(attempter) and step["phase"] != "done":
            step["failed_on_purpose"] = True
            step["phase"] = "done"
        phase = step["phase"]
        if phase == "skill":
            choices = _skill_options(game, step)
            if len(choices) == 1 and choices[0]["action"]["type"] == "skill":
                self._choose_skill(game, step, choices[0]["action"])
                return None
            return decide(game, step, "choose_skill", attempter, f"{_describe(game, step)}: choose the skill", choices)
        if phase == "play":
            return self._play_decision(game, step)
        if phase == "roll":
            for die in step["dice"]:
                die["face"] = game.roll(die["sides"], f"check:{step['id']}")
            step["result"] = assembly.result(game, step)
            game.emit(
                "rolled",
                check=step["id"],
                character=attempter,
                dice=assembly.dice_text(game, step),
                faces=[die["face"] for die in step["dice"]],
                result=step["result"],
                difficulty=step["difficulty"],
            )
            step["phase"] = "reroll"
            return None
        if phase == "reroll":
            return self._reroll_decision(game, step)
        self._finish(game, step)
        return None

    def _choose_skill(self, game: Game, step: Step, action: dict[str, Any]) -> None:
        assembly.set_skill(game, step, action["alternative"], action["listed"], action["skill"])
        step["phase"] = "play"

    def _play_decision(self, game: Game, step: Step) -> Decision:
        attempter = step["character"]
        player = game.player_of(attempter)
        choices = options(game, check_scene(game, step, "check"), game.living())
        choices.append(option({"type": "roll"}, f"Roll {assembly.dice_text(game, step)}", player))
        if game.ruleset.may_choose_to_fail:
            choices.append(option({"type": "fail"}, "Choose to fail (result 0)", player))
        return decide(
            game,
            step,
            "check",
            attempter,
            f"{_describe(game, step)}: play cards, then roll",
            choices,
            check=self.summary(game, step),
        )

    def _reroll_decision(self, game: Game, step: Step) -> Decision | None:
        attempter = step["character"]
        choices = options(game, check_scene(game, step, "reroll"), game.living())
        sheet = game.sheet(attempter)
        if sheet["hero_points"] > 0 and "hero_point" not in step["used"]:
            choices.append(
                option(
                    {"type": "hero_point"},
                    "Spend a hero point to reroll the dice",
                    game.player_of(attempter),
                    rule=RULE_HERO_POINT,
                )
            )
        if not choices:
            step["phase"] = "done"
            return None
        choices.append(option({"type": "accept"}, f"Keep the result {step['result']}", game.player_of(attempter)))
        return decide(
            game,
            step,
            "reroll",
            attempter,
            f"{_describe(game, step)}: rolled {step['result']}",
            choices,
            check=self.summary(game, step),
        )

    def answer(self, game: Game, step: Step, chosen: dict[str, Any]) -> None:
        action = chosen["action"]
        kind = action["type"]
        if kind == "skill":
            self._choose_skill(game, step, action)
        elif kind == "play":
            window = {"skill": "check.skill", "play": "check", "reroll": "reroll"}[step["phase"]]
            scene = check_scene(game, step, window)
            power = usable_power(game, scene, action)
            perform(game, scene, action, power)
            if window == "check.skill":
                step["phase"] = "play"
        elif kind == "roll":
            step["phase"] = "roll"
        elif kind == "fail":
            step["failed_on_purpose"] = True
            step["result"] = 0
            step["phase"] = "done"
        elif kind == "hero_point":
            sheet = game.character(step["character"])
            sheet["hero_points"] -= 1
            step["used"].append("hero_point")
            for index, die in enumerate(step["dice"]):
                before = die["face"]
                die["face"] = game.roll(die["sides"], f"reroll:{step['id']}")
                game.emit("rerolled", check=step["id"], die=index, sides=die["sides"], before=before, face=die["face"])
            step["result"] = assembly.result(game, step)
        elif kind == "accept":
            step["phase"] = "done"

    def _finish(self, game: Game, step: Step) -> None:
        result = 0 if step.get("failed_on_purpose") else assembly.result(game, step)
        step["result"] = result
        step["success"] = result >= step["difficulty"] and not step.get("failed_on_purpose")
        game.emit(
            "check_resolved",
            check=step["id"],
            character=step["character"],
            purpose=step["purpose"],
            against=game.effective_id(step["against"]) if step.get("against") else None,
            result=result,
            difficulty=step["difficulty"],
            success=step["success"],
        )
        parent = game.step_by_id(step.get("parent"))
        if parent is not None:
            parent.setdefault("results", []).append(
                {"check": step["id"], "character": step["character"], "success": step["success"], "result": result}
            )
        game.pop(step)
        for name, card in reversed(step.get("to_recover", [])):
            game.push("recovery", character=name, card=card, phase="check", results=[])
        target = step.get("against")
        if step["purpose"] == "defeat" and not step["success"] and target and is_monster(game.definition(target)):
            amount = int(step["difficulty"]) - result
            damage_type = game.definition(target).get("damage", "Combat")
            push_damage(game, step["character"], amount, damage_type, target, step["played"])

    @staticmethod
    def summary(game: Game, step: Step) -> dict[str, Any]:
        """What the table shows about a check: skill, traits, dice, difficulty and exact odds."""
        summary: dict[str, Any] = {
            "id": step["id"],
            "character": step["character"],
            "purpose": step["purpose"],
            "against": game.effective_id(step["against"]) if step.get("against") else None,
            "skill": step.get("skill"),
            "traits": step["traits"],
            "dice": assembly.dice_text(game, step),
            "pool": [{"sides": die["sides"], "from": die["from"], "face": die.get("face")} for die in step["dice"]],
            "modifier": step["modifier"],
            "adjustment": assembly.adjustment(game, step),
            "difficulty": step["difficulty"],
            "result": step.get("result"),
        }
        if step.get("skill") is not None:
            summary["odds"] = assembly.odds(game, step)
        return summary
