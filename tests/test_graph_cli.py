"""`judge rule` citations, `judge refs`, `judge path`, `judge graph`, `judge check` on the seeds."""

import json
import shutil
import subprocess

import pytest


def test_rule_312_1_cites_398_1_not_in_the_loaded_text(home, judge):
    code, out, _ = judge("rule", "312.1", "--book", "riftbound")
    assert code == 0 and "cites: 398.1 Discretionary Actions (not in the loaded text)" in out
    [view] = json.loads(judge("rule", "312.1", "--book", "riftbound", "--json")[1])
    assert view["cites"] == [{"number": "398.1", "title": "Discretionary Actions", "outcome": "dangling", "in_book": False}]


def test_cited_by(home, judge):
    [view] = json.loads(judge("rule", "375", "--book", "riftbound", "--json")[1])
    assert {"kind": "rule", "number": "303.2.a", "title": None} in view["cited_by"]


def test_define_focus_on_the_seeds_is_rule_313_1(home, judge):
    code, out, _ = judge("define", "focus", "--book", "riftbound", "--json")
    assert code == 0
    assert json.loads(out)[0]["definition"] == ("Focus is the permission to take appropriately timed Discretionary "
                                             "Actions when the turn is in a Showdown Open State. See rule 307. "
                                             "States of the Turn for more information.")


def test_refs_tree_both_directions(home, judge):
    view = json.loads(judge("refs", "303.2.a", "--book", "riftbound", "--json")[1])
    assert [c["number"] for c in view["cites"]] == ["375"] and view["cited_by"] == []
    code, out, _ = judge("refs", "375", "--book", "riftbound")
    assert code == 0 and "← 303.2.a" in out


def test_path_between_rules(home, judge):
    code, out, _ = judge("path", "303.2.a", "375", "--book", "riftbound", "--json")
    steps = json.loads(out)["path"]
    assert code == 0 and [s["number"] for s in steps] == ["303.2.a", "375"] and steps[1]["via"] == "cites"


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
