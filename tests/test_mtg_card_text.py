"""Real cards' text, read whole by the Magic engine (issue 23): one family of keyword or template each,
what a judge sees (the steps, their words and the rules they cite), and a late keyword refused under an
edition before it came. The texts are the cards' Oracle text as MTGJSON v3 gives it, reminder text and
all (the library strips it), the card's name written as printed."""

from __future__ import annotations

import pytest

from engine.core import IllegalAction, ScenarioError
from engine.mtg.keywords import DATED_KEYWORDS, KEYWORDS, entry, read_keyword
from tests.test_engine_mtg import NEW, OLD, game, run  # one way to set a Magic game up, shared


def said(steps) -> list[str]:
    return [e.what for s in steps for e in s.events]


def cited(steps) -> set[str]:
    return {r for s in steps for e in s.events for r in e.rules}


def bear(name: str, controller: str, power: int = 2, toughness: int = 2, **more) -> dict:
    return {"name": name, "controller": controller, "type": "creature", "power": power, "toughness": toughness, **more}


# Real cards (Oracle text of MTGJSON v3).
BLACKCLEAVE_GOBLIN = {
    "type": "Creature — Goblin Zombie",
    "cost": "{3}{B}",
    "power": 2,
    "toughness": 1,
    "effect": "Haste\nInfect (This creature deals damage to creatures in the form of -1/-1 counters and to players "
    "in the form of poison counters.)",
}
ABBOT = {  # Abbot of Keral Keep's prowess, its other ability left out
    "type": "Creature — Human Monk",
    "cost": "{1}{R}",
    "power": 2,
    "toughness": 1,
    "effect": "Prowess (Whenever you cast a noncreature spell, this creature gets +1/+1 until end of turn.)",
}
SHOCK = {"type": "Instant", "cost": "{R}", "effect": "Shock deals 2 damage to any target."}


def test_the_keyword_table_has_one_entry_per_keyword_with_its_keys():
    assert all(k.keys and all("." in key for key in k.keys) for k in KEYWORDS.values())
    assert read_keyword("Islandwalk") == ("islandwalk",) and entry("islandwalk").evasion is not None
    assert {"infect", "prowess", "devoid", "skulk", "intimidate"} <= DATED_KEYWORDS
    assert entry("infect").damage == "infect" and entry("devoid").colourless


def test_infect_deals_poison_to_players_and_minus_counters_to_creatures():
    """Blackcleave Goblin (haste, infect) unblocked: poison counters, not life (702.90b); blocked by a Wall:
    -1/-1 counters, not damage (702.90c). (This test once held a copy of the Charge test below.)"""
    goblin = {"name": "Blackcleave Goblin", "controller": "Ana"}
    state = {"permanents": [goblin], "library": {"Ana": 10, "Ben": 10}}
    data = {
        "turn": {"player": "Ana", "phase": "declare_attackers"},
        "cards": {"Blackcleave Goblin": BLACKCLEAVE_GOBLIN},
    }
    g = game({**data, "state": state})
    steps = until(g, run(g, "Ana attacks with Blackcleave Goblin"), "poison counter")
    assert any("Ben gets 2 poison counters (2 in all) instead of losing life" in w for w in said(steps))
    assert g.s.life["Ben"] == 20
    g = game({**data, "state": {**state, "permanents": [goblin, bear("Wall", "Ben", 0, 4)]}})
    steps = run(
        g, "Ana attacks with Blackcleave Goblin", "Ana passes", "Ben passes", "Ben blocks Blackcleave Goblin with Wall"
    )
    steps = until(g, steps, "counters are put on Wall")
    assert any("2 -1/-1 counters are put on Wall instead (now -2/2)" in w for w in said(steps))


def test_infect_is_refused_before_it_came():
    data = {"cards": {"Blackcleave Goblin": BLACKCLEAVE_GOBLIN}, "state": {"hand": {"Ana": ["Blackcleave Goblin"]}}}
    with pytest.raises(ScenarioError) as info:
        game(data, OLD)
    assert 'keyword "infect" is not in the 2008-10-01 Comprehensive Rules' in info.value.message
    game(data, "2013-07-13")  # after Scars of Mirrodin


def until(g, steps, words: str, most: int = 8):
    """Pass (whoever may) until an event says ``words``."""
    for _ in range(most):
        if any(words in w for w in said(steps)):
            break
        steps += run(g, next(a for a in g.legal_actions() if a.endswith("passes")))
    return steps


