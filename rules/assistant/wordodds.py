"""Which game a question's words belong to: each term's log odds of appearing in one game's
rulebooks (their text and their passages' questions) rather than the other's, summed over the
question's terms as in naive Bayes. "Endurance", "fate" or "life" lean to Aventuria, "blessing"
or "hourglass" to PACG, "turn" or "damage" hardly either way."""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Callable, Iterable

from ..words import letter_words


class WordOdds:
    def __init__(self, texts: Iterable[tuple[str, str]], terms: Callable[[str], list[str]] = letter_words):
        """`texts`: (game, text) pairs, the games' whole vocabulary; `terms` reads a text's words
        (or its terms: a phrase can count as one)."""
        self.terms = terms
        self.counts: dict[str, Counter[str]] = {}
        for game, text in texts:
            self.counts.setdefault(game, Counter()).update(terms(text))
        vocabulary = len(set().union(*self.counts.values()))
        # Add-one smoothing: a word one game never uses still has odds, not infinity.
        self.log_total = {game: math.log(counts.total() + vocabulary) for game, counts in self.counts.items()}

    def log_odds(self, text: str, game: str, other: str) -> float:
        """How much likelier the text's terms (each once) are in `game`'s books than in `other`'s;
        a term neither game's books use says nothing."""
        mine, theirs = self.counts.get(game, Counter()), self.counts.get(other, Counter())
        base = self.log_total.get(other, 0.0) - self.log_total.get(game, 0.0)
        return sum(
            math.log(mine[word] + 1) - math.log(theirs[word] + 1) + base
            for word in set(self.terms(text))
            if word in mine or word in theirs
        )
