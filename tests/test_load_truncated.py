"""A document cut short loads with a warning naming what it lacks, and counts as an excerpt; a whole
document never gets that warning (issue 20: the first 400,000 bytes of a Comprehensive Rules loaded
as 1,377 rules, the last one cut mid-sentence, without a word).

Every document is loaded once for the module (a full CR takes about a second), into one library."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from conftest import corpus, judge_in

from rulebook.readers import read_file
from rulebook.readers.truncated import TRUNCATED

REPO = Path(__file__).resolve().parents[1]
CR_EDITIONS = [
    "2008-10-01",
    "2010-07-16",
    "2013-07-11",
    "2017-04-28",
    "2019-10-04",
    "2022-11-18",
    "2023-10-13",
    "2025-02-07",
    "2025-09-19",
    "2026-02-27",
]
RIFTBOUND = ["v1.2", "v1.3"]


@pytest.fixture(scope="module")
def library(tmp_path_factory):
    """``load(path, book)``: ``judge load PATH --book BOOK --json`` into the module's library, once per
    book: (exit status, the JSON report, stderr); and the library's folder as ``load.home``."""
    home = tmp_path_factory.mktemp("truncated-home")
    done: dict[str, tuple[int, dict, str]] = {}

    def load(path: Path, book: str) -> tuple[int, dict, str]:
        if book not in done:
            code, out, err = judge_in(home, "load", path, "--book", book, "--json")
            done[book] = (code, json.loads(out), err)
        return done[book]

    load.home = home
    return load


def _cut(folder: Path, path: Path, size: int, name: str | None = None) -> Path:
    """The first ``size`` bytes of ``path``, as a file of its own."""
    target = folder / (name or f"cut-{size}-{path.name}")
    target.write_bytes(path.read_bytes()[:size])
    return target


def _truncation_warnings(report: dict) -> list[str]:
    return [w for w in report["warnings"] if w.endswith(TRUNCATED)]


# Whole documents: no false alarm ----------------------------------------------------------------------


# Two whole documents go through `judge load` (its JSON names no truncated file); the other editions
# through the reader that decides it (a quarter of the time of a load each).
LOADED = ("2008-10-01", "2026-02-27")


@pytest.mark.parametrize("edition", CR_EDITIONS)
def test_every_whole_comprehensive_rules_loads_without_the_warning(library, edition):
    path = corpus("mtg", f"MagicCompRules-{edition}.txt")
    if edition in LOADED:
        code, report, err = library(path, f"cr-{edition}")
        assert code == 0, err
        assert report["truncated"] == [] and _truncation_warnings(report) == []
        assert report["rules"] > 1000 and report["terms"] > 300
        return
    doc = read_file(path)
    assert [w for w in doc.warnings if w.reason.endswith(TRUNCATED)] == []
    assert len(doc.rules) > 1000 and len(doc.terms) > 300


@pytest.mark.parametrize("version", RIFTBOUND)
def test_both_whole_riftbound_core_rules_load_without_the_warning(library, version):
    path = corpus("riftbound", f"core-rules-{version}.txt")
    if version == "v1.3":
        code, report, err = library(path, f"rb-{version}")
        assert code == 0 and report["game"] == "riftbound", err
        assert report["truncated"] == [] and _truncation_warnings(report) == []
        return
    doc = read_file(path)
    assert doc.game == "riftbound" and [w for w in doc.warnings if w.reason.endswith(TRUNCATED)] == []


def test_the_seeds_are_excerpts_but_not_cut_mid_rule():
    for seed in sorted((REPO / "seeds").glob("*.txt")):
        doc = read_file(seed)
        assert [w for w in doc.warnings if TRUNCATED in w.reason] == [], seed.name


# Documents cut short -------------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def cut_2026(tmp_path_factory) -> Path:
    """The first 400,000 bytes of the 2026 Comprehensive Rules (the trial's file)."""
    return _cut(tmp_path_factory.mktemp("cut"), corpus("mtg", "MagicCompRules-2026-02-27.txt"), 400_000, "cut.txt")


def test_a_comprehensive_rules_cut_in_its_rules(library, cut_2026):
    cut = cut_2026
    code, report, err = library(cut, "cut")
    assert code == 0, err
    assert report["truncated"] == ["cut.txt"] and report["rules"] == 1377 and report["terms"] == 0
    assert report["warnings"][0] == (
        "cut.txt:3063: ends in the middle of rule 614.3 (no closing punctuation) and lacks sections 615-905 and "
        "the glossary, which its contents list: the file looks truncated"
    )
    # The text says it too, before any other warning.
    code, out, _ = judge_in(library.home, "load", cut, "--book", "cut-again")
    assert code == 0 and out.splitlines()[1] == f"  warning: {report['warnings'][0]}"


