"""Reference extraction and resolution: every form the documents use, on strings, the seeds and
the real Comprehensive Rules and Riftbound Core Rules."""

from __future__ import annotations

import time
from dataclasses import replace
from pathlib import Path

import pytest

from rulebook.model import Rule, Term
from rulebook.readers import read_file
from rulebook.references import (
    REASON_PARTIAL,
    derive_terms,
    expand_range,
    extract,
    resolve_book,
    title_matches,
    uses,
)

SEEDS = Path(__file__).resolve().parents[1] / "seeds"
CORPORA = Path(__file__).resolve().parents[2] / "shared" / "corpora"
CR_2026 = CORPORA / "mtg" / "MagicCompRules-2026-02-27.txt"
RB_V12 = CORPORA / "riftbound" / "core-rules-v1.2.txt"


def corpus(path: Path) -> Path:
    if not path.exists():
        pytest.skip(f"{path} is absent: the real documents live in ../shared/corpora beside the checkout")
    return path


def targets(text: str, game: str = "mtg") -> list[tuple]:
    return [(r.kind, r.target, r.range_end, r.cited_title) for r in extract(text, game)]


def merged(*files: str) -> tuple[list[Rule], list, list]:
    """Rules, terms and rulings of several seed files, one rule per number (the later file's text
    wins, the outline's subsection count stays), as the library merges a book."""
    rules: dict[str, Rule] = {}
    terms, rulings = [], []
    for name in files:
        doc = read_file(SEEDS / name)
        for rule in doc.rules:
            old = rules.get(rule.number)
            if old is not None:
                rule = replace(
                    rule,
                    title=rule.title or old.title,
                    text=rule.text if len(rule.text) >= len(old.text) else old.text,
                    expected_children=rule.expected_children
                    if rule.expected_children is not None
                    else old.expected_children,
                )
            rules[rule.number] = rule
        terms += doc.terms
        rulings += doc.rulings
    return list(rules.values()), terms, rulings


# ---------------------------------------------------------------------------------------------
# Magic forms


def test_see_rule():
    assert targets("See rule 601.2c.") == [("rule", "601.2c", None, None)]


def test_rule_with_quoted_title():
    assert targets('rule 702.139, "Companion."') == [("rule", "702.139", None, "Companion.")]
    assert targets("See rule 702.139, “Companion.”") == [("rule", "702.139", None, "Companion.")]


def test_parenthesised_see_rule_with_title():
    assert targets('(see rule 303, "Upkeep Step.")') == [("rule", "303", None, "Upkeep Step.")]


def test_bare_numbers():
    assert targets("as described in 704.5m") == [("rule", "704.5m", None, None)]
    assert targets("(see 118.9)") == [("rule", "118.9", None, None)]
    assert targets("See 718, “Prototype Cards.”") == [("rule", "718", None, "Prototype Cards.")]


def test_lists():
    assert targets("rules 113.7a, 608.2b, and 800.4h") == [
        ("rule", "113.7a", None, None),
        ("rule", "608.2b", None, None),
        ("rule", "800.4h", None, None),
    ]
    assert targets("See rule 217.8, “Phased Out,” and rule 502.15, “Phasing.”") == [
        ("rule", "217.8", None, "Phased Out,"),
        ("rule", "502.15", None, "Phasing."),
    ]
    assert targets("This follows rules 701.27a–f, 712.9–10, and 712.18.") == [
        ("rule", "701.27a", "701.27f", None),
        ("rule", "712.9", "712.10", None),
        ("rule", "712.18", None, None),
    ]


@pytest.mark.parametrize(
    "text, first, last",
    [
        ("see rules 603.7d-f.", "603.7d", "603.7f"),
        ("see rules 603.7d–f.", "603.7d", "603.7f"),
        ("(see rules 119.7–8)", "119.7", "119.8"),
        ("See rules 903.6–903.11.", "903.6", "903.11"),
        ("Perform the actions listed in 103.2a–e in order", "103.2a", "103.2e"),
        ("See rule 303.7 and rules 111.10j–r.", "111.10j", "111.10r"),
    ],
)
def test_ranges(text, first, last):
    refs = [r for r in extract(text, "mtg") if r.range_end]
    assert [(r.target, r.range_end) for r in refs] == [(first, last)]


def test_ranges_expand_over_rules_that_exist():
    # Magic skips l and o; expanding over the rules present gets that right.
    book = ["111.10", *[f"111.10{c}" for c in "abcdefghijkmnpqrs"]]
    assert expand_range("111.10j", "111.10r", "mtg", book) == [
        "111.10j",
        "111.10k",
        "111.10m",
        "111.10n",
        "111.10p",
        "111.10q",
        "111.10r",
    ]
    # Whole sub-rules, not their lettered children; 10 sorts after 9.
    book = ["903.5", "903.6", "903.6a", "903.7", "903.8", "903.9", "903.9a", "903.10", "903.11", "903.12"]
    assert expand_range("903.6", "903.11", "mtg", book) == ["903.6", "903.7", "903.8", "903.9", "903.10", "903.11"]
    # A missing end is kept, so it is reported as dangling.
    assert expand_range("119.7", "119.9", "mtg", ["119.7", "119.8"]) == ["119.7", "119.8", "119.9"]


