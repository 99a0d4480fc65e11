"""Many members writing to one party's log at once, over real HTTP on PostgreSQL: every
independent entry is appended, the seqs run 1..N with no gap or duplicate, each entry is checked
against the state every earlier entry made, and the cached state is the state the log replays to."""

from __future__ import annotations

import time
from collections import Counter
from typing import Any

import pytest
from django.urls import reverse

from campaigns import services
from campaigns.models import LogEvent, Party
from campaigns.selectors import events_of, log_for, party_state
from campaigns.services import products_add, vault_set_copies
from cards.models import Card
from cards.services import BUNDLED_CARD_DATA, import_card_files
from pacg_site.errors import DomainError

from ..concurrency import Api, together
from ..factories import UserFactory

pytestmark = pytest.mark.django_db(transaction=True)

CLIENTS = 20
CHARACTERS = {"alice": "sandbox.valor", "bob": "sandbox.sage"}


@pytest.fixture
def starter_pack():  # type: ignore[no-untyped-def]
    """The homebrew starter pack's characters. A transactional test that ran before this one
    flushed the database; the one small set is reloaded, not every bundled card and rulebook."""
    if Card.objects.filter(uid__in=CHARACTERS.values()).count() != len(CHARACTERS):
        import_card_files(paths=[BUNDLED_CARD_DATA / "sandbox.yaml"])


@pytest.fixture
def table(postgresql, live_server, starter_pack):  # type: ignore[no-untyped-def]
    """Alice's party, where she plays Valor and Bob plays Sage."""
    alice, bob = UserFactory(username="alice"), UserFactory(username="bob")
    apis = {"alice": Api(live_server.url, alice), "bob": Api(live_server.url, bob)}
    created = apis["alice"].post(
        reverse("api:parties-list"), {"name": "The Racers", "game": "pacg", "ruleset": "core-2019"}
    )
    assert created.status_code == 201, created.text
    party = created.json()["id"]
    assert apis["alice"].post(reverse("api:parties-members", args=[party]), {"username": "bob"}).status_code < 300
    characters = {}
    for player, card in CHARACTERS.items():
        response = apis[player].post(reverse("api:parties-characters", args=[party]), {"card": card})
        assert response.status_code == 201, response.text
        characters[player] = response.json()["id"]
    return apis, party, characters


def log_url(party: int) -> str:
    return reverse("api:parties-log", args=[party])


def assert_log_replays_to_the_cached_state(party_id: int) -> None:
    party = Party.objects.get(pk=party_id)
    seqs = list(LogEvent.objects.filter(party=party).order_by("seq").values_list("seq", flat=True))
    assert seqs == list(range(1, len(seqs) + 1))
    events = events_of(party)
    assert log_for(party, events).replay(events) == party_state(party)


def test_concurrent_log_entries_are_all_appended_with_consecutive_seqs(table):
    apis, party, characters = table
    before = LogEvent.objects.filter(party_id=party).count()

    def entry(n: int) -> tuple[str, dict[str, Any]]:
        """Hero points for Valor (Alice) and Sage (Bob), and now and then Alice starting adventure 1."""
        if n % 5 == 4:
            return "alice", {"kind": "adventure_started", "data": {"adventure": 1}}
        player = "alice" if n % 2 == 0 else "bob"
        return player, {"kind": "hero_point_awarded", "character": characters[player], "data": {"count": 1}}

    def append(n: int) -> tuple[int, Any]:
        player, body = entry(n)
        response = apis[player].post(log_url(party), body)
        return response.status_code, response.json()

    results = together(CLIENTS, append)
    assert [code for code, _ in results] == [201] * CLIENTS, results
    seqs = [body["event"]["seq"] for _, body in results]
    assert sorted(seqs) == list(range(before + 1, before + CLIENTS + 1))
    for n, (_, body) in enumerate(results):
        assert body["event"]["kind"] == entry(n)[1]["kind"]

    # Each entry was applied on top of every entry before it: the state it answered with holds
    # exactly the hero points awarded up to its seq.
    awarded_by_seq = {body["event"]["seq"]: body["event"]["kind"] == "hero_point_awarded" for _, body in results}
    for _, body in results:
        held = sum(c["hero_points"] for c in body["state"]["characters"].values())
        assert held == sum(awarded for seq, awarded in awarded_by_seq.items() if seq <= body["event"]["seq"])

    expected = Counter(entry(n)[0] for n in range(CLIENTS) if entry(n)[1]["kind"] == "hero_point_awarded")
    state = apis["alice"].get(reverse("api:parties-detail", args=[party])).json()["state"]
    assert {player: state["characters"][str(characters[player])]["hero_points"] for player in characters} == expected
    assert state["adventure"] == 1
    assert LogEvent.objects.filter(party_id=party).count() == before + CLIENTS
    assert_log_replays_to_the_cached_state(party)


