"""What a Magic game is made of: card definitions (frozen), the objects in a game, and :class:`State`,
the whole mutable state of one game with the queries the rules ask of it (pure data: nothing here
changes the game but :meth:`State.oid`, which numbers new objects).

Definitions (what a card *is*) are frozen and shared by copies of a game; the objects in a game (a
permanent that taps, takes damage, changes zone) are small mutable records owned by one
:class:`State`, which :meth:`engine.core.Game.copy` deep-copies to answer ``ask:``.

>>> parse_cost("{1}{R}"), parse_cost("2GG"), parse_cost("{T}"), parse_cost(None)
((('*', 1), ('R', 1)), (('*', 2), ('G', 2)), (('T', 1),), ())
>>> BASIC_LANDS["mountain"]
'R'
>>> base_name("Grizzly Bears#2")
'Grizzly Bears'
"""

from __future__ import annotations

import copy
import re
from collections.abc import Iterable
from dataclasses import dataclass, field
from functools import cache
from typing import Protocol, Self, TypeVar

from engine.core import Citations, Event, ScenarioError, Snapshot, suggest
from engine.mtg.conditions import condition
from engine.mtg.counts import Count, counted, defined_stat, read_count
from engine.mtg.effects import ReplacementDef, Static, amount, enchants, parse_effect, protections, quality_matches
from engine.mtg.keywords import COLOUR_WORDS
from engine.mtg.levels import Level
from engine.mtg.soulbond import partner

PHASES = (
    "untap",
    "upkeep",
    "draw",
    "main1",
    "beginning_of_combat",
    "declare_attackers",
    "declare_blockers",
    "combat_damage",
    "end_of_combat",
    "main2",
    "end",
    "cleanup",
)
SECOND_DAMAGE = "combat_damage#2"
# Where each step sits in the turn; the second combat damage step sits between its neighbours.
ORDER = {name: float(i) for i, name in enumerate(PHASES)} | {SECOND_DAMAGE: PHASES.index("combat_damage") + 0.5}
# Mana empties as each phase ends under the 2008 rules (300.3), so steps are grouped into phases.
PHASE_OF = {
    "untap": "beginning",
    "upkeep": "beginning",
    "draw": "beginning",
    "main1": "precombat main",
    "beginning_of_combat": "combat",
    "declare_attackers": "combat",
    "declare_blockers": "combat",
    "combat_damage": "combat",
    SECOND_DAMAGE: "combat",
    "end_of_combat": "combat",
    "main2": "postcombat main",
    "end": "ending",
    "cleanup": "ending",
}
TITLE = {
    "untap": "untap step",
    "upkeep": "upkeep step",
    "draw": "draw step",
    "main1": "precombat main phase",
    "beginning_of_combat": "beginning of combat step",
    "declare_attackers": "declare attackers step",
    "declare_blockers": "declare blockers step",
    "combat_damage": "combat damage step",
    SECOND_DAMAGE: "second combat damage step",
    "end_of_combat": "end of combat step",
    "main2": "postcombat main phase",
    "end": "end step",
    "cleanup": "cleanup step",
}
MAIN_PHASES = ("main1", "main2")
CARD_TYPES = ("land", "creature", "artifact", "enchantment", "instant", "sorcery", "planeswalker")
SUPERTYPES = ("legendary", "basic", "snow", "world")
PERMANENT_TYPES = ("land", "creature", "artifact", "enchantment", "planeswalker")
# Subtypes with rules the engine follows (others, such as creature types, are read and kept as names).
SUBTYPES_WITH_RULES = ("aura", "equipment", "vehicle")
# Types the engine refuses, naming them (their rules are not modelled).
NOT_MODELLED_TYPES = (
    "battle",
    "saga",
    "dungeon",
    "role",
    "fortification",
    "tribal",
    "kindred",
    "class",
    "case",
    "room",
    "attraction",
    "contraption",
)
BASIC_LANDS = {"plains": "W", "island": "U", "swamp": "B", "mountain": "R", "forest": "G"}
COLOURS = "WUBRGC"
HAND_SIZE = 7

_COST_TOKEN = re.compile(r"\{([^}]*)\}|(\d+)|([WUBRGCTX])", re.I)


Named = TypeVar("Named", "Card", "Permanent", "StackItem")


def base_name(name: str) -> str:
    """A duplicate is written ``Name#2``; its card is ``Name``."""
    return name.split("#", 1)[0].strip()


def parse_cost(cost: object) -> tuple[tuple[str, int], ...]:
    """A cost as sorted ``(symbol, amount)`` pairs: colours, ``*`` generic, ``T`` the tap symbol, ``X``.

    Raises ``ValueError`` for anything else.
    """
    if cost is None or cost == "" or cost == 0:
        return ()
    text = str(cost).replace(" ", "")
    amounts: dict[str, int] = {}
    pos = 0
    for match in _COST_TOKEN.finditer(text):
        if match.start() != pos:
            raise ValueError(f"cannot read cost {cost!r}")
        pos = match.end()
        token = next(g for g in match.groups() if g is not None).upper()  # ``{}`` gives an empty symbol
        if token.isdigit():
            amounts["*"] = amounts.get("*", 0) + int(token)
        elif len(token) == 1 and (token in COLOURS or token in "TXE"):  # E: an energy counter (107.14)
            amounts[token] = amounts.get(token, 0) + 1
        else:
            raise ValueError(f"cannot read cost symbol {{{token}}} in {cost!r}")
    if pos != len(text):
        raise ValueError(f"cannot read cost {cost!r}")
    return tuple(sorted(amounts.items()))


