"""Is this action legal now? (307-313 who may act and when, 143 moves, 346-356 playing, targets and costs, 374
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
from dataclasses import dataclass, replace

from engine.core import Refusal, ScenarioError
from engine.riftbound import actions as A
from engine.riftbound import conditions, costs, effects
from engine.riftbound.costs import Payment
from engine.riftbound.effect_types import Condition, Target
from engine.riftbound.effects import Cost, Instruction
from engine.riftbound.state import Ability, Awaiting, Battlefield, Card, ChainItem, State, might

# A chosen target: ("unit", card key, the card's epoch when chosen) or ("spell", chain uid, 0); a battlefield
# is ("battlefield", its key, 0).
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
    payment: Payment | None = None
    paid: tuple[str, ...] = ()  # optional costs paid: Accelerate, Repeat
    slots: tuple[int, ...] = ()
    kill_for_cost: str | None = None  # the friendly unit killed as an additional cost (353.2.a)
    cost_keys: tuple[str, ...] = ()  # the rules that make up its total cost
    using: str | None = None  # the unit an optional additional cost uses (its buff spent, it exhausted)


@dataclass(frozen=True)
class Activating:
    player: str
    obj: Card
    keys: tuple[str, ...]
    targets: tuple[Chosen, ...]
    place: str | None
    payment: Payment | None = None
    slots: tuple[int, ...] = ()
    ability: Ability | None = None
    cost_keys: tuple[str, ...] = ()


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
    payment: Payment | None = None


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
class Answering:
    """``P accepts`` / ``P declines``: a "you may" the rules wait for."""

    player: str
    yes: bool


@dataclass(frozen=True)
class RuneUse:
    """``P exhausts a rune`` / ``P recycles a Fury rune``: a rune's ability adds to the Rune Pool (160.2)."""

    player: str
    verb: str  # exhaust | recycle
    runes: tuple[int, ...]


@dataclass(frozen=True)
class Assigning:
    player: str
    damage: tuple[tuple[str, int], ...]  # every unit to assign to, in the order offered, and its damage


@dataclass(frozen=True)
class Ordering:
    player: str
    order: tuple[str, ...]


Plan = (
    Playing
    | Activating
    | Moving
    | Hiding
    | A.Pass
    | A.EndTurn
    | Choosing
    | Targeting
    | Assigning
    | Ordering
    | Answering
    | RuneUse
)


def card(s: State, name: str) -> Card:
    found = s.cards.get(name.lower())
    if found is None:
        raise ScenarioError((), f'"{name}" is not a card')
    return found


def check(s: State, a: A.Action) -> Plan:
    """The plan for action ``a``, or :class:`Refusal` (the rules forbid it now)."""
    if (
        s.awaiting is not None
        and s.awaiting.kind in ("order", "targets", "may", "choice")
        and not isinstance(a, (A.Order, A.Choose, A.Answer))
    ):
        may_act(s, a.player)  # refused: the rules wait for the order, the targets or the answer
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
    if isinstance(a, A.Answer):
        return answer(s, a)
    if isinstance(a, A.Runes):
        return use_runes(s, a)
    return order(s, a)


# -- who may act, and when ---------------------------------------------------------------------------
def may_act(s: State, player: str) -> None:
    """Discretionary actions need Priority (312.1); nothing is open while the rules wait for a choice."""
    if s.winner:
        raise Refusal(f"the game is over: {s.winner} has won", "victory.wins", "game.continues_until_win")
    if s.awaiting is not None:
        w = s.awaiting
        if w.kind == "order":
            raise Refusal(
                f"the rules wait for {w.player} to order the replacement effects ({w.about}: "
                f"{', '.join(w.options)}); no player has Priority",
                w.reason,
                "priority.none_no_actions",
            )
        if w.kind == "assign":
            raise Refusal(
                f"the rules wait for {w.player} to assign {w.amount} combat damage; no player has Priority",
                "priority.none_no_actions",
                "combat.assign",
            )
        if w.kind == "targets":
            raise Refusal(
                f"the rules wait for {w.player} to choose the targets of {w.about} as it is put on the Chain; "
                "no player has Priority",
                "trigger.choose_targets",
                "priority.none_no_actions",
            )
        if w.kind == "may":
            raise Refusal(
                f'the rules wait for {w.player} to decide: {w.about} ("{w.player} accepts" or '
                f'"{w.player} declines"); no player has Priority',
                "priority.limited_actions_regardless",
                "priority.none_no_actions",
            )
        if w.kind == "choice":
            raise Refusal(
                f"the rules wait for {w.player} to choose {w.what} for {w.about} ({', '.join(w.options)}); "
                "no player has Priority",
                w.reason,
                "priority.none_no_actions",
            )
        key = "cleanup.begin_showdown" if w.kind == "showdown" else "cleanup.begin_combat"
        raise Refusal(
            f"the rules wait for {w.player} to choose where a staged {w.kind} begins ({', '.join(w.options)})",
            key,
            "priority.none_no_actions",
        )
    if s.priority != player:
        holder = f"{s.priority} has it" if s.priority else "no player has it"
        focus = ("focus.needs_priority",) if s.focus == player else ()
        raise Refusal(
            f"{player} does not have Priority ({holder})" + (", and Focus alone allows nothing" if focus else ""),
            "priority.singular_right",
            *focus,
        )


def card_timing(
    s: State, player: str, card: Card, *, hidden: bool = False, ability_keywords: frozenset | None = None
) -> tuple[str, ...]:
    """Keys of the rules that let ``player`` play ``card`` (or activate an ability with ``ability_keywords``) now."""
    extra: tuple[str, ...] = ()
    if ability_keywords is None:
        quick = s.has(card, "Quick-Draw")
        reaction = s.has(card, "Reaction") or hidden or quick
        action = reaction or s.has(card, "Action")
        what, act = card.name, "played"
        any_turn_closed, any_turn_showdown = "timing.reaction_any_turn_closed", "timing.action_any_turn_showdown"
        extra = ("quick_draw.reaction",) if quick and not hidden else ()
    else:
        reaction = "Reaction" in ability_keywords
        action = reaction or "Action" in ability_keywords
        what, act = f"{card.name}'s ability", "activated"
        any_turn_closed, any_turn_showdown = "timing.reaction_ability", "timing.action_ability"
    extra = (*extra, *(("hide.gains_reaction",) if hidden else ()))
    if s.chain:
        if not reaction:
            raise Refusal(
                f"{what} has no Reaction: in a Closed State only cards and abilities with Reaction can be {act}",
                "timing.closed_needs_reaction",
            )
        return ("timing.closed_needs_reaction", any_turn_closed, *extra)
    if s.showdown:
        if not action:
            raise Refusal(
                f"{what} has neither Action nor Reaction: in a Showdown State only those can be {act}",
                "timing.showdown_needs_action_or_reaction",
            )
        return (
            "timing.showdown_needs_action_or_reaction",
            "showdown.focus_holder_may",
            *((any_turn_showdown,) if player != s.turn_player else ()),
            *extra,
        )
    if player != s.turn_player or s.phase != "main":
        if reaction and player == s.priority:
            return (
                "timing.reaction_any_turn_closed" if ability_keywords is None else "timing.reaction_ability",
                *extra,
            )
        raise Refusal(
            "in a Neutral Open State only the Turn Player plays cards, in their Action Phase",
            "timing.neutral_open_own_turn",
            "turn.action_phase_turn_player_only",
        )
    return ("timing.neutral_open_own_turn", *extra)


