"""Stage 5, answer: the ranked passages quoted with the sentences that answer highlighted and
cited, the definitions of the question's terms, each edition's rule where the editions differ,
the cards the question names, and "did you mean"."""

from __future__ import annotations

import html
import re
from dataclasses import dataclass, field
from functools import cache, lru_cache
from pathlib import Path
from typing import Any

from cards.dataformat.text import fold
from cards.models import Card
from pacg_site import yamltext

from .. import search
from ..models import Passage
from ..words import INDEX_WORD
from . import vectors
from .pipeline import per_index
from .retrieve import confident, search_passages
from .understand import named_cards, validate, with_corrections

CONFLICTS_FILE = Path(__file__).resolve().parent.parent / "conflicts.yaml"


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
    # "words" while the passages' vectors are being computed (vectors.py), with what to expect.
    mode: str = "full"
    notice: str | None = None


def ask(question: str, *, game: str | None = None, books: list[str] | None = None, limit: int = 5) -> Answer:
    question = validate(question)
    cards = named_cards(question)
    result = search_passages(question, game=game, books=books, limit=limit, cards=cards)
    hits, prepared = result.hits, result.question
    did_you_mean = with_corrections(question, result.corrections) if result.corrections else None
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
        **citation(passage),
        "book_title": passage.book.title,
        "path": passage.path,
        "kind": passage.kind,
        "highlight": highlight(passage.text, question, passage.book.language),
        "score": score,
    }


def citation(passage: Passage) -> dict[str, Any]:
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
        (start, sentence, frozenset(search.stem(word, language) for word in INDEX_WORD.findall(sentence)))
        for start, sentence in found
        if sentence
    )


def _mark(sentence: str, wanted: set[str], language: str) -> str:
    out, last = [], 0
    for match in INDEX_WORD.finditer(sentence):
        out.append(html.escape(sentence[last : match.start()]))
        word = html.escape(match.group())
        out.append(f"<mark>{word}</mark>" if search.stem(match.group(), language) in wanted else word)
        last = match.end()
    out.append(html.escape(sentence[last:]))
    return "".join(out)


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
        for entry in per_index("glossary", _glossary_entries)
        if entry["game"] == game and (not books or entry["book"] in books) and entry["words"] in wanted
    ]


@cache
def _conflicts_raw(path: Path = CONFLICTS_FILE) -> list[dict[str, Any]]:
    return yamltext.load(path.read_text(encoding="utf-8")) or []


def conflicts() -> list[dict[str, Any]]:
    """The curated table of edition differences, each side resolved to its passages."""
    return per_index("conflicts", _resolve_conflicts)


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
                    "passages": [citation(passages[pk]) for pk in dict.fromkeys(pks) if pk is not None],
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
