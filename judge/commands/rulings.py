"""``judge rulings QUERY``: search the rulings (FAQ) only.

A ruling a later FAQ revised (rulebook.readers.rulings.link_revisions) is shown after the current
rulings and marked superseded; the ruling that revised it is shown even when the query did not
find it, so the judge always sees the current answer."""

from __future__ import annotations

import typer

from judge.books import books_for, open_store
from judge.output import echo, emit_json
from rulebook.search import search_books
from judge.commands.options import BOOK, GAME, JSON
from rulebook.lookup import RulingView, ruling_views

def rulings(
    query: str = typer.Argument(..., help="Words or a question."),
    book: str = BOOK,
    game: str = GAME,
    limit: int = typer.Option(5, "--limit", "-n", min=1, max=100),
    json_: bool = JSON,
) -> None:
    """Search rulings (official FAQ answers) and show each question with its whole answer, the current
    ruling first and a revised one marked superseded."""
    store = open_store()
    books = books_for(store, book, game)
    result = search_books(store, query, books, limit=limit, kinds=("ruling",))
    full = ruling_views(store, [(hit.book, hit.id, hit.score) for hit in result.hits])
    if json_:
        emit_json({"query": result.query, "corrected": result.corrected, "rulings": [r.to_json() for r in full]})
    else:
        if result.corrected:
            echo(f"showing results for: {result.corrected}  (you typed: {result.query})")
        for i, r in enumerate(full):
            if i:
                echo()
            print_ruling(r)
        if not full:
            echo("no matching rulings")
    if not full:
        raise typer.Exit(1)


def _from(faq: str | None, published: str | None) -> str:
    """Where a ruling comes from: "Riftbound Origins FAQ, 2025-10-16"."""
    return ", ".join(p for p in (faq, published) if p)


def print_ruling(r: RulingView) -> None:
    where = _from(r.faq, r.published)
    echo(f"[{r.book}] {r.id}" + (f"  ({r.topic})" if r.topic else "") + (f"  {where}" if where else "")
         + ("" if r.current else "  SUPERSEDED"))
    echo(f"Q: {r.question}" if r.form == "question" else r.question)
    for paragraph in r.answer.split("\n"):
        echo(f"   {paragraph}")
    if r.superseded_by:
        echo("   superseded by:")
        for newer in r.superseded_by:
            echo(f"     {newer['id']} ({_from(newer['faq'], newer['published'])}): {newer['question']}")
    if r.revises:
        echo("   revises: " + "; ".join(f"{o['id']} ({_from(o['faq'], o['published'])})" for o in r.revises))
    if r.revises_rule:
        echo(f"   revised text of rule {r.revises_rule}")
