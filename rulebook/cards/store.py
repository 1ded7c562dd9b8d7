"""The card library: ``$JUDGE_HOME/cards.db``, one SQLite file for both games' cards.

Unlike judge.db (a cache rebuilt per book), cards.db is written in place, one transaction per load
(``BEGIN IMMEDIATE``; Ctrl-C or a failing file rolls it back, a killed process leaves SQLite's journal
to undo it), under the library's write lock (:mod:`rulebook.lock`), in WAL mode so a lookup reads the
last committed state while a load writes. Loading or unloading a rules book never touches it.

What is stored (docs/database.md, "The card library"):

- ``sources``: each file loaded, by sha256: a file loaded again unchanged is recognised by its hash
  and costs only the hashing; a changed file at a path loaded before replaces what that path gave.
- ``printings``: a card as one file gives it (its newest printing there, every set of the file it is
  in, the rulings its records carry); ``rulings``: the rulings and errata a file gives apart from its
  cards (Scryfall rulings by oracle id, Riftbound errata by name), stored even when the card is not
  (yet) loaded.
- ``cards``: one row per game and name, folded from every file's printing (the newest printing's
  text, every set) and rulings (deduplicated, newest first, a Riftbound erratum's new text as the
  card's text); rebuilt for the names a load touches. ``cards_fts``: FTS5 over name and text.
- ``names``, ``name_words``, ``name_bits``: each card's name as :mod:`rulebook.cards.lookup` matches
  it (:func:`norm_name`), kept with the cards, so that a lookup reads an index instead of normalising
  every name of the library: the normalised name and first face, each word of it (a part of a name),
  and for each bigram of the names, and each length, the set of names that have it, as a bitmap (a
  misspelt name: only the names that can score are scored). Schema version 1 lacked them: opening
  such a file adds them (:meth:`CardStore._upgrade`); so does opening a file whose cards code that does
  not keep them (an older judge) changed, which triggers on ``cards`` mark in ``meta``.

>>> import tempfile
>>> store = CardStore(card_db_path(Path(tempfile.mkdtemp())))
>>> store.count(), store.names(), store.card("mtg", "Fire // Ice")
(0, [], None)
"""

from __future__ import annotations

import contextlib
import json
import re
import sqlite3
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, NamedTuple

from rulebook.cards.model import Card, CardRuling, Face, card_from_json, card_json
from rulebook.sqlscript import statements

if TYPE_CHECKING:  # the reading side is imported by a load (each function that reads), never by a lookup
    from rulebook.cards import readers

DB_NAME = "cards.db"
# 2: the names index. A change to what it stores (norm_name, name_symbols) needs a new version: opening an
# older file builds the index again from the cards (CardStore._upgrade).
SCHEMA_VERSION = "2"
BUSY_MS = 30_000
_CHUNK = 400  # names per IN (...) query

_SCHEMA = """
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT);
CREATE TABLE IF NOT EXISTS sources (
    id INTEGER PRIMARY KEY, sha256 TEXT NOT NULL, path TEXT NOT NULL, name TEXT NOT NULL, format TEXT NOT NULL,
    game TEXT NOT NULL, cards INTEGER NOT NULL, rulings INTEGER NOT NULL, reader_version TEXT NOT NULL);
CREATE INDEX IF NOT EXISTS sources_sha ON sources (sha256);
CREATE INDEX IF NOT EXISTS sources_path ON sources (path);
CREATE TABLE IF NOT EXISTS printings (
    source INTEGER NOT NULL, position INTEGER NOT NULL, game TEXT NOT NULL, name TEXT NOT NULL, lname TEXT NOT NULL,
    loose TEXT NOT NULL, newness TEXT NOT NULL, sets TEXT NOT NULL, oracle_id TEXT, data TEXT NOT NULL, rulings TEXT);
CREATE INDEX IF NOT EXISTS printings_name ON printings (game, lname);
CREATE INDEX IF NOT EXISTS printings_loose ON printings (game, loose);
CREATE INDEX IF NOT EXISTS printings_oracle ON printings (oracle_id);
CREATE INDEX IF NOT EXISTS printings_source ON printings (source);
CREATE TABLE IF NOT EXISTS rulings (
    source INTEGER NOT NULL, position INTEGER NOT NULL, game TEXT NOT NULL, name TEXT, key TEXT, oracle_id TEXT,
    date TEXT, text TEXT NOT NULL, origin TEXT NOT NULL, official INTEGER NOT NULL, new_text TEXT);
CREATE INDEX IF NOT EXISTS rulings_key ON rulings (game, key);
CREATE INDEX IF NOT EXISTS rulings_oracle ON rulings (oracle_id);
CREATE INDEX IF NOT EXISTS rulings_source ON rulings (source);
CREATE TABLE IF NOT EXISTS keyword_names (game TEXT NOT NULL, name TEXT NOT NULL, PRIMARY KEY (game, name));
CREATE TABLE IF NOT EXISTS cards (
    id INTEGER PRIMARY KEY, game TEXT NOT NULL, name TEXT NOT NULL, lname TEXT NOT NULL, loose TEXT NOT NULL,
    type_line TEXT NOT NULL, kinds TEXT NOT NULL, cost TEXT, keywords TEXT NOT NULL, text TEXT NOT NULL,
    layout TEXT NOT NULL, sets TEXT NOT NULL, rulings INTEGER NOT NULL, data TEXT NOT NULL);
CREATE UNIQUE INDEX IF NOT EXISTS cards_name ON cards (game, lname);
CREATE INDEX IF NOT EXISTS cards_loose ON cards (game, loose);
CREATE VIRTUAL TABLE IF NOT EXISTS cards_fts USING fts5 (name, text, content='cards', content_rowid='id',
    tokenize='porter unicode61 remove_diacritics 2');
CREATE TRIGGER IF NOT EXISTS cards_ai AFTER INSERT ON cards BEGIN
    INSERT INTO cards_fts (rowid, name, text) VALUES (new.id, new.name, new.text);
END;
CREATE TRIGGER IF NOT EXISTS cards_ad AFTER DELETE ON cards BEGIN
    INSERT INTO cards_fts (cards_fts, rowid, name, text) VALUES ('delete', old.id, old.name, old.text);
END;
CREATE TRIGGER IF NOT EXISTS cards_au AFTER UPDATE ON cards BEGIN
    INSERT INTO cards_fts (cards_fts, rowid, name, text) VALUES ('delete', old.id, old.name, old.text);
    INSERT INTO cards_fts (rowid, name, text) VALUES (new.id, new.name, new.text);
END;
CREATE TABLE IF NOT EXISTS names (
    id INTEGER PRIMARY KEY, game TEXT NOT NULL, name TEXT NOT NULL, norm TEXT NOT NULL, front TEXT NOT NULL,
    words INTEGER NOT NULL, printed INTEGER NOT NULL);
CREATE INDEX IF NOT EXISTS names_order ON names (game, name);
CREATE INDEX IF NOT EXISTS names_norm ON names (norm);
CREATE INDEX IF NOT EXISTS names_front ON names (front);
CREATE TABLE IF NOT EXISTS name_words (word TEXT NOT NULL, id INTEGER NOT NULL, PRIMARY KEY (word, id)) WITHOUT ROWID;
CREATE INDEX IF NOT EXISTS name_words_id ON name_words (id);
CREATE TABLE IF NOT EXISTS name_bits (key TEXT PRIMARY KEY, bits BLOB NOT NULL) WITHOUT ROWID;
CREATE TRIGGER IF NOT EXISTS names_stale_ai AFTER INSERT ON cards
    WHEN NOT EXISTS (SELECT 1 FROM meta WHERE key = 'names') BEGIN
    INSERT INTO meta (key, value) VALUES ('names', 'stale');
END;
CREATE TRIGGER IF NOT EXISTS names_stale_ad AFTER DELETE ON cards
    WHEN NOT EXISTS (SELECT 1 FROM meta WHERE key = 'names') BEGIN
    INSERT INTO meta (key, value) VALUES ('names', 'stale');
END;
"""


