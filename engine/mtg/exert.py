"""Exert (701.43): "You may exert ~ as it attacks" is an optional cost to attack (508.1g, 701.43d), chosen
as attackers are declared (``P attacks with C exerting C``); an exerted permanent won't untap during its
controller's next untap step (701.43a). The "When you do, EFFECT" printed in the same paragraph is a
triggered ability linked to it (607.2h), triggering as it is exerted; "Whenever you exert a creature,
EFFECT" triggers on any creature its controller exerts.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

EXERTED = "exerted"  # the event of the permanent exerted (its own linked "when you do" ability)
YOU_EXERT = "you exert"  # the event of any creature its controller exerts ("whenever you exert a creature")

_REMINDER = re.compile(r"\s*\([^()]*\)")
_MAY_EXERT = re.compile(r"^you may exert ~ as it attacks\.(?:\s*when you do, (.+?)\.?)?$", re.I)
_WHENEVER = re.compile(r"^whenever you exert a creature, (.+?)\.?$", re.I)


@dataclass(frozen=True)
class Exerting:
    """What a card's text says of exert: whether it may be exerted as it attacks, and the abilities that
    trigger as it is (event, effect)."""

    may: bool = False
    triggers: tuple[tuple[str, str], ...] = ()


def exert_abilities(text: str) -> tuple[str, Exerting]:
    """A permanent's text (its name written ``~``) less its exert abilities, and what they are.

    >>> exert_abilities("Flying\\nYou may exert ~ as it attacks. When you do, draw a card.")
    ('Flying', Exerting(may=True, triggers=(('exerted', 'draw a card'),)))
    >>> exert_abilities("Whenever you exert a creature, creatures you control get +1/+0 until end of turn.")[1].triggers
    (('you exert', 'creatures you control get +1/+0 until end of turn'),)
    """
    may = False
    found: list[tuple[str, str]] = []
    kept = []
    for line in text.split("\n"):
        read = _REMINDER.sub("", line).strip()
        m = _MAY_EXERT.match(read)
        if m is not None:
            may = True
            found += [(EXERTED, m[1])] if m[1] else []
            continue
        m = _WHENEVER.match(read)
        if m is not None:
            found.append((YOU_EXERT, m[1]))
            continue
        kept.append(line)
    if not may and not found:
        return text, Exerting()
    return "\n".join(kept), Exerting(may, tuple(found))
