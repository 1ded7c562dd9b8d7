"""Real cards' tokens, destruction and search templates, read whole by the Magic engine (issue 23): what a
judge sees (the steps, their words and the rules they cite), and what is refused. The texts are the cards'
Oracle text as MTGJSON v3 gives it, the card's name written as printed."""

from __future__ import annotations

import pytest

from engine.core import IllegalAction, ScenarioError
from tests.test_engine_mtg import game, run
from tests.test_mtg_card_text import bear, cited, said


def _spell(effect: str, kind: str = "Sorcery") -> dict:
    return {"type": kind, "cost": "{1}{B}", "effect": effect}


def test_a_non_colour_target_filter_refuses_a_creature_of_that_colour():
    doom = _spell("Destroy target nonblack creature.", "Instant")
    zombie = {"name": "Zombie", "controller": "Ben"}
    g = game(
        {
            "costs": "ignore",
            "cards": {
                "Doom Blade": doom,
                "Zombie": {"type": "Creature — Zombie", "cost": "{1}{B}", "power": 2, "toughness": 2},
            },
            "state": {"permanents": [bear("Ogre", "Ben", 3, 3), zombie], "hand": {"Ana": ["Doom Blade"]}},
        }
    )
    with pytest.raises(Exception) as info:
        g.apply("Ana casts Doom Blade targeting Zombie")
    assert "nonblack creature" in str(info.value)
    steps = run(g, "Ana casts Doom Blade targeting Ogre", "Ana passes", "Ben passes")
    assert any("destroys Ogre" in w for w in said(steps))
    assert g.s.find_permanent("Ogre") is None


def test_destroy_all_enchantments_destroys_each_enchantment_and_nothing_else():
    g = game(
        {
            "costs": "ignore",
            "cards": {
                "Back to Nature": _spell("Destroy all enchantments.", "Instant"),
                "Pacifism": {"type": "Enchantment", "cost": "{1}{W}", "effect": ""},
            },
            "state": {
                "permanents": [bear("Ogre", "Ben", 3, 3), {"name": "Pacifism", "controller": "Ben"}],
                "hand": {"Ana": ["Back to Nature"]},
            },
        }
    )
    steps = run(g, "Ana casts Back to Nature", "Ana passes", "Ben passes")
    assert any("destroys Pacifism" in w for w in said(steps)) and "701.8a" in cited(steps)
    assert g.s.find_permanent("Pacifism") is None and g.s.find_permanent("Ogre") is not None


def test_it_cant_be_regenerated_leaves_its_regeneration_shield_unapplied():
    g = game(
        {
            "costs": "ignore",
            "cards": {"Flesh to Dust": _spell("Destroy target creature. It can't be regenerated.", "Instant")},
            "state": {
                "permanents": [{**bear("Ogre", "Ben", 3, 3), "ability": {"cost": "{B}", "effect": "Regenerate Ogre"}}],
                "hand": {"Ana": ["Flesh to Dust"]},
            },
        }
    )
    steps = run(
        g,
        "Ana casts Flesh to Dust targeting Ogre",
        "Ana passes",
        "Ben activates Ogre",
        "Ben passes",
        "Ana passes",
        "Ana passes",
        "Ben passes",
    )
    assert any("can't be regenerated" in w for w in said(steps)) and "701.19c" in cited(steps)
    assert g.s.find_permanent("Ogre") is None


def test_an_artifact_creature_token_is_an_artifact_and_a_creature():
    g = game(
        {
            "costs": "ignore",
            "cards": {
                "Aviators": _spell("Create two 1/1 colorless Thopter artifact creature tokens with flying."),
            },
            "state": {"hand": {"Ana": ["Aviators"]}},
        }
    )
    steps = run(g, "Ana casts Aviators", "Ana passes", "Ben passes")
    assert any("a 1/1 artifact creature token" in w for w in said(steps)) and "111.1" in cited(steps)
    thopters = [p for p in g.s.battlefield if p.name.startswith("Thopter")]
    assert len(thopters) == 2
    assert all(p.is_a("artifact") and p.is_a("creature") and g.s.has(p, "flying") for p in thopters)


