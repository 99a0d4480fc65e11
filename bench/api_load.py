"""Load on the whole API over HTTP: gunicorn on PostgreSQL (loopback), N concurrent clients, each
cycling through card searches, rules asks and play turns (GET pending, POST the first legal
option; a new session when one ends). For each N: requests/s overall and per kind, p50/p95 per
kind, errors (any non-2xx; 409s, which the next turn retries, apart); the single client is the
baseline in the same run. Runs alternate between the client counts; figures are their medians.

The server runs as in production (DJANGO_DEBUG=0, behind a TLS proxy whose headers the clients
send, rate limits off) on a database of its own, loaded by `manage.py bootstrap` (minutes unless
PACG_EMBEDDING_CACHE, default ~/.cache/pacg-site/embeddings, is warm) and dropped afterwards.
Gunicorn's sync workers close each connection; with --threads > 1 (gthread) clients keep theirs
alive. The clients share the machine with the server: their own CPU is printed beside the figures.

    .venv/bin/python bench/api_load.py [--clients 1,4,16] [--seconds 20] [--warmup 3] [--runs 3]
        [--workers 5] [--threads 1] [--no-preload] [--mix cards=3,rules=1,play=3]
        [--db pacg_bench_load] [--reuse-db] [--keep-db]
"""

from __future__ import annotations

import argparse
import http.client
import itertools
import json
import os
import random
import secrets
import shutil
import socket
import statistics
import subprocess
import sys
import threading
import time
from collections import Counter, defaultdict
from pathlib import Path
from urllib.parse import quote

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _common import ROOT, machine, percentile  # noqa: E402

BIN = ROOT / ".venv" / "bin"
PG = ["psql", "-h", "127.0.0.1", "-p", "5432", "-U", "postgres", "-v", "ON_ERROR_STOP=1", "-Atq"]
SCENARIO = "sandbox.the-warlock"
# From the README's search examples and bench/cards_search.py's mix.
CARD_QUERIES = [
    "ghoul",
    '"recharge a card"',
    "t:monster trait:undead",
    "immune:mental",
    "check:arcane diff<=7",
    "set:wotr t:cohort",
    "-t:blessing level=0 or t:loot",
    '!"Magic Eye"',
]
# Development-split questions of tests/rules/eval/questions.yaml, one in Spanish, one misspelt.
QUESTIONS = [
    "can I play armor to reduce fire damage",
    "where does the villain go if every other location is guarded",
    "what can I spend hero points on",
    "how many cards go in the blessings deck",
    "what hapens when the hourgalss runs out of cards",
    "¿qué pasa cuando me encuentro con una carta?",
]
# DJANGO_DEBUG=0 serves HTTPS only: the server sits behind a TLS proxy (PACG_PROXIES=1) and is
# told so by the headers that proxy would add.
PROXY = {"X-Forwarded-Proto": "https", "X-Forwarded-For": "127.0.0.1"}
KINDS = ("cards", "rules", "play_pending", "play_action", "play_new")


