"""Play engine throughput: encounters resolved per second and whole scenarios per second, with a
random legal policy (every answer drawn uniformly from the pending decision's options), and whole
Aventuria combats per second beside them.

    .venv/bin/python bench/engine.py [--games 40] [--rounds 5] [--characters 4]

Prints JSON. The games are the homebrew starter pack's scenario (cards/data/sandbox.yaml), seeded,
so every round plays the same games, in two decks: the starter pack as encoded, and as a party of
real cards plays it (policy.with_declared_cards: about half the boons and characters declared,
a third of the monsters with checks entered when met; the policy declares and enters at random).
Three ways of applying answers are timed in the same run:
- in_place: `apply(..., in_place=True)`, what a simulation or a bot does (no history kept);
- pure: `apply(...)`, state in, state out, what the Django layer calls;
- baseline: a naive pure apply that deep-copies the state with copy.deepcopy first.
"Encounter time" is the time spent in the answers given while an encounter is being resolved
(from the exploration that starts it to the answer that ends it); "whole-game time" is every
answer of the game, turn bookkeeping included. No Django: the engine is plain Python.
"""

from __future__ import annotations

import argparse
import copy
import json
import random
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))
from _common import machine, summary_ms  # noqa: E402

from play.engine import apply, aventuria, new_game  # noqa: E402
from play.engine.aventuria.policy import sensible_action  # noqa: E402
from play.engine.aventuria.starter import starter_setup  # noqa: E402
from play.engine.policy import random_action, with_declared_cards  # noqa: E402
from play.engine.sandbox import sandbox_setup  # noqa: E402

TARGET_ENCOUNTERS_PER_SECOND = 2000
TARGET_PURE_REAL_CARDS = 1600  # issue 35: state in / state out, real-card parties
Applier = Callable[[dict[str, Any], str, dict[str, Any]], tuple[dict[str, Any], list[dict[str, Any]]]]


def in_place(state: dict[str, Any], player: str, action: dict[str, Any]) -> tuple[dict[str, Any], list[Any]]:
    return apply(state, player, action, in_place=True)


def pure(state: dict[str, Any], player: str, action: dict[str, Any]) -> tuple[dict[str, Any], list[Any]]:
    return apply(state, player, action)


def naive(state: dict[str, Any], player: str, action: dict[str, Any]) -> tuple[dict[str, Any], list[Any]]:
    return apply(copy.deepcopy(state), player, action, in_place=True)


def in_encounter(state: dict[str, Any]) -> bool:
    return any(step["kind"] == "encounter" for step in state["stack"])


def play_games(games: int, characters: int, applier: Applier, *, declared: bool = False) -> dict[str, float]:
    """Plays `games` whole scenarios; returns counts and the time spent answering."""
    encounters = answers = 0
    whole = encounter_time = setup_time = 0.0
    for seed in range(games):
        rng = random.Random(seed)
        started = time.perf_counter()
        setup = sandbox_setup(characters)
        if declared:
            setup = with_declared_cards(setup, random.Random(f"declared-{seed}"))
        state = new_game(setup, seed=f"bench-{seed}")
        setup_time += time.perf_counter() - started
        while state["status"] == "playing":
            player, action = random_action(state, rng)
            was_in_encounter = in_encounter(state)
            started = time.perf_counter()
            state, events = applier(state, player, action)
            spent = time.perf_counter() - started
            whole += spent
            answers += 1
            started_one = any(event["type"] == "encountered" for event in events)
            encounters += sum(event["type"] == "encounter_ended" for event in events)
            if was_in_encounter or started_one:
                encounter_time += spent
    return {
        "games": games,
        "encounters": encounters,
        "answers": answers,
        "whole_game_seconds": whole,
        "encounter_seconds": encounter_time,
        "setup_seconds": setup_time,
    }


def play_combats(games: int, heroes: int, *, in_place: bool) -> dict[str, float]:
    """Plays `games` whole Aventuria combats of the homebrew starter with the sensible policy."""
    answers, seconds, rounds, won = 0, 0.0, 0, 0
    for seed in range(games):
        started = time.perf_counter()
        state = aventuria.new_combat(starter_setup(heroes), seed=f"bench-{seed}")
        while state["status"] == "playing":
            state, _ = aventuria.apply(state, *sensible_action(state), in_place=in_place)
            answers += 1
        seconds += time.perf_counter() - started
        rounds += state["round"]
        won += state["status"] == "won"
    return {
        "combats_per_second": games / seconds,
        "answers_per_second": answers / seconds,
        "rounds_per_combat": rounds / games,
        "won": won / games,
    }


