"""Attempting a Check: skill, traits, difficulty, cards played and their limits, bless,
immunities, vulnerable and resistant, rolling and rerolling."""

from __future__ import annotations

from typing import Any

import pytest

from play.engine import IllegalAction

from .builders import table, until
from .driver import Driver

GOLEM = {
    "test.golem": {
        "type": "monster",
        "name": "Golem",
        "check": "Combat 12",
        "immune": ["Poison"],
        "vulnerable": ["Slashing"],
    },
    "test.brute": {"type": "monster", "name": "Brute", "check": "Combat 12", "resistant": ["Melee"]},
    "test.pitfall": {"type": "barrier", "name": "Pitfall", "check": "Dexterity 3", "resistant": ["Dexterity"]},
}


def at_check(
    bane: str = "test.goblin", skill: str | None = "Melee", *, ruleset: str = "core-2019", **options: Any
) -> Driver:
    """The fighter explores Alpha and meets `bane`; other characters stand with him."""
    definitions = GOLEM | options.pop("definitions", {})
    game = table(ruleset=ruleset, definitions=definitions, locations={"test.alpha": [bane]}, **options)
    until(game, "explore")
    game.do("fighter", {"type": "explore"})
    if skill:
        game.choose("fighter", type="skill", skill=skill)
    return game


def test_a_skill_the_character_lacks_rolls_a_d4() -> None:
    game = table(characters=("mage",), at={"mage": "test.alpha"}, locations={"test.alpha": ["test.goblin"]})
    game.do("mage", {"type": "pass"})
    game.do("mage", {"type": "explore"})
    assert game.option(type="skill", skill="Strength")["check"]["dice"] == "1d4"
    assert game.option(type="skill", skill="Melee")["check"]["dice"] == "1d4"


def test_the_check_gets_the_listed_skill_the_skill_used_its_base_and_the_characters_traits() -> None:
    game = at_check(skill=None, hands={"fighter": ["test.sword"]})
    game.choose("fighter", power="strike", card="test.sword")
    check = game.decision["check"]
    assert check["traits"] == ["Combat", "Melee", "Strength", "Human", "Slashing"]
    assert check["dice"] == "1d10+1d8+2"


def test_difficulty_uses_the_adventure_number() -> None:
    game = at_check("test.ogre", options={"adventure": 2})
    assert game.decision["check"]["difficulty"] == 14  # 10 + 2AN


def test_bless_adds_a_die_of_the_skill_in_use() -> None:
    game = at_check(hands={"fighter": ["test.blessing"]})
    game.choose("fighter", power="bless")
    assert game.decision["check"]["dice"] == "2d10+2"


def two_with_knives(ruleset: str) -> Driver:
    return at_check(
        ruleset=ruleset,
        characters=("fighter", "mage"),
        hands={"fighter": ["test.knife", "test.dart"], "mage": ["test.knife"]},
    )


def test_core_the_party_plays_one_boon_of_each_type_per_check() -> None:
    game = two_with_knives("core-2019")
    game.choose("fighter", character="fighter", power="assist", card="test.knife")
    mage_knife = [e for e in game.decision["options"] if e["action"].get("character") == "mage"]
    assert mage_knife == []
    with pytest.raises(IllegalAction) as caught:
        game.do(
            "mage",
            {
                "type": "play",
                "character": "mage",
                "source": "hand",
                "card": game.instance("mage", "test.knife"),
                "power": "assist",
            },
        )
    assert "already played a weapon" in caught.value.message
    assert "one of each type of boon" in caught.value.rule


def test_classic_each_player_plays_one_boon_of_each_type_per_check() -> None:
    game = two_with_knives("classic")
    game.choose("fighter", character="fighter", power="assist", card="test.knife")
    game.choose("mage", character="mage", power="assist", card="test.knife")
    assert game.decision["check"]["dice"] == "1d10+2d4+2"


def test_a_freely_played_boon_does_not_count_toward_the_limit() -> None:
    game = two_with_knives("core-2019")
    game.choose("fighter", character="fighter", power="assist", card="test.knife")
    game.choose("fighter", character="fighter", power="assist", card="test.dart")
    assert game.decision["check"]["dice"] == "1d10+2d4+2"


def test_a_card_is_revealed_for_its_power_once_per_check() -> None:
    game = two_with_knives("core-2019")
    knife = game.instance("fighter", "test.knife")
    game.choose("fighter", character="fighter", power="assist", card="test.knife")
    with pytest.raises(IllegalAction, match="already revealed"):
        game.do("fighter", {"type": "play", "character": "fighter", "source": "hand", "card": knife, "power": "assist"})


