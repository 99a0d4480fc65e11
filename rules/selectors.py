"""Reads of the rules app: passage search and the rules assistant (ask)."""

from __future__ import annotations

import html
import math
import re
from collections import Counter
from dataclasses import dataclass, field, replace
from functools import cache, lru_cache
from pathlib import Path
from typing import Any

import numpy as np
from wordfreq import zipf_frequency

from cards.dataformat.text import fold
from cards.models import Card
from cards.selectors import cards_named_in
from cards.vocabulary import EDITIONS
from pacg_site import textindex, yamltext
from pacg_site.errors import DomainError

from . import question_adapter, search, vectors, wordodds
from .concepts import Mention, concept_table
from .embeddings import encoder
from .models import Passage, Rulebook
from .playerwords import Passage as PlayerPassage
from .playerwords import PlayerWords
from .wordodds import WordOdds

CONFLICTS_FILE = Path(__file__).resolve().parent / "conflicts.yaml"
MAX_QUESTION = 300
# Below this closeness (cosine, as the ranking measures it: a passage's nearest window or nearest
# question less the margin) the nearest passage is too far from the question to be an answer. All
# 114 dev questions are above 0.86; of 30 off-topic questions 10 pass, mostly about other games
# ("how many players can play uno"). On the books' text alone the best cut (0.83) lost a dev
# question and passed 13.
CONFIDENCE = 0.85
# Which game a question is about, when neither the player nor a book or card name says: the game
# whose passages' questions come nearest, each unit of the log odds of the question's terms (its
# words, a concept's words as one term) in that game's books and passage questions (rules.wordodds)
# worth this much nearness. On a sample of 800 passage questions (each one's own passage left out),
# nearness alone with a flat vote per concept word misrouted 119, with the terms' odds 64. Of the
# 230 dev and probe questions (a second dev set of 150, written apart) whose game nothing names,
# 3 go to the wrong game (nearness alone: 10); any weight from 0.003 to 0.005 does as well. Concept
# words alone misled (players say "turn" or "loot" of both games); words alone too ("hero points"
# is PACG's, though "hero" and "points" are more often Aventuria's words).
WORD_ODDS_WEIGHT = 0.004
# And a card of only one game that the question names, this much (see _cards_lean).
CARD_WEIGHT = 0.005
# Nearer than this, the answer names the other game too: 30 of those 230, the 3 misrouted among them.
GAME_DOUBT = 0.03
# Words of the question itself, not of its subject.
QUESTION_WORDS = {
    "en": {
        "how",
        "what",
        "where",
        "which",
        "who",
        "why",
        "when",
        "do",
        "does",
        "did",
        "i",
        "me",
        "my",
        "mine",
        "happen",
        "happens",
        "get",
        "gets",
        "work",
        "works",
        "rule",
        "rules",
        "there",
        "any",
        "should",
        "would",
        "could",
        "has",
        "had",
        "than",
        "then",
        "so",
        "about",
        "explain",
        "mean",
        "means",
    },
    "es": {
        "que",
        "como",
        "cuando",
        "donde",
        "cual",
        "cuales",
        "quien",
        "por",
        "puedo",
        "puede",
        "se",
        "es",
        "son",
        "hay",
        "hace",
        "regla",
        "reglas",
        "significa",
    },
}


class InvalidQuestion(DomainError):
    code = "invalid_question"


@dataclass
class Answer:
    question: str
    game: str
    found: bool
    results: list[dict[str, Any]]
    glossary: list[dict[str, Any]] = field(default_factory=list)
    did_you_mean: str | None = None
    conflicts: list[dict[str, Any]] = field(default_factory=list)
    cards: list[dict[str, Any]] = field(default_factory=list)
    concepts: list[str] = field(default_factory=list)
    other_game: str | None = None  # the game the question may be about instead (a link to ask it there)
    # "words" while the passages' vectors are being computed (rules.vectors), with what to expect.
    mode: str = "full"
    notice: str | None = None


def _ensure_index() -> None:
    if not textindex.exists(search.NAME):
        from .services import rebuild_rules_index

        rebuild_rules_index()


def _words(question: str) -> list[str]:
    return [w for w in search.plain_words(question) if w not in QUESTION_WORDS["en"] | QUESTION_WORDS["es"]]


