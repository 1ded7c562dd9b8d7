"""Cards as a judge looks them up: one :class:`Card` per game and name, its printings folded.

A card belongs to a game, not to a rules edition: it lives in ``$JUDGE_HOME/cards.db``
(:mod:`rulebook.cards.store`), apart from the books, and loading or unloading a book leaves it alone.

>>> face = Face("Fire", "{1}{R}", "Instant", "Fire deals 2 damage divided as you choose among one or two targets.")
>>> card = Card("mtg", "Fire // Ice", (face, Face("Ice", "{1}{U}", "Instant", "Tap target permanent.\\nDraw a card.")),
...             "Instant // Instant", ("Instant",), (), (), "{1}{R} // {1}{U}", (), "", ("APC",), "split", (), {})
>>> card_from_json(card_json(card)) == card
True
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass
from types import MappingProxyType
from typing import Any


@dataclass(frozen=True, slots=True)
class CardRuling:
    date: str | None  # YYYY-MM-DD
    text: str
    source: str  # "scryfall", "mtgjson", "riftbound errata", ...
    official: bool


@dataclass(frozen=True, slots=True)
class Face:
    name: str
    cost: str | None  # "{2}{R}" (Magic) / energy and power as written (Riftbound: "5 [Fury]")
    type_line: str  # "Creature — Elf Warrior", "Unit — Dragon Noxus"
    text: str  # rules text of this face, reminder text kept
    power: str | None = None
    toughness: str | None = None
    loyalty: str | None = None
    might: str | None = None


@dataclass(frozen=True, slots=True)
class Card:
    game: str  # "mtg" | "riftbound"
    name: str  # "Fire // Ice" for multi-face cards
    faces: tuple[Face, ...]
    type_line: str
    types: tuple[str, ...]  # card types: ("Creature",) / ("Unit",)
    subtypes: tuple[str, ...]
    supertypes: tuple[str, ...]
    cost: str | None
    keywords: tuple[str, ...]  # as printed: ("Flying", "Trample") / ("Accelerate", "Hidden")
    text: str  # all faces' text, faces separated by "\n//\n"
    sets: tuple[str, ...]  # set codes, newest first
    layout: str  # "normal", "split", "transform", ...
    rulings: tuple[CardRuling, ...]  # newest first
    extra: Mapping[
        str, Any
    ]  # Magic: {"colors", "mana_value"}; Riftbound: {"domains", "energy", "power", "might", "tags"}


FACE_SEPARATOR = "\n//\n"


def card_json(card: Card) -> str:
    """The card as the JSON stored in cards.db: keys sorted, so an unchanged card is the same string."""
    return json.dumps(
        {
            "game": card.game,
            "name": card.name,
            "faces": [
                [f.name, f.cost, f.type_line, f.text, f.power, f.toughness, f.loyalty, f.might] for f in card.faces
            ],
            "type_line": card.type_line,
            "types": card.types,
            "subtypes": card.subtypes,
            "supertypes": card.supertypes,
            "cost": card.cost,
            "keywords": card.keywords,
            "text": card.text,
            "sets": card.sets,
            "layout": card.layout,
            "rulings": [[r.date, r.text, r.source, r.official] for r in card.rulings],
            "extra": dict(card.extra),
        },
        ensure_ascii=False,
        sort_keys=True,
        separators=(",", ":"),
    )


def card_from_json(text: str) -> Card:
    d = json.loads(text)
    return Card(
        game=d["game"],
        name=d["name"],
        faces=tuple(Face(*f) for f in d["faces"]),
        type_line=d["type_line"],
        types=tuple(d["types"]),
        subtypes=tuple(d["subtypes"]),
        supertypes=tuple(d["supertypes"]),
        cost=d["cost"],
        keywords=tuple(d["keywords"]),
        text=d["text"],
        sets=tuple(d["sets"]),
        layout=d["layout"],
        rulings=tuple(CardRuling(*r) for r in d["rulings"]),
        extra=MappingProxyType(d["extra"]),
    )
