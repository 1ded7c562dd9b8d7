"""Is this action legal now? (117 priority, 116.2a and 305 lands, 601 casting and its timing, 115 and
702 targets, 602 and 605 abilities, 118 paying costs, 508 and 509 declaring attackers and blockers, 510
assigning combat damage, 603.3b ordering triggers, 700.2 modes, 107.3 X.)

Every function here reads the state and changes nothing. A check raises :class:`engine.core.Refusal`
with the citation keys of the rule that forbids the action (:class:`engine.core.ScenarioError` for a
sentence naming what is not there) or returns the plan the steps carry out; a predicate returns the
citation key of why not, or None. The game checks an action completely before anything changes, so an
illegal action leaves the game untouched.

>>> from engine.mtg.build import build
>>> s = build({"players": ["Ana", "Ben"], "turn": {"player": "Ana", "phase": "main1"},
...            "state": {"permanents": [{"name": "Mountain", "controller": "Ana"}]}}, "2026-02-27", frozenset())
>>> s.priority = "Ana"
>>> payment(s, "Ana", (("R", 1),), "Shock").taps[0].name
'Mountain'
>>> try:
...     payment(s, "Ana", (("*", 1), ("R", 1)), "Lava Spike")
... except Refusal as no:
...     no.keys
('cast.pay',)
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from engine.core import Refusal, ScenarioError, suggest
from engine.mtg.actions import Action
from engine.mtg.effects import (
    QUALIFIED,
    SPELL_KINDS,
    enchants,
    own_name,
    parse_effect,
    stat_kind,
    target_kinds,
    uses_x,
)
from engine.mtg.keywords import cost_of, entries
from engine.mtg.state import (
    MAIN_PHASES,
    ORDER,
    PHASES,
    AbilityDef,
    Assignment,
    Card,
    CardDef,
    PendingTrigger,
    Permanent,
    Source,
    State,
    Target,
    parse_cost,
    show_cost,
    with_x,
)


# -- the plans the steps carry out ---------------------------------------------------------------------
@dataclass(frozen=True)
class Payment:
    """How a cost is paid: mana from the pool first, then these lands tapped (in the order listed)."""

    player: str
    cost: tuple[tuple[str, int], ...]
    what: str
    taps: tuple[Permanent, ...]
    pool: dict[str, int]  # the player's mana pool once paid
    from_pool: int
    colours: tuple[str, ...] = ()  # the colour each land tapped is tapped for (a land of several: the one chosen)


@dataclass(frozen=True)
class Casting:
    player: str
    card: Card
    definition: CardDef
    targets: tuple[Target, ...]
    payment: Payment | None
    x: int = 0
    mode: str = ""  # the chosen mode's text (700.2a)
    effect: str = ""  # what it will do: its effect, or its mode's
    sacrifice: Permanent | None = None  # sacrificed to pay an additional cost (118.8)
    flashback: bool = False  # cast from its owner's graveyard for its flashback cost (702.34a)


@dataclass(frozen=True)
class StartCasting:
    """A modal spell proposed without its mode: the mode is announced next (601.2b)."""

    player: str
    card: Card
    definition: CardDef
    x: int = 0


@dataclass(frozen=True)
class PlayingLand:
    player: str
    card: Card
    definition: CardDef | None


@dataclass(frozen=True)
class Activating:
    player: str
    perm: Permanent
    ability: AbilityDef | None  # None: a land's own mana ability
    cost: tuple[tuple[str, int], ...]
    targets: tuple[Target, ...]
    payment: Payment | None
    mana: str  # the mana a mana ability adds ("" for an ability that uses the stack)


@dataclass(frozen=True)
class Cycling:
    """Cycling a card in its owner's hand (702.29a): ``[Cost], Discard this card: Draw a card.``"""

    player: str
    card: Card
    definition: CardDef
    cost: tuple[tuple[str, int], ...]
    payment: Payment | None


@dataclass(frozen=True)
class Attacking:
    player: str
    attackers: tuple[Permanent, ...]


@dataclass(frozen=True)
class Blocking:
    player: str
    blocks: tuple[tuple[Permanent, Permanent], ...]  # (attacker, blocker)


@dataclass(frozen=True)
class AssigningDamage:
    player: str
    attacker: Permanent
    assignments: tuple[Assignment, ...]
    asked: bool = False  # an ``ask:`` about an assignment the engine makes by itself: answered, not made


@dataclass(frozen=True)
class OrderingTriggers:
    player: str
    order: tuple[int, ...]  # indices into the player's waiting triggers, first onto the stack first


@dataclass(frozen=True)
class AimingTrigger:
    """``P puts TRIGGER on the stack targeting X``: the targets of a waiting triggered ability (603.3d)."""

    player: str
    index: int  # into the player's waiting triggers
    targets: tuple[Target, ...]


@dataclass(frozen=True)
class Paying:
    player: str
    pays: bool
    payment: Payment | None


@dataclass(frozen=True)
class Passing:
    player: str


@dataclass(frozen=True)
class MovingTo:
    player: str
    step: str


Plan = (
    Casting
    | StartCasting
    | PlayingLand
    | Activating
    | Cycling
    | Attacking
    | Blocking
    | AssigningDamage
    | OrderingTriggers
    | AimingTrigger
    | Paying
    | Passing
    | MovingTo
)


def check(s: State, act: Action, asking: bool = False) -> Plan:
    """The plan for ``act``, or :class:`Refusal` (the rules forbid it now). ``asking``: ``act`` is asked
    about (``ask:``), never carried out."""
    player = s.player_named(act.player)
    game_over(s)
    if act.verb == "cast":
        return cast(s, player, act.names[0], act.targets, act.x, act.mode)
    if act.verb == "choose":
        return choose_mode(s, player, act.mode or "", act.targets)
    if act.verb == "play":
        return play(s, player, act.names[0], act.targets)
    if act.verb == "activate":
        return activate(s, player, act.names[0], act.targets)
    if act.verb == "attack":
        return attack(s, player, act.names)
    if act.verb == "block":
        return block(s, player, act.pairs)
    if act.verb == "assign":
        return assign_damage(s, player, act.names[0] if act.names else None, act.amounts, asking)
    if act.verb == "order":
        return order_triggers(s, player, act.names)
    if act.verb == "aim":
        return aim_trigger(s, player, act.names[0], act.targets)
    if act.verb == "pay":
        return pay_or_not(s, player, act.pays, act.x)
    if act.verb == "pass":
        priority(s, player, "pass priority")
        return Passing(player)
    return move_to(s, player, act.names[0])


