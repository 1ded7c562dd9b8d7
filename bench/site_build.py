"""``judge site`` of the full library (issue 24 bounds it at 10 s), against ``judge rule``.

A library in a temporary JUDGE_HOME with the 2026 CR, Riftbound Core Rules v1.2 (with the Origins and
Spiritforged FAQs) and v1.3 (with the Unleashed FAQ), and every card file of ../shared/corpora (the
Riftbound errata too); loading is not timed. Then ``judge site OUTDIR`` as a judge runs it, a new process
each time into a new folder, alternating with ``judge rule 702.19b --book cr-2026`` (the baseline: a
process that opens the same library and answers one lookup): medians of ``--runs``, and the ratio:

    python bench/site_build.py [--runs 3]
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
from timed import JUDGE, run  # noqa: E402

CORPORA = REPO.parent / "shared" / "corpora"
BOUND = 10.0  # seconds


def loads() -> list[list[str]]:
    """The ``judge load`` arguments of the library the site is built from."""
    rb = CORPORA / "riftbound"
    cards = CORPORA / "cards"
    card_files = [
        *sorted((cards / "mtg" / "mtgjson-v3").glob("*.json")),
        *sorted((cards / "mtg" / "scryfall").glob("*.json")),
        *sorted((cards / "mtg" / "mtgjson-v5").glob("*.json")),
        cards / "riftbound" / "cards.json",
        rb / "errata.json",
    ]
    return [
        ["load", str(CORPORA / "mtg" / "MagicCompRules-2026-02-27.txt"), "--book", "cr-2026"],
        [
            "load",
            *(str(rb / n) for n in ("core-rules-v1.2.txt", "faq-origins.md", "faq-spiritforged.md")),
            "--book",
            "rb-1.2",
        ],
        ["load", str(rb / "core-rules-v1.3.txt"), str(rb / "faq-unleashed.md"), "--book", "rb-1.3"],
        ["load", *map(str, card_files)],
    ]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args()
    if not (CORPORA / "cards").exists():
        print(f"the corpora are absent ({CORPORA})", file=sys.stderr)
        return 2
    print(
        f"{platform.machine()}, {os.cpu_count()} cores, Python {platform.python_version()}, "
        f"{time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}"
    )
    with tempfile.TemporaryDirectory() as work:
        env = {**os.environ, "JUDGE_HOME": str(Path(work) / "home")}
        start = time.perf_counter()
        for load in loads():
            run(load, env)
        print(f"library loaded in {time.perf_counter() - start:.1f} s (not timed)")
        baseline = ["rule", "702.19b", "--book", "cr-2026"]
        run(baseline, env)  # warm: byte-code compiled, the library's stamp checked
        site_times, rule_times = [], []
        for n in range(args.runs):
            rule_times.append(run(baseline, env))
            site_times.append(run(["site", str(Path(work) / f"site{n}")], env))
        out = subprocess.run(
            [*JUDGE, "site", str(Path(work) / "site-last"), "--json"],
            env=env,
            check=True,
            capture_output=True,
            text=True,
        ).stdout
        print(f"site: {out.strip()[:300]}")
        size = sum(f.stat().st_size for f in (Path(work) / "site-last").rglob("*") if f.is_file())
    site_s, rule_s = statistics.median(site_times), statistics.median(rule_times)
    print(
        f"judge site:  median {site_s:.2f} s of {args.runs} ({', '.join(f'{t:.2f}' for t in site_times)}), "
        f"{size / 1e6:.1f} MB written"
    )
    print(f"judge rule:  median {rule_s * 1000:.0f} ms (baseline)")
    print(f"ratio {site_s / rule_s:.1f}x the baseline; bound {BOUND:.0f} s: {'met' if site_s <= BOUND else 'NOT met'}")
    return 0 if site_s <= BOUND else 1


if __name__ == "__main__":
    sys.exit(main())
