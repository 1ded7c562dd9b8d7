"""Loads, unloads and rebuilds of one library never lose a book (issue 20): they take the library's
write lock one at a time, a second waits (saying so) or gives up after a bounded wait with one line,
a holder interrupted or killed never leaves a lock that blocks, and what a killed load or unload left
is put right by the next writer.

Real processes, started together: a trial found two `judge load` runs into one book id deleting it
in 3 tries of 3."""

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
from conftest import rules_document, start_judge
from conftest import run_judge as _judge

from rulebook import lock
from rulebook.library import Library, LibraryError
from rulebook.shipped import seeds_dir

ROUNDS = 3
WAIT = 120  # seconds any one process may take, at most


def _start(home: Path, *args, **extra: str):
    return start_judge(home, *args, **extra)


def _document(folder: Path, name: str, rules: int = 600) -> Path:
    return rules_document(folder, name, rules)


def _finish(procs: list[subprocess.Popen]) -> list[tuple[int, str, str]]:
    done = []
    for p in procs:
        try:
            out, err = p.communicate(timeout=WAIT)
        except subprocess.TimeoutExpired:
            for q in procs:
                q.kill()
            raise
        done.append((p.returncode, out, err))
    return done


def _errors(err: str) -> list[str]:
    """The lines of stderr that are not progress or notes: an error is exactly one."""
    return [
        line
        for line in err.splitlines()
        if line.strip() and not line.startswith(("judge: waiting", "judge: reading", "judge: note", "note:"))
    ]


def _says(home: Path, book: str) -> str | None:
    """What rule 100.1 of ``book`` says, with the library consistent: judge books lists it, judge rule finds it."""
    books = _judge(home, "books", "--json")
    assert books.returncode == 0, books.stderr
    if book not in {b["id"] for b in json.loads(books.stdout)}:
        return None
    rule = _judge(home, "rule", "100.1", "--book", book, "--json")
    assert rule.returncode == 0, rule.stderr
    return json.loads(rule.stdout)[0]["text"]


def _no_leftovers(home: Path) -> None:
    left = [
        p.name
        for p in [*home.iterdir(), *(home / "books").iterdir()]
        if p.name.startswith((".old-", ".unload-", ".trash-", ".load-", ".judge-")) or p.name == lock.PID_LOCK_NAME
    ]
    assert left == []


def test_two_loads_into_one_book_id_never_lose_it(tmp_path):
    home = tmp_path / "home"
    alpha, beta = _document(tmp_path, "alpha"), _document(tmp_path, "beta")
    assert _judge(home, "load", alpha, "--book", "same").returncode == 0
    for _ in range(ROUNDS):
        results = _finish(
            [
                _start(home, "load", alpha, "--book", "same", "--json"),
                _start(home, "load", beta, "--book", "same", "--json"),
            ]
        )
        for (code, out, err), _name in zip(results, ("Alpha", "Beta")):
            if code == 0:  # the report is this load's, even when the other ran just before or after
                report = json.loads(out)
                assert report["book"] == "same" and report["rules"] == 600 + 30 + 1, err
            else:  # refused: one clear line, never a traceback
                assert code == 2 and len(_errors(err)) == 1 and "Traceback" not in err, err
        assert any(code == 0 for code, _, _ in results)
        says = _says(home, "same")
        assert says in (
            "Alpha rule 1 of section 100 says what it says.",
            "Beta rule 1 of section 100 says what it says.",
        )
        _no_leftovers(home)


def test_loads_of_different_books_and_an_unload_at_once_keep_every_book(tmp_path):
    home = tmp_path / "home"
    docs = {name: _document(tmp_path, name, rules=200) for name in ("alpha", "beta", "gamma", "delta")}
    assert _judge(home, "load", docs["alpha"], "--book", "a").returncode == 0
    assert _judge(home, "load", docs["beta"], "--book", "b").returncode == 0
    for _ in range(ROUNDS - 1):  # two rounds of three processes (the same id's race has three)
        results = _finish(
            [
                _start(home, "load", docs["gamma"], "--book", "c"),
                _start(home, "load", docs["delta"], "--book", "d"),
                _start(home, "unload", "a"),
            ]
        )
        assert [code for code, _, _ in results] == [0, 0, 0], [err for _, _, err in results]
        assert _says(home, "a") is None
        assert _says(home, "b").startswith("Beta") and _says(home, "c").startswith("Gamma")
        assert _says(home, "d").startswith("Delta")
        _no_leftovers(home)
        assert _judge(home, "load", docs["alpha"], "--book", "a").returncode == 0
        assert _judge(home, "unload", "c").returncode == 0 and _judge(home, "unload", "d").returncode == 0


