"""The question memory: what ships matches its record, the training questions and the adapter; a
remembered answer is used only where its rule reads the same; a wrong memory is refused."""

from __future__ import annotations

import hashlib
import json
import sys
from pathlib import Path

import numpy as np
import pytest
from conftest import corpus

from rulebook import memory, semantic
from rulebook.model import ModelUnavailable
from rulebook.shipped import data_file

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO / "bench"))
import train_question_adapter as training  # noqa: E402


def _record() -> dict:
    return json.loads(data_file(memory.MEMORY).with_suffix(".json").read_text(encoding="utf-8"))


def _write_memory(folder: Path, vectors: np.ndarray, entries: list[dict], **record) -> Path:
    path = folder / "question-memory.npy"
    np.save(path, vectors)
    adapter = json.loads(data_file(semantic.ADAPTER).with_suffix(".json").read_text(encoding="utf-8"))
    info = {"base_model_sha256": semantic.MODEL_SHA256, "adapter_sha256": adapter["sha256"],
            "sha256": hashlib.sha256(path.read_bytes()).hexdigest(), "entries": entries}
    path.with_suffix(".json").write_text(json.dumps({**info, **record}), encoding="utf-8")
    return path


def test_the_shipped_memory_matches_its_record_and_the_shipped_adapter():
    info = _record()
    path = data_file(memory.MEMORY)
    assert info["base_model_sha256"] == semantic.MODEL_SHA256
    assert info["sha256"] == hashlib.sha256(path.read_bytes()).hexdigest()
    assert info["adapter_sha256"] == hashlib.sha256(data_file(semantic.ADAPTER).read_bytes()).hexdigest()
    remembered = memory.read_memory()
    assert remembered.vectors.shape == (len(info["entries"]), semantic.DIMENSIONS)
    assert np.allclose(np.linalg.norm(remembered.vectors, axis=1), 1.0, atol=1e-2)


def test_the_shipped_memory_holds_the_committed_training_questions():
    # Editing a training file without running bench/train_question_adapter.py fails here.
    info = _record()
    assert info["training_files"] == training.training_files()
    questions = training.training_questions()
    assert [(e["question"], e["book"], [n for n, _ in e["answers"]]) for e in info["entries"]] == [
        (q["question"], q["book"], q["answers"]) for q in questions]


def _library(home: Path, books: dict[str, Path]):
    from judge.resources import seeds_dir
    from rulebook.library import Library

    lib = Library(home, seeds=seeds_dir())
    for book_id, path in books.items():
        lib.load([path], book_id, game="mtg" if "Magic" in path.name else "riftbound")
    return lib.open()


def test_every_remembered_answer_reads_the_same_in_the_document_it_was_written_from(tmp_path):
    store = _library(tmp_path, {"cr-2026": corpus("mtg", "MagicCompRules-2026-02-27.txt"),
                                "riftbound-v1.2": corpus("riftbound", "core-rules-v1.2.txt")})
    entries = _record()["entries"]
    for book_id in ("cr-2026", "riftbound-v1.2"):
        rows, numbers = memory.read_memory().applicable(store, book_id)
        asked = [i for i, e in enumerate(entries) if e["book"] == book_id]
        assert rows.tolist() == asked, book_id
        assert numbers == [[n for n, _ in entries[i]["answers"]] for i in asked]
    store.close()


def test_another_edition_keeps_only_the_answers_whose_rules_did_not_change(tmp_path):
    store = _library(tmp_path, {"cr-2026": corpus("mtg", "MagicCompRules-2026-02-27.txt"),
                                "cr-2025": corpus("mtg", "MagicCompRules-2025-02-07.txt"),
                                "cr-2008": corpus("mtg", "MagicCompRules-2008-10-01.txt")})
    remembered = memory.read_memory()
    rows = {b: len(remembered.applicable(store, b)[0]) for b in ("cr-2026", "cr-2025", "cr-2008", "riftbound")}
    assert rows["cr-2025"] > 0.8 * rows["cr-2026"]  # a year of changes leaves most rules as they were
    assert rows["cr-2008"] < 0.02 * rows["cr-2026"]  # before the 2009 renumbering: other rules, other numbers
    rule = store.rule("cr-2025", "702.19b")
    assert rule is not None and rule.text == store.rule("cr-2026", "702.19b").text
    store.close()


def test_a_remembered_answer_counts_only_where_its_rule_reads_the_same(tmp_path):
    store = _library(tmp_path, {})
    focus, priority = store.rule("riftbound", "313.1"), store.rule("riftbound", "312.1")
    same, other = memory.rule_digest(focus.title, focus.text), "0" * 16
    vectors = np.zeros((4, semantic.DIMENSIONS), dtype=np.float32)
    vectors[[0, 1, 2], 0] = 1.0
    vectors[3, 1] = 1.0
    remembered = memory.Memory(
        ("who has focus", "who has focus, an edited rule", "a rule the book lacks", "who gets priority"),
        ((("313.1", same),), (("313.1", other),), (("999.9", same),),
         (("313.1", other), ("312.1", memory.rule_digest(priority.title, priority.text)))),
        vectors)
    question = np.eye(semantic.DIMENSIONS, dtype=np.float32)[0]
    assert remembered.recall(store, "riftbound", question) == {"313.1": (1.0, "who has focus"),
                                                               "312.1": (0.0, "who gets priority")}
    assert remembered.recall(store, "mtg", question) == {}
    store.close()


def test_a_memory_made_for_another_adapter_is_refused(tmp_path):
    entries = [{"question": "who has focus", "book": "riftbound-v1.2", "answers": [["313.1", "0" * 16]]}]
    path = _write_memory(tmp_path, np.ones((1, semantic.DIMENSIONS), dtype=np.float16), entries,
                         adapter_sha256="0" * 64)
    with pytest.raises(ModelUnavailable, match="not made for"):
        memory.read_memory(path)


def test_a_memory_that_differs_from_its_record_is_refused(tmp_path):
    entries = [{"question": "who has focus", "book": "riftbound-v1.2", "answers": [["313.1", "0" * 16]]}]
    path = _write_memory(tmp_path, np.ones((1, semantic.DIMENSIONS), dtype=np.float16), entries)
    np.save(path, np.zeros((1, semantic.DIMENSIONS), dtype=np.float16))
    with pytest.raises(ModelUnavailable, match="does not match its record"):
        memory.read_memory(path)


def test_a_memory_of_the_wrong_shape_is_refused(tmp_path):
    entries = [{"question": "who has focus", "book": "riftbound-v1.2", "answers": [["313.1", "0" * 16]]}]
    path = _write_memory(tmp_path, np.ones((2, semantic.DIMENSIONS), dtype=np.float16), entries)
    with pytest.raises(ModelUnavailable, match="not 1 x 384"):
        memory.read_memory(path)


def test_no_memory_shipped_means_none(tmp_path):
    assert memory.read_memory(tmp_path / "absent.npy") is None


def test_docstring_examples():
    import doctest

    result = doctest.testmod(memory)
    assert result.failed == 0 and result.attempted > 0
