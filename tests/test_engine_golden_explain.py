"""The explanation of every shipped scenario, both games, compared exactly with a stored golden file.

``judge explain FILE --json --check`` as :func:`scenarios.explain.explain` gives it (``Explanation.to_json()``): the opening, every
step's events with their rules, the state after each step, the rules cited and the expectations. The
rules' texts are left out (``quote`` gives None): they come from the loaded book, not the engine, and the
seed books change with the readers. So a change to an engine that alters anything a judge is told shows
here as a difference, and the golden files were written before issue 13's refactor to prove it changed
no explanation.

After a deliberate change of what the engines say, rewrite the files and review the diff:

    JUDGE_GOLDEN=update pytest tests/test_engine_golden_explain.py
"""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from scenarios.explain import explain

REPO = Path(__file__).resolve().parents[1]
SCENARIOS = sorted((REPO / "data" / "scenarios").glob("*/*.yaml"))
GOLDEN = REPO / "tests" / "golden" / "explain"
UPDATE = os.environ.get("JUDGE_GOLDEN") == "update"


def explain_json(path: Path) -> str:
    doc = json.loads(json.dumps(explain(path).to_json(), ensure_ascii=False))  # as printed: tuples are lists
    doc["scenario"]["file"] = path.relative_to(REPO).as_posix()  # the same wherever the checkout is
    return json.dumps(doc, indent=1, ensure_ascii=False) + "\n"


def golden_path(path: Path) -> Path:
    return GOLDEN / path.parent.name / f"{path.stem}.json"


def test_every_scenario_has_a_golden_file_and_no_file_is_stale():
    assert len(SCENARIOS) >= 40
    if UPDATE:
        return
    stored = {p.relative_to(GOLDEN) for p in GOLDEN.glob("*/*.json")}
    assert stored == {golden_path(p).relative_to(GOLDEN) for p in SCENARIOS}


@pytest.mark.parametrize("path", SCENARIOS, ids=lambda p: f"{p.parent.name}/{p.stem}")
def test_explanation_is_unchanged(path, home):
    """Read in the session's private library (tests/conftest.py), never the developer's: cards loaded
    there would fill the scenarios' cards from the library (contract version 3)."""
    got = explain_json(path)
    golden = golden_path(path)
    if UPDATE:
        golden.parent.mkdir(parents=True, exist_ok=True)
        golden.write_text(got, encoding="utf-8")
        return
    assert golden.exists(), f"no golden file for {path.name}: run with JUDGE_GOLDEN=update and review it"
    want = golden.read_text(encoding="utf-8")
    if got != want:  # show the first differing line, not two walls of JSON
        for i, (a, b) in enumerate(zip(got.splitlines(), want.splitlines()), start=1):
            if a != b:
                pytest.fail(f"{golden.relative_to(REPO)}:{i}: explanation changed\n  stored: {b}\n  now:    {a}")
        pytest.fail(
            f"{golden.relative_to(REPO)}: explanation changed in length "
            f"({len(got.splitlines())} lines now, {len(want.splitlines())} stored)"
        )
