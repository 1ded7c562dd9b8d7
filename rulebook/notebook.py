"""The judge's rulings notebook: their own records, kept honest against new editions.

A ruling is a question, the judge's answer, the rules it cites and, optionally, a scenario file that
shows it. Recording one stores the text of every rule it cites *as the book read then*, so that when
a newer edition is loaded :func:`check` can say which rulings rest on rules that changed, moved or
went (with the word diff), whether or not the old edition is still loaded.

The notebook is the judge's own data, not a cache: ``$JUDGE_HOME/notebook.db``, an ordinary SQLite
file beside judge.db that nothing rebuilds or deletes (judge.db may be deleted or rebuilt at will;
the notebook keeps its texts itself). Every change is one transaction (``BEGIN IMMEDIATE``), in WAL
mode with a busy timeout, so several processes adding at once wait for each other and lose nothing.
Export and import (JSON) move rulings between machines; a ruling keeps its ``uid`` across them, so
importing the same file twice adds nothing.

>>> import tempfile, pathlib
>>> nb = Notebook(pathlib.Path(tempfile.mkdtemp()) / "notebook.db")
>>> r = nb.add(game="mtg", book="cr-2026", edition="2026-02-27", question="Can I respond?", answer="Yes.",
...            cites=[Cited("117.3a", "The active player receives priority at the beginning of most steps.")])
>>> r.id, [c.number for c in nb.get(r.id).cites], len(nb.search("respond"))
(1, ['117.3a'], 1)
"""

from __future__ import annotations

import os
import re
import sqlite3
import time
import uuid
from collections.abc import Iterable
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path

from rapidfuzz import process
from rapidfuzz.distance import Indel

from rulebook import diff as d
from rulebook import numbers
from rulebook.diff import _norm, word_diff
from rulebook.sqlscript import refused, statements

NOTEBOOK_NAME = "notebook.db"
SCHEMA = "1"
EXPORT_FORMAT = "rules-judge notebook 1"
BUSY_MS = 30_000  # how long a writer waits for another process's transaction


class NotebookError(ValueError):
    """A request the notebook refuses (no such ruling, a bad export file); one line for the judge."""

    def __init__(self, message: str, status: int = 2):
        super().__init__(message)
        self.status = status


class NotebookDamaged(NotebookError):
    """notebook.db is not a database any more (overwritten, truncated): it is never written to or replaced
    (the judge's own records: what it still holds may be saved); the message says how to recover."""

    path: str | None = None


def _reason(exc: BaseException) -> str:
    if isinstance(exc, OSError):
        return exc.strerror or str(exc)
    return str(exc)


def _unusable(path: Path, exc: sqlite3.DatabaseError) -> NotebookError:
    """The one-line error for a notebook SQLite cannot use: damaged (say how to recover it; the file is
    left as it is), or unreadable, read-only, full or busy (say so)."""
    kind = refused(exc)
    if kind == "damaged" or type(exc) is sqlite3.DatabaseError:  # the page check's finding (_open)
        damaged = NotebookDamaged(
            f"{path} is damaged ({exc}); it was left as it is, your rulings' only copy: move it aside "
            f"(mv {path} {path}.damaged) and `judge ruling import FILE` the last `judge ruling export` you "
            "saved, or save what it still holds with the sqlite3 tool's .recover"
        )
        damaged.path = str(path)
        return damaged
    if kind == "unwritable":
        return NotebookError(f"{path}: cannot open the notebook ({exc}): {_NOT_WRITABLE}")
    return NotebookError(f"{path}: cannot open the notebook: {exc}")


_NOT_WRITABLE = "its folder cannot be written; make it writable, or set JUDGE_HOME to a folder that is"


@dataclass(frozen=True)
class Cited:
    """A rule a ruling cites, as the book read when the ruling was recorded."""

    number: str
    text: str  # title, text and examples (rulebook.diff.Entry.content)

    def to_json(self) -> dict:
        return {"number": self.number, "text": self.text}


@dataclass(frozen=True)
class Ruling:
    id: int
    uid: str
    game: str
    book: str
    edition: str | None
    question: str
    answer: str
    cites: tuple[Cited, ...] = ()
    scenario: str | None = None  # the scenario file's text (YAML)
    scenario_name: str | None = None
    created: str = ""
    updated: str = ""

    def to_json(self) -> dict:
        return {
            "id": self.id,
            "uid": self.uid,
            "game": self.game,
            "book": self.book,
            "edition": self.edition,
            "question": self.question,
            "answer": self.answer,
            "cites": [c.to_json() for c in self.cites],
            "scenario": {"name": self.scenario_name, "text": self.scenario} if self.scenario is not None else None,
            "created": self.created,
            "updated": self.updated,
        }


