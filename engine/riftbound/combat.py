"""Combat (437-444): staging, the showdown step, damage assignment, simultaneous damage, resolution.

Damage assignment (443.1.d): lethal damage in full before the next unit, no excess until every unit has
lethal damage, Tank units first. :func:`engine.riftbound.legality.assignments` lists every assignment those
rules allow; when only one is possible the engine makes it, otherwise it waits for
``P assigns damage: U 2, V 1``.
"""

from __future__ import annotations

from engine.riftbound import board, replacement, triggers
from engine.riftbound.legality import Assigning, assignments, lethal
from engine.riftbound.state import Awaiting, Card, Combat, Game, Showdown, Trigger


def stage(g: Game) -> None:
    """Cleanup step 7: a combat is staged where Contested was applied and opposing players' units are present."""
    s = g.s
    for bf in s.battlefields.values():
        live = s.combat is not None and s.combat.at == bf.key
        should = bf.contested_by is not None and len(s.players_at(bf.name)) >= 2 and not live
        if should and bf.key not in s.staged_combats:
            s.staged_combats.append(bf.key)
            g.emit(
                f"Units of {' and '.join(s.players_at(bf.name))} are at {bf.name}, which is Contested: "
                f"a Combat is staged there",
                "cleanup.stage_combat",
                "combat.staged",
            )
        elif not should and bf.key in s.staged_combats and not live:
            s.staged_combats.remove(bf.key)
            g.emit(
                f"Opposing units are no longer both at {bf.name}: the Combat staged there is no longer staged",
                "cleanup.combat_unstaged",
            )


def begin(g: Game, key: str, converted: bool = False) -> None:
    """Combat begins at ``key``: with a showdown of its own, or (``converted``, v1.3's 323.14) by turning the
    non-combat showdown ongoing there into a combat showdown, whose Focus the Attacker gains (459.2.c)."""
    s = g.s
    bf = s.bf(key)
    if key in s.staged_combats:
        s.staged_combats.remove(key)
    present = s.players_at(bf.name)
    attacker = bf.contested_by if bf.contested_by in present else s.in_turn_order(present)[0]
    defender = next(p for p in s.in_turn_order(present) if p != attacker)
    c = s.combat = Combat(key, attacker, defender)
    if converted:
        g.emit(
            f"A Combat is staged at {bf.name}, where a non-combat Showdown is ongoing: the Showdown becomes a Combat "
            f"Showdown; {attacker}'s units applied Contested, so {attacker} is the Attacker and {defender} is the "
            "Defender",
            "showdown.becomes_combat_showdown",
            "combat.occurs",
            "combat.attacker",
            "combat.defender",
        )
    else:
        g.emit(
            f"Combat begins at {bf.name}: {attacker}'s units applied Contested, so {attacker} is the Attacker and "
            f"{defender} is the Defender",
            "cleanup.begin_combat",
            "combat.occurs",
            "combat.attacker",
            "combat.defender",
        )
    # A new Showdown object also when converted: the combat showdown opened in this cleanup, so it keeps its Focus
    # when the chain item whose resolution led here leaves the Chain empty (chain.after_removed).
    s.showdown = Showdown(key, combat=True)
    s.focus = s.priority = attacker
    if converted:
        g.emit(
            f"Step 1 of Combat, the Combat Showdown at {bf.name}: {attacker}, the Attacker, gains Focus and Priority",
            "combat.showdown_step",
            "combat.attacker_focus",
            "focus.gains_priority",
        )
    else:
        g.emit(
            f"Step 1 of Combat: a Showdown opens at {bf.name}; {attacker}, the Attacker, gains Focus and Priority",
            "combat.showdown_step",
            "showdown.first_step_of_combat",
            "combat.attacker_focus",
            "focus.gains_priority",
        )
    before = len(s.chain)
    _designate(g, c, bf.name, initial=True)
    if len(s.chain) > before:
        s.showdown.initial_chain = True
        g.emit(
            "The triggered abilities form the Showdown's Initial Chain: the turn is Closed",
            "showdown.initial_chain",
            "combat.initial_chain_closes",
            "state.closed",
        )