@pytest.mark.parametrize("edition, rule", [(NEW, "702.80a"), (OLD, "502.80a")])
def test_wither_puts_counters_instead_of_damage(edition, rule):
    ram_gang = "Haste\nWither (This deals damage to creatures in the form of -1/-1 counters.)"
    g = game(
        {
            "turn": {"player": "Ana", "phase": "declare_attackers"},
            "state": {
                "permanents": [bear("Boggart Ram-Gang", "Ana", 3, 3, effect=ram_gang), bear("Wall", "Ben", 0, 4)],
                "library": {"Ana": 10, "Ben": 10},
            },
        },
        edition,
    )
    steps = run(
        g, "Ana attacks with Boggart Ram-Gang", "Ana passes", "Ben passes", "Ben blocks Boggart Ram-Gang with Wall"
    )
    steps = until(g, steps, "counters are put on Wall")
    assert any("3 -1/-1 counters are put on Wall instead (now -3/1)" in w for w in said(steps))
    assert rule in cited(steps)


def test_prowess_triggers_on_a_noncreature_spell():
    g = game(
        {
            "costs": "ignore",
            "cards": {"Abbot of Keral Keep": ABBOT, "Shock": SHOCK},
            "state": {
                "permanents": [{"name": "Abbot of Keral Keep", "controller": "Ana"}],
                "hand": {"Ana": ["Shock"]},
                "library": {"Ana": 10, "Ben": 10},
            },
        }
    )
    steps = until(g, run(g, "Ana casts Shock targeting Ben"), "(now 3/2)")
    words = said(steps)
    assert any(w.startswith("Abbot of Keral Keep prowess triggers (Ana controls it)") for w in words)
    assert any("Abbot of Keral Keep gets +1/+1 until end of turn (now 3/2)" in w for w in words)
    assert "702.108a" in cited(steps)


def test_exalted_triggers_when_a_creature_attacks_alone():
    squire = {
        "type": "Creature — Human Soldier",
        "cost": "{W}",
        "power": 1,
        "toughness": 1,
        "effect": "Exalted (Whenever a creature you control attacks alone, that creature gets +1/+1 until end of turn.)",
    }
    g = game(
        {
            "turn": {"player": "Ana", "phase": "declare_attackers"},
            "cards": {"Akrasan Squire": squire},
            "state": {
                "permanents": [{"name": "Akrasan Squire", "controller": "Ana"}, bear("Grizzly Bears", "Ana")],
                "library": {"Ana": 10, "Ben": 10},
            },
        },
        OLD,
    )
    steps = until(g, run(g, "Ana attacks with Grizzly Bears"), "(now 3/3)")
    assert any("Grizzly Bears gets +1/+1 until end of turn (now 3/3)" in w for w in said(steps))
    assert "502.83a" in cited(steps)


@pytest.mark.parametrize(
    "keyword, colour, rule", [("Fear", "B", "702.36b"), ("Intimidate", "R", "702.13b"), ("Skulk", "B", "702.118b")]
)
def test_evasion_keywords_stop_a_blocker(keyword, colour, rule):
    g = game(
        {
            "turn": {"player": "Ana", "phase": "declare_attackers"},
            "state": {
                "permanents": [
                    bear("Sneak", "Ana", 1, 1, keywords=[keyword], color=colour),
                    bear("Wall", "Ben", 3, 3, color="G"),
                ],
                "library": {"Ana": 10, "Ben": 10},
            },
        }
    )
    run(g, "Ana attacks with Sneak", "Ana passes", "Ben passes")
    with pytest.raises(IllegalAction) as info:
        g.apply("Ben blocks Sneak with Wall")
    assert rule in info.value.rules and f"Sneak has {keyword.lower()}" in info.value.message


def test_landwalk_looks_at_the_defending_players_lands():
    wraith = "Swampwalk (This creature can't be blocked as long as defending player controls a Swamp.)"
    g = game(
        {
            "turn": {"player": "Ana", "phase": "declare_attackers"},
            "state": {
                "permanents": [
                    bear("Bog Wraith", "Ana", 3, 3, effect=wraith),
                    bear("Wall", "Ben", 0, 4),
                    {"name": "Swamp", "controller": "Ben"},
                ],
                "library": {"Ana": 10, "Ben": 10},
            },
        }
    )
    run(g, "Ana attacks with Bog Wraith", "Ana passes", "Ben passes")
    with pytest.raises(IllegalAction) as info:
        g.apply("Ben blocks Bog Wraith with Wall")
    assert "702.14c" in info.value.rules and "Ben controls Swamp" in info.value.message


