"""Casting spells (601, with modes 700.2 and X 107.3), playing lands (305, 116.2a), activating abilities
(602, 605, equip 702.6), paying costs from lands, ward (702.21), and resolving the top of the stack (608)
with the effect vocabulary of ``effects``.

Mana: each land taps for one mana of its colour (basic lands by their type: Mountain {R} ...; other
lands by their ``mana:`` key, colourless otherwise). Costs are paid from the mana pool first, then by
tapping the player's untapped lands in the order they are listed. ``costs: ignore`` makes all free.
"""

from __future__ import annotations

from dataclasses import replace

from engine.mtg.board import (
    deal_damage,
    destroy,
    draw,
    enter,
    keyword_triggers,
    leave_battlefield,
    token_definition,
    unique_name,
    ward,
)
from engine.mtg.combat import deal_combat_damage
from engine.mtg.effects import Instruction, X, enchants, parse_effect, read_group
from engine.mtg.legality import (
    Activating,
    Casting,
    Cycling,
    Paying,
    Payment,
    PlayingLand,
    StartCasting,
    can_pay,
    qualified,
    spell_source,
    why_not,
)
from engine.mtg.state import (
    CardDef,
    Game,
    ModeWait,
    Paused,
    Permanent,
    Shield,
    Source,
    StackItem,
    State,
    Target,
    show_cost,
)


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
        colours = payment.colours or tuple(land.mana_colour for land in payment.taps)
        how.append("tapping " + ", ".join(f"{land.name} for {{{c}}}" for land, c in zip(payment.taps, colours)))
    if payment.from_pool:
        how.append(f"{payment.from_pool} mana from the mana pool")
    g.emit(
        f"{payment.player} pays {show_cost(payment.cost)} for {payment.what} by {' and '.join(how)}",
        "cast.pay",
        "mana.basic_land",
    )


# -- actions ------------------------------------------------------------------------------------
def start_casting(g: Game, plan: StartCasting) -> None:
    """A modal spell proposed without its mode (601.2a-b): the caster announces it next."""
    g.s.casting = ModeWait(plan.player, plan.card, plan.x)
    g.s.pending, g.s.deciding, g.s.priority = "mode", plan.player, None
    modes = "; ".join(f'"{m}"' for m in plan.definition.modes)
    g.emit(
        f"{plan.player} begins to cast {plan.card.name}, a modal spell: {plan.player} announces its mode next "
        f"({modes})",
        "cast.modes",
        "mode.choose",
    )


def cast(g: Game, plan: Casting) -> None:
    """Cast a spell (601) as :func:`engine.mtg.legality.cast` allowed it: it goes on the stack."""
    player, card, d, targets = plan.player, plan.card, plan.definition, plan.targets
    if g.s.casting is not None:
        g.s.casting, g.s.pending, g.s.deciding = None, None, None
    announced = []
    keys = ["cast.announce"]
    if plan.mode:
        announced.append(f'choosing "{plan.mode}"')
        keys += ["cast.modes", "mode.choose"]
    if plan.x or any(sym == "X" for sym, _ in d.cost):
        announced.append(f"with X={plan.x}")
        keys.append("cast.x")
    pay(g, plan.payment)
    if plan.sacrifice is not None:
        g.emit(
            f"{player} sacrifices {plan.sacrifice.name} to pay {card.name}'s additional cost",
            "cast.additional_cost",
            "effect.sacrifice",
        )
        leave_battlefield(g, plan.sacrifice, "graveyard")
    (g.s.graveyard if plan.flashback else g.s.hand)[player].remove(card)
    item = StackItem(
        card.oid,
        card.name,
        player,
        "spell",
        card,
        d,
        plan.effect,
        targets,
        src=replace(spell_source(player, d, card.oid), name=card.name),
        x=plan.x,
        mode=plan.mode,
        flashback=plan.flashback,
    )
    g.s.stack.append(item)
    aimed = f" targeting {', '.join(t.name for t in targets)}" if targets else ""
    keys += (["cast.targets"] if targets else []) + ["stack.add"]
    if d.is_aura:
        keys.append("keyword.enchant")
    if plan.flashback:
        keys.append("keyword.flashback")
        announced.append("from the graveyard for its flashback cost")
    if "devoid" in d.keywords:
        keys.append("keyword.devoid")
        announced.append("(colorless: it has devoid)")
    if "flash" in d.keywords and "instant" not in d.types:
        keys.append("cast.flash")
    elif "instant" in d.types:
        keys.append("cast.instant")
    said = (" " + " ".join(announced)) if announced else ""
    g.emit(f"{player} casts {card.name}{said}{aimed}; it goes on top of the stack", *keys)
    if "creature" not in d.types:
        keyword_triggers(g, "cast noncreature", player)
    ward(g, item)
    g.s.passes = 0
    g.receive_priority(player, f"{player} receives priority again", "priority.after_action")


