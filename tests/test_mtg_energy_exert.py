"""Real cards' energy counters and exert, read whole by the Magic engine (issue 23): what a judge sees (the
steps, their words and the rules they cite), and what is refused under rules older than the mechanic. The
texts are the cards' Oracle text as MTGJSON v3 gives it, reminder text aside, the card's name as printed."""

from __future__ import annotations

import pytest

from engine.core import IllegalAction, ScenarioError
from rulebook.cards.model import Card, Face
from rulebook.cards.scenario import definition
from tests.test_engine_mtg import NEW as NEW_EDITION
from tests.test_engine_mtg import OLD, game, run
from tests.test_mtg_card_text import bear, cited, said

# Kaladesh and Aether Revolt (Oracle text of MTGJSON v3)
ROGUE_REFINER = {
    "type": "Creature — Human Rogue",
    "cost": "{1}{G}{U}",
    "power": 3,
    "toughness": 2,
    "effect": "When Rogue Refiner enters the battlefield, draw a card and you get {E}{E}.",
}
LONGTUSK_CUB = {
    "type": "Creature — Cat",
    "cost": "{1}{G}",
    "power": 2,
    "toughness": 2,
    "effect": "Whenever Longtusk Cub deals combat damage to a player, you get {E}{E}.",
    "ability": {"cost": "{E}{E}", "effect": "Put a +1/+1 counter on Longtusk Cub."},
}
THRIVING_RHINO = {
    "type": "Creature — Rhino",
    "cost": "{4}{G}",
    "power": 4,
    "toughness": 3,
    "effect": "When Thriving Rhino enters the battlefield, you get {E}{E}.\n"
    "Whenever Thriving Rhino attacks, you may pay {E}{E}. If you do, put a +1/+1 counter on it.",
}


def test_a_creature_entering_gives_its_controller_energy_counters():
    g = game(
        {"costs": "ignore", "cards": {"Rogue Refiner": ROGUE_REFINER}, "state": {"hand": {"Ana": ["Rogue Refiner"]}}}
    )
    steps = run(g, "Ana casts Rogue Refiner", "Ana passes", "Ben passes", "Ana passes", "Ben passes")
    assert g.s.energy == {"Ana": 2}
    assert any("Ana gets {E}{E} (2 energy counters; 2 in all)" in w for w in said(steps))
    assert {"107.14", "122.1"} & cited(steps) == {"107.14"}
    assert g.snapshot()["energy"] == {"Ana": 2}


def test_an_energy_cost_removes_the_counters_and_is_refused_without_them():
    g = game(
        {
            "cards": {"Longtusk Cub": LONGTUSK_CUB},
            "state": {"permanents": [{"name": "Longtusk Cub"}], "energy": {"Ana": 3}},
        }
    )
    steps = run(g, "Ana activates Longtusk Cub", "Ana passes", "Ben passes")
    assert any(
        "Ana pays {E}{E} for Longtusk Cub ability, removing 2 energy counters (1 left)" in w for w in said(steps)
    )
    assert "107.14" in cited(steps)
    assert g.s.find_permanent("Longtusk Cub").counters == {"+1/+1": 1}
    with pytest.raises(IllegalAction) as info:
        g.apply("Ana activates Longtusk Cub")
    assert "Ana has 1 energy counter" in info.value.message and "107.14" in info.value.rules


def test_you_may_pay_energy_as_a_trigger_resolves_then_if_you_do():
    g = game(
        {
            "cards": {"Thriving Rhino": THRIVING_RHINO},
            "turn": {"player": "Ana", "phase": "beginning_of_combat"},
            "state": {"permanents": [{"name": "Thriving Rhino"}, bear("Bear", "Ben")], "energy": {"Ana": 2}},
        }
    )
    steps = run(g, "Ana passes", "Ben passes", "Ana attacks with Thriving Rhino", "Ana passes", "Ben passes")
    assert any("Ana may pay {E}{E}" in w for w in said(steps))
    steps = run(g, "Ana pays")
    assert g.s.energy.get("Ana", 0) == 0 and g.s.find_permanent("Thriving Rhino").counters == {"+1/+1": 1}
    assert "107.14" in cited(steps)