def show_cost(cost: tuple[tuple[str, int], ...]) -> str:
    parts = (
        [f"{{{sym}}}" * n for sym, n in cost if sym == "X"]
        + [f"{{{n}}}" for sym, n in cost if sym == "*" and n]
        + [f"{{{sym}}}" * n for sym, n in cost if sym not in "*X"]
    )
    return "".join(parts) or "{0}"


def with_x(cost: tuple[tuple[str, int], ...], x: int) -> tuple[tuple[str, int], ...]:
    """The cost to pay once X is announced (107.3a): each {X} is X generic mana."""
    amounts = dict(cost)
    xs = amounts.pop("X", 0)
    if xs and x:
        amounts["*"] = amounts.get("*", 0) + xs * x
    return tuple(sorted(amounts.items()))


class _Shared:
    """Immutable: shared, not copied, when the core deep-copies a game (ask:, undo)."""

    def __deepcopy__(self, memo: dict) -> Self:
        return self


@dataclass(frozen=True)
class TriggerDef(_Shared):
    """A triggered ability: ``triggers: [{when, effect, name, targeting}]`` or the words of the card's text
    (``When ~ enters, draw a card``)."""

    when: str  # a phase name (controller's turn), "each PHASE", "enters", "attacks", "blocks", "dies"
    effect: str
    name: str = ""
    targets: tuple[str, ...] = ()
    words: bool = False  # read from the card's text (603.1)


@dataclass(frozen=True)
class AbilityDef(_Shared):
    """An activated ability: ``ability: {cost, effect, keywords}``, or an Equipment's equip ability."""

    cost: tuple[tuple[str, int], ...]
    effect: str
    keywords: frozenset[str] = frozenset()
    equip: bool = False  # "Equip [cost]": attach to target creature you control, as a sorcery (702.6a)
    once: bool = False  # "Activate this ability only once each turn": a restriction on its use (602.5b)
    sacrifice_self: bool = False  # "Sacrifice this creature" is part of its cost (a token's "Add {C}")
    sorcery: bool = False  # activated only as a sorcery (level up, 702.87a)
    # "Sacrifice a creature" / "another creature" / "an artifact" / "a Goblin" as part of its cost: the kind
    # of permanent its controller sacrifices, chosen as it is activated ("P activates X sacrificing Y")
    sacrifice: str = ""

    @property
    def is_mana(self) -> bool:
        return self.effect.strip().lower().startswith("add ")

    @property
    def choice(self) -> str:
        """The colours a mana ability adds one of, its controller choosing as it is activated (``{T}: Add {W}
        or {U}``, ``one mana of any color``), or ""."""
        return next((i.extra[0] for i in parse_effect(self.effect) if i.verb == "add" and i.extra), "")


def in_group(perm: Permanent, words: tuple[str, ...]) -> bool:
    """Whether ``perm`` has each word of a lord's group (engine.mtg.effects.rule_static): a colour ("white",
    "nonblack", "colorless"), a state ("attacking", "tapped", "token"), a card type or supertype, or a
    creature type ("sliver")."""
    for word in words:
        if word in COLOUR_WORDS:
            ok = COLOUR_WORDS[word] in perm.card.colours
        elif word.startswith("non") and word[3:] in COLOUR_WORDS:
            ok = COLOUR_WORDS[word[3:]] not in perm.card.colours
        elif word == "colorless":
            ok = not perm.card.colours
        elif word in ("token", "nontoken"):
            ok = perm.token == (word == "token")
        elif word == "attacking":
            ok = perm.attacking
        elif word == "blocking":
            ok = perm.blocking is not None
        elif word in ("tapped", "untapped"):
            ok = perm.tapped == (word == "tapped")
        elif word in CARD_TYPES or word in SUPERTYPES:
            ok = perm.is_a(word) or word in perm.card.supertypes
        else:
            ok = word in perm.card.subtypes
        if not ok:
            return False
    return True


@cache
def _granted_ability(cost: str, effect: str, sacrifice: bool = False) -> AbilityDef:
    return AbilityDef(parse_cost(cost), effect, sacrifice_self=sacrifice)


@cache
def _granted_trigger(when: str, effect: str) -> TriggerDef:
    return TriggerDef(when, effect, words=True)