@dataclass(frozen=True)
class Pipeline:
    """The pieces of the assistant, each of which bench/rules_quality.py can switch off to
    measure what it adds; the defaults are what the site runs."""

    spelling: bool = True  # correct words the books never use
    concepts: bool = False  # match the question's concepts on passage tags (measured: a question or two, either way)
    expansion: bool = True  # add the concepts' words in the other editions and languages
    phrasings: bool = True  # players' words for a concept (rules/phrasings.yaml) count as mentions
    player_words: bool = True  # the book words learned for players' words (rules/playerwords.py) searched too
    gloss: bool = True  # and their concepts' book words are embedded with the question
    newest_words: bool = True  # an older edition's word ranks with the newest edition's beside it
    terms: bool = True  # glossary entries named by the question
    names_as_types: bool = True  # a character or bane the question names is embedded as what it is (as_embedded)
    dense: bool = True  # sentence embeddings, fused with the word ranking
    # Share of the embedding similarity in the fused score. 0.65 -> 0.5 once the map made the
    # windows' cosines better (dev sets: top five 1,828 -> 1,832 of 1,876, MRR@10 0.908 -> 0.912;
    # 0.4 to 0.6 all above 0.65, 0.5 the best).
    dense_weight: float = 0.5
    adapter: bool = True  # the question's vector mapped nearer the rules' windows (rules.question_adapter)
    asked: bool = True  # the questions a passage answers count, in its words and its embedding similarity
    asked_share: float = 0.5  # ... their nearest's share in the latter (the rest: the nearest window's)
    asked_margin: float = 0.03  # ... and the nearest, less this much, can make the passage near enough
    word_odds: bool = True  # which game: the odds of the question's terms in each game's books (rules.wordodds)
    # A glossary entry ranks a little below the rules (the answer quotes the definitions of the
    # question's terms apart). 0.8 -> 0.95 once the rule a definition names came before it (all
    # eighteen dev sets: top five 2,714 -> 2,719 of 2,776, MRR@10 0.8799 -> 0.8806; 0.9 2,717, 1.0
    # 2,718 but 6 fewer at rank 1). Reference-sheet lines and examples of play ranked below the rule
    # too (0.9) until the label audit counted them as answers: without that, 616 dev questions
    # R@5 0.942 -> 0.946, MRR@10 0.849 -> 0.852.
    glossary_weight: float = 0.95
    follow_glossary: bool = True  # a glossary entry in the top five brings the rule it names, just before it
    named_book_weight: float = 1.5  # "in wrath ..." prefers the book the question names
    newest_weight: float = 1.1  # ... and one that names none, the newest rules in its language
    # At most this many passages of one book in the top five, when others answer and the question
    # names no book. 5 (no limit) -> 3: probe R@5 0.927 -> 0.940 (two questions whose other
    # edition's rule was crowded out), dev the same; 2 loses two probe questions.
    per_book: int = 3
    # ... and only for a passage of another book that comes near: at least this share of the score
    # of the one it displaces. 0 -> 0.85 (0.85 to 0.9 alike): on dev, probe and probe2 (labels
    # audited) R@5 0.958 -> 0.961, none lost: a Core answer at 0.92 no longer waits behind Wrath's
    # "Dealing with Cards" at 0.67.
    per_book_margin: float = 0.85
    boosts: dict[str, float] = field(default_factory=lambda: dict(search.BOOSTS))


FULL = Pipeline()
MAX_EXPANSION = 12
# At most this many learned book words are blended into the embedding the ranking reads (not into
# the one that picks the game: there, they cost 5 of the 496 dev questions their answer, most to the
# wrong game). Against the BM25 expansion alone: 1, 2, 3, 5 words moved 6, 7, 8, 9 answers up and
# 3, 2, 5, 4 down.
LEARNED_GLOSSES = 2


@lru_cache(maxsize=256)
def _suggestions_cached(question: str, generation: int) -> tuple[tuple[str, str], ...]:
    return tuple(search.suggestions(_words(question), language_of(question)).items())


def _suggestions(question: str) -> dict[str, str]:
    """Spelling corrections; the same for both games, so a question asks the corrector once."""
    return dict(_suggestions_cached(question, search.generation()))


def _corrected(question: str, corrections: dict[str, str]) -> str:
    for wrong, right in corrections.items():
        question = re.sub(rf"(?i)\b{re.escape(wrong)}\b", right, question)
    return question


