"""A lookup must feel instant: the commands a judge runs at the table import only what they use
(measured, not timed: we check what got imported; bench/startup.py times them). And judge.db is
checked cheaply, by a stamp of the sources' stat, without letting an edited source go unnoticed."""

import json
import os
import subprocess
import sys
import time
from pathlib import Path

from conftest import modules_imported

REPO = Path(__file__).resolve().parents[1]
HEAVY = (
    "networkx",
    "sqlite_utils",
    "pydantic",
    "engine.riftbound",
    "engine.mtg",
    "hypothesis",
    "numpy",
    "rich",
    "yaml",
    "rulebook.library",
    "rulebook.readers",
    "rulebook.graph",
)


def imported(home, *args):
    seen = modules_imported(home, *args)
    return {
        "heavy": [m for m in HEAVY if m in seen],
        "commands": sorted(m for m in seen if m.startswith("judge.commands.")),
        "model": "rulebook.model" in seen,
        "rapidfuzz": "rapidfuzz" in seen,
    }


def test_rule_lookup_imports_only_its_command_and_sqlite3(tmp_path):
    seen = imported(tmp_path, "rule", "312.1", "--book", "riftbound")
    assert seen["heavy"] == []
    assert seen["commands"] == ["judge.commands.options", "judge.commands.rule"]
    # No fuzzy matching when found (rulebook.nearest is imported by the command on a miss). The model's
    # dataclasses are imported with the store (issue 22: imports at the top; about 5 ms), not built here.
    assert not seen["rapidfuzz"]


def test_rule_lookup_without_book_imports_nothing_heavy(tmp_path):
    seen = imported(tmp_path, "rule", "312.1")
    assert seen["heavy"] == [] and seen["commands"] == ["judge.commands.options", "judge.commands.rule"]


def test_search_imports_nothing_heavy(tmp_path):
    seen = imported(tmp_path, "search", "priorty", "--words")
    assert [m for m in seen["heavy"] if m != "yaml"] == []  # yaml: the search vocabulary's file
    assert seen["commands"] == ["judge.commands.options", "judge.commands.search"]


def test_define_imports_nothing_heavy(tmp_path):
    seen = imported(tmp_path, "define", "focus", "--json")
    assert seen["heavy"] == [] and seen["commands"] == ["judge.commands.define", "judge.commands.options"]


def test_help_and_usage_errors_still_list_every_command(judge):
    code, out, _ = judge("--help")
    assert code == 0
    for name in (
        "books",
        "load",
        "rule",
        "search",
        "define",
        "rulings",
        "export",
        "refs",
        "path",
        "graph",
        "check",
        "explain",
    ):
        assert name in out
    code, _, err = judge("rul", "312.1")
    assert code == 2 and "No such command 'rul'" in err and "Traceback" not in err
    code, _, err = judge("rule")
    assert code == 2 and "Missing argument" in err and "judge rule --help" in err
    code, _, err = judge("rule", "312.1", "--depth", "x")
    assert code == 2 and "--depth" in err and len(err.strip().splitlines()) == 1  # with where to read more


# The stamp ------------------------------------------------------------------------------------------


def _stamped_lookup(judge, monkeypatch, number="100.1a", book="house"):
    """Look a rule up; return (its text, whether the fast path answered)."""
    import rulebook.library

    calls = []
    real = rulebook.library.Library.sync

    def counting(self, *args, **kwargs):
        calls.append(1)
        return real(self, *args, **kwargs)

    monkeypatch.setattr(rulebook.library.Library, "sync", counting)
    code, out, err = judge("rule", number, "--book", book, "--json")
    assert code == 0, err
    return json.loads(out)[0]["text"], not calls


def test_an_edited_source_is_rebuilt_after_the_stamp(fresh_home, judge, tmp_path, monkeypatch):
    import rulebook.home

    monkeypatch.setattr(rulebook.home, "RACY_NS", 0)
    doc = tmp_path / "house.txt"
    doc.write_text("100. General\n100.1. House rules.\n100.1a Players shuffle.\n", encoding="utf-8")
    assert judge("load", doc, "--book", "house", "--game", "mtg")[0] == 0
    assert _stamped_lookup(judge, monkeypatch) == ("Players shuffle.", False)  # checked exactly, stamped
    assert _stamped_lookup(judge, monkeypatch) == ("Players shuffle.", True)  # the stamp answers
    stored = fresh_home / "books" / "house" / "house.txt"
    before = stored.stat()
    # Same size, and the modification time put back: only the inode's change time tells.
    stored.write_text(stored.read_text(encoding="utf-8").replace("shuffle", "SHUFFLE"), encoding="utf-8")
    os.utime(stored, ns=(before.st_atime_ns, before.st_mtime_ns))
    assert stored.stat().st_size == before.st_size
    assert _stamped_lookup(judge, monkeypatch) == ("Players SHUFFLE.", False)


