"""The rules index (Whoosh, through pacg_site.textindex) and the ranked search over it.

Per-language fields carry per-language stemming with accents folded (English and Spanish);
`plain` keeps unstemmed words for spelling suggestions (a fuzzy term on a stemmed field would
match nothing); `concepts` holds the concept ids a passage mentions, so a question in another
edition's words or in Spanish reaches every book that has the rule. Queries are built here as
explicit boosted OR trees: the query parser's OrGroup can score single-term queries 0.0.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any, cast

import numpy as np
from whoosh import query as wq
from whoosh.analysis import CharsetFilter, LanguageAnalyzer, LowercaseFilter, RegexTokenizer
from whoosh.fields import ID, KEYWORD, STORED, TEXT, Schema
from whoosh.spelling import ListCorrector
from whoosh.support.charset import accent_map
from wordfreq import zipf_frequency

from pacg_site import textindex

from .assistant.bestquestion import BestQuestion
from .assistant.embeddings import DIMENSIONS

NAME = "rules"
COMMON_WORD = 3.0  # Zipf frequency: once per million words of the language
# A word the language uses this often is no typo, even if the books never do: of the 66 words the
# corrector rewrote in the dev sets' questions at 3.0, every typo was below 2.3 ("diffrent" 2.2) and
# every real word above 2.4 ("fizzle" -> "finale", "trickster" -> "trickier", "huya" -> "haya").
REAL_WORD = 2.4
SLIP = 10  # how much likelier a typo is a letter missed, doubled or swapped than one mistyped
RERANK_DEPTH = 30  # hits re-ranked for the question's language
LANGUAGES = ("en", "es")
_analyzers = {language: LanguageAnalyzer(language) | CharsetFilter(accent_map) for language in LANGUAGES}
_plain = RegexTokenizer() | LowercaseFilter() | CharsetFilter(accent_map)

SCHEMA = Schema(
    pid=ID(stored=True, unique=True),
    book=ID(stored=True),
    game=ID(stored=True),
    kind=ID(stored=True),
    language=ID(stored=True),
    edition=ID,
    concepts=KEYWORD(commas=True, scorable=True),
    term=ID,  # a glossary entry's term, folded
    **{f"plain_{language}": TEXT(analyzer=_plain) for language in LANGUAGES},  # for spelling
    payload=STORED,
    **{f"heading_{language}": TEXT(analyzer=_analyzers[language]) for language in LANGUAGES},
    **{f"body_{language}": TEXT(analyzer=_analyzers[language]) for language in LANGUAGES},
    # The questions the passage answers (rules/data/rulebooks/questions/), under both analyzers:
    # the Spanish book's questions are in both languages.
    **{f"asked_{language}": TEXT(analyzer=_analyzers[language]) for language in LANGUAGES},
)

# Field boosts, measured with bench/rules_quality.py on the dev questions (see its report).
BOOSTS = {
    "heading": 1.0,
    "body": 1.0,
    "asked": 3.0,  # the questions a passage answers (dev and probe: 2 to 5 within a question or two, 3 best)
    # ... and its best-matching question alone (rules.assistant.bestquestion), beside them all as one field:
    # the 14 dev sets (2,056 questions), in the top five 1,994 -> 1,995 / 1,998 / 2,000 / 2,003 at
    # 0.5 / 1 / 1.5 / 2, MRR@10 0.896 -> 0.900 at 2; 3 and 4 lower at rank 1 (eval README).
    "best_question": 2.0,
    "concepts": 1.5,
    "term": 3.0,
    "expansion": 0.5,
    "same_language": 1.5,
}


def analyze(text: str, language: str) -> list[str]:
    return [token.text for token in _analyzers[language](text)]


@lru_cache(maxsize=65536)
def stem(word: str, language: str) -> str | None:
    """One word as the index sees it (None for a stop word): the answer's highlighting stems
    every word of five passages, and the books use few distinct words."""
    stems = analyze(word, language)
    return stems[0] if stems else None


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
    questions: list[str] = field(default_factory=list)


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
            f"plain_{passage.language}": f"{passage.heading} {passage.text}",
            f"heading_{passage.language}": heading,
            f"body_{passage.language}": passage.text,
            **{f"asked_{language}": "\n".join(passage.questions) for language in LANGUAGES},
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
    glosses: tuple[str, ...] = ()  # the book's words for players' words, blended into its embedding
    newest: tuple[str, ...] = ()  # the newest edition's words for older ones, blended in to rank
    learned: tuple[str, ...] = ()  # the book's words for players' words (rules.assistant.playerwords), likewise


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
    """The question's BM25 ranking: Whoosh's scores for `build_query`, summed with numpy from
    per-term score vectors cached with the searcher. A question is an OR of some fifty terms, and
    Whoosh's pure-Python union of their posting lists took most of the time of an answer."""
    games, books, kinds = set(games), set(books), set(kinds)
    with textindex.reading(NAME) as (searcher, cache):
        if "documents" not in cache:
            cache["documents"] = _documents(searcher)
        pids, book_of, kind_of, language_of, game_of = cache["documents"]
        total = np.zeros(len(pids))
        for field, word, boost in query_terms(question, boosts):
            vector = _term_scores(searcher, cache, field, word)
            if vector is not None:
                total += boost * vector
        if boosts["asked"] and boosts["best_question"]:  # no passages' questions, no best one
            total += boosts["best_question"] * _best_question(cache, pids).scores(weighted_words(question, boosts))
        wanted = total > 0
        for values, column in ((games, game_of), (books, book_of), (kinds, kind_of)):
            if values:
                wanted &= np.isin(column, list(values))
        docs = np.flatnonzero(wanted)
        top = docs[np.lexsort((docs, -total[docs]))][: max(limit, RERANK_DEPTH)]
        same = boosts["same_language"]
        hits = [
            Hit(
                int(pids[doc]),
                str(book_of[doc]),
                str(kind_of[doc]),
                round(float(total[doc]) * (same if language_of[doc] == question.language else 1.0), 4),
            )
            for doc in top
        ]
        return sorted(hits, key=lambda hit: -hit.score)[:limit]


