"""An :class:`~scenarios.explain.Explanation` as a judge reads it: terminal text, or markdown to paste
into a ruling. Pure functions of the explanation: they return text and print nothing (``judge explain``
prints; its ``--step`` prints :func:`opening_text`, then each :func:`step_text`, then :func:`closing_text`).

>>> import pathlib
>>> from scenarios.explain import explain
>>> spec = pathlib.Path(__file__).resolve().parents[1] / "data/scenarios/riftbound/spec-example.yaml"
>>> "3. Ben plays Hidden Blade targeting Jinx: ILLEGAL" in text(explain(spec))
True
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from typing import Any

from engine.core import Event, Step
from scenarios.expectations import show_value
from scenarios.explain import Explanation

FORMATS = ("text", "markdown", "json")


def render(explanation: Explanation, fmt: str = "text") -> str:
    """The explanation in ``fmt`` (:data:`FORMATS`)."""
    if fmt == "json":
        return json.dumps(explanation.to_json(), indent=2, ensure_ascii=False) + "\n"
    if fmt not in FORMATS:
        raise ValueError(f"unknown format {fmt!r}: expected one of {', '.join(FORMATS)}")
    return text(explanation, markdown=fmt == "markdown")


def text(explanation: Explanation, *, markdown: bool = False) -> str:
    """The whole walk-through."""
    return (
        opening_text(explanation, markdown=markdown)
        + "".join(step_text(explanation, s, markdown=markdown) for s in explanation.steps)
        + closing_text(explanation, markdown=markdown)
    )


def opening_text(explanation: Explanation, *, markdown: bool = False) -> str:
    """The title, the book and where its numbers come from, the library's cards, the opening events."""
    return _Text(explanation, markdown).header()


def step_text(explanation: Explanation, step: Step, *, markdown: bool = False) -> str:
    """One action: what happened, with the rules, and the state after it."""
    return _Text(explanation, markdown).step(step)


def closing_text(explanation: Explanation, *, markdown: bool = False) -> str:
    """The expectations (when checked) and every rule cited, quoted where the book says it."""
    t = _Text(explanation, markdown)
    return (t.expectations() if explanation.checked else "") + t.rules()


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


def library_line(card) -> str:
    """A card taken from the library (rulebook.cards.scenario.LibraryCard) and where its text came from:
    ``Lightning Bolt: text from M10.json (mtgjson-v3; M10, released 2009-07-17)``, then the fields the
    scenario writes over the card's."""
    shown = card.name if card.name == card.card.name else f"{card.name} (the library's {card.card.name})"
    line = f"{shown}: text from {card.source.describe()}"
    if card.written:
        line += f"; {', '.join(card.written)} as the scenario writes {'them' if len(card.written) > 1 else 'it'}"
    for _, sentence in card.assumed:
        line += f"; {sentence}"
    return line


def _numbers(citations, book_id: str) -> str:
    """Where the numbers come from, for the header: ``citations mtg 2026-02-27`` (the edition's own table),
    ``citations carried onto cr-2024 from the mtg 2026-02-27 table (3 keys not located)``; and the date
    of the rules applied when it is not the table's."""
    source = getattr(citations, "source", None)
    if source and source != citations.edition:
        text = f"citations carried onto {book_id} from the {citations.game} {source} table"
        if citations.unlocated:
            text += f" ({len(citations.unlocated)} keys not located)"
    elif source:
        text = f"citations {citations.game} {source} (the nearest table: {book_id} has none of its own)"
    else:
        text = f"citations {citations.game} {citations.edition}"
    if citations.date and citations.date != citations.timeline.versions.get(citations.edition, citations.edition):
        text += f" · rules of {citations.date}"
    return text


def rule_notes(explanation: Explanation) -> list[str]:
    """What the list of rules cited cannot quote, and why: rules the book lacks, keys not located."""
    book_id, info = explanation.book, {**explanation.numbers, "excerpt": explanation.excerpt}
    refused = {r.rule for r in explanation.rules if r.lacks_phrase_of}
    missing = [r.rule for r in explanation.rules if r.text is None and r.rule not in refused]
    notes = []
    if missing:
        notes.append(
            f"{len(missing)} of {len(explanation.rules)} cited rules are not in book {book_id}"
            + (
                f" ({book_id} is an excerpt): load the full rules (judge load FILE --book ID) and pass "
                "--book to quote them."
                if info.get("excerpt")
                else "."
            )
        )
    if info.get("unlocated"):
        notes.append(
            f"{len(info['unlocated'])} citation key(s) used here are not located in {book_id} "
            f"({', '.join(info['unlocated'])}): no rule of it was found saying what the "
            f"{info.get('table')} table cites them for, so none is quoted for them (the rules applied are "
            f"still those of {info.get('date')}). judge citations --book {book_id} shows where each was "
            "sought; to cite another edition's numbers, load it and pass --book, or pin edition: in the "
            "scenario."
        )
    return notes


