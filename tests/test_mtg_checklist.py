"""Issue 14's checklist for the Magic engine (docs/engine-mtg.md, "Checklist"), held to what it says.

A row marked ``done`` names scenarios of data/scenarios/mtg that exist, pass their expectations, and
between them cite one of the row's rules in each edition that has them (so both editions are covered
where the 2008 text has the rule); ``partial`` is the same for the editions its scenarios cover. A
``refused`` row is a mechanic the engine does not model: a scenario naming it stops with a one-line
error naming it (below). The table is the measure of progress; this test keeps it honest.
"""

from __future__ import annotations

from functools import cache
from pathlib import Path

import pytest

from engine.core import ScenarioError, play
from engine.mtg import new_game
from scenarios.citations import load_citations
from scenarios.expectations import check_expectations, rule_matches
from scenarios.scenario import load_scenario

REPO = Path(__file__).resolve().parents[1]
DOC = REPO / "docs" / "engine-mtg.md"
FOLDER = REPO / "data" / "scenarios" / "mtg"
NEW, OLD = "2026-02-27", "2008-10-01"
STATUSES = ("done", "partial", "todo", "refused")


def rows() -> list[dict]:
    text = DOC.read_text(encoding="utf-8")
    section = text.split("## Checklist", 1)[1].split("\n## ", 1)[0]
    out = []
    for line in section.splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if len(cells) != 5 or cells[0] in ("item", "---") or set(cells[0]) <= {"-"}:
            continue
        item, new, old, scenarios, status = cells
        out.append(
            {
                "item": item,
                NEW: _rules(new),
                OLD: _rules(old),
                "status": status,
                "scenarios": [s.strip() for s in scenarios.split(",") if s.strip()],
            }
        )
    return out


def _rules(cell: str) -> list[str]:
    return [] if cell in ("", "—", "-") else [r.strip() for r in cell.split(",")]


def edition_of(path: Path) -> str:
    data = load_scenario(path).data
    return str(data.get("edition") or (OLD if (data.get("book") or "mtg") == "mtg" else NEW))


@cache
def run(path: Path) -> tuple[str, tuple[str, ...], tuple[str, ...]]:
    """(edition, rules cited by the whole run, failed expectations)."""
    scenario = load_scenario(path)
    edition = edition_of(path)
    g = new_game(scenario.data, load_citations("mtg", edition))
    steps = list(play(g, scenario.actions))
    cited = [r for e in g.opening for r in e.rules] + [
        r for s in steps for r in (*s.rules, *(x for e in s.events for x in e.rules))
    ]
    failed = tuple(r.detail for r in check_expectations(scenario.expect, steps) if not r.ok)
    return edition, tuple(dict.fromkeys(cited)), failed


ROWS = rows()


def test_the_checklist_is_there_and_well_formed():
    assert len(ROWS) > 50
    assert all(r["status"] in STATUSES for r in ROWS), [r["item"] for r in ROWS if r["status"] not in STATUSES]
    for r in ROWS:
        if r["status"] in ("done", "partial"):
            assert r["scenarios"], f"{r['item']}: a {r['status']} row names its scenarios"


@pytest.mark.parametrize("row", [r for r in ROWS if r["status"] in ("done", "partial")], ids=lambda r: r["item"][:50])
def test_a_done_row_is_shown_by_its_scenarios(row):
    covered: dict[str, set[str]] = {NEW: set(), OLD: set()}
    for name in row["scenarios"]:
        path = FOLDER / name
        assert path.exists(), f"{row['item']}: no scenario {name}"
        edition, cited, failed = run(path)
        assert failed == (), f"{name}: {failed}"
        covered[edition].update(cited)
    for edition in (NEW, OLD):
        wanted = row[edition]
        if not wanted:
            continue
        if not covered[edition]:
            assert row["status"] == "partial", f"{row['item']}: no {edition} scenario (the row is partial, not done)"
            continue
        assert any(rule_matches(w, c) for w in wanted for c in covered[edition]), (
            f"{row['item']}: its {edition} scenarios cite none of {wanted}"
        )


def test_the_two_editions_are_both_covered_in_all():
    editions = {run(FOLDER / n)[0] for r in ROWS if r["status"] == "done" for n in r["scenarios"]}
    assert editions == {NEW, OLD}


# -- what the engine refuses, naming it -----------------------------------------------------------------------
BASE = {"players": ["Ana", "Ben"], "turn": {"player": "Ana", "phase": "main1"}}


def refusal(data: dict, edition: str = NEW) -> str:
    with pytest.raises(ScenarioError) as info:
        new_game({**BASE, **data}, load_citations("mtg", edition))
    assert "\n" not in info.value.message
    return info.value.message


@pytest.mark.parametrize(
    "data, named",
    [
        ({"players": ["Ana", "Ben", "Cat"]}, "two-player"),
        (
            {"cards": {"Clone": {"type": "creature", "power": 0, "toughness": 0, "effect": "copy target creature"}}},
            "copy target creature",
        ),
        ({"cards": {"Siege": {"type": "battle"}}}, '"battle"'),
        ({"cards": {"Tale": {"type": "enchantment saga"}}}, '"saga"'),
        ({"cards": {"Wurm": {"type": "creature", "power": 1, "toughness": 1, "keywords": ["Banding"]}}}, '"Banding"'),
    ],
)
def test_mechanics_not_modelled_are_refused_naming_them(data, named):
    assert named in refusal(data)
