"""The SQLite store: books, rules, terms, rulings, references, with FTS5 indexes. See docs/database.md.

The file is an ordinary SQLite database; every table is keyed by ``book``. Writing happens only in
:mod:`rulebook.library` (on a copy that then replaces the file); :class:`Store` reads: it is the read
API over judge.db, and the lookups, the diff, the editions' history, the rulings of a game and the
command line call its named methods rather than write SQL of their own (the search's full-text and
vector reads are :class:`rulebook.search.index.SearchIndex`'s, over the store's connection).
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Iterable, Sequence, Sized
from pathlib import Path
from typing import Any, NamedTuple, TypedDict

from rulebook import numbers
from rulebook.model import Book, Rule, Ruling, Source, Term

# The rows a lookup or a search reads are named tuples (a tenth of a millisecond to define, less than a
# dict to make) or, where the caller hands them on as JSON-ready dicts, typed dicts; the model's classes
# (rulebook.model) are what the methods that return whole rules, terms, rulings and books make.

SCHEMA_VERSION = "9"  # 3: meaning vectors stored with their book; 4: and their hubness; 5: word pieces;
# 6: rulings' form, FAQ, date and revised rule, and the revisions table; 7: rules' stems, the meaning
# matrix after the columns a search reads, term names indexed in lower case; 8: word pieces' vectors;
# 9: rulings matched across books (ruling_pairs), made when the library is written, not when read
# Porter stemming so "passes" finds "pass"; unicode61 folds case and diacritics.
TOKENIZE = "porter unicode61 remove_diacritics 2"
MMAP_SIZE = 1 << 30  # bytes of judge.db a reader maps (SQLite caps it at its own limit)


def create_schema(db) -> None:
    """Create the tables and FTS5 indexes in a ``sqlite_utils.Database`` (the writing side)."""
    db["meta"].create({"key": str, "value": str}, pk="key", if_not_exists=True)
    db["books"].create(
        {
            "id": str,
            "game": str,
            "title": str,
            "edition": str,
            "builtin": int,
            "partial": int,
            "fingerprint": str,
            "position": int,
        },
        pk="id",
        if_not_exists=True,
    )
    db["sources"].create(
        {"book": str, "name": str, "kind": str, "sha256": str, "path": str, "position": int},
        pk=("book", "name"),
        if_not_exists=True,
    )
    db["rules"].create(
        {
            "book": str,
            "number": str,
            "parent": str,
            "title": str,
            "text": str,
            "examples": str,
            "source": str,
            "line": int,
            "expected_children": int,
            "sort": str,
            "depth": int,
            "stems": str,
        },
        pk=("book", "number"),
        if_not_exists=True,
    )
    db["terms"].create(
        {
            "book": str,
            "term": str,
            "definition": str,
            "source": str,
            "line": int,
            "obsolete": int,
            "derived_from": str,
            "recovered": int,
        },
        pk=("book", "term"),
        if_not_exists=True,
    )
    db["rulings"].create(
        {
            "book": str,
            "id": str,
            "topic": str,
            "question": str,
            "answer": str,
            "source": str,
            "line": int,
            "form": str,
            "faq": str,
            "published": str,
            "revises_rule": str,
        },
        pk=("book", "id"),
        if_not_exists=True,
    )
    db["revisions"].create({"book": str, "ruling": str, "revises": str}, if_not_exists=True)
    # An older book's rulings read in a newer one of its game (rulebook.ruling_pairs): JSON texts.
    db["ruling_pairs"].create(
        {"old": str, "new": str, "revised": str, "cites": str}, pk=("old", "new"), if_not_exists=True
    )
    db["warnings"].create({"book": str, "source": str, "line": int, "reason": str}, if_not_exists=True)
    db["truncations"].create(
        {"book": str, "source": str, "line": int, "missing": int, "after": str}, if_not_exists=True
    )
    db["refs"].create(
        {
            "book": str,
            "from_kind": str,
            "from_id": str,
            "raw": str,
            "target": str,
            "target_kind": str,
            "cited_title": str,
            "actual_title": str,
            "outcome": str,
            "reason": str,
            "source": str,
            "line": int,
        },
        if_not_exists=True,
    )
    db["uses"].create({"book": str, "rule": str, "term": str}, if_not_exists=True)
    db["vocab"].create({"book": str, "word": str, "count": int}, pk=("book", "word"), if_not_exists=True)
    db.execute(
        "CREATE TABLE IF NOT EXISTS wordpieces (piece TEXT PRIMARY KEY, id INTEGER NOT NULL, vector BLOB NOT NULL, "
        "scale REAL NOT NULL) WITHOUT ROWID"
    )
    # The matrix last: SQLite reaches a column stored after a large one by walking its overflow pages
    # (the CR's 2.7 MB: 0.4 ms a search, to read the scales and hubs behind it).
    db["meaning"].create(
        {"book": str, "model": str, "numbers": str, "remembered": str, "scales": bytes, "hubs": bytes, "matrix": bytes},
        pk="book",
        if_not_exists=True,
    )
    for table, columns in (
        ("rules", ["number", "title", "text", "examples"]),
        ("terms", ["term", "definition"]),
        ("rulings", ["topic", "question", "answer"]),
    ):
        if not db[table].detect_fts():
            db[table].enable_fts(columns, tokenize=TOKENIZE, create_triggers=False)
    db["rules"].create_index(["book", "parent"], if_not_exists=True)
    db["rules"].create_index(["number"], if_not_exists=True)
    db["refs"].create_index(["book", "target"], if_not_exists=True)
    db["refs"].create_index(["book", "from_id"], if_not_exists=True)
    # A search looks up the terms a query names in lower case (rulebook.search.expansion.definitions).
    db.execute("CREATE INDEX IF NOT EXISTS idx_refs_book_lower_from_id ON refs (book, lower(from_id))")
    db.execute("CREATE INDEX IF NOT EXISTS idx_terms_book_lower_term ON terms (book, lower(term))")
    db["meta"].upsert({"key": "schema_version", "value": SCHEMA_VERSION}, pk="key")


BOOK_TABLES = (
    "sources",
    "rules",
    "terms",
    "rulings",
    "revisions",
    "warnings",
    "truncations",
    "refs",
    "uses",
    "vocab",
    "meaning",
)


def delete_book(db, book_id: str) -> None:
    for table in BOOK_TABLES:
        db.execute(f"DELETE FROM [{table}] WHERE book = ?", [book_id])
    db.execute("DELETE FROM ruling_pairs WHERE old = ? OR new = ?", [book_id, book_id])
    db.execute("DELETE FROM books WHERE id = ?", [book_id])


def write_ruling_pairs(db, pairs: Iterable[tuple[str, str, dict, dict]]) -> None:
    """Store ``(old, new, revised, cites)`` pairs (:mod:`rulebook.ruling_pairs`), replacing those kept."""
    db["ruling_pairs"].upsert_all(
        ({"old": o, "new": n, "revised": json.dumps(r), "cites": json.dumps(c)} for o, n, r, c in pairs),
        pk=("old", "new"),
    )


def stored_ruling_pairs(db) -> set[tuple[str, str]]:
    """The (old, new) pairs ``db`` (the writing side) holds."""
    return {(r["old"], r["new"]) for r in db.query("SELECT old, new FROM ruling_pairs")}


def rebuild_fts(db) -> None:
    for table in ("rules", "terms", "rulings"):
        db[table].rebuild_fts()


# The rows the read methods return ------------------------------------------------------------------
class RuleRow(NamedTuple):
    """A rule as stored, with the book it belongs to."""

    book: str
    rule: Rule

    @property
    def number(self) -> str:
        return self.rule.number


class BookRow(NamedTuple):
    """A book as ``judge books`` lists it, with what choosing a default book and reading rulings need."""

    id: str
    game: str
    title: str
    edition: str | None
    builtin: bool  # a seed book
    partial: bool  # an excerpt
    fingerprint: str | None
    has_rules: bool
    has_rulings: bool


class RuleRecord(NamedTuple):
    """A rule where it sits (``judge rule``): :class:`rulebook.model.Rule`'s fields with its book and sort
    key, read without the model's class."""

    book: str
    number: str
    parent: str | None
    title: str | None
    text: str
    examples: tuple[str, ...]
    source: str
    line: int
    expected_children: int | None
    sort: str  # sorts numerically (rules.sort)


