"""The sentence model run in NumPy: the same tokens and vectors as the reference implementation.

Reference values were printed by sentence-transformers 5 (torch, CPU) loading the same published
all-MiniLM-L6-v2 files with max_seq_length 128; NumPy must reproduce them.
"""

from __future__ import annotations

import shutil

import numpy as np
import pytest

from rulebook import semantic
from rulebook.model import ModelUnavailable
from rulebook.semantic import Encoder, Vocabulary, basic_tokens, model_dir


@pytest.fixture(scope="module")
def encoder() -> Encoder:
    return Encoder.load(check=True)


def test_the_installed_weights_are_the_published_file():
    semantic.verify(model_dir())  # raises unless sha256 matches all-MiniLM-L6-v2's model.safetensors


@pytest.mark.parametrize("text, ids", [
    ("hello world", [101, 7592, 2088, 102]),
    ("Deathtouch and trample: who assigns lethal damage?",
     [101, 2331, 24826, 2818, 1998, 12517, 10814, 1024, 2040, 24022, 12765, 4053, 1029, 102]),
    ("Mjölnir’s 601.2c—cast", [101, 1049, 5558, 19666, 4313, 1521, 1055, 3438, 2487, 1012, 1016, 2278, 1517, 3459, 102]),
])
def test_tokens_match_the_reference_tokenizer(encoder, text, ids):
    assert encoder.vocabulary.encode(text) == ids


def test_long_text_is_cut_to_the_model_window(encoder):
    ids = encoder.vocabulary.encode("damage " * 500)
    assert len(ids) == semantic.MAX_TOKENS and ids[0] == 101 and ids[-1] == 102


def test_basic_tokens_split_punctuation_and_drop_accents():
    assert basic_tokens("Can't I respond—to Mjölnir's 601.2c?") == [
        "can", "'", "t", "i", "respond", "—", "to", "mjolnir", "'", "s", "601", ".", "2c", "?"]


def test_a_word_with_no_spelling_in_pieces_is_unknown():
    vocab = Vocabulary({"[UNK]": 100, "[CLS]": 101, "[SEP]": 102, "ab": 5})
    assert vocab.encode("ab abc") == [101, 5, 100, 102]


def test_vectors_match_the_reference_implementation(encoder):
    texts = ["unused mana empties from a player's mana pool", "does my mana carry over to the next step",
             "a creature with flying can't be blocked except by flying or reach creatures"]
    v = encoder.encode(texts)
    assert v.shape == (3, semantic.DIMENSIONS) and v.dtype == np.float32
    assert np.allclose(np.linalg.norm(v, axis=1), 1.0, atol=1e-6)
    assert np.allclose(v[0][:4], [0.02272, 0.097574, -0.010061, -0.005121], atol=1e-5)
    assert np.allclose([v[0] @ v[1], v[0] @ v[2], v[1] @ v[2]], [0.44304, 0.08691, 0.11484], atol=1e-4)


def test_batching_does_not_change_a_vector(encoder):
    texts = ["first strike", "a much longer sentence about combat damage being dealt by blockers", "mulligan"]
    together = encoder.encode(texts, batch=3)
    alone = np.vstack([encoder.encode([t]) for t in texts])
    assert np.allclose(together, alone, atol=1e-5)


def test_weights_that_are_not_the_published_file_are_refused(tmp_path, monkeypatch):
    shutil.copy(model_dir() / "vocab.txt", tmp_path / "vocab.txt")
    (tmp_path / "model.safetensors").write_bytes(b"\x08\x00\x00\x00\x00\x00\x00\x00{}      ")
    monkeypatch.setenv(semantic.MODEL_ENV, str(tmp_path))
    with pytest.raises(ModelUnavailable, match="is not all-MiniLM-L6-v2"):
        semantic.verify(model_dir())


def test_a_missing_model_says_which_file(tmp_path, monkeypatch):
    monkeypatch.setenv(semantic.MODEL_ENV, str(tmp_path))
    with pytest.raises(ModelUnavailable, match="vocab.txt is missing"):
        model_dir()
