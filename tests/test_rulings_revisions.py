"""A later FAQ's revisions: of earlier rulings (superseded, shown after the current ruling) and of
rules (their revised text shown with the rule). On small FAQs written here, and on the official
Riftbound FAQs with the full Core Rules."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from rulebook.model import Source
from rulebook.readers.rulings import link_revisions, read_rulings
from tests.conftest import corpus

SEED_RULES = Path(__file__).resolve().parents[1] / "seeds" / "riftbound-300-detail.txt"

ALPHA = """# Alpha FAQ
# origin: https://example.org/alpha published 2024-01-10

## Flame Sword

### Q: Can Flame Sword choose the same unit twice?

No, each choice must be a different unit.

## Ice Shield

### Q: Does Ice Shield stack with itself?

No. Only one Ice Shield applies.

## Timing

### Q: When can I play a Reaction?

Any time you have priority.
"""

BETA = """# Beta FAQ
# origin: https://example.org/beta published 2024-06-02

## Outstanding Issues

#### Ice Shield and Stone Wall

We are reversing the ruling in the Alpha FAQ: Ice Shield now stacks with itself.

### Frost Blade (revised text)

Deal 2 to a unit.

### Rule 312.1 (updated text)

Priority is the right to play spells and abilities, now including Reactions.

## Flame Sword

### Q: Can Flame Sword choose the same unit twice?

Yes, it can now.

## Timing

### Q: When can I play a Reaction during a showdown?

When you have priority, as always.
"""


def read(text: str, name: str):
    return read_rulings(text.splitlines(), Source(name=name, sha256="", kind="rulings"), "riftbound")


def linked(*docs) -> dict[str, object]:
    return {r.id: r for r in link_revisions([r for d in docs for r in d.rulings], "riftbound")}


def test_a_later_faq_revises_rulings_on_the_same_cards():
    alpha, beta = read(ALPHA, "alpha.md"), read(BETA, "beta.md")
    assert {(r.faq, r.published) for r in beta.rulings} == {("Beta FAQ", "2024-06-02")}
    rulings = linked(alpha, beta)
    revised = {i: r.revises for i, r in rulings.items() if r.revises}
    assert revised == {
        "beta-1": ("alpha-2",),  # names Ice Shield and the Alpha FAQ, and says it reverses
        "beta-4": ("alpha-1",),  # the same question answered again
    }
    # Frost Blade's revised text: no earlier ruling names it. The Timing questions share a topic, but
    # the later one says nothing of a change.
    assert rulings["beta-2"].revises == () and rulings["beta-5"].revises == ()
    assert {i: r.revises_rule for i, r in rulings.items() if r.revises_rule} == {"beta-3": "312.1"}


def test_only_a_later_dated_faq_revises():
    alpha = read(ALPHA, "alpha.md")
    # Beta dated before Alpha: Beta's rulings revise nothing; Alpha answers Beta's question again.
    early = read(BETA.replace("2024-06-02", "2023-12-01"), "beta.md")
    assert {i: r.revises for i, r in linked(alpha, early).items() if r.revises} == {"alpha-1": ("beta-4",)}
    # An undated FAQ: which came first is unknown.
    undated = read(BETA.replace(" published 2024-06-02", ""), "beta.md")
    assert undated.rulings[0].published is None
    assert not any(r.revises for r in linked(alpha, undated).values())
    assert linked(alpha, undated)["beta-3"].revises_rule == "312.1"  # a rule's revised text needs no date


def test_revision_words_alone_do_not_link_unrelated_rulings():
    alpha = read(ALPHA, "alpha.md")
    other = read(
        "# Gamma FAQ\n# origin: x published 2025-01-01\n## Stone Wall\n### Q: Was Stone Wall changed?\n"
        "Yes, we replaced the ruling in the Alpha FAQ.\n### Meteor (errata)\nDeal 4.\n",
        "gamma.md",
    )
    assert not any(r.revises for r in linked(alpha, other).values())


# ---------------------------------------------------------------------------------------------
# The commands, on a book of the seed rules and the two FAQs above


@pytest.fixture
def house(fresh_home, judge, tmp_path):
    (tmp_path / "faq-alpha.md").write_text(ALPHA, encoding="utf-8")
    (tmp_path / "faq-beta.md").write_text(BETA, encoding="utf-8")
    code, out, err = judge(
        "load",
        SEED_RULES,
        tmp_path / "faq-alpha.md",
        tmp_path / "faq-beta.md",
        "--book",
        "house",
        "--game",
        "riftbound",
    )
    assert code == 0, err
    return judge


def test_rulings_show_the_current_ruling_first(house):
    code, out, _ = house("rulings", "Ice Shield", "--book", "house", "--json")
    assert code == 0
    shown = json.loads(out)["rulings"]
    assert [(r["id"], r["current"]) for r in shown] == [("faq-beta-1", True), ("faq-alpha-2", False)]
    new, old = shown
    assert (new["form"], new["faq"], new["published"]) == ("section", "Beta FAQ", "2024-06-02")
    assert new["revises"] == [
        {
            "book": "house",
            "id": "faq-alpha-2",
            "question": "Does Ice Shield stack with itself?",
            "faq": "Alpha FAQ",
            "published": "2024-01-10",
        }
    ]
    assert [n["id"] for n in old["superseded_by"]] == ["faq-beta-1"] and old["revises"] == []
    code, text, _ = house("rulings", "Ice Shield", "--book", "house")
    first, second = text.split("\n\n")
    assert first.startswith(
        "[house] faq-beta-1  (Outstanding Issues)  Beta FAQ, 2024-06-02\nIce Shield and Stone Wall\n"
    )
    assert second.startswith(
        "[house] faq-alpha-2  (Ice Shield)  Alpha FAQ, 2024-01-10  SUPERSEDED\nQ: Does Ice Shield stack with itself?\n"
    )
    assert "superseded by:\n     faq-beta-1 (Beta FAQ, 2024-06-02): Ice Shield and Stone Wall" in second


def test_a_superseded_ruling_brings_its_revision(house):
    """The query finds only the old answer's words: the current answer is shown too, first."""
    code, out, _ = house("rulings", "each choice", "--book", "house", "--json")
    # (house, dated 2024-01-10, is read with the older seed's FAQ too: "How does Hidden work?" has "choices")
    shown = [r for r in json.loads(out)["rulings"] if r["book"] == "house"]
    assert [(r["id"], r["current"], r["score"] is None) for r in shown] == [
        ("faq-beta-4", True, True),
        ("faq-alpha-1", False, False),
    ]


