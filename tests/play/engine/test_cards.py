"""Playing cards: the card actions, the recovery pile (core) and recharge checks (classic),
drawing, healing, summoning, examining, searching, scourges, cohorts and dead characters."""

from __future__ import annotations

from typing import Any

import pytest

from .builders import table, until
from .driver import Driver


def helper_card(action: str) -> dict[str, dict[str, Any]]:
    return {
        "test.helper": {
            "type": "item",
            "name": "Helper",
            "powers": [{"id": "help", "timing": "check", "cost": action, "effects": [{"add_die": "1d4"}]}],
        }
    }


def at_goblin(**options: Any) -> Driver:
    options.setdefault("locations", {"test.alpha": ["test.goblin"]})
    game = table(**options)
    until(game, "explore")
    game.do("fighter", {"type": "explore"})
    game.choose("fighter", type="skill", skill="Melee")
    return game


@pytest.mark.parametrize(
    ("action", "zone", "position"),
    [
        ("reveal", "hand", None),
        ("display", "displayed", 0),
        ("reload", "deck", 0),
        ("recharge", "deck", -1),
        ("discard", "discards", 0),
        ("bury", "buried", 0),
    ],
)
def test_card_actions_put_the_card_where_the_book_says(action: str, zone: str, position: int | None) -> None:
    game = at_goblin(definitions=helper_card(action), hands={"fighter": ["test.helper", "test.filler"]})
    game.choose("fighter", power="help")
    cards = game.zone("fighter", zone)
    assert "test.helper" in cards
    if position is not None:
        assert cards[position] == "test.helper"


def test_banishing_a_card_returns_it_to_the_vault() -> None:
    game = at_goblin(definitions=helper_card("banish"), hands={"fighter": ["test.helper"]})
    game.choose("fighter", power="help")
    assert game.names(game.state["vault"]["item"]) == ["test.helper"]


def bolt_game(ruleset: str) -> Driver:
    game = table(
        ruleset=ruleset,
        characters=("mage",),
        at={"mage": "test.alpha"},
        locations={"test.alpha": ["test.goblin"]},
        hands={"mage": ["test.bolt", "test.filler"]},
    )
    until(game, "explore")
    game.do("mage", {"type": "explore"})
    game.choose("mage", power="bolt")
    return game


def test_core_a_played_card_with_a_recovery_power_waits_in_the_recovery_pile() -> None:
    game = bolt_game("core-2019")
    assert game.zone("mage", "recovery") == ["test.bolt"]
    game.do("mage", {"type": "roll"}, 5, 1, 1)  # Arcane d10+2 + 2d4 = 9 against 6
    # The turn moves on (Alpha is now empty: it may be closed); at its end comes the recovery
    # check (Arcane 6).
    assert game.decision["kind"] == "close_step"
    until(game, "check")
    assert game.decision["check"]["purpose"] == "recovery"
    game.do("mage", {"type": "roll"}, 4)  # Arcane d10+2: 6
    assert game.zone("mage", "deck")[-1] == "test.bolt"


def test_core_a_failed_recovery_sends_the_card_to_the_vault() -> None:
    game = bolt_game("core-2019")
    game.do("mage", {"type": "roll"}, 5, 1, 1)
    until(game, "check")
    game.do("mage", {"type": "roll"}, 1)
    assert game.names(game.state["vault"]["spell"]) == ["test.bolt"]


def test_classic_attempts_the_recharge_check_right_after_the_check() -> None:
    game = bolt_game("classic")
    game.do("mage", {"type": "roll"}, 5, 1, 1)
    assert game.decision["kind"] == "check" and game.decision["check"]["purpose"] == "recovery"
    game.do("mage", {"type": "roll"}, 4)
    assert game.zone("mage", "deck")[-1] == "test.bolt"


