"""The Chain (326-336) and playing cards and abilities (346-394): Finalize, Execute, Pass, Resolve.

Cards go onto the Chain as Pending Items and are finalized at once; units and gear resolve when
finalized (333.1.c); spells and abilities linger until every player has passed Priority in turn, then
the newest resolves (last in, first out). Abilities that add resources resolve as they are finalized
(388.2, 416.2). A triggered ability chooses its targets as it is finalized (390.1).
"""

from __future__ import annotations

from engine.riftbound import board, costs, effects, instructions, legality, replacement, showdown, triggers
from engine.riftbound.effects import Cost
from engine.riftbound.legality import Activating, Chosen, Playing, RuneUse
from engine.riftbound.state import Awaiting, Card, ChainItem, Game, Rune


def _after_added(g: Game) -> None:
    s = g.s
    s.passed = []
    if s.showdown is not None:
        s.showdown.passes = 0


def play(g: Game, plan: Playing) -> None:
    """Play a card (346-356) as :func:`engine.riftbound.legality.play` allowed it."""
    s = g.s
    card, player, hidden, chosen = plan.card, plan.player, plan.hidden, plan.targets
    kind = card.defn.type
    text = card.defn.effect if kind == "spell" else ""
    keys = plan.keys
    item = ChainItem(
        card.name,
        player,
        kind,
        effect=text,
        card=card.key,
        targets=chosen,
        place=plan.place,
        hidden_at=card.at if hidden else None,
        uid=s.new_uid(),
        slots=plan.slots,
        paid=plan.paid,
    )
    if chosen and any(dict(i.aim.filters).get("total_might") is not None for i in effects.chosen(effects.parse(text))):
        first = s.cards.get(chosen[0][1])
        if first is not None:
            item.noted = (("group_at", first.location or ""),)  # the battlefield of a group of targets (352.11.b)
    existed = bool(s.chain)
    if hidden:
        assert card.at is not None
        s.bf(card.at).facedown = None
    origin = card.zone
    card.zone, card.at = "chain", None
    s.chain.append(item)
    how = (
        f"from facedown at {item.hidden_at} (for free)"
        if hidden
        else "from their Champion Zone"
        if origin == "champion"
        else "from hand"
    )
    if kind != "spell":
        keys = (*keys, "play.unit_location")
    g.emit(
        f"{player} plays {card.name} {how}"
        + (f" targeting {', '.join(_label(g, t) for t in chosen)}" if chosen else "")
        + (f" paying {', '.join(plan.paid)}" if plan.paid else "")
        + f": it goes onto the {'existing ' if existed else ''}Chain as a Pending Item and the turn is Closed",
        *keys,
        "play.discretionary",
        "play.closes_state",
        "play.becomes_pending",
        "chain.existing_chain" if existed else "chain.created",
        *(("hide.play_opens_chain", "hide.later_turn_for_free") if hidden else ()),
        *(("play.optional_cost_chosen",) if plan.paid else ()),
    )
    if kind == "spell" and s.next_spell:  # "the next spell you play this turn ...": this one
        board.next_spell_played(g, item)
    if (plan.cost_keys and not hidden) or (plan.payment is not None and not plan.payment.free and plan.payment.cost):
        g.emit(
            f"The total cost of {card.name} is {plan.payment.text() if plan.payment else '[0]'}",
            "play.total_cost",
            *plan.cost_keys,
        )
    if plan.payment is not None:
        board.pay(g, plan.payment, card.name)
    card.paid = plan.paid
    if "additional cost" in plan.paid and card.defn.optional_cost is not None:
        _pay_optional_extra(g, card, player, plan.using)
    if plan.kill_for_cost is not None:
        unit = s.cards[plan.kill_for_cost]
        g.emit(
            f"{player} kills {unit.name} to pay {card.name}'s additional cost",
            "cost.mandatory_additional",
            "play.pay_costs",
        )
        died = board.kill(g, unit, "cost.mandatory_additional")
        if not died:
            g.emit(
                f"{unit.name}'s death was replaced, but the cost is paid: {player} made the decision and took the action",
                "cost.replaced_still_paid",
            )
    _after_added(g)
    finalize(g, item)
    g.cleanup()
    if kind != "spell":
        after_removed(g)


