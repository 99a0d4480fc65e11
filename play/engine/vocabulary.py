"""Validation of the data-driven vocabulary that has a shape to check: closing requirements
(`to_close`, `to_guard`) and the effects `damage`, `check_each`, `restrict`, `move` and
`add_skill`.

Each function raises ValueError saying what is wrong and where; `cards.validate_definition`
turns that into a SetupError naming the card. It imports nothing but `checks`, so card
definitions can be validated without the rest of the engine.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from .check_text import SKILLS, parse_check
from .errors import EngineError

# The usual ones, for messages; a card may name another (a type is a word, as printed).
DAMAGE_TYPES = ("Combat", "Acid", "Cold", "Electricity", "Fire", "Force", "Mental", "Poison")
REQUIREMENT_KINDS = ("check", "auto", "cost", "damage")
CHECK_EACH_WHO = ("self", "local", "all")
# Card types a `restrict` can keep a character from playing.
PLAYABLE_TYPES = ("weapon", "spell", "armor", "item", "ally", "blessing", "loot", "cohort")
RESTRICT_DURATIONS = ("encounter",)


def _check_text(text: Any, where: str) -> None:
    if not isinstance(text, str) or not text.strip():
        raise ValueError(f"{where} must be a check as printed, e.g. 'Wisdom 6'")
    try:
        steps = parse_check(text)
    except EngineError as error:
        raise ValueError(f"{where}: {error.message}") from None
    if not steps:
        raise ValueError(f"{where}: {text!r} is no check that can be attempted")


def validate_damage(value: Any, where: str) -> None:
    """`{amount: n, type: Combat, unreducible: false}` (type defaults to Combat)."""
    if not isinstance(value, Mapping):
        raise ValueError(f"{where} must be a mapping such as {{amount: 4, type: Combat}}")
    unknown = sorted(set(value) - {"amount", "type", "unreducible"})
    if unknown:
        raise ValueError(f"{where}: {unknown[0]!r} is not a damage key; use amount, type, unreducible")
    amount = value.get("amount")
    if isinstance(amount, bool) or not isinstance(amount, int) or amount < 1:
        raise ValueError(f"{where}.amount must be a whole number of at least 1")
    kind = value.get("type", "Combat")
    if not isinstance(kind, str) or not kind.isalpha() or not kind[:1].isupper():
        raise ValueError(
            f"{where}.type {kind!r} is not a damage type: one capitalised word, e.g. {', '.join(DAMAGE_TYPES)}"
        )
    if not isinstance(value.get("unreducible", False), bool):
        raise ValueError(f"{where}.unreducible must be true or false")


def validate_requirements(alternatives: Any, where: str) -> None:
    """A To Close / To Guard list: each alternative is one of check, auto, cost or damage."""
    if not isinstance(alternatives, list):
        raise ValueError(f"{where} must be a list of alternatives, e.g. [{{check: 'Strength 5 + AN'}}]")
    for index, alternative in enumerate(alternatives):
        at = f"{where}[{index}]"
        if not isinstance(alternative, Mapping) or len(alternative) != 1:
            raise ValueError(f"{at} must be a one-key mapping: one of {', '.join(REQUIREMENT_KINDS)}")
        ((kind, value),) = alternative.items()
        if kind not in REQUIREMENT_KINDS:
            raise ValueError(f"{at}: {kind!r} is not a requirement; use {', '.join(REQUIREMENT_KINDS)}")
        if kind == "check":
            _check_text(value, f"{at}.check")
        elif kind == "auto" and value is not True:
            raise ValueError(f"{at}.auto must be true")
        elif kind == "cost" and (not isinstance(value, Mapping) or len(value) != 1):
            raise ValueError(f"{at}.cost must be one card action and a selector, e.g. {{bury: {{type: ally}}}}")
        elif kind == "damage":
            validate_damage(value, f"{at}.damage")


def validate_check_each(value: Any, where: str, check_effects: Any) -> None:
    """`{who: self|local|all, check: 'Wisdom 6', failure: [...], success: [...]}`;
    `check_effects(effects, where)` validates the nested effect lists."""
    if not isinstance(value, Mapping):
        raise ValueError(f"{where} must be a mapping such as {{who: local, check: 'Wisdom 6', failure: [...]}}")
    unknown = sorted(set(value) - {"who", "check", "failure", "success"})
    if unknown:
        raise ValueError(f"{where}: {unknown[0]!r} is not a check_each key; use who, check, failure, success")
    if value.get("who", "self") not in CHECK_EACH_WHO:
        raise ValueError(f"{where}.who must be one of {', '.join(CHECK_EACH_WHO)}")
    _check_text(value.get("check"), f"{where}.check")
    if "failure" not in value and "success" not in value:
        raise ValueError(f"{where} needs failure (or success) effects: what the check decides")
    for key in ("failure", "success"):
        if key in value:
            check_effects(value[key], f"{where}.{key}")


def validate_restrict(value: Any, where: str) -> None:
    """`{play: [weapon, spell], duration: encounter}`: the character may not play cards of those
    types (for any power) until the encounter ends."""
    if not isinstance(value, Mapping):
        raise ValueError(f"{where} must be a mapping such as {{play: [weapon, spell], duration: encounter}}")
    unknown = sorted(set(value) - {"play", "duration"})
    if unknown:
        raise ValueError(f"{where}: {unknown[0]!r} is not a restrict key; use play, duration")
    kinds = value.get("play")
    if not isinstance(kinds, list) or not kinds or any(kind not in PLAYABLE_TYPES for kind in kinds):
        raise ValueError(f"{where}.play must list card types from {', '.join(PLAYABLE_TYPES)}")
    if value.get("duration", "encounter") not in RESTRICT_DURATIONS:
        raise ValueError(f"{where}.duration must be one of {', '.join(RESTRICT_DURATIONS)}")


def validate_effect_shapes(effects: Any, where: str) -> None:
    """The shaped effects anywhere in a list of effects (nested one_of and check_each included).
    Other effects are left to the engine, which refuses unknown names when it runs them."""
    if not isinstance(effects, list):
        raise ValueError(f"{where} must be a list of one-key mappings, e.g. [{{add_die: 1d4}}]")
    for index, effect in enumerate(effects):
        at = f"{where}[{index}]"
        if not isinstance(effect, Mapping) or len(effect) != 1:
            raise ValueError(f"{at} must be a one-key mapping, e.g. {{add_die: 1d4}}")
        ((name, value),) = effect.items()
        if name == "damage":
            validate_damage(value, f"{at}.damage")
        elif name == "check_each":
            validate_check_each(value, f"{at}.check_each", validate_effect_shapes)
        elif name == "restrict":
            validate_restrict(value, f"{at}.restrict")
        elif name == "add_skill":
            if value not in SKILLS or value == "Combat":
                raise ValueError(f"{at}.add_skill must name a skill, e.g. Arcane; {value!r} is not one")
        elif name == "move":
            if value != {"to": "random"}:
                raise ValueError(f"{at}.move must be {{to: random}} (a random other location)")
        elif name == "one_of" and isinstance(value, list):
            for option, nested in enumerate(value):
                validate_effect_shapes(nested, f"{at}.one_of[{option}]")


def validate_card(definition: Mapping[str, Any]) -> None:
    """The shaped vocabulary of one definition: its requirements and its powers' effects."""
    for key in ("to_close", "to_guard"):
        if key in definition:
            validate_requirements(definition[key], key)
    for index, power in enumerate(definition.get("powers") or []):
        if isinstance(power, Mapping) and "effects" in power:
            validate_effect_shapes(power["effects"], f"powers[{index}].effects")
