"""Small tables for rule tests: invented test cards (clearly not Paizo's) laid out exactly, so
that each test states the one situation it is about."""

from __future__ import annotations

from typing import Any

from play.engine import new_game

from .driver import Driver
from .sources import ArrangedSource

BLESS = {"id": "bless", "timing": "check", "cost": "discard", "requires": {"whose": "local"}, "effects": [{"bless": 1}]}
EXPLORE = {"id": "explore", "timing": "explore", "cost": "discard", "effects": [{"explore_again": True}]}

DEFINITIONS: dict[str, dict[str, Any]] = {
    # characters
    "test.fighter": {
        "type": "character",
        "name": "Fighter",
        "traits": ["Human"],
        "skills": {"Strength": "d10", "Melee": "Strength +2", "Dexterity": "d6", "Fortitude": "d8"},
        "hand_size": 4,
    },
    "test.mage": {
        "type": "character",
        "name": "Mage",
        "skills": {"Intelligence": "d10", "Arcane": "Intelligence +2", "Wisdom": "d6"},
        "hand_size": 5,
    },
    "test.priest": {
        "type": "character",
        "name": "Priest",
        "skills": {"Wisdom": "d8", "Divine": "Wisdom +1", "Strength": "d6"},
        "hand_size": 4,
    },
    # locations and scenarios
    "test.alpha": {"type": "location", "name": "Alpha", "to_close": [{"check": "Strength 5"}]},
    "test.beta": {"type": "location", "name": "Beta", "to_close": [{"check": "Wisdom 6"}]},
    "test.gamma": {"type": "location", "name": "Gamma", "to_close": [{"auto": True}]},
    "test.scenario": {
        "type": "scenario",
        "adventure": 1,
        "locations": {"1": ["test.alpha", "test.beta", "test.gamma"]},
        "villains": [],
        "henchmen": [],
    },
    # banes
    "test.goblin": {"type": "monster", "name": "Goblin", "traits": ["Goblin"], "check": "Combat 6"},
    "test.ogre": {"type": "monster", "name": "Ogre", "traits": ["Giant"], "check": "Combat 10 + 2AN"},
    "test.wall": {"type": "barrier", "name": "Wall", "check": "Strength 5"},
    "test.imp": {"type": "henchman", "subtype": "monster", "name": "Imp", "check": "Combat 6"},
    "test.lich": {"type": "villain", "subtype": "monster", "name": "Lich", "check": "Combat 6"},
    # boons
    "test.filler": {"type": "item", "name": "Filler"},
    "test.rock": {"type": "item", "name": "Rock", "check": "Strength 3"},
    "test.sword": {
        "type": "weapon",
        "name": "Sword",
        "traits": ["Melee", "Slashing"],
        "check": "Strength 4",
        "powers": [
            {
                "id": "strike",
                "timing": "check.skill",
                "cost": "reveal",
                "requires": {"check": "combat"},
                "effects": [{"use_skill": {"skills": ["Melee"], "add": "1d8"}}],
            }
        ],
    },
    "test.knife": {
        "type": "weapon",
        "name": "Knife",
        "traits": ["Melee"],
        "powers": [
            {
                "id": "assist",
                "timing": "check",
                "cost": "reveal",
                "requires": {"check": "combat", "whose": "local"},
                "effects": [{"add_die": "1d4"}],
            }
        ],
    },
    "test.dart": {
        "type": "weapon",
        "name": "Dart",
        "traits": ["Ranged"],
        "powers": [
            {
                "id": "assist",
                "timing": "check",
                "cost": "reveal",
                "freely": True,
                "requires": {"check": "combat", "whose": "local"},
                "effects": [{"add_die": "1d4"}],
            }
        ],
    },
    "test.blessing": {"type": "blessing", "name": "Blessing", "powers": [BLESS, EXPLORE], "hour": {}},
    "test.plain-blessing": {"type": "blessing", "name": "Plain Blessing", "hour": {}},
    "test.armor": {
        "type": "armor",
        "name": "Armor",
        "powers": [
            {
                "id": "absorb",
                "timing": "damage",
                "cost": "recharge",
                "effects": [{"reduce_damage": {"amount": 2, "types": ["Combat"]}}],
            }
        ],
    },
    "test.fire-ward": {
        "type": "armor",
        "name": "Fire Ward",
        "powers": [
            {
                "id": "absorb",
                "timing": "damage",
                "cost": "discard",
                "effects": [{"reduce_damage": {"amount": 5, "types": ["Fire"]}}],
            }
        ],
    },
    "test.bolt": {
        "type": "spell",
        "name": "Bolt",
        "traits": ["Magic", "Arcane", "Electricity"],
        "powers": [
            {
                "id": "bolt",
                "timing": "check.skill",
                "cost": "banish",
                "requires": {"check": "combat"},
                "effects": [{"use_skill": {"skills": ["Arcane"], "add": "2d4"}}],
            }
        ],
        "recovery": {"check": "Arcane 6", "success": "recharge", "failure": "banish"},
    },
    "test.poison-dart": {
        "type": "weapon",
        "name": "Poison Dart",
        "traits": ["Poison"],
        "powers": [
            {
                "id": "assist",
                "timing": "check",
                "cost": "discard",
                "requires": {"check": "combat"},
                "effects": [{"add_die": "1d6"}],
            }
        ],
    },
    "test.scout": {"type": "ally", "name": "Scout", "powers": [EXPLORE]},
    "test.guide": {
        "type": "ally",
        "name": "Guide",
        "powers": [{"id": "evade", "timing": "evade", "cost": "bury", "effects": [{"evade": True}]}],
    },
    "test.potion": {
        "type": "item",
        "name": "Potion",
        "powers": [{"id": "drink", "timing": "turn", "cost": "discard", "effects": [{"heal": 2}]}],
    },
    "test.dazed": {"type": "scourge", "name": "Dazed (test)"},
}


