"""Known errors as one line for the judge."""

from __future__ import annotations


def one_line(exc: BaseException) -> str | None:
    """The message for errors a user can cause; None for bugs (which keep their traceback)."""
    from judge.scenario import ScenarioFileError
    from rulebook.editions import BookChoiceError
    from rulebook.library import LibraryError
    from rulebook.model import ReadError

    if isinstance(exc, (ReadError, LibraryError, ScenarioFileError, BookChoiceError)):
        return str(exc)
    if isinstance(exc, PermissionError):
        return f"{exc.filename}: permission denied"
    if isinstance(exc, OSError) and exc.filename:
        return f"{exc.filename}: {exc.strerror}"
    return None
