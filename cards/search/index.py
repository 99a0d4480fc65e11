"""The cards index in Whoosh: its schema, its documents, and the search language compiled to
Whoosh queries. Words are pre-tokenized by cards.search.words, so the index needs no
analyzer of its own beyond splitting on spaces."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from whoosh import query as wq
from whoosh import sorting
from whoosh.analysis import SpaceSeparatedTokenizer
from whoosh.fields import ID, KEYWORD, NUMERIC, TEXT, Schema

from cards.dataformat.schema import TYPES
from pacg_site import textindex

from . import parser as ast
from .facts import CardFacts
from .fields import COLUMN, FIELDS, NUMBER, WORDS

NAME = "cards"
UNKNOWN_LEVEL = 99  # sorts cards of unknown level last, in the index and in the baseline

_words = SpaceSeparatedTokenizer()


def _schema() -> Schema:
    fields: dict[str, Any] = {
        "uid": ID(stored=True, unique=True),
        "name_words": TEXT(analyzer=_words, phrase=True),
        "power_words": TEXT(analyzer=_words, phrase=True),
        "name_exact": ID,
        "game": ID,
        "language": ID,
        "level": NUMERIC(int, bits=16),
        "name_sort": ID(sortable=True),
        "level_sort": NUMERIC(int, bits=16, sortable=True),
        "set_sort": NUMERIC(int, bits=32, sortable=True),
        "type_sort": NUMERIC(int, bits=16, sortable=True),
    }
    for field in FIELDS:
        if field.kind == NUMBER and field.tag != "level":
            fields[field.tag] = NUMERIC(int, bits=16)
        elif field.kind not in {WORDS, NUMBER, COLUMN}:
            fields[field.tag] = KEYWORD(commas=True, lowercase=False)
    return Schema(**fields)


SCHEMA = _schema()
TYPE_ORDER = {name: position for position, name in enumerate(TYPES)}


@dataclass(frozen=True)
class IndexedCard:
    uid: str
    name_folded: str
    game: str
    language: str
    level: int | None
    type: str
    set_position: int
    facts: CardFacts


def document(card: IndexedCard) -> dict[str, Any]:
    tags: dict[str, list[Any]] = {}
    for kind, value, number in card.facts.tags:
        tags.setdefault(kind, []).append(number if number is not None else value)
    doc: dict[str, Any] = {
        "uid": card.uid,
        "name_words": card.facts.name_words,
        "power_words": card.facts.power_words,
        "name_exact": card.name_folded,
        "game": card.game,
        "language": card.language,
        "name_sort": f"{card.name_folded}\x00{card.uid}",
        "level_sort": UNKNOWN_LEVEL if card.level is None else card.level,
        "set_sort": card.set_position,
        "type_sort": TYPE_ORDER[card.type],
    }
    if card.level is not None:
        doc["level"] = card.level
    for field in FIELDS:
        values = tags.get(field.tag)
        if not values or field.kind in {WORDS, COLUMN} or field.tag == "level":
            continue
        doc[field.tag] = values if field.kind == NUMBER else ",".join(values)
    return doc


def compile_query(node: ast.Node) -> wq.Query:
    if isinstance(node, ast.Everything):
        return wq.Every()
    if isinstance(node, ast.Words):
        return wq.Or([_words_query("name_words", node.words, node.phrase),
                      _words_query("power_words", node.words, node.phrase)])
    if isinstance(node, ast.ExactName):
        return wq.Term("name_exact", node.name)
    if isinstance(node, ast.Not):
        return wq.And([wq.Every(), wq.Not(compile_query(node.node))])
    if isinstance(node, ast.And):
        return wq.And([compile_query(child) for child in node.nodes])
    if isinstance(node, ast.Or):
        return wq.Or([compile_query(child) for child in node.nodes])
    return _term(node)


def _words_query(field: str, words: tuple[str, ...], phrase: bool) -> wq.Query:
    if phrase and len(words) > 1:
        return wq.Phrase(field, list(words))
    return wq.And([wq.Term(field, word) for word in words])


def _term(term: ast.Term) -> wq.Query:
    field = term.field
    if field.kind == WORDS:
        assert isinstance(term.value, tuple)
        return _words_query(field.tag, term.value, phrase=True)
    if field.kind == NUMBER:
        value = int(term.value)  # type: ignore[arg-type]
        low, high, start_excl, end_excl = {
            "=": (value, value, False, False),
            "<": (None, value, False, True),
            "<=": (None, value, False, False),
            ">": (value, None, True, False),
            ">=": (value, None, False, False),
        }[term.op]
        return wq.NumericRange(field.tag, low, high, startexcl=start_excl, endexcl=end_excl)
    return wq.Term(field.tag, term.value)


ORDER_FIELDS = {
    "name": ["name_sort"],
    "level": ["level_sort", "name_sort"],
    "set": ["set_sort", "name_sort"],
    "type": ["type_sort", "name_sort"],
}


def search(node: ast.Node, *, order: str, offset: int, limit: int) -> tuple[list[str], int]:
    """The uids of one page of matches, in order, and the total number of matches."""
    reverse = order.startswith("-")
    facet = sorting.MultiFacet([sorting.FieldFacet(name, reverse=reverse) for name in ORDER_FIELDS[order.lstrip("-")]])
    with textindex.searcher(NAME) as searcher:
        results = searcher.search(compile_query(node), limit=offset + limit, sortedby=facet)
        total = len(results)
        uids = [hit["uid"] for hit in results[offset : offset + limit]]
    return uids, total