def table(
    *,
    ruleset: str = "core-2019",
    characters: tuple[str, ...] = ("fighter",),
    at: dict[str, str] | None = None,
    hands: dict[str, list[str]] | None = None,
    decks: dict[str, list[str]] | None = None,
    locations: dict[str, list[str]] | None = None,
    hourglass: list[str] | None = None,
    vault: list[str] | None = None,
    definitions: dict[str, dict[str, Any]] | None = None,
    scenario: str | dict[str, Any] = "test.scenario",
    options: dict[str, Any] | None = None,
    hero_points: dict[str, int] | None = None,
    draw_hands: bool = False,
    favored: dict[str, str] | None = None,
    faces: tuple[int, ...] = (),
) -> Driver:
    """A game whose stacks are exactly as given (top first). Characters' decks default to ten
    plain fillers so that resetting never kills by accident; hands default to empty unless
    `draw_hands` (then they are drawn from the top of the deck as in setup)."""
    at = at or {}
    hands = hands or {}
    decks = decks or {}
    cards = dict(DEFINITIONS, **(definitions or {}))
    listed = (scenario if isinstance(scenario, dict) else cards[scenario])["locations"]
    used = [location for names in listed.values() for location in names]
    setup = {
        "scenario": scenario,
        "cards": cards,
        "vault": vault or [],
        "options": options or {},
        "characters": [
            {
                "id": name,
                "player": name,
                "character": f"test.{name}",
                "deck": decks.get(name, ["test.filler"] * 10),
                "location": at.get(name, "test.alpha"),
                "hero_points": (hero_points or {}).get(name, 0),
                **({"favored": (favored or {})[name]} if name in (favored or {}) else {}),
            }
            for name in characters
        ],
        "table": {
            "locations": {location: [] for location in used} | (locations or {}),
            "hourglass": hourglass if hourglass is not None else ["test.plain-blessing"] * 30,
        },
    }
    if not draw_hands:
        setup["table"]["hands"] = {name: hands.get(name, []) for name in characters}
    source = ArrangedSource(faces)
    return Driver(new_game(setup, seed="test", ruleset=ruleset, dice=source), source)


def until(driver: Driver, kind: str, player: str | None = None) -> None:
    """Pass every decision until one of this kind comes up (skipping give, move and the like)."""
    for _ in range(50):
        decision = driver.decision
        if decision["kind"] == kind:
            return
        driver.do(player or decision["players"][0], {"type": "pass"})
    raise AssertionError(f"no {kind} decision came up")
