"""Every key a command prints with --json is documented in docs/json.md, under that command's heading:
a script written against the document finds what it reads."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from judge.commands import COMMANDS

REPO = Path(__file__).resolve().parents[1]
SCENARIO = str(REPO / "data" / "scenarios" / "riftbound" / "burn-out.yaml")
MTG_SCENARIO = str(sorted((REPO / "data" / "scenarios" / "mtg").glob("*.yaml"))[0])
SEED = str(REPO / "seeds" / "riftbound-300-detail.txt")
INVENTED_CARDS = str(REPO / "tests" / "data" / "cards" / "invented-scryfall.json")

# A command line per command, on the seeds (a new command must add itself here).
RUNS = {
    "books": ["books"],
    "load": ["load", SEED, "--book", "house"],
    "unload": ["unload", "house"],
    "rule": ["rule", "312.2", "--book", "riftbound"],
    "search": ["search", "who gets priority", "--why"],
    "define": ["define", "Showdown"],
    "rulings": ["rulings", "priority"],
    "card": ["card", "practice bolt"],
    "cards": ["cards", "damage"],
    "config": ["config"],
    "export": ["export", "json", "--book", "riftbound"],
    "refs": ["refs", "312.2", "--book", "riftbound"],
    "path": ["path", "312.2.d", "313.4", "--book", "riftbound"],
    "graph": ["graph", "312", "--book", "riftbound"],
    "check": ["check", "--book", "riftbound"],
    "explain": ["explain", SCENARIO],
    "diff": ["diff", "mtg", "mtg"],
    "history": ["history", "312.1", "--game", "riftbound"],
    "citations": ["citations", "--book", "riftbound"],
    "ruling": ["ruling", "list"],  # tests/test_notebook.py checks every subcommand's keys
    "serve": None,  # runs until stopped: tests/test_serve.py checks what it and its endpoints answer
    "site": ["site", "SITE_DIR"],  # written into the test's own folder
}
# Maps whose keys are data, not names a script relies on: the scenario file as written, a game's
# state by player or card (docs/json.md names what their values hold), the query words of a search
# hit's why.words.
DATA_KEYED = {
    "scenario",
    "points",
    "life",
    "controller",
    "contested",
    "zone",
    "units",
    "hand",
    "deck",
    "library",
    "graveyard",
    "damage",
    "mana_pool",
    "lands_played",
    "blocking",
    "words",
}


def sections() -> dict[str, str]:
    text = (REPO / "docs" / "json.md").read_text(encoding="utf-8")
    parts = re.split(r"^## `judge (\w+)", text, flags=re.M)
    return {name: body for name, body in zip(parts[1::2], parts[2::2])}


def keys(value, out: set[str] | None = None) -> set[str]:
    out = set() if out is None else out
    if isinstance(value, dict):
        for k, v in value.items():
            out.add(k)
            if k not in DATA_KEYED:
                keys(v, out)
    elif isinstance(value, list):
        for v in value:
            keys(v, out)
    return out


def test_every_command_has_a_section():
    assert set(sections()) >= {name for name, _ in COMMANDS}
    assert set(RUNS) == {name for name, _ in COMMANDS}


@pytest.mark.parametrize(
    "name, args", [*((n, a) for n, a in RUNS.items() if a is not None), ("explain", ["explain", MTG_SCENARIO])]
)
def test_the_json_keys_are_documented(fresh_home, judge, name, args):
    if name == "unload":
        judge(*RUNS["load"])
    if name in ("card", "cards"):
        assert judge("load", INVENTED_CARDS)[0] == 0
    args = [str(fresh_home.parent / "site") if a == "SITE_DIR" else a for a in args]
    code, out, err = judge(*args, "--json")
    assert code == 0, err
    printed = keys(json.loads(out))
    section = sections()[name]
    undocumented = {k for k in printed if f'"{k}"' not in section and f"`{k}`" not in section}
    assert not undocumented, f"judge {name} --json prints keys docs/json.md does not name: {sorted(undocumented)}"


def test_the_error_object_is_documented(fresh_home, judge):
    code, out, _ = judge("rule", "312.99", "--book", "riftbound", "--json")
    intro = (REPO / "docs" / "json.md").read_text(encoding="utf-8").split("\n## ", 1)[0]
    assert code == 1
    assert all(f'"{k}"' in intro for k in keys(json.loads(out)))
