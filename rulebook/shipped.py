"""Files of the shipped data folder (``data/`` in a checkout, package ``judge._data`` in a wheel).

rulebook does not import judge; this resolves the folder the same way judge.resources does.
"""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path


def data_file(name: str) -> Path:
    """The shipped file ``name`` (a path under data/): the installed package ``judge._data``'s copy,
    else the checkout's. Found through the package's ``__path__`` rather than importlib.resources,
    which imports tempfile, shutil and zipfile: about 10 ms of every search."""
    import importlib

    try:
        package = importlib.import_module("judge._data")
    except ModuleNotFoundError:
        package = None
    for found in getattr(package, "__path__", ()):
        path = Path(found) / name
        if path.is_file():
            return path
    return Path(__file__).resolve().parent.parent / "data" / name


@cache
def meaning_model() -> str:
    """The shipped meaning model's sha256 as its record gives it ("" without one): part of every book's
    fingerprint, so a new model rebuilds the stored vectors. Read without NumPy, for every command."""
    try:
        return str(json.loads(data_file("meaning/static-model.json").read_text(encoding="utf-8"))["sha256"])
    except (OSError, ValueError, KeyError, TypeError):
        return ""


class ModelUnavailable(Exception):
    """The meaning model cannot be used (NumPy missing, files absent or not as recorded): search then
    ranks by words alone and says why. Here, with the shipped files and not in :mod:`rulebook.semantic`
    or :mod:`rulebook.model`, so code that only handles it imports neither NumPy nor the model's
    dataclasses (re-exported by :mod:`rulebook.model`)."""
