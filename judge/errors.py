"""Errors as the judge sees them: one line on stderr, and with ``--json`` the same as an object on stdout.

A bot reading stdout gets ``{"error": {"message", "file", "line", "suggestions", "status"}}`` (docs/json.md)
rather than nothing, whatever went wrong: a usage error, a bad file, an unknown book, a rule not found.

>>> Problem("no rule 601.2ff in cr-2026", status=1, suggestions=("601.2f",)).to_json()["error"]["suggestions"]
['601.2f']
"""

from __future__ import annotations

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
                "suggestions": list(self.suggestions),
                "status": self.status,
                "hint": self.hint,
            }
        }


def problem(exc: BaseException) -> Problem | None:
    """The problem behind errors a user can cause; None for bugs (which keep their traceback)."""
    from rulebook.cards.store import CardLibraryError
    from rulebook.editions import BookChoiceError
    from rulebook.games import UnknownGame
    from rulebook.library import LibraryError
    from rulebook.model import ReadError
    from scenarios.scenario import ScenarioFileError

    if isinstance(exc, ReadError):
        return Problem(str(exc), file=exc.path, line=exc.line)
    if isinstance(exc, ScenarioFileError):
        return Problem(str(exc), file=exc.file, line=exc.line)
    if isinstance(exc, (LibraryError, BookChoiceError, CardLibraryError, UnknownGame)):
        return Problem(str(exc), suggestions=tuple(getattr(exc, "suggestions", ())))
    if isinstance(exc, PermissionError):
        return Problem(f"{exc.filename}: permission denied", file=exc.filename)
    if isinstance(exc, OSError) and exc.filename:
        return Problem(f"{exc.filename}: {exc.strerror}", file=exc.filename)
    return None


def usage_problem(exc) -> Problem:
    """A command-line usage error (click's, from whichever copy typer uses) as one line: what is
    wrong, what is allowed (the option's choices or range, the argument's help), and where to read more."""
    message = exc.format_message()
    param = getattr(exc, "param", None)
    helped = getattr(param, "help", None)
    if helped and "Missing" in message:
        message = f"{message.rstrip('.')}: {helped.rstrip('.')}."
    suggestions = tuple(getattr(exc, "possibilities", None) or ())
    if not suggestions and "Did you mean '" in message:  # "... 'serch'. Did you mean 'search', 'serve'?"
        suggestions = tuple(message.split("Did you mean ", 1)[1].split("?", 1)[0].split("'")[1::2])
    ctx = getattr(exc, "ctx", None)
    command = ctx.info_name if ctx is not None and ctx.parent is not None else None
    where = f"judge {command} --help" if command else "judge --help"
    return Problem(f"{message} Try '{where}'.", suggestions=suggestions)
