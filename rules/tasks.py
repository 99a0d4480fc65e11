"""Celery tasks of the rules app."""

from celery import shared_task

from . import services
from .assistant import vectors


@shared_task
def rebuild_rules_index() -> int:
    return services.rebuild_rules_index()


@shared_task
def embed_passages() -> str:
    done = vectors.embed_passages()
    return "another worker is computing them" if done is None else str(done)
