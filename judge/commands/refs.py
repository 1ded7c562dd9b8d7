"""``judge refs NUMBER``: what a rule cites and what cites it, as a tree, both directions."""

from __future__ import annotations

from typing import TYPE_CHECKING

import typer

from judge.books import one_book, open_store
from judge.commands.options import BOOK, GAME, JSON
from judge.output import echo, emit_json, fail
from rulebook.lookup import citation_trees

if TYPE_CHECKING:
    from rulebook.store import Store


def refs(
    number: str = typer.Argument(..., help="A rule number."),
    book: str = BOOK,
    game: str = GAME,
    depth: int = typer.Option(1, "--depth", "-d", min=1, max=6, help="How many citation steps to follow."),
    json_: bool = JSON,
) -> None:
    """The citation neighbourhood of a rule: the rules it cites and the rules that cite it."""
    from judge.graphs import canonical_in

    store = open_store()
    book = one_book(store, book, game, number)
    number = canonical_in(store, book, number)
    rule = store.rule(book, number)
    if rule is None:
        fail(f"no rule {number} in {book}", code=1)
    view = citation_trees(store, book, rule, depth)
    if json_:
        emit_json(view)
        return
    echo(f"[{book}] {_label(store, book, number)}")
    echo("  cites:" if view["cites"] else "  cites: nothing")
    _print(view["cites"], "cites", 2)
    echo("  cited by:" if view["cited_by"] else "  cited by: nothing")
    _print(view["cited_by"], "cited_by", 2)


def _label(store: Store, book: str, number: str) -> str:
    rule = store.rule(book, number)
    if rule is None:
        return f"{number} (not in the loaded text)"
    text = rule.title or rule.text
    return f"{number}  {text[:80] + '…' if len(text) > 80 else text}"


def _print(items: list[dict], direction: str, level: int) -> None:
    for item in items:
        echo("  " * level + ("→ " if direction == "cites" else "← ") + _label_item(item))
        _print(item[direction], direction, level + 1)


def _label_item(item: dict) -> str:
    if not item["in_book"]:
        return f"{item['number']} (not in the loaded text)"
    return f"{item['number']}" + (f"  {item['title']}" if item["title"] else "")