def _designate(g: Game, c: Combat, place: str, initial: bool) -> None:
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
            g.emit(
                f"{', '.join(names)} {'gains' if len(names) == 1 else 'gain'} the {side.capitalize()} designation",
                rule,
                *(("cleanup.designations",) if not initial else ()),
            )
    # The Attacker's triggers first, then the other non-defenders in turn order, the Defender's last (442.1.b.1).
    order = [c.attacker] + [p for p in s.in_turn_order(s.players) if p not in (c.attacker, c.defender)] + [c.defender]
    bf = s.bf(place)
    defending = any(u.designation == "defender" for u in new) and "here" not in c.defended
    # abilities watching other units attack or defend ("when a friendly unit attacks or defends alone")
    others = [(w, t) for w, t in triggers.watchers(g) if t.spec.event in ("attack", "defend") and t.spec.who != "me"]
    for player in order:
        for source, t in others:
            if isinstance(source, Card) and source.holder == player:
                _watched(g, c, source, t, [u for u in new if u.designation == t.spec.event + "er"], initial, place)
        if defending and player == c.defender and bf.controller == player:
            # the battlefield's own "When you defend here" (its controller is the one defending), once a combat
            c.defended.add("here")
            for t in bf.defn.triggers:
                if t.spec.event == "defend" and t.spec.who == "here":
                    board.add_trigger(
                        g,
                        bf,
                        "defend",
                        t.effect,
                        player,
                        "trigger.defend",
                        "combat.initial_chain_order",
                        initial=initial,
                        noted=(("at", place),),
                    )
        for u in new:
            if u.controller != player:
                continue
            when, seen, key = (
                ("attack", c.attacked, "trigger.attack")
                if u.designation == "attacker"
                else ("defend", c.defended, "trigger.defend")
            )
            if u.key in seen:
                continue
            found = [t for t in u.defn.triggers if t.spec.event == when]
            if found:
                seen.add(u.key)
            for t in found:
                board.add_trigger(
                    g,
                    u,
                    when,
                    t.effect,
                    player,
                    key,
                    "combat.initial_chain_order",
                    initial=initial,
                    noted=(("at", place),),
                )


def _watched(g: Game, c: Combat, source: Card, t: Trigger, units: list[Card], initial: bool, place: str) -> None:
    """A triggered ability of ``source`` watching other units gain the Attacker or Defender designation
    (383.4.e, 383.4.f): one for each unit that fits, noting it (``it``)."""
    s = g.s
    owner = source.holder
    for u in units:
        friendly = u.controller == owner or s.allied(u.controller, owner)
        if (t.spec.who == "friendly" and not friendly) or (t.spec.who == "enemy" and friendly):
            continue
        why = ""
        if t.spec.condition == "alone":  # 741.1: no other friendly unit at its location
            if sum(1 for o in s.units_at(place) if o.controller == u.controller) != 1:
                continue
            why = " alone"
        if t.spec.condition == "you control":
            if s.bf(place).controller != owner:
                continue
            why = f" {place}, a battlefield {owner} controls"
        seen = c.attacked if t.spec.event == "attack" else c.defended
        mark = f"{source.key}>{u.key}"
        if mark in seen:
            continue
        seen.add(mark)
        board.add_trigger(
            g,
            source,
            f"{u.name} {t.spec.event}s{why}",
            t.effect,
            owner or u.controller or "",
            "trigger.attack" if t.spec.event == "attack" else "trigger.defend",
            "trigger.condition_met",
            "combat.initial_chain_order",
            initial=initial,
            noted=(("at", place), ("it", u.key)),
        )


def update_designations(g: Game) -> None:
    """Cleanup step 3 during a combat (322.5)."""
    s = g.s
    c = s.combat
    assert c is not None
    place = s.bf(c.at).name
    for u in s.units():
        if u.designation and (u.location or "").lower() != c.at:
            u.designation = None
            g.emit(
                f"{u.name} is no longer at {place}: it loses its designation",
                "cleanup.designations",
                "cleanup.designation_lost_elsewhere",
            )
    _designate(g, c, place, initial=False)


def _side(g: Game, designation: str) -> list[Card]:
    c = g.s.combat
    assert c is not None
    return [u for u in g.s.units_at(g.s.bf(c.at).name) if u.designation == designation]


