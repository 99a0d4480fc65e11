"""The rules assistant on every development set at once: each set measured as
`rules_quality.py --split SET` measures it (the books imported without the passages' questions
that copy the set's own, so the set is answered by the others' questions), one process per set,
`--jobs` at a time, and the figures summed over the sets. This is the figure a change to the
pipeline or to the passages' questions is decided on; the held-out half is not among the sets.

    .venv/bin/python bench/rules_dev_sets.py [--ablations] [--jobs N]

Per pipeline: questions, answers in the top five and at rank 1, MRR@10, and how many answers
came into and fell out of the top five against the site's pipeline ("full").
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _common import report, setup_django  # noqa: E402
from rules_quality import PROBES, all_pipelines, evaluate, import_index_for, questions_of  # noqa: E402

DEV_SETS = ["dev", *(path.stem for path in PROBES)]


def ranks_of(split: str, ablations: bool) -> dict[str, dict[str, int | None]]:
    """pipeline -> question id -> rank of its answer (None: not in the top ten), on one set."""
    setup_django()
    questions = questions_of([split])
    import_index_for(questions)
    return {name: evaluate(questions, pipeline)["ranks"] for name, pipeline in all_pipelines(ablations).items()}


def in_process(split: str, ablations: bool) -> dict[str, dict[str, int | None]]:
    # A process per set: each imports the books afresh, and the index's caches are per process.
    command = [sys.executable, __file__, "--one", split, *(["--ablations"] if ablations else [])]
    done = subprocess.run(command, capture_output=True, text=True, check=False)
    if done.returncode:
        raise SystemExit(f"{split}: {done.stderr.strip().splitlines()[-1:]}")
    return json.loads(done.stdout)


def totals(per_set: list[dict[str, dict[str, int | None]]]) -> dict[str, dict[str, float]]:
    pipelines = {name: {k: v for ranks in per_set for k, v in ranks[name].items()} for name in per_set[0]}

    def top_five(rank: int | None) -> bool:
        return rank is not None and rank <= 5

    full = pipelines["full"]
    figures = {}
    for name, ranks in pipelines.items():
        figures[name] = {
            "n": len(ranks),
            "top five": sum(map(top_five, ranks.values())),
            "rank 1": sum(rank == 1 for rank in ranks.values()),
            "mrr@10": round(sum(1 / rank for rank in ranks.values() if rank) / len(ranks), 4),
            "into the top five": sum(top_five(rank) and not top_five(full[q]) for q, rank in ranks.items()),
            "out of the top five": sum(top_five(full[q]) and not top_five(rank) for q, rank in ranks.items()),
        }
    return figures


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--ablations", action="store_true", help="also measure the pipeline without each piece")
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    parser.add_argument("--one", choices=DEV_SETS, help=argparse.SUPPRESS)  # a child process: one set's ranks
    args = parser.parse_args()
    if args.one:
        print(json.dumps(ranks_of(args.one, args.ablations)))
        return
    with ThreadPoolExecutor(args.jobs) as pool:
        per_set = list(pool.map(lambda split: in_process(split, args.ablations), DEV_SETS))
    report({"benchmark": "rules_dev_sets", "sets": DEV_SETS, **totals(per_set)})


if __name__ == "__main__":
    main()
