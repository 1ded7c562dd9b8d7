"""judge ruling ...: the judge's rulings notebook (rulebook.notebook). A ruling keeps the text of the
rules it cites; check flags the ones a newer edition changed, moved or dropped and re-runs their
scenarios; the notebook survives judge.db being deleted; concurrent writers lose nothing."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from pathlib import Path

import pytest
from test_diff import PAIR, library

REPO = Path(__file__).resolve().parents[1]


@pytest.fixture(scope="session")
def cr_pair():
    return library(*PAIR)


@pytest.fixture
def pair_home(cr_pair, monkeypatch):
    """The CR library as $JUDGE_HOME, with a notebook of this test's own (removed afterwards)."""
    home, _ = cr_pair
    monkeypatch.setenv("JUDGE_HOME", str(home))
    yield home
    for suffix in ("", "-wal", "-shm"):
        (home / f"notebook.db{suffix}").unlink(missing_ok=True)


def test_check_flags_what_the_newer_edition_changed_moved_or_dropped(pair_home, judge):
    code, out, err = judge(
        "ruling",
        "add",
        "--book",
        "cr-2025",
        "-q",
        "Does a player who controls themselves choose?",
        "-a",
        "Yes: they make their own decisions.",
        "--cite",
        "903.4a",
        "--cite",
        "701.34a",
        "--cite",
        "603.2e",
        "--cite",
        "100.1",
        "--json",
    )
    assert code == 0, err
    recorded = json.loads(out)
    assert [c["number"] for c in recorded["cites"]] == ["903.4a", "701.34a", "603.2e", "100.1"]
    assert recorded["cites"][0]["text"] == "Color identity is established before the game begins."  # as 2025 read
    code, out, err = judge("ruling", "add", "--book", "cr-2026", "-q", "Untouched?", "-a", "Yes.", "--cite", "100.1")
    assert code == 0, err
    code, out, err = judge("ruling", "check", "--json")  # against mtg's default book: cr-2026, the newest
    assert code == 0, err
    data = json.loads(out)
    assert (data["checked"], data["flagged"]) == (2, 1)
    first, second = data["rulings"]
    assert first["flagged"] and first["book"] == "cr-2026" and first["via"] == "cr-2025" and not second["flagged"]
    cites = {c["number"]: c for c in first["cites"]}
    assert cites["903.4a"]["status"] == "changed" and cites["903.4a"]["diff"].startswith(
        "Color identity is established before the game begins. {+If a rule"
    )
    assert (cites["701.34a"]["status"], cites["701.34a"]["now"]) == ("moved", "701.40a")
    assert (cites["603.2e"]["status"], cites["603.2e"]["now"]) == ("gone", None)
    assert cites["100.1"]["status"] == "same"
    code, out, err = judge("ruling", "check")
    assert "2 rulings checked, 1 flagged" in out and "701.34a -> 701.40a: moved" in out and "603.2e: gone" in out


def test_check_follows_rules_by_their_text_when_the_old_book_is_gone(cr_pair, tmp_path):
    """A ruling recorded against a book no longer loaded (here: a name never loaded) is checked by its texts."""
    from rulebook.notebook import Cited, Notebook, check

    _, store = cr_pair
    nb = Notebook(tmp_path / "notebook.db")
    manifest = store.query("SELECT text FROM rules WHERE book = 'cr-2025' AND number = '701.34a'")[0]["text"]
    color = "Color identity is established before the game begins."
    r = nb.add(
        game="mtg",
        book="cr-2025-unloaded",
        edition="2025-02-07",
        question="q",
        answer="a",
        cites=[Cited("701.34a", manifest), Cited("903.4a", color), Cited("999.9", "Nothing like any rule at all.")],
    )
    result = check(store, [r], "cr-2026")[0].to_json()
    assert result["via"] is None and result["flagged"]
    assert [(c["number"], c["status"], c["now"]) for c in result["cites"]] == [
        ("701.34a", "moved", "701.40a"),
        ("903.4a", "changed", "903.4a"),
        ("999.9", "gone", None),
    ]


def test_scenarios_are_run_again(pair_home, judge, tmp_path):
    ships = (REPO / "data" / "scenarios" / "mtg" / "counterspell.yaml").read_text(encoding="utf-8")
    good = tmp_path / "counterspell.yaml"
    good.write_text(ships, encoding="utf-8")
    # Written under the 2025 rules: Counter was 701.5a. The 2026 engine cites 701.6a.
    old = tmp_path / "counterspell-2025.yaml"
    old.write_text(
        ships.replace('edition: "2026-02-27"', 'edition: "2025-02-07"').replace('"701.6a"', '"701.5a"'),
        encoding="utf-8",
    )
    for book, path in (("cr-2026", good), ("cr-2025", old)):
        code, out, err = judge(
            "ruling",
            "add",
            "--book",
            book,
            "-q",
            "Is Divination countered?",
            "-a",
            "Yes.",
            "--cite",
            "117.3b",
            "--scenario",
            path,
        )
        assert code == 0, err
    code, out, err = judge("ruling", "check", "--book", "cr-2026", "--json")
    data = json.loads(out)
    scenarios = [r["scenario"] for r in data["rulings"]]
    assert scenarios[0] == {"name": "counterspell.yaml", "status": "passed", "detail": None}
    assert scenarios[1]["status"] == "failed" and "701.5a" in scenarios[1]["detail"]
    assert data["rulings"][1]["flagged"]
    code, out, err = judge(
        "ruling",
        "add",
        "--book",
        "cr-2026",
        "-q",
        "q",
        "-a",
        "a",
        "--scenario",
        REPO / "data" / "scenarios" / "riftbound" / "burn-out.yaml",
    )
    assert code == 2 and "the scenario is riftbound, the ruling mtg" in err


