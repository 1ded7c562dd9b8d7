"""Editions by default: within a game, a lookup that names no book reads the newest full edition
loaded, the seed book only while none is; `--game` picks that game's default book, `--book` any book;
and the JSON has one shape whether or not a book was named."""

import json
from pathlib import Path

import pytest
from conftest import corpus

REPO = Path(__file__).resolve().parents[1]


@pytest.fixture(scope="session")
def full_home(tmp_path_factory) -> Path:
    """A library with the full Riftbound Core Rules v1.2 loaded as the user book ``rb-1.2`` (once)."""
    from rulebook.library import Library
    from rulebook.shipped import seeds_dir

    v12 = corpus("riftbound", "core-rules-v1.2.txt")
    home = tmp_path_factory.mktemp("full-home")
    Library(home, seeds=seeds_dir()).load([v12], "rb-1.2")
    return home


@pytest.fixture
def full(full_home, monkeypatch) -> Path:
    monkeypatch.setenv("JUDGE_HOME", str(full_home))
    return full_home


def rule_json(judge, *args):
    code, out, err = judge("rule", *args, "--json")
    assert code == 0, err
    views = json.loads(out)
    assert isinstance(views, list)
    return views


# Choosing the default --------------------------------------------------------------------------------


def test_edition_order():
    from rulebook.editions import edition_key

    ordered = ["", "v1.2", "v1.10", "2008-10-01", "February 7, 2025", "2025-12-01", "2026-02-27"]
    assert sorted(ordered, key=edition_key) == ordered
    assert edition_key("Effective as of February 27, 2026") == edition_key("2026-02-27")
    assert edition_key("27 February 2026") == edition_key("2026-02-27")


def test_default_books_on_the_seeds_are_the_seeds(home):
    from judge.books import open_store
    from rulebook.editions import default_book, default_books

    store = open_store()
    assert default_books(store) == ["riftbound", "mtg"]
    assert default_books(store, game="mtg") == ["mtg"] and default_book(store, "riftbound") == "riftbound"


def test_default_books_prefer_the_newest_full_edition(full):
    from judge.books import open_store
    from rulebook.editions import BookChoiceError, default_books

    store = open_store()
    assert default_books(store) == ["mtg", "rb-1.2"]  # one per game, in `judge books` order
    assert default_books(store, game="riftbound") == ["rb-1.2"]
    assert default_books(store, book="riftbound") == ["riftbound"]
    assert default_books(store, book="riftbound", game="riftbound") == ["riftbound"]
    with pytest.raises(BookChoiceError, match="no book 'rb12' \\(did you mean \"rb-1.2\"\\?\\)"):
        default_books(store, book="rb12")
    with pytest.raises(BookChoiceError, match="is a riftbound book, not mtg"):
        default_books(store, book="rb-1.2", game="mtg")
    with pytest.raises(BookChoiceError, match="unknown game 'pokemon'"):
        default_books(store, game="pokemon")


def test_newest_edition_wins_and_a_book_without_rules_never_does():
    from rulebook.editions import _default_of
    from rulebook.store import BookRow

    def row(id, edition, builtin=0, partial=0, has_rules=1, game="mtg"):
        return BookRow(
            id=id,
            game=game,
            title=id,
            edition=edition,
            builtin=bool(builtin),
            partial=bool(partial),
            fingerprint=None,
            has_rules=bool(has_rules),
            has_rulings=False,
        )

    rows = [
        row("mtg", "2008-10-01", builtin=1, partial=1),
        row("cr-2025", "2025-02-07"),
        row("cr-2026", "2026-02-27"),
        row("faq", "2026-06-01", has_rules=0),
        row("scrap", "2027-01-01", partial=1),
    ]
    assert _default_of(rows, "mtg") == "cr-2026"  # newest complete; a rulings-only book is no edition
    assert _default_of([rows[0], rows[4]], "mtg") == "scrap"  # a truncated user book still beats the seed
    assert _default_of([rows[0], rows[3]], "mtg") == "mtg"  # the seed, while no user book has rules
    assert _default_of([row("b", None), row("a", None)], "mtg") == "b"  # equals: `judge books` order


# The commands ------------------------------------------------------------------------------------------


