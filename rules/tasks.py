"""Celery tasks of the rules app."""

from celery import shared_task

from . import services


@shared_task
def rebuild_rules_index() -> int:
    return services.rebuild_rules_index()
