"""The rules assistant's first answer in a new process loads the embedding model, the passages'
vectors and what is derived from the index (the games' word odds, the players' words learned
from the passages' questions, those questions read one by one, the glossary, the edition
differences): 6.0 s on a two-core machine (0.6 s of it reading those questions one by one),
against 0.06 s for the next. A serving process answers two questions as it starts, in the
background, so that no player waits for that."""

from __future__ import annotations

import logging
import os
import threading

from django.db import DatabaseError, connection

from .answer import ask

logger = logging.getLogger(__name__)

FORK_WAIT_SECONDS = 60  # a warm-up stuck longer (a database not answering) no longer holds up a fork
# Neither names a game, so both games' data is loaded; one per language, for each language's
# spelling corrector.
QUESTIONS = ("what happens when I encounter a card", "¿qué pasa cuando me encuentro con una carta?")


def warm_up() -> None:
    for question in QUESTIONS:
        ask(question)


def warm_up_in_background() -> threading.Thread:
    def run() -> None:
        try:
            warm_up()
        except DatabaseError:  # a site not set up yet: its first answer loads everything
            logger.warning("the rules assistant was not warmed up: the database is not ready", exc_info=True)
        finally:
            connection.close()  # this thread's own connection

    thread = threading.Thread(target=run, name="rules-warm-up", daemon=True)
    thread.start()
    # A server that loads the site before forking its workers (gunicorn --preload) must not fork
    # mid-warm-up: a worker would inherit the locks the thread held, never released, and hang on
    # its first question until the server killed it (30 s). It forks once warm, and its workers
    # start warm.
    os.register_at_fork(before=lambda: thread.join(FORK_WAIT_SECONDS))
    return thread
