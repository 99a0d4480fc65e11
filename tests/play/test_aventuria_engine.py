"""The Aventuria combat engine against the rulebook's examples, with injected dice (no database)."""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from play.engine.aventuria import apply, new_combat, replay, rolls, view
from play.engine.aventuria.policy import random_action, sensible_action
from play.engine.aventuria.starter import starter_setup
from play.engine.errors import IllegalAction, NotYourDecision, StaleVersion


class Dice:
    """Faces in the order the combat rolls them; decks and piles stacked by name, first named first."""

    def __init__(self, faces: Sequence[int] = (), order: Sequence[str] = ()) -> None:
        self.faces, self.order = list(faces), list(order)

    def roll(self, sides: int, draw: int) -> int:
        assert self.faces, f"a d{sides} more than the test scripted"
        face = self.faces.pop(0)
        assert 1 <= face <= sides
        return face

    def shuffle(self, cards: Sequence[str], label: str, draw: int) -> list[int]:
        rank = {name: i for i, name in enumerate(self.order)}
        return sorted(range(len(cards)), key=lambda i: (rank.get(cards[i], len(rank)), i))


def hero(name: str, **values: Any) -> dict[str, Any]:
    attributes = {"close_combat": 12, "ranged_combat": 8, "magic": None, "dodge": 9} | values.pop("attributes", {})
    return {"id": name.lower(), "name": name, "player": name.lower(), "attributes": attributes, "deck": [], **values}


RAPIER = {"name": "Rapier", "cost": 0, "kind": "weapon", "attack": {"type": "close_combat", "damage": "1D6+3"}}
NOTHING = [{"from": 1, "to": 20, "text": "Waits"}]


def answer(state: dict[str, Any], kind: str, action: dict[str, Any], dice: Any = None) -> dict[str, Any]:
    decision = state["pending"]
    assert decision["kind"] == kind, decision["prompt"]
    state, _ = apply(state, decision["players"][0], action, dice=dice)
    return state


def to_first_turn(state: dict[str, Any], dice: Any = None) -> dict[str, Any]:
    """Every hero keeps their hand and plays no endurance."""
    while state["pending"]["kind"] in ("fox_hand", "endurance"):
        state = answer(state, state["pending"]["kind"], {"type": state["pending"]["kind"], "cards": []}, dice)
    return state


def test_a_test_rolls_under_its_value_a_1_always_succeeds_and_a_20_always_fails():
    assert [rolls.outcome(face, 8) for face in (1, 8, 9, 20)] == [
        "critical success",
        "success",
        "failure",
        "critical failure",
    ]
    assert rolls.outcome(1, 0) == rolls.outcome(1, None) == "failure"  # modified to 0, or "—": failed unrolled
    assert rolls.outcome(20, 25) == "critical failure"
    assert rolls.test_odds(8)["success"] == "2/5" and rolls.test_odds(25)["success"] == "19/20"
    assert rolls.test_odds(8)["critical_success"] == "1/20" and rolls.test_odds(None)["success_float"] == 0.0


def test_the_rapier_attack_against_the_kobold_and_its_dodge():
    """Tsaiana hits; 1D6+3 with a 4 is 7; the Kobold (Dodge 8) rolls 5 and dodges: 4 damage, armor
    0; he had 3 life points left and is defeated; Tsaiana gains 1 fate point."""
    kobold = {"id": "kobold", "name": "Kobold", "life": 3, "dodge": 8, "armor": 0, "actions": 1, "table": NOTHING}
    setup = {"heroes": [hero("Tsaiana", deck=["rapier"])], "cards": {"rapier": RAPIER}, "leaders": [kobold]}
    state = to_first_turn(new_combat(setup, seed="rapier"))
    state = answer(state, "turn", {"type": "play", "card": "rapier"})
    options = [o["action"] for o in state["pending"]["options"]]
    assert {"type": "attack", "source": "rapier", "target": "kobold"} in options
    state = answer(state, "turn", {"type": "attack", "source": "rapier", "target": "kobold"}, dice=[5, 4, 5])
    attack = next(e for e in state["log"] if e["event"] == "attack")
    assert attack["damage_roll"] == 7 and attack["dodge"]["result"] == "success" and attack["damage"] == 4
    assert attack["defeated"] and state["status"] == "won"
    assert state["heroes"][0]["fate"] == 1 and state["fate_pool"] == 1  # two fate points for one hero, one taken


