"""judge history NUMBER: a rule's life across the loaded editions of its game (rulebook.diff.rule_history)."""

from __future__ import annotations

import json

import pytest

# The CR library of test_diff.py, built once per run for both modules (pytest imports test modules by
# their file name: this is the same module object, the same cache).
from test_diff import PAIR, library


@pytest.fixture(scope="session")
def cr_pair():
    return library(*PAIR)


def test_a_rule_renumbered_and_one_reworded(cr_pair):
    from rulebook.diff import rule_history

    _, store = cr_pair
    h = rule_history(store, "mtg", "701.40").to_json()
    assert h["book"] == "cr-2026" and h["number"] == "701.40"
    assert [(e["book"], e["number"], e["status"]) for e in h["editions"]] == [
        ("cr-2025", "701.34", "present"),
        ("cr-2026", "701.40", "renumbered"),
    ]
    assert h["editions"][1]["from"] == "701.34" and h["editions"][1]["confidence"] == "high"
    h = rule_history(store, "mtg", "903.4a").to_json()
    last = h["editions"][1]
    assert last["status"] == "changed" and last["diff"].startswith(
        "Color identity is established before the game begins. {+If"
    )


def test_a_rule_that_went_and_one_that_came(cr_pair):
    from rulebook.diff import rule_history

    _, store = cr_pair
    # 603.2e is the 2025 numbering: the newest edition with that number is 2026's, another rule. Ask
    # for the 2025 one by naming its book.
    gone = rule_history(store, "mtg", "603.2e", book="cr-2025").to_json()
    assert [(e["number"], e["status"]) for e in gone["editions"]] == [("603.2e", "present"), (None, "removed")]
    new = rule_history(store, "mtg", "702.180").to_json()
    assert [(e["number"], e["status"]) for e in new["editions"]] == [(None, "absent"), ("702.180", "added")]
    assert new["editions"][1]["text"] == "Harmonize"
    assert rule_history(store, "mtg", "999.99") is None


def test_across_three_editions(fresh_home, judge, tmp_path):
    """Small books: a rule added, then moved, then reworded and moved again; the seed is left out."""
    texts = {
        "2001-01-01": "100. General\n\n100.1. Players shuffle.\n\n100.2. Players draw seven cards.\n",
        "2002-01-01": "100. General\n\n100.1. Each player has a deck.\n\n100.2. Players shuffle.\n\n100.3. Players draw seven cards.\n",
        "2003-01-01": "100. General\n\n100.1. Each player has a deck.\n\n100.2. Players draw seven cards.\n\n"
        "100.4. Players shuffle their decks.\n",
    }
    for edition, text in texts.items():
        path = tmp_path / f"house-{edition}.txt"
        path.write_text(text, encoding="utf-8")
        code, _, err = judge("load", path, "--book", f"h{edition[:4]}", "--game", "mtg", "--edition", edition)
        assert code == 0, err
    code, out, err = judge("history", "100.4", "--game", "mtg", "--json")
    assert code == 0, err
    h = json.loads(out)
    assert [(e["book"], e["number"], e["status"]) for e in h["editions"]] == [
        ("h2001", "100.1", "present"),
        ("h2002", "100.2", "renumbered"),
        ("h2003", "100.4", "renumbered and changed"),
    ]
    assert h["editions"][2]["diff"] == "Players [-shuffle.-]{+shuffle their decks.+}"
    code, out, err = judge("history", "100.1", "-g", "mtg", "--book", "h2001")
    assert code == 0 and "100.1 (mtg, numbered as in h2001), across 3 editions loaded" in out
    assert "renumbered from 100.1" in out and "renumbered and changed from 100.2" in out
    code, out, err = judge("history", "100.9", "-g", "mtg")
    assert code == 1 and "no rule 100.9 in any mtg edition loaded" in err
    code, out, err = judge("history", "100.1", "--book", "h2001", "--game", "riftbound")
    assert code == 2 and "is a mtg book, not riftbound" in err