EFFECTS: dict[str, dict[str, Any]] = {
    "test.tome": {
        "type": "item",
        "name": "Tome",
        "powers": [{"id": "read", "timing": "turn", "cost": "discard", "effects": [{"draw": 2}]}],
    },
    "test.quartermaster": {
        "type": "ally",
        "name": "Quartermaster",
        "powers": [
            {
                "id": "supply",
                "timing": "turn",
                "cost": "discard",
                "effects": [{"draw": {"from": "vault", "type": "weapon"}}],
            }
        ],
    },
    "test.horn": {
        "type": "item",
        "name": "Horn",
        "powers": [
            {"id": "call", "timing": "turn", "cost": "discard", "effects": [{"summon": {"card": "test.goblin"}}]}
        ],
    },
    "test.lens": {
        "type": "item",
        "name": "Lens",
        "powers": [
            {
                "id": "peer",
                "timing": "turn",
                "cost": "recharge",
                "effects": [{"examine": {"location": "local", "count": 1}}],
            }
        ],
    },
    "test.satchel": {
        "type": "item",
        "name": "Satchel",
        "powers": [
            {
                "id": "search",
                "timing": "turn",
                "cost": "discard",
                "effects": [{"search": {"from": "deck", "type": "weapon"}}],
            }
        ],
    },
    "test.curse": {
        "type": "barrier",
        "name": "Curse",
        "check": "Wisdom 20",
        "powers": [{"when": "undefeated", "effects": [{"suffer_scourge": "test.dazed"}]}],
    },
}


def test_drawing_takes_the_top_cards_of_the_deck() -> None:
    game = table(
        definitions=EFFECTS,
        hands={"fighter": ["test.tome"]},
        decks={"fighter": ["test.sword", "test.rock"] + ["test.filler"] * 8},
    )
    game.choose("fighter", power="read")
    assert game.zone("fighter", "hand") == ["test.sword", "test.rock"]


def test_a_new_card_comes_at_random_from_the_vault() -> None:
    game = table(definitions=EFFECTS, hands={"fighter": ["test.quartermaster"]}, vault=["test.sword", "test.knife"])
    game.source.picks["new:weapon"].append("test.knife")
    game.choose("fighter", power="supply")
    assert game.zone("fighter", "hand") == ["test.knife"]
    assert game.names(game.state["vault"]["weapon"]) == ["test.sword"]


def test_a_summoned_card_is_encountered_then_goes_back_to_the_vault() -> None:
    game = table(definitions=EFFECTS, hands={"fighter": ["test.horn"]}, vault=["test.goblin"])
    game.choose("fighter", power="call")
    assert game.events("encountered")[0] == {
        "type": "encountered",
        "character": "fighter",
        "card": "test.goblin",
        "origin": {"summoned": True},
    }
    game.choose("fighter", type="skill", skill="Melee")
    game.do("fighter", {"type": "roll"}, 9)
    assert game.names(game.state["vault"]["monster"]) == ["test.goblin"]


def test_summoning_a_card_in_use_imagines_a_copy_that_ceases_to_exist() -> None:
    game = table(definitions=EFFECTS, hands={"fighter": ["test.horn"]}, locations={"test.alpha": ["test.goblin"]})
    game.choose("fighter", power="call")
    game.choose("fighter", type="skill", skill="Melee")
    game.do("fighter", {"type": "roll"}, 9)
    assert "monster" not in game.state["vault"] or game.state["vault"]["monster"] == []
    assert len(game.state["gone"]) == 1 and game.location("test.alpha") == ["test.goblin"]


def test_examining_shows_the_top_card_to_everyone_until_the_location_is_shuffled() -> None:
    from play.engine import view

    game = table(
        definitions=EFFECTS,
        characters=("fighter", "mage"),
        hands={"fighter": ["test.lens"]},
        locations={"test.alpha": ["test.ogre", "test.rock"]},
    )
    game.choose("fighter", power="peer")
    assert game.events("examined")[0]["cards"] == ["test.ogre"]
    alpha = next(location for location in view(game.state, "mage")["locations"] if location["id"] == "test.alpha")
    assert alpha["known"] == [{"position": 0, "card": "test.ogre", "name": "Ogre"}]
    assert alpha["count"] == 2


def test_searching_a_deck_takes_the_chosen_card_and_shuffles_the_deck() -> None:
    game = table(
        definitions=EFFECTS,
        hands={"fighter": ["test.satchel"]},
        decks={"fighter": ["test.filler"] * 5 + ["test.sword"]},
    )
    game.choose("fighter", power="search")
    assert game.decision["kind"] == "choose"
    game.do("fighter", {"type": "choose", "index": 0})
    assert game.zone("fighter", "hand") == ["test.sword"]
    assert game.events("random")[0]["what"] == "shuffle"


