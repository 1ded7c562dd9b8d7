"""``judge export json --book ID``: a whole book as JSON."""

from __future__ import annotations

import json
from pathlib import Path

import typer

from judge.app import books_for, echo, fail, open_store
from judge.commands.options import GAME, JSON


def book_document(store, book_id: str) -> dict:
    book = store.book(book_id)
    return {
        "book": {"id": book.id, "game": book.game, "title": book.title, "edition": book.edition,
                 "sources": [{"name": s.name, "kind": s.kind, "sha256": s.sha256} for s in book.sources]},
        "rules": [{"number": r.number, "parent": r.parent, "title": r.title, "text": r.text,
                   "examples": list(r.examples)} for r in store.rules(book_id)],
        "terms": [{"term": t.term, "definition": t.definition, "obsolete": t.obsolete} for t in store.terms(book_id)],
        "rulings": [{"id": r.id, "topic": r.topic, "question": r.question, "answer": r.answer}
                    for r in store.rulings(book_id)],
    }


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
    text = json.dumps(book_document(store, book), indent=2, ensure_ascii=False) + "\n"
    if output is None:
        typer.echo(text, nl=False)
        return
    output.write_text(text, encoding="utf-8")
    echo(f"wrote {output}")
