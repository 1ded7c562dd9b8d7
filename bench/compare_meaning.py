"""Meaning rankers compared on tests/search_questions.yaml: the transformer against the static tables.

    JUDGE_MODEL_DIR=/path/to/all-MiniLM-L6-v2 python bench/compare_meaning.py
    ... --m2v-python /tmp/m2v/bin/python   # the venv that has model2vec (default; absent: column skipped)
    ... --out /tmp/compare_meaning.txt      # where the printed report is also written (default)
    ... --meaning-rev HEAD                  # whose data/meaning/ is measured (default; 'worktree': as is)

Options (recall@5 / MRR, as bench/search_quality.py counts them):

  T          all-MiniLM-L6-v2 (bench/minilm.py) alone: rule rows vs the question, no adapter, no memory
  T+A+M      the same plus the question adapter and the question memory (search until the static table)
  T+A+M fuse T+A+M fused with the words ranker as search does: rulebook.vectors.nearest monkeypatched
  static     the shipped static table (rulebook.vectors.nearest as is), meaning alone; data/meaning/
             is read from a snapshot of --meaning-rev, since others may rewrite it mid-run
  static fus the shipped search, fused; NEVER asked a held-out-11 question (reserved): cells whose
             part holds such questions show "-", and a row "all-but-ho11" gives its total
  m2v        model2vec's own distillation of the same files (its defaults) and its own encode
  words      search --words (no meaning), for reference; like 'static fus', never run on held-out-11

The transformer's vectors are cached under ~/.cache/rules-judge/compare (keyed by the texts' sha256,
with the seconds they took): the Comprehensive Rules take minutes the first time.

model2vec runs in a venv of its own, this file being run there as a worker (``--m2v-worker``):
    python3 -m venv /tmp/m2v && /tmp/m2v/bin/pip install torch==2.13.0   # the CPU wheel on disk
    /tmp/m2v/bin/pip install "model2vec[distill,quantization]" torch==2.13.0   # distill imports sklearn
It distills offline from the local folder (``distill(model_name=<folder>)``, HF_HUB_OFFLINE=1), saves
the model under /tmp/compare-meaning/m2v-model (reused next time, with its distillation time) and
exchanges texts and vectors with the main process through /tmp/compare-meaning.

Needs: JUDGE_MODEL_DIR (the published files, sha256 checked), ../shared/corpora for the full books,
the project's dev venv (numpy, yaml).
"""

from __future__ import annotations

import argparse
import contextlib
import hashlib
import io
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

REPO = Path(__file__).resolve().parents[1]
EXCHANGE = Path("/tmp/compare-meaning")
CACHE = Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache") / "rules-judge" / "compare"
TIMED_BOOK = "cr-2026"
HELD = "held-out-11"  # the shipped fused ranker is never run on it
BLIND = ("static fus", "words")  # shipped rankers other than meaning alone: never run on HELD
SAMPLE = 40  # questions encoded one at a time for the per-question cost


def unit(m: np.ndarray) -> np.ndarray:
    return m / np.maximum(np.linalg.norm(m, axis=1, keepdims=True), 1e-12)


# --- model2vec worker (run with the m2v venv's python; imports nothing of the project) -----------------


def m2v_worker() -> None:
    os.environ["HF_HUB_OFFLINE"] = "1"
    os.environ["TRANSFORMERS_OFFLINE"] = "1"
    os.environ["TQDM_DISABLE"] = "1"
    import model2vec
    from model2vec import StaticModel
    from model2vec.distill import distill

    job = json.loads((EXCHANGE / "m2v-in.json").read_text(encoding="utf-8"))
    saved, record = EXCHANGE / "m2v-model", EXCHANGE / "m2v-distill.json"
    if not record.exists():
        started = time.perf_counter()
        distill(model_name=job["model_dir"]).save_pretrained(saved)
        record.write_text(json.dumps({"distill_s": time.perf_counter() - started}))
    info = json.loads(record.read_text())
    started = time.perf_counter()
    model = StaticModel.from_pretrained(saved)
    info |= {
        "version": model2vec.__version__,
        "load_s": time.perf_counter() - started,
        "dims": model.dim,
        "size_bytes": sum(p.stat().st_size for p in saved.rglob("*") if p.is_file()),
        "encode_s": {},
    }
    for name, texts in job["texts"].items():
        started = time.perf_counter()
        vectors = model.encode(texts)
        info["encode_s"][name] = time.perf_counter() - started
        np.save(EXCHANGE / f"m2v-{name}.npy", unit(np.asarray(vectors, dtype=np.float32)))
    sample = job["texts"]["questions"][:SAMPLE]
    started = time.perf_counter()
    for q in sample:
        model.encode([q])
    info["per_question_s"] = (time.perf_counter() - started) / len(sample)
    (EXCHANGE / "m2v-out.json").write_text(json.dumps(info))


