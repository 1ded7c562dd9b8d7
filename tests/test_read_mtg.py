"""Reading Magic: The Gathering rule documents: the full Comprehensive Rules, the seeds, broken files.

The full documents live outside the repository, in ``../shared/corpora/mtg`` beside the checkout;
the tests that need them skip when that folder is absent.
"""

from __future__ import annotations

import codecs
import re
import tempfile
import time
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rulebook.numbers import sort_key
from rulebook.readers import read_file
from rulebook.readers.mtg import read_mtg
from rulebook.readers.text import read_lines

ROOT = Path(__file__).resolve().parents[1]
SEEDS = ROOT / "seeds"
CORPORA = Path(__file__).resolve().parents[2] / "shared" / "corpora"
MTG_CORPUS = CORPORA / "mtg"
CR_FILES = sorted(MTG_CORPUS.glob("*.txt")) if MTG_CORPUS.is_dir() else []

needs_corpus = pytest.mark.skipif(
    not CR_FILES, reason=f"real Comprehensive Rules not available: no *.txt in {MTG_CORPUS}"
)


def corpus_file(name: str) -> Path:
    path = MTG_CORPUS / name
    if not path.is_file():
        pytest.skip(f"real Comprehensive Rules not available: {path} is missing")
    return path


_docs: dict[Path, object] = {}


def read_cached(path: Path):
    """The full documents take a moment to read; each is read once per test session."""
    if path not in _docs:
        _docs[path] = read_file(path)
    return _docs[path]


# --- an independent reading of the rule numbers, kept deliberately simple -----------------------

# "100.", "100.1.", "100.1a", "302.1 " (dot lost), "901.4.All" (space lost), "1. Game Concepts".
_COUNTED = re.compile(r"(\d+)\.(\d*)([a-z]*)\.?(?=[\sA-Z])")
# Faults of the real documents that the reader repairs: (file, number as printed) -> rule number.
_KNOWN_TYPOS = {("MagicCompRules-2008-10-01.txt", "306b"): "306.3b"}  # line 837, between 306.3a and 306.1c


def rules_part(lines: list[str]) -> tuple[int, int]:
    """Between the end of the contents (its last entries are Glossary, Credits) and the Glossary heading."""
    contents = lines.index("Contents")
    start = lines.index("Credits", contents) + 1
    end = max(i for i, line in enumerate(lines) if line == "Glossary")
    return start, end


def counted_numbers(path: Path) -> set[str]:
    lines, _ = read_lines(path)
    start, end = rules_part(lines)
    numbers = set()
    for line in lines[start:end]:
        m = _COUNTED.match(line)
        if m:
            head, sub, letters = m.groups()
            number = head + (f".{sub}" if sub else "") + letters
            numbers.add(_KNOWN_TYPOS.get((path.name, number), number))
    return numbers


def glossary_headwords(path: Path) -> tuple[str, str]:
    """The first and last headword as printed: first line after Glossary, first line of the last entry."""
    lines, _ = read_lines(path)
    start = max(i for i, line in enumerate(lines) if line == "Glossary") + 1
    end = lines.index("Credits", start)
    body = lines[start:end]
    first = next(line for line in body if line.strip())
    last_blank = max(i for i, line in enumerate(body[:-1]) if not line.strip() and body[i + 1].strip())
    return first, body[last_blank + 1]


# --- the full Comprehensive Rules ---------------------------------------------------------------


@needs_corpus
@pytest.mark.parametrize("path", CR_FILES, ids=lambda p: p.name)
def test_every_numbered_rule_is_read_once_and_the_contents_adds_none(path):
    doc = read_cached(path)
    numbers = [r.number for r in doc.rules]
    assert set(numbers) == counted_numbers(path)
    assert len(numbers) == len(set(numbers))
    lines, _ = read_lines(path)
    start, _ = rules_part(lines)
    assert min(r.line for r in doc.rules) > start  # nothing read from the table of contents
    assert all(r.source == path.name for r in doc.rules)


@needs_corpus
@pytest.mark.parametrize("path", CR_FILES, ids=lambda p: p.name)
def test_first_and_last_glossary_entries_are_read(path):
    doc = read_cached(path)
    first, last = glossary_headwords(path)
    assert doc.terms[0].term == first
    assert doc.terms[-1].term == last
    assert doc.terms[-1].definition  # the entry right before Credits keeps its definition
    assert doc.kind == "mixed"
    assert doc.title == "Magic: The Gathering Comprehensive Rules"