def activate(g: Game, plan: Activating) -> None:
    """Activate an ability (370-374) as :func:`engine.riftbound.legality.activate` allowed it."""
    s = g.s
    obj, player, chosen = plan.obj, plan.player, plan.targets
    ability = plan.ability
    assert ability is not None
    if ability.exhausts:
        obj.exhausted = True
    for extra in ability.cost.extra:
        if extra.verb == "recycle_trash":
            board.recycle_from_trash(g, player, extra.amount, "recycle.cost_must_complete")
        elif extra.verb == "discard":
            board.discard(g, player, extra.amount, "discard.cost")
        elif extra.verb == "recycle_rune":
            board.recycle_rune(g, player, "recycle.cost_must_complete")
        elif extra.verb == "kill" and extra.target is not None and extra.target.kind == "me":
            board.kill(g, obj, "cost.kill_this")
        elif extra.verb == "spend_buff":
            s.spend_buff(obj)
            g.emit(f"{player} spends {obj.name}'s buff to pay the cost", "buff.spend")
    if plan.payment is not None:
        board.pay(g, plan.payment, f"{obj.name}'s ability")
    label = (
        f"{obj.name} (equip)"
        if ability.effect == "attach this to a unit you control" and obj.defn.equip
        else f"{obj.name} (ability)"
    )
    item = ChainItem(
        label,
        player,
        "ability",
        effect=ability.effect,
        source=obj.key,
        targets=chosen,
        place=plan.place,
        uid=s.new_uid(),
        slots=plan.slots,
    )
    if ability.adds:
        g.emit(
            f"{player} activates {obj.name}'s ability"
            + (" (exhausting it)" if ability.exhausts else "")
            + ": an ability that adds resources resolves as it is finalized, without waiting (Priority does not pass)",
            *plan.keys,
            "add.resolves_immediately",
            "add.no_priority_pass",
        )
        instructions.execute(g, item)
        g.cleanup()
        return
    existed = bool(s.chain)
    s.chain.append(item)
    g.emit(
        f"{player} activates {obj.name}'s ability"
        + (" (exhausting it)" if ability.exhausts else "")
        + (f" targeting {', '.join(_label(g, t) for t in chosen)}" if chosen else "")
        + ": it goes onto the Chain as a Pending Item and the turn is Closed",
        *plan.keys,
        "ability.activated_uses_chain",
        "chain.existing_chain" if existed else "chain.created",
    )
    _after_added(g)
    finalize(g, item)
    g.cleanup()


def use_runes(g: Game, plan: RuneUse) -> None:
    """A rune's abilities (160.2): ``[E]: Add [1]`` and ``Recycle this: Add [C]``, Reactions that add at once."""
    s = g.s
    runes = s.runes[plan.player]
    assert runes is not None
    pool = s.pool[plan.player]
    if plan.verb == "exhaust":
        for i in plan.runes:
            runes[i] = Rune(runes[i].domain, True)
        pool.energy += len(plan.runes)
        g.emit(
            f"{plan.player} exhausts {len(plan.runes)} rune(s): each adds [1] to their Rune Pool ({pool.text()})",
            "rune.exhaust_energy",
            "add.to_pool",
            "add.resolves_immediately",
        )
        return
    names = []
    for i in sorted(plan.runes, reverse=True):
        rune = runes.pop(i)
        pool.power.append(rune.domain or "any")
        names.append(f"{'an exhausted' if rune.exhausted else 'a ready'} {rune.domain or ''} rune".replace("  ", " "))
    if s.rune_deck[plan.player] is not None:
        s.rune_deck[plan.player] = (s.rune_deck[plan.player] or 0) + len(plan.runes)
    g.emit(
        f"{plan.player} recycles {', '.join(names)} to its Rune Deck: each adds one power of its domain to their Rune "
        f"Pool ({pool.text()}); an exhausted rune can be recycled",
        "rune.recycle_power",
        "recycle.runes",
        "add.to_pool",
        "add.resolves_immediately",
    )
    triggers.rune_not_card(g, plan.player)


def _label(g: Game, target: Chosen) -> str:
    kind, key, _ = target
    if kind == "spell":
        return next((i.label for i in g.s.chain if str(i.uid) == key), key)
    if kind == "battlefield":
        return g.s.bf(key).name
    return g.s.cards[key].name


