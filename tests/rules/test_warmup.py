"""A serving process warms the rules assistant up as it starts (rules.assistant.warmup, pacg_site.wsgi)."""

from __future__ import annotations

import os

import pytest

from pacg_site import textindex
from rules import search
from rules.assistant.warmup import warm_up, warm_up_in_background
from rules.selectors import ask

pytestmark = pytest.mark.django_db


def derived_from_the_index() -> set[object]:
    """What answers have derived from the index so far (a question's own words aside: each new
    word's scores are read as it is first asked)."""
    with textindex.reading(search.NAME) as (_, cache):
        return {key for key in cache if not (isinstance(key, tuple) and key[0] == "scores")}


def test_after_the_warm_up_a_first_question_loads_nothing_more():
    textindex.forget_searchers()  # as in a new process: nothing derived from the index yet
    warm_up()
    warmed = derived_from_the_index()
    for question in ("can I play armor to reduce fire damage", "¿qué es una perdición?", "how do hero titles work"):
        assert ask(question).found
        assert derived_from_the_index() == warmed, question


def test_a_server_that_forks_its_workers_forks_them_once_warm():
    """gunicorn --preload loads the site, starting the warm-up, then forks its workers at once: a
    worker forked mid-warm-up inherited the locks the warm-up held and hung on its first question
    until gunicorn killed it (30 s). The fork now waits for the warm-up to end."""
    thread = warm_up_in_background()
    child = os.fork()
    if child == 0:  # the worker: nothing to do here
        os._exit(0)
    os.waitpid(child, 0)
    assert not thread.is_alive()
