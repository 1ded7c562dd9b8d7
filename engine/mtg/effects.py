"""The effect vocabulary: what a card's ``effect`` text may say, parsed into instructions.

Sentences are separated by ``.`` or ``;`` and followed in the order written (608.2c). Each
``target ...`` phrase takes the next target named in the action (``targeting X, Y``).

>>> parse_effect("deal 3 to any target")
(Instruction(verb='damage', amount=3, target='creature or player', who='', amount2=0, mana=''),)
>>> [i.verb for i in parse_effect("Counter target spell. Draw a card")]
['counter', 'draw']
>>> parse_effect("give target creature +3/+3 until end of turn")[0]
Instruction(verb='boost', amount=3, target='creature', who='', amount2=3, mana='')
>>> target_kinds("destroy target creature; you gain 2 life")
('creature',)
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cache


@dataclass(frozen=True)
class Instruction:
    verb: str       # damage, destroy, bounce, draw, gain, lose, counter, boost, tap, untap, add
    amount: int = 0
    target: str = ""   # "", "creature", "player", "creature or player", "spell"
    who: str = ""      # for untargeted player effects: "you" (the controller) or "opponent"
    amount2: int = 0   # toughness part of +N/+N
    mana: str = ""

    @property
    def targeted(self) -> bool:
        return bool(self.target)


_N = r"(\d+|a|an|one|two|three)"
_TARGET = r"(?:target (creature or player|creature|player|spell)|(any target))"
_FORMS: list[tuple[re.Pattern[str], str]] = [
    (re.compile(rf"^(?:~ )?deals? {_N}(?: damage)? to {_TARGET}$"), "damage"),
    (re.compile(rf"^(?:~ )?deals? {_N}(?: damage)? to (you|each opponent)$"), "damage_player"),
    (re.compile(rf"^destroy {_TARGET}$"), "destroy"),
    (re.compile(rf"^return {_TARGET} to its owner'?s hand$"), "bounce"),
    (re.compile(rf"^(?:you )?draws? {_N}(?: cards?)?$"), "draw"),
    (re.compile(rf"^(?:you )?gains? {_N} life$"), "gain"),
    (re.compile(rf"^(?:you )?loses? {_N} life$"), "lose"),
    (re.compile(rf"^each opponent loses {_N} life$"), "opponent_loses"),
    (re.compile(rf"^target player loses {_N} life$"), "target_loses"),
    (re.compile(rf"^counter {_TARGET}$"), "counter"),
    (re.compile(rf"^(?:give {_TARGET} |{_TARGET} gets )\+(\d+)/\+(\d+)(?: until end of turn| this turn)?$"), "boost"),
    (re.compile(rf"^tap {_TARGET}$"), "tap"),
    (re.compile(rf"^untap {_TARGET}$"), "untap"),
    (re.compile(r"^add ((?:\{[wubrgc]\})+)$"), "add"),
]
_WORDS = {"a": 1, "an": 1, "one": 1, "two": 2, "three": 3}

VOCABULARY = (
    "deal N to target creature | target player | target creature or player | any target",
    "deal N to you | each opponent", "destroy target creature",
    "return target creature to its owner's hand", "draw N", "gain N life", "lose N life",
    "each opponent loses N life", "target player loses N life", "counter target spell",
    "give target creature +N/+N until end of turn", "tap target creature", "untap target creature",
    "add {R} (mana abilities)",
)


class EffectError(ValueError):
    pass


def _number(text: str) -> int:
    return _WORDS.get(text, None) or int(text)


def _target_of(groups: tuple[str | None, ...]) -> str:
    named, any_target = groups
    return "creature or player" if any_target else (named or "")


@cache
def parse_effect(text: str) -> tuple[Instruction, ...]:
    """Instructions in the order written; raises :class:`EffectError` for text outside the vocabulary."""
    out: list[Instruction] = []
    for sentence in re.split(r"[.;]\s*|,? then ", text.strip().lower()):
        sentence = " ".join(sentence.split())
        if not sentence:
            continue
        for pattern, verb in _FORMS:
            m = pattern.match(sentence)
            if not m:
                continue
            g = m.groups()
            if verb == "damage":
                out.append(Instruction("damage", _number(g[0]), _target_of(g[1:3])))
            elif verb == "damage_player":
                out.append(Instruction("damage", _number(g[0]), "", "you" if g[1] == "you" else "opponent"))
            elif verb in ("destroy", "bounce", "counter", "tap", "untap"):
                out.append(Instruction(verb, 0, _target_of(g[0:2])))
            elif verb in ("draw", "gain", "lose"):
                out.append(Instruction(verb, _number(g[0]), "", "you"))
            elif verb == "opponent_loses":
                out.append(Instruction("lose", _number(g[0]), "", "opponent"))
            elif verb == "target_loses":
                out.append(Instruction("lose", _number(g[0]), "player"))
            elif verb == "boost":
                target = _target_of(g[0:2]) or _target_of(g[2:4])
                out.append(Instruction("boost", int(g[4]), target, "", int(g[5])))
            elif verb == "add":
                out.append(Instruction("add", 0, "", "you", 0, g[0].replace("{", "").replace("}", "").upper()))
            break
        else:
            raise EffectError(f"cannot read effect {sentence!r} (known: {'; '.join(VOCABULARY)})")
    return tuple(out)


def target_kinds(text: str) -> tuple[str, ...]:
    """What each target of the effect must be, in the order the targets are named."""
    return tuple(i.target for i in parse_effect(text) if i.targeted)
