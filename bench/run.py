"""Benchmarks for rules-judge. Results are ratios against a baseline measured in the same run.

    python bench/run.py            # everything it can (the MTG CR must be in ../shared/corpora)
    python bench/run.py --quick    # fewer repetitions

What it measures (each line: the median time, the baseline's median, and their ratio):
- build:   building the database from the current MTG CR (read + store + references + FTS), against
           decoding the same file into lines (the least any build must do).
- vectors: the CR's meaning vectors (sentence model, `rulebook.vectors.book_vectors`) computed from an
           empty cache, once (a minute or more), against building the database; then read back from
           the cache, against one plain FTS5 bm25 query. --quick skips the computation and takes the
           vectors from the copy kept by the last run (BENCH_CACHE below), computing them untimed if absent.
           Also the question memory (rulebook/memory.py) read, checked and matched to the CR, which
           every search command pays once, against the same query.
- command: `judge rule` and `judge search` as whole commands (a new process each), against
           `python -c pass` (the interpreter starting) in the same run; `judge search` with the sentence
           model (the default, every book's vectors already cached) and with `--words`.
- search:  in-process `rulebook.search.search` on the loaded CR, with meaning (vectors cached) and with
           words alone (meaning=False), against one plain FTS5 bm25 query.
- explain: `judge explain` on a scenario as a whole command, against `python -c pass`; engine steps
           per second in-process (when the engines are present).
"""

from __future__ import annotations

import argparse
import os
import platform
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import time
from contextlib import closing
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))
CR = REPO.parent / "shared" / "corpora" / "mtg" / "MagicCompRules-2026-02-27.txt"
QUERIES = ["priority", "first strike damage", "who gets priority after a spell resolves", "trampel",
           "can I cast a sorcery during combat", "legend rule", "copy of a spell", "hexproof"]
# A copy of the vectors the last run computed, so that --quick need not compute them again (a cache:
# delete it at will; the full run always computes the CR's vectors from an empty file).
BENCH_CACHE = Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache") / "rules-judge" / "bench-vectors.db"


def median_time(fn, repeat: int) -> float:
    times = []
    for _ in range(repeat):
        t0 = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t0)
    return statistics.median(times)


def row(name: str, value: float, base: float, unit: str = "s") -> dict:
    return {"name": name, "value": value, "baseline": base, "ratio": value / base if base else float("nan"), "unit": unit}


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
        store.query("SELECT rowid FROM rules_fts WHERE rules_fts MATCH ? ORDER BY bm25(rules_fts) LIMIT 10",
                    [_fts_query(content_words(q))])


def copy_db(src: Path, dst: Path) -> bool:
    try:
        dst.parent.mkdir(parents=True, exist_ok=True)
        with closing(sqlite3.connect(src)) as a, closing(sqlite3.connect(dst)) as b:
            a.backup(b)
        return True
    except (OSError, sqlite3.Error):
        return False


def bench_vectors(store, build_time: float, repeat: int, from_scratch: bool) -> list[dict]:
    """The CR's vectors into the (empty) file JUDGE_VECTORS names, then every other book's, so that
    the search measures read them from the cache."""
    from rulebook.vectors import book_vectors, cache_path

    out = []
    if from_scratch:
        t0 = time.perf_counter()
        ids, _ = book_vectors(store, "cr")  # loads and checks the model too, as `judge load` does
        value = time.perf_counter() - t0
        out.append(row(f"meaning vectors of the MTG CR, {len(ids):,} rules, from an empty cache, once "
                       "(vs building the database)", value, build_time))
    else:
        if BENCH_CACHE.exists():
            copy_db(BENCH_CACHE, cache_path(store))
        t0 = time.perf_counter()
        book_vectors(store, "cr")
        if time.perf_counter() - t0 > 2:
            print(f"bench: computed the CR's vectors (untimed), kept in {BENCH_CACHE} for the next --quick run",
                  file=sys.stderr)
    for b in store.book_ids():
        book_vectors(store, b)
    copy_db(cache_path(store), BENCH_CACHE)
    n = len(QUERIES)
    out.append(row("meaning vectors of the MTG CR read back from the cache (vs one plain FTS5 bm25 query)",
                   median_time(lambda: book_vectors(store, "cr"), repeat),
                   median_time(lambda: plain_fts(store), repeat) / n))
    out.append(row("question memory read and matched to the MTG CR, once a process (vs one plain FTS5 bm25 query)",
                   median_time(lambda: fresh_memory().applicable(store, "cr"), repeat),
                   median_time(lambda: plain_fts(store), repeat) / n))
    return out


