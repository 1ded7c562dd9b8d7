"""A judge command timed as a judge runs it: a new process, the installed ``judge`` of this Python's
environment (else ``python -m judge.cli``). Shared by the benchmark scripts that compare commands."""

from __future__ import annotations

import subprocess
import sys
import time
from pathlib import Path

_BIN = Path(sys.executable).parent / "judge"
JUDGE = [str(_BIN)] if _BIN.exists() else [sys.executable, "-m", "judge.cli"]


def run(args: list[str], env: dict) -> float:
    """Seconds ``judge ARGS`` took, with ``env`` (its JUDGE_HOME); a failure raises."""
    start = time.perf_counter()
    subprocess.run(JUDGE + args, env=env, check=True, capture_output=True)
    return time.perf_counter() - start
