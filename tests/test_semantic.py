"""The static meaning model: what ships matches its record and provenance, reads text the way the
transformer it was distilled from does, and places like meanings together."""

from __future__ import annotations

import json
import shutil

import numpy as np
import pytest

from rulebook import semantic
from rulebook.model import ModelUnavailable
from rulebook.semantic import StaticModel, Vocabulary
from rulebook.shipped import data_file, meaning_model


@pytest.fixture(scope="module")
def model() -> StaticModel:
    return StaticModel.load()


def record() -> dict:
    return json.loads(data_file("meaning/static-model.json").read_text(encoding="utf-8"))


def test_the_shipped_files_match_their_record():
    assert semantic.verify() == record()["sha256"] == meaning_model()


def test_the_record_names_the_source_model_and_its_licence():
    source = record()["source"]
    assert source["model"] == "sentence-transformers/all-MiniLM-L6-v2"
    assert source["model.safetensors sha256"] == "53aa51172d142c89d9012cce15ae4d6cc0ca6895895114379cacb4fab128d9db"
    assert source["vocab.txt sha256"] == record()["vocab_sha256"]
    assert source["licence"] == "Apache-2.0" and "all-MiniLM-L6-v2" in source["notice"]
    assert len(source["revision"]) == 40
    assert record()["made_by"] == "bench/distill_static_model.py"


def test_the_model_fits_the_wheel_limit():
    size = sum(
        data_file(f"meaning/{name}").stat().st_size
        for name in ("static-model.npy", "static-model-scales.npy", "vocab.txt", "static-model.json")
    )
    assert size <= 20_000_000


# Token ids printed by the reference BERT tokenizer (sentence-transformers 5) for the same vocabulary,
# without [CLS] and [SEP], which the static model does not use.
@pytest.mark.parametrize(
    "text, ids",
    [
        ("hello world", [7592, 2088]),
        (
            "Deathtouch and trample: who assigns lethal damage?",
            [2331, 24826, 2818, 1998, 12517, 10814, 1024, 2040, 24022, 12765, 4053, 1029],
        ),
        ("Mjölnir’s 601.2c—cast", [1049, 5558, 19666, 4313, 1521, 1055, 3438, 2487, 1012, 1016, 2278, 1517, 3459]),
    ],
)
def test_tokens_match_the_reference_tokenizer(model, text, ids):
    assert model.vocabulary.tokens(text) == ids


def test_a_word_with_no_spelling_in_pieces_is_unknown():
    vocabulary = Vocabulary({"[UNK]": 0, "ab": 1, "##c": 2})
    assert vocabulary.pieces("abc") == (1, 2)
    assert vocabulary.pieces("abx") == (0,)


def test_vectors_are_unit_rows_and_the_same_alone_or_together(model):
    texts = ["unused mana empties", "a creature with deathtouch", "", "first strike damage step"]
    together = model.encode(texts)
    alone = np.stack([model.encode([t])[0] for t in texts])
    assert np.allclose(together, alone, atol=1e-5)
    assert np.allclose(np.linalg.norm(together[[0, 1, 3]], axis=1), 1.0, atol=1e-5)
    assert not together[2].any()  # no tokens, no direction


@pytest.mark.parametrize(
    "question, near, far",
    [
        (
            "does my mana carry over",
            "Mana empties from each player's mana pool at the end of each step.",
            "A creature with flying can't be blocked except by creatures with flying or reach.",
        ),
        (
            "my unit died, where does it go",
            "When a unit is killed, it is put into its owner's trash.",
            "The first player draws a card at the start of the game.",
        ),
    ],
)
def test_like_meanings_are_nearer(model, question, near, far):
    q, a, b = model.encode([question, near, far])
    assert q @ a > q @ b


def test_a_table_that_differs_from_its_record_is_refused(tmp_path):
    folder = tmp_path / "meaning"
    shutil.copytree(data_file("meaning/static-model.npy").parent, folder)
    rows = np.load(folder / "static-model.npy")
    rows[0, 0] ^= 1
    np.save(folder / "static-model.npy", rows)
    with pytest.raises(ModelUnavailable, match="does not match its record"):
        semantic.verify(folder)


def test_a_missing_model_says_where(tmp_path):
    with pytest.raises(ModelUnavailable, match="cannot be read"):
        StaticModel.load(tmp_path)


def test_a_search_encodes_from_the_library_as_the_model_does(model, home):
    # A search reads the word pieces' rows from judge.db (rulebook.vectors.StoredPieces), never the
    # model's files: its query vectors must be the model's, bit for bit, accents and unknown words too.
    from judge.books import open_store
    from rulebook.vectors import StoredPieces

    store = open_store()
    for query in ("what happens when my creature is killed", "Mjölnir zzqx priorty", "601.2c", "—", ""):
        pieces = StoredPieces(store)
        from_library = semantic.vectors_of([Vocabulary(pieces).tokens(query)], pieces.rows)
        assert np.array_equal(from_library, model.encode([query])), query
    assert store.query("SELECT count(*) AS n FROM wordpieces")[0]["n"] == len(model.rows)