def play_land(g: Game, plan: PlayingLand) -> None:
    """Play a land (305): a special action, no stack."""
    player, card = plan.player, plan.card
    g.s.hand[player].remove(card)
    definition = plan.definition or CardDef(card.name, frozenset({"land"}))
    g.emit(
        f"{player} plays {card.name}: a special action that does not use the stack", "special.land", "land.one_per_turn"
    )
    g.s.lands_played[player] = g.s.lands_played.get(player, 0) + 1
    enter(g, Permanent(card.oid, card.name, player, player, definition, sick=True))
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
        g.emit(
            f"{player} activates {perm.name} for {''.join('{' + c + '}' for c in colour)}: a mana ability, "
            "it resolves at once without using the stack",
            "mana.no_stack",
            "mana.basic_land",
        )
        g.s.passes = 0
        return
    what = f"{perm.name} equip" if plan.ability.equip else f"{perm.name} ability"
    pay(g, plan.payment)
    if dict(cost).get("T"):
        perm.tapped = True
    item = StackItem(
        g.s.oid(),
        what,
        player,
        "ability",
        effect=plan.ability.effect,
        targets=targets,
        source=perm.name,
        src=g.s.source_of(perm),
        subject=Target("permanent", perm.oid, perm.name),
    )
    g.s.stack.append(item)
    aimed = f" targeting {', '.join(t.name for t in targets)}" if targets else ""
    keys = ["activate.any_time", "activate.on_stack", "stack.add"] + (["keyword.equip"] if plan.ability.equip else [])
    g.emit(
        f"{player} activates {perm.name}{' (equip)' if plan.ability.equip else ''}{aimed}; the ability goes on top "
        "of the stack",
        *keys,
    )
    ward(g, item)
    g.s.passes = 0
    g.receive_priority(player, f"{player} receives priority again", "priority.after_action")


def cycle(g: Game, plan: Cycling) -> None:
    """Cycle a card (702.29a): pay the cost, discarding the card (a cost: it happens as the ability is
    activated), and its ability ("draw a card") goes on the stack."""
    player, card, d = plan.player, plan.card, plan.definition
    pay(g, plan.payment)
    g.s.hand[player].remove(card)
    g.s.graveyard.setdefault(card.owner, []).append(card)
    item = StackItem(
        g.s.oid(),
        f"{card.name} cycling",
        player,
        "ability",
        effect="draw a card",
        source=card.name,
        src=spell_source(player, d, card.oid),
    )
    g.s.stack.append(item)
    g.emit(
        f"{player} cycles {card.name}: pays {show_cost(plan.cost) or 'nothing'} and discards it (the cost); its "
        "cycling ability, draw a card, goes on top of the stack",
        "keyword.cycling",
        "activate.on_stack",
        "stack.add",
    )
    g.s.passes = 0
    g.receive_priority(player, f"{player} receives priority again", "priority.after_action")


