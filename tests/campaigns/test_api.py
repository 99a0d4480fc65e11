"""The campaign API over HTTP: members only (404 to everyone else), the rules enforced with
their sources, quick start, deck dry runs, and the export/import round trip."""

from __future__ import annotations

from collections import Counter

import pytest
from django.urls import reverse
from rest_framework.test import APIClient

from campaigns.models import LogEvent, Party
from cards.models import Card

from ..factories import UserFactory, client_for

pytestmark = pytest.mark.django_db


def core_vault() -> dict[str, int]:
    """Two copies of every Core boon the rulebook states is level 0."""
    return {
        uid: 2
        for uid in Card.objects.filter(
            card_set__code="core", level=0, type__in=["weapon", "spell", "armor", "item", "ally", "blessing"]
        ).values_list("uid", flat=True)
    }


def quick_start(client: APIClient, party: Party, card: str) -> dict:  # type: ignore[type-arg]
    """A new character of the party with the rulebook's suggested deck."""
    return client.post(
        reverse("api:parties-characters", args=[party.pk]), {"card": card, "quick_start": True}, format="json"
    ).json()


@pytest.fixture
def owner():  # type: ignore[no-untyped-def]
    return UserFactory(username="alice")


@pytest.fixture
def party(owner):  # type: ignore[no-untyped-def]
    response = client_for(owner).post(
        reverse("api:parties-list"),
        {"name": "The Kobold Hunters", "game": "pacg", "ruleset": "core-2019"},
        format="json",
    )
    assert response.status_code == 201
    party = Party.objects.get(pk=response.json()["id"])
    client_for(owner).post(
        reverse("api:parties-log", args=[party.pk]),
        {"kind": "vault_changed", "data": {"add": core_vault()}},
        format="json",
    )
    return party


def test_a_new_party_belongs_to_its_owner(owner, party):
    body = client_for(owner).get(reverse("api:parties-detail", args=[party.pk])).json()
    assert body["owner"] == "alice" and body["members"] == ["alice"]
    assert body["state"]["vault_size"] == sum(core_vault().values())


PARTY_URLS = [
    ("get", "api:parties-detail"),
    ("patch", "api:parties-detail"),
    ("post", "api:parties-members"),
    ("get", "api:parties-characters"),
    ("post", "api:parties-characters"),
    ("get", "api:parties-log"),
    ("post", "api:parties-log"),
    ("get", "api:parties-vault"),
    ("get", "api:parties-export"),
]


@pytest.mark.parametrize(("method", "name"), PARTY_URLS)
def test_non_members_and_anonymous_get_404_for_everything_of_a_party(party, method, name):
    for client in (client_for(UserFactory(username="mallory")), client_for()):
        response = getattr(client, method)(reverse(name, args=[party.pk]), {}, format="json")
        assert response.status_code == 404, (name, method, response.status_code)
        assert response.json()["error"]["code"] == "not_found"


def test_non_members_cannot_see_characters_decks_or_revert(owner, party):
    character = quick_start(client_for(owner), party, "core.amiri")
    for client in (client_for(UserFactory(username="mallory")), client_for()):
        assert client.get(reverse("api:characters-detail", args=[character["id"]])).status_code == 404
        assert client.get(reverse("api:characters-deck", args=[character["id"]])).status_code == 404
        assert (
            client.put(reverse("api:characters-deck", args=[character["id"]]), {"deck": {}}, format="json").status_code
            == 404
        )
        assert client.post(reverse("api:parties-revert", args=[party.pk, 1])).status_code == 404
    listed = client_for(UserFactory(username="mallory")).get(reverse("api:parties-list")).json()
    assert listed["count"] == 0 and listed["results"] == []


def test_quick_start_builds_the_suggested_deck(owner, party):
    response = client_for(owner).post(
        reverse("api:parties-characters", args=[party.pk]),
        {"card": "core.amiri", "player_name": "Alice", "quick_start": True},
        format="json",
    )
    assert response.status_code == 201
    body = response.json()
    deck = body["deck"]
    assert sum(deck.values()) == 15
    assert {"core.longspear", "core.dogslicer", "core.hide-armor", "core.orison"} <= set(deck)
    assert body["skills"][:2] == ["Strength d12", "Melee d12+2"] and body["hand_size"] == 4


def test_members_play_their_own_characters_and_only_the_owner_manages_the_party(owner, party):
    bob = UserFactory(username="bob")
    assert (
        client_for(owner)
        .post(reverse("api:parties-members", args=[party.pk]), {"username": "bob"}, format="json")
        .status_code
        == 201
    )
    as_bob = client_for(bob)
    assert as_bob.get(reverse("api:parties-detail", args=[party.pk])).status_code == 200
    lem = quick_start(as_bob, party, "core.lem")
    amiri = quick_start(client_for(owner), party, "core.amiri")
    assert "id" in amiri, amiri
    refused = as_bob.post(
        reverse("api:parties-log", args=[party.pk]),
        {"kind": "scenario_played", "data": {"scenario": "Rumble Road", "won": True}},
        format="json",
    )
    assert refused.status_code == 403 and "owner" in refused.json()["error"]["message"]
    refused = as_bob.post(
        reverse("api:parties-log", args=[party.pk]),
        {"kind": "hero_point_awarded", "character": amiri["id"]},
        format="json",
    )
    assert refused.status_code == 403
    assert (
        as_bob.post(
            reverse("api:parties-log", args=[party.pk]),
            {"kind": "hero_point_awarded", "character": lem["id"]},
            format="json",
        ).status_code
        == 201
    )
    refused = as_bob.post(reverse("api:parties-members", args=[party.pk]), {"username": "alice"}, format="json")
    assert refused.status_code == 403