def test_henchmen_are_placed_until_their_threat_reaches_the_threat_value():
    """Two heroes: threat 2 x 6 = 12. Loyal Bodyguard (5), another (10), Tough Watchman (7): 17."""

    def henchman(id_: str, name: str, threat: int) -> dict[str, Any]:
        return {
            "id": id_,
            "name": name,
            "threat": threat,
            "life": 6,
            "dodge": 6,
            "armor": 1,
            "actions": 1,
            "table": NOTHING,
        }

    pile = [henchman("bodyguard", "Loyal Bodyguard", 5)] * 2 + [henchman("watchman", "Tough Watchman", 7)]
    pile += [henchman(f"guard-{i}", f"Guard {i}", 3) for i in range(9)]
    baron = {
        "id": "baron",
        "name": "Baron of Wildenstein",
        "life_per_hero": 8,
        "dodge": 8,
        "armor": 2,
        "actions": "heroes",
        "table": NOTHING,
    }
    setup = {
        "heroes": [hero("Selestia"), hero("Miraculo")],
        "cards": {},
        "leaders": [baron],
        "henchmen": pile,
        "threat_per_hero": 6,
    }
    state = new_combat(setup, dice=Dice(order=["bodyguard", "bodyguard#2", "watchman"]))
    row = [(o["name"], o["life"]) for o in state["opponents"]]
    assert row == [("Baron of Wildenstein", 16), ("Loyal Bodyguard", 6), ("Loyal Bodyguard", 6), ("Tough Watchman", 6)]
    assert len(state["henchman_pile"]) == 9 and state["log"][0]["placed"] == 17


def test_an_opponents_turn_the_baron_rolls_one_action_a_hero_then_each_henchman_one():
    baron_table = [
        {"from": 8, "to": 8, "text": "Draw a Leader Action Card from its Draw Pile and resolve it."},
        {"from": 15, "to": 15, "text": "The Baron smiles balefully, but other than that, nothing bad happens."},
        {"from": 1, "to": 20, "text": "Waits"},
    ]
    baron = {
        "id": "baron",
        "name": "Baron of Wildenstein",
        "life_per_hero": 8,
        "dodge": 8,
        "armor": 2,
        "actions": "heroes",
        "table": baron_table,
    }
    guards = [
        {
            "id": "bodyguard",
            "name": "Loyal Bodyguard",
            "threat": 5,
            "life": 6,
            "dodge": 6,
            "armor": 1,
            "actions": 1,
            "table": NOTHING,
        },
        {
            "id": "watchman",
            "name": "Tough Watchman",
            "threat": 7,
            "life": 8,
            "dodge": 5,
            "armor": 2,
            "actions": 1,
            "table": NOTHING,
        },
    ]
    setup = {
        "heroes": [hero("Selestia"), hero("Miraculo")],
        "cards": {},
        "leaders": [baron],
        "henchmen": [guards[0], guards[0], guards[1]],
        "threat_per_hero": 6,
    }
    dice = Dice(order=["bodyguard", "bodyguard#2", "watchman"])
    state = to_first_turn(new_combat(setup, dice=dice))
    state = answer(state, "turn", {"type": "end_turn"})
    state = answer(state, "turn", {"type": "end_turn"}, dice=Dice([15, 8, 11, 12, 13], order=[]))
    acted = [(e["opponent"], e["roll"], e["effect"]) for e in state["log"] if e["event"] == "opponent_action"]
    assert acted == [
        ("Baron of Wildenstein", 15, baron_table[1]["text"]),
        ("Baron of Wildenstein", 8, baron_table[0]["text"]),
        ("Loyal Bodyguard", 11, "Waits"),
        ("Loyal Bodyguard", 12, "Waits"),
        ("Tough Watchman", 13, "Waits"),
    ]


def attacker(damage: str, target: str = "starting", kind: str = "attack") -> dict[str, Any]:
    return {
        "id": "ogre",
        "name": "Ogre",
        "life": 30,
        "dodge": None,
        "armor": 0,
        "actions": 1,
        "table": [{"from": 1, "to": 20, kind: {"type": "close_combat", "damage": damage, "target": target}}],
    }


