"""A session from a party of Core Set characters: its members play their own characters with the
decks the campaign log gives them, with real cards (powers not encoded are declared, facts the
database lacks are entered once), and the result goes back into the party's log."""

from __future__ import annotations

import random
from html import unescape
from typing import Any

import pytest
from django.urls import reverse

from campaigns.models import Party
from campaigns.selectors import party_state
from cards.models import Card
from play.engine.policy import complete
from play.models import GameSession

from ..factories import UserFactory, client_for

pytestmark = pytest.mark.django_db

VAULT_TYPES = ["weapon", "spell", "armor", "item", "ally", "blessing", "monster", "barrier"]
AMIRI = {
    "skills": "Strength d12, Dexterity d8, Constitution d6, Intelligence d4, Wisdom d6, Charisma d6, "
    "Melee: Strength +2, Fortitude: Constitution +2",
    "favored": "weapon",
}
SAJAN = {"skills": {"Strength": "d6", "Dexterity": "d8", "Wisdom": "d10", "Acrobatics": "Dexterity +2"}}


@pytest.fixture
def alice():  # type: ignore[no-untyped-def]
    return UserFactory(username="alice")


@pytest.fixture
def bob():  # type: ignore[no-untyped-def]
    return UserFactory(username="bob")


@pytest.fixture
def party(alice, bob):  # type: ignore[no-untyped-def]
    """Alice's Core Set party: its vault holds the Core cards (blessings enough for the
    hourglass), Alice plays Amiri and Bob Sajan, both quick-started."""
    as_alice, as_bob = client_for(alice), client_for(bob)
    created = as_alice.post(
        reverse("api:parties-list"),
        {"name": "Sandpoint", "game": "pacg", "ruleset": "core-2019", "products": ["core"]},
        format="json",
    )
    assert created.status_code == 201, created.json()
    party = created.json()["id"]
    cards = Card.objects.filter(card_set__code="core", type__in=VAULT_TYPES)
    vault = {card.uid: 10 if card.type == "blessing" else 4 for card in cards}
    log = as_alice.post(
        reverse("api:parties-log", args=[party]), {"kind": "vault_changed", "data": {"add": vault}}, format="json"
    )
    assert log.status_code == 201, log.json()
    invited = as_alice.post(reverse("api:parties-members", args=[party]), {"username": "bob"}, format="json")
    assert invited.status_code < 300
    for client, card in ((as_alice, "core.amiri"), (as_bob, "core.sajan")):
        made = client.post(
            reverse("api:parties-characters", args=[party]), {"card": card, "quick_start": True}, format="json"
        )
        assert made.status_code == 201, made.json()
    return party


def ids(party: int) -> dict[str, str]:
    state = party_state(Party.objects.get(pk=party))
    return {c.card.split(".", 1)[1]: str(c.id) for c in state.characters.values()}


def start(client: Any, party: int, **extra: Any) -> Any:
    return client.post(
        reverse("api:play-sessions"), {"scenario": "sandbox.the-warlock", "party": party, **extra}, format="json"
    )


def with_facts(party: int) -> dict[str, Any]:
    characters = ids(party)
    return {"facts": {characters["amiri"]: AMIRI, characters["sajan"]: SAJAN}}


def test_facts_the_database_lacks_are_asked_for_by_name_then_the_members_play_their_decks(alice, bob, party):
    asked = start(client_for(alice), party)
    assert asked.status_code == 400
    error = asked.json()["error"]
    assert error["code"] == "facts_needed"
    assert "Amiri's skills and favored card type" in error["message"] and "Sajan's skills" in error["message"]
    assert error["details"]["missing"] == {ids(party)["amiri"]: ["skills", "favored"], ids(party)["sajan"]: ["skills"]}
    assert GameSession.objects.count() == 0

    response = start(client_for(alice), party, **with_facts(party))
    assert response.status_code == 201, response.json()
    body = response.json()
    assert body["party"] == party and body["players"] == {"player1": "alice", "player2": "bob"}
    session = GameSession.objects.get(pk=body["id"])
    state = party_state(session.party)
    decks = {c.card: sorted(c.deck.elements()) for c in state.characters.values()}
    assert {e["character"]: sorted(e["deck"]) for e in session.setup["characters"]} == decks
    # The entered skills are Amiri's at the table; Sajan keeps the database's Dexterity d8.
    assert session.state["characters"]["amiri"]["skills"]["Strength"] == "d12"
    assert session.state["characters"]["sajan"]["skills"]["Acrobatics"] == "Dexterity +2"
    # The location decks come from the party's vault: Core cards.
    dealt = [session.state["cards"][c] for place in session.state["locations"].values() for c in place["cards"]]
    assert any(uid.startswith("core.") for uid in dealt)
    # Bob sees the session and his own hand; a stranger sees nothing.
    seen = client_for(bob).get(reverse("api:play-session", args=[body["id"]]))
    assert seen.status_code == 200 and seen.json()["you"] == ["sajan"]
    assert (
        client_for(UserFactory(username="carol")).get(reverse("api:play-session", args=[body["id"]])).status_code == 404
    )
    # Entered once, the facts are kept for the party's next session.
    assert start(client_for(alice), party).status_code == 201


