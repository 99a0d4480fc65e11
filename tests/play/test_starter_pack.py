"""The sandbox the engine plays (play/data/sandbox.yaml) is the starter pack the card database
publishes (cards/data/sandbox.yaml): a player who looks a card up sees the card they are playing."""

from collections import Counter

import yaml

from cards.dataformat import load_files
from play.engine.cards import DATA_DIR
from play.engine.sandbox import CHARACTERS
from tests.conftest import CARD_DATA

ATTRIBUTES = ("Strength", "Dexterity", "Constitution", "Intelligence", "Wisdom", "Charisma")


def documents():
    engine = yaml.safe_load((DATA_DIR / "sandbox.yaml").read_text(encoding="utf-8"))
    files, errors = load_files([CARD_DATA / "sandbox.yaml"])
    assert not errors
    return engine, {card["id"]: card for card in files[0].cards}


def test_every_engine_card_is_published_with_its_name_and_type():
    engine, published = documents()
    for uid, card in engine["cards"].items():
        record = published[uid.removeprefix("sandbox.")]
        assert (record["name"], record["type"]) == (card["name"], card["type"]), uid


def test_characters_follow_the_make_your_own_cards_guidelines_and_match_the_engine():
    engine, published = documents()
    for uid in CHARACTERS:
        record = published[uid.removeprefix("sandbox.")]
        dice = {entry["skill"]: entry["die"] for entry in record["data"]["skills"] if "die" in entry}
        assert list(dice) == list(ATTRIBUTES), uid
        assert sum(int(die[1:]) for die in dice.values()) == 42 and list(dice.values()).count("d12") <= 1, uid
        assert {a: engine["cards"][uid]["skills"][a] for a in ATTRIBUTES} == dice, uid
        skill_feats = sum(len(entry.get("feats", [])) for entry in record["data"]["skills"])
        assert skill_feats == 15, uid
        deck = Counter(engine["cards"][card]["name"] for card in engine["decks"][uid])
        suggested = record["data"]["suggested_deck"]
        assert deck == Counter(name for names in suggested.values() for name in names), uid
        assert sum(deck.values()) == 15, uid
