"""Write the question memory search ships (data/meaning/question-memory.json, rulebook/memory.py).

    python bench/question_memory.py           # write it
    python bench/question_memory.py --check   # say whether the committed file is what this writes

The memory is the training questions of bench/meaning-training/ (in file order), each with the rules
that answer it: for each answer, its number and :func:`rulebook.memory.rule_digest` of what the rule
reads (title and text, the rule numbers it cites aside) in the full document the question was written
against (../shared/corpora, loaded as bench/search_quality.py's FULL_BOOKS). The record names what it
was made from: the training files' sha256, and each document's file, game and sha256 (the game is
how a memory answer is kept out of the other game's books). Needs no model, only the corpora:
bench/distill_static_model.py writes the memory with this too, after the table. Deterministic: the
same training files and documents write the same bytes.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import sys
import tempfile
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
for folder in (REPO, REPO / "bench"):
    if str(folder) not in sys.path:
        sys.path.insert(0, str(folder))

from search_quality import FULL_BOOKS, build_library  # noqa: E402

OUT = REPO / "data" / "meaning" / "question-memory.json"


def record(store, questions: list[dict]) -> dict:
    """The memory of these training questions, their answers read in ``store``'s full books."""
    from train_question_adapter import remembered, training_files

    pointers = remembered(store, questions)
    books = sorted({q["book"] for q in questions})
    documents = {}
    for book in books:
        path, game = FULL_BOOKS[book]
        documents[book] = {"file": path.name, "game": game, "sha256": hashlib.sha256(path.read_bytes()).hexdigest()}
    entries = [{"question": q["question"], "book": q["book"], "answers": p} for q, p in zip(questions, pointers) if p]
    return {
        "made_by": "bench/question_memory.py",
        "training_files": training_files(),
        "digest": "rulebook.memory.rule_digest: sha256 of title and text, cited rule numbers masked, 16 hex digits",
        "documents": documents,
        "entries": entries,
    }


def text(info: dict) -> str:
    return json.dumps(info, ensure_ascii=False, indent=0) + "\n"


def write(store, questions: list[dict], out: Path = OUT) -> None:
    out.write_text(text(record(store, questions)), encoding="utf-8")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--check", action="store_true", help="compare with the committed file; write nothing")
    args = parser.parse_args()
    from train_question_adapter import training_questions

    missing = [str(path) for path, _ in FULL_BOOKS.values() if not path.exists()]
    if missing:
        sys.exit(f"error: the full documents are needed: {', '.join(missing)}")
    questions = training_questions()
    with tempfile.TemporaryDirectory(prefix="memory-") as home:
        store, _ = build_library(home)
        try:
            made = text(record(store, questions))
        finally:
            store.close()
    if args.check:
        same = OUT.is_file() and OUT.read_text(encoding="utf-8") == made
        print(f"{OUT}: {'as written by this script' if same else 'differs from what this script writes'}")
        sys.exit(0 if same else 1)
    OUT.write_text(made, encoding="utf-8")
    info = json.loads(made)
    print(f"wrote {OUT}: {len(info['entries'])} questions, {sum(len(e['answers']) for e in info['entries'])} answers")


if __name__ == "__main__":
    main()