def notebook_path(home: Path) -> Path:
    return Path(home) / NOTEBOOK_NAME


def _now() -> str:
    return datetime.now(UTC).isoformat(timespec="seconds")


_TABLES = """
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT);
CREATE TABLE IF NOT EXISTS rulings (
    id INTEGER PRIMARY KEY AUTOINCREMENT, uid TEXT NOT NULL UNIQUE, game TEXT NOT NULL, book TEXT NOT NULL,
    edition TEXT, question TEXT NOT NULL, answer TEXT NOT NULL, scenario TEXT, scenario_name TEXT,
    created TEXT NOT NULL, updated TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS cites (
    ruling INTEGER NOT NULL REFERENCES rulings(id) ON DELETE CASCADE, position INTEGER NOT NULL,
    number TEXT NOT NULL, text TEXT NOT NULL, PRIMARY KEY (ruling, position));
CREATE VIRTUAL TABLE IF NOT EXISTS rulings_fts USING fts5(question, answer, content='rulings', content_rowid='id',
    tokenize='porter unicode61 remove_diacritics 2');
CREATE TRIGGER IF NOT EXISTS rulings_ai AFTER INSERT ON rulings BEGIN
    INSERT INTO rulings_fts(rowid, question, answer) VALUES (new.id, new.question, new.answer); END;
CREATE TRIGGER IF NOT EXISTS rulings_ad AFTER DELETE ON rulings BEGIN
    INSERT INTO rulings_fts(rulings_fts, rowid, question, answer) VALUES ('delete', old.id, old.question, old.answer); END;
CREATE TRIGGER IF NOT EXISTS rulings_au AFTER UPDATE ON rulings BEGIN
    INSERT INTO rulings_fts(rulings_fts, rowid, question, answer) VALUES ('delete', old.id, old.question, old.answer);
    INSERT INTO rulings_fts(rowid, question, answer) VALUES (new.id, new.question, new.answer); END;
"""


