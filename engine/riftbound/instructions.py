"""Carrying out the instructions of a spell or ability as it resolves (154, 356.3, 394.5), top to bottom.

Targets chosen as the item was put on the Chain are checked again: one no longer legal is unaffected, an
instruction whose every target is gone is not executed, the rest is done as far as possible (356.3.e, 055).
"it" is the object an earlier instruction chose or acted on; information about an object that left the
board is null (356.3.e.12), except what an instruction that moved it can look back at (356.3.e.13).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field, replace
from typing import Any, TypeVar

from engine.core import EngineError
from engine.riftbound import board, costs, effects, legality, replacement, triggers
from engine.riftbound import citekeys as K
from engine.riftbound.effect_types import Condition
from engine.riftbound.effects import Instruction
from engine.riftbound.legality import Chosen
from engine.riftbound.state import Awaiting, Battlefield, Card, ChainItem, Game


@dataclass
class Context:
    item: ChainItem
    source: Card | None
    groups: list[list[Chosen]]  # the chosen targets of each choosing instruction, in order
    next_group: int = 0
    it: Card | None = None  # what "it" / "its" refers to
    it_might: int | None = None  # "its Might" of a unit killed by this effect (looked back at, 356.3.e.13)
    did: bool = True  # whether the last instruction did what it says ("if you do")
    chosen: list[Card] = field(default_factory=list)  # every object chosen so far ("they")
    destination: str | None = None
    looked: list[str | None] | None = None  # the Main Deck cards looked at or revealed (top first; None: unnamed)
    unit_here: bool = False  # "If it's a unit, play it here": where a unit this effect plays goes
    met: bool | None = None  # whether the last "if CONDITION" held ("otherwise" is done when it did not)
    there: str | None = None  # the battlefield the effect chose ("there": "choose a battlefield. ... there")
    each: Card | None = None  # "for each friendly unit, ...": the one its instructions are being done for
    player: str | None = None  # "choose an opponent. They reveal their hand": the player chosen
    picked: Card | None = None  # "choose a card from it, and they discard that card": the card chosen
    picks: dict[str, str] = field(default_factory=dict)  # "each other player chooses cards or runes": player -> word
    dealer: Card | None = None  # "it deals damage equal to its Might to ...": "it" as the instruction began
    watched: list[tuple[str, str, int, str, str]] = field(default_factory=list)  # delayed triggers this effect set


def groups_of(item: ChainItem) -> list[list[Chosen]]:
    slots = list(item.slots) or [i.aim.count for i in effects.chosen(effects.parse(item.effect))] * (
        2 if "Repeat" in item.paid else 1
    )
    out, i = [], 0
    for n in slots:
        out.append(list(item.targets[i : i + n]))
        i += n
    return out


def _choice(
    item: ChainItem, who: str, options: tuple | list, what: str, reason: str, message: str, keys: tuple[str, ...]
) -> replacement.Pause:
    """The pause for a choice the rules leave to ``who`` as ``item`` resolves (``P chooses X``): not a target."""
    return replacement.Pause(
        Awaiting("choice", who, tuple(options), about=item.label, item=item.uid, what=what, reason=reason),
        message,
        keys,
    )


def execute(g: Game, item: ChainItem) -> None:
    """Carry out ``item``'s instructions, top to bottom; with Repeat paid, all of them once more (746.1.d)."""
    s = g.s
    source = s.cards.get(item.source or "") if item.source else None
    ctx = Context(item, source, groups_of(item))
    ctx.unit_here = any(i.verb == "unit_here" for i in effects._walk(effects.parse(item.effect)))
    first = dict(item.noted).get("it")
    if item.kind == "trigger" and first is not None and first in s.cards and "reflexive" not in item.label:
        ctx.it = s.cards[first]  # the object the trigger's condition names ("when a unit moves from here, ... it")
    times = 2 if "Repeat" in item.paid else 1
    for n in range(times):
        if n:
            g.emit(f"{item.label}: Repeat was paid: its instructions are executed one additional time", K.REPEAT_AGAIN)
        run(g, ctx, effects.parse(item.effect))


def base_keys(item: ChainItem) -> tuple[str, ...]:
    return (K.PLAY_SPELL_EXECUTES,) if item.kind == "spell" else (K.ABILITY_EXECUTES_LIKE_SPELL,)


def run(g: Game, ctx: Context, instructions: tuple[Instruction, ...]) -> None:
    for ins in instructions:
        one(g, ctx, ins)
        if g.s.winner:
            return


# --- what each verb does: registries of small functions, one per verb, filled by the decorators below -----------
# A new verb is one function and one decorator line; a verb has one step (``_registers`` refuses a second).
# ``one`` looks a verb up in STEERS, then BEFORE_TARGETS, finds its targets, and ``apply`` looks it up in CARRIES,
# else does it to each target: a spell on the Chain with ON_EACH_SPELL, a card with ON_EACH_CARD ("it" is that card).
Steer = Callable[[Game, Context, Instruction], None]
Before = Callable[[Game, Context, Instruction, tuple[str, ...]], Instruction | None]
Carry = Callable[[Game, Context, Instruction, list, tuple[str, ...]], None]
OnCard = Callable[[Game, Context, Instruction, Card, tuple[str, ...]], None]
OnSpell = Callable[[Game, Context, Instruction, ChainItem, tuple[str, ...]], None]

STEERS: dict[str, Steer] = {}  # govern the instructions they hold ("if you do", "may"): no targets of their own
BEFORE_TARGETS: dict[str, Before] = {}  # read before the targets are found: the instruction to do, None: not done
CARRIES: dict[str, Carry] = {}  # done once, given the targets found ([None] when it has none)
ON_EACH_CARD: dict[str, OnCard] = {}  # done to each target that is a card
ON_EACH_SPELL: dict[str, OnSpell] = {}  # done to each target that is a spell on the Chain

_F = TypeVar("_F", bound=Callable[..., Any])


def _registers(table: dict[str, _F], verbs: tuple[str, ...], apart: tuple[dict[str, Any], ...]) -> Callable[[_F], _F]:
    def register(fn: _F) -> _F:
        for v in verbs:
            assert not any(v in t for t in apart), f"{v!r} has a step already"
            table[v] = fn
        return fn

    return register


def _steps() -> tuple[dict[str, Any], ...]:
    return (STEERS, CARRIES, ON_EACH_CARD, ON_EACH_SPELL)


def steers(*verbs: str) -> Callable[[Steer], Steer]:
    """Register the step of instructions that govern others (done instead of finding targets)."""
    return _registers(STEERS, verbs, _steps())


def before_targets(*verbs: str) -> Callable[[Before], Before]:
    """Register what a verb reads before its targets are found (a verb's step is registered apart)."""
    return _registers(BEFORE_TARGETS, verbs, (BEFORE_TARGETS,))


def carries(*verbs: str) -> Callable[[Carry], Carry]:
    """Register the step of a verb done once, given its targets."""
    return _registers(CARRIES, verbs, _steps())


def on_each_card(*verbs: str) -> Callable[[OnCard], OnCard]:
    """Register the step of a verb done to each card it targets."""
    return _registers(ON_EACH_CARD, verbs, _steps())


def on_each_spell(*verbs: str) -> Callable[[OnSpell], OnSpell]:
    """Register the step of a verb done to each spell on the Chain it targets."""
    return _registers(ON_EACH_SPELL, verbs, _steps())


def carried() -> frozenset[str]:
    """Every verb with a step here (the card-text reader makes no other)."""
    return frozenset().union(*_steps())


def one(g: Game, ctx: Context, ins: Instruction) -> None:
    steer = STEERS.get(ins.verb)
    if steer is not None:
        steer(g, ctx, ins)
        return
    keys = base_keys(ctx.item)
    before = BEFORE_TARGETS.get(ins.verb)
    if before is not None:
        found = before(g, ctx, ins, keys)
        if found is None:
            return
        ins = found
    targets = _targets(g, ctx, ins)
    if targets is None:
        ctx.did = False
        return
    ctx.did = True
    apply(g, ctx, ins, targets, keys)


@steers("ifdo")
def _steer_ifdo(g: Game, ctx: Context, ins: Instruction) -> None:
    item = ctx.item
    keys = base_keys(item)
    if ctx.did:
        run(g, ctx, ins.body)
    else:
        null = any(i.verb == "might_of_it" for i in ins.body)
        g.emit(
            f'{item.label}: the instruction before "if you do" was not done: what follows it is not'
            + ('; no unit was killed, so "its Might" has no value anyway' if null else ""),
            *keys,
            K.TEXT_DO_WHAT_YOU_CAN,
            *((K.PLAY_NULL_INFORMATION,) if null else ()),
        )


@steers("cost_to")
def _steer_cost_to(g: Game, ctx: Context, ins: Instruction) -> None:
    # "recycle me to ready your runes": the rest only if the cost is paid (352.10.c.1)
    ctx.did = _pay_inline(g, ctx, ins.data[0])
    if ctx.did:
        run(g, ctx, ins.body)


@steers("for_pick")
def _steer_for_pick(g: Game, ctx: Context, ins: Instruction) -> None:
    # "for each player that chooses cards, you and that player each draw 1"
    for p in g.s.in_turn_order(g.s.players):
        if ctx.picks.get(p) != ins.data[0]:
            continue
        for who in (ctx.item.controller, p):
            g.emit(f'{ctx.item.label}: {p} chose {ins.data[0]}: {who} does "{ins.body[0].text}"', *base_keys(ctx.item))
            run(g, replace(ctx, item=replace(ctx.item, controller=who)), ins.body)


@steers("both")
def _steer_both(g: Game, ctx: Context, ins: Instruction) -> None:
    # "give friendly units there +1 [M] this turn and enemy units there -1 [M] this turn"
    run(g, ctx, ins.body)


@before_targets("deal_might", "deal_cost", "might_to")
def _before_dealer(g: Game, ctx: Context, ins: Instruction, keys: tuple[str, ...]) -> Instruction | None:
    if "it" in ins.data:
        ctx.dealer = ctx.it  # before its own target becomes "it"
    return ins


@before_targets("move")
def _before_move(g: Game, ctx: Context, ins: Instruction, keys: tuple[str, ...]) -> Instruction | None:
    if ins.place != "there":
        return ins
    # "to that enemy unit's battlefield": where the unit acted on is now
    item = ctx.item
    there = ctx.it.location if ctx.it is not None and ctx.it.on_board else None
    if there is None:
        g.emit(f"{item.label}: that unit is no longer on the board: nothing moves", *keys, K.PLAY_NULL_INFORMATION)
        ctx.did = False
        return None
    return Instruction(ins.verb, ins.amount, ins.target, there, ins.data, ins.body, ins.times, ins.text)


def _targets(g: Game, ctx: Context, ins: Instruction) -> list[Card | ChainItem | None] | None:
    """The objects ``ins`` acts on now, or None when it is not executed (no legal target left)."""
    s, item = g.s, ctx.item
    if ins.target is None:
        return [None]
    kind = ins.target.kind
    if kind == "me":
        if ctx.source is None and item.kind == "spell" and item.card is not None:  # "banish this": the spell (053.2)
            spell = s.cards[item.card]
            if spell.zone == "chain":
                g.emit(f'{item.label}: "this" is the spell itself', *base_keys(item), K.TEXT_SPELL_THIS)
                return [spell]
        if ctx.source is None or not (ctx.source.on_board or ctx.source.zone == "legend"):
            g.emit(
                f"{item.label}: its source is no longer on the board; the instruction is ignored",
                *base_keys(item),
                K.PLAY_ILLEGAL_TARGETS_UNAFFECTED,
            )
            return None
        return [ctx.source]
    if kind == "it":
        if ctx.it is None:
            g.emit(
                f'{item.label}: there is no "it" to {ins.verb}: the instruction is ignored',
                *base_keys(item),
                K.PLAY_NULL_INFORMATION,
            )
            return None
        return [ctx.it]
    if kind == "they":
        return list(ctx.chosen)
    if kind == "that":
        return [ctx.it]
    if ("all", True) in ins.target.filters:
        return _every(g, ctx, ins)
    if not ins.chooses:
        return [None]
    group = ctx.groups[ctx.next_group] if ctx.next_group < len(ctx.groups) else []
    ctx.next_group += 1
    if not group:
        if ins.aim.upto:
            g.emit(
                f'{item.label}: no target was chosen for "{ins.text or ins.verb}" (up to {ins.aim.upto}): nothing '
                "to do",
                *base_keys(item),
                K.PLAY_UP_TO_ZERO,
            )
        else:
            g.emit(
                f'{item.label}: no target was chosen for "{ins.verb}": the instruction is not executed',
                *base_keys(item),
                K.PLAY_NO_TARGETS_NO_INSTRUCTION,
            )
        return None
    out: list[Card | ChainItem | None] = []
    for kind_, key, epoch in group:
        if kind_ == "battlefield":
            out.append(s.bf(key))  # type: ignore[arg-type]
            ctx.there = key
            continue
        if kind_ == "spell":
            found = next((i for i in s.chain if str(i.uid) == key), None)
            if found is None:
                g.emit(
                    f"{item.label}: its target spell is no longer on the Chain and is unaffected",
                    K.PLAY_RESOLVES_WITH_ILLEGAL_TARGETS,
                    K.PLAY_ILLEGAL_TARGETS_UNAFFECTED,
                )
                continue
            out.append(found)
            continue
        unit = s.cards[key]
        problem = None
        if s.epochs.get(key, 0) != epoch:
            problem = "it changed zones and is a new object"
        else:
            found_problem = legality.target_problem(
                s, item.controller, ins, unit, item.hidden_at, ctx.source, item.noted
            )
            problem = found_problem and found_problem[0]
        if not problem and ("same_place", True) in ins.aim.filters:  # "... at the same battlefield" (352.11)
            other = ctx.chosen[-1] if ctx.chosen else None
            if other is None or not other.on_board or (other.location or "").lower() != (unit.location or "").lower():
                problem = "it is no longer at the same battlefield as the other unit chosen with it"
        if problem:
            g.emit(
                f"{unit.name} is no longer a legal target ({problem}): it is unaffected by {item.label}",
                K.PLAY_RESOLVES_WITH_ILLEGAL_TARGETS,
                K.PLAY_ILLEGAL_TARGETS_UNAFFECTED,
                *((K.PLAY_SOME_TARGETS_LEFT,) if len(group) > 1 else ()),
            )
            continue
        out.append(unit)
        ctx.chosen.append(unit)
        ctx.it = unit
    if dict(ins.aim.filters).get("total_might") is not None:
        out = _group_subset(g, ctx, ins, out)
    if not out:
        if len(group) > 1 or ins.aim.count > 1:
            g.emit(
                f'{item.label}: none of the targets of "{ins.text or ins.verb}" is legal: it is not executed',
                K.PLAY_NO_TARGETS_NO_INSTRUCTION,
            )
        return None
    return out


