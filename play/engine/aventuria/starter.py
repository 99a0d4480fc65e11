"""A small homebrew Aventuria starter combat (ours, not the box's: the rulebook gives no hero's or
opponent's full values), complete enough to play a whole combat for 1 to 4 heroes."""

from __future__ import annotations

from typing import Any

CARDS: dict[str, dict[str, Any]] = {
    "short-sword": {
        "name": "Short Sword",
        "cost": 1,
        "kind": "weapon",
        "attack": {"type": "close_combat", "damage": "1D6+2"},
    },
    "long-bow": {
        "name": "Long Bow",
        "cost": 2,
        "kind": "weapon",
        "attack": {"type": "ranged_combat", "damage": "1D6+3"},
    },
    "fire-dart": {
        "name": "Fire Dart",
        "cost": 1,
        "kind": "spell",
        "discard": True,
        "attack": {"type": "magic", "damage": "2D6"},
    },
    "leather-armor": {"name": "Leather Armor", "cost": 1, "kind": "armor", "protection": 2},
    "chain-shirt": {"name": "Chain Shirt", "cost": 2, "kind": "armor", "protection": 3},
    "healing-draught": {"name": "Healing Draught", "cost": 1, "kind": "potion", "discard": True, "heal": 6},
    "provisions": {"name": "Provisions", "cost": 0, "kind": "equipment"},
}

_DECK = ["leather-armor", "healing-draught", "healing-draught", "provisions", "provisions", "provisions"]

HEROES: list[dict[str, Any]] = [
    {
        "id": "sellsword",
        "name": "Sellsword",
        "attributes": {"close_combat": 13, "ranged_combat": 8, "magic": None, "dodge": 9},
        "basic_attack": {"name": "Dagger", "type": "close_combat", "damage": "1D6"},
        "deck": ["short-sword", "chain-shirt", *_DECK, "short-sword", "provisions"],
    },
    {
        "id": "archer",
        "name": "Archer",
        "attributes": {"close_combat": 9, "ranged_combat": 14, "magic": None, "dodge": 11},
        "basic_attack": {"name": "Knife", "type": "close_combat", "damage": "1D6"},
        "deck": ["long-bow", *_DECK, "long-bow", "provisions", "provisions"],
    },
    {
        "id": "hedge-mage",
        "name": "Hedge Mage",
        "attributes": {"close_combat": 7, "ranged_combat": 7, "magic": 14, "dodge": 10},
        "basic_attack": {"name": "Staff", "type": "close_combat", "damage": "1D6"},
        "deck": ["fire-dart", "fire-dart", "fire-dart", *_DECK, "fire-dart"],
    },
    {
        "id": "healer",
        "name": "Healer",
        "attributes": {"close_combat": 10, "ranged_combat": 8, "magic": 12, "dodge": 10},
        "basic_attack": {"name": "Mace", "type": "close_combat", "damage": "1D6+1"},
        "deck": ["healing-draught", "healing-draught", "fire-dart", *_DECK, "short-sword"],
    },
]

LEADER = {
    "id": "kobold-chief",
    "name": "Kobold Chief",
    "life_per_hero": 6,
    "dodge": 6,
    "armor": 1,
    "actions": "heroes",
    "table": [
        {
            "from": 1,
            "to": 8,
            "attack": {"type": "close_combat", "damage": "1D6+3", "target": "starting"},
            "text": "Rusty blade",
        },
        {
            "from": 9,
            "to": 14,
            "attack": {"type": "ranged_combat", "damage": "1D6+1", "target": "least_life"},
            "text": "Thrown spear",
        },
        {"from": 15, "to": 17, "henchmen": 1, "text": "Calls for help"},
        {"from": 18, "to": 20, "text": "Shouts orders, to no effect"},
    ],
}

HENCHMEN = [
    {
        "id": "kobold-scrapper",
        "name": "Kobold Scrapper",
        "threat": 3,
        "life": 5,
        "dodge": 5,
        "armor": 0,
        "actions": 1,
        "table": [
            {
                "from": 1,
                "to": 10,
                "attack": {"type": "close_combat", "damage": "1D6+1", "target": "random"},
                "text": "Stab",
            },
            {"from": 11, "to": 20, "text": "Hesitates"},
        ],
    },
    {
        "id": "kobold-slinger",
        "name": "Kobold Slinger",
        "threat": 3,
        "life": 4,
        "dodge": 7,
        "armor": 0,
        "actions": 1,
        "table": [
            {
                "from": 1,
                "to": 8,
                "attack": {"type": "ranged_combat", "damage": "1D6", "target": "most_life"},
                "text": "Sling stone",
            },
            {"from": 9, "to": 20, "text": "Looks for stones"},
        ],
    },
    {
        "id": "giant-rat",
        "name": "Giant Rat",
        "threat": 2,
        "life": 3,
        "dodge": None,
        "armor": 0,
        "actions": 1,
        "table": [
            {"from": 1, "to": 6, "lose_life": {"damage": "1D3", "target": "random"}, "text": "Filthy bite"},
            {"from": 7, "to": 20, "text": "Squeaks"},
        ],
    },
]


def starter_setup(heroes: int | list[str] = 2, players: list[str] | None = None) -> dict[str, Any]:
    """The Kobold Warren: the chief and henchmen up to 5 threat points a hero, 8 time counters
    (a henchman joins at 4, the kobolds overwhelm the heroes at 0). `heroes`: how many, or
    which (their ids)."""
    wanted = [hero["id"] for hero in HEROES[:heroes]] if isinstance(heroes, int) else heroes
    chosen = [dict(hero) for hero in HEROES if hero["id"] in wanted]
    chosen.sort(key=lambda hero: wanted.index(hero["id"]))
    for hero, player in zip(chosen, players or [], strict=False):
        hero["player"] = player
    return {
        "title": "The Kobold Warren (homebrew)",
        "heroes": chosen,
        "cards": CARDS,
        "leaders": [LEADER],
        "henchmen": [*HENCHMEN, *HENCHMEN],
        "threat_per_hero": 5,
        "time_scale": {
            "counters": 8,
            "effects": {"4": {"henchmen": 1, "text": "A henchman joins"}, "0": {"defeat": True, "text": "Overwhelmed"}},
        },
    }
