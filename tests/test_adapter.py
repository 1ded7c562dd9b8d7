"""The question adapter: what ships matches its record and its training questions, a wrong one is
refused, and the training step (bench/train_question_adapter.py) does what it says."""

from __future__ import annotations

import hashlib
import json
import sys
from pathlib import Path

import numpy as np
import pytest

from rulebook import semantic
from rulebook.model import ModelUnavailable
from rulebook.shipped import data_file

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO / "bench"))
import train_question_adapter as training  # noqa: E402


def _write_adapter(folder: Path, matrix: np.ndarray, **record) -> Path:
    path = folder / "question-adapter.npy"
    np.save(path, matrix)
    info = {"base_model_sha256": semantic.MODEL_SHA256, "sha256": hashlib.sha256(path.read_bytes()).hexdigest()}
    path.with_suffix(".json").write_text(json.dumps({**info, **record}), encoding="utf-8")
    return path


def test_the_shipped_adapter_matches_its_record():
    path = data_file(semantic.ADAPTER)
    info = json.loads(path.with_suffix(".json").read_text(encoding="utf-8"))
    assert info["base_model_sha256"] == semantic.MODEL_SHA256
    assert info["sha256"] == hashlib.sha256(path.read_bytes()).hexdigest()
    assert semantic.read_adapter().shape == (semantic.DIMENSIONS, semantic.DIMENSIONS)


def test_the_shipped_adapter_was_trained_on_the_committed_questions():
    # Editing or adding a training file without running bench/train_question_adapter.py fails here.
    info = json.loads(data_file(semantic.ADAPTER).with_suffix(".json").read_text(encoding="utf-8"))
    assert info["training_files"] == training.training_files()
    assert info["questions"] == len(training.training_questions())


def test_no_training_question_nearly_repeats_an_evaluation_question():
    # Both sets were written from the same rules; a near repeat would let the adapter learn the test.
    questions = training.training_questions()
    assert len(questions) > 1000
    assert [q["question"] for q in training.contaminated(questions)] == []
    for q in questions:
        assert q["book"] in training.FULL_BOOKS and q["answers"], q


@pytest.mark.parametrize("a, b, same", [
    ("does unused mana carry over to the next step", "Does unused mana carry over to the next step?", True),
    ("i borrowed my friends deck who owns the cards during the game",
     "i borrowed my friend's deck, who owns the cards in game", True),
    ("2v2 my teammate conceded do we both lose", "my teammate conceded in 2v2 do we both lose", True),
    ("can i equip at instant speed", "can i cast a sorcery during combat", False),
    ("what does tank do", "what does hexproof do", False),
])
def test_near_duplicates_are_the_same_question_reworded(a, b, same):
    assert training.near_duplicate(a, b) is same


def test_an_adapter_made_for_other_weights_is_refused(tmp_path):
    path = _write_adapter(tmp_path, np.eye(semantic.DIMENSIONS, dtype=np.float32), base_model_sha256="0" * 64)
    with pytest.raises(ModelUnavailable, match="not made for"):
        semantic.read_adapter(path)


def test_an_adapter_that_differs_from_its_record_is_refused(tmp_path):
    path = _write_adapter(tmp_path, np.eye(semantic.DIMENSIONS, dtype=np.float32))
    np.save(path, 2 * np.eye(semantic.DIMENSIONS, dtype=np.float32))
    with pytest.raises(ModelUnavailable, match="does not match its record"):
        semantic.read_adapter(path)


def test_an_adapter_of_the_wrong_shape_is_refused(tmp_path):
    path = _write_adapter(tmp_path, np.eye(3, dtype=np.float32))
    with pytest.raises(ModelUnavailable, match=r"\(3, 3\)"):
        semantic.read_adapter(path)


def test_no_adapter_means_questions_are_read_like_rules(tmp_path):
    assert semantic.read_adapter(tmp_path / "absent.npy") is None
    plain = semantic.Encoder.load(adapter=False)
    texts = ["does my unit keep its buff when it moves", "first strike"]
    assert np.array_equal(plain.encode_questions(texts), plain.encode(texts))


def test_adapted_questions_are_unit_vectors_that_moved():
    adapted, plain = semantic.Encoder.load(), semantic.Encoder.load(adapter=False)
    texts = ["my opponent stole my creature, whose graveyard does it go to", "tank"]
    moved = adapted.encode_questions(texts)
    assert np.allclose(np.linalg.norm(moved, axis=1), 1.0, atol=1e-5)
    assert not np.allclose(moved, plain.encode_questions(texts), atol=1e-3)


def _toy(seed: int = 0, rules: int = 12, d: int = 8, asked: int = 30):
    """A book of random unit rows, and questions that are their rule's row seen through a fixed twist."""
    rng = np.random.default_rng(seed)
    rows = rng.normal(size=(rules, d))
    rows /= np.linalg.norm(rows, axis=1, keepdims=True)
    book = training.Book([str(100 + i) for i in range(rules)], rows)
    twist = np.eye(d) + 0.8 * rng.normal(size=(d, d))
    wanted = rng.integers(0, rules, asked)
    Q = (rows[wanted] @ twist.T) + 0.05 * rng.normal(size=(asked, d))
    Q /= np.linalg.norm(Q, axis=1, keepdims=True)
    positive = np.stack([book.positives([str(100 + w)]) for w in wanted])
    return book, Q, positive, [[str(100 + w)] for w in wanted]


def test_the_gradient_is_the_derivative_of_the_loss():
    book, Q, positive, _ = _toy()
    rng = np.random.default_rng(1)
    W = np.eye(8) + 0.1 * rng.normal(size=(8, 8))
    _, grad = training.loss_and_gradient(W, [(Q, book, positive)], len(Q))
    for i, j in [(0, 0), (2, 5), (7, 3)]:
        step = np.zeros_like(W)
        step[i, j] = 1e-6
        up, _ = training.loss_and_gradient(W + step, [(Q, book, positive)], len(Q))
        down, _ = training.loss_and_gradient(W - step, [(Q, book, positive)], len(Q))
        assert (up - down) / 2e-6 == pytest.approx(grad[i, j], rel=1e-4, abs=1e-7)


def test_training_learns_to_undo_a_twist():
    book, Q, positive, expected = _toy()
    W, losses = training.train([(Q, book, positive)], len(Q), 300)
    assert losses[-1] < losses[0] / 2
    assert training.recall(W, [(Q, book, expected)]) > training.recall(None, [(Q, book, expected)])
