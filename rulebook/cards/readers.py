"""Reading the card files publishers and their projects ship, recognised by their content.

Formats (:func:`detect` names them):

- ``scryfall-cards``: Scryfall card objects (``"object": "card"``): one object, a JSON array of them (the
  ``oracle-cards`` and ``default-cards`` bulk files), or a ``"list"`` object whose ``data`` holds them.
- ``scryfall-rulings``: Scryfall ruling objects (``"object": "ruling"``), an array or a ``"list"``;
  keyed by ``oracle_id``.
- ``mtgjson-v5``: an MTGJSON v5 set file (``{"meta", "data": {set}}``, or the set object alone),
  ``AtomicCards.json`` (``{"meta", "data": {name: [faces]}}``) or ``AllPrintings.json``
  (``{"meta", "data": {SET: {set}}}``).
- ``mtgjson-v3``: an MTGJSON v3 set file (``{"name", "code", "releaseDate", "cards": [...]}``), or
  v3's ``AllSets.json`` (``{SET: {set}}``).
- ``riftbound-gallery``: the Riftbound card gallery (an object whose ``cards`` have ``setId``,
  ``cardTypes``, ``abilityText``).
- ``riftbound-errata``: Riftbound's official errata posts (a list of ``{"content", "publishedAt"}``
  whose Markdown has ``#### [NEW TEXT]`` / ``#### [OLD TEXT]`` blocks).

A reader yields :class:`Printing` records (a card as one record of the file prints it) and
:class:`Note` records (a ruling or an erratum keyed by a card it does not carry); the store folds them
into one card per game and name (:mod:`rulebook.cards.store`).

A file over 16 MB is streamed where its shape allows (``json.JSONDecoder.raw_decode`` over 1 MB
chunks): a top-level array (Scryfall's bulk files) element by element (:func:`iter_array`), MTGJSON's
``AllPrintings`` set by set and ``AtomicCards`` card by card (:func:`iter_members`), so a file of 100+ MB
is never held whole; a smaller file is parsed at once. Detection reads the first 16 KB (256 KB when
those do not tell), parsed as far as they go (:func:`parse_head`).

>>> render_riftbound("[Accelerate] (You may pay :rb_energy_1::rb_rune_fury: as an additional cost.)")
'[Accelerate] (You may pay [1][Fury] as an additional cost.)'
>>> riftbound_keywords("[Assault 2] (+2 [M] while I'm an attacker.)\\nGive a unit [Ganking]. [ADD] [A]")
('Assault 2', 'Ganking', 'Add')
>>> mtg_keywords("Flying, first strike\\nEquip {2} (Attach to target creature.)\\nWhen ~ dies, draw a card.")
('Flying', 'First Strike', 'Equip')
>>> mtg_keywords("Protection from red\\nSwampwalk\\nCreatures you control have flying.")
('Protection', 'Swampwalk')
"""

from __future__ import annotations

import codecs
import json
import os
import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from rulebook.cards.model import FACE_SEPARATOR, CardRuling
from rulebook.model import ReadError

FORMATS = ("scryfall-cards", "scryfall-rulings", "mtgjson-v5", "mtgjson-v3", "riftbound-gallery", "riftbound-errata")
GAME_OF = {
    "scryfall-cards": "mtg",
    "scryfall-rulings": "mtg",
    "mtgjson-v5": "mtg",
    "mtgjson-v3": "mtg",
    "riftbound-gallery": "riftbound",
    "riftbound-errata": "riftbound",
}
KNOWN = "Scryfall card or rulings data, an MTGJSON v3 or v5 file, the Riftbound card gallery or its errata"

HEAD = 256 * 1024  # bytes read to recognise a file
WHOLE = 16 * 1024 * 1024  # a file up to this size is parsed at once (faster than streaming)
CHUNK = 1024 * 1024  # bytes read at a time when streaming
_MAX_ELEMENT = 64 * 1024 * 1024  # one value (a card, a set) larger than this: the file is broken

# Bump when a reader changes what it makes of a file: every stored file is read again at its next load.
CARD_READER_VERSION = "1"


# -- records ------------------------------------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class Printing:
    """A card as one record (or the records of one multi-face card) of a file prints it."""

    game: str
    name: str
    newness: str  # sorts the printings of a card: Magic the release date, Riftbound the set's rank
    sets: tuple[tuple[str, str], ...]  # (set code, newness) of this printing
    oracle_id: str | None
    data: dict[str, Any]  # faces, layout, type line, types, cost, keywords (None: derive them), extra
    rulings: tuple[CardRuling, ...] = ()


@dataclass(frozen=True, slots=True)
class Note:
    """A ruling (or a Riftbound erratum) about a card the file does not carry: by oracle id or name."""

    game: str
    name: str | None
    oracle_id: str | None
    ruling: CardRuling
    new_text: str | None = None  # an erratum's new text: the card's text from its date on


# -- JSON plumbing --------------------------------------------------------------------------------------
def _decoder(raw_start: bytes):
    encoding = "utf-8-sig" if raw_start.startswith(codecs.BOM_UTF8) else "utf-8"
    return codecs.getincrementaldecoder(encoding)(errors="replace")


def _head(path: str | Path, size: int = HEAD) -> tuple[str, bool]:
    """The file's first ``size`` bytes as text, and whether that is the whole file."""
    with open(path, "rb") as f:
        raw = f.read(size + 1)
    whole = len(raw) <= size
    raw = raw[:size]
    return _decoder(raw).decode(raw, final=whole), whole


_WS = re.compile(r"[ \t\n\r]*")
_INCOMPLETE = object()


def _skip_ws(text: str, pos: int) -> int:
    """Where the JSON white space at ``pos`` ends (``pos`` itself when there is none)."""
    found = _WS.match(text, pos)
    assert found is not None  # the pattern matches the empty string too
    return found.end()