def test_wrong_facts_are_refused_saying_what_is_wrong(alice, party):
    characters = ids(party)
    bad = {"facts": {characters["amiri"]: {"skills": "Strength d13", "favored": "weapon"}, characters["sajan"]: SAJAN}}
    response = start(client_for(alice), party, **bad)
    assert response.status_code == 400
    assert "Amiri's skills" in response.json()["error"]["message"]
    hand = {"facts": {characters["amiri"]: AMIRI | {"hand_size": 40}, characters["sajan"]: SAJAN}}
    assert (
        "hand size must be a whole number from 1 to 10"
        in start(client_for(alice), party, **hand).json()["error"]["message"]
    )
    assert GameSession.objects.count() == 0


def test_a_stranger_cannot_start_a_session_from_the_party(party):
    response = start(client_for(UserFactory(username="mallory")), party)
    assert response.status_code == 404 and GameSession.objects.count() == 0


def test_characters_of_other_parties_and_unknown_ids_are_refused(alice, party):
    for characters in (["999999"], ["valor"], ["1", "1"]):
        response = start(client_for(alice), party, characters=characters)
        assert response.status_code == 400, response.json()
        assert "character" in response.json()["error"]["message"]
    assert GameSession.objects.count() == 0


def act(client: Any, session: str, action: dict[str, Any]) -> Any:
    version = client.get(reverse("api:play-session", args=[session])).json()["version"]
    return client.post(
        reverse("api:play-actions", args=[session]), {"version": version, "action": action}, format="json"
    )


def test_a_core_card_is_played_by_declaring_its_power_and_the_report_names_who_declared(alice, bob, party):
    session = start(client_for(alice), party, **with_facts(party)).json()["id"]
    as_alice = client_for(alice)
    for _ in range(40):
        pending = as_alice.get(reverse("api:play-pending", args=[session])).json()["pending"]
        template = next((o for o in pending.get("options", []) if o.get("declare")), None)
        if template is not None:
            break
        act(as_alice, session, {"type": "pass"})
    assert template is not None, "no declared power was offered to Alice"
    window = template["action"]["power"].split(":")[1]
    effect = {"turn": {"draw": 1}, "explore": {"explore_again": True}, "check": {"add_die": "1d4"}}.get(
        window, {"reduce_damage": {"amount": 1}}
    )
    declaration = {**template["action"], "effects": [effect], "text": "as printed"}
    if template["action"]["source"] == "hand":
        declaration["cost"] = "recharge"
    response = act(as_alice, session, declaration)
    assert response.status_code == 201, response.json()
    assert any(event["type"] == "power_declared" for event in response.json()["events"])
    actions = as_alice.get(reverse("api:play-events", args=[session])).json()["actions"]
    assert any("declared by alice: as printed" in line for line in actions[-1]["report"])
    # A declaration the window does not allow is a 400 that says what it allows.
    bad = act(as_alice, session, {**declaration, "effects": [{"summon": "danger"}]})
    assert bad.status_code == 400


