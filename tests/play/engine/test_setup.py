"""Setting Up and Play It Your Way."""

from __future__ import annotations

from typing import Any

import pytest

from play.engine import SetupError, new_game
from play.engine.sandbox import sandbox_definitions, sandbox_setup

from .builders import DEFINITIONS, table
from .driver import Driver, all_cards
from .sources import ArrangedSource


def sizes(state: dict[str, Any]) -> dict[str, int]:
    return {name: len(state["locations"][name]["cards"]) for name in state["location_order"]}


def test_locations_are_those_listed_up_to_the_number_of_characters() -> None:
    one = new_game(sandbox_setup(1), seed="s")
    three = new_game(sandbox_setup(3), seed="s")
    assert one["location_order"] == ["sandbox.village", "sandbox.forest", "sandbox.crypt"]
    assert three["location_order"] == [
        "sandbox.village",
        "sandbox.forest",
        "sandbox.crypt",
        "sandbox.library",
        "sandbox.cave",
    ]


def test_play_it_your_way_can_use_one_location_list_more_or_fewer() -> None:
    more = new_game(sandbox_setup(2, options={"location_count_delta": 1}), seed="s")
    fewer = new_game(sandbox_setup(2, options={"location_count_delta": -1}), seed="s")
    assert len(more["location_order"]) == 5 and len(fewer["location_order"]) == 3


@pytest.mark.parametrize(("size", "village"), [("small", 6), ("medium", 9), ("large", 12)])
def test_locations_are_built_from_the_vault_by_size(size: str, village: int) -> None:
    state = new_game(sandbox_setup(1, options={"location_size": size}), seed="s")
    story_bane = 1  # one card of the story bane stack per location
    assert sizes(state)["sandbox.village"] == village + story_bane
    kinds = sorted(state["cards"][card] for card in state["locations"]["sandbox.village"]["cards"])
    assert len(kinds) == village + story_bane


def test_classic_locations_use_their_one_deck_list_whatever_the_size() -> None:
    definitions = dict(DEFINITIONS)
    definitions["test.alpha"] = dict(definitions["test.alpha"], deck_list={"item": 2})
    setup = {
        "scenario": "test.scenario",
        "cards": definitions,
        "vault": ["test.filler"] * 5 + ["test.plain-blessing"] * 30,
        "options": {"location_size": "large"},
        "characters": [{"id": "fighter", "character": "test.fighter", "deck": ["test.filler"] * 8}],
    }
    state = new_game(setup, seed="s", ruleset="classic")
    assert sizes(state)["test.alpha"] == 2


def story_bane_setup(villains: list[str], henchmen: list[Any], characters: int = 1) -> dict[str, Any]:
    definitions = dict(sandbox_definitions())
    definitions["test.brute"] = {"type": "henchman", "subtype": "monster", "name": "Brute", "check": "Combat 9"}
    definitions["sandbox.the-warlock"] = dict(definitions["sandbox.the-warlock"], villains=villains, henchmen=henchmen)
    return sandbox_setup(characters) | {"cards": definitions}


def dealt(state: dict[str, Any]) -> list[str]:
    """The story banes in the locations, proxies read as what they stand for."""
    found = []
    for name in state["location_order"]:
        for card in state["locations"][name]["cards"]:
            card_id = state["proxies"].get(card, state["cards"][card])
            if card_id in state["story_banes"]:
                found.append(card_id)
    return sorted(found)


def test_the_story_bane_stack_holds_villains_then_henchmen_one_per_location() -> None:
    state = new_game(
        story_bane_setup(
            ["sandbox.warlock"],
            [{"card": "sandbox.golem", "closing": True}, {"card": "sandbox.bandit-captain"}, {"card": "test.brute"}],
        ),
        seed="s",
    )
    # 3 locations for one character: the villain and the first two henchmen; the brute stays out.
    assert dealt(state) == ["sandbox.bandit-captain", "sandbox.golem", "sandbox.warlock"]
    per_location = [
        sum(state["cards"][card] in state["story_banes"] for card in state["locations"][name]["cards"])
        for name in state["location_order"]
    ]
    assert per_location == [1, 1, 1]
    assert state["story_banes"]["sandbox.golem"] == {"role": "henchman", "closing": True}
    assert state["story_banes"]["sandbox.bandit-captain"]["closing"] is False
    assert state["story_banes"]["sandbox.warlock"]["role"] == "villain"