def card_db_path(home: Path) -> Path:
    return Path(home) / DB_NAME


def loose_name(name: str) -> str:
    """A name as errata and judges may write it: case, punctuation and curly quotes aside
    (``Dark Child, Starter`` is the gallery's ``Dark Child - Starter``).

    >>> loose_name("Dark Child - Starter") == loose_name("Dark Child, Starter"), loose_name("Rek’Sai, Swarm Queen")
    (True, "rek'sai swarm queen")
    """
    return " ".join(re.sub(r"[^\w']+", " ", name.lower().replace("’", "'")).split())


# Punctuation read as a space (an apostrophe as nothing: "smugglers copter"), by one str.translate.
_PUNCT = {ord(c): " " for c in ',.:;!?()[]{}"-—–+*&%$#@^~`|\\<>='} | {ord("'"): None, ord("’"): None}


def norm_name(name: str) -> str:
    """A name as a judge's typing is compared with it: lower case, punctuation aside, single spaces.

    >>> norm_name("Smuggler's Copter"), norm_name("Jinx, Demolitionist"), norm_name("Fire // Ice")
    ('smugglers copter', 'jinx demolitionist', 'fire // ice')
    """
    return " ".join(name.lower().translate(_PUNCT).split())


def name_symbols(norm: str) -> list[str]:
    """The bigrams of a normalised name with a space each side of it, each with its count so far (the
    second ``ab`` of a name is ``ab2``): two names share as many of these as they share bigrams, counted
    with repeats (:func:`rulebook.cards.lookup.find_card` bounds a misspelling's score by it).

    >>> name_symbols("banana")
    [' b1', 'ba1', 'an1', 'na1', 'an2', 'na2', 'a 1']
    """
    padded = f" {norm} "
    seen: dict[str, int] = {}
    out: list[str] = []
    for a, b in zip(padded, padded[1:]):
        n = seen[a + b] = seen.get(a + b, 0) + 1
        out.append(f"{a}{b}{n}")
    return out


def sha256_file(path: str | Path) -> str:
    import hashlib

    h = hashlib.sha256()
    with open(path, "rb") as f:
        while block := f.read(1 << 20):
            h.update(block)
    return h.hexdigest()


class CardLibraryError(Exception):
    """cards.db cannot be opened or brought up to date: one line for the judge."""


# What the reading methods give besides cards: named tuples, as cheap as the rows they are read from.
class IndexedName(NamedTuple):
    """A card's name in the names index: :meth:`CardStore.norms`, :meth:`CardStore.with_word`."""

    id: int  # the card's id: its bit in the index's bitmaps (:meth:`CardStore.name_bits`)
    game: str
    name: str  # as printed ("Fire // Ice")
    norm: str  # :func:`norm_name` of it


class PrintedName(NamedTuple):
    """A card's name with how many words it has (normalised) and in how many sets the card is printed:
    :meth:`CardStore.starting`, :meth:`CardStore.most_printed_with`."""

    game: str
    name: str
    words: int
    printed: int


class Printing(NamedTuple):
    """A card as one loaded file gives it (its newest printing there), with the file:
    :meth:`CardStore.printings`."""

    newness: str  # the printing's release date (YYYY-MM-DD), else what ranks its set in the file
    source: int  # the file's id: a file loaded later has a higher one
    position: int  # the card's place among the file's
    sets: tuple[tuple[str, str], ...]  # (set code, newness) of each set of the file the card is in
    path: str  # the file, as loaded
    file: str  # its name
    format: str  # "mtgjson-v3", "riftbound-gallery", ...


class Erratum(NamedTuple):
    """A Riftbound erratum's new text for a card, with the file that gives it: :meth:`CardStore.errata`."""

    date: str | None  # YYYY-MM-DD
    source: int  # the file's id: a file loaded later has a higher one
    position: int  # the erratum's place among the file's
    new_text: str
    path: str  # the file, as loaded
    file: str  # its name
    format: str  # "riftbound-errata", ...


