"""What a Riftbound game is made of: card definitions (frozen), the mutable :class:`State` of one game
with the queries the rules ask of it, and :class:`Game`, the game as the steps see it.

Every named card is a :class:`Card`, wherever it is (hand, deck, trash, board, chain, facedown);
its ``key`` is its name in lower case, so ``Hidden Blade`` and ``hidden blade`` are the same card.

>>> unit = Card("Jinx", "Ana", CardDef("unit", might=3), zone="base", controller="Ana")
>>> unit.on_board, might(unit)
(True, 3)
>>> unit.buffed = True; might(unit)
4
"""

from __future__ import annotations

import copy
from collections.abc import Collection
from dataclasses import dataclass, field
from functools import cached_property
from typing import Protocol, Self, TypeVar

from engine.core import Citations, Snapshot
from engine.riftbound import conditions
from engine.riftbound.effect_types import Condition
from engine.riftbound.effects import Cost, Instruction, TriggerSpec, parse

PHASES = ("awaken", "beginning", "channel", "draw", "main", "ending")
BOARD_ZONES = ("base", "battlefield")
KEYWORDS = (
    "Accelerate",
    "Action",
    "Assault",
    "Deathknell",
    "Deflect",
    "Ganking",
    "Hidden",
    "Legion",
    "Reaction",
    "Shield",
    "Tank",
    "Temporary",
    "Vision",
    "Equip",
    "Quick-Draw",
    "Repeat",
    "Weaponmaster",
)
TRIGGERS = ("play", "attack", "defend", "conquer", "hold", "deathknell")


@dataclass(frozen=True)
class Ability:
    """An activated ability: ``cost: effect`` (370). ``cost`` may exhaust the object, cost energy and power,
    or other things (``Recycle 1 from your trash``)."""

    effect: str
    cost: Cost = Cost()
    keywords: frozenset[str] = frozenset()
    spend_only: str = ""  # "Use only to play spells": what the resources it adds may pay for ("spell")
    only: str | Condition = ""  # a condition on using it (377.2.b): "use this ability only while I'm at a battlefield"

    def __deepcopy__(self, memo: dict) -> Self:  # immutable: copies of a game share their definitions
        return self

    @property
    def exhausts(self) -> bool:
        return self.cost.exhaust

    @property
    def adds(self) -> bool:
        """An ability that adds resources (164): it resolves as it is finalized, without waiting (388.2)."""
        found = parse(self.effect)
        return bool(found) and all(i.verb == "add" for i in found)


@dataclass(frozen=True)
class Trigger:
    """A triggered ability (376): when it triggers (:class:`engine.riftbound.effects.TriggerSpec`) and its effect.
    ``optional``: its effect begins "you may" (decided as it resolves)."""

    spec: TriggerSpec
    effect: str

    def __deepcopy__(self, memo: dict) -> Self:
        return self

    @property
    def when(self) -> str:
        return self.spec.legacy


@dataclass(frozen=True)
class Replacement:
    """A replacement effect (364-368): "the next time WHO would EVENT, INSTEAD" (an **extension** of the format).

    ``who``: ``this`` (the object itself), ``unit``, ``friendly``, ``enemy``, ``other``, ``other friendly`` or ``other enemy``
    (friendly and enemy as seen by the object's controller); ``event``: ``die`` or ``damage``. ``instead``
    is effect text in which ``me`` is the object and ``that unit`` the unit the event would act on.
    """

    when: str  # as written: "a friendly unit would die"
    who: str
    event: str
    instead: str = ""
    once: bool = False

    def __deepcopy__(self, memo: dict) -> Self:
        return self


