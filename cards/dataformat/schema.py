"""The card data format (docs/card-data-format.md): what each card type may say, and how.

`normalize_card` turns one record of a data file into the stored form (columns + `data`), and
`serialize_card` turns the stored form back into the canonical record, so export -> import is
lossless. A field that is absent is unknown; an empty list is known to be empty.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from play.engine.carddata import validate_effects

from ..vocabulary import BOON_TYPES, GAMES, RULESETS
from .checks import CheckSyntaxError, format_check, parse_check
from .skills import canonical_skill
from .text import fold

FORMAT = "pacg-cards/1"
BOOKS = {"core", "wotr", "rotr_es", "aventuria", "homebrew"}
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
DIE_SIZES = {"d4", "d6", "d8", "d10", "d12", "d20"}
ROMAN = {"I": 1, "II": 2, "III": 3}


class FieldError(ValueError):
    """A value that breaks the format; `field` is filled in by the caller that knows it."""

    def __init__(self, message: str, field: str = ""):
        super().__init__(message)
        self.message = message
        self.field = field


def slugify(text: str) -> str:
    slug = re.sub(r"[^a-z0-9]+", "-", fold(text)).strip("-")
    return slug or "card"


# --- field validators: value in, normalized value out, FieldError on anything else ---------


def text(value: Any) -> str:
    if not isinstance(value, str) or not value.strip():
        raise FieldError("must be non-empty text")
    return value.strip()


def integer(value: Any) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        raise FieldError("must be a whole number, 0 or more")
    return value


def text_list(value: Any) -> list[str]:
    if isinstance(value, str):
        value = [value]
    if not isinstance(value, list):
        raise FieldError("must be a list of text")
    return [text(item) for item in value]


def boolean(value: Any) -> bool:
    if not isinstance(value, bool):
        raise FieldError("must be true or false")
    return value


def one_of(*choices: str) -> Callable[[Any], str]:
    def validate(value: Any) -> str:
        if value not in choices:
            raise FieldError(f"must be one of: {', '.join(choices)}")
        return str(value)

    return validate


def check(value: Any) -> dict[str, Any]:
    try:
        return parse_check(value)
    except CheckSyntaxError as error:
        raise FieldError(str(error)) from error


def effects(value: Any) -> dict[str, Any]:
    """The card's powers in the play engine's vocabulary (docs/card-data-format.md, Effects)."""
    try:
        return validate_effects(value)
    except ValueError as error:
        raise FieldError(str(error)) from None


def provenance(value: Any) -> list[dict[str, Any]]:
    if isinstance(value, dict):
        value = [value]
    if not isinstance(value, list) or not value:
        raise FieldError("must list at least one source: {book, section}")
    sources = []
    for item in value:
        if not isinstance(item, dict):
            raise FieldError("each source must be a mapping with book and section")
        unknown = set(item) - {"book", "section", "page", "quote", "note"}
        if unknown:
            raise FieldError(f"unknown source key(s): {', '.join(sorted(unknown))}")
        if item.get("book") not in BOOKS:
            raise FieldError(f"book must be one of: {', '.join(sorted(BOOKS))}")
        source = {"book": item["book"], "section": text(item.get("section"))}
        if "page" in item:
            source["page"] = integer(item["page"])
        for key in ("quote", "note"):
            if key in item:
                source[key] = text(item[key])
        sources.append(source)
    return sources


def level(value: Any) -> tuple[int | None, str]:
    """Level or adventure deck number: 0-6, B/C/P (count as 0), P1 (promo of level 1), I-III."""
    if value is None:
        return None, ""
    if isinstance(value, int) and not isinstance(value, bool) and 0 <= value <= 10:
        return value, ""
    if isinstance(value, str):
        code = value.strip().upper()
        if code in {"B", "C", "P"}:
            return 0, code
        if re.fullmatch(r"P\d", code):
            return int(code[1:]), code
        if code in ROMAN:
            return ROMAN[code], code
    raise FieldError("must be a number 0-10, B, C, P, P<n>, or I/II/III (Aventuria)")


def _skill_name(name: Any) -> str:
    skill = canonical_skill(str(name))
    if skill is None:
        raise FieldError(f"unknown skill {name!r}")
    return skill


def _feat_boxes(raw: str) -> list[int]:
    boxes = re.findall(r"[+]?\d+", raw)
    return [int(box) for box in boxes]


def pacg_skills(value: Any) -> list[dict[str, Any]]:
    """{Strength: "d12 [+1 +2 +3]", Melee: "Strength +2"} -> ordered list of skill dicts."""
    if not isinstance(value, dict) or not value:
        raise FieldError("must map skill names to 'd10 [+1 +2]' or 'Strength +2'")
    skills = []
    for name, raw in value.items():
        skill = _skill_name(name)
        if not isinstance(raw, str):
            raise FieldError(f"{skill}: write the die ('d8') or the base skill ('Dexterity +2')")
        body, _, feats = raw.partition("[")
        entry: dict[str, Any] = {"skill": skill}
        die = body.strip().lower()
        if die in DIE_SIZES:
            entry["die"] = die
        else:
            match = re.fullmatch(r"([^\W\d_][\w ]*?)\s*([+-]\s*\d+)?", body.strip())
            if not match:
                raise FieldError(f"{skill}: cannot read {raw!r}")
            entry["base"] = _skill_name(match.group(1))
            entry["modifier"] = int((match.group(2) or "0").replace(" ", ""))
        if feats:
            if not feats.rstrip().endswith("]"):
                raise FieldError(f"{skill}: feat boxes must be closed with ']'")
            entry["feats"] = _feat_boxes(feats)
        skills.append(entry)
    return skills


def format_skills(skills: list[dict[str, Any]]) -> dict[str, str]:
    out = {}
    for entry in skills:
        if "die" in entry:
            body = entry["die"]
        else:
            modifier = entry.get("modifier", 0)
            body = entry["base"] + (f" {modifier:+d}" if modifier else "")
        if "feats" in entry:
            body += " [" + " ".join(f"+{box}" for box in entry["feats"]) + "]"
        out[entry["skill"]] = body
    return out


def counts_with_feats(value: Any) -> dict[str, dict[str, Any]]:
    """{weapon: 4, armor: "2 [3]"} -> {weapon: {count: 4}, armor: {count: 2, feats: [3]}}."""
    if not isinstance(value, dict) or not value:
        raise FieldError("must map card types to counts, e.g. {weapon: 4, armor: '2 [3]'}")
    result: dict[str, dict[str, Any]] = {}
    for card_type, raw in value.items():
        key = str(card_type).lower()
        if key not in [*BOON_TYPES, "loot"]:
            raise FieldError(f"{card_type!r} is not a boon type ({', '.join(BOON_TYPES)})")
        if isinstance(raw, int) and not isinstance(raw, bool):
            result[key] = {"count": integer(raw)}
            continue
        match = re.fullmatch(r"\s*(\d+)\s*(?:\[([\d\s,]*)\])?\s*", str(raw))
        if not match:
            raise FieldError(f"{key}: write a count and optional feat boxes, e.g. '2 [3 4]'")
        result[key] = {"count": int(match.group(1))}
        if match.group(2) is not None:
            result[key]["feats"] = _feat_boxes(match.group(2))
    return result


def suggested_deck(value: Any) -> dict[str, list[str]]:
    """{weapon: [Dogslicer, Longspear], blessing: [Orison]}: the book's named suggestions."""
    if not isinstance(value, dict) or not value:
        raise FieldError("must map card types to lists of card names")
    result = {}
    for card_type, names in value.items():
        key = str(card_type).lower()
        if key not in [*BOON_TYPES, "loot", "cohort"]:
            raise FieldError(f"{card_type!r} is not a boon type ({', '.join(BOON_TYPES)})")
        result[key] = text_list(names) if names else []
    return result