def test_cant_block_and_cant_be_blocked_and_attacks_each_combat():
    g = game(
        {
            "turn": {"player": "Ana", "phase": "declare_attackers"},
            "state": {
                "permanents": [
                    bear("Gudul Lurker", "Ana", 1, 1, effect="Gudul Lurker can't be blocked."),
                    bear(
                        "Akoum Firebird",
                        "Ana",
                        3,
                        3,
                        effect="Flying, haste\nAkoum Firebird attacks each combat if able.",
                    ),
                    bear("Aesthir Glider", "Ben", 2, 1, effect="Flying\nAesthir Glider can't block."),
                    bear("Wall", "Ben", 0, 4),
                ],
                "library": {"Ana": 10, "Ben": 10},
            },
        }
    )
    with pytest.raises(IllegalAction) as info:
        g.apply("Ana attacks with Gudul Lurker")
    assert "508.1d" in info.value.rules and "Akoum Firebird must attack" in info.value.message
    run(g, "Ana attacks with Gudul Lurker, Akoum Firebird", "Ana passes", "Ben passes")
    for block, words in (
        ("Gudul Lurker with Wall", "can't be blocked"),
        ("Akoum Firebird with Aesthir Glider", "can't"),
    ):
        with pytest.raises(IllegalAction) as info:
            g.apply(f"Ben blocks {block}")
        assert "509.1b" in info.value.rules and words in info.value.message


def test_a_land_of_two_colours_pays_either_and_is_activated_for_one():
    wastes = {"type": "Land", "ability": {"cost": "{T}", "effect": "Add {W} or {U}."}}
    g = game(
        {
            "cards": {
                "Adarkar Wastes": wastes,
                "Counsel": {"type": "Sorcery", "cost": "{W}{U}", "effect": "Draw two cards."},
            },
            "state": {
                "permanents": [
                    {"name": "Adarkar Wastes", "controller": "Ana"},
                    {"name": "Plains", "controller": "Ana"},
                ],
                "hand": {"Ana": ["Counsel"]},
                "library": {"Ana": 10, "Ben": 10},
            },
        }
    )
    steps = run(g, "Ana casts Counsel")
    assert any("by tapping Adarkar Wastes for {U}, Plains for {W}" in w for w in said(steps))
    g2 = game(
        {
            "cards": {"Adarkar Wastes": wastes},
            "state": {"permanents": [{"name": "Adarkar Wastes", "controller": "Ana"}]},
        }
    )
    assert {"Ana activates Adarkar Wastes for {W}", "Ana activates Adarkar Wastes for {U}"} <= set(g2.legal_actions())
    with pytest.raises(ScenarioError) as info:
        run(g2, "Ana activates Adarkar Wastes")
    assert "say which" in info.value.message
    (step,) = run(g2, "Ana activates Adarkar Wastes for {U}")
    assert "Ana activates Adarkar Wastes for {U}: a mana ability" in step.events[0].what


def test_this_spell_cant_be_countered():
    g = game(
        {
            "costs": "ignore",
            "cards": {
                "Cancel": {"type": "Instant", "cost": "{1}{U}{U}", "effect": "Counter target spell."},
                "Scatter": {"type": "Instant", "cost": "{U}", "effect": "This spell can't be countered.\nDraw a card."},
            },
            "state": {"hand": {"Ana": ["Scatter"], "Ben": ["Cancel"]}, "library": {"Ana": 10, "Ben": 10}},
        }
    )
    steps = run(g, "Ana casts Scatter", "Ana passes", "Ben casts Cancel targeting Scatter", "Ben passes", "Ana passes")
    assert any("Scatter can't be countered: Cancel does not counter it" in w for w in said(steps))
    assert "113.6g" in cited(steps) and steps[-1].state["stack"] == ["Scatter"]


def test_creatures_you_control_get_a_bonus_and_a_keyword_until_end_of_turn():
    charge = {
        "type": "Instant",
        "cost": "{W}",
        "effect": "Creatures you control get +1/+1 and gain vigilance until end of turn.",
    }
    g = game(
        {
            "costs": "ignore",
            "cards": {"Charge": charge},
            "state": {
                "permanents": [bear("Grizzly Bears", "Ana"), bear("Runeclaw Bear", "Ana"), bear("Ogre", "Ben", 3, 3)],
                "hand": {"Ana": ["Charge"]},
                "library": {"Ana": 10, "Ben": 10},
            },
        }
    )
    steps = run(g, "Ana casts Charge", "Ana passes", "Ben passes")
    words = said(steps)
    assert any("Grizzly Bears gets +1/+1 and gains vigilance until end of turn (now 3/3)" in w for w in words)
    assert any("Runeclaw Bear gets +1/+1" in w for w in words) and not any("Ogre gets" in w for w in words)


def test_devoid_makes_a_spell_colourless():
    g = game(
        {
            "costs": "ignore",
            "cards": {
                "Vile Aggregate": {
                    "type": "Creature — Eldrazi Drone",
                    "cost": "{2}{R}",
                    "power": 1,
                    "toughness": 5,
                    "effect": "Devoid (This card has no color.)\nTrample",
                }
            },
            "state": {"hand": {"Ana": ["Vile Aggregate"]}, "library": {"Ana": 10, "Ben": 10}},
        }
    )
    (step,) = run(g, "Ana casts Vile Aggregate")
    assert "colorless: it has devoid" in step.events[0].what and "702.114a" in cited([step])
    with pytest.raises(ScenarioError):
        game(
            {
                "cards": {"Vile Aggregate": {"type": "creature", "power": 1, "toughness": 5, "keywords": ["Devoid"]}},
                "state": {"hand": {"Ana": ["Vile Aggregate"]}},
            },
            "2013-07-13",
        )


