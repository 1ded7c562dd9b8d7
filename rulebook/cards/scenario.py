"""Scenario cards taken from the card library (``shared/spec/scenarios.md``, contract version 3).

A scenario may name a loaded card instead of defining it. :func:`resolve` turns such a scenario into
the one the engines already read: every card the library gives becomes a ``cards:`` definition (its
type, cost, power/toughness or might, keywords and text, each field the scenario writes winning), and
a state object (``units``, ``gear``, ``permanents``) named after one takes the fields it does not
write. What the engine then refuses in a field the library gave is said of the card, naming the
sentence of its text (:meth:`Resolution.locate`).

Which names are looked up (docs/scenarios.md, "Cards from the library"):

- a ``cards:`` entry that writes no ``type`` (a name alone in a list, ``{}``, or a partial definition);
  an entry that writes ``type`` is the scenario's own definition, as in contract version 2, and nothing
  is taken from the library for it, so a version-2 file means the same whatever cards are loaded;
- a name in a hand, a deck (Riftbound) or a library (Magic) that no ``cards:`` entry defines
  (``Name#2`` is a copy of ``Name``), except the names the engine defines itself (Magic's basic lands);
- a unit, gear or permanent that writes no ``type`` and whose name no ``cards:`` entry defines: it takes
  the fields it does not write. The card's text is one field: writing ``effect``, ``ability``,
  ``triggers``, ``replacement`` or ``modes`` gives the abilities in the scenario's words instead.

A name is the library's when it is a card's name, case and punctuation aside (``jinx rebel``), or the
first face of a card of several faces; a misspelt one is never taken, only suggested.

>>> bolt = Card("mtg", "Lightning Bolt", (Face("Lightning Bolt", "{R}", "Instant", "Lightning Bolt deals 3 damage "
...             "to any target."),), "Instant", ("Instant",), (), (), "{R}", (), "Lightning Bolt deals 3 damage to "
...             "any target.", ("M10",), "normal", (), {"colors": ["R"]})
>>> library = Shelf({("mtg", "lightning bolt"): bolt})
>>> r = resolve({"game": "mtg", "state": {"hand": {"Ana": ["Lightning Bolt"]}}}, library)
>>> r.data["cards"]["Lightning Bolt"]
{'type': 'Instant', 'cost': '{R}', 'color': 'R', 'effect': 'Lightning Bolt deals 3 damage to any target.'}
>>> [(c.name, c.named_at) for c in r.cards]
[('Lightning Bolt', ('state', 'hand', 'Ana', 0))]
"""

from __future__ import annotations

import copy
import difflib
import re
import sqlite3
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol

from engine.core import ScenarioError
from engine.mtg.state import BASIC_LANDS
from engine.riftbound.effect_types import DOMAIN_NAMES, DOMAINS
from engine.riftbound.effects import normalise
from rulebook.cards.lookup import find_card
from rulebook.cards.model import Card, Face
from rulebook.cards.store import CardStore, card_db_path

if TYPE_CHECKING:  # imported when a name is first looked up (CardLibrary._open)
    from rulebook.cards.store import CardStore

# The fields a library card gives, in the engines' words (docs/scenarios.md): Magic and Riftbound.
FIELDS = {
    "mtg": ("type", "cost", "power", "toughness", "loyalty", "color", "keywords", "effect", "ability"),
    "riftbound": ("type", "cost", "might", "domain", "tags", "token", "champion", "keywords", "effect"),
}
# Where a game's state names cards by name (lists by player) and objects (docs/scenarios.md): the places
# contract version 3 looks names up in. Other places (a trash, a graveyard, a legend) take a library card
# through a cards: entry.
_ZONES = {"mtg": ("hand", "library"), "riftbound": ("hand", "deck")}
_OBJECTS = {"mtg": ("permanents",), "riftbound": ("units", "gear", "battlefields")}
_PERMANENT_TYPES = ("land", "creature", "artifact", "enchantment", "planeswalker")
_RIFTBOUND_TYPES = ("unit", "spell", "gear", "legend")
_BATTLEFIELD = "battlefield"  # a Riftbound card taken only under state: battlefields (its text as effect)
_RUNE = "rune"  # a Riftbound Rune card, taken only where state: runes lists runes' domains (its domain)


def base_name(name: str) -> str:
    """``Gust#2`` -> ``Gust``: the card a copy is of."""
    return name.split("#", 1)[0].strip()


def loose(name: str) -> str:
    """A name with case and punctuation aside, as a judge may type it: ``jinx rebel`` is ``Jinx, Rebel``."""
    return " ".join(re.sub(r"[^\w]+", " ", name.lower().replace("'", "").replace("’", "")).split())


# -- where a card's text came from ---------------------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class TextSource:
    """The file a library card's text was read from, and the date that file gives it."""

    file: str | None = None  # the file's name, as loaded ("M10.json")
    path: str | None = None  # where it was loaded from
    format: str | None = None  # "mtgjson-v3", "scryfall-cards", "riftbound-gallery", "riftbound-errata", ...
    set: str | None = None  # the set of the printing whose text it is
    date: str | None = None  # YYYY-MM-DD, where the file dates the text
    dated_by: str | None = None  # "printing" (the printing's release date) or "erratum" (the erratum's date)

    def describe(self) -> str:
        """``M10.json (mtgjson-v3; M10, released 2009-07-17)``, ``errata.json (riftbound-errata; erratum of
        2025-10-28)``, ``cards.json (riftbound-gallery; OGN)``."""
        if self.file is None:
            return "the card library"
        said = [self.format] if self.format else []
        if self.dated_by == "erratum":
            said.append(f"erratum of {self.date}")
        elif self.set:
            said.append(f"{self.set}, released {self.date}" if self.date else self.set)
        return f"{self.file} ({'; '.join(said)})" if said else self.file

    def to_json(self) -> dict[str, Any]:
        return {
            "file": self.file,
            "path": self.path,
            "format": self.format,
            "set": self.set,
            "date": self.date,
            "dated_by": self.dated_by,
        }


