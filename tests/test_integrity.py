"""The integrity report: its exact shape, missing children on the seeds, numbering on crafted input,
and the real documents."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from rulebook.integrity import REPORT_KEYS, integrity_report, missing_children, numbering_issues
from rulebook.model import ReadWarning, Rule, Truncation
from rulebook.readers import read_file
from rulebook.references import REASON_BROKEN, REASON_PARTIAL, resolve_book

SEEDS = Path(__file__).resolve().parents[1] / "seeds"
CORPORA = Path(__file__).resolve().parents[2] / "shared" / "corpora"


def corpus(path: Path) -> Path:
    if not path.exists():
        pytest.skip(f"{path} is absent: the real documents live in ../shared/corpora beside the checkout")
    return path


def riftbound_seed():
    from conftest import riftbound_seed_book

    book = riftbound_seed_book()
    return book.rules, [t for d in book.documents for t in d.truncations]


@pytest.fixture(scope="module")
def seed_report():
    rules, truncations = riftbound_seed()
    refs = resolve_book("riftbound", "riftbound", rules, partial=True)
    return integrity_report("riftbound", "riftbound", rules, refs, truncations, partial=True)


def test_report_shape(seed_report):
    assert tuple(seed_report) == REPORT_KEYS
    json.dumps(seed_report)
    assert seed_report["book"] == "riftbound"
    for item in seed_report["dangling"]:
        assert set(item) == {"from", "raw", "target", "line", "source", "reason"}
    for item in seed_report["missing_children"]:
        assert set(item) == {"number", "expected", "found"}
    for item in seed_report["most_cited"]:
        assert set(item) == {"number", "title", "count"}


def test_seed_missing_children(seed_report):
    missing = {m["number"]: (m["expected"], m["found"]) for m in seed_report["missing_children"]}
    assert missing["316"] == (6, 0)
    assert missing["317"] == (4, 0)
    assert missing["315"] == (4, 2)  # the detail stops inside 315.2 (truncated after 315.2.b.1)
    assert "313" not in missing and "312" not in missing  # the detail has 312.1-312.3 and 313.1-313.5


def test_seed_dangling_is_not_in_the_loaded_text(seed_report):
    [item] = [d for d in seed_report["dangling"] if d["from"] == "312.1"]
    assert item["target"] == "398.1"
    assert item["reason"] == REASON_PARTIAL == "not in the loaded text"
    assert item["source"] == "riftbound-300-detail.txt" and item["line"] > 0
    assert "See rule 398.1" in item["raw"]


def test_complete_book_says_broken():
    rules = [Rule("100.1", text="See rule 100.9.", line=3, source="cr.txt")]
    report = integrity_report("cr", "mtg", rules, resolve_book("cr", "mtg", rules), [], partial=False)
    assert report["dangling"] == [
        {
            "from": "100.1",
            "raw": "See rule 100.9",
            "target": "100.9",
            "line": 3,
            "source": "cr.txt",
            "reason": REASON_BROKEN,
        }
    ]
    # A truncation makes the book partial even when the caller did not say so.
    cut = [Truncation("cr.txt", 9, 20, "100.1")]
    report = integrity_report("cr", "mtg", rules, resolve_book("cr", "mtg", rules), cut, partial=False)
    assert report["dangling"][0]["reason"] == REASON_PARTIAL


def test_title_mismatch_and_most_cited():
    rules = [
        Rule("179", text="Tokens are not cards.", line=1),
        Rule("182", title="Control", line=2),
        Rule("345.2.a", text="See rule 179. Control for more information.", line=3),
        Rule("444.2.b", text="See rule 182. Control for more information.", line=4),
        Rule(
            "446",
            text="See rule 182. Control for more information. See rule 182. Control for more information.",
            line=5,
        ),
    ]
    report = integrity_report("rb", "riftbound", rules, resolve_book("rb", "riftbound", rules), [])
    assert report["title_mismatches"] == [
        {
            "from": "345.2.a",
            "raw": "See rule 179. Control",
            "target": "179",
            "cited_title": "Control",
            "actual_title": "Tokens are not cards.",
            "line": 3,
        }
    ]
    # Counted once per citing rule.
    assert report["most_cited"][0] == {"number": "182", "title": "Control", "count": 2}


def test_missing_children_counts_children_from_any_source():
    rules = [
        Rule("303", expected_children=2, source="outline.txt"),
        Rule("303.1", parent="303", source="detail.txt"),
        Rule("303.2", parent="303", source="detail.txt"),
        Rule("308", expected_children=2, source="outline.txt"),
        Rule("308.1", parent="308", source="detail.txt"),
    ]
    assert missing_children(rules, "riftbound") == [{"number": "308", "expected": 2, "found": 1}]


def test_numbering_gaps_skip_l_and_o_in_magic():
    letters = "abcdefghijkmnpq"  # no l, no o: complete
    rules = [Rule(f"702.16{c}", parent="702.16", line=i, source="cr.txt") for i, c in enumerate(letters, 1)]
    assert numbering_issues(rules, "mtg") == []
    # Riftbound does not skip them: the same letters leave l and o missing.
    rb = [Rule(f"702.16.{c}", parent="702.16", line=i, source="rb.txt") for i, c in enumerate(letters, 1)]
    assert [i["number"] for i in numbering_issues(rb, "riftbound")] == ["702.16.l", "702.16.o"]


def test_numbering_gap_reports_the_line_after_it():
    rules = [
        Rule("119.1", parent="119", line=5, source="cr.txt"),
        Rule("119.2", parent="119", line=6, source="cr.txt"),
        Rule("119.4", parent="119", line=7, source="cr.txt"),
        Rule("601.2a", parent="601.2", line=10, source="cr.txt"),
        Rule("601.2c", parent="601.2", line=12, source="cr.txt"),
    ]
    issues = numbering_issues(rules, "mtg")
    assert [(i["kind"], i["number"], i["line"]) for i in issues] == [("gap", "119.3", 7), ("gap", "601.2b", 12)]
    assert issues[1]["detail"] == "601.2 has no 601.2b before 601.2c"


def test_numbering_out_of_order_and_duplicates():
    rules = [
        Rule("306.1", parent="306", line=1, source="cr.txt"),
        Rule("306.2", parent="306", line=2, source="cr.txt"),
        Rule("306.3", parent="306", line=3, source="cr.txt"),
        Rule("306.2", parent="306", line=4, source="cr.txt"),  # duplicate, and out of order
        Rule("306.4", parent="306", line=5, source="cr.txt"),
        # another source restarts: not out of order
        Rule("306.1", parent="306", line=1, source="outline.txt"),
    ]
    issues = [(i["kind"], i["number"], i["line"], i["source"]) for i in numbering_issues(rules, "mtg")]
    assert issues == [("duplicate", "306.2", 4, "cr.txt")]
    rules = [
        Rule("306.1", parent="306", line=1, source="cr.txt"),
        Rule("306.3", parent="306", line=2, source="cr.txt"),
        Rule("306.2", parent="306", line=3, source="cr.txt"),
    ]
    issues = [(i["kind"], i["number"], i["line"]) for i in numbering_issues(rules, "mtg")]
    assert issues == [("out_of_order", "306.2", 3)]


def test_numbering_includes_reader_warnings():
    rules = [
        Rule("744.4", parent="744", line=1765, source="rb.txt"),
        Rule("744.5", parent="744", line=1766, source="rb.txt"),
    ]
    warnings = [
        ReadWarning("rb.txt", 1767, "duplicate rule number 744.5 (first at line 1766)"),
        ReadWarning("rb.txt", 12, "some unrelated warning about 101.1"),
    ]
    issues = numbering_issues(
        [
            Rule("744.1", parent="744", line=1762, source="rb.txt"),
            Rule("744.2", parent="744", line=1763, source="rb.txt"),
            Rule("744.3", parent="744", line=1764, source="rb.txt"),
            *rules,
        ],
        "riftbound",
        warnings,
    )
    assert [(i["kind"], i["number"], i["line"]) for i in issues] == [("duplicate", "744.5", 1767)]


def test_riftbound_v12_report():
    doc = read_file(corpus(CORPORA / "riftbound" / "core-rules-v1.2.txt"))
    refs = resolve_book("rb", "riftbound", doc.rules)
    report = integrity_report("rb", "riftbound", doc.rules, refs, doc.truncations, False, doc.warnings)
    assert report["dangling"] == []
    assert [(m["from"], m["target"], m["cited_title"]) for m in report["title_mismatches"]] == [
        ("345.2.a", "179", "Control")
    ]
    assert ("duplicate", "744.5") in {(i["kind"], i["number"]) for i in report["numbering"]}
    assert report["most_cited"][0]["number"] == "346"  # Playing Cards


def test_cr_2026_report():
    doc = read_file(corpus(CORPORA / "mtg" / "MagicCompRules-2026-02-27.txt"))
    refs = resolve_book("cr", "mtg", doc.rules, doc.terms)
    report = integrity_report("cr", "mtg", doc.rules, refs, doc.truncations, False, doc.warnings)
    assert [(d["from"], d["target"], d["line"]) for d in report["dangling"]] == [("term:Map", "110.10", 8225)]
    assert report["numbering"] == []  # the 2026 text numbers cleanly, with l and o skipped
    assert report["most_cited"][0]["number"] == "601.2b"
