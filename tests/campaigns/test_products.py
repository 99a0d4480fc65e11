"""A new party's products build its vault, so its characters can quick-start at once; every
refusal on the way says what to do next."""

from __future__ import annotations

import pytest
from django.urls import reverse

from campaigns.models import LogEvent, Party
from campaigns.selectors import party_state
from cards.models import Card

from ..factories import UserFactory, client_for

pytestmark = pytest.mark.django_db


def create(user, **fields):  # type: ignore[no-untyped-def]
    body = {"name": "Sandpoint", "game": "pacg", "ruleset": "core-2019", **fields}
    return client_for(user).post(reverse("api:parties-list"), body, format="json")


def quick_start(user, party_id: int, card: str):  # type: ignore[no-untyped-def]
    return client_for(user).post(
        reverse("api:parties-characters", args=[party_id]), {"card": card, "quick_start": True}, format="json"
    )


def test_a_party_created_with_its_products_quick_starts_four_characters_at_once():
    alice = UserFactory(username="alice")
    response = create(alice, products=["core"])
    assert response.status_code == 201, response.json()
    party = Party.objects.get(pk=response.json()["id"])
    (entry,) = LogEvent.objects.filter(party=party, kind="vault_changed")
    assert entry.data["products"] == ["core"]
    for card in ("core.ezren", "core.valeros", "core.amiri", "core.sajan"):
        started = quick_start(alice, party.pk, card)
        assert started.status_code == 201, started.json()
        assert sum(started.json()["deck"].values()) == 15
    # The hourglass still has its 30 blessings left in the vault.
    state = party_state(party)
    blessings = Card.objects.filter(uid__in=list(state.vault), type="blessing").values_list("uid", flat=True)
    assert sum(state.vault[uid] for uid in blessings) >= 30


def test_quick_start_without_a_vault_says_to_add_the_products():
    alice = UserFactory(username="alice")
    party_id = create(alice).json()["id"]
    response = quick_start(alice, party_id, "core.ezren")
    assert response.status_code == 400
    message = response.json()["error"]["message"]
    assert "the vault lacks" in message and "add the Core Set's cards to the vault" in message


def test_a_wrong_product_is_refused_with_the_choices_and_no_party_is_made():
    alice = UserFactory(username="alice")
    response = create(alice, products=["nope"])
    assert response.status_code == 400
    assert "Core Set (core)" in response.json()["error"]["message"]
    response = create(alice, products=["aventuria-chalices-of-power"])
    assert response.status_code == 400 and "aventuria product" in response.json()["error"]["message"]
    assert not Party.objects.exists()


def test_patch_products_fills_the_vault_and_refuses_unknown_fields():
    alice = UserFactory(username="alice")
    party_id = create(alice).json()["id"]
    url = reverse("api:parties-detail", args=[party_id])
    response = client_for(alice).patch(url, {"products": ["core"]}, format="json")
    assert response.status_code == 200, response.json()
    assert response.json()["products"] == ["core"]
    assert party_state(Party.objects.get(pk=party_id)).vault
    again = client_for(alice).patch(url, {"products": []}, format="json")
    assert again.status_code == 400 and "reverting the log entry" in again.json()["error"]["message"]
    unknown = client_for(alice).patch(url, {"colour": "red"}, format="json")
    assert unknown.status_code == 400 and "colour" in str(unknown.json())


def test_only_members_see_and_only_the_owner_adds_products():
    alice, bob, mallory = UserFactory(username="alice"), UserFactory(username="bob"), UserFactory(username="mal")
    party_id = create(alice).json()["id"]
    client_for(alice).post(reverse("api:parties-members", args=[party_id]), {"username": "bob"}, format="json")
    url = reverse("api:parties-detail", args=[party_id])
    assert client_for(mallory).patch(url, {"products": ["core"]}, format="json").status_code == 404
    assert client_for(bob).patch(url, {"products": ["core"]}, format="json").status_code == 403
    page = client_for(mallory).post(reverse("campaigns:action", args=[party_id, "products"]), {"products": "core"})
    assert page.status_code == 404
    assert not party_state(Party.objects.get(pk=party_id)).vault


def test_the_dashboard_walks_a_new_party_through_products_characters_and_a_scenario(client):
    alice = UserFactory(username="alice")
    client.force_login(alice)
    response = client.post(
        reverse("campaigns:list"), {"name": "Sandpoint", "game": "pacg", "ruleset": "core-2019", "products": "core"}
    )
    party = Party.objects.get()
    page = client.get(response.url).content.decode()
    assert "<s>Build the vault from your products</s>" in page and "from Core Set" in page
    assert 'href="#add-character"' in page
    client.post(reverse("campaigns:action", args=[party.pk, "character"]), {"card": "core.ezren", "quick_start": "on"})
    page = client.get(response.url).content.decode()
    assert "Ezren" in page and 'href="/play/">Play a first scenario' in page
