"""Property tests: any sequence of legal actions keeps every card in exactly one place, never
crashes, keeps the state JSON-serialisable, and replays exactly from the event log."""

from __future__ import annotations

import json
import random
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from play.engine import apply, new_game, replay
from play.engine.policy import complete, with_declared_cards
from play.engine.sandbox import sandbox_setup

from .driver import all_cards

MAX_ACTIONS = 400


def check_invariants(state: dict[str, Any]) -> None:
    places = all_cards(state)
    assert len(places) == len(set(places)), "a card is in two places"
    assert set(places) == set(state["cards"]), "a card is nowhere, or an unknown card is somewhere"
    json.dumps(state)
    assert (state["pending"] is None) == (state["status"] != "playing")


def play(state: dict[str, Any], picks: st.DataObject, *, rng: random.Random) -> tuple[dict[str, Any], list[Any]]:
    log: list[dict[str, Any]] = []
    for _ in range(MAX_ACTIONS):
        if state["status"] != "playing":
            break
        decision = state["pending"]
        if decision.get("select"):
            selection = decision["select"]
            player, action = (
                decision["players"][0],
                {
                    "type": "select",
                    "cards": rng.sample(selection["cards"], selection["count"]),
                },
            )
        else:
            index = picks.draw(st.integers(0, len(decision["options"]) - 1), label=decision["kind"])
            entry = decision["options"][index]
            player, action = entry["player"], complete(entry, rng)
        before = snapshot(state)
        previous, (state, events) = state, apply(state, player, action)
        assert snapshot(previous) == before, "apply changed the state it was given"
        log += events
        check_invariants(state)
    return state, log


def snapshot(state: dict[str, Any]) -> str:
    return json.dumps({key: value for key, value in state.items() if key != "defs"}, sort_keys=True)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(
    ruleset=st.sampled_from(["core-2019", "classic"]),
    characters=st.integers(1, 6),
    scenario=st.sampled_from(["sandbox.the-warlock", "sandbox.the-patrol"]),
    size=st.sampled_from(["small", "medium", "large"]),
    seed=st.text(min_size=1, max_size=8),
    picks=st.data(),
)
def test_random_legal_play_keeps_every_card_in_one_place_and_replays_exactly(
    ruleset: str, characters: int, scenario: str, size: str, seed: str, picks: st.DataObject
) -> None:
    initial = new_game(
        sandbox_setup(characters, scenario=scenario, options={"location_size": size}), seed=seed, ruleset=ruleset
    )
    check_invariants(initial)
    final, log = play(initial, picks, rng=random.Random(seed))
    assert replay(initial, log) == final


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(
    ruleset=st.sampled_from(["core-2019", "classic"]),
    characters=st.integers(1, 4),
    seed=st.text(min_size=1, max_size=8),
    picks=st.data(),
)
def test_random_play_with_declared_powers_and_entered_checks_keeps_cards_in_one_place_and_replays(
    ruleset: str, characters: int, seed: str, picks: st.DataObject
) -> None:
    rng = random.Random(seed)
    setup = with_declared_cards(sandbox_setup(characters, options={"location_size": "small"}), rng)
    initial = new_game(setup, seed=seed, ruleset=ruleset)
    final, log = play(initial, picks, rng=rng)
    assert replay(initial, log) == final


@settings(max_examples=10, deadline=None)
@given(seed=st.integers(0, 10_000))
def test_whole_scenarios_end_in_a_win_or_a_loss(seed: int) -> None:
    rng = random.Random(seed)
    state = new_game(sandbox_setup(rng.randint(1, 4), options={"location_size": "small"}), seed=str(seed))
    for _ in range(20_000):
        if state["status"] != "playing":
            break
        decision = state["pending"]
        if decision.get("select"):
            player = decision["players"][0]
            action = {"type": "select", "cards": rng.sample(decision["select"]["cards"], decision["select"]["count"])}
        else:
            entry = rng.choice(decision["options"])
            player, action = entry["player"], entry["action"]
        state, _ = apply(state, player, action, in_place=True)
    assert state["status"] in ("won", "lost")
    check_invariants(state)