def test_a_hero_dodges_half_the_damage_rounded_up_and_one_armor_takes_the_rest():
    cards = {
        "leather": {"name": "Leather Armor", "cost": 0, "kind": "armor", "protection": 2},
        "chain": {"name": "Chain Shirt", "cost": 0, "kind": "armor", "protection": 3},
    }
    setup = {
        "heroes": [hero("Alrik", deck=["leather", "chain"], attributes={"dodge": 10})],
        "cards": cards,
        "leaders": [attacker("2D6+3")],
    }
    state = to_first_turn(new_combat(setup, seed="dodge"))
    state = answer(state, "turn", {"type": "play", "card": "leather"})
    state = answer(state, "turn", {"type": "play", "card": "chain"})
    state = answer(state, "turn", {"type": "end_turn"}, dice=[7, 5, 4, 4])  # action 7; damage 5+4+3 = 12; dodge 4
    assert state["pending"]["kind"] == "armor"  # two armors: the hero picks the one
    state = answer(state, "armor", {"type": "armor", "card": "chain"})
    hit = next(e for e in state["log"] if e.get("target") == "Alrik")
    assert (hit["damage_roll"], hit["dodge"]["result"], hit["armor"], hit["damage"]) == (
        12,
        "success",
        "Chain Shirt",
        3,
    )
    assert state["heroes"][0]["life"] == 37


def test_a_life_point_loss_is_neither_dodged_nor_reduced_by_armor():
    setup = {
        "heroes": [hero("Selestia", attributes={"dodge": 19})],
        "cards": {},
        "leaders": [attacker("1D6+1", kind="lose_life")],
    }
    state = to_first_turn(new_combat(setup, seed="vampire grip"))
    state = answer(state, "turn", {"type": "end_turn"}, dice=[3, 5])
    assert state["heroes"][0]["life"] == 34


def test_a_random_hero_is_rolled_on_a_d6_again_until_it_names_one():
    """Selestia 1, Miraculo 2, Yoleyana 3, Lavalox 4: a 5 is rolled again; the 3 hits Yoleyana."""
    names = ["Selestia", "Miraculo", "Yoleyana", "Lavalox"]
    setup = {
        "heroes": [hero(n) for n in names],
        "cards": {},
        "leaders": [attacker("1D6", target="random", kind="lose_life")],
    }
    state = to_first_turn(new_combat(setup, seed="random hero"))
    for _ in range(3):
        state = answer(state, "turn", {"type": "end_turn"})
    # the ogre acts 1 time; a 5 and then a 3 choose the target; 2 damage
    state = answer(state, "turn", {"type": "end_turn"}, dice=[10, 5, 3, 2])
    assert [h["life"] for h in state["heroes"]] == [40, 40, 38, 40]


def test_a_missed_attack_may_be_rerolled_with_a_fate_point_else_earns_one():
    kobold = {"id": "kobold", "name": "Kobold", "life": 10, "dodge": None, "armor": 0, "actions": 1, "table": NOTHING}
    setup = {
        "heroes": [hero("Tsaiana", fate=1, basic_attack={"name": "Dagger", "type": "close_combat", "damage": "1D6"})],
        "cards": {},
        "leaders": [kobold],
    }
    state = to_first_turn(new_combat(setup, seed="fate"))
    state = answer(state, "turn", {"type": "attack", "source": "basic", "target": "kobold"}, dice=[15])
    reroll = state["pending"]
    assert reroll["kind"] == "reroll" and reroll["test"]["success"] == "3/5"  # 12 or under on a D20
    state = answer(state, "reroll", {"type": "reroll"}, dice=[18])
    assert state["heroes"][0]["fate"] == 0 and state["pending"]["kind"] == "turn"
    attack = next(e for e in state["log"] if e["event"] == "attack")
    assert attack["test"]["roll"] == 18 and "fate_gained" not in attack  # a fate point was spent on the test
    options = [o["action"]["type"] for o in state["pending"]["options"]]
    assert "attack" not in options  # one close combat attack a turn, and it was made


def test_an_unconscious_hero_is_skipped_and_a_reanimation_roll_brings_them_back():
    endurance = {"name": "Provisions", "cost": 0, "kind": "equipment"}
    setup = {
        "heroes": [hero("Alrik", life=3, deck=["p1", "p2", "p3", "p4"]), hero("Yoleyana", deck=["p5"])],
        "cards": {f"p{i}": endurance for i in range(1, 6)},
        "leaders": [attacker("1D6+2", target="least_life", kind="lose_life")],
    }
    state = to_first_turn(new_combat(setup, seed="unconscious"))
    state = answer(state, "turn", {"type": "end_turn"})
    state = answer(state, "turn", {"type": "end_turn"}, dice=[1, 4])
    alrik = state["heroes"][0]
    assert alrik["unconscious"] and alrik["life"] == 0
    assert state["starting_hero"] == 1  # the token skips him
    assert state["pending"]["kind"] == "endurance" and state["pending"]["hero"] == "yoleyana"
    state = answer(state, "endurance", {"type": "endurance", "cards": ["p5"]})
    reanimate = {"type": "reanimate", "hero": "alrik", "endurance": 1}
    assert reanimate in [o["action"] for o in state["pending"]["options"]]
    state = answer(state, "turn", reanimate, dice=[1])
    assert not state["heroes"][0]["unconscious"] and state["heroes"][0]["life"] == 1