def test_range_resolution_gives_one_reference_per_rule():
    rules = [Rule("608.2", text="...")] + [Rule(f"608.2{c}", parent="608.2", text="...") for c in "abcdefghijkmn"]
    rules.append(Rule("608.3", text="The steps described in rules 608.2c–m are then followed."))
    refs = resolve_book("cr", "mtg", rules)
    assert [r.target for r in refs] == [
        "608.2c",
        "608.2d",
        "608.2e",
        "608.2f",
        "608.2g",
        "608.2h",
        "608.2i",
        "608.2j",
        "608.2k",
        "608.2m",
    ]
    assert {r.outcome for r in refs} == {"resolved"}
    assert {r.raw for r in refs} == {"rules 608.2c–m"}


def test_section_reference_targets_the_part_heading():
    assert targets("See section 8, “Multiplayer Rules.”") == [("section", "8", None, "Multiplayer Rules.")]
    rules = [
        Rule("8", title="Multiplayer Rules"),
        Rule("100.1b", text="A multiplayer game is ... See section 8, “Multiplayer Rules.”", line=12, source="cr.txt"),
    ]
    [ref] = resolve_book("cr", "mtg", rules)
    assert (ref.target, ref.target_kind, ref.outcome, ref.actual_title) == (
        "8",
        "section",
        "resolved",
        "Multiplayer Rules",
    )


@pytest.mark.parametrize(
    "text",
    [
        "Draw 2 cards.",
        "Put a +1/+1 counter on target creature.",
        "It deals 1.5 times the damage.",
        "Each player starts with 20 life.",
        "found in Magic products that released 2011–2018.",
        "An ability says “Repeat this process 999,999 more times.”",
        "Its deck must contain exactly 100 cards. PO Box 707, Renton, WA 98057-0707.",
        "One card (Celebr-8000) has an ability that says 1/1.",
    ],
)
def test_false_positives(text):
    assert extract(text, "mtg") == []


def test_a_rules_own_number_is_not_a_reference():
    assert extract("702.139a Companion is a keyword ability.", "mtg") == []
    assert targets("312.3 When a player is granted Priority, see rule 313.", "riftbound") == [
        ("rule", "313", None, None)
    ]


# ---------------------------------------------------------------------------------------------
# Riftbound forms and titles


@pytest.mark.parametrize(
    "text, expected",
    [
        ("See rule 375. Triggered Abilities for more information.", [("rule", "375", None, "Triggered Abilities")]),
        ("See rule 464.1. for more information on Conquering.", [("rule", "464.1", None, None)]),
        ("See rule 808 Deathknell for more information", [("rule", "808", None, "Deathknell")]),
        ("See 107.5. Banishment for more information.", [("rule", "107.5", None, "Banishment")]),
        ("See rule 103.2.d. for more information about Signature cards.", [("rule", "103.2.d", None, None)]),
        (
            "See rule 161. Rune Pools and rule 416. Add for more information.",
            [("rule", "161", None, "Rune Pools"), ("rule", "416", None, "Add")],
        ),
        ("they chose to pay them in rule 352.", [("rule", "352", None, None)]),
        ("Step 2: Execute. A 3[M] Sprite token with 3 Might.", []),
    ],
)
def test_riftbound_forms(text, expected):
    assert targets(text, "riftbound") == expected


def test_title_comparison_is_normalised():
    assert title_matches("“Phased Out,”", Rule("217.8", title="Phased Out"))
    assert title_matches("Steps of Combat", Rule("441", title="The Steps of Combat"))
    assert title_matches("Enchantment", Rule("212.4", title="Enchantments"))
    # Riftbound: a rule without a heading is compared with the start of its text.
    assert title_matches("Conquer", Rule("446.1", text="Conquer: A player gains Control of a Battlefield."))
    assert not title_matches("Control", Rule("179", text="Tokens are not cards."))
    assert not title_matches("Continuous Effects", Rule("613", title="Interaction of Continuous Effects"))


def test_title_mismatch_outcome():
    rules = [
        Rule("179", text="Tokens are not cards."),
        Rule("182", title="Control"),
        Rule("345.2.a", text="... See rule 179. Control for more information on Control.", line=711),
    ]
    [ref] = resolve_book("rb", "riftbound", rules)
    assert (ref.outcome, ref.cited_title, ref.actual_title, ref.line) == (
        "title_mismatch",
        "Control",
        "Tokens are not cards.",
        711,
    )