def finalize(g: Game, item: ChainItem, *keys: str) -> None:
    """Step 1: Finalize. Units and gear leave the chain and resolve at once; spells and abilities linger."""
    s = g.s
    item.pending = False
    if item.kind in ("unit", "gear"):
        assert item.card is not None and item.place is not None
        s.chain.remove(item)
        card = s.cards[item.card]
        card.controller = player = item.controller
        board.card_epoch_bump(g, card)
        if item.kind == "unit":
            board.set_location(card, item.place)
            accelerated = "Accelerate" in item.paid
            ready_by = _enters_ready(g, card, player)
            enters_ready = accelerated or "ready" in item.paid or bool(ready_by)
            card.exhausted = not enters_ready
            why = ("accelerate.enters_ready",) if accelerated else ready_by
            g.emit(
                f"{card.name} is finalized and resolves at once: it leaves the Chain and enters the board "
                f"{'exhausted' if card.exhausted else 'ready'} at {item.place} (no window for reactions)",
                *keys,
                "chain.units_resolve_when_finalized",
                "play.permanent_leaves_chain",
                *(("play.unit_enters_exhausted",) if card.exhausted else ()),
                *why,
            )
            if item.place != "base":
                board.contest(g, s.bf(item.place), player)
        else:
            board.set_location(card, item.place)
            card.exhausted = any(p[0] == "enters_exhausted" for p in card.defn.passives)
            where = f"{player}'s base" if item.place == "base" else item.place
            g.emit(
                f"{card.name} is finalized and resolves at once: it enters the board "
                f"{'exhausted (its own passive ability)' if card.exhausted else 'ready'} at {where}",
                *keys,
                "chain.units_resolve_when_finalized",
                *(("passive.statement",) if card.exhausted else ("play.gear_enters_ready",)),
                *(("gear.recalled_from_battlefield",) if item.place != "base" else ()),
            )
        if item.hidden_at is not None:
            g.emit(
                f"{card.name} was played from facedown at {item.hidden_at}: only the choices it makes as it is played "
                "are limited to that battlefield; its other abilities work as normal, wherever they apply",
                "hide.other_abilities_normal",
            )
        _played(g, card, item)
        return
    if (
        (item.kind == "trigger" or (item.kind == "spell" and item.origin))
        and not item.targets
        and effects.target_count(item.effect)
    ):
        # a triggered ability, or a spell an effect plays (pending until what resolves is done, 351.3, 352.4)
        if not choose_trigger_targets(g, item, keys):
            return
    if item.kind == "trigger" and item.taken and not instructions.pay_trigger_cost(g, item):
        s.chain.remove(item)  # v1.3: a cost within its instructions it cannot pay: not finalized (383.3.b.1)
        g.emit(
            f"{item.controller} cannot pay the cost of {item.label}: it is removed from the Chain and never becomes a "
            "Chain Item (it is not countered)",
            "trigger.cost_when_finalized",
            "trigger.not_countered",
        )
        return
    what = "spell" if item.kind == "spell" else "ability"
    g.emit(
        f"{item.label} is finalized: the {what} stays on the Chain",
        *keys,
        "chain.finalize",
        *(("play.spell_lingers",) if item.kind == "spell" else ()),
    )
    if item.kind == "spell" and item.targets:  # "when a player chooses a friendly unit here with a spell"
        chosen = tuple(s.cards[key] for kind, key, _ in item.targets if kind == "unit")
        if chosen:
            triggers.fire(g, "chosen", player=item.controller, subjects=chosen)
    g.s.priority_to_newest = "chain.newest_controller_priority"


def _pay_optional_extra(g: Game, card: Card, player: str, using: str | None) -> None:
    """The instructions of an optional additional cost its player chose to pay (356.2.b): a buff spent, a unit
    exhausted, cards discarded."""
    assert card.defn.optional_cost is not None
    for ins in card.defn.optional_cost.extra:
        if ins.verb == "discard":
            board.discard(g, player, ins.amount, "play.optional_cost_chosen", "play.pay_costs")
            continue
        assert using is not None
        unit = g.s.cards[using.lower()]
        if ins.verb == "spend_buff":
            g.s.spend_buff(unit)
            g.emit(
                f"{player} spends {unit.name}'s buff to pay {card.name}'s additional cost",
                "buff.spend",
                "play.pay_costs",
            )
        else:
            unit.exhausted = True
            g.emit(
                f"{player} exhausts {unit.name} to pay {card.name}'s additional cost",
                "exhaust.action",
                "play.pay_costs",
            )


