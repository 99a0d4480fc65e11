"""The cards index in Whoosh, and the search language evaluated over it.

Whoosh stores the inverted index (words with positions for phrases, and every tagged fact as a
"kind=value" keyword). Queries are evaluated here as set algebra over posting lists, cached
for the life of a searcher, and the page is cut with ranks precomputed at build time for each
order: Whoosh's own scoring and sorting would visit every match in Python on every query,
which at 25,000 cards is the whole latency budget.
"""

from __future__ import annotations

import heapq
from dataclasses import dataclass
from typing import Any

from whoosh import query as wq
from whoosh.analysis import SpaceSeparatedTokenizer
from whoosh.columns import NumericColumn
from whoosh.fields import COLUMN, ID, KEYWORD, TEXT, Schema
from whoosh.searching import Searcher

from cards.dataformat.cardtypes import TYPES
from pacg_site import textindex

from . import parser as ast
from .facts import CardFacts
from .fields import NUMBER, WORDS

NAME = "cards"
UNKNOWN_LEVEL = 99  # sorts cards of unknown level last, in the index and in the baseline
TYPE_ORDER = {name: position for position, name in enumerate(TYPES)}
ORDERS = ("name", "level", "set", "type")

_space = SpaceSeparatedTokenizer()
SCHEMA = Schema(
    uid=ID(stored=True, unique=True),
    name_words=TEXT(analyzer=_space, phrase=True),
    power_words=TEXT(analyzer=_space, phrase=True),
    name_exact=ID,
    tags=KEYWORD(lowercase=False, scorable=False),
    # Columns only (no postings): the ranks are read, never searched.
    **{f"rank_{order}": COLUMN(NumericColumn("I")) for order in ORDERS},
)


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

    def sort_key(self, order: str) -> tuple[Any, ...]:
        """Must agree with cards.search.orm.ordered, which sorts the baseline."""
        first = {
            "name": (),
            "level": (UNKNOWN_LEVEL if self.level is None else self.level,),
            "set": (self.set_position,),
            "type": (TYPE_ORDER[self.type],),
        }[order]
        return (*first, self.name_folded, self.uid)


def documents(cards: list[IndexedCard]) -> list[dict[str, Any]]:
    ranks = {
        order: {c.uid: rank for rank, c in enumerate(sorted(cards, key=lambda c: c.sort_key(order)))}
        for order in ORDERS
    }
    result = []
    for card in cards:
        tags = [f"{kind}={value}" for kind, value, _ in card.facts.tags]
        tags += [f"game={card.game}", f"language={card.language}"]
        if card.level is not None:
            tags.append(f"level={card.level}")
        result.append(
            {
                "uid": card.uid,
                "name_words": card.facts.name_words,
                "power_words": card.facts.power_words,
                "name_exact": card.name_folded,
                "tags": " ".join(tags),
                **{f"rank_{order}": ranks[order][card.uid] for order in ORDERS},
            }
        )
    return result


@dataclass(frozen=True)
class Matches:
    """A set of document numbers, or (complement=True) every document except those."""

    ids: frozenset[int]
    complement: bool = False

    def __and__(self, other: Matches) -> Matches:
        if not self.complement and not other.complement:
            return Matches(self.ids & other.ids)
        if self.complement and other.complement:
            return Matches(self.ids | other.ids, complement=True)
        positive, negative = (other, self) if self.complement else (self, other)
        return Matches(positive.ids - negative.ids)

    def __or__(self, other: Matches) -> Matches:
        if not self.complement and not other.complement:
            return Matches(self.ids | other.ids)
        if self.complement and other.complement:
            return Matches(self.ids & other.ids, complement=True)
        positive, negative = (other, self) if self.complement else (self, other)
        return Matches(negative.ids - positive.ids, complement=True)

    def __invert__(self) -> Matches:
        return Matches(self.ids, complement=not self.complement)


EVERYTHING = Matches(frozenset(), complement=True)


