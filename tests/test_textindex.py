"""pacg_site.textindex: data derived from an index is shared by the process's threads, one
version of the index at a time. A web server answers each request on a thread of its own; when
every thread derived it again, each rules answer took six seconds instead of a tenth."""

from __future__ import annotations

import shutil
import threading
from typing import Any

from whoosh.fields import ID, TEXT, Schema

from pacg_site import textindex

SCHEMA = Schema(key=ID(stored=True, unique=True), body=TEXT)


def on_a_new_thread(name: str, derive: str | None = None) -> tuple[dict[Any, Any], int]:
    """As a request would: read the index on a thread of its own, deriving a value if asked; the
    thread's cache and how many documents its searcher saw."""
    seen: dict[str, Any] = {}

    def read() -> None:
        with textindex.reading(name) as (searcher, cache):
            if derive:
                cache["derived"] = derive
            seen["cache"], seen["documents"] = dict(cache), searcher.doc_count()
        for searcher in textindex._local.__dict__.pop("searchers", {}).values():  # the thread ends
            searcher.close()

    thread = threading.Thread(target=read)
    thread.start()
    thread.join()
    return seen["cache"], seen["documents"]


def test_a_new_thread_reuses_what_another_derived_until_the_index_changes(private_index):
    textindex.rebuild("sample", SCHEMA, [{"key": "a", "body": "hourglass"}])
    on_a_new_thread("sample", derive="from the first version")
    assert on_a_new_thread("sample")[0].get("derived") == "from the first version"

    textindex.rebuild("sample", SCHEMA, [{"key": "b", "body": "vault"}, {"key": "c", "body": "guard"}])
    cache, documents = on_a_new_thread("sample")
    assert documents == 2 and "derived" not in cache  # derived from a version no reader sees any more


def test_an_index_made_anew_in_the_same_directory_derives_anew(private_index):
    """Its generation starts at 0 again: the version is told by its segments too."""
    textindex.rebuild("sample", SCHEMA, [{"key": "a", "body": "hourglass"}])
    on_a_new_thread("sample", derive="old")
    shutil.rmtree(textindex.index_dir("sample"))
    textindex.rebuild("sample", SCHEMA, [{"key": "a", "body": "hourglass"}])
    assert "derived" not in on_a_new_thread("sample")[0]
