"""Embeddings kept on disk by text: a text is embedded once, whatever batch it comes in.

Embedding every passage window and question of the four books takes about six minutes on two
cores. Keyed by text, importing a book with one more question embeds that question alone, and
importing the books less some of their questions (the quality benchmark leaves out the copies of
the questions it measures) embeds nothing. Each batch that embedded something new is written as
one chunk file (digests of its texts and their vectors) under a directory named by the model and
the side (question or passage); chunks are written whole under a unique name, so two processes
filling the cache at once cannot corrupt it.
"""

from __future__ import annotations

import hashlib
import os
import threading
from collections.abc import Callable
from pathlib import Path

import numpy as np

DIGEST_BYTES = 16  # hex: 32 ASCII characters, no NUL (which numpy's bytes arrays would strip)


def digest(text: str) -> bytes:
    return hashlib.blake2b(text.encode(), digest_size=DIGEST_BYTES).hexdigest().encode()


class VectorCache:
    def __init__(self, directory: Path) -> None:
        self.directory = directory
        self.rows: dict[bytes, np.ndarray] = {}
        self.loaded: set[str] = set()
        self.lock = threading.Lock()

    def encode(self, texts: list[str], embed: Callable[[list[str]], np.ndarray]) -> np.ndarray:
        """One vector per text, in order: from the cache, or by `embed` for those it lacks."""
        keys = [digest(text) for text in texts]
        with self.lock:
            self._load_new_chunks()
            missing = {key: text for key, text in zip(keys, texts, strict=True) if key not in self.rows}
            if missing:
                vectors = np.asarray(embed(list(missing.values())), dtype=np.float32)
                self._write_chunk(list(missing), vectors)
                self.rows.update(zip(missing, vectors, strict=True))
            return np.stack([self.rows[key] for key in keys])

    def _load_new_chunks(self) -> None:
        """Chunks written since the last look, by this process or another."""
        for path in sorted(self.directory.glob("*.npz")):
            if path.name in self.loaded:
                continue
            with np.load(path) as chunk:
                self.rows.update(zip(chunk["keys"].tolist(), chunk["vectors"], strict=True))
            self.loaded.add(path.name)

    def _write_chunk(self, keys: list[bytes], vectors: np.ndarray) -> None:
        self.directory.mkdir(parents=True, exist_ok=True)
        name = hashlib.sha256(b"".join(keys)).hexdigest()[:24] + ".npz"
        temporary = self.directory / f".{name}.{os.getpid()}.{threading.get_ident()}.tmp"
        with temporary.open("wb") as handle:
            np.savez(handle, keys=np.array(keys, dtype=f"S{2 * DIGEST_BYTES}"), vectors=vectors)
        temporary.replace(self.directory / name)
        self.loaded.add(name)
