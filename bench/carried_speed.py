"""What an explanation costs on an edition no citation table was written for (issue 20).

The same scenario is explained by ``judge explain`` on the 2026-02-27 CR (its own table ships) and on
the 2025-09-19 CR (no table: the tables are carried onto the book once, then read from the cache),
as a judge runs it: a new process each time, the two alternating, medians of ``--runs``. The first
explanation on the carried book (the carrying itself) is timed on its own.

    python bench/carried_speed.py [--runs 15] [--scenario data/scenarios/mtg/combat-2026.yaml]

Prints a markdown table for docs/benchmarks.md; the bound is 1.5x from the second run on.
"""

from __future__ import annotations

import argparse
import os
import platform
import statistics
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO / "bench"))
from timed import run  # noqa: E402

CORPORA = REPO.parent / "shared" / "corpora" / "mtg"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=15)
    parser.add_argument("--scenario", default=str(REPO / "data" / "scenarios" / "mtg" / "lifelink-2026.yaml"))
    args = parser.parse_args()
    own, carried = CORPORA / "MagicCompRules-2026-02-27.txt", CORPORA / "MagicCompRules-2025-09-19.txt"
    if not own.exists() or not carried.exists():
        print(f"the corpora are absent ({CORPORA})", file=sys.stderr)
        return 2
    scenario = Path(args.scenario).read_text(encoding="utf-8")
    with tempfile.TemporaryDirectory() as home:
        env = {**os.environ, "JUDGE_HOME": home, "PYTHONPATH": str(REPO)}
        # The scenario without its edition: each book's own rules and numbers.
        path = Path(home) / "scenario.yaml"
        path.write_text(
            "\n".join(line for line in scenario.splitlines() if not line.startswith("edition:")) + "\n",
            encoding="utf-8",
        )
        run(["load", str(own), "--book", "cr-2026"], env)
        run(["load", str(carried), "--book", "cr-2025"], env)
        run(["books"], env)
        first = run(["explain", str(path), "--book", "cr-2025"], env)  # carries the tables onto cr-2025
        times: dict[str, list[float]] = {"cr-2026": [], "cr-2025": []}
        for _ in range(2):  # warm both
            run(["explain", str(path), "--book", "cr-2026"], env)
            run(["explain", str(path), "--book", "cr-2025"], env)
        for _ in range(args.runs):
            for book in times:
                times[book].append(run(["explain", str(path), "--book", book], env))
    a, b = statistics.median(times["cr-2026"]), statistics.median(times["cr-2025"])
    print(
        f"machine: {platform.machine()}, {os.cpu_count()} cores, Python {platform.python_version()}; "
        f"{time.strftime('%Y-%m-%d')}; {args.runs} runs each, alternating; scenario {Path(args.scenario).name} "
        "without its edition"
    )
    print()
    print("| explanation | median | ratio |")
    print("|---|---|---|")
    print(f"| on cr-2026 (its own table: baseline) | {a * 1000:.0f} ms | 1.00x |")
    print(f"| on cr-2025-09-19 (tables carried, from the cache) | {b * 1000:.0f} ms | **{b / a:.2f}x** (bound 1.5x) |")
    print(
        f"| on cr-2025-09-19, first run (carrying the tables onto the book) | {first * 1000:.0f} ms | {first / a:.2f}x |"
    )
    return 0 if b / a <= 1.5 else 1


if __name__ == "__main__":
    raise SystemExit(main())
