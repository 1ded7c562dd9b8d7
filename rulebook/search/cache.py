"""What every search reads, found and kept cheaply: each ``judge search`` is a new process.

- ``shipped``: a file of the shipped data folder (:func:`rulebook.shipped.data_file`).
- :func:`folder` and :func:`keep`: ``$JUDGE_HOME/cache/``, where a search keeps what it would
  otherwise parse again in every process (the English word list as an indexed SQLite table rather
  than a compressed JSON file). Each cached file records
  what it was made from and is made again when that changes; without a writable folder nothing is
  kept and the sources are read as before, so the cache changes how fast a search is, never what it
  finds.
"""

from __future__ import annotations

import os
from pathlib import Path

from rulebook.home import default_home
from rulebook.shipped import data_file as shipped  # noqa: F401  (the search stages call it so)

CACHE = "cache"  # under $JUDGE_HOME


def folder() -> Path:
    """``$JUDGE_HOME/cache`` (the folder is made when something is kept)."""

    return default_home() / CACHE


def keep(path: Path, data: bytes) -> bool:
    """Write ``data`` to ``path`` through a temporary file, so a reader never sees half of it; False
    (and nothing written) when the folder cannot be written."""
    tmp = path.with_name(f".{path.name}.{os.getpid()}")
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp.write_bytes(data)
        os.replace(tmp, path)
        return True
    except OSError:
        try:
            tmp.unlink()
        except OSError:
            pass
        return False
