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
from dataclasses import dataclass, field
from collections.abc import Collection
from typing import Protocol, Self

from engine.core import Citations, Snapshot
from engine.riftbound.effects import Instruction

PHASES = ("awaken", "beginning", "channel", "draw", "main", "ending")
BOARD_ZONES = ("base", "battlefield")
KEYWORDS = ("Action", "Reaction", "Hidden", "Ganking", "Tank", "Deathknell", "Accelerate")
TRIGGERS = ("play", "attack", "defend", "conquer", "hold", "deathknell")


@dataclass(frozen=True)
class Ability:
    """An activated ability: ``cost: effect``. Only an ``exhaust`` cost is paid; energy is not modelled."""

    effect: str
    cost: str = ""
    keywords: frozenset[str] = frozenset()

    def __deepcopy__(self, memo: dict) -> Self:  # immutable: copies of a game share their definitions
        return self

    @property
    def exhausts(self) -> bool:
        return "exhaust" in self.cost.lower() or "[e]" in self.cost.lower()


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
    type: str  # unit | spell | gear
    keywords: frozenset[str] = frozenset()
    might: int = 0
    effect: str = ""  # a spell's effect; for a unit its play effect, or its Deathknell effect
    ability: Ability | None = None
    triggers: tuple[tuple[str, str], ...] = ()  # (when, effect): play/attack/defend/conquer/hold/deathknell
    replacement: Replacement | None = None

    def __deepcopy__(self, memo: dict) -> Self:
        return self

    def trigger(self, when: str) -> str | None:
        for name, effect in self.triggers:
            if name == when:
                return effect
        return None

    def has(self, keyword: str) -> bool:
        return keyword in self.keywords


@dataclass
class Card:
    name: str  # as the scenario writes it ("Garen", "Garen#2")
    owner: str
    defn: CardDef
    zone: str = "hand"  # hand | deck | trash | base | battlefield | chain | facedown
    at: str | None = None  # the battlefield, when on one or hidden at one
    controller: str | None = None
    exhausted: bool = False
    damage: int = 0
    buffed: bool = False
    stunned: bool = False
    temp_might: int = 0  # "this turn" Might changes; expire in the Expiration Step
    designation: str | None = None  # attacker | defender
    hidden_turn: int | None = None  # the turn it was hidden on
    replacement_used: bool = False  # a "the next time" replacement effect has applied (this object)

    def __deepcopy__(self, memo: dict) -> Self:  # every field is immutable: a shallow copy is a deep one (games are copied a lot)
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
        if keyword == "Reaction" and self.zone == "facedown":
            return True
        return self.defn.has(keyword)


def might(card: Card) -> int:
    """Current Might: printed, +1 for a buff, plus this turn's changes; never below 0 (142.2.b)."""
    return max(0, card.defn.might + (1 if card.buffed else 0) + card.temp_might)


@dataclass
class Battlefield:
    name: str
    controller: str | None = None
    contested_by: str | None = None  # the player who applied Contested
    facedown: str | None = None  # key of the card hidden here

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
    step: str = "showdown"  # showdown | damage


@dataclass(frozen=True)
class Awaiting:
    """The rules wait for one player's limited choice (no one has Priority meanwhile)."""

    kind: str  # showdown | combat (which staged one begins) | assign (combat damage) | order (replacement effects)
    #            | targets (a triggered ability's targets, as it is put on the Chain)
    player: str
    options: tuple[str, ...] = ()
    amount: int = 0  # damage to assign
    reason: str = ""  # for ``order``: the citation key of the rule that makes ``player`` the one who decides
    about: str = ""  # for ``order``: the event the replacement effects would replace ("Braum would die");
    #                  for ``targets``: the chain item's label
    item: int = 0  # for ``targets``: the pending chain item's uid
    choices: tuple[tuple[str, ...], ...] = ()  # for ``targets``: the valid choices for each target, in order


@dataclass(frozen=True)
class Suspended:
    """An action interrupted where the rules wait for a player to order replacement effects (368).

    ``before`` is the state before the action; ``answers`` the orders given so far; ``shown`` how many of
    the events of carrying the action out were reported already (they are not reported again)."""

    before: "State"
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
    runes: dict[str, int | None] = field(default_factory=dict)  # None: not tracked
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

    def __deepcopy__(self, memo: dict) -> State:
        """A copy sharing nothing that changes (several times faster than a generic deep copy; a test
        checks it equals the original and shares no mutable part). ``suspended.before`` is shared: it is
        never changed, only copied again when used."""
        new = copy.copy(self)
        new.players = list(self.players)
        new.points, new.hand_unnamed, new.runes = dict(self.points), dict(self.hand_unnamed), dict(self.runes)
        new.epochs = dict(self.epochs)
        new.cards = {k: copy.copy(c) for k, c in self.cards.items()}
        new.battlefields = {k: copy.copy(b) for k, b in self.battlefields.items()}
        new.deck = {p: list(d) for p, d in self.deck.items()}
        new.scored = {p: set(k) for p, k in self.scored.items()}
        new.chain = [copy.copy(i) for i in self.chain]
        new.passed = list(self.passed)
        new.showdown = copy.copy(self.showdown)
        c = self.combat
        new.combat = c and Combat(c.at, c.attacker, c.defender, set(c.attacked), set(c.defended),
                                  {p: dict(d) for p, d in c.assigned.items()}, c.step)
        new.staged_showdowns, new.staged_combats = list(self.staged_showdowns), list(self.staged_combats)
        return new

    # --- looking things up ------------------------------------------------------------------
    def units(self) -> list[Card]:
        return [c for c in self.cards.values() if c.is_unit and c.on_board]

    def units_at(self, place: str) -> list[Card]:
        return [u for u in self.units() if (u.location or "").lower() == place.lower()]

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
        return [p for p in self.players if p != player]

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

    def execute(self, item: ChainItem, ins: Instruction, target: Card | ChainItem | None,
                keys: tuple[str, ...]) -> None:
        """Carry out one instruction of ``item`` (a chain item, or a replacement effect's "instead")."""

    def next_answer(self) -> tuple[str, ...] | None:
        """The next replacement order given for the action being carried out, or None: ask for it."""
