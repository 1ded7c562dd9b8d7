"""Casting spells (601), playing lands (305, 116.2a), activating abilities (602, 605), paying costs
from lands, and resolving the top of the stack (608) with the effect vocabulary of ``effects``.

Mana: each land taps for one mana of its colour (basic lands by their type: Mountain {R} ...; other
lands by their ``mana:`` key, colourless otherwise). Costs are paid from the mana pool first, then by
tapping the player's untapped lands in the order they are listed. ``costs: ignore`` makes all free.
"""

from __future__ import annotations

from engine.mtg.board import deal_damage, draw, fire, leave_battlefield
from engine.mtg.combat import deal_combat_damage
from engine.mtg.effects import Instruction, parse_effect
from engine.mtg.legality import Activating, Casting, Payment, PlayingLand, fits
from engine.mtg.state import CardDef, Game, Permanent, StackItem, Target, show_cost


# -- paying -------------------------------------------------------------------------------------
def pay(g: Game, payment: Payment | None) -> None:
    """Pay as :func:`engine.mtg.legality.payment` worked out: the mana pool, then the lands tapped."""
    if payment is None:
        return
    g.s.pool[payment.player] = dict(payment.pool)
    for land in payment.taps:
        land.tapped = True
    how = []
    if payment.taps:
        how.append("tapping " + ", ".join(f"{land.name} for {{{land.mana_colour}}}" for land in payment.taps))
    if payment.from_pool:
        how.append(f"{payment.from_pool} mana from the mana pool")
    g.emit(f"{payment.player} pays {show_cost(payment.cost)} for {payment.what} by {' and '.join(how)}", "cast.pay",
           "mana.basic_land")


# -- actions ------------------------------------------------------------------------------------
def cast(g: Game, plan: Casting) -> None:
    """Cast a spell (601) as :func:`engine.mtg.legality.cast` allowed it: it goes on the stack."""
    player, card, d, targets = plan.player, plan.card, plan.definition, plan.targets
    pay(g, plan.payment)
    g.s.hand[player].remove(card)
    g.s.stack.append(StackItem(card.oid, card.name, player, "spell", card, d, d.effect, targets))
    aimed = f" targeting {', '.join(t.name for t in targets)}" if targets else ""
    keys = ["cast.announce"] + (["cast.targets"] if targets else []) + ["stack.add"]
    if "flash" in d.keywords and "instant" not in d.types:
        keys.append("cast.flash")
    elif "instant" in d.types:
        keys.append("cast.instant")
    g.emit(f"{player} casts {card.name}{aimed}; it goes on top of the stack", *keys)
    g.s.passes = 0
    g.receive_priority(player, f"{player} receives priority again", "priority.after_action")


def play_land(g: Game, plan: PlayingLand) -> None:
    """Play a land (305): a special action, no stack."""
    player, card = plan.player, plan.card
    g.s.hand[player].remove(card)
    definition = plan.definition or CardDef(card.name, frozenset({"land"}))
    perm = Permanent(card.oid, card.name, player, player, definition, sick=True)
    g.s.battlefield.append(perm)
    g.s.lands_played[player] = g.s.lands_played.get(player, 0) + 1
    g.emit(f"{player} plays {card.name}: a special action that does not use the stack", "special.land",
           "land.one_per_turn")
    fire(g, "enters", perm)
    g.s.passes = 0
    g.receive_priority(player, f"{player} receives priority again", "special.priority_after")


def activate(g: Game, plan: Activating) -> None:
    """Activate an ability (602) as :func:`engine.mtg.legality.activate` allowed it; a mana ability
    resolves at once (605.3b), any other goes on the stack."""
    player, perm, cost, targets = plan.player, plan.perm, plan.cost, plan.targets
    if plan.ability is None or plan.ability.is_mana:
        colour = plan.mana
        pay(g, plan.payment)
        perm.tapped = perm.tapped or bool(dict(cost).get("T"))
        pool = g.s.pool.setdefault(player, {})
        for c in colour:
            pool[c] = pool.get(c, 0) + 1
        g.emit(f"{player} activates {perm.name} for {''.join('{' + c + '}' for c in colour)}: a mana ability, "
               "it resolves at once without using the stack", "mana.no_stack", "mana.basic_land")
        g.s.passes = 0
        return
    what = f"{perm.name} ability"
    pay(g, plan.payment)
    if dict(cost).get("T"):
        perm.tapped = True
    g.s.stack.append(StackItem(g.s.oid(), what, player, "ability", effect=plan.ability.effect, targets=targets,
                               source=perm.name))
    aimed = f" targeting {', '.join(t.name for t in targets)}" if targets else ""
    g.emit(f"{player} activates {perm.name}{aimed}; the ability goes on top of the stack",
           "activate.any_time", "activate.on_stack", "stack.add")
    g.s.passes = 0
    g.receive_priority(player, f"{player} receives priority again", "priority.after_action")


