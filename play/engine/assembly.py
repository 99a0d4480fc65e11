"""Assembling a check: the skill and its traits, the dice, the difficulty, the result, the odds."""

from __future__ import annotations

from functools import lru_cache
from typing import Any

from .check_text import COMBAT, COMBAT_DEFAULT_SKILLS, difficulty, resolve_skill
from .game import Game, Step
from .odds import check_odds, parse_dice
from .powers import passives, target_matches

VULNERABLE_BONUS = 4
RESISTANT_PENALTY = 4


def skill_choices(alternative: dict[str, Any]) -> list[tuple[str, str]]:
    """(listed skill, skill used) pairs an alternative offers without playing a power."""
    pairs: list[tuple[str, str]] = []
    for listed in alternative["skills"]:
        used = COMBAT_DEFAULT_SKILLS if listed == COMBAT else (listed,)
        pairs.extend((listed, skill) for skill in used)
    return pairs


def _unique(values: list[str]) -> list[str]:
    return list(dict.fromkeys(values))


def set_skill(
    game: Game,
    check: Step,
    alternative: int,
    listed: str,
    skill: str,
    *,
    extra_dice: str = "",
    extra_traits: list[str] | None = None,
    plus: int = 0,
    label: str = "",
    found_passives: tuple[list[dict[str, Any]], list[dict[str, Any]]] | None = None,
) -> None:
    """Rulebook: "The skill you chose from the list, the skill you're using, and any skill referenced by
    that skill, are all added as traits to the check", with the character's traits and the
    traits of a card played to determine the skill. Classic: only the skill used, the skills it
    references and the card's traits (see Ruleset.core_check_traits)."""
    sheet = game.sheet(check["character"])
    die, modifier, skill_traits = resolve_skill(sheet["skills"], skill)
    check["alternative"] = alternative
    check["listed"] = listed
    check["skill"] = skill
    check["skill_die"] = die
    check["combat"] = listed == COMBAT
    check["skill_traits"] = skill_traits
    check["dice"] = [{"sides": die, "from": skill}]
    check["modifier"] = modifier + plus
    if extra_dice:
        add_dice(check, extra_dice, label or "power")
    if game.ruleset.core_check_traits:
        traits = [listed, *skill_traits, *game.character_definition(check["character"]).get("traits", [])]
    else:
        traits = list(skill_traits)
    traits += extra_traits or []
    check["traits"] = _unique(traits)
    check["difficulty"] = difficulty(check["alternatives"][alternative], game.adventure_for(check.get("against")))
    _apply_passives(game, check, found_passives or check_passives(game, check["character"]))


def add_dice(check: Step, expression: str, label: str) -> None:
    pool = parse_dice(expression)
    check["dice"].extend({"sides": sides, "from": label} for sides in pool.dice)
    check["modifier"] += pool.modifier


def bless(check: Step, times: int, label: str) -> None:
    """Rulebook: "it adds 1 additional die of the type determined by the skill you're using"."""
    check["dice"].extend({"sides": check["skill_die"], "from": label} for _ in range(times))


def check_passives(game: Game, character: str) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """The passive dice and difficulty changes that may apply to a character's checks."""
    return passives(game, character, "check_die"), passives(game, character, "difficulty")


def _apply_passives(game: Game, check: Step, found: tuple[list[dict[str, Any]], list[dict[str, Any]]]) -> None:
    """Dice that always apply to qualifying checks: the hour (core), lasting effects such as the
    Standard Bearer's, character and location powers."""
    dice_entries, difficulty_entries = found
    for entry in dice_entries:
        requires = entry.get("requires", {})
        if requires.get("check") == "combat" and not check["combat"]:
            continue
        if "purpose" in requires and check["purpose"] not in requires["purpose"]:
            continue
        if not target_matches(game, check.get("against"), requires):
            continue
        add_dice(check, entry["check_die"], entry.get("label", "passive"))
    for entry in difficulty_entries:
        if target_matches(game, check.get("against"), entry.get("requires", {})):
            check["difficulty"] += int(entry["difficulty"])


def adjustment(game: Game, check: Step) -> int:
    """+4 if the card is vulnerable to any trait of the check, -4 if resistant to any."""
    target = check.get("against")
    if target is None or check["purpose"] != "defeat":
        return 0
    definition = game.definition(target)
    traits = set(check["traits"])
    bonus = VULNERABLE_BONUS if traits & set(definition["vulnerable"]) else 0
    penalty = RESISTANT_PENALTY if traits & set(definition["resistant"]) else 0
    return bonus - penalty


def result(game: Game, check: Step) -> int:
    """Rulebook: "No matter how many penalties are applied ... the result cannot be reduced below 0."""
    if check.get("failed_on_purpose"):
        return 0
    total = sum(int(die["face"]) for die in check["dice"]) + int(check["modifier"]) + adjustment(game, check)
    return max(0, total)


def dice_text(game: Game, check: Step) -> str:
    sides = sorted((die["sides"] for die in check["dice"]), reverse=True)
    parts = [f"{sides.count(value)}d{value}" for value in sorted(set(sides), reverse=True)]
    modifier = int(check["modifier"]) + adjustment(game, check)
    return "+".join(parts) + (f"{modifier:+d}" if modifier else "")


def odds(game: Game, check: Step) -> dict[str, Any]:
    """Exact chance of success for the dice assembled so far, and the expected damage if it
    fails (before any reduction)."""
    dice = tuple(sorted((die["sides"] for die in check["dice"]), reverse=True))
    return dict(_odds(dice, int(check["difficulty"]), int(check["modifier"]) + adjustment(game, check)))


@lru_cache(maxsize=4096)
def _odds(dice: tuple[int, ...], difficulty: int, modifier: int) -> tuple[tuple[str, Any], ...]:
    return tuple(check_odds(dice, difficulty, modifier).as_dict().items())