class Library(Protocol):
    """What :func:`resolve` asks of the card library."""

    def card(self, game: str, name: str) -> Card | None: ...  # the card a scenario's name is, or None
    def suggestions(self, game: str, name: str) -> list[str]: ...  # names near a name that is none
    def has_cards(self, game: str) -> bool: ...
    def source(self, card: Card) -> TextSource: ...

    # Each card's reading in the engines' words, made once per library (see :func:`read_card`).
    readings: dict[tuple[str, str, str], Definition | Refused]


class CardLibrary:
    """The card library of ``$JUDGE_HOME`` (``cards.db``), opened only when a name is looked up, never
    created: a home without card files has no library, and :func:`resolve` then looks nothing up."""

    def __init__(self, home: Path):

        self.path = card_db_path(Path(home))
        self._store: CardStore | None = None
        self._loose: dict[str, dict[str, str]] = {}
        self._sources: dict[tuple[str, str], TextSource] = {}
        self.readings: dict[tuple[str, str, str], Definition | Refused] = {}

    def _open(self) -> CardStore | None:
        if self._store is None and self.path.exists():
            self._store = CardStore(self.path)
        return self._store

    def _names(self, game: str) -> dict[str, str]:
        """Loose name -> name, for every card of ``game`` (and the first face of a card of several)."""
        if game not in self._loose:
            store = self._open()
            names: dict[str, str] = {}
            for _, name in store.names(game) if store is not None else []:
                names.setdefault(loose(name), name)
                if " // " in name:
                    names.setdefault(loose(name.split(" // ")[0]), name)
            self._loose[game] = names
        return self._loose[game]

    def has_cards(self, game: str) -> bool:
        return bool(self._names(game))

    def card(self, game: str, name: str) -> Card | None:
        store = self._open()
        if store is None:
            return None
        found = store.card(game, name)
        if found is None:
            printed = self._names(game).get(loose(name))
            found = store.card(game, printed) if printed else None
        return found

    def suggestions(self, game: str, name: str) -> list[str]:
        store = self._open()
        if store is None or not self.has_cards(game):
            return []

        found, near = find_card(store, name, game)
        return [found.card.name] if found is not None else near[:5]

    def source(self, card: Card) -> TextSource:
        key = (card.game, card.name)
        if key not in self._sources:
            self._sources[key] = self._read_source(card)
        return self._sources[key]

    def _read_source(self, card: Card) -> TextSource:
        """The file of the printing whose text the card has (the newest, as the store folds them) or of the
        erratum that replaced it."""
        store = self._open()
        if store is None:
            return TextSource()
        try:
            if card.game == "riftbound" and len(card.faces) == 1:
                errata = store.errata(card.game, card.name)
                if errata:
                    erratum = max(errata, key=lambda e: (e.date or "", e.source, e.position))
                    if erratum.new_text == card.faces[0].text:
                        return TextSource(erratum.file, erratum.path, erratum.format, None, erratum.date, "erratum")
            printings = store.printings(card.game, card.name)
        except (sqlite3.Error, ValueError):
            return TextSource()
        if not printings:
            return TextSource()
        newest = max(printings, key=lambda p: (p.newness, p.source, p.position))
        codes = [code for code, when in newest.sets if when == newest.newness]
        dated = re.fullmatch(r"\d{4}-\d{2}-\d{2}", newest.newness or "") is not None
        return TextSource(
            newest.file,
            newest.path,
            newest.format,
            codes[0] if codes else None,
            newest.newness if dated else None,
            "printing" if dated else None,
        )


@dataclass(frozen=True, slots=True)
class Shelf:
    """A library held in memory (``{(game, lower-case name): card}``), for tests and doctests."""

    cards: dict[tuple[str, str], Card]
    sources: dict[str, TextSource] = field(default_factory=dict)
    readings: dict[tuple[str, str, str], Definition | Refused] = field(default_factory=dict, compare=False)

    def card(self, game: str, name: str) -> Card | None:
        return self.cards.get((game, name.lower())) or next(
            (c for (g, _), c in self.cards.items() if g == game and loose(c.name) == loose(name)), None
        )

    def suggestions(self, game: str, name: str) -> list[str]:

        names = [c.name for (g, _), c in self.cards.items() if g == game]
        return difflib.get_close_matches(name, names, n=3, cutoff=0.6)

    def has_cards(self, game: str) -> bool:
        return any(g == game for g, _ in self.cards)

    def source(self, card: Card) -> TextSource:
        return self.sources.get(card.name, TextSource())


