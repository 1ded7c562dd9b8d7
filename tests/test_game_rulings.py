"""Rulings stay with the game (issue 20): a FAQ loaded with one edition is found from every newer book
of its game, labelled with the book it was written for, its rules followed into the newer edition.

On the real documents: Riftbound Core Rules v1.2 with the Origins and Spiritforged FAQs as ``rb-1.2``,
v1.3 with the Unleashed FAQ as ``rb-1.3`` (the default), one library for the module. The revisions
and duplicates across books on small FAQs of their own, over the seed rules."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from conftest import corpus

REPO = Path(__file__).resolve().parents[1]
SEED_RULES = REPO / "seeds" / "riftbound-300-detail.txt"


@pytest.fixture(scope="module")
def editions(tmp_path_factory) -> Path:
    """A library with rb-1.2 (v1.2 + Origins + Spiritforged FAQs) and rb-1.3 (v1.3 + Unleashed FAQ)."""
    files = {
        name: corpus("riftbound", name)
        for name in (
            "core-rules-v1.2.txt",
            "faq-origins.md",
            "faq-spiritforged.md",
            "core-rules-v1.3.txt",
            "faq-unleashed.md",
        )
    }
    from rulebook.library import Library
    from rulebook.shipped import seeds_dir

    home = tmp_path_factory.mktemp("two-editions")
    lib = Library(home, seeds=seeds_dir())
    lib.load(
        [files["core-rules-v1.2.txt"], files["faq-origins.md"], files["faq-spiritforged.md"]],
        "rb-1.2",
        game="riftbound",
    )
    lib.load([files["core-rules-v1.3.txt"], files["faq-unleashed.md"]], "rb-1.3", game="riftbound")
    return home


@pytest.fixture
def rb(editions, monkeypatch, judge):
    monkeypatch.setenv("JUDGE_HOME", str(editions))
    return judge


def _json(out: str):
    return json.loads(out)


def test_an_older_editions_rulings_are_found_from_the_newer_default_book(rb):
    code, out, _ = rb("rulings", "hidden", "--json")
    assert code == 0
    shown = {(r["book"], r["id"]): r for r in _json(out)["rulings"]}
    hide = shown[("rb-1.2", "faq-origins-17")]  # "How do I hide a card with Hidden?"
    assert (hide["edition"], hide["read_in"], hide["current"]) == ("2025-12-01", "rb-1.3", True)
    [cite] = hide["cites"]
    assert (cite["rule"], cite["title"], cite["found_by"], cite["in_book"], cite["now"]) == (
        "737",
        "Hidden",
        "keyword",
        "rb-1.3",
        "811",
    )
    assert cite["status"] == "moved" and cite["changed"]  # renumbered, and sub-rules reworded since
    reworded = {(c["rule"], c["now"]) for c in cite["changes"] if c["status"] == "moved and changed"}
    assert ("737.6", "811.6") in reworded
    assert {c["now"] for c in cite["changes"] if c["status"] == "added"} == {"811.1.d.1.a"}
    only_numbers = next(c for c in cite["changes"] if c["rule"] == "737.1.d")  # "See rule 352.5" -> 355.6
    assert only_numbers["references_only"] and "[-352.5.-]{+355.6.+}" in only_numbers["diff"]
    code, text, _ = rb("rulings", "How do I hide a card with Hidden")
    first = text.split("\n\n")[0]
    assert first.startswith(
        "[rb-1.2] faq-origins-17  (Hidden)  Riftbound Origins FAQ, 2025-10-16\n"
        "   written for rb-1.2 (edition 2025-12-01), read in rb-1.3\n"
        "Q: How do I hide a card with Hidden?\n"
    )
    assert (
        "   rests on: 737 Hidden (rb-1.2) = 811 in rb-1.3, changed since: 811.1.b, 811.1.d.1, 811.6 reworded; "
        "811.1.d.1.a added"
    ) in first


def test_search_finds_an_older_editions_ruling_labelled(rb):
    code, out, _ = rb("search", "Teemo", "--game", "riftbound", "--json")
    assert code == 0
    rulings = [h for h in _json(out)["hits"] if h["kind"] == "ruling"]
    assert rulings and all((h["book"], h["read_in"]) == ("rb-1.2", "rb-1.3") for h in rulings)
    assert "faq-origins-94" in [h["id"] for h in rulings]
    code, text, _ = rb("search", "Teemo", "--game", "riftbound")
    assert "[rb-1.2] ruling faq-origins-94" in text
    assert "    written for rb-1.2 (edition 2025-12-01), read in rb-1.3" in text


def test_a_cited_rule_is_followed_into_the_newer_edition_and_marked_reworded(rb):
    # The Spiritforged FAQ gives 735.1.c's revised text; v1.3 numbers Deflect 809 and reads the revision.
    code, out, _ = rb("rule", "809.1.c", "--json")
    assert code == 0
    [view] = _json(out)
    [ruling] = view["rulings"]
    assert (ruling["book"], ruling["id"], ruling["found_by"], ruling["edition"]) == (
        "rb-1.2",
        "faq-spiritforged-6",
        "number",
        "2025-12-01",
    )
    [cite] = ruling["cites"]
    assert (cite["rule"], cite["now"], cite["status"], cite["changed"]) == (
        "735.1.c",
        "809.1.c",
        "moved and changed",
        True,
    )
    assert '{+cost for each time they choose me."+}' in cite["diff"]
    code, text, _ = rb("rule", "809.1.c")
    assert (
        "    from rb-1.2 (edition 2025-12-01), 735.1.c (rb-1.2) = 809.1.c in rb-1.3, reworded since:\n"
        "      faq-spiritforged-6 (Riftbound Spiritforged FAQ, 2026-01-14): Rule 735.1.c (revised text)"
    ) in text


def test_a_rule_lists_the_rulings_about_its_keyword(rb):
    code, out, _ = rb("rule", "737", "--book", "rb-1.2", "--json")
    [view] = _json(out)
    about = {(r["book"], r["id"]): r for r in view["rulings"]}
    assert about[("rb-1.2", "faq-origins-17")]["found_by"] == "keyword"
    assert about[("rb-1.2", "faq-origins-17")]["cites"][0]["status"] == "same"  # its own book: as it is
    assert len([k for k in about if k[0] == "rb-1.2"]) >= 10  # the Origins FAQ's section on Hidden, and more
    assert ("riftbound", "riftbound-faq-core-rules-9") in about  # the seed's "How does Hidden work?" (v1.2)
    # The same rulings from the newer edition, where Hidden is 811.
    code, out, _ = rb("rule", "811", "--json")
    [view] = _json(out)
    assert {(r["book"], r["id"]) for r in view["rulings"]} == set(about)
    code, text, _ = rb("rule", "811")
    assert "  rulings (" in text and "    from rb-1.2 (edition 2025-12-01), 737 Hidden (rb-1.2) = 811 in rb-1.3" in text
    # A sub-rule without a title lists the rulings that name it, not those about the keyword.
    code, out, _ = rb("rule", "737.4", "--book", "rb-1.2", "--json")
    assert _json(out)[0]["rulings"] == []


def test_a_newer_editions_ruling_is_never_shown_from_an_older_book(rb):
    # faq-unleashed-1 (v1.3's FAQ) names rule 323.1: listed under 323.1 of rb-1.3, not of rb-1.2.
    code, out, _ = rb("rule", "323.1", "--json")
    assert [(r["book"], r["id"], r["found_by"]) for r in _json(out)[0]["rulings"]] == [
        ("rb-1.3", "faq-unleashed-1", "number")
    ]
    code, out, _ = rb("rule", "323.1", "--book", "rb-1.2", "--json")
    assert not any(r["book"] == "rb-1.3" for r in _json(out)[0]["rulings"])
    for args in (("rulings", "Aspirant's Climb Green Father"), ("search", "Aspirant's Climb Green Father")):
        code, out, _ = rb(*args, "--book", "rb-1.2", "--json")
        found = _json(out)["rulings" if args[0] == "rulings" else "hits"]
        assert not any(item["book"] == "rb-1.3" for item in found)
        code, out, _ = rb(*args, "--json")
        found = _json(out)["rulings" if args[0] == "rulings" else "hits"]
        assert any(item["book"] == "rb-1.3" for item in found)


def test_a_books_own_rulings_are_shown_as_before(rb):
    code, out, _ = rb("rulings", "hidden", "--book", "rb-1.2", "--json")
    own = [r for r in _json(out)["rulings"] if r["book"] == "rb-1.2"]
    assert own and all(r["read_in"] == "rb-1.2" for r in own)
    assert all(c["status"] == "same" and not c["changed"] and c["in_book"] == "rb-1.2" for r in own for c in r["cites"])
    code, text, _ = rb("rulings", "hidden", "--book", "rb-1.2")
    assert "[rb-1.2] faq-origins-" in text and "written for rb-1.2" not in text and "rests on" not in text
    # Origins 57 revised by Spiritforged (one book, as before issue 20).
    code, out, _ = rb("rulings", "Falling Star Icathian Rain reflexive", "--book", "rb-1.2", "--json")
    old = next(r for r in _json(out)["rulings"] if r["id"] == "faq-origins-57")
    assert not old["current"] and {n["id"] for n in old["superseded_by"]} >= {"faq-spiritforged-3"}


def test_followed_numbers_are_stored_per_pair_of_books_when_loaded(rb, editions):
    from rulebook.store import Store

    store = Store(editions / "judge.db")  # written by the loads: a lookup computes nothing
    try:
        revised, cites = store.ruling_pair("rb-1.2", "rb-1.3")
        assert store.ruling_pair("rb-1.3", "rb-1.2") is None  # never a newer book's rulings
    finally:
        store.close()
    assert cites["faq-spiritforged-6"][0]["now"] == "809.1.c"
    code, out, _ = rb("rule", "809.1.c", "--json")
    assert _json(out)[0]["rulings"][0]["cites"][0]["now"] == "809.1.c"
    assert not (editions / "cache" / "rulings").exists()


def test_a_miss_in_a_full_book_has_no_hint_and_one_in_the_seed_names_it(rb):
    code, out, err = rb("rule", "999.9", "--book", "rb-1.3", "--json")
    assert code == 1 and _json(out)["error"]["hint"] is None and "hint:" not in err
    code, out, err = rb("rule", "702.19b", "--json")  # the default books: rb-1.3, and the mtg seed
    hint = _json(out)["error"]["hint"]
    assert hint.startswith("mtg is the built-in excerpt") and "rb-1.3" not in hint


def test_the_json_keys_are_documented(rb):
    from test_json_docs import keys, sections

    for name, args in (
        ("rulings", ("rulings", "hidden")),
        ("rule", ("rule", "811")),
        ("search", ("search", "Teemo")),
        ("rule", ("rule", "809.1.c")),
    ):
        code, out, err = rb(*args, "--json")
        assert code == 0, err
        section = sections()[name]
        undocumented = {k for k in keys(json.loads(out)) if f'"{k}"' not in section and f"`{k}`" not in section}
        assert not undocumented, f"judge {name} --json prints keys docs/json.md does not name: {sorted(undocumented)}"


# ---------------------------------------------------------------------------------------------
# Revisions and duplicates across books, on FAQs of their own over the seed rules

ALPHA = """# Alpha FAQ
# origin: https://example.org/alpha published 2024-01-10