def test_cycling_from_the_hand_discards_and_draws():
    drake = {
        "type": "Creature — Drake",
        "cost": "{4}{U}",
        "power": 3,
        "toughness": 3,
        "effect": "Flying\nCycling {2} ({2}, Discard this card: Draw a card.)",
    }
    g = game(
        {
            "turn": {"player": "Ben", "phase": "end"},
            "cards": {"Striped Drake": drake},
            "state": {
                "permanents": [{"name": "Island", "controller": "Ana"}, {"name": "Island", "controller": "Ana"}],
                "hand": {"Ana": ["Striped Drake"]},
                "library": {"Ana": 10, "Ben": 10},
            },
        }
    )
    assert "Ana activates Striped Drake" not in g.legal_actions()  # Ben has priority
    steps = run(g, "Ben passes")
    assert "Ana activates Striped Drake" in g.legal_actions()
    steps = run(g, "Ana activates Striped Drake", "Ana passes", "Ben passes")
    words = said(steps)
    assert any("pays {2} for Striped Drake's cycling ability by tapping Island for {U}, Island#2" in w for w in words)
    assert any(w.startswith("Ana cycles Striped Drake: pays {2} and discards it (the cost)") for w in words)
    assert any("Ana draws a card" in w for w in words) and "702.29a" in cited(steps)
    assert steps[-1].state["graveyard"]["Ana"] == ["Striped Drake"]


def test_an_additional_cost_sacrifices_a_creature_as_the_spell_is_cast():
    reap = {
        "type": "Instant",
        "cost": "{1}{B}",
        "effect": "As an additional cost to cast this spell, sacrifice a creature.\nDraw two cards.",
    }
    g = game(
        {
            "costs": "ignore",
            "cards": {"Altar's Reap": reap},
            "state": {
                "permanents": [bear("Grizzly Bears", "Ana"), bear("Ogre", "Ben", 3, 3)],
                "hand": {"Ana": ["Altar's Reap"]},
                "library": {"Ana": 10, "Ben": 10},
            },
        }
    )
    assert [a for a in g.legal_actions() if "casts" in a] == ["Ana casts Altar's Reap sacrificing Grizzly Bears"]
    with pytest.raises(IllegalAction) as info:
        g.apply("Ana casts Altar's Reap")
    assert "118.8" in info.value.rules
    with pytest.raises(IllegalAction):
        g.apply("Ana casts Altar's Reap sacrificing Ogre")
    (step,) = run(g, "Ana casts Altar's Reap sacrificing Grizzly Bears")
    assert step.events[0].what == "Ana sacrifices Grizzly Bears to pay Altar's Reap's additional cost"
    assert {"118.8", "701.21a"} <= cited([step]) and step.state["graveyard"]["Ana"] == ["Grizzly Bears"]


def test_targets_with_a_number_or_a_state():
    g = game(
        {
            "costs": "ignore",
            "cards": {
                "Humble the Brute": {
                    "type": "Instant",
                    "cost": "{4}{W}",
                    "effect": "Destroy target creature with power 4 or greater.",
                },
            },
            "state": {
                "permanents": [bear("Grizzly Bears", "Ben"), bear("Craw Wurm", "Ben", 6, 4)],
                "hand": {"Ana": ["Humble the Brute"]},
                "library": {"Ana": 10, "Ben": 10},
            },
        }
    )
    assert [a for a in g.legal_actions() if "casts" in a] == ["Ana casts Humble the Brute targeting Craw Wurm"]
    with pytest.raises(IllegalAction) as info:
        g.apply("Ana casts Humble the Brute targeting Grizzly Bears")
    assert "creature with power 4 or greater" in info.value.message


def test_an_aura_that_enchants_a_creature_you_control():
    cartouche = {
        "type": "Enchantment — Aura Cartouche",
        "cost": "{1}{W}",
        "effect": "Enchant creature you control\nEnchanted creature gets +1/+1 and has lifelink.",
    }
    g = game(
        {
            "costs": "ignore",
            "cards": {"Cartouche of Solidarity": cartouche},
            "state": {
                "permanents": [bear("Grizzly Bears", "Ana"), bear("Ogre", "Ben", 3, 3)],
                "hand": {"Ana": ["Cartouche of Solidarity"]},
                "library": {"Ana": 10, "Ben": 10},
            },
        }
    )
    casts = [a for a in g.legal_actions() if "casts" in a]
    assert casts == ["Ana casts Cartouche of Solidarity targeting Grizzly Bears"]
    steps = run(g, casts[0], "Ana passes", "Ben passes")
    assert any("Cartouche of Solidarity resolves" in w for w in said(steps))
    assert not any("is put into its owner's graveyard" in w for w in said(steps))


