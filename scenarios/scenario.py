"""Loading scenario files (the format of ``shared/spec/scenarios.md``) with errors that name their line.

>>> import tempfile, os
>>> path = os.path.join(tempfile.mkdtemp(), "s.yaml")
>>> _ = open(path, "w").write("game: riftbound\\nplayers: [Ana, Ben]\\nactions:\\n  - Ana passes\\n  - ask: Ben passes\\n")
>>> s = load_scenario(path)
>>> s.game, s.actions, s.line_of(("actions", 1))
('riftbound', [('Ana passes', False), ('Ben passes', True)], 5)
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

import yaml
from rapidfuzz import process

from engine.core import ScenarioError
from rulebook import games
from rulebook.cards.scenario import CardLibrary, resolve
from rulebook.home import default_home
from rulebook.model import one_line
from scenarios.expectations import EXPECT_KEYS

if TYPE_CHECKING:
    from engine.core import ScenarioError
    from rulebook.cards.scenario import Library, LibraryCard, Resolution

# Keys the spec defines, plus this project's documented extensions (docs/scenarios.md).
TOP_LEVEL_KEYS = {
    "game",
    "book",
    "title",
    "players",
    "turn",
    "victory_score",
    "state",
    "cards",
    "actions",
    "expect",
    "costs",
    "edition",
    "description",
    "notes",
    "teams",
}


class ScenarioFileError(Exception):
    """One line for the judge: ``file:line: key path: what was expected``."""

    def __init__(self, path: str, line: int | None, where: str, message: str):
        where, message = one_line(where), one_line(message)  # they may quote the file's text
        self.file, self.line, self.where, self.message = path, line, where, message
        location = f"{path}:{line}" if line else path
        super().__init__(f"{location}: {where + ': ' if where else ''}{message}")


def format_path(path: tuple[str | int, ...]) -> str:
    """``("actions", 2)`` -> ``actions -> 3`` (list positions count from 1, as judges count)."""
    return " -> ".join(str(p + 1) if isinstance(p, int) else str(p) for p in path)


@dataclass
class Scenario:
    file: str
    data: dict[str, Any]  # as the file writes it
    lines: dict[tuple, int] = field(default_factory=dict)
    # The cards named from the card library written out for the engine, and that library: set by load_scenario.
    resolved: Resolution | None = None
    library: Library | None = None

    @property
    def engine_data(self) -> dict[str, Any]:
        """The scenario as the engine reads it: ``data`` with the cards the library gives written out."""
        return dict(self.resolved.data) if self.resolved is not None else self.data

    @property
    def library_cards(self) -> tuple[LibraryCard, ...]:
        """The cards taken from the library, in the order the file names them."""
        if self.resolved is None:
            return ()
        return tuple(sorted(self.resolved.cards, key=lambda c: self.line_of(c.named_at) or 0))

    @property
    def game(self) -> str:
        return self.data["game"]

    @property
    def book(self) -> str | None:
        return self.data.get("book")

    @property
    def title(self) -> str:
        return self.data.get("title") or Path(self.file).stem

    @property
    def actions(self) -> list[tuple[str, bool]]:
        return [_action(item) for item in self.data.get("actions") or []]

    @property
    def expect(self) -> list[dict[str, Any]]:
        return list(self.data.get("expect") or [])

    def line_of(self, path: tuple) -> int | None:
        """The line of the deepest part of ``path`` that the file has."""
        path = tuple(path)
        while path:
            if path in self.lines:
                return self.lines[path]
            path = path[:-1]
        return self.lines.get((), None)

    def error(self, path: tuple, message: str) -> ScenarioFileError:
        return ScenarioFileError(self.file, self.line_of(path), format_path(tuple(path)), message)

    def engine_error(self, exc: ScenarioError) -> ScenarioFileError:
        """An engine's :class:`engine.core.ScenarioError` as a line of this file: an error in what the library
        gave is said of the card and its sentence, at the place the card is named; an action naming a card
        nobody has says what the library has of that name."""
        path, message = tuple(exc.path), exc.message
        if self.resolved is not None:
            path, message = self.resolved.locate(path, message)
        if path[:1] == ("actions",):
            message = _library_hint(self, message)
        return self.error(path, message)


_NAMED = re.compile(r'^no [^"]*?named "([^"]+)"|^(.+?) has no definition: ')


def _library_hint(scenario: Scenario, message: str) -> str:
    """What the card library has of a name an action used and nobody has: the card (to be listed in a zone)
    or names near it. Nothing when no card of the game is loaded or the engine already suggests one."""
    library, m = scenario.library, _NAMED.match(message)
    if library is None or m is None or "did you mean" in message or not library.has_cards(scenario.game):
        return message
    name = (m.group(1) or m.group(2)).split("#", 1)[0].strip()
    card = library.card(scenario.game, name)
    if card is not None:
        return (
            f'{message} ("{card.name}" is a card of the {scenario.game} card library: name it in a hand, a deck '
            "or on the board to use it)"
        )
    near = ", ".join(f'"{n}"' for n in library.suggestions(scenario.game, name))
    return f"{message} (in the {scenario.game} card library: did you mean {near}?)" if near else message


def _action(item: Any) -> tuple[str, bool]:
    text = _sentence(item)
    if text.lower().startswith("ask:"):
        return text[4:].strip(), True
    return text, False


def _sentence(item: Any) -> str:
    """An action as one sentence. Unquoted YAML reads ``- Ana assigns damage: Jinx 2`` as a one-key
    mapping; it is the sentence the judge wrote, so it is put back together."""
    if isinstance(item, dict):
        ((key, value),) = item.items()
        return f"{key}: {_sentence(value)}"
    return str(item).strip()


def _one_sentence(item: Any) -> bool:
    """A sentence YAML read as a mapping: one key, whose value is text, a number, or again such a mapping
    (``- ask: Ana assigns damage: Jinx 2``)."""
    if isinstance(item, dict):
        return len(item) == 1 and all(_one_sentence(v) for v in item.values())
    return isinstance(item, (str, int, float)) and not isinstance(item, bool) and bool(str(item).strip())


# A scenario is a few hundred values at most a handful deep (the largest shipped: 283 values, 6 deep).
# YAML's aliases let a few lines stand for a billion values ("billion laughs") or for themselves, and a
# line of brackets nests thousands deep: past these bounds the text is refused, not expanded.
MAX_VALUES = 20_000
MAX_DEPTH = 32


class _TooLarge(Exception):
    def __init__(self, node: yaml.Node | yaml.Event, message: str):
        super().__init__(message)
        self.line, self.message = node.start_mark.line + 1, message


class _Loader(yaml.SafeLoader):
    """PyYAML's safe loader, composing no deeper than the bound: its scanner slows with every ``[`` left open
    (a line of 5,000 took 6 s to parse before ``_to_python`` could refuse it; bench/fuzz_readers.py found it),
    so a text nested past the bound is refused where the nesting passes it, the rest never scanned."""

    def __init__(self, stream: str):
        super().__init__(stream)
        self.depth = 0

    def compose_node(self, parent: yaml.Node | None, index: Any) -> yaml.Node | None:
        self.depth += 1
        try:
            # A list or mapping whose path has MAX_DEPTH + 1 keys: where _to_python refuses (a scalar there, a
            # mapping's key, nests nothing further).
            if self.depth > MAX_DEPTH + 1 and self.check_event(yaml.SequenceStartEvent, yaml.MappingStartEvent):
                raise _TooLarge(self.peek_event(), f"nested more than {MAX_DEPTH} deep")
            return super().compose_node(parent, index)
        finally:
            self.depth -= 1


def _to_python(node: yaml.Node, path: tuple, lines: dict[tuple, int], budget: list[int] | None = None) -> Any:
    budget = [MAX_VALUES] if budget is None else budget
    budget[0] -= 1
    if budget[0] < 0:
        raise _TooLarge(node, f"more than {MAX_VALUES} values (aliases counted as often as they are used)")
    if len(path) > MAX_DEPTH:
        raise _TooLarge(node, f"nested more than {MAX_DEPTH} deep")
    lines[path] = node.start_mark.line + 1
    if isinstance(node, yaml.MappingNode):
        out: dict[Any, Any] = {}
        for key_node, value_node in node.value:
            key = _to_python(key_node, path, {}, budget)
            if isinstance(key, (dict, list)):
                raise _TooLarge(key_node, "a key that is a mapping or a list: expected a name")
            out[key] = _to_python(value_node, path + (key,), lines, budget)
            lines[path + (key,)] = key_node.start_mark.line + 1
        return out
    if isinstance(node, yaml.SequenceNode):
        return [_to_python(child, path + (i,), lines, budget) for i, child in enumerate(node.value)]
    # Scalars: PyYAML's safe constructor decides the type (int, bool, null, str).
    try:
        return yaml.SafeLoader("").construct_object(node, deep=True)
    except ValueError as exc:  # a number of more digits than Python converts (4,300); a date of no calendar
        if "digits" in str(exc):
            raise _TooLarge(node, f"a number too large to read ({str(exc).split(';')[0]})") from None
        raise _TooLarge(node, f"cannot read the value {str(node.value)[:40]!r}: {exc}") from None


def load_scenario(path: str | Path, library: Library | None = None) -> Scenario:
    """Read and check the shape of a scenario file, and take the cards it names from the card library
    (``library``, a :class:`rulebook.cards.scenario.Library`; default: the one of ``$JUDGE_HOME``).
    Raises :class:`ScenarioFileError`."""
    name = str(path)
    try:
        text = Path(path).read_text(encoding="utf-8-sig")
    except FileNotFoundError:
        raise ScenarioFileError(name, None, "", "no such file") from None
    except (OSError, UnicodeDecodeError) as exc:
        raise ScenarioFileError(name, None, "", f"cannot read: {exc}") from None
    return read_scenario(text, name, library)


def _yaml_error(name: str, exc: yaml.YAMLError) -> ScenarioFileError:
    """PyYAML's error as one line with its line number (its text spans several, quoting the place)."""
    mark = getattr(exc, "problem_mark", None)
    problem = getattr(exc, "problem", None) or next(iter(str(exc).splitlines()), "") or type(exc).__name__
    return ScenarioFileError(name, mark.line + 1 if mark else None, "", f"not valid YAML: {' '.join(problem.split())}")


