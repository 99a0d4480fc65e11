"""Our numpy MiniLM gives the vectors sentence-transformers gives (reference computed with
sentence-transformers and PyTorch, see tests/rules/data/minilm_reference.json)."""

from __future__ import annotations

import json
import os
from pathlib import Path

import numpy as np
import pytest

from rules.embeddings import encoder

REFERENCE = json.loads((Path(__file__).parent / "data" / "minilm_reference.json").read_text())


@pytest.fixture(scope="module")
def model():  # type: ignore[no-untyped-def]
    found = encoder()
    if found is None:
        if os.environ.get("PACG_REQUIRE_SERVICES") == "1":
            pytest.fail("the embedding model is not installed; run make install")
        pytest.skip("the embedding model is not installed (make install)")
    return found


def test_vectors_match_the_reference_implementation(model):
    ours = model.encode(REFERENCE["texts"])
    reference = np.array(REFERENCE["vectors"], dtype=np.float32)
    assert np.allclose(np.linalg.norm(ours, axis=1), 1.0, atol=1e-5)
    assert (ours * reference).sum(axis=1).min() > 0.99999
    assert np.abs(ours - reference).max() < 1e-5


DYING = "If you are ever required to remove cards from your deck and you don't have enough, your character dies."
HEALING = "When a power heals you, shuffle random cards from your discards into your deck."


def test_a_paraphrase_is_closer_than_an_unrelated_rule(model):
    question, dying, healing = model.encode(["what happens when I must draw but my deck is empty", DYING, HEALING])
    assert question @ dying > question @ healing
