"""Soulbond (702.95): two creatures paired, and what a paired creature's text gives both.

Soulbond is two triggered abilities (702.95a): as the creature with it enters, and as another creature enters
under its controller's control, if both are unpaired its controller may pair them, for as long as both remain
creatures on the battlefield under that player's control (702.95e). The keyword's entry in
:mod:`engine.mtg.keywords` triggers them (``compare="soulbond"``: the intervening "if", 603.4); the text of
the card says what the pair has: "As long as ~ is paired with another creature, both creatures have flying"
(``each of those creatures gets +1/+1``), read here into a :class:`~engine.mtg.effects.Static` of scope
``paired`` (it applies to the creature and the one it is paired with).

>>> rest, statics = paired_statics("As long as ~ is paired with another creature, both creatures have flying.")
>>> rest, statics[0].scope, statics[0].keywords
('', 'paired', ('flying',))
>>> paired_statics("As long as ~ is paired with another creature, each of those creatures gets +2/+2.")[1][0].power
2
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from engine.mtg.effects import KeywordError, Static, read_keywords_list

if TYPE_CHECKING:  # the state is read here, never built
    from engine.mtg.state import Permanent, State

_PAIRED = re.compile(
    r"^as long as ~ is paired with another creature, (?:both creatures|each of those creatures) "
    r"(?:(?:has|have) (?P<kw>[^.\"]+)|gets? (?P<p>[+-]\d{1,2})/(?P<t>[+-]\d{1,2}))\.?$",
    re.I,
)


def paired_statics(text: str) -> tuple[str, tuple[Static, ...]]:
    """A permanent's text (its name written ``~``) less its sentences that say what it and the creature it is
    paired with have, and those as statics of scope ``paired``; a sentence not read stays in the text."""
    found: list[Static] = []
    kept = []
    for line in text.split("\n"):
        m = _PAIRED.match(line.strip())
        st = None
        if m is not None and m["kw"]:
            try:
                st = Static("paired", keywords=read_keywords_list(m["kw"]))
            except KeywordError:
                st = None
        elif m is not None:
            st = Static("paired", int(m["p"]), int(m["t"]))
        if st is None:
            kept.append(line)
        else:
            found.append(st)
    return ("\n".join(kept) if found else text), tuple(found)


def partner(s: State, perm: Permanent) -> Permanent | None:
    """The creature ``perm`` is paired with, while both are creatures on the battlefield under one player's
    control (702.95e); None when it is unpaired."""
    if perm.paired is None:
        return None
    other = s.permanent(perm.paired)
    if other is None or other.paired != perm.oid or other.controller != perm.controller:
        return None
    if not (perm.is_a("creature") and other.is_a("creature")) or perm not in s.battlefield:
        return None
    return other


def can_pair(s: State, perm: Permanent, about: Permanent | None) -> bool:
    """The intervening "if" of a soulbond ability (702.95a, 603.4): ``perm`` (with soulbond) and the creature
    that entered (``about``: itself, or another creature its controller controls) are both unpaired creatures
    of its controller, and, when it entered itself, its controller controls another unpaired creature."""
    if about is None or not about.is_a("creature") or about.controller != perm.controller:
        return False
    if partner(s, perm) is not None or partner(s, about) is not None:
        return False
    return about is not perm or bool(choices(s, perm))


def choices(s: State, perm: Permanent) -> list[Permanent]:
    """The unpaired creatures ``perm``'s controller controls that ``perm`` may be paired with."""
    return [
        p
        for p in s.battlefield
        if p is not perm and p.controller == perm.controller and p.is_a("creature") and partner(s, p) is None
    ]