class Notebook:
    """The rulings notebook at ``path`` (created on first use)."""

    def __init__(self, path: Path):
        self.path = Path(path)
        try:
            if not self.path.exists():
                _create(self.path)
        except (OSError, sqlite3.Error) as exc:  # a read-only or full folder: nothing was made
            raise NotebookError(f"{self.path}: cannot make the notebook ({_reason(exc)}): {_NOT_WRITABLE}") from None
        self.conn = sqlite3.connect(self.path, timeout=BUSY_MS / 1000, isolation_level=None)
        try:
            self._open()
        except sqlite3.DatabaseError as exc:
            self.conn.close()
            raise _unusable(self.path, exc) from None

    def _open(self) -> None:
        self.conn.row_factory = sqlite3.Row
        self.conn.execute(f"PRAGMA busy_timeout = {BUSY_MS}")
        self.conn.execute("PRAGMA foreign_keys = ON")
        if self.conn.execute("PRAGMA journal_mode").fetchone()[0].lower() != "wal":  # a file made elsewhere
            _retry(lambda: self.conn.execute("PRAGMA journal_mode = WAL"))
        # Damage found before anything is read or written (SQLite checks every page: milliseconds for
        # thousands of rulings); the file is then left exactly as it is (NotebookDamaged).
        checked = self.conn.execute("PRAGMA quick_check(1)").fetchone()[0]
        if checked != "ok":
            raise sqlite3.DatabaseError(" ".join(str(checked).replace("*** in database main ***", "").split()))
        with self._write():  # a notebook of an older schema gains what is new (IF NOT EXISTS)
            for statement in statements(_TABLES):
                self.conn.execute(statement)
            self.conn.execute("INSERT OR IGNORE INTO meta (key, value) VALUES ('schema_version', ?)", [SCHEMA])

    def close(self) -> None:
        self.conn.close()

    def _write(self):
        """A write transaction, taken at once (BEGIN IMMEDIATE): two processes never both read, then write."""
        return _Transaction(self.conn)

    # Reading ---------------------------------------------------------------------------------------
    def _ruling(self, row) -> Ruling:
        cites = tuple(
            Cited(c["number"], c["text"])
            for c in self.conn.execute("SELECT number, text FROM cites WHERE ruling = ? ORDER BY position", [row["id"]])
        )
        return Ruling(
            row["id"],
            row["uid"],
            row["game"],
            row["book"],
            row["edition"],
            row["question"],
            row["answer"],
            cites,
            row["scenario"],
            row["scenario_name"],
            row["created"],
            row["updated"],
        )

    def get(self, ruling_id: int) -> Ruling:
        row = self.conn.execute("SELECT * FROM rulings WHERE id = ?", [ruling_id]).fetchone()
        if row is None:
            raise NotebookError(f"no ruling #{ruling_id} in the notebook ({self.path})", status=1)
        return self._ruling(row)

    def all(self, game: str | None = None, book: str | None = None) -> list[Ruling]:
        sql = "SELECT * FROM rulings WHERE 1"
        params: list[str] = []
        if game:
            sql, params = sql + " AND game = ?", [*params, game]
        if book:
            sql, params = sql + " AND book = ?", [*params, book]
        return [self._ruling(r) for r in self.conn.execute(sql + " ORDER BY id", params)]

    def ids(self) -> list[int]:
        return [r[0] for r in self.conn.execute("SELECT id FROM rulings ORDER BY id")]

    def search(self, query: str, limit: int = 20) -> list[Ruling]:
        """Rulings whose question or answer has the query's words (stemmed), best first; a rule number
        finds the rulings citing it."""

        if numbers.looks_like_number(query):
            wanted = numbers.candidates(query)
            marks = ", ".join("?" * len(wanted))
            rows = self.conn.execute(
                f"SELECT DISTINCT rulings.* FROM rulings JOIN cites ON cites.ruling = rulings.id "
                f"WHERE cites.number IN ({marks}) ORDER BY rulings.id",
                wanted,
            ).fetchall()
            return [self._ruling(r) for r in rows[:limit]]
        words = [w for w in _words(query)]
        if not words:
            return []
        match = " OR ".join(f'"{w}"' for w in words)
        rows = self.conn.execute(
            "SELECT rulings.* FROM rulings_fts JOIN rulings ON rulings.id = rulings_fts.rowid "
            "WHERE rulings_fts MATCH ? ORDER BY bm25(rulings_fts) LIMIT ?",
            [match, limit],
        ).fetchall()
        return [self._ruling(r) for r in rows]

    # Writing ---------------------------------------------------------------------------------------
    def add(
        self,
        *,
        game: str,
        book: str,
        edition: str | None,
        question: str,
        answer: str,
        cites: Iterable[Cited],
        scenario: str | None = None,
        scenario_name: str | None = None,
        uid: str | None = None,
        created: str | None = None,
        updated: str | None = None,
    ) -> Ruling:
        cites = list(cites)
        now = _now()
        with self._write():
            cur = self.conn.execute(
                "INSERT INTO rulings (uid, game, book, edition, question, answer, scenario, scenario_name, created, "
                "updated) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                [
                    uid or uuid.uuid4().hex,
                    game,
                    book,
                    edition,
                    question,
                    answer,
                    scenario,
                    scenario_name,
                    created or now,
                    updated or created or now,
                ],
            )
            ruling_id = cur.lastrowid
            assert ruling_id is not None  # set by the INSERT
            self._cite(ruling_id, cites)
        return self.get(ruling_id)

    def _cite(self, ruling_id: int, cites: list[Cited]) -> None:
        self.conn.execute("DELETE FROM cites WHERE ruling = ?", [ruling_id])
        self.conn.executemany(
            "INSERT INTO cites (ruling, position, number, text) VALUES (?, ?, ?, ?)",
            [(ruling_id, i, c.number, c.text) for i, c in enumerate(cites)],
        )

    def edit(
        self,
        ruling_id: int,
        *,
        question: str | None = None,
        answer: str | None = None,
        cites: list[Cited] | None = None,
        book: str | None = None,
        edition: str | None = None,
        scenario: str | None = None,
        scenario_name: str | None = None,
        drop_scenario: bool = False,
    ) -> Ruling:
        self.get(ruling_id)  # exists
        with self._write():
            sets: list[str] = ["updated = ?"]
            params: list[str | None] = [_now()]
            for column, value in (("question", question), ("answer", answer), ("book", book)):
                if value is not None:
                    sets.append(f"{column} = ?")
                    params.append(value)
            if book is not None:
                sets.append("edition = ?")
                params.append(edition)
            if scenario is not None or drop_scenario:
                sets += ["scenario = ?", "scenario_name = ?"]
                params += [scenario, scenario_name]
            self.conn.execute(f"UPDATE rulings SET {', '.join(sets)} WHERE id = ?", [*params, ruling_id])
            if cites is not None:
                self._cite(ruling_id, cites)
        return self.get(ruling_id)

    def remove(self, ruling_id: int) -> Ruling:
        ruling = self.get(ruling_id)
        with self._write():
            self.conn.execute("DELETE FROM rulings WHERE id = ?", [ruling_id])
        return ruling

    # Export and import -----------------------------------------------------------------------------
    def export(self) -> dict:
        return {"format": EXPORT_FORMAT, "exported": _now(), "rulings": [r.to_json() for r in self.all()]}

    def import_(self, data: dict, source: str = "the file") -> tuple[list[int], int]:
        """Add the rulings of an export not already here (by ``uid``), in one transaction: (ids added,
        count skipped)."""
        if (
            not isinstance(data, dict)
            or data.get("format") != EXPORT_FORMAT
            or not isinstance(data.get("rulings"), list)
        ):
            raise NotebookError(f'{source} is not a notebook export (expected "format": "{EXPORT_FORMAT}")')
        added, skipped = [], 0
        with self._write():
            for i, item in enumerate(data["rulings"]):
                try:
                    uid = str(item["uid"])
                    cites = [Cited(str(c["number"]), str(c["text"])) for c in item.get("cites") or []]
                    fields_ = [
                        str(item["game"]),
                        str(item["book"]),
                        item.get("edition"),
                        str(item["question"]),
                        str(item["answer"]),
                    ]
                    scenario = item.get("scenario") or {}
                except (KeyError, TypeError) as exc:
                    raise NotebookError(f"{source}: ruling {i + 1} lacks {exc}") from None
                if self.conn.execute("SELECT 1 FROM rulings WHERE uid = ?", [uid]).fetchone():
                    skipped += 1
                    continue
                now = _now()
                cur = self.conn.execute(
                    "INSERT INTO rulings (uid, game, book, edition, question, answer, scenario, scenario_name, created, "
                    "updated) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                    [
                        uid,
                        *fields_,
                        scenario.get("text"),
                        scenario.get("name"),
                        item.get("created") or now,
                        item.get("updated") or now,
                    ],
                )
                ruling_id = cur.lastrowid
                assert ruling_id is not None  # set by the INSERT
                self._cite(ruling_id, cites)
                added.append(ruling_id)
        return added, skipped