def read_scenario(text: str, name: str = "scenario", library: Library | None = None) -> Scenario:
    """A scenario from its YAML ``text`` (a ruling's stored scenario), its errors naming ``name``; as
    :func:`load_scenario`."""
    try:
        root = yaml.compose(text, Loader=_Loader)
    except _TooLarge as exc:
        raise ScenarioFileError(name, exc.line, "", f"not a scenario: {exc.message}") from None
    except RecursionError:
        raise ScenarioFileError(name, None, "", f"not valid YAML: nested more than {MAX_DEPTH} deep") from None
    except yaml.YAMLError as exc:
        raise _yaml_error(name, exc) from None
    if root is None:
        raise ScenarioFileError(name, None, "", "empty file: expected a scenario (game, players, actions)")
    lines: dict[tuple, int] = {}
    try:
        data = _to_python(root, (), lines)
    except yaml.YAMLError as exc:  # a tag no safe constructor knows ("<<" merge keys, !!python/...)
        raise _yaml_error(name, exc) from None
    except _TooLarge as exc:
        raise ScenarioFileError(name, exc.line, "", f"not a scenario: {exc.message}") from None
    scenario = Scenario(name, data if isinstance(data, dict) else {}, lines)
    if not isinstance(data, dict):
        raise scenario.error((), "expected a mapping with game, players, actions")
    _check_shape(scenario)
    _take_library_cards(scenario, library)
    return scenario


