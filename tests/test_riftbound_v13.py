"""Riftbound Core Rules v1.3 (2026-03-30, issue 20): its citation table against the v1.3 text, every shipped
Riftbound scenario with v1.3 loaded as the default book, and `judge diff` v1.2 -> v1.3 against the publisher's
patch notes.

- ``data/citations/riftbound-2026-03-30.yaml`` is standalone and complete (every key of the older tables and
  every key the engine names), and each key's rules exist in v1.3 and say its phrase there; `judge citations`
  finds every key ok in a loaded v1.3 book.
- Every scenario of ``data/scenarios/riftbound/`` passes ``judge explain FILE --check`` when the library holds
  v1.3 (with the Unleashed FAQ) as its newest Riftbound edition and the scenario names no book; a scenario that
  follows v1.3 (no ``edition:``, or ``edition: "2026-03-30"``) cites only rules v1.3 has.
- Each item of ``patch-notes-v1.3.md`` names the v1.3 rules it concerns (``tests/data/riftbound-v1.3-patch-
  notes.yaml``), and `judge diff rb-1.2 rb-1.3` reports each as added, changed or renumbered with changes.

The books are loaded once for the module, in-process; without ../shared/corpora the tests skip, saying so.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
import yaml

from tests.conftest import corpus, judge_in

ROOT = Path(__file__).resolve().parents[1]
TABLES = ROOT / "data" / "citations"
V13 = yaml.safe_load((TABLES / "riftbound-2026-03-30.yaml").read_text(encoding="utf-8"))
V12 = yaml.safe_load((TABLES / "riftbound-v1.2.yaml").read_text(encoding="utf-8"))
FAQ = yaml.safe_load((TABLES / "riftbound-2026-01-14.yaml").read_text(encoding="utf-8"))
SCENARIOS = sorted((ROOT / "data" / "scenarios" / "riftbound").glob("*.yaml"))
PATCH_MAP = yaml.safe_load(
    (Path(__file__).parent / "data" / "riftbound-v1.3-patch-notes.yaml").read_text(encoding="utf-8")
)["items"]


def _norm(text: str) -> str:
    return re.sub(r"\s+", " ", text).strip().lower()


# --- the table -------------------------------------------------------------------------------------------------
def test_the_table_is_standalone_and_complete():
    assert V13["game"] == "riftbound" and str(V13["edition"]) == "2026-03-30"
    assert "based_on" not in V13, "the v1.3 table must not depend on an older one"
    keys = set(V13["citations"])
    assert set(V12["citations"]) <= keys and set(FAQ["citations"]) <= keys
    for key, entry in V13["citations"].items():
        assert re.fullmatch(r"[a-z_]+(\.[a-z_]+)+", key), key
        assert entry["rules"] and entry["phrase"], key
        assert not any(str(r).startswith("faq-") for r in entry["rules"]), f"{key}: cites v1.3's rules, not rulings"
    used = set()
    for path in (ROOT / "engine" / "riftbound").glob("*.py"):
        used |= set(re.findall(r'"([a-z_]+\.[a-z_]+(?:\.[a-z_]+)*)"', path.read_text(encoding="utf-8")))
    prefixes = {k.split(".")[0] for k in keys}
    missing = sorted(k for k in used if k.split(".")[0] in prefixes and k not in keys)
    assert not missing, f"keys the engine names that the v1.3 table lacks: {missing}"


def test_the_rules_v1_3_changed_are_keys_only_its_table_has():
    """The engine follows a rule v1.3 changed only when the edition's table has its key (game.V1_3_CHANGES)."""
    from engine.riftbound.game import FAQ_RULINGS, V1_3_CHANGES

    older = set(V12["citations"]) | set(FAQ["citations"])
    for key in V1_3_CHANGES:
        assert key in V13["citations"] and key not in older, key
    assert set(FAQ_RULINGS) <= set(V13["citations"])  # the Spiritforged rulings: rules of v1.3


@pytest.fixture(scope="module")
def v13_rules() -> dict[str, str]:
    from rulebook.readers import read_file

    return {r.number: r.text for r in read_file(corpus("riftbound", "core-rules-v1.3.txt")).rules}


@pytest.mark.parametrize("key", sorted(V13["citations"]))
def test_each_key_says_its_phrase_in_v1_3(v13_rules, key):
    entry = V13["citations"][key]
    for number in entry["rules"]:
        assert str(number) in v13_rules, f"{key}: rule {number} is not in Core Rules v1.3"
    text = " ".join(v13_rules[str(n)] for n in entry["rules"])
    assert _norm(entry["phrase"]) in _norm(text), f"{key}: {entry['rules']} do not say {entry['phrase']!r}: {text!r}"