def test_core_fills_the_stack_with_proxies_and_sets_the_proxied_henchman_aside() -> None:
    state = new_game(
        story_bane_setup(
            [], [{"card": "sandbox.golem"}, {"card": "sandbox.bandit-captain", "proxy": "sandbox.proxy-x"}]
        ),
        seed="s",
    )
    proxies = [card for card in state["proxies"]]
    assert len(proxies) == 2  # one listed + one more to reach 3 locations
    assert {state["cards"][card] for card in proxies} == {"sandbox.proxy-x"}
    assert set(state["proxies"].values()) == {"sandbox.bandit-captain"}
    assert [state["cards"][card] for card in state["table"]["set_aside"]] == ["sandbox.bandit-captain"]
    assert dealt(state) == ["sandbox.bandit-captain", "sandbox.bandit-captain", "sandbox.golem"]


def test_classic_fills_the_stack_with_copies_of_the_last_henchman() -> None:
    state = new_game(
        story_bane_setup(
            [], [{"card": "sandbox.golem"}, {"card": "sandbox.bandit-captain", "proxy": "sandbox.proxy-x"}]
        ),
        seed="s",
        ruleset="classic",
    )
    assert state["proxies"] == {}
    assert dealt(state) == ["sandbox.bandit-captain", "sandbox.bandit-captain", "sandbox.golem"]


def test_dangers_are_set_aside() -> None:
    state = new_game(sandbox_setup(2), seed="s")
    assert [state["cards"][card] for card in state["table"]["dangers"]] == ["sandbox.collapse"]
    assert dealt(state).count("sandbox.collapse") == 0


def test_the_hourglass_is_thirty_random_blessings_from_the_vault() -> None:
    state = new_game(sandbox_setup(2), seed="s")
    turn_one = 1
    assert len(state["hourglass"]) + len(state["hourglass_discards"]) == 30
    assert len(state["hourglass_discards"]) == turn_one
    assert all(state["defs"][state["cards"][card]]["type"] == "blessing" for card in state["hourglass"])


def test_the_hourglass_size_is_a_play_it_your_way_option() -> None:
    state = new_game(sandbox_setup(2, options={"hourglass_size": 16}), seed="s")
    assert len(state["hourglass"]) == 15


def test_a_vault_without_enough_blessings_cannot_make_the_hourglass() -> None:
    setup = sandbox_setup(1, options={"hourglass_size": 500})
    with pytest.raises(SetupError, match="needs 500 blessings"):
        new_game(setup, seed="s")


def test_heroic_and_legendary_must_increase_the_challenge() -> None:
    with pytest.raises(SetupError, match="Heroic mode increases the challenge over Normal in 2 ways"):
        new_game(sandbox_setup(1, options={"mode": "heroic"}), seed="s")
    heroic = new_game(
        sandbox_setup(1, options={"mode": "heroic", "location_size": "large", "hourglass_size": 24}), seed="s"
    )
    assert heroic["options"]["mode"] == "heroic"
    legendary = new_game(
        sandbox_setup(
            1, options={"mode": "legendary", "location_size": "large", "location_count_delta": 1, "hourglass_size": 20}
        ),
        seed="s",
    )
    assert (legendary["adventure"], legendary["bane_adventure"]) == (1, 2)


def test_wildcards_are_placed_on_the_table() -> None:
    definitions = dict(sandbox_definitions(), **{"test.wild": {"type": "wildcard", "name": "Wild"}})
    state = new_game(sandbox_setup(1, options={"wildcards": ["test.wild"]}) | {"cards": definitions}, seed="s")
    assert [state["cards"][card] for card in state["table"]["wildcards"]] == ["test.wild"]


def test_a_higher_adventure_number_for_banes_raises_only_bane_difficulties() -> None:
    game = table(
        locations={"test.alpha": ["test.ogre"]},
        options={"bane_adventure_delta": 1},
        hands={"fighter": []},
    )
    game.do("fighter", {"type": "pass"})  # stay
    game.do("fighter", {"type": "explore"})
    assert game.option(type="skill", skill="Melee")["check"]["odds"]["difficulty"] == 14  # 10 + 2 x (1+1)


