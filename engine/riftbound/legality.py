"""Is this action legal now? (307-313 who may act and when, 143 moves, 346-352 playing and targets, 374
abilities, 443 damage assignment, 737 hiding, 368 ordering replacements.)

Every function here reads the state and changes nothing. A check raises :class:`engine.core.Refusal`
with the citation keys of the rule that forbids the action (:class:`engine.core.ScenarioError` for a
sentence naming what is not there) or returns the plan the steps carry out, with the keys of the rules
that allow it, so a "yes" answer names its rules too. The game checks an action completely before
anything changes, so an illegal action leaves the game untouched.

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
from dataclasses import dataclass

from engine.core import Refusal, ScenarioError
from engine.riftbound import actions as A
from engine.riftbound import effects
from engine.riftbound.effects import Instruction
from engine.riftbound.state import Awaiting, Battlefield, Card, ChainItem, State, might

# A chosen target: ("unit", card key, the card's epoch when chosen) or ("spell", chain uid, 0).
Chosen = tuple[str, str, int]


# -- the plans the steps carry out ---------------------------------------------------------------------
@dataclass(frozen=True)
class Playing:
    player: str
    card: Card
    keys: tuple[str, ...]  # the rules that allow it now
    targets: tuple[Chosen, ...]
    place: str | None  # a unit's location, or a spell's move destination
    hidden: bool  # played from facedown


@dataclass(frozen=True)
class Activating:
    player: str
    obj: Card
    keys: tuple[str, ...]
    targets: tuple[Chosen, ...]
    place: str | None


@dataclass(frozen=True)
class Moving:
    player: str
    units: tuple[Card, ...]
    place: str


@dataclass(frozen=True)
class Hiding:
    player: str
    card: Card
    bf: Battlefield


@dataclass(frozen=True)
class Choosing:
    player: str
    kind: str  # showdown | combat
    place: str  # the battlefield's key


@dataclass(frozen=True)
class Targeting:
    """``P chooses X[, Y]``: the targets of the triggered ability the rules wait for (390.1)."""

    player: str
    item: int  # the pending chain item's uid
    names: tuple[str, ...]


@dataclass(frozen=True)
class Assigning:
    player: str
    damage: tuple[tuple[str, int], ...]  # every unit to assign to, in the order offered, and its damage


@dataclass(frozen=True)
class Ordering:
    player: str
    order: tuple[str, ...]


Plan = Playing | Activating | Moving | Hiding | A.Pass | A.EndTurn | Choosing | Targeting | Assigning | Ordering


def card(s: State, name: str) -> Card:
    found = s.cards.get(name.lower())
    if found is None:
        raise ScenarioError((), f'"{name}" is not a card')
    return found


def check(s: State, a: A.Action) -> Plan:
    """The plan for action ``a``, or :class:`Refusal` (the rules forbid it now)."""
    if s.awaiting is not None and s.awaiting.kind in ("order", "targets") and not isinstance(a, (A.Order, A.Choose)):
        may_act(s, a.player)  # refused: the rules wait for the order or the targets
    if isinstance(a, A.Play):
        return play(s, a)
    if isinstance(a, A.Activate):
        return activate(s, a)
    if isinstance(a, A.Move):
        return standard_move(s, a)
    if isinstance(a, A.Hide):
        return hide(s, a)
    if isinstance(a, A.Pass):
        may_act(s, a.player)
        return a
    if isinstance(a, A.EndTurn):
        return end_turn(s, a)
    if isinstance(a, A.Choose):
        return choose(s, a)
    if isinstance(a, A.Assign):
        return assign(s, a)
    return order(s, a)


# -- who may act, and when ---------------------------------------------------------------------------
def may_act(s: State, player: str) -> None:
    """Discretionary actions need Priority (312.1); nothing is open while the rules wait for a choice."""
    if s.winner:
        raise Refusal(f"the game is over: {s.winner} has won", "victory.wins", "game.continues_until_win")
    if s.awaiting is not None:
        w = s.awaiting
        if w.kind == "order":
            raise Refusal(f"the rules wait for {w.player} to order the replacement effects ({w.about}: "
                          f"{', '.join(w.options)}); no player has Priority", w.reason, "priority.none_no_actions")
        if w.kind == "assign":
            raise Refusal(f"the rules wait for {w.player} to assign {w.amount} combat damage; no player has Priority",
                          "priority.none_no_actions", "combat.assign")
        if w.kind == "targets":
            raise Refusal(f"the rules wait for {w.player} to choose the targets of {w.about} as it is put on the Chain; "
                          "no player has Priority", "trigger.choose_targets", "priority.none_no_actions")
        key = "cleanup.begin_showdown" if w.kind == "showdown" else "cleanup.begin_combat"
        raise Refusal(f"the rules wait for {w.player} to choose where a staged {w.kind} begins ({', '.join(w.options)})",
                      key, "priority.none_no_actions")
    if s.priority != player:
        holder = f"{s.priority} has it" if s.priority else "no player has it"
        focus = ("focus.needs_priority",) if s.focus == player else ()
        raise Refusal(f"{player} does not have Priority ({holder})" + (", and Focus alone allows nothing" if focus else ""),
                      "priority.singular_right", *focus)


def card_timing(s: State, player: str, card: Card, *, hidden: bool = False,
                ability_keywords: frozenset | None = None) -> tuple[str, ...]:
    """Keys of the rules that let ``player`` play ``card`` (or activate an ability with ``ability_keywords``) now."""
    if ability_keywords is None:
        reaction = card.has("Reaction") or hidden
        action = reaction or card.has("Action")
        what, act = card.name, "played"
        any_turn_closed, any_turn_showdown = "timing.reaction_any_turn_closed", "timing.action_any_turn_showdown"
    else:
        reaction = "Reaction" in ability_keywords
        action = reaction or "Action" in ability_keywords
        what, act = f"{card.name}'s ability", "activated"
        any_turn_closed, any_turn_showdown = "timing.reaction_ability", "timing.action_ability"
    extra = ("hide.gains_reaction",) if hidden else ()
    if s.chain:
        if not reaction:
            raise Refusal(f"{what} has no Reaction: in a Closed State only cards and abilities with Reaction can be {act}",
                          "timing.closed_needs_reaction")
        return ("timing.closed_needs_reaction", any_turn_closed, *extra)
    if s.showdown:
        if not action:
            raise Refusal(f"{what} has neither Action nor Reaction: in a Showdown State only those can be {act}",
                          "timing.showdown_needs_action_or_reaction")
        return ("timing.showdown_needs_action_or_reaction", "showdown.focus_holder_may",
                *((any_turn_showdown,) if player != s.turn_player else ()), *extra)
    if player != s.turn_player or s.phase != "main":
        raise Refusal("in a Neutral Open State only the Turn Player plays cards, in their Action Phase",
                      "timing.neutral_open_own_turn", "turn.action_phase_turn_player_only")
    return ("timing.neutral_open_own_turn", *extra)


def ability_timing(s: State, player: str, card: Card) -> tuple[str, ...]:
    """Activated abilities: the controller's turn in an Open State (374) unless Action/Reaction say otherwise."""
    ability = card.defn.ability
    assert ability is not None
    kws = ability.keywords
    keys = card_timing(s, player, card, ability_keywords=kws)
    if not kws & {"Action", "Reaction"}:
        if player != s.turn_player or s.chain:
            raise Refusal(f"{card.name}'s ability can only be activated on its controller's turn in an Open State",
                          "ability.activated_timing")
        if card.is_unit and (s.showdown or s.phase != "main"):
            raise Refusal(f"{card.name}'s ability can only be activated in its controller's Action Phase, not during "
                          "a Showdown", "ability.unit_timing")
        keys = (*keys, "ability.activated_timing")
    return keys


