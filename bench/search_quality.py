"""How often `judge search` puts the rule that answers a judge's question near the top.

    python bench/search_quality.py            # recall@5 and MRR, plain bm25 against the ranker
    python bench/search_quality.py --misses   # also each tuning question whose answer is not first
    python bench/search_quality.py --without held-out-3   # a held-out part left out, totals included
    python bench/search_quality.py --numbers-only   # remembered answers at their own number only

Four rankers: plain FTS5 bm25 (the baseline), words (`search --words`: bm25 rescored, no model),
meaning (the meaning model's nearest rules alone, `rulebook.vectors.nearest`) and ranker (`judge
search` as shipped: words fused with the meaning model's nearest rules).

The questions and their answers are tests/search_questions.yaml. Every question is asked of its book
with rule hits only; a hit answers when it is one of the listed rules or one of their sub-rules.
recall@5: the share of questions with an answer among the first 5 hits. MRR: the mean over questions
of 1/rank of the first answer (0 when none is in the first 10). The held-out parts (every third
question of each book; then one part written before each later round of work, the fifth by a helper
that never saw the search code) were never looked at question by question while tuning: report them
apart.

The full documents (../shared/corpora: Riftbound Core Rules v1.2, MTG Comprehensive Rules 2026-02-27)
are loaded into a temporary library as `riftbound-v1.2` and `cr-2026`; without them only the seed
questions are asked.

The newer edition a judge holds (Riftbound Core Rules v1.3, loaded as `riftbound-v1.3`) is measured
apart, on the riftbound-v1.2 questions asked of it: each answer is followed to v1.3 through `judge
diff`'s matching of v1.2 to v1.3 (:func:`rulebook.diff.match_rules`), kept only where that match is
sure (the same number and text, or a pair of ``high`` confidence), and a question none of whose answers
is kept is left out (:func:`carried_questions`). Its row is not counted in ``all``; the row
``riftbound-v1.2 (same)`` asks v1.2 the same questions, with their answers there.
"""

from __future__ import annotations

import argparse
import re
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
if str(REPO) not in sys.path:
    sys.path.insert(0, str(REPO))
QUESTIONS = REPO / "tests" / "search_questions.yaml"
CORPORA = REPO.parent / "shared" / "corpora"
FULL_BOOKS = {  # book id -> (file, game)
    "riftbound-v1.2": (CORPORA / "riftbound" / "core-rules-v1.2.txt", "riftbound"),
    "cr-2026": (CORPORA / "mtg" / "MagicCompRules-2026-02-27.txt", "mtg"),
}
# A newer edition measured on an older one's questions (see carried_questions): id -> (file, game, the
# book whose questions it is asked).
NEWER_BOOKS = {
    "riftbound-v1.3": (CORPORA / "riftbound" / "core-rules-v1.3.txt", "riftbound", "riftbound-v1.2"),
}
PARTS = (
    "tuning",
    "held-out",
    "held-out-2",
    "held-out-3",
    "held-out-4",
    "held-out-5",
    "held-out-6",
    "held-out-7",
    "held-out-8",
    "held-out-9",
    "held-out-10",
    "held-out-11",
)  # see tests/search_questions.yaml
DEPTH = 10  # hits asked for; MRR counts an answer found down to this rank
K = 5


def load_questions(path: Path = QUESTIONS) -> list[dict]:
    import yaml

    return yaml.safe_load(path.read_text(encoding="utf-8"))["questions"]


def build_library(home: str | Path, newer: bool = False) -> tuple[object, list[str]]:
    """A library with the seeds and every full document present, and with ``newer`` each newer edition
    (NEWER_BOOKS) whose older book is there; (store, ids of the full books loaded)."""
    from rulebook.library import Library
    from rulebook.shipped import seeds_dir

    lib = Library(home, seeds=seeds_dir())
    loaded = []
    for book_id, (path, game) in FULL_BOOKS.items():
        if path.exists():
            lib.load([path], book_id, game=game)
            loaded.append(book_id)
    for book_id, (path, game, older) in NEWER_BOOKS.items() if newer else ():
        if path.exists() and older in loaded:
            lib.load([path], book_id, game=game)
            loaded.append(book_id)
    return lib.open(), loaded


def carried_questions(store, questions: list[dict], old: str, new: str) -> tuple[list[dict], dict]:
    """The questions of book ``old`` asked of book ``new``, each answer followed through `judge diff`'s
    matching (:func:`rulebook.diff.match_rules`): kept where the rule is anchored (same number and
    text) or paired with ``high`` confidence; a question keeping no answer is left out. Returns the
    questions (``book`` = new, ``answers`` = new numbers, ``answers_before`` = old numbers) and counts:
    questions asked of ``old``, carried, carried with an answer dropped; answers, kept."""
    from rulebook.diff import match_rules, read_rules

    m = match_rules(read_rules(store, old), read_rules(store, new))
    sure = {n: n for n in m.anchored}
    sure.update({p.old: p.new for p in m.pairs if p.confidence == "high"})
    out, counts = [], {"questions": 0, "carried": 0, "partly": 0, "answers": 0, "kept": 0}
    for q in questions:
        if q["book"] != old:
            continue
        counts["questions"] += 1
        wanted = [str(a) for a in q["answers"]]
        kept = [sure[a] for a in wanted if a in sure]
        counts["answers"] += len(wanted)
        counts["kept"] += len(kept)
        if kept:
            counts["carried"] += 1
            counts["partly"] += len(kept) < len(wanted)
            out.append({**q, "book": new, "answers": kept, "answers_before": wanted})
    return out, counts


