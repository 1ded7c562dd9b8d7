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

from engine.mtg.effects import (
    QUALIFIED,
    SPELL_KINDS,
    UP_TO,
    card_kind,
    enchants,
    own_name,
    parse_effect,
    target_kinds,
    uses_x,
)
from engine.mtg.keywords import cost_of
from engine.mtg.legality import (
    PLAYER_KINDS,
    can_attack,
    can_block,
    choosable,
    fused_definition,
    kind_matches,
    lethal,
    life_asked,
    looked_at,
    looked_matches,
    offered_card,
    pair_options,
    qualified,
    sacrifice_fits,
    scried,
    scry_label,
    shown_mode,
    trigger_modes,
    unaimed,
)
from engine.mtg.state import ORDER, Card, CardDef, Permanent, State, Target

MAX_CHOICES = 64  # declarations, target combinations or damage assignments listed for one object
MAX_X = 3


def _exerting(s: State, groups: Iterator[tuple[str, ...]]) -> list[str]:
    """Each declaration with attackers that may be exerted as they attack (701.43d), all of them exerted."""
    out = []
    for group in groups:
        exertable = [n for n in group if (p := s.find_permanent(n)) is not None and p.card.exert]
        if exertable:
            out.append(f"{s.turn_player} attacks with {', '.join(group)} exerting {', '.join(exertable)}")
    return out