def test_a_cut_book_is_an_excerpt_and_the_whole_edition_stays_the_default(library, cut_2026):
    assert library(cut_2026, "cut")[0] == 0
    assert library(corpus("mtg", "MagicCompRules-2026-02-27.txt"), "cr-2026-02-27")[0] == 0
    code, out, _ = judge_in(library.home, "books", "--json")
    books = {b["id"]: b for b in json.loads(out)}
    assert books["cut"]["edition"] == books["cr-2026-02-27"]["edition"] == "2026-02-27"
    assert books["cr-2026-02-27"]["default"] and not books["cut"]["default"]
    import sqlite3

    conn = sqlite3.connect(library.home / "judge.db")
    assert conn.execute("SELECT partial FROM books WHERE id = 'cut'").fetchone() == (1,)
    assert conn.execute("SELECT source, line, after FROM truncations WHERE book = 'cut'").fetchall() == [
        ("cut.txt", 3063, "614.3")
    ]


def test_a_comprehensive_rules_cut_between_two_rules(library, tmp_path_factory):
    # The last rule is whole: the contents still say what is missing.
    whole = corpus("mtg", "MagicCompRules-2026-02-27.txt")
    raw = whole.read_bytes()
    end = raw.index(b"\r\r\n", 500_000)
    cut = _cut(tmp_path_factory.mktemp("cut"), whole, end, "between.txt")
    code, report, err = library(cut, "between")
    assert code == 0, err
    [warning] = _truncation_warnings(report)
    assert re.fullmatch(
        r"between\.txt:\d+: lacks sections (\d{3})-905 and the glossary, which its contents list: "
        r"the file looks truncated",
        warning,
    ), warning


def test_a_comprehensive_rules_cut_in_its_glossary(library, tmp_path_factory):
    whole = corpus("mtg", "MagicCompRules-2026-02-27.txt")
    cut = _cut(tmp_path_factory.mktemp("cut"), whole, 900_000, "glossary-cut.txt")
    code, report, err = library(cut, "glossary-cut")
    assert code == 0, err
    assert report["rules"] == 3275 and 0 < report["terms"] < 726
    assert _truncation_warnings(report) == [
        "glossary-cut.txt:7878: ends in the middle of the glossary entry 'Fu' (no closing punctuation) and lacks "
        "the credits, which its contents list: the file looks truncated"
    ]


@pytest.mark.parametrize("size", [200_000, 400_000])
def test_the_2008_comprehensive_rules_cut(library, tmp_path_factory, size):
    whole = corpus("mtg", "MagicCompRules-2008-10-01.txt")
    cut = _cut(tmp_path_factory.mktemp("cut"), whole, size)
    code, report, err = library(cut, f"cut-2008-{size}")
    assert code == 0, err
    [warning] = _truncation_warnings(report)
    assert report["truncated"] == [cut.name] and warning.startswith(f"{cut.name}:")
    if size == 200_000:  # in the rules
        assert re.search(
            r": ends in the middle of rule \d{3}\.\d+[a-z]* \(no closing punctuation\) and lacks sections "
            r"\d{3}-\d{3}(, \d{3}-\d{3})* and the glossary, which its contents list",
            warning,
        ), warning
    else:  # in the glossary
        assert (
            ": ends in the middle of the glossary entry 'Grand Melee' (no closing punctuation) and lacks the credits"
            in warning
        )


def test_a_utf16_comprehensive_rules_cut_in_the_middle_of_a_character(library, tmp_path_factory):
    whole = corpus("mtg", "MagicCompRules-2022-11-18.txt")  # UTF-16: an odd size cuts a character in two
    cut = _cut(tmp_path_factory.mktemp("cut"), whole, 1_000_001)
    code, report, err = library(cut, "cut-2022")
    assert code == 0, err
    [warning] = _truncation_warnings(report)
    assert (
        "ends in the middle of rule 702.53b (no closing punctuation) and lacks sections 703-905 and the glossary"
        in warning
    )


@pytest.mark.parametrize("version", RIFTBOUND)
def test_riftbound_core_rules_cut_in_the_middle_of_a_rule(library, tmp_path_factory, version):
    whole = corpus("riftbound", f"core-rules-{version}.txt")
    raw = whole.read_bytes()
    at = raw.index(b" the ", len(raw) // 2) + 3  # "... th": in the middle of a word
    cut = _cut(tmp_path_factory.mktemp("cut"), whole, at)
    last = raw[:at].decode("utf-8").splitlines()[-1]
    number = re.match(r"\s*(\d{3}(?:\.\w+)*)\.?\s", last)
    code, report, err = library(cut, f"cut-rb-{version}")
    assert code == 0, err
    assert report["truncated"] == [cut.name]
    [warning] = _truncation_warnings(report)
    assert re.fullmatch(
        rf"{re.escape(cut.name)}:\d+: ends in the middle of rule [\d.a-z-]+ \(no closing punctuation\): "
        r"the file looks truncated",
        warning,
    ), warning
    if number:  # the cut line starts a rule: that rule is named
        assert f"rule {number.group(1)} " in warning
