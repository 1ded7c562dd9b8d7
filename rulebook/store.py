"""The SQLite store: books, rules, terms, rulings, references, with FTS5 indexes. See docs/database.md.

The file is an ordinary SQLite database; every table is keyed by ``book``. Writing happens only in
:mod:`rulebook.library` (on a copy that then replaces the file); :class:`Store` reads.
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from rulebook.model import Book, Rule, Ruling, Term

# rulebook.model (its dataclasses cost about 4 ms to create) and rulebook.numbers are imported where a
# method needs them: a search reads rows, and need not pay for them.

SCHEMA_VERSION = "8"  # 3: meaning vectors stored with their book; 4: and their hubness; 5: word pieces;
# 6: rulings' form, FAQ, date and revised rule, and the revisions table; 7: rules' stems, the meaning
# matrix after the columns a search reads, term names indexed in lower case; 8: word pieces' vectors
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
    db.execute("DELETE FROM books WHERE id = ?", [book_id])


def rebuild_fts(db) -> None:
    for table in ("rules", "terms", "rulings"):
        db[table].rebuild_fts()


@dataclass(frozen=True)
class RuleRow:
    """A rule as stored, with the book it belongs to."""

    book: str
    rule: Rule

    @property
    def number(self) -> str:
        return self.rule.number


def _rule(row: dict[str, Any]) -> Rule:
    from rulebook.model import Rule

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
    from rulebook.model import Term

    return Term(
        term=row["term"],
        definition=row["definition"],
        source=row["source"] or "",
        line=row["line"] or 0,
        obsolete=bool(row["obsolete"]),
        headword_recovered=bool(row["recovered"]),
    )


def _ruling(row: dict[str, Any], revises: Iterable[str] = ()) -> Ruling:
    from rulebook.model import Ruling

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
    """Read access to the database file.

    Reading uses the standard library's sqlite3 alone: a lookup should not pay for importing
    sqlite-utils, which :mod:`rulebook.library` uses to write.
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
        return [dict(row) for row in self.conn.execute(sql, list(params))]

    # Books -----------------------------------------------------------------------------------------
    def books(self) -> list[Book]:
        rows = self.query("SELECT * FROM books ORDER BY position, id")
        return [self._book(row) for row in rows]

    def book(self, book_id: str) -> Book | None:
        rows = self.query("SELECT * FROM books WHERE id = ?", [book_id])
        return self._book(rows[0]) if rows else None

    def book_ids(self) -> list[str]:
        return [row["id"] for row in self.query("SELECT id FROM books ORDER BY position, id")]

    def fingerprint(self, book_id: str) -> str | None:
        """What the book was built from (sources, reader, schema): equal fingerprints, equal rules."""
        rows = self.query("SELECT fingerprint FROM books WHERE id = ?", [book_id])
        return rows[0]["fingerprint"] if rows else None

    def is_partial(self, book_id: str) -> bool:
        rows = self.query("SELECT partial FROM books WHERE id = ?", [book_id])
        return bool(rows and rows[0]["partial"])

    def _book(self, row: dict[str, Any]) -> Book:
        from rulebook.model import Book, Source

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

    # Rules -----------------------------------------------------------------------------------------
    def rule(self, book_id: str, number: str) -> Rule | None:
        rows = self.query("SELECT * FROM rules WHERE book = ? AND number = ?", [book_id, number])
        return _rule(rows[0]) if rows else None

    def find_rule(self, text: str, book_id: str | None = None) -> list[RuleRow]:
        """Every book's rule with this number, typed in either game's style."""
        from rulebook import numbers

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
        return [r["number"] for r in self.query("SELECT number FROM rules WHERE book = ? ORDER BY sort", [book_id])]

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

    # Terms and rulings -----------------------------------------------------------------------------
    def terms(self, book_id: str) -> list[Term]:
        rows = self.query("SELECT * FROM terms WHERE book = ? ORDER BY term COLLATE NOCASE", [book_id])
        return [_term(r) for r in rows]

    def term_rows(self, book_id: str | None = None) -> list[tuple[str, Term]]:
        sql = "SELECT * FROM terms" + (" WHERE book = ?" if book_id else "") + " ORDER BY book, term COLLATE NOCASE"
        return [(r["book"], _term(r)) for r in self.query(sql, [book_id] if book_id else [])]

    def rulings(self, book_id: str) -> list[Ruling]:
        rows = self.query("SELECT * FROM rulings WHERE book = ? ORDER BY rowid", [book_id])
        revised: dict[str, list[str]] = {}
        for row in self.query("SELECT ruling, revises FROM revisions WHERE book = ? ORDER BY rowid", [book_id]):
            revised.setdefault(row["ruling"], []).append(row["revises"])
        return [_ruling(r, revised.get(r["id"], ())) for r in rows]

    def warnings(self, book_id: str) -> list[dict[str, Any]]:
        return self.query("SELECT source, line, reason FROM warnings WHERE book = ? ORDER BY rowid", [book_id])

    def truncations(self, book_id: str) -> list[dict[str, Any]]:
        return self.query("SELECT source, line, missing, after FROM truncations WHERE book = ?", [book_id])

    # References ------------------------------------------------------------------------------------
    def cites(self, book_id: str, number: str) -> list[dict[str, Any]]:
        return self.query(
            "SELECT DISTINCT target, target_kind, outcome, raw, cited_title, actual_title FROM refs "
            "WHERE book = ? AND from_kind = 'rule' AND from_id = ? AND target_kind != 'term' ORDER BY rowid",
            [book_id, number],
        )

    def cited_by(self, book_id: str, number: str) -> list[dict[str, Any]]:
        return self.query(
            "SELECT DISTINCT from_kind, from_id FROM refs WHERE book = ? AND target = ? "
            "AND target_kind != 'term' ORDER BY rowid",
            [book_id, number],
        )

    def refs(self, book_id: str) -> list[dict[str, Any]]:
        return self.query("SELECT * FROM refs WHERE book = ? ORDER BY rowid", [book_id])

    def references(self, book_id: str) -> list:
        """The stored references as :class:`rulebook.references.Reference` objects."""
        from dataclasses import fields

        from rulebook.references import Reference

        names = [f.name for f in fields(Reference)]
        out = []
        for row in self.refs(book_id):
            values: dict[str, Any] = {n: row.get(n) for n in names}  # a column's value, as stored
            out.append(Reference(**values))
        return out

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