# -- resolving ------------------------------------------------------------------------------------
def target_kinds_of(item: StackItem) -> list[str]:
    if item.definition is not None and item.definition.is_aura:
        return [enchants(item.definition.keywords) or "creature"]
    return [i.target for i in (parse_effect(item.effect) if item.effect else ()) if i.targeted]


def targets_legal(g: Game, item: StackItem) -> tuple[bool, ...]:
    """Which of ``item``'s targets are still legal as it resolves (608.2b); () when it has none."""
    if not item.targets:
        return ()
    return tuple(why_not(g.s, t, k, item.src) is None for t, k in zip(item.targets, target_kinds_of(item)))


def fizzles(g: Game, item: StackItem) -> bool:
    """Will ``item`` not resolve, every one of its targets being illegal now (608.2b)?"""
    legal = targets_legal(g, item)
    return bool(legal) and not any(legal)


def resolve_top(g: Game) -> None:
    """The top object resolves (608). It may stop for a player's choice to pay (``g.s.pending == "pay"``);
    :func:`decide_payment` then goes on with it."""
    item = g.s.stack.pop()
    if item.kind == "combat damage":
        deal_combat_damage(g, item.damage)
        return
    kinds = target_kinds_of(item)
    if item.targets:
        legal = targets_legal(g, item)
        if not any(legal):
            what = "is" if len(item.targets) == 1 else "are"
            why = [why_not(g.s, t, k, item.src) for t, k in zip(item.targets, kinds)]
            keys = [k for w in why if w for k in w[1:] if k.startswith("keyword.")]
            reasons = (": " + "; ".join(w[0] for w in why if w)) if keys else ""
            g.emit(
                f"{item.name} does not resolve: its target {what} no longer legal "
                f"({', '.join(t.name for t in item.targets)}{reasons})",
                "resolve.illegal_targets",
                *keys,
            )
            _finish(g, item, resolved=False)
            return
    else:
        legal = ()
    go_on(g, item, 0, legal)


def go_on(g: Game, item: StackItem, start: int, legal: tuple[bool, ...]) -> None:
    """Follow ``item``'s instructions from the ``start``-th (608.2c), then finish it (608.2n, 608.3)."""
    instructions = parse_effect(item.effect) if item.effect else ()
    slot = sum(1 for i in instructions[:start] if i.targeted)
    for index in range(start, len(instructions)):
        instr = instructions[index]
        target = None
        if instr.targeted:
            target, ok = item.targets[slot], legal[slot]
            slot += 1
            if not ok:
                g.emit(
                    f"{target.name} is no longer a legal target: this part of {item.name} does not affect it",
                    "resolve.illegal_target_unaffected",
                )
                continue
        elif instr.target in ("self", "it"):
            target = item.subject
        asked = execute(g, item, instr, target)
        if asked is not None:
            payer, cost, victim = asked
            g.s.paused = Paused(item, index + 1, legal, payer, cost, victim)
            g.s.pending, g.s.deciding, g.s.priority = "pay", payer, None
            return
    _finish(g, item, resolved=True)


def decide_payment(g: Game, plan: Paying) -> None:
    """The payer's answer to "counter ... unless its controller pays {N}" (118.12a); the spell or ability
    that asked then goes on resolving."""
    paused = g.s.paused
    assert paused is not None
    g.s.paused, g.s.pending, g.s.deciding = None, None, None
    victim = g.s.on_stack(paused.victim)
    if plan.pays:
        pay(g, plan.payment)
        g.emit(
            f"{plan.player} pays {{{paused.amount}}}: {victim.name if victim else 'it'} is not countered",
            "effect.unless",
            "cast.pay",
        )
    elif victim is not None:
        g.emit(f"{plan.player} does not pay {{{paused.amount}}}", "effect.unless")
        counter(g, paused.item, victim)
    go_on(g, paused.item, paused.index, paused.legal)


