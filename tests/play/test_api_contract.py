"""The play API's OpenAPI contract is truthful: each real response of a session played for a while
validates against the schema its operation documents, and no response has a key the schema
does not name."""

from __future__ import annotations

import random
from typing import Any

import pytest
from django.urls import reverse
from drf_spectacular.generators import SchemaGenerator
from jsonschema import Draft202012Validator

from campaigns.services import character_create, party_create
from play.models import GameSession
from play.services import session_create

from ..factories import UserFactory, client_for

pytestmark = pytest.mark.django_db

SESSION = "/api/play/sessions/{session_id}/"


def as_json_schema(node: Any) -> Any:
    """OpenAPI 3.0 to JSON Schema: `nullable` becomes a null alternative, and an object that lists
    its properties takes no others (so an undocumented key fails)."""
    if isinstance(node, list):
        return [as_json_schema(item) for item in node]
    if not isinstance(node, dict):
        return node
    converted = {key: as_json_schema(value) for key, value in node.items()}
    if "properties" in converted:
        converted.setdefault("additionalProperties", False)
    if converted.pop("nullable", False):
        return {"anyOf": [converted, {"type": "null"}]}
    return converted


@pytest.fixture(scope="module")
def contract(django_db_setup, django_db_blocker):  # type: ignore[no-untyped-def]
    with django_db_blocker.unblock():
        schema = SchemaGenerator().get_schema(request=None, public=True)
    components = as_json_schema(schema["components"])

    def check(response: Any, path: str, method: str = "get") -> dict[str, Any]:
        """The response's body, once it validates against what `method path` documents for its status."""
        documented = schema["paths"][path][method]["responses"][str(response.status_code)]
        body = response.json()
        wanted = {**as_json_schema(documented["content"]["application/json"]["schema"]), "components": components}
        errors = [
            f"{'/'.join(map(str, e.absolute_path))}: {e.message}"
            for e in Draft202012Validator(wanted).iter_errors(body)
        ]
        assert not errors, f"{method} {path} {response.status_code}: {errors[:5]}"
        return body

    return check


def test_every_play_response_is_what_its_operation_documents(contract):  # type: ignore[no-untyped-def]
    alice, bob = UserFactory(username="alice"), UserFactory(username="bob")
    as_alice, as_bob = client_for(alice), client_for(bob)
    setup = {
        "scenario": "sandbox.the-warlock",
        "characters": ["sandbox.valor", "sandbox.sage"],
        "players": ["alice", "bob"],
    }
    created = contract(as_alice.post(reverse("api:play-sessions"), setup, format="json"), "/api/play/sessions/", "post")
    contract(as_alice.get(reverse("api:play-sessions")), "/api/play/sessions/")
    session = GameSession.objects.get(pk=created["id"])
    url = {
        name: reverse(f"api:{name}", args=[created["id"]])
        for name in ("play-session", "play-pending", "play-actions", "play-preview", "play-events", "play-finish")
    }
    clients = {"player1": as_alice, "player2": as_bob}
    rng = random.Random(3)
    for number in range(60):
        session.refresh_from_db()
        if session.status != "playing":
            break
        for client in clients.values():  # one of them sees a decision that is not theirs
            contract(client.get(url["play-session"]), SESSION)
        waiting = session.state["pending"]
        client = clients[waiting["players"][0]]
        pending = contract(client.get(url["play-pending"]), SESSION + "pending/")["pending"]
        if pending.get("select"):
            action = {"type": "select", "cards": rng.sample(pending["select"]["cards"], pending["select"]["count"])}
        else:
            action = rng.choice(pending["options"])["action"]
        contract(client.post(url["play-preview"], {"action": action}, format="json"), SESSION + "preview/", "post")
        body = {"version": session.version, "action": action}
        key = f"contract-{number}"
        answered = client.post(url["play-actions"], body, format="json", HTTP_IDEMPOTENCY_KEY=key)
        assert contract(answered, SESSION + "actions/", "post") == contract(
            client.post(url["play-actions"], body, format="json", HTTP_IDEMPOTENCY_KEY=key),
            SESSION + "actions/",
            "post",
        )
    assert contract(as_alice.get(url["play-events"]), SESSION + "events/")["actions"]

    viewed = as_alice.get(url["play-session"])
    not_modified = as_alice.get(url["play-session"], HTTP_IF_NONE_MATCH=viewed["ETag"])
    assert not_modified.status_code == 304 and not not_modified.content and not_modified["ETag"] == viewed["ETag"]
    stale = as_alice.post(url["play-actions"], {"version": 0, "action": {"type": "pass"}}, format="json")
    assert contract(stale, SESSION + "actions/", "post")["error"]["code"] == "stale_version"
    unknown = as_alice.post(url["play-actions"], {"version": 0, "action": {}, "actoin": {}}, format="json")
    assert "actoin" in contract(unknown, SESSION + "actions/", "post")["error"]["details"]
    contract(as_alice.post(url["play-finish"]), SESSION + "finish/", "post")  # no party: 400
    contract(client_for().get(url["play-pending"]), SESSION + "pending/")  # not a player: 404
    contract(as_alice.get(reverse("api:play-odds"), {"dice": "2d6+1", "difficulty": "8"}), "/api/play/odds/")


def test_finishing_answers_what_it_documents(contract):  # type: ignore[no-untyped-def]
    olivia = UserFactory(username="olivia")
    party = party_create(owner=olivia, name="Sandpoint", game="pacg", ruleset="core-2019", products=["core"])
    sajan = character_create(party=party, by=olivia, card="core.sajan", quick_start=True)
    facts = {str(sajan.pk): {"skills": {"Wisdom": "d10"}}}
    session = session_create(by=olivia, scenario="sandbox.the-patrol", party=party.pk, facts=facts)
    client, finish = client_for(olivia), reverse("api:play-finish", args=[str(session.pk)])
    assert contract(client.post(finish), SESSION + "finish/", "post")["error"]["code"] == "still_playing"
    # Playing a scenario out is test_party_sessions' job: here it is simply lost.
    session.state = session.state | {
        "status": "lost",
        "outcome": {"result": "lost", "reason": "a test"},
        "pending": None,
    }
    session.status = "lost"
    session.save()
    finished = contract(client.post(finish), SESSION + "finish/", "post")
    assert finished["session"]["logged"] == finished["seq"] and finished["data"]["won"] is False
    over = contract(client.get(reverse("api:play-session", args=[str(session.pk)])), SESSION)
    assert over["outcome"] == {"result": "lost", "reason": "a test"} and over["pending"] is None
