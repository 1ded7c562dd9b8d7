"""Conditions a card's text names ("if no spells were cast last turn", "as long as you control three or
more artifacts"), read in parts into a check the engine makes of the game.

A condition is read by a table (:data:`_ROWS`), one row per shape of words: the words, and how to make the
check of them (a count of :mod:`engine.mtg.counts` compared with a number, the spells cast last turn, a
player's life). ``If CONDITION, EFFECT`` is one instruction (:func:`read_if`); at the start of a triggered
ability it is an intervening "if" (603.4), checked as the ability would trigger and again as it resolves.

>>> read_if("if no spells were cast last turn, transform ~")
('no spells were cast last turn', 'transform ~')
>>> read_if("if you do, draw a card") is None
True
>>> read_condition("you control three or more artifacts").said_as
'you control three or more artifacts'
>>> read_condition("you control a Swamp") is not None, read_condition("you control a swamp") is None
(True, True)
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from functools import cache
from typing import TYPE_CHECKING, Any

from engine.mtg.counts import Count, counted, counts_permanent, read_count

if TYPE_CHECKING:  # the state is read here, never built
    from engine.mtg.state import State


@dataclass(frozen=True)
class Condition:
    said_as: str  # the condition in the card's words
    test: Callable[[State, str], bool]  # (the game, the player whose ability it is) -> whether it is true
    now: Callable[[State, str], str]  # how it stands now, in words
    # a condition of the ability's own permanent ("~ is attacking"): (the game, the permanent) -> true?
    own: Callable[[State, Any], bool] | None = None

    def holds(self, s: State, me: str, source: Any = None) -> bool:
        """Whether it is true for the player whose ability it is (``source``: the ability's permanent)."""
        if self.own is not None:
            return source is not None and self.own(s, source)
        return self.test(s, me)

    def said(self, s: State, me: str, source: Any = None) -> str:
        if self.own is not None:
            return f"{getattr(source, 'name', 'it')} {'does' if self.holds(s, me, source) else 'does not'}"
        return self.now(s, me)


_NUMBERS = {
    "one": 1,
    "two": 2,
    "three": 3,
    "four": 4,
    "five": 5,
    "six": 6,
    "seven": 7,
    "eight": 8,
    "nine": 9,
    "ten": 10,
}
_NUMBER = r"(\d+|one|two|three|four|five|six|seven|eight|nine|ten)"


def _n(word: str) -> int:
    return _NUMBERS[word] if word in _NUMBERS else int(word)


def _cast(s: State, which: int) -> dict[str, int]:
    """Spells each player cast this turn (``which`` 0) or last turn (1)."""
    return dict(s.spells_cast[which])


def _last_turn(s: State, me: str) -> str:
    cast = _cast(s, 1)
    return "last turn " + ", ".join(f"{p} cast {cast.get(p, 0)}" for p in s.players)


def _counted(words: str, count: Count, least: int, most: int | None) -> Condition:
    def holds(s: State, me: str) -> bool:
        n = counted(s, me, count)
        return n >= least and (most is None or n <= most)

    return Condition(words, holds, lambda s, me: f"{counted(s, me, count)}: {count.said()}")


def _control(words: str, m: re.Match[str] | _Merged) -> Condition | None:
    """``you control a Swamp``, ``you control three or more artifacts``, ``... two or fewer ...``."""
    if m["article"]:
        kind = m["kind"]
        count = read_count(f"the number of {kind}s you control")
        return _counted(words, count, 1, None) if count else None
    count = read_count(f"the number of {m['kind']} you control")
    if count is None:
        return None
    n = _n(m["n"])
    return _counted(words, count, n, None) if m["bound"] == "more" else _counted(words, count, 0, n)


def _none(words: str, kind: str) -> Condition | None:
    """``you control no artifacts``: a count of none."""
    count = read_count(f"the number of {kind} you control")
    return _counted(words, count, 0, 0) if count else None


def _another(words: str, kind: str) -> Condition | None:
    """``you control another Spirit``: one besides the ability's own permanent."""
    count = read_count(f"the number of {kind}s you control")
    if count is None:
        return None

    def own(s: State, source: Any) -> bool:
        return any(p is not source and counts_permanent(p, count, [source.controller]) for p in s.battlefield)

    return Condition(words, lambda s, me: False, lambda s, me: "", own=own)


def _life(words: str, m: re.Match[str]) -> Condition:
    n, less = _n(m["n"]), m["bound"] == "less"
    return Condition(
        words,
        lambda s, me: s.life[me] <= n if less else s.life[me] >= n,
        lambda s, me: f"{me} has {s.life[me]} life",
    )


def _own(words: str, test: Callable[[State, Any], bool]) -> Condition:
    return Condition(words, lambda s, me: False, lambda s, me: "", own=test)


_TYPES = ("artifact", "creature", "enchantment", "instant", "land", "planeswalker", "sorcery", "tribal")


def _types_in_graveyard(s: State, me: str) -> set[str]:
    out: set[str] = set()
    for card in s.graveyard[me]:
        d = s.definition(card.name)
        out |= set(d.types) & set(_TYPES) if d is not None else set()
    return out


def _card_types(words: str, m: re.Match[str]) -> Condition:
    n = _n(m["n"])
    return Condition(
        words,
        lambda s, me: len(_types_in_graveyard(s, me)) >= n,
        lambda s, me: f"{len(_types_in_graveyard(s, me))}: {', '.join(sorted(_types_in_graveyard(s, me))) or 'none'}",
    )


_COLOURS = {"white": "W", "blue": "U", "black": "B", "red": "R", "green": "G"}


def _coloured(words: str, m: re.Match[str]) -> Condition:
    wanted = {_COLOURS[c] for c in (m["c1"], m["c2"]) if c}

    def test(s: State, me: str) -> bool:
        return any(p.controller == me and p.card.colours & wanted for p in s.battlefield)

    return Condition(words, test, lambda s, me: f"{me} {'does' if test(s, me) else 'does not'}")


def _happened(words: str, event: Callable[[str], str], negated: bool = False) -> Condition:
    """A condition on what happened this turn (:func:`note` records it), or on its not happening."""
    return Condition(
        words,
        lambda s, me: (event(me) in s.happened) != negated,
        lambda s, me: "it did" if event(me) in s.happened else "it did not",
    )


def _whose_turn(s: State, me: str) -> str:
    return f"it is {s.turn_player}'s turn"


# One row per shape of condition: its words (a regular expression, matched whole against the words as
# written, so a subtype keeps its capital), and what makes the check of them.
_ROWS: tuple[tuple[re.Pattern[str], Callable[[str, re.Match[str]], Condition | None]], ...] = tuple(
    (re.compile(p, re.I if flags else 0), make)
    for p, flags, make in (
        (
            r"no spells were cast last turn",
            True,
            lambda w, m: Condition(w, lambda s, me: not any(_cast(s, 1).values()), _last_turn),
        ),
        (
            r"a player cast two or more spells last turn",
            True,
            lambda w, m: Condition(w, lambda s, me: any(n >= 2 for n in _cast(s, 1).values()), _last_turn),
        ),
        (
            rf"you control (?:(?P<article>an?) (?P<kind>[A-Za-z-]+)|(?P<n>{_NUMBER.strip('()')}) or (?P<bound>more|fewer) "
            r"(?P<kind2>[A-Za-z-]+))",
            False,
            lambda w, m: _control(w, _Merged(m)),
        ),
        (r"you control no (?P<kind>[A-Za-z-]+)", False, lambda w, m: _none(w, m["kind"])),
        (r"you control another (?P<kind>[A-Za-z-]+)", False, lambda w, m: _another(w, m["kind"])),
        (rf"you have (?P<n>{_NUMBER.strip('()')}) or (?P<bound>less|more) life", True, _life),
        (r"(?:~|it) is attacking|it's attacking", True, lambda w, m: _own(w, lambda s, p: p.attacking)),
        (r"(?:~|it) is tapped", True, lambda w, m: _own(w, lambda s, p: p.tapped)),
        (r"(?:~|it) is untapped", True, lambda w, m: _own(w, lambda s, p: not p.tapped)),
        (
            r"(?:~|it) has an? (?P<kind>[+-]1/[+-]1|[a-z]+) counter on it",
            True,
            lambda w, m: _own(w, lambda s, p: p.counters.get(m["kind"], 0) > 0),
        ),
        (
            rf"there are (?P<n>{_NUMBER.strip('()')}) or more card types among cards in your graveyard",
            True,
            _card_types,
        ),
        (
            r"you control an? (?P<c1>white|blue|black|red|green)(?: or (?P<c2>white|blue|black|red|green))? permanent",
            True,
            _coloured,
        ),
        (r"a creature died this turn", True, lambda w, m: _happened(w, lambda me: "died")),
        (
            r"you attacked(?: with a creature)? this turn",
            True,
            lambda w, m: _happened(w, lambda me: f"attacked:{me}"),
        ),
        (
            r"you didn't attack(?: with a creature)? this turn",
            True,
            lambda w, m: _happened(w, lambda me: f"attacked:{me}", negated=True),
        ),
        (
            r"a permanent you controlled left the battlefield this turn",
            True,
            lambda w, m: _happened(w, lambda me: f"left:{me}"),
        ),
        (r"it's your turn", True, lambda w, m: Condition(w, lambda s, me: s.turn_player == me, _whose_turn)),
        (r"it's not your turn", True, lambda w, m: Condition(w, lambda s, me: s.turn_player != me, _whose_turn)),
        (
            r"you have no cards in hand",
            True,
            lambda w, m: Condition(w, lambda s, me: not s.hand[me], lambda s, me: f"{me} has {len(s.hand[me])}"),
        ),
        (
            r"you have the city's blessing",
            True,
            lambda w, m: Condition(
                w, lambda s, me: blessed(s, me), lambda s, me: f"{me} {'has' if blessed(s, me) else 'does not have'} it"
            ),
        ),
    )
)


class _Merged:
    """A match of the ``you control`` row, its two spellings of the kind read as one."""

    def __init__(self, m: re.Match[str]):
        self.m = m

    def __getitem__(self, key: str) -> str:
        if key == "kind":
            return self.m["kind"] or self.m["kind2"]
        return self.m[key]


@cache
def read_condition(words: str) -> Condition | None:
    """The check ``words`` name (as written, or lower case where no subtype is named), or None."""
    words = " ".join(words.split()).rstrip(".")
    for pattern, make in _ROWS:
        m = pattern.fullmatch(words) or pattern.fullmatch(words[:1].lower() + words[1:])
        if m:
            return make(words, m)
    return None


def read_if(text: str) -> tuple[str, str] | None:
    """(the condition's words, the rest of the sentence) of ``if CONDITION, EFFECT``, or None when it is not
    one the engine checks."""
    m = re.match(r"^if ([^,]+), (.+)$", text, re.I)
    found = read_condition(m[1]) if m is not None else None
    if m is None or found is None:
        return None
    if found.own is not None and re.match(r"it\b", m[1], re.I):
        return None  # "if it ...": what "it" is here (a trigger's subject?) is not read
    return m[1], m[2]


def condition(words: str) -> Condition:
    found = read_condition(words)
    assert found is not None, words
    return found


def spell_cast(s: State, player: str) -> None:
    """``player`` cast a spell: counted for this turn (for the conditions that ask about spells cast)."""
    now = dict(s.spells_cast[0])
    now[player] = now.get(player, 0) + 1
    s.spells_cast = (tuple(sorted(now.items())), s.spells_cast[1])


def turn_passes(s: State) -> None:
    """A new turn: this turn's spells become last turn's, and nothing has happened this turn yet."""
    s.spells_cast = ((), s.spells_cast[0])
    s.happened = frozenset()


def note(s: State, *events: str) -> None:
    """Events of this turn the conditions ask about: "died" (a creature died), "attacked:P" (P attacked with
    a creature), "left:P" (a permanent P controlled left the battlefield)."""
    s.happened = s.happened | set(events)


# -- the city's blessing (702.131) --------------------------------------------------------------------------
BLESSING_AT = 10  # permanents a player with ascend controls to get the city's blessing


def ascends(s: State, player: str) -> bool:
    """Whether ``player`` controls a permanent with ascend and ten or more permanents (702.131b)."""
    mine = [p for p in s.battlefield if p.controller == player]
    return len(mine) >= BLESSING_AT and any("ascend" in p.card.keywords for p in mine)


def blessed(s: State, player: str) -> bool:
    """Whether ``player`` has the city's blessing: got it earlier (for the rest of the game), or gets it now
    (a permanent's ascend applies at any time, 702.131b)."""
    return player in s.blessed or ascends(s, player)


def bless(s: State) -> list[str]:
    """The players who get the city's blessing now through a permanent's ascend, who keep it for the rest of
    the game (702.131b-c): the words of each."""
    out = []
    for player in s.players:
        if player not in s.blessed and ascends(s, player):
            s.blessed = s.blessed | {player}
            n = len([p for p in s.battlefield if p.controller == player])
            out.append(
                f"{player} controls {n} permanents and a permanent with ascend: {player} gets the city's "
                "blessing for the rest of the game"
            )
    return out
