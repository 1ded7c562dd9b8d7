"""``judge path A B``: the shortest chain of citations and containment between two rules."""

from __future__ import annotations

import typer

from judge.app import echo, emit_json, fail, one_book, open_store
from judge.commands.options import BOOK, GAME, JSON


def path(
    start: str = typer.Argument(..., metavar="A", help="A rule number."),
    end: str = typer.Argument(..., metavar="B", help="Another rule number."),
    book: str = BOOK,
    game: str = GAME,
    json_: bool = JSON,
) -> None:
    """How two rules are linked: the shortest chain of citations and parent/sub-rule steps."""
    from judge.graphs import canonical_in, load_graph
    from rulebook.graph import shortest_path

    store = open_store()
    book = one_book(store, book, game, start)
    a, b = canonical_in(store, book, start), canonical_in(store, book, end)
    for n in (a, b):
        if store.rule(book, n) is None:
            fail(f"no rule {n} in {book}", code=1)
    steps = shortest_path(load_graph(store, book), ("rule", a), ("rule", b))
    chain = []
    for node, via in steps:
        rule = store.rule(book, node[1]) if node[0] == "rule" else None
        chain.append({"kind": node[0], "number": node[1], "title": rule.title if rule else None,
                      "text": (rule.text if rule else ""), "via": via})
    if json_:
        emit_json({"book": book, "from": a, "to": b, "path": chain})
    else:
        if not chain:
            echo(f"no chain of citations or sub-rules links {a} and {b} in {book}")
        for i, step in enumerate(chain):
            text = step["title"] or step["text"]
            text = text[:90] + "…" if len(text) > 90 else text
            how = "" if step["via"] is None else f"  ({_say(step['via'])})"
            echo(f"{'  ' * min(i, 1)}{'↳ ' if i else ''}{step['number']}  {text}{how}")
    if not chain:
        raise typer.Exit(1)


def _say(via: str) -> str:
    return {"cites": "citation", "contains": "parent / sub-rule"}.get(via, via)
