"""`/healthz` for deployments: 200 when the database, cache, broker and search indexes answer,
503 naming what failed (and nothing secret) when one does not."""

from __future__ import annotations

import pytest
from django.conf import settings
from django.test import override_settings

from pacg_site.celery import app as celery_app

pytestmark = pytest.mark.django_db

UNREACHABLE = "redis://127.0.0.1:1/0"  # nothing listens on port 1


def test_a_healthy_site_answers_200_with_each_check(client):
    response = client.get("/healthz")
    assert response.status_code == 200, response.json()
    body = response.json()
    assert body["status"] == "ok"
    assert set(body["checks"]) == {"database", "cache", "broker", "cards_index", "rules_index"}
    assert all(check["ok"] for check in body["checks"].values())
    assert body["checks"]["database"]["detail"] in {"sqlite", "postgresql"}


def test_missing_search_indexes_are_a_503_that_says_how_to_build_them(client, tmp_path):
    with override_settings(SEARCH_INDEX_DIR=tmp_path / "empty"):
        response = client.get("/healthz")
    assert response.status_code == 503
    checks = response.json()["checks"]
    assert not checks["cards_index"]["ok"] and "manage.py bootstrap" in checks["cards_index"]["detail"]
    assert not checks["rules_index"]["ok"]
    assert checks["database"]["ok"]


def test_an_unreachable_cache_is_a_503_without_its_address(client):
    broken = {"default": {"BACKEND": "django.core.cache.backends.redis.RedisCache", "LOCATION": UNREACHABLE}}
    with override_settings(CACHES=broken):
        response = client.get("/healthz")
    assert response.status_code == 503
    body = response.json()
    assert body["status"] == "failing" and not body["checks"]["cache"]["ok"]
    assert body["checks"]["cache"]["detail"] and "redis://" not in body["checks"]["cache"]["detail"]


def test_an_unreachable_broker_is_a_503(client, monkeypatch):
    monkeypatch.setattr(settings, "CELERY_TASK_ALWAYS_EAGER", False)
    monkeypatch.setattr(celery_app.conf, "broker_url", UNREACHABLE)
    response = client.get("/healthz")
    assert response.status_code == 503
    broker = response.json()["checks"]["broker"]
    assert not broker["ok"] and "redis://" not in broker["detail"]


@pytest.mark.worker
def test_the_real_broker_is_reported_reachable(client, celery_worker_available):
    response = client.get("/healthz")
    assert response.status_code == 200, response.json()
    assert response.json()["checks"]["broker"]["detail"] == "reachable"
