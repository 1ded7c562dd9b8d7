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
from judge.scenario import Scenario, format_path, load_scenario
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


def new_engine(scenario: Scenario, book_id: str | None = None, edition: str | None = None, citations=None):
    """The scenario's game engine, at its starting situation, citing ``citations`` (default: the table of
    the book's edition, the scenario's ``edition:`` winning) and applying the rules in force at their
    date. Raises ScenarioFileError (with the line)."""
    module = importlib.import_module(ENGINES[scenario.game])
    if citations is None:
        from judge.citations import load_citations

        book_id = book_id or scenario.book or DEFAULT_BOOKS[scenario.game]
        edition = scenario.data.get("edition") or edition or builtin_edition(book_id)
        citations = load_citations(scenario.game, str(edition) if edition else None)
    try:
        return module.new_game(scenario.engine_data, citations), citations
    except ScenarioError as exc:
        raise scenario.engine_error(exc) from None


def run_steps(scenario: Scenario, engine) -> Iterator[Step]:
    try:
        yield from play(engine, scenario.actions)
    except ScenarioError as exc:
        raise scenario.engine_error(exc) from None


def run_explain(path: Path, *, fmt: str = "text", check: bool = False, step: bool = False, book: str | None = None,
                quote: Quote, out: IO[str] | None = None, stdin: IO[str] | None = None,
                edition: str | None = None, citations=None, content: Quote | None = None, excerpt: bool = False) -> int:
    """Explain the scenario at ``path``; returns the exit code (1 when ``check`` finds a failed expectation).

    ``quote(book_id, rule_number)`` gives the rule's text in the loaded book, or None when it lacks it;
    ``content(book_id, rule_number)`` the words a citation's phrase is looked for in (default: the quote).
    A rule's text is shown only when it says the phrase of every citation key that cites it
    (:func:`verified_quotes`). ``edition`` is the book's edition (the citation table follows it); built-in
    books are looked up in the seeds manifest. ``citations``: the table to cite (judge.citations
    .citations_for_book), else the edition's.
    Errors in the file raise :class:`judge.scenario.ScenarioFileError` (one line: file, line, key path).
    """
    if fmt not in FORMATS:
        raise ValueError(f"unknown format {fmt!r}: expected one of {', '.join(FORMATS)}")
    out = out or sys.stdout
    stdin = stdin or sys.stdin
    scenario = load_scenario(path)
    book_id = book or scenario.book or DEFAULT_BOOKS[scenario.game]
    engine, citations = new_engine(scenario, book_id, edition, citations)
    opening = list(getattr(engine, "opening", []) or [])
    interactive = step and fmt == "text" and _isatty(stdin) and _isatty(out)
    view = _Text(out, markdown=fmt == "markdown", book=book_id, unlocated=citations.unlocated) if fmt != "json" else None
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

        results = check_expectations(scenario.expect, steps, final, citations.unlocated, book_id)
    cited = rules_cited(opening, steps)
    quoted, refused = verified_quotes(citations, book_id, cited, used_keys(opening, steps), quote, content or quote)
    info = citation_info(citations, book_id, opening, steps) | {"excerpt": excerpt}
    if view:
        if check:
            view.expectations(results)
        view.rules(book_id, quoted, refused, info)
    else:
        json.dump(to_json(scenario, book_id, opening, steps, quoted, results, check, info, refused), out, indent=2,
                  ensure_ascii=False)
        out.write("\n")
    return 1 if any(not r.ok for r in results) else 0


def used_keys(opening: Iterable[Event], steps: Iterable[Step]) -> list[str]:
    """The citation keys a run used, in order, each once (a step's deciding key included)."""
    keys = [k for e in opening for k in e.keys]
    for s in steps:
        keys += [k for e in s.events for k in e.keys] + ([s.reason] if s.reason else [])
    return list(dict.fromkeys(keys))


def citation_info(citations, book_id: str, opening, steps) -> dict[str, Any]:
    """Where the numbers came from (docs/json.md, ``citations``): the table's edition, whether it was
    carried onto the book, the date whose rules were applied, the keys this run used that are not located."""
    used = used_keys(opening, steps)
    source = getattr(citations, "source", None)
    return {"table": source or citations.edition, "carried": bool(source) and source != citations.edition,
            "edition": citations.edition, "date": citations.date,
            "unlocated": [k for k in used if k in citations.unlocated],
            "unlocated_in_table": len(citations.unlocated)}


def verified_quotes(citations, book_id: str, cited: list[str], used: list[str], quote: Quote,
                    content: Quote) -> tuple[list[tuple[str, str | None]], dict[str, list[str]]]:
    """Each cited rule with its text, the text only where the rule (with the other rules its key names)
    says the phrase of every key used that cites it. Returns the quotes and, for each rule whose text
    was withheld, the keys whose phrase it lacks."""
    from rulebook.carry import norm

    claims: dict[str, list[str]] = {}
    for key in used:
        if key in citations:
            for n in citations.citation(key).rules:
                claims.setdefault(n, []).append(key)
    texts: dict[str, str] = {}

    def words(n: str) -> str:
        if n not in texts:
            texts[n] = norm(content(book_id, n) or "")
        return texts[n]

    def lacks(key: str) -> bool:
        c = citations.citation(key)
        return bool(c.phrase) and norm(c.phrase) not in " ".join(words(r) for r in c.rules)

    quoted, refused = [], {}
    for n in cited:
        text = quote(book_id, n)
        if text is not None:
            if n in claims:  # every key the run cited it by must hold
                lacking = [k for k in claims[n] if lacks(k)]
            else:  # cited beside a refusal's reason (IllegalAction names its keys' rules, not the keys): one
                candidates = [c.key for c in citations if n in c.rules]  # key of the table citing it must hold
                lacking = candidates if candidates and all(lacks(k) for k in candidates) else []
            if lacking:
                refused[n], text = lacking, None
        quoted.append((n, text))
    return quoted, refused


