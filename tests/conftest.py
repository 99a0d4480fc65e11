from __future__ import annotations

import os
import uuid
from pathlib import Path

import pytest
from django.conf import settings
from django.db import connection

from cards.models import Card
from cards.services import BUNDLED_CARD_DATA, import_bundled_cards, rebuild_index
from pacg_site import textindex
from pacg_site.celery import app as celery_app
from rules.assistant.vectors import embed_passages
from rules.services import import_bundled_rulebooks, rebuild_rules_index

CARD_DATA = BUNDLED_CARD_DATA
REQUIRE_SERVICES = os.environ.get("PACG_REQUIRE_SERVICES") == "1"


def load_bundled_cards() -> None:
    import_bundled_cards(prune=False)


@pytest.fixture(scope="session", autouse=True)
def isolated_data_dir(tmp_path_factory):  # type: ignore[no-untyped-def]
    """Indexes and uploads of this run go to a temporary dir, never to the dev site's var/.
    CI names the dir in PACG_DATA_DIR because its Celery worker must share it."""
    if not os.environ.get("PACG_EMBEDDING_CACHE"):
        # Rulebook vectors depend only on the text: keep them between runs (var/ is not committed).
        settings.EMBEDDING_CACHE_DIR = Path(settings.BASE_DIR) / "var" / "cache" / "embeddings"
    if os.environ.get("PACG_DATA_DIR"):
        return Path(settings.DATA_DIR)
    root = tmp_path_factory.mktemp("data")
    settings.DATA_DIR = root
    settings.SEARCH_INDEX_DIR = root / "index"
    settings.MEDIA_ROOT = root / "uploads"
    return root


@pytest.fixture(scope="session", autouse=True)
def eager_by_default():  # type: ignore[no-untyped-def]
    """Tasks run in-process, from the session's own setup on; only `worker` tests use the
    broker (see eager_celery)."""
    previous = celery_app.conf.task_always_eager, settings.CELERY_TASK_ALWAYS_EAGER
    celery_app.conf.task_always_eager = settings.CELERY_TASK_ALWAYS_EAGER = True
    # A test's own transaction is not seen from another thread: eager chunks run in the request
    # (the browser test runs them in the serving thread, as `make run` does).
    settings.SIMULATIONS_IN_THREAD = False
    yield
    celery_app.conf.task_always_eager, settings.CELERY_TASK_ALWAYS_EAGER = previous


@pytest.fixture(scope="session")
def django_db_setup(isolated_data_dir, eager_by_default, django_db_setup, django_db_blocker):  # type: ignore[no-untyped-def]
    """The bundled cards and their index, once per run; each test's transaction rolls back
    whatever it changes."""
    with django_db_blocker.unblock():
        load_bundled_cards()
        rebuild_index()
        import_bundled_rulebooks()
        embed_passages()
        rebuild_rules_index()


@pytest.fixture(autouse=True)
def eager_celery(request):  # type: ignore[no-untyped-def]
    """Tasks run in-process unless a test asks for the real worker."""
    if "worker" not in request.keywords:
        yield
        return
    celery_app.conf.task_always_eager = settings.CELERY_TASK_ALWAYS_EAGER = False
    yield
    celery_app.conf.task_always_eager = settings.CELERY_TASK_ALWAYS_EAGER = True


@pytest.fixture
def bundled_cards(django_db_blocker):  # type: ignore[no-untyped-def]
    """For transactional tests (live server, worker), which run last and start from an empty
    database: load the bundled cards again if a previous flush removed them."""
    with django_db_blocker.unblock():
        if not Card.objects.exists():
            load_bundled_cards()
            rebuild_index()
            import_bundled_rulebooks()
            embed_passages()
            rebuild_rules_index()


@pytest.fixture
def private_index(settings, tmp_path):  # type: ignore[no-untyped-def]
    """A search index of this test's own, for tests that change cards and rebuild it."""
    settings.SEARCH_INDEX_DIR = tmp_path / "index"
    textindex.forget_searchers()
    yield settings.SEARCH_INDEX_DIR
    textindex.forget_searchers()


@pytest.fixture
def celery_worker_available():  # type: ignore[no-untyped-def]
    """A real worker on a real broker (.ci/run starts one). Without REDIS_URL the test is
    skipped locally, and fails in CI (PACG_REQUIRE_SERVICES=1)."""
    if not settings.BROKER_URL:
        if REQUIRE_SERVICES:
            pytest.fail("REDIS_URL is not set but this run requires the real services")
        pytest.skip("needs REDIS_URL and a running Celery worker (make worker)")
    replies = celery_app.control.ping(timeout=5.0)
    if not replies:
        pytest.fail("no Celery worker answered on the broker; start one with `make worker`")
    return replies


@pytest.fixture
def postgresql():  # type: ignore[no-untyped-def]
    """Concurrent writers need PostgreSQL: SQLite locks the whole file and makes them wait or fail.
    On SQLite the test is skipped locally, and fails in CI (PACG_REQUIRE_SERVICES=1)."""
    if connection.vendor != "postgresql":
        if REQUIRE_SERVICES:
            pytest.fail("DATABASE_URL is not PostgreSQL but this run requires the real services")
        pytest.skip("needs PostgreSQL for concurrent writes (DATABASE_URL=postgres://...)")


@pytest.fixture(autouse=True)
def fresh_rate_limits(settings):  # type: ignore[no-untyped-def]
    """Every test starts with no requests counted against the rate limits (the real limiter,
    at the real rates). The counters get a prefix of this test's own rather than a cache.clear():
    in CI the cache is the Redis database the Celery broker uses, whose queues a clear would drop."""
    settings.RATE_LIMIT_KEY_PREFIX = f"ratelimit-{uuid.uuid4().hex}"
