"""Suffering Damage: the difference, its type, reductions by type with one boon of each type,
and the player's choice of the cards to discard."""

from __future__ import annotations

from typing import Any

from .builders import table
from .driver import Driver

CARDS: dict[str, dict[str, Any]] = {
    "test.salamander": {"type": "monster", "name": "Salamander", "check": "Combat 12", "damage": "Fire"},
    "test.parry-blade": {
        "type": "weapon",
        "name": "Parry Blade",
        "powers": [
            {
                "id": "parry",
                "timing": "damage",
                "cost": "recharge",
                "effects": [{"reduce_damage": {"amount": 1, "types": ["any"]}}],
            }
        ],
    },
    "test.pit": {"type": "location", "name": "Pit", "passive": [{"increase_damage": 1}]},
}


def failing(bane: str, hand: list[str], roll: int, **options: Any) -> Driver:
    game = table(definitions=CARDS, locations={"test.alpha": [bane]}, hands={"fighter": hand}, **options)
    game.do("fighter", {"type": "pass"})
    game.do("fighter", {"type": "explore"})
    game.choose("fighter", type="skill", skill="Melee")
    game.do("fighter", {"type": "roll"}, roll)
    return game


def test_failing_to_defeat_a_monster_deals_the_difference_as_combat_damage() -> None:
    game = failing("test.ogre", ["test.filler"] * 4, 5)  # 7 against 12
    assert game.events("damage_dealt")[0] == {
        "type": "damage_dealt",
        "character": "fighter",
        "amount": 5,
        "damage_type": "Combat",
    }


def test_a_monster_can_deal_another_damage_type() -> None:
    game = failing("test.salamander", ["test.filler"] * 4, 5)
    assert game.events("damage_dealt")[0]["damage_type"] == "Fire"


def test_failing_against_a_barrier_deals_no_damage() -> None:
    definitions = {"test.wall": {"type": "barrier", "name": "Wall", "check": "Combat 12"}}
    game = table(definitions=definitions, locations={"test.alpha": ["test.wall"]}, hands={"fighter": ["test.filler"]})
    game.do("fighter", {"type": "pass"})
    game.do("fighter", {"type": "explore"})
    game.choose("fighter", type="skill", skill="Melee")
    game.do("fighter", {"type": "roll"}, 1)
    assert not game.events("damage_dealt")


def test_the_player_chooses_which_cards_to_discard() -> None:
    game = failing("test.goblin", ["test.filler", "test.sword", "test.rock"], 2)  # 4 against 6: 2 damage
    decision = game.decision
    assert decision["kind"] == "discard" and decision["select"]["count"] == 2
    keep = game.instance("fighter", "test.sword")
    game.do("fighter", {"type": "select", "cards": [card for card in decision["select"]["cards"] if card != keep]})
    assert game.zone("fighter", "hand")[:1] == ["test.sword"]
    assert sorted(game.zone("fighter", "discards")) == ["test.filler", "test.rock"]


def test_damage_of_the_whole_hand_or_more_discards_the_whole_hand() -> None:
    game = failing("test.ogre", ["test.filler", "test.rock"], 1)
    assert sorted(game.zone("fighter", "discards")) == ["test.filler", "test.rock"]


def test_armor_reduces_only_the_damage_types_it_names() -> None:
    combat = failing("test.ogre", ["test.armor", "test.fire-ward", "test.filler"], 5)
    assert [entry["action"].get("card") for entry in combat.decision["options"]][:1] == [
        combat.instance("fighter", "test.armor")
    ]
    assert len(combat.decision["options"]) == 2  # the armor, or suffer it
    fire = failing("test.salamander", ["test.armor", "test.fire-ward", "test.filler"], 5)
    assert [entry["label"].split(":")[0] for entry in fire.decision["options"]] == ["Fire Ward", "Suffer the damage"]
    fire.choose("fighter", power="absorb", card="test.fire-ward")
    assert fire.events("damage_reduced")[0]["left"] == 0


def test_one_boon_of_each_type_per_damage_and_the_check_counts() -> None:
    game = failing("test.ogre", ["test.armor", "test.armor", "test.filler", "test.filler", "test.filler"], 5)
    game.do("fighter", game.decision["options"][0]["action"])
    # The second armor cannot be played against the same damage: the discards follow.
    assert game.decision["kind"] == "discard" and game.decision["select"]["count"] == 3
    # A weapon revealed on the check blocks a weapon against the damage from that check.
    definitions = dict(CARDS)
    game = table(
        definitions=definitions,
        locations={"test.alpha": ["test.ogre"]},
        hands={"fighter": ["test.knife", "test.parry-blade", "test.filler"]},
    )
    game.do("fighter", {"type": "pass"})
    game.do("fighter", {"type": "explore"})
    game.choose("fighter", type="skill", skill="Melee")
    game.choose("fighter", power="assist", card="test.knife")
    game.do("fighter", {"type": "roll"}, 1, 1)
    assert game.events("damage_dealt")[0]["amount"] == 8
    assert game.decision["kind"] != "damage"  # the Parry Blade was never offered
    assert "test.parry-blade" in game.zone("fighter", "discards")


def test_a_location_can_increase_the_damage_suffered_there() -> None:
    scenario = {"type": "scenario", "locations": {"1": ["test.pit", "test.beta"]}, "villains": [], "henchmen": []}
    game = table(
        definitions=CARDS,
        scenario=scenario,
        at={"fighter": "test.pit"},
        locations={"test.pit": ["test.goblin"]},
        hands={"fighter": ["test.filler"] * 4},
    )
    game.do("fighter", {"type": "pass"})
    game.do("fighter", {"type": "explore"})
    game.choose("fighter", type="skill", skill="Melee")
    game.do("fighter", {"type": "roll"}, 2)  # 4 against 6: 2, plus 1 at the Pit
    assert game.events("damage_dealt")[0]["amount"] == 3
