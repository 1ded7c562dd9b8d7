"""The files the project ships besides code: ``seeds/`` (the seed books) and ``data/`` (citation tables,
scenarios, the meaning model, search tables).

In a checkout they are the top-level folders; a wheel installs them as the packages ``rules_judge_seeds``
and ``rules_judge_data`` (pyproject.toml), names no code package owns, so that the rule books, the
scenarios and the command line all reach them here and none reaches into another's package.
"""

from __future__ import annotations

import importlib
import json
from functools import cache
from pathlib import Path

_CHECKOUT = Path(__file__).resolve().parent.parent


@cache
def _folder(name: str) -> Path:
    # The installed package's folder, found through its __path__ (importlib.resources would import
    # tempfile, shutil and zipfile: about 10 ms of every search); else the checkout's top-level folder.
    try:
        for folder in getattr(importlib.import_module(f"rules_judge_{name}"), "__path__", ()):
            if Path(folder).is_dir():
                return Path(folder)
    except ModuleNotFoundError:
        pass
    return _CHECKOUT / name


def seeds_dir() -> Path:
    """The seed books and their manifest (``seeds/``)."""
    return _folder("seeds")


def data_dir() -> Path:
    """The shipped data (``data/``)."""
    return _folder("data")


def data_file(name: str) -> Path:
    """The shipped file ``name`` (a path under data/)."""
    return data_dir() / name


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