def test_a_new_book_or_a_removed_one_is_seen(fresh_home, judge, tmp_path, monkeypatch):
    import rulebook.home

    monkeypatch.setattr(rulebook.home, "RACY_NS", 0)
    judge("books")
    judge("books")  # stamped
    doc = tmp_path / "house.txt"
    doc.write_text("100. General\n100.1. House rules.\n100.1a Players shuffle.\n", encoding="utf-8")
    assert judge("load", doc, "--book", "house", "--game", "mtg")[0] == 0
    assert _stamped_lookup(judge, monkeypatch)[1] is False
    assert judge("unload", "house")[0] == 0
    code, _, err = judge("rule", "100.1a", "--book", "house")
    assert code == 2 and "no book 'house'" in err


def test_files_changed_a_moment_ago_are_not_stamped(tmp_path):
    from rulebook.home import STAMP_NAME, Stamp

    seeds = tmp_path / "seeds"
    seeds.mkdir()
    (seeds / "a.txt").write_text("x", encoding="utf-8")
    (tmp_path / "judge.db").write_bytes(b"")
    stamp = Stamp(tmp_path, seeds)
    stamp.record()
    assert not (tmp_path / STAMP_NAME).exists()  # written within RACY_NS: checked again next time
    old = time.time_ns() - 10 * 10**9
    for f in (seeds / "a.txt", tmp_path / "judge.db"):
        os.utime(f, ns=(old, old))
    # ctime cannot be set back, so only a stamp taken well after the files' last change is recorded.
    stamp = Stamp(tmp_path, seeds)
    stamp.taken += 10 * 10**9
    stamp.record()
    assert (tmp_path / STAMP_NAME).exists() and Stamp(tmp_path, seeds).recorded()
    (seeds / "b.txt").write_text("y", encoding="utf-8")
    assert not Stamp(tmp_path, seeds).recorded()


def test_the_stamp_watches_the_shipped_data_a_build_reads(tmp_path):
    # The meaning model and the search vocabulary decide how a book is built; the example scenarios
    # and citation tables beside them do not, and a lookup need not stat them.
    from rulebook.home import Stamp

    seeds, data = tmp_path / "seeds", tmp_path / "data"
    for f in (
        seeds / "a.txt",
        data / "meaning" / "model.json",
        data / "search-synonyms.yaml",
        data / "scenarios" / "s.yaml",
    ):
        f.parent.mkdir(parents=True, exist_ok=True)
        f.write_text("x", encoding="utf-8")
    (tmp_path / "judge.db").write_bytes(b"")
    stamp = Stamp(tmp_path, seeds, data)
    assert set(stamp.sources) >= {"data/meaning/model.json", "data/search-synonyms.yaml"}
    assert not any(name.startswith("data/scenarios") for name in stamp.sources)
    stamp.taken += 10 * 10**9
    stamp.record()
    assert Stamp(tmp_path, seeds, data).recorded()
    (data / "scenarios" / "s.yaml").write_text("changed", encoding="utf-8")
    assert Stamp(tmp_path, seeds, data).recorded()
    (data / "search-synonyms.yaml").write_text("changed", encoding="utf-8")
    assert not Stamp(tmp_path, seeds, data).recorded()


def test_judge_freezes_the_collector_only_as_its_process_exits(judge, home):
    # In process (the tests, a script calling main()): the collector is left as it was.
    import gc

    frozen = gc.get_freeze_count()
    assert judge("rule", "312.1", "--book", "riftbound")[0] == 0
    assert gc.get_freeze_count() == frozen
    # As a program: frozen once the command is done (atexit runs last what was registered first).
    probe = (
        "import atexit, gc, sys; atexit.register(lambda: print('frozen', gc.get_freeze_count() > 0)); "
        "sys.argv = ['judge', '--version']; from judge.cli import main; main()"
    )
    done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True)
    assert done.stdout.splitlines()[-1] == "frozen True"
