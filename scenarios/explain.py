"""Explaining a scenario: step it through its game's reference engine and say which rule did what.

:func:`explain` returns an :class:`Explanation`: data, as python-chess's ``Board.outcome()`` returns an
``Outcome``; the caller prints it (:mod:`scenarios.render`: text, markdown; ``Explanation.to_json()``:
the JSON of ``shared/spec/scenarios.md``). The scenario's ``game`` picks the engine its description
names (:mod:`rulebook.games`; each engine module offers ``new_game(scenario, citations)``). The whole scenario is played before anything is
returned, so a scenario an engine cannot play is refused before its first step is shown.

>>> import pathlib
>>> spec = pathlib.Path(__file__).resolve().parents[1] / "data/scenarios/riftbound/spec-example.yaml"
>>> told = explain(spec)
>>> told.ok, told.steps[2].action, told.steps[2].legal
(True, 'Ben plays Hidden Blade targeting Jinx', False)
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import Any

from engine.core import Citations, Event, ScenarioError, Step, play
from rulebook import games
from rulebook.carry import norm
from rulebook.library import builtin_specs
from rulebook.numbers import sort_key
from rulebook.shipped import seeds_dir
from scenarios.citations import load_citations
from scenarios.expectations import Result, check_expectations
from scenarios.scenario import Scenario, format_path, load_scenario

Quote = Callable[[str, str], "str | None"]


def _nothing(book_id: str, number: str) -> str | None:
    return None


def builtin_edition(book_id: str) -> str | None:
    """The edition of a built-in book (``seeds/manifest.yaml``), or None."""

    return _builtin_editions(str(seeds_dir())).get(book_id)


@cache
def _builtin_editions(seeds: str) -> dict[str, str | None]:
    """Each built-in book's edition, the manifest read once per process (1.5 ms a read: most of the
    time a run of many scenarios spent outside the engine)."""

    return {spec.id: spec.edition for spec in builtin_specs(Path(seeds))}


def new_engine(scenario: Scenario, book_id: str | None = None, edition: str | None = None, citations=None):
    """The scenario's game engine, at its starting situation, citing ``citations`` (default: the table of
    the book's edition, the scenario's ``edition:`` winning) and applying the rules in force at their
    date. Raises ScenarioFileError (with the line)."""
    game = games.get(scenario.game)
    module = game.engine_module()
    if citations is None:
        book_id = book_id or scenario.book or game.seed_book
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


@dataclass(frozen=True, slots=True)
class CitedRule:
    """A rule the run cited, with its text in the book, or None: the book lacks it, or (``lacks_phrase_of``
    not empty) its text does not say what those citation keys cite it for, so it is not quoted."""

    rule: str
    text: str | None
    lacks_phrase_of: tuple[str, ...] = ()

    @property
    def in_book(self) -> bool:
        return self.text is not None or bool(self.lacks_phrase_of)

    def to_json(self) -> dict[str, Any]:
        return {
            "rule": self.rule,
            "text": self.text,
            "in_book": self.in_book,
            **({"lacks_phrase_of": list(self.lacks_phrase_of)} if self.lacks_phrase_of else {}),
        }


@dataclass(frozen=True, slots=True)
class Explanation:
    """A scenario played through its engine: the situation before the first action (``opening``), each
    action's :class:`~engine.core.Step` (events, the rules applied, the state after), the ``expect``
    items checked (when ``checked``), every rule cited with its text where the book says it, and where
    the numbers came from (``numbers``: docs/json.md, ``citations``)."""

    scenario: Scenario
    book: str
    citations: Citations = field(repr=False)
    opening: tuple[Event, ...]
    steps: tuple[Step, ...]
    checked: bool
    expectations: tuple[Result, ...]
    rules: tuple[CitedRule, ...]
    numbers: dict[str, Any]
    excerpt: bool = False  # the book is a seed excerpt: a rule it lacks may be in the full book
    complete: bool = True  # every action was played (False: the judge stopped stepping)

    @property
    def ok(self) -> bool:
        """Every expectation checked holds."""
        return all(r.ok for r in self.expectations)

    @property
    def failed(self) -> tuple[Result, ...]:
        return tuple(r for r in self.expectations if not r.ok)

    @property
    def unlocated(self) -> frozenset[str]:
        """The citation keys of the table whose rule the book's numbers could not be given for."""
        return frozenset(self.citations.unlocated)

    def to_json(self) -> dict[str, Any]:
        """The explanation as ``judge explain --json`` prints it (docs/json.md, shared/spec/scenarios.md)."""
        scenario, unlocated = self.scenario, frozenset(self.numbers.get("unlocated", ()))
        taken = [
            {**c.to_json(), "named_at": format_path(c.named_at), "line": scenario.line_of(c.named_at)}
            for c in scenario.library_cards
        ]
        numbers = {k: v for k, v in self.numbers.items() if k != "excerpt"} | {"excerpt": self.excerpt}
        return {
            "scenario": {
                "file": scenario.file,
                "title": scenario.title,
                "game": scenario.game,
                "players": scenario.data.get("players"),
                "turn": scenario.data.get("turn"),
            },
            "book": self.book,
            **({"library_cards": taken} if taken else {}),
            "opening": [_event_json(e, unlocated) for e in self.opening],
            "steps": [
                {
                    "n": s.n,
                    "action": s.action,
                    "ask": s.asked,
                    "legal": s.legal,
                    **({"answer": s.answer} if s.asked else {}),
                    "events": [_event_json(e, unlocated) for e in s.events],
                    "state": _plain(s.state),
                }
                for s in self.steps
            ],
            "citations": numbers,
            "rules_cited": [r.to_json() for r in self.rules],
            "expectations": [r.to_json() for r in self.expectations] if self.checked else [],
        }


