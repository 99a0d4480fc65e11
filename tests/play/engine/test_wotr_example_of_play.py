"""The Wrath of the Righteous rulebook's Example of Play, as a scripted game under the classic
rules with injected dice.

Starting position: Avery's turn, at the point where Alain is about to find the Giant Bat (see
wotr_example_setup: the earlier play uses scenario powers the engine does not have). From there
the script follows the book through the Giant Bat, the Cavern's closing, Balazar's encounter
with Millorn (the Collapsing Bridge temporarily closed by damage, the Wisdom checks) and the
villain's escape. Every dice pool, difficulty and total below is one the book gives; the faces
are chosen to give the book's totals (it gives only totals, and Balazar's 2 on a d6).

The book prints Millorn's defeat under "Blake's Turn", after the villain fight it describes on
Balazar's turn, and has Balazar encounter Millorn while exploring and then close the Mongrel
Village: read together (the Enchanted Fang he reloads is drawn at his reset; Millorn escapes to
the Canyon), Balazar moves to the Mongrel Village on his turn and explores it there. That is
how the script plays it.
"""

from __future__ import annotations

from typing import Any

import pytest

from play.engine import new_game, replay

from .driver import Driver, all_cards
from .wotr_example_setup import arranged_table, example_setup


def start() -> Driver:
    source = arranged_table()
    return Driver(new_game(example_setup(), seed="wotr-example", ruleset="classic", dice=source), source)


def passing(table: Driver, kind: str) -> None:
    """Pass decisions (move, give, play windows) until one of this kind comes up."""
    for _ in range(20):
        decision = table.decision
        if decision["kind"] == kind:
            return
        table.do(decision["players"][0], {"type": "pass"})
    raise AssertionError(f"no {kind} decision came up")


def played(table: Driver, **wanted: Any) -> bool:
    return any(
        all(table._matches(entry["action"].get(key), value) for key, value in wanted.items())
        for entry in table.decision["options"]
    )


def averys_turn(table: Driver) -> None:
    assert table.names(table.state["hourglass_discards"]) == ["wotr.blessing-of-ascension"]
    table.do("avery", {"type": "pass"})  # stay at the Cavern
    table.do("avery", {"type": "explore"})
    assert table.events("encountered")[0]["card"] == "wotr.giant-bat"
    # Before acting: Wisdom or Perception 9, or the Bat's difficulty goes up by 3. Perception is
    # d6+1 and nothing can raise it (Donahan and the Dagger help combat checks only).
    skills = {entry["action"]["skill"]: entry for entry in table.decision["options"]}
    assert skills["Perception"]["check"]["dice"] == "1d6+1"
    assert skills["Perception"]["check"]["odds"]["difficulty"] == 9
    table.choose("avery", type="skill", skill="Perception")
    assert not played(table, card="wotr.donahan") and not played(table, card="wotr.corrosive-dagger-plus-1")
    table.do("avery", {"type": "roll"}, 3)
    assert table.events("check_resolved")[0]["result"] == 4
    assert table.events("power_check")[0]["success"] is False
    # The combat check: the Glaive's Melee d10+3 + 1d10+1, difficulty 10 + 3.
    table.choose("avery", power="combat", card="wotr.glaive-plus-1", skill="Melee")
    check = table.decision["check"]
    assert (check["dice"], check["difficulty"]) == ("2d10+4", 13)
    # A second weapon: the Dagger is played freely.
    table.choose("avery", power="second-weapon", card="wotr.corrosive-dagger-plus-1")
    table.choose("avery", power="reload-add", card="wotr.donahan")
    check = table.decision["check"]
    assert check["dice"] == "2d10+1d8+1d4+6"
    assert table.zone("alain", "deck")[0] == "wotr.donahan"  # on top of his deck
    table.do("avery", {"type": "roll"}, 2, 1, 1, 2)  # d10, d10, d4, d8
    assert table.events("rolled")[0]["result"] == 12
    table.choose("avery", 5, 4, 2, 2, power="discard-reroll")
    resolved = table.events("check_resolved")[0]
    assert (resolved["result"], resolved["success"]) == (19, True)
    assert table.events("defeated")[0]["card"] == "wotr.giant-bat"
    assert table.zone("alain", "discards") == ["wotr.glaive-plus-1", "wotr.corrosive-dagger-plus-1"]

    # The Bat is a closing henchman: Strength 5 + AN, d10+1.
    assert table.decision["kind"] == "close"
    table.do("avery", {"type": "attempt", "option": 0})
    check = table.decision["check"]
    assert (check["dice"], check["difficulty"]) == ("1d10+1", 6)
    # Cavern's When Permanently Closed: a d4 over Canyon, Village, Bridge, Great Hall -> 3.
    table.do("avery", {"type": "roll"}, 7, 3)
    assert table.events("check_resolved")[0]["result"] == 8
    assert table.events("location_closed")[0]["location"] == "wotr.cavern"
    cavern = table.state["locations"]["wotr.cavern"]
    assert cavern["closed"] and cavern["in_play"] and cavern["cards"] == []  # classic: flipped over
    assert table.names(table.state["vault"]["barrier"]).count("wotr.unnamed-barrier") == 2
    assert "wotr.giant-bat" in table.names(table.state["vault"]["henchman"])
    assert table.events("moved")[0] == {
        "type": "moved",
        "character": "alain",
        "location": "wotr.collapsing-bridge",
        "forced": True,
    }
    # No more exploring (his location closed during his explore step); he ends his turn and
    # draws Donahan back up to 4 cards.
    passing(table, "reset")
    table.do("avery", {"type": "pass"})
    assert table.zone("alain", "hand") == [
        "wotr.magic-scale-mail",
        "wotr.helm",
        "wotr.blessing-of-ascension",
        "wotr.donahan",
    ]


