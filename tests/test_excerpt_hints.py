"""A lookup that misses in a seed excerpt says so (issue 20): one line more naming the built-in book,
its edition and how many rules it has, and how to load the full rules; in JSON the error's ``hint``.
Suggestions far from what was typed are not offered (702.19b is not near 399; "trample" is not near
Neutral Closed); near ones still are. On the seeds alone."""

from __future__ import annotations

import json

LOAD = "load the full rules with judge load PATH --book ID"


def _lines(err: str) -> list[str]:
    return err.strip().splitlines()


def test_a_rule_missing_from_the_seeds_names_them_and_how_to_load_the_full_rules(home, judge):
    code, out, err = judge("rule", "702.19b")
    assert code == 1 and out == ""
    first, hint = _lines(err)
    assert first == "judge: no rule 702.19b in riftbound, mtg"  # no "nearest: 399, 308"
    assert hint.startswith("hint: riftbound is the built-in excerpt Riftbound Core Rules")
    assert "mtg is the built-in excerpt Magic The Gathering Comprehensive Rules" in hint
    assert "edition 2008-10-01, 31 rules" in hint and "edition v1.2, 137 rules" in hint and hint.endswith(LOAD)
    code, out, err = judge("rule", "702.19b", "--book", "mtg", "--json")
    error = json.loads(out)["error"]
    assert code == 1 and error["suggestions"] == [] and error["status"] == 1
    assert error["hint"] == (
        "mtg is the built-in excerpt Magic The Gathering Comprehensive Rules (seed excerpt, "
        f"pre-2009 turn structure), edition 2008-10-01, 31 rules: {LOAD}"
    )
    assert _lines(err) == [f"judge: {error['message']}", f"hint: {error['hint']}"]


def test_near_rule_numbers_are_still_suggested(home, judge):
    code, _, err = judge("rule", "316.9", "--book", "riftbound")
    assert code == 1 and "nearest: 316" in err
    code, out, _ = judge("rule", "312.11", "--book", "riftbound", "--json")
    assert json.loads(out)["error"]["suggestions"][0] == "312.1"  # one slip away first


def test_a_term_missing_from_the_seeds_suggests_nothing_far(home, judge):
    code, out, err = judge("define", "trample")
    assert code == 1 and out == ""
    first, hint = _lines(err)
    assert first == "judge: no term 'trample' in riftbound, mtg"  # not "did you mean: Neutral Closed"
    assert hint.startswith("hint: riftbound is the built-in excerpt") and hint.endswith(LOAD)
    code, out, _ = judge("define", "trample", "--json")
    error = json.loads(out)["error"]
    assert error["suggestions"] == [] and "31 rules" in error["hint"]
    code, out, _ = judge("define", "neutral", "--book", "riftbound", "--json")  # near ones stay
    assert set(json.loads(out)["error"]["suggestions"]) >= {"Neutral Open", "Neutral Closed"}


def test_a_search_with_no_hit_in_the_seeds_says_so(home, judge):
    code, out, _ = judge("search", "trample")
    assert code == 1
    assert out.splitlines()[0] == "no matches; try fewer or other words"
    assert out.splitlines()[1].startswith("hint: riftbound is the built-in excerpt") and out.strip().endswith(LOAD)
    code, out, _ = judge("search", "trample", "--json")
    result = json.loads(out)
    assert result["hits"] == [] and result["hint"].endswith(LOAD)
    code, out, _ = judge("search", "priority", "--json")  # found: no hint
    assert code == 0 and json.loads(out)["hint"] is None
    code, out, _ = judge("rulings", "trample", "--book", "riftbound", "--json")
    assert code == 1 and json.loads(out)["hint"].startswith("riftbound is the built-in excerpt")


def test_nearest_numbers_keeps_only_near_ones(home):
    from judge.books import open_store
    from rulebook.nearest import nearest_numbers

    store = open_store()
    assert nearest_numbers(store, "702.19b", ["mtg"]) == []
    assert nearest_numbers(store, "702.19b", ["riftbound"]) == []
    assert nearest_numbers(store, "316.9", ["riftbound"])[0] == "316"