# -- a library card in the engines' words ------------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class Line:
    """A line of a card's text: the keywords it gives (a keyword line), or the ability it is."""

    printed: str  # as the library has it
    keywords: tuple[str, ...] = ()  # a keyword line's keywords, as the engine reads them
    read: str = ""  # the line as given to the engine (Magic: reminder text aside)
    activated: bool = False  # Magic: ``{COST}: EFFECT``, given as the card's ``ability``


@dataclass(frozen=True, slots=True)
class Definition:
    """A library card as a ``cards:`` definition: ``fields`` in the engine's words, and the lines of its
    text they were made from (to name the sentence the engine cannot read)."""

    fields: Mapping[str, Any]
    lines: tuple[Line, ...]
    unreadable: Mapping[str, str] = field(default_factory=dict)  # field -> why the engine cannot take it
    # field -> what the card data does not say and what the field assumes (said with every explanation using it)
    assumed: Mapping[str, str] = field(default_factory=dict)


class Refused(Exception):
    """A library card the engines cannot take at all (a card of several faces, a battlefield in a hand)."""


def read_card(library: Library, card: Card) -> Definition:
    """:func:`definition` of ``card``, made once per library: the library keeps each card's reading (or its
    refusal), so the scenarios explained with one library (a bench, the server, a session of the Python API)
    read a card once, not once per scenario; the engines keep the instructions of each text the same way. A
    card loaded again with other text is another key."""
    key = (card.game, card.name, repr(card))
    made = library.readings.get(key)
    if made is None:
        try:
            made = definition(card)
        except Refused as exc:
            made = exc
        library.readings[key] = made
    if isinstance(made, Refused):
        raise made
    return made


def definition(card: Card) -> Definition:
    """The card's type, cost, stats, keywords and text as the game's engine reads a ``cards:`` entry."""
    if not card.faces:
        raise Refused(f"{card.name} has no face in the card library; define it under cards: with type:")
    if len(card.faces) == 2 and card.game == "mtg" and card.layout == "transform":
        return _transforming(card)
    if len(card.faces) == 2 and card.game == "mtg" and card.layout in ("split", "aftermath"):
        return _split(card)
    if len(card.faces) > 1:
        raise Refused(
            f"{card.name} is a card of {len(card.faces)} faces ({card.layout}), which the engine does not "
            "model; define the face you mean under cards: with type:"
        )
    face = card.faces[0]
    if card.game == "mtg" and any(_LEVEL_SYMBOL.match(line.strip()) for line in face.text.split("\n")):
        return _leveler(card, face)
    return _mtg(card, face) if card.game == "mtg" else _riftbound(card, face)


_REMINDER = re.compile(r"\s*\([^()]*\)")
# a cost's parts: mana and tap symbols, "Pay {E}{E}" (energy, 107.14), given to the engine as its symbols, and
# "Sacrifice ..." (the engine reads what it can sacrifice, and refuses the rest)
_COST_PART = r"(?:\{[^}]+\}|Pay (?:\{E\})+|Sacrifice [^,:{}]+)"
_ACTIVATED = re.compile(rf"^(?P<cost>{_COST_PART}(?:\s*,?\s*{_COST_PART})*):\s*(?P<effect>.+)$")


def _without_reminder(text: str) -> str:
    while True:
        stripped = _REMINDER.sub("", text)
        if stripped == text:
            return text.strip()
        text = stripped


def _stat(value: str | None, what: str, card: Card, fields: dict[str, Any], unreadable: dict[str, str]) -> None:
    if value is None or value == "":
        return
    if re.fullmatch(r"[+-]?\d+", value.strip()):
        fields[what] = int(value)
    else:
        fields[what] = value
        unreadable[what] = (
            f'{card.name}\'s {what} is "{value}" (it varies), which the engine does not model; give '
            f"{what}: in the scenario"
        )


def _mtg(card: Card, face: Face) -> Definition:
    keywords = [k.lower() for k in card.keywords]
    lines: list[Line] = []
    for printed in [p for p in face.text.split("\n") if p.strip()]:
        read = _without_reminder(printed)
        if not read:
            continue
        items = [i.strip() for i in re.split(r"[,;]\s*", read) if i.strip()]
        if (
            not read.endswith(".")
            and items
            and all(any(re.match(rf"{re.escape(k)}\b", i.lower()) for k in keywords) for i in items)
        ):
            lines.append(Line(printed, tuple(i[0].upper() + i[1:] for i in items), read))
        else:
            lines.append(Line(printed, (), read, bool(_ACTIVATED.match(read))))
    fields: dict[str, Any] = {"type": card.type_line}
    unreadable: dict[str, str] = {}
    if card.cost:
        fields["cost"] = card.cost
    for key, value in (("power", face.power), ("toughness", face.toughness), ("loyalty", face.loyalty)):
        if key != "loyalty" and (value or "").strip() == "*":
            fields[key] = "*"  # set by an ability of its text (208.2a), which the engine reads or refuses
            continue
        _stat(value, key, card, fields, unreadable)
    colours = card.extra.get("colors") if isinstance(card.extra, Mapping) else None
    if colours is not None:
        fields["color"] = "".join(c for c in colours if c in "WUBRG") or "colorless"
    words = [k for line in lines for k in line.keywords]
    if words:
        fields["keywords"] = words
    permanent = any(t.lower() in _PERMANENT_TYPES for t in card.types)
    first = next((line for line in lines if line.activated and permanent), None)
    m = _ACTIVATED.match(first.read) if first is not None else None
    if m:  # "{1}, {T}: ..." on the card is "{1}{T}" in the engine's words
        cost = re.sub(r"\}\s*,\s*\{", "}{", m.group("cost").replace("Pay {", "{"))
        fields["ability"] = {"cost": cost, "effect": m.group("effect")}
    effect = "\n".join(line.read for line in lines if not line.keywords and line is not first)
    if effect:
        fields["effect"] = effect
    return Definition(fields, tuple(lines), unreadable)


