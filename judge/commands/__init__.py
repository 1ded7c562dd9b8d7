"""One module per subcommand. Each module imports what it needs inside the command, so that
``judge rule`` never pays for networkx or the engines; and ``judge.cli`` imports only the module of
the command being run (``COMMANDS`` names them without importing them)."""

from __future__ import annotations

import importlib
from collections.abc import Callable

# (command name, "module:function" under judge.commands), in the order `judge --help` lists them.
COMMANDS = [
    ("books", "books:books"),
    ("load", "load:load"),
    ("unload", "books:unload"),
    ("rule", "rule:rule"),
    ("search", "search:search"),
    ("define", "define:define"),
    ("rulings", "rulings:rulings"),
    ("card", "card:card"),
    ("cards", "card:cards"),
    ("export", "export:export"),
    ("refs", "refs:refs"),
    ("path", "path:path"),
    ("graph", "graph:graph"),
    ("check", "check:check"),
    ("explain", "explain:explain"),
    ("diff", "diff:diff"),
    ("history", "history:history"),
    ("citations", "citations:citations"),
    ("ruling", "ruling:app"),
    ("config", "config:config"),
    ("serve", "serve:serve"),
    ("site", "site:site"),
]


def command(name: str) -> Callable:
    """The function of command ``name``, importing its module."""
    module, function = dict(COMMANDS)[name].split(":")
    return getattr(importlib.import_module(f"judge.commands.{module}"), function)
