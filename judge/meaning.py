"""Which books carry meaning vectors. They are computed when a book is built (rulebook.vectors), in the
same transaction as its rules, so there is nothing left to compute here; ``judge load`` reports them."""

from __future__ import annotations

from judge.output import warn


def prepare(store, books: list[str], announce_unavailable: bool = True) -> dict[str, int] | None:
    """{book: rules with meaning vectors}; None when a book has none (said on stderr when
    ``announce_unavailable``; search says it in its note)."""
    found = {
        r["book"]: r["numbers"]
        for r in store.query(
            f"SELECT book, numbers FROM meaning WHERE book IN ({','.join('?' * len(books))})", list(books)
        )
    }
    if set(books) - set(found):
        if announce_unavailable:
            warn("search will rank by words alone: the meaning model is not installed")
        return None
    return {b: len({n for line in found[b].split("\n") for n in line.split(" ")}) for b in books}
