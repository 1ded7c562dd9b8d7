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
    apply_control,
    deal_damage,
    destroy,
    discarded,
    draw,
    enter,
    fire,
    keyword_triggers,
    leave_battlefield,
    targeted,
    token_definition,
    unique_name,
    ward,
)
from engine.mtg.chosen import ANCHOR
from engine.mtg.combat import deal_combat_damage
from engine.mtg.conditions import condition, spell_cast
from engine.mtg.counts import counted, read_count, read_each
from engine.mtg.effects import (
    ALL_OF,
    CANT_REGENERATE,
    CHOSE,
    CLUE_ABILITY,
    COUNTERED_EXILE,
    DIES_EXILED,
    EVOLVES,
    PAID,
    SUPPORT,
    Instruction,
    X,
    enchants,
    parse_effect,
    read_group,
)
from engine.mtg.faces import transform
from engine.mtg.keywords import COLOUR_NAMES, KEYWORDS, entry
from engine.mtg.legality import (
    GRAVEYARD_ABILITIES,
    Activating,
    Casting,
    Choosing,
    Cycling,
    Discarding,
    Fabricating,
    Looking,
    Pairing,
    Paying,
    Payment,
    Picking,
    PlayingLand,
    Sacrificing,
    Scavenging,
    Scrying,
    StartCasting,
    can_pay,
    choosable,
    energy_of,
    hybrid_payment,
    kind_matches,
    looked_matches,
    offered_card,
    pair_options,
    qualified,
    scry_label,
    spell_source,
    why_not,
)
from engine.mtg.levels import relevel
from engine.mtg.state import (
    CardDef,
    Control,
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
from engine.mtg.vehicles import become


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
    how += _helped(g, payment)
    g.emit(
        f"{payment.player} pays {show_cost(payment.cost)} for {payment.what} by {' and '.join(how)}",
        "cast.pay",
        *(["mana.basic_land"] if payment.taps or payment.from_pool else []),
        *dict.fromkeys(key for k, _, _ in payment.helped for key in entry(k).keys),
    )


def got_energy(g: Game, player: str, n: int) -> None:
    """``you get {E}{E}``: energy counters on the player (107.14, 122.1)."""
    g.s.energy[player] = g.s.energy.get(player, 0) + n
    g.emit(
        f"{player} gets {'{E}' * n} ({n} energy counter{'s' if n != 1 else ''}; {g.s.energy[player]} in all)",
        "resolve.instructions",
        "counter.energy",
    )


def pay_energy(g: Game, player: str, cost: tuple[tuple[str, int], ...], what: str) -> None:
    """The {E} of a cost: that many energy counters removed from the player (107.14), checked before
    (:func:`engine.mtg.legality.energy_cost`)."""
    n = dict(cost).get("E", 0)
    if not n or g.s.costs_ignore:
        return
    g.s.energy[player] = g.s.energy.get(player, 0) - n
    g.emit(
        f"{player} pays {'{E}' * n} for {what}, removing {n} energy counter{'s' if n != 1 else ''} "
        f"({g.s.energy[player]} left)",
        "cast.pay",
        "counter.energy",
    )


def _helped(g: Game, payment: Payment) -> list[str]:
    """The permanents tapped and the graveyard cards exiled to pay part of a spell's cost by its keyword
    (convoke, improvise, delve): each pays one mana (601.2h), said as it happens."""
    out = []
    for keyword, helper, sym in payment.helped:
        mana = "{1}" if sym == "*" else f"{{{sym}}}"
        if isinstance(helper, Permanent):
            helper.tapped = True
            out.append(f"tapping {helper.name} for {mana} ({keyword})")
        else:
            g.s.graveyard[payment.player].remove(helper)
            g.s.exile.setdefault(helper.owner, []).append(helper)
            out.append(f"exiling {helper.name} from the graveyard for {mana} ({keyword})")
    return out


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
    if plan.mode and not d.choices:  # a value chosen as it enters is chosen then (chosen_as_it_enters)
        announced.append(f'choosing "{plan.mode}"')
        keys += ["cast.modes", "mode.choose"]
    if plan.x or any(sym == "X" for sym, _ in d.cost):
        announced.append(f"with X={plan.x}")
        keys.append("cast.x")
    if plan.changed:  # cost increases and reductions, locked in with the total cost (601.2f)
        total, *why = plan.changed
        g.emit(f"{card.name}'s total cost is {total} ({'; '.join(why)})", "cast.cost_change")
    pay(g, plan.payment)
    if plan.sacrifice is not None:
        g.emit(
            f"{player} sacrifices {plan.sacrifice.name} to pay {plan.half or card.name}'s additional cost",
            "cast.additional_cost",
            "effect.sacrifice",
        )
        leave_battlefield(g, plan.sacrifice, "graveyard")
    if plan.cast_from == "exile":  # offered by a resolving ability (rebound)
        g.s.exile[card.owner].remove(card)
    else:
        (g.s.graveyard if plan.flashback or plan.cast_from == "graveyard" else g.s.hand)[player].remove(card)
    item = StackItem(
        card.oid,
        plan.half or card.name,  # a split card's half: only its characteristics are on the stack (709.3b)
        player,
        "spell",
        card,
        d,
        plan.effect,
        targets,
        src=replace(spell_source(player, d, card.oid), name=plan.half or card.name),
        x=plan.x,
        mode=plan.mode,
        flashback=plan.flashback,
        chosen=plan.chosen,
        cast_from=plan.cast_from,
    )
    g.s.stack.append(item)
    spell_cast(g.s, player)
    aimed = f" targeting {', '.join(t.name for t in targets)}" if targets else ""
    keys += (["cast.targets"] if targets else []) + ["stack.add"]
    if d.is_aura:
        keys.append("keyword.enchant")
    if plan.flashback:
        keys.append("keyword.flashback")
        announced.append("from the graveyard for its flashback cost")
    if plan.half:
        keys.append("card.split_half")
        announced.insert(0, f"(a half of the split card {card.name}: only this half is on the stack)")
    if plan.half and plan.cast_from == "graveyard":
        keys.append("keyword.aftermath")
        announced.append(f"from {player}'s graveyard: it has aftermath, and is exiled as it leaves the stack")
    for keyword in plan.chosen:
        keys += KEYWORDS[keyword].keys
        announced.append(CHOSEN[keyword].format(player=player))
    if plan.cast_from == "exile" and g.s.paused is not None:
        how, key = OFFERS[g.s.paused.offered]
        keys.append(key)
        announced.append(f"from exile {how}, as the ability resolves")
    if "devoid" in d.keywords:
        keys.append("keyword.devoid")
        announced.append("(colorless: it has devoid)")
    if "flash" in d.keywords and "instant" not in d.types:
        keys.append("cast.flash")
    elif "instant" in d.types:
        keys.append("cast.instant")
    said = (" " + " ".join(announced)) if announced else ""
    g.emit(f"{player} casts {plan.half or card.name}{said}{aimed}; it goes on top of the stack", *keys)
    targeted(g, targets, player, spell=True)
    if "creature" not in d.types:
        keyword_triggers(g, "cast noncreature", player)
    keyword_triggers(g, "cast", player)  # extort
    ward(g, item)
    g.s.passes = 0
    if plan.cast_from == "exile" and g.s.pending == "offer":  # cast as an ability resolves: it goes on resolving
        resume_offer(g, card.name)
        return
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
    enter(g, Permanent(card.oid, card.name, player, player, definition, sick=True), life=plan.life)
    g.s.passes = 0
    g.receive_priority(player, f"{player} receives priority again", "special.priority_after")


def _sacrificed_for(g: Game, player: str, perm: Permanent) -> None:
    """Sacrificing the permanent is part of its ability's cost: it goes as the cost is paid."""
    g.emit(f"{player} sacrifices {perm.name} to pay the cost of its ability", "cast.pay", "effect.sacrifice")
    leave_battlefield(g, perm, "graveyard")


def activate(g: Game, plan: Activating) -> None:
    """Activate an ability (602) as :func:`engine.mtg.legality.activate` allowed it; a mana ability
    resolves at once (605.3b), any other goes on the stack."""
    player, perm, cost, targets = plan.player, plan.perm, plan.cost, plan.targets
    if plan.ability is None or plan.ability.is_mana:
        colour = plan.mana
        pay(g, plan.payment)
        pay_energy(g, player, cost, f"{perm.name} ability")
        perm.tapped = perm.tapped or bool(dict(cost).get("T"))
        if plan.ability is not None and plan.ability.sacrifice_self:
            _sacrificed_for(g, player, perm)
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
    if plan.ability.once:
        perm.activated_turn = g.s.turn_number
    pay(g, plan.payment)
    pay_energy(g, player, cost, what)
    if dict(cost).get("T"):
        perm.tapped = True
    if plan.ability.sacrifice_self:
        _sacrificed_for(g, player, perm)
    if plan.sacrifice is not None:  # "Sacrifice a creature: ..." (602.2b: costs are paid as it is activated)
        g.emit(
            f"{player} sacrifices {plan.sacrifice.name} to pay the cost of {perm.name}'s ability",
            "cast.pay",
            "effect.sacrifice",
        )
        leave_battlefield(g, plan.sacrifice, "graveyard")
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
    once = " (once this turn: it can be activated only once each turn)" if plan.ability.once else ""
    if plan.ability.sorcery:  # level up (702.87a)
        keys += ["keyword.level_up", "activate.sorcery"]
        once = " (level up: activated only as a sorcery)"
    g.emit(
        f"{player} activates {perm.name}{' (equip)' if plan.ability.equip else ''}{aimed}; the ability goes on top "
        f"of the stack{once}",
        *keys,
        *(["activate.restriction"] if once else []),
    )
    targeted(g, targets, player, spell=False)
    ward(g, item)
    g.s.passes = 0
    g.receive_priority(player, f"{player} receives priority again", "priority.after_action")


def scavenge(g: Game, plan: Scavenging) -> None:
    """Activate a graveyard keyword's ability (scavenge 702.97a, embalm 702.128a, eternalize 702.129a): pay
    the cost, exiling the card from the graveyard (a cost), and the ability goes on the stack (scavenge: as
    many +1/+1 counters as the card's power on the target creature; embalm, eternalize: a token copy of it)."""
    player, card, d, keyword = plan.player, plan.card, plan.definition, plan.keyword
    pay(g, plan.payment)
    g.s.graveyard[player].remove(card)
    g.s.exile.setdefault(card.owner, []).append(card)
    power = d.power or 0
    effect = GRAVEYARD_ABILITIES[keyword][0].format(power=power).replace(" 1 +1/+1 counters ", " a +1/+1 counter ")
    item = StackItem(
        g.s.oid(),
        f"{card.name} {keyword}",
        player,
        "ability",
        effect=effect,
        targets=plan.targets,
        source=card.name,
        src=spell_source(player, d, card.oid),
        subject=Target("card", card.oid, card.name),
    )
    g.s.stack.append(item)
    said = effect.replace("target creature", ", ".join(t.name for t in plan.targets)).replace("~", card.name)
    g.emit(
        f"{player} activates {card.name}'s {keyword} ability: pays {show_cost(plan.cost) or 'nothing'} and exiles it "
        f"from the graveyard (the cost); the ability, {said}"
        + (f" (its power, {power})" if keyword == "scavenge" else "")
        + ", goes on top of the stack",
        *KEYWORDS[keyword].keys,
        "activate.on_stack",
        *(["cast.targets"] if plan.targets else []),
        "stack.add",
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
    discarded(g, card)
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


# What a spell is as it is cast with a keyword its caster chose (Keyword.chosen; its rule cited with it).
CHOSEN = {
    "bestow": "bestowed, for its bestow cost (an Aura spell with enchant creature, not a creature spell)",
    "dash": "for its dash cost (it will have haste, and return to its owner's hand at the beginning of the next "
    "end step)",
    "unleash": "choosing to unleash it (it will enter with a +1/+1 counter, and can't block while it has one)",
    "kicker": "kicked, paying its kicker cost as well",
    "surge": "for its surge cost ({player} has cast another spell this turn)",
    "overload": 'for its overload cost (its text says "each" where it says "target": it has no targets)',
    "fuse": "fused, both halves cast as one spell from the hand for both mana costs (its left half's instructions "
    "are followed first, then its right half's)",
}


def as_chosen(g: Game, item: StackItem, perm: Permanent) -> Permanent:
    """The permanent a spell cast with a keyword's choice becomes, as it enters: a bestowed Aura
    (702.103b); a dashed creature, which has haste as long as it is on the battlefield and returns to its
    owner's hand at the beginning of the next end step (702.109a, ``turn`` puts that delayed trigger); an
    unleashed creature, with an additional +1/+1 counter (702.98a)."""
    if "bestow" in item.chosen:
        perm.designations += ("bestowed",)
    if "dash" in item.chosen:
        perm.card = replace(perm.card, keywords=perm.card.keywords | {"haste"})
        perm.designations += ("dashed",)
    perm.designations += tuple(designation for keyword, designation in CHOSE.values() if keyword in item.chosen)
    if "unleash" in item.chosen:
        perm.counters["+1/+1"] = perm.counters.get("+1/+1", 0) + 1
        g.emit(
            f"{perm.name} enters with a +1/+1 counter on it ({item.controller} chose to unleash it)",
            "keyword.unleash",
            "counter.put",
        )
    return perm


def unbestowed(g: Game, item: StackItem) -> StackItem:
    """A bestowed Aura spell whose target is illegal as it begins to resolve ceases to be bestowed and
    resolves as the creature spell it is (702.103e, 608.3b); any other object is as it was."""
    if "bestow" not in item.chosen or item.card is None or all(targets_legal(g, item)):
        return item
    d = g.s.definition(item.card.name)
    g.emit(
        f"{item.name}'s target {item.targets[0].name} is no longer legal: it ceases to be bestowed and resolves as "
        "a creature spell",
        "keyword.bestow",
        "resolve.permanent",
    )
    return replace(item, definition=d, targets=(), chosen=tuple(k for k in item.chosen if k != "bestow"))


def resolve_top(g: Game) -> None:
    """The top object resolves (608). It may stop for a player's choice to pay (``g.s.pending == "pay"``);
    :func:`decide_payment` then goes on with it."""
    item = unbestowed(g, g.s.stack.pop())
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


def go_on(g: Game, item: StackItem, start: int, legal: tuple[bool, ...], accepted: bool = False) -> None:
    """Follow ``item``'s instructions from the ``start``-th (608.2c), then finish it (608.2n, 608.3).
    ``accepted``: the ``start``-th is a "you may" its controller chose to do."""
    instructions = parse_effect(item.effect) if item.effect else ()
    slot = sum(1 for i in instructions[:start] if i.targeted)
    controller: str | None = None  # the controller of the object last targeted, as last known (608.2h)
    made: list[Permanent] = []  # what the instruction before put onto the battlefield ("attach ~ to it")
    acted: list[Permanent] | None = None  # the group the instruction just before "those creatures" acted on
    for index in range(start, len(instructions)):
        instr = instructions[index]
        target = None
        if index + 1 < len(instructions) and instructions[index + 1].target == "those":
            acted = _group_of(g, item, instr)
        if instr.targeted and slot >= len(item.targets):  # one of "up to N targets" left unchosen (601.2c)
            slot += 1
            continue
        if instr.targeted:
            target, ok = item.targets[slot], legal[slot]
            slot += 1
            controller = _controller_of(g.s, target) if ok else None
            if not ok:
                g.emit(
                    f"{target.name} is no longer a legal target: this part of {item.name} does not affect it",
                    "resolve.illegal_target_unaffected",
                )
                continue
        elif instr.target == "it" and slot:  # "it", "that creature" after a target is that target
            if slot > len(item.targets) or not legal[slot - 1]:
                continue  # not chosen, or illegal: not affected by any part of it (608.2b), said above
            target = item.targets[slot - 1]
        elif instr.target == "those" and index and _group_of(g, item, instructions[index - 1]) is not None:
            _those_of_group(g, item, instr, instructions[index - 1], acted)
            continue
        elif instr.target == "those":  # each target of the instructions just before ("up to two target ...")
            j = index - 1
            while j >= 0 and instructions[j].targeted and instructions[j].target == instructions[index - 1].target:
                j -= 1
            for k in range(slot - (index - 1 - j), slot):
                if k < len(item.targets) and legal[k]:
                    execute(g, item, instr, item.targets[k])
            continue
        elif instr.target in ("self", "it"):
            target = item.subject
        elif instr.who == "its controller":
            if controller is None:
                g.emit(
                    f"{item.name}: the object whose controller it names was not affected: this part does nothing",
                    "resolve.illegal_target_unaffected",
                )
                continue
            target = Target("player", controller, controller)
            g.emit(
                f'{item.name}: "its controller" is {controller}, who controlled it last (last known information)',
                "resolve.last_known",
            )
        elif instr.target == "attached":
            target = attached_host(g, item)
        elif instr.who == "attached controller":  # "enchanted creature's controller loses 2 life"
            host = attached_host(g, item)
            host_perm = g.s.permanent(host.ref) if host is not None else None  # type: ignore[arg-type]
            if host_perm is None:
                g.emit(
                    f"{item.name}: what it was attached to has left the battlefield: this part does nothing",
                    "resolve.instructions",
                    "zone.new_object",
                )
                continue
            target = Target("player", host_perm.controller, host_perm.controller)
        elif instr.target == "new":
            target = Target("permanent", made[-1].oid, made[-1].name) if made else None
        if instr.verb == "may":  # "you may EFFECT": its controller chooses as it resolves (608.2d)
            if not (accepted and index == start):
                g.s.paused = Paused(item, index, legal, item.controller, 0, 0)
                g.s.pending, g.s.deciding, g.s.priority = "may", item.controller, None
                g.emit(
                    f"{item.name}: {item.controller} may {_named(item, instr.extra[1])}; {item.controller} chooses",
                    "resolve.choices",
                )
                return
            instr = instr.extra[0]
        before = {p.oid for p in g.s.battlefield}
        if instr.verb == "pick" and controller is not None:
            if not pick(g, item, instr, controller):
                continue  # said: no card of the revealed hand could be chosen
            g.s.paused = Paused(item, index + 1, legal, item.controller, 0, 0, controller)
            g.s.pending, g.s.deciding, g.s.priority = "pick", item.controller, None
            return
        if instr.verb == "explore":
            who = explore(g, item, target)
            if who is not None:  # it may put the card revealed into their graveyard: asked as "you may" is
                g.s.paused = Paused(item, index, legal, who, 0, 0, who)
                g.s.pending, g.s.deciding, g.s.priority = "may", who, None
                return
            continue
        if instr.verb == "search":
            if search(g, item, instr):
                g.s.paused = Paused(item, index + 1, legal, item.controller, instr.amount, 0, item.controller)
                g.s.pending, g.s.deciding, g.s.priority = "look", item.controller, None
                return
            continue
        if instr.verb == "look":
            if look(g, item, instr):
                g.s.paused = Paused(item, index + 1, legal, item.controller, instr.amount, 0, item.controller)
                g.s.pending, g.s.deciding, g.s.priority = "look", item.controller, None
                return
            continue
        if instr.verb == "discard":
            whose = (
                controller if instr.targeted else item.controller if instr.who == "you" else g.s.other(item.controller)
            )
            if whose is not None and discard(g, item, whose, _n(item, instr.amount)):
                g.s.paused = Paused(item, index + 1, legal, whose, _n(item, instr.amount), 0, whose)
                g.s.pending, g.s.deciding, g.s.priority = "discard", whose, None
                return
            continue
        if instr.verb == "scry" and scry(g, item, _n(item, instr.amount)):
            g.s.paused = Paused(item, index + 1, legal, item.controller, _n(item, instr.amount), 0)
            g.s.pending, g.s.deciding, g.s.priority = "scry", item.controller, None
            return
        if instr.verb == "fabricate" and g.s.permanent(target.ref if target else -1) is not None:  # type: ignore[arg-type]
            g.s.paused = Paused(item, index + 1, legal, item.controller, instr.amount, 0, offered="fabricate")
            g.s.pending, g.s.deciding, g.s.priority = "offer", item.controller, None
            g.emit(
                f"{item.name}: {item.controller} may put {instr.amount} +1/+1 counter"
                f"{'s' if instr.amount != 1 else ''} on {target.name if target else 'it'}; if not, {item.controller} "
                f"creates {instr.amount} Servo{'s' if instr.amount != 1 else ''} ('{item.controller} chooses "
                f"counters' or '{item.controller} chooses servos')",
                "keyword.fabricate",
                "resolve.instructions",
            )
            return
        if instr.verb == "fabricate":  # it has left the battlefield: the counters can't be put, so Servos
            servos(g, item, instr.amount)
            continue
        if instr.verb == "may_pair":  # soulbond: its controller pairs the creatures, or declines (702.95a)
            if offer_pair(g, item):
                g.s.paused = Paused(item, index + 1, legal, item.controller, 0, 0, offered="pair")
                g.s.pending, g.s.deciding, g.s.priority = "offer", item.controller, None
                return
            continue
        if instr.verb == "may_sacrifice":  # exploit: its controller sacrifices a creature, or declines
            g.s.paused = Paused(item, index + 1, legal, item.controller, 0, 0, offered="sacrifice")
            g.s.pending, g.s.deciding, g.s.priority = "offer", item.controller, None
            g.emit(
                f"{item.name}: {item.controller} may sacrifice {instr.extra[0]} creature "
                f"('{item.controller} sacrifices NAME' or '{item.controller} declines')",
                "keyword.exploit",
                "resolve.instructions",
            )
            return
        if instr.verb == "may_pay":  # "you may pay {W/B}": its controller answers (the "if you do" after asks)
            if may_pay(g, item, instr):
                g.s.paused = Paused(item, index + 1, legal, item.controller, 0, 0, mana=instr.mana)
                g.s.pending, g.s.deciding, g.s.priority = "pay", item.controller, None
                return
            continue
        if instr.verb == "offer_cast" and offer_cast(g, item, instr, target):
            g.s.paused = Paused(item, index + 1, legal, item.controller, 0, target.ref, offered=instr.extra[0])  # type: ignore[union-attr, arg-type]
            g.s.pending, g.s.deciding, g.s.priority = "offer", item.controller, None
            return
        asked = execute(g, item, instr, target)
        made = [p for p in g.s.battlefield if p.oid not in before]
        if asked is not None:
            payer, cost, victim = asked
            g.s.paused = Paused(item, index + 1, legal, payer, cost, victim)
            g.s.pending, g.s.deciding, g.s.priority = "pay", payer, None
            return
    _finish(g, item, resolved=True)


def attached_host(g: Game, item: StackItem) -> Target | None:
    """What "enchanted creature" / "equipped creature" of an Aura's or Equipment's ability is as it resolves:
    the permanent its source is attached to (303.4, 301.5); None when the source is gone or unattached."""
    source = g.s.permanent(item.subject.ref) if item.subject is not None else None  # type: ignore[arg-type]
    host = g.s.permanent(source.attached_to) if source is not None and source.attached_to is not None else None
    return Target("permanent", host.oid, host.name) if host is not None else None


def _controller_of(s: State, target: Target) -> str | None:
    """The controller of a targeted permanent or spell (a player's own name for a player)."""
    if target.kind == "player":
        return str(target.ref)
    perm = s.permanent(target.ref) if isinstance(target.ref, int) else None
    if perm is not None:
        return perm.controller
    spell = s.on_stack(target.ref) if isinstance(target.ref, int) else None
    return spell.controller if spell is not None else None


def scry(g: Game, item: StackItem, n: int) -> bool:
    """``scry N``: its controller looks at the top N cards of their library (701.22a) and decides where
    each goes (:func:`decide_scry`): True while that is awaited."""
    me = item.controller
    cards = g.s.library.get(me, [])[:n]
    if n <= 0 or not cards:
        why = "scry 0: no scry event occurs" if n <= 0 else f"{me}'s library is empty: there is nothing to look at"
        g.emit(f"{item.name}: {why}", "resolve.instructions", "effect.scry")
        return False
    seen = ", ".join(scry_label(cards, c) for c in cards)
    g.emit(
        f"{me} scries {n}: looks at the top {len(cards)} card{'s' if len(cards) != 1 else ''} of their library "
        f"({seen}) and puts any number on the bottom, the rest on top, in any order; {me} chooses",
        "resolve.instructions",
        "effect.scry",
    )
    return True


def pick(g: Game, item: StackItem, instr: Instruction, whose: str) -> bool:
    """``You choose a nonland card from it``: True while the choice among the cards of ``whose`` revealed
    hand that may be chosen is awaited; said and skipped when there is none."""
    able = choosable(g.s, instr, whose)
    if not able:
        g.emit(
            f"{item.name}: there is no card in {whose}'s hand {item.controller} could choose: nothing is chosen",
            "resolve.instructions",
        )
        return False
    g.emit(
        f"{item.controller} chooses a card from {whose}'s hand ({', '.join(c.name for c in able)} may be chosen)",
        "resolve.instructions",
    )
    return True


def offer_cast(g: Game, item: StackItem, instr: Instruction, target: Target | None) -> bool:
    """``you may cast ~ from exile without paying its mana cost`` (rebound, 702.88a): its controller casts
    the card now, as the ability resolves (608.2g), or declines; False when the card has left exile."""
    card = offered_card(g.s, target)
    if card is None:
        g.emit(f"{item.name}: the card has left exile, so it can't be cast", "resolve.instructions", "zone.new_object")
        return False
    how, key = OFFERS[instr.extra[0]]
    g.emit(
        f"{item.name}: {item.controller} may cast {card.name} from exile {how}, now "
        f"('{item.controller} casts {card.name} ...') or not ('{item.controller} declines')",
        key,
        "resolve.instructions",
    )
    return True


# How a card offered by a resolving ability is cast (Paused.offered), and the keyword's rule.
OFFERS = {
    "free": ("without paying its mana cost", "keyword.rebound"),
    "madness": ("for its madness cost", "keyword.madness"),
}


def servos(g: Game, item: StackItem, n: int) -> None:
    """Fabricate's other choice (702.123a): N 1/1 colorless Servo artifact creature tokens."""
    (token,) = parse_effect(f"create {n} 1/1 colorless Servo artifact creature token{'s' if n != 1 else ''}")
    execute(g, item, token, None)


def fabricated(g: Game, plan: Fabricating) -> None:
    """``P chooses counters | servos`` as a fabricate ability resolves (702.123a)."""
    paused = g.s.paused
    assert paused is not None
    n, perm = paused.amount, g.s.permanent(paused.item.subject.ref) if paused.item.subject else None  # type: ignore[arg-type]
    if plan.counters and perm is not None:
        perm.counters["+1/+1"] = perm.counters.get("+1/+1", 0) + n
        g.emit(
            f"{plan.player} chooses counters: {n} +1/+1 counter{'s' if n != 1 else ''} on {perm.name} (now "
            f"{g.s.power(perm)}/{g.s.toughness(perm)})",
            "keyword.fabricate",
            "counter.put",
        )
    else:
        g.emit(f"{plan.player} chooses Servos", "keyword.fabricate", "resolve.instructions")
        servos(g, paused.item, n)
    resume_offer(g, "fabricate")


def offer_pair(g: Game, item: StackItem) -> bool:
    """A soulbond ability resolving (702.95a): True when its controller is asked to pair the creature with
    soulbond with the creature that entered (or, when it entered itself, with one of her unpaired creatures);
    False, said, when neither can be paired any more (702.95c)."""
    perm = g.s.permanent(item.subject.ref) if item.subject is not None else None  # type: ignore[arg-type]
    about = g.s.permanent(item.about[0].ref) if item.about is not None else None  # type: ignore[arg-type]
    mates = pair_options(g.s, item)
    if perm is None or not mates:
        g.emit(
            f"{item.name}: {perm.name if perm else item.source} can't be paired now (a creature that would be paired "
            f"has left the battlefield, changed control or is paired already): neither becomes paired",
            "keyword.soulbond",
            "resolve.instructions",
        )
        return False
    said = " or ".join(f"'{item.controller} pairs {perm.name} with {m.name}'" for m in mates[:3])
    g.emit(
        f"{item.name}: {item.controller} may pair {perm.name} with "
        + (about.name if about is not None and about is not perm else "another unpaired creature they control")
        + f" ({said}, or '{item.controller} declines')",
        "keyword.soulbond",
        "resolve.instructions",
    )
    return True


def paired(g: Game, plan: Pairing) -> None:
    """``P pairs A with B`` as a soulbond ability resolves: they are paired for as long as both remain creatures
    on the battlefield under her control (702.95a, 702.95e)."""
    plan.perm.paired, plan.mate.paired = plan.mate.oid, plan.perm.oid
    g.emit(
        f"{plan.player} pairs {plan.perm.name} with {plan.mate.name}: they are paired for as long as both remain "
        f"creatures on the battlefield under {plan.player}'s control",
        "keyword.soulbond",
    )
    resume_offer(g, "pair")


def sacrifice_offered(g: Game, plan: Sacrificing) -> None:
    """``P sacrifices NAME`` as an exploit ability resolves: the creature is sacrificed, and the creature with
    exploit "exploits a creature" (702.110b): its "When ~ exploits a creature" abilities trigger."""
    paused = g.s.paused
    assert paused is not None
    source = paused.item.subject
    exploiter = g.s.permanent(source.ref) if source is not None else None  # type: ignore[arg-type]
    g.emit(f"{plan.player} sacrifices {plan.perm.name} ({paused.item.name})", "keyword.exploit", "effect.sacrifice")
    leave_battlefield(g, plan.perm, "graveyard")
    if exploiter is not None:
        fire(g, "exploits", exploiter)
    resume_offer(g, plan.perm.name)


def resume_offer(g: Game, cast: str = "") -> None:
    """The ability that offered a card goes on resolving once its controller cast the card (``cast``) or
    declined; the active player then receives priority (117.3b)."""
    paused = g.s.paused
    assert paused is not None
    g.s.paused, g.s.pending, g.s.deciding = None, None, None
    card = offered_card(g.s, Target("card", paused.victim, ""))
    if not cast and paused.offered == "madness" and card is not None:  # "If that player doesn't, ..." (702.35a)
        g.s.exile[card.owner].remove(card)
        g.s.graveyard.setdefault(card.owner, []).append(card)
        g.emit(
            f"{paused.payer} does not cast {card.name}: it is put into {card.owner}'s graveyard",
            "keyword.madness",
            "resolve.instructions",
        )
    elif not cast and paused.offered == "sacrifice":
        g.emit(f"{paused.payer} does not sacrifice a creature", "keyword.exploit", "resolve.instructions")
    elif not cast and paused.offered == "pair":
        g.emit(f"{paused.payer} does not pair them: both stay unpaired", "keyword.soulbond", "resolve.instructions")
    elif not cast:
        g.emit(f"{paused.payer} does not cast it: it stays in exile", "keyword.rebound", "resolve.instructions")
    go_on(g, paused.item, paused.index, paused.legal)
    if g.s.paused is None:
        g.receive_priority(
            g.s.turn_player,
            f"{g.s.turn_player} receives priority after {paused.item.name} resolved",
            "priority.after_resolution",
        )


def discard(g: Game, item: StackItem, whose: str, n: int) -> bool:
    """``discard N cards``: True while ``whose`` choice of the cards is awaited (701.9b); a hand of N cards or
    fewer is discarded whole, there being nothing to choose."""
    hand = g.s.hand.get(whose, [])
    if len(hand) > n:
        g.emit(
            f"{item.name}: {whose} discards {n} card{'s' if n != 1 else ''} of their choice; {whose} chooses",
            "resolve.instructions",
            "effect.discard",
        )
        return True
    gone = list(hand)
    for card in gone:
        hand.remove(card)
        discarded(g, card)
    said = ", ".join(c.name for c in gone) or "nothing: their hand is empty"
    g.emit(f"{item.name}: {whose} discards {said}", "resolve.instructions", "effect.discard")
    return False


def explore(g: Game, item: StackItem, target: Target | None) -> str | None:
    """A permanent explores (701.44a): its controller reveals the top card of their library; a land card goes
    into their hand, otherwise a +1/+1 counter on it, and they may put the card into their graveyard: returns
    who then chooses (None: nothing to choose). An unnamed card is no land card (its type is not known)."""
    s = g.s
    perm = s.permanent(target.ref) if target is not None and isinstance(target.ref, int) else None
    who = perm.controller if perm is not None else item.controller  # as it last was (701.44c)
    name = perm.name if perm is not None else (target.name if target is not None else item.name)
    library = s.library.get(who, [])
    card = library[0] if library else None
    d = s.definition(card.name) if card is not None else None
    if card is not None and d is not None and "land" in d.types:
        library.remove(card)
        s.hand.setdefault(who, []).append(card)
        g.emit(
            f"{name} explores: {who} reveals {card.name}, a land card, and puts it into their hand", "effect.explore"
        )
        return None
    said = "no card (the library is empty)" if card is None else f"{card.name}, not a land card"
    if perm is not None:
        perm.counters["+1/+1"] = perm.counters.get("+1/+1", 0) + 1
        counter = f"a +1/+1 counter is put on {name} (now {s.power(perm)}/{s.toughness(perm)})"
    else:
        counter = f"{name} has left the battlefield: no counter is put on it"
    g.emit(f"{name} explores: {who} reveals {said}; {counter}", "effect.explore", "counter.put")
    if card is None:
        return None
    g.emit(f"{who} may put {card.name} into their graveyard; {who} chooses", "effect.explore", "resolve.choices")
    return who


def look(g: Game, item: StackItem, instr: Instruction) -> bool:
    """ "Look at the top N cards of your library" and what is done with them: True while its controller's
    choice is awaited (:func:`decide_look`); done at once when there is nothing to choose."""
    me = item.controller
    cards = g.s.library.get(me, [])[: instr.amount]
    seen = ", ".join(scry_label(cards, c) for c in cards) or "none: the library is empty"
    g.emit(f"{me} looks at the top {instr.amount} cards of their library ({seen})", "resolve.instructions")
    if not cards:
        return False
    how, terms, _, rest = instr.extra
    if how == "all":
        taken = [c for c in cards if looked_matches(g.s, c, terms)]
        if rest == "graveyard" or len(cards) - len(taken) <= 1:
            _place_looked(g, me, cards, taken, [c for c in cards if c not in taken], rest)
            return False
    into = "into their graveyard" if how == "any" else "into their hand"
    g.emit(f"{me} chooses what goes {into} and the order of the rest", "resolve.instructions")
    return True


def _place_looked(g: Game, me: str, cards: list, taken: list, bottom: list, rest: str, how: str = "") -> None:
    """The cards looked at moved: those taken into the hand (``how == "any"``: into the graveyard), the rest
    into the graveyard, on the bottom (``bottom``, the last lowest) or back on top (the first topmost)."""
    library = g.s.library[me]
    del library[: len(cards)]
    (g.s.graveyard if how == "any" else g.s.hand).setdefault(me, []).extend(taken)
    if rest == "graveyard":
        g.s.graveyard.setdefault(me, []).extend(c for c in cards if c not in taken)
    elif rest == "top":
        library[:0] = bottom
    else:
        library.extend(bottom)
    into = ", ".join(scry_label(cards, c) for c in taken) or "nothing"
    placed = [c for c in cards if c not in taken] if rest == "graveyard" else bottom  # in the order chosen
    left = ", ".join(scry_label(cards, c) for c in placed) or "nothing"
    where = {
        "graveyard": "into their graveyard",
        "top": "back on top of their library, in the order chosen (the first is now the top card)",
    }.get(rest, "on the bottom of their library, in the order chosen (the last is now the bottom card)")
    first = "into their graveyard" if how == "any" else "into their hand"
    g.emit(f"{me} puts {into} {first} and {left} {where}", "resolve.instructions")


def search(g: Game, item: StackItem, instr: Instruction) -> bool:
    """Its controller searches their library (701.23a): True while their choice of the cards found is
    awaited (:func:`decide_look`); found at once when there is nothing to choose."""
    me, s = item.controller, g.s
    how, terms, where, _ = instr.extra
    wanted = " and ".join(terms) or "any"
    count = "a card" if instr.amount == 1 and how != "up to" else f"up to {instr.amount} cards"
    library = s.library.get(me, [])
    g.emit(
        f"{item.name}: {me} searches their library ({len(library)} cards) for {count} that is {wanted}, to put "
        f"{'into their hand' if where == 'hand' else 'onto the battlefield' + (' tapped' if 'tapped' in where else '')}",
        "resolve.instructions",
        "effect.search",
    )
    matching = [c for c in library if looked_matches(s, c, terms)] if terms else list(library)
    if not matching:
        found(g, item, instr, [])
        return False
    if how == "may" or how == "up to":
        g.emit(
            f"{me} chooses which cards to find, and may find none: they are searching for a stated quality",
            "resolve.choices",
            "effect.search",
        )
    else:
        g.emit(f"{me} chooses which card to find", "resolve.choices", "effect.search")
    return True


def found(g: Game, item: StackItem, instr: Instruction, cards: list) -> None:
    """The cards found by a search go where it says (revealed if it says so, 701.23e); then the library is
    shuffled (701.24a)."""
    s, me = g.s, item.controller
    _, _, where, revealed = instr.extra
    for card in cards:
        s.library[me].remove(card)
    names = ", ".join(c.name for c in cards)
    if not cards:
        g.emit(f"{me} finds nothing", "resolve.instructions", "effect.search")
    elif where == "hand":
        s.hand.setdefault(me, []).extend(cards)
        it = "it" if len(cards) == 1 else "them"
        shown = f", reveals {it}" if revealed else ""
        g.emit(f"{me} finds {names}{shown} and puts {it} into their hand", "resolve.instructions", "effect.search")
    else:
        g.emit(
            f"{me} finds {names} and puts {'it' if len(cards) == 1 else 'them'} onto the battlefield"
            + (" tapped" if "tapped" in where else ""),
            "resolve.instructions",
            "effect.search",
        )
        for card in cards:
            d = s.definition(card.name)
            assert d is not None  # a card of a stated quality is one whose types are known (looked_matches)
            enter(g, Permanent(s.oid(), card.name, me, me, d, sick=True, tapped="tapped" in where))
    g.emit(
        f"{me} shuffles their library: no player knows its order (the engine cannot know it either, and keeps "
        "the cards left in the order given)",
        "resolve.instructions",
        "effect.shuffle",
    )


def decide_look(g: Game, plan: Looking) -> None:
    """The cards looked at go where their controller said; the spell or ability goes on resolving."""
    paused = g.s.paused
    assert paused is not None
    g.s.paused, g.s.pending, g.s.deciding = None, None, None
    instr = parse_effect(paused.item.effect)[paused.index - 1]
    if instr.verb == "may":  # "you may search ...", accepted
        instr = instr.extra[0]
    if instr.verb == "search":
        found(g, paused.item, instr, list(plan.taken))
        go_on(g, paused.item, paused.index, paused.legal)
        return
    cards = g.s.library[plan.player][: instr.amount]
    rest = [c for c in cards if c not in plan.taken]
    _place_looked(g, plan.player, cards, list(plan.taken), list(plan.bottom) or rest, instr.extra[3], instr.extra[0])
    go_on(g, paused.item, paused.index, paused.legal)


def decide_may(g: Game, plan: Choosing) -> None:
    """Whether the controller does what "you may" offers (608.2d); the spell or ability goes on resolving."""
    paused = g.s.paused
    assert paused is not None
    g.s.paused, g.s.pending, g.s.deciding = None, None, None
    instr = parse_effect(paused.item.effect)[paused.index]
    if instr.verb == "explore":  # the card revealed: into the graveyard, or left on top (701.44a)
        card = g.s.library[plan.player][0]
        if plan.yes:
            g.s.library[plan.player].remove(card)
            g.s.graveyard.setdefault(card.owner, []).append(card)
        where = "puts it into their graveyard" if plan.yes else "leaves it on top of their library"
        g.emit(f"{plan.player} {where} ({card.name})", "effect.explore", "resolve.choices")
        go_on(g, paused.item, paused.index + 1, paused.legal)
        return
    said = _named(paused.item, instr.extra[1])
    g.s.paid = plan.yes  # what a following "if you do" asks (608.2c)
    g.emit(f"{plan.player} {'chooses to' if plan.yes else 'chooses not to'} {said}", "resolve.choices")
    go_on(g, paused.item, paused.index if plan.yes else paused.index + 1, paused.legal, accepted=plan.yes)


def decide_discard(g: Game, plan: Discarding) -> None:
    """The cards a player chose to discard go (701.9a); the spell or ability goes on resolving."""
    paused = g.s.paused
    assert paused is not None
    g.s.paused, g.s.pending, g.s.deciding = None, None, None
    for card in plan.cards:
        g.s.hand[plan.player].remove(card)
        discarded(g, card)
    g.emit(f"{plan.player} discards {', '.join(c.name for c in plan.cards)}", "effect.discard")
    go_on(g, paused.item, paused.index, paused.legal)


def decide_pick(g: Game, plan: Picking) -> None:
    """The card chosen from a revealed hand is discarded or exiled; the spell goes on resolving."""
    paused = g.s.paused
    assert paused is not None
    g.s.paused, g.s.pending, g.s.deciding = None, None, None
    whose, card = paused.whose, plan.card
    g.s.hand[whose].remove(card)
    if plan.then == "discard":
        discarded(g, card)
        g.emit(f"{plan.player} chooses {card.name}: {whose} discards it", "effect.discard", "resolve.instructions")
    else:
        g.s.exile.setdefault(card.owner, []).append(card)
        g.emit(f"{plan.player} chooses {card.name}: it is exiled", "effect.exile", "resolve.instructions")
    go_on(g, paused.item, paused.index, paused.legal)


def decide_scry(g: Game, plan: Scrying) -> None:
    """The cards scried go where their owner said (701.22a); the spell or ability goes on resolving."""
    paused = g.s.paused
    assert paused is not None
    g.s.paused, g.s.pending, g.s.deciding = None, None, None
    library = g.s.library[plan.player]
    looked = library[: len(plan.top) + len(plan.bottom)]
    library[:] = list(plan.top) + library[len(looked) :] + list(plan.bottom)
    top = ", ".join(scry_label(looked, c) for c in plan.top) or "none"
    bottom = ", ".join(scry_label(looked, c) for c in plan.bottom) or "none"
    g.emit(
        f"{plan.player} scries: on top {top} (the first named topmost); on the bottom {bottom}",
        "effect.scry",
    )
    go_on(g, paused.item, paused.index, paused.legal)


def decide_payment(g: Game, plan: Paying) -> None:
    """The payer's answer to "counter ... unless its controller pays {N}" (118.12a); the spell or ability
    that asked then goes on resolving."""
    paused = g.s.paused
    assert paused is not None
    g.s.paused, g.s.pending, g.s.deciding = None, None, None
    if paused.mana:  # "you may pay {W/B}" (extort): the "if you do" after it asks whether she did
        g.s.paid = plan.pays
        if plan.pays:
            pay(g, plan.payment)
            if energy_of(paused.mana):
                pay_energy(g, plan.player, (("E", energy_of(paused.mana)),), paused.item.name)
        g.emit(f"{plan.player} {'pays' if plan.pays else 'does not pay'} {paused.mana}", "resolve.instructions")
        go_on(g, paused.item, paused.index, paused.legal)
        return
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
        asked = parse_effect(paused.item.effect)[paused.index - 1]
        counter(g, paused.item, victim, COUNTERED_EXILE in asked.extra)
    go_on(g, paused.item, paused.index, paused.legal)


def chosen_as_it_enters(g: Game, perm: Permanent, value: str) -> None:
    """ "As ~ enters the battlefield, choose a color": its controller's choice, made before it enters
    (614.12a); from then on it has the abilities the value chosen gives it (engine.mtg.chosen)."""
    chosen = perm.card.chosen(value)
    if chosen is None:
        return
    kind = perm.card.choose
    perm.card = chosen
    anchor = kind.startswith(ANCHOR)  # "• Khans — ...": the ability of the word chosen (614.12c)
    g.emit(
        f"As {perm.name} enters the battlefield, {perm.controller} chooses "
        f"{value.title() if anchor else f'the {kind} {value.title()}'}",
        "replace.enters_choice",
        *(["replace.enters_anchor"] if anchor else []),
    )


def _finish(g: Game, item: StackItem, resolved: bool) -> None:
    if item.kind != "spell" or item.card is None or item.definition is None:
        return
    d = item.definition
    owner = item.card.owner
    if resolved and d.is_permanent:
        perm = Permanent(item.card.oid, item.card.name, owner, item.controller, d, sick=True)
        if d.choices and item.mode:
            chosen_as_it_enters(g, perm, item.mode)
        if item.chosen:
            perm = as_chosen(g, item, perm)
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
        enter(g, perm, attach, item.x)  # type: ignore[arg-type]
        return
    if exiled_instead(item):
        exiled(g, item)
        return
    if resolved and "rebound" in d.keywords and not item.cast_from:  # cast from its owner's hand (702.88a)
        g.s.exile.setdefault(owner, []).append(item.card)
        g.s.rebounds += ((item.card.oid, owner),)
        g.emit(
            f"{item.name} has rebound and was cast from {owner}'s hand: it is exiled as it resolves; at the "
            f"beginning of {owner}'s next upkeep, {owner} may cast it from exile without paying its mana cost",
            "keyword.rebound",
            "replace.instead",
        )
        return
    g.s.graveyard.setdefault(owner, []).append(item.card)
    if resolved:
        g.emit(f"{item.name} is put into {owner}'s graveyard", "resolve.to_graveyard")
    else:
        g.emit(f"{item.name} is put into {owner}'s graveyard without effect", "resolve.illegal_targets")


def exiled_instead(item: StackItem) -> bool:
    """Whether a spell leaving the stack is exiled instead of going anywhere else: cast with flashback
    (702.34a), or a split card's half with aftermath cast from a graveyard (702.127a)."""
    aftermath = item.definition is not None and "aftermath" in item.definition.keywords
    return item.flashback or (aftermath and item.cast_from == "graveyard")


def exiled(g: Game, item: StackItem) -> None:
    """A spell cast with flashback, or an aftermath half cast from a graveyard, leaves the stack: it is exiled
    instead of going anywhere else (702.34a, 702.127a)."""
    assert item.card is not None
    g.s.exile.setdefault(item.card.owner, []).append(item.card)
    if not item.flashback:
        g.emit(
            f"{item.name} has aftermath and was cast from a graveyard: {item.card.name} is exiled instead of going "
            "anywhere else",
            "keyword.aftermath",
            "replace.instead",
        )
        return
    g.emit(
        f"{item.name} was cast with flashback: it is exiled instead of going anywhere else",
        "keyword.flashback",
        "replace.instead",
    )


def counter(g: Game, by: StackItem, victim: StackItem, into_exile: bool = False) -> None:
    """Counter ``victim`` (701.6a); ``into_exile``: "if that spell is countered this way, exile it instead of
    putting it into its owner's graveyard" (a replacement effect of the counterspell, 614.1a)."""
    if victim.definition is not None and victim.definition.uncounterable:
        g.emit(
            f"{victim.name} can't be countered: {by.name} does not counter it, and it stays on the stack",
            "counter.cannot",
            "effect.counter",
        )
        return
    g.s.stack.remove(victim)
    if victim.card is not None and exiled_instead(victim):
        exiled(g, victim)
    elif victim.card is not None and into_exile:
        g.s.exile.setdefault(victim.card.owner, []).append(victim.card)
        g.emit(
            f"{by.name} counters {victim.name}: it leaves the stack without resolving and is exiled instead of going "
            f"to {victim.card.owner}'s graveyard",
            "effect.counter",
            "replace.instead",
        )
        return
    elif victim.card is not None:
        g.s.graveyard.setdefault(victim.card.owner, []).append(victim.card)
    g.emit(
        f"{by.name} counters {victim.name}: it leaves the stack without resolving"
        + (f" and goes to {victim.card.owner}'s graveyard" if victim.card and not exiled_instead(victim) else ""),
        "effect.counter",
    )


def _n(item: StackItem, value: int) -> int:
    return item.x if value == X else -item.x if value == -X else value


def _source(g: Game, item: StackItem) -> Source:
    """The source of what ``item`` does: a spell itself, or an ability's source (named as the ability)."""
    if item.src is None:
        return Source(item.name, item.controller)
    return item.src if item.kind == "spell" else replace(item.src, name=item.name)


def was_chosen(g: Game, item: StackItem, key: str, otherwise: str = ": this part does nothing") -> bool:
    """``if this spell was kicked`` (a spell whose caster chose to pay its kicker cost, 702.33d), ``if it
    was kicked`` / ``if its surge cost was paid`` (a permanent's ability: the spell it was), as ``item``
    resolves (:data:`engine.mtg.effects.CHOSE`); said either way."""
    keyword, designation = CHOSE[key]
    if item.kind == "spell":
        holds, what = keyword in item.chosen, item.name
    else:
        source = g.s.permanent(item.subject.ref) if item.subject is not None else None  # type: ignore[arg-type]
        holds, what = source is not None and designation in source.designations, item.source or item.name
    said = key.replace("it was", f"{what} was").replace("its ", f"{what}'s ")
    g.emit(
        f"{item.name}: {'it is' if holds else 'it is not'} true that {said}" + ("" if holds else otherwise),
        f"keyword.{keyword}",
        "resolve.instructions",
    )
    return holds


def may_pay(g: Game, item: StackItem, instr: Instruction) -> bool:
    """``you may pay {W/B}`` as ``item`` resolves (extort, 702.101a): its controller is asked, when they can
    pay it (else it is said they cannot, and the "if you do" after it does nothing)."""
    player = item.controller
    g.s.paid = False
    energy = energy_of(instr.mana)
    if energy and g.s.energy.get(player, 0) < energy and not g.s.costs_ignore:
        g.emit(
            f"{item.name}: {player} cannot pay {instr.mana} ({g.s.energy.get(player, 0)} energy counters)",
            "resolve.instructions",
            "counter.energy",
        )
        return False
    if (
        not energy
        and hybrid_payment(g.s, player, instr.mana, item.name) is None
        and player in g.s.paying
        and not g.s.costs_ignore
    ):
        g.emit(f"{item.name}: {player} cannot pay {instr.mana}", "resolve.instructions", "cast.pay")
        return False
    g.emit(
        f"{item.name}: {player} may pay {instr.mana} ('{player} pays' or '{player} does not pay')",
        "resolve.instructions",
    )
    return True


def copy_token(g: Game, item: StackItem, instr: Instruction, target: Target | None) -> None:
    """``create a token that's a copy of ~, except it's white, ... and it's a Zombie in addition to its
    other types`` (embalm 702.128a, eternalize 702.129a): a token with the card's copiable values (707.2),
    as the exceptions change them, under its controller's control."""
    s, me = g.s, item.controller
    d = s.definition(target.name) if target is not None else None
    if d is None:
        g.emit(f"{item.name}: the card it copies is not known, so no token is created", "resolve.instructions")
        return
    colour, pt, subtype = instr.extra
    copy = replace(
        d,
        cost=(),
        colours=frozenset({colour}),
        subtypes=d.subtypes | {subtype.lower()},
        **({"power": pt[0], "toughness": pt[1]} if pt else {}),
    )
    perm = Permanent(s.oid(), unique_name(g, d.name), me, me, copy, sick=True, token=True)
    g.emit(
        f"{item.name} creates {perm.name}, a token that's a copy of {d.name}, except it's "
        f"{COLOUR_NAMES[colour]}{f', {pt[0]}/{pt[1]}' if pt else ''}, with no mana cost, and a {subtype} too",
        "resolve.instructions",
        "token.create",
        "effect.copy",
    )
    enter(g, perm)


def exile_top(g: Game, item: StackItem, instr: Instruction, n: int) -> None:
    """``that player exiles the top card of their library`` (ingest, 702.115a: the player the trigger is
    about, the player dealt combat damage), ``each opponent exiles ...``."""
    if instr.who == "that player" and (item.about is None or item.about[0].kind != "player"):
        g.emit(f"{item.name}: no player is named by 'that player', so it does nothing", "resolve.instructions")
        return
    players = [str(item.about[0].ref)] if instr.who == "that player" else [g.s.other(item.controller)]  # type: ignore[index]
    for who in players:
        library = g.s.library.get(who, [])
        gone, library[:] = library[:n], library[n:]
        g.s.exile.setdefault(who, []).extend(gone)
        said = ", ".join(c.name for c in gone) or "nothing (the library is empty)"
        g.emit(f"{who} exiles the top card of their library: {said}", "resolve.instructions", "effect.exile")


def bolster(g: Game, item: StackItem, n: int) -> None:
    """``bolster N`` (701.39a): N +1/+1 counters on a creature its controller controls with the least
    toughness among them; of several tied, the player chooses (the engine takes the first listed, and says so)."""
    s, me = g.s, item.controller
    mine = [p for p in s.battlefield if p.controller == me and p.is_a("creature")]
    if not mine:
        g.emit(f"{item.name}: {me} controls no creature to bolster", "effect.bolster")
        return
    least = min(s.toughness(p) for p in mine)
    tied = [p for p in mine if s.toughness(p) == least]
    chosen = tied[0]
    chosen.counters["+1/+1"] = chosen.counters.get("+1/+1", 0) + n
    choice = f" ({me} chooses among {', '.join(p.name for p in tied)}: the first listed)" if len(tied) > 1 else ""
    g.emit(
        f"{item.name}: {me} bolsters {n}: {chosen.name} has the least toughness ({least}){choice} and gets {n} "
        f"+1/+1 counter{'s' if n != 1 else ''} (now {s.power(chosen)}/{s.toughness(chosen)})",
        "effect.bolster",
        "counter.put",
    )


def drain(g: Game, item: StackItem, n: int) -> None:
    """``each opponent loses N life and you gain that much life``: the life lost, then gained (extort, 702.101a)."""
    s, me = g.s, item.controller
    lost = 0
    for p in s.players:
        if p == me:
            continue
        before = s.life[p]
        s.life[p] -= n
        lost += n
        g.emit(f"{p} loses {n} life ({before} -> {s.life[p]})", "resolve.instructions", "life.change")
    before = s.life[me]
    s.life[me] += lost
    g.emit(
        f"{me} gains {lost} life, the life lost this way ({before} -> {s.life[me]})",
        "resolve.instructions",
        "life.change",
    )


def evolves(g: Game, item: StackItem) -> bool:
    """Evolve's intervening "if" checked again as it resolves (603.4): the creature that entered (as it last
    existed, once gone: 702.100c) has greater power or toughness than the evolving creature; said either way."""
    me = g.s.permanent(item.subject.ref) if item.subject is not None else None  # type: ignore[arg-type]
    if item.about is None or me is None:
        return False
    target, power, toughness = item.about
    other = g.s.permanent(target.ref)  # type: ignore[arg-type]
    if other is not None:
        power, toughness = g.s.power(other), g.s.toughness(other)
    mine = (g.s.power(me), g.s.toughness(me))
    holds = power > mine[0] or toughness > mine[1]
    g.emit(
        f"{item.name}: {target.name} ({power}/{toughness}{'' if other else ', as it last existed'}) "
        f"{'has' if holds else 'no longer has'} greater power or toughness than {me.name} ({mine[0]}/{mine[1]})"
        + ("" if holds else ": it does nothing"),
        "keyword.evolve",
        "trigger.if",
    )
    return holds


def counted_amount(g: Game, item: StackItem, words: str) -> int:
    """An amount "equal to the number of ...", counted as the instruction is carried out (608.2h)."""
    count = read_count(words)
    assert count is not None, words
    n = counted(g.s, item.controller, count)
    g.emit(f"{item.name}: {count.said()} is {n}", "resolve.instructions", "resolve.amount")
    return n


def if_holds(g: Game, item: StackItem, key: str) -> bool:
    """Whether the condition of ``if CONDITION, EFFECT`` is true as ``item`` resolves, said when it is not."""
    if key in CHOSE:
        return was_chosen(g, item, key)
    if key == EVOLVES:
        return evolves(g, item)
    if key == PAID:  # "if you do": the "you may pay" just before was paid
        if not g.s.paid:
            g.emit(f"{item.name}: {item.controller} did not pay, so this part does nothing", "resolve.instructions")
        return g.s.paid
    cond = condition(key)
    source = g.s.permanent(item.subject.ref) if item.subject is not None else None  # type: ignore[arg-type]
    if cond.holds(g.s, item.controller, source):
        g.emit(f"{item.name}: it is true that {cond.said_as} ({cond.said(g.s, item.controller, source)})", "trigger.if")
        return True
    g.emit(
        f"{item.name}: it is no longer true that {cond.said_as} ({cond.said(g.s, item.controller, source)}): "
        "this part does nothing",
        "resolve.instructions",
        "trigger.if",
    )
    return False


def transform_by(g: Game, item: StackItem, perm: Permanent) -> None:
    """``transform ~`` (701.27a): a double-faced permanent turns over, the same object (712.18); one that
    is not does nothing (701.27c), nor one that transformed since the ability was put on the stack (701.27f)."""
    was = perm.name
    if perm.turned > item.oid:
        g.emit(
            f"{was} has transformed since {item.name} was put on the stack: it does not transform again",
            "effect.transform",
        )
        return
    now = transform(g.s, perm)
    if now is None:
        g.emit(f"{was} is not a double-faced card: it cannot transform; {item.name} does nothing", "effect.transform")
        return
    face = "back" if perm.front else "front"
    stats = f" (now {g.s.power(perm)}/{g.s.toughness(perm)})" if perm.is_a("creature") else ""
    g.emit(
        f"{item.name}: {was} transforms into {now}{stats}: it has only its {face} face's characteristics, the "
        "same permanent still",
        "resolve.instructions",
        "effect.transform",
        "card.dfc_faces",
    )
    fire(g, "transforms", perm)  # "whenever this creature transforms into ~" (701.27e)


def execute(g: Game, item: StackItem, instr: Instruction, target: Target | None) -> tuple[str, int, int] | None:
    """Carry out one instruction. Returns (payer, amount, the stack object) when it asks a player whether
    to pay (the resolution waits for the answer)."""
    s = g.s
    me = item.controller
    verb = instr.verb
    if DIES_EXILED in instr.extra:  # the creatures dealt damage this way: exiled if they would die this turn
        _marked_dying(g, item, instr, target)
        return None
    n = _n(item, instr.amount)
    if verb == "damage" and instr.extra[:1] == ("count",):  # "equal to the number of ...", as it resolves (608.2h)
        n = counted_amount(g, item, instr.extra[1])
    if verb == "counted":  # "..., where X is the number of ...", "... for each ...": counted now (608.2h)
        kind, words, inner = instr.extra
        count = (read_count if kind == "x" else read_each)(words)
        assert count is not None, words
        found = counted(g.s, item.controller, count)
        g.emit(f"{item.name}: {count.said()} is {found}", "resolve.instructions", "resolve.amount")
        if kind == "x":
            return execute(g, replace(item, x=found), inner, target)
        return execute(g, item, replace(inner, amount=inner.amount * found, amount2=inner.amount2 * found), target)
    if verb == "if":  # "if CONDITION, EFFECT": checked as it resolves (603.4 for an intervening "if")
        key, inner = instr.extra
        if not if_holds(g, item, key):
            return None
        return execute(g, item, inner, target)
    if verb == "either":  # "X. If this spell was kicked, Y instead" (702.33e)
        key, other, before = instr.extra
        return execute(g, item, other if was_chosen(g, item, key, otherwise="") else before, target)
    if verb == "drain":
        drain(g, item, n)
        return None
    if verb == "bolster":
        bolster(g, item, n)
        return None
    if verb == "exile_top":
        exile_top(g, item, instr, n)
        return None
    if verb == "copy_token":
        copy_token(g, item, instr, target)
        return None
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
            counter(g, item, victim, COUNTERED_EXILE in instr.extra)
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
        counter(g, item, victim, COUNTERED_EXILE in instr.extra)
    elif verb == "fog":
        s.fog = True
        g.emit(
            f"{item.name}: all combat damage that would be dealt this turn will be prevented",
            "resolve.instructions",
            "prevent.effect",
        )
    elif verb == "energy":
        got_energy(g, me, n)
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
        power, toughness, colours, name, keywords = instr.extra[:5]
        full = f"{name} Token" if s.follows("token_named_token") else name
        ability = instr.extra[5] if len(instr.extra) > 5 else ()
        types = instr.extra[6] if len(instr.extra) > 6 else ("creature",)
        d = token_definition(full, power, toughness, colours, keywords, ability, types)
        s.cards.setdefault(full.lower(), d)
        for _ in range(n):
            perm = Permanent(s.oid(), unique_name(g, full), me, me, d, sick=True, token=True)
            pt = f"{power}/{toughness} " if power is not None else "colorless " if not colours else ""
            g.emit(
                f"{item.name} creates {perm.name}, a {pt}{' '.join(types)} token, under {me}'s control",
                "resolve.instructions",
                "token.create",
                "token.name",
            )
            enter(g, perm)
    elif verb == "investigate":  # a Clue token (701.16a, 111.10f)
        _investigate(g, item, n)
    elif verb == "mill":
        players = (
            [str(target.ref)]
            if target is not None
            else s.apnap()
            if instr.who == "each player"
            else [me if instr.who == "you" else s.other(me)]
        )
        for p in players:
            milled = s.library.get(p, [])[:n]
            del s.library[p][: len(milled)]
            s.graveyard.setdefault(p, []).extend(milled)
            names = ", ".join(c.name for c in milled) or "no cards: the library is empty"
            g.emit(
                f"{p} puts the top {n} card{'s' if n != 1 else ''} of their library into their graveyard ({names})",
                "resolve.instructions",
            )
    elif verb == "pick":  # the hand it names was not revealed (its player no longer a legal target)
        g.emit(f"{item.name}: no hand was revealed, so no card is chosen", "resolve.instructions")
    elif verb == "reveal_hand":
        whose = str(target.ref) if target is not None else s.other(me)
        cards = ", ".join(c.name for c in s.hand.get(whose, [])) or "no cards"
        g.emit(f"{whose} reveals their hand: {cards}", "resolve.instructions")
    elif verb == "from_graveyard":
        _from_graveyard(g, item, instr, target)
    elif verb == "return_self":
        _return_self(g, item, instr, target)
    elif verb == "bounce" and target is not None and target.kind in ("card", "token"):
        _bounce_found(g, item, target)
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
    elif verb == "destroy" and instr.who.startswith(ALL_OF):  # "destroy all enchantments"
        kind = instr.who.removeprefix(ALL_OF)
        every = [p for p in s.battlefield if kind_matches(s, p, kind, me)]
        if not every:
            g.emit(f"{item.name}: there are no {kind}s to destroy", "resolve.instructions")
        for perm in every:
            _on_permanent(g, item, instr, perm, n)
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


def _named(item: StackItem, said: str) -> str:
    """Words of a card's text as a player reads them: "~" is the name of the object that has the ability."""
    return said.replace("~", item.source or item.name)


def _group_of(g: Game, item: StackItem, before: Instruction) -> list[Permanent] | None:
    """The permanents an instruction acts on as a group it names (not targets), as it is applied (608.2h), or
    None when it names no group: "each creature with flying your opponents control" in ``~ deals 1 damage to
    each creature with flying your opponents control. Tap those creatures.``"""
    if before.targeted or not before.who:
        return None
    if before.who in ("each creature", "each other creature"):
        itself = item.subject.ref if item.subject is not None and "other" in before.who else None
        return [p for p in g.s.battlefield if p.is_a("creature") and p.oid != itself]
    if read_group(before.who) is None:
        return None
    return members(g.s, before.who, item.controller, item)


def _those_of_group(
    g: Game, item: StackItem, instr: Instruction, before: Instruction, acted: list[Permanent] | None
) -> None:
    """``Tap those creatures`` after an instruction that acted on a group: each permanent of that group as the
    instruction before determined it (608.2h) while this same spell or ability resolves (its instructions
    followed in order, 608.2c), if it is still on the battlefield."""
    group = acted if acted is not None else _group_of(g, item, before) or []
    group = [p for p in group if p in g.s.battlefield]
    if not group:
        g.emit(f"{item.name}: none of those creatures is on the battlefield to {instr.verb}", "resolve.instructions")
    for perm in group:
        _on_permanent(g, item, instr, perm, _n(item, instr.amount))


def _marked_dying(g: Game, item: StackItem, instr: Instruction, target: Target | None) -> None:
    """Damage of a spell or ability that says "If a creature dealt damage this way would die this turn, exile it
    instead": dealt, then each creature it was dealt to is exiled instead if it would die this turn (614.1a)."""
    s = g.s

    def marks(p: Permanent) -> tuple:
        return (p.damage, p.deathtouched, p.counters.get("-1/-1", 0))

    before = {p.oid: marks(p) for p in s.battlefield if p.is_a("creature")}
    execute(g, item, replace(instr, extra=tuple(e for e in instr.extra if e != DIES_EXILED)), target)
    hit = [p for p in s.battlefield if p.oid in before and marks(p) != before[p.oid]]
    s.exile_if_dies = (*s.exile_if_dies, *((p.oid, item.name) for p in hit))
    if hit:
        g.emit(
            f"{item.name}: if {', '.join(p.name for p in hit)} would die this turn, "
            f"{'it is' if len(hit) == 1 else 'they are'} exiled instead",
            "resolve.instructions",
            "replace.instead",
        )


def _investigate(g: Game, item: StackItem, n: int) -> None:
    """Investigate: create a colorless Clue artifact token with "{2}, Sacrifice this artifact: Draw a card."
    (701.16a; 111.10f), once for each time it says."""
    s, me = g.s, item.controller
    full = "Clue Token" if s.follows("token_named_token") else "Clue"
    d = token_definition(full, None, None, "", (), ("activated", *CLUE_ABILITY), ("artifact",))
    s.cards.setdefault(full.lower(), d)
    for _ in range(n):
        perm = Permanent(s.oid(), unique_name(g, full), me, me, d, sick=True, token=True)
        g.emit(
            f"{item.name}: {me} investigates, creating {perm.name}, a colorless Clue artifact token with "
            '"{2}, Sacrifice this artifact: Draw a card."',
            "resolve.instructions",
            "effect.investigate",
            "token.create",
        )
        enter(g, perm)


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
        destroy(g, perm, item.name, "resolve.instructions", regenerable=CANT_REGENERATE not in instr.extra)
    elif verb == "exile" and instr.extra:  # "until ~ leaves the battlefield" (610.3)
        source = s.permanent(item.subject.ref) if item.subject is not None else None  # type: ignore[arg-type]
        if source is None:
            g.emit(
                f"{item.source} has already left the battlefield: {item.name} does not exile {perm.name}",
                "resolve.instructions",
                "effect.exile_until",
            )
            return
        g.emit(
            f"{item.name} exiles {perm.name} until {source.name} leaves the battlefield",
            "resolve.instructions",
            "effect.exile",
            "effect.exile_until",
        )
        if leave_battlefield(g, perm, "exile") == "exile":
            s.exiled_until.append((source.oid, s.exile[perm.owner][-1].oid, perm.owner))
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
        had = perm.counters.get(kind, 0)
        perm.counters[kind] = had + n
        level = relevel(perm, had) if kind == "level" else None  # a leveler's level symbol (711.2)
        pt = "/" in kind  # a +1/+1 or -1/-1 counter changes power and toughness (122.1a); a charge counter not
        g.emit(
            f"{item.name} puts {n} {kind} counter{'s' if n != 1 else ''} on {perm.name}"
            + (f" (now {s.power(perm)}/{s.toughness(perm)})" if pt else f" ({perm.counters[kind]} in all)"),
            "resolve.instructions",
            "counter.put",
            *(("counter.pt",) if pt else ()),
            *(("effect.support",) if instr.extra[1:2] == (SUPPORT,) else ()),
        )
        if level is not None:
            gives = ", ".join(sorted(level.card.keywords - (perm.card.leveler or perm.card).keywords))
            g.emit(
                f"{perm.name} has {perm.counters[kind]} level counters ({level.symbol}): it has base power and "
                f"toughness {level.card.power}/{level.card.toughness}" + (f" and {gives}" if gives else ""),
                "card.level",
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
    elif verb == "skip_untap":
        s.skip_untap[perm.oid] = item.name
        g.emit(
            f"{perm.name} doesn't untap during {perm.controller}'s next untap step",
            "resolve.instructions",
            "turn.untap_kept",
        )
    elif verb == "control":
        s.controls.append(Control(perm.oid, item.controller, s.oid(), item.name, bool(instr.extra)))
        g.emit(
            f"{item.name}: {item.controller} gains control of {perm.name}"
            + (" until end of turn" if instr.extra else ""),
            "resolve.instructions",
            "effect.control",
        )
        apply_control(g)
    elif verb == "monstrosity":  # 701.37a: if it isn't monstrous, N +1/+1 counters and it becomes monstrous
        if "monstrous" in perm.designations:
            g.emit(f"{perm.name} is already monstrous: {item.name} does nothing", "effect.monstrosity")
            return
        perm.counters["+1/+1"] = perm.counters.get("+1/+1", 0) + n
        perm.designations += ("monstrous",)
        g.emit(
            f"{item.name}: monstrosity {n}: {n} +1/+1 counter{'s' if n != 1 else ''} are put on {perm.name} (now "
            f"{s.power(perm)}/{s.toughness(perm)}) and it becomes monstrous",
            "resolve.instructions",
            "effect.monstrosity",
            "counter.put",
        )
        fire(g, "monstrous", perm)
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
    elif verb == "transform":
        transform_by(g, item, perm)
    elif verb == "become":
        become(g, item, perm, instr.extra)
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


def _from_graveyard(g: Game, item: StackItem, instr: Instruction, target: Target | None) -> None:
    """``Return target creature card from your graveyard to your hand`` (or onto the battlefield, under its
    owner's control: the graveyard is the spell's controller's)."""
    s = g.s
    owner = next((p for p, cards in s.graveyard.items() for c in cards if target and c.oid == target.ref), None)
    if target is None or owner is None:
        _gone(g, item, target)
        return
    card = next(c for c in s.graveyard[owner] if c.oid == target.ref)
    s.graveyard[owner].remove(card)
    if instr.extra[0] == "hand":
        s.hand.setdefault(owner, []).append(card)
        g.emit(f"{item.name} returns {card.name} from {owner}'s graveyard to {owner}'s hand", "resolve.instructions")
        return
    d = s.definition(card.name)
    assert d is not None  # a legal target's card type is known
    controller = item.controller if instr.extra[1:] == ("yours",) else owner  # "under your control"
    how = "puts" if controller != owner or instr.extra[1:] else "returns"
    g.emit(
        f"{item.name} {how} {card.name} from {owner}'s graveyard {'onto' if how == 'puts' else 'to'} the battlefield "
        f"under {controller}'s control",
        "resolve.instructions",
        "zone.new_object",
    )
    enter(g, Permanent(s.oid(), card.name, owner, controller, d, sick=True))


def _bounce_found(g: Game, item: StackItem, target: Target) -> None:
    """``When ~ dies, return it to its owner's hand`` (``is put into a graveyard from the battlefield``): the
    trigger finds the card its source became in the graveyard (400.7e) and returns that card to its owner's
    hand, if it is still there; a token has ceased to exist (111.8)."""
    s = g.s
    owner = next((p for p, cards in s.graveyard.items() for c in cards if c.oid == target.ref), None)
    if owner is None:
        if target.kind == "token":
            g.emit(
                f"{target.name} was a token: it can't come back; {item.name} does nothing",
                "resolve.instructions",
                "token.cant_return",
            )
        else:
            g.emit(
                f"{target.name} is no longer in the graveyard: {item.name} does nothing",
                "resolve.instructions",
                "zone.new_object",
            )
        return
    card = next(c for c in s.graveyard[owner] if c.oid == target.ref)
    s.graveyard[owner].remove(card)
    s.hand.setdefault(owner, []).append(card)
    g.emit(
        f"{item.name} finds {card.name} in {owner}'s graveyard, where it was put, and returns it to {owner}'s hand",
        "resolve.instructions",
        "zone.trigger_finds",
    )


def _gone(g: Game, item: StackItem, target: Target | None) -> None:
    """An earlier instruction of the same spell moved the target: what is there now is a new object."""
    g.emit(
        f"{target.name if target else 'Its object'} has already left its zone: {item.name} does nothing more to it",
        "resolve.instructions",
        "zone.new_object",
    )
