"""The starter pack is written once: the card data file (cards/data/sandbox.yaml) holds its cards,
facts and effects; the engine reads that file, the database reads it through the import, and
both give the engine the same definitions. A player who looks a card up sees the card they play."""

from collections import Counter

import pytest
import yaml

from cards.dataformat import load_files
from play.definitions import definitions_for
from play.engine.carddata import definition_from_record
from play.engine.sandbox import CARDS_FILE, CHARACTERS, sandbox_deck, sandbox_definitions
from tests.conftest import CARD_DATA

ATTRIBUTES = ("Strength", "Dexterity", "Constitution", "Intelligence", "Wisdom", "Charisma")


def published():
    files, errors = load_files([CARD_DATA / "sandbox.yaml"])
    assert not errors
    return {f"sandbox.{card['id']}": card for card in files[0].cards}


def test_the_engine_reads_its_cards_from_the_published_card_file():
    assert CARDS_FILE == CARD_DATA / "sandbox.yaml"
    records = published()
    definitions = sandbox_definitions()
    assert set(definitions) == set(records)
    for uid, definition in definitions.items():
        assert (definition["name"], definition["type"]) == (records[uid]["name"], records[uid]["type"]), uid
    # Every card of the pack is encoded: none is left to be declared, no check to be entered.
    assert not [uid for uid, d in definitions.items() if d.get("declare") or d.get("check_unknown")]


@pytest.mark.django_db
def test_the_database_gives_the_engine_the_same_definitions_as_the_file():
    file_definitions = sandbox_definitions()
    assert definitions_for(file_definitions) == file_definitions


def test_a_record_without_effects_is_declared_and_an_unreadable_check_is_entered():
    record = yaml.safe_load(CARDS_FILE.read_text(encoding="utf-8"))["cards"][0]
    bare = {key: value for key, value in record.items() if key != "effects"} | {"check": "Roll well 5"}
    definition = definition_from_record("sandbox.x", bare)
    assert definition["declare"] and definition["check_unknown"] and "check" not in definition
    assert {power["id"] for power in definition["powers"]} >= {"declare:check", "declare:turn"}


def test_characters_follow_the_make_your_own_cards_guidelines_and_match_the_engine():
    records, definitions = published(), sandbox_definitions()
    for uid in CHARACTERS:
        record = records[uid]
        dice = {entry["skill"]: entry["die"] for entry in record["data"]["skills"] if "die" in entry}
        assert list(dice) == list(ATTRIBUTES), uid
        assert sum(int(die[1:]) for die in dice.values()) == 42 and list(dice.values()).count("d12") <= 1, uid
        assert {a: definitions[uid]["skills"][a] for a in ATTRIBUTES} == dice, uid
        skill_feats = sum(len(entry.get("feats", [])) for entry in record["data"]["skills"])
        assert skill_feats == 15, uid
        deck = Counter(definitions[card]["name"] for card in sandbox_deck(uid))
        suggested = record["data"]["suggested_deck"]
        assert deck == Counter(name for names in suggested.values() for name in names), uid
        assert sum(deck.values()) == 15, uid