def damage_step(g: Game) -> None:
    s = g.s
    c = s.combat
    assert c is not None
    c.step = "damage"
    place = s.bf(c.at).name
    attackers, defenders = _side(g, "attacker"), _side(g, "defender")
    if not attackers or not defenders:
        g.emit(
            f"Step 2 of Combat: {'no Attackers' if not attackers else 'no Defenders'} remain at {place}: "
            "the Combat Damage Step is skipped",
            "combat.damage_skipped",
        )
        resolution(g)
        return
    s = g.s
    bonus = (
        [
            u
            for u in attackers + defenders
            if (u.designation == "attacker" and s.value(u, "Assault"))
            or (u.designation == "defender" and s.value(u, "Shield"))
        ]
        if s.continuous
        else []
    )
    negative = [u for u in attackers + defenders if s.raw_might(u) < 0]
    g.emit(
        f"Step 2 of Combat, Combat Damage at {place}: the Attackers have {_total(g, attackers)} Might "
        f"({_might_list(g, attackers)}), the Defenders {_total(g, defenders)} ({_might_list(g, defenders)})",
        "combat.damage_step",
        "combat.sum_attackers",
        "combat.sum_defenders",
        *(("stun.no_combat_might",) if any(u.stunned for u in attackers + defenders) else ()),
        *(("assault.while_attacker",) if any(u.designation == "attacker" for u in bonus) else ()),
        *(("shield.while_defender",) if any(u.designation == "defender" for u in bonus) else ()),
        *(("might.below_zero_is_zero",) if negative else ()),
    )
    c.assigned = {}
    next_assignment(g)


def _total(g: Game, units: list[Card]) -> int:
    return sum(0 if u.stunned else g.s.might(u) for u in units)


def _might_list(g: Game, units: list[Card]) -> str:
    return ", ".join(f"{u.name} {0 if u.stunned else g.s.might(u)}" + (" stunned" if u.stunned else "") for u in units)


def next_assignment(g: Game) -> None:
    s = g.s
    c = s.combat
    assert c is not None
    for player, own, theirs in ((c.attacker, "attacker", "defender"), (c.defender, "defender", "attacker")):
        if player in c.assigned:
            continue
        total = _total(g, _side(g, own))
        targets = _side(g, theirs)
        options = assignments(total, targets, s)
        if len(options) == 1:
            # Tank may be what leaves one way (741.1.c.2): cited when a unit with Tank is among several.
            record(
                g, player, options[0], chosen=False, tank=len(targets) > 1 and any(s.has(u, "Tank") for u in targets)
            )
            continue
        s.awaiting = Awaiting("assign", player, tuple(u.name for u in targets), total)
        s.priority = None
        g.emit(
            f"{player} must assign {total} damage among {', '.join(u.name for u in targets)} "
            f'("{player} assigns damage: {targets[0].name} {min(total, lethal(targets[0], s))}, ...")',
            "combat.assign",
            "combat.lethal_before_next",
            "priority.limited_actions_regardless",
            *(("combat.tank_first",) if any(s.has(u, "Tank") for u in targets) else ()),
        )
        return
    deal(g)


def assign(g: Game, plan: Assigning) -> None:
    """``P assigns damage: ...`` as the rules wait for it."""
    g.s.awaiting = None
    record(g, plan.player, dict(plan.damage), chosen=True)
    next_assignment(g)


def record(g: Game, player: str, damage: dict[str, int], chosen: bool, tank: bool = False) -> None:
    c = g.s.combat
    assert c is not None
    c.assigned[player] = damage
    text = ", ".join(f"{n} {d}" for n, d in damage.items() if d) or "nothing"
    lasts = [n for n in damage if any(p[0] == "assigned_last" for p in g.s.cards[n.lower()].defn.passives)]
    g.emit(
        f"{player} {'assigns' if chosen else 'has one way to assign damage and assigns'}: {text}"
        + (f" ({', '.join(lasts)} must be assigned combat damage last)" if lasts and len(damage) > 1 else ""),
        "combat.assign",
        "combat.lethal_before_next",
        *(("combat.tank_first",) if tank else ()),
        *(("passive.statement",) if lasts and len(damage) > 1 else ()),
    )


def deal(g: Game) -> None:
    s = g.s
    c = s.combat
    assert c is not None
    dealt = []
    took: list[Card] = []
    hits = [(s.cards[name.lower()], n) for damage in c.assigned.values() for name, n in damage.items() if n]
    # Replacement effects on combat damage are applied unit by unit, before the damage is dealt at once.
    hits = [
        (unit, n)
        for unit, n in hits
        if not replacement.would(
            g, "damage", unit, f"{unit.name} would be dealt {n} combat damage", "combat.deal_assigned"
        )
    ]
    for unit, n in hits:
        if unit.defn.passives and s.takes_no_damage(unit):
            g.emit(
                f"{unit.name} doesn't take damage now: the {n} combat damage to it is prevented",
                "passive.statement",
                "prevent.damage",
            )
            continue
        unit.damage += n
        dealt.append(f"{n} to {unit.name}")
        took.append(unit)
    g.emit(
        f"All assigned damage is dealt simultaneously: {', '.join(dealt) or 'none'}",
        "combat.dealt_simultaneously",
        "combat.deal_assigned",
        "deal.marks_damage",
    )
    triggers.damaged(g, took)
    resolution(g)


