"""The Core Set rulebook's Example of Play, as a scripted game with injected dice.

Every dice pool, difficulty and result below is a number the book gives; the faces are chosen to
give the book's totals (the book gives only totals, and a 1 on one of Sajan's d8s).
"""

from __future__ import annotations

from fractions import Fraction
from itertools import product

import pytest

from play.engine import chance, new_game, replay, view
from play.engine.odds import expected_damage

from .driver import Driver, all_cards
from .example_setup import arranged_table, example_setup


def start() -> Driver:
    source = arranged_table()
    return Driver(new_game(example_setup(), seed="example-of-play", dice=source), source)


def sams_turn(table: Driver) -> None:
    # Sam uses the Tower's At This Location power to examine the top card of the Oubliette.
    table.choose("sam", power="examine-distant", target="core.oubliette")
    assert table.events("examined")[0]["cards"] == ["core.boggart"]
    table.do("sam", {"type": "pass"})  # no move
    table.do("sam", {"type": "explore"})
    assert table.events("encountered")[0]["card"] == "core.ghoul"
    # Sajan's power: recharge a Compass to use Acrobatics + 1d6 (+ the Compass's level, 0).
    table.choose("sam", power="compass", pay="core.compass")
    check = table.decision["check"]
    assert check["difficulty"] == 13  # Combat 11 + 2 x adventure 1
    assert check["dice"] == "1d8+1d6+2"
    assert {"Combat", "Acrobatics", "Dexterity"} <= set(check["traits"])
    table.choose("sam", power="bless", card="core.prayer")
    assert table.decision["check"]["dice"] == "2d8+1d6+2"
    # Normally one blessing per check; Sajan may freely play one more.
    table.choose("sam", power="bless", card="core.orison")
    check = table.decision["check"]
    assert check["dice"] == "3d8+1d6+2"
    assert check["odds"]["chance"] == "2863/3072"
    # Sajan recharges blessings instead of discarding them: bottom of his deck, in order.
    assert table.zone("sajan", "deck")[-3:] == ["core.compass", "core.prayer", "core.orison"]
    assert table.zone("sajan", "discards") == []
    # Pool order: Acrobatics d8, Compass d6, Prayer d8, Orison d8. A total of 11, a 1 on a d8.
    table.do("sam", {"type": "roll"}, 1, 3, 2, 3)
    assert table.events("rolled")[0]["result"] == 11
    # Cayden Cailean's Revelry is the hour: discard a card to reroll the d8 that rolled a 1.
    table.choose("sam", 2, power="reroll-one", die=0, pay="core.spyglass")
    resolved = table.events("check_resolved")[0]
    assert (resolved["result"], resolved["success"]) == (12, False)
    assert table.events("damage_dealt")[0] == {
        "type": "damage_dealt",
        "character": "sajan",
        "amount": 1,
        "damage_type": "Combat",
    }
    assert table.events("damage_suffered")[0]["discarded"] == ["core.starknife"]
    # No ally in hand to banish, so he suffers the scourge Dazed: displayed and marked.
    assert table.events("scourge_suffered")[0]["scourge"] == "core.dazed"
    assert table.zone("sajan", "displayed") == ["core.dazed"]
    assert table.state["characters"]["sajan"]["scourges"] == ["core.dazed"]
    assert "core.ghoul" in table.location("core.tower")
    assert table.zone("sajan", "discards") == ["core.starknife", "core.spyglass"]
    # Reset: he draws 5 to fill his hand; the turn passes to Alice.
    assert len(table.zone("sajan", "hand")) == 5
    assert table.events("drew")[0] == {"type": "drew", "character": "sajan", "count": 5}
    assert table.state["table"]["active"] == "amiri"