class _Evaluator:
    def __init__(self, searcher: Searcher, cache: dict[Any, Any]):
        self.searcher = searcher
        self.cache = cache

    def postings(self, field: str, term: str) -> frozenset[int]:
        key = ("postings", field, term)
        if key not in self.cache:
            reader = self.searcher.reader()
            found = (field, term) in reader
            self.cache[key] = frozenset(reader.postings(field, term).all_ids()) if found else frozenset()
        return self.cache[key]

    def tag_numbers(self, kind: str) -> list[int]:
        key = ("numbers", kind)
        if key not in self.cache:
            prefix = f"{kind}=".encode()
            self.cache[key] = sorted(
                int(term[len(prefix) :]) for term in self.searcher.reader().lexicon("tags") if term.startswith(prefix)
            )
        return self.cache[key]

    def evaluate(self, node: ast.Node) -> Matches:
        if isinstance(node, ast.Everything):
            return EVERYTHING
        if isinstance(node, ast.Not):
            return ~self.evaluate(node.node)
        if isinstance(node, ast.And):
            result = EVERYTHING
            for child in node.nodes:
                result &= self.evaluate(child)
            return result
        if isinstance(node, ast.Or):
            result = Matches(frozenset())
            for child in node.nodes:
                result |= self.evaluate(child)
            return result
        if isinstance(node, ast.Words):
            return self.words(("name_words", "power_words"), node.words, node.phrase)
        if isinstance(node, ast.ExactName):
            return Matches(self.postings("name_exact", node.name))
        return self.term(node)

    def words(self, fields: tuple[str, ...], words: tuple[str, ...], phrase: bool) -> Matches:
        if phrase and len(words) > 1:
            key = ("phrase", fields, words)
            if key not in self.cache:
                query = wq.Or([wq.Phrase(field, list(words)) for field in fields])
                self.cache[key] = frozenset(self.searcher.docs_for_query(query))
            return Matches(self.cache[key])
        result = EVERYTHING
        for word in words:
            found: frozenset[int] = frozenset()
            for field in fields:
                found |= self.postings(field, word)
            result &= Matches(found)
        return result

    def term(self, term: ast.Term) -> Matches:
        field = term.field
        if field.kind == WORDS:
            assert isinstance(term.value, tuple)
            return self.words((field.tag,), term.value, phrase=True)
        if field.kind == NUMBER:
            value = int(term.value)  # type: ignore[arg-type]
            compare = {"=": value.__eq__, "<": value.__gt__, "<=": value.__ge__, ">": value.__lt__, ">=": value.__le__}
            found: frozenset[int] = frozenset()
            for number in self.tag_numbers(field.tag):
                if compare[term.op](number):
                    found |= self.postings("tags", f"{field.tag}={number}")
            return Matches(found)
        return Matches(self.postings("tags", f"{field.tag}={term.value}"))

    def ranks(self, order: str) -> tuple[list[int], list[int]]:
        """(rank of each document, documents in rank order) for one order."""
        key = ("ranks", order)
        if key not in self.cache:
            rank = list(self.searcher.reader().column_reader(f"rank_{order}"))
            by_rank = [0] * len(rank)
            for docnum, position in enumerate(rank):
                by_rank[position] = docnum
            self.cache[key] = (rank, by_rank)
        return self.cache[key]

    def page(self, matches: Matches, order: str, offset: int, limit: int) -> tuple[list[int], int]:
        descending = order.startswith("-")
        rank, by_rank = self.ranks(order.lstrip("-"))
        wanted = offset + limit
        if not matches.complement:
            pick = heapq.nlargest if descending else heapq.nsmallest
            return pick(wanted, matches.ids, key=rank.__getitem__)[offset:], len(matches.ids)
        docnums = []
        for docnum in reversed(by_rank) if descending else by_rank:
            if docnum not in matches.ids:
                docnums.append(docnum)
                if len(docnums) == wanted:
                    break
        return docnums[offset:], len(rank) - len(matches.ids)


def search(node: ast.Node, *, order: str, offset: int, limit: int) -> tuple[list[str], int]:
    """The uids of one page of matches, in order, and the total number of matches."""
    with textindex.reading(NAME) as (searcher, cache):
        evaluator = _Evaluator(searcher, cache)
        docnums, total = evaluator.page(evaluator.evaluate(node), order, offset, limit)
        return [searcher.stored_fields(docnum)["uid"] for docnum in docnums], total