def test_a_broken_rule_is_a_400_naming_the_rule_and_its_source(owner, party):
    amiri = quick_start(client_for(owner), party, "core.amiri")
    response = client_for(owner).post(
        reverse("api:parties-log", args=[party.pk]),
        {"kind": "feat_gained", "character": amiri["id"], "data": {"feat": "hand:5"}},
        format="json",
    )
    assert response.status_code == 400
    error = response.json()["error"]
    assert error["code"] in {"rule_violation", "invalid_event"}
    events_before = LogEvent.objects.filter(party=party).count()
    response = client_for(owner).post(
        reverse("api:parties-log", args=[party.pk]),
        {"kind": "returned_from_death", "character": amiri["id"]},
        format="json",
    )
    assert response.status_code == 400 and LogEvent.objects.filter(party=party).count() == events_before


def test_deck_dry_run_validates_without_saving(owner, party):
    amiri = quick_start(client_for(owner), party, "core.amiri")
    url = reverse("api:characters-deck", args=[amiri["id"]])
    short = dict(amiri["deck"])
    short.pop(next(iter(short)))
    refused = client_for(owner).put(url + "?dry_run=1", {"deck": short}, format="json")
    assert refused.status_code == 400 and refused.json()["error"]["details"]["rule"] == "deck-list"
    fine = client_for(owner).put(url + "?dry_run=1", {"deck": amiri["deck"]}, format="json")
    assert fine.status_code == 200 and fine.json()["dry_run"] is True and fine.json()["event"] is None
    assert client_for(owner).put(url, {"deck": "lots"}, format="json").status_code == 400


def test_revert_keeps_history_and_undoes_the_entry(owner, party):
    amiri = quick_start(client_for(owner), party, "core.amiri")
    award = (
        client_for(owner)
        .post(
            reverse("api:parties-log", args=[party.pk]),
            {"kind": "hero_point_awarded", "character": amiri["id"]},
            format="json",
        )
        .json()
    )
    client_for(owner).post(reverse("api:parties-revert", args=[party.pk, award["event"]["seq"]]))
    log = client_for(owner).get(reverse("api:parties-log", args=[party.pk])).json()["results"]
    assert [e["kind"] for e in log][-2:] == ["hero_point_awarded", "revert"] and log[-2]["reverted"] is True
    assert client_for(owner).get(reverse("api:characters-detail", args=[amiri["id"]])).json()["hero_points"] == 0


def test_export_then_import_is_lossless(owner, party):
    client = client_for(owner)
    amiri = quick_start(client, party, "core.amiri")
    client.post(
        reverse("api:parties-log", args=[party.pk]),
        {"kind": "scenario_played", "data": {"scenario": "Rumble Road", "adventure": 1, "won": True}},
        format="json",
    )
    client.post(
        reverse("api:parties-log", args=[party.pk]),
        {"kind": "hero_point_awarded", "character": amiri["id"]},
        format="json",
    )
    client.post(
        reverse("api:parties-log", args=[party.pk]),
        {"kind": "feat_gained", "character": amiri["id"], "data": {"feat": "skill:Strength:+1"}},
        format="json",
    )
    exported = client.get(reverse("api:parties-export", args=[party.pk])).json()
    imported = client.post(reverse("api:parties-import"), exported, format="json")
    assert imported.status_code == 201
    again = client.get(reverse("api:parties-export", args=[imported.json()["id"]])).json()
    assert again == exported


def test_an_import_that_breaks_a_rule_stores_nothing(owner, party):
    client = client_for(owner)
    exported = client.get(reverse("api:parties-export", args=[party.pk])).json()
    exported["log"].append(
        {"seq": len(exported["log"]) + 1, "kind": "hero_point_spent", "character": None, "data": {}, "author": "alice"}
    )
    parties_before = Party.objects.count()
    response = client.post(reverse("api:parties-import"), exported, format="json")
    assert response.status_code == 400 and Party.objects.count() == parties_before
    assert client.post(reverse("api:parties-import"), {"format": "other"}, format="json").status_code == 400


def test_bad_party_input_is_refused(owner):
    client = client_for(owner)
    assert (
        client.post(
            reverse("api:parties-list"), {"name": "X", "game": "pacg", "ruleset": "aventuria"}, format="json"
        ).status_code
        == 400
    )
    assert (
        client.post(
            reverse("api:parties-list"), {"name": "X", "game": "chess", "ruleset": "core-2019"}, format="json"
        ).status_code
        == 400
    )


def test_vault_lists_cards_with_names(owner, party):
    vault = client_for(owner).get(reverse("api:parties-vault", args=[party.pk])).json()["vault"]
    assert Counter(row["card"] for row in vault) and all(row["name"] for row in vault)