def test_rule_without_book_reads_the_full_edition_only(full, judge):
    views = rule_json(judge, "312.1")
    assert [v["book"] for v in views] == ["rb-1.2"]
    assert views == rule_json(judge, "312.1", "--game", "riftbound")
    [seed] = rule_json(judge, "312.1", "--book", "riftbound")
    assert seed["book"] == "riftbound" and seed["cites"][0]["in_book"] is False  # the excerpt lacks 398.1
    assert views[0]["cites"][0]["in_book"] is True
    code, out, _ = judge("rule", "312.1")
    assert code == 0 and out.startswith("[rb-1.2] 312.1")


def test_rule_without_a_full_book_reads_the_seeds(home, judge):
    views = rule_json(judge, "312.1")
    assert [v["book"] for v in views] == ["riftbound"]
    assert rule_json(judge, "312.1", "--game", "riftbound") == views == rule_json(judge, "312.1", "--book", "riftbound")
    code, _, err = judge("rule", "312.1", "--game", "mtg")
    assert code == 1 and "no rule 312.1 in mtg" in err


def test_json_has_one_shape_with_and_without_book(full, judge):
    bare, named = rule_json(judge, "312.1"), rule_json(judge, "312.1", "--book", "rb-1.2")
    assert bare == named and set(bare[0]) == set(rule_json(judge, "312.1", "--book", "riftbound")[0])
    for args in (("define", "focus"), ("check",)):
        a = json.loads(judge(*args, "--json")[1])
        b = json.loads(judge(*args, "--book", "rb-1.2", "--json")[1])
        assert isinstance(a, list) and isinstance(b, list)
        assert {x["book"] for x in b} == {"rb-1.2"} and "riftbound" not in {x["book"] for x in a}
        assert [set(x) for x in a[:1]] == [set(x) for x in b[:1]]
    a = json.loads(judge("rulings", "hidden", "--json")[1])
    b = json.loads(judge("rulings", "hidden", "--book", "riftbound", "--json")[1])
    assert set(a) == set(b) == {"query", "corrected", "rulings", "hint"}


def test_define_and_refs_follow_the_default(full, judge):
    [term] = json.loads(judge("define", "focus", "--game", "riftbound", "--json")[1])
    assert term["book"] == "rb-1.2"
    view = json.loads(judge("refs", "312.1", "--json")[1])
    assert view["book"] == "rb-1.2"
    code, _, err = judge("refs", "312.1", "--game", "mtg")
    assert code == 1 and "no rule 312.1 in mtg" in err


def test_export_needs_a_book_or_a_game(full, judge, tmp_path):
    code, _, err = judge("export", "json")
    assert code == 2 and "--book" in err and "--game" in err
    code, out, _ = judge("export", "json", "--game", "riftbound")
    assert code == 0 and json.loads(out)["book"]["id"] == "rb-1.2"


def test_search_covers_the_default_books(full, judge):
    code, out, _ = judge("search", "priority", "--words", "--json")
    books = {h["book"] for h in json.loads(out)["hits"]}
    assert code == 0 and "riftbound" not in books and "rb-1.2" in books
    code, out, _ = judge("search", "priority", "--words", "--book", "riftbound", "--json")
    assert {h["book"] for h in json.loads(out)["hits"]} == {"riftbound"}


def test_explain_of_a_scenario_naming_no_book_quotes_the_full_edition(full, judge):
    code, out, err = judge("explain", REPO / "data/scenarios/riftbound/burn-out.yaml", "--json", "--check")
    doc = json.loads(out)
    assert code == 0, err
    assert doc["book"] == "rb-1.2" and all(r["in_book"] for r in doc["rules_cited"])


def test_explain_without_a_full_book_uses_the_seed(home, judge):
    code, out, _ = judge("explain", REPO / "data/scenarios/riftbound/burn-out.yaml", "--json", "--check")
    assert code == 0 and json.loads(out)["book"] == "riftbound"


def test_books_json_marks_each_games_default(full, judge):
    books = {b["id"]: b for b in json.loads(judge("books", "--json")[1])}
    assert books["rb-1.2"]["default"] and books["mtg"]["default"] and not books["riftbound"]["default"]
