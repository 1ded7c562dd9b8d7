"""Action sentences: ``Ana plays Gust targeting Garen`` -> :class:`Play`.

Names are matched case-insensitively and whole, the longest known name first, so names with spaces
(``Hidden Blade``) and with commas need no quoting.

>>> names = Names(players=["Ana", "Ben"], objects=["Hidden Blade", "Jinx", "Garen"], places=["Grove"])
>>> parse("Ben plays Hidden Blade targeting Jinx", names)
Play(player='Ben', card='Hidden Blade', place=None, targets=('Jinx',), paying=(), kill=None, using=None)
>>> parse("ana moves jinx, garen to grove", names)
Move(player='Ana', units=('Jinx', 'Garen'), place='Grove')
>>> parse("Ben assigns damage: Jinx 2, Garen 1", names)
Assign(player='Ben', damage=(('Jinx', 2), ('Garen', 1)))
>>> parse("Ben orders replacements: Hidden Blade, Jinx", names)
Order(player='Ben', sources=('Hidden Blade', 'Jinx'))
>>> parse("Ben plays Jinks", names)
Traceback (most recent call last):
...
engine.core.ScenarioError: no card or object named "Jinks" (did you mean "Jinx"?)
>>> parse("Ben casts Hidden Blade targeting Jinx", names)  # doctest: +ELLIPSIS
Traceback (most recent call last):
...
engine.core.ScenarioError: cannot read the action "Ben casts Hidden Blade targeting Jinx" (did you mean "plays"? "casts" is Magic's word; Riftbound says "plays"); actions: ...
"""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass, field

from engine.core import ScenarioError, suggest


@dataclass(frozen=True)
class Play:
    player: str
    card: str
    place: str | None = None
    targets: tuple[str, ...] = ()
    paying: tuple[str, ...] = ()  # optional additional costs paid: Accelerate, Repeat
    kill: str | None = None  # the unit killed to pay an additional cost ("killing Vi")
    using: str | None = None  # the unit an optional additional cost uses ("paying additional cost using Vi")


@dataclass(frozen=True)
class Activate:
    player: str
    obj: str
    place: str | None = None
    targets: tuple[str, ...] = ()
    equip: bool = False  # ``P equips GEAR to UNIT``: its Equip ability (744)
    deflect: bool = False  # ``paying Deflect`` said (the cost is mandatory and paid anyway, 735.1.c)


@dataclass(frozen=True)
class Answer:
    """``P accepts`` / ``P declines``: a "you may" the rules ask about as it resolves."""

    player: str
    yes: bool


@dataclass(frozen=True)
class Runes:
    """``P exhausts a rune`` (add [1]) or ``P recycles an exhausted Fury rune`` (add its power): 160.2."""

    player: str
    verb: str  # exhaust | recycle
    count: int = 1
    domain: str | None = None
    state: str | None = None  # ready | exhausted


@dataclass(frozen=True)
class Move:
    player: str
    units: tuple[str, ...]
    place: str


@dataclass(frozen=True)
class Hide:
    player: str
    card: str
    place: str


@dataclass(frozen=True)
class Pass:
    player: str


@dataclass(frozen=True)
class EndTurn:
    player: str


@dataclass(frozen=True)
class Choose:
    """``P chooses BATTLEFIELD`` (where a staged showdown or combat begins) or ``P chooses X[, Y]`` (a
    triggered ability's targets, as it is put on the Chain)."""

    player: str
    choices: tuple[str, ...]

    @property
    def place(self) -> str:
        return self.choices[0]


@dataclass(frozen=True)
class Assign:
    player: str
    damage: tuple[tuple[str, int], ...]


@dataclass(frozen=True)
class Order:
    """``P orders replacements: A, B``: the order replacement effects apply in (368), by their objects' names."""

    player: str
    sources: tuple[str, ...]


Action = Play | Activate | Move | Hide | Pass | EndTurn | Choose | Assign | Order | Answer | Runes

FORMS = (
    "P plays CARD [to PLACE] [targeting X[, Y]] [paying Accelerate|Repeat|Deflect|additional cost] [killing UNIT] [using UNIT]",
    "P moves U[, U2...] to PLACE",
    "P hides CARD at BATTLEFIELD",
    "P activates OBJECT [to PLACE] [targeting X] [paying Deflect]",
    "P equips GEAR to UNIT",
    "P passes",
    "P ends turn",
    "P chooses BATTLEFIELD",
    "P chooses X[, Y]",
    "P assigns damage: U 2, V 1",
    "P orders replacements: A, B",
    "P accepts",
    "P declines",
    "P exhausts N runes",
    "P recycles a [DOMAIN] rune",
)
_VERBS = (
    "plays",
    "moves",
    "hides",
    "activates",
    "equips",
    "passes",
    "ends",
    "chooses",
    "assigns",
    "orders",
    "accepts",
    "declines",
    "pays",
    "exhausts",
    "recycles",
)
#: Magic's verbs a judge who knows Magic types, and the Riftbound verb for the same thing: suggested
#: instead of the closest spelling ("casts" is not a misspelt "exhausts").
MAGIC_VERBS = {
    "casts": "plays",  # a spell is played (Riftbound never casts)
    "taps": "exhausts",  # a rune is exhausted for energy (160.2)
    "attacks": "moves",  # combat begins when units move to a battlefield an opponent holds
}
_DOMAINS = ("fury", "calm", "mind", "body", "chaos", "order")


