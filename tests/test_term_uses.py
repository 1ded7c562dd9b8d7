"""Which glossary terms a rule uses (the graph's `uses` edges, issue 21): a glossary word in its
ordinary English sense is not a use of the term ("during the same combat damage step" is not During
(Obsolete), "in that case" not Case, the enchantment subtype)."""

from __future__ import annotations

import json

import pytest
from conftest import full_book

from rulebook.model import Rule, Term
from rulebook.references import uses

CR, RIFTBOUND = "cr-2026", "riftbound-v1.2"

GLOSSARY = [  # a book that writes its terms in lower case, as Magic's does, but its subtypes
    Term("Case", "An enchantment subtype. See rule 719, “Case Cards.”"),
    Term("Creature", "A card type. See rule 302, “Creatures.”"),
    Term("Trample", "A keyword ability. See rule 702.19, “Trample.”"),
    Term("During", "Some older cards used the phrase “during [phase], [action].”", obsolete=True),
    Term(
        "Totem Armor",
        "An obsolete keyword ability that has been renamed. See rule 702.89, “Umbra Armor.”",
        obsolete=True,
    ),
]
RULES = [
    Rule("302.1", parent="302", text="A creature is a permanent that can attack."),
    Rule("702.19", title="Trample"),
    Rule("702.19a", parent="702.19", text="An attacking creature with trample can assign excess damage."),
    Rule(
        "702.19b",
        parent="702.19",
        text="Damage is assigned during the same combat damage step; in that case the creature can't assign any to the player.",
    ),
    Rule("702.89a", parent="702.89", text="Umbra armor is a static ability. It used to be called totem armor."),
    Rule(
        "719.1", parent="719", text="Each Case has a to solve ability. A solved Case is a Case with solved designation."
    ),
]


def test_ordinary_words_are_not_uses_of_a_term():
    found = uses(RULES, GLOSSARY)
    assert ("702.19a", "Trample") in found and ("702.19b", "Creature") in found
    assert ("702.19b", "During") not in found and ("702.19b", "Case") not in found
    assert ("719.1", "Case") in found  # written as the rules write the subtype
    assert ("702.89a", "Totem Armor") in found  # an obsolete term, where its entry points (702.89)


def test_a_book_that_capitalises_its_terms_keeps_its_lower_case_uses():
    # Riftbound writes its terms with capitals, and now and then in lower case ("the chain"): a capital
    # says nothing there, so both count.
    terms = [
        Term("Chain", "The Chain is a zone.", source="rule 327"),
        Term("Showdown", "A Showdown is a window.", source="rule 338"),
    ]
    rules = [
        Rule("327", text="The Chain is a zone."),
        Rule("338", text="A Showdown is a window."),
        Rule("340", text="When the last item on the chain resolves during a Showdown, Focus passes."),
    ]
    assert uses(rules, terms) == [("340", "Chain"), ("340", "Showdown")]


def test_the_graph_of_702_19b_has_no_ordinary_words(full_books, judge, monkeypatch):
    full_book(full_books[1:], CR)
    monkeypatch.setenv("JUDGE_HOME", str(full_books[0]))
    code, out, _ = judge("graph", "702.19b", "--book", CR, "--format", "json")
    terms = {n["name"] for n in json.loads(out)["nodes"] if n["kind"] == "term"}
    assert code == 0 and {"Trample", "Lethal Damage", "Combat Damage Step"} <= terms
    assert not terms & {"During", "Case"}, terms


@pytest.mark.parametrize("book, term, some", [(CR, "Case", "719.3"), (RIFTBOUND, "Chain", "336.1")])
def test_real_uses_stay(full_books, book, term, some):
    store = full_book(full_books[1:], CR, RIFTBOUND)
    assert (some, term) in store.uses(book)
