"""The play table in a real browser: start a scenario, answer decisions, see the log grow."""

from __future__ import annotations

import pytest

from ..factories import UserFactory

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_start_a_scenario_and_play_a_few_decisions(page):
    UserFactory(username="alice")
    page.goto("/accounts/login/?next=/play/")
    page.fill("input[name=username]", "alice")
    page.fill("input[name=password]", "a-long-test-password")
    page.click("button:has-text('Log in')")
    page.wait_for_url("**/play/")
    page.click("button:has-text('Start')")
    page.wait_for_selector("#options button.option")
    assert "The scenario is over" not in page.inner_text("#prompt")
    assert page.locator("#hand li").count() >= 1 and page.locator("#locations li").count() >= 2
    for expected in range(1, 4):
        page.locator("#options button.option").first.click()
        page.wait_for_function(f"document.querySelectorAll('#log li').length >= {expected}")
    assert page.inner_text("#version") != "0"
