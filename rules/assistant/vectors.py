"""The passages' vectors, computed after the import rather than during it.

Embedding every passage window and question of the four books takes minutes on a new machine
(an empty embedding cache), and a new site must not wait for them: the books are imported
without vectors, the assistant answers by word search until every passage has its vectors, and
`embed_passages` fills them in, a batch at a time, on a Celery worker or, when tasks are eager
(the embedded default), in a thread of the serving process. When the last batch is in, the rules
index is rebuilt: its new version makes every process load the vectors and use the full pipeline.
"""

from __future__ import annotations

import hashlib
import logging
import os
import re
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Protocol

import numpy as np
from django.conf import settings
from django.core.cache import cache as shared_cache
from django.db import DatabaseError, connection
from django.db.models import Count, Q

from pacg_site.celery import enqueue

from ..models import Passage
from ..services import request_rules_reindex
from .embeddings import DIMENSIONS, MODEL_ID, encoder
from .vectorcache import VectorCache

logger = logging.getLogger(__name__)

BATCH = 24  # passages a batch: on an empty cache, a few seconds each, so progress moves
LOCK = "rules:embedding-passages"  # one process embeds at a time (in the shared cache)
LOCK_SECONDS = 120  # ... and a process that died holding it holds it no longer than this


@dataclass(frozen=True)
class Progress:
    embedded: int
    total: int
    running: bool = False  # a process is computing them now

    @property
    def ready(self) -> bool:
        return self.embedded == self.total

    @property
    def percent(self) -> int:
        return 100 * self.embedded // self.total if self.total else 100

    def __str__(self) -> str:
        return f"{self.embedded:,} of {self.total:,} passages have their vectors ({self.percent}%)"


def progress() -> Progress:
    counts = Passage.objects.aggregate(total=Count("pk"), missing=Count("pk", filter=Q(embedding=None)))
    return Progress(counts["total"] - counts["missing"], counts["total"], shared_cache.get(LOCK) is not None)


def embed_passages(
    *, seconds: float | None = None, report: Callable[[Progress], None] | None = None
) -> Progress | None:
    """Compute the vectors of the passages that lack them, one committed batch at a time, until
    none lacks them or `seconds` have passed; None if another process is computing them."""
    if not shared_cache.add(LOCK, os.getpid(), LOCK_SECONDS):
        return None
    started, embedded = time.monotonic(), 0
    try:
        while batch := list(Passage.objects.filter(embedding=None).order_by("book__order", "order")[:BATCH]):
            for passage, windows, asked in zip(
                batch,
                embed_groups([windows_of(passage) for passage in batch]),
                embed_groups([passage.questions for passage in batch], query=True),
                strict=True,
            ):
                passage.embedding, passage.question_embedding = windows, asked
            Passage.objects.bulk_update(batch, ["embedding", "question_embedding"])
            embedded += len(batch)
            shared_cache.touch(LOCK, LOCK_SECONDS)
            if report is not None:
                report(progress())
            if seconds is not None and time.monotonic() - started >= seconds:
                break
    finally:
        shared_cache.delete(LOCK)
    done = progress()
    if embedded and done.ready:
        request_rules_reindex()
    return done


def reporter(write: Callable[[str], object], every: float = 5.0) -> Callable[[Progress], None]:
    """Reports progress for a command's output: at most every `every` seconds, and when done."""
    last = time.monotonic()

    def report(progress: Progress) -> None:
        nonlocal last
        if progress.ready or time.monotonic() - last >= every:
            write(f"rules vectors: {progress}")
            last = time.monotonic()

    return report


def words_only_notice(done: Progress) -> str:
    """What the assistant says while it answers by word search alone."""
    computing = (
        "they are being computed in the background"
        if done.running
        else "they are computed when the server starts, or run `python manage.py embed_passages`"
    )
    return (
        f"Word search only for now: the full assistant needs the passages' vectors, and {done}; {computing}. "
        "Reload for better answers once they are in."
    )


def vectors_ready() -> bool:
    return not Passage.objects.filter(embedding=None).exists()


def embed_in_background() -> threading.Thread:
    """Start computing the missing vectors, if any: a task for the workers when there is a
    broker, else this process's own thread. A serving process calls it as it starts."""

    def run() -> None:
        try:
            if vectors_ready():
                return
            if not settings.CELERY_TASK_ALWAYS_EAGER:
                enqueue("rules.tasks.embed_passages")
                return
            done = embed_passages()
            if done is not None:
                logger.info("rules assistant: %s", done)
        except DatabaseError:  # a site not set up yet: bootstrap or the first import embeds
            logger.warning("the passages' vectors were not computed: the database is not ready", exc_info=True)
        finally:
            connection.close()  # this thread's own connection

    thread = threading.Thread(target=run, name="rules-vectors", daemon=True)
    thread.start()
    # A worker forked mid-batch (gunicorn --preload) would inherit the engine's lock held and
    # wait on it forever: it starts its own engine and cache instead.
    os.register_at_fork(after_in_child=_forget_engine)
    return thread


def _forget_engine() -> None:
    encoder.cache_clear()
    vector_cache.cache_clear()


class Windowed(Protocol):
    path: list[str]
    heading: str
    text: str


WINDOW_SENTENCES = 3
_SENTENCE_END = re.compile(r"(?<=[.!?])\s+")


def windows_of(passage: Windowed) -> list[str]:
    """A passage's windows of a few sentences (with its heading): a question is closer to the
    two sentences that answer it than to a whole section."""
    heading = " › ".join([*passage.path, passage.heading])
    sentences = [s for s in _SENTENCE_END.split(passage.text.replace("\n", " ")) if s.strip()]
    step = max(1, WINDOW_SENTENCES - 1)
    starts = range(0, max(1, len(sentences) - WINDOW_SENTENCES + 1 + step - 1), step)
    return [f"{heading}. {' '.join(sentences[i : i + WINDOW_SENTENCES])}" for i in starts] or [heading]


def embed_groups(groups: list[list[str]], *, query: bool = False) -> list[bytes | None]:
    """The vectors of each group of texts as one blob (None for an empty group), embedded in
    one batch. Questions are embedded as questions (E5's query side), to be compared with a
    player's question question to question."""
    flat = [text for group in groups for text in group]
    vectors = cached_encode(flat, query=query) if flat else np.zeros((0, DIMENSIONS), dtype=np.float32)
    result: list[bytes | None] = []
    start = 0
    for group in groups:
        result.append(vectors[start : start + len(group)].tobytes() if group else None)
        start += len(group)
    return result


def cached_encode(texts: list[str], *, query: bool = False) -> np.ndarray:
    """The texts' vectors, each embedded once ever (as a question or as a passage) and kept in
    the embedding cache directory."""
    side = "query" if query else "passage"
    embed = encoder().queries if query else encoder().passages
    return vector_cache(Path(settings.EMBEDDING_CACHE_DIR), side).encode(texts, embed)


@cache
def vector_cache(directory: Path, side: str) -> VectorCache:
    key = hashlib.sha256(f"{MODEL_ID}\x00{side}".encode()).hexdigest()[:16]
    return VectorCache(directory / f"{side}-{key}")
