"""The shaped vocabulary: damage as a closing requirement, before-acting checks for several
characters with failure consequences, unreducible damage, play restrictions, random moves and
adding a skill; and the validation errors that say what is wrong."""

from __future__ import annotations

from typing import Any

import pytest

from play.engine import SetupError

from .builders import DEFINITIONS, table, until
from .driver import Driver

SCENARIO = {"type": "scenario", "locations": {"1": ["test.ledge", "test.beta"]}, "villains": [], "henchmen": []}
LEDGE = {"type": "location", "name": "Ledge", "to_close": [{"damage": {"amount": 3, "type": "Combat"}}]}
WISDOM_OR_HURT = {
    "id": "wisdom-or-hurt",
    "when": "before_acting",
    "effects": [
        {
            "check_each": {
                "who": "local",
                "check": "Wisdom 6",
                "failure": [
                    {"damage": {"amount": 1, "type": "Mental", "unreducible": True}},
                    {"restrict": {"play": ["weapon"], "duration": "encounter"}},
                ],
            }
        }
    ],
}
CARDS: dict[str, dict[str, Any]] = {
    "test.ledge": LEDGE,
    "test.mind-flayer": {"type": "monster", "name": "Mind Flayer", "check": "Combat 6", "powers": [WISDOM_OR_HURT]},
    "test.mirror": {
        "type": "monster",
        "name": "Mirror",
        "check": "Combat 6",
        "powers": [
            {
                "when": "before_acting",
                "effects": [
                    {
                        "check_each": {
                            "who": "self",
                            "check": "Wisdom 5",
                            "failure": [{"lasting": {"duration": "encounter", "difficulty": 3}}],
                        }
                    }
                ],
            }
        ],
    },
    "test.brain-blast": {
        "type": "monster",
        "name": "Brain Blast",
        "check": "Combat 6",
        "powers": [
            {"when": "encountered", "effects": [{"damage": {"amount": 2, "type": "Combat", "unreducible": True}}]}
        ],
    },
    "test.pit": {
        "type": "location",
        "name": "Pit",
        "to_close": [{"auto": True}],
        "powers": [{"when": "closed", "effects": [{"move": {"to": "random"}}]}],
    },
    "test.familiar": {
        "type": "ally",
        "name": "Familiar",
        "powers": [{"id": "arcane", "timing": "check", "cost": "discard", "effects": [{"add_skill": "Arcane"}]}],
    },
}


def at_ledge(**options: Any) -> Driver:
    return table(ruleset="classic", definitions=CARDS, scenario=SCENARIO, at={"fighter": "test.ledge"}, **options)


def test_a_damage_requirement_is_met_by_being_dealt_the_damage_which_may_be_reduced() -> None:
    game = at_ledge(hands={"fighter": ["test.armor", "test.filler", "test.filler"]})
    until(game, "close_step")
    game.do("fighter", {"type": "close"})
    assert game.option(type="attempt")["label"] == "Be dealt 3 Combat damage"
    game.do("fighter", {"type": "attempt", "option": 0})
    assert game.events("damage_dealt")[0]["amount"] == 3
    game.choose("fighter", power="absorb")
    assert game.events("damage_reduced")[0]["left"] == 1
    game.do("fighter", {"type": "select", "cards": [game.instance("fighter", "test.filler")]})
    assert game.state["locations"]["test.ledge"]["closed"]


def test_a_damage_requirement_met_with_no_cards_in_hand_still_closes() -> None:
    game = at_ledge()
    until(game, "close_step")
    game.do("fighter", {"type": "close"})
    game.do("fighter", {"type": "attempt", "option": 0})
    assert game.state["locations"]["test.ledge"]["closed"]


def mind_flayer(faces: tuple[int, ...] = ()) -> Driver:
    game = table(
        ruleset="classic",
        characters=("fighter", "priest"),
        definitions=CARDS,
        locations={"test.alpha": ["test.mind-flayer"]},
        hands={"fighter": ["test.sword", "test.armor", "test.filler"], "priest": ["test.filler"]},
    )
    until(game, "explore")
    game.do("fighter", {"type": "explore"})
    return game


def test_each_local_character_attempts_the_before_acting_check_and_suffers_its_failure() -> None:
    game = mind_flayer()
    # The encounterer first: Fighter has no Wisdom (d4); 3 fails.
    check = game.decision["check"]
    assert (check["character"], check["dice"], check["difficulty"], check["purpose"]) == ("fighter", "1d4", 6, "power")
    game.do("fighter", {"type": "roll"}, 3)
    dealt = game.events("damage_dealt")[0]
    assert (dealt["damage_type"], dealt["unreducible"]) == ("Mental", True)
    # Unreducible: the Armor is not offered; straight to choosing the card to discard.
    assert game.decision["kind"] == "discard"
    game.do("fighter", {"type": "select", "cards": [game.instance("fighter", "test.filler")]})
    # Then the Priest (Wisdom d8) succeeds and nothing happens to him.
    assert game.decision["check"]["character"] == "priest"
    game.do("priest", {"type": "roll"}, 6)
    assert game.zone("priest", "hand") == ["test.filler"]
    # Fighter may not play weapons in this encounter: the Sword is not offered for the combat check.
    assert game.decision["kind"] == "choose_skill"
    assert not [entry for entry in game.decision["options"] if entry["action"].get("card")]
    game.choose("fighter", type="skill", skill="Melee")
    game.do("fighter", {"type": "roll"}, 9)
    assert game.events("defeated")
    assert game.state["effects"] == []  # the restriction ended with the encounter


