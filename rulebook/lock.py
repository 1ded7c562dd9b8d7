"""One writer at a time in a library folder: loads, unloads and rebuilds of ``judge.db`` take
``$JUDGE_HOME/.lock``, waiting for each other (with a bounded wait) rather than interleaving.

Two ``judge load`` runs into one book id used to rename each other's folders away and delete the
book; two rebuilds could each replace ``judge.db`` with a copy lacking the other's book. With the
lock, the second waits until the first has finished, then does its work on what the first left.

The lock is the operating system's, so a holder that is interrupted, killed or crashes releases it
with its process and never blocks the library:

- ``flock`` (POSIX, :mod:`fcntl`) on ``.lock``;
- ``msvcrt.locking`` (Windows) on one byte of ``.lock``;
- elsewhere, or on a file system that refuses both, ``.lock.pid`` created exclusively (``O_EXCL``)
  and holding its creator's process id: a file whose process is gone is removed by the next writer.

Whoever holds the lock writes ``pid<TAB>action<TAB>book`` into ``.lock`` (or ``.lock.pid``), so a
writer that waits can say for whom.

>>> import tempfile
>>> home = Path(tempfile.mkdtemp())
>>> with WriteLock(home, "load", "cr-2026"):
...     holder(home)[1:]
('load', 'cr-2026')
>>> holder(home) is None
True
"""

from __future__ import annotations

import errno
import os
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import TextIO

LOCK_NAME = ".lock"
PID_LOCK_NAME = ".lock.pid"  # the O_EXCL fallback's file
TIMEOUT = 300.0  # seconds a writer waits for another before giving up; $JUDGE_LOCK_TIMEOUT
NOTICE_AFTER = 1.0  # seconds of waiting before the waiter says why it waits
_POLL = 0.05
_STALE_EMPTY = 10.0  # seconds: an O_EXCL file left empty (its creator died writing it) counts as stale


class Busy(Exception):
    """The library stayed locked by another process for the whole wait; one line for the judge."""


def timeout() -> float:
    """How long a writer waits: ``$JUDGE_LOCK_TIMEOUT`` seconds, else :data:`TIMEOUT`."""
    try:
        return max(0.0, float(os.environ["JUDGE_LOCK_TIMEOUT"]))
    except (KeyError, ValueError):
        return TIMEOUT


def kind() -> str:
    """Which lock this platform offers: ``flock``, ``msvcrt`` or ``excl``."""
    try:
        import fcntl  # noqa: F401

        return "flock"
    except ImportError:
        pass
    try:
        import msvcrt  # noqa: F401

        return "msvcrt"
    except ImportError:
        return "excl"


def holder(home: Path) -> tuple[int, str, str] | None:
    """``(pid, action, book)`` of the process holding the lock of ``home``, when it says so."""
    for name in (PID_LOCK_NAME, LOCK_NAME):  # the O_EXCL file exists only while (or since) it is held
        try:
            text = (Path(home) / name).read_text(encoding="utf-8")
        except (OSError, ValueError):
            continue
        parts = text.strip("\n").split("\t")
        if len(parts) == 3 and parts[0].isdigit():
            return int(parts[0]), parts[1], parts[2]
    return None


def describe(found: tuple[int, str, str] | None) -> str:
    """``judge load (pid 4242, book 'cr-2026')``: who holds the lock, for a message."""
    if found is None:
        return "judge command"
    pid, action, book = found
    if book:  # "load", "unload"
        return f"judge {action} (pid {pid}, book {book!r})"
    return f"judge command {action} (pid {pid})"  # "rebuilding the library"