def test_investigate_creates_a_clue_that_draws_a_card():
    g = game(
        {
            "costs": "ignore",
            "cards": {"Expose Evil": _spell("Tap up to two target creatures. Investigate.", "Instant")},
            "state": {"hand": {"Ana": ["Expose Evil"]}, "library": {"Ana": ["Island", "Swamp"]}},
        }
    )
    steps = run(g, "Ana casts Expose Evil", "Ana passes", "Ben passes")
    assert any("investigates, creating Clue Token" in w for w in said(steps))
    assert {"701.16a", "111.1"} <= cited(steps)
    clue = g.s.find_permanent("Clue Token")
    assert clue is not None and clue.is_a("artifact") and not clue.is_a("creature")
    steps = run(g, "Ana activates Clue Token", "Ana passes", "Ben passes")
    assert g.s.find_permanent("Clue Token") is None
    assert any("draws" in w for w in said(steps))


def test_investigate_is_refused_under_rules_before_it():
    with pytest.raises(ScenarioError) as info:
        game(
            {"cards": {"Expose Evil": _spell("Investigate.", "Instant")}, "state": {"hand": {"Ana": ["Expose Evil"]}}},
            "2008-10-01",
        )
    assert 'the keyword action "investigate" is not in the 2008-10-01 Comprehensive Rules' in info.value.message


def search_game(effect: str, library: list, edition: str | None = None):
    scenario = {
        "costs": "ignore",
        "cards": {
            "Seek": _spell(effect),
            "Ogre": {"type": "Creature — Ogre", "cost": "{2}{R}", "power": 3, "toughness": 3},
        },
        "state": {"hand": {"Ana": ["Seek"]}, "library": {"Ana": library}},
    }
    return game(scenario, edition) if edition else game(scenario)


def test_a_search_for_a_basic_land_card_lets_its_player_find_one_or_none():
    effect = "Search your library for a basic land card, reveal it, put it into your hand, then shuffle your library."
    g = search_game(effect, ["Ogre", "Forest", "Island"])
    steps = run(g, "Ana casts Seek", "Ana passes", "Ben passes")
    assert any("Ana searches their library (3 cards) for a card that is basic and land" in w for w in said(steps))
    assert "701.23a" in cited(steps)
    assert "Ana takes nothing" in g.legal_actions() and "Ana takes Island" in g.legal_actions()
    assert "Ana takes Ogre" not in g.legal_actions()
    steps = run(g, "Ana takes Island")
    assert any("Ana finds Island, reveals it and puts it into their hand" in w for w in said(steps))
    assert {"701.23a", "701.24a"} <= cited(steps)
    assert [c.name for c in g.s.hand["Ana"]] == ["Island"] and len(g.s.library["Ana"]) == 2


def test_a_search_puts_a_land_onto_the_battlefield_tapped():
    effect = "Search your library for a basic land card, put it onto the battlefield tapped, then shuffle your library."
    g = search_game(effect, ["Forest", "Ogre"])
    run(g, "Ana casts Seek", "Ana passes", "Ben passes", "Ana takes Forest")
    forest = g.s.find_permanent("Forest")
    assert forest is not None and forest.tapped and forest.controller == "Ana"


def test_a_search_for_a_card_must_find_one():
    g = search_game(
        "Search your library for a card and put that card into your hand. Then shuffle your library.", ["Ogre"]
    )
    run(g, "Ana casts Seek", "Ana passes", "Ben passes")
    assert "Ana takes nothing" not in g.legal_actions()
    with pytest.raises(ScenarioError):
        g.apply("Ana takes nothing")
    run(g, "Ana takes Ogre")
    assert [c.name for c in g.s.hand["Ana"]] == ["Ogre"]


def test_a_search_is_refused_under_rules_that_only_gloss_it_and_a_search_without_shuffle_is_refused():
    with pytest.raises(ScenarioError) as info:
        search_game(
            "Search your library for a creature card, reveal it, put it into your hand, then shuffle.", [], "2008-10-01"
        )
    assert 'the keyword action "search" is not in the 2008-10-01 Comprehensive Rules' in info.value.message
    with pytest.raises(ScenarioError) as info:
        search_game("Search your library for a creature card and put it into your hand.", [])
    assert "a search with no shuffle after it is not modelled" in info.value.message


