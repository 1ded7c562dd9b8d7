"""A triggered ability with two trigger events ("Whenever ~ enters the battlefield or attacks, EFFECT"):
it triggers on either event (603.2), once each time one happens. The engine reads it as one ability for
each event, with the same effect, so every other rule for triggers (targets, "it", intervening "if")
applies unchanged.
"""

from __future__ import annotations

import re

_EITHER = re.compile(
    r"^(when|whenever) (~) (enters the battlefield|comes into play) or "
    r"(attacks|blocks|dies|is put into a graveyard from (?:the battlefield|play)), (.+)$",
    re.I,
)


def split_events(text: str) -> tuple[str, bool]:
    """A permanent's text (its name written ``~``) with each ability of two events written as one ability
    for each, and whether there was any.

    >>> split_events("Whenever ~ enters the battlefield or attacks, you get {E}.")
    ('Whenever ~ enters the battlefield, you get {E}.\\nWhenever ~ attacks, you get {E}.', True)
    """
    lines = []
    split = False
    for line in text.split("\n"):
        m = _EITHER.match(line.strip())
        if m is None:
            lines.append(line)
            continue
        when, self, enters, other, effect = m.groups()
        lines += [f"{when} {self} {enters}, {effect}", f"{when} {self} {other}, {effect}"]
        split = True
    return ("\n".join(lines) if split else text), split
