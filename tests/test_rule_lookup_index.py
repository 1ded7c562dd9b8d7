"""A rule lookup finds a number's reprints (``744.5-2``) through the rules' key, not a scan of the book:
``judge serve`` answers a lookup per request (bench/serve_load.py)."""

from __future__ import annotations

import sqlite_utils

from rulebook.store import Store, create_schema

NUMBERS = ["744", "744.5", "744.5-2", "744.5-10", "744.50", "744.5.a", "744.5a", "744.4-2", "7445-2"]


def _store(tmp_path) -> Store:
    path = tmp_path / "judge.db"
    db = sqlite_utils.Database(path)
    create_schema(db)
    rows = [{"book": "b", "number": n, "parent": "744", "sort": f"{i:04d}", "depth": 2} for i, n in enumerate(NUMBERS)]
    db.table("rules").insert_all([*rows, {"book": "c", "number": "744.5-3", "sort": "0002a", "depth": 2}])
    db.conn.close()
    return Store(path)


def test_a_number_finds_itself_and_its_reprints_only(tmp_path):
    store = _store(tmp_path)
    assert [r.number for r in store.records_numbered("744.5", ["b"])] == ["744.5", "744.5-2", "744.5-10"]
    assert [r.number for r in store.records_numbered("744.5", ["b", "c"])] == [
        "744.5",
        "744.5-2",
        "744.5-3",
        "744.5-10",
    ]
    assert [r.number for r in store.records_numbered("744.5-2", ["b"])] == ["744.5-2"]
    assert [r.number for r in store.records_numbered("744", ["b"])] == ["744"]


def test_the_lookup_searches_the_key_and_scans_nothing(tmp_path):
    store = _store(tmp_path)
    plans: list[str] = []  # the query as the method runs it, read from its plan
    store.conn.set_trace_callback(plans.append)
    store.records_numbered("744.5", ["b"])
    store.conn.set_trace_callback(None)
    query = next(p for p in plans if p.lstrip().upper().startswith("SELECT"))
    plan = [row[3] for row in store.conn.execute(f"EXPLAIN QUERY PLAN {query}")]
    reads = [step for step in plan if " rules" in step]
    assert reads and all("number=?" in step or "number>?" in step for step in reads), plan
