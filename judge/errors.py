"""Errors as the judge sees them: one line on stderr, and with ``--json`` the same as an object on stdout.

A bot reading stdout gets ``{"error": {"message", "file", "line", "suggestions", "status"}}`` (docs/json.md)
rather than nothing, whatever went wrong: a usage error, a bad file, an unknown book, a rule not found.

>>> Problem("no rule 601.2ff in cr-2026", status=1, suggestions=("601.2f",)).to_json()["error"]["suggestions"]
['601.2f']
"""

from __future__ import annotations

import re
from dataclasses import dataclass


@dataclass(frozen=True)
class Problem:
    """What went wrong, where (a file and line, when a file is at fault), and what the judge may have meant."""

    message: str
    status: int = 2  # 1: not found; 2: bad input (a usage error, a bad file, an unknown name)
    file: str | None = None
    line: int | None = None
    suggestions: tuple[str, ...] = ()
    hint: str | None = None  # what would help, a line of its own (a miss in an excerpt: load the full rules)

    def to_json(self) -> dict:
        return {
            "error": {
                "message": self.message,
                "file": self.file,
                "line": self.line,
                "suggestions": list(self.suggestions) or named_suggestions(self.message),
                "status": self.status,
                "hint": self.hint,
            }
        }


_MEANT = re.compile(r"did you mean\b:?(.*?)(?:\?|$)", re.IGNORECASE)
_QUOTED = re.compile(r'"([^"]+)"|\'([^\']+)\'')


def named_suggestions(message: str) -> list[str]:
    """The names a message's "did you mean ..." offers, for an error whose raiser kept only the words
    (the engines' scenario errors): every error object carries in ``suggestions`` what its message
    suggests.

    >>> named_suggestions('no player named "Anna" (did you mean "Ana"?)')
    ['Ana']
    >>> named_suggestions("No such command 'serch'. Did you mean 'search', 'serve'?")
    ['search', 'serve']
    >>> named_suggestions("no term 'x'; did you mean: Tank, Tap"), named_suggestions("no rule 9")
    (['Tank', 'Tap'], [])
    """
    found = _MEANT.search(message)
    if found is None:
        return []
    said = found.group(1)
    quoted = [a or b for a, b in _QUOTED.findall(said)]
    if quoted:
        return quoted
    return [name.strip() for name in said.split(",") if name.strip()]


def problem(exc: BaseException) -> Problem | None:
    """The problem behind errors a user can cause; None for bugs (which keep their traceback)."""
    from rulebook.cards.store import CardLibraryError
    from rulebook.editions import BookChoiceError
    from rulebook.games import UnknownGame
    from rulebook.library import LibraryError
    from rulebook.model import ReadError
    from rulebook.notebook import NotebookError
    from scenarios.scenario import ScenarioFileError

    if isinstance(exc, ReadError):
        return Problem(str(exc), file=exc.path, line=exc.line)
    if isinstance(exc, ScenarioFileError):
        return Problem(str(exc), file=exc.file, line=exc.line)
    if isinstance(exc, (LibraryError, BookChoiceError, CardLibraryError, UnknownGame)):
        return Problem(str(exc), suggestions=tuple(getattr(exc, "suggestions", ())))
    if isinstance(exc, NotebookError):  # a damaged notebook too: the file is named, and how to recover it
        return Problem(str(exc), status=exc.status, file=getattr(exc, "path", None))
    return _system(exc)


def _system(exc: BaseException) -> Problem | None:
    """What the disk or the folder refused, as one line: a full disk, a read-only or unwritable library
    folder, a file that cannot be read. A write to the library is made whole or not at all (a new file
    renamed over the old, a transaction), so the library is then as it was."""
    import errno
    import sqlite3

    from rulebook.home import default_home
    from rulebook.sqlscript import refused

    home = default_home()
    if isinstance(exc, sqlite3.Error):
        kind = refused(exc)
        if kind == "full":
            return Problem(
                f"{home}: no space left on the device ({exc}): {_AS_IT_WAS}; free some space and run it again"
            )
        if kind == "unwritable":
            return Problem(f"{home}: {exc}: {_NOT_WRITABLE}")
        if kind == "damaged":
            return Problem(
                f"a database in {home} is damaged ({exc}): judge.db is built again by the next command; "
                "cards.db and notebook.db are never replaced: move the damaged one aside"
            )
        return None
    if not isinstance(exc, OSError):
        return None
    where = exc.filename or str(home)
    mine = exc.filename is None or _inside(exc.filename, home)
    if exc.errno in (errno.ENOSPC, errno.EDQUOT):
        return Problem(
            f"{where}: no space left on the device: {_AS_IT_WAS}; free some space and run it again", file=exc.filename
        )
    if mine and exc.errno in (errno.EROFS, errno.EACCES, errno.EPERM):
        return Problem(f"{where}: {exc.strerror or 'permission denied'}: {_NOT_WRITABLE}", file=exc.filename)
    if isinstance(exc, PermissionError):
        return Problem(f"{exc.filename}: permission denied", file=exc.filename)
    if exc.filename:
        return Problem(f"{exc.filename}: {exc.strerror}", file=exc.filename)
    return Problem(f"{exc.strerror or exc}")


_AS_IT_WAS = "the command changed nothing, the library is as it was"
_NOT_WRITABLE = "the library folder cannot be written (lookups still read it); make it writable, or set JUDGE_HOME to a folder that is"


def _inside(path, home) -> bool:
    from pathlib import Path

    try:
        return Path(path).resolve().is_relative_to(Path(home).resolve())
    except (OSError, ValueError):
        return False


def usage_problem(exc) -> Problem:
    """A command-line usage error (click's, from whichever copy typer uses) as one line: what is
    wrong, what is allowed (the option's choices or range, the argument's help), and where to read more."""
    message = exc.format_message()
    param = getattr(exc, "param", None)
    helped = getattr(param, "help", None)
    if helped and "Missing" in message:
        message = f"{message.rstrip('.')}: {helped.rstrip('.')}."
    suggestions = tuple(getattr(exc, "possibilities", None) or ())  # else the message's (named_suggestions)
    ctx = getattr(exc, "ctx", None)
    command = ctx.info_name if ctx is not None and ctx.parent is not None else None
    where = f"judge {command} --help" if command else "judge --help"
    return Problem(f"{message} Try '{where}'.", suggestions=suggestions)