def parse_head(text: str, pos: int = 0) -> tuple[Any, int, bool]:
    """Parse the JSON value at ``pos`` as far as ``text`` holds it: ``(value, end, complete)``.

    A value cut off by the end of ``text`` comes back with what it has: a list of its complete
    elements and the incomplete one, a dict of its complete members and the incomplete one. Complete
    values are decoded by :mod:`json` itself; only the containers open at the cut are walked here.

    >>> parse_head('{"meta": {"version": "5.2"}, "data": {"10E": {"cards": [{"name": "Ab')[0]
    {'meta': {'version': '5.2'}, 'data': {'10E': {'cards': [{}]}}}
    """
    decoder = _DECODER
    pos = _skip_ws(text, pos)
    try:
        value, end = decoder.raw_decode(text, pos)
        return value, end, True
    except json.JSONDecodeError as exc:
        if pos >= len(text) or text[pos] not in "[{":
            if _cut(exc, text):
                return _INCOMPLETE, len(text), False
            raise
    opener = text[pos]
    closer = "}" if opener == "{" else "]"
    out: Any = {} if opener == "{" else []
    pos += 1
    while True:
        pos = _skip_ws(text, pos)
        if pos >= len(text):
            return out, pos, False
        if text[pos] == closer:
            return out, pos + 1, True
        if opener == "{":
            try:
                key, pos = decoder.raw_decode(text, pos)
            except json.JSONDecodeError as exc:
                if _cut(exc, text):
                    return out, len(text), False
                raise
            pos = _skip_ws(text, pos)
            if pos >= len(text):
                return out, pos, False
            if text[pos] != ":":
                raise json.JSONDecodeError("Expecting ':' delimiter", text, pos)
            value, pos, complete = parse_head(text, pos + 1)
            if value is not _INCOMPLETE:
                out[key] = value
        else:
            value, pos, complete = parse_head(text, pos)
            if value is not _INCOMPLETE:
                out.append(value)
        if not complete:
            return out, pos, False
        pos = _skip_ws(text, pos)
        if pos >= len(text):
            return out, pos, False
        if text[pos] == ",":
            pos += 1
        elif text[pos] != closer:
            raise json.JSONDecodeError("Expecting ',' delimiter", text, pos)


_DECODER = json.JSONDecoder()
# Python's JSON decoder recurses once per level: a value nested past the interpreter's limit (a damaged
# or hostile file: card data is a few levels deep) is refused with this, not a RecursionError.
TOO_DEEP = "the JSON is nested too deep to read (thousands of levels): expected card data, a few levels deep"
# ... and a number of more digits than Python converts (4,300) raises ValueError, not JSONDecodeError.
TOO_LONG = "the JSON holds a number of thousands of digits: expected card data"


def _cut(exc: json.JSONDecodeError, text: str) -> bool:
    """Whether a decoding error is the text's end cutting a value short, not a fault in it."""
    return exc.pos >= len(text) - 1 or exc.msg.startswith("Unterminated string")


def _line_of(exc: json.JSONDecodeError, before: int = 0) -> int:
    return before + exc.doc.count("\n", 0, exc.pos) + 1


class _JsonStream:
    """A JSON file read a chunk at a time: values decoded one by one with ``raw_decode``, what was read
    dropped as it goes, so one value (a card, a set) is in memory at a time, never the file."""

    def __init__(self, f, path: str, chunk: int):
        self.f, self.path, self.chunk = f, path, chunk
        raw = f.read(chunk)
        self.text_of = _decoder(raw)
        self.eof = not raw
        self.buf = self.text_of.decode(raw, final=self.eof)
        self.pos = 0
        self.lines_before = 0  # newlines of the text already dropped from buf

    def _more(self) -> bool:
        if self.eof:
            return False
        raw = self.f.read(self.chunk)
        self.eof = not raw
        self.buf += self.text_of.decode(raw, final=self.eof)
        return True

    def line(self, pos: int | None = None) -> int:
        return self.lines_before + self.buf.count("\n", 0, self.pos if pos is None else pos) + 1

    def peek(self) -> str | None:
        """The next character that is not white space (None at the end of the file)."""
        while True:
            self.pos = _skip_ws(self.buf, self.pos)
            if self.pos < len(self.buf):
                return self.buf[self.pos]
            if not self._more():
                return None

    def expect(self, chars: str, what: str) -> str:
        c = self.peek()
        if c is None:
            raise ReadError(
                self.path, f"the JSON is cut short (expected {what}): the file looks truncated", self.line()
            )
        if c not in chars:
            raise ReadError(self.path, f"invalid JSON: expected {what}", self.line())
        self.pos += 1
        return c

    def value(self) -> Any:
        """The next value, decoded whole."""
        if self.peek() is None:
            raise ReadError(self.path, "the JSON is cut short: the file looks truncated", self.line())
        while True:
            try:
                value, end = _DECODER.raw_decode(self.buf, self.pos)
                if end >= len(self.buf) and not self.eof:  # a number may go on in the next chunk
                    raise json.JSONDecodeError("cut", self.buf, end)
                break
            except RecursionError:
                raise ReadError(self.path, TOO_DEEP, self.line()) from None
            except json.JSONDecodeError as exc:
                if len(self.buf) - self.pos > _MAX_ELEMENT or not self._more():
                    if self.eof and _cut(exc, self.buf):
                        raise ReadError(
                            self.path,
                            "the JSON is cut short in the middle of a value: the file looks truncated",
                            _line_of(exc, self.lines_before),
                        ) from None
                    raise ReadError(self.path, f"invalid JSON: {exc.msg}", _line_of(exc, self.lines_before)) from None
            except ValueError:
                raise ReadError(self.path, TOO_LONG, self.line()) from None
        self.pos = end
        if self.pos > self.chunk:  # drop what was read, keeping the count of lines
            self.lines_before += self.buf.count("\n", 0, self.pos)
            self.buf = self.buf[self.pos :]
            self.pos = 0
        return value

    def elements(self) -> Iterator[Any]:
        """The elements of the array that starts here."""
        self.expect("[", "a JSON array")
        if self.peek() == "]":
            self.pos += 1
            return
        while True:
            yield self.value()
            if self.expect(",]", "',' or ']' after an element of the array") == "]":
                return

    def members(self) -> Iterator[tuple[str, Any]]:
        """The (key, value) members of the object that starts here, each value decoded whole."""
        self.expect("{", "a JSON object")
        if self.peek() == "}":
            self.pos += 1
            return
        while True:
            key = self.value()
            self.expect(":", "':' after a key")
            yield key, self
            if self.expect(",}", "',' or '}' after a member of the object") == "}":
                return


def iter_array(path: str | Path, chunk: int = CHUNK) -> Iterator[Any]:
    """The elements of the JSON array that is the file, one at a time, never the whole file in memory.

    Raises :class:`ReadError` with the line for a file that is not a JSON array or is cut short.
    """
    with open(path, "rb") as f:
        yield from _JsonStream(f, str(path), chunk).elements()