# -- who may act -----------------------------------------------------------------------------------------
def game_over(s: State) -> None:
    if s.over:
        raise Refusal(f"the game is over: {s.winner or 'nobody'} won", "game.over")


_WAITING = {
    "attackers": ("must first declare attackers", "turn.declare_attackers"),
    "blockers": ("must first declare blockers", "turn.declare_blockers"),
    "damage": ("must first assign combat damage", "combat.assign"),
    "triggers": ("must first put their triggered abilities on the stack in the order they choose", "trigger.apnap"),
    "aim": ("must first choose the targets of a triggered ability as it is put on the stack", "trigger.targets"),
    "mode": ("must first announce the mode of the spell being cast", "cast.modes"),
    "pay": ("must first choose whether to pay", "effect.unless"),
}


def waiting_for(s: State) -> tuple[str, str] | None:
    """(who must decide what, its key) while the rules wait for a decision."""
    if s.pending is None:
        return None
    what, key = _WAITING[s.pending]
    who = {"attackers": s.turn_player, "blockers": s.defending}.get(s.pending) or s.deciding or s.turn_player
    return f"{who} {what}", key


def priority(s: State, player: str, doing: str) -> None:
    """Casting, activating, playing a land and passing need priority (117.1)."""
    game_over(s)
    if s.priority == player:
        return
    if s.priority is None:
        waiting = waiting_for(s)
        keys = ("priority.who_acts",) + ((waiting[1],) if waiting else ())
        raise Refusal(f"{player} cannot {doing}: nobody has priority" + (f" ({waiting[0]})" if waiting else ""), *keys)
    raise Refusal(f"{player} cannot {doing}: {s.priority} has priority, not {player}", "priority.who_acts")


def decision(s: State, player: str, pending: str, doing: str) -> None:
    """``player`` makes the decision the rules wait for (``pending``), or :class:`Refusal`."""
    game_over(s)
    waiting = waiting_for(s)
    if s.pending != pending:
        if waiting:
            raise Refusal(f"{player} cannot {doing} now: {waiting[0]}", waiting[1])
        raise Refusal(f"{player} cannot {doing} now: nothing of the kind is awaited", _WAITING[pending][1])
    if player != s.deciding:
        raise Refusal(f"{player} cannot {doing}: {waiting[0] if waiting else ''}", _WAITING[pending][1])


# -- finding things ----------------------------------------------------------------------------------------
def card_in_hand(s: State, player: str, name: str) -> Card:
    card = s.match(name, s.hand.get(player, []))
    if card is not None:
        return card
    where = s.where(name)
    if where:
        raise ScenarioError((), f'no card named "{name}" in {player}\'s hand (it is {where})')
    raise s.unknown(name, f"card in {player}'s hand:")


def spell_source(player: str, d: CardDef, oid: int = 0) -> Source:
    return Source(d.name, player, d.colours, d.types, d.keywords, oid)


def choose_targets(
    s: State,
    player: str,
    what: str,
    kinds: tuple[str, ...],
    names: tuple[str, ...],
    src: Source,
    itself: int | None = None,
) -> tuple[Target, ...]:
    if len(names) > len(kinds):
        raise ScenarioError((), f"{what} has {len(kinds)} target(s), {len(names)} given")
    if len(names) < len(kinds):
        raise Refusal(
            f"{what} needs a target ({', '.join('target ' + k for k in kinds)}) and none is named", "cast.targets"
        )
    out = []
    for kind, name in zip(kinds, names):
        target = s.find_target(name)
        if target is None:
            where = s.where(name)
            if where:
                raise Refusal(f"{name} is {where}: it is not a legal target for {what}", "cast.targets")
            raise s.unknown(name, "player or object")
        if target.ref == itself:
            raise Refusal(f"{target.name} cannot target itself", "cast.targets")
        why = why_not(s, target, kind, src)
        if why is not None:
            raise Refusal(f"{target.name} is not a legal target for {what}: {why[0]}", *why[1:])
        out.append(target)
    return tuple(out)


def _kind_matches(s: State, perm: Permanent, kind: str, src: Source) -> bool:
    numbered = stat_kind(kind)
    if numbered is not None:
        base, stat, n, bound = numbered
        value = (
            s.power(perm)
            if stat == "power"
            else s.toughness(perm)
            if stat == "toughness"
            else sum(k for sym, k in perm.card.cost if sym != "X")
        )
        return _kind_matches(s, perm, base, src) and (value >= n if bound == "greater" else value <= n)
    if kind in QUALIFIED:
        return perm.is_a("creature") and qualified(s, perm, kind)
    if kind in ("creature", "creature or player"):
        return perm.is_a("creature")
    if kind == "any":
        return perm.is_a("creature") or (perm.is_a("planeswalker") and s.follows("any_target"))
    if kind == "creature or planeswalker":
        return perm.is_a("creature") or perm.is_a("planeswalker")
    if kind in ("player or planeswalker", "opponent or planeswalker"):
        return perm.is_a("planeswalker")
    if kind == "creature you control":
        return perm.is_a("creature") and perm.controller == src.controller
    if kind in ("creature you don't control", "creature an opponent controls"):
        return perm.is_a("creature") and perm.controller != src.controller
    if kind == "permanent":
        return True
    if kind == "nonland permanent":
        return not perm.is_a("land")
    if kind == "artifact or enchantment":
        return perm.is_a("artifact") or perm.is_a("enchantment")
    return perm.is_a(kind)


def kind_matches(s: State, perm: Permanent, kind: str, controller: str) -> bool:
    """Is ``perm`` of a target kind, for a spell or ability ``controller`` controls (hexproof and the like
    aside)?"""
    return _kind_matches(s, perm, kind, Source("", controller))


def qualified(s: State, perm: Permanent, kind: str) -> bool:
    """Does the creature ``perm`` have what a qualified target kind asks (``attacking creature``)?"""
    if kind.startswith("creature with"):
        return s.has(perm, kind.split()[-1]) != kind.startswith("creature without")
    state = {"attacking": perm.attacking, "blocking": perm.blocking is not None, "tapped": perm.tapped}
    state["untapped"] = not perm.tapped
    return any(state[word] for word in kind.removesuffix(" creature").split(" or "))


# The target kinds a player may be (the rest are objects).
PLAYER_KINDS = (
    "player",
    "creature or player",
    "any",
    "opponent",
    "player or planeswalker",
    "opponent or planeswalker",
)