@dataclass(frozen=True)
class CardDef:
    type: str  # unit | spell | gear | legend | battlefield
    keywords: frozenset[str] = frozenset()
    might: int = 0
    effect: str = ""  # a spell's effect (its instructions)
    ability: Ability | None = None  # its first activated ability (the one ``P activates X`` uses)
    triggers: tuple[Trigger, ...] = ()
    replacement: Replacement | None = None
    values: tuple[tuple[str, int], ...] = ()  # keyword values: (("Assault", 2), ("Deflect", 1))
    cost: Cost | None = None  # None: no cost given (free; a token has none, 179.2.a)
    domains: tuple[str, ...] = ()
    tags: tuple[str, ...] = ()
    token: bool = False
    champion: bool = False
    repeat: Cost | None = None  # Repeat's cost (746)
    equip: Cost | None = None  # Equip's cost (744)
    might_bonus: int = 0  # an Equipment's Might Bonus while attached (136)
    attached_text: tuple = ()  # an Equipment's Effect Text: passives and keywords its unit has while attached (135)
    passives: tuple[tuple, ...] = ()  # (kind, ...) as effects.parse_passive reads them
    legion: str = ""  # the text a Legion ability applies (738)
    additional_cost: Cost | None = None  # "As an additional cost to play me, ..." (353.2.a)
    abilities: tuple[Ability, ...] = ()  # every activated ability
    optional_cost: Cost | None = None  # "As you play me, you may discard 1 as an additional cost" (356.2.b)
    optional_mod: tuple = ()  # what paying it does to its own cost: ("free",), ("reduce", N)

    def __deepcopy__(self, memo: dict) -> Self:
        return self

    def trigger(self, when: str) -> str | None:
        """The effect of its own ``when`` trigger (play, attack, defend, conquer, hold, deathknell)."""
        for t in self.triggers:
            if (
                t.when == when
                and t.spec.who in ("me", "you")
                and not t.spec.what
                and not t.spec.condition
                and (t.spec.who == "me" or when in ("conquer", "hold"))
            ):
                return t.effect
        return None

    def has(self, keyword: str) -> bool:
        return keyword in self.keywords

    def value(self, keyword: str) -> int:
        return sum(v for k, v in self.values if k == keyword)

    @cached_property
    def keyword_values(self) -> dict[str, int]:
        """Each printed keyword and its value, made once (every snapshot asks): copy before changing it."""
        return {kw: self.value(kw) for kw in self.keywords}

    @cached_property
    def trigger_events(self) -> frozenset[str]:
        """The events its triggered abilities watch for (a game with none for an event skips looking)."""
        return frozenset(t.spec.event for t in self.triggers)

    @cached_property
    def shown_keywords(self) -> tuple[str, ...]:
        """The printed keywords as a snapshot shows them, sorted, with the values that add up (``Assault 2``)."""
        values = self.keyword_values
        return tuple(f"{k} {values[k]}" if k in ("Assault", "Shield", "Deflect") else k for k in sorted(values))


@dataclass(frozen=True)
class Rune:
    """A rune on the board (156-160): its domain (None when the scenario does not say) and whether exhausted."""

    domain: str | None = None
    exhausted: bool = False


@dataclass
class Pool:
    """A player's Rune Pool (161): energy and power added and not spent yet."""

    energy: int = 0
    power: list[str] = field(default_factory=list)  # domains; "any" for power of any domain
    # added "only to play spells": ("energy" for one energy, or a power's domain, what it may pay for: "spell")
    only: list[tuple[str, str]] = field(default_factory=list)

    def __deepcopy__(self, memo: dict) -> Pool:
        return Pool(self.energy, list(self.power), list(self.only))

    def text(self) -> str:
        kept = "".join(f" [{'1' if r == 'energy' else r}] only to play {use}s" for r, use in self.only)
        return (
            f"[{self.energy}]" * bool(self.energy) + "".join(f"[{p}]" for p in self.power) + kept
        ).strip() or "empty"


@dataclass
class Card:
    name: str  # as the scenario writes it ("Garen", "Garen#2")
    owner: str
    defn: CardDef
    zone: str = (
        "hand"  # hand | deck | trash | base | battlefield | chain | facedown | legend | champion | banishment | gone
    )
    at: str | None = None  # the battlefield, when on one or hidden at one
    controller: str | None = None
    exhausted: bool = False
    damage: int = 0
    buffed: bool = False
    more_buffs: int = 0  # buffs beyond the first, on a unit that "can have any number of buffs"
    stunned: bool = False
    temp_might: int = 0  # "this turn" Might changes; expire in the Expiration Step
    designation: str | None = None  # attacker | defender
    hidden_turn: int | None = None  # the turn it was hidden on
    replacement_used: bool = False  # a "the next time" replacement effect has applied (this object)
    # keywords given by effects: (keyword, value, this turn only: True, or "combat" until the combat ends)
    granted: tuple[tuple[str, int, bool | str], ...] = ()
    attached_to: str | None = None  # the key of the unit this Equipment is attached to (421)
    moves: int = 0  # moves this turn
    paid: tuple[str, ...] = ()  # the optional costs paid as it was played ("if you paid the additional cost")

    def __deepcopy__(
        self, memo: dict
    ) -> Self:  # every field is immutable: a shallow copy is a deep one (games are copied a lot)
        return copy.copy(self)

    @property
    def key(self) -> str:
        return self.name.lower()

    @property
    def on_board(self) -> bool:
        return self.zone in BOARD_ZONES

    @property
    def is_unit(self) -> bool:
        return self.defn.type == "unit"

    @property
    def holder(self) -> str:
        """Its controller, for an object on the board (else its owner)."""
        return self.controller or self.owner

    @property
    def location(self) -> str | None:
        """``base`` or the battlefield's name, for permanents on the board."""
        if self.zone == "base":
            return "base"
        if self.zone == "battlefield":
            return self.at
        return None

    def has(self, keyword: str) -> bool:
        """Printed or given keywords (passive abilities of other objects: :meth:`State.has`)."""
        if keyword == "Reaction" and self.zone == "facedown":
            return True
        return self.defn.has(keyword) or any(k == keyword for k, _, _ in self.granted)


