"""docs/scenarios.md's Riftbound section shows each mechanic of contract version 2 (issue 14) with an example a
judge can copy: every complete ``game: riftbound`` example there loads and passes ``judge explain --check``, the
one-line errors it quotes are the engine's, and its table of FAQ questions not yet expressible is the data file's."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
import yaml

REPO = Path(__file__).resolve().parents[1]
DOC = REPO / "docs" / "scenarios.md"
HEAD = "## Riftbound (`game: riftbound`): the mechanics of contract version 2"


def section() -> str:
    text = DOC.read_text(encoding="utf-8")
    return text.split(HEAD, 1)[1].split("\n## ", 1)[0]


def examples() -> list[str]:
    return [b for b in re.findall(r"```yaml\n(.*?)```", section(), re.S) if b.startswith("game: riftbound")]


def test_the_section_shows_the_new_forms():
    text = section()
    for form in (
        "[2][R]",
        "{energy: 2, power: [Fury]}",
        "state.runes",
        "state.pool",
        "rune_deck",
        "costs: ignore",
        "P exhausts a rune",
        "P recycles an exhausted Fury rune",
        "paying Accelerate",
        "paying Repeat",
        "paying Deflect",
        "killing UNIT",
        "Assault 2",
        "Equip [1][C]",
        "Repeat [2]",
        "P equips GEAR to UNIT",
        "When I attack",
        "Whenever",
        "If WHO would EVENT, EFFECT instead",
        "Other friendly units here have",
        "P chooses X[, Y]",
        "P chooses nothing",
        "P accepts",
        "Do this:",
        "If this kills it, do this:",
        "unit token",
        "token: true",
        "state.legends",
        "state.champion",
        "buffs: 1",
        "Mighty",
        "Bonus Damage",
        "attached_to",
        "might_bonus",
        "teams:",
        'edition: "2026-01-14"',
        "Reveal the top N cards",
        "total Might 4 or less",
    ):
        assert form in text, form
    from engine.riftbound.effects import KEYWORDS

    for keyword in KEYWORDS:
        assert f"| `{keyword}" in text, keyword
    assert len(examples()) >= 6


@pytest.mark.parametrize("n", range(len(examples())))
def test_each_example_passes_its_expectations(home, judge, tmp_path, n):
    target = tmp_path / f"example-{n}.yaml"
    target.write_text(examples()[n], encoding="utf-8")
    assert yaml.safe_load(examples()[n])["game"] == "riftbound"
    code, out, err = judge("explain", target, "--check")
    assert code == 0, out[-2000:] + err


@pytest.mark.parametrize(
    "data, quoted",
    [
        (
            {"cards": {"X": {"type": "unit", "keywords": ["Overwhelm"]}}},
            'unknown keyword "Overwhelm"; keywords: Accelerate, Action',
        ),
        (
            {"cards": {"X": {"type": "unit", "keywords": ["Mighty"]}}},
            '"Mighty" is not a keyword: a unit is Mighty while its Might is 5 or more (707, 708)',
        ),
        (
            {"cards": {"X": {"type": "spell", "effect": "Scry 2."}}},
            'unknown effect "scry 2" (did you mean "score N"?); the effects the engine reads are listed in docs/scenarios.md ("The effect vocabulary")',
        ),
        (
            {"cards": {"X": {"type": "unit", "effect": "When I dance, draw 1."}}},
            'unknown trigger condition "when i dance"',
        ),
    ],
)
def test_the_errors_it_quotes_are_the_engines(home, judge, tmp_path, data, quoted):
    target = tmp_path / "scen.yaml"
    target.write_text(yaml.safe_dump({"game": "riftbound", "players": ["Ana", "Ben"], **data}), encoding="utf-8")
    code, out, err = judge("explain", target)
    assert code == 2 and quoted in err and quoted.split(";")[0] in section()
    assert len(err.strip().splitlines()) == 1


def test_the_not_yet_expressible_table_is_the_data_files():
    data = yaml.safe_load((REPO / "bench" / "faq_coverage.yaml").read_text(encoding="utf-8"))["questions"]
    missing = sorted(q for q, entry in data.items() if entry.get("situational") and entry.get("missing"))
    table = section().split("### FAQ coverage", 1)[1]
    named = sorted(set(re.findall(r"faq-(?:origins|spiritforged)-\d+", table.split("|", 1)[1])))
    assert named == missing
    situational = sum(1 for e in data.values() if e.get("situational"))
    passing = situational - len(missing)
    assert f"{len(data)} questions" in table and f"{situational} situational" in table
    assert (
        f"{passing} of them passing scenarios ({round(100 * passing / situational)}%), {len(missing)} not yet" in table
    )