@needs_corpus
@pytest.mark.parametrize("name", [f"MagicCompRules-{date}.txt" for date in ("2026-02-27", "2025-02-07", "2022-11-18")])
def test_modern_editions_read_without_warnings_and_in_rule_order(name):
    doc = read_cached(corpus_file(name))
    assert doc.warnings == []
    numbers = [r.number for r in doc.rules]
    assert numbers == sorted(numbers, key=sort_key)


@needs_corpus
def test_2026_rule_texts_headings_examples_and_continuations():
    doc = read_cached(corpus_file("MagicCompRules-2026-02-27.txt"))
    rules = {r.number: r for r in doc.rules}
    assert (rules["1"].title, rules["1"].parent, rules["1"].line) == ("Game Concepts", None, 181)
    assert (rules["100"].title, rules["100"].text, rules["100"].parent) == ("General", "", "1")
    assert rules["601.2c"].text.startswith(
        "The player announces their choice of an appropriate object or player for each target the spell requires."
    )
    assert (rules["601.2c"].parent, rules["601.2c"].line) == ("601.2", 2458)
    numbers = [r.number for r in doc.rules]
    assert numbers.index("702.9") < numbers.index("702.10")
    assert sorted(["702.10", "702.9"], key=sort_key) == ["702.9", "702.10"]
    assert (rules["702.9"].title, rules["702.10"].title) == ("Flying", "Haste")
    assert rules["101.2"].text == (
        "When a rule or effect allows or directs something to happen, and another effect states that it "
        "can’t happen, the “can’t” effect takes precedence."
    )
    assert rules["101.2"].examples == (
        "If one effect reads “You may play an additional land this turn” and another reads “You can’t "
        "play lands this turn,” the effect that precludes you from playing lands wins.",
    )
    first, continuation = rules["205.4c"].text.split("\n")
    assert first.startswith("Any land with the supertype “basic” is a basic land.")
    assert continuation.startswith("Cards printed in sets prior to the Eighth Edition core set didn’t use")
    assert rules["119.1d"].text.startswith("In a two-player Brawl game")  # "119.1d." with a stray dot


@needs_corpus
def test_2026_glossary_markers_and_multi_sense_definitions():
    doc = read_cached(corpus_file("MagicCompRules-2026-02-27.txt"))
    terms = {t.term: t for t in doc.terms}
    assert terms["Bury"].obsolete and not terms["Absorb"].obsolete
    assert terms["Remove from the Game, Removed, Removed-from-the-Game Zone"].obsolete
    assert "Banding, “Bands with Other”" in terms
    assert terms["Ability"].definition.split("\n") == [
        "1. Text on an object that explains what that object does or can do.",
        "2. An activated or triggered ability on the stack. This kind of ability is an object.",
        "See rule 113, “Abilities,” and section 6, “Spells, Abilities, and Effects.”",
    ]
    assert "Team vs. Team Variant" in terms
    assert not any(t.headword_recovered for t in doc.terms)


@needs_corpus
def test_2022_rule_that_lost_the_space_after_its_number():
    doc = read_cached(corpus_file("MagicCompRules-2022-11-18.txt"))
    rules = {r.number: r for r in doc.rules}
    assert rules["901.4"].text.startswith("All plane and phenomenon cards remain in the command zone")


@needs_corpus
def test_2008_numbering_italics_and_source_faults():
    doc = read_cached(corpus_file("MagicCompRules-2008-10-01.txt"))
    rules = {r.number: r for r in doc.rules}
    assert rules["3"].title == "Turn Structure"
    assert rules["302"].title == "Untap Step"
    assert rules["418.5"].title == "Interaction of Continuous Effects"
    assert rules["100.1"].text.startswith("These Magic rules apply to any Magic game")  # was _Magic_
    assert rules["306.3b"].text.startswith("If an effect would put a creature into play attacking")
    assert [(w.line, w.reason) for w in doc.warnings] == [
        (837, "rule number 306.b lacks its sub-number; read as 306.3b"),
        (839, "rule 306.1c out of order after 306.3b"),
    ]
    terms = {t.term: t for t in doc.terms}
    assert terms["Play/Draw"].definition.startswith("(Informal) Whoever plays first")
    assert terms["Bury"].obsolete
    assert terms["As Though"].definition
    # "Floor Rules" follows "Flip Cards" without the usual blank line; it is still its own entry.
    assert terms["Floor Rules"].definition.startswith("The current DCI Magic: The Gathering Floor Rules")
    assert "Floor Rules" not in terms["Flip Cards"].definition


@needs_corpus
def test_the_2026_rules_read_well_under_a_second():
    path = corpus_file("MagicCompRules-2026-02-27.txt")
    lines, _ = read_lines(path)
    source = read_cached(path).source
    started = time.perf_counter()
    read_mtg(lines, source)
    assert time.perf_counter() - started < 1.0