def blakes_turn(table: Driver) -> None:
    assert table.state["table"]["active"] == "balazar"
    assert table.events("hour_advanced")[0]["hour"] == "wotr.blessing-of-shax"
    table.do("blake", {"type": "pass"})  # give nothing
    table.do("blake", {"type": "move", "location": "wotr.mongrel-village"})
    table.choose("blake", power="display", card="wotr.padrig")
    assert table.zone("balazar", "displayed") == ["wotr.padrig"]
    table.choose("blake", power="random-monster", card="wotr.mirror-image")
    assert table.events("card_gained")[0]["card"] == "wotr.mongrel-wizard"
    assert "wotr.mirror-image" in table.zone("balazar", "discards")
    table.do("blake", {"type": "explore"})
    assert table.events("encountered")[0]["card"] == "wotr.millorn"

    # Classic: before the villain encounter, Alain may temporarily close the Collapsing Bridge,
    # whose requirement is to be dealt 4 Combat damage.
    decision = table.decision
    assert (decision["kind"], decision["character"]) == ("temporary_close", "alain")
    assert table.option(type="attempt")["label"] == "Be dealt 4 Combat damage"
    table.do("avery", {"type": "attempt", "option": 0})
    assert table.events("damage_dealt")[0]["amount"] == 4
    # He could bury the Scale Mail to reduce it to 0 ...
    assert played(table, power="bury-reduce-all", card="wotr.magic-scale-mail")
    # ... but reveals the Helm (declared: reduce Combat damage by 1, freely) ...
    helm = table.option(card="wotr.helm", power="declare:damage")["action"]
    table.do(
        "avery",
        {
            **helm,
            "cost": "reveal",
            "freely": True,
            "effects": [{"reduce_damage": {"amount": 1, "types": ["Combat"]}}],
            "text": "Reveal to reduce Combat damage dealt to you by 1.",
        },
    )
    # ... and recharges the Magic Scale Mail for 2 more: 1 left, and he discards the Helm.
    table.choose("avery", power="recharge-reduce", card="wotr.magic-scale-mail")
    assert [event["left"] for event in table.log if event["type"] == "damage_reduced"][-2:] == [3, 1]
    table.do("avery", {"type": "select", "cards": [table.instance("alain", "wotr.helm")]})
    assert table.events("damage_suffered")[0]["discarded"] == ["wotr.helm"]
    assert table.events("temporarily_closed")[0]["location"] == "wotr.collapsing-bridge"
    assert table.zone("alain", "deck")[-1] == "wotr.magic-scale-mail"

    # Millorn, before acting: Wisdom 6 for each local character (Balazar, then Imrijka). Their
    # declared spells could set the skill, so each chooses Wisdom.
    table.choose("blake", type="skill", skill="Wisdom")
    check = table.decision["check"]
    assert (check["character"], check["dice"], check["difficulty"]) == ("balazar", "1d6", 6)
    table.do("blake", {"type": "roll"}, 2)
    assert table.events("power_check")[0]["success"] is False
    dealt = table.events("damage_dealt")[0]
    assert (dealt["amount"], dealt["damage_type"], dealt["unreducible"]) == (1, "Mental", True)
    assert table.decision["kind"] == "discard"  # no reduction window: straight to discarding
    table.do("blake", {"type": "select", "cards": [table.instance("balazar", "wotr.vulture")]})
    assert table.events("restricted")[0] == {"type": "restricted", "character": "balazar", "play": ["weapon", "spell"]}
    table.choose("isabel", type="skill", skill="Wisdom")
    check = table.decision["check"]
    assert (check["character"], check["dice"], check["difficulty"]) == ("imrijka", "1d8", 6)
    sagacity = table.option(card="wotr.sagacity", power="declare:check")["action"]
    table.do("isabel", {**sagacity, "cost": "banish", "effects": [{"add": 3}], "text": "Add 3 to the check."})
    assert table.decision["check"]["dice"] == "1d8+3"
    table.do("isabel", {"type": "roll"}, 7)
    resolved = table.events("check_resolved")[0]
    assert (resolved["character"], resolved["result"], resolved["success"]) == ("imrijka", 10, True)
    assert "wotr.sagacity" in table.names(table.state["vault"]["spell"])

    # The check to defeat Millorn: Strength d6; he may not play the spell Enchanted Fang.
    table.choose("blake", type="skill", skill="Strength")
    assert not played(table, card="wotr.enchanted-fang")
    assert table.decision["check"]["dice"] == "1d6"
    table.choose("blake", power="reload-arcane", pay="wotr.enchanted-fang")
    assert table.zone("balazar", "deck")[0] == "wotr.enchanted-fang"
    table.choose("blake", power="banish-monster", pay="wotr.mongrel-wizard")
    check = table.decision["check"]
    assert (check["dice"], check["difficulty"]) == ("1d10+2d6+1d4+3", 15)  # the book: 2d6+d10+1d4+3
    table.do("blake", {"type": "roll"}, 4, 6, 2, 2)  # Strength d6, Padrig d10+3, d4, d6
    resolved = table.events("check_resolved")[0]
    assert (resolved["result"], resolved["success"]) == (17, True)
    assert table.events("defeated")[0]["card"] == "wotr.millorn"
    assert "wotr.mongrel-wizard" in table.names(table.state["vault"]["monster"])

    # Defeating the villain closes the Mongrel Village (its cards banished); Millorn and a
    # random blessing from the box go to the Canyon and the Great Hall, one each.
    assert table.events("location_closed")[0]["location"] == "wotr.mongrel-village"
    escaped = table.events("villain_escaped")[0]
    assert escaped["locations"] == ["wotr.canyon", "wotr.great-hall"]
    # The Village closed during his explore step: no more exploring; on to his reset.
    assert table.decision["kind"] == "reset"
    table.do("blake", {"type": "pass"})