def iter_members(path: str | Path, member: str | None = None, chunk: int = CHUNK) -> Iterator[tuple[str, Any]]:
    """The members of the JSON object that is the file (``member`` None), or of its member ``member``
    (MTGJSON's ``data``: its sets, or its cards by name), one at a time; other members are skipped."""
    with open(path, "rb") as f:
        stream = _JsonStream(f, str(path), chunk)
        for key, at in stream.members():
            if member is None:
                yield key, at.value()
            elif key == member:
                for inner, value_at in at.members():
                    yield inner, value_at.value()
            else:
                at.value()  # "meta": read past


def load_whole(path: str | Path) -> Any:
    """The file parsed whole (one copy of its text, dropped once parsed)."""
    with open(path, "rb") as f:
        raw = f.read()
    text = raw.decode("utf-8-sig" if raw.startswith(codecs.BOM_UTF8) else "utf-8", errors="replace")
    del raw
    try:
        return json.loads(text)
    except RecursionError:
        raise ReadError(str(path), TOO_DEEP) from None
    except json.JSONDecodeError as exc:
        if _cut(exc, text):
            raise ReadError(str(path), "the JSON is cut short: the file looks truncated", _line_of(exc)) from None
        raise ReadError(str(path), f"invalid JSON: {exc.msg}", _line_of(exc)) from None
    except ValueError:
        raise ReadError(str(path), TOO_LONG) from None


# -- recognising a file --------------------------------------------------------------------------------
def looks_like_json(path: str | Path) -> bool:
    """Whether the file is JSON, as far as its first 16 KB tell (a Markdown text that opens with
    ``[[Download ...]](...)`` is not)."""
    return _head_value(path, 16 * 1024) is not None


def _head_value(path: str | Path, size: int = HEAD) -> tuple[Any, bool] | None:
    """The file's JSON as far as its first ``size`` bytes hold it, and whether that is all of it;
    None when it is no JSON (or not JSON at its start)."""
    try:
        text, whole = _head(path, size)
    except OSError:
        return None
    start = _skip_ws(text, 0)
    if text[start : start + 1] not in ("{", "["):
        return None
    try:
        value, _, complete = parse_head(text, start)
    except json.JSONDecodeError:
        return None
    except RecursionError:
        raise ReadError(str(path), TOO_DEEP) from None
    except ValueError:
        raise ReadError(str(path), TOO_LONG) from None
    return value, complete and whole


def classify(value: Any) -> str | None:
    """The card format of a JSON value (complete, or as far as a file's head holds it)."""
    if isinstance(value, list):
        first = next((v for v in value if isinstance(v, dict)), None)
        if first is None:
            return None
        if first.get("object") == "card":
            return "scryfall-cards"
        if first.get("object") == "ruling":
            return "scryfall-rulings"
        if isinstance(first.get("content"), str) and (
            first.get("kind") == "errata" or "[NEW TEXT]" in first["content"]
        ):
            return "riftbound-errata"
        return None
    if not isinstance(value, dict):
        return None
    obj = value.get("object")
    if obj == "card":
        return "scryfall-cards"
    if obj == "list":
        return classify(value.get("data") or [])
    if "data" in value and isinstance(value["data"], dict):
        data = value["data"]
        if isinstance(data.get("cards"), list) and ("code" in data or "baseSetSize" in data):
            return "mtgjson-v5"  # a set file
        if not isinstance(value.get("meta"), dict):
            return None
        first = next(iter(data.values()), None)
        if isinstance(first, list) and (not first or isinstance(first[0], dict)):
            return "mtgjson-v5"  # AtomicCards: {name: [faces]}
        if isinstance(first, dict):
            return "mtgjson-v5"  # AllPrintings: {SET: {set}}
        return None
    cards = value.get("cards")
    if isinstance(cards, list):
        card = next((c for c in cards if isinstance(c, dict) and c), None)
        if card is not None and ("setId" in card or "abilityText" in card or "cardTypes" in card):
            return "riftbound-gallery"
        if "code" in value or "releaseDate" in value:
            if card is None:
                return "mtgjson-v5" if "baseSetSize" in value or "meta" in value else "mtgjson-v3"
            return "mtgjson-v5" if ("uuid" in card or "identifiers" in card or "setCode" in card) else "mtgjson-v3"
        return None
    sets = [v for v in value.values() if isinstance(v, dict)]
    if sets and len(sets) == len(value) and all("cards" in s or "code" in s for s in sets[:3]):
        return classify(sets[0])  # v3 AllSets.json: {SET: {set}}
    return None


def detect(path: str | Path) -> str | None:
    """The card format of a file (see :data:`FORMATS`), by its content; None for anything else.
    Reads the first 16 KB, and 256 KB when those do not tell."""
    for size in (16 * 1024, HEAD):
        head = _head_value(path, size)
        if head is None:
            return None
        fmt = classify(head[0])
        if fmt is not None or head[1]:
            return fmt
    return None


def describe(path: str | Path) -> str:
    """What a JSON file that is no card file looks like, for the one line that refuses it.

    >>> import tempfile, os
    >>> fd, name = tempfile.mkstemp(suffix=".json"); _ = os.write(fd, b'{"object": "error", "code": "not_found", "details": "x"}'); os.close(fd)
    >>> describe(name)
    "a JSON object with keys object, code, details ('object': 'error')"
    """
    head = _head_value(path)
    if head is None:
        return "looks like JSON but does not parse"
    value, _ = head
    if isinstance(value, dict):
        keys = list(value)
        shown = ", ".join(keys[:8]) + (", ..." if len(keys) > 8 else "")
        kind = f" ('object': {value['object']!r})" if isinstance(value.get("object"), str) else ""
        return f"a JSON object with keys {shown}{kind}" if keys else "an empty JSON object"
    if isinstance(value, list):
        if not value:
            return "an empty JSON list"
        first = value[0]
        if isinstance(first, dict):
            keys = list(first)
            return "a JSON list of objects with keys " + ", ".join(keys[:8]) + (", ..." if len(keys) > 8 else "")
        return f"a JSON list of {type(first).__name__} values"
    return "a JSON value"


