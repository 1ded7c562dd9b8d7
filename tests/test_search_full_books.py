"""What a judge sees from `judge search` on the full documents (../shared/corpora): words that are
words are never "corrected", a question is answered by rules, a derived term names its rule.

The books load once for the whole session; every test here skips, saying why, without the corpora.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest
from conftest import CORPORA

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "bench"))
import search_quality as sq  # noqa: E402

CR, RIFTBOUND = "cr-2026", "riftbound-v1.2"
REAL_WORDS = ("runs", "killed", "swings", "bounced", "creature", "dies", "blocks", "attacks")

# Question-like queries (more than three content words, or a question word first), written for this
# test, none from tests/search_questions.yaml. Several name many defined terms, which filled the top
# five with glossary entries before rules came first.
QUESTIONS = {
    CR: [
        "what happens to a triggered ability when the spell that caused it is countered",
        "can I respond to a spell with an activated ability",
        "does a creature with deathtouch and trample need to assign lethal damage",
        "what happens when a token leaves the battlefield",
        "who chooses the order of triggered abilities put on the stack",
        "can a player concede the game at any time",
        "when are state-based actions checked",
        "can I cast an instant during the combat damage step",
        "reflexive trigger countered spell copy replacement effect",
        "how does first strike combat damage work",
    ],
    RIFTBOUND: [
        "can I react to a unit being played",
        "what happens when a unit dies in combat",
        "how many cards do I draw at the start of the game",
        "when does a unit become exhausted",
        "can gear be attached to an enemy unit",
        "what happens when two units fight at a battlefield",
        "how do I score points by conquering a battlefield",
        "can I play a spell during my opponent's turn",
        "what does the deflect keyword do to spells",
        "mighty unit accelerate damage might showdown",
    ],
}


@pytest.fixture(scope="session")
def full_home(full_books):
    """The session's library of both full documents (conftest.full_books)."""
    home, _, loaded = full_books
    missing = [str(path) for path, _ in sq.FULL_BOOKS.values() if not path.exists()]
    if missing:
        pytest.skip(f"full documents absent from {CORPORA}: {', '.join(missing)}")
    assert loaded == {CR, RIFTBOUND}
    return home


@pytest.fixture
def store(full_home, full_books):
    return full_books[1]


@pytest.fixture
def full_judge(full_home, judge, monkeypatch):
    monkeypatch.setenv("JUDGE_HOME", str(full_home))
    return judge


@pytest.mark.parametrize("book", [CR, RIFTBOUND, "mtg", "riftbound"])
def test_real_words_are_never_rewritten(store, book):
    from rulebook.search import search

    for word in REAL_WORDS:
        result = search(store, f"my {word} thing", book=book, meaning=False)
        assert result.corrected is None, (book, word, result.corrected)
    question = search(store, "what happens when my creature is killed", book=book, meaning=False)
    assert question.corrected is None


@pytest.mark.parametrize("book", [CR, RIFTBOUND])
def test_a_misspelt_word_is_still_corrected(full_judge, book):
    code, out, _ = full_judge("search", "priorty", "--book", book, "--words", "--json")
    assert code == 0 and json.loads(out)["corrected"] == "priority"
    code, out, _ = full_judge("search", "priorty", "--book", book, "--words")
    assert out.startswith("showing results for: priority  (you typed: priorty)")


def test_exact_searches_the_words_as_typed(full_judge):
    code, out, _ = full_judge("search", "priorty", "--book", CR, "--words", "--exact", "--json")
    result = json.loads(out)
    assert result["corrected"] is None and result["hits"] == [] and code == 1
    code, out, _ = full_judge("search", "priorty", "--book", CR, "--words", "--exact")
    assert "showing results for" not in out


@pytest.mark.parametrize("book", [CR, RIFTBOUND])
def test_a_question_is_answered_by_rules(store, book):
    """At least 3 of the top 5 are rules for every question-like query (or every rule found)."""
    from rulebook.search import question_like, search

    for question in QUESTIONS[book]:
        assert question_like(question), question
        hits = search(store, question, book=book).hits
        rules = sum(1 for h in hits if h.kind == "rule")
        top = sum(1 for h in hits[:5] if h.kind == "rule")
        assert top >= min(3, rules), (question, [(h.kind, h.id) for h in hits[:5]])
        assert rules >= 3, (question, "too few rules found to test")


def test_a_short_query_naming_a_term_may_show_the_term_first(store):
    from rulebook.search import search

    hits = search(store, "deathtouch and trample", meaning=False).hits
    assert hits[0].kind == "term" and hits[0].id == "Deathtouch"


def test_a_derived_term_names_its_rule(full_judge, store):
    code, out, _ = full_judge("search", "can I react to a unit being played", "--book", RIFTBOUND, "--json")
    hits = json.loads(out)["hits"]
    derived = {
        r["term"]: r["rule"]
        for r in store.query(
            "SELECT term, derived_from AS rule FROM terms WHERE book = ? AND derived_from IS NOT NULL", [RIFTBOUND]
        )
    }
    terms = [h for h in hits if h["kind"] == "term"]
    assert any(h["rule"] for h in terms)
    for h in hits:
        assert h["rule"] == (derived.get(h["id"]) if h["kind"] == "term" else None), h
    code, out, _ = full_judge("search", "can I react to a unit being played", "--book", RIFTBOUND)
    shown = next(h for h in terms if h["rule"])
    assert f"term: {shown['id']}  (rule {shown['rule']})" in out


def test_a_derived_term_and_its_rule_are_one_hit(full_judge, store):
    rule = store.query("SELECT derived_from AS rule FROM terms WHERE book = ? AND term = 'Deflect'", [RIFTBOUND])[0][
        "rule"
    ]
    code, out, _ = full_judge("search", "deflect", "--book", RIFTBOUND, "--json")
    hits = json.loads(out)["hits"]
    assert not [h for h in hits if h["kind"] == "term" and h["id"] == "Deflect"]
    first = hits[0]
    assert (first["kind"], first["id"], first["why"].get("term")) == ("rule", rule, "Deflect")
    assert len([h for h in hits if h["id"] == rule]) == 1
    code, out, _ = full_judge("search", "deflect", "--book", RIFTBOUND)
    assert out.splitlines()[0] == f"[{RIFTBOUND}] {rule}  (defines the term Deflect)"


def test_no_highlight_marks_in_text_output(full_judge):
    code, out, _ = full_judge("search", "who gets priority during a showdown", "--book", RIFTBOUND, "--words")
    assert code == 0 and "**" not in out
    code, out, _ = full_judge("search", "who gets priority during a showdown", "--book", RIFTBOUND, "--words", "--json")
    assert any("**" in h["snippet"] for h in json.loads(out)["hits"])
