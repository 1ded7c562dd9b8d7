"""Make the static meaning model that search ships (data/meaning/static-model.*) from the genuine
all-MiniLM-L6-v2 files.

    JUDGE_MODEL_DIR=/path/to/all-MiniLM-L6-v2 python bench/distill_static_model.py
    ... --dry-run        # measure, write nothing
    ... --cache DIR      # keep the teacher's outputs there (default: ~/.cache/rules-judge/distill)

JUDGE_MODEL_DIR holds the published ``vocab.txt`` and ``model.safetensors`` (both sha256 checked,
bench/minilm.py); the full documents must be in ../shared/corpora. The teacher is the transformer of
bench/minilm.py with the question adapter of bench/teacher/ (trained by train_question_adapter.py).

1. Every vocabulary token through the transformer as ``[CLS] token [SEP]``, mean-pooled: a row each.
2. Rows weighted by a / (a + p), p the token's frequency in the rule texts and training questions
   (smooth inverse frequency: "the", "of" and "." count for little, "deathtouch" for much).
3. Ridge regression (towards the table of step 2, LAMBDA_RULES) so that each rule row of the loaded books
   (headings > title. text, and each example; :func:`rulebook.vectors.rule_texts`) lands on the
   transformer's vector of it, scaled to the table's norm.
4. The same from that table, for the training questions (bench/meaning-training/), onto the
   transformer's vector moved by the question adapter (the adapter folded into the table), mixed
   with the mean of the transformer's vectors of the rows that answer the question (ANSWER_SHARE).
   The settings were chosen by recall@5 of meaning alone on the evaluation questions, the blind part
   held-out-11 left out.
5. Rows stored as int8 with a float32 scale each; the record (static-model.json) names the source
   model, its revision and files' sha256, the licence, this script and its settings, and the sha256
   of what was written.

Also writes data/meaning/question-memory.json: the training questions with their answers and a digest
of each answer's rule (bench/question_memory.py, which writes it alone; rulebook/memory.py); their
vectors are computed with the book's.
Deterministic: the same inputs write the same files.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import shutil
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path

import numpy as np

REPO = Path(__file__).resolve().parents[1]
for folder in (REPO, REPO / "bench"):
    if str(folder) not in sys.path:
        sys.path.insert(0, str(folder))

import minilm  # noqa: E402
from search_quality import answers, build_library  # noqa: E402
from train_question_adapter import contaminated, training_files, training_questions  # noqa: E402

from rulebook import semantic  # noqa: E402
from rulebook.vectors import rule_texts  # noqa: E402

OUT = REPO / "data" / "meaning"
SIF_A = 1e-3
LAMBDA_RULES = 3e-3
LAMBDA_QUESTIONS = 3e-2
ANSWER_SHARE = 0.3  # of a training question's target: the mean of its answers' vectors; the rest, the adapter's
LICENCE = "Apache-2.0"
NOTICE = (
    "Derived from sentence-transformers/all-MiniLM-L6-v2 (Apache License 2.0, "
    "https://www.apache.org/licenses/LICENSE-2.0), by the sentence-transformers authors; "
    "modified: token output vectors distilled into a static table and refitted (bench/distill_static_model.py)."
)


def teacher_outputs(cache: Path, encoder, store, books: list[str], questions: list[dict]) -> dict:
    """The transformer's vectors of every token, rule row and training question (cached by content)."""
    cache.mkdir(parents=True, exist_ok=True)
    vocab_size = len(encoder.vocabulary.ids)

    def cached(name: str, key: str, compute):
        path = cache / f"{name}-{hashlib.sha256(key.encode()).hexdigest()[:16]}.npy"
        if not path.exists():
            started = time.time()
            np.save(path, compute())
            print(f"  teacher: {name} in {time.time() - started:.0f} s", flush=True)
        return np.load(path)

    def tokens() -> np.ndarray:
        ids = np.array(
            [[encoder.vocabulary.ids["[CLS]"], i, encoder.vocabulary.ids["[SEP]"]] for i in range(vocab_size)]
        )
        out = np.zeros((vocab_size, minilm.DIMENSIONS), dtype=np.float32)
        for start in range(0, vocab_size, 1024):
            chunk = ids[start : start + 1024]
            out[start : start + 1024] = encoder._forward(chunk, np.ones(chunk.shape, dtype=np.float32))
        return out

    out = {"tokens": cached("tokens", minilm.MODEL_SHA256, tokens), "rows": {}}
    for book in books:
        numbers, texts = rule_texts(store, book)
        out["rows"][book] = (
            texts,
            cached(f"rows-{book}", minilm.MODEL_SHA256 + "\n".join(texts), lambda texts=texts: encoder.encode(texts)),
            numbers,
        )
    texts = [q["question"] for q in questions]
    out["questions"] = cached("questions", minilm.MODEL_SHA256 + "\n".join(texts), lambda: encoder.encode(texts))
    return out


def design(token_lists: list[list[int]], index: dict[int, int]) -> np.ndarray:
    """Each text's token counts over the tokens in ``index``, divided by its length (a mean)."""
    matrix = np.zeros((len(token_lists), len(index)), dtype=np.float32)
    for i, ids in enumerate(token_lists):
        for t in ids:
            matrix[i, index[t]] += 1.0 / len(ids)
    return matrix


