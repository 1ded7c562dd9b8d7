"""The Riftbound reader on the seeds, on the real Core Rules v1.2 text and on broken input."""

from __future__ import annotations

import re
import time
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rulebook.model import ReadError, ReadWarning, Source, Truncation
from rulebook.numbers import parent, printed, sort_key
from rulebook.readers import detect_game, detect_kind, read_file
from rulebook.readers.riftbound import expected_after, is_valid_number, looks_like_title, read_riftbound
from rulebook.readers.text import read_lines

SEEDS = Path(__file__).resolve().parents[1] / "seeds"
CORPORA = Path(__file__).resolve().parents[2] / "shared" / "corpora"
OUTLINE = SEEDS / "riftbound-300-outline.txt"
DETAIL = SEEDS / "riftbound-300-detail.txt"
V12 = CORPORA / "riftbound" / "core-rules-v1.2.txt"

needs_corpora = pytest.mark.skipif(
    not V12.exists(),
    reason=f"real rule documents not found at {CORPORA}: shared/corpora sits beside the checkout "
    "only in the workplace and CI",
)


def by_number(doc):
    return {rule.number: rule for rule in doc.rules}


def read(lines: list[str], name: str = "t.txt"):
    return read_riftbound(lines, Source(name=name, sha256="", kind="rules"))


# ---------------------------------------------------------------------------------------------
# The outline seed


@pytest.fixture(scope="module")
def outline():
    return read_file(OUTLINE)


def test_outline_reads_every_numbered_line(outline):
    numbered = [line for line in OUTLINE.read_text(encoding="utf-8").splitlines() if re.match(r"\d{3}\. ", line)]
    assert len(numbered) == 100
    assert len(outline.rules) == 100
    assert outline.warnings == [] and outline.truncations == []
    assert (outline.game, outline.kind) == ("riftbound", "rules")


def test_outline_subsection_counts(outline):
    rules = by_number(outline)
    assert rules["316"].expected_children == 6
    assert rules["313"].expected_children == 5
    assert rules["312"].expected_children == 3
    assert rules["320"].expected_children == 1  # "1 subsection"
    assert rules["302"].expected_children is None
    counts = re.findall(r"(?m)^\d+ subsections?$", OUTLINE.read_text(encoding="utf-8"))
    assert sum(1 for r in outline.rules if r.expected_children) == len(counts) == 61


def test_outline_headings_and_text(outline):
    rules = by_number(outline)
    assert (rules["300"].title, rules["300"].text, rules["300"].parent) == ("Playing the Game", "", None)
    assert (rules["301"].title, rules["301"].text, rules["301"].parent) == ("The Turn", "", "300")
    assert rules["316"].title == "Action Phase"
    assert rules["333"].title == "Step 1: Finalize"
    assert rules["363"].title == "Presence on Card outside of the Board"
    assert rules["399"].title == "Types of Actions"  # last line, no line end
    # Sentences, not headings: a final period, or a lower-case word.
    assert (rules["352"].title, rules["352"].text) == (None, "Make necessary choices.")
    assert (rules["389"].title, rules["389"].text) == (None, "Activate or trigger the Ability")
    assert rules["302"].text == "Play continues cyclically until one player wins."
    assert rules["302"].line == 4 and rules["302"].source == "riftbound-300-outline.txt"


def test_outline_spacing_before_punctuation_is_repaired(outline):
    # The scrape writes "Discretionary Actions , the"; the detail seed "Discretionary Actions, the".
    assert "Discretionary Actions, the current phase" in by_number(outline)["305"].text


def test_outline_examples_are_split(outline):
    rule = by_number(outline)["384"]
    assert rule.text == (
        "Delayed Abilities will resolve or be active just like the ability they augment, but only during the "
        "specified time in the effect that created the Delayed Ability."
    )
    assert len(rule.examples) == 2
    assert rule.examples[0].startswith("Ravenborn Tome reads “The next spell you play")
    assert rule.examples[1].startswith("Noxian Guillotine reads")
    assert not any("Example" in e for e in rule.examples)


# ---------------------------------------------------------------------------------------------
# The detail seed


@pytest.fixture(scope="module")
def detail():
    return read_file(DETAIL)


def test_detail_reads_every_number(detail):
    text = DETAIL.read_text(encoding="utf-8")
    alone = re.findall(r"(?m)^\d{3}(?:\.\w+)*\.$", text)
    run_in = re.findall(r"[.!?] (\d{3}\.\d+) [A-Z]", text)
    assert (len(alone), run_in) == (50, ["312.3", "313.4"])
    assert len(detail.rules) == 52
    assert detail.warnings == []
    assert detail.title == "Gameplay — Riftbound Rules"
    assert [r.number for r in detail.rules] == sorted((r.number for r in detail.rules), key=sort_key)


