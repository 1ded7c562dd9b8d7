"""``judge define TERM``: a glossary entry, fuzzy-matched, with the rules that say what it is."""

from __future__ import annotations

from typing import Any

import typer

from judge.books import books_for, open_store
from judge.commands.options import BOOK, GAME, JSON
from judge.output import echo, emit_json, fail
from rulebook.lookup import excerpt_hint
from rulebook.terms import find_terms, shorthand_meanings, term_rules


def define(
    term: str = typer.Argument(..., help="A glossary term (typos, near spellings and judges' shorthand are matched)."),
    book: str = BOOK,
    game: str = GAME,
    json_: bool = JSON,
) -> None:
    """Show a glossary entry and the rules under it (Riftbound: the rule that defines the term)."""
    store = open_store()
    books = books_for(store, book, game)
    found, suggestions = find_terms(store, term, books)
    if not found:
        said = f"; did you mean: {', '.join(suggestions)}" if suggestions else ""
        if shorthand_meanings(store, term, books):  # "fizzle": no entry, but the search knows it
            said = (
                f"; {term} is judges' shorthand for: {' | '.join(suggestions)} (judge search {term!r} finds its rules)"
            )
        fail(
            f"no term {term!r} in {', '.join(books)}{said}",
            code=1,
            suggestions=suggestions,
            hint=excerpt_hint(store, books),
        )
    views: list[dict[str, Any]] = []
    for b, t in found:
        rules, more = term_rules(store, b, t.term)
        views.append(
            {
                "book": b,
                "term": t.term,
                "definition": t.definition,
                "source": t.source,
                "line": t.line,
                "obsolete": t.obsolete,
                "rules": rules,
                "more_rules": more,
            }
        )
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
        if v["rules"]:
            echo("  rules:")
            for r in v["rules"]:
                said = " ".join(p for p in (r["title"] if not r["text"] else None, r["text"]) if p)
                echo(f"  {'  ' * (r['depth'] + 1)}{r['number']} {said}".rstrip())
            if v["more_rules"]:
                echo(
                    f"    ... {v['more_rules']} more: judge rule {v['rules'][0]['number']} --book {v['book']} --depth 3"
                )