def query_terms(question: Question, boosts: dict[str, float] = BOOSTS) -> list[tuple[str, str, float]]:
    """The question as weighted (field, word) terms: its words and its concepts' other words in
    the heading and body fields of both languages, its concepts, and the glossary terms it names."""
    terms: list[tuple[str, str, float]] = []
    for language, word, weight in weighted_words(question, boosts):
        terms.append((f"heading_{language}", word, weight * boosts["heading"]))
        terms.append((f"body_{language}", word, weight * boosts["body"]))
        if boosts["asked"]:
            terms.append((f"asked_{language}", word, weight * boosts["asked"]))
    terms += [("concepts", concept, boosts["concepts"]) for concept in dict.fromkeys(question.concepts)]
    terms += [("term", term, boosts["term"]) for term in dict.fromkeys(question.terms)]
    return terms


def weighted_words(question: Question, boosts: dict[str, float] = BOOSTS) -> Iterator[tuple[str, str, float]]:
    """The question's words and, weighted less, its concepts' other words, by language."""
    for weight, words_by_language in ((1.0, question.words), (boosts["expansion"], question.expanded)):
        for language, words in words_by_language.items():
            for word in dict.fromkeys(words):
                yield language, word, weight


def build_query(question: Question, boosts: dict[str, float] = BOOSTS) -> wq.Query:
    """The ranking by the index's fields as a Whoosh query (its scores are what `search` sums
    before the best question's, which no Whoosh query expresses)."""
    clauses = [wq.Term(field, word, boost=boost) for field, word, boost in query_terms(question, boosts)]
    return wq.Or(clauses) if clauses else wq.NullQuery()


def _documents(searcher: Any) -> tuple[np.ndarray, ...]:
    """Stored fields of every document by document number, for filtering and results."""
    count = searcher.doc_count_all()
    columns: list[list[Any]] = [[0] * count, [""] * count, [""] * count, [""] * count, [""] * count]
    for docnum, fields in searcher.reader().iter_docs():
        for column, key in enumerate(("pid", "book", "kind", "language", "game")):
            columns[column][docnum] = fields.get(key, "")
    return tuple(np.array(column) for column in columns)


def _best_question(cache: dict[Any, Any], pids: np.ndarray) -> BestQuestion:
    """The passages' questions one by one, in the index's document order."""
    if "best_question" not in cache:
        from .models import Passage

        asked = dict(Passage.objects.filter(pk__in=pids.astype(int).tolist()).values_list("pk", "questions"))
        cache["best_question"] = BestQuestion((asked.get(int(pid), []) for pid in pids), LANGUAGES, stem)
    return cache["best_question"]


