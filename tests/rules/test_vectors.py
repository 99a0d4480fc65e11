"""A new site answers rules questions by word search at once, says so, and switches to the full
pipeline once the passages' vectors are in (rules.assistant.vectors, bootstrap, pacg_site.wsgi)."""

from __future__ import annotations

import io
import os
import subprocess
import sys

import pytest
from django.conf import settings
from django.core.cache import cache
from django.core.management import call_command
from rest_framework.test import APIClient

from pacg_site import textindex
from pacg_site.management.commands import bootstrap
from rules.assistant import vectors
from rules.models import Passage
from rules.selectors import ask

pytestmark = pytest.mark.django_db

QUESTION = "can I play armor to reduce fire damage"


@pytest.fixture
def new_site(private_index):  # type: ignore[no-untyped-def]
    """The books imported, as a new site has them before any vector is computed (an index of
    this test's own: the index's version tells the assistant which pipeline to run)."""
    full = ask(QUESTION)
    Passage.objects.update(embedding=None, question_embedding=None)
    textindex.forget_searchers()  # what the assistant derived from the passages, as in a new process
    return full


def test_without_vectors_the_assistant_answers_by_words_and_says_how_far_they_are(new_site):
    answer = ask(QUESTION)
    assert answer.found and answer.mode == "words"
    assert answer.results[0]["heading"] == new_site.results[0]["heading"] == "Suffering Damage"
    assert answer.other_game is None  # word scores alone can't tell that both games came as near
    total = Passage.objects.count()
    assert f"0 of {total} passages have their vectors (0%)" in answer.notice
    assert "manage.py embed_passages" in answer.notice  # nothing computes them in this test


def test_once_every_vector_is_in_the_assistant_answers_as_before(new_site, django_capture_on_commit_callbacks):
    reports: list[vectors.Progress] = []
    with django_capture_on_commit_callbacks(execute=True):  # the rules index is rebuilt: a new version
        done = vectors.embed_passages(report=reports.append)
    assert done is not None and done.ready
    assert [report.embedded for report in reports] == sorted({report.embedded for report in reports})
    answer = ask(QUESTION)
    assert answer.mode == "full" and answer.notice is None
    assert [r["id"] for r in answer.results] == [r["id"] for r in new_site.results]


def test_vectors_are_computed_a_batch_at_a_time_by_one_process_at_a_time(new_site):
    done = vectors.embed_passages(seconds=0)  # stops after its first batch
    assert done is not None and done.embedded == vectors.BATCH and not done.ready
    cache.set(vectors.LOCK, "another process", 60)
    try:
        assert vectors.embed_passages() is None
        assert vectors.progress().running
        assert "being computed in the background" in ask(QUESTION).notice
    finally:
        cache.delete(vectors.LOCK)
    assert vectors.progress().embedded == vectors.BATCH


def test_the_api_and_the_page_say_word_search_only(new_site, client):
    body = APIClient().get("/api/rules/ask/", {"q": QUESTION}).json()
    assert body["mode"] == "words" and "Word search only" in body["notice"]
    page = client.get("/rules/").content.decode()  # before any question, too
    assert 'id="words-only"' in page and "0 of" in page


def test_bootstrap_computes_what_it_can_in_its_time_and_says_who_does_the_rest(new_site, monkeypatch):
    monkeypatch.setattr(bootstrap, "VECTOR_SECONDS", 0)
    out = io.StringIO()
    call_command("bootstrap", stdout=out)
    lines = out.getvalue().splitlines()
    total = Passage.objects.count()
    assert lines[-1].startswith(f"rules assistant: word search until the server has computed the other {total - 24:,}")
    assert "progress on /rules/" in lines[-1]
    monkeypatch.setattr(bootstrap, "VECTOR_SECONDS", 600)
    out = io.StringIO()
    call_command("bootstrap", stdout=out)
    assert out.getvalue().splitlines()[-1] == "rules assistant: full pipeline"


def test_an_eager_task_named_before_its_module_is_imported_runs_at_once(tmp_path):
    """Celery sends a task it has not registered to a broker even when tasks are eager: a new
    site without one waited on a broker that isn't there instead of rebuilding its index."""
    script = (
        "import django; django.setup()\n"
        "from pacg_site.celery import enqueue\n"
        "enqueue('rules.tasks.rebuild_rules_index')\n"
        "from pacg_site import textindex; print(textindex.exists('rules'))\n"
    )
    env = {k: v for k, v in os.environ.items() if k not in ("REDIS_URL", "CELERY_BROKER_URL")}
    env |= {
        "PACG_DATA_DIR": str(tmp_path),
        "DATABASE_URL": f"sqlite:///{tmp_path}/db.sqlite3",
        "DJANGO_SETTINGS_MODULE": "pacg_site.settings",
    }
    migrate = [sys.executable, "manage.py", "migrate", "-v0"]
    subprocess.run(migrate, env=env, cwd=settings.BASE_DIR, check=True, timeout=120)
    run = subprocess.run(
        [sys.executable, "-c", script], env=env, cwd=settings.BASE_DIR, capture_output=True, text=True, timeout=120
    )
    assert run.returncode == 0, run.stderr
    assert run.stdout.strip() == "True" and "AlwaysEagerIgnored" not in run.stderr
