"""Double-faced cards that transform (712, 701.27).

A transforming card is one card with two faces: it is cast, and enters the battlefield, with its front
face up (712.11, 712.8d); ``transform ~`` turns it over, so that it has only the characteristics of its
other face (701.27a, 712.8e), the same object still (712.18). A card defined with a ``back:`` face is one.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # the state is read here, never built
    from engine.mtg.state import Permanent, State


def transform(s: State, perm: Permanent) -> str | None:
    """Turn ``perm`` over (701.27a): the words of what happened, or None when it cannot transform (it is
    not a double-faced card, 701.27c); it keeps its counters, damage and effects (712.18)."""
    if perm.card.back is not None:
        front, back = perm.card, perm.card.back
        suffix = perm.name[len(perm.name.split("#")[0]) :]
        perm.front = (front, perm.name)
        perm.card, perm.name = back, back.name + suffix
    elif perm.front is not None:
        front, was = perm.front
        perm.card, perm.name, perm.front = front, was, None
    else:
        return None
    perm.turned = s.oid()
    return perm.name


def card_name(perm: Permanent) -> str:
    """The name of the card ``perm`` is in every other zone: its front face's (712.8a)."""
    return perm.front[1] if perm.front is not None else perm.name


_TRANSFORMS = re.compile(
    r"^(?:when|whenever) this creature (enters the battlefield or )?transforms into ~, (.+?)\.?$", re.I
)


def transform_triggers(text: str) -> tuple[str, tuple[tuple[str, str], ...]]:
    """A face's text (its name written ``~``) less its abilities that trigger as it transforms into it
    (701.27e), and each of them as (event, effect): "transforms", and "enters" for "enters the battlefield or
    transforms into ~" (two events, one ability each time).

    >>> transform_triggers("Whenever this creature enters the battlefield or transforms into ~, draw a card.")
    ('', (('enters', 'draw a card'), ('transforms', 'draw a card')))
    """
    found: list[tuple[str, str]] = []
    kept = []
    for line in text.split("\n"):
        m = _TRANSFORMS.match(line.strip())
        if m is None:
            kept.append(line)
            continue
        found += [("enters", m[2])] if m[1] else []
        found.append(("transforms", m[2]))
    return ("\n".join(kept) if found else text), tuple(found)
