"""A lookup must feel instant: the commands a judge runs at the table do not import the graph
library, the engines or sqlite-utils (measured, not timed: we check what got imported)."""

import json
import os
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
PROBE = """
import sys
from judge.cli import main
sys.argv = ["judge"] + sys.argv[1:]
try:
    main()
except SystemExit:
    pass
import json
heavy = [m for m in ("networkx", "sqlite_utils", "pydantic", "engine.riftbound", "engine.mtg", "hypothesis") if m in sys.modules]
print("HEAVY=" + json.dumps(heavy))
"""


def imported(home, *args):
    env = {**os.environ, "JUDGE_HOME": str(home), "PYTHONPATH": str(REPO)}
    # The first call builds the database (which needs sqlite-utils); measure the second.
    subprocess.run([sys.executable, "-c", PROBE, "books"], env=env, capture_output=True, check=True)
    out = subprocess.run([sys.executable, "-c", PROBE, *args], env=env, capture_output=True, text=True, check=True).stdout
    return json.loads(out.rsplit("HEAVY=", 1)[1])


def test_rule_lookup_imports_nothing_heavy(tmp_path):
    assert imported(tmp_path, "rule", "312.1", "--book", "riftbound") == []


def test_search_imports_nothing_heavy(tmp_path):
    assert imported(tmp_path, "search", "priorty") == []


def test_define_imports_nothing_heavy(tmp_path):
    assert imported(tmp_path, "define", "focus", "--json") == []
