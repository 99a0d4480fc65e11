"""A party plays a scenario card of the database: the scenario gives the story banes, the players
choose what the data lacks (the locations, the cards of a location without a deck list), and every
choice is checked against the card database and the party's vault."""

from __future__ import annotations

import random
from typing import Any

import pytest
from django.urls import reverse

from play.engine.policy import complete
from play.models import GameSession

from ..factories import client_for
from .test_party_sessions import AMIRI, alice, bob, ids, party, with_facts  # noqa: F401 (fixtures)

pytestmark = pytest.mark.django_db


def start(client: Any, party: int, scenario: str, **extra: Any) -> Any:  # noqa: F811
    return client.post(
        reverse("api:play-sessions"),
        {"scenario": scenario, "party": party, **with_facts(party), **extra},
        format="json",
    )


def deal(listing: dict[str, Any], *, skip: tuple[str, ...] = ("blessing",)) -> dict[str, list[str]]:
    """As many of the vault's cards as each location needs, never more copies than the vault
    holds, leaving the blessings to the hourglass."""
    copies = [
        card["uid"]
        for kind, cards in listing["vault"].items()
        if kind not in skip
        for card in cards
        for _ in range(card["copies"])
    ]
    decks = {}
    for location, wanted in listing["locations"].items():
        decks[location], copies = copies[: wanted["cards"]], copies[wanted["cards"] :]
    return decks


def locations_of(error: dict[str, Any], count: int) -> list[str]:
    return [location["uid"] for location in error["details"]["available"][:count]]


def test_a_core_scenario_asks_for_its_locations_then_their_cards_then_sets_out_its_story_banes(
    alice,  # noqa: F811
    bob,  # noqa: F811
    party,  # noqa: F811
):
    as_alice = client_for(alice)
    asked = start(as_alice, party, "core.the-blood-vow")
    assert asked.status_code == 400, asked.json()
    error = asked.json()["error"]
    assert error["code"] == "locations_needed"
    assert "choose 3 location cards for 2 characters" in error["message"]
    assert error["details"]["count"] == 3
    names = [location["name"] for location in error["details"]["available"]]
    assert "Ruin" in names and "Laboratory" in names and "Ruin" in error["message"]
    chosen = locations_of(error, 3)

    decks_asked = start(as_alice, party, "core.the-blood-vow", locations=chosen)
    assert decks_asked.status_code == 400, decks_asked.json()
    error = decks_asked.json()["error"]
    assert error["code"] == "location_decks_needed"
    listing = error["details"]
    assert set(listing["locations"]) == set(chosen)
    assert all(wanted["cards"] == 9 and wanted["size"] == "medium" for wanted in listing["locations"].values())
    assert "Play It Your Way" in listing["rule"]
    assert {"weapon", "monster", "blessing"} <= set(listing["vault"])
    assert all({"uid", "name", "copies"} <= set(card) for card in listing["vault"]["weapon"])
    assert listing["locations"][chosen[0]]["name"] in error["message"]
    assert GameSession.objects.count() == 0

    decks = deal(listing)
    response = start(as_alice, party, "core.the-blood-vow", locations=chosen, location_decks=decks)
    assert response.status_code == 201, response.json()
    session = GameSession.objects.get(pk=response.json()["id"])
    state = session.state
    assert state["scenario"]["name"] == "The Blood Vow"
    assert state["location_order"] == chosen
    assert state["scenario"]["villains"] == ["core.kobold-sorceror"]
    assert state["story_banes"]["core.kobold-sorceror"]["role"] == "villain"
    assert state["story_banes"]["core.kobold-champion"]["role"] == "henchman"
    # 3 locations: the stack is the villain and the first two henchmen; each location holds its
    # 9 chosen cards and one story bane.
    for location in chosen:
        held = sorted(state["cards"][card] for card in state["locations"][location]["cards"])
        assert len(held) == 10
        assert sorted(set(held) - {"core.kobold-sorceror", "core.kobold-champion", "core.inferno-trap"}) == sorted(
            set(decks[location])
        )
    dealt = [state["cards"][c] for place in state["locations"].values() for c in place["cards"]]
    assert {"core.kobold-sorceror", "core.kobold-champion", "core.inferno-trap"} <= set(dealt)

    # The session plays: the players answer the pending decisions through the API.
    clients = {"alice": as_alice, "bob": client_for(bob)}
    rng = random.Random(1)
    for _ in range(6):
        session = GameSession.objects.get(pk=session.pk)
        if session.status != "playing":
            break
        pending = session.state["pending"]
        user = {p.player: p.user.username for p in session.players.select_related("user")}
        if pending.get("select"):
            player = pending["players"][0]
            action = {"type": "select", "cards": pending["select"]["cards"][: pending["select"]["count"]]}
        else:
            option = next((o for o in pending["options"] if not o.get("declare")), pending["options"][0])
            player, action = option["player"], complete(option, rng)
        answered = clients[user[player]].post(
            reverse("api:play-actions", args=[session.pk]),
            {"version": session.version, "action": action},
            format="json",
        )
        assert answered.status_code == 201, (action, answered.json())