def ability_timing(s: State, player: str, card: Card, ability: Ability) -> tuple[str, ...]:
    """Activated abilities: the controller's turn in an Open State (374) unless Action/Reaction say otherwise."""
    kws = ability.keywords
    if not kws & {"Action", "Reaction"} and s.showdown and (card.is_unit or card.zone == "legend"):
        raise Refusal(
            f"{card.name}'s ability has neither Action nor Reaction: a unit's or legend's ability is activated "
            "in its controller's Action Phase, not during a Showdown",
            "ability.unit_timing",
            "timing.showdown_needs_action_or_reaction",
        )
    keys = card_timing(s, player, card, ability_keywords=kws)
    if not kws & {"Action", "Reaction"}:
        if player != s.turn_player or s.chain:
            raise Refusal(
                f"{card.name}'s ability can only be activated on its controller's turn in an Open State",
                "ability.activated_timing",
            )
        if (card.is_unit or card.zone == "legend") and (s.showdown or s.phase != "main"):
            raise Refusal(
                f"{card.name}'s ability can only be activated in its controller's Action Phase, not during a Showdown",
                "ability.unit_timing",
            )
        keys = (*keys, "ability.activated_timing")
    return keys


# -- playing cards and activating abilities ----------------------------------------------------------
PLAYABLE_ZONES = ("hand", "facedown", "champion")


def play(s: State, a: A.Play) -> Playing:
    player, c = a.player, card(s, a.card)
    hidden = c.zone == "facedown"
    if (
        c.zone not in PLAYABLE_ZONES
        or (c.zone == "hand" and c.owner != player)
        or (c.zone == "champion" and c.owner != player)
    ):
        where = (
            f"in {c.owner}'s hand"
            if c.zone == "hand"
            else f"in the {c.zone}"
            if c.zone in ("trash", "deck", "chain")
            else f"on the board ({c.location})"
            if c.on_board
            else c.zone
        )
        hint = f' (did you mean "{c.name}" in {c.owner}\'s hand?)' if c.zone == "hand" else f" ({c.name} is {where})"
        raise ScenarioError((), f'no card named "{c.name}" in {player}\'s hand{hint}')
    if hidden and c.controller != player:
        raise ScenarioError((), f"{c.name} is hidden at {c.at} by {c.controller}, not by {player}")
    if c.defn.type == "undefined":
        raise ScenarioError((), f"{c.name} has no definition: add it under cards: ({c.name}: {{type: spell, ...}})")
    for optional in a.paying:
        if optional in ("Deflect", "additional cost"):  # Deflect: mandatory, said or not (checked with the targets
            continue  # below); the card's own optional additional cost: checked with what it uses below
        if optional not in ("Accelerate", "Repeat"):
            raise ScenarioError(
                (), f'"paying {optional}": an optional cost is Accelerate, Repeat or the card\'s "additional cost"'
            )
        if not c.defn.has(optional) and not s.has(c, optional):
            raise ScenarioError((), f"{c.name} has no {optional} to pay")
    if "Accelerate" in a.paying and c.defn.type != "unit":
        raise ScenarioError((), f"{c.name} is not a unit: Accelerate is a unit's (731.1)")
    may_act(s, player)
    for by, who, what in s.cant_play:  # "opponents can't play cards this turn" (054.1: can't beats can)
        if (who == "players" or player in s.opponents(by)) and what in ("card", c.defn.type):
            raise Refusal(
                f"{c.name} cannot be played: an effect of {by}'s says {'opponents' if who == 'opponents' else 'players'} "
                f"can't play {what if what == 'gear' else what + 's'} this turn",
                "rules.cant_beats_can",
            )
    keys = card_timing(s, player, c, hidden=hidden)
    if c.zone == "champion":
        keys = (*keys, "champion.played_from_zone")
    if hidden and (c.hidden_turn is None or c.hidden_turn >= s.turn_number):
        raise Refusal(
            f"{c.name} was hidden this turn: it can be played from facedown beginning on the next turn",
            "hide.timing_and_cost",
            "hide.later_turn_for_free",
        )
    text = c.defn.effect if c.defn.type == "spell" else ""
    repeat = "Repeat" in a.paying
    wanted = effects.chosen(effects.parse(text)) * (2 if repeat else 1)
    chosen, slots = choose_all(
        s, player, c.name, wanted, list(a.targets), hidden_at=c.at if hidden else None, source=None
    )
    if "Deflect" in a.paying:
        _said_deflect(s, player, c.name, chosen)
    if (
        "faq.token_cost_zero" in s.rulings
        and any(k == "cost_max" for i in wanted for k, _ in i.aim.filters)
        and any(kind == "unit" and s.cards[key].defn.token for kind, key, _ in chosen)
    ):
        keys = (*keys, "faq.token_cost_zero")
    keys = (*keys, *_team_keys(s, player, chosen))
    if c.defn.type == "spell":
        place = move_destination(s, c.name, text, a.place)
    else:
        place = permanent_location(s, player, c, a.place, hidden)
        if place != "base" and not hidden and s.bf(place).controller != player:
            keys = (*keys, "play.location_permission", "passive.statement")
    kill = None
    if c.defn.additional_cost is not None:
        kill = _kill_for_cost(s, player, c, a.kill, place)
    elif a.kill is not None:
        raise ScenarioError((), f"{c.name} has no additional cost that kills a unit")
    using = _optional_cost_unit(s, player, c, a)
    cost, cost_keys = total_cost(s, player, c, chosen, a.paying, hidden)
    payment = costs.plan(s, player, cost, adders(s, player, c.defn.type), c.defn.type)
    if payment is None:
        raise Refusal(
            f"{player} cannot pay {cost.text()} for {c.name} ({resources(s, player)})",
            "cost.must_pay",
            "play.pay_costs",
            *cost_keys,
        )
    return Playing(
        player,
        c,
        keys,
        chosen,
        place,
        hidden,
        payment,
        tuple(p for p in a.paying if p != "Deflect"),
        slots,
        kill,
        cost_keys,
        using,
    )


def _optional_cost_unit(s: State, player: str, c: Card, a: A.Play) -> str | None:
    """An optional additional cost (356.2.b) the player chose to pay: what it needs is there (a card to discard,
    a buffed or ready unit of theirs); the unit it uses, named (``using UNIT``) when there is a choice."""
    chose = "additional cost" in a.paying
    extra = c.defn.optional_cost.extra if c.defn.optional_cost is not None else ()
    if not chose:
        if a.using is not None:
            raise ScenarioError(
                (), f'"using {a.using}" names the unit of an additional cost: add "paying additional cost"'
            )
        return None
    if c.defn.optional_cost is None:
        raise ScenarioError((), f"{c.name} has no optional additional cost to pay")
    for ins in extra:
        if ins.verb == "discard":
            if len(s.hand(player)) - 1 + s.hand_unnamed[player] < ins.amount:
                raise Refusal(
                    f"{player} has fewer than {ins.amount} other card(s) in hand: the additional cost cannot be paid",
                    "discard.cost_must_complete",
                )
            continue
        options = [u for u in s.units() if target_problem(s, player, ins, u, None) is None]
        what = "a buffed unit" if ins.verb == "spend_buff" else "a ready unit"
        if not options:
            raise Refusal(
                f"{player} has no {what} to pay the additional cost ({ins.text})",
                "buff.spend" if ins.verb == "spend_buff" else "exhaust.cost_must_complete",
            )
        if a.using is None:
            if len(options) > 1:
                raise ScenarioError(
                    (),
                    f'{c.name}\'s additional cost ({ins.text}): say which unit, "using {options[0].name}" '
                    f"({', '.join(u.name for u in options)})",
                )
            return options[0].name
        unit = card(s, a.using)
        if unit not in options:
            raise Refusal(
                f"{unit.name} is not {what} of {player}'s: it cannot pay the additional cost ({ins.text})",
                "buff.spend" if ins.verb == "spend_buff" else "exhaust.cost_must_complete",
            )
        return unit.name
    if a.using is not None:
        raise ScenarioError((), f"{c.name}'s additional cost uses no unit")
    return None


def _team_keys(s: State, player: str, chosen: tuple[Chosen, ...]) -> tuple[str, ...]:
    """A teammate's object chosen as "friendly" (466.8.d)."""
    if any(kind == "unit" and s.allied(s.cards[key].controller, player) for kind, key, _ in chosen):
        return ("team.friendly_includes_teammate",)
    return ()


