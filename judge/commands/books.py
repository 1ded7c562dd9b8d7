"""``judge books`` and ``judge unload``."""

from __future__ import annotations

from typing import TYPE_CHECKING

import typer

from judge.books import open_store
from judge.commands.options import JSON
from judge.output import echo, emit_json, fail

if TYPE_CHECKING:
    from rulebook.model import Book
    from rulebook.store import Store


def book_json(store: Store, book: Book, defaults: list[str]) -> dict:
    counts = store.counts(book.id)
    return {
        "id": book.id,
        "game": book.game,
        "title": book.title,
        "edition": book.edition,
        "rules": counts["rules"],
        "terms": counts["terms"],
        "rulings": counts["rulings"],
        "builtin": book.builtin,
        "default": book.id in defaults,
        "sources": [{"name": s.name, "kind": s.kind, "sha256": s.sha256, "path": s.path} for s in book.sources],
    }


def books_json() -> list[dict]:
    """What ``judge books --json`` prints (and ``GET /api/books`` answers)."""
    from rulebook.editions import default_books

    store = open_store()
    defaults = default_books(store)
    return [book_json(store, b, defaults) for b in store.books()]


def books(json_: bool = JSON) -> None:
    """The loaded books with their counts of rules, terms and rulings, and their sources; which book
    of each game answers when no book is named."""
    rows = books_json()
    if json_:
        emit_json(rows)
        return
    for row in rows:
        kind = "built in (seeds)" if row["builtin"] else "loaded"
        if row["default"]:
            kind += f", the {row['game']} default"
        echo(
            f"{row['id']}  [{row['game']}, {kind}]  {row['title']}"
            + (f"  edition {row['edition']}" if row["edition"] else "")
        )
        echo(f"    {row['rules']} rules, {row['terms']} terms, {row['rulings']} rulings")
        for s in row["sources"]:
            echo(f"    - {s['name']} ({s['kind']}, sha256 {s['sha256'][:12]})")


def unload(
    book_id: str = typer.Argument(..., metavar="ID", help="The user book to remove."), json_: bool = JSON
) -> None:
    """Remove a book loaded with `judge load` (the default books stay)."""
    from judge.books import library
    from rulebook.library import LibraryError

    try:
        library().unload(book_id)
    except LibraryError as exc:
        fail(str(exc))
    if json_:
        emit_json({"unloaded": book_id})
    else:
        echo(f"unloaded {book_id}")