def test_a_scenario_without_villains_uses_its_henchmen_and_sets_aside_its_danger(alice, party):  # noqa: F811
    as_alice = client_for(alice)
    asked = start(as_alice, party, "core.plans-gone-wrong").json()["error"]
    chosen = locations_of(asked, asked["details"]["count"])
    listing = start(as_alice, party, "core.plans-gone-wrong", locations=chosen).json()["error"]["details"]
    response = start(as_alice, party, "core.plans-gone-wrong", locations=chosen, location_decks=deal(listing))
    assert response.status_code == 201, response.json()
    state = GameSession.objects.get(pk=response.json()["id"]).state
    assert state["scenario"]["villains"] == []
    assert state["story_banes"]["core.clockwork-guardian"] == {"role": "henchman", "closing": True}
    assert [state["cards"][card] for card in state["table"]["dangers"]] == ["core.collapse"]
    dealt = {state["cards"][c] for place in state["locations"].values() for c in place["cards"]}
    assert {"core.kobold-champion", "core.diabolical-imp", "core.clockwork-guardian"} <= dealt


def test_bad_choices_are_refused_by_name_and_no_session_is_created(alice, party):  # noqa: F811
    as_alice = client_for(alice)
    asked = start(as_alice, party, "core.the-blood-vow").json()["error"]
    chosen = locations_of(asked, 3)

    nowhere = start(as_alice, party, "core.the-blood-vow", locations=[*chosen[:2], "core.nowhere"])
    assert nowhere.status_code == 400 and "'core.nowhere' is not a location card" in nowhere.json()["error"]["message"]
    character = start(as_alice, party, "core.the-blood-vow", locations=[*chosen[:2], "core.amiri"])
    assert "'core.amiri' is not a location card" in character.json()["error"]["message"]
    few = start(as_alice, party, "core.the-blood-vow", locations=chosen[:2])
    assert few.status_code == 400 and "uses 3 locations; 2 chosen" in few.json()["error"]["message"]
    twice = start(as_alice, party, "core.the-blood-vow", locations=[chosen[0], chosen[0], chosen[1]])
    assert twice.status_code == 400 and "is chosen twice" in twice.json()["error"]["message"]

    listing = start(as_alice, party, "core.the-blood-vow", locations=chosen).json()["error"]["details"]
    decks = deal(listing)
    first, second = chosen[0], chosen[1]
    first_name = listing["locations"][first]["name"]

    not_in_vault = {**decks, first: [*decks[first][:8], "core.amiri"]}
    refused = start(as_alice, party, "core.the-blood-vow", locations=chosen, location_decks=not_in_vault)
    assert refused.status_code == 400
    assert refused.json()["error"]["message"] == f"{first_name}: Amiri is not in the party's vault"

    # One copy more than the vault holds (the quick-started decks took some of the Core copies).
    weapon = listing["vault"]["weapon"][0]
    held = weapon["copies"]
    overused = {
        **decks,
        first: [weapon["uid"]] * held + decks[first][held:],
        second: [weapon["uid"], *decks[second][1:]],
    }
    refused = start(as_alice, party, "core.the-blood-vow", locations=chosen, location_decks=overused)
    assert refused.status_code == 400
    message = refused.json()["error"]["message"]
    second_name = listing["locations"][second]["name"]
    assert f"{weapon['name']} is chosen {held + 1} times ({first_name}, {second_name})" in message
    assert f"vault holds {held} cop" in message

    short = {**decks, first: decks[first][:5]}
    refused = start(as_alice, party, "core.the-blood-vow", locations=chosen, location_decks=short)
    assert f"{first_name} takes 9 cards (medium); 5 chosen" in refused.json()["error"]["message"]

    elsewhere = {**decks, "core.nowhere": decks[first]}
    refused = start(as_alice, party, "core.the-blood-vow", locations=chosen, location_decks=elsewhere)
    assert refused.status_code == 400 and "core.nowhere" in refused.json()["error"]["message"]
    assert GameSession.objects.count() == 0


