"""Reader faults a judge found (issue 25): a Magic number split after its dot, a rule number glued to a
leftover of the page, a comment line taken for a book's title, and an FAQ's revised card text that ran
on into the discussion after it. Each on a small made-up text, and where it is cheap on the real file
(skipped, saying why, when ../shared/corpora is absent)."""

from __future__ import annotations

import json

import pytest
from conftest import corpus, judge_in

from rulebook.integrity import numbering_issues
from rulebook.model import Rule, Source
from rulebook.readers import read_file
from rulebook.readers.mtg import read_mtg
from rulebook.readers.riftbound import read_riftbound
from rulebook.readers.rulings import read_rulings


def _mtg(lines: list[str]):
    return read_mtg(lines, Source("cr.txt", "", "rules"))


def _riftbound(lines: list[str]):
    return read_riftbound(lines, Source("rb.txt", "", "rules"))


def _faq(lines: list[str], name: str = "faq.md"):
    return read_rulings(lines, Source(name, "", "rulings"), "riftbound")


@pytest.fixture(scope="module")
def library(tmp_path_factory):
    """One library for this module's `judge` commands (its built-in books made once): each test loads
    a small book of its own into it."""
    return tmp_path_factory.mktemp("faults-home")


# ---------------------------------------------------------------------------------------------
# A Magic number split after its dot ("702. 37a Storm", a 2009 CR)


def test_a_number_split_after_its_dot_is_the_next_rule_not_the_section_again():
    doc = _mtg(
        [
            "702. Keyword Abilities",
            "702.36. Madness",
            "702.36a Madness is a keyword ability.",
            "702. 37. Storm",
            "702. 37a Storm is a triggered ability that functions on the stack.",
            "702.37 b If a spell has multiple instances of storm, each triggers separately.",
            "702. 38. Affinity",
        ]
    )
    got = [(r.number, r.parent, r.title, r.text) for r in doc.rules]
    assert got == [
        ("702", "7", "Keyword Abilities", ""),
        ("702.36", "702", "Madness", ""),
        ("702.36a", "702.36", None, "Madness is a keyword ability."),
        ("702.37", "702", "Storm", ""),
        ("702.37a", "702.37", None, "Storm is a triggered ability that functions on the stack."),
        ("702.37b", "702.37", None, "If a spell has multiple instances of storm, each triggers separately."),
        ("702.38", "702", "Affinity", ""),
    ]
    assert doc.warnings == []  # no "duplicate rule number 702": the publisher printed it once


def test_a_split_that_does_not_continue_the_numbering_is_not_joined():
    # 702.40a cannot follow 702.37a: the text after "702." is not taken for its number.
    doc = _mtg(["702. Keyword Abilities", "702.37. Storm", "702.37a Storm is a trigger.", "702. 40a Storm again."])
    assert [r.number for r in doc.rules] == ["702", "702.37", "702.37a", "702-2"]
    assert [w.reason for w in doc.warnings] == ["duplicate rule number 702 (first at line 1); kept as 702-2"]


@pytest.mark.parametrize("name", ["MagicCompRules-2010-07-16.txt", "MagicCompRules-2008-10-01.txt"])
def test_old_editions_have_no_number_printed_twice(name):
    doc = read_file(corpus("mtg", name))
    assert [w.reason for w in doc.warnings if "duplicate" in w.reason] == []
    assert len({r.number for r in doc.rules}) == len(doc.rules)


# ---------------------------------------------------------------------------------------------
# A rule number glued to a leftover of the page ("Refl391." in Riftbound v1.3's 390.5.b)

_DELAYED = [
    "390. Delayed Abilities are a type of Ability.",
    "  390.5. Delayed Linked Abilities are Linked Abilities.",
    "    390.5.b. If the Delayed Linked Ability references the source, its window lasts as long as the source.",
    "      Refl391. Delayed Abilities will resolve just like the ability they augment.",
    "392. Delayed Abilities are not associated with Units or Gear.",
]


def test_a_number_glued_to_a_leftover_starts_the_rule_and_names_the_leftover():
    doc = _riftbound(_DELAYED)
    rules = {r.number: r for r in doc.rules}
    assert list(rules) == ["390", "390.5", "390.5.b", "391", "392"]
    assert rules["391"].text == "Delayed Abilities will resolve just like the ability they augment."
    assert rules["391"].parent == "300"
    assert "Refl" not in rules["390.5.b"].text
    assert [(w.line, w.reason) for w in doc.warnings] == [
        (4, "rule 391 was glued to 'Refl', a leftover of the page it came from: read as rule 391, 'Refl' dropped")
    ]


