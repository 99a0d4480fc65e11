"""Schemathesis fuzzes the whole API from its OpenAPI schema against a live server, as a
logged-in companion app: every check, a fixed seed, stateful links. Target: no failure at all.
The checks and statuses set aside are in tests/schemathesis.toml, each with its reason."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from rest_framework.authtoken.models import Token

from rules.assistant.warmup import warm_up
from rules.models import Passage

from .factories import UserFactory

CONFIG = Path(__file__).with_name("schemathesis.toml")
SCHEMATHESIS = Path(sys.executable).with_name("schemathesis")


@pytest.mark.django_db(transaction=True)
def test_schemathesis_finds_no_failures_and_no_server_errors(live_server, bundled_cards):  # type: ignore[no-untyped-def]
    warm_up()  # as a serving process does as it starts (pacg_site/wsgi.py), before any player asks
    fuzzer = UserFactory(username="fuzzer")
    env = os.environ | {
        "PACG_FUZZ_TOKEN": Token.objects.create(user=fuzzer).key,
        "PACG_FUZZ_ANCHOR": Passage.objects.filter(book__slug="core").values_list("anchor", flat=True).first(),
    }
    run = subprocess.run(
        [
            str(SCHEMATHESIS),
            "--config-file",
            str(CONFIG),
            "run",
            f"{live_server.url}/api/schema/",
            "--checks",
            "all",
            "--no-color",
        ],
        env=env,
        capture_output=True,
        text=True,
        timeout=900,
    )
    report = run.stdout + run.stderr
    assert run.returncode == 0, report[-20000:]
    assert "No issues found" in report or "passed" in report, report[-4000:]