def test_you_may_pay_energy_you_do_not_have_does_nothing():
    g = game(
        {
            "cards": {"Thriving Rhino": THRIVING_RHINO},
            "turn": {"player": "Ana", "phase": "beginning_of_combat"},
            "state": {"permanents": [{"name": "Thriving Rhino"}], "energy": {"Ana": 1}},
        }
    )
    steps = run(g, "Ana passes", "Ben passes", "Ana attacks with Thriving Rhino", "Ana passes", "Ben passes")
    assert any("Ana cannot pay {E}{E} (1 energy counters)" in w for w in said(steps))
    assert any("did not pay, so this part does nothing" in w for w in said(steps))
    assert not g.s.find_permanent("Thriving Rhino").counters


def test_energy_is_refused_under_rules_before_kaladesh():
    with pytest.raises(ScenarioError) as info:
        game({"cards": {"Rogue Refiner": ROGUE_REFINER}, "state": {"hand": {"Ana": ["Rogue Refiner"]}}}, OLD)
    assert "energy counters and the energy symbol {E} are not in the 2008-10-01" in info.value.message
    with pytest.raises(ScenarioError):
        game({"cards": {"Longtusk Cub": LONGTUSK_CUB}, "state": {"hand": {"Ana": ["Longtusk Cub"]}}}, OLD)


# Amonkhet (Oracle text of MTGJSON v3)
GUST_WALKER = {
    "type": "Creature — Human Wizard",
    "cost": "{1}{W}",
    "power": 2,
    "toughness": 2,
    "effect": "You may exert Gust Walker as it attacks. When you do, it gets +1/+1 and gains flying until end of "
    "turn. (An exerted creature won't untap during your next untap step.)",
}
TRUEHEART_TWINS = {
    "type": "Creature — Jackal Warrior",
    "cost": "{4}{R}",
    "power": 4,
    "toughness": 4,
    "effect": "You may exert Trueheart Twins as it attacks. (It won't untap during your next untap step.)\n"
    "Whenever you exert a creature, creatures you control get +1/+0 until end of turn.",
}


def _combat(cards: dict, *permanents: dict, edition: str = NEW_EDITION):
    return game(
        {
            "cards": cards,
            "turn": {"player": "Ana", "phase": "beginning_of_combat"},
            "state": {"permanents": [*permanents, bear("Bear", "Ben")], "library": {"Ana": 10, "Ben": 10}},
        },
        edition,
    )


def test_an_exerted_attacker_triggers_its_linked_ability_and_stays_tapped_next_untap():
    g = _combat({"Gust Walker": GUST_WALKER}, {"name": "Gust Walker"})
    steps = run(g, "Ana passes", "Ben passes", "Ana attacks with Gust Walker exerting Gust Walker")
    assert any(
        "Ana exerts Gust Walker as it attacks: it won't untap during Ana's next untap step" in w for w in said(steps)
    )
    assert {"701.43a", "508.1g"} <= cited(steps)
    run(g, "Ana passes", "Ben passes")
    walker = g.s.find_permanent("Gust Walker")
    assert (g.s.power(walker), g.s.toughness(walker)) == (3, 3) and g.s.has(walker, "flying")
    steps = run(g, "Ana moves to upkeep", "Ben moves to upkeep")  # Ben's turn, then Ana's next untap step
    assert any("Gust Walker doesn't untap during Ana's untap step (it was exerted" in w for w in said(steps))
    assert walker.tapped and not g.s.skip_untap


def test_an_attacker_not_exerted_does_not_trigger_and_untaps():
    g = _combat({"Gust Walker": GUST_WALKER}, {"name": "Gust Walker"})
    steps = run(g, "Ana passes", "Ben passes", "Ana attacks with Gust Walker", "Ana passes", "Ben passes")
    assert not any("exerts" in w for w in said(steps))
    assert g.s.power(g.s.find_permanent("Gust Walker")) == 2
    assert not g.s.skip_untap


