"""The shared core of the reference engines: events that cite rules, illegal actions, steps.

An engine never writes a rule number in its logic. It names *what the rule says* with a citation key
(``focus.passes_when_chain_empties``) and a :class:`Citations` table, loaded from ``data/`` by the
application and handed in, turns keys into the numbers of one edition.

>>> table = Citations("riftbound", "v1.2", {"priority.singular_right": {"rules": ["312.1"], "phrase": "singular exclusive right"}})
>>> table.event("Ana may act", "priority.singular_right")
Event(what='Ana may act', rules=('312.1',), keys=('priority.singular_right',))
>>> try:
...     table.illegal("Ben has no Priority", "priority.singular_right")
... except IllegalAction as exc:
...     exc.rules, exc.reason
(('312.1',), 'priority.singular_right')

Both engines are a :class:`Game` (the :class:`Engine` protocol): the state ``s`` of the game, the
citations table, the events of the action being carried out. :func:`play` steps one through a list of
actions and :func:`ask` answers "is this legal now?" without changing anything.

>>> suggest("Ganknig", ["Ganking", "Tank"])
' (did you mean "Ganking"?)'
"""

from __future__ import annotations

import copy
import difflib
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any, ClassVar, Generic, NoReturn, Protocol, Self, TypedDict, TypeVar


@dataclass(frozen=True)
class Citation:
    key: str
    rules: tuple[str, ...]  # empty: the key could not be placed in the book explained (not located)
    phrase: str  # words the cited rule's text must still contain (checked by a test against the book)


@dataclass(frozen=True, slots=True)
class Change:
    """A rule that changed on a date: in force from ``since`` (inclusive) until ``until`` (exclusive),
    both ISO dates (``None``: always). ``key`` is the citation key of the rule that says it."""

    name: str
    key: str
    since: str | None
    until: str | None
    what: str

    def in_force(self, date: str) -> bool:
        return (self.since is None or date >= self.since) and (self.until is None or date < self.until)


@dataclass(frozen=True)
class Timeline:
    """A game's rules that changed over time, each once with its date (``data/editions/<game>.yaml``),
    and the dates of editions named by version (``v1.2``). The engines decide by the date of the rules
    being explained, never by which citation table they were handed.

    >>> t = Timeline("mtg", (Change("mana_burn", "mana.burn", None, "2009-07-11", "mana burn"),))
    >>> t.in_force("2008-10-01"), t.in_force("2024-11-08")
    (frozenset({'mana_burn'}), frozenset())
    """

    game: str
    changes: tuple[Change, ...] = ()
    versions: Mapping[str, str] = field(default_factory=dict)

    def in_force(self, date: str) -> frozenset[str]:
        return frozenset(c.name for c in self.changes if c.in_force(date))

    def names(self) -> frozenset[str]:
        return frozenset(c.name for c in self.changes)

    def change(self, name: str) -> Change:
        for c in self.changes:
            if c.name == name:
                return c
        raise KeyError(f"no rules change {name!r} in the {self.game} timeline")

    @classmethod
    def from_data(cls, data: Mapping[str, Any]) -> Timeline:
        """A timeline from the parsed ``data/editions/<game>.yaml`` (``{"game", "versions", "changes":
        {name: {"key", "since", "until", "what"}}}``)."""
        changes = tuple(
            Change(str(name), str(c["key"]), _date(c.get("since")), _date(c.get("until")), str(c["what"]))
            for name, c in (data.get("changes") or {}).items()
        )
        versions = {str(k): str(_date(v)) for k, v in (data.get("versions") or {}).items()}
        return cls(str(data["game"]), changes, versions)


def _date(value: Any) -> str | None:
    """An ISO date as text (YAML reads an unquoted date as a ``datetime.date``)."""
    return None if value is None else (value.isoformat() if hasattr(value, "isoformat") else str(value))


@dataclass(frozen=True)
class Event:
    """Something the rules made happen (or decided), with the rules that justify it."""

    what: str
    rules: tuple[str, ...]
    keys: tuple[str, ...] = ()