def prepare(question: str, game: str | None, pipeline: Pipeline = FULL) -> tuple[search.Question, dict[str, str]]:
    """Stems in both languages, concepts and their other words, glossary terms, corrections."""
    corrections = _suggestions(question) if pipeline.spelling else {}
    corrected = _corrected(question, corrections)
    concepts = concept_table()
    said = [m for text in (question, corrected) for m in concepts.mentions(text, game, phrasings=pipeline.phrasings)]
    mentioned = list(dict.fromkeys(m.concept for m in said))
    # Players' words ("slip past") get the book's word ("evade") beside them for the embedding too.
    in_book = concepts.mentions(corrected, game)
    in_book_words = {m.concept for m in in_book}
    glosses = [concepts.concepts[c].words[0] for c in mentioned if c not in in_book_words]
    question_language, named = language_of(question), books_named(question)
    newest = _newest_words(in_book, question_language) if pipeline.newest_words and not named else []
    expansion = (
        " ".join(word for concept in mentioned for word in concepts.concepts[concept].words)
        if pipeline.expansion
        else ""
    )
    plain = _words(corrected)
    words = {language: search.analyze(" ".join(plain), language) for language in search.LANGUAGES}
    # The concepts' other words, new ones only and at most a dozen a language: each word is
    # four more clauses in the query, and the ranking gains nothing from the long tail.
    expanded = {
        language: [w for w in dict.fromkeys(search.analyze(expansion, language)) if w not in words[language]][
            :MAX_EXPANSION
        ]
        for language in search.LANGUAGES
    }
    # And the book words its players' words stand for, learned from the passages' questions.
    learned = (
        _per_index("player_words", _player_words).book_words(words[question_language], game, question_language)
        if pipeline.player_words and game
        else []
    )
    for target in learned:
        if target.stem not in words[target.language] and target.stem not in expanded[target.language]:
            expanded[target.language].append(target.stem)
    blended = {*glosses, *newest}  # in the question's embedding already
    learned_glosses = tuple(dict.fromkeys(t.word for t in learned if t.word not in blended))[:LEARNED_GLOSSES]
    terms = [" ".join(plain[i : i + n]) for n in (1, 2, 3) for i in range(len(plain) - n + 1)] if pipeline.terms else []
    if pipeline.terms and pipeline.expansion:
        terms += [" ".join(search.plain_words(w)) for concept in mentioned for w in concepts.concepts[concept].words]
    return (
        search.Question(
            words=words,
            concepts=mentioned if pipeline.concepts else [],
            terms=terms,
            expanded=expanded,
            language=question_language,
            books=frozenset(named),
            glosses=tuple(glosses) if pipeline.gloss else (),
            newest=tuple(word for word in newest if word not in glosses),
            learned=learned_glosses,
        ),
        corrections,
    )


def _newest_words(mentions: list[Mention], language: str) -> list[str]:
    """The newest edition's word for each concept the question says (`mentions`, in the books'
    words) in an older edition's words ("blessings deck": "hourglass"). A player who names no
    edition most likely plays the newest (as `_rerank` assumes) with the words of the one before.
    English only: the Spanish book is the newest in Spanish."""
    if language != "en":
        return []
    table = concept_table()
    newest_books = _per_index("newest_books", _newest_books).get(language, {})
    editions = {EDITIONS.get(ruleset, ruleset) for ruleset in newest_books.values()}
    words = []
    for mention in mentions:
        for edition in editions:
            newest = table.concepts[mention.concept].terms.get(edition, ())
            if newest and mention.word not in map(fold, newest):
                words.append(newest[0])
    return list(dict.fromkeys(words))


_SPANISH = {
    "que",
    "el",
    "la",
    "los",
    "las",
    "de",
    "del",
    "en",
    "un",
    "una",
    "se",
    "mi",
    "mis",
    "si",
    "y",
    "con",
    "por",
    "para",
    "cuando",
    "como",
    "puedo",
    "hay",
    "es",
    "al",
    "lo",
    "le",
    "o",
    "tengo",
    "pasa",
}
_ENGLISH = {
    "the",
    "a",
    "an",
    "of",
    "in",
    "on",
    "to",
    "is",
    "are",
    "my",
    "i",
    "if",
    "and",
    "or",
    "with",
    "for",
    "can",
    "do",
    "does",
    "what",
    "how",
    "when",
    "where",
    "it",
    "you",
    "your",
}


def language_of(question: str) -> str:
    """es or en, from the question's small words and Spanish punctuation; a question typed as
    keywords ("enterrar vs quemar") has none, and goes by how common its words are in each."""
    words = search.plain_words(question)
    spanish: float = sum(word in _SPANISH for word in words) + 2 * ("¿" in question or "ñ" in question)
    english: float = sum(word in _ENGLISH for word in words)
    if spanish == english:
        spanish, english = (sum(zipf_frequency(word, language) for word in words) for language in ("es", "en"))
    return "es" if spanish > english else "en"


