"""Your Turn: advance the hour, give, move, explore, close, end the turn (Core Set "Playing a
Scenario", "Resetting"; classic differences from Wrath of the Righteous)."""

from __future__ import annotations

import pytest

from .builders import DEFINITIONS, table, until

DRAWING_HOUR = {"test.dawn": {"type": "blessing", "name": "Dawn", "hour": {"effects": [{"draw": 1}]}}}


def test_the_turn_starts_by_advancing_the_hour() -> None:
    game = table(hourglass=["test.plain-blessing", "test.blessing"])
    assert game.names(game.state["hourglass_discards"]) == ["test.plain-blessing"]
    assert game.names(game.state["hourglass"]) == ["test.blessing"]


@pytest.mark.parametrize(("ruleset", "drawn"), [("core-2019", 1), ("classic", 0)])
def test_the_hour_effect_happens_in_core_only(ruleset: str, drawn: int) -> None:
    game = table(ruleset=ruleset, definitions=DRAWING_HOUR, hourglass=["test.dawn", "test.plain-blessing"])
    assert len(game.zone("fighter", "hand")) == drawn


def test_an_empty_hourglass_at_the_start_of_a_turn_loses_the_scenario() -> None:
    game = table(hourglass=["test.plain-blessing"], hands={"fighter": ["test.filler"]})
    until(game, "reset", "fighter")
    game.do("fighter", {"type": "pass"})
    assert game.state["status"] == "lost"
    assert game.state["outcome"]["reason"] == "the hourglass is empty"


def test_the_classic_timer_is_the_blessings_deck() -> None:
    game = table(ruleset="classic", hourglass=["test.plain-blessing"], hands={"fighter": ["test.filler"]})
    until(game, "reset", "fighter")
    game.do("fighter", {"type": "pass"})
    assert game.state["outcome"]["reason"] == "the blessings deck is empty"


def test_a_card_can_be_given_only_to_a_local_character() -> None:
    game = table(
        characters=("fighter", "mage", "priest"),
        at={"fighter": "test.alpha", "mage": "test.alpha", "priest": "test.beta"},
        hands={"fighter": ["test.sword"]},
    )
    assert game.decision["kind"] == "give"
    assert {entry["action"].get("to") for entry in game.decision["options"]} == {"mage", None}
    game.choose("fighter", type="give", to="mage")
    assert game.zone("mage", "hand") == ["test.sword"]
    assert game.decision["kind"] == "move"


def test_moving_goes_to_a_distant_location() -> None:
    game = table()
    assert game.decision["kind"] == "move"
    assert [entry["action"].get("location") for entry in game.decision["options"]] == ["test.beta", "test.gamma", None]
    game.do("fighter", {"type": "move", "location": "test.gamma"})
    assert game.state["characters"]["fighter"]["location"] == "test.gamma"


def test_the_first_exploration_is_free_and_further_ones_need_a_card() -> None:
    game = table(locations={"test.alpha": ["test.rock", "test.rock"]}, hands={"fighter": ["test.scout"]})
    game.do("fighter", {"type": "pass"})
    game.do("fighter", {"type": "explore"})
    game.do("fighter", {"type": "roll"}, 6)  # Strength d10 vs 3: acquired
    assert game.decision["kind"] == "explore"
    assert [entry["action"]["type"] for entry in game.decision["options"]] == ["play", "pass"]
    game.choose("fighter", power="explore", card="test.scout")
    assert game.events("explored")[0]["exploration"] == 2


def test_an_exploration_grants_at_most_one_more_whatever_grants_it() -> None:
    definitions = {
        "test.door": {
            "type": "barrier",
            "name": "Door",
            "check": "Strength 1",
            "powers": [{"when": "defeated", "effects": [{"explore_again": True}, {"explore_again": True}]}],
        }
    }
    game = table(definitions=definitions, locations={"test.alpha": ["test.door", "test.rock", "test.rock"]})
    game.do("fighter", {"type": "pass"})
    game.do("fighter", {"type": "explore"})
    game.do("fighter", {"type": "roll"}, 5)
    assert game.decision["prompt"] == "Explore again?"
    assert [entry["action"]["type"] for entry in game.decision["options"]] == ["explore", "pass"]
    game.do("fighter", {"type": "explore"})
    game.do("fighter", {"type": "roll"}, 5)  # acquires a rock
    # Two effects granted one additional exploration, not two: the turn moves on.
    assert game.decision["kind"] == "reset"


