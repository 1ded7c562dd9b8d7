"""Combat (437-444): staging, the showdown step, damage assignment, simultaneous damage, resolution.

Damage assignment (443.1.d): lethal damage in full before the next unit, no excess until every unit has
lethal damage, Tank units first. :func:`assignments` lists every assignment those rules allow; when only
one is possible the engine makes it, otherwise it waits for ``P assigns damage: U 2, V 1``.

>>> from engine.riftbound.state import Card, CardDef
>>> a = Card("A", "Ben", CardDef("unit", might=3), zone="battlefield", at="X")
>>> t = Card("T", "Ben", CardDef("unit", frozenset({"Tank"}), might=2), zone="battlefield", at="X")
>>> assignments(4, [a, t])
[{'A': 2, 'T': 2}]
>>> sorted(map(sorted, (d.items() for d in assignments(3, [a, Card("B", "Ben", CardDef("unit", might=3))]))))
[[('A', 0), ('B', 3)], [('A', 3), ('B', 0)]]
"""

from __future__ import annotations

import itertools

from engine.riftbound import board, replacement
from engine.riftbound.state import Awaiting, Card, Combat, Showdown, might


def stage(g) -> None:
    """Cleanup step 7: a combat is staged where Contested was applied and opposing players' units are present."""
    s = g.s
    for bf in s.battlefields.values():
        live = s.combat is not None and s.combat.at == bf.key
        should = bf.contested_by is not None and len(s.players_at(bf.name)) >= 2 and not live
        if should and bf.key not in s.staged_combats:
            s.staged_combats.append(bf.key)
            g.emit(f"Units of {' and '.join(s.players_at(bf.name))} are at {bf.name}, which is Contested: "
                   f"a Combat is staged there", "cleanup.stage_combat", "combat.staged")
        elif not should and bf.key in s.staged_combats and not live:
            s.staged_combats.remove(bf.key)
            g.emit(f"Opposing units are no longer both at {bf.name}: the Combat staged there is no longer staged",
                   "cleanup.combat_unstaged")


def begin(g, key: str) -> None:
    s = g.s
    bf = s.bf(key)
    if key in s.staged_combats:
        s.staged_combats.remove(key)
    present = s.players_at(bf.name)
    attacker = bf.contested_by if bf.contested_by in present else s.in_turn_order(present)[0]
    defender = next(p for p in s.in_turn_order(present) if p != attacker)
    c = s.combat = Combat(key, attacker, defender)
    g.emit(f"Combat begins at {bf.name}: {attacker}'s units applied Contested, so {attacker} is the Attacker and "
           f"{defender} is the Defender", "cleanup.begin_combat", "combat.occurs", "combat.attacker", "combat.defender")
    s.showdown = Showdown(key, combat=True)
    s.focus = s.priority = attacker
    g.emit(f"Step 1 of Combat: a Showdown opens at {bf.name}; {attacker}, the Attacker, gains Focus and Priority",
           "combat.showdown_step", "showdown.first_step_of_combat", "combat.attacker_focus", "focus.gains_priority")
    before = len(s.chain)
    _designate(g, c, bf.name, initial=True)
    if len(s.chain) > before:
        s.showdown.initial_chain = True
        g.emit("The triggered abilities form the Showdown's Initial Chain: the turn is Closed",
               "showdown.initial_chain", "combat.initial_chain_closes", "state.closed")


def _designate(g, c: Combat, place: str, initial: bool) -> None:
    """Give units at the combat their controller's designation; attack and defend triggers go on in order."""
    s = g.s
    new: list[Card] = []
    for u in s.units_at(place):
        want = "attacker" if u.controller == c.attacker else "defender" if u.controller == c.defender else None
        if want and u.designation != want:
            u.designation = want
            new.append(u)
    if not new:
        return
    for side, key in (("attacker", "combat.attacker_units"), ("defender", "combat.defender_units")):
        names = [u.name for u in new if u.designation == side]
        if names:
            rule = key if initial else "cleanup.designation_gained"
            g.emit(f"{', '.join(names)} {'gains' if len(names) == 1 else 'gain'} the {side.capitalize()} designation", rule,
                   *(("cleanup.designations",) if not initial else ()))
    # The Attacker's triggers first, then the other non-defenders in turn order, the Defender's last (442.1.b.1).
    order = [c.attacker] + [p for p in s.in_turn_order(s.players) if p not in (c.attacker, c.defender)] + [c.defender]
    for player in order:
        for u in new:
            if u.controller != player:
                continue
            when, seen, key = (("attack", c.attacked, "trigger.attack") if u.designation == "attacker"
                               else ("defend", c.defended, "trigger.defend"))
            effect = u.defn.trigger(when)
            if effect is not None and u.key not in seen:
                seen.add(u.key)
                board.add_trigger(g, u, when, effect, player, key, "combat.initial_chain_order", initial=initial)


