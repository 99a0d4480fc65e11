"""A passage's best-matching question, by its words: BM25 over the passages' questions one by
one, a passage scoring as its best question does.

The index also reads all of a passage's questions as one field (`asked`): there a passage with
dozens of questions that each share a word or two with the player's can outscore one whose single
question says what the player said. Beside that field, not instead of it (alone it lost 6 answers
from the development sets' top five and 89 from rank 1; tests/rules/eval/README.md).
"""

from __future__ import annotations

import math
from collections import Counter, defaultdict
from collections.abc import Callable, Iterable

import numpy as np

from ..words import index_words

K1, B = 1.2, 0.75  # Whoosh's BM25F defaults, as the index scores its fields
Stem = Callable[[str, str], str | None]


class BestQuestion:
    def __init__(self, questions: Iterable[list[str]], languages: Iterable[str], stem: Stem) -> None:
        """`questions`: each passage's questions, in the order scores are wanted in."""
        questions = list(questions)
        self.passages = len(questions)
        self.owner = np.repeat(np.arange(len(questions)), [len(asked) for asked in questions])
        texts = [index_words(text) for asked in questions for text in asked]
        self.postings = {language: self._postings(texts, language, stem) for language in languages}

    @staticmethod
    def _postings(texts: list[list[str]], language: str, stem: Stem) -> dict[str, tuple[np.ndarray, np.ndarray]]:
        """Each word's questions and its BM25 score in each."""
        stems = {token: stem(token, language) for token in {token for text in texts for token in text}}
        counts = [Counter(word for token in text if (word := stems[token]) is not None) for text in texts]
        lengths = np.array([words.total() for words in counts], dtype=np.float64)
        norm = K1 * (1 - B + B * lengths / (lengths.mean() if len(lengths) else 1.0))
        found: dict[str, tuple[list[int], list[int]]] = defaultdict(lambda: ([], []))
        for question, words in enumerate(counts):
            for word, count in words.items():
                found[word][0].append(question)
                found[word][1].append(count)
        postings = {}
        for word, (questions, frequencies) in found.items():
            where, tf = np.array(questions), np.array(frequencies, dtype=np.float64)
            idf = math.log(1 + (len(texts) - len(where) + 0.5) / (len(where) + 0.5))
            postings[word] = (where, idf * tf * (K1 + 1) / (tf + norm[where]))
        return postings

    def scores(self, words: Iterable[tuple[str, str, float]]) -> np.ndarray:
        """Each passage's best question's score for the weighted (language, word) terms; 0 for a
        passage without questions."""
        by_question = np.zeros(len(self.owner))
        for language, word, weight in words:
            if (posting := self.postings.get(language, {}).get(word)) is not None:
                by_question[posting[0]] += weight * posting[1]
        best = np.zeros(self.passages)
        np.maximum.at(best, self.owner, by_question)
        return best
