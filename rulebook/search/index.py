"""The search index: every read a search makes of judge.db, as named, typed methods (docs/database.md).

:class:`SearchIndex` owns the SQL of the search stages and of the meaning vectors: the FTS5 indexes
(bm25 candidates, snippets, document frequencies), the vocabulary, the rules' stored stems, the
references and term uses the rescoring counts, the meaning vectors and the model's word pieces. The
stages (:mod:`rulebook.search`) and :mod:`rulebook.vectors` call these methods and never write SQL.
Get one with :meth:`SearchIndex.of` (one per :class:`~rulebook.store.Store`, kept while it lives).

Rows come back as tuples or named tuples (:class:`RuleCandidate` and the like): a search reads a few
hundred rows, and a named tuple costs less to define and to make than a dict or a dataclass.

Also here, the SQL of the two small databases search keeps beside judge.db: the in-memory FTS5 table
that gives a word's Porter stem (:func:`porter_stems`), and the English word list kept in
``$JUDGE_HOME/cache`` (:func:`open_word_list`, :func:`new_word_list`, :func:`word_list_count`); and
the one write a build of the vectors makes (:func:`write_word_pieces`).
"""

# Annotations evaluated as written, not postponed (no ``from __future__ import annotations``): the
# records below are made as the module is imported, and typing.NamedTuple compiles a postponed
# annotation of each field, which doubled what they cost a search's start.

import sqlite3
import threading
import weakref
from collections.abc import Collection, Iterable, Sequence
from typing import TYPE_CHECKING, Any, ClassVar, NamedTuple

from rulebook.search.hits import HIGHLIGHT
from rulebook.store import TOKENIZE

if TYPE_CHECKING:
    from rulebook.store import Store

Key = tuple[str, str]
"""A rule's (book, number)."""

SNIPPETS = {  # a rule's (its text) and a term's (its definition), FTS5 marking the matches
    "rule": f"snippet(rules_fts, 2, '{HIGHLIGHT[0]}', '{HIGHLIGHT[1]}', '…', 16)",
    "term": f"snippet(terms_fts, 1, '{HIGHLIGHT[0]}', '{HIGHLIGHT[1]}', '…', 16)",
}


class RuleCandidate(NamedTuple):
    """A rule bm25 found, with what the rescoring reads of it."""

    rowid: int
    book: str
    number: str
    parent: str | None
    title: str | None
    text: str | None
    stems: str  # rules.stems (rulebook.search.query.stored_stems)
    score: float  # bm25, higher is better


class TermCandidate(NamedTuple):
    """A glossary term bm25 found."""

    rowid: int
    book: str
    term: str
    rule: str | None  # the rule that defines it (Riftbound's derived terms)
    snip: str | None  # FTS5's snippet of the definition, when asked for
    text: str  # the definition
    score: float


class RulingCandidate(NamedTuple):
    """A ruling bm25 found."""

    book: str
    id: str
    question: str  # a section's heading when the ruling is a section
    snip: str | None  # FTS5's snippet of the whole ruling
    text: str  # the answer
    score: float


class RuleMatch(NamedTuple):
    """A rule found by plain bm25 (the baseline search)."""

    book: str
    number: str
    title: str | None
    text: str | None
    score: float


class RuleLink(NamedTuple):
    """A rule's place in its book: its parent and its stored stems."""

    book: str
    number: str
    parent: str | None
    stems: str


class MeaningRow(NamedTuple):
    """A book's ``meaning`` row, its matrix aside (read a chunk at a time: :meth:`SearchIndex.matrix`)."""

    rowid: int
    model: str  # the sha256 of the model that made the vectors
    numbers: str  # a line per row: the rule numbers it stands for
    remembered: str | None  # a line per memory row: its question
    scales: bytes  # float32 per row
    hubs: bytes  # float32 per row
    pieces: str | None  # meta.wordpieces: the model the word pieces were copied from