def _create(path: Path) -> None:
    """Make the notebook whole in a file of its own, then give it its name unless another process did
    first (a hard link never replaces): switching a file to WAL while others have it open fails at
    once, without waiting, so no process ever switches the one they share."""

    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(f".{path.name}.{os.getpid()}.{uuid.uuid4().hex[:8]}")
    conn = sqlite3.connect(tmp, isolation_level=None)
    try:
        conn.execute("PRAGMA journal_mode = WAL")
        conn.execute("BEGIN IMMEDIATE")
        for statement in statements(_TABLES):
            conn.execute(statement)
        conn.execute("INSERT INTO meta (key, value) VALUES ('schema_version', ?)", [SCHEMA])
        conn.execute("COMMIT")
    finally:
        conn.close()
    try:
        os.link(tmp, path)
    except FileExistsError:
        pass
    except OSError:  # a file system without hard links: the first to rename wins as well as it can
        if not path.exists():
            os.replace(tmp, path)
    finally:
        for leftover in (tmp, tmp.with_name(tmp.name + "-wal"), tmp.with_name(tmp.name + "-shm")):
            leftover.unlink(missing_ok=True)


def _retry(action):
    """Run ``action`` again while SQLite says the database is locked without waiting for it."""

    deadline = time.monotonic() + BUSY_MS / 1000
    while True:
        try:
            return action()
        except sqlite3.OperationalError as exc:
            if "locked" not in str(exc) or time.monotonic() > deadline:
                raise
            time.sleep(0.01)


class _Transaction:
    def __init__(self, conn):
        self.conn = conn

    def __enter__(self):
        _retry(lambda: self.conn.execute("BEGIN IMMEDIATE"))
        return self.conn

    def __exit__(self, kind, value, tb):
        self.conn.execute("COMMIT" if kind is None else "ROLLBACK")
        return False


def _words(query: str) -> list[str]:

    return re.findall(r"[A-Za-z0-9]+", query.lower())


# Checking the rulings against a book ---------------------------------------------------------------
@dataclass
class CiteCheck:
    number: str  # as recorded
    status: str  # same | changed | moved | moved and changed | gone
    now: str | None  # its number in the book checked
    similarity: float | None
    confidence: str | None
    diff: str | None
    text: str | None  # its text in the book checked

    def to_json(self) -> dict:
        return {
            "number": self.number,
            "status": self.status,
            "now": self.now,
            "similarity": self.similarity,
            "confidence": self.confidence,
            "diff": self.diff,
            "text": self.text,
        }


