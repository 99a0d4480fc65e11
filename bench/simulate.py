"""Difficulty simulation in one process: games per second for the greedy policy beside the random
one (the baseline) in the same run, the time to a win rate known to within ±5 points (95%), and
the summary for a sample party on both homebrew scenarios in each mode.

    .venv/bin/python bench/simulate.py [--games 60] [--rounds 3] [--characters 2]

Prints JSON. The Celery fan-out (one and two workers) is not measured yet: issue 38's next part.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))
from _common import report  # noqa: E402

from play.engine.sandbox import sandbox_setup  # noqa: E402
from play.engine.simulate import MODE_OPTIONS, Z_95, play_chunk, summarize  # noqa: E402

SCENARIOS = ("sandbox.the-warlock", "sandbox.the-patrol")
MODES = MODE_OPTIONS
MARGIN = 0.05


def games_per_second(games: int, characters: int, policy: str) -> float:
    setup = sandbox_setup(characters)
    started = time.perf_counter()
    play_chunk(setup, ruleset="core-2019", seed="bench", start=0, count=games, policy=policy)
    return games / (time.perf_counter() - started)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=60)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--characters", type=int, default=2)
    arguments = parser.parse_args()
    rates: dict[str, list[float]] = {"greedy": [], "random": []}
    for _ in range(arguments.rounds):
        for policy in rates:
            rates[policy].append(games_per_second(arguments.games, arguments.characters, policy))
    speed = {policy: round(statistics.median(values), 1) for policy, values in rates.items()}
    summaries = {}
    for scenario in SCENARIOS:
        for mode, ways in MODES.items():
            setup = sandbox_setup(arguments.characters, scenario=scenario, options={"mode": mode, **ways})
            outcomes = play_chunk(setup, ruleset="core-2019", seed="sample", start=0, count=arguments.games)
            summaries[f"{scenario} {mode}"] = summarize(outcomes)
    # Games for a 95% interval of ±5 points at the worst case (a 50% win rate), and at the rate seen.
    worst = round(Z_95**2 * 0.25 / MARGIN**2)
    seen = summaries[f"{SCENARIOS[0]} normal"]["win_rate"] or 0.0
    needed = max(1, round(Z_95**2 * seen * (1 - seen) / MARGIN**2))
    report(
        {
            "benchmark": "difficulty simulation, one process, homebrew starter scenarios",
            "games_per_second": speed["greedy"],
            "baseline": {"what": "the random legal policy, same games", "games_per_second": speed["random"]},
            "seconds_to_plus_minus_5_points": {
                "worst_case_games": worst,
                "worst_case_seconds": round(worst / speed["greedy"], 1),
                "at_the_warlock_normal_rate": {
                    "win_rate": seen,
                    "games": needed,
                    "seconds": round(needed / speed["greedy"], 1),
                },
            },
            "sample_party": {"characters": arguments.characters, "games": arguments.games, "policy": "greedy"},
            "summaries": summaries,
            "rounds": arguments.rounds,
        }
    )


if __name__ == "__main__":
    main()