def alices_turn(table: Driver) -> None:
    assert table.events("hour_advanced")[0]["hour"] == "core.incitation"
    table.do("alice", {"type": "pass"})  # give nothing
    table.do("alice", {"type": "pass"})  # stay
    table.do("alice", {"type": "explore"})
    assert table.events("encountered")[0]["card"] == "core.boggart"
    # Knowledge or Perception 4 then Combat 10: any local character may attempt a later check,
    # but Amiri must attempt one. Lem takes the first.
    assert {entry["action"]["character"] for entry in table.decision["options"]} == {"amiri", "lem"}
    table.choose("alice", type="attempter", character="lem")
    assert table.decision["players"] == ["lee"]
    table.choose("lee", type="skill", skill="Knowledge")
    table.choose("lee", power="add-d4", pay="core.benefaction")
    check = table.decision["check"]
    assert (check["dice"], check["difficulty"]) == ("1d6+1d4+1", 4)
    table.do("lee", {"type": "roll"}, 5, 4)
    assert table.events("check_resolved")[0]["result"] == 10
    # The second check can only be Amiri's: the skill choice is hers.
    assert table.decision["character"] == "amiri"
    table.choose("alice", power="combat", card="core.longspear")
    check = table.decision["check"]
    assert (check["dice"], check["difficulty"]) == ("1d12+1d8+2", 10)
    table.do("alice", {"type": "roll"}, 9, 6)
    assert table.events("rolled")[0]["result"] == 17
    # The Longspear could be discarded to reroll; she keeps 17.
    table.option(power="discard-reroll")
    table.do("alice", {"type": "accept"})
    assert table.events("defeated")[0]["card"] == "core.boggart"
    assert "core.boggart" in table.names(table.state["vault"]["monster"])
    # She revealed the Longspear: it is still in hand, and she is at her hand size.
    assert "core.longspear" in table.zone("amiri", "hand")
    table.do("alice", {"type": "pass"})  # reset: discard nothing
    assert len(table.zone("amiri", "hand")) == 4
    assert not [event for event in table.log[-20:] if event["type"] == "drew" and event["character"] == "amiri"]