def why_not(s: State, target: Target, kind: str, src: Source | None) -> tuple[str, ...] | None:
    """Why ``target`` is not (or no longer) a legal target of this kind for a spell or ability from ``src``:
    (the reason, its citation keys), or None. A permanent that left is a new object (400.7)."""
    if target.kind == "player":
        if kind not in PLAYER_KINDS:
            return (f"it needs target {kind}", "cast.targets")
        if target.ref in s.lost:
            return ("that player has left the game", "cast.targets")
        if kind.startswith("opponent") and src is not None and target.ref == src.controller:
            return (f"it needs target {kind}", "cast.targets")
        return None
    if target.kind == "permanent":
        perm = s.permanent(target.ref)  # type: ignore[arg-type]
        if perm is None:
            return ("it has left the battlefield", "cast.targets", "zone.new_object")
        if kind in ("player", "opponent") + SPELL_KINDS or not _kind_matches(s, perm, kind, src or Source("", "")):
            return (f"it needs target {kind}", "cast.targets")
        if src is None:
            return None
        keywords = s.keywords(perm)
        if "shroud" in keywords:
            return (f"{perm.name} has shroud", "keyword.shroud", "cast.targets")
        if "hexproof" in keywords and perm.controller != src.controller:
            return (
                f"{perm.name} has hexproof and {src.controller} is {perm.controller}'s opponent",
                "keyword.hexproof",
                "cast.targets",
            )
        quality = s.protected_from(perm, src)
        if quality is not None:
            return (
                f"{perm.name} has protection from {quality}, and {src.name} is {quality_of(src, quality)}",
                "keyword.protection_target",
                "cast.targets",
            )
        return None
    if target.kind in ("spell", "ability"):
        item = s.on_stack(target.ref)  # type: ignore[arg-type]
        if item is None:
            return ("it has left the stack", "cast.targets")
        if kind.endswith("spell") and target.kind != "spell":
            return (f"it needs target {kind}", "cast.targets")
        if kind not in SPELL_KINDS + ("spell or ability",):
            return (f"it needs target {kind}", "cast.targets")
        creature = item.definition is not None and "creature" in item.definition.types
        if (kind == "creature spell" and not creature) or (kind == "noncreature spell" and creature):
            return (f"{item.name} is not a {kind}", "cast.targets")
        return None
    return ("it is not a legal target", "cast.targets")


def has_targets(s: State, kinds: tuple[str, ...], src: Source) -> bool:
    """Is there a legal target for each of ``kinds`` (the same one may serve several)?"""
    everything = (
        [Target("player", p, p) for p in s.players]
        + [Target("permanent", p.oid, p.name) for p in s.battlefield]
        + [Target("spell" if i.kind == "spell" else "ability", i.oid, i.name) for i in s.stack]
    )
    return all(any(why_not(s, t, kind, src) is None for t in everything) for kind in kinds)


def quality_of(src: Source, quality: str) -> str:
    """How ``src`` has the quality, in words (``red``, ``a creature``)."""
    if quality in ("creatures", "artifacts", "enchantments", "instants", "sorceries", "planeswalkers", "lands"):
        return "a " + {"sorceries": "sorcery"}.get(quality, quality[:-1])
    return quality


def fits(s: State, target: Target, kind: str, src: Source | None = None) -> bool:
    """Is ``target`` (still) a legal target of this kind (608.2b)?"""
    return why_not(s, target, kind, src) is None


# -- paying ------------------------------------------------------------------------------------------------
def payment(
    s: State, player: str, cost: tuple[tuple[str, int], ...], what: str, exclude: int | None = None
) -> Payment | None:
    """How ``player`` pays ``cost`` (None: nothing to pay), or :class:`Refusal` when they cannot."""
    mana = {sym: n for sym, n in cost if sym not in "TX"}
    if s.costs_ignore or not any(mana.values()) or player not in s.paying:
        return None
    pool = dict(s.pool.get(player, {}))
    lands = [
        p for p in s.battlefield if p.controller == player and p.is_a("land") and not p.tapped and p.oid != exclude
    ]
    taps: list[Permanent] = []
    chosen: list[str] = []
    from_pool = 0
    for colour in [c for c in mana if c != "*"] + ["*"]:
        need = mana.get(colour, 0)
        while need:
            if colour != "*" and pool.get(colour):
                pool[colour] -= 1
                from_pool += 1
            elif colour == "*" and any(pool.values()):
                spend = max(pool, key=lambda c: (c == "C", pool[c]))
                pool[spend] -= 1
                from_pool += 1
            else:
                options = [
                    land for land in lands if land not in taps and (colour == "*" or colour in land.mana_colours)
                ]
                options.sort(key=lambda land: len(land.mana_colours))  # a land of one colour before a land of two
                if colour == "*":
                    options.sort(key=lambda land: land.mana_colours != "C")
                if not options:
                    raise Refusal(
                        f"{player} cannot pay {show_cost(cost)} for {what}: not enough untapped lands "
                        "or mana of the right colour",
                        "cast.pay",
                    )
                taps.append(options[0])
                chosen.append(options[0].mana_colours[0] if colour == "*" else colour)
            need -= 1
    return Payment(player, cost, what, tuple(taps), {c: n for c, n in pool.items() if n}, from_pool, tuple(chosen))


def can_pay(s: State, player: str, cost: tuple[tuple[str, int], ...]) -> bool:
    try:
        payment(s, player, cost, "")
    except Refusal:
        return False
    return True


# -- casting, playing lands, activating ----------------------------------------------------------------
def timing(s: State, player: str, card: Card, d: CardDef) -> None:
    instant_speed = "instant" in d.types or "flash" in d.keywords
    if instant_speed:
        return
    problems = []
    if player != s.turn_player:
        problems.append(f"it is {s.turn_player}'s turn")
    if s.step not in MAIN_PHASES:
        problems.append(f"it is the {s.step} step, not a main phase")
    if s.stack:
        problems.append(f"the stack is not empty ({', '.join(i.name for i in s.stack)})")
    if problems:
        kind = next((t for t in ("creature", "sorcery", "artifact", "enchantment") if t in d.types), "sorcery")
        raise Refusal(
            f"{card.name} ({kind}) can be cast only in its controller's main phase while the stack is "
            "empty: " + "; ".join(problems),
            "cast.sorcery_speed",
            f"type.{kind}",
        )


