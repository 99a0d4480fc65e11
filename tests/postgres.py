"""The PostgreSQL server of this test run, as a URL for the processes a test starts."""

from __future__ import annotations

from django.db import connection


def database_url(name: str | None = None) -> str:
    """The URL of the test database, or of the database `name` on the same server."""
    db = connection.settings_dict
    password = f":{db['PASSWORD']}" if db.get("PASSWORD") else ""
    server = f"{db['USER']}{password}@{db['HOST'] or '127.0.0.1'}:{db['PORT'] or 5432}"
    return f"postgres://{server}/{name or db['NAME']}"
