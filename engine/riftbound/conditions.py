"""Conditions card text puts on what it does (``if it is stunned``, ``while you have 8+ runes``): whether one
holds now, and why, in words. An effect's is checked as its instruction resolves; one opening a triggered
ability's effect also as it triggers (v1.3 383.3.e); a passive ability's while it applies (364.3)."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from engine.riftbound.effect_types import Condition, Target

if TYPE_CHECKING:
    from engine.riftbound.state import Card, ChainItem, State


def holds(
    s: State,
    me: str,
    source: Card | None,
    it: Card | None,
    cond: Condition,
    item: ChainItem | None = None,
    at: str | None = None,
    fits: Callable[[Card, Target], bool] | None = None,
) -> tuple[bool, str]:
    """Whether ``cond`` holds for ``me`` (the controller), ``source`` (the ability's) and ``it`` (what an
    earlier instruction chose), and why: checked as the instruction resolves, or as a trigger's condition is
    met (383.3.e)."""
    kind = cond.kind
    if kind == "paid":  # "if you paid the additional cost": as the card was played (a spell: this chain item)
        paid = item.paid if item is not None and item.kind == "spell" else source.paid if source is not None else ()
        ok = "additional cost" in paid
        return ok, f"its additional cost was {'' if ok else 'not '}paid"
    if kind == "failed":
        raise AssertionError('"if you can\'t" is the instruction before it, not a state: instructions.py checks it')
    if kind == "opponent_controls":
        held = [
            b.name for b in s.battlefields.values() if b.controller not in (None, me) and not s.allied(b.controller, me)
        ]
        return bool(held), (f"an opponent controls {held[0]}" if held else "no opponent controls a battlefield")
    if kind == "near_victory":
        near = [
            p for p in s.players if p != me and not s.allied(p, me) and s.victory_score - s.points.get(p, 0) <= cond.n
        ]
        return bool(near), (
            f"{near[0]} has {s.points.get(near[0], 0)} of {s.victory_score} points"
            if near
            else f"no opponent is within {cond.n} points of {s.victory_score}"
        )
    if kind in ("it", "me", "only"):
        obj = it if kind in ("it", "only") else source
        if obj is None or not obj.on_board:
            return False, f"{'no unit is chosen' if kind != 'me' else 'its source is not on the board'}"
        if kind == "only":
            mine = [
                c
                for c in s.cards.values()
                if c.is_unit
                and c.on_board
                and c.controller == me
                and (cond.where != "there" or (c.location or "").lower() == (obj.location or "").lower())
            ]
            ok = mine == [obj]
            there = f" at {obj.location}" if cond.where == "there" else ""
            return ok, f"{obj.name} is {'' if ok else 'not '}the only unit {me} controls{there}"
        ok = _in_state(s, obj, cond.state)
        return ok, f"{obj.name} is {'' if ok else 'not '}{cond.state}"
    if kind == "died":  # "if an enemy unit has died this turn": the controllers of the units that died this turn
        side = cond.target.side if cond.target is not None else None
        n = sum(
            1
            for p in s.died
            if side is None
            or (side == "enemy" and p in s.opponents(me))
            or (side in ("friendly", "your") and (p == me or (side == "friendly" and s.allied(p, me))))
        )
        what = f"{side} unit" if side else "unit"
        return bool(n), (
            f"{n} {what}{'s have' if n != 1 else ' has'} died this turn" if n else f"no {what} has died this turn"
        )
    if kind == "moved":  # "if I have moved twice this turn"
        moves = source.moves if source is not None and source.on_board else 0
        return moves >= cond.n, f"{source.name if source else 'its source'} has moved {moves} time(s) this turn"
    if kind == "discarded":  # "if you've discarded a card this turn": the cards its controller discarded
        n = s.discarded.count(me)
        return n >= cond.n, f"{me} has discarded {n} card{'' if n == 1 else 's'} this turn"
    if kind in ("control", "there"):
        assert cond.target is not None
        target = cond.target
        found = [c for c in s.cards.values() if fits is not None and fits(c, target)]
        who = f"{me} controls" if kind == "control" else "there is"
        if found:
            return True, f"{who} {found[0].name}"
        return False, f"{who} none"
    # at_least / at_most: how many units, runes or cards in hand its controller has
    here: str | None = None
    if cond.counted == "runes":
        n = len(s.runes[me] or [])
    elif cond.counted == "hand":
        n = sum(1 for c in s.cards.values() if c.zone == "hand" and c.owner == me)
    else:
        noted = dict(item.noted if item is not None else ()).get("at") or at
        own = source.location if source is not None and source.on_board else None
        here = (noted or own) if cond.where == "there" else (own or noted)
        n = sum(
            1
            for c in s.cards.values()
            if c.is_unit
            and c.on_board
            and c.controller == me
            and (not cond.where or (here is not None and (c.location or "").lower() == here.lower()))
        )
    ok = n >= cond.n if cond.kind == "at_least" else n <= cond.n
    what = {"units": "units", "runes": "runes", "hand": "cards in hand"}[cond.counted]
    where = f" at {here}" if cond.where and cond.counted == "units" and here else ""
    return ok, f"{me} has {n} {what}{where}"


def _in_state(s: State, card: Card, state: str) -> bool:
    return {
        "ready": lambda: not card.exhausted,
        "exhausted": lambda: card.exhausted,
        "stunned": lambda: card.stunned,
        "buffed": lambda: card.buffed,
        "damaged": lambda: card.damage > 0,
        "mighty": lambda: s.mighty(card),
        "at a battlefield": lambda: card.zone == "battlefield",
    }[state]()
