"""State-based actions (704) and triggered abilities (603), checked each time a player would receive
priority (117.5), and the zone changes they cause."""

from __future__ import annotations

from engine.mtg.board import leave_battlefield
from engine.mtg.state import Game, Permanent, StackItem, base_name


def settle(g: Game) -> None:
    """Perform state-based actions until none apply, then put waiting triggers on the stack; repeat
    until neither happens (117.5, 704.3)."""
    for _ in range(100):
        acted = check_state(g)
        if g.s.over:
            return
        placed = place_triggers(g)
        if not acted and not placed:
            return


def check_state(g: Game) -> bool:
    losers: list[tuple[str, str, str]] = []
    for p in g.s.players:
        if g.s.life[p] <= 0:
            losers.append((p, f"{p} has {g.s.life[p]} life and loses the game", "sba.life"))
        if p in g.s.drew_from_empty:
            losers.append((p, f"{p} attempted to draw from an empty library and loses the game", "sba.empty_library"))
    dying: list[tuple[Permanent, str, str]] = []
    for perm in g.s.battlefield:
        if not perm.is_a("creature"):
            continue
        if perm.toughness <= 0:
            dying.append((perm, f"{perm.name} has toughness {perm.toughness} and is put into its owner's graveyard", "sba.toughness"))
        elif perm.damage >= perm.toughness:
            dying.append((perm, f"{perm.name} has lethal damage ({perm.damage} on a toughness of {perm.toughness}) and is destroyed", "sba.lethal"))
    dying += _legend_rule(g, {p.oid for p, _, _ in dying})
    if not losers and not dying:
        return False
    for perm, what, key in dying:
        g.emit(f"State-based action: {what}", "priority.sba_first", "sba.check", key)
    for perm, _, _ in dying:
        leave_battlefield(g, perm, "graveyard")
    if losers:
        for p, what, key in losers:
            g.emit(f"State-based action: {what}", "priority.sba_first", "sba.check", key,
                   "game.lose_draw" if key == "sba.empty_library" else "game.lose_life")
        g.s.lost |= {p for p, _, _ in losers}
        left = [p for p in g.s.players if p not in g.s.lost]
        g.s.winner = left[0] if len(left) == 1 else "draw"
        g.s.priority = None
        if len(left) == 1:
            g.emit(f"{left[0]} wins the game: every opponent has lost", "game.win", "game.over")
        else:
            g.emit("All players lost at once: the game is a draw", "game.over")
        g.s.drew_from_empty.clear()
    return True


def _legend_rule(g: Game, already: set[int]) -> list[tuple[Permanent, str, str]]:
    """2026: a player with two or more legendary permanents of one name keeps one (the engine keeps
    the newest, as players usually do); 2008: all legendary permanents of that name go, whoever
    controls them."""
    groups: dict[tuple[str, str], list[Permanent]] = {}
    for perm in g.s.battlefield:
        if "legendary" in perm.card.supertypes and perm.oid not in already:
            key = (base_name(perm.name).lower(), "" if g.s.old else perm.controller)
            groups.setdefault(key, []).append(perm)
    out = []
    for perms in groups.values():
        if len(perms) < 2:
            continue
        doomed = perms if g.s.old else sorted(perms, key=lambda p: p.oid)[:-1]
        for perm in doomed:
            out.append((perm, f"legend rule: {perm.name} is put into its owner's graveyard", "sba.legend"))
    return out


def place_triggers(g: Game) -> bool:
    """APNAP order: the active player's triggers go on the stack first (so resolve last); each player
    orders their own, as ``trigger_order`` says or else in the order they triggered (603.3b)."""
    if not g.s.pending_triggers:
        return False
    waiting, g.s.pending_triggers = g.s.pending_triggers, []
    for player in g.s.apnap():
        mine = [t for t in waiting if t.controller == player]
        if not mine:
            continue
        wanted = [n.lower() for n in g.s.trigger_order.get(player, [])]
        stated = bool(wanted) and len(mine) > 1
        mine.sort(key=lambda t: wanted.index(t.name.lower()) if t.name.lower() in wanted else len(wanted))
        for t in mine:
            g.s.stack.append(StackItem(g.s.oid(), t.name, player, "trigger", effect=t.effect,
                                     targets=t.targets, source=t.source))
        names = ", then ".join(t.name for t in mine)
        how = " in the order the scenario states" if stated else ""
        g.emit(f"{player} puts {names} on the stack{how} (the last one resolves first)",
               "trigger.to_stack", "trigger.apnap", "stack.add")
    g.s.passes = 0
    return True
