"""The teacher: all-MiniLM-L6-v2 run with NumPy alone, for bench/distill_static_model.py.

Search no longer runs this network (rulebook/semantic.py reads the static table distilled from it);
it is kept here to rebuild and measure that table from the genuine model files.

Judges ask in words the rules never use ("does my mana carry over", "infinite loop nobody can stop"),
so lexical search alone misses. A small sentence model maps a question and a rule to vectors whose
cosine says how close their meanings are. This module runs the published all-MiniLM-L6-v2 weights
(a 6-layer BERT, 384 dimensions, Apache-2.0) with NumPy: no torch, no network, no model hub.

``JUDGE_MODEL_DIR`` names the folder holding the published ``vocab.txt`` and ``model.safetensors``
of sentence-transformers/all-MiniLM-L6-v2; files whose sha256 differs from the published ones
(below) are refused.

Questions pass through one more step than rules: the question adapter (``bench/teacher/``), a
384 x 384 matrix trained by ``bench/train_question_adapter.py`` on judges' questions written apart
from the evaluation set, moves a question's vector towards the rules that answer such questions.
Rule vectors are the model's own, so the adapter can change without recomputing any of them.

    >>> enc = Encoder.load()                                            # doctest: +SKIP
    >>> a, b, c = enc.encode(["mana empties", "unused mana is lost", "first strike"])  # doctest: +SKIP
    >>> float(a @ b) > float(a @ c)                                     # doctest: +SKIP
    True
"""

from __future__ import annotations

import json
import os
import struct
import unicodedata
from dataclasses import dataclass
from functools import cache
from pathlib import Path

import numpy as np

from rulebook import semantic
from rulebook.model import ModelUnavailable
from rulebook.semantic import sha256_of

MODEL_NAME = "all-MiniLM-L6-v2"
MODEL_SHA256 = "53aa51172d142c89d9012cce15ae4d6cc0ca6895895114379cacb4fab128d9db"
VOCAB_SHA256 = "07eced375cec144d27c900241f3e339478dec958f92fddbc551f295c992038a3"
REVISION = "1110a243fdf4706b3f48f1d95db1a4f5529b4d41"  # the model repository's commit the files were fetched at
MODEL_ENV = "JUDGE_MODEL_DIR"
DIMENSIONS = 384
MAX_TOKENS = 128  # rules longer than this are read up to here: their opening states what they are about
LAYERS = 6
HEADS = 12
EPS = 1e-12
ADAPTER = Path(__file__).resolve().parent / "teacher" / "question-adapter.npy"  # its record beside it as .json


def model_dir() -> Path:
    """The folder holding vocab.txt and model.safetensors, or ModelUnavailable saying why not."""
    named = os.environ.get(MODEL_ENV)
    if not named:
        raise ModelUnavailable(f"set {MODEL_ENV} to a folder with the published {MODEL_NAME} files")
    folder = Path(named)
    for name in ("vocab.txt", "model.safetensors"):
        if not (folder / name).is_file():
            raise ModelUnavailable(f"{folder / name} is missing")
    return folder


def verify(folder: Path) -> None:
    """Refuse files that are not the published all-MiniLM-L6-v2 weights and vocabulary."""
    for name, expected in (("model.safetensors", MODEL_SHA256), ("vocab.txt", VOCAB_SHA256)):
        digest = sha256_of(folder / name)
        if digest != expected:
            raise ModelUnavailable(f"{folder / name} is not {MODEL_NAME}'s (sha256 {digest[:12]}…)")


def read_safetensors(path: Path) -> dict[str, np.ndarray]:
    """The float32 tensors of a safetensors file, memory-mapped (the format: u64 header size, JSON, data)."""
    raw = np.memmap(path, dtype=np.uint8, mode="r")
    (size,) = struct.unpack("<Q", raw[:8].tobytes())
    header = json.loads(raw[8 : 8 + size].tobytes())
    base = 8 + size
    tensors = {}
    for name, info in header.items():
        if name == "__metadata__" or info["dtype"] != "F32":
            continue
        start, end = info["data_offsets"]
        # Plain arrays over the map, not memmap objects, whose products are about twice as slow.
        tensors[name] = np.asarray(raw[base + start : base + end]).view(np.float32).reshape(info["shape"])
    return tensors


def read_recorded(path: Path, **expected: str) -> tuple[dict, np.ndarray]:
    """A shipped .npy and its .json record, which must name its own sha256 and hold ``expected``
    (the weights, the adapter it was made with); anything else is refused rather than misapplied."""
    try:
        info = json.loads(path.with_suffix(".json").read_text(encoding="utf-8"))
        if any(info[key] != value for key, value in expected.items()) or info["sha256"] != sha256_of(path):
            raise ModelUnavailable(f"{path} was not made for {MODEL_NAME} as shipped or does not match its record")
        return info, np.load(path, allow_pickle=False)
    except (OSError, ValueError, KeyError, TypeError) as exc:
        raise ModelUnavailable(f"{path} cannot be read ({exc})") from exc