def _face_card(card: Card, face: Face) -> Card:
    """One face of a card of several as a card of its own (its name, type line and cost)."""
    main = face.type_line.split("\u2014")[0]
    types = tuple(t for t in card.types if t in main.split())
    return replace(card, name=face.name, faces=(face,), type_line=face.type_line, cost=face.cost, types=types)


def _transforming(card: Card) -> Definition:
    """A transforming double-faced card (712): its front face's fields, with its back face as ``back:``.
    The library keeps the colours of the whole card: the front face is the colours of its mana cost (202.2),
    the back face those of the whole card when they are the front's (else unknown: the back's colour
    indicator is not in the card data)."""
    front, back = (_mtg(_face_card(card, face), face) for face in card.faces)
    fields = {k: v for k, v in front.fields.items() if k != "color"}
    back_fields = {"name": card.faces[1].name, **{k: v for k, v in back.fields.items() if k not in ("cost", "color")}}
    unreadable = dict(front.unreadable)
    colours = card.extra.get("colors") if isinstance(card.extra, Mapping) else None
    own = {c for c in re.findall(r"\{([WUBRG])\}", card.faces[0].cost or "")}
    if colours is not None and set(colours) == own:
        back_fields["color"] = "".join(c for c in colours if c in "WUBRG") or "colorless"
    elif colours is not None:
        unreadable["back"] = (
            f"{card.name}'s back face {card.faces[1].name} has a colour the card data does not give (the card is "
            f"{''.join(colours)}, its front face {''.join(sorted(own)) or 'colorless'}); give back: in the scenario"
        )
    for why in back.unreadable.values():
        unreadable.setdefault("back", why)
    fields["back"] = back_fields
    return Definition(fields, front.lines + back.lines, unreadable)


_LEVEL_SYMBOL = re.compile(r"^LEVEL (\d+(?:-\d+|\+))$")
_STATS = re.compile(r"^(\d+)/(\d+)$")


def _leveler(card: Card, face: Face) -> Definition:
    """A leveler card (711): the text before its first level symbol as its own, and each level symbol
    (``LEVEL 1-4``) with the power/toughness box and the abilities of its striation as ``levels:``."""
    lines = face.text.split("\n")
    starts = [i for i, line in enumerate(lines) if _LEVEL_SYMBOL.match(line.strip())]
    made = _mtg(card, replace(face, text="\n".join(lines[: starts[0]])))
    fields, every = dict(made.fields), list(made.lines)
    levels = []
    for at, end in zip(starts, starts[1:] + [len(lines)]):
        body = [line for line in lines[at + 1 : end] if line.strip()]
        level: dict[str, Any] = {"level": _LEVEL_SYMBOL.match(lines[at].strip())[1]}  # type: ignore[index]
        stats = _STATS.match(body[0].strip()) if body else None
        if stats:
            level["power"], level["toughness"] = int(stats[1]), int(stats[2])
            body = body[1:]
        striation = _mtg(card, replace(face, text="\n".join(body), power=None, toughness=None))
        level |= {k: v for k, v in striation.fields.items() if k in ("keywords", "effect", "ability")}
        every += striation.lines
        levels.append(level)
    fields["levels"] = levels
    return Definition(fields, tuple(every), made.unreadable)


def _split(card: Card) -> Definition:
    """A split card (709): its two halves as ``halves:``, each with its name, type line, mana cost and text; a
    half's colours are those of its own mana cost (709.3b: only its characteristics exist on the stack)."""
    faces = [_mtg(_face_card(card, face), face) for face in card.faces]
    halves = [
        {"name": face.name, **{k: v for k, v in made.fields.items() if k != "color"}}
        for face, made in zip(card.faces, faces)
    ]
    why = next((why for made in faces for why in made.unreadable.values()), None)
    unreadable = {"halves": why} if why else {}
    return Definition({"halves": halves}, faces[0].lines + faces[1].lines, unreadable)


_KEYWORD_TOKEN = re.compile(r"\[(?P<word>[^\]]+)\]")