def find_mode(d: CardDef, wanted: str) -> str:
    """The mode of ``d`` a sentence names: its text (case and a final period aside), a unique start of
    it, or its number (``1``); a ScenarioError listing the modes otherwise."""
    norm = " ".join(wanted.lower().rstrip(".").split())
    modes = [" ".join(m.lower().split()) for m in d.modes]
    if norm.isdigit() and 1 <= int(norm) <= len(d.modes):
        return d.modes[int(norm) - 1]
    for i, m in enumerate(modes):
        if m == norm:
            return d.modes[i]
    starts = [i for i, m in enumerate(modes) if m.startswith(norm)]
    if len(starts) == 1:
        return d.modes[starts[0]]
    listing = "; ".join(f'"{m}"' for m in d.modes)
    raise ScenarioError((), f'{d.name} has no mode "{wanted}": its modes are {listing}')


def cast(
    s: State,
    player: str,
    name: str,
    target_names: tuple[str, ...],
    x: int | None = None,
    mode: str | None = None,
    announced: bool = False,
) -> Casting | StartCasting:
    offered = None
    said = _SACRIFICING.match(name)
    if said is not None and s.match(name, s.hand.get(player, [])) is None:  # "casts CARD sacrificing BEARS"
        name, offered = said.group(1), said.group(2)
    buried = s.match(name, s.graveyard.get(player, [])) if s.match(name, s.hand.get(player, [])) is None else None
    back = s.definition(buried.name) if buried is not None else None
    flashback = back is not None and cost_of(back.keywords, "flashback") is not None
    card = buried if flashback and buried is not None else card_in_hand(s, player, name)
    d = s.definition(card.name)
    if d is None:
        raise ScenarioError((), f'"{card.name}" has no definition under cards:')
    if "land" in d.types:
        raise Refusal(
            f"{card.name} is a land: it is played as a special action, never cast as a spell", "land.not_a_spell"
        )
    if not announced:
        priority(s, player, f"cast {card.name}")
        timing(s, player, card, d)
    has_x = any(sym == "X" for sym, _ in d.cost) or any(uses_x(own_name(e, d.name)) for e in (d.effect, *d.modes) if e)
    if x is not None and not has_x:
        raise ScenarioError((), f"{card.name} has no X: cast it without 'with X={x}'")
    if has_x and x is None:
        raise Refusal(
            f"{card.name} has X in its cost: the value of X is announced as it is cast "
            f"('{player} casts {card.name} with X=3')",
            "cast.x",
            "cast.modes",
        )
    effect = d.effect
    if d.modes:
        if mode is None:
            if target_names:
                raise ScenarioError(
                    (), f'{card.name} is modal: say the mode, {player} casts {card.name} choosing "MODE" targeting ...'
                )
            payment(s, player, with_x(d.cost, x or 0), card.name)  # it could not be cast at all otherwise
            src = spell_source(player, d, card.oid)
            if not any(has_targets(s, target_kinds(own_name(m, d.name)), src) for m in d.modes):
                raise Refusal(
                    f"{card.name} can't be cast: none of its modes has the legal targets it needs "
                    "(a mode whose targets can't be chosen can't be chosen)",
                    "mode.choose",
                    "cast.targets",
                )
            return StartCasting(player, card, d, x or 0)
        mode = find_mode(d, mode)
        effect = own_name(mode, d.name)
    elif mode is not None:
        raise ScenarioError((), f"{card.name} is not modal: cast it without 'choosing'")
    src = spell_source(player, d, card.oid)
    aura = enchants(d.keywords) if d.is_aura else None
    kinds = (aura,) if aura else (target_kinds(effect) if effect else ())  # an Aura spell targets (303.4a)
    targets = choose_targets(s, player, card.name, kinds, target_names, src)
    victim = sacrificed(s, player, card.name, d, offered)
    cost = parse_cost(cost_of(d.keywords, "flashback") or "") if flashback else d.cost  # rather than its mana cost
    return Casting(
        player,
        card,
        d,
        targets,
        payment(s, player, with_x(cost, x or 0), card.name),
        x or 0,
        mode or "",
        effect,
        victim,
        flashback,
    )


_SACRIFICING = re.compile(r"^(.+?) sacrificing (.+)$", re.I)


def sacrificed(s: State, player: str, spell: str, d: CardDef, offered: str | None) -> Permanent | None:
    """The permanent sacrificed to pay a spell's additional cost (118.8; 601.2h: costs are paid as it is
    cast), named ``P casts CARD sacrificing NAME``; None when the spell has no such cost."""
    if not d.sacrifice:
        if offered is not None:
            raise ScenarioError(
                (), f"{spell} has no additional cost to sacrifice a permanent: cast it without 'sacrificing'"
            )
        return None
    if offered is None:
        raise Refusal(
            f"{spell} has an additional cost: sacrifice a {d.sacrifice} ('{player} casts {spell} sacrificing NAME')",
            "cast.additional_cost",
            "cast.pay",
        )
    perm = s.find_permanent(offered)
    if perm is None:
        raise s.unknown(offered, "permanent")
    if perm.controller != player or (d.sacrifice != "permanent" and not perm.is_a(d.sacrifice)):
        raise Refusal(
            f"{player} cannot sacrifice {perm.name} for {spell}: it must be a {d.sacrifice} {player} controls",
            "cast.additional_cost",
            "effect.sacrifice",
        )
    return perm


def choose_mode(s: State, player: str, mode: str, target_names: tuple[str, ...]) -> Casting:
    """``P chooses MODE [targeting ...]``: the mode of the modal spell being cast (601.2b, 700.2a)."""
    decision(s, player, "mode", "choose a mode")
    wait = s.casting
    assert wait is not None
    plan = cast(s, player, wait.card.name, target_names, wait.x if wait.x else None, mode, announced=True)
    assert isinstance(plan, Casting)
    return plan


def play(s: State, player: str, name: str, target_names: tuple[str, ...]) -> Casting | StartCasting | PlayingLand:
    """``P plays CARD``: a land is played; any other card is cast (playing a card means either)."""
    card = card_in_hand(s, player, name)
    d = s.definition(card.name)
    if d is not None and "land" not in d.types:
        return cast(s, player, name, target_names)
    if player != s.turn_player:
        raise Refusal(
            f"{player} cannot play {card.name}: a land can be played only during its player's own turn", "land.own_turn"
        )
    if s.step not in MAIN_PHASES or s.stack:
        why = f"it is the {s.step} step" if s.step not in MAIN_PHASES else "the stack is not empty"
        raise Refusal(
            f"{player} cannot play {card.name} now: a land is played in a main phase with an empty stack ({why})",
            "land.timing",
            "special.land",
        )
    priority(s, player, f"play {card.name}")
    if s.lands_played.get(player, 0) >= 1:
        raise Refusal(
            f"{player} has already played a land this turn: a player can normally play one land each turn",
            "land.one_per_turn",
        )
    return PlayingLand(player, card, d)


