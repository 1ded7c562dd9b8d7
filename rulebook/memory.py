"""Questions already asked, each pointing to the rules that answer it.

The question adapter (:mod:`rulebook.semantic`) moves a judge's question towards the rules that
answer questions like it. The memory keeps the questions themselves: the training questions of
``bench/meaning-training/`` (written from the full documents, never from the evaluation set), each
with the rules that answer it and its vector in the adapted question space. A new question close in
meaning to a remembered one finds the rules that answered it, as if the remembered question were one
more example of those rules: a rule is as near a question as its text, its examples or the nearest
question it answers.

A remembered answer holds the rule's number and a digest of the rule's title and text in the document
the question was written against. It applies to a loaded book only where that number reads exactly
the same: a memory written against the 2026 Comprehensive Rules serves every unchanged rule of the
2025 edition, and never points into another game or into an edition whose numbers mean other rules.

    >>> rule_digest("Tank", "A unit with Tank must be assigned lethal damage first.")
    '24bc154b190dd49f'
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path

import numpy as np

from rulebook.model import ModelUnavailable
from rulebook.semantic import ADAPTER, DIMENSIONS, MODEL_SHA256, read_recorded, sha256_of
from rulebook.shipped import data_file
from rulebook.store import Store

MEMORY = "meaning/question-memory.npy"  # under data/; the questions and their answers beside it as .json


@dataclass(frozen=True, eq=False)
class Memory:
    questions: tuple[str, ...]
    answers: tuple[Sequence[Sequence[str]], ...]  # per question: (rule number, rule_digest) pairs
    vectors: np.ndarray  # one unit row per question, in the adapted question space (float16 as shipped)
    _books: dict[str, tuple[np.ndarray, np.ndarray, list[list[str]]]] = field(default_factory=dict, repr=False)

    def recall(self, store: Store, book: str, question: np.ndarray, limit: int | None = None
               ) -> dict[str, tuple[float, str]]:
        """Rule number -> (cosine, the remembered question) for the book's rules that questions near
        this one (a unit vector from ``Encoder.encode_questions``) were answered by, nearest first;
        at most ``limit`` rules."""
        rows, matrix, numbers = self._book(store, book)
        if not rows.size:
            return {}
        sims = matrix @ question
        out: dict[str, tuple[float, str]] = {}
        for i in np.argsort(-sims, kind="stable"):
            for number in numbers[i]:
                if number not in out:
                    out[number] = (float(sims[i]), self.questions[rows[i]])
            if limit is not None and len(out) >= limit:
                break
        return out

    def applicable(self, store: Store, book: str) -> tuple[np.ndarray, list[list[str]]]:
        """The rows with at least one answer that reads the same in this book, and those answers."""
        rows, _, numbers = self._book(store, book)
        return rows, numbers

    def _book(self, store: Store, book: str) -> tuple[np.ndarray, np.ndarray, list[list[str]]]:
        key = f"{book}\n{store.fingerprint(book) or ''}"
        if key not in self._books:
            digests = {r["number"]: rule_digest(r["title"], r["text"])
                       for r in store.query("SELECT number, title, text FROM rules WHERE book = ?", [book])}
            rows, numbers = [], []
            for i, pairs in enumerate(self.answers):
                same = [n for n, d in pairs if digests.get(n) == d]
                if same:
                    rows.append(i)
                    numbers.append(same)
            index = np.array(rows, dtype=np.int64)
            self._books[key] = (index, self.vectors[index].astype(np.float32), numbers)  # copied once
        return self._books[key]


def rule_digest(title: str | None, text: str | None) -> str:
    """What a remembered answer expects its rule to read: 16 hex digits of the title and text's sha256."""
    return hashlib.sha256(f"{title or ''}\n{text or ''}".encode()).hexdigest()[:16]


@cache
def read_memory(path: Path | None = None) -> Memory | None:
    """The shipped memory, or None when there is none; ModelUnavailable when it was made for other
    weights or another adapter, or does not match its record."""
    path = path or data_file(MEMORY)
    if not path.is_file():
        return None
    adapter = data_file(ADAPTER)
    if not adapter.is_file():
        raise ModelUnavailable(f"{path} needs the question adapter it was made with, and {adapter} is absent")
    info, vectors = read_recorded(path, base_model_sha256=MODEL_SHA256, adapter_sha256=sha256_of(adapter))
    try:
        entries = info["entries"]
        questions = tuple(e["question"] for e in entries)
        answers = tuple(e["answers"] for e in entries)  # kept as read: converting 5,000 lists costs 15 ms a search
    except (KeyError, TypeError) as exc:
        raise ModelUnavailable(f"{path} cannot be read ({exc})") from exc
    if vectors.shape != (len(entries), DIMENSIONS):
        raise ModelUnavailable(f"{path} holds a {vectors.shape} matrix, not {len(entries)} x {DIMENSIONS}")
    return Memory(questions, answers, vectors)
