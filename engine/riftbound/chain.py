"""The Chain (326-336) and playing cards and abilities (346-394): Finalize, Execute, Pass, Resolve.

Cards go onto the Chain as Pending Items and are finalized at once; units and gear resolve when
finalized (333.1.c); spells and abilities linger until every player has passed Priority in turn, then
the newest resolves (last in, first out).
"""

from __future__ import annotations

from engine.core import ScenarioError
from engine.riftbound import board, effects, legality, replacement, showdown
from engine.riftbound.effects import Instruction
from engine.riftbound.state import Card, ChainItem


def _after_added(g) -> None:
    s = g.s
    s.passed = []
    if s.showdown is not None:
        s.showdown.passes = 0


def play(g, player: str, card: Card, place: str | None, targets: list) -> None:
    s = g.s
    hidden = card.zone == "facedown"
    if not hidden and (card.zone != "hand" or card.owner != player):
        where = f"in {card.owner}'s hand" if card.zone == "hand" else f"in the {card.zone}" if card.zone in (
            "trash", "deck", "chain") else f"on the board ({card.location})" if card.on_board else card.zone
        hint = f' (did you mean "{card.name}" in {card.owner}\'s hand?)' if card.zone == "hand" else f" ({card.name} is {where})"
        raise ScenarioError((), f'no card named "{card.name}" in {player}\'s hand{hint}')
    if hidden and card.controller != player:
        raise ScenarioError((), f"{card.name} is hidden at {card.at} by {card.controller}, not by {player}")
    if card.defn.type == "undefined":
        raise ScenarioError((), f'{card.name} has no definition: add it under cards: ({card.name}: {{type: spell, ...}})')
    legality.may_act(g, player)
    keys = legality.card_timing(g, player, card, hidden=hidden)
    if hidden and (card.hidden_turn is None or card.hidden_turn >= s.turn_number):
        g.illegal(f"{card.name} was hidden this turn: it can be played from facedown beginning on the next turn",
                  "hide.timing_and_cost", "hide.later_turn_for_free")
    kind = card.defn.type
    text = card.defn.effect if kind == "spell" else ""
    chosen = _choose_targets(g, player, card.name, text, targets, hidden_at=card.at if hidden else None)
    if kind == "spell":
        place = _move_destination(g, card.name, text, place)
    else:
        place = _permanent_location(g, player, card, place, hidden)
    item = ChainItem(card.name, player, kind, effect=text, card=card.key, targets=tuple(chosen), place=place,
                     hidden_at=card.at if hidden else None, uid=s.new_uid())
    existed = bool(s.chain)
    if hidden:
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
    from engine.riftbound import settle  # noqa: PLC0415

    settle.run(g)
    if kind != "spell":
        after_removed(g)


def activate(g, player: str, obj: Card, place: str | None, targets: list) -> None:
    s = g.s
    ability = obj.defn.ability
    if ability is None:
        raise ScenarioError((), f"{obj.name} has no activated ability (give it one: ability: {{cost: exhaust, effect: ...}})")
    if not obj.on_board or obj.controller != player:
        raise ScenarioError((), f"{obj.name} is not on the board under {player}'s control")
    legality.may_act(g, player)
    keys = legality.ability_timing(g, player, obj)
    chosen = _choose_targets(g, player, f"{obj.name}'s ability", ability.effect, targets, source=obj)
    place = _move_destination(g, f"{obj.name}'s ability", ability.effect, place)
    if ability.exhausts:
        if obj.exhausted:
            g.illegal(f"{obj.name} is exhausted: its cost (exhaust it) cannot be paid", "exhaust.cost_must_complete",
                      "exhaust.not_again")
        obj.exhausted = True
    item = ChainItem(f"{obj.name} (ability)", player, "ability", effect=ability.effect, source=obj.key,
                     targets=tuple(chosen), place=place, uid=s.new_uid())
    existed = bool(s.chain)
    s.chain.append(item)
    g.emit(f"{player} activates {obj.name}'s ability" + (" (exhausting it)" if ability.exhausts else "")
           + (f" targeting {', '.join(_label(g, t) for t in chosen)}" if chosen else "")
           + ": it goes onto the Chain as a Pending Item and the turn is Closed",
           *keys, "ability.activated_uses_chain", "chain.existing_chain" if existed else "chain.created")
    _after_added(g)
    finalize(g, item)
    from engine.riftbound import settle  # noqa: PLC0415

    settle.run(g)


def _label(g, target: tuple[str, str, int]) -> str:
    kind, key, _ = target
    if kind == "spell":
        return next((i.label for i in g.s.chain if str(i.uid) == key), key)
    return g.s.cards[key].name


