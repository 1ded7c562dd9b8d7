"""``judge search QUERY``: ranked rules, terms and rulings, typos corrected, rules ranked by words and meaning."""

from __future__ import annotations

import typer

from judge.app import check_book, echo, emit_json, open_store, warn
from judge.commands.options import BOOK, JSON


def search(
    query: str = typer.Argument(..., help="Words, a question, or a rule number."),
    book: str = BOOK,
    limit: int = typer.Option(10, "--limit", "-n", min=1, max=200, help="How many hits."),
    words: bool = typer.Option(False, "--words", help="Rank rules by their words alone, without the sentence model."),
    json_: bool = JSON,
) -> None:
    """Search rule text, titles, examples, glossary terms and rulings; a rule number jumps to the rule."""
    from rulebook.search import search as run

    store = open_store()
    check_book(store, book)
    if not query.strip():
        from judge.app import fail

        fail("empty query: expected words, a question or a rule number")
    if not words:
        from judge.meaning import prepare

        prepare(store, [book] if book else store.book_ids(), announce_unavailable=False)
    result = run(store, query, book=book, limit=limit, meaning=not words)
    if result.note:
        warn(result.note)
    if json_:
        emit_json(result.to_json())
    else:
        show(result)
    if not result.hits:
        raise typer.Exit(1)


def show(result) -> None:
    if result.corrected:
        echo(f"showing results for: {result.corrected}  (you typed: {result.query})")
    if not result.hits:
        echo("no matches; try fewer or other words")
        return
    for hit in result.hits:
        label = {"rule": hit.id, "term": f"term: {hit.id}", "ruling": f"ruling {hit.id}"}[hit.kind]
        title = f"  {hit.title}" if hit.title and hit.kind != "term" else ""
        echo(f"[{hit.book}] {label}{title}")
        echo(f"    {hit.snippet}")
