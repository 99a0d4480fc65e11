"""Places where the engine once contradicted the rulebooks, each pinned by the rule it now follows
(both rulesets where they differ), and the choices made where the books leave room."""

from __future__ import annotations

from typing import Any

import pytest

from play.engine import IllegalAction, SetupError, new_game
from play.engine.sandbox import sandbox_setup

from .builders import table, until
from .driver import Driver

BOTH = pytest.mark.parametrize("ruleset", ["core-2019", "classic"])

CARDS: dict[str, dict[str, Any]] = {
    # Core's example: "you cannot reveal Bracers of Protection to reduce damage by 1, then recharge
    # it to reduce damage by another 1".
    "test.bracers": {
        "type": "armor",
        "name": "Bracers",
        "powers": [
            {
                "id": "reveal",
                "timing": "damage",
                "cost": "reveal",
                "freely": True,
                "effects": [{"reduce_damage": {"amount": 1, "types": ["any"]}}],
            },
            {
                "id": "recharge",
                "timing": "damage",
                "cost": "recharge",
                "effects": [{"reduce_damage": {"amount": 1, "types": ["any"]}}],
            },
        ],
    },
    "test.parry": {
        "type": "weapon",
        "name": "Parry",
        "powers": [
            {
                "id": "parry",
                "timing": "damage",
                "cost": "recharge",
                "effects": [{"reduce_damage": {"amount": 1, "types": ["any"]}}],
            }
        ],
    },
    "test.twin-blade": {
        "type": "weapon",
        "name": "Twin Blade",
        "traits": ["Melee"],
        "powers": [
            {
                "id": "wield",
                "timing": "check.skill",
                "cost": "reveal",
                "requires": {"check": "combat"},
                "effects": [{"use_skill": {"skills": ["Melee"], "add": "1d8"}}],
            },
            {
                "id": "jab",
                "timing": "check",
                "cost": "recharge",
                "freely": True,
                "requires": {"check": "combat"},
                "effects": [{"add_die": "1d4"}],
            },
        ],
    },
    "test.mirror": {
        "type": "barrier",
        "name": "Mirror",
        "check": "Strength 20",
        "powers": [{"id": "copy", "when": "undefeated", "effects": [{"summon": {"card": "test.mirror"}}]}],
    },
    "test.caller": {
        "type": "barrier",
        "name": "Caller",
        "check": "Strength 20",
        "powers": [{"id": "call", "when": "undefeated", "effects": [{"summon": {"card": "test.echo"}}]}],
    },
    "test.echo": {
        "type": "barrier",
        "name": "Echo",
        "check": "Strength 20",
        "powers": [{"id": "call", "when": "undefeated", "effects": [{"summon": {"card": "test.wall"}}]}],
    },
    "test.boomerang": {
        "type": "barrier",
        "name": "Boomerang",
        "check": "Strength 20",
        "powers": [{"id": "back", "when": "undefeated", "effects": [{"summon": {"card": "test.caller"}}]}],
    },
    "test.wraith": {
        "type": "henchman",
        "subtype": "monster",
        "name": "Wraith",
        "check": "Combat 6",
        "immune": ["Magic"],
    },
    "test.wand": {
        "type": "item",
        "name": "Wand",
        "traits": ["Magic"],
        "powers": [{"id": "zap", "timing": "check", "cost": "recharge", "effects": [{"add_die": "1d6"}]}],
    },
    "test.mender": {
        "type": "character",
        "name": "Mender",
        "skills": {"Wisdom": "d8", "Strength": "d6"},
        "hand_size": 4,
        "powers": [
            {"id": "mend", "timing": "turn", "cost": {"discard": {"type": "blessing"}}, "effects": [{"heal": 2}]}
        ],
    },
    "test.sarenite": {
        "type": "blessing",
        "name": "Sarenite Blessing",
        "traits": ["Deity: Sarenrae"],
        "powers": [
            {
                "id": "bless",
                "timing": "check",
                "cost": "discard",
                "requires": {"whose": "local"},
                "effects": [{"bless": 1}],
            }
        ],
        "hour": {},
    },
    "test.hound": {
        "type": "cohort",
        "name": "Hound",
        "powers": [
            {
                "id": "bite",
                "timing": "check",
                "cost": "recharge",
                "requires": {"check": "combat", "whose": "local"},
                "effects": [{"add_die": "1d4"}],
            }
        ],
    },
    "test.hourly": {
        "type": "location",
        "name": "Hourly",
        "to_close": [{"auto": True}],
        "powers": [{"id": "toll", "when": "end_of_turn", "effects": [{"draw": 1}]}],
    },
}