@pytest.fixture(scope="module")
def example() -> Driver:
    table = start()
    averys_turn(table)
    blakes_turn(table)
    return table


def test_the_arranged_table() -> None:
    table = start()
    state = table.state
    assert state["ruleset"] == "classic" and state["adventure"] == 1
    assert state["table"]["order"] == ["alain", "balazar", "imrijka"]
    assert table.location("wotr.cavern")[0] == "wotr.giant-bat"
    assert state["story_banes"]["wotr.millorn"]["role"] == "villain"
    assert sorted(all_cards(state)) == sorted(state["cards"])


def test_the_example_ends_as_the_book_describes(example: Driver) -> None:
    state = example.state
    assert state["status"] == "playing"
    village = state["locations"]["wotr.mongrel-village"]
    assert village["closed"] and village["cards"] == []
    # The Collapsing Bridge reopens: it was closed for that encounter only.
    bridge = state["locations"]["wotr.collapsing-bridge"]
    assert not bridge["closed"] and example.location("wotr.collapsing-bridge") == ["wotr.unnamed-barrier"]
    canyon, hall = example.location("wotr.canyon"), example.location("wotr.great-hall")
    assert sorted([("wotr.millorn" in canyon), ("wotr.millorn" in hall)]) == [False, True]
    # The blessing came from the box (two Blessings of Pulura there; one is left).
    assert [card for card in canyon + hall if example.state["defs"][card]["type"] == "blessing"] == [
        "wotr.blessing-of-pulura"
    ]
    assert example.names(state["vault"]["blessing"]) == ["wotr.blessing-of-pulura"]
    assert len(canyon) == 3 and len(hall) == 2
    # Balazar's reset draws the Enchanted Fang he put on top of his deck.
    assert example.zone("balazar", "hand") == [
        "wotr.blessing-of-ascension",
        "wotr.aravashnial",
        "wotr.enchanted-fang",
        "wotr.agility",
        "wotr.brilliance",
        "wotr.create-pit",
    ]
    assert example.zone("balazar", "displayed") == ["wotr.padrig"]
    # The restriction ended with the encounter.
    assert state["effects"] == []
    assert {name: sheet["location"] for name, sheet in state["characters"].items()} == {
        "imrijka": "wotr.mongrel-village",
        "alain": "wotr.collapsing-bridge",
        "balazar": "wotr.mongrel-village",
    }
    assert state["table"]["active"] == "imrijka"
    assert sorted(all_cards(state)) == sorted(state["cards"])


def test_replaying_the_example_log_reproduces_the_state(example: Driver) -> None:
    assert replay(example.initial, example.log) == example.state
    rolled = [event["face"] for event in example.log if event["type"] == "random" and event["what"] == "roll"]
    assert rolled == [3, 2, 1, 1, 2, 5, 4, 2, 2, 7, 3, 2, 7, 4, 6, 2, 2]