def test_deleting_judge_db_leaves_every_ruling(fresh_home, judge):
    for i, number in enumerate(("312.1", "312.2.b", "315.2.b.1")):
        code, _, err = judge(
            "ruling", "add", "--book", "riftbound", "-q", f"Question {i}?", "-a", f"Answer {i}.", "--cite", number
        )
        assert code == 0, err
    code, before, _ = judge("ruling", "export")
    notebook = fresh_home / "notebook.db"
    (fresh_home / "judge.db").unlink()
    (fresh_home / ".judge.db.stamp").unlink(missing_ok=True)
    code, out, err = judge("ruling", "list", "--json")  # needs no judge.db at all
    assert code == 0, err
    assert [r["question"] for r in json.loads(out)] == ["Question 0?", "Question 1?", "Question 2?"]
    assert not (fresh_home / "judge.db").exists()
    code, _, err = judge("books")  # the library is rebuilt from its sources ...
    assert code == 0 and (fresh_home / "judge.db").exists()
    code, after, _ = judge("ruling", "export")  # ... and the notebook is as it was
    assert json.loads(after)["rulings"] == json.loads(before)["rulings"] and notebook.exists()
    code, out, _ = judge("ruling", "check", "--book", "riftbound", "--json")
    assert json.loads(out)["flagged"] == 0


ADDER = """
import sys, time
from pathlib import Path
from rulebook.notebook import Cited, Notebook
path, who, count, start = Path(sys.argv[1]), sys.argv[2], int(sys.argv[3]), float(sys.argv[4])
while time.time() < start:
    time.sleep(0.001)
for i in range(count):
    nb = Notebook(path)  # a connection per ruling, as each `judge ruling add` opens one
    nb.add(game="riftbound", book="riftbound", edition="v1.2", question=f"{who} question {i}", answer="a",
           cites=[Cited("312.1", "Priority is the singular exclusive right ..."), Cited("312.2", "x")])
    nb.close()
"""


def test_six_processes_adding_at_once_lose_nothing(tmp_path):
    from rulebook.notebook import Notebook

    path = tmp_path / "notebook.db"
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    start = time.time() + 1.0  # every process is up by then, and they all write at once
    procs = [
        subprocess.Popen(
            [sys.executable, "-c", ADDER, str(path), f"p{n}", "25", str(start)],
            env=env,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        for n in range(6)
    ]
    for p in procs:
        _, err = p.communicate(timeout=120)
        assert p.returncode == 0, err
    nb = Notebook(path)
    rulings = nb.all()
    assert len(rulings) == 150
    assert len({r.uid for r in rulings}) == 150 and len({r.id for r in rulings}) == 150
    assert {r.question for r in rulings} == {f"p{n} question {i}" for n in range(6) for i in range(25)}
    assert all(len(r.cites) == 2 for r in rulings)  # each ruling written whole, with its cited rules


def test_list_show_search_edit_remove_export_import(fresh_home, judge, tmp_path):
    from tests.test_json_docs import keys, sections

    documented = sections()["ruling"]

    def run(*args):
        code, out, err = judge("ruling", *args, "--json")
        assert code == 0, err
        data = json.loads(out)
        assert {k for k in keys(data) if f'"{k}"' not in documented} == set(), args
        return data

    first = run(
        "add",
        "--book",
        "riftbound",
        "-q",
        "Who gets priority after a spell is played?",
        "-a",
        "Its caster.",
        "--cite",
        "312.1",
        "--cite",
        "312.2b",
    )
    assert [c["number"] for c in first["cites"]] == ["312.1", "312.2.b"]  # as the book numbers it
    second = run("add", "--game", "mtg", "-q", "Is the untap step skipped?", "-a", "No.", "--cite", "302.2")
    assert second["book"] == "mtg" and second["edition"] == "2008-10-01"
    assert [r["id"] for r in run("list")] == [first["id"], second["id"]]
    assert [r["id"] for r in run("list", "--game", "mtg")] == [second["id"]]
    assert run("show", str(first["id"]))["answer"] == "Its caster."
    assert [r["id"] for r in run("search", "priority caster")] == [first["id"]]
    assert [r["id"] for r in run("search", "312.2.b")] == [first["id"]]
    edited = run("edit", str(first["id"]), "--answer", "The player who played it.", "--cite", "312.1")
    assert edited["answer"] == "The player who played it." and [c["number"] for c in edited["cites"]] == ["312.1"]
    assert edited["updated"] >= edited["created"]
    exported = tmp_path / "rulings.json"
    assert run("export", "-o", str(exported)) == {"exported": 2, "file": str(exported)}
    assert run("remove", str(second["id"])) == {"removed": second["id"]}
    code, _, err = judge("ruling", "show", str(second["id"]))
    assert code == 1 and f"no ruling #{second['id']}" in err
    result = run("import", str(exported))  # the one removed comes back; the other is already here
    assert len(result["imported"]) == 1 and result["skipped"] == 1
    assert {r["question"] for r in run("list")} == {
        "Who gets priority after a spell is played?",
        "Is the untap step skipped?",
    }
    assert run("import", str(exported)) == {"imported": [], "skipped": 2}
    run("check")
    bad = tmp_path / "bad.json"
    bad.write_text('{"rulings": []}', encoding="utf-8")
    code, out, err = judge("ruling", "import", str(bad), "--json")
    assert code == 2 and "is not a notebook export" in json.loads(out)["error"]["message"]
    code, _, err = judge("ruling", "add", "--book", "riftbound", "-q", "q", "-a", "a", "--cite", "312.99")
    assert code == 1 and "no rule 312.99 in riftbound" in err
