"""Replacement effects (364-368): "the next time a friendly unit would die, kill this instead. ...".

A replacement effect is a passive ability of a unit or gear on the board (365.1). Where the engine is
about to carry out an event it knows ("die": a kill, by an effect or by lethal damage in a cleanup;
"damage": damage dealt by an effect or in combat), :func:`would` asks which replacement effects apply
to it (366). None: the event happens. One: the event does not happen; the replacement's ``instead``
does (366.1). Several: the owner of the object acted on orders them (368; a player acted on orders
their own, 368.1; an uncontrolled battlefield's, the turn player, 368.2). The first in that order
replaces the event; since the event then does not happen, the others no longer apply to it (367), and a
"the next time" (``once``) among them is not used up.

The engine stops for that decision like it does for ``P chooses BATTLEFIELD``: :func:`would` raises
:class:`Pause` when no answer is known yet; the game (``game.py``) reports the question, waits for
``P orders replacements: A, B``, then carries the interrupted action out again from the state before it
with the answer known (the engine is deterministic, so it reaches the same question and goes on).
What a replacement does instead is carried out through the game (:meth:`Game.execute`), like a chain
item's instructions: those may kill, which asks this module again.
"""

from __future__ import annotations

from engine.riftbound.effects import parse
from engine.riftbound.state import Awaiting, Battlefield, Card, ChainItem, Game, Replacement

EVENT_WORDS = {"die": "die", "damage": "be dealt damage"}


class Pause(Exception):
    """The rules wait for a player to order replacement effects (raised where the event executes)."""

    def __init__(self, awaiting: Awaiting, message: str, keys: tuple[str, ...]):
        super().__init__(message)
        self.awaiting, self.message, self.keys = awaiting, message, keys


def _applies(source: Card, event: str, card: Card) -> bool:
    r = source.defn.replacement
    if r is None or r.event != event or not source.on_board:
        return False
    if r.once and source.replacement_used:
        return False
    if r.who == "this":
        return source.key == card.key
    if not card.is_unit:
        return False
    if r.who.startswith("other") and source.key == card.key:
        return False
    side = r.who.removeprefix("other").strip() or "unit"
    if side == "friendly":
        return card.controller == source.controller
    if side == "enemy":
        return card.controller != source.controller
    return True


def applicable(g: Game, event: str, card: Card) -> list[Card]:
    """The objects whose replacement effects apply to ``event`` acting on ``card``, in board order.

    A replacement effect being carried out does not apply to the events its own ``instead`` causes.
    """
    return [c for c in g.s.cards.values() if c.key not in g.replacing and _applies(c, event, card)]


def decider(g: Game, acted_on: Card | Battlefield | str) -> tuple[str, str]:
    """Who orders replacement effects applying to the same event, and the citation key saying so."""
    if isinstance(acted_on, str):  # a player
        return acted_on, "replacement.player_orders"
    if isinstance(acted_on, Battlefield):
        if acted_on.controller is None:
            return g.s.turn_player, "replacement.turn_player_orders_battlefield"
        return acted_on.controller, "replacement.owner_orders"
    return acted_on.owner, "replacement.owner_orders"


def _delayed(g: Game, event: str, card: Card) -> list[tuple[str, str, int, str, str, str]]:
    """The delayed replacement effects (383.3) set up on ``card`` for ``event`` ("the next time it would die this
    turn, ... instead"), as long as it is the same object."""
    s = g.s
    return [d for d in s.delayed_replace if d[1] == card.key and d[3] == event and s.epochs.get(card.key, 0) == d[2]]


