"""One module per subcommand. Each module imports what it needs inside the command, so that
``judge rule`` never pays for networkx or the engines."""

from judge.commands.books import books, unload
from judge.commands.check import check
from judge.commands.define import define
from judge.commands.explain import explain
from judge.commands.export import export
from judge.commands.graph import graph
from judge.commands.load import load
from judge.commands.path import path
from judge.commands.refs import refs
from judge.commands.rule import rule
from judge.commands.rulings import rulings
from judge.commands.search import search

COMMANDS = [
    ("books", books),
    ("load", load),
    ("unload", unload),
    ("rule", rule),
    ("search", search),
    ("define", define),
    ("rulings", rulings),
    ("export", export),
    ("refs", refs),
    ("path", path),
    ("graph", graph),
    ("check", check),
    ("explain", explain),
]
