"""The words card text is read into: instructions and what they act on (:class:`Instruction`, :class:`Target`),
costs, triggers, and the game's fixed vocabularies (domains, keywords). Shared by the grammar's reader
(:mod:`engine.riftbound.cardtext`) and the rest of the effect reading (:mod:`engine.riftbound.effects`, which
names them all too).

>>> Target("unit", "enemy").chooses, Target("it").chooses
(True, False)
"""

from __future__ import annotations

import re
from dataclasses import dataclass

DOMAINS = {"r": "Fury", "g": "Calm", "b": "Mind", "o": "Body", "p": "Chaos", "y": "Order"}
DOMAIN_NAMES = tuple(DOMAINS.values())
NUMBERS = {"a": 1, "an": 1, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "twice": 2}
# Keywords of the keyword glossary (731-747); those marked True take a value (Assault 2, Repeat [2]).
KEYWORD_VALUES = {
    "Accelerate": False,
    "Action": False,
    "Assault": True,
    "Deathknell": False,
    "Deflect": True,
    "Ganking": False,
    "Hidden": False,
    "Legion": False,
    "Reaction": False,
    "Shield": True,
    "Tank": False,
    "Temporary": False,
    "Vision": False,
    "Equip": True,
    "Quick-Draw": False,
    "Repeat": True,
    "Weaponmaster": False,
}
KEYWORDS = tuple(KEYWORD_VALUES)


@dataclass(frozen=True)
class Cost:
    """A cost: ``energy`` ([2]), ``power`` (domains; ``any`` for [A], ``card`` for [C]), exhausting the
    object ([E]) and other instructions paid as a cost (``Recycle 1 from your trash``, ``Discard 1``)."""

    energy: int = 0
    power: tuple[str, ...] = ()
    exhaust: bool = False
    extra: tuple[Instruction, ...] = ()

    def __bool__(self) -> bool:
        return bool(self.energy or self.power or self.exhaust or self.extra)

    def __add__(self, other: Cost) -> Cost:
        return Cost(
            self.energy + other.energy,
            self.power + other.power,
            self.exhaust or other.exhaust,
            self.extra + other.extra,
        )

    def text(self) -> str:
        parts = ([f"[{self.energy}]"] if self.energy else []) + [f"[{_SHORT.get(p, p)}]" for p in self.power]
        out = "".join(parts)
        words = [out] if out else []
        if self.exhaust:
            words.append("[E]")
        words += [i.text for i in self.extra]
        return ", ".join(words) or "[0]"


_SHORT = {v: k.upper() for k, v in DOMAINS.items()} | {"any": "A", "card": "C"}


@dataclass(frozen=True)
class Target:
    """What an instruction chooses (352.6) or acts on.

    ``kind``: ``unit``, ``gear``, ``permanent`` (a unit or a gear), ``spell``, ``facedown`` (a facedown card),
    ``card`` (a card in a trash), ``me`` (the object the ability belongs to), ``that`` (what a replacement's
    event acts on), ``it`` (the object an earlier instruction of the same effect chose or acted on), ``each``
    (every unit that fits, chosen by no one: not a target, 352.10.d), ``hand`` / ``looked`` (a card of its
    controller's hand, or among the cards it looked at, chosen as it resolves: not a target).
    ``side``: ``friendly``, ``enemy``, or ``your`` (controlled by you). ``where``: ``at a battlefield``,
    ``here``, ``in a base``, ``at another location``, ``at its destination``. ``other``: not the object the
    ability belongs to. ``count``: how many distinct objects (``two friendly units``); ``upto``: any number
    from 0 to it (352.13). ``filters``: (``might_max``, N), (``keyword``, K), (``tag``, T), (``state``, S),
    (``mighty``, True), (``total_might``, N): a group requirement of all the chosen together (352.11)."""

    kind: str
    side: str | None = None
    where: str | None = None
    other: bool = False
    count: int = 1
    upto: int = 0
    filters: tuple[tuple[str, object], ...] = ()

    @property
    def chooses(self) -> bool:
        # "all friendly units", "enemy units here": every object that fits, none chosen (not a target)
        return (
            self.kind not in ("me", "that", "it", "they", "each", "hand", "looked")
            and ("all", True) not in self.filters
        )

    @property
    def most(self) -> int:
        return self.upto or self.count