class CardStore:
    """The cards of both games, read and written (:meth:`load`)."""

    def __init__(self, path: str | Path, notify: Callable[[str], None] | None = None):
        self.path = Path(path)
        self.path.parent.mkdir(parents=True, exist_ok=True)
        self.notify = notify
        self.conn = sqlite3.connect(self.path, timeout=BUSY_MS / 1000, isolation_level=None)
        try:
            self.conn.execute(f"PRAGMA busy_timeout = {BUSY_MS}")
            version = self._version()
            if version is None:
                self._create()
            elif version < int(SCHEMA_VERSION):
                self._upgrade()
        except sqlite3.DatabaseError as exc:  # read-only, not a database, locked past the timeout
            self.conn.close()
            raise CardLibraryError(
                f"{self.path}: cannot open the card library: {exc} (judge load writes it; "
                "a damaged file can be moved away and the card files loaded again)"
            ) from None

    def _version(self) -> int | None:
        """The file's schema version, as an older one when its names index is stale (cards written by code
        that does not keep it: an older judge's load); None when it has no cards table yet."""
        try:
            meta = dict(self.conn.execute("SELECT key, value FROM meta WHERE key IN ('schema_version', 'names')"))
        except sqlite3.OperationalError:  # no meta table: a new file
            return None
        if "schema_version" not in meta:
            return None if not self.conn.execute("SELECT 1 FROM sqlite_master WHERE name = 'cards'").fetchone() else 1
        return int(meta["schema_version"]) - (meta.get("names") == "stale")

    def _create(self) -> None:
        if self.conn.execute("PRAGMA journal_mode").fetchone()[0].lower() != "wal":
            self.conn.execute("PRAGMA journal_mode = WAL")
        self.conn.execute("BEGIN IMMEDIATE")
        try:
            for statement in statements(_SCHEMA):
                self.conn.execute(statement)
            self.conn.execute("INSERT OR IGNORE INTO meta (key, value) VALUES ('schema_version', ?)", [SCHEMA_VERSION])
            self.conn.execute("COMMIT")
        except BaseException:
            self.conn.execute("ROLLBACK")
            raise

    def _upgrade(self) -> None:
        """A file of an older schema (1: no names index) or with a stale names index, brought up to date in
        place, its cards kept: the new tables made, the index built from the cards, the version recorded, in
        one transaction (a second process finds it done)."""
        self.conn.execute("BEGIN IMMEDIATE")
        try:
            if (self._version() or 0) < int(SCHEMA_VERSION):
                for statement in statements(_SCHEMA):
                    self.conn.execute(statement)
                for table in ("names", "name_words", "name_bits"):
                    self.conn.execute(f"DELETE FROM {table}")
                rows = self.conn.execute("SELECT id, game, name, data FROM cards").fetchall()
                _index_names(self.conn, [(i, g, n, len(json.loads(d)["sets"])) for i, g, n, d in rows])
                _index_bits(self.conn)
                self.conn.execute("DELETE FROM meta WHERE key = 'names'")
                self.conn.execute(
                    "INSERT OR REPLACE INTO meta (key, value) VALUES ('schema_version', ?)", [SCHEMA_VERSION]
                )
            self.conn.execute("COMMIT")
        except BaseException:
            self.conn.execute("ROLLBACK")
            raise

    def close(self) -> None:
        self.conn.close()

    # -- reading ------------------------------------------------------------------------------------------
    def has_cards(self, game: str | None = None) -> bool:
        """Whether any card (of ``game``) is loaded: :meth:`count` without counting."""
        sql = "SELECT EXISTS (SELECT 1 FROM cards" + (" WHERE game = ?" if game else "") + ")"
        return bool(self.conn.execute(sql, [game] if game else []).fetchone()[0])

    def count(self, game: str | None = None) -> int:
        if game is None:
            return self.conn.execute("SELECT count(*) FROM cards").fetchone()[0]
        return self.conn.execute("SELECT count(*) FROM cards WHERE game = ?", [game]).fetchone()[0]

    def names(self, game: str | None = None) -> list[tuple[str, str]]:
        """``(game, name)`` of every card, for matching a name as a judge types it."""
        sql = "SELECT game, name FROM names" + (" WHERE game = ?" if game else "") + " ORDER BY game, name"
        return [(g, n) for g, n in self.conn.execute(sql, [game] if game else [])]

    # The names index, as rulebook.cards.lookup reads it.
    def named(self, norm: str, game: str | None = None) -> list[tuple[str, str]]:
        """``(game, name)`` of the cards whose normalised name, or first face's, is ``norm``."""
        sql = (
            "SELECT game, name FROM names WHERE (norm = ? OR front = ?)"
            + (" AND game = ?" if game else "")
            + " ORDER BY game, name"
        )
        return self.conn.execute(sql, [norm, norm, *([game] if game else [])]).fetchall()

    def starting(self, words: list[str], game: str | None = None) -> list[PrintedName]:
        """The cards with, for each of ``words``, a word of their normalised name beginning with it, in
        (game, name) order."""
        parts, params = [], []
        for word in dict.fromkeys(words):
            part = "SELECT id FROM name_words WHERE word >= ? AND substr(word, 1, ?) = ?"
            params += [word, len(word), word]
            after = ord(word[-1]) + 1  # the first string past every word beginning with `word`: the index's end
            if after <= 0x10FFFF and not 0xD800 <= after <= 0xDFFF:
                part += " AND word < ?"
                params.append(word[:-1] + chr(after))
            parts.append(part)
        sql = (
            f"SELECT game, name, words, printed FROM names WHERE id IN ({' INTERSECT '.join(parts)})"
            + (" AND game = ?" if game else "")
            + " ORDER BY game, name"
        )
        return list(map(PrintedName._make, self.conn.execute(sql, [*params, *([game] if game else [])])))

    def word_ids(self, words: list[str]) -> dict[str, list[int]]:
        """For each of ``words`` that a name has as a word, the ids of those names."""
        out: dict[str, list[int]] = {}
        marks = ",".join("?" * len(words))
        for word, card_id in self.conn.execute(f"SELECT word, id FROM name_words WHERE word IN ({marks})", words):
            out.setdefault(word, []).append(card_id)
        return out

    def name_bits(self, keys: list[str]) -> dict[str, int]:
        """The bitmaps of ``name_bits`` named ``keys`` (a :func:`name_symbols` symbol, ``#length N``,
        ``#repeats``), each an int whose bit i is set for the name of card id i."""
        marks = ",".join("?" * len(keys))
        return {
            key: int.from_bytes(bits, "little")
            for key, bits in self.conn.execute(f"SELECT key, bits FROM name_bits WHERE key IN ({marks})", keys)
        }

    def norms(self, game: str | None = None, ids: Iterable[int] | None = None) -> list[IndexedName]:
        """Every card's name, or the names of the cards ``ids``, in (game, name) order."""
        where: list[str] = []
        params: list[str | int] = []
        if game:
            where.append("game = ?")
            params.append(game)
        if ids is not None:
            ids = list(ids)
            where.append(f"id IN ({','.join('?' * len(ids))})")
            params += ids
        sql = (
            "SELECT id, game, name, norm FROM names"
            + (f" WHERE {' AND '.join(where)}" if where else "")
            + " ORDER BY game, name"
        )
        return list(map(IndexedName._make, self.conn.execute(sql, params)))

    # The names index, as rulebook.cards.mention reads it.
    def named_each(self, norms: Iterable[str], game: str | None = None) -> dict[str, list[tuple[str, str]]]:
        """For each of ``norms`` that is the normalised name of a card, or of its first face, the ``(game,
        name)`` of those cards: :meth:`named` for many names in one query."""
        keys = set(norms)
        marks = ",".join("?" * len(keys))
        out: dict[str, list[tuple[str, str]]] = {}
        for g, name, norm, front in self.conn.execute(
            f"SELECT game, name, norm, front FROM names WHERE (norm IN ({marks}) OR front IN ({marks}))"
            + (" AND game = ?" if game else ""),
            [*keys, *keys, *([game] if game else [])],
        ):
            for key in {norm, front} & keys:
                out.setdefault(key, []).append((g, name))
        return out

    def with_word(self, word: str, game: str | None = None) -> list[IndexedName]:
        """The cards whose normalised name has the word ``word`` (whole), in no particular order."""
        sql = (
            "SELECT names.id, names.game, names.name, names.norm FROM name_words JOIN names ON names.id = name_words.id "
            "WHERE name_words.word = ?" + (" AND names.game = ?" if game else "")
        )
        return list(map(IndexedName._make, self.conn.execute(sql, [word, *([game] if game else [])])))

    def most_printed_with(self, word: str, game: str | None = None, limit: int = 2) -> list[PrintedName]:
        """The ``limit`` cards printed in the most sets among those whose normalised name has the word
        ``word`` (whole), most printed first (cards printed as often: in no particular order)."""
        sql = (
            "SELECT names.game, names.name, names.words, names.printed FROM name_words "
            "JOIN names ON names.id = name_words.id WHERE name_words.word = ?"
            + (" AND names.game = ?" if game else "")
            + " ORDER BY names.printed DESC LIMIT ?"
        )
        return list(map(PrintedName._make, self.conn.execute(sql, [word, *([game] if game else []), limit])))

    def count_of_kind(self, kind: str, most: int) -> int:
        """How many cards (of either game) have ``kind`` (lower case) as a card type, subtype or
        supertype, counted up to ``most``: "dragon" is a kind of many cards, "janna" of none."""
        return self.conn.execute(
            "SELECT count(*) FROM (SELECT 1 FROM cards WHERE kinds LIKE ? LIMIT ?)", [f"%|{kind}|%", most]
        ).fetchone()[0]

    def possessive_names(self, game: str | None = None) -> list[tuple[str, str]]:
        """``(game, name)`` of the cards whose name has a possessive 's (``Tawnos's Coffin``), either
        apostrophe, in no particular order."""
        sql = "SELECT game, name FROM cards WHERE name LIKE '%''s %' OR name LIKE '%’s %'"
        if game:
            sql = f"SELECT game, name FROM ({sql}) WHERE game = ?"
        return list(self.conn.execute(sql, [game] if game else []))

    def faced_names(self, game: str | None = None) -> list[tuple[str, str]]:
        """``(game, name)`` of the cards of several faces (``Fire // Ice``), in no particular order."""
        sql = "SELECT game, name FROM cards WHERE name LIKE '% // %'" + (" AND game = ?" if game else "")
        return list(self.conn.execute(sql, [game] if game else []))

    def card(self, game: str, name: str) -> Card | None:
        """The card of ``game`` named exactly ``name`` (case aside)."""
        row = self.conn.execute("SELECT data FROM cards WHERE game = ? AND lname = ?", [game, name.lower()]).fetchone()
        return card_from_json(row[0]) if row else None

    def search(
        self, query: str, game: str | None = None, type_: str | None = None, keyword: str | None = None, limit: int = 20
    ) -> list[Card]:
        """Cards whose name or text have every word of ``query`` (FTS5, Porter-stemmed; a card's own name
        first, then bm25 with the name weighing ten times the text); failing that, any of the words.
        ``type_`` keeps cards with that card type, subtype or supertype; ``keyword`` those with that keyword
        (``Assault`` finds ``Assault 2``); ``game`` one game's."""
        words = re.findall(r"\w[\w']*", query.lower())
        where, params = [], []
        if game:
            where.append("cards.game = ?")
            params.append(game)
        if type_:
            where.append("cards.kinds LIKE ?")
            params.append(f"%|{type_.strip().lower()}|%")
        if keyword:
            where.append("(cards.keywords LIKE ? OR cards.keywords LIKE ?)")
            k = keyword.strip().lower()
            params += [f"%|{k}|%", f"%|{k} %"]
        filters = "".join(f" AND {w}" for w in where)
        if not words:
            sql = f"SELECT data FROM cards WHERE 1 = 1{filters} ORDER BY name LIMIT ?"
            return [card_from_json(r[0]) for r in self.conn.execute(sql, [*params, limit])]
        for joiner in (" ", " OR "):
            match = joiner.join('"' + w.replace('"', "") + '"' for w in words)
            sql = (
                "SELECT cards.data FROM cards_fts JOIN cards ON cards.id = cards_fts.rowid "
                f"WHERE cards_fts MATCH ?{filters} ORDER BY (cards.lname = ?) DESC, bm25(cards_fts, 10.0, 1.0) "
                "LIMIT ?"
            )
            rows = self.conn.execute(sql, [match, *params, query.strip().lower(), limit]).fetchall()
            if rows or len(words) == 1:
                return [card_from_json(r[0]) for r in rows]
        return []

    # Where a card's text came from (rulebook.cards.scenario.TextSource).
    def printings(self, game: str, name: str) -> list[Printing]:
        """The card ``name`` (exactly, case aside) as each loaded file gives it, in no particular order;
        the card's text is the newest one's (:func:`fold`), unless an erratum replaced it (:meth:`errata`)."""
        rows = self.conn.execute(
            "SELECT p.newness, p.source, p.position, p.sets, s.path, s.name, s.format FROM printings p "
            "JOIN sources s ON s.id = p.source WHERE p.game = ? AND p.lname = ?",
            [game, name.lower()],
        )
        return [
            Printing(newness, source, position, tuple((c, n) for c, n in json.loads(sets or "[]")), path, file, fmt)
            for newness, source, position, sets, path, file, fmt in rows
        ]

    def errata(self, game: str, name: str) -> list[Erratum]:
        """The errata loaded that give the card ``name`` a new text (keyed by its name exactly or
        :func:`loose_name`, as a load attaches them), in no particular order; the newest (by date, then
        load order) is the card's text (:func:`fold`)."""
        return list(
            map(
                Erratum._make,
                self.conn.execute(
                    "SELECT r.date, r.source, r.position, r.new_text, s.path, s.name, s.format FROM rulings r "
                    "JOIN sources s ON s.id = r.source WHERE r.game = ? AND r.key IN (?, ?) AND r.new_text IS NOT NULL",
                    [game, name.lower(), loose_name(name)],
                ),
            )
        )

    def sources(self) -> list[dict[str, Any]]:
        """The files loaded: ``{"path", "name", "format", "game", "cards", "rulings", "sha256"}``."""
        rows = self.conn.execute("SELECT path, name, format, game, cards, rulings, sha256 FROM sources ORDER BY id")
        return [dict(zip(("path", "name", "format", "game", "cards", "rulings", "sha256"), r)) for r in rows]

    # -- loading --------------------------------------------------------------------------------------------
    def load(self, paths: Iterable[str | Path], progress: Callable[[str], None] | None = None) -> list[dict]:
        """Load card files, all in one transaction under the library's write lock; a report per file:
        ``{"file", "format", "game", "cards", "rulings", "new", "updated", "unchanged", "pending",
        "already_loaded"}`` (docs/json.md, ``judge load``). Raises ReadError (nothing stored) for a
        file that is no card file or does not read."""
        with self.loading(paths, progress) as reports:
            pass
        return reports

    @contextlib.contextmanager
    def loading(
        self, paths: Iterable[str | Path], progress: Callable[[str], None] | None = None, lock: bool = True
    ) -> Iterator[list[dict]]:
        """:meth:`load`, committed only when the ``with`` block ends without an exception: ``judge load``
        stores a rules book inside it, so that a book that fails to read takes the cards back too."""
        with _write_lock(self.path.parent, self.notify) if lock else contextlib.nullcontext():
            import sqlite_utils

            db = sqlite_utils.Database(self.conn)
            self.conn.execute("BEGIN IMMEDIATE")
            try:
                reports = _Load(self, db, progress).run([(Path(p), str(p)) for p in paths])
                yield reports
                if not self.conn.in_transaction:  # sqlite-utils < 4 committed in insert_all: say so, loudly
                    raise RuntimeError(
                        "cards.db: the load's transaction was committed early (sqlite-utils >= 4 needed)"
                    )
                self.conn.execute("COMMIT")
            except BaseException:
                if self.conn.in_transaction:
                    self.conn.execute("ROLLBACK")
                raise