def ridge(table: np.ndarray, token_lists: list[list[int]], targets: np.ndarray, lam: float) -> np.ndarray:
    """The table nearest ``table`` (in the rows these texts use) whose mean over each text's tokens is
    its target, scaled to the table's typical norm; solved in the dual, texts being fewer than tokens."""
    keep = [i for i, ids in enumerate(token_lists) if ids]
    token_lists, targets = [token_lists[i] for i in keep], targets[keep]
    used = sorted({t for ids in token_lists for t in ids})
    index = {t: j for j, t in enumerate(used)}
    m = design(token_lists, index)
    start = m @ table[used]
    scale = float(np.median(np.linalg.norm(start, axis=1)))
    kernel = m @ m.T
    kernel[np.diag_indices_from(kernel)] += lam
    out = table.copy()
    out[used] += m.T @ np.linalg.solve(kernel, scale * targets - start)
    return out


def distill(
    teacher: dict, vocabulary: semantic.Vocabulary, books: list[str], questions: list[dict], adapter: np.ndarray
) -> np.ndarray:
    rule_tokens = [vocabulary.tokens(t) for b in books for t in teacher["rows"][b][0]]
    question_tokens = [vocabulary.tokens(q["question"]) for q in questions]
    counts = Counter(t for ids in rule_tokens + question_tokens for t in ids)
    total = sum(counts.values())
    weights = np.ones(len(vocabulary.ids), dtype=np.float32)
    for t, n in counts.items():
        weights[t] = SIF_A / (SIF_A + n / total)
    table = teacher["tokens"] * weights[:, None]
    table = ridge(table, rule_tokens, np.concatenate([teacher["rows"][b][1] for b in books]), LAMBDA_RULES)
    targets = (1 - ANSWER_SHARE) * unit(teacher["questions"] @ adapter.T) + ANSWER_SHARE * answer_vectors(
        teacher, questions
    )
    return ridge(table, question_tokens, unit(targets), LAMBDA_QUESTIONS)


def unit(matrix: np.ndarray) -> np.ndarray:
    return matrix / np.maximum(np.linalg.norm(matrix, axis=1, keepdims=True), 1e-12)


def answer_vectors(teacher: dict, questions: list[dict]) -> np.ndarray:
    """Per training question, the mean of the transformer's vectors of the rows (rule texts and
    examples) of the rules that answer it or their sub-rules, as a unit vector."""
    out = np.zeros((len(questions), minilm.DIMENSIONS), dtype=np.float32)
    for i, q in enumerate(questions):
        _, vectors, numbers = teacher["rows"][q["book"]]
        rows = [j for j, n in enumerate(numbers) if answers(n, q["answers"])]
        if rows:
            out[i] = vectors[rows].mean(axis=0)
    return unit(out)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--dry-run", action="store_true", help="distill and report, write nothing")
    parser.add_argument(
        "--cache",
        type=Path,
        default=Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache") / "rules-judge" / "distill",
    )
    args = parser.parse_args()
    folder = minilm.model_dir()
    minilm.verify(folder)
    questions = training_questions()
    if contaminated(questions):
        sys.exit("training questions nearly repeat evaluation questions: run train_question_adapter.py --decontaminate")
    encoder = minilm.Encoder.load(folder, adapter=False)
    adapter = minilm.read_adapter()
    vocabulary = semantic.Vocabulary.read(folder / "vocab.txt")
    home = tempfile.mkdtemp(prefix="distill-")
    try:
        store, loaded = build_library(home)
        books = ["riftbound", "mtg", *loaded]
        started = time.time()
        teacher = teacher_outputs(args.cache, encoder, store, books, questions)
        table = distill(teacher, vocabulary, books, questions, adapter)
        rows, scales = semantic.quantize(table)
        print(f"distilled in {time.time() - started:.0f} s: {rows.shape[0]} x {rows.shape[1]} int8", flush=True)
        if args.dry_run:
            return
        OUT.mkdir(parents=True, exist_ok=True)
        np.save(OUT / "static-model.npy", rows)
        np.save(OUT / "static-model-scales.npy", scales)
        shutil.copyfile(folder / "vocab.txt", OUT / "vocab.txt")
        record = {
            "source": {
                "model": semantic.SOURCE_MODEL,
                "revision": minilm.REVISION,
                "model.safetensors sha256": minilm.MODEL_SHA256,
                "vocab.txt sha256": minilm.VOCAB_SHA256,
                "licence": LICENCE,
                "notice": NOTICE,
            },
            "made_by": "bench/distill_static_model.py",
            "settings": {
                "sif_a": SIF_A,
                "lambda_rules": LAMBDA_RULES,
                "lambda_questions": LAMBDA_QUESTIONS,
                "answer_share": ANSWER_SHARE,
                "books": books,
                "pooling": "mean of [CLS] token [SEP]",
                "adapter_sha256": minilm.sha256_of(minilm.ADAPTER),
                "training_files": training_files(),
            },
            "sha256": semantic.sha256_of(OUT / "static-model.npy"),
            "scales_sha256": semantic.sha256_of(OUT / "static-model-scales.npy"),
            "vocab_sha256": semantic.sha256_of(OUT / "vocab.txt"),
        }
        (OUT / "static-model.json").write_text(json.dumps(record, indent=1) + "\n", encoding="utf-8")
        write_memory(store, questions)
        print(f"wrote {OUT}/static-model.* ({(OUT / 'static-model.npy').stat().st_size / 1e6:.1f} MB)")
    finally:
        shutil.rmtree(home, ignore_errors=True)


def write_memory(store, questions: list[dict]) -> None:
    """The training questions, each with its answers' numbers and digests (bench/question_memory.py)."""
    import question_memory

    question_memory.write(store, questions, OUT / "question-memory.json")


if __name__ == "__main__":
    main()
