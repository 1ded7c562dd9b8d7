"""Each hit says why it ranked: `why` in JSON (docs/json.md), `judge search --why` in text. On the seeds."""

from __future__ import annotations

import json
import sys
import types

import pytest


@pytest.fixture(scope="module")
def store(tmp_path_factory):
    from rulebook.library import Library
    from rulebook.shipped import seeds_dir

    opened = Library(tmp_path_factory.mktemp("why-home"), seeds=seeds_dir()).open()
    yield opened
    opened.close()


def test_every_json_hit_says_why(home, judge):
    code, out, _ = judge("search", "who gets priority during a showdown", "--book", "riftbound", "--words", "--json")
    hits = json.loads(out)["hits"]
    assert code == 0 and hits
    for hit in hits:
        assert "why" in hit and "rule" in hit
        assert hit["why"].get("bm25", 0) > 0
        assert all(value not in (None, False, 0, "", [], {}) for value in hit["why"].values()), hit["why"]
    first = next(h for h in hits if h["kind"] == "rule")
    assert first["why"]["words_rank"] == 1
    assert set(first["why"]["words"]) <= {"priority", "showdown"} and 0 < first["why"]["coverage"] <= 1


def test_why_in_text_only_when_asked(home, judge):
    _, plain, _ = judge("search", "who gets priority during a showdown", "--book", "riftbound", "--words")
    code, out, _ = judge("search", "who gets priority during a showdown", "--book", "riftbound", "--words", "--why")
    assert code == 0 and "why:" not in plain
    lines = out.splitlines()
    heads = [i for i, line in enumerate(lines) if line.startswith("[riftbound]")]
    assert heads and all(lines[i + 2].startswith("    why: bm25 ") for i in heads)
    assert "by words" in out and "has " in out


def test_a_rule_number_jump_says_so(home, judge):
    code, out, _ = judge("search", "313.4", "--book", "riftbound", "--json")
    assert json.loads(out)["hits"][0]["why"] == {"number": True}
    code, out, _ = judge("search", "313.4", "--book", "riftbound", "--why")
    assert "why: the query is its number" in out


def test_no_highlight_marks_reach_the_terminal(home, judge):
    code, out, _ = judge("search", "priority", "--book", "riftbound", "--words")
    _, raw, _ = judge("search", "priority", "--book", "riftbound", "--words", "--json")
    assert code == 0 and "**" not in out
    assert any("**priority**" in h["snippet"].lower() for h in json.loads(raw)["hits"])


def test_seed_words_that_are_words_are_kept(home, judge):
    """The seed Magic book never says "cast": a player who does is not asking about costs."""
    for book, query in (
        ("mtg", "can players cast spells during the untap step"),
        ("riftbound", "what happens when my creature is killed"),
        ("riftbound", "my unit runs swings bounced dies blocks attacks"),
    ):
        code, out, _ = judge("search", query, "--book", book, "--words", "--json")
        assert json.loads(out)["corrected"] is None, (book, query)
    code, out, _ = judge("search", "priorty", "--book", "riftbound", "--words", "--json")
    assert json.loads(out)["corrected"] == "priority"


def test_the_english_list_is_read_only_for_words_the_books_lack(store):
    from rulebook.search import query, search

    def consulted():  # the list's text decompressed, or its cached table opened (rulebook.search.cache)
        return query._english_text.cache_info().currsize + query._english_table.cache_info().currsize

    query._english_text.cache_clear()
    query._english_table.cache_clear()
    query.english.cache_clear()
    search(store, "priority showdown focus", book="riftbound", meaning=False)
    assert consulted() == 0
    search(store, "priority xylophone", book="riftbound", meaning=False)  # a word, not in the books
    assert consulted() >= 1


def fake_vectors(monkeypatch, answer):
    """Stand in for rulebook.vectors (the meaning model), answering ``answer(book)`` from nearest()."""
    import rulebook

    fake = types.ModuleType("rulebook.vectors")
    fake.nearest = lambda store, book, query, depth: answer(book)[:depth]
    monkeypatch.setitem(sys.modules, "rulebook.vectors", fake)
    monkeypatch.setattr(rulebook, "vectors", fake, raising=False)


@pytest.mark.parametrize("remembered", [True, False])
def test_meaning_reasons(store, monkeypatch, remembered):
    """The fusion's reasons, with the meaning model's answer given: its rank, cosine, the remembered
    question when it names one (and its old (number, cosine) answers still read), the fused score."""
    from rulebook.search import search

    words = search(store, "who gets priority during a showdown", book="riftbound", kinds=("rule",), meaning=False)
    second = words.hits[1].id
    outsider = next(
        n
        for (n,) in [
            (r["number"],)
            for r in store.query(
                "SELECT number FROM rules WHERE book = 'riftbound' AND text != '' ORDER BY number DESC"
            )
        ]
        if n not in {h.id for h in words.hits}
    )
    near = [(second, 0.71, "who has priority in a showdown?"), (outsider, 0.55, None)]
    fake_vectors(monkeypatch, lambda book: near if remembered else [n[:2] for n in near])
    result = search(store, "who gets priority during a showdown", book="riftbound", kinds=("rule",), limit=30)
    assert result.ranking == "words+meaning"
    why = {h.id: h.why for h in result.hits}
    assert why[second]["meaning_rank"] == 1 and why[second]["cosine"] == 0.71 and why[second]["words_rank"] == 2
    assert why[second]["fused"] > 0 and why[second]["bm25"] > 0
    assert why[second].get("remembered") == ("who has priority in a showdown?" if remembered else None)
    assert why[outsider]["meaning_rank"] == 2 and "bm25" not in why[outsider] and "words_rank" not in why[outsider]
    only_words = words.hits[0].id
    assert "meaning_rank" not in why[only_words] and why[only_words]["fused"] > 0


def test_without_the_model_search_ranks_by_words(store, monkeypatch):
    from rulebook.model import ModelUnavailable
    from rulebook.search import search

    def unavailable(book):
        raise ModelUnavailable("no model here")

    fake_vectors(monkeypatch, unavailable)
    result = search(store, "who gets priority during a showdown", book="riftbound")
    assert result.ranking == "words" and "no model here" in result.note and result.hits