@contextlib.contextmanager
def _write_lock(home: Path, notify: Callable[[str], None] | None) -> Iterator[None]:
    """The library's write lock (re-entrant within a process: ``judge load`` already holds it)."""
    from rulebook.library import Library

    with Library(home, seeds=None, notify=notify).locked("load", "cards"):
        yield


class _Load:
    """A load: each file read and its rows stored, then every card the files touched built again once."""

    def __init__(self, store: CardStore, db, progress):
        self.store, self.conn, self.db, self.progress = store, store.conn, db, progress
        self.known = {r[0] for r in self.conn.execute("SELECT name FROM keyword_names WHERE game = 'mtg'")}
        self.touched: set[tuple[str, str]] = set()  # (game, lname) of the cards to build again

    def run(self, paths: list[tuple[Path, str]]) -> list[dict]:
        done = [self._file(path, shown) for path, shown in paths]
        changes = self._rebuild(self.touched)
        reports = []
        for report, own, notes, source in done:
            if notes:  # a rulings or errata file: its cards are those its notes reach
                own, report["pending"] = self._attach(notes)
                self.db.execute("UPDATE sources SET cards = ? WHERE id = ?", [len(own), source])
                report["cards"] = len(own)
            if not report["already_loaded"]:
                report["new"] = sum(1 for k in own if changes.get(k) == "new")
                report["updated"] = sum(1 for k in own if changes.get(k) == "updated")
                report["unchanged"] = len(own) - report["new"] - report["updated"]
            reports.append(report)
        return reports

    def _file(self, path: Path, shown: str) -> tuple[dict, set, list, int | None]:
        """Store one file's rows: (its report so far, its cards, its notes, its source id)."""
        from rulebook.cards import readers

        conn = self.conn
        if self.progress:
            self.progress(shown)
        sha = sha256_file(path)
        same = conn.execute(
            "SELECT format, game, cards, rulings FROM sources WHERE sha256 = ? AND reader_version = ?",
            [sha, readers.CARD_READER_VERSION],
        ).fetchone()
        if same:
            fmt, game, cards, rulings = same
            return (
                {
                    "file": shown,
                    "format": fmt,
                    "game": game,
                    "cards": cards,
                    "rulings": rulings,
                    "new": 0,
                    "updated": 0,
                    "unchanged": cards,
                    "pending": 0,
                    "already_loaded": True,
                },
                set(),
                [],
                None,
            )
        fmt = readers.detect(path)
        if fmt is None:
            from rulebook.model import ReadError

            what = readers.describe(path) if readers.looks_like_json(path) else "not JSON"
            raise ReadError(shown, f"{what}: expected {readers.KNOWN}")
        game = readers.GAME_OF[fmt]
        resolved = str(path.resolve())
        for (old,) in conn.execute("SELECT id FROM sources WHERE path = ? OR sha256 = ?", [resolved, sha]).fetchall():
            self.touched |= self._forget(old)  # an earlier version of this file, or one read by older code
        printings, notes = self._read(path, shown, fmt)
        source = self._store(path, sha, resolved, fmt, game, printings, notes)
        own = {(p.game, key) for key, p in printings.items()}
        self.touched |= own
        if notes:
            self.touched |= self._reached(
                [(n.game, loose_name(n.name) if n.name else None, n.oracle_id) for n in notes]
            )
        rulings = sum(len(p.rulings) for p in printings.values()) + len(notes)
        report = {
            "file": shown,
            "format": fmt,
            "game": game,
            "cards": len(own),
            "rulings": rulings,
            "new": 0,
            "updated": 0,
            "unchanged": 0,
            "pending": 0,
            "already_loaded": False,
        }
        return report, own, notes, source

    # Reading: one printing per card name (its newest in the file, with every set), and the notes.
    def _read(self, path: Path, shown: str, fmt: str) -> tuple[dict[str, _Kept], list[readers.Note]]:
        """The file's cards, one per name (its newest printing there, as JSON, with every set and ruling
        of the name in the file), and its notes. Only what is kept is held, not the file's records."""
        from rulebook.cards import readers

        best: dict[str, tuple[str, str, str, str | None, str]] = {}  # newness, name, game, oracle id, data
        sets: dict[str, dict[str, str]] = {}
        rulings: dict[str, dict[tuple, CardRuling]] = {}
        oracles: dict[str, str] = {}
        notes: list[readers.Note] = []
        keywords: set[str] = set()  # the keyword names of the file's Magic cards
        self.file_keywords = keywords
        for n, record in enumerate(readers.read(path, fmt), 1):
            if self.progress and n % 20000 == 0:
                self.progress(f"{shown} ({n} records)")
            if isinstance(record, readers.Note):
                notes.append(record)
                continue
            key = record.name.lower()
            held = best.get(key)
            if held is None or record.newness >= held[0]:
                best[key] = (
                    record.newness,
                    record.name,
                    record.game,
                    record.oracle_id,
                    json.dumps(record.data, ensure_ascii=False),
                )
            if record.game == "mtg" and record.data.get("keywords"):
                keywords.update(record.data["keywords"])
            have = sets.setdefault(key, {})
            for code, newness in record.sets:
                if code not in have or newness > have[code]:
                    have[code] = newness
            if record.oracle_id and key not in oracles:
                oracles[key] = record.oracle_id
            if record.rulings:
                mine = rulings.setdefault(key, {})
                for r in record.rulings:
                    mine.setdefault(readers.ruling_key(r), r)
        out = {}
        for key, (newness, name, game, oracle_id, data) in best.items():
            ordered = tuple(sorted(sets.pop(key).items(), key=lambda kv: kv[1], reverse=True))
            out[key] = _Kept(
                game, name, newness, ordered, oracle_id or oracles.get(key), data, tuple(rulings.pop(key, {}).values())
            )
        seen: set[tuple] = set()
        unique = []
        for note in notes:  # the same ruling twice in one file is one ruling
            k = (note.name and loose_name(note.name), note.oracle_id, *readers.ruling_key(note.ruling), note.new_text)
            if k not in seen:
                seen.add(k)
                unique.append(note)
        return out, unique

    def _store(
        self,
        path: Path,
        sha: str,
        resolved: str,
        fmt: str,
        game: str,
        printings: dict[str, _Kept],
        notes: list[readers.Note],
    ) -> int:
        from rulebook.cards import readers

        db = self.db
        rulings_count = sum(len(p.rulings) for p in printings.values()) + len(notes)
        source = (
            db["sources"]
            .insert(
                {
                    "sha256": sha,
                    "path": resolved,
                    "name": path.name,
                    "format": fmt,
                    "game": game,
                    "cards": len(printings),
                    "rulings": rulings_count,
                    "reader_version": readers.CARD_READER_VERSION,
                }
            )
            .last_pk
        )
        db["printings"].insert_all(
            (
                {
                    "source": source,
                    "position": i,
                    "game": p.game,
                    "name": p.name,
                    "lname": key,
                    "loose": loose_name(p.name),
                    "newness": p.newness,
                    "sets": json.dumps(p.sets, ensure_ascii=False),
                    "oracle_id": p.oracle_id,
                    "data": p.data,
                    "rulings": json.dumps(
                        [[r.date, r.text, r.source, r.official] for r in p.rulings], ensure_ascii=False
                    )
                    if p.rulings
                    else None,
                }
                for i, (key, p) in enumerate(printings.items())
            ),
            batch_size=500,
        )
        rows: list[dict[str, Any]] = []
        for note in notes:
            rows.append(
                {
                    "source": source,
                    "position": len(rows),
                    "game": note.game,
                    "name": note.name,
                    "key": loose_name(note.name) if note.name else None,
                    "oracle_id": note.oracle_id,
                    "date": note.ruling.date,
                    "text": note.ruling.text,
                    "origin": note.ruling.source,
                    "official": int(note.ruling.official),
                    "new_text": note.new_text,
                }
            )
        db["rulings"].insert_all(rows, batch_size=500)
        new_names = self.file_keywords - self.known
        if new_names:
            db["keyword_names"].insert_all(({"game": "mtg", "name": k} for k in sorted(new_names)), ignore=True)
            self.known |= new_names
        return source

    def _forget(self, source: int) -> set[tuple[str, str]]:
        """Delete what an earlier version of a file gave; the cards it touched, to build again."""
        conn = self.conn
        touched = {(g, k) for g, k in conn.execute("SELECT game, lname FROM printings WHERE source = ?", [source])}
        touched |= self._reached(
            conn.execute("SELECT game, key, oracle_id FROM rulings WHERE source = ?", [source]).fetchall()
        )
        self.db.execute("DELETE FROM printings WHERE source = ?", [source])
        self.db.execute("DELETE FROM rulings WHERE source = ?", [source])
        self.db.execute("DELETE FROM sources WHERE id = ?", [source])
        return touched

    def _reached(self, rows: list[tuple[str, str | None, str | None]]) -> set[tuple[str, str]]:
        """The cards (game, lname) that rulings keyed by name or oracle id reach."""
        out: set[tuple[str, str]] = set()
        conn = self.conn
        by_oracle = sorted({o for _, _, o in rows if o})
        for chunk in _chunks(by_oracle):
            marks = ",".join("?" * len(chunk))
            out |= set(conn.execute(f"SELECT game, lname FROM printings WHERE oracle_id IN ({marks})", chunk))
        by_key: dict[str, set[str]] = {}
        for game, key, _ in rows:
            if key:
                by_key.setdefault(game, set()).add(key)
        for game, keys in by_key.items():
            for chunk in _chunks(sorted(keys)):
                marks = ",".join("?" * len(chunk))
                out |= set(
                    conn.execute(
                        f"SELECT game, lname FROM printings WHERE game = ? AND (lname IN ({marks}) "
                        f"OR loose IN ({marks}))",
                        [game, *chunk, *chunk],
                    )
                )
        return out

    def _attach(self, notes: list[readers.Note]) -> tuple[set[tuple[str, str]], int]:
        """The cards the notes reach, and how many notes reach none (kept for a card loaded later)."""
        if not notes:
            return set(), 0
        conn = self.conn
        keyed = [(n.game, loose_name(n.name) if n.name else None, n.oracle_id) for n in notes]
        reached = self._reached(keyed)
        oracles: set[str] = set()
        for chunk in _chunks(sorted({o for _, _, o in keyed if o})):
            marks = ",".join("?" * len(chunk))
            oracles |= {
                o for (o,) in conn.execute(f"SELECT oracle_id FROM printings WHERE oracle_id IN ({marks})", chunk)
            }
        names: set[tuple[str, str]] = set()
        for game in sorted({g for g, k, _ in keyed if k}):
            for chunk in _chunks(sorted({k for g, k, _ in keyed if k and g == game})):
                marks = ",".join("?" * len(chunk))
                for lname, loose in conn.execute(
                    f"SELECT lname, loose FROM printings WHERE game = ? AND (lname IN ({marks}) OR loose IN ({marks}))",
                    [game, *chunk, *chunk],
                ):
                    names |= {(game, lname), (game, loose)}
        pending = sum(1 for g, k, o in keyed if not ((o and o in oracles) or (k and (g, k) in names)))
        return reached, pending

    # Building the cards again from every file's printings and rulings.
    def _rebuild(self, touched: set[tuple[str, str]]) -> dict[tuple[str, str], str]:
        """Fold each touched card from its printings and rulings; store what changed. Returns
        ``{(game, lname): "new" | "updated" | "unchanged" | "removed"}``."""
        from rulebook.cards import readers

        conn, db = self.conn, self.db
        changes: dict[tuple[str, str], str] = {}
        renamed = False  # a card came or went: name_bits made again
        by_game: dict[str, list[str]] = {}
        for game, key in touched:
            by_game.setdefault(game, []).append(key)
        table = readers.keyword_table(self.known)
        for game, keys in by_game.items():
            for chunk in _chunks(sorted(keys)):
                marks = ",".join("?" * len(chunk))
                prints: dict[str, list[tuple]] = {}
                for row in conn.execute(
                    f"SELECT lname, name, newness, source, position, sets, oracle_id, data, "
                    f"rulings FROM printings WHERE game = ? AND lname IN ({marks})",
                    [game, *chunk],
                ):
                    prints.setdefault(row[0], []).append(row)
                looses = {k: loose_name(rows[0][1]) for k, rows in prints.items()}
                oracles = sorted({r[6] for rows in prints.values() for r in rows if r[6]})
                keys_wanted = sorted(set(chunk) | set(looses.values()))
                ruling_rows: list[tuple] = []
                for part in _chunks(keys_wanted):
                    m = ",".join("?" * len(part))
                    ruling_rows += conn.execute(
                        f"SELECT key, oracle_id, date, text, origin, official, new_text, "
                        f"source, position FROM rulings WHERE game = ? AND key IN ({m})",
                        [game, *part],
                    ).fetchall()
                for part in _chunks(oracles):
                    m = ",".join("?" * len(part))
                    ruling_rows += conn.execute(
                        f"SELECT key, oracle_id, date, text, origin, official, new_text, "
                        f"source, position FROM rulings WHERE oracle_id IN ({m})",
                        part,
                    ).fetchall()
                by_key: dict[str, list[tuple]] = {}
                by_oracle: dict[str, list[tuple]] = {}
                for r in ruling_rows:
                    if r[1]:
                        by_oracle.setdefault(r[1], []).append(r)
                    elif r[0]:
                        by_key.setdefault(r[0], []).append(r)
                stored = {
                    row[0]: (row[1], row[2])
                    for row in conn.execute(
                        f"SELECT lname, id, data FROM cards WHERE game = ? AND lname IN ({marks})", [game, *chunk]
                    )
                }
                gone, rows_out = [], []
                printed: dict[str, int] = {}  # lname -> in how many sets, for the names index
                for key in chunk:
                    rows = prints.get(key)
                    if not rows:
                        if key in stored:
                            gone.append(stored[key][0])
                            changes[(game, key)] = "removed"
                        continue
                    mine = by_key.get(key, []) + (by_key.get(looses[key], []) if looses[key] != key else [])
                    for o in sorted({r[6] for r in rows if r[6]}):
                        mine += by_oracle.get(o, [])
                    card = fold(game, rows, mine, table)
                    text = card_json(card)
                    if key in stored:
                        if stored[key][1] == text:
                            changes[(game, key)] = "unchanged"
                            continue
                        gone.append(stored[key][0])
                        changes[(game, key)] = "updated"
                    else:
                        changes[(game, key)] = "new"
                    rows_out.append(_card_row(card, key, text))
                    printed[key] = len(card.sets)
                for part in _chunks(gone):
                    db.execute(f"DELETE FROM cards WHERE id IN ({','.join('?' * len(part))})", part)
                _unindex_names(conn, gone)
                if rows_out:
                    db["cards"].insert_all(rows_out, batch_size=200)
                    marks = ",".join("?" * len(printed))
                    _index_names(
                        conn,
                        [
                            (i, game, name, printed[lname])
                            for i, name, lname in conn.execute(
                                f"SELECT id, name, lname FROM cards WHERE game = ? AND lname IN ({marks})",
                                [game, *printed],
                            )
                        ],
                    )
                renamed = renamed or bool(gone or rows_out)
        if renamed:
            _index_bits(conn)
            conn.execute("DELETE FROM meta WHERE key = 'names'")  # set by the triggers on cards: kept here
        return changes


