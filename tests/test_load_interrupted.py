"""A `judge load` stopped at any moment (Ctrl-C, or killed outright) leaves the library consistent:
the book is there whole, with its meaning vectors, or not at all; the next search answers at once."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time

import pytest
from conftest import REPO, corpus


def _judge(home, *args, **kw):
    env = {**os.environ, "JUDGE_HOME": str(home), "PYTHONPATH": str(REPO)}
    return subprocess.run(
        [sys.executable, "-m", "judge.cli", *args], env=env, capture_output=True, text=True, timeout=120, **kw
    )


def _consistent(home) -> bool:
    """Whether the book is there; either way the library answers, by meaning, with nothing to recompute."""
    books = _judge(home, "books", "--json")
    assert books.returncode == 0, books.stderr
    ids = {b["id"] for b in json.loads(books.stdout)}
    book = "cr" if "cr" in ids else "mtg"
    found = _judge(home, "search", "what happens when a creature is dealt lethal damage", "--book", book, "--json")
    assert found.returncode == 0, found.stderr
    assert json.loads(found.stdout)["ranking"] == "words+meaning"
    return "cr" in ids


@pytest.mark.parametrize("sig", [signal.SIGINT, signal.SIGKILL])
def test_a_load_stopped_at_any_moment_leaves_the_library_consistent(tmp_path, sig):
    cr = corpus("mtg", "MagicCompRules-2026-02-27.txt")
    home = tmp_path / "home"
    assert _judge(home, "books").returncode == 0  # the seeds built first: the load is the only work
    env = {**os.environ, "JUDGE_HOME": str(home), "PYTHONPATH": str(REPO)}
    for delay in (0.15, 0.4, 0.7, 1.0):
        proc = subprocess.Popen(
            [sys.executable, "-m", "judge.cli", "load", str(cr), "--book", "cr"],
            env=env,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        time.sleep(delay)
        proc.send_signal(sig)
        proc.wait(timeout=60)
        if sig == signal.SIGINT:  # Ctrl-C: the load is undone, nothing half-written is left
            assert not list(home.glob(".judge-*.db")) and not list(home.glob(".load-*"))
        _consistent(home)
        _judge(home, "unload", "cr")
    assert _judge(home, "load", str(cr), "--book", "cr").returncode == 0
    assert _consistent(home)
    assert not list(home.glob(".judge-*.db"))  # what a killed builder left is cleared by the next build
