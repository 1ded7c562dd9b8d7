"""Every command-line mistake is one line on stderr naming what is wrong and what is allowed, exit 2,
never a traceback; with --json the same error is an object on stdout (docs/json.md, "Errors")."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from judge.commands import COMMANDS

REPO = Path(__file__).resolve().parents[1]
SCENARIO = str(REPO / "data" / "scenarios" / "riftbound" / "burn-out.yaml")
SEED = str(REPO / "seeds" / "riftbound-300-detail.txt")

# Arguments that parse, for each command (a new command must add itself here).
VALID = {
    "books": [],
    "load": [SEED, "--book", "x"],
    "unload": ["x"],
    "rule": ["312.1"],
    "search": ["priority"],
    "define": ["hidden"],
    "rulings": ["priority"],
    "export": [],
    "refs": ["312.1"],
    "path": ["312.1", "312.2"],
    "graph": [],
    "check": [],
    "explain": [SCENARIO],
    "diff": ["riftbound", "riftbound"],
    "history": ["312.1"],
    "citations": ["--book", "riftbound"],
    "card": ["lightning bolt"],
    "cards": ["bolt"],
    "config": [],
    "ruling": [],  # a group: its subcommands parse as every command does
    "serve": [],
    "site": ["site-out"],  # nothing is written: each test fails before the command runs
}
# A value the command refuses, and what the one line says about it.
BAD_VALUE = {
    "books": None,  # takes no value
    "load": ([SEED, "--book", "x", "--game", "chess"], "unknown game 'chess': expected riftbound or mtg"),
    "unload": (["riftbnd"], "riftbnd"),
    "rule": (["312.1", "--depth", "-1"], "Invalid value for '--depth'"),
    "search": (["priority", "--limit", "0"], "0 is not in the range 1<=x<=200"),
    "define": (["hidden", "--book", "riftbnd"], "no book 'riftbnd' (did you mean \"riftbound\"?)"),
    "rulings": (["priority", "--limit", "101"], "101 is not in the range 1<=x<=100"),
    "export": (["--book", "riftbnd"], 'did you mean "riftbound"?'),
    "refs": (["312.1", "--depth", "9"], "9 is not in the range 1<=x<=6"),
    "path": (["312.1", "312.2", "--game", "chess"], "unknown game 'chess'"),
    "graph": (["--book", "riftbound", "--format", "png"], "png"),
    "check": (["--top", "0"], "0 is not in the range 1<=x<=100"),
    "explain": ([SCENARIO, "--format", "pdf"], "unknown format 'pdf'"),
    "diff": (["riftbound", "riftbnd"], "no book 'riftbnd' (did you mean \"riftbound\"?)"),
    "history": (["312.1", "--game", "chess"], "unknown game 'chess': expected riftbound or mtg"),
    "citations": (["--book", "riftbound", "--table", "v9"], "no riftbound citation table 'v9'"),
    "ruling": (["search", "priority", "--limit", "0"], "0 is not in the range 1<=x<=200"),
    "card": (["bolt", "--game", "chess"], "unknown game 'chess': expected riftbound or mtg"),
    "cards": (["bolt", "--limit", "0"], "0 is not in the range 1<=x<=500"),
    "config": (["game", "chess"], "unknown game 'chess': expected riftbound or mtg"),
    "serve": (["--port", "70000"], "70000 is not in the range 1<=x<=65535"),
    "site": (["site-out", "--book", "riftbnd"], "no book 'riftbnd' (did you mean \"riftbound\"?)"),
}


def _one_line(err: str) -> str:
    lines = err.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("judge: ") and "Traceback" not in err, err
    return lines[0]


def _error_json(out: str) -> dict:
    return json.loads(out)["error"]


def test_every_command_is_covered():
    assert set(VALID) == set(BAD_VALUE) == {name for name, _ in COMMANDS}


@pytest.mark.parametrize("name", [name for name, _ in COMMANDS])
def test_an_unknown_option_is_one_line(home, judge, name):
    code, out, err = judge(name, *VALID[name], "--bok")
    assert code == 2 and out == ""
    line = _one_line(err)
    assert "No such option: --bok" in line and f"Try 'judge {name} --help'." in line
    code, out, err = judge(name, *VALID[name], "--bok", "--json")
    error = _error_json(out)
    assert code == 2 and error["status"] == 2 and "No such option: --bok" in error["message"]
    if name not in (
        "books",
        "unload",
        "diff",
        "ruling",
        "card",
        "cards",
        "config",
        "serve",
    ):  # the options that come close are offered (these have no --book)
        assert "--book" in error["suggestions"]


@pytest.mark.parametrize("name", [name for name, bad in BAD_VALUE.items() if bad])
def test_a_bad_value_is_one_line_saying_what_is_allowed(home, judge, name):
    args, said = BAD_VALUE[name]
    code, out, err = judge(name, *args)
    assert code == 2 and out == ""
    assert said in _one_line(err)
    if "--format" not in args:  # --json would choose the format itself
        code, out, err = judge(name, *args, "--json")
        assert code == 2 and said in _error_json(out)["message"]


@pytest.mark.parametrize("name", [name for name, args in VALID.items() if args and not args[0].startswith("-")])
def test_a_missing_argument_is_one_line_with_what_it_takes(home, judge, name):
    code, out, err = judge(name)
    assert code == 2 and out == ""
    line = _one_line(err)
    assert "Missing argument" in line and f"Try 'judge {name} --help'." in line
    assert re.search(r"Missing argument '\w+': \w", line)  # and what it takes


def test_a_misspelt_command_is_one_line_with_did_you_mean(home, judge):
    code, out, err = judge("seach", "x")
    assert code == 2 and "Did you mean 'search'?" in _one_line(err)
    code, out, err = judge("seach", "x", "--json")
    assert _error_json(out)["suggestions"] == ["search"]
    code, out, err = judge("serch", "x", "--json")  # near two commands: both offered
    assert code == 2 and _error_json(out)["suggestions"] == ["search", "serve"]


def test_version(judge):
    code, out, err = judge("--version")
    assert code == 0 and out.startswith("judge ") and err == ""


def test_not_found_is_the_same_error_object_with_status_1(home, judge):
    code, out, err = judge("rule", "312.99", "--book", "riftbound", "--json")
    error = _error_json(out)
    assert code == 1 and error["status"] == 1 and error["suggestions"] and error["file"] is None
    # The error's line, and a miss in an excerpt (the seed) a hint's line: how to load the full rules.
    assert err.strip().splitlines() == [f"judge: {error['message']}", f"hint: {error['hint']}"]
    code, out, err = judge("define", "zzzzqqq", "--json")
    assert code == 1 and _error_json(out)["status"] == 1


def test_a_bad_file_names_file_and_line_in_json(home, judge, tmp_path):
    bad = tmp_path / "bad.yaml"
    bad.write_text("game: riftbound\nplayers: [Ana, Ben]\nactions:\n  - 42\n", encoding="utf-8")
    code, out, err = judge("explain", str(bad), "--json")
    error = _error_json(out)
    assert code == 2 and error["file"] == str(bad) and error["line"] == 4
    assert _one_line(err).startswith(f"judge: {bad}:4:")


def test_long_work_prints_plain_lines_when_stderr_is_no_terminal(fresh_home, judge, monkeypatch):
    from judge import progress

    monkeypatch.setattr(progress, "EVERY", 0.0)  # every step: the work here takes under a second
    code, out, err = judge("load", SEED, "--book", "x")
    assert code == 0 and "judge: reading riftbound-300-detail.txt" in err.splitlines()
    assert "\x1b[" not in err  # no terminal codes: a log reads it as it is