def format_counts_with_feats(value: dict[str, dict[str, Any]]) -> dict[str, Any]:
    return {
        key: entry["count"]
        if "feats" not in entry
        else f"{entry['count']} [{' '.join(str(box) for box in entry['feats'])}]"
        for key, entry in value.items()
    }


LOCATION_CARD_TYPES = ["monster", "barrier", *BOON_TYPES, "loot"]


def location_deck_list(value: Any) -> dict[str, dict[str, int]]:
    """Core locations list small/medium/large columns; classic locations have one list."""
    if not isinstance(value, dict) or not value:
        raise FieldError("must map card types to counts, or small/medium/large to such maps")
    sized = set(value) <= {"small", "medium", "large"}
    columns = value if sized else {"standard": value}
    result = {}
    for size, counts in columns.items():
        if not isinstance(counts, dict):
            raise FieldError(f"{size}: must map card types to counts")
        column = {}
        for card_type, count in counts.items():
            key = str(card_type).lower()
            if key not in LOCATION_CARD_TYPES:
                raise FieldError(f"{size}: {card_type!r} is not a location card type")
            column[key] = integer(count)
        result[size] = column
    return result


def format_location_deck_list(value: dict[str, dict[str, int]]) -> dict[str, Any]:
    return value["standard"] if set(value) == {"standard"} else value