def update_designations(g) -> None:
    """Cleanup step 3 during a combat (322.5)."""
    s = g.s
    c = s.combat
    place = s.bf(c.at).name
    for u in s.units():
        if u.designation and (u.location or "").lower() != c.at:
            u.designation = None
            g.emit(f"{u.name} is no longer at {place}: it loses its designation", "cleanup.designations",
                   "cleanup.designation_lost_elsewhere")
    _designate(g, c, place, initial=False)


def _side(g, designation: str) -> list[Card]:
    c = g.s.combat
    return [u for u in g.s.units_at(g.s.bf(c.at).name) if u.designation == designation]


def damage_step(g) -> None:
    s = g.s
    c = s.combat
    c.step = "damage"
    place = s.bf(c.at).name
    attackers, defenders = _side(g, "attacker"), _side(g, "defender")
    if not attackers or not defenders:
        g.emit(f"Step 2 of Combat: {'no Attackers' if not attackers else 'no Defenders'} remain at {place}: "
               "the Combat Damage Step is skipped", "combat.damage_skipped")
        resolution(g)
        return
    g.emit(f"Step 2 of Combat, Combat Damage at {place}: the Attackers have {_total(attackers)} Might "
           f"({_might_list(attackers)}), the Defenders {_total(defenders)} ({_might_list(defenders)})",
           "combat.damage_step", "combat.sum_attackers", "combat.sum_defenders",
           *(("stun.no_combat_might",) if any(u.stunned for u in attackers + defenders) else ()))
    c.assigned = {}
    next_assignment(g)


def _total(units: list[Card]) -> int:
    return sum(0 if u.stunned else might(u) for u in units)


def _might_list(units: list[Card]) -> str:
    return ", ".join(f"{u.name} {0 if u.stunned else might(u)}" + (" stunned" if u.stunned else "") for u in units)


def lethal(u: Card) -> int:
    return max(1, might(u) - u.damage)


def assignments(total: int, targets: list[Card]) -> list[dict[str, int]]:
    """Every assignment of ``total`` damage among ``targets`` that 443.1.d.3-4 and Tank allow."""
    if total <= 0 or not targets:
        return [{}]
    if sum(lethal(u) for u in targets) <= total:
        # Every unit gets lethal damage; where the excess goes changes nothing that matters.
        out = {u.name: lethal(u) for u in targets}
        out[targets[-1].name] += total - sum(out.values())
        return [out]
    tanks = [u for u in targets if u.has("Tank")]
    others = [u for u in targets if not u.has("Tank")]
    seen: list[dict[str, int]] = []
    if len(targets) > 7:  # too many orders to list: any order of the tanks, then the rest, in listed order
        orders = [tanks + others]
    else:
        orders = [list(a) + list(b) for a in itertools.permutations(tanks) for b in itertools.permutations(others)]
    for order in orders:
        left, out = total, {u.name: 0 for u in targets}
        for u in order:
            give = min(left, lethal(u))
            out[u.name] = give
            left -= give
            if left == 0:
                break
        if out not in seen:
            seen.append(out)
    return seen


def check_assignment(damage: dict[str, int], total: int, targets: list[Card]) -> tuple[str, str] | None:
    """Why ``damage`` breaks the assignment rules, as (message, citation key), or None when it is allowed."""
    names = {u.name.lower(): u for u in targets}
    for name in damage:
        if name.lower() not in names:
            return f"{name} is not one of the units to assign damage to ({', '.join(u.name for u in targets)})", "combat.assign"
    if sum(damage.values()) != total:
        return f"the damage to assign is {total}, not {sum(damage.values())}", "combat.assign"
    given = {u.name: next((v for k, v in damage.items() if k.lower() == u.name.lower()), 0) for u in targets}
    short = [u for u in targets if given[u.name] < lethal(u)]
    if len([u for u in short if given[u.name] > 0]) > 1:
        return "a unit must be assigned lethal damage in full before damage is assigned to another", "combat.lethal_before_next"
    if short and any(given[u.name] > lethal(u) for u in targets):
        return "no unit may be assigned more than lethal damage while another unit has less than lethal", "combat.no_excess_before_all_lethal"
    tanks = [u for u in targets if u.has("Tank")]
    if any(given[u.name] < lethal(u) for u in tanks) and any(given[u.name] > 0 for u in targets if not u.has("Tank")):
        return "units with Tank must be assigned lethal damage before any other unit", "combat.tank_first"
    return None


