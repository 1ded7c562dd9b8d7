"""Which book answers when the judge names none: each game's default edition.

Within a game, an unqualified lookup reads the newest *full* edition loaded: a book the judge loaded
with ``judge load`` that has rules. The built-in seed book of a game (``riftbound``, ``mtg``, lossy
excerpts) answers only while no such book of that game is loaded. "Newest" is the book's recorded
edition (``judge books``: the effective date or "Last Updated" line the reader found, or
``--edition``), compared as a date when it holds one, else as a version number (``v1.2``); see
docs/decisions.md, "Editions".

Standard library only: every lookup calls this, and it must not cost an import.

>>> edition_key("2026-02-27") > edition_key("2025-02-07") > edition_key("v1.3") > edition_key(None)
True
>>> edition_key("v1.10") > edition_key("1.9")
True
>>> edition_key("Effective as of February 27, 2026") == edition_key("2026-02-27")
True
"""

from __future__ import annotations

import re
from difflib import get_close_matches
from typing import TYPE_CHECKING

from rulebook import games

if TYPE_CHECKING:
    from rulebook.store import BookRow, Store

_ISO = re.compile(r"\b(\d{4})-(\d{1,2})-(\d{1,2})\b")
_MONTHS = (
    "january",
    "february",
    "march",
    "april",
    "may",
    "june",
    "july",
    "august",
    "september",
    "october",
    "november",
    "december",
)
_MONTH_FIRST = re.compile(r"\b([A-Za-z]{3,9})\.?\s+(\d{1,2})(?:st|nd|rd|th)?,?\s+(\d{4})\b")
_DAY_FIRST = re.compile(r"\b(\d{1,2})(?:st|nd|rd|th)?\s+([A-Za-z]{3,9})\.?,?\s+(\d{4})\b")
_MONTH_YEAR = re.compile(r"\b([A-Za-z]{3,9})\.?\s+(\d{4})\b")
_VERSION = re.compile(r"\b[vV]?(\d+(?:\.\d+)*)\b")


class BookChoiceError(ValueError):
    """An unknown book id or game, or a book that is not of the game asked for: one line for the judge,
    and the ids it may have meant."""

    def __init__(self, message: str, suggestions: tuple[str, ...] = ()):
        super().__init__(message)
        self.suggestions = tuple(suggestions)


def _month(name: str) -> int | None:
    name = name.lower()
    for i, month in enumerate(_MONTHS, 1):
        if len(name) >= 3 and month.startswith(name):
            return i
    return None


def edition_key(edition: str | None) -> tuple:
    """A sort key for an edition: dated editions by date, above undated ones by version number,
    above books that record no edition."""
    text = str(edition or "").strip()
    if not text:
        return (0,)
    if m := _ISO.search(text):
        return (2, int(m[1]), int(m[2]), int(m[3]))
    if (m := _MONTH_FIRST.search(text)) and _month(m[1]):
        return (2, int(m[3]), _month(m[1]), int(m[2]))
    if (m := _DAY_FIRST.search(text)) and _month(m[2]):
        return (2, int(m[3]), _month(m[2]), int(m[1]))
    if (m := _MONTH_YEAR.search(text)) and _month(m[1]):
        return (2, int(m[2]), _month(m[1]), 0)
    if m := _VERSION.search(text):
        return (1, *(int(part) for part in m[1].split(".")))
    return (0,)


def _default_of(rows: list[BookRow], game: str) -> str | None:
    """The default book of ``game`` among ``rows`` (:meth:`rulebook.store.Store.book_rows`)."""
    ours = [r for r in rows if r.game == game]
    full = [r for r in ours if not r.builtin and r.has_rules]
    if full:
        # Complete documents before truncated ones, then the newest edition; among equals the first
        # in `judge books` order (sorted() is stable).
        return sorted(full, key=lambda r: (r.partial, _negate(edition_key(r.edition))))[0].id
    seeds = [r for r in ours if r.builtin] or ours
    return seeds[0].id if seeds else None


def _negate(key: tuple) -> tuple:
    return tuple(-part for part in key)


def default_book(store: Store, game: str) -> str | None:
    """The book an unqualified lookup of ``game`` reads, or None when no book of that game is loaded."""
    return _default_of(store.book_rows(), game)


def default_books(store: Store, book: str | None = None, game: str | None = None) -> list[str]:
    """The books a command covers: ``[book]`` when given (which must be loaded, and of ``game`` when
    both are given); else the default book of ``game``; else each game's default book, one per game,
    in `judge books` order.

    Raises :class:`BookChoiceError` for an unknown book id ("did you mean"), an unknown game, a
    book of another game, or a game with no book loaded.
    """
    if game is not None:
        try:
            games.get(game)
        except games.UnknownGame as exc:
            raise BookChoiceError(str(exc), exc.suggestions) from None
    rows = store.book_rows()
    if book is not None:
        row = next((r for r in rows if r.id == book), None)
        if row is None:
            raise unknown_book(book, [r.id for r in rows])
        if game is not None and row.game != game:
            raise BookChoiceError(f"book {book!r} is a {row.game} book, not {game}")
        return [book]
    if game is not None:
        found = _default_of(rows, game)
        if found is None:
            raise BookChoiceError(f"no {game} book is loaded (judge load adds one)")
        return [found]
    chosen = {g: _default_of(rows, g) for g in dict.fromkeys(r.game for r in rows)}
    return [r.id for r in rows if chosen.get(r.game) == r.id]


def unknown_book(book: str, ids: list[str]) -> BookChoiceError:
    """``no book 'riftbnd' (did you mean "riftbound"?); loaded books: ...``, the guess as its suggestion."""
    guess = get_close_matches(book, ids, n=1, cutoff=0.5)  # difflib: games imports it anyway
    hint = f' (did you mean "{guess[0]}"?)' if guess else ""
    return BookChoiceError(f"no book {book!r}{hint}; loaded books: {', '.join(ids) or 'none'}", tuple(guess))


def unknown_book_message(book: str, ids: list[str]) -> str:
    """The message of :func:`unknown_book`."""
    return str(unknown_book(book, ids))