# ---------------------------------------------------------------------------------------------
# Glossary links, uses, derived terms


def test_glossary_cross_references():
    assert targets("See Landcycling.") == [("term", "Landcycling", None, None)]
    assert targets("See also Timestamp Order.") == [("term", "Timestamp Order", None, None)]
    assert targets("See “Enters the Battlefield.”") == [("term", "Enters the Battlefield", None, None)]
    assert targets("see the cards’ faces. See rule 701.2.") == [("rule", "701.2", None, None)]
    terms = [
        Term("Layer", "... See also Dependency, Timestamp Order."),
        Term("Dependency", "..."),
        Term("Timestamp Order", "..."),
        Term("Continuous Effect", "..."),
        Term("One-Shot Effect", "... See also Continuous Effects."),
    ]
    refs = resolve_book("cr", "mtg", [], terms)
    assert [(r.from_id, r.target, r.target_kind, r.outcome) for r in refs] == [
        ("Layer", "Dependency", "term", "resolved"),
        ("Layer", "Timestamp Order", "term", "resolved"),
        ("One-Shot Effect", "Continuous Effect", "term", "resolved"),
    ]


def test_uses_whole_words_longest_term_plurals():
    rules = [
        Rule("1", text="Put the Chain Item on the chain."),
        Rule("2", text="Chainsaw, unchained."),
        Rule("3", text="Two showdowns happen."),
    ]
    terms = [Term("Chain", "..."), Term("Chain Item", "..."), Term("Showdown", "..."), Term("Card", "...")]
    assert uses(rules, terms) == [("1", "Chain Item"), ("1", "Chain"), ("3", "Showdown")]


def test_derive_terms_patterns():
    rules = [
        Rule("327", text="The Chain is a Non-Board Zone that temporarily exists whenever a card is played."),
        Rule("338", text="A Showdown is a Window of Opportunity in which Players have an Open State."),
        Rule("310.1", text="Neutral Open: There is no Showdown in progress and no Chain exists."),
        Rule("414.1", text="Banishing is the action of placing a card from any zone to Banishment."),
        Rule("302", text="Play continues cyclically until one player wins."),
        Rule("425.3", text="Units are the only Permanents that can Move."),
        Rule("143.2", text="Exhausting the Unit is the Cost for this action."),
        Rule("316.5.c", text="A Showdown is a structured Window of Opportunity where Players may play cards."),
    ]
    found = {t.term: t.source for t in derive_terms(rules, "riftbound")}
    assert found == {
        "Chain": "rule 327",
        "Showdown": "rule 316.5.c",
        "Neutral Open": "rule 310.1",
        "Banishing": "rule 414.1",
    }
    assert derive_terms(rules, "mtg") == []


# ---------------------------------------------------------------------------------------------
# The seeds


def test_seed_312_1_cites_398_1_not_in_the_loaded_text():
    rules, terms, rulings = merged(
        "riftbound-300-outline.txt", "riftbound-300-detail.txt", "riftbound-faq-core-rules.txt"
    )
    refs = resolve_book("riftbound", "riftbound", rules, terms, rulings, partial=True)
    [ref] = [r for r in refs if r.from_id == "312.1"]
    assert (ref.target, ref.outcome, ref.reason, ref.cited_title) == (
        "398.1",
        "dangling",
        REASON_PARTIAL,
        "Discretionary Actions",
    )
    assert ref.source == "riftbound-300-detail.txt" and ref.line > 0
    # 313.1 cites 307, which the outline has.
    [ref] = [r for r in refs if r.from_id == "313.1"]
    assert (ref.target, ref.outcome, ref.actual_title) == ("307", "resolved", "States of the Turn")


def test_seed_define_focus_gives_313_1():
    rules, _, _ = merged("riftbound-300-outline.txt", "riftbound-300-detail.txt")
    terms = {t.term.lower(): t for t in derive_terms(rules, "riftbound")}
    detail = {r.number: r for r in read_file(SEEDS / "riftbound-300-detail.txt").rules}
    assert terms["focus"].source == "rule 313.1"
    assert terms["focus"].definition == detail["313.1"].text
    assert terms["focus"].definition.startswith("Focus is the permission to take appropriately timed")
    assert terms["priority"].source == "rule 312.1"
    assert terms["chain"].source == "rule 327"
    assert terms["showdown"].source == "rule 338"


def test_seed_mtg_glossary_links():
    doc = read_file(SEEDS / "mtg-glossary-fragments.txt", game="mtg", kind="glossary")
    excerpt = read_file(SEEDS / "mtg-turn-structure-excerpt.txt", game="mtg")
    refs = resolve_book("mtg", "mtg", excerpt.rules, doc.terms, partial=True)
    sections = [r for r in refs if r.target_kind == "section"]
    assert [(r.target, r.cited_title, r.outcome, r.reason) for r in sections] == [
        ("3", "Turn Structure.", "dangling", REASON_PARTIAL)
    ]
    assert any(r.target == "305" and r.outcome == "resolved" for r in refs)