def might(card: Card) -> int:
    """Current Might from the card alone: printed, +1 for a buff, plus this turn's changes; never below 0
    (142.2.b). :meth:`State.might` adds what other objects and keywords give."""
    return max(0, card.defn.might + ((1 + card.more_buffs) if card.buffed else 0) + card.temp_might)


@dataclass
class Battlefield:
    name: str
    controller: str | None = None
    contested_by: str | None = None  # the player who applied Contested
    facedown: str | None = None  # key of the card hidden here
    defn: CardDef = CardDef("battlefield")  # its abilities (166.8, 166.9)
    was_controller: str | None = None  # its controller when it last became Contested (who it was taken from)

    def __deepcopy__(self, memo: dict) -> Self:
        return copy.copy(self)

    @property
    def key(self) -> str:
        return self.name.lower()


@dataclass
class ChainItem:
    label: str  # what the chain shows: the card's name, or "Vi (attack)" for an ability
    controller: str
    kind: str  # spell | unit | gear | ability | trigger
    effect: str = ""
    card: str | None = None  # key of the card, for cards
    source: str | None = None  # key of the object an ability comes from
    targets: tuple[tuple[str, str, int], ...] = ()  # ("unit", card key, epoch) or ("spell", chain uid, 0)
    place: str | None = None  # a unit's location, or a move's destination
    hidden_at: str | None = None  # played from facedown at this battlefield
    pending: bool = True
    initial: bool = False  # part of a showdown's Initial Chain
    uid: int = 0
    slots: tuple[int, ...] = ()  # how many targets each choosing instruction took ("up to"); () : one each
    paid: tuple[str, ...] = ()  # optional costs paid as it was played: Accelerate, Repeat
    noted: tuple[tuple[str, str], ...] = ()  # what was noted as it triggered (734.1.d.3): ("at", "Altar")
    chosen_by: str = ""  # the player whose target choice is awaited ("" : its controller)
    origin: str = ""  # for a card an effect plays: the zone it was played from (hand, trash, banishment)
    taken: bool = False  # v1.3: its "you may" was accepted as it triggered (383.3.a); its cost paid as it is finalized

    def __deepcopy__(self, memo: dict) -> Self:
        return copy.copy(self)


@dataclass
class Showdown:
    at: str
    combat: bool = False
    passes: int = 0  # passes of Focus in sequence
    initial_chain: bool = False


@dataclass
class Combat:
    at: str
    attacker: str
    defender: str
    attacked: set[str] = field(default_factory=set)  # units whose attack trigger was used
    defended: set[str] = field(default_factory=set)
    assigned: dict[str, dict[str, int]] = field(default_factory=dict)  # player -> unit -> damage
    step: str = "showdown"  # showdown | damage | won (a win's triggered abilities resolve before control is settled)
    result: str = ""  # after combat damage: the winner's name, or "tie"


@dataclass(frozen=True)
class Awaiting:
    """The rules wait for one player's limited choice (no one has Priority meanwhile)."""

    kind: str  # showdown | combat (which staged one begins) | assign (combat damage) | order (replacement effects)
    #            | targets (a triggered ability's targets, as it is put on the Chain) | may ("you may")
    #            | subset (the targets of a group requirement that still fulfil it, 352.11.b)
    #            | pick (the card an effect plays, 406.3) | choice (one of the player's own objects an
    #            instruction acts on, chosen as it resolves, not a target: 355.10.e, 355.10.f; ``what`` says which)
    player: str
    options: tuple[str, ...] = ()
    amount: int = 0  # damage to assign
    reason: str = ""  # for ``order``: the citation key of the rule that makes ``player`` the one who decides
    about: str = ""  # for ``order``: the event the replacement effects would replace ("Braum would die");
    #                  for ``targets``: the chain item's label
    item: int = 0  # for ``targets``: the pending chain item's uid
    choices: tuple[tuple[str, ...], ...] = ()  # for ``targets``: the valid choices for each target, in order
    what: str = ""  # for ``choice``: what the player chooses ("a rune to recycle")
    least: tuple[int, ...] = ()  # for ``targets``: how many each target needs at least ("up to N": 0)
    options_most: tuple[int, ...] = ()  # for ``targets``: how many each target takes at most
    total_max: int = 0  # for ``subset``: the total Might the subset of a group of targets may have (352.11.b)