def test_a_glued_number_inside_a_line_and_one_out_of_sequence():
    doc = _riftbound(["390. Delayed Abilities.", "  390.1. They last a while. Refl391. They resolve later."])
    assert [(r.number, r.text) for r in doc.rules] == [
        ("390", "Delayed Abilities."),
        ("390.1", "They last a while."),
        ("391", "They resolve later."),
    ]
    # 395 does not follow 390.1: a word ending in digits stays text.
    doc = _riftbound(["390. Delayed Abilities.", "  390.1. They last a while. Page395. See the next page."])
    assert [r.number for r in doc.rules] == ["390", "390.1"] and doc.warnings == []


def test_magic_reads_a_glued_number_alike():
    doc = _mtg(["702. Keyword Abilities", "702.37. Storm", "Refl702.38. Affinity"])
    assert [(r.number, r.title) for r in doc.rules] == [
        ("702", "Keyword Abilities"),
        ("702.37", "Storm"),
        ("702.38", "Affinity"),
    ]
    assert [w.reason for w in doc.warnings] == [
        "rule 702.38 was glued to 'Refl', a leftover of the page it came from: read as rule 702.38, 'Refl' dropped"
    ]


def test_riftbound_v13_reads_rule_391():
    doc = read_file(corpus("riftbound", "core-rules-v1.3.txt"))
    rules = {r.number: r for r in doc.rules}
    assert rules["391"].text.startswith(
        "Delayed Abilities will resolve or be active just like the ability they augment"
    )
    assert not rules["390.5.b"].text.endswith("Refl")
    assert [w.reason for w in doc.warnings if "glued" in w.reason] == [
        "rule 391 was glued to 'Refl', a leftover of the page it came from: read as rule 391, 'Refl' dropped"
    ]


def test_check_reports_a_missing_section():
    rules = [
        Rule("390", parent="300", line=10, source="rb.txt"),
        Rule("392", parent="300", line=12, source="rb.txt"),
        Rule("001", parent="000", line=1, source="rb.txt"),
        Rule("050", parent="000", line=2, source="rb.txt"),  # room left before the Silver Rule: no gap
    ]
    assert [(i["kind"], i["number"], i["line"], i["detail"]) for i in numbering_issues(rules, "riftbound")] == [
        ("gap", "391", 12, "300 has no 391 between 390 and 392")
    ]


def test_judge_check_names_the_missing_section(tmp_path, library):
    text = tmp_path / "rb.txt"
    text.write_text(
        "Riftbound Core Rules\n300. Abilities\n390. Delayed Abilities are a type of Ability.\n"
        "  390.1. They can be any other type of Ability.\n392. Delayed Abilities are not associated with Units.\n"
    )
    assert judge_in(library, "load", text, "--book", "rb-gap")[0] == 0
    code, out, _ = judge_in(library, "check", "--book", "rb-gap")
    assert code == 0
    assert "gap 391 (rb.txt:5): 300 has no 391 between 390 and 392" in out
    code, out, _ = judge_in(library, "check", "--book", "rb-gap", "--json")
    assert ("gap", "391") in {(i["kind"], i["number"]) for i in json.loads(out)[0]["numbering"]}


# ---------------------------------------------------------------------------------------------
# A comment line is no title