def play_to_the_end(session_id: str, users: dict[str, Any], seed: int = 1) -> None:
    rng = random.Random(seed)
    clients = {name: client_for(user) for name, user in users.items()}
    for _ in range(3000):
        session = GameSession.objects.get(pk=session_id)
        if session.status != "playing":
            return
        pending = session.state["pending"]
        user = {p.player: p.user.username for p in session.players.select_related("user")}
        if pending.get("select"):
            player = pending["players"][0]
            action = {"type": "select", "cards": rng.sample(pending["select"]["cards"], pending["select"]["count"])}
        else:
            entry = rng.choice(pending["options"])
            player, action = entry["player"], complete(entry, rng)
        response = clients[user[player]].post(
            reverse("api:play-actions", args=[session_id]),
            {"version": session.version, "action": action},
            format="json",
        )
        assert response.status_code == 201, (action, response.json())
    raise AssertionError("the scenario did not end")


def test_finishing_writes_the_result_to_the_party_log_once(alice, bob, party):
    session_id = start(client_for(alice), party, **with_facts(party)).json()["id"]
    early = client_for(alice).post(reverse("api:play-finish", args=[session_id]))
    assert early.status_code == 409 and "still being played" in early.json()["error"]["message"]
    play_to_the_end(session_id, {"alice": alice, "bob": bob})
    session = GameSession.objects.get(pk=session_id)
    assert (
        client_for(UserFactory(username="carol")).post(reverse("api:play-finish", args=[session_id])).status_code == 404
    )
    # The campaign rules decide who may log a scenario: the party's owner.
    assert client_for(bob).post(reverse("api:play-finish", args=[session_id])).status_code == 403
    before = client_for(alice).get(reverse("api:play-session", args=[session_id]))
    finished = client_for(alice).post(reverse("api:play-finish", args=[session_id]))
    assert finished.status_code == 201, finished.json()
    # A table that asks again with its ETag learns that the result is now in the log.
    after = client_for(alice).get(reverse("api:play-session", args=[session_id]), HTTP_IF_NONE_MATCH=before["ETag"])
    assert after.status_code == 200 and after.json()["session"]["logged"] == finished.json()["seq"]
    entry = finished.json()
    assert entry["kind"] == "scenario_played"
    assert entry["data"]["won"] == (session.status == "won") and entry["data"]["mode"] == "normal"
    dead = [name for name, sheet in session.state["characters"].items() if not sheet["alive"]]
    assert sorted(entry["data"]["died"]) == sorted(int(ids(party)[name]) for name in dead)
    log = client_for(alice).get(reverse("api:parties-log", args=[party])).json()["results"]
    assert (log[-1]["seq"], log[-1]["kind"]) == (entry["seq"], "scenario_played")
    state = party_state(Party.objects.get(pk=party))
    assert {c.card for c in state.characters.values() if c.status == "dead"} == {f"core.{name}" for name in dead}
    again = client_for(alice).post(reverse("api:play-finish", args=[session_id]))
    assert again.status_code == 409 and f"entry #{entry['seq']}" in again.json()["error"]["message"]


def test_the_lobby_asks_for_the_missing_facts_then_opens_the_table(alice, party, client):
    client.force_login(alice)
    page = client.get(reverse("play:lobby"))
    assert b"Play with a party" in page.content and b"Sandpoint" in page.content
    asked = client.post(reverse("play:lobby"), {"party": str(party), "scenario": "sandbox.the-patrol"})
    assert asked.status_code == 200 and b"what the card database does not know" in asked.content
    characters = ids(party)
    unread = client.post(
        reverse("play:lobby"),
        {
            "party": str(party),
            "scenario": "sandbox.the-patrol",
            f"facts-{characters['amiri']}-skills": "Strength d12, Melee +2",  # as a player may type it
            f"facts-{characters['amiri']}-favored": "weapon",
            f"facts-{characters['sajan']}-skills": "Dexterity d8",
        },
    )
    assert "Melee: cannot read '+2': write a die ('d8') or a base skill ('Intelligence +2')" in unescape(
        unread.content.decode()
    )
    assert not GameSession.objects.exists()
    answered = client.post(
        reverse("play:lobby"),
        {
            "party": str(party),
            "scenario": "sandbox.the-patrol",
            f"facts-{characters['amiri']}-skills": AMIRI["skills"],
            f"facts-{characters['amiri']}-favored": "weapon",
            f"facts-{characters['sajan']}-skills": "Dexterity d8, Acrobatics: Dexterity +2, Wisdom d10",
        },
    )
    session = GameSession.objects.get()
    assert answered.status_code == 302 and answered["Location"] == session.get_absolute_url()
    table = client.get(answered["Location"])
    assert table.status_code == 200 and b"The Patrol" in table.content