# -- resolving ------------------------------------------------------------------------------------
def resolve_top(g: Game) -> None:
    item = g.s.stack.pop()
    if item.kind == "combat damage":
        deal_combat_damage(g, item.damage)
        return
    instructions = parse_effect(item.effect) if item.effect else ()
    kinds = [i.target for i in instructions if i.targeted]
    if item.targets:
        legal = [fits(g.s, t, k) for t, k in zip(item.targets, kinds)]
        if not any(legal):
            what = "is" if len(item.targets) == 1 else "are"
            g.emit(f"{item.name} does not resolve: its target {what} no longer legal "
                   f"({', '.join(t.name for t in item.targets)})", "resolve.illegal_targets")
            _finish(g, item, resolved=False)
            return
    else:
        legal = []
    slot = 0
    for instr in instructions:
        target = None
        if instr.targeted:
            target, ok = item.targets[slot], legal[slot]
            slot += 1
            if not ok:
                g.emit(f"{target.name} is no longer a legal target: this part of {item.name} does not affect it",
                       "resolve.illegal_target_unaffected")
                continue
        execute(g, item, instr, target)
    _finish(g, item, resolved=True)


def _finish(g: Game, item: StackItem, resolved: bool) -> None:
    if item.kind != "spell" or item.card is None or item.definition is None:
        return
    d = item.definition
    owner = item.card.owner
    if resolved and d.is_permanent:
        perm = Permanent(item.card.oid, item.card.name, owner, item.controller, d, sick=True)
        g.s.battlefield.append(perm)
        g.emit(f"{perm.name} enters the battlefield under {item.controller}'s control", "resolve.permanent")
        fire(g, "enters", perm)
        return
    g.s.graveyard.setdefault(owner, []).append(item.card)
    if resolved:
        g.emit(f"{item.name} is put into {owner}'s graveyard", "resolve.to_graveyard")
    else:
        g.emit(f"{item.name} is put into {owner}'s graveyard without effect", "resolve.illegal_targets")


def execute(g: Game, item: StackItem, instr: Instruction, target: Target | None) -> None:
    me = item.controller
    verb = instr.verb
    if verb == "damage":
        who = me if instr.who == "you" else g.s.other(me)
        recipient = target or Target("player", who, who)
        deal_damage(g, item.name, recipient, instr.amount, "resolve.instructions")
    elif verb in ("gain", "lose"):
        who = str(target.ref) if target else (me if instr.who == "you" else g.s.other(me))
        before = g.s.life[who]
        g.s.life[who] += instr.amount if verb == "gain" else -instr.amount
        g.emit(f"{who} {'gains' if verb == 'gain' else 'loses'} {instr.amount} life ({before} -> {g.s.life[who]})",
               "resolve.instructions", "life.change")
    elif verb == "draw":
        draw(g, me, instr.amount, "resolve.instructions")
    elif verb == "counter":
        victim = g.s.on_stack(target.ref)  # type: ignore[union-attr, arg-type]
        if victim is None:
            _gone(g, item, target)  # type: ignore[arg-type]
        else:
            g.s.stack.remove(victim)
            if victim.card is not None:
                g.s.graveyard.setdefault(victim.card.owner, []).append(victim.card)
            g.emit(f"{item.name} counters {victim.name}: it leaves the stack without resolving"
                   + (f" and goes to {victim.card.owner}'s graveyard" if victim.card else ""), "effect.counter")
    elif verb in ("destroy", "bounce", "boost", "tap", "untap"):
        perm = g.s.permanent(target.ref)  # type: ignore[union-attr, arg-type]
        if perm is None:
            _gone(g, item, target)  # type: ignore[arg-type]
            return
        if verb == "destroy":
            g.emit(f"{item.name} destroys {perm.name}", "resolve.instructions", "effect.destroy")
            leave_battlefield(g, perm, "graveyard")
        elif verb == "bounce":
            g.emit(f"{item.name} returns {perm.name} to {perm.owner}'s hand", "resolve.instructions")
            leave_battlefield(g, perm, "hand")
        elif verb == "boost":
            perm.boost = (perm.boost[0] + instr.amount, perm.boost[1] + instr.amount2)
            g.emit(f"{perm.name} gets +{instr.amount}/+{instr.amount2} until end of turn "
                   f"(now {perm.power}/{perm.toughness})", "resolve.instructions")
        else:
            perm.tapped = verb == "tap"
            g.emit(f"{item.name} {verb}s {perm.name}", "resolve.instructions", "effect.tap")
    elif verb == "add":
        pool = g.s.pool.setdefault(me, {})
        for c in instr.mana:
            pool[c] = pool.get(c, 0) + 1
        g.emit(f"{me} adds {''.join('{' + c + '}' for c in instr.mana)} to the mana pool", "resolve.instructions")


def _gone(g: Game, item: StackItem, target: Target) -> None:
    """An earlier instruction of the same spell moved the target: what is there now is a new object."""
    g.emit(f"{target.name} has already left its zone: {item.name} does nothing more to it",
           "resolve.instructions", "zone.new_object")