class IllegalAction(Exception):
    """A game action the rules forbid. ``reason`` is the citation key: why, as data."""

    def __init__(self, message: str, reason: str, rules: tuple[str, ...]):
        super().__init__(message)
        self.message, self.reason, self.rules = message, reason, rules


class Refusal(Exception):
    """Why the rules forbid an action, before any rule number: a message and citation keys (the first
    is the reason). The games' legality layers raise it; :meth:`Game.check` cites the keys."""

    def __init__(self, message: str, *keys: str):
        super().__init__(message)
        self.message, self.keys = message, keys


class EngineError(RuntimeError):
    """An engine bug: an action its checks found legal was refused while being carried out (the game
    may then be half changed, which the check-first design exists to prevent)."""


class ScenarioError(Exception):
    """The scenario itself is wrong (unknown card, player, key, action sentence).

    ``path`` is the key path into the scenario (``("actions", 2)``: list indices count from 0); the
    application turns it into ``file:line: actions -> 3: ...``.
    """

    def __init__(self, path: tuple[str | int, ...], message: str):
        super().__init__(message)
        self.path, self.message = tuple(path), message


class Citations:
    """One game and edition's table: citation key -> rule numbers."""

    def __init__(
        self,
        game: str,
        edition: str,
        table: Mapping[str, Mapping[str, Any]],
        *,
        timeline: Timeline | None = None,
        date: str | None = None,
        source: str | None = None,
        book: str | None = None,
    ):
        self.game, self.edition = game, edition
        # The rules applied are those in force on ``date`` (the book's or the scenario's edition); the
        # table only numbers them. ``source``: the edition of the table the numbers were carried from
        # (None: the table is the edition's own); ``book``: the book they were placed in.
        self.timeline = timeline or Timeline(game)
        self.date = date or self.timeline.versions.get(edition) or edition
        self.source, self.book = source, book
        self._table: dict[str, Citation] = {}
        self._cited: dict[tuple[str, ...], tuple[str, ...]] = {}  # keys -> rules, as they are asked for
        for key, entry in table.items():
            rules = entry.get("rules")
            if rules is None:
                rules = [entry["rule"]] if entry.get("rule") is not None else []
            self._table[key] = Citation(key, tuple(str(r) for r in rules), str(entry.get("phrase", "")))
        self.unlocated = frozenset(k for k, c in self._table.items() if not c.rules)
        self._in_force = self.timeline.in_force(self.date)
        self._changes = self.timeline.names()  # asked on every step: made once

    def follows(self, change: str) -> bool:
        """Whether the rules explained follow ``change`` (a name of the game's :class:`Timeline`)."""
        if change not in self._in_force and change not in self._changes:
            raise KeyError(f"no rules change {change!r} in the {self.game} timeline handed to the engine")
        return change in self._in_force

    @property
    def in_force(self) -> frozenset[str]:
        return self._in_force

    def citation(self, key: str) -> Citation:
        return self._table[key]

    def __deepcopy__(self, memo: dict) -> Citations:
        return self  # never changes once built: copies of an engine (ask, undo) share it

    def __contains__(self, key: str) -> bool:
        return key in self._table

    def __iter__(self) -> Iterator[Citation]:
        return iter(self._table.values())

    def __len__(self) -> int:
        return len(self._table)

    def cite(self, *keys: str) -> tuple[str, ...]:
        """The rule numbers for these keys, in order, without repeats."""
        known = self._cited.get(keys)
        if known is None:
            known = self._cited[keys] = self._cite(keys)
        return known

    def _cite(self, keys: tuple[str, ...]) -> tuple[str, ...]:
        out: list[str] = []
        for key in keys:
            try:
                rules = self._table[key].rules
            except KeyError:
                raise KeyError(f"citation key {key!r} is not in the {self.game} {self.edition} table") from None
            out.extend(r for r in rules if r not in out)
        return tuple(out)

    def event(self, what: str, *keys: str) -> Event:
        rules = self._cited.get(keys)  # cite's lookup, without a second call: events are made on every step
        return Event(what, self.cite(*keys) if rules is None else rules, keys)

    def illegal(self, message: str, *keys: str) -> NoReturn:
        """Raise an :class:`IllegalAction` citing ``keys`` (the first key is the reason)."""
        raise IllegalAction(message, keys[0], self.cite(*keys))