class WriteLock:
    """The library's write lock, taken on entering and released on leaving (not re-entrant: see
    :meth:`rulebook.library.Library.locked`). ``notify`` is told once when the wait lasts."""

    def __init__(
        self,
        home: Path,
        action: str,
        book: str | None = None,
        wait: float | None = None,
        notify: Callable[[str], None] | None = None,
        method: str | None = None,
    ):
        self.home, self.action, self.book = Path(home), action, book or ""
        self.wait = timeout() if wait is None else wait
        self.notify = notify
        self.method = method or kind()
        # held: the open .lock (flock, msvcrt) or the O_EXCL file's path; None while not held
        self._file: TextIO | Path | None = None

    @property
    def _info(self) -> str:
        return f"{os.getpid()}\t{self.action}\t{self.book}\n"

    def __enter__(self) -> WriteLock:
        start = time.monotonic()
        told = False
        try:
            while not self._try():
                waited = time.monotonic() - start
                if waited >= self.wait:
                    raise Busy(
                        f"the library {self.home} is busy: another {describe(holder(self.home))} held it "
                        f"for the {self.wait:g} s this one waited; try again once it has finished "
                        "($JUDGE_LOCK_TIMEOUT sets the wait, in seconds)"
                    )
                if not told and waited >= NOTICE_AFTER and self.notify is not None:
                    self.notify(f"waiting for another {describe(holder(self.home))} to finish ...")
                    told = True
                time.sleep(_POLL)
        except BaseException:  # given up, or Ctrl-C while waiting: the file opened to wait is closed
            if self._file is not None and not isinstance(self._file, Path):
                self._file.close()
            self._file = None
            raise
        return self

    def __exit__(self, *exc) -> None:
        self.release()

    # -- the three ways ------------------------------------------------------------------------

    def _try(self) -> bool:
        if self.method == "flock":
            return self._try_os(self._flock)
        if self.method == "msvcrt":
            return self._try_os(self._msvcrt)
        return self._try_excl()

    def _try_os(self, lock: Callable[[int], bool]) -> bool:
        if self._file is None:
            self.home.mkdir(parents=True, exist_ok=True)
            self._file = open(self.home / LOCK_NAME, "a+", encoding="utf-8")
        file = self._file
        assert not isinstance(file, Path)  # the O_EXCL method never comes back here
        try:
            taken = lock(file.fileno())
        except OSError:  # a file system without locks (some network shares): the O_EXCL file
            file.close()
            self._file = None
            self.method = "excl"
            return self._try_excl()
        if taken:
            try:
                file.seek(0)
                file.truncate()
                file.write(self._info)
                file.flush()
            except OSError:  # who holds it is only informative
                pass
        return taken

    @staticmethod
    def _flock(fd: int) -> bool:
        import fcntl  # platform: POSIX

        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError as exc:
            if exc.errno in (errno.EWOULDBLOCK, errno.EAGAIN, errno.EACCES):
                return False
            raise
        return True

    @staticmethod
    def _msvcrt(fd: int) -> bool:  # pragma: no cover - Windows
        import msvcrt  # platform: Windows

        if sys.platform != "win32":  # unreachable (msvcrt imports only there): for the type checker
            raise ImportError("msvcrt is Windows' own")
        os.lseek(fd, _MSVCRT_BYTE, os.SEEK_SET)  # a byte past the holder's text, which stays readable
        try:
            msvcrt.locking(fd, msvcrt.LK_NBLCK, 1)
        except PermissionError:
            return False
        except OSError as exc:
            if exc.errno in (errno.EACCES, errno.EDEADLK):
                return False
            raise
        return True

    def _try_excl(self) -> bool:
        path = self.home / PID_LOCK_NAME
        try:
            fd = os.open(path, os.O_CREAT | os.O_EXCL | os.O_WRONLY, 0o644)
        except FileExistsError:
            if _stale(path):
                try:
                    path.unlink()
                except OSError:
                    pass
            return False
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            f.write(self._info)
        self._file = path
        return True

    def release(self) -> None:
        taken, self._file = self._file, None
        if taken is None:
            return
        if isinstance(taken, Path):  # O_EXCL: remove the file, if it is still ours
            found = holder(self.home)
            if found is None or found[0] == os.getpid():
                try:
                    taken.unlink()
                except OSError:
                    pass
            return
        try:
            taken.seek(0)
            taken.truncate()  # no holder to name any more
            if self.method == "msvcrt":  # pragma: no cover - Windows
                import msvcrt  # platform: Windows

                if sys.platform != "win32":  # unreachable (msvcrt imports only there): for the type checker
                    raise ImportError("msvcrt is Windows' own")
                os.lseek(taken.fileno(), _MSVCRT_BYTE, os.SEEK_SET)
                msvcrt.locking(taken.fileno(), msvcrt.LK_UNLCK, 1)
        except OSError:
            pass
        finally:
            taken.close()  # releases a flock


_MSVCRT_BYTE = 1 << 20


def _stale(path: Path) -> bool:
    """Whether an O_EXCL lock file was left by a process that no longer runs."""
    try:
        text = path.read_text(encoding="utf-8")
        age = time.time() - path.stat().st_mtime
    except (OSError, ValueError):
        return False
    pid = text.split("\t", 1)[0].strip()
    if not pid.isdigit():
        return age > _STALE_EMPTY  # its creator died before writing its id
    return not _alive(int(pid))


def _alive(pid: int) -> bool:
    if pid == os.getpid():
        return True
    if os.name == "nt":  # pragma: no cover - os.kill would end the process there; msvcrt is used anyway
        return True
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except OSError:  # another user's process: alive
        return True
    return True
