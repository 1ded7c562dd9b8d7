"""The README's examples run, and print what the README shows.

How the README writes an example (its "Examples on the seeds"):

- A ```console block is a session in a fresh library (``$JUDGE_HOME`` a new folder: the seed books,
  nothing loaded), run from the repository's root. Each ``$ judge ARGS`` line is a command (a
  ``# comment`` after it is not part of it), run in order; the lines after it, up to the next ``$``
  line or the block's end, are what it prints: standard output and standard error together, as a
  terminal shows them. They must match, trailing whitespace aside, and the command must exit 0.
- A ```sh block shows commands without their output. Each of its ``judge ...`` lines runs, in order,
  in a fresh library of the block's own, and must exit 0. A block naming a file of ``../shared/corpora``
  that is absent is skipped, saying so. The install commands (``python3 -m venv ...``) are not run
  here: CI runs them (.ci/run, and tests/test_docs.py checks they are the same).

Commands run in this process through ``judge.cli.main``, the installed ``judge``'s entry point, so
an example pays no interpreter start-up and prints exactly what the program would.
"""

from __future__ import annotations

import contextlib
import io
import re
import shlex
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
README = REPO / "README.md"

FENCE = re.compile(r"^```(\w*)\n(.*?)^```$", re.MULTILINE | re.DOTALL)


def blocks(kind: str) -> list[tuple[int, str]]:
    """(line number, text) of each fenced block of the README in language ``kind``."""
    text = README.read_text(encoding="utf-8")
    return [(text.count("\n", 0, m.start()) + 1, m.group(2)) for m in FENCE.finditer(text) if m.group(1) == kind]


def transcript(block: str) -> list[tuple[list[str], str]]:
    """A console block as (the command's arguments after ``judge``, the output shown)."""
    examples: list[tuple[list[str], list[str]]] = []
    for line in block.splitlines():
        if line.startswith("$ "):
            words = shlex.split(line[2:], comments=True)
            assert words[:1] == ["judge"], f"a README console example runs judge, not: {line}"
            examples.append((words[1:], []))
        else:
            assert examples, f"a README console block starts with a `$ judge` line, not: {line}"
            examples[-1][1].append(line)
    return [(args, "\n".join(shown)) for args, shown in examples]


def commands(block: str) -> list[list[str]]:
    """The arguments after ``judge`` of each ``judge`` line of a sh block."""
    return [shlex.split(line, comments=True)[1:] for line in block.splitlines() if line.startswith("judge ")]


def run(*args: str) -> tuple[int, str]:
    """``judge ARGS`` in this process: (exit status, standard output and error as a terminal interleaves them)."""
    from judge.cli import main

    old, sys.argv = sys.argv, ["judge", *args]
    printed, code = io.StringIO(), 0
    try:
        with contextlib.redirect_stdout(printed), contextlib.redirect_stderr(printed):
            main()
    except SystemExit as exc:
        code = exc.code if isinstance(exc.code, int) else (0 if exc.code is None else 1)
    finally:
        sys.argv = old
    return code, printed.getvalue()


def trimmed(text: str) -> str:
    """The text without trailing whitespace, on each line and at the end."""
    return "\n".join(line.rstrip() for line in text.splitlines()).rstrip("\n")


@pytest.fixture
def library(tmp_path, monkeypatch) -> Path:
    """A fresh library, built before the examples run: building it is the one long work a lookup may
    do, and long work prints progress lines (judge/progress.py) that no example shows."""
    home = tmp_path / "home"
    monkeypatch.setenv("JUDGE_HOME", str(home))
    monkeypatch.setenv("COLUMNS", "100")
    monkeypatch.chdir(REPO)  # the examples name files from the repository's root
    code, printed = run("books")
    assert code == 0, printed
    return home


def test_the_readme_has_examples_of_both_kinds():
    assert blocks("console"), "README.md has no ```console example (a `$ judge ...` line and its output)"
    assert any(commands(block) for _, block in blocks("sh")), "README.md has no ```sh block of judge commands"
    for _, block in blocks("console"):
        assert transcript(block), "an empty ```console block in README.md"


@pytest.mark.parametrize("line, block", [pytest.param(n, b, id=f"line-{n}") for n, b in blocks("console")])
def test_a_console_example_prints_what_the_readme_shows(library, line, block):
    for args, shown in transcript(block):
        command = shlex.join(["judge", *args])
        code, printed = run(*args)
        assert code == 0, f"README.md line {line}: `{command}` exited {code}:\n{printed}"
        assert trimmed(printed) == trimmed(shown), (
            f"README.md's example `{command}` (block at line {line}) no longer shows what it prints; "
            f"it prints now:\n{trimmed(printed)}"
        )


@pytest.mark.parametrize("line, block", [pytest.param(n, b, id=f"line-{n}") for n, b in blocks("sh") if commands(b)])
def test_a_sh_example_runs(library, line, block):
    for args in commands(block):
        for arg in args:
            if arg.startswith("../shared/corpora/") and not (REPO / arg).exists():
                pytest.skip(
                    f"README.md line {line}: corpus file {REPO / arg} is absent (real documents live in "
                    f"../shared/corpora beside the checkout)"
                )
    for args in commands(block):
        code, printed = run(*args)
        assert code == 0, f"README.md line {line}: `{shlex.join(['judge', *args])}` exited {code}:\n{printed}"