# -- playing cards and activating abilities ----------------------------------------------------------
def play(s: State, a: A.Play) -> Playing:
    player, c = a.player, card(s, a.card)
    hidden = c.zone == "facedown"
    if not hidden and (c.zone != "hand" or c.owner != player):
        where = f"in {c.owner}'s hand" if c.zone == "hand" else f"in the {c.zone}" if c.zone in (
            "trash", "deck", "chain") else f"on the board ({c.location})" if c.on_board else c.zone
        hint = f' (did you mean "{c.name}" in {c.owner}\'s hand?)' if c.zone == "hand" else f" ({c.name} is {where})"
        raise ScenarioError((), f'no card named "{c.name}" in {player}\'s hand{hint}')
    if hidden and c.controller != player:
        raise ScenarioError((), f"{c.name} is hidden at {c.at} by {c.controller}, not by {player}")
    if c.defn.type == "undefined":
        raise ScenarioError((), f'{c.name} has no definition: add it under cards: ({c.name}: {{type: spell, ...}})')
    may_act(s, player)
    keys = card_timing(s, player, c, hidden=hidden)
    if hidden and (c.hidden_turn is None or c.hidden_turn >= s.turn_number):
        raise Refusal(f"{c.name} was hidden this turn: it can be played from facedown beginning on the next turn",
                      "hide.timing_and_cost", "hide.later_turn_for_free")
    text = c.defn.effect if c.defn.type == "spell" else ""
    chosen = targets(s, player, c.name, text, list(a.targets), hidden_at=c.at if hidden else None)
    if c.defn.type == "spell":
        place = move_destination(s, c.name, text, a.place)
    else:
        place = permanent_location(s, player, c, a.place, hidden)
    return Playing(player, c, keys, chosen, place, hidden)


