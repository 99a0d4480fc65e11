"""Closing Your Location; winning and losing."""

from __future__ import annotations

from typing import Any

import pytest

from .builders import table, until
from .driver import Driver

WHEN_CLOSED = {
    "test.armory": {
        "type": "location",
        "name": "Armory",
        "to_close": [{"cost": {"bury": {"type": "ally"}}}, {"check": "Strength 5"}],
        "powers": [{"when": "closed", "effects": [{"draw": {"from": "vault", "type": "weapon"}}]}],
    }
}


def close_step(ruleset: str = "core-2019", **options: Any) -> Driver:
    game = table(ruleset=ruleset, **options)
    until(game, "close_step")
    game.do(game.decision["players"][0], {"type": "close"})
    return game


@pytest.mark.parametrize("ruleset", ["core-2019", "classic"])
def test_an_empty_location_closes_when_its_requirement_is_met(ruleset: str) -> None:
    game = close_step(ruleset, characters=("fighter", "mage"))
    game.do("fighter", {"type": "attempt", "option": 0})
    game.do("fighter", {"type": "roll"}, 5)
    alpha = game.state["locations"]["test.alpha"]
    assert alpha["closed"]
    if ruleset == "core-2019":
        # Banished: the location leaves play and the characters there move at once.
        assert alpha["in_play"] is False and game.names(game.state["vault"]["location"]) == ["test.alpha"]
        assert game.decision["kind"] == "relocate"
        assert {entry["action"]["location"] for entry in game.decision["options"]} == {"test.beta", "test.gamma"}
    else:
        # Flipped over: it stays on the table and characters stay there.
        assert alpha["in_play"] is True and alpha["card"] is not None
        assert game.state["characters"]["mage"]["location"] == "test.alpha"


def test_a_failed_attempt_leaves_the_location_open() -> None:
    game = close_step()
    game.do("fighter", {"type": "attempt", "option": 0})
    game.do("fighter", {"type": "roll"}, 4)
    assert game.state["locations"]["test.alpha"]["closed"] is False


def test_the_requirement_can_be_a_cost_and_the_when_closed_effects_happen() -> None:
    scenario = {"type": "scenario", "locations": {"1": ["test.armory", "test.beta"]}, "villains": [], "henchmen": []}
    game = close_step(
        definitions=WHEN_CLOSED,
        scenario=scenario,
        at={"fighter": "test.armory"},
        hands={"fighter": ["test.scout"]},
        vault=["test.sword"],
    )
    assert [entry["label"] for entry in game.decision["options"]] == [
        "Bury Scout",
        "Attempt Strength 5",
        "Leave it open",
    ]
    game.choose("fighter", type="attempt", option=0)
    assert game.zone("fighter", "buried") == ["test.scout"]
    assert game.events("card_gained")[0]["card"] == "test.sword"


def test_closing_finds_villains_banishes_the_rest_and_does_not_close() -> None:
    scenario = {
        "type": "scenario",
        "locations": {"1": ["test.alpha", "test.beta"]},
        "villains": ["test.lich"],
        "henchmen": [{"card": "test.imp", "closing": True}],
    }
    game = table(scenario=scenario, locations={"test.alpha": ["test.imp", "test.rock", "test.lich"]})
    until(game, "explore")
    game.do("fighter", {"type": "explore"})
    game.choose("fighter", type="skill", skill="Melee")
    game.do("fighter", {"type": "roll"}, 8)
    game.do("fighter", {"type": "attempt", "option": 0})
    game.do("fighter", {"type": "roll"}, 6)
    assert game.state["locations"]["test.alpha"]["closed"] is False
    assert game.location("test.alpha") == ["test.lich"]
    assert game.names(game.state["vault"]["item"]) == ["test.rock"]


def test_closing_a_location_during_the_explore_step_ends_exploring() -> None:
    scenario = {
        "type": "scenario",
        "locations": {"1": ["test.alpha", "test.beta"]},
        "villains": [],
        "henchmen": [{"card": "test.imp", "closing": True}],
    }
    game = table(
        scenario=scenario,
        characters=("fighter", "mage"),
        at={"mage": "test.beta"},
        locations={"test.alpha": ["test.imp"], "test.beta": ["test.rock"]},
        hands={"fighter": ["test.scout", "test.filler"]},
    )
    until(game, "explore")
    game.do("fighter", {"type": "explore"})
    game.choose("fighter", type="skill", skill="Melee")
    game.do("fighter", {"type": "roll"}, 8)
    game.do("fighter", {"type": "attempt", "option": 0})
    game.do("fighter", {"type": "roll"}, 6)
    # Alpha is gone; the fighter moves to Beta, which has a card, but may no longer explore.
    assert game.decision["kind"] == "reset"
    assert game.state["characters"]["fighter"]["location"] == "test.beta"


def test_closing_every_location_wins_a_scenario_without_a_villain() -> None:
    scenario = {"type": "scenario", "locations": {"1": ["test.alpha"]}, "villains": [], "henchmen": []}
    game = close_step(scenario=scenario)
    game.do("fighter", {"type": "attempt", "option": 0})
    game.do("fighter", {"type": "roll"}, 5)
    assert game.state["outcome"] == {"result": "won", "reason": "every location is closed"}
    assert game.state["pending"] is None


def test_a_distant_location_cannot_be_closed() -> None:
    game = table(characters=("fighter",), locations={"test.alpha": ["test.rock"]})
    until(game, "explore")
    game.do("fighter", {"type": "pass"})
    # Beta is empty but distant: no close step; Alpha has a card.
    assert game.decision["kind"] != "close_step"