# -- reading ------------------------------------------------------------------------------------------
def read(path: str | Path, fmt: str | None = None) -> Iterator[Printing | Note]:
    """The records of a card file, in file order. Raises :class:`ReadError` (one line naming the file,
    and the line where it can) for a file that is no card file, is broken or is cut short.

    A file up to :data:`WHOLE` bytes is parsed at once; a bigger one is streamed where its shape allows:
    a top-level array (Scryfall's bulk files) element by element, MTGJSON's ``AllPrintings`` set by set,
    ``AtomicCards`` card by card, v3's ``AllSets`` set by set."""
    path = str(path)
    fmt = fmt or detect(path)
    if fmt is None:
        raise ReadError(path, f"not a card file: expected {KNOWN}")
    top = _top(path, fmt)
    if fmt == "scryfall-cards":
        return _scryfall_cards(top)
    if fmt == "scryfall-rulings":
        return _scryfall_rulings(top)
    if fmt == "riftbound-errata":
        return _riftbound_errata(top, path)
    if fmt == "riftbound-gallery":
        return _riftbound_gallery(top)
    if fmt == "mtgjson-v3":
        return _mtgjson_v3(top)
    return _mtgjson_v5(top)


class _Members(dict):
    """The members of a big object, streamed: iterating ``.items()`` reads the file (once)."""

    def __init__(self, path: str, member: str | None):
        super().__init__()
        self.path, self.member = path, member

    def items(self):
        return iter_members(self.path, self.member)

    def values(self):
        return (v for _, v in self.items())


def _top(path: str, fmt: str) -> Any:
    """The file's value: parsed whole, or streamed (a big array, a big map of sets or cards)."""
    if os.path.getsize(path) <= WHOLE:
        return load_whole(path)
    head = _head_value(path)
    value = head[0] if head else None
    if isinstance(value, list):
        return iter_array(path)
    if isinstance(value, dict):
        data = value.get("data")
        if fmt == "mtgjson-v5" and isinstance(data, dict) and not ("cards" in data or "code" in data):
            return {"data": _Members(path, "data")}  # AllPrintings, AtomicCards
        if fmt == "mtgjson-v3" and "cards" not in value:
            return _Members(path, None)  # AllSets
    return load_whole(path)


def _elements(top: Any) -> Iterable[Any]:
    if isinstance(top, dict) and not isinstance(top, _Members):
        if top.get("object") == "list":
            data = top.get("data")
            return data if isinstance(data, list) else []
        return [top]
    return top if isinstance(top, (list, Iterator)) else []


# -- the fields a reader reads, by the type it reads them as ---------------------------------------------
# A record whose field has another type (a number for a name, an object for a type line: a damaged or
# hand-edited file) is read as if the field were absent, as a record without a name is skipped: the rest
# of the file still loads, and no reader meets a value it cannot use.
_TEXT_FIELDS = frozenset(
    "name faceName manaCost mana_cost type type_line text oracle_text layout side setId abilityText released_at "
    "set oracle_id code releaseDate published_at comment source date object content kind publishedAt updatedAt "
    "scryfallOracleId".split()
)
_TEXT_LIST_FIELDS = frozenset(
    "names supertypes types subtypes colors keywords domains superTypes cardTypes tags printings".split()
)
_MAP_FIELDS = frozenset(["identifiers"])
_MAP_LIST_FIELDS = frozenset("card_faces rulings cards".split())
_STAT_FIELDS = frozenset("power toughness loyalty energy might cmc manaValue convertedManaCost".split())


def _checked(rec: Any) -> dict[str, Any] | None:
    """``rec`` with every field a reader reads of the type it reads it as (others dropped, a list's
    elements of another type left out); None for a record that is no JSON object.

    >>> _checked({"name": 3, "types": ["Creature", 2], "text": "Flying", "power": [1], "cards": [{}, 5]})
    {'types': ['Creature'], 'text': 'Flying', 'cards': [{}]}
    """
    if not isinstance(rec, dict):
        return None
    out: dict[str, Any] = {}
    for key, value in rec.items():
        if key in _TEXT_FIELDS:
            if isinstance(value, str):
                out[key] = value
        elif key in _TEXT_LIST_FIELDS:
            if isinstance(value, list):
                out[key] = [x for x in value if isinstance(x, str)]
        elif key in _MAP_FIELDS:
            if isinstance(value, dict):
                out[key] = value
        elif key in _MAP_LIST_FIELDS:
            if isinstance(value, list):
                out[key] = [x for x in value if isinstance(x, dict)]
        elif key in _STAT_FIELDS:
            if isinstance(value, (str, int, float)) and not isinstance(value, bool):
                out[key] = value
        else:
            out[key] = value
    return out


# -- Magic: shared ------------------------------------------------------------------------------------
MTG_SUPERTYPES = {"Basic", "Legendary", "Ongoing", "Snow", "World", "Elite", "Host", "Token"}
_COLOR_LETTER = {"White": "W", "Blue": "U", "Black": "B", "Red": "R", "Green": "G"}
_DASH = re.compile(r"\s+[—-]\s+")


def split_type_line(type_line: str) -> tuple[list[str], list[str], list[str]]:
    """(supertypes, types, subtypes) of a Magic type line ("Legendary Creature — Human Wizard")."""
    parts = _DASH.split(type_line, maxsplit=1)
    left = parts[0].split()
    supertypes = [w for w in left if w in MTG_SUPERTYPES]
    types = [w for w in left if w not in MTG_SUPERTYPES]
    right = parts[1] if len(parts) > 1 else ""
    subtypes = [right] if right and types == ["Plane"] else right.split()
    return supertypes, types, subtypes


def _union(lists: Iterable[Iterable[str]]) -> list[str]:
    out: list[str] = []
    for items in lists:
        for x in items:
            if x not in out:
                out.append(x)
    return out


def _mana_value(value: Any) -> int | float | None:
    if value is None:
        return None
    try:
        number = float(value)
    except (TypeError, ValueError):
        return None
    return int(number) if number.is_integer() else number


def _s(value: Any) -> str | None:
    """A stat as text (power "2", loyalty "3", "*"); None when absent or empty."""
    if value is None or value == "":
        return None
    if isinstance(value, float) and value.is_integer():
        value = int(value)
    return str(value)


