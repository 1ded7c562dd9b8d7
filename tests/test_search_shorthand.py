"""What judges type (issue 21): shorthand ("sba", "etb", "fizzle") finds its rule, `judge define`
reads it too, a misspelling is taken for the book's own game terms, and a question asking what
resolves first finds the rule that says which does.

Seeds: the session's library (conftest.home). Full documents: conftest.full_books, loaded once per
session; those tests skip, saying why, without ../shared/corpora.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest
from conftest import full_book

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "bench"))
import search_quality as sq  # noqa: E402

CR, RIFTBOUND = "cr-2026", "riftbound-v1.2"

# Each shorthand, what the search reads it as in the 2026 CR, and the rules that say what it is (a hit
# counts when it is one of them or a sub-rule): 704 State-Based Actions; 700.15 "enters" is short for
# "enters the battlefield", 603.6a enters-the-battlefield abilities; 603.6c and 603.10a
# leaves-the-battlefield abilities; 113.7a, 608.2b, 608.2h last known information (the glossary's
# rules); 604.3 characteristic-defining abilities; 101.4 the APNAP order; 608.2b a spell or ability
# whose targets are all illegal doesn't resolve.
SHORTHAND = {
    "SBA": ("state-based actions", ["704"]),
    "ETB": ("enters the battlefield", ["700.15", "603.6a"]),
    "LTB": ("leaves the battlefield", ["603.6c", "603.10a"]),
    "LKI": ("last known information", ["113.7a", "608.2b", "608.2h"]),
    "CDA": ("characteristic-defining ability", ["604.3"]),
    "APNAP": ("APNAP (active player, nonactive player order)", ["101.4"]),
    "fizzle": ("targets, illegal, doesn't resolve", ["608.2b"]),
}


def _search(judge, *args):
    code, out, _ = judge("search", *args, "--json")
    return code, json.loads(out)


@pytest.fixture
def full_judge(full_books, judge, monkeypatch):
    full_book(full_books[1:], CR, RIFTBOUND)
    monkeypatch.setenv("JUDGE_HOME", str(full_books[0]))
    return judge


@pytest.mark.parametrize("typed", sorted(SHORTHAND))
def test_shorthand_finds_its_rule_in_the_full_cr(full_judge, typed):
    meant, rules = SHORTHAND[typed]
    code, result = _search(full_judge, typed, "--book", CR, "--limit", "3")
    assert code == 0 and result["corrected"] == meant, result["corrected"]
    top = [h["id"] for h in result["hits"] if h["kind"] == "rule"]
    assert any(sq.answers(h, rules) for h in top), (typed, [h["id"] for h in result["hits"]])


def test_shorthand_is_said_and_exact_keeps_the_words(full_judge):
    code, out, _ = full_judge("search", "do SBAs use the stack", "--book", CR, "--words")
    assert out.startswith(
        "showing results for: do state-based actions use the stack  (you typed: do SBAs use the stack)"
    )
    code, result = _search(full_judge, "sba", "--book", CR, "--exact")
    assert result["corrected"] is None and code == 1


def test_the_seed_excerpt_reads_shorthand_in_its_own_words(home, judge):
    # The seed is an older glossary and turn structure: "state-based effects" (Poison Counter's entry
    # cites rule 420 by that name), "leaves play" (306.2), "characteristic-setting ability" (the power
    # entry); what it lacks is still said, with the hint to load the full rules.
    expected = {
        "SBA": ("state-based effects", "Poison Counter"),
        "LTB": ("leaves play", "306.2"),
        "CDA": ("characteristic-setting ability", "power"),
    }
    for typed, (meant, hit) in expected.items():
        code, result = _search(judge, typed, "--book", "mtg", "--limit", "3")
        assert result["corrected"] == meant and hit in [h["id"] for h in result["hits"]], (typed, result)
    code, result = _search(judge, "ETB", "--book", "mtg")
    assert result["corrected"] == "enters the battlefield" and code == 1 and "judge load" in result["hint"]


def test_shorthand_is_the_game_s(home, judge):
    # Riftbound has no enters-the-battlefield: "etb" stays as typed there; its players' "bf" is a
    # Battlefield. A card's nickname is no shorthand ("bolt" is left to the card search).
    assert _search(judge, "etb", "--book", "riftbound")[1]["corrected"] is None
    assert _search(judge, "bf", "--book", "riftbound")[1]["corrected"] == "battlefield"
    assert _search(judge, "etb", "--book", "mtg")[1]["corrected"] == "enters the battlefield"
    assert _search(judge, "bolt", "--book", "mtg")[1]["corrected"] is None


def test_an_older_edition_reads_shorthand_in_its_words():
    from rulebook.search.query import expand_shorthand

    older = {"state-based effects", "comes into play", "converted mana cost"}
    used = older.__contains__
    assert [expand_shorthand(w, {"mtg"}, used) for w in ("sba", "etb", "cmc")] == [
        "state-based effects",
        "comes into play",
        "converted mana cost",
    ]
    assert expand_shorthand("cmc", {"mtg"}, lambda p: True) == "cmc (mana value)"


def test_define_reads_shorthand(full_judge):
    code, out, _ = full_judge("define", "sba", "--book", CR, "--json")
    (entry,) = json.loads(out)
    assert code == 0 and entry["term"] == "State-Based Actions" and entry["rules"][0]["number"] == "704"
    for typed, term in (
        ("etb", "Enters the Battlefield"),
        ("LKI", "Last Known Information"),
        ("cda", "Characteristic-Defining Ability"),
        ("apnap", "Active Player, Nonactive Player Order"),
        ("mv", "Mana Value"),
    ):
        code, out, _ = full_judge("define", typed, "--book", CR, "--json")
        assert [e["term"] for e in json.loads(out)] == [term], typed


def test_define_shorthand_without_an_entry_says_what_it_stands_for(home, judge):
    code, out, err = judge("define", "sba", "--book", "mtg")
    assert code == 1 and "Background" not in err
    assert "sba is judges' shorthand for: state-based actions | state-based effects" in err


@pytest.mark.parametrize(
    "book, typed, fixed",
    [
        (RIFTBOUND, "ganking", None),
        (RIFTBOUND, "conqeur", "conquer"),
        (RIFTBOUND, "shodown", "showdown"),
        (RIFTBOUND, "gankign", "ganking"),
        # Not the Magic book's words: no English look-alike two letters away ("gaining", "corner", "shown")
        (CR, "ganking", None),
        (CR, "conqeur", None),
        (CR, "shodown", None),
        (CR, "deathtuch", "deathtouch"),
    ],
)
def test_a_misspelling_is_taken_for_the_book_s_own_word(full_books, book, typed, fixed):
    from rulebook.search import search

    store = full_book(full_books[1:], CR, RIFTBOUND)
    assert search(store, typed, book=book, meaning=False).corrected == fixed


def test_a_tie_goes_to_the_game_term():
    from rulebook.search.query import closest

    # "sheild": one edit from "shield" (two letters swapped) and from "sheila" (one changed)
    assert closest("sheild", {"sheila": 9, "shield": 2}, terms={"shield"}) == "shield"
    assert closest("counterd", {"counter": 90, "countered": 5}, terms={"counter"}) == "countered"


@pytest.mark.parametrize(
    "book, question, answer",
    [
        # The newest item on the Chain resolves (v1.2 336.1); the top (last-added) object of the stack
        # (405.5, 608.1): the rules never say "first".
        (RIFTBOUND, "which item on the chain resolves first", "336.1"),
        (CR, "which spell on the stack resolves first", "405.5"),
    ],
)
def test_what_resolves_first_finds_the_rule_that_says_which(full_books, book, question, answer):
    from rulebook.search import search

    store = full_book(full_books[1:], CR, RIFTBOUND)
    words = [h.id for h in search(store, question, book=book, kinds=("rule",), meaning=False).hits[:3]]
    assert answer in words, words
    assert answer in [h.id for h in search(store, question, book=book, kinds=("rule",)).hits[:5]]