def scenario_locations(value: Any) -> list[dict[str, Any]]:
    """{1: [Ruin, Tower], 3: [Oubliette]} -> [{players: 1, name: Ruin}, ...]."""
    if not isinstance(value, dict):
        raise FieldError("must map a number of characters to the locations added at that number")
    result = []
    for players, names in value.items():
        try:
            count = int(players)
        except (TypeError, ValueError) as error:
            raise FieldError(f"{players!r} is not a number of characters") from error
        if not 1 <= count <= 6:
            raise FieldError(f"{count} characters is outside 1-6")
        for name in text_list(names):
            result.append({"players": count, "name": name})
    return sorted(result, key=lambda entry: entry["players"])


def format_scenario_locations(value: list[dict[str, Any]]) -> dict[int, list[str]]:
    out: dict[int, list[str]] = {}
    for entry in value:
        out.setdefault(entry["players"], []).append(entry["name"])
    return out


def story_banes(value: Any) -> list[dict[str, Any]]:
    """Villains or henchmen: names, or {name, proxy, closing} when the book says more."""
    if not isinstance(value, list):
        raise FieldError("must be a list of names or {name, proxy, closing, count}")
    result = []
    for item in value:
        if isinstance(item, str):
            result.append({"name": text(item)})
            continue
        if not isinstance(item, dict):
            raise FieldError("each entry must be a name or {name, proxy, closing, count}")
        unknown = set(item) - {"name", "proxy", "closing", "count"}
        if unknown:
            raise FieldError(f"unknown key(s) {', '.join(sorted(unknown))}")
        entry: dict[str, Any] = {"name": text(item.get("name"))}
        if "proxy" in item:
            entry["proxy"] = text(item["proxy"])
        if "closing" in item:
            entry["closing"] = boolean(item["closing"])
        if "count" in item:
            entry["count"] = integer(item["count"])
        result.append(entry)
    return result


def format_story_banes(value: list[dict[str, Any]]) -> list[Any]:
    return [entry["name"] if set(entry) == {"name"} else entry for entry in value]


def table(value: Any) -> list[dict[str, Any]]:
    if not isinstance(value, list) or not value:
        raise FieldError("must be a list of rows (mappings)")
    rows = []
    for row in value:
        if not isinstance(row, dict) or not row:
            raise FieldError("each row must be a mapping of column to value")
        rows.append({str(key): cell if isinstance(cell, int) else text(cell) for key, cell in row.items()})
    return rows


def action_table(value: Any) -> list[dict[str, Any]]:
    """Aventuria's d20 table: rows {roll: '1-5', effect: ...} with ranges inside 1-20, no overlap."""
    rows = table(value)
    covered: set[int] = set()
    for row in rows:
        if set(row) != {"roll", "effect"}:
            raise FieldError("each row needs exactly roll and effect")
        match = re.fullmatch(r"(\d+)(?:\s*[-–]\s*(\d+))?", str(row["roll"]))
        if not match:
            raise FieldError(f"roll {row['roll']!r} must be a number or a range like 1-5")
        low, high = int(match.group(1)), int(match.group(2) or match.group(1))
        if not 1 <= low <= high <= 20:
            raise FieldError(f"roll {row['roll']!r} must lie within 1-20")
        span = set(range(low, high + 1))
        if span & covered:
            raise FieldError(f"roll {row['roll']!r} overlaps another row")
        covered |= span
        row["roll"] = str(row["roll"]).replace("–", "-").replace(" ", "")
    return rows


def per_hero(value: Any) -> dict[str, int]:
    """Life points: 12, or '8 × heroes' (Number of Heroes x 8), or '4 + 2 × heroes'."""
    if isinstance(value, int) and not isinstance(value, bool):
        return {"base": integer(value), "per_hero": 0}
    match = re.fullmatch(r"\s*(?:(\d+)\s*\+\s*)?(\d+)\s*[x×*]\s*(?:number of )?heroes\s*", str(value), re.IGNORECASE)
    if not match:
        raise FieldError("must be a number or 'N × heroes'")
    return {"base": int(match.group(1) or 0), "per_hero": int(match.group(2))}


def format_per_hero(value: dict[str, int]) -> Any:
    if not value["per_hero"]:
        return value["base"]
    term = f"{value['per_hero']} × heroes"
    return f"{value['base']} + {term}" if value["base"] else term


