"""The library under $JUDGE_HOME: building, rebuilding on change, loading and unloading user books,
and bad files refused with one line while nothing already stored is lost."""

import json
import sqlite3
from pathlib import Path

from conftest import corpus

from rulebook.library import Library
from rulebook.shipped import seeds_dir


def test_database_is_ordinary_sqlite_with_documented_tables(fresh_home):
    Library(fresh_home, seeds_dir()).open()
    conn = sqlite3.connect(fresh_home / "judge.db")
    tables = {r[0] for r in conn.execute("select name from sqlite_master where type='table'")}
    assert {"books", "sources", "rules", "terms", "rulings", "refs", "rules_fts", "terms_fts", "rulings_fts"} <= tables
    assert conn.execute("select count(*) from rules where book='riftbound'").fetchone()[0] > 100


def test_no_rebuild_when_nothing_changed(fresh_home):
    lib = Library(fresh_home, seeds_dir())
    lib.open()
    assert lib.sync() == []


def test_rebuilt_when_a_source_changes(fresh_home, tmp_path):
    seeds = tmp_path / "seeds"
    seeds.mkdir()
    for f in seeds_dir().iterdir():
        if f.is_file():
            (seeds / f.name).write_bytes(f.read_bytes())
    lib = Library(fresh_home, seeds)
    store = lib.open()
    assert store.rule("mtg", "302.3") is not None
    store.close()
    excerpt = seeds / "mtg-turn-structure-excerpt.txt"
    excerpt.write_text(excerpt.read_text(encoding="utf-8") + "\n309. Declare Blockers Step\n", encoding="utf-8")
    assert lib.sync() == ["mtg"]
    assert lib.open().rule("mtg", "309").title == "Declare Blockers Step"


def test_rebuilt_when_reader_version_changes(fresh_home, monkeypatch):
    lib = Library(fresh_home, seeds_dir())
    lib.open()
    import rulebook.library as library

    monkeypatch.setattr(library, "READER_VERSION", "test-next")
    assert sorted(lib.sync()) == ["mtg", "riftbound"]


def test_rebuilt_when_the_stemmer_changes(fresh_home, monkeypatch):
    # The stored stems (rules.stems) are the stemmer's: another version, or other irregular forms in
    # data/search-synonyms.yaml, makes every book again.
    lib = Library(fresh_home, seeds_dir())
    lib.open()
    import rulebook.library as library

    monkeypatch.setattr(library, "stemmer", lambda: "test-next")
    assert sorted(lib.sync()) == ["mtg", "riftbound"]


def test_stored_stems_are_the_stems_of_each_rule(fresh_home):
    from rulebook.search.query import rule_stems, stems

    store = Library(fresh_home, seeds_dir()).open()
    rows = store.query("SELECT book, number, title, text, examples, stems FROM rules")
    assert len(rows) > 150
    for r in rows:
        examples = json.loads(r["examples"])
        assert rule_stems(r["stems"]) == (stems(r["title"]), stems(r["text"]), [stems(e) for e in examples]), r[
            "number"
        ]
    assert any(json.loads(r["examples"]) for r in rows)  # examples were compared too


def test_load_and_unload_a_user_book(fresh_home, judge, tmp_path):
    doc = tmp_path / "house.txt"
    doc.write_text("100. General\n100.1. These are house rules.\n100.1a Players shuffle.\n", encoding="utf-8")
    code, out, err = judge("load", doc, "--book", "house", "--game", "mtg", "--json")
    assert code == 0, err
    report = json.loads(out)
    assert report["rules"] == 3 and report["game"] == "mtg"
    doc.unlink()  # the library keeps its own copy
    code, out, _ = judge("rule", "100.1a", "--book", "house", "--json")
    assert code == 0 and json.loads(out)[0]["text"] == "Players shuffle."
    code, out, _ = judge("unload", "house")
    assert code == 0
    code, _, err = judge("rule", "100.1a", "--book", "house")
    assert code == 2 and "no book 'house'" in err


def test_default_books_cannot_be_replaced_or_unloaded(fresh_home, judge, tmp_path):
    doc = tmp_path / "x.txt"
    doc.write_text("100.1. A rule.\n", encoding="utf-8")
    code, _, err = judge("load", doc, "--book", "mtg")
    assert code == 2 and "default book" in err
    code, _, err = judge("unload", "riftbound")
    assert code == 2 and "cannot be unloaded" in err


def _load_ok(judge, tmp_path):
    good = tmp_path / "good.txt"
    good.write_text("100. General\n100.1. Keep me.\n", encoding="utf-8")
    assert judge("load", good, "--book", "keep", "--game", "mtg")[0] == 0


def test_bad_files_are_refused_with_one_line_and_nothing_is_lost(fresh_home, judge, tmp_path):
    _load_ok(judge, tmp_path)
    empty = tmp_path / "empty.txt"
    empty.write_bytes(b"")
    binary = tmp_path / "blob.bin"
    binary.write_bytes(bytes(range(256)) * 20)
    prose = tmp_path / "prose.txt"
    prose.write_text("Just a letter to a friend.\nNothing numbered here at all.\n", encoding="utf-8")
    for bad, expected in ((empty, "empty file"), (binary, "binary"), (prose, "no ")):
        code, out, err = judge("load", bad, "--book", "keep")
        assert code == 2, (bad, err)
        assert err.startswith(f"judge: {bad}") and expected in err
        assert len(err.strip().splitlines()) == 1 and "Traceback" not in err
    code, out, _ = judge("rule", "100.1", "--book", "keep", "--json")
    assert code == 0 and json.loads(out)[0]["text"] == "Keep me."


