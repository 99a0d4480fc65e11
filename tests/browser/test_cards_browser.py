"""A player at the table, on a phone-sized screen: search, filter, open a card."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_search_filter_and_open_a_card(page):
    page.goto("/cards/")
    page.fill("input[name=q]", "immune:mental")
    page.press("input[name=q]", "Enter")
    page.wait_for_selector("#result-count")
    assert "Clockwork Guardian" in page.inner_text(".results")
    assert "Ghoul" in page.inner_text(".results")

    page.select_option("select[name=type]", "henchman")  # a facet submits at once
    page.wait_for_url("**type=henchman**")
    results = page.inner_text(".results")
    assert "Clockwork Guardian" in results and "Ghoul" not in results

    page.click("text=Clockwork Guardian")
    page.wait_for_selector(".cardface")
    assert page.inner_text(".cardname") == "Clockwork Guardian"
    assert "Combat 13 + 2AN or Arcane or Knowledge 7 + AN" in page.inner_text(".check")
    assert "Where this comes from" in page.content()


def test_a_bad_query_is_explained_on_the_page(page):
    page.goto("/cards/?q=level%3Cx")
    assert "level needs a whole number" in page.inner_text("[role=alert]")


def test_search_box_suggests_card_names(page):
    page.goto("/cards/")
    with page.expect_response(lambda r: "/api/cards/autocomplete/" in r.url):
        page.type("input[name=q]", "clockw")
    expect(page.locator("#card-names option").first).to_be_attached()
    assert page.eval_on_selector("#card-names option", "o => o.value") == "Clockwork Guardian"
