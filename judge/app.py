"""What every command shares: the library, the store, output as text or JSON, and errors.

Exit statuses: 0 found, 1 not found (with suggestions), 2 bad input (one line, never a traceback).
"""

from __future__ import annotations

import json
import sys
from typing import Any, NoReturn

import typer

from judge.resources import seeds_dir


class Fail(Exception):
    """Stop with a one-line message on stderr and an exit status."""

    def __init__(self, message: str, code: int = 2):
        super().__init__(message)
        self.message, self.code = message, code


def library():
    from rulebook.library import Library

    return Library(seeds=seeds_dir())


def open_store():
    return library().open()


def emit_json(value: Any) -> None:
    sys.stdout.write(json.dumps(value, indent=2, ensure_ascii=False) + "\n")


def echo(text: str = "") -> None:
    typer.echo(text)


def warn(text: str) -> None:
    """A note for the person at the terminal, on stderr so --json output stays parseable."""
    typer.echo(f"note: {text}", err=True)


def console():
    from rich.console import Console

    return Console(highlight=False, soft_wrap=False)


def fail(message: str, code: int = 2) -> NoReturn:
    raise Fail(message, code)


def pick_format(format: str, json_: bool, formats: tuple[str, ...]) -> str:
    """``--json`` means ``--format json``; any other format must be one the command knows."""
    chosen = "json" if json_ else format
    if chosen not in formats:
        fail(f"unknown format {chosen!r}: expected one of {', '.join(formats)}")
    return chosen


def check_book(store, book: str | None) -> None:
    """Exit 2 with "did you mean" when ``book`` is not a loaded book."""
    if book is None or store.book(book) is not None:
        return
    fail(unknown_book(store, book))


def unknown_book(store, book: str) -> str:
    """``no book 'riftbnd' (did you mean "riftbound"?); loaded books: ...``"""
    from rapidfuzz import process

    ids = store.book_ids()
    guess = process.extractOne(book, ids, score_cutoff=50) if ids else None
    hint = f' (did you mean "{guess[0]}"?)' if guess else ""
    return f"no book {book!r}{hint}; loaded books: {', '.join(ids) or 'none'}"