class Client:
    """One user with a keep-alive connection and a play session it carries from phase to phase."""

    def __init__(self, port: int, token: str, plan: list[str], seed: int):
        self.connection = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
        self.token, self.rng, self.session = token, random.Random(seed), None
        self.plan = self.rng.sample(plan, len(plan))
        self.reset()

    def reset(self) -> None:
        self.latencies: dict[str, list[float]] = defaultdict(list)
        self.errors: Counter[tuple[str, str]] = Counter()
        self.retried: Counter[str] = Counter()
        self.samples: dict[tuple[str, str], str] = {}

    def call(self, kind: str, method: str, path: str, body: dict | None = None) -> dict | None:  # type: ignore[type-arg]
        headers = {"Authorization": f"Token {self.token}", "Content-Type": "application/json", **PROXY}
        while True:
            reused, start = self.connection.sock is not None, time.perf_counter()
            try:
                self.connection.request(method, path, json.dumps(body) if body is not None else None, headers)
                response = self.connection.getresponse()
                payload = response.read()
                break
            except (OSError, http.client.HTTPException) as error:
                self.connection.close()
                # A kept-alive connection the server closed while it was idle (gthread's keep-alive
                # timeout) is opened again, as HTTP clients do; a failure on a fresh one counts.
                if not (reused and isinstance(error, ConnectionError)):
                    self.errors[(kind, type(error).__name__)] += 1
                    return None
        elapsed = time.perf_counter() - start
        if 200 <= response.status < 300:
            self.latencies[kind].append(elapsed)
            return json.loads(payload)
        if response.status == 409:  # a stale version or a game over: the next turn reads pending again
            self.retried[kind] += 1
        else:
            self.errors[(kind, str(response.status))] += 1
            self.samples.setdefault((kind, str(response.status)), payload[:300].decode(errors="replace"))
        return None

    def play_turn(self) -> None:
        if self.session is None:
            created = self.call("play_new", "POST", "/api/play/sessions/", {"scenario": SCENARIO})
            self.session = created["id"] if created else None
            return
        base = f"/api/play/sessions/{self.session}"
        pending = self.call("play_pending", "GET", f"{base}/pending/")
        if pending is None or pending["status"] != "playing":
            self.session = None
            return
        decision = pending["pending"]
        if decision.get("select"):
            action = {"type": "select", "cards": decision["select"]["cards"][: decision["select"]["count"]]}
        else:
            action = decision["options"][0]["action"]
        self.call("play_action", "POST", f"{base}/actions/", {"version": pending["version"], "action": action})

    def run(self, deadline: float) -> None:
        for kind in itertools.cycle(self.plan):
            if time.monotonic() >= deadline:
                return
            if kind == "cards":
                self.call("cards", "GET", f"/api/cards/?q={quote(self.rng.choice(CARD_QUERIES))}")
            elif kind == "rules":
                self.call("rules", "GET", f"/api/rules/ask/?q={quote(self.rng.choice(QUESTIONS))}")
            else:
                self.play_turn()


def phase(clients: list[Client], seconds: float) -> dict:  # type: ignore[type-arg]
    """Drive the clients together for a while; what they did, per kind."""
    for client in clients:
        client.reset()
    start, cpu = time.monotonic(), time.process_time()
    threads = [threading.Thread(target=c.run, args=(start + seconds,), daemon=True) for c in clients]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    elapsed = time.monotonic() - start  # requests in flight at the deadline are counted, and waited for
    latencies = {k: [s for c in clients for s in c.latencies[k]] for k in KINDS}
    latencies["all"] = [s for k in KINDS for s in latencies[k]]
    return {
        "kinds": {
            kind: {
                "rps": len(values) / elapsed,
                "p50_ms": statistics.median(values) * 1000 if values else None,
                "p95_ms": percentile(values, 0.95) * 1000 if values else None,
            }
            for kind, values in latencies.items()
        },
        "errors": sum((c.errors for c in clients), Counter()),
        "retried_409": sum((c.retried for c in clients), Counter()),
        "samples": {k: v for c in clients for k, v in c.samples.items()},
        "client_cores": (time.process_time() - cpu) / elapsed,  # what the load generator took from the server
    }


def median(values: list[float | None]) -> float | None:
    """Of the runs that measured it (a kind may have had no request in a short run)."""
    measured = [v for v in values if v is not None]
    return round(statistics.median(measured), 3) if measured else None


def psql(sql: str, db: str = "postgres") -> str:
    return subprocess.run([*PG, "-d", db, "-c", sql], check=True, capture_output=True, text=True).stdout.strip()


def loaded(db: str, data_dir: Path) -> bool:
    """The database holds the cards and the passages, and the data dir their indexes."""
    try:
        counts = psql("SELECT (SELECT count(*) FROM cards_card), (SELECT count(*) FROM rules_passage)", db)
    except subprocess.CalledProcessError:  # no such database, or not migrated
        return False
    indexed = all(any((data_dir / "index" / name).glob("_MAIN_*.toc")) for name in ("cards", "rules"))
    return indexed and all(int(n) > 0 for n in counts.split("|"))


def drop(db: str, data_dir: Path) -> None:
    psql(f"DROP DATABASE IF EXISTS {db} WITH (FORCE)")
    shutil.rmtree(data_dir, ignore_errors=True)


def manage(env: dict[str, str], *args: str) -> str:
    command = [str(BIN / "python"), "manage.py", *args]
    return subprocess.run(command, cwd=ROOT, env=env, check=True, capture_output=True, text=True).stdout


