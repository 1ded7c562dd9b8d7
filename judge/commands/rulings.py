"""``judge rulings QUERY``: search the rulings (FAQ) only.

A book is read with the rulings of its game's older editions' books too (rulebook.game_rulings), each
labelled with the book and edition it was written for and the rules it rests on followed into the
book read.

A ruling a later FAQ revised (rulebook.readers.rulings.link_revisions) is shown after the current
rulings and marked superseded; the ruling that revised it is shown even when the query did not
find it, so the judge always sees the current answer."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import typer

from judge.books import books_for, open_store
from judge.commands.options import BOOK, GAME, JSON
from judge.output import echo, emit_json
from rulebook.lookup import RulingView, excerpt_hint, ruling_views
from rulebook.search import search_books


def rulings(
    query: str = typer.Argument(..., help="Words or a question."),
    book: str = BOOK,
    game: str = GAME,
    limit: int = typer.Option(5, "--limit", "-n", min=1, max=100),
    json_: bool = JSON,
) -> None:
    """Search rulings (official FAQ answers) and show each question with its whole answer, the current
    ruling first and a revised one marked superseded."""
    found = found_rulings(query, book, game, limit)
    result, full, hint = found.result, found.rulings, found.hint
    if json_:
        emit_json(found.to_json())
    else:
        if result.corrected:
            echo(f"showing results for: {result.corrected}  (you typed: {result.query})")
        for i, r in enumerate(full):
            if i:
                echo()
            print_ruling(r)
        if not full:
            echo("no matching rulings")
            if hint:
                echo(f"hint: {hint}")
    if not full:
        raise typer.Exit(1)


@dataclass(frozen=True)
class FoundRulings:
    """The rulings a query found (:func:`rulebook.search.search_books`), each whole; the hint for a miss
    in an excerpt."""

    result: Any
    rulings: list[RulingView]
    hint: str | None

    def to_json(self) -> dict:
        """What ``judge rulings --json`` prints (and ``GET /api/rulings`` answers)."""
        r = self.result
        return {
            "query": r.query,
            "corrected": r.corrected,
            "rulings": [x.to_json() for x in self.rulings],
            "hint": self.hint,
        }


def found_rulings(query: str, book: str | None = None, game: str | None = None, limit: int = 5) -> FoundRulings:
    """The search ``judge rulings`` runs; :func:`judge.output.fail` (exit 2) for a wrong book or game."""
    store = open_store()
    books = books_for(store, book, game)
    result = search_books(store, query, books, limit=limit, kinds=("ruling",))
    full = ruling_views(store, [(hit.book, hit.id, hit.score, hit.read_in) for hit in result.hits])
    return FoundRulings(result, full, excerpt_hint(store, books) if not full else None)


def _from(faq: str | None, published: str | None) -> str:
    """Where a ruling comes from: "Riftbound Origins FAQ, 2025-10-16"."""
    return ", ".join(p for p in (faq, published) if p)


def print_ruling(r: RulingView) -> None:
    where = _from(r.faq, r.published)
    echo(
        f"[{r.book}] {r.id}"
        + (f"  ({r.topic})" if r.topic else "")
        + (f"  {where}" if where else "")
        + ("" if r.current else "  SUPERSEDED")
    )
    if r.carried:
        echo(f"   {written_for(r.book, r.edition, r.read_in)}")
    echo(f"Q: {r.question}" if r.form == "question" else r.question)
    for paragraph in r.answer.split("\n"):
        echo(f"   {paragraph}")
    if r.carried and r.cites:
        from rulebook.game_rulings import describe

        echo("   rests on: " + "; ".join(describe(c, r.book) for c in r.cites))
    if r.superseded_by:
        echo("   superseded by:")
        for newer in r.superseded_by:
            book = f"[{newer['book']}] " if newer["book"] != r.book else ""
            echo(f"     {book}{newer['id']} ({_from(newer['faq'], newer['published'])}): {newer['question']}")
    if r.revises:
        echo(
            "   revises: "
            + "; ".join(
                (f"[{o['book']}] " if o["book"] != r.book else "") + f"{o['id']} ({_from(o['faq'], o['published'])})"
                for o in r.revises
            )
        )
    if r.revises_rule:
        echo(f"   revised text of rule {r.revises_rule}")


def written_for(book: str, edition: str | None, read_in: str | None) -> str:
    """The label of a ruling read in a newer edition's book: "written for rb-1.2 (edition 2025-12-01), read in rb-1.3"."""
    return f"written for {book}" + (f" (edition {edition})" if edition else "") + f", read in {read_in}"
