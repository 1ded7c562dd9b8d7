"""The walls between the packages, as issue 22 set them: SQL only in the read API and the stores that
write, and no import of another package's insides where a registry or an API stands."""

from __future__ import annotations

import ast
import re
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
PACKAGES = ("rulebook", "scenarios", "judge", "engine")

# Where SQL may be written: the read API over judge.db (Store, and the search index it hands out),
# the card store, the judges' notebook (its own database), and the library's writing side.
SQL_HOMES = {
    "rulebook/store.py",  # the read API: books, rules, terms, rulings, references, lookups
    "rulebook/search/index.py",  # the read API's full-text, vocabulary and vector reads
    "rulebook/cards/store.py",  # cards.db: reading cards (and its schema)
    "rulebook/cards/load.py",  # cards.db's writing side: the store that loads card files
    "rulebook/notebook.py",  # notebook.db: the judges' own rulings
    "rulebook/library.py",  # judge.db's writing side: loads, rebuilds
    "rulebook/sqlscript.py",  # splits a schema script into statements (a parser, no database)
}
_SQL = re.compile(r"^\s*(SELECT|INSERT|UPDATE|DELETE|CREATE|DROP|PRAGMA|WITH|REPLACE|ATTACH)\b")
_DB_CALLS = {"execute", "executemany", "executescript"}


def _modules():
    for package in PACKAGES:
        for path in sorted((REPO / package).rglob("*.py")):
            yield path.relative_to(REPO).as_posix(), ast.parse(path.read_text(encoding="utf-8"))


def _sql_in(tree: ast.AST) -> list[str]:
    """Each string that starts as SQL does (an f-string's literal parts included) and each
    ``.execute(...)``-like call, by line, in order."""
    found = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Constant) and isinstance(node.value, str) and _SQL.match(node.value):
            found.add((node.lineno, repr(node.value.strip()[:50])))
        elif (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Attribute)
            and node.func.attr in _DB_CALLS
            and node.args
            and not (isinstance(node.args[0], ast.Name) and node.args[0].id in ("g", "item"))  # engine verbs
        ):
            found.add((node.lineno, f".{node.func.attr}(...)"))
    return [f"line {n}: {what}" for n, what in sorted(found)]


def test_no_sql_outside_the_read_api_and_the_stores():
    strays = {name: sql for name, tree in _modules() if name not in SQL_HOMES and (sql := _sql_in(tree))}
    assert strays == {}, "SQL outside the read API (rulebook.store) and the stores: " + "; ".join(
        f"{name} {', '.join(sql[:3])}" for name, sql in strays.items()
    )


def test_the_read_path_of_the_command_line_is_the_store():
    """judge.books.Rows (a second read path beside rulebook.store.Store) is gone."""
    text = (REPO / "judge" / "books.py").read_text(encoding="utf-8")
    assert "class Rows" not in text and "def open_rows" not in text


def test_the_sql_test_sees_sql():
    """The scan above finds what it looks for (a test that cannot fail proves nothing)."""
    tree = ast.parse('def f(db, t):\n    db.execute(f"DELETE FROM {t}")\n    return "SELECT 1"\n')
    assert _sql_in(tree) == ["line 2: 'DELETE FROM'", "line 2: .execute(...)", "line 3: 'SELECT 1'"]


# Function-level imports ------------------------------------------------------------------------------
# A domain module imports what it uses at its top; the command line (judge/) pays for start-up where it
# dispatches, importing a command's modules when the command runs. The only imports left inside functions
# of rulebook/, scenarios/ and engine/ are these, each (module, imported module) with why:
OPTIONAL = {
    # NumPy is an optional dependency at run time: without it a search ranks by words alone.
    ("rulebook/diff.py", "numpy"): "optional: the meaning side of matching rules across editions",
    ("rulebook/library.py", "rulebook.meaning_rows"): "optional: NumPy (ImportError: built without vectors)",
    ("rulebook/library.py", "rulebook.vectors"): "optional: NumPy (ImportError: built without word pieces)",
    ("rulebook/search/meaning.py", "rulebook.vectors"): "optional: NumPy (ImportError: ModelUnavailable)",
    # Imported for the one kind of file that needs it (77 ms and 59 ms to import): a text load skips both.
    ("rulebook/readers/documents.py", "pypdf"): "heavy: only a PDF needs it",
    ("rulebook/readers/documents.py", "docx"): "heavy: only a Word file needs it",
    ("rulebook/readers/documents.py", "docx.table"): "heavy: only a Word file needs it",
    ("rulebook/readers/documents.py", "docx.text.paragraph"): "heavy: only a Word file needs it",
    # One of the two exists, by platform.
    ("rulebook/lock.py", "fcntl"): "platform: POSIX file locks",
    ("rulebook/lock.py", "msvcrt"): "platform: Windows file locks",
}
LAYERS = ("rulebook", "scenarios", "engine")  # judge/ is the command-line edge: not counted


def _function_imports(tree: ast.AST) -> list[tuple[int, str]]:
    """(line, imported module) of each import inside a function (``from . import x``: its package)."""
    found = []
    for fn in ast.walk(tree):
        if isinstance(fn, (ast.FunctionDef, ast.AsyncFunctionDef)):
            for node in ast.walk(fn):
                if isinstance(node, ast.Import):
                    found += [(node.lineno, a.name) for a in node.names]
                elif isinstance(node, ast.ImportFrom):
                    base = node.module or ""
                    found += [(node.lineno, f"{base}.{a.name}" if base == "rulebook" else base) for a in node.names]
    return sorted(set(found))


def test_function_level_imports_only_for_optional_and_platform_modules():
    allowed = OPTIONAL
    seen = set()
    strays = []
    for package in LAYERS:
        for path in sorted((REPO / package).rglob("*.py")):
            name = path.relative_to(REPO).as_posix()
            for line, module in _function_imports(ast.parse(path.read_text(encoding="utf-8"))):
                if (name, module) in allowed:
                    seen.add((name, module))
                else:
                    strays.append(f"{name}:{line} {module}")
    assert strays == [], "import at the module's top (or allow it here, saying why): " + "; ".join(strays)
    assert seen == set(allowed), f"allowed but no longer imported in a function: {set(allowed) - seen}"


def test_the_import_count_sees_imports_in_functions():
    tree = ast.parse(
        "import os\ndef f():\n    import json\n    from rulebook import diff\n    class C:\n        def g(self):\n            from rapidfuzz import fuzz\n"
    )
    assert _function_imports(tree) == [(3, "json"), (4, "rulebook.diff"), (7, "rapidfuzz")]