def total_cost(
    s: State,
    player: str,
    c: Card,
    chosen: tuple[Chosen, ...],
    paying: tuple[str, ...],
    hidden: bool,
) -> tuple[Cost, tuple[str, ...]]:
    """The total cost of playing ``c`` (353): its base cost unless ignored, optional additional costs chosen,
    Deflect of opponents' objects chosen, discounts. Returns the cost and the rules that made it up."""
    keys: list[str] = []
    base = Cost() if hidden or c.defn.cost is None else costs.resolve_card_domain(c.defn.cost, c)
    if hidden:
        keys.append("hide.later_turn_for_free")
    total = base
    optional = Cost()
    if "Accelerate" in paying:
        optional = optional + costs.resolve_card_domain(Cost(1, ("card",)), c)
        keys.append("accelerate.cost")
    if "Repeat" in paying and c.defn.repeat is not None:
        optional = optional + costs.resolve_card_domain(c.defn.repeat, c)
        keys.append("repeat.cost")
    if "additional cost" in paying and c.defn.optional_cost is not None:
        extra = c.defn.optional_cost
        optional = optional + costs.resolve_card_domain(Cost(extra.energy, extra.power), c)
        keys.append("play.optional_cost_chosen")
        mod = c.defn.optional_mod
        if mod and mod[0] == "free":  # "If you do, ignore this spell's cost": its base costs are 0
            total = Cost()
            keys.append("cost.ignored")
        elif mod and mod[0] == "reduce":
            total = Cost(max(0, total.energy - int(mod[1])), total.power)
            keys.append("cost.discounts")
    own_cut = 0
    for passive in c.defn.passives:  # "I cost [2] less", "if ..., this costs [2] less", "... for each ..."
        if passive[0] != "self_discount":
            continue
        cond, per = passive[2], passive[3]
        if cond == "legion":
            if not s.played_cards(player):
                continue
            keys.append("legion.on_play")
        elif isinstance(cond, Condition):
            if not conditions.holds(s, player, c, None, cond)[0]:
                continue
            keys.append("passive.conditional")
        cut = passive[1] * (s.count(c, per) if per is not None else 1)
        if cut and total.energy:
            # applied after the other discounts: in any order (353.4), the player's best has those with a minimum
            # first (353.4.c), and a discount can reduce additional costs too (353.4.d)
            own_cut += cut
            keys.append("cost.discounts")
    if s.next_spell and c.defn.type == "spell" and total.energy:  # "the next spell you play this turn costs [5] less"
        cut = s.next_spell_cut(player)
        if cut:
            total = Cost(max(0, total.energy - cut), total.power, total.exhaust, total.extra)
            keys.extend(("delayed.passive", "cost.discounts"))
    total = total + optional
    deflect = deflect_cost(s, player, chosen)
    if deflect:
        total = total + Cost(0, ("any",) * deflect)
        keys.extend(("deflect.cost", "cost.mandatory_additional"))
    for source in s.cards.values():
        if not source.on_board or source.controller != player:
            continue
        for passive in source.defn.passives:
            if passive[0] == "discount" and (
                passive[2] == "cards" or (passive[2] == "spells") == (c.defn.type == "spell")
            ):
                cut = min(passive[1], total.energy)
                total = Cost(total.energy - cut, total.power, total.exhaust, total.extra)
                keys.extend(("cost.discounts", *(("cost.base_cost",) if optional else ())))
            if (
                passive[0] == "discount_min"
                and s.passive_holds(source, passive[4])
                and (c.defn.type == passive[2].removesuffix("s") or passive[2] == "cards" or passive[2] in c.defn.tags)
            ):
                least = passive[3]
                if total.energy > least:
                    total = Cost(max(least, total.energy - passive[1]), total.power, total.exhaust, total.extra)
                    keys.append("cost.discounts")
            if passive[0] == "discount_optional" and optional:
                power = list(total.power)
                for p in optional.power:
                    if p in power:
                        power.remove(p)
                        break
                total = Cost(total.energy, tuple(power), total.exhaust, total.extra)
                keys.extend(("cost.discounts", "cost.discount_additional"))
    if own_cut:
        total = Cost(max(0, total.energy - own_cut), total.power, total.exhaust, total.extra)
    return total, tuple(dict.fromkeys(keys))


def _said_deflect(s: State, player: str, what: str, chosen: tuple[Chosen, ...]) -> None:
    """``paying Deflect`` names a cost the targets must impose (735.1.c); it is paid whether said or not."""
    if not deflect_cost(s, player, chosen):
        raise ScenarioError(
            (),
            f'"paying Deflect": none of the objects {what} chooses is an opponent\'s with Deflect (735.1.c); drop it',
        )


def deflect_cost(s: State, player: str, chosen: tuple[Chosen, ...]) -> int:
    """Power of any domain that Deflect adds (735.1.c): once per object for each spell or ability in Core Rules
    v1.2, once for each time it is chosen in the edition with the Spiritforged FAQ's revised 735.1.c."""
    total, seen = 0, set()
    for kind, key, _ in chosen:
        if kind != "unit":
            continue
        obj = s.cards[key]
        if obj.controller == player or not s.has(obj, "Deflect"):
            continue
        if key in seen and not s.deflect_each_choice:
            continue
        seen.add(key)
        total += max(1, s.value(obj, "Deflect"))
    return total


def adders(s: State, player: str, use: str = "") -> tuple[tuple[str, str], ...]:
    """Ready objects of ``player`` whose ability is ``[E]: Add`` one power (a Seal), usable to pay (354.1.a); one
    whose power is "only to play spells" only for ``use`` ``spell``."""
    out = []
    for c in s.cards.values():
        if c.controller != player or c.exhausted or not (c.on_board or c.zone == "legend"):
            continue
        for ab in c.defn.abilities:
            if ab.spend_only and ab.spend_only != use:
                continue
            if ab.adds and ab.cost.exhaust and not ab.cost.energy and not ab.cost.power and not ab.cost.extra:
                found = effects.parse(ab.effect)
                if len(found) == 1 and not found[0].amount and len(found[0].data) == 1:
                    domain = found[0].data[0]
                    out.append((c.key, costs.resolve_card_domain(Cost(0, (domain,)), c).power[0]))
    return tuple(out)


def resources(s: State, player: str) -> str:
    runes = s.runes[player] or []
    ready = sum(1 for r in runes if not r.exhausted)
    pool = s.pool[player]
    return f"{ready} ready and {len(runes) - ready} exhausted rune(s)" + (
        f", {pool.text()} in the Rune Pool" if pool.energy or pool.power or pool.only else ""
    )


def _kill_for_cost(s: State, player: str, c: Card, name: str | None, place: str | None) -> str:
    add = c.defn.additional_cost
    assert add is not None
    ins = add.extra[0]
    if name is None:
        raise Refusal(
            f'{c.name} has an additional cost ({ins.text}): say which unit, "... killing UNIT"',
            "cost.mandatory_additional",
        )
    unit = card(s, name)
    problem = target_problem(s, player, ins, unit, None, c)
    if problem:
        raise Refusal(
            f"{unit.name} cannot be killed for {c.name}'s additional cost: {problem[0]}",
            problem[1],
            "cost.mandatory_additional",
        )
    if place and place != "base" and c.defn.type == "unit":
        # 352.16 / 354.3: no choice that deterministically makes the rest of playing illegal.
        left = [u for u in s.units_at(place) if u.controller == player and u.key != unit.key]
        if not left:
            raise Refusal(
                f"killing {unit.name} would leave {player} without units at {place}, where {c.name} is being played",
                "cost.no_self_defeating_choice",
                "play.unit_default_locations",
            )
    return unit.key


