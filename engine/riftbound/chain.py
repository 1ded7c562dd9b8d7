"""The Chain (326-336) and playing cards and abilities (346-394): Finalize, Execute, Pass, Resolve.

Cards go onto the Chain as Pending Items and are finalized at once; units and gear resolve when
finalized (333.1.c); spells and abilities linger until every player has passed Priority in turn, then
the newest resolves (last in, first out).
"""

from __future__ import annotations

from engine.riftbound import board, effects, legality, replacement, showdown
from engine.riftbound.effects import Instruction
from engine.riftbound.legality import Activating, Chosen, Playing
from engine.riftbound.state import Awaiting, Card, ChainItem, Game


def _after_added(g: Game) -> None:
    s = g.s
    s.passed = []
    if s.showdown is not None:
        s.showdown.passes = 0


def play(g: Game, plan: Playing) -> None:
    """Play a card (346-352) as :func:`engine.riftbound.legality.play` allowed it."""
    s = g.s
    card, player, hidden, chosen = plan.card, plan.player, plan.hidden, plan.targets
    kind = card.defn.type
    text = card.defn.effect if kind == "spell" else ""
    keys = plan.keys
    item = ChainItem(card.name, player, kind, effect=text, card=card.key, targets=chosen, place=plan.place,
                     hidden_at=card.at if hidden else None, uid=s.new_uid())
    existed = bool(s.chain)
    if hidden:
        assert card.at is not None
        s.bf(card.at).facedown = None
    card.zone, card.at = "chain", None
    s.chain.append(item)
    how = f"from facedown at {item.hidden_at}, for free," if hidden else "from hand"
    if kind != "spell":
        keys = (*keys, "play.unit_location")
    g.emit(f"{player} plays {card.name} {how}" + (f" targeting {', '.join(_label(g, t) for t in chosen)}" if chosen else "")
           + f": it goes onto the {'existing ' if existed else ''}Chain as a Pending Item and the turn is Closed",
           *keys, "play.discretionary", "play.closes_state", "play.becomes_pending",
           "chain.existing_chain" if existed else "chain.created",
           *(("hide.play_opens_chain", "hide.later_turn_for_free") if hidden else ()))
    _after_added(g)
    finalize(g, item)
    g.cleanup()
    if kind != "spell":
        after_removed(g)


def activate(g: Game, plan: Activating) -> None:
    """Activate an ability (374) as :func:`engine.riftbound.legality.activate` allowed it."""
    s = g.s
    obj, player, chosen = plan.obj, plan.player, plan.targets
    ability = obj.defn.ability
    assert ability is not None
    if ability.exhausts:
        obj.exhausted = True
    item = ChainItem(f"{obj.name} (ability)", player, "ability", effect=ability.effect, source=obj.key,
                     targets=chosen, place=plan.place, uid=s.new_uid())
    existed = bool(s.chain)
    s.chain.append(item)
    g.emit(f"{player} activates {obj.name}'s ability" + (" (exhausting it)" if ability.exhausts else "")
           + (f" targeting {', '.join(_label(g, t) for t in chosen)}" if chosen else "")
           + ": it goes onto the Chain as a Pending Item and the turn is Closed",
           *plan.keys, "ability.activated_uses_chain", "chain.existing_chain" if existed else "chain.created")
    _after_added(g)
    finalize(g, item)
    g.cleanup()


def _label(g: Game, target: Chosen) -> str:
    kind, key, _ = target
    if kind == "spell":
        return next((i.label for i in g.s.chain if str(i.uid) == key), key)
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
            card.exhausted = not card.has("Accelerate")
            g.emit(f"{card.name} is finalized and resolves at once: it leaves the Chain and enters the board "
                   f"{'exhausted' if card.exhausted else 'ready'} at {item.place} (no window for reactions)",
                   *keys, "chain.units_resolve_when_finalized", "play.permanent_leaves_chain", "play.unit_enters_exhausted")
            if item.place != "base":
                board.contest(g, s.bf(item.place), player)
        else:
            board.set_location(card, "base")
            card.exhausted = False
            g.emit(f"{card.name} is finalized and resolves at once: it enters the board ready at {player}'s base",
                   *keys, "chain.units_resolve_when_finalized", "play.gear_enters_ready")
        if item.hidden_at is not None:
            g.emit(f"{card.name} was played from facedown at {item.hidden_at}: only the choices it makes as it is played "
                   "are limited to that battlefield; its other abilities work as normal, wherever they apply",
                   "hide.other_abilities_normal")
        effect = card.defn.trigger("play")
        if effect is not None:
            board.add_trigger(g, card, "play", effect, player, "trigger.play_effect")
        return
    if item.kind == "trigger" and not item.targets and effects.target_count(item.effect):
        if not choose_trigger_targets(g, item, keys):
            return
    what = "spell" if item.kind == "spell" else "ability"
    g.emit(f"{item.label} is finalized: the {what} stays on the Chain", *keys, "chain.finalize",
           *(("play.spell_lingers",) if item.kind == "spell" else ()))
    g.s.priority_to_newest = "chain.newest_controller_priority"