class SearchIndex:
    """The reads a search makes of the library, over one read-only connection (a Store's)."""

    _of: ClassVar["weakref.WeakKeyDictionary[Store, SearchIndex]"] = weakref.WeakKeyDictionary()

    def __init__(self, conn: sqlite3.Connection):
        self.conn = conn

    @classmethod
    def of(cls, store: "Store") -> "SearchIndex":
        """The index over ``store``'s connection, made once per store."""
        found = cls._of.get(store)
        if found is None:
            found = cls._of[store] = cls(store.conn)
        return found

    def _rows(self, sql: str, params: Iterable[Any] = ()) -> list[tuple]:
        """Every row of ``sql``, as plain tuples (the connection's own rows are ``sqlite3.Row``)."""
        cursor = self.conn.cursor()
        cursor.row_factory = None
        return cursor.execute(sql, list(params)).fetchall()

    def _one(self, sql: str, params: Iterable[Any] = ()) -> tuple | None:
        cursor = self.conn.cursor()
        cursor.row_factory = None
        return cursor.execute(sql, list(params)).fetchone()

    def _by_book(self, sql: str, keys: Iterable[Key]) -> list[tuple]:
        """``sql`` (``book = ? ... IN ({})``) for the (book, number) ``keys``, a query per book: a book
        and a list of numbers use the table's index, where a list of (book, number) pairs made SQLite
        read every row of the table."""
        numbers: dict[str, list[str]] = {}
        for book, number in keys:
            numbers.setdefault(book, []).append(number)
        out: list[tuple] = []
        for book, some in numbers.items():
            out += self._rows(sql.format(",".join("?" * len(some))), [book, *some])
        return out

    # Books -----------------------------------------------------------------------------------------
    def game(self, book: str) -> str | None:
        """The game of ``book``; None when there is no such book."""
        row = self._one("SELECT game FROM books WHERE id = ?", [book])
        return row[0] if row else None

    def others_of_game_hold_rulings(self, book: str) -> bool:
        """Whether another book of ``book``'s game holds rulings (most libraries: none does)."""
        return (
            self._one(
                "SELECT 1 FROM books AS other JOIN books AS me ON me.id = ? AND other.game = me.game "
                "AND other.id != me.id WHERE EXISTS (SELECT 1 FROM rulings WHERE rulings.book = other.id) LIMIT 1",
                [book],
            )
            is not None
        )

    # The vocabulary --------------------------------------------------------------------------------
    def vocabulary(self, book: str | None = None) -> dict[str, int]:
        """{word: count} of a book, or of every book (counts summed), by word. Read as plain tuples:
        the vocabulary of the full Comprehensive Rules is 4,000 rows, and making each a dict first
        tripled the cost."""
        # A book has one row per word (its key is book, word): no sums to make, the same order.
        if book:
            return dict(self._rows("SELECT word, count FROM vocab WHERE book = ? ORDER BY word", [book]))
        return dict(self._rows("SELECT word, sum(count) AS n FROM vocab GROUP BY word"))

    def word_count(self, book: str, word: str) -> int | None:
        """How often ``book`` uses ``word``; None when it never does."""
        row = self._one("SELECT count FROM vocab WHERE book = ? AND word = ?", [book, word])
        return row[0] if row else None

    def has_vocabulary(self, book: str) -> bool:
        """Whether ``book`` has any word (an unknown book has none)."""
        row = self._one("SELECT EXISTS (SELECT 1 FROM vocab WHERE book = ?)", [book])
        return row is not None and row[0] == 1

    def words_starting(self, book: str, prefix: str) -> list[str]:
        """The words of ``book`` that begin with ``prefix``, in order."""
        return [
            w
            for (w,) in self._rows(
                "SELECT word FROM vocab WHERE book = ? AND substr(word, 1, ?) = ? ORDER BY word",
                [book, len(prefix), prefix],
            )
        ]

    def vocabulary_totals(self, books: Collection[str]) -> dict[str, int | None]:
        """The number of words (counted with repeats) of each of ``books`` that has any."""
        marks = ",".join("?" * len(books))
        return dict(self._rows(f"SELECT book, sum(count) FROM vocab WHERE book IN ({marks}) GROUP BY book", books))

    # Terms and titles ------------------------------------------------------------------------------
    def term_names(self, book: str) -> list[str]:
        """The glossary headwords of ``book``, as written."""
        return [term for (term,) in self._rows("SELECT term FROM terms WHERE book = ?", [book])]

    def names_word_starting(self, book: str, base: str) -> bool:
        """Whether a word of a glossary term or of a rule's title of ``book`` begins with ``base``
        (lower case)."""
        like = [f"{base}%", f"% {base}%"]
        return (
            self._one(
                "SELECT 1 FROM terms WHERE book = ? AND (lower(term) LIKE ? OR lower(term) LIKE ?) UNION ALL "
                "SELECT 1 FROM rules WHERE book = ? AND title IS NOT NULL AND (lower(title) LIKE ? OR lower(title) "
                "LIKE ?) LIMIT 1",
                [book, *like, book, *like],
            )
            is not None
        )

    def names_term(self, books: Sequence[str], words: str) -> bool:
        """Whether a glossary term or a rule's title of ``books`` is ``words`` (lower case; a hyphen
        read as a space on both sides)."""
        marks = ",".join("?" * len(books))
        spaced = words.replace("-", " ")
        return (
            self._one(
                f"SELECT 1 FROM terms WHERE book IN ({marks}) AND replace(lower(term), '-', ' ') = ? UNION ALL "
                f"SELECT 1 FROM rules WHERE book IN ({marks}) AND replace(lower(title), '-', ' ') = ? LIMIT 1",
                [*books, spaced, *books, spaced],
            )
            is not None
        )

    # Full text -------------------------------------------------------------------------------------
    def matches(self, match: str, book: str | None) -> bool:
        """Whether the FTS5 query ``match`` finds a rule or a glossary term of ``book`` (of any book:
        None).

        The index's matches are listed once (``rowid IN``): joined to a book's rows, SQLite matched the
        query against each of the book's 3,000 rules in turn, 10-15 ms for a word the book lacks."""
        for table, owner in (("rules", "rules_fts"), ("terms", "terms_fts")):
            sql = (
                f"SELECT 1 FROM {table} WHERE {table}.rowid IN (SELECT rowid FROM {owner} WHERE {owner} MATCH ?)"
                + (f" AND {table}.book = ?" if book else "")
                + " LIMIT 1"
            )
            if self._one(sql, [match] + ([book] if book else [])) is not None:
                return True
        return False

    def rule_count(self) -> int:
        """How many rules every book loaded has."""
        row = self._one("SELECT count(*) FROM rules")
        return row[0] if row else 0

    def rule_frequency(self, match: str) -> int:
        """How many rules (of every book) the FTS5 query ``match`` finds."""
        row = self._one("SELECT count(*) FROM rules_fts WHERE rules_fts MATCH ?", [match])
        return row[0] if row else 0

    def rule_candidates(
        self, match: str, book: str | None, limit: int, title_weight: float, examples_weight: float
    ) -> list[RuleCandidate]:
        """The ``limit`` rules bm25 ranks first for ``match`` (columns weighted: the number 0, the title
        ``title_weight``, the text 1, the examples ``examples_weight``), best first."""
        # Ranked first, read after: SQLite copies every selected column of every row the MATCH finds into
        # its sorter, and a common word finds hundreds (the texts and stems of 700 rules, for 100 kept).
        weights = f"0.0, {title_weight}, 1.0, {examples_weight}"
        ranked = self._rows(
            f"""
            SELECT rules.rowid AS rowid, -bm25(rules_fts, {weights}) AS score
            FROM rules_fts JOIN rules ON rules.rowid = rules_fts.rowid
            WHERE rules_fts MATCH ? {"AND rules.book = ?" if book else ""}
            ORDER BY bm25(rules_fts, {weights}) LIMIT ?""",
            [match] + ([book] if book else []) + [limit],
        )
        if not ranked:
            return []
        rowids = [rowid for rowid, _ in ranked]
        found = {
            r[0]: r
            for r in self._rows(
                "SELECT rowid, book, number, parent, title, text, stems FROM rules "
                f"WHERE rowid IN ({','.join('?' * len(rowids))})",
                rowids,
            )
        }
        return [RuleCandidate._make(found[rowid] + (score,)) for rowid, score in ranked]

    def snippets(self, kind: str, match: str, rowids: Sequence[int]) -> dict[int, str]:
        """FTS5's snippet of each row (``rule``: of its text, ``term``: of its definition) by its rowid,
        the words of ``match`` marked."""
        index = f"{kind}s_fts"
        return dict(
            self._rows(
                f"SELECT rowid, {SNIPPETS[kind]} AS snip FROM {index} WHERE {index} MATCH ? AND rowid IN "
                f"({','.join('?' * len(rowids))})",
                [match, *rowids],
            )
        )

    def term_candidates(
        self, match: str, book: str | None, limit: int, weights: Iterable[float], snippets: bool = True
    ) -> list[TermCandidate]:
        """The ``limit`` glossary terms bm25 ranks first for ``match`` (columns weighted: the headword,
        the definition), best first; their snippets None without ``snippets``."""
        weighted = ", ".join(str(w) for w in weights)
        sql = f"""
            SELECT terms.rowid AS rowid, terms.book, terms.term, terms.derived_from AS rule,
                   {SNIPPETS["term"] if snippets else "NULL"} AS snip, terms.definition AS text,
                   -bm25(terms_fts, {weighted}) AS score
            FROM terms_fts JOIN terms ON terms.rowid = terms_fts.rowid
            WHERE terms_fts MATCH ? {"AND terms.book = ?" if book else ""}
            ORDER BY bm25(terms_fts, {weighted}) LIMIT ?"""
        return list(map(TermCandidate._make, self._rows(sql, [match] + ([book] if book else []) + [limit])))

    def ruling_candidates(
        self, match: str, books: Sequence[str], limit: int, weights: Iterable[float]
    ) -> list[RulingCandidate]:
        """The rulings bm25 ranks first for ``match`` (columns weighted: the topic, the question, the
        answer) among ``books`` (every book: empty), ``limit`` per book, best first."""
        weighted = ", ".join(str(w) for w in weights)
        where = f"AND rulings.book IN ({', '.join('?' * len(books))})" if books else ""
        sql = f"""
            SELECT rulings.book, rulings.id, rulings.question,
                   snippet(rulings_fts, -1, '{HIGHLIGHT[0]}', '{HIGHLIGHT[1]}', '…', 16) AS snip,
                   rulings.answer AS text, -bm25(rulings_fts, {weighted}) AS score
            FROM rulings_fts JOIN rulings ON rulings.rowid = rulings_fts.rowid
            WHERE rulings_fts MATCH ? {where}
            ORDER BY bm25(rulings_fts, {weighted}) LIMIT ?"""
        rows = self._rows(sql, [match, *books, limit * (len(books) or 1)])
        return list(map(RulingCandidate._make, rows))

    def rules_bm25(self, match: str, book: str | None, limit: int) -> list[RuleMatch]:
        """The ``limit`` rules plain bm25 ranks first for ``match`` (default column weights)."""
        sql = f"""
            SELECT rules.book, rules.number, rules.title, rules.text, -bm25(rules_fts) AS score
            FROM rules_fts JOIN rules ON rules.rowid = rules_fts.rowid
            WHERE rules_fts MATCH ? {"AND rules.book = ?" if book else ""}
            ORDER BY bm25(rules_fts) LIMIT ?"""
        return list(map(RuleMatch._make, self._rows(sql, [match] + ([book] if book else []) + [limit])))

    def matching_stems(self, match: str, book: str, limit: int) -> list[str]:
        """The stored stems of the ``limit`` rules of ``book`` plain bm25 ranks first for ``match``."""
        return [
            stems
            for (stems,) in self._rows(
                "SELECT rules.stems AS stems FROM rules_fts JOIN rules ON rules.rowid = rules_fts.rowid "
                "WHERE rules_fts MATCH ? AND rules.book = ? ORDER BY bm25(rules_fts) LIMIT ?",
                [match, book, limit],
            )
        ]

    # Rules by number -------------------------------------------------------------------------------
    def rule_title_text(self, book: str, number: str) -> tuple[str | None, str | None]:
        """A rule's title and text; KeyError when the book has no such rule."""
        row = self._one("SELECT title, text FROM rules WHERE book = ? AND number = ?", [book, number])
        if row is None:
            raise KeyError((book, number))
        return row[0], row[1]

    def rule_links(self, keys: Iterable[Key]) -> list[RuleLink]:
        """The parent and stored stems of each rule of ``keys`` that exists, in no particular order."""
        rows = self._by_book("SELECT book, number, parent, stems FROM rules WHERE book = ? AND number IN ({})", keys)
        return list(map(RuleLink._make, rows))

    def citation_counts(self, keys: Collection[Key]) -> dict[Key, int]:
        """How many references (from rules, glossary entries and rulings) point at each rule of
        ``keys`` that any does."""
        if not keys:
            return {}
        rows = self._by_book(
            "SELECT book, target, count(*) AS n FROM refs WHERE target_kind = 'rule' AND book = ? AND "
            "target IN ({}) GROUP BY book, target",
            keys,
        )
        return {(book, target): n for book, target, n in rows}

    # Definitions and term uses ---------------------------------------------------------------------
    def defining_rules(self, names: Collection[str], book: str | None) -> list[tuple[str, str, str]]:
        """(book, rule, name) for each rule of ``book`` (every book: None) that defines a term named one
        of ``names`` (lower case): a Riftbound term's rule, then an MTG glossary entry's "See rule"."""
        marks = ",".join("?" * len(names))
        in_book = " AND book = ?" if book else ""
        params = list(names) + ([book] if book else [])
        derived = self._rows(
            f"SELECT book, derived_from AS rule, lower(term) AS term FROM terms WHERE derived_from IS NOT "
            f"NULL AND lower(term) IN ({marks}){in_book}",
            params,
        )
        cited = self._rows(
            f"SELECT book, target AS rule, lower(from_id) AS term FROM refs WHERE from_kind = 'term' AND "
            f"target_kind = 'rule' AND lower(from_id) IN ({marks}){in_book}",
            params,
        )
        return derived + cited

    def term_uses_under(self, book: str, numbers: Sequence[str]) -> list[tuple[str, str]]:
        """(rule, term in lower case) for each glossary term used by a rule of ``book`` numbered one of
        ``numbers`` or beginning with one."""
        where = " OR ".join("rule = ? OR rule LIKE ?" for _ in numbers)
        params = [book] + [x for n in numbers for x in (n, n + "%")]
        return self._rows(f"SELECT rule, lower(term) AS term FROM uses WHERE book = ? AND ({where})", params)

    def term_uses_of(self, keys: Sequence[Key]) -> list[tuple[str, str, str]]:
        """(book, rule, term in lower case) for each glossary term the rules of ``keys`` use."""
        marks = ",".join("(?, ?)" for _ in keys)
        return self._rows(
            f"SELECT book, rule, lower(term) AS term FROM uses WHERE (book, rule) IN (VALUES {marks})",
            [x for k in keys for x in k],
        )

    def term_use_counts(self, terms: Collection[str], book: str | None) -> dict[str, int]:
        """How many rules of ``book`` (every book: None) use each of ``terms`` (lower case)."""
        marks = ",".join("?" * len(terms))
        return dict(
            self._rows(
                f"SELECT lower(term) AS term, count(*) AS n FROM uses WHERE lower(term) IN ({marks})"
                + (" AND book = ?" if book else "")
                + " GROUP BY lower(term)",
                list(terms) + ([book] if book else []),
            )
        )

    # Meaning vectors -------------------------------------------------------------------------------
    def meaning(self, book: str) -> MeaningRow | None:
        """``book``'s meaning vectors (their matrix aside), with the model the word pieces are of; None
        when the book was built without the model."""
        row = self._one(
            "SELECT rowid, model, numbers, remembered, scales, hubs, "
            "(SELECT value FROM meta WHERE key = 'wordpieces') AS pieces FROM meaning WHERE book = ?",
            [book],
        )
        return MeaningRow._make(row) if row is not None else None

    def matrix(self, rowid: int) -> sqlite3.Blob:
        """The ``matrix`` of ``meaning`` row ``rowid``, opened to be read in parts (a context manager)."""
        return self.conn.blobopen("meaning", "matrix", rowid, readonly=True)

    def word_piece(self, piece: str) -> tuple[int, bytes, float] | None:
        """A word piece of the model: its id, its row (int8 values) and its scale; None when the model
        has no such piece."""
        row = self._one("SELECT id, vector, scale FROM wordpieces WHERE piece = ?", (piece,))
        return (row[0], row[1], row[2]) if row is not None else None