def activate(s: State, a: A.Activate) -> Activating:
    player, obj = a.player, card(s, a.obj)
    ability = obj.defn.ability
    if a.equip:
        if obj.defn.equip is None:
            raise ScenarioError((), f"{obj.name} has no Equip ability")
        ability = Ability("attach this to a unit you control", obj.defn.equip)
    if ability is None:
        raise ScenarioError(
            (), f"{obj.name} has no activated ability (give it one: ability: {{cost: exhaust, effect: ...}})"
        )
    if not (obj.on_board or obj.zone == "legend") or obj.controller != player:
        raise ScenarioError((), f"{obj.name} is not on the board under {player}'s control")
    may_act(s, player)
    if ability.only and not s.passive_holds(obj, ability.only):
        said = ability.only if isinstance(ability.only, str) else ability.only.text
        raise Refusal(
            f"{obj.name}'s ability can be used only while {'it is ' if isinstance(ability.only, str) else ''}{said}: "
            "that is not so now",
            "ability.use_condition",
        )
    if ability.adds and ability.keywords & {"Reaction"} and s.priority == player:
        keys: tuple[str, ...] = ("add.reaction_any_time",)
    else:
        keys = ability_timing(s, player, obj, ability)
    if a.equip:
        keys = (*keys, "equip.attach")
    wanted = effects.chosen(effects.parse(ability.effect))
    chosen, slots = choose_all(s, player, f"{obj.name}'s ability", wanted, list(a.targets), source=obj)
    if a.deflect:
        _said_deflect(s, player, f"{obj.name}'s ability", chosen)
    keys = (*keys, *_team_keys(s, player, chosen))
    place = move_destination(s, f"{obj.name}'s ability", ability.effect, a.place)
    if ability.exhausts and obj.exhausted:
        raise Refusal(
            f"{obj.name} is exhausted: its cost (exhaust it) cannot be paid",
            "exhaust.cost_must_complete",
            "exhaust.not_again",
        )
    for extra in ability.cost.extra:
        _check_extra_cost(s, player, obj, extra)
    cost = Cost(ability.cost.energy, ability.cost.power)
    cost = costs.resolve_card_domain(cost, obj)
    deflect = deflect_cost(s, player, chosen)
    cost_keys: tuple[str, ...] = ()
    if deflect:
        cost = cost + Cost(0, ("any",) * deflect)
        cost_keys = ("deflect.cost", "cost.mandatory_additional")
    payment = costs.plan(
        s, player, cost, tuple(x for x in adders(s, player) if x[0] != obj.key or not ability.exhausts)
    )
    if payment is None:
        raise Refusal(
            f"{player} cannot pay {cost.text()} for {obj.name}'s ability ({resources(s, player)})",
            "cost.must_pay",
            "play.pay_costs",
            *cost_keys,
        )
    return Activating(player, obj, keys, chosen, place, payment, slots, ability, cost_keys)


def _check_extra_cost(s: State, player: str, obj: Card, ins: Instruction) -> None:
    if ins.verb == "recycle_trash":
        trash = [c for c in s.cards.values() if c.zone == "trash" and c.owner == player]
        if len(trash) < ins.amount:
            raise Refusal(
                f"{player}'s trash has {len(trash)} card(s): the cost (recycle {ins.amount} from your trash) "
                "cannot be paid",
                "recycle.cost_must_complete",
            )
    elif ins.verb == "discard":
        if len(s.hand(player)) + s.hand_unnamed[player] < ins.amount:
            raise Refusal(
                f"{player} has fewer than {ins.amount} card(s) in hand: the cost (discard {ins.amount}) cannot be paid",
                "discard.cost_must_complete",
            )
    elif ins.verb == "recycle_rune":
        if not s.runes[player] and s.pays(player):
            raise Refusal(f"{player} has no rune to recycle", "recycle.cost_must_complete")
    elif ins.verb == "spend_buff" and not obj.buffed:
        raise Refusal(f"{obj.name} has no buff to spend: the cost (spend my buff) cannot be paid", "buff.spend")


# -- targets (352.4-352.13) -------------------------------------------------------------------------------
def choose_all(
    s: State,
    player: str,
    what: str,
    wanted: list[Instruction],
    names: list[str],
    *,
    hidden_at: str | None = None,
    source: Card | None = None,
    noted: tuple = (),
) -> tuple[tuple[Chosen, ...], tuple[int, ...]]:
    """Match the action's ``targeting`` names to the effect's targets in order and check each is a valid choice
    (352.7-352.8, 352.13): each target takes as many names as it needs; an "up to N" one takes what is left."""
    exact = sum(i.aim.count for i in wanted if not i.aim.upto)
    flexible = sum(i.aim.upto for i in wanted if i.aim.upto)
    if len(names) > exact + flexible:
        raise ScenarioError(
            (), f"{what} takes {exact + flexible if flexible < 99 else 'any number of'} target(s), {len(names)} given"
        )
    if len(names) < exact:
        raise Refusal(
            f"{what} needs {exact} target(s) and {len(names)} {'was' if len(names) == 1 else 'were'} chosen",
            "play.targets_required",
        )
    spare = len(names) - exact
    out: list[Chosen] = []
    slots: list[int] = []
    i = 0
    for ins in wanted:
        take = ins.aim.count if not ins.aim.upto else min(ins.aim.upto, spare)
        if ins.aim.upto:
            spare -= take
        group = names[i : i + take]
        i += take
        keys: list[str] = []
        for name in group:
            chosen = _valid_target(s, player, what, ins, name, hidden_at, source, noted)
            if ins.aim.other and any(c[1] == chosen[1] for c in out):
                # "give a unit +2 [M] this turn and another unit -2 [M] this turn": another than the one chosen
                # before for the same effect
                raise Refusal(
                    f"{name} is already chosen for {what}, and it says another",
                    "play.target_restrictions",
                    "play.target_valid",
                )
            if chosen[1] in keys:
                raise Refusal(
                    f"{what} must choose {ins.aim.count if not ins.aim.upto else 'different'} different "
                    f"objects for one instruction; {name} is chosen twice",
                    "play.targets_chosen_independently",
                    "play.target_valid",
                )
            keys.append(chosen[1])
            out.append(chosen)
        _group_requirement(s, what, ins, keys)
        slots.append(take)
    for j, ins in enumerate(wanted):  # "a friendly unit and an enemy unit at the same battlefield" (352.11)
        if j and ("same_place", True) in ins.aim.filters:
            start = sum(slots[:j])
            pair = out[start - slots[j - 1] : start + slots[j]]
            places = {(s.cards[k].location or "").lower() for kind, k, _ in pair if kind == "unit"}
            if len(places) > 1:
                raise Refusal(
                    f"the units {what} chooses must be at the same battlefield",
                    "targets.group_requirement",
                    "play.target_valid",
                )
    return tuple(out), tuple(slots)


def _group_requirement(s: State, what: str, ins: Instruction, keys: list[str]) -> None:
    """A requirement the chosen targets meet as a group (352.11, 352.11.a): "with total Might N or less", at
    one battlefield."""
    total = dict(ins.aim.filters).get("total_might")
    if total is None or not keys:
        return
    units = [s.cards[k] for k in keys]
    places = sorted({u.location or "" for u in units})
    if len(places) > 1:
        raise Refusal(
            f"{what} chooses its group of units at one battlefield, not at {' and '.join(places)}",
            "targets.group",
            "targets.group_requirement",
        )
    might = sum(max(0, s.might(u)) for u in units)
    if might > int(total):  # type: ignore[call-overload]
        raise Refusal(
            f"the units {what} chooses have a total Might of {might}, more than {total}",
            "targets.group",
            "targets.group_requirement",
        )


def _valid_target(
    s: State,
    player: str,
    what: str,
    ins: Instruction,
    name: str,
    hidden_at: str | None,
    source: Card | None,
    noted: tuple = (),
) -> Chosen:
    if ins.aim.kind == "spell":
        item = next((i for i in reversed(s.chain) if i.label.lower() == name.lower() and i.kind == "spell"), None)
        if item is None:
            raise Refusal(f"{name} is not a spell on the Chain", "play.target_on_chain", "play.target_valid")
        why = spell_problem(s, ins, item)
        if why:
            raise Refusal(
                f"{item.label} is not a valid target for {what}: {why}",
                "play.target_restrictions",
                "cost.base_cost",
                "play.target_valid",
            )
        return ("spell", str(item.uid), 0)
    if ins.aim.kind == "battlefield":
        if name.lower() not in s.battlefields:
            raise Refusal(f"{name} is not a battlefield", "play.target_valid")
        return ("battlefield", name.lower(), 0)
    c = s.cards.get(name.lower())
    if c is None:
        raise ScenarioError((), f'no unit named "{name}"')
    problem = target_problem(s, player, ins, c, hidden_at, source, noted)
    if problem:
        raise Refusal(f"{c.name} is not a valid target for {what}: {problem[0]}", problem[1], "play.target_valid")
    return ("unit", c.key, s.epochs.get(c.key, 0))


