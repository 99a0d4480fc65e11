"""Settings read the environment strictly: a malformed value stops start-up with a clear message."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from django.core.exceptions import ImproperlyConfigured

from pacg_site.settings import env_bool, parse_database_url

ROOT = Path(__file__).resolve().parent.parent


def test_sqlite_urls_are_relative_to_the_data_dir_or_absolute(tmp_path):
    assert parse_database_url("sqlite:///db.sqlite3", tmp_path)["NAME"] == str(tmp_path / "db.sqlite3")
    assert parse_database_url("sqlite:////srv/pacg.db", tmp_path)["NAME"] == "/srv/pacg.db"


def test_postgres_urls():
    config = parse_database_url("postgres://pacg:s%40cret@db.example:6543/pacg", Path("/tmp"))
    assert (config["ENGINE"], config["NAME"], config["USER"], config["PASSWORD"], config["HOST"], config["PORT"]) == (
        "django.db.backends.postgresql",
        "pacg",
        "pacg",
        "s@cret",
        "db.example",
        "6543",
    )


@pytest.mark.parametrize("url", ["mysql://x/y", "postgres://host/", "sqlite://", "postgres://h:notaport/db"])
def test_bad_database_urls_are_refused(url):
    with pytest.raises(ImproperlyConfigured, match="DATABASE_URL"):
        parse_database_url(url, Path("/tmp"))


def test_booleans_are_strict(monkeypatch):
    monkeypatch.setenv("X_FLAG", "maybe")
    with pytest.raises(ImproperlyConfigured, match="X_FLAG='maybe' is not a boolean"):
        env_bool("X_FLAG", False)


@pytest.mark.parametrize(
    ("variable", "value", "message"),
    [
        ("DJANGO_DEBUG", "sure", "DJANGO_DEBUG='sure' is not a boolean"),
        ("REDIS_URL", "localhost:6379", "REDIS_URL='localhost:6379' is not a redis://"),
        ("DATABASE_URL", "oracle://x/y", "unsupported scheme"),
    ],
)
def test_a_malformed_variable_stops_start_up(variable, value, message, tmp_path):
    env = {**os.environ, variable: value, "PACG_DATA_DIR": str(tmp_path)}
    result = subprocess.run([sys.executable, "manage.py", "check"], cwd=ROOT, env=env, capture_output=True, text=True)
    assert result.returncode != 0
    assert message in result.stderr


def test_production_needs_a_secret_key(tmp_path):
    env = {**os.environ, "DJANGO_DEBUG": "0", "PACG_DATA_DIR": str(tmp_path)}
    env.pop("DJANGO_SECRET_KEY", None)
    result = subprocess.run([sys.executable, "manage.py", "check"], cwd=ROOT, env=env, capture_output=True, text=True)
    assert result.returncode != 0 and "DJANGO_SECRET_KEY must be set" in result.stderr