@dataclass
class Names:
    players: list[str]
    objects: list[str]  # cards and chain items, as written
    places: list[str]  # battlefields (``base`` is added)
    _all: list[str] = field(default_factory=list)

    def __post_init__(self) -> None:
        self.places = [*self.places, "base"]


@functools.lru_cache(maxsize=256)
def _longest_first(candidates: tuple[str, ...]) -> tuple[tuple[str, str], ...]:
    """The candidates, longest first, each with its lower case."""
    return tuple((cand, cand.lower()) for cand in sorted(candidates, key=len, reverse=True))


def _take(text: str, candidates: list[str]) -> tuple[str | None, str]:
    """The longest candidate that ``text`` starts with (followed by a boundary), and the rest."""
    low = text.lower()
    for cand, c in _longest_first(tuple(candidates)):
        if low.startswith(c) and (len(low) == len(c) or not (low[len(c)].isalnum() or low[len(c)] == "#")):
            return cand, text[len(cand) :]
    return None, text


def _name(text: str, candidates: list[str], what: str) -> tuple[str, str]:
    name, rest = _take(text.strip(), candidates)
    if name is None:
        word = re.split(r"\s+(?:to|targeting|at)\s+|,", text.strip(), maxsplit=1)[0]
        raise ScenarioError((), f'no {what} named "{word}"{suggest(word, candidates)}')
    return name, rest


_AND = re.compile(r"^\s*(?:,\s*(?:and\s+)?|\s+and\s+)")  # between two names: ", ", ", and ", " and "


def _names(text: str, candidates: list[str], what: str) -> tuple[tuple[str, ...], str]:
    out = []
    name, rest = _name(text, candidates, what)
    out.append(name)
    while True:
        m = _AND.match(rest)
        if not m:
            return tuple(out), rest
        name, rest = _name(rest[m.end() :], candidates, what)
        out.append(name)


def _tail(
    rest: str, names: Names, sentence: str
) -> tuple[str | None, tuple[str, ...], tuple[str, ...], str | None, str | None]:
    """``[to PLACE] [targeting X, Y] [paying Accelerate] [killing U] [using U]`` in any order."""
    place: str | None = None
    targets: tuple[str, ...] = ()
    paying: tuple[str, ...] = ()
    kill: str | None = None
    using: str | None = None
    rest = rest.strip()
    while rest:
        low = rest.lower()
        if low.startswith("to "):
            place, rest = _name(rest[3:], names.places, "battlefield")
        elif low.startswith("targeting "):
            targets, rest = _names(rest[10:], names.objects, "card or object")
        elif low.startswith("paying "):
            found, rest = _names(
                rest[7:], ["Accelerate", "Repeat", "Deflect", "additional cost"], "optional or additional cost"
            )
            paying = (*paying, *found)
        elif low.startswith("killing "):
            kill, rest = _name(rest[8:], names.objects, "card or object")
        elif low.startswith("using "):
            using, rest = _name(rest[6:], names.objects, "card or object")
        else:
            raise ScenarioError(
                (),
                f'cannot read "{rest}" in "{sentence}"; expected "to PLACE", "targeting X", '
                '"paying Accelerate|Repeat|Deflect|additional cost", "killing UNIT" or "using UNIT"',
            )
        rest = rest.strip()
    return place, targets, paying, kill, using