# ---------------------------------------------------------------------------------------------
# The real documents


@pytest.fixture(scope="module")
def cr2026():
    return read_file(corpus(CR_2026))


def test_cr_2026_numeric_references_resolve(cr2026):
    start = time.perf_counter()
    refs = resolve_book("cr-2026", "mtg", cr2026.rules, cr2026.terms)
    pairs = uses(cr2026.rules, cr2026.terms)
    elapsed = time.perf_counter() - start
    numeric = [r for r in refs if r.target_kind in ("rule", "section")]
    dangling = [r for r in numeric if r.outcome == "dangling"]
    rate = 1 - len(dangling) / len(numeric)
    print(f"\n{len(numeric)} numeric references, {rate:.4%} resolve, {len(pairs)} uses, {elapsed:.3f}s")
    for r in dangling:
        print(f"  dangling: {r.source}:{r.line} {r.from_kind} {r.from_id}: {r.raw!r} -> {r.target}")
    assert len(numeric) > 2000
    assert rate >= 0.99
    # Every dangling reference says where it is; the one this edition has is the Map glossary entry.
    assert all(r.line > 0 and r.source == CR_2026.name for r in dangling)
    assert [(r.from_kind, r.from_id, r.raw, r.target) for r in dangling] == [
        ("term", "Map", "see rule 110.10", "110.10")
    ]
    assert elapsed < 2.0


def test_cr_2026_exact_expansions_and_sections(cr2026):
    refs = resolve_book("cr-2026", "mtg", cr2026.rules, cr2026.terms)
    present = {r.number for r in cr2026.rules}

    def cited(fragment):
        """The targets a range expands to (a list's raw text holds its other items too)."""
        return [r.target for r in refs if fragment in r.raw and r.target[:3] == fragment[:3]]

    # 608.2c–m: the book has no 608.2l, so the range covers c..k and m.
    assert "608.2l" not in present
    assert cited("608.2c–m") == [
        "608.2c",
        "608.2d",
        "608.2e",
        "608.2f",
        "608.2g",
        "608.2h",
        "608.2i",
        "608.2j",
        "608.2k",
        "608.2m",
    ]
    # 111.10j–r: neither l nor o exists.
    assert cited("111.10j–r") == ["111.10j", "111.10k", "111.10m", "111.10n", "111.10p", "111.10q", "111.10r"]
    assert cited("903.6–903.11") == ["903.6", "903.7", "903.8", "903.9", "903.10", "903.11"]
    assert cited("119.7–8") == ["119.7", "119.8"] * 2  # cited by two rules
    assert cited("601.2g-h") == ["601.2g", "601.2h"]  # a hyphen instead of an en dash
    sections = [(r.from_id, r.target, r.outcome) for r in refs if r.target_kind == "section" and r.from_kind == "rule"]
    assert ("100.1b", "8", "resolved") in sections
    assert ("108.6", "2", "resolved") in sections


def test_cr_2026_title_mismatches(cr2026):
    refs = resolve_book("cr-2026", "mtg", cr2026.rules, cr2026.terms)
    found = {
        (r.from_id, r.target, r.cited_title.strip(" .,"), r.actual_title[:33])
        for r in refs
        if r.outcome == "title_mismatch"
    }
    # The Endure glossary entry points at Suspend: a stale number the text carries.
    assert ("Endure", "702.62", "Endure", "Suspend") in found
    assert ("724.5", "613", "Continuous Effects", "Interaction of Continuous Effects") in found


def test_riftbound_v12_stale_references():
    doc = read_file(corpus(RB_V12))
    refs = resolve_book("rb-1.2", "riftbound", doc.rules, [], [])
    dangling = [r for r in refs if r.outcome == "dangling"]
    mismatches = [r for r in refs if r.outcome == "title_mismatch"]
    for r in dangling + mismatches:
        print(f"  {r.outcome}: {r.source}:{r.line} {r.from_id}: {r.raw!r} ({r.reason})")
    assert len(refs) > 100
    assert dangling == []
    # 345.2.a says "See rule 179. Control", but Control is 182; 179 is about tokens.
    assert [(r.from_id, r.raw, r.target, r.cited_title, r.actual_title, r.line) for r in mismatches] == [
        ("345.2.a", "See rule 179. Control", "179", "Control", "Tokens are not cards.", 711)
    ]
    # The same paragraph's title-free reference to Conquering resolves.
    assert any(r.from_id == "345.2.a" and r.target == "446.1" and r.outcome == "resolved" for r in refs)
