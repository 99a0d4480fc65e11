"""Many HTTP clients at once against the live server: a barrier releases them together, so their
requests really overlap in the server's threads."""

from __future__ import annotations

import threading
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import Any, TypeVar

import requests
from django.contrib.auth.models import User
from django.db import connection
from rest_framework.authtoken.models import Token

T = TypeVar("T")
TIMEOUT = 30.0


class Api:
    """A client of the live server's API that authenticates with a token (no session, no CSRF)."""

    def __init__(self, base_url: str, user: User):
        self.base_url = base_url
        self.headers = {"Authorization": f"Token {Token.objects.get_or_create(user=user)[0].key}"}

    def get(self, path: str) -> requests.Response:
        return requests.get(self.base_url + path, headers=self.headers, timeout=TIMEOUT)

    def post(self, path: str, body: dict[str, Any], headers: dict[str, str] | None = None) -> requests.Response:
        return requests.post(self.base_url + path, json=body, headers=self.headers | (headers or {}), timeout=TIMEOUT)

    def patch(self, path: str, body: dict[str, Any]) -> requests.Response:
        return requests.patch(self.base_url + path, json=body, headers=self.headers, timeout=TIMEOUT)


def together(count: int, work: Callable[[int], T]) -> list[T]:
    """Run work(0) ... work(count - 1) in `count` threads started at the same moment; their results
    in index order (an exception in any is raised here)."""
    barrier = threading.Barrier(count)

    def run(index: int) -> T:
        try:
            barrier.wait(timeout=TIMEOUT)
            return work(index)
        finally:
            # A thread that touched the database must not keep a connection open, or the test
            # database cannot be dropped at the end of the run.
            connection.close()

    with ThreadPoolExecutor(max_workers=count) as pool:
        return list(pool.map(run, range(count)))
