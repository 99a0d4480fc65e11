"""Difficulty simulations of a party's scenario: started through the API, played in chunks by the
Celery tasks (eager here; tests/play/test_simulation_workers.py runs them on real workers), the
same seed giving the same result however the games are split, cached on the party's log."""

from __future__ import annotations

import re
from html import unescape
from typing import Any

import pytest
from django.urls import reverse

from cards.models import Card
from play.engine.simulate import play_chunk, summarize
from play.models import Simulation

from ..factories import UserFactory, client_for
from .test_party_sessions import alice, bob, party, with_facts  # noqa: F401

pytestmark = pytest.mark.django_db


def simulate(client: Any, party: int, **extra: Any) -> Any:  # noqa: F811
    body = {"scenario": "sandbox.the-warlock", "games": 30, "seed": "table-7", **extra}
    return client.post(reverse("api:parties-simulations", args=[party]), body, format="json")


def test_a_member_simulates_the_partys_decks_and_gets_the_same_result_as_one_loop(
    alice,  # noqa: F811
    party,  # noqa: F811
    django_capture_on_commit_callbacks,
):
    with django_capture_on_commit_callbacks(execute=True):
        started = simulate(client_for(alice), party, **with_facts(party), mode="heroic")
    assert started.status_code == 201, started.json()
    body = client_for(alice).get(reverse("api:simulation", args=[started.json()["id"]])).json()
    assert body["status"] == "done" and body["done"] == 30 and body["progress"] == 1.0
    assert body["party"] == "Sandpoint" and body["scenario_name"].startswith("The Warlock")
    assert list(body["workers"].values()) == [2]  # 30 games in chunks of 20, both in this process
    simulation = Simulation.objects.get(pk=body["id"])
    assert simulation.setup["options"]["mode"] == "heroic"
    assert {c["character"] for c in simulation.setup["characters"]} == {"core.amiri", "core.sajan"}
    whole = summarize(play_chunk(simulation.setup, ruleset="core-2019", seed="table-7", start=0, count=30))
    assert body["result"] == whole
    low, high = body["result"]["interval_95"]
    assert low <= body["result"]["win_rate"] <= high
    assert set(body["result"]["deaths"]) <= {"amiri", "sajan"}
    # The rulebooks give no Core card's powers: the result says which cards were played as blank.
    deck = {uid for character in simulation.setup["characters"] for uid in character["deck"]}
    names = set(Card.objects.filter(uid__in=deck).values_list("name", flat=True))
    assert body["blank_cards"] and set(body["blank_cards"]) <= names


def test_the_same_request_on_the_same_log_is_the_cached_result_until_the_log_moves(
    alice,  # noqa: F811
    party,  # noqa: F811
    django_capture_on_commit_callbacks,
):
    client = client_for(alice)
    with django_capture_on_commit_callbacks(execute=True):
        first = simulate(client, party, **with_facts(party))
    again = simulate(client, party, **with_facts(party))
    assert again.status_code == 200 and again.json()["id"] == first.json()["id"]
    other_seed = simulate(client, party, **with_facts(party), seed="table-8")
    assert other_seed.status_code == 201 and other_seed.json()["id"] != first.json()["id"]
    blessing = Card.objects.filter(card_set__code="core", type="blessing").first()
    assert blessing is not None
    logged = client.post(
        reverse("api:parties-log", args=[party]),
        {"kind": "vault_changed", "data": {"add": {blessing.uid: 1}}},
        format="json",
    )
    assert logged.status_code == 201, logged.json()
    stale = client.get(reverse("api:simulation", args=[first.json()["id"]])).json()
    assert stale["current"] is False
    fresh = simulate(client, party, **with_facts(party))
    assert fresh.status_code == 201 and fresh.json()["id"] != first.json()["id"]


def test_a_cancelled_simulation_plays_no_more_games_and_an_ended_one_cannot_be_cancelled(
    alice,  # noqa: F811
    party,  # noqa: F811
    django_capture_on_commit_callbacks,
):
    client = client_for(alice)
    with django_capture_on_commit_callbacks(execute=False) as chunks:
        started = simulate(client, party, **with_facts(party)).json()
        cancelled = client.post(reverse("api:simulation-cancel", args=[started["id"]]))
    assert cancelled.status_code == 200 and cancelled.json()["status"] == "cancelled"
    for dispatch in chunks:
        dispatch()
    assert client.get(reverse("api:simulation", args=[started["id"]])).json()["done"] == 0
    again = client.post(reverse("api:simulation-cancel", args=[started["id"]]))
    assert again.status_code == 409
    assert "cancelled already" in again.json()["error"]["message"]