def spell_problem(s: State, ins: Instruction, item: ChainItem) -> str | None:
    """Why the spell ``item`` on the Chain is not a valid target of ``ins`` ("a spell that costs no more than [4]
    and no more than [A]": its printed costs, 131.4), or None."""
    for key, value in ins.aim.filters:
        if key in ("cost_max", "power_max"):
            card = s.cards.get(item.card or "")
            printed = card.defn.cost if card is not None else None
            n = 0 if printed is None else printed.energy if key == "cost_max" else len(printed.power)
            if n > int(value):  # type: ignore[call-overload]
                return f"its {'Energy' if key == 'cost_max' else 'Power'} cost is {n}, more than {value}"
    return None


def target_problem(
    s: State,
    player: str,
    ins: Instruction,
    card: Card,
    hidden_at: str | None,
    source: Card | None = None,
    noted: tuple = (),
) -> tuple[str, str] | None:
    """Why ``card`` is not a valid target of ``ins`` for ``player``: (what, citation key), or None."""
    t = ins.aim
    if t.filters and t.filters[0][0] == "either":  # "a unit at a battlefield or a gear": it fits one of them
        whys = []
        for alternative in t.filters[0][1]:  # type: ignore[attr-defined]
            why = target_problem(s, player, replace(ins, target=alternative), card, hidden_at, source, noted)
            if why is None:
                return None
            whys.append(why)
        return " and ".join(w[0] for w in whys), whys[0][1]
    kind = t.kind
    if kind == "facedown" or (kind == "any" and card.zone == "facedown"):
        if card.zone != "facedown":
            return f"it is not a facedown card at a battlefield (it is in the {card.zone})", "play.facedown_card"
    elif kind == "card":
        if card.zone != "trash":
            return f"it is not a card in a trash (it is in the {card.zone})", "play.target_valid"
        if t.side == "your" and card.owner != player:
            return f"it is not in {player}'s trash", "play.target_restrictions"
        if (
            ("type", "unit") in t.filters
            and not card.is_unit
            or ("type", "gear") in t.filters
            and card.defn.type != "gear"
        ):
            return f"it is not a {dict(t.filters)['type']} card", "play.target_restrictions"
        if t.side == "enemy" and (card.owner == player or s.allied(card.owner, player)):
            return "it is not in an opponent's trash", "play.target_restrictions"
        if ("champion", True) in t.filters:
            chosen = s.champions.get(player)
            if chosen is None or card.name.split("#", 1)[0].strip().lower() != chosen.lower():
                return (
                    f"it is not {player}'s Chosen Champion ({chosen or 'none'}): only a card with that exact name is",
                    "champion.same_name",
                )
        for key, value in t.filters:  # "a unit costing no more than [3] and no more than [A]": its printed costs
            if key == "keyword" and not card.defn.has(str(value)):  # "cards with [Hidden] from your trash"
                return f"it has no {value}", "play.target_restrictions"
            if key in ("cost_max", "power_max"):
                printed = card.defn.cost
                n = 0 if printed is None else printed.energy if key == "cost_max" else len(printed.power)
                if n > int(value):  # type: ignore[call-overload]
                    what = "Energy" if key == "cost_max" else "Power"
                    return f"its {what} cost is {n}, more than {value}", "play.target_restrictions"
        return None
    elif kind == "legend":
        if card.zone != "legend":
            return "it is not a legend", "play.target_valid"
    else:
        wanted = {"unit": ("unit",), "gear": ("gear",), "permanent": ("unit", "gear"), "any": ("unit", "gear")}[kind]
        if card.defn.type not in wanted or not card.on_board:
            what = "a unit" if kind == "unit" else "a gear" if kind == "gear" else "a unit or gear"
            if kind == "any":
                return (
                    f"it is not a gear or unit on the board, nor a facedown card at a battlefield (it is in "
                    f"{card.owner}'s {card.zone})",
                    "play.facedown_card",
                )
            return f"it is not {what} on the board (it is in {card.owner}'s {card.zone})", "play.target_on_board"
    holder = card.controller
    if t.side == "enemy" and (holder == player or s.allied(holder, player)):
        return "it is not an enemy unit", "play.target_restrictions"
    if t.side == "friendly" and holder != player and not s.allied(holder, player):
        return "it is not a friendly unit", "play.target_restrictions"
    if ("not_yours", True) in t.filters and holder == player:
        return f"{player} controls it, and it says a unit {player} doesn't control", "play.target_restrictions"
    if t.side == "your" and holder != player:
        if s.allied(holder, player):
            return (
                f"{player} does not control it: it is {holder}'s, {player}'s teammate (\"you\" is not shared)",
                "team.control_not_shared",
            )
        return f"{player} does not control it", "play.target_restrictions"
    if t.other and source is not None and source.key == card.key:
        return f"it is {source.name} itself, and the ability says another", "play.target_restrictions"
    if t.other and dict(noted).get("it") == card.key:
        return "it is the unit the effect already acts on, and the ability says another", "play.target_restrictions"
    here = (source.location if source is not None and source.on_board else None) or hidden_at or dict(noted).get("at")
    if t.where == "at a battlefield" and card.zone != "battlefield":
        return "it is not at a battlefield", "play.target_restrictions"
    if t.where == "in a base" and card.zone != "base":
        return "it is not in a base", "play.target_restrictions"
    if t.where == "here" and (here is None or (card.location or "").lower() != here.lower()):
        return f"it is not {'at ' + here if here else 'here'}", "play.target_restrictions"
    if t.where == "there":  # the battlefield the effect chose, else the place its trigger noted, else here
        there = dict(noted).get("there") or dict(noted).get("at") or here
        if there is None or (card.location or "").lower() != there.lower():
            return f"it is not {'at ' + there if there else 'there'}", "play.target_restrictions"
    if t.where == "at another location" and (card.location or "").lower() == (here or "").lower():
        return "it is not at another location", "play.target_restrictions"
    if t.where == "at its destination":
        dest = dict(noted).get("destination")
        if dest is None or (card.location or "").lower() != dest.lower():
            return f"it is not at {dest or 'the destination'}", "play.target_restrictions"
    for key, value in t.filters:
        if key == "might_max" and s.might(card) > int(value):  # type: ignore[call-overload]
            return f"its Might is {s.might(card)}, more than {value}", "play.target_restrictions"
        if key == "keyword" and not s.has(card, str(value)):
            return f"it has no {value}", "play.target_restrictions"
        if (
            key == "tag"
            and str(value) not in card.defn.tags
            and not (value == "Recruit" and card.key.startswith("recruit"))
        ):
            return f"it is not a {value}", "play.target_restrictions"
        if key == "state":
            ok = {
                "ready": not card.exhausted,
                "exhausted": card.exhausted,
                "stunned": card.stunned,
                "buffed": card.buffed,
                "damaged": card.damage > 0,
            }[str(value)]
            if not ok:
                return f"it is not {value}", "play.target_restrictions"
        if key == "mighty" and not s.mighty(card):
            return "it is not Mighty", "play.target_restrictions"
        if key == "cost_max":
            if card.defn.token and "faq.token_cost_zero" not in s.rulings:
                return (
                    "it is a token: tokens have no cost (179.2.a), so its cost is null and no comparison with it holds",
                    "token.no_cost",
                )
            cost = 0 if card.defn.token or card.defn.cost is None else card.defn.cost.energy
            if cost > int(value):  # type: ignore[call-overload]
                return f"its cost is {cost}, more than {value}", "play.target_restrictions"
        if key == "power_max":
            power = 0 if card.defn.token or card.defn.cost is None else len(card.defn.cost.power)
            if power > int(value):  # type: ignore[call-overload]
                return f"its Power cost is {power}, more than {value}", "play.target_restrictions"
    if hidden_at and t.where != "at another location" and (card.location or card.at or "").lower() != hidden_at.lower():
        return f"played from facedown, its choices are limited to {hidden_at}", "hide.targets_at_that_battlefield"
    return None


