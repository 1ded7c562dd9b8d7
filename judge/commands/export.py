"""``judge export json --book ID``: a whole book as JSON."""

from __future__ import annotations

import json
from pathlib import Path

import typer

from judge.books import books_for, open_store
from judge.commands.options import GAME, JSON
from judge.output import echo, fail


def export(
    format: str = typer.Argument("json", help="Export format: json."),
    book: str = typer.Option(None, "--book", "-b", help="The book to export."),
    game: str = GAME,
    output: Path = typer.Option(None, "--output", "-o", help="Write to this file instead of standard output."),
    json_: bool = JSON,
) -> None:
    """Export a whole book (rules in rule order, terms, rulings) as JSON."""
    if format != "json":
        fail(f"unknown export format {format!r}: expected json")
    if book is None and game is None:
        fail("which book? --book ID, or --game riftbound|mtg for that game's default book")
    store = open_store()
    book = books_for(store, book, game)[0]
    from rulebook.lookup import book_document

    text = json.dumps(book_document(store, book), indent=2, ensure_ascii=False) + "\n"
    if output is None:
        typer.echo(text, nl=False)
        return
    output.write_text(text, encoding="utf-8")
    echo(f"wrote {output}")
