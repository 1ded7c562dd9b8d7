"""Scenarios that name real cards of the card library (issue 23): ``data/scenarios/library/<game>/``, each a
situation from an official FAQ or a card's rulings, played with the cards' own text (contract version 3)
and checked (``--check``) with the rules the ruling rests on. They need the corpora's card files, loaded
once per session (tests/conftest.py ``card_library``); without them a judge gets the one-line error that
names the card to load."""

from __future__ import annotations

import json

import pytest

from tests.conftest import REPO, judge_in

FOLDER = REPO / "data" / "scenarios" / "library"
SCENARIOS = sorted(FOLDER.glob("*/*.yaml"))


@pytest.mark.parametrize("path", SCENARIOS, ids=[f"{p.parent.name}/{p.stem}" for p in SCENARIOS])
def test_a_library_scenario_passes_its_checks_with_the_cards_own_text(card_library, path):
    code, out, err = judge_in(card_library, "explain", path, "--check", "--json")
    assert code == 0, err or out
    doc = json.loads(out)
    assert doc["library_cards"], "a library scenario names at least one card of the library"
    assert doc["expectations"] and all(item["ok"] for item in doc["expectations"]), out


def test_each_game_has_its_library_scenarios():
    for game in ("mtg", "riftbound"):
        assert len(list((FOLDER / game).glob("*.yaml"))) >= 20, f"issue 23: 20 scenarios naming real {game} cards"