_FOR_MANA = re.compile(r"^(.+?) for \{([wubrgc])\}$", re.I)


def cycle(s: State, player: str, card: Card, d: CardDef) -> Cycling:
    """``P activates CARD`` naming a card in their hand with cycling: its cycling ability, which functions
    only there (702.29a), at any time they have priority; the card is discarded as part of the cost."""
    priority(s, player, f"cycle {card.name}")
    cost = parse_cost(cost_of(d.keywords, "cycling") or "")
    return Cycling(player, card, d, cost, payment(s, player, cost, f"{card.name}'s cycling ability"))


def activate(s: State, player: str, name: str, target_names: tuple[str, ...]) -> Activating | Cycling:
    chosen = ""
    said = _FOR_MANA.match(name)
    if said is not None and s.find_permanent(name) is None:  # "P activates Adarkar Wastes for {U}" (605.3b)
        name, chosen = said.group(1), said.group(2).upper()
    perm = s.find_permanent(name)
    in_hand = s.match(name, s.hand.get(player, [])) if perm is None else None
    if in_hand is not None:
        d = s.definition(in_hand.name)
        if d is not None and cost_of(d.keywords, "cycling") is not None:
            return cycle(s, player, in_hand, d)
    if perm is None:
        if s.where(name):
            raise ScenarioError(
                (),
                f"\"{name}\" is {s.where(name)}: only permanents' abilities (and cycling, from its owner's hand) can "
                "be activated",
            )
        raise s.unknown(name, "permanent")
    ability = perm.card.ability
    mana_land = ability is None and perm.is_a("land")
    if ability is None and not mana_land:
        raise ScenarioError((), f"{perm.name} has no activated ability (give it one with ability: {{cost, effect}})")
    if perm.controller != player:
        raise Refusal(
            f"{player} cannot activate {perm.name}: only its controller, {perm.controller}, can", "activate.controller"
        )
    priority(s, player, f"activate {perm.name}")
    cost = ability.cost if ability else (("T", 1),)
    if dict(cost).get("T"):
        if perm.tapped:
            raise Refusal(f"{perm.name} is already tapped: its {{T}} cost cannot be paid", "activate.tap")
        if perm.is_a("creature") and perm.sick and not s.has(perm, "haste"):
            raise Refusal(
                f"{perm.name} cannot use {{T}}: {player} has not controlled it continuously since the turn began",
                "activate.tap_sick",
                "combat.haste",
            )
    if mana_land or (ability is not None and ability.is_mana):
        colour = (
            perm.mana_colour
            if mana_land or ability is None
            else "".join(i.mana for i in parse_effect(ability.effect) if i.verb == "add")
        )
        choice = ability.choice if ability is not None else ""
        if choice and (not chosen or chosen not in choice):
            options = " or ".join(f"'{player} activates {perm.name} for {{{c}}}'" for c in choice)
            raise ScenarioError(
                (), f"{perm.name} adds one mana of a colour its controller chooses: say which, {options}"
            )
        if chosen and not choice and chosen != colour:
            raise ScenarioError(
                (), f"{perm.name} adds {{{colour}}}, not {{{chosen}}}: write '{player} activates {perm.name}'"
            )
        colour = chosen if choice else colour
        return Activating(
            player, perm, ability, cost, (), payment(s, player, cost, perm.name, exclude=perm.oid), colour
        )
    assert ability is not None
    what = f"{perm.name} ability"
    src = s.source_of(perm)
    if ability.equip:
        what = f"{perm.name}'s equip ability"
        problems = []
        if player != s.turn_player or s.step not in MAIN_PHASES or s.stack:
            problems.append("it is activated only as a sorcery: in its controller's main phase with an empty stack")
        if problems:
            raise Refusal(f"{player} cannot activate {what} now: {problems[0]}", "keyword.equip", "activate.sorcery")
    targets = choose_targets(s, player, what, target_kinds(ability.effect), target_names, src, itself=perm.oid)
    return Activating(player, perm, ability, cost, targets, payment(s, player, cost, what, exclude=perm.oid), "")


# -- combat declarations -----------------------------------------------------------------------------
def can_attack(s: State, perm: Permanent) -> str | None:
    """Why ``perm`` cannot attack (a citation key), or None."""
    if perm.controller != s.turn_player or not perm.is_a("creature") or perm.tapped:
        return "combat.attackers"
    if s.has(perm, "defender"):
        return "combat.defender"
    if perm.sick and not s.has(perm, "haste"):
        return "combat.summoning_sickness"
    if s.cant(perm, "attack") is not None:
        return "combat.attack_restriction"
    return None


def can_block(s: State, perm: Permanent) -> bool:
    return (
        perm.controller == s.defending and perm.is_a("creature") and not perm.tapped and s.cant(perm, "block") is None
    )


def block_restriction(s: State, attacker: Permanent, blocker: Permanent) -> tuple[str, ...] | None:
    """Why ``blocker`` can't block ``attacker`` (evasion, protection): (the reason, its keys), or None."""
    if s.has(attacker, "flying") and not (s.has(blocker, "flying") or s.has(blocker, "reach")):
        return (
            f"{attacker.name} has flying and {blocker.name} has neither flying nor reach",
            "keyword.flying",
            "combat.block_restriction",
        )
    quality = s.protected_from(attacker, s.source_of(blocker))
    if quality is not None:
        return (
            f"{attacker.name} has protection from {quality}, and {blocker.name} is "
            f"{quality_of(s.source_of(blocker), quality)}",
            "keyword.protection_block",
            "combat.block_restriction",
        )
    for keyword, kw in entries(s.keywords(attacker)):
        why = kw.evasion.stops(s, attacker, blocker, keyword) if kw.evasion is not None else None
        if why is not None:
            return (why, *kw.keys, "combat.block_restriction")
    source = s.cant(attacker, "be blocked")
    if source is not None:
        said = "it" if source is attacker else source.name
        return (f"{attacker.name} can't be blocked ({said} says so)", "combat.block_restriction")
    for _, st in s.statics_for(blocker):
        if st.blocks_only and not s.has(attacker, st.blocks_only):
            return (
                f"{blocker.name} can block only creatures with {st.blocks_only}, and {attacker.name} has none",
                "combat.block_restriction",
            )
    return None


