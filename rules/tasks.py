"""Celery tasks of the rules app."""

from celery import shared_task


@shared_task
def rebuild_rules_index() -> int:
    from .services import rebuild_rules_index as rebuild

    return rebuild()
