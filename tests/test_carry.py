"""Carrying a citation table onto an edition nobody wrote one for (rulebook.carry), on small books made
here, and what an explanation then quotes and checks (issue 20). The real editions: test_editions_sweep."""

from __future__ import annotations

import subprocess
import sys

import pytest

from engine.core import Citations, Event, Step
from rulebook.carry import Source, carry, decode, encode, rule_signature, signature
from rulebook.diff import Entry
from scenarios.expectations import check_expectations
from scenarios.explain import verified_quotes
from tests.conftest import CORPORA, REPO


def rule(number: str, text: str, parent: str | None = None, title: str | None = None) -> Entry:
    return Entry(number, parent, title, text)


OLD = [
    rule("500", "", title="Turn Structure"),
    rule("503", "", "500", "Upkeep Step"),
    rule("503.1", "The upkeep step has no turn-based actions. Once it begins, the active player gets priority.", "503"),
    rule("505", "", "500", "Main Phase"),
    rule("505.4", "Third, the active player gets priority.", "505"),
    rule("704.5c", "If a player has ten or more poison counters, that player loses the game.", "704"),
    rule("704", "", None, "State-Based Actions"),
    rule(
        "702.19b",
        "The controller of an attacking creature with trample first assigns damage to the creature(s) "
        "blocking it. Once all those blocking creatures are assigned lethal damage, any excess damage "
        "is assigned as its controller chooses.",
        "702.19",
    ),
]
TABLE = {
    "turn.upkeep": {"rules": ["503.1"], "phrase": "the active player gets priority"},
    "turn.main": {"rules": ["505.4"], "phrase": "the active player gets priority"},
    "sba.poison": {"rules": ["704.5c"], "phrase": "ten or more poison counters"},
    "combat.trample": {"rules": ["702.19b"], "phrase": "any excess damage is assigned"},
}


def signatures_of(entries: list[Entry]) -> dict:
    rules = {e.number: e for e in entries}
    return {n: rule_signature(rules, rules[n]) for e in TABLE.values() for n in e["rules"]}


def test_a_signature_is_hashed_words_that_round_trip_and_never_the_text():
    sig = signature("If a player has ten or more poison counters, that player loses the game.")
    assert decode(encode(sig)) == sig
    assert "poison" not in encode(sig)


def test_keys_follow_their_rules_into_a_renumbered_edition():
    new = [
        rule("500", "", title="Turn Structure"),
        rule("502", "", "500", "Upkeep Step"),
        rule("502.2", "Second, the active player gets priority. Players may cast instants.", "502"),
        rule("506", "", "500", "Main Phase"),
        rule("506.5", "Fifth, the active player gets priority.", "506"),
        rule("704", "", None, "State-Based Actions"),
        rule("704.6c", "If a player has ten or more poison counters, that player loses the game.", "704"),
        rule("702.20", "", None, "Trample"),
        rule(
            "702.20b",
            "The controller of an attacking creature with trample first assigns damage to the "
            "creature(s) blocking it. Once all those blocking creatures are assigned lethal damage, any "
            "excess damage is assigned as its controller chooses.",
            "702.20",
        ),
    ]
    moved = carry("mtg", "new", "2030-01-01", new, [Source("2026-02-27", TABLE, signatures_of(OLD))])
    placed = {p.key: p.rules for p in moved.placed}
    assert placed["sba.poison"] == ("704.6c",) and placed["combat.trample"] == ("702.20b",)
    # Both steps' rules say the phrase; the one under the Upkeep Step heading is the upkeep's.
    assert placed["turn.upkeep"] == ("502.2",) and placed["turn.main"] == ("506.5",)
    assert moved.unlocated == [] and moved.table == "2026-02-27"


