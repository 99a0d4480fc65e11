"""Players' words for the books' words, learned from the passages' questions.

The questions each passage answers (rules/data/rulebooks/questions/) are written the way players
ask, so they use words the books never do ("obstacle", "shut", "tap"). Where such a word comes up
in the questions of several passages whose text shares a book word ("barrier", "close",
"exhaust") far more often than passages do at large, that book word is what players mean by it:
a question using the player's word about any passage is searched with the book's word too. The
idea of translation models for question retrieval (Xue, Jeon and Croft, SIGIR 2008), kept to the
words the books lack, where the books' own words cannot match. rules/phrasings.yaml holds such
words written by hand; these are learned per game and question language from each index, at its
first question (1.6 s here; a serving process's warm-up asks it).
"""

from __future__ import annotations

import math
from collections import Counter, defaultdict
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import NamedTuple

from ..words import spoken_words

# A player's word: in the questions of this many passages or more, in the text of at most this many.
MIN_PASSAGES = 2
MAX_IN_BOOKS = 1
# A book word it stands for: in at least this share of those passages' text, and this many times
# likelier there than in a passage at large. On the 496 development questions, against these: a
# word in the books' text 3 or 5 times still a player's word, 1-2 answers up and 5-6 down; a share
# of 0.5, 3 up and 1 down, out of the top five.
MIN_SHARE = 0.6
MIN_LIFT = 4.0
PER_WORD = 2  # the best book words kept per player's word (4: one answer down, none more up)


@dataclass(frozen=True)
class Passage:
    game: str
    language: str  # of the book
    text: str
    questions: list[str]


class Target(NamedTuple):
    """A book word a player's word stands for."""

    language: str
    stem: str  # as the index reads it
    word: str  # the books' commonest word with that stem (the question's embedding blends it in)


Stem = Callable[[str, str], "str | None"]  # (word, language) -> its stem, None for a stop word


class PlayerWords:
    def __init__(self, passages: Iterable[Passage], stem: Stem, language_of: Callable[[str], str]):
        """`stem` reads a word as the index does, `language_of` tells a question's language (one
        book's questions are in two)."""
        # (game, question language) -> player's stem -> the book words it stands for
        self.table: dict[tuple[str, str], dict[str, list[Target]]] = {}

        def stems(text: str, language: str) -> list[str]:
            return [found for word in spoken_words(text) if (found := stem(word, language))]

        # game -> its passages, each with the (language, stem) of its text's words
        by_game: dict[str, list[tuple[Passage, set[tuple[str, str]]]]] = defaultdict(list)
        spelled: Counter[tuple[str, str, str]] = Counter()  # (language, stem, word) in the books
        for passage in passages:
            text: set[tuple[str, str]] = set()
            for word in spoken_words(passage.text):
                if found := stem(word, passage.language):
                    spelled[passage.language, found, word] += 1
                    text.add((passage.language, found))
            by_game[passage.game].append((passage, text))
        commonest: dict[tuple[str, str], str] = {}
        for (language, found, word), _ in spelled.most_common():
            commonest.setdefault((language, found), word)
        for game, read in by_game.items():
            members, texts = [passage for passage, _ in read], [text for _, text in read]
            asked: dict[str, list[set[str]]] = {}  # question language -> each passage's question stems
            for index, passage in enumerate(members):
                for question in passage.questions:
                    language = language_of(question)
                    asked.setdefault(language, [set() for _ in members])[index].update(stems(question, language))
            for language, words in asked.items():
                learned = _learn(texts, words, language)
                self.table[game, language] = {
                    word: [Target(lang, found, commonest[lang, found]) for lang, found in targets]
                    for word, targets in learned.items()
                }

    def book_words(self, stems: Iterable[str], game: str, language: str) -> list[Target]:
        """The book words the question's stems stand for, in its game."""
        table = self.table.get((game, language), {})
        return list(dict.fromkeys(target for stem in stems for target in table.get(stem, ())))


def _learn(texts: list[set[tuple[str, str]]], words: list[set[str]], language: str) -> dict[str, list[tuple[str, str]]]:
    in_books = Counter(stem for text in texts for lang, stem in text if lang == language)
    asked = [index for index, found in enumerate(words) if found]
    base = Counter(target for index in asked for target in texts[index])
    passages_of: dict[str, list[int]] = defaultdict(list)
    for index in asked:
        for word in words[index]:
            passages_of[word].append(index)
    table = {}
    for word, indexes in passages_of.items():
        if len(indexes) < MIN_PASSAGES or in_books[word] > MAX_IN_BOOKS or not _meaningful(word):
            continue
        together = Counter(target for index in indexes for target in texts[index] if _meaningful(target[1]))
        scored = []
        for target, count in together.items():
            share, lift = count / len(indexes), (count / len(indexes)) / (base[target] / len(asked))
            if share >= MIN_SHARE and lift >= MIN_LIFT:
                scored.append((-share * math.log(lift), target))
        if scored:
            table[word] = [target for _, target in sorted(scored)[:PER_WORD]]
    return table


def _meaningful(stem: str) -> bool:
    """A word of three letters or more: not a page number ("see page 22" was learned for "lackey"
    beside "henchman") nor a dice code."""
    return len(stem) >= 3 and stem.isalpha()
