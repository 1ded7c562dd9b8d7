"""Combat (506-511): declaring attackers and blockers, first strike, assigning and dealing damage.

Where the rules let the attacking player divide a creature's combat damage (several creatures block
it, or it has trample and more power than lethal damage to its blockers: 510.1c, 702.19b), the engine
waits for ``P assigns damage: X 2, Y 1`` as the combat damage step begins. Where there is one way, or a
``moves to`` passes the step, it assigns lethal damage to each blocker in the order they were declared
and the rest to the last one (with trample, to the defending player); under the 2026 rules 1 damage from
a source with deathtouch is lethal (702.2c).

A creature that deals no combat damage is said to, with the rule that stops it, like any damage that
is dealt: 0 power, removed from combat, blocked with no blocker left (unless it has trample), or
blocking a creature that left combat.
"""

from __future__ import annotations

from collections.abc import Iterable

from engine.mtg.board import deal_damage, fire, fire_controlled, keyword_triggers
from engine.mtg.conditions import note
from engine.mtg.exert import EXERTED, YOU_EXERT
from engine.mtg.legality import AssigningDamage, Attacking, Blocking, can_attack, can_block, lethal
from engine.mtg.state import Assignment, Game, Permanent, StackItem, Target


def begin_declare_attackers(g: Game) -> None:
    ap = g.s.turn_player
    if not any(can_attack(g.s, p) is None for p in g.s.battlefield):
        g.emit(f"The declare attackers step begins: {ap} has no creature that can attack", "turn.declare_attackers")
        for perm in g.s.battlefield:
            if can_attack(g.s, perm) == "combat.attack_restriction":
                source = g.s.cant(perm, "attack")
                g.emit(
                    f"{perm.name} can't attack: {source.name if source else 'an effect'} says so",
                    "combat.attack_restriction",
                )
        g.s.pending = "attackers"
        declare_attackers(g, Attacking(ap, ()))
        return
    g.s.pending = "attackers"
    g.emit(
        f"The declare attackers step begins: {ap} declares attackers; no player has priority until then",
        "turn.declare_attackers",
    )


def declare_attackers(g: Game, plan: Attacking) -> None:
    """The declaration :func:`engine.mtg.legality.attack` allowed (508.1): attackers tap unless they have
    vigilance; "attacks" triggers fire; the active player receives priority."""
    player, chosen = plan.player, plan.attackers
    g.s.pending = None
    if not chosen:
        g.emit(
            f"{player} declares no attackers: the declare blockers and combat damage steps will be skipped",
            "turn.skip_combat_steps",
        )
    if chosen:
        note(g.s, f"attacked:{player}")  # "if you attacked with a creature this turn" (raid)
    for perm in chosen:
        perm.attacking = True
        if g.s.has(perm, "vigilance"):
            g.emit(
                f"{perm.name} attacks {g.s.defending}; it has vigilance, so it does not tap",
                "combat.attacking",
                "combat.vigilance",
            )
        else:
            perm.tapped = True
            g.emit(f"{perm.name} attacks {g.s.defending} and becomes tapped", "combat.attacking", "combat.attack_taps")
        if perm.sick:
            g.emit(f"{perm.name} can attack this turn because it has haste", "combat.haste")
        fire(g, "attacks", perm)
        keyword_triggers(g, "attacks", player, perm)  # battle cry
    for perm in plan.exerted:
        exert(g, perm)
    if len(chosen) == 1:
        keyword_triggers(g, "attacks alone", player, chosen[0])
    g.receive_priority(player, f"{player} receives priority in the declare attackers step", "turn.attackers_priority")


def exert(g: Game, perm: Permanent) -> None:
    """An attacker exerted as it attacks (an optional cost to attack, 508.1g): it won't untap during its
    controller's next untap step (701.43a); its linked "when you do" ability and its controller's "whenever
    you exert a creature" abilities trigger (607.2h)."""
    g.s.skip_untap[perm.oid] = "it was exerted"
    g.emit(
        f"{perm.controller} exerts {perm.name} as it attacks: it won't untap during {perm.controller}'s next "
        "untap step",
        "combat.optional_attack_cost",
        "effect.exert",
    )
    fire(g, EXERTED, perm)
    fire_controlled(g, YOU_EXERT, perm.controller)