def choose_trigger_targets(g: Game, item: ChainItem, keys: tuple[str, ...]) -> bool:
    """A triggered ability's controller chooses its targets as it is put on the Chain (390.1); with no valid
    choice for one of them it is removed (390.3). False when it was removed. With more than one valid
    choice the rules wait for ``P chooses X[, Y]`` (:class:`engine.riftbound.replacement.Pause`)."""
    s = g.s
    options = legality.target_options(s, item)
    if any(not o for o in options):
        s.chain.remove(item)
        g.emit(f"{item.label} has no valid choice for its target(s): it is removed from the Chain and never becomes a "
               "Chain Item (it is not countered)", *keys, "trigger.removed_no_options", "trigger.not_countered")
        return False
    if all(len(o) == 1 for o in options):
        names = tuple(o[0] for o in options)
        g.emit(f"{item.controller} must choose the target(s) of {item.label} as it is put on the Chain: "
               f"{', '.join(names)}, the only valid choice", *keys, "trigger.choose_targets", "trigger.must_choose")
    else:
        answer = g.next_answer()
        if answer is None:
            flat = tuple(dict.fromkeys(n for o in options for n in o))
            example = ", ".join(o[0] for o in options)
            raise replacement.Pause(
                Awaiting("targets", item.controller, flat, about=item.label, item=item.uid,
                         choices=tuple(tuple(o) for o in options)),
                f"{item.label} goes onto the Chain: {item.controller}, its controller, chooses its target(s) now "
                f"(valid: {'; '.join(', '.join(o) for o in options)}; \"{item.controller} chooses {example}\")",
                (*keys, "trigger.choose_targets", "trigger.must_choose", "priority.limited_actions_regardless"))
        names = answer
        g.emit(f"{item.controller} chooses {', '.join(names)} as the target(s) of {item.label}",
               "trigger.choose_targets", "priority.limited_actions_regardless")
    item.targets = legality.chosen_targets(s, item, names)
    return True


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
    g.emit(f"{newest.controller} controls the newest item on the Chain ({newest.label}): {newest.controller} gains Priority "
           "and becomes the Active Player", key, "priority.controls_next_item")


def pass_priority(g: Game, player: str) -> None:
    s = g.s
    s.passed.append(player)
    if set(s.passed) >= set(s.players):
        g.emit(f"{player} passes Priority; all players have passed without adding to the Chain",
               "chain.pass_to_next", "chain.all_passed_resolve",
               *(("focus.retained_on_priority_pass",) if s.focus == player else ()))
        resolve_newest(g)
        return
    nxt = s.next_player(player)
    s.priority = nxt
    g.emit(f"{player} passes Priority; {nxt} is next in Turn Order and receives Priority",
           "chain.pass_to_next", "chain.not_all_passed", "priority.next_in_turn_order", "priority.granted_or_taken",
           *(("focus.retained_on_priority_pass",) if s.focus else ()))


def resolve_newest(g: Game) -> None:
    s = g.s
    item = s.chain.pop()
    s.passed = []
    s.priority = None
    g.emit(f"{item.label} resolves", "chain.resolve_newest")
    execute(g, item)
    if item.kind == "spell" and item.card is not None:
        card = s.cards[item.card]
        if card.zone == "chain":
            board.leave_board(g, card, "trash")
            g.emit(f"{card.name} goes to {card.owner}'s trash", "play.spell_executes")
    g.cleanup()
    after_removed(g)


def after_removed(g: Game) -> None:
    """After an item left the Chain: Priority to the newest item's controller, or the turn is Open again."""
    s = g.s
    if s.winner:
        return
    if s.chain:
        g.s.priority_to_newest = g.s.priority_to_newest or "chain.priority_after_resolve"
        return
    if s.showdown is not None and s.awaiting is None and s.focus is not None:
        g.emit("The Chain is empty: the turn is Open again", "chain.empty_after_resolve", "state.open")
        showdown.chain_emptied(g)


