"""``judge load PATH... --book ID``."""

from __future__ import annotations

from pathlib import Path

import typer

from judge.app import emit_json, echo, fail, library
from judge.meaning import prepare
from judge.commands.options import JSON

PROGRESS_BYTES = 200_000  # show a progress bar when the files are at least this large together


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

    for p in paths:
        if not p.exists():
            fail(f"{p}: no such file")
    size = sum(p.stat().st_size for p in paths if p.is_file())
    lib = library()
    try:
        if size >= PROGRESS_BYTES and not json_:
            built = _load_with_progress(lib, paths, book, game, edition, title)
        else:
            built = lib.load(list(paths), book, game, edition, title)
    except LibraryError as exc:
        fail(str(exc))
    store = lib.open()
    counts = store.counts(book)
    warnings = [str(w) for w in built.warnings]
    ready = prepare(store, [book])
    vectors = ready[book] if ready is not None else None
    if json_:
        emit_json({"book": book, "game": built.spec.game, "title": built.title, "edition": built.edition,
                   **counts, "vectors": vectors, "warnings": warnings})
        return
    echo(f"loaded {book} ({built.spec.game}): {counts['rules']} rules, {counts['terms']} terms, "
         f"{counts['rulings']} rulings" + (f", edition {built.edition}" if built.edition else ""))
    for w in warnings[:50]:
        echo(f"  warning: {w}")
    if len(warnings) > 50:
        echo(f"  ... and {len(warnings) - 50} more warnings (see --json)")


def _load_with_progress(lib, paths, book, game, edition, title):
    from rich.progress import Progress

    with Progress(transient=True) as progress:
        task = progress.add_task("reading", total=len(paths) + len(lib.specs()) + 1)

        def step(name: str) -> None:
            progress.update(task, advance=1, description=f"reading {Path(name).name}")

        return lib.load(list(paths), book, game, edition, title, progress=step)

