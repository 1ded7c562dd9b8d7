"""What makes `judge search` cheap must not change what it finds: the caches it keeps in
$JUDGE_HOME/cache answer as the files they were made from, are made again when those change, and are
optional; the meaning stage's partial sort gives argsort's order; the store's quick reads give what the
plain ones gave. (Measured, not timed: bench/startup.py times the command.)"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import modules_imported

REPO = Path(__file__).resolve().parents[1]


@pytest.fixture
def home(tmp_path, monkeypatch):
    monkeypatch.setenv("JUDGE_HOME", str(tmp_path / "home"))
    return tmp_path / "home"


def test_the_search_vocabulary_twins_are_current_and_read_as_their_yaml(home):
    import yaml

    from rulebook.search import cache, vocabulary, vocabulary_source

    assert vocabulary_source.stale() == [], "run python -m rulebook.search.vocabulary_source"
    vocabulary.vocabulary_table.cache_clear()
    vocabulary.shorthand_table.cache_clear()
    for name, table, made in (
        (vocabulary.SYNONYMS_FILE, vocabulary.vocabulary_table(), vocabulary._table),
        (vocabulary.SHORTHAND_FILE, vocabulary.shorthand_table(), vocabulary._shorthand),
    ):
        assert table and table == made(yaml.safe_load(cache.shipped(name).read_text(encoding="utf-8")))
    assert isinstance(vocabulary.vocabulary_table()["groups"][0]["games"], set)
    assert not (home / "cache").exists()  # nothing kept: the twins are shipped


def test_a_twin_out_of_date_is_named(tmp_path, monkeypatch, capsys):
    from rulebook.search import vocabulary_source

    for name in vocabulary_source.FILES:
        (tmp_path / name).write_text((REPO / "data" / name).read_text(encoding="utf-8"), encoding="utf-8")
    monkeypatch.setattr(vocabulary_source, "data_file", lambda name: tmp_path / name)
    assert vocabulary_source.main(["--check"]) == 1
    assert "search-synonyms.json is out of date" in capsys.readouterr().err
    assert vocabulary_source.main([]) == 0 and vocabulary_source.main(["--check"]) == 0


def test_a_shipped_file_is_found_without_importlib_resources():
    code = (
        "import sys; from rulebook.shipped import data_file; "
        "print(data_file('meaning/vocab.txt').is_file(), 'importlib.resources' in sys.modules)"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, cwd=str(REPO)
    ).stdout.split()
    assert out == ["True", "False"]


def test_the_english_table_answers_as_the_list(home):
    import random
    import re

    from rulebook.search import query

    query._english_table.cache_clear()
    text = query._english_text()
    if not text:
        pytest.skip("pyspellchecker's English list is not installed")
    table = query._english_table()
    assert (home / "cache" / query.ENGLISH_CACHE).is_file()
    listed = re.findall(r'\n"([^"\n]*)":', text)
    rng = random.Random(11)
    words = rng.sample(listed, 3000)
    words += [w[:i] + c + w[i:] for w in words[:1000] for i, c in [(rng.randrange(len(w) + 1), rng.choice("aeiouxz"))]]
    words += ["killed", "swings", "priorty", "trampel", "zürich", "", "a's"]
    for w in words:
        found = table.execute("SELECT 1 FROM words WHERE word = ?", [w]).fetchone() is not None
        assert found == (f'\n"{w}":' in text), w
    query._english_table.cache_clear()
    query.english.cache_clear()
    assert [query.english(w) for w in ("killed", "swings", "priorty", 'say "hi"')] == [True, True, False, False]
    query._english_table.cache_clear()
    query.english.cache_clear()


def test_the_english_table_is_made_again_for_another_list(home):
    import sqlite3

    from rulebook.search import query

    query._english_table.cache_clear()
    if query._english_table() is None:
        pytest.skip("pyspellchecker's English list is not installed")
    kept = home / "cache" / query.ENGLISH_CACHE
    db = sqlite3.connect(kept)
    db.execute("UPDATE meta SET value = 'another list' WHERE key = 'source'")
    db.execute("DELETE FROM words WHERE word = 'killed'")
    db.commit()
    db.close()
    query._english_table.cache_clear()
    table = query._english_table()
    assert table.execute("SELECT 1 FROM words WHERE word = 'killed'").fetchone() == (1,)
    query._english_table.cache_clear()
    query.english.cache_clear()


def test_best_first_is_argsorts_order():
    import numpy as np

    from rulebook.vectors import _best_first

    rng = np.random.default_rng(5)
    for n, first in ((10, 3), (500, 40), (500, 499), (500, 500), (500, 900), (1, 1)):
        for values in (rng.normal(size=n), np.round(rng.normal(size=n), 1), np.zeros(n)):
            values = values.astype(np.float32)
            assert list(_best_first(values, first)) == np.argsort(-values, kind="stable").tolist()
    with_nan = rng.normal(size=50).astype(np.float32)
    with_nan[[3, 17]] = np.nan
    assert list(_best_first(with_nan, 5)) == np.argsort(-with_nan, kind="stable").tolist()


def test_cosines_read_in_chunks_are_the_whole_matrix_product(tmp_path):
    import numpy as np

    from rulebook.library import Library
    from rulebook.shipped import seeds_dir
    from rulebook.vectors import cosines

    store = Library(tmp_path / "home", seeds=seeds_dir()).open()
    row = store.query("SELECT rowid, matrix FROM meaning WHERE book = 'mtg'")[0]
    matrix = np.frombuffer(row["matrix"], dtype=np.int8).reshape(-1, 384)
    query = np.random.default_rng(3).standard_normal(384).astype(np.float32)
    whole = matrix.astype(np.float32) @ query
    for chunk in (1, 7, 256, len(matrix), 10 * len(matrix)):
        # equal to float32's last bits (OpenBLAS on several threads splits a whole matrix differently)
        np.testing.assert_allclose(cosines(store, row["rowid"], query, chunk), whole, rtol=1e-5, atol=1e-3)
    store.close()


def test_store_vocabulary_as_before(tmp_path):
    from rulebook.library import Library
    from rulebook.shipped import seeds_dir

    store = Library(tmp_path / "home", seeds=seeds_dir()).open()
    for book in ("riftbound", "mtg", None):
        sql = "SELECT word, sum(count) AS n FROM vocab" + (" WHERE book = ?" if book else "") + " GROUP BY word"
        plain = {r["word"]: r["n"] for r in store.query(sql, [book] if book else [])}
        got = store.vocabulary(book)
        assert got == plain and list(got) == list(plain)
    store.close()


def test_a_search_with_its_caches_made_imports_no_yaml_nor_word_list(tmp_path):
    """Once the caches are made, a search whose words are all words parses no YAML (the vocabulary's JSON
    twins are read) and imports no importlib.resources (10-15 ms each). (rapidfuzz, which corrects a
    query's misspelt words, and gzip, which decompresses the English word list when its table is made,
    are imported with the query's module: issue 22, imports at the top.)"""
    query = ("search", "can a xylophone pass priority during a showdown", "--book", "riftbound")  # xylophone: English
    seen = modules_imported(tmp_path, *query, warm=query)  # the warm runs make the caches too
    assert seen.isdisjoint({"yaml", "importlib.resources"})


def test_snippets_made_for_the_hits_shown_are_the_candidates_own(tmp_path):
    """search() leaves rule and term snippets to lexical.Snippets, which makes them for the shown hits
    only: the same text as FTS5 gave in the candidates' query, for every candidate."""
    from rulebook.library import Library
    from rulebook.search import lexical
    from rulebook.search.query import content_words, fts_query
    from rulebook.shipped import seeds_dir

    store = Library(tmp_path / "home", seeds=seeds_dir()).open()
    terms_seen = 0
    for query, book in (
        ("who gets priority during a showdown", "riftbound"),
        ("untap step", "mtg"),
        ("damage", None),
        ("hidden information", "riftbound"),
    ):
        terms = content_words(query)
        plain = lexical.ranked_rule_hits(store, terms, fts_query(terms), book, 40)
        owed = lexical.Snippets()
        later = lexical.ranked_rule_hits(store, terms, fts_query(terms), book, 40, snippets=owed)
        assert plain and all(h.snippet is None for h in later)
        assert owed.fill(store, later) == plain
        terms_plain = lexical.term_hits(store, fts_query(terms), book, 30)
        terms_later = lexical.term_hits(store, fts_query(terms), book, 30, snippets=owed)
        assert all(h.snippet is None for h in terms_later)
        assert owed.fill(store, terms_later) == terms_plain
        assert owed.fill(store, later + terms_later) == plain + terms_plain
        terms_seen += len(terms_plain)
    assert terms_seen >= 4
    store.close()


def test_close_pairs_counts_as_every_pair_of_positions():
    """_close_pairs records the positions of the query's words only: the count is the one every
    position of every word gives."""
    import random

    from rulebook.search.lexical import _close_pairs
    from rulebook.search.settings import Settings

    settings = Settings()
    rng = random.Random(4)
    for _ in range(300):
        own = [rng.choice("abcdefg") for _ in range(rng.randrange(30))]
        query = [rng.choice("abcdxyz") for _ in range(rng.randrange(5))]
        expected = sum(
            1
            for a, b in zip(query, query[1:])
            if any(
                abs(i - j) <= settings.proximity_window
                for i, x in enumerate(own)
                if x == a
                for j, y in enumerate(own)
                if y == b
            )
        )
        assert _close_pairs(query, own, settings) == (expected if len(query) >= 2 else 0)


def test_book_words_answer_as_the_books_vocabulary(tmp_path):
    """BookWords reads a book's words as they are asked for; every answer is the dict's."""
    from rulebook.library import Library
    from rulebook.search.query import BookWords, book_forms
    from rulebook.shipped import seeds_dir

    store = Library(tmp_path / "home", seeds=seeds_dir()).open()
    for book in ("riftbound", "mtg"):
        plain = store.vocabulary(book)
        words = BookWords(store, book)
        assert bool(words) and "priority" in words or book == "mtg"
        for w in ["priority", "zzz", "", "showdown", "untap", *list(plain)[:50]]:
            assert (w in words) == (w in plain) and words.get(w) == plain.get(w)
        for prefix in ("pri", "sho", "unt", "zzz", "a"):
            assert words.starting(prefix) == [w for w in plain if w[: len(prefix)] == prefix]
        for terms in (["vigilence", "creature"], ["priorty", "showdwn"], ["killed"]):
            assert book_forms(terms, BookWords(store, book)) == book_forms(terms, plain)
        assert list(words) == list(plain) and dict(words.items()) == plain and len(words) == len(plain)
        assert words.starting("pri") == [w for w in plain if w[:3] == "pri"]  # once read whole, from the dict
    assert not BookWords(store, "no-such-book")
    store.close()


def test_numpy_is_loaded_on_one_thread_and_the_environment_left_as_it_was():
    code = (
        "import os, sys; from judge.commands.search import numpy_on_one_thread; numpy_on_one_thread(); "
        "print('numpy' in sys.modules, os.environ.get('OPENBLAS_NUM_THREADS'))"
    )
    env = {k: v for k, v in os.environ.items() if k != "OPENBLAS_NUM_THREADS"}
    env["PYTHONPATH"] = str(REPO)
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True).stdout
    assert out.split() == ["True", "None"]
    out = subprocess.run(
        [sys.executable, "-c", code],
        env={**env, "OPENBLAS_NUM_THREADS": "3"},
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    assert out.split() == ["False", "3"]  # the user's choice is theirs (NumPy comes with the model)
