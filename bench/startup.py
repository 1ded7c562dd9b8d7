"""Start-up of the commands a judge runs at the table, against Python importing what they cannot avoid.

    python bench/startup.py [--runs 21] [--home DIR] [--mode cached|uncached|both] [--source DIR]
                            [--corpora DIR]

Prints, for each pair, the median wall time of each command and the ratio of the medians, and the
median user CPU time of each:

- ``judge rule 312.1 --book riftbound`` against ``python -c "import typer"``
- ``judge search "who gets priority" --book riftbound --words`` against
  ``python -c "import typer, numpy, sqlite3"``
- the search by words and meaning of one book (``--book``) and of every default book (no ``--book``:
  one per game), against ``python -c "import typer, numpy, sqlite3"``. With ``--corpora DIR`` (the
  shared corpora folder), the full Comprehensive Rules and Riftbound Core Rules are loaded first (as
  ``cr-2026`` and ``rb``, the default books then) and the one-book search asks ``cr-2026``; issue 11
  asks for at most 1.3x and 1.6x there.

Each pair also prints a second baseline, the same imports exiting as ``judge`` does
(``gc.freeze()`` before exit: judge/cli.py spares the interpreter's last collection, 12-15 ms): the
ratio against it is judge's own work, like for like; the first ratio is the one the issues bound.

The commands of a pair run in turn (A B C A B C ...), so a machine whose load changes during the
run slows all alike and the ratios stay fair. Both use this interpreter; ``judge`` is the console
script beside it (else ``python -m judge.cli``); ``--source DIR`` runs the ``judge`` of another checkout
instead (e.g. ``git worktree add /tmp/before HEAD~3``, to measure a change). The library is built before timing (in a new folder
unless ``--home`` names one), so what is timed is a lookup, not a build.

Modes: ``cached`` is how an installed program runs, with compiled bytecode cached (here under a
private PYTHONPYCACHEPREFIX, so the checkout gets no __pycache__); ``uncached`` sets
PYTHONDONTWRITEBYTECODE and no prefix, so every module this checkout imports is compiled from source
on each run (the setting of some sandboxes; the baselines' site-packages keep their cached bytecode).
Issue 11 asks for ``judge rule`` at most 1.5x ``import typer``.
"""

from __future__ import annotations

import argparse
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]

PAIRS = [
    (("rule", "312.1", "--book", "riftbound"), "import typer"),
    (("search", "who gets priority", "--book", "riftbound", "--words"), "import typer, numpy, sqlite3"),
]
MEANING = "what happens when my creature is killed"  # a question, with a word the books lack
FULL = (("mtg/MagicCompRules-2026-02-27.txt", "cr-2026"), ("riftbound/core-rules-v1.2.txt", "rb"))


def meaning_pairs(book: str) -> list[tuple[tuple[str, ...], str]]:
    """Search by words and meaning: one book, then every default book."""
    return [
        (("search", MEANING, "--book", book), "import typer, numpy, sqlite3"),
        (("search", MEANING), "import typer, numpy, sqlite3"),
    ]


def judge_command(source: Path | None = None) -> list[str]:
    if source is not None:  # what the console script does, with that checkout first on the path
        code = (
            f"import sys; sys.path.insert(0, {str(source.resolve())!r}); from judge.cli import main; sys.exit(main())"
        )
        return [sys.executable, "-c", code]
    script = Path(sys.executable).with_name("judge")
    return [str(script)] if script.exists() else [sys.executable, "-m", "judge.cli"]


def environment(home: Path, mode: str, pycache: Path) -> dict[str, str]:
    env = {**os.environ, "JUDGE_HOME": str(home)}
    env.pop("PYTHONPYCACHEPREFIX", None)
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    if mode == "cached":
        env["PYTHONPYCACHEPREFIX"] = str(pycache)
    else:
        env["PYTHONDONTWRITEBYTECODE"] = "1"
    return env


def wall(command: list[str], env: dict[str, str]) -> tuple[float, float]:
    """Wall time and user CPU time (all threads) of one run."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN).ru_utime
    start = time.perf_counter()
    subprocess.run(command, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=True)
    took = time.perf_counter() - start
    return took, resource.getrusage(resource.RUSAGE_CHILDREN).ru_utime - before


def measure(commands: list[list[str]], env: dict[str, str], runs: int) -> list[tuple[float, float]]:
    """(wall, user) of each command: medians over ``runs`` rounds, each running every command once."""
    for _ in range(3):  # warm the file cache, the bytecode cache, judge.db's freshness stamp, search's cache
        for command in commands:
            wall(command, env)
    times: list[list[tuple[float, float]]] = [[] for _ in commands]
    for _ in range(runs):
        for command, kept in zip(commands, times):
            kept.append(wall(command, env))
    return [(statistics.median(t[0] for t in kept), statistics.median(t[1] for t in kept)) for kept in times]


def frozen(baseline: str) -> str:
    """The baseline exiting as ``judge`` does (judge/cli.py freezes the collector's objects before exit,
    sparing the interpreter's last collection): what judge's own work costs, like for like."""
    return f"{baseline}, gc; gc.freeze()"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=21, help="timed runs of each command (median reported)")
    parser.add_argument("--home", type=Path, help="an existing JUDGE_HOME (default: a new one, seeds only)")
    parser.add_argument("--mode", choices=("cached", "uncached", "both"), default="both")
    parser.add_argument("--source", type=Path, help="time the judge of this checkout instead of the installed one")
    parser.add_argument("--corpora", type=Path, help="load the full rule documents from this folder first")
    args = parser.parse_args()
    judge = judge_command(args.source)
    with tempfile.TemporaryDirectory(prefix="judge-startup-") as tmp:
        home = args.home or Path(tmp) / "home"
        pycache = Path(tmp) / "pycache"
        env = environment(home, "cached", pycache)
        subprocess.run(judge + ["books"], env=env, stdout=subprocess.DEVNULL, check=True)  # build the library
        pairs = PAIRS + meaning_pairs("riftbound")
        if args.corpora:
            for name, book in FULL:
                subprocess.run(
                    judge + ["load", str(args.corpora / name), "--book", book],
                    env=env,
                    stdout=subprocess.DEVNULL,
                    check=True,
                )
            pairs = PAIRS + meaning_pairs("cr-2026")
        time.sleep(2.1)  # judge.db just written is too recent for a freshness stamp (rulebook/home.py)
        modes = ("cached", "uncached") if args.mode == "both" else (args.mode,)
        print(f"python {sys.version.split()[0]}, {args.runs} runs each, alternating; medians")
        for mode in modes:
            env = environment(home, mode, pycache)
            print(f"\n{mode}:")
            for cmd, baseline in pairs:
                commands = [
                    judge + list(cmd),
                    [sys.executable, "-c", baseline],
                    [sys.executable, "-c", frozen(baseline)],
                ]
                (ta, ua), *baselines = measure(commands, env, args.runs)
                shown = "judge " + " ".join(f'"{c}"' if " " in c else c for c in cmd)
                print(f"  {shown:<72} {ta * 1000:6.1f} ms (user {ua * 1000:5.1f})")
                for code, (tb, ub) in zip((baseline, frozen(baseline)), baselines):
                    print(
                        f"  {'python -c ' + repr(code):<72} {tb * 1000:6.1f} ms (user {ub * 1000:5.1f})"
                        f"   ratio {ta / tb:.2f} (user {ua / ub:.2f})"
                    )


if __name__ == "__main__":
    main()
