"""The library's folder, and a cheap answer to "is judge.db still up to date with its sources?".

:meth:`rulebook.library.Library.sync` answers that question exactly, by hashing every source file
(the seeds and each user book's stored copies) and comparing with what the database was built from;
that costs importing the whole build side (readers, YAML, ...) and reading every file, on every
command. A lookup instead compares a *stamp* first: the (inode, size, mtime, ctime) of every file the
answer depends on (the seeds folder, every file under ``books/``, rulebook's own code, which holds
the readers' and the schema's versions), the shipped data a build reads (:data:`BUILT_FROM_DATA`)
and of ``judge.db`` itself, as they were when a full check
last found the database up to date. Any difference, a file added, removed, edited or touched, and
the full check runs again (and, finding the database fresh, records a new stamp). ctime cannot be
set from user space and changes on every write or rename, so an edit that restores size and mtime is
still seen; files changed less than :data:`RACY_NS` before a check are not trusted to a stamp at all
(a file system's clock ticks coarsely; git's index has the same rule for the same reason).

Standard library only: this runs before every lookup.
"""

from __future__ import annotations

import json
import os
import sys
import time
from pathlib import Path

DB_NAME = "judge.db"
STAMP_NAME = ".judge.db.stamp"  # JSON; not ".judge-*", the prefix of the builds' temporary files
RACY_NS = 2_000_000_000  # a file changed this recently is checked again next time, not stamped

# The shipped data a book is built from (a folder ends with "/"): the meaning model and the remembered
# judges' questions stored with the vectors (the model record's sha256 and the memory's are part of
# every book's fingerprint), and the search vocabulary, whose irregular forms the stored stems were
# made with.
BUILT_FROM_DATA = ("meaning/", "search-synonyms.yaml")

_CODE = Path(__file__).resolve().parent  # rulebook/: readers' version, schema, fingerprints


def default_home() -> Path:
    """``$JUDGE_HOME``, else the platform's per-user data folder."""
    if os.environ.get("JUDGE_HOME"):
        return Path(os.environ["JUDGE_HOME"]).expanduser()
    if sys.platform == "win32":
        base = Path(os.environ.get("LOCALAPPDATA") or Path.home() / "AppData" / "Local")
    elif sys.platform == "darwin":
        base = Path.home() / "Library" / "Application Support"
    else:
        base = Path(os.environ.get("XDG_DATA_HOME") or Path.home() / ".local" / "share")
    return base / "rules-judge"


def _stat(path: Path | str) -> list[int] | None:
    try:
        st = os.stat(path)
    except OSError:
        return None
    return [st.st_ino, st.st_size, st.st_mtime_ns, st.st_ctime_ns]


def _files(folder: Path, prefix: str, out: dict[str, list[int] | None], depth: int = 0) -> None:
    try:
        entries = list(os.scandir(folder))
    except OSError:
        out[prefix] = None  # absent (or unreadable): recorded as such, so its appearance is a change
        return
    for entry in entries:
        if entry.name == "__pycache__":
            continue
        name = f"{prefix}/{entry.name}"
        if entry.is_dir():
            if depth > 0:
                _files(Path(entry.path), name, out, depth - 1)
        else:
            out[name] = _stat(entry.path)


def sources_snapshot(home: Path, seeds: Path | None, data: Path | None = None) -> dict[str, list[int] | None]:
    """The stat of every file judge.db is built from, or that decides how it is built."""
    out: dict[str, list[int] | None] = {}
    if seeds is not None:
        _files(Path(seeds), "seeds", out)
    if data is not None:  # the shipped data a build reads, not the scenarios and citation tables beside it
        for name in BUILT_FROM_DATA:
            if name.endswith("/"):
                _files(Path(data) / name, f"data/{name.rstrip('/')}", out)
            else:
                out[f"data/{name}"] = _stat(Path(data) / name)
    _files(home / "books", "books", out, depth=1)
    # The code that builds it: rulebook's modules, its readers and the search's (whose stemmer makes
    # the stored stems). The library rebuilds on a version number, not on any edit of the code;
    # counting every edit here only makes the check after one exact again.
    _files(_CODE, "code", out)
    _files(_CODE / "readers", "code/readers", out)
    _files(_CODE / "search", "code/search", out)
    return out


class Stamp:
    """The state of the sources and of judge.db, taken once; compared with the recorded stamp, and
    recorded after a full check found the database up to date."""

    def __init__(self, home: Path, seeds: Path | None, data: Path | None = None):
        self.home, self.seeds, self.data = Path(home), seeds, data
        self.db_path = self.home / DB_NAME
        self.taken = time.time_ns()
        self.db = _stat(self.db_path)
        self.sources = sources_snapshot(self.home, seeds, data)

    def _value(self) -> dict:
        return {
            "home": str(self.home),
            "seeds": str(self.seeds),
            "data": str(self.data),
            "db": self.db,
            "sources": self.sources,
        }

    def recorded(self) -> bool:
        """Whether a full check found judge.db up to date with exactly these files."""
        if self.db is None:
            return False
        try:
            stamp = json.loads((self.home / STAMP_NAME).read_text(encoding="utf-8"))
        except (OSError, ValueError):
            return False
        return stamp == self._value()

    def record(self) -> None:
        """Call after a full check that rebuilt nothing: records the stamp taken before it, unless
        judge.db was replaced meanwhile or a file is too recent to trust."""
        if self.db is None or _stat(self.db_path) != self.db:
            return
        recent = self.taken - RACY_NS
        if any(s is not None and (s[2] > recent or s[3] > recent) for s in [*self.sources.values(), self.db]):
            return
        target = self.home / STAMP_NAME
        tmp = target.with_name(f"{STAMP_NAME}.{os.getpid()}")
        try:
            tmp.write_text(json.dumps(self._value()), encoding="utf-8")
            os.replace(tmp, target)
        except OSError:  # a read-only home: every command does the full check, as before
            try:
                tmp.unlink()
            except OSError:
                pass
