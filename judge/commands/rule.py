"""``judge rule NUMBER``: the rule, where it sits, its sub-rules, and what it cites and is cited by.

The lookup a judge runs most, so it reads judge.db with sqlite3 alone (:func:`judge.app.open_rows`:
the tables of docs/database.md, as rows), without the store's classes; rule numbers are
:mod:`rulebook.numbers`'."""

from __future__ import annotations

import json

import typer

from judge.app import books_for, echo, emit_json, fail, open_rows
from rulebook.lookup import nearest_numbers
from judge.commands.options import BOOK, GAME, JSON


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
    found = find(db, number, books)
    if not found:
        near = nearest_numbers(db, number, books)
        hint = f"; nearest: {', '.join(near)}" if near else ""
        fail(f"no rule {number} in {', '.join(books)}{hint}", code=1, suggestions=near)
    views = [rule_view(db, book_id, r, depth) for book_id, r in found]
    if json_:
        emit_json(views)  # a list, with or without --book (docs/json.md)
        return
    for i, view in enumerate(views):
        if i:
            echo()
        print_view(view, labelled=len(views) > 1 or book is None)


# Reading the rules table (docs/database.md) ---------------------------------------------------------
_COLUMNS = "book, number, parent, title, text, examples, source, line, expected_children, sort"


def _rule(row: dict) -> dict:
    row["text"] = row["text"] or ""
    row["examples"] = json.loads(row["examples"] or "[]")
    row["source"], row["line"] = row["source"] or "", row["line"] or 0
    return row


def get(db, book: str, number: str) -> dict | None:
    rows = db.query(f"SELECT {_COLUMNS} FROM rules WHERE book = ? AND number = ?", [book, number])
    return _rule(rows[0]) if rows else None


def find(db, text: str, books: list[str]) -> list[tuple[str, dict]]:
    """Each book's rule with this number, typed in either game's style, in ``books`` order."""
    from rulebook import numbers

    found: dict[str, dict] = {}
    for candidate in numbers.candidates(text):
        marks = ", ".join("?" * len(books))
        for row in db.query(f"SELECT {_COLUMNS} FROM rules WHERE number = ? AND book IN ({marks})",
                            [candidate, *books]):
            found.setdefault(row["book"], _rule(row))
    return [(b, found[b]) for b in books if b in found]


def children(db, book: str, number: str) -> list[dict]:
    return [_rule(r) for r in db.query(f"SELECT {_COLUMNS} FROM rules WHERE book = ? AND parent = ? ORDER BY sort",
                                       [book, number])]


def ancestors(db, book: str, rule: dict) -> list[dict]:
    out: list[dict] = []
    parent = rule["parent"]
    while parent:
        found = get(db, book, parent)
        if found is None:
            break
        out.insert(0, found)
        parent = found["parent"]
    return out


def _brief(r: dict) -> dict:
    return {"number": r["number"], "title": r["title"], "text": r["text"]}


def _tree(db, book: str, number: str, depth: int) -> list[dict]:
    if depth <= 0:
        return []
    return [{"number": child["number"], "title": child["title"], "text": child["text"],
             "children": _tree(db, book, child["number"], depth - 1)} for child in children(db, book, number)]


def _is_heading(r: dict) -> bool:
    return bool(r["title"]) and not r["text"]


def heading_of(db, book: str, rule: dict) -> dict | None:
    """Riftbound groups rules under heading rules that are their siblings (311 Priority and Focus
    heads 312 and 313); the breadcrumb shows that heading too."""
    if _is_heading(rule):
        return None
    rows = db.query(
        f"SELECT {_COLUMNS} FROM rules WHERE book = ? AND parent IS ? AND sort < ? ORDER BY sort DESC",
        [book, rule["parent"], rule["sort"]],
    )
    for row in rows:
        sibling = _rule(row)
        if _is_heading(sibling):
            return _brief(sibling)
    return None


def rule_view(db, book: str, r: dict, depth: int) -> dict:
    above = ancestors(db, book, r)
    ancestors_shown = [_brief(a) for a in above]
    if db.query("SELECT game FROM books WHERE id = ?", [book])[0]["game"] == "riftbound":
        with_headings: list[dict] = []
        for item in above + [r]:
            heading = heading_of(db, book, item) if item["parent"] else None
            if heading and heading not in with_headings:
                with_headings.append(heading)
            if item is not r:
                with_headings.append(_brief(item))
        ancestors_shown = with_headings
    present = db.query("SELECT count(*) AS n FROM rules WHERE book = ? AND parent = ?", [book, r["number"]])[0]["n"]
    expected = r["expected_children"]
    missing = max(0, expected - present) if expected is not None else 0
    return {
        "book": book, "number": r["number"], "title": r["title"], "text": r["text"], "examples": r["examples"],
        "parent": r["parent"], "ancestors": ancestors_shown, "children": _tree(db, book, r["number"], depth),
        "missing_children": missing, "expected_children": expected, "source": r["source"], "line": r["line"],
        "cites": [_cite(db, book, c) for c in _cites(db, book, r["number"])],
        "cited_by": [_cited_by(db, book, c) for c in _cited_by_rows(db, book, r["number"])],
        "revised_by": revised_by(db, book, r["number"]),
    }