def test_at_the_beginning_of_the_end_step_sacrifice_it():
    ball = {
        "type": "Creature — Elemental",
        "cost": "{R}{R}{R}",
        "power": 6,
        "toughness": 1,
        "effect": "Trample, haste\nAt the beginning of the end step, sacrifice Ball Lightning.",
    }
    g = game(
        {
            "turn": {"player": "Ana", "phase": "main2"},
            "cards": {"Ball Lightning": ball},
            "state": {
                "permanents": [{"name": "Ball Lightning", "controller": "Ana"}],
                "library": {"Ana": 10, "Ben": 10},
            },
        }
    )
    steps = until(g, run(g, "Ana moves to end"), "sacrifices Ball Lightning")
    assert any(w.startswith("Ana sacrifices Ball Lightning (Ball Lightning trigger)") for w in said(steps))
    assert "701.21a" in cited(steps) and steps[-1].state["graveyard"]["Ana"] == ["Ball Lightning"]


def test_damage_and_you_gain_life_are_two_instructions():
    douse = {
        "type": "Instant",
        "cost": "{2}{B}",
        "effect": "Douse in Gloom deals 2 damage to target creature and you gain 2 life.",
    }
    g = game(
        {
            "costs": "ignore",
            "cards": {"Douse in Gloom": douse},
            "state": {"permanents": [bear("Grizzly Bears", "Ben")], "hand": {"Ana": ["Douse in Gloom"]}},
        }
    )
    steps = run(g, "Ana casts Douse in Gloom targeting Grizzly Bears", "Ana passes", "Ben passes")
    assert steps[-1].state["life"]["Ana"] == 22 and steps[-1].state["graveyard"]["Ben"] == ["Grizzly Bears"]


@pytest.mark.parametrize("edition, rule", [(NEW, "702.34a"), (OLD, "502.22a")])
def test_flashback_casts_from_the_graveyard_and_exiles(edition, rule):
    bump = {  # the card library gives its keyword line as keywords:
        "type": "Sorcery",
        "cost": "{B}",
        "effect": "Target opponent loses 3 life.",
        "keywords": ["Flashback {5}{R}"],
    }
    g = game(
        {
            "cards": {"Bump in the Night": bump},
            "state": {
                "permanents": [{"name": "Mountain", "controller": "Ana"}] * 6,
                "graveyard": {"Ana": ["Bump in the Night"]},
                "library": {"Ana": 10, "Ben": 10},
            },
        },
        edition,
    )
    assert "Ana casts Bump in the Night targeting Ben" in g.legal_actions()
    steps = run(g, "Ana casts Bump in the Night targeting Ben", "Ana passes", "Ben passes")
    words = said(steps)
    assert any("pays {5}{R} for Bump in the Night" in w for w in words)
    assert any("from the graveyard for its flashback cost" in w for w in words)
    assert any("it is exiled instead of going anywhere else" in w for w in words)
    assert rule in cited(steps) and steps[-1].state["life"]["Ben"] == 17


def test_a_group_read_in_parts_and_a_creature_put_on_top_of_its_library():
    cards = {
        "Hurricane Lite": {
            "type": "Sorcery",
            "cost": "{G}",
            "effect": "Deal 1 damage to each creature without flying.",
        },
        "Plummet All": {"type": "Sorcery", "cost": "{G}", "effect": "Destroy all creatures with flying."},
        "Griptide": {
            "type": "Instant",
            "cost": "{3}{U}",
            "effect": "Put target creature on top of its owner's library.",
        },
    }
    anchor = {
        "type": "Sorcery",
        "cost": "{2}{U}",
        "effect": "Put target creature on top of its owner's library. Scry 1.",
    }
    g = game(
        {
            "costs": "ignore",
            "cards": cards,
            "state": {
                "permanents": [
                    bear("Llanowar Elves", "Ana", 1, 1),
                    bear("Wind Drake", "Ben", 2, 2, keywords=["flying"]),
                    bear("Grizzly Bears", "Ben"),
                ],
                "hand": {"Ana": ["Hurricane Lite", "Plummet All", "Griptide"]},
                "library": {"Ana": 10, "Ben": 10},
            },
        }
    )
    steps = run(g, "Ana casts Hurricane Lite", "Ana passes", "Ben passes")
    assert "Llanowar Elves" in steps[-1].state["graveyard"]["Ana"]
    assert not any("to Wind Drake" in w for w in said(steps))
    steps = run(g, "Ana casts Plummet All", "Ana passes", "Ben passes")
    assert "Wind Drake" in steps[-1].state["graveyard"]["Ben"]
    steps = run(g, "Ana casts Griptide targeting Grizzly Bears", "Ana passes", "Ben passes")
    assert any("Griptide puts Grizzly Bears on top of Ben's library" in w for w in said(steps))
    g = game(  # then scry 1: its caster decides where the card looked at goes (tests/test_mtg_library_verbs.py)
        {
            "costs": "ignore",
            "cards": {"Anchor to the Aether": anchor},
            "state": {
                "hand": {"Ana": ["Anchor to the Aether"]},
                "permanents": [bear("Bear", "Ben")],
                "library": {"Ana": 3},
            },
        }
    )
    run(g, "Ana casts Anchor to the Aether targeting Bear", "Ana passes", "Ben passes")
    assert g.s.pending == "scry" and g.s.library["Ben"][0].name == "Bear"