@dataclass(frozen=True)
class CardDef(_Shared):
    name: str
    types: frozenset[str]
    supertypes: frozenset[str] = frozenset()
    cost: tuple[tuple[str, int], ...] = ()
    power: int | None = None
    toughness: int | None = None
    keywords: frozenset[str] = frozenset()
    effect: str = ""  # an instant's or sorcery's effect; "" for a permanent (its text is read into the fields below)
    ability: AbilityDef | None = None
    triggers: tuple[TriggerDef, ...] = ()
    mana: str = ""  # the colour a land taps for ("" for basic lands: their type decides)
    subtypes: frozenset[str] = frozenset()
    colours: frozenset[str] = frozenset()
    statics: tuple[Static, ...] = ()
    replacements: tuple[ReplacementDef, ...] = ()
    prevent_all: bool = False
    modes: tuple[str, ...] = ()  # a modal spell's modes (700.2)
    loyalty: int | None = None  # a planeswalker's printed loyalty
    uncounterable: bool = False  # "this spell can't be countered" (113.6g)
    sacrifice: str = ""  # "As an additional cost to cast this spell, sacrifice a creature" (118.8): its kind
    cda: tuple[tuple[str, Count], ...] = ()  # "~'s power and toughness are each equal to ..." (604.3)
    back: CardDef | None = None  # a transforming double-faced card's back face (712.8e)
    halves: tuple[CardDef, ...] = ()  # a split card's two halves, each cast on its own (709.3)
    levels: tuple[Level, ...] = ()  # a leveler card's level symbols (711.2)
    leveler: CardDef | None = None  # a leveler permanent's printed card, when a level symbol applies (711.2a)
    exert: bool = False  # "You may exert ~ as it attacks": an optional cost to attack (701.43d, 508.1g)
    choose: str = ""  # "As ~ enters the battlefield, choose a color | a creature type" (614.12a): what is chosen
    choices: tuple[tuple[str, CardDef], ...] = ()  # each value it may take, and the card as it is with it

    def chosen(self, value: str) -> CardDef | None:
        """The definition of the permanent with ``value`` chosen as it entered, or None when it is not one."""
        return next((d for v, d in self.choices if v == value.strip().lower()), None)

    @property
    def is_permanent(self) -> bool:
        return bool(self.types & set(PERMANENT_TYPES))

    @property
    def is_aura(self) -> bool:
        return "enchantment" in self.types and ("aura" in self.subtypes or enchants(self.keywords) is not None)

    @property
    def is_equipment(self) -> bool:
        return "artifact" in self.types and ("equipment" in self.subtypes or amount(self.keywords, "equip") is not None)


@dataclass(frozen=True)
class Card(_Shared):
    """A card in a hand, library, graveyard or exile (or an unnamed library card: ``name`` ``"a card"``);
    ``token``: a token that left the battlefield, which ceases to exist at the next check (704.5d)."""

    oid: int
    name: str
    owner: str
    token: bool = False


@dataclass
class Permanent:
    oid: int
    name: str
    owner: str
    controller: str
    card: CardDef
    tapped: bool = False
    sick: bool = False
    damage: int = 0
    boost: tuple[int, int] = (0, 0)  # "until end of turn" +N/+N, ends in cleanup (514.2)
    attacking: bool = False
    blocking: int | None = None  # oid of the attacker it blocks
    blocked: bool = False
    blockers: list[int] = field(default_factory=list)  # in the order declared
    counters: dict[str, int] = field(default_factory=dict)
    token: bool = False
    attached_to: int | None = None  # the permanent an Aura or Equipment is attached to
    granted: tuple[str, ...] = ()  # keywords gained "until end of turn"
    regeneration: int = 0  # regeneration shields this turn (701.19a): each replaces one destruction
    restricted: tuple[tuple[str, str], ...] = ()  # "can't block this turn": (what, the spell or ability's name)
    deathtouched: bool = False  # dealt damage by a source with deathtouch since the last check (704.5h)
    spared: bool = False  # indestructible with lethal damage: said once
    since: int = 0  # when it came onto the battlefield (timestamp order)
    designations: tuple[str, ...] = ()  # "renowned" (702.112b): kept until it leaves the battlefield
    activated_turn: int = 0  # the turn its "only once each turn" ability was last activated (602.5b)
    front: tuple[CardDef, str] | None = None  # back face up: its front face and the name it had (712.8e)
    turned: int = 0  # when it last transformed (701.27f)
    paired: int | None = None  # the creature soulbond paired it with (702.95b; soulbond.partner: if it still is)
    became: tuple[str, ...] = ()  # card types it has until end of turn (a crewed Vehicle: artifact creature)

    def copy(self) -> Permanent:
        new = copy.copy(self)
        new.blockers = list(self.blockers)
        new.counters = dict(self.counters)
        return new

    def is_a(self, card_type: str) -> bool:
        return card_type in self.card.types or card_type in self.became

    @property
    def mana_colour(self) -> str:
        if self.card.mana:
            return self.card.mana
        return BASIC_LANDS.get(base_name(self.name).lower(), "C")

    @property
    def mana_colours(self) -> str:
        """The colours of mana the land can be tapped for, one of them each time (to pay a cost)."""
        ability = self.card.ability
        if ability is not None and ability.is_mana and dict(ability.cost).get("T"):
            choice = ability.choice
            if choice:
                return choice
            made = "".join(i.mana for i in parse_effect(ability.effect) if i.verb == "add")
            if len(made) == 1:
                return made
        return self.mana_colour