def test_whenever_you_exert_a_creature_triggers_and_a_creature_without_exert_is_refused():
    g = _combat({"Trueheart Twins": TRUEHEART_TWINS}, {"name": "Trueheart Twins"}, bear("Cub", "Ana"))
    with pytest.raises(IllegalAction) as info:
        g.apply("Ana passes")
        g.apply("Ben passes")
        g.apply("Ana attacks with Trueheart Twins, Cub exerting Cub")
    assert "its text does not say it may be" in info.value.message and "701.43a" in info.value.rules
    run(g, "Ana attacks with Trueheart Twins, Cub exerting Trueheart Twins", "Ana passes", "Ben passes")
    assert g.s.power(g.s.find_permanent("Cub")) == 3 and g.s.power(g.s.find_permanent("Trueheart Twins")) == 5


def test_exert_is_refused_under_rules_before_amonkhet():
    with pytest.raises(ScenarioError) as info:
        _combat({"Gust Walker": GUST_WALKER}, {"name": "Gust Walker"}, edition=OLD)
    assert 'the keyword action "exert" is not in the 2008-10-01' in info.value.message


GLINT_SLEEVE_SIPHONER = {
    "type": "Creature — Human Rogue",
    "cost": "{1}{B}",
    "power": 1,
    "toughness": 1,
    "keywords": ["Menace"],
    "effect": "Whenever Glint-Sleeve Siphoner enters the battlefield or attacks, you get {E}.\n"
    "At the beginning of your upkeep, you may pay {E}{E}. If you do, you draw a card and you lose 1 life.",
}


def test_an_ability_that_triggers_as_it_enters_or_attacks_triggers_on_each():
    g = game(
        {  # Ana has no land: her mana costs are not checked; her energy is
            "cards": {"Glint-Sleeve Siphoner": GLINT_SLEEVE_SIPHONER},
            "state": {
                "hand": {"Ana": ["Glint-Sleeve Siphoner"]},
                "permanents": [bear("Cub", "Ana")],
                "library": {"Ana": 10, "Ben": 10},
            },
        }
    )
    run(g, "Ana casts Glint-Sleeve Siphoner", "Ana passes", "Ben passes", "Ana passes", "Ben passes")
    assert g.s.energy == {"Ana": 1}
    g.s.find_permanent("Glint-Sleeve Siphoner").sick = False
    run(g, "Ana moves to declare_attackers", "Ana attacks with Glint-Sleeve Siphoner", "Ana passes", "Ben passes")
    assert g.s.energy == {"Ana": 2}
    steps = run(g, "Ana moves to upkeep", "Ben moves to upkeep", "Ana passes", "Ben passes", "Ana pays")
    assert g.s.energy.get("Ana", 0) == 0 and g.s.life["Ana"] == 19 and len(g.s.hand["Ana"]) == 1
    assert "107.14" in cited(steps)


def _library_card(name: str, type_line: str, cost: str, text: str, power: str, toughness: str) -> Card:
    face = Face(name, cost, type_line, text, power, toughness)
    types = (type_line.split(" — ")[0].split()[-1],)
    return Card("mtg", name, (face,), type_line, types, (), (), cost, (), text, ("KLD",), "normal", (), {})


def test_the_library_gives_pay_energy_as_the_energy_symbols_of_the_cost():
    moray = _library_card(
        "Shipwreck Moray",
        "Creature — Fish",
        "{3}{U}",
        "When Shipwreck Moray enters the battlefield, you get {E}{E}{E}{E} (four energy counters).\n"
        "Pay {E}: Shipwreck Moray gets +2/-2 until end of turn.",
        "0",
        "5",
    )
    sentry = _library_card(
        "Janjeet Sentry",
        "Creature — Vedalken Soldier",
        "{2}{U}",
        "{T}, Pay {E}{E}: Tap target creature.",
        "2",
        "3",
    )
    assert definition(moray).fields["ability"] == {
        "cost": "{E}",
        "effect": "Shipwreck Moray gets +2/-2 until end of turn.",
    }
    assert definition(sentry).fields["ability"]["cost"] == "{T}{E}{E}"
    fields = dict(definition(moray).fields)
    g = game({"cards": {"Shipwreck Moray": fields}, "state": {"permanents": [{"name": "Shipwreck Moray"}]}})
    with pytest.raises(IllegalAction) as info:
        g.apply("Ana activates Shipwreck Moray")
    assert "Ana has 0 energy counters" in info.value.message
