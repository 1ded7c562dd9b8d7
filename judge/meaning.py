"""Meaning vectors computed before they are needed, with a progress bar on standard error.

``judge load`` computes its book's vectors; ``judge search`` computes those still missing before it
searches, so the one slow search a library ever has says what it is doing instead of seeming to hang.
"""

from __future__ import annotations

import sys

from judge.app import warn

PROGRESS_RULES = 300  # a progress bar when at least this many rules are waiting for a vector


def prepare(store, books: list[str], announce_unavailable: bool = True) -> dict[str, int] | None:
    """{book: rules with vectors} for the books, computing what is missing; None when the sentence
    model is unavailable (said on stderr when ``announce_unavailable``; search says it in its note)."""
    from rulebook.model import ModelUnavailable

    try:
        from rulebook import vectors
    except ImportError as exc:
        if announce_unavailable:
            warn(f"search will rank by words alone: {exc}")
        return None
    done: dict[str, int] = {}
    try:
        for book in books:
            if vectors.is_cached(store, book):
                done[book] = store.counts(book)["rules"]
                continue
            if store.counts(book)["rules"] < PROGRESS_RULES or not sys.stderr.isatty():
                done[book] = len(set(vectors.book_vectors(store, book)[0]))
                continue
            from rich.console import Console
            from rich.progress import Progress

            with Progress(console=Console(stderr=True), transient=True) as progress:
                task = progress.add_task(f"meaning vectors for {book} (once per book)", total=None)

                def step(count: int, total: int) -> None:
                    progress.update(task, completed=count, total=total)

                done[book] = len(set(vectors.book_vectors(store, book, progress=step)[0]))
    except ModelUnavailable as exc:
        if announce_unavailable:
            warn(f"search will rank by words alone: {exc}")
        return None
    return done
