"""Loading card files (issue 21): a second load of unchanged files costs at most a tenth of the first, and
loading MTGJSON v3 costs at most 1.5x inserting the same records with sqlite-utils.

    python bench/cards_load.py [--runs 5] [--corpora DIR] [--bulk 30000]

Measured with time.perf_counter, in process, each run into a new empty library, medians of ``--runs``:

1. **first and second load** (``rulebook.cards.load.load``) of (a) the 40 MTGJSON v3 set files, (b) every card file
   of the corpora (v3, v5, the Scryfall objects and rulings, the Riftbound gallery and errata), (c) a
   synthetic Scryfall bulk file (``--bulk`` card objects made from the corpora's Scryfall objects, each
   renamed, one JSON array, as ``default-cards`` ships): a second load of the same files must cost at
   most a tenth of the first. The bulk load also runs in a child process whose peak memory is reported
   (the array is streamed, never held whole).
2. **v3 against a plain insert**: loading the 40 v3 files against, for each file, ``json.load`` and
   sqlite-utils' ``Table.insert_all`` of its card records as they are (every field, nested ones as
   JSON, the columns made as they come) and of its rulings (card name, date, text) into an empty
   database: what ``sqlite-utils insert`` does with those records. The two alternate (A B A B ...).

Prints a markdown table with the machine and the date.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import shutil
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import time
from datetime import date
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))


def load_twice(files: list[Path]) -> tuple[float, float, int]:
    """(first load, second load, cards) into a new library."""
    from rulebook.cards.load import load as load_cards
    from rulebook.cards.store import CardStore, card_db_path

    home = Path(tempfile.mkdtemp(prefix="cards-bench-"))
    try:
        store = CardStore(card_db_path(home))
        start = time.perf_counter()
        load_cards(store, files)
        first = time.perf_counter() - start
        start = time.perf_counter()
        again = load_cards(store, files)
        second = time.perf_counter() - start
        assert all(r["already_loaded"] for r in again)
        cards = store.count()
        store.close()
        return first, second, cards
    finally:
        shutil.rmtree(home, ignore_errors=True)


def plain_insert(files: list[Path]) -> float:
    """json.load and sqlite-utils insert_all of each v3 file's card and ruling records, as they are."""
    import sqlite_utils

    folder = Path(tempfile.mkdtemp(prefix="cards-plain-"))
    try:
        start = time.perf_counter()
        db = sqlite_utils.Database(folder / "plain.db")
        for f in files:
            with open(f, encoding="utf-8") as fh:
                s = json.load(fh)
            db["cards"].insert_all(s["cards"], alter=True)
            db["rulings"].insert_all(
                (
                    {"card": c["name"], "date": r["date"], "text": r["text"]}
                    for c in s["cards"]
                    for r in c.get("rulings", ())
                ),
                alter=True,
            )
        db.close()
        return time.perf_counter() - start
    finally:
        shutil.rmtree(folder, ignore_errors=True)


def bulk_file(corpora: Path, count: int, folder: Path) -> Path:
    """A Scryfall bulk-like array of ``count`` card objects, from the corpora's, renamed."""
    objects = []
    for f in sorted((corpora / "cards" / "mtg" / "scryfall").glob("*.json")):
        value = json.loads(f.read_text(encoding="utf-8"))
        if value.get("object") == "card":
            objects.append(value)
    path = folder / "default-cards.json"
    with open(path, "w", encoding="utf-8") as out:
        out.write("[\n")
        for i in range(count):
            card = dict(objects[i % len(objects)])
            card["name"] = f"{card['name']} {i // len(objects)}"
            card["oracle_id"] = f"{card.get('oracle_id')}-{i}"
            if "card_faces" in card:
                card["card_faces"] = [dict(face, name=f"{face['name']} {i}") for face in card["card_faces"]]
            out.write(("" if i == 0 else ",\n") + json.dumps(card, ensure_ascii=False))
        out.write("\n]\n")
    return path