@dataclass(frozen=True)
class Step:
    """One action of a scenario and what the rules did with it."""

    n: int  # counting from 1
    action: str
    asked: bool  # an ``ask:`` item: answered, never applied
    legal: bool
    events: tuple[Event, ...]
    state: Mapping[str, Any]  # Engine.snapshot() after the step
    reason: str | None = None  # citation key of the rule that forbade it
    rules: tuple[str, ...] = field(default=())  # for illegal actions and answers: the deciding rules

    @property
    def answer(self) -> str | None:
        return ("yes" if self.legal else "no") if self.asked else None


class Snapshot(TypedDict, total=False):
    """What a game looks like after a step, the keys scenario expectations are checked against (where the
    game has them); each game adds its own (docs/json.md lists both games' keys). ``priority`` names the
    player who has it; when nobody has it, the game's :attr:`Game.no_priority`."""

    state: str
    phase: str
    turn: int
    turn_player: str
    priority: str | None
    focus: str | None
    points: dict[str, int]
    life: dict[str, int]
    controller: dict[str, str | None]
    zone: dict[str, str]
    chain: list[str]
    stack: list[str]
    winner: str | None


class Engine(Protocol):
    """What every game's engine offers. Pure: no I/O, no rulebook import."""

    game: str
    opening: list[Event]
    asking: bool  # True while :func:`ask` answers a question

    def apply(self, action: str) -> list[Event]:
        """Carry out one action sentence, then everything the rules make automatic until a player must
        decide. Raises :class:`IllegalAction` (the game unchanged) or :class:`ScenarioError`."""

    def check(self, action: str) -> Any:
        """Raise :class:`IllegalAction` if ``action`` is illegal now; change nothing."""

    def legal_actions(self) -> list[str]: ...

    def snapshot(self) -> Snapshot: ...

    def copy(self) -> Engine: ...


S = TypeVar("S")