def _riftbound(card: Card, face: Face) -> Definition:
    kind = card.types[0].lower() if card.types else ""
    if kind == _RUNE:  # a Basic Rune: its domain is all a scenario's runes take of it
        extra = card.extra if isinstance(card.extra, Mapping) else {}
        domains = [d for d in extra.get("domains") or () if d != "Colorless"]
        return Definition({"type": kind, "domain": domains}, ())
    if kind == _BATTLEFIELD:
        text = "\n".join(p for p in face.text.split("\n") if p.strip())
        read = tuple(Line(p, (), p) for p in text.split("\n") if p)
        return Definition({"type": kind, **({"effect": text} if text else {})}, read)
    if kind not in _RIFTBOUND_TYPES:
        raise Refused(
            f"{card.name} is a {card.type_line or 'card without a type'}: not a card a scenario plays or "
            f"puts on the board ({', '.join(_RIFTBOUND_TYPES)})"
        )
    keywords = {k.lower().split()[0] for k in card.keywords}
    lines: list[Line] = []
    for printed in [p for p in face.text.split("\n") if p.strip()]:
        lines.append(Line(printed, _riftbound_keyword_line(printed, keywords), printed))
    fields: dict[str, Any] = {"type": kind}
    unreadable: dict[str, str] = {}
    assumed: dict[str, str] = {}
    extra = card.extra if isinstance(card.extra, Mapping) else {}
    _riftbound_cost(card, extra, fields, unreadable, assumed)
    if kind == "unit":
        _stat(face.might if face.might is not None else extra.get("might"), "might", card, fields, unreadable)
    domains = [d for d in extra.get("domains") or () if d != "Colorless"]
    if domains:
        fields["domain"] = domains
    if card.subtypes:
        fields["tags"] = list(card.subtypes)
    if "Token" in card.supertypes:
        fields["token"] = True
    if "Champion" in card.supertypes and kind == "unit":
        fields["champion"] = True
    words = [k for line in lines for k in line.keywords]
    if words:
        fields["keywords"] = words
    effect = "\n".join(line.read for line in lines if not line.keywords)
    if effect:
        fields["effect"] = effect
    return Definition(fields, tuple(lines), unreadable, assumed)


def _riftbound_keyword_line(printed: str, keywords: set[str]) -> tuple[str, ...]:
    """A line made only of bracketed keywords and their costs, reminder text aside (``[Equip] [Fury] (...)``
    -> ``Equip [Fury]``, ``[Assault 2]`` -> ``Assault 2``); ``()`` for any other line."""
    body = _without_reminder(printed)
    if not body or _KEYWORD_TOKEN.sub("", body).strip(" ,") != "":
        return ()
    out: list[str] = []
    for m in _KEYWORD_TOKEN.finditer(body):
        word = m.group("word").strip()
        if word.lower().split()[0] in keywords:
            out.append(word)
        elif out:
            out[-1] += f" [{word}]"  # a cost icon belongs to the keyword before it (Equip, Repeat)
        else:
            return ()
    return tuple(out)


def _riftbound_cost(
    card: Card, extra: Mapping, fields: dict[str, Any], unreadable: dict[str, str], assumed: dict[str, str]
) -> None:
    """``[5][Chaos]``: the energy, then a power icon of the card's domain per power."""
    energy, power = str(extra.get("energy") or ""), str(extra.get("power") or "")
    domains = [d for d in extra.get("domains") or () if d != "Colorless"]
    if not energy and power in ("", "0"):
        return
    fields["cost"] = card.cost
    if energy and not energy.isdigit() or power and not power.isdigit():
        unreadable["cost"] = (
            f'{card.name}\'s cost "{card.cost}" is not a number of energy and power; give cost: in the scenario'
        )
        return
    # A card of several domains: the gallery gives its domains, not the domain of each power of its cost. Each
    # power is written as one of either ("[Body/Order]", paid by either: 162.2), and every explanation says so.
    icon = "/".join(domains) if domains else "A"
    if power not in ("", "0") and len(domains) > 1:
        assumed["cost"] = (
            f"the card data gives {card.name} the domains {' and '.join(domains)}, not the domain of each power of "
            f"its cost: a power of either is accepted for each (write cost: in the scenario for the printed one)"
        )
    fields["cost"] = (f"[{int(energy)}]" if energy else "") + f"[{icon}]" * int(power or 0)


# -- resolving a scenario --------------------------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class LibraryCard:
    """A card the scenario took from the library."""

    name: str  # as the scenario names it
    card: Card
    source: TextSource
    named_at: tuple  # the key path that names it first
    written: tuple[str, ...]  # the fields the scenario writes over the library's
    # (field, sentence): what the library's data does not say of a field the scenario does not write, and what
    # the engine was given instead (a two-domain Riftbound cost), said wherever the card is
    assumed: tuple[tuple[str, str], ...] = ()

    def to_json(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "card": self.card.name,
            "game": self.card.game,
            "source": self.source.to_json(),
            "written": list(self.written),
            "assumed": [sentence for _, sentence in self.assumed],
        }


@dataclass(frozen=True, slots=True)
class _Given:
    """What the library gave at one place of the scenario the engine reads (a ``cards:`` entry, a state
    object): its fields, and the place of the scenario file to report an error at."""

    card: LibraryCard
    lines: tuple[Line, ...]
    fields: Mapping[str, Any]  # the fields the library gave here (not written by the scenario)
    at: tuple  # where the file says it: the path itself, else where the card is named


@dataclass(frozen=True, slots=True)
class Resolution:
    """The scenario as the engine reads it, and the cards the library gave it."""

    data: Mapping[str, Any]
    cards: tuple[LibraryCard, ...] = ()
    given: Mapping[tuple, _Given] = field(default_factory=dict)

    def locate(self, path: tuple, message: str) -> tuple[tuple, str]:
        """An engine's error at ``path`` of :attr:`data` as the judge should read it: at the place of the file
        that names the card, and, when the field the engine refuses came from the library, said of the card
        and the sentence of its text."""
        for prefix in sorted(self.given, key=len, reverse=True):
            if tuple(path[: len(prefix)]) != prefix:
                continue
            given, rest = self.given[prefix], tuple(path[len(prefix) :])
            at = prefix if given.at == prefix else given.at
            if rest and rest[0] in given.fields:
                return at, _refusal(given, rest, message)
            return (at + rest if at == prefix else at), message
        return tuple(path), message


