"""``judge history NUMBER``: a rule's life across every loaded edition of its game (rulebook.diff)."""

from __future__ import annotations

import typer

from judge.books import open_store
from judge.commands.options import JSON
from judge.output import echo, emit_json, fail
from rulebook import games


def history(
    number: str = typer.Argument(
        ..., help="A rule number: 702.19, 312.2.b; as numbered in --book, else in the newest edition that has it."
    ),
    game: str = typer.Option(None, "--game", "-g", help="riftbound or mtg (needed when both games have the number)."),
    book: str = typer.Option(
        None, "--book", "-b", help="The edition whose numbering NUMBER is in (see `judge books`)."
    ),
    json_: bool = JSON,
) -> None:
    """When a rule appeared, moved, changed or went, edition by edition, with its number and text in each."""
    from rulebook import numbers
    from rulebook.diff import game_editions, rule_history
    from rulebook.editions import unknown_book

    if not numbers.looks_like_number(number):
        fail(f"{number!r} is not a rule number (expected e.g. 702.19 or 312.2.b)")
    if game is not None:
        games.get(game)  # an unknown game: one line with "did you mean" (judge.errors)
    store = open_store()
    if book is not None:
        of_book = store.book_game(book)
        if of_book is None:
            error = unknown_book(book, store.book_ids())
            fail(str(error), suggestions=error.suggestions)
        if game is not None and of_book != game:
            fail(f"book {book!r} is a {of_book} book, not {game}")
        game = of_book
    chosen = [game] if game else [g for g in games.names() if game_editions(store, g)]
    found = [h for g in chosen if (h := rule_history(store, g, number, book)) is not None]
    if not found:
        from rulebook.nearest import nearest_numbers

        books = [b for g in chosen for b in game_editions(store, g)[-1:]]
        near = nearest_numbers(store, number, books)
        fail(
            f"no rule {number} in any {' or '.join(chosen)} edition loaded"
            + (f"; nearest: {', '.join(near)}" if near else ""),
            code=1,
            suggestions=near,
        )
    if len(found) > 1:
        fail(f"rule {number} is in both games' books: choose one with --game")
    result = found[0]
    if json_:
        emit_json(result.to_json())
        return
    show(result)


def show(h) -> None:
    n = len(h.editions)
    echo(f"{h.number} ({h.game}, numbered as in {h.book}), across {n} edition{'s' if n != 1 else ''} loaded")
    width = max(len(e["number"] or "-") for e in h.editions)
    for e in h.editions:
        where = f"  {e['edition'] or '(no edition)':<12} {e['book']:<14} {e['number'] or '-':<{width}}  "
        status = e["status"]
        if status in ("present", "added"):
            what = ("first loaded here: " if status == "present" else "appears: ") + _short(e["text"])
        elif status in ("removed", "absent"):
            what = "gone" if status == "removed" else "not in this edition"
        elif status == "unchanged":
            what = "unchanged"
        else:
            sure = (
                f" (similarity {e['similarity']:.2f}, {e['confidence']} confidence)"
                if e["similarity"] is not None
                else ""
            )
            what = status + (f" from {e['from']}" if e["from"] != e["number"] else "") + sure
        echo(where + what)
        if e["diff"]:
            echo(f"      {e['diff']}")
    last = next((e for e in reversed(h.editions) if e["text"]), None)
    if last is not None:
        echo()
        echo(f"  {last['number']} in {last['book']}:")
        for line in last["text"].split("\n"):
            echo(f"    {line}")


def _short(text: str | None, width: int = 80) -> str:
    line = (text or "").split("\n", 1)[0]
    return line if len(line) <= width else line[: width - 1] + "…"
