"""The rules that changed over time, written once with their dates (data/editions/<game>.yaml), decide
what the engines do: the date of the edition explained, never the citation table handed in (issue 20)."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml

from engine.core import Citations, Timeline
from scenarios.citations import edition_date, load_citations, read_table, tables, timeline

REPO = Path(__file__).resolve().parents[1]


def test_the_engines_know_exactly_the_changes_the_timelines_date():
    from engine.mtg.state import CHANGES
    from engine.riftbound.game import FAQ_RULINGS, V1_3_CHANGES

    assert timeline("mtg").names() == CHANGES
    assert timeline("riftbound").names() == {*FAQ_RULINGS, *V1_3_CHANGES, "deflect.each_choice"}


@pytest.mark.parametrize("game", ["mtg", "riftbound"])
def test_each_change_names_a_key_every_table_has_and_its_dates_agree_with_what_was_seen(game):
    raw = yaml.safe_load((REPO / "data" / "editions" / f"{game}.yaml").read_text(encoding="utf-8"))["changes"]
    keys = {edition: set(read_table(game, edition)["citations"]) for edition in tables(game)}
    for change in timeline(game).changes:
        assert change.since or change.until, change.name
        assert not (change.since and change.until) or change.since < change.until
        for edition in tables(game):
            if game == "riftbound" and change.since and edition_date(game, edition) < change.since:
                continue  # a rule that came with a FAQ or v1.3: older tables need not number it
            assert change.key in keys[edition], (change.name, edition)
        seen = raw[change.name].get("seen")
        if seen:  # the corpora's editions either side of the change (of its start or its end)
            before, after = edition_date(game, seen["before"]), edition_date(game, seen["after"])
            assert any(before < d <= after for d in (change.since, change.until) if d), change.name


def test_a_change_is_in_force_from_since_until_until():
    t = timeline("mtg")
    assert "combat_damage_on_stack" in t.in_force("2008-10-01")
    assert "combat_damage_on_stack" not in t.in_force("2009-07-11")
    assert "damage_assignment_order" in t.in_force("2023-10-13")
    assert "damage_assignment_order" not in t.in_force("2024-11-08") | t.in_force("2008-10-01")
    assert "legend_rule_per_player" not in t.in_force("2010-07-16")
    assert "legend_rule_per_player" in t.in_force("2013-07-13")
    assert Timeline.from_data({"game": "x", "versions": {"v1": "2020-01-02"}}).versions == {"v1": "2020-01-02"}


COMBAT = {
    "players": ["Ana", "Ben"],
    "turn": {"player": "Ana", "phase": "declare_attackers"},
    "state": {
        "permanents": [{"name": "Hill Giant", "controller": "Ana", "type": "creature", "power": 3, "toughness": 3}],
        "library": {"Ana": 5, "Ben": 5},
    },
}


@pytest.mark.parametrize(
    "table, date, on_stack",
    [
        ("2026-02-27", "2008-10-01", True),  # the 2026 numbers, the 2008 rules
        ("2008-10-01", "2026-02-27", False),  # the 2008 numbers, the 2026 rules
        ("2019-10-04", "2009-07-10", True),
        ("2019-10-04", "2009-07-11", False),
    ],
)
def test_the_date_decides_the_rules_not_the_table(table, date, on_stack):
    from engine.mtg import new_game

    raw = read_table("mtg", table)
    cite = Citations("mtg", table, raw["citations"], timeline=timeline("mtg"), date=date)
    game = new_game(COMBAT, cite)
    for sentence in ("Ana attacks with Hill Giant", "Ana passes", "Ben passes", "Ana passes", "Ben passes"):
        game.apply(sentence)
    assert (game.snapshot()["stack"] == ["combat damage"]) is on_stack
    assert game.snapshot()["life"]["Ben"] == (20 if on_stack else 17)


def test_a_scenario_pinned_to_an_edition_without_a_table_takes_the_nearest_table():
    """Not the newest older one (for a 2023 scenario that was the 2008 table): the table nearest in time,
    its numbers, and the rules of the scenario's own date."""
    cite = load_citations("mtg", "2017-04-28")
    assert cite.edition == "2019-10-04" and cite.date == "2017-04-28"
    assert "damage_assignment_order" in cite.in_force
    assert load_citations("mtg", "2023-10-13").edition == "2026-02-27"
    assert load_citations("riftbound", "v1.2").date == "2025-12-01"


def test_a_version_the_timeline_does_not_date_takes_the_rules_around_it():
    """Riftbound renumbers and renames its editions: an edition named only by a version the package has
    not seen is explained with the rules of the newest known version before it."""
    assert edition_date("riftbound", "v1.3") == "2026-03-30"
    assert edition_date("riftbound", "v1.4") == "2026-03-30"  # at least v1.3's rules
    assert edition_date("riftbound", "Core Rules v1.2.5") == "2025-12-01"
    assert edition_date("riftbound", "v1.0") == "2025-11-30"  # before v1.2: none of the later rulings
    assert edition_date("mtg", "Effective as of July 13, 2013") == "2013-07-13"
    assert edition_date("mtg", None) is None and edition_date("mtg", "no date") is None


def test_a_book_that_states_no_edition_is_dated_by_its_file_name_or_gets_the_newest_rules():
    from rulebook.library import date_in_name
    from scenarios.citations import newest_date

    assert date_in_name("MagicCompRules 20240206.txt") == "2024-02-06"
    assert date_in_name("MagicCompRules_20100716.txt") == "2010-07-16" and date_in_name("cr-v1.3.txt") is None
    assert newest_date("mtg") >= "2026-02-27" and newest_date("riftbound") >= "2026-03-30"