def _enters_ready(g: Game, card: Card, player: str) -> tuple[str, ...]:
    """The citation keys of the passive abilities that have a unit enter ready: its own ("I enter ready", or
    "If an opponent controls a battlefield, I enter ready", checked as it enters, 364.3.a) or another friendly
    permanent's ("Other friendly units enter ready"); () when none does."""
    s = g.s
    if s.next_ready.get(player):  # "the next unit you play this turn enters ready": a delayed passive (383.4)
        if s.next_ready[player] < 0:  # "units you play this turn enter ready": every one
            g.emit(f"{card.name}: units {player} plays this turn enter ready", "delayed.passive")
            return ("delayed.passive",)
        s.next_ready[player] -= 1
        g.emit(f"{card.name} is the next unit {player} plays this turn: it enters ready", "delayed.passive")
        return ("delayed.passive",)
    for p in card.defn.passives:
        if p[0] != "enters_ready":
            continue
        if len(p) == 1:
            return ("passive.statement",)
        ok, why = legality.condition_holds(s, player, card, None, p[1])
        g.emit(
            f'{card.name}: "if {p[1].text}, I enter ready": {why}: it enters {"ready" if ok else "exhausted"}',
            "passive.conditional",
        )
        if ok:
            return ("passive.conditional",)
    for other in s.cards.values():
        if (
            other is not card
            and other.on_board
            and other.attached_to is None
            and other.controller == player
            and any(p[0] == "others_enter_ready" for p in other.defn.passives)
        ):
            g.emit(f"{other.name}'s passive ability: other friendly units enter ready", "passive.statement")
            return ("passive.statement",)
    return ()


def _played(g: Game, card: Card, item: ChainItem) -> None:
    """A card (or token) was played (347.1, 406.4.a): record it for Legion; its play effects and the abilities
    that watch for plays trigger; Vision looks at the top card."""
    s = g.s
    is_card = not card.defn.token
    s.played[item.controller].append((card.key, is_card))
    nth = s.played_cards(item.controller)
    before = len(s.chain)
    triggers.fire(g, "play", subject=card, player=item.controller, what="facedown" if item.hidden_at else "")
    triggers.fire(
        g,
        "played",
        subject=card,
        player=item.controller,
        nth=nth if is_card else 0,
        what="facedown" if item.hidden_at else "",
    )
    for new in s.chain[before:]:
        if new.source == card.key and item.hidden_at is not None:
            new.hidden_at = (
                item.hidden_at
            )  # the play effect of a hidden permanent chooses at its battlefield (737.1.d.2)
    if s.has(card, "Quick-Draw") and not card.defn.has("Quick-Draw"):
        # Quick-Draw given by another object: its "When you play this, attach it to a unit you control" (745.1.d).
        board.add_trigger(
            g,
            card,
            "play",
            "attach this to a unit you control",
            item.controller,
            "quick_draw.reaction",
            "trigger.play_effect",
        )
    if s.has(card, "Vision"):
        vision(g, card, item.controller)


VISION = "Look at the top card of your Main Deck. You may recycle it."


def vision(g: Game, card: Card, player: str) -> None:
    """Vision: a triggered ability, "When this is played, look at the top card of your Main Deck. You may recycle
    it." (743.1.b), triggered by the permanent entering the board (743.1.c); each instance separately (743.2)."""
    board.add_trigger(g, card, "vision", VISION, player, "vision.look", "trigger.vision")