@pytest.mark.parametrize("edition", [NEW, OLD])
def test_whenever_it_deals_combat_damage_to_a_player(edition):
    ninja = {
        "type": "Creature — Bird",
        "cost": "{1}{U}",
        "power": 1,
        "toughness": 1,
        "effect": "Flying\nWhenever Thieving Bird deals combat damage to a player, draw a card.",
    }
    g = game(
        {
            "turn": {"player": "Ana", "phase": "declare_attackers"},
            "cards": {"Thieving Bird": ninja},
            "state": {
                "permanents": [{"name": "Thieving Bird", "controller": "Ana"}],
                "library": {"Ana": 10, "Ben": 10},
            },
        },
        edition,
    )
    steps = until(g, run(g, "Ana attacks with Thieving Bird"), "Ana draws")
    words = said(steps)
    assert any(w.startswith("Thieving Bird trigger triggers (Ana controls it)") for w in words)
    assert steps[-1].state["life"]["Ben"] == 19


def test_renown_once_and_never_before_it_came():
    acolyte = {
        "type": "Creature — Human Monk",
        "cost": "{2}{R}",
        "power": 3,
        "toughness": 1,
        "effect": "Renown 1 (When this creature deals combat damage to a player, if it isn't renowned, put a +1/+1 "
        "counter on it and it becomes renowned.)",
    }
    data = {
        "turn": {"player": "Ana", "phase": "declare_attackers"},
        "cards": {"Acolyte of the Inferno": acolyte},
        "state": {
            "permanents": [{"name": "Acolyte of the Inferno", "controller": "Ana"}],
            "library": {"Ana": 10, "Ben": 10},
        },
    }
    g = game(data)
    steps = until(g, run(g, "Ana attacks with Acolyte of the Inferno"), "(now 4/2)", 12)
    words = said(steps)
    assert any(w.startswith("Acolyte of the Inferno renown 1 triggers (Ana controls it)") for w in words)
    assert any(
        "1 +1/+1 counter are put on Acolyte of the Inferno (now 4/2) and it becomes renowned" in w for w in words
    )
    assert "702.112a" in cited(steps)
    with pytest.raises(ScenarioError) as info:
        game(data, OLD)
    assert 'keyword "renown 1" is not in the 2008-10-01 Comprehensive Rules' in info.value.message


AFFA_GUARD_HOUND = {  # ROE
    "type": "Creature — Dog",
    "cost": "{2}{W}",
    "power": 2,
    "toughness": 2,
    "effect": "Flash\nWhen Affa Guard Hound enters the battlefield, target creature gets +0/+3 until end of turn.",
}
FESTERING_GOBLIN = {  # 10E
    "type": "Creature — Zombie Goblin",
    "cost": "{B}",
    "power": 1,
    "toughness": 1,
    "effect": "When Festering Goblin dies, target creature gets -1/-1 until end of turn.",
}


@pytest.mark.parametrize("edition, rule", [(NEW, "603.3d"), (OLD, "410.4")])
def test_a_triggered_ability_of_a_cards_text_chooses_its_target_as_it_goes_on_the_stack(edition, rule):
    g = game(
        {
            "costs": "ignore",
            "cards": {"Affa Guard Hound": AFFA_GUARD_HOUND},
            "state": {
                "hand": {"Ana": ["Affa Guard Hound"]},
                "permanents": [bear("Bear", "Ana")],
                "library": {"Ana": 10, "Ben": 10},
            },
        },
        edition,
    )
    steps = run(g, "Ana casts Affa Guard Hound", "Ana passes", "Ben passes")
    assert said(steps)[-1] == (
        "Ana puts Affa Guard Hound trigger on the stack and chooses its targets as it does (target creature); "
        "no player has priority until then"
    )
    assert rule in cited(steps) and steps[-1].state["awaiting"] == "Ana chooses the targets of Affa Guard Hound trigger"
    assert g.legal_actions() == [
        "Ana puts Affa Guard Hound trigger on the stack targeting Bear",
        "Ana puts Affa Guard Hound trigger on the stack targeting Affa Guard Hound",
    ]
    refused = said(run(g, "Ana puts Affa Guard Hound trigger on the stack targeting Ben", "Ana passes"))
    assert refused[0].startswith("Illegal: Ben is not a legal target for Affa Guard Hound trigger")
    assert refused[1].startswith("Illegal: Ana cannot pass priority: nobody has priority (Ana must first choose")
    steps = run(g, "Ana puts Affa Guard Hound trigger on the stack targeting Bear", "Ana passes", "Ben passes")
    assert said(steps)[0] == "Ana chooses Bear as the target of Affa Guard Hound trigger"
    assert "Bear gets +0/+3 until end of turn (now 2/5)" in said(steps)
    assert rule in cited(steps[:1])