def attack(s: State, player: str, names: tuple[str, ...]) -> Attacking:
    """A complete declaration of attackers (508.1); an illegal one is refused whole."""
    game_over(s)
    if s.step != "declare_attackers" or s.pending != "attackers":
        raise Refusal(
            f"{player} cannot declare attackers now: attackers are declared as the declare attackers step "
            f"begins (it is the {s.step} step)",
            "turn.declare_attackers",
        )
    if player != s.turn_player:
        raise Refusal(
            f"{player} cannot declare attackers: only the active player, {s.turn_player}, attacks",
            "combat.attacking_player",
            "turn.declare_attackers",
        )
    chosen: list[Permanent] = []
    for name in names:
        perm = s.find_permanent(name)
        if perm is None:
            if s.where(name):
                raise Refusal(
                    f"{name} is {s.where(name)}, not on the battlefield: it cannot attack",
                    "combat.attackers",
                    "combat.illegal_attack",
                )
            raise s.unknown(name, "creature")
        if perm in chosen:
            raise Refusal(f"{perm.name} is declared as an attacker twice", "combat.attackers", "combat.illegal_attack")
        why = can_attack(s, perm)
        if why == "combat.attackers":
            state = (
                "is controlled by " + perm.controller
                if perm.controller != player
                else "is not a creature"
                if not perm.is_a("creature")
                else "is tapped"
            )
            raise Refusal(f"{perm.name} cannot attack: it {state}", "combat.attackers", "combat.illegal_attack")
        if why == "combat.defender":
            raise Refusal(f"{perm.name} has defender and cannot attack", "combat.defender", "combat.illegal_attack")
        if why == "combat.summoning_sickness":
            raise Refusal(
                f"{perm.name} cannot attack: {player} has not controlled it continuously since the turn "
                f"began and it has no haste",
                "combat.summoning_sickness",
                "combat.haste",
                "combat.illegal_attack",
            )
        if why == "combat.attack_restriction":
            source = s.cant(perm, "attack")
            raise Refusal(
                f"{perm.name} cannot attack: {source.name if source else 'an effect'} says it can't",
                "combat.attack_restriction",
                "combat.illegal_attack",
            )
        chosen.append(perm)
    for perm in s.battlefield:
        source = s.must(perm, "attack") if perm not in chosen else None
        if source is not None and can_attack(s, perm) is None:
            said = "it attacks" if source is perm else f"{source.name} says it attacks"
            raise Refusal(
                f"{perm.name} must attack: {said} each combat if able, and it is able to",
                "combat.attack_requirement",
                "combat.illegal_attack",
            )
    return Attacking(player, tuple(chosen))


def _whole_names(s: State, pairs: tuple[tuple[str, str], ...]) -> list[tuple[str, str]]:
    """The sentence reader splits blockers at commas and "and" (``Wurm with Bears and Wall``); a blocker
    whose name has them (``Isamaru, Hound of Konda``) is joined again where the whole names a permanent
    and its first piece does not."""
    out = list(pairs)
    i = 0
    while i < len(out) - 1:
        (attacker, blocker), (same, more) = out[i], out[i + 1]
        joined = [f"{blocker}{sep}{more}" for sep in (", ", " and ")] if attacker == same else []
        whole = next((j for j in joined if s.find_permanent(j) is not None), None)
        if whole is not None and s.find_permanent(blocker) is None:
            out[i : i + 2] = [(attacker, whole)]
        else:
            i += 1
    return out


def block(s: State, player: str, pairs: tuple[tuple[str, str], ...]) -> Blocking:
    """A complete declaration of blockers (509.1); an illegal one is refused whole."""
    game_over(s)
    if s.step != "declare_blockers" or s.pending != "blockers":
        raise Refusal(
            f"{player} cannot declare blockers now: blockers are declared as the declare blockers step "
            f"begins (it is the {s.step} step)",
            "turn.declare_blockers",
        )
    if player != s.defending:
        raise Refusal(
            f"{player} cannot declare blockers: the defending player, {s.defending}, does", "turn.declare_blockers"
        )
    chosen: list[tuple[Permanent, Permanent]] = []
    for attacker_name, blocker_name in _whole_names(s, pairs):
        attacker, blocker = s.find_permanent(attacker_name), s.find_permanent(blocker_name)
        for name, perm in ((attacker_name, attacker), (blocker_name, blocker)):
            if perm is None:
                if s.where(name):
                    raise Refusal(
                        f"{name} is {s.where(name)}, not on the battlefield", "combat.blockers", "combat.illegal_block"
                    )
                raise s.unknown(name, "creature")
        assert attacker is not None and blocker is not None
        if not attacker.attacking:
            raise Refusal(
                f"{blocker.name} cannot block {attacker.name}: {attacker.name} is not attacking",
                "combat.blockers",
                "combat.illegal_block",
            )
        if blocker.controller != player or not blocker.is_a("creature"):
            raise Refusal(
                f"{blocker.name} cannot block: it is not a creature {player} controls",
                "combat.blockers",
                "combat.illegal_block",
            )
        if blocker.tapped:
            raise Refusal(f"{blocker.name} cannot block: it is tapped", "combat.blockers", "combat.illegal_block")
        if any(b is blocker for _, b in chosen):
            raise Refusal(
                f"{blocker.name} is declared as a blocker twice: each blocker blocks one creature",
                "combat.blockers",
                "combat.illegal_block",
            )
        source = s.cant(blocker, "block")
        if source is not None:
            raise Refusal(
                f"{blocker.name} cannot block: {source.name} says it can't",
                "combat.block_restriction",
                "combat.illegal_block",
            )
        why = block_restriction(s, attacker, blocker)
        if why is not None:
            raise Refusal(f"{blocker.name} cannot block {attacker.name}: {why[0]}", *why[1:], "combat.illegal_block")
        chosen.append((attacker, blocker))
    for attacker in {a.oid: a for a, _ in chosen}.values():
        count = sum(1 for a, _ in chosen if a is attacker)
        if s.has(attacker, "menace") and count == 1:
            raise Refusal(
                f"{attacker.name} has menace: it can't be blocked except by two or more creatures, and only "
                "one blocks it",
                "keyword.menace",
                "combat.block_restriction",
                "combat.illegal_block",
            )
    return Blocking(player, tuple(chosen))


# -- assigning combat damage (510.1) ------------------------------------------------------------------
def lethal(s: State, blocker: Permanent, source: Source, planned: int) -> int:
    """The damage that counts as lethal for an assignment to ``blocker`` (702.19b: damage already marked and
    assigned by others counted; 702.2c: under the 2026 rules any nonzero damage from deathtouch)."""
    needed = max(0, s.toughness(blocker) - blocker.damage - planned)
    return min(1, needed) if source.has("deathtouch") and s.follows("deathtouch_lethal_assignment") else needed