def rules_cited(opening: Iterable[Event], steps: Iterable[Step]) -> list[str]:
    seen: set[str] = set()
    for e in [*opening, *(e for s in steps for e in s.events)]:
        seen.update(e.rules)
    for s in steps:
        seen.update(s.rules)
    return sorted(seen, key=sort_key)


def to_json(scenario: Scenario, book_id: str, opening, steps, quoted, results, check: bool,
            info: dict[str, Any] | None = None, refused: dict[str, list[str]] | None = None) -> dict[str, Any]:
    refused = refused or {}
    unlocated = frozenset((info or {}).get("unlocated", ()))
    taken = [{**c.to_json(), "named_at": format_path(c.named_at), "line": scenario.line_of(c.named_at)}
             for c in scenario.library_cards]
    return {
        "scenario": {"file": scenario.file, "title": scenario.title, "game": scenario.game,
                     "players": scenario.data.get("players"), "turn": scenario.data.get("turn")},
        "book": book_id,
        **({"library_cards": taken} if taken else {}),
        "opening": [_event_json(e, unlocated) for e in opening],
        "steps": [{"n": s.n, "action": s.action, "ask": s.asked, "legal": s.legal,
                   **({"answer": s.answer} if s.asked else {}),
                   "events": [_event_json(e, unlocated) for e in s.events], "state": _plain(s.state)} for s in steps],
        "citations": info or {},
        "rules_cited": [{"rule": n, "text": text, "in_book": text is not None or n in refused,
                         **({"lacks_phrase_of": refused[n]} if n in refused else {})} for n, text in quoted],
        "expectations": [r.to_json() for r in results] if check else [],
    }


def _event_json(e: Event, unlocated: frozenset[str] = frozenset()) -> dict[str, Any]:
    missing = [k for k in e.keys if k in unlocated]
    return {"what": e.what, "rules": list(e.rules), **({"not_located": missing} if missing else {})}


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


def library_line(card) -> str:
    """A card taken from the library (rulebook.cards.scenario.LibraryCard) and where its text came from:
    ``Lightning Bolt: text from M10.json (mtgjson-v3; M10, released 2009-07-17)``, then the fields the
    scenario writes over the card's."""
    shown = card.name if card.name == card.card.name else f"{card.name} (the library's {card.card.name})"
    line = f"{shown}: text from {card.source.describe()}"
    if card.written:
        line += f"; {', '.join(card.written)} as the scenario writes {'them' if len(card.written) > 1 else 'it'}"
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


class _Text:
    """The walk-through as terminal text or as markdown to paste into a ruling."""

    def __init__(self, out: IO[str], markdown: bool, book: str = "", unlocated: frozenset[str] = frozenset()):
        self.out, self.md = out, markdown
        self.book, self.unlocated = book, unlocated

    def w(self, line: str = "") -> None:
        self.out.write(line + "\n")

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

    def header(self, scenario: Scenario, book_id: str, citations, opening: list[Event]) -> None:
        d = scenario.data
        turn = d.get("turn") or {}
        where = _numbers(citations, book_id)
        if self.md:
            self.w(f"## {scenario.title}")
            self.w()
            self.w(f"*{scenario.game}, book `{book_id}`, {where}; players in turn "
                   f"order: {', '.join(map(str, d.get('players', [])))}; it is {turn.get('player', '?')}'s turn, "
                   f"{turn.get('phase', 'main')} phase.*")
        else:
            self.w(f"{scenario.title}  ({scenario.file})")
            self.w(f"{scenario.game} · book {book_id} · {where} · players "
                   f"{', '.join(map(str, d.get('players', [])))} · {turn.get('player', '?')}'s turn, "
                   f"{turn.get('phase', 'main')}")
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
            self.w(f"- {self.event(e)}" if self.md else f"   - {self.event(e)}")
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

    def rules(self, book_id: str, quoted: list[tuple[str, str | None]], refused: dict[str, list[str]] | None = None,
              info: dict[str, Any] | None = None) -> None:
        refused, info = refused or {}, info or {}
        self.w()
        missing = [n for n, t in quoted if t is None and n not in refused]
        self.w(f"### Rules cited (from `{book_id}`)" if self.md else f"Rules cited (text from book {book_id}):")
        for number, text in quoted:
            if number in refused:
                shown = f"[{book_id}'s {number} does not say what {', '.join(refused[number])} cites it for: not quoted]"
            else:
                shown = text if text is not None else f"[not in book {book_id}]"
            self.w(f"- **{number}** {shown}" if self.md else f"   {number:10} {shown}")
        notes = []
        if missing:
            notes.append(f"{len(missing)} of {len(quoted)} cited rules are not in book {book_id}"
                         + (f" ({book_id} is an excerpt): load the full rules (judge load FILE --book ID) and pass "
                            "--book to quote them." if info.get("excerpt") else "."))
        if info.get("unlocated"):
            notes.append(f"{len(info['unlocated'])} citation key(s) used here are not located in {book_id} "
                         f"({', '.join(info['unlocated'])}): no rule of it was found saying what the "
                         f"{info.get('table')} table cites them for, so none is quoted for them (the rules applied are "
                         f"still those of {info.get('date')}). judge citations --book {book_id} shows where each was "
                         "sought; to cite another edition's numbers, load it and pass --book, or pin edition: in the "
                         "scenario.")
        for note in notes:
            self.w()
            self.w(f"*{note}*" if self.md else note)
