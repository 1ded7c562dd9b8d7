"""``judge define TERM``: a glossary entry, fuzzy-matched."""

from __future__ import annotations

import typer

from judge.app import books_for, echo, emit_json, open_store
from judge.commands.options import BOOK, GAME, JSON


def find_terms(store, term: str, books: list[str]):
    """Exact (case-insensitive) matches first; else the closest headwords if they are close enough."""
    from rapidfuzz import fuzz, process

    rows = [row for b in books for row in store.term_rows(b)]
    wanted = term.strip().lower()
    exact = [(b, t) for b, t in rows if t.term.lower() == wanted]
    if exact:
        return exact, []
    names = [t.term.lower() for _, t in rows]
    # A close spelling of one headword (fuzz.ratio: "permanant" -> "permanent") is taken as meant;
    # anything looser only becomes a suggestion.
    close = process.extract(wanted, names, scorer=fuzz.ratio, limit=8, score_cutoff=85)
    if close:
        top = close[0][1]
        return [rows[i] for _, s, i in close if s == top], []
    scored = process.extract(wanted, names, scorer=fuzz.WRatio, limit=6, score_cutoff=60)
    return [], list(dict.fromkeys(rows[i][1].term for _, _, i in scored))


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
        if json_:
            emit_json({"error": "not found", "term": term, "suggestions": suggestions})
        import sys

        hint = f"; did you mean: {', '.join(suggestions)}" if suggestions else ""
        print(f"judge: no term {term!r} in {', '.join(books)}{hint}", file=sys.stderr)
        raise typer.Exit(1)
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
