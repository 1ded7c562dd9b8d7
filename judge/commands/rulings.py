"""``judge rulings QUERY``: search the rulings (FAQ) only."""

from __future__ import annotations

import typer

from judge.app import books_for, echo, emit_json, open_store, search_books
from judge.commands.options import BOOK, GAME, JSON


def rulings(
    query: str = typer.Argument(..., help="Words or a question."),
    book: str = BOOK,
    game: str = GAME,
    limit: int = typer.Option(5, "--limit", "-n", min=1, max=100),
    json_: bool = JSON,
) -> None:
    """Search rulings (official FAQ answers) and show each question with its whole answer."""
    store = open_store()
    books = books_for(store, book, game)
    result = search_books(store, query, books, limit=limit, kinds=("ruling",))
    full = []
    for hit in result.hits:
        row = store.query("SELECT * FROM rulings WHERE book = ? AND id = ?", [hit.book, hit.id])[0]
        full.append({"book": hit.book, "id": hit.id, "topic": row["topic"], "question": row["question"],
                     "answer": row["answer"], "source": row["source"], "line": row["line"], "score": hit.score})
    if json_:
        emit_json({"query": result.query, "corrected": result.corrected, "rulings": full})
    else:
        if result.corrected:
            echo(f"showing results for: {result.corrected}  (you typed: {result.query})")
        for i, r in enumerate(full):
            if i:
                echo()
            echo(f"[{r['book']}] {r['id']}" + (f"  ({r['topic']})" if r["topic"] else ""))
            echo(f"Q: {r['question']}")
            for paragraph in r["answer"].split("\n"):
                echo(f"   {paragraph}")
        if not full:
            echo("no matching rulings")
    if not full:
        raise typer.Exit(1)
