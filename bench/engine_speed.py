"""How fast the reference engines step, and a long random-play run with the invariants checked.

Scenario mode (the default): every shipped scenario of each game (``data/scenarios/<game>/*.yaml``) is
replayed the way ``judge explain`` replays it (:func:`scenarios.explain.new_engine`, then
:func:`engine.core.play` over its actions, ``ask:`` items included), many times; the medians are printed:

- ``replay``: steps per second with each engine built afresh (building counted), against
  ``baseline``: a fresh engine built and deep-copied once per action, per second. These are the two
  figures ``bench/run.py`` has always printed for the engines ("steps per second ... vs deep copies of
  the engine per second": until issue 13 ``play`` copied the engine before every step so an illegal
  action could be undone, which made the copy rate the ceiling of the step rate);
- ``engine``: steps per second of the engine's own work, building included: ``new_game(scenario,
  citations)`` and the steps (``replay`` also counts what ``judge explain`` does around the engine:
  finding the book's edition reads ``seeds/manifest.yaml`` for every scenario);
- ``steps``: steps per second of stepping alone (the engines built before the clock starts), against
  ``copies``: deep copies per second of those engines alone.

``--against REV`` measures the tree of git revision REV too (extracted with ``git archive`` into a
temporary folder, nothing in the checkout touched), in the same command, alternating the two trees
run by run, over this checkout's scenario files, and prints each tree's medians and the ratios.

Random mode (``--random N``): N random-play steps per game with the invariants of
``tests/test_riftbound_random_play.py`` and ``tests/test_mtg_random_play.py`` checked after every step
(their code, imported; the Magic steps split between its two editions).

    python bench/engine_speed.py                      # this tree: 3 processes x 30 repetitions
    python bench/engine_speed.py --against 2dd35d0    # and the tree before issue 13, alternating
    python bench/engine_speed.py --random 100000      # the long random-play run
"""

from __future__ import annotations

import argparse
import importlib
import json
import os
import platform
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
GAMES = ("riftbound", "mtg")
RATES = ("replay", "baseline", "engine", "steps", "copies")


# -- one tree's measurements (run in a subprocess per tree with --measure) ------------------------------
def measure(tree: Path, scenario_root: Path, repeat: int) -> dict:
    """Per game: medians of replay, steps-only and deep-copy rates, each over ``repeat`` runs."""
    sys.path.insert(0, str(tree))
    import copy

    from engine.core import play
    from scenarios.explain import new_engine
    from scenarios.scenario import load_scenario

    try:  # the games registry (issue 22); a tree from before it names its engines in scenarios.explain
        from rulebook import games

        def engine_of(game: str):
            return games.get(game).engine_module()
    except ImportError:
        from scenarios.explain import ENGINES  # type: ignore[attr-defined]

        def engine_of(game: str):
            return importlib.import_module(ENGINES[game])

    out: dict = {}
    for game in GAMES:
        scenarios = [load_scenario(p) for p in sorted((scenario_root / game).glob("*.yaml"))]
        actions = [s.actions for s in scenarios]
        module = engine_of(game)
        tables = [new_engine(s)[1] for s in scenarios]
        total = sum(len(a) for a in actions)

        def replay() -> float:
            start = time.perf_counter()
            for s, acts in zip(scenarios, actions):
                engine, _ = new_engine(s)
                for _ in play(engine, acts):
                    pass
            return time.perf_counter() - start

        def built() -> float:  # the engine's own work: new_game(scenario, citations) and the steps
            start = time.perf_counter()
            for s, acts, table in zip(scenarios, actions, tables):
                engine = module.new_game(s.data, table)
                for _ in play(engine, acts):
                    pass
            return time.perf_counter() - start

        def steps_only() -> float:
            engines = [new_engine(s)[0] for s in scenarios]
            start = time.perf_counter()
            for engine, acts in zip(engines, actions):
                for _ in play(engine, acts):
                    pass
            return time.perf_counter() - start

        def baseline() -> float:  # bench/run.py's baseline, as it has always been measured
            start = time.perf_counter()
            for s, acts in zip(scenarios, actions):
                engine, _ = new_engine(s)
                for _ in acts:
                    copy.deepcopy(engine)
            return time.perf_counter() - start

        def copies() -> float:
            engines = [new_engine(s)[0] for s in scenarios]
            start = time.perf_counter()
            for engine, acts in zip(engines, actions):
                for _ in acts:
                    copy.deepcopy(engine)
            return time.perf_counter() - start

        replay(), steps_only()  # warm up: imports, citation tables, regex caches
        measures = {"replay": replay, "baseline": baseline, "engine": built, "steps": steps_only, "copies": copies}
        times: dict[str, list[float]] = {k: [] for k in measures}
        for _ in range(repeat):
            for k, run in measures.items():
                times[k].append(run())
        out[game] = {
            "scenarios": len(scenarios),
            "actions": total,
            **{k: total / statistics.median(v) for k, v in times.items()},
        }
    return out


def _run_tree(tree: Path, repeat: int) -> dict:
    cmd = [sys.executable, str(Path(__file__).resolve()), "--measure", str(tree), "--repeat", str(repeat)]
    env = {**os.environ, "PYTHONHASHSEED": "0"}
    done = subprocess.run(cmd, check=True, capture_output=True, text=True, env=env, cwd=tree)
    return json.loads(done.stdout.strip().splitlines()[-1])


