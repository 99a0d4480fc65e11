"""The embedding cache embeds a text once, whatever batch it comes in, and keeps it on disk."""

from __future__ import annotations

import numpy as np

from rules.assistant.embeddings import DIMENSIONS, encoder
from rules.assistant.vectorcache import VectorCache

DYING = "If you are ever required to remove cards from your deck and you don't have enough, your character dies."
HEALING = "When a power heals you, shuffle random cards from your discards into your deck."
GUARD = "To guard a location, attempt the check to guard listed on the location card."


class CountingEncoder:
    """The real model, counting the texts it is asked to embed."""

    def __init__(self) -> None:
        self.embedded: list[str] = []

    def __call__(self, texts: list[str]) -> np.ndarray:
        self.embedded += texts
        return encoder().passages(texts)


def test_a_text_is_embedded_once_whatever_batch_it_comes_in(tmp_path):
    embed = CountingEncoder()
    cache = VectorCache(tmp_path)
    first = cache.encode([DYING, HEALING], embed)
    second = cache.encode([HEALING, GUARD, DYING], embed)
    assert embed.embedded == [DYING, HEALING, GUARD]
    assert np.array_equal(second[0], first[1]) and np.array_equal(second[2], first[0])
    assert np.allclose(second[1], encoder().passages([GUARD])[0], atol=1e-5)


def test_vectors_written_by_one_process_serve_another(tmp_path):
    VectorCache(tmp_path).encode([DYING, HEALING], CountingEncoder())
    other = CountingEncoder()
    again = VectorCache(tmp_path).encode([HEALING, DYING], other)
    assert other.embedded == []
    assert np.allclose(again, encoder().passages([HEALING, DYING]), atol=1e-5)


def test_a_cache_sees_what_another_wrote_after_it_was_opened(tmp_path):
    mine, theirs = VectorCache(tmp_path), VectorCache(tmp_path)
    mine.encode([DYING], CountingEncoder())
    theirs.encode([GUARD], CountingEncoder())
    embed = CountingEncoder()
    assert mine.encode([GUARD, DYING], embed).shape == (2, DIMENSIONS) and embed.embedded == []
    assert not list(tmp_path.glob("*.tmp"))