def _refusal(given: _Given, rest: tuple, message: str) -> str:
    card, key = given.card, rest[0]
    said = f"{card.card.name} (from {card.source.describe()})"
    hint = f"; to use it, write its {key}: in the scenario"
    if key == "keywords":
        words = given.fields["keywords"]
        word = words[rest[1]] if len(rest) > 1 and isinstance(rest[1], int) and rest[1] < len(words) else None
        line = next((ln for ln in given.lines if word in ln.keywords), None)
        if line is not None:
            return f'{said}: cannot read "{line.printed}": {message}{hint}'
    if key == "back" and len(rest) > 1 and isinstance(given.fields.get("back"), Mapping):
        return _refusal(replace(given, fields=given.fields["back"]), rest[1:], message)  # a back face's field
    parts = given.fields.get(key)  # a split card's halves, a leveler's level symbols: a field of one of them
    if key in ("halves", "levels") and len(rest) > 2 and isinstance(parts, list) and rest[1] in range(len(parts)):
        return _refusal(replace(given, fields=parts[rest[1]]), rest[2:], message)
    if key in ("effect", "ability"):
        sentence = _sentence(given, message)
        if sentence:
            return f'{said}: cannot read "{sentence}": {message}{hint}'
        return f"{said}: cannot read its text: {message}{hint}"
    return f"{said}: cannot read its {key} {given.fields[key]!r}: {message}{hint}"


_QUOTED = re.compile(r'"([^"]+)"|\'([^\']+)\'')


def _sentence(given: _Given, message: str) -> str | None:
    """The sentence (else the line) of the card's text that holds what the engine quotes in ``message``."""
    lines = [ln for ln in given.lines if not ln.keywords]
    if not lines:
        return None
    norm = _normaliser(given.card)
    quoted = sorted((a or b for a, b in _QUOTED.findall(message)), key=len, reverse=True)
    for fragment in (norm(q) for q in quoted):
        if not fragment:
            continue
        pattern = re.compile(rf"(?<!\w){re.escape(fragment)}(?!\w)")
        for line in lines:
            sentences = [s for s in re.split(r"(?<=[.!?])\s+", line.printed) if s.strip()]
            for candidate in sentences + [line.printed]:
                if pattern.search(norm(candidate)):
                    return candidate.strip()
    return lines[0].printed.strip() if len(lines) == 1 else None


def _normaliser(card: LibraryCard) -> Callable[[str], str]:
    own = card.card.name.lower()

    def norm(text: str) -> str:
        t = text
        if card.card.game == "riftbound":
            t = normalise(t)
        t = _without_reminder(t.lower()).replace(own, "~").replace(card.name.lower(), "~")
        t = re.sub(r"[^\w~+/{}\[\] -]+", " ", t)
        return " ".join(t.split())

    return norm


def resolve(data: Mapping[str, Any], library: Library) -> Resolution:
    """The scenario ``data`` (as read from the file, shape checked) with the cards it names from ``library``
    written out for the engine. Raises :class:`engine.core.ScenarioError` (a key path and a message) for a
    name found nowhere, or a library card the engine cannot take."""
    return _Resolver(data, library).run()