# --- the seeds of the default book ------------------------------------------------------------


def test_turn_structure_seed():
    path = SEEDS / "mtg-turn-structure-excerpt.txt"
    doc = read_file(path)
    lines = path.read_text(encoding="utf-8").splitlines()
    starts = (re.match(r"(\d+\.\d*[a-z]*\.?)\s", line) for line in lines)
    printed = {m.group(1).rstrip(".") for m in starts if m}
    assert {r.number for r in doc.rules} == printed
    assert len(doc.rules) == 31
    rules = {r.number: r for r in doc.rules}
    assert rules["302.1"].text.startswith("First, all permanents with phasing")  # printed "302.1 First"
    assert rules["304.1"].text.startswith("First, the active player draws a card.")
    assert (rules["306.2a"].parent, rules["306.2a"].line) == ("306.2", 51)
    assert (rules["308"].title, rules["308"].parent) == ("Declare Attackers Step", "3")
    junk = "junk line skipped (no Latin letters): 'Выбрать главу'"
    assert [(w.line, w.reason) for w in doc.warnings] == [(1, junk)]
    assert doc.game == "mtg" and doc.kind == "rules"


def test_glossary_seed_recovers_lost_headwords():
    doc = read_file(SEEDS / "mtg-glossary-fragments.txt")
    assert doc.kind == "glossary" and doc.rules == []
    terms = {t.term: t for t in doc.terms}
    permanent = terms["permanent"]
    assert permanent.definition == ("A permanent is any card or token in the in-play zone. See rule 214, “Permanents.”")
    assert (permanent.headword_recovered, permanent.line) == (True, 9)
    play_draw = terms["play/draw rule"]
    assert play_draw.headword_recovered
    assert play_draw.definition.split("\n") == [
        "Whoever plays first in a two-player game skips his or her first draw step. This is referred to as "
        "the play/draw rule. See rule 101, “Starting the Game.”",
        "In a Two-Headed Giant multiplayer game, the team that goes first skips its first draw step (see rule "
        "606, “Two-Headed Giant Variant”). Other multiplayer variants don’t use the play/draw rule.",
    ]
    poison = terms["Poison Counter"]
    assert not poison.headword_recovered
    assert poison.definition.startswith("Some cards give poison counters to players.")
    assert terms["Pay"].definition.count("\n") == 3  # four definition lines under the headword
    assert {
        "pass",
        "pass in succession",
        "phased-out zone",
        "player",
        "poly artifact",
        "postcombat main phase",
        "power",
    } <= set(terms)


def test_glossary_seed_warns_where_it_had_to_guess():
    doc = read_file(SEEDS / "mtg-glossary-fragments.txt")
    reasons = {w.line: w.reason for w in doc.warnings}
    assert reasons[1].startswith("glossary text with no headword, not read")
    assert reasons[17] == "cross-reference 'See Landcycling.' lost its headword; kept with 'Plains'"
    assert "See Landcycling." in {t.term: t for t in doc.terms}["Plains"].definition
    assert reasons[19] == "glossary text without a headword (lines 19-23) kept with 'Plains'"


# --- broken files, in every encoding and line end a judge may load ----------------------------

BROKEN = [
    "Magic: The Gathering Comprehensive Rules",
    "",
    "These rules are effective as of March 5, 2024.",
    "",
    "100. General",
    "",
    "100.1. A player’s first rule.",
    "",
    "100.2. The second rule.",
    "Example: A creature in play.",
    "A continuation paragraph.",
    "",
    "100.2. A second 100.2, kept as 100.2-2.",
    "",
    "100.1a Out of order.",
    "",
    "100.3 Missing dot, still a rule.",
]


@pytest.mark.parametrize(
    "encode",
    [
        lambda text: text.replace("\n", "\r\n").encode("utf-8"),
        lambda text: text.encode("cp1252"),
        lambda text: codecs.BOM_UTF16_LE + text.encode("utf-16-le"),
        lambda text: text.replace("\n", "\r").encode("utf-16-le"),
    ],
    ids=["utf8-crlf", "cp1252", "utf16le-bom", "utf16le-cr"],
)
def test_duplicate_and_out_of_order_numbers_are_warned_with_their_line(tmp_path, encode):
    path = tmp_path / "broken.txt"
    path.write_bytes(encode("\n".join(BROKEN) + "\n"))
    doc = read_file(path, game="mtg")
    assert [(w.line, w.reason) for w in doc.warnings] == [
        (13, "duplicate rule number 100.2 (first at line 9); kept as 100.2-2"),
        (15, "rule 100.1a out of order after 100.2"),
    ]
    assert str(doc.warnings[0]) == "broken.txt:13: duplicate rule number 100.2 (first at line 9); kept as 100.2-2"
    rules = {r.number: r for r in doc.rules}
    assert list(rules) == ["100", "100.1", "100.2", "100.2-2", "100.1a", "100.3"]
    assert (rules["100.2-2"].text, rules["100.2-2"].parent, rules["100.2-2"].line) == (
        "A second 100.2, kept as 100.2-2.",
        "100",
        13,
    )
    assert rules["100.1"].text == "A player’s first rule."
    assert rules["100.2"].text == "The second rule.\nA continuation paragraph."
    assert rules["100.2"].examples == ("A creature in play.",)
    assert rules["100.3"].text == "Missing dot, still a rule."
    assert (doc.title, doc.edition) == ("Magic: The Gathering Comprehensive Rules", "2024-03-05")