def _finish(g: Game, item: StackItem, resolved: bool) -> None:
    if item.kind != "spell" or item.card is None or item.definition is None:
        return
    d = item.definition
    owner = item.card.owner
    if resolved and d.is_permanent:
        perm = Permanent(item.card.oid, item.card.name, owner, item.controller, d, sick=True)
        attach = None
        if d.is_aura and item.targets:
            attach = item.targets[0].ref
            host = g.s.permanent(attach)  # type: ignore[arg-type]
            g.emit(
                f"{perm.name} enters the battlefield under {item.controller}'s control attached to "
                f"{host.name if host else item.targets[0].name}",
                "resolve.permanent",
                "keyword.enchant",
                "attach.aura",
            )
        else:
            g.emit(f"{perm.name} enters the battlefield under {item.controller}'s control", "resolve.permanent")
        enter(g, perm, attach)  # type: ignore[arg-type]
        return
    if item.flashback:
        exiled(g, item)
        return
    g.s.graveyard.setdefault(owner, []).append(item.card)
    if resolved:
        g.emit(f"{item.name} is put into {owner}'s graveyard", "resolve.to_graveyard")
    else:
        g.emit(f"{item.name} is put into {owner}'s graveyard without effect", "resolve.illegal_targets")


def exiled(g: Game, item: StackItem) -> None:
    """A spell cast with flashback leaves the stack: it is exiled instead of going anywhere else (702.34a)."""
    assert item.card is not None
    g.s.exile.setdefault(item.card.owner, []).append(item.card)
    g.emit(
        f"{item.name} was cast with flashback: it is exiled instead of going anywhere else",
        "keyword.flashback",
        "replace.instead",
    )


def counter(g: Game, by: StackItem, victim: StackItem) -> None:
    if victim.definition is not None and victim.definition.uncounterable:
        g.emit(
            f"{victim.name} can't be countered: {by.name} does not counter it, and it stays on the stack",
            "counter.cannot",
            "effect.counter",
        )
        return
    g.s.stack.remove(victim)
    if victim.card is not None and victim.flashback:
        exiled(g, victim)
    elif victim.card is not None:
        g.s.graveyard.setdefault(victim.card.owner, []).append(victim.card)
    g.emit(
        f"{by.name} counters {victim.name}: it leaves the stack without resolving"
        + (f" and goes to {victim.card.owner}'s graveyard" if victim.card else ""),
        "effect.counter",
    )


def _n(item: StackItem, value: int) -> int:
    return item.x if value == X else -item.x if value == -X else value


def _source(g: Game, item: StackItem) -> Source:
    """The source of what ``item`` does: a spell itself, or an ability's source (named as the ability)."""
    if item.src is None:
        return Source(item.name, item.controller)
    return item.src if item.kind == "spell" else replace(item.src, name=item.name)