class RuleText(NamedTuple):
    """A rule's number, title and text."""

    number: str
    title: str | None
    text: str


class RuleContent(NamedTuple):
    """What comparing two editions reads of a rule (:func:`rulebook.diff.read_rules`)."""

    number: str
    parent: str | None
    title: str | None
    text: str
    examples: tuple[str, ...]


class RulingRow(NamedTuple):
    """A ruling as stored (columns as docs/database.md has them), with its place in the document."""

    book: str
    id: str
    topic: str | None
    question: str
    answer: str
    source: str | None
    line: int | None
    form: str | None
    faq: str | None
    published: str | None
    revises_rule: str | None
    position: int  # its rowid: rulings are stored in document order


class Cite(TypedDict):
    """A reference a rule makes to another rule or section (:meth:`Store.cites`)."""

    target: str
    target_kind: str
    outcome: str
    raw: str
    cited_title: str | None
    actual_title: str | None


class CitedBy(TypedDict):
    """A rule, term or ruling that cites a rule (:meth:`Store.cited_by`)."""

    from_kind: str
    from_id: str


_BOOK_ROW = (
    "id, game, title, edition, builtin, partial, fingerprint, EXISTS (SELECT 1 FROM rules WHERE rules.book = books.id), "
    "EXISTS (SELECT 1 FROM rulings WHERE rulings.book = books.id)"
)
_RULE_RECORD = "book, number, parent, title, text, examples, source, line, expected_children, sort"
_RULING_ROW = (
    "rulings.book, rulings.id, rulings.topic, rulings.question, rulings.answer, rulings.source, rulings.line, "
    "rulings.form, rulings.faq, rulings.published, rulings.revises_rule, rulings.rowid"
)
_HEADING = "title IS NOT NULL AND title != '' AND (text IS NULL OR text = '')"  # a title and no text