def test_characters_start_where_they_choose() -> None:
    state = new_game(sandbox_setup(2), seed="s")
    assert state["characters"]["valor"]["location"] == "sandbox.village"
    setup = sandbox_setup(1)
    setup["characters"][0]["location"] = "sandbox.nowhere"
    with pytest.raises(SetupError, match="cannot start at sandbox.nowhere"):
        new_game(setup, seed="s")


def test_a_starting_hand_without_the_favored_card_is_set_aside_and_drawn_again() -> None:
    deck = ["test.filler"] * 4 + ["test.sword"] + ["test.filler"] * 5
    game = table(decks={"fighter": deck}, draw_hands=True, favored={"fighter": "weapon"})
    assert game.zone("fighter", "hand") == ["test.sword", "test.filler", "test.filler", "test.filler"]
    # The set-aside hand was shuffled back into the deck.
    assert len(game.zone("fighter", "deck")) == 6


def test_short_of_cards_the_set_aside_hand_is_shuffled_in_to_draw_the_rest() -> None:
    deck = ["test.filler"] * 5 + ["test.sword"]
    game = table(decks={"fighter": deck}, draw_hands=True, favored={"fighter": "weapon"})
    hand = game.zone("fighter", "hand")
    assert len(hand) == 4 and "test.sword" in hand
    assert len(game.zone("fighter", "deck")) == 2


def test_a_favored_card_type_to_choose_must_be_chosen() -> None:
    definitions = dict(DEFINITIONS)
    definitions["test.fighter"] = dict(definitions["test.fighter"], favored="any card type")
    with pytest.raises(SetupError, match="chooses a favored card type"):
        table(definitions=definitions, draw_hands=True)


def test_cohorts_join_the_starting_hand() -> None:
    definitions = dict(sandbox_definitions(), **{"test.cohort": {"type": "cohort", "name": "Cohort"}})
    setup = sandbox_setup(1) | {"cards": definitions}
    setup["characters"][0]["cohort"] = "test.cohort"
    state = new_game(setup, seed="s")
    hand = [state["cards"][card] for card in state["characters"]["valor"]["hand"]]
    assert hand.count("test.cohort") == 1 and len(hand) == 6


def test_the_adventure_number_comes_from_the_scenario_unless_overridden() -> None:
    assert new_game(sandbox_setup(1), seed="s")["adventure"] == 1
    assert new_game(sandbox_setup(1, options={"adventure": 3}), seed="s")["bane_adventure"] == 3


def test_every_card_starts_in_exactly_one_place() -> None:
    for characters in range(1, 7):
        state = new_game(sandbox_setup(characters), seed=str(characters))
        places = all_cards(state)
        assert sorted(places) == sorted(state["cards"])


def test_the_same_seed_sets_up_the_same_table_and_another_seed_does_not() -> None:
    first, second, other = (new_game(sandbox_setup(3), seed=seed) for seed in ("a", "a", "b"))
    assert first == second
    assert first["locations"] != other["locations"]


def test_an_arranged_table_is_used_as_given() -> None:
    source = ArrangedSource()
    setup = sandbox_setup(1) | {
        "table": {"locations": {"sandbox.village": ["sandbox.goblin", "sandbox.dagger"]}, "hands": {"valor": []}}
    }
    game = Driver(new_game(setup, seed="s", dice=source), source)
    assert game.location("sandbox.village") == ["sandbox.goblin", "sandbox.dagger"]
    assert game.zone("valor", "hand") == []


def test_a_wildcards_passive_powers_apply_to_every_character() -> None:
    definitions = {"test.onslaught": {"type": "wildcard", "name": "Onslaught", "passive": [{"difficulty": 2}]}}
    game = table(
        definitions=definitions, options={"wildcards": ["test.onslaught"]}, locations={"test.alpha": ["test.goblin"]}
    )
    game.do("fighter", {"type": "pass"})
    game.do("fighter", {"type": "explore"})
    assert game.option(type="skill", skill="Melee")["check"]["odds"]["difficulty"] == 8  # Combat 6 + 2


def test_classic_calls_the_vault_the_box_and_the_hourglass_the_blessings_deck() -> None:
    with pytest.raises(SetupError, match="the blessings deck needs 500 blessings but the box has"):
        new_game(sandbox_setup(1, options={"hourglass_size": 500}), seed="s", ruleset="classic")
