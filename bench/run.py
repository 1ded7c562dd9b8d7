"""Benchmarks for rules-judge. Results are ratios against a baseline measured in the same run.

    python bench/run.py            # everything it can (the MTG CR must be in ../shared/corpora)
    python bench/run.py --quick    # fewer repetitions

What it measures (each line: the median time, the baseline's median, and their ratio):
- build:   building the database from the current MTG CR (read + store + references + FTS), against
           decoding the same file into lines (the least any build must do).
- vectors: the CR's meaning vectors (static model, `rulebook.meaning_rows.book_rows`: every rule, example
           and remembered question), part of every build, against building the database.
- load:    `judge load` of the CR into an empty library (seeds built too, meaning included) as a whole
           command, against `python -c "import typer, numpy, sqlite3"`.
- command: `judge rule` and `judge search` as whole commands (a new process each), against
           `python -c pass` (the interpreter starting) in the same run; `judge search` with meaning
           (the default) and with `--words`.
- search:  in-process `rulebook.search.search` on the loaded CR, with meaning and with words alone
           (meaning=False), against one plain FTS5 bm25 query.
- explain: `judge explain` on a scenario as a whole command, against `python -c pass`; engine steps
           per second in-process (when the engines are present).
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
sys.path.insert(0, str(REPO))
CR = REPO.parent / "shared" / "corpora" / "mtg" / "MagicCompRules-2026-02-27.txt"
QUERIES = [
    "priority",
    "first strike damage",
    "who gets priority after a spell resolves",
    "trampel",
    "can I cast a sorcery during combat",
    "legend rule",
    "copy of a spell",
    "hexproof",
]


def median_time(fn, repeat: int) -> float:
    times = []
    for _ in range(repeat):
        t0 = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t0)
    return statistics.median(times)


def row(name: str, value: float, base: float, unit: str = "s") -> dict:
    return {
        "name": name,
        "value": value,
        "baseline": base,
        "ratio": value / base if base else float("nan"),
        "unit": unit,
    }


def bench_build(repeat: int) -> list[dict]:
    from rulebook.library import Library
    from rulebook.readers.text import read_lines

    def build():
        with tempfile.TemporaryDirectory() as home:
            Library(home, seeds=None).load([CR], "cr", game="mtg")

    base = median_time(lambda: read_lines(CR), max(3, repeat))
    value = median_time(build, repeat)
    return [row("build database from MTG CR 2026-02-27 (vs decoding the file)", value, base)]


def plain_fts(store) -> None:
    """The baseline of in-process measures: one plain FTS5 bm25 query per question of QUERIES."""
    from rulebook.search import _fts_query, content_words

    for q in QUERIES:
        store.query(
            "SELECT rowid FROM rules_fts WHERE rules_fts MATCH ? ORDER BY bm25(rules_fts) LIMIT 10",
            [_fts_query(content_words(q))],
        )


def bench_vectors(store, build_time: float, repeat: int) -> list[dict]:
    from rulebook.meaning_rows import book_rows

    rules = store.rules("cr")
    value = median_time(lambda: book_rows(rules), repeat)
    return [
        row(
            f"meaning vectors of the MTG CR, {len(rules):,} rules, examples and remembered questions "
            "(vs building the database)",
            value,
            build_time,
        )
    ]


def bench_load(repeat: int) -> list[dict]:
    env = {**os.environ, "PYTHONPATH": str(REPO)}

    def load():
        with tempfile.TemporaryDirectory() as home:
            subprocess.run(
                judge_cmd("load", str(CR), "--book", "cr"),
                env={**env, "JUDGE_HOME": home},
                stdout=subprocess.DEVNULL,
                stderr=subprocess.DEVNULL,
                check=True,
            )

    base = median_time(
        lambda: subprocess.run([sys.executable, "-c", "import typer, numpy, sqlite3"], check=True), repeat
    )
    return [
        row(
            'judge load MTG CR into an empty library, whole command (vs python -c "import typer, numpy, sqlite3")',
            median_time(load, repeat),
            base,
        )
    ]


def judge_cmd(*args: str) -> list[str]:
    return [sys.executable, "-m", "judge.cli", *args]


def bench_commands(home: str, repeat: int, model: bool) -> list[dict]:
    env = {**os.environ, "JUDGE_HOME": home, "PYTHONPATH": str(REPO)}

    def run(cmd):
        return lambda: subprocess.run(cmd, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=False)

    base = median_time(run([sys.executable, "-c", "pass"]), repeat)
    out = []
    searches = (
        ("judge search 'first strike damage' --book cr", ("search", "first strike damage", "--book", "cr")),
        ("judge search priorty (typo, all books)", ("search", "priorty")),
    )
    commands = [("judge rule 601.2c --book cr", ("rule", "601.2c", "--book", "cr"))]
    for label, args in searches:
        if model:
            commands.append((f"{label}, words + meaning", args))
        commands.append((f"{label} --words", (*args, "--words")))
    for label, args in commands:
        out.append(row(f"{label} (vs python -c pass)", median_time(run(judge_cmd(*args)), repeat), base))
    scenario = REPO / "data" / "scenarios" / "riftbound" / "spec-example.yaml"
    if scenario.exists():
        out.append(
            row(
                "judge explain spec-example.yaml (vs python -c pass)",
                median_time(run(judge_cmd("explain", str(scenario))), repeat),
                base,
            )
        )
    return out


def bench_search(store, repeat: int, model: bool) -> list[dict]:
    from rulebook.search import search

    def ours(meaning: bool):
        def run():
            for q in QUERIES:
                result = search(store, q, book="cr", meaning=meaning)
                assert result.ranking == ("words+meaning" if meaning else "words"), result.note

        return run

    n = len(QUERIES)
    base = median_time(lambda: plain_fts(store), repeat) / n
    out = []
    for meaning in (True, False) if model else (False,):
        label = "words + meaning" if meaning else "words alone"
        out.append(
            row(
                f"search, in-process, per query, {label} ({n} queries, vs one plain FTS5 bm25 query)",
                median_time(ours(meaning), repeat) / n,
                base,
            )
        )
    return out


def bench_engine(repeat: int) -> list[dict]:
    """Steps per second over every shipped scenario of each game, in-process, against the rate at
    which the same engines can merely be copied (the baseline since before issue 13, when play()
    copied the state once per step to undo an illegal action; it now checks first and copies nothing,
    so the steps may outrun the copies; bench/engine_speed.py measures the engines in detail)."""
    import copy

    from engine.core import play
    from scenarios.explain import new_engine
    from scenarios.scenario import load_scenario

    out = []
    for game in ("riftbound", "mtg"):
        scenarios = [load_scenario(p) for p in sorted((REPO / "data" / "scenarios" / game).glob("*.yaml"))]
        if not scenarios:
            continue
        total_steps = sum(len(s.actions) for s in scenarios)

        def run_all():
            for s in scenarios:
                engine, _ = new_engine(s)
                for _ in play(engine, s.actions):
                    pass

        def copy_all():
            for s in scenarios:
                engine, _ = new_engine(s)
                for _ in s.actions:
                    copy.deepcopy(engine)

        t_run, t_copy = median_time(run_all, repeat), median_time(copy_all, repeat)
        out.append(
            row(
                f"{game} engine: steps per second over {len(scenarios)} scenarios "
                f"(vs deep copies of the engine per second)",
                total_steps / t_run,
                total_steps / t_copy,
                "steps/s",
            )
        )
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--quick", action="store_true")
    args = parser.parse_args()
    repeat = 3 if args.quick else 7
    if not CR.exists():
        sys.exit(f"bench: {CR} is absent; the benchmarks need the real MTG Comprehensive Rules")
    results = bench_build(max(2, repeat // 2))
    with tempfile.TemporaryDirectory() as home:
        from rulebook.library import Library
        from rulebook.model import ModelUnavailable
        from rulebook.semantic import StaticModel
        from rulebook.shipped import seeds_dir

        Library(home, seeds=seeds_dir()).load([CR], "cr", game="mtg")
        store = Library(home, seeds=seeds_dir()).open()  # the library the commands open
        try:
            StaticModel.load()
            model = True
        except ModelUnavailable as exc:
            print(f"bench: no meaning model ({exc}): words alone", file=sys.stderr)
            model = False
        if model:
            results += bench_vectors(store, results[0]["value"], repeat)
        results += bench_search(store, repeat, model)
        store.close()
        results += bench_load(max(3, repeat // 2))
        results += bench_commands(home, repeat, model)
    results += bench_engine(repeat)
    print(
        f"machine: {platform.machine()}, {os.cpu_count()} cores, {platform.system()} {platform.release()}, "
        f"Python {platform.python_version()}; date: {time.strftime('%Y-%m-%d')}"
    )
    print(f"{'measure':<100} {'value':>10} {'baseline':>10} {'ratio':>8}")
    for r in results:
        fmt = (
            (lambda v: f"{v:.1f} s" if v >= 10 else f"{v * 1000:.1f} ms")
            if r["unit"] == "s"
            else (lambda v: f"{v:,.0f}")
        )
        print(f"{r['name']:<100} {fmt(r['value']):>10} {fmt(r['baseline']):>10} {r['ratio']:>7.2f}x")


if __name__ == "__main__":
    main()
