"""Combat (506-511): declaring attackers and blockers, first strike, assigning and dealing damage.

Damage assignment among several blockers follows the order the blockers were declared: lethal damage
to each in turn, the rest to the last one (or, with trample, to the defending player). The rules let
the attacking player divide it freely (510.1c); this is the engine's fixed choice.

A creature that deals no combat damage is said to, with the rule that stops it, like any damage that
is dealt: 0 power, removed from combat, blocked with no blocker left (unless it has trample), or
blocking a creature that left combat.
"""

from __future__ import annotations

from collections.abc import Iterable

from engine.mtg.board import deal_damage, fire
from engine.mtg.legality import Attacking, Blocking, can_attack, can_block
from engine.mtg.state import Assignment, Game, Permanent, StackItem, Target


def begin_declare_attackers(g: Game) -> None:
    ap = g.s.turn_player
    if not any(can_attack(g.s, p) is None for p in g.s.battlefield):
        g.emit(f"The declare attackers step begins: {ap} has no creature that can attack", "turn.declare_attackers")
        g.s.pending = "attackers"
        declare_attackers(g, Attacking(ap, ()))
        return
    g.s.pending = "attackers"
    g.emit(f"The declare attackers step begins: {ap} declares attackers; no player has priority until then",
           "turn.declare_attackers")


def declare_attackers(g: Game, plan: Attacking) -> None:
    """The declaration :func:`engine.mtg.legality.attack` allowed (508.1): attackers tap unless they have
    vigilance; "attacks" triggers fire; the active player receives priority."""
    player, chosen = plan.player, plan.attackers
    g.s.pending = None
    if not chosen:
        g.emit(f"{player} declares no attackers: the declare blockers and combat damage steps will be skipped",
               "turn.skip_combat_steps")
    for perm in chosen:
        perm.attacking = True
        if perm.has("vigilance"):
            g.emit(f"{perm.name} attacks {g.s.defending}; it has vigilance, so it does not tap",
                   "combat.attacking", "combat.vigilance")
        else:
            perm.tapped = True
            g.emit(f"{perm.name} attacks {g.s.defending} and becomes tapped", "combat.attacking", "combat.attack_taps")
        if perm.sick:
            g.emit(f"{perm.name} can attack this turn because it has haste", "combat.haste")
        fire(g, "attacks", perm)
    g.receive_priority(player, f"{player} receives priority in the declare attackers step",
                       "turn.attackers_priority")


def begin_declare_blockers(g: Game) -> None:
    dp = g.s.defending
    g.s.pending = "blockers"
    if not any(can_block(g.s, p) for p in g.s.battlefield):
        g.emit(f"The declare blockers step begins: {dp} has no untapped creature to block with", "turn.declare_blockers")
        declare_blockers(g, Blocking(dp, ()))
        return
    g.emit(f"The declare blockers step begins: {dp} declares blockers; no player has priority until then",
           "turn.declare_blockers")


def declare_blockers(g: Game, plan: Blocking) -> None:
    """The declaration :func:`engine.mtg.legality.block` allowed (509.1); the active player receives priority."""
    player, chosen = plan.player, plan.blocks
    g.s.pending = None
    if not chosen:
        g.emit(f"{player} declares no blockers", "turn.declare_blockers")
    for attacker, blocker in chosen:
        blocker.blocking = attacker.oid
        attacker.blockers.append(blocker.oid)
        attacker.blocked = True
        g.emit(f"{blocker.name} blocks {attacker.name}: {attacker.name} becomes a blocked creature",
               "combat.blocking", "combat.blocked")
    g.receive_priority(g.s.turn_player, f"{g.s.turn_player} receives priority in the declare blockers step",
                       "turn.blockers_priority")


def _strikes_first(perm: Permanent) -> bool:
    return perm.has("first strike") or perm.has("double strike")


def _deals_in_this_step(g: Game, perm: Permanent) -> bool:
    if g.s.step == "combat_damage":
        return _strikes_first(perm) if g.s.first_strike_step else True
    return not _strikes_first(perm) or perm.has("double strike")