def _every(g: Game, ctx: Context, ins: Instruction) -> list[Card | ChainItem | None] | None:
    """ "Buff all other friendly units there", "stun enemy units here": every object that fits as it resolves;
    none is chosen, so none is a target (352.10.d). ``there``: the battlefield the effect chose, else the place
    its trigger noted."""
    s, item = g.s, ctx.item
    noted = item.noted + ((("there", ctx.there),) if ctx.there else ())
    fit = [
        c
        for c in s.cards.values()
        if legality.target_problem(s, item.controller, ins, c, item.hidden_at, ctx.source, noted) is None
    ]
    g.emit(
        f'{item.label}: "{ins.text}": {", ".join(c.name for c in fit) or "nothing fits"} (the objects are not '
        "chosen: none is a target)",
        *base_keys(item),
        K.TARGETS_PROGRAMMATIC,
    )
    if not fit:
        return None
    ctx.chosen.extend(fit)
    return list(fit)


def _chosen_player(g: Game, ctx: Context, ins: Instruction, keys: tuple[str, ...]) -> str | None:
    """The player "choose an opponent" chose before, or None (said: the instruction is not done)."""
    item = ctx.item
    who = ctx.player
    if who is None:
        g.emit(f'{item.label}: no player was chosen: "{ins.text}" is not done', *keys, K.PLAY_NULL_INFORMATION)
        ctx.did = False
    return who


@carries("choose_opponent")
def _do_choose_opponent(g: Game, ctx: Context, ins: Instruction, targets: list, keys: tuple[str, ...]) -> None:
    """ "Choose an opponent. They reveal their hand. Choose a non-unit card from it, and they recycle that card."
    The opponent is a player the effect names (352.8.a): the only one, or the one its controller names as it
    resolves; the card is chosen as it resolves from a hand, a zone that is not public, so it is no target
    (352.10.a); what is done to it, its owner does."""
    s, item, me = g.s, ctx.item, ctx.item.controller
    options = s.opponents(me)
    if len(options) == 1:
        ctx.player = options[0]
        g.emit(f"{item.label}: {me} chooses {options[0]}, their only opponent", *keys, K.PLAY_TARGET_VALID)
        return
    answer = g.next_answer()
    if answer is None:
        raise replacement.Pause(
            Awaiting("choice", me, tuple(options), about=item.label, item=item.uid, what="an opponent"),
            f'{item.label}: {me} chooses an opponent ({", ".join(options)}; "{me} chooses {options[0]}")',
            (K.PLAY_TARGET_VALID, K.PRIORITY_LIMITED_ACTIONS_REGARDLESS),
        )
    ctx.player = next(p for p in options if p.lower() == answer[0].lower())
    g.emit(f"{item.label}: {me} chooses {ctx.player}", *keys, K.PLAY_TARGET_VALID)


@carries("reveal_hand")
def _do_reveal_hand(g: Game, ctx: Context, ins: Instruction, targets: list, keys: tuple[str, ...]) -> None:
    s, item = g.s, ctx.item
    who = _chosen_player(g, ctx, ins, keys)
    if who is None:
        return
    named = s.hand(who)
    unnamed = s.hand_unnamed.get(who, 0)
    g.emit(
        f"{item.label}: {who} reveals their hand: {', '.join(c.name for c in named) or 'no card named'}"
        + (f", and {unnamed} card(s) the scenario does not name (they cannot be chosen by name)" if unnamed else "")
        + "; the cards stay in the hand",
        *keys,
        K.REVEAL_PRESENTS,
        K.REVEAL_STAYS_IN_ZONE,
    )


@carries("choose_card")
def _do_choose_card(g: Game, ctx: Context, ins: Instruction, targets: list, keys: tuple[str, ...]) -> None:
    s, item, me = g.s, ctx.item, ctx.item.controller
    who = _chosen_player(g, ctx, ins, keys)
    if who is None:
        return
    banned = {str(t) for k, t in ins.aim.filters if k == "not_type"}
    in_hand = [c for c in s.hand(who) if c.defn.type != "undefined" and c.defn.type not in banned]
    if not in_hand:
        g.emit(f"{item.label}: {who}'s hand has no card {me} can choose: nothing is chosen", *keys)
        ctx.picked, ctx.did = None, False
        return
    if len(in_hand) == 1:
        ctx.picked = in_hand[0]
    else:
        answer = g.next_answer()
        if answer is None:
            raise _choice(
                item,
                me,
                tuple(c.name for c in in_hand),
                f"a card from {who}'s hand",
                K.CHOICE_NOT_TARGET_PRIVATE,
                f"{item.label}: {me} chooses a card from {who}'s hand ({', '.join(c.name for c in in_hand)}; "
                f'"{me} chooses {in_hand[0].name}"; not a target: a hand is not public)',
                (K.CHOICE_NOT_TARGET_PRIVATE, K.PRIORITY_LIMITED_ACTIONS_REGARDLESS),
            )
        ctx.picked = next(c for c in in_hand if c.name.lower() == answer[0].lower())
    g.emit(
        f"{item.label}: {me} chooses {ctx.picked.name} from {who}'s hand (not a target: a hand is not public)",
        *keys,
        K.CHOICE_NOT_TARGET_PRIVATE,
    )


@carries("they_do")
def _do_they_do(g: Game, ctx: Context, ins: Instruction, targets: list, keys: tuple[str, ...]) -> None:
    item = ctx.item
    if _chosen_player(g, ctx, ins, keys) is None:
        return
    card = ctx.picked
    if card is None or card.zone != "hand":
        g.emit(f'{item.label}: no card was chosen: "{ins.text}" is not done', *keys, K.PLAY_NULL_INFORMATION)
        ctx.did = False
        return
    if ins.data[0] == "discard":
        board.discard(g, card.owner, 1, *keys, cards=[card])
    else:
        board.recycle_cards(g, [card], *keys)


@steers("for_each")
def _for_each(g: Game, ctx: Context, ins: Instruction) -> None:
    """ "For each friendly unit, you may spend its buff to ready it": the instructions once for each object that
    fits as it resolves, in board order, ``it`` being that one (none is chosen, so none is a target)."""
    fit = _every(g, ctx, ins) or []
    for obj in fit:
        if isinstance(obj, Card):
            ctx.it, ctx.each = obj, obj
            run(g, ctx, ins.body)
    ctx.each = None


def _group_subset(g: Game, ctx: Context, ins: Instruction, out: list) -> list:
    """A group requirement checked again as the spell resolves (352.11.b): units no longer at the chosen
    battlefield are not affected; if the rest no longer fulfil it together, the controller chooses a subset of
    them that does (``P chooses X, Y``)."""
    s, item = g.s, ctx.item
    total = int(dict(ins.aim.filters)["total_might"])  # type: ignore[call-overload]
    at = dict(item.noted).get("group_at")
    units = [u for u in out if isinstance(u, Card)]
    left = [u for u in units if at is not None and (u.location or "").lower() != at.lower()]
    for u in left:
        g.emit(f"{u.name} is no longer at {at}: {item.label} cannot affect it", K.TARGETS_GROUP_LEFT)
    units = [u for u in units if u not in left]
    might = sum(max(0, s.might(u)) for u in units)
    if might <= total:
        if left or len(units) < len(out):
            g.emit(
                f"{', '.join(u.name for u in units) or 'none'}: total Might {might}, still {total} or less",
                K.TARGETS_GROUP_REQUIREMENT,
            )
        kept = units
    elif len(options := legality.group_subsets(s, units, total)) == 1:
        kept = list(options[0])
        g.emit(
            f"{item.label}: its targets ({', '.join(f'{u.name} {s.might(u)}' for u in units)}) have a total Might of "
            f"{might}, more than {total}: "
            + (
                f"only {', '.join(u.name for u in kept)} (total Might "
                f"{sum(max(0, s.might(u)) for u in kept)}) can be affected"
                if kept
                else "no subset of them fits: it affects none"
            ),
            K.TARGETS_GROUP_SUBSET,
            K.TARGETS_GROUP_REQUIREMENT,
        )
    else:
        answer = g.next_answer()
        if answer is None:
            raise replacement.Pause(
                Awaiting(
                    "subset",
                    item.controller,
                    tuple(u.name for u in units),
                    about=item.label,
                    item=item.uid,
                    total_max=total,
                ),
                f"{item.label}: its targets ({', '.join(f'{u.name} {s.might(u)}' for u in units)}) have a total Might of "
                f"{might}, more than {total}: {item.controller} chooses those of them it affects, with a total of {total} "
                f'or less ("{item.controller} chooses {units[0].name}, ...")',
                (K.TARGETS_GROUP_SUBSET, K.TARGETS_GROUP_REQUIREMENT, K.PRIORITY_LIMITED_ACTIONS_REGARDLESS),
            )
        names = {n.lower() for n in answer if n.lower() != "nothing"}
        kept = [u for u in units if u.name.lower() in names]
        g.emit(
            f"{item.controller} chooses {', '.join(u.name for u in kept) or 'none'} (total Might "
            f"{sum(max(0, s.might(u)) for u in kept)}): {item.label} affects only them",
            K.TARGETS_GROUP_SUBSET,
        )
    ctx.chosen = [c for c in ctx.chosen if c not in units and c not in left or c in kept]
    ctx.it = kept[-1] if kept else None
    return kept


@steers("unless")
def _unless(g: Game, ctx: Context, ins: Instruction) -> None:
    """ "Deal 6 to it unless its controller has you draw 2": the controller of the object ``it`` names chooses as
    it resolves which of the two is done (a limited choice the rules wait for: ``P chooses draw 2``)."""
    item = ctx.item
    done, instead = ins.body
    who = ctx.it.controller if ctx.it is not None and ctx.it.on_board else None
    if who is None:
        g.emit(f'{item.label}: there is no unit whose controller would choose: "{done.text}" is done', *base_keys(item))
        run(g, ctx, (done,))
        return
    options = (done.text, f"{item.controller} draws {instead.amount}")  # "has you draw 2" (the reader checks)
    answer = g.next_answer()
    if answer is None:
        raise _choice(
            item,
            who,
            options,
            "one of them",
            K.PRIORITY_LIMITED_ACTIONS_REGARDLESS,
            f'{item.label}: {who} chooses: "{options[0]}", unless they have {item.controller} draw {instead.amount} '
            f'("{who} chooses {options[1]}")',
            (K.PRIORITY_LIMITED_ACTIONS_REGARDLESS,),
        )
    chose = answer[0].lower()
    g.emit(
        f'{who} chooses "{options[1] if chose == options[1].lower() else options[0]}"',
        *base_keys(item),
        K.PRIORITY_LIMITED_ACTIONS_REGARDLESS,
    )
    if chose == options[1].lower():
        ctx.next_group += len(effects.chosen((done,)))
        run(g, ctx, (instead,))
    else:
        run(g, ctx, (done,))


@steers("either")
def _either(g: Game, ctx: Context, ins: Instruction) -> None:
    """ "Draw 1 or channel 1 rune exhausted": its controller chooses one as it resolves (a limited choice the
    rules wait for, ``P chooses draw 1``; nothing is targeted)."""
    item = ctx.item
    options = tuple(i.text for i in ins.body)
    answer = g.next_answer()
    if answer is None:
        raise _choice(
            item,
            item.controller,
            options,
            "one of them",
            K.PRIORITY_LIMITED_ACTIONS_REGARDLESS,
            f'{item.label}: {item.controller} chooses one: {" or ".join(options)} ("{item.controller} chooses '
            f'{options[0]}")',
            (K.PRIORITY_LIMITED_ACTIONS_REGARDLESS,),
        )
    chosen = next(i for i in ins.body if i.text.lower() == answer[0].lower())
    g.emit(f'{item.controller} chooses "{chosen.text}"', *base_keys(item), K.PRIORITY_LIMITED_ACTIONS_REGARDLESS)
    run(g, ctx, (chosen,))


@steers("if", "otherwise")
def _conditional(g: Game, ctx: Context, ins: Instruction) -> None:
    """ "If CONDITION, EFFECT" (and "Otherwise, EFFECT" after it): the condition is checked as the instruction
    resolves, top to bottom with the rest of the text; what it governs is done only when it holds. Targets
    its instructions chose as the item was put on the Chain are not used when it does not."""
    item = ctx.item
    keys = base_keys(item)
    if ins.verb == "otherwise":
        if ctx.met is None:
            raise EngineError(f'{item.label}: "otherwise" without an "if" before it')
        met, why = not ctx.met, "the condition before it did not hold" if not ctx.met else "the condition held"
        said = f'"{ins.text}": {why}'
    elif ins.data[0].kind == "failed":  # "if you can't": the instruction before it was not done in full
        met = not ctx.did
        ctx.met = met
        why = "the instruction before it was not done in full" if met else "the instruction before it was done"
        said = f'"if {ins.data[0].text}": {why}'
    else:
        cond: Condition = ins.data[0]
        met, why = holds(g, ctx, cond)
        ctx.met = met
        said = f'"if {cond.text}": {why}'
    if met:
        g.emit(f"{item.label}: {said}: what it governs is done", *keys)
        run(g, ctx, ins.body)
        return
    g.emit(f"{item.label}: {said}: what it governs is not done", *keys)
    ctx.next_group += len(effects.chosen(ins.body))
    ctx.did = False


def holds(g: Game, ctx: Context, cond: Condition) -> tuple[bool, str]:
    """Whether ``cond`` holds now for ``ctx``'s item, and why, in words."""
    return legality.condition_holds(g.s, ctx.item.controller, ctx.source, ctx.it, cond, ctx.item)


@steers("may")
def _may(g: Game, ctx: Context, ins: Instruction) -> None:
    """ "You may ...": the controller decides as it resolves (a limited choice the rules wait for). A triggered
    ability that begins with it was decided as it triggered under v1.3, its cost paid as it was finalized
    (383.3.a, 383.3.b): it is done now without asking or paying."""
    item = ctx.item
    if item.taken:
        item.taken = False
        g.emit(
            f'{item.controller} chose to place {item.label} on the Chain: "{ins.text}" is done',
            K.TRIGGER_OPTIONAL_WHEN_TRIGGERED,
            *((K.TRIGGER_COST_WHEN_FINALIZED,) if ins.data else ()),
        )
        run(g, ctx, ins.body)
        ctx.did = True
        return
    cost = ins.data[0] if ins.data else ""
    about = f"{item.label}: {ins.text}" + (f" ({ctx.each.name})" if ctx.each is not None else "")
    yes = ask(g, item.controller, about)
    if not yes:
        ctx.did = False
        g.emit(f'{item.controller} declines: "{ins.text}" is not done', K.PRIORITY_LIMITED_ACTIONS_REGARDLESS)
        return
    g.emit(f'{item.controller} chooses to: "{ins.text}"', K.PRIORITY_LIMITED_ACTIONS_REGARDLESS)
    if cost:
        if not _pay_inline(g, ctx, cost):
            ctx.did = False
            return
    run(g, ctx, ins.body)
    ctx.did = True


