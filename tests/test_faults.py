"""Damaged state, a read-only library and a full disk (issue 25), and JSON errors that carry the names
their message suggests.

- A damaged judge.db (garbage, truncated, pages overwritten) is a cache: the next command builds it again
  from the books' sources, saying so in one line, and answers.
- A damaged notebook.db is the judge's own records: never written or replaced; every ``judge ruling``
  command says in one line how to recover it (exit 2); the other commands keep working.
- A read-only library folder or a full disk: one line, and the library as it was. Real ones (a tmpfs,
  remounted read-only) when this process may mount; otherwise a folder without write permission (not as
  root, whose writes chmod does not stop) and a write that fails as a full disk fails.
"""

from __future__ import annotations

import contextlib
import errno
import hashlib
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import judge_in
from conftest import rules_document as _document

from judge.errors import named_suggestions


def _lines(err: str) -> list[str]:
    return [line for line in err.splitlines() if line.strip()]


def _sha(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


@pytest.fixture(scope="module")
def library(tmp_path_factory) -> Path:
    """A library of the default books, a small user book, two invented cards and a ruling."""
    home = tmp_path_factory.mktemp("faults") / "home"
    docs = tmp_path_factory.mktemp("docs")
    cards = Path(__file__).parent / "data" / "cards" / "invented-scryfall.json"
    for args in (
        ("load", _document(docs, "alpha"), "--book", "alpha"),
        ("load", cards),
        ("ruling", "add", "-q", "Can she respond?", "-a", "Yes.", "-c", "312.1", "-b", "riftbound"),
    ):
        code, _, err = judge_in(home, *args)
        assert code == 0, err
    return home


# A damaged judge.db is built again ----------------------------------------------------------------------


def _garbage(db: Path) -> None:
    db.write_bytes(os.urandom(64 * 1024))


def _truncated(db: Path) -> None:
    with db.open("r+b") as f:
        f.truncate(db.stat().st_size // 5)


def _pages_overwritten(db: Path) -> None:
    size = db.stat().st_size
    with db.open("r+b") as f:  # the header stays good: only SQLite's check of the pages finds it
        f.seek(size // 2 // 4096 * 4096)
        f.write(os.urandom(16 * 4096))


@pytest.mark.parametrize("damage", [_garbage, _truncated, _pages_overwritten])
def test_a_damaged_judge_db_is_built_again_and_the_command_answers(library, damage):
    damage(library / "judge.db")
    code, out, err = judge_in(library, "rule", "100.1", "--book", "alpha", "--json")
    assert code == 0, err
    assert json.loads(out)[0]["text"].startswith("Alpha rule 1")
    [note] = [line for line in _lines(err) if "damaged" in line]
    assert note.startswith(f"judge: note: {library / 'judge.db'} was damaged (") and "building it again" in note
    assert "Traceback" not in err
    code, out, err = judge_in(library, "ruling", "list", "--json")  # the notebook was not touched
    assert code == 0 and [r["question"] for r in json.loads(out)] == ["Can she respond?"]
    code, _, err = judge_in(library, "rule", "100.1", "--book", "alpha")
    assert code == 0 and "damaged" not in err  # built once


# A damaged notebook.db is never overwritten -------------------------------------------------------------

RULING_COMMANDS = [
    ("ruling", "list"),
    ("ruling", "show", "1"),
    ("ruling", "search", "respond"),
    ("ruling", "add", "-q", "Q", "-a", "A", "-b", "riftbound"),
    ("ruling", "edit", "1", "-a", "No."),
    ("ruling", "remove", "1"),
    ("ruling", "export"),
    ("ruling", "check"),
]


@pytest.fixture
def damaged_notebook(library, tmp_path, request):
    """The library's notebook damaged (the kind given), put back whole after the test; yields its export."""
    notebook = library / "notebook.db"
    code, out, _ = judge_in(library, "ruling", "export")
    assert code == 0
    export = tmp_path / "rulings.json"
    export.write_text(out, encoding="utf-8")
    saved = tmp_path / "saved"
    saved.mkdir()
    for f in library.glob("notebook.db*"):
        shutil.copy2(f, saved / f.name)
    if request.param == "garbage":
        for f in library.glob("notebook.db-*"):
            f.unlink()
        notebook.write_bytes(os.urandom(8192))
    else:  # a copy cut short: the header says more pages than the file holds
        judge_in(library, "ruling", "list")  # (its write-ahead log folded into the file, then gone)
        for f in library.glob("notebook.db-*"):
            f.unlink()
        with notebook.open("r+b") as f:
            f.truncate(4096 * 2)
    yield export
    for f in library.glob("notebook.db*"):
        f.unlink()
    for f in saved.iterdir():
        shutil.copy2(f, library / f.name)


@pytest.mark.parametrize("damaged_notebook", ["garbage", "truncated"], indirect=True)
def test_a_damaged_notebook_is_left_as_it_is_and_each_ruling_command_says_how_to_recover(
    library, damaged_notebook, tmp_path
):
    notebook = library / "notebook.db"
    before = _sha(notebook)
    for args in RULING_COMMANDS:
        code, out, err = judge_in(library, *args, "--json")
        [line] = _lines(err)
        assert code == 2, (args, err)
        assert line.startswith(f"judge: {notebook} is damaged ("), line
        assert "move it aside" in line and "judge ruling import" in line and "judge ruling export" in line
        error = json.loads(out)["error"]
        assert error["status"] == 2 and error["file"] == str(notebook)
        assert _sha(notebook) == before  # never written, never replaced
    # What needs no notebook keeps working.
    for args in (
        ("rule", "312.1", "--book", "riftbound"),
        ("search", "priority"),
        ("books",),
        ("card", "practice bolt"),
    ):
        code, _, err = judge_in(library, *args)
        assert code == 0, (args, err)
    # The recovery the message gives: moved aside, the last export imported.
    notebook.rename(library / "notebook.db.damaged")
    code, _, err = judge_in(library, "ruling", "import", damaged_notebook)
    assert code == 0, err
    code, out, _ = judge_in(library, "ruling", "list", "--json")
    assert code == 0 and [r["question"] for r in json.loads(out)] == ["Can she respond?"]
    (library / "notebook.db.damaged").unlink()


def test_a_damaged_card_library_is_one_line_and_search_reads_the_rules_alone(library, tmp_path):
    saved = tmp_path / "saved"
    saved.mkdir()
    for f in library.glob("cards.db*"):
        shutil.move(f, saved / f.name)
    (library / "cards.db").write_bytes(os.urandom(8192))
    try:
        code, out, err = judge_in(library, "search", "priority", "--game", "riftbound")
        assert code == 0 and out.strip(), err
        [note] = _lines(err)
        assert note.startswith(f"note: {library / 'cards.db'}: cannot open the card library") and "rules alone" in note
        code, _, err = judge_in(library, "card", "practice bolt")
        [line] = _lines(err)
        assert code == 2 and "moved away and the card files loaded again" in line, err
    finally:
        for f in library.glob("cards.db*"):
            f.unlink()
        for f in saved.iterdir():
            shutil.move(f, library / f.name)


# A read-only library folder, a full disk ---------------------------------------------------------------


@contextlib.contextmanager
def _tmpfs(path: Path, size: str):
    """A tmpfs of ``size`` mounted at ``path`` (then unmounted); skips when this process may not mount."""
    path.mkdir(parents=True, exist_ok=True)
    if sys.platform != "linux" or os.geteuid() != 0 or shutil.which("mount") is None:
        pytest.skip("mounting a tmpfs needs root on Linux")
    done = subprocess.run(["mount", "-t", "tmpfs", "-o", f"size={size}", "tmpfs", str(path)], capture_output=True)
    if done.returncode != 0:
        pytest.skip(f"cannot mount a tmpfs here: {done.stderr.decode().strip()}")
    try:
        yield path
    finally:
        subprocess.run(["umount", "-l", str(path)], capture_output=True)


def _remount(path: Path, mode: str) -> None:
    subprocess.run(["mount", "-o", f"remount,{mode}", str(path)], check=True, capture_output=True)


def _snapshot(home: Path) -> dict[str, str]:
    return {str(p.relative_to(home)): _sha(p) for p in sorted(home.rglob("*")) if p.is_file() and p.name != ".lock"}


def _read_only_checks(home: Path, docs: Path) -> None:
    code, out, err = judge_in(home, "rule", "312.1", "--book", "riftbound")
    assert code == 0 and out.startswith("312.1"), err  # lookups read it
    for args in (
        ("load", _document(docs, "beta"), "--book", "beta"),
        ("ruling", "add", "-q", "Q", "-a", "A", "-b", "riftbound"),
        ("config", "game", "mtg"),
    ):
        code, _, err = judge_in(home, *args)
        [line] = _lines(err)
        assert code == 2 and line.startswith("judge: ") and "Traceback" not in err, (args, err)
        assert "cannot be written" in line or "read-only" in line.lower() or "readonly" in line.lower(), line


def test_a_read_only_library_is_read_and_refuses_writes_in_one_line(tmp_path):
    docs = tmp_path / "docs"
    docs.mkdir()
    if os.geteuid() == 0:  # root writes through chmod: a read-only file system instead
        with _tmpfs(tmp_path / "mnt", "40m") as mnt:
            home = mnt / "home"
            assert judge_in(home, "books")[0] == 0
            before = _snapshot(home)
            _remount(mnt, "ro")
            try:
                _read_only_checks(home, docs)
            finally:
                _remount(mnt, "rw")
            assert _snapshot(home) == before
            assert judge_in(home, "load", _document(docs, "beta"), "--book", "beta")[0] == 0  # usable again
        return
    home = tmp_path / "home"
    assert judge_in(home, "books")[0] == 0
    before = _snapshot(home)
    modes = {p: p.stat().st_mode for p in [home, *home.rglob("*")]}
    for p in modes:
        p.chmod(modes[p] & ~0o222)
    try:
        _read_only_checks(home, docs)
    finally:
        for p, mode in modes.items():
            p.chmod(mode)
    assert _snapshot(home) == before


def _full_disk_checks(home: Path, docs: Path, before: dict[str, str]) -> None:
    code, _, err = judge_in(home, "load", _document(docs, "beta", rules=400), "--book", "beta")
    [line] = _lines(err)
    assert code == 2 and "no space left on the device" in line and "the library is as it was" in line, err
    assert _snapshot(home) == before and not list(home.glob(".judge-*.db")) and not list(home.glob(".load-*"))
    code, out, err = judge_in(home, "rule", "312.1", "--book", "riftbound")
    assert code == 0 and out.startswith("312.1"), err


def test_a_full_disk_is_one_line_and_the_library_as_it_was(library, tmp_path):
    docs = tmp_path / "docs"
    docs.mkdir()
    room = (library / "judge.db").stat().st_size // 2**20 + 6  # the default books' judge.db, not a copy of it
    with _tmpfs(tmp_path / "mnt", f"{room}m") as mnt:
        home = mnt / "home"
        code, _, err = judge_in(home, "books")
        assert code == 0, err
        _full_disk_checks(home, docs, _snapshot(home))
        code, _, err = judge_in(home, "ruling", "add", "-q", "Q", "-a", "A", "-b", "riftbound")
        assert code in (0, 2) and "Traceback" not in err  # a notebook fits, or one line says the disk is full


def test_a_write_that_finds_the_disk_full_is_one_line(library, tmp_path, monkeypatch):
    """Where no tmpfs can be mounted: the copy a rebuild starts from fails as a full disk fails."""
    import rulebook.library

    def full(src, dst, *args, **kwargs):
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC), str(dst))

    monkeypatch.setattr(rulebook.library.shutil, "copyfile", full)
    before = {k: v for k, v in _snapshot(library).items() if not k.startswith(("notebook", "cards", "cache"))}
    code, _, err = judge_in(library, "load", _document(tmp_path, "beta"), "--book", "beta")
    [line] = _lines(err)
    assert code == 2 and "no space left on the device" in line and "the library is as it was" in line, err
    after = {k: v for k, v in _snapshot(library).items() if not k.startswith(("notebook", "cards", "cache"))}
    assert after == before


# JSON errors carry the names their message suggests -----------------------------------------------------

BAD_INPUTS = [
    ("rule", "312.1", "--book", "riftbnd"),
    ("rule", "312.1", "--game", "riftbnd"),
    ("rule", "312.99", "--book", "riftbound"),
    ("rule", "100.99", "--book", "alpha"),
    ("search", "priority", "--game", "mgt"),
    ("search", "priority", "--book", "alpah"),
    ("define", "zzqxv"),
    ("define", "priority", "--book", "alph"),
    ("rulings", "falling", "--book", "riftbond"),
    ("card", "practice drake"),
    ("card", "zzqqxx"),
    ("cards", "bolt", "--game", "mtgg"),
    ("unload", "alpah"),
    ("config", "gmae", "mtg"),
    ("config", "game", "mgt"),
    ("citations", "--book", "riftbound", "--table", "v1.22"),
    ("history", "312.1", "--game", "rift"),
    ("ruling", "list", "--game", "mgg"),
    ("ruling", "show", "99"),
    ("refs", "312.1", "--book", "riftbund"),
    ("path", "312.1", "312.2", "--book", "riftbund"),
    ("diff", "riftbound", "alpah"),
    ("export", "json", "--book", "alpah"),
    ("serch", "x"),
    ("rule", "312.1", "--bok", "riftbound"),
]

SCENARIOS = {
    "phase": "game: riftbound\nplayers: [Ana, Ben]\nturn: {player: Ana, phase: mian}\nactions: []\n",
    "player": "game: riftbound\nplayers: [Ana, Ben]\nturn: {player: Anna, phase: main}\nactions: []\n",
    "verb": (
        "game: riftbound\nplayers: [Ana, Ben]\nturn: {player: Ana, phase: main}\nstate:\n  units:\n"
        "    - {name: Jinx, controller: Ana, at: base, might: 3}\nactions:\n  - Ana casts Jinx\n"
    ),
    "key": "game: mtg\nplayers: [Ana, Ben]\nturn: {player: Ana, phase: main1}\nstate:\n  hands: {Ana: []}\nactions: []\n",
}


def test_named_suggestions_reads_every_form_the_messages_use():
    assert named_suggestions("no book 'rb' (did you mean \"rb-1.3\"?); loaded books: rb-1.3") == ["rb-1.3"]
    assert named_suggestions("No such command 'serch'. Did you mean 'search', 'serve'?") == ["search", "serve"]
    assert named_suggestions('no card named "X" (in the mtg card library: did you mean "A", "B"?)') == ["A", "B"]
    assert named_suggestions("no card named 'x'; did you mean: Practice Bolt, Drill Sergeant Drake") == [
        "Practice Bolt",
        "Drill Sergeant Drake",
    ]
    assert named_suggestions("no rule 312.99 in riftbound") == []


def test_every_error_that_says_did_you_mean_carries_its_suggestions(library, tmp_path):
    cases = [*BAD_INPUTS]
    for name, text in SCENARIOS.items():
        path = tmp_path / f"{name}.yaml"
        path.write_text(text, encoding="utf-8")
        cases.append(("explain", str(path)))
    meant = 0
    for args in cases:
        code, out, err = judge_in(library, *args, "--json")
        assert code in (1, 2), (args, code, out, err)
        error = json.loads(out)["error"]
        assert error["message"] in err, (args, err)
        suggestions = error["suggestions"]
        if "did you mean" in error["message"].lower():
            meant += 1
            assert suggestions, (args, error)
        for name in suggestions:
            if "did you mean" in error["message"].lower():
                assert name in error["message"], (args, name, error["message"])
    assert meant >= 20  # the inputs do reach the "did you mean" of most commands