def test_strangers_and_anonymous_users_neither_start_nor_see_nor_cancel_a_simulation(
    alice,  # noqa: F811
    party,  # noqa: F811
    django_capture_on_commit_callbacks,
):
    with django_capture_on_commit_callbacks(execute=True):
        made = simulate(client_for(alice), party, **with_facts(party)).json()
    stranger = client_for(UserFactory(username="mallory"))
    assert simulate(stranger, party, **with_facts(party)).status_code == 404
    assert stranger.get(reverse("api:simulation", args=[made["id"]])).status_code == 404
    assert stranger.post(reverse("api:simulation-cancel", args=[made["id"]])).status_code == 404
    anonymous = client_for(None)
    assert simulate(anonymous, party).status_code == 404
    assert anonymous.get(reverse("api:simulation", args=[made["id"]])).status_code == 404
    assert anonymous.post(reverse("api:simulation-cancel", args=[made["id"]])).status_code == 404
    assert Simulation.objects.get(pk=made["id"]).status == "done"
    assert Simulation.objects.count() == 1


@pytest.mark.parametrize(
    ("extra", "field", "words"),
    [
        ({"mode": "nightmare"}, "mode", "nightmare"),
        ({"games": 0}, "games", "greater than or equal to 1"),
        ({"games": 100000}, "games", "less than or equal to"),
        ({"policy": "cheat"}, "policy", "cheat"),
        ({"scenario": "sandbox.nowhere"}, "scenario", "sandbox.nowhere"),
    ],
)
def test_bad_requests_are_refused_saying_what_is_wrong_and_start_nothing(alice, party, extra, field, words):  # noqa: F811
    refused = simulate(client_for(alice), party, **with_facts(party), **extra)
    assert refused.status_code == 400, refused.json()
    error = refused.json()["error"]
    assert words in error["message"] or words in str(error.get("details"))
    assert Simulation.objects.count() == 0


def test_a_party_without_characters_is_told_to_add_one_first(alice):  # noqa: F811
    as_alice = client_for(alice)
    created = as_alice.post(
        reverse("api:parties-list"), {"name": "Empty Table", "game": "pacg", "ruleset": "core-2019"}, format="json"
    )
    refused = simulate(as_alice, created.json()["id"])
    assert refused.status_code == 400
    assert (
        refused.json()["error"]["message"] == "Empty Table has no living character: add one on the party's page first"
    )
    assert Simulation.objects.count() == 0


def test_missing_character_facts_are_asked_for_by_name(alice, party):  # noqa: F811
    refused = simulate(client_for(alice), party)
    assert refused.status_code == 400
    assert refused.json()["error"]["code"] == "facts_needed"
    assert "Amiri" in refused.json()["error"]["message"]
    assert Simulation.objects.count() == 0


def test_the_dashboard_leads_to_a_simulation_page_with_its_progress_result_and_plot(
    alice,  # noqa: F811
    party,  # noqa: F811
    client,
    django_capture_on_commit_callbacks,
):
    client.force_login(alice)
    dashboard = client.get(reverse("campaigns:party", args=[party])).content.decode()
    page = reverse("play:simulate", args=[party])
    assert 'id="difficulty"' in dashboard and page in dashboard
    form = {"scenario": "sandbox.the-patrol", "mode": "normal", "games": "25", "policy": "greedy", "seed": "page"}
    asked = client.post(page, form).content.decode()
    assert "Amiri's skills" in unescape(asked)
    ids = {c: str(pk) for c, pk in with_facts(party)["facts"].items()}
    assert f'name="facts-{next(iter(ids))}-skills"' in asked
    facts = {
        f"facts-{pk}-{fact}": value for pk, given in with_facts(party)["facts"].items() for fact, value in given.items()
    }
    facts = {
        key: value if isinstance(value, str) else ", ".join(f"{k} {v}" for k, v in value.items())
        for key, value in facts.items()
    }
    with django_capture_on_commit_callbacks(execute=True):
        started = client.post(page, form | facts)
    assert started.status_code == 302
    shown = client.get(started["Location"]).content.decode()
    text = re.sub(r"<[^>]+>", "", shown)
    simulation = Simulation.objects.get()
    assert "The Patrol" in text and "25 of 25 games played" in text
    assert f"Won {round(100 * simulation.result['win_rate'])}% of 25 games" in text
    assert "The win rate understates the party's chance" in text and "play these cards as blank" in text
    assert shown.count("<rect ") == 1 + len(simulation.result["turns_left_distribution"])
    again = client.get(page).content.decode()
    assert started["Location"] in again  # listed among the latest
    # Entered once, the facts are kept: the next simulation does not ask again.
    with django_capture_on_commit_callbacks(execute=True):
        assert client.post(page, form | {"mode": "heroic"}).status_code == 302
    client.force_login(UserFactory(username="eve"))
    assert client.get(page).status_code == 404
    assert client.get(started["Location"]).status_code == 404