def fresh_memory():
    from rulebook.memory import read_memory

    read_memory.cache_clear()  # what each new process pays: the files read and checked, then the book matched
    return read_memory()


def judge_cmd(*args: str) -> list[str]:
    return [sys.executable, "-m", "judge.cli", *args]


def bench_commands(home: str, vectors: str, repeat: int, model: bool) -> list[dict]:
    env = {**os.environ, "JUDGE_HOME": home, "JUDGE_VECTORS": vectors, "PYTHONPATH": str(REPO)}

    def run(cmd):
        return lambda: subprocess.run(cmd, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=False)

    base = median_time(run([sys.executable, "-c", "pass"]), repeat)
    out = []
    searches = (("judge search 'first strike damage' --book cr", ("search", "first strike damage", "--book", "cr")),
                ("judge search priorty (typo, all books)", ("search", "priorty")))
    commands = [("judge rule 601.2c --book cr", ("rule", "601.2c", "--book", "cr"))]
    for label, args in searches:
        if model:
            commands.append((f"{label}, words + meaning", args))
        commands.append((f"{label} --words", (*args, "--words")))
    for label, args in commands:
        out.append(row(f"{label} (vs python -c pass)", median_time(run(judge_cmd(*args)), repeat), base))
    scenario = REPO / "data" / "scenarios" / "riftbound" / "spec-example.yaml"
    if scenario.exists():
        out.append(row("judge explain spec-example.yaml (vs python -c pass)",
                       median_time(run(judge_cmd("explain", str(scenario))), repeat), base))
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
        out.append(row(f"search, in-process, per query, {label} ({n} queries, vs one plain FTS5 bm25 query)",
                       median_time(ours(meaning), repeat) / n, base))
    return out


def bench_engine(repeat: int) -> list[dict]:
    """Steps per second over every shipped scenario of each game, in-process, against the rate at
    which the same engines can merely be copied (play() copies the state once per step to undo an
    illegal action, so this is the floor of a step's cost)."""
    import copy

    from engine.core import play
    from judge.explain import new_engine
    from judge.scenario import load_scenario

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
        out.append(row(f"{game} engine: steps per second over {len(scenarios)} scenarios "
                       f"(vs deep copies of the engine per second)", total_steps / t_run, total_steps / t_copy, "steps/s"))
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
        from judge.resources import seeds_dir
        from rulebook.library import Library
        from rulebook.semantic import ModelUnavailable, model_dir

        vectors = str(Path(home) / "vectors-bench.db")
        os.environ["JUDGE_VECTORS"] = vectors  # a fresh file: the vectors are computed here, not read from elsewhere
        Library(home, seeds=seeds_dir()).load([CR], "cr", game="mtg")
        store = Library(home, seeds=seeds_dir()).open()  # the library the commands open
        try:
            model_dir()
            model = True
        except ModelUnavailable as exc:
            print(f"bench: no sentence model ({exc}): words alone", file=sys.stderr)
            model = False
        if model:
            results += bench_vectors(store, results[0]["value"], repeat, from_scratch=not args.quick)
        results += bench_search(store, repeat, model)
        store.close()
        results += bench_commands(home, vectors, repeat, model)
    results += bench_engine(repeat)
    print(f"machine: {platform.machine()}, {os.cpu_count()} cores, {platform.system()} {platform.release()}, "
          f"Python {platform.python_version()}; date: {time.strftime('%Y-%m-%d')}")
    print(f"{'measure':<100} {'value':>10} {'baseline':>10} {'ratio':>8}")
    for r in results:
        fmt = (lambda v: f"{v:.1f} s" if v >= 10 else f"{v * 1000:.1f} ms") if r["unit"] == "s" else (lambda v: f"{v:,.0f}")
        print(f"{r['name']:<100} {fmt(r['value']):>10} {fmt(r['baseline']):>10} {r['ratio']:>7.2f}x")


if __name__ == "__main__":
    main()