def test_a_scourge_is_displayed_and_marks_the_character_once() -> None:
    game = table(
        definitions=EFFECTS, locations={"test.alpha": ["test.curse", "test.curse"]}, hands={"fighter": ["test.scout"]}
    )
    until(game, "explore")
    game.do("fighter", {"type": "explore"})
    game.do("fighter", {"type": "roll"}, 1)
    assert game.zone("fighter", "displayed") == ["test.dazed"]
    game.choose("fighter", power="explore", card="test.scout")
    game.do("fighter", {"type": "roll"}, 1)
    assert game.zone("fighter", "displayed") == ["test.dazed"]
    assert game.state["characters"]["fighter"]["scourges"] == ["test.dazed"]


def test_a_banished_cohort_is_removed_from_the_game() -> None:
    definitions = {
        "test.cohort": {
            "type": "cohort",
            "name": "Cohort",
            "powers": [{"id": "help", "timing": "check", "cost": "banish", "effects": [{"add_die": "1d6"}]}],
        }
    }
    game = at_goblin(definitions=definitions, hands={"fighter": ["test.cohort"]})
    game.choose("fighter", power="help")
    assert game.names(game.state["removed"]) == ["test.cohort"]


def test_a_dead_character_buries_everything_and_takes_no_more_turns() -> None:
    game = table(
        characters=("fighter", "mage"),
        decks={"fighter": []},
        hands={"fighter": ["test.filler"], "mage": ["test.filler"]},
    )
    until(game, "reset", "fighter")
    game.do("fighter", {"type": "pass"})  # must draw 3 from an empty deck
    assert game.state["characters"]["fighter"]["alive"] is False
    assert game.zone("fighter", "buried") == ["test.filler"]
    until(game, "reset", "mage")
    game.do("mage", {"type": "pass"})
    assert game.state["table"]["active"] == "mage"  # the dead fighter is skipped


def test_when_every_character_is_dead_the_scenario_is_lost() -> None:
    game = table(decks={"fighter": []}, hands={"fighter": ["test.filler"]})
    until(game, "reset")
    game.do("fighter", {"type": "pass"})
    assert game.state["outcome"] == {"result": "lost", "reason": "all the characters are dead"}


@pytest.mark.parametrize(
    ("ruleset", "buried"), [("core-2019", ["test.helper", "test.filler"]), ("classic", ["test.filler"])]
)
def test_a_dead_character_buries_its_displayed_cards_in_core_only(ruleset: str, buried: list[str]) -> None:
    game = at_goblin(
        ruleset=ruleset,
        characters=("fighter", "mage"),
        definitions=helper_card("display"),
        decks={"fighter": []},
        hands={"fighter": ["test.helper", "test.filler"]},
    )
    game.choose("fighter", character="fighter", power="help")
    assert game.zone("fighter", "displayed") == ["test.helper"]
    game.do("fighter", {"type": "roll"}, 9, 4)
    until(game, "reset", "fighter")
    game.do("fighter", {"type": "pass"})  # draws from an empty deck: dies
    assert sorted(game.zone("fighter", "buried")) == sorted(buried)
    assert ("test.helper" in game.names(game.state["vault"].get("item", []))) is (ruleset == "classic")


def test_healing_shuffles_random_discards_back_into_the_deck() -> None:
    game = table(hands={"fighter": ["test.potion", "test.rock", "test.sword"]}, decks={"fighter": ["test.filler"] * 3})
    until(game, "reset")
    game.do("fighter", {"type": "discard", "card": game.instance("fighter", "test.rock")})
    game.do("fighter", {"type": "discard", "card": game.instance("fighter", "test.sword")})
    game.do("fighter", {"type": "pass"})  # draws 3 of the 3 fillers
    game.choose("fighter", power="drink", card="test.potion")
    assert game.zone("fighter", "discards") == ["test.potion"]
    assert sorted(game.zone("fighter", "deck")) == ["test.rock", "test.sword"]
    assert sorted(game.events("healed")[0]["cards"]) == ["test.rock", "test.sword"]
