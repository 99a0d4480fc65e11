"""The evaluation questions are sound: every expected phrase is in its book, survives the split
into passages, and the two halves are balanced."""

from __future__ import annotations

import re
from collections import Counter
from pathlib import Path

import pytest
import yaml

from rules.services import RULEBOOKS_DIR, read_manifest
from rules.splitting import split_book

EVAL = Path(__file__).parent / "eval"


def _questions(path: Path) -> list[dict]:  # type: ignore[type-arg]
    return yaml.safe_load(path.read_text(encoding="utf-8"))


QUESTIONS = _questions(EVAL / "questions.yaml")
PROBES = {path.stem: _questions(path) for path in sorted(EVAL.glob("probe*.yaml"))}  # more dev sets
EVERY = [*QUESTIONS, *(q for questions in PROBES.values() for q in questions)]
BOOKS = {entry["slug"]: (RULEBOOKS_DIR / entry["file"]).read_text(encoding="utf-8") for entry in read_manifest()}


def normal(text: str) -> str:
    return " ".join(text.split()).lower()


def test_at_least_120_questions_half_held_out():
    assert len(QUESTIONS) >= 120
    splits = Counter(q["split"] for q in QUESTIONS)
    assert abs(splits["dev"] - splits["heldout"]) <= 1
    assert len({q["id"] for q in QUESTIONS}) == len(QUESTIONS)


def test_the_required_questions_are_there():
    asked = {q["question"] for q in QUESTIONS}
    assert {
        "can I play armor to reduce fire damage",
        "where does the villain go if every other location is guarded",
        "¿qué es una perdición?",
        "how do hero titles work",
    } <= asked


def test_every_book_and_kind_is_covered():
    books = Counter(e["book"] for q in QUESTIONS for e in q["expected"])
    kinds = Counter(q["kind"] for q in QUESTIONS)
    assert all(books[slug] >= 20 for slug in BOOKS), books
    assert {"plain", "paraphrase", "old-terms", "spanish", "misspelling", "aventuria", "edition"} <= set(kinds)


@pytest.mark.parametrize("split", PROBES)
def test_the_other_dev_sets_are_apart_and_of_the_same_kinds(split):
    questions = PROBES[split]
    assert {q["split"] for q in questions} == {split}
    assert len({q["id"] for q in EVERY}) == len(EVERY)
    assert {q["kind"] for q in questions} <= {q["kind"] for q in QUESTIONS}


@pytest.mark.parametrize("question", EVERY, ids=[q["id"] for q in EVERY])
def test_every_expected_phrase_is_in_its_book_and_in_a_passage(question):
    for expected in question["expected"]:
        assert normal(expected["phrase"]) in normal(BOOKS[expected["book"]]), expected
        passages = split_passages(expected["book"])
        assert any(normal(expected["phrase"]) in text for text in passages), f"the split lost {expected}"


_SPLITS: dict[str, list[str]] = {}


def split_passages(slug: str) -> list[str]:
    if slug not in _SPLITS:
        _SPLITS[slug] = [normal(p.text) for p in split_book(BOOKS[slug]).passages]
    return _SPLITS[slug]


def test_the_passages_questions_do_not_copy_the_held_out_questions():
    """No passage's question shares half its words with a held-out question, or the benchmark
    would measure the copy, not the assistant. (The development sets' questions are among them,
    under the passages their labels name; the benchmark leaves out the copies of those it
    measures.)"""

    def words(text: str) -> set[str]:
        return set(re.findall(r"\w+", text.lower()))

    evaluation = [words(q["question"]) for q in QUESTIONS if q["split"] == "heldout"]
    for entry in read_manifest():
        asked = yaml.safe_load((RULEBOOKS_DIR / entry["questions"]).read_text(encoding="utf-8"))
        for anchor, questions in asked.items():
            for question in questions:
                mine = words(question)
                overlap = max(len(mine & theirs) / len(mine | theirs) for theirs in evaluation)
                assert overlap < 0.5, (entry["slug"], anchor, question)
