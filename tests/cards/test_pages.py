"""Card pages through Django's stack: browser, card page, help."""

from __future__ import annotations

import pytest
from django.urls import reverse

pytestmark = pytest.mark.django_db


def test_browser_shows_matching_cards_with_their_key_facts(client):
    response = client.get(reverse("cards:browse"), {"q": "t:monster trait:undead"})
    assert response.status_code == 200
    page = response.content.decode()
    assert "Ghoul" in page and "Combat 11 + 2AN" in page and 'id="result-count"' in page


def test_browser_explains_a_bad_query_with_its_position(client):
    response = client.get(reverse("cards:browse"), {"q": "level<x"})
    assert response.status_code == 400
    assert "level needs a whole number" in response.content.decode()
    assert "position 7" in response.content.decode()


def test_browser_facets_filter(client):
    page = client.get(reverse("cards:browse"), {"game": "aventuria"}).content.decode()
    assert "Elf Scout" in page and "Ghoul" not in page


def test_card_page_is_laid_out_like_the_card(client):
    page = client.get(reverse("cards:detail", args=["core.clockwork-guardian"])).content.decode()
    for fact in (
        "Clockwork Guardian",
        "Henchman",
        "Combat 13 + 2AN or Arcane or Knowledge 7 + AN",
        "Mental, Poison",
        "Electricity",
        "Where this comes from",
        "Example of Play",
        "Namesakes",
    ):
        assert fact in page, fact


def test_card_page_says_which_facts_the_books_leave_unknown(client):
    page = client.get(reverse("cards:detail", args=["core.ghoul"])).content.decode()
    assert "Not stated in the rulebooks" in page


def test_scenario_page_links_its_locations_and_banes(client):
    page = client.get(reverse("cards:detail", args=["core.the-blood-vow"])).content.decode()
    assert "Kobold Sorceror" in page


def test_unknown_card_page_is_404(client):
    assert client.get(reverse("cards:detail", args=["core.nope"])).status_code == 404


def test_help_page_lists_every_field_of_the_registry(client):
    from cards.search.fields import FIELDS

    page = client.get(reverse("cards:help")).content.decode()
    for field in FIELDS:
        assert f"<code>{field.name}</code>" in page


def test_pages_fit_a_phone(client):
    page = client.get(reverse("home")).content.decode()
    assert 'name="viewport" content="width=device-width, initial-scale=1"' in page
    for section in ("Cards", "Rules", "Campaigns", "Play"):
        assert f">{section}</a>" in page