def _magic_data(
    faces: list[dict[str, Any]],
    layout: str,
    colors: list[str],
    mana_value: Any,
    keywords: list[str] | None,
    type_fields: list[tuple[list[str], list[str], list[str]]] | None = None,
    cost: str | None = None,
) -> dict[str, Any]:
    """The stored form of a Magic printing: faces as lists (name, cost, type line, text, power,
    toughness, loyalty, might), the card's fields computed from them."""
    fields = type_fields or [split_type_line(f["type_line"]) for f in faces]
    if cost is None:
        costs = [f["cost"] for f in faces if f["cost"]]
        cost = " // ".join(costs) if costs else None
    return {
        "faces": [
            [
                f["name"],
                f["cost"],
                f["type_line"],
                f["text"],
                f.get("power"),
                f.get("toughness"),
                f.get("loyalty"),
                None,
            ]
            for f in faces
        ],
        "layout": layout or "normal",
        "type_line": " // ".join(f["type_line"] for f in faces),
        "supertypes": _union(t[0] for t in fields),
        "types": _union(t[1] for t in fields),
        "subtypes": _union(t[2] for t in fields),
        "cost": cost,
        "keywords": keywords,
        "extra": {"colors": colors, "mana_value": _mana_value(mana_value)},
    }


def _colors(values: Iterable[str]) -> list[str]:
    out = [_COLOR_LETTER.get(c, c) for c in values]
    return [c for c in "WUBRG" if c in out] + sorted(c for c in set(out) if c not in "WUBRG")


# -- Scryfall ----------------------------------------------------------------------------------------
_SKIPPED_LAYOUTS = {"art_series", "token", "double_faced_token", "emblem"}  # not cards a judge looks up


def _scryfall_cards(top: Any) -> Iterator[Printing]:
    for element in _elements(top):
        card = _checked(element)
        if card is None or card.get("object") != "card" or not card.get("name"):
            continue
        layout = card.get("layout") or "normal"
        if layout in _SKIPPED_LAYOUTS:
            continue
        faces_in = [c for c in map(_checked, card.get("card_faces") or ()) if c is not None] or [card]
        faces = []
        for f in faces_in:
            faces.append(
                {
                    "name": f.get("name") or card["name"],
                    "cost": f.get("mana_cost") or None,
                    "type_line": f.get("type_line") or (card.get("type_line") if len(faces_in) == 1 else "") or "",
                    "text": f.get("oracle_text") or "",
                    "power": _s(f.get("power")),
                    "toughness": _s(f.get("toughness")),
                    "loyalty": _s(f.get("loyalty")),
                }
            )
        colors = card.get("colors")
        if colors is None:
            colors = _union(f.get("colors") or [] for f in faces_in)
        date = card.get("released_at") or ""
        data = _magic_data(
            faces,
            layout,
            _colors(colors),
            card.get("cmc"),
            list(card["keywords"]) if isinstance(card.get("keywords"), list) else None,
        )
        code = (card.get("set") or "").upper()
        yield Printing("mtg", card["name"], date, ((code, date),) if code else (), card.get("oracle_id"), data)


def _scryfall_rulings(top: Any) -> Iterator[Note]:
    for element in _elements(top):
        r = _checked(element)
        if r is None or r.get("object") != "ruling" or not r.get("comment"):
            continue
        ruling = CardRuling(r.get("published_at"), r["comment"].strip(), "scryfall", r.get("source") == "wotc")
        yield Note("mtg", None, r.get("oracle_id"), ruling)


# -- MTGJSON ----------------------------------------------------------------------------------------
def _rulings(records: Iterable[dict[str, Any]], source: str) -> tuple[CardRuling, ...]:
    out: list[CardRuling] = []
    seen: set[tuple[str | None, str]] = set()
    for rec in records:
        for r in map(_checked, rec.get("rulings") or ()):
            if r is None or not r.get("text"):
                continue
            ruling = CardRuling(r.get("date"), r["text"].strip(), source, True)
            key = ruling_key(ruling)
            if key not in seen:
                seen.add(key)
                out.append(ruling)
    return tuple(out)


def _mtgjson_face(rec: dict[str, Any]) -> tuple[dict[str, Any], tuple[list[str], list[str], list[str]]]:
    name = rec.get("faceName") or rec["name"]
    type_line = rec.get("type") or ""
    if "types" in rec:
        fields = (list(rec.get("supertypes") or []), list(rec.get("types") or []), list(rec.get("subtypes") or []))
    else:
        fields = split_type_line(type_line)
    face = {
        "name": name,
        "cost": rec.get("manaCost") or None,
        "type_line": type_line,
        "text": rec.get("text") or "",  # v3: the Oracle text, never originalText (the printed wording)
        "power": _s(rec.get("power")),
        "toughness": _s(rec.get("toughness")),
        "loyalty": _s(rec.get("loyalty")),
    }
    return face, fields


_SPLIT_LAYOUTS = {"split", "aftermath"}


def _mtgjson_printing(
    records: list[dict[str, Any]],
    name: str,
    date: str,
    code: str | None,
    v3: bool,
    sets: tuple[tuple[str, str], ...] | None = None,
) -> Printing:
    faces, fields = zip(*(_mtgjson_face(r) for r in records))
    first = records[0]
    layout = first.get("layout") or "normal"
    if v3 and layout == "double-faced":
        layout = "transform"  # v3's name for it (v3 had no modal double-faced cards)
    if layout in _SPLIT_LAYOUTS:
        mana_value = (
            sum(_mana_value(r.get("cmc", r.get("manaValue", 0))) or 0 for r in records)
            if v3
            else first.get("manaValue", first.get("convertedManaCost"))
        )
    else:
        mana_value = first.get("cmc") if v3 else first.get("manaValue", first.get("convertedManaCost"))
    keywords = None
    if not v3 and any("keywords" in r for r in records):
        keywords = _union(r.get("keywords") or [] for r in records)
    colors = _union(r.get("colors") or [] for r in records)
    data = _magic_data(list(faces), layout, _colors(colors), mana_value, keywords, list(fields))
    oracle = None
    if not v3:
        oracle = next(
            (
                (_checked(r.get("identifiers")) or {}).get("scryfallOracleId")
                for r in records
                if (_checked(r.get("identifiers")) or {}).get("scryfallOracleId")
            ),
            None,
        )
    if sets is None:
        sets = ((code, date),) if code else ()
    return Printing("mtg", name, date, sets, oracle, data, _rulings(records, "mtgjson"))


def _side(rec: dict[str, Any]) -> str:
    return rec.get("side") or "a"


