"""judge diff: what changed between two editions (rulebook.diff).

The Comprehensive Rules of 2025-02-07 and 2026-02-27 are compared, and the answer is checked
against both files read here with a small parser of its own (not the project's reader): every rule
of either file is accounted for exactly once, a rule reported changed really reads differently, one
reported unchanged or moved unchanged really reads the same, and a text found under both numbers is
never called removed plus added. The changes named below were found by reading both files.
"""

from __future__ import annotations

import atexit
import json
import re
import shutil
import tempfile
from functools import cache
from pathlib import Path

import pytest

from tests.conftest import corpus

_QUOTES = str.maketrans({"\u2019": "'", "\u2018": "'", "\u201c": '"', "\u201d": '"', "\u00a0": " "})
_RULE = re.compile(r"^(\d{3}(?:\.\d+[a-z]{0,2})?)(?:\.\s*(?![a-z\s])|\s+)(\S.*)")  # "901.4.All" in 2025 too
CR = {
    "2025": "MagicCompRules-2025-02-07.txt",
    "2026": "MagicCompRules-2026-02-27.txt",
    "2022": "MagicCompRules-2022-11-18.txt",
    "2008": "MagicCompRules-2008-10-01.txt",
}


def norm(text: str) -> str:
    return " ".join(text.translate(_QUOTES).split())


def _lines(path: Path) -> list[str]:
    raw = path.read_bytes()
    if raw.startswith((b"\xfe\xff", b"\xff\xfe")):
        text = raw.decode("utf-16")
    else:
        text = raw.decode("utf-8-sig") if raw.startswith(b"\xef\xbb\xbf") else raw.decode("cp1252")
    return text.replace("\r\r\n", "\n").replace("\r\n", "\n").replace("\r", "\n").split("\n")


@cache
def read_cr(path: Path) -> tuple[dict[str, str], dict[str, str]]:
    """(rules, glossary) of a Comprehensive Rules file: number -> text with its examples; term ->
    definition. The body starts at the "100. General" just above the first 100.1, the glossary at
    the "Glossary" after it, ended by "Credits"."""
    lines = _lines(path)
    first = next(i for i, line in enumerate(lines) if re.match(r"^100\.1\.? ", line))
    start = max(i for i in range(first) if lines[i].startswith("100. "))
    gloss = next(i for i in range(first, len(lines)) if lines[i].strip() == "Glossary")
    end = next(i for i in range(gloss, len(lines)) if lines[i].strip() == "Credits")
    rules: dict[str, str] = {}
    current = None
    for line in lines[start:gloss]:
        m = _RULE.match(line)
        if m:
            current = m.group(1)
            rules[current] = m.group(2)
        elif current and line.strip():
            rules[current] += " " + line.strip()  # examples and continuation lines
    glossary: dict[str, str] = {}
    entry: list[str] = []
    for line in [*lines[gloss + 1 : end], ""]:
        if line.strip():
            entry.append(line.strip())
        elif entry:  # "(Obsolete)" marks a headword kept for older cards: the reader stores it as a flag
            glossary[re.sub(r"\s*\(Obsolete\)$", "", entry[0])] = " ".join(entry[1:])
            entry = []
    return {n: norm(t) for n, t in rules.items()}, {t: norm(d) for t, d in glossary.items()}


@cache
def library(*books: tuple[str, str]):
    """A library of its own with these ``(book id, CR year)`` loaded, built once per test run whichever
    test module asks first (tests/test_history.py and others share it): (home, store)."""
    from rulebook.library import Library
    from rulebook.shipped import seeds_dir

    paths = {book: corpus("mtg", CR[year]) for book, year in books}  # skips, saying why, when absent
    home = Path(tempfile.mkdtemp(prefix="judge-editions-"))
    atexit.register(shutil.rmtree, home, True)
    lib = Library(home, seeds=seeds_dir())
    for book, path in paths.items():
        lib.load([path], book, game="mtg")
    return home, lib.open()


PAIR = (("cr-2025", "2025"), ("cr-2026", "2026"))


@pytest.fixture(scope="session")
def cr_pair():
    """A library with the CR 2025-02-07 (cr-2025) and 2026-02-27 (cr-2026): (home, store)."""
    return library(*PAIR)


@pytest.fixture(scope="session")
def pair_diff(cr_pair):
    from rulebook.diff import diff_books

    return diff_books(cr_pair[1], "cr-2025", "cr-2026").to_json()