@steers("legion")
def _legion(g: Game, ctx: Context, ins: Instruction) -> None:
    """Legion (738): on a spell or a permanent's play effect, "if you have played another Main Deck card before
    this one already this turn"; on other abilities, "if you have played a Main Deck card this turn"."""
    s, item = g.s, ctx.item
    own = item.card if item.kind == "spell" else item.source if item.label.endswith("(play)") else None
    key = K.LEGION_ON_PLAY if own is not None else K.LEGION_OTHER
    another = g.citations.follows(K.LEGION_ANOTHER_CARD)
    if another:  # v1.3 (812.1.c): a card other than the one with Legion, on every ability, the card's own too
        own = item.card if item.kind == "spell" else item.source
    played = [k for k, is_card in s.played.get(item.controller, []) if is_card and k != own]
    if another:  # a spell counts once finalized (812.1.c), still on the Chain or not
        played += [
            i.card
            for i in s.chain
            if i.kind == "spell" and not i.pending and i.card not in (None, own) and i.controller == item.controller
        ]
    if played:
        g.emit(
            f"{item.label}: Legion: {item.controller} has played "
            + ("another card" if another else "a Main Deck card" + (" before this one" if own else ""))
            + ' this turn: "'
            + ins.text.split("-", 1)[1].strip()
            + '" applies',
            key,
            *((K.LEGION_ANOTHER_CARD,) if another else ()),
        )
        if "instead" in ins.data and ctx.watched:  # "Kill it now instead": not the delayed ability set up before
            for watch in ctx.watched:
                if watch in s.damage_watch:
                    s.damage_watch.remove(watch)
            g.emit(
                f'{item.label}: "{ins.body[0].text}" now, instead of the delayed ability set up before it',
                key,
                K.DELAYED_TRIGGER,
            )
            ctx.watched.clear()
        run(g, ctx, ins.body)
        return
    mine = [k for k, is_card in s.played.get(item.controller, []) if is_card and k == own]
    if another and mine and key == K.LEGION_OTHER:
        g.emit(
            f"{item.label}: Legion: the only card {item.controller} has played this turn is "
            f"{s.cards[mine[0]].name}, the card with Legion: v1.3 wants another card; its Legion text does not apply",
            key,
            K.LEGION_ANOTHER_CARD,
        )
        ctx.next_group += len(effects.chosen(ins.body))
        return
    hid = [c.name for c in s.cards.values() if c.hidden_turn == s.turn_number and c.controller == item.controller]
    tokens = [k for k, is_card in s.played.get(item.controller, []) if not is_card]
    why = []
    if tokens:
        why.append("a token is not a card")
    if hid:
        why.append("hiding a card is not playing it")
    g.emit(
        f"{item.label}: Legion: {item.controller} has not played "
        + ("another card" if another else "a Main Deck card" + (" before this one" if own else ""))
        + " this turn"
        + (f" ({'; '.join(why)})" if why else "")
        + ": its Legion text does not apply",
        key,
        *((K.TOKEN_NOT_CARD,) if tokens else ()),
        *((K.HIDE_NOT_PLAY,) if hid else ()),
        *((K.LEGION_ANOTHER_CARD,) if another else ()),
    )
    ctx.next_group += len(effects.chosen(ins.body))


def ask(g: Game, player: str, about: str) -> bool:
    answer = g.next_answer()
    if answer is None:
        raise replacement.Pause(
            Awaiting("may", player, ("yes", "no"), about=about),
            f'{about}: {player} decides ("{player} accepts" or "{player} declines")',
            (K.PRIORITY_LIMITED_ACTIONS_REGARDLESS,),
        )
    return answer == ("yes",)


def pay_trigger_cost(g: Game, item: ChainItem) -> bool:
    """v1.3 (383.3.b, 742.1.b): the cost within the instructions of a triggered ability its controller chose to
    place on the Chain ("you may pay [C] to ...") is paid as it is finalized; one that cannot be paid removes it.
    True when there was nothing to pay or it was paid."""
    first = effects.parse(item.effect)[:1]
    if not item.taken or not first or first[0].verb != "may" or not first[0].data:
        return True
    source = g.s.cards.get(item.source or "") if item.source else None
    ctx = Context(item, source, groups_of(item))
    cost = first[0].data[0]
    g.emit(f'{item.label} is finalized: {item.controller} pays its cost, "{cost}"', K.TRIGGER_COST_WHEN_FINALIZED)
    return _pay_inline(g, ctx, cost)


def _pay_inline(g: Game, ctx: Context, cost: str) -> bool:
    """A cost inside an instruction ("you may pay [C] to ...", "you may exhaust me to ...", 352.10.c.1)."""
    s, item = g.s, ctx.item
    if cost.startswith("pay ") and cost.endswith((" and exhaust me", " and exhaust this")):
        # "you may pay [C] and exhaust this to ...": both parts or neither (each must be able to be paid)
        pay, _, _ = cost.partition(" and exhaust ")
        if ctx.source is None or ctx.source.exhausted:
            g.emit(
                f"{item.label}: its source cannot be exhausted to pay: nothing more is done",
                K.EXHAUST_COST_MUST_COMPLETE,
            )
            return False
        return _pay_inline(g, ctx, pay) and _pay_inline(g, ctx, "exhaust me")
    if cost.startswith("pay "):
        parsed = costs.resolve_card_domain(effects.parse_cost(cost[4:]), ctx.source)
        payment = costs.plan(s, item.controller, parsed, legality.adders(s, item.controller))
        if payment is None:
            g.emit(f'{item.controller} cannot pay {parsed.text()}: "{cost}" is not done', K.COST_MUST_PAY)
            return False
        board.pay(g, payment, item.label)
        return True
    if cost == "recycle me":  # the card itself, from the trash it is in (a Deathknell's card)
        if ctx.source is None or ctx.source.zone != "trash":
            g.emit(
                f"{item.label}: its card is not in a trash, so it cannot be recycled to pay: nothing more is done",
                K.COST_WITHIN_INSTRUCTION,
                K.PLAY_NULL_INFORMATION,
            )
            return False
        board.recycle_cards(g, [ctx.source], K.COST_WITHIN_INSTRUCTION, K.RECYCLE_TO_MAIN_DECK)
        return True
    if cost in ("exhaust me", "exhaust this"):
        if ctx.source is None or ctx.source.exhausted:
            g.emit(
                f"{item.label}: its source cannot be exhausted to pay: nothing more is done",
                K.EXHAUST_COST_MUST_COMPLETE,
            )
            return False
        ctx.source.exhausted = True
        g.emit(f"{item.controller} exhausts {ctx.source.name} to pay", K.EXHAUST_ACTION, K.COST_WITHIN_INSTRUCTION)
        return True
    me = item.controller
    if cost in ("spend a buff", "spend its buff"):
        if cost == "spend its buff":
            options = [ctx.it] if ctx.it is not None and ctx.it.on_board and ctx.it.buffed else []
        else:
            options = [u for u in s.units() if u.controller == me and u.buffed]
        if not options:
            g.emit(f'{me} has no buff to spend: "{cost}" cannot be paid, nothing more is done', K.BUFF_SPEND)
            return False
        unit = _choose_own(g, ctx, options, "a unit whose buff to spend", K.BUFF_SPEND)
        s.spend_buff(unit)
        g.emit(f"{me} spends {unit.name}'s buff to pay", K.BUFF_SPEND, K.COST_WITHIN_INSTRUCTION)
        return True
    if cost.startswith("discard "):
        n = int(cost.split()[1])
        if len(s.hand(me)) + s.hand_unnamed[me] < n:
            g.emit(f'{me} has fewer than {n} card(s) in hand: "{cost}" cannot be paid', K.COST_WITHIN_INSTRUCTION)
            return False
        board.discard(g, me, n, K.COST_WITHIN_INSTRUCTION)
        return True
    if cost.startswith("kill "):
        probe = effects.parse(cost)[0]
        options = [
            c
            for c in s.cards.values()
            if legality.target_problem(s, me, probe, c, None, ctx.source, item.noted) is None
        ]
        if not options:
            g.emit(f'{me} has nothing to kill: "{cost}" cannot be paid', K.COST_WITHIN_INSTRUCTION)
            return False
        unit = _choose_own(g, ctx, options, "what to kill", K.COST_WITHIN_INSTRUCTION)
        board.kill(g, unit, K.COST_WITHIN_INSTRUCTION)
        return True
    raise EngineError(f'{item.label}: the cost "{cost}" has no step')


def _choose_own(g: Game, ctx: Context, options: list[Card], what: str, key: str) -> Card:
    """One of ``options`` its controller chooses as a cost within an instruction is paid (not a target,
    352.10.c.1): the only one, or the one named (``P chooses UNIT``; the rules wait for it)."""
    if len(options) == 1:
        return options[0]
    me = ctx.item.controller
    answer = g.next_answer()
    if answer is None:
        raise _choice(
            ctx.item,
            me,
            tuple(c.name for c in options),
            what,
            key,
            f"{ctx.item.label}: {me} chooses {what} ({', '.join(c.name for c in options)}; "
            f'"{me} chooses {options[0].name}"; not a target)',
            (key, K.PRIORITY_LIMITED_ACTIONS_REGARDLESS),
        )
    return next(c for c in options if c.name.lower() == answer[0].lower())


@steers("reflexive")
def _reflexive(g: Game, ctx: Context, ins: Instruction) -> None:
    """ "Do this:" creates a new ability on the Chain (380, 381), N times with "do this N times"; "if this kills
    it" waits for that unit's death in the cleanup after this resolves (415.5.c)."""
    s, item = g.s, ctx.item
    cond = ins.data[0] if ins.data else ""
    body = ins.text.split(":", 1)[1].strip()
    noted = tuple(
        p
        for p in (
            ("destination", ctx.destination) if ctx.destination else None,
            ("it", ctx.it.key) if ctx.it is not None else None,
        )
        if p
    )
    if cond == "if you do" and not ctx.did:
        g.emit(
            f"{item.label}: the condition of its reflexive trigger is not met: nothing is added to the Chain",
            K.REFLEXIVE_CONDITION,
        )
        return
    if cond == "then" and ctx.destination is None and any(i.verb == "move" for i in effects.parse(item.effect)):
        g.emit(
            f"{item.label}: nothing was moved, so there is no destination: its reflexive trigger is not added",
            K.REFLEXIVE_CONDITION,
            K.PLAY_NULL_INFORMATION,
        )
        return
    if cond == "if this kills it":
        unit = ctx.it
        if unit is None:
            return
        s.watch.append((unit.key, s.epochs.get(unit.key, 0), body, item.controller, item.label, item.source or ""))
        g.emit(
            f"{item.label}: if {unit.name} dies from this, its reflexive trigger will be added to the Chain",
            K.REFLEXIVE_CONDITION,
        )
        return
    if ins.times > 1:
        g.emit(
            f'{item.label}: "do this {ins.times} times": its reflexive trigger is added to the Chain {ins.times} times',
            K.REFLEXIVE_TIMES,
        )
    for _ in range(ins.times):
        add_reflexive(g, item, body, noted)


def add_reflexive(g: Game, item: ChainItem, body: str, noted: tuple = ()) -> None:
    s = g.s
    new = ChainItem(
        f"{item.label.split(' (')[0]} (reflexive)",
        item.controller,
        "trigger",
        effect=body,
        source=item.source,
        pending=True,
        uid=s.new_uid(),
        place=item.place,
        hidden_at=item.hidden_at,
        noted=noted or item.noted,
    )
    s.chain.append(new)
    g.emit(
        f'{item.label}\'s reflexive trigger creates a new ability ("{body}"): it goes onto the Chain as a Pending Item',
        K.REFLEXIVE_CREATES_ITEM,
        K.REFLEXIVE_PENDING,
    )


def apply(g: Game, ctx: Context, ins: Instruction, targets: list, keys: tuple[str, ...]) -> None:
    """One instruction on each of its targets (or none)."""
    step = CARRIES.get(ins.verb)
    if step is not None:
        step(g, ctx, ins, targets, keys)
        return
    for target in targets:
        if target is None:
            continue
        _on(g, ctx, ins, target, keys)


@carries("choose")
def _do_choose(g: Game, ctx: Context, ins: Instruction, targets: list, keys: tuple[str, ...]) -> None:
    """Nothing more: finding its targets (``_targets``: "it", "they") is all it does."""


@carries("draw")
def _do_draw(g: Game, ctx: Context, ins: Instruction, targets: list, keys: tuple[str, ...]) -> None:
    s, item = g.s, ctx.item
    me = item.controller
    who = me
    if ins.data and ins.data[0] == "they":  # "they draw 1": the player the trigger's condition names
        named = ctx.player or dict(item.noted).get("player")  # or the opponent the effect chose before
        if named is None:
            g.emit(f'{item.label}: no player is named for "they": no one draws', *keys, K.PLAY_NULL_INFORMATION)
            return
        who = named
    if ins.data and ins.data[0] == "it":
        if ctx.it is None:
            g.emit(f"{item.label}: there is no unit whose controller would draw", *keys, K.PLAY_NULL_INFORMATION)
            return
        who = ctx.it.holder
    n = ins.amount
    if len(ins.data) > 1:  # "draw 1 for each of your Mighty units": counted as it resolves
        probe = Instruction("draw", 0, ins.data[1])
        fits = [c for c in s.cards.values() if legality.target_problem(s, me, probe, c, None) is None]
        n = ins.amount * len(fits)
        g.emit(
            f"{item.label}: {me} has {len(fits)} ({', '.join(c.name for c in fits) or 'none'}): {who} draws {n}",
            *keys,
            K.TARGETS_PROGRAMMATIC,
        )
        if not n:
            return
    board.draw(g, who, n, *keys, K.DRAW_BY_EFFECT)


@carries("discard")
def _do_discard(g: Game, ctx: Context, ins: Instruction, targets: list, keys: tuple[str, ...]) -> None:
    me = ctx.item.controller
    gone = board.discard(g, me, ins.amount, *keys)
    ctx.it = gone[-1] if gone else None  # "discard 1. deal its Energy cost ...": the card discarded