@dataclass(frozen=True, slots=True)
class _Kept:
    """A card as one file gives it: its newest printing there (``data``, JSON), every set, its rulings."""

    game: str
    name: str
    newness: str
    sets: tuple[tuple[str, str], ...]
    oracle_id: str | None
    data: str
    rulings: tuple[CardRuling, ...]


def _chunks(items: list, size: int = _CHUNK) -> Iterator[list]:
    for i in range(0, len(items), size):
        yield items[i : i + size]


def _index_names(conn: sqlite3.Connection, cards: list[tuple[int, str, str, int]]) -> None:
    """Add the cards ``(id, game, name, printed)`` to ``names`` and ``name_words`` (``name_bits`` is made
    again apart, for all: :func:`_index_bits`)."""
    rows, words = [], []
    for card_id, game, name, printed in cards:
        norm = norm_name(name)
        rows.append((card_id, game, name, norm, norm_name(name.split(" // ")[0]), len(norm.split()), printed))
        words += [(word, card_id) for word in set(norm.split())]
    conn.executemany(
        "INSERT INTO names (id, game, name, norm, front, words, printed) VALUES (?, ?, ?, ?, ?, ?, ?)", rows
    )
    conn.executemany("INSERT INTO name_words (word, id) VALUES (?, ?)", words)