def _mtgjson_set(s: dict[str, Any], v3: bool) -> Iterator[Printing]:
    s = _checked(s) or {}
    code = (s.get("code") or "").upper() or None
    date = s.get("releaseDate") or ""
    cards = [c for c in map(_checked, s.get("cards") or ()) if c is not None and c.get("name")]
    groups: dict[str, list[dict[str, Any]]] = {}
    for c in cards:
        names = c.get("names") if v3 else None
        if v3 and names and len(names) > 1 and (c.get("layout") or "") != "meld":
            # v3 writes each half of a split card (and each face of a double-faced one) as its own
            # record named after the half, with `names` listing all: one card, "Fire // Ice".
            key = " // ".join(names)
        else:
            key = c["name"]
        groups.setdefault(key, []).append(c)
    for name, records in groups.items():
        if v3:
            names = records[0].get("names")
            if names and len(names) > 1 and (records[0].get("layout") or "") != "meld":
                by_face: dict[str, dict[str, Any]] = {}
                for r in records:
                    by_face.setdefault(r["name"], r)
                # (a record whose own name is none of its names: read as a card of one face)
                records = [by_face[n] for n in names if n in by_face] or records[:1]
            else:
                records = records[:1]
        else:
            by_side: dict[str, dict[str, Any]] = {}
            for r in records:
                by_side.setdefault(_side(r), r)
            records = [by_side[k] for k in sorted(by_side)]
        yield _mtgjson_printing(records, name, date, code, v3)


def _mtgjson_v3(value: Any) -> Iterator[Printing]:
    if isinstance(value, dict) and isinstance(value.get("cards"), list):
        yield from _mtgjson_set(value, True)
        return
    for s in value.values() if isinstance(value, dict) else ():  # AllSets.json: {SET: {set}}
        if isinstance(s, dict):
            yield from _mtgjson_set(s, True)


def _mtgjson_v5(value: Any) -> Iterator[Printing]:
    data = value.get("data", value) if isinstance(value, dict) else {}
    if not isinstance(data, dict):
        return
    if "cards" in data or "code" in data:
        yield from _mtgjson_set(data, False)
        return
    for key, entry in data.items():
        if isinstance(entry, dict):  # AllPrintings: {SET: {set}}
            yield from _mtgjson_set(entry, False)
        elif isinstance(entry, list):  # AtomicCards: {name: [faces]}, no set or date
            records = [r for r in map(_checked, entry) if r is not None]
            if not records:
                continue
            by_side: dict[str, dict[str, Any]] = {}
            for r in records:
                by_side.setdefault(_side(r), r)
            records = [by_side[k] for k in sorted(by_side)]
            sets = tuple((str(code).upper(), "") for code in records[0].get("printings") or ())
            name = records[0].get("name") or key
            if isinstance(name, str) and name:
                yield _mtgjson_printing(records, name, "", None, False, sets)


# -- Riftbound ----------------------------------------------------------------------------------------
# The sets of the gallery, oldest first: a printing of a later set is the newer (the gallery dates none).
# A set not listed counts as newer than these (a gallery newer than this code).
RIFTBOUND_SETS = ("OGS", "OGN", "SFD", "UNL")
RIFTBOUND_DOMAINS = ("Fury", "Calm", "Mind", "Body", "Chaos", "Order")
# Icons as Core Rules v1.3 writes them (135.2.e): energy [N], a domain's power [Fury], power of any
# domain [A], Might [M] (the gallery's image text still has [S]), exhaust [E] (formerly [T]).
_ICON = re.compile(r":rb_([a-z0-9_]+):")
_ICONS = {"might": "[M]", "exhaust": "[E]", "rune_rainbow": "[A]"}


def _icon(m: re.Match) -> str:
    name = m.group(1)
    if name in _ICONS:
        return _ICONS[name]
    if name.startswith("energy_"):
        return f"[{name[len('energy_') :]}]"
    if name.startswith("rune_"):
        return f"[{name[len('rune_') :].replace('_', ' ').title()}]"
    return f"[{name.replace('_', ' ').title()}]"


def render_riftbound(text: str) -> str:
    """The gallery's ability text with its icon tokens written as the rules write them."""
    return _ICON.sub(_icon, text or "")


def riftbound_rank(set_id: str) -> str:
    try:
        return f"{RIFTBOUND_SETS.index(set_id):02d}"
    except ValueError:
        return "90"


def _riftbound_cost(energy: str | None, power: str | None, domains: list[str]) -> str | None:
    parts = []
    if energy:
        parts.append(energy)
    if power and len(power) <= 2 and power.isdecimal() and int(power) > 0:  # 100 power and more: as a number
        icon = f"[{'/'.join(domains)}]" if domains else "[A]"
        parts.append(icon * int(power))
    elif power:
        parts.append(f"{power} power")
    return " ".join(parts) or None


def _riftbound_gallery(value: Any) -> Iterator[Printing]:
    for c in map(_checked, (_checked(value) or {}).get("cards") or ()):
        if c is None or not c.get("name"):
            continue
        set_id = (c.get("setId") or "").upper()
        rank = riftbound_rank(set_id)
        domains = [d for d in c.get("domains") or [] if d]
        energy, power, might = _s(c.get("energy")), _s(c.get("power")), _s(c.get("might"))
        supertypes = [t for t in c.get("superTypes") or [] if t]
        types = [t for t in c.get("cardTypes") or [] if t]
        tags = [t for t in c.get("tags") or [] if t]
        type_line = " ".join(supertypes + types) + (" — " + " ".join(tags) if tags else "")
        cost = _riftbound_cost(energy, power, domains)
        text = render_riftbound(c.get("abilityText") or "")
        data = {
            "faces": [[c["name"], cost, type_line, text, None, None, None, might]],
            "layout": "normal",
            "type_line": type_line,
            "supertypes": supertypes,
            "types": types,
            "subtypes": tags,
            "cost": cost,
            "keywords": None,
            "extra": {"domains": domains, "energy": energy, "power": power, "might": might, "tags": tags},
        }
        yield Printing("riftbound", c["name"], rank, ((set_id, rank),) if set_id else (), None, data)


_NEW = re.compile(r"^\s*#{2,6}\s*\[NEW TEXT\]\s*$", re.I)
_OLD = re.compile(r"^\s*#{2,6}\s*\[OLD TEXT\]\s*$", re.I)
_HEADING = re.compile(r"^\s*#{1,6}(?:\s+(.*?))?\s*$")


def _paragraphs(lines: list[str]) -> str:
    return "\n".join(line.strip() for line in lines if line.strip())


