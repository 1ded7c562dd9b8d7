"""``judge define TERM``: a glossary entry, fuzzy-matched."""

from __future__ import annotations

import typer

from judge.books import books_for, open_store
from judge.output import echo, emit_json, fail
from judge.commands.options import BOOK, GAME, JSON
from rulebook.lookup import excerpt_hint, find_terms


def define(
    term: str = typer.Argument(..., help="A glossary term (typos and near spellings are matched)."),
    book: str = BOOK,
    game: str = GAME,
    json_: bool = JSON,
) -> None:
    """Show a glossary entry (Riftbound: the rule that defines the term)."""
    store = open_store()
    books = books_for(store, book, game)
    found, suggestions = find_terms(store, term, books)
    if not found:
        said = f"; did you mean: {', '.join(suggestions)}" if suggestions else ""
        fail(f"no term {term!r} in {', '.join(books)}{said}", code=1, suggestions=suggestions,
             hint=excerpt_hint(store, books))
    views = [{"book": b, "term": t.term, "definition": t.definition, "source": t.source, "line": t.line,
              "obsolete": t.obsolete} for b, t in found]
    if json_:
        emit_json(views)  # a list, with or without --book (docs/json.md)
        return
    for i, v in enumerate(views):
        if i:
            echo()
        echo(f"[{v['book']}] {v['term']}" + (" (obsolete)" if v["obsolete"] else ""))
        for paragraph in v["definition"].split("\n"):
            echo(f"  {paragraph}")
        if v["source"]:
            echo(f"  ({v['source']}" + (f", line {v['line']})" if v["line"] else ")"))
