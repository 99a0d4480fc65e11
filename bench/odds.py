"""Exact check odds (convolution, fractions) against a 100,000-sample Monte Carlo, for pools of
1 to 10 dice.

    .venv/bin/python bench/odds.py [--rounds 7] [--samples 100000]

Prints JSON. For each pool size, `cold` times the exact chance with the convolution caches
cleared first (the worst case: a pool never seen before), `warm` with them filled (what a table
sees as cards add dice one at a time: a new pool is the cached one plus one die); the baseline
is a Monte Carlo estimate of the same chance, in plain Python and with numpy, timed in the same
run, with its error against the exact value. No Django.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
import time
from fractions import Fraction
from pathlib import Path
from typing import Any

import numpy

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))
from _common import machine, percentile  # noqa: E402

from play.engine.odds import chance, clear_cache  # noqa: E402

TARGET_MICROSECONDS = 200
# A mix like the table's: a skill die, weapon and spell dice, blessings of the skill's type.
SIDES = (12, 8, 10, 6, 4, 12, 8, 10, 6, 4)


def pool(size: int) -> tuple[tuple[int, ...], int, int]:
    dice = SIDES[:size]
    modifier = 2
    difficulty = round(sum((sides + 1) / 2 for sides in dice)) + modifier  # near the middle
    return dice, modifier, difficulty


def time_exact(dice: tuple[int, ...], modifier: int, difficulty: int, *, cold: bool, repeats: int) -> float:
    """Median microseconds per exact chance."""
    spent = []
    for _ in range(repeats):
        if cold:
            clear_cache()
        started = time.perf_counter()
        chance(dice, difficulty, modifier)
        spent.append((time.perf_counter() - started) * 1e6)
    return statistics.median(spent)


def monte_carlo_python(
    dice: tuple[int, ...], modifier: int, difficulty: int, samples: int, rng: random.Random
) -> float:
    hits = 0
    randint = rng.randint
    for _ in range(samples):
        if max(0, sum(randint(1, sides) for sides in dice) + modifier) >= difficulty:
            hits += 1
    return hits / samples


def monte_carlo_numpy(dice: tuple[int, ...], modifier: int, difficulty: int, samples: int, seed: int) -> float:
    generator = numpy.random.default_rng(seed)
    totals = numpy.zeros(samples, dtype=numpy.int64)
    for sides in dice:
        totals += generator.integers(1, sides + 1, size=samples)
    return float(numpy.mean(numpy.maximum(totals + modifier, 0) >= difficulty))


def timed_ms(function: Any, *arguments: Any) -> tuple[float, Any]:
    started = time.perf_counter()
    found = function(*arguments)
    return (time.perf_counter() - started) * 1000, found


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=7)
    parser.add_argument("--samples", type=int, default=100_000)
    arguments = parser.parse_args()
    rng = random.Random(20261129)

    rows = []
    for size in range(1, 11):
        dice, modifier, difficulty = pool(size)
        exact: Fraction = chance(dice, difficulty, modifier)
        cold = time_exact(dice, modifier, difficulty, cold=True, repeats=max(arguments.rounds, 25))
        warm = time_exact(dice, modifier, difficulty, cold=False, repeats=max(arguments.rounds, 200))
        python_runs, numpy_runs, errors = [], [], []
        for round_number in range(arguments.rounds):
            spent, estimate = timed_ms(monte_carlo_python, dice, modifier, difficulty, arguments.samples, rng)
            python_runs.append(spent)
            errors.append(abs(estimate - float(exact)))
            spent, _ = timed_ms(monte_carlo_numpy, dice, modifier, difficulty, arguments.samples, round_number)
            numpy_runs.append(spent)
        python_ms = statistics.median(python_runs)
        rows.append(
            {
                "dice": "+".join(f"1d{sides}" for sides in dice) + f"+{modifier}",
                "difficulty": difficulty,
                "exact_chance": f"{exact.numerator}/{exact.denominator}",
                "exact_us_cold_p50": round(cold, 1),
                "exact_us_warm_p50": round(warm, 2),
                "monte_carlo_python_ms_p50": round(python_ms, 1),
                "monte_carlo_numpy_ms_p50": round(statistics.median(numpy_runs), 2),
                "monte_carlo_abs_error_p50": round(statistics.median(errors), 5),
                "speedup_cold_vs_python_monte_carlo": round(python_ms * 1000 / cold),
            }
        )
    worst_cold = max(row["exact_us_cold_p50"] for row in rows)
    ten = pool(10)
    ten_cold = [time_exact(*ten, cold=True, repeats=1) for _ in range(50)]
    print(
        json.dumps(
            {
                "figure": "exact chance of success of a check, 1 to 10 dice (convolution, exact fractions)",
                "worst_exact_us_cold_p50": worst_cold,
                "worst_exact_us_warm_p50": max(row["exact_us_warm_p50"] for row in rows),
                "target_us": TARGET_MICROSECONDS,
                "meets_target": worst_cold <= TARGET_MICROSECONDS,
                "baseline": f"Monte Carlo with {arguments.samples} samples (plain Python, and numpy)",
                "ten_dice_ratio_python_monte_carlo_to_exact_cold": rows[-1]["speedup_cold_vs_python_monte_carlo"],
                "ten_dice_exact_us_p95_cold": round(percentile(ten_cold, 0.95), 1),
                "pools": rows,
                "rounds": arguments.rounds,
                "machine": machine(),
            },
            indent=2,
        )
    )


if __name__ == "__main__":
    main()