def test_a_dies_trigger_with_no_legal_target_is_removed():
    wither = {"type": "Instant", "cost": "{B}", "effect": "Target creature gets -1/-1 until end of turn."}
    data = {
        "costs": "ignore",
        "cards": {"Festering Goblin": FESTERING_GOBLIN, "Wither": wither},
        "state": {
            "hand": {"Ana": ["Wither"]},
            "permanents": [{"name": "Festering Goblin", "controller": "Ben"}],
            "library": {"Ana": 10, "Ben": 10},
        },
    }
    g = game(data)
    steps = run(g, "Ana casts Wither targeting Festering Goblin", "Ana passes", "Ben passes")
    words = said(steps)
    assert "Festering Goblin gets -1/-1 until end of turn (now 0/0)" in words
    assert words[-2] == (
        "Festering Goblin trigger has no legal target (target creature): it is removed from the stack as it would "
        "be put on it"
    )
    assert "603.3d" in cited(steps) and steps[-1].state["stack"] == []
    data["state"]["permanents"].append(bear("Elf", "Ana", 1, 1))
    g = game(data)
    steps = run(g, "Ana casts Wither targeting Festering Goblin", "Ana passes", "Ben passes")
    assert g.legal_actions() == ["Ben puts Festering Goblin trigger on the stack targeting Elf"]
    steps = run(g, "Ben puts Festering Goblin trigger on the stack targeting Elf", "Ana passes", "Ben passes")
    assert "Elf gets -1/-1 until end of turn (now 0/0)" in said(steps)


def test_target_player_or_planeswalker_and_opponent_or_planeswalker():
    fireslinger = {  # M10
        "type": "Creature — Goblin Warrior",
        "cost": "{R}",
        "power": 1,
        "toughness": 1,
        "ability": {"cost": "{T}", "effect": "Goblin Fireslinger deals 1 damage to target player or planeswalker."},
    }
    hellion = {  # HOU
        "type": "Creature — Hellion",
        "cost": "{4}{R}",
        "power": 4,
        "toughness": 4,
        "effect": "Trample\nWhen Cinder Hellion enters the battlefield, it deals 2 damage to target opponent or "
        "planeswalker.",
    }
    ajani = {
        "name": "Ajani Goldmane",
        "controller": "Ben",
        "type": "legendary planeswalker — ajani",
        "loyalty": 4,
        "counters": {"loyalty": 3},
    }
    g = game(
        {
            "costs": "ignore",
            "cards": {"Goblin Fireslinger": fireslinger, "Cinder Hellion": hellion},
            "state": {
                "hand": {"Ana": ["Cinder Hellion"]},
                "permanents": [{"name": "Goblin Fireslinger", "controller": "Ana"}, bear("Elf", "Ben"), ajani],
                "library": {"Ana": 10, "Ben": 10},
            },
        }
    )
    aims = [a for a in g.legal_actions() if a.startswith("Ana activates Goblin Fireslinger")]
    assert aims == [
        "Ana activates Goblin Fireslinger targeting Ana",
        "Ana activates Goblin Fireslinger targeting Ben",
        "Ana activates Goblin Fireslinger targeting Ajani Goldmane",
    ]
    steps = run(g, "Ana casts Cinder Hellion", "Ana passes", "Ben passes")
    assert g.legal_actions() == [
        "Ana puts Cinder Hellion trigger on the stack targeting Ben",
        "Ana puts Cinder Hellion trigger on the stack targeting Ajani Goldmane",
    ]
    words = said(run(g, "Ana puts Cinder Hellion trigger on the stack targeting Ana"))
    assert words == [
        "Illegal: Ana is not a legal target for Cinder Hellion trigger: it needs target opponent or planeswalker"
    ]
    words = said(run(g, "Ana puts Cinder Hellion trigger on the stack targeting Elf"))
    assert words == [
        "Illegal: Elf is not a legal target for Cinder Hellion trigger: it needs target opponent or planeswalker"
    ]
    steps = run(g, "Ana puts Cinder Hellion trigger on the stack targeting Ajani Goldmane", "Ana passes", "Ben passes")
    assert "Ajani Goldmane" in steps[-1].state["zone"] and steps[-1].state["counters"]["Ajani Goldmane"] == {
        "loyalty": 1
    }