class Game(Generic[S]):
    """The shape both engines share, as python-chess's variants share one ``Board``.

    ``s`` is the game's state: pure data and its queries, the one thing that changes as the game is
    played (a copy of the game is a copy of ``s``; the citations table and the opening are shared).
    ``events`` collects what the rules do while one action is carried out: :meth:`emit` adds one,
    citing rules by key, and :meth:`illegal` refuses the action citing the rule that forbids it.
    """

    game: ClassVar[str] = ""
    #: what :meth:`snapshot` says when no player has priority (each game's published JSON, docs/json.md)
    no_priority: ClassVar[str | None] = None
    #: True while :func:`ask` answers an ``ask:``: a game may then answer about a choice it makes by itself
    #: (Magic: a combat damage assignment with one legal way), which as an action it refuses
    asking: bool = False

    def __init__(self, state: S, citations: Citations) -> None:
        self.s: S = state
        self.citations = citations
        self.events: list[Event] = []
        self.opening: list[Event] = []  # what the rules did before the first action

    # -- reporting --------------------------------------------------------------------------------------
    def emit(self, what: str, *keys: str) -> None:
        """Something the rules made happen, citing the rules by key."""
        self.events.append(self.citations.event(what, *keys))

    def illegal(self, message: str, *keys: str) -> NoReturn:
        """Refuse the action: raise :class:`IllegalAction` citing ``keys`` (the first is the reason)."""
        self.citations.illegal(message, *keys)

    # -- acting: check first, then carry out ---------------------------------------------------------------
    def apply(self, action: str) -> list[Event]:
        """Carry out ``action`` and everything the rules then make automatic, until a player must decide.

        The action is checked first (:meth:`check`): an illegal one raises :class:`IllegalAction` having
        changed nothing, so no copy of the game is needed to undo it."""
        return self.push(self.check(action))

    def check(self, action: str) -> Any:
        """What ``action`` would do, if it is legal now: the game's plan for it (read-only). Raises
        :class:`IllegalAction` citing the rule that forbids it, :class:`ScenarioError` for a sentence
        that names what is not there."""
        try:
            return self.plan(action)
        except Refusal as no:
            self.illegal(no.message, *no.keys)

    def push(self, plan: Any) -> list[Event]:
        """Carry out a plan :meth:`check` made, now; returns the events."""
        self.events = []
        try:
            self.carry_out(plan)
        except (IllegalAction, Refusal, ScenarioError) as exc:
            raise EngineError(f"{plan!r} was found legal, then refused while carried out: {exc}") from exc
        out, self.events = self.events, []
        return out

    def is_legal(self, action: str) -> bool:
        try:
            self.check(action)
        except (IllegalAction, ScenarioError):
            return False
        return True

    def legal_actions(self) -> list[str]:
        """The legal ones among :meth:`candidates` (python-chess's ``generate_legal_moves``), by the check
        :func:`ask` makes first (which changes nothing, so no copy is needed)."""
        return [action for action in self.candidates() if self.is_legal(action)]

    # -- what each game provides ------------------------------------------------------------------------
    def plan(self, action: str) -> Any:
        """Read ``action`` and check it against the rules (raising :class:`Refusal`), changing nothing."""
        raise NotImplementedError

    def carry_out(self, plan: Any) -> None:
        """Carry out a checked plan and settle what the rules make automatic, emitting events."""
        raise NotImplementedError

    def candidates(self) -> list[str]:
        """Sentences worth trying now: a superset of the legal actions, which :meth:`legal_actions`
        filters. Never leaves out what keeps the game going (a pass, an awaited choice)."""
        raise NotImplementedError

    def view(self) -> Snapshot:
        """The game's snapshot, ``priority`` None when nobody has it."""
        raise NotImplementedError

    # -- copies -----------------------------------------------------------------------------------------
    def copy(self) -> Self:
        """An independent game in the same state (the state deep-copied; the table and opening shared)."""
        clone = object.__new__(type(self))
        clone.__dict__.update(self.__dict__)
        clone.s = copy.deepcopy(self.s)
        clone.events = []
        return clone

    def __deepcopy__(self, memo: dict) -> Self:
        return self.copy()

    def restore(self, state: S) -> None:
        """Put the game back in ``state`` (a copy of ``s`` taken earlier, which is used up)."""
        self.s = state

    # -- what it looks like -----------------------------------------------------------------------------
    def snapshot(self) -> Snapshot:
        snap = self.view()
        if snap.get("priority") is None:
            snap["priority"] = self.no_priority
        return snap


def ask(engine: Engine, action: str) -> tuple[bool, list[Event], IllegalAction | None]:
    """Would ``action`` be legal now, and what would it do? Carried out on a copy when it is legal; the
    engine itself is untouched (``asking`` is set while it is checked, and on the copy)."""
    engine.asking = True
    try:
        try:
            engine.check(action)
        except IllegalAction as exc:
            return False, [], exc
        return True, engine.copy().apply(action), None
    finally:
        engine.asking = False


def play(engine: Engine, actions: Iterable[tuple[str, bool]]) -> Iterator[Step]:
    """Step ``engine`` through ``(sentence, is_ask)`` pairs, yielding a :class:`Step` for each.

    An illegal action is reported with its rule and not applied: play goes on from the state before it.
    A :class:`ScenarioError` propagates with the action's index prepended to its path.
    """
    for n, (sentence, is_ask) in enumerate(actions, start=1):
        try:
            if is_ask:
                legal, events, exc = ask(engine, sentence)
                if exc is not None:
                    events = [Event(f"No: {exc.message}", exc.rules, (exc.reason,))]
                yield Step(
                    n,
                    sentence,
                    True,
                    legal,
                    tuple(events),
                    engine.snapshot(),
                    exc.reason if exc else None,
                    exc.rules if exc else _rules_of(events),
                )
                continue
            try:
                events = engine.apply(sentence)
            except IllegalAction as exc:  # checked before anything changed: play goes on from the same game
                event = Event(f"Illegal: {exc.message}", exc.rules, (exc.reason,))
                yield Step(n, sentence, False, False, (event,), engine.snapshot(), exc.reason, exc.rules)
                continue
            yield Step(n, sentence, False, True, tuple(events), engine.snapshot(), None, _rules_of(events))
        except ScenarioError as exc:
            raise ScenarioError(("actions", n - 1, *exc.path), exc.message) from None


