"""The play table in a real browser: start a scenario, answer decisions, see the log grow."""

from __future__ import annotations

import pytest

from play.models import GameSession

from ..factories import UserFactory
from .conftest import log_in

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_start_a_scenario_and_play_a_few_decisions(page):
    UserFactory(username="alice")
    log_in(page, "alice", then="/play/")
    page.click("button:has-text('Start')")
    page.wait_for_selector("#options button.option")
    assert "The scenario is over" not in page.inner_text("#prompt")
    assert page.locator("#hand li").count() >= 1 and page.locator("#locations li").count() >= 2
    for expected in range(1, 4):
        page.locator("#options button.option").first.click()
        page.wait_for_function(f"document.querySelectorAll('#log li').length >= {expected}")
    assert page.inner_text("#version") != "0"


def test_a_whole_scenario_is_played_to_its_end_on_the_table_page(page):
    UserFactory(username="alice")
    log_in(page, "alice", then="/play/")
    page.select_option("select[name=scenario]", "sandbox.the-patrol")
    page.uncheck("input[name=characters][value='sandbox.sage']")
    page.click("button:has-text('Start')")
    page.wait_for_selector("#options .option")
    for _ in range(600):
        if "The scenario is over" in page.inner_text("#prompt"):
            break
        version = page.inner_text("#version")
        boxes = page.locator("#options .selection input")
        if boxes.count():  # discarding for damage: tick as many cards as asked
            confirm = page.locator(".selection button")
            for index in range(int(confirm.inner_text().split()[-1])):
                boxes.nth(index).check()
            confirm.click()
        else:
            page.locator("#options button.option").first.click()
        page.wait_for_function(f"document.getElementById('version').textContent !== '{version}'")
    session = GameSession.objects.get()
    assert session.status in {"won", "lost"}
    assert f"The scenario is over: {session.status}" in page.inner_text("#prompt")
    page.wait_for_function(f"document.querySelectorAll('#log li').length === {session.actions.count()}")
    assert ": " in page.locator("#log li").first.inner_text() and "{" not in page.inner_text("#log")