def exploring(bane: str, hand: list[str], *, ruleset: str = "core-2019", **options: Any) -> Driver:
    game = table(
        ruleset=ruleset,
        definitions=CARDS | options.pop("definitions", {}),
        locations={"test.alpha": [bane]},
        hands={"fighter": hand},
        **options,
    )
    until(game, "explore")
    game.do("fighter", {"type": "explore"})
    return game


def drink(game: Driver) -> None:
    game.do("fighter", plays_of(game, "test.potion")[0])


def plays_of(game: Driver, card_id: str) -> list[dict[str, Any]]:
    return [
        entry["action"]
        for entry in game.decision["options"]
        if entry["action"]["type"] == "play"
        and entry["action"].get("card")
        and game.card_id(entry["action"]["card"]) == card_id
    ]


# -- 1. one card, one power per step ----------------------------------------------------------
@BOTH
def test_a_boon_played_freely_for_one_power_is_not_offered_for_its_other_power(ruleset: str) -> None:
    game = exploring("test.ogre", ["test.bracers", "test.parry"], ruleset=ruleset)
    game.choose("fighter", type="skill", skill="Melee")
    game.do("fighter", {"type": "roll"}, 5)  # 7 against 12: 5 damage
    assert {action["power"] for action in plays_of(game, "test.bracers")} == {"reveal", "recharge"}
    bracers = game.instance("fighter", "test.bracers")
    game.choose("fighter", power="reveal", card="test.bracers")
    assert plays_of(game, "test.bracers") == []
    assert [action["power"] for action in plays_of(game, "test.parry")] == ["parry"]
    with pytest.raises(IllegalAction) as refused:
        game.do(
            "fighter", {"type": "play", "character": "fighter", "source": "hand", "card": bracers, "power": "recharge"}
        )
    assert "one of its powers" in refused.value.message
    assert "choose only one of them" in refused.value.rule


@BOTH
def test_a_weapon_revealed_to_set_the_skill_is_not_offered_again_on_that_check_even_freely(ruleset: str) -> None:
    game = exploring("test.ogre", ["test.twin-blade"], ruleset=ruleset)
    game.choose("fighter", power="wield", card="test.twin-blade")
    assert game.decision["check"]["dice"] == "1d10+1d8+2"
    assert plays_of(game, "test.twin-blade") == []


# -- 2. no boon limit between the steps of a turn ---------------------------------------------
@BOTH
def test_potions_may_be_drunk_one_after_another_between_the_steps_of_a_turn(ruleset: str) -> None:
    game = table(ruleset=ruleset, hands={"fighter": ["test.potion"] * 4}, locations={"test.alpha": ["test.filler"]})
    drink(game)
    drink(game)
    assert game.decision["kind"] == "give"
    game.do("fighter", {"type": "pass"})
    drink(game)  # the move step
    game.do("fighter", {"type": "pass"})
    assert game.decision["kind"] == "explore"
    drink(game)  # the explore step
    drunk = [event for event in game.log if event["type"] == "card_played" and event["power"] == "drink"]
    assert len(drunk) == 4


def test_a_power_that_costs_no_card_is_used_once_between_the_steps_of_a_turn() -> None:
    scry = {"id": "scry", "timing": "turn", "effects": [{"examine": {"location": "local", "count": 1}}]}
    definitions = {"test.alpha": {"type": "location", "name": "Alpha", "to_close": [{"auto": True}], "powers": [scry]}}
    game = table(definitions=definitions, locations={"test.alpha": ["test.goblin"]})
    game.choose("fighter", source="location", power="scry")
    assert game.decision["kind"] == "move"
    assert not [entry for entry in game.decision["options"] if entry["action"]["type"] == "play"]


# -- 3. summoned cards summoning ------------------------------------------------------------
def failed_barrier(game: Driver) -> None:
    game.do("fighter", {"type": "roll"}, 1)


def test_core_a_summoned_card_cannot_summon_a_copy_of_itself() -> None:
    game = exploring("test.mirror", [], vault=["test.mirror"])
    failed_barrier(game)  # the Mirror summons a Mirror
    assert [event["cards"] for event in game.events("summoned")] == [["test.mirror"]]
    failed_barrier(game)  # the summoned Mirror may not summon itself again
    refused = game.events("summon_refused")
    assert refused and "copy of itself" in refused[0]["reason"]
    assert game.decision["kind"] != "check"


