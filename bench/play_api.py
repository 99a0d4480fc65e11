"""Action round trips through the play API: in process (Django's stack, SQLite by default), and
over HTTP to gunicorn on PostgreSQL; beside them, the engine's own apply as the floor.

    .venv/bin/python bench/play_api.py [--actions 400] [--postgres postgres://postgres@127.0.0.1:5432/pacg_bench_play]
"""

from __future__ import annotations

import argparse
import json
import os
import random
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _common import ROOT, report, setup_django, summary_ms, timed  # noqa: E402


def choose(pending: dict, rng: random.Random) -> dict:  # type: ignore[type-arg]
    if pending.get("select"):
        select = pending["select"]
        return {"type": "select", "cards": rng.sample(select["cards"], select["count"])}
    return rng.choice(pending["options"])["action"]


def in_process(actions: int) -> tuple[list[float], list[float], int]:
    from django.contrib.auth.models import User
    from django.test import Client

    from play import engine
    from play.models import GameSession

    user = User.objects.create_user("bench", password="bench-password-123")
    client = Client()
    client.force_login(user)
    rng = random.Random(11)
    api, floor, done = [], [], 0
    session = None
    while done < actions:
        if session is None:
            session = client.post(
                "/api/play/sessions/", {"scenario": "sandbox.the-warlock"}, content_type="application/json"
            ).json()["id"]
        pending = client.get(f"/api/play/sessions/{session}/pending/").json()
        if pending["status"] != "playing":
            session = None
            continue
        action = choose(pending["pending"], rng)
        state = GameSession.objects.get(pk=session).state
        player = pending["pending"]["players"][0]
        floor.append(timed(lambda s=state, a=action, p=player: engine.apply(s, p, a))[0])
        seconds, response = timed(
            lambda a=action, v=pending["version"], s=session: client.post(
                f"/api/play/sessions/{s}/actions/", {"version": v, "action": a}, content_type="application/json"
            )
        )
        assert response.status_code == 201, response.content
        api.append(seconds)
        done += 1
    return api, floor, done


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def over_gunicorn(database_url: str, actions: int) -> list[float]:
    env = {**os.environ, "DATABASE_URL": database_url, "DJANGO_LOG_LEVEL": "WARNING"}
    python = str(ROOT / ".venv" / "bin" / "python")
    subprocess.run([python, "manage.py", "migrate", "-v0"], cwd=ROOT, env=env, check=True)
    subprocess.run(
        [
            python,
            "manage.py",
            "shell",
            "-c",
            "from django.contrib.auth.models import User; from rest_framework.authtoken.models import Token;"
            "u, _ = User.objects.get_or_create(username='bench-http');"
            "print(Token.objects.get_or_create(user=u)[0].key, file=open('/tmp/pacg-bench-token', 'w'))",
        ],
        cwd=ROOT,
        env=env,
        check=True,
    )
    token = Path("/tmp/pacg-bench-token").read_text().strip()
    port = free_port()
    server = subprocess.Popen(
        [
            str(ROOT / ".venv" / "bin" / "gunicorn"),
            "pacg_site.wsgi",
            "-b",
            f"127.0.0.1:{port}",
            "-w",
            "2",
            "--log-level",
            "warning",
        ],
        cwd=ROOT,
        env=env,
    )
    try:
        base = f"http://127.0.0.1:{port}"
        for _ in range(50):
            try:
                urllib.request.urlopen(f"{base}/api/", timeout=1)
                break
            except OSError:
                time.sleep(0.2)

        def call(method: str, path: str, body: dict | None = None) -> dict:  # type: ignore[type-arg]
            request = urllib.request.Request(
                f"{base}{path}",
                method=method,
                data=json.dumps(body).encode() if body is not None else None,
                headers={"Authorization": f"Token {token}", "Content-Type": "application/json"},
            )
            with urllib.request.urlopen(request, timeout=10) as response:
                return json.loads(response.read())

        rng, samples, session = random.Random(13), [], None
        while len(samples) < actions:
            if session is None:
                session = call("POST", "/api/play/sessions/", {"scenario": "sandbox.the-warlock"})["id"]
            pending = call("GET", f"/api/play/sessions/{session}/pending/")
            if pending["status"] != "playing":
                session = None
                continue
            action = choose(pending["pending"], rng)
            samples.append(
                timed(
                    lambda a=action, v=pending["version"], s=session: call(
                        "POST", f"/api/play/sessions/{s}/actions/", {"version": v, "action": a}
                    )
                )[0]
            )
        return samples
    finally:
        server.terminate()
        server.wait()


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--actions", type=int, default=400)
    parser.add_argument("--postgres", default="", help="a PostgreSQL URL for the gunicorn run (skipped if empty)")
    args = parser.parse_args()
    setup_django()
    api, floor, done = in_process(args.actions)
    figures = {
        "benchmark": "play_api",
        "actions": done,
        "in_process_api": summary_ms(api) | {"actions_per_second": round(len(api) / sum(api), 1)},
        "engine_apply_alone": summary_ms(floor),
        "targets": {"in_process_p95_ms": 30},
    }
    if args.postgres:
        http = over_gunicorn(args.postgres, args.actions)
        figures["gunicorn_postgresql_http"] = summary_ms(http) | {"actions_per_second": round(len(http) / sum(http), 1)}
    report(figures)


if __name__ == "__main__":
    main()
