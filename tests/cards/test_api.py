"""The cards API over real HTTP through Django's stack."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User
from django.urls import reverse
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

from cards.models import Card

pytestmark = pytest.mark.django_db


@pytest.fixture
def client() -> APIClient:
    return APIClient()


def get(client: APIClient, name: str, *args, **params):  # type: ignore[no-untyped-def]
    return client.get(reverse(f"api:{name}", args=args), params)


def test_search_returns_a_page_of_key_facts(client):
    response = get(client, "cards-list", q="t:monster trait:undead")
    assert response.status_code == 200
    body = response.json()
    assert set(body) == {"count", "next", "previous", "results"}
    ghoul = next(card for card in body["results"] if card["id"] == "core.ghoul")
    assert ghoul["check"] == "Combat 11 + 2AN"
    assert ghoul["set"] == {"code": "core", "name": "Core Set"}
    assert ghoul["url"].endswith("/api/cards/core.ghoul/")


def test_pagination_links_and_page_size(client):
    body = get(client, "cards-list", page_size=5).json()
    assert body["count"] == Card.objects.count() and len(body["results"]) == 5
    assert body["previous"] is None and "page=2" in body["next"] and "page_size=5" in body["next"]
    second = client.get(body["next"]).json()
    assert second["previous"] and not {c["id"] for c in second["results"]} & {c["id"] for c in body["results"]}


@pytest.mark.parametrize("page_size", ["0", "201", "ten"])
def test_page_size_outside_1_to_200_is_refused(client, page_size):
    response = get(client, "cards-list", page_size=page_size)
    assert response.status_code == 400
    assert response.json()["error"]["code"] == "invalid"
    assert "page_size" in response.json()["error"]["message"]


def test_a_page_past_the_last_is_not_found(client):
    response = get(client, "cards-list", q="ghoul", page=99)
    assert response.status_code == 404 and response.json()["error"]["code"] == "not_found"


def test_a_malformed_query_is_a_400_naming_the_problem_and_position(client):
    response = get(client, "cards-list", q="t:monster level<x")
    assert response.status_code == 400
    error = response.json()["error"]
    assert error["code"] == "invalid_query"
    assert "level needs a whole number" in error["message"]
    assert error["details"] == {"position": 17, "query": "t:monster level<x"}


def test_facets_narrow_the_search_like_query_terms(client):
    by_facets = get(client, "cards-list", game="pacg", type="monster", trait="Undead", page_size=200).json()
    by_query = get(client, "cards-list", q="game:pacg t:monster trait:undead", page_size=200).json()
    assert by_facets["count"] == by_query["count"] > 0
    assert [c["id"] for c in by_facets["results"]] == [c["id"] for c in by_query["results"]]


def test_level_range_facet_and_ordering(client):
    body = get(client, "cards-list", level_min=0, level_max=0, ordering="-name", page_size=200).json()
    names = [c["name"] for c in body["results"]]
    assert names and all(c["level"] in {"0", "B", "C", "P"} for c in body["results"])
    assert names == sorted(names, key=str.lower, reverse=True) or names[0] >= names[-1]


@pytest.mark.parametrize(
    ("params", "field"),
    [
        ({"type": "dragon"}, "type"),
        ({"set": "nowhere"}, "set"),
        ({"level_min": "3", "level_max": "1"}, "level_max"),
        ({"ordering": "price"}, "ordering"),
        ({"game": "chess"}, "game"),
    ],
)
def test_bad_facets_are_400_naming_the_parameter(client, params, field):
    response = get(client, "cards-list", **params)
    assert response.status_code == 400
    assert field in response.json()["error"]["details"]


def test_card_detail_has_every_fact_what_is_unknown_and_namesakes(client):
    response = get(client, "cards-detail", "core.clockwork-guardian")
    assert response.status_code == 200
    card = response.json()
    assert card["facts"]["immune"] == ["Mental", "Poison"] and card["facts"]["vulnerable"] == ["Electricity"]
    assert card["provenance"][0]["book"] == "core"
    assert "resistant" in card["unknown"]
    assert response["Last-Modified"]


def test_namesakes_list_the_same_name_in_other_products(client):
    name = "Seoni"
    cards = list(Card.objects.filter(name=name))
    assert len(cards) >= 2, "Core Set Seoni and Wrath of the Righteous Seoni"
    body = get(client, "cards-detail", cards[0].uid).json()
    assert {c["id"] for c in body["namesakes"]} == {c.uid for c in cards[1:]}


def test_unknown_card_is_404_with_the_error_shape(client):
    response = get(client, "cards-detail", "core.no-such-card")
    assert response.status_code == 404
    assert response.json() == {
        "error": {"code": "not_found", "message": "no card has the id 'core.no-such-card'", "details": {}}
    }


def test_reads_are_cacheable_with_etags(client):
    first = get(client, "cards-detail", "core.ghoul")
    assert first["ETag"]
    again = client.get(reverse("api:cards-detail", args=["core.ghoul"]), HTTP_IF_NONE_MATCH=first["ETag"])
    assert again.status_code == 304


def test_autocomplete_suggests_names_by_prefix_then_by_word(client):
    results = get(client, "cards-autocomplete", q="clock").json()["results"]
    assert results[0]["name"] == "Clockwork Guardian"
    assert any(
        r["name"] == "Clockwork Guardian" for r in get(client, "cards-autocomplete", q="guard").json()["results"]
    )
    assert get(client, "cards-autocomplete", q="").json() == {"results": []}


def test_search_help_is_generated_from_the_field_registry(client):
    from cards.search.fields import FIELDS

    body = get(client, "cards-search-help").json()
    assert [f["names"] for f in body["fields"]] == [list(f.names) for f in FIELDS]
    assert any(s["code"] == "core" for s in body["sets"])


def test_openapi_schema_documents_the_cards_endpoints(client):
    response = client.get(reverse("api:schema"), HTTP_ACCEPT="application/json")
    assert response.status_code == 200
    schema = response.json()
    assert "/api/cards/" in schema["paths"] and "/api/cards/{uid}/" in schema["paths"]
    parameters = {p["name"] for p in schema["paths"]["/api/cards/"]["get"]["parameters"]}
    assert {
        "q",
        "page",
        "page_size",
        "game",
        "set",
        "type",
        "trait",
        "level_min",
        "level_max",
        "ordering",
    } <= parameters
    assert client.get(reverse("api:docs")).status_code == 200


def test_token_authentication(client):
    User.objects.create_user("sam", password="correct horse battery")
    response = client.post(reverse("api:token"), {"username": "sam", "password": "correct horse battery"})
    assert response.status_code == 200
    assert Token.objects.get(user__username="sam").key == response.json()["token"]
    refused = client.post(reverse("api:token"), {"username": "sam", "password": "wrong"})
    assert refused.status_code == 400 and refused.json()["error"]["code"] == "invalid"


def test_cards_are_read_only_through_the_api(client):
    response = client.post(reverse("api:cards-list"), {"name": "Free Gold"})
    assert response.status_code == 405