def test_time_counters_run_out_into_the_time_effects():
    setup = starter_setup(1)
    setup["time_scale"] = {
        "counters": 2,
        "effects": {"1": {"henchmen": 1, "text": "A henchman joins"}, "0": {"defeat": True, "text": "Overwhelmed"}},
    }
    state = new_combat(setup, seed="time")
    before = len(state["opponents"])
    while state["status"] == "playing" and state["round"] == 1:
        state, _ = apply(state, *sensible_action(state))
    assert state["time"]["counters"] == 1 and len(state["opponents"]) >= before
    while state["status"] == "playing":
        state, _ = apply(state, *sensible_action(state))
    assert state["status"] in ("won", "lost")
    assert state["status"] == "won" or state["log"][-2] == {"event": "time", "counters": 0, "effect": "Overwhelmed"}


def test_only_the_deciding_hero_answers_and_versions_are_checked():
    state = new_combat(starter_setup(2, ["ana", "ben"]), seed="who")
    with pytest.raises(NotYourDecision):
        apply(state, "ben", {"type": "fox_hand", "cards": []})
    with pytest.raises(StaleVersion):
        apply(state, "ana", {"type": "fox_hand", "cards": [], "version": 7})
    with pytest.raises(IllegalAction):
        apply(state, "ana", {"type": "fox_hand", "cards": ["not-in-hand"]})
    seen = view(state, "ben")
    assert isinstance(seen["heroes"][0]["hand"], int) and isinstance(seen["heroes"][1]["hand"], list)
    assert "seed" not in seen and seen["pending"] == {
        "kind": "fox_hand",
        "prompt": state["pending"]["prompt"],
        "waiting_for": ["ana"],
    }


def cards_of(state: dict[str, Any]) -> list[str]:
    return sorted(
        card
        for hero in state["heroes"]
        for card in [
            *hero["deck"],
            *hero["hand"],
            *hero["discard"],
            *(c["card"] for c in hero["endurance"] + hero["in_play"]),
        ]
    )


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 10**6), heroes=st.integers(1, 4), sensible=st.booleans())
def test_a_whole_combat_ends_keeps_every_card_in_one_place_and_replays_exactly(seed, heroes, sensible):
    rng = random.Random(seed)
    state = new_combat(starter_setup(heroes), seed=str(seed))
    initial, events, cards = state, [], cards_of(state)
    while state["status"] == "playing":
        player, action = sensible_action(state) if sensible else random_action(state, rng)
        state, logged = apply(state, player, action)
        events += logged
        assert cards_of(state) == cards
    assert state["status"] in ("won", "lost") and state["pending"] is None
    assert replay(initial, events) == state
    again = new_combat(starter_setup(heroes), seed=str(seed))  # in place, as simulations play: the same combat
    for event in events:
        again, _ = apply(again, event["player"], event["action"], in_place=True)
    assert again == state


def test_a_fate_point_buys_endurance_for_the_turn_or_a_card():
    cards = {
        "sword": {"name": "Sword", "cost": 1, "kind": "weapon", "attack": {"type": "close_combat", "damage": "1D6"}},
        "rope": {"name": "Rope", "cost": 0, "kind": "equipment"},
    }
    kobold = {"id": "kobold", "name": "Kobold", "life": 10, "dodge": None, "armor": 0, "actions": 1, "table": NOTHING}
    setup = {
        "heroes": [hero("Tsaiana", fate=2, deck=["sword", "rope", "rope", "rope", "rope", "rope", "rope", "rope"])],
        "cards": cards,
        "leaders": [kobold],
    }
    state = to_first_turn(new_combat(setup, dice=Dice(order=["sword"])))
    labels = [o["label"] for o in state["pending"]["options"]]
    assert "Play Sword (cost 1)" not in labels  # no endurance yet
    state = answer(state, "turn", {"type": "fate_endurance"})
    assert (state["heroes"][0]["fate"], state["fate_pool"]) == (1, 3)
    state = answer(state, "turn", {"type": "play", "card": "sword"})
    hand = len(state["heroes"][0]["hand"])
    state = answer(state, "turn", {"type": "fate_draw"})
    assert len(state["heroes"][0]["hand"]) == hand + 1 and state["heroes"][0]["fate"] == 0
    assert not any(o["action"]["type"].startswith("fate") for o in state["pending"]["options"])


