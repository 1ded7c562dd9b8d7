"""`judge define TERM` shows the rules that say what the term is (issue 21): a keyword's definition
is one sentence ("Tank is a Passive Ability keyword."); what it does is in the rules under it.

Full documents: conftest.full_books, loaded once per session (skipped, saying why, without them).
"""

from __future__ import annotations

import json

import pytest
from conftest import full_book

CR, RIFTBOUND = "cr-2026", "riftbound-v1.2"


@pytest.fixture
def full_judge(full_books, judge, monkeypatch):
    full_book(full_books[1:], CR, RIFTBOUND)
    monkeypatch.setenv("JUDGE_HOME", str(full_books[0]))
    return judge


def _define(judge, *args):
    code, out, _ = judge("define", *args, "--json")
    assert code == 0, out
    return json.loads(out)


def test_a_keyword_shows_the_rules_under_its_heading(full_judge):
    # 741 Tank heads 741.1 "Tank is a Passive Ability keyword." (the rule that defines the term), what
    # Tank does (741.1.b, 741.1.c ...) and 741.2, 741.3.
    (entry,) = _define(full_judge, "Tank", "--book", RIFTBOUND)
    numbers = [r["number"] for r in entry["rules"]]
    assert numbers[0] == "741" and {"741.1", "741.1.b", "741.1.c.2", "741.2", "741.3"} <= set(numbers)
    assert [r["depth"] for r in entry["rules"][:3]] == [0, 1, 2] and entry["more_rules"] == 0
    code, out, _ = full_judge("define", "Tank", "--book", RIFTBOUND)
    lines = out.splitlines()
    assert "  rules:" in lines and "    741 Tank" in lines
    assert any(line.startswith("        741.1.b It is functionally short for") for line in lines)


def test_a_heading_among_its_siblings_heads_the_rules_after_it(full_judge):
    # Riftbound numbers 706 Mighty and the rules it heads as siblings: 707 says Mighty is a
    # description, 708 what it is (Might 5 or greater), up to the next heading.
    (entry,) = _define(full_judge, "mighty", "--book", RIFTBOUND)
    assert [r["number"] for r in entry["rules"]] == ["706", "707", "708", "709", "710", "711"]
    assert "5 or greater" in entry["rules"][2]["text"]


def test_a_glossary_entry_shows_the_rules_it_points_at(full_judge):
    (entry,) = _define(full_judge, "trample", "--book", CR)
    numbers = [r["number"] for r in entry["rules"]]
    assert numbers[0] == "702.19" and "702.19b" in numbers and all(n.startswith("702.19") for n in numbers)
    (big,) = _define(full_judge, "keyword ability", "--book", CR)  # See rule 702: a thousand rules
    assert len(big["rules"]) == 50 and big["more_rules"] > 500
    code, out, _ = full_judge("define", "keyword ability", "--book", CR)
    assert f"... {big['more_rules']} more: judge rule 702 --book {CR} --depth 3" in out


def test_an_excerpt_s_entry_whose_rule_is_not_loaded_has_none(home, judge):
    (entry,) = _define(judge, "permanent", "--book", "mtg")  # See rule 214: not in the seed excerpt
    assert entry["rules"] == [] and entry["more_rules"] == 0