def test_the_life_lost_this_way_is_gained_by_the_caster():
    g = game(
        {
            "costs": "ignore",
            "cards": {
                "Blood Tithe": _spell("Each opponent loses 3 life. You gain life equal to the life lost this way.")
            },
            "state": {"hand": {"Ana": ["Blood Tithe"]}},
        }
    )
    steps = run(g, "Ana casts Blood Tithe", "Ana passes", "Ben passes")
    assert any("Ana gains 3 life, the life lost this way" in w for w in said(steps))
    assert g.s.life == {"Ana": 23, "Ben": 17}
    with pytest.raises(ScenarioError) as info:
        game(
            {
                "cards": {"Odd": _spell("Draw a card. You gain life equal to the life lost this way.")},
                "state": {"hand": {"Ana": ["Odd"]}},
            }
        )
    assert "the life lost this way" in info.value.message


def test_a_spell_countered_this_way_is_exiled_instead_of_put_into_the_graveyard():
    deny = _spell(
        "Counter target creature spell. If that spell is countered this way, exile it instead of putting it into its "
        "owner's graveyard.",
        "Instant",
    )
    g = game(
        {
            "costs": "ignore",
            "cards": {
                "Deny Existence": deny,
                "Ogre": {"type": "Creature — Ogre", "cost": "{2}{R}", "power": 3, "toughness": 3},
            },
            "state": {"hand": {"Ana": ["Ogre"], "Ben": ["Deny Existence"]}},
        }
    )
    steps = run(
        g, "Ana casts Ogre", "Ana passes", "Ben casts Deny Existence targeting Ogre", "Ben passes", "Ana passes"
    )
    assert any("is exiled instead of going to Ana's graveyard" in w for w in said(steps))
    assert "614.1a" in cited(steps)
    assert [c.name for c in g.s.exile["Ana"]] == ["Ogre"] and not g.s.graveyard["Ana"]


def test_support_puts_a_counter_on_each_of_up_to_n_target_creatures():
    g = game(
        {
            "costs": "ignore",
            "cards": {"Lead by Example": _spell("Support 2.", "Instant")},
            "state": {
                "permanents": [bear("Bear A", "Ana"), bear("Bear B", "Ana")],
                "hand": {"Ana": ["Lead by Example"]},
            },
        }
    )
    assert "Ana casts Lead by Example targeting Bear A" in g.legal_actions()
    steps = run(g, "Ana casts Lead by Example targeting Bear A, Bear B", "Ana passes", "Ben passes")
    assert {"701.41a", "122.1"} <= cited(steps)
    assert g.s.power(g.s.find_permanent("Bear A")) == 3 and g.s.power(g.s.find_permanent("Bear B")) == 3


def test_support_on_a_permanent_means_other_creatures_and_is_refused():
    with pytest.raises(ScenarioError) as info:
        game(
            {
                "cards": {
                    "Raptor": {
                        "type": "Creature — Bird",
                        "cost": "{3}{W}",
                        "power": 2,
                        "toughness": 2,
                        "ability": {"cost": "{1}", "effect": "Support 2."},
                    }
                },
                "state": {"hand": {"Ana": ["Raptor"]}},
            }
        )
    assert "support on a permanent" in info.value.message


def test_a_creature_card_from_any_graveyard_enters_under_the_casters_control():
    g = game(
        {
            "costs": "ignore",
            "cards": {
                "Endless Obedience": _spell(
                    "Put target creature card from a graveyard onto the battlefield under your control."
                ),
                "Ogre": {"type": "Creature — Ogre", "cost": "{2}{R}", "power": 3, "toughness": 3},
            },
            "state": {"hand": {"Ana": ["Endless Obedience"]}, "graveyard": {"Ben": ["Ogre", "Island"]}},
        }
    )
    assert "Ana casts Endless Obedience targeting Island" not in g.legal_actions()
    steps = run(g, "Ana casts Endless Obedience targeting Ogre", "Ana passes", "Ben passes")
    assert any("puts Ogre from Ben's graveyard onto the battlefield under Ana's control" in w for w in said(steps))
    ogre = g.s.find_permanent("Ogre")
    assert ogre is not None and ogre.controller == "Ana" and ogre.owner == "Ben"


