"""Cards whose powers are not encoded: the player declares what the power does, the engine
applies it under the rules it knows; a bane whose check is unknown gets it entered once."""

from __future__ import annotations

from typing import Any

import pytest

from play.engine import IllegalAction

from .builders import table, until
from .driver import Driver

CARDS: dict[str, dict[str, Any]] = {
    "test.longsword": {"type": "weapon", "name": "Longsword", "traits": ["Melee", "Sword"], "declare": True},
    "test.holy-water": {"type": "item", "name": "Holy Water", "traits": ["Magic"], "declare": True},
    "test.ward": {"type": "armor", "name": "Ward", "declare": True},
    "test.mystery": {"type": "monster", "name": "Mystery", "check_unknown": True},
    "test.spirit": {"type": "monster", "name": "Spirit", "check": "Combat 6", "immune": ["Magic"]},
}


def exploring(bane: str, hand: list[str], **options: Any) -> Driver:
    game = table(definitions=CARDS, locations={"test.alpha": [bane, bane]}, hands={"fighter": hand}, **options)
    until(game, "explore")
    game.do("fighter", {"type": "explore"})
    return game


def declare(game: Driver, card_id: str, window: str, **declaration: Any) -> list[dict[str, Any]]:
    template = game.option(card=card_id, power=f"declare:{window}")
    return game.do("fighter", {**template["action"], **declaration})


def test_an_unencoded_weapon_is_offered_with_a_template_and_plays_as_declared() -> None:
    game = exploring("test.ogre", ["test.longsword"])
    entry = next(e for e in game.decision["options"] if e["action"].get("power") == "declare:check.skill")
    assert entry["declare"]["effects"] == ["use_skill"]
    assert "reveal" in entry["declare"]["costs"]
    events = declare(
        game,
        "test.longsword",
        "check.skill",
        cost="reveal",
        skill="Melee",
        effects=[{"use_skill": {"add": "1d8"}}],
        text="Reveal to use Strength or Melee + 1d8.",
    )
    check = game.decision["check"]
    assert check["dice"] == "1d10+1d8+2"
    assert {"Melee", "Sword"} <= set(check["traits"])  # the card played to determine the skill
    declared = next(event for event in events if event["type"] == "power_declared")
    assert declared["player"] == "fighter" and declared["text"] == "Reveal to use Strength or Melee + 1d8."
    assert game.zone("fighter", "hand") == ["test.longsword"]  # revealed, still in hand
    # One power of a card per step: the Longsword is not offered again on this check.
    assert not [e for e in game.decision["options"] if e["action"].get("card")]


def test_a_declared_power_follows_the_boon_limit_and_freely() -> None:
    game = exploring("test.ogre", ["test.holy-water", "test.holy-water"])
    game.choose("fighter", type="skill", skill="Melee")
    first, second = (e["action"] for e in game.decision["options"] if e["action"].get("power") == "declare:check")
    game.do("fighter", {**first, "cost": "discard", "effects": [{"add_die": "1d6"}]})
    assert game.decision["check"]["dice"] == "1d10+1d6+2"
    with pytest.raises(IllegalAction, match="already played a item"):
        game.do("fighter", {**second, "cost": "discard", "effects": [{"add_die": "1d6"}]})


def test_a_declared_card_is_refused_against_a_bane_immune_to_its_traits() -> None:
    game = exploring("test.spirit", ["test.holy-water"])
    game.choose("fighter", type="skill", skill="Melee")
    assert not [e for e in game.decision["options"] if e["action"].get("card")]


@pytest.mark.parametrize(
    ("declaration", "message"),
    [
        ({"cost": "discard", "effects": [{"heal": 2}]}, "'heal' cannot be declared here"),
        ({"cost": "discard", "effects": [{"add_die": "1d7"}]}, "d4, d6, d8"),
        ({"cost": "juggle", "effects": [{"add_die": "1d6"}]}, "cost must be the card action"),
        ({"cost": "discard", "effects": []}, "declare 1 to 4 effects"),
        ({"cost": "discard", "effects": [{"add": 99}]}, "from -10 to 10"),
    ],
)
def test_a_bad_declaration_is_refused_with_what_is_wrong_and_changes_nothing(
    declaration: dict[str, Any], message: str
) -> None:
    game = exploring("test.ogre", ["test.holy-water"])
    game.choose("fighter", type="skill", skill="Melee")
    before = game.state
    template = game.option(card="test.holy-water", power="declare:check")["action"]
    with pytest.raises(IllegalAction, match=message):
        game.do("fighter", {**template, **declaration})
    assert game.state is before


def test_a_declared_armor_reduces_damage_of_the_type_declared() -> None:
    game = exploring("test.ogre", ["test.ward", "test.filler"])
    game.choose("fighter", type="skill", skill="Melee")
    game.do("fighter", {"type": "roll"}, 5)  # 7 against 12: 5 damage
    events = declare(game, "test.ward", "damage", cost="recharge", effects=[{"reduce_damage": {"amount": 3}}])
    assert next(e for e in events if e["type"] == "damage_reduced")["by"] == 3


def test_an_unknown_check_is_entered_once_by_the_encountering_player_and_kept() -> None:
    game = exploring("test.mystery", [])
    decision = game.decision
    assert decision["kind"] == "enter_check" and decision["players"] == ["fighter"]
    with pytest.raises(IllegalAction, match="unknown skill 'Kombat'"):
        game.do("fighter", {"type": "enter_check", "check": "Kombat 9"})
    game.do("fighter", {"type": "enter_check", "check": "Combat 7 + AN"})
    game.choose("fighter", type="skill", skill="Melee")
    assert game.decision["check"]["difficulty"] == 8
    game.do("fighter", {"type": "roll"}, 9)  # defeated
    assert game.state["entered_checks"] == {"test.mystery": "Combat 7 + AN"}
    until(game, "explore")
    game.do("fighter", {"type": "explore"})  # the second Mystery: no question this time
    assert game.decision["kind"] == "choose_skill"