def test_target_creature_cant_block_or_be_blocked_this_turn():
    shortcutter = {  # M14
        "type": "Creature — Goblin Warrior",
        "cost": "{1}{R}",
        "power": 2,
        "toughness": 1,
        "effect": "When Goblin Shortcutter enters the battlefield, target creature can't block this turn.",
    }
    pathmage = {  # M13
        "type": "Creature — Salamander Wizard",
        "cost": "{3}{U}",
        "power": 3,
        "toughness": 2,
        "ability": {"cost": "{2}{U}", "effect": "Target creature can't be blocked this turn."},
    }
    g = game(
        {
            "costs": "ignore",
            "cards": {"Goblin Shortcutter": shortcutter, "Amphin Pathmage": pathmage},
            "state": {
                "hand": {"Ana": ["Goblin Shortcutter"]},
                "permanents": [
                    {"name": "Amphin Pathmage", "controller": "Ana"},
                    bear("Bear", "Ana"),
                    bear("Wall", "Ben", 0, 4),
                    bear("Elf", "Ben", 1, 1),
                ],
                "library": {"Ana": 10, "Ben": 10},
            },
        }
    )
    run(g, "Ana casts Goblin Shortcutter", "Ana passes", "Ben passes")
    steps = run(g, "Ana puts Goblin Shortcutter trigger on the stack targeting Wall", "Ana passes", "Ben passes")
    assert "Wall can't block this turn" in said(steps)
    steps = run(g, "Ana activates Amphin Pathmage targeting Bear", "Ana passes", "Ben passes")
    assert "Bear can't be blocked this turn" in said(steps)
    steps = run(
        g,
        "Ana moves to declare_attackers",
        "Ana attacks with Bear",
        "Ana passes",
        "Ben passes",
        "Ben blocks Bear with Wall",
        "Ben blocks Bear with Elf",
    )
    words = said(steps)
    assert "Illegal: Wall cannot block: Goblin Shortcutter trigger says it can't" in words
    assert "Illegal: Elf cannot block Bear: Bear can't be blocked (Amphin Pathmage ability says so)" in words
    assert "509.1b" in cited(steps)
    words = said(run(g, "Ben declares no blockers", "Ana moves to cleanup"))
    assert any(w.startswith('Damage wears off and "until end of turn" effects end (') and "Wall" in w for w in words)
    assert g.s.permanent(g.s.find_target("Wall").ref).restricted == ()


DRUDGE_SKELETONS = {  # 10E
    "type": "Creature — Skeleton",
    "cost": "{1}{B}",
    "power": 1,
    "toughness": 1,
    "ability": {"cost": "{B}", "effect": "Regenerate Drudge Skeletons."},
}


@pytest.mark.parametrize("edition, rule", [(NEW, "701.19a"), (OLD, "501.5a")])
def test_regenerate_replaces_one_destruction_this_turn(edition, rule):
    g = game(
        {
            "costs": "ignore",
            "turn": {"player": "Ana", "phase": "declare_attackers"},
            "cards": {
                "Drudge Skeletons": DRUDGE_SKELETONS,
                "Smite": {"type": "Instant", "cost": "{B}", "effect": "Destroy target creature."},
            },
            "state": {
                "hand": {"Ben": ["Smite", "Smite"]},
                "permanents": [{"name": "Drudge Skeletons", "controller": "Ana"}, bear("Giant", "Ben", 3, 3)],
                "library": {"Ana": 10, "Ben": 10},
            },
        },
        edition,
    )
    steps = run(g, "Ana attacks with Drudge Skeletons", "Ana activates Drudge Skeletons", "Ana passes", "Ben passes")
    assert (
        "Drudge Skeletons ability: the next time Drudge Skeletons would be destroyed this turn, it is regenerated "
        "instead" in said(steps)
    )
    steps = until(g, run(g, "Ana passes", "Ben passes", "Ben blocks Drudge Skeletons with Giant"), "regenerates")
    assert (
        "Drudge Skeletons has lethal damage (3 on a toughness of 1) and would be destroyed; it regenerates instead: "
        "all damage is removed from it and it is tapped, and it is removed from combat"
    ) in said(steps)
    assert rule in cited(steps) and steps[-1].state["zone"]["Drudge Skeletons"] == "battlefield"
    steps = run(g, "Ana moves to end_of_combat", "Ana passes", "Ben casts Smite targeting Drudge Skeletons")
    steps += run(g, "Ben passes", "Ana passes")
    assert "Smite destroys Drudge Skeletons" in said(steps)  # the shield was used up
    assert steps[-1].state["zone"]["Drudge Skeletons"] == "graveyard"