@dataclass(frozen=True)
class Suspended:
    """An action interrupted where the rules wait for a player to order replacement effects (368).

    ``before`` is the state before the action; ``answers`` the orders given so far; ``shown`` how many of
    the events of carrying the action out were reported already (they are not reported again)."""

    before: State
    action: str
    answers: tuple[tuple[str, ...], ...]
    shown: int


@dataclass
class State:
    players: list[str]
    turn_player: str
    phase: str
    victory_score: int = 8
    turn_number: int = 1
    points: dict[str, int] = field(default_factory=dict)
    cards: dict[str, Card] = field(default_factory=dict)  # key -> card, in scenario order
    battlefields: dict[str, Battlefield] = field(default_factory=dict)  # key -> battlefield
    deck: dict[str, list[str | None]] = field(default_factory=dict)  # top first; None: an unnamed card
    hand_unnamed: dict[str, int] = field(default_factory=dict)
    runes: dict[str, list[Rune] | None] = field(default_factory=dict)  # None: not tracked
    rune_deck: dict[str, int | None] = field(default_factory=dict)  # runes left in the Rune Deck; None: not tracked
    pool: dict[str, Pool] = field(default_factory=dict)
    tracked: frozenset[str] = frozenset()  # players whose costs are checked (runes or a pool given)
    played: dict[str, list[tuple[str, bool]]] = field(default_factory=dict)  # this turn: (key, a Main Deck card)
    first_done: set[str] = field(default_factory=set)  # "the first time ... each turn" triggers used this turn
    continuous: bool = False  # some object gives Might or keywords to others or itself (passives, keywords, gear)
    responsible: str = ""  # the spell resolving or just resolved, whose cleanup may kill with it (415.5.c)
    killed_by_spell: list[tuple[str, str]] = field(default_factory=list)  # (player, unit) killed by their spell
    teams: dict[str, int] = field(default_factory=dict)  # player -> team, in modes with teams (466)
    champions: dict[str, str] = field(default_factory=dict)  # player -> the name of their Chosen Champion (103.2.a.3)
    # "If this kills it, do this:" (380): (unit key, its epoch, the reflexive effect, controller, label, source)
    watch: list[tuple[str, int, str, str, str, str]] = field(default_factory=list)
    damaged_by: dict[str, str] = field(
        default_factory=dict
    )  # unit key -> "uid:controller:kind" of what last dealt it damage
    prevent: dict[str, str] = field(
        default_factory=dict
    )  # player -> "spells and abilities": damage prevented this turn
    buff_bonus: dict[str, int] = field(default_factory=dict)  # player -> extra Might their buffs give this turn
    died: list[str] = field(default_factory=list)  # this turn: the controller of each unit that died, as it died
    discarded: list[str] = field(default_factory=list)  # this turn: the player of each card discarded
    extra_turns: list[str] = field(default_factory=list)  # Additional Turns queued after this one, by owner (v1.3 734)
    regular: str = ""  # during Additional Turns: the player of the last turn that was not one (v1.3 737)
    # delayed abilities (383): "... at the end of this turn" (controller, effect, source key); "the next unit you play
    # this turn enters ready" (player -> how many)
    delayed: list[tuple[str, str, str]] = field(default_factory=list)
    next_ready: dict[str, int] = field(default_factory=dict)
    # "opponents can't play cards this turn": (the effect's controller, "opponents" | "players", "card" | a type)
    cant_play: list[tuple[str, str, str]] = field(default_factory=list)
    hide_free: list[str] = field(default_factory=list)  # "you can hide cards ignoring costs this turn": players
    # "when any unit takes damage this turn, kill it" / "kill it the next time it takes damage this turn": delayed
    # triggers (controller, unit key or "" for any unit, that unit's epoch, effect, source key)
    damage_watch: list[tuple[str, str, int, str, str]] = field(default_factory=list)
    # "the next time it would die this turn, ... instead": delayed replacements (controller, unit key, its epoch,
    # event, instead, the name of the card that set it up)
    delayed_replace: list[tuple[str, str, int, str, str, str]] = field(default_factory=list)
    # "the next spell you play this turn costs [5] less / deals 1 Bonus Damage": (player, "less" | "bonus", N, source)
    next_spell: list[tuple[str, str, int, str]] = field(default_factory=list)
    deflect_each_choice: bool = False  # Deflect is paid for each time a target is chosen (Spiritforged FAQ's 735.1.c)
    rulings: frozenset[str] = frozenset()  # the FAQ rulings of the edition in force (citation keys "faq.*")
    scored: dict[str, set[str]] = field(default_factory=dict)  # battlefield keys scored this turn
    chain: list[ChainItem] = field(default_factory=list)
    priority: str | None = None
    focus: str | None = None
    passed: list[str] = field(default_factory=list)  # passes of Priority since the chain last changed
    showdown: Showdown | None = None
    combat: Combat | None = None
    staged_showdowns: list[str] = field(default_factory=list)
    staged_combats: list[str] = field(default_factory=list)
    awaiting: Awaiting | None = None
    winner: str | None = None
    next_uid: int = 1
    epochs: dict[str, int] = field(default_factory=dict)  # bumped when a card changes zones: a new object
    # The citation key of why the newest chain item's controller gets Priority once the rules settle
    # (a finalized spell or ability, an item resolved with others left); "" when nothing says so.
    priority_to_newest: str = ""
    suspended: Suspended | None = None  # an action waiting for replacement effects to be ordered
    ending: str = ""  # "step": the Ending Step's triggered abilities are on the Chain (the End of Turn goes on after)
    gap_reported: str = ""  # a battlefield whose v1.2 gap (controlled, contested, no controller's units) was reported

    def __deepcopy__(self, memo: dict) -> State:
        """A copy sharing nothing that changes (several times faster than a generic deep copy; a test
        checks it equals the original and shares no mutable part). ``suspended.before`` is shared: it is
        never changed, only copied again when used."""
        new = _clone(self)
        new.players = list(self.players)
        new.points, new.hand_unnamed = dict(self.points), dict(self.hand_unnamed)
        new.runes = {p: None if r is None else list(r) for p, r in self.runes.items()}
        new.rune_deck = dict(self.rune_deck)
        new.pool = {p: Pool(pool.energy, list(pool.power), list(pool.only)) for p, pool in self.pool.items()}
        new.played = {p: list(v) for p, v in self.played.items()}
        new.first_done = set(self.first_done)
        new.killed_by_spell = list(self.killed_by_spell)
        new.watch = list(self.watch)
        new.damaged_by = dict(self.damaged_by)
        new.prevent, new.buff_bonus, new.teams = dict(self.prevent), dict(self.buff_bonus), dict(self.teams)
        new.died, new.extra_turns, new.delayed = list(self.died), list(self.extra_turns), list(self.delayed)
        new.next_ready = dict(self.next_ready)
        new.cant_play = list(self.cant_play)
        new.hide_free = list(self.hide_free)
        new.damage_watch = list(self.damage_watch)
        new.delayed_replace = list(self.delayed_replace)
        new.discarded = list(self.discarded)
        new.next_spell = list(self.next_spell)
        new.champions = dict(self.champions)
        new.epochs = dict(self.epochs)
        new.cards = {k: _clone(c) for k, c in self.cards.items()}
        new.battlefields = {k: _clone(b) for k, b in self.battlefields.items()}
        new.deck = {p: list(d) for p, d in self.deck.items()}
        new.scored = {p: set(k) for p, k in self.scored.items()}
        new.chain = [_clone(i) for i in self.chain]
        new.passed = list(self.passed)
        new.showdown = None if self.showdown is None else _clone(self.showdown)
        c = self.combat
        new.combat = c and Combat(
            c.at,
            c.attacker,
            c.defender,
            set(c.attacked),
            set(c.defended),
            {p: dict(d) for p, d in c.assigned.items()},
            c.step,
            c.result,
        )
        new.staged_showdowns, new.staged_combats = list(self.staged_showdowns), list(self.staged_combats)
        return new

    # --- looking things up ------------------------------------------------------------------
    def units(self) -> list[Card]:
        return [
            c for c in self.cards.values() if (c.zone == "base" or c.zone == "battlefield") and c.defn.type == "unit"
        ]

    def units_at(self, place: str) -> list[Card]:
        low = place.lower()
        if low == "base":
            return [c for c in self.cards.values() if c.zone == "base" and c.defn.type == "unit"]
        return [
            c
            for c in self.cards.values()
            if c.zone == "battlefield" and c.at is not None and c.at.lower() == low and c.defn.type == "unit"
        ]

    def players_at(self, place: str) -> list[str]:
        out: list[str] = []
        for u in self.units_at(place):
            if u.controller is not None and u.controller not in out:
                out.append(u.controller)
        return out

    def hand(self, player: str) -> list[Card]:
        return [c for c in self.cards.values() if c.zone == "hand" and c.owner == player]

    def next_player(self, player: str) -> str:
        i = self.players.index(player)
        return self.players[(i + 1) % len(self.players)]

    def in_turn_order(self, players: Collection[str]) -> list[str]:
        """``players`` sorted from the turn player on (303.2.a)."""
        start = self.players.index(self.turn_player)
        order = self.players[start:] + self.players[:start]
        return [p for p in order if p in players]

    def opponents(self, player: str) -> list[str]:
        return [p for p in self.players if p != player and not self.allied(p, player)]

    def bf(self, name: str) -> Battlefield:
        return self.battlefields[name.lower()]

    def place_name(self, place: str) -> str:
        """``base``, or the battlefield's name as the scenario writes it."""
        return "base" if place.lower() == "base" else self.bf(place).name

    @property
    def state_name(self) -> str:
        return ("showdown" if self.showdown else "neutral") + (" closed" if self.chain else " open")

    def new_uid(self) -> int:
        self.next_uid += 1
        return self.next_uid

    def allied(self, a: str | None, b: str | None) -> bool:
        """Teammates: two different players on the same team (466.2)."""
        return a is not None and b is not None and a != b and a in self.teams and self.teams.get(a) == self.teams.get(b)

    def pays(self, player: str) -> bool:
        """Are ``player``'s costs checked? (Only when the scenario gives their runes or Rune Pool.)"""
        return player in self.tracked

    # --- continuous effects: Might and keywords (layers, 450-457, simplified) ---------------------
    def keywords(self, card: Card) -> dict[str, int]:
        """Every keyword ``card`` has now, with its value (summed for Assault, Shield, Deflect: 733.2, 740.2,
        735.2): printed, given by effects, by its own conditional passives, by other objects' passives and by
        the Equipment attached to it (718.3)."""
        out = dict(card.defn.keyword_values)
        for kw, value, _ in card.granted:
            out[kw] = out.get(kw, 0) + value
        if card.zone == "facedown":
            out.setdefault("Reaction", 0)
        if not self.continuous:
            return out

        def add(kw: str, value: int) -> None:
            out[kw] = out.get(kw, 0) + value

        base: int | None = None  # its Might before keywords, made only for a passive that asks (each step asks)
        for passive in card.defn.passives:
            if passive[0] == "self_keywords":
                if base is None:
                    base = self._might_before_keywords(card)
                if self._condition(card, passive[2], base):
                    for kw, value in passive[1]:
                        add(kw, value)
        if card.on_board and card.is_unit:
            for gear in self.attached(card):
                for passive in gear.defn.attached_text:
                    if passive[0] == "keywords":
                        for kw, value in passive[1]:
                            add(kw, value)
            for source in self._sources():
                for passive in source.defn.passives:
                    if passive[0] == "others_keywords" and self._covers(source, card, passive[2], passive[3]):
                        for kw, value in passive[1]:
                            if len(passive) > 4 and kw in out:
                                continue  # "if they didn't already"
                            add(kw, value)
        if card.defn.type == "gear" and "Equipment" in card.defn.tags:
            for source in self._sources():
                if source.controller == card.holder:
                    for passive in source.defn.passives:
                        if passive[0] == "equipment_keywords":
                            for kw, value in passive[1]:
                                add(kw, value)
        return out

    def has(self, card: Card, keyword: str) -> bool:
        if not self.continuous:
            return card.has(keyword)
        return keyword in self.keywords(card)

    def value(self, card: Card, keyword: str) -> int:
        return self.keywords(card).get(keyword, 0)

    def raw_might(self, card: Card) -> int:
        """Might before it is treated as 0 when below 0 (142.2.b): arithmetic keeps the true value."""
        m = self._might_before_keywords(card)
        if self.continuous and card.on_board and card.designation:
            kws = self.keywords(card)
            if card.designation == "attacker":
                m += kws.get("Assault", 0)
            elif card.designation == "defender":
                m += kws.get("Shield", 0)
        return m

    def might(self, card: Card) -> int:
        """Current Might (710), never below 0 for any purpose (142.2.b)."""
        return max(0, self.raw_might(card))

    def mighty(self, card: Card) -> bool:
        """Mighty: Might 5 or more (708); off the board, by its printed Might (711)."""
        return (self.might(card) if card.on_board else card.defn.might) >= 5

    def _might_before_keywords(self, card: Card) -> int:
        m = card.defn.might + card.temp_might
        if card.buffed:  # a buff is +1, more while an effect says so (its holder looked up only then)
            m += (1 + card.more_buffs) * (1 + (self.buff_bonus.get(card.holder, 0) if self.buff_bonus else 0))
        if not self.continuous or not card.on_board or not card.is_unit:
            return m
        for gear in self.attached(card):
            m += gear.defn.might_bonus
        for passive in card.defn.passives:
            if passive[0] == "self_might" and self._condition(card, passive[2], None):
                m += passive[1]
            if passive[0] == "self_might_per":
                m += passive[1] * self.count(card, passive[2])
        for source in self._sources():
            for passive in source.defn.passives:
                if (
                    passive[0] == "others_alone"  # "while a friendly unit defends alone, it gets +2 [M]"
                    and card.designation
                    and passive[3] in ("either", card.designation)
                    and self._covers(source, card, passive[2], "")
                    and self._condition(card, "alone", None)
                ):
                    m += passive[1]
                if passive[0] == "others_might" and self._covers(source, card, passive[2], passive[3]):
                    if len(passive) > 4 and passive[1] < 0:  # "-8 [M], to a minimum of 1 [M]": never lowered below
                        m = max(m + passive[1], min(m, passive[4]))
                    else:
                        m += passive[1]
        return m

    def count(self, card: Card, what: tuple) -> int:
        """A varying amount of a card's text, for its controller: ``("trash",)`` the cards in their trash,
        ``("points",)`` their points, ``("units", Target)`` the units on the board that fit (its side, state, ``here``:
        at the card's location; ``other``: not the card itself), ``("highest", Target)`` the highest Might among them."""
        me = card.holder
        if what[0] == "trash":
            return sum(1 for c in self.cards.values() if c.zone == "trash" and c.owner == me)
        if what[0] == "points":
            return self.points.get(me, 0)
        t = what[1]
        states = {str(v) for k, v in t.filters if k == "state"}
        fit = [
            u
            for u in self.cards.values()
            if u.on_board
            and u.is_unit
            and (
                t.side not in ("friendly", "your")
                or u.controller == me
                or (t.side == "friendly" and self.allied(u.controller, me))
            )
            and (t.side != "enemy" or u.controller in self.opponents(me))
            and (t.where != "here" or (card.on_board and (u.location or "").lower() == (card.location or "").lower()))
            and not (t.other and u is card)
            and all(
                {
                    "buffed": u.buffed,
                    "stunned": u.stunned,
                    "exhausted": u.exhausted,
                    "ready": not u.exhausted,
                    "damaged": u.damage > 0,
                }.get(st, False)
                for st in states
            )
            and (not any(k == "mighty" for k, _ in t.filters) or self._might_before_keywords(u) >= 5)
        ]
        if what[0] == "highest":  # "the highest Might among units you control" (0 with none)
            return max((self.might(u) for u in fit), default=0)
        return len(fit)

    def _sources(self) -> list:
        """Objects whose passive abilities apply now: permanents on the board and battlefields (their rules
        text; an attached card's is inactive, 718.2), and legends in their Legend Zone."""
        out: list = [
            c
            for c in self.cards.values()
            if c.defn.passives and (c.on_board or c.zone == "legend") and c.attached_to is None
        ]
        out.extend(bf for bf in self.battlefields.values() if bf.defn.passives)
        return out

    def _covers(self, source: object, card: Card, who: str, where: str) -> bool:
        if isinstance(source, Battlefield):
            return (card.location or "").lower() == source.key
        assert isinstance(source, Card)
        if who.startswith("other") and source.key == card.key:
            return False
        if "friendly" in who and card.controller != source.controller:
            return False
        if "enemy" in who and card.controller == source.controller:
            return False
        if "buffed" in who and not card.buffed:
            return False
        if "stunned" in who and not card.stunned:
            return False
        if where == "here" and (card.location or "").lower() != (source.location or "").lower():
            return False
        return True

    def restrictor(self, player: str, kind: str, what: str = "") -> Card | None:
        """An opponent's permanent whose passive ability restricts ``player`` now: ``only_base`` ("opponents can
        only play units to their base"), ``no_ready`` ("spells and abilities can't ready enemy units and gear",
        ``what`` the object's type); None when none does."""
        if not self.continuous:  # no passive ability anywhere
            return None
        for c in self._sources():
            if isinstance(c, Card) and c.controller in self.opponents(player):
                for p in c.defn.passives:
                    if p[0] == kind and (not what or what in p[-1]) and self._condition(c, p[1], None):
                        return c
        return None

    def spend_buff(self, card: Card) -> None:
        """Spend one of ``card``'s buffs (702.2.b): one of several, or its only one."""
        if card.more_buffs:
            card.more_buffs -= 1
        else:
            card.buffed = False

    def takes_no_damage(self, card: Card) -> bool:
        """ "If I have moved twice this turn, I don't take damage": a passive of its own that holds now."""
        return any(p[0] == "no_damage" and self._condition(card, p[1], None) for p in card.defn.passives)

    def next_spell_cut(self, player: str) -> int:
        """What "the next spell you play this turn costs [N] less" takes off ``player``'s next spell (383.4)."""
        return sum(n for p, what, n, _ in self.next_spell if p == player and what == "less")

    def passive_holds(self, card: Card, condition: str | Condition) -> bool:
        """Whether the condition of ``card``'s passive ability holds now ("while I'm at a battlefield", 364.3)."""
        return self._condition(card, condition, None)

    def _condition(self, card: Card, condition: str | Condition, base: int | None) -> bool:
        if not condition:
            return True
        if not card.on_board:
            return False
        if isinstance(condition, Condition):  # a condition of the game ("while you have 8+ runes", 364.3)
            return conditions.holds(self, card.holder, card, None, condition)[0]
        if condition == "mighty":
            return (self._might_before_keywords(card) if base is None else base) >= 5
        if condition == "at a battlefield":
            return card.zone == "battlefield"
        if condition == "alone":
            return (
                bool(card.designation)
                and sum(1 for u in self.units_at(card.location or "") if u.designation == card.designation) == 1
            )
        if condition == "equipped":
            return bool(self.attached(card))
        if condition == "buffed":
            return card.buffed
        return False

    def attached(self, card: Card) -> list[Card]:
        return [c for c in self.cards.values() if c.attached_to == card.key and c.on_board]

    def legend(self, player: str) -> Card | None:
        return next((c for c in self.cards.values() if c.zone == "legend" and c.owner == player), None)

    def played_cards(self, player: str) -> int:
        """Main Deck cards ``player`` has played this turn (Legion, 738; tokens are not cards, 179)."""
        return sum(1 for _, is_card in self.played.get(player, []) if is_card)


