"""Files of the shipped data folder (``data/`` in a checkout, package ``judge._data`` in a wheel).

rulebook does not import judge; this resolves the folder the same way judge.resources does.
"""

from __future__ import annotations

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
