"""What a search can see of a card: its words and its tagged facts, derived in one place.

The Whoosh document (cards.search.index) and the CardTag rows of the ORM baseline are both
built from `card_facts`, so the two can only disagree if a compiler does.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from cards.dataformat.cardtypes import TYPES
from cards.dataformat.checks import check_difficulties, check_skills

from .words import padded, words

# Fields of `data` whose text is searched with the powers (o:/power: and free words).
TEXT_DATA_KEYS = (
    "at_this_location",
    "to_close",
    "to_guard",
    "when_closed",
    "when_permanently_closed",
    "reward",
    "special_rules",
    "to_win",
    "hour",
    "effect",
    "special_ability",
    "basic_equipment",
    "favored",
)

# is: flags (besides every type, subtype and group name, which `is:` accepts too).
FLAGS = {
    "loot": "Loot cards: the classic Loot type or the Core Loot trait",
    "basic": "the classic Basic trait (Básico)",
    "elite": "the classic Elite trait (Élite)",
    "veteran": "the Veteran trait",
    "promo": "promo cards (level P or P1...)",
    "owner": "cards with the Owner trait",
    "homebrew": "content invented by us, not from a rulebook",
    "incomplete": "cards whose rulebook facts are only partly known",
    "spanish": "cards printed in Spanish",
}
_TRAIT_FLAGS = {"loot": "loot", "basic": "basic", "basico": "basic", "elite": "elite", "veteran": "veteran"}


def normalize_keyword(value: str) -> str:
    """How tag values are stored and queried: folded words joined by underscores, so
    "Story Bane Roster", "story-bane roster" and "story_bane_roster" are one value."""
    return "_".join(words(value))


@dataclass
class CardFacts:
    name_words: str
    power_words: str
    tags: list[tuple[str, str, int | None]] = field(default_factory=list)


def _texts(card: dict[str, Any]) -> list[str]:
    data = card.get("data") or {}
    parts = list(card.get("powers") or [])
    if card.get("text"):
        parts.append(card["text"])
    parts += [data[key] for key in TEXT_DATA_KEYS if isinstance(data.get(key), str)]
    for side in data.get("sides") or []:
        parts += [side["name"], *side.get("powers", [])]
    for row in data.get("action_table") or []:
        parts.append(row["effect"])
    return parts


def card_facts(card: dict[str, Any], *, set_codes: list[str], homebrew: bool) -> CardFacts:
    """`card` is the stored form (Card.as_record()); `set_codes` its set and the set's parents."""
    card_type = TYPES[card["type"]]
    data = card.get("data") or {}
    tags: set[tuple[str, str, int | None]] = set()

    def tag(kind: str, value: str, number: int | None = None) -> None:
        if value:
            tags.add((kind, value, number))

    for value in (card_type.name, card.get("subtype") or "", card_type.group):
        tag("type", normalize_keyword(value))
    for code in set_codes:
        tag("set", code)
    for trait in card.get("traits") or []:
        value = normalize_keyword(trait)
        tag("trait", value)
        if ":" in trait:  # "Deity: Sarenrae" is also a Deity card
            tag("trait", normalize_keyword(trait.split(":", 1)[0]))
        if value in _TRAIT_FLAGS:
            tag("is", _TRAIT_FLAGS[value])
    for kind, key in (("immune", "immune"), ("vuln", "vulnerable"), ("resist", "resistant")):
        for value in card.get(key) or []:
            tag(kind, normalize_keyword(value))
    for skill in check_skills(card.get("check")):
        tag("check", normalize_keyword(skill))
    for difficulty in check_difficulties(card.get("check")):
        tag("diff", str(difficulty), difficulty)
    for entry in data.get("skills") or []:
        tag("skill", normalize_keyword(entry["skill"] if isinstance(entry, dict) else entry))
    for keyword in data.get("keywords") or []:
        tag("kw", normalize_keyword(keyword))
    for kind, key in (("hand", "hand_size"), ("cost", "endurance_cost"), ("threat", "threat_points")):
        if isinstance(data.get(key), int):
            tag(kind, str(data[key]), data[key])
    if card_type.name == "loot":
        tag("is", "loot")
    if (card.get("level_code") or "").startswith("P"):
        tag("is", "promo")
    if card.get("owner"):
        tag("is", "owner")
    if homebrew:
        tag("is", "homebrew")
    if card.get("incomplete"):
        tag("is", "incomplete")
    if card.get("language") == "es":
        tag("is", "spanish")
    names = [card["name"], *(card.get("aliases") or [])]
    return CardFacts(name_words=padded(names), power_words=padded(_texts(card)), tags=sorted(tags, key=str))