def revised_by(db, book: str, number: str) -> list[dict]:
    """The FAQ sections of the book that give this rule's revised text (``Rule 735.1.c (revised text)``)."""
    rows = db.query("SELECT id, answer, faq, published, source, line FROM rulings WHERE book = ? AND revises_rule = ? "
                    "ORDER BY published, rowid", [book, number])
    return [{"ruling": row["id"], "faq": row["faq"], "published": row["published"], "text": row["answer"],
             "source": row["source"], "line": row["line"]} for row in rows]


def _cites(db, book: str, number: str) -> list[dict]:
    return db.query(
        "SELECT DISTINCT target, target_kind, outcome, raw, cited_title, actual_title FROM refs "
        "WHERE book = ? AND from_kind = 'rule' AND from_id = ? AND target_kind != 'term' ORDER BY rowid",
        [book, number],
    )


def _cited_by_rows(db, book: str, number: str) -> list[dict]:
    return db.query(
        "SELECT DISTINCT from_kind, from_id FROM refs WHERE book = ? AND target = ? "
        "AND target_kind != 'term' ORDER BY rowid",
        [book, number],
    )


def _title(db, book: str, number: str) -> tuple[bool, str | None]:
    rows = db.query("SELECT title FROM rules WHERE book = ? AND number = ?", [book, number])
    return (True, rows[0]["title"]) if rows else (False, None)


def _cite(db, book: str, row: dict) -> dict:
    in_book, title = _title(db, book, row["target"])
    return {"number": row["target"], "title": title if in_book else row["cited_title"],
            "outcome": row["outcome"], "in_book": in_book}


def _cited_by(db, book: str, row: dict) -> dict:
    if row["from_kind"] == "rule":
        return {"kind": "rule", "number": row["from_id"], "title": _title(db, book, row["from_id"])[1]}
    return {"kind": row["from_kind"], "number": row["from_id"], "title": None}


def _line(r: dict, width: int = 48) -> str:
    if r.get("title"):
        return f"{r['number']} {r['title']}"
    text = r.get("text") or ""
    return f"{r['number']} {text[:width - 1] + '…' if len(text) > width else text}".strip()


def print_view(view: dict, labelled: bool) -> None:
    head = f"[{view['book']}] " if labelled else ""
    echo(f"{head}{view['number']}" + (f"  {view['title']}" if view["title"] else ""))
    if view["ancestors"]:
        for depth, ancestor in enumerate(view["ancestors"]):
            echo(f"  {'  ' * depth}{_line(ancestor, 90)}")
    if view["text"]:
        echo()
        for paragraph in view["text"].split("\n"):
            echo(f"  {paragraph}")
    for example in view["examples"]:
        echo(f"  Example: {example}")
    for revision in view["revised_by"]:
        echo()
        dated = f" ({revision['published']})" if revision["published"] else ""
        echo(f"  revised by FAQ {revision['faq'] or revision['source']}{dated}, ruling {revision['ruling']}:")
        for paragraph in revision["text"].split("\n"):
            echo(f"    {paragraph}")
    if view["children"]:
        echo()
        _print_tree(view["children"], 1)
    if view["missing_children"]:
        n = view["missing_children"]
        echo()
        echo(f"  {n} sub-rule{'s' if n != 1 else ''} of {view['number']} {'are' if n != 1 else 'is'} not in the "
             f"loaded text (the outline lists {view['expected_children']}).")
    if view["cites"]:
        echo()
        echo("  cites: " + ", ".join(
            _line(c) + ("" if c["in_book"] else " (not in the loaded text)") for c in view["cites"]))
    if view["cited_by"]:
        echo("  cited by: " + ", ".join(_line(c) if c["kind"] == "rule" else f"{c['kind']} {c['number']}"
                                        for c in view["cited_by"]))


def _print_tree(children: list[dict], level: int) -> None:
    for child in children:
        text = child["title"] or child["text"]
        if len(text) > 110:
            text = text[:107] + "..."
        echo(f"{'  ' * level}{child['number']}  {text}")
        _print_tree(child["children"], level + 1)
