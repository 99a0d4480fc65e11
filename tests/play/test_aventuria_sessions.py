"""Aventuria combats through the play API and pages: only their players see and answer them."""

from __future__ import annotations

import pytest
from django.urls import reverse
from rest_framework.test import APIClient

from play.engine.aventuria.policy import sensible_action
from play.models import GameSession

from ..factories import UserFactory

pytestmark = pytest.mark.django_db

COMBAT = {"game": "aventuria", "scenario": "aventuria.kobold-warren"}


def client_for(user) -> APIClient:  # type: ignore[no-untyped-def]
    client = APIClient()
    client.force_authenticate(user)
    return client


@pytest.fixture
def ana():  # type: ignore[no-untyped-def]
    return UserFactory(username="ana")


def start(client: APIClient, **extra) -> dict:  # type: ignore[no-untyped-def,type-arg]
    response = client.post(reverse("api:play-sessions"), COMBAT | extra, format="json")
    assert response.status_code == 201, response.json()
    return response.json()


def test_a_combat_is_set_up_with_the_chosen_heroes_and_shows_them_by_name(ana):
    client = client_for(ana)
    session = start(client, characters=["archer", "hedge-mage", "healer"])
    assert session["ruleset"] == "aventuria" and session["players"] == {f"player{n}": "ana" for n in (1, 2, 3)}
    shown = client.get(reverse("api:play-session", args=[session["id"]])).json()
    assert shown["game"] == "aventuria" and [h["name"] for h in shown["heroes"]] == ["Archer", "Hedge Mage", "Healer"]
    assert all(isinstance(hero["hand"], list) and len(hero["hand"]) == 5 for hero in shown["heroes"])  # ana plays all
    assert shown["opponents"][0] == {
        "id": "kobold-chief",
        "name": "Kobold Chief",
        "kind": "leader",
        "life": 18,  # 6 a hero
        "max_life": 18,
        "dodge": 6,
        "armor": 1,
        "actions": 3,  # one a hero
    }
    assert shown["pending"]["kind"] == "fox_hand" and "seed" not in str(shown)


def test_each_player_answers_for_their_own_hero_and_sees_only_their_own_hand(ana):
    ben, eve = UserFactory(username="ben"), UserFactory(username="eve")
    session = start(client_for(ana), players=["ana", "ben"])
    url = reverse("api:play-actions", args=[session["id"]])
    keep = {"version": 0, "action": {"type": "fox_hand", "cards": []}}
    refused = client_for(ben).post(url, keep, format="json")
    assert refused.status_code == 403 and "Sellsword's decision" in refused.json()["error"]["message"]
    assert client_for(eve).get(reverse("api:play-session", args=[session["id"]])).status_code == 404
    assert client_for(eve).post(url, keep, format="json").status_code == 404
    assert client_for(ana).post(url, keep, format="json").status_code == 201
    stale = client_for(ben).post(url, keep, format="json")
    assert stale.status_code == 409 and "version 1" in stale.json()["error"]["message"]
    seen = client_for(ben).get(reverse("api:play-session", args=[session["id"]])).json()
    assert isinstance(seen["heroes"][0]["hand"], int) and isinstance(seen["heroes"][1]["hand"], list)
    assert seen["pending"]["kind"] == "fox_hand" and seen["pending"]["hero"] == "archer"


@pytest.mark.parametrize(
    ("body", "complaint"),
    [
        ({"game": "aventuria", "scenario": "sandbox.the-patrol"}, "an Aventuria session plays The Kobold Warren"),
        ({"scenario": "aventuria.kobold-warren"}, "a PACG scenario is played with game pacg"),
        (COMBAT | {"characters": ["valeros"]}, "choose 1 to 4 different heroes of sellsword, archer"),
        (COMBAT | {"players": ["nobody", "ana"]}, "no user is called 'nobody'"),
    ],
)
def test_a_combat_that_cannot_be_set_up_says_why_and_stores_nothing(ana, body, complaint):
    response = client_for(ana).post(reverse("api:play-sessions"), body, format="json")
    assert response.status_code == 400 and complaint in response.json()["error"]["message"]
    assert not GameSession.objects.exists()


def test_a_whole_combat_is_played_through_the_api_with_a_report_in_words(ana):
    client = client_for(ana)
    session = start(client, characters=["sellsword", "archer", "healer"])
    session_url = reverse("api:play-session", args=[session["id"]])
    for _ in range(2000):
        stored = GameSession.objects.get()
        if stored.status != "playing":
            break
        player, action = sensible_action(stored.state)
        response = client.post(
            reverse("api:play-actions", args=[session["id"]]),
            {"version": stored.version, "action": action},
            format="json",
        )
        assert response.status_code == 201, response.json()
    shown = client.get(session_url).json()
    assert shown["status"] in ("won", "lost") and shown["pending"] is None
    log = client.get(reverse("api:play-events", args=[session["id"]])).json()["actions"]
    report = [line for action in log for line in action["report"]]
    assert any(line.startswith("Sellsword attacks ") for line in report)
    assert report[-1] in ("The heroes win the combat.", "The heroes are defeated.")
    assert all("shuffle" not in str(action["events"]) for action in log)  # no deck order leaks
    finish = client.post(reverse("api:play-finish", args=[session["id"]]))
    assert finish.status_code == 400 and "started from a party" in finish.json()["error"]["message"]


