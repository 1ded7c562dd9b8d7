"""Sentences a player could try now: what :meth:`engine.core.Game.legal_actions` filters, and what a
random-play test or a ``--step`` hint draws from.

A superset of the legal actions (the engine decides), in a fixed order. It never leaves out what keeps
the game going (a pass, declaring no attackers or blockers). Declarations list every set of creatures
that could attack, and every way the creatures that could block can block, up to :data:`MAX_CHOICES`;
beyond it, one creature at a time and all together. Targets are every player, creature or spell that
fits, combined up to :data:`MAX_CHOICES`; ``moves to`` names every step.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterator

from engine.mtg.effects import target_kinds
from engine.mtg.legality import can_attack, can_block
from engine.mtg.state import ORDER, Permanent, State

MAX_CHOICES = 64  # declarations or target combinations listed for one object


def candidates(s: State) -> list[str]:
    if s.over:
        return []
    if s.pending == "attackers":
        ap = s.turn_player
        able = [p.name for p in s.battlefield if can_attack(s, p) is None]
        return ([f"{ap} declares no attackers"]
                + [f"{ap} attacks with {', '.join(group)}" for group in _groups(able)] + _moves(s, ap))
    if s.pending == "blockers":
        dp = s.defending
        attackers = [p.name for p in s.battlefield if p.attacking]
        able = [p.name for p in s.battlefield if can_block(s, p)]
        return ([f"{dp} declares no blockers"]
                + [f"{dp} blocks {', '.join(f'{a} with {b}' for a, b in blocks)}" for blocks in _blocks(attackers, able)]
                + _moves(s, dp))
    who = s.priority
    if who is None:
        return []
    out = [f"{who} passes"]
    for card in s.hand.get(who, []):
        d = s.definition(card.name)
        if d is None or "land" in d.types:
            out.append(f"{who} plays {card.name}")
        else:
            out.extend(_aimed(s, f"{who} casts {card.name}", d.effect))
    for perm in s.battlefield:
        if perm.controller == who and (perm.card.ability is not None or perm.is_a("land")):
            effect = perm.card.ability.effect if perm.card.ability is not None else ""
            out.extend(_aimed(s, f"{who} activates {perm.name}", effect, itself=perm))
    return out + _moves(s, who)


def _moves(s: State, player: str) -> list[str]:
    return [f"{player} moves to {step}" for step in ORDER if step != s.step]


def _groups(names: list[str]) -> Iterator[tuple[str, ...]]:
    """Every non-empty set of ``names`` (in their order), or when too many, each alone and all together."""
    if 2 ** len(names) - 1 > MAX_CHOICES:
        yield from ((n,) for n in names)
        yield tuple(names)
        return
    for size in range(1, len(names) + 1):
        yield from itertools.combinations(names, size)


def _blocks(attackers: list[str], blockers: list[str]) -> Iterator[tuple[tuple[str, str], ...]]:
    """Every way ``blockers`` can each block one attacker or none, at least one blocking."""
    if not attackers or not blockers:
        return
    if (len(attackers) + 1) ** len(blockers) - 1 > MAX_CHOICES:
        yield from (((a, b),) for b in blockers for a in attackers)
        return
    for choice in itertools.product([None, *attackers], repeat=len(blockers)):
        blocks = tuple((a, b) for a, b in zip(choice, blockers) if a is not None)
        if blocks:
            yield blocks


def _aimed(s: State, head: str, effect: str, itself: Permanent | None = None) -> list[str]:
    pools = []
    for kind in target_kinds(effect):
        pool = []
        if "player" in kind:
            pool += s.players
        if "creature" in kind:
            pool += [p.name for p in s.battlefield if p.is_a("creature") and p is not itself]
        if kind == "spell":
            pool += [i.name for i in s.stack if i.kind == "spell"]
        pools.append(pool)
    return [head + (f" targeting {', '.join(combo)}" if combo else "")
            for combo in itertools.islice(itertools.product(*pools), MAX_CHOICES)]