def run_m2v(python: str, model_dir: str, texts: dict[str, list[str]]) -> tuple[dict, dict] | None:
    """model2vec's vectors of every text list, and its record; None when its venv is absent or fails."""
    if not Path(python).exists():
        return None
    EXCHANGE.mkdir(parents=True, exist_ok=True)
    (EXCHANGE / "m2v-in.json").write_text(json.dumps({"model_dir": model_dir, "texts": texts}))
    done = subprocess.run([python, str(Path(__file__).resolve()), "--m2v-worker"], cwd="/tmp")
    if done.returncode:
        print(f"note: the model2vec worker failed ({done.returncode})", file=sys.stderr)
        return None
    info = json.loads((EXCHANGE / "m2v-out.json").read_text())
    return {name: np.load(EXCHANGE / f"m2v-{name}.npy") for name in texts}, info


# --- the main process ----------------------------------------------------------------------------------


def cached_encode(encoder, name: str, texts: list[str]) -> tuple[np.ndarray, float]:
    """The transformer's plain vectors of texts, and the seconds they took when first computed."""
    import minilm

    CACHE.mkdir(parents=True, exist_ok=True)
    key = hashlib.sha256("\n".join([minilm.MODEL_SHA256, str(minilm.MAX_TOKENS), *texts]).encode()).hexdigest()[:20]
    path = CACHE / f"{name}-{key}.npy"
    if not path.exists():
        started = time.perf_counter()
        vectors = encoder.encode(texts)
        np.save(path, vectors)
        path.with_suffix(".json").write_text(json.dumps({"seconds": time.perf_counter() - started, "n": len(texts)}))
        print(f"  transformer: {name} ({len(texts)} texts) in {time.perf_counter() - started:.0f} s", flush=True)
    return np.load(path), json.loads(path.with_suffix(".json").read_text())["seconds"]


class Index:
    """A book's rows for one option: the rule numbers of each row, unit vectors, the remembered question."""

    def __init__(self, numbers: list[list[str]], matrix: np.ndarray, remembered: list[str | None]):
        self.numbers, self.matrix, self.remembered = numbers, matrix, remembered


def nearest_from(indexes: dict[str, Index], question_vector):
    """A drop-in for rulebook.vectors.nearest over these indexes (a rule is as near as its best row)."""
    from rulebook.vectors import Near

    def nearest(store, book, query, depth):
        ix = indexes[book]
        sims = ix.matrix @ question_vector(query)
        best: dict[str, Near] = {}
        for i in np.argsort(-sims, kind="stable"):
            for number in ix.numbers[i]:
                if number not in best:
                    best[number] = Near(number, float(sims[i]), ix.remembered[i])
            if len(best) >= depth:
                break
        return list(best.values())[:depth]

    return nearest


def snapshot_meaning(rev: str) -> str:
    """Point search at data/meaning/* as committed at ``rev`` (others may rewrite the working tree's
    mid-run, and the table is memory-mapped); the static table's sha256."""
    from rulebook import memory, semantic, shipped

    folder = EXCHANGE / "data" / "meaning"
    folder.mkdir(parents=True, exist_ok=True)
    for name in (
        "static-model.npy",
        "static-model-scales.npy",
        "static-model.json",
        "vocab.txt",
        "question-memory.json",
    ):
        blob = subprocess.run(
            ["git", "-C", str(REPO), "show", f"{rev}:data/meaning/{name}"], capture_output=True, check=True
        ).stdout
        (folder / name).write_bytes(blob)
    for module in (memory, semantic, shipped):  # each imported data_file by name
        module.data_file = lambda name: folder.parent / name
    return semantic.verify(folder)