def test_a_creature_dealt_damage_this_way_is_exiled_if_it_would_die_this_turn():
    anger = _spell(
        "~ deals 3 damage to each creature. If a creature dealt damage this way would die this turn, exile it instead."
    )
    g = game(
        {
            "costs": "ignore",
            "cards": {"Anger of the Gods": anger},
            "state": {
                "permanents": [bear("Bear", "Ben"), bear("Giant", "Ben", 5, 5)],
                "hand": {"Ana": ["Anger of the Gods"]},
            },
        }
    )
    steps = run(g, "Ana casts Anger of the Gods", "Ana passes", "Ben passes")
    assert any(
        "Bear was dealt damage by Anger of the Gods this turn and would die: it is exiled instead" in w
        for w in said(steps)
    )
    assert "614.1a" in cited(steps)
    assert [c.name for c in g.s.exile["Ben"]] == ["Bear"] and not g.s.graveyard["Ben"]
    assert g.s.find_permanent("Giant") is not None and g.s.exile_if_dies


def test_a_non_subtype_filter_and_nonbasic():
    g = game(
        {
            "costs": "ignore",
            "cards": {
                "Cruel Revival": _spell("Destroy target non-Zombie creature.", "Instant"),
                "Zombie": {"type": "Creature — Zombie", "cost": "{1}{B}", "power": 2, "toughness": 2},
                "Crumble": _spell("Exile target nonbasic land."),
                "Mutavault": {"type": "Land", "cost": ""},
            },
            "state": {
                "permanents": [
                    bear("Ogre", "Ben", 3, 3),
                    {"name": "Zombie", "controller": "Ben"},
                    {"name": "Island", "controller": "Ben"},
                    {"name": "Mutavault", "controller": "Ben"},
                ],
                "hand": {"Ana": ["Cruel Revival", "Crumble"]},
            },
        }
    )
    actions = g.legal_actions()
    assert (
        "Ana casts Cruel Revival targeting Ogre" in actions
        and "Ana casts Cruel Revival targeting Zombie" not in actions
    )
    assert "Ana casts Crumble targeting Mutavault" in actions and "Ana casts Crumble targeting Island" not in actions


def test_you_may_search_when_it_enters_asks_then_searches():
    pilgrim = {
        "type": "Artifact Creature — Kor Cleric",
        "cost": "{3}",
        "power": 1,
        "toughness": 1,
        "effect": "When ~ enters the battlefield, you may search your library for a basic land card, reveal it, put "
        "it into your hand, then shuffle your library.",
    }
    g = game(
        {
            "costs": "ignore",
            "cards": {"Pilgrim's Eye": pilgrim},
            "state": {"hand": {"Ana": ["Pilgrim's Eye"]}, "library": {"Ana": ["Plains", "Swamp"]}},
        }
    )
    run(g, "Ana casts Pilgrim's Eye", "Ana passes", "Ben passes", "Ana passes", "Ben passes")
    assert "Ana accepts" in g.legal_actions()
    run(g, "Ana accepts", "Ana takes Swamp")
    assert [c.name for c in g.s.hand["Ana"]] == ["Swamp"]


def test_investigate_three_times_creates_three_clues():
    g = game(
        {
            "costs": "ignore",
            "cards": {"Suspicions": _spell("Investigate three times.", "Instant")},
            "state": {"hand": {"Ana": ["Suspicions"]}},
        }
    )
    run(g, "Ana casts Suspicions", "Ana passes", "Ben passes")
    assert sorted(p.name for p in g.s.battlefield) == ["Clue Token", "Clue Token#2", "Clue Token#3"]


def test_a_land_sacrificed_to_pay_its_own_ability_searches_for_a_basic_land():
    wilds = {
        "type": "Land",
        "ability": {
            "cost": "{T}, Sacrifice Evolving Wilds",
            "effect": "Search your library for a basic land card, put it onto the battlefield tapped, then shuffle "
            "your library.",
        },
    }
    g = game(
        {
            "cards": {"Evolving Wilds": wilds},
            "state": {"permanents": [{"name": "Evolving Wilds"}], "library": {"Ana": ["Mountain", "Forest"]}},
        }
    )
    steps = run(g, "Ana activates Evolving Wilds")
    assert any("Ana sacrifices Evolving Wilds to pay the cost of its ability" in w for w in said(steps))
    assert g.s.find_permanent("Evolving Wilds") is None
    run(g, "Ana passes", "Ben passes", "Ana takes Forest")
    forest = g.s.find_permanent("Forest")
    assert forest is not None and forest.tapped


