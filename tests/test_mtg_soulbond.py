"""Soulbond (702.95), issue 23: two creatures paired as either enters, and what the paired creature's text
gives both while they stay paired. What a judge sees: the steps, the rules they cite, and the refusals."""

from __future__ import annotations

import pytest

from engine.core import IllegalAction, ScenarioError
from tests.test_engine_mtg import OLD, game, run
from tests.test_mtg_card_text import bear, cited, said

# Real cards (Oracle text of MTGJSON v3, Avacyn Restored).
WINGCRAFTER = {
    "type": "Creature — Human Wizard",
    "cost": "{U}",
    "power": 1,
    "toughness": 1,
    "keywords": ["Soulbond"],
    "effect": "As long as Wingcrafter is paired with another creature, both creatures have flying.",
}
TRUSTED_FORCEMAGE = {
    "type": "Creature — Human Shaman",
    "cost": "{2}{G}",
    "power": 2,
    "toughness": 2,
    "keywords": ["Soulbond"],
    "effect": "As long as Trusted Forcemage is paired with another creature, each of those creatures gets +1/+1.",
}
GRIZZLY = {"type": "Creature — Bear", "cost": "{1}{G}", "power": 2, "toughness": 2}
SHOCK = {"type": "Instant", "effect": "Shock deals 2 damage to any target."}


def test_a_creature_with_soulbond_entering_pairs_with_one_of_hers_and_both_have_what_it_gives():
    g = game(
        {
            "cards": {"Wingcrafter": WINGCRAFTER},
            "costs": "ignore",
            "state": {"hand": {"Ana": ["Wingcrafter"]}, "permanents": [bear("Bear", "Ana"), bear("Cub", "Ben")]},
        }
    )
    steps = run(g, "Ana casts Wingcrafter", "Ana passes", "Ben passes", "Ana passes", "Ben passes")
    assert (
        "Wingcrafter soulbond triggers (Ana controls it): you may pair Wingcrafter with another unpaired creature "
        "you control" in said(steps)
    )
    assert g.legal_actions() == ["Ana pairs Wingcrafter with Bear", "Ana declines"]  # not Ben's Cub
    with pytest.raises(IllegalAction):
        g.apply("Ana pairs Wingcrafter with Cub")
    steps = run(g, "Ana pairs Wingcrafter with Bear")
    assert any(w.startswith("Ana pairs Wingcrafter with Bear: they are paired") for w in said(steps))
    assert "702.95a" in cited(steps)
    assert "flying" in g.s.keywords(g.s.find_permanent("Bear"))
    assert "flying" in g.s.keywords(g.s.find_permanent("Wingcrafter"))
    assert "flying" not in g.s.keywords(g.s.find_permanent("Cub"))


def test_another_creature_entering_pairs_with_it_and_leaving_unpairs_them():
    g = game(
        {
            "cards": {"Trusted Forcemage": TRUSTED_FORCEMAGE, "Grizzly Bears": GRIZZLY, "Shock": SHOCK},
            "costs": "ignore",
            "state": {
                "hand": {"Ana": ["Grizzly Bears"], "Ben": ["Shock", "Shock"]},
                "permanents": [{"name": "Trusted Forcemage", "controller": "Ana"}],
            },
        }
    )
    steps = run(g, "Ana casts Grizzly Bears", "Ana passes", "Ben passes")
    assert (
        "Trusted Forcemage soulbond triggers (Ana controls it): you may pair that creature with Trusted Forcemage"
        in said(steps)
    )
    run(g, "Ana passes", "Ben passes", "Ana pairs Trusted Forcemage with Grizzly Bears")
    mage, bears = g.s.find_permanent("Trusted Forcemage"), g.s.find_permanent("Grizzly Bears")
    assert (g.s.power(mage), g.s.power(bears)) == (3, 3)
    shock = ("Ana passes", "Ben casts Shock targeting Trusted Forcemage", "Ben passes", "Ana passes")
    run(g, *shock)
    assert g.s.find_permanent("Trusted Forcemage") is not None  # a 3/3 while paired: 2 damage is not lethal
    run(g, *shock)
    assert g.s.find_permanent("Trusted Forcemage") is None  # it left: the bears are unpaired (702.95e)
    assert (g.s.power(bears), g.s.toughness(bears)) == (2, 2)


def test_declining_leaves_both_unpaired():
    g = game(
        {
            "cards": {"Wingcrafter": WINGCRAFTER},
            "costs": "ignore",
            "state": {"hand": {"Ana": ["Wingcrafter"]}, "permanents": [bear("Bear", "Ana")]},
        }
    )
    steps = run(g, "Ana casts Wingcrafter", "Ana passes", "Ben passes", "Ana passes", "Ben passes", "Ana declines")
    assert "Ana does not pair them: both stay unpaired" in said(steps)
    assert "flying" not in g.s.keywords(g.s.find_permanent("Bear"))


def test_alone_it_does_not_trigger():
    g = game({"cards": {"Wingcrafter": WINGCRAFTER}, "costs": "ignore", "state": {"hand": {"Ana": ["Wingcrafter"]}}})
    steps = run(g, "Ana casts Wingcrafter", "Ana passes", "Ben passes")
    assert not any("soulbond triggers" in w for w in said(steps))  # the intervening "if" (603.4)


def test_soulbond_is_refused_under_rules_before_avacyn_restored():
    with pytest.raises(ScenarioError) as info:
        game({"cards": {"Wingcrafter": WINGCRAFTER}, "state": {"hand": {"Ana": ["Wingcrafter"]}}}, OLD)
    assert "not in the 2008-10-01 Comprehensive Rules" in info.value.message
