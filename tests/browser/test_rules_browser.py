"""At the table, on a phone: ask a rules question, read the quote, open the passage."""

from __future__ import annotations

import pytest

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_ask_read_the_highlighted_quote_and_open_the_passage(page):
    page.goto("/rules/")
    page.fill("input[name=q]", "how do hero titles work")
    page.press("input[name=q]", "Enter")
    page.wait_for_selector("#answers")
    assert "q=how+do+hero+titles+work" in page.url  # a shareable GET URL
    first = page.locator(".answer").first
    assert first.locator("mark").count() >= 1
    first.locator("a", has_text="Hero Title").click()
    page.wait_for_selector("article.passage")
    assert page.inner_text("article.passage h1").startswith("Hero Title")