def test_a_scenario_whose_story_banes_the_data_lacks_says_so(alice, party):  # noqa: F811
    response = start(client_for(alice), party, "core.rumble-road")
    assert response.status_code == 400
    error = response.json()["error"]
    assert error["code"] == "scenario_incomplete"
    assert "Rumble Road's villains or henchmen" in error["message"]
    assert GameSession.objects.count() == 0


def test_a_database_scenario_needs_a_party(alice):  # noqa: F811
    response = client_for(alice).post(reverse("api:play-sessions"), {"scenario": "core.the-blood-vow"}, format="json")
    assert response.status_code == 400 and "played by a party" in response.json()["error"]["message"]
    unknown = client_for(alice).post(reverse("api:play-sessions"), {"scenario": "core.nowhere"}, format="json")
    assert unknown.status_code == 400


def test_the_lobby_lists_the_database_scenarios_by_name_and_asks_for_each_choice(alice, party, client):  # noqa: F811
    client.force_login(alice)
    page = client.get(reverse("play:lobby"))
    assert b"Rumble Road" in page.content and b"The Blood Vow" in page.content
    characters = ids(party)
    facts = {
        f"facts-{characters['amiri']}-skills": AMIRI["skills"],
        f"facts-{characters['amiri']}-favored": "weapon",
        f"facts-{characters['sajan']}-skills": "Dexterity d8, Acrobatics: Dexterity +2, Wisdom d10",
    }
    form = {"party": str(party), "scenario": "core.the-blood-vow", **facts}
    asked = client.post(reverse("play:lobby"), form)
    assert asked.status_code == 200 and b"choose the locations" in asked.content
    assert b'name="locations" value="core.ruin"' in asked.content
    # The facts entered at the first step travel with the form.
    assert f'name="facts-{next(iter(with_facts(party)["facts"]))}-skills"'.encode() in asked.content
    chosen = ["core.ruin", "core.laboratory", "core.oubliette"]
    decks_asked = client.post(reverse("play:lobby"), {**form, "locations": chosen})
    assert decks_asked.status_code == 200 and b"choose the cards of the locations" in decks_asked.content
    assert b'name="decks-core.ruin"' in decks_asked.content and b"<optgroup" in decks_asked.content
    listing = start(client_for(alice), party, "core.the-blood-vow", locations=chosen).json()["error"]["details"]
    # The lobby's multi-select sends each card once per location: pick distinct cards.
    distinct = [card["uid"] for cards in listing["vault"].values() for card in cards]
    decks = {f"decks-{location}": distinct[n * 9 : n * 9 + 9] for n, location in enumerate(chosen)}
    answered = client.post(reverse("play:lobby"), {**form, "locations": chosen, **decks})
    session = GameSession.objects.get()
    assert answered.status_code == 302 and answered["Location"] == session.get_absolute_url()
    assert client.get(answered["Location"]).status_code == 200
    # The lobby lists the game with its rules by name, as it offers the party.
    listed = client.get(reverse("play:lobby")).content.decode()
    assert "Core Set 2019 · playing" in listed and "(Core Set 2019)</option>" in listed
    assert "core-2019 ·" not in listed


def test_a_location_with_a_deck_list_is_built_from_the_vault_and_only_the_others_are_chosen(alice, party):  # noqa: F811
    as_alice = client_for(alice)
    chosen = ["core.ruin", "core.laboratory", "sandbox.village"]
    error = start(as_alice, party, "core.the-blood-vow", locations=chosen).json()["error"]
    assert error["code"] == "location_decks_needed"
    assert set(error["details"]["locations"]) == {"core.ruin", "core.laboratory"}
    decks = deal(error["details"])
    refused = start(
        as_alice,
        party,
        "core.the-blood-vow",
        locations=chosen,
        location_decks={**decks, "sandbox.village": decks["core.ruin"]},
    )
    assert refused.status_code == 400
    assert refused.json()["error"]["message"] == "Village is built from its deck list; do not choose its cards"
    response = start(as_alice, party, "core.the-blood-vow", locations=chosen, location_decks=decks)
    assert response.status_code == 201, response.json()
    state = GameSession.objects.get(pk=response.json()["id"]).state
    village = [state["cards"][card] for card in state["locations"]["sandbox.village"]["cards"]]
    # The Village's medium deck list takes 9 cards of the party's (Core) vault, plus a story bane.
    assert len(village) == 10 and all(uid.startswith("core.") for uid in village)
