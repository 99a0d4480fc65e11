"""The Content-Security-Policy of our HTML pages (Django 5.2 has none of its own).

Pages load scripts, styles and images from this site only, and run no inline script or style:
templates keep their scripts in static/js/ and their looks in static/css/ (an injected <script>
or on*= attribute then never runs). Pages are never framed, forms post only here.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import wraps
from typing import Any

from django.conf import settings
from django.http import HttpRequest, HttpResponse
from drf_spectacular.settings import spectacular_settings

POLICY = (
    "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self'; connect-src 'self'; "
    "object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'"
)


def swagger_ui_policy() -> str:
    """The API docs page: Swagger UI's files come from this site (the bundled sidecar) or, if
    SPECTACULAR_SETTINGS name a CDN, from that folder of it only; its icons are data: images.
    drf-spectacular's page has a <style> block of its own (Swagger UI needs no other inline
    style), and shows nothing a user wrote. Scripts stay strict: the page's start-up script is a
    file of this site (SpectacularSwaggerSplitView)."""
    dist = spectacular_settings.SWAGGER_UI_DIST
    dist = "" if dist == "SIDECAR" else " " + dist.rstrip("/") + "/"
    return (
        f"default-src 'self'; script-src 'self'{dist}; style-src 'self' 'unsafe-inline'{dist}; "
        f"img-src 'self' data:{dist}; connect-src 'self'; object-src 'none'; base-uri 'none'; "
        "form-action 'self'; frame-ancestors 'none'"
    )


def content_security_policy(policy: Callable[[], str]) -> Callable[[Any], Any]:
    """A view's own policy instead of POLICY (read when it answers, so settings can change it)."""

    def decorate(view: Callable[..., HttpResponse]) -> Callable[..., HttpResponse]:
        @wraps(view)
        def with_policy(request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
            response = view(request, *args, **kwargs)
            response["Content-Security-Policy"] = policy()
            return response

        return with_policy

    return decorate


class ContentSecurityPolicyMiddleware:
    """POLICY on every HTML response that has no policy of its own, except Django's debug pages
    (the 404 and 500 pages while DEBUG is on), which are all inline style and script."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        response = self.get_response(request)
        debug_page = settings.DEBUG and response.status_code in (404, 500)
        html = response.get("Content-Type", "").startswith("text/html")
        if html and not debug_page and "Content-Security-Policy" not in response:
            response["Content-Security-Policy"] = POLICY
        return response
