"""``judge rule NUMBER``: the rule, where it sits, its sub-rules, and what it cites and is cited by."""

from __future__ import annotations

import bisect

import typer

from judge.app import check_book, echo, emit_json, fail, open_store
from judge.commands.options import BOOK, JSON


def rule(
    number: str = typer.Argument(..., help="A rule number: 312.2.b or 312.2b, 601.2c or 601.2.c."),
    book: str = BOOK,
    depth: int = typer.Option(1, "--depth", "-d", min=0, help="How many levels of sub-rules to show."),
    json_: bool = JSON,
) -> None:
    """Show a rule: its ancestors, text, examples, sub-rules, citations, and what the loaded text lacks."""
    from rulebook import numbers

    if not numbers.looks_like_number(number):
        fail(f"{number!r} is not a rule number (expected e.g. 312.2.b or 601.2c); to search text: judge search {number!r}")
    store = open_store()
    check_book(store, book)
    found = store.find_rule(number, book)
    if not found:
        near = nearest(store, number, book)
        where = f" in {book}" if book else ""
        hint = f"; nearest: {', '.join(near)}" if near else ""
        if json_:
            emit_json({"error": "not found", "number": number, "suggestions": near})
        echo_err(f"no rule {number}{where}{hint}")
        raise typer.Exit(1)
    views = [rule_view(store, r.book, r.rule, depth) for r in found]
    if json_:
        emit_json(views[0] if len(views) == 1 else views)
        return
    for i, view in enumerate(views):
        if i:
            echo()
        print_view(view, labelled=len(views) > 1 or book is None)


def echo_err(message: str) -> None:
    import sys

    print(f"judge: {message}", file=sys.stderr)


def nearest(store, number: str, book: str | None) -> list[str]:
    """The numbers on either side of where ``number`` would be, and its parent, in the books searched."""
    from rulebook import numbers

    out: list[str] = []
    for book_id in [book] if book else store.book_ids():
        game = store.book(book_id).game
        wanted = numbers.canonical(number, game)
        existing = store.rule_numbers(book_id)
        keys = [numbers.sort_text(n) for n in existing]
        i = bisect.bisect_left(keys, numbers.sort_text(wanted))
        for n in existing[max(0, i - 1): i + 1]:
            if n not in out:
                out.append(n)
        p = numbers.parent(wanted, game)
        while p and p not in existing:
            p = numbers.parent(p, game)
        if p and p not in out:
            out.insert(0, p)
    return out[:6]


def _brief(r) -> dict:
    return {"number": r.number, "title": r.title, "text": r.text}


def _tree(store, book: str, number: str, depth: int) -> list[dict]:
    if depth <= 0:
        return []
    out = []
    for child in store.children(book, number):
        out.append({"number": child.number, "title": child.title, "text": child.text,
                    "children": _tree(store, book, child.number, depth - 1)})
    return out


def heading_of(store, book: str, rule) -> dict | None:
    """Riftbound groups rules under heading rules that are their siblings (311 Priority and Focus
    heads 312 and 313); the breadcrumb shows that heading too."""
    if rule.title and not rule.text:
        return None
    rows = store.query(
        "SELECT number, title FROM rules WHERE book = ? AND parent IS ? AND sort < ? ORDER BY sort DESC",
        [book, rule.parent, _sort(rule.number)],
    )
    for row in rows:
        sibling = store.rule(book, row["number"])
        if sibling.title and not sibling.text:
            return {"number": sibling.number, "title": sibling.title, "text": sibling.text}
    return None


def _sort(number: str) -> str:
    from rulebook import numbers

    return numbers.sort_text(number)


def rule_view(store, book: str, r, depth: int) -> dict:
    ancestors = [_brief(a) for a in store.ancestors(book, r)]
    if store.book(book).game == "riftbound":
        chain = store.ancestors(book, r) + [r]
        with_headings = []
        for item in chain:
            heading = heading_of(store, book, item) if item.parent else None
            if heading and heading not in with_headings:
                with_headings.append(heading)
            if item is not r:
                with_headings.append(_brief(item))
        ancestors = with_headings
    children = _tree(store, book, r.number, depth)
    present = len(store.children(book, r.number))
    missing = max(0, r.expected_children - present) if r.expected_children is not None else 0
    return {
        "book": book, "number": r.number, "title": r.title, "text": r.text, "examples": list(r.examples),
        "parent": r.parent, "ancestors": ancestors, "children": children, "missing_children": missing,
        "expected_children": r.expected_children, "source": r.source, "line": r.line,
        "cites": [_cite(store, book, c) for c in store.cites(book, r.number)],
        "cited_by": [_cited_by(store, book, c) for c in store.cited_by(book, r.number)],
    }


def _cite(store, book: str, row: dict) -> dict:
    target = store.rule(book, row["target"])
    return {"number": row["target"], "title": target.title if target else row["cited_title"],
            "outcome": row["outcome"], "in_book": target is not None}


def _cited_by(store, book: str, row: dict) -> dict:
    if row["from_kind"] == "rule":
        source = store.rule(book, row["from_id"])
        return {"kind": "rule", "number": row["from_id"], "title": source.title if source else None}
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
