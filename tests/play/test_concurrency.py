"""Many clients answering one session at once, over real HTTP on PostgreSQL: one action per
version, a 409 for every other answer to it, retries of the winner's Idempotency-Key answered
from the stored response, and a log that replays to the stored state."""

from __future__ import annotations

from collections import Counter
from typing import Any

import pytest
from django.urls import reverse

from play import engine
from play.models import GameSession, SessionAction

from ..concurrency import Api, together
from ..factories import UserFactory

pytestmark = pytest.mark.django_db(transaction=True)

CLIENTS = 20


@pytest.fixture
def table(postgresql, live_server):  # type: ignore[no-untyped-def]
    """Alice's session of the homebrew starter scenario (she plays both characters)."""
    api = Api(live_server.url, UserFactory(username="alice"))
    created = api.post(reverse("api:play-sessions"), {"scenario": "sandbox.the-warlock"})
    assert created.status_code == 201, created.text
    return api, created.json()["id"]


def url(name: str, session_id: str) -> str:
    return reverse(f"api:{name}", args=[session_id])


def legal_answer(api: Api, session_id: str) -> tuple[int, dict[str, Any]]:
    """The session's version and a legal answer to its pending decision."""
    shown = api.get(url("play-pending", session_id)).json()
    assert shown["status"] == "playing", shown
    pending = shown["pending"]
    if pending.get("select"):
        select = pending["select"]
        return shown["version"], {"type": "select", "cards": select["cards"][: select["count"]]}
    return shown["version"], pending["options"][0]["action"]


def race(api: Api, session_id: str, keys: list[str | None]) -> tuple[int, list[tuple[str | None, int, Any]]]:
    """Every client sends the same answer to the same version at once, client n with keys[n]
    as its Idempotency-Key (None: no key)."""
    version, action = legal_answer(api, session_id)

    def send(n: int) -> tuple[str | None, int, Any]:
        headers = {"Idempotency-Key": keys[n]} if keys[n] else {}
        response = api.post(url("play-actions", session_id), {"version": version, "action": action}, headers)
        return keys[n], response.status_code, response.json()

    return version, together(len(keys), send)


def assert_one_applied(session_id: str, version: int, results: list[tuple[str | None, int, Any]]) -> SessionAction:
    """Exactly one answer applied; the others a 409 stale_version, or for the winner's key its
    stored response."""
    codes = Counter(code for _, code, _ in results)
    assert set(codes) <= {201, 409}, results
    session = GameSession.objects.get(pk=session_id)
    assert session.version == version + 1
    applied = SessionAction.objects.filter(session=session, version=version)
    assert applied.count() == 1
    winner = applied.get()
    for key, code, body in results:
        if code == 201:
            assert key == winner.idempotency_key and body == winner.response
        else:
            assert body["error"]["code"] == "stale_version", body
            assert body["error"]["details"]["version"] == version + 1
    sharing = sum(1 for key, _, _ in results if key == winner.idempotency_key) if winner.idempotency_key else 1
    assert codes[201] == sharing
    assert winner.response["version"] == version + 1
    return winner


def mixed_keys(round_name: str) -> list[str | None]:
    """Eight clients with keys of their own, eight retrying one key, four with no key."""
    return [f"{round_name}-{n}" for n in range(8)] + [f"{round_name}-retried"] * 8 + [None] * 4


def test_concurrent_answers_to_one_version_apply_once_and_the_rest_conflict_or_replay(table):
    api, session_id = table
    start = GameSession.objects.get(pk=session_id).version

    version, results = race(api, session_id, mixed_keys("first"))
    assert version == start
    assert assert_one_applied(session_id, version, results).number == 1

    version, results = race(api, session_id, mixed_keys("second"))
    assert version == start + 1
    assert assert_one_applied(session_id, version, results).number == 2

    # A client retrying hard: all twenty carry the same key, one applies, all get its answer.
    version, results = race(api, session_id, ["third"] * CLIENTS)
    winner = assert_one_applied(session_id, version, results)
    assert winner.number == 3 and [code for _, code, _ in results] == [201] * CLIENTS

    # Retried after the game moved on, the key still gets its stored answer, not a 409.
    late = api.post(
        url("play-actions", session_id), {"version": version, "action": winner.action}, {"Idempotency-Key": "third"}
    )
    assert late.status_code == 201 and late.json() == winner.response

    session = GameSession.objects.get(pk=session_id)
    actions = list(session.actions.order_by("number"))
    assert [a.number for a in actions] == [1, 2, 3]
    assert [a.version for a in actions] == [start, start + 1, start + 2]
    assert session.version == start + 3
    events = [event for a in actions for event in a.events]
    assert engine.replay(session.initial_state, events) == session.state


def test_clients_taking_turns_by_retrying_on_409_each_apply_one_action(table):
    api, session_id = table
    start = GameSession.objects.get(pk=session_id).version

    def play_once(n: int) -> int:
        """Answer whatever is pending, retrying with the new version after a 409."""
        for attempt in range(CLIENTS * 3):
            version, action = legal_answer(api, session_id)
            response = api.post(
                url("play-actions", session_id),
                {"version": version, "action": action},
                {"Idempotency-Key": f"{n}-{attempt}"},
            )
            if response.status_code == 201:
                assert response.json()["version"] == version + 1
                return version
            assert response.status_code == 409 and response.json()["error"]["code"] == "stale_version", response.text
        raise AssertionError(f"client {n} never got an answer in")

    applied_at = together(CLIENTS, play_once)
    assert sorted(applied_at) == list(range(start, start + CLIENTS))
    session = GameSession.objects.get(pk=session_id)
    actions = list(session.actions.order_by("number"))
    assert [a.number for a in actions] == list(range(1, CLIENTS + 1))
    assert [a.version for a in actions] == list(range(start, start + CLIENTS))
    assert session.version == start + CLIENTS
    assert engine.replay(session.initial_state, [event for a in actions for event in a.events]) == session.state