@contextlib.contextmanager
def patched_nearest(fn):
    from rulebook import vectors

    shipped = vectors.nearest
    vectors.nearest = fn
    try:
        yield
    finally:
        vectors.nearest = shipped


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--m2v-worker", action="store_true", help=argparse.SUPPRESS)
    parser.add_argument("--m2v-python", default="/tmp/m2v/bin/python")
    parser.add_argument("--out", type=Path, default=Path("/tmp/compare_meaning.txt"))
    parser.add_argument(
        "--meaning-rev",
        default="HEAD",
        help="git revision whose data/meaning/ (static table, memory) is measured; "
        "'worktree' for the files as they are",
    )
    args = parser.parse_args()
    if args.m2v_worker:
        return m2v_worker()
    git = ["git", "-C", str(REPO)]  # the code measured is the checkout's as imported now: others may be editing it
    code = subprocess.run([*git, "rev-parse", "--short", "HEAD"], capture_output=True, text=True).stdout.strip()
    dirty = [
        d[3:]
        for d in subprocess.run(
            [*git, "status", "--porcelain", "--", "rulebook", "judge"], capture_output=True, text=True
        ).stdout.split("\n")
        if d
    ]
    code += f" + uncommitted {', '.join(dirty)}" if dirty else ""
    for folder in (REPO, REPO / "bench"):
        if str(folder) not in sys.path:
            sys.path.insert(0, str(folder))
    import minilm
    from search_quality import DEPTH, PARTS, build_library, evaluate, load_questions, usable

    from rulebook import meaning_rows, memory, semantic, vectors
    from rulebook.search import search
    from rulebook.search.settings import DEFAULT

    folder = minilm.model_dir()
    minilm.verify(folder)
    encoder = minilm.Encoder.load(folder, adapter=True)
    adapter = encoder.adapter
    report = io.StringIO()
    if args.meaning_rev == "worktree":
        table = semantic.verify()
    else:
        table = snapshot_meaning(args.meaning_rev)

    def say(line: str = "") -> None:
        print(line, flush=True)
        report.write(line + "\n")

    with tempfile.TemporaryDirectory() as home:
        store, loaded = build_library(home)
        asked = usable(load_questions(), {"riftbound", "mtg", *loaded})
        books = sorted({q["book"] for q in asked})
        texts = {b: vectors.rule_texts(store, b) for b in books}  # (numbers, texts)
        remembered = {b: memory.applicable(store.rules(b)) for b in books}  # [(question, numbers)]
        questions = sorted({q["question"] for q in asked})

        # The transformer: rule rows plain, questions and remembered questions plain and adapted.
        timings: dict[str, dict] = {}
        rows = {b: cached_encode(encoder, f"rows-{b}", texts[b][1]) for b in books}
        memory_texts = sorted({q for b in books for q, _ in remembered[b]})
        memory_plain, _ = cached_encode(encoder, "memory", memory_texts)
        memory_adapted = dict(zip(memory_texts, unit(memory_plain @ adapter.T)))
        question_plain = dict(zip(questions, cached_encode(encoder, "questions", questions)[0]))
        question_adapted = dict(zip(questions, unit(np.stack(list(question_plain.values())) @ adapter.T)))
        sample = questions[:SAMPLE]
        started = time.perf_counter()
        for q in sample:
            encoder.encode_questions([q])
        timings["T"] = {
            "rows_s": rows[TIMED_BOOK][1] if TIMED_BOOK in rows else None,
            "question_s": (time.perf_counter() - started) / len(sample),
        }
        timings["T+A+M"] = timings["T"]

        def vector_of(known: dict, adapted: bool):
            def get(query: str) -> np.ndarray:
                if query not in known:  # search hands nearest the query as typed: should not happen
                    known[query] = (encoder.encode_questions if adapted else encoder.encode)([query])[0]
                return known[query]

            return get

        plain_ix = {b: Index([[n] for n in texts[b][0]], rows[b][0], [None] * len(texts[b][0])) for b in books}
        full_ix = {
            b: Index(
                [[n] for n in texts[b][0]] + [ns for _, ns in remembered[b]],
                np.vstack([rows[b][0], *[memory_adapted[q][None] for q, _ in remembered[b]]]),
                [None] * len(texts[b][0]) + [q for q, _ in remembered[b]],
            )
            for b in books
        }
        t_alone = nearest_from(plain_ix, vector_of(question_plain, adapted=False))
        tam = nearest_from(full_ix, vector_of(question_adapted, adapted=True))

        # The shipped static table: the cost of a book's rows and of a question.
        model = semantic.StaticModel.load()
        if model.sha256 != table:
            sys.exit(f"search reads static table {model.sha256[:12]}, not the snapshot's {table[:12]}")
        if TIMED_BOOK in books:
            started = time.perf_counter()
            model.encode(texts[TIMED_BOOK][1])
            rows_s = time.perf_counter() - started
            started = time.perf_counter()
            meaning_rows.book_rows(store.rules(TIMED_BOOK))
            timings["static"] = {"rows_s": rows_s, "book_rows_s": time.perf_counter() - started}
        started = time.perf_counter()
        for q in sample:
            model.encode([q])
        timings.setdefault("static", {})["question_s"] = (time.perf_counter() - started) / len(sample)

        # model2vec, in its own venv.
        m2v = run_m2v(
            args.m2v_python, str(folder), {**{f"rows-{b}": texts[b][1] for b in books}, "questions": questions}
        )
        rankers = {
            "T": lambda s, q, b: [n.number for n in t_alone(s, b, q, DEPTH)],
            "T+A+M": lambda s, q, b: [n.number for n in tam(s, b, q, DEPTH)],
            "T+A+M fuse": lambda s, q, b: [h.id for h in search(s, q, book=b, limit=DEPTH, kinds=("rule",)).hits],
            "static": lambda s, q, b: [n.number for n in vectors.nearest(s, b, q, DEPTH)],
            "static fus": lambda s, q, b: [h.id for h in search(s, q, book=b, limit=DEPTH, kinds=("rule",)).hits],
        }
        if m2v:
            m2v_vectors, m2v_info = m2v
            m2v_ix = {
                b: Index([[n] for n in texts[b][0]], m2v_vectors[f"rows-{b}"], [None] * len(texts[b][0])) for b in books
            }
            m2v_near = nearest_from(m2v_ix, dict(zip(questions, m2v_vectors["questions"])).__getitem__)
            rankers["m2v"] = lambda s, q, b: [n.number for n in m2v_near(s, b, q, DEPTH)]
            timings["m2v"] = {
                "rows_s": m2v_info["encode_s"].get(f"rows-{TIMED_BOOK}"),
                "question_s": m2v_info["per_question_s"],
            }
        rankers["words"] = lambda s, q, b: [
            h.id for h in search(s, q, book=b, limit=DEPTH, kinds=("rule",), meaning=False).hits
        ]

        parts = {"all": asked, "all-but-ho11": [q for q in asked if q["part"] != HELD]}
        parts |= {p: [q for q in asked if q["part"] == p] for p in PARTS}
        parts |= {b: [q for q in asked if q["book"] == b] for b in books}
        results: dict[tuple[str, str], dict] = {}
        calls = [0]

        def counted(*a):
            calls[0] += 1
            return tam(*a)

        for name, fn in rankers.items():
            started = time.perf_counter()
            for part, qs in parts.items():
                if name in BLIND and any(q["part"] == HELD for q in qs):
                    continue  # reserved: the shipped rankers are never asked a held-out-11 question
                if name == "T+A+M fuse":
                    with patched_nearest(counted):
                        results[(name, part)] = evaluate(store, qs, fn)
                else:
                    results[(name, part)] = evaluate(store, qs, fn)
            print(f"  {name}: evaluated in {time.perf_counter() - started:.0f} s", flush=True)
        store.close()
    if not calls[0]:
        sys.exit("search never called the patched nearest: 'T+A+M fuse' would be words alone")

    say(
        f"code: {code}; fusion "
        f"k {DEFAULT.fusion_k}, meaning weight {DEFAULT.meaning_weight}, meaning-only cosine "
        f"{DEFAULT.meaning_only_cosine}, depth {DEFAULT.fusion_depth}"
    )
    say(f"recall@5 / MRR on {len(asked)} questions of tests/search_questions.yaml (books: {', '.join(books)})")
    say(f"{'part':<16} {'n':>3}  " + "  ".join(f"{name:>11}" for name in rankers))
    for part, qs in parts.items():
        cells = []
        for name in rankers:
            r = results.get((name, part))
            cells.append(f"{r['recall@5']:.3f}/{r['mrr']:.3f}" if r else f"{'-':>11}")
        say(f"{part:<16} {len(qs):>3}  " + "  ".join(cells))
    say(f"\nstatic table sha256 {table[:16]}... and question memory from data/meaning/ at {args.meaning_rev}")
    say(f"{' and '.join(BLIND)} are never run on {HELD} ('-': the part holds such questions).")
    say(
        f"\nCost ({TIMED_BOOK}: {len(texts[TIMED_BOOK][1]) if TIMED_BOOK in texts else 0} rule rows; "
        f"a question: mean of {len(sample)} encoded one at a time):"
    )
    for name, t in timings.items():
        rows_s = f"{t['rows_s']:.2f} s" if t.get("rows_s") is not None else "?"
        extra = f"  (meaning_rows.book_rows, quantized: {t['book_rows_s']:.2f} s)" if "book_rows_s" in t else ""
        say(f"  {name:<7} rule rows {rows_s:>9}   per question {t['question_s'] * 1000:7.2f} ms{extra}")
    say("  (T: rule rows timed when first encoded into the cache; per question includes the adapter's product)")
    if m2v:
        say(
            f"\nmodel2vec {m2v_info['version']}: distill (defaults, pca 256, float16) {m2v_info['distill_s']:.0f} s, "
            f"saved model {m2v_info['size_bytes'] / 1e6:.1f} MB, {m2v_info['dims']} dimensions, "
            f"load {m2v_info['load_s']:.2f} s"
        )
    else:
        say(f"\nmodel2vec: not run ({args.m2v_python} absent or failed)")
    args.out.write_text(report.getvalue(), encoding="utf-8")


if __name__ == "__main__":
    main()