def test_a_comment_line_is_not_the_title(tmp_path):
    rb = _riftbound(
        [
            "# converted from the official PDF by a script",
            "Riftbound Core Rules",
            "Last Updated: 2025-12-01",
            "000. Golden and Silver Rules",
        ]
    )
    assert (rb.title, rb.edition, rb.warnings) == ("Riftbound Core Rules", "2025-12-01", [])
    cr = _mtg(
        [
            "# source: https://example.org/MagicCompRules.txt",
            "Magic: The Gathering Comprehensive Rules",
            "These rules are effective as of July 16, 2010.",
            "100. General",
            "100.1. These rules apply.",
        ]
    )
    assert (cr.title, cr.edition, cr.warnings) == ("Magic: The Gathering Comprehensive Rules", "2010-07-16", [])
    # A title written as a Markdown heading is the heading's text.
    assert _riftbound(["# Riftbound Core Rules", "300. Abilities"]).title == "Riftbound Core Rules"
    # A plain-text FAQ stays plain text: its comment is no Markdown title, and its topic is kept.
    faq = _faq(
        [
            "# downloaded from https://example.org/faq published 2025-10-16",
            "Core Rules Questions",
            "Q: What causes a showdown?",
            "A contested battlefield.",
        ],
        "faq.txt",
    )
    assert (faq.title, faq.edition) == (None, "2025-10-16")
    assert [(r.topic, r.question, r.answer) for r in faq.rulings] == [
        ("Core Rules Questions", "What causes a showdown?", "A contested battlefield.")
    ]
    md = _faq(
        [
            "# origin: https://example.org/faq published 2025-10-16",
            "# Riftbound Origins FAQ",
            "",
            "## Scoring",
            "",
            "### Q: When do I score?",
            "",
            "When you conquer.",
        ]
    )
    assert (md.title, md.edition, md.rulings[0].topic) == ("Riftbound Origins FAQ", "2025-10-16", "Scoring")


def test_judge_books_shows_the_real_title(tmp_path, library):
    text = tmp_path / "rb.txt"
    text.write_text(
        "# rendered from the publisher's PDF\nRiftbound Core Rules\nLast Updated: 2025-12-01\n"
        "300. Abilities\n301. Abilities are text.\n"
    )
    assert judge_in(library, "load", text, "--book", "rb-titled")[0] == 0
    books = json.loads(judge_in(library, "books", "--json")[1])
    assert next(b["title"] for b in books if b["id"] == "rb-titled") == "Riftbound Core Rules"


# ---------------------------------------------------------------------------------------------
# A card's revised text ends where the discussion takes up again

_REVISIONS = [
    "# Spiritforged FAQ",
    "",
    "## Outstanding Issues and Errata",
    "",
    "#### Falling Star, Icathian Rain, and Deflect",
    "We are changing these two cards to work the way other spells work.",
    "",
    "### Falling Star (revised text)",
    "",
    "Deal 3 to a unit.",
    "",
    "### Icathian Rain (revised text)",
    "",
    "Deal 2 to a unit.",
    "",
    "(You can choose different units.)",
    "",
    "In addition to these card changes, we have a small rules change to make about Deflect:",
    "",
    "### Rule 735.1.c (revised text)",
    "",
    "Deflect is a mandatory additional cost.",
]


def test_a_revised_card_text_ends_where_the_publisher_speaks_again():
    rulings = {r.question: r for r in _faq(_REVISIONS).rulings}
    assert rulings["Icathian Rain (revised text)"].answer == "Deal 2 to a unit.\n(You can choose different units.)"
    assert rulings["Falling Star, Icathian Rain, and Deflect"].answer == (
        "We are changing these two cards to work the way other spells work.\n"
        "In addition to these card changes, we have a small rules change to make about Deflect:"
    )
    assert rulings["Rule 735.1.c (revised text)"].answer == "Deflect is a mandatory additional cost."
    # No ruling is added for the paragraph: the discussion keeps its id and its line.
    assert [(r.id, r.line) for r in _faq(_REVISIONS).rulings] == [
        ("faq-1", 5),
        ("faq-2", 8),
        ("faq-3", 12),
        ("faq-4", 20),
    ]


def test_a_revised_card_text_may_say_more_in_the_cards_own_voice():
    lines = [
        "## Errata",
        "",
        "### Kato the Arm (revised text)",
        "",
        "[Deflect]",
        "",
        "When I move, give another unit my keywords.",
    ]
    assert _faq(lines).rulings[0].answer == "[Deflect]\nWhen I move, give another unit my keywords."


def test_judge_rulings_shows_the_revised_text_alone(tmp_path, library):
    faq = corpus("riftbound", "faq-spiritforged.md")
    rules = tmp_path / "rb.txt"
    rules.write_text("Riftbound Core Rules\n700. Keywords\n735. Deflect\n  735.1. Deflect is a keyword.\n")
    assert judge_in(library, "load", rules, faq, "--book", "rb-faq")[0] == 0
    code, out, _ = judge_in(library, "rulings", "Icathian Rain revised text", "--book", "rb-faq", "--json")
    assert code == 0
    found = {r["question"]: r["answer"] for r in json.loads(out)["rulings"]}
    assert found["Icathian Rain (revised text)"].split("\n")[-1] == "(You can choose different units.)"
    assert "Deflect" not in found["Icathian Rain (revised text)"]
