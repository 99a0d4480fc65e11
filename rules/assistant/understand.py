"""Stage 1, understand: what the question says. Its language, spelling corrections, the concepts
it names in players' or the books' words and their words in the other editions and languages,
the books and cards it names, glossary terms; and the question as its embedding reads it."""

from __future__ import annotations

import re
from functools import lru_cache

from wordfreq import zipf_frequency

from cards.dataformat.text import fold
from cards.models import Card
from cards.selectors import cards_named_in
from cards.vocabulary import EDITIONS
from pacg_site.errors import DomainError

from .. import search
from ..concepts import Mention, concept_table
from ..models import Passage, Rulebook
from .pipeline import FULL, Pipeline, per_index
from .playerwords import Passage as PlayerPassage
from .playerwords import PlayerWords

MAX_QUESTION = 300


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


def subject_words(question: str) -> list[str]:
    return [w for w in search.plain_words(question) if w not in QUESTION_WORDS["en"] | QUESTION_WORDS["es"]]


MAX_EXPANSION = 12


# At most this many learned book words are blended into the embedding the ranking reads (not into
# the one that picks the game: there, they cost 5 of the 496 dev questions their answer, most to the
# wrong game). Against the BM25 expansion alone: 1, 2, 3, 5 words moved 6, 7, 8, 9 answers up and
# 3, 2, 5, 4 down.
LEARNED_GLOSSES = 2


@lru_cache(maxsize=256)
def _suggestions_cached(question: str, generation: int) -> tuple[tuple[str, str], ...]:
    return tuple(search.suggestions(subject_words(question), language_of(question)).items())


def spelling_corrections(question: str) -> dict[str, str]:
    """Spelling corrections; the same for both games, so a question asks the corrector once."""
    return dict(_suggestions_cached(question, search.generation()))


def with_corrections(question: str, corrections: dict[str, str]) -> str:
    for wrong, right in corrections.items():
        question = re.sub(rf"(?i)\b{re.escape(wrong)}\b", right, question)
    return question


def prepare(question: str, game: str | None, pipeline: Pipeline = FULL) -> tuple[search.Question, dict[str, str]]:
    """Stems in both languages, concepts and their other words, glossary terms, corrections."""
    corrections = spelling_corrections(question) if pipeline.spelling else {}
    corrected = with_corrections(question, corrections)
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
    plain = subject_words(corrected)
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
        per_index("player_words", _player_words).book_words(words[question_language], game, question_language)
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
    newest_books = per_index("newest_books", _newest_books_by_language).get(language, {})
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


def distinctive(name: str) -> bool:
    return " " in name or zipf_frequency(name, "en") < search.COMMON_WORD


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
        if card.type not in NAMED_BY_TYPE or not distinctive(card.name_folded):
            continue

        def typed(match: re.Match[str], word: str = card.type) -> str:
            determiner = (match.group(1) or "").lower()
            return f"{determiner if determiner in _POSSESSIVES else 'the'} {word}{match.group(2) or ''}"

        question = re.sub(rf"(?i)\b{_DETERMINER}{re.escape(card.name)}('s)?\b", typed, question)
    return question


def _player_words() -> PlayerWords:
    rows = Passage.objects.values_list("book__game", "book__language", "heading", "text", "questions")
    passages = (
        PlayerPassage(game, language, f"{heading} {text}", questions)
        for game, language, heading, text, questions in rows
    )
    return PlayerWords(passages, search.stem, language_of)


BOOK_NAMES = {
    "core": ("core set", "core rules", "core rulebook"),
    "wotr": ("wrath of the righteous", "wrath", "wotr"),
    "rotr_es": ("rise of the runelords", "runelords", "rotr", "señores de las runas", "auge de los señores"),
    "aventuria": ("aventuria", "chalices of power"),
}


def books_named(question: str) -> set[str]:
    folded = fold(question)
    return {book for book, names in BOOK_NAMES.items() if any(re.search(rf"\b{fold(n)}\b", folded) for n in names)}


def newest_books(language: str) -> frozenset[str]:
    """The books of each game's newest ruleset ("core-2019" over "classic-2015") in a language."""
    return frozenset(per_index("newest_books", _newest_books_by_language).get(language, {}))


def _newest_books_by_language() -> dict[str, dict[str, str]]:
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
