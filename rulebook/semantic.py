"""Search by meaning: a static embedding table, distilled from the sentence model all-MiniLM-L6-v2.

Judges ask in words the rules never use ("does my mana carry over", "my unit died, does its buff
stay"), so words alone miss. A sentence model maps a question and a rule to vectors whose cosine says
how close their meanings are. Running the transformer costs seconds per hundred rules; this module
uses what it taught instead: one vector per vocabulary token (``data/meaning/static-model.npy``), and
a text's vector is the normalised sum of its tokens' rows. A whole rulebook takes a fraction of a
second, a question microseconds, and nothing but NumPy is needed.

The table was made by ``bench/distill_static_model.py`` from the published all-MiniLM-L6-v2 files
(provenance, licence and settings in ``static-model.json`` beside it): every token's output vector,
weighted down when frequent, then refitted by ridge regression so that rule texts land on the
transformer's vectors of them and judges' training questions on where the transformer and the
question adapter put them (the adapter folded into the table). Rows are int8 with a float32 scale
each (``static-model-scales.npy``).

    >>> model = StaticModel.load()
    >>> a, b, c = model.encode(["mana empties between steps", "unused mana is lost", "first strike"])
    >>> float(a @ b) > float(a @ c)
    True
    >>> model.vocabulary.tokens("Can't I respond—to Mjölnir?") == model.vocabulary.tokens("can ' t i respond — to mjolnir ?")
    True
"""

from __future__ import annotations

import hashlib
import json
import re
import unicodedata
from collections.abc import Callable, Mapping
from functools import cache, cached_property
from itertools import chain
from pathlib import Path

import numpy as np

from rulebook.shipped import ModelUnavailable, data_file

SOURCE_MODEL = "sentence-transformers/all-MiniLM-L6-v2"
MODEL = "meaning/static-model.npy"  # int8 rows; scales, vocabulary and record beside it
SCALES = "meaning/static-model-scales.npy"
VOCAB = "meaning/vocab.txt"
DIMENSIONS = 384
_PIECES = re.compile(r"[^\W_]+|\S")  # BERT's basic tokenizer: runs of letters and digits, each other mark alone


class Vocabulary:
    """BERT's uncased WordPiece vocabulary: a word is spelt in the longest pieces the list has."""

    __slots__ = ("ids", "_known")

    def __init__(self, ids: Mapping[str, int]):
        self.ids = ids
        self._known: dict[str, tuple[int, ...]] = {}

    @classmethod
    def read(cls, path: Path) -> Vocabulary:
        return cls({line: i for i, line in enumerate(path.read_text(encoding="utf-8").splitlines())})

    def pieces(self, word: str) -> tuple[int, ...]:
        """Greedy longest-match WordPiece of a lower-cased word, accents stripped (cached: a rulebook
        repeats its words); [UNK] when it cannot be spelt in pieces.

        >>> v = Vocabulary({"[UNK]": 0, "un": 1, "##tap": 2, "tap": 3})
        >>> v.pieces("untap"), v.pieces("untäp"), v.pieces("zzz")
        ((1, 2), (1, 2), (0,))
        """
        found = self._known.get(word)
        if found is not None:
            return found
        spelt = word
        if not word.isascii():
            spelt = "".join(c for c in unicodedata.normalize("NFD", word) if unicodedata.category(c) != "Mn")
        out: list[int] = []
        start = 0
        while start < len(spelt) and len(spelt) <= 100:
            end = len(spelt)
            while end > start:
                piece = spelt[start:end] if start == 0 else "##" + spelt[start:end]
                if piece in self.ids:
                    out.append(self.ids[piece])
                    break
                end -= 1
            else:
                break
            start = end
        result = tuple(out) if out and start == len(spelt) else (self.ids["[UNK]"],)
        self._known[word] = result
        return result

    def tokens(self, text: str) -> list[int]:
        """The token ids of a text: lower-cased, punctuation split off, accents stripped, WordPiece."""
        known, spell = self._known, self.pieces
        return [t for word in _PIECES.findall(text.lower()) for t in (known.get(word) or spell(word))]


