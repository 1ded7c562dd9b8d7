"""``judge books`` and ``judge unload``."""

from __future__ import annotations

import typer

from judge.app import emit_json, echo, fail, open_store
from judge.commands.options import JSON


def book_json(store, book) -> dict:
    counts = store.counts(book.id)
    return {
        "id": book.id, "game": book.game, "title": book.title, "edition": book.edition,
        "rules": counts["rules"], "terms": counts["terms"], "rulings": counts["rulings"],
        "builtin": book.builtin,
        "sources": [{"name": s.name, "kind": s.kind, "sha256": s.sha256, "path": s.path} for s in book.sources],
    }


def books(json_: bool = JSON) -> None:
    """The loaded books with their counts of rules, terms and rulings, and their sources."""
    store = open_store()
    rows = [book_json(store, b) for b in store.books()]
    if json_:
        emit_json(rows)
        return
    for row in rows:
        kind = "default (seeds)" if row["builtin"] else "loaded"
        echo(f"{row['id']}  [{row['game']}, {kind}]  {row['title']}" + (f"  edition {row['edition']}" if row["edition"] else ""))
        echo(f"    {row['rules']} rules, {row['terms']} terms, {row['rulings']} rulings")
        for s in row["sources"]:
            echo(f"    - {s['name']} ({s['kind']}, sha256 {s['sha256'][:12]})")


def unload(book_id: str = typer.Argument(..., metavar="ID", help="The user book to remove."),
           json_: bool = JSON) -> None:
    """Remove a book loaded with `judge load` (the default books stay)."""
    from rulebook.library import LibraryError

    from judge.app import library

    try:
        library().unload(book_id)
    except LibraryError as exc:
        fail(str(exc))
    if json_:
        emit_json({"unloaded": book_id})
    else:
        echo(f"unloaded {book_id}")
