"""Readers for rule documents: pick the game and the kind of file, then hand the lines to the reader.

``read_file(path)`` is the one entry point; every reader takes ``(lines, source)`` and returns a
:class:`rulebook.model.Document` whose ``warnings`` list what it could not place.
"""

from __future__ import annotations

import hashlib
import re
from pathlib import Path

from rulebook import games
from rulebook.model import Document, ReadError, Source
from rulebook.readers import documents
from rulebook.readers.rulings import read_rulings
from rulebook.readers.text import NOT_TEXT, decode, markup, read_bytes, sniff

# Bump when a reader changes what it produces: stored books are then rebuilt from their sources.
# (2: issue 12's readers keep a CR's whole body, numbers printed twice, split numbers at any depth and
# every section of an FAQ. 3: issue 20's readers warn of, and mark, a text cut short, never take markup
# for a glossary headword or a title, and refuse web pages, PDFs and Word files. tests/test_library.py
# records the readers' digest for this version, so a reader edited without a bump fails there.
# 4: issue 21's term uses (rulebook/references.py) leave out obsolete entries outside the rules they
# point at and, in a book that writes its terms in lower case, a capitalised name's lower-case word.
# 5: issue 25's readers join a Magic number split after its dot, start a rule whose number is glued to
# a leftover of the page, never take a comment line for a title, and end a card's revised text in an
# FAQ where the publisher speaks again; PDF and Word files are read (rulebook/readers/documents.py)
# into the same lines as their text.)
READER_VERSION = "5"

KINDS = ("rules", "glossary", "rulings")

_QUESTION = re.compile(r"^\s*(?:#{1,4}\s*)?Q\s*[:.]\s*\S")
_RULE_LINE = re.compile(r"^\s*\d{1,3}\.(\d+[a-z]*\.?)?(\s|$)")  # "301." alone: the detail scrape


def detect_game(lines: list[str]) -> str:
    """The game whose documents the text reads like (each game's ``detect``, :mod:`rulebook.games`)."""
    return games.detect(lines)


def detect_kind(lines: list[str]) -> str:
    """``rulings`` (Q: ... questions), ``rules`` (numbered lines) or ``glossary``."""
    nonblank = [line for line in lines if line.strip()]
    if not nonblank:
        return "rules"
    questions = sum(1 for line in nonblank if _QUESTION.match(line))
    if questions >= 1 and questions * 20 >= len(nonblank):
        return "rulings"
    numbered = sum(1 for line in nonblank if _RULE_LINE.match(line))
    if numbered * 10 >= len(nonblank):
        return "rules"
    return "glossary"


def read_file(path: str | Path, game: str | None = None, kind: str | None = None) -> Document:
    """Read one file. ``game`` and ``kind`` are detected when not given.

    Raises :class:`ReadError` (one line, naming the file) for a file that cannot be read at all.
    """
    raw = read_bytes(path)
    extracted = documents.read_document(raw, path, sniff(raw))  # a PDF or Word file: its text's lines
    lines, sha = extracted.lines if extracted else decode(raw, str(path)), hashlib.sha256(raw).hexdigest()
    name = Path(path).name
    game = game or detect_game(lines)
    kind = kind or detect_kind(lines)
    source = Source(name=name, sha256=sha, kind=kind, path=str(path))
    if kind == "rulings":  # Q:/A: rulings read alike in every game
        doc = read_rulings(lines, source, game)
    else:
        doc = games.get(game).call("reader", lines, source, kind)
    if not (doc.rules or doc.terms or doc.rulings):
        what = markup(lines)
        if what:
            raise ReadError(str(path), f"looks like {what}, {NOT_TEXT}")
        raise ReadError(
            str(path),
            "no numbered rule, glossary entry or ruling found: expected rules numbered "
            "like '100.1.', glossary entries or Q:/A: rulings",
        )
    if extracted:
        doc.warnings = documents.warnings(extracted, doc)
    return doc
