"""Encountering a Card, in the book's order, with the villain steps, avenging (core only), and
the classic differences (temporary closing before the encounter, optional boon acquisition)."""

from __future__ import annotations

from typing import Any

import pytest

from play.engine.effects import card_handler
from play.engine.game import Game, Step

from .builders import table


@card_handler("test.log")
def _log_hook(game: Game, effects: Step) -> None:
    game.emit("hook", when=effects["context"]["when"])


LOGGER = {
    "test.logger": {
        "type": "monster",
        "name": "Logger",
        "check": "Combat 6",
        "powers": [
            {"when": when, "effects": [{"handler": "test.log"}]}
            for when in ("encountered", "before_acting", "after_acting", "defeated", "undefeated")
        ],
    }
}


def order(events: list[dict[str, Any]]) -> list[str]:
    """The hooks of the encountered card and the rolls, in the order they happened."""
    return [
        f"hook:{event['when']}" if event["type"] == "hook" else event["type"]
        for event in events
        if event["type"] in ("hook", "rolled")
    ]


def test_the_steps_happen_in_the_books_order() -> None:
    game = table(definitions=LOGGER, locations={"test.alpha": ["test.logger"]})
    game.do("fighter", {"type": "pass"})
    game.do("fighter", {"type": "explore"})
    before = order(game.last_events)
    game.choose("fighter", type="skill", skill="Melee")
    game.do("fighter", {"type": "roll"}, 2)  # Melee d10+2 = 4 < 6: undefeated
    assert before == ["hook:encountered", "hook:before_acting"]
    assert order(game.last_events) == ["rolled", "hook:after_acting", "hook:undefeated"]


def test_a_defeated_bane_is_banished_and_an_undefeated_one_shuffled_back() -> None:
    game = table(locations={"test.alpha": ["test.goblin", "test.goblin", "test.scout"]}, vault=[])
    game.do("fighter", {"type": "pass"})
    game.do("fighter", {"type": "explore"})
    game.choose("fighter", type="skill", skill="Melee")
    game.do("fighter", {"type": "roll"}, 9)
    assert game.names(game.state["vault"]["monster"]) == ["test.goblin"]
    assert game.location("test.alpha") == ["test.goblin", "test.scout"]


def test_an_evaded_card_goes_back_into_its_location_and_is_neither_defeated_nor_undefeated() -> None:
    game = table(locations={"test.alpha": ["test.ogre"]}, hands={"fighter": ["test.guide"]})
    game.do("fighter", {"type": "pass"})
    game.do("fighter", {"type": "explore"})
    assert game.decision["kind"] == "evade"
    game.choose("fighter", power="evade", card="test.guide")
    assert game.events("evaded") and not game.events("undefeated") and not game.events("defeated")
    assert game.location("test.alpha") == ["test.ogre"]
    assert game.zone("fighter", "buried") == ["test.guide"]


def test_or_lets_the_character_choose_an_alternative() -> None:
    definitions = {"test.riddle": {"type": "barrier", "name": "Riddle", "check": "Wisdom 12 or Strength 5"}}
    game = table(definitions=definitions, locations={"test.alpha": ["test.riddle"]})
    game.do("fighter", {"type": "pass"})
    game.do("fighter", {"type": "explore"})
    wisdom = game.option(type="skill", skill="Wisdom")
    strength = game.option(type="skill", skill="Strength")
    assert (wisdom["check"]["dice"], wisdom["check"]["odds"]["difficulty"]) == ("1d4", 12)
    assert (strength["check"]["dice"], strength["check"]["odds"]["difficulty"]) == ("1d10", 5)


CULTIST = {"test.cultist": {"type": "monster", "name": "Cultist", "check": "Strength 4 then Wisdom 4"}}


def test_later_checks_of_a_sequence_may_be_attempted_by_any_local_character() -> None:
    game = table(characters=("fighter", "mage"), definitions=CULTIST, locations={"test.alpha": ["test.cultist"]})
    game.do("fighter", {"type": "pass"})
    game.do("fighter", {"type": "explore"})
    assert {entry["action"]["character"] for entry in game.decision["options"]} == {"fighter", "mage"}
    game.choose("fighter", type="attempter", character="fighter")
    game.do("fighter", {"type": "roll"}, 3)  # fails the first: the second must still be attempted
    assert {entry["action"]["character"] for entry in game.decision["options"]} == {"fighter", "mage"}
    game.choose("fighter", type="attempter", character="mage")
    assert game.decision["character"] == "mage"