def activate(s: State, a: A.Activate) -> Activating:
    player, obj = a.player, card(s, a.obj)
    ability = obj.defn.ability
    if ability is None:
        raise ScenarioError((), f"{obj.name} has no activated ability (give it one: ability: {{cost: exhaust, effect: ...}})")
    if not obj.on_board or obj.controller != player:
        raise ScenarioError((), f"{obj.name} is not on the board under {player}'s control")
    may_act(s, player)
    keys = ability_timing(s, player, obj)
    chosen = targets(s, player, f"{obj.name}'s ability", ability.effect, list(a.targets), source=obj)
    place = move_destination(s, f"{obj.name}'s ability", ability.effect, a.place)
    if ability.exhausts and obj.exhausted:
        raise Refusal(f"{obj.name} is exhausted: its cost (exhaust it) cannot be paid", "exhaust.cost_must_complete",
                      "exhaust.not_again")
    return Activating(player, obj, keys, chosen, place)


def targets(s: State, player: str, what: str, text: str, names: list, *, hidden_at: str | None = None,
            source: Card | None = None) -> tuple[Chosen, ...]:
    """Match the action's ``targeting`` names to the effect's targets; check each is a valid choice (352.7-352.8)."""
    wanted = [i for i in effects.parse(text) if i.chooses]
    if len(names) > len(wanted):
        raise ScenarioError((), f"{what} takes {len(wanted)} target(s), {len(names)} given")
    if len(names) < len(wanted):
        raise Refusal(f"{what} needs {len(wanted)} target(s) and {len(names)} "
                      f"{'was' if len(names) == 1 else 'were'} chosen", "play.targets_required")
    return tuple(_valid_target(s, player, what, ins, name, hidden_at) for ins, name in zip(wanted, names))


def _valid_target(s: State, player: str, what: str, ins: Instruction, name: str, hidden_at: str | None) -> Chosen:
    if ins.aim.kind == "spell":
        item = next((i for i in reversed(s.chain) if i.label.lower() == name.lower() and i.kind == "spell"), None)
        if item is None:
            raise Refusal(f"{name} is not a spell on the Chain", "play.target_on_chain", "play.target_valid")
        return ("spell", str(item.uid), 0)
    c = s.cards.get(name.lower())
    if c is None:
        raise ScenarioError((), f'no unit named "{name}"')
    problem = target_problem(player, ins, c, hidden_at)
    if problem:
        raise Refusal(f"{c.name} is not a valid target for {what}: {problem[0]}", problem[1], "play.target_valid")
    return ("unit", c.key, s.epochs.get(c.key, 0))


def target_problem(player: str, ins: Instruction, card: Card, hidden_at: str | None) -> tuple[str, str] | None:
    """Why ``card`` is not a valid target of ``ins`` for ``player``: (what, citation key), or None."""
    t = ins.aim
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


def target_options(s: State, item: ChainItem) -> list[list[str]]:
    """For each target a chain item's effect chooses, the names of the valid choices now (352.8), in board order."""
    out = []
    for ins in effects.parse(item.effect):
        if not ins.chooses:
            continue
        if ins.aim.kind == "spell":
            out.append([i.label for i in s.chain if i.kind == "spell" and i.uid != item.uid and not i.pending])
        else:
            out.append([c.name for c in s.cards.values() if target_problem(item.controller, ins, c, item.hidden_at) is None])
    return out


def chosen_targets(s: State, item: ChainItem, names: tuple[str, ...]) -> tuple[Chosen, ...]:
    """The chosen names of a chain item's targets as :data:`Chosen` entries (checked by :func:`choose_targets`)."""
    wanted = [i for i in effects.parse(item.effect) if i.chooses]
    out: list[Chosen] = []
    for ins, name in zip(wanted, names):
        if ins.aim.kind == "spell":
            found = next(i for i in reversed(s.chain) if i.label.lower() == name.lower() and i.kind == "spell")
            out.append(("spell", str(found.uid), 0))
        else:
            c = s.cards[name.lower()]
            out.append(("unit", c.key, s.epochs.get(c.key, 0)))
    return tuple(out)


def place_name(s: State, place: str) -> str:
    return "base" if place.lower() == "base" else s.bf(place).name


