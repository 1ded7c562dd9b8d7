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
from dataclasses import dataclass, replace

from engine.core import Refusal, ScenarioError, suggest
from engine.mtg.actions import Action
from engine.mtg.chosen import said as said_choice
from engine.mtg.conditions import condition
from engine.mtg.effects import (
    IN_GRAVEYARD,
    QUALIFIED,
    SPELL_KINDS,
    UP_TO,
    Instruction,
    card_kind,
    enchants,
    filter_matches,
    filtered_kind,
    overloaded,
    own_name,
    parse_effect,
    parse_modes,
    pick_matches,
    stat_kind,
    target_kinds,
    uses_x,
)
from engine.mtg.keywords import COLOUR_WORDS, KEYWORDS, cost_of, entries
from engine.mtg.soulbond import choices, partner
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
    StackItem,
    State,
    Target,
    base_name,
    in_group,
    parse_cost,
    show_cost,
    with_x,
)
from engine.mtg.vehicles import Crewing, check_crew


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
    # What paid part of the cost in place of mana, by a keyword of the spell (convoke, improvise, delve):
    # (the keyword, the permanent tapped or the graveyard card exiled, the mana it paid: "*" generic or a colour)
    helped: tuple[tuple[str, Permanent | Card, str], ...] = ()


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
    chosen: tuple[str, ...] = ()  # the keywords its caster chose to use ("bestow", "kicker": Keyword.chosen)
    cast_from: str = ""  # "exile": offered by a resolving ability (rebound), without paying its mana cost
    half: str = ""  # the half of a split card cast (709.3): its name
    changed: tuple[str, ...] = ()  # its total cost changed by static abilities (601.2f): the total, then each change


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
    life: int | None = None  # a land that asks "you may pay N life" as it enters: N paid, or 0 (not paid)


@dataclass(frozen=True)
class Activating:
    player: str
    perm: Permanent
    ability: AbilityDef | None  # None: a land's own mana ability
    cost: tuple[tuple[str, int], ...]
    targets: tuple[Target, ...]
    payment: Payment | None
    mana: str  # the mana a mana ability adds ("" for an ability that uses the stack)
    sacrifice: Permanent | None = None  # sacrificed to pay its cost ("Sacrifice a creature: ...", 602.2b)


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
    exerted: tuple[Permanent, ...] = ()  # attackers exerted as they attack (701.43d, 508.1g)


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
    mode: str = ""  # a modal one's mode chosen (700.2b), its effect from now on


@dataclass(frozen=True)
class Choosing:
    """Whether a player does what a resolving "you may" offers (608.2d)."""

    player: str
    yes: bool


@dataclass(frozen=True)
class Looking:
    """What a player takes into their hand from the cards looked at, and the order of the rest put on the
    bottom of their library (the first named topmost, the last lowest)."""

    player: str
    taken: tuple[Card, ...]
    bottom: tuple[Card, ...]


@dataclass(frozen=True)
class Discarding:
    """The cards a player chooses to discard, as "discard N cards" resolves (701.9b)."""

    player: str
    cards: tuple[Card, ...]


@dataclass(frozen=True)
class Picking:
    """The card a player chooses from a revealed hand, and what is then done to it ("discard", "exile")."""

    player: str
    card: Card
    then: str


@dataclass(frozen=True)
class Scrying:
    """Where the cards a player scries go (701.22a): those kept on top, the first topmost, and those put
    on the bottom, the last lowest."""

    player: str
    top: tuple[Card, ...]
    bottom: tuple[Card, ...]


@dataclass(frozen=True)
class Paying:
    player: str
    pays: bool
    payment: Payment | None


@dataclass(frozen=True)
class Scavenging:
    """Activating a keyword's ability of a card in its owner's graveyard, the card exiled as its cost:
    scavenge (702.97a), embalm (702.128a), eternalize (702.129a) (:data:`GRAVEYARD_ABILITIES`)."""

    player: str
    card: Card
    definition: CardDef
    cost: tuple[tuple[str, int], ...]
    targets: tuple[Target, ...]
    payment: Payment | None
    keyword: str = "scavenge"


# Keywords whose ability is activated from the graveyard, exiling the card, only as a sorcery: the effect, in
# the engine's words ({power}: the card's power), and the kinds of its targets.
GRAVEYARD_ABILITIES: dict[str, tuple[str, tuple[str, ...]]] = {
    "scavenge": ("put {power} +1/+1 counters on target creature", ("creature",)),
    "embalm": (
        "create a token that's a copy of ~, except it's white, it has no mana cost, and it's a Zombie in addition "
        "to its other types",
        (),
    ),
    "eternalize": (
        "create a token that's a copy of ~, except it's black, it's 4/4, it has no mana cost, and it's a Zombie in "
        "addition to its other types",
        (),
    ),
}


@dataclass(frozen=True)
class Fabricating:
    """``P chooses counters | servos`` as a fabricate ability resolves (702.123a)."""

    player: str
    counters: bool


@dataclass(frozen=True)
class Pairing:
    """``P pairs A with B``: the creatures a resolving soulbond ability pairs (702.95a)."""

    player: str
    perm: Permanent  # the creature with soulbond
    mate: Permanent


@dataclass(frozen=True)
class Sacrificing:
    """``P sacrifices NAME``: the creature sacrificed as an exploit ability resolves (702.110a)."""

    player: str
    perm: Permanent


@dataclass(frozen=True)
class Declining:
    """``P declines``: not casting the card a resolving ability offers (rebound)."""

    player: str


@dataclass(frozen=True)
class Passing:
    player: str


@dataclass(frozen=True)
class MovingTo:
    player: str
    step: str


Plan = (
    Crewing
    | Casting
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
    | Picking
    | Discarding
    | Looking
    | Choosing
    | Scrying
    | Passing
    | Declining
    | Scavenging
    | Sacrificing
    | Pairing
    | Fabricating
    | MovingTo
)