def test_a_self_check_failure_can_raise_the_difficulty_for_the_encounter() -> None:
    game = table(ruleset="classic", definitions=CARDS, locations={"test.alpha": ["test.mirror"]})
    until(game, "explore")
    game.do("fighter", {"type": "explore"})
    game.do("fighter", {"type": "roll"}, 2)  # Wisdom d4 against 5
    game.choose("fighter", type="skill", skill="Melee")
    assert game.decision["check"]["difficulty"] == 9


def test_unreducible_damage_from_an_effect_skips_the_reduction_window() -> None:
    game = table(
        ruleset="classic",
        definitions=CARDS,
        locations={"test.alpha": ["test.brain-blast"]},
        hands={"fighter": ["test.armor", "test.filler", "test.filler"]},
    )
    until(game, "explore")
    game.do("fighter", {"type": "explore"})
    assert game.decision["kind"] == "discard" and game.decision["damage"]["amount"] == 2


def test_move_to_a_random_location_rolls_one_die_side_per_other_location() -> None:
    scenario = {"type": "scenario", "locations": {"1": ["test.pit", "test.alpha", "test.beta"]}, "villains": []}
    game = table(ruleset="classic", definitions=CARDS, scenario=scenario, at={"fighter": "test.pit"})
    until(game, "close_step")
    game.do("fighter", {"type": "close"})
    game.do("fighter", {"type": "attempt", "option": 0}, 2)
    rolled = next(event for event in game.last_events if event["type"] == "random")
    assert (rolled["sides"], rolled["face"]) == (2, 2)
    assert game.state["characters"]["fighter"]["location"] == "test.beta"


def test_add_skill_adds_the_players_skill_die_and_bonus() -> None:
    game = table(
        ruleset="classic",
        characters=("mage",),
        definitions=CARDS,
        locations={"test.alpha": ["test.goblin"]},
        at={"mage": "test.alpha"},
        hands={"mage": ["test.familiar"]},
    )
    until(game, "explore", "mage")
    game.do("mage", {"type": "explore"})
    game.choose("mage", type="skill", skill="Strength")
    game.choose("mage", power="arcane")
    assert game.decision["check"]["dice"] == "1d10+1d4+2"  # Strength d4; Arcane d10+2


@pytest.mark.parametrize(
    ("definition", "message"),
    [
        ({"type": "location", "to_close": [{"damage": {"amount": 0}}]}, r"to_close\[0\].damage.amount must be"),
        ({"type": "location", "to_close": [{"damage": {"amount": 2, "type": "combat"}}]}, "not a damage type"),
        ({"type": "location", "to_close": [{"damage": {"amount": 2, "kind": "Fire"}}]}, "'kind' is not a damage key"),
        ({"type": "location", "to_close": [{"dance": True}]}, "'dance' is not a requirement"),
        ({"type": "location", "to_guard": [{"check": "Kombat 5"}]}, "unknown skill 'Kombat'"),
        (
            {
                "type": "monster",
                "powers": [{"when": "before_acting", "effects": [{"check_each": {"check": "Wisdom 6"}}]}],
            },
            "needs failure",
        ),
        (
            {
                "type": "monster",
                "powers": [
                    {
                        "when": "before_acting",
                        "effects": [{"check_each": {"who": "party", "check": "Wisdom 6", "failure": []}}],
                    }
                ],
            },
            "who must be one of self, local, all",
        ),
        (
            {"type": "monster", "powers": [{"when": "defeated", "effects": [{"restrict": {"play": ["dragon"]}}]}]},
            "restrict.play must list card types",
        ),
        (
            {
                "type": "monster",
                "powers": [{"when": "defeated", "effects": [{"restrict": {"play": ["spell"], "duration": "turn"}}]}],
            },
            "duration must be one of encounter",
        ),
        (
            {"type": "ally", "powers": [{"timing": "check", "effects": [{"add_skill": "Juggling"}]}]},
            "must name a skill",
        ),
        ({"type": "location", "powers": [{"when": "closed", "effects": [{"move": "away"}]}]}, "move must be"),
        (
            {
                "type": "monster",
                "powers": [{"when": "encountered", "effects": [{"damage": {"amount": 1, "unreducible": "yes"}}]}],
            },
            "unreducible must be true or false",
        ),
    ],
)
def test_a_malformed_definition_is_refused_saying_what_is_wrong(definition: dict[str, Any], message: str) -> None:
    with pytest.raises(SetupError, match=message) as raised:
        table(definitions={"test.bad": definition})
    assert "card test.bad" in str(raised.value)


def test_the_builders_definitions_and_bundled_data_still_validate() -> None:
    from play.engine import load_definitions
    from play.engine.cards import validate_definition

    for card_id, definition in DEFINITIONS.items():
        validate_definition(card_id, definition)
    assert load_definitions("wotr-example")["wotr.collapsing-bridge"]["to_close"] == [
        {"damage": {"amount": 4, "type": "Combat"}}
    ]