def execute(g: Game, item: StackItem, instr: Instruction, target: Target | None) -> tuple[str, int, int] | None:
    """Carry out one instruction. Returns (payer, amount, the stack object) when it asks a player whether
    to pay (the resolution waits for the answer)."""
    s = g.s
    me = item.controller
    verb = instr.verb
    n = _n(item, instr.amount)
    if verb == "damage":
        if instr.who in ("each creature", "each other creature"):
            for perm in [p for p in s.battlefield if p.is_a("creature")]:
                if instr.who == "each other creature" and item.subject and perm.oid == item.subject.ref:
                    continue
                deal_damage(g, _source(g, item), Target("permanent", perm.oid, perm.name), n, "resolve.instructions")
            return None
        if read_group(instr.who) is not None:
            for perm in members(s, instr.who, me, item):
                deal_damage(g, _source(g, item), Target("permanent", perm.oid, perm.name), n, "resolve.instructions")
            return None
        if instr.who == "each player":
            for p in s.apnap():
                deal_damage(g, _source(g, item), Target("player", p, p), n, "resolve.instructions")
            return None
        who = me if instr.who == "you" else s.other(me)
        recipient = target or Target("player", who, who)
        if n > 0:
            deal_damage(g, _source(g, item), recipient, n, "resolve.instructions")
        else:
            g.emit(f"{item.name} would deal 0 damage: no damage is dealt", "resolve.instructions", "damage.zero")
    elif verb in ("gain", "lose"):
        who = str(target.ref) if target else (me if instr.who == "you" else s.other(me))
        before = s.life[who]
        s.life[who] += n if verb == "gain" else -n
        g.emit(
            f"{who} {'gains' if verb == 'gain' else 'loses'} {n} life ({before} -> {s.life[who]})",
            "resolve.instructions",
            "life.change",
        )
    elif verb == "draw":
        draw(g, me, n, "resolve.instructions")
    elif verb == "counter":
        victim = s.on_stack(target.ref)  # type: ignore[union-attr, arg-type]
        if victim is None:
            _gone(g, item, target)
        else:
            counter(g, item, victim)
    elif verb == "counter_unless":
        victim = s.on_stack(target.ref) if target is not None else None  # type: ignore[arg-type]
        if victim is None:
            g.emit(
                f"{target.name if target else 'That spell'} has already left the stack: {item.name} does nothing",
                "resolve.instructions",
                "zone.new_object",
            )
            return None
        payer = victim.controller
        if can_pay(s, payer, (("*", n),)):
            g.emit(
                f"{item.name}: {payer} may pay {{{n}}}; if {payer} does not, {victim.name} is countered. "
                f"{payer} chooses",
                "effect.unless",
            )
            return payer, n, victim.oid
        g.emit(f"{payer} cannot pay {{{n}}} (not enough untapped lands or mana)", "effect.unless", "cast.pay")
        counter(g, item, victim)
    elif verb == "fog":
        s.fog = True
        g.emit(
            f"{item.name}: all combat damage that would be dealt this turn will be prevented",
            "resolve.instructions",
            "prevent.effect",
        )
    elif verb == "poison":
        players = [str(target.ref)] if target is not None else [s.other(me)]
        for p in players:
            s.poison[p] = s.poison.get(p, 0) + n
            g.emit(
                f"{p} gets {n} poison counter{'s' if n != 1 else ''} ({s.poison[p]} in all)",
                "resolve.instructions",
                "counter.poison",
            )
    elif verb == "token":
        power, toughness, colours, name, keywords = instr.extra
        full = f"{name} Token" if s.follows("token_named_token") else name
        d = token_definition(full, power, toughness, colours, keywords)
        s.cards.setdefault(full.lower(), d)
        for _ in range(n):
            perm = Permanent(s.oid(), unique_name(g, full), me, me, d, sick=True, token=True)
            g.emit(
                f"{item.name} creates {perm.name}, a {power}/{toughness} creature token, under {me}'s control",
                "resolve.instructions",
                "token.create",
                "token.name",
            )
            enter(g, perm)
    elif verb == "return_self":
        _return_self(g, item, instr, target)
    elif verb == "add":
        pool = s.pool.setdefault(me, {})
        for c in instr.mana:
            pool[c] = pool.get(c, 0) + 1
        g.emit(f"{me} adds {''.join('{' + c + '}' for c in instr.mana)} to the mana pool", "resolve.instructions")
    elif target is not None and target.kind == "player" and verb == "shield":
        s.shields.append(Shield(target, None if instr.extra else n, item.name))
        g.emit(
            f"{item.name}: the next {'all' if instr.extra else n} damage that would be dealt to {target.name} this "
            "turn will be prevented",
            "resolve.instructions",
            "prevent.shield",
        )
    elif read_group(instr.who) is not None and verb in ("boost", "grant", "destroy", "tap", "untap"):
        group = members(s, instr.who, me, item)
        if not group:
            g.emit(f"{item.name}: there are no {instr.who.removeprefix('each ')}s to affect", "resolve.instructions")
        for perm in group:
            _on_permanent(g, item, instr, perm, n)
    else:
        aimed = s.permanent(target.ref) if target is not None and isinstance(target.ref, int) else None
        if aimed is None:
            _gone(g, item, target)
            return None
        _on_permanent(g, item, instr, aimed, n)
    return None


