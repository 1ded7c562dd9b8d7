"""No Comprehensive Rules edition may lose rules: each real edition reads to counts made without the
reader, and a small document built like the July 2009 (M10) edition, whose contents list "Glossary"
and titles the body words differently, reads whole.

The real editions live in ``../shared/corpora/mtg``; their tests skip when that folder is absent.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

import pytest
from conftest import corpus

from rulebook.model import Source
from rulebook.readers import read_file
from rulebook.readers.mtg import read_mtg
from rulebook.readers.text import read_lines


@dataclass(frozen=True)
class Edition:
    effective: str
    rules: int
    terms: int
    first_term: str
    last_term: str


# Counted in the shell, not by the reader, over the file decoded to UTF-8 with LF line ends (2022:
# `iconv -f UTF-16 -t UTF-8 | tr '\r' '\n'`; the others: BOM and every \r removed):
#   rules: lines matching /^[0-9]+\./ after the contents' last entry (the first line that is exactly
#          "Credits") and before the last line that is exactly "Glossary"; no number appears twice;
#   terms: paragraphs (`awk 'BEGIN{RS=""} END{print NR}'`) between that last "Glossary" line and the
#          last line that is exactly "Credits". In 2008 one entry, "Floor Rules" (line 3318), follows
#          the previous one with no blank line: 398 paragraphs, 399 entries.
EDITIONS = {
    "MagicCompRules-2026-02-27.txt": Edition("2026-02-27", 3275, 726, "Abandon", "Zone-Change Triggers"),
    "MagicCompRules-2025-02-07.txt": Edition("2025-02-07", 3175, 703, "Abandon", "Zone-Change Triggers"),
    "MagicCompRules-2022-11-18.txt": Edition("2022-11-18", 2941, 647, "Abandon", "Zone-Change Triggers"),
    "MagicCompRules-2008-10-01.txt": Edition("2008-10-01", 1265, 399, "Ability", "Zone-Change Triggers"),
}
# Numbers misprinted in the publisher's text, as the shell count sees them -> the rule the reader repairs.
_MISPRINTED = {("MagicCompRules-2008-10-01.txt", "306.b"): "306.3b"}  # line 837, between 306.3a and 306.3c
_NUMBER_START = re.compile(r"^(\d+)\.(\d*)([a-z]*)")  # the shell count's /^[0-9]+\./, and the number it starts


def counted_numbers(name: str, lines: list[str]) -> list[str]:
    """The rule numbers of the shell count above, one per counted line."""
    start = lines.index("Credits") + 1
    end = max(i for i, line in enumerate(lines) if line == "Glossary")
    numbers = []
    for line in lines[start:end]:
        if m := _NUMBER_START.match(line):
            head, sub, letters = m.groups()
            number = f"{head}.{sub}{letters}" if sub else f"{head}.{letters}" if letters else head
            numbers.append(_MISPRINTED.get((name, number), number))
    return numbers


@pytest.fixture(scope="module", params=sorted(EDITIONS))
def edition(request):
    """(file name, its lines, the document read from it): each edition read once for this module."""
    path = corpus("mtg", request.param)
    lines, _ = read_lines(path)
    return path.name, lines, read_file(path)


def test_rule_and_glossary_counts_equal_the_independent_counts(edition):
    name, _, doc = edition
    expected = EDITIONS[name]
    assert (doc.edition, len(doc.rules), len(doc.terms)) == (expected.effective, expected.rules, expected.terms)
    assert (doc.terms[0].term, doc.terms[-1].term) == (expected.first_term, expected.last_term)


def test_every_counted_number_is_a_rule_read(edition):
    name, lines, doc = edition
    counted = counted_numbers(name, lines)
    assert len(counted) == len(set(counted)) == EDITIONS[name].rules
    assert sorted(set(counted) - {r.number for r in doc.rules}) == []


# --- a document built like the July 2009 edition ------------------------------------------------

# Its contents name part 1 "Game Concepts" where the body says "The Game", and end with entries that
# are not rules (Glossary, Credits, Questions?); the body then repeats "Glossary" and "Credits".
M10_LIKE = """Magic: The Gathering Comprehensive Rules

These rules are effective as of July 11, 2009.

Introduction

This document includes a series of numbered rules followed by a glossary.

Contents

1. Game Concepts
100. General
101. The Magic Golden Rules

2. Parts of a Card
200. General

Glossary

Credits

Questions?

1. The Game

100. General

100.1. These Magic rules apply to any Magic game with two or more players.

100.1a A two-player game is a game that begins with only two players.

101. The Magic Golden Rules

101.1. Whenever a card's text directly contradicts these rules, the card takes precedence.
Example: A card that says a player can't lose still loses to a concession.

2. Parts of a Card

200. General

200.1. The parts of a card are its name, mana cost, illustration and text box.


Glossary

Ability
1. Text on an object that explains what that object does or can do.
2. An activated or triggered ability on the stack.

Active Player
The player whose turn it is. See rule 102.1.

Zone
A place where objects can be during a game.


Credits

Magic: The Gathering Original Game Design: Richard Garfield

Questions?
Contact the office nearest you.
""".splitlines()


def read_text(lines: list[str]):
    return read_mtg(lines, Source("cr.txt", "", "rules"))


def test_contents_unlike_the_body_and_listing_glossary_lose_no_rule():
    doc = read_text(M10_LIKE)
    assert [(r.number, r.title, r.line) for r in doc.rules if r.title] == [
        ("1", "The Game", 24),
        ("100", "General", 26),
        ("101", "The Magic Golden Rules", 32),
        ("2", "Parts of a Card", 37),
        ("200", "General", 39),
    ]
    assert [r.number for r in doc.rules] == ["1", "100", "100.1", "100.1a", "101", "101.1", "2", "200", "200.1"]
    assert {r.number: r for r in doc.rules}["101.1"].examples == (
        "A card that says a player can't lose still loses to a concession.",
    )
    assert [t.term for t in doc.terms] == ["Ability", "Active Player", "Zone"]
    assert doc.terms[-1].definition == "A place where objects can be during a game."  # the credits stay out
    assert doc.warnings == []
    assert doc.edition == "2009-07-11"


def test_contents_that_end_on_a_heading_stay_out_of_the_body():
    # No entry between the contents and the body: only the first rule's own section and part begin it.
    lines = [
        "Contents",
        "1. Game Concepts",
        "100. General",
        "101. Players",
        "1. The Game",
        "100. General",
        "100.1. A rule.",
        "101. Players",
        "101.1. Another rule.",
    ]
    doc = read_text(lines)
    assert [(r.number, r.line) for r in doc.rules] == [("1", 5), ("100", 6), ("100.1", 7), ("101", 8), ("101.1", 9)]
    assert doc.rules[0].title == "The Game"
    assert doc.warnings == []


def test_a_body_without_its_part_heading_still_begins_at_its_section():
    lines = [
        "Contents",
        "",
        "1. Game Concepts",
        "100. General",
        "Glossary",
        "",
        "100. General",
        "",
        "100.1. A rule.",
        "",
        "Glossary",
        "",
        "Zone",
        "A place.",
        "",
        "Credits",
        "",
        "Names.",
    ]
    doc = read_text(lines)
    assert [(r.number, r.line) for r in doc.rules] == [("100", 7), ("100.1", 9)]
    assert [(t.term, t.definition) for t in doc.terms] == [("Zone", "A place.")]
