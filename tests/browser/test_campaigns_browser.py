"""The deck editor checks the deck as you edit and explains every problem."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from campaigns.services import append_event, character_create, party_create

from ..campaigns.test_api import core_vault
from ..factories import UserFactory
from .conftest import log_in

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_the_deck_editor_validates_as_you_edit(page, live_server):
    owner = UserFactory(username="alice")
    party = party_create(owner=owner, name="Kobold Hunters", game="pacg", ruleset="core-2019")
    append_event(party=party, by=owner, kind="vault_changed", data={"add": core_vault()})
    amiri = character_create(party=party, by=owner, card="core.amiri", quick_start=True)
    log_in(page, "alice", then=f"/campaigns/characters/{amiri.pk}/deck/")
    expect(page.locator("#verdict")).to_contain_text("keeps every rule")
    longspear = page.locator("input[aria-label='Longspear']")
    longspear.fill("0")
    expect(page.locator("#verdict")).to_contain_text("deck list says")
    assert "Rebuilding" in page.inner_text("#verdict")
    longspear.fill("1")
    expect(page.locator("#verdict")).to_contain_text("keeps every rule")
    page.click("#save")
    expect(page.locator("#verdict")).to_have_text("Saved.")
