"""The rules index (Whoosh, through pacg_site.textindex) and the ranked search over it.

Per-language fields carry per-language stemming with accents folded (English and Spanish);
`plain` keeps unstemmed words for spelling suggestions (a fuzzy term on a stemmed field would
match nothing); `concepts` holds the concept ids a passage mentions, so a question in another
edition's words or in Spanish reaches every book that has the rule. Queries are built here as
explicit boosted OR trees: the query parser's OrGroup can score single-term queries 0.0.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

import numpy as np
from whoosh import query as wq
from whoosh.analysis import CharsetFilter, LanguageAnalyzer, LowercaseFilter, RegexTokenizer
from whoosh.fields import ID, KEYWORD, STORED, TEXT, Schema
from whoosh.support.charset import accent_map

from pacg_site import textindex

from .embeddings import DIMENSIONS

NAME = "rules"
RERANK_DEPTH = 30  # hits re-ranked for the question's language
LANGUAGES = ("en", "es")
_analyzers = {language: LanguageAnalyzer(language) | CharsetFilter(accent_map) for language in LANGUAGES}
_plain = RegexTokenizer() | LowercaseFilter() | CharsetFilter(accent_map)

SCHEMA = Schema(
    pid=ID(stored=True, unique=True),
    book=ID(stored=True),
    game=ID,
    kind=ID(stored=True),
    language=ID(stored=True),
    edition=ID,
    concepts=KEYWORD(commas=True, scorable=True),
    term=ID,  # a glossary entry's term, folded
    plain=TEXT(analyzer=_plain),
    payload=STORED,
    **{f"heading_{language}": TEXT(analyzer=_analyzers[language]) for language in LANGUAGES},
    **{f"body_{language}": TEXT(analyzer=_analyzers[language]) for language in LANGUAGES},
)

# Field boosts, measured with bench/rules_quality.py on the dev questions (see its report).
BOOSTS = {"heading": 1.0, "body": 1.0, "concepts": 1.5, "term": 3.0, "expansion": 0.5, "same_language": 1.5}


def analyze(text: str, language: str) -> list[str]:
    return [token.text for token in _analyzers[language](text)]


def plain_words(text: str) -> list[str]:
    return [token.text for token in _plain(text)]


@dataclass(frozen=True)
class IndexedPassage:
    pid: int
    book: str
    game: str
    edition: str
    language: str
    kind: str
    heading: str
    path: list[str]
    text: str
    concepts: list[str]


def documents(passages: Iterable[IndexedPassage]) -> Iterable[dict[str, Any]]:
    for passage in passages:
        heading = " ".join([*passage.path[-1:], passage.heading])
        yield {
            "pid": str(passage.pid),
            "book": passage.book,
            "game": passage.game,
            "kind": passage.kind,
            "language": passage.language,
            "edition": passage.edition,
            "concepts": ",".join(passage.concepts),
            "term": " ".join(plain_words(passage.heading)) if passage.kind == "glossary" else "",
            "plain": f"{passage.heading} {passage.text}",
            f"heading_{passage.language}": heading,
            f"body_{passage.language}": passage.text,
        }


@dataclass(frozen=True)
class Question:
    """A question prepared for the index: its words per language, its concepts, glossary terms."""

    words: dict[str, list[str]]  # language -> stemmed words of the question
    concepts: list[str]
    terms: list[str]  # folded phrases that could name a glossary entry
    expanded: dict[str, list[str]] = field(default_factory=dict)  # the concepts' other words
    language: str = "en"  # the question's language; its book's passages rank first
    books: frozenset[str] = frozenset()  # books the question names ("in wrath ...")


def build_query(question: Question, boosts: dict[str, float] = BOOSTS) -> wq.Query:
    clauses: list[wq.Query] = []
    for weight, words_by_language in ((1.0, question.words), (boosts["expansion"], question.expanded)):
        for language, words in words_by_language.items():
            for word in dict.fromkeys(words):
                clauses.append(wq.Term(f"heading_{language}", word, boost=weight * boosts["heading"]))
                clauses.append(wq.Term(f"body_{language}", word, boost=weight * boosts["body"]))
    for concept in dict.fromkeys(question.concepts):
        clauses.append(wq.Term("concepts", concept, boost=boosts["concepts"]))
    for term in dict.fromkeys(question.terms):
        clauses.append(wq.Term("term", term, boost=boosts["term"]))
    return wq.Or(clauses) if clauses else wq.NullQuery()


@dataclass(frozen=True)
class Hit:
    pid: int
    book: str
    kind: str
    score: float


def search(
    question: Question,
    *,
    games: Iterable[str] = (),
    books: Iterable[str] = (),
    kinds: Iterable[str] = (),
    limit: int = 10,
    boosts: dict[str, float] = BOOSTS,
) -> list[Hit]:
    filters = [
        wq.Or([wq.Term(field, value) for value in values])
        for field, values in (("game", list(games)), ("book", list(books)), ("kind", list(kinds)))
        if values
    ]
    with textindex.reading(NAME) as (searcher, cache):
        languages = cache.setdefault("languages", {})
        results = searcher.search(
            build_query(question, boosts), limit=max(limit, RERANK_DEPTH), filter=wq.And(filters) if filters else None
        )
        hits = []
        for hit in results:
            book = hit["book"]
            if book not in languages:
                languages[book] = hit["language"]
            factor = boosts["same_language"] if languages[book] == question.language else 1.0
            hits.append(Hit(int(hit["pid"]), book, hit["kind"], round(hit.score * factor, 4)))
        return sorted(hits, key=lambda hit: -hit.score)[:limit]


def similarities(
    vector: np.ndarray, *, games: Iterable[str] = (), books: Iterable[str] = (), kinds: Iterable[str] = ()
) -> dict[int, Hit]:
    """Every passage in scope with the cosine similarity of its embedding to the question's."""
    games, books, kinds = set(games), set(books), set(kinds)
    with textindex.reading(NAME) as (_, cache):
        if "vectors" not in cache:
            cache["vectors"] = _load_vectors()
        pids, meta, matrix, offsets = cache["vectors"]
    if not pids:
        return {}
    # Each passage has several window vectors; its similarity is the best window's.
    window_scores = matrix @ vector
    similarity = np.maximum.reduceat(window_scores, offsets)
    return {
        pid: Hit(pid, book, kind, float(score))
        for pid, (game, book, kind), score in zip(pids, meta, similarity, strict=True)
        if (not games or game in games) and (not books or book in books) and (not kinds or kind in kinds)
    }