def _book_row(row: tuple) -> BookRow:
    id, game, title, edition, builtin, partial, fingerprint, rules, rulings = row
    return BookRow(id, game, title, edition, bool(builtin), bool(partial), fingerprint, bool(rules), bool(rulings))


def _record(row: tuple) -> RuleRecord:
    book, number, parent, title, text, examples, source, line, expected, sort = row
    return RuleRecord(
        book,
        number,
        parent,
        title,
        text or "",
        tuple(json.loads(examples or "[]")),
        source or "",
        line or 0,
        expected,
        sort,
    )


def _marks(items: Sized) -> str:
    return ", ".join("?" * len(items))


def _rule(row: dict[str, Any]) -> Rule:

    return Rule(
        number=row["number"],
        parent=row["parent"],
        title=row["title"],
        text=row["text"] or "",
        examples=tuple(json.loads(row["examples"] or "[]")),
        source=row["source"] or "",
        line=row["line"] or 0,
        expected_children=row["expected_children"],
    )


def _term(row: dict[str, Any]) -> Term:

    return Term(
        term=row["term"],
        definition=row["definition"],
        source=row["source"] or "",
        line=row["line"] or 0,
        obsolete=bool(row["obsolete"]),
        headword_recovered=bool(row["recovered"]),
    )


def _ruling(row: dict[str, Any], revises: Iterable[str] = ()) -> Ruling:

    return Ruling(
        id=row["id"],
        question=row["question"],
        answer=row["answer"],
        topic=row["topic"],
        source=row["source"] or "",
        line=row["line"] or 0,
        form=row["form"] or "question",
        faq=row["faq"],
        published=row["published"],
        revises=tuple(revises),
        revises_rule=row["revises_rule"],
    )