def begin_declare_blockers(g: Game) -> None:
    dp = g.s.defending
    g.s.pending = "blockers"
    if not any(can_block(g.s, p) for p in g.s.battlefield):
        g.emit(
            f"The declare blockers step begins: {dp} has no untapped creature to block with", "turn.declare_blockers"
        )
        declare_blockers(g, Blocking(dp, ()))
        return
    g.emit(
        f"The declare blockers step begins: {dp} declares blockers; no player has priority until then",
        "turn.declare_blockers",
    )


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
        keys = ["combat.blocking", "combat.blocked"]
        if g.s.has(attacker, "flying"):
            keys.append("keyword.reach" if not g.s.has(blocker, "flying") else "keyword.flying")
        if g.s.has(attacker, "menace"):
            keys.append("keyword.menace")
        g.emit(f"{blocker.name} blocks {attacker.name}: {attacker.name} becomes a blocked creature", *keys)
    for _attacker, blocker in chosen:
        fire(g, "blocks", blocker)
    for attacker in {a.oid: a for a, _ in chosen}.values():  # each attacker "becomes blocked" once (509.3c)
        keyword_triggers(g, "becomes blocked", attacker.controller, attacker)  # afflict
    g.receive_priority(
        g.s.turn_player, f"{g.s.turn_player} receives priority in the declare blockers step", "turn.blockers_priority"
    )


def _strikes_first(g: Game, perm: Permanent) -> bool:
    return g.s.has(perm, "first strike") or g.s.has(perm, "double strike")


def _deals_in_this_step(g: Game, perm: Permanent) -> bool:
    if g.s.step == "combat_damage":
        return _strikes_first(g, perm) if g.s.first_strike_step else True
    # 510.4: those that had neither first strike nor double strike as the first combat damage step began,
    # and those that have double strike now; what they gained or lost since changes nothing else (702.7c)
    return perm.oid not in g.s.struck_first or g.s.has(perm, "double strike")


def remember_first_strikers(g: Game) -> None:
    """As the first combat damage step begins: which attackers and blockers have first strike or double
    strike (the second combat damage step asks who had them then, 510.4)."""
    combatants = [p for p in g.s.battlefield if p.attacking or p.blocking is not None]
    g.s.struck_first = frozenset(p.oid for p in combatants if _strikes_first(g, p))
    g.s.struck_double = frozenset(p.oid for p in combatants if g.s.has(p, "double strike"))


def _strike_changes(g: Game, combatants: list[Permanent]) -> None:
    """Say, with its rule, when first strike or double strike gained or lost since the first combat damage
    step began decides differently from what the creature has now (702.7c, 702.4c-d)."""
    s = g.s
    for perm in combatants:
        had, had_double = perm.oid in s.struck_first, perm.oid in s.struck_double
        first, double = s.has(perm, "first strike"), s.has(perm, "double strike")
        if not had and first and not double:
            g.emit(
                f"{perm.name} has first strike now, but it had neither first strike nor double strike as the first "
                "combat damage step began: it assigns combat damage in this step all the same",
                "combat.first_strike_gained",
                "combat.second_step",
            )
        elif had and not had_double and double:
            g.emit(
                f"{perm.name} gained double strike after the first combat damage step began: it assigns combat "
                "damage again in this step",
                "combat.double_strike_gained",
                "combat.second_step",
            )
        elif had_double and not double:
            g.emit(
                f"{perm.name} had double strike as the first combat damage step began but no longer has it: it "
                "assigns no combat damage in this step",
                "combat.double_strike_removed",
                "combat.second_step",
            )
        elif had and not first and not double:
            g.emit(
                f"{perm.name} no longer has first strike, but it had it as the first combat damage step began: it "
                "assigns no combat damage in this step",
                "combat.first_strike_removed",
                "combat.second_step",
            )


