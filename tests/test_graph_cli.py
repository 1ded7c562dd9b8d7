"""`judge rule` citations, `judge refs`, `judge path`, `judge graph`, `judge check` on the seeds."""

import json
import shutil
import subprocess

import pytest


def test_rule_312_1_cites_398_1_not_in_the_loaded_text(home, judge):
    code, out, _ = judge("rule", "312.1", "--book", "riftbound")
    assert code == 0 and "cites: 398.1 Discretionary Actions (not in the loaded text)" in out
    [view] = json.loads(judge("rule", "312.1", "--book", "riftbound", "--json")[1])
    assert view["cites"] == [
        {"number": "398.1", "title": "Discretionary Actions", "outcome": "dangling", "in_book": False}
    ]


def test_cited_by(home, judge):
    [view] = json.loads(judge("rule", "375", "--book", "riftbound", "--json")[1])
    assert {"kind": "rule", "number": "303.2.a", "title": None} in view["cited_by"]


def test_define_focus_on_the_seeds_is_rule_313_1(home, judge):
    code, out, _ = judge("define", "focus", "--book", "riftbound", "--json")
    assert code == 0
    assert json.loads(out)[0]["definition"] == (
        "Focus is the permission to take appropriately timed Discretionary "
        "Actions when the turn is in a Showdown Open State. See rule 307. "
        "States of the Turn for more information."
    )


def test_refs_tree_both_directions(home, judge):
    view = json.loads(judge("refs", "303.2.a", "--book", "riftbound", "--json")[1])
    assert [c["number"] for c in view["cites"]] == ["375"] and view["cited_by"] == []
    code, out, _ = judge("refs", "375", "--book", "riftbound")
    assert code == 0 and "← 303.2.a" in out


def test_path_between_rules(home, judge):
    code, out, _ = judge("path", "303.2.a", "375", "--book", "riftbound", "--json")
    steps = json.loads(out)["path"]
    assert code == 0 and [s["number"] for s in steps] == ["303.2.a", "375"] and steps[1]["via"] == "cites"
    assert steps[1]["link"] == "cites" and steps[1]["containment"] is False


def test_path_on_the_seeds_goes_by_a_heading_not_through_the_section(home, judge):
    """313.1 cites 307 States of the Turn, which heads 308; before issue 12 the chain ran through 300."""
    code, out, _ = judge("path", "313.1", "308", "--book", "riftbound", "--json")
    view = json.loads(out)
    assert code == 0 and view["linked_only_through"] == []
    assert [(s["number"], s["link"], s["via"], s["containment"]) for s in view["path"]] == [
        ("313.1", None, None, False),
        ("307", "cites", "cites", False),
        ("308", "heads", "contains", True),
    ]
    code, out, _ = judge("path", "313.1", "308", "--book", "riftbound")
    assert code == 0 and out.splitlines() == [
        "313.1 → 308 in riftbound: 2 steps (1 citation, 1 containment)",
        "313.1  Focus is the permission to take appropriately timed Discretionary Actions when the turn is…",
        "  ↳ cites     307  States of the Turn",
        "  ↳ heads     308  At any given time, the turn is in either a Neutral State or a Showdown State.",
    ]


def test_no_path_is_one_line_and_exit_1(home, judge):
    # 313.1 and 399 Types of Actions meet only under 300 Playing the Game.
    code, out, err = judge("path", "313.1", "399", "--book", "riftbound")
    assert code == 1 and err == ""
    assert out == (
        "no path: 313.1 and 399 are linked in riftbound only through the section 300 Playing the Game "
        "(a chain never passes through a section)\n"
    )
    code, out, _ = judge("path", "313.1", "399", "--book", "riftbound", "--json")
    assert code == 1
    assert json.loads(out) == {
        "book": "riftbound",
        "from": "313.1",
        "to": "399",
        "path": [],
        "linked_only_through": [{"number": "300", "title": "Playing the Game"}],
    }
    code, out, err = judge("path", "313.1", "999.9", "--book", "riftbound")
    assert code == 1 and out == "" and err.count("\n") == 1 and "no rule 999.9" in err


def test_check_on_the_seeds_reports_missing_subrules(home, judge):
    code, out, _ = judge("check", "--book", "riftbound", "--json")
    [report] = json.loads(out)
    assert code == 0
    assert set(report) == {"book", "dangling", "title_mismatches", "missing_children", "numbering", "most_cited"}
    assert {"number": "316", "expected": 6, "found": 0} in report["missing_children"]
    assert {d["target"] for d in report["dangling"]} == {"398.1", "402", "445"}
    assert all(d["reason"] == "not in the loaded text" for d in report["dangling"])
    code, out, _ = judge("check", "--book", "riftbound")
    assert "316: 6 expected, 0 found" in out