def remember_by_number_alone() -> None:
    """Apply a remembered answer only where its own number reads the same (memory.MATCHING_VERSION 1,
    with today's digests), not to the rule reading the same under another number: to measure what
    following renumbered rules gains."""
    from rulebook import memory

    def follow(pairs, found):
        digests, _ = found
        out = []
        for number, digest in pairs:
            if digests.get(number) == digest and number not in out:
                out.append(number)
        return out

    memory.follow = follow


def answers(hit_id: str, expected: list[str]) -> bool:
    """The hit is an expected rule or one of its sub-rules (702.19 covers 702.19b, 443.1.d covers 443.1.d.3)."""
    for number in expected:
        if hit_id == number or (hit_id.startswith(number) and re.match(r"[.a-z]", hit_id[len(number)])):
            return True
    return False


def rank(ids: list[str], expected: list[str]) -> int | None:
    return next((i for i, hit_id in enumerate(ids, 1) if answers(hit_id, expected)), None)


def rankers() -> dict[str, Callable]:
    from rulebook import vectors
    from rulebook.search import baseline_search, search

    return {
        "bm25": lambda store, q, book: [h.id for h in baseline_search(store, q, book, DEPTH)],
        "words": lambda store, q, book: [
            h.id for h in search(store, q, book=book, limit=DEPTH, kinds=("rule",), meaning=False).hits
        ],
        "meaning": lambda store, q, book: [n.number for n in vectors.nearest(store, book, q, DEPTH)],
        "ranker": lambda store, q, book: [h.id for h in search(store, q, book=book, limit=DEPTH, kinds=("rule",)).hits],
    }


def evaluate(store, questions: list[dict], ranker: Callable) -> dict:
    """recall@5, MRR and the rank of each question's first answer."""
    ranks = [rank(ranker(store, q["question"], q["book"]), [str(a) for a in q["answers"]]) for q in questions]
    n = len(ranks) or 1
    return {
        "n": len(ranks),
        "recall@5": sum(1 for r in ranks if r and r <= K) / n,
        "mrr": sum(1 / r for r in ranks if r) / n,
        "ranks": ranks,
    }


def usable(questions: list[dict], books: set[str]) -> list[dict]:
    return [q for q in questions if q["book"] in books]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--misses", action="store_true", help="list tuning questions whose answer is not first")
    parser.add_argument(
        "--without",
        action="append",
        default=[],
        choices=PARTS,
        metavar="PART",
        help="leave a part out entirely, totals included (a held-out part while tuning)",
    )
    parser.add_argument(
        "--numbers-only",
        action="store_true",
        help="remembered answers only where their own number reads the same, to compare",
    )
    args = parser.parse_args()
    if args.numbers_only:
        remember_by_number_alone()
    questions = [q for q in load_questions() if q["part"] not in args.without]
    with tempfile.TemporaryDirectory() as home:
        store, loaded = build_library(home, newer=True)
        asked = usable(questions, {"riftbound", "mtg", *loaded})
        if len(asked) < len(questions):
            print(f"note: {len(questions) - len(asked)} questions skipped (full documents absent from {CORPORA})")
        parts = {"all": asked}
        for part in PARTS:
            if part not in args.without:
                parts[part] = [q for q in asked if q["part"] == part]
        for book in sorted({q["book"] for q in asked}):
            parts[book] = [q for q in asked if q["book"] == book]
        for newer in (b for b in NEWER_BOOKS if b in loaded):  # measured apart: not part of "all"
            older = NEWER_BOOKS[newer][2]
            carried, counts = carried_questions(store, asked, older, newer)
            parts[f"{older} (same)"] = [{**q, "book": older, "answers": q["answers_before"]} for q in carried]
            parts[newer] = carried
            print(
                f"note: {newer} is asked {counts['carried']} of the {counts['questions']} {older} questions, "
                f"their answers followed by judge diff's sure matches ({counts['kept']} of {counts['answers']} "
                f"answers kept; {counts['partly']} questions lost one)"
            )
        print(
            f"{'part':<22} {'n':>3}  {'bm25 R@5':>9} {'bm25 MRR':>9}  {'words R@5':>9} {'words MRR':>9}"
            f"  {'meaning R@5':>11}  {'ranker R@5':>10} {'ranker MRR':>10}"
        )
        results = {}
        for name, fn in rankers().items():
            results[name] = {p: evaluate(store, qs, fn) for p, qs in parts.items()}
        for p, qs in parts.items():
            b, w, m, r = (results[name][p] for name in ("bm25", "words", "meaning", "ranker"))
            print(
                f"{p:<22} {len(qs):>3}  {b['recall@5']:>9.3f} {b['mrr']:>9.3f}  {w['recall@5']:>9.3f} {w['mrr']:>9.3f}"
                f"  {m['recall@5']:>11.3f}  {r['recall@5']:>10.3f} {r['mrr']:>10.3f}"
            )
        from rulebook.search import search

        for book in ("cr-2026", "riftbound-v1.2"):
            qs = [q["question"] for q in asked if q["book"] == book]
            if qs:
                t0 = time.perf_counter()
                for _ in range(3):
                    for q in qs:
                        search(store, q, book=book)
                print(
                    f"latency, in-process search on {book}: {(time.perf_counter() - t0) / (3 * len(qs)) * 1000:.1f} ms per question"
                )
        if args.misses:
            tuning = parts["tuning"]
            for name in ("bm25", "ranker"):
                print(f"\n{name}: tuning questions whose answer is not first")
                for q, r in zip(tuning, results[name]["tuning"]["ranks"]):
                    if r != 1:
                        top = rankers()[name](store, q["question"], q["book"])[:5]
                        print(f"  [{r}] {q['book']}: {q['question']!r} wants {q['answers']}; top {top}")
        store.close()


if __name__ == "__main__":
    main()