_T = TypeVar("_T")


def _clone(obj: _T) -> _T:
    """A shallow copy of a plain dataclass instance (its fields are values, tuples or shared immutable
    definitions), several times faster than ``copy.copy``."""
    new = object.__new__(type(obj))
    new.__dict__.update(obj.__dict__)
    return new


class RiftboundSnapshot(Snapshot, total=False):
    """The snapshot of a Riftbound game: the shared keys and these (docs/json.md lists them all)."""

    contested: dict[str, str]
    showdown: str | None
    combat: dict[str, str] | None
    staged: list[str]
    awaiting: str | None
    units: dict[str, dict[str, object]]
    hand: dict[str, int]
    deck: dict[str, int]
    gear: dict[str, dict[str, object]]
    runes: dict[str, dict[str, object]]
    legends: dict[str, dict[str, object]]


class Game(Protocol):
    """The game as the steps (board, replacement, combat, showdown, chain, turn, settle) see it.

    Steps change ``s`` and report through :meth:`emit`; where the rules recurse (a resolving spell's
    cleanup, a replacement effect's instructions) they call back through this protocol instead of
    importing the module above them. :class:`engine.riftbound.game.RiftboundGame` implements it.
    """

    s: State
    citations: Citations
    replacing: tuple[str, ...]  # replacement effects being carried out (they do not apply again)

    def emit(self, what: str, *keys: str) -> None: ...

    def cleanup(self, special: str | None = None) -> None:
        """Run a Cleanup (322), repeated until nothing changes; ``special``: a Special Cleanup's steps."""

    def execute(
        self, item: ChainItem, ins: Instruction, target: Card | ChainItem | None, keys: tuple[str, ...]
    ) -> None:
        """Carry out one instruction of ``item`` (a chain item, or a replacement effect's "instead")."""

    def next_answer(self) -> tuple[str, ...] | None:
        """The next replacement order given for the action being carried out, or None: ask for it."""
