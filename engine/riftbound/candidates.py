"""Sentences a player could try now: what a random-play test or a ``--step`` hint draws from.

A superset of the legal actions (the engine decides); it never leaves out the one that keeps the game
going (a pass, ending the turn, the awaited choice or assignment).
"""

from __future__ import annotations

import itertools

from engine.riftbound import effects
from engine.riftbound.legality import assignments
from engine.riftbound.state import Awaiting, Card, State


def _optional_tail(card: Card, own: list[Card]) -> list[str]:
    """ "paying additional cost", with the unit it uses ("using Vi") when one is needed."""
    assert card.defn.optional_cost is not None
    for ins in card.defn.optional_cost.extra:
        if ins.verb in ("spend_buff", "exhaust"):
            fit = [u for u in own if (u.buffed if ins.verb == "spend_buff" else not u.exhausted)]
            return [f" paying additional cost using {u.name}" for u in fit[:2]]
    return [" paying additional cost"]


def candidates(s: State) -> list[str]:
    if s.winner:
        return []
    if s.awaiting is not None:
        w = s.awaiting
        if w.kind in ("showdown", "combat"):
            return [f"{w.player} chooses {o}" for o in w.options]
        if w.kind == "targets":
            return [f"{w.player} chooses " + (", ".join(combo) or "nothing") for combo in _target_combos(w)]
        if w.kind in ("pick", "choice"):
            return [f"{w.player} chooses {o}" for o in w.options]
        if w.kind == "subset":
            return [
                f"{w.player} chooses " + (", ".join(combo) or "nothing")
                for n in range(len(w.options), -1, -1)
                for combo in itertools.islice(itertools.combinations(w.options, n), 4)
            ]
        if w.kind == "may":
            return [f"{w.player} accepts", f"{w.player} declines"]
        if w.kind == "order":
            return [
                f"{w.player} orders replacements: " + ", ".join(order)
                for order in itertools.islice(itertools.permutations(w.options), 6)
            ]
        targets = [s.cards[o.lower()] for o in w.options]
        return [
            f"{w.player} assigns damage: " + ", ".join(f"{n} {d}" for n, d in option.items())
            for option in assignments(w.amount, targets, s)
            if any(option.values())
        ] or []
    out: list[str] = []
    p = s.priority
    if p is None:
        return out
    out.append(f"{p} passes")
    if p == s.turn_player and not s.chain and not s.showdown:
        out.append(f"{p} ends turn")
    units = [u for u in s.units()]
    objects = [c for c in s.cards.values() if c.on_board or c.zone in ("facedown", "trash", "legend")]
    places = ["base"] + [b.name for b in s.battlefields.values()]
    playable = [
        c
        for c in s.cards.values()
        if (c.zone in ("hand", "champion") and c.owner == p) or (c.zone == "facedown" and c.controller == p)
    ]
    for card in playable:
        if card.defn.type == "undefined":
            continue
        tails = [""]
        if card.defn.has("Accelerate"):
            tails.append(" paying Accelerate")
        if card.defn.repeat is not None:
            tails.append(" paying Repeat")
        if card.defn.optional_cost is not None:
            tails.extend(_optional_tail(card, [u for u in units if u.controller == p]))
        kill = ""
        if card.defn.additional_cost is not None:
            own = [u for u in units if u.controller == p]
            kill = f" killing {own[0].name}" if own else ""
        if card.defn.type == "spell":
            for tail in tails:
                text = card.defn.effect
                wanted = effects.chosen(effects.parse(text)) * (2 if tail == " paying Repeat" else 1)
                out.extend(
                    x + tail + kill for x in _with_targets(f"{p} plays {card.name}", text, wanted, objects, s, places)
                )
        elif card.defn.type == "unit":
            for place in places:
                out.extend(f"{p} plays {card.name} to {place}{tail}{kill}" for tail in tails)
        else:
            out.append(f"{p} plays {card.name}{kill}")
        if card.zone in ("hand", "champion") and card.defn.has("Hidden"):
            out.extend(f"{p} hides {card.name} at {b.name}" for b in s.battlefields.values())
    for u in [c for c in s.cards.values() if (c.on_board or c.zone == "legend") and c.controller == p]:
        if u.is_unit:
            out.extend(f"{p} moves {u.name} to {place}" for place in places)
        if u.defn.ability is not None:
            text = u.defn.ability.effect
            out.extend(
                _with_targets(f"{p} activates {u.name}", text, effects.chosen(effects.parse(text)), objects, s, places)
            )
        if u.defn.equip is not None:
            out.extend(f"{p} equips {u.name} to {x.name}" for x in units if x.controller == p)
    for place in places:  # the group of every unit that could make this standard move together (143.3)
        group = [u.name for u in units if u.controller == p and not u.exhausted and _may_go(u, place)]
        if len(group) > 1:
            out.append(f"{p} moves {', '.join(group)} to {place}")
    runes = s.runes.get(p)
    if runes:
        ready = sum(1 for r in runes if not r.exhausted)
        out.extend(f"{p} exhausts {n} runes" if n > 1 else f"{p} exhausts a rune" for n in range(1, min(ready, 4) + 1))
        out.append(f"{p} recycles a rune")
        for domain in sorted({r.domain for r in runes if r.domain}):
            out.append(f"{p} recycles a {domain} rune")
    return out