def _unindex_names(conn: sqlite3.Connection, ids: list[int]) -> None:
    for part in _chunks(ids):
        marks = ",".join("?" * len(part))
        conn.execute(f"DELETE FROM names WHERE id IN ({marks})", part)
        conn.execute(f"DELETE FROM name_words WHERE id IN ({marks})", part)


def _index_bits(conn: sqlite3.Connection) -> None:
    """``name_bits`` made again from ``names``: for each :func:`name_symbols` symbol the names that have
    it, for each length ``#length N`` the names of that length (normalised) whose words do not repeat,
    and ``#repeats`` those whose words do (their bigrams bound nothing: rulebook.cards.lookup); bit i of
    a bitmap (little-endian bytes) is card id i. An empty name is in none: it scores 0 with anything."""
    rows = conn.execute("SELECT id, norm FROM names WHERE norm != ''").fetchall()
    size = max((i for i, _ in rows), default=0) // 8 + 1
    having: dict[str, list[int]] = {}
    for card_id, norm in rows:
        words = norm.split()
        kind = "#repeats" if len(set(words)) < len(words) else f"#length {len(norm)}"
        for key in (kind, *name_symbols(norm)):
            having.setdefault(key, []).append(card_id)
    conn.execute("DELETE FROM name_bits")
    for key, ids in having.items():
        bits = bytearray(size)
        for i in ids:
            bits[i >> 3] |= 1 << (i & 7)
        conn.execute("INSERT INTO name_bits (key, bits) VALUES (?, ?)", [key, bytes(bits)])