def choose_trigger_targets(g: Game, item: ChainItem, keys: tuple[str, ...]) -> bool:
    """A triggered ability's controller chooses its targets as it is put on the Chain (390.1); with no valid
    choice for one of them it is removed (390.3). False when it was removed. With more than one valid
    choice the rules wait for ``P chooses X[, Y]`` (:class:`engine.riftbound.replacement.Pause`)."""
    s = g.s
    spell = item.kind == "spell"  # a spell an effect plays: its targets are chosen now too (352.4, 352.7)
    k_choose, k_must = (
        ("play.target_valid", "play.targets_required") if spell else ("trigger.choose_targets", "trigger.must_choose")
    )
    source = s.cards.get(item.source or "") if item.source else None
    options = legality.target_options(s, item, source)
    # v1.3: a "you may choose ..." its controller chose to place on the Chain chooses one (383.3.a)
    need = [
        ins.aim.count if not ins.aim.upto else 1 if item.taken and triggers.optional_choice(ins) else 0
        for ins, _ in options
    ]
    most = [ins.aim.most for ins, _ in options]
    if any(len(o) < n for (_, o), n in zip(options, need)):
        s.chain.remove(item)
        if spell:
            _not_played(g, item, "has no valid choice for its target(s)", *keys, "play.targets_required")
            return False
        g.emit(
            f"{item.label} has no valid choice for its target(s): it is removed from the Chain and never becomes a "
            "Chain Item (it is not countered)",
            *keys,
            "trigger.removed_no_options",
            "trigger.not_countered",
        )
        return False
    upto = ("play.up_to_zero",) if any(ins.aim.upto and not n for (ins, _), n in zip(options, need)) else ()
    if any(ins.aim.other for ins, _ in options) and source is not None:
        upto = (*upto, "play.target_restrictions")
        g.emit(
            f'{item.label} chooses "another" unit: {source.name} itself is not a valid choice',
            "play.target_restrictions",
        )
    if item.hidden_at:
        upto = (*upto, "hide.targets_at_that_battlefield")
        if any(ins.aim.where == "at another location" for ins, _ in options):
            g.emit(
                f"{item.label} comes from a card played from facedown at {item.hidden_at}: its choices are limited to "
                'that battlefield unless its own restriction cannot be met there; "at another location" cannot, so '
                "it chooses among every location",
                "hide.targets_at_that_battlefield",
            )
    forced = all((len(o) == n and (n == m)) for (_, o), n, m in zip(options, need, most))
    if forced:
        names: tuple[str, ...] = tuple(name for _, o in options for name in o)
        g.emit(
            f"{item.controller} must choose the target(s) of {item.label} as it is put on the Chain: "
            f"{', '.join(names)}, the only valid choice",
            *keys,
            k_choose,
            k_must,
        )
    elif all(not o for _, o in options):
        names = ()
        g.emit(
            f"{item.label} chooses up to {', '.join(str(m) for m in most)} target(s) and none is available: it goes on "
            "with none",
            *keys,
            k_choose,
            "play.up_to_zero" if spell else "trigger.up_to_none",
        )
    else:
        answer = g.next_answer()
        if answer is None:
            flat = tuple(dict.fromkeys(n for _, o in options for n in o))
            example = ", ".join(o[0] for _, o in options if o)
            raise replacement.Pause(
                Awaiting(
                    "targets",
                    item.controller,
                    flat,
                    about=item.label,
                    item=item.uid,
                    choices=tuple(tuple(o) for _, o in options),
                    least=tuple(need),
                    options_most=tuple(most),
                ),
                f"{item.label} goes onto the Chain: {item.controller}, its controller, chooses its target(s) now "
                f'(valid: {"; ".join(", ".join(o) or "none" for _, o in options)}; "{item.controller} chooses {example}")',
                (*keys, k_choose, k_must, *upto, "priority.limited_actions_regardless"),
            )
        names = answer
        g.emit(
            f"{item.controller} chooses {', '.join(names) or 'nothing'} as the target(s) of {item.label}",
            k_choose,
            *upto,
            "priority.limited_actions_regardless",
        )
    item.targets, item.slots = legality.chosen_targets(s, item, names, source)
    deflect = legality.deflect_cost(s, item.controller, item.targets)
    if deflect:
        cost = Cost(0, ("any",) * deflect)
        g.emit(
            f"{item.label} chooses an opponent's object with Deflect: it costs {cost.text()} more, a mandatory "
            "additional cost",
            "deflect.cost",
            "deflect.mandatory",
        )
        payment = costs.plan(s, item.controller, cost, legality.adders(s, item.controller))
        if spell:  # a spell's Deflect cost is mandatory: paid if it can be, else the spell is not played (353.2.a.1)
            if payment is None:
                s.chain.remove(item)
                _not_played(g, item, f"cannot be paid for ({cost.text()}, Deflect)", "cost.mandatory_additional")
                return False
            board.pay(g, payment, f"{item.label} (Deflect)")
            return True
        yes = payment is not None and instructions.ask(
            g, item.controller, f"pay {cost.text()} (Deflect) for {item.label}, or decline it"
        )
        if not yes or payment is None:
            s.chain.remove(item)
            g.emit(
                f"{item.controller} {'cannot pay' if payment is None else 'declines to pay'} the Deflect cost: "
                f"{item.label} is removed from the Chain and never becomes a Chain Item (it is not countered)",
                "trigger.decline_cost",
                "trigger.not_countered",
            )
            return False
        board.pay(g, payment, f"{item.label} (Deflect)")
    return True


