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


def test_a_question_either_game_could_mean_offers_the_other_games_answer(page):
    page.goto("/rules/?q=card+text+vs+rulebook%2C+which+wins")
    page.wait_for_selector("#answers")
    first_books = set(page.locator(".answer .badge").all_inner_texts())
    page.click("#other-game a")
    page.wait_for_selector("#answers")
    assert "game=" in page.url and page.locator("#other-game").count() == 0
    other_books = set(page.locator(".answer .badge").all_inner_texts())
    assert first_books and other_books and ("aventuria" in first_books) != ("aventuria" in other_books)