def _key(text: str) -> str:
    """What the diff's texts read as, for comparing with the file's (examples are lines of their own there)."""
    return norm(text.replace("\n", " "))


def test_every_rule_is_accounted_for_exactly_once(pair_diff):
    old, _ = read_cr(corpus("mtg", CR["2025"]))
    new, _ = read_cr(corpus("mtg", CR["2026"]))
    d = pair_diff
    moved_old = [r["old"] for r in d["renumbered"]]
    moved_new = [r["new"] for r in d["renumbered"]]
    changed = [c["number"] for c in d["changed"]]
    removed = [r["number"] for r in d["removed"]]
    added = [a["number"] for a in d["added"]]
    unchanged_old = set(old) - set(moved_old) - set(changed) - set(removed)
    # Each old rule once (the part headings 1-9 are the book's, not numbered lines of the file)
    accounted_old = [*moved_old, *changed, *removed]
    assert len(accounted_old) == len(set(accounted_old))
    assert set(accounted_old) <= set(old)
    accounted_new = [*moved_new, *changed, *added]
    assert len(accounted_new) == len(set(accounted_new)) and set(accounted_new) <= set(new)
    unchanged_new = set(new) - set(accounted_new)
    assert unchanged_old == unchanged_new  # what is neither moved, changed, removed nor added stayed put
    assert d["unchanged"] == len(unchanged_old) + 9  # and the 9 part headings (1 Game Concepts ...)
    # ... and reads the same, word for word
    assert [n for n in unchanged_old if old[n] != new[n]] == []


def test_what_is_called_changed_reads_differently_and_the_rest_the_same(pair_diff):
    old, _ = read_cr(corpus("mtg", CR["2025"]))
    new, _ = read_cr(corpus("mtg", CR["2026"]))
    for c in pair_diff["changed"]:
        assert old[c["number"]] != new[c["number"]], c["number"]
        assert _key(c["old_text"]) == old[c["number"]] and _key(c["new_text"]) == new[c["number"]]
    for r in pair_diff["renumbered"]:
        assert r["old"] != r["new"]
        assert (old[r["old"]] != new[r["new"]]) == r["changed"], r
    for r in pair_diff["removed"]:
        assert _key(r["text"]) == old[r["number"]]
    for a in pair_diff["added"]:
        assert _key(a["text"]) == new[a["number"]]


def test_a_text_under_both_numbers_is_never_removed_plus_added(pair_diff):
    old, _ = read_cr(corpus("mtg", CR["2025"]))
    new, _ = read_cr(corpus("mtg", CR["2026"]))
    added_texts = {new[a["number"]] for a in pair_diff["added"]}
    assert [r["number"] for r in pair_diff["removed"] if old[r["number"]] in added_texts] == []
    # Every text that left its number and is found under exactly one new number was followed there.
    removed_or_moved = {r["old"]: r["new"] for r in pair_diff["renumbered"]}
    by_text: dict[str, list[str]] = {}
    for number, text in new.items():
        by_text.setdefault(text, []).append(number)
    for number, text in old.items():
        if new.get(number) == text:
            continue
        where = [n for n in by_text.get(text, []) if old.get(n) != text]
        if len(where) == 1:
            assert removed_or_moved.get(number) == where[0], (number, where)


