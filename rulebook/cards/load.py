"""Loading card files into cards.db (``judge load``): each file read by its reader
(:mod:`rulebook.cards.readers`), its rows stored, then every card the files touched built again once,
in one transaction under the library's write lock. The store that writes cards.db; reading it is
:class:`rulebook.cards.store.CardStore`'s.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import sqlite3
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import sqlite_utils

from rulebook.cards import readers
from rulebook.cards.model import Card, CardRuling, Face, card_json
from rulebook.cards.store import CHUNK, CardStore, index_bits, index_names, loose_name
from rulebook.library import Library
from rulebook.model import ReadError


def sha256_file(path: str | Path) -> str:
    h = hashlib.sha256()
    with open(path, "rb") as f:
        while block := f.read(1 << 20):
            h.update(block)
    return h.hexdigest()


def load(store: CardStore, paths: Iterable[str | Path], progress: Callable[[str], None] | None = None) -> list[dict]:
    """Load card files, all in one transaction under the library's write lock; a report per file:
    ``{"file", "format", "game", "cards", "rulings", "new", "updated", "unchanged", "pending",
    "already_loaded"}`` (docs/json.md, ``judge load``). Raises ReadError (nothing stored) for a
    file that is no card file or does not read."""
    with loading(store, paths, progress) as reports:
        pass
    return reports


@contextlib.contextmanager
def loading(
    store: CardStore, paths: Iterable[str | Path], progress: Callable[[str], None] | None = None, lock: bool = True
) -> Iterator[list[dict]]:
    """:func:`load`, committed only when the ``with`` block ends without an exception: ``judge load``
    stores a rules book inside it, so that a book that fails to read takes the cards back too."""
    with _write_lock(store.path.parent, store.notify) if lock else contextlib.nullcontext():
        db = sqlite_utils.Database(store.conn)
        store.conn.execute("BEGIN IMMEDIATE")
        try:
            reports = _Load(store, db, progress).run([(Path(p), str(p)) for p in paths])
            yield reports
            if not store.conn.in_transaction:  # sqlite-utils < 4 committed in insert_all: say so, loudly
                raise RuntimeError("cards.db: the load's transaction was committed early (sqlite-utils >= 4 needed)")
            store.conn.execute("COMMIT")
        except BaseException:
            if store.conn.in_transaction:
                store.conn.execute("ROLLBACK")
            raise


@contextlib.contextmanager
def _write_lock(home: Path, notify: Callable[[str], None] | None) -> Iterator[None]:
    """The library's write lock (re-entrant within a process: ``judge load`` already holds it)."""
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
                    index_names(
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
            index_bits(conn)
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


def _chunks(items: list, size: int = CHUNK) -> Iterator[list]:
    for i in range(0, len(items), size):
        yield items[i : i + size]


def _unindex_names(conn: sqlite3.Connection, ids: list[int]) -> None:
    for part in _chunks(ids):
        marks = ",".join("?" * len(part))
        conn.execute(f"DELETE FROM names WHERE id IN ({marks})", part)
        conn.execute(f"DELETE FROM name_words WHERE id IN ({marks})", part)


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