@carries("score")
def _do_score(g: Game, ctx: Context, ins: Instruction, targets: list, keys: tuple[str, ...]) -> None:
    item = ctx.item
    me = item.controller
    board.gain_points(g, me, ins.amount, item.label, *keys)


@carries("add")
def _do_add(g: Game, ctx: Context, ins: Instruction, targets: list, keys: tuple[str, ...]) -> None:
    item = ctx.item
    me = item.controller
    src = ctx.source  # "[Add] [A]. Use only to play spells": the ability's restriction goes with what it adds
    ability = next((a for a in src.defn.abilities if a.effect == item.effect), None) if src is not None else None
    board.add(g, me, ins.amount, ins.data, item.label, *keys, only=ability.spend_only if ability else "")


@carries("channel")
def _do_channel(g: Game, ctx: Context, ins: Instruction, targets: list, keys: tuple[str, ...]) -> None:
    item = ctx.item
    me = item.controller
    who = me
    if "it owner" in ins.data or "it controller" in ins.data:  # "its owner channels": of the unit acted on
        if ctx.it is None:
            g.emit(f"{item.label}: no unit was acted on, so no one channels", *keys, K.PLAY_NULL_INFORMATION)
            return
        who = ctx.it.owner if "it owner" in ins.data else ctx.it.holder
    got = board.channel(g, who, ins.amount, "exhausted" in ins.data, *keys)
    ctx.did = got >= ins.amount  # "if you can't" / "if you couldn't channel 2 runes this way"


@carries("exhaust_all")
def _do_exhaust_all(g: Game, ctx: Context, ins: Instruction, targets: list, keys: tuple[str, ...]) -> None:
    s, item = g.s, ctx.item
    me = item.controller
    where = dict(item.noted).get("at") if ins.aim.where == "here" else None
    units = [
        u
        for u in s.units()
        if (ins.aim.side != "friendly" or u.controller == me or s.allied(u.controller, me))
        and (ins.aim.side != "enemy" or u.controller in s.opponents(me))
        and (where is None or (u.location or "").lower() == where.lower())
        and not u.exhausted
    ]
    for u in units:
        u.exhausted = True
    g.emit(
        f"{item.label}: {', '.join(u.name for u in units) or 'no unit'} {'is' if len(units) == 1 else 'are'} "
        "exhausted (the units are not chosen: none is a target)",
        *keys,
        K.EXHAUST_ACTION,
        K.TARGETS_PROGRAMMATIC,
    )


@carries("each_player")
def _do_each_player(g: Game, ctx: Context, ins: Instruction, targets: list, keys: tuple[str, ...]) -> None:
    # "each player discards their hand, then draws 4": each step by each, in turn order
    s = g.s
    me = ctx.item.controller
    them = s.in_turn_order(s.players if ins.data[0] == "player" else s.opponents(me))
    for step in ins.body:
        v = step.verb
        for p in them:
            if v == "discard_hand":
                board.discard(g, p, len(s.hand(p)) + s.hand_unnamed[p], *keys, K.TURN_ORDER_SEQUENCE)
            else:
                board.draw(g, p, step.amount, *keys, K.DRAW_BY_EFFECT, K.TURN_ORDER_SEQUENCE)


@carries("next_time_instead")
def _do_next_time_instead(g: Game, ctx: Context, ins: Instruction, targets: list, keys: tuple[str, ...]) -> None:
    # a delayed replacement (383.3) on the unit chosen before, this turn
    s, item = g.s, ctx.item
    me = item.controller
    name = s.cards[item.card].name if item.card and item.card in s.cards else item.label
    instead = ", ".join(i.text for i in ins.body)
    for unit in targets:
        if isinstance(unit, Card) and unit.on_board:
            s.delayed_replace.append((me, unit.key, s.epochs.get(unit.key, 0), ins.data[0], instead, name))
            g.emit(
                f"{item.label}: the next time {unit.name} would die this turn, {instead} instead (a delayed "
                "replacement effect)",
                *keys,
                K.DELAYED_REPLACEMENT,
            )


@carries("when_damaged")
def _do_when_damaged(g: Game, ctx: Context, ins: Instruction, targets: list, keys: tuple[str, ...]) -> None:
    # a delayed triggered ability (383.2): on damage this turn, whatever its source (385)
    s, item = g.s, ctx.item
    me = item.controller
    src_key = item.source or item.card or ""
    if "any" in ins.data:
        s.damage_watch.append((me, "", 0, ins.body[0].text, src_key))
        g.emit(f'{item.label}: "{ins.text}" (a delayed triggered ability, this turn)', *keys, K.DELAYED_TRIGGER)
        return
    for unit in targets:
        if isinstance(unit, Card) and unit.on_board:
            ctx.watched.append((me, unit.key, s.epochs.get(unit.key, 0), ins.body[0].text, src_key))
            s.damage_watch.append(ctx.watched[-1])
            g.emit(
                f"{item.label}: the next time {unit.name} takes damage this turn, {ins.body[0].text} "
                "(a delayed triggered ability)",
                *keys,
                K.DELAYED_TRIGGER,
            )


@carries("hide_free")
def _do_hide_free(g: Game, ctx: Context, ins: Instruction, targets: list, keys: tuple[str, ...]) -> None:
    # "you can hide cards ignoring costs this turn": until the Expiration Step
    s, item = g.s, ctx.item
    me = item.controller
    if me not in s.hide_free:
        s.hide_free.append(me)
    g.emit(f"{item.label}: {me} can hide cards without paying their cost ([A]) this turn", *keys, K.COST_IGNORED)


@carries("cant_play")
def _do_cant_play(g: Game, ctx: Context, ins: Instruction, targets: list, keys: tuple[str, ...]) -> None:
    # "opponents can't play cards this turn": until the Expiration Step
    s, item = g.s, ctx.item
    me = item.controller
    who, what = ins.data
    s.cant_play.append((me, who, what))
    g.emit(
        f"{item.label}: {'the opponents of ' + me if who == 'opponents' else 'players'} can't play "
        f"{what if what == 'gear' else what + 's'} this turn",
        *keys,
        K.RULES_CANT_BEATS_CAN,
    )


@carries("ready_runes")
def _do_ready_runes(g: Game, ctx: Context, ins: Instruction, targets: list, keys: tuple[str, ...]) -> None:
    me = ctx.item.controller
    board.ready_runes(g, me, ins.amount, *keys, every="all" in ins.data)


@carries("each_kill")
def _do_each_kill(g: Game, ctx: Context, ins: Instruction, targets: list, keys: tuple[str, ...]) -> None:
    _each_kill(g, ctx, ins, keys)


@carries("each_choose")
def _do_each_choose(g: Game, ctx: Context, ins: Instruction, targets: list, keys: tuple[str, ...]) -> None:
    _each_choose(g, ctx, ins, keys)


@carries("each_pick")
def _do_each_pick(g: Game, ctx: Context, ins: Instruction, targets: list, keys: tuple[str, ...]) -> None:
    _each_pick(g, ctx, ins, keys)


@carries("each_return")
def _do_each_return(g: Game, ctx: Context, ins: Instruction, targets: list, keys: tuple[str, ...]) -> None:
    _each_return(g, ctx, ins, keys)


@carries("split")
def _do_split(g: Game, ctx: Context, ins: Instruction, targets: list, keys: tuple[str, ...]) -> None:
    _split(g, ctx, ins, [t for t in targets if isinstance(t, Card)], keys)


@carries("recycle_rune")
def _do_recycle_rune(g: Game, ctx: Context, ins: Instruction, targets: list, keys: tuple[str, ...]) -> None:
    me = ctx.item.controller
    board.recycle_rune(g, me, *keys, pick=_rune_choice(g, ctx))


@carries("recycle_trash")
def _do_recycle_trash(g: Game, ctx: Context, ins: Instruction, targets: list, keys: tuple[str, ...]) -> None:
    me = ctx.item.controller
    board.recycle_from_trash(g, me, ins.amount, *keys)


@carries("look")
def _do_look(g: Game, ctx: Context, ins: Instruction, targets: list, keys: tuple[str, ...]) -> None:
    _look(g, ctx, ins, keys)


@carries("reveal_until")
def _do_reveal_until(g: Game, ctx: Context, ins: Instruction, targets: list, keys: tuple[str, ...]) -> None:
    _reveal_until(g, ctx, ins, keys)


@carries("unit_here")
def _do_unit_here(g: Game, ctx: Context, ins: Instruction, targets: list, keys: tuple[str, ...]) -> None:
    """Read with the instruction that plays the card (Context.unit_here)."""


@carries("play_card")
def _do_play_card(g: Game, ctx: Context, ins: Instruction, targets: list, keys: tuple[str, ...]) -> None:
    _play_card(g, ctx, ins, keys)


@carries("recycle_looked")
def _do_recycle_looked(g: Game, ctx: Context, ins: Instruction, targets: list, keys: tuple[str, ...]) -> None:
    _recycle_looked(g, ctx, keys)


@carries("put_looked")
def _do_put_looked(g: Game, ctx: Context, ins: Instruction, targets: list, keys: tuple[str, ...]) -> None:
    _put_looked(g, ctx, ins, keys)


@carries("recycle_some")
def _do_recycle_some(g: Game, ctx: Context, ins: Instruction, targets: list, keys: tuple[str, ...]) -> None:
    _recycle_some(g, ctx, keys)


@carries("put_back")
def _do_put_back(g: Game, ctx: Context, ins: Instruction, targets: list, keys: tuple[str, ...]) -> None:
    _put_back(g, ctx, keys)


@carries("buff_bonus")
def _do_buff_bonus(g: Game, ctx: Context, ins: Instruction, targets: list, keys: tuple[str, ...]) -> None:
    s, item = g.s, ctx.item
    me = item.controller
    s.buff_bonus[me] = s.buff_bonus.get(me, 0) + ins.amount
    g.emit(
        f"{item.label}: this turn, each buff on {me}'s units gives +{1 + s.buff_bonus[me]} Might instead of +1",
        *keys,
        K.BUFF_PLUS_ONE_MIGHT,
        K.MIGHT_CURRENT,
    )


@carries("win")
def _do_win(g: Game, ctx: Context, ins: Instruction, targets: list, keys: tuple[str, ...]) -> None:
    s, item = g.s, ctx.item
    me = item.controller
    s.winner = me
    s.priority = s.focus = None
    g.emit(f"{item.label}: {me} wins the game (the card's text supersedes the rules)", *keys, K.TEXT_CARD_SUPERSEDES)


@carries("delayed")
def _do_delayed(g: Game, ctx: Context, ins: Instruction, targets: list, keys: tuple[str, ...]) -> None:
    # "... at the end of this turn": a delayed triggered ability (383.2)
    s, item = g.s, ctx.item
    me = item.controller
    s.delayed.append((me, ins.body[0].text, item.source or item.card or ""))
    g.emit(
        f'{item.label}: "{ins.body[0].text}" will trigger at the end of this turn (a delayed ability)',
        *keys,
        K.DELAYED_TRIGGER,
    )


@carries("next_ready")
def _do_next_ready(g: Game, ctx: Context, ins: Instruction, targets: list, keys: tuple[str, ...]) -> None:
    s, item = g.s, ctx.item
    me = item.controller
    if "all" in ins.data:  # "units you play this turn enter ready": -1, every one
        s.next_ready[me] = -1
        g.emit(
            f"{item.label}: units {me} plays this turn enter ready (a delayed passive ability)",
            *keys,
            K.DELAYED_PASSIVE,
        )
        return
    if s.next_ready.get(me, 0) < 0:
        return  # every unit this turn enters ready already
    s.next_ready[me] = s.next_ready.get(me, 0) + ins.amount
    g.emit(
        f"{item.label}: the next {'unit' if ins.amount == 1 else f'{ins.amount} units'} {me} plays this turn "
        f"{'enters' if ins.amount == 1 else 'enter'} ready (a delayed passive ability)",
        *keys,
        K.DELAYED_PASSIVE,
    )


@carries("activate_conquer")
def _do_activate_conquer(g: Game, ctx: Context, ins: Instruction, targets: list, keys: tuple[str, ...]) -> None:
    # "activate the conquer effects of units here": as if a conquer occurred here
    s, item = g.s, ctx.item
    me = item.controller
    where = dict(item.noted).get("at") or (ctx.source.location if ctx.source is not None else None)
    units = [u for u in s.units_at(where)] if where else []
    found = 0
    for u in units:
        if ins.aim.side == "friendly" and u.controller != me and not s.allied(u.controller, me):
            continue
        for t in u.defn.triggers:
            if t.spec.event != "conquer" or t.spec.who != "me":
                continue
            if t.spec.what == "uncontrolled":  # "a battlefield that was uncontrolled": it is controlled
                g.emit(
                    f"{u.name}'s conquer effect sees the conquer, but {where} was not uncontrolled: it does not "
                    "trigger",
                    *keys,
                    K.TRIGGER_CONQUER,
                )
                continue
            found += 1
            triggers.add_trigger(
                g,
                u,
                "conquer",
                t.effect,
                u.controller or me,
                *keys,
                K.TRIGGER_CONQUER,
                noted=(("at", where or ""),),
            )
    if not found:
        g.emit(f"{item.label}: no unit at {where or 'its location'} has a conquer effect to activate", *keys)


@carries("next_spell")
def _do_next_spell(g: Game, ctx: Context, ins: Instruction, targets: list, keys: tuple[str, ...]) -> None:
    # a delayed passive ability on the next spell its controller plays this turn
    s, item = g.s, ctx.item
    me = item.controller
    s.next_spell.append((me, ins.data[0], ins.amount, item.label))
    what = f"costs [{ins.amount}] less" if ins.data[0] == "less" else f"deals {ins.amount} Bonus Damage"
    g.emit(
        f"{item.label}: the next spell {me} plays this turn {what} (a delayed passive ability)",
        *keys,
        K.DELAYED_PASSIVE,
    )


@carries("take_turn")
def _do_take_turn(g: Game, ctx: Context, ins: Instruction, targets: list, keys: tuple[str, ...]) -> None:
    s, item = g.s, ctx.item
    me = item.controller
    s.extra_turns.append(me)
    g.emit(
        f"{item.label}: an Additional Turn for {me} is queued after this one (Turn Order does not change)",
        *keys,
        K.TURN_ADDITIONAL,
    )


@carries("deal_per")
def _do_deal_per(g: Game, ctx: Context, ins: Instruction, targets: list, keys: tuple[str, ...]) -> None:
    _deal_per(g, ctx, ins, targets, keys)


