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
# Data derived from one version of an index, shared by all of the process's threads: a web
# server answers each request on a thread of its own, and deriving it again per thread took
# the rules assistant six seconds a request. Only plain data goes in, never a reader's objects.
_derived: dict[str, tuple[tuple[Any, ...], dict[Any, Any]]] = {}
_derived_lock = threading.Lock()


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
    """A searcher reused by this thread (Whoosh's searchers are not to be shared), refreshed when
    the index has changed, and a cache dict for data derived from that version of the index,
    shared by every thread that reads it: plain data only (never a reader's objects)."""
    opened: dict[str, Searcher] = _local.__dict__.setdefault("searchers", {})
    path = str(index_dir(name))
    if path in opened:
        current = opened[path] = opened[path].refresh()  # closes what the new searcher does not reuse
    else:
        current = opened[path] = whoosh_index.open_dir(path).searcher()
    yield current, _derived_cache(path, current)


def _derived_cache(path: str, searcher: Searcher) -> dict[Any, Any]:
    reader = searcher.reader()
    # The version: its generation and its segments' random ids (an index made anew in the same
    # directory starts at generation 0 again).
    version = (reader.generation(), *(leaf.segment().segment_id() for leaf, _ in reader.leaf_readers()))
    with _derived_lock:
        held = _derived.get(path)
        if held is None or held[0] != version:  # every reading refreshes first: the newest wins
            held = _derived[path] = (version, {})
        return held[1]


def forget_searchers() -> None:
    """Close this thread's cached searchers and forget all derived data (tests that swap index
    directories call this)."""
    for cached in _local.__dict__.pop("searchers", {}).values():
        cached.close()
    with _derived_lock:
        _derived.clear()