class _Resolver:
    def __init__(self, data: Mapping[str, Any], library: Library):
        self.game = str(data.get("game"))
        self.data = data
        self.library = library
        self.out: dict[str, Any] | None = None  # a copy of data, made at the first change
        self.defined: set[str] = set()  # lower-case names the scenario defines itself (writes type)
        self.entries: dict[str, tuple[str, tuple, Mapping]] = {}  # lower-case name -> (name, path, what it writes)
        self.taken: dict[str, tuple[LibraryCard, Definition]] = {}  # by lower-case base name, in the order named
        self.in_cards: set[str] = set()  # taken cards the engine reads under cards: (not only a state object's)
        self.written: dict[str, set[str]] = {}  # the fields the scenario writes over each taken card's
        self.given: dict[tuple, _Given] = {}

    def run(self) -> Resolution:
        if self.game not in FIELDS:
            return Resolution(self.data)  # an unknown game: the engines' loader says so
        self.cards_section()
        state = self.data.get("state")
        state = state if isinstance(state, dict) else {}
        for zone in _ZONES[self.game]:
            for path, name in _names_by_player(state.get(zone), ("state", zone)):
                self.card_named(name, path, required=self.game == "mtg")
        for group in _OBJECTS[self.game]:
            objects = state.get(group)
            for i, obj in enumerate(objects if isinstance(objects, list) else ()):
                if isinstance(obj, dict) and _is_name(obj.get("name")):
                    self.state_object(obj, ("state", group, i), group)
        if self.game == "riftbound":
            self.rune_cards(state.get("runes"))
        legends = state.get("legends") if self.game == "riftbound" else None
        for player, value in legends.items() if isinstance(legends, dict) else ():
            named = value.get("name") if isinstance(value, dict) else value
            key = base_name(str(named)).lower() if _is_name(named) else None
            if (
                key in self.taken and key in self.entries
            ):  # the engine reads its cards: entry under the legend's own keys
                card, made = self.taken[key]
                own = value if isinstance(value, dict) else {}
                path = ("state", "legends", player)
                self.given[path] = _Given(card, made.lines, self.library_fields(key, made, own, path), path)
        if self.taken:
            self.write_cards()
        cards = tuple(
            replace(
                card,
                written=tuple(f for f in _WRITTEN_ORDER[self.game] if f in self.written[key]),
                assumed=tuple((f, why) for f, why in made.assumed.items() if f not in self.written[key]),
            )
            for key, (card, made) in self.taken.items()
        )
        return Resolution(self.data if self.out is None else self.out, cards, self.given)

    def changed(self) -> dict[str, Any]:
        if self.out is None:
            self.out = copy.deepcopy(dict(self.data))
        return self.out

    def cards_section(self) -> None:
        """``cards:`` as a list of names, or name -> definition: an entry without ``type`` is the library's."""
        cards = self.data.get("cards")
        if isinstance(cards, list):
            for i, item in enumerate(cards):
                if not _is_name(item):
                    raise ScenarioError(
                        ("cards", i),
                        "expected a card name (a list of names takes each card from "
                        f"the card library), got {_shown(item)}",
                    )
                name = str(item).strip()
                if base_name(name).lower() in self.entries:
                    raise ScenarioError(("cards", i), f'"{name}" is listed twice')
                self.entries[base_name(name).lower()] = (name, ("cards", i), {})
        elif isinstance(cards, dict):
            for key, value in cards.items():
                if value is None or (isinstance(value, dict) and not {"type", "halves"} & set(value)):
                    self.entries[base_name(str(key)).lower()] = (str(key), ("cards", key), value or {})
                else:  # the scenario's own definition (or no definition at all: the engine says so)
                    self.defined.add(base_name(str(key)).lower())
        for key, (name, path, written) in self.entries.items():
            self.take(name, path, required=True)
            self.in_cards.add(key)
            self.written[key] |= {k for k in written if k in _WRITTEN_ORDER[self.game]}

    def take(self, name: str, path: tuple, *, required: bool) -> tuple[LibraryCard, Definition] | None:
        """The library card ``name`` names (its copy ``Name#2`` too), taken once; None when there is none
        and it is not ``required``."""
        key = base_name(name).lower()
        if key in self.taken:
            return self.taken[key]
        card = self.library.card(self.game, base_name(name))
        if card is None:
            if required:
                raise ScenarioError(path, self.not_found(base_name(name)))
            return None
        try:
            made = read_card(self.library, card)
        except Refused as exc:
            raise ScenarioError(path, str(exc)) from None
        if made.fields.get("type") == _BATTLEFIELD and (len(path) < 2 or path[1] != "battlefields"):
            raise ScenarioError(
                path,
                f"{card.name} is a Battlefield: not a card a scenario plays or holds; name it under "
                "state: battlefields, where it takes its text",
            )
        if made.fields.get("type") == _RUNE and (len(path) < 2 or path[1] != "runes"):
            raise ScenarioError(
                path,
                f"{card.name} is a Rune: not a card a scenario plays or holds; name it where state: runes lists "
                f"a player's runes (runes: {{Ana: {{ready: [{card.name}]}}}})",
            )
        self.taken[key] = (LibraryCard(base_name(name), card, self.library.source(card), path, ()), made)
        self.written[key] = set()
        return self.taken[key]

    def not_found(self, name: str) -> str:
        if not self.library.has_cards(self.game):
            return (
                f'no {self.game} cards are loaded to take "{name}" from (judge load reads card files); or define '
                "it under cards: with type:"
            )
        near = self.library.suggestions(self.game, name)
        hint = f" (did you mean {_quoted(near)}?)" if near else ""
        return f'no card named "{name}" under cards: or in the {self.game} card library{hint}'

    def card_named(self, name: str, path: tuple, required: bool) -> None:
        """A name in a hand, a deck or a library: the library's card when no cards: entry defines it."""
        key = base_name(name).lower()
        if key in self.defined or key in self.entries or key in _engine_names(self.game):
            return
        if not self.library.has_cards(self.game):
            return  # nothing to look in: the engine says what is missing, as it always has
        if self.take(name, path, required=required) is not None:
            self.in_cards.add(key)

    def state_object(self, obj: dict, path: tuple, group: str) -> None:
        """A unit, gear or permanent named after a library card takes the fields it does not write."""
        key = base_name(str(obj["name"]).strip()).lower()
        if "type" in obj or key in self.defined or (key in _engine_names(self.game) and key not in self.entries):
            return
        if key not in self.entries and not self.library.has_cards(self.game):
            return
        # A permanent that writes nothing of a card needs one: the engine cannot build it otherwise.
        needed = self.game == "mtg" and not set(obj) & set(_WRITTEN_ORDER["mtg"])
        taken = self.take(str(obj["name"]), path + ("name",), required=needed)
        if taken is None:
            return
        card, made = taken
        kind = str(made.fields.get("type", "")).lower()
        if self.game == "mtg" and not set(kind.split("\u2014")[0].split()) & set(_PERMANENT_TYPES):
            raise ScenarioError(path + ("name",), f"{card.card.name} is {_a(made.fields.get('type'))}: not a permanent")
        if self.game == "riftbound" and kind != _GROUP_KINDS[group]:
            raise ScenarioError(path + ("name",), f"{card.card.name} is {_a(kind)} card, not {_a(_GROUP_KINDS[group])}")
        self.written[key] |= {k for k in obj if k in _WRITTEN_ORDER[self.game]}
        fields = self.library_fields(key, made, obj, path + ("name",))
        if group == "battlefields":  # a battlefield takes its text alone (its entry has no type, cost or might)
            fields = {k: v for k, v in fields.items() if k == "effect"}
        merged = {**{k: v for k, v in self.entries.get(key, ("", (), {}))[2].items() if k not in obj}, **fields}
        if self.game == "riftbound":
            merged.pop("type", None)  # the group says what it is
        self.changed()["state"][group][path[2]].update(merged)
        self.given[path] = _Given(card, made.lines, fields, path)

    def rune_cards(self, runes: Any) -> None:
        """``runes: {Ana: {ready: [Fury Rune]}}``: a Rune card named where a player's runes list their domains
        is a rune of its domain (a name that is a domain, ``Fury`` or ``R``, is the engine's to read)."""
        for player, value in runes.items() if isinstance(runes, dict) else ():
            for state in ("ready", "exhausted"):
                listed = value.get(state) if isinstance(value, dict) else None
                for i, name in enumerate(listed if isinstance(listed, list) else ()):
                    if not _is_name(name) or _is_domain(str(name)) or not self.library.has_cards(self.game):
                        continue
                    path = ("state", "runes", player, state, i)
                    taken = self.take(str(name), path, required=True)
                    if taken is None:
                        continue
                    card, made = taken
                    domains = made.fields.get("domain") or []
                    if made.fields.get("type") != _RUNE or len(domains) != 1:
                        raise ScenarioError(path, f"{card.card.name} is not a Rune card (a rune of one domain)")
                    self.changed()["state"]["runes"][player][state][i] = domains[0]

    def library_fields(self, key: str, made: Definition, own: Mapping, path: tuple) -> dict[str, Any]:
        """The library's fields of a card that neither its cards: entry nor ``own`` (a state object) writes;
        writing any field of the card's text (effect, ability, triggers, ...) gives the whole text. A field
        the engine cannot take (a power of ``*``) is refused here, at ``path``, unless the scenario writes it."""
        written = set(self.entries.get(key, ("", (), {}))[2]) | set(own)
        text_written = bool(written & set(_TEXT[self.game]))
        fields = {
            k: v for k, v in made.fields.items() if k not in written and not (text_written and k in _TEXT[self.game])
        }
        for k in fields:
            if k in made.unreadable:
                raise ScenarioError(path, made.unreadable[k])
        return fields

    def write_cards(self) -> None:
        """``cards:`` for the engine: the scenario's own entries as written, each library entry filled in,
        and an entry for each card named in a hand or deck that no entry defines."""
        original = self.data.get("cards")
        cards: dict[Any, Any] = {}
        for key, value in original.items() if isinstance(original, dict) else ():
            taken = self.taken.get(base_name(str(key)).lower())
            if taken is None or base_name(str(key)).lower() not in self.entries:
                cards[key] = value
        for key, (card, made) in self.taken.items():
            if key not in self.in_cards:
                continue
            name, path, written = self.entries.get(key, (card.name, card.named_at, {}))
            fields = self.library_fields(key, made, {}, path)
            cards[name] = {**fields, **written}
            self.given[("cards", name)] = _Given(card, made.lines, fields, path)
        self.changed()["cards"] = cards