def named_cards(question: str) -> dict[str, list[Card]]:
    """The cards the question names, per game (a card name settles which game it is about)."""
    table = concept_table()
    return cards_named_in(question, games={game: table.vocabulary(game) for game in ("pacg", "aventuria")})


def _game_of(question: str, game: str | None, books: list[str]) -> str | None:
    """The game the question is about when that is certain: given, or a book of it given or
    named. None otherwise: both games are searched, and the nearer wins."""
    if game:
        return game
    if books:
        return Rulebook.objects.filter(slug__in=books).values_list("game", flat=True).first() or "pacg"
    named = {"aventuria" if book == "aventuria" else "pacg" for book in books_named(question)}
    return named.pop() if len(named) == 1 else None


def _cards_lean(cards: dict[str, list[Card]]) -> float:
    """How far the cards the question names lean to Aventuria (above 0) or to PACG (below 0):
    "can I use the Longspear to reroll" is likelier about the game of the Longspear. Evidence,
    not proof: the card lists hold 467 PACG cards and 48 of Aventuria, so the names of common
    gear ("Leather Armor", "Chainmail") are PACG's there though Aventuria's heroes wear
    it too. When a card name settled the game, 4 of the 17 questions of the dev sets (dev, probe,
    probe2) that name one went to the wrong game; weighed with the rest, 1 (any weight up to
    0.01). R@5 on dev and probe 0.947 -> 0.951, on probe2 0.883 -> 0.900, none lost. A card
    named with a common word ("Curse", "Horse", "Market") names nothing: players of either game
    say it."""
    named = {g for g, found in cards.items() if any(_distinctive(card.name_folded) for card in found)}
    if len(named) != 1:
        return 0.0
    return CARD_WEIGHT if named == {"aventuria"} else -CARD_WEIGHT


def _distinctive(name: str) -> bool:
    return " " in name or zipf_frequency(name, "en") < search.COMMON_WORD


def _words_lean(question: str, pipeline: Pipeline) -> float:
    """How far the question's terms lean to Aventuria (above 0) or to PACG (below 0), read with
    its typos corrected ("we won a chalise" is Aventuria's)."""
    if not pipeline.word_odds:
        return 0.0
    if pipeline.spelling:
        question = _corrected(question, _suggestions(question))
    return WORD_ODDS_WEIGHT * _per_index("word_odds", _word_odds).log_odds(question, "aventuria", "pacg")


def _terms(text: str) -> list[str]:
    """The text's words, a concept's words as one term: "hero points" is PACG's, though "hero" and
    "points" are more often Aventuria's words."""
    table = concept_table()
    rest = fold(text)
    concepts = []
    for mention in table.mentions(text):
        concepts.append(f"~{mention.concept}")
        rest = rest[: mention.start] + " " * (mention.end - mention.start) + rest[mention.end :]
    return [*wordodds.words(rest), *concepts]


def validate(question: str) -> str:
    question = " ".join(question.split())
    if not question:
        raise InvalidQuestion("ask a question: q is empty", details={"q": question})
    if len(question) > MAX_QUESTION:
        raise InvalidQuestion(f"q is longer than {MAX_QUESTION} characters", details={"length": len(question)})
    return question


def check_filters(game: str | None, books: list[str], kinds: list[str]) -> None:
    if game and game not in {"pacg", "aventuria"}:
        raise InvalidQuestion(f"game must be pacg or aventuria, not {game!r}", details={"game": game})
    known = set(Rulebook.objects.values_list("slug", flat=True)) if books else set()
    unknown = [book for book in books if book not in known]
    if unknown:
        raise InvalidQuestion(
            f"no rulebook has the slug {unknown[0]!r}; use one of {', '.join(sorted(known))}", details={"book": unknown}
        )
    bad_kinds = [kind for kind in kinds if kind not in Passage.KINDS]
    if bad_kinds:
        raise InvalidQuestion(f"kind must be one of {', '.join(Passage.KINDS)}", details={"kind": bad_kinds})


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
    _ensure_index()
    if pipeline.dense and not _per_index("vectors_ready", vectors.vectors_ready):
        pipeline = replace(pipeline, dense=False)
    certain = _game_of(query, game, books)
    cards = cards if cards is not None else named_cards(query)
    embedded = as_embedded(query, cards) if pipeline.names_as_types else query
    encoded: dict[str, np.ndarray] = {}  # the question's embedding, once for both games
    if certain:
        return _found(query, embedded, certain, pipeline, encoded, books=books, kinds=kinds, limit=limit)
    # No game is given or named: ask both and keep the nearer. Each game reads the question with its
    # own words (glosses), so the comparison is fair to both.
    prior = _words_lean(query, pipeline) + _cards_lean(cards)
    pacg, aventuria = (
        _found(query, embedded, g, pipeline, encoded, books=books, kinds=kinds, limit=limit)
        for g in ("pacg", "aventuria")
    )
    lean = _leaning(aventuria, pacg, prior)
    chosen, other = (aventuria, pacg) if lean > 0 else (pacg, aventuria)
    if abs(lean) < GAME_DOUBT and confident(other):
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
    hits = _ranked(prepared, cosines, pipeline, games=[game], books=books, kinds=kinds, limit=limit)
    return Found(hits, prepared, game, corrections, closeness, asked, dense=pipeline.dense)


