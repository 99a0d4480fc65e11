"""Difficulty simulation in one process: games per second for the greedy policy beside the random
one (the baseline) in the same run, the time to a win rate known to within ±5 points (95%), and
the summary for a sample party on both homebrew scenarios in each mode.

    .venv/bin/python bench/simulate.py [--games 60] [--rounds 3] [--characters 2]
        [--postgres postgres://postgres@127.0.0.1:5432/pacg_bench_sim --redis redis://127.0.0.1:6379/13]

With --postgres and --redis it also plays one simulation request (--worker-games games) through
the real path, chunks on Celery workers over Redis recorded in PostgreSQL, on one worker and on
two (each a process of its own), beside the loop in this process, in the same run.
Prints JSON.
"""

from __future__ import annotations

import argparse
import os
import socket
import statistics
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))
from _common import report, setup_django  # noqa: E402

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


def over_workers(postgres: str, redis: str, games: int, characters: int, rounds: int) -> dict[str, Any]:
    """Games per second of one simulation request on 1 and 2 Celery workers, wall clock from
    dispatch to the last chunk recorded, beside the loop in this process on the same setup."""
    os.environ |= {"DATABASE_URL": postgres, "REDIS_URL": redis, "DATABASE_CONN_MAX_AGE": "0"}
    os.environ["PACG_SIMULATION_QUEUE"] = queue = f"bench-simulate-{os.getpid()}"
    setup_django()
    from django.contrib.auth.models import User

    from campaigns.models import Party
    from pacg_site.celery import app
    from play import simulations
    from play.models import Simulation

    owner, _ = User.objects.get_or_create(username="bench-simulate")
    party, _ = Party.objects.get_or_create(name="Bench", owner=owner, game="pacg", ruleset="core-2019")
    setup = sandbox_setup(characters)

    def run(workers: int) -> float:
        simulation = Simulation.objects.create(
            party=party, requested_by=owner, scenario=setup["scenario"], scenario_name="The Warlock", mode="normal",
            games=games, policy="greedy", seed="bench", log_version=0, key="bench", ruleset="core-2019",
            setup=setup, chunk_size=simulations.CHUNK_GAMES,
        )  # fmt: skip
        started = time.perf_counter()
        simulations.dispatch(simulation)
        while Simulation.objects.filter(pk=simulation.pk, status="running").exists():
            time.sleep(0.05)
        elapsed = time.perf_counter() - started
        assert Simulation.objects.get(pk=simulation.pk).status == "done"
        return games / elapsed

    rates: dict[str, list[float]] = {"in_process": [], "one_worker": [], "two_workers": []}
    processes: list[subprocess.Popen[bytes]] = []
    try:
        for name in ("bench-one", "bench-two"):
            command = [str(Path(sys.executable).parent / "celery"), "-A", "pacg_site", "worker", "-n", f"{name}@%h"]
            processes.append(
                subprocess.Popen(
                    [*command, "-Q", queue, "--pool=solo", "--loglevel=warning"],
                    cwd=ROOT,
                    env=os.environ.copy(),
                    stdout=subprocess.DEVNULL,
                    stderr=subprocess.DEVNULL,
                )  # fmt: skip
            )
            while not app.control.ping(destination=[f"{name}@{socket.gethostname()}"], timeout=1.0):
                pass
        for _ in range(rounds):
            rates["two_workers"].append(run(2))
        processes[1].terminate()
        processes[1].wait()
        for _ in range(rounds):
            rates["one_worker"].append(run(1))
            rates["in_process"].append(games_per_second(games, characters, "greedy"))
    finally:
        for process in processes:
            process.terminate()
    return {key: round(statistics.median(values), 1) for key, values in rates.items()} | {
        "games_per_request": games,
        "chunk_games": simulations.CHUNK_GAMES,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=60)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--characters", type=int, default=2)
    parser.add_argument("--postgres", default="", help="PostgreSQL URL for the worker runs (skipped if empty)")
    parser.add_argument("--redis", default="", help="Redis URL, the Celery broker of the worker runs")
    parser.add_argument("--worker-games", type=int, default=200)
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
            "celery_games_per_second": over_workers(
                arguments.postgres, arguments.redis, arguments.worker_games, arguments.characters, arguments.rounds
            )
            if arguments.postgres and arguments.redis
            else "skipped: give --postgres and --redis",
            "sample_party": {"characters": arguments.characters, "games": arguments.games, "policy": "greedy"},
            "summaries": summaries,
            "rounds": arguments.rounds,
        }
    )


if __name__ == "__main__":
    main()
