"""The SQLite files the library keeps besides judge.db (the notebook, the card library): a schema script
split into its statements (``executescript`` would commit the transaction they are made in), and what an
error of SQLite's says the disk or the folder refused."""

from __future__ import annotations

import sqlite3


def statements(script: str) -> list[str]:
    """The statements of ``script``; a trigger's body holds semicolons of its own.

    >>> statements("CREATE TABLE a (x);\\nCREATE TRIGGER t AFTER INSERT ON a BEGIN\\n  SELECT 1;\\nEND;")
    ['CREATE TABLE a (x);', 'CREATE TRIGGER t AFTER INSERT ON a BEGIN\\n  SELECT 1;\\nEND;']
    """
    out, current = [], []
    for line in script.strip().splitlines():
        current.append(line)
        text = "\n".join(current).strip()
        if text.endswith(";") and (not text.upper().startswith("CREATE TRIGGER") or text.upper().endswith("END;")):
            out.append(text)
            current = []
    return out


def refused(exc: sqlite3.Error) -> str | None:
    """What SQLite's error says was refused, by its primary result code: ``"full"`` (the disk),
    ``"unwritable"`` (a read-only or unopenable file or folder), ``"damaged"`` (not a database, or
    corrupt), else None (busy, a bug, ...)."""
    code = getattr(exc, "sqlite_errorcode", None)
    primary = code & 0xFF if isinstance(code, int) else None
    if primary == sqlite3.SQLITE_FULL:
        return "full"
    if primary in (sqlite3.SQLITE_READONLY, sqlite3.SQLITE_CANTOPEN, sqlite3.SQLITE_PERM):
        return "unwritable"
    if primary in (sqlite3.SQLITE_CORRUPT, sqlite3.SQLITE_NOTADB):
        return "damaged"
    return None
