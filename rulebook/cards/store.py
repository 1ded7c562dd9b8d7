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

import json
import re
import sqlite3
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import TYPE_CHECKING, Any, NamedTuple

from rulebook.cards.model import Card, card_from_json
from rulebook.sqlscript import statements

if TYPE_CHECKING:  # the reading side is imported by a load (each function that reads), never by a lookup
    pass

DB_NAME = "cards.db"
# 2: the names index. A change to what it stores (norm_name, name_symbols) needs a new version: opening an
# older file builds the index again from the cards (CardStore._upgrade).
SCHEMA_VERSION = "2"
BUSY_MS = 30_000
CHUNK = 400  # names per IN (...) query

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
    """The cards of both games, read (loading them: :func:`rulebook.cards.load.load`)."""

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
                index_names(self.conn, [(i, g, n, len(json.loads(d)["sets"])) for i, g, n, d in rows])
                index_bits(self.conn)
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


def index_names(conn: sqlite3.Connection, cards: list[tuple[int, str, str, int]]) -> None:
    """Add the cards ``(id, game, name, printed)`` to ``names`` and ``name_words`` (``name_bits`` is made
    again apart, for all: :func:`index_bits`)."""
    rows, words = [], []
    for card_id, game, name, printed in cards:
        norm = norm_name(name)
        rows.append((card_id, game, name, norm, norm_name(name.split(" // ")[0]), len(norm.split()), printed))
        words += [(word, card_id) for word in set(norm.split())]
    conn.executemany(
        "INSERT INTO names (id, game, name, norm, front, words, printed) VALUES (?, ?, ?, ?, ?, ?, ?)", rows
    )
    conn.executemany("INSERT INTO name_words (word, id) VALUES (?, ?)", words)


def index_bits(conn: sqlite3.Connection) -> None:
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