@carries("prevent_all")
def _do_prevent_all(g: Game, ctx: Context, ins: Instruction, targets: list, keys: tuple[str, ...]) -> None:
    s, item = g.s, ctx.item
    s.prevent["*"] = "spells and abilities"
    g.emit(
        f"{item.label}: all damage spells and abilities would deal this turn is prevented (damage a spell or "
        "ability has a unit deal is that unit's, not theirs)",
        *keys,
        K.DEAL_SOURCE_DEFAULT,
        K.DEAL_UNIT_SOURCE,
    )


@carries("return_self")
def _do_return_self(g: Game, ctx: Context, ins: Instruction, targets: list, keys: tuple[str, ...]) -> None:
    # "return this from your trash to your hand": the card itself, still in the trash
    item = ctx.item
    card = ctx.source
    if card is None or card.zone != "trash":
        g.emit(f"{item.label}: the card is no longer in the trash: it is not returned", *keys, K.PLAY_NULL_INFORMATION)
        return
    board.leave_board(g, card, "hand")
    g.emit(f"{card.name} returns from {card.owner}'s trash to their hand", *keys, K.RETURN_OWNERS_HAND)


@carries("play_self")
def _do_play_self(g: Game, ctx: Context, ins: Instruction, targets: list, keys: tuple[str, ...]) -> None:
    item = ctx.item
    card = ctx.source
    if card is None or card.zone != "trash":
        g.emit(f"{item.label}: the card is no longer in the trash: it cannot be played", *keys, K.PLAY_NULL_INFORMATION)
        return
    board.play_from(g, card, item.controller, "base", item, *keys)


@carries("token")
def _do_token(g: Game, ctx: Context, ins: Instruction, targets: list, keys: tuple[str, ...]) -> None:
    item = ctx.item
    me = item.controller
    place = ins.place
    if place == "here":
        place = (
            item.hidden_at or (ctx.source.location if ctx.source is not None else None) or dict(item.noted).get("at")
        )
    elif place is None and item.hidden_at:
        place = item.hidden_at
        g.emit(
            f"{item.label} was played from facedown at {item.hidden_at}: a unit it plays enters the board there",
            *keys,
            K.HIDE_UNITS_AT_THAT_BATTLEFIELD,
        )
    for _ in range(ins.times):
        board.make_token(g, me, ins.data[0], ins.amount, ins.data[1], bool(ins.data[2]), place or "base", item, *keys)


@carries("deal_all")
def _do_deal_all(g: Game, ctx: Context, ins: Instruction, targets: list, keys: tuple[str, ...]) -> None:
    s, item = g.s, ctx.item
    me = item.controller
    where = dict(item.noted).get("at") if ins.aim.where == "here" else None
    if targets and isinstance(targets[0], Battlefield):
        where = targets[0].name
    victims = [
        u
        for u in s.units()
        if (where is None or (u.location or "").lower() == where.lower())
        and (ins.aim.side != "enemy" or u.controller != me)
        and (ins.aim.where != "battlefields" or u.zone == "battlefield")
        and (ins.aim.where != "in combat" or bool(u.designation))
    ]
    g.emit(
        f"{item.label}: deal {ins.amount} to each {'enemy ' if ins.aim.side == 'enemy' else ''}unit"
        f"{' at ' + where if where else ' in combat' if ins.aim.where == 'in combat' else ''} (the units are not "
        "chosen: no unit is a target)",
        *keys,
        K.TARGETS_PROGRAMMATIC,
    )
    for u in victims:
        board.deal(g, item, u, ins.amount, *keys)


@carries("heal_all")
def _do_heal_all(g: Game, ctx: Context, ins: Instruction, targets: list, keys: tuple[str, ...]) -> None:
    s = g.s
    me = ctx.item.controller
    where = (ctx.source.location if ctx.source is not None else None) if ins.aim.where == "here" else None
    for u in s.units():
        if u.controller == me and (where is None or (u.location or "").lower() == (where or "").lower()):
            if u.damage:
                u.damage = 0
                g.emit(f"{u.name} is healed", *keys, K.HEAL_CLEARS_DAMAGE)


@carries("kill_all")
def _do_kill_all(g: Game, ctx: Context, ins: Instruction, targets: list, keys: tuple[str, ...]) -> None:
    s, item = g.s, ctx.item
    me = item.controller
    where = dict(item.noted).get("at") if ins.aim.where == "here" else None
    filters = dict(ins.aim.filters)
    kind = filters.get("type", "unit")
    victims = [
        u
        for u in s.cards.values()
        if u.on_board
        and u.defn.type == kind
        and (where is None or (u.location or "").lower() == where.lower())
        and (ins.aim.side != "enemy" or u.controller in s.opponents(me))
        and (ins.aim.side != "friendly" or u.controller == me or s.allied(u.controller, me))
        and ("state" not in filters or _in_state(u, str(filters["state"])))
    ]
    if ins.aim.side or "state" in filters or kind != "unit":
        g.emit(
            f"{item.label}: kills {', '.join(u.name for u in victims) or 'nothing'} (the objects are not chosen: "
            "none is a target)",
            *keys,
            K.TARGETS_PROGRAMMATIC,
        )
    for u in victims:
        if u.on_board:
            board.kill(g, u, *keys)


@carries("fight")
def _do_fight(g: Game, ctx: Context, ins: Instruction, targets: list, keys: tuple[str, ...]) -> None:
    s, item = g.s, ctx.item
    units = [u for u in targets if isinstance(u, Card) and u.on_board and u.is_unit]
    if "we" in ins.data:  # "we": the ability's source and the unit chosen before it
        units = [u for u in (ctx.source, ctx.it) if u is not None and u.on_board and u.is_unit]
    first = dict(item.noted).get("it")
    if len(units) < 2 and first is not None and first in s.cards and s.cards[first].on_board:
        units.insert(0, s.cards[first])
    if len(units) < 2:
        g.emit(
            f"{item.label}: fewer than two of the chosen units are still there: they deal no damage to each other",
            *keys,
            K.TEXT_DO_WHAT_YOU_CAN,
        )
        return
    a, b = units[0], units[1]
    ma, mb = s.might(a), s.might(b)
    g.emit(
        f"{a.name} and {b.name} deal damage equal to their Mights to each other ({ma} and {mb}); the units "
        "are the source of that damage",
        *keys,
        K.DEAL_UNIT_SOURCE,
    )
    board.deal(g, item, b, ma, *keys, source=a)
    board.deal(g, item, a, mb, *keys, source=b)


def _on(g: Game, ctx: Context, ins: Instruction, target: Card | ChainItem, keys: tuple[str, ...]) -> None:
    on_spell = ON_EACH_SPELL.get(ins.verb)
    if on_spell is not None:
        assert isinstance(target, ChainItem)
        on_spell(g, ctx, ins, target, keys)
        return
    assert isinstance(target, Card)
    ctx.it = target
    step = ON_EACH_CARD.get(ins.verb)
    if step is None:  # pragma: no cover - the reader accepts only verbs carried out here
        raise AssertionError(f"instruction {ins.verb!r} has no step")
    step(g, ctx, ins, target, keys)


@on_each_spell("counter")
def _on_counter(g: Game, ctx: Context, ins: Instruction, target: ChainItem, keys: tuple[str, ...]) -> None:
    s = g.s
    s.chain.remove(target)
    if target.card:
        board.leave_board(g, s.cards[target.card], "trash")
    g.emit(
        f"{target.label} is countered: it does nothing and goes to the trash (it was not played)",
        *keys,
        K.COUNTER_DOES_NOTHING,
        K.COUNTER_NOT_PLAYED,
    )


@on_each_card("deal")
def _on_deal(g: Game, ctx: Context, ins: Instruction, unit: Card, keys: tuple[str, ...]) -> None:
    item = ctx.item
    board.deal(g, item, unit, ins.amount, *keys)


@on_each_card("deal_might")
def _on_deal_might(g: Game, ctx: Context, ins: Instruction, unit: Card, keys: tuple[str, ...]) -> None:
    s, item = g.s, ctx.item
    src = ctx.dealer if "it" in ins.data else ctx.source  # "it deals damage equal to its Might": the unit before
    if "it" in ins.data and (src is None or not src.on_board):
        g.emit(
            f"{item.label}: the unit that would deal the damage is not on the board: no damage is dealt",
            *keys,
            K.PLAY_NULL_INFORMATION,
        )
        return
    amount = s.might(src) if src is not None and src.on_board else 0
    board.deal(g, item, unit, amount, *keys, source=src)


@on_each_card("deal_cost")
def _on_deal_cost(g: Game, ctx: Context, ins: Instruction, unit: Card, keys: tuple[str, ...]) -> None:
    # "deal its Energy cost as damage": the card before's printed Energy cost (131.4)
    item = ctx.item
    card = ctx.dealer
    if card is None or card.defn.cost is None:
        g.emit(
            f"{item.label}: there is no card whose Energy cost to deal (none was discarded, or it is unknown): "
            "no damage is dealt",
            *keys,
            K.PLAY_NULL_INFORMATION,
        )
        return
    amount = card.defn.cost.energy
    g.emit(f"{item.label}: {card.name}'s printed Energy cost is {amount}", *keys, K.COST_BASE)
    board.deal(g, item, unit, amount, *keys)


@on_each_card("kill")
def _on_kill(g: Game, ctx: Context, ins: Instruction, unit: Card, keys: tuple[str, ...]) -> None:
    s, item = g.s, ctx.item
    ctx.it_might = s.might(unit)
    was = {"controller": unit.controller, "stunned": unit.stunned}
    died = board.kill(g, unit, *keys)
    ctx.did = died
    if died and unit.is_unit:  # "when you kill a unit": this spell or ability killed it (415.5.b)
        triggers.fire(g, "kill", player=item.controller, subject=unit, before=was)
    if not died:
        ctx.it_might = None
    elif item.kind == "spell" and unit.is_unit:
        g.emit(f"{item.controller} killed {unit.name} with a spell ({item.label})", K.KILL_INSTRUCTION_RESPONSIBLE)
        triggers.fire(g, "kill_spell", player=item.controller, subject=unit)


@on_each_card("banish")
def _on_banish(g: Game, ctx: Context, ins: Instruction, unit: Card, keys: tuple[str, ...]) -> None:
    s = g.s
    where = str(unit.location or unit.zone)
    if unit.zone == "deck":  # revealed on top of a Main Deck ("... until you reveal a unit and banish it")
        s.deck[unit.owner].remove(unit.key)
        ctx.looked = [k for k in (ctx.looked or []) if k != unit.key]
        where = f"{unit.owner}'s Main Deck"
    board.leave_board(g, unit, "banishment")
    g.emit(f"{unit.name} is banished from {where}", *keys, K.BANISH_ACTION)


@on_each_card("play_it")
def _on_play_it(g: Game, ctx: Context, ins: Instruction, unit: Card, keys: tuple[str, ...]) -> None:
    # "then its owner plays it to their base, ignoring its cost": the card banished before
    item = ctx.item
    if unit.zone != "banishment" or not unit.is_unit:
        g.emit(f"{item.label}: {unit.name} is not in banishment: it cannot be played", *keys, K.PLAY_NULL_INFORMATION)
        ctx.did = False
        return
    who = unit.owner if ins.data[0] == "owner" else item.controller
    g.emit(
        f"{item.label}: {who} plays {unit.name} to their base, ignoring its cost: its base energy and power costs "
        "are 0",
        *keys,
        K.PLAY_BY_EFFECT,
        K.COST_IGNORED,
    )
    board.play_from(g, unit, who, "base", item, *keys)


@on_each_card("return_champion")
def _on_return_champion(g: Game, ctx: Context, ins: Instruction, unit: Card, keys: tuple[str, ...]) -> None:
    # "... to your Champion Zone if it is empty": the card says what is true (002)
    s = g.s
    there = next((c for c in s.cards.values() if c.zone == "champion" and c.owner == unit.owner), None)
    if there is not None:
        g.emit(
            f"{unit.owner}'s Champion Zone holds {there.name}: it is not empty, so {unit.name} stays in the trash",
            *keys,
            K.TEXT_DO_WHAT_YOU_CAN,
        )
        return
    unit.zone = "champion"
    board.card_epoch_bump(g, unit)
    g.emit(
        f"{unit.name} returns from {unit.owner}'s trash to their Champion Zone, which was empty (the card allows "
        "what the rules alone do not); it can be played from there as normal",
        *keys,
        K.CHAMPION_NOT_RETURNED,
        K.TEXT_CARD_SUPERSEDES,
        K.CHAMPION_SAME_NAME,
    )


@on_each_card("return")
def _on_return(g: Game, ctx: Context, ins: Instruction, unit: Card, keys: tuple[str, ...]) -> None:
    where = str(unit.location or f"{unit.owner}'s {unit.zone}")
    board.leave_board(g, unit, "hand")
    g.emit(
        f"{unit.name} returns from {where} to its owner's ({unit.owner}'s) hand",
        *keys,
        K.RETURN_OWNERS_HAND,
        *((K.CHAMPION_SAME_NAME,) if ins.target is not None and ("champion", True) in ins.target.filters else ()),
    )


@on_each_card("move")
def _on_move(g: Game, ctx: Context, ins: Instruction, unit: Card, keys: tuple[str, ...]) -> None:
    s, item = g.s, ctx.item
    dest = ins.place or item.place or "base"
    if dest.lower() == "here":  # "move an enemy unit to here": where the ability's source is
        here = (ctx.source.location if ctx.source is not None and ctx.source.on_board else None) or dict(
            item.noted
        ).get("at")
        if not here:
            g.emit(f"{item.label}: its source is nowhere to move to: nothing moves", *keys, K.PLAY_NULL_INFORMATION)
            ctx.did = False
            return
        dest = here
    if dest.lower() != "base":
        dest = s.place_name(dest)
    if (unit.location or "").lower() == dest.lower():
        g.emit(f"{unit.name} is already at {dest}: the move is ignored", *keys, K.MOVE_BETWEEN_LOCATIONS)
        ctx.did = False
        return
    if "base_end" in ins.data and (unit.location == "base") == (dest == "base"):  # "to or from its base"
        g.emit(
            f"{unit.name} would move from {unit.location} to {dest}: the effect moves a unit only to or from its "
            "base, so it does not move",
            *keys,
            K.MOVE_BY_EFFECT,
            K.TEXT_DO_WHAT_YOU_CAN,
        )
        ctx.did = False
        return
    forbidden = legality.move_forbidden(s, unit, dest)
    if forbidden:
        g.emit(f"{unit.name} does not move: {forbidden}", *keys, K.RULES_CANT_BEATS_CAN, K.TEXT_DO_WHAT_YOU_CAN)
        ctx.did = False
        return
    if dest != "base" and any(s.allied(p, unit.controller) for p in s.players_at(dest)):
        g.emit(
            f"{unit.name} cannot move to {dest}: {unit.controller}'s teammate has units there",
            *keys,
            K.TEAM_CONTROL_NOT_SHARED,
        )
        ctx.did = False
        return
    board.move_units(g, unit.controller or unit.owner, [unit], dest, *keys, K.MOVE_BY_EFFECT, mover=item.controller)
    ctx.destination = dest


