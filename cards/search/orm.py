"""The search language compiled to plain ORM queries.

This is the straightforward baseline the benchmark measures the index against, and a second
opinion the tests compare the index with: both must return the same cards in the same order.
"""

from __future__ import annotations

from django.db import connection
from django.db.models import Case, Expression, F, IntegerField, Q, QuerySet, Value, When
from django.db.models.functions import Coalesce, Collate

from cards.models import Card, CardTag

from . import parser as ast
from .fields import COLUMN, NUMBER, WORDS
from .index import TYPE_ORDER, UNKNOWN_LEVEL

_LOOKUP = {"=": "exact", "<": "lt", "<=": "lte", ">": "gt", ">=": "gte"}


def compile_q(node: ast.Node) -> Q:
    if isinstance(node, ast.Everything):
        return Q()
    if isinstance(node, ast.Words):
        return _words_q("name_words", node.words, node.phrase) | _words_q("power_words", node.words, node.phrase)
    if isinstance(node, ast.ExactName):
        return Q(name_folded=node.name)
    if isinstance(node, ast.Not):
        return ~compile_q(node.node)
    if isinstance(node, ast.And):
        combined = Q()
        for child in node.nodes:
            combined &= compile_q(child)
        return combined
    if isinstance(node, ast.Or):
        combined = compile_q(node.nodes[0])
        for child in node.nodes[1:]:
            combined |= compile_q(child)
        return combined
    return _term_q(node)


def _words_q(column: str, words: tuple[str, ...], phrase: bool) -> Q:
    if phrase:
        return Q(**{f"{column}__contains": f" {' '.join(words)} "})
    combined = Q()
    for word in words:
        combined &= Q(**{f"{column}__contains": f" {word} "})
    return combined


def _term_q(term: ast.Term) -> Q:
    field = term.field
    if field.kind == WORDS:
        assert isinstance(term.value, tuple)
        return _words_q(field.tag, term.value, phrase=True)
    if field.kind == COLUMN:
        return Q(card_set__game=term.value) if field.tag == "game" else Q(language=term.value)
    if field.tag == "level":
        return Q(**{f"level__{_LOOKUP[term.op]}": term.value})
    tags = CardTag.objects.filter(kind=field.tag)
    if field.kind == NUMBER:
        tags = tags.filter(**{f"number__{_LOOKUP[term.op]}": term.value})
    else:
        tags = tags.filter(value=term.value)
    return Q(pk__in=tags.values("card_id"))


def _name_key() -> F | Collate:
    # Byte order, as in the index; PostgreSQL would otherwise sort by the locale's rules.
    return Collate("name_folded", "C") if connection.vendor == "postgresql" else F("name_folded")


def ordered(queryset: QuerySet[Card], order: str) -> QuerySet[Card]:
    descending = order.startswith("-")
    by_order: dict[str, list[F | Expression]] = {
        "name": [],
        "level": [Coalesce("level", Value(UNKNOWN_LEVEL))],
        "set": [F("card_set__game"), F("card_set__order"), F("card_set__name")],
        "type": [F("type_position")],
    }
    keys = by_order[order.lstrip("-")] + [_name_key(), F("uid")]
    if order.lstrip("-") == "type":
        queryset = queryset.annotate(type_position=_type_position())
    return queryset.order_by(*[key.desc() if descending else key.asc() for key in keys])


def _type_position() -> Case:
    return Case(*[When(type=name, then=Value(pos)) for name, pos in TYPE_ORDER.items()], output_field=IntegerField())


def search(node: ast.Node, *, order: str, offset: int, limit: int) -> tuple[list[str], int]:
    queryset = Card.objects.filter(compile_q(node))
    total = queryset.count()
    uids = list(ordered(queryset, order).values_list("uid", flat=True)[offset : offset + limit])
    return uids, total