def condition_holds(
    s: State,
    me: str,
    source: Card | None,
    it: Card | None,
    cond: Condition,
    item: ChainItem | None = None,
    at: str | None = None,
) -> tuple[bool, str]:
    """:func:`engine.riftbound.conditions.holds`, an object that fits a target's description (``you control a
    Poro``) found as a target would be (:func:`target_problem`)."""
    hidden = item.hidden_at if item is not None else None
    noted = item.noted if item is not None else ()

    def fits(card: Card, target: Target) -> bool:
        return target_problem(s, me, Instruction("if", 0, target), card, hidden, source, noted) is None

    return conditions.holds(s, me, source, it, cond, item, at, fits)


def target_options(s: State, item: ChainItem, source: Card | None) -> list[tuple[Instruction, list[str]]]:
    """For each target a chain item's effect chooses, the instruction and the names of the valid choices now
    (352.8), in board order."""
    out = []
    for ins in effects.chosen(effects.parse(item.effect)):
        if ins.aim.kind == "spell":
            spells = [i for i in s.chain if i.kind == "spell" and i.uid != item.uid and not i.pending]
            out.append((ins, [i.label for i in spells if spell_problem(s, ins, i) is None]))
        elif ins.aim.kind == "battlefield":
            out.append((ins, [b.name for b in s.battlefields.values()]))
        else:
            out.append(
                (
                    ins,
                    [
                        c.name
                        for c in s.cards.values()
                        if target_problem(s, item.controller, ins, c, item.hidden_at, source, item.noted) is None
                    ],
                )
            )
    return out


def chosen_targets(
    s: State, item: ChainItem, names: tuple[str, ...], source: Card | None
) -> tuple[tuple[Chosen, ...], tuple[int, ...]]:
    """The chosen names of a chain item's targets (checked by :func:`choose_targets`)."""
    wanted = effects.chosen(effects.parse(item.effect))
    return choose_all(
        s, item.controller, item.label, wanted, list(names), hidden_at=item.hidden_at, source=source, noted=item.noted
    )


def place_name(s: State, place: str) -> str:
    return "base" if place.lower() == "base" else "here" if place.lower() == "here" else s.bf(place).name


def move_destination(s: State, what: str, text: str, place: str | None) -> str | None:
    if not effects.needs_place(text):
        if place is not None and not any(i.verb in ("move", "token") for i in effects._walk(effects.parse(text))):
            raise ScenarioError((), f'{what} moves nothing: drop "to {place}"')
        return place_name(s, place) if place is not None else None
    if place is None:
        raise Refusal(
            f'{what} moves a unit: its destination is chosen as it is played ("... to PLACE")', "play.move_destination"
        )
    return place_name(s, place)


def permanent_location(s: State, player: str, card: Card, place: str | None, hidden: bool) -> str:
    if card.defn.type == "gear":
        if hidden:
            assert card.at is not None
            return card.at  # played where it was hidden; a gear there is recalled in the next cleanup (435.1)
        return "base"
    if hidden:
        assert card.at is not None
        if place is not None and place.lower() != card.at.lower():
            raise Refusal(
                f"{card.name} was hidden at {card.at}: it must be played there", "hide.unit_to_that_battlefield"
            )
        _only_base(s, player, card)
        return card.at
    if place is None or place.lower() == "base":
        return "base"
    _only_base(s, player, card)
    bf = s.bf(place)
    if bf.controller != player and _may_play_to(s, player, card, bf):
        return bf.name
    if bf.controller != player:
        raise Refusal(
            f"{card.name} can be played only to {player}'s base or a battlefield {player} controls; "
            f"{bf.name} is {'controlled by ' + bf.controller if bf.controller else 'uncontrolled'}",
            "play.unit_default_locations",
        )
    return bf.name


def _only_base(s: State, player: str, card: Card) -> None:
    """An opponent's "opponents can only play units to their base" (a passive ability, 361.2) that holds now."""
    warden = s.restrictor(player, "only_base")
    if warden is not None:
        raise Refusal(
            f"{card.name} can be played only to {player}'s base: {warden.name} ({warden.controller}'s) says opponents "
            "can only play units to their base",
            "passive.statement",
            "play.unit_default_locations",
        )


def _may_play_to(s: State, player: str, card: Card, bf: Battlefield) -> bool:
    """A passive ability that lets a unit be played to a battlefield its player does not control (355.2.b): its
    own ("You may play me to an open battlefield") or a friendly permanent's ("Friendly units may be played to
    open battlefields"). Open: no unit there and no controller; occupied enemy: a unit there, controlled by an
    opponent."""
    occupied = any(u.on_board for u in s.units_at(bf.name))
    kinds = {
        "open": not occupied and bf.controller is None,
        "occupied enemy": occupied and bf.controller is not None and bf.controller in s.opponents(player),
    }
    own = [p[1] for p in card.defn.passives if p[0] == "play_to"]
    given = [
        p[1]
        for c in s.cards.values()
        if c.on_board and c.controller == player and c.attached_to is None
        for p in c.defn.passives
        if p[0] == "others_play_to"
    ]
    return any(kinds.get(k, False) for k in (*own, *given))


# -- the Standard Move, hiding, ending the turn ---------------------------------------------------------
def standard_move(s: State, a: A.Move) -> Moving:
    units = []
    for name in a.units:
        u = card(s, name)
        if not (u.is_unit and u.on_board):
            raise ScenarioError((), f"{u.name} is not a unit on the board (it is in the {u.zone})")
        if u.controller != a.player:
            if s.allied(u.controller, a.player):
                raise Refusal(
                    f"{u.name} is {u.controller}'s: a player cannot use the standard move of a teammate's units",
                    "team.no_standard_move_for_ally",
                )
            raise ScenarioError((), f"{u.name} is controlled by {u.controller}, not {a.player}")
        units.append(u)
    if a.player != s.turn_player:
        raise Refusal(
            f"the Standard Move is made in its controller's own Action Phase; it is {s.turn_player}'s turn",
            "move.action_phase",
            "action.own_turn",
        )
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
            raise Refusal(
                f"{u.name} is exhausted: the Standard Move's cost (exhausting it) cannot be paid",
                "exhaust.cost_must_complete",
                "move.standard_cost",
            )
        forbidden = move_forbidden(s, u, dest)
        if forbidden:
            raise Refusal(forbidden, "rules.cant_beats_can", "passive.statement")
        if origin != "base" and dest.lower() != "base" and not s.has(u, "Ganking"):
            raise Refusal(
                f"{u.name} is at {origin}, a battlefield: without Ganking a unit's Standard Move goes only "
                "from its base to a battlefield or back",
                "move.ganking",
                "move.base_to_battlefield",
                "move.battlefield_to_base",
            )
    if dest.lower() != "base":
        others = [p for p in s.players_at(dest) if p != a.player]
        if len(others) >= 2:
            raise Refusal(f"{dest} already has units of two other players", "move.not_two_other_players")
        if any(s.allied(p, a.player) for p in others):
            raise Refusal(
                f"{a.player}'s teammate has units at {dest}: teammates never have units at the same battlefield",
                "team.control_not_shared",
                "move.not_two_other_players",
            )
    return Moving(a.player, tuple(units), dest)


def move_forbidden(s: State, unit: Card, dest: str) -> str | None:
    """Why a passive ability forbids ``unit`` to move to ``dest`` (a battlefield's "units can't move from here to
    base"), or None."""
    origin = unit.location or "base"
    if dest.lower() != "base" or origin == "base" or origin.lower() not in s.battlefields:
        return None
    bf = s.bf(origin)
    if any(p[0] == "no_move_to_base" for p in bf.defn.passives):
        return f"{bf.name} says units can't move from there to base (can't beats can)"
    return None


