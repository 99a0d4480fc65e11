"""The concept and conflict tables quote the books exactly and hang together."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
import yaml

from rules.concepts import concept_table
from rules.services import RULEBOOKS_DIR, read_manifest

RULES = Path(__file__).resolve().parents[2] / "rules"
BOOKS = {e["slug"]: (RULEBOOKS_DIR / e["file"]).read_text(encoding="utf-8") for e in read_manifest()}
CONCEPTS = yaml.safe_load((RULES / "concepts.yaml").read_text(encoding="utf-8"))
CONFLICTS = yaml.safe_load((RULES / "conflicts.yaml").read_text(encoding="utf-8"))


def in_book(book: str, text: str) -> bool:
    squeeze = lambda s: re.sub(r"\s+", " ", s.replace("\u00a0", " "))  # noqa: E731
    return squeeze(text) in squeeze(BOOKS[book])


def test_every_concept_source_is_quoted_from_its_book():
    missing = [
        (c["id"], s["book"], s["quote"][:60])
        for c in CONCEPTS
        for s in c["sources"]
        if not in_book(s["book"], s["quote"])
    ]
    assert missing == []


def test_concepts_are_unique_and_name_their_game():
    ids = [c["id"] for c in CONCEPTS]
    assert len(ids) == len(set(ids)) and len(ids) >= 80
    assert {c["game"] for c in CONCEPTS} == {"pacg", "aventuria"}


def test_every_conflict_side_quotes_its_books_and_names_known_concepts():
    ids = {c["id"] for c in CONCEPTS}
    for conflict in CONFLICTS:
        assert set(conflict.get("concepts", [])) <= ids, conflict["id"]
        assert len(conflict["sides"]) >= 2
        for side in conflict["sides"]:
            for passage in side["passages"]:
                assert in_book(passage["book"], passage["phrase"]), (conflict["id"], passage)


@pytest.mark.parametrize(
    ("words", "game", "concept"),
    [
        ("the blessings deck", "pacg", "hourglass"),
        ("put it back in the box", "pacg", "vault"),
        ("¿puedo quemar esta carta?", "pacg", "banish"),
        ("una perdición", "pacg", "bane"),
        ("temporarily close the location", "pacg", "guard"),
        ("hero titles", "aventuria", "hero-title"),
    ],
)
def test_old_words_new_words_and_spanish_reach_the_same_concept(words, game, concept):
    assert concept in {m.concept for m in concept_table().mentions(words, game)}


def test_aventuria_words_never_tag_pacg_passages():
    table = concept_table()
    aventuria = {c.id for c in table.concepts.values() if c.game == "aventuria"}
    assert not aventuria & set(table.tag("a hero title and fate points in a combat round", "pacg"))


def test_players_words_name_known_concepts_and_never_tag_passages():
    table = concept_table()
    assert set(table.phrasings) <= set(table.concepts)
    for concept, phrases in table.phrasings.items():
        assert all(p == p.lower() and p not in table.concepts[concept].words for p in phrases), concept
    assert "evade" in {m.concept for m in table.mentions("a monster I slip past", "pacg", phrasings=True)}
    assert "evade" not in table.tag("a monster I slip past", "pacg")
