"""Eight processes at once against one library (issue 25): loading books and cards, searching, looking up
and adding rulings, on a new library (all of them wanting it built first). No process fails, nothing is
lost: every book loaded is there, every ruling added, every card. (Loads and unloads of one library at
once: tests/test_library_lock.py.)

The library's write lock (rulebook.lock) orders loads and rebuilds; the notebook and the card library
are SQLite files in WAL mode, each write one transaction (docs/decisions.md, "When things go wrong")."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from conftest import judge_env as _env
from conftest import rules_document
from conftest import run_judge as _judge

WAIT = 120  # seconds any one process may take, at most
CARDS = Path(__file__).parent / "data" / "cards" / "invented-scryfall.json"


def _at_once(home: Path, jobs: list[tuple]) -> list[tuple[tuple, int, str, str]]:
    """Start every job, then wait for each: (args, status, stdout, stderr)."""
    procs = [
        subprocess.Popen(
            [sys.executable, "-m", "judge.cli", *map(str, args)],
            env=_env(home),
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        for args in jobs
    ]
    done = []
    try:
        for args, proc in zip(jobs, procs):
            out, err = proc.communicate(timeout=WAIT)
            done.append((args, proc.returncode, out, err))
    finally:
        for proc in procs:
            if proc.poll() is None:
                proc.kill()
    return done


def _no_errors(done) -> None:
    for args, code, _, err in done:
        assert code == 0, (args, code, err)
        said = [line for line in err.splitlines() if line.strip()]
        assert all(line.startswith(("judge: waiting for another", "note: ", "judge: note: ")) for line in said), (
            args,
            err,
        )


def _says(home: Path, book: str) -> str:
    done = _judge(home, "rule", "100.1", "--book", book, "--json")
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)[0]["text"]


def _rulings(home: Path) -> list[str]:
    done = _judge(home, "ruling", "list", "--json")
    assert done.returncode == 0, done.stderr
    return sorted(r["question"] for r in json.loads(done.stdout))


def _books(home: Path) -> set[str]:
    done = _judge(home, "books", "--json")
    assert done.returncode == 0, done.stderr
    return {b["id"] for b in json.loads(done.stdout)}


def _add(question: str, rule: str) -> tuple:
    return ("ruling", "add", "-q", question, "-a", "Yes.", "-c", rule, "-b", "riftbound")


def test_eight_processes_on_a_new_library(tmp_path):
    shared = tmp_path / "home"
    done = _at_once(
        shared,
        [
            ("load", rules_document(tmp_path, "alpha"), "--book", "alpha"),
            ("load", rules_document(tmp_path, "beta"), "--book", "beta"),
            ("load", CARDS),
            ("search", "priority", "--game", "riftbound", "--json"),
            ("rule", "312.1", "--book", "riftbound"),
            _add("First?", "312.1"),
            _add("Second?", "312.2"),
            _add("Third?", "312.1"),
        ],
    )
    _no_errors(done)
    search = next(out for args, _, out, _ in done if args[0] == "search")
    assert json.loads(search)["hits"], search
    assert _books(shared) >= {"alpha", "beta", "riftbound", "mtg"}
    assert _says(shared, "alpha").startswith("Alpha rule 1") and _says(shared, "beta").startswith("Beta rule 1")
    assert _rulings(shared) == ["First?", "Second?", "Third?"]
    assert _judge(shared, "card", "practice bolt").returncode == 0
    assert not list(shared.glob(".judge-*.db")) and not list(shared.glob(".load-*"))
