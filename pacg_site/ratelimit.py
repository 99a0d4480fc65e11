"""Rate limits on the endpoints that check passwords, make accounts or cost CPU per request.

One limiter counts for both kinds of view: `ScopedRateThrottle` for DRF views (a view opts in
with `throttle_scope`, as with DRF's own) and `rate_limited` for Django's views (log-in, sign-up),
so a scope's count is the same whichever door a client uses. Rates are `settings.RATE_LIMITS`:
scope -> (requests, seconds) or None for no limit, parsed from PACG_RATE_LIMITS.

Counts live in Django's cache, shared by every process of a deployment (Redis), in fixed windows:
one counter per scope, client and window, created with `add` and raised with `incr`, which are
atomic. DRF's SimpleRateThrottle reads a list of timestamps and writes it back, so parallel
requests (a password guesser's) all read the same count and all pass.
"""

from __future__ import annotations

import hashlib
import math
import time
from collections.abc import Callable
from functools import wraps
from typing import Any

from django.conf import settings
from django.core.cache import cache
from django.core.exceptions import ImproperlyConfigured
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from rest_framework.exceptions import APIException
from rest_framework.throttling import BaseThrottle


def client_address(request: HttpRequest) -> str:
    """Who is asking: REMOTE_ADDR, or behind PACG_PROXIES reverse proxies the address the
    farthest of ours put in X-Forwarded-For (a client can only add entries to its left).
    The header is never taken on its own word: anyone can send one."""
    proxies = settings.REVERSE_PROXIES
    remote = request.META.get("REMOTE_ADDR", "")
    forwarded = [part.strip() for part in request.META.get("HTTP_X_FORWARDED_FOR", "").split(",") if part.strip()]
    if proxies and forwarded:
        return forwarded[-min(proxies, len(forwarded))]
    return remote


class Limiter:
    """Counts requests per scope and client in fixed windows of the scope's period. `clock`
    (seconds, like time.time) is injectable so tests can move to the next window."""

    def __init__(self, clock: Callable[[], float] = time.time) -> None:
        self.clock = clock

    def hit(self, scope: str, *clients: str) -> int | None:
        """Count one request from each of `clients` (an address, a username); None when all are
        within the limit, else the whole seconds (at least 1) until the window ends."""
        try:
            rate = settings.RATE_LIMITS[scope]
        except KeyError:
            raise ImproperlyConfigured(f"RATE_LIMITS has no rate named {scope!r}") from None
        if rate is None:
            return None
        allowed, period = rate
        now = self.clock()
        window = int(now // period)
        left = (window + 1) * period - now
        over = False
        for client in clients:
            digest = hashlib.sha256(client.encode()).hexdigest()[:32]
            key = f"{settings.RATE_LIMIT_KEY_PREFIX}:{scope}:{digest}:{window}"
            over |= self._count(key, math.ceil(left) + 1) > allowed
        return max(1, math.ceil(left)) if over else None

    @staticmethod
    def _count(key: str, timeout: int) -> int:
        if cache.add(key, 1, timeout):
            return 1
        try:
            return cache.incr(key)
        except ValueError:  # expired between add and incr: this request starts the window
            cache.set(key, 1, timeout)
            return 1


limiter = Limiter()


def clients(request: HttpRequest, username: Any = None) -> list[str]:
    """The counters a request raises: its address, and the username it tries, if any, so that
    guesses at one account from many addresses are limited too."""
    found = [f"address:{client_address(request)}"]
    if isinstance(username, str) and username.strip():
        found.append(f"username:{username.strip().casefold()}")
    return found


class ScopedRateThrottle(BaseThrottle):
    """A DRF throttle for views that name a `throttle_scope`, counted by `limiter`. A view may
    also name `throttle_methods` (count only those) and `throttle_field` (the request field
    holding a username, counted apart as well)."""

    scope_attr = "throttle_scope"

    def allow_request(self, request: Any, view: Any) -> bool:
        self.retry_after: int | None = None
        scope = getattr(view, self.scope_attr, None)
        methods = getattr(view, "throttle_methods", None)
        if not scope or (methods and request.method not in methods):
            return True
        field = getattr(view, "throttle_field", None)
        try:
            data = request.data if field else None
        except APIException:  # a body it can't read still counts, by address; the view says why
            data = None
        username = data.get(field) if hasattr(data, "get") else None
        self.retry_after = limiter.hit(scope, *clients(request, username))
        return self.retry_after is None

    def wait(self) -> int | None:
        return self.retry_after


def too_many_requests(request: HttpRequest, retry_after: int) -> HttpResponse:
    response = render(request, "429.html", {"retry_after": retry_after}, status=429)
    response["Retry-After"] = str(retry_after)
    return response


def rate_limited(scope: str, *, username_field: str | None = None) -> Callable[[Any], Any]:
    """Limit a Django view's form submissions (POST; showing the form is never counted). Over
    the limit it answers a 429 page that says when to try again, with Retry-After."""

    def decorate(view: Callable[..., HttpResponse]) -> Callable[..., HttpResponse]:
        @wraps(view)
        def limited(request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
            if request.method == "POST":
                username = request.POST.get(username_field) if username_field else None
                retry_after = limiter.hit(scope, *clients(request, username))
                if retry_after is not None:
                    return too_many_requests(request, retry_after)
            return view(request, *args, **kwargs)

        return limited

    return decorate