def test_missing_file_is_exit_2(fresh_home, judge, tmp_path):
    code, _, err = judge("load", tmp_path / "nope.txt", "--book", "x")
    assert code == 2 and "nope.txt: no such file" in err


def test_duplicate_and_out_of_order_numbers_are_warnings_with_lines(fresh_home, judge, tmp_path):
    doc = tmp_path / "messy.txt"
    doc.write_text("100. General\n100.2. Second.\n100.1. First.\n100.2. Again.\n", encoding="utf-8")
    code, out, _ = judge("load", doc, "--book", "messy", "--game", "mtg", "--json")
    report = json.loads(out)
    assert code == 0
    assert any("messy.txt:4" in w and "duplicate" in w for w in report["warnings"])
    assert any("messy.txt:3" in w and "out of order" in w for w in report["warnings"])


def test_full_cr_loads_as_a_user_book(fresh_home, judge):
    cr = corpus("mtg", "MagicCompRules-2026-02-27.txt")
    code, out, err = judge("load", cr, "--book", "cr-2026", "--json")
    assert code == 0, err
    report = json.loads(out)
    assert report["game"] == "mtg" and report["edition"] == "2026-02-27" and report["rules"] > 3000
    [view] = json.loads(judge("rule", "702.10", "--book", "cr-2026", "--json")[1])
    assert view["title"] == "Haste" and view["parent"] == "702"


def test_unload_unknown_book_did_you_mean(fresh_home, judge, tmp_path):
    _load_ok(judge, tmp_path)
    code, _, err = judge("unload", "kepe")
    assert code == 2 and 'did you mean "keep"' in err


def test_two_processes_building_at_once_both_see_a_whole_database(tmp_path):
    import os
    import subprocess
    import sys
    from pathlib import Path

    repo = Path(__file__).resolve().parents[1]
    env = {**os.environ, "JUDGE_HOME": str(tmp_path / "home"), "PYTHONPATH": str(repo)}
    cmd = [sys.executable, "-m", "judge.cli", "rule", "313.4", "--book", "riftbound", "--json"]
    procs = [
        subprocess.Popen(cmd, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True) for _ in range(3)
    ]
    for p in procs:
        out, err = p.communicate(timeout=120)
        assert p.returncode == 0, err
        assert json.loads(out)[0]["number"] == "313.4"
    leftovers = [f.name for f in (tmp_path / "home").iterdir() if f.name.startswith(".judge-")]
    assert leftovers == []


# The readers' code as of READER_VERSION (rulebook/readers/ and the rule numbers they parse with).
# A reader edited without bumping READER_VERSION would leave every stored book read the old way.
READERS_DIGEST = {
    "2": "e4fef2eb9f7c10cfa551f4530fcf1b0b0822e7ee36c35b9e064563117f86c484",
    "3": "8cfe53c86325bd94d6aa6afaf94112708e34482d2aae4e46f3cb8fd07e443f88",
    # 4 recorded again after the game registry and `ruff format`, and after their imports moved to the
    # modules' tops (issue 22, item 4), and after numbers.py compiled its pattern at import: the same
    # output, so no bump
    "4": "94e800075c030e6df4642b1547d55f671f1bec2c844efe512f63049b70375636",
    # 5: issue 25 (split and glued numbers, comment lines, FAQ revised texts; PDF and Word files read)
    "5": "46c18cd11c4b4caef246624b9c485edeaa40f399ac558937941a9232e821933d",
}


def test_a_reader_edited_bumps_the_reader_version():
    import hashlib

    from rulebook.readers import READER_VERSION

    root = Path(__file__).resolve().parents[1] / "rulebook"
    h = hashlib.sha256()
    for f in [*sorted((root / "readers").glob("*.py")), root / "numbers.py"]:
        h.update(f.name.encode() + b"\0" + f.read_bytes().replace(b"\r\n", b"\n"))
    assert READERS_DIGEST.get(READER_VERSION) == h.hexdigest(), (
        "the readers changed: if what they produce changed, bump READER_VERSION (stored books are then "
        f"read again); either way record {h.hexdigest()} for it in READERS_DIGEST"
    )


# The light stemmer's code as of STEMS_VERSION: books keep the stems it made (rules.stems), so a
# stemmer edited without bumping STEMS_VERSION would leave search comparing old stems with new ones.
STEMS_DIGEST = {"1": "d3ddb427366a2cf28ca5173f379a123dd2e0854a03c3905bdafa3e54f50933a1"}


def test_a_stemmer_edited_bumps_the_stems_version():
    import hashlib
    import inspect

    from rulebook.search import query

    h = hashlib.sha256()
    for part in (query.stem, query.stems, query.stored_stems, query.rule_stems):
        h.update(inspect.getsource(part).encode() + b"\0")
    h.update(f"{query._TEXT_WORD.pattern}|{query._VOWEL.__self__.pattern}".encode())
    assert STEMS_DIGEST.get(query.STEMS_VERSION) == h.hexdigest(), (
        "the stemmer changed: if what it makes of a text changed, bump STEMS_VERSION (stored books are "
        f"then made again); either way record {h.hexdigest()} for it in STEMS_DIGEST"
    )
