"""`judge explain` as a judge runs it: exit statuses, one-line errors, JSON, and quoting the book."""

import json
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
SCENARIOS = sorted((REPO / "data" / "scenarios").glob("*/*.yaml"))


@pytest.mark.parametrize("scenario", SCENARIOS, ids=lambda p: f"{p.parent.name}/{p.stem}")
def test_every_shipped_scenario_passes_check(home, judge, scenario):
    code, out, err = judge("explain", scenario, "--check")
    assert code == 0, out[-2000:] + err
    assert "FAIL" not in out


def test_json_has_the_spec_keys(home, judge):
    code, out, _ = judge("explain", REPO / "data/scenarios/riftbound/spec-example.yaml", "--json", "--check")
    doc = json.loads(out)
    assert code == 0
    assert {"scenario", "book", "steps", "rules_cited", "expectations"} <= set(doc)
    step = doc["steps"][0]
    assert {"n", "action", "legal", "events", "state"} <= set(step)
    assert all(e["rules"] for s in doc["steps"] for e in s["events"])
    assert doc["steps"][2]["legal"] is False


def test_failed_expectation_exits_1(home, judge, tmp_path):
    text = (REPO / "data/scenarios/riftbound/spec-example.yaml").read_text(encoding="utf-8")
    broken = tmp_path / "wrong.yaml"
    broken.write_text(text.replace("points: {Ana: 4}", "points: {Ana: 5}"), encoding="utf-8")
    code, out, _ = judge("explain", broken, "--check")
    assert code == 1
    assert "points: Ana expected 5, got 4" in out


def test_error_in_file_is_one_line_with_file_and_line(home, judge, tmp_path):
    bad = tmp_path / "bad.yaml"
    bad.write_text(
        "game: riftbound\nplayers: [Ana, Ben]\nturn: {player: Ana, phase: main}\nactions:\n  - Ana plays Gust\n",
        encoding="utf-8",
    )
    code, out, err = judge("explain", bad)
    assert code == 2
    line = err.strip()
    assert "\n" not in line and "Traceback" not in line
    assert line.startswith(f"judge: {bad}:5: actions -> 1")


def test_unknown_top_level_key_did_you_mean(home, judge, tmp_path):
    bad = tmp_path / "typo.yaml"
    bad.write_text("game: riftbound\nplayers: [Ana, Ben]\nactoins:\n  - Ana passes\n", encoding="utf-8")
    code, _, err = judge("explain", bad)
    assert code == 2 and f"{bad}:3: actoins" in err and 'did you mean "actions"' in err


def test_missing_file(home, judge, tmp_path):
    code, _, err = judge("explain", tmp_path / "none.yaml")
    assert code == 2 and "none.yaml: no such file" in err


def test_markdown_format(home, judge):
    code, out, _ = judge("explain", REPO / "data/scenarios/riftbound/spec-example.yaml", "--format", "markdown")
    assert code == 0 and out.lstrip().startswith("#")


def test_seed_book_flags_what_it_lacks(home, judge):
    code, out, _ = judge("explain", REPO / "data/scenarios/riftbound/spec-example.yaml")
    assert "343        When the last item on the chain resolves during a Showdown, Focus passes" in out
    assert "[not in book riftbound]" in out


def test_unquoted_sentence_with_a_colon_is_one_action(home, judge, tmp_path):
    from scenarios.scenario import load_scenario

    f = tmp_path / "assign.yaml"
    f.write_text(
        "game: riftbound\nplayers: [Ana, Ben]\nactions:\n  - Ana assigns damage: Jinx 2, Garen 1\n"
        "  - ask: 'Ben assigns damage: Jinx 1'\n",
        encoding="utf-8",
    )
    assert load_scenario(f).actions == [
        ("Ana assigns damage: Jinx 2, Garen 1", False),
        ("Ben assigns damage: Jinx 1", True),
    ]


def test_zone_battlefield_means_any_battlefield():
    from scenarios.expectations import _zone_matches

    assert _zone_matches("battlefield", "Grove") and _zone_matches("battlefield", "battlefield")
    assert not _zone_matches("battlefield", "base") and not _zone_matches("battlefield", "hand")


def test_full_v12_book_quotes_every_cited_rule(fresh_home, judge):
    from conftest import corpus

    v12 = corpus("riftbound", "core-rules-v1.2.txt")
    assert judge("load", v12, "--book", "rb-1.2")[0] == 0
    code, out, _ = judge("explain", REPO / "data/scenarios/riftbound/spec-example.yaml", "--book", "rb-1.2", "--json")
    cited = json.loads(out)["rules_cited"]
    assert code == 0 and len(cited) > 40
    assert all(r["in_book"] and r["text"] for r in cited), [r["rule"] for r in cited if not r["in_book"]]


def test_2026_scenario_quotes_the_loaded_2026_book_by_itself(fresh_home, judge):
    from conftest import corpus

    cr = corpus("mtg", "MagicCompRules-2026-02-27.txt")
    assert judge("load", cr, "--book", "cr-2026")[0] == 0
    code, out, err = judge("explain", REPO / "data/scenarios/mtg/combat-2026.yaml", "--json", "--check")
    doc = json.loads(out)
    assert code == 0 and doc["book"] == "cr-2026" and err == ""
    assert all(r["in_book"] for r in doc["rules_cited"])
    code, out, err = judge("explain", REPO / "data/scenarios/mtg/combat-2026.yaml", "--book", "mtg", "--check")
    assert (
        code == 0 and "is the 2008-10-01 edition: the 2026-02-27 table's numbers are cited and no text is quoted" in err
    )