def _take_library_cards(scenario: Scenario, library: Library | None) -> None:

    if library is None:
        library = CardLibrary(default_home())
    scenario.library = library
    try:
        scenario.resolved = resolve(scenario.data, library)
    except ScenarioError as exc:
        raise scenario.error(exc.path, exc.message) from None


def _check_shape(s: Scenario) -> None:

    data = s.data
    for key in data:
        if key not in TOP_LEVEL_KEYS:
            guess = process.extractOne(str(key), sorted(TOP_LEVEL_KEYS), score_cutoff=60)
            hint = f' (did you mean "{guess[0]}"?)' if guess else ""
            raise s.error((key,), f"unknown key{hint}; expected one of {', '.join(sorted(TOP_LEVEL_KEYS))}")
    if "game" not in data:
        raise s.error((), f"missing key game: expected {' or '.join(games.names())}")
    if data["game"] not in games.names():
        raise s.error(("game",), str(games.UnknownGame(str(data["game"]), ())))
    book = data.get("book")
    if isinstance(book, int) and not isinstance(book, bool):
        data["book"] = book = str(book)  # a numeric id, as typed
    if book is not None and not (isinstance(book, str) and book.split() == [book]):
        raise s.error(("book",), "expected the id of a loaded book (one word, such as riftbound or mtg)")
    edition = data.get("edition")
    if edition is not None and (isinstance(edition, (bool, list, dict)) or not str(edition).strip()):
        raise s.error(("edition",), "expected an edition, such as 2026-02-27 (mtg) or v1.2 (riftbound)")
    players = data.get("players")
    if (
        not isinstance(players, list)
        or len(players) < 2
        or not all(isinstance(p, str) and p.split() == [p] for p in players)
    ):
        raise s.error(("players",), "expected a list of at least two single-word player names, in turn order")
    actions = data.get("actions")
    if actions is None:
        data["actions"] = []
    elif not isinstance(actions, list):
        raise s.error(("actions",), "expected a list of action sentences")
    for i, item in enumerate(data["actions"]):
        if isinstance(item, dict):
            if not _one_sentence(item):
                raise s.error(("actions", i), "expected a sentence or {ask: sentence}")
        elif not isinstance(item, str) or not item.strip():
            raise s.error(("actions", i), "expected a sentence such as 'Ana passes'")
    expect = data.get("expect")
    if expect is not None and not isinstance(expect, list):
        raise s.error(("expect",), "expected a list of expectations")
    for i, item in enumerate(expect or []):
        if not isinstance(item, dict) or not ({"after", "end"} & set(item)):
            raise s.error(("expect", i), "expected a mapping with after: N or end: true")

        for key in item:
            if key not in EXPECT_KEYS:
                guess = process.extractOne(str(key), sorted(EXPECT_KEYS), score_cutoff=60)
                hint = f' (did you mean "{guess[0]}"?)' if guess else ""
                raise s.error(("expect", i, key), f"unknown expectation key{hint}")
        after = item.get("after")
        if after is not None and (not isinstance(after, int) or not 1 <= after <= len(data["actions"])):
            raise s.error(("expect", i, "after"), f"expected an action number from 1 to {len(data['actions'])}")