def value_or_dash(value: Any) -> int | str:
    """Aventuria attribute: a number, or '—' when the hero cannot use it."""
    if value in {"—", "-", "–"}:
        return "—"
    return integer(value)


def int_map(value: Any) -> dict[str, int]:
    if not isinstance(value, dict) or not value:
        raise FieldError("must map names to numbers")
    return {text(str(key)): integer(count) for key, count in value.items()}


def sides(value: Any) -> list[dict[str, Any]]:
    """A role card's two sides: [{name, powers}, ...]."""
    if not isinstance(value, list) or not 1 <= len(value) <= 2:
        raise FieldError("must list the role card's sides (one or two)")
    result = []
    for side in value:
        if not isinstance(side, dict) or "name" not in side:
            raise FieldError("each side needs a name")
        unknown = set(side) - {"name", "powers"}
        if unknown:
            raise FieldError(f"unknown side key(s): {', '.join(sorted(unknown))}")
        entry: dict[str, Any] = {"name": text(side["name"])}
        if "powers" in side:
            entry["powers"] = text_list(side["powers"])
        result.append(entry)
    return result


def roster(value: Any) -> dict[str, list[str]]:
    if not isinstance(value, dict) or not value:
        raise FieldError("must map category names to lists of story bane names")
    return {text(str(key)): text_list(names) for key, names in value.items()}


# --- the types ---------------------------------------------------------------------------


@dataclass(frozen=True)
class Field:
    validate: Callable[[Any], Any]
    format: Callable[[Any], Any] | None = None  # stored -> canonical file form


@dataclass(frozen=True)
class CardType:
    name: str
    game: str
    group: str
    label: str
    fields: dict[str, Field]
    subtypes: tuple[str, ...] = ()


CHECK = Field(check, format_check)
TEXT = Field(text)
TEXTS = Field(text_list)
INT = Field(integer)

BANE_FIELDS = {
    "check": CHECK,
    "immune": TEXTS,
    "vulnerable": TEXTS,
    "resistant": TEXTS,
    "damage": TEXT,
    "owner": TEXT,
}
BOON_FIELDS = {"check": CHECK, "owner": TEXT, "hour": TEXT}
SUPPORT_FIELDS = {"check": CHECK, "owner": TEXT, "character": TEXT}

