"""Which books carry meaning vectors. They are computed when a book is built (rulebook.vectors), in the
same transaction as its rules, so there is nothing left to compute here; ``judge load`` reports them."""

from __future__ import annotations

from typing import TYPE_CHECKING

from judge.output import warn

if TYPE_CHECKING:
    from rulebook.store import Store


def prepare(store: Store, books: list[str], announce_unavailable: bool = True) -> dict[str, int] | None:
    """{book: rules with meaning vectors}; None when a book has none (said on stderr when
    ``announce_unavailable``; search says it in its note)."""
    found = store.meaning_numbers(books)
    if set(books) - set(found):
        if announce_unavailable:
            warn("search will rank by words alone: the meaning model is not installed")
        return None
    return {b: len({n for line in found[b].split("\n") for n in line.split(" ")}) for b in books}
