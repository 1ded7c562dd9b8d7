"""Where a rule is applied (issue 22, part 8): ``judge rule N --applied`` lists the citation keys of the
engine's table that cite the rule or a rule under it, the engine lines that name each key, and the
shipped scenarios whose explanation cites one of them; the map scenario -> keys is kept in the cache.
On the seeds alone: the mtg seed is the 2008-10-01 excerpt (turn structure), the riftbound seed v1.2."""

from __future__ import annotations

import json

import pytest

from scenarios import applied as applied_module
from scenarios.applied import applied, covers, engine_uses
from scenarios.citations import load_citations

REPO_ENGINE = applied_module.engine_folder("mtg").parent


def _line(place: str) -> str:
    """The source line ``engine/mtg/turn.py:115`` names."""
    path, _, line = place.rpartition(":")
    return (REPO_ENGINE.parent / path).read_text(encoding="utf-8").splitlines()[int(line) - 1]


def test_a_rule_the_engine_applies_shows_its_key_the_engine_lines_and_the_scenarios(home, judge):
    code, out, _ = judge("rule", "302.2", "--book", "mtg", "--applied")
    assert code == 0
    lines = out.splitlines()
    at = lines.index("  applied by the engine (mtg 2008-10-01 citation table):")
    assert lines[at + 1] == '    turn.untap (302.2)  "untaps them all simultaneously"'
    assert lines[at + 2].startswith("      engine/mtg/turn.py:")
    assert "  exercised by scenarios (" in out and "    mtg/cleanup-step.yaml" in lines
    assert at > lines.index(
        "  " + "Next the active player determines which permanents he or she controls will untap. "
        "Then he or she untaps them all simultaneously (this game action doesn’t use the stack). "
        "Normally, all of a player’s permanents untap, but effects can keep one or more of a "
        "player’s permanents from untapping."
    )


def test_without_the_option_the_lookup_is_unchanged(home, judge):
    code, out, _ = judge("rule", "302.2", "--book", "mtg")
    assert code == 0 and "applied by the engine" not in out and "exercised by scenarios" not in out
    [view] = json.loads(judge("rule", "302.2", "--book", "mtg", "--json")[1])
    assert view["applied"] is None and view["scenarios"] is None


def test_the_json_has_the_keys(home, judge):
    code, out, _ = judge("rule", "302.2", "--book", "mtg", "--applied", "--json")
    [view] = json.loads(out)
    assert code == 0 and view["number"] == "302.2"
    assert all(set(k) == {"key", "phrase", "rules", "used_in"} for k in view["applied"])
    # the untap itself, and an effect keeping a permanent tapped (302.2's last sentence, in the 2008 rules)
    assert [k["key"] for k in view["applied"]] == ["turn.untap", "turn.untap_kept"]
    key = view["applied"][0]
    assert (
        key["key"] == "turn.untap" and key["rules"] == ["302.2"] and key["phrase"] == "untaps them all simultaneously"
    )
    assert key["used_in"] and all('"turn.untap"' in _line(p) for p in key["used_in"])
    assert "mtg/cleanup-step.yaml" in view["scenarios"] and view["scenarios"] == sorted(view["scenarios"])


def test_a_rule_lists_the_keys_of_its_sub_rules(home, judge):
    [view] = json.loads(judge("rule", "302", "--book", "mtg", "--applied", "--json")[1])
    assert {"turn.untap"} <= {k["key"] for k in view["applied"]}
    assert all(any(covers(r, "302", "mtg") for r in k["rules"]) for k in view["applied"])


def test_a_rule_no_key_cites_shows_no_such_section(home, judge):
    code, out, _ = judge("rule", "300.4", "--book", "mtg", "--applied")
    assert code == 0 and "applied by the engine (" not in out and "exercised by scenarios" not in out
    assert out.rstrip().splitlines()[-1] == (
        "  not applied by the engine: no key of its mtg 2008-10-01 citation table cites 300.4 or a rule under it"
    )
    [view] = json.loads(judge("rule", "300.4", "--book", "mtg", "--applied", "--json")[1])
    assert view["applied"] == [] and view["scenarios"] == []