def members(s: State, who: str, me: str, item: StackItem) -> list[Permanent]:
    """The permanents of a group an instruction acts on, each of them (``creatures you control``), as it
    resolves (608.2h: the group is determined once, as the effect is applied)."""
    read = read_group(who)
    assert read is not None
    other, state, with_, keyword, whose = read
    itself = item.subject.ref if item.subject is not None and other else None
    out = []
    for p in s.battlefield:
        if not p.is_a("creature") or p.oid == itself or (state == "nontoken" and p.token):
            continue
        if state not in ("", "nontoken") and not qualified(s, p, f"{state} creature"):
            continue
        if keyword and s.has(p, keyword) != (with_ == "with"):
            continue
        if (whose == "you control" and p.controller != me) or (whose and whose != "you control" and p.controller == me):
            continue
        out.append(p)
    return out


def _on_permanent(g: Game, item: StackItem, instr: Instruction, perm: Permanent, n: int) -> None:
    s = g.s
    verb = instr.verb
    if verb == "destroy":
        destroy(g, perm, item.name, "resolve.instructions")
    elif verb == "exile":
        g.emit(f"{item.name} exiles {perm.name}", "resolve.instructions", "effect.exile")
        leave_battlefield(g, perm, "exile")
    elif verb == "bounce":
        g.emit(f"{item.name} returns {perm.name} to {perm.owner}'s hand", "resolve.instructions")
        leave_battlefield(g, perm, "hand")
    elif verb == "tuck":
        g.emit(f"{item.name} puts {perm.name} on top of {perm.owner}'s library", "resolve.instructions")
        leave_battlefield(g, perm, "library")
    elif verb == "boost":
        plus = (n, _n(item, instr.amount2))
        perm.boost = (perm.boost[0] + plus[0], perm.boost[1] + plus[1])
        gains = f" and gains {' and '.join(instr.extra)}" if instr.extra else ""
        perm.granted = tuple(dict.fromkeys(perm.granted + tuple(instr.extra)))
        g.emit(
            f"{perm.name} gets {plus[0]:+d}/{plus[1]:+d}{gains} until end of turn (now {s.power(perm)}/"
            f"{s.toughness(perm)})",
            "resolve.instructions",
            *(("effect.until_eot",) if instr.extra else ()),
        )
    elif verb == "regenerate":
        perm.regeneration += 1
        g.emit(
            f"{item.name}: the next time {perm.name} would be destroyed this turn, it is regenerated instead",
            "resolve.instructions",
            "effect.regenerate",
        )
    elif verb == "restrict":
        perm.restricted = perm.restricted + ((instr.extra[0], item.name),)
        g.emit(
            f"{perm.name} can't {instr.extra[0]} this turn",
            "resolve.instructions",
            "effect.until_eot",
        )
    elif verb == "grant":
        perm.granted = tuple(dict.fromkeys(perm.granted + tuple(instr.extra)))
        g.emit(
            f"{perm.name} gains {' and '.join(instr.extra)} until end of turn",
            "resolve.instructions",
            "effect.until_eot",
        )
    elif verb == "counters":
        kind = instr.extra[0]
        perm.counters[kind] = perm.counters.get(kind, 0) + n
        g.emit(
            f"{item.name} puts {n} {kind} counter{'s' if n != 1 else ''} on {perm.name} (now {s.power(perm)}/"
            f"{s.toughness(perm)})",
            "resolve.instructions",
            "counter.put",
            "counter.pt",
        )
    elif verb == "shield":
        s.shields.append(Shield(Target("permanent", perm.oid, perm.name), None if instr.extra else n, item.name))
        g.emit(
            f"{item.name}: {'all' if instr.extra else f'the next {n}'} damage that would be dealt to {perm.name} "
            "this turn will be prevented",
            "resolve.instructions",
            "prevent.shield",
        )
    elif verb == "attach":
        equipment = s.permanent(item.subject.ref) if item.subject is not None else None  # type: ignore[arg-type]
        if equipment is None:
            g.emit(
                f"{item.source} has left the battlefield: it is not attached", "resolve.instructions", "zone.new_object"
            )
            return
        equipment.attached_to = perm.oid
        equipment.since = s.oid()
        g.emit(
            f"{equipment.name} becomes attached to {perm.name}",
            "resolve.instructions",
            "keyword.equip",
            "attach.equipment",
        )
    elif verb == "renown":
        if "renowned" in perm.designations:  # the intervening "if" checked again as it resolves (603.4)
            g.emit(f"{perm.name} is already renowned: {item.name} does nothing", "keyword.renown", "trigger.if")
            return
        perm.counters["+1/+1"] = perm.counters.get("+1/+1", 0) + n
        perm.designations += ("renowned",)
        g.emit(
            f"{item.name}: {n} +1/+1 counter{'s' if n != 1 else ''} are put on {perm.name} (now {s.power(perm)}/"
            f"{s.toughness(perm)}) and it becomes renowned",
            "resolve.instructions",
            "keyword.renown",
            "counter.put",
        )
    elif verb == "sacrifice":
        g.emit(f"{perm.controller} sacrifices {perm.name} ({item.name})", "resolve.instructions", "effect.sacrifice")
        leave_battlefield(g, perm, "graveyard")
    elif verb in ("tap", "untap"):
        perm.tapped = verb == "tap"
        g.emit(f"{item.name} {verb}s {perm.name}", "resolve.instructions", "effect.tap")