def test_a_rule_reworded_past_its_phrase_is_not_located_never_guessed():
    new = [
        rule("704", "", None, "State-Based Actions"),
        rule("704.5c", "If a player has 10 or more poison counters, that player loses the game.", "704"),
        rule("702.19b", "A creature with trample deals its damage as it likes.", "702.19"),
    ]
    moved = carry("mtg", "new", "2030-01-01", new, [Source("2026-02-27", TABLE, signatures_of(OLD))])
    assert set(moved.unlocated) == {"sba.poison", "combat.trample", "turn.upkeep", "turn.main"}
    assert all(p.rules == () for p in moved.placed)


def test_a_phrase_said_by_several_rules_with_nothing_to_tell_them_apart_is_not_located():
    new = [
        rule("601.1", "Then the active player gets priority."),
        rule("602.1", "Then the active player gets priority."),
    ]
    moved = carry("mtg", "new", None, new, [Source("2026-02-27", {"turn.upkeep": TABLE["turn.upkeep"]}, {})])
    assert moved.unlocated == ["turn.upkeep"]


def test_no_text_is_quoted_under_a_key_whose_phrase_the_rule_lacks():
    cite = Citations(
        "mtg",
        "x",
        {
            "sba.poison": {"rules": ["704.5c"], "phrase": "ten or more poison counters"},
            "turn.main": {"rules": ["505.4"], "phrase": "the active player gets priority"},
        },
    )
    texts = {
        "704.5c": "If a player has 10 or more poison counters, that player loses the game.",
        "505.4": "Third, the active player gets priority.",
    }
    quoted, refused = verified_quotes(
        cite,
        "book",
        ["505.4", "704.5c"],
        ["turn.main", "sba.poison"],
        lambda b, n: texts.get(n),
        lambda b, n: texts.get(n),
    )
    assert quoted == [("505.4", texts["505.4"]), ("704.5c", None)] and refused == {"704.5c": ["sba.poison"]}


def test_check_fails_an_expectation_about_rules_cited_that_rests_on_a_key_not_located():
    step = Step(
        1,
        "Ana passes",
        False,
        True,
        (Event("x", (), ("turn.main",)), Event("y", ("117.3d",), ("priority.pass",))),
        {"priority": "Ben"},
        None,
        (),
    )
    ok, missing = check_expectations(
        [{"after": 1, "priority": "Ben"}, {"after": 1, "cites": ["117.3d"]}],
        [step],
        unlocated=frozenset({"turn.main"}),
        book="cr-2030",
    )
    assert ok.ok and not missing.ok
    assert "turn.main not located in cr-2030" in missing.detail


@pytest.mark.skipif(not CORPORA.exists(), reason=f"the corpora are absent ({CORPORA}): signatures are made from them")
def test_the_shipped_signatures_are_those_of_the_shipped_tables():
    """bench/sign_citation_tables.py --check: every table's signatures made from its edition's text."""
    done = subprocess.run(
        [sys.executable, str(REPO / "bench" / "sign_citation_tables.py"), "--check"], capture_output=True, text=True
    )
    assert done.returncode == 0, done.stderr


def test_a_rule_cited_beside_a_refusals_reason_is_checked_against_the_keys_citing_it():
    """An illegal action names the rules of all its keys but only its reason as a key: a rule no key of
    the run claims is quoted only when a key of the table citing it has its phrase there."""
    cite = Citations(
        "mtg",
        "x",
        {
            "turn.main": {"rules": ["505.4"], "phrase": "the active player gets priority"},
            "cast.sorcery_speed": {"rules": ["307.1"], "phrase": "main phase"},
        },
    )
    texts = {"505.4": "Third, the active player gets priority.", "307.1": "A player may cast a sorcery any time."}
    quoted, refused = verified_quotes(
        cite, "book", ["307.1", "505.4"], ["turn.main"], lambda b, n: texts.get(n), lambda b, n: texts.get(n)
    )
    assert quoted == [("307.1", None), ("505.4", texts["505.4"])] and refused == {"307.1": ["cast.sorcery_speed"]}
