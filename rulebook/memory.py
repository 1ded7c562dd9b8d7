"""Questions already asked, each pointing to the rules that answer it.

The memory keeps the training questions of ``bench/meaning-training/`` (written from the full
documents, never from the evaluation set) with the rules that answer them. A new question close in
meaning to a remembered one finds the rules that answered it, as if the remembered question were one
more example of those rules: a rule is as near a question as its text, its examples or the nearest
question it answers. The remembered questions' vectors are made with the book's (:mod:`rulebook.vectors`).

A remembered answer holds the rule's number and a digest of what the rule read (title and text, the
rule numbers it cites aside) in the document the question was written against, whose game the memory
records. It applies to a loaded book of that game where a rule reads the same: the rule of that
number, else the one rule of the book that reads so under another number. An edition renumbers: in
Riftbound v1.3, v1.2's 336.1 (the newest item on the Chain resolves; it cites rule 346) is 340.1,
citing 349; a question answered by 336.1 is answered by 340.1 there. A text several rules of the book
read (a one-line rule several sections repeat) answers nothing, and an edited rule drops out rather than
point at other words: a memory written against the 2026 Comprehensive Rules serves every rule of
another edition that reads the same, and never points into another game.

    >>> rule_digest("Tank", "A unit with Tank must be assigned lethal damage first.")
    '24bc154b190dd49f'
    >>> rule_digest(None, "See rule 346. Playing Cards.") == rule_digest(None, "See  rule 349. Playing Cards.")
    True
    >>> old = Rule("336.1", text="The last item added resolves first. See rule 346.")
    >>> new = [Rule("336.1", text="Other words."),
    ...        Rule("340.1", text="The last item added resolves first. See rule 349.")]
    >>> follow([("336.1", rule_digest(old.title, old.text))], index(new))
    ['340.1']
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterable, Sequence
from functools import cache
from pathlib import Path
from typing import NamedTuple

from rulebook.diff import masked
from rulebook.model import ModelUnavailable, Rule
from rulebook.shipped import data_file

MEMORY = "meaning/question-memory.json"  # under data/, written by bench/question_memory.py
# Bump when what a remembered answer applies to changes: every book is then built again, with the
# remembered questions its rules answer now (it is part of each book's fingerprint, with the memory's
# sha256). 1: at its own number only; 2: a rule reading the same under another number too, the
# rule numbers it cites aside (Riftbound v1.3 renumbered most of v1.2).
MATCHING_VERSION = "2"


class Remembered(NamedTuple):
    """A remembered question, the game of the document it was written against ("" when the memory
    does not say), and its answers: (rule number, :func:`rule_digest` of the rule there)."""

    question: str
    game: str
    answers: tuple[tuple[str, str], ...]


def rule_digest(title: str | None, text: str | None) -> str:
    """What a remembered answer expects its rule to read: 16 hex digits of the sha256 of its title and
    text, whitespace, curly quotes and the rule numbers it cites aside (:func:`rulebook.diff.masked`:
    a renumbering rewrites every cross-reference, and a rule only its citations changed reads the same)."""
    return hashlib.sha256(f"{masked(title or '')}\n{masked(text or '')}".encode()).hexdigest()[:16]


@cache
def read_memory(path: Path | None = None) -> tuple[Remembered, ...]:
    """The remembered questions, in the file's order; empty when none ships."""
    path = path or data_file(MEMORY)
    if not path.is_file():
        return ()
    try:
        record = json.loads(path.read_text(encoding="utf-8"))
        games = {book: str(about["game"]) for book, about in record.get("documents", {}).items()}
        return tuple(
            Remembered(
                str(e["question"]), games.get(e.get("book"), ""), tuple((str(n), str(d)) for n, d in e["answers"])
            )
            for e in record["entries"]
        )
    except (OSError, ValueError, KeyError, TypeError, AttributeError) as exc:
        raise ModelUnavailable(f"{path} cannot be read ({exc})") from exc


@cache
def fingerprint(path: Path | None = None) -> str:
    """What the remembered questions stored with a book are made of, part of every book's fingerprint:
    :data:`MATCHING_VERSION` and the memory's sha256 ("none" without one)."""
    path = path or data_file(MEMORY)
    try:
        digest = hashlib.sha256(path.read_bytes()).hexdigest()[:16]
    except OSError:
        digest = "none"
    return f"{MATCHING_VERSION}:{digest}"


def index(rules: Iterable[Rule]) -> tuple[dict[str, str], dict[str, list[str]]]:
    """(number -> :func:`rule_digest`, digest -> the numbers reading it) of a book's rules."""
    digests = {r.number: rule_digest(r.title, r.text) for r in rules}
    where: dict[str, list[str]] = {}
    for number, digest in digests.items():
        where.setdefault(digest, []).append(number)
    return digests, where


def follow(answers: Iterable[tuple[str, str]], found: tuple[dict[str, str], dict[str, list[str]]]) -> list[str]:
    """The numbers, in a book (its :func:`index`), of the rules that read as these answers did: the
    answer's own number where it reads the same, else the only rule reading so; none for an answer
    edited since, or whose words several rules read. In the answers' order, each number once."""
    digests, where = found
    out: list[str] = []
    for number, digest in answers:
        if digests.get(number) != digest:
            numbers = where.get(digest, ())
            if len(numbers) != 1:
                continue
            number = numbers[0]
        if number not in out:
            out.append(number)
    return out


def applicable(rules: Sequence[Rule], path: Path | None = None, game: str | None = None) -> list[tuple[str, list[str]]]:
    """The remembered questions with at least one answer that reads the same among these rules, and
    those answers' numbers here (:func:`follow`). ``game``: the book's; only the questions written
    against a document of that game count (None: every question, for rules of no book)."""
    found = index(rules)
    out = []
    for question, of_game, pairs in read_memory(path):
        if game is not None and of_game != game:
            continue
        same = follow(pairs, found)
        if same:
            out.append((question, same))
    return out