@dataclass(frozen=True)
class Source(_Shared):
    """A source of damage, a spell or an ability's source as the rules look at it (its last known
    information once it is gone): what protection, hexproof, deathtouch and lifelink ask about."""

    name: str
    controller: str
    colours: frozenset[str] = frozenset()
    types: frozenset[str] = frozenset()
    keywords: frozenset[str] = frozenset()
    oid: int = 0

    def has(self, keyword: str) -> bool:
        return keyword in self.keywords


@dataclass(frozen=True)
class Target(_Shared):
    kind: str  # "player", "permanent", "spell", "ability", "card" / "token" (in a graveyard: a trigger's subject)
    ref: str | int  # a player's name, or the oid of a permanent / stack object
    name: str


@dataclass(frozen=True)
class Assignment(_Shared):
    """Combat damage one creature assigns to one recipient, with the citation keys of why it goes there."""

    source: Source
    target: Target
    amount: int
    keys: tuple[str, ...]


@dataclass(frozen=True)
class StackItem(_Shared):
    oid: int
    name: str
    controller: str
    kind: str  # "spell", "ability", "trigger", "combat damage"
    card: Card | None = None
    definition: CardDef | None = None
    effect: str = ""
    targets: tuple[Target, ...] = ()
    source: str = ""
    damage: tuple[Assignment, ...] = ()  # combat damage as assigned
    src: Source | None = None  # the spell itself, or the ability's source (last known information)
    x: int = 0  # the value announced for X (107.3a)
    mode: str = ""  # the mode chosen (700.2a)
    subject: Target | None = None  # what "it" / "that creature" / "that spell" of a trigger is
    flashback: bool = False  # cast from a graveyard for its flashback cost: exiled as it leaves the stack
    chosen: tuple[str, ...] = ()  # the keywords its caster chose to use as it was cast ("bestow", "kicker")
    cast_from: str = ""  # the zone it was cast from not a hand: "exile" (rebound), "graveyard" (aftermath)
    about: tuple[Target, int, int] | None = None  # a keyword trigger's "that creature" (PendingTrigger.about)


@dataclass(frozen=True)
class Said(_Shared):
    """A resolved spell or ability whose effect still applies ("can't block this turn"), by its name."""

    name: str


@dataclass(frozen=True)
class PendingTrigger(_Shared):
    name: str
    controller: str
    source: str
    effect: str
    targets: tuple[Target, ...] = ()
    src: Source | None = None
    subject: Target | None = None
    # "that creature" of a keyword's trigger on another creature (evolve): it, and its power and toughness
    # as the event happened (its last known information, 702.100c, once it is gone)
    about: tuple[Target, int, int] | None = None


@dataclass(frozen=True)
class Control(_Shared):
    """A control-changing effect of a resolved spell or ability (layer 2, 613.1b): ``player`` controls the
    permanent ``oid`` from ``since`` (its timestamp) until end of turn (``eot``) or for good."""

    oid: int
    player: str
    since: int
    source: str
    eot: bool = False


@dataclass(frozen=True)
class Shield(_Shared):
    """A prevention effect from a resolved spell or ability (615.7): the next ``amount`` damage (None: all
    damage) that would be dealt to ``target`` this turn."""

    target: Target
    amount: int | None
    source: str


@dataclass(frozen=True)
class ModeWait(_Shared):
    """A modal spell being cast, its mode not yet announced (601.2b)."""

    player: str
    card: Card
    x: int


@dataclass(frozen=True)
class Paused(_Shared):
    """A spell or ability stopped while resolving, for a player's choice: to pay (118.12a), where the cards
    scried go (701.22a), a card chosen from a revealed hand."""

    item: StackItem
    index: int  # the instruction that asked
    legal: tuple[bool, ...]  # its targets' legality, as checked when it began to resolve
    payer: str
    amount: int
    victim: int  # the stack object countered unless the payer pays
    whose: str = ""  # a card chosen from a revealed hand: the hand's owner
    offered: str = ""  # a card (``victim``: its id) its controller may cast now, and how: "free" (rebound)
    mana: str = ""  # "you may pay {W/B}": the mana asked for (each symbol's colours, "W/B"), not a counter's cost


# The rules changes the engine reads (data/editions/mtg.yaml names them, with their dates; a test holds the
# two lists equal): behaviour that differs between editions is decided by one of these, never by a table.
CHANGES = frozenset(
    {
        "combat_damage_on_stack",
        "mana_burn",
        "deathtouch_triggered",
        "deathtouch_lethal_assignment",
        "lifelink_triggered",
        "removed_from_game",
        "damage_assignment_order",
        "dies",
        "hexproof",
        "undying",
        "legend_rule_per_player",
        "indestructible",
        "menace",
        "renown",
        "intimidate",
        "infect",
        "prowess",
        "devoid",
        "skulk",
        "totem_armor",
        "living_weapon",
        "improvise",
        "bestow",
        "dash",
        "unleash",
        "rebound",
        "overload",
        "evolve",
        "scavenge",
        "extort",
        "surge",
        "embalm",
        "eternalize",
        "exploit",
        "bolster",
        "monstrosity",
        "investigate",
        "search",
        "support",
        "ingest",
        "fabricate",
        "explore",
        "battle_cry",
        "afflict",
        "any_target",
        "token_named_token",
        "ward",
        "transform",
        "ascend",
        "crew",
        "energy",
        "exert",
        "anchor_words",
        "aftermath",
        "fuse",
        "level_up",
        "soulbond",
    }
)