def damage_step(g: Game) -> None:
    combatants = [p for p in g.s.battlefield if p.attacking or p.blocking is not None]
    if g.s.step == "combat_damage":
        g.s.first_strike_step = any(_strikes_first(g, p) for p in combatants)
        remember_first_strikers(g)
        if g.s.first_strike_step:
            fast = ", ".join(p.name for p in combatants if _strikes_first(g, p))
            keys = ["combat.second_step", "combat.first_strike"]
            if any(g.s.has(p, "double strike") for p in combatants):
                keys.append("combat.double_strike")
            g.emit(
                f"The combat damage step begins: {fast} has first strike or double strike, so only those creatures "
                "deal combat damage now; a second combat damage step follows",
                *keys,
            )
    else:
        g.emit(
            "The second combat damage step begins: the remaining creatures, and those with double strike, "
            "deal combat damage",
            "combat.second_step",
        )
        _strike_changes(g, combatants)
    for perm in g.s.left_combat:
        if _deals_in_this_step(g, perm):
            role = "an attacking" if perm.attacking else "a blocking"
            g.emit(
                f"{perm.name} was {role} creature, but it left the battlefield, which removed it from combat: "
                "it deals no combat damage",
                "combat.removed",
            )
    choices = [p for p in combatants if p.attacking and _deals_in_this_step(g, p) and has_choice(g, p)]
    if choices:
        g.s.pending, g.s.deciding, g.s.priority = "damage", g.s.turn_player, None
        g.s.awaiting, g.s.assigned = tuple(p.oid for p in choices), ()
        g.emit(
            f"{g.s.turn_player} announces how {', '.join(p.name for p in choices)} "
            f"assign{'s' if len(choices) == 1 else ''} combat damage ({_why_choice(g, choices[0])}); no player has "
            "priority until then",
            "combat.assign",
            "combat.blocked_damage",
        )
        return
    finish_damage(g)


def has_choice(g: Game, attacker: Permanent) -> bool:
    """Can the attacking player divide ``attacker``'s combat damage in more than one way (510.1c, 702.19b)?"""
    power = g.s.power(attacker)
    if power <= 0 or not attacker.blocked:
        return False
    blockers = [b for b in (g.s.permanent(o) for o in attacker.blockers) if b is not None]
    if len(blockers) >= 2:
        return True
    if blockers and g.s.has(attacker, "trample"):
        return power > lethal(g.s, blockers[0], g.s.source_of(attacker), 0)
    return False


def _why_choice(g: Game, attacker: Permanent) -> str:
    blockers = [b.name for b in (g.s.permanent(o) for o in attacker.blockers) if b is not None]
    if g.s.has(attacker, "trample"):
        return f"{attacker.name} has trample: among {', '.join(blockers)} and {g.s.defending}"
    return f"{attacker.name} is blocked by {' and '.join(blockers)}"


def announce(g: Game, plan: AssigningDamage) -> None:
    """The active player's assignment of one attacker's combat damage (510.1c); when none is awaited any
    more, the damage is dealt (or put on the stack, 2008)."""
    s = g.s
    s.assigned += plan.assignments
    s.awaiting = tuple(o for o in s.awaiting if o != plan.attacker.oid)
    listing = ", ".join(f"{a.amount} to {a.target.name}" for a in plan.assignments)
    keys = [k for a in plan.assignments for k in a.keys if k != "combat.chosen"]
    g.emit(
        f"{plan.player} assigns {plan.attacker.name}'s {s.power(plan.attacker)} combat damage: {listing}",
        "combat.assign",
        *dict.fromkeys(keys),
    )
    if not s.awaiting:
        finish_damage(g)


def assign_by_default(g: Game) -> None:
    """Moving past the assignment: the attackers still awaited assign their damage the engine's way."""
    names = ", ".join(p.name for p in (g.s.permanent(o) for o in g.s.awaiting) if p is not None)
    g.emit(
        f"No assignment is announced for {names}: lethal damage to each blocker in the order they were declared, "
        "the rest to the last (with trample, to the defending player)",
        "combat.assign",
    )
    g.s.awaiting = ()
    finish_damage(g)


def finish_damage(g: Game) -> None:
    """Assign what is not announced yet, then deal it (2026) or put it on the stack (2008)."""
    chosen = g.s.assigned
    g.s.pending = g.s.deciding = None
    g.s.assigned, g.s.awaiting = (), ()
    done = {a.source.oid for a in chosen}
    combatants = [p for p in g.s.battlefield if p.attacking or p.blocking is not None]
    assigned = [a for a in assign(g, [p for p in combatants if _deals_in_this_step(g, p) and p.oid not in done])]
    assigned = _in_order(g, list(chosen) + assigned)
    if g.s.follows("combat_damage_on_stack"):
        if assigned:
            g.s.stack.append(
                StackItem(g.s.oid(), "combat damage", g.s.turn_player, "combat damage", damage=tuple(assigned))
            )
            listing = "; ".join(f"{a.source.name} assigns {a.amount} to {a.target.name}" for a in assigned)
            g.emit(
                f"Combat damage is assigned and put on the stack as one object: {listing}",
                "combat.damage_on_stack",
                "combat.damage_power",
                "stack.add",
            )
        g.receive_priority(
            g.s.turn_player,
            f"{g.s.turn_player} receives priority with combat damage on the stack"
            if assigned
            else f"{g.s.turn_player} receives priority",
            "combat.damage_priority",
        )
        return
    deal_combat_damage(g, assigned)
    g.receive_priority(
        g.s.turn_player, f"{g.s.turn_player} receives priority in the combat damage step", "combat.damage_priority"
    )


