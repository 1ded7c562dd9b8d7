"""Start-up of the commands a judge runs at the table, against Python importing what they cannot avoid.

    python bench/startup.py [--runs 21] [--home DIR] [--mode cached|uncached|both] [--source DIR]

Prints, for each pair, the median wall time of each command and the ratio of the medians:

- ``judge rule 312.1 --book riftbound`` against ``python -c "import typer"``
- ``judge search "who gets priority" --book riftbound --words`` against
  ``python -c "import typer, numpy, sqlite3"``

The two commands of a pair run alternately (A B A B ...), so a machine whose load changes during the
run slows both alike and the ratio stays fair. Both use this interpreter; ``judge`` is the console
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


def judge_command(source: Path | None = None) -> list[str]:
    if source is not None:  # what the console script does, with that checkout first on the path
        code = f"import sys; sys.path.insert(0, {str(source.resolve())!r}); from judge.cli import main; sys.exit(main())"
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


def wall(command: list[str], env: dict[str, str]) -> float:
    start = time.perf_counter()
    subprocess.run(command, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=True)
    return time.perf_counter() - start


def measure(a: list[str], b: list[str], env: dict[str, str], runs: int) -> tuple[float, float]:
    for _ in range(3):  # warm the file cache, the bytecode cache and judge.db's freshness stamp
        wall(a, env)
        wall(b, env)
    times_a, times_b = [], []
    for _ in range(runs):
        times_a.append(wall(a, env))
        times_b.append(wall(b, env))
    return statistics.median(times_a), statistics.median(times_b)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=21, help="timed runs of each command (median reported)")
    parser.add_argument("--home", type=Path, help="an existing JUDGE_HOME (default: a new one, seeds only)")
    parser.add_argument("--mode", choices=("cached", "uncached", "both"), default="both")
    parser.add_argument("--source", type=Path, help="time the judge of this checkout instead of the installed one")
    args = parser.parse_args()
    judge = judge_command(args.source)
    with tempfile.TemporaryDirectory(prefix="judge-startup-") as tmp:
        home = args.home or Path(tmp) / "home"
        pycache = Path(tmp) / "pycache"
        env = environment(home, "cached", pycache)
        subprocess.run(judge + ["books"], env=env, stdout=subprocess.DEVNULL, check=True)  # build the library
        time.sleep(2.1)  # judge.db just written is too recent for a freshness stamp (rulebook/home.py)
        modes = ("cached", "uncached") if args.mode == "both" else (args.mode,)
        print(f"python {sys.version.split()[0]}, {args.runs} runs each, alternating; medians")
        for mode in modes:
            env = environment(home, mode, pycache)
            print(f"\n{mode}:")
            for cmd, baseline in PAIRS:
                a = judge + list(cmd)
                b = [sys.executable, "-c", baseline]
                ta, tb = measure(a, b, env, args.runs)
                shown = "judge " + " ".join(f'"{c}"' if " " in c else c for c in cmd)
                print(f"  {shown:<62} {ta * 1000:6.1f} ms")
                print(f"  {'python -c ' + repr(baseline):<62} {tb * 1000:6.1f} ms   ratio {ta / tb:.2f}")


if __name__ == "__main__":
    main()