# --- a library with v1.3 as the newest Riftbound edition, loaded once -------------------------------------------
@pytest.fixture(scope="module")
def library(tmp_path_factory) -> Path:
    """rb-1.3 (Core Rules v1.3 with the Unleashed FAQ, the riftbound default) and rb-1.2 (v1.2)."""
    v13 = corpus("riftbound", "core-rules-v1.3.txt")
    faq = corpus("riftbound", "faq-unleashed.md")
    v12 = corpus("riftbound", "core-rules-v1.2.txt")
    home = tmp_path_factory.mktemp("rb-v13")
    for args in (("load", v13, faq, "--book", "rb-1.3"), ("load", v12, "--book", "rb-1.2")):
        code, out, err = judge_in(home, *args)
        assert code == 0, err
    code, out, err = judge_in(home, "books", "--json")
    assert code == 0 and "rb-1.3" in out, err
    return home


@pytest.fixture
def v13_home(library, monkeypatch) -> Path:
    monkeypatch.setenv("JUDGE_HOME", str(library))
    return library


def test_judge_citations_finds_every_key_ok_in_v1_3(v13_home, judge):
    code, out, err = judge("citations", "--book", "rb-1.3", "--json")
    assert code == 0, err
    data = json.loads(out)
    assert data["table"] == "2026-03-30"
    stale = [k["key"] for k in data["keys"] if k["status"] != "ok"]
    assert not stale and data["counts"]["ok"] == len(V13["citations"]), stale


@pytest.mark.parametrize("path", SCENARIOS, ids=lambda p: p.stem)
def test_scenario_passes_with_v1_3_as_the_default_book(v13_home, judge, path):
    code, out, err = judge("explain", path, "--check", "--json")
    data = json.loads(out)
    failed = [r for r in data["expectations"] if not r["ok"]]
    assert code == 0 and not failed, (failed, err)
    scenario = yaml.safe_load(path.read_text(encoding="utf-8"))
    edition = scenario.get("edition")
    if "book" not in scenario and (edition is None or str(edition) == "2026-03-30"):
        assert data["book"] == "rb-1.3"
        absent = [
            r["rule"]
            for r in data["rules_cited"]
            if not r["rule"].startswith("faq-") and (not r["in_book"] or r.get("lacks_phrase_of"))
        ]
        assert not absent, f"cited under v1.3 but not in it (or not saying the key's phrase): {absent}"


# --- the patch notes against `judge diff` -----------------------------------------------------------------------
KINDS = {"NEW RULE": 27, "CLARIFIED": 20, "NEW SYSTEM": 6}


def _patch_items() -> list[tuple[str, str, str]]:
    """(section, kind, text) of every labelled item of the patch notes."""
    items, section = [], ""
    for line in corpus("riftbound", "patch-notes-v1.3.md").read_text(encoding="utf-8").splitlines():
        if line.startswith("## "):
            section = line[3:].strip()
        m = re.match(r"-\s*(NEW RULE|CLARIFIED|NEW SYSTEM):\s*(.+)", line.strip())
        if m:
            items.append((section, m.group(1), m.group(2)))
    return items


@pytest.fixture(scope="module")
def diff(library) -> dict:
    code, out, err = judge_in(library, "diff", "rb-1.2", "rb-1.3", "--format", "json")
    assert code == 0, err
    return json.loads(out)


def test_every_patch_note_item_has_one_entry():
    items = _patch_items()
    assert len({s for s, _, _ in items}) == 8
    assert {k: sum(1 for _, kind, _ in items if kind == k) for k in KINDS} == KINDS
    used = set()
    for _section, kind, text in items:
        entries = [i for i, e in enumerate(PATCH_MAP) if e["kind"] == kind and e["item"] in text]
        assert len(entries) == 1, f"{kind}: {text[:80]!r} matches entries {entries}"
        used.add(entries[0])
    assert used == set(range(len(PATCH_MAP))), "entries that match no item"


@pytest.mark.parametrize("entry", PATCH_MAP, ids=lambda e: e["item"][:40])
def test_the_diff_reports_what_each_patch_note_changed(diff, v13_rules, entry):
    changed = (
        {a["number"] for a in diff["added"]}
        | {c["number"] for c in diff["changed"]}
        | {r["new"] for r in diff["renumbered"] if r["changed"]}
    )
    for number in entry["rules"]:
        assert number in v13_rules, f"{number} is not a rule of v1.3"
        assert number in changed, f"{entry['item']!r}: the diff does not report {number} as added or changed"
    same = {r["new"]: r for r in diff["renumbered"]}
    for number in entry.get("same_text") or {}:
        assert number in same and not same[number]["changed"], f"{number} is said to read as in v1.2"
    if not entry["rules"]:
        assert entry.get("why") or entry.get("same_text"), entry
        if "backer" in entry["item"].lower():
            assert not [n for n, t in v13_rules.items() if "backer" in t.lower()]
