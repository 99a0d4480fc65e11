"""Reads of the card database: search, card pages, autocomplete."""

from __future__ import annotations

from dataclasses import dataclass

from django.db.models import QuerySet

from pacg_site import textindex

from .dataformat.cardtypes import TYPES
from .dataformat.text import fold
from .models import Card, CardSet
from .search import index, orm
from .search import parser as ast
from .search.fields import ORDERINGS
from .search.parser import SearchSyntaxError, parse
from .search.words import words

BACKENDS = {"index": index.search, "orm": orm.search}
# What a result list shows (CardSummarySerializer, cards/browse.html): decoding the other JSON
# columns of 50 cards would cost more than the search itself.
LIST_FIELDS = (
    "uid",
    "name",
    "type",
    "subtype",
    "level",
    "level_code",
    "traits",
    "check_data",
    "language",
    "card_set__code",
    "card_set__name",
    "card_set__game",
    "card_set__homebrew",
)


@dataclass
class SearchPage:
    cards: list[Card]
    total: int
    page: int
    page_size: int

    @property
    def pages(self) -> int:
        return max(1, -(-self.total // self.page_size))

    @property
    def has_next(self) -> bool:
        return self.page < self.pages

    @property
    def has_previous(self) -> bool:
        return self.page > 1


def known_sets() -> dict[str, str]:
    """Every word `set:` accepts (code, alias, name; folded) mapped to the set's code."""
    accepted: dict[str, str] = {}
    for code, name, aliases in CardSet.objects.values_list("code", "name", "aliases"):
        for word in (code, name, *aliases):
            accepted.setdefault(fold(word).strip(), code)
    return accepted


def parse_query(query: str) -> ast.Node:
    return parse(query, known_sets=known_sets())


def search_cards(
    *,
    query: str = "",
    facets: list[ast.Node] | None = None,
    order: str = "name",
    page: int = 1,
    page_size: int = 50,
    backend: str = "index",
) -> SearchPage:
    """One page of the cards matching `query` and the facet terms, in `order`.

    Raises SearchSyntaxError for a malformed query. `backend="orm"` answers the same question
    with plain ORM queries (the benchmark's baseline)."""
    if order not in ORDERINGS:
        raise SearchSyntaxError(f"unknown order {order!r}; use one of {', '.join(ORDERINGS)}", 1, order)
    node = parse_query(query)
    if facets:
        node = ast.And((node, *facets)) if not isinstance(node, ast.Everything) else ast.And(tuple(facets))
    if backend == "index" and not textindex.exists(index.NAME):
        from .services import rebuild_index

        rebuild_index()
    uids, total = BACKENDS[backend](node, order=order, offset=(page - 1) * page_size, limit=page_size)
    by_uid = {
        card.uid: card for card in Card.objects.filter(uid__in=uids).select_related("card_set").only(*LIST_FIELDS)
    }
    return SearchPage([by_uid[uid] for uid in uids if uid in by_uid], total, page, page_size)


def card_detail(uid: str) -> Card:
    return Card.objects.select_related("card_set", "card_set__parent").get(uid=uid)


# Facts a card may lack without anyone missing them: optional by nature, not unknown.
OPTIONAL_FACTS = {
    "owner", "damage", "hour", "to_close_check", "to_guard_check", "aliases", "role", "race", "class", "gender",
    "proficiency_feats", "hand_size_feats", "suggested_deck", "cohort", "character",
}  # fmt: skip


def unknown_facts(card: Card) -> list[str]:
    """The facts a card of its type has that the rulebooks don't state (the page and the API say so)."""
    levelled = TYPES[card.type].group in {"bane", "boon", "support"} or card.game == "aventuria"
    fields = [*(["level"] if levelled else []), "traits", "powers", *TYPES[card.type].fields]
    known = {key for key, value in card.as_record().items() if value not in (None, "")} | set(card.data)
    return [name for name in fields if name not in known and name not in OPTIONAL_FACTS]


def namesakes(card: Card) -> QuerySet[Card]:
    """Cards of other products with the same name ("Core Set Ezren" vs "RotR Ezren")."""
    return (
        Card.objects.filter(name_folded=card.name_folded)
        .exclude(pk=card.pk)
        .select_related("card_set")
        .order_by("card_set__game", "card_set__order", "card_set__name")
    )


def autocomplete(prefix: str, *, limit: int = 10) -> list[dict[str, str]]:
    """Card names starting with the prefix, then names with a word starting with it."""
    folded = " ".join(words(prefix))
    if not folded:
        return []
    starts = Card.objects.filter(name_words__startswith=f" {folded}")
    contains = Card.objects.filter(name_words__contains=f" {folded}").exclude(name_words__startswith=f" {folded}")
    seen: dict[str, dict[str, str]] = {}
    for queryset in (starts, contains):
        for name, uid, set_name in queryset.order_by("name_folded", "uid").values_list("name", "uid", "card_set__name")[
            : limit * 3
        ]:
            seen.setdefault(name, {"name": name, "uid": uid, "set": set_name})
            if len(seen) >= limit:
                return list(seen.values())
    return list(seen.values())


def related_by_name(names: list[str], *, game: str) -> dict[str, Card]:
    """Resolve names mentioned on a card (a scenario's locations, a role's character) to cards."""
    folded = {" ".join(fold(name).split()): name for name in names}
    found: dict[str, Card] = {}
    for card in Card.objects.filter(name_folded__in=folded, card_set__game=game).select_related("card_set"):
        found.setdefault(folded[card.name_folded], card)
    return found


def cards_named_in(text: str, *, games: dict[str, frozenset[str]], limit: int = 5) -> dict[str, list[Card]]:
    """Per game, the cards whose full name appears in the text ("does Longspear reroll ...").
    Single-word names count only when long enough and not one of the game's excluded words (its
    rules vocabulary, given as `games`). One query for all the games."""
    tokens = [token.strip(".,;:!?¿¡()\"'«»") for token in fold(text).split()]
    tokens = [token for token in tokens if token]
    phrases = {" ".join(tokens[i : i + n]) for n in range(2, 6) for i in range(len(tokens) - n + 1)}
    words = {token for token in tokens if len(token) >= 5}
    grams = {game: phrases | (words - excluded) for game, excluded in games.items()}
    found = Card.objects.filter(name_folded__in=set().union(*grams.values()), card_set__game__in=games)
    named: dict[str, list[Card]] = {game: [] for game in games}
    for card in found.select_related("card_set").order_by("-card_set__order", "name"):
        game = card.card_set.game
        if card.name_folded in grams[game] and len(named[game]) < limit:
            named[game].append(card)
    return named