def test_detail_splits_two_rules_on_one_line(detail):
    rules = by_number(detail)
    assert rules["312.2.d"].text == (
        "When the turn is in a Closed State, they are the next Player in Turn Order, "
        "and the player with Priority passes."
    )
    assert rules["312.3"].text == WRAPPED["312.3"]
    # 312.2.d is numbered on line 73, its text and the run-in 312.3 are on line 74.
    assert (rules["312.2.d"].line, rules["312.3"].line, rules["312.3"].parent) == (73, 74, "312")
    assert rules["313.3"].text == "A player who passes Priority retains Focus."
    assert rules["313.4"].text == WRAPPED["313.4"]
    assert rules["313.4"].line == 84


def test_detail_number_then_text(detail):
    rules = by_number(detail)
    assert (rules["301"].title, rules["301"].text, rules["301"].line) == ("The Turn", "", 5)
    assert rules["303.2.a"].parent == "303.2"
    assert rules["303.2.a"].text.startswith("If one or more actions, game effects, or Triggered Abilities")
    assert rules["315.2.b"].title == "Scoring Step"
    # A cross-reference is not a rule run into the text.
    assert rules["312.1"].text == (
        "Priority is the singular exclusive right to take Discretionary Actions. "
        "See rule 398.1. Discretionary Actions for more information."
    )


def test_detail_example(detail):
    rule = by_number(detail)["313.1.a"]
    assert rule.text == (
        "The player with Focus must obey any additional restrictions on which Discretionary Actions may be performed."
    )
    assert rule.examples == (
        "A player with Focus may not play spells or activate abilities that don't have the Action or Reaction "
        "keywords.",
    )


def test_detail_truncation_marker(detail):
    assert detail.truncations == [Truncation("riftbound-300-detail.txt", 106, 168, "315.2.b.1")]
    assert not any("more rules" in r.text for r in detail.rules)


def test_outline_and_detail_agree_where_they_overlap(outline, detail):
    rules = by_number(outline)
    for rule in detail.rules:
        if rule.number in rules:
            assert (rules[rule.number].title, rules[rule.number].text) == (rule.title, rule.text), rule.number


# ---------------------------------------------------------------------------------------------
# The real Core Rules v1.2


@pytest.fixture(scope="module")
def v12():
    if not V12.exists():
        pytest.skip(f"real rule documents not found at {CORPORA}")
    started = time.perf_counter()
    doc = read_file(V12)
    return doc, time.perf_counter() - started


@needs_corpora
def test_v12_reads_every_numbered_line(v12):
    doc, seconds = v12
    # Counted without the reader: `grep -cE '^\s*[0-9]{3}\.' core-rules-v1.2.txt` is 1795, one rule a line.
    numbered = [line for line in V12.read_text(encoding="utf-8").splitlines() if re.match(r"\s*\d{3}\.", line)]
    assert len(numbered) == 1795
    assert len(doc.rules) == 1795
    # One number is printed twice in the publisher's text (744.5, lines 1766 and 1767): both are kept.
    assert len({r.number for r in doc.rules}) == 1795
    assert doc.warnings == [
        ReadWarning("core-rules-v1.2.txt", 1767, "duplicate rule number 744.5 (first at line 1766); kept as 744.5-2")
    ]
    rules = by_number(doc)
    assert rules["744.5"].text.startswith("Equip, and whether or not a Gear has Equip, is a characteristic")
    assert rules["744.5-2"].text.startswith("Whether or not a Gear has Equip may be referenced even if")
    assert (rules["744.5-2"].parent, rules["744.5-2"].line) == ("744", 1767)
    assert seconds < 2.0


@needs_corpora
def test_v12_header(v12):
    doc, _ = v12
    assert (doc.game, doc.kind, doc.title, doc.edition) == ("riftbound", "rules", "Riftbound Core Rules", "2025-12-01")


@needs_corpora
def test_v12_numbers_in_order_with_their_parents(v12):
    doc, _ = v12
    numbers = [r.number for r in doc.rules]
    assert numbers == sorted(numbers, key=sort_key)
    assert all(is_valid_number(printed(n)) for n in numbers)
    known = set(numbers)
    # The publisher's text has no heading 600 and no rule 721 (720 Inactive is followed by 721.1).
    orphans = sorted(r.number for r in doc.rules if r.parent and r.parent not in known)
    assert orphans == ["649", "650", "651", "652", "721.1"]


