"""How soon a new machine's `make run` answers a rules question, and when the full assistant is in.

Clones the repository (HEAD, and a baseline commit beside it), runs `make install` in each clone
(not timed: the issue's clock starts when the install ends), then, per run, removes the clone's
var/ and starts `make run` with an empty embedding cache, and times:
- until http://127.0.0.1:8000/rules/?q=... answers 200 with an answer (the site serves);
- until /api/rules/ask/ answers in full mode (every passage has its vectors).
The median of the runs for each commit; port 8000 must be free.

    .venv/bin/python bench/first_run.py --runs 3 --baseline eeb4068
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import signal
import statistics
import subprocess
import tempfile
import time
import urllib.request
from pathlib import Path

from _common import report

ROOT = Path(__file__).resolve().parent.parent
PAGE = "http://127.0.0.1:8000/rules/?q=can+I+play+armor+to+reduce+fire+damage"
API = "http://127.0.0.1:8000/api/rules/ask/?q=can+I+play+armor+to+reduce+fire+damage"


def get(url: str) -> tuple[int, str]:
    try:
        with urllib.request.urlopen(url, timeout=60) as response:  # noqa: S310 - our own local server
            return response.status, response.read().decode()
    except OSError:
        return 0, ""


def one_run(clone: Path, full: bool) -> tuple[float, float | None]:
    shutil.rmtree(clone / "var", ignore_errors=True)
    cache = Path(tempfile.mkdtemp(prefix="empty-embeddings-"))
    env = {**os.environ, "PACG_EMBEDDING_CACHE": str(cache), "PACG_RATE_LIMITS": "off"}
    for name in ("DATABASE_URL", "REDIS_URL", "CELERY_BROKER_URL", "PACG_DATA_DIR"):
        env.pop(name, None)
    log = (clone / "first-run.log").open("w")
    started = time.monotonic()
    server = subprocess.Popen(["make", "run"], cwd=clone, env=env, stdout=log, stderr=log, start_new_session=True)
    try:
        while True:
            status, body = get(PAGE)
            if status == 200 and 'id="answers"' in body:
                serves = time.monotonic() - started
                break
            if server.poll() is not None:
                raise SystemExit(f"make run stopped: see {clone / 'first-run.log'}")
            time.sleep(0.5)
        complete = None
        while full:
            status, body = get(API)
            if status == 200 and json.loads(body).get("mode", "full") == "full":
                complete = time.monotonic() - started
                break
            time.sleep(5)
        return serves, complete
    finally:
        os.killpg(server.pid, signal.SIGTERM)
        server.wait()
        shutil.rmtree(cache)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--baseline", help="a commit to measure beside HEAD (e.g. before the change)")
    args = parser.parse_args()
    workdir = Path(tempfile.mkdtemp(prefix="first-run-"))
    commits = {"HEAD": "HEAD", **({"baseline": args.baseline} if args.baseline else {})}
    clones = {}
    for label, commit in commits.items():
        clone = workdir / label
        subprocess.run(["git", "clone", "-q", str(ROOT), str(clone)], check=True)
        subprocess.run(["git", "checkout", "-q", commit], cwd=clone, check=True)
        subprocess.run(["make", "install"], cwd=clone, check=True, capture_output=True)
        clones[label] = clone
    results: dict[str, list[tuple[float, float | None]]] = {label: [] for label in clones}
    for run in range(args.runs):
        for label, clone in clones.items():
            if label == "baseline" and run > 0:
                continue  # it embeds everything before serving: one run says it
            results[label].append(one_run(clone, full=run == 0))
            print(label, run, results[label][-1], flush=True)
    report(
        {
            "benchmark": "first make run on an empty embedding cache, seconds after the install",
            **{
                f"{label} ({commits[label]})": {
                    "serves_a_rules_answer_s": round(statistics.median(r[0] for r in runs), 1),
                    "runs": [round(r[0], 1) for r in runs],
                    "full_assistant_s": round(next(r[1] for r in runs if r[1] is not None)),
                }
                for label, runs in results.items()
            },
        }
    )
    shutil.rmtree(workdir)


if __name__ == "__main__":
    main()
