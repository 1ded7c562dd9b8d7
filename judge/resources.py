"""Where the shipped files are: ``seeds/`` and ``data/`` from a checkout, or inside an installed wheel."""

from __future__ import annotations

from functools import cache
from importlib import resources
from pathlib import Path


@cache
def _folder(name: str) -> Path:
    try:
        packaged = Path(str(resources.files(f"judge._{name}")))
        if packaged.is_dir():
            return packaged
    except ModuleNotFoundError:
        pass
    # Running from a source checkout (tests, editable installs): the top-level folder.
    return Path(__file__).resolve().parent.parent / name


def seeds_dir() -> Path:
    return _folder("seeds")


def data_dir() -> Path:
    return _folder("data")
