"""``judge citations --book ID``: an engine's citation table read against a book; ``--write`` makes the
engines cite that book's numbers (rulebook.diff.check_citations, scenarios.citations)."""

from __future__ import annotations

from typing import TYPE_CHECKING

import typer

from judge.books import books_for, open_store
from judge.commands.options import GAME, JSON
from judge.output import echo, emit_json, fail

if TYPE_CHECKING:
    from rulebook.store import Store


def citations(
    book: str = typer.Option(
        None, "--book", "-b", help="The book to check against (see `judge books`); default: the game's default book."
    ),
    game: str = GAME,
    table: str = typer.Option(
        None,
        "--table",
        "-t",
        help="The edition of the table to check (default: the book's own edition's table, else the newest).",
    ),
    via: str = typer.Option(
        None,
        "--via",
        help="A loaded book of the table's edition, whose diff with --book follows "
        "moved rules (default: one found by its edition).",
    ),
    write: bool = typer.Option(
        False,
        "--write",
        help="Write a table for the book's edition under $JUDGE_HOME/citations, so the engines cite its numbers.",
    ),
    json_: bool = JSON,
) -> None:
    """Check that each citation key's rule exists in a book and still says the key's phrase; propose where stale ones moved."""
    from rulebook.diff import book_info, check_citations, game_editions
    from scenarios.citations import read_table, shipped, tables, write_table

    store = open_store()
    chosen = books_for(store, book, game)
    if len(chosen) != 1:
        fail(f"several books are loaded ({', '.join(chosen)}): choose one with --book or --game")
    target = chosen[0]
    info = book_info(store, target)
    available = tables(info["game"])
    if not available:
        fail(f"no citation table for {info['game']}")
    if table is None:  # the book's own; else the newest: the engines are kept up with the newest rules
        from rulebook.editions import edition_key

        table = info["edition"] if info["edition"] in available else max(available, key=edition_key)
    elif table not in available:
        from rapidfuzz import process

        guess = process.extractOne(table, list(available), score_cutoff=50)
        fail(
            f"no {info['game']} citation table {table!r}"
            + (f' (did you mean "{guess[0]}"?)' if guess else "")
            + f"; tables: {', '.join(available)}",
            suggestions=(guess[0],) if guess else (),
        )
    if via is None:
        same = [
            b
            for b in game_editions(store, info["game"])
            if book_info(store, b)["edition"] == table and not book_info(store, b)["partial"]
        ]
        via = target if target in same else (same[-1] if same else None)
    else:
        ids = store.book_ids()
        if via not in ids:
            from rulebook.editions import unknown_book

            error = unknown_book(via, ids)
            fail(str(error), suggestions=error.suggestions)
    result = check_citations(store, read_table(info["game"], table), target, via)
    written = None
    if write:
        written = str(_write(store, result, info, table, shipped, write_table))
    explained = _explained_with(store, info, tables, shipped)
    if json_:
        emit_json(result.to_json() | {"written": written, "explained_with": explained})
        return
    show(result, table, via)
    if explained and explained["carried"]:
        line = (
            f"\nexplanations on {target} use the tables carried onto it (from "
            f"{', '.join(explained['tables'])}): {explained['located']} keys located, "
            f"{len(explained['unlocated'])} not located"
        )
        echo(line + (f": {', '.join(explained['unlocated'])}" if explained["unlocated"] else ""))
        for p in explained["partly"]:
            echo(f"  {p['key']}: placed without {', '.join(p['left_out'])} (that rule of the table was not found)")
    if written:
        echo(f"\nwrote {written}: the engines cite {target}'s numbers for books of edition {info['edition']}")


def _explained_with(store: Store, info: dict, tables, shipped) -> dict | None:
    """What ``judge explain`` cites on this book: its edition's own table, or the tables carried onto it
    (computed now if no explanation has yet)."""
    from scenarios.citations import own_table

    own = own_table(info["game"], info["edition"])
    if own is not None:
        return {"carried": False, "tables": [own], "located": None, "unlocated": [], "partly": []}
    if info["partial"]:
        return None
    from scenarios.citations import carried

    moved = carried(store, info["game"], info["book"], info["edition"])
    return {
        "carried": True,
        "tables": list(moved.tables),
        "located": len(moved.placed) - len(moved.unlocated),
        "unlocated": moved.unlocated,
        "partly": [{"key": p.key, "left_out": list(p.left_out)} for p in moved.partly],
    }


def _write(store: Store, result, info: dict, table: str, shipped, write_table):
    if info["partial"]:
        fail(f"{info['book']} is an excerpt: a citation table needs the whole edition")
    if not info["edition"]:
        fail(f"{info['book']} records no edition: load it again with --edition")
    if info["edition"] == table or shipped(info["game"], info["edition"]):
        fail(f"a {info['game']} table for edition {info['edition']} already ships with the package: nothing to write")
    if result.unresolved:
        keys = ", ".join(k["key"] for k in result.unresolved)
        fail(
            f"{len(result.unresolved)} key(s) found nowhere in {info['book']} ({keys}); nothing written",
            code=1,
            suggestions=tuple(k["key"] for k in result.unresolved),
        )
    from rulebook.carry import table_signatures
    from rulebook.diff import read_rules

    rules = {e.number: e for e in read_rules(store, info["book"])}
    written = result.table_for_book()
    return write_table(
        info["game"], info["edition"], written, table, info["book"], table_signatures(rules, {"citations": written})
    )


def show(r, table: str, via: str | None) -> None:
    d = r.to_json()
    where = f"{r.book} ({r.edition})" if r.edition else r.book
    how = (
        f", moves followed through the diff from {via}"
        if via
        else " (no book of the table's edition is loaded: moves are found by their phrase alone)"
    )
    echo(f"the {r.game} {table} citation table ({len(r.keys)} keys) against {where}{how}")
    echo("  " + ", ".join(f"{n} {s.replace('_', ' ')}" for s, n in d["counts"].items() if n))
    for status, title in (
        ("moved", "moved"),
        ("reworded", "reworded: the rule no longer says the phrase; read it"),
        ("missing", "found nowhere"),
        ("outside_excerpt", "outside the excerpt"),
    ):
        items = [k for k in r.keys if k["status"] == status]
        if not items:
            continue
        echo(f"  {title} ({len(items)}):")
        for k in items:
            line = f"    {k['key']}: {', '.join(k['rules'])}"
            if k["proposed"]:
                line += f" -> {', '.join(k['proposed'])} (by the {k['found_by']})"
            if k["proposed_phrase"]:
                line += f"; says {k['proposed_phrase']!r} for {k['phrase']!r}"
            elif status in ("missing", "moved") and k["phrase"]:
                line += f"  {k['phrase']!r}"
            if k["candidates"] and status == "missing":
                line += f"; said by {', '.join(k['candidates'])}"
            echo(line)