def _term_scores(searcher: Any, cache: dict[Any, Any], field: str, word: str) -> np.ndarray | None:
    key = ("scores", field, word)
    if key not in cache:
        vector = None
        text = searcher.schema[field].to_bytes(word)
        if (field, text) in searcher.reader():
            vector = np.zeros(searcher.doc_count_all())
            matcher = searcher.postings(field, text)
            while matcher.is_active():
                vector[matcher.id()] = matcher.score()
                matcher.next()
        cache[key] = vector
    return cache[key]


@dataclass(frozen=True)
class Closeness:
    """The passages in scope and each one's cosine similarity to the question: its nearest
    sentence window's (`text`) and its nearest question's (`asked`, -1 without questions), as
    arrays in one order; numpy throughout, as a question is compared with every passage."""

    pids: np.ndarray
    books: np.ndarray
    kinds: np.ndarray
    text: np.ndarray
    asked: np.ndarray

    def blended(self, share: float) -> np.ndarray:
        """Each passage's nearness by its nearest question (`share` of it) and its nearest window
        (the rest); by the window alone for a passage without questions."""
        asked = np.where(self.asked > -1, self.asked, self.text)
        return (1 - share) * self.text + share * asked

    def ranked(self, scores: np.ndarray, depth: int) -> tuple[list[Hit], dict[int, float]]:
        """The `depth` passages with the highest `scores` (ties in index order), and every
        passage's score."""
        nearest = np.argsort(-scores, kind="stable")[:depth]
        hits = [Hit(int(self.pids[i]), str(self.books[i]), str(self.kinds[i]), float(scores[i])) for i in nearest]
        return hits, dict(zip(self.pids.tolist(), scores.tolist(), strict=True))


def similarities(
    vector: np.ndarray,
    *,
    games: Iterable[str] = (),
    books: Iterable[str] = (),
    kinds: Iterable[str] = (),
    to_windows: np.ndarray | None = None,
) -> Closeness:
    """Every passage in scope with the cosine similarity of its embeddings to the question's
    (`to_windows`, if given, is the question's vector to compare with the passages' windows)."""
    games = sorted(games)
    with textindex.reading(NAME) as (_, cache):
        if "vectors" not in cache:
            cache["vectors"] = _load_vectors()
        if ("vectors", *games) not in cache:
            # A question is compared with its game's passages alone: most of an answer's time
            # after encoding the question goes in these products, and each game is asked apart.
            pids, meta, windows, questions = cache["vectors"]
            keep = np.isin(meta[0], games) if games else np.ones(len(pids), dtype=bool)
            cache["vectors", *games] = (
                pids[keep],
                tuple(c[keep] for c in meta),
                windows.only(keep),
                questions.only(keep),
            )
        pids, meta, windows, questions = cache["vectors", *games]
    wanted = np.ones(len(pids), dtype=bool)
    for column, allowed in zip(meta[1:], (books, kinds), strict=True):  # the game's rows already
        if allowed := list(allowed):
            wanted &= np.isin(column, allowed)
    # Each passage has several vectors; its similarity is the nearest one's.
    return Closeness(
        pids[wanted],
        meta[1][wanted],
        meta[2][wanted],
        windows.nearest(vector if to_windows is None else to_windows)[wanted],
        questions.nearest(vector)[wanted],
    )


