"""Meaning vectors of a book's rules, computed once and kept beside the library.

A rule is read by the sentence model (:mod:`rulebook.semantic`) as the titles of the headings above
it, its own title and its text: "Combat > Combat Damage Step. 510.1c ..." tells the model what a
bare "A blocked creature assigns ..." is about. Each example of a rule gets a vector of its own, and
a rule is as near a question as the nearest of its rows. Vectors are cached in ``vectors.db`` next to the
library's database (``JUDGE_VECTORS`` names another file): per rule text, so editing one rule
recomputes one vector, and per book, so a search reads one row. The library database stays a pure
function of the documents; this file is a cache that may be deleted at any time.

Computing them costs about a minute of CPU for the 3,275 rules of the full Comprehensive Rules and
a few seconds for the seeds: ``judge load`` does it for the book it loads, search for any book still
missing them.
"""

from __future__ import annotations

import hashlib
import json
import os
import sqlite3
from collections.abc import Callable
from pathlib import Path

import numpy as np

from rulebook.memory import read_memory
from rulebook.semantic import DIMENSIONS, MAX_TOKENS, MODEL_SHA256, Encoder, model_dir, verify
from rulebook.store import Store

VECTORS_NAME = "vectors.db"
VECTORS_ENV = "JUDGE_VECTORS"
RECIPE = f"minilm-{MODEL_SHA256[:12]}-{MAX_TOKENS}-headings-title-text-examples-v2"  # change it to invalidate the cache
SCHEMA = """
CREATE TABLE IF NOT EXISTS texts (digest TEXT PRIMARY KEY, vector BLOB NOT NULL);
CREATE TABLE IF NOT EXISTS books (key TEXT PRIMARY KEY, numbers TEXT NOT NULL, matrix BLOB NOT NULL);
"""

Progress = Callable[[int, int], None]  # (rules done, rules in all)


def cache_path(store: Store) -> Path:
    named = os.environ.get(VECTORS_ENV)
    return Path(named) if named else store.path.parent / VECTORS_NAME


def rule_texts(store: Store, book: str) -> tuple[list[str], list[str]]:
    """(numbers, texts): what the model reads, one row per rule in the book's order, then one per
    example, numbered with its rule's number: a rule is as close to a question as its text or the
    nearest of its examples (a judge describes a situation, and examples are situations).
    """
    rules = store.rules(book)
    by_number = {r.number: r for r in rules}
    out = []
    for rule in rules:
        chain, above = [], by_number.get(rule.parent) if rule.parent else None
        while above is not None:
            if above.title:
                chain.append(above.title)
            above = by_number.get(above.parent) if above.parent else None
        head = " > ".join(reversed(chain))
        out.append(f"{head}. {rule.title or ''}. {rule.text or ''}".strip(". "))
    examples = [(rule.number, example) for rule in rules for example in rule.examples]
    return [r.number for r in rules] + [n for n, _ in examples], out + [e for _, e in examples]


def _digest(text: str) -> str:
    return hashlib.sha256(f"{RECIPE}\n{text}".encode()).hexdigest()


def _connect(path: Path) -> sqlite3.Connection | None:
    """The cache, created if need be; a file that is not a cache (damaged, or something else) is
    moved aside to ``*.damaged`` and a new one started: it only ever held what can be recomputed."""
    for attempt in (1, 2):
        try:
            conn = sqlite3.connect(path, timeout=60)
            conn.execute("PRAGMA journal_mode=WAL")
            conn.executescript(SCHEMA)
            return conn
        except sqlite3.DatabaseError as exc:
            if attempt == 1 and path.is_file() and ("not a database" in str(exc) or "malformed" in str(exc)):
                os.replace(path, path.with_name(path.name + ".damaged"))
                continue
            return None  # a read-only home: vectors are computed for this search and not kept
    return None


def _write(conn: sqlite3.Connection | None, sql: str, rows: list[tuple]) -> None:
    if conn is None:
        return
    try:
        with conn:
            conn.executemany(sql, rows)
    except sqlite3.Error:
        pass  # a full disk or a read-only file: the vectors are used now and computed again next time


