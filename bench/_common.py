"""Shared by the benchmark scripts: a private Django setup, timing, and the JSON report."""

from __future__ import annotations

import json
import os
import platform
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent


def setup_django(data_dir: str | None = None) -> Path:
    """Django on a fresh data dir (SQLite file + index) unless DATABASE_URL names a database."""
    directory = Path(data_dir or tempfile.mkdtemp(prefix="pacg-bench-"))
    os.environ["PACG_DATA_DIR"] = str(directory)
    os.environ.setdefault("PACG_EMBEDDING_CACHE", str(ROOT / "var" / "cache" / "embeddings"))
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "pacg_site.settings")
    os.environ.setdefault("DJANGO_LOG_LEVEL", "WARNING")
    sys.path.insert(0, str(ROOT))
    import django

    django.setup()
    from django.core.management import call_command

    call_command("migrate", interactive=False, verbosity=0)
    return directory


def timed(function: Callable[[], Any]) -> tuple[float, Any]:
    start = time.perf_counter()
    result = function()
    return time.perf_counter() - start, result


def percentile(values: list[float], fraction: float) -> float:
    ordered = sorted(values)
    index = min(len(ordered) - 1, max(0, round(fraction * (len(ordered) - 1))))
    return ordered[index]


def summary_ms(seconds: list[float]) -> dict[str, float]:
    ms = [s * 1000 for s in seconds]
    return {"p50_ms": round(statistics.median(ms), 3), "p95_ms": round(percentile(ms, 0.95), 3), "n": len(ms)}


def machine() -> dict[str, Any]:
    """The machine the figures come from; the database too when Django is set up."""
    from django.conf import settings

    facts: dict[str, Any] = {
        "python": platform.python_version(),
        "platform": platform.platform(),
        "cpu": platform.processor() or platform.machine(),
        "cpus": os.cpu_count(),
        "load_average": [round(value, 2) for value in os.getloadavg()],
    }
    if settings.configured:
        from django.db import connection

        facts["database"] = connection.vendor
    return facts


def report(figures: dict[str, Any]) -> None:
    print(json.dumps(figures | {"machine": machine()}, indent=2, ensure_ascii=False))