def _choose_targets(g, player: str, what: str, text: str, targets: list, *, hidden_at: str | None = None,
                    source: Card | None = None) -> list[tuple[str, str, int]]:
    """Match the action's ``targeting`` names to the effect's targets; check each is a valid choice (352.7-352.8)."""
    wanted = [i for i in effects.parse(text) if i.chooses]
    if len(targets) > len(wanted):
        raise ScenarioError((), f"{what} takes {len(wanted)} target(s), {len(targets)} given")
    if len(targets) < len(wanted):
        g.illegal(f"{what} needs {len(wanted)} target(s) and {len(targets)} {'was' if len(targets) == 1 else 'were'} chosen",
                  "play.targets_required")
    out = []
    for ins, name in zip(wanted, targets):
        out.append(_valid_target(g, player, what, ins, name, hidden_at, source))
    return out


def _valid_target(g, player, what, ins: Instruction, name: str, hidden_at, source) -> tuple[str, str, int]:
    s = g.s
    t = ins.target
    if t.kind == "spell":
        item = next((i for i in reversed(s.chain) if i.label.lower() == name.lower() and i.kind == "spell"), None)
        if item is None:
            g.illegal(f"{name} is not a spell on the Chain", "play.target_on_chain", "play.target_valid")
        return ("spell", str(item.uid), 0)
    card = s.cards.get(name.lower())
    if card is None:
        raise ScenarioError((), f'no unit named "{name}"')
    problem = target_problem(g, player, ins, card, hidden_at)
    if problem:
        g.illegal(f"{card.name} is not a valid target for {what}: {problem[0]}", problem[1], "play.target_valid")
    return ("unit", card.key, s.epochs.get(card.key, 0))


def target_problem(g, player: str, ins: Instruction, card: Card, hidden_at: str | None) -> tuple[str, str] | None:
    t = ins.target
    if not (card.is_unit and card.on_board):
        return f"it is not a unit on the board (it is in {card.owner}'s {card.zone})", "play.target_on_board"
    if t.side == "enemy" and card.controller == player:
        return "it is not an enemy unit", "play.target_restrictions"
    if t.side == "friendly" and card.controller != player:
        return "it is not a friendly unit", "play.target_restrictions"
    if t.where == "at a battlefield" and card.zone != "battlefield":
        return "it is not at a battlefield", "play.target_restrictions"
    if hidden_at and (card.location or "").lower() != hidden_at.lower():
        return f"played from facedown, its choices are limited to {hidden_at}", "hide.targets_at_that_battlefield"
    return None


def _move_destination(g, what: str, text: str, place: str | None) -> str | None:
    if not effects.needs_place(text):
        if place is not None and not any(i.verb == "move" for i in effects.parse(text)):
            raise ScenarioError((), f"{what} moves nothing: drop \"to {place}\"")
        return None
    if place is None:
        raise ScenarioError((), f'{what} moves a unit: say where, "... to PLACE"')
    return board.place_name(g, place)


def _permanent_location(g, player: str, card: Card, place: str | None, hidden: bool) -> str:
    s = g.s
    if card.defn.type == "gear":
        return "base"
    if hidden:
        if place is not None and place.lower() != card.at.lower():
            g.illegal(f"{card.name} was hidden at {card.at}: it must be played there", "hide.unit_to_that_battlefield")
        return card.at
    if place is None or place.lower() == "base":
        return "base"
    bf = s.bf(place)
    if bf.controller != player:
        g.illegal(f"{card.name} can be played only to {player}'s base or a battlefield {player} controls; "
                  f"{bf.name} is {'controlled by ' + bf.controller if bf.controller else 'uncontrolled'}",
                  "play.unit_default_locations")
    return bf.name


def finalize(g, item: ChainItem, *keys: str) -> None:
    """Step 1: Finalize. Units and gear leave the chain and resolve at once; spells and abilities linger."""
    s = g.s
    item.pending = False
    if item.kind in ("unit", "gear"):
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
        effect = card.defn.trigger("play")
        if effect is not None:
            board.add_trigger(g, card, "play", effect, player, "trigger.play_effect")
        return
    what = "spell" if item.kind == "spell" else "ability"
    g.emit(f"{item.label} is finalized: the {what} stays on the Chain", *keys, "chain.finalize",
           *(("play.spell_lingers",) if item.kind == "spell" else ()))
    g.s.priority_to_newest = "chain.newest_controller_priority"


def finalize_pending(g, *keys: str) -> None:
    s = g.s
    pending = [i for i in s.chain if i.pending]
    if not pending:
        return
    # Triggered at once by several players: the turn player's go on first (376.3.b.1).
    for item in pending:
        finalize(g, item, *keys, "chain.finalize_in_order")


def give_priority_to_newest(g, key: str = "chain.newest_controller_priority") -> None:
    s = g.s
    if not s.chain:
        return
    newest = s.chain[-1]
    s.priority = newest.controller
    s.passed = []
    g.emit(f"{newest.controller} controls the newest item on the Chain ({newest.label}): {newest.controller} gains Priority "
           "and becomes the Active Player", key, "priority.controls_next_item")


def pass_priority(g, player: str) -> None:
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