def test_an_additional_exploration_may_be_forfeited() -> None:
    definitions = {
        "test.door": {
            "type": "barrier",
            "name": "Door",
            "check": "Strength 1",
            "powers": [{"when": "defeated", "effects": [{"explore_again": True}]}],
        }
    }
    game = table(
        definitions=definitions,
        locations={"test.alpha": ["test.door", "test.rock"]},
        hands={"fighter": ["test.filler"]},
    )
    game.do("fighter", {"type": "pass"})
    game.do("fighter", {"type": "explore"})
    game.do("fighter", {"type": "roll"}, 5)
    game.do("fighter", {"type": "pass"})
    assert game.events("exploration_forfeited")
    assert game.decision["kind"] == "reset"


def test_an_empty_location_cannot_be_explored_but_may_be_closed() -> None:
    game = table(locations={"test.alpha": []})
    game.do("fighter", {"type": "pass"})
    assert game.decision["kind"] == "close_step"
    assert game.option(type="close")


def test_a_location_with_cards_offers_no_close_step() -> None:
    game = table(locations={"test.alpha": ["test.rock"]}, hands={"fighter": ["test.filler"]})
    game.do("fighter", {"type": "pass"})
    game.do("fighter", {"type": "pass"})  # do not explore
    assert game.decision["kind"] == "reset"


def test_reset_discards_any_then_down_to_the_hand_size_then_draws_up() -> None:
    game = table(hands={"fighter": ["test.filler"] * 6})
    until(game, "reset")
    game.do("fighter", {"type": "discard", "card": game.instance("fighter", "test.filler")})
    game.do("fighter", {"type": "pass"})
    decision = game.decision
    assert decision["kind"] == "discard_down" and decision["select"]["count"] == 1
    game.do("fighter", {"type": "select", "cards": decision["select"]["cards"][:1]})
    assert len(game.zone("fighter", "hand")) == 4 and len(game.zone("fighter", "discards")) == 2


def test_reset_draws_up_to_the_hand_size() -> None:
    game = table(hands={"fighter": ["test.sword"]})
    until(game, "reset")
    game.do("fighter", {"type": "pass"})
    assert len(game.zone("fighter", "hand")) == 4 and len(game.zone("fighter", "deck")) == 7


def test_a_deck_too_short_to_draw_up_kills_the_character() -> None:
    game = table(
        characters=("fighter", "mage"), decks={"fighter": ["test.filler"] * 2}, hands={"fighter": ["test.rock"]}
    )
    until(game, "reset", "fighter")
    game.do("fighter", {"type": "pass"})
    assert game.state["characters"]["fighter"]["alive"] is False
    assert sorted(game.zone("fighter", "buried")) == ["test.filler", "test.filler", "test.rock"]
    assert game.state["table"]["active"] == "mage"


def test_the_turn_passes_to_the_next_living_character() -> None:
    game = table(
        characters=("fighter", "mage", "priest"),
        hands={name: ["test.filler"] for name in ("fighter", "mage", "priest")},
    )
    until(game, "reset", "fighter")
    game.do("fighter", {"type": "pass"})
    assert game.state["table"]["active"] == "mage"
    game.state["characters"]["priest"]["alive"] = False
    until(game, "reset", "mage")
    game.do("mage", {"type": "pass"})
    assert game.state["table"]["active"] == "fighter"


def test_powers_may_be_used_between_the_steps_of_a_turn() -> None:
    game = table(hands={"fighter": ["test.potion"]})
    assert game.decision["kind"] == "give"  # only because the potion can be drunk now
    game.choose("fighter", power="drink", card="test.potion")
    # Healing excludes the card discarded to heal: with no other discards, nothing is healed.
    assert game.zone("fighter", "discards") == ["test.potion"]
    assert game.decision["kind"] == "move"


def test_definitions_in_the_builder_are_not_changed_by_games() -> None:
    before = repr(DEFINITIONS)
    game = table(locations={"test.alpha": ["test.goblin"]})
    game.do("fighter", {"type": "pass"})
    assert repr(DEFINITIONS) == before
