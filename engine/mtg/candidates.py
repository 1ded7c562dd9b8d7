"""Sentences a player could try now: what :meth:`engine.core.Game.legal_actions` filters, and what a
random-play test or a ``--step`` hint draws from.

A superset of the legal actions (the engine decides), in a fixed order. It never leaves out what keeps
the game going (a pass, declaring no attackers or blockers, an awaited assignment, order, mode or
payment). Declarations list every set of creatures that could attack, and every way the creatures that
could block can block, up to :data:`MAX_CHOICES`; beyond it, one creature at a time and all together.
Targets are every player, permanent or spell that fits, combined up to :data:`MAX_CHOICES`; X is tried
from 0 to 3; ``moves to`` names every step.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterator

from engine.mtg.effects import QUALIFIED, SPELL_KINDS, enchants, own_name, target_kinds, uses_x
from engine.mtg.keywords import cost_of
from engine.mtg.legality import PLAYER_KINDS, can_attack, can_block, kind_matches, lethal, qualified, unaimed
from engine.mtg.state import ORDER, CardDef, Permanent, State

MAX_CHOICES = 64  # declarations, target combinations or damage assignments listed for one object
MAX_X = 3


def candidates(s: State) -> list[str]:
    if s.over:
        return []
    if s.pending == "attackers":
        ap = s.turn_player
        able = [p.name for p in s.battlefield if can_attack(s, p) is None]
        return (
            [f"{ap} declares no attackers"]
            + [f"{ap} attacks with {', '.join(group)}" for group in _groups(able)]
            + _moves(s, ap)
        )
    if s.pending == "blockers":
        dp = s.defending
        attackers = [p.name for p in s.battlefield if p.attacking]
        able = [p.name for p in s.battlefield if can_block(s, p)]
        return (
            [f"{dp} declares no blockers"]
            + [f"{dp} blocks {', '.join(f'{a} with {b}' for a, b in blocks)}" for blocks in _blocks(attackers, able)]
            + _moves(s, dp)
        )
    if s.pending == "damage":
        return _assignments(s) + _moves(s, s.turn_player)
    if s.pending == "triggers":
        orderer = s.deciding or s.turn_player
        mine = [t.name for t in s.pending_triggers if t.controller == orderer]
        orders = itertools.islice(itertools.permutations(mine), MAX_CHOICES)
        return [f"{orderer} orders triggers: {', '.join(order)}" for order in orders] + _moves(s, orderer)
    if s.pending == "aim":
        aimer = s.deciding or s.turn_player
        out_aim: list[str] = []
        for t in s.pending_triggers:
            if t.controller == aimer and unaimed(t):
                out_aim.extend(_aimed(s, f"{aimer} puts {t.name} on the stack", unaimed(t), aimer))
        return out_aim
    if s.pending == "mode" and s.casting is not None:
        caster, d = s.casting.player, s.definition(s.casting.card.name)
        out: list[str] = []
        if d is not None:
            for mode in d.modes:
                out.extend(_aimed(s, f'{caster} chooses "{mode}"', target_kinds(own_name(mode, d.name)), caster))
        return out
    if s.pending == "pay":
        payer = s.deciding or ""
        amount = s.paused.amount if s.paused is not None else 0
        return [f"{payer} pays {{{amount}}}", f"{payer} does not pay"]
    who = s.priority
    if who is None:
        return []
    out = [f"{who} passes"]
    for card in s.hand.get(who, []):
        d = s.definition(card.name)
        if d is None or "land" in d.types:
            out.append(f"{who} plays {card.name}")
        else:
            out.extend(_casts(s, who, card.name, d))
        if d is not None and cost_of(d.keywords, "cycling") is not None:
            out.append(f"{who} activates {card.name}")
    for card in s.graveyard.get(who, []):
        d = s.definition(card.name)
        if d is not None and cost_of(d.keywords, "flashback") is not None:
            out.extend(_casts(s, who, card.name, d))
    for perm in s.battlefield:
        if perm.controller == who and (perm.card.ability is not None or perm.is_a("land")):
            effect = perm.card.ability.effect if perm.card.ability is not None else ""
            choice = perm.card.ability.choice if perm.card.ability is not None else ""
            for said in [f" for {{{c}}}" for c in choice] or [""]:
                out.extend(_aimed(s, f"{who} activates {perm.name}{said}", target_kinds(effect), who, itself=perm))
    return out + _moves(s, who)


def _casts(s: State, who: str, name: str, d: CardDef) -> list[str]:
    has_x = any(sym == "X" for sym, _ in d.cost) or any(uses_x(own_name(e, d.name)) for e in (d.effect, *d.modes) if e)
    offers = [
        p.name for p in s.battlefield if p.controller == who and (d.sacrifice == "permanent" or p.is_a(d.sacrifice))
    ]
    names = [f"{name} sacrificing {o}" for o in offers] if d.sacrifice else [name]
    heads = [
        f"{who} casts {n} with X={x}" if has_x else f"{who} casts {n}"
        for n in names
        for x in (range(MAX_X + 1) if has_x else [0])
    ]
    out: list[str] = []
    for head in heads:
        if d.modes:
            out.append(head)
            for mode in d.modes:
                out.extend(_aimed(s, f'{head} choosing "{mode}"', target_kinds(own_name(mode, d.name)), who))
        elif d.is_aura:
            out.extend(_aimed(s, head, (enchants(d.keywords) or "creature",), who))
        else:
            out.extend(_aimed(s, head, target_kinds(d.effect) if d.effect else (), who))
    return out


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


def _assignments(s: State) -> list[str]:
    """Ways the first awaited attacker may divide its combat damage: lethal damage to the blockers in each
    order with the rest to the last (or, with trample, to the player), then every division, up to
    :data:`MAX_CHOICES`."""
    attacker = next((p for p in (s.permanent(o) for o in s.awaiting) if p is not None), None)
    if attacker is None:
        return []
    power = s.power(attacker)
    blockers = [b for b in (s.permanent(o) for o in attacker.blockers) if b is not None]
    names = [b.name for b in blockers] + ([s.defending] if s.has(attacker, "trample") else [])
    seen: list[str] = []
    source = s.source_of(attacker)
    for order in itertools.permutations(blockers):
        left, parts = power, []
        for b in order:
            give = min(left, lethal(s, b, source, 0))
            parts.append((b.name, give))
            left -= give
        if names[-1] == s.defending:
            parts.append((s.defending, left))
        elif parts:
            parts[-1] = (parts[-1][0], parts[-1][1] + left)
        seen.append(", ".join(f"{n} {a}" for n, a in parts))
    for split in _splits(power, len(names)):
        seen.append(", ".join(f"{n} {a}" for n, a in zip(names, split)))
        if len(seen) >= MAX_CHOICES:
            break
    return [f"{s.turn_player} assigns damage: {text}" for text in dict.fromkeys(seen)]


def _splits(total: int, parts: int) -> Iterator[tuple[int, ...]]:
    if parts == 1:
        yield (total,)
        return
    for first in range(total, -1, -1):
        for rest in _splits(total - first, parts - 1):
            yield (first, *rest)


def _pool(s: State, kind: str, who: str, itself: Permanent | None) -> list[str]:
    pool: list[str] = []
    if kind in PLAYER_KINDS:
        pool += [p for p in s.players if not kind.startswith("opponent") or p != who]
    if kind in SPELL_KINDS:
        pool += [i.name for i in s.stack if i.kind == "spell"]  # the legality check tells creature spells
    elif kind not in ("player", "opponent"):
        for p in s.battlefield:
            if p is itself:
                continue
            if kind in (
                "creature",
                "creature or player",
                "creature you control",
                "creature you don't control",
                "creature an opponent controls",
            ):
                ok = p.is_a("creature")
            elif kind in ("any", "creature or planeswalker"):
                ok = p.is_a("creature") or p.is_a("planeswalker")
            elif kind in ("permanent", "nonland permanent"):
                ok = kind == "permanent" or not p.is_a("land")
            elif kind == "artifact or enchantment":
                ok = p.is_a("artifact") or p.is_a("enchantment")
            elif kind in ("player or planeswalker", "opponent or planeswalker"):
                ok = p.is_a("planeswalker")
            elif kind in QUALIFIED:
                ok = p.is_a("creature") and qualified(s, p, kind)
            elif " with " in kind:
                ok = kind_matches(s, p, kind, who)
            else:
                ok = p.is_a(kind)
            if ok:
                pool.append(p.name)
    return pool


def _aimed(s: State, head: str, kinds: tuple[str, ...], who: str, itself: Permanent | None = None) -> list[str]:
    pools = [_pool(s, kind, who, itself) for kind in kinds]
    return [
        head + (f" targeting {', '.join(combo)}" if combo else "")
        for combo in itertools.islice(itertools.product(*pools), MAX_CHOICES)
    ]
