"""``judge explain``: step a scenario through its game's reference engine and say which rule did what.

One entry point, :func:`run_explain`, for every game: the scenario's ``game`` picks the engine from
:data:`ENGINES` (each module offers ``new_game(scenario, citations)``). Output is a numbered walk-through
(text or markdown) or the JSON of ``shared/spec/scenarios.md``; with ``check`` the ``expect`` items are
evaluated and a failed one makes the exit code 1.

>>> import io, pathlib
>>> spec = pathlib.Path(__file__).resolve().parents[1] / "data/scenarios/riftbound/spec-example.yaml"
>>> out = io.StringIO()
>>> run_explain(spec, fmt="text", check=True, step=False, book=None, quote=lambda b, n: None, out=out)
0
>>> "3. Ben plays Hidden Blade targeting Jinx: ILLEGAL" in out.getvalue()
True
"""

from __future__ import annotations

import importlib
import json
import sys
from collections.abc import Callable, Iterable, Iterator
from functools import cache
from pathlib import Path
from typing import IO, Any

from engine.core import Event, ScenarioError, Step, play
from judge.expectations import show_value
from judge.scenario import Scenario, load_scenario
from rulebook.numbers import sort_key

# game -> the module whose ``new_game(scenario, citations)`` builds its engine
ENGINES = {"riftbound": "engine.riftbound", "mtg": "engine.mtg"}
DEFAULT_BOOKS = {"riftbound": "riftbound", "mtg": "mtg"}
FORMATS = ("text", "markdown", "json")

Quote = Callable[[str, str], "str | None"]


def builtin_edition(book_id: str) -> str | None:
    """The edition of a built-in book (``seeds/manifest.yaml``), or None."""
    from judge.resources import seeds_dir

    return _builtin_editions(str(seeds_dir())).get(book_id)


@cache
def _builtin_editions(seeds: str) -> dict[str, str | None]:
    """Each built-in book's edition, the manifest read once per process (1.5 ms a read: most of the
    time a run of many scenarios spent outside the engine)."""
    from rulebook.library import builtin_specs

    return {spec.id: spec.edition for spec in builtin_specs(Path(seeds))}


def new_engine(scenario: Scenario, book_id: str | None = None, edition: str | None = None):
    """The scenario's game engine, at its starting situation, citing the table of the book's edition
    (the scenario's ``edition:`` wins). Raises ScenarioFileError (with the line)."""
    from judge.citations import load_citations

    module = importlib.import_module(ENGINES[scenario.game])
    book_id = book_id or scenario.book or DEFAULT_BOOKS[scenario.game]
    edition = scenario.data.get("edition") or edition or builtin_edition(book_id)
    citations = load_citations(scenario.game, str(edition) if edition else None)
    try:
        return module.new_game(scenario.data, citations), citations
    except ScenarioError as exc:
        raise scenario.error(exc.path, exc.message) from None


def run_steps(scenario: Scenario, engine) -> Iterator[Step]:
    try:
        yield from play(engine, scenario.actions)
    except ScenarioError as exc:
        raise scenario.error(exc.path, exc.message) from None