def damage_step(g: Game) -> None:
    combatants = [p for p in g.s.battlefield if p.attacking or p.blocking is not None]
    if g.s.step == "combat_damage":
        g.s.first_strike_step = any(_strikes_first(p) for p in combatants)
        if g.s.first_strike_step:
            fast = ", ".join(p.name for p in combatants if _strikes_first(p))
            keys = ["combat.second_step", "combat.first_strike"]
            if any(p.has("double strike") for p in combatants):
                keys.append("combat.double_strike")
            g.emit(f"The combat damage step begins: {fast} has first strike or double strike, so only those creatures "
                   "deal combat damage now; a second combat damage step follows", *keys)
    else:
        g.emit("The second combat damage step begins: the remaining creatures, and those with double strike, "
               "deal combat damage", "combat.second_step")
    for perm in g.s.left_combat:
        if _deals_in_this_step(g, perm):
            role = "an attacking" if perm.attacking else "a blocking"
            g.emit(f"{perm.name} was {role} creature, but it left the battlefield, which removed it from combat: "
                   "it deals no combat damage", "combat.removed")
    assigned = assign(g, [p for p in combatants if _deals_in_this_step(g, p)])
    if g.s.old:
        if assigned:
            g.s.stack.append(StackItem(g.s.oid(), "combat damage", g.s.turn_player, "combat damage", damage=tuple(assigned)))
            listing = "; ".join(f"{a.source} assigns {a.amount} to {a.target.name}" for a in assigned)
            g.emit(f"Combat damage is assigned and put on the stack as one object: {listing}",
                   "combat.damage_on_stack", "combat.damage_power", "stack.add")
        g.receive_priority(g.s.turn_player, f"{g.s.turn_player} receives priority with combat damage on the stack"
                           if assigned else f"{g.s.turn_player} receives priority", "combat.damage_priority")
        return
    deal_combat_damage(g, assigned)
    g.receive_priority(g.s.turn_player, f"{g.s.turn_player} receives priority in the combat damage step",
                       "combat.damage_priority")


def assign(g: Game, dealers: list[Permanent]) -> list[Assignment]:
    """Each dealer's combat damage, and an event for each that assigns none, with the rule why."""
    out: list[Assignment] = []
    planned: dict[int, int] = {}
    for perm in dealers:
        if perm.power <= 0:
            g.emit(f"{perm.name} has {perm.power} power: it assigns no combat damage", "combat.zero_power")
            continue
        if perm.attacking:
            player = Target("player", g.s.defending, g.s.defending)
            if not perm.blocked:
                out.append(Assignment(perm.name, player, perm.power, ("combat.unblocked",)))
                continue
            blockers = [b for b in (g.s.permanent(o) for o in perm.blockers) if b is not None]
            trample = perm.has("trample")
            if not blockers:
                if trample:
                    g.emit(f"{perm.name} remains a blocked creature, but no creature is blocking it now: it has "
                           f"trample, so all its {perm.power} damage is assigned to {g.s.defending}",
                           "combat.trample_no_blockers", "combat.stays_blocked")
                    out.append(Assignment(perm.name, player, perm.power, ("combat.trample_no_blockers",)))
                else:
                    g.emit(f"{perm.name} remains a blocked creature, but no creature is blocking it now: "
                           "it assigns no combat damage", "combat.no_blockers_no_damage", "combat.stays_blocked")
                continue
            to_blockers = ("combat.blocked_damage", "combat.trample") if trample else ("combat.blocked_damage",)
            left = perm.power
            for i, b in enumerate(blockers):
                lethal = max(0, b.toughness - b.damage - planned.get(b.oid, 0))
                give = left if (i == len(blockers) - 1 and not trample) else min(left, lethal)
                if give:
                    out.append(Assignment(perm.name, Target("permanent", b.oid, b.name), give, to_blockers))
                    planned[b.oid] = planned.get(b.oid, 0) + give
                left -= give
            if left and trample:
                out.append(Assignment(perm.name, player, left, ("combat.trample",)))
        elif perm.blocking is not None:
            attacker = g.s.permanent(perm.blocking)
            if attacker is None:
                g.emit(f"{perm.name} remains a blocking creature, but the creature it blocked has left combat: "
                       "it assigns no combat damage", "combat.blocking_nothing")
            else:
                out.append(Assignment(perm.name, Target("permanent", attacker.oid, attacker.name), perm.power,
                                      ("combat.blocker_damage",)))
    return out


def deal_combat_damage(g: Game, assigned: Iterable[Assignment]) -> None:
    for a in assigned:
        deal_damage(g, a.source, a.target, a.amount, "combat.damage_dealt", *a.keys, combat=True)