def read_errata(content: str) -> list[tuple[str, str, str, str]]:
    """``(card name, new text, old text, note)`` for each card of an errata post's Markdown.

    A card's block is its name (a ``##`` or ``###`` heading, or a line of its own just before the
    block), ``#### [NEW TEXT]``, the new text, ``#### [OLD TEXT]``, the old text; a line ``Note: ...``
    after the old text is the block's note.

    >>> read_errata("## Origins Cards\\nFalling Star\\n#### [NEW TEXT]\\nDeal 3.\\n\\nDeal 3.\\n####\\n#### [OLD TEXT]\\nDo this twice:\\n\\n"
    ...             "Deal 3.\\n## Salvage\\n#### [NEW TEXT]\\nDraw 1.\\n#### [OLD TEXT]\\nDraw 2.\\n\\nNote: English only\\n")
    [('Falling Star', 'Deal 3.\\nDeal 3.', 'Do this twice:\\nDeal 3.', ''), ('Salvage', 'Draw 1.', 'Draw 2.', 'Note: English only')]
    """
    lines = content.replace("\r\n", "\n").split("\n")
    starts = [i for i, line in enumerate(lines) if _NEW.match(line)]
    names: list[tuple[int, str]] = []  # (line of the name, name) for each block
    for i in starts:
        j = i - 1
        while j >= 0 and not lines[j].strip():
            j -= 1
        m = _HEADING.match(lines[j]) if j >= 0 else None
        name = (m.group(1) or "") if m else (lines[j].strip() if j >= 0 else "")
        names.append((j, name.strip()))
    out = []
    for n, i in enumerate(starts):
        end = names[n + 1][0] if n + 1 < len(starts) else len(lines)
        block = lines[i + 1 : end]
        old_at = next((k for k, line in enumerate(block) if _OLD.match(line)), None)
        new_lines = block if old_at is None else block[:old_at]
        old_lines = [] if old_at is None else block[old_at + 1 :]
        new_lines = [line for line in new_lines if not _HEADING.match(line)]
        kept: list[str] = []
        note: list[str] = []
        for line in old_lines:
            if _HEADING.match(line):
                break  # a section heading ("## Spiritforged Cards") ends the block
            (note if line.strip().lower().startswith("note:") or note else kept).append(line)
        if names[n][1]:
            out.append((names[n][1], _paragraphs(new_lines), _paragraphs(kept), _paragraphs(note)))
    return out


def _riftbound_errata(top: Any, path: str) -> Iterator[Note]:
    posts = top if isinstance(top, list) else [top]
    for post in map(_checked, posts):
        if post is None or not isinstance(post.get("content"), str):
            continue
        date = (post.get("publishedAt") or post.get("updatedAt") or "")[:10] or None
        for name, new, old, note in read_errata(post["content"]):
            if not new:
                continue
            text = f"New text: {new}" + (f"\nOld text: {old}" if old else "") + (f"\n{note}" if note else "")
            yield Note("riftbound", name, None, CardRuling(date, text, "riftbound errata", True), new)


# -- keywords ------------------------------------------------------------------------------------------
# Magic's keyword abilities by name (Comprehensive Rules 702, 2026), for the formats that give a card's
# keywords no list of their own (MTGJSON v3, Scryfall objects before 2020); the keywords the loaded
# Scryfall and MTGJSON v5 data name are added to it (CardStore keeps them).
MTG_KEYWORDS = (
    "Deathtouch",
    "Defender",
    "Double Strike",
    "Enchant",
    "Equip",
    "First Strike",
    "Flash",
    "Flying",
    "Haste",
    "Hexproof",
    "Indestructible",
    "Intimidate",
    "Landwalk",
    "Lifelink",
    "Protection",
    "Reach",
    "Shroud",
    "Trample",
    "Vigilance",
    "Ward",
    "Banding",
    "Rampage",
    "Cumulative Upkeep",
    "Flanking",
    "Phasing",
    "Buyback",
    "Shadow",
    "Cycling",
    "Echo",
    "Horsemanship",
    "Fading",
    "Kicker",
    "Flashback",
    "Madness",
    "Fear",
    "Morph",
    "Amplify",
    "Provoke",
    "Storm",
    "Affinity",
    "Entwine",
    "Modular",
    "Sunburst",
    "Bushido",
    "Soulshift",
    "Splice",
    "Offering",
    "Ninjutsu",
    "Epic",
    "Convoke",
    "Dredge",
    "Transmute",
    "Bloodthirst",
    "Haunt",
    "Replicate",
    "Forecast",
    "Graft",
    "Recover",
    "Ripple",
    "Split Second",
    "Suspend",
    "Vanishing",
    "Absorb",
    "Aura Swap",
    "Delve",
    "Fortify",
    "Frenzy",
    "Gravestorm",
    "Poisonous",
    "Transfigure",
    "Champion",
    "Changeling",
    "Evoke",
    "Hideaway",
    "Prowl",
    "Reinforce",
    "Conspire",
    "Persist",
    "Wither",
    "Retrace",
    "Devour",
    "Exalted",
    "Unearth",
    "Cascade",
    "Annihilator",
    "Level Up",
    "Rebound",
    "Umbra Armor",
    "Totem Armor",
    "Infect",
    "Battle Cry",
    "Living Weapon",
    "Undying",
    "Miracle",
    "Soulbond",
    "Overload",
    "Scavenge",
    "Unleash",
    "Cipher",
    "Evolve",
    "Extort",
    "Fuse",
    "Bestow",
    "Tribute",
    "Dethrone",
    "Hidden Agenda",
    "Outlast",
    "Prowess",
    "Dash",
    "Exploit",
    "Menace",
    "Renown",
    "Awaken",
    "Devoid",
    "Ingest",
    "Myriad",
    "Surge",
    "Skulk",
    "Emerge",
    "Escalate",
    "Melee",
    "Crew",
    "Fabricate",
    "Partner",
    "Undaunted",
    "Improvise",
    "Aftermath",
    "Embalm",
    "Eternalize",
    "Afflict",
    "Ascend",
    "Assist",
    "Jump-Start",
    "Mentor",
    "Afterlife",
    "Riot",
    "Spectacle",
    "Escape",
    "Companion",
    "Mutate",
    "Encore",
    "Boast",
    "Foretell",
    "Demonstrate",
    "Daybound",
    "Nightbound",
    "Disturb",
    "Decayed",
    "Cleave",
    "Training",
    "Compleated",
    "Reconfigure",
    "Blitz",
    "Casualty",
    "Enlist",
    "Read Ahead",
    "Ravenous",
    "Squad",
    "Space Sculptor",
    "Visit",
    "Prototype",
    "Living Metal",
    "More Than Meets the Eye",
    "For Mirrodin!",
    "Toxic",
    "Backup",
    "Bargain",
    "Craft",
    "Disguise",
    "Solved",
    "Plot",
    "Saddle",
    "Spree",
    "Freerunning",
    "Gift",
    "Offspring",
    "Impending",
    "Exhaust",
    "Max Speed",
    "Start Your Engines!",
    "Harmonize",
    "Mobilize",
    "Job Select",
    "Tiered",
    "Station",
    "Warp",
    "Mayhem",
    "Web-slinging",
    "Firebending",
    "Sneak",
)
# Keywords whose name is followed by words of its own ("Enchant creature", "Affinity for artifacts").
_TAKES_WORDS = {
    "enchant",
    "affinity",
    "splice",
    "protection",
    "hexproof",
    "partner",
    "champion",
    "offering",
    "landwalk",
    "banding",
    "cumulative upkeep",
    "equip",
    "reinforce",
    "transmute",
    "forecast",
}
_PARAMETER = re.compile(
    r"^(?:[—–-]\s*.+|[\dX]+(?:\s*[—–-]\s*.+)?|(?:[\dX]+\s*)?(?:\{[^}]+\}\s*)+(?:[—–-].*)?"
    r"|from .+|with .+)$",
    re.I,
)
_REMINDER = re.compile(r"\s*\([^()]*\)")


