"""Numbers a card's text counts, read in parts, and the characteristic-defining abilities that use them.

A count is "the number of SELECTOR": what is counted (permanents of a type or subtype, or cards of a type
in a zone), whose ("you control", "your graveyard", "all graveyards", ...), and a multiplier ("twice");
or a player's own number ("your life total", "the number of cards in your hand").

>>> read_count("the number of creatures you control")
Count(zone='battlefield', whose='you', kinds=('creature',), times=1, exclude='')
>>> read_count("twice the number of non-Wall creatures you control")
Count(zone='battlefield', whose='you', kinds=('creature',), times=2, exclude='wall')
>>> read_count("the number of instant and sorcery cards in your graveyard")
Count(zone='graveyard', whose='you', kinds=('instant', 'sorcery'), times=1, exclude='')
>>> read_count("the number of Forests you control").kinds
('forest',)
>>> read_count("the number of differently named lands you control") is None
True

A creature whose power or toughness is ``*`` has a characteristic-defining ability that sets it (208.2a,
604.3): ``~'s power and toughness are each equal to COUNT``, ``~'s power is equal to COUNT``.

>>> rest, cda = characteristic_defining("Flying\\n~'s power and toughness are each equal to the number of cards in your hand.")
>>> rest, cda[0][0], cda[0][1].zone
('Flying', 'power and toughness', 'hand')
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # the state is only read here, never built
    from engine.mtg.state import Permanent, State

_CARD_TYPES = ("land", "creature", "artifact", "enchantment", "instant", "sorcery", "planeswalker")
_BASIC_TYPES = ("plains", "island", "swamp", "mountain", "forest")
_PLURALS = {"elves": "elf", "dwarves": "dwarf", "wolves": "wolf", "werewolves": "werewolf", "plains": "plains"}
_ZONES = {
    "your graveyard": ("graveyard", "you"),
    "all graveyards": ("graveyard", "all"),
    "your opponents' graveyards": ("graveyard", "opponents"),
    "your opponent's graveyard": ("graveyard", "opponents"),
    "your hand": ("hand", "you"),
}
_WHOSE = {"you control": "you", "your opponents control": "opponents", "on the battlefield": "all"}


@dataclass(frozen=True)
class Count:
    zone: str  # "battlefield", "graveyard", "hand", "life"
    whose: str  # "you" (the controller of the ability), "opponents", "all"
    kinds: tuple[str, ...] = ()  # a card type, a basic land type or a subtype; () : every card
    times: int = 1
    exclude: str = ""  # "non-Wall": a subtype left out

    def said(self) -> str:
        """The count in words, for a step of the explanation."""
        if self.zone == "life":
            return "your life total"
        kinds = " and ".join(self.kinds) or "card"
        where = {"you": "you control", "opponents": "your opponents control", "all": "on the battlefield"}[self.whose]
        if self.zone != "battlefield":
            owner = {"you": "your", "opponents": "your opponents'", "all": "all"}[self.whose]
            where = f"in {owner} {self.zone}" + ("s" if self.whose != "you" and self.zone == "graveyard" else "")
            kinds += " cards" if self.kinds else "s"
        else:
            kinds = ("non-" + self.exclude + " " if self.exclude else "") + kinds + "s"
        return ("twice " if self.times == 2 else "") + f"the number of {kinds} {where}"


_KIND = r"[a-z]+(?:-[a-z]+)?"
_PERMANENTS = re.compile(
    rf"^(?:non-?({_KIND}) )?({_KIND}(?: and {_KIND})?) (you control|your opponents control|on the battlefield)$"
)
_CARDS = re.compile(
    rf"^(?:({_KIND}(?:,? (?:and|or) {_KIND})?) )?cards in (your graveyard|all graveyards|your opponents' graveyards|"
    r"your opponent's graveyard|your hand)$"
)


def _singular(word: str) -> str:
    if word in _PLURALS:
        return _PLURALS[word]
    return word[:-1] if word.endswith("s") else word


def read_count(text: str) -> Count | None:
    """The count ``text`` says (lower or upper case), or None when it is not one the engine reads."""
    said = " ".join(text.replace("\u2019", "'").split()).rstrip(".")
    words = said.lower()
    if words == "your life total":
        return Count("life", "you")
    times = 1
    if words.startswith("twice "):
        times, words = 2, words.removeprefix("twice ")
    if not words.startswith("the number of "):
        return None
    what = words.removeprefix("the number of ")
    m = _CARDS.match(what)
    if m:
        zone, whose = _ZONES[m[2]]
        kinds = tuple(re.split(r",? (?:and|or) ", m[1])) if m[1] else ()
        if any(k not in _CARD_TYPES for k in kinds):
            return None
        return Count(zone, whose, kinds, times)
    m = _PERMANENTS.match(what)
    if m is None:
        return None
    kinds = tuple(_singular(k) for k in m[2].split(" and "))
    if len(kinds) > 1 and not all(k in _CARD_TYPES for k in kinds):
        return None
    if kinds == ("permanent",):
        kinds = ()
    # a subtype is written with a capital (Forests, Rats, non-Wall): another word is no count the engine reads
    if any(k not in _CARD_TYPES and not re.search(rf"\b{k.title()}", said) for k in kinds):
        return None
    left_out = m[1] or ""
    if left_out and (
        left_out in ("token", "basic", "legendary", "snow")
        or (left_out not in _CARD_TYPES and not re.search(rf"non-?{left_out.title()}\b", said))
    ):
        return None
    return Count("battlefield", _WHOSE[m[3]], kinds, times, left_out)


def read_each(text: str) -> Count | None:
    """The count of ``for each SELECTOR`` (``for each Forest you control``, ``for each card in your hand``).

    >>> read_each("Forest you control").kinds, read_each("creature card in your graveyard").zone
    (('forest',), 'graveyard')
    """
    words = " ".join(text.split()).rstrip(".")
    m = re.match(r"^(.*?)([A-Za-z-]+)( you control| your opponents control| on the battlefield)$", words)
    if m:
        last = m[2] if m[2].lower().endswith("s") else m[2] + "s"
        return read_count(f"the number of {m[1]}{last}{m[3]}")
    m = re.match(r"^(.*?)card in (.+)$", words)
    return read_count(f"the number of {m[1]}cards in {m[2]}") if m else None


def _is(types: frozenset[str], subtypes: frozenset[str], name: str, kind: str) -> bool:
    if kind in _CARD_TYPES:
        return kind in types
    # a basic land type: a land of that subtype, or the basic land the engine names so (205.3i)
    return kind in subtypes or (kind in _BASIC_TYPES and "land" in types and name.split("#")[0].lower() == kind)


def counts_permanent(perm: Permanent, count: Count, players: list[str]) -> bool:
    """Whether ``count`` (of permanents) counts ``perm``, when it counts those ``players`` control."""
    d = perm.card
    if perm.controller not in players:
        return False
    if count.kinds and not any(_is(d.types, d.subtypes, perm.name, k) for k in count.kinds):
        return False
    return not (count.exclude and _is(d.types, d.subtypes, perm.name, count.exclude))


def counted(s: State, controller: str, count: Count) -> int:
    """The number ``count`` is now, for the ability of a permanent ``controller`` controls."""
    if count.zone == "life":
        return s.life[controller] * count.times
    players = {"you": [controller], "opponents": [s.other(controller)], "all": list(s.players)}[count.whose]
    n = 0
    if count.zone == "battlefield":
        n = sum(counts_permanent(perm, count, players) for perm in s.battlefield)
    else:
        zone = s.graveyard if count.zone == "graveyard" else s.hand
        for player in players:
            for card in zone[player]:
                known = s.definition(card.name)
                if not count.kinds or (
                    known and any(_is(known.types, known.subtypes, card.name, k) for k in count.kinds)
                ):
                    n += 1
    return n * count.times


# -- characteristic-defining abilities that set power and toughness (208.2a, 604.3) ------------------------
_CDA = re.compile(
    r"(?:^|(?<=[.\n]))[ \t]*(?:~|this creature)'s (power and toughness are each|power is|toughness is) equal to "
    r"([^.\n]+)\.?",
    re.I,
)


def characteristic_defining(text: str) -> tuple[str, tuple[tuple[str, Count], ...]]:
    """A permanent's text (its name written ``~``) less its characteristic-defining abilities of power and
    toughness, and what each sets (``power``, ``toughness`` or ``power and toughness``) to which count; a
    sentence of that form whose count is not read is left in the text (the engine refuses it there)."""
    found: list[tuple[str, Count]] = []

    def take(m: re.Match[str]) -> str:
        count = read_count(m[2])
        if count is None:
            return m[0]
        found.append((m[1].lower().removesuffix(" are each").removesuffix(" is"), count))
        return ""

    rest = _CDA.sub(take, text)
    return ("\n".join(line for line in rest.split("\n") if line.strip()) if found else text), tuple(found)


def defined_stat(s: State, perm: Permanent, stat: str) -> int | None:
    """``perm``'s power or toughness as its characteristic-defining ability sets it, or None when none does."""
    for which, count in perm.card.cda:
        if stat in which:
            return counted(s, perm.controller, count)
    return None


def stats_said(s: State, perm: Permanent) -> str:
    """What ``perm``'s characteristic-defining abilities set, and its power and toughness now."""
    said = "; ".join(
        f"{which} {'are each' if ' and ' in which else 'is'} equal to {c.said()}" for which, c in perm.card.cda
    )
    return f"{perm.name}'s {said}: it is {s.power(perm)}/{s.toughness(perm)} (a characteristic-defining ability)"
