"""Changes every step shares: a permanent leaving the battlefield, damage dealt, cards drawn, and
triggered abilities waiting to be put on the stack (603.2; they go on as a player would receive
priority, :mod:`engine.mtg.settle`).

Each function reports what happened through ``g.emit`` (an event citing the rules) and changes ``g.s``.
"""

from __future__ import annotations

from engine.mtg.state import Card, Game, PendingTrigger, Permanent, Target


def leave_battlefield(g: Game, perm: Permanent, to: str) -> None:
    """Move a permanent to its owner's graveyard or hand; it leaves combat; "dies" triggers fire.

    Leaving combat changes nothing else: the attacker it blocked stays blocked, and a creature that
    blocked it stays a blocking creature (each then assigns no combat damage, which the damage step
    says with its rule)."""
    g.s.battlefield.remove(perm)
    if perm.attacking or perm.blocking is not None:
        g.s.left_combat.append(perm)
    for other in g.s.battlefield:
        if perm.oid in other.blockers:
            other.blockers.remove(perm.oid)
    card = Card(g.s.oid(), perm.name, perm.owner)
    (g.s.graveyard if to == "graveyard" else g.s.hand).setdefault(perm.owner, []).append(card)
    if to == "graveyard":
        fire(g, "dies", perm)


def fire(g: Game, event: str, perm: Permanent | None = None) -> None:
    """Abilities that trigger on ``event``: a step name as it begins (``upkeep``), or ``enters``,
    ``attacks``, ``dies`` for ``perm``. They wait until a player would receive priority (117.2a)."""
    sources = [perm] if perm is not None else list(g.s.battlefield)
    for source in sources:
        for n, trig in enumerate(source.card.triggers):
            when = trig.when.lower()
            if perm is None:
                own = when == event and source.controller == g.s.turn_player
                if not (own or when == f"each {event}"):
                    continue
            elif when != event:
                continue
            name = trig.name or (f"{source.name} trigger" + (f"#{n + 1}" if n else ""))
            targets = tuple(_trigger_target(g, t) for t in trig.targets)
            g.s.pending_triggers.append(PendingTrigger(name, source.controller, source.name, trig.effect, targets))
            key = "trigger.beginning" if perm is None else "trigger.controller"
            g.emit(f"{name} triggers ({source.controller} controls it)", key)


def _trigger_target(g: Game, name: str) -> Target:
    # Gone already: the trigger will not resolve (608.2b).
    return g.s.find_target(name, on_stack=False) or Target("permanent", -1, name)


def deal_damage(g: Game, source: str, target: Target, amount: int, *keys: str, combat: bool = False) -> None:
    kind = "combat damage" if combat else "damage"
    if target.kind == "player":
        player = str(target.ref)
        before = g.s.life[player]
        g.s.life[player] -= amount
        g.emit(f"{source} deals {amount} {kind} to {player}: {player}'s life goes from {before} to {g.s.life[player]}",
               *keys, "damage.player")
        return
    perm = g.s.permanent(target.ref)  # type: ignore[arg-type]
    if perm is None:
        g.emit(f"{target.name} has left the battlefield: the {amount} {kind} from {source} is not dealt", *keys,
               "zone.new_object")
        return
    perm.damage += amount
    g.emit(f"{source} deals {amount} {kind} to {perm.name} ({perm.damage} damage marked, toughness {perm.toughness})",
           *keys, "damage.creature")


def draw(g: Game, player: str, n: int, *keys: str) -> None:
    for _ in range(n):
        library = g.s.library.get(player, [])
        if not library:
            g.s.drew_from_empty.add(player)
            g.emit(f"{player} must draw a card but the library is empty", *keys, "sba.empty_library")
            continue
        card = library.pop(0)
        g.s.hand.setdefault(player, []).append(card)
        shown = card.name if card.name != "a card" else "a card"
        g.emit(f"{player} draws {shown}", *keys, "draw.card")
