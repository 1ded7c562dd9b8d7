"""Questions already asked, each pointing to the rules that answer it.

The memory keeps the training questions of ``bench/meaning-training/`` (written from the full
documents, never from the evaluation set) with the rules that answer them. A new question close in
meaning to a remembered one finds the rules that answered it, as if the remembered question were one
more example of those rules: a rule is as near a question as its text, its examples or the nearest
question it answers. The remembered questions' vectors are made with the book's (:mod:`rulebook.vectors`).

A remembered answer holds the rule's number and a digest of the rule's title and text in the document
the question was written against. It applies to a loaded book only where that number reads exactly
the same: a memory written against the 2026 Comprehensive Rules serves every unchanged rule of the
2025 edition, and never points into another game or into an edition whose numbers mean other rules.

    >>> rule_digest("Tank", "A unit with Tank must be assigned lethal damage first.")
    '24bc154b190dd49f'
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Sequence
from functools import cache
from pathlib import Path

from rulebook.model import ModelUnavailable, Rule
from rulebook.shipped import data_file

MEMORY = "meaning/question-memory.json"  # under data/


def rule_digest(title: str | None, text: str | None) -> str:
    """What a remembered answer expects its rule to read: 16 hex digits of the title and text's sha256."""
    return hashlib.sha256(f"{title or ''}\n{text or ''}".encode()).hexdigest()[:16]


@cache
def read_memory(path: Path | None = None) -> tuple[tuple[str, tuple[tuple[str, str], ...]], ...]:
    """The remembered questions: (question, ((rule number, rule digest), ...)); empty when none ships."""
    path = path or data_file(MEMORY)
    if not path.is_file():
        return ()
    try:
        entries = json.loads(path.read_text(encoding="utf-8"))["entries"]
        return tuple((str(e["question"]), tuple((str(n), str(d)) for n, d in e["answers"])) for e in entries)
    except (OSError, ValueError, KeyError, TypeError) as exc:
        raise ModelUnavailable(f"{path} cannot be read ({exc})") from exc


def applicable(rules: Sequence[Rule], path: Path | None = None) -> list[tuple[str, list[str]]]:
    """The remembered questions with at least one answer that reads the same among these rules, and
    those answers' numbers."""
    digests = {r.number: rule_digest(r.title, r.text) for r in rules}
    out = []
    for question, pairs in read_memory(path):
        same = [n for n, d in pairs if digests.get(n) == d]
        if same:
            out.append((question, same))
    return out
