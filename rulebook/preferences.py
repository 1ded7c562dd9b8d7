"""What a judge set once for every command: ``$JUDGE_HOME/config.json`` (``judge config``), and the
environment, which overrides it for one shell (``JUDGE_GAME``).

Keys (docs/decisions.md, "A default game"):

- ``game``: the game a command reads when it names no book and no game (riftbound or mtg).

Written to a temporary file and renamed over the old one: an interrupted ``judge config`` leaves the
old settings whole. Standard library only: every lookup reads it.

>>> import tempfile, pathlib
>>> home = pathlib.Path(tempfile.mkdtemp())
>>> set_preference(home, "game", "mtg"); preferences(home)
{'game': 'mtg'}
>>> set_preference(home, "game", None); preferences(home)
{}
"""

from __future__ import annotations

import json
import os
from difflib import get_close_matches
from pathlib import Path

from rulebook import games

FILE = "config.json"
ENVIRONMENT = {"game": "JUDGE_GAME"}
KEYS = {"game": "the game a command reads when it names no --book or --game: " + " or ".join(games.names())}


class PreferenceError(ValueError):
    """A key or value the settings do not take, or a settings file that is not JSON: one line."""

    def __init__(self, message: str, suggestions: tuple[str, ...] = ()):
        super().__init__(message)
        self.suggestions = suggestions


def preferences(home: Path) -> dict[str, str]:
    """The settings stored in ``home`` (not the environment's)."""
    path = Path(home) / FILE
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        return {}
    except OSError as exc:
        raise PreferenceError(f"{path}: cannot read: {exc.strerror or exc}") from None
    try:
        data = json.loads(text)
    except ValueError as exc:
        raise PreferenceError(
            f"{path}:{getattr(exc, 'lineno', 1)}: not valid JSON: expected an object such as "
            '{"game": "mtg"} (judge config game mtg writes it)'
        ) from None
    if not isinstance(data, dict):
        raise PreferenceError(f'{path}:1: expected an object such as {{"game": "mtg"}}')
    return {k: v for k, v in data.items() if isinstance(k, str) and isinstance(v, str)}


def check(key: str, value: str | None, where: str = "") -> None:
    """Raise :class:`PreferenceError` for a key or value the settings do not take."""

    if key not in KEYS:
        near = tuple(get_close_matches(key, KEYS, n=1, cutoff=0.5))
        hint = f' (did you mean "{near[0]}"?)' if near else ""
        raise PreferenceError(f"{where}unknown setting {key!r}{hint}; settings: {', '.join(KEYS)}", near)
    if key == "game" and value is not None:
        try:
            games.get(value)
        except games.UnknownGame as exc:
            raise PreferenceError(f"{where}{exc}", exc.suggestions) from None


def preference(home: Path, key: str) -> tuple[str | None, str | None]:
    """The value of ``key`` and where it came from (the environment variable's name or the file's path)."""
    variable = ENVIRONMENT.get(key)
    if variable and os.environ.get(variable, "").strip():
        value = os.environ[variable].strip()
        check(key, value, f"{variable}: ")
        return value, variable
    stored = preferences(home).get(key)
    if stored is not None:
        check(key, stored, f"{Path(home) / FILE}: ")
        return stored, str(Path(home) / FILE)
    return None, None


def set_preference(home: Path, key: str, value: str | None) -> None:
    """Store ``key`` (None removes it)."""
    check(key, value)
    home = Path(home)
    data = preferences(home)
    if value is None:
        data.pop(key, None)
    else:
        data[key] = value
    home.mkdir(parents=True, exist_ok=True)
    temporary = home / f".{FILE}.{os.getpid()}.tmp"
    temporary.write_text(json.dumps(data, indent=2, sort_keys=True) + "\n", encoding="utf-8")
    os.replace(temporary, home / FILE)
