"""Sentences a player could try now: what a random-play test or a ``--step`` hint draws from.

A superset of the legal actions (the engine decides); it never leaves out the one that keeps the game
going (a pass, ending the turn, the awaited choice or assignment).
"""

from __future__ import annotations

import itertools

from engine.riftbound import effects
from engine.riftbound.legality import assignments
from engine.riftbound.state import Card, State


def candidates(s: State) -> list[str]:
    if s.winner:
        return []
    if s.awaiting is not None:
        w = s.awaiting
        if w.kind in ("showdown", "combat"):
            return [f"{w.player} chooses {o}" for o in w.options]
        if w.kind == "targets":
            return [f"{w.player} chooses " + ", ".join(combo)
                    for combo in itertools.islice(itertools.product(*w.choices), 12)]
        if w.kind == "order":
            return [f"{w.player} orders replacements: " + ", ".join(order)
                    for order in itertools.islice(itertools.permutations(w.options), 6)]
        targets = [s.cards[o.lower()] for o in w.options]
        return [f"{w.player} assigns damage: " + ", ".join(f"{n} {d}" for n, d in option.items())
                for option in assignments(w.amount, targets) if any(option.values())] or []
    out: list[str] = []
    p = s.priority
    if p is None:
        return out
    out.append(f"{p} passes")
    if p == s.turn_player and not s.chain and not s.showdown:
        out.append(f"{p} ends turn")
    units = [u for u in s.units()]
    places = ["base"] + [b.name for b in s.battlefields.values()]
    playable = [c for c in s.cards.values() if (c.zone == "hand" and c.owner == p) or (c.zone == "facedown" and c.controller == p)]
    for card in playable:
        if card.defn.type == "undefined":
            continue
        if card.defn.type == "spell":
            out.extend(_with_targets(f"{p} plays {card.name}", card.defn.effect, units, s, places))
        elif card.defn.type == "unit":
            for place in places:
                out.append(f"{p} plays {card.name} to {place}")
        else:
            out.append(f"{p} plays {card.name}")
        if card.zone == "hand" and card.defn.has("Hidden"):
            out.extend(f"{p} hides {card.name} at {b.name}" for b in s.battlefields.values())
    for u in units:
        if u.controller == p:
            out.extend(f"{p} moves {u.name} to {place}" for place in places)
            if u.defn.ability is not None:
                out.extend(_with_targets(f"{p} activates {u.name}", u.defn.ability.effect, units, s, places))
    for place in places:  # the group of every unit that could make this standard move together (143.3)
        group = [u.name for u in units if u.controller == p and not u.exhausted and _may_go(u, place)]
        if len(group) > 1:
            out.append(f"{p} moves {', '.join(group)} to {place}")
    return out


def _may_go(u: Card, place: str) -> bool:
    origin = u.location or "base"
    if origin.lower() == place.lower():
        return False
    return origin == "base" or place == "base" or u.has("Ganking")


def _with_targets(head: str, text: str, units: list[Card], s: State, places: list[str]) -> list[str]:
    wanted = [i for i in effects.parse(text) if i.chooses]
    pools = []
    for ins in wanted:
        if ins.aim.kind == "spell":
            pools.append([i.label for i in s.chain if i.kind == "spell"])
        else:
            pools.append([u.name for u in units])
    tails = [""]
    if effects.needs_place(text):
        tails = [f" to {pl}" for pl in places]
    out: list[str] = []
    for combo in itertools.islice(itertools.product(*pools), 12):
        t = f" targeting {', '.join(combo)}" if combo else ""
        out.extend(head + tail + t for tail in tails)
    return out