def test_graph_marks_sections_and_riftbound_headings(home, judge):
    doc = json.loads(judge("graph", "--book", "riftbound", "--format", "json")[1])
    nodes = {n["id"]: n for n in doc["nodes"]}
    assert nodes["rule:300"]["section"] is True and nodes["rule:312"]["section"] is False
    heads = {(link["source"], link["target"]) for link in doc["links"] if link["kind"] == "heads"}
    assert ("rule:311", "rule:312") in heads and ("rule:307", "rule:308") in heads


def test_graph_formats(home, judge, tmp_path):
    code, out, _ = judge("graph", "312", "--book", "riftbound", "--format", "json")
    doc = json.loads(out)
    assert code == 0 and {"nodes", "links"} <= set(doc)
    assert "rule:312.1" in {n["id"] for n in doc["nodes"]}
    code, out, _ = judge("graph", "312", "--book", "riftbound", "--format", "graphml")
    assert code == 0 and out.startswith("<graphml") or "<graphml" in out[:300]
    code, _, err = judge("graph", "--book", "riftbound", "--format", "svg")
    assert code == 2 and "unknown format 'svg'" in err


@pytest.mark.skipif(shutil.which("dot") is None, reason="Graphviz's dot is not installed (.ci/run installs it)")
def test_graph_dot_renders_with_graphviz(home, judge, tmp_path):
    code, out, _ = judge("graph", "--book", "riftbound", "--format", "dot")
    assert code == 0
    svg = subprocess.run(["dot", "-Tsvg"], input=out, capture_output=True, text=True, timeout=120)
    assert svg.returncode == 0, svg.stderr
    assert "<svg" in svg.stdout and "312.1" in svg.stdout


def full_judge(full_library, judge, monkeypatch):
    from conftest import full_book

    store = full_book(full_library, "cr-2026", "riftbound-v1.2")
    monkeypatch.setenv("JUDGE_HOME", str(store.path.parent))
    return judge


@pytest.mark.parametrize("book, a, b", [("riftbound-v1.2", "341", "446.1"), ("cr-2026", "702.19d", "510.1c")])
def test_reported_paths_no_longer_cross_a_section(full_library, judge, monkeypatch, book, a, b):
    """Issue 12: 341 -> 446.1 went through 300 Playing the Game, 702.19d -> 510.1c through 702 and
    702.22 Banding. Now: 341 is under 337 Showdowns, which heads 345 ... 345.2.a cites 446.1; 702.19d
    is part of 702.19 Trample, whose 702.19a cites 510."""
    run = full_judge(full_library, judge, monkeypatch)
    code, out, _ = run("path", a, b, "--book", book, "--json")
    steps = json.loads(out)["path"]
    numbers = [s["number"] for s in steps]
    assert code == 0 and numbers[0] == a and numbers[-1] == b
    assert not {"300", "3", "702", "7"} & set(numbers), numbers
    assert all(n.startswith("702.19") for n in numbers if n.startswith("702")), numbers  # no sibling keyword
    assert any(not s["containment"] for s in steps[1:]), numbers  # a citation carries the chain
    graph = json.loads(run("graph", "--book", book, "--format", "json")[1])
    sections = {n["name"] for n in graph["nodes"] if n["section"]}
    assert {"300"} <= sections if book.startswith("riftbound") else {"7", "702"} <= sections
    assert not sections & set(numbers[1:-1])
    # Every citation between rules is one that judge refs shows, from one side or the other.
    for before, step in zip(steps, steps[1:]):
        if step["via"] == "cites" and before["kind"] == step["kind"] == "rule":
            tree = json.loads(run("refs", before["number"], "--book", book, "--json")[1])
            side = tree["cites"] if step["link"] == "cites" else tree["cited_by"]
            assert step["number"] in [item["number"] for item in side], (before["number"], step)
    code, out, _ = run("path", a, b, "--book", book)
    lines = out.splitlines()
    assert code == 0 and lines[0].startswith(f"{a} → {b} in {book}: ") and lines[1].startswith(a)
    assert all(line.split()[1] in {"cites", "cited", "contains", "part", "heads", "under"} for line in lines[2:])
