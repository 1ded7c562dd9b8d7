"""Where a rule is applied: the citation keys of the engine's table that cite it (or a rule under it),
where the engine's code names each key, and the shipped scenarios whose explanation cites one of them
(``judge rule NUMBER --applied``; issue 22, part 8).

Which keys a scenario uses is learnt by playing it (:func:`scenario_keys`: about a second for a game's
scenarios), so the map scenario -> keys is kept in ``$JUDGE_HOME/cache/applied/scenarios/``, one file per
game and citation table (:func:`table_digest`: its numbers and the rules in force at its date), stamped
with a digest of what the map is made from (:func:`inputs_digest`: the game's shipped scenarios, the
seeds manifest, the engine's code and this package's, which stand for the package version and see a
checkout's edits too). A book's table is kept too (``cache/applied/books/<book>.json``, stamped like the
tables carried onto a book: :func:`book_stamp`), as reading a table's YAML costs more than the lookup.
A stale or absent file is made again. Where a key is used in the engine is read from the engine's
source at each call (:func:`engine_uses`: a few files, nothing to go stale).

>>> covers("702.19b", "702.19", "mtg"), covers("702.19", "702.19b", "mtg"), covers("702.190", "702.19", "mtg")
(True, False, False)
>>> covers("312.1.b", "312", "riftbound"), covers("312.1.b", "300", "riftbound")
(True, True)
"""

from __future__ import annotations

import hashlib
import json
import re
from bisect import bisect_right
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import engine
from engine.core import Citation, Citations
from rulebook import numbers
from rulebook.home import default_home
from rulebook.search.cache import keep
from rulebook.shipped import data_dir, seeds_dir
from scenarios.citations import citations_for_book, edition_date, load_citations, tables
from scenarios.explain import builtin_edition, explain, used_keys
from scenarios.scenario import load_scenario

FORMAT = 1  # of the cache files; a change makes them again

_PACKAGE = Path(__file__).resolve().parent
_KEY_CHAR = re.compile(r"[\w.]")
_QUOTES = ("'", '"')
_DOTTED = re.compile(r"[A-Za-z_]\w*(?:\.\w+)+")
_RULEBOOK = Path(numbers.__file__).resolve().parent


@dataclass(frozen=True, slots=True)
class AppliedKey:
    """A citation key that cites the rule (or a rule under it): its rules in the book and its phrase,
    and where the engine's code names it (``engine/mtg/combat.py:237``)."""

    key: str
    phrase: str
    rules: tuple[str, ...]
    used_in: tuple[str, ...]

    def to_json(self) -> dict[str, Any]:
        return {"key": self.key, "phrase": self.phrase, "rules": list(self.rules), "used_in": list(self.used_in)}


@dataclass(frozen=True, slots=True)
class Applied:
    """What applies a rule of a book: the keys of the table the book is explained with (``table``: its
    edition) and the shipped scenarios (``mtg/trample-over-chump-blocker.yaml``) that cite one of them."""

    rule: str
    game: str
    table: str
    keys: tuple[AppliedKey, ...]
    scenarios: tuple[str, ...]

    def __bool__(self) -> bool:
        return bool(self.keys)

    def to_json(self) -> dict[str, Any]:
        return {"applied": [k.to_json() for k in self.keys], "scenarios": list(self.scenarios)}


def covers(cited: str, number: str, game: str) -> bool:
    """``cited`` is rule ``number`` or a rule under it, by numbering."""
    target = numbers.printed(number)
    n: str | None = numbers.printed(cited)
    while n:
        if n == target:
            return True
        n = numbers.parent(n, game)
    return False


def keys_citing(citations: Iterable[Citation], number: str, game: str) -> list[Citation]:
    """The table's keys with a rule that is ``number`` or under it, in rule order (then by key)."""
    found = []
    for c in citations:
        mine = [r for r in c.rules if covers(r, number, game)]
        if mine:
            found.append((min(numbers.sort_key(r) for r in mine), c.key, c))
    return [c for _, _, c in sorted(found, key=lambda t: (t[0], t[1]))]


def has_engine(game: str) -> bool:
    """Whether the game has citation tables (shipped, or written by the judge), so an engine applies its rules."""
    return bool(tables(game))