def test_a_card_with_a_trait_the_bane_is_immune_to_cannot_be_played() -> None:
    game = at_check("test.golem", hands={"fighter": ["test.poison-dart"]})
    assert not [entry for entry in game.decision["options"] if entry["action"]["type"] == "play"]
    dart = game.instance("fighter", "test.poison-dart")
    with pytest.raises(IllegalAction) as caught:
        game.do("fighter", {"type": "play", "character": "fighter", "source": "hand", "card": dart, "power": "assist"})
    assert caught.value.message == "Golem is immune to Poison"
    assert "immune" in caught.value.rule


def test_a_card_not_in_hand_cannot_be_played() -> None:
    game = at_check(hands={"fighter": ["test.blessing"]})
    blessing = game.instance("fighter", "test.blessing")
    game.choose("fighter", power="bless")
    with pytest.raises(IllegalAction) as caught:
        game.do(
            "fighter", {"type": "play", "character": "fighter", "source": "hand", "card": blessing, "power": "bless"}
        )
    assert caught.value.message == "that card is not in your hand"


def test_vulnerable_adds_4_and_resistant_subtracts_4() -> None:
    vulnerable = at_check("test.golem", skill=None, hands={"fighter": ["test.sword"]})
    vulnerable.choose("fighter", power="strike", card="test.sword")  # Slashing
    assert vulnerable.decision["check"]["adjustment"] == 4
    resistant = at_check("test.brute")
    assert resistant.decision["check"]["adjustment"] == -4
    assert resistant.decision["check"]["dice"] == "1d10-2"


def test_the_result_is_never_below_0() -> None:
    game = at_check("test.pitfall", skill=None)  # Dexterity d6 - 4 (resistant)
    game.do("fighter", {"type": "roll"}, 1)
    assert game.events("rolled")[0]["result"] == 0


def test_core_lets_a_character_choose_to_fail_with_a_result_of_0() -> None:
    game = at_check()
    game.do("fighter", {"type": "fail"})
    assert game.events("check_resolved")[0]["result"] == 0
    assert game.events("damage_dealt")[0]["amount"] == 6


def test_classic_offers_no_choice_to_fail() -> None:
    game = at_check(ruleset="classic")
    assert [entry["action"]["type"] for entry in game.decision["options"]] == ["roll"]


def test_a_hero_point_rerolls_the_dice_once_on_ones_own_check() -> None:
    game = at_check(characters=("fighter", "mage"), hero_points={"fighter": 1, "mage": 1})
    game.do("fighter", {"type": "roll"}, 1)
    assert game.decision["kind"] == "reroll"
    assert [entry["player"] for entry in game.decision["options"] if entry["action"]["type"] == "hero_point"] == [
        "fighter"
    ]
    game.do("fighter", {"type": "hero_point"}, 9)
    assert game.events("rerolled")[0]["face"] == 9
    assert game.state["characters"]["fighter"]["hero_points"] == 0
    assert game.events("check_resolved")[0]["success"] is True


def test_a_reroll_can_target_one_die_and_every_face_is_logged() -> None:
    definitions = {
        "test.luck": {
            "type": "blessing",
            "name": "Luck",
            "hour": {
                "powers": [{"id": "luck", "timing": "reroll", "cost": {"discard": {}}, "effects": [{"reroll": "one"}]}]
            },
        }
    }
    game = at_check(
        definitions=definitions, hourglass=["test.luck"] * 3, hands={"fighter": ["test.blessing", "test.filler"]}
    )
    game.choose("fighter", power="bless")
    game.do("fighter", {"type": "roll"}, 1, 2)
    game.choose("fighter", 7, power="luck", die=0)
    assert game.events("rerolled")[0] == {
        "type": "rerolled",
        "check": game.events("rerolled")[0]["check"],
        "die": 0,
        "sides": 10,
        "before": 1,
        "face": 7,
    }
    assert [event["face"] for event in game.log if event["type"] == "random" and event["what"] == "roll"] == [1, 2, 7]
    assert game.events("check_resolved")[0]["result"] == 11


def test_the_check_decision_shows_the_exact_odds() -> None:
    game = at_check()
    odds = game.decision["check"]["odds"]
    assert odds["dice"] == "1d10+2" and odds["chance"] == "7/10"
    assert odds["expected_damage_on_failure"] == "2/1"  # results 3, 4, 5: damage 3, 2, 1


def test_the_decision_lists_per_card_the_powers_it_can_be_played_for() -> None:
    game = at_check(hands={"fighter": ["test.blessing", "test.knife", "test.filler"]})
    by_card = game.decision["by_card"]
    assert {game.card_id(card): [entry["power"] for entry in entries] for card, entries in by_card.items()} == {
        "test.blessing": ["bless"],
        "test.knife": ["assist"],
    }
    entry = by_card[game.instance("fighter", "test.knife")][0]
    assert game.decision["options"][entry["option"]]["action"]["power"] == "assist"