def resolution(g: Game) -> None:
    s = g.s
    c = s.combat
    assert c is not None
    bf = s.bf(c.at)
    g.emit(f"Step 3 of Combat, Resolution at {bf.name}: a Combat Cleanup", "combat.cleanup", "cleanup.special")
    g.cleanup(special="combat")
    if s.winner:
        s.combat = None
        return
    if "faq.win_combat" in s.rulings:
        if c.result and c.result != "tie":
            loser = c.defender if c.result == c.attacker else c.attacker
            g.emit(
                f"Only {c.result}'s units remain after combat damage: {c.result} wins the combat and {loser} loses it",
                "faq.win_combat",
            )
            before = len(s.chain)
            for u in s.units_at(bf.name):
                if u.controller == c.result:
                    triggers.fire(g, "win", subject=u, player=c.result)
            if len(s.chain) > before:
                c.step = "won"
                g.emit(
                    f"The abilities that trigger on winning the combat resolve before Control of {bf.name} is settled "
                    "and before any point is scored",
                    "faq.win_before_score",
                )
                g.cleanup()
                return
        else:
            g.emit(
                "Units of both players, or of neither, remain after combat damage: the combat is a tie",
                "faq.tie_combat",
            )
    finish(g)


def finish(g: Game) -> None:
    """Combat's Resolution after its cleanup (444.2): Control established, a conquest scored."""
    s = g.s
    c = s.combat
    assert c is not None
    bf = s.bf(c.at)
    present = s.players_at(bf.name)
    if bf.key in s.staged_showdowns or bf.key in s.staged_combats:
        g.emit(
            f"A Showdown or Combat is staged at {bf.name}: Control is not established yet", "combat.establish_control"
        )
    elif len(present) == 1:
        g.emit(
            f"Only {present[0]}'s units remain at {bf.name}",
            "combat.establish_control",
            "combat.clear_contested",
            "combat.conquer",
            *(("combat.not_only_contester",) if present[0] != bf.contested_by else ()),
        )
        board.establish_control(g, bf, present[0], "combat.establish_control")
    elif not present:
        bf.controller = bf.contested_by = None
        g.emit(
            f"No units remain at {bf.name}: it becomes uncontrolled",
            "combat.no_units_uncontrolled",
            "combat.clear_contested",
        )
    if g.citations.follows("combat.designations_until_combat_ends"):
        g.emit(f"The Combat at {bf.name} ends", "combat.designations_until_combat_ends")
        remove_designations(g)
    for u in s.units():  # "it gains [Shield 2] this combat": until the combat ends
        if any(k[2] == "combat" for k in u.granted):
            u.granted = tuple(k for k in u.granted if k[2] != "combat")
            g.emit(
                f"The combat is over: {u.name} no longer has what it gained this combat", "combat.this_combat_expires"
            )
            s.continuous = True
    s.combat = None
    g.cleanup()


def recall_attackers(g: Game) -> None:
    s = g.s
    c = s.combat
    if c is None:
        return
    attackers, defenders = _side(g, "attacker"), _side(g, "defender")
    c.result = "tie" if bool(attackers) == bool(defenders) else c.attacker if attackers else c.defender
    if attackers and defenders:
        solari = next(
            (
                o
                for o in s.cards.values()
                if (o.on_board or o.zone == "legend")
                and o.controller == c.attacker
                and o.attached_to is None
                and any(p[0] == "tie_recall_all" for p in o.defn.passives)
            ),
            None,
        )
        if solari is not None:
            everyone = attackers + defenders
            for u in everyone:
                board.set_location(u, "base")
            g.emit(
                f"Defenders remain at {s.bf(c.at).name}: the combat is a tie that would recall {c.attacker}'s "
                f"attackers; {solari.name}'s replacement effect recalls all units there instead "
                f"({', '.join(u.name for u in everyone)})",
                "combat.recall_attackers",
                "replacement.intercede",
                "replacement.instead",
                "recall.to_base",
            )
            return
        for u in attackers:
            board.set_location(u, "base")
        g.emit(
            f"Defenders remain at {s.bf(c.at).name}: the Attackers ({', '.join(u.name for u in attackers)}) are recalled "
            "to base",
            "combat.recall_attackers",
            "recall.to_base",
        )


def remove_designations(g: Game) -> None:
    for u in g.s.units():
        u.designation = None
    g.emit("Attacker and Defender designations are removed from all units and players", "combat.remove_designations")