def _in_order(g: Game, assigned: list[Assignment]) -> list[Assignment]:
    """The assignments in the order of their sources on the battlefield (all are dealt at once, 510.2)."""
    rank = {p.oid: i for i, p in enumerate(g.s.battlefield)}
    return sorted(assigned, key=lambda a: rank.get(a.source.oid, 0))


def assign(g: Game, dealers: list[Permanent]) -> list[Assignment]:
    """Each dealer's combat damage, and an event for each that assigns none, with the rule why."""
    out: list[Assignment] = []
    planned: dict[int, int] = {}
    s = g.s
    for perm in dealers:
        power = s.power(perm)
        source = s.source_of(perm)
        if power <= 0:
            g.emit(f"{perm.name} has {power} power: it assigns no combat damage", "combat.zero_power")
            continue
        if perm.attacking:
            player = Target("player", s.defending, s.defending)
            if not perm.blocked:
                out.append(Assignment(source, player, power, ("combat.unblocked",)))
                continue
            blockers = [b for b in (s.permanent(o) for o in perm.blockers) if b is not None]
            trample = s.has(perm, "trample")
            if not blockers:
                if trample:
                    g.emit(
                        f"{perm.name} remains a blocked creature, but no creature is blocking it now: it has "
                        f"trample, so all its {power} damage is assigned to {s.defending}",
                        "combat.trample_no_blockers",
                        "combat.stays_blocked",
                    )
                    out.append(Assignment(source, player, power, ("combat.trample_no_blockers",)))
                else:
                    g.emit(
                        f"{perm.name} remains a blocked creature, but no creature is blocking it now: "
                        "it assigns no combat damage",
                        "combat.no_blockers_no_damage",
                        "combat.stays_blocked",
                    )
                continue
            to_blockers = ("combat.blocked_damage", "combat.trample") if trample else ("combat.blocked_damage",)
            deadly = trample and source.has("deathtouch")  # 702.2c; 2008: the actual toughness, 502.9d
            left = power
            for i, b in enumerate(blockers):
                needed = lethal(s, b, source, planned.get(b.oid, 0))
                give = left if (i == len(blockers) - 1 and not trample) else min(left, needed)
                if give:
                    keys = to_blockers + (("keyword.deathtouch_lethal",) if deadly else ())
                    out.append(Assignment(source, Target("permanent", b.oid, b.name), give, keys))
                    planned[b.oid] = planned.get(b.oid, 0) + give
                left -= give
            if left and trample:
                out.append(
                    Assignment(
                        source, player, left, ("combat.trample",) + (("keyword.deathtouch_lethal",) if deadly else ())
                    )
                )
        elif perm.blocking is not None:
            attacker = s.permanent(perm.blocking)
            if attacker is None or not attacker.attacking:  # gone, or removed from combat (regenerated)
                g.emit(
                    f"{perm.name} remains a blocking creature, but the creature it blocked has left combat: "
                    "it assigns no combat damage",
                    "combat.blocking_nothing",
                )
            else:
                out.append(
                    Assignment(
                        source, Target("permanent", attacker.oid, attacker.name), power, ("combat.blocker_damage",)
                    )
                )
    return out


def deal_combat_damage(g: Game, assigned: Iterable[Assignment]) -> None:
    """All assigned combat damage is dealt at once (510.2); a source still on the battlefield is looked at
    as it is now, one that left by its last known information (2008: 310.4b)."""
    for a in assigned:
        perm = g.s.permanent(a.source.oid)
        source = g.s.source_of(perm) if perm is not None else a.source
        deal_damage(g, source, a.target, a.amount, "combat.damage_dealt", *a.keys, combat=True)