def test_core_a_summoned_card_cannot_summon_the_card_that_summoned_it_but_may_summon_others() -> None:
    game = exploring("test.boomerang", [], vault=["test.caller", "test.echo", "test.boomerang"])
    failed_barrier(game)  # Boomerang summons Caller
    failed_barrier(game)  # Caller (summoned) summons Echo: neither itself nor Boomerang
    assert [event["cards"] for event in game.log if event["type"] == "summoned"] == [["test.caller"], ["test.echo"]]
    failed_barrier(game)  # Echo summons Wall, a third card
    assert [event["cards"][0] for event in game.log if event["type"] == "summoned"][-1] == "test.wall"
    back = table(
        definitions=CARDS
        | {
            "test.echo": dict(
                CARDS["test.echo"],
                powers=[{"id": "call", "when": "undefeated", "effects": [{"summon": {"card": "test.caller"}}]}],
            )
        },
        locations={"test.alpha": ["test.caller"]},
        vault=["test.echo"],
    )
    until(back, "explore")
    back.do("fighter", {"type": "explore"})
    failed_barrier(back)  # Caller summons Echo
    failed_barrier(back)  # Echo may not summon its summoner, the Caller
    assert "the card that summoned it" in back.events("summon_refused")[0]["reason"]


def test_classic_summoned_cards_cannot_cause_other_cards_to_be_summoned() -> None:
    game = exploring("test.caller", [], ruleset="classic", vault=["test.echo"])
    failed_barrier(game)  # the Caller (not summoned) summons the Echo
    failed_barrier(game)  # the Echo is summoned: it may not summon the Wall
    assert [event["cards"] for event in game.log if event["type"] == "summoned"] == [["test.echo"]]
    assert "cannot cause other cards to be summoned" in game.events("summon_refused")[0]["reason"]


# -- 4. healing excludes the card paid with -------------------------------------------------
def test_healing_excludes_the_card_discarded_to_pay_for_it() -> None:
    game = table(
        characters=("mender",),
        definitions=CARDS,
        hands={"mender": ["test.blessing"]},
        locations={"test.alpha": ["test.filler"]},
    )
    game.choose("mender", power="mend", pay="test.blessing")
    assert game.zone("mender", "discards") == ["test.blessing"]
    assert not game.events("healed")


def test_healing_still_heals_the_other_discards() -> None:
    game = table(
        characters=("mender",),
        definitions=CARDS,
        hands={"mender": ["test.blessing"]},
        locations={"test.alpha": ["test.filler"]},
    )
    game.state["characters"]["mender"]["discards"].append(game.state["characters"]["mender"]["deck"].pop())
    game.choose("mender", power="mend", pay="test.blessing")
    assert game.events("healed")[0]["cards"] == ["test.filler"]
    assert game.zone("mender", "discards") == ["test.blessing"]


# -- 5. the encounter is over before the closing check ----------------------------------------
@BOTH
def test_a_defeated_henchmans_immunities_do_not_reach_the_closing_check(ruleset: str) -> None:
    scenario = {
        "type": "scenario",
        "locations": {"1": ["test.alpha", "test.beta"]},
        "villains": [],
        "henchmen": [{"card": "test.wraith", "closing": True}],
    }
    game = table(
        ruleset=ruleset,
        scenario=scenario,
        definitions=CARDS,
        hands={"fighter": ["test.wand"]},
        locations={"test.alpha": ["test.wraith", "test.rock"]},
    )
    until(game, "explore")
    game.do("fighter", {"type": "explore"})
    game.choose("fighter", type="skill", skill="Melee")
    assert plays_of(game, "test.wand") == []  # the Wraith is immune to Magic
    game.do("fighter", {"type": "roll"}, 8)
    assert game.decision["kind"] == "close"
    game.do("fighter", {"type": "attempt", "option": 0})
    assert [action["power"] for action in plays_of(game, "test.wand")] == ["zap"]
    assert not [step for step in game.state["stack"] if step["kind"] == "encounter"]


def test_a_lasting_encounter_effect_outlives_a_summoned_encounter_inside_it() -> None:
    definitions = CARDS | {
        "test.trap": {
            "type": "barrier",
            "name": "Trap",
            "check": "Strength 20",
            "powers": [
                {
                    "id": "mark",
                    "when": "encountered",
                    "effects": [
                        {"lasting": {"duration": "encounter", "check_die": "1d4", "label": "Mark"}},
                        {"summon": {"card": "test.goblin"}},
                    ],
                },
            ],
        },
    }
    game = exploring("test.trap", [], definitions=definitions, vault=["test.goblin"])
    game.choose("fighter", type="skill", skill="Melee")  # the summoned Goblin, first
    assert game.decision["check"]["against"] == "test.goblin"
    game.do("fighter", {"type": "roll"}, 8, 1)  # the Goblin is defeated; its encounter ends
    check = game.decision["check"]
    assert check["against"] == "test.trap"
    assert check["dice"] == "1d10+1d4"  # the Trap's Mark still lasts for the Trap's encounter
    assert [effect["passive"]["label"] for effect in game.state["effects"]] == ["Mark"]