WRAPPED = {
    "312.3": (
        "When a player is granted Priority, it is either created if no player has it or taken from the player "
        "with Priority."
    ),
    "313.4": "A player may not make discretionary actions with Focus unless they also possess Priority.",
    "322.2": "2. Handle outstanding board state",
    "322.3": (
        "2a. All Units that have non-zero Damage marked on them equalling or exceeding their Might that have "
        "Deathknell abilities will trigger their Deathknell ability now, making note of their current location, "
        "attributes, and other information relevant to add the trigger as a Pending Item See rule 734 Deathknell "
        "for more information."
    ),
    "322.8.a": (
        "The Showdown remains Staged at each Battlefield that is Contested and has only units present controlled by "
        "the player that applied Contested"
    ),
    "322.9": (
        "6a. If Units of an opposing player are present at a Battlefield that has a Showdown staged before it can be "
        "Opened, the Showdown will cease being Staged"
    ),
    "322.11": (
        "7a. If Units of two opposing players are no longer present at a Battlefield that has a Combat Staged before "
        "it has opened, the Combat will cease being Staged"
    ),
    "135.1": "Some cards have a separate section of text below the Rules Text. This is referred to as the Effect Text.",
    "135.2.a": "Effect Text can be blank.",
    "419.2": "Doubling is a Limited Action.",
    "420.1.c": "If both attributes are the same numeric value, Swapping has no effect.",
    "420.2.a": "Players may only swap when Game Effects direct them to do so.",
    "454.3.d.1.b": (
        'If there is a restriction or limitation to this increase, the limitation is "snapshotted" for the duration '
        "of the effect."
    ),
    "747.4": (
        "Weaponmaster, and whether or not a unit has Weaponmaster, is a characteristic of the Unit and may be checked "
        "or referenced by other Game Effects."
    ),
}


@needs_corpora
@pytest.mark.parametrize("number", sorted(WRAPPED, key=sort_key))
def test_v12_numbers_broken_by_the_line_wrap(v12, number):
    rule = by_number(v12[0])[number]
    assert (rule.text, rule.title, rule.parent) == (WRAPPED[number], None, parent(number, "riftbound"))


@needs_corpora
def test_v12_step_labels_and_counts_stay_text(v12):
    rules = by_number(v12[0])
    assert rules["322.1"].text.startswith("1. If a player has as many points as the Victory Score, that player wins.")
    assert rules["322.4"].text.startswith("2b. All Units that have non-zero Damage")
    assert rules["351"].text == "1. Remove the card from the zone you are playing it from and put it onto the Chain."
    assert rules["352"].text == "2. Make necessary choices."
    assert rules["454.3.d.1"].text == "1. Increases"
    assert rules["103.1"].text == "1 Champion Legend"
    assert rules["103.3.a"].text == "12 Rune Cards"
    assert rules["462.1"].text == "2 Players"
    assert "351.1" in rules and "103.1.1" not in rules and "103.3.a.12" not in rules


@needs_corpora
def test_v12_headings_bullets_continuations_examples(v12):
    rules = by_number(v12[0])
    assert (rules["300"].title, rules["300"].text) == ("Playing the Game", "")
    assert (rules["314"].title, rules["314"].text) == ("Phases of the Turn", "")
    assert rules["462"].title == "1v1 (Duel)"
    assert rules["053.1"].text == 'Units and legends say "I," "me," etc.'
    # A line the PDF wrapped without a number belongs to the rule above it.
    assert rules["313.1"].text.endswith("Showdown Open State. See rule 307. States of the Turn for more information.")
    assert rules["462.4.a"].text.endswith("Only 1 will be used, chosen during setup.")
    assert rules["361.1"].text == "These abilities have a wide variety of formats to recognize."
    assert rules["361.1"].examples == (
        '"I get +1[M] while you have 2 or more cards in your hand."',
        '"Friendly Yordles at my battlefield have [Shield]."',
    )
    assert rules["109"].examples == (
        "Damage is cleared. Buffs are removed. Temporarily granted Keywords are no longer granted.",
    )
    assert rules["134.2.e.6.a"].parent == "134.2.e.6"


# ---------------------------------------------------------------------------------------------
# Which game, which kind


RIFTBOUND_FILES = [OUTLINE, DETAIL, V12]