# Word pieces, written with a book --------------------------------------------------------------------


def word_pieces_model(db) -> str | None:
    """The sha256 of the model whose word pieces a library being built (a ``sqlite_utils.Database``)
    holds; None when it holds none."""
    row = db.execute("SELECT value FROM meta WHERE key = 'wordpieces'").fetchone()
    return row[0] if row else None


def write_word_pieces(db, pieces: Iterable[tuple[str, int, bytes, float]], model: str) -> None:
    """Replace the word pieces of a library being built with ``pieces`` (piece, id, row, scale: in
    the piece's order, so that each row is appended rather than inserted mid-tree), made by ``model``."""
    db.execute("DELETE FROM wordpieces")
    db.conn.executemany("INSERT INTO wordpieces (piece, id, vector, scale) VALUES (?, ?, ?, ?)", pieces)
    db["meta"].upsert({"key": "wordpieces", "value": model}, pk="key")


# Porter stems: an in-memory FTS5 table -------------------------------------------------------------


_porter = threading.local()


def _porter_table() -> sqlite3.Connection:
    """An in-memory FTS5 table with the books' tokenizer, to read the Porter stem SQLite gives a word;
    one per thread, as each use writes to it (``judge serve`` searches in several threads)."""
    db = getattr(_porter, "db", None)
    if db is None:
        db = _porter.db = sqlite3.connect(":memory:")
        db.execute(f"CREATE VIRTUAL TABLE p USING fts5(w, tokenize='{TOKENIZE}')")
        db.execute("CREATE VIRTUAL TABLE pv USING fts5vocab(p, 'instance')")
    return db