def test_the_encountering_character_must_attempt_at_least_one_check() -> None:
    game = table(characters=("fighter", "mage"), definitions=CULTIST, locations={"test.alpha": ["test.cultist"]})
    game.do("fighter", {"type": "pass"})
    game.do("fighter", {"type": "explore"})
    game.choose("fighter", type="attempter", character="mage")
    game.do("mage", {"type": "roll"}, 4)  # the mage's Strength d4
    # The last check can only be the fighter's: no choice is offered.
    assert game.decision["character"] == "fighter" and game.decision["kind"] == "check"
    game.do("fighter", {"type": "roll"}, 1)
    assert game.events("undefeated")


def test_core_must_attempt_to_acquire_a_boon() -> None:
    game = table(locations={"test.alpha": ["test.rock"]})
    game.do("fighter", {"type": "pass"})
    game.do("fighter", {"type": "explore"})
    assert game.decision["kind"] == "check"  # straight to the check (a single skill)


def test_classic_may_decline_to_acquire_a_boon_which_is_then_banished() -> None:
    game = table(ruleset="classic", locations={"test.alpha": ["test.rock"]})
    game.do("fighter", {"type": "pass"})
    game.do("fighter", {"type": "explore"})
    assert game.decision["kind"] == "acquire"
    game.do("fighter", {"type": "decline"})
    assert game.names(game.state["vault"]["item"]) == ["test.rock"]


def test_a_failed_check_to_acquire_banishes_the_boon_and_a_success_draws_it() -> None:
    game = table(locations={"test.alpha": ["test.rock", "test.rock"]}, hands={"fighter": ["test.scout"]})
    game.do("fighter", {"type": "pass"})
    game.do("fighter", {"type": "explore"})
    game.do("fighter", {"type": "roll"}, 2)
    assert game.names(game.state["vault"]["item"]) == ["test.rock"]
    game.choose("fighter", power="explore", card="test.scout")
    game.do("fighter", {"type": "roll"}, 3)
    assert "test.rock" in game.zone("fighter", "hand")


def avenge_table(ruleset: str) -> Any:
    return table(
        ruleset=ruleset,
        characters=("fighter", "mage", "priest"),
        locations={"test.alpha": ["test.wall"]},
        hands={"mage": ["test.filler"], "priest": ["test.filler"]},
    )


def test_core_lets_another_local_character_avenge_an_undefeated_bane_once() -> None:
    game = avenge_table("core-2019")
    game.do("fighter", {"type": "pass"})
    game.do("fighter", {"type": "explore"})
    game.do("fighter", {"type": "roll"}, 1)
    assert game.decision["kind"] == "avenge" and game.decision["character"] == "mage"
    game.choose("mage", type="avenge")
    assert game.zone("mage", "buried") == ["test.filler"]
    assert game.events("encountered")[0]["character"] == "mage"
    game.do("mage", {"type": "roll"}, 1)  # the mage's Strength d4: fails again
    # Only one avenging attempt per bane: the priest is not asked.
    assert game.decision["kind"] != "avenge"
    assert game.location("test.alpha") == ["test.wall"]


def test_classic_has_no_avenging() -> None:
    game = avenge_table("classic")
    game.do("fighter", {"type": "pass"})
    game.do("fighter", {"type": "explore"})
    game.do("fighter", {"type": "roll"}, 1)
    assert game.decision["kind"] != "avenge"


def closing_henchman_table(closing: bool) -> Any:
    scenario = {
        "type": "scenario",
        "locations": {"1": ["test.alpha", "test.beta"]},
        "villains": [],
        "henchmen": [{"card": "test.imp", "closing": closing}],
    }
    return table(scenario=scenario, locations={"test.alpha": ["test.imp", "test.rock"]})


def test_defeating_a_closing_henchman_gives_the_chance_to_close_the_location() -> None:
    game = closing_henchman_table(True)
    game.do("fighter", {"type": "pass"})
    game.do("fighter", {"type": "explore"})
    game.choose("fighter", type="skill", skill="Melee")
    game.do("fighter", {"type": "roll"}, 8)
    assert game.decision["kind"] == "close"
    game.do("fighter", {"type": "attempt", "option": 0})
    game.do("fighter", {"type": "roll"}, 7)  # Strength 5
    assert game.events("location_closed")
    assert game.names(game.state["vault"]["item"]) == ["test.rock"]  # its cards are banished


def test_defeating_a_non_closing_henchman_does_not() -> None:
    game = closing_henchman_table(False)
    game.do("fighter", {"type": "pass"})
    game.do("fighter", {"type": "explore"})
    game.choose("fighter", type="skill", skill="Melee")
    game.do("fighter", {"type": "roll"}, 8)
    assert game.decision["kind"] != "close"


