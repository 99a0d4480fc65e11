"""Proof the contract is usable: a typed Python client generated from /api/schema/ by
openapi-python-client searches cards, starts a party with a character, and plays a few actions
against a live server, getting typed models back, errors included."""

from __future__ import annotations

import importlib
import json
import subprocess
import sys
import urllib.request
from pathlib import Path

import pytest
from rest_framework.authtoken.models import Token

from .factories import UserFactory

GENERATOR = Path(sys.executable).with_name("openapi-python-client")


@pytest.fixture
def generated(live_server, tmp_path):  # type: ignore[no-untyped-def]
    with urllib.request.urlopen(f"{live_server.url}/api/schema/?format=json") as response:
        (tmp_path / "schema.json").write_bytes(response.read())
    (tmp_path / "config.yaml").write_text("post_hooks: []\npackage_name_override: pacg_client\n")
    run = subprocess.run(
        [
            str(GENERATOR),
            "generate",
            "--path",
            str(tmp_path / "schema.json"),
            "--config",
            str(tmp_path / "config.yaml"),
            "--meta",
            "none",
            "--output-path",
            str(tmp_path / "pacg_client"),
        ],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert run.returncode == 0, run.stdout + run.stderr
    assert "Warning" not in run.stdout + run.stderr, run.stdout + run.stderr
    sys.path.insert(0, str(tmp_path))
    yield lambda name: importlib.import_module(f"pacg_client.{name}")
    sys.path.remove(str(tmp_path))
    for module in [m for m in sys.modules if m == "pacg_client" or m.startswith("pacg_client.")]:
        del sys.modules[module]


@pytest.mark.django_db(transaction=True)
def test_a_generated_client_searches_builds_a_party_and_plays(live_server, bundled_cards, generated):  # type: ignore[no-untyped-def]
    client_module, models = generated("client"), generated("models")
    api = lambda operation: generated(f"api.{operation.split('_')[0]}.{operation}")  # noqa: E731
    anonymous = client_module.Client(base_url=live_server.url, raise_on_unexpected_status=True)

    page = api("cards_search").sync(client=anonymous, q="name:ezren set:core")
    assert isinstance(page, models.CardPage)
    assert [card.name for card in page.results] == ["Ezren"]
    refused = api("cards_search").sync(client=anonymous, q="level>>")
    assert isinstance(refused, models.Error) and refused.error.code == "invalid_query"

    user = UserFactory(username="companion")
    token = Token.objects.create(user=user).key
    client = client_module.AuthenticatedClient(
        base_url=live_server.url, token=token, prefix="Token", raise_on_unexpected_status=True
    )
    party = api("parties_create").sync(
        client=client,
        body=models.PartyInput(
            name="Sandpoint", game=models.Game.PACG, ruleset=models.PartyRuleset.CORE_2019, products=["core"]
        ),
    )
    assert isinstance(party, models.Party), party
    assert party.owner == "companion" and party.products == ["core"]
    ezren = api("parties_characters_create").sync(
        party.id, client=client, body=models.CharacterInput(card="core.ezren", quick_start=True)
    )
    assert isinstance(ezren, models.Character) and ezren.name == "Ezren"
    assert sum(ezren.deck.additional_properties.values()) == 15
    listed = api("parties_list").sync(client=client)
    assert listed.count == 1 and listed.results[0].name == "Sandpoint"

    session = api("play_sessions_create").sync(
        client=client, body=models.SessionInput(scenario=models.SessionInputScenarioEnum("sandbox.the-warlock"))
    )
    assert session.status == "playing"
    played = 0
    version = session.version
    while played < 3:
        pending = api("play_pending_get").sync(session.id, client=client)
        option = pending.pending.options[0]
        answer = api("play_actions_create").sync_detailed(
            session.id,
            client=client,
            body=models.ActionInput(
                version=version, action=models.ActionInputAction.from_dict(option.action.to_dict())
            ),
        )
        assert answer.status_code == 201, answer.content
        version = json.loads(answer.content)["version"]
        played += 1
    events = api("play_events_list").sync(session.id, client=client)
    assert [action.number for action in events.actions] == [1, 2, 3]
    stale = api("play_actions_create").sync(
        session.id, client=client, body=models.ActionInput(version=0, action=models.ActionInputAction())
    )
    assert isinstance(stale, models.Error) and stale.error.code in {"conflict", "stale_version"}
