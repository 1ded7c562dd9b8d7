"""Loading one book's cross-reference graph from the store (networkx is imported only here and in
rulebook.graph, by the commands that need a graph)."""

from __future__ import annotations

from rulebook import games


def canonical_in(store, book: str, number: str) -> str:
    from rulebook import numbers

    return numbers.canonical(number, store.book(book).game)


def load_graph(store, book: str):
    from rulebook.graph import build_graph
    from rulebook.references import stored_references

    # Riftbound's heading rules are siblings of the rules they head: the heads edges say so.
    return build_graph(
        store.rules(book),
        store.terms(book),
        store.rulings(book),
        stored_references(store, book),
        store.uses(book),
        headings=games.get(store.book(book).game).numbering.sibling_headings,
    )
