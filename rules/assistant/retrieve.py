"""Stage 3, retrieve: the passages near the question by their words (the Whoosh index,
rules.search) and by meaning (the question's embedding against the passages' windows and
questions), for the game the question is about; whether the nearest is near enough to answer."""

from __future__ import annotations

from dataclasses import dataclass, replace
from functools import cache, lru_cache

import numpy as np

from cards.models import Card

from .. import search
from ..concepts import concept_table
from . import question_adapter, vectors
from .embeddings import encoder
from .game import GAME_DOUBT, cards_lean, certain_game, leaning, words_lean
from .pipeline import FULL, Pipeline, ensure_index, per_index
from .rank import ranked
from .understand import as_embedded, check_filters, named_cards, prepare, validate

# Below this closeness (cosine, as the ranking measures it: a passage's nearest window or nearest
# question less the margin) the nearest passage is too far from the question to be an answer. All
# 114 dev questions are above 0.86; of 30 off-topic questions 10 pass, mostly about other games
# ("how many players can play uno"). On the books' text alone the best cut (0.83) lost a dev
# question and passed 13.
CONFIDENCE = 0.85


@dataclass(frozen=True)
class Found:
    hits: list[search.Hit]
    question: search.Question
    game: str
    corrections: dict[str, str]
    closeness: float | None  # the nearest passage's closeness to the question, as ranked
    asked: float | None = None  # ... and of any passage's question
    other_game: str | None = None  # the other game, when it came almost as near (the player may mean it)
    dense: bool = True  # the embeddings ranked too (not while the passages' vectors are computed)


def search_passages(
    query: str,
    *,
    game: str | None = None,
    books: list[str] | None = None,
    kinds: list[str] | None = None,
    limit: int = 10,
    pipeline: Pipeline = FULL,
    cards: dict[str, list[Card]] | None = None,
) -> Found:
    query = validate(query)
    books, kinds = books or [], kinds or []
    check_filters(game, books, kinds)
    ensure_index()
    if pipeline.dense and not per_index("vectors_ready", vectors.vectors_ready):
        pipeline = replace(pipeline, dense=False)
    certain = certain_game(query, game, books)
    cards = cards if cards is not None else named_cards(query)
    embedded = as_embedded(query, cards) if pipeline.names_as_types else query
    encoded: dict[str, np.ndarray] = {}  # the question's embedding, once for both games
    if certain:
        return _found(query, embedded, certain, pipeline, encoded, books=books, kinds=kinds, limit=limit)
    # No game is given or named: ask both and keep the nearer. Each game reads the question with its
    # own words (glosses), so the comparison is fair to both.
    prior = words_lean(query, pipeline) + cards_lean(cards)
    pacg, aventuria = (
        _found(query, embedded, g, pipeline, encoded, books=books, kinds=kinds, limit=limit)
        for g in ("pacg", "aventuria")
    )
    lean = leaning(aventuria, pacg, prior)
    chosen, other = (aventuria, pacg) if lean > 0 else (pacg, aventuria)
    # The doubt is a nearness: word scores alone (no vectors yet) can't say the games came as near.
    if pipeline.dense and abs(lean) < GAME_DOUBT and confident(other):
        return replace(chosen, other_game=other.game)
    return chosen


def _found(
    query: str,
    embedded: str,
    game: str,
    pipeline: Pipeline,
    encoded: dict[str, np.ndarray],
    *,
    books: list[str],
    kinds: list[str],
    limit: int,
) -> Found:
    prepared, corrections = prepare(query, game, pipeline)
    vector = question_vector(embedded, prepared.glosses, encoded) if pipeline.dense else None
    cosines: tuple[list[search.Hit], dict[int, float]] = ([], {})
    closeness = asked = None
    if vector is not None:
        near = search.similarities(
            vector, games=[game], books=books, kinds=kinds, to_windows=_to_windows(vector, pipeline)
        )
        # Whether any passage is near enough to answer, and how near the game is, go by the
        # question's own words and by a passage's nearest window or question (less the margin).
        nearest = np.maximum(near.text, near.asked - pipeline.asked_margin) if pipeline.asked else near.text
        closeness = float(nearest.max()) if len(nearest) else 0.0
        asked = float(near.asked.max()) if pipeline.asked and len(near.asked) else closeness
        if prepared.newest or prepared.learned:  # the ranking reads the newest edition's words too, and learned ones
            ranking = question_vector(embedded, prepared.glosses + prepared.newest + prepared.learned, encoded)
            near = search.similarities(
                ranking, games=[game], books=books, kinds=kinds, to_windows=_to_windows(ranking, pipeline)
            )
        # The ranking goes by a passage's nearest window and nearest question together: a passage
        # near the question both ways is likelier the answer than one near it one way only.
        cosines = near.ranked(near.blended(pipeline.asked_share if pipeline.asked else 0.0), search.RERANK_DEPTH)
    hits = ranked(prepared, cosines, pipeline, games=[game], books=books, kinds=kinds, limit=limit)
    return Found(hits, prepared, game, corrections, closeness, asked, dense=pipeline.dense)


def _to_windows(vector: np.ndarray, pipeline: Pipeline) -> np.ndarray | None:
    """The question's vector to compare with the passages' windows: mapped nearer the rule's
    words (question_adapter.py); its own is compared with the passages' questions."""
    return question_adapter.adapt(vector) if pipeline.adapter else None


def question_vector(question: str, glosses: tuple[str, ...], encoded: dict[str, np.ndarray]) -> np.ndarray:
    """The question's embedding with its glosses' blended in, each weighted by its tokens. E5
    mean-pools tokens, so this is near embedding "question (gloss, ...)" (cosine 0.98 on dev
    questions) and ranks as well, yet the question is encoded once for both games, and glosses
    come embedded with the concept table."""
    if question not in encoded:
        encoded[question] = encoder().query(question)
    if not glosses:
        return encoded[question]
    parts = [(encoded[question], encoder().tokens(question)), *(_gloss_vector(gloss) for gloss in glosses)]
    blend = np.sum([tokens * vector for vector, tokens in parts], axis=0)
    return np.asarray(blend / np.linalg.norm(blend), dtype=np.float32)


def _gloss_vector(gloss: str) -> tuple[np.ndarray, int]:
    return gloss_vectors().get(gloss) or _word_vector(gloss)


@lru_cache(maxsize=4096)
def _word_vector(word: str) -> tuple[np.ndarray, int]:
    """A learned book word embedded as a question (the first question that needs it pays 10 ms)."""
    return encoder().query(word), encoder().tokens(word)


@cache
def gloss_vectors() -> dict[str, tuple[np.ndarray, int]]:
    """Each concept's book words (glosses: its first word in each edition and language) embedded
    as questions, with their token counts."""
    concepts = concept_table().concepts.values()
    words = list(dict.fromkeys(words[0] for concept in concepts for words in concept.terms.values() if words))
    embedded = vectors.cached_encode(words, query=True)
    return {word: (vector, encoder().tokens(word)) for word, vector in zip(words, embedded, strict=True)}


def confident(found: Found) -> bool:
    """Whether the best passage is near enough the question to be an answer (without embeddings,
    as the benchmark's ablations run, any passage that shares a word is)."""
    return bool(found.hits) and (found.closeness is None or found.closeness >= CONFIDENCE)
