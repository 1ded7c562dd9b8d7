"""Meaning vectors: computed once per rule text, kept beside the library, and what search does with
them (and without them)."""

from __future__ import annotations

import json
import sqlite3

import numpy as np
import pytest

from rulebook import semantic, vectors
from rulebook.library import Library
from rulebook.search import search


class CountingEncoder:
    def __init__(self):
        self.real, self.texts = semantic.Encoder.load(), 0

    def encode(self, texts, batch=32):
        self.texts += len(texts)
        return self.real.encode(texts, batch)

    def encode_questions(self, texts):
        return self.real.encode_questions(texts)


@pytest.fixture
def seeds(tmp_path, monkeypatch):
    from judge.resources import seeds_dir

    monkeypatch.setenv("JUDGE_VECTORS", str(tmp_path / "vectors.db"))
    lib = Library(tmp_path / "home", seeds=seeds_dir())
    store = lib.open()
    yield store
    store.close()


def test_a_rule_is_read_with_the_titles_above_it(seeds):
    # The 2008 seed: 302 "Untap Step" holds 302.1, which has no title of its own.
    numbers, texts = vectors.rule_texts(seeds, "mtg")
    text = texts[numbers.index("302.1")]
    assert text.startswith("Untap Step. . First, all permanents with phasing")
    assert text.endswith(seeds.rule("mtg", "302.1").text)


def test_vectors_are_computed_once_then_read(seeds, tmp_path):
    enc = CountingEncoder()
    ids, matrix = vectors.book_vectors(seeds, "riftbound", enc)
    assert enc.texts == len(ids) and len(set(ids)) == seeds.counts("riftbound")["rules"]
    assert matrix.shape == (len(ids), 384)
    again_ids, again = vectors.book_vectors(seeds, "riftbound", enc)
    assert enc.texts == len(ids) and again_ids == ids and np.allclose(again, matrix)
    with sqlite3.connect(tmp_path / "vectors.db") as conn:  # one vector per distinct text
        assert conn.execute("SELECT count(*) FROM texts").fetchone()[0] == len(set(vectors.rule_texts(seeds, "riftbound")[1]))


def test_a_rebuilt_book_reuses_the_vectors_of_unchanged_rules(seeds, tmp_path):
    enc = CountingEncoder()
    vectors.book_vectors(seeds, "riftbound", enc)
    with sqlite3.connect(tmp_path / "vectors.db") as conn:
        conn.execute("DELETE FROM books")  # as if the book's fingerprint had changed
    vectors.book_vectors(seeds, "riftbound", enc)
    assert enc.texts == len(vectors.rule_texts(seeds, "riftbound")[0])


def test_an_unwritable_cache_still_answers(seeds, monkeypatch, tmp_path):
    monkeypatch.setenv("JUDGE_VECTORS", str(tmp_path / "no-such-dir" / "vectors.db"))
    ids, matrix = vectors.book_vectors(seeds, "mtg")
    assert len(set(ids)) == seeds.counts("mtg")["rules"] and matrix.shape[0] == len(ids)


def test_nearest_finds_the_rule_about_the_same_thing(seeds):
    # 300.6: "Some effects can give a player extra turns ..." shares no word but "turn" with the question.
    (first, cosine), *_ = vectors.nearest(seeds, "mtg", "I get to take another turn right after this one", 3)
    assert first == "300.6" and 0.4 < cosine < 1


def test_search_reports_how_it_ranked(seeds):
    assert search(seeds, "who gets priority during a showdown", book="riftbound").ranking == "words+meaning"
    plain = search(seeds, "who gets priority during a showdown", book="riftbound", meaning=False)
    assert plain.ranking == "words" and plain.note is None


def test_nonsense_still_finds_nothing(seeds):
    # No word matches and no rule is near enough in meaning (MEANING_ONLY_COSINE).
    assert search(seeds, "xylophonequartz").hits == []
    assert search(seeds, "qwzx vbnm", kinds=("rule",)).hits == []


def test_without_the_model_search_ranks_by_words_and_says_why(seeds, monkeypatch, tmp_path):
    monkeypatch.setenv(semantic.MODEL_ENV, str(tmp_path))
    result = search(seeds, "who gets priority during a showdown", book="riftbound")
    assert result.ranking == "words" and "vocab.txt is missing" in result.note
    assert [h.id for h in result.hits] == [h.id for h in search(seeds, "who gets priority during a showdown",
                                                                book="riftbound", meaning=False).hits]


