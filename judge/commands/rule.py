"""``judge rule NUMBER``: the rule, where it sits, its sub-rules, and what it cites and is cited by.

The lookup a judge runs most, so it reads judge.db with sqlite3 alone (:func:`judge.books.open_rows`),
without the store's classes; :func:`rulebook.lookup.rule_views` reads the rows."""

from __future__ import annotations

import typer

from judge.books import books_for, open_rows
from judge.output import echo, emit_json, fail
from judge.commands.options import BOOK, GAME, JSON
from rulebook.lookup import RuleView, excerpt_hint, nearest_numbers, rule_views


def rule(
    number: str = typer.Argument(..., help="A rule number: 312.2.b or 312.2b, 601.2c or 601.2.c."),
    book: str = BOOK,
    game: str = GAME,
    depth: int = typer.Option(1, "--depth", "-d", min=0, help="How many levels of sub-rules to show."),
    json_: bool = JSON,
) -> None:
    """Show a rule: its ancestors, text, examples, sub-rules, citations, and what the loaded text lacks."""
    from rulebook import numbers

    if not numbers.looks_like_number(number):
        fail(f"{number!r} is not a rule number (expected e.g. 312.2.b or 601.2c); to search text: judge search {number!r}")
    db = open_rows()
    books = books_for(db, book, game)
    views = rule_views(db, number, books, depth)
    if not views:
        near = nearest_numbers(db, number, books)
        said = f"; nearest: {', '.join(near)}" if near else ""
        fail(f"no rule {number} in {', '.join(books)}{said}", code=1, suggestions=near, hint=excerpt_hint(db, books))
    if json_:
        emit_json([v.to_json() for v in views])  # a list, with or without --book (docs/json.md)
        return
    for i, view in enumerate(views):
        if i:
            echo()
        print_view(view, labelled=len(views) > 1 or book is None)


def _line(r: dict, width: int = 48) -> str:
    if r.get("title"):
        return f"{r['number']} {r['title']}"
    text = r.get("text") or ""
    return f"{r['number']} {text[:width - 1] + '…' if len(text) > width else text}".strip()


def print_view(view: RuleView, labelled: bool) -> None:
    head = f"[{view.book}] " if labelled else ""
    twice = f"  (the publisher printed {view.printed} twice; this one is {view.number})" if view.printed != view.number else ""
    echo(f"{head}{view.number}" + (f"  {view.title}" if view.title else "") + twice)
    if view.ancestors:
        for depth, ancestor in enumerate(view.ancestors):
            echo(f"  {'  ' * depth}{_line(ancestor, 90)}")
    if view.text:
        echo()
        for paragraph in view.text.split("\n"):
            echo(f"  {paragraph}")
    for example in view.examples:
        echo(f"  Example: {example}")
    for revision in view.revised_by:
        echo()
        dated = f" ({revision['published']})" if revision["published"] else ""
        echo(f"  revised by FAQ {revision['faq'] or revision['source']}{dated}, ruling {revision['ruling']}:")
        for paragraph in revision["text"].split("\n"):
            echo(f"    {paragraph}")
    if view.children:
        echo()
        _print_tree(view.children, 1)
    if view.missing_children:
        n = view.missing_children
        echo()
        echo(f"  {n} sub-rule{'s' if n != 1 else ''} of {view.number} {'are' if n != 1 else 'is'} not in the "
             f"loaded text (the outline lists {view.expected_children}).")
    if view.cites:
        echo()
        echo("  cites: " + ", ".join(
            _line(c) + ("" if c["in_book"] else " (not in the loaded text)") for c in view.cites))
    if view.cited_by:
        echo("  cited by: " + ", ".join(_line(c) if c["kind"] == "rule" else f"{c['kind']} {c['number']}"
                                        for c in view.cited_by))
    if view.rulings:
        echo()
        echo(f"  rulings ({len(view.rulings)}):")
        _print_rulings(view)


def _print_rulings(view: RuleView) -> None:
    """The rulings that rest on the rule: the book's own, then those of older editions' books, grouped by
    their book and by what they rest on, said once (``737 Hidden (rb-1.2) = 811 in rb-1.3, changed since:
    ...``)."""
    from rulebook.game_rulings import describe

    group = None
    for r in view.rulings:
        if r["book"] == view.book:
            _print_ruling(r, "    ")
            continue
        rests = "; ".join(describe(c, r["book"]) for c in r["cites"] if c["now"] and _under(c["now"], view.number))
        if (r["book"], rests) != group:
            group = (r["book"], rests)
            edition = f" (edition {r['edition']})" if r["edition"] else ""
            echo(f"    from {r['book']}{edition}" + (f", {rests}" if rests else "") + ":")
        _print_ruling(r, "      ")


def _under(number: str, rule: str) -> bool:
    """``number`` is ``rule`` or one of its sub-rules (702.19a of 702.19, 811.1.b of 811; not 702.190)."""
    return number == rule or (number.startswith(rule) and not number[len(rule)].isdigit())


def _print_ruling(r: dict, indent: str) -> None:
    question = r["question"] if len(r["question"]) <= 100 else r["question"][:97] + "..."
    where = ", ".join(p for p in (r["faq"], r["published"]) if p)
    state = "" if r["current"] else "  SUPERSEDED by " + ", ".join(
        (f"[{n['book']}] " if n["book"] != r["book"] else "") + n["id"] for n in r["superseded_by"])
    echo(f"{indent}{r['id']}" + (f" ({where})" if where else "") + f": {question}{state}")


def _print_tree(children: list[dict], level: int) -> None:
    for child in children:
        text = child["title"] or child["text"]
        if len(text) > 110:
            text = text[:107] + "..."
        echo(f"{'  ' * level}{child['number']}  {text}")
        _print_tree(child["children"], level + 1)