def rates(run: dict[str, float]) -> dict[str, float]:
    return {
        "encounters_per_second": run["encounters"] / run["encounter_seconds"],
        "encounters_per_second_whole_game": run["encounters"] / run["whole_game_seconds"],
        "scenarios_per_second": run["games"] / (run["whole_game_seconds"] + run["setup_seconds"]),
        "answers_per_second": run["answers"] / run["whole_game_seconds"],
        # A declared power or an entered check is one more answer: real-card encounters take more.
        "answers_per_encounter": run["answers"] / run["encounters"],
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=40)
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--characters", type=int, default=4)
    arguments = parser.parse_args()

    runs = {  # name: (applier, as a party of real cards plays)
        "in_place": (in_place, False),
        "pure": (pure, False),
        "baseline": (naive, False),
        "pure_real_cards": (pure, True),
        "in_place_real_cards": (in_place, True),
    }
    measured: dict[str, list[dict[str, float]]] = {name: [] for name in runs}
    per_answer: dict[str, list[float]] = {name: [] for name in runs}
    for _ in range(arguments.rounds):
        for name, (applier, declared) in runs.items():
            run = play_games(arguments.games, arguments.characters, applier, declared=declared)
            measured[name].append(rates(run))
            per_answer[name].append(run["whole_game_seconds"] / run["answers"])
    medians = {
        name: {key: round(statistics.median(run[key] for run in rounds), 1) for key in rounds[0]}
        for name, rounds in measured.items()
    }
    combats: dict[str, list[dict[str, float]]] = {"in_place": [], "pure": []}
    for _ in range(arguments.rounds):
        for name in combats:
            combats[name].append(play_combats(arguments.games, arguments.characters, in_place=name == "in_place"))
    aventuria_medians = {
        name: {key: round(statistics.median(run[key] for run in rounds), 2) for key in rounds[0]}
        for name, rounds in combats.items()
    }
    last = play_games(arguments.games, arguments.characters, in_place)
    figure = medians["in_place"]["encounters_per_second"]
    print(
        json.dumps(
            {
                "figure": "encounters resolved per second, random legal policy, one process",
                "encounters_per_second": figure,
                "target": TARGET_ENCOUNTERS_PER_SECOND,
                "meets_target": figure >= TARGET_ENCOUNTERS_PER_SECOND,
                "scenarios_per_second": medians["in_place"]["scenarios_per_second"],
                "baseline": {
                    "what": "a naive pure apply: copy.deepcopy of the state before every answer",
                    **medians["baseline"],
                },
                "pure_api": {"what": "apply(), state in / state out (the Django layer's call)", **medians["pure"]},
                "in_place": medians["in_place"],
                "real_cards": {
                    "what": "the same games as a party of real cards plays them: powers declared, checks entered",
                    "target_pure": TARGET_PURE_REAL_CARDS,
                    "meets_target": medians["pure_real_cards"]["encounters_per_second"] >= TARGET_PURE_REAL_CARDS,
                    "pure_api": medians["pure_real_cards"],
                    "in_place": medians["in_place_real_cards"],
                },
                "aventuria": {
                    "what": "whole Aventuria combats (the homebrew Kobold Warren, as many heroes as characters, "
                    "the sensible policy), setup included, beside PACG's scenarios_per_second",
                    **aventuria_medians,
                },
                "ratio_in_place_to_baseline": round(figure / medians["baseline"]["encounters_per_second"], 2),
                "ratio_pure_to_baseline": round(
                    medians["pure"]["encounters_per_second"] / medians["baseline"]["encounters_per_second"], 2
                ),
                "time_per_answer": {name: summary_ms(values) for name, values in per_answer.items()},
                "workload": {
                    "games_per_round": arguments.games,
                    "characters": arguments.characters,
                    "rounds": arguments.rounds,
                    "encounters_per_round": last["encounters"],
                    "answers_per_round": last["answers"],
                    "scenario": "sandbox.the-warlock (homebrew), Normal mode",
                },
                "machine": machine(),
            },
            indent=2,
        )
    )


if __name__ == "__main__":
    main()