@dataclass(frozen=True, slots=True)
class Table:
    """What a citation table says about where rules are applied: each key's rules and phrase, with the
    table's edition and :func:`table_digest` (which names its scenario map in the cache)."""

    game: str
    edition: str
    digest: str
    keys: tuple[Citation, ...]

    @classmethod
    def of(cls, citations: Citations) -> Table:
        return cls(citations.game, citations.edition, table_digest(citations), tuple(citations))

    def to_json(self) -> dict[str, Any]:
        return {
            "game": self.game,
            "edition": self.edition,
            "digest": self.digest,
            "keys": [[c.key, list(c.rules), c.phrase] for c in self.keys],
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Table:
        return cls(
            data["game"],
            data["edition"],
            data["digest"],
            tuple(Citation(k, tuple(rules), phrase) for k, rules, phrase in data["keys"]),
        )


def applied(game: str, citations: Citations, number: str, *, progress: Callable[[str], None] | None = None) -> Applied:
    """The keys of ``citations`` (the table a book is explained with:
    :func:`scenarios.citations.citations_for_book`) citing rule ``number`` or a rule under it, each with
    its phrase and where the engine's code names it, and the shipped scenarios of ``game`` whose
    explanation cites one of them (the map kept in the cache, :func:`scenario_map`). ``progress`` is told
    when the map is made (a second or two)."""
    return _applied(game, Table.of(citations), number, lambda: citations, progress)


def book_applied(store, book_id: str, number: str, *, progress: Callable[[str], None] | None = None) -> Applied | None:
    """:func:`applied` for rule ``number`` of a loaded book, with the table ``judge explain`` cites on it
    (:func:`book_table`); None when the book's game has no engine table."""
    book = store.book(book_id)
    if book is None or not has_engine(book.game):
        return None
    table, make = book_table(store, book, progress)
    return _applied(book.game, table, number, make, progress)


def _applied(
    game: str, table: Table, number: str, make: Callable[[], Citations], progress: Callable[[str], None] | None
) -> Applied:
    keys = keys_citing(table.keys, number, game)
    if not keys:
        return Applied(number, game, table.edition, (), ())
    places = engine_uses(game, [c.key for c in keys])
    applying = {c.key for c in keys}
    played = scenario_map(game, table, make, progress)
    scenarios = tuple(name for name, used in sorted(played.items()) if applying.intersection(used))
    return Applied(
        number,
        game,
        table.edition,
        tuple(AppliedKey(c.key, c.phrase, c.rules, tuple(places.get(c.key, ()))) for c in keys),
        scenarios,
    )


def book_table(store, book, progress: Callable[[str], None] | None = None) -> tuple[Table, Callable[[], Citations]]:
    """The :class:`Table` of the citations ``judge explain`` cites on ``book``
    (:func:`scenarios.citations.citations_for_book`), and a function giving those citations (made once).
    Kept in ``$JUDGE_HOME/cache/applied/books/<book>.json``: reading a table's YAML costs 50-100 ms."""
    made: list[Citations] = []

    def make() -> Citations:
        if not made:
            made.append(citations_for_book(store, book.game, book.id, book.edition, progress=progress))
        return made[0]

    path, stamp = default_home() / "cache" / "applied" / "books" / f"{book.id}.json", book_stamp(store, book)
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
        if data.get("stamp") == stamp:
            return Table.from_json(data["table"]), make
    except (OSError, ValueError, KeyError, TypeError):
        pass
    table = Table.of(make())
    _write(path, {"stamp": stamp, "book": book.id, "table": table.to_json()})
    return table, make


def book_stamp(store, book) -> str:
    """What the citations of a book are made from: the book (its edition, whether an excerpt, what it was
    built from: a table carried onto it reads its rules), every table of its game with its signatures
    (shipped, and the judge's own), the game's rules timeline, and the code that reads and carries them."""
    h = hashlib.sha256(
        json.dumps(
            [
                FORMAT,
                book.id,
                book.game,
                book.edition,
                bool(book.builtin),
                store.is_partial(book.id),
                store.fingerprint(book.id),
            ]
        ).encode()
    )
    files = [
        data_dir() / "editions" / f"{book.game}.yaml",
        _PACKAGE / "citations.py",
        _RULEBOOK / "carry.py",
        Path(next(iter(engine.__path__))) / "core.py",
    ]
    for edition, table in sorted(tables(book.game).items()):
        files += [
            table,
            table.parent / "signatures" / f"{book.game}-{edition}.json",
            data_dir() / "citations" / "signatures" / f"{book.game}-{edition}.json",
        ]
    _digest(h, files)
    return h.hexdigest()


# Where the engine names a key -------------------------------------------------------------------------


def engine_folder(game: str) -> Path:
    """The game's engine package (``engine/<game>``), wherever ``engine`` is installed."""
    return Path(next(iter(engine.__path__))) / game


def engine_uses(game: str, keys: Iterable[str]) -> dict[str, list[str]]:
    """Where each key is named in the engine's code, as ``engine/<game>/<file>.py:<line>``: a string
    literal that begins or ends with it (``"combat.trample"``, ``"sba.aura keyword.protection_enchant"``),
    else, for a key the code builds (``f"type.{kind}"``), the f-string that builds keys of its prefix."""
    wanted = list(dict.fromkeys(keys))
    out: dict[str, list[str]] = {k: [] for k in wanted}
    if not wanted:
        return out
    folder = engine_folder(game)
    # A few keys: found by their own words (a few ms); many (a section's): every dotted name is read once.
    literal = (
        re.compile("|".join(map(re.escape, sorted(wanted, key=len, reverse=True)))) if len(wanted) <= 40 else _DOTTED
    )
    built = re.compile(r"""f["']([a-z_][\w.]*\.)\{""")
    prefixes: dict[str, list[str]] = {}
    for path in sorted(folder.glob("*.py")):
        where, text = f"engine/{game}/{path.name}", path.read_text(encoding="utf-8")
        starts = [0, *(m.end() for m in re.finditer("\n", text))]
        for m in literal.finditer(text):
            before, after = text[m.start() - 1 : m.start()], text[m.end() : m.end() + 1]
            if _KEY_CHAR.match(before) or _KEY_CHAR.match(after) or not (before in _QUOTES or after in _QUOTES):
                continue  # part of a longer name, or not at an end of a string literal
            place = f"{where}:{bisect_right(starts, m.start())}"
            if m.group() in out and place not in out[m.group()]:
                out[m.group()].append(place)
        for m in built.finditer(text):
            if not _KEY_CHAR.match(text[m.start() - 1 : m.start()]):
                prefixes.setdefault(m.group(1), []).append(f"{where}:{bisect_right(starts, m.start())}")
    for key, places in out.items():
        if not places:
            places.extend(p for prefix, found in prefixes.items() if key.startswith(prefix) for p in found)
    return out


# Which keys each shipped scenario uses -------------------------------------------------------------------


def scenario_files(game: str) -> list[Path]:
    return sorted((data_dir() / "scenarios" / game).glob("*.yaml"))


def scenario_keys(game: str, citations: Citations) -> tuple[dict[str, list[str]], dict[str, str]]:
    """Play every shipped scenario of ``game`` as ``judge explain`` plays it on a book explained with
    ``citations``: under its own edition's table when it names an edition (``edition:``, or a built-in
    book's in ``book:``) other than the table's, else under ``citations``. Returns the keys each one's
    explanation cites (``{"mtg/trample-over-chump-blocker.yaml": [...]}``) and, for a scenario that
    cannot be played so, why."""
    keys: dict[str, list[str]] = {}
    unplayed: dict[str, str] = {}
    for path in scenario_files(game):
        name = f"{game}/{path.name}"
        try:
            scenario = load_scenario(path)
            own = scenario.data.get("edition") or (builtin_edition(scenario.book) if scenario.book else None)
            table = citations
            if own is not None and str(own) != citations.edition and edition_date(game, str(own)) != citations.date:
                table = load_citations(game, str(own))
            told = explain(scenario, citations=table, check=False)
        except Exception as exc:  # noqa: BLE001 - a scenario this table cannot play exercises none of its rules
            unplayed[name] = str(exc).splitlines()[0] if str(exc) else type(exc).__name__
            continue
        keys[name] = used_keys(told.opening, told.steps)
    return keys, unplayed


def table_digest(citations: Citations) -> str:
    """What a scenario's keys depend on in the table: its numbers (keys, rules, phrases) and the rules in
    force at its date."""
    body = {
        "game": citations.game,
        "edition": citations.edition,
        "date": citations.date,
        "source": citations.source,
        "in_force": sorted(citations.in_force),
        "keys": sorted((c.key, list(c.rules), c.phrase) for c in citations),
    }
    return hashlib.sha256(json.dumps(body, ensure_ascii=False).encode()).hexdigest()


def inputs_digest(game: str) -> str:
    """A digest of what the scenario map of ``game`` is made from besides the table: its shipped
    scenarios, the seeds manifest (a built-in book's edition), the engine's code and this package's."""
    h = hashlib.sha256(f"applied {FORMAT} {game}".encode())
    root = Path(next(iter(engine.__path__)))
    _digest(
        h,
        [
            *scenario_files(game),
            seeds_dir() / "manifest.yaml",
            *sorted(root.glob("*.py")),
            *sorted(engine_folder(game).glob("*.py")),
            *sorted(_PACKAGE.glob("*.py")),
        ],
    )
    return h.hexdigest()


def scenario_map(
    game: str, table: Table, make: Callable[[], Citations], progress: Callable[[str], None] | None = None
) -> Mapping[str, list[str]]:
    """The keys each shipped scenario of ``game`` cites under ``table`` (:func:`scenario_keys`, played
    with the citations ``make()`` gives), kept in ``$JUDGE_HOME/cache/applied/scenarios/`` until a
    scenario, the engine or this package changes."""
    path = default_home() / "cache" / "applied" / "scenarios" / f"{game}-{table.digest[:20]}.json"
    stamp = inputs_digest(game)
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
        if data.get("stamp") == stamp:
            return data["scenarios"]
    except (OSError, ValueError, KeyError, TypeError):
        pass
    if progress is not None:
        progress(
            f"playing the shipped {game} scenarios to see which rules they apply (once for the {table.edition} table)"
        )
    citations = make()
    keys, unplayed = scenario_keys(game, citations)
    _write(
        path,
        {
            "stamp": stamp,
            "game": game,
            "table": citations.edition,
            "date": citations.date,
            "scenarios": keys,
            "unplayed": unplayed,
        },
    )
    return keys


def _digest(h, files: Iterable[Path]) -> None:
    for path in files:
        h.update(path.name.encode() + b"\0")
        try:
            h.update(path.read_bytes())
        except OSError:
            h.update(b"\1absent")


def _write(path: Path, data: Mapping[str, Any]) -> None:
    """Keep a cache file whole (:func:`rulebook.search.cache.keep`); one that cannot be written is made
    again next time."""
    keep(path, json.dumps(data, ensure_ascii=False).encode("utf-8"))