def test_concurrent_spending_never_spends_a_hero_point_twice(table):
    apis, party, characters = table
    valor = characters["alice"]
    awarded = apis["alice"].post(
        log_url(party), {"kind": "hero_point_awarded", "character": valor, "data": {"count": CLIENTS // 2}}
    )
    assert awarded.status_code == 201, awarded.text

    def spend(_: int) -> tuple[int, Any]:
        response = apis["alice"].post(log_url(party), {"kind": "hero_point_spent", "character": valor, "data": {}})
        return response.status_code, response.json()

    results = together(CLIENTS, spend)
    codes = Counter(code for code, _ in results)
    assert codes == {201: CLIENTS // 2, 400: CLIENTS - CLIENTS // 2}, results
    for code, body in results:
        if code == 400:
            assert body["error"]["code"] == "rule_violation" and body["error"]["details"]["rule"] == "hero-points"
    left = sorted(body["state"]["characters"][str(valor)]["hero_points"] for code, body in results if code == 201)
    assert left == list(range(CLIENTS // 2))
    state = apis["alice"].get(reverse("api:parties-detail", args=[party])).json()["state"]
    assert state["characters"][str(valor)]["hero_points"] == 0
    assert_log_replays_to_the_cached_state(party)


def test_concurrent_requests_to_add_one_product_fill_the_vault_once(table):
    apis, party, _ = table

    def add_the_starter_pack(_: int) -> tuple[int, Any]:
        response = apis["alice"].patch(reverse("api:parties-detail", args=[party]), {"products": ["sandbox"]})
        return response.status_code, response.json()

    # Owning a product the vault already holds is no change, whether the requests come one by
    # one or all at once.
    results = together(CLIENTS, add_the_starter_pack)
    assert [code for code, _ in results] == [200] * CLIENTS, results
    assert all(body["products"] == ["sandbox"] for _, body in results)
    added = list(LogEvent.objects.filter(party_id=party, kind="vault_changed"))
    assert [event.data["products"] for event in added] == [["sandbox"]]
    state = apis["alice"].get(reverse("api:parties-detail", args=[party])).json()["state"]
    assert state["vault_size"] == sum(added[0].data["add"].values())
    assert_log_replays_to_the_cached_state(party)


def test_a_product_added_from_many_party_pages_at_once_fills_the_vault_once(table):
    """The party page adds products through the service directly (no API request around it)."""
    _, party, _ = table
    owner = Party.objects.get(pk=party).owner

    def add_the_starter_pack(_: int) -> str:
        try:
            products_add(party=Party.objects.get(pk=party), by=owner, products=["sandbox"])
        except DomainError as refusal:
            return refusal.message
        return "added"

    outcomes = Counter(together(CLIENTS, add_the_starter_pack))
    assert outcomes["added"] == 1, outcomes
    assert all("already in the vault" in outcome for outcome in outcomes if outcome != "added"), outcomes
    added = list(LogEvent.objects.filter(party_id=party, kind="vault_changed"))
    assert [event.data["products"] for event in added] == [["sandbox"]]
    assert_log_replays_to_the_cached_state(party)


def test_a_vault_correction_sent_many_times_at_once_is_made_once(table):
    apis, party, _ = table
    added = apis["alice"].patch(reverse("api:parties-detail", args=[party]), {"products": ["sandbox"]})
    assert added.status_code == 200, added.text
    owner = Party.objects.get(pk=party).owner
    card = "sandbox.acolyte"
    wanted = party_state(Party.objects.get(pk=party)).vault[card] + 3

    def correct(_: int) -> int | None:
        event = vault_set_copies(party=Party.objects.get(pk=party), by=owner, card=card, count=wanted)
        return event.seq if event else None

    made = [seq for seq in together(CLIENTS, correct) if seq is not None]
    assert len(made) == 1
    assert party_state(Party.objects.get(pk=party)).vault[card] == wanted
    assert_log_replays_to_the_cached_state(party)


def test_a_rename_and_a_notes_edit_at_once_do_not_undo_each_other(table, monkeypatch):
    apis, party, _ = table
    cleaned = services.clean_text

    def slowly_cleaned(value: str, field: str, *, lines: bool = False) -> str:
        # Every request has read the party before any has written it, as on a busy server.
        time.sleep(0.1)
        return cleaned(value, field, lines=lines)

    monkeypatch.setattr(services, "clean_text", slowly_cleaned)

    def change(n: int) -> int:
        field = {"name": f"The Racers {n}"} if n % 2 == 0 else {"notes": f"Notes {n}"}
        return apis["alice"].patch(reverse("api:parties-detail", args=[party]), field).status_code

    assert together(CLIENTS, change) == [200] * CLIENTS
    changed = Party.objects.get(pk=party)
    assert changed.name.startswith("The Racers ") and changed.notes.startswith("Notes ")