class Consulted(set):
    """The rules changes a game's play has read, shared by the game's copies (an ask's reading counts): a
    record of what the game depended on, not part of the game."""

    def __deepcopy__(self, memo: dict) -> Consulted:
        return self


class Definitions(dict):
    """Lower-case base name -> :class:`CardDef`. Fixed once the scenario is read: copies share it."""

    def __deepcopy__(self, memo: dict) -> Definitions:
        return self


@dataclass
class State:
    """One two-player game of Magic under one edition's rules (``edition``), and its queries."""

    edition: str
    rules: frozenset[str] = frozenset()  # the rules changes (data/editions/mtg.yaml) in force at the game's date
    # the changes this game's play has depended on so far, shared by its copies (an ask counts): what an
    # explanation under another edition may read differently (tests/test_editions_sweep.py)
    consulted: Consulted = field(default_factory=lambda: Consulted(), compare=False, repr=False)
    players: list[str] = field(default_factory=list)
    life: dict[str, int] = field(default_factory=dict)
    hand: dict[str, list[Card]] = field(default_factory=dict)
    library: dict[str, list[Card]] = field(default_factory=dict)
    graveyard: dict[str, list[Card]] = field(default_factory=dict)
    exile: dict[str, list[Card]] = field(default_factory=dict)
    battlefield: list[Permanent] = field(default_factory=list)
    stack: list[StackItem] = field(default_factory=list)
    cards: Definitions = field(default_factory=Definitions)
    step: str = "main1"
    turn_player: str = ""
    turn_number: int = 2  # 1: the starting player's first turn (103.8a)
    priority: str | None = None
    passes: int = 0  # passes in succession since the last action
    # a decision the rules wait for, nobody having priority meanwhile: "attackers", "blockers", "damage"
    # (the active player assigns combat damage), "triggers" (a player orders them), "aim" (a player
    # chooses a waiting triggered ability's targets, 603.3d), "mode", "pay", "scry" (where the cards scried go)
    pending: str | None = None
    deciding: str | None = None  # who decides a pending damage assignment, trigger order or payment
    awaiting: tuple[int, ...] = ()  # damage: the attackers still to assign, first first
    assigned: tuple[Assignment, ...] = ()  # damage: the assignments announced so far
    resume: tuple[str, str, tuple[str, ...]] | None = None  # who receives priority once the decision is made
    casting: ModeWait | None = None
    paused: Paused | None = None
    first_strike_step: bool = False
    # the attackers and blockers that had first strike or double strike as the first combat damage step
    # began, and those of them that had double strike (510.4: who deals damage in the second step)
    struck_first: frozenset[int] = frozenset()
    struck_double: frozenset[int] = frozenset()
    left_combat: list[Permanent] = field(default_factory=list)  # attackers and blockers that left this combat
    lands_played: dict[str, int] = field(default_factory=dict)
    pool: dict[str, dict[str, int]] = field(default_factory=dict)
    pending_triggers: list[PendingTrigger] = field(default_factory=list)
    trigger_order: dict[str, list[str]] = field(default_factory=dict)
    drew_from_empty: set[str] = field(default_factory=set)
    poison: dict[str, int] = field(default_factory=dict)
    energy: dict[str, int] = field(default_factory=dict)  # each player's energy counters (107.14, 122.1)
    loose_tokens: bool = False  # a token left the battlefield: 704.5d looks for it
    shields: list[Shield] = field(default_factory=list)
    controls: list[Control] = field(default_factory=list)  # control-changing effects of spells and abilities
    # cards exiled "until ~ leaves the battlefield" (610.3): (the permanent ~, the card in exile, its owner)
    exiled_until: list[tuple[int, int, str]] = field(default_factory=list)
    # permanents that don't untap during their controller's next untap step -> the spell or ability that said so
    skip_untap: dict[int, str] = field(default_factory=dict)
    # the controller each permanent a control-changing effect applies to would have without any (613.1b)
    own_control: dict[int, str] = field(default_factory=dict)
    fog: bool = False  # "prevent all combat damage that would be dealt this turn"
    lost: set[str] = field(default_factory=set)
    winner: str | None = None
    costs_ignore: bool = False
    # Players whose costs are checked: those the scenario gave lands (or mana) to. A player given none pays
    # nothing (the contract: "a scenario that gives no lands for a player does not check that player's costs").
    paying: frozenset[str] = frozenset()
    next_oid: int = 1
    # spells each player cast this turn and last turn, (player, count) pairs: what "if no spells were cast
    # last turn" asks (engine.mtg.faces)
    spells_cast: tuple[tuple[tuple[str, int], ...], tuple[tuple[str, int], ...]] = ((), ())
    blessed: frozenset[str] = frozenset()  # the players with the city's blessing (702.131c)
    happened: frozenset[str] = frozenset()  # what happened this turn that conditions ask (engine.mtg.conditions)
    damaged: frozenset[str] = frozenset()  # the players dealt damage this turn (bloodthirst, 702.54a)
    paid: bool = False  # the last "you may pay" was paid: what the "if you do" after it asks (extort)
    # cards exiled by rebound (702.88a): (the card's id, its owner), cast at its owner's next upkeep
    rebounds: tuple[tuple[int, str], ...] = ()
    # creatures dealt damage this turn by a spell or ability that says "If a creature dealt damage this way would
    # die this turn, exile it instead" (614.1a): (the creature's id, the spell or ability), until the turn ends
    exile_if_dies: tuple[tuple[int, str], ...] = ()

    def __deepcopy__(self, memo: dict) -> State:
        """A copy sharing nothing that changes (several times faster than a generic deep copy; a test
        checks it equals the original and shares no mutable part). Definitions are shared."""
        new = copy.copy(self)
        new.players = list(self.players)
        new.life, new.lands_played, new.poison = dict(self.life), dict(self.lands_played), dict(self.poison)
        new.energy = dict(self.energy)
        new.hand = {p: list(c) for p, c in self.hand.items()}
        new.library = {p: list(c) for p, c in self.library.items()}
        new.graveyard = {p: list(c) for p, c in self.graveyard.items()}
        new.exile = {p: list(c) for p, c in self.exile.items()}
        new.battlefield = [p.copy() for p in self.battlefield]
        new.left_combat = [p.copy() for p in self.left_combat]
        new.stack = list(self.stack)
        new.pool = {p: dict(m) for p, m in self.pool.items()}
        new.pending_triggers = list(self.pending_triggers)
        new.shields = list(self.shields)
        new.controls, new.own_control = list(self.controls), dict(self.own_control)
        new.exiled_until, new.skip_untap = list(self.exiled_until), dict(self.skip_untap)
        new.trigger_order = {p: list(n) for p, n in self.trigger_order.items()}
        new.drew_from_empty, new.lost = set(self.drew_from_empty), set(self.lost)
        return new

    def follows(self, change: str) -> bool:
        """Whether the rules of this game's date follow ``change`` (a name of data/editions/mtg.yaml, such
        as ``combat_damage_on_stack``): the rules applied are decided by date, never by table."""
        if change not in CHANGES:
            raise KeyError(f"the Magic engine knows no rules change {change!r}")
        self.consulted.add(change)
        return change in self.rules

    @property
    def over(self) -> bool:
        return bool(self.lost)

    @property
    def phase(self) -> str:
        return self.step

    def oid(self) -> int:
        """A number for a new object."""
        self.next_oid += 1
        return self.next_oid

    def other(self, player: str) -> str:
        return next(p for p in self.players if p != player)

    @property
    def defending(self) -> str:
        return self.other(self.turn_player)

    def apnap(self) -> list[str]:
        i = self.players.index(self.turn_player)
        return self.players[i:] + self.players[:i]

    def definition(self, name: str) -> CardDef | None:
        return self.cards.get(base_name(name).lower())

    def permanent(self, oid: int) -> Permanent | None:
        return next((p for p in self.battlefield if p.oid == oid), None)

    def on_stack(self, oid: int) -> StackItem | None:
        return next((s for s in self.stack if s.oid == oid), None)

    # -- characteristics with the effects that change them (613) ----------------------------------
    def statics_for(self, perm: Permanent) -> list[tuple[Permanent, Static]]:
        """The static abilities of other permanents that apply to ``perm``: Auras and Equipment attached
        to it, and "creatures you control get ..." of its controller's permanents."""
        out = []
        for other in self.battlefield:
            for st in other.card.statics:
                if st.condition and not condition(st.condition).holds(self, other.controller, other):
                    continue  # "as long as ...": it applies only while that is true (611.3a)
                if st.scope == "self":
                    if other is perm:
                        out.append((other, st))
                elif st.scope == "attached":
                    if other.attached_to == perm.oid:
                        out.append((other, st))
                elif st.scope == "paired":  # it and the creature it is paired with (702.95b)
                    mate = partner(self, other)
                    if mate is not None and perm in (other, mate):
                        out.append((other, st))
                elif st.scope == "player":
                    continue  # a rule of its controller's game ("You have no maximum hand size"): rules_of
                elif (
                    perm.is_a("creature")
                    and (
                        other.controller == perm.controller
                        if st.whose == "you"
                        else st.whose == "any" or other.controller != perm.controller
                    )
                    and (st.scope == "yours" or other is not perm)
                    and (not st.group or in_group(perm, st.group))
                ):
                    out.append((other, st))
        return out

    def rules_of(self, player: str) -> list[tuple[Permanent, Static]]:
        """The static abilities of ``player``'s permanents that change the rules of their game (613.11)."""
        return [
            (p, st)
            for p in self.battlefield
            if p.controller == player
            for st in p.card.statics
            if st.scope == "player" and (not st.condition or condition(st.condition).holds(self, player, p))
        ]

    def keywords(self, perm: Permanent) -> frozenset[str]:
        extra = [kw for _, st in self.statics_for(perm) for kw in st.keywords]
        if not extra and not perm.granted:
            return perm.card.keywords
        return perm.card.keywords | frozenset(perm.granted) | frozenset(extra)

    def has(self, perm: Permanent, keyword: str) -> bool:
        return keyword in self.keywords(perm)

    def power(self, perm: Permanent) -> int:
        bonus = sum(st.power * self.times(other, st) for other, st in self.statics_for(perm))
        defined = defined_stat(self, perm, "power") if perm.card.cda else None  # layer 7a first (613.4a)
        return (
            self.set_base(perm, 0, perm.card.power or 0 if defined is None else defined)
            + perm.boost[0]
            + perm.counters.get("+1/+1", 0)
            - perm.counters.get("-1/-1", 0)
            + bonus
        )

    def toughness(self, perm: Permanent) -> int:
        bonus = sum(st.toughness * self.times(other, st) for other, st in self.statics_for(perm))
        defined = defined_stat(self, perm, "toughness") if perm.card.cda else None  # layer 7a first (613.4a)
        return (
            self.set_base(perm, 1, perm.card.toughness or 0 if defined is None else defined)
            + perm.boost[1]
            + perm.counters.get("+1/+1", 0)
            - perm.counters.get("-1/-1", 0)
            + bonus
        )

    def cant(self, perm: Permanent, what: str) -> Permanent | Said | None:
        """The permanent whose static ability says ``perm`` can't ``what`` (attack / block), the spell or
        ability whose effect says so this turn, or None."""
        for said, by in perm.restricted:
            if what in said.split(" or "):
                return Said(by)
        for other, st in self.statics_for(perm):
            if st.cant and what in st.cant.split(" or "):
                return other
        return None

    def activated(self, perm: Permanent) -> list[AbilityDef]:
        """``perm``'s activated abilities: its own, then those the static abilities of the Auras and
        Equipment attached to it give it (613.1f), in timestamp order."""
        own = [perm.card.ability] if perm.card.ability is not None else []
        return own + [_granted_ability(*granted) for _, st in self.statics_for(perm) for granted in st.grants]

    def triggers_of(self, perm: Permanent) -> tuple[TriggerDef, ...]:
        """``perm``'s triggered abilities: its own, then those Auras and Equipment attached to it give it
        (613.1f), "~" in them the permanent itself."""
        granted = [_granted_trigger(*t) for _, st in self.statics_for(perm) for t in st.granted_triggers]
        return perm.card.triggers + tuple(granted) if granted else perm.card.triggers

    def times(self, source: Permanent, st: Static) -> int:
        """How many times a static ability's +N/+N applies: once, or "for each Forest you control" (its
        count, for the controller of ``source``)."""
        return counted(self, source.controller, read_count(st.per)) if st.per else 1  # type: ignore[arg-type]

    def set_base(self, perm: Permanent, which: int, value: int) -> int:
        """``perm``'s base power (``which`` 0) or toughness (1) after layer 7b: "Enchanted creature has base
        power and toughness 0/2" sets it, the latest such effect winning (613.4b, timestamp order)."""
        said = [(other.since, st.base) for other, st in self.statics_for(perm) if st.base]
        return max(said)[1][which] if said else value

    def keeps_tapped(self, perm: Permanent) -> Permanent | None:
        """The permanent whose static ability says ``perm`` doesn't untap during its controller's untap step
        (502.3), or None."""
        return next((other for other, st in self.statics_for(perm) if st.no_untap), None)

    def forbids_activation(self, perm: Permanent) -> Permanent | None:
        """The permanent whose static ability says ``perm``'s activated abilities can't be activated, or None."""
        return next((other for other, st in self.statics_for(perm) if st.no_activate), None)

    def must(self, perm: Permanent, what: str) -> Permanent | None:
        """The permanent whose static ability says ``perm`` ``what``s (attacks) each combat if able, or None."""
        return next((other for other, st in self.statics_for(perm) if st.must == what), None)

    def enchantable(self, host: Permanent, kind: str, controller: str) -> bool:
        """Can an Aura of ``controller`` with "enchant ``kind``" enchant ``host`` (303.4a, 702.5a)?"""
        if kind == "creature you control":
            return host.is_a("creature") and host.controller == controller
        if kind == "creature an opponent controls":
            return host.is_a("creature") and host.controller != controller
        if kind == "nonland permanent":
            return not host.is_a("land")
        words = kind.split()
        said = [w for w in words[:-1] if w != "or"]
        if (
            words[-1] == "creature"
            and said
            and all(w.removeprefix("non") in COLOUR_WORDS or w in ("tapped", "untapped") for w in said)
        ):
            # a state or colours: "tapped creature", "red or green creature", "nonblack creature"
            if not host.is_a("creature"):
                return False
            if said[0] in ("tapped", "untapped"):
                return host.tapped == (said[0] == "tapped")
            colours = host.card.colours
            return any(
                (COLOUR_WORDS[w[3:]] not in colours) if w.startswith("non") else COLOUR_WORDS[w] in colours
                for w in said
            )
        if kind.startswith("creature with "):  # "creature with power 3 or less"
            _, _, stat, n, _, bound = words
            value = self.power(host) if stat == "power" else self.toughness(host)
            return host.is_a("creature") and (value >= int(n) if bound == "greater" else value <= int(n))
        return kind == "permanent" or any(host.is_a(k) for k in kind.split(" or "))

    def protections(self, perm: Permanent) -> tuple[str, ...]:
        return protections(self.keywords(perm))

    def protected_from(self, perm: Permanent, source: Source, keeping: Permanent | None = None) -> str | None:
        """The quality of ``source`` that ``perm`` has protection from (702.16a), or None; with ``keeping``,
        not counting the protection the static ability of ``keeping`` gives that says "This effect doesn't
        remove ~" (Black Ward)."""
        qualities = self.protections(perm)
        if keeping is not None and any(st.keeps_source for st in keeping.card.statics):
            extra = [
                kw for o, st in self.statics_for(perm) if not (o is keeping and st.keeps_source) for kw in st.keywords
            ]
            qualities = protections(perm.card.keywords | frozenset(perm.granted) | frozenset(extra))
        for quality in qualities:
            if quality_matches(quality, source.colours, source.types):
                return quality
        return None

    def source_of(self, perm: Permanent) -> Source:
        return Source(perm.name, perm.controller, perm.card.colours, perm.card.types, self.keywords(perm), perm.oid)

    def attachments(self, perm: Permanent) -> list[Permanent]:
        return [p for p in self.battlefield if p.attached_to == perm.oid]

    # -- names -----------------------------------------------------------------------------------
    def player_named(self, name: str) -> str:
        for p in self.players:
            if p.lower() == name.lower():
                return p
        raise ScenarioError((), f'no player named "{name}"{suggest(name, self.players)}')

    def all_names(self) -> list[str]:
        names = [p.name for p in self.battlefield] + [s.name for s in self.stack]
        for zone in (self.hand, self.library, self.graveyard, self.exile):
            for cards in zone.values():
                names += [c.name for c in cards if c.name != "a card"]
        return names

    @staticmethod
    def match(name: str, candidates: Iterable[Named]) -> Named | None:
        """Exact (case-insensitive) name first, then a duplicate written without its ``#n``."""
        low = name.lower()
        for c in candidates:
            if c.name.lower() == low:
                return c
        if "#" not in low:
            for c in candidates:
                if c.name.lower().split("#")[0] == low:
                    return c
        return None

    def find_permanent(self, name: str) -> Permanent | None:
        return self.match(name, self.battlefield)

    def where(self, name: str) -> str | None:
        """A description of where an object named ``name`` is, or None when there is none."""
        if self.match(name, self.battlefield):
            return "on the battlefield"
        if self.match(name, self.stack):
            return "on the stack"
        for zone, label in (
            (self.hand, "hand"),
            (self.graveyard, "graveyard"),
            (self.library, "library"),
            (self.exile, "exile"),
        ):
            for owner, cards in zone.items():
                if self.match(name, cards):
                    return f"in {owner}'s {label}" if label != "exile" else "in exile"
        return None

    def find_target(self, name: str, on_stack: bool = True) -> Target | None:
        """The player, permanent or (``on_stack``) spell or ability a scenario names as a target."""
        for p in self.players:
            if p.lower() == name.lower():
                return Target("player", p, p)
        perm = self.find_permanent(name)
        if perm is not None:
            return Target("permanent", perm.oid, perm.name)
        item = self.match(name, self.stack) if on_stack else None
        if item is not None:
            return Target("spell" if item.kind == "spell" else "ability", item.oid, item.name)
        return None

    def unknown(self, name: str, what: str = "object") -> ScenarioError:
        return ScenarioError((), f'no {what} named "{name}"{suggest(name, self.all_names() + self.players)}')