def test_text_that_cannot_be_placed_is_warned_but_an_introduction_is_not(tmp_path):
    stray = tmp_path / "stray.txt"
    stray.write_text("Some stray words.\n100.1. A rule.\n100.2. Another rule.\n", encoding="utf-8")
    doc = read_file(stray, game="mtg", kind="rules")
    stray_warning = "text before the first rule, not read: 'Some stray words.'"
    assert [(w.line, w.reason) for w in doc.warnings] == [(1, stray_warning)]
    intro = tmp_path / "intro.txt"
    intro_lines = [
        "Introduction",
        "",
        "Words.",
        "",
        "Contents",
        "",
        "1. Game",
        "100. General",
        "",
        "1. Game",
        "",
        "100. General",
        "100.1. A rule.",
    ]
    intro.write_text("\n".join(intro_lines) + "\n", encoding="utf-8")
    doc = read_file(intro, game="mtg", kind="rules")
    assert doc.warnings == []
    assert [(r.number, r.line) for r in doc.rules] == [("1", 10), ("100", 12), ("100.1", 13)]


# --- property: rules rendered to text read back as they were --------------------------------

_LETTERS = "abcdefghijkmnpqrstuvwxyz"  # the CR skips l and o
# ’ is the byte 0x92 in cp1252, which no UTF-8 text can start with: the encoding stays detectable.
_WORD = st.text(alphabet="abcdefghijklmnopqrstuvwxyz’", min_size=1, max_size=8)
_SENTENCE = st.lists(_WORD, min_size=1, max_size=8).map(lambda ws: " ".join([ws[0].capitalize(), *ws[1:]]) + ".")


@st.composite
def rulebooks(draw):
    """Sections with rules and lettered subrules, each with text and maybe examples, in order."""
    rules = []
    for section in sorted(draw(st.sets(st.integers(100, 999), min_size=1, max_size=4))):
        rules.append((str(section), "Section Title", ()))
        for sub in sorted(draw(st.sets(st.integers(1, 130), max_size=4))):
            number = f"{section}.{sub}"
            rules.append((number, draw(_SENTENCE), tuple(draw(st.lists(_SENTENCE, max_size=2)))))
            letters = draw(st.integers(0, 3))
            picks = draw(st.sets(st.sampled_from([*_LETTERS, "aa"]), max_size=letters))
            for letter in sorted(picks, key=lambda x: (len(x), x)):
                rules.append((number + letter, draw(_SENTENCE), ()))
    return rules


def render(rules, eol: str) -> str:
    out = []
    for number, text, examples in rules:
        dot = "." if "." not in number or not number[-1].isalpha() else ""
        out.append(f"{number}{dot} {text}")
        out.extend(f"Example: {example}" for example in examples)
        out.append("")
    return eol.join(out)


@settings(max_examples=60, deadline=None)
@given(
    rulebooks(),
    st.sampled_from(["\n", "\r\n", "\r", "\r\r\n"]),
    st.sampled_from(["utf-8-sig", "utf-16", "cp1252"]),
)
def test_rendered_rules_read_back_identically(rules, eol, encoding):
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "generated.txt"
        path.write_bytes(render(rules, eol).encode(encoding))
        doc = read_file(path, game="mtg", kind="rules")
    assert doc.warnings == []
    read = [(r.number, r.title or r.text, r.examples) for r in doc.rules]
    assert read == list(rules)
    assert [r.parent for r in doc.rules] == [expected_parent(number) for number, _, _ in rules]


def expected_parent(number: str) -> str:
    """123 is in part 1, 123.4 in section 123, 123.4b in rule 123.4."""
    if "." not in number:
        return number[0]
    head, tail = number.split(".")
    return head if tail.isdigit() else f"{head}.{tail.rstrip(_LETTERS)}"
