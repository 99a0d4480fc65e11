"""A simulation on two real Celery workers over Redis: its chunks are played on both, and the
aggregate is the one a single worker gives for the same seed (and the one a loop in this process
gives). The two workers are started here, on a queue of this test's own, so CI's worker takes none."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
import uuid
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from django.urls import reverse

from pacg_site.celery import app as celery_app
from play.engine.simulate import play_chunk, summarize
from play.models import Simulation

from ..conftest import REQUIRE_SERVICES
from ..factories import client_for
from ..postgres import database_url
from .test_party_sessions import alice, bob, party, with_facts  # noqa: F401

pytestmark = [pytest.mark.worker, pytest.mark.django_db(transaction=True)]
CELERY = Path(sys.executable).parent / "celery"


@pytest.fixture
def start_worker(postgresql, settings, tmp_path) -> Iterator[Callable[[str], subprocess.Popen[bytes]]]:  # noqa: F811
    """Workers of this test's own queue, on the test database; stopped at the end."""
    if not settings.BROKER_URL:
        if REQUIRE_SERVICES:
            pytest.fail("REDIS_URL is not set but this run requires the real services")
        pytest.skip("needs REDIS_URL (a Redis broker) to start Celery workers")
    settings.SIMULATION_QUEUE = queue = f"simulate-{uuid.uuid4().hex[:8]}"
    started: list[subprocess.Popen[bytes]] = []

    def start(name: str) -> subprocess.Popen[bytes]:
        env = os.environ | {"DATABASE_URL": database_url(), "DATABASE_CONN_MAX_AGE": "0"}
        command = [str(CELERY), "-A", "pacg_site", "worker", "-n", f"{name}@%h", "-Q", queue]
        command += ["--pool=solo", "--loglevel=warning"]
        log = open(tmp_path / f"{name}.log", "wb")  # noqa: SIM115 (closed with the process)
        worker = subprocess.Popen(command, env=env, cwd=settings.BASE_DIR, stdout=log, stderr=subprocess.STDOUT)
        started.append(worker)
        hostname = f"{name}@{socket.gethostname()}"
        for _ in range(60):
            if celery_app.control.ping(destination=[hostname], timeout=1.0):
                return worker
            assert worker.poll() is None, (tmp_path / f"{name}.log").read_text()
        pytest.fail(f"worker {hostname} did not answer: {(tmp_path / f'{name}.log').read_text()}")

    yield start
    for worker in started:
        worker.terminate()
        worker.wait(timeout=30)


def finished(client: Any, simulation: str) -> dict[str, Any]:
    for _ in range(600):
        body: dict[str, Any] = client.get(reverse("api:simulation", args=[simulation])).json()
        if body["status"] != "running":
            return body
        time.sleep(0.2)
    pytest.fail(f"the simulation did not finish: {body}")


def test_chunks_run_on_two_workers_and_give_the_single_workers_result(bundled_cards, start_worker, alice, party):  # noqa: F811
    first, second = start_worker("sim-one"), start_worker("sim-two")
    client = client_for(alice)
    request = {"scenario": "sandbox.the-warlock", "games": 160, "seed": "two-workers", **with_facts(party)}
    url = reverse("api:parties-simulations", args=[party])
    started = client.post(url, request, format="json")
    assert started.status_code == 201, started.json()
    on_two = finished(client, started.json()["id"])
    assert on_two["status"] == "done" and on_two["done"] == 160
    host = socket.gethostname()
    assert set(on_two["workers"]) == {f"sim-one@{host}", f"sim-two@{host}"}, on_two["workers"]
    assert sum(on_two["workers"].values()) == 8  # chunks of 20

    Simulation.objects.filter(pk=on_two["id"]).delete()  # not the cache: play it again
    second.terminate()
    second.wait(timeout=30)
    again = client.post(url, request, format="json")
    assert again.status_code == 201, again.json()
    on_one = finished(client, again.json()["id"])
    assert on_one["workers"] == {f"sim-one@{host}": 8}
    assert on_one["result"] == on_two["result"]
    simulation = Simulation.objects.get(pk=on_one["id"])
    in_process = play_chunk(simulation.setup, ruleset=simulation.ruleset, seed="two-workers", start=0, count=160)
    assert on_one["result"] == summarize(in_process)
    assert first.poll() is None