# -- what does not happen is a step with its rule: a blocker removed before combat damage ----------------
TRAMPLE = REPO / "data/scenarios/mtg/trample-blocker-removed.yaml"
NO_TRAMPLE = REPO / "data/scenarios/mtg/blocker-removed-no-trample.yaml"
DAMAGE_STEP = 7  # "Ana moves to combat_damage" in both


def _damage_events(doc) -> list[dict]:
    step = doc["steps"][DAMAGE_STEP - 1]
    assert step["action"] == "Ana moves to combat_damage"
    return step["events"]


def test_trample_with_its_blocker_removed_cites_702_19d(home, judge):
    code, out, _ = judge("explain", TRAMPLE, "--check")
    assert code == 0
    assert (
        "   - Craw Wurm remains a blocked creature, but no creature is blocking it now: it has trample, so all "
        "its 6 damage is assigned to Ben (702.19d, 509.1h)\n"
    ) in out
    assert (
        "   - Craw Wurm deals 6 combat damage to Ben: Ben's life goes from 20 to 14 (510.2, 702.19d, 120.3a)\n" in out
    )
    assert "702.19b" not in out  # lethal damage to blockers first: there are none, it decides nothing
    code, out, _ = judge("explain", TRAMPLE, "--json", "--check")
    doc = json.loads(out)
    events = _damage_events(doc)
    assert {
        "what": "Craw Wurm remains a blocked creature, but no creature is blocking it now: it has trample, so all "
        "its 6 damage is assigned to Ben",
        "rules": ["702.19d", "509.1h"],
    } in events
    assert "702.19b" not in {r["rule"] for r in doc["rules_cited"]}
    assert all(e["ok"] for e in doc["expectations"])


def test_without_trample_the_damage_that_is_not_dealt_is_a_cited_step(home, judge):
    code, out, _ = judge("explain", NO_TRAMPLE, "--check")
    assert code == 0
    assert (
        "   - Craw Wurm remains a blocked creature, but no creature is blocking it now: it assigns no combat "
        "damage (510.1c, 509.1h)\n"
    ) in out
    code, out, _ = judge("explain", NO_TRAMPLE, "--json", "--check")
    doc = json.loads(out)
    events = _damage_events(doc)
    assert {
        "what": "Craw Wurm remains a blocked creature, but no creature is blocking it now: it assigns no combat damage",
        "rules": ["510.1c", "509.1h"],
    } in events
    assert {
        "what": "Llanowar Elves was a blocking creature, but it left the battlefield, which removed it from "
        "combat: it deals no combat damage",
        "rules": ["506.4"],
    } in events
    assert not any("combat damage to" in e["what"] for e in events)
    assert doc["steps"][DAMAGE_STEP - 1]["state"]["life"]["Ben"] == 20


def test_the_loaded_2026_book_quotes_the_rules_that_stop_or_redirect_the_damage(fresh_home, judge):
    from conftest import corpus

    assert judge("load", corpus("mtg", "MagicCompRules-2026-02-27.txt"), "--book", "cr-2026")[0] == 0
    quoted = {}
    for scenario in (TRAMPLE, NO_TRAMPLE):
        code, out, err = judge("explain", scenario, "--json", "--check")
        doc = json.loads(out)
        assert code == 0 and doc["book"] == "cr-2026" and err == ""
        quoted |= {r["rule"]: r["text"] for r in doc["rules_cited"] if r["in_book"]}
    assert "there are no creatures blocking it when damage is assigned" in quoted["702.19d"]
    assert "If no creatures are currently blocking it" in quoted["510.1c"]
    assert (
        "A creature remains blocked even if all the creatures blocking it are removed from combat" in quoted["509.1h"]
    )
    code, out, _ = judge("explain", TRAMPLE)
    assert "702.19d    If an attacking creature with trample" in out


@pytest.mark.parametrize("fmt", ["text", "markdown", "json"])
def test_a_scenario_an_engine_cannot_play_prints_no_step(home, judge, tmp_path, fmt):
    """The whole file is played before anything is shown: an unknown card in the third action gives the
    one-line error and exit 2, not the first two steps followed by the error."""
    path = tmp_path / "late.yaml"
    path.write_text(
        (REPO / "data/scenarios/riftbound/spec-example.yaml")
        .read_text(encoding="utf-8")
        .replace("Ben plays Hidden Blade targeting Jinx", "Ben plays Hiden Blaed targeting Jinx"),
        encoding="utf-8",
    )
    code, out, err = judge("explain", path, "--format", fmt)
    assert code == 2
    if fmt == "json":  # the error object, as every command's --json gives it
        doc = json.loads(out)
        assert "steps" not in doc and doc["error"]["line"] == 26 and "actions -> 3" in doc["error"]["message"], doc
    else:
        assert out == "" and err.count("\n") == 1 and f"{path}:26:" in err and "actions -> 3" in err, err