def test_search_json_names_the_ranking(home, judge):
    code, out, _ = judge("search", "who gets priority during a showdown", "--book", "riftbound", "--json")
    result = json.loads(out)
    assert code == 0 and set(result) == {"query", "corrected", "ranking", "note", "hits"}
    assert result["ranking"] == "words+meaning" and result["note"] is None
    code, out, _ = judge("search", "who gets priority during a showdown", "--book", "riftbound", "--words", "--json")
    assert json.loads(out)["ranking"] == "words"


def test_search_without_the_model_notes_it_on_stderr(home, judge, monkeypatch, tmp_path):
    monkeypatch.setenv(semantic.MODEL_ENV, str(tmp_path))
    code, out, err = judge("search", "priority", "--book", "riftbound", "--json")
    assert code == 0 and json.loads(out)["ranking"] == "words"
    assert err.startswith("note: ranked by words alone:") and "vocab.txt is missing" in err


def test_load_computes_the_vectors_of_its_book(fresh_home, judge, tmp_path):
    from judge.resources import seeds_dir

    rules = next(seeds_dir().glob("*turn-structure*"))
    code, out, _ = judge("load", rules, "--book", "mini", "--game", "mtg", "--json")
    result = json.loads(out)
    assert code == 0 and result["vectors"] == result["rules"] > 0


def test_search_computes_missing_vectors_first_and_keeps_them(home, judge, monkeypatch, tmp_path):
    from judge.app import open_store

    monkeypatch.setenv("JUDGE_VECTORS", str(tmp_path / "empty.db"))
    store = open_store()
    assert not vectors.is_cached(store, "riftbound")
    code, out, _ = judge("search", "who gets priority during a showdown", "--book", "riftbound", "--json")
    assert code == 0 and json.loads(out)["ranking"] == "words+meaning"
    assert vectors.is_cached(store, "riftbound") and not vectors.is_cached(store, "mtg")
    code, _, _ = judge("search", "priority", "--book", "mtg", "--words")
    assert code == 0 and not vectors.is_cached(store, "mtg")  # --words never needs the model


def test_a_damaged_cache_is_moved_aside_and_rebuilt(seeds, tmp_path):
    (tmp_path / "vectors.db").write_bytes(b"this is not a database" * 100)
    ids, matrix = vectors.book_vectors(seeds, "mtg")
    assert matrix.shape == (len(ids), 384) and vectors.is_cached(seeds, "mtg")
    assert (tmp_path / "vectors.db.damaged").read_bytes().startswith(b"this is not a database")


def test_a_cached_matrix_of_the_wrong_size_is_recomputed(seeds, tmp_path):
    ids, matrix = vectors.book_vectors(seeds, "mtg")
    with sqlite3.connect(tmp_path / "vectors.db") as conn:
        conn.execute("UPDATE books SET matrix = substr(matrix, 1, 100)")
        conn.execute("UPDATE texts SET vector = x'00'")
    again_ids, again = vectors.book_vectors(seeds, "mtg")
    assert again_ids == ids and np.allclose(again, matrix)


def test_each_example_is_read_as_a_row_of_its_rule(tmp_path, monkeypatch):
    monkeypatch.setenv("JUDGE_VECTORS", str(tmp_path / "vectors.db"))
    doc = tmp_path / "mini-cr.txt"
    doc.write_text("""Magic: The Gathering Comprehensive Rules

5. Turn Structure

510. Combat Damage Step

510.1. First, the active player announces how each attacking creature assigns its combat damage.

510.1a Each attacking creature and each blocking creature assigns combat damage equal to its power.
Example: A 3/3 creature blocked by two 2/2 creatures may assign 2 damage to the first and 1 to the second.
Example: A creature with 0 power assigns no combat damage.
""", encoding="utf-8")
    lib = Library(tmp_path / "home", seeds=None)
    lib.load([doc], "mini", game="mtg")
    store = lib.open()
    numbers, texts = vectors.rule_texts(store, "mini")
    assert numbers.count("510.1a") == 3 and len(set(numbers)) == store.counts("mini")["rules"]
    assert texts[-2:] == list(store.rule("mini", "510.1a").examples)
    (first, _), *_ = vectors.nearest(store, "mini", "my attacker is blocked by two creatures, how do I split damage", 3)
    assert first == "510.1a"
    store.close()