_FIRST_WORD = re.compile(r"[^\s—–{]+")


def keyword_table(known: Iterable[str]) -> dict[str, list[tuple[str, str]]]:
    """Every keyword by its first word (lower case): ``[(lower-case name, name as printed)]``, longest first."""
    names = {k.lower(): k for k in MTG_KEYWORDS}
    for k in known:
        if k and k.lower() not in names:
            names[k.lower()] = k
    table: dict[str, list[tuple[str, str]]] = {}
    for low, printed in sorted(names.items(), key=lambda kv: -len(kv[0])):
        m = _FIRST_WORD.match(low)
        if m:
            table.setdefault(m.group(0), []).append((low, printed))
    return table


_DEFAULT_TABLE = keyword_table(())


def mtg_keywords(
    text: str, known: Iterable[str] | None = None, table: dict[str, list[tuple[str, str]]] | None = None
) -> tuple[str, ...]:
    """A Magic card's keywords, from its keyword lines only: a line (reminder text aside) made of
    keyword abilities and their costs or words, separated by commas or semicolons ("Flying, vigilance",
    "Equip {2}", "Protection from red", "Swampwalk"); never a keyword a sentence merely mentions."""
    table = table or (keyword_table(known) if known else _DEFAULT_TABLE)
    out: list[str] = []
    for line in text.split("\n"):
        if "(" in line:
            line = _REMINDER.sub("", line)
        line = line.strip()
        if not line or len(line) > 120 or (line.endswith(".") and "—" not in line and "–" not in line):
            continue  # a sentence
        found: list[str] = []
        for item in re.split(r"[,;]\s*", line):
            keyword = _keyword_item(item.strip(), table)
            if keyword is None:
                found = []
                break
            found.append(keyword)
        for k in found:
            if k not in out:
                out.append(k)
    return tuple(out)


def _keyword_item(item: str, table: dict[str, list[tuple[str, str]]]) -> str | None:
    low = item.lower()
    first = _FIRST_WORD.match(low)
    if first is None:
        return None
    for name, printed in table.get(first.group(0), ()):
        if low == name:
            return printed
        if low.startswith(name) and low[len(name)] in " —–-":
            rest = item[len(name) :].strip()
            if _PARAMETER.match(rest) or (name in _TAKES_WORDS and re.fullmatch(r"[\w' ,{}/+-]+", rest)):
                return printed
    m = re.fullmatch(r"([a-z]+)(walk|cycling)(?:\s+(.*))?", low)  # Swampwalk, Islandcycling {2} (702.14, 702.29)
    if m and (not m.group(3) or _PARAMETER.match(m.group(3))):
        word = item.split()[0]
        return word[:1].upper() + word[1:].lower()
    return None


RIFTBOUND_KEYWORDS = (
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
    "Ambush",
    "Hunt",
    "Level",
    "Unique",
    "Backline",
)
_BRACKET = re.compile(r"\[([A-Za-z][A-Za-z'’ -]*?(?: (?:\d+|X))?)\]")
_NOT_KEYWORDS = {d.lower() for d in RIFTBOUND_DOMAINS} | {"a", "c", "m", "e", "s", "t", "x"}


def riftbound_keywords(text: str) -> tuple[str, ...]:
    """A Riftbound card's keywords: the words its text puts in brackets (``[Accelerate]``, ``[Assault
    2]``), reminder text aside, icons (``[1]``, ``[Fury]``, ``[A]``, ``[M]``) never; and a paragraph
    that opens with a keyword and its reminder but lost its brackets (``Action (Play on your turn ...)``,
    an erratum's)."""
    out: list[str] = []
    body = text
    while True:  # reminder text, nested parentheses too
        stripped = _REMINDER.sub("", body)
        if stripped == body:
            break
        body = stripped
    for m in _BRACKET.finditer(body):
        word = m.group(1).strip()
        if word.lower() in _NOT_KEYWORDS:
            continue
        if word.isupper() and len(word) > 1:
            word = word.capitalize()
        if word not in out:
            out.append(word)
    for paragraph in text.split("\n"):
        opens = re.match(r"([A-Z][A-Za-z-]+)( \d+)? \(", paragraph)
        if opens and opens.group(1) in RIFTBOUND_KEYWORDS:
            word = opens.group(1) + (opens.group(2) or "")
            if word not in out:
                out.append(word)
    return tuple(out)


# -- rulings ----------------------------------------------------------------------------------------
_QUOTES = str.maketrans({"’": "'", "‘": "'", "“": '"', "”": '"'})


def ruling_key(r: CardRuling) -> tuple[str | None, str]:
    """What makes two rulings one: the date and the text, curly quotes and spacing aside."""
    text = r.text.translate(_QUOTES)
    if "  " in text or "\n" in text or "\t" in text:
        text = " ".join(text.split())
    return r.date, text


def join_faces(texts: Iterable[str]) -> str:
    return FACE_SEPARATOR.join(texts)
