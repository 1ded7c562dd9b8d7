"""Riftbound card text read with a grammar (issue 23): the registry of verbs is the one place a verb is kept,
the documented vocabulary is generated from it, citation keys are typed constants, and what the grammar
cannot read is refused, never skipped."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
import yaml

from engine.riftbound import cardtext, citekeys, effects, instructions
from engine.riftbound.effect_types import Condition
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
    """No placeholder instruction: each verb the reader can produce has its step in instructions.py (its
    registries, or a step within a step: "each player discards their hand")."""
    made = set(re.findall(r'Instruction\(\s*"([a-z_]+)"', (REPO / "engine" / "riftbound" / "cardtext.py").read_text()))
    made |= {v.name for v in cardtext.VERBS if isinstance(v, cardtext.OnTarget)}
    source = (REPO / "engine" / "riftbound" / "instructions.py").read_text(encoding="utf-8")
    carried = set(instructions.carried())
    carried |= set(re.findall(r'\bv == "([a-z_]+)"', source)) | set(re.findall(r'ins\.verb == "([a-z_]+)"', source))
    assert made and made <= carried, sorted(made - carried)


@pytest.mark.parametrize(
    "text, condition, governed",
    [
        ("If it is stunned, kill it.", Condition("it", state="stunned", text="it is stunned"), ["kill"]),
        ("If I am [Mighty], draw 1.", Condition("me", state="mighty", text="i am mighty"), ["draw"]),
        (
            "If you control a Poro, buff me and draw 1.",
            Condition(
                "control", target=Target("permanent", "your", filters=(("tag", "Poro"),)), text="you control a poro"
            ),
            ["buff", "draw"],
        ),
        (
            "Give me +2 [M] this turn if there is a ready enemy unit here.",
            Condition(
                "there",
                target=Target("unit", "enemy", "here", filters=(("state", "ready"),)),
                text="there is a ready enemy unit here",
            ),
            ["might"],
        ),
        (
            "Draw 1 if you have one or fewer cards in your hand.",
            Condition("at_most", n=1, counted="hand", text="you have one or fewer cards in your hand"),
            ["draw"],
        ),
        (
            "If you have 4+ units at that battlefield, draw 2.",
            Condition("at_least", n=4, counted="units", where="there", text="you have 4+ units at that battlefield"),
            ["draw"],
        ),
    ],
)
def test_a_condition_is_read_into_a_typed_condition_before_or_after_what_it_governs(text, condition, governed):
    (read,) = effects.parse(text)
    assert read.verb == "if" and read.data == (condition,)
    assert [i.verb for i in read.body] == governed


def test_otherwise_follows_a_condition():
    choose, cond, otherwise = effects.parse("Choose an enemy unit. If it is stunned, kill it. Otherwise, stun it.")
    assert (choose.verb, cond.verb, otherwise.verb) == ("choose", "if", "otherwise")
    assert [i.verb for i in otherwise.body] == ["stun"]


def test_targets_governed_by_a_condition_are_chosen_as_the_effect_is_played():
    assert [i.verb for i in effects.chosen(effects.parse("If you control a Poro, deal 2 to a unit."))] == ["deal"]


@pytest.mark.parametrize(
    "text, passive",
    [
        ("While I'm [Mighty], I have [Deflect].", ("self_keywords", (("Deflect", 1),), "mighty")),
        ("Other friendly units here have +1 [M].", ("others_might", 1, "other friendly units", "here")),
        (
            "While you have 8+ runes, I have +4 [M].",
            ("self_might", 4, Condition("at_least", n=8, counted="runes", text="you have 8+ runes")),
        ),
        (
            "If an opponent controls a battlefield, I enter ready.",
            ("enters_ready", Condition("opponent_controls", text="an opponent controls a battlefield")),
        ),
        ("Other friendly units enter ready.", ("others_enter_ready",)),
        ("You may play me to an open battlefield.", ("play_to", "open")),
        ("Friendly units may be played to open battlefields.", ("others_play_to", "open")),
        ("Spells you play cost [1] less.", ("discount", 1, "spells")),
        ("While I'm at a battlefield, opponents can't gain points.", ("no_points",)),
    ],
)
def test_passive_abilities_are_read_by_the_grammar(text, passive):
    assert effects.parse_passive(text) == passive


def test_a_passive_condition_not_read_is_refused_by_its_words():
    with pytest.raises(ValueError, match='unknown condition "while i\'m angry"'):
        effects.parse_passive("While I'm angry, I have +2 [M].")


def test_each_player_kills_one_of_their_own_is_no_target():
    (ins,) = effects.parse("Each player kills one of their units.")
    assert (ins.verb, ins.target, ins.data) == ("each_kill", None, ("player", "unit"))
    assert effects.chosen((ins,)) == []


@pytest.mark.parametrize(
    "text, verb, target, data",
    [
        (
            "Kill all damaged enemy units here.",
            "kill_all",
            Target("each", "enemy", "here", filters=(("type", "unit"), ("state", "damaged"))),
            (),
        ),
        ("Kill all gear.", "kill_all", Target("each", filters=(("type", "gear"),)), ()),
        ("Exhaust all friendly units.", "exhaust_all", Target("each", "friendly"), ()),
        ("Deal 2 to all enemy units in combat.", "deal_all", Target("each", "enemy", "in combat"), ()),
        ("We deal damage equal to our Mights to each other.", "fight", Target("they"), ("we",)),
        ("Its owner channels 1 rune exhausted.", "channel", None, ("exhausted", "it owner")),
        (
            "Play a unit from your trash, ignoring its Energy cost.",
            "play_from",
            Target("card", "your", filters=(("type", "unit"),)),
            ("energy",),
        ),
    ],
)
def test_families_of_phrases_are_one_production_each(text, verb, target, data):
    (ins,) = effects.parse(text)
    assert (ins.verb, ins.target, ins.data) == (verb, target, data)


@pytest.mark.parametrize(
    "text, spec",
    [
        ("When you play another unit", effects.TriggerSpec("played", what="other unit")),
        ("When you play a spell that costs [5] or more", effects.TriggerSpec("played", what="spell", cost=5)),
        ("When you play a [Mighty] unit", effects.TriggerSpec("played", what="mighty unit")),
    ],
)
def test_what_a_played_card_is_read_in_a_trigger(text, spec):
    assert effects.parse_trigger(text) == spec


@pytest.mark.parametrize(
    "text, passive",
    [
        ("I must be assigned combat damage last.", ("assigned_last",)),
        ("This enters exhausted.", ("enters_exhausted",)),
        ("You may play me to an occupied enemy battlefield.", ("play_to", "occupied enemy")),
    ],
)
def test_more_passive_abilities(text, passive):
    assert effects.parse_passive(text) == passive


def test_spend_my_buff_is_a_cost_and_two_events_trigger_one_ability_each():
    (ability,) = effects.abilities("Spend my buff: Give me +4 [M] this turn.")
    assert ability.kind == "activated" and [i.verb for i in ability.cost.extra] == ["spend_buff"]
    assert [t.event for t in effects.parse_triggers("When I'm played and when I conquer")] == ["play", "conquer"]


@pytest.mark.parametrize(
    "text, passive",
    [
        ("My Might is increased by your points.", ("self_might_per", 1, ("points",))),
        ("My Might is increased by the number of cards in your trash.", ("self_might_per", 1, ("trash",))),
        (
            "I get +1 [M] for each buffed friendly unit at my battlefield.",
            ("self_might_per", 1, ("units", Target("unit", "friendly", "here", filters=(("state", "buffed"),)))),
        ),
        ("I cost [1] less for each card in your trash.", ("self_discount", 1, "", ("trash",))),
        (
            "Other buffed friendly units at my battlefield have +2 [M].",
            ("others_might", 2, "other buffed friendly units", "here"),
        ),
        (
            "Friendly buffed units have [Deflect] if they didn't already.",
            ("others_keywords", (("Deflect", 1),), "friendly buffed units", "", "unless_has"),
        ),
    ],
)
def test_varying_amounts_and_who_a_passive_covers(text, passive):
    assert effects.parse_passive(text) == passive


def test_legion_on_a_discount_and_an_optional_additional_cost():
    (legion,) = effects.abilities("[Legion] - I cost [2] less.")
    assert (legion.kind, legion.data) == ("passive", ("self_discount", 2, "legion", None))
    (optional,) = effects.abilities(
        "As you play this, you may spend a buff as an additional cost. If you do, ignore this spell's cost."
    )
    assert optional.kind == "optional_cost" and optional.data == ("free",)
    assert [i.verb for i in optional.cost.extra] == ["spend_buff"]
    (musing,) = effects.abilities(
        "As an additional cost to play this, you may exhaust a friendly unit. If you do, draw 2. Otherwise, draw 1."
    )
    assert musing.effect == "if you paid the additional cost, draw 2. otherwise, draw 1"


def test_draw_for_each_and_a_dying_unit_without_a_tag():
    (draw,) = effects.parse("Draw 1 for each of your [Mighty] units.")
    assert draw.data == ("you", Target("unit", "your", filters=(("mighty", True),)))
    spec = effects.parse_trigger("When another non-Recruit unit you control dies")
    assert (spec.who, spec.what) == ("other friendly", "non-recruit")


def test_if_you_cant_the_nth_move_and_double_might():
    channel, cond = effects.parse("Channel 2 runes exhausted. If you couldn't channel 2 runes this way, draw 1.")
    assert (channel.verb, cond.verb, cond.data[0].kind) == ("channel", "if", "failed")
    assert effects.parse_trigger("The third time I move in a turn") == effects.TriggerSpec("move", nth=3)
    assert [i.verb for i in effects.parse("Double a friendly unit's Might this turn.")] == ["double_might"]
    assert [i.verb for i in effects.parse("Draw 1 and channel 1 rune exhausted.")] == ["draw", "channel"]


def test_a_discount_to_a_minimum():
    assert effects.parse_passive(
        "While I'm at a battlefield, the Energy costs for spells you play is reduced by [1], to a minimum of [1]."
    ) == ("discount_min", 1, "spells", 1, "at a battlefield")
    assert effects.parse_passive("Your Dragons' Energy costs are reduced by [2], to a minimum of [1].") == (
        "discount_min",
        2,
        "Dragon",
        1,
        "",
    )


def test_what_a_played_card_is_and_when():
    assert effects.parse_trigger("When you play a card from [Hidden]").condition == "from hidden"
    assert effects.parse_trigger("When you play a card on an opponent's turn").condition == "opponent's turn"


def test_a_battlefields_when_you_defend_here():
    assert effects.parse_trigger("When you defend here") == effects.TriggerSpec("defend", "here")


def test_then_an_additional_might_to_the_same_unit():
    give, cond = effects.parse(
        "Give a friendly unit +1 [M] this turn, then an additional +1 [M] this turn if it is the only unit you "
        "control there."
    )
    assert (give.verb, cond.verb, cond.data[0].kind, cond.data[0].where) == ("might", "if", "only", "there")
    assert cond.body[0].target == Target("it")


def test_two_instructions_joined_by_or_are_a_choice():
    (either,) = effects.parse("Draw 1 or channel 1 rune exhausted.")
    assert either.verb == "either" and [i.verb for i in either.body] == ["draw", "channel"]
    assert effects.parse("Kill a unit or gear.")[0].verb == "kill"  # "or" inside a target is the target's


def test_a_battlefields_when_a_unit_moves_from_here():
    assert effects.parse_trigger("When a unit moves from here") == effects.TriggerSpec("move", "from here")
