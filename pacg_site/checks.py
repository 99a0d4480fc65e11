"""What `manage.py check --deploy` adds to Django's own: production runs on the services it is
built for, not on the embedded defaults of `make run` (docs/deploy.md)."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.core.checks import CheckMessage, Warning, register


@register(deploy=True)
def production_services(app_configs: Any = None, **kwargs: Any) -> list[CheckMessage]:
    found: list[CheckMessage] = []
    if settings.DATABASES["default"]["ENGINE"].endswith("sqlite3"):
        found.append(
            Warning(
                "the database is the embedded SQLite file: one writer at a time, on one host",
                hint="set DATABASE_URL=postgres://user@host:5432/name (docs/deploy.md)",
                id="pacg.W001",
            )
        )
    if settings.CELERY_TASK_ALWAYS_EAGER:
        found.append(
            Warning(
                "no broker: index rebuilds and simulations run in the web process, on no worker",
                hint="set REDIS_URL=redis://host:6379/0 and start Celery workers (docs/deploy.md)",
                id="pacg.W002",
            )
        )
    return found