def test_rule_shows_its_revised_text(house):
    code, out, _ = house("rule", "312.1", "--book", "house", "--json")
    assert code == 0
    [view] = json.loads(out)
    assert view["revised_by"] == [
        {
            "ruling": "faq-beta-3",
            "faq": "Beta FAQ",
            "published": "2024-06-02",
            "text": "Priority is the right to play spells and abilities, now including Reactions.",
            "source": "faq-beta.md",
            "line": 14,
        }
    ]
    code, text, _ = house("rule", "312.1", "--book", "house")
    assert (
        "  revised by FAQ Beta FAQ (2024-06-02), ruling faq-beta-3:\n"
        "    Priority is the right to play spells and abilities, now including Reactions.\n"
    ) in text
    code, out, _ = house("rule", "312.2", "--book", "house", "--json")
    assert json.loads(out)[0]["revised_by"] == []


def test_a_rulings_file_with_an_unreadable_section_loads_with_warnings(fresh_home, judge, tmp_path):
    path = tmp_path / "faq-broken.md"
    path.write_text(
        ALPHA + "\n## Garbled\n\n### Ember (revised text)\n\n\ufffd\ufffd\ufffd\ufffd\n\n### Q:\n", encoding="utf-8"
    )
    code, out, err = judge("load", SEED_RULES, path, "--book", "broken", "--game", "riftbound")
    assert code == 0, err
    warnings = [line.strip() for line in out.splitlines() if "warning:" in line]
    assert warnings == [
        "warning: faq-broken.md:26: unreadable line skipped: '\ufffd\ufffd\ufffd\ufffd'",
        "warning: faq-broken.md:24: section without text: 'Ember (revised text)'",
        "warning: faq-broken.md:28: question heading without a question skipped",
    ]
    code, out, err = judge("rulings", "Ember", "--book", "broken")
    assert code == 0 and "Ember (revised text)" in out


