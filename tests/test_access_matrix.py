"""The access-control matrix, generated from the URLconf: every party, character and game
session endpoint x every method its view answers x (owner, member, other user, anonymous),
each with its exact status. A new endpoint under those prefixes fails the coverage test until
its row is written here, so no URL escapes the check.

The writes send an empty body: a status of 400 means the request got past access control to
validation (and changed nothing), which is what the owner and members should see; strangers
must be told nothing exists (404), and a member who may not do an owner's thing gets 403."""

from __future__ import annotations

import pytest
from django.urls import URLPattern, reverse

from campaigns.services import character_create, member_invite, party_create
from pacg_site.urls import api_patterns
from play.services import session_create
from play.simulations import simulation_start

from .factories import UserFactory, client_for

pytestmark = pytest.mark.django_db

PROTECTED = ("<int:party_id>", "<int:character_id>", "<str:session_id>", "<str:simulation_id>")
# The lists and creations of parties and sessions: what each user gets is their own.
OWN_LISTS = ("parties-list", "parties-import", "play-sessions")
ROLES = ("owner", "member", "other", "anonymous")
METHODS = ("get", "post", "put", "patch", "delete")

# name -> method -> status for (owner, member, other, anonymous). The session is played by the
# member alone: the party's owner is not one of its players, so it is as hidden from them as
# from a stranger. Anonymous lists get DRF's 403 (session authentication sends no challenge).
STRANGER = (404, 404)
EXPECTED: dict[str, dict[str, tuple[int, ...]]] = {
    "parties-list": {"get": (200, 200, 200, 403), "post": (400, 400, 400, 403)},
    "parties-import": {"post": (400, 400, 400, 403)},
    "parties-detail": {"get": (200, 200, *STRANGER), "patch": (200, 403, *STRANGER)},
    "parties-members": {"post": (400, 400, *STRANGER)},
    "parties-characters": {"get": (200, 200, *STRANGER), "post": (400, 400, *STRANGER)},
    "parties-log": {"get": (200, 200, *STRANGER), "post": (400, 400, *STRANGER)},
    "parties-revert": {"post": (400, 403, *STRANGER)},
    "parties-vault": {"get": (200, 200, *STRANGER)},
    "parties-export": {"get": (200, 200, *STRANGER)},
    "characters-detail": {"get": (200, 200, *STRANGER)},
    "characters-deck": {"get": (200, 200, *STRANGER), "put": (400, 400, *STRANGER)},
    "play-sessions": {"get": (200, 200, 200, 403), "post": (400, 400, 400, 403)},
    "play-session": {"get": (404, 200, *STRANGER)},
    "play-finish": {"post": (404, 400, *STRANGER)},
    "play-pending": {"get": (404, 200, *STRANGER)},
    "play-actions": {"post": (404, 400, *STRANGER)},
    "play-preview": {"post": (404, 400, *STRANGER)},
    "play-events": {"get": (404, 200, *STRANGER)},
    "parties-simulations": {"post": (400, 400, *STRANGER)},
    "simulation": {"get": (200, 200, *STRANGER)},
    "simulation-cancel": {"post": (200, 200, *STRANGER)},
}
CASES = [(name, method, role) for name, methods in EXPECTED.items() for method in methods for role in ROLES]


def protected_endpoints() -> list[tuple[str, str]]:
    found = []
    for pattern in api_patterns:
        assert isinstance(pattern, URLPattern)
        if pattern.name in OWN_LISTS or any(part in str(pattern.pattern) for part in PROTECTED):
            view = pattern.callback.view_class  # type: ignore[attr-defined]
            found += [(pattern.name, method) for method in METHODS if hasattr(view, method)]
    return found


@pytest.fixture
def table():  # type: ignore[no-untyped-def]
    owner, member, other = UserFactory(username="olivia"), UserFactory(username="max"), UserFactory(username="oscar")
    party = party_create(owner=owner, name="Sandpoint", game="pacg", ruleset="core-2019", products=["core"])
    member_invite(party=party, by=owner, username="max")
    character = character_create(party=party, by=member, card="core.valeros", quick_start=True)
    session = session_create(by=owner, scenario="sandbox.the-patrol", characters=["sandbox.valor"], players=["max"])
    facts = {"skills": "Strength d10, Dexterity d8, Constitution d6, Intelligence d4, Wisdom d6, Charisma d6"}
    facts |= {"hand_size": 4, "favored": "weapon"}
    simulation, _ = simulation_start(
        by=member, party=party.pk, scenario="sandbox.the-patrol", games=5, facts={str(character.pk): facts}
    )  # still running: its chunks are sent on commit, which a test's transaction never does
    users = {"owner": owner, "member": member, "other": other, "anonymous": None}
    kwargs = {"party_id": party.pk, "character_id": character.pk, "session_id": str(session.pk), "seq": 1}
    kwargs["simulation_id"] = str(simulation.pk)
    return users, kwargs, party, session


def url_for(name: str, kwargs: dict[str, object]) -> str:
    pattern = next(p for p in api_patterns if p.name == name)
    wanted = {key: value for key, value in kwargs.items() if f":{key}>" in str(pattern.pattern)}
    return reverse(f"api:{name}", kwargs=wanted)


def test_every_party_character_and_session_endpoint_is_in_the_matrix():
    written = {(name, method) for name, methods in EXPECTED.items() for method in methods}
    assert set(protected_endpoints()) == written


@pytest.mark.parametrize(("name", "method", "role"), CASES, ids=["-".join(case) for case in CASES])
def test_access(table, name, method, role):  # type: ignore[no-untyped-def]
    users, kwargs, party, session = table
    before = (party.log.count(), session.actions.count())
    response = getattr(client_for(users[role]), method)(url_for(name, kwargs), {}, format="json")
    assert response.status_code == EXPECTED[name][method][ROLES.index(role)], response.content[:300]
    if response.status_code >= 400:
        assert "error" in response.json() or "detail" in response.json()
        assert (party.log.count(), session.actions.count()) == before  # a refusal changes nothing


def test_lists_show_each_user_only_their_own(table):  # type: ignore[no-untyped-def]
    users, _, party, session = table

    def names(role: str) -> str:
        return str(client_for(users[role]).get(reverse("api:parties-list")).json())

    assert "Sandpoint" in names("owner") and "Sandpoint" in names("member") and "Sandpoint" not in names("other")
    listed = {role: str(client_for(users[role]).get(reverse("api:play-sessions")).json()) for role in ROLES[:3]}
    assert str(session.pk) in listed["member"]
    assert str(session.pk) not in listed["owner"] and str(session.pk) not in listed["other"]
