"""``judge card NAME`` against ``judge rule 601.2c --book cr-2026`` (issue 21 bounds it at 1.1x).

A library with the 2026 CR and every card file of ../shared/corpora/cards; each command a new process,
the two alternating, medians of ``--runs``:

    python bench/card_speed.py [--runs 15]
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
CORPORA = REPO.parent / "shared" / "corpora"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=15)
    args = parser.parse_args()
    cr = CORPORA / "mtg" / "MagicCompRules-2026-02-27.txt"
    cards = CORPORA / "cards"
    if not cr.exists() or not cards.exists():
        print(f"the corpora are absent ({CORPORA})", file=sys.stderr)
        return 2
    files = [*sorted((cards / "mtg" / "mtgjson-v3").glob("*.json")), *sorted((cards / "mtg" / "scryfall").glob("*.json")),
             cards / "riftbound" / "cards.json"]
    with tempfile.TemporaryDirectory() as home:
        env = {**os.environ, "JUDGE_HOME": home}
        run(["load", str(cr), "--book", "cr-2026"], env)
        run(["load", *map(str, files)], env)
        commands = {"rule": ["rule", "601.2c", "--book", "cr-2026"], "card": ["card", "lightning bolt"],
                    "card, misspelt": ["card", "lightning blot"]}
        for command in commands.values():  # warm: caches made, stamps recorded
            run(command, env)
            run(command, env)
        times: dict[str, list[float]] = {k: [] for k in commands}
        for _ in range(args.runs):
            for name, command in commands.items():
                times[name].append(run(command, env))
    base = statistics.median(times["rule"])
    print(f"machine: {platform.machine()}, {os.cpu_count()} cores, Python {platform.python_version()}; "
          f"{time.strftime('%Y-%m-%d')}; {args.runs} runs each, alternating")
    print()
    print("| command | median | ratio |")
    print("|---|---|---|")
    print(f"| `judge rule 601.2c --book cr-2026` (baseline) | {base * 1000:.0f} ms | 1.00x |")
    worst = 0.0
    for name in ("card", "card, misspelt"):
        t = statistics.median(times[name])
        worst = max(worst, t / base)
        print(f"| `judge {' '.join(commands[name])}` | {t * 1000:.0f} ms | **{t / base:.2f}x** (bound 1.1x) |")
    return 0 if worst <= 1.1 else 1


if __name__ == "__main__":
    raise SystemExit(main())