@on_each_card("recall")
def _on_recall(g: Game, ctx: Context, ins: Instruction, unit: Card, keys: tuple[str, ...]) -> None:
    if unit.location == "base":
        g.emit(
            f"{unit.name} is already at its base: there is nothing to recall (do as much as you can)",
            *keys,
            K.RECALL_TO_BASE,
            K.TEXT_DO_WHAT_YOU_CAN,
        )
    else:
        board.set_location(unit, "base")
        g.emit(f"{unit.name} is recalled to its base (not a move)", *keys, K.RECALL_TO_BASE)
    if "exhausted" in ins.data:
        _exhaust(g, unit, keys)


@on_each_card("ready")
def _on_ready(g: Game, ctx: Context, ins: Instruction, unit: Card, keys: tuple[str, ...]) -> None:
    s, item = g.s, ctx.item
    # "spells and abilities can't ready enemy units and gear": an object of an opponent of its controller
    warden = s.restrictor(unit.controller, "no_ready", unit.defn.type) if unit.controller else None
    if warden is not None:
        g.emit(
            f"{warden.name} says spells and abilities can't ready {warden.controller}'s enemy units and gear: "
            f"{unit.name} stays exhausted",
            *keys,
            K.PASSIVE_STATEMENT,
        )
        ctx.did = False
        return
    if not unit.exhausted:
        g.emit(
            f"{unit.name} is already ready: nothing additional happens",
            *keys,
            K.READY_ALREADY_READY,
            K.TEXT_DO_WHAT_YOU_CAN,
        )
        return
    unit.exhausted = False
    g.emit(f"{unit.name} is readied", *keys, K.READY_ACTION, K.READY_BY_EFFECT)
    triggers.fire(g, "ready", player=item.controller, subject=unit, what=f"{item.uid}:{ins.text}")


@on_each_card("exhaust")
def _on_exhaust(g: Game, ctx: Context, ins: Instruction, unit: Card, keys: tuple[str, ...]) -> None:
    _exhaust(g, unit, keys)


@on_each_card("stun")
def _on_stun(g: Game, ctx: Context, ins: Instruction, unit: Card, keys: tuple[str, ...]) -> None:
    item = ctx.item
    if unit.stunned:
        g.emit(f"{unit.name} is already stunned: it is not stunned again", *keys, K.STUN_NOT_AGAIN)
        return
    unit.stunned = True
    g.emit(f"{unit.name} is stunned", *keys, K.STUN_ACTION)
    triggers.fire(g, "stun", player=item.controller, subject=unit, what=f"{item.uid}:{ins.text}")


@on_each_card("buff")
def _on_buff(g: Game, ctx: Context, ins: Instruction, unit: Card, keys: tuple[str, ...]) -> None:
    item = ctx.item
    if unit.buffed and any(p[0] == "any_buffs" for p in unit.defn.passives):
        unit.more_buffs += 1  # "I can have any number of buffs": its text supersedes the rule of one
        g.emit(
            f"{unit.name} can have any number of buffs: it gets another (+1 Might; {1 + unit.more_buffs} buffs)",
            *keys,
            K.TEXT_CARD_SUPERSEDES,
            K.BUFF_PLUS_ONE_MIGHT,
        )
        triggers.fire(g, "buff", player=item.controller, subject=unit, what=f"{item.uid}:{ins.text}")
    elif unit.buffed:
        g.emit(f"{unit.name} already has a buff: it gets no other", *keys, K.BUFF_ONE_COUNTER)
        ctx.did = False
    else:
        unit.buffed = True
        g.emit(f"{unit.name} is buffed (+1 Might)", *keys, K.BUFF_ONE_COUNTER, K.BUFF_PLUS_ONE_MIGHT)
        triggers.fire(g, "buff", player=item.controller, subject=unit, what=f"{item.uid}:{ins.text}")


@on_each_card("double_might")
def _on_double_might(g: Game, ctx: Context, ins: Instruction, unit: Card, keys: tuple[str, ...]) -> None:
    s = g.s
    now = s.might(unit)
    unit.temp_might += now
    g.emit(
        f"{unit.name}'s Might is doubled this turn: +{now} (its Might as this resolves)",
        *keys,
        K.MIGHT_CURRENT,
        K.LAYERS_SNAPSHOT,
    )


@on_each_card("might")
def _on_might(g: Game, ctx: Context, ins: Instruction, unit: Card, keys: tuple[str, ...]) -> None:
    s = g.s
    amount = ins.amount
    minimum = dict(ins.data).get("minimum")
    if minimum is not None and amount < 0:
        now = s.raw_might(unit)
        amount = max(amount, min(0, int(minimum) - now))
        g.emit(
            f"{unit.name} gets {amount:+d} Might this turn ({ins.amount:+d} to a minimum of {minimum}: the "
            "limit is applied now and remembered)",
            *keys,
            K.MIGHT_CURRENT,
            K.LAYERS_SNAPSHOT,
        )
    else:
        g.emit(f"{unit.name} gets {amount:+d} Might this turn", *keys, K.MIGHT_CURRENT)
    unit.temp_might += amount


@on_each_card("might_to")
def _on_might_to(g: Game, ctx: Context, ins: Instruction, unit: Card, keys: tuple[str, ...]) -> None:
    # "increase its Might to the Might of another friendly unit": "its" is the unit before
    s, item = g.s, ctx.item
    raised = ctx.dealer
    if raised is None or not raised.on_board or raised.key == unit.key:
        g.emit(
            f"{item.label}: the unit whose Might would increase is not there: nothing",
            *keys,
            K.PLAY_NULL_INFORMATION,
        )
        return
    low, high = s.might(raised), s.might(unit)
    gain = max(0, high - low)
    raised.temp_might += gain
    g.emit(
        f"{raised.name}'s Might ({low}) is increased to {unit.name}'s ({high}) this turn: +{gain} (counted as "
        "this resolves and remembered)",
        *keys,
        K.MIGHT_CURRENT,
        K.LAYERS_SNAPSHOT,
    )


@on_each_card("might_of_it")
def _on_might_of_it(g: Game, ctx: Context, ins: Instruction, unit: Card, keys: tuple[str, ...]) -> None:
    item = ctx.item
    if ctx.it_might is None:
        g.emit(
            f'{item.label}: no unit was killed, so "its Might" is null: {unit.name} gets nothing',
            *keys,
            K.PLAY_NULL_INFORMATION,
        )
        return
    unit.temp_might += ctx.it_might
    g.emit(
        f"{unit.name} gets +{ctx.it_might} Might this turn (its Might as it left the board, looked back at)",
        *keys,
        K.MIGHT_CURRENT,
        K.PLAY_LOOK_BACK,
    )


@on_each_card("give_mine")
def _on_give_mine(g: Game, ctx: Context, ins: Instruction, unit: Card, keys: tuple[str, ...]) -> None:
    s, item = g.s, ctx.item
    src = ctx.source
    if src is None or not src.on_board:
        g.emit(f"{item.label}: its source is gone: its keywords and Might are null", *keys, K.PLAY_NULL_INFORMATION)
        return
    kws = s.keywords(src)
    amount = s.might(src)
    unit.temp_might += amount
    unit.granted = (*unit.granted, *((k, v2, True) for k, v2 in kws.items() if k not in ("Reaction",)))
    g.emit(
        f"{unit.name} gets {src.name}'s keywords now ({', '.join(kws) or 'none'}) and +{amount} Might this turn",
        *keys,
        K.MIGHT_CURRENT,
        K.KEYWORD_GRANTED,
    )


@on_each_card("grant")
def _on_grant(g: Game, ctx: Context, ins: Instruction, unit: Card, keys: tuple[str, ...]) -> None:
    s = g.s
    kws, this_turn = ins.data
    unit.granted = (*unit.granted, *((k, value, this_turn) for k, value in kws))
    if any(k in ("Assault", "Shield", "Deflect") for k, _ in kws):
        s.continuous = True  # Might now depends on keywords
    g.emit(
        f"{unit.name} gets {', '.join(k + (' ' + str(value) if value > 1 or k in ('Assault', 'Shield', 'Deflect') else '') for k, value in kws)}"
        + (" this combat (until it ends)" if this_turn == "combat" else " this turn" if this_turn else ""),
        *keys,
        K.KEYWORD_GRANTED,
        *((K.KEYWORD_VALUES_SUMMED,) if any(k in ("Assault", "Shield", "Deflect") for k, _ in kws) else ()),
    )


@on_each_card("heal")
def _on_heal(g: Game, ctx: Context, ins: Instruction, unit: Card, keys: tuple[str, ...]) -> None:
    if not unit.damage:
        g.emit(f"{unit.name} has no damage to heal", *keys, K.HEAL_CLEARS_DAMAGE, K.TEXT_DO_WHAT_YOU_CAN)
        return
    unit.damage = 0
    g.emit(f"{unit.name} is healed", *keys, K.HEAL_CLEARS_DAMAGE)


@on_each_card("recycle")
def _on_recycle(g: Game, ctx: Context, ins: Instruction, unit: Card, keys: tuple[str, ...]) -> None:
    s = g.s
    if unit.on_board:
        ctx.it_might = s.might(unit) if unit.is_unit else None  # "its Might", looked back at (356.3.e.13)
        board.recycle_permanent(g, unit, *keys)
    else:
        board.recycle_cards(g, [unit], *keys)


@on_each_card("play_from")
def _on_play_from(g: Game, ctx: Context, ins: Instruction, unit: Card, keys: tuple[str, ...]) -> None:
    s, item = g.s, ctx.item
    if unit.zone != "trash":
        g.emit(
            f"{item.label}: {unit.name} is no longer in the trash: it cannot be played",
            *keys,
            K.PLAY_NULL_INFORMATION,
        )
        return
    if "free" in ins.data:
        g.emit(
            f"{item.label}: {unit.name} is played ignoring its cost: its base energy and power costs are 0",
            *keys,
            K.COST_IGNORED,
        )
    if "energy" in ins.data:  # "ignoring its Energy cost": its power cost is still paid
        cost = costs.resolve_card_domain(unit.defn.cost or effects.Cost(), unit)
        power = effects.Cost(0, cost.power)
        payment = costs.plan(s, item.controller, power, legality.adders(s, item.controller))
        if payment is None:
            g.emit(
                f"{item.controller} cannot pay {power.text()}, the power cost of {unit.name}: it is not played "
                "and stays in the trash",
                *keys,
                K.COST_MUST_PAY,
            )
            ctx.did = False
            return
        g.emit(
            f"{item.label}: {unit.name} is played ignoring its Energy cost: its base energy cost is 0; its power "
            f"cost, {power.text()}, is paid",
            *keys,
            K.COST_IGNORED,
            K.COST_MUST_PAY,
        )
        board.pay(g, payment, unit.name)
    board.play_from(g, unit, item.controller, "base", item, *keys)


@on_each_card("spend_buff")
def _on_spend_buff(g: Game, ctx: Context, ins: Instruction, unit: Card, keys: tuple[str, ...]) -> None:
    s = g.s
    if unit.buffed:
        s.spend_buff(unit)
        g.emit(f"{unit.name}'s buff is spent", *keys, K.BUFF_SPEND)
    else:
        ctx.did = False
        g.emit(f"{unit.name} has no buff to spend", *keys, K.BUFF_SPEND)


@on_each_card("swap")
def _on_swap(g: Game, ctx: Context, ins: Instruction, unit: Card, keys: tuple[str, ...]) -> None:
    item = ctx.item
    me = ctx.source
    if me is None or not me.on_board or not unit.on_board:
        g.emit(
            f"{item.label}: one of the two units is no longer on the board: nothing moves",
            *keys,
            K.TEXT_DO_WHAT_YOU_CAN,
        )
        return
    mine, theirs = me.location or "base", unit.location or "base"
    board.move_units(g, me.controller or me.owner, [me], theirs, *keys, K.MOVE_BY_EFFECT)
    board.move_units(g, unit.controller or unit.owner, [unit], mine, *keys, K.MOVE_BY_EFFECT)


@on_each_card("weaponmaster")
def _on_weaponmaster(g: Game, ctx: Context, ins: Instruction, unit: Card, keys: tuple[str, ...]) -> None:
    _weaponmaster(g, ctx, unit, keys)


@on_each_card("attach")
def _on_attach(g: Game, ctx: Context, ins: Instruction, unit: Card, keys: tuple[str, ...]) -> None:
    item = ctx.item
    gear = ctx.source
    if gear is None or not gear.on_board:
        g.emit(f"{item.label}: the gear to attach is no longer on the board", *keys, K.PLAY_NULL_INFORMATION)
        return
    board.attach(g, gear, unit, *keys)


@on_each_card("control")
def _on_control(g: Game, ctx: Context, ins: Instruction, unit: Card, keys: tuple[str, ...]) -> None:
    s, item = g.s, ctx.item
    if unit.controller == item.controller:
        return
    old = unit.controller
    unit.controller = item.controller
    g.emit(f"{item.controller} gains control of {unit.name} (from {old})", *keys, K.CONTROL_OF_PERMANENT)
    if unit.zone == "battlefield" and unit.at is not None:
        board.contest(g, s.bf(unit.at), item.controller)