_TYPES = [
    CardType(
        "character",
        "pacg",
        "character",
        "Character",
        {
            "skills": Field(pacg_skills, format_skills),
            "hand_size": INT,
            "hand_size_feats": Field(lambda v: [integer(x) for x in v] if isinstance(v, list) else [integer(v)]),
            "proficiencies": TEXTS,
            "proficiency_feats": TEXTS,
            "favored": TEXT,
            "deck_list": Field(counts_with_feats, format_counts_with_feats),
            "suggested_deck": Field(suggested_deck),
            "cohort": TEXT,
            "role": TEXT,
            "gender": TEXT,
            "race": TEXT,
            "class": TEXT,
        },
    ),
    CardType("role", "pacg", "character", "Role", {"character": TEXT, "sides": Field(sides)}),
    CardType("token", "pacg", "character", "Token", {"character": TEXT}),
    CardType(
        "location",
        "pacg",
        "location",
        "Location",
        {
            "deck_list": Field(location_deck_list, format_location_deck_list),
            "at_this_location": TEXT,
            "to_close": TEXT,
            "to_close_check": CHECK,
            "to_guard": TEXT,
            "to_guard_check": CHECK,
            "when_closed": TEXT,
            "when_permanently_closed": TEXT,
        },
    ),
    CardType(
        "adventure_path",
        "pacg",
        "story",
        "Adventure Path",
        {
            "adventures": TEXTS,
            "reward": TEXT,
        },
    ),
    CardType(
        "adventure",
        "pacg",
        "story",
        "Adventure",
        {
            "number": INT,
            "adventure_path": TEXT,
            "scenarios": TEXTS,
            "reward": TEXT,
        },
    ),
    CardType(
        "scenario",
        "pacg",
        "story",
        "Scenario",
        {
            "code": TEXT,
            "adventure_path": TEXT,
            "adventure": TEXT,
            "locations": Field(scenario_locations, format_scenario_locations),
            "villains": Field(story_banes, format_story_banes),
            "henchmen": Field(story_banes, format_story_banes),
            "dangers": TEXTS,
            "proxies": TEXTS,
            "cohorts": TEXTS,
            "reward": TEXT,
            "special_rules": TEXT,
            "to_win": TEXT,
        },
    ),
    CardType("cohort", "pacg", "support", "Cohort", SUPPORT_FIELDS),
    CardType("scourge", "pacg", "support", "Scourge", SUPPORT_FIELDS),
    CardType("wildcard", "pacg", "support", "Wildcard", SUPPORT_FIELDS),
    CardType("story_bane_roster", "pacg", "support", "Story Bane Roster", {"categories": Field(roster)}),
    CardType("mythic_path", "pacg", "support", "Mythic Path", SUPPORT_FIELDS),
    CardType("redemption", "pacg", "support", "Redemption", {"table": Field(table)}),
    CardType("proxy", "pacg", "support", "Proxy", {"code": TEXT, "stands_for": TEXTS}, ("villain", "henchman")),
    CardType("villain", "pacg", "bane", "Villain", BANE_FIELDS, ("monster", "barrier")),
    CardType("henchman", "pacg", "bane", "Henchman", BANE_FIELDS, ("monster", "barrier")),
    CardType("monster", "pacg", "bane", "Monster", BANE_FIELDS),
    CardType("barrier", "pacg", "bane", "Barrier", BANE_FIELDS),
    *[CardType(boon, "pacg", "boon", boon.title(), BOON_FIELDS) for boon in BOON_TYPES],
    # When the books name a card without saying its type, we say only what is certain.
    CardType("bane", "pacg", "bane", "Bane (kind not stated)", BANE_FIELDS),
    CardType("boon", "pacg", "boon", "Boon (type not stated)", BOON_FIELDS),
    CardType("unknown", "pacg", "unknown", "Card (type not stated)", {"check": CHECK}),
    CardType("loot", "pacg", "boon", "Loot", BOON_FIELDS, tuple(BOON_TYPES)),
    CardType(
        "hero",
        "aventuria",
        "hero",
        "Hero Card",
        {
            "profession": TEXT,
            "close_combat": Field(value_or_dash),
            "ranged_combat": Field(value_or_dash),
            "magic": Field(value_or_dash),
            "dodge": Field(value_or_dash),
            "basic_equipment": TEXT,
            "special_ability": TEXT,
            "hero": TEXT,
        },
    ),
    CardType(
        "skill",
        "aventuria",
        "hero",
        "Skill Card",
        {
            "hero": TEXT,
            "skills": Field(int_map),
            "categories": Field(int_map),
        },
    ),
    CardType(
        "action",
        "aventuria",
        "hero",
        "Action Card",
        {
            "hero": TEXT,
            "endurance_cost": INT,
            "category": TEXT,
            "effect": TEXT,
        },
    ),
    CardType(
        "opponent",
        "aventuria",
        "opponent",
        "Opponent",
        {
            "keywords": TEXTS,
            "special_rules": TEXT,
            "threat_points": INT,
            "life_points": Field(per_hero, format_per_hero),
            "dodge": Field(value_or_dash),
            "armor": INT,
            "actions": INT,
            "action_table": Field(action_table),
            "adventure": TEXT,
        },
        ("leader", "henchman", "demon"),
    ),
    CardType(
        "aventuria_story",
        "aventuria",
        "story",
        "Adventure",
        {
            "number": INT,
            "campaign": TEXT,
            "acts": TEXTS,
            "reward": TEXT,
        },
        ("campaign", "adventure", "side_quest"),
    ),
    CardType(
        "aventuria_card",
        "aventuria",
        "other",
        "Card",
        {
            "hero": TEXT,
            "keywords": TEXTS,
            "effect": TEXT,
            "adventure": TEXT,
            "endurance_cost": INT,
            "category": TEXT,
            "table": Field(table),
        },
        (
            "disadvantage",
            "reward",
            "resource",
            "fate",
            "event",
            "challenge",
            "time_scale",
            "adventure_card",
            "hero_title",
            "remembrance",
            "chalice",
            "endurance",
            "reference",
            "leader_action",
            "special",
        ),
    ),
]
TYPES: dict[str, CardType] = {card_type.name: card_type for card_type in _TYPES}
GROUPS = sorted({card_type.group for card_type in _TYPES})

# A record's fields every type shares, in the canonical order of a data file.
RECORD_FIELDS = (
    "id", "name", "type", "subtype", "level", "traits", "check", "immune", "vulnerable", "resistant", "owner",
    "powers", "text", "aliases", "language", "notes", "incomplete", "effects", "provenance",
)  # fmt: skip
# Stored as model columns; every other field of a type is stored in Card.data.
COLUMN_FIELDS = {"check", "immune", "vulnerable", "resistant", "owner"}
COMMON_FIELDS = set(RECORD_FIELDS) - COLUMN_FIELDS


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