def hide(s: State, a: A.Hide) -> Hiding:
    c = card(s, a.card)
    if c.zone not in ("hand", "champion") or c.owner != a.player:
        raise ScenarioError((), f'no card named "{c.name}" in {a.player}\'s hand')
    if a.place.lower() == "base":
        raise Refusal("a card is hidden at a battlefield, not at a base", "hide.places_facedown")
    if a.player != s.turn_player:
        raise Refusal(f"a card is hidden on its owner's own turn; it is {s.turn_player}'s turn", "hide.timing_and_cost")
    may_act(s, a.player)
    if s.chain:
        raise Refusal("a card is hidden only in an Open State", "hide.timing_and_cost")
    if not s.has(c, "Hidden"):
        raise Refusal(f"{c.name} has no Hidden keyword: it cannot be hidden", "hide.needs_keyword")
    bf = s.bf(a.place)
    if bf.controller != a.player:
        if s.allied(bf.controller, a.player):
            raise Refusal(
                f"{bf.name} is controlled by {a.player}'s teammate: a card cannot be hidden there",
                "team.no_hiding_at_ally",
                "hide.places_facedown",
            )
        raise Refusal(
            f"{a.player} does not control {bf.name}: a card is hidden only at a battlefield you control",
            "hide.places_facedown",
            "hide.timing_and_cost",
        )
    if bf.facedown:
        raise Refusal(f"a card is already hidden at {bf.name}", "hide.one_card_per_battlefield")
    if a.player in s.hide_free:  # "you can hide cards ignoring costs this turn"
        return Hiding(a.player, c, bf, None)
    payment = costs.plan(s, a.player, Cost(0, ("any",)), adders(s, a.player))
    if payment is None:
        raise Refusal(
            f"{a.player} cannot pay [A], the cost of hiding ({resources(s, a.player)})",
            "hide.timing_and_cost",
            "cost.must_pay",
        )
    return Hiding(a.player, c, bf, payment)


def end_turn(s: State, a: A.EndTurn) -> A.EndTurn:
    if a.player != s.turn_player:
        raise Refusal(f"only the Turn Player ({s.turn_player}) ends the turn", "turn.ending_turn", "turn.turn_player")
    may_act(s, a.player)
    if s.chain:
        raise Refusal("the turn cannot end while the Chain has items", "turn.phase_ends")
    if s.showdown:
        raise Refusal(
            "the turn cannot end during a Showdown: it ends when all players pass in sequence",
            "turn.phase_ends",
            "showdown.ends_all_passed",
        )
    return a


def use_runes(s: State, a: A.Runes) -> RuneUse:
    """``P exhausts N runes`` ([1] each) / ``P recycles a [ready|exhausted] [DOMAIN] rune`` ([C]): a rune's
    abilities are Reactions that add resources (160.2), usable whenever the player has Priority."""
    may_act(s, a.player)
    runes = s.runes[a.player]
    if runes is None:
        raise ScenarioError(
            (), f"{a.player}'s runes are not given (state: runes: {{{a.player}: {{ready: N, exhausted: N}}}})"
        )
    picks: list[int] = []
    for _ in range(a.count):
        order = [
            i
            for i in range(len(runes))
            if i not in picks
            and (a.domain is None or runes[i].domain in (a.domain, None))
            and (a.state is None or runes[i].exhausted == (a.state == "exhausted"))
        ]
        if a.verb == "exhaust":
            order = [i for i in order if not runes[i].exhausted]
        else:
            order.sort(key=lambda i: (not runes[i].exhausted, runes[i].domain is None))
        if not order:
            state = (
                "exhausted" if a.state == "exhausted" else "ready" if a.state == "ready" or a.verb == "exhaust" else ""
            )
            what = " ".join(w for w in (state, a.domain or "", "rune") if w)
            key = "exhaust.not_again" if a.verb == "exhaust" else "recycle.runes"
            raise Refusal(f"{a.player} has no {what} to {a.verb} ({resources(s, a.player)})", key, "rune.abilities")
        picks.append(order[0])
    return RuneUse(a.player, a.verb, tuple(picks))


# -- answering what the rules wait for -----------------------------------------------------------------
def choose(s: State, a: A.Choose) -> Choosing | Targeting:
    w = s.awaiting
    if w is not None and w.kind == "targets":
        return choose_targets(s, a, w)
    if w is not None and w.kind == "subset":
        return choose_subset(s, a, w)
    if w is not None and w.kind == "pick":
        if a.player != w.player:
            raise Refusal(f"{w.player} chooses the card {w.about} plays, not {a.player}", "play.by_effect")
        if len(a.choices) != 1 or a.choices[0].lower() not in [o.lower() for o in w.options]:
            raise Refusal(
                f"{', '.join(a.choices)} is not one card of those {w.about} may play ({', '.join(w.options)})",
                "play.by_effect",
            )
        return Targeting(a.player, w.item, a.choices)
    if w is not None and w.kind == "choice":
        if a.player != w.player:
            raise Refusal(f"{w.player} chooses {w.what} for {w.about}, not {a.player}", w.reason)
        if len(a.choices) != 1 or a.choices[0].lower() not in [o.lower() for o in w.options]:
            raise Refusal(f"{', '.join(a.choices)} is not one of those to choose ({', '.join(w.options)})", w.reason)
        return Targeting(a.player, w.item, a.choices)
    if w is not None and w.kind in ("order", "may"):
        may_act(s, a.player)  # refused: the rules wait for something else
    if w is None or w.kind not in ("showdown", "combat"):
        raise Refusal(
            "nothing is there to choose: a player chooses only when the rules ask",
            "action.limited_only_when_instructed",
        )
    key = "cleanup.begin_showdown" if w.kind == "showdown" else "cleanup.begin_combat"
    if a.player != w.player:
        raise Refusal(f"the Turn Player ({w.player}) chooses", key)
    if len(a.choices) != 1 or a.place.lower() not in [o.lower() for o in w.options]:
        raise Refusal(
            f"{', '.join(a.choices)} is not one of the battlefields to choose from ({', '.join(w.options)})", key
        )
    return Choosing(a.player, w.kind, a.place.lower())


def group_subsets(s: State, units: list[Card], total: int) -> list[tuple[Card, ...]]:
    """The subsets of ``units`` with a total Might of ``total`` or less to which no other of them can be added
    (352.11.b; the Origins FAQ's examples for Fox-Fire: "you must kill the other three"), largest first."""
    units = units[:12]
    might = {u.key: max(0, s.might(u)) for u in units}
    fits = [
        c
        for n in range(len(units), -1, -1)
        for c in itertools.combinations(units, n)
        if sum(might[u.key] for u in c) <= total
    ]
    return [
        c for c in fits if not any(sum(might[x.key] for x in c) + might[u.key] <= total for u in units if u not in c)
    ]


def choose_subset(s: State, a: A.Choose, w: Awaiting) -> Targeting:
    """``P chooses X, Y``: the original targets of a group requirement that still fulfil it and are affected
    (352.11.b); ``P chooses nothing`` affects none."""
    if a.player != w.player:
        raise Refusal(f"{w.player} controls {w.about} and chooses, not {a.player}", "targets.group_subset")
    names = tuple(n for n in a.choices if n.lower() != "nothing")
    valid = [o.lower() for o in w.options]
    for name in names:
        if name.lower() not in valid:
            raise Refusal(
                f"{name} is not one of the original targets still at the battlefield ({', '.join(w.options)})",
                "targets.group_subset",
                "targets.group_left",
            )
    if len({n.lower() for n in names}) < len(names):
        raise Refusal("a target is named twice", "targets.group_subset")
    might = sum(max(0, s.might(card(s, n))) for n in names)
    if might > w.total_max:
        raise Refusal(
            f"{', '.join(names) or 'nothing'} {'has' if len(names) == 1 else 'have'} a total Might of {might}, "
            f"more than {w.total_max}",
            "targets.group_subset",
            "targets.group_requirement",
        )
    units = [card(s, o) for o in w.options]
    chosen = {n.lower() for n in names}
    extra = [u.name for u in units if u.name.lower() not in chosen and might + max(0, s.might(u)) <= w.total_max]
    if extra:
        raise Refusal(
            f"{extra[0]} still fits (total Might {might} + {max(0, s.might(card(s, extra[0])))} is "
            f"{w.total_max} or less): the subset affects as many of the original targets as fit",
            "targets.group_subset",
        )
    return Targeting(a.player, w.item, names)