def test_a_treasure_token_is_sacrificed_for_one_mana_of_any_color():
    effect = (
        'Create a colorless Treasure artifact token with "{T}, Sacrifice this artifact: Add one mana of any color."'
    )
    g = game({"costs": "ignore", "cards": {"Pillage": _spell(effect)}, "state": {"hand": {"Ana": ["Pillage"]}}})
    steps = run(g, "Ana casts Pillage", "Ana passes", "Ben passes")
    assert any("creates Treasure Token, a colorless artifact token" in w for w in said(steps))
    treasure = g.s.find_permanent("Treasure Token")
    assert treasure is not None and treasure.is_a("artifact") and not treasure.is_a("creature")
    run(g, "Ana activates Treasure Token for {R}")
    assert g.s.find_permanent("Treasure Token") is None and g.s.pool["Ana"].get("R") == 1


def vampire_game():
    vampire = {
        "type": "Creature — Vampire",
        "cost": "{1}{B}",
        "power": 1,
        "toughness": 1,
        "ability": {"cost": "Sacrifice a creature", "effect": "Bloodthrone Vampire gets +2/+2 until end of turn."},
    }
    return game(
        {
            "cards": {"Bloodthrone Vampire": vampire},
            "state": {"permanents": [{"name": "Bloodthrone Vampire"}, bear("Bear", "Ana"), bear("Orc", "Ben")]},
        }
    )


def test_a_creature_sacrificed_to_pay_an_ability_s_cost_is_named_as_it_is_activated():
    g = vampire_game()
    actions = g.legal_actions()
    assert "Ana activates Bloodthrone Vampire sacrificing Bear" in actions
    assert "Ana activates Bloodthrone Vampire sacrificing Orc" not in actions
    assert "Ana activates Bloodthrone Vampire" not in actions
    steps = run(g, "Ana activates Bloodthrone Vampire sacrificing Bear")
    assert any("Ana sacrifices Bear to pay the cost of Bloodthrone Vampire's ability" in w for w in said(steps))
    assert {"701.21a", "601.2h"} <= cited(steps)
    assert g.s.find_permanent("Bear") is None
    run(g, "Ana passes", "Ben passes")
    assert g.s.power(g.s.find_permanent("Bloodthrone Vampire")) == 3


def test_a_sacrifice_cost_refuses_what_it_cannot_be_and_asks_which():
    g = vampire_game()
    with pytest.raises(IllegalAction) as info:
        g.apply("Ana activates Bloodthrone Vampire sacrificing Orc")
    assert "it must be a creature Ana controls" in info.value.message
    with pytest.raises(ScenarioError) as asked:
        g.apply("Ana activates Bloodthrone Vampire")
    assert "say which, 'Ana activates Bloodthrone Vampire sacrificing NAME'" in asked.value.message


def test_an_additional_cost_to_sacrifice_an_artifact_or_creature_takes_either():
    artillerize = _spell(
        "As an additional cost to cast this spell, sacrifice an artifact or creature.\n~ deals 5 damage to any target.",
        "Instant",
    )
    g = game(
        {
            "costs": "ignore",
            "cards": {"Artillerize": artillerize, "Relic": {"type": "Artifact", "cost": "{1}"}},
            "state": {
                "permanents": [{"name": "Relic"}, {"name": "Island"}, bear("Orc", "Ben")],
                "hand": {"Ana": ["Artillerize"]},
            },
        }
    )
    actions = g.legal_actions()
    assert "Ana casts Artillerize sacrificing Relic targeting Orc" in actions
    assert not any("sacrificing Island" in a for a in actions)
    with pytest.raises(IllegalAction) as info:
        g.apply("Ana casts Artillerize sacrificing Island targeting Orc")
    assert "it must be an artifact or creature Ana controls" in info.value.message
