"""``judge card NAME`` against ``judge rule 601.2c --book cr-2026`` (issue 21 bounds it at 1.1x).

A library with the 2026 CR, Riftbound Core Rules v1.3 and every card file of ../shared/corpora (the
Riftbound errata too); each command a new process, the four alternating, medians of ``--runs`` (the bound),
and the fastest run of each (on a machine shared with others' work, the least disturbed). A card is named
exactly (``lightning bolt``), misspelt (``lightning blot``) and in part (``bolt``).

The commands run as an installed package runs them: from byte-code, compiled by the first (warm-up)
runs into a folder of the benchmark's own (``PYTHONPYCACHEPREFIX``, so the checkout gets no
``__pycache__``), whatever ``PYTHONDONTWRITEBYTECODE`` says. ``--source`` compiles every module of the
project from its source in every run instead (what a checkout with ``PYTHONDONTWRITEBYTECODE=1`` does).
``--against REV`` measures the tree of git revision REV too (extracted with ``git archive``, run with
``PYTHONPATH``), in a library of its own, its commands alternating with this tree's:

    python bench/card_speed.py [--runs 15] [--source] [--against REV]
"""

from __future__ import annotations

import argparse
import os
import platform
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO / "bench"))
from timed import run  # noqa: E402

CORPORA = REPO.parent / "shared" / "corpora"
BOUND = 1.1
COMMANDS = {
    "rule": ["rule", "601.2c", "--book", "cr-2026"],
    "exact": ["card", "lightning bolt"],
    "misspelt": ["card", "lightning blot"],
    "part": ["card", "bolt"],
}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=15)
    parser.add_argument("--source", action="store_true", help="no byte-code: every module compiled in every run")
    parser.add_argument("--against", metavar="REV", help="also measure the tree of this git revision")
    args = parser.parse_args()
    cr = CORPORA / "mtg" / "MagicCompRules-2026-02-27.txt"
    rb = CORPORA / "riftbound" / "core-rules-v1.3.txt"
    cards = CORPORA / "cards"
    if not cr.exists() or not rb.exists() or not cards.exists():
        print(f"the corpora are absent ({CORPORA})", file=sys.stderr)
        return 2
    files = [
        *sorted((cards / "mtg" / "mtgjson-v3").glob("*.json")),
        *sorted((cards / "mtg" / "scryfall").glob("*.json")),
        *sorted((cards / "mtg" / "mtgjson-v5").glob("*.json")),
        cards / "riftbound" / "cards.json",
        CORPORA / "riftbound" / "errata.json",
    ]
    with tempfile.TemporaryDirectory() as work:
        trees: dict[str, Path | None] = {"this tree": None}
        if args.against:
            trees[args.against] = _extract(args.against, Path(work) / "tree")
        envs = {}
        for n, (label, tree) in enumerate(trees.items()):
            env = {**os.environ, "JUDGE_HOME": str(Path(work) / f"home{n}")}
            if tree is not None:
                env["PYTHONPATH"] = str(tree)
            if args.source:
                env["PYTHONDONTWRITEBYTECODE"] = "1"
            else:
                env.pop("PYTHONDONTWRITEBYTECODE", None)
                env["PYTHONPYCACHEPREFIX"] = str(Path(work) / "pycache")
            run(["load", str(cr), "--book", "cr-2026"], env)
            run(["load", str(rb), "--book", "rb-1.3"], env)
            run(["load", *map(str, files)], env)
            for command in COMMANDS.values():  # warm: byte-code compiled, caches made, stamps recorded
                run(command, env)
                run(command, env)
            envs[label] = env
        times: dict[tuple[str, str], list[float]] = {(t, c): [] for t in trees for c in COMMANDS}
        for _ in range(args.runs):
            for label in trees:
                for name, command in COMMANDS.items():
                    times[(label, name)].append(run(command, envs[label]))
    print(
        f"machine: {platform.machine()}, {os.cpu_count()} cores, {platform.system()} {platform.release()}, "
        f"Python {platform.python_version()}; {time.strftime('%Y-%m-%d')}; {args.runs} runs each, alternating; "
        + ("compiled from source in every run" if args.source else "byte-code compiled once")
    )
    worst = 0.0
    for label in trees:
        base, fastest = statistics.median(times[(label, "rule")]), min(times[(label, "rule")])
        print()
        if len(trees) > 1:
            print(label + ":")
            print()
        print(f"| command | median | ratio (bound {BOUND}x) | fastest run | ratio of the fastest |")
        print("|---|---:|---:|---:|---:|")
        print(
            f"| `judge {' '.join(COMMANDS['rule'])}` (baseline) | {base * 1000:.0f} ms | 1.00x | "
            f"{fastest * 1000:.0f} ms | 1.00x |"
        )
        for name in ("exact", "misspelt", "part"):
            t, quick = statistics.median(times[(label, name)]), min(times[(label, name)])
            if trees[label] is None:
                worst = max(worst, t / base)
            print(
                f"| `judge {' '.join(COMMANDS[name])}` ({name}) | {t * 1000:.0f} ms | **{t / base:.2f}x** | "
                f"{quick * 1000:.0f} ms | {quick / fastest:.2f}x |"
            )
    return 0 if worst <= BOUND else 1


def _extract(rev: str, into: Path) -> Path:
    into.mkdir(parents=True)
    archive = subprocess.run(["git", "-C", str(REPO), "archive", rev], check=True, capture_output=True).stdout
    subprocess.run(["tar", "-x", "-C", str(into)], input=archive, check=True)
    return into


if __name__ == "__main__":
    raise SystemExit(main())