# The card types a question names by a name the rules never use ("Valeros" is a character, "the
# Ghoul" a monster), embedded as the type instead. A boon's name says what it is in the rules'
# words already ("Leather Armor", "Longsword") and stays.
NAMED_BY_TYPE = frozenset(
    {"character", "cohort", "location", "villain", "henchman", "monster", "barrier", "scourge", "hero", "opponent"}
)
_POSSESSIVES = ("my", "his", "her", "your", "their", "our")
_DETERMINER = rf"(?:({'|'.join(('the', 'an', 'a', *_POSSESSIVES))})\s+)?"


def as_embedded(question: str, cards: dict[str, list[Card]]) -> str:
    """The question as its embedding reads it: each character, bane or location it names by its
    type ("Valeros just flipped the Ghoul" -> "the character just flipped the monster"). The
    embedding of a short question leans on its rarest words, and a name, which the rulebooks
    hardly ever use, draws it to whatever passage happens to; the type is what a rule is about.
    English only: the type words are. On the fourteen dev sets: in the top five 2,003 -> 2,005
    of 2,056 (no set lost one), at rank 1 1,732 -> 1,737, MRR@10 0.900 -> 0.902; boons' names
    too: 2,004 (a "leather armor" question lost as "the armor"), characters' alone 2,004."""
    if language_of(question) != "en":
        return question
    for card in (card for found in cards.values() for card in found):
        if card.type not in NAMED_BY_TYPE or not _distinctive(card.name_folded):
            continue

        def typed(match: re.Match[str], word: str = card.type) -> str:
            determiner = (match.group(1) or "").lower()
            return f"{determiner if determiner in _POSSESSIVES else 'the'} {word}{match.group(2) or ''}"

        question = re.sub(rf"(?i)\b{_DETERMINER}{re.escape(card.name)}('s)?\b", typed, question)
    return question


def _to_windows(vector: np.ndarray, pipeline: Pipeline) -> np.ndarray | None:
    """The question's vector to compare with the passages' windows: mapped nearer the rule's
    words (rules.question_adapter); its own is compared with the passages' questions."""
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


def _player_words() -> PlayerWords:
    rows = Passage.objects.values_list("book__game", "book__language", "heading", "text", "questions")
    passages = (
        PlayerPassage(game, language, f"{heading} {text}", questions)
        for game, language, heading, text, questions in rows
    )
    return PlayerWords(passages, search.stem, language_of)


def _word_odds() -> WordOdds:
    rows = Passage.objects.values_list("book__game", "text", "questions")
    return WordOdds(((game, " ".join([text, *questions])) for game, text, questions in rows), _terms)


def _leaning(found: Found, other: Found, prior: float) -> float:
    """How much better `found` answers the question than `other` (below 0: worse), the question's
    words and the cards it names leaning `prior` to found's game: by its nearest passage question
    and the prior, or without embeddings, by the prior, then by best score."""
    if not found.hits or not other.hits:
        return math.inf if found.hits else -math.inf
    if found.asked is not None and other.asked is not None:
        return found.asked - other.asked + prior
    if prior:
        return prior
    return found.hits[0].score / other.hits[0].score - 1.3


def confident(found: Found) -> bool:
    """Whether the best passage is near enough the question to be an answer (without embeddings,
    as the benchmark's ablations run, any passage that shares a word is)."""
    return bool(found.hits) and (found.closeness is None or found.closeness >= CONFIDENCE)


