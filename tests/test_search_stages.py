"""Search in stages (rulebook/search/): each stage a module, every tuning number a field of Settings."""

from __future__ import annotations

import ast
import dataclasses
import inspect

import pytest

STAGES = ("query", "expansion", "lexical", "meaning", "fusion", "hits", "settings", "vocabulary")


@pytest.fixture(scope="module")
def store(tmp_path_factory):
    from rulebook.library import Library
    from rulebook.shipped import seeds_dir

    opened = Library(tmp_path_factory.mktemp("stages-home"), seeds=seeds_dir()).open()
    yield opened
    opened.close()


def test_the_names_other_code_imports_are_there():
    import rulebook.search as s

    for name in (
        "search",
        "SearchResult",
        "Hit",
        "Settings",
        "baseline_search",
        "words",
        "content_words",
        "correct",
        "expansions",
        "stem",
        "vocabulary_table",
        "_fts_query",
        "porter",
        "book_forms",
        "fuse",
        "STOPWORDS",
    ):
        assert hasattr(s, name), name


def test_every_setting_is_documented_and_frozen():
    from rulebook.search.settings import Settings

    tree = ast.parse(inspect.getsource(Settings))
    body = tree.body[0].body
    documented = {
        stmt.target.id
        for stmt, after in zip(body, body[1:])
        if isinstance(stmt, ast.AnnAssign)
        and isinstance(after, ast.Expr)
        and isinstance(after.value, ast.Constant)
        and isinstance(after.value.value, str)
    }
    fields = {f.name for f in dataclasses.fields(Settings)}
    assert fields - documented == set()
    with pytest.raises(dataclasses.FrozenInstanceError):
        Settings().candidates = 5  # type: ignore[misc]


def test_a_setting_changes_the_ranking_it_names(store):
    """A benchmark sweeps settings with dataclasses.replace: the search must obey them."""
    from rulebook.search import Settings, search

    question = "who gets priority during a showdown"
    shipped = search(store, question, book="riftbound", kinds=("rule",), meaning=False)
    one = search(
        store,
        question,
        book="riftbound",
        kinds=("rule",),
        meaning=False,
        settings=dataclasses.replace(Settings(), candidates=1),
    )
    assert len(shipped.hits) > 1 and len(one.hits) == 1
