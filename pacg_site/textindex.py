"""Our small wrapper around Whoosh (the maintained whoosh-reloaded fork, pinned).

Apps describe a schema and hand over documents; this module owns where indexes live, how a
rebuild replaces an index without readers ever seeing it half-built, and how searchers are
reused across requests (opening one per request would dominate query time).
"""

from __future__ import annotations

import fcntl
import threading
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from django.conf import settings
from whoosh import index as whoosh_index
from whoosh.fields import Schema
from whoosh.searching import Searcher
from whoosh.writing import CLEAR

WRITE_LOCK_TIMEOUT = 60.0
_local = threading.local()


def index_dir(name: str) -> Path:
    return Path(settings.SEARCH_INDEX_DIR) / name


def exists(name: str) -> bool:
    """Whether the index has a table of contents. Whoosh's own check opens the index, about a
    millisecond, and every rules answer asks several times."""
    return any(index_dir(name).glob("_MAIN_*.toc"))


def _open(name: str, schema: Schema) -> whoosh_index.Index:
    path = index_dir(name)
    path.mkdir(parents=True, exist_ok=True)
    if whoosh_index.exists_in(str(path)):
        ix = whoosh_index.open_dir(str(path))
        if ix.schema.names() == schema.names():
            return ix
    return whoosh_index.create_in(str(path), schema)


@contextmanager
def _exclusive(name: str) -> Iterator[None]:
    """One rebuild at a time across processes (a web process and a worker may both start one):
    creating an index while another process writes it would lose or duplicate documents."""
    path = index_dir(name)
    path.mkdir(parents=True, exist_ok=True)
    with open(path.parent / f".{name}.lock", "w") as handle:
        fcntl.flock(handle, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(handle, fcntl.LOCK_UN)


def rebuild(name: str, schema: Schema, documents: Iterable[dict[str, Any]]) -> int:
    """Replace the whole index in one commit: readers see the old index until it lands."""
    with _exclusive(name):
        ix = _open(name, schema)
        writer = ix.writer(timeout=WRITE_LOCK_TIMEOUT, procs=1, limitmb=256)
        count = 0
        try:
            for document in documents:
                writer.add_document(**document)
                count += 1
        except BaseException:
            writer.cancel()
            raise
        writer.commit(mergetype=CLEAR)
    return count


@contextmanager
def reading(name: str) -> Iterator[tuple[Searcher, dict[Any, Any]]]:
    """A searcher reused by this thread, refreshed when the index has changed, and a cache
    dict that lives exactly as long as that searcher (for data derived from the index)."""
    opened: dict[str, tuple[Searcher, dict[Any, Any]]] = _local.__dict__.setdefault("searchers", {})
    path = str(index_dir(name))
    if path in opened:
        previous, cache = opened[path]
        current = previous.refresh()  # closes what the new searcher does not reuse
        if current is not previous:
            cache = {}
    else:
        current, cache = whoosh_index.open_dir(path).searcher(), {}
    opened[path] = (current, cache)
    yield current, cache


def forget_searchers() -> None:
    """Close this thread's cached searchers (tests that swap index directories call this)."""
    for cached, _ in _local.__dict__.pop("searchers", {}).values():
        cached.close()