def _ranked(
    question: search.Question,
    cosines: tuple[list[search.Hit], dict[int, float]],
    pipeline: Pipeline,
    *,
    games: list[str],
    books: list[str],
    kinds: list[str],
    limit: int,
) -> list[search.Hit]:
    """Word ranking (BM25 with boosts and concepts) fused with embedding similarity: each
    candidate scores (1 - w) x its BM25 score relative to the best + w x its cosine, rescaled
    so that the nearest passage in scope is 1 and the farthest 0 (E5's cosines all lie between
    about 0.7 and 0.95, so raw they would barely move the ranking)."""
    boosts = pipeline.boosts if pipeline.asked else {**pipeline.boosts, "asked": 0.0}
    words = search.search(question, games=games, books=books, kinds=kinds, limit=search.RERANK_DEPTH, boosts=boosts)
    by_meaning, similarity = cosines
    if not similarity:
        return words[:limit]
    top_words = words[0].score if words else 1.0
    by_words = {hit.pid: hit.score / top_words for hit in words}
    candidates = {hit.pid: hit for hit in [*words, *by_meaning]}
    weight, best, lowest = pipeline.dense_weight, by_meaning[0].score, min(similarity.values())
    spread = best - lowest or 1.0

    def fuse(pid: int) -> float:
        meaning = (similarity[pid] - lowest) / spread if pid in similarity else 0.0
        return (1 - weight) * by_words.get(pid, 0.0) + weight * meaning

    fused = [search.Hit(pid, hit.book, hit.kind, round(fuse(pid), 6)) for pid, hit in candidates.items()]
    return _rerank(fused, question, pipeline, kinds)[:limit]


BOOK_NAMES = {
    "core": ("core set", "core rules", "core rulebook"),
    "wotr": ("wrath of the righteous", "wrath", "wotr"),
    "rotr_es": ("rise of the runelords", "runelords", "rotr", "señores de las runas", "auge de los señores"),
    "aventuria": ("aventuria", "chalices of power"),
}


def books_named(question: str) -> set[str]:
    folded = fold(question)
    return {book for book, names in BOOK_NAMES.items() if any(re.search(rf"\b{fold(n)}\b", folded) for n in names)}


def _rerank(
    hits: list[search.Hit], question: search.Question, pipeline: Pipeline, kinds: list[str]
) -> list[search.Hit]:
    """Priors the ranking functions don't know: the rule before its glossary entry, a book the
    question names comes first (else the newest rules in the question's language: a player who
    doesn't say which edition most likely plays the current one), and the top five show more
    than one book when others answer."""
    named = question.books
    preferred, weight = (
        (named, pipeline.named_book_weight) if named else (_newest(question.language), pipeline.newest_weight)
    )
    rescored = sorted(
        (
            search.Hit(
                hit.pid,
                hit.book,
                hit.kind,
                round(
                    hit.score
                    * (pipeline.glossary_weight if hit.kind == "glossary" else 1.0)
                    * (weight if hit.book in preferred else 1.0),
                    4,
                ),
            )
            for hit in hits
        ),
        key=lambda hit: -hit.score,
    )
    if pipeline.follow_glossary:
        rescored = _with_glossary_rules(rescored, kinds)
    # A question that names no book sees the other editions' rules too, when they answer: a
    # book's passage past its share waits while another book's, near enough, comes later.
    cap = 5 if named else pipeline.per_book
    top: list[search.Hit] = []
    later: list[search.Hit] = []
    counts: Counter[str] = Counter()
    for position, hit in enumerate(rescored):
        if len(top) < 5 and (
            counts[hit.book] < cap
            or not _near_rival(hit, rescored[position + 1 :], counts, cap, pipeline.per_book_margin)
        ):
            top.append(hit)
            counts[hit.book] += 1
        else:
            later.append(hit)
    if len(top) < 5:  # not enough other books: fill the top five in score order
        top, later = top + later[: 5 - len(top)], later[5 - len(top) :]
    return top + sorted(later, key=lambda hit: -hit.score)


def _near_rival(hit: search.Hit, rest: list[search.Hit], counts: Counter[str], cap: int, margin: float) -> bool:
    """Whether a passage of another book, still within its share, comes later at `margin` of
    `hit`'s score or more (so `hit`, past its own book's share, waits)."""
    return any(
        other.book != hit.book and counts[other.book] < cap and other.score >= margin * hit.score for other in rest
    )


def _newest(language: str) -> frozenset[str]:
    """The books of each game's newest ruleset ("core-2019" over "classic-2015") in a language."""
    return frozenset(_per_index("newest_books", _newest_books).get(language, {}))