def parse(sentence: str, names: Names) -> Action:
    text = " ".join(str(sentence).split()).rstrip(".")
    player, rest = _take(text, names.players)
    if player is None:
        word = text.split(" ", 1)[0]
        raise ScenarioError(
            (), f'no player named "{word}"{suggest(word, names.players)}; a sentence starts with the acting player'
        )
    rest = rest.strip()
    verb, _, rest = rest.partition(" ")
    verb = verb.lower()
    if verb == "plays":
        card, tail = _name(rest, names.objects, "card or object")
        place, targets, paying, kill, using = _tail(tail, names, text)
        return Play(player, card, place, targets, paying, kill, using)
    if verb == "activates":
        obj, tail = _name(rest, names.objects, "card or object")
        place, targets, paying, kill, using = _tail(tail, names, text)
        if set(paying) - {"Deflect"} or kill or using:
            raise ScenarioError(
                (), f'"{text}": an ability\'s costs are paid as it is activated; drop "paying"/"killing"'
            )
        return Activate(player, obj, place, targets, deflect="Deflect" in paying)
    if verb == "equips":
        gear, tail = _name(rest, names.objects, "card or object")
        if not tail.strip().lower().startswith("to "):
            raise ScenarioError((), f'"{text}": write "{player} equips {gear} to UNIT"')
        unit, tail = _name(tail.strip()[3:], names.objects, "card or object")
        if tail.strip():
            raise ScenarioError((), f'cannot read "{tail.strip()}" in "{text}"')
        return Activate(player, gear, None, (unit,), equip=True)
    if verb in ("accepts", "pays") and not rest:
        return Answer(player, True)
    if (verb == "declines" and not rest) or (verb == "does" and rest.lower() == "not pay"):
        return Answer(player, False)
    if verb in ("exhausts", "recycles"):
        m = re.match(
            r"^(?P<n>a|an|one|two|three|four|\d+)\s+(?:(?P<state>ready|exhausted)\s+)?(?:(?P<domain>[a-z]+)\s+)?runes?$",
            rest.lower(),
        )
        if not m or (m.group("domain") and m.group("domain") not in _DOMAINS):
            raise ScenarioError(
                (),
                f'"{text}": write "{player} {verb} a rune", "{player} {verb} 2 runes" or '
                f'"{player} {verb} an exhausted Fury rune"',
            )
        n = {"a": 1, "an": 1, "one": 1, "two": 2, "three": 3, "four": 4}.get(m.group("n")) or int(m.group("n"))
        domain = m.group("domain").capitalize() if m.group("domain") else None
        return Runes(player, "exhaust" if verb == "exhausts" else "recycle", n, domain, m.group("state"))
    if verb == "moves":
        units, tail = _names(rest, names.objects, "card or object")
        if not tail.strip().lower().startswith("to "):
            raise ScenarioError((), f'"{text}": say where to: "{player} moves {", ".join(units)} to PLACE"')
        place, tail = _name(tail.strip()[3:], names.places, "battlefield")
        if tail.strip():
            raise ScenarioError((), f'cannot read "{tail.strip()}" in "{text}"')
        return Move(player, units, place)
    if verb == "hides":
        card, tail = _name(rest, names.objects, "card or object")
        if not tail.strip().lower().startswith("at "):
            raise ScenarioError((), f'"{text}": say where: "{player} hides {card} at BATTLEFIELD"')
        place, tail = _name(tail.strip()[3:], names.places, "battlefield")
        return Hide(player, card, place)
    if verb == "passes" and not rest:
        return Pass(player)
    if verb == "ends" and rest.lower() in ("turn", "their turn", "the turn", "his turn", "her turn"):
        return EndTurn(player)
    if verb == "chooses":
        if rest.strip().lower() in ("nothing", "none", "no target", "no targets"):
            return Choose(player, ("nothing",))
        chosen, tail = _names(rest, [*names.places, *names.objects], "battlefield, card or object")
        if tail.strip():
            raise ScenarioError((), f'cannot read "{tail.strip()}" in "{text}"')
        return Choose(player, chosen)
    if verb == "assigns":
        m = re.match(r"^(?:combat )?damage\s*:?\s*(.*)$", rest, re.I)
        if not m or not m.group(1):
            raise ScenarioError((), f'"{text}": write "{player} assigns damage: U 2, V 1"')
        out = []
        rest = m.group(1)
        while rest.strip():
            name, rest = _name(rest, names.objects, "card or object")
            mm = re.match(r"^\s*:?\s*(\d+)\s*(?:,\s*(?:and\s+)?|\s+and\s+|$)", rest)
            if not mm:
                raise ScenarioError((), f'cannot read "{rest.strip()}" in "{text}"; write "UNIT N, UNIT N"')
            out.append((name, int(mm.group(1))))
            rest = rest[mm.end() :]
        return Assign(player, tuple(out))
    if verb == "orders":
        m = re.match(r"^(?:the )?replacements?(?: effects?)?\s*:?\s*(.*)$", rest, re.I)
        if not m or not m.group(1):
            raise ScenarioError(
                (), f'"{text}": write "{player} orders replacements: A, B" (the objects, first applies first)'
            )
        sources, tail = _names(m.group(1), names.objects, "card or object")
        if tail.strip():
            raise ScenarioError((), f'cannot read "{tail.strip()}" in "{text}"')
        return Order(player, sources)
    raise ScenarioError((), f'cannot read the action "{text}"{_suggest_verb(verb)}; actions: {"; ".join(FORMS)}')


def _suggest_verb(verb: str) -> str:
    """`` (did you mean "plays"? ...)``: Riftbound's word for a Magic verb, else the closest spelling."""
    ours = MAGIC_VERBS.get(verb)
    if ours is not None:
        return f' (did you mean "{ours}"? "{verb}" is Magic\'s word; Riftbound says "{ours}")'
    return suggest(verb, _VERBS)
