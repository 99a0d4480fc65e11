"""Engine card definitions: plain dicts keyed by card id (see play/data/*.yaml and README).

A definition holds what the engine needs to play a card: type, traits, check, immunities,
vulnerabilities, resistances, damage type, powers in the effect vocabulary (play/engine/effects.py)
and, for locations, deck lists and To Close / To Guard requirements.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import yaml

from .errors import SetupError
from .vocabulary import validate_card

DATA_DIR = Path(__file__).resolve().parent.parent / "data"

BOON_TYPES = ("weapon", "spell", "armor", "item", "ally", "blessing", "loot")
BANE_TYPES = ("monster", "barrier", "henchman", "villain", "bane")
STORY_BANE_TYPES = ("henchman", "villain")


def load_definitions(*names: str) -> dict[str, dict[str, Any]]:
    """Definitions from bundled files (`core-example`, `sandbox`) or paths, merged in order."""
    definitions: dict[str, dict[str, Any]] = {}
    for name in names:
        path = Path(name) if name.endswith((".yaml", ".yml")) else DATA_DIR / f"{name}.yaml"
        document = yaml.safe_load(path.read_text(encoding="utf-8"))
        if not isinstance(document, dict) or document.get("format") != "pacg-engine-cards/1":
            raise SetupError(f"{path} is not a pacg-engine-cards/1 file")
        for card_id, definition in (document.get("cards") or {}).items():
            definitions[card_id] = validate_definition(card_id, definition)
    return definitions


def validate_definition(card_id: str, definition: dict[str, Any]) -> dict[str, Any]:
    if not isinstance(definition, dict) or not definition.get("type"):
        raise SetupError(f"card {card_id}: a definition needs at least a type")
    definition = dict(definition)
    definition.setdefault("name", card_id.split(".", 1)[-1].replace("-", " ").title())
    for key in ("traits", "immune", "vulnerable", "resistant", "powers"):
        definition.setdefault(key, [])
    if definition.get("declare"):
        # Powers not encoded: the players declare them (declared.py).
        from .declared import templates

        have = {power.get("id") for power in definition["powers"]}
        definition["powers"] = [
            *definition["powers"],
            *(template for template in templates(definition["type"]) if template["id"] not in have),
        ]
    for index, power in enumerate(definition["powers"]):
        if not isinstance(power, dict):
            raise SetupError(f"card {card_id}: power {index} must be a mapping")
        power.setdefault("id", f"p{index}")
    try:
        validate_card(definition)
    except ValueError as error:
        raise SetupError(f"card {card_id}: {error}") from None
    return definition


def is_boon(definition: dict[str, Any]) -> bool:
    return definition["type"] in BOON_TYPES


def is_bane(definition: dict[str, Any]) -> bool:
    return definition["type"] in BANE_TYPES


def is_monster(definition: dict[str, Any]) -> bool:
    kind = definition["type"]
    return kind == "monster" or (kind in STORY_BANE_TYPES and definition.get("subtype", "monster") == "monster")