def test_the_changes_found_by_reading_both_files(pair_diff):
    d = pair_diff
    assert (d["old"], d["new"], d["old_edition"], d["new_edition"]) == (
        "cr-2025",
        "cr-2026",
        "2025-02-07",
        "2026-02-27",
    )
    added = {a["number"] for a in d["added"]}
    # New keyword actions and abilities with all their sub-rules; new token kinds; new rules in place.
    assert {
        "701.4",
        "701.4a",
        "701.4b",
        "701.63",
        "701.68d",
        "702.180",
        "702.190b",
        "111.10u",
        "111.10v",
        "603.1b",
        "720",
        "721.4",
        "903.5e",
    } <= added
    # Gone without a trace in 2026: 603.2e (effects that refer to an object's triggered abilities)
    # and 903.12c's old wording (the Brawl commander a player designates).
    removed = {r["number"]: r["text"] for r in d["removed"]}
    assert {"603.2e", "903.12c"} <= set(removed)
    assert "not any delayed triggered abilities" in removed["603.2e"]
    renumbered = {r["old"]: r for r in d["renumbered"]}
    # Keyword actions re-sorted: Manifest 701.34 -> 701.40 with every sub-rule, word for word.
    for suffix in ("", "a", "b", "c", "d", "e", "f", "g", "h"):
        r = renumbered[f"701.34{suffix}"]
        assert r["new"] == f"701.40{suffix}" and not r["changed"]
    # 701.34h and 701.56h say the same words ("See rule 708..."): each follows its own keyword.
    assert renumbered["701.56h"]["new"] == "701.58h"
    # Moved and reworded: Transform 701.28a -> 701.27a ("transforming tokens" are now double-faced tokens).
    t = renumbered["701.28a"]
    assert t["new"] == "701.27a" and t["changed"] and t["confidence"] == "high"
    assert "[-transforming tokens and-]" in t["diff"] and "{+double-faced tokens and+}" in t["diff"]
    # Partner with [name] moved from 702.124i to 702.124j, losing "creature".
    assert renumbered["702.124i"]["new"] == "702.124j" and "[-creature-]" in renumbered["702.124i"]["diff"]
    # The old 903.11 became 903.11a word for word under a new 903.11.
    assert renumbered["903.11"]["new"] == "903.11a" and not renumbered["903.11"]["changed"]
    # Changed in place: a sentence added to 903.4a, "six" meld pairs now "seven" (712.5).
    changed = {c["number"]: c for c in d["changed"]}
    assert changed["903.4a"]["diff"].startswith("Color identity is established before the game begins. {+If a rule")
    assert changed["712.5"]["diff"] == "There are [-six-]{+seven+} specific meld pairs."
    # A rule whose only change is the number it cites, after the renumbering (104.6? no: 701.7c).
    assert renumbered["701.7c"]["references_only"] and renumbered["701.7c"]["new"] == "701.8c"
    # The glossary: new words, a definition changed, an entry renamed, one gone.
    terms = d["terms"]
    assert {"Behold", "Airbend", "Station"} <= {a["term"] for a in terms["added"]}
    assert {r["term"] for r in terms["removed"]} == {"Friends Forever"}
    assert [(r["old"], r["new"]) for r in terms["renamed"]] == [
        ("Partner, “Partner with [name]”", "Partner, “Partner—[text],” “Partner with [name]”")
    ]
    abandon = next(c for c in terms["changed"] if c["term"] == "Abandon")
    assert abandon["references_only"] and "[-701.33,-]{+701.26,+}" in abandon["diff"] or abandon["diff"]


def test_the_counts_reviewed(pair_diff):
    """The whole list was read once (docs/decisions.md, "Editions compared"); a change of matching shows here."""
    d = pair_diff
    counts = {k: len(d[k]) for k in ("added", "removed", "changed", "renumbered")}
    assert counts == {"added": 103, "removed": 3, "changed": 132, "renumbered": 378}
    assert d["unchanged"] == 2662
    assert sum(r["changed"] for r in d["renumbered"]) == 41


def test_glossary_against_the_files(pair_diff):
    _, old = read_cr(corpus("mtg", CR["2025"]))
    _, new = read_cr(corpus("mtg", CR["2026"]))
    t = pair_diff["terms"]
    lower_old = {k.lower(): v for k, v in old.items()}
    lower_new = {k.lower(): v for k, v in new.items()}
    renamed_old = {r["old"].lower() for r in t["renamed"]}
    renamed_new = {r["new"].lower() for r in t["renamed"]}
    assert {a["term"].lower() for a in t["added"]} == set(lower_new) - set(lower_old) - renamed_new
    assert {r["term"].lower() for r in t["removed"]} == set(lower_old) - set(lower_new) - renamed_old
    both = set(lower_old) & set(lower_new)
    assert {c["term"].lower() for c in t["changed"]} == {k for k in both if lower_old[k] != lower_new[k]}
    assert t["unchanged"] == sum(1 for k in both if lower_old[k] == lower_new[k])