## Ice Shield

### Q: Does Ice Shield stack with itself?

No. Only one Ice Shield applies.
"""

BETA = """# Beta FAQ
# origin: https://example.org/beta published 2024-06-02

## Ice Shield

### Q: Does Ice Shield stack with itself?

Yes. Each Ice Shield applies.
"""


@pytest.fixture
def faqs(fresh_home, judge, tmp_path):
    (tmp_path / "faq-alpha.md").write_text(ALPHA, encoding="utf-8")
    (tmp_path / "faq-beta.md").write_text(BETA, encoding="utf-8")
    for book, edition, files in (
        ("old", "v1.0", ["faq-alpha.md"]),
        ("new", "v2.0", ["faq-beta.md"]),
        ("both", "v3.0", ["faq-alpha.md", "faq-beta.md"]),
    ):
        code, _, err = judge(
            "load",
            SEED_RULES,
            *(tmp_path / f for f in files),
            "--book",
            book,
            "--game",
            "riftbound",
            "--edition",
            edition,
        )
        assert code == 0, err
    return judge


def test_a_newer_books_faq_supersedes_an_older_books_ruling(faqs):
    code, out, _ = faqs("rulings", "Ice Shield stack", "--book", "new", "--json")
    shown = [(r["book"], r["id"], r["current"]) for r in _json(out)["rulings"]]
    assert shown == [("new", "faq-beta-1", True), ("old", "faq-alpha-1", False)]
    newer, older = _json(out)["rulings"]
    assert older["superseded_by"] == [
        {
            "book": "new",
            "id": "faq-beta-1",
            "question": "Does Ice Shield stack with itself?",
            "faq": "Beta FAQ",
            "published": "2024-06-02",
        }
    ]
    assert [(r["book"], r["id"]) for r in newer["revises"]] == [("old", "faq-alpha-1")]
    code, text, _ = faqs("rulings", "Ice Shield stack", "--book", "new")
    assert "superseded by:\n     [new] faq-beta-1 (Beta FAQ, 2024-06-02)" in text
    # Read in the old book, the newer FAQ is not there, and its ruling stands.
    code, out, _ = faqs("rulings", "Ice Shield stack", "--book", "old", "--json")
    assert [(r["book"], r["id"], r["current"]) for r in _json(out)["rulings"]] == [("old", "faq-alpha-1", True)]


def test_a_ruling_loaded_in_two_books_is_shown_once_from_the_newer(faqs):
    code, out, _ = faqs("rulings", "Ice Shield stack", "--book", "both", "--json")
    assert [(r["book"], r["id"], r["current"]) for r in _json(out)["rulings"]] == [
        ("both", "faq-beta-1", True),
        ("both", "faq-alpha-1", False),
    ]
    code, out, _ = faqs("search", "Ice Shield stack", "--book", "both", "--json")
    assert sorted((h["book"], h["id"]) for h in _json(out)["hits"] if h["kind"] == "ruling") == [
        ("both", "faq-alpha-1"),
        ("both", "faq-beta-1"),
    ]


def test_the_site_lists_an_older_editions_rulings_under_the_rule_they_rest_on(rb, tmp_path):
    """``judge site``: under a rule of rb-1.3, the rb-1.2 rulings resting on it as followed there (737 Hidden
    is 811 in v1.3; 735.1.c is 809.1.c), linked into rb-1.2's rulings page when rb-1.2 is in the site."""
    code, _, err = rb("site", tmp_path / "both", "--book", "rb-1.3", "--book", "rb-1.2", "--no-cards")
    assert code == 0, err
    hidden = (tmp_path / "both" / "rb-1.3" / "811.html").read_text(encoding="utf-8")
    rulings = hidden.split('id="811"', 1)[1].split("</article>", 1)[0]
    assert (
        '<li><a href="../rb-1.2/rulings.html#ruling-faq-origins-17">How do I hide a card with Hidden? '
        '<small class="book">(rb-1.2)</small></a></li>' in rulings
    )
    revised = (tmp_path / "both" / "rb-1.3" / "809.html").read_text(encoding="utf-8")
    assert (
        "../rb-1.2/rulings.html#ruling-faq-spiritforged-6" in revised.split('id="809.1.c"', 1)[1].split("</article>")[0]
    )
    code, _, err = rb("site", tmp_path / "one", "--book", "rb-1.3", "--no-cards")
    assert code == 0, err
    alone = (tmp_path / "one" / "rb-1.3" / "811.html").read_text(encoding="utf-8")
    assert '<li>How do I hide a card with Hidden? <small class="book">(rb-1.2)</small></li>' in alone