_CHILD = """
import sys, time, resource
sys.path.insert(0, sys.argv[1])
from pathlib import Path
from rulebook.cards.load import load as load_cards
from rulebook.cards.store import CardStore, card_db_path
store = CardStore(card_db_path(Path(sys.argv[2])))
start = time.perf_counter()
load_cards(store, [sys.argv[3]])
print(time.perf_counter() - start, resource.getrusage(resource.RUSAGE_SELF).ru_maxrss, store.count())
"""


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--corpora", type=Path, default=REPO.parent / "shared" / "corpora")
    parser.add_argument("--bulk", type=int, default=30000, help="card objects in the synthetic bulk file")
    args = parser.parse_args()
    cards = args.corpora / "cards"
    v3 = sorted((cards / "mtg" / "mtgjson-v3").glob("*.json"))
    if not v3:
        sys.exit(f"no MTGJSON v3 files in {cards / 'mtg' / 'mtgjson-v3'}")
    every = [
        *v3,
        *sorted((cards / "mtg" / "scryfall").glob("*.json")),
        *sorted((cards / "mtg" / "mtgjson-v5").glob("*.json")),
        cards / "riftbound" / "cards.json",
        args.corpora / "riftbound" / "errata.json",
    ]
    folder = Path(tempfile.mkdtemp(prefix="cards-bulk-"))
    try:
        bulk = bulk_file(args.corpora, args.bulk, folder)
        bulk_mb = bulk.stat().st_size / 1e6
        rows = []
        for label, files in (
            ("40 MTGJSON v3 set files", v3),
            (f"every card file of the corpora ({len(every)})", every),
            (f"synthetic Scryfall bulk array, {args.bulk} objects, {bulk_mb:.0f} MB", [bulk]),
        ):
            firsts, seconds, count = [], [], 0
            for _ in range(args.runs if len(files) > 1 else max(1, args.runs // 2)):
                first, second, count = load_twice(files)
                firsts.append(first)
                seconds.append(second)
            f, s = statistics.median(firsts), statistics.median(seconds)
            rows.append((label, count, f, s))
        home = Path(tempfile.mkdtemp(prefix="cards-child-"))
        out = subprocess.run(
            [sys.executable, "-c", _CHILD, str(REPO), str(home), str(bulk)], capture_output=True, text=True, check=True
        ).stdout.split()
        shutil.rmtree(home, ignore_errors=True)
        child_seconds, peak_kb = float(out[0]), int(out[1])
        ours, plain = [], []
        for _ in range(args.runs):
            ours.append(load_twice(v3)[0])
            plain.append(plain_insert(v3))
        o, p = statistics.median(ours), statistics.median(plain)
    finally:
        shutil.rmtree(folder, ignore_errors=True)

    from importlib.metadata import version

    print(
        f"Machine: {platform.machine()}, {os.cpu_count()} cores, {platform.system()} {platform.release()}; "
        f"Python {platform.python_version()}, SQLite {sqlite3.sqlite_version}, "
        f"sqlite-utils {version('sqlite-utils')}; {date.today().isoformat()}; "
        f"medians of {args.runs} runs (the bulk file: {max(1, args.runs // 2)})"
    )
    print()
    print("| files | cards | first load | second load (unchanged) | second / first (bound 0.10) |")
    print("|---|---:|---:|---:|---:|")
    for label, count, f, s in rows:
        print(f"| {label} | {count:,} | {f:.3f} s | {s:.3f} s | {s / f:.3f} |")
    print()
    print(
        f"The bulk file's first load in a process of its own: {child_seconds:.2f} s, peak memory "
        f"{peak_kb / 1024:.0f} MB (the file is {bulk_mb:.0f} MB)."
    )
    print()
    print("| 40 MTGJSON v3 set files into an empty database | time | ratio (bound 1.5) |")
    print("|---|---:|---:|")
    print(f"| sqlite-utils insert_all of the records as they are (json.load included) | {p:.3f} s | 1.00 |")
    print(f"| judge's load (read, fold, cards.db with its FTS5 index) | {o:.3f} s | {o / p:.2f} |")


if __name__ == "__main__":
    main()