def execute(g: Game, item: ChainItem) -> None:
    """Carry out the item's instructions, top to bottom; illegal targets are unaffected (356.3.e)."""
    s = g.s
    base_keys = ("play.spell_executes",) if item.kind == "spell" else ("ability.executes_like_spell",)
    targets = iter(item.targets)
    for ins in effects.parse(item.effect):
        target: Card | ChainItem | None = None
        if ins.target is not None and ins.target.kind == "me":
            source = s.cards.get(item.source or "")
            if source is None or not source.on_board:
                g.emit(f"{item.label}: its source is no longer on the board; the instruction is ignored", *base_keys,
                       "play.illegal_targets_unaffected")
                continue
            target = source
        elif ins.chooses:
            chosen = next(targets, None)
            if chosen is None:
                g.emit(f"{item.label}: no target was chosen for \"{ins.verb}\": the instruction is not executed",
                       *base_keys, "play.no_targets_no_instruction")
                continue
            kind, key, epoch = chosen
            if kind == "spell":
                target = next((i for i in s.chain if str(i.uid) == key), None)
                if target is None:
                    g.emit(f"{item.label}: its target spell is no longer on the Chain and is unaffected",
                           "play.resolves_with_illegal_targets", "play.illegal_targets_unaffected")
                    continue
            else:
                unit = target = s.cards[key]
                problem = None
                if s.epochs.get(key, 0) != epoch:
                    problem = "it changed zones and is a new object"
                else:
                    found = legality.target_problem(item.controller, ins, unit, item.hidden_at)
                    problem = found and found[0]
                if problem:
                    g.emit(f"{unit.name} is no longer a legal target ({problem}): it is unaffected by {item.label}",
                           "play.resolves_with_illegal_targets", "play.illegal_targets_unaffected")
                    continue
        apply_instruction(g, item, ins, target, base_keys)


def apply_instruction(g: Game, item: ChainItem, ins: Instruction, target: Card | ChainItem | None,
                      keys: tuple[str, ...]) -> None:
    """One instruction: ``target`` is the unit it acts on, the chain item for ``counter``, None for
    instructions without one (draw, score)."""
    s = g.s
    me = item.controller
    v = ins.verb
    if v == "draw":
        board.draw(g, me, ins.amount, *keys, "draw.by_effect")
        return
    if v == "score":
        s.points[me] += ins.amount
        g.emit(f"{me} gains {ins.amount} point(s) ({s.points[me]})", *keys, "score.other_sources_unrestricted")
        return
    if v == "counter":
        assert isinstance(target, ChainItem)
        s.chain.remove(target)
        if target.card:
            board.leave_board(g, s.cards[target.card], "trash")
        g.emit(f"{target.label} is countered: it does nothing and goes to the trash (it was not played)", *keys,
               "counter.does_nothing", "counter.not_played")
        return
    assert isinstance(target, Card)
    unit = target
    if v == "deal":
        if replacement.would(g, "damage", unit, f"{unit.name} would be dealt {ins.amount} by {item.label}",
                             "deal.marks_damage"):
            return
        unit.damage += ins.amount
        g.emit(f"{item.label} deals {ins.amount} to {unit.name} (damage {unit.damage})", *keys, "deal.marks_damage")
    elif v == "kill":
        board.kill(g, unit, *keys)
    elif v == "return":
        where = unit.location
        board.leave_board(g, unit, "hand")
        g.emit(f"{unit.name} returns from {where} to its owner's ({unit.owner}'s) hand", *keys)
    elif v == "move":
        dest = ins.place or item.place or "base"
        if (unit.location or "").lower() == dest.lower():
            g.emit(f"{unit.name} is already at {dest}: the move is ignored", *keys, "move.between_locations")
            return
        board.move_units(g, unit.controller or unit.owner, [unit], dest, *keys, "move.by_effect")
    elif v == "recall":
        if unit.location == "base":
            g.emit(f"{unit.name} is already at its base: there is nothing to recall (do as much as you can)", *keys,
                   "recall.to_base", "text.do_what_you_can")
            return
        board.set_location(unit, "base")
        g.emit(f"{unit.name} is recalled to its base (not a move)", *keys, "recall.to_base")
    elif v == "ready":
        if not unit.exhausted:
            g.emit(f"{unit.name} is already ready: nothing additional happens", *keys, "ready.already_ready",
                   "text.do_what_you_can")
            return
        unit.exhausted = False
        g.emit(f"{unit.name} is readied", *keys, "ready.action", "ready.by_effect")
    elif v == "exhaust":
        if unit.exhausted:
            g.emit(f"{unit.name} is already exhausted: nothing additional happens", *keys, "exhaust.already_exhausted",
                   "text.do_what_you_can")
            return
        unit.exhausted = True
        g.emit(f"{unit.name} is exhausted", *keys, "exhaust.action")
    elif v == "stun":
        unit.stunned = True
        g.emit(f"{unit.name} is stunned", *keys, "stun.action")
    elif v == "buff":
        if unit.buffed:
            g.emit(f"{unit.name} already has a buff: it gets no other", *keys, "buff.one_counter")
        else:
            unit.buffed = True
            g.emit(f"{unit.name} is buffed (+1 Might)", *keys, "buff.one_counter", "buff.plus_one_might")
    elif v == "might":
        unit.temp_might += ins.amount
        g.emit(f"{unit.name} gets +{ins.amount} Might this turn", *keys, "might.current")
    elif v == "heal":
        unit.damage = 0
        g.emit(f"{unit.name} is healed", *keys, "heal.clears_damage")
