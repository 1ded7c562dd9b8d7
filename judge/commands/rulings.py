"""``judge rulings QUERY``: search the rulings (FAQ) only.

A ruling a later FAQ revised (rulebook.readers.rulings.link_revisions) is shown after the current
rulings and marked superseded; the ruling that revised it is shown even when the query did not
find it, so the judge always sees the current answer."""

from __future__ import annotations

import typer

from judge.app import books_for, echo, emit_json, open_store, search_books
from judge.commands.options import BOOK, GAME, JSON

_COLUMNS = ", ".join(f"rulings.{c}" for c in (
    "book", "id", "topic", "question", "answer", "source", "line", "form", "faq", "published", "revises_rule"))


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
    found = [_view(store, hit.book, hit.id, hit.score) for hit in result.hits]
    full = current_first(store, found)
    if json_:
        emit_json({"query": result.query, "corrected": result.corrected, "rulings": full})
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


def _brief(row: dict) -> dict:
    return {"id": row["id"], "question": row["question"], "faq": row["faq"], "published": row["published"]}


def _view(store, book: str, ruling_id: str, score: float | None) -> dict:
    row = store.query(f"SELECT {_COLUMNS} FROM rulings WHERE rulings.book = ? AND rulings.id = ?", [book, ruling_id])[0]
    later = store.query(
        f"SELECT {_COLUMNS} FROM revisions JOIN rulings ON rulings.book = revisions.book AND rulings.id = revisions.ruling "
        "WHERE revisions.book = ? AND revisions.revises = ? ORDER BY rulings.rowid", [book, ruling_id])
    earlier = store.query(
        f"SELECT {_COLUMNS} FROM revisions JOIN rulings ON rulings.book = revisions.book AND rulings.id = revisions.revises "
        "WHERE revisions.book = ? AND revisions.ruling = ? ORDER BY rulings.rowid", [book, ruling_id])
    return {"book": book, "id": row["id"], "form": row["form"], "topic": row["topic"], "question": row["question"],
            "answer": row["answer"], "faq": row["faq"], "published": row["published"], "source": row["source"],
            "line": row["line"], "score": score, "current": not later,
            "superseded_by": [_brief(r) for r in later], "revises": [_brief(r) for r in earlier],
            "revises_rule": row["revises_rule"]}


def current_first(store, found: list[dict]) -> list[dict]:
    """The current rulings (by score), each superseded ruling's revisions that the search did not find
    (score None), then the superseded rulings (by score)."""
    current = [r for r in found if r["current"]]
    superseded = [r for r in found if not r["current"]]
    shown = {(r["book"], r["id"]) for r in found}
    for old in superseded:
        for newer in old["superseded_by"]:
            if (old["book"], newer["id"]) not in shown:
                shown.add((old["book"], newer["id"]))
                current.append(_view(store, old["book"], newer["id"], None))
    return current + superseded


def _from(r: dict) -> str:
    """Where a ruling comes from: "Riftbound Origins FAQ, 2025-10-16"."""
    return ", ".join(p for p in (r["faq"], r["published"]) if p)


def print_ruling(r: dict) -> None:
    where = _from(r)
    echo(f"[{r['book']}] {r['id']}" + (f"  ({r['topic']})" if r["topic"] else "") + (f"  {where}" if where else "")
         + ("" if r["current"] else "  SUPERSEDED"))
    echo(f"Q: {r['question']}" if r["form"] == "question" else r["question"])
    for paragraph in r["answer"].split("\n"):
        echo(f"   {paragraph}")
    if r["superseded_by"]:
        echo("   superseded by:")
        for newer in r["superseded_by"]:
            echo(f"     {newer['id']} ({_from(newer)}): {newer['question']}")
    if r["revises"]:
        echo("   revises: " + "; ".join(f"{o['id']} ({_from(o)})" for o in r["revises"]))
    if r["revises_rule"]:
        echo(f"   revised text of rule {r['revises_rule']}")