def _card_row(card: Card, key: str, text: str) -> dict[str, Any]:
    kinds = "|" + "|".join(t.lower() for t in (*card.supertypes, *card.types, *card.subtypes)) + "|"
    return {
        "game": card.game,
        "name": card.name,
        "lname": key,
        "loose": loose_name(card.name),
        "type_line": card.type_line,
        "kinds": kinds,
        "cost": card.cost,
        "keywords": "|" + "|".join(k.lower() for k in card.keywords) + "|",
        "text": card.text,
        "layout": card.layout,
        "sets": " ".join(card.sets),
        "rulings": len(card.rulings),
        "data": text,
    }


def fold(game: str, printings: list[tuple], rulings: list[tuple], keyword_table) -> Card:
    """One card from its printings (rows: lname, name, newness, source, position, sets, oracle_id,
    data, rulings) and the rulings that name it (rows: key, oracle_id, date, text, origin, official, new_text,
    source, position).

    The newest printing (by date, else the set's rank; equal ones by load order) gives the text and
    characteristics; every printing gives its sets, newest first, and the rulings it carries; rulings
    are deduplicated by date and text (curly quotes and spacing aside), an official copy kept first,
    and listed newest first; a Riftbound erratum's new text (the newest erratum's) is the card's text,
    and the erratum is kept as a ruling.
    """
    from rulebook.cards import readers

    order = sorted(range(len(printings)), key=lambda i: (printings[i][2], printings[i][3], printings[i][4]))
    newest = printings[order[-1]]
    data = json.loads(newest[7])
    sets: dict[str, str] = {}
    for row in printings:
        for code, newness in json.loads(row[5]):
            if code not in sets or newness > sets[code]:
                sets[code] = newness
    set_codes = tuple(code for code, _ in sorted(sets.items(), key=lambda kv: (kv[1] != "", kv[1]), reverse=True))
    faces = [Face(*f) for f in data["faces"]]
    candidates = list(rulings)
    for row in printings:
        for i, (date, text, origin, official) in enumerate(json.loads(row[8]) if row[8] else ()):
            candidates.append((None, None, date, text, origin, int(official), None, row[3], i))
    candidates.sort(key=lambda r: (-r[5], r[7], r[8]))  # official first, then load order
    unique: dict[tuple, CardRuling] = {}
    errata: list[tuple[str, int, int, str]] = []
    for _key, _oracle, date, text, origin, official, new_text, source, position in candidates:
        ruling = CardRuling(date, text, origin, bool(official))
        unique.setdefault(readers.ruling_key(ruling), ruling)
        if new_text:
            errata.append((date or "", source, position, new_text))
    if errata and len(faces) == 1:
        new_text = max(errata)[3]
        f = faces[0]
        faces = [Face(f.name, f.cost, f.type_line, new_text, f.power, f.toughness, f.loyalty, f.might)]
    keywords = data.get("keywords")
    if game == "riftbound":
        keywords = list(readers.riftbound_keywords("\n".join(f.text for f in faces)))
    elif keywords is None:
        keywords = []
        for f in faces:
            for k in readers.mtg_keywords(f.text, table=keyword_table):
                if k not in keywords:
                    keywords.append(k)
    ruled = sorted(unique.values(), key=lambda r: r.date or "", reverse=True)
    return Card(
        game=game,
        name=newest[1],
        faces=tuple(faces),
        type_line=data["type_line"],
        types=tuple(data["types"]),
        subtypes=tuple(data["subtypes"]),
        supertypes=tuple(data["supertypes"]),
        cost=data["cost"],
        keywords=tuple(keywords),
        text=readers.join_faces(f.text for f in faces),
        sets=set_codes,
        layout=data["layout"],
        rulings=tuple(ruled),
        extra=data["extra"],
    )