def check(s: State, act: Action, asking: bool = False) -> Plan:
    """The plan for ``act``, or :class:`Refusal` (the rules forbid it now). ``asking``: ``act`` is asked
    about (``ask:``), never carried out."""
    player = s.player_named(act.player)
    game_over(s)
    if act.verb == "cast":
        return cast(s, player, act.names[0], act.targets, act.x, act.mode)
    if act.verb == "choose" and s.pending == "offer" and s.paused is not None and s.paused.offered == "fabricate":
        return fabricate_choice(s, player, act.mode or "")
    if act.verb == "choose" and s.pending == "pick":
        return pick_card(s, player, act.mode or "")
    if act.verb == "choose":
        return choose_mode(s, player, act.mode or "", act.targets)
    if act.verb == "play":
        return play(s, player, act.names[0], act.targets, act.x)
    if act.verb == "activate":
        return activate(s, player, act.names[0], act.targets)
    if act.verb == "crew":
        priority(s, player, f"crew {act.names[0]}")
        return check_crew(s, player, act.names[0], act.targets)
    if act.verb == "attack":
        return exerting(s, attack(s, player, act.names), act.targets)
    if act.verb == "block":
        return block(s, player, act.pairs)
    if act.verb == "assign":
        return assign_damage(s, player, act.names[0] if act.names else None, act.amounts, asking)
    if act.verb == "order":
        return order_triggers(s, player, act.names)
    if act.verb == "aim":
        return aim_trigger(s, player, act.names[0], act.targets, act.mode)
    if act.verb == "pay":
        return pay_or_not(s, player, act.pays, act.x)
    if act.verb == "scry":
        return scry_choice(s, player, act.names, act.targets)
    if act.verb == "discard":
        return discard_choice(s, player, act.names)
    if act.verb == "take":
        return look_choice(s, player, act.names, act.targets)
    if act.verb == "pass":
        priority(s, player, "pass priority")
        return Passing(player)
    if act.verb in ("decline", "accept") and s.pending == "may":
        decision(s, player, "may", "choose")
        return Choosing(player, act.verb == "accept")
    if act.verb == "accept":  # nothing offered now: refused with what is awaited, if anything
        decision(s, player, "may", "accept")
        raise Refusal(f"{player} cannot accept now: nothing is offered", "resolve.choices")
    if act.verb == "decline":
        decision(s, player, "offer", "decline")
        return Declining(player)
    if act.verb == "sacrifice":
        return sacrifice_choice(s, player, act.names[0])
    if act.verb == "pair":
        return pair_choice(s, player, act.names[0], act.names[1])
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
    "scry": ("must first put the cards they scry on the top or the bottom of their library", "effect.scry"),
    "pick": ("must first choose a card from the revealed hand", "resolve.instructions"),
    "discard": ("must first choose the cards they discard", "effect.discard"),
    "look": ("must first choose what they take from the cards they look at", "resolve.instructions"),
    "may": ("must first choose whether to do what the resolving 'you may' offers", "resolve.choices"),
    "offer": ("must first cast the card offered or decline", "resolve.instructions"),
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
    if len(names) < len(kinds) and all(k.startswith(UP_TO) for k in kinds[len(names) :]):
        kinds = kinds[: len(names)]  # "up to N target ...": those left unchosen (601.2c)
    if len(names) < len(kinds):
        raise Refusal(
            f"{what} needs a target ({', '.join('target ' + k for k in kinds)}) and none is named", "cast.targets"
        )
    out: list[Target] = []
    for kind, name in zip(kinds, names):
        target = graveyard_target(s, name) if card_kind(kind) is not None else s.find_target(name)
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
        if kind.startswith(UP_TO) and any(t == target and k == kind for t, k in zip(out, kinds)):
            raise Refusal(f"{target.name} is chosen twice for the same 'up to N target' of {what}", "cast.targets")
        out.append(target)
    return tuple(out)


def graveyard_target(s: State, name: str) -> Target | None:
    """A card in a graveyard a scenario names as a target (115.1)."""
    for cards in s.graveyard.values():
        card = s.match(name, cards)
        if card is not None:
            return Target("card", card.oid, card.name)
    return None