def test_a_load_waits_for_the_lock_and_says_so(tmp_path):
    home = tmp_path / "home"
    doc = _document(tmp_path, "alpha", rules=100)
    assert _judge(home, "books").returncode == 0
    with lock.WriteLock(home, "load", "other"):
        proc = _start(home, "load", doc, "--book", "a")
        said = proc.stderr.readline()  # after a second of waiting
        assert said == f"judge: waiting for another judge load (pid {os.getpid()}, book 'other') to finish ...\n"
        time.sleep(1)
        assert proc.poll() is None  # still waiting
    [(code, out, err)] = _finish([proc])
    assert code == 0 and "Traceback" not in err, err
    assert out.startswith("loaded a (mtg)")


def test_a_wait_is_bounded_and_ends_in_one_line(tmp_path):
    home = tmp_path / "home"
    old, new = _document(tmp_path, "alpha", rules=100), _document(tmp_path, "beta", rules=100)
    assert _judge(home, "load", old, "--book", "a").returncode == 0
    with lock.WriteLock(home, "unload", "b"):
        done = _judge(home, "load", new, "--book", "a", "--json", JUDGE_LOCK_TIMEOUT="1")
    assert done.returncode == 2
    [line] = _errors(done.stderr)
    assert line.startswith(f"judge: the library {home} is busy: another judge unload (pid {os.getpid()}, book 'b')")
    assert "try again once it has finished" in line
    assert json.loads(done.stdout)["error"]["status"] == 2
    assert _says(home, "a").startswith("Alpha")  # nothing changed


def test_the_rebuild_takes_the_same_lock(tmp_path, monkeypatch):
    home = tmp_path / "home"
    with lock.WriteLock(home, "load", "other"):  # a lookup on a new library must build it: it waits
        done = _judge(home, "rule", "312.1", "--book", "riftbound", JUDGE_LOCK_TIMEOUT="1")
    assert done.returncode == 2 and "is busy: another judge load" in done.stderr, done.stderr
    assert not (home / "judge.db").exists()
    # And holding it, the rebuild says what it is doing to whoever waits.
    seen = []
    original = Library._rebuild

    def rebuild(self, *args):
        seen.append(lock.holder(home))
        return original(self, *args)

    monkeypatch.setattr(Library, "_rebuild", rebuild)
    Library(home, seeds_dir()).open().close()
    assert [h[1:] for h in seen] == [("rebuilding the library", "")]
    assert lock.holder(home) is None  # released


@pytest.mark.parametrize("sig", [signal.SIGKILL, signal.SIGINT])
def test_a_holder_killed_or_interrupted_leaves_no_lock(tmp_path, sig):
    home = tmp_path / "home"
    doc = _document(tmp_path, "alpha", rules=100)
    holder = subprocess.Popen(
        [
            sys.executable,
            "-c",
            "import sys, time; from rulebook.lock import WriteLock; "
            "held = WriteLock(sys.argv[1], 'load', 'x').__enter__(); print('held', flush=True); time.sleep(60)",
            str(home),
        ],
        env=_env(home),
        stdout=subprocess.PIPE,
        text=True,
    )
    assert holder.stdout.readline().strip() == "held"
    assert lock.holder(home)[0] == holder.pid
    holder.send_signal(sig)
    holder.wait(timeout=WAIT)
    started = time.monotonic()
    done = _judge(home, "load", doc, "--book", "a", JUDGE_LOCK_TIMEOUT="30")
    assert done.returncode == 0, done.stderr
    assert time.monotonic() - started < 25 and "waiting" not in done.stderr


def test_ctrl_c_while_waiting_changes_nothing(tmp_path):
    home = tmp_path / "home"
    old, new = _document(tmp_path, "alpha", rules=100), _document(tmp_path, "beta", rules=100)
    assert _judge(home, "load", old, "--book", "a").returncode == 0
    with lock.WriteLock(home, "load", "other"):
        proc = _start(home, "load", new, "--book", "a")
        assert proc.stderr.readline().startswith("judge: waiting for another judge load")
        proc.send_signal(signal.SIGINT)
        [(code, _, err)] = _finish([proc])
    assert code == 130 and "Traceback" not in err, err
    assert _says(home, "a").startswith("Alpha")
    _no_leftovers(home)


# What a process killed in the middle of a load or unload leaves, put right by the next writer --------


def _library_with(tmp_path, *books: str) -> Library:
    lib = Library(tmp_path / "home", seeds_dir())
    for book in books:
        lib.load([_document(tmp_path, book, rules=40)], book)
    return lib


