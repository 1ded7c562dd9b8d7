"""Riftbound card text read with a grammar (issue 23): the registry of verbs is the one place a verb is kept,
the documented vocabulary is generated from it, citation keys are typed constants, and what the grammar
cannot read is refused, never skipped."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
import yaml

from engine.riftbound import cardtext, citekeys, effects
from engine.riftbound.effects import Instruction, Target

REPO = Path(__file__).resolve().parents[1]


def test_the_docs_vocabulary_is_what_the_registry_generates():
    text = (REPO / "docs" / "scenarios.md").read_text(encoding="utf-8")
    start = text.index("| instruction | what it does |\n")
    table = text[start : text.index("\n\n", start)]
    assert table == cardtext.vocabulary_table(), (
        "docs/scenarios.md's effect vocabulary is not the registry's: replace its table with "
        "engine.riftbound.cardtext.vocabulary_table()"
    )


def test_every_verb_has_a_rule_forms_and_a_unique_name():
    names = [v.name for v in cardtext.VERBS]
    assert len(names) == len(set(names))
    for v in cardtext.VERBS:
        assert v.rule and v.forms, v.name
    grammar = cardtext.grammar()
    for v in cardtext.VERBS:
        assert re.search(rf"^{v.name}: ", grammar, re.M), v.name
    assert effects.VOCABULARY == cardtext.vocabulary()


def _table_keys() -> set[str]:
    keys: set[str] = set()
    for path in (REPO / "data" / "citations").glob("riftbound-*.yaml"):
        keys |= set(yaml.safe_load(path.read_text(encoding="utf-8")).get("citations") or {})
    return keys


def test_citation_keys_are_constants_of_the_shipped_tables():
    keys = _table_keys()
    assert set(citekeys.ALL) <= keys, sorted(set(citekeys.ALL) - keys)
    for v in cardtext.VERBS:
        assert set(v.keys) <= set(citekeys.ALL), (v.name, set(v.keys) - set(citekeys.ALL))
    # instructions.py names its keys by constant only: a string key there could be misspelt unseen
    source = (REPO / "engine" / "riftbound" / "instructions.py").read_text(encoding="utf-8")
    literal = [k for k in re.findall(r'"([a-z_0-9]+\.[a-z_0-9.]+)"', source) if k in keys]
    assert not literal, literal


@pytest.mark.parametrize(
    "text, expected",
    [
        (
            "Deal 3 to a unit at a battlefield and draw 1.",
            (
                Instruction(
                    "deal", 3, Target("unit", where="at a battlefield"), text="deal 3 to a unit at a battlefield"
                ),
                Instruction("draw", 1, data=("you",), text="draw 1"),
            ),
        ),
        (
            "Choose a friendly unit and an enemy unit. They deal damage equal to their Mights to each other.",
            (
                Instruction("choose", 0, Target("unit", "friendly"), text="choose a friendly unit"),
                Instruction("choose", 0, Target("unit", "enemy"), text="choose an enemy unit"),
                Instruction("fight", 0, Target("they"), text="they deal damage equal to their mights to each other"),
            ),
        ),
        (
            "You may kill up to one gear.",
            (
                Instruction(
                    "may",
                    body=(Instruction("kill", 0, Target("gear", upto=1), text="kill up to one gear"),),
                    text="you may kill up to one gear",
                ),
            ),
        ),
        (
            "Heal it, exhaust it, and recall it.",
            (
                Instruction("heal", 0, Target("it"), text="heal it"),
                Instruction("exhaust", 0, Target("it"), text="exhaust it"),
                Instruction("recall", 0, Target("it"), text="recall it"),
            ),
        ),
    ],
)
def test_sentences_are_read_clause_by_clause(text, expected):
    assert effects.parse(text) == expected


def test_a_reflexive_trigger_takes_the_rest_of_its_paragraph():
    (deal, reflexive) = effects.parse("Deal 2 to a unit. If this kills it, do this: draw 1. Buff me.")
    assert deal.verb == "deal" and reflexive.verb == "reflexive"
    assert reflexive.data == ("if this kills it",)
    assert [i.verb for i in reflexive.body] == ["draw", "buff"]
    assert reflexive.text == "if this kills it, do this: draw 1. buff me."


@pytest.mark.parametrize(
    "text, unread",
    [
        ("Scry 2.", "scry 2"),
        ("Draw 1. Explode everything.", "explode everything"),
        ("Deal 2 to a unit, then explode it.", "explode it"),
        ("Give a unit +2 might.", "give a unit +2 might"),  # how long? never read as for good
    ],
)
def test_what_is_not_read_is_refused_by_its_words(text, unread):
    with pytest.raises(ValueError, match=re.escape(f'unknown effect "{unread}"')):
        effects.parse(text)


def test_text_is_parsed_once():
    effects.parse.cache_clear()
    effects.parse("Draw 1.")
    effects.parse("Draw 1.")
    assert effects.parse.cache_info().hits == 1


def test_the_shipped_parse_tables_are_the_grammars():
    from engine.riftbound import cardtext_tables

    assert cardtext_tables.KEY == cardtext.grammar_key(), (
        "the grammar changed: write its parse tables again: python bench/write_cardtext_tables.py"
    )


@pytest.mark.parametrize(
    "text, spec",
    [
        ("When you play me", effects.TriggerSpec("play")),
        ("Whenever I conquer a battlefield that was uncontrolled", effects.TriggerSpec("conquer", what="uncontrolled")),
        ("When another friendly unit you control dies", effects.TriggerSpec("dies", "other friendly")),
        ("When you play your second card in a turn", effects.TriggerSpec("played", "me", "card", 2)),
        (
            "At the end of your turn, if I'm at a battlefield",
            effects.TriggerSpec("end", "you", condition="at a battlefield"),
        ),
        ("At start of your Beginning Phase", effects.TriggerSpec("beginning", "you")),
    ],
)
def test_triggers_are_read_by_the_grammar(text, spec):
    assert effects.parse_trigger(text) == spec


def test_an_unknown_trigger_is_refused():
    with pytest.raises(ValueError, match='unknown trigger condition "when i dance"'):
        effects.parse_trigger("When I dance")


def test_every_instruction_the_grammar_makes_is_carried_out():
    """No placeholder instruction: each verb the reader can produce has its branch in instructions.py."""
    made = set(re.findall(r'Instruction\(\s*"([a-z_]+)"', (REPO / "engine" / "riftbound" / "cardtext.py").read_text()))
    made |= {v.name for v in cardtext.VERBS if isinstance(v, cardtext.OnTarget)}
    source = (REPO / "engine" / "riftbound" / "instructions.py").read_text(encoding="utf-8")
    carried = set(re.findall(r'\bv == "([a-z_]+)"', source)) | set(re.findall(r'ins\.verb == "([a-z_]+)"', source))
    assert made and made <= carried, sorted(made - carried)