def _extract(rev: str, into: Path) -> Path:
    archive = subprocess.run(["git", "-C", str(REPO), "archive", rev], check=True, capture_output=True).stdout
    subprocess.run(["tar", "-x", "-C", str(into)], input=archive, check=True)
    return into


def _median_of(runs: list[dict]) -> dict:
    out: dict = {}
    for game in runs[0]:
        first = runs[0][game]
        out[game] = {**first, **{k: statistics.median(r[game][k] for r in runs) for k in RATES}}
    return out


def compare(against: str | None, repeat: int, rounds: int) -> None:
    print(
        f"machine: {platform.machine()}, {os.cpu_count()} cores, {platform.system()} {platform.release()}, "
        f"Python {platform.python_version()}; date: {time.strftime('%Y-%m-%d')}; load average "
        f"{os.getloadavg()[0]:.2f}"
    )
    head = subprocess.run(
        ["git", "-C", str(REPO), "rev-parse", "--short", "HEAD"], capture_output=True, text=True
    ).stdout.strip()
    dirty = subprocess.run(
        ["git", "-C", str(REPO), "status", "--porcelain", "--", "engine"], capture_output=True, text=True
    ).stdout.strip()
    trees = {f"this tree ({head}{', engine edited' if dirty else ''})": REPO}
    with tempfile.TemporaryDirectory() as tmp:
        if against:
            trees = {f"{against} (baseline tree)": _extract(against, Path(tmp)), **trees}
            # Both trees replay this checkout's scenario files: the same work.
            (Path(tmp) / "data" / "scenarios").mkdir(parents=True, exist_ok=True)
            subprocess.run(["rm", "-rf", str(Path(tmp) / "data" / "scenarios")], check=True)
            subprocess.run(
                ["cp", "-r", str(REPO / "data" / "scenarios"), str(Path(tmp) / "data" / "scenarios")], check=True
            )
        runs: dict[str, list[dict]] = {name: [] for name in trees}
        for _ in range(rounds):  # alternate the trees, so a busy moment hurts both alike
            for name, tree in trees.items():
                runs[name].append(_run_tree(tree, repeat))
        results = {name: _median_of(r) for name, r in runs.items()}
    print(
        f"medians of {rounds} rounds x {repeat} repetitions; steps/s over every shipped scenario (ask: items included)"
    )
    print(
        f"{'tree':<36} {'game':<10} {'scen.':>5} {'actions':>7} {'replay/s':>9} {'baseline/s':>10} "
        f"{'ratio':>6} {'engine/s':>9} {'steps/s':>9} {'copies/s':>9} {'ratio':>6}"
    )
    for name, res in results.items():
        for game, r in res.items():
            print(
                f"{name:<36} {game:<10} {r['scenarios']:>5} {r['actions']:>7} {r['replay']:>9,.0f} "
                f"{r['baseline']:>10,.0f} {r['replay'] / r['baseline']:>5.2f}x {r['engine']:>9,.0f} {r['steps']:>9,.0f} "
                f"{r['copies']:>9,.0f} {r['steps'] / r['copies']:>5.2f}x"
            )
    if against:
        (old, new) = results.values()
        for game in new:
            print(
                f"{game}: this tree / baseline tree: "
                + ", ".join(f"{k} {new[game][k] / old[game][k]:.2f}x" for k in ("replay", "engine", "steps"))
            )


# -- random play --------------------------------------------------------------------------------------
def random_play(n: int) -> None:
    sys.path.insert(0, str(REPO))
    from tests import test_mtg_random_play as mtg
    from tests import test_riftbound_random_play as rift

    print(f"random play, {n:,} steps per game, invariants checked after every step")
    start, steps, seed = time.perf_counter(), 0, 0
    while steps < n:
        steps += rift.play_random_game(seed, min(200, n - steps))
        seed += 1
    took = time.perf_counter() - start
    print(f"riftbound: {steps:,} steps in {seed:,} games, {took:.1f} s ({steps / took:,.0f} steps/s with the checks)")
    for edition in (mtg.NEW, mtg.OLD):
        start = time.perf_counter()
        wanted = n // 2
        kinds = mtg.play_random(edition, wanted, seed=f"bench-{edition}")
        took = time.perf_counter() - start
        done = sum(kinds.values())
        print(
            f"mtg {edition}: {done:,} steps, {took:.1f} s ({done / took:,.0f} steps/s with the checks); "
            + ", ".join(f"{k} {v:,}" for k, v in sorted(kinds.items()))
        )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--repeat", type=int, default=30, help="repetitions per measure in one process (default 30)")
    parser.add_argument("--rounds", type=int, default=3, help="processes per tree, alternating (default 3)")
    parser.add_argument("--against", metavar="REV", help="also measure the tree of this git revision")
    parser.add_argument("--random", type=int, metavar="N", help="run N random-play steps per game instead")
    parser.add_argument("--measure", metavar="TREE", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.measure:
        print(json.dumps(measure(Path(args.measure), Path(args.measure) / "data" / "scenarios", args.repeat)))
    elif args.random:
        random_play(args.random)
    else:
        compare(args.against, args.repeat, args.rounds)


if __name__ == "__main__":
    main()
