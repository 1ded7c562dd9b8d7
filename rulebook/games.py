"""The games rules-judge knows: each described once, found by name (as python-chess finds its variants).

A :class:`Game` says how its documents number rules (:class:`Numbering`), how to tell its documents
from another game's, which reader reads them and which function finds its rule references, whether
its rules define terms, its seed book, its reference engine and where its citation tables are. Every
module that behaves differently per game asks the description, never the game's name:

>>> get("mtg").numbering.compact, get("riftbound").numbering.compact
(True, False)
>>> names()
('riftbound', 'mtg')

A new game is one :func:`register` call (``tests/test_game_registry.py`` registers a toy game and
explains a scenario of it, editing no other module). Readers, reference extraction and engines are
named ``"module:function"`` and imported when first used, so knowing the games costs no start-up.
"""

from __future__ import annotations

import importlib
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from difflib import get_close_matches
from pathlib import Path
from typing import Any


@dataclass(frozen=True, slots=True)
class Numbering:
    """How a game's documents write rule numbers."""

    compact: bool  # letters glued to the number (Magic 601.2c), not dotted parts (Riftbound 312.2.b.1)
    skipped_letters: str = ""  # letters never used as a rule letter (Magic: l and o read as 1 and 0)
    parts: bool = False  # a section lies in a part named by its first digit (Magic's 601 in part 6);
    # otherwise a section lies under its hundred's heading rule (Riftbound's 312 under 300)
    sibling_headings: bool = False  # heading rules head the rules that follow them, as siblings

    def letters(self) -> list[str]:
        """The letters a sub-rule may take, in order."""
        return [c for c in "abcdefghijklmnopqrstuvwxyz" if c not in self.skipped_letters]


@dataclass(frozen=True, slots=True)
class Game:
    """One game's description. Callables may be given as ``"module:function"``, imported on first use."""

    name: str  # as books, scenarios and --game write it
    title: str
    numbering: Numbering
    seed_book: str  # the built-in book answering when no book of the game is loaded
    # (lines, source, kind) -> rulebook.model.Document, for kind "rules" or "glossary"
    reader: str | Callable[..., Any]
    # text -> list[rulebook.references.RawRef]: the game's own ways of citing a rule
    references: str | Callable[..., Any]
    # lines -> how strongly a text reads as this game's (the highest wins; a tie goes to the first registered)
    detect: str | Callable[[list[str]], float]
    engine: str | Any = None  # module (or its name) offering new_game(scenario data, citations), or None
    terms_from_rules: bool = False  # rules define terms ("A Showdown is ..."): Riftbound's have no glossary
    citations: Path | None = None  # folder of its citation tables "<name>-<edition>.yaml" (default: data/citations)
    timeline: Path | None = None  # its rules changed over time (default: data/editions/<name>.yaml)
    _resolved: dict[str, Any] = field(default_factory=dict, repr=False, compare=False)

    def call(self, role: str, *args: Any) -> Any:
        """Call the ``role`` function (``reader``, ``references``, ``detect``) with ``args``."""
        fn = self._resolved.get(role)
        if fn is None:
            fn = self._resolved[role] = _resolve(getattr(self, role))
        return fn(*args)

    def engine_module(self) -> Any:
        """The engine's module (its ``new_game(data, citations)`` builds a game)."""
        if self.engine is None:
            raise LookupError(f"{self.name} has no reference engine")
        return importlib.import_module(self.engine) if isinstance(self.engine, str) else self.engine


class UnknownGame(LookupError):
    """A game no description is registered for; ``suggestions`` holds the closest names."""

    def __init__(self, name: str, suggestions: tuple[str, ...]):
        self.name, self.suggestions = name, suggestions
        hint = f' (did you mean "{suggestions[0]}"?)' if suggestions else ""
        super().__init__(f"unknown game {name!r}{hint}: expected {' or '.join(names())}")


_GAMES: dict[str, Game] = {}


def register(game: Game) -> Game:
    """Make ``game`` known to every command (a description registered again replaces the old one)."""
    _GAMES[game.name] = game
    return game


def unregister(name: str) -> None:
    _GAMES.pop(name, None)


def get(name: str) -> Game:
    """The game called ``name``; raises :class:`UnknownGame` with "did you mean"."""
    try:
        return _GAMES[name]
    except KeyError:
        raise UnknownGame(str(name), tuple(get_close_matches(str(name), list(_GAMES), n=1, cutoff=0.5))) from None


def names() -> tuple[str, ...]:
    return tuple(_GAMES)


def games() -> tuple[Game, ...]:
    return tuple(_GAMES.values())


def detect(lines: list[str]) -> str:
    """The game whose documents ``lines`` read like most."""
    best, score = None, float("-inf")
    for game in _GAMES.values():
        s = game.call("detect", lines)
        if s > score:
            best, score = game.name, s
    assert best is not None, "no game is registered"
    return best


def _resolve(target: str | Callable[..., Any]) -> Callable[..., Any]:
    if callable(target):
        return target
    module, _, attr = target.partition(":")
    return getattr(importlib.import_module(module), attr)


# How a text shows its game, for the two built-in games.
_RIFTBOUND_WORDS = re.compile(r"\b(Riftbound|Showdown|Battlefield|Legend|Rune|Chain|Might|Focus)\b", re.I)
_MTG_WORDS = re.compile(r"\b(Magic: The Gathering|mana|stack|creature|planeswalker|graveyard|library)\b", re.I)
_DOTTED = re.compile(r"^\s*\d{3}\.\d+\.[a-z]\.")  # 303.2.a. : letters written as dotted parts


def _riftbound_words(lines: list[str]) -> float:
    if any(_DOTTED.match(line) for line in lines[:3000]):
        return float("inf")
    # less than Magic's on a tie: a text with neither game's words is read as Magic's
    return len(_RIFTBOUND_WORDS.findall("\n".join(lines[:3000]))) - 0.5


def _mtg_words(lines: list[str]) -> float:
    return len(_MTG_WORDS.findall("\n".join(lines[:3000])))


register(
    Game(
        "riftbound",
        "Riftbound",
        Numbering(compact=False, sibling_headings=True),
        seed_book="riftbound",
        reader="rulebook.readers.riftbound:read",
        references="rulebook.references:riftbound_references",
        detect=_riftbound_words,
        engine="engine.riftbound",
        terms_from_rules=True,
    )
)
register(
    Game(
        "mtg",
        "Magic: The Gathering",
        Numbering(compact=True, skipped_letters="lo", parts=True),
        seed_book="mtg",
        reader="rulebook.readers.mtg:read",
        references="rulebook.references:mtg_references",
        detect=_mtg_words,
        engine="engine.mtg",
    )
)