class StaticModel:
    """A text's vector is the normalised sum of its tokens' rows (the frequency weights are in the rows)."""

    def __init__(self, folder: Path, rows: np.ndarray, scales: np.ndarray, sha256: str):
        self.folder = folder
        self.rows = rows  # int8, vocabulary x DIMENSIONS (memory-mapped)
        self.scales = scales  # float32, one per row
        self.sha256 = sha256  # the table's, as recorded: part of every stored vector's provenance

    @classmethod
    def load(cls, folder: Path | None = None) -> StaticModel:
        return _load(folder or data_file(MODEL).parent)

    @cached_property
    def vocabulary(self) -> Vocabulary:
        """The word pieces, read when first needed (building the 30,522 entries costs 4 ms, which a
        search spares by looking its few words up in the library instead: :func:`rulebook.vectors.nearest`)."""
        try:
            vocabulary = Vocabulary.read(self.folder / Path(VOCAB).name)
        except (OSError, ValueError) as exc:
            raise ModelUnavailable(f"the meaning model in {self.folder} cannot be read ({exc})") from exc
        if len(vocabulary.ids) != len(self.rows):
            raise ModelUnavailable(
                f"{self.folder / Path(VOCAB).name} has {len(vocabulary.ids)} pieces for {len(self.rows)} rows"
            )
        return vocabulary

    def encode(self, texts: list[str], vocabulary: Vocabulary | None = None) -> np.ndarray:
        """Unit vectors, one row per text (float32); a text with no tokens gets a zero row.
        ``vocabulary``: another reader of the same word pieces (the library's copy)."""
        vocabulary = vocabulary or self.vocabulary
        return vectors_of([vocabulary.tokens(t) for t in texts], lambda used: (self.rows[used], self.scales[used]))


def vectors_of(ids: list[list[int]], rows: Callable[[np.ndarray], tuple[np.ndarray, np.ndarray]]) -> np.ndarray:
    """The unit vectors of texts given as token ids, one row per text (a text with no tokens gets a
    zero row); ``rows(used)``: the int8 rows and float32 scales of the token ids ``used`` (sorted,
    each once), from the table or from the library's copy of it: the same sums either way."""
    out = np.zeros((len(ids), DIMENSIONS), dtype=np.float32)
    flat = np.fromiter(chain.from_iterable(ids), dtype=np.int64)
    if len(flat):
        used, where = np.unique(flat, return_inverse=True)  # the rows read, each once
        table, scales = rows(used)
        read = table.astype(np.float32) * scales[:, None]
        at = 0
        for i, text in enumerate(ids):
            if text:
                out[i] = read[where[at : at + len(text)]].sum(0)
            at += len(text)
    return out / np.maximum(np.linalg.norm(out, axis=1, keepdims=True), 1e-12)


@cache
def _load(folder: Path) -> StaticModel:
    try:
        record = json.loads((folder / Path(MODEL).with_suffix(".json").name).read_text(encoding="utf-8"))
        rows = np.load(folder / Path(MODEL).name, mmap_mode="r", allow_pickle=False)
        scales = np.load(folder / Path(SCALES).name, allow_pickle=False)
    except (OSError, ValueError, KeyError) as exc:
        raise ModelUnavailable(f"the meaning model in {folder} cannot be read ({exc})") from exc
    if rows.ndim != 2 or rows.shape[1] != DIMENSIONS or rows.dtype != np.int8 or scales.shape != (len(rows),):
        raise ModelUnavailable(
            f"{folder / Path(MODEL).name} is not an int8 table {DIMENSIONS} wide with a scale per row"
        )
    return StaticModel(folder, rows, scales.astype(np.float32), str(record.get("sha256", "")))


def quantize(matrix: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Rows as int8 with a float32 scale each (a row's largest value is 127): a quarter of the size,
    read back at memory speed, cosines within about 0.5%.

    >>> rows, scales = quantize(np.array([[0.5, -1.0], [0.0, 0.0]], dtype=np.float32))
    >>> rows.tolist(), (rows * scales[:, None]).tolist()
    ([[64, -127], [0, 0]], [[0.5039370059967041, -1.0], [0.0, 0.0]])
    """
    scales = np.abs(matrix).max(axis=1) / 127.0
    scales[scales == 0] = 1.0
    return np.round(matrix / scales[:, None]).astype(np.int8), scales.astype(np.float32)


def sha256_of(path: Path) -> str:

    digest = hashlib.sha256()
    with open(path, "rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def verify(folder: Path | None = None) -> str:
    """Check the shipped files against their record (the table's, its scales' and the vocabulary's
    sha256); the table's sha256, or ModelUnavailable saying which file differs."""
    folder = folder or data_file(MODEL).parent
    record = json.loads((folder / Path(MODEL).with_suffix(".json").name).read_text(encoding="utf-8"))
    for name, key in ((MODEL, "sha256"), (SCALES, "scales_sha256"), (VOCAB, "vocab_sha256")):
        if sha256_of(folder / Path(name).name) != record.get(key):
            raise ModelUnavailable(f"{folder / Path(name).name} does not match its record in static-model.json")
    return record["sha256"]