def test_riftbound_and_the_lists_are_cut_short(home, judge):
    code, out, _ = judge("rule", "312.3", "--book", "riftbound", "--applied")
    assert code == 0
    assert (
        '    priority.granted_or_taken (312.3)  "either created if no player has it or taken from the player '
        'with Priority"' in out
    )
    assert "      engine/riftbound/chain.py:" in out
    shown = [line for line in out.splitlines() if line.startswith("    riftbound/")]
    [view] = json.loads(judge("rule", "312.3", "--book", "riftbound", "--applied", "--json")[1])
    assert len(shown) == 10 and len(view["scenarios"]) > 10 and shown[0].strip() == view["scenarios"][0]
    assert f"    and {len(view['scenarios']) - 10} more" in out.splitlines()


def test_the_library_function_finds_where_trample_is_applied(home):
    found = applied("mtg", load_citations("mtg", "2026-02-27"), "702.19b")
    [key] = found.keys
    assert key.key == "combat.trample" and key.rules == ("702.19b",)
    assert any(p.startswith("engine/mtg/combat.py:") for p in key.used_in)
    assert {"mtg/trample-over-chump-blocker.yaml", "mtg/trample-deathtouch-2026.yaml"} <= set(found.scenarios)
    assert "mtg/blocker-removed-no-trample.yaml" not in found.scenarios
    under = applied("mtg", load_citations("mtg", "2026-02-27"), "702.19")  # the section lists its sub-rules' keys
    assert {"combat.trample", "combat.trample_no_blockers"} <= {k.key for k in under.keys}


def test_where_the_engine_names_a_key(home):
    places = engine_uses("mtg", ["combat.trample", "type.creature", "keyword.protection_enchant"])
    assert places["combat.trample"] and all('"combat.trample"' in _line(p) for p in places["combat.trample"])
    assert all('f"type.{' in _line(p) for p in places["type.creature"])  # a key the code builds
    assert all("keyword.protection_enchant" in _line(p) for p in places["keyword.protection_enchant"])
    assert engine_uses("mtg", ["combat.trampl"]) == {"combat.trampl": []}  # a part of a key is not the key


def test_the_scenario_map_is_kept_and_made_again_when_its_inputs_change(home, judge, tmp_path, monkeypatch):
    monkeypatch.setattr(applied_module, "default_home", lambda: tmp_path)  # a cache of this test's own
    code, out, err = judge("rule", "302.2", "--book", "mtg", "--applied")
    assert code == 0 and "judge: playing the shipped mtg scenarios" in err
    assert [p.name for p in (tmp_path / "cache" / "applied" / "books").iterdir()] == ["mtg.json"]

    def unplayable(game, citations):
        raise AssertionError("the cached map should have answered")

    monkeypatch.setattr(applied_module, "scenario_keys", unplayable)
    again = judge("rule", "302.2", "--book", "mtg", "--applied")
    assert again == (0, out, "")
    monkeypatch.setattr(applied_module, "inputs_digest", lambda game: "a scenario changed")
    monkeypatch.setattr(applied_module, "scenario_keys", lambda game, citations: ({"mtg/new.yaml": ["turn.untap"]}, {}))
    code, out, err = judge("rule", "302.2", "--book", "mtg", "--applied")
    assert "judge: playing the shipped mtg scenarios" in err
    assert out.rstrip().endswith("  exercised by scenarios (1, in data/scenarios):\n    mtg/new.yaml")


@pytest.mark.parametrize(
    "cited, number, game, expected",
    [
        ("702.19b", "702.19", "mtg", True),
        ("702.19b", "702", "mtg", True),
        ("702.19b", "7", "mtg", True),
        ("702.190", "702.19", "mtg", False),
        ("702.1", "702.19", "mtg", False),
        ("702.19", "702.19", "mtg", True),
        ("312.1.b", "312", "riftbound", True),
        ("312.1.b", "300", "riftbound", True),
        ("412.1", "300", "riftbound", False),
    ],
)
def test_covers(cited, number, game, expected):
    assert covers(cited, number, game) is expected