def _key(store: Store, book: str) -> tuple[str, str]:
    fingerprint = store.fingerprint(book) or ""
    return fingerprint, f"{book}\n{fingerprint}\n{RECIPE}"


def is_cached(store: Store, book: str) -> bool:
    """The book's vectors are ready: a search will not compute any."""
    fingerprint, key = _key(store, book)
    path = cache_path(store)
    if not fingerprint or not path.exists():
        return False
    try:
        with sqlite3.connect(f"file:{path}?mode=ro", uri=True) as conn:
            return conn.execute("SELECT 1 FROM books WHERE key = ?", (key,)).fetchone() is not None
    except sqlite3.Error:
        return False


def book_vectors(store: Store, book: str, encoder: Encoder | None = None,
                 progress: Progress | None = None) -> tuple[list[str], np.ndarray]:
    """(rule numbers, unit vectors as rows) for the book, from the cache or computed now."""
    fingerprint, key = _key(store, book)
    conn = _connect(cache_path(store))
    if conn is not None and fingerprint:
        row = conn.execute("SELECT numbers, matrix FROM books WHERE key = ?", (key,)).fetchone()
        if row and len(row[1]) == len(json.loads(row[0])) * DIMENSIONS * 2:
            found = json.loads(row[0])
            conn.close()
            return found, np.frombuffer(row[1], dtype=np.float16).reshape(len(found), -1).astype(np.float32)
    ids, texts = rule_texts(store, book)
    digests = [_digest(t) for t in texts]
    known: dict[str, bytes] = {}
    if conn is not None:
        rows = conn.execute("SELECT digest, vector FROM texts WHERE digest IN (SELECT value FROM json_each(?))",
                            (json.dumps(digests),)).fetchall()
        known = {d: v for d, v in rows if len(v) == DIMENSIONS * 2}
    missing = [i for i, d in enumerate(digests) if d not in known]
    if missing:
        verify(model_dir())  # vectors outlive this process: only the published weights may make them
        encoder = encoder or Encoder.load()
        step = 64
        for start in range(0, len(missing), step):
            chunk = missing[start:start + step]
            for i, vector in zip(chunk, encoder.encode([texts[i] for i in chunk])):
                known[digests[i]] = vector.astype(np.float16).tobytes()
            if progress:
                progress(min(start + step, len(missing)), len(missing))
        _write(conn, "INSERT OR REPLACE INTO texts VALUES (?, ?)", [(digests[i], known[digests[i]]) for i in missing])
    matrix = np.frombuffer(b"".join(known[d] for d in digests), dtype=np.float16).reshape(len(ids), DIMENSIONS)
    if fingerprint:
        _write(conn, "INSERT OR REPLACE INTO books VALUES (?, ?, ?)", [(key, json.dumps(ids), matrix.tobytes())])
    if conn is not None:
        conn.close()
    return ids, matrix.astype(np.float32)


def nearest(store: Store, book: str, query: str, depth: int, encoder: Encoder | None = None
            ) -> list[tuple[str, float]]:
    """The book's rules closest in meaning to the query: (number, cosine), best first.

    A rule's cosine is its best row's (its text or one of its examples) or, with the question
    adapter, that of the nearest remembered question it answers (:mod:`rulebook.memory`).
    """
    encoder = encoder or Encoder.load()
    ids, matrix = book_vectors(store, book, encoder)
    if not ids:
        return []
    question = encoder.encode_questions([query])[0]
    sims = matrix @ question
    best: dict[str, float] = {}
    for i in np.argsort(-sims, kind="stable"):
        best.setdefault(ids[i], float(sims[i]))
        if len(best) == depth:
            break
    memory = read_memory() if encoder.adapter is not None else None
    if memory is not None:
        for number, (cosine, _) in memory.recall(store, book, question, depth).items():
            if cosine > best.get(number, -1.0):
                best[number] = cosine
    return sorted(best.items(), key=lambda item: -item[1])[:depth]
