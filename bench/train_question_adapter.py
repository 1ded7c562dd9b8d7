"""Train the question adapter: a matrix that moves a judge's question towards the rules answering it.

    python bench/train_question_adapter.py           # train on every question; write the adapter
                                                     # (bench/teacher/question-adapter.{npy,json})
    python bench/train_question_adapter.py --dry-run # hold VALIDATION back, train, report, write nothing
    python bench/train_question_adapter.py --decontaminate  # first drop training questions that
                                                     # nearly repeat an evaluation question

The sentence model (all-MiniLM-L6-v2) was trained on general text: "my unit died, does its buff
stay" and rule 705 are further apart for it than they should be. The adapter is one 384 x 384 matrix
W applied to a question's vector (then normalised) before it is compared with the rules' vectors,
which stay the model's own. It is trained here, with NumPy alone, by full-batch Adam on a softmax
over every row of the question's book (temperature TAU): the loss is low when the rows of the rules
that answer the question (or their sub-rules) are nearer than every other row. Weight decay towards
the identity (LAMBDA) keeps W close to the model it starts from.

Training questions: bench/meaning-training/*.yaml, written by helpers that read only the rule
documents, never tests/search_questions.yaml (the evaluation set) nor the search code. ``--dry-run``
holds VALIDATION of them back and reports how the adapter does on those; the adapter that ships is
trained on all of them (a held-back share that changes whenever a question is added made the shipped
adapter vary by a point or two from one retraining to the next). Writers of both sets read the same rules, and
some questions came out nearly word for word alike ("how does the mulligan work"): a training
question that nearly repeats an evaluation question of its book (:func:`near_duplicate`) is not
allowed, training refuses to start while one is left, and ``--decontaminate`` deletes them. The full documents must be in ../shared/corpora
(they are loaded into a temporary library; the rules' vectors come from the usual cache, computed if
missing). Everything is seeded: the same inputs write the same matrix.

The adapter is part of the teacher: bench/distill_static_model.py folds it into the static table that
search ships, and writes the question memory. Needs JUDGE_MODEL_DIR (bench/minilm.py).
"""

from __future__ import annotations

import argparse
import hashlib
import json
import re
import sys
import tempfile
import time
from pathlib import Path

import numpy as np
import yaml
from rapidfuzz import fuzz

REPO = Path(__file__).resolve().parents[1]
for folder in (REPO, REPO / "bench"):
    if str(folder) not in sys.path:
        sys.path.insert(0, str(folder))

from search_quality import FULL_BOOKS, answers, build_library, load_questions  # noqa: E402

TRAINING = REPO / "bench" / "meaning-training"
OUT = REPO / "bench" / "teacher" / "question-adapter.npy"
TAU = 0.05
LAMBDA = 1e-2
STEPS = 150
LEARNING_RATE = 1e-3
VALIDATION = 0.15
SEED = 0
K = 5
SIMILAR = 75  # rapidfuzz ratio or token-sort ratio, 0-100, at or above which two questions are one


def _plain(text: str) -> str:
    return " ".join(re.sub(r"[^a-z0-9]+", " ", text.lower()).split())


def near_duplicate(a: str, b: str) -> bool:
    """The two questions are the same question (spelling, punctuation and word order aside).

    >>> near_duplicate("does unused mana carry over to the next step", "Does unused mana carry over?")
    True
    >>> near_duplicate("can i equip at instant speed", "what does ward do")
    False
    """
    a, b = _plain(a), _plain(b)
    return max(fuzz.ratio(a, b), fuzz.token_sort_ratio(a, b)) >= SIMILAR


def contaminated(questions: list[dict]) -> list[dict]:
    """The training questions that nearly repeat an evaluation question asked of the same book."""
    evaluation = load_questions()
    return [
        q
        for q in questions
        if any(e["book"] == q["book"] and near_duplicate(q["question"], e["question"]) for e in evaluation)
    ]