@dataclass(frozen=True)
class Instruction:
    verb: str
    amount: int = 0
    target: Target | None = None
    place: str | None = None  # a literal destination for ``move``; None: chosen as the card is played
    data: tuple = ()  # what else the verb needs: keywords granted, a token's name, "this turn", a minimum
    body: tuple[Instruction, ...] = ()  # reflexive, "if you do", "you may": the instructions they govern
    times: int = 1
    text: str = ""  # as written

    @property
    def aim(self) -> Target:
        """What the instruction acts on, for one that acts on something."""
        assert self.target is not None, self
        return self.target

    @property
    def chooses(self) -> bool:
        """Does this instruction take names from the action's ``targeting``?"""
        return self.target is not None and self.target.chooses


@dataclass(frozen=True)
class Condition:
    """A condition an effect's instruction is done under (``if it is stunned, kill it``), checked as it
    resolves; one that opens a triggered ability's effect is also checked as it triggers (v1.3 383.3.e).

    ``kind``: ``it`` / ``me`` (the object ``it`` names, or the ability's source, is in ``state``: a state word
    or ``at a battlefield``), ``control`` (its controller controls an object that fits ``target``), ``there``
    (an object that fits ``target`` exists), ``at_least`` / ``at_most`` (its controller has ``n`` or more, or
    ``n`` or fewer, of ``counted``: ``units``, ``runes``, ``hand``; ``where`` ``here`` for units at the
    source's location, ``there`` at the battlefield of the event it triggered on), ``only`` (the object ``it`` names is the only unit its controller controls)."""

    kind: str
    state: str = ""
    target: Target | None = None
    n: int = 0
    counted: str = ""
    where: str = ""
    text: str = ""


_PLACE_WORDS = ("a battlefield", "a location", "target battlefield", "target location", "its destination", "place")


def _place(raw: str) -> str | None:
    raw = raw.strip()
    low = raw.lower()
    if low in _PLACE_WORDS:
        return None
    if low in ("base", "its base", "their base", "your base", "its owner's base", "its controller's base"):
        return "base"
    return raw


def _n(word: str) -> int:
    if word.isdigit():
        return int(word)
    if word in NUMBERS:
        return NUMBERS[word]
    raise ValueError(f'cannot read the number "{word}"')


def _power(symbols: str) -> tuple[int, tuple[str, ...]]:
    energy, power = 0, []
    for sym in re.findall(r"\[([^\]]+)\]", symbols):
        s = sym.strip().lower()
        if s.isdigit():
            energy += int(s)
        elif s in DOMAINS:
            power.append(DOMAINS[s])
        elif s == "a":
            power.append("any")
        elif s == "c":
            power.append("card")
        elif s.capitalize() in DOMAIN_NAMES:
            power.append(s.capitalize())
        elif "/" in s and all(d.capitalize() in DOMAIN_NAMES or d in DOMAINS for d in s.split("/")):
            # a power of either of two domains ("[Body/Order]"): a string of both, paid by either (costs.plan)
            power.append("/".join(DOMAINS.get(d, d.capitalize()) for d in s.split("/")))
        else:
            raise ValueError(f'cannot read the symbol "[{sym}]"')
    return energy, tuple(power)


def _keyword_list(text: str) -> tuple[tuple[str, int], ...]:
    """``assault 2``, ``deflect, ganking, and shield`` -> (("Assault", 2), ...)."""
    out = []
    for part in re.split(r",\s*(?:and\s+)?|\s+and\s+", text.strip()):
        m = re.match(r"^(?P<kw>[a-z-]+)(?:\s+(?P<v>\d+))?$", part.strip())
        kw = m and next((k for k in KEYWORDS if k.lower() == m.group("kw")), None)
        if not m or kw is None:
            raise ValueError(f'unknown keyword "{part.strip()}"')
        out.append((kw, int(m.group("v") or (1 if KEYWORD_VALUES[kw] else 0))))
    return tuple(out)


@dataclass(frozen=True)
class TriggerSpec:
    """When a triggered ability triggers (376): ``event`` and who or what it watches.

    ``event``: play (me), attack, defend, conquer, hold, die (deathknell: I die), dies (another unit dies),
    move, played (you play a card: ``what`` spell/unit/card, ``nth`` 2 for "your second card"), beginning (the
    start of your Beginning Phase), end (the end of your turn), recycle (you recycle cards to your Main
    Deck), kill_spell (you kill a unit with a spell). ``who``: me | you | friendly | other friendly | other | here.
    ``first``: "the first time ... each turn". ``zone``: where it is active (board, trash)."""

    event: str
    who: str = "me"
    what: str = ""
    nth: int = 0
    first: bool = False
    zone: str = "board"
    condition: str = ""  # "if I'm at a battlefield" and the like, checked as it triggers
    cost: int = 0  # "when you play a spell that costs [5] or more": the least Energy cost of the card played

    @property
    def legacy(self) -> str:
        return "deathknell" if self.event == "die" else self.event
