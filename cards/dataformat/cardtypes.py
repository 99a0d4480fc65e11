"""The card types of the data format: for each, its game, group and the fields it may have (each
with its validator and its file form), and the fields every record shares."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from ..vocabulary import BOON_TYPES
from .checks import format_check
from .fields import (
    action_table,
    check,
    counts_with_feats,
    format_counts_with_feats,
    format_location_deck_list,
    format_per_hero,
    format_scenario_locations,
    format_skills,
    format_story_banes,
    int_map,
    integer,
    location_deck_list,
    pacg_skills,
    per_hero,
    roster,
    scenario_locations,
    sides,
    story_banes,
    suggested_deck,
    table,
    text,
    text_list,
    value_or_dash,
)


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
