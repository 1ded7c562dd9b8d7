"""How every command speaks: text or JSON on stdout, notes on stderr, and errors.

Exit statuses: 0 found, 1 not found (with suggestions), 2 bad input (one line, never a traceback);
:func:`fail` stops a command with one, and ``judge.cli`` prints it (docs/json.md, "Errors").
"""

from __future__ import annotations

import json
import sys
from typing import Any, NoReturn

import typer


class Fail(Exception):
    """Stop with a one-line message on stderr and an exit status."""

    def __init__(self, message: str, code: int = 2, suggestions: tuple[str, ...] = (), hint: str | None = None):
        super().__init__(message)
        self.message, self.code, self.suggestions, self.hint = message, code, tuple(suggestions), hint


def emit_json(value: Any) -> None:
    sys.stdout.write(json.dumps(value, indent=2, ensure_ascii=False) + "\n")


def echo(text: str = "") -> None:
    typer.echo(text)


def warn(text: str) -> None:
    """A note for the person at the terminal, on stderr so --json output stays parseable."""
    typer.echo(f"note: {text}", err=True)


def fail(message: str, code: int = 2, suggestions=(), hint: str | None = None) -> NoReturn:
    """Stop: ``message`` on stderr (and as ``{"error": ...}`` on stdout with --json), exit ``code``
    (1 not found, 2 bad input), with what the judge may have meant; ``hint``, a line more on stderr
    (and the error's ``hint``), says what would help (a miss in an excerpt: load the full rules)."""
    raise Fail(message, code, tuple(suggestions), hint)


def pick_format(format: str, json_: bool, formats: tuple[str, ...]) -> str:
    """``--json`` means ``--format json``; any other format must be one the command knows."""
    chosen = "json" if json_ else format
    if chosen not in formats:
        fail(f"unknown format {chosen!r}: expected one of {', '.join(formats)}")
    return chosen