def would(g: Game, event: str, card: Card, what: str = "", *keys: str) -> bool:
    """``card`` is about to undergo ``event`` (``die`` / ``damage``). True when a replacement effect replaced it:
    the caller then does not carry the event out. ``keys``: the rules that would make the event happen."""
    found: list = applicable(g, event, card)
    if g.s.delayed_replace:
        found += _delayed(g, event, card)
    if not found:
        return False
    what = what or f"{card.name} would {EVENT_WORDS[event]}"
    if len(found) > 1:
        player, key = decider(g, card)
        names = tuple(_name(c) for c in found)
        order = g.next_answer()
        if order is None:
            listed = ", ".join(names)
            raise Pause(
                Awaiting("order", player, names, reason=key, about=what),
                f"{what}, and {len(found)} replacement effects apply to that event ({listed}): {player}, the "
                f'owner of {card.name}, decides the order they apply in ("{player} orders replacements: {listed}")',
                (key, "replacement.intercede", *keys, "priority.limited_actions_regardless"),
            )
        g.emit(
            f'{player} orders the replacement effects for "{what}": {", ".join(order)}',
            key,
            "priority.limited_actions_regardless",
        )
        by_name = {_name(c): c for c in found}
        found = [by_name[n] for n in order]
    first, rest = found[0], found[1:]
    if isinstance(first, tuple):
        _apply_delayed(g, first, card, what, keys)
    else:
        _apply(g, first, card, what, keys)
    for other in rest:
        when = (
            f"the next time {card.name} would die this turn" if isinstance(other, tuple) else _replacement(other).when
        )
        g.emit(
            f'{_name(other)}\'s replacement effect ("{when}") no longer applies: the event it '
            f"would replace did not happen",
            "replacement.alters_flow",
            *(("replacement.owner_orders",) if len(found) > 1 else ()),
        )
    return True


def _name(found: Card | tuple[str, str, int, str, str, str]) -> str:
    return found[5] if isinstance(found, tuple) else found.name


def _apply_delayed(
    g: Game, delayed: tuple[str, str, int, str, str, str], card: Card, what: str, keys: tuple[str, ...]
) -> None:
    """A delayed replacement effect (383.3) applies: used up, and its ``instead`` done to the unit ("it")."""
    controller, _, _, _, instead, name = delayed
    g.s.delayed_replace.remove(delayed)
    g.emit(
        f'{what}: {name}\'s delayed replacement effect ("the next time {card.name} would die this turn") applies, and '
        f'it does not happen; instead: "{instead}" (it is used up)',
        "delayed.replacement",
        "replacement.intercede",
        "replacement.instead",
        *keys,
    )
    item = ChainItem(f"{name} (replacement)", controller, "replacement", effect=instead)
    for ins in parse(instead):
        if not card.on_board:
            g.emit(
                f"{item.label}: {card.name} is no longer on the board; the instruction is ignored",
                "replacement.instead",
                "play.illegal_targets_unaffected",
            )
            continue
        g.execute(item, ins, card if ins.target else None, ("replacement.instead",))


def _replacement(source: Card) -> Replacement:
    r = source.defn.replacement
    assert r is not None
    return r


def _apply(g: Game, source: Card, card: Card, what: str, keys: tuple[str, ...]) -> None:
    r = _replacement(source)
    if r.once:
        source.replacement_used = True
    instead = r.instead.strip().rstrip(".")
    g.emit(
        f'{what}: {source.name}\'s replacement effect ("{r.when}") applies, and it does not happen; '
        + (f'instead: "{instead}"' if instead else "nothing happens instead")
        + (' ("the next time": this replacement effect is used up)' if r.once else ""),
        "replacement.alters",
        "replacement.passive",
        "replacement.intercede",
        "replacement.instead",
        *keys,
    )
    if not instead:
        return
    item = ChainItem(
        f"{source.name} (replacement)",
        source.controller or source.owner,
        "replacement",
        effect=r.instead,
        source=source.key,
    )
    g.replacing = (*g.replacing, source.key)
    try:
        for ins in parse(r.instead):
            target = source if ins.target and ins.target.kind == "me" else card if ins.target else None
            if target is not None and not target.on_board:
                g.emit(
                    f"{item.label}: {target.name} is no longer on the board; the instruction is ignored",
                    "replacement.instead",
                    "play.illegal_targets_unaffected",
                )
                continue
            g.execute(item, ins, target, ("replacement.instead",))
    finally:
        g.replacing = g.replacing[:-1]