# ---------------------------------------------------------------------------------------------
# The official FAQs and the full Core Rules


@pytest.fixture(scope="module")
def official(tmp_path_factory):
    """A library with a book of the Core Rules v1.2 and both official FAQs, as a judge loads them."""
    files = [corpus("riftbound", name) for name in ("core-rules-v1.2.txt", "faq-origins.md", "faq-spiritforged.md")]
    home = tmp_path_factory.mktemp("official")
    mp = pytest.MonkeyPatch()
    mp.setenv("JUDGE_HOME", str(home))
    from rulebook.library import Library
    from rulebook.shipped import seeds_dir

    Library(home, seeds=seeds_dir()).load(files, "rb")
    yield home
    mp.undo()


@pytest.fixture
def official_judge(official, judge, monkeypatch):
    monkeypatch.setenv("JUDGE_HOME", str(official))
    return judge


def test_icathian_rain_current_ruling_first(official_judge):
    code, out, _ = official_judge("rulings", "Icathian Rain", "--book", "rb", "--json")
    assert code == 0
    shown = json.loads(out)["rulings"]
    current = [r for r in shown if r["current"]]
    old = [r for r in shown if not r["current"]]
    assert shown == current + old  # the current rulings first
    assert {r["question"] for r in current} >= {
        "Icathian Rain (revised text)",
        "Falling Star, Icathian Rain, and Deflect",
    }
    assert {(r["faq"], r["published"]) for r in current} == {("Riftbound Spiritforged FAQ", "2026-01-14")}
    [origins] = old
    assert (origins["faq"], origins["published"]) == ("Riftbound Origins FAQ", "2025-10-16")
    assert origins["question"].startswith(
        'That "do this" wording is a lot like the one on Falling Star and Icathian Rain'
    )
    assert {n["question"] for n in origins["superseded_by"]} == {
        "Falling Star, Icathian Rain, and Deflect",
        "Falling Star (revised text)",
        "Icathian Rain (revised text)",
    }
    for r in current:
        assert [o["id"] for o in r["revises"]] == [origins["id"]]
    code, text, _ = official_judge("rulings", "Icathian Rain", "--book", "rb")
    blocks = text.split("\n\n")
    assert "SUPERSEDED" in blocks[-1] and "Riftbound Origins FAQ, 2025-10-16" in blocks[-1]
    assert not any("SUPERSEDED" in b for b in blocks[:-1])


def test_falling_star_current_ruling_first(official_judge):
    code, out, _ = official_judge("rulings", "Falling Star", "--book", "rb", "--json")
    shown = json.loads(out)["rulings"]
    assert shown[0]["question"] == "Falling Star (revised text)" and shown[0]["current"]
    assert shown[-1]["faq"] == "Riftbound Origins FAQ" and not shown[-1]["current"]


def test_rule_735_1_c_shows_its_revision(official_judge):
    code, out, _ = official_judge("rule", "735.1.c", "--book", "rb", "--json")
    assert code == 0
    [view] = json.loads(out)
    assert view["text"].endswith('more to play as an additional cost."')  # the Core Rules' own text
    [revision] = view["revised_by"]
    assert (revision["faq"], revision["published"], revision["source"], revision["line"]) == (
        "Riftbound Spiritforged FAQ",
        "2026-01-14",
        "faq-spiritforged.md",
        78,
    )
    assert revision["text"].endswith('more to play as an additional cost for each time they choose me."')
    code, text, _ = official_judge("rule", "735.1.c", "--book", "rb")
    assert f"revised by FAQ Riftbound Spiritforged FAQ (2026-01-14), ruling {revision['ruling']}:" in text
    assert "for each time they choose me." in text
