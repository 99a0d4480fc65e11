"""A session from a party: its members play their own characters with the decks the campaign log
gives them; nobody outside the party can start one, and cards the engine has no rules for are named."""

from __future__ import annotations

import pytest
from django.urls import reverse

from campaigns.models import Party
from campaigns.selectors import party_state
from cards.models import Card
from play.models import GameSession

from ..factories import UserFactory, client_for

pytestmark = pytest.mark.django_db

BOONS = ["weapon", "spell", "armor", "item", "ally", "blessing"]


@pytest.fixture
def alice():  # type: ignore[no-untyped-def]
    return UserFactory(username="alice")


@pytest.fixture
def bob():  # type: ignore[no-untyped-def]
    return UserFactory(username="bob")


@pytest.fixture
def party(alice, bob):  # type: ignore[no-untyped-def]
    """Alice's party with the starter pack's boons in its vault, Alice playing Valor and Bob Sage."""
    as_alice, as_bob = client_for(alice), client_for(bob)
    created = as_alice.post(
        reverse("api:parties-list"),
        {"name": "Starters", "game": "pacg", "ruleset": "core-2019", "products": ["sandbox"]},
        format="json",
    )
    assert created.status_code == 201, created.json()
    party = created.json()["id"]
    vault = {
        uid: 3 for uid in Card.objects.filter(card_set__code="sandbox", type__in=BOONS).values_list("uid", flat=True)
    }
    log = as_alice.post(
        reverse("api:parties-log", args=[party]), {"kind": "vault_changed", "data": {"add": vault}}, format="json"
    )
    assert log.status_code == 201, log.json()
    assert (
        as_alice.post(reverse("api:parties-members", args=[party]), {"username": "bob"}, format="json").status_code
        < 300
    )
    for client, card in ((as_alice, "sandbox.valor"), (as_bob, "sandbox.sage")):
        made = client.post(
            reverse("api:parties-characters", args=[party]), {"card": card, "quick_start": True}, format="json"
        )
        assert made.status_code == 201, made.json()
    return party


def test_members_play_their_own_characters_with_their_campaign_decks(alice, bob, party):
    response = client_for(alice).post(
        reverse("api:play-sessions"), {"scenario": "sandbox.the-warlock", "party": party}, format="json"
    )
    assert response.status_code == 201, response.json()
    body = response.json()
    assert body["party"] == party and body["players"] == {"player1": "alice", "player2": "bob"}
    session = GameSession.objects.get(pk=body["id"])
    state = party_state(session.party)
    decks = {c.card: sorted(c.deck.elements()) for c in state.characters.values()}
    assert {e["character"]: sorted(e["deck"]) for e in session.setup["characters"]} == decks
    # Bob sees the session and answers for Sage; a stranger sees nothing.
    assert client_for(bob).get(reverse("api:play-session", args=[body["id"]])).status_code == 200
    assert (
        client_for(UserFactory(username="carol")).get(reverse("api:play-session", args=[body["id"]])).status_code == 404
    )


def test_a_stranger_cannot_start_a_session_from_the_party(party):
    mallory = client_for(UserFactory(username="mallory"))
    response = mallory.post(
        reverse("api:play-sessions"), {"scenario": "sandbox.the-warlock", "party": party}, format="json"
    )
    assert response.status_code == 404 and GameSession.objects.count() == 0


def test_characters_of_other_parties_and_unknown_ids_are_refused(alice, party):
    for characters in (["999999"], ["valor"], []):
        response = client_for(alice).post(
            reverse("api:play-sessions"),
            {"scenario": "sandbox.the-warlock", "party": party, "characters": characters or ["1", "1"]},
            format="json",
        )
        assert response.status_code == 400, response.json()
        assert "character" in response.json()["error"]["message"]
    assert GameSession.objects.count() == 0


def test_a_deck_with_cards_the_engine_cannot_play_is_refused_naming_them(alice, party):
    as_alice = client_for(alice)
    core_boon = Card.objects.filter(card_set__code="core", type="weapon", level=0).values_list("uid", flat=True)[0]
    as_alice.post(
        reverse("api:parties-log", args=[party]),
        {"kind": "vault_changed", "data": {"add": {core_boon: 1}}},
        format="json",
    )
    valor = next(c for c in party_state(Party.objects.get(pk=party)).characters.values() if c.card == "sandbox.valor")
    weapons = Card.objects.filter(uid__in=list(valor.deck), type="weapon").values_list("uid", flat=True)
    deck = dict(valor.deck)
    swapped = weapons[0]
    deck[swapped] -= 1
    deck = {uid: n for uid, n in deck.items() if n} | {core_boon: 1}
    rebuilt = as_alice.put(reverse("api:characters-deck", args=[valor.id]), {"deck": deck}, format="json")
    assert rebuilt.status_code == 200, rebuilt.json()
    response = as_alice.post(
        reverse("api:play-sessions"), {"scenario": "sandbox.the-warlock", "party": party}, format="json"
    )
    assert response.status_code == 400 and core_boon in response.json()["error"]["message"]
    assert GameSession.objects.count() == 0


def test_the_lobby_starts_a_party_session_and_opens_its_table(alice, party, client):
    client.force_login(alice)
    page = client.get(reverse("play:lobby"))
    assert b"Play with a party" in page.content and b"Starters" in page.content
    response = client.post(reverse("play:lobby"), {"party": str(party), "scenario": "sandbox.the-patrol"})
    session = GameSession.objects.get()
    assert response.status_code == 302 and response["Location"] == session.get_absolute_url()
    assert client.get(response["Location"]).status_code == 200