def test_a_swarm_loses_one_doom_counter_an_attack_and_is_defeated_with_the_last():
    rats = {
        "id": "rats",
        "name": "Rat Swarm",
        "life": 3,
        "doom": 2,
        "dodge": None,
        "armor": 0,
        "actions": 1,
        "table": NOTHING,
    }
    setup = {"heroes": [hero("Tsaiana", deck=["rapier"])], "cards": {"rapier": RAPIER}, "leaders": [rats]}
    state = to_first_turn(new_combat(setup, seed="swarm"))
    state = answer(state, "turn", {"type": "play", "card": "rapier"})
    state = answer(state, "turn", {"type": "attack", "source": "rapier", "target": "rats"}, dice=[3, 6])  # 9 damage
    swarm = state["opponents"][0]
    assert (swarm["doom"], swarm["life"], state["heroes"][0]["fate"]) == (1, 3, 0)  # one counter, however much damage
    state = answer(state, "turn", {"type": "end_turn"}, dice=[10])
    state = answer(state, "endurance", {"type": "endurance", "cards": []})
    state = answer(state, "turn", {"type": "attack", "source": "rapier", "target": "rats"}, dice=[3, 1])
    assert state["status"] == "won" and state["heroes"][0]["fate"] == 1  # the final blow earns the fate point


def test_a_companion_attacks_with_its_own_value_beside_the_heros_attacks_and_earns_no_fate_for_a_miss():
    wolf = {
        "name": "Wolf",
        "cost": 0,
        "kind": "companion",
        "attack": {"type": "companion", "value": 14, "damage": "1D6"},
    }
    kobold = {"id": "kobold", "name": "Kobold", "life": 20, "dodge": None, "armor": 0, "actions": 1, "table": NOTHING}
    setup = {
        "heroes": [
            hero("Layariel", deck=["wolf"], basic_attack={"name": "Dagger", "type": "close_combat", "damage": "1D6"})
        ],
        "cards": {"wolf": wolf},
        "leaders": [kobold],
    }
    state = to_first_turn(new_combat(setup, seed="wolf"))
    state = answer(state, "turn", {"type": "play", "card": "wolf"})
    state = answer(state, "turn", {"type": "attack", "source": "basic", "target": "kobold"}, dice=[4, 2])
    wolf_attack = next(o for o in state["pending"]["options"] if o["action"].get("source") == "wolf")
    assert wolf_attack["odds"]["success"] == "7/10"  # 14 or under on a D20, not the hero's close combat
    state = answer(state, "turn", wolf_attack["action"], dice=[17])
    assert state["heroes"][0]["fate"] == 0 and state["fate_pool"] == 2


def test_plus_and_minus_tokens_change_the_first_hand_and_disadvantages_take_effect():
    scar = {"name": "Scar", "cost": 0, "kind": "disadvantage", "lose_life": 2, "text": "Lose 2 life points."}
    rope = {"name": "Rope", "cost": 0, "kind": "equipment"}
    setup = {
        "heroes": [
            hero("Alrik", plus_tokens=1, deck=["scar", *["rope"] * 9]),
            hero("Yoleyana", minus_tokens=2, deck=["rope"] * 3 + ["scar"] + ["rope"] * 6),
        ],
        "cards": {"scar": scar, "rope": rope},
        "leaders": [
            {"id": "kobold", "name": "Kobold", "life": 5, "dodge": None, "armor": 0, "actions": 1, "table": NOTHING}
        ],
    }
    state = new_combat(setup, dice=Dice(order=[]))  # decks in the order given
    assert [len(h["hand"]) for h in state["heroes"]] == [6, 3]  # 5 + 1 plus token, 5 - 2 minus tokens
    state = answer(state, "fox_hand", {"type": "fox_hand", "cards": []})
    state = answer(state, "fox_hand", {"type": "fox_hand", "cards": []})  # Alrik kept his Scar: it takes effect
    alrik, yoleyana = state["heroes"]
    assert alrik["life"] == 38 and alrik["discard"] == ["scar"] and "scar" not in alrik["hand"]
    assert yoleyana["life"] == 38 and yoleyana["discard"] == ["scar"]  # drawn in the first round's draw
