"""Campaign pages: the dashboard, the sheet and the deck editor, for members only."""

from __future__ import annotations

import pytest
from django.urls import reverse

from campaigns.models import Party
from campaigns.services import append_event, character_create, party_create

from ..factories import UserFactory
from .test_api import core_vault

pytestmark = pytest.mark.django_db


@pytest.fixture
def played():  # type: ignore[no-untyped-def]
    owner = UserFactory(username="alice")
    party = party_create(owner=owner, name="Kobold Hunters", game="pacg", ruleset="core-2019")
    append_event(party=party, by=owner, kind="vault_changed", data={"add": core_vault()})
    amiri = character_create(party=party, by=owner, card="core.amiri", player_name="Alice", quick_start=True)
    append_event(
        party=party,
        by=owner,
        kind="scenario_played",
        data={"scenario": "Rumble Road", "adventure": 1, "won": True, "mode": "heroic"},
    )
    return owner, party, amiri


def test_the_dashboard_shows_characters_scenarios_with_modes_and_the_vault(client, played):
    owner, party, _ = played
    client.force_login(owner)
    page = client.get(reverse("campaigns:party", args=[party.pk])).content.decode()
    assert "Amiri" in page and "Rumble Road" in page and "<td>H</td>" in page and "Vault" in page
    listed = page.split('id="vault"')[1].split("</ul>")[0].count("<li>")
    assert listed > 0 and f"{listed} kinds of card" in page  # it said "0 kinds" above a full list


def test_party_pages_are_404_to_other_users_and_anonymous(client, played):
    _, party, amiri = played
    urls = [
        reverse("campaigns:party", args=[party.pk]),
        reverse("campaigns:character", args=[amiri.pk]),
        reverse("campaigns:deck", args=[amiri.pk]),
        reverse("campaigns:export", args=[party.pk]),
    ]
    for url in urls:
        assert client.get(url).status_code in {404, 302}  # anonymous: 404 (export: log in first)
    client.force_login(UserFactory(username="mallory"))
    for url in urls:
        assert client.get(url).status_code == 404, url
    assert (
        client.post(reverse("campaigns:action", args=[party.pk, "invite"]), {"username": "mallory"}).status_code == 404
    )
    assert not Party.objects.filter(members__username="mallory").exists()


def test_the_sheet_computes_the_feats_and_prints(client, played):
    owner, _, amiri = played
    client.force_login(owner)
    page = client.get(reverse("campaigns:character", args=[amiri.pk])).content.decode()
    assert "Melee d12+2" in page and 'sheet-print.css" media="print"' in page and 'id="hand-size">4<' in page


def test_forms_create_a_party_and_log_a_scenario(client):
    owner = UserFactory(username="bea")
    client.force_login(owner)
    response = client.post(reverse("campaigns:list"), {"name": "Wardens", "game": "pacg", "ruleset": "classic"})
    party = Party.objects.get(name="Wardens")
    assert response.status_code == 302 and response["Location"] == party.get_absolute_url()
    client.post(
        reverse("campaigns:action", args=[party.pk, "scenario"]),
        {"scenario": "The Godless Ones", "adventure": "0", "mode": "normal", "won": "on"},
    )
    dashboard = client.get(party.get_absolute_url()).content.decode()
    assert "The Godless Ones" in dashboard and "PACG · Classic (WotR, RotR) ·" in dashboard
    assert "PACG · Classic (WotR, RotR)" in client.get(reverse("campaigns:list")).content.decode()


def test_a_refused_form_explains_the_rule(client, played):
    owner, party, amiri = played
    client.force_login(owner)
    response = client.post(
        reverse("campaigns:action", args=[party.pk, "scenario"]),
        {"scenario": "Rumble Road", "adventure": "1", "mode": "sideways", "won": "on"},
        follow=True,
    )
    assert "mode must be one of" in response.content.decode()