def candidates(s: State) -> list[str]:
    if s.over:
        return []
    if s.pending == "attackers":
        ap = s.turn_player
        able = [p.name for p in s.battlefield if can_attack(s, p) is None]
        return (
            [f"{ap} declares no attackers"]
            + [f"{ap} attacks with {', '.join(group)}" for group in _groups(able)]
            + _exerting(s, _groups(able))
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
            for mode in trigger_modes(t) if t.controller == aimer else ():
                head = f'{aimer} puts {t.name} on the stack choosing "{shown_mode(t, mode)}"'
                out_aim.extend(_aimed(s, head, target_kinds(mode), aimer))
        return out_aim
    if s.pending == "mode" and s.casting is not None:
        caster, d = s.casting.player, s.definition(s.casting.card.name)
        out: list[str] = []
        if d is not None:
            for mode in d.modes:
                out.extend(_aimed(s, f'{caster} chooses "{mode}"', target_kinds(own_name(mode, d.name)), caster))
        return out
    if s.pending == "offer" and s.paused is not None and s.paused.offered == "fabricate":
        return [f"{s.deciding} chooses counters", f"{s.deciding} chooses servos"]
    if s.pending == "offer" and s.paused is not None and s.paused.offered == "pair":  # soulbond
        source = s.permanent(s.paused.item.subject.ref) if s.paused.item.subject is not None else None  # type: ignore[arg-type]
        mates = pair_options(s, s.paused.item) if source is not None else []
        return [f"{s.deciding} pairs {source.name} with {m.name}" for m in mates if source] + [f"{s.deciding} declines"]
    if s.pending == "offer" and s.paused is not None and s.paused.offered == "sacrifice":  # exploit
        chooser = s.deciding or ""
        mine = [p.name for p in s.battlefield if p.controller == chooser and p.is_a("creature")]
        return [f"{chooser} sacrifices {name}" for name in mine] + [f"{chooser} declines"]
    if s.pending == "offer" and s.paused is not None:  # a card a resolving ability offers (rebound)
        card = offered_card(s, Target("card", s.paused.victim, ""))
        d = s.definition(card.name) if card is not None else None
        casts = _casts(s, s.deciding or "", card.name, d) if card is not None and d is not None else []
        return casts + [f"{s.deciding} declines"]
    if s.pending == "scry":
        return _scries(s)
    if s.pending == "look" and s.paused is not None:
        return _takes(s)
    if s.pending == "may":
        return [f"{s.deciding} accepts", f"{s.deciding} declines"]
    if s.pending == "discard" and s.paused is not None:
        hand = [c.name for c in s.hand.get(s.deciding or "", [])]
        picks = itertools.islice(itertools.combinations(hand, s.paused.amount), MAX_CHOICES)
        return [f"{s.deciding} discards {', '.join(p)}" for p in picks]
    if s.pending == "pick" and s.paused is not None:
        instr = parse_effect(s.paused.item.effect)[s.paused.index - 1]
        return [f"{s.deciding} chooses {c.name}" for c in choosable(s, instr, s.paused.whose)]
    if s.pending == "pay":
        payer = s.deciding or ""
        amount = s.paused.amount if s.paused is not None else 0
        if s.paused is not None and s.paused.mana:  # "you may pay {W/B}" (extort)
            return [f"{payer} pays", f"{payer} does not pay"]
        return [f"{payer} pays {{{amount}}}", f"{payer} does not pay"]
    who = s.priority
    if who is None:
        return []
    out = [f"{who} passes"]
    for card in s.hand.get(who, []):
        d = s.definition(card.name)
        if d is None or "land" in d.types:
            out.append(f"{who} plays {card.name}")
            if life_asked(d) is not None:  # a shockland: paying life as it enters, or not
                out.append(f"{who} plays {card.name} paying {life_asked(d)} life")
        elif d.halves:  # a split card: one half cast, a half with aftermath only from a graveyard (709.3)
            out.extend(c for h in d.halves if "aftermath" not in h.keywords for c in _casts(s, who, h.name, h))
            if "fuse" in d.keywords:  # or both halves, fused (702.102a)
                out.extend(_casts(s, who, f"{card.name} fused", fused_definition(d)))
        else:
            out.extend(_casts(s, who, card.name, d))
        if d is not None and cost_of(d.keywords, "cycling") is not None:
            out.append(f"{who} activates {card.name}")
    for card in s.graveyard.get(who, []):
        d = s.definition(card.name)
        if d is not None and cost_of(d.keywords, "flashback") is not None:
            out.extend(_casts(s, who, card.name, d))
        for half in d.halves if d is not None else ():
            if "aftermath" in half.keywords:
                out.extend(_casts(s, who, half.name, half))
    for perm in s.battlefield:
        abilities = s.activated(perm)  # its own, or one an Aura or Equipment gives it
        if perm.controller == who and (abilities or perm.is_a("land")) and len(abilities) <= 1:
            ability = abilities[0] if abilities else None
            effect = ability.effect if ability is not None else ""
            choice = ability.choice if ability is not None else ""
            victims = [
                f" sacrificing {p.name}"
                for p in s.battlefield
                if ability is not None and ability.sacrifice and sacrifice_fits(p, perm, ability.sacrifice, who)
            ]
            if ability is not None and ability.sacrifice and not victims:
                continue  # nothing to sacrifice: the cost cannot be paid
            for said in [f" for {{{c}}}" for c in choice] or victims or [""]:
                out.extend(_aimed(s, f"{who} activates {perm.name}{said}", target_kinds(effect), who, itself=perm))
            if perm.is_a("land") and perm.card.ability is None and ability is not None and not ability.is_mana:
                out.append(f"{who} activates {perm.name} for {{{perm.mana_colour}}}")  # its own mana ability
    return out + _moves(s, who)


def _casts(s: State, who: str, name: str, d: CardDef) -> list[str]:
    has_x = any(sym == "X" for sym, _ in d.cost) or any(uses_x(own_name(e, d.name)) for e in (d.effect, *d.modes) if e)
    offers = [p.name for p in s.battlefield if d.sacrifice and sacrifice_fits(p, p, d.sacrifice, who)]
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
        elif d.choices:  # a value chosen as it enters (614.12a), said with the spell
            out.extend(f'{head} choosing "{value}"' for value, _ in d.choices)
        elif d.is_aura:
            out.extend(_aimed(s, head, (enchants(d.keywords) or "creature",), who))
        else:
            out.extend(_aimed(s, head, target_kinds(d.effect) if d.effect else (), who))
    return out


def _takes(s: State) -> list[str]:
    """Each way to take cards from those looked at, the rest on the bottom in the order seen."""
    cards, (how, terms, k, rest) = looked_at(s)
    matching = [c for c in cards if looked_matches(s, c, terms)]
    ways: list[list[Card]] = (
        [[]] + [[c] for c in matching]
        if how == "may"
        else [list(w) for n in range(min(k, len(matching)) + 1) for w in itertools.combinations(matching, n)]
        if how == "up to"
        else [list(w) for w in itertools.combinations(cards, min(k, len(cards)))]
        if how == "exactly"
        else [[c for c, up in zip(cards, mask) if up] for mask in itertools.product((False, True), repeat=len(cards))]
        if how == "any"
        else [matching]
    )
    out = []
    for taken in ways[:MAX_CHOICES]:
        left = [scry_label(cards, c) for c in cards if c not in taken]
        said = ", ".join(scry_label(cards, c) for c in taken) or "nothing"
        back = f"; {rest} {', '.join(left)}" if rest in ("bottom", "top") and left else ""
        out.append(f"{s.deciding} takes {said}{back}")
    return out


def _scries(s: State) -> list[str]:
    """Each way to split the cards scried between the top and the bottom, each part in the order seen."""
    cards = scried(s)
    who = s.deciding or ""
    out = []
    for mask in itertools.islice(itertools.product((True, False), repeat=len(cards)), MAX_CHOICES):
        top = [scry_label(cards, c) for c, up in zip(cards, mask) if up]
        bottom = [scry_label(cards, c) for c, up in zip(cards, mask) if not up]
        parts = ([f"top {', '.join(top)}"] if top else []) + ([f"bottom {', '.join(bottom)}"] if bottom else [])
        out.append(f"{who} scries: {'; '.join(parts)}")
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
    kind = kind.removeprefix(UP_TO)
    if card_kind(kind) is not None:  # a card in a graveyard (the legality check tells whose and what)
        return [c.name for cards in s.graveyard.values() for c in cards]
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
            elif " " in kind:  # "creature with power 3 or less", "artifact or creature", "tapped creature"
                ok = kind_matches(s, p, kind, who)
            else:
                ok = p.is_a(kind)
            if ok:
                pool.append(p.name)
    return pool


def _aimed(s: State, head: str, kinds: tuple[str, ...], who: str, itself: Permanent | None = None) -> list[str]:
    pools = [_pool(s, kind, who, itself) + ([""] if kind.startswith(UP_TO) else []) for kind in kinds]
    out = []
    for combo in itertools.islice(itertools.product(*pools), MAX_CHOICES):
        if "" in combo and any(combo[combo.index("") :]):  # "up to N": only the last ones left unchosen
            continue
        chosen = [name for name in combo if name]
        out.append(head + (f" targeting {', '.join(chosen)}" if chosen else ""))
    return out
