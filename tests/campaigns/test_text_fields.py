"""Names and notes are stored trimmed and without control characters: a refusal says which
character, where, and stores nothing."""

from __future__ import annotations

import pytest
from django.urls import reverse

from campaigns.models import Character, Party

from ..factories import UserFactory, client_for

pytestmark = pytest.mark.django_db


def create(user, name: str, notes: str = ""):  # type: ignore[no-untyped-def]
    body = {"name": name, "game": "pacg", "ruleset": "core-2019", "notes": notes}
    return client_for(user).post(reverse("api:parties-list"), body, format="json")


def test_a_party_name_is_trimmed_and_notes_keep_their_lines():
    response = create(UserFactory(), "  Sandpoint  ", "line one\nline two")
    assert response.status_code == 201
    party = Party.objects.get()
    assert party.name == "Sandpoint" and party.notes == "line one\nline two"


@pytest.mark.parametrize("name", ["Sand\x7fpoint", "Sand\x1bpoint", "Sand\u0085point", "Sand\npoint"])
def test_control_characters_in_a_name_are_refused_by_position(name):
    response = create(UserFactory(), name)
    assert response.status_code == 400
    error = response.json()["error"]
    assert "name" in error["message"] and "control character" in error["message"]
    assert "at position 5" in error["message"] and "name" in str(error["details"])
    assert not Party.objects.exists()


def test_renames_and_player_names_are_checked_too():
    alice = UserFactory(username="alice")
    party_id = create(alice, "Sandpoint").json()["id"]
    renamed = client_for(alice).patch(
        reverse("api:parties-detail", args=[party_id]), {"name": "Bad\x07"}, format="json"
    )
    assert renamed.status_code == 400 and Party.objects.get().name == "Sandpoint"
    added = client_for(alice).post(
        reverse("api:parties-characters", args=[party_id]),
        {"card": "core.ezren", "player_name": "Al\x08ice"},
        format="json",
    )
    assert added.status_code == 400 and "player_name" in added.json()["error"]["message"]
    assert not Character.objects.exists()
