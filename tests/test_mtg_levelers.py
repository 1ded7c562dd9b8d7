"""Leveler cards (711) and level up (702.87a), issue 23: level counters put by a sorcery-speed ability, and
the power, toughness and abilities of the level symbol that holds. What a judge sees: the steps, the rules
they cite, and the refusals."""

from __future__ import annotations

import pytest

from engine.core import IllegalAction, ScenarioError
from rulebook.cards.model import Card, Face
from rulebook.cards.scenario import definition
from tests.test_engine_mtg import NEW, OLD, game, run
from tests.test_mtg_card_text import cited, said

# Knight of Cliffhaven (Rise of the Eldrazi), as MTGJSON v3 prints it.
KNIGHT_TEXT = (
    "Level up {3} ({3}: Put a level counter on this. Level up only as a sorcery.)\n"
    "LEVEL 1-3\n2/3\nFlying\nLEVEL 4+\n4/4\nFlying, vigilance"
)
KNIGHT = Card(
    "mtg",
    "Knight of Cliffhaven",
    (Face("Knight of Cliffhaven", "{1}{W}", "Creature — Kor Knight", KNIGHT_TEXT, "2", "2"),),
    "Creature — Kor Knight",
    ("Creature",),
    ("Kor", "Knight"),
    (),
    "{1}{W}",
    ("Level up", "Flying", "Vigilance"),
    KNIGHT_TEXT,
    ("ROE",),
    "leveler",
    (),
    {"colors": ["W"]},
)


def knight() -> dict:
    return dict(definition(KNIGHT).fields)


def on_board(level: int = 0, **more) -> dict:
    return {"name": "Knight of Cliffhaven", "controller": "Ana", "counters": {"level": level} if level else {}, **more}


def test_the_library_gives_a_leveler_its_level_symbols():
    fields = knight()
    assert fields["keywords"] == ["Level up {3}"] and (fields["power"], fields["toughness"]) == (2, 2)
    assert fields["levels"] == [
        {"level": "1-3", "power": 2, "toughness": 3, "keywords": ["Flying"]},
        {"level": "4+", "power": 4, "toughness": 4, "keywords": ["Flying", "Vigilance"]},
    ]


def test_a_leveler_has_what_the_level_symbol_of_its_level_counters_gives():
    g = game({"cards": {"Knight of Cliffhaven": knight()}, "state": {"permanents": [on_board(), on_board(2)]}})
    bare, levelled = g.s.battlefield
    assert (g.s.power(bare), g.s.toughness(bare), "flying" in bare.card.keywords) == (2, 2, False)  # 711.5
    assert (g.s.power(levelled), g.s.toughness(levelled), "flying" in levelled.card.keywords) == (2, 3, True)


def test_level_up_puts_a_level_counter_and_the_next_level_symbol_applies():
    g = game(
        {
            "cards": {"Knight of Cliffhaven": knight()},
            "state": {"permanents": [on_board(3), *[{"name": "Plains", "controller": "Ana"}] * 3]},
        }
    )
    steps = run(g, "Ana activates Knight of Cliffhaven", "Ana passes", "Ben passes")
    assert (
        "Knight of Cliffhaven has 4 level counters (LEVEL 4+): it has base power and toughness 4/4 and flying, "
        "vigilance" in said(steps)
    )
    assert {"702.87a", "711.2b"} <= cited(steps)
    perm = g.s.find_permanent("Knight of Cliffhaven")
    assert (g.s.power(perm), g.s.toughness(perm)) == (4, 4) and {"flying", "vigilance"} <= perm.card.keywords


def test_level_up_is_activated_only_as_a_sorcery():
    g = game(
        {
            "turn": {"player": "Ben", "phase": "main1"},
            "cards": {"Knight of Cliffhaven": knight()},
            "costs": "ignore",
            "state": {"permanents": [on_board(1)]},
        }
    )
    run(g, "Ben passes")  # Ana has priority in Ben's main phase
    with pytest.raises(IllegalAction) as info:
        g.apply("Ana activates Knight of Cliffhaven")
    assert "activated only as a sorcery" in str(info.value)


def test_a_leveler_is_refused_under_rules_before_rise_of_the_eldrazi():
    with pytest.raises(ScenarioError) as info:
        game({"cards": {"Knight of Cliffhaven": knight()}, "state": {"permanents": [on_board()]}}, OLD)
    assert "not in the 2008-10-01 Comprehensive Rules" in info.value.message


def test_a_level_symbol_with_an_activated_ability_is_refused():
    fields = knight()
    fields["levels"] = [
        {"level": "1+", "power": 2, "toughness": 2, "ability": {"cost": "{T}", "effect": "Draw a card."}}
    ]
    with pytest.raises(ScenarioError, match="activated ability of a level symbol is not modelled"):
        game({"cards": {"Knight of Cliffhaven": fields}, "state": {"permanents": [on_board()]}}, NEW)
