"""Rule numbers a judge may have meant when the one typed is not in the books (``judge rule``,
``judge diff``, ``judge history``, ``judge ruling``): read only after a miss, so the command line imports
this module when a lookup finds nothing, and a rule found never loads rapidfuzz.
"""

from __future__ import annotations

import bisect
from typing import TYPE_CHECKING

from rapidfuzz.distance import DamerauLevenshtein

from rulebook import numbers

if TYPE_CHECKING:
    from rulebook.store import Store

NEAREST = 6  # rule numbers suggested for one that is not there


def nearest_numbers(store: Store, number: str, books: list[str], limit: int = NEAREST) -> list[str]:
    """What a judge who typed ``number`` may have meant, in the books searched: first the numbers one
    slip away (a character too many or too few, two swapped: 601.2ff -> 601.2f), then its nearest
    existing parent, then the numbers on either side of where it would be, then those one character
    different (every sibling letter is, so they come last). Only numbers near it are offered: one slip
    away or in its section (the same first number: 702.19b is not near 308 or 399, which is all an
    excerpt may have).

    >>> class Book:  # what it reads of the store
    ...     def game_of(self, book):
    ...         return "mtg"
    ...     def rule_numbers(self, book):
    ...         return ["601", "601.2", "601.2e", "601.2f", "601.2g", "601.3"]
    >>> nearest_numbers(Book(), "601.2ff", ["cr"])
    ['601.2f', '601.2', '601.2g', '601.3']
    >>> nearest_numbers(Book(), "601.2z", ["cr"])
    ['601.2', '601.2g', '601.3', '601.2e', '601.2f']
    """
    out: list[str] = []
    for book in books:
        game = store.game_of(book)
        wanted = numbers.canonical(number, game)
        existing = store.rule_numbers(book)
        typos = [n for n in existing if _one_typo(wanted, n)]
        slips = [n for n in typos if len(n) != len(wanted) or sorted(n) == sorted(wanted)]
        p = numbers.parent(wanted, game)
        while p and p not in existing:
            p = numbers.parent(p, game)
        keys = [numbers.sort_text(n) for n in existing]
        i = bisect.bisect_left(keys, numbers.sort_text(wanted))
        section = numbers.tokens(wanted)[:1]
        for n in [*slips, *([p] if p else []), *existing[max(0, i - 1) : i + 1], *typos]:
            if n not in out and (n in typos or numbers.tokens(n)[:1] == section):
                out.append(n)
    return out[:limit]


def _one_typo(typed: str, number: str) -> bool:
    """One insertion, deletion, substitution or swap of neighbours apart (Damerau-Levenshtein 1).

    >>> [_one_typo("601.2ff", n) for n in ("601.2f", "610.2ff", "601.2", "601.2e")]
    [True, True, False, False]
    """
    if typed == number or abs(len(typed) - len(number)) > 1:
        return False
    return DamerauLevenshtein.distance(typed, number, score_cutoff=1) <= 1