def test_the_lobby_starts_a_combat_and_the_table_page_shows_it(client, ana):
    client.force_login(ana)
    lobby = client.get(reverse("play:lobby")).content.decode()
    assert "Try an Aventuria combat" in lobby and "Hedge Mage" in lobby
    started = client.post(reverse("play:lobby"), {**COMBAT, "characters": ["sellsword", "healer"]})
    session = GameSession.objects.get()
    assert started.status_code == 302 and started["Location"] == session.get_absolute_url()
    table = client.get(started["Location"]).content.decode()
    assert "The Kobold Warren (homebrew)" in table and "combat-table.js" in table


STRONG = {"close_combat": 19, "ranged_combat": 8, "magic": None, "dodge": 19, "basic_attack": "2D6+6"}


@pytest.fixture
def party(ana):  # type: ignore[no-untyped-def]
    from campaigns.services import character_create, party_create

    party = party_create(owner=ana, name="Heroes of Wildenstein", game="aventuria", ruleset="aventuria")
    scout = character_create(party=party, by=ana, card="aventuria-chalices-of-power.elf-scout")
    mage = character_create(party=party, by=ana, card="aventuria-chalices-of-power.tulamydian-mage")
    return party, scout, mage


def play_out(client: APIClient, session_id: str) -> dict:  # type: ignore[type-arg]
    for _ in range(2000):
        stored = GameSession.objects.get(pk=session_id)
        if stored.status != "playing":
            break
        _, action = sensible_action(stored.state)
        response = client.post(
            reverse("api:play-actions", args=[session_id]), {"version": stored.version, "action": action}, format="json"
        )
        assert response.status_code == 201, response.json()
    return client.get(reverse("api:play-session", args=[session_id])).json()


def test_an_aventuria_party_asks_for_its_heroes_values_then_plays_and_logs_the_result(ana, party):
    from campaigns.selectors import party_state

    party, scout, mage = party
    client = client_for(ana)
    asked = client.post(reverse("api:play-sessions"), COMBAT | {"party": party.pk}, format="json")
    assert asked.status_code == 400 and asked.json()["error"]["code"] == "facts_needed"
    message = asked.json()["error"]["message"]
    assert "Elf Scout: close_combat, ranged_combat, magic, dodge, basic_attack" in message and '"dodge": 10' in message
    facts = {str(scout.pk): STRONG, str(mage.pk): STRONG | {"magic": 14}}
    session = start(client, party=party.pk, facts=facts)
    shown = play_out(client, session["id"])
    assert [h["name"] for h in shown["heroes"]] == ["Elf Scout", "Tulamydian Mage"] and shown["status"] == "won"
    finished = client.post(reverse("api:play-finish", args=[session["id"]]))
    assert finished.status_code == 201 and finished.json()["data"]["won"] is True
    state = party_state(party)
    assert state.characters[scout.pk].adventure_points == state.characters[mage.pk].adventure_points == 1
    again = client.post(reverse("api:play-finish", args=[session["id"]]))
    assert again.status_code == 409
    second = start(client, party=party.pk)  # the values entered are kept for the party's next combat
    assert second["party"] == party.pk


def test_a_party_combat_is_refused_to_strangers_and_to_pacg_parties(ana, party):
    from campaigns.services import party_create

    party, scout, _ = party
    stranger = client_for(UserFactory(username="eve"))
    assert stranger.post(reverse("api:play-sessions"), COMBAT | {"party": party.pk}, format="json").status_code == 404
    pacg = party_create(owner=ana, name="Sandpoint", game="pacg", ruleset="core-2019")
    refused = client_for(ana).post(reverse("api:play-sessions"), COMBAT | {"party": pacg.pk}, format="json")
    assert (
        refused.status_code == 400
        and "Sandpoint plays the Pathfinder Adventure Card Game" in refused.json()["error"]["message"]
    )
    bad = client_for(ana).post(
        reverse("api:play-sessions"),
        COMBAT | {"party": party.pk, "facts": {str(scout.pk): STRONG | {"dodge": 30}}},
        format="json",
    )
    assert (
        bad.status_code == 400
        and "Elf Scout's dodge must be a whole number from 0 to 20" in bad.json()["error"]["message"]
    )
    assert not GameSession.objects.exists()


def test_the_lobby_asks_an_aventuria_party_for_its_heroes_values_then_opens_the_table(client, ana, party):
    party, scout, mage = party
    client.force_login(ana)
    chosen = {**COMBAT, "party": str(party.pk), "characters": ["sellsword"]}  # the homebrew boxes, ticked
    asked = client.post(reverse("play:lobby"), chosen)
    page = asked.content.decode()
    assert asked.status_code == 200 and "what the card database does not know" in page
    assert f'name="facts-{scout.pk}-close_combat"' in page and f'name="facts-{mage.pk}-basic_attack"' in page
    values = {"close_combat": "12", "ranged_combat": "9", "magic": "—", "dodge": "10", "basic_attack": "1D6+1"}
    facts = {f"facts-{hero.pk}-{fact}": value for hero in (scout, mage) for fact, value in values.items()}
    started = client.post(reverse("play:lobby"), {**chosen, **facts})
    session = GameSession.objects.get()
    assert started.status_code == 302 and started["Location"] == session.get_absolute_url()
    assert [h["name"] for h in session.state["heroes"]] == ["Elf Scout", "Tulamydian Mage"]
    assert session.state["heroes"][0]["attributes"] == {
        "close_combat": 12,
        "ranged_combat": 9,
        "magic": None,
        "dodge": 10,
    }