def lees_turn(table: Driver) -> None:
    assert table.events("hour_advanced")[0]["hour"] == "core.nethys-s-duality"
    table.do("lee", {"type": "pass"})
    table.do("lee", {"type": "move", "location": "core.laboratory"})
    table.do("lee", {"type": "explore"})
    assert table.events("encountered")[0]["card"] == "core.magic-eye"
    table.choose("lee", type="skill", skill="Arcane")
    check = table.decision["check"]
    # Arcane: Charisma d10 + 1, and Nethys's Duality's d4 on checks against spells.
    assert (check["dice"], check["difficulty"]) == ("1d10+1d4+1", 7)
    table.do("lee", {"type": "roll"}, 5, 3)
    assert table.events("rolled")[0]["result"] == 9
    assert "core.magic-eye" in table.zone("lem", "hand")

    table.choose("lee", power="explore", card="core.standard-bearer")
    assert table.zone("lem", "discards") == ["core.standard-bearer"]
    assert table.events("encountered")[0]["card"] == "core.clockwork-guardian"
    choices = {(entry["action"].get("skill"), entry["action"]["type"]) for entry in table.decision["options"]}
    assert ("Arcane", "skill") in choices and ("Knowledge", "skill") in choices
    arcane = table.option(type="skill", skill="Arcane")
    assert arcane["check"]["dice"] == "1d10+1d4+1"  # the Standard Bearer's d4; the Guardian is no spell
    # "either a Combat check of 13 plus twice the adventure number (15 ...) or an Arcane or
    # Knowledge check of 7 plus the adventure number (8)"
    assert arcane["check"]["odds"]["difficulty"] == 8
    assert table.option(type="skill", skill="Knowledge")["check"]["odds"]["difficulty"] == 8
    assert table.option(type="skill", skill="Strength")["check"]["odds"]["difficulty"] == 15
    table.choose("lee", power="combat", card="core.lightning-touch")
    check = table.decision["check"]
    assert check["difficulty"] == 15  # Combat 13 + 2AN
    assert check["dice"] == "1d10+3d4+5"  # Arcane d10+1, 2d4, Standard Bearer 1d4, +4 Electricity
    assert check["adjustment"] == 4
    assert "Electricity" in check["traits"]
    assert table.zone("lem", "recovery") == ["core.lightning-touch"]
    table.do("lee", {"type": "roll"}, 6, 2, 2, 2)
    assert table.events("rolled")[0]["result"] == 17
    assert table.events("defeated")[0]["card"] == "core.clockwork-guardian"
    assert table.events("card_gained")[0]["card"] == "core.giantbane-greataxe"

    # A closing henchman: Lem may now try to close the Laboratory, Intelligence or Craft 6.
    table.do("lee", {"type": "attempt", "option": 0})
    assert table.option(type="skill", skill="Craft")["check"]["dice"] == "1d4"
    table.choose("lee", type="skill", skill="Intelligence")
    table.choose("lee", power="add-d4", pay="core.soothing-word")
    check = table.decision["check"]
    assert (check["dice"], check["difficulty"]) == ("1d6+1d4", 6)
    table.do("lee", {"type": "roll"}, 4, 2)
    assert table.events("location_closed")[0]["location"] == "core.laboratory"
    assert table.events("summoned")[0]["cards"] == ["core.deflect", "core.phantasmal-minion", "core.charm-person"]
    table.choose("lee", type="choose", card="core.charm-person")
    for banished in ("core.deflect", "core.phantasmal-minion"):
        assert banished in table.names(table.state["vault"]["spell"])
    check = table.decision["check"]
    assert (check["dice"], check["difficulty"]) == ("1d10+1d4+1", 6)
    table.do("lee", {"type": "roll"}, 2, 2)
    assert table.events("not_acquired")[0]["card"] == "core.charm-person"
    assert "core.charm-person" in table.names(table.state["vault"]["spell"])
    assert "core.laboratory" in table.names(table.state["vault"]["location"])
    # The closed location is gone: Lem must move, and goes back to the Oubliette.
    table.do("lee", {"type": "move", "location": "core.oubliette"})
    # He can no longer explore: the turn goes straight to recovery, Arcane 6 for Lightning Touch.
    check = table.decision["check"]
    assert check["purpose"] == "recovery"
    assert (check["dice"], check["difficulty"]) == ("1d10+1d4+1", 6)
    table.do("lee", {"type": "roll"}, 6, 3)
    assert table.events("rolled")[0]["result"] == 10
    assert table.events("recovered")[0] == {
        "type": "recovered",
        "character": "lem",
        "card": "core.lightning-touch",
        "to": "deck",
    }
    table.do("lee", {"type": "pass"})  # reset: discard nothing, then draw up to 6


@pytest.fixture(scope="module")
def example() -> Driver:
    table = start()
    sams_turn(table)
    alices_turn(table)
    lees_turn(table)
    return table


def test_setup_follows_the_book() -> None:
    table = start()
    state = table.state
    assert state["adventure"] == 1
    assert state["location_order"] == ["core.ruin", "core.tower", "core.oubliette", "core.laboratory"]
    story_banes = sorted(
        state["proxies"].get(card, state["cards"][card])
        for location in state["locations"].values()
        for card in location["cards"]
        if state["cards"][card].startswith(("core.kobold", "core.diabolical", "core.clockwork", "core.proxy"))
    )
    assert story_banes == ["core.clockwork-guardian", "core.diabolical-imp", "core.elemental", "core.kobold-champion"]
    assert table.names(state["table"]["dangers"]) == ["core.collapse"]
    assert table.names(state["table"]["set_aside"]) == ["core.elemental"]  # stands aside for Proxy A
    # Small locations from the example's deck lists, plus one story bane each.
    assert [len(state["locations"][name]["cards"]) for name in state["location_order"]] == [1, 2, 2, 3]
    assert len(state["hourglass"]) == 29 and table.names(state["hourglass_discards"]) == [
        "core.cayden-cailean-s-revelry"
    ]
    assert {name: sheet["location"] for name, sheet in state["characters"].items()} == {
        "sajan": "core.tower",
        "amiri": "core.oubliette",
        "lem": "core.oubliette",
    }
    assert "core.longspear" in table.zone("amiri", "hand") and len(table.zone("amiri", "hand")) == 4
    assert {"core.prayer", "core.orison"} <= set(table.zone("sajan", "hand"))
    # Lem's first 6 had no spell: he set them aside and drew 6 more, then shuffled them back.
    lem = table.zone("lem", "hand")
    assert len(lem) == 6 and {"core.lightning-touch", "core.soothing-word"} <= set(lem)
    assert len(table.zone("lem", "deck")) == 9
    assert sorted(all_cards(state)) == sorted(state["cards"])