@pytest.mark.parametrize("path", RIFTBOUND_FILES, ids=lambda p: p.name)
def test_riftbound_files_are_detected(path):
    if not path.exists():
        pytest.skip(f"{path} not found: shared/corpora sits beside the checkout only in the workplace and CI")
    doc = read_file(path)
    assert (doc.game, doc.kind, doc.source.kind) == ("riftbound", "rules", "rules")


MTG_FILES = sorted((CORPORA / "mtg").glob("*.txt")) + [
    SEEDS / "mtg-turn-structure-excerpt.txt",
    SEEDS / "mtg-glossary-fragments.txt",
]


@pytest.mark.parametrize("path", MTG_FILES, ids=lambda p: p.name)
def test_mtg_files_are_detected(path):
    lines, _ = read_lines(path)
    assert detect_game(lines) == "mtg"
    assert detect_kind(lines) == ("glossary" if "glossary" in path.name else "rules")


@needs_corpora
def test_all_mtg_corpora_present():
    assert len(list((CORPORA / "mtg").glob("*.txt"))) >= 10  # ten editions 2008-2026 (its README)


# ---------------------------------------------------------------------------------------------
# Broken input


def test_empty_file_is_a_read_error(tmp_path):
    path = tmp_path / "empty-rules.txt"
    path.write_bytes(b"\n  \n")
    with pytest.raises(ReadError, match="empty-rules.txt"):
        read_file(path, game="riftbound")


def test_binary_file_is_a_read_error(tmp_path):
    path = tmp_path / "rules.pdf"
    path.write_bytes(bytes(range(256)) * 40)
    with pytest.raises(ReadError, match="rules.pdf"):
        read_file(path, game="riftbound")


def test_file_without_rules_is_a_read_error(tmp_path):
    path = tmp_path / "notes.txt"
    path.write_text("Riftbound notes\nThe Showdown happens at a Battlefield.\n", encoding="utf-8")
    with pytest.raises(ReadError, match="notes.txt"):
        read_file(path, game="riftbound", kind="rules")


def test_duplicate_number_keeps_both_and_warns():
    doc = read(
        [
            "301. The Turn",
            "302. Play continues.",
            "302. Play stops.",
            "continued text",
            "303. Next.",
            "302. Play stops again.",
        ]
    )
    assert [(r.number, r.text, r.line) for r in doc.rules] == [
        ("301", "", 1),
        ("302", "Play continues.", 2),
        ("302-2", "Play stops. continued text", 3),
        ("303", "Next.", 5),
        ("302-3", "Play stops again.", 6),
    ]
    assert by_number(doc)["302-2"].parent == "300"
    assert doc.warnings == [
        ReadWarning("t.txt", 3, "duplicate rule number 302 (first at line 2); kept as 302-2"),
        ReadWarning("t.txt", 6, "duplicate rule number 302 (first at line 2); kept as 302-3"),
    ]


def test_out_of_order_number_warns():
    doc = read(["302. A rule.", "304. Another rule.", "303. A late rule."])
    assert [r.number for r in doc.rules] == ["302", "304", "303"]
    assert doc.warnings == [ReadWarning("t.txt", 3, "rule 303 out of order after 304")]


def test_junk_and_misplaced_lines_warn():
    doc = read(["2 subsections", "302. A rule.", "Выбрать главу", "... and 3 more rules", "Stray text."])
    assert [r.text for r in doc.rules] == ["A rule."]
    assert [(w.line, w.reason.split(":")[0]) for w in doc.warnings] == [
        (1, "'2 subsections' before any rule"),
        (3, "junk line skipped"),
        (5, "text outside any rule skipped"),
    ]
    assert doc.truncations == [Truncation("t.txt", 4, 3, "302")]


def test_lower_case_after_a_letter_is_text_not_a_wrapped_number():
    doc = read(["312.2. A player receives Priority.", "312.2.a. a lower-case start.", "312.2.b. Next."])
    assert [r.number for r in doc.rules] == ["312.2", "312.2.a", "312.2.b"]