def _weaponmaster(g: Game, ctx: Context, gear: Card, keys: tuple[str, ...]) -> None:
    """Weaponmaster (747.1.c): pay the chosen Equipment's Equip cost reduced by [A] to attach it to this unit; optional
    in the edition with the Spiritforged FAQ (its ruling), done if it can be paid under Core Rules v1.2."""
    s, item = g.s, ctx.item
    me = ctx.source
    if me is None or not me.on_board:
        g.emit(f"{item.label}: the unit with Weaponmaster is no longer on the board", *keys, K.PLAY_NULL_INFORMATION)
        return
    if gear.defn.equip is None:
        g.emit(
            f"{gear.name} has no Equip cost: it cannot be paid, and {gear.name} stays where it is",
            *keys,
            K.WEAPONMASTER_PLAY_EFFECT,
            K.WEAPONMASTER_STAYS,
        )
        return
    cost = costs.resolve_card_domain(gear.defn.equip, gear)
    power = list(cost.power)
    reduced = "any" in power
    if reduced:
        power.remove("any")
    cost = effects.Cost(cost.energy, tuple(power))
    g.emit(
        f"Weaponmaster: {gear.name}'s Equip cost is {gear.defn.equip.text()}, "
        + (f"reduced by [A] to {cost.text()}" if reduced else "which has no [A] to reduce"),
        *keys,
        K.WEAPONMASTER_PLAY_EFFECT,
    )
    if K.FAQ_WEAPONMASTER_OPTIONAL in s.rulings:
        if not ask(g, item.controller, f"{item.label}: pay {cost.text()} to attach {gear.name} to {me.name}"):
            g.emit(
                f"{item.controller} chooses not to use Weaponmaster: {gear.name} stays where it is",
                K.FAQ_WEAPONMASTER_OPTIONAL,
                K.WEAPONMASTER_STAYS,
            )
            return
        g.emit(f"{item.controller} chooses to use Weaponmaster (it is optional)", K.FAQ_WEAPONMASTER_OPTIONAL)
    payment = costs.plan(s, item.controller, cost, legality.adders(s, item.controller))
    if payment is None:
        g.emit(
            f"{item.controller} cannot pay {cost.text()}: {gear.name} stays where it is", *keys, K.WEAPONMASTER_STAYS
        )
        return
    board.pay(g, payment, f"{gear.name}'s Equip (Weaponmaster)")
    board.attach(g, gear, me, *keys, K.WEAPONMASTER_PLAY_EFFECT)


def _card_names(g: Game, keys_: list[str | None]) -> str:
    return ", ".join(g.s.cards[k].name if k else "an unnamed card" for k in keys_) or "none"


def _look(g: Game, ctx: Context, ins: Instruction, keys: tuple[str, ...]) -> None:
    """Look at or reveal the top N cards of the controller's Main Deck (103.2.e.1, 411): they stay there (411.1.a.2);
    with fewer cards, as many as there are, and no Burn Out (418.1.c)."""
    s, me = g.s, ctx.item.controller
    deck = s.deck[me]
    n = min(ins.amount, len(deck))
    ctx.looked = list(deck[:n])
    reveal = ins.data and ins.data[0] == "reveal"
    short = n < ins.amount
    what = "the top card" if n == 1 else f"the top {n} cards" if n else "no card"
    g.emit(
        f"{me} {'reveals' if reveal else 'looks at'} {what} of their Main Deck ({_card_names(g, ctx.looked)})"
        + (f"; there {'is' if len(deck) == 1 else 'are'} only {len(deck)}: no Burn Out" if short else "")
        + ("; they stay in the Main Deck while revealed" if reveal and n else ""),
        *keys,
        K.LOOK_WHEN_INSTRUCTED,
        *((K.REVEAL_PRESENTS, K.REVEAL_STAYS_IN_ZONE) if reveal else ()),
        *((K.LOOK_EXCESS_NO_BURN_OUT,) if short else ()),
    )
    if n == 1 and deck[0] is not None:
        ctx.it = s.cards[deck[0]]


def _reveal_until(g: Game, ctx: Context, ins: Instruction, keys: tuple[str, ...]) -> None:
    """Reveal cards from the top of the controller's Main Deck until one of the type said (411): they stay in the
    deck; ``it`` is the one that fits, the others are "the rest". A card the scenario does not name cannot be
    known: revealing stops there (null information)."""
    s, me = g.s, ctx.item.controller
    what = ins.data[0]
    revealed: list[str | None] = []
    found = None
    for key in s.deck[me]:
        revealed.append(key)
        if key is None:
            break
        if s.cards[key].defn.type == what:
            found = s.cards[key]
            break
    ctx.looked, ctx.it = revealed, found
    unknown = bool(revealed) and revealed[-1] is None
    g.emit(
        f"{me} reveals {_card_names(g, revealed) if revealed else 'no card'} from the top of their Main Deck"
        + (
            f": {found.name} is a {what}"
            if found
            else f"; the last is a card the scenario does not name, so whether it is a {what} is unknown: no more "
            "is revealed"
            if unknown
            else f": none is a {what}"
        )
        + ("; they stay in the Main Deck while revealed" if revealed else ""),
        *keys,
        K.REVEAL_PRESENTS,
        K.REVEAL_STAYS_IN_ZONE,
        *((K.PLAY_NULL_INFORMATION,) if unknown else ()),
    )


def _deal_per(g: Game, ctx: Context, ins: Instruction, targets: list, keys: tuple[str, ...]) -> None:
    """ "Deal N to that unit for each card with KEYWORD revealed this way": the cards' printed keywords count (a
    characteristic, e.g. 737.5); a card that only mentions the keyword does not; an unnamed card has none."""
    s, item = g.s, ctx.item
    kw = ins.data[0]
    key = f"characteristic.{kw.lower().replace('-', '_')}"
    if ctx.looked is None:
        g.emit(f"{item.label}: no card was revealed: there is nothing to count", *keys, K.PLAY_NULL_INFORMATION)
        return
    having = [k for k in ctx.looked if k is not None and s.cards[k].defn.has(kw)]
    g.emit(
        f"{len(having)} of the revealed cards {'has' if len(having) == 1 else 'have'} {kw}"
        + (f" ({_card_names(g, list(having))})" if having else "")
        + (
            f"; {len(ctx.looked) - len(having)} {'does' if len(ctx.looked) - len(having) == 1 else 'do'} not"
            if len(ctx.looked) > len(having)
            else ""
        ),
        *keys,
        *((key,) if key in g.citations else ()),
    )
    unit = targets[0] if targets else None
    if not isinstance(unit, Card) or not unit.on_board:
        g.emit(f"{item.label}: the unit is no longer on the board: no damage is dealt", *keys, K.PLAY_NULL_INFORMATION)
        return
    if having:
        board.deal(g, item, unit, ins.amount * len(having), *keys)
    else:
        g.emit(f"{item.label} deals no damage to {unit.name} (0 cards counted)", *keys, K.TEXT_DO_WHAT_YOU_CAN)


def _play_card(g: Game, ctx: Context, ins: Instruction, keys: tuple[str, ...]) -> None:
    """An effect plays a card from its controller's hand, or banishes one of the cards looked at and plays it
    (406.3: a Limited Play; 406.3.c: none eligible, nothing happens). The player chooses which as it resolves;
    "ignoring its cost" sets its base costs to 0 (353.1.a); "if it's a unit, play it here" lets a unit be
    played to this battlefield (352.2.b)."""
    s, item, me = g.s, ctx.item, ctx.item.controller
    zone, free = ins.data[0], "free" in ins.data
    filters = dict(ins.aim.filters)
    if "might_killed_plus" in filters and ctx.it_might is None:
        g.emit(
            f"{item.label}: no unit was killed, so the killed unit's Might is null and no card can be compared "
            "with it: none is played",
            *keys,
            K.PLAY_NULL_INFORMATION,
            K.PLAY_BY_EFFECT_NONE,
        )
        ctx.did = False
        return
    if zone == "hand":
        pool = [c for c in s.cards.values() if c.zone == "hand" and c.owner == me]
    else:
        pool = [s.cards[k] for k in (ctx.looked or []) if k is not None]

    def eligible(c: Card) -> bool:
        if c.defn.type == "undefined":
            return False
        if "type" in filters and c.defn.type != filters["type"]:
            return False
        if "keyword" in filters and not c.defn.has(str(filters["keyword"])):
            return False
        if "might_killed_plus" in filters and c.defn.might > int(ctx.it_might or 0) + int(filters["might_killed_plus"]):  # type: ignore[call-overload]
            return False
        return True

    options = [c for c in pool if eligible(c)]
    what = "in their hand" if zone == "hand" else "among the cards looked at"
    if not options:
        g.emit(f"{item.label}: {me} has no eligible card {what}: nothing is played", *keys, K.PLAY_BY_EFFECT_NONE)
        ctx.did = False
        return
    if len(options) == 1:
        card = options[0]
    else:
        answer = g.next_answer()
        if answer is None:
            raise replacement.Pause(
                Awaiting("pick", me, tuple(c.name for c in options), about=item.label, item=item.uid),
                f"{item.label}: {me} chooses the card to play {what} ({', '.join(c.name for c in options)}; "
                f'"{me} chooses {options[0].name}"; not a target: the cards are not public)',
                (K.PLAY_BY_EFFECT, K.CHOICE_NOT_TARGET_PRIVATE, K.PRIORITY_LIMITED_ACTIONS_REGARDLESS),
            )
        card = next(c for c in options if c.name.lower() == answer[0].lower())
    if "banish" in ins.data:
        if card.key in s.deck[card.owner]:
            s.deck[card.owner].remove(card.key)
        card.zone = "banishment"
        board.card_epoch_bump(g, card)
        ctx.looked = [k for k in (ctx.looked or []) if k != card.key]
        g.emit(
            f"{me} banishes {card.name} from among the cards looked at, to play it from there",
            *keys,
            K.BANISH_ACTION,
            K.BANISH_HOLDING_SPACE,
        )
    if card.defn.has("Hidden") and zone == "hand":
        g.emit(
            f"{card.name} has Hidden, but it is played from {me}'s hand, not hidden: hiding is not playing",
            *keys,
            K.HIDE_NOT_PLAY,
        )
    place = "base"
    if card.defn.type == "unit" and ctx.unit_here:
        here = (ctx.source.location if ctx.source is not None and ctx.source.on_board else None) or dict(
            item.noted
        ).get("at")
        if here and here != "base":
            place = here
            bf = s.bf(here)
            g.emit(
                f"{card.name} is a unit: it is played here, at {bf.name}"
                + (
                    ""
                    if bf.controller == me
                    else f", which {me} does not control: the effect makes it a valid location"
                ),
                *keys,
                K.PLAY_LOCATION_PERMISSION,
                K.PLAY_UNIT_LOCATION,
            )
    elif card.defn.type != "unit" and ctx.unit_here:
        g.emit(
            f'{card.name} is not a unit: "play it here" does not apply to it (a location is chosen for units)',
            *keys,
            K.PLAY_UNIT_LOCATION,
        )
    g.emit(
        f"{item.label}: {me} plays {card.name} as the effect instructs"
        + (", ignoring its cost: its base energy and power costs are 0" if free else ""),
        *keys,
        K.PLAY_BY_EFFECT,
        *((K.COST_IGNORED,) if free else ()),
    )
    if not free and card.defn.cost:
        cost = costs.resolve_card_domain(card.defn.cost, card)
        cut = s.next_spell_cut(me) if card.defn.type == "spell" and s.next_spell else 0
        # "reducing its cost by [5]" (the effect's), "the next spell you play this turn costs [5] less": discounts
        cut += sum(int(d[7:]) for d in ins.data if isinstance(d, str) and d.startswith("reduce:"))
        if cut and cost.energy:
            g.emit(f"{card.name}'s Energy cost is reduced by {cut} (a discount)", *keys, K.COST_DISCOUNTS)
            cost = effects.Cost(max(0, cost.energy - cut), cost.power, cost.exhaust, cost.extra)
        payment = costs.plan(s, me, cost, legality.adders(s, me, card.defn.type), card.defn.type)
        if payment is None:
            g.emit(
                f"{me} cannot pay {cost.text()} for {card.name}: it is not played and stays "
                + ("banished" if card.zone == "banishment" else f"in {me}'s {card.zone}"),
                *keys,
                K.COST_MUST_PAY,
            )
            ctx.did = False
            return
        board.pay(g, payment, card.name)
    board.play_from(g, card, me, place, item, *keys)
    ctx.it = card
    ctx.did = True


def _in_state(card: Card, state: str) -> bool:
    return {
        "damaged": card.damage > 0,
        "stunned": card.stunned,
        "exhausted": card.exhausted,
        "buffed": card.buffed,
    }[state]


def _each_kill(g: Game, ctx: Context, ins: Instruction, keys: tuple[str, ...]) -> None:
    """ "Each player kills one of their units": each of those players, in turn order, chooses one of their own
    as it resolves (not a target: 355.10.e); the rules wait for ``P chooses UNIT`` when a player has a choice.
    Then every one chosen is killed."""
    s, item = g.s, ctx.item
    who, kind = ins.data
    players = [p for p in s.in_turn_order(s.players) if who == "player" or p in s.opponents(item.controller)]
    chosen: list[Card] = []
    for p in players:
        own = [c for c in s.cards.values() if c.on_board and c.controller == p and c.defn.type == kind]
        if not own:
            g.emit(f"{item.label}: {p} has no {kind} to kill", *keys, K.TEXT_DO_WHAT_YOU_CAN)
            continue
        if len(own) == 1:
            chosen.append(own[0])
            continue
        answer = g.next_answer()
        if answer is None:
            what = f"one of their {'units' if kind == 'unit' else 'gear'} to kill"
            raise _choice(
                item,
                p,
                tuple(c.name for c in own),
                what,
                K.TARGETS_EACH_PLAYER_CHOOSES,
                f"{item.label}: {p} chooses {what} as it resolves ({', '.join(c.name for c in own)}; "
                f'"{p} chooses {own[0].name}"; not a target)',
                (K.TARGETS_EACH_PLAYER_CHOOSES, K.PRIORITY_LIMITED_ACTIONS_REGARDLESS),
            )
        chosen.append(next(c for c in own if c.name.lower() == answer[0].lower()))
    if chosen:
        g.emit(
            f"{item.label}: each player chooses as it resolves, not a target: {', '.join(c.name for c in chosen)}",
            *keys,
            K.TARGETS_EACH_PLAYER_CHOOSES,
        )
    ctx.did = bool(chosen)
    for c in chosen:
        if c.on_board:
            board.kill(g, c, *keys, K.KILL_INSTRUCTION_RESPONSIBLE)


