"""Celery work of the card database: the admin bulk import with its progress, and the index
rebuild after changes. Eager in-process here; the `worker` tests use the real broker and worker."""

from __future__ import annotations

import time

import pytest
from django.contrib.auth.models import User
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse

from cards.models import Card, ImportJob
from cards.selectors import search_cards

from .test_import import GOOD

pytestmark = pytest.mark.django_db


@pytest.fixture
def staff_client(client):  # type: ignore[no-untyped-def]
    client.force_login(User.objects.create_superuser("staff", "staff@example.com", "pw-for-staff"))
    return client


def upload(client, text: str, name: str = "homebrew.yaml"):  # type: ignore[no-untyped-def]
    return client.post(
        reverse("admin:cards_importjob_upload"),
        {"file": SimpleUploadedFile(name, text.encode(), content_type="application/x-yaml")},
    )


def test_admin_import_runs_as_a_task_and_reports_progress(
    staff_client, private_index, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=True):
        response = upload(staff_client, GOOD)
    job = ImportJob.objects.get()
    assert response.status_code == 302 and response["Location"].endswith(f"/{job.pk}/watch/")
    progress = staff_client.get(reverse("admin:cards_importjob_progress", args=[job.pk])).json()
    assert progress["status"] == "done" and progress["percent"] == 100
    assert progress["summary"]["created"] == 2
    assert Card.objects.filter(card_set__code="homebrew-test").count() == 2
    watch = staff_client.get(reverse("admin:cards_importjob_watch", args=[job.pk]))
    assert b'role="progressbar"' in watch.content


def test_admin_import_of_a_bad_file_fails_with_its_problems_and_changes_nothing(
    staff_client, django_capture_on_commit_callbacks
):
    before = Card.objects.count()
    with django_capture_on_commit_callbacks(execute=True):
        upload(staff_client, GOOD.replace("Combat 9 + AN", "Combat nine"))
    progress = staff_client.get(reverse("admin:cards_importjob_progress", args=[ImportJob.objects.get().pk])).json()
    assert progress["status"] == "failed"
    assert progress["errors"][0]["line"] == 21 and progress["errors"][0]["field"] == "check"
    assert Card.objects.count() == before


def test_admin_import_refuses_other_file_types(staff_client):
    response = upload(staff_client, "x", name="cards.txt")
    assert response.status_code == 200 and b"Use a .yaml" in response.content
    assert not ImportJob.objects.exists()


def test_only_staff_reach_the_import_page(client):
    User.objects.create_user("player", password="not-staff-pw")
    client.login(username="player", password="not-staff-pw")
    response = client.get(reverse("admin:cards_importjob_upload"))
    assert response.status_code == 302 and "/admin/login/" in response["Location"]


def test_a_redelivered_import_task_changes_nothing(staff_client, private_index, django_capture_on_commit_callbacks):
    from cards.tasks import run_import_job

    with django_capture_on_commit_callbacks(execute=True):
        upload(staff_client, GOOD)
    job = ImportJob.objects.get()
    run_import_job(job.pk)
    job.refresh_from_db()
    assert job.status == "done" and job.summary["created"] == 2


def wait_for(condition, seconds: float = 60.0) -> bool:  # type: ignore[no-untyped-def]
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if condition():
            return True
        time.sleep(0.25)
    return False


@pytest.mark.worker
@pytest.mark.django_db(transaction=True)
def test_worker_imports_and_reindexes_over_the_real_broker(celery_worker_available, bundled_cards, client):
    client.force_login(User.objects.create_superuser("staff2", "s@example.com", "pw-for-staff"))
    upload(client, GOOD)
    job = ImportJob.objects.get()
    progress_url = reverse("admin:cards_importjob_progress", args=[job.pk])
    assert wait_for(lambda: client.get(progress_url).json()["status"] == "done"), client.get(progress_url).json()
    assert Card.objects.filter(card_set__code="homebrew-test").count() == 2
    # The import asked for a debounced rebuild; the worker builds the shared index.
    assert wait_for(
        lambda: [c.uid for c in search_cards(query="set:homebrew-test name:golem").cards] == ["homebrew-test.mud-golem"]
    )
