"""The keyword abilities the engine models (702): one entry each in :data:`KEYWORDS`, saying how a judge
writes it (its parameter), the rules that say what it does (citation keys), the rules change it came
with (``since``: a change of data/editions/mtg.yaml; a scenario under an earlier edition that names it is
refused) and its rule hooks: who cannot block a creature that has it (:class:`Evasion`), how damage from
a source that has it is dealt (``damage``), the triggered ability it stands for (:class:`KeywordTrigger`),
or that it makes its object colourless (``colourless``). A new keyword is one entry (and its citation
keys in each table of data/citations/). The hooks of the first keywords (flying, first strike, haste,
hexproof, ...) live where their rules are applied (legality, combat, board); their entries say which
keys those places cite.

Keywords are read into one normal form each, a lower-case string: ``flying``, ``protection from red``,
``ward 2``, ``equip 1``, ``enchant creature``, ``swampwalk``, ``cycling {2}``. Anything else is refused with
a message naming it (the engine does not pretend to model a keyword it does not know).

>>> read_keyword("Protection from Red")
('protection from red',)
>>> read_keyword("protection from white and from blue")
('protection from white', 'protection from blue')
>>> read_keyword("Ward {2}"), read_keyword("Equip 1"), read_keyword("Enchant creature")
(('ward 2',), ('equip 1',), ('enchant creature',))
>>> read_keyword("Swampwalk"), read_keyword("Cycling {1}{U}"), entry("forestwalk").name
(('swampwalk',), ('cycling {1}{U}',), 'landwalk')
>>> try:
...     read_keyword("Bushido 2")
... except KeywordError as no:
...     str(no).split(";")[0]
'keyword "Bushido 2" is not modelled'
>>> {"devoid", "hexproof", "indestructible"} <= {k for k in DATED_KEYWORDS if entry(k).keys == (f"keyword.{k}",)}
True
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from engine.core import suggest


# The hooks are handed the game's state and its permanents (engine.mtg.state, which imports this module
# through effects: they are named here by what the hooks use of them).
class Permanent(Protocol):
    @property
    def name(self) -> str: ...
    @property
    def controller(self) -> str: ...
    @property
    def card(self) -> Any: ...
    def is_a(self, card_type: str) -> bool: ...


class State(Protocol):
    @property
    def battlefield(self) -> Sequence[Any]: ...
    def power(self, perm: Any) -> int: ...


COLOUR_WORDS = {"white": "W", "blue": "U", "black": "B", "red": "R", "green": "G"}
COLOUR_NAMES = {v: k for k, v in COLOUR_WORDS.items()}
# Protection from a card type applies to sources of that type (702.16a); "everything" to all (702.16j).
TYPE_QUALITIES = {
    "creatures": "creature",
    "artifacts": "artifact",
    "enchantments": "enchantment",
    "instants": "instant",
    "sorceries": "sorcery",
    "planeswalkers": "planeswalker",
    "lands": "land",
}
QUALITIES = tuple(COLOUR_WORDS) + tuple(TYPE_QUALITIES) + ("everything", "multicolored", "monocolored", "colorless")
ENCHANTABLE = ("creature", "permanent", "artifact", "enchantment", "land", "planeswalker", "creature you control")
LAND_TYPES = ("plains", "island", "swamp", "mountain", "forest")  # the basic land types (205.3i)


class KeywordError(ValueError):
    pass


# -- rule hooks ------------------------------------------------------------------------------------------------
class Evasion:
    """An evasion ability (509.1b): why a blocker cannot block a creature that has the keyword."""

    def stops(self, s: State, attacker: Permanent, blocker: Permanent, keyword: str) -> str | None:
        raise NotImplementedError


@dataclass(frozen=True, slots=True)
class ExceptBy(Evasion):
    """Blocked only by artifact creatures and/or creatures of a colour (fear: black; intimidate: a colour
    the attacker has)."""

    colour: str = ""  # "" : a colour the attacker has (intimidate)

    def stops(self, s: State, attacker: Permanent, blocker: Permanent, keyword: str) -> str | None:
        if blocker.is_a("artifact"):
            return None
        colours = frozenset(self.colour) if self.colour else attacker.card.colours
        if blocker.card.colours & colours:
            return None
        said = COLOUR_NAMES[self.colour] if self.colour else "of a colour it has"
        return (
            f"{attacker.name} has {keyword}: only artifact creatures and creatures {said} can block it, and "
            f"{blocker.name} is neither"
        )


@dataclass(frozen=True, slots=True)
class NotByGreaterPower(Evasion):
    """Skulk: not blocked by creatures with greater power (702.118b)."""

    def stops(self, s: State, attacker: Permanent, blocker: Permanent, keyword: str) -> str | None:
        mine, theirs = s.power(attacker), s.power(blocker)
        if theirs > mine:
            return f"{attacker.name} has {keyword} and {blocker.name}'s power ({theirs}) is greater than its ({mine})"
        return None


@dataclass(frozen=True, slots=True)
class Landwalk(Evasion):
    """Unblockable while the defending player controls a land of the type (702.14c)."""

    def stops(self, s: State, attacker: Permanent, blocker: Permanent, keyword: str) -> str | None:
        kind = keyword[: -len("walk")]
        for land in s.battlefield:
            if land.controller == blocker.controller and land.is_a("land") and kind in land_types(land):
                return f"{attacker.name} has {keyword} and {blocker.controller} controls {land.name}, a {kind.title()}"
        return None


def land_types(perm: Permanent) -> frozenset[str]:
    """A land's land types: its subtypes, and a basic land's own (a scenario's ``Swamp``)."""
    name = perm.name.split("#", 1)[0].strip().lower()
    return perm.card.subtypes | ({name} if name in LAND_TYPES else frozenset())


@dataclass(frozen=True, slots=True)
class KeywordTrigger:
    """A keyword that stands for a triggered ability (603): the event it triggers on and its effect, in the
    engine's effect words; ``subject``: what ``~``/``it`` is as it resolves (``self``: the permanent with
    the keyword; ``event``: the creature the event is about)."""

    event: str  # "cast noncreature" (its controller casts a noncreature spell), "attacks alone", ...
    effect: str  # {n}: the keyword's number (renown 2)
    subject: str = "self"
    own: bool = False  # the event is about the permanent itself (it deals combat damage to a player)
    unless: str = ""  # an intervening "if" (603.4): it does not trigger when the permanent has this designation
    # an intervening "if" comparing the event's creature with the permanent (603.4): "greater" (evolve: its
    # power or toughness is greater than the permanent's); the event's creature is the trigger's "that creature"
    compare: str = ""


@dataclass(frozen=True, slots=True)
class PaysCost:
    """A keyword that lets objects other than mana pay part of its spell's total cost (601.2h): each
    ``kind`` the caster controls, untapped, tapped (convoke, improvise), or each card of their graveyard
    exiled (delve), pays for one generic mana, or (``coloured``) for one mana of a colour it has."""

    zone: str  # "battlefield": an untapped permanent of ``kind`` she controls is tapped; "graveyard": a card exiled
    kind: str = ""  # "creature", "artifact" (on the battlefield)
    coloured: bool = False  # it may pay one mana of a colour it has instead of generic mana (convoke)


# -- the table ---------------------------------------------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class Keyword:
    name: str  # the normal form (the head of a parameterised keyword: "ward", "landwalk")
    keys: tuple[str, ...]  # the citation keys of the rules that say what it does
    parameter: str = ""  # "", "number", "cost", "quality", "enchantable", "land type"
    since: str = ""  # the rules change (data/editions/mtg.yaml) it came with; "" : in every edition modelled
    evasion: Evasion | None = None
    trigger: KeywordTrigger | None = None
    damage: str = ""  # "counters" (damage to a creature as -1/-1 counters), "infect" (and to a player as poison)
    colourless: bool = False  # a characteristic-defining ability: the object is colourless
    written: str = ""  # how a judge writes it, when not its name ("ward {N}")
    pays: PaysCost | None = None  # it lets other things than mana pay its spell's cost (convoke, delve)
    # A choice its spell's caster makes, said after the card's name in the cast sentence ("P casts CARD
    # bestowed"), and the cost it brings: "alternative" (paid rather than its mana cost, 118.9), "additional"
    # (118.8), "" (none).
    chosen: str = ""
    paid: str = ""
    cant_block_with: str = ""  # a kind of counter: the permanent can't block while it has one on it (unleash)


KEYWORDS: dict[str, Keyword] = {
    k.name: k
    for k in (
        Keyword("deathtouch", ("keyword.deathtouch",)),
        Keyword("defender", ("combat.defender",)),
        Keyword("double strike", ("combat.double_strike",)),
        Keyword("first strike", ("combat.first_strike",)),
        Keyword("flash", ("cast.flash",)),
        Keyword("flying", ("keyword.flying",)),
        Keyword("haste", ("combat.haste",)),
        Keyword("hexproof", ("keyword.hexproof",), since="hexproof"),
        Keyword("indestructible", ("keyword.indestructible",), since="indestructible"),
        Keyword("lifelink", ("keyword.lifelink",)),
        Keyword("menace", ("keyword.menace",), since="menace"),
        Keyword("reach", ("keyword.reach",)),
        Keyword("shroud", ("keyword.shroud",)),
        Keyword("trample", ("combat.trample",)),
        Keyword("vigilance", ("combat.vigilance",)),
        Keyword("persist", ("keyword.persist",)),
        Keyword("undying", ("keyword.undying",), since="undying"),
        Keyword("fear", ("keyword.fear",), evasion=ExceptBy("B")),
        Keyword("intimidate", ("keyword.intimidate",), since="intimidate", evasion=ExceptBy()),
        Keyword("skulk", ("keyword.skulk",), since="skulk", evasion=NotByGreaterPower()),
        # a permanent's: its controller gets the city's blessing (engine.mtg.conditions.bless); an instant's or
        # sorcery's is refused by the builder (a spell ability, 702.131a, not modelled)
        Keyword("ascend", ("keyword.ascend",), since="ascend"),
        # an activated ability of a Vehicle, activated with "P crews VEHICLE with C[, C2]" (engine.mtg.vehicles)
        Keyword("crew", ("keyword.crew",), "number", since="crew", written="crew N"),
        Keyword("landwalk", ("keyword.landwalk",), "land type", evasion=Landwalk(), written="swampwalk"),
        Keyword("wither", ("keyword.wither",), damage="counters"),
        Keyword("infect", ("keyword.infect",), since="infect", damage="infect"),
        Keyword("devoid", ("keyword.devoid",), since="devoid", colourless=True),
        # on an Aura: "If enchanted permanent would be destroyed, instead remove all damage marked on it and
        # destroy this Aura" (702.89a; board.armoured applies it; "umbra armor" since 2023, the same ability)
        Keyword("totem armor", ("keyword.totem_armor",), since="totem_armor"),
        Keyword(
            "living weapon",
            ("keyword.living_weapon",),
            since="living_weapon",
            trigger=KeywordTrigger(
                "enters", "create a 0/0 black Phyrexian Germ creature token, then attach ~ to it", own=True
            ),
        ),
        Keyword(
            "prowess",
            ("keyword.prowess",),
            since="prowess",
            trigger=KeywordTrigger("cast noncreature", "~ gets +1/+1 until end of turn"),
        ),
        Keyword(
            "exalted",
            ("keyword.exalted",),
            trigger=KeywordTrigger("attacks alone", "it gets +1/+1 until end of turn", "event"),
        ),
        Keyword(
            "renown",
            ("keyword.renown",),
            "number",
            since="renown",
            trigger=KeywordTrigger(
                "combat damage to a player",
                "if ~ isn't renowned, put {n} +1/+1 counters on ~ and ~ becomes renowned",
                own=True,
                unless="renowned",
            ),
            written="renown N",
        ),
        Keyword(
            "evolve",
            ("keyword.evolve",),
            since="evolve",
            trigger=KeywordTrigger(
                "enters",
                "if that creature's power or toughness is greater than ~'s, put a +1/+1 counter on ~",
                compare="greater",
            ),
        ),
        Keyword(
            "fabricate",
            ("keyword.fabricate",),
            "number",
            since="fabricate",
            trigger=KeywordTrigger("enters", "fabricate {n}", own=True),
            written="fabricate N",
        ),
        Keyword(
            "ingest",
            ("keyword.ingest",),
            since="ingest",
            trigger=KeywordTrigger(
                "combat damage to a player", "that player exiles the top card of their library", own=True
            ),
        ),
        Keyword(
            "exploit",
            ("keyword.exploit",),
            since="exploit",
            trigger=KeywordTrigger("enters", "you may sacrifice a creature", own=True),
        ),
        Keyword(
            "extort",
            ("keyword.extort",),
            since="extort",
            trigger=KeywordTrigger(
                "cast", "you may pay {{W/B}}. If you do, each opponent loses 1 life and you gain that much life"
            ),
        ),
        Keyword(
            "battle cry",
            ("keyword.battle_cry",),
            since="battle_cry",
            trigger=KeywordTrigger("attacks", "each other attacking creature gets +1/+0 until end of turn", own=True),
        ),
        Keyword(
            "afflict",
            ("keyword.afflict",),
            "number",
            since="afflict",
            trigger=KeywordTrigger("becomes blocked", "defending player loses {n} life", own=True),
            written="afflict N",
        ),
        Keyword("convoke", ("keyword.convoke",), pays=PaysCost("battlefield", "creature", coloured=True)),
        Keyword("improvise", ("keyword.improvise",), since="improvise", pays=PaysCost("battlefield", "artifact")),
        Keyword("delve", ("keyword.delve",), pays=PaysCost("graveyard")),
        Keyword(
            "bestow",
            ("keyword.bestow",),
            "cost",
            since="bestow",
            written="bestow {N}{W}",
            chosen="bestowed",
            paid="alternative",
        ),
        Keyword(
            "dash", ("keyword.dash",), "cost", since="dash", written="dash {N}{R}", chosen="dashed", paid="alternative"
        ),
        Keyword(
            "overload",
            ("keyword.overload",),
            "cost",
            since="overload",
            written="overload {N}{R}",
            chosen="overloaded",
            paid="alternative",
        ),
        Keyword(
            "surge",
            ("keyword.surge",),
            "cost",
            since="surge",
            written="surge {N}{R}",
            chosen="surged",
            paid="alternative",
        ),
        Keyword("rebound", ("keyword.rebound",), since="rebound"),
        Keyword("aftermath", ("keyword.aftermath",), since="aftermath"),  # a split card's half (702.127a)
        Keyword("fuse", ("keyword.fuse",), since="fuse", chosen="fused"),  # both halves of a split card (702.102a)
        Keyword("level up", ("keyword.level_up",), "cost", since="level_up", written="level up {N}"),
        Keyword(  # two triggered abilities (702.95a): itself entering, or another creature she controls
            "soulbond",
            ("keyword.soulbond",),
            since="soulbond",
            trigger=KeywordTrigger(
                "enters", "you may pair ~ with another unpaired creature you control", compare="soulbond"
            ),
        ),
        Keyword("scavenge", ("keyword.scavenge",), "cost", since="scavenge", written="scavenge {N}{G}"),
        Keyword("embalm", ("keyword.embalm",), "cost", since="embalm", written="embalm {N}{W}"),
        Keyword("eternalize", ("keyword.eternalize",), "cost", since="eternalize", written="eternalize {N}{B}"),
        Keyword("bloodthirst", ("keyword.bloodthirst",), "number", written="bloodthirst N"),
        Keyword("madness", ("keyword.madness",), "cost", written="madness {N}{R}"),
        Keyword("kicker", ("keyword.kicker",), "cost", written="kicker {N}", chosen="kicked", paid="additional"),
        Keyword("unleash", ("keyword.unleash",), since="unleash", chosen="unleashed", cant_block_with="+1/+1"),
        Keyword("cycling", ("keyword.cycling",), "cost", written="cycling {N}"),
        Keyword("flashback", ("keyword.flashback",), "cost", written="flashback {N}{R}"),
        Keyword("protection", ("keyword.protection_target",), "quality", written="protection from QUALITY"),
        Keyword("ward", ("keyword.ward",), "number", since="ward", written="ward {N}"),
        Keyword("equip", ("keyword.equip",), "number", written="equip {N}"),
        Keyword("enchant", ("keyword.enchant",), "enchantable", written="enchant creature|permanent|..."),
    )
}
KNOWN = tuple(k.written or k.name for k in KEYWORDS.values())
RENAMED = {"umbra armor": "totem armor"}  # a keyword's later name (702.89b) -> its entry's
SIMPLE = tuple(k.name for k in KEYWORDS.values() if not k.parameter)
# Keywords that came later than some editions (each a rules change of data/editions/mtg.yaml, with its
# date). A scenario explained under an edition before one came that gives it is refused, naming it; the 2008
# citation table names no rule for their keys (see its header).
DATED_KEYWORDS = frozenset(k.name for k in KEYWORDS.values() if k.since)

_NUMBER = re.compile(r"^\{?(\d{1,3})\}?$")
_COST = re.compile(r"^(?:\{(?:\d{1,2}|[wubrgc])\})+$")


def _fail(text: str, why: str = "") -> KeywordError:
    word = " ".join(str(text).split())
    hint = suggest(word.lower(), list(SIMPLE) + ["protection from", "ward", "equip", "enchant creature"])
    return KeywordError(f'keyword "{word}" is not modelled{why}{hint}; known: {", ".join(KNOWN)}')


def _protection(raw: str, rest: str) -> tuple[str, ...]:
    out = []
    for part in re.split(r",? and from |, from ", rest):
        quality = part.strip()
        if quality.startswith("all "):
            quality = quality[4:]
        if quality not in QUALITIES:
            raise _fail(raw, f" (protection from {', '.join(QUALITIES)})")
        out.append(f"protection from {quality}")
    return tuple(out)


def _number(raw: str, word: str, rest: str) -> tuple[str, ...]:
    m = _NUMBER.match(rest)
    if not m:
        said = f"{word} {{N}}: a mana cost of N generic mana" if word in ("ward", "equip") else f"{word} N: a number"
        raise _fail(raw, f" (write {said})")
    return (f"{word} {int(m.group(1))}",)


def _cost(raw: str, word: str, rest: str) -> tuple[str, ...]:
    cost = rest.replace(" ", "")
    if cost.isdigit():
        cost = f"{{{cost}}}"
    if not _COST.match(cost):
        raise _fail(raw, f" (write {word} {{N}} or {word} {{1}}{{U}}: a mana cost)")
    return (f"{word} {cost.upper()}",)


_ENCHANT_TYPES = ("creature", "artifact", "enchantment", "land", "planeswalker")
_COLOURED = re.compile(r"^((?:non)?(?:white|blue|black|red|green)(?: or (?:white|blue|black|red|green))*) creature$")
_ENCHANT_STAT = re.compile(r"^creature with (power|toughness) (\d{1,2}) or (greater|less)$")


def enchant_kind(rest: str) -> str | None:
    """The normal form of what an Aura may enchant (702.5a), read in parts, or None: one of ENCHANTABLE,
    types joined by "or" (``artifact or creature``, ``creature, land, or planeswalker``), a creature with
    a state or colour (``tapped creature``, ``red or green creature``, ``nonblack creature``), a number
    (``creature with power 3 or less``), ``nonland permanent``, a creature you don't control.

    >>> enchant_kind("creature, land, or planeswalker"), enchant_kind("red or green creature")
    ('creature or land or planeswalker', 'red or green creature')
    """
    rest = " ".join(rest.lower().split())
    if rest in ENCHANTABLE or rest in ("nonland permanent", "tapped creature", "untapped creature"):
        return rest
    if rest in ("creature you don't control", "creature an opponent controls"):
        return "creature an opponent controls"
    if _COLOURED.match(rest) or _ENCHANT_STAT.match(rest):
        return rest
    parts = [p for p in re.split(r",\s*(?:or\s+)?|\s+or\s+", rest) if p]
    if len(parts) > 1 and all(p in _ENCHANT_TYPES for p in parts):
        return " or ".join(parts)
    return None


def _enchant(raw: str, word: str, rest: str) -> tuple[str, ...]:
    kind = enchant_kind(rest)
    if kind is None:
        raise _fail(raw, f" (enchant {' | '.join(ENCHANTABLE)} | TYPE or TYPE | tapped creature | ...)")
    return (f"enchant {kind}",)


_PARAMETERS: dict[str, Callable[[str, str, str], tuple[str, ...]]] = {
    "number": _number,
    "cost": _cost,
    "enchantable": _enchant,
    "quality": lambda raw, word, rest: _protection(raw, rest.removeprefix("from ")),
}


def read_keyword(text: object) -> tuple[str, ...]:
    """The normal form(s) of one keyword as written (``Protection from red and from white`` is two)."""
    raw = " ".join(str(text).replace("\u2014", " ").split())
    low = raw.lower().rstrip(".")
    low = RENAMED.get(low, low)
    found = KEYWORDS.get(low)
    if found is not None and not found.parameter:
        return (low,)
    if low.endswith("walk") and low[: -len("walk")] in LAND_TYPES:
        return (low,)
    for k in KEYWORDS.values():
        if k.parameter in _PARAMETERS and (low == k.name or low.startswith(k.name + " ")):
            return _PARAMETERS[k.parameter](raw, k.name, low[len(k.name) :].strip())
    raise _fail(raw)


def entry(keyword: str) -> Keyword:
    """The table's entry for a keyword in its normal form (``ward 2`` -> ward, ``swampwalk`` -> landwalk)."""
    if keyword in KEYWORDS:
        return KEYWORDS[keyword]
    if keyword.endswith("walk") and keyword[: -len("walk")] in LAND_TYPES:
        return KEYWORDS["landwalk"]
    if keyword.split()[0] in KEYWORDS:
        return KEYWORDS[keyword.split()[0]]
    return next(k for k in KEYWORDS.values() if keyword.startswith(k.name + " "))  # a name of two words: level up


def entries(keywords: frozenset[str]) -> list[tuple[str, Keyword]]:
    """Each keyword with its entry, in a stable order."""
    return [(k, entry(k)) for k in sorted(keywords)]


def check_edition(keyword: str, edition: str, rules: frozenset[str], consulted: set[str] | None = None) -> str | None:
    """Why ``keyword`` cannot be used under ``edition``, whose rules changes in force are ``rules``
    (None: it can); a keyword that came with a change is added to ``consulted``."""
    since = entry(keyword).since
    if not since:
        return None
    if consulted is not None:
        consulted.add(since)
    if since not in rules:
        return (
            f'keyword "{keyword}" is not in the {edition} Comprehensive Rules'
            + (" (a glossary term there, not a numbered rule)" if since == "indestructible" else "")
            + ": explain this scenario under a later edition"
        )
    return None


def amount(keywords: frozenset[str], word: str) -> int | None:
    """The N of ``ward N`` / ``equip N`` among ``keywords``, or None."""
    for k in keywords:
        if k.startswith(word + " ") and k.split()[1].isdigit():
            return int(k.split()[1])
    return None


def cost_of(keywords: frozenset[str], word: str) -> str | None:
    """The cost of ``cycling {1}{U}`` among ``keywords`` (``{1}{U}``), or None."""
    return next((k[len(word) + 1 :] for k in keywords if k.startswith(word + " {")), None)


def protections(keywords: frozenset[str]) -> tuple[str, ...]:
    return tuple(sorted(k[len("protection from ") :] for k in keywords if k.startswith("protection from ")))


def enchants(keywords: frozenset[str]) -> str | None:
    return next((k[len("enchant ") :] for k in keywords if k.startswith("enchant ")), None)


def quality_matches(quality: str, colours: frozenset[str], types: frozenset[str]) -> bool:
    """Does a source of these colours and card types have the stated quality (702.16a)?"""
    if quality == "everything":
        return True
    if quality in COLOUR_WORDS:
        return COLOUR_WORDS[quality] in colours
    if quality in TYPE_QUALITIES:
        return TYPE_QUALITIES[quality] in types
    if quality == "multicolored":
        return len(colours) > 1
    if quality == "monocolored":
        return len(colours) == 1
    if quality == "colorless":
        return not colours
    return False
