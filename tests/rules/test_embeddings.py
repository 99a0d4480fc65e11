"""The bundled multilingual model puts a question near the rule that answers it, in either
language, and gives unit vectors (the ranking takes cosines as dot products)."""

from __future__ import annotations

import numpy as np
import pytest

from rules.assistant.embeddings import DIMENSIONS, encoder

DYING = "If you are ever required to remove cards from your deck and you don't have enough, your character dies."
HEALING = "When a power heals you, shuffle random cards from your discards into your deck."
MUERTE = "Si alguna vez debes quitar cartas de tu mazo y no tienes suficientes, tu personaje muere."
CURACION = "Cuando un poder te cura, baraja cartas al azar de tus descartes en tu mazo."


@pytest.fixture(scope="module")
def model():  # type: ignore[no-untyped-def]
    return encoder()


def test_vectors_are_unit_length(model):
    passages = model.passages([DYING, HEALING, MUERTE])
    question = model.query("what happens when my deck runs out")
    assert passages.shape == (3, DIMENSIONS) and question.shape == (DIMENSIONS,)
    assert np.allclose(np.linalg.norm(passages, axis=1), 1.0, atol=1e-4)
    assert abs(np.linalg.norm(question) - 1.0) < 1e-4


def test_a_paraphrase_is_closer_than_an_unrelated_rule(model):
    question = model.query("what happens when I must draw but my deck is empty")
    dying, healing = model.passages([DYING, HEALING])
    assert question @ dying > question @ healing


def test_an_english_question_finds_the_spanish_rule_and_back(model):
    muerte, curacion = model.passages([MUERTE, CURACION])
    english = model.query("what happens when I must draw but my deck is empty")
    assert english @ muerte > english @ curacion
    dying, healing = model.passages([DYING, HEALING])
    spanish = model.query("¿qué pasa si tengo que robar y mi mazo está vacío?")
    assert spanish @ dying > spanish @ healing


@pytest.mark.django_db
def test_a_question_with_the_books_word_blended_in_is_near_the_two_embedded_together(model):
    """The book's word for a player's word ("slip past" -> evade) is blended into the question's
    vector instead of re-embedding "question (evade)" for each game: the two must stay near,
    and the blend must move the question toward the rule that uses the book's word."""
    from rules.assistant.retrieve import question_vector

    question = "what happens to a monster I slip past"
    blended = question_vector(question, ("evade",), {})
    together = model.query(f"{question} (evade)")
    assert abs(np.linalg.norm(blended) - 1.0) < 1e-4
    assert blended @ together > 0.97
    evade = model.passages(["If you evade the card, do not activate any of its powers; the encounter ends."])[0]
    assert blended @ evade > model.query(question) @ evade