def run_explain(path: Path, *, fmt: str = "text", check: bool = False, step: bool = False, book: str | None = None,
                quote: Quote, out: IO[str] | None = None, stdin: IO[str] | None = None,
                edition: str | None = None) -> int:
    """Explain the scenario at ``path``; returns the exit code (1 when ``check`` finds a failed expectation).

    ``quote(book_id, rule_number)`` gives the rule's text in the loaded book, or None when it lacks it.
    ``edition`` is the book's edition (the citation table follows it); built-in books are looked up in
    the seeds manifest.
    Errors in the file raise :class:`judge.scenario.ScenarioFileError` (one line: file, line, key path).
    """
    if fmt not in FORMATS:
        raise ValueError(f"unknown format {fmt!r}: expected one of {', '.join(FORMATS)}")
    out = out or sys.stdout
    stdin = stdin or sys.stdin
    scenario = load_scenario(path)
    book_id = book or scenario.book or DEFAULT_BOOKS[scenario.game]
    engine, citations = new_engine(scenario, book_id, edition)
    opening = list(getattr(engine, "opening", []) or [])
    interactive = step and fmt == "text" and _isatty(stdin) and _isatty(out)
    view = _Text(out, markdown=fmt == "markdown") if fmt != "json" else None
    if view:
        view.header(scenario, book_id, citations, opening)
    steps: list[Step] = []
    for s in run_steps(scenario, engine):
        steps.append(s)
        if view:
            view.step(s)
            if interactive and len(steps) < len(scenario.actions):
                out.write("   [Enter: next action, q: stop] ")
                out.flush()
                if stdin.readline().strip().lower().startswith("q"):
                    break
    final = engine.snapshot()
    results = []
    if check:
        from judge.expectations import check_expectations

        results = check_expectations(scenario.expect, steps, final)
    cited = rules_cited(opening, steps)
    quoted = [(n, quote(book_id, n)) for n in cited]
    if view:
        if check:
            view.expectations(results)
        view.rules(book_id, quoted)
    else:
        json.dump(to_json(scenario, book_id, opening, steps, quoted, results, check), out, indent=2, ensure_ascii=False)
        out.write("\n")
    return 1 if any(not r.ok for r in results) else 0


def rules_cited(opening: Iterable[Event], steps: Iterable[Step]) -> list[str]:
    seen: set[str] = set()
    for e in [*opening, *(e for s in steps for e in s.events)]:
        seen.update(e.rules)
    for s in steps:
        seen.update(s.rules)
    return sorted(seen, key=sort_key)


def to_json(scenario: Scenario, book_id: str, opening, steps, quoted, results, check: bool) -> dict[str, Any]:
    return {
        "scenario": {"file": scenario.file, "title": scenario.title, "game": scenario.game,
                     "players": scenario.data.get("players"), "turn": scenario.data.get("turn")},
        "book": book_id,
        "opening": [_event_json(e) for e in opening],
        "steps": [{"n": s.n, "action": s.action, "ask": s.asked, "legal": s.legal,
                   **({"answer": s.answer} if s.asked else {}),
                   "events": [_event_json(e) for e in s.events], "state": _plain(s.state)} for s in steps],
        "rules_cited": [{"rule": n, "text": text, "in_book": text is not None} for n, text in quoted],
        "expectations": [r.to_json() for r in results] if check else [],
    }


def _event_json(e: Event) -> dict[str, Any]:
    return {"what": e.what, "rules": list(e.rules)}


def _plain(value: Any) -> Any:
    if isinstance(value, dict):
        return {str(k): _plain(v) for k, v in value.items()}
    if isinstance(value, (list, tuple, set)):
        return [_plain(v) for v in value]
    return value




def _isatty(stream) -> bool:
    try:
        return stream.isatty()
    except (AttributeError, ValueError):
        return False


def state_line(state: dict[str, Any]) -> str:
    """The state after an action, as a judge reads it: turn state, priority, focus, chain, points, control."""
    parts = []
    if "state" in state and state.get("state"):
        parts.append(f"state {state['state']}")
    if "phase" in state:
        parts.append(f"phase {state['phase']}")
    if "turn_player" in state:
        parts.append(f"turn {state['turn_player']}")
    parts.append(f"priority {state.get('priority') or 'none'}")
    if "focus" in state:
        parts.append(f"focus {state.get('focus') or 'none'}")
    for key in ("chain", "stack"):
        if key in state:
            parts.append(f"{key} [{', '.join(map(str, state[key]))}]")
    for key in ("points", "life"):
        if isinstance(state.get(key), dict):
            parts.append(f"{key} " + ", ".join(f"{p} {v}" for p, v in state[key].items()))
    if isinstance(state.get("controller"), dict) and state["controller"]:
        parts.append("control " + ", ".join(f"{b} {c or 'none'}" for b, c in state["controller"].items()))
    if state.get("awaiting"):
        parts.append(f"waiting for {state['awaiting']}")
    if state.get("winner"):
        parts.append(f"winner {state['winner']}")
    return " · ".join(parts)