@cache
def read_adapter(path: Path | None = None) -> np.ndarray | None:
    """The question adapter (a DIMENSIONS-square float32 matrix), or None when none is shipped."""
    path = path or ADAPTER
    if not path.is_file():
        return None
    _, matrix = read_recorded(path, base_model_sha256=MODEL_SHA256)
    if matrix.shape != (DIMENSIONS, DIMENSIONS):
        raise ModelUnavailable(f"{path} holds a {matrix.shape} matrix, not {DIMENSIONS} x {DIMENSIONS}")
    return matrix.astype(np.float32)


# --- the tokenizer: BERT's uncased basic tokenizer, then WordPiece ------------------------------------


def _is_punctuation(ch: str) -> bool:
    cp = ord(ch)
    if 33 <= cp <= 47 or 58 <= cp <= 64 or 91 <= cp <= 96 or 123 <= cp <= 126:
        return True
    return unicodedata.category(ch).startswith("P")


def _is_cjk(cp: int) -> bool:
    return (
        0x4E00 <= cp <= 0x9FFF
        or 0x3400 <= cp <= 0x4DBF
        or 0x20000 <= cp <= 0x2A6DF
        or 0x2A700 <= cp <= 0x2CEAF
        or 0xF900 <= cp <= 0xFAFF
        or 0x2F800 <= cp <= 0x2FA1F
    )


def basic_tokens(text: str) -> list[str]:
    """Lower-cased, accent-free words with every punctuation mark a token of its own.

    >>> basic_tokens("Can't I respond—to Mjölnir's 601.2c?")
    ['can', "'", 't', 'i', 'respond', '—', 'to', 'mjolnir', "'", 's', '601', '.', '2c', '?']
    """
    out: list[str] = []
    for ch in text:
        cp = ord(ch)
        if cp == 0 or cp == 0xFFFD or (unicodedata.category(ch).startswith("C") and ch not in "\t\n\r"):
            continue
        if ch.isspace():
            out.append(" ")
        elif _is_cjk(cp):
            out.append(f" {ch} ")
        else:
            out.append(ch)
    words = []
    for word in "".join(out).lower().split():
        word = "".join(c for c in unicodedata.normalize("NFD", word) if unicodedata.category(c) != "Mn")
        piece = ""
        for ch in word:
            if _is_punctuation(ch):
                if piece:
                    words.append(piece)
                words.append(ch)
                piece = ""
            else:
                piece += ch
        if piece:
            words.append(piece)
    return words


class Vocabulary(semantic.Vocabulary):
    """The static model's WordPiece vocabulary, read the transformer's way: BERT's basic tokenizer
    (:func:`basic_tokens`), then [CLS] ... [SEP] around at most MAX_TOKENS."""

    def encode(self, text: str, limit: int = MAX_TOKENS) -> list[int]:
        ids = [i for word in basic_tokens(text) for i in self.pieces(word)]
        return [self.ids["[CLS]"], *ids[: limit - 2], self.ids["[SEP]"]]


# --- the network ---------------------------------------------------------------------------------------


def _layer_norm(x: np.ndarray, weight: np.ndarray, bias: np.ndarray) -> np.ndarray:
    mean = x.mean(-1, keepdims=True)
    var = ((x - mean) ** 2).mean(-1, keepdims=True)
    return (x - mean) / np.sqrt(var + EPS) * weight + bias  # EPS a Python float: stays float32


def _gelu(x: np.ndarray) -> np.ndarray:
    """BERT's exact GELU, 0.5 x (1 + erf(x / sqrt 2)), in place on float32 temporaries.

    NumPy has no erf: Abramowitz & Stegun 7.1.26 (error below 1.5e-7) gives erf(|x| / sqrt 2), and
    0.5 x (1 + sign(x) erf(|x| / sqrt 2)) = 0.5 (x + |x| erf(|x| / sqrt 2)). In place because these
    arrays are the largest of the network (tokens x 1536): written plainly it took half the time.
    """
    f = np.float32
    a = np.abs(x)
    a *= f(0.7071067811865476)
    t = a * f(0.3275911)
    t += f(1.0)
    np.reciprocal(t, out=t)
    poly = t * f(1.061405429)
    for c in (-1.453152027, 1.421413741, -0.284496736, 0.254829592):
        poly += f(c)
        poly *= t
    np.square(a, out=a)
    np.negative(a, out=a)
    np.exp(a, out=a)
    poly *= a  # 1 - erf(|x| / sqrt 2)
    np.subtract(f(1.0), poly, out=poly)
    poly *= np.abs(x)
    poly += x
    poly *= f(0.5)
    return poly


