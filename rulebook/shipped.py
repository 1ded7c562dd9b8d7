"""Files of the shipped data folder (``data/`` in a checkout, package ``judge._data`` in a wheel).

rulebook does not import judge; this resolves the folder the same way judge.resources does.
"""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path


def data_file(name: str) -> Path:
    """The shipped file ``name`` (a path under data/): the installed wheel's copy, else the checkout's."""
    try:
        from importlib import resources

        packaged = Path(str(resources.files("judge._data"))) / name
        if packaged.is_file():
            return packaged
    except (ModuleNotFoundError, TypeError):
        pass
    return Path(__file__).resolve().parent.parent / "data" / name


@cache
def meaning_model() -> str:
    """The shipped meaning model's sha256 as its record gives it ("" without one): part of every book's
    fingerprint, so a new model rebuilds the stored vectors. Read without NumPy, for every command."""
    try:
        return str(json.loads(data_file("meaning/static-model.json").read_text(encoding="utf-8"))["sha256"])
    except (OSError, ValueError, KeyError, TypeError):
        return ""