def resolve_newest(g) -> None:
    s = g.s
    item = s.chain.pop()
    s.passed = []
    s.priority = None
    g.emit(f"{item.label} resolves", "chain.resolve_newest")
    execute(g, item)
    if item.kind == "spell":
        card = s.cards[item.card]
        if card.zone == "chain":
            board.leave_board(g, card, "trash")
            g.emit(f"{card.name} goes to {card.owner}'s trash", "play.spell_executes")
    from engine.riftbound import settle  # noqa: PLC0415

    settle.run(g)
    after_removed(g)


def after_removed(g) -> None:
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


def execute(g, item: ChainItem) -> None:
    """Carry out the item's instructions, top to bottom; illegal targets are unaffected (356.3.e)."""
    s = g.s
    base_keys = ("play.spell_executes",) if item.kind == "spell" else ("ability.executes_like_spell",)
    targets = iter(item.targets)
    for ins in effects.parse(item.effect):
        target = None
        if ins.target is not None and ins.target.kind == "me":
            target = s.cards.get(item.source)
            if target is None or not target.on_board:
                g.emit(f"{item.label}: its source is no longer on the board; the instruction is ignored", *base_keys,
                       "play.illegal_targets_unaffected")
                continue
        elif ins.chooses:
            kind, key, epoch = next(targets)
            if kind == "spell":
                target = next((i for i in s.chain if str(i.uid) == key), None)
                if target is None:
                    g.emit(f"{item.label}: its target spell is no longer on the Chain and is unaffected",
                           "play.resolves_with_illegal_targets", "play.illegal_targets_unaffected")
                    continue
            else:
                target = s.cards[key]
                problem = None
                if s.epochs.get(key, 0) != epoch:
                    problem = "it changed zones and is a new object"
                else:
                    found = target_problem(g, item.controller, ins, target, item.hidden_at)
                    problem = found and found[0]
                if problem:
                    g.emit(f"{target.name} is no longer a legal target ({problem}): it is unaffected by {item.label}",
                           "play.resolves_with_illegal_targets", "play.illegal_targets_unaffected")
                    continue
        apply_instruction(g, item, ins, target, base_keys)


def apply_instruction(g, item: ChainItem, ins: Instruction, target, keys: tuple[str, ...]) -> None:
    s = g.s
    me = item.controller
    v = ins.verb
    if v == "deal":
        if replacement.would(g, "damage", target, f"{target.name} would be dealt {ins.amount} by {item.label}",
                               "deal.marks_damage"):
            return
        target.damage += ins.amount
        g.emit(f"{item.label} deals {ins.amount} to {target.name} (damage {target.damage})", *keys, "deal.marks_damage")
    elif v == "kill":
        board.kill(g, target, *keys)
    elif v == "return":
        where = target.location
        board.leave_board(g, target, "hand")
        g.emit(f"{target.name} returns from {where} to its owner's ({target.owner}'s) hand", *keys)
    elif v == "move":
        dest = ins.place or item.place
        if (target.location or "").lower() == dest.lower():
            g.emit(f"{target.name} is already at {dest}: the move is ignored", *keys, "move.between_locations")
            return
        board.move_units(g, target.controller, [target], dest, *keys, "move.by_effect")
    elif v == "recall":
        board.set_location(target, "base")
        g.emit(f"{target.name} is recalled to its base (not a move)", *keys, "recall.to_base")
    elif v == "draw":
        board.draw(g, me, ins.amount, *keys, "draw.by_effect")
    elif v == "ready":
        target.exhausted = False
        g.emit(f"{target.name} is readied", *keys, "ready.action", "ready.by_effect")
    elif v == "exhaust":
        target.exhausted = True
        g.emit(f"{target.name} is exhausted", *keys, "exhaust.action")
    elif v == "stun":
        target.stunned = True
        g.emit(f"{target.name} is stunned", *keys, "stun.action")
    elif v == "buff":
        if target.buffed:
            g.emit(f"{target.name} already has a buff: it gets no other", *keys, "buff.one_counter")
        else:
            target.buffed = True
            g.emit(f"{target.name} is buffed (+1 Might)", *keys, "buff.one_counter", "buff.plus_one_might")
    elif v == "might":
        target.temp_might += ins.amount
        g.emit(f"{target.name} gets +{ins.amount} Might this turn", *keys, "might.current")
    elif v == "heal":
        target.damage = 0
        g.emit(f"{target.name} is healed", *keys, "heal.clears_damage")
    elif v == "score":
        s.points[me] += ins.amount
        g.emit(f"{me} gains {ins.amount} point(s) ({s.points[me]})", *keys, "score.other_sources_unrestricted")
    elif v == "counter":
        s.chain.remove(target)
        if target.card:
            card = s.cards[target.card]
            board.leave_board(g, card, "trash")
        g.emit(f"{target.label} is countered: it does nothing and goes to the trash (it was not played)", *keys,
               "counter.does_nothing", "counter.not_played")
