"""A linear map on question embeddings, learned from the books' own questions, that brings a
player's question nearer the sentence windows of the passage that answers it.

E5 embeds questions and rule text on two sides ("query: " / "passage: "), and a player's words
lie far from a rule's. The map W starts as the identity and is trained (numpy, softmax over all
passages by each one's nearest window, temperature TAU, pulled back towards the identity) on the
questions the books' questions files hold that were written from the passages' text: never the
development sets' ones (marked "# dev set") nor the held-out half's (none is in those files). A
question is then compared with the windows as `SHARE` x its mapped vector + the rest x itself
(unit length); with the passages' own questions, as embedded. `manage.py train_question_adapter`
trains it and writes ADAPTER, the blended map (float16, 288 KiB).

Measured on the 1,876 development questions (tests/rules/eval/README.md), each set without its
own copies among the passages' questions: in the top five 1,827 -> 1,828, at rank 1 1,595 ->
1,601, MRR@10 0.9045 -> 0.9078; held-out recall@1 0.743 -> 0.761, MRR@10 0.828 -> 0.840. Trained
against each passage's windows' mean instead of its nearest window it did nothing (1,828 / 1,594
/ 0.9049).
"""

from __future__ import annotations

import re
from functools import cache
from pathlib import Path

import numpy as np

from ..search import Vectors
from .embeddings import DIMENSIONS

ADAPTER = Path(__file__).resolve().parent.parent / "data" / "question_adapter.npy"
SHARE = 0.5
TAU = 0.05
EPOCHS = 20
BATCH = 128
RATE = 0.5
PULL = 1.0  # weight of |W - I|^2, over the training set
VALIDATION = 0.1  # share of the questions held back to report how much the map helps
DEV_SET = re.compile(r"#\s*dev set")


@cache
def adapter() -> np.ndarray | None:
    """The blended map, or None where none was trained (a question is then compared as embedded)."""
    if not ADAPTER.exists():
        return None
    return np.load(ADAPTER).astype(np.float32)


def adapt(vector: np.ndarray) -> np.ndarray:
    """The question's vector to compare with passages' windows."""
    blend = adapter()
    if blend is None:
        return vector
    mapped = blend @ vector
    return np.asarray(mapped / np.linalg.norm(mapped), dtype=np.float32)


def blended(trained: np.ndarray) -> np.ndarray:
    return ((1 - SHARE) * np.eye(DIMENSIONS) + SHARE * trained).astype(np.float16)


def own_questions(lines: list[str], items: list[tuple[int, str]]) -> list[str]:
    """The questions (with their 0-based lines) not marked as a development set's."""
    return [text for line, text in items if not DEV_SET.search(lines[line])]


class Windows:
    """Every passage's window vectors (`search.Vectors`, each passage with some), compared with
    many questions at once."""

    def __init__(self, vectors: Vectors) -> None:
        self.matrix, self.starts, self.counts = vectors.matrix, vectors.starts, vectors.counts

    def nearest(self, questions: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """Each question's cosine to each passage's nearest window, and that window's row."""
        cosines = (questions @ self.matrix.T).astype(np.float32)
        best = np.maximum.reduceat(cosines, self.starts, axis=1)
        columns = len(self.matrix)
        at_best = cosines >= np.repeat(best, self.counts, axis=1)
        rows = np.minimum.reduceat(np.where(at_best, np.arange(columns), columns), self.starts, axis=1)
        return best, rows

    def rank_of(self, questions: np.ndarray, answers: np.ndarray) -> np.ndarray:
        """Where each question's passage ranks among all passages (0: first)."""
        best, _ = self.nearest(questions / np.linalg.norm(questions, axis=1, keepdims=True))
        return (best > best[np.arange(len(answers)), answers][:, None]).sum(axis=1)


def train(
    questions: np.ndarray, answers: np.ndarray, windows: Windows, *, epochs: int = EPOCHS, seed: int = 0
) -> tuple[np.ndarray, dict[str, float]]:
    """W, trained on `questions` (unit vectors) whose passages are `answers` (indexes into the
    passages of `windows`), and the held-back questions' share at rank 1 and in the top five
    before and after."""
    rng = np.random.default_rng(seed)
    order = rng.permutation(len(questions))
    held, learn = order[: int(len(order) * VALIDATION)], order[int(len(order) * VALIDATION) :]
    questions = questions.astype(np.float64)
    identity = np.eye(questions.shape[1])
    weights = identity.copy()
    before = windows.rank_of(questions[held], answers[held])
    for _ in range(epochs):
        rng.shuffle(learn)
        for start in range(0, len(learn), BATCH):
            batch = learn[start : start + BATCH]
            mapped = questions[batch] @ weights.T
            best, rows = windows.nearest(mapped)
            logits = best / TAU
            odds = np.exp(logits - logits.max(axis=1, keepdims=True))
            odds /= odds.sum(axis=1, keepdims=True)
            odds[np.arange(len(batch)), answers[batch]] -= 1
            # Through each passage's nearest window: d loss / d mapped question.
            toward = np.einsum("bp,bpd->bd", odds, windows.matrix[rows]) / TAU / len(batch)
            weights -= RATE * (toward.T @ questions[batch] + PULL * (weights - identity) / len(learn))
    after = windows.rank_of(questions[held] @ weights.T, answers[held])
    figures = {
        "held back": len(held),
        "rank 1 before": float((before == 0).mean()),
        "rank 1 after": float((after == 0).mean()),
        "top five before": float((before < 5).mean()),
        "top five after": float((after < 5).mean()),
    }
    return weights, figures