def suggest(word: str, options: Iterable[str]) -> str:
    """`` (did you mean "X"?)`` when one of ``options`` is close to ``word`` (case-insensitively), else ``""``."""
    lowered = {str(o).lower(): str(o) for o in options}
    close = difflib.get_close_matches(str(word).lower(), list(lowered), n=1, cutoff=0.6)
    return f' (did you mean "{lowered[close[0]]}"?)' if close else ""


def _rules_of(events: Iterable[Event]) -> tuple[str, ...]:
    return tuple(dict.fromkeys(r for event in events for r in event.rules))  # in order, without repeats


# -- checking the values a scenario gives (shared by the engines' builders) ---------------------------
#
# Each returns the value in the engine's terms or raises ScenarioError(path, "expected ..., got ...").
# YAML hands over whatever the judge typed: a number where a list was meant, ``yes`` read as true,
# ``3.5``, a billion. The limits are the engines' (docs/scenarios.md lists them), chosen so a typo
# fails in one line instead of building a billion cards.


def _shown(value: Any) -> str:
    if value is None:
        return "nothing"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (dict, list)):
        return "a mapping" if isinstance(value, dict) else "a list"
    text = repr(value)
    return text if len(text) <= 40 else text[:37] + "..."


def whole_number(value: Any, path: tuple, low: int, high: int, what: str = "a whole number") -> int:
    """An ``int`` (or a string of digits, as YAML gives ``"3"``) from ``low`` to ``high``.

    >>> whole_number("7", ("x",), 0, 500)
    7
    >>> whole_number(10**9, ("state", "deck", "Ana"), 0, 500)
    Traceback (most recent call last):
    ...
    engine.core.ScenarioError: expected a whole number from 0 to 500, got 1000000000
    """
    number = None
    if isinstance(value, int) and not isinstance(value, bool):
        number = value
    elif isinstance(value, str) and value.strip().lstrip("+-").isdigit() and len(value.strip()) <= 12:
        number = int(value.strip())
    if number is None or not low <= number <= high:
        raise ScenarioError(tuple(path), f"expected {what} from {low} to {high}, got {_shown(value)}")
    return number


def flag(value: Any, path: tuple, default: bool = False) -> bool:
    """``true`` / ``false`` (YAML's ``yes``/``no`` too); missing or empty: ``default``."""
    if value is None:
        return default
    if isinstance(value, bool):
        return value
    raise ScenarioError(tuple(path), f"expected true or false, got {_shown(value)}")


def mapping(value: Any, path: tuple, expected: str) -> Mapping:
    """A mapping (missing or empty: ``{}``); ``expected`` says of what, e.g. ``"player -> points"``."""
    if value is None:
        return {}
    if not isinstance(value, Mapping):
        raise ScenarioError(tuple(path), f"expected a mapping of {expected}, got {_shown(value)}")
    return value


def items(value: Any, path: tuple, expected: str, *, one: bool = True) -> list:
    """A list (missing: ``[]``; with ``one``, a single name stands for a list of it)."""
    if value is None:
        return []
    if one and isinstance(value, (str, int)) and not isinstance(value, bool) and str(value).strip():
        return [value]
    if not isinstance(value, list):
        raise ScenarioError(tuple(path), f"expected a list of {expected}, got {_shown(value)}")
    return value


def name(value: Any, path: tuple, what: str = "a name") -> str:
    """A name: text (a number is taken as written). Not a list, a mapping, nothing, or true/false
    (YAML reads an unquoted ``yes``, ``no``, ``on``, ``off`` as true/false: quote such a name)."""
    if isinstance(value, bool):
        raise ScenarioError(tuple(path), f'expected {what}, got {_shown(value)} (quote a name such as "yes" or "no")')
    if not isinstance(value, (str, int, float)) or not str(value).strip():
        raise ScenarioError(tuple(path), f"expected {what}, got {_shown(value)}")
    return str(value).strip()