def tokens(env: dict[str, str], count: int) -> list[str]:
    code = (
        "import json; from django.contrib.auth.models import User; from rest_framework.authtoken.models import Token;"
        f"users = [User.objects.get_or_create(username=f'bench-load-{{i}}')[0] for i in range({count})];"
        "print(json.dumps([Token.objects.get_or_create(user=u)[0].key for u in users]))"
    )
    return json.loads(manage(env, "shell", "-c", code).strip().splitlines()[-1])


def wait_until_up(server: subprocess.Popen, port: int) -> None:  # type: ignore[type-arg]
    for _ in range(600):
        if server.poll() is not None:
            sys.exit(f"gunicorn exited with {server.returncode} before answering")
        try:
            connection = http.client.HTTPConnection("127.0.0.1", port, timeout=5)
            connection.request("GET", "/api/", headers=PROXY)
            if connection.getresponse().status == 200:
                return
        except OSError:
            pass
        time.sleep(0.2)
    sys.exit("gunicorn did not answer in 120 s")


def commit() -> str:
    head = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=ROOT, capture_output=True, text=True)
    dirty = subprocess.run(["git", "status", "--porcelain"], cwd=ROOT, capture_output=True, text=True).stdout
    return head.stdout.strip() + ("+uncommitted" if dirty.strip() else "")