class MagicSnapshot(Snapshot, total=False):
    """The snapshot of a Magic game: the shared keys and these (docs/json.md lists them all)."""

    tapped: list[str]
    damage: dict[str, int]
    hand: dict[str, list[str]]
    library: dict[str, int]
    graveyard: dict[str, list[str]]
    mana_pool: dict[str, dict[str, int]]
    lands_played: dict[str, int]
    attacking: list[str]
    blocking: dict[str, str]
    pending: str | None
    counters: dict[str, dict[str, int]]
    attached: dict[str, str]
    tokens: list[str]
    poison: dict[str, int]
    energy: dict[str, int]
    awaiting: str


class Game(Protocol):
    """The game as the steps (board, combat, stack, turn, settle) see it.

    Steps change ``s`` and report through :meth:`emit`; where the rules recurse (a player would receive
    priority: state-based actions and triggers first, 117.5) they call back through this protocol
    instead of importing the module above them. :class:`engine.mtg.game.MagicGame` implements it.
    """

    s: State
    citations: Citations
    events: list[Event]

    def emit(self, what: str, *keys: str) -> None: ...

    def receive_priority(self, player: str, what: str, *keys: str) -> None:
        """``player`` would receive priority: state-based actions and triggers first (117.5), then they do."""

    def settle(self) -> None:
        """State-based actions until none apply, then waiting triggers onto the stack (117.5, 704.3)."""

    def decide_by_default(self) -> None:
        """A ``moves to`` passes a decision nobody made (a damage assignment, a trigger order): the engine's way."""