# The fields the scenario may write over a library card's, as an explanation lists them; and those of its text.
_WRITTEN_ORDER = {
    "mtg": FIELDS["mtg"] + ("triggers", "modes", "mana"),
    "riftbound": FIELDS["riftbound"] + ("ability", "triggers", "replacement", "attached", "might_bonus"),
}
_TEXT = {
    "mtg": ("effect", "ability", "triggers", "modes"),
    "riftbound": ("effect", "ability", "triggers", "replacement", "attached"),
}
_GROUP_KINDS = {"units": "unit", "gear": "gear", "battlefields": _BATTLEFIELD}


def _is_domain(name: str) -> bool:
    low = name.strip().strip("[]").lower()
    return low in DOMAINS or low in {d.lower() for d in DOMAIN_NAMES} or low in ("a", "any", "c", "card")


def _a(word: Any) -> str:
    text = str(word)
    return f"{'an' if text[:1].lower() in 'aeiou' else 'a'} {text}"


def _engine_names(game: str) -> frozenset[str]:
    """The names an engine defines itself (Magic's basic lands): never looked up."""
    if game != "mtg":
        return frozenset()

    return frozenset(BASIC_LANDS)


def _quoted(names: list[str]) -> str:
    return ", ".join(f'"{n}"' for n in names)


def _is_name(value: Any) -> bool:
    return isinstance(value, (str, int, float)) and not isinstance(value, bool) and bool(str(value).strip())


def _shown(value: Any) -> str:
    return "a mapping" if isinstance(value, dict) else "a list" if isinstance(value, list) else repr(value)


def _names_by_player(value: Any, path: tuple) -> Iterator[tuple[tuple, str]]:
    """``(path, name)`` of each card named in a ``{player: [names]}`` zone (counts and odd values are the
    engine's to judge)."""
    if not isinstance(value, dict):
        return
    for player, names in value.items():
        if _is_name(names) and isinstance(names, str):
            yield (*path, player), names.strip()
        elif isinstance(names, list):
            for j, name in enumerate(names):
                if _is_name(name):
                    yield (*path, player, j), str(name).strip()