def next_assignment(g) -> None:
    s = g.s
    c = s.combat
    for player, own, theirs in ((c.attacker, "attacker", "defender"), (c.defender, "defender", "attacker")):
        if player in c.assigned:
            continue
        total = _total(_side(g, own))
        targets = _side(g, theirs)
        options = assignments(total, targets)
        if len(options) == 1:
            record(g, player, options[0], chosen=False)
            continue
        s.awaiting = Awaiting("assign", player, tuple(u.name for u in targets), total)
        s.priority = None
        g.emit(f"{player} must assign {total} damage among {', '.join(u.name for u in targets)} "
               f"(\"{player} assigns damage: {targets[0].name} {min(total, lethal(targets[0]))}, ...\")",
               "combat.assign", "combat.lethal_before_next", "priority.limited_actions_regardless",
               *(("combat.tank_first",) if any(u.has("Tank") for u in targets) else ()))
        return
    deal(g)


def record(g, player: str, damage: dict[str, int], chosen: bool) -> None:
    c = g.s.combat
    c.assigned[player] = damage
    text = ", ".join(f"{n} {d}" for n, d in damage.items() if d) or "nothing"
    g.emit(f"{player} {'assigns' if chosen else 'has one way to assign damage and assigns'}: {text}", "combat.assign",
           "combat.lethal_before_next")


def deal(g) -> None:
    s = g.s
    c = s.combat
    dealt = []
    hits = [(s.cards[name.lower()], n) for damage in c.assigned.values() for name, n in damage.items() if n]
    # Replacement effects on combat damage are applied unit by unit, before the damage is dealt at once.
    hits = [(unit, n) for unit, n in hits
            if not replacement.would(g, "damage", unit, f"{unit.name} would be dealt {n} combat damage",
                                       "combat.deal_assigned")]
    for unit, n in hits:
        unit.damage += n
        dealt.append(f"{n} to {unit.name}")
    g.emit(f"All assigned damage is dealt simultaneously: {', '.join(dealt) or 'none'}", "combat.dealt_simultaneously",
           "combat.deal_assigned", "deal.marks_damage")
    resolution(g)


def resolution(g) -> None:
    from engine.riftbound import settle  # noqa: PLC0415

    s = g.s
    c = s.combat
    bf = s.bf(c.at)
    g.emit(f"Step 3 of Combat, Resolution at {bf.name}: a Combat Cleanup", "combat.cleanup", "cleanup.special")
    settle.run(g, special="combat")
    if s.winner:
        s.combat = None
        return
    present = s.players_at(bf.name)
    if bf.key in s.staged_showdowns or bf.key in s.staged_combats:
        g.emit(f"A Showdown or Combat is staged at {bf.name}: Control is not established yet", "combat.establish_control")
    elif len(present) == 1:
        g.emit(f"Only {present[0]}'s units remain at {bf.name}", "combat.establish_control", "combat.clear_contested",
               "combat.conquer", *(("combat.not_only_contester",) if present[0] != bf.contested_by else ()))
        board.establish_control(g, bf, present[0], "combat.establish_control")
    elif not present:
        bf.controller = bf.contested_by = None
        g.emit(f"No units remain at {bf.name}: it becomes uncontrolled", "combat.no_units_uncontrolled",
               "combat.clear_contested")
    s.combat = None
    settle.run(g)


def recall_attackers(g) -> None:
    s = g.s
    c = s.combat
    if c is None:
        return
    attackers, defenders = _side(g, "attacker"), _side(g, "defender")
    if attackers and defenders:
        for u in attackers:
            board.set_location(u, "base")
        g.emit(f"Defenders remain at {s.bf(c.at).name}: the Attackers ({', '.join(u.name for u in attackers)}) are recalled "
               "to base", "combat.recall_attackers", "recall.to_base")


def remove_designations(g) -> None:
    for u in g.s.units():
        u.designation = None
    g.emit("Attacker and Defender designations are removed from all units and players", "combat.remove_designations")
