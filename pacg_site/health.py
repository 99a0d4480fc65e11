"""What a deployment's health probe asks (`/healthz`): can this process reach its database, its
cache, its Celery broker, and does it have its search indexes. Each check says what failed, never
a secret (no URL, no password)."""

from __future__ import annotations

import time
from collections.abc import Callable

from django.conf import settings
from django.core.cache import cache
from django.db import connection

from . import textindex

BROKER_TIMEOUT = 2.0  # seconds: a probe must answer before the orchestrator gives up on it
INDEXES = {"cards": "the card search index", "rules": "the rules search index"}


def _database() -> str:
    with connection.cursor() as cursor:
        cursor.execute("SELECT 1")
        cursor.fetchone()
    return connection.vendor


def _cache() -> str:
    token = str(time.monotonic_ns())
    cache.set("healthz", token, 10)
    if cache.get("healthz") != token:
        raise RuntimeError("a value written to the cache did not read back")
    return settings.CACHES["default"]["BACKEND"].rsplit(".", 1)[-1]


def _broker() -> str:
    if settings.CELERY_TASK_ALWAYS_EAGER:
        return "none: tasks run in this process (eager)"
    from .celery import app

    with app.connection_for_write() as conn:
        conn.ensure_connection(max_retries=1, timeout=BROKER_TIMEOUT)
    return "reachable"


def _index(name: str) -> Callable[[], str]:
    def check() -> str:
        if not textindex.exists(name):
            raise RuntimeError(f"{INDEXES[name]} is missing: run `manage.py bootstrap`")
        return "present"

    return check


CHECKS: dict[str, Callable[[], str]] = {
    "database": _database,
    "cache": _cache,
    "broker": _broker,
    **{f"{name}_index": _index(name) for name in INDEXES},
}


def health() -> tuple[bool, dict[str, dict[str, object]]]:
    """(all good, each check's outcome with what it found or why it failed)."""
    results: dict[str, dict[str, object]] = {}
    for name, check in CHECKS.items():
        started = time.perf_counter()
        try:
            results[name] = {"ok": True, "detail": check()}
        except Exception as error:  # a probe reports every failure, it never raises one
            results[name] = {"ok": False, "detail": str(error) or type(error).__name__}
        results[name]["ms"] = round((time.perf_counter() - started) * 1000, 1)
    return all(result["ok"] for result in results.values()), results