def _load_vectors() -> tuple[list[int], list[tuple[str, str, str]], np.ndarray, np.ndarray]:
    """All window vectors in one matrix, and where each passage's rows start."""
    from .models import Passage

    rows = Passage.objects.exclude(embedding=None).values_list("pk", "book__game", "book__slug", "kind", "embedding")
    pids = [row[0] for row in rows]
    meta = [(row[1], row[2], row[3]) for row in rows]
    blobs = [bytes(row[4]) for row in rows]
    matrix = np.frombuffer(b"".join(blobs), dtype=np.float32).reshape(-1, DIMENSIONS)
    counts = [len(blob) // (4 * DIMENSIONS) for blob in blobs]
    offsets = np.concatenate([[0], np.cumsum(counts)[:-1]]).astype(np.int64)
    return pids, meta, matrix, offsets


def generation() -> int:
    """Which version of the index is current (cached answers are valid for one version)."""
    with textindex.reading(NAME) as (searcher, _):
        return searcher.reader().generation()


def suggestions(words: list[str]) -> dict[str, str]:
    """Corrections for words the books never use, from the books' own (unstemmed) words."""
    found: dict[str, str] = {}
    with textindex.reading(NAME) as (searcher, cache):
        reader = searcher.reader()
        if "corrector" not in cache:
            cache["corrector"] = searcher.corrector("plain")
        for word in words:
            if len(word) < 4 or re.fullmatch(r"\d+", word) or ("plain", word) in reader:
                continue
            options = cache["corrector"].suggest(word, limit=1, maxdist=2, prefix=1)
            if options:
                found[word] = options[0]
    return found