def move_destination(s: State, what: str, text: str, place: str | None) -> str | None:
    if not effects.needs_place(text):
        if place is not None and not any(i.verb == "move" for i in effects.parse(text)):
            raise ScenarioError((), f"{what} moves nothing: drop \"to {place}\"")
        return None
    if place is None:
        raise Refusal(f'{what} moves a unit: its destination is chosen as it is played ("... to PLACE")',
                      "play.move_destination")
    return place_name(s, place)


def permanent_location(s: State, player: str, card: Card, place: str | None, hidden: bool) -> str:
    if card.defn.type == "gear":
        return "base"
    if hidden:
        assert card.at is not None
        if place is not None and place.lower() != card.at.lower():
            raise Refusal(f"{card.name} was hidden at {card.at}: it must be played there", "hide.unit_to_that_battlefield")
        return card.at
    if place is None or place.lower() == "base":
        return "base"
    bf = s.bf(place)
    if bf.controller != player:
        raise Refusal(f"{card.name} can be played only to {player}'s base or a battlefield {player} controls; "
                      f"{bf.name} is {'controlled by ' + bf.controller if bf.controller else 'uncontrolled'}",
                      "play.unit_default_locations")
    return bf.name


# -- the Standard Move, hiding, ending the turn ---------------------------------------------------------
def standard_move(s: State, a: A.Move) -> Moving:
    units = []
    for name in a.units:
        u = card(s, name)
        if not (u.is_unit and u.on_board):
            raise ScenarioError((), f"{u.name} is not a unit on the board (it is in the {u.zone})")
        if u.controller != a.player:
            raise ScenarioError((), f"{u.name} is controlled by {u.controller}, not {a.player}")
        units.append(u)
    if a.player != s.turn_player:
        raise Refusal(f"the Standard Move is made in its controller's own Action Phase; it is {s.turn_player}'s turn",
                      "move.action_phase", "action.own_turn")
    may_act(s, a.player)
    if s.chain:
        raise Refusal("the Standard Move cannot be made in a Closed State", "move.not_closed")
    if s.showdown:
        raise Refusal("the Standard Move cannot be made during a Showdown", "move.not_showdown")
    dest = a.place
    for u in units:
        origin = u.location or "base"
        if origin.lower() == dest.lower():
            raise Refusal(f"{u.name} is already at {origin}", "move.between_locations")
        if u.exhausted:
            raise Refusal(f"{u.name} is exhausted: the Standard Move's cost (exhausting it) cannot be paid",
                          "exhaust.cost_must_complete", "move.standard_cost")
        if origin != "base" and dest.lower() != "base" and not u.has("Ganking"):
            raise Refusal(f"{u.name} is at {origin}, a battlefield: without Ganking a unit's Standard Move goes only "
                          "from its base to a battlefield or back", "move.ganking", "move.base_to_battlefield",
                          "move.battlefield_to_base")
    if dest.lower() != "base":
        others = [p for p in s.players_at(dest) if p != a.player]
        if len(others) >= 2:
            raise Refusal(f"{dest} already has units of two other players", "move.not_two_other_players")
    return Moving(a.player, tuple(units), dest)


def hide(s: State, a: A.Hide) -> Hiding:
    c = card(s, a.card)
    if c.zone != "hand" or c.owner != a.player:
        raise ScenarioError((), f'no card named "{c.name}" in {a.player}\'s hand')
    if a.place.lower() == "base":
        raise Refusal("a card is hidden at a battlefield, not at a base", "hide.places_facedown")
    if a.player != s.turn_player:
        raise Refusal(f"a card is hidden on its owner's own turn; it is {s.turn_player}'s turn", "hide.timing_and_cost")
    may_act(s, a.player)
    if s.chain:
        raise Refusal("a card is hidden only in an Open State", "hide.timing_and_cost")
    if not c.has("Hidden"):
        raise Refusal(f"{c.name} has no Hidden keyword: it cannot be hidden", "hide.needs_keyword")
    bf = s.bf(a.place)
    if bf.controller != a.player:
        raise Refusal(f"{a.player} does not control {bf.name}: a card is hidden only at a battlefield you control",
                      "hide.places_facedown", "hide.timing_and_cost")
    if bf.facedown:
        raise Refusal(f"a card is already hidden at {bf.name}", "hide.one_card_per_battlefield")
    runes = s.runes[a.player]
    if runes is not None and runes < 1:
        raise Refusal(f"{a.player} has no rune to recycle for the cost", "recycle.cost_must_complete")
    return Hiding(a.player, c, bf)