def porter_stems(words: Sequence[str]) -> dict[str, str]:
    """The index's (Porter) stem of each word, as FTS5 computes it."""
    db = _porter_table()
    with db:
        db.executemany("INSERT INTO p(rowid, w) VALUES (?, ?)", list(enumerate(words, 1)))
        found = {words[doc - 1]: term for term, doc in db.execute("SELECT term, doc FROM pv")}
        db.execute("DELETE FROM p")
    return found


# The English word list, kept as a table in $JUDGE_HOME/cache ----------------------------------------


def open_word_list(path: str, made_from: str, version: str) -> sqlite3.Connection | None:
    """The kept word list at ``path`` when it was made from ``made_from`` by table version ``version``;
    None when it is absent, unreadable or made from anything else."""
    try:
        db = sqlite3.connect(f"file:{path}?mode=ro", uri=True, check_same_thread=False)
        if db.execute("SELECT value FROM meta WHERE key = 'source'").fetchone() == (made_from,) and db.execute(
            "SELECT value FROM meta WHERE key = 'version'"
        ).fetchone() == (version,):
            return db
        db.close()
    except sqlite3.Error:
        pass
    return None


def new_word_list(words: Iterable[tuple[str, int]], made_from: str, version: str) -> sqlite3.Connection:
    """A word list in memory: each (word, count) (the first of a word kept), with what it was made
    from; ``serialize()`` it to keep it."""
    db = sqlite3.connect(":memory:", check_same_thread=False)
    db.execute("CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT)")
    db.execute("CREATE TABLE words (word TEXT PRIMARY KEY, count INTEGER NOT NULL) WITHOUT ROWID")
    db.executemany("INSERT OR IGNORE INTO words VALUES (?, ?)", words)
    db.execute("INSERT INTO meta VALUES ('source', ?)", [made_from])
    db.execute("INSERT INTO meta VALUES ('version', ?)", [version])
    db.commit()
    return db


def word_list_count(table: sqlite3.Connection, word: str) -> int | None:
    """The count of ``word`` in a word list; None when it is not listed."""
    row = table.execute("SELECT count FROM words WHERE word = ?", [word]).fetchone()
    return row[0] if row else None