class Store:
    """Read access to the database file: every read of judge.db, as a named method.

    Reading uses the standard library's sqlite3 alone: a lookup should not pay for importing
    sqlite-utils, which :mod:`rulebook.library` uses to write. Methods return the model's classes
    (:class:`~rulebook.model.Rule`, :class:`~rulebook.model.Term`, ...) where a caller works with
    those, else the rows above: named tuples (:class:`BookRow`, :class:`RuleRecord`, :class:`RulingRow`,
    ...) or, for references handed on as JSON, typed dicts. ``query`` runs any SQL, for tools and tests.
    """

    def __init__(self, path: str | Path):
        self.path = Path(path)
        self.conn = sqlite3.connect(f"file:{self.path}?mode=ro", uri=True)
        self.conn.row_factory = sqlite3.Row
        # Pages read through a memory map rather than one read() each: a search reads a book's meaning
        # vectors (2.7 MB for the CR, 700 overflow pages) in 1 ms less. Safe here because judge.db is
        # never changed in place: a build writes a new file that replaces it (the map keeps the old one).
        self.conn.execute(f"PRAGMA mmap_size = {MMAP_SIZE}")

    def close(self) -> None:
        self.conn.close()

    def query(self, sql: str, params: Iterable[Any] = ()) -> list[dict[str, Any]]:
        """Rows of any query, as dicts (for tools and tests; the library's modules call the named methods)."""
        return [dict(row) for row in self.conn.execute(sql, list(params))]

    def _rows(self, sql: str, params: Iterable[Any] = ()) -> list[tuple]:
        """Rows as plain tuples: what a named tuple is made of, without a dict each."""
        cursor = self.conn.cursor()
        cursor.row_factory = None
        return cursor.execute(sql, list(params)).fetchall()

    def _column(self, sql: str, params: Iterable[Any] = ()) -> list[Any]:
        """The first column of each row."""
        return [row[0] for row in self._rows(sql, params)]

    def _exists(self, sql: str, params: Iterable[Any] = ()) -> bool:
        """Whether the query finds a row."""
        return bool(self._rows(sql, params))

    @property
    def folder(self) -> Path:
        """The folder judge.db is in (``$JUDGE_HOME``: its ``cache/`` sits beside it)."""
        return self.path.absolute().parent

    # Books -----------------------------------------------------------------------------------------
    def books(self) -> list[Book]:
        rows = self.query("SELECT * FROM books ORDER BY position, id")
        return [self._book(row) for row in rows]

    def book(self, book_id: str) -> Book | None:
        rows = self.query("SELECT * FROM books WHERE id = ?", [book_id])
        return self._book(rows[0]) if rows else None

    def book_ids(self) -> list[str]:
        return self._column("SELECT id FROM books ORDER BY position, id")

    def book_rows(self) -> list[BookRow]:
        """Every book in ``judge books`` order, without its sources: what choosing a default reads."""
        return [_book_row(row) for row in self._rows(f"SELECT {_BOOK_ROW} FROM books ORDER BY position, id")]

    def book_row(self, book_id: str) -> BookRow | None:
        """One book as :meth:`book_rows` gives it, or None when it is not loaded."""
        rows = self._rows(f"SELECT {_BOOK_ROW} FROM books WHERE id = ?", [book_id])
        return _book_row(rows[0]) if rows else None

    def book_game(self, book_id: str) -> str | None:
        """The game of a book, or None when it is not loaded."""
        found = self._column("SELECT game FROM books WHERE id = ?", [book_id])
        return found[0] if found else None

    def game_of(self, book_id: str) -> str:
        """The game of a loaded book (KeyError for a book that is not loaded)."""
        game = self.book_game(book_id)
        if game is None:
            raise KeyError(f"no book {book_id!r}")
        return game

    def has_game(self, game: str) -> bool:
        """Whether a book of ``game`` is loaded."""
        return self._exists("SELECT 1 FROM books WHERE game = ? LIMIT 1", [game])

    def fingerprint(self, book_id: str) -> str | None:
        """What the book was built from (sources, reader, schema): equal fingerprints, equal rules."""
        rows = self.query("SELECT fingerprint FROM books WHERE id = ?", [book_id])
        return rows[0]["fingerprint"] if rows else None

    def is_partial(self, book_id: str) -> bool:
        rows = self.query("SELECT partial FROM books WHERE id = ?", [book_id])
        return bool(rows and rows[0]["partial"])

    def _book(self, row: dict[str, Any]) -> Book:

        sources = tuple(
            Source(name=s["name"], sha256=s["sha256"], kind=s["kind"], path=s["path"] or "")
            for s in self.query("SELECT * FROM sources WHERE book = ? ORDER BY position", [row["id"]])
        )
        return Book(
            id=row["id"],
            game=row["game"],
            title=row["title"],
            edition=row["edition"],
            sources=sources,
            builtin=bool(row["builtin"]),
        )

    def counts(self, book_id: str) -> dict[str, int]:
        out = {}
        for table in ("rules", "terms", "rulings"):
            out[table] = self.query(f"SELECT count(*) AS n FROM [{table}] WHERE book = ?", [book_id])[0]["n"]
        return out

    def rule_count(self, book_id: str) -> int:
        """How many rules a book has."""
        return self._column("SELECT count(*) FROM rules WHERE book = ?", [book_id])[0]

    def meaning_numbers(self, book_ids: Sequence[str]) -> dict[str, str]:
        """``{book: numbers}`` of those of ``book_ids`` that carry meaning vectors: the ``meaning.numbers``
        column, a line per vector of the rule numbers it stands for (docs/database.md)."""
        return dict(self._rows(f"SELECT book, numbers FROM meaning WHERE book IN ({_marks(book_ids)})", book_ids))

    # Rules -----------------------------------------------------------------------------------------
    def rule(self, book_id: str, number: str) -> Rule | None:
        rows = self.query("SELECT * FROM rules WHERE book = ? AND number = ?", [book_id, number])
        return _rule(rows[0]) if rows else None

    def find_rule(self, text: str, book_id: str | None = None) -> list[RuleRow]:
        """Every book's rule with this number, typed in either game's style."""

        found: list[RuleRow] = []
        for candidate in numbers.candidates(text):
            sql = "SELECT * FROM rules WHERE number = ?" + (" AND book = ?" if book_id else "")
            params = [candidate] + ([book_id] if book_id else [])
            for row in self.query(sql + " ORDER BY book", params):
                if not any(f.book == row["book"] for f in found):
                    found.append(RuleRow(row["book"], _rule(row)))
        order = {b: i for i, b in enumerate(self.book_ids())}
        return sorted(found, key=lambda r: order.get(r.book, 999))

    def children(self, book_id: str, number: str) -> list[Rule]:
        rows = self.query("SELECT * FROM rules WHERE book = ? AND parent = ? ORDER BY sort", [book_id, number])
        return [_rule(r) for r in rows]

    def rules(self, book_id: str) -> list[Rule]:
        return [_rule(r) for r in self.query("SELECT * FROM rules WHERE book = ? ORDER BY sort", [book_id])]

    def rule_numbers(self, book_id: str) -> list[str]:
        return self._column("SELECT number FROM rules WHERE book = ? ORDER BY sort", [book_id])

    def has_rule(self, book_id: str, number: str) -> bool:
        """Whether the book has a rule numbered exactly ``number`` (as stored)."""
        return self._exists("SELECT 1 FROM rules WHERE book = ? AND number = ?", [book_id, number])

    def ancestors(self, book_id: str, rule: Rule) -> list[Rule]:
        out: list[Rule] = []
        parent = rule.parent
        while parent:
            found = self.rule(book_id, parent)
            if found is None:
                break
            out.insert(0, found)
            parent = found.parent
        return out

    def rule_contents(self, book_id: str) -> list[RuleContent]:
        """A book's rules in rule order, with what comparing editions reads: number, parent, title,
        text and examples."""
        return [
            RuleContent(number, parent, title, text or "", tuple(json.loads(examples or "[]")))
            for number, parent, title, text, examples in self._rows(
                "SELECT number, parent, title, text, examples FROM rules WHERE book = ? ORDER BY sort", [book_id]
            )
        ]

    # Rules where they sit (``judge rule``, rulebook.lookup): records, no model classes ---------------
    def rule_record(self, book_id: str, number: str) -> RuleRecord | None:
        """The rule ``number`` (as stored) of a book."""
        rows = self._rows(f"SELECT {_RULE_RECORD} FROM rules WHERE book = ? AND number = ?", [book_id, number])
        return _record(rows[0]) if rows else None

    def records_numbered(self, number: str, book_ids: Sequence[str]) -> list[RuleRecord]:
        """The rules of ``book_ids`` numbered ``number`` as stored, or printed again under that number
        (``744.5-2``, ``744.5-3``), in rule order."""
        # The range ('N-' < number < 'N.', '.' following '-') lets SQLite search the primary key for the
        # reprinted numbers; the GLOB alone scanned the whole book (1.2 ms against 0.01 ms a lookup on the CR).
        return [
            _record(row)
            for row in self._rows(
                f"SELECT {_RULE_RECORD} FROM rules WHERE (number = ? OR (number > ? || '-' AND number < ? || '.' "
                f"AND number GLOB ? || '-[0-9]*')) AND book IN ({_marks(book_ids)}) ORDER BY sort",
                [number, number, number, number, *book_ids],
            )
        ]

    def child_records(self, book_id: str, number: str) -> list[RuleRecord]:
        """The sub-rules of a rule, in rule order."""
        rows = self._rows(
            f"SELECT {_RULE_RECORD} FROM rules WHERE book = ? AND parent = ? ORDER BY sort", [book_id, number]
        )
        return [_record(row) for row in rows]

    def child_count(self, book_id: str, number: str) -> int:
        """How many sub-rules of a rule the book has."""
        return self._column("SELECT count(*) FROM rules WHERE book = ? AND parent = ?", [book_id, number])[0]

    def siblings_before(self, book_id: str, parent: str | None, sort: str) -> list[RuleRecord]:
        """The rules under ``parent`` (None: the top level) that come before ``sort``, nearest first."""
        rows = self._rows(
            f"SELECT {_RULE_RECORD} FROM rules WHERE book = ? AND parent IS ? AND sort < ? ORDER BY sort DESC",
            [book_id, parent, sort],
        )
        return [_record(row) for row in rows]

    def heading_before(self, book_id: str, parent: str | None, sort: str) -> RuleText | None:
        """The nearest heading (a rule with a title and no text) under ``parent`` before ``sort``."""
        rows = self._rows(
            f"SELECT number, title, text FROM rules WHERE book = ? AND parent IS ? AND sort < ? AND {_HEADING} "
            "ORDER BY sort DESC LIMIT 1",
            [book_id, parent, sort],
        )
        return RuleText(rows[0][0], rows[0][1], rows[0][2] or "") if rows else None

    def headed_records(self, book_id: str, parent: str | None, sort: str) -> list[RuleRecord]:
        """The rules under ``parent`` after ``sort`` (a heading's) up to the next heading: the rules a
        Riftbound heading among its siblings heads (706 Mighty, then 707 to 711)."""
        following = self._column(
            f"SELECT sort FROM rules WHERE book = ? AND parent IS ? AND sort > ? AND {_HEADING} ORDER BY sort LIMIT 1",
            [book_id, parent, sort],
        )
        until = " AND sort < ?" if following else ""
        rows = self._rows(
            f"SELECT {_RULE_RECORD} FROM rules WHERE book = ? AND parent IS ? AND sort > ?{until} ORDER BY sort",
            [book_id, parent, sort, *following],
        )
        return [_record(row) for row in rows]

    def texts_beginning(self, book_id: str, number: str) -> list[RuleText]:
        """Every rule whose number begins with ``number`` (the rule, its sub-rules, and 702.190 beside
        702.19: the caller tells them apart), in rule order."""
        return [
            RuleText(n, title, text or "")
            for n, title, text in self._rows(
                "SELECT number, title, text FROM rules WHERE book = ? AND substr(number, 1, ?) = ? ORDER BY sort",
                [book_id, len(number), number],
            )
        ]

    def subtree_numbers(self, book_id: str, number: str) -> list[str]:
        """``number`` and the numbers of every rule under it (by their parents), the rule first."""
        return self._column(
            "WITH RECURSIVE t(n) AS (SELECT ? UNION SELECT rules.number FROM rules JOIN t ON rules.parent = t.n "
            "WHERE rules.book = ?) SELECT n FROM t",
            [number, book_id],
        )

    def rule_title(self, book_id: str, number: str) -> tuple[bool, str | None]:
        """Whether the book has the rule, and its title."""
        rows = self._column("SELECT title FROM rules WHERE book = ? AND number = ?", [book_id, number])
        return (True, rows[0]) if rows else (False, None)

    def rule_titles(self, book_id: str, numbers: Sequence[str]) -> dict[str, str | None]:
        """``{number: title}`` of those of ``numbers`` the book has."""
        return dict(
            self._rows(
                f"SELECT number, title FROM rules WHERE book = ? AND number IN ({_marks(numbers)})", [book_id, *numbers]
            )
        )

    def titled_rules(self, book_id: str) -> list[tuple[str, str]]:
        """``(number, title)`` of the book's rules that have a title, in rule order."""
        return [
            (number, title)
            for number, title in self._rows(
                "SELECT number, title FROM rules WHERE book = ? AND title IS NOT NULL AND title != '' ORDER BY sort",
                [book_id],
            )
        ]

    def titled_with_parents(self, book_id: str) -> list[tuple[str, str | None, str]]:
        """``(number, parent, title)`` of the book's rules that have a title (the shape of a section of
        short titled rules: a card's keywords are defined there)."""
        return self._rows(
            "SELECT number, parent, title FROM rules WHERE book = ? AND title IS NOT NULL AND title != ''", [book_id]
        )

    def titled_by_depth(self, book_id: str) -> list[tuple[str, str]]:
        """``(number, title)`` of the book's titled rules, shallowest first, then in rule order."""
        return self._rows(
            "SELECT number, title FROM rules WHERE book = ? AND title IS NOT NULL AND title != '' ORDER BY depth, sort",
            [book_id],
        )

    # Terms -----------------------------------------------------------------------------------------
    def terms(self, book_id: str) -> list[Term]:
        rows = self.query("SELECT * FROM terms WHERE book = ? ORDER BY term COLLATE NOCASE", [book_id])
        return [_term(r) for r in rows]

    def term_rows(self, book_id: str | None = None) -> list[tuple[str, Term]]:
        sql = "SELECT * FROM terms" + (" WHERE book = ?" if book_id else "") + " ORDER BY book, term COLLATE NOCASE"
        return [(r["book"], _term(r)) for r in self.query(sql, [book_id] if book_id else [])]

    def term_names(self, book_id: str) -> list[str]:
        """The headwords of a book's glossary."""
        return self._column("SELECT term FROM terms WHERE book = ?", [book_id])

    def has_term(self, book_id: str, term: str) -> bool:
        """Whether the book's glossary has ``term``, case aside."""
        return self._exists("SELECT 1 FROM terms WHERE book = ? AND lower(term) = lower(?) LIMIT 1", [book_id, term])

    def term_derived_from(self, book_id: str, term: str) -> str | None:
        """The rule that defines a term (Riftbound's glossary is made from its rules), or None."""
        found = self._column(
            "SELECT derived_from FROM terms WHERE book = ? AND term = ? AND derived_from IS NOT NULL", [book_id, term]
        )
        return found[0] if found else None

    def term_rule_targets(self, book_id: str, term: str) -> list[str]:
        """The rules a glossary entry points at ("See rule 702.19"), those the book has, in the entry's order."""
        return self._column(
            "SELECT target FROM refs WHERE book = ? AND from_kind = 'term' AND from_id = ? AND target_kind = 'rule' "
            "AND outcome != 'dangling' ORDER BY rowid",
            [book_id, term],
        )

    # Rulings ---------------------------------------------------------------------------------------
    def rulings(self, book_id: str) -> list[Ruling]:
        rows = self.query("SELECT * FROM rulings WHERE book = ? ORDER BY rowid", [book_id])
        revised: dict[str, list[str]] = {}
        for row in self.query("SELECT ruling, revises FROM revisions WHERE book = ? ORDER BY rowid", [book_id]):
            revised.setdefault(row["ruling"], []).append(row["revises"])
        return [_ruling(r, revised.get(r["id"], ())) for r in rows]

    def ruling_row(self, book_id: str, ruling_id: str) -> RulingRow | None:
        """One ruling, or None when the book lacks it."""
        rows = self._rows(f"SELECT {_RULING_ROW} FROM rulings WHERE book = ? AND id = ?", [book_id, ruling_id])
        return RulingRow._make(rows[0]) if rows else None

    def ruling_pair(self, old: str, new: str) -> tuple[dict[str, list[str]], dict[str, list[dict]]] | None:
        """What ``old``'s rulings are in ``new`` (:mod:`rulebook.ruling_pairs`): ``(revised, cites)``; None
        when the library holds no such pair (not an older book with rulings and a newer one of its game)."""
        rows = self._rows("SELECT revised, cites FROM ruling_pairs WHERE old = ? AND new = ?", [old, new])
        return (json.loads(rows[0][0]), json.loads(rows[0][1])) if rows else None

    def ruling_rows(self, book_id: str, ruling_ids: Sequence[str] | None = None) -> list[RulingRow]:
        """A book's rulings (those of ``ruling_ids``, when given), in document order."""
        where, params = "book = ?", [book_id]
        if ruling_ids is not None:
            where += f" AND id IN ({_marks(ruling_ids)})"
            params += ruling_ids
        return [
            RulingRow._make(row)
            for row in self._rows(f"SELECT {_RULING_ROW} FROM rulings WHERE {where} ORDER BY rowid", params)
        ]

    def later_rulings(self, book_id: str, ruling_id: str) -> list[RulingRow]:
        """The rulings of the book that revise this one (a later FAQ's: the revisions table), in order."""
        return self._revisions(book_id, ruling_id, "ruling", "revises")

    def earlier_rulings(self, book_id: str, ruling_id: str) -> list[RulingRow]:
        """The rulings of the book that this one revises, in order."""
        return self._revisions(book_id, ruling_id, "revises", "ruling")

    def _revisions(self, book_id: str, ruling_id: str, shown: str, given: str) -> list[RulingRow]:
        # shown, given: the revisions table's columns ("ruling", "revises"), never the caller's text
        return [
            RulingRow._make(row)
            for row in self._rows(
                f"SELECT {_RULING_ROW} FROM revisions JOIN rulings ON rulings.book = revisions.book "
                f"AND rulings.id = revisions.{shown} WHERE revisions.book = ? AND revisions.{given} = ? "
                "ORDER BY rulings.rowid",
                [book_id, ruling_id],
            )
        ]

    def revised_texts(self, book_id: str, numbers: Sequence[str]) -> list[RulingRow]:
        """The FAQ sections of the book that give one of these rules' revised text (``Rule 735.1.c
        (revised text)``), by date, then in document order."""
        return [
            RulingRow._make(row)
            for row in self._rows(
                f"SELECT {_RULING_ROW} FROM rulings WHERE book = ? AND revises_rule IN ({_marks(numbers)}) "
                "ORDER BY published, rowid",
                [book_id, *numbers],
            )
        ]

    def game_has_rulings(self, book_id: str) -> bool:
        """Whether any book of ``book_id``'s game holds rulings (the mtg seed, the Comprehensive Rules: none)."""
        return self._exists(
            "SELECT 1 FROM rulings JOIN books ON books.id = rulings.book "
            "WHERE books.game = (SELECT game FROM books WHERE id = ?) LIMIT 1",
            [book_id],
        )

    def game_ruling_ids(self, game: str) -> list[str]:
        """The ids of the rulings of every book of ``game``, each once."""
        return self._column(
            "SELECT DISTINCT rulings.id FROM rulings JOIN books ON books.id = rulings.book WHERE books.game = ?", [game]
        )

    def rulings_citing(self, book_id: str, numbers: Sequence[str]) -> list[str]:
        """The ids of the book's rulings that cite one of these rules by number, each once."""
        return self._column(
            f"SELECT DISTINCT from_id FROM refs WHERE book = ? AND from_kind = 'ruling' AND target IN ({_marks(numbers)})",
            [book_id, *numbers],
        )

    def ruling_rule_refs(self, book_id: str, ruling_ids: Sequence[str] | None = None) -> list[tuple[str, str]]:
        """``(ruling id, rule number)`` of each rule or section the book's rulings (those of ``ruling_ids``,
        when given) cite by number, in the order they cite them."""
        where, params = "book = ?", [book_id]
        if ruling_ids is not None:
            where += f" AND id IN ({_marks(ruling_ids)})"
            params += ruling_ids
        return [
            (from_id, target)
            for from_id, target in self._rows(
                "SELECT from_id, target FROM refs WHERE book = ? AND from_kind = 'ruling' AND target_kind != 'term' "
                f"AND from_id IN (SELECT id FROM rulings WHERE {where}) ORDER BY rowid",
                [book_id, *params],
            )
        ]

    def game_rulings_naming(self, game: str, name: str) -> list[dict[str, Any]]:
        """The rulings of every book of ``game`` whose question or answer contains ``name`` (case aside,
        as SQL's LIKE: the caller checks whole words), newest first: ``book``, ``id``, ``faq``,
        ``published``, ``question``, ``answer``."""
        like = f"%{name}%"
        return self.query(
            "SELECT rulings.book, rulings.id, rulings.faq, rulings.published, rulings.question, rulings.answer "
            "FROM rulings JOIN books ON books.id = rulings.book WHERE books.game = ? AND "
            "(rulings.question LIKE ? OR rulings.answer LIKE ?) ORDER BY rulings.published DESC, rulings.id",
            [game, like, like],
        )

    def rulings_naming(self, book_ids: Sequence[str], words: str) -> list[RulingRow]:
        """The rulings of ``book_ids`` whose topic or question contains ``words`` (case aside, as SQL's
        LIKE: the caller checks whole words)."""
        like = f"%{words}%"
        return [
            RulingRow._make(row)
            for row in self._rows(
                f"SELECT {_RULING_ROW} FROM rulings WHERE book IN ({_marks(book_ids)}) "
                "AND (topic LIKE ? OR question LIKE ?)",
                [*book_ids, like, like],
            )
        ]

    # Reader's notes --------------------------------------------------------------------------------
    def warnings(self, book_id: str) -> list[dict[str, Any]]:
        return self.query("SELECT source, line, reason FROM warnings WHERE book = ? ORDER BY rowid", [book_id])

    def truncations(self, book_id: str) -> list[dict[str, Any]]:
        return self.query("SELECT source, line, missing, after FROM truncations WHERE book = ?", [book_id])

    # References ------------------------------------------------------------------------------------
    def cites(self, book_id: str, number: str) -> list[Cite]:
        """What a rule cites (rules and sections, not terms), each once, in the order it cites them."""
        return [
            Cite(target=t, target_kind=k, outcome=o, raw=r, cited_title=c, actual_title=a)
            for t, k, o, r, c, a in self._rows(
                "SELECT DISTINCT target, target_kind, outcome, raw, cited_title, actual_title FROM refs "
                "WHERE book = ? AND from_kind = 'rule' AND from_id = ? AND target_kind != 'term' ORDER BY rowid",
                [book_id, number],
            )
        ]

    def cited_by(self, book_id: str, number: str) -> list[CitedBy]:
        """What cites a rule (rules, terms, rulings), each once, in the book's order."""
        return [
            CitedBy(from_kind=kind, from_id=id)
            for kind, id in self._rows(
                "SELECT DISTINCT from_kind, from_id FROM refs WHERE book = ? AND target = ? "
                "AND target_kind != 'term' ORDER BY rowid",
                [book_id, number],
            )
        ]

    def refs(self, book_id: str) -> list[dict[str, Any]]:
        return self.query("SELECT * FROM refs WHERE book = ? ORDER BY rowid", [book_id])

    def uses(self, book_id: str) -> list[tuple[str, str]]:
        return [(r["rule"], r["term"]) for r in self.query("SELECT rule, term FROM uses WHERE book = ?", [book_id])]

    def vocabulary(self, book_id: str | None = None) -> dict[str, int]:
        """{word: count} of a book, or of every book (counts summed), by word. Read as plain tuples: the
        vocabulary of the full Comprehensive Rules is 4,000 rows, and making each a dict first tripled
        the cost."""
        # A book has one row per word (its key is book, word): no sums to make, the same order.
        sql = (
            "SELECT word, count FROM vocab WHERE book = ? ORDER BY word"
            if book_id
            else "SELECT word, sum(count) AS n FROM vocab GROUP BY word"
        )
        cursor = self.conn.cursor()
        cursor.row_factory = None
        return dict(cursor.execute(sql, [book_id] if book_id else []))