def decontaminate() -> int:
    """Delete the contaminated questions' lines from the training files; how many were deleted."""
    drop = {(q["file"], q["question"]) for q in contaminated(training_questions())}
    for path in sorted(TRAINING.glob("*.yaml")):
        lines = path.read_text(encoding="utf-8").splitlines(keepends=True)
        kept = [
            line
            for line in lines
            if not (
                line.lstrip().startswith("- {")
                and (path.name, str(yaml.safe_load(line.strip()[2:])["question"])) in drop
            )
        ]
        if len(kept) != len(lines):
            path.write_text("".join(kept), encoding="utf-8")
    return len(drop)


def training_questions() -> list[dict]:
    out = []
    for path in sorted(TRAINING.glob("*.yaml")):
        for q in yaml.safe_load(path.read_text(encoding="utf-8"))["questions"]:
            out.append({**q, "answers": [str(a) for a in q["answers"]], "file": path.name})
    return out


def effective(store, question: str, book: str) -> str:
    """The query the sentence model is given: the question after typo correction, as search does."""
    from rulebook.search import search

    result = search(store, question, book=book, limit=1, kinds=("rule",), meaning=False)
    return result.corrected or question


class Book:
    """One book's rows (rule vectors) and, per question asked of it, which rows answer."""

    def __init__(self, numbers: list[str], matrix: np.ndarray):
        self.numbers, self.matrix = numbers, matrix

    def positives(self, expected: list[str]) -> np.ndarray:
        return np.array([answers(n, expected) for n in self.numbers])


def loss_and_gradient(
    W: np.ndarray, groups: list[tuple[np.ndarray, Book, np.ndarray]], n: int
) -> tuple[float, np.ndarray]:
    """Mean softmax loss over the questions (groups: question vectors, their book, positive rows) and dW."""
    loss, grad = 0.0, np.zeros_like(W)
    for Q, book, positive in groups:
        X = Q @ W.T
        r = np.linalg.norm(X, axis=1, keepdims=True)
        U = X / r
        S = U @ book.matrix.T / TAU
        S -= S.max(1, keepdims=True)
        E = np.exp(S)
        P = E / E.sum(1, keepdims=True)
        Epos = np.where(positive, E, 0.0)
        Ppos = Epos / Epos.sum(1, keepdims=True)
        loss += float((np.log(E.sum(1)) - np.log(Epos.sum(1))).sum())
        GU = (P - Ppos) @ book.matrix / TAU
        GX = (GU - U * (GU * U).sum(1, keepdims=True)) / r
        grad += GX.T @ Q
    identity = np.eye(W.shape[0], dtype=W.dtype)
    return loss / n + LAMBDA * float(((W - identity) ** 2).sum()), grad / n + 2 * LAMBDA * (W - identity)


def recall(W: np.ndarray | None, groups: list[tuple[np.ndarray, Book, list[list[str]]]]) -> float:
    """Share of questions with an answering rule among the first K rules by meaning alone."""
    found = total = 0
    for Q, book, expected in groups:
        X = Q if W is None else Q @ W.T
        S = (X / np.linalg.norm(X, axis=1, keepdims=True)) @ book.matrix.T
        for row, wanted in zip(S, expected):
            seen: list[str] = []
            for i in np.argsort(-row, kind="stable"):
                if book.numbers[i] not in seen:
                    seen.append(book.numbers[i])
                    if len(seen) == K:
                        break
            found += any(answers(n, wanted) for n in seen)
            total += 1
    return found / max(total, 1)