def print_table(figures: dict[int, dict], base: int) -> None:  # type: ignore[type-arg]
    print(f"{'clients':>7}  {'kind':<13}{'req/s':>8}  {f'vs {base} client':<16}{'p50 ms':>8}{'p95 ms':>8}")
    for n, point in figures.items():
        for kind in ("all", *KINDS):
            row, rps_1 = point["kinds"][kind], figures[base]["kinds"][kind]["rps"]
            ratio = f"x{row['rps'] / rps_1:.1f} of {base} client" if n != base and rps_1 and row["rps"] else ""
            p50, p95 = (f"{row[m]:>8.1f}" if row[m] is not None else f"{'-':>8}" for m in ("p50_ms", "p95_ms"))
            print(f"{n:>7}  {kind:<13}{row['rps']:>8.1f}  {ratio:<16}{p50}{p95}")
    for n, point in figures.items():
        errors = ", ".join(f"{k} {code}: {count}" for (k, code), count in sorted(point["errors"].items()))
        retried = ", ".join(f"{k}: {count}" for k, count in sorted(point["retried_409"].items()))
        print(
            f"{n:>2} clients: errors (non-2xx) {errors or 'none'}; 409s retried {retried or 'none'}; "
            f"the clients' own CPU {point['client_cores']:.2f} cores"
        )
        for (kind, code), body in point["samples"].items():
            print(f"   e.g. {kind} {code}: {body}")


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--clients", default="1,4,16", help="client counts, the first is the baseline")
    parser.add_argument("--seconds", type=float, default=20, help="measured seconds per client count and run")
    parser.add_argument("--warmup", type=float, default=3, help="unmeasured seconds before each measurement")
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--workers", type=int, default=2 * (os.cpu_count() or 1) + 1)
    parser.add_argument("--threads", type=int, default=1, help="gunicorn threads per worker (>1: gthread)")
    parser.add_argument("--preload", action=argparse.BooleanOptionalAction, default=True, help="gunicorn --preload")
    parser.add_argument("--mix", default="cards=3,rules=1,play=3", help="requests per client cycle (play: a turn)")
    parser.add_argument("--db", default="pacg_bench_load")
    parser.add_argument("--reuse-db", action="store_true", help="skip loading when the database has the data")
    parser.add_argument("--keep-db", action="store_true", help="keep the database (and data dir) afterwards")
    args = parser.parse_args()
    data_dir = ROOT / "var" / args.db  # the search indexes, which go with the database
    counts = [int(n) for n in args.clients.split(",")]
    plan = [kind for item in args.mix.split(",") for kind, n in [item.split("=")] for _ in range(int(n))]

    env = {k: v for k, v in os.environ.items() if k not in {"REDIS_URL", "CELERY_BROKER_URL"}}
    env |= {
        "DATABASE_URL": f"postgres://postgres@127.0.0.1:5432/{args.db}",
        "PACG_DATA_DIR": str(data_dir),
        "PACG_EMBEDDING_CACHE": os.environ.get("PACG_EMBEDDING_CACHE")
        or str(Path.home() / ".cache" / "pacg-site" / "embeddings"),
        "PACG_RATE_LIMITS": "off",
        "PACG_PROXIES": "1",
        "DJANGO_DEBUG": "0",
        "DJANGO_SECRET_KEY": secrets.token_urlsafe(40),
        "DJANGO_ALLOWED_HOSTS": "127.0.0.1,localhost",
        "DJANGO_LOG_LEVEL": "WARNING",
    }
    server, load = None, " ".join(f"{x:.2f}" for x in os.getloadavg())
    try:
        if not (args.reuse_db and loaded(args.db, data_dir)):
            drop(args.db, data_dir)
            psql(f"CREATE DATABASE {args.db}")
            print(f"loading the bundled data into {args.db} (manage.py bootstrap) ...", file=sys.stderr, flush=True)
            manage(env, "bootstrap")
        keys = tokens(env, max(counts))
        with socket.socket() as probe:  # a free port
            probe.bind(("127.0.0.1", 0))
            port = probe.getsockname()[1]
        gunicorn = [str(BIN / "gunicorn"), "pacg_site.wsgi", "-b", f"127.0.0.1:{port}", "--log-level", "warning"]
        gunicorn += ["-w", str(args.workers), "--threads", str(args.threads), "--graceful-timeout", "5"]
        gunicorn += ["--preload"] if args.preload else []
        server = subprocess.Popen(gunicorn, cwd=ROOT, env=env)
        wait_until_up(server, port)
        clients = [Client(port, key, plan, seed=i) for i, key in enumerate(keys)]
        warm_errors: Counter[tuple[str, str]] = Counter()  # reported too: a worker killed while warming
        warm_errors += phase(clients, 2 * args.warmup)["errors"]  # every worker answers each kind first
        results: dict[int, list[dict]] = defaultdict(list)  # type: ignore[type-arg]
        for run in range(args.runs):
            for n in counts:
                warm_errors += phase(clients[:n], args.warmup)["errors"]
                results[n].append(phase(clients[:n], args.seconds))
                done = results[n][-1]["kinds"]["all"]
                print(f"run {run + 1} clients {n}: {done['rps']:.1f} req/s", file=sys.stderr, flush=True)
    finally:
        if server is not None:
            server.terminate()
            try:
                server.wait(timeout=15)
            except subprocess.TimeoutExpired:
                server.kill()
                server.wait()
        if not args.keep_db:
            drop(args.db, data_dir)

    figures = {
        n: {
            "kinds": {
                kind: {m: median([r["kinds"][kind][m] for r in runs]) for m in ("rps", "p50_ms", "p95_ms")}
                for kind in ("all", *KINDS)
            },
            "errors": sum((r["errors"] for r in runs), Counter()),
            "retried_409": sum((r["retried_409"] for r in runs), Counter()),
            "samples": {k: v for r in runs for k, v in r["samples"].items()},
            "client_cores": median([r["client_cores"] for r in runs]),
        }
        for n, runs in results.items()
    }
    worker_kind = f"{args.threads} threads each (gthread)" if args.threads > 1 else "sync"
    print(
        f"api_load: gunicorn{' --preload' if args.preload else ''}, {args.workers} workers ({worker_kind}); "
        f"PostgreSQL {psql('SHOW server_version').split()[0]} on 127.0.0.1, database {args.db}; "
        f"commit {commit()}; {os.cpu_count()} CPUs, load average {load} at the start\n"
        f"mix per client cycle: {args.mix} (a play turn is GET pending + POST the first legal option); "
        f"{args.seconds:g} s per point after {args.warmup:g} s warm-up; median of {args.runs} run(s)"
    )
    print_table(figures, counts[0])
    print(f"warm-ups: errors {', '.join(f'{k} {c}: {n}' for (k, c), n in warm_errors.items()) or 'none'}")
    for point in figures.values():
        point["errors"] = {f"{kind} {code}": count for (kind, code), count in point["errors"].items()}
        del point["samples"]
    summary = {"benchmark": "api_load", "config": vars(args) | {"commit": commit()}, "baseline_clients": counts[0]}
    summary["warmup_errors"] = {f"{kind} {code}": count for (kind, code), count in warm_errors.items()}
    print(json.dumps(summary | {"figures": figures, "machine": machine()}))


if __name__ == "__main__":
    main()
