"""Security headers on every response, and a Content-Security-Policy on every HTML page that
allows no inline script or style (the templates keep theirs in static files)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from django.conf import settings as django_settings
from django.urls import reverse
from drf_spectacular.settings import spectacular_settings

from pacg_site.security import POLICY

pytestmark = pytest.mark.django_db

TEMPLATES = Path(__file__).resolve().parent.parent / "templates"
ALWAYS = {
    "X-Content-Type-Options": "nosniff",
    "X-Frame-Options": "DENY",
    "Referrer-Policy": "same-origin",
    "Cross-Origin-Opener-Policy": "same-origin",
}


def assert_security_headers(response) -> None:  # type: ignore[no-untyped-def]
    assert response.status_code == 200
    for header, value in ALWAYS.items():
        assert response[header] == value, header


@pytest.mark.parametrize(
    ("name", "args"), [("home", []), ("cards:detail", ["core.ghoul"]), ("rules:ask", []), ("login", [])]
)
def test_pages_carry_the_headers_and_a_policy_without_inline_code(client, name, args):
    response = client.get(reverse(name, args=args))
    assert_security_headers(response)
    policy = response["Content-Security-Policy"]
    assert policy == POLICY
    assert "default-src 'self'" in policy and "script-src 'self';" in policy and "frame-ancestors 'none'" in policy
    assert "unsafe-inline" not in policy and "unsafe-eval" not in policy


def test_the_api_carries_the_headers_and_its_browsable_pages_the_policy(client):
    assert_security_headers(client.get(reverse("api:cards-list")))
    browsable = client.get(reverse("api:cards-list"), HTTP_ACCEPT="text/html")
    assert_security_headers(browsable)
    assert browsable["Content-Security-Policy"] == POLICY


def docs_policy(response) -> dict[str, str]:  # type: ignore[no-untyped-def]
    return dict(part.strip().split(" ", 1) for part in response["Content-Security-Policy"].split(";"))


def test_the_api_docs_load_swagger_ui_from_this_site(client):
    response = client.get(reverse("api:docs"))
    assert_security_headers(response)
    directives = docs_policy(response)
    assert directives["default-src"] == "'self'" and directives["script-src"] == "'self'"
    page = response.content.decode()
    bundle = re.search(r'<script src="([^"]*swagger-ui-bundle\.js)"', page)
    style = re.search(r'<link rel="stylesheet" href="([^"]*swagger-ui\.css)"', page)
    assert bundle and style, page
    assert bundle.group(1).startswith(django_settings.STATIC_URL) and style.group(1).startswith(
        django_settings.STATIC_URL
    )
    assert not re.search(r"<script>", page), "the start-up script is a file of this site"
    start_up = re.search(r'<script src="(/api/docs/\?[^"]*script[^"]*)"', page)
    assert start_up, page
    script = client.get(start_up.group(1).replace("&amp;", "&"))
    assert script.status_code == 200 and script["Content-Type"].startswith("application/javascript")
    assert "SwaggerUIBundle" in script.content.decode()


def test_a_swagger_ui_from_a_cdn_is_allowed_that_folder_only(client, monkeypatch):
    dist = "https://cdn.example/swagger-ui-dist@5"
    monkeypatch.setattr(spectacular_settings, "SWAGGER_UI_DIST", dist)
    directives = docs_policy(client.get(reverse("api:docs")))
    assert directives["script-src"] == f"'self' {dist}/" and directives["img-src"] == f"'self' data: {dist}/"


def test_a_missing_page_has_the_policy_but_not_djangos_debug_page(client, settings):
    assert client.get("/cards/core.nope/")["Content-Security-Policy"] == POLICY
    settings.DEBUG = True
    assert "Content-Security-Policy" not in client.get("/cards/core.nope/")


@pytest.mark.parametrize("template", sorted(TEMPLATES.rglob("*.html")), ids=lambda p: str(p.relative_to(TEMPLATES)))
def test_templates_have_no_inline_script_style_or_handler(template):
    text = template.read_text()
    assert not re.search(r"<script(?![^>]*\bsrc=)[^>]*>", text), "inline <script>: move it to static/js/"
    assert not re.search(r"<style", text), "<style> block: move it to static/css/"
    assert not re.search(r"\sstyle=", text), "style= attribute: give it a class in static/css/"
    assert not re.search(r"\son[a-z]+\s*=", text), "on*= handler: add an event listener in static/js/"