def choose_targets(s: State, a: A.Choose, w: Awaiting) -> Targeting:
    """``P chooses X[, Y]``: a triggered ability's targets, each a valid choice (390.1, 352.8); ``P chooses
    nothing`` for "up to" targets left empty (352.13)."""
    if a.player != w.player:
        raise Refusal(
            f"{w.player} controls {w.about} and chooses its targets, not {a.player}", "trigger.choose_targets"
        )
    names = tuple(n for n in a.choices if n.lower() != "nothing")
    least = w.least or tuple(1 for _ in w.choices)
    most = w.options_most or tuple(1 for _ in w.choices)
    if not sum(least) <= len(names) <= sum(most):
        raise Refusal(
            f"{w.about} takes {sum(least)}{'' if sum(least) == sum(most) else ' to ' + str(sum(most))} "
            f"target(s), {len(names)} named (valid: {'; '.join(', '.join(c) for c in w.choices)})",
            "trigger.choose_targets",
            "play.targets_required",
        )
    i, spare = 0, len(names) - sum(least)
    for valid, lo, hi in zip(w.choices, least, most):
        take = lo + min(hi - lo, spare)
        spare -= take - lo
        seen: list[str] = []
        for name in names[i : i + take]:
            if name.lower() not in [v.lower() for v in valid]:
                raise Refusal(
                    f"{name} is not a valid target for {w.about} (valid: {', '.join(valid)})",
                    "play.target_valid",
                    "trigger.choose_targets",
                )
            if name.lower() in seen:
                raise Refusal(
                    f"{name} is chosen twice for one instruction of {w.about}",
                    "play.targets_chosen_independently",
                    "play.target_valid",
                )
            seen.append(name.lower())
        i += take
    item = next((c for c in s.chain if c.uid == w.item), None)
    if item is not None and names:  # what the names fail only together ("another" than one chosen before)
        chosen_targets(s, item, names, s.cards.get(item.source or "") if item.source else None)
    return Targeting(a.player, w.item, names)


def answer(s: State, a: A.Answer) -> Answering:
    w = s.awaiting
    if w is None or w.kind != "may":
        raise Refusal(
            'nothing is waiting for a yes or no: a player decides a "you may" when it resolves',
            "action.limited_only_when_instructed",
        )
    if a.player != w.player:
        raise Refusal(f"{w.player} decides ({w.about}), not {a.player}", "priority.limited_actions_regardless")
    return Answering(a.player, a.yes)


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
    problem = check_assignment(damage, w.amount, units, s)
    if problem:
        raise Refusal(problem[0], problem[1], "combat.assign")
    return Assigning(a.player, tuple((u.name, damage.get(u.name, 0)) for u in units))


def order(s: State, a: A.Order) -> Ordering:
    """``P orders replacements: A, B`` answers the question an interrupted action stopped at (368)."""
    w = s.awaiting
    if w is None or w.kind != "order" or s.suspended is None:
        raise Refusal(
            "no replacement effects are waiting to be ordered: a player orders them only when several "
            "apply to the same event",
            "action.limited_only_when_instructed",
            "replacement.owner_orders",
        )
    who = {
        "replacement.owner_orders": "who owns the object acted on",
        "replacement.player_orders": "the player acted on",
        "replacement.turn_player_orders_battlefield": "the Turn Player, for an uncontrolled battlefield",
    }[w.reason]
    if a.player != w.player:
        raise Refusal(
            f"{w.player}, {who}, decides the order of the replacement effects ({w.about}), not {a.player}", w.reason
        )
    chosen = tuple(card(s, n).name for n in a.sources)
    if sorted(o.lower() for o in chosen) != sorted(o.lower() for o in w.options):
        raise Refusal(
            f"the order must name each replacement effect that applies once: {', '.join(w.options)}", w.reason
        )
    return Ordering(a.player, chosen)


# -- combat damage assignment (443.1.d) ------------------------------------------------------------------
def lethal(u: Card, s: State | None = None) -> int:
    return max(1, (s.might(u) if s is not None else might(u)) - u.damage)


def _tank(u: Card, s: State | None) -> bool:
    return s.has(u, "Tank") if s is not None else u.has("Tank")


def _last(u: Card) -> bool:
    """ "I must be assigned combat damage last" (a passive ability; Tank's opposite)."""
    return any(p[0] == "assigned_last" for p in u.defn.passives)


def assignments(total: int, targets: list[Card], s: State | None = None) -> list[dict[str, int]]:
    """Every assignment of ``total`` damage among ``targets`` that 443.1.d.3-4 and Tank allow."""
    if total <= 0 or not targets:
        return [{}]
    if sum(lethal(u, s) for u in targets) <= total:
        # Every unit gets lethal damage; where the excess goes changes nothing that matters.
        out = {u.name: lethal(u, s) for u in targets}
        out[targets[-1].name] += total - sum(out.values())
        return [out]
    tanks = [u for u in targets if _tank(u, s)]
    lasts = [u for u in targets if _last(u) and not _tank(u, s)]
    others = [u for u in targets if not _tank(u, s) and u not in lasts]
    seen: list[dict[str, int]] = []
    if len(targets) > 7:  # too many orders to list: any order of the tanks, then the rest, in listed order
        orders = [tanks + others + lasts]
    else:
        orders = [
            list(a) + list(b) + list(c)
            for a in itertools.permutations(tanks)
            for b in itertools.permutations(others)
            for c in itertools.permutations(lasts)
        ]
    for order_ in orders:
        left, out = total, {u.name: 0 for u in targets}
        for u in order_:
            give = min(left, lethal(u, s))
            out[u.name] = give
            left -= give
            if left == 0:
                break
        if out not in seen:
            seen.append(out)
    return seen


def check_assignment(
    damage: dict[str, int], total: int, targets: list[Card], s: State | None = None
) -> tuple[str, str] | None:
    """Why ``damage`` breaks the assignment rules, as (message, citation key), or None when it is allowed."""
    names = {u.name.lower(): u for u in targets}
    for name in damage:
        if name.lower() not in names:
            return (
                f"{name} is not one of the units to assign damage to ({', '.join(u.name for u in targets)})",
                "combat.assign",
            )
    if sum(damage.values()) != total:
        return f"the damage to assign is {total}, not {sum(damage.values())}", "combat.assign"
    given = {u.name: next((v for k, v in damage.items() if k.lower() == u.name.lower()), 0) for u in targets}
    short = [u for u in targets if given[u.name] < lethal(u, s)]
    if len([u for u in short if given[u.name] > 0]) > 1:
        return (
            "a unit must be assigned lethal damage in full before damage is assigned to another",
            "combat.lethal_before_next",
        )
    if short and any(given[u.name] > lethal(u, s) for u in targets):
        return (
            "no unit may be assigned more than lethal damage while another unit has less than lethal",
            "combat.no_excess_before_all_lethal",
        )
    tanks = [u for u in targets if _tank(u, s)]
    if any(given[u.name] < lethal(u, s) for u in tanks) and any(given[u.name] > 0 for u in targets if not _tank(u, s)):
        return "units with Tank must be assigned lethal damage before any other unit", "combat.tank_first"
    lasts = [u for u in targets if _last(u) and not _tank(u, s)]
    if any(given[u.name] > 0 for u in lasts) and any(
        given[u.name] < lethal(u, s) for u in targets if u not in lasts and not _tank(u, s)
    ):
        return (
            f"{', '.join(u.name for u in lasts)} must be assigned combat damage last (its passive ability): every "
            "other unit is assigned lethal damage first",
            "combat.assign",
        )
    return None