def _target_combos(w: Awaiting) -> list[tuple[str, ...]]:
    least = w.least or tuple(1 for _ in w.choices)
    most = w.options_most or tuple(1 for _ in w.choices)
    per: list[list[tuple[str, ...]]] = []
    for valid, lo, hi in zip(w.choices, least, most):
        sizes = range(lo, min(hi, len(valid)) + 1)
        per.append([c for n in sizes for c in itertools.islice(itertools.combinations(valid, n), 6)])
    return [tuple(x for part in combo for x in part) for combo in itertools.islice(itertools.product(*per), 12)]


def _may_go(u: Card, place: str) -> bool:
    origin = u.location or "base"
    if origin.lower() == place.lower():
        return False
    return origin == "base" or place == "base" or u.has("Ganking")


def _with_targets(head: str, text: str, wanted: list, objects: list[Card], s: State, places: list[str]) -> list[str]:
    pools = []
    for ins in wanted:
        if ins.aim.kind == "spell":
            names = [i.label for i in s.chain if i.kind == "spell"]
        elif ins.aim.kind == "battlefield":
            names = [b.name for b in s.battlefields.values()]
        elif ins.aim.kind == "card":
            names = [c.name for c in objects if c.zone == "trash"]
        elif ins.aim.kind == "facedown":
            names = [c.name for c in objects if c.zone == "facedown"]
        elif ins.aim.kind == "any":
            names = [c.name for c in objects if c.zone == "facedown" or c.on_board]
        else:
            names = [c.name for c in objects if c.on_board and (c.is_unit if ins.aim.kind == "unit" else True)]
        n = ins.aim.count
        if ins.aim.upto:
            pool = [tuple(c) for k in range(0, min(ins.aim.upto, 2) + 1) for c in itertools.combinations(names, k)]
            total = dict(ins.aim.filters).get("total_might")
            if total is not None:  # a group at one battlefield (352.11): as many as fit there, in board order
                for bf in s.battlefields.values():
                    group: list[str] = []
                    for u in s.units_at(bf.name):
                        if u.name in names and sum(s.might(s.cards[n.lower()]) for n in group) + s.might(u) <= total:
                            group.append(u.name)
                    if len(group) > 2:
                        pool.insert(0, tuple(group))
            pools.append(pool)
        else:
            pools.append([tuple(c) for c in itertools.combinations(names, n)] if n > 1 else [(x,) for x in names])
    tails = [""]
    if effects.needs_place(text):
        tails = [f" to {pl}" for pl in places]
    out: list[str] = []
    for combo in itertools.islice(itertools.product(*pools), 12):
        flat = [x for part in combo for x in part]
        t = f" targeting {', '.join(flat)}" if flat else ""
        out.extend(head + tail + t for tail in tails)
    return out
