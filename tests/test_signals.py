"""Signals and pipes (issue 25): Ctrl-C in the middle of long work prints one line, exits 130 and leaves
the library as it was (no half-written judge.db, no book half-loaded); a reader that stops reading
(``judge rule 601 --all | head -1``) ends the command quietly with status 0.

Real processes: the signal is sent once the build's temporary file exists (the work is then underway),
and the pipe is closed before the command writes a byte."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from conftest import judge_env as _env
from conftest import rules_document
from conftest import run_judge as _judge
from conftest import start_judge as _start

WAIT = 120  # seconds any one process may take, at most


def _document(folder: Path, rules: int) -> Path:
    """A Magic rules text of ``rules`` rules, long enough that its load lasts, each about priority."""
    return rules_document(folder, "big", rules, about=" about priority")


pytestmark = pytest.mark.skipif(os.name == "nt", reason="POSIX signals and pipes")


def _interrupt_while_building(proc: subprocess.Popen, home: Path) -> tuple[int, str]:
    """Ctrl-C once the process writes its new judge.db (a ``.judge-*.db`` beside the library's)."""
    while proc.poll() is None and not list(home.glob(".judge-*.db")):
        time.sleep(0.005)
    assert proc.poll() is None, "the work ended before it could be interrupted"
    proc.send_signal(signal.SIGINT)
    _, err = proc.communicate(timeout=WAIT)
    return proc.returncode, err


def _state(home: Path) -> tuple:
    """What a reader of the library sees: judge.db's identity and the books' folders."""
    db = (home / "judge.db").stat()
    return (db.st_ino, db.st_size, db.st_mtime_ns), sorted(p.name for p in (home / "books").glob("*"))


@pytest.fixture(scope="module")
def built(tmp_path_factory) -> Path:
    """A library with the default books built, and a book loaded (commands print many lines of it)."""
    home = tmp_path_factory.mktemp("signals") / "home"
    folder = tmp_path_factory.mktemp("docs")
    done = _judge(home, "load", _document(folder, 200), "--book", "small")
    assert done.returncode == 0, done.stderr
    return home


def test_ctrl_c_during_a_load_is_one_line_and_changes_nothing(built, tmp_path):
    before = _state(built)
    proc = _start(built, "load", _document(tmp_path, 2000), "--book", "big")
    code, err = _interrupt_while_building(proc, built)
    assert code == 130, err
    assert [line for line in err.splitlines() if line.strip()] == ["judge: interrupted; the library is as it was"]
    assert _state(built) == before  # the old judge.db, untouched; no folder of the book
    assert not list(built.glob(".judge-*.db")) and not list(built.glob(".load-*"))
    books = _judge(built, "books", "--json")
    assert books.returncode == 0 and "big" not in {b["id"] for b in json.loads(books.stdout)}


def test_ctrl_c_during_the_first_build_leaves_no_database(tmp_path):
    home = tmp_path / "home"
    proc = _start(home, "search", "priority")  # a new library: the lookup builds it first
    code, err = _interrupt_while_building(proc, home)
    assert code == 130 and "Traceback" not in err, err
    assert not (home / "judge.db").exists() and not list(home.glob(".judge-*.db"))
    done = _judge(home, "rule", "312.1", "--book", "riftbound")  # the next command builds it whole
    assert done.returncode == 0 and done.stdout.startswith("312.1"), done.stderr


@pytest.mark.parametrize(
    "args",
    [
        ("rule", "100", "--all", "--book", "small"),
        ("rule", "100", "--all", "--book", "small", "--json"),
        ("rule", "312.1", "--book", "riftbound"),
        ("search", "priority", "--limit", "50"),
        ("export", "json", "--book", "small"),
        ("graph", "--book", "small"),
    ],
)
def test_a_reader_that_stops_reading_ends_the_command_quietly(built, args):
    read, write = os.pipe()
    os.close(read)  # gone before the command writes a byte: its first write meets a closed pipe
    try:
        proc = _start(built, *args, stdout=write)
    finally:
        os.close(write)
    _, err = proc.communicate(timeout=WAIT)
    assert proc.returncode == 0, err
    assert "Traceback" not in err and "Broken pipe" not in err and "Exception ignored" not in err, err


def test_head_in_a_shell_pipeline(built):
    done = subprocess.run(
        [
            "bash",
            "-c",
            f'"{sys.executable}" -m judge.cli rule 100 --all --book small | head -1; exit "${{PIPESTATUS[0]}}"',
        ],
        env=_env(built),
        capture_output=True,
        text=True,
        timeout=WAIT,
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() and len(done.stdout.splitlines()) == 1
    assert done.stderr == ""