def _return_self(g: Game, item: StackItem, instr: Instruction, target: Target | None) -> None:
    """Persist and undying: the card that died returns with a counter (702.79a, 702.93a)."""
    s = g.s
    key = "keyword.persist" if instr.extra and instr.extra[0] == "-1/-1" else "keyword.undying"
    card = None
    owner = ""
    if target is not None:
        for player, cards in s.graveyard.items():
            for c in cards:
                if c.oid == target.ref:
                    card, owner = c, player
    if card is None and target is not None and target.kind == "token":
        g.emit(
            f"{target.name} was a token: it ceased to exist and can't come back; {item.name} does nothing",
            "resolve.instructions",
            "token.cant_return",
            key,
        )
        return
    if card is None:
        g.emit(
            f"{target.name if target else 'The card'} is no longer in the graveyard: {item.name} does nothing",
            "resolve.instructions",
            "zone.new_object",
            key,
        )
        return
    if card.token:
        g.emit(
            f"{card.name} is a token that left the battlefield: it can't come back",
            "resolve.instructions",
            "token.cant_return",
            key,
        )
        return
    d = s.definition(card.name)
    if d is None:
        return
    s.graveyard[owner].remove(card)
    kind = instr.extra[0] if instr.extra else ""
    perm = Permanent(s.oid(), card.name, owner, owner, d, sick=True, counters={kind: 1} if kind else {})
    g.emit(
        f"{card.name} returns to the battlefield under {owner}'s control with a {kind} counter on it "
        f"(now {s.power(perm)}/{s.toughness(perm)})",
        "resolve.instructions",
        key,
        "counter.put",
    )
    enter(g, perm)


def _gone(g: Game, item: StackItem, target: Target | None) -> None:
    """An earlier instruction of the same spell moved the target: what is there now is a new object."""
    g.emit(
        f"{target.name if target else 'Its object'} has already left its zone: {item.name} does nothing more to it",
        "resolve.instructions",
        "zone.new_object",
    )