def test_the_command(cr_pair, judge, monkeypatch):
    home, _ = cr_pair
    monkeypatch.setenv("JUDGE_HOME", str(home))
    code, out, err = judge("diff", "cr-2025", "cr-2026", "--json")
    assert code == 0, err
    data = json.loads(out)
    assert set(data) >= {"old", "new", "added", "removed", "changed", "renumbered", "unchanged", "terms"}
    assert set(data["terms"]) >= {"added", "removed", "changed"}
    from tests.test_json_docs import keys, sections

    section = sections()["diff"]
    assert {k for k in keys(data) if f'"{k}"' not in section} == set()  # every key, on a real diff
    code, out, err = judge("diff", "cr-2025", "cr-2026")
    assert code == 0 and out.startswith("cr-2025 (2025-02-07) -> cr-2026 (2026-02-27)")
    assert "  701.34 -> 701.40  Manifest, with 8 sub-rules" in out
    code, md, _ = judge("diff", "cr-2025", "cr-2026", "--format", "markdown")
    assert md.startswith("# What changed in ") and "## New rules (103)" in md
    assert "- **712.5** There are ~~six~~ **seven** specific meld pairs." in md
    code, out, _ = judge("diff", "cr-2025", "cr-2026", "--section", "701.34", "--json")
    data = json.loads(out)
    assert data["section"] == "701.34" and data["terms"] is None and data["added"] == []
    # In either edition: Proliferate moved in (701.27 -> 701.34), Manifest moved out (701.34 -> 701.40).
    moves = {(r["old"], r["new"]) for r in data["renumbered"]}
    assert {("701.27", "701.34"), ("701.27b", "701.34b"), ("701.34", "701.40"), ("701.34h", "701.40h")} <= moves
    code, out, err = judge("diff", "cr-2025", "cr-2026", "--section", "999.9")
    assert code == 1 and "no rule 999.9 in cr-2025 or cr-2026" in err
    code, out, err = judge("diff", "cr-2025", "riftbound")
    assert code == 2 and "only editions of one game can be compared" in err


# The seed against the whole edition it was cut from -------------------------------------------------
@pytest.fixture(scope="session")
def cr_2008():
    return library(("cr-2008", "2008"))


def test_the_seed_against_the_full_2008_edition(cr_2008):
    from rulebook.diff import diff_books

    _, store = cr_2008
    d = diff_books(store, "mtg", "cr-2008").to_json()
    seed = [r["number"] for r in store.query("SELECT number FROM rules WHERE book = 'mtg'")]
    assert d["partial"] == ["mtg"]
    assert d["removed"] == [] and d["added"] == []  # an excerpt lacks most rules: not "added"
    full, _ = read_cr(corpus("mtg", CR["2008"]))
    assert d["outside_excerpt"] == store.query("SELECT count(*) AS n FROM rules WHERE book = 'cr-2008'")[0]["n"] - len(
        seed
    )
    matched = {n: n for n in seed} | {r["old"]: r["new"] for r in d["renumbered"]}
    assert set(matched) == set(seed)  # every rule of the seed is found in the edition
    # ... with its text: the same words where nothing is called changed
    changed = {c["number"] for c in d["changed"]} | {r["old"] for r in d["renumbered"] if r["changed"]}
    rows = {r["number"]: r for r in store.query("SELECT number, title, text FROM rules WHERE book = 'mtg'")}
    for number, target in matched.items():
        if number not in changed and len(number) > 1:
            assert norm(rows[number]["title"] or rows[number]["text"]) == full[target], number
    # The excerpt is of an older printing: 306.2 (removed from combat) is 306.4 in the 2008-10-01 text.
    assert {r["old"]: r["new"] for r in d["renumbered"]}["306.2"] == "306.4"


# The matching rule on small books ------------------------------------------------------------------
def test_one_strong_move_beats_two_weak_matches_in_place():
    """702.124 of 2025 and 2026 (shortened): "Partner with [name]" moved from i to j; i and j are not
    two rules reworded in place, which their numbers alone would suggest."""
    from rulebook.diff import Entry, match_rules

    old = [
        Entry(
            "702.124i",
            "702.124",
            None,
            "“Partner with [name]” represents two abilities. It means “You may "
            "designate two legendary creature cards as your commander rather than one if each has a ‘partner with "
            "[name]’ ability with the other’s name” and “When this permanent enters, target player may search their "
            "library for a card named [name], reveal it, put it into their hand, then shuffle.”",
        ),
        Entry(
            "702.124j",
            "702.124",
            None,
            "“Friends forever” means “You may designate two legendary creature cards "
            "as your commander rather than one if each of them has friends forever.”",
        ),
    ]
    new = [
        Entry(
            "702.124i",
            "702.124",
            None,
            "“Partner—[text]” means “You may designate two legendary cards as your "
            "commander rather than one if each of them has the same ‘partner—[text]’ ability.” The “partner—[text]” "
            "abilities are “partner—Character select,” “partner—Father & son,” “partner—Friends forever,” and "
            "“partner—Survivors.”",
        ),
        Entry(
            "702.124j",
            "702.124",
            None,
            "“Partner with [name]” represents two abilities. It means “You may "
            "designate two legendary cards as your commander rather than one if each has a ‘partner with [name]’ "
            "ability with the other’s name” and “When this permanent enters, target player may search their library "
            "for a card named [name], reveal it, put it into their hand, then shuffle.”",
        ),
    ]
    m = match_rules(old, new)
    assert ("702.124i", "702.124j") in [(p.old, p.new) for p in m.pairs]