def assign_damage(
    s: State, player: str, attacker_name: str | None, amounts: tuple[tuple[str, int], ...], asking: bool = False
) -> AssigningDamage:
    """``P assigns damage: X 2, Y 1``: how the attacker awaiting its assignment divides its combat damage.
    Asked about a creature whose assignment is not awaited (the engine makes it), :func:`would_assign`."""
    if asking and not _awaited(s, attacker_name):
        return would_assign(s, player, attacker_name, amounts)
    try:
        decision(s, player, "damage", "assign combat damage")
    except Refusal as no:
        if s.pending is None and not s.over:  # where there is one legal way, the engine assigns it
            raise Refusal(f"{no.message}; ask: checks an assignment the engine makes by itself", *no.keys) from None
        raise
    awaiting = [p for p in (s.permanent(o) for o in s.awaiting) if p is not None]
    if attacker_name is not None:
        attacker = s.find_permanent(attacker_name)
        if attacker is None or attacker not in awaiting:
            names = ", ".join(p.name for p in awaiting)
            raise ScenarioError((), f'"{attacker_name}" is not an attacker whose damage is awaited (awaited: {names})')
    else:
        attacker = awaiting[0]
    return _assignment(s, player, attacker, amounts)


def _awaited(s: State, name: str | None) -> bool:
    """Does the engine wait for the assignment of the creature named (None: of any)?"""
    if s.pending != "damage":
        return False
    perm = s.find_permanent(name) if name is not None else None
    return name is None or (perm is not None and perm.oid in s.awaiting)


def would_assign(s: State, player: str, name: str | None, amounts: tuple[tuple[str, int], ...]) -> AssigningDamage:
    """``ask: P assigns damage[ from CREATURE]: X 2, Y 1`` about an assignment the engine makes by itself
    (there is one legal way): would it be legal in the combat as it stands? Asked once blockers are
    declared, until combat damage is assigned; an unblocked attacker assigns all its damage to the player
    (510.1b), a blocker to the creature it blocks (510.1d), a blocked attacker among its blockers (510.1c)."""
    game_over(s)
    blocks_declared = s.step == "declare_blockers" and s.pending is None
    assigning_now = s.step == "combat_damage" and s.pending == "damage" and not s.first_strike_step
    if not (blocks_declared or assigning_now):
        raise Refusal(
            f"{player} cannot assign combat damage now: it is assigned as the combat damage step begins "
            "(by the engine where there is one legal way); ask about an assignment once blockers are declared",
            "combat.assign",
        )
    mine = [p for p in s.battlefield if p.controller == player and (p.attacking or p.blocking is not None)]
    creature = s.find_permanent(name) if name is not None else (mine[0] if len(mine) == 1 else None)
    if name is not None and creature is None:
        raise s.unknown(name, "creature")
    if creature is None:
        if not mine:
            raise Refusal(f"{player} has no creature in combat to assign combat damage", "combat.assign")
        names = ", ".join(p.name for p in mine)
        raise ScenarioError((), f'say whose damage: "{player} assigns damage from CREATURE: ..." ({names})')
    if not (creature.attacking or creature.blocking is not None):
        raise Refusal(f"{creature.name} is not in combat: it assigns no combat damage", "combat.assign")
    if creature.controller != player:
        raise Refusal(
            f"{creature.name} is {creature.controller}'s: {creature.controller} announces how it assigns its "
            "combat damage",
            "combat.assign",
        )
    if creature.attacking and creature.blocked:
        plan = _assignment(s, player, creature, amounts)
        return AssigningDamage(player, creature, plan.assignments, asked=True)
    power = s.power(creature)
    to: Target | None
    if creature.attacking:
        to = Target("player", s.defending, s.defending)
        why, key = (
            f"{creature.name} is unblocked: it assigns all its combat damage to {s.defending}",
            "combat.unblocked",
        )
    else:
        blocked = s.permanent(creature.blocking) if creature.blocking is not None else None
        if blocked is None:
            to, key = None, "combat.blocking_nothing"
            why = f"{creature.name} blocks a creature that left combat: it assigns no combat damage"
        else:
            to, key = Target("permanent", blocked.oid, blocked.name), "combat.blocker_damage"
            why = f"{creature.name} blocks {blocked.name}: it assigns all its combat damage to {blocked.name}"
    said: dict[Target, int] = {}
    for recipient, n in amounts:
        target = s.find_target(recipient, on_stack=False)
        if target is None:
            raise s.unknown(recipient, "creature or player")
        if n:
            said[target] = said.get(target, 0) + n
    if to is None or power <= 0:  # it assigns none (510.1a, 510.1d)
        if said:
            if power <= 0:
                why, key = f"{creature.name} has {power} power: it assigns no combat damage", "combat.zero_power"
            raise Refusal(why, key, "combat.assign")
        return AssigningDamage(player, creature, (), asked=True)
    if said != {to: power}:
        raise Refusal(f"{why} ({power})", key, "combat.assign")
    return AssigningDamage(player, creature, (Assignment(s.source_of(creature), to, power, (key,)),), asked=True)


