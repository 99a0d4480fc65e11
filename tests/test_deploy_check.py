"""The production profile (DJANGO_DEBUG=0, PostgreSQL, Redis) passes `manage.py check --deploy`
without a warning; the check refuses a weak secret key and the embedded defaults (SQLite, no
broker); production serves pages over HTTPS only."""

from __future__ import annotations

import json
import os
import secrets
import subprocess
import sys
import textwrap
from pathlib import Path

import psycopg
import pytest

from .postgres import database_url

ROOT = Path(__file__).resolve().parent.parent
DEPLOY_CHECK = [sys.executable, "manage.py", "check", "--deploy", "--fail-level", "WARNING"]


@pytest.fixture(scope="module")
def production(tmp_path_factory) -> dict[str, str]:  # type: ignore[no-untyped-def]
    """The environment of a production server, on a database of its own (migrated: the schema
    check of drf-spectacular builds serializers that read the scenarios from it)."""
    env = {key: value for key, value in os.environ.items() if not key.startswith(("DJANGO_", "PACG_", "DATABASE_"))}
    env |= {
        "DJANGO_DEBUG": "0",
        "DJANGO_SECRET_KEY": secrets.token_urlsafe(50),
        "DJANGO_ALLOWED_HOSTS": "pacg.example",
        "PACG_DATA_DIR": str(tmp_path_factory.mktemp("production")),
        "DJANGO_SETTINGS_MODULE": "pacg_site.settings",
    }
    migrate = subprocess.run(
        [sys.executable, "manage.py", "migrate", "-v0"], cwd=ROOT, env=env, capture_output=True, text=True
    )
    assert migrate.returncode == 0, migrate.stderr
    return env


def run(command: list[str], env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    return subprocess.run(command, cwd=ROOT, env=env, capture_output=True, text=True)


@pytest.fixture
def on_services(production, postgresql):  # type: ignore[no-untyped-def]
    """The production profile on a PostgreSQL database of its own (migrated) and a Redis broker."""
    name = f"pacg_deploy_check_{os.getpid()}"
    env = production | {
        "DATABASE_URL": database_url(name),
        "REDIS_URL": os.environ.get("REDIS_URL") or "redis://127.0.0.1:6379/0",
    }
    with psycopg.connect(database_url("postgres"), autocommit=True) as admin:
        admin.execute(f'DROP DATABASE IF EXISTS "{name}"')
        admin.execute(f'CREATE DATABASE "{name}"')
        migrate = run([sys.executable, "manage.py", "migrate", "-v0"], env)
        assert migrate.returncode == 0, migrate.stderr
        yield env
        admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


def test_the_production_profile_passes_the_deploy_check_without_a_warning(on_services):
    result = run(DEPLOY_CHECK, on_services)
    output = result.stdout + result.stderr
    assert result.returncode == 0, output
    assert "System check identified no issues" in output and "WARNING" not in output


def test_the_embedded_defaults_fail_the_deploy_check_saying_what_to_set(production):
    embedded = {key: value for key, value in production.items() if key not in ("REDIS_URL", "CELERY_BROKER_URL")}
    result = run(DEPLOY_CHECK, embedded)  # no DATABASE_URL, no broker: SQLite, tasks run eagerly
    assert result.returncode != 0
    assert "pacg.W001" in result.stderr and "DATABASE_URL=postgres://" in result.stderr
    assert "pacg.W002" in result.stderr and "REDIS_URL=redis://" in result.stderr


@pytest.mark.parametrize(
    "key", ["embedded-development-key-not-for-production", "django-insecure-" + "x1y2z3" * 10, "changeme"]
)
def test_a_weak_secret_key_fails_the_deploy_check_and_is_named(production, key):
    result = run(DEPLOY_CHECK, {**production, "DJANGO_SECRET_KEY": key})
    assert result.returncode != 0
    assert "security.W009" in result.stderr and "SECRET_KEY" in result.stderr


def test_production_is_https_only_with_hsts_and_secure_cookies(production):
    probe = textwrap.dedent(
        """
        import json
        import django
        django.setup()
        from django.test import Client
        client = Client(HTTP_HOST="pacg.example")
        plain, secure = client.get("/api/docs/"), client.get("/api/docs/", secure=True)
        login = client.get("/accounts/login/", secure=True)
        print(json.dumps({
            "plain": [plain.status_code, plain.get("Location")],
            "hsts": secure.get("Strict-Transport-Security"),
            "csrf_cookie_secure": bool(login.cookies["csrftoken"]["secure"]),
            "healthz": client.get("/healthz").status_code,
        }))
        """
    )
    result = run([sys.executable, "-c", probe], production)
    assert result.returncode == 0, result.stderr
    seen = json.loads(result.stdout.strip().splitlines()[-1])
    assert seen["plain"] == [301, "https://pacg.example/api/docs/"]
    assert seen["hsts"] == "max-age=31536000; includeSubDomains; preload"
    assert seen["csrf_cookie_secure"] is True
    assert seen["healthz"] != 301, "the probe answers over plain HTTP"
