"""The question memory: what ships holds the committed training questions; a remembered answer is
used only where its rule reads the same; the memory's questions bring up the rules they were answered
by; an unreadable memory is refused."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest
from conftest import corpus, full_book

from rulebook import memory
from rulebook.model import ModelUnavailable, Rule
from rulebook.shipped import data_file

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO / "bench"))
import train_question_adapter as training  # noqa: E402


def _record() -> dict:
    return json.loads(data_file(memory.MEMORY).read_text(encoding="utf-8"))


def test_the_shipped_memory_holds_the_committed_training_questions():
    # Editing a training file without running bench/distill_static_model.py fails here.
    info = _record()
    assert info["training_files"] == training.training_files()
    questions = training.training_questions()
    assert [(e["question"], e["book"], [n for n, _ in e["answers"]]) for e in info["entries"]] == [
        (q["question"], q["book"], q["answers"]) for q in questions]


def test_every_remembered_answer_reads_the_same_in_the_document_it_was_written_from(full_library):
    store = full_book(full_library, "cr-2026", "riftbound-v1.2")
    entries = _record()["entries"]
    for book_id in ("cr-2026", "riftbound-v1.2"):
        found = memory.applicable(store.rules(book_id))
        asked = [(e["question"], [n for n, _ in e["answers"]]) for e in entries if e["book"] == book_id]
        assert found == asked, book_id


def test_another_edition_keeps_only_the_answers_whose_rules_did_not_change(tmp_path):
    from rulebook.library import Library
    from judge.resources import seeds_dir

    lib = Library(tmp_path, seeds=seeds_dir())
    for book_id, name in (("cr-2025", "MagicCompRules-2025-02-07.txt"), ("cr-2008", "MagicCompRules-2008-10-01.txt")):
        lib.load([corpus("mtg", name)], book_id, game="mtg")
    store = lib.open()
    own = sum(e["book"] == "cr-2026" for e in _record()["entries"])
    kept = {b: len(memory.applicable(store.rules(b))) for b in ("cr-2025", "cr-2008")}
    assert kept["cr-2025"] > 0.8 * own  # a year of changes leaves most rules as they were
    assert kept["cr-2008"] < 0.02 * own  # before the 2009 renumbering: other rules, other numbers
    store.close()


def test_a_remembered_answer_counts_only_where_its_rule_reads_the_same(tmp_path):
    focus = Rule("313.1", title="Focus", text="The player with focus may act.")
    priority = Rule("312.1", title="Priority", text="Priority is permission to act.")
    digest = memory.rule_digest
    entries = [
        {"question": "who has focus", "book": "rb", "answers": [["313.1", digest(focus.title, focus.text)]]},
        {"question": "who has focus, an edited rule", "book": "rb", "answers": [["313.1", "0" * 16]]},
        {"question": "a rule the book lacks", "book": "rb", "answers": [["999.9", digest(focus.title, focus.text)]]},
        {"question": "who gets priority", "book": "rb",
         "answers": [["313.1", "0" * 16], ["312.1", digest(priority.title, priority.text)]]},
    ]
    path = tmp_path / "memory.json"
    path.write_text(json.dumps({"entries": entries}), encoding="utf-8")
    assert memory.applicable([focus, priority], path) == [("who has focus", ["313.1"]),
                                                           ("who gets priority", ["312.1"])]
    assert memory.applicable([], path) == []


def test_the_memory_brings_up_the_rule_a_like_question_was_answered_by(full_library):
    from rulebook import vectors

    store = full_book(full_library, "cr-2026")
    entry = next(e for e in _record()["entries"] if e["book"] == "cr-2026")
    near = vectors.nearest(store, "cr-2026", entry["question"], 5)
    assert any(n.remembered == entry["question"] and n.number == entry["answers"][0][0] for n in near)


@pytest.mark.parametrize("text", ["not json", '{"entries": [{"question": 1}]}'])
def test_an_unreadable_memory_is_refused(tmp_path, text):
    path = tmp_path / "memory.json"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(ModelUnavailable, match="cannot be read"):
        memory.read_memory(path)


def test_no_memory_shipped_means_none(tmp_path):
    assert memory.read_memory(tmp_path / "absent.json") == ()
