"""Citation tables (``data/citations/<game>-<edition>.yaml``) turned into :class:`engine.core.Citations`.

The engine cites by meaning (``focus.passes_when_chain_empties``); the table of the book's edition
gives the numbers. A book whose edition has no table of its own uses the newest table not newer than
the book (or the oldest one), and says so.
"""

from __future__ import annotations

from functools import cache
from pathlib import Path

import yaml

from engine.core import Citations
from judge.resources import data_dir


def tables(game: str) -> dict[str, Path]:
    """Edition -> table file, for one game."""
    folder = data_dir() / "citations"
    out = {}
    for path in sorted(folder.glob(f"{game}-*.yaml")):
        out[path.stem[len(game) + 1:]] = path
    return out


def pick_edition(game: str, edition: str | None) -> str:
    """The edition whose table serves a book of ``edition``: its own, else the newest older one."""
    available = sorted(tables(game))
    if not available:
        raise FileNotFoundError(f"no citation table for {game} in {data_dir() / 'citations'}")
    if edition in available or len(available) == 1:
        return edition if edition in available else available[0]
    older = [e for e in available if edition and e <= edition]
    return older[-1] if older else available[-1]


def load_citations(game: str, edition: str | None = None) -> Citations:
    return _load(game, pick_edition(game, edition))


@cache
def _load(game: str, chosen: str) -> Citations:
    path = tables(game)[chosen]
    raw = yaml.safe_load(path.read_text(encoding="utf-8"))
    return Citations(raw.get("game", game), str(raw.get("edition", chosen)), raw["citations"])
