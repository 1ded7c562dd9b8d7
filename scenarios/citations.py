"""Citation tables (``data/citations/<game>-<edition>.yaml``) turned into :class:`engine.core.Citations`,
with the game's rules timeline (``data/editions/<game>.yaml``).

The engine cites by meaning (``focus.passes_when_chain_empties``); the table of the book's edition
gives the numbers, and the rules applied are those in force at the edition's date (the timeline),
whichever table numbers them. A full book whose edition has no table of its own gets the tables
carried onto it (:mod:`rulebook.carry`: each key found in the book and checked to say its phrase, else
reported not located), once per book, kept in ``$JUDGE_HOME/cache/citations/``
(:func:`citations_for_book`).

Tables the judge wrote with ``judge citations --book ID --write`` (for an edition the package ships
no table for) live in ``$JUDGE_HOME/citations/`` and are found the same way; a shipped table wins for
its own edition. A written table names the table it was made from (``based_on``): a key the engine
learnt since (a newer package) is taken from that table, so an engine never meets a key it lacks.
"""

from __future__ import annotations

import hashlib
import json
import os
from datetime import date, timedelta
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING

import yaml

from engine.core import Citations, Timeline
from rulebook import games
from rulebook.carry import VERSION, Carried, Source, carry, decode
from rulebook.diff import read_rules
from rulebook.editions import edition_key
from rulebook.home import default_home
from rulebook.shipped import data_dir

if TYPE_CHECKING:
    from rulebook.store import Store


def shipped_folder(game: str) -> Path:
    """The folder of the game's shipped citation tables: its description's, else data/citations."""
    return games.get(game).citations or data_dir() / "citations"


def user_folder() -> Path:
    """Where ``judge citations --write`` puts the tables it writes: ``$JUDGE_HOME/citations``."""

    return default_home() / "citations"


def tables(game: str) -> dict[str, Path]:
    """Edition -> table file, for one game: the judge's own, then the shipped ones (which win)."""
    out = {}
    for folder in (user_folder(), shipped_folder(game)):
        for path in sorted(folder.glob(f"{game}-*.yaml")):
            out[path.stem[len(game) + 1 :]] = path
    return out


def shipped(game: str, edition: str) -> bool:
    return (shipped_folder(game) / f"{game}-{edition}.yaml").exists()


def read_table(game: str, edition: str) -> dict:
    """A table as written (``{"game", "edition", "citations": {key: {"rules", "phrase"}}}``), a written
    table completed from the table it was made from."""
    path = tables(game)[edition]
    raw = yaml.safe_load(path.read_text(encoding="utf-8"))
    base = raw.get("based_on")
    if base and str(base) != edition and str(base) in tables(game):
        raw["citations"] = {**read_table(game, str(base))["citations"], **raw["citations"]}
    return raw


def write_table(
    game: str, edition: str, citations: dict, based_on: str, book: str, signed: dict[str, str] | None = None
) -> Path:
    """Write the judge's table for ``edition`` under :func:`user_folder` (atomically) and return its path;
    ``signed``, the signatures of its rules (:func:`rulebook.carry.table_signatures`), beside it in
    ``signatures/``, so that it can be carried onto later editions as the shipped tables are."""

    folder = user_folder()
    folder.mkdir(parents=True, exist_ok=True)
    target = folder / f"{game}-{edition}.yaml"
    header = (
        f"# Citation keys of the {game} engine -> rule numbers of the {edition} edition, written by\n"
        f"# `judge citations --book {book} --write` on {date.today().isoformat()} from the {based_on} table:\n"
        f"# each key's rule followed through the diff of the two editions and checked to say its phrase.\n"
    )
    body = yaml.safe_dump(
        {"game": game, "edition": edition, "based_on": based_on, "citations": citations},
        allow_unicode=True,
        sort_keys=False,
    )
    if signed is not None:
        sigs = folder / "signatures" / f"{game}-{edition}.json"
        sigs.parent.mkdir(exist_ok=True)
        tmp = sigs.with_name(f".{sigs.name}.{os.getpid()}")
        tmp.write_text(
            json.dumps({"game": game, "edition": edition, "document": book, "rules": signed}, indent=1),
            encoding="utf-8",
        )
        os.replace(tmp, sigs)
    tmp = target.with_name(f".{target.name}.{os.getpid()}")
    tmp.write_text(header + body, encoding="utf-8")
    os.replace(tmp, target)
    _load.cache_clear()
    return target