def explain(
    scenario: Scenario | str | Path,
    book: str | None = None,
    *,
    quote: Quote = _nothing,
    content: Quote | None = None,
    citations: Citations | None = None,
    edition: str | None = None,
    check: bool = True,
    excerpt: bool = False,
    actions: int | None = None,
) -> Explanation:
    """Play ``scenario`` (a :class:`Scenario` or its file) and say which rule did what.

    ``book``: the book whose numbers and text are cited (default: the scenario's, else the game's seed
    book). ``quote(book_id, rule_number)`` gives the rule's text in that book, or None when it lacks it
    (default: no text); ``content(book_id, rule_number)`` the words a citation's phrase is looked for in
    (default: the quote). A rule's text is quoted only when it says the phrase of every citation key that
    cites it (:func:`verified_quotes`). ``citations``: the table to cite (scenarios.citations
    .citations_for_book), else the one of ``edition`` (the scenario's ``edition:`` winning; built-in
    books' editions from the seeds manifest). ``check``: evaluate the ``expect`` items. ``actions``: play
    only the first so many (a judge who stopped stepping). Errors in the file, including an action the
    engine cannot play, raise :class:`scenarios.scenario.ScenarioFileError` (file, line, key path).
    """
    if not isinstance(scenario, Scenario):
        scenario = load_scenario(scenario)
    book_id = book or scenario.book or games.get(scenario.game).seed_book
    engine, citations = new_engine(scenario, book_id, edition, citations)
    opening = tuple(getattr(engine, "opening", []) or [])
    played = scenario.actions if actions is None else scenario.actions[:actions]
    try:
        steps = tuple(play(engine, played))
    except ScenarioError as exc:
        raise scenario.engine_error(exc) from None
    results: tuple[Result, ...] = ()
    if check:
        results = tuple(check_expectations(scenario.expect, steps, engine.snapshot(), citations.unlocated, book_id))
    quoted, refused = verified_quotes(
        citations, book_id, rules_cited(opening, steps), used_keys(opening, steps), quote, content or quote
    )
    rules = tuple(CitedRule(n, text, tuple(refused.get(n, ()))) for n, text in quoted)
    return Explanation(
        scenario,
        book_id,
        citations,
        opening,
        steps,
        check,
        results,
        rules,
        citation_info(citations, book_id, opening, steps),
        excerpt,
        len(played) == len(scenario.actions),
    )


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
    return {
        "table": source or citations.edition,
        "carried": bool(source) and source != citations.edition,
        "edition": citations.edition,
        "date": citations.date,
        "unlocated": [k for k in used if k in citations.unlocated],
        "unlocated_in_table": len(citations.unlocated),
    }


def verified_quotes(
    citations, book_id: str, cited: list[str], used: list[str], quote: Quote, content: Quote
) -> tuple[list[tuple[str, str | None]], dict[str, list[str]]]:
    """Each cited rule with its text, the text only where the rule (with the other rules its key names)
    says the phrase of every key used that cites it. Returns the quotes and, for each rule whose text
    was withheld, the keys whose phrase it lacks."""

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


def _event_json(e: Event, unlocated: frozenset[str] = frozenset()) -> dict[str, Any]:
    missing = [k for k in e.keys if k in unlocated]
    return {"what": e.what, "rules": list(e.rules), **({"not_located": missing} if missing else {})}


def _plain(value: Any) -> Any:
    if isinstance(value, dict):
        return {str(k): _plain(v) for k, v in value.items()}
    if isinstance(value, (list, tuple, set)):
        return [_plain(v) for v in value]
    return value
