"""Where the shipped files are: ``seeds/`` and ``data/`` from a checkout, or inside an installed wheel."""

from __future__ import annotations

import importlib
from functools import cache
from pathlib import Path


@cache
def _folder(name: str) -> Path:
    # The package's own folder, as importlib.resources.files() would give for a folder on disk
    # (a wheel installs these as plain folders), without importing importlib.resources on every lookup.
    try:
        for folder in getattr(importlib.import_module(f"judge._{name}"), "__path__", ()):
            if Path(folder).is_dir():
                return Path(folder)
    except ModuleNotFoundError:
        pass
    # Running from a source checkout (tests, editable installs): the top-level folder.
    return Path(__file__).resolve().parent.parent / name


def seeds_dir() -> Path:
    return _folder("seeds")


def data_dir() -> Path:
    return _folder("data")
