"""How long ``judge diff`` takes on two full Comprehensive Rules, against a lookup and against Python
importing what a diff cannot avoid (issue 15 asks for under 2 s).

    python bench/diff_speed.py [--runs 11] [--corpora DIR] [--old 2025-02-07] [--new 2026-02-27]

Loads both editions into a new library (not timed), then runs, alternately (A B C A B C ...) so a
machine whose load changes slows all alike:

- ``judge diff cr-OLD cr-NEW --json`` (every rule matched, every diff computed and printed),
- ``judge rule 601.2c --book cr-NEW`` (the baseline: a lookup in the same library),
- ``python -c "import typer, numpy, rapidfuzz, sqlite3"`` (what the diff's process imports anyway),

and prints each one's median wall time and the diff's ratios to both. Also, in process, the matching
alone (``rulebook.diff.diff_books`` on the store, median of the runs), so a slow command can be told
from a slow matching.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=11)
    parser.add_argument("--corpora", type=Path, default=REPO.parent / "shared" / "corpora")
    parser.add_argument("--old", default="2025-02-07")
    parser.add_argument("--new", default="2026-02-27")
    args = parser.parse_args()
    from rulebook.diff import diff_books
    from rulebook.library import Library
    from rulebook.shipped import seeds_dir

    home = Path(tempfile.mkdtemp(prefix="judge-diff-bench-"))
    lib = Library(home, seeds=seeds_dir())
    old, new = f"cr-{args.old[:4]}", f"cr-{args.new[:4]}"
    for book, edition in ((old, args.old), (new, args.new)):
        lib.load([args.corpora / "mtg" / f"MagicCompRules-{edition}.txt"], book, game="mtg")
    env = {**os.environ, "JUDGE_HOME": str(home)}
    script = Path(sys.executable).with_name("judge")
    judge = [str(script)] if script.exists() else [sys.executable, "-m", "judge.cli"]
    commands = {
        "diff": [*judge, "diff", old, new, "--json"],
        "rule": [*judge, "rule", "601.2c", "--book", new],
        "imports": [sys.executable, "-c", "import typer, numpy, rapidfuzz, sqlite3"],
    }
    for command in commands.values():  # warm: bytecode compiled, the stamp recorded, files cached
        for _ in range(2):
            subprocess.run(command, env=env, capture_output=True, check=True)
    times: dict[str, list[float]] = {name: [] for name in commands}
    for _ in range(args.runs):
        for name, command in commands.items():
            start = time.perf_counter()
            subprocess.run(command, env=env, capture_output=True, check=True)
            times[name].append(time.perf_counter() - start)
    store = lib.open()
    matching = []
    for _ in range(args.runs):
        start = time.perf_counter()
        result = diff_books(store, old, new)
        matching.append(time.perf_counter() - start)
    med = {name: statistics.median(t) for name, t in times.items()}
    print(f"{old} -> {new}: {result.counts}, {args.runs} runs, medians")
    for name, command in commands.items():
        print(
            f"  {name:8} {med[name]:.3f} s   {' '.join(Path(c).name if i == 0 else c for i, c in enumerate(command))}"
        )
    print(f"  matching in process (rulebook.diff.diff_books): {statistics.median(matching):.3f} s")
    print(
        f"  diff / rule lookup: {med['diff'] / med['rule']:.2f}x; diff / imports: {med['diff'] / med['imports']:.2f}x"
    )
    print(f"  under 2 s: {'yes' if med['diff'] < 2 else 'NO'}")


if __name__ == "__main__":
    main()