def _not_played(g: Game, item: ChainItem, why: str, *keys: str) -> None:
    """A spell an effect plays that cannot be finished is removed from the Chain and not played: back where it came
    from (its hand), or left in banishment when it was banished to be played (the Origins FAQ's errata)."""
    s = g.s
    card = s.cards[item.card] if item.card else None
    where = item.origin or "hand"
    if card is not None:
        card.zone = where
        board.card_epoch_bump(g, card)
    g.emit(
        f"{item.label} {why}: it is not played; it is removed from the Chain and stays in {card.owner if card else ''}"
        f"'s {where}"
        if where != "banishment"
        else f"{item.label} {why}: it is not played and stays banished",
        *keys,
    )


def finalize_pending(g: Game, *keys: str) -> None:
    s = g.s
    pending = [i for i in s.chain if i.pending]
    if not pending:
        return
    # Triggered at once by several players: the turn player's go on first (376.3.b.1).
    for item in pending:
        if item in s.chain:
            finalize(g, item, *keys, "chain.finalize_in_order")


def give_priority_to_newest(g: Game, key: str = "chain.newest_controller_priority") -> None:
    s = g.s
    if not s.chain:
        return
    newest = s.chain[-1]
    s.priority = newest.controller
    s.passed = []
    g.emit(
        f"{newest.controller} controls the newest item on the Chain ({newest.label}): {newest.controller} gains Priority "
        "and becomes the Active Player",
        key,
        "priority.controls_next_item",
    )


def pass_priority(g: Game, player: str) -> None:
    s = g.s
    s.passed.append(player)
    if set(s.passed) >= set(s.players):
        g.emit(
            f"{player} passes Priority; all players have passed without adding to the Chain",
            "chain.pass_to_next",
            "chain.all_passed_resolve",
            *(("focus.retained_on_priority_pass",) if s.focus == player else ()),
        )
        resolve_newest(g)
        return
    nxt = s.next_player(player)
    s.priority = nxt
    g.emit(
        f"{player} passes Priority; {nxt} is next in Turn Order and receives Priority",
        "chain.pass_to_next",
        "chain.not_all_passed",
        "priority.next_in_turn_order",
        "priority.granted_or_taken",
        *(("focus.retained_on_priority_pass",) if s.focus else ()),
    )


def resolve_newest(g: Game) -> None:
    s = g.s
    item = s.chain.pop()
    s.passed = []
    s.priority = None
    g.emit(f"{item.label} resolves", "chain.resolve_newest")
    s.responsible = f"{item.uid}:{item.controller}:{item.kind}"
    during = s.showdown
    instructions.execute(g, item)
    if item.kind == "spell" and item.card is not None:
        card = s.cards[item.card]
        if card.zone == "chain":
            board.leave_board(g, card, "trash")
            g.emit(f"{card.name} goes to {card.owner}'s trash", "play.spell_executes")
        s.played[item.controller].append((card.key, True))
        triggers.fire(
            g,
            "played",
            subject=card,
            player=item.controller,
            nth=s.played_cards(item.controller),
            what="facedown" if item.hidden_at else "",
        )
    g.cleanup()
    s.responsible = ""
    s.watch = []
    after_removed(g, started=s.showdown is not None and s.showdown is not during)


def after_removed(g: Game, started: bool = False) -> None:
    """After an item left the Chain: Priority to the newest item's controller, or the turn is Open again. A
    showdown that began in the cleanup after it (not one in progress as it resolved) keeps its Focus."""
    s = g.s
    if s.winner:
        return
    if s.chain:
        g.s.priority_to_newest = g.s.priority_to_newest or "chain.priority_after_resolve"
        return
    if s.showdown is not None and s.awaiting is None and s.focus is not None and not started:
        g.emit("The Chain is empty: the turn is Open again", "chain.empty_after_resolve", "state.open")
        showdown.chain_emptied(g)