def _newest_books() -> dict[str, dict[str, str]]:
    """language -> {slug: ruleset} of the books of each game's newest ruleset in it."""

    def year(ruleset: str) -> int:
        found = re.search(r"(\d{4})$", ruleset)
        return int(found.group(1)) if found else 0

    books = list(Rulebook.objects.values_list("slug", "game", "ruleset", "language"))
    newest: dict[str, dict[str, str]] = {}
    for slug, game, ruleset, language in books:
        latest = max(year(r) for _, g, r, lang in books if g == game and lang == language)
        if year(ruleset) == latest:
            newest.setdefault(language, {})[slug] = ruleset
    return newest


def _with_glossary_rules(hits: list[search.Hit], kinds: list[str]) -> list[search.Hit]:
    """ "Evade: End the encounter ... See Apply Any Evasion Effects on page 8": a definition that
    answers names the rule, so the rule comes just before it (at the definition's score) unless
    already above. The answer quotes the definitions of the question's terms apart; a player who
    asks where a cornered villain goes wants the rule first, not the entry for "Corner"."""
    targets = _per_index("glossary_targets", _glossary_targets)
    out: list[search.Hit] = []
    placed: set[int] = set()
    for position, hit in enumerate(hits):
        if hit.pid in placed:
            continue
        target = targets.get(hit.pid)
        if target and position < 5 and target.pid not in placed and (not kinds or target.kind in kinds):
            out.append(search.Hit(target.pid, target.book, target.kind, hit.score))
            placed.add(target.pid)
        out.append(hit)
        placed.add(hit.pid)
    return out


def _glossary_targets() -> dict[int, search.Hit]:
    """Each glossary entry's rule: the first passage of its book that its text links to."""
    passages = Passage.objects.values_list("pk", "book__slug", "anchor", "kind")
    by_anchor = {(book, anchor): search.Hit(pk, book, kind, 0.0) for pk, book, anchor, kind in passages}
    targets = {}
    for pk, book, links in Passage.objects.filter(kind="glossary").values_list("pk", "book__slug", "links"):
        found = [by_anchor[book, link["anchor"]] for link in links if (book, link["anchor"]) in by_anchor]
        if found and found[0].pid != pk:
            targets[pk] = found[0]
    return targets


def ask(question: str, *, game: str | None = None, books: list[str] | None = None, limit: int = 5) -> Answer:
    question = validate(question)
    cards = named_cards(question)
    result = search_passages(question, game=game, books=books, limit=limit, cards=cards)
    hits, prepared = result.hits, result.question
    did_you_mean = _corrected(question, result.corrections) if result.corrections else None
    found = confident(result)
    passages = Passage.objects.shown().in_bulk([hit.pid for hit in hits]) if found else {}
    results = [passage_result(passages[hit.pid], prepared, hit.score) for hit in hits if hit.pid in passages]
    return Answer(
        question=question,
        game=result.game,
        found=found,
        results=results,
        glossary=glossary_for(prepared, result.game, books or []),
        did_you_mean=did_you_mean,
        conflicts=conflicts_for({hit.pid for hit in hits} if found else set()),
        cards=[card_summary(card) for card in cards[result.game]],
        concepts=prepared.concepts,
        other_game=result.other_game,
        **({} if result.dense else {"mode": "words", "notice": vectors.words_only_notice(vectors.progress())}),
    )


def passage_result(passage: Passage, question: search.Question, score: float) -> dict[str, Any]:
    return {
        **_cited(passage),
        "book_title": passage.book.title,
        "path": passage.path,
        "kind": passage.kind,
        "highlight": highlight(passage.text, question, passage.book.language),
        "score": score,
    }


def _cited(passage: Passage) -> dict[str, Any]:
    """A passage as an answer or the edition panel cites it."""
    return {
        "id": passage.pk,
        "book": passage.book.slug,
        "heading": passage.heading,
        "part": passage.part,  # a long section's parts share its heading
        "text": passage.text,
        "url": passage.get_absolute_url(),
    }


_SENTENCE = re.compile(r"[^.!?\n]+(?:[.!?]+[\"”»)]*|$)")
_TOKEN = re.compile(r"\w+", re.UNICODE)


def highlight(text: str, question: search.Question, language: str, sentences: int = 2) -> str:
    """The passage's sentences that share most with the question, as HTML with <mark>."""
    wanted = set(question.words.get(language, []))
    scored = [(len(stems & wanted), start, sentence) for start, sentence, stems in _sentences(text, language)]
    best = sorted(scored, key=lambda item: (-item[0], item[1]))[:sentences]
    chosen = [sentence for _, _, sentence in sorted(best, key=lambda item: item[1]) if best and _ > 0] or [
        scored[0][2] if scored else text[:200]
    ]
    return " … ".join(_mark(sentence, wanted, language) for sentence in chosen)