def train(groups, n: int, steps: int) -> tuple[np.ndarray, list[float]]:
    W = np.eye(groups[0][0].shape[1], dtype=np.float64)
    m, v = np.zeros_like(W), np.zeros_like(W)
    losses = []
    for step in range(1, steps + 1):
        loss, g = loss_and_gradient(W, groups, n)
        losses.append(loss)
        m = 0.9 * m + 0.1 * g
        v = 0.999 * v + 0.001 * g * g
        W -= LEARNING_RATE * (m / (1 - 0.9**step)) / (np.sqrt(v / (1 - 0.999**step)) + 1e-8)
    return W.astype(np.float32), losses


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--dry-run", action="store_true", help="train and report, write nothing")
    parser.add_argument("--steps", type=int, default=STEPS)
    parser.add_argument(
        "--decontaminate",
        action="store_true",
        help="first delete training questions that nearly repeat an evaluation question",
    )
    args = parser.parse_args()
    import minilm as semantic

    from rulebook.vectors import rule_texts

    if args.decontaminate:
        print(f"deleted {decontaminate()} training questions that nearly repeat an evaluation question")
    questions = training_questions()
    overlap = contaminated(questions)
    if overlap:
        sys.exit(
            f"error: {len(overlap)} training questions nearly repeat evaluation questions, e.g. "
            f"{overlap[0]['file']}: {overlap[0]['question']!r}; run with --decontaminate"
        )
    missing = [b for b, (path, _) in FULL_BOOKS.items() if not path.exists()]
    if missing or not questions:
        sys.exit(f"error: needs the full documents in ../shared/corpora and questions in {TRAINING}")
    rng = np.random.default_rng(SEED)
    held = set(rng.permutation(len(questions))[: int(len(questions) * VALIDATION)].tolist()) if args.dry_run else set()
    encoder = semantic.Encoder.load(adapter=False)
    t0 = time.perf_counter()
    with tempfile.TemporaryDirectory() as home:
        store, _ = build_library(home)
        books = {b: Book(rule_texts(store, b)[0], encoder.encode(rule_texts(store, b)[1])) for b in FULL_BOOKS}
        texts = [effective(store, q["question"], q["book"]) for q in questions]
        store.close()
    Q = encoder.encode(texts).astype(np.float64)
    fit, check = [], []
    for b, book in books.items():
        mine = [i for i, q in enumerate(questions) if q["book"] == b and i not in held]
        if mine:
            fit.append((Q[mine], book, np.stack([book.positives(questions[i]["answers"]) for i in mine])))
        kept = [i for i, q in enumerate(questions) if q["book"] == b and i in held]
        if kept:
            check.append((Q[kept], book, [questions[i]["answers"] for i in kept]))
    n = sum(len(g[0]) for g in fit)
    W, losses = train(fit, n, args.steps)
    print(
        f"{len(questions)} questions ({n} trained on, {len(held)} held back); loss {losses[0]:.3f} -> "
        f"{losses[-1]:.3f}; {time.perf_counter() - t0:.0f} s"
    )
    if args.dry_run:
        print(f"held back, recall@{K} by meaning alone {recall(None, check):.3f} -> {recall(W, check):.3f}")
        return
    OUT.parent.mkdir(parents=True, exist_ok=True)
    np.save(OUT, W)
    digest = hashlib.sha256(OUT.read_bytes()).hexdigest()
    info = {
        "base_model_sha256": semantic.MODEL_SHA256,
        "sha256": digest,
        "trained_by": "bench/train_question_adapter.py",
        "training_files": training_files(),
        "questions": len(questions),
        "similar_to_evaluation_below": SIMILAR,
        "settings": {"tau": TAU, "lambda": LAMBDA, "steps": args.steps, "learning_rate": LEARNING_RATE, "seed": SEED},
    }
    OUT.with_suffix(".json").write_text(json.dumps(info, indent=2) + "\n", encoding="utf-8")
    print(f"wrote {OUT.relative_to(REPO)} and its .json")


def training_files() -> dict[str, str]:
    return {p.name: hashlib.sha256(p.read_bytes()).hexdigest() for p in sorted(TRAINING.glob("*.yaml"))}


def remembered(store, questions: list[dict]) -> list[list[tuple[str, str]]]:
    """Per question, its answers as the memory keeps them: (number, digest of the rule's title and text)."""
    from rulebook.memory import rule_digest

    out = []
    for q in questions:
        pairs = []
        for number in q["answers"]:
            rule = store.rule(q["book"], number)
            if rule is None:
                sys.exit(f"error: {q['file']}: {q['question']!r} names {number}, which {q['book']} does not have")
            pairs.append((number, rule_digest(rule.title, rule.text)))
        out.append(pairs)
    return out


if __name__ == "__main__":
    main()