@dataclass
class RulingCheck:
    ruling: Ruling
    book: str
    cites: list[CiteCheck] = field(default_factory=list)
    via: str | None = None  # how the rules were followed: the diff from this book, else by their text
    scenario: dict | None = None  # filled by the caller that re-runs scenarios

    @property
    def flagged(self) -> bool:
        return any(c.status != "same" for c in self.cites) or bool(
            self.scenario and self.scenario["status"] != "passed"
        )

    def to_json(self) -> dict:
        r = self.ruling
        return {
            "id": r.id,
            "question": r.question,
            "recorded_in": r.book,
            "recorded_edition": r.edition,
            "book": self.book,
            "flagged": self.flagged,
            "via": self.via,
            "cites": [c.to_json() for c in self.cites],
            "scenario": self.scenario,
        }


def check(db, rulings: list[Ruling], book: str) -> list[RulingCheck]:
    """Where each ruling's cited rules stand in ``book``.

    A rule is followed through the diff (rulebook.diff.match_rules) from the book the ruling was
    recorded in, when that book is loaded and still reads the rule as recorded; else by its recorded
    text alone: the same number reading the same is ``same``; the recorded text found word for word
    elsewhere is ``moved``; else the rule of ``book`` whose words are nearest, if near enough (the
    thresholds of the diff: the same number from 0.2, another from 0.6), is ``changed`` or ``moved and
    changed``; else ``gone``.
    """

    target = {e.number: e for e in d.read_rules(db, book)}
    loaded = set(db.book_ids())
    forwards: dict[str, dict[str, d.Pair | str]] = {}
    out = []
    for ruling in rulings:
        result = RulingCheck(ruling, book)
        source = None
        if ruling.book in loaded and ruling.book != book:
            recorded = {e.number: e for e in d.read_rules(db, ruling.book)}
            if all(c.number in recorded and recorded[c.number].key == _key(c.text) for c in ruling.cites):
                if ruling.book not in forwards:
                    m = d.match_rules(list(recorded.values()), list(target.values()))
                    forwards[ruling.book] = {**{n: n for n in m.anchored}, **{p.old: p for p in m.pairs}}
                source = forwards[ruling.book]
                result.via = ruling.book
        for c in ruling.cites:
            result.cites.append(_follow(c, target, source))
        out.append(result)
    return out


def _key(text: str) -> str:

    return _norm(text.replace("\n", " "))


def _follow(c: Cited, target: dict, source: dict | None) -> CiteCheck:

    key = _key(c.text)
    if source is not None:
        hit = source.get(c.number)
        if hit is None:
            return CiteCheck(c.number, "gone", None, None, None, None, None)
        now = hit if isinstance(hit, str) else hit.new
        similarity = None if isinstance(hit, str) else hit.similarity
        confidence = None if isinstance(hit, str) else hit.confidence
        return _status(c, target[now], similarity, confidence)
    here = target.get(c.number)
    if here is not None and here.key == key:
        return CiteCheck(c.number, "same", c.number, 1.0, "high", None, here.content)
    same_text = [e for e in target.values() if e.key == key]
    if len(same_text) == 1:
        return _status(c, same_text[0], 1.0, "high")
    words = d.content_words(c.text)
    best, best_score = None, 0.0
    if words:
        encode = d._encoder()
        query = encode(words)
        entries = list(target.values())
        found = process.extractOne(
            query,
            [encode(d.content_words(e.content)) for e in entries],
            scorer=Indel.normalized_similarity,
            score_cutoff=d.SAME_NUMBER_MIN,
        )
        if found:
            best, best_score = entries[found[2]], float(found[1])
        if here is not None:
            same_score = Indel.normalized_similarity(query, encode(d.content_words(here.content)))
            if same_score >= d.SAME_NUMBER_MIN and same_score + d.SAME_BONUS >= best_score:
                best, best_score = here, same_score
    if best is None or (best.number != c.number and best_score < d.MOVE_MIN):
        return CiteCheck(c.number, "gone", None, round(best_score, 3) if best else None, None, None, None)
    confidence = "high" if best_score >= 0.8 else "medium" if best_score >= 0.5 else "low"
    return _status(c, best, round(best_score, 3), confidence)


def _status(c: Cited, now, similarity: float | None, confidence: str | None) -> CiteCheck:

    moved = now.number != c.number
    reworded = now.key != _key(c.text)
    status = "moved and changed" if moved and reworded else "moved" if moved else "changed" if reworded else "same"
    return CiteCheck(
        c.number,
        status,
        now.number,
        similarity if similarity is not None else (1.0 if not reworded else None),
        confidence or ("high" if not reworded else None),
        word_diff(c.text, now.content) if reworded else None,
        now.content,
    )