@dataclass(frozen=True)
class Encoder:
    vocabulary: Vocabulary
    weights: dict[str, np.ndarray]
    adapter: np.ndarray | None = None  # applied to questions only (see the module's docstring)

    @classmethod
    def load(cls, folder: Path | None = None, check: bool = False, adapter: bool = True) -> Encoder:
        folder = folder or model_dir()
        if check:
            verify(folder)
        return cls(
            Vocabulary.read(folder / "vocab.txt"),
            read_safetensors(folder / "model.safetensors"),
            read_adapter() if adapter else None,
        )

    def _linear(self, x: np.ndarray, name: str) -> np.ndarray:
        # Flattened to 2-D: NumPy's 3-D @ 2-D product does not reach BLAS and is about 5x slower.
        matrix = self.weights[f"{name}.weight"].T
        flat = x.reshape(-1, x.shape[-1]) @ matrix + self.weights[f"{name}.bias"]
        return flat.reshape(*x.shape[:-1], matrix.shape[1])

    def _forward(self, ids: np.ndarray, mask: np.ndarray) -> np.ndarray:
        w = self.weights
        batch, length = ids.shape
        x = w["embeddings.word_embeddings.weight"][ids] + w["embeddings.position_embeddings.weight"][:length]
        x = x + w["embeddings.token_type_embeddings.weight"][0]
        x = _layer_norm(x, w["embeddings.LayerNorm.weight"], w["embeddings.LayerNorm.bias"])
        blocked = np.where(mask[:, None, None, :], 0.0, np.finfo(np.float32).min).astype(np.float32)
        size = DIMENSIONS // HEADS
        for n in range(LAYERS):
            p = f"encoder.layer.{n}."

            def heads(t: np.ndarray) -> np.ndarray:
                return t.reshape(batch, length, HEADS, size).transpose(0, 2, 1, 3)

            q, k, v = (heads(self._linear(x, p + f"attention.self.{part}")) for part in ("query", "key", "value"))
            scores = q @ k.transpose(0, 1, 3, 2) * (size**-0.5) + blocked
            scores -= scores.max(-1, keepdims=True)
            np.exp(scores, out=scores)
            scores /= scores.sum(-1, keepdims=True)
            context = (scores @ v).transpose(0, 2, 1, 3).reshape(batch, length, DIMENSIONS)
            x = _layer_norm(
                x + self._linear(context, p + "attention.output.dense"),
                w[p + "attention.output.LayerNorm.weight"],
                w[p + "attention.output.LayerNorm.bias"],
            )
            inner = _gelu(self._linear(x, p + "intermediate.dense"))
            x = _layer_norm(
                x + self._linear(inner, p + "output.dense"),
                w[p + "output.LayerNorm.weight"],
                w[p + "output.LayerNorm.bias"],
            )
        pooled = (x * mask[:, :, None]).sum(1) / mask.sum(1, keepdims=True)
        return pooled / np.maximum(np.linalg.norm(pooled, axis=1, keepdims=True), 1e-12)

    def encode(self, texts: list[str], batch: int = 32) -> np.ndarray:
        """Unit vectors, one row per text (float32, DIMENSIONS wide); texts of like length share a batch."""
        encoded = [self.vocabulary.encode(t) for t in texts]
        out = np.zeros((len(texts), DIMENSIONS), dtype=np.float32)
        order = sorted(range(len(texts)), key=lambda i: len(encoded[i]))
        for start in range(0, len(order), batch):
            chunk = order[start : start + batch]
            width = max(len(encoded[i]) for i in chunk)
            ids = np.zeros((len(chunk), width), dtype=np.int64)
            mask = np.zeros((len(chunk), width), dtype=np.float32)
            for row, i in enumerate(chunk):
                ids[row, : len(encoded[i])] = encoded[i]
                mask[row, : len(encoded[i])] = 1.0
            out[chunk] = self._forward(ids, mask)
        return out

    def encode_questions(self, texts: list[str]) -> np.ndarray:
        """Unit vectors of judges' questions, to compare with :meth:`encode`'s vectors of rules."""
        vectors = self.encode(texts)
        if self.adapter is None:
            return vectors
        moved = vectors @ self.adapter.T
        return moved / np.maximum(np.linalg.norm(moved, axis=1, keepdims=True), 1e-12)