def end_turn(s: State, a: A.EndTurn) -> A.EndTurn:
    if a.player != s.turn_player:
        raise Refusal(f"only the Turn Player ({s.turn_player}) ends the turn", "turn.ending_turn", "turn.turn_player")
    may_act(s, a.player)
    if s.chain:
        raise Refusal("the turn cannot end while the Chain has items", "turn.phase_ends")
    if s.showdown:
        raise Refusal("the turn cannot end during a Showdown: it ends when all players pass in sequence",
                      "turn.phase_ends", "showdown.ends_all_passed")
    return a


# -- answering what the rules wait for -----------------------------------------------------------------
def choose(s: State, a: A.Choose) -> Choosing | Targeting:
    w = s.awaiting
    if w is not None and w.kind == "targets":
        return choose_targets(s, a, w)
    if w is not None and w.kind == "order":
        may_act(s, a.player)  # refused: the rules wait for the order of replacement effects
    if w is None or w.kind not in ("showdown", "combat"):
        raise Refusal("nothing is there to choose: a player chooses only when the rules ask",
                      "action.limited_only_when_instructed")
    key = "cleanup.begin_showdown" if w.kind == "showdown" else "cleanup.begin_combat"
    if a.player != w.player:
        raise Refusal(f"the Turn Player ({w.player}) chooses", key)
    if len(a.choices) != 1 or a.place.lower() not in [o.lower() for o in w.options]:
        raise Refusal(f"{', '.join(a.choices)} is not one of the battlefields to choose from ({', '.join(w.options)})", key)
    return Choosing(a.player, w.kind, a.place.lower())


def choose_targets(s: State, a: A.Choose, w: Awaiting) -> Targeting:
    """``P chooses X[, Y]``: a triggered ability's targets, one per target it has, each a valid choice (390.1, 352.8)."""
    if a.player != w.player:
        raise Refusal(f"{w.player} controls {w.about} and chooses its targets, not {a.player}", "trigger.choose_targets")
    if len(a.choices) != len(w.choices):
        raise Refusal(f"{w.about} has {len(w.choices)} target(s) to choose, {len(a.choices)} named "
                      f"(valid: {'; '.join(', '.join(c) for c in w.choices)})", "trigger.choose_targets", "play.targets_required")
    for name, valid in zip(a.choices, w.choices):
        if name.lower() not in [v.lower() for v in valid]:
            raise Refusal(f"{name} is not a valid target for {w.about} (valid: {', '.join(valid)})",
                          "play.target_valid", "trigger.choose_targets")
    return Targeting(a.player, w.item, tuple(a.choices))


def assign(s: State, a: A.Assign) -> Assigning:
    w = s.awaiting
    if w is None or w.kind != "assign":
        raise Refusal("no combat damage is waiting to be assigned", "action.limited_only_when_instructed")
    if a.player != w.player:
        raise Refusal(f"{w.player} assigns damage now, not {a.player}", "combat.assign")
    damage: dict[str, int] = {}
    for name, n in a.damage:
        damage[card(s, name).name] = damage.get(card(s, name).name, 0) + n
    units = [card(s, n) for n in w.options]
    problem = check_assignment(damage, w.amount, units)
    if problem:
        raise Refusal(problem[0], problem[1], "combat.assign")
    return Assigning(a.player, tuple((u.name, damage.get(u.name, 0)) for u in units))


def order(s: State, a: A.Order) -> Ordering:
    """``P orders replacements: A, B`` answers the question an interrupted action stopped at (368)."""
    w = s.awaiting
    if w is None or w.kind != "order" or s.suspended is None:
        raise Refusal("no replacement effects are waiting to be ordered: a player orders them only when several "
                      "apply to the same event", "action.limited_only_when_instructed", "replacement.owner_orders")
    who = {"replacement.owner_orders": "who owns the object acted on",
           "replacement.player_orders": "the player acted on",
           "replacement.turn_player_orders_battlefield": "the Turn Player, for an uncontrolled battlefield"}[w.reason]
    if a.player != w.player:
        raise Refusal(f"{w.player}, {who}, decides the order of the replacement effects ({w.about}), not {a.player}",
                      w.reason)
    chosen = tuple(card(s, n).name for n in a.sources)
    if sorted(o.lower() for o in chosen) != sorted(o.lower() for o in w.options):
        raise Refusal(f"the order must name each replacement effect that applies once: {', '.join(w.options)}", w.reason)
    return Ordering(a.player, chosen)


# -- combat damage assignment (443.1.d) ------------------------------------------------------------------
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
    for order_ in orders:
        left, out = total, {u.name: 0 for u in targets}
        for u in order_:
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