class _Text:
    """The walk-through as terminal text or as markdown to paste into a ruling."""

    def __init__(self, out: IO[str], markdown: bool):
        self.out, self.md = out, markdown

    def w(self, line: str = "") -> None:
        self.out.write(line + "\n")

    @staticmethod
    def cite(rules: Iterable[str]) -> str:
        return "(" + ", ".join(rules) + ")"

    def header(self, scenario: Scenario, book_id: str, citations, opening: list[Event]) -> None:
        d = scenario.data
        turn = d.get("turn") or {}
        if self.md:
            self.w(f"## {scenario.title}")
            self.w()
            self.w(f"*{scenario.game}, book `{book_id}`, citations {citations.game} {citations.edition}; players in turn "
                   f"order: {', '.join(map(str, d.get('players', [])))}; it is {turn.get('player', '?')}'s turn, "
                   f"{turn.get('phase', 'main')} phase.*")
        else:
            self.w(f"{scenario.title}  ({scenario.file})")
            self.w(f"{scenario.game} · book {book_id} · citations {citations.game} {citations.edition} · players "
                   f"{', '.join(map(str, d.get('players', [])))} · {turn.get('player', '?')}'s turn, "
                   f"{turn.get('phase', 'main')}")
        if opening:
            self.w()
            self.w("**Before the first action**" if self.md else "Before the first action:")
            for e in opening:
                self.w(f"- {e.what} {self.cite(e.rules)}" if self.md else f"   - {e.what} {self.cite(e.rules)}")

    def step(self, s: Step) -> None:
        self.w()
        if s.asked:
            head = f"{s.n}. ask: {s.action}: {'YES' if s.legal else 'NO'}"
        else:
            head = f"{s.n}. {s.action}" + ("" if s.legal else ": ILLEGAL")
        self.w(f"**{head}**" if self.md else head)
        events = s.events
        if s.asked and s.legal:
            self.w(("- " if self.md else "   - ") + "Legal now; if it were done (it is not applied):")
        for e in events:
            self.w(f"- {e.what} {self.cite(e.rules)}" if self.md else f"   - {e.what} {self.cite(e.rules)}")
        if not s.legal and not s.asked:
            self.w(("- " if self.md else "   - ") + "Not applied: play goes on from the state before it.")
        line = state_line(dict(s.state))
        self.w(f"- *State:* {line}" if self.md else f"   = {line}")

    def expectations(self, results) -> None:
        self.w()
        self.w("### Expectations" if self.md else "Expectations:")
        for r in results:
            where = "end" if r.item.get("end") else f"after {r.item.get('after')}"
            what = ", ".join(f"{k}: {show_value(v)}" for k, v in r.item.items() if k not in ("after", "end"))
            mark = ("ok" if r.ok else "FAIL")
            self.w(f"- {mark} ({where}) {what}: {r.detail}" if self.md else f"   {mark:4} {where}: {what}: {r.detail}")

    def rules(self, book_id: str, quoted: list[tuple[str, str | None]]) -> None:
        self.w()
        missing = [n for n, t in quoted if t is None]
        self.w(f"### Rules cited (from `{book_id}`)" if self.md else f"Rules cited (text from book {book_id}):")
        for number, text in quoted:
            shown = text if text is not None else f"[not in book {book_id}]"
            self.w(f"- **{number}** {shown}" if self.md else f"   {number:10} {shown}")
        if missing:
            note = (f"{len(missing)} of {len(quoted)} cited rules are not in book {book_id}; load the full rules "
                    "(judge load) and pass --book to quote them.")
            self.w()
            self.w(f"*{note}*" if self.md else note)