def _card_why_not(s: State, target: Target, kind: str, src: Source | None) -> tuple[str, ...] | None:
    """Why a card in a graveyard is not (or no longer) a legal target of a graveyard kind, or None."""
    wanted = card_kind(kind)
    owner = next((p for p, cards in s.graveyard.items() if any(c.oid == target.ref for c in cards)), None)
    if owner is None:
        return ("it has left the graveyard", "cast.targets", "zone.new_object")
    if wanted is None:
        return (f"it needs target {kind}", "cast.targets")
    if src is not None and owner != src.controller and kind.endswith(IN_GRAVEYARD):
        return (f"it is in {owner}'s graveyard, not {src.controller}'s", "cast.targets")
    d = s.definition(target.name)
    if wanted and (d is None or not set(wanted) & set(d.types)):
        what = "its card type is not known (define it under cards:)" if d is None else f"it is not a {kind}"
        return (what, "cast.targets")
    return None


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
    if kind == "nonland permanent an opponent controls":
        return not perm.is_a("land") and perm.controller != src.controller
    if kind == "artifact or enchantment":
        return perm.is_a("artifact") or perm.is_a("enchantment")
    filtered = filtered_kind(kind)
    if filtered is not None:  # "nonblack creature", "nonartifact, nonblack creature"
        terms, noun = filtered
        kinds = perm.card.types | frozenset(perm.became) | perm.card.supertypes | perm.card.subtypes
        return _kind_matches(s, perm, noun, src) and filter_matches(terms, perm.card.colours, kinds, perm.token)
    if " " in kind:  # what an Aura may enchant ("artifact or creature", "red or green creature"): 702.5a
        return s.enchantable(perm, kind, src.controller)
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
    kind = kind.removeprefix(UP_TO)
    if target.kind == "player":
        if kind not in PLAYER_KINDS:
            return (f"it needs target {kind}", "cast.targets")
        if target.ref in s.lost:
            return ("that player has left the game", "cast.targets")
        if kind.startswith("opponent") and src is not None and target.ref == src.controller:
            return (f"it needs target {kind}", "cast.targets")
        return None
    if target.kind == "card":
        return _card_why_not(s, target, kind, src)
    if card_kind(kind) is not None:
        return (f"it needs target {kind}", "cast.targets")
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
        + [Target("card", c.oid, c.name) for cards in s.graveyard.values() for c in cards]
    )
    needed = [kind for kind in kinds if not kind.startswith(UP_TO)]  # "up to N": none may be chosen
    return all(any(why_not(s, t, kind, src) is None for t in everything) for kind in needed)


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
    mana = {sym: n for sym, n in cost if sym not in "TXE"}  # {E} is paid with energy counters (energy_cost)
    if s.costs_ignore or not any(mana.values()) or player not in s.paying:
        return None
    pool = dict(s.pool.get(player, {}))
    lands = [
        p
        for p in s.battlefield
        if p.controller == player
        and p.is_a("land")
        and not p.tapped
        and p.oid != exclude
        and s.forbids_activation(p) is None  # its mana ability can't be activated (602.5)
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


def energy_of(mana: str) -> int:
    """How many {E} a payment asked as something resolves is (``you may pay {E}{E}``: 2), 0 for mana."""
    return mana.count("{E}") if mana and mana.replace("{E}", "") == "" else 0


def energy_cost(s: State, player: str, cost: tuple[tuple[str, int], ...], what: str) -> int:
    """The energy counters the {E} symbols of ``cost`` remove from ``player`` (107.14); :class:`Refusal` when
    she has fewer."""
    n = dict(cost).get("E", 0)
    if n and not s.costs_ignore and s.energy.get(player, 0) < n:
        raise Refusal(
            f"{player} cannot pay {'{E}' * n} for {what}: {player} has {s.energy.get(player, 0)} energy "
            f"counter{'s' if s.energy.get(player, 0) != 1 else ''}",
            "cast.pay",
            "counter.energy",
        )
    return n


def helped_payment(
    s: State, player: str, cost: tuple[tuple[str, int], ...], what: str, d: CardDef, card: Card
) -> Payment | None:
    """How ``player`` pays a spell's ``cost`` when its keywords let other things pay part of it (601.2h;
    convoke 702.51a, improvise 702.126a, delve 702.66a: :class:`engine.mtg.keywords.PaysCost`): mana and
    lands first, as :func:`payment`; what they cannot pay, her untapped creatures (artifacts) tapped or her
    graveyard's cards exiled, one mana each (a creature a coloured mana of its colour first). Raises the
    :class:`Refusal` of :func:`payment` when even they cannot pay it."""
    try:
        return payment(s, player, cost, what)
    except Refusal as no:
        refused = no
    left = {sym: n for sym, n in cost if sym not in "TX"}
    helped: list[tuple[str, Permanent | Card, str]] = []
    for keyword, kw in entries(d.keywords):
        if kw.pays is None:
            continue
        if kw.pays.zone == "graveyard":
            helpers: list[Permanent | Card] = [c for c in s.graveyard.get(player, []) if c.oid != card.oid]
        else:
            helpers = [
                p
                for p in s.battlefield
                if p.controller == player and not p.tapped and p.is_a(kw.pays.kind) and not p.is_a("land")
            ]
        for helper in helpers:
            colours = helper.card.colours if kw.pays.coloured and isinstance(helper, Permanent) else frozenset()
            sym = next((c for c in sorted(colours) if left.get(c)), "*" if left.get("*") else "")
            if not sym:
                continue
            left[sym] -= 1
            helped.append((keyword, helper, sym))
            rest = tuple((c, n) for c, n in left.items() if n)
            try:
                paid = payment(s, player, rest, what)
            except Refusal:
                continue
            base = paid or Payment(player, rest, what, (), dict(s.pool.get(player, {})), 0)
            return replace(base, cost=cost, helped=tuple(helped))
    raise refused


def hybrid_payment(s: State, player: str, mana: str, what: str) -> Payment | None:
    """How ``player`` pays ``mana`` written with hybrid symbols (``{W/B}``: one white or one black, 107.4e),
    each symbol paid with the first of its colours she can pay; None when she cannot (or pays nothing)."""
    symbols = [sym.split("/") for sym in re.findall(r"\{([^}]+)\}", mana)]
    for choice in _choices(symbols):
        cost: dict[str, int] = {}
        for c in choice:
            cost[c] = cost.get(c, 0) + 1
        try:
            return payment(s, player, tuple(cost.items()), what)
        except Refusal:
            continue
    return None


def _choices(symbols: list[list[str]]) -> list[tuple[str, ...]]:
    out: list[tuple[str, ...]] = [()]
    for options in symbols:
        out = [done + (c,) for done in out for c in options]
    return out


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


def entry_value(d: CardDef, player: str, name: str, wanted: str | None) -> str:
    """The value a permanent spell's controller will choose as it enters (``choosing "red"``: a colour, a
    creature type, 614.12a); a ScenarioError naming the values when none, or another, is said."""
    value = (wanted or "").strip().strip('"').strip().lower()
    if value and d.chosen(value) is not None:
        return value
    values = ", ".join(v for v, _ in d.choices)
    raise ScenarioError(
        (),
        f"{name}: as it enters, {player} chooses {said_choice(d.choose)}: say which with the spell, {player} casts {name} "
        f'choosing "{d.choices[0][0]}" ({values})',
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
    name, chosen = casting_choices(s, player, name)
    exiled = offer_taken(s, player, name)  # a card a resolving ability lets her cast now (rebound)
    announced = announced or exiled is not None
    said = _SACRIFICING.match(name)
    if said is not None and s.match(name, s.hand.get(player, [])) is None:  # "casts CARD sacrificing BEARS"
        name, offered = said.group(1), said.group(2)
    buried = s.match(name, s.graveyard.get(player, [])) if s.match(name, s.hand.get(player, [])) is None else None
    back = s.definition(buried.name) if buried is not None else None
    flashback = back is not None and cost_of(back.keywords, "flashback") is not None
    halved = split_half(s, player, name) if exiled is None else None  # a half of a split card (709.3)
    card = exiled or (
        buried if flashback and buried is not None else halved[0] if halved else card_in_hand(s, player, name)
    )
    d = halved[1] if halved else s.definition(card.name)
    if d is None:
        raise ScenarioError((), f'"{card.name}" has no definition under cards:')
    for keyword in chosen:
        if not any(k == keyword or k.startswith(keyword + " ") for k in d.keywords):
            raise ScenarioError((), f"{d.name} has no {keyword}: cast it without '{KEYWORDS[keyword].chosen}'")
    if len([k for k in chosen if KEYWORDS[k].paid == "alternative"]) > 1:
        raise ScenarioError((), f"{d.name} is cast for one alternative cost at most: choose one of {', '.join(chosen)}")
    if "bestow" in chosen:
        d = bestowed_definition(d)
    if "fuse" in chosen:
        d = fused_definition(d)
    if d.halves:
        raise ScenarioError(
            (), f"{card.name} is a split card: say the half cast ({player} casts {d.halves[0].name}), 709.3"
        )
    if "surge" in chosen and not dict(s.spells_cast[0]).get(player):
        raise Refusal(
            f"{player} cannot cast {d.name} for its surge cost: {player} has cast no other spell this turn",
            "keyword.surge",
        )
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
        if mode is None and chosen:  # the choice would be lost while the mode waits: said in one sentence
            raise ScenarioError(
                (),
                f"{card.name} is modal: say its mode with the rest, {player} casts {name} "
                f'{" ".join(KEYWORDS[k].chosen for k in chosen)} choosing "MODE" ...',
            )
        if mode is None:
            if target_names:
                raise ScenarioError(
                    (), f'{card.name} is modal: say the mode, {player} casts {card.name} choosing "MODE" targeting ...'
                )
            helped_payment(s, player, with_x(d.cost, x or 0), card.name, d, card)  # it could not be cast otherwise
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
    elif d.choices:  # "As ~ enters the battlefield, choose a color": said with the spell (614.12a)
        mode = entry_value(d, player, card.name, mode)
    elif mode is not None:
        raise ScenarioError((), f"{card.name} is not modal: cast it without 'choosing'")
    if "overload" in chosen:  # its text changed: "each" where it says "target" (702.96a), so no targets
        effect = overloaded(effect)
    src = spell_source(player, d, card.oid)
    aura = enchants(d.keywords) if d.is_aura else None
    kinds = (aura,) if aura else (target_kinds(effect) if effect else ())  # an Aura spell targets (303.4a)
    targets = choose_targets(s, player, card.name, kinds, target_names, src)
    victim = sacrificed(s, player, card.name, d, offered)
    cost = parse_cost(cost_of(d.keywords, "flashback") or "") if flashback else d.cost  # rather than its mana cost
    cost = chosen_cost(d, chosen, cost) if exiled is None else offered_cost(s, d)
    cost, changed = changed_cost(s, player, d, cost)
    return Casting(
        player,
        card,
        d,
        targets,
        helped_payment(s, player, with_x(cost, x or 0), card.name, d, card),
        x or 0,
        mode or "",
        effect,
        victim,
        flashback,
        chosen,
        "exile" if exiled is not None else halved[2] if halved else "",
        d.name if halved else "",
        changed,
    )


def spell_matches(d: CardDef, words: tuple[str, ...]) -> bool:
    """Whether a spell is of a kind a cost change names ("instant and sorcery spells", "noncreature spells",
    "Dinosaur spells", "white spells"): each "non" word true of it, and one of the others (if any)."""
    said = [w for w in words if not (w.startswith("non") and w != "non")]
    for word in words:
        if word not in said and (word[3:] in d.types or COLOUR_WORDS.get(word[3:], "-") in d.colours):
            return False
    return not said or any(
        w in d.types or w in d.supertypes or w in d.subtypes or COLOUR_WORDS.get(w, "-") in d.colours for w in said
    )


def changed_cost(
    s: State, player: str, d: CardDef, cost: tuple[tuple[str, int], ...]
) -> tuple[tuple[tuple[str, int], ...], tuple[str, ...]]:
    """A spell's total cost with the cost increases and reductions of static abilities ("Instant and sorcery
    spells you cast cost {1} less to cast", "Noncreature spells cost {1} more to cast"): generic mana added
    or taken away, never below {0} (601.2f); and what changed it, said."""
    delta, said = 0, []
    for perm in s.battlefield:
        for st in perm.card.statics:
            if not st.cost_change:
                continue
            words, whose, n = st.cost_change
            if (whose == "you" and perm.controller != player) or (whose == "opponents" and perm.controller == player):
                continue
            if st.condition and not condition(st.condition).holds(s, perm.controller, perm):
                continue
            if spell_matches(d, words):
                delta += n
                said.append(f"{perm.name}: {'{'}{abs(n)}{'}'} {'less' if n < 0 else 'more'}")
    if not said:
        return cost, ()
    generic = dict(cost).get("*", 0)
    new = max(0, generic + delta)
    out = tuple((sym, k) for sym, k in cost if sym != "*")
    total = (("*", new),) + out if new else out
    return total, (show_cost(total) or "{0}", *said)


def split_half(s: State, player: str, name: str) -> tuple[Card, CardDef, str] | None:
    """The split card in ``player``'s hand or graveyard a cast sentence names by one of its halves (709.3), the
    half, and where it is cast from ("" her hand, "graveyard"): a half with aftermath only from a graveyard, the
    other only from her hand (702.127a); None when no split card there has a half of that name."""
    low = " ".join(name.lower().split())
    if s.match(name, s.hand.get(player, [])) is not None:  # a card of that very name in her hand is the one cast
        return None
    for zone, cards in (("", s.hand.get(player, [])), ("graveyard", s.graveyard.get(player, []))):
        for card in cards:
            whole = s.definition(card.name)
            half = next((h for h in whole.halves if h.name.lower() == low), None) if whole is not None else None
            if half is None:
                continue
            if zone and "aftermath" not in half.keywords:
                raise Refusal(
                    f"{player} cannot cast {half.name}: {card.name} is in {player}'s graveyard, and only a half with "
                    "aftermath is cast from a graveyard",
                    "card.split_half",
                    "keyword.aftermath",
                )
            if not zone and "aftermath" in half.keywords:
                raise Refusal(
                    f"{player} cannot cast {half.name} from her hand: it has aftermath, so it can be cast only from "
                    "a graveyard",
                    "keyword.aftermath",
                )
            return card, half, zone
    return None


_SACRIFICING = re.compile(r"^(.+?) sacrificing (.+)$", re.I)
_CHOSEN = {k.chosen: k.name for k in KEYWORDS.values() if k.chosen}
_CHOICE = re.compile(rf"^(.+?),? (?:({'|'.join(_CHOSEN)})|for its ([a-z]+) cost)$", re.I)


def fabricate_choice(s: State, player: str, said: str) -> Fabricating:
    """``P chooses counters`` / ``P chooses servos`` while a fabricate ability resolves (702.123a)."""
    decision(s, player, "offer", f"choose {said}")
    word = said.strip().lower()
    if word not in ("counters", "servos"):
        raise ScenarioError(
            (), f"fabricate: say '{player} chooses counters' or '{player} chooses servos', not {said!r}"
        )
    return Fabricating(player, word == "counters")


def pair_options(s: State, item: StackItem) -> list[Permanent]:
    """The creatures a resolving soulbond ability may pair its creature with (702.95a, 702.95c): the creature
    that entered, or, when it entered itself, each unpaired creature its controller controls; none when the
    creature with soulbond is no longer an unpaired creature of the ability's controller."""
    perm = s.permanent(item.subject.ref) if item.subject is not None else None  # type: ignore[arg-type]
    if perm is None or perm.controller != item.controller or not perm.is_a("creature") or partner(s, perm):
        return []
    if item.about is None or item.subject is None or item.about[0].ref == item.subject.ref:
        return choices(s, perm)
    about = s.permanent(item.about[0].ref)  # type: ignore[arg-type]
    return [about] if about is not None and about in choices(s, perm) else []


def pair_choice(s: State, player: str, name: str, other: str) -> Pairing:
    """``P pairs A with B`` while a soulbond ability resolves: A its creature with soulbond, B one it may be
    paired with (either order)."""
    decision(s, player, "offer", f"pair {name} with {other}")
    paused = s.paused
    assert paused is not None
    if paused.offered != "pair":
        raise Refusal(
            f"{player} cannot pair creatures now: {paused.item.name} offers something else", "resolve.choices"
        )
    mates = pair_options(s, paused.item)
    perm = s.permanent(paused.item.subject.ref) if paused.item.subject is not None else None  # type: ignore[arg-type]
    found = [s.find_permanent(n) for n in (name, other)]
    if perm is not None and perm in found:
        mate = found[1] if found[0] is perm else found[0]
        if mate is not None and mate in mates:
            return Pairing(player, perm, mate)
    can = ", ".join(m.name for m in mates) or "none"
    raise Refusal(
        f"{player} cannot pair {name} with {other}: {paused.item.name} pairs "
        f"{perm.name if perm else 'its creature'} with an unpaired creature {player} controls ({can})",
        "keyword.soulbond",
    )


def sacrifice_choice(s: State, player: str, name: str) -> Sacrificing:
    """``P sacrifices NAME`` while an exploit ability resolves: a creature she controls ("another": not the
    creature with exploit)."""
    decision(s, player, "offer", f"sacrifice {name}")
    paused = s.paused
    assert paused is not None
    if paused.offered != "sacrifice":
        raise Refusal(
            f"{player} cannot sacrifice {name} now: {paused.item.name} offers a card to cast", "resolve.instructions"
        )
    perm = s.find_permanent(name)
    if perm is None:
        raise s.unknown(name, "permanent")
    instr = parse_effect(paused.item.effect)[paused.index - 1]
    itself = paused.item.subject.ref if paused.item.subject is not None else None
    if perm.controller != player or not perm.is_a("creature") or (instr.extra[0] == "another" and perm.oid == itself):
        kind = "another creature" if instr.extra[0] == "another" else "a creature"
        raise Refusal(f"{player} cannot sacrifice {perm.name}: it must be {kind} {player} controls", "effect.sacrifice")
    return Sacrificing(player, perm)


def offered_card(s: State, target: Target | None) -> Card | None:
    """The card in exile ``target`` names (a rebound trigger's card), or None when it has left exile."""
    if target is None:
        return None
    return next((c for owner in s.exile.values() for c in owner if c.oid == target.ref), None)


def offered_cost(s: State, d: CardDef) -> tuple[tuple[str, int], ...]:
    """What casting the card offered costs: nothing (rebound: without paying its mana cost, 702.88a), or
    its madness cost rather than its mana cost (702.35a)."""
    offered = s.paused.offered if s.paused is not None else ""
    return parse_cost(cost_of(d.keywords, "madness") or "") if offered == "madness" else ()


def offer_taken(s: State, player: str, name: str) -> Card | None:
    """The card a resolving ability offers ``player`` to cast now (rebound), when one is offered; a cast
    sentence naming another card is refused."""
    if s.pending != "offer" or s.paused is None:
        return None
    decision(s, player, "offer", f"cast {name}")
    card = offered_card(s, Target("card", s.paused.victim, ""))
    if card is None or s.match(name, [card]) is None:
        offered = card.name if card is not None else "nothing"
        raise ScenarioError((), f"{player} may cast only {offered} now, or decline ('{player} declines')")
    return card


def casting_choices(s: State, player: str, name: str) -> tuple[str, tuple[str, ...]]:
    """The card a cast sentence names and the keywords its caster chose to use, said after the name
    (``Boon Satyr bestowed``, ``Academy Drake kicked``, ``Mardu Scout for its dash cost``: Keyword.chosen)."""
    chosen: list[str] = []
    while s.match(name, s.hand.get(player, [])) is None and (m := _CHOICE.match(name)) is not None:
        word = (m.group(2) or "").lower() or next((w for w, k in _CHOSEN.items() if k == m.group(3).lower()), "")
        if word not in _CHOSEN:
            break
        name = m.group(1)
        chosen.insert(0, _CHOSEN[word])
    return name, tuple(chosen)


def chosen_cost(d: CardDef, chosen: tuple[str, ...], cost: tuple[tuple[str, int], ...]) -> tuple[tuple[str, int], ...]:
    """A spell's total cost with the keywords its caster chose (601.2f): an alternative cost rather than its
    mana cost (118.9; bestow, dash), an additional cost added to it (118.8; kicker)."""
    total = dict(cost)
    for keyword in chosen:
        kw = KEYWORDS[keyword]
        extra = parse_cost(cost_of(d.keywords, keyword) or "")
        if kw.paid == "alternative":
            total = dict(extra)
        elif kw.paid == "additional":
            for sym, n in extra:
                total[sym] = total.get(sym, 0) + n
    return tuple((sym, n) for sym, n in total.items() if n)


def bestowed_definition(d: CardDef) -> CardDef:
    """A creature card with bestow as it is cast bestowed (702.103b): an Aura enchantment with enchant
    creature, no longer a creature (nor of its creature types); its abilities are its own."""
    return replace(
        d,
        types=(d.types - {"creature"}) | {"enchantment"},
        subtypes=frozenset({"aura"}),
        keywords=d.keywords | {"enchant creature"},
    )


def fused_definition(d: CardDef) -> CardDef:
    """A split card with fuse cast from the hand with both halves (702.102a): one spell with the halves'
    characteristics combined (702.102b), its total cost both mana costs (702.102c), following the left half's
    instructions, then the right half's (702.102d)."""
    left, right = d.halves
    return replace(d, effect="\n".join(h.effect for h in (left, right) if h.effect), halves=())


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
    if perm.controller != player or not sacrifice_fits(perm, perm, d.sacrifice, player):
        raise Refusal(
            f"{player} cannot sacrifice {perm.name} for {spell}: it must be {_kind_said(d.sacrifice)} {player} controls",
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


def play(
    s: State, player: str, name: str, target_names: tuple[str, ...], life: int | None = None
) -> Casting | StartCasting | PlayingLand:
    """``P plays CARD``: a land is played; any other card is cast (playing a card means either). ``life``:
    ``paying N life`` said, for a land that asks it as it enters."""
    if life is None and split_half(s, player, name) is not None:  # a half of a split card is cast (709.3)
        return cast(s, player, name, target_names)
    card = card_in_hand(s, player, name)
    d = s.definition(card.name)
    if d is not None and "land" not in d.types:
        if life is not None:
            raise ScenarioError((), f"{card.name} is not a land: 'paying N life' is said of a land played")
        return cast(s, player, name, target_names)
    asked = life_asked(d)
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
    if life is not None and asked is None:
        raise ScenarioError((), f"{card.name} asks no life as it enters: write '{player} plays {card.name}'")
    if life is not None and life != asked:
        raise ScenarioError((), f"{card.name} asks {asked} life as it enters, not {life}")
    if life and s.life[player] < life:
        raise Refusal(f"{player} cannot pay {life} life with {s.life[player]} life", "life.pay")
    return PlayingLand(player, card, d, None if asked is None else (life or 0))


def life_asked(d: CardDef | None) -> int | None:
    """The life a land's "As ~ enters, you may pay N life. If you don't, it enters tapped" asks, or None."""
    return next((r.unless[1] for r in (d.replacements if d else ()) if r.unless[:1] == ("life",)), None)


_FOR_MANA = re.compile(r"^(.+?) for \{([wubrgc])\}$", re.I)


def cycle(s: State, player: str, card: Card, d: CardDef) -> Cycling:
    """``P activates CARD`` naming a card in their hand with cycling: its cycling ability, which functions
    only there (702.29a), at any time they have priority; the card is discarded as part of the cost."""
    priority(s, player, f"cycle {card.name}")
    cost = parse_cost(cost_of(d.keywords, "cycling") or "")
    return Cycling(player, card, d, cost, payment(s, player, cost, f"{card.name}'s cycling ability"))


def scavenge(s: State, player: str, card: Card, d: CardDef, target_names: tuple[str, ...], keyword: str) -> Scavenging:
    """``P activates CARD [targeting C]`` naming a card in their graveyard with scavenge, embalm or
    eternalize: that ability, which functions only there, activated only as a sorcery (702.97a, 702.128a,
    702.129a); the card is exiled as part of the cost."""
    priority(s, player, f"activate {card.name}'s {keyword} ability")
    key = KEYWORDS[keyword].keys[0]
    if player != s.turn_player or s.step not in MAIN_PHASES or s.stack:
        raise Refusal(
            f"{player} cannot activate {card.name}'s {keyword} ability now: it is activated only as a sorcery, in "
            "its controller's main phase with an empty stack",
            key,
            "activate.sorcery",
        )
    cost = parse_cost(cost_of(d.keywords, keyword) or "")
    what = f"{card.name}'s {keyword} ability"
    kinds = GRAVEYARD_ABILITIES[keyword][1]
    targets = choose_targets(s, player, what, kinds, target_names, spell_source(player, d, card.oid))
    return Scavenging(player, card, d, cost, targets, payment(s, player, cost, what), keyword)


def activate(
    s: State, player: str, name: str, target_names: tuple[str, ...], sacrificing: bool = False
) -> Activating | Cycling | Scavenging:
    chosen = ""
    offered = _SACRIFICING.match(name)
    if offered is not None and s.find_permanent(name) is None:  # "P activates X sacrificing Y" (602.2b)
        name, victim_name = offered[1], offered[2]
        plan = activate(s, player, name, target_names, sacrificing=True)
        if not isinstance(plan, Activating) or plan.ability is None or not plan.ability.sacrifice:
            raise ScenarioError((), f"{name}'s ability has no cost to sacrifice a permanent: activate it without it")
        return replace(plan, sacrifice=_cost_victim(s, player, plan.perm, plan.ability.sacrifice, victim_name))
    said = _FOR_MANA.match(name)
    if said is not None and s.find_permanent(name) is None:  # "P activates Adarkar Wastes for {U}" (605.3b)
        name, chosen = said.group(1), said.group(2).upper()
    perm = s.find_permanent(name)
    in_hand = s.match(name, s.hand.get(player, [])) if perm is None else None
    if in_hand is not None:
        d = s.definition(in_hand.name)
        if d is not None and cost_of(d.keywords, "cycling") is not None:
            return cycle(s, player, in_hand, d)
    buried = s.match(name, s.graveyard.get(player, [])) if perm is None and in_hand is None else None
    if buried is not None:
        d = s.definition(buried.name)
        keyword = next((k for k in GRAVEYARD_ABILITIES if d is not None and cost_of(d.keywords, k) is not None), "")
        if d is not None and keyword:
            return scavenge(s, player, buried, d, target_names, keyword)
    if perm is None:
        if s.where(name):
            raise ScenarioError(
                (),
                f"\"{name}\" is {s.where(name)}: only permanents' abilities (and cycling, from its owner's hand) can "
                "be activated",
            )
        raise s.unknown(name, "permanent")
    ability = perm.card.ability
    abilities = s.activated(perm)  # its own and those Auras and Equipment give it (613.1f)
    if len(abilities) > 1:
        raise ScenarioError(
            (), f"{perm.name} has {len(abilities)} activated abilities: choosing which one to activate is not modelled"
        )
    own_mana = chosen and ability is None and perm.is_a("land")  # "Forest for {G}": its own mana ability
    if abilities and not (own_mana and chosen not in abilities[0].choice):
        ability = abilities[0]
    mana_land = ability is None and perm.is_a("land")
    if ability is None and not mana_land:
        raise ScenarioError((), f"{perm.name} has no activated ability (give it one with ability: {{cost, effect}})")
    if perm.controller != player:
        raise Refusal(
            f"{player} cannot activate {perm.name}: only its controller, {perm.controller}, can", "activate.controller"
        )
    priority(s, player, f"activate {perm.name}")
    forbidding = s.forbids_activation(perm)
    if forbidding is not None:
        raise Refusal(
            f"{player} cannot activate {perm.name}: {forbidding.name} says its activated abilities can't be activated",
            "activate.prohibited",
        )
    cost = ability.cost if ability else (("T", 1),)
    energy_cost(s, player, cost, f"{perm.name} ability")
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
        if choice:  # "Add two mana of any one color": the colour chosen, that many times
            colour = chosen * max(1, *(i.amount for i in parse_effect(ability.effect) if i.verb == "add"))  # type: ignore[union-attr]
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
    if ability.sorcery and (player != s.turn_player or s.step not in MAIN_PHASES or s.stack):
        raise Refusal(
            f"{player} cannot activate {perm.name}'s level up ability now: it is activated only as a sorcery, in "
            "its controller's main phase with an empty stack",
            "keyword.level_up",
            "activate.sorcery",
        )
    if ability.once and perm.activated_turn == s.turn_number:
        raise Refusal(
            f"{player} cannot activate {what} again: it is activated only once each turn, and it was this turn",
            "activate.restriction",
        )
    targets = choose_targets(s, player, what, target_kinds(ability.effect), target_names, src, itself=perm.oid)
    if ability.sacrifice and not sacrificing:
        raise ScenarioError(
            (),
            f"{perm.name}'s ability costs sacrificing {_kind_said(ability.sacrifice)}: say which, '{player} "
            f"activates {perm.name} sacrificing NAME'",
        )
    return Activating(player, perm, ability, cost, targets, payment(s, player, cost, what, exclude=perm.oid), "")


def sacrifice_fits(perm: Permanent, source: Permanent, kind: str, player: str) -> bool:
    """May ``perm`` be sacrificed to pay a cost "Sacrifice a KIND" of ``source``'s ability (701.17a: a permanent
    its controller controls; "another": not the source)?"""
    if " or " in kind:  # "an artifact or creature": either
        return any(sacrifice_fits(perm, source, k, player) for k in kind.split(" or "))
    word = kind.removeprefix("another ").removesuffix(" creature")
    if perm.controller != player or (kind.startswith("another ") and perm is source):
        return False
    if kind.endswith(" creature") and not perm.is_a("creature"):
        return False
    return perm.is_a(word) or word in perm.card.subtypes or word == "permanent"


def _kind_said(kind: str) -> str:
    return kind if kind.startswith("another ") else f"{'an' if kind[0] in 'aeiou' else 'a'} {kind}"


def _cost_victim(s: State, player: str, source: Permanent, kind: str, name: str) -> Permanent:
    perm = s.find_permanent(name)
    if perm is None:
        raise s.unknown(name, "permanent")
    if not sacrifice_fits(perm, source, kind, player):
        raise Refusal(
            f"{player} cannot sacrifice {perm.name} to activate {source.name}: it must be {_kind_said(kind)} "
            f"{player} controls",
            "effect.sacrifice",
        )
    return perm


# -- combat declarations -----------------------------------------------------------------------------
def can_attack(s: State, perm: Permanent) -> str | None:
    """Why ``perm`` cannot attack (a citation key), or None."""
    if perm.controller != s.turn_player or not perm.is_a("creature") or perm.tapped:
        return "combat.attackers"
    if s.has(perm, "defender"):
        return "combat.defender"
    if perm.sick and not s.has(perm, "haste"):
        return "combat.summoning_sickness"
    if s.cant(perm, "attack") is not None or attack_unmet(s, perm) is not None:
        return "combat.attack_restriction"
    return None


def attack_unmet(s: State, perm: Permanent) -> str | None:
    """Why a restriction of ``perm``'s own ("~ can't attack unless defending player controls an Island",
    508.1c) forbids it to attack now, or None."""
    for st in perm.card.statics:  # its own ability (scope "self"): asked of every creature, kept cheap
        if st.attack_unless and not any(
            p.controller == s.defending and st.attack_unless in p.card.subtypes | {base_name(p.name).lower()}
            for p in s.battlefield
        ):
            return f"it can't attack unless the defending player, {s.defending}, controls {_an(st.attack_unless)}"
    return None


def _an(word: str) -> str:
    return f"{'an' if word[0] in 'aeiou' else 'a'} {word.capitalize()}"


def alone_refusal(s: State, chosen: list[Permanent], what: str) -> Refusal | None:
    """The refusal of a declaration in which a creature that "can't attack (block) alone" is the only one
    (508.1c, 509.1b), or None."""
    if len(chosen) != 1:
        return None
    perm = chosen[0]
    if any(what in st.alone.split(" or ") for _, st in s.statics_for(perm) if st.alone):
        key = "combat.attack_restriction" if what == "attack" else "combat.block_restriction"
        return Refusal(
            f"{perm.name} can't {what} alone, and it is the only creature declared to {what}",
            key,
            f"combat.illegal_{what}",
        )
    return None


def can_block(s: State, perm: Permanent) -> bool:
    return (
        perm.controller == s.defending
        and perm.is_a("creature")
        and not perm.tapped
        and s.cant(perm, "block") is None
        and keyword_forbids_block(s, perm) is None
    )


def keyword_forbids_block(s: State, perm: Permanent) -> tuple[str, ...] | None:
    """Why a keyword of ``perm`` says it can't block now (unleash: while it has a +1/+1 counter on it,
    702.98a): (the reason, its keys), or None."""
    for keyword, kw in entries(s.keywords(perm)):
        if kw.cant_block_with and perm.counters.get(kw.cant_block_with, 0):
            return (f"it has {keyword} and a {kw.cant_block_with} counter on it", *kw.keys)
    return None


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
    stat = blocker_stat_restriction(s, attacker, blocker)
    if stat is not None:
        return (stat, "combat.block_restriction")
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


def blocker_stat_restriction(s: State, attacker: Permanent, blocker: Permanent) -> str | None:
    """Why a restriction by power or toughness forbids ``blocker`` to block ``attacker`` (509.1b): "~ can't be
    blocked by creatures with power 2 or less", "creatures with power less than ~'s power can't block it",
    "~ can't block creatures with power 2 or greater"; or None."""
    for _, st in s.statics_for(attacker):
        if st.blocked_by[:1] in (("with",), ("group",)):  # by a kind of creature, or except by one
            how, words, allowed = st.blocked_by
            fits = any(s.has(blocker, w) for w in words) if how == "with" else in_group(blocker, words)
            if fits != allowed:
                kind = f"creatures with {' or '.join(words)}" if how == "with" else f"{' '.join(words)} creatures"
                return (
                    f"{attacker.name} can't be blocked {'except ' if allowed else ''}by {kind}, and {blocker.name} "
                    f"{'is not one' if allowed else 'is one'}"
                )
        elif st.blocked_by:
            stat, side, n = st.blocked_by
            value = _stat(s, blocker, stat)
            if n is None:  # "creatures with power less than ~'s power": its power now
                limit = _stat(s, attacker, stat)
                if value < limit if side == "less" else value > limit:
                    return (
                        f"creatures with {stat} {side} than {attacker.name}'s ({limit}) can't block it, and "
                        f"{blocker.name}'s {stat} is {value}"
                    )
            elif value <= n if side == "less" else value >= n:
                return (
                    f"{attacker.name} can't be blocked by creatures with {stat} {n} or {side}, and {blocker.name}'s "
                    f"{stat} is {value}"
                )
    for _, st in s.statics_for(blocker):
        if st.cant_block_stat:
            stat, side, n = st.cant_block_stat
            value = _stat(s, attacker, stat)
            if value <= n if side == "less" else value >= n:
                return (
                    f"{blocker.name} can't block creatures with {stat} {n} or {side}, and {attacker.name}'s is {value}"
                )
    return None


def _stat(s: State, perm: Permanent, stat: str) -> int:
    return s.power(perm) if stat == "power" else s.toughness(perm)


def exerting(s: State, plan: Attacking, names: tuple[str, ...]) -> Attacking:
    """``P attacks with C exerting C``: the attackers exerted as they attack, an optional cost to attack that
    only a creature whose text says "You may exert ~ as it attacks" has (701.43d, 508.1g)."""
    exerted: list[Permanent] = []
    for name in names:
        perm = next((p for p in plan.attackers if s.match(name, [p]) is not None), None)
        if perm is None:
            raise Refusal(f"{name} is exerted as it attacks, and it is not declared as an attacker", "effect.exert")
        if not perm.card.exert:
            raise Refusal(
                f"{perm.name} cannot be exerted as it attacks: its text does not say it may be",
                "effect.exert",
                "combat.illegal_attack",
            )
        if perm not in exerted:
            exerted.append(perm)
    return replace(plan, exerted=tuple(exerted)) if exerted else plan


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
            unmet = attack_unmet(s, perm) if source is None else None
            said = unmet or f"{source.name if source else 'an effect'} says it can't"
            raise Refusal(
                f"{perm.name} cannot attack: {said}",
                "combat.attack_restriction",
                "combat.illegal_attack",
            )
        chosen.append(perm)
    alone = alone_refusal(s, chosen, "attack")
    if alone is not None:
        raise alone
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
        forbids = keyword_forbids_block(s, blocker)
        if forbids is not None:
            raise Refusal(f"{blocker.name} cannot block: {forbids[0]}", *forbids[1:], "combat.illegal_block")
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
        most = min((st.max_blockers for _, st in s.statics_for(attacker) if st.max_blockers), default=0)
        if most and count > most:
            raise Refusal(
                f"{attacker.name} can't be blocked by more than {most} creature{'s' if most > 1 else ''}, and "
                f"{count} block it",
                "combat.block_restriction",
                "combat.illegal_block",
            )
    alone = alone_refusal(s, [b for _, b in chosen], "block")
    if alone is not None:
        raise alone
    unmet = block_requirement_unmet(s, player, chosen)
    if unmet is not None:
        raise Refusal(unmet, "combat.block_requirement", "combat.illegal_block")
    return Blocking(player, tuple(chosen))


def block_requirement_unmet(s: State, player: str, chosen: list[tuple[Permanent, Permanent]]) -> str | None:
    """Why a declaration of blockers obeys fewer requirements than it could (509.1c): "All creatures able to
    block ~ do so" (each creature able to block it blocks it, or another such creature), "~ must be blocked if
    able" (a creature able to block it and obeying no other requirement blocks it); or None."""
    attackers = [p for p in s.battlefield if p.attacking]
    lures = [a for a in attackers if s.must(a, "be blocked by all") is not None]
    musts = [a for a in attackers if s.must(a, "be blocked") is not None]
    if not lures and not musts:
        return None
    blocking = {b.oid: a for a, b in chosen}
    for blocker in s.battlefield:
        if blocker.controller != player or not can_block(s, blocker):
            continue
        able = [a for a in lures if block_restriction(s, a, blocker) is None]
        if able and blocking.get(blocker.oid) not in able:
            return (
                f"{blocker.name} is able to block {able[0].name}, and all creatures able to block "
                f"{able[0].name} must do so"
            )
    for attacker in musts:
        if any(a is attacker for a in blocking.values()):
            continue
        free = [
            b
            for b in s.battlefield
            if b.controller == player
            and can_block(s, b)
            and block_restriction(s, attacker, b) is None
            and blocking.get(b.oid) not in lures + musts
        ]
        if free:
            return f"{attacker.name} must be blocked if able, and {free[0].name} is able to block it"
    return None


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
    if trigger_modes(trigger):
        return ()
    return () if trigger.targets else target_kinds(trigger.effect)


def trigger_modes(trigger: PendingTrigger) -> tuple[str, ...]:
    """Each legal choice of modes of a waiting modal triggered ability, ``()`` when it is not modal (its mode
    is chosen as it is put on the stack, 700.2b)."""
    return parse_modes(trigger.effect)


def to_decide(trigger: PendingTrigger) -> bool:
    """Has its controller a mode or targets to choose as the waiting triggered ability is put on the stack?"""
    return bool(unaimed(trigger) or trigger_modes(trigger))


def shown_mode(trigger: PendingTrigger, mode: str) -> str:
    """A mode as a judge writes it: the source's name for ``~``."""
    return mode.replace("~", base_name(trigger.source))


def aim_trigger(s: State, player: str, name: str, names: tuple[str, ...], mode: str | None = None) -> AimingTrigger:
    """``P puts TRIGGER on the stack [choosing "MODE"] targeting X[, Y]``: ``player`` chooses the mode of
    their waiting modal triggered ability (700.2b) and its targets as it is put on the stack (603.3d, as for
    a spell, 601.2c)."""
    decision(s, player, "aim", "choose the targets of a triggered ability")
    mine = [t for t in s.pending_triggers if t.controller == player]
    waiting = [i for i, t in enumerate(mine) if to_decide(t)]
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
    modes = trigger_modes(trigger)
    chosen = ""
    if modes:
        shown = [shown_mode(trigger, m) for m in modes]
        if mode is None:
            listing = "; ".join(f'"{m}"' for m in shown)
            raise ScenarioError((), f"{trigger.name} is modal: say its mode, 'choosing \"MODE\"' ({listing})")
        d = replace(CardDef(trigger.name, frozenset()), modes=tuple(shown))
        chosen = modes[shown.index(find_mode(d, mode))]
    elif mode is not None:
        raise ScenarioError((), f"{trigger.name} is not modal: it has no mode to choose")
    kinds = target_kinds(chosen) if chosen else unaimed(trigger)
    try:
        targets = choose_targets(s, player, trigger.name, kinds, names, src)
    except Refusal as no:
        raise Refusal(str(no), *no.keys, "trigger.targets") from None
    return AimingTrigger(player, found[0], targets, chosen)


def pay_or_not(s: State, player: str, pays: bool, said: int | None = None) -> Paying:
    """``P pays {N}`` / ``P does not pay``, for "counter ... unless its controller pays {N}" (118.12a)."""
    decision(s, player, "pay", "pay" if pays else "decline to pay")
    paused = s.paused
    assert paused is not None
    if paused.mana and energy_of(paused.mana):  # "you may pay {E}{E}": her energy counters (107.14)
        if pays:
            energy_cost(s, player, (("E", energy_of(paused.mana)),), paused.item.name)
        return Paying(player, pays, None)
    if paused.mana:  # "you may pay {W/B}" (extort)
        paid = hybrid_payment(s, player, paused.mana, paused.item.name) if pays else None
        if pays and paid is None and player in s.paying and not s.costs_ignore:
            raise Refusal(f"{player} cannot pay {paused.mana} for {paused.item.name}", "cast.pay")
        return Paying(player, pays, paid)
    if said is not None and said != paused.amount:
        raise ScenarioError((), f"{paused.item.name} asks {player} for {{{paused.amount}}}, not {{{said}}}")
    if not pays:
        return Paying(player, False, None)
    return Paying(player, True, payment(s, player, (("*", paused.amount),), f"{paused.item.name}"))


def choosable(s: State, instr: Instruction, whose: str) -> list[Card]:
    """The cards of ``whose`` revealed hand a choice (``a nonland card ... with converted mana cost 3 or
    less``) may take: a card whose characteristics are not known never (define it under cards:)."""
    terms, bound, _ = instr.extra
    out = []
    for card in s.hand.get(whose, []):
        d = s.definition(card.name)
        if d is None or not pick_matches(terms, d.types, d.supertypes):
            continue
        value = sum(n for sym, n in d.cost if sym not in ("X", "T"))
        if bound and not (value <= instr.amount if bound == "less" else value >= instr.amount):
            continue
        out.append(card)
    return out


def pick_card(s: State, player: str, name: str) -> Picking:
    """``P chooses CARD``: a card of the revealed hand the choice may take."""
    decision(s, player, "pick", "choose a card")
    paused = s.paused
    assert paused is not None
    instr = parse_effect(paused.item.effect)[paused.index - 1]
    able = choosable(s, instr, paused.whose)
    card = s.match(name, able)
    if card is None:
        listing = ", ".join(c.name for c in able)
        raise ScenarioError((), f'"{name}" is not a card {player} may choose from {paused.whose}\'s hand ({listing})')
    return Picking(player, card, instr.extra[2])


def looked_matches(s: State, card: Card, terms: tuple[str, ...]) -> bool:
    """Is a card looked at of what may be taken ("a creature or land card")? An unnamed card never."""
    d = s.definition(card.name)
    return d is not None and pick_matches(terms, d.types, d.supertypes)


def looked_at(s: State) -> tuple[list[Card], tuple]:
    """The cards a player looking at the top of their library sees, and what may be done (how, terms, K, rest)."""
    paused = s.paused
    assert paused is not None
    instr = parse_effect(paused.item.effect)[paused.index - 1]
    if instr.verb == "may":  # "you may search ...", accepted
        instr = instr.extra[0]
    if instr.verb == "search":  # every card of the library (701.23a); the rest is shuffled
        how, terms, _, _ = instr.extra
        return list(s.library.get(paused.payer, [])), (how, terms, instr.amount, "shuffle")
    return s.library.get(paused.payer, [])[: instr.amount], instr.extra


def look_choice(s: State, player: str, taken: tuple[str, ...], bottom: tuple[str, ...]) -> Looking:
    """``P takes A[; bottom B, C]`` / ``P takes nothing``: the cards into the hand, as the effect allows, and the
    order of the rest on the bottom (each named once, by name or as ``card N`` from the top)."""
    decision(s, player, "look", "take cards")
    cards, (how, terms, k, rest) = looked_at(s)
    chosen = _looked_cards(s, player, cards, taken)
    order = _looked_cards(s, player, cards, bottom)
    matching = [c for c in cards if looked_matches(s, c, terms)]
    if how == "may" and (len(chosen) > 1 or any(c not in matching for c in chosen)):
        raise ScenarioError((), f"{player} may take one card that is {' and '.join(terms) or 'any'}, or nothing")
    if how == "exactly" and len(chosen) != min(k, len(cards)):
        raise ScenarioError((), f"{player} takes {min(k, len(cards))} of the cards, {len(chosen)} named")
    if how == "up to" and (len(chosen) > k or any(c not in matching for c in chosen)):
        raise ScenarioError((), f"{player} may take up to {k} cards that are {' and '.join(terms) or 'any'}")
    if how == "all" and set(chosen) != set(matching):
        raise ScenarioError((), f"every card that is {' and '.join(terms)} goes into the hand, and no other")
    left = [c for c in cards if c not in chosen]
    if set(order) & set(chosen) or (order and rest not in ("bottom", "top")):
        raise ScenarioError((), f"'{rest}' names the cards not taken, when they go back into the library")
    if rest in ("bottom", "top") and len(left) > 1 and set(order) != set(left):
        named = ", ".join(scry_label(cards, c) for c in left)
        lowest = "the last lowest" if rest == "bottom" else "the first topmost"
        raise ScenarioError((), f"say the order of the rest, '; {rest} {named}' ({lowest})")
    return Looking(player, tuple(chosen), tuple(order))


def _looked_cards(s: State, player: str, cards: list[Card], names: tuple[str, ...]) -> list[Card]:
    out: list[Card] = []
    for said in names:
        m = re.fullmatch(r"card (\d{1,2})", said.strip().lower())
        card = (cards[int(m.group(1)) - 1] if 1 <= int(m.group(1)) <= len(cards) else None) if m else None
        if m is None:
            card = s.match(said, [c for c in cards if c not in out])
        if card is None or card in out:
            seen = ", ".join(scry_label(cards, c) for c in cards)
            raise ScenarioError((), f'"{said}" is not one of the cards {player} looks at ({seen}), or is named twice')
        out.append(card)
    return out


def discard_choice(s: State, player: str, names: tuple[str, ...]) -> Discarding:
    """``P discards A[, B]``: as many cards of P's hand as "discard N cards" says, each once (701.9b)."""
    decision(s, player, "discard", "discard")
    paused = s.paused
    assert paused is not None
    hand, chosen = s.hand.get(player, []), []
    for name in names:
        card = s.match(name, [c for c in hand if c not in chosen])
        if card is None:
            held = ", ".join(c.name for c in hand)
            raise ScenarioError((), f'"{name}" is not a card in {player}\'s hand (or is named twice): {held}')
        chosen.append(card)
    if len(chosen) != paused.amount:
        raise ScenarioError((), f"{player} discards {paused.amount} card(s), {len(chosen)} named")
    return Discarding(player, tuple(chosen))


def scried(s: State) -> list[Card]:
    """The cards a player scrying looks at: the top of their library, as many as the scry says (701.22a)."""
    paused = s.paused
    if s.pending != "scry" or paused is None:
        return []
    return s.library.get(paused.payer, [])[: paused.amount]


def scry_label(cards: list[Card], card: Card) -> str:
    """How a card looked at is named: its name, or ``card N`` (from the top) for an unnamed card or one of
    two of the same name."""
    same = [c for c in cards if c.name.lower() == card.name.lower()]
    return card.name if card.name != "a card" and len(same) == 1 else f"card {cards.index(card) + 1}"


def scry_choice(s: State, player: str, top: tuple[str, ...], bottom: tuple[str, ...]) -> Scrying:
    """``P scries: top A; bottom B``: each card looked at named once, by name or as ``card N`` (701.22a)."""
    decision(s, player, "scry", "scry")
    cards = scried(s)
    chosen: list[Card] = []
    for said in top + bottom:
        m = re.fullmatch(r"card (\d{1,2})", said.strip().lower())
        if m:
            n = int(m.group(1))
            card = cards[n - 1] if 1 <= n <= len(cards) else None
        else:
            card = s.match(said, [c for c in cards if c not in chosen])
        if card is None or card in chosen:
            named = ", ".join(scry_label(cards, c) for c in cards)
            raise ScenarioError((), f'"{said}" is not one of the cards {player} looks at ({named}), or is named twice')
        chosen.append(card)
    if len(chosen) != len(cards):
        left = ", ".join(scry_label(cards, c) for c in cards if c not in chosen)
        raise ScenarioError((), f"say where each card {player} looks at goes: {left} is not placed")
    return Scrying(player, tuple(chosen[: len(top)]), tuple(chosen[len(top) :]))


# -- moving to a step ------------------------------------------------------------------------------------
def move_to(s: State, player: str, target: str) -> MovingTo:
    """``P moves to PHASE``: said by the player with priority, or by anyone while a declaration is pending.
    A later step of this turn is reached this turn, an earlier one or the one it is in now in the next turn."""
    if target not in ORDER:
        raise ScenarioError(
            (), f'no phase named "{target}"{suggest(target, list(ORDER))}; mtg phases: {", ".join(PHASES)}'
        )
    if s.pending in ("mode", "pay", "aim", "scry", "pick", "offer", "discard", "look", "may"):
        waiting = waiting_for(s)
        assert waiting is not None
        raise Refusal(f"{player} cannot move to {target}: {waiting[0]}", waiting[1])
    if s.priority is not None:
        priority(s, player, f"move to {target}")
    else:
        game_over(s)
    return MovingTo(player, target)  # the step it is in now: that step of the next turn