@cache
def timeline(game: str) -> Timeline:
    """The game's rules that changed over time (``data/editions/<game>.yaml``)."""
    path = games.get(game).timeline or data_dir() / "editions" / f"{game}.yaml"
    if not path.exists():  # a game whose rules never changed over time
        return Timeline(game, (), {})
    return Timeline.from_data(yaml.safe_load(path.read_text(encoding="utf-8")))


def edition_date(game: str, edition: str | None) -> str | None:
    """The date of an edition's rules: its own (``2026-02-27``, ``Effective as of July 13, 2013``), else
    the date the timeline gives its version (``v1.2``), else None."""

    key = edition_key(edition)
    if key[0] == 2:
        written = f"{key[1]:04d}-{key[2]:02d}-{key[3]:02d}"
        try:
            date.fromisoformat(written)
        except ValueError:  # no such day ("2026-13-45", a damaged scenario): an edition of no known date
            return None
        return written
    if not edition:
        return None
    versions = timeline(game).versions
    if str(edition).strip() in versions:
        return versions[str(edition).strip()]
    if key[0] != 1 or not versions:
        return None
    # A version the timeline does not date (v1.1, v1.4): the date of the newest known version not after it
    # (its rules are at least those), or the day before the oldest (it came before them all).
    known = sorted(versions.items(), key=lambda kv: edition_key(kv[0]))
    older = [d for v, d in known if edition_key(v) <= key]
    if older:
        return max(older)

    return (date.fromisoformat(min(d for _, d in known)) - timedelta(days=1)).isoformat()


def load_citations(game: str, edition: str | None = None, date: str | None = None) -> Citations:
    """The table that serves ``edition`` (its own, else :func:`nearest_table`), applying the rules in force at ``date``
    (default: the edition's own date, else the table's)."""
    chosen = nearest_table(game, edition)
    when = date or edition_date(game, edition) or edition_date(game, chosen) or chosen
    return _load(game, chosen, when, None, None)


@cache
def _load(game: str, chosen: str, date: str, source: str | None, book: str | None) -> Citations:
    raw = read_table(game, chosen)
    return Citations(
        raw.get("game", game),
        str(raw.get("edition", chosen)),
        raw["citations"],
        timeline=timeline(game),
        date=date,
        source=source,
        book=book,
    )


def newest_date(game: str) -> str:
    """The newest rules the package knows: the latest date of a table or a change (a book that states no
    edition is explained with them, and ``judge load`` says so)."""
    dates = [d for d in (edition_date(game, e) for e in tables(game)) if d]
    dates += [d for c in timeline(game).changes for d in (c.since, c.until) if d]
    return max(dates)


def own_table(game: str, edition: str | None) -> str | None:
    """The table written for ``edition``: by its name, else by its date (Riftbound's ``v1.2`` table serves
    the v1.2 document, whose edition is recorded as its "Last Updated" date)."""
    if edition is None:
        return None
    if str(edition) in tables(game):
        return str(edition)
    when = edition_date(game, edition)
    same = [e for e in tables(game) if when and edition_date(game, e) == when]
    return same[0] if len(same) == 1 else None


def nearest_table(game: str, edition: str | None) -> str:
    """The table nearest ``edition`` in time, older or newer (the newest when the edition has no date)."""

    available = sorted(tables(game), key=edition_key)
    if not available:
        raise FileNotFoundError(f"no citation table for {game} in {shipped_folder(game)}")
    if edition in available:
        return edition
    when = edition_date(game, edition)
    if when is None:
        return available[-1]

    def distance(e: str) -> float:
        d = edition_date(game, e)
        if d is None:
            return float("inf")

        return abs((date.fromisoformat(d) - date.fromisoformat(when)).days)

    return min(reversed(available), key=distance)