def _each_choose(g: Game, ctx: Context, ins: Instruction, keys: tuple[str, ...]) -> None:
    """ "Starting with the next player, each other player chooses a unit you don't control that hasn't been chosen
    for this spell": each of those players in turn chooses one that fits as it resolves (not a target, 352.10.e),
    a different one each with "that hasn't been chosen"; ``those units`` after it are the ones chosen."""
    s, item = g.s, ctx.item
    who, start = ins.data
    order = s.players[s.players.index(item.controller) :] + s.players[: s.players.index(item.controller)]
    if start == "next":
        order = order[1:] + order[:1]
    else:
        order = s.in_turn_order(s.players)
    players = [
        p
        for p in order
        if (not who.startswith("other") or p != item.controller)
        and (not who.endswith("opponent") or p in s.opponents(item.controller))
    ]
    probe = Instruction("choose", 0, replace(ins.aim, kind="unit"))
    distinct = ("unchosen", True) in ins.aim.filters
    chosen: list[Card] = []
    for p in players:
        options = [
            c
            for c in s.cards.values()
            if legality.target_problem(s, item.controller, probe, c, item.hidden_at, ctx.source, item.noted) is None
            and not (distinct and c in chosen)
        ]
        if not options:
            g.emit(f"{item.label}: there is no unit left for {p} to choose", *keys, K.TEXT_DO_WHAT_YOU_CAN)
            continue
        if len(options) == 1:
            pick = options[0]
        else:
            answer = g.next_answer()
            if answer is None:
                raise _choice(
                    item,
                    p,
                    tuple(c.name for c in options),
                    "a unit",
                    K.TARGETS_EACH_PLAYER_CHOOSES,
                    f"{item.label}: {p} chooses a unit as it resolves ({', '.join(c.name for c in options)}; "
                    f'"{p} chooses {options[0].name}"; not a target)',
                    (K.TARGETS_EACH_PLAYER_CHOOSES, K.TURN_ORDER_SEQUENCE, K.PRIORITY_LIMITED_ACTIONS_REGARDLESS),
                )
            pick = next(c for c in options if c.name.lower() == answer[0].lower())
        chosen.append(pick)
        g.emit(f"{item.label}: {p} chooses {pick.name} (not a target)", *keys, K.TARGETS_EACH_PLAYER_CHOOSES)
    ctx.chosen = chosen
    ctx.did = bool(chosen)


def _each_pick(g: Game, ctx: Context, ins: Instruction, keys: tuple[str, ...]) -> None:
    """ "Each other player chooses cards or runes": each of those players, in turn order, chooses one of the two
    words as it resolves (a choice of each player, not a target: 352.10.e), kept for what follows."""
    s, item = g.s, ctx.item
    who, options = ins.data
    players = [
        p
        for p in s.in_turn_order(s.players)
        if (not who.startswith("other") or p != item.controller)
        and (not who.endswith("opponent") or p in s.opponents(item.controller))
    ]
    for p in players:
        answer = g.next_answer()
        if answer is None:
            raise _choice(
                item,
                p,
                tuple(options),
                "one of them",
                K.TARGETS_EACH_PLAYER_CHOOSES,
                f'{item.label}: {p} chooses {" or ".join(options)} as it resolves ("{p} chooses {options[0]}")',
                (K.TARGETS_EACH_PLAYER_CHOOSES, K.TURN_ORDER_SEQUENCE, K.PRIORITY_LIMITED_ACTIONS_REGARDLESS),
            )
        ctx.picks[p] = next(o for o in options if o == answer[0].lower())
        g.emit(f"{item.label}: {p} chooses {ctx.picks[p]}", *keys, K.TARGETS_EACH_PLAYER_CHOOSES)


def _each_return(g: Game, ctx: Context, ins: Instruction, keys: tuple[str, ...]) -> None:
    """ "Starting with the next player, each player may return a unit to its owner's hand": each of those players
    in turn chooses a unit, or nothing, as it resolves (not a target: 352.10.e), and it returns at once."""
    s, item = g.s, ctx.item
    who, start = ins.data
    order = s.players[s.players.index(item.controller) :] + s.players[: s.players.index(item.controller)]
    if start == "next":
        order = order[1:] + order[:1]
    elif item.controller != s.turn_player:
        order = s.in_turn_order(s.players)
    players = [p for p in order if who == "player" or p in s.opponents(item.controller)]
    for p in players:
        units = [c for c in s.cards.values() if c.on_board and c.is_unit]
        if not units:
            g.emit(f"{item.label}: there is no unit for {p} to return", *keys, K.TEXT_DO_WHAT_YOU_CAN)
            continue
        answer = g.next_answer()
        if answer is None:
            options = (*(c.name for c in units), "nothing")
            raise _choice(
                item,
                p,
                options,
                "a unit to return to its owner's hand, or nothing",
                K.TARGETS_EACH_PLAYER_CHOOSES,
                f"{item.label}: {p} chooses a unit to return to its owner's hand, or nothing, as it resolves "
                f'({", ".join(options)}; "{p} chooses {units[0].name}"; not a target)',
                (K.TARGETS_EACH_PLAYER_CHOOSES, K.TURN_ORDER_SEQUENCE, K.PRIORITY_LIMITED_ACTIONS_REGARDLESS),
            )
        unit = next((c for c in units if c.name.lower() == answer[0].lower()), None)
        if unit is None:
            g.emit(f"{item.label}: {p} chooses to return nothing", *keys, K.TARGETS_EACH_PLAYER_CHOOSES)
            continue
        where = unit.location
        board.leave_board(g, unit, "hand")
        g.emit(
            f"{item.label}: {p} chooses {unit.name} (not a target): it returns from {where} to its owner's "
            f"({unit.owner}'s) hand",
            *keys,
            K.TARGETS_EACH_PLAYER_CHOOSES,
            K.RETURN_OWNERS_HAND,
        )


def _rune_choice(g: Game, ctx: Context) -> int | None:
    """ "You must recycle one of your runes": its controller chooses which as it resolves, not a target
    (355.10.f); the rules wait for ``P chooses exhausted Fury rune`` when their runes differ. The rune's index,
    or None when there is nothing to choose between."""
    me = ctx.item.controller
    runes = g.s.runes[me] or []
    kinds = list(dict.fromkeys(board.rune_label(r) for r in runes))
    if len(kinds) < 2:
        return None
    answer = g.next_answer()
    if answer is None:
        raise _choice(
            ctx.item,
            me,
            tuple(kinds),
            "a rune to recycle",
            K.TARGETS_MUST_NOT_TARGET,
            f"{ctx.item.label}: {me} chooses which of their runes to recycle as it resolves ({', '.join(kinds)}; "
            f'"{me} chooses {kinds[0]}"; not a target)',
            (K.TARGETS_MUST_NOT_TARGET, K.PRIORITY_LIMITED_ACTIONS_REGARDLESS),
        )
    return next(i for i, r in enumerate(runes) if board.rune_label(r).lower() == answer[0].lower())


def _recycle_looked(g: Game, ctx: Context, keys: tuple[str, ...]) -> None:
    """Recycle the cards looked at or revealed: from the top of the Main Deck to its bottom (411.4.a, 403.1.a)."""
    s, me = g.s, ctx.item.controller
    if not ctx.looked:
        g.emit(f"{ctx.item.label}: no card was looked at: there is nothing to recycle", *keys, K.LOOK_TOO_FEW_IGNORED)
        return
    n = len(ctx.looked)
    top = s.deck[me][:n]
    s.deck[me] = s.deck[me][n:] + top
    for k in top:
        if k is not None:
            board.card_epoch_bump(g, s.cards[k])
    g.emit(
        f"{me} recycles {_card_names(g, top)} to the bottom of their Main Deck",
        *keys,
        K.RECYCLE_TO_MAIN_DECK,
        K.REVEAL_DESTINATION,
    )
    ctx.looked = []
    triggers.fire(g, "recycle", player=me)


def _looked_choice(g: Game, ctx: Context, options: tuple[str, ...], what: str) -> str:
    """Its controller chooses one of ``options`` among the cards looked at, as it resolves (not a target: they are
    private); the rules wait for ``P chooses X``."""
    answer = g.next_answer()
    if answer is None:
        me = ctx.item.controller
        raise _choice(
            ctx.item,
            me,
            options,
            what,
            K.CHOICE_NOT_TARGET_PRIVATE,
            f'{ctx.item.label}: {me} chooses {what} ({", ".join(options)}; "{me} chooses {options[0]}"; not a target: '
            "the cards are not public)",
            (K.CHOICE_NOT_TARGET_PRIVATE, K.PRIORITY_LIMITED_ACTIONS_REGARDLESS),
        )
    return answer[0]


def _split(g: Game, ctx: Context, ins: Instruction, units: list[Card], keys: tuple[str, ...]) -> None:
    """ "Deal 5 damage split among any number of enemy units here": the targets left get the damage divided as its
    controller chooses as it resolves, at least 1 each (352.14.e-g), one unit after another (`P chooses 2`)."""
    item = ctx.item
    if len(units) > ins.amount:  # more targets than damage: its controller's choice of those that cease (352.14.h)
        units = units[: ins.amount]
    left = ins.amount
    shares: list[tuple[Card, int]] = []
    for i, unit in enumerate(units):
        rest = len(units) - i - 1
        if rest == 0:
            share = left
        elif left - rest == 1:
            share = 1
        else:
            answer = g.next_answer()
            options = tuple(str(n) for n in range(1, left - rest + 1))
            if answer is None:
                raise _choice(
                    item,
                    item.controller,
                    options,
                    f"how much of the {left} damage left {unit.name} is dealt",
                    K.SPLIT_AT_RESOLUTION,
                    f"{item.label}: {item.controller} divides the damage as it resolves: how much of the {left} left "
                    f'{unit.name} is dealt ({", ".join(options)}; "{item.controller} chooses {options[-1]}"; at '
                    "least 1 for each target)",
                    (K.SPLIT_AT_RESOLUTION, K.PRIORITY_LIMITED_ACTIONS_REGARDLESS),
                )
            share = int(answer[0])
        shares.append((unit, share))
        left -= share
    g.emit(
        f"{item.label}: {item.controller} divides {ins.amount} damage among its targets: "
        + ", ".join(f"{u.name} {n}" for u, n in shares),
        *keys,
        K.SPLIT_TARGETS,
        K.SPLIT_AT_RESOLUTION,
    )
    for unit, share in shares:
        board.deal(g, item, unit, share, *keys)


def _recycle_some(g: Game, ctx: Context, keys: tuple[str, ...]) -> None:
    """ "You may recycle one or both of them" (after looking at the top 2 cards): one, or both, to the bottom of the
    Main Deck (403.1.a); the rest stay on top."""
    s, me = g.s, ctx.item.controller
    looked = [k for k in (ctx.looked or []) if k is not None]
    if not looked:
        g.emit(f"{ctx.item.label}: no card was looked at: there is nothing to recycle", *keys, K.LOOK_TOO_FEW_IGNORED)
        return
    names = tuple(s.cards[k].name for k in looked)
    if len(looked) == 1:
        gone = looked
    else:
        pick = _looked_choice(g, ctx, (*names, "both"), "which of the cards looked at to recycle, one or both")
        gone = looked if pick.lower() == "both" else [k for k in looked if s.cards[k].name.lower() == pick.lower()]
    for k in gone:
        s.deck[me].remove(k)
        s.deck[me].append(k)
        board.card_epoch_bump(g, s.cards[k])
    ctx.looked = [k for k in (ctx.looked or []) if k not in gone]
    named: list[str | None] = list(gone)
    g.emit(
        f"{me} recycles {_card_names(g, named)} to the bottom of their Main Deck",
        *keys,
        K.RECYCLE_TO_MAIN_DECK,
        K.CHOICE_NOT_TARGET_PRIVATE,
    )
    triggers.fire(g, "recycle", player=me)


def _put_back(g: Game, ctx: Context, keys: tuple[str, ...]) -> None:
    """ "Put those you don't back in any order": the cards looked at still on top of the Main Deck, in the order
    its controller chooses, the top one first."""
    s, me = g.s, ctx.item.controller
    left = [k for k in (ctx.looked or []) if k is not None]
    order: list[str] = []
    while len(left) > 1:
        pick = _looked_choice(g, ctx, tuple(s.cards[k].name for k in left), "the card to put on top")
        key = next(k for k in left if s.cards[k].name.lower() == pick.lower())
        order.append(key)
        left.remove(key)
    order += left
    if not order:
        return
    top: list[str | None] = list(order)
    s.deck[me] = top + [k for k in s.deck[me] if k not in order]
    g.emit(
        f"{me} puts {_card_names(g, top)} back on top of their Main Deck in that order, the first on top",
        *keys,
        K.LOOK_WHEN_INSTRUCTED,
        K.CHOICE_NOT_TARGET_PRIVATE,
    )


def _put_looked(g: Game, ctx: Context, ins: Instruction, keys: tuple[str, ...]) -> None:
    """Put N of the cards looked at into the hand (after ``look at the top N cards``): its controller chooses
    which as it resolves, not a target (the cards are private); fewer when fewer were looked at (418.1.c)."""
    s, me = g.s, ctx.item.controller
    looked = list(ctx.looked or [])
    if not looked:
        g.emit(f"{ctx.item.label}: no card was looked at: none is put into the hand", *keys, K.LOOK_TOO_FEW_IGNORED)
        return
    for _ in range(min(ins.amount, len(looked))):
        named = [s.cards[k] for k in looked if k is not None]
        key: str | None
        if len(named) > 1:
            answer = g.next_answer()
            if answer is None:
                raise replacement.Pause(
                    Awaiting("pick", me, tuple(c.name for c in named), about=ctx.item.label, item=ctx.item.uid),
                    f"{ctx.item.label}: {me} chooses the card to put into their hand among those looked at "
                    f'({", ".join(c.name for c in named)}; "{me} chooses {named[0].name}"; not a target: the cards '
                    "are not public)",
                    (K.CHOICE_NOT_TARGET_PRIVATE, K.PRIORITY_LIMITED_ACTIONS_REGARDLESS),
                )
            key = next(c.key for c in named if c.name.lower() == answer[0].lower())
        else:
            key = named[0].key if named else None
        looked.remove(key)
        s.deck[me].remove(key)
        if key is None:
            s.hand_unnamed[me] += 1
            what = "a card"
        else:
            card = s.cards[key]
            card.zone = "hand"
            board.card_epoch_bump(g, card)
            what = card.name
        g.emit(
            f"{me} puts {what} from among the cards looked at into their hand",
            *keys,
            K.LOOK_WHEN_INSTRUCTED,
            K.CHOICE_NOT_TARGET_PRIVATE,
        )
    ctx.looked = looked


def _exhaust(g: Game, unit: Card, keys: tuple[str, ...]) -> None:
    if unit.exhausted:
        g.emit(
            f"{unit.name} is already exhausted: nothing additional happens",
            *keys,
            K.EXHAUST_ALREADY_EXHAUSTED,
            K.TEXT_DO_WHAT_YOU_CAN,
        )
        return
    unit.exhausted = True
    g.emit(f"{unit.name} is exhausted", *keys, K.EXHAUST_ACTION)


def apply_single(
    g: Game, item: ChainItem, ins: Instruction, target: Card | ChainItem | None, keys: tuple[str, ...]
) -> None:
    """One instruction of a replacement effect's "instead" (no targets: ``me``, ``that unit``)."""
    source = g.s.cards.get(item.source or "") if item.source else None
    ctx = Context(item, source, [])
    if isinstance(target, Card):
        ctx.it = target
    apply(g, ctx, ins, [target], keys)
