"""Celery tasks of the card database: ids in, a service call, safe to run twice."""

from __future__ import annotations

from pathlib import Path

from celery import shared_task
from django.core.cache import cache

from .models import ImportJob
from .services import CardImportError, import_card_files, rebuild_index


def progress_key(job_id: int) -> str:
    return f"cards:import-job:{job_id}:progress"


@shared_task
def rebuild_card_index() -> int:
    return rebuild_index()


@shared_task
def run_import_job(job_id: int) -> None:
    job = ImportJob.objects.get(pk=job_id)
    if job.status in {ImportJob.Status.DONE, ImportJob.Status.FAILED}:
        return  # already ran: a redelivered message changes nothing
    ImportJob.objects.filter(pk=job_id).update(status=ImportJob.Status.RUNNING)

    def progress(done: int, total: int) -> None:
        # The import writes in one transaction, invisible to other connections until it
        # commits, so progress goes through the cache (Redis when there is a broker).
        cache.set(progress_key(job_id), (done, total), timeout=3600)

    try:
        summary = import_card_files(paths=[Path(job.upload.path)], progress=progress)
    except CardImportError as error:
        ImportJob.objects.filter(pk=job_id).update(
            status=ImportJob.Status.FAILED, errors=[e.as_dict() for e in error.errors]
        )
        return
    total = summary.created + summary.updated + summary.unchanged
    ImportJob.objects.filter(pk=job_id).update(
        status=ImportJob.Status.DONE, summary=summary.as_dict(), processed=total, total=total
    )
