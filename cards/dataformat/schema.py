"""The card data format (docs/card-data-format.md): what each card type may say, and how.

`normalize_card` turns one record of a data file into the stored form (columns + `data`), and
`serialize_card` turns the stored form back into the canonical record, so export -> import is
lossless. A field that is absent is unknown; an empty list is known to be empty. Each type's
fields are in cardtypes.py, the validators of their values in fields.py.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from ..vocabulary import GAMES, RULESETS
from .cardtypes import COLUMN_FIELDS, COMMON_FIELDS, TYPES
from .fields import FieldError, boolean, effects, integer, level, one_of, provenance, slugify, text, text_list

FORMAT = "pacg-cards/1"
LANGUAGES = {"en", "es", "de"}
SET_KINDS = {
    "base_set",
    "adventure_path",
    "adventure_deck",
    "character_deck",
    "class_deck",
    "promo",
    "campaign_box",
    "homebrew",
    "other",
}


@dataclass
class RecordIssue:
    field: str
    message: str


def normalize_card(raw: Any, *, set_game: str, set_language: str) -> tuple[dict[str, Any], list[RecordIssue]]:
    """One record -> (stored form, issues). Issues name the field; nothing is half-accepted."""
    issues: list[RecordIssue] = []
    if not isinstance(raw, dict):
        return {}, [RecordIssue("", "a card must be a mapping of field: value")]
    card_type = TYPES.get(raw.get("type"))  # type: ignore[arg-type]
    if card_type is None:
        return {}, [RecordIssue("type", f"must be one of: {', '.join(TYPES)}")]
    if set_game and card_type.game != set_game:
        issues.append(RecordIssue("type", f"{card_type.name} is a {card_type.game} type, the set is {set_game}"))
    allowed = COMMON_FIELDS | set(card_type.fields)
    for key in raw:
        if key not in allowed and not str(key).startswith("__"):
            issues.append(RecordIssue(str(key), f"not a field of a {card_type.name} card"))
    out: dict[str, Any] = {"type": card_type.name, "data": {}}

    def take(key: str, validate: Callable[[Any], Any]) -> Any:
        try:
            return validate(raw[key])
        except FieldError as error:
            issues.append(RecordIssue(key, error.message))
            return None

    if "name" not in raw:
        issues.append(RecordIssue("name", "is required"))
    else:
        out["name"] = take("name", text)
    if "provenance" not in raw:
        issues.append(RecordIssue("provenance", "is required: say which book and section the card comes from"))
    else:
        out["provenance"] = take("provenance", provenance)
    out["id"] = take("id", lambda v: _id(v)) if "id" in raw else slugify(str(raw.get("name", "")))
    out["subtype"] = ""
    if "subtype" in raw:
        subtype = take("subtype", text)
        if subtype and card_type.subtypes and subtype not in card_type.subtypes:
            issues.append(RecordIssue("subtype", f"must be one of: {', '.join(card_type.subtypes)}"))
        elif subtype and not card_type.subtypes:
            issues.append(RecordIssue("subtype", f"a {card_type.name} card has no subtype"))
        out["subtype"] = subtype or ""
    out["level"], out["level_code"] = (None, "")
    if "level" in raw:
        parsed = take("level", level)
        if parsed:
            out["level"], out["level_code"] = parsed
    for key in ("traits", "powers", "aliases"):
        out[key] = take(key, text_list) if key in raw else None
    for key in ("text", "notes"):
        out[key] = take(key, text) if key in raw else ""
    out["language"] = set_language
    if "language" in raw:
        out["language"] = take("language", one_of(*sorted(LANGUAGES)))
    out["incomplete"] = []
    if "incomplete" in raw:
        fields = take("incomplete", text_list) or []
        bad = [name for name in fields if name not in allowed - {"id", "name", "type", "incomplete"}]
        if bad:
            issues.append(RecordIssue("incomplete", f"names unknown field(s): {', '.join(bad)}"))
        out["incomplete"] = fields
    if "effects" in raw:
        out["data"]["effects"] = take("effects", effects)
    for key in COLUMN_FIELDS:
        out[key] = None
    for key, spec in card_type.fields.items():
        if key not in raw:
            continue
        value = take(key, spec.validate)
        if key in COLUMN_FIELDS:
            out[key] = value
        else:
            out["data"][key] = value
    return out, issues


def _id(value: Any) -> str:
    if not isinstance(value, str) or not re.fullmatch(r"[a-z0-9]+(?:-[a-z0-9]+)*", value):
        raise FieldError("must be a slug: lower-case letters, digits and single dashes")
    return value


def serialize_card(card: dict[str, Any]) -> dict[str, Any]:
    """Stored form -> canonical record (the inverse of normalize_card)."""
    card_type = TYPES[card["type"]]
    out: dict[str, Any] = {"id": card["id"], "name": card["name"], "type": card["type"]}
    if card.get("subtype"):
        out["subtype"] = card["subtype"]
    if card.get("level_code"):
        out["level"] = card["level_code"]
    elif card.get("level") is not None:
        out["level"] = card["level"]
    for key in ("traits",):
        if card.get(key) is not None:
            out[key] = card[key]
    for key in ("check", "immune", "vulnerable", "resistant", "owner"):
        if card.get(key) is not None:
            spec = card_type.fields[key]
            out[key] = spec.format(card[key]) if spec.format else card[key]
    if card.get("powers") is not None:
        out["powers"] = card["powers"]
    if card.get("text"):
        out["text"] = card["text"]
    for key, spec in card_type.fields.items():
        if key in card.get("data", {}):
            value = card["data"][key]
            out[key] = spec.format(value) if spec.format else value
    if card.get("aliases") is not None:
        out["aliases"] = card["aliases"]
    if card.get("language") and card.get("language") != card.get("set_language"):
        out["language"] = card["language"]
    if card.get("notes"):
        out["notes"] = card["notes"]
    if card.get("incomplete"):
        out["incomplete"] = card["incomplete"]
    if card.get("data", {}).get("effects") is not None:
        out["effects"] = card["data"]["effects"]
    out["provenance"] = card["provenance"]
    return out


SET_FIELDS = {
    "code",
    "name",
    "game",
    "kind",
    "language",
    "ruleset",
    "parent",
    "aliases",
    "description",
    "homebrew",
    "provenance",
    "order",
}


def normalize_set(raw: Any) -> tuple[dict[str, Any], list[RecordIssue]]:
    issues: list[RecordIssue] = []
    if not isinstance(raw, dict):
        return {}, [RecordIssue("set", "must be a mapping with code, name, game, kind and provenance")]
    for key in raw:
        if key not in SET_FIELDS:
            issues.append(RecordIssue(str(key), "not a field of a set"))
    out: dict[str, Any] = {}
    validators: dict[str, Callable[[Any], Any]] = {
        "code": _id,
        "name": text,
        "game": one_of(*sorted(GAMES)),
        "kind": one_of(*sorted(SET_KINDS)),
        "provenance": provenance,
    }
    for key, validate in validators.items():
        if key not in raw:
            issues.append(RecordIssue(key, "is required"))
            continue
        try:
            out[key] = validate(raw[key])
        except FieldError as error:
            issues.append(RecordIssue(key, error.message))
    optional: dict[str, tuple[Callable[[Any], Any], Any]] = {
        "language": (one_of(*sorted(LANGUAGES)), "en"),
        "ruleset": (one_of(*sorted(RULESETS)), ""),
        "parent": (_id, ""),
        "aliases": (text_list, []),
        "description": (text, ""),
        "homebrew": (boolean, False),
        "order": (integer, 0),
    }
    for key, (validate, default) in optional.items():
        try:
            out[key] = validate(raw[key]) if key in raw else default
        except FieldError as error:
            issues.append(RecordIssue(key, error.message))
    if out.get("kind") == "homebrew" and not out.get("homebrew"):
        issues.append(RecordIssue("homebrew", "a homebrew set must say homebrew: true"))
    return out, issues


def serialize_set(card_set: dict[str, Any]) -> dict[str, Any]:
    out: dict[str, Any] = {
        key: card_set[key] for key in ("code", "name", "game", "kind", "language") if card_set.get(key)
    }
    for key, default in (
        ("ruleset", ""),
        ("parent", ""),
        ("aliases", []),
        ("description", ""),
        ("homebrew", False),
        ("order", 0),
    ):
        if card_set.get(key, default) != default:
            out[key] = card_set[key]
    out["provenance"] = card_set["provenance"]
    return out
