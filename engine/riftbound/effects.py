"""The effect vocabulary: parsing ``cards.*.effect`` text into instructions, and carrying them out.

>>> [i.verb for i in parse("Deal 4 to target unit at a battlefield. Draw 1")]
['deal', 'draw']
>>> parse("give target enemy unit +2 might this turn")[0].target
Target(kind='unit', side='enemy', where=None)
>>> parse("move target unit to Grove")[0].place, parse("move target unit to a battlefield")[0].place
('Grove', None)
>>> parse("explode everything")
Traceback (most recent call last):
...
ValueError: unknown effect "explode everything"
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cache

VOCABULARY = (
    "deal N to target unit",
    "kill target unit",
    "return target unit to its owner's hand",
    "move target unit to PLACE",
    "recall target unit [exhausted]",
    "draw N",
    "ready target unit",
    "exhaust target unit",
    "stun target unit",
    "buff target unit",
    "give target unit +N might this turn",
    "heal target unit",
    "score N",
    "counter target spell",
)

_TARGET = r"(?P<target>me|that unit|(?:target|a|an) (?:(?P<side>enemy|friendly) )?(?P<kind>unit|spell)(?: (?P<where>at a battlefield|here))?)"
_PATTERNS = [
    ("deal", re.compile(rf"^deal (?P<n>\d+)(?: damage)? to {_TARGET}$")),
    ("kill", re.compile(rf"^kill {_TARGET}$")),
    ("return", re.compile(rf"^return {_TARGET} to (?:its|their) owner'?s'? hand$")),
    ("move", re.compile(rf"^move {_TARGET}(?: to (?P<place>.+))?$")),
    ("recall", re.compile(rf"^recall {_TARGET}(?P<exhausted> exhausted)?$")),
    ("draw", re.compile(r"^draw (?P<n>\d+)(?: cards?)?$")),
    ("ready", re.compile(rf"^ready {_TARGET}$")),
    ("exhaust", re.compile(rf"^exhaust {_TARGET}$")),
    ("stun", re.compile(rf"^stun {_TARGET}$")),
    ("buff", re.compile(rf"^buff {_TARGET}$")),
    ("might", re.compile(rf"^give {_TARGET} \+(?P<n>\d+) might this turn$")),
    ("heal", re.compile(rf"^heal {_TARGET}$")),
    ("score", re.compile(r"^(?:score|gain) (?P<n>\d+)(?: points?)?$")),
    ("counter", re.compile(rf"^counter {_TARGET}$")),
]
_CHOSEN_PLACE = ("place", "a battlefield", "a location", "target battlefield", "target location")


@dataclass(frozen=True)
class Target:
    kind: str  # unit | spell | me | that (in a replacement effect: the unit the replaced event would act on)
    side: str | None = None  # enemy | friendly
    where: str | None = None  # "at a battlefield" | "here"


@dataclass(frozen=True)
class Instruction:
    verb: str
    amount: int = 0
    target: Target | None = None
    place: str | None = None  # a literal destination for ``move``; None: chosen as the card is played

    @property
    def aim(self) -> Target:
        """What the instruction acts on, for one that acts on something."""
        assert self.target is not None, self
        return self.target

    @property
    def chooses(self) -> bool:
        """Does this instruction take one of the action's ``targeting`` names?"""
        return self.target is not None and self.target.kind not in ("me", "that")


def split(text: str) -> list[str]:
    parts = re.split(r"\.\s+|;\s*|,?\s+then\s+", text.strip().rstrip("."))
    return [p.strip() for p in parts if p.strip()]


@cache
def parse(text: str) -> tuple[Instruction, ...]:
    """Instructions of an effect text; ``ValueError`` for text outside the vocabulary. (Cached: a game reads
    the same few texts at every step.)"""
    out = []
    for part in split(text or ""):
        low = part.lower()
        for verb, pattern in _PATTERNS:
            m = pattern.match(low)
            if not m:
                continue
            target = None
            if "target" in pattern.groupindex and m.group("target"):
                if m.group("target") == "me":
                    target = Target("me")
                elif m.group("target") == "that unit":
                    target = Target("that")
                else:
                    target = Target(m.group("kind"), m.group("side"), m.group("where"))
            place = None
            if verb == "move":
                raw = part[m.start("place"):].strip() if m.group("place") else "a location"
                place = None if raw.lower() in _CHOSEN_PLACE else ("base" if raw.lower() in ("base", "its base", "their base") else raw)
            out.append(Instruction(verb, int(m.group("n")) if "n" in pattern.groupindex else 0, target, place))
            if "exhausted" in pattern.groupindex and m.group("exhausted"):
                out.append(Instruction("exhaust", 0, target))  # "recall X exhausted": recall it, then exhaust it
            break
        else:
            raise ValueError(f'unknown effect "{part}"')
    for ins in out:
        if ins.verb == "counter" and (ins.target is None or ins.target.kind != "spell"):
            raise ValueError('"counter" takes "target spell"')
        if ins.verb not in ("counter",) and ins.target is not None and ins.target.kind == "spell":
            raise ValueError(f'"{ins.verb}" takes a unit, not a spell')
    return tuple(out)


WHEN_VOCABULARY = ("this would die", "a [friendly|enemy] unit would die", "another [friendly|enemy] unit would die",
                   "this would be dealt damage", "a [friendly|enemy] unit would be dealt damage",
                   "another [friendly|enemy] unit would be dealt damage")
_WHEN = re.compile(r"^(?:if |when )?(?:the next time )?(?P<who>this(?: unit| gear)?|me|i|(?:a|an|another) (?:(?P<side>friendly|enemy) )?unit)"
                   r" would (?P<event>die|be killed|be dealt damage|take damage)$")


def parse_when(text: str) -> tuple[str, str]:
    """A replacement effect's ``when``: (who, event), ``who`` one of ``this``, ``unit``, ``friendly``, ``enemy``,
    ``other``, ``other friendly``; ``event`` ``die`` or ``damage``. ``ValueError`` outside the vocabulary.

    >>> parse_when("The next time a friendly unit would die"), parse_when("this would be dealt damage")
    (('friendly', 'die'), ('this', 'damage'))
    """
    m = _WHEN.match(" ".join(str(text).lower().split()).rstrip(".,"))
    if not m:
        raise ValueError(f'unknown replacement condition "{text}"')
    who = m.group("who")
    if who.startswith(("this", "me")) or who == "i":
        who = "this"
    elif who.startswith("another"):
        who = "other friendly" if m.group("side") == "friendly" else "other enemy" if m.group("side") == "enemy" else "other"
    else:
        who = m.group("side") or "unit"
    return who, ("die" if m.group("event") in ("die", "be killed") else "damage")


def target_count(text: str) -> int:
    return sum(1 for i in parse(text) if i.chooses)


def needs_place(text: str) -> bool:
    return any(i.verb == "move" and i.place is None for i in parse(text))
