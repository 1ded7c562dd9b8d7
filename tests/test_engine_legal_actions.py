"""``legal_actions()`` of both engines, against ``ask`` and against what the shipped scenarios do, and
golden counts of legal actions to depth 3 from every shipped scenario's start (python-chess's perft):
a change that alters what is legal anywhere near a scenario shows here at once.

The counts include every ``P moves to STEP`` of Magic (thirteen steps, a macro of passes) and every
target, declaration and damage assignment the candidates list (engine/*/candidates.py). After a
deliberate change of what is legal, rewrite the counts and review the diff:

    JUDGE_GOLDEN=update pytest tests/test_engine_legal_actions.py
"""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from engine.core import IllegalAction, ScenarioError, ask
from scenarios.explain import new_engine
from scenarios.scenario import load_scenario

REPO = Path(__file__).resolve().parents[1]
SCENARIOS = sorted((REPO / "data" / "scenarios").glob("*/*.yaml"))
GOLDEN = REPO / "tests" / "golden" / "legal_action_counts.json"
UPDATE = os.environ.get("JUDGE_GOLDEN") == "update"
DEPTH = 3


def name(path: Path) -> str:
    return f"{path.parent.name}/{path.stem}"


def perft(engine, depth: int) -> int:
    """Legal action sequences of length ``depth`` from ``engine`` (each leaf counted once)."""
    legal = engine.legal_actions()
    if depth == 1:
        return len(legal)
    total = 0
    for action in legal:
        child = engine.copy()
        child.apply(action)
        total += perft(child, depth - 1)
    return total


def counts(path: Path, depth: int = DEPTH) -> list[int]:
    engine, _ = new_engine(load_scenario(path))
    return [perft(engine, d) for d in range(1, depth + 1)]


def scenario_states(path: Path):
    """(engine, the scenario's next action) at the start and after each action the scenario takes."""
    scenario = load_scenario(path)
    engine, _ = new_engine(scenario)
    for sentence, is_ask in scenario.actions:
        yield engine, sentence
        if not is_ask:
            try:
                engine.apply(sentence)
            except IllegalAction:
                pass
    yield engine, None


def _plan(engine, action: str):
    plan = engine.check(action)
    return getattr(plan, "plan", plan)  # Riftbound's plan comes with its sentence


@pytest.mark.parametrize("path", SCENARIOS, ids=name)
def test_legal_actions_agree_with_ask(path):
    """In every state a shipped scenario passes through: each candidate is a sentence the engine reads
    (no ScenarioError); ``ask`` says yes exactly to the legal actions; each legal one is carried out on
    a copy without a refusal (EngineError) and says what it did, citing rules; each refused one cites
    the rule that forbids it."""
    for engine, _ in scenario_states(path):
        legal = engine.legal_actions()
        candidates = engine.candidates()
        assert len(set(legal)) == len(legal) and set(legal) <= set(candidates)
        for action in candidates:
            try:
                ok, events, exc = ask(engine, action)
            except ScenarioError as err:
                pytest.fail(f"the candidate {action!r} is not understood: {err.message}")
            assert ok == (action in legal), action
            if ok:
                assert all(e.rules for e in events), action
            else:
                assert exc.rules, action


@pytest.mark.parametrize("path", SCENARIOS, ids=name)
def test_what_a_scenario_does_is_among_the_legal_actions(path):
    """Each action a judge wrote that is legal where it is written is found by ``legal_actions()`` (as
    the same plan: the same card, targets, places), so the candidates cover what scenarios say."""
    for engine, action in scenario_states(path):
        if action is None or not engine.is_legal(action):
            continue
        assert _plan(engine, action) in [_plan(engine, a) for a in engine.legal_actions()], action


def test_legal_action_counts_to_depth_3_are_unchanged():
    got = {name(p): counts(p) for p in SCENARIOS}
    if UPDATE:
        lines = [f"  {json.dumps(k)}: {json.dumps(v)}" for k, v in got.items()]  # one line a scenario: readable diffs
        GOLDEN.write_text("{\n" + ",\n".join(lines) + "\n}\n", encoding="utf-8")
        return
    want = json.loads(GOLDEN.read_text(encoding="utf-8"))
    changed = {k: (want.get(k), v) for k, v in got.items() if want.get(k) != v}
    assert not changed and set(want) == set(got), (
        f"legal-action counts changed (stored, now): {changed}; gone: {sorted(set(want) - set(got))}"
    )


def test_the_counts_see_a_change_in_what_is_legal():
    """A rule change the counts must catch: a Riftbound unit that may not move (as if Ganking were
    needed everywhere) changes the counts of the scenario where units move."""
    from engine.riftbound import legality

    path = REPO / "data" / "scenarios" / "riftbound" / "timing-and-move-limits.yaml"
    before = counts(path, 2)
    original = legality.standard_move

    def stricter(s, a):
        raise legality.Refusal("no moving today", "move.ganking")

    legality.standard_move = stricter
    try:
        assert counts(path, 2) != before
    finally:
        legality.standard_move = original