def _assignment(s: State, player: str, attacker: Permanent, amounts: tuple[tuple[str, int], ...]) -> AssigningDamage:
    """Is this division of a blocked ``attacker``'s combat damage legal (510.1a, 510.1c, 702.19b, 702.2c)?"""
    source = s.source_of(attacker)
    power = s.power(attacker)
    blockers = [b for b in (s.permanent(o) for o in attacker.blockers) if b is not None]
    trample = s.has(attacker, "trample")
    out: list[Assignment] = []
    total = 0
    for name, n in amounts:
        target = s.find_target(name, on_stack=False)
        if target is None:
            raise s.unknown(name, "creature or player")
        if target.kind == "permanent" and target.ref in [b.oid for b in blockers]:
            keys = ("combat.blocked_damage", "combat.trample") if trample else ("combat.blocked_damage",)
        elif target.kind == "player" and target.ref == s.defending:
            if not trample:
                raise Refusal(
                    f"{attacker.name} is blocked and has no trample: it assigns its combat damage to the "
                    "creatures blocking it, none to the player",
                    "combat.blocked_damage",
                    "combat.assign",
                )
            keys = ("combat.trample",)
        else:
            raise Refusal(
                f"{target.name} is not blocking {attacker.name}: a blocked creature assigns its combat damage "
                "to the creatures blocking it",
                "combat.blocked_damage",
                "combat.assign",
            )
        if any(a.target == target for a in out):
            raise ScenarioError((), f"{target.name} is named twice in the assignment")
        total += n
        if n:
            out.append(Assignment(source, target, n, keys + ("combat.chosen",)))
    if total != power:
        raise Refusal(
            f"{attacker.name} assigns combat damage equal to its power, {power}: the assignment gives {total}",
            "combat.damage_power",
            "combat.assign",
        )
    planned: dict[int, int] = {}
    for a in s.assigned:
        if a.target.kind == "permanent" and isinstance(a.target.ref, int):
            planned[a.target.ref] = planned.get(a.target.ref, 0) + a.amount
    if len(blockers) > 1 and s.follows("damage_assignment_order"):
        # 2009-2024: the blockers in their damage assignment order (the engine: the order they were declared
        # in); none gets damage until each before it is assigned lethal damage.
        given = {a.target.ref: a.amount for a in out if a.target.kind == "permanent"}
        for i, first in enumerate(blockers[:-1]):
            later = [b.name for b in blockers[i + 1 :] if given.get(b.oid)]
            if later and given.get(first.oid, 0) < lethal(s, first, source, planned.get(first.oid, 0)):
                raise Refusal(
                    f"{attacker.name} assigns damage to {', '.join(later)} only once {first.name}, before "
                    f"them in its damage assignment order (the order the blockers were declared in), is "
                    "assigned lethal damage",
                    "combat.blocked_damage",
                    "combat.assign",
                )
    to_player = sum(a.amount for a in out if a.target.kind == "player")
    if to_player:
        short = [
            b.name
            for b in blockers
            if sum(a.amount for a in out if a.target.ref == b.oid) < lethal(s, b, source, planned.get(b.oid, 0))
        ]
        if short:
            keys = ("combat.trample", "keyword.deathtouch_lethal") if source.has("deathtouch") else ("combat.trample",)
            raise Refusal(
                f"{attacker.name} can assign damage to {s.defending} only once each creature blocking it is "
                f"assigned lethal damage ({', '.join(short)} is not)",
                *keys,
                "combat.assign",
            )
        if source.has("deathtouch"):  # what counted as lethal (702.2c; 2008: the actual toughness, 502.9d)
            out = [Assignment(a.source, a.target, a.amount, a.keys + ("keyword.deathtouch_lethal",)) for a in out]
    return AssigningDamage(player, attacker, tuple(out))


def order_triggers(s: State, player: str, names: tuple[str, ...]) -> OrderingTriggers:
    """``P orders triggers: A, B``: the order ``player`` puts their waiting triggers on the stack (603.3b)."""
    decision(s, player, "triggers", "order triggers")
    mine = [t for t in s.pending_triggers if t.controller == player]
    order: list[int] = []
    for name in names:
        found = [i for i, t in enumerate(mine) if t.name.lower() == name.lower() and i not in order]
        if not found:
            listing = ", ".join(t.name for t in mine)
            raise ScenarioError(
                (),
                f'no waiting trigger of {player} named "{name}"{suggest(name, [t.name for t in mine])} '
                f"(waiting: {listing})",
            )
        order.append(found[0])
    if len(order) != len(mine):
        missing = ", ".join(t.name for i, t in enumerate(mine) if i not in order)
        raise Refusal(f"{player} puts every trigger on the stack: the order leaves out {missing}", "trigger.apnap")
    return OrderingTriggers(player, tuple(order))


def unaimed(trigger: PendingTrigger) -> tuple[str, ...]:
    """The target kinds of a waiting triggered ability whose targets are still to be chosen (a card's
    text: its controller chooses them as it is put on the stack, 603.3d); ``()`` when it has none to choose."""
    return () if trigger.targets else target_kinds(trigger.effect)


def aim_trigger(s: State, player: str, name: str, names: tuple[str, ...]) -> AimingTrigger:
    """``P puts TRIGGER on the stack targeting X[, Y]``: ``player`` chooses the targets of their waiting
    triggered ability as it is put on the stack (603.3d, as for a spell, 601.2c)."""
    decision(s, player, "aim", "choose the targets of a triggered ability")
    mine = [t for t in s.pending_triggers if t.controller == player]
    waiting = [i for i, t in enumerate(mine) if unaimed(t)]
    found = [i for i in waiting if mine[i].name.lower() == name.lower()]
    if not found:
        listing = ", ".join(mine[i].name for i in waiting)
        raise ScenarioError(
            (),
            f'no waiting trigger of {player} with targets to choose named "{name}"'
            f"{suggest(name, [mine[i].name for i in waiting])} (waiting: {listing})",
        )
    trigger = mine[found[0]]
    src = trigger.src or Source(trigger.source, player)
    try:
        targets = choose_targets(s, player, trigger.name, unaimed(trigger), names, src)
    except Refusal as no:
        raise Refusal(str(no), *no.keys, "trigger.targets") from None
    return AimingTrigger(player, found[0], targets)


def pay_or_not(s: State, player: str, pays: bool, said: int | None = None) -> Paying:
    """``P pays {N}`` / ``P does not pay``, for "counter ... unless its controller pays {N}" (118.12a)."""
    decision(s, player, "pay", "pay" if pays else "decline to pay")
    paused = s.paused
    assert paused is not None
    if said is not None and said != paused.amount:
        raise ScenarioError((), f"{paused.item.name} asks {player} for {{{paused.amount}}}, not {{{said}}}")
    if not pays:
        return Paying(player, False, None)
    return Paying(player, True, payment(s, player, (("*", paused.amount),), f"{paused.item.name}"))


# -- moving to a step ------------------------------------------------------------------------------------
def move_to(s: State, player: str, target: str) -> MovingTo:
    """``P moves to PHASE``: said by the player with priority, or by anyone while a declaration is pending.
    A later step of this turn is reached this turn, an earlier one or the one it is in now in the next turn."""
    if target not in ORDER:
        raise ScenarioError(
            (), f'no phase named "{target}"{suggest(target, list(ORDER))}; mtg phases: {", ".join(PHASES)}'
        )
    if s.pending in ("mode", "pay", "aim"):
        waiting = waiting_for(s)
        assert waiting is not None
        raise Refusal(f"{player} cannot move to {target}: {waiting[0]}", waiting[1])
    if s.priority is not None:
        priority(s, player, f"move to {target}")
    else:
        game_over(s)
    return MovingTo(player, target)  # the step it is in now: that step of the next turn