# -- 6. Play It Your Way: one location more or fewer ------------------------------------------
def location_ids(state: dict[str, Any]) -> list[str]:
    return list(state["locations"])


def test_one_location_fewer_removes_one_location_not_a_characters_worth() -> None:
    normal = new_game(sandbox_setup(1), seed="s")
    fewer = new_game(sandbox_setup(1, options={"location_count_delta": -1}), seed="s")
    assert len(location_ids(fewer)) == len(location_ids(normal)) - 1 == 2


def test_one_location_more_adds_the_next_location_the_scenario_lists() -> None:
    normal = new_game(sandbox_setup(1), seed="s")
    more = new_game(sandbox_setup(1, options={"location_count_delta": 1}), seed="s")
    assert location_ids(more) == [*location_ids(normal), "sandbox.library"]


def test_six_characters_cannot_add_a_location_the_scenario_does_not_list() -> None:
    with pytest.raises(SetupError, match="cannot add one"):
        new_game(sandbox_setup(6, options={"location_count_delta": 1, "mode": "heroic", "wildcards": []}), seed="s")


def test_an_extra_location_counts_as_a_challenge_increase_only_when_it_adds_one() -> None:
    with pytest.raises(SetupError, match="this setup has 1"):
        new_game(sandbox_setup(2, options={"mode": "heroic", "location_count_delta": 1}), seed="s")
    new_game(sandbox_setup(2, options={"mode": "heroic", "location_count_delta": 1, "hourglass_size": 25}), seed="s")


# -- 7. the traits a check gets ---------------------------------------------------------------
def test_core_checks_get_the_listed_skill_and_the_characters_traits() -> None:
    game = exploring("test.ogre", [])
    game.choose("fighter", type="skill", skill="Melee")
    assert game.decision["check"]["traits"] == ["Combat", "Melee", "Strength", "Human"]


def test_classic_checks_get_only_the_skill_used_and_the_skills_it_references() -> None:
    game = exploring("test.ogre", ["test.sword"], ruleset="classic")
    game.choose("fighter", type="skill", skill="Melee")
    assert game.decision["check"]["traits"] == ["Melee", "Strength"]
    played = exploring("test.ogre", ["test.sword"], ruleset="classic")
    played.choose("fighter", power="strike", card="test.sword")
    assert played.decision["check"]["traits"] == ["Melee", "Strength", "Slashing"]


@pytest.mark.parametrize(("ruleset", "traits"), [("core-2019", {"Sarenrae"}), ("classic", set())])
def test_a_deity_blessing_adds_the_deity_as_a_trait_in_core_only(ruleset: str, traits: set[str]) -> None:
    game = exploring("test.ogre", ["test.sarenite"], ruleset=ruleset)
    game.choose("fighter", type="skill", skill="Melee")
    game.choose("fighter", power="bless", card="test.sarenite")
    assert set(game.decision["check"]["traits"]) & {"Sarenrae", "Deity: Sarenrae"} == traits


# -- decided where the books leave room ------------------------------------------------------
def test_classic_one_card_of_each_type_per_player_counts_cohorts() -> None:
    game = exploring("test.ogre", ["test.hound", "test.hound"], ruleset="classic")
    game.choose("fighter", type="skill", skill="Melee")
    game.do("fighter", plays_of(game, "test.hound")[0])
    assert plays_of(game, "test.hound") == []


def test_core_the_boon_limit_does_not_count_cohorts() -> None:
    game = exploring("test.ogre", ["test.hound", "test.hound"])
    game.choose("fighter", type="skill", skill="Melee")
    game.do("fighter", plays_of(game, "test.hound")[0])
    assert len(plays_of(game, "test.hound")) == 1


@BOTH
def test_cards_may_be_played_while_the_end_of_turn_effects_happen(ruleset: str) -> None:
    game = table(ruleset=ruleset, hands={"fighter": ["test.potion"]}, locations={"test.alpha": []})
    until(game, "close_step")
    game.do("fighter", {"type": "pass"})
    assert game.decision["kind"] == "end_turn"
    events = game.do("fighter", plays_of(game, "test.potion")[0])
    kinds = [event["type"] for event in events]
    assert kinds.index("card_played") < kinds.index("turn_ended")