def test_a_heading_renamed_over_the_same_sub_rules_is_changed():
    from rulebook.diff import Entry, match_rules

    old = [
        Entry("308", None, "Tribals", ""),
        Entry("308.1", "308", None, "Each tribal card has another card type."),
        Entry("308.2", "308", None, "Tribal subtypes are always a single word."),
    ]
    new = [
        Entry("308", None, "Kindreds", ""),
        Entry("308.1", "308", None, "Each kindred card has another card type."),
        Entry("308.2", "308", None, "Kindred subtypes are usually a single word long."),
    ]
    m = match_rules(old, new)
    assert {(p.old, p.new) for p in m.pairs} == {("308", "308"), ("308.1", "308.1"), ("308.2", "308.2")}
    assert m.unmatched_old == m.unmatched_new == []


def test_a_short_heading_is_not_matched_on_one_common_word():
    from rulebook.diff import Entry, match_rules

    old = [Entry("7", None, "Additional Rules", ""), Entry("713", "7", "Meld Cards", "")]
    new = [Entry("7", None, "Additional Rules", ""), Entry("719", "7", "Case Cards", "")]
    m = match_rules(old, new)
    assert m.pairs == [] and m.unmatched_old == ["713"] and m.unmatched_new == ["719"]


# The held-out pair: 2022-11-18 -> 2025-02-07 -----------------------------------------------------
@pytest.fixture(scope="session")
def held_out():
    from rulebook.diff import diff_books

    _, store = library(("cr-2022", "2022"), ("cr-2025", "2025"))
    return diff_books(store, "cr-2022", "cr-2025").to_json()


def test_the_held_out_pair_keeps_the_same_discipline(held_out):
    """The matching rule was tuned on 2025 -> 2026 only; on 2022 -> 2025 (the damage assignment order
    removed, meld cards folded into double-faced cards, Tribal renamed Kindred) every rule is still
    accounted for once, words are called changed only where they differ, and no text found under a
    new number is called removed plus added. docs/decisions.md, "Editions compared", says what reading
    this pair found."""
    old, _ = read_cr(corpus("mtg", CR["2022"]))
    new, _ = read_cr(corpus("mtg", CR["2025"]))
    d = held_out
    accounted_old = [
        *(r["old"] for r in d["renumbered"]),
        *(c["number"] for c in d["changed"]),
        *(r["number"] for r in d["removed"]),
    ]
    accounted_new = [
        *(r["new"] for r in d["renumbered"]),
        *(c["number"] for c in d["changed"]),
        *(a["number"] for a in d["added"]),
    ]
    assert len(accounted_old) == len(set(accounted_old)) and len(accounted_new) == len(set(accounted_new))
    assert set(old) - set(accounted_old) == set(new) - set(accounted_new)
    assert all(old[n] == new[n] for n in set(old) - set(accounted_old))
    assert all(old[c["number"]] != new[c["number"]] for c in d["changed"])
    assert all((old[r["old"]] != new[r["new"]]) == r["changed"] for r in d["renumbered"])
    added_texts = {new[a["number"]] for a in d["added"]}
    assert [r["number"] for r in d["removed"] if old[r["number"]] in added_texts] == []
    # What reading the pair found, and the rule now does:
    changed = {c["number"]: c for c in d["changed"]}
    assert changed["308"]["diff"] == "[-Tribals-]{+Kindreds+}"  # a heading renamed over its own sub-rules
    removed = {r["number"] for r in d["removed"]}
    added = {a["number"] for a in d["added"]}
    assert "713" in removed and "719" in added  # Meld Cards went; Case Cards is new: not one renamed
    assert {"509.2", "509.3", "703.4k", "703.4m"} <= removed  # damage assignment order, gone
    moves = {r["old"]: r["new"] for r in d["renumbered"]}
    assert moves["713.2"] == "712.5" and moves["713.2a"] == "712.5a"  # the meld pairs, now under 712
    assert (len(d["added"]), len(d["removed"]), len(d["changed"]), len(d["renumbered"]), d["unchanged"]) == (
        255,
        21,
        267,
        270,
        2383,
    )
