"""A companion-app developer opening the API docs: Swagger UI, served by this site, lists the
operations from the schema, with nothing refused by the Content-Security-Policy."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_the_api_docs_show_the_operations(page):
    failed: list[str] = []
    page.on("requestfailed", lambda request: failed.append(request.url))
    page.goto("/api/docs/")
    expect(page.locator(".opblock-summary-path").first).to_be_visible()
    assert page.get_by_text("Get your API token").count() == 1
    assert page.locator("#operations-cards-cards_search").count() == 1
    assert not failed, failed
