"""The map that brings a player's question nearer the windows of the rule that answers it: how it
learns, the map the site ships, and the command that trains it."""

from __future__ import annotations

import io

import numpy as np
import pytest
from django.core.management import CommandError, call_command

from rules import search
from rules.assistant import question_adapter
from rules.assistant.embeddings import DIMENSIONS
from rules.assistant.question_adapter import Windows, own_questions, train
from rules.assistant.vectors import cached_encode
from rules.models import Passage


def unit(rows: np.ndarray) -> np.ndarray:
    return rows / np.linalg.norm(rows, axis=-1, keepdims=True)


def test_the_map_learns_how_questions_are_worded_apart_from_their_rules():
    """Questions that are their passage's window turned by a fixed rotation (the players' words
    against the book's) rank their passage first once the map has learned to turn them back."""
    rng = np.random.default_rng(3)
    dimensions, passages = 16, 40
    groups = unit(rng.normal(size=(passages, 2, dimensions)))  # two windows a passage
    turn, _ = np.linalg.qr(rng.normal(size=(dimensions, dimensions)))
    answers = rng.integers(0, passages, size=600)
    asked = unit(np.stack([turn @ groups[p][rng.integers(0, 2)] for p in answers]) + rng.normal(0, 0.05, (600, 16)))
    windows = Windows(
        search.Vectors(groups.reshape(-1, dimensions), np.ones(passages, bool), np.arange(0, 2 * passages, 2))
    )
    _, figures = train(asked, answers, windows, epochs=60)
    assert figures["held back"] == 60
    assert figures["rank 1 before"] < 0.2
    assert figures["rank 1 after"] > 0.9


def test_questions_marked_as_a_development_set_s_are_not_learned_from():
    lines = ["guard:", "- how do I guard  # dev set", "- can I guard twice", "- what is guarding #dev set"]
    assert own_questions(lines, [(1, "how do I guard"), (2, "can I guard twice"), (3, "what is guarding")]) == [
        "can I guard twice"
    ]


@pytest.mark.django_db
def test_the_shipped_map_brings_the_books_questions_nearer_their_rules():
    """On the Core Set's own questions, each passage's rank by its nearest window is better with
    the question as mapped than as embedded."""
    blend = question_adapter.adapter()
    assert blend is not None and blend.shape == (DIMENSIONS, DIMENSIONS)
    rows = list(Passage.objects.filter(book__slug="core").exclude(embedding=None).values_list("embedding", "questions"))
    windows = Windows(search.Vectors.of([bytes(blob) for blob, _ in rows]))
    pairs = [(index, question) for index, (_, questions) in enumerate(rows) for question in questions[:2]]
    vectors = cached_encode([question for _, question in pairs], query=True)
    answers = np.array([index for index, _ in pairs])
    as_embedded = windows.rank_of(vectors, answers)
    as_mapped = windows.rank_of(np.stack([question_adapter.adapt(vector) for vector in vectors]), answers)
    assert (as_mapped < 5).mean() > (as_embedded < 5).mean() + 0.05
    assert as_mapped.mean() < as_embedded.mean()


@pytest.mark.django_db
def test_only_the_windows_see_the_mapped_question():
    vector = unit(np.random.default_rng(5).normal(size=DIMENSIONS)).astype(np.float32)
    mapped = question_adapter.adapt(vector)
    plain, both = search.similarities(vector), search.similarities(vector, to_windows=mapped)
    assert both.text.tolist() == search.similarities(mapped).text.tolist()
    assert both.asked.tolist() == plain.asked.tolist()
    assert both.text.tolist() != plain.text.tolist()


@pytest.mark.django_db
def test_the_command_trains_on_the_imported_books_and_writes_the_map(tmp_path):
    out = io.StringIO()
    call_command("train_question_adapter", output=tmp_path / "map.npy", epochs=1, stdout=out)
    written = np.load(tmp_path / "map.npy")
    assert written.shape == (DIMENSIONS, DIMENSIONS) and written.dtype == np.float16
    assert "held back" in out.getvalue() and "in the top five" in out.getvalue()


@pytest.mark.django_db
def test_the_command_refuses_without_books_or_with_no_epochs_and_writes_nothing(tmp_path):
    target = tmp_path / "map.npy"
    with pytest.raises(CommandError, match="--epochs must be at least 1"):
        call_command("train_question_adapter", output=target, epochs=0)
    Passage.objects.all().delete()
    with pytest.raises(CommandError, match="no rulebook is imported"):
        call_command("train_question_adapter", output=target)
    assert not target.exists()