@lru_cache(maxsize=4096)
def _sentences(text: str, language: str) -> tuple[tuple[int, str, frozenset[str | None]], ...]:
    """A passage's sentences, where each starts and its words' stems: the same passages answer
    many questions, and stemming every word of five passages took a twentieth of an answer."""
    found = ((match.start(), match.group().strip()) for match in _SENTENCE.finditer(text))
    return tuple(
        (start, sentence, frozenset(search.stem(word, language) for word in _TOKEN.findall(sentence)))
        for start, sentence in found
        if sentence
    )


def _mark(sentence: str, wanted: set[str], language: str) -> str:
    out, last = [], 0
    for match in _TOKEN.finditer(sentence):
        out.append(html.escape(sentence[last : match.start()]))
        word = html.escape(match.group())
        out.append(f"<mark>{word}</mark>" if search.stem(match.group(), language) in wanted else word)
        last = match.end()
    out.append(html.escape(sentence[last:]))
    return "".join(out)


def _per_index(key: str, compute):  # type: ignore[no-untyped-def]
    """Data derived from the passages, kept as long as the index they were indexed with."""
    _ensure_index()
    with textindex.reading(search.NAME) as (_, cache):
        if key not in cache:
            cache[key] = compute()
        return cache[key]


def _glossary_entries() -> list[dict[str, Any]]:
    return [
        {
            "term": entry.heading,
            "book": entry.book.slug,
            "game": entry.book.game,
            "definition": entry.text,
            "url": entry.get_absolute_url(),
            "words": " ".join(search.plain_words(entry.heading)),
        }
        for entry in Passage.objects.filter(kind="glossary").shown()
    ]


def glossary_for(question: search.Question, game: str, books: list[str]) -> list[dict[str, Any]]:
    """Definitions of the glossary terms the question uses, from the books of its game."""
    wanted = {fold(term) for term in question.terms}
    return [
        {key: entry[key] for key in ("term", "book", "definition", "url")}
        for entry in _per_index("glossary", _glossary_entries)
        if entry["game"] == game and (not books or entry["book"] in books) and entry["words"] in wanted
    ]


@cache
def _conflicts_raw(path: Path = CONFLICTS_FILE) -> list[dict[str, Any]]:
    return yamltext.load(path.read_text(encoding="utf-8")) or []


def conflicts() -> list[dict[str, Any]]:
    """The curated table of edition differences, each side resolved to its passages."""
    return _per_index("conflicts", _resolve_conflicts)


def _resolve_conflicts() -> list[dict[str, Any]]:
    # Each side names its passages by a phrase they contain: every book's text is read once.
    texts: dict[str, list[tuple[int, str]]] = {}
    for pk, book, text in Passage.objects.values_list("pk", "book__slug", "text"):
        texts.setdefault(book, []).append((pk, " ".join(text.split())))

    def containing(ref: dict[str, str]) -> int | None:
        phrase = " ".join(ref["phrase"].split())
        return next((pk for pk, text in texts.get(ref["book"], []) if phrase in text), None)

    raw = _conflicts_raw()
    cited = [[[containing(ref) for ref in side.get("passages", [])] for side in c["sides"]] for c in raw]
    passages = Passage.objects.shown().in_bulk({pk for sides in cited for pks in sides for pk in pks if pk is not None})
    return [
        {
            "id": conflict["id"],
            "topic": conflict["topic"],
            "sides": [
                {
                    "rulesets": side.get("rulesets", []),
                    "books": side.get("books", []),
                    "summary": side["summary"],
                    # Two of a side's phrases can lie in one passage: it is cited once.
                    "passages": [_cited(passages[pk]) for pk in dict.fromkeys(pks) if pk is not None],
                }
                for side, pks in zip(conflict["sides"], sides, strict=True)
            ],
        }
        for conflict, sides in zip(raw, cited, strict=True)
    ]


def conflicts_for(pids: set[int]) -> list[dict[str, Any]]:
    if not pids:
        return []
    return [
        conflict
        for conflict in conflicts()
        if any(passage["id"] in pids for side in conflict["sides"] for passage in side["passages"])
    ]


def card_summary(card: Card) -> dict[str, Any]:
    return {
        "id": card.uid,
        "name": card.name,
        "type": card.type_label,
        "set": card.card_set.name,
        "check": card.check_text or None,
        "url": card.get_absolute_url(),
    }
