"""Checking a scenario's ``expect`` items against the steps the engine took.

Semantics follow ``shared/spec/scenarios.md``: a ``rule`` (and each item of ``cites``) holds when the
step cites that rule or any of its sub-rules, and may be a list of alternatives.

>>> from engine.core import Step, Event
>>> step = Step(1, "Ana passes", False, True, (Event("x", ("312.2.d",)),), {"priority": "Ben"}, None, ("312.2.d",))
>>> [r.ok for r in check_expectations([{"after": 1, "priority": "Ben", "cites": ["312.2"]}], [step])]
[True]
>>> check_expectations([{"after": 1, "priority": "Ana"}], [step])[0].detail
'priority: expected Ana, got Ben'
>>> check_expectations([{"after": 1, "rule": "313"}], [step])[0].detail  # each rule cited, once
'rule: expected 313 among the rules cited (312.2.d)'
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from rulebook.numbers import tokens

EXPECT_KEYS = {
    "after",
    "end",
    "state",
    "phase",
    "priority",
    "focus",
    "turn_player",
    "points",
    "life",
    "controller",
    "zone",
    "chain",
    "stack",
    "winner",
    "illegal",
    "answer",
    "rule",
    "cites",
    "counters",
    "damage",
    "attached",
    "poison",  # Magic (issue 14): only the names listed are checked
    "units",
    "gear",
    "runes",
    "legends",  # Riftbound (issue 14): only the names and fields listed are checked
}
# Keys whose value maps names to a mapping of fields; only the fields listed are checked (``units: {Jinx: {might: 3}}``).
NESTED_KEYS = ("units", "gear", "runes", "legends")
_FIELD_DEFAULTS = {
    "buffed": False,
    "stunned": False,
    "token": False,
    "keywords": [],
    "designation": None,
    "attached_to": None,
}
# Keys whose value maps names to values; a name missing from the state has none (``counters: {Bear: {}}``).
MAPPING_KEYS = ("points", "life", "controller", "zone", "counters", "damage", "attached", "poison")


@dataclass(frozen=True)
class Result:
    item: Mapping[str, Any]
    ok: bool
    detail: str

    def to_json(self) -> dict[str, Any]:
        return {"item": dict(self.item), "ok": self.ok, "detail": self.detail}


def rule_matches(expected: str, cited: str) -> bool:
    """``143.4`` is satisfied by ``143.4`` or ``143.4.c.1``; ``601.2`` by ``601.2c``."""
    want, got = tokens(str(expected)), tokens(str(cited))
    return bool(want) and got[: len(want)] == want


def _cited(rules: Sequence[str], expected: Any) -> bool:
    options = expected if isinstance(expected, list) else [expected]
    return any(rule_matches(str(o), r) for o in options for r in rules)


def _norm(value: Any) -> Any:
    if value is None:
        return "none"
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, str):
        return " ".join(value.lower().replace("_", " ").split())
    return value


def _compare_scalar(key: str, want: Any, got: Any) -> str | None:
    if _norm(want) == _norm(got):
        return None
    return f"{key}: expected {show_value(want)}, got {show_value(got)}"


def show_value(value: Any) -> str:
    """A scenario value as a judge writes it: ``none``, ``yes``/``no``, ``[Gust]``, ``{Ana: 4}``."""
    if isinstance(value, bool):
        return "yes" if value else "no"
    if value is None:
        return "none"
    if isinstance(value, list):
        return "[" + ", ".join(show_value(v) for v in value) + "]"
    if isinstance(value, dict):
        return "{" + ", ".join(f"{k}: {show_value(v)}" for k, v in value.items()) + "}"
    return str(value)


# Zones that are not a place on the board: any other zone a card is in is a battlefield's name
# (Riftbound) or the battlefield itself (Magic), so ``zone: {Jinx: battlefield}`` holds for both.
OFF_BOARD = {"hand", "deck", "library", "trash", "graveyard", "base", "chain", "stack", "exile", "banishment", "none"}


def _zone_matches(want: Any, actual: Any) -> bool:
    if _norm(want) == _norm(actual):
        return True
    return _norm(want) == "battlefield" and actual is not None and _norm(actual) not in OFF_BOARD


def _compare_mapping(key: str, want: Mapping, got: Mapping | None) -> str | None:
    got = {(_norm(k)): v for k, v in (got or {}).items()}
    problems = []
    for name, value in want.items():
        actual = got.get(
            _norm(name),
            "none"
            if key in ("controller",)
            else {}
            if key == "counters"
            else 0
            if key in ("damage", "poison")
            else None,
        )
        if key == "zone" and _zone_matches(value, actual):
            continue
        if _norm(value) != _norm(actual):
            problems.append(f"{name} expected {show_value(value)}, got {show_value(actual)}")
    return f"{key}: " + "; ".join(problems) if problems else None


def _compare_nested(key: str, want: Mapping, got: Mapping | None) -> str | None:
    got = {_norm(k): v for k, v in (got or {}).items()}
    problems = []
    for name, fields in want.items():
        entry = got.get(_norm(name))
        if entry is None:
            problems.append(
                f"{name} is not listed (not on the board)" if key in ("units", "gear") else f"{name} is not listed"
            )
            continue
        if not isinstance(fields, Mapping):
            problems.append(f"{name}: expected a mapping of fields in the scenario")
            continue
        for field_name, value in fields.items():
            actual = entry.get(field_name, _FIELD_DEFAULTS.get(field_name))
            if isinstance(value, list) or isinstance(actual, list):
                same = _same_items(value, actual)
            else:
                same = _norm(value) == _norm(actual)
            if not same:
                problems.append(f"{name} {field_name} expected {show_value(value)}, got {show_value(actual)}")
    return f"{key}: " + "; ".join(problems) if problems else None


def _as_list(value: Any) -> list:
    """A list as itself, nothing as [], one value as a list of it (a scenario may write either)."""
    return value if isinstance(value, list) else [] if value is None else [value]


def _same_items(want: Any, got: Any) -> bool:
    """The same values in any order (values of any type, as a scenario file may hold: never sorted
    against each other)."""
    return sorted(map(repr, map(_norm, _as_list(want)))) == sorted(map(repr, map(_norm, _as_list(got))))


def _compare_list(key: str, want: Any, got: Any) -> str | None:
    want_list = [_norm(v) for v in _as_list(want)]
    got_list = [_norm(v) for v in _as_list(got)]
    if want_list == got_list:
        return None
    return f"{key}: expected {show_value(want or [])}, got {show_value(got or [])}"


def _unlocated(events, unlocated: frozenset[str], reason: str | None = None) -> list[str]:
    keys = [k for e in events for k in e.keys] + ([reason] if reason else [])
    return [k for k in dict.fromkeys(keys) if k in unlocated]


def check_item(
    item: Mapping[str, Any],
    step,
    state: Mapping[str, Any],
    all_rules: Sequence[str],
    unlocated: Sequence[str] = (),
    book: str | None = None,
) -> Result:
    """Check one expectation. ``step`` is None for ``end: true`` items (then rules are the whole run's).
    ``unlocated``: the citation keys of the step (or run) that could not be placed in ``book``: an
    expectation about the rules cited rests on them and fails, saying so."""
    problems: list[str] = []
    if unlocated and ("rule" in item or "cites" in item):
        problems.append(
            f"the rules cited are incomplete: {', '.join(unlocated)} not located in "
            f"{book or 'the book'} (see judge citations)"
        )
    cited = [*step.rules, *(r for e in step.events for r in e.rules)] if step is not None else all_rules
    rules = list(dict.fromkeys(cited))  # a step cites the rules of its events again: each is listed once
    for key, want in item.items():
        if key in ("after", "end"):
            continue
        if key not in EXPECT_KEYS:
            problems.append(f"unknown expectation key {key!r}")
        elif key in NESTED_KEYS:
            if not isinstance(want, Mapping):
                problems.append(f"{key}: expected a mapping in the scenario")
            else:
                problem = _compare_nested(key, want, state.get(key))
                problems += [problem] if problem else []
        elif key in MAPPING_KEYS:
            if not isinstance(want, Mapping):
                problems.append(f"{key}: expected a mapping in the scenario")
            else:
                problem = _compare_mapping(key, want, state.get(key))
                problems += [problem] if problem else []
        elif key in ("chain", "stack"):
            problem = _compare_list(key, want, state.get(key))
            problems += [problem] if problem else []
        elif key == "illegal":
            if step is None:
                problems.append("illegal: needs after: N")
            elif bool(want) != (not step.legal and not step.asked):
                problems.append(
                    f"illegal: expected {'illegal' if want else 'legal'}, the action was "
                    f"{'illegal' if not step.legal else 'legal'}"
                )
        elif key == "answer":
            if step is None or not step.asked:
                problems.append("answer: the step is not an ask: item")
            elif _norm(want) != step.answer:
                problems.append(f"answer: expected {_norm(want)}, got {step.answer}")
        elif key == "rule":
            if not _cited(rules, want):
                problems.append(
                    f"rule: expected {show_value(want)} among the rules cited ({', '.join(rules) or 'none'})"
                )
        elif key == "cites":
            for expected in want if isinstance(want, list) else [want]:
                if not _cited(rules, expected):
                    problems.append(
                        f"cites: {show_value(expected)} not among the rules cited ({', '.join(rules) or 'none'})"
                    )
        else:
            problem = _compare_scalar(key, want, state.get(key))
            problems += [problem] if problem else []
    return Result(item, not problems, "; ".join(problems) if problems else "as expected")


def check_expectations(
    expect: Sequence[Mapping[str, Any]],
    steps: Sequence,
    final_state: Mapping | None = None,
    unlocated: frozenset[str] = frozenset(),
    book: str | None = None,
) -> list[Result]:
    """Every ``expect`` item checked against ``steps`` (``after: N``) or the final state (``end``).
    ``unlocated``: the citation keys not located in ``book`` (an expectation about the rules cited by a
    step that used one fails)."""
    all_rules: list[str] = []
    for step in steps:
        all_rules.extend(r for e in step.events for r in e.rules)
    run_unlocated = _unlocated([e for st in steps for e in st.events], unlocated) if unlocated else []
    end_state = final_state if final_state is not None else (steps[-1].state if steps else {})
    results = []
    for item in expect:
        if item.get("end"):
            results.append(check_item(item, None, end_state, all_rules, run_unlocated, book))
            continue
        n = item.get("after")
        if not isinstance(n, int) or not 1 <= n <= len(steps):
            results.append(Result(item, False, f"after: no action {n}"))
            continue
        step = steps[n - 1]
        missing = _unlocated(step.events, unlocated, step.reason) if unlocated else []
        results.append(check_item(item, step, step.state, all_rules, missing, book))
    return results
