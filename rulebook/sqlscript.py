"""A schema script split into its statements, for the SQLite files created by a script of their own
(the notebook, the card library): ``executescript`` would commit the transaction they are made in."""

from __future__ import annotations


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