def villain_table(ruleset: str, *, locations: tuple[str, ...] = ("test.alpha", "test.beta", "test.gamma")) -> Any:
    scenario = {"type": "scenario", "locations": {"1": list(locations)}, "villains": ["test.lich"], "henchmen": []}
    return table(
        ruleset=ruleset,
        definitions=LOGGER
        | {"test.lich": {**LOGGER["test.logger"], "type": "villain", "subtype": "monster", "name": "Lich"}},
        scenario=scenario,
        characters=("fighter", "priest"),
        at={"fighter": "test.alpha", "priest": "test.beta"},
        locations={name: (["test.lich"] if name == "test.alpha" else []) for name in locations},
        vault=["test.blessing"] * 5,
    )


def test_core_guards_distant_locations_after_evasion() -> None:
    game = villain_table("core-2019")
    game.do("fighter", {"type": "pass"})
    game.do("fighter", {"type": "explore"})
    assert order(game.last_events) == ["hook:encountered"]
    assert game.decision["kind"] == "guard" and game.decision["character"] == "priest"
    game.do("priest", {"type": "attempt", "option": 0})  # Beta's To Close doubles as To Guard: Wisdom 6
    game.do("priest", {"type": "roll"}, 6)
    assert game.events("guarded")[0]["location"] == "test.beta"
    assert order(game.last_events)[-1] == "hook:before_acting"


def test_classic_temporarily_closes_distant_locations_before_the_encounter() -> None:
    game = villain_table("classic")
    game.do("fighter", {"type": "pass"})
    game.do("fighter", {"type": "explore"})
    assert order(game.last_events) == []
    assert game.decision["kind"] == "temporary_close"
    game.do("priest", {"type": "attempt", "option": 0})
    game.do("priest", {"type": "roll"}, 6)
    assert game.events("temporarily_closed")[0]["location"] == "test.beta"
    assert order(game.last_events) == ["rolled", "hook:encountered", "hook:before_acting"]


@pytest.mark.parametrize("ruleset", ["core-2019", "classic"])
def test_a_defeated_villain_closes_its_location_and_escapes_with_blessings_from_the_vault(ruleset: str) -> None:
    game = villain_table(ruleset)
    game.do("fighter", {"type": "pass"})
    game.do("fighter", {"type": "explore"})
    game.do("priest", {"type": "pass"})  # no guarding
    game.choose("fighter", type="skill", skill="Melee")
    game.do("fighter", {"type": "roll"}, 8)
    assert game.events("location_closed")[0]["location"] == "test.alpha"
    if ruleset == "core-2019":
        game.do("fighter", {"type": "move", "location": "test.gamma"})  # its location is gone
    escaped = [event for event in game.log if event["type"] == "villain_escaped"]
    assert escaped[0]["locations"] == ["test.beta", "test.gamma"]
    assert len(game.state["vault"]["blessing"]) == 4  # two unguarded locations: 1 blessing
    assert sorted(game.location("test.beta") + game.location("test.gamma")) == ["test.blessing", "test.lich"]
    assert game.state["locations"]["test.alpha"]["in_play"] is (ruleset == "classic")


def test_an_undefeated_villain_escapes_with_blessings_from_the_hourglass() -> None:
    game = villain_table("core-2019")
    hourglass = len(game.state["hourglass"])
    game.do("fighter", {"type": "pass"})
    game.do("fighter", {"type": "explore"})
    game.do("priest", {"type": "pass"})
    game.choose("fighter", type="skill", skill="Melee")
    game.do("fighter", {"type": "roll"}, 1)
    escaped = game.events("villain_escaped")[0]
    assert escaped["locations"] == ["test.alpha", "test.beta", "test.gamma"]
    everywhere = sorted(card for name in ("test.alpha", "test.beta", "test.gamma") for card in game.location(name))
    assert everywhere == ["test.lich", "test.plain-blessing", "test.plain-blessing"]
    next_turn = 1
    assert len(game.state["hourglass"]) == hourglass - 2 - next_turn


def test_a_cornered_villain_wins_the_scenario() -> None:
    game = villain_table("core-2019", locations=("test.alpha", "test.beta"))
    game.do("fighter", {"type": "pass"})
    game.do("fighter", {"type": "explore"})
    game.do("priest", {"type": "attempt", "option": 0})
    game.do("priest", {"type": "roll"}, 6)
    game.choose("fighter", type="skill", skill="Melee")
    game.do("fighter", {"type": "roll"}, 8)
    assert game.state["status"] == "won"
    assert game.state["outcome"]["reason"] == "Lich was cornered"