def test_the_three_turns_end_as_the_book_describes(example: Driver) -> None:
    state = example.state
    assert state["status"] == "playing"
    assert state["table"]["active"] == "sajan" and state["table"]["turn_number"] == 4
    assert {name: sheet["location"] for name, sheet in state["characters"].items()} == {
        "sajan": "core.tower",
        "amiri": "core.oubliette",
        "lem": "core.oubliette",
    }
    laboratory = state["locations"]["core.laboratory"]
    assert laboratory["closed"] and not laboratory["in_play"] and laboratory["cards"] == []
    assert [name for name in state["location_order"] if state["locations"][name]["in_play"]] == [
        "core.ruin",
        "core.tower",
        "core.oubliette",
    ]
    assert example.names(state["hourglass_discards"])[:3] == [
        "core.prayer",  # Sam's second turn has begun
        "core.nethys-s-duality",
        "core.incitation",
    ]
    lem = example.zone("lem", "hand")
    assert len(lem) == 6 and {"core.magic-eye", "core.giantbane-greataxe"} <= set(lem)
    assert example.zone("lem", "deck")[-2:] == ["core.soothing-word", "core.lightning-touch"]
    assert example.zone("lem", "recovery") == []
    assert example.zone("sajan", "displayed") == ["core.dazed"]
    assert len(example.zone("sajan", "hand")) == 5 and len(example.zone("sajan", "deck")) == 8
    assert len(example.zone("amiri", "hand")) == 4 and "core.longspear" in example.zone("amiri", "hand")
    assert "core.ghoul" in example.location("core.tower")
    assert "core.boggart" not in [card for name in state["location_order"] for card in example.location(name)]
    assert sorted(all_cards(state)) == sorted(state["cards"])


def test_replaying_the_example_log_reproduces_the_state(example: Driver) -> None:
    assert replay(example.initial, example.log) == example.state
    rolled = [event["face"] for event in example.log if event["type"] == "random" and event["what"] == "roll"]
    assert rolled == [1, 3, 2, 3, 2, 5, 4, 9, 6, 5, 3, 6, 2, 2, 2, 4, 2, 2, 2, 6, 3]


def test_views_hide_other_hands_and_every_facedown_card(example: Driver) -> None:
    seen = view(example.state, "lee")
    assert seen["characters"]["sajan"]["hand"] == {"count": 5}
    assert [card["card"] for card in seen["characters"]["lem"]["hand"]] == example.zone("lem", "hand")
    assert seen["characters"]["sajan"]["displayed"][0]["card"] == "core.dazed"
    text = str(seen)
    assert example.state["secret"]["seed"] not in text
    facedown = [card for location in example.state["locations"].values() for card in location["cards"]]
    facedown += [card for sheet in example.state["characters"].values() for card in sheet["deck"]]
    facedown += example.state["hourglass"]
    for card in facedown:
        assert f"'{card}'" not in text


def test_the_example_odds_are_exact() -> None:
    outcomes = [sum(faces) + 2 for faces in product(range(1, 9), range(1, 9), range(1, 9), range(1, 7))]
    assert chance("3d8+1d6+2", 13) == Fraction(sum(total >= 13 for total in outcomes), len(outcomes))
    failing = [13 - total for total in outcomes if total < 13]
    assert expected_damage("3d8+1d6+2", 13) == Fraction(sum(failing), len(failing))
    clockwork = [sum(faces) + 5 for faces in product(range(1, 11), *[range(1, 5)] * 3)]
    assert chance("1d10+3d4+5", 15) == Fraction(sum(total >= 15 for total in clockwork), len(clockwork))