def _rule(lib: Library, book: str) -> str | None:
    store = lib.open()
    try:
        rule = store.rule(book, "100.1")
        return rule.text if rule is not None else None
    finally:
        store.close()


def test_a_load_killed_between_its_renames_loses_nothing(tmp_path):
    lib = _library_with(tmp_path, "alpha")
    books = lib.home / "books"
    (books / "alpha").rename(books / ".old-alpha")  # killed after setting the old book aside
    (lib.home / ".load-alpha-x1y2").mkdir()  # and its staging folder
    assert [s.id for s in lib.user_specs()] == []  # a folder set aside is no book of its own
    assert _rule(lib, "alpha").startswith("Alpha")
    assert (books / "alpha" / "book.json").exists() and not (books / ".old-alpha").exists()
    assert not (lib.home / ".load-alpha-x1y2").exists()


def test_a_load_killed_after_its_renames_keeps_the_new_book(tmp_path):
    lib = _library_with(tmp_path, "alpha", "beta")
    books = lib.home / "books"
    (books / "beta").rename(books / ".old-alpha")  # the old copy set aside, the new one in place
    (books / ".trash-k2j3").mkdir()  # and a deletion cut short
    lib.sync()
    assert not (books / ".old-alpha").exists() and not (books / ".trash-k2j3").exists()
    assert _rule(lib, "alpha").startswith("Alpha") and "beta" not in [s.id for s in lib.user_specs()]


def test_an_unload_killed_before_the_rebuild_keeps_the_book(tmp_path):
    lib = _library_with(tmp_path, "alpha")
    books = lib.home / "books"
    (books / "alpha").rename(books / ".unload-alpha")
    lib.sync()
    assert _rule(lib, "alpha").startswith("Alpha") and not (books / ".unload-alpha").exists()


def test_a_lock_within_one_process_is_taken_once(tmp_path):
    lib = _library_with(tmp_path)
    with lib.locked("load", "x"):
        with lib.locked("rebuilding the library"):  # a load's own rebuild does not wait for the load
            assert lock.holder(lib.home)[1:] == ("load", "x")
        assert lock.holder(lib.home)[1:] == ("load", "x")
    assert lock.holder(lib.home) is None


def test_a_busy_library_is_a_library_error(tmp_path, monkeypatch):
    lib = _library_with(tmp_path)
    monkeypatch.setenv("JUDGE_LOCK_TIMEOUT", "0.2")
    proc = subprocess.Popen(
        [
            sys.executable,
            "-c",
            "import sys, time; from rulebook.lock import WriteLock; "
            "held = WriteLock(sys.argv[1], 'unload', 'x').__enter__(); print('held', flush=True); time.sleep(60)",
            str(lib.home),
        ],
        env=_env(lib.home),
        stdout=subprocess.PIPE,
        text=True,
    )
    try:
        assert proc.stdout.readline().strip() == "held"
        with pytest.raises(LibraryError, match=rf"is busy: another judge unload \(pid {proc.pid}, book 'x'\)"):
            lib.unload("nothing")
    finally:
        proc.kill()
        proc.wait()


# The O_EXCL fallback (platforms with neither flock nor msvcrt): a file naming its process -----------


def _dead_pid() -> int:
    proc = subprocess.Popen([sys.executable, "-c", "pass"])
    proc.wait()
    return proc.pid


def test_the_exclusive_file_fallback_clears_a_dead_holder(tmp_path):
    home = tmp_path
    (home / lock.PID_LOCK_NAME).write_text(f"{_dead_pid()}\tload\tx\n", encoding="utf-8")
    with lock.WriteLock(home, "load", "y", wait=5, method="excl"):
        assert lock.holder(home) == (os.getpid(), "load", "y")
    assert not (home / lock.PID_LOCK_NAME).exists()


def test_the_exclusive_file_fallback_waits_for_a_live_holder(tmp_path):
    home = tmp_path
    holder = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(60)"])
    try:
        (home / lock.PID_LOCK_NAME).write_text(f"{holder.pid}\tunload\tx\n", encoding="utf-8")
        told = []
        with pytest.raises(lock.Busy, match=rf"another judge unload \(pid {holder.pid}, book 'x'\)"):
            with lock.WriteLock(home, "load", "y", wait=1.2, method="excl", notify=told.append):
                pass
        assert told == [f"waiting for another judge unload (pid {holder.pid}, book 'x') to finish ..."]
        assert (home / lock.PID_LOCK_NAME).exists()  # a live holder's file is left alone
    finally:
        holder.kill()
        holder.wait()
