"""judge citations --book ID: the engines' citation tables read against a book, stale keys followed
through the diff, and --write making the engines cite an edition the package ships no table for."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
import yaml
from test_diff import CR, PAIR, library, norm, read_cr

from tests.conftest import corpus

REPO = Path(__file__).resolve().parents[1]


@pytest.fixture(scope="session")
def cr_pair():
    return library(*PAIR)


def table(edition: str) -> dict:
    return yaml.safe_load((REPO / "data" / "citations" / f"mtg-{edition}.yaml").read_text(encoding="utf-8"))


def test_the_2026_table_against_the_2025_rules_proposes_every_move(cr_pair):
    from rulebook.diff import check_citations, diff_books

    _, store = cr_pair
    result = check_citations(store, table("2026-02-27"), "cr-2025", via="cr-2026").to_json()
    assert (result["table"], result["book"], result["via"]) == ("2026-02-27", "cr-2025", "cr-2026")
    keys = {k["key"]: k for k in result["keys"]}
    # Every key whose 2026 rule had another number in 2025 (the diff of the two, read the other way)
    # is proposed at that number.
    back = {r["new"]: r["old"] for r in diff_books(store, "cr-2025", "cr-2026").to_json()["renumbered"]}
    renumbered = {
        k: [back.get(n, n) for n in e["rules"]]
        for k, e in table("2026-02-27")["citations"].items()
        if any(n in back for n in e["rules"])
    }
    assert len(renumbered) >= 5
    for key, numbers in renumbered.items():
        assert keys[key]["proposed"] == numbers, key
        assert keys[key]["status"] in ("moved", "reworded")
    # Read in both files: Destroy is 701.7 in 2025 and 701.8 in 2026, Counter 701.5 and 701.6.
    old, _ = read_cr(corpus("mtg", CR["2025"]))
    destroy = keys["effect.destroy"]
    assert (destroy["rules"], destroy["proposed"], destroy["found_by"]) == (["701.8a"], ["701.7a"], "diff")
    assert norm(destroy["phrase"]).lower() in old["701.7a"].lower()
    assert keys["effect.counter"]["proposed"] == ["701.5a"]
    # 500.5 (2026) was 500.4, which said "unused" where 2026 says "unspent": the key is followed, and
    # what the 2025 rule says in the phrase's place is offered for a judge to read.
    empties = keys["mana.empties"]
    assert (empties["status"], empties["proposed"], empties["proposed_phrase"]) == (
        "reworded",
        ["500.4"],
        "any unused mana left",
    )
    # Everything else stands as it is.
    assert all(
        k["status"] == "ok" and k["proposed"] == k["rules"] for k in result["keys"] if k["key"] not in renumbered
    )


def test_without_the_table_s_edition_the_phrase_alone(cr_pair):
    from rulebook.diff import check_citations

    _, store = cr_pair
    keys = {k["key"]: k for k in check_citations(store, table("2026-02-27"), "cr-2025").to_json()["keys"]}
    assert (keys["effect.destroy"]["proposed"], keys["effect.destroy"]["found_by"]) == (["701.7a"], "phrase")
    assert keys["mana.empties"]["status"] == "missing"  # "any unspent mana left" is in no 2025 rule


def test_write_makes_the_engines_cite_the_book_s_numbers(cr_pair, judge, monkeypatch, tmp_path):
    from scenarios import citations

    home, _ = cr_pair
    monkeypatch.setenv("JUDGE_HOME", str(home))
    written = home / "citations" / "mtg-2025-02-07.yaml"
    signatures = home / "citations" / "signatures" / "mtg-2025-02-07.json"
    try:
        code, out, err = judge("citations", "--book", "cr-2025", "--json")
        assert code == 0, err
        data = json.loads(out)
        assert data["table"] == "2026-02-27" and data["via"] == "cr-2026" and data["written"] is None
        assert data["counts"]["moved"] >= 5
        code, out, err = judge("citations", "--book", "cr-2025", "--write")
        assert code == 0, err
        assert f"wrote {written}" in out and written.exists()
        signed = json.loads(signatures.read_text(encoding="utf-8"))["rules"]  # to carry it onto later editions
        assert signed and set(signed) <= {
            r for e in yaml.safe_load(written.read_text(encoding="utf-8"))["citations"].values() for r in e["rules"]
        }
        raw = yaml.safe_load(written.read_text(encoding="utf-8"))
        assert (raw["game"], raw["edition"], raw["based_on"]) == ("mtg", "2025-02-07", "2026-02-27")
        assert set(raw["citations"]) == set(table("2026-02-27")["citations"])
        cite = citations.load_citations("mtg", "2025-02-07")
        assert cite.edition == "2025-02-07" and cite.cite("effect.destroy") == ("701.7a",)
        assert citations.load_citations("mtg", "2026-02-27").cite("effect.destroy") == ("701.8a",)  # shipped: untouched
        # Checked against its book, the written table is all ok.
        code, out, err = judge("citations", "--book", "cr-2025", "--json")
        data = json.loads(out)
        assert data["table"] == "2025-02-07" and data["counts"]["ok"] == len(data["keys"])
        # A scenario of the 2025 rules now cites 2025 numbers: Counter is 701.5a there.
        scenario = tmp_path / "counterspell-2025.yaml"
        text = (REPO / "data" / "scenarios" / "mtg" / "counterspell.yaml").read_text(encoding="utf-8")
        scenario.write_text(text.replace('edition: "2026-02-27"', 'edition: "2025-02-07"'), encoding="utf-8")
        code, out, err = judge("explain", scenario, "--book", "cr-2025", "--json")
        assert code == 0, err
        cited = {r["rule"] for r in json.loads(out)["rules_cited"]}
        assert "701.5a" in cited and "701.6a" not in cited
        # A key the engine learnt after the table was written comes from the table it was based on.
        raw["citations"].pop("effect.destroy")
        written.write_text(yaml.safe_dump(raw, allow_unicode=True), encoding="utf-8")
        citations._load.cache_clear()
        assert citations.load_citations("mtg", "2025-02-07").cite("effect.destroy") == ("701.8a",)
        # Refusals: an edition the package ships, an excerpt.
        code, out, err = judge("citations", "--book", "cr-2026", "--write")
        assert code == 2 and "already ships with the package" in err
        code, out, err = judge("citations", "--book", "mtg", "--write")
        assert code == 2 and "is an excerpt" in err
    finally:
        written.unlink(missing_ok=True)
        signatures.unlink(missing_ok=True)
        citations._load.cache_clear()


def test_the_seed_against_its_table(home, judge):
    code, out, err = judge("citations", "--book", "riftbound", "--json")
    assert code == 0, err
    data = json.loads(out)
    assert data["table"] == "v1.2" and data["partial"] is True
    assert data["counts"]["missing"] == 0 and data["counts"]["outside_excerpt"] > 100  # the excerpt lacks them
    code, out, err = judge("citations", "--book", "riftbound", "--table", "v1.3")
    assert code == 2 and "no riftbound citation table 'v1.3'" in err