def citations_for_book(
    store: Store, game: str, book_id: str, edition: str | None, date: str | None = None, progress=None
) -> Citations:
    """The citations an explanation on ``book_id`` (of ``edition``) uses, the rules in force at ``date``
    (default: the book's edition's date).

    The edition's own table when there is one; else, for a full book, the tables carried onto it
    (:func:`carried`: numbers the book's own, keys not found reported as not located); else (an excerpt)
    the nearest table's numbers, which :func:`verified_quotes` checks before any text is quoted."""
    when = date or edition_date(game, edition)
    own = own_table(game, edition)
    if own is not None:
        return _load(game, own, when or edition_date(game, own) or own, None, book_id)
    if (loaded := store.book(book_id)) is not None and not store.is_partial(book_id) and not loaded.builtin:
        moved = carried(store, game, book_id, edition, progress)
        return Citations(
            game,
            str(edition or book_id),
            moved.citations,
            timeline=timeline(game),
            date=when or newest_date(game),
            source=moved.table or "none",
            book=book_id,
        )
    chosen = nearest_table(game, edition)
    return _load(game, chosen, when or edition_date(game, chosen) or chosen, chosen, book_id)


def signatures(game: str, edition: str) -> dict[str, frozenset[int]]:
    """The signatures of a table's rules (``data/citations/signatures/<game>-<edition>.json``, or beside
    a judge's own table), empty when the table has none."""

    out: dict[str, frozenset[int]] = {}
    base = (
        yaml.safe_load(tables(game)[edition].read_text(encoding="utf-8")).get("based_on")
        if edition in tables(game)
        else None
    )
    if base and str(base) != edition and str(base) in tables(game):
        out.update(signatures(game, str(base)))
    for folder in (shipped_folder(game) / "signatures", user_folder() / "signatures"):
        path = folder / f"{game}-{edition}.json"
        if path.exists():
            out.update({n: decode(h) for n, h in json.loads(path.read_text(encoding="utf-8"))["rules"].items()})
            break
    return out


def _tables_digest(game: str) -> str:
    """What a carrying depends on besides the book: every table of the game and its signatures, and the
    carrying's version."""

    h = hashlib.sha256(f"carry {VERSION}".encode())
    for edition, path in sorted(tables(game).items()):
        h.update(edition.encode() + b"\0" + path.read_bytes())
        for folder in (shipped_folder(game) / "signatures", user_folder() / "signatures"):
            sig = folder / f"{game}-{edition}.json"
            if sig.exists():
                h.update(sig.read_bytes())
    return h.hexdigest()


def carried(store: Store, game: str, book_id: str, edition: str | None, progress=None):
    """The tables carried onto a full book (:func:`rulebook.carry.carry`), computed once per book and
    kept in ``$JUDGE_HOME/cache/citations/<book>.json`` until the book or a table changes."""

    stamp = f"{store.fingerprint(book_id)} {_tables_digest(game)}"
    path = default_home() / "cache" / "citations" / f"{book_id}.json"
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
        if data.get("stamp") == stamp:
            return Carried.from_json(data["carried"])
    except (OSError, ValueError, KeyError):
        pass
    if progress is not None:
        progress(f"placing the engine's citations in {book_id} (once for this book)")
    result = carry_onto(store, game, book_id, edition)
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(f".{path.name}.{os.getpid()}")
    tmp.write_text(json.dumps({"stamp": stamp, "carried": result.to_json()}, ensure_ascii=False), encoding="utf-8")
    os.replace(tmp, path)
    return result


def carry_onto(store: Store, game: str, book_id: str, edition: str | None):
    """Carry every table of ``game`` onto ``book_id`` (no cache)."""

    sources = [Source(e, read_table(game, e)["citations"], signatures(game, e)) for e in tables(game)]
    rulings = store.game_ruling_ids(game)
    return carry(game, book_id, edition, read_rules(store, book_id), sources, rulings)
