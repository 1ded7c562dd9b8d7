"""``judge load PATH... --book ID``."""

from __future__ import annotations

from pathlib import Path

import typer

from judge.books import library
from judge.output import echo, emit_json, fail
from judge.meaning import prepare
from judge.commands.options import JSON



def load(
    paths: list[Path] = typer.Argument(..., help="Rule, glossary and rulings files (the kind of each is detected)."),
    book: str = typer.Option(..., "--book", "-b", help="Id of the book to create or replace, e.g. cr-2026."),
    game: str = typer.Option(None, "--game", help="riftbound or mtg (detected from the text when not given)."),
    edition: str = typer.Option(None, "--edition", help="Edition or effective date (read from the text when stated)."),
    title: str = typer.Option(None, "--title", help="Title of the book."),
    json_: bool = JSON,
) -> None:
    """Read rule, glossary and rulings files into one book, stored under $JUDGE_HOME."""
    from rulebook.library import LibraryError
    from rulebook.readers.truncated import TRUNCATED

    for p in paths:
        if not p.exists():
            fail(f"{p}: no such file")
    from judge.progress import Steps

    lib = library()
    try:
        # One load at a time (another waits): what is reported is what this load stored.
        with lib.locked("load", book):
            with Steps("reading") as step:  # the files given, then any book the library must build again
                built = lib.load(list(paths), book, game, edition, title, progress=step)
            store = lib.open()
            counts = store.counts(book)
            ready = prepare(store, [book])
    except LibraryError as exc:
        fail(str(exc))
    # A file that looks truncated is said first, however many other warnings there are.
    warnings = sorted((str(w) for w in built.warnings), key=lambda w: not w.endswith(TRUNCATED))
    if not built.edition and counts["rules"]:
        warnings.append(f"no edition found in the text or the file names of {book}: explanations on it apply the "
                        "newest rules the engine knows; load it again with --edition DATE (the rules' effective "
                        "date) to explain it with its own")
    truncated = [d.source.name for d in built.documents if d.truncations]
    vectors = ready[book] if ready is not None else None
    if json_:
        emit_json({"book": book, "game": built.spec.game, "title": built.title, "edition": built.edition,
                   **counts, "vectors": vectors, "truncated": truncated, "warnings": warnings})
        return
    echo(f"loaded {book} ({built.spec.game}): {counts['rules']} rules, {counts['terms']} terms, "
         f"{counts['rulings']} rulings" + (f", edition {built.edition}" if built.edition else ""))
    for w in warnings[:50]:
        echo(f"  warning: {w}")
    if len(warnings) > 50:
        echo(f"  ... and {len(warnings) - 50} more warnings (see --json)")