def test_split_number_is_joined_only_where_it_continues_the_numbering():
    # The first child of the rule before, although its text starts with a capital.
    doc = read(
        [
            "359.3.f.3. Linked abilities.",
            "359.3.f.3.a. Some abilities are linked.",
            "359.3.f.3.a. 1 In the case of a linked ability ...",
        ]
    )
    assert [(r.number, r.text) for r in doc.rules][-1] == ("359.3.f.3.a.1", "In the case of a linked ability ...")
    assert doc.warnings == []
    # The next sibling of a child already read.
    doc = read(["135. Effect Text", "135. 1 Some cards have Effect Text.", "135. 2 Effect Text can hold abilities."])
    assert [r.number for r in doc.rules] == ["135", "135.1", "135.2"]
    # A rule whose text starts with a count: nothing to join.
    doc = read(["480. Two-Player Mode", "480.1. 2 Players", "480.2. Each player has a deck."])
    assert [(r.number, r.text) for r in doc.rules] == [
        ("480", ""),
        ("480.1", "2 Players"),
        ("480.2", "Each player has a deck."),
    ]
    doc = read(["103. Deck Construction", "103.1. 1 Champion Legend", "103.2. 1 Chosen Champion"])
    assert [(r.number, r.text) for r in doc.rules][1:] == [
        ("103.1", "1 Champion Legend"),
        ("103.2", "1 Chosen Champion"),
    ]
    # 103.3.a.12 would skip 103.3.a.1 to .11: "12 Rune Cards" is the text of 103.3.a.
    doc = read(["103.3. Runes.", "103.3.a. 12 Rune Cards"])
    assert [(r.number, r.text) for r in doc.rules] == [("103.3", "Runes."), ("103.3.a", "12 Rune Cards")]
    assert doc.warnings == []


def test_cross_reference_is_not_a_run_in_rule():
    doc = read(["312.1. Priority passes. See rule 312.2 For timing.", "312.2. Next."])
    assert [r.number for r in doc.rules] == ["312.1", "312.2"]
    assert by_number(doc)["312.1"].text == "Priority passes. See rule 312.2 For timing."


def test_numbers_and_titles_helpers():
    assert expected_after("312.2.d") == {"312.2.d.1", "312.2.e", "312.3", "313"}
    assert expected_after("134.2.e.6.a") == {"134.2.e.6.a.1", "134.2.e.6.b", "134.2.f", "134.3", "134.2.e.7", "135"}
    assert is_valid_number("303.2.a.1") and not is_valid_number("303.2.1") and not is_valid_number("303.a")
    assert is_valid_number("359.3.f.3.a.1")  # no depth limit: the numbering may go deeper than v1.2 does
    assert looks_like_title("Golden and Silver Rules") and not looks_like_title("Power cost")


# ---------------------------------------------------------------------------------------------
# Property: a rule tree rendered as text reads back as the same rules


_WORDS = ["player", "unit", "chain", "priority", "showdown", "battlefield", "may", "gains", "loses", "focus", "each"]
_FIRST = ["When", "Players", "Each", "The", "If", "A"]


@st.composite
def sentences(draw):
    words = [draw(st.sampled_from(_FIRST))] + draw(st.lists(st.sampled_from(_WORDS), min_size=1, max_size=8))
    return " ".join(words) + "."


@st.composite
def rule_trees(draw, prefix: str = "", depth: int = 1):
    """[(number, text)] in reading order for one section with random children."""
    if depth == 1:
        sections = sorted(draw(st.sets(st.integers(0, 999), min_size=1, max_size=4)))
        out = []
        for section in sections:
            number = f"{section:03d}"
            out.append((number, draw(sentences())))
            out += draw(rule_trees(number, 2))
        return out
    if depth > 6:
        return []
    count = draw(st.integers(0, 3 if depth < 4 else 2))
    out = []
    for i in range(1, count + 1):
        number = f"{prefix}.{i if depth % 2 == 0 else chr(ord('a') + i - 1)}"
        out.append((number, draw(sentences())))
        out += draw(rule_trees(number, depth + 1))
    return out


def render(rules, wrap: list[bool], layout: str) -> list[str]:
    lines = []
    for (number, text), broken in zip(rules, wrap):
        written = number + "."
        if broken and "." in number:
            head, _, last = number.rpartition(".")
            written = f"{head}. {last}"  # "312. 3": the PDF line wrap
        indent = "  " * number.count(".")
        if layout == "one line":
            lines.append(f"{indent}{written} {text}")
        else:
            lines += [written, text]
    return lines


@settings(max_examples=150, deadline=None)
@given(data=st.data(), layout=st.sampled_from(["one line", "number then text"]))
def test_rendered_tree_reads_back(data, layout):
    rules = data.draw(rule_trees())
    wrap = [False] * len(rules)
    if layout == "one line":
        wrap = data.draw(st.lists(st.booleans(), min_size=len(rules), max_size=len(rules)))
    doc = read(render(rules, wrap, layout))
    assert [(r.number, r.text) for r in doc.rules] == rules
    assert doc.warnings == []
    assert all(r.parent == parent(r.number, "riftbound") for r in doc.rules)
