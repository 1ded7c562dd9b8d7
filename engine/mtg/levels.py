"""Leveler cards (711) and level up (702.87a).

A leveler card's text is its level up ability and the abilities before its first level symbol, then its
level symbols: ``LEVEL N1-N2`` and ``LEVEL N3+``, each with a base power and toughness and abilities. As
long as the creature has between N1 and N2 level counters (N3 or more), it has that base power and toughness
and those abilities besides its own (711.2a, 711.2b); below N1, the uppermost power and toughness (711.5).
A card defined with ``levels:`` is one; ``Level up {N}`` is its ability "{N}: Put a level counter on this
permanent. Activate only as a sorcery."
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # the state is read here, never built
    from engine.mtg.state import CardDef, Permanent

LEVEL_UP_EFFECT = "put a level counter on ~"  # what the level up ability does (702.87a)
_SYMBOL = re.compile(r"^(\d{1,2})(?:\s*-\s*(\d{1,2})|\+)$")


@dataclass(frozen=True)
class Level:
    """A level symbol and the striation it heads: ``low``-``high`` level counters (``high`` None: N3+), and
    the characteristics it gives (``card``: its base power and toughness, keywords and abilities)."""

    low: int
    high: int | None
    card: CardDef

    def holds(self, n: int) -> bool:
        return n >= self.low and (self.high is None or n <= self.high)

    @property
    def symbol(self) -> str:
        return f"LEVEL {self.low}-{self.high}" if self.high is not None else f"LEVEL {self.low}+"


def read_symbol(text: str) -> tuple[int, int | None] | None:
    """``1-4`` -> (1, 4), ``5+`` -> (5, None); None for anything else.

    >>> read_symbol("1-4"), read_symbol("LEVEL 5+"), read_symbol("five")
    ((1, 4), (5, None), None)
    """
    m = _SYMBOL.match(re.sub(r"^level\s+", "", text.strip(), flags=re.I))
    if m is None:
        return None
    low, high = int(m[1]), int(m[2]) if m[2] else None
    return None if high is not None and high < low else (low, high)


def at_level(card: CardDef, n: int) -> CardDef:
    """The leveler ``card`` with ``n`` level counters: its printed card and the characteristics of the level
    symbol that holds for ``n`` (its own abilities kept, 711.4), or the printed card when none does."""
    root = card.leveler or card
    level = next((lv for lv in root.levels if lv.holds(n)), None)
    if level is None:
        return root
    got = level.card
    return replace(
        root,
        power=got.power,
        toughness=got.toughness,
        keywords=root.keywords | got.keywords,
        triggers=root.triggers + got.triggers,
        statics=root.statics + got.statics,
        replacements=root.replacements + got.replacements,
        prevent_all=root.prevent_all or got.prevent_all,
        leveler=root,
    )


def relevel(perm: Permanent, before: int) -> Level | None:
    """Give ``perm`` the characteristics its level counters give it (it had ``before`` of them); the level
    symbol that applies now when that changed (None when it did not, or ``perm`` is no leveler)."""
    root = perm.card.leveler or perm.card
    if not root.levels:
        return None
    n = perm.counters.get("level", 0)
    perm.card = at_level(root, n)
    old = next((lv for lv in root.levels if lv.holds(before)), None)
    now = next((lv for lv in root.levels if lv.holds(n)), None)
    return now if now is not None and now is not old else None
