"""Which books a command reads, and judge.db opened up to date with their sources.

A command names at most a book or a game; :func:`books_for` turns that into the books it covers
(:func:`rulebook.editions.default_books`), and :func:`open_store` gives the database, read through
:class:`rulebook.store.Store` (sqlite3 alone), after a cheap freshness check (:mod:`rulebook.home`).
"""

from __future__ import annotations

import os
import threading
import time
from typing import TYPE_CHECKING

from judge.output import fail
from rulebook.shipped import data_dir, seeds_dir

if TYPE_CHECKING:
    from pathlib import Path

    from rulebook.cards.store import CardStore
    from rulebook.library import Library
    from rulebook.store import Store


def library() -> Library:
    from rulebook.library import Library

    return Library(seeds=seeds_dir(), notify=notify)


def notify(message: str) -> None:
    """What the library tells the judge while it works (``waiting for another judge load ...``), on stderr."""
    import sys

    print(f"judge: {message}", file=sys.stderr, flush=True)


_kept = threading.local()  # judge serve: each worker thread's store, and when it was last found fresh
KEEP_SECONDS: float | None = None


def keep_stores(seconds: float | None) -> None:
    """For a long-lived process (``judge serve``): each thread keeps its store and checks the library is
    up to date at most every ``seconds``, instead of a new connection and a check on every call (about 1 ms
    of a 1.3 ms rule lookup). judge.db is never changed in place (a build writes a new file that replaces
    it), so a kept connection reads a whole library until the file is replaced; then a new one is opened.
    None: a new store every call (the command line: one call a process)."""
    global KEEP_SECONDS
    KEEP_SECONDS = seconds


def open_store() -> Store:
    """The store (:class:`rulebook.store.Store`: the read API, sqlite3 alone), up to date with the
    books' sources."""
    from rulebook.store import Store

    if KEEP_SECONDS is None:
        return Store(fresh_db())
    now = time.monotonic()
    kept = getattr(_kept, "store", None)
    if kept is not None and now - _kept.checked < KEEP_SECONDS:
        return kept
    path = fresh_db()
    found = os.stat(path)
    identity = (str(path), found.st_ino, found.st_mtime_ns)
    if kept is None or getattr(_kept, "identity", None) != identity:
        if kept is not None:
            kept.close()
        kept = _kept.store = Store(path)
        _kept.identity = identity
    _kept.checked = now
    return kept


def open_cards(path: Path) -> CardStore:
    """The card library at ``path`` (:class:`rulebook.cards.store.CardStore`); in ``judge serve``
    (:func:`keep_stores`) each worker thread keeps it while cards.db is the same file, unchanged (a load
    changes it), so what a store remembers of the names stays true. Raises
    :class:`rulebook.cards.store.CardLibraryError`."""
    from rulebook.cards.store import CardStore

    if KEEP_SECONDS is None:
        return CardStore(path)
    identity = cards_identity(path)
    kept = getattr(_kept, "cards", None)
    if kept is None or getattr(_kept, "cards_identity", None) != identity:
        if kept is not None:
            kept.close()
        kept = _kept.cards = CardStore(path)
        _kept.cards_identity = identity
    return kept


def cards_identity(path: Path) -> tuple:
    """cards.db as it is now: the file and its write-ahead log (a small load's writes stay in the log
    until a checkpoint, the file itself unchanged)."""
    return (_stat(path), _stat(path.with_name(path.name + "-wal")))


def _stat(path: Path) -> tuple | None:
    """A file as it is now; None when it is absent or empty (an open WAL file before any write is)."""
    try:
        found = os.stat(path)
    except FileNotFoundError:
        return None
    return (found.st_ino, found.st_mtime_ns, found.st_size) if found.st_size else None


def fresh_db() -> Path:
    """The path of judge.db, once it is up to date with the books' sources.

    A lookup first compares the sources' stat with the stamp the last full check recorded
    (:mod:`rulebook.home`): when nothing changed, nothing is imported from the build side and no file
    is hashed. Otherwise the library checks exactly (and rebuilds what changed).
    """
    from rulebook.home import Stamp, default_home

    stamp = Stamp(default_home(), seeds_dir(), data_dir())
    if stamp.recorded():
        return stamp.db_path
    from judge.progress import Steps
    from rulebook.library import Library

    lib = Library(stamp.home, seeds=stamp.seeds, notify=notify)
    with Steps("updating the library: reading") as step:
        rebuilt = lib.sync(step)
    if rebuilt == []:
        stamp.record()
    return lib.db_path


def check_book(store: Store, book: str | None) -> None:
    """Exit 2 with "did you mean" when ``book`` is not a loaded book."""
    if book is None or store.book(book) is not None:
        return
    from rulebook.editions import unknown_book

    raise unknown_book(book, store.book_ids())


def books_for(store: Store, book: str | None = None, game: str | None = None, setting: bool = True) -> list[str]:
    """The books a command covers (:func:`rulebook.editions.default_books`): the one given, else the
    game's default book, else (with ``setting``) the default book of the judge's default game
    (``judge config game``, ``JUDGE_GAME``) when one of its books is loaded, else each game's default
    book; exit 2 with one line for a wrong id or game."""
    from rulebook.editions import BookChoiceError, default_books

    if setting and book is None and game is None:
        game = default_game(store)
    try:
        return default_books(store, book, game)
    except BookChoiceError as exc:
        fail(str(exc), suggestions=exc.suggestions)


def default_game(store: Store | None = None) -> str | None:
    """The judge's default game (rulebook.preferences), when set and, given ``store``, a book of it is
    loaded; exit 2 with one line for a value the setting does not take."""
    from rulebook.home import default_home
    from rulebook.preferences import PreferenceError, preference

    try:
        game, _ = preference(default_home(), "game")
    except PreferenceError as exc:
        fail(str(exc), suggestions=exc.suggestions)
    if game is None or store is None:
        return game
    return game if store.has_game(game) else None


def one_book(store: Store, book: str | None, game: str | None, number: str | None = None) -> str:
    """The one book a graph command (refs, path, graph) works on: the one given, else the game's
    default book, else the default book (one per game) that has rule ``number``, when only one has it."""
    books = books_for(store, book, game)
    if len(books) == 1:
        return books[0]
    if number:
        having = [r.book for r in store.find_rule(number) if r.book in books]
        if len(having) == 1:
            return having[0]
        if not having:
            fail(f"no rule {number} in {', '.join(books)}", code=1)
        fail(f"rule {number} is in {', '.join(having)}: choose one with --game or --book")
    fail(f"several books are loaded ({', '.join(books)}): choose one with --game or --book")
