"""Citation tables (``data/citations/<game>-<edition>.yaml``) turned into :class:`engine.core.Citations`.

The engine cites by meaning (``focus.passes_when_chain_empties``); the table of the book's edition
gives the numbers. A book whose edition has no table of its own uses the newest table not newer than
the book (or the oldest one), and says so.

Tables the judge wrote with ``judge citations --book ID --write`` (for an edition the package ships
no table for) live in ``$JUDGE_HOME/citations/`` and are found the same way; a shipped table wins for
its own edition. A written table names the table it was made from (``based_on``): a key the engine
learnt since (a newer package) is taken from that table, so an engine never meets a key it lacks.
"""

from __future__ import annotations

from functools import cache
from pathlib import Path

import yaml

from engine.core import Citations
from judge.resources import data_dir


def user_folder() -> Path:
    """Where ``judge citations --write`` puts the tables it writes: ``$JUDGE_HOME/citations``."""
    from rulebook.home import default_home

    return default_home() / "citations"


def tables(game: str) -> dict[str, Path]:
    """Edition -> table file, for one game: the judge's own, then the shipped ones (which win)."""
    out = {}
    for folder in (user_folder(), data_dir() / "citations"):
        for path in sorted(folder.glob(f"{game}-*.yaml")):
            out[path.stem[len(game) + 1:]] = path
    return out


def shipped(game: str, edition: str) -> bool:
    return (data_dir() / "citations" / f"{game}-{edition}.yaml").exists()


def pick_edition(game: str, edition: str | None) -> str:
    """The edition whose table serves a book of ``edition``: its own, else the newest older one."""
    from rulebook.editions import edition_key

    available = sorted(tables(game), key=edition_key)
    if not available:
        raise FileNotFoundError(f"no citation table for {game} in {data_dir() / 'citations'}")
    if edition in available or len(available) == 1:
        return edition if edition in available else available[0]
    older = [e for e in available if edition and edition_key(e) <= edition_key(edition)]
    return older[-1] if older else available[-1]


def read_table(game: str, edition: str) -> dict:
    """A table as written (``{"game", "edition", "citations": {key: {"rules", "phrase"}}}``), a written
    table completed from the table it was made from."""
    path = tables(game)[edition]
    raw = yaml.safe_load(path.read_text(encoding="utf-8"))
    base = raw.get("based_on")
    if base and str(base) != edition and str(base) in tables(game):
        raw["citations"] = {**read_table(game, str(base))["citations"], **raw["citations"]}
    return raw


def write_table(game: str, edition: str, citations: dict, based_on: str, book: str) -> Path:
    """Write the judge's table for ``edition`` under :func:`user_folder` (atomically) and return its path."""
    import os
    from datetime import date

    folder = user_folder()
    folder.mkdir(parents=True, exist_ok=True)
    target = folder / f"{game}-{edition}.yaml"
    header = (f"# Citation keys of the {game} engine -> rule numbers of the {edition} edition, written by\n"
              f"# `judge citations --book {book} --write` on {date.today().isoformat()} from the {based_on} table:\n"
              f"# each key's rule followed through the diff of the two editions and checked to say its phrase.\n")
    body = yaml.safe_dump({"game": game, "edition": edition, "based_on": based_on, "citations": citations},
                          allow_unicode=True, sort_keys=False)
    tmp = target.with_name(f".{target.name}.{os.getpid()}")
    tmp.write_text(header + body, encoding="utf-8")
    os.replace(tmp, target)
    _load.cache_clear()
    return target


def load_citations(game: str, edition: str | None = None) -> Citations:
    return _load(game, pick_edition(game, edition))


@cache
def _load(game: str, chosen: str) -> Citations:
    raw = read_table(game, chosen)
    return Citations(raw.get("game", game), str(raw.get("edition", chosen)), raw["citations"])
