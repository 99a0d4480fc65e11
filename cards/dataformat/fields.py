"""The card data format's field validators: a value of a data file in, the normalized value out,
FieldError (naming what is wrong) on anything else; and the formatters back to the file form."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

from play.engine.carddata import validate_effects

from ..vocabulary import BOON_TYPES
from .checks import CheckSyntaxError, parse_check
from .skills import canonical_skill
from .text import fold

BOOKS = {"core", "wotr", "rotr_es", "aventuria", "homebrew"}  # what a source may cite
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
                example = "a die ('d8') or a base skill ('Intelligence +2')"
                raise FieldError(f"{skill}: cannot read {raw!r}: write {example}")
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