class _Text:
    """The walk-through as terminal text or as markdown to paste into a ruling: each part's lines."""

    def __init__(self, explanation: Explanation, markdown: bool):
        self.x, self.md = explanation, markdown
        self.book, self.unlocated = explanation.book, explanation.unlocated
        self.lines: list[str] = []

    def w(self, line: str = "") -> None:
        self.lines.append(line + "\n")

    def done(self) -> str:
        out, self.lines = "".join(self.lines), []
        return out

    def cite(self, rules: Iterable[str], keys: Iterable[str] = ()) -> str:
        """``(510.2, 510.1c)``; a key the book's numbers could not be given for keeps its meaning:
        ``(510.2; not located in cr-2024: combat.damage_on_stack)``."""
        missing = [k for k in keys if k in self.unlocated]
        shown = ", ".join(rules)
        if missing:
            shown += ("; " if shown else "") + f"not located in {self.book}: {', '.join(missing)}"
        return f"({shown})"

    def event(self, e: Event) -> str:
        return f"{e.what} {self.cite(e.rules, e.keys)}"

    def header(self) -> str:
        scenario, book_id, citations, opening = self.x.scenario, self.x.book, self.x.citations, self.x.opening
        d = scenario.data
        turn = d.get("turn") or {}
        where = _numbers(citations, book_id)
        if self.md:
            self.w(f"## {scenario.title}")
            self.w()
            self.w(
                f"*{scenario.game}, book `{book_id}`, {where}; players in turn "
                f"order: {', '.join(map(str, d.get('players', [])))}; it is {turn.get('player', '?')}'s turn, "
                f"{turn.get('phase', 'main')} phase.*"
            )
        else:
            self.w(f"{scenario.title}  ({scenario.file})")
            self.w(
                f"{scenario.game} · book {book_id} · {where} · players "
                f"{', '.join(map(str, d.get('players', [])))} · {turn.get('player', '?')}'s turn, "
                f"{turn.get('phase', 'main')}"
            )
        if scenario.library_cards:
            self.w()
            self.w("**Cards from the library**" if self.md else "Cards from the library:")
            for card in scenario.library_cards:
                line = library_line(card)
                self.w(f"- {line}" if self.md else f"   - {line}")
        if opening:
            self.w()
            self.w("**Before the first action**" if self.md else "Before the first action:")
            for e in opening:
                self.w(f"- {self.event(e)}" if self.md else f"   - {self.event(e)}")
        return self.done()

    def step(self, s: Step) -> str:
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
            self.w(f"- {self.event(e)}" if self.md else f"   - {self.event(e)}")
        if not s.legal and not s.asked:
            self.w(("- " if self.md else "   - ") + "Not applied: play goes on from the state before it.")
        line = state_line(dict(s.state))
        self.w(f"- *State:* {line}" if self.md else f"   = {line}")
        return self.done()

    def expectations(self) -> str:
        results = self.x.expectations
        self.w()
        self.w("### Expectations" if self.md else "Expectations:")
        for r in results:
            where = "end" if r.item.get("end") else f"after {r.item.get('after')}"
            what = ", ".join(f"{k}: {show_value(v)}" for k, v in r.item.items() if k not in ("after", "end"))
            mark = "ok" if r.ok else "FAIL"
            self.w(f"- {mark} ({where}) {what}: {r.detail}" if self.md else f"   {mark:4} {where}: {what}: {r.detail}")
        return self.done()

    def rules(self) -> str:
        book_id = self.x.book
        quoted = [(r.rule, r.text) for r in self.x.rules]
        refused = {r.rule: list(r.lacks_phrase_of) for r in self.x.rules if r.lacks_phrase_of}
        self.w()
        self.w(f"### Rules cited (from `{book_id}`)" if self.md else f"Rules cited (text from book {book_id}):")
        for number, text in quoted:
            if number in refused:
                shown = (
                    f"[{book_id}'s {number} does not say what {', '.join(refused[number])} cites it for: not quoted]"
                )
            else:
                shown = text if text is not None else f"[not in book {book_id}]"
            self.w(f"- **{number}** {shown}" if self.md else f"   {number:10} {shown}")
        for note in rule_notes(self.x):
            self.w()
            self.w(f"*{note}*" if self.md else note)
        return self.done()
