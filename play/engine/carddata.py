"""Engine definitions from card records of the card data format (pacg-cards/1,
docs/card-data-format.md): the one way card facts reach the engine.

A record's facts (type, name, traits, check, immunities, level, skills, hand size, favored card
type) are the definition; its `effects` section adds what only the engine reads, in the engine's
vocabulary: `powers`, `passive`, `recovery`, `hour`, and for locations and scenarios the engine's
`deck_list`, `to_close`, `to_guard`, `locations`, `villains`, `henchmen`, `dangers`. A boon,
character or location without an `effects` section is played by declaring its powers
(declared.py); a card encountered with a check that the record leaves unknown has it entered.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from .cards import BOON_TYPES, validate_definition
from .check_text import parse_check
from .errors import EngineError

FACT_KEYS = ("type", "name", "traits", "immune", "vulnerable", "resistant", "level", "subtype", "hand_size")
EFFECT_KEYS = {
    "powers": list,
    "passive": list,
    "recovery": dict,
    "hour": dict,
    "damage": str,
    "deck_list": dict,
    "to_close": list,
    "to_guard": list,
    "locations": dict,
    "villains": list,
    "henchmen": list,
    "dangers": list,
    "adventure": int,
}
POWER_KEYS = {
    "id", "text", "timing", "when", "cost", "requires", "effects", "freely", "grants", "while_displayed", "pay",
}  # fmt: skip
VOCABULARY = {
    "add_die", "add_skill", "add", "bless", "add_trait", "use_skill", "reroll", "reduce_damage", "evade", "heal",
    "draw", "suffer_scourge", "one_of", "lasting", "examine", "explore_again", "damage", "summon", "search",
    "handler", "check_each", "restrict", "move",
    "reveal", "display", "reload", "recharge", "discard", "bury", "banish",
}  # fmt: skip
CHECKED_TYPES = {"monster", "barrier", "henchman", "villain", *BOON_TYPES}
DECLARED_TYPES = {"character", "location", "cohort", *BOON_TYPES}


def validate_effects(effects: Any) -> dict[str, Any]:
    """The `effects` section checked; raises ValueError saying what is wrong and where."""
    if not isinstance(effects, Mapping):
        raise ValueError("must be a mapping of engine keys (powers, passive, recovery, hour, ...)")
    for key, value in effects.items():
        kind = EFFECT_KEYS.get(key)
        if kind is None:
            raise ValueError(f"{key!r} is not an engine key; use {', '.join(sorted(EFFECT_KEYS))}")
        if not isinstance(value, kind):
            raise ValueError(f"{key} must be a {kind.__name__}")
    for index, power in enumerate(effects.get("powers", [])):
        where = f"powers[{index}]"
        if not isinstance(power, Mapping):
            raise ValueError(f"{where} must be a mapping")
        unknown = sorted(set(power) - POWER_KEYS)
        if unknown:
            raise ValueError(f"{where}: {unknown[0]!r} is not a power key; use {', '.join(sorted(POWER_KEYS))}")
        if "timing" not in power and "when" not in power:
            raise ValueError(f"{where} needs a timing (when it can be used) or a when (when it happens)")
        _check_effects(power.get("effects", []), f"{where}.effects")
    return dict(effects)


def _check_effects(effects: Any, where: str) -> None:
    if not isinstance(effects, list):
        raise ValueError(f"{where} must be a list of one-key mappings, e.g. [{{add_die: 1d4}}]")
    for index, effect in enumerate(effects):
        if not isinstance(effect, Mapping) or len(effect) != 1:
            raise ValueError(f"{where}[{index}] must be a one-key mapping, e.g. {{add_die: 1d4}}")
        ((name, value),) = effect.items()
        if name not in VOCABULARY:
            raise ValueError(f"{where}[{index}]: {name!r} is not in the effect vocabulary")
        if name == "one_of":
            for option, nested in enumerate(value if isinstance(value, list) else [None]):
                _check_effects(nested, f"{where}[{index}].one_of[{option}]")
        if name == "check_each" and isinstance(value, Mapping):
            for key in ("failure", "success"):
                if key in value:
                    _check_effects(value[key], f"{where}[{index}].check_each.{key}")


def _check(record: Mapping[str, Any]) -> str | None:
    text = record.get("check")
    if not isinstance(text, str) or not text.strip():
        return None
    try:
        parse_check(text)
    except EngineError:
        return None  # written in words the engine cannot read: the player enters it
    return text


def definition_from_record(uid: str, record: Mapping[str, Any]) -> dict[str, Any]:
    """The engine definition of one card record (a data-file record or a database card's
    canonical record, cards.dataformat.serialize_card)."""
    definition: dict[str, Any] = {key: record[key] for key in FACT_KEYS if record.get(key) is not None}
    check = _check(record)
    if check:
        definition["check"] = check
    elif record["type"] in CHECKED_TYPES:
        definition["check_unknown"] = True
    incomplete = set(record.get("incomplete") or [])
    skills = record.get("skills")
    if isinstance(skills, Mapping) and skills and "skills" not in incomplete:
        # "d12 [+1 +2]": the feat boxes are the campaign's business (with_feats in the play layer).
        definition["skills"] = {name: str(value).split("[", 1)[0].strip() for name, value in skills.items()}
    favored = record.get("favored")
    if favored and not str(favored).lower().startswith("any"):
        definition["favored"] = str(favored).lower()  # "any card type": the player chooses
    effects = record.get("effects")
    if effects:
        definition.update(validate_effects(effects))
    elif record["type"] in DECLARED_TYPES:
        definition["declare"] = True  # not encoded: an `effects` section, even empty, says it is
    return validate_definition(uid, definition)