@dataclass(frozen=True)
class Vectors:
    """Several vectors per passage in one matrix: which passages have any, and where their rows
    start (worked out once per index, not per question)."""

    matrix: np.ndarray
    has: np.ndarray
    starts: np.ndarray

    @classmethod
    def of(cls, blobs: list[bytes | None]) -> Vectors:
        counts = np.array([len(blob or b"") // (4 * DIMENSIONS) for blob in blobs], dtype=np.int64)
        matrix = np.frombuffer(b"".join(blob or b"" for blob in blobs), dtype=np.float32).reshape(-1, DIMENSIONS)
        offsets = np.concatenate([[0], np.cumsum(counts)[:-1]]).astype(np.int64)
        return cls(matrix, counts > 0, offsets[counts > 0])

    @property
    def counts(self) -> np.ndarray:
        """How many rows each passage with vectors has."""
        return np.diff(np.append(self.starts, len(self.matrix)))

    def only(self, keep: np.ndarray) -> Vectors:
        """The vectors of the passages `keep` marks, in the same order."""
        counts = np.zeros(len(self.has), dtype=np.int64)
        counts[self.has] = self.counts
        kept = counts[keep]
        offsets = np.concatenate([[0], np.cumsum(kept)[:-1]]).astype(np.int64)
        return Vectors(self.matrix[np.repeat(keep, counts)], kept > 0, offsets[kept > 0])

    def nearest(self, vector: np.ndarray) -> np.ndarray:
        """Each passage's best cosine, -1 for a passage without vectors."""
        best = np.full(len(self.has), -1.0)
        if len(self.matrix):
            best[self.has] = np.maximum.reduceat(self.matrix @ vector, self.starts)
        return best


def _load_vectors() -> tuple[np.ndarray, tuple[np.ndarray, np.ndarray, np.ndarray], Vectors, Vectors]:
    """Passage ids, their games, books and kinds, and their window and question vectors."""
    from .models import Passage

    rows = Passage.objects.exclude(embedding=None).values_list(
        "pk", "book__game", "book__slug", "kind", "embedding", "question_embedding"
    )
    pids = np.array([row[0] for row in rows], dtype=np.int64)
    games, books, kinds = (np.array([row[column] for row in rows], dtype=str) for column in (1, 2, 3))
    # exclude(embedding=None) above: every row has a window blob.
    windows = Vectors.of([bytes(cast("bytes | memoryview", row[4])) for row in rows])
    questions = Vectors.of([bytes(row[5]) if row[5] is not None else None for row in rows])
    return pids, (games, books, kinds), windows, questions


def generation() -> int:
    """Which version of the index is current (cached answers are valid for one version)."""
    with textindex.reading(NAME) as (searcher, _):
        return searcher.reader().generation()


class WordsCorrector(ListCorrector):
    """Whoosh's corrector for a field (within the edit distance, the most frequent word first) on
    the field's words read once: plain data, which threads can share, not the reader itself."""

    def __init__(self, reader: Any, field: str) -> None:
        decode = reader.schema[field].from_bytes
        self.frequency = {decode(word): info.weight() for word, info in reader.iter_field(field)}
        super().__init__(sorted(self.frequency))

    def _suggestions(self, text: str, maxdist: int, prefix: int) -> Iterator[tuple[float, str]]:
        for _, word in super()._suggestions(text, maxdist, prefix):
            yield -(maxdist + 0.5 / (self.frequency[word] or 1)), word


def _swaps(word: str) -> list[str]:
    return [word[:i] + word[i + 1] + word[i] + word[i + 2 :] for i in range(len(word) - 1)]


def _slip(typed: str, word: str) -> bool:
    """Whether `typed` is `word` with one letter missed or doubled, or two swapped."""
    if len(typed) == len(word):
        return typed in _swaps(word)
    short, long = sorted((typed, word), key=len)
    return len(long) == len(short) + 1 and any(long[:i] + long[i + 1 :] == short for i in range(len(long)))


def suggestions(words: list[str], language: str) -> dict[str, str]:
    """Corrections for words that neither the books nor the language commonly use ("slip" is a
    word, not a typo of "skip"), from the words of the books in the question's language ("slip"
    is not Spanish "si"). One edit for short words, two for longer ones."""
    found: dict[str, str] = {}
    with textindex.reading(NAME) as (searcher, cache):
        reader = searcher.reader()
        key = f"corrector_{language}"
        if key not in cache:
            cache[key] = WordsCorrector(reader, f"plain_{language}")
        for word in words:
            known = any((f"plain_{other}", word) in reader for other in LANGUAGES) or (
                zipf_frequency(word, language) >= REAL_WORD
            )
            contraction = zipf_frequency(f"{word}'t", language) >= COMMON_WORD  # "couldn't" reads "couldn"
            if len(word) < 4 or re.fullmatch(r"\d+", word) or known or contraction:
                continue
            corrector = cache[key]
            near = corrector.suggest(word, limit=10, maxdist=1 if len(word) <= 5 else 2, prefix=1)
            swapped = [w for w in _swaps(word) if w in corrector.frequency]
            # A correction is a word the search reads ("tiem" is not "them"), the books' commonest,
            # a letter missed, doubled or two swapped counting SLIP times a letter mistyped: "roel"
            # is "role" (38 times in the books), not "roll" (123); "feets" is "feats" (56), not "feet" (1).
            options = sorted(
                (option for option in dict.fromkeys([*swapped, *near]) if stem(option, language) is not None),
                key=lambda option: -corrector.frequency[option] * (SLIP if _slip(word, option) else 1),
            )
            # "evaded" is no typo of "evade": the index reads both as one word.
            if options and len(options[0]) >= len(word) - 1 and stem(word, language) != stem(options[0], language):
                found[word] = options[0]
    return found
