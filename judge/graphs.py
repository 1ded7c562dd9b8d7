"""Loading one book's cross-reference graph from the store (networkx is imported only here and in
rulebook.graph, by the commands that need a graph)."""

from __future__ import annotations

from judge.output import fail


def pick_book(store, book: str | None, number: str | None = None) -> str:
    """The book a graph command works on: the one given, else the only book (that has ``number``)."""
    from judge.books import check_book

    check_book(store, book)
    if book:
        return book
    candidates = [r.book for r in store.find_rule(number)] if number else store.book_ids()
    if len(candidates) == 1:
        return candidates[0]
    if not candidates:
        fail(f"no book has rule {number}; loaded books: {', '.join(store.book_ids())}")
    fail(f"several books {'have rule ' + number if number else 'are loaded'} ({', '.join(candidates)}): choose one with --book")


def canonical_in(store, book: str, number: str) -> str:
    from rulebook import numbers

    return numbers.canonical(number, store.book(book).game)


def load_graph(store, book: str):
    from rulebook.graph import build_graph

    # Riftbound's heading rules are siblings of the rules they head: the heads edges say so.
    return build_graph(store.rules(book), store.terms(book), store.rulings(book), store.references(book),
                       store.uses(book), headings=store.book(book).game == "riftbound")
