"""Stage 2, which game: given, named by a book, or leaning one way by the question's words and
the cards it names; when neither settles it, both games are searched and the nearer wins
(rules.assistant.retrieve)."""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

from cards.dataformat.text import fold
from cards.models import Card

from ..concepts import concept_table
from ..models import Passage, Rulebook
from ..words import letter_words
from .pipeline import Pipeline, per_index
from .understand import books_named, distinctive, spelling_corrections, with_corrections
from .wordodds import WordOdds

if TYPE_CHECKING:
    from .retrieve import Found


# Which game a question is about, when neither the player nor a book or card name says: the game
# whose passages' questions come nearest, each unit of the log odds of the question's terms (its
# words, a concept's words as one term) in that game's books and passage questions (wordodds.py)
# worth this much nearness. On a sample of 800 passage questions (each one's own passage left out),
# nearness alone with a flat vote per concept word misrouted 119, with the terms' odds 64. Of the
# 230 dev and probe questions (a second dev set of 150, written apart) whose game nothing names,
# 3 go to the wrong game (nearness alone: 10); any weight from 0.003 to 0.005 does as well. Concept
# words alone misled (players say "turn" or "loot" of both games); words alone too ("hero points"
# is PACG's, though "hero" and "points" are more often Aventuria's words).
WORD_ODDS_WEIGHT = 0.004


# And a card of only one game that the question names, this much (see cards_lean).
CARD_WEIGHT = 0.005


# Nearer than this, the answer names the other game too: 30 of those 230, the 3 misrouted among them.
GAME_DOUBT = 0.03


def certain_game(question: str, game: str | None, books: list[str]) -> str | None:
    """The game the question is about when that is certain: given, or a book of it given or
    named. None otherwise: both games are searched, and the nearer wins."""
    if game:
        return game
    if books:
        return Rulebook.objects.filter(slug__in=books).values_list("game", flat=True).first() or "pacg"
    named = {"aventuria" if book == "aventuria" else "pacg" for book in books_named(question)}
    return named.pop() if len(named) == 1 else None


def cards_lean(cards: dict[str, list[Card]]) -> float:
    """How far the cards the question names lean to Aventuria (above 0) or to PACG (below 0):
    "can I use the Longspear to reroll" is likelier about the game of the Longspear. Evidence,
    not proof: the card lists hold 467 PACG cards and 48 of Aventuria, so the names of common
    gear ("Leather Armor", "Chainmail") are PACG's there though Aventuria's heroes wear
    it too. When a card name settled the game, 4 of the 17 questions of the dev sets (dev, probe,
    probe2) that name one went to the wrong game; weighed with the rest, 1 (any weight up to
    0.01). R@5 on dev and probe 0.947 -> 0.951, on probe2 0.883 -> 0.900, none lost. A card
    named with a common word ("Curse", "Horse", "Market") names nothing: players of either game
    say it."""
    named = {g for g, found in cards.items() if any(distinctive(card.name_folded) for card in found)}
    if len(named) != 1:
        return 0.0
    return CARD_WEIGHT if named == {"aventuria"} else -CARD_WEIGHT


def words_lean(question: str, pipeline: Pipeline) -> float:
    """How far the question's terms lean to Aventuria (above 0) or to PACG (below 0), read with
    its typos corrected ("we won a chalise" is Aventuria's)."""
    if not pipeline.word_odds:
        return 0.0
    if pipeline.spelling:
        question = with_corrections(question, spelling_corrections(question))
    return WORD_ODDS_WEIGHT * per_index("word_odds", _word_odds).log_odds(question, "aventuria", "pacg")


def _terms(text: str) -> list[str]:
    """The text's words, a concept's words as one term: "hero points" is PACG's, though "hero" and
    "points" are more often Aventuria's words."""
    table = concept_table()
    rest = fold(text)
    concepts = []
    for mention in table.mentions(text):
        concepts.append(f"~{mention.concept}")
        rest = rest[: mention.start] + " " * (mention.end - mention.start) + rest[mention.end :]
    return [*letter_words(rest), *concepts]


def _word_odds() -> WordOdds:
    rows = Passage.objects.values_list("book__game", "text", "questions")
    return WordOdds(((game, " ".join([text, *questions])) for game, text, questions in rows), _terms)


def leaning(found: Found, other: Found, prior: float) -> float:
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
