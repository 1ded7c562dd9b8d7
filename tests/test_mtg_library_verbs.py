"""Real cards' library, hand and counter verbs and small templates, read whole by the Magic engine (issue
23): what a judge sees (the steps, their words and the rules they cite), and what is refused. The texts are
the cards' Oracle text as MTGJSON v3 gives it, the card's name written as printed."""

from __future__ import annotations

import pytest

from engine.core import IllegalAction, ScenarioError
from tests.test_engine_mtg import game, run
from tests.test_mtg_card_text import bear, cited, said


def test_enters_with_x_counters_uses_the_x_paid_for_the_spell():
    endless = {
        "type": "Creature — Eldrazi",
        "cost": "{X}",
        "power": 0,
        "toughness": 0,
        "effect": "Endless One enters the battlefield with X +1/+1 counters on it.",
    }
    g = game({"costs": "ignore", "cards": {"Endless One": endless}, "state": {"hand": {"Ana": ["Endless One"]}}})
    steps = run(g, "Ana casts Endless One with X=3", "Ana passes", "Ben passes")
    assert any("Endless One enters with 3 +1/+1 counters on it (X is 3" in w for w in said(steps))
    assert {"107.3a", "614.1c", "122.1"} <= cited(steps)
    assert g.s.power(g.s.find_permanent("Endless One")) == 3


def test_an_ability_activated_only_once_each_turn_is_refused_the_second_time():
    wolf = {
        "type": "Creature — Wolf",
        "cost": "{1}{G}",
        "power": 2,
        "toughness": 2,
        "ability": {
            "cost": "{2}{G}",
            "effect": "Darkthicket Wolf gets +2/+2 until end of turn. Activate this ability only once each turn.",
        },
    }
    g = game(
        {
            "costs": "ignore",
            "cards": {"Darkthicket Wolf": wolf},
            "state": {"permanents": [{"name": "Darkthicket Wolf"}]},
        }
    )
    steps = run(g, "Ana activates Darkthicket Wolf", "Ana passes", "Ben passes")
    assert any("it can be activated only once each turn" in w for w in said(steps)) and "602.5b" in cited(steps)
    assert g.s.power(g.s.find_permanent("Darkthicket Wolf")) == 4
    with pytest.raises(IllegalAction) as info:
        g.apply("Ana activates Darkthicket Wolf")
    assert "only once each turn" in info.value.message and "602.5b" in info.value.rules


def test_its_controller_is_the_controller_of_the_target_as_last_known():
    certain_death = {
        "type": "Sorcery",
        "cost": "{5}{B}",
        "effect": "Destroy target creature. Its controller loses 2 life and you gain 2 life.",
    }
    g = game(
        {
            "costs": "ignore",
            "cards": {"Certain Death": certain_death},
            "state": {"permanents": [bear("Ogre", "Ben", 3, 3)], "hand": {"Ana": ["Certain Death"]}},
        }
    )
    steps = run(g, "Ana casts Certain Death targeting Ogre", "Ana passes", "Ben passes")
    assert g.s.life == {"Ana": 22, "Ben": 18}
    assert any('"its controller" is Ben' in w for w in said(steps)) and "608.2h" in cited(steps)


def test_its_controller_with_no_target_before_it_is_refused():
    with pytest.raises(ScenarioError) as info:
        game(
            {
                "cards": {"Odd": {"type": "Instant", "effect": "Its controller loses 2 life."}},
                "state": {"hand": {"Ana": ["Odd"]}},
            }
        )
    assert "'its controller' names the controller of a target" in info.value.message


OPT = {
    "type": "Instant",
    "cost": "{U}",
    "effect": "Scry 1.\nDraw a card.",  # the library leaves reminder text out
}


def test_scry_waits_for_where_each_card_goes_then_goes_on_resolving():
    g = game(
        {
            "costs": "ignore",
            "cards": {"Opt": OPT, "Island": {"type": "Basic Land — Island"}, "Forest": {"type": "Basic Land — Forest"}},
            "state": {"hand": {"Ana": ["Opt"]}, "library": {"Ana": ["Island", "Forest", "Swamp"]}},
        }
    )
    steps = run(g, "Ana casts Opt", "Ana passes", "Ben passes")
    assert g.s.pending == "scry" and "Ana scries 1 (Opt)" in g.view()["awaiting"]
    assert any("Ana scries 1: looks at the top 1 card of their library (Island)" in w for w in said(steps))
    assert "701.22a" in cited(steps) and "Ana scries: top Island" in g.legal_actions()
    with pytest.raises(IllegalAction):
        g.apply("Ana passes")
    steps = run(g, "Ana scries: bottom Island")
    assert [c.name for c in g.s.hand["Ana"]] == ["Forest"]  # the card drawn after the scry
    assert [c.name for c in g.s.library["Ana"]] == ["Swamp", "Island"]
    assert any("on the bottom Island" in w for w in said(steps))


def test_scry_names_unnamed_cards_by_position_and_refuses_a_card_left_out():
    preordain = {"type": "Sorcery", "cost": "{U}", "effect": "Scry 2, then draw a card."}
    g = game(
        {
            "costs": "ignore",
            "cards": {"Preordain": preordain},
            "state": {"hand": {"Ana": ["Preordain"]}, "library": {"Ana": 5}},
        }
    )
    run(g, "Ana casts Preordain", "Ana passes", "Ben passes")
    assert "Ana scries: top card 2; bottom card 1" in g.legal_actions()
    with pytest.raises(ScenarioError) as info:
        g.apply("Ana scries: top card 1")
    assert "card 2 is not placed" in info.value.message
    run(g, "Ana scries: top card 2; bottom card 1")
    assert len(g.s.hand["Ana"]) == 1 and g.s.pending is None and g.s.priority == "Ana"


def test_a_trigger_that_scries_waits_too():
    owl = {
        "type": "Creature — Bird",
        "cost": "{3}{U}",
        "power": 1,
        "toughness": 1,
        "effect": "Flying\nWhen Augury Owl enters the battlefield, scry 3.",
    }
    g = game(
        {
            "costs": "ignore",
            "cards": {"Augury Owl": owl},
            "state": {"hand": {"Ana": ["Augury Owl"]}, "library": {"Ana": 2}},
        }
    )
    run(g, "Ana casts Augury Owl", "Ana passes", "Ben passes", "Ana passes", "Ben passes")
    assert g.s.pending == "scry" and len(g.legal_actions()) == 4  # two cards: top or bottom each
    run(g, "Ana scries: bottom card 1, card 2")
    assert g.s.pending is None and g.s.priority == "Ana"


SUBTLE_STRIKE = {
    "type": "Instant",
    "cost": "{1}{B}",
    "effect": "Choose one or both —\n• Target creature gets -1/-1 until end of turn.\n• Put a +1/+1 counter on target "
    "creature.",
}


def test_choose_one_or_both_offers_each_mode_and_both_in_the_order_written():
    g = game(
        {
            "costs": "ignore",
            "cards": {"Subtle Strike": SUBTLE_STRIKE},
            "state": {
                "permanents": [bear("Bear", "Ana"), bear("Ogre", "Ben", 3, 3)],
                "hand": {"Ana": ["Subtle Strike"]},
            },
        }
    )
    legal = g.legal_actions()
    assert 'Ana casts Subtle Strike choosing "Target creature gets -1/-1 until end of turn" targeting Ogre' in legal
    both = (
        'Ana casts Subtle Strike choosing "Target creature gets -1/-1 until end of turn. Put a +1/+1 counter on '
        'target creature" targeting Ogre, Bear'
    )
    assert both in legal
    steps = run(g, both, "Ana passes", "Ben passes")
    assert g.s.power(g.s.find_permanent("Ogre")) == 2 and g.s.power(g.s.find_permanent("Bear")) == 3
    assert "700.2a" in cited(steps)


def test_choose_two_offers_each_pair_of_modes():
    command = {
        "type": "Instant",
        "cost": "{B}{G}",
        "effect": "Choose two —\n• Target player loses 2 life.\n• You gain 2 life.\n• Draw a card.",
    }
    g = game(
        {
            "costs": "ignore",
            "cards": {"Command": command},
            "state": {"hand": {"Ana": ["Command"]}, "library": {"Ana": 3}},
        }
    )
    d = g.s.definition("Command")
    assert d.modes == (
        "Target player loses 2 life. You gain 2 life",
        "Target player loses 2 life. Draw a card",
        "You gain 2 life. Draw a card",
    )
    run(g, 'Ana casts Command choosing "3"', "Ana passes", "Ben passes")
    assert g.s.life["Ana"] == 22 and len(g.s.hand["Ana"]) == 1


BEARS = {"type": "Creature — Bear", "cost": "{1}{G}", "power": 2, "toughness": 2}
RAISE_DEAD = {
    "type": "Sorcery",
    "cost": "{B}",
    "effect": "Return target creature card from your graveyard to your hand.",
}


def test_a_card_in_your_graveyard_is_targeted_and_returned_to_your_hand():
    g = game(
        {
            "costs": "ignore",
            "cards": {
                "Raise Dead": RAISE_DEAD,
                "Grizzly Bears": BEARS,
                "Shock": {"type": "Instant", "effect": "Shock deals 2 damage to any target."},
            },
            "state": {
                "hand": {"Ana": ["Raise Dead"]},
                "graveyard": {"Ana": ["Shock", "Grizzly Bears"], "Ben": ["Grizzly Bears"]},
            },
        }
    )
    assert [a for a in g.legal_actions() if "casts" in a] == ["Ana casts Raise Dead targeting Grizzly Bears"]
    with pytest.raises(IllegalAction) as info:
        g.apply("Ana casts Raise Dead targeting Shock")
    assert "it is not a creature card in your graveyard" in info.value.message
    with pytest.raises(IllegalAction) as info:
        g.apply("Ana casts Raise Dead targeting Grizzly Bears#2")
    assert "it is in Ben's graveyard, not Ana's" in info.value.message
    steps = run(g, "Ana casts Raise Dead targeting Grizzly Bears", "Ana passes", "Ben passes")
    assert [c.name for c in g.s.hand["Ana"]] == ["Grizzly Bears"]
    assert any("Raise Dead returns Grizzly Bears from Ana's graveyard to Ana's hand" in w for w in said(steps))


def test_a_card_that_left_the_graveyard_is_no_longer_a_legal_target():
    g = game(
        {
            "costs": "ignore",
            "cards": {
                "Raise Dead": RAISE_DEAD,
                "Grizzly Bears": BEARS,
                "Defy Death": {  # an instant here, to be cast with Raise Dead on the stack
                    "type": "Instant",
                    "effect": "Return target creature card from your graveyard to the battlefield.",
                },
            },
            "state": {"hand": {"Ana": ["Raise Dead", "Defy Death"]}, "graveyard": {"Ana": ["Grizzly Bears"]}},
        }
    )
    steps = run(
        g,
        "Ana casts Raise Dead targeting Grizzly Bears",
        "Ana casts Defy Death targeting Grizzly Bears",
        "Ana passes",
        "Ben passes",
    )
    assert g.s.find_permanent("Grizzly Bears") is not None
    steps = run(g, "Ana passes", "Ben passes")
    assert any("Raise Dead does not resolve: its target is no longer legal" in w for w in said(steps))
    assert [c.name for c in g.s.hand["Ana"]] == []


DURESS = {
    "type": "Sorcery",
    "cost": "{B}",
    "effect": "Target opponent reveals their hand. You choose a noncreature, nonland card from it. That player discards "
    "that card.",
}


def test_a_card_chosen_from_a_revealed_hand_is_discarded():
    g = game(
        {
            "costs": "ignore",
            "cards": {
                "Duress": DURESS,
                "Grizzly Bears": BEARS,
                "Shock": {"type": "Instant", "cost": "{R}", "effect": "Shock deals 2 damage to any target."},
            },
            "state": {"hand": {"Ana": ["Duress"], "Ben": ["Grizzly Bears", "Shock", "Mountain"]}},
        }
    )
    steps = run(g, "Ana casts Duress targeting Ben", "Ana passes", "Ben passes")
    words = said(steps)
    assert any("Ben reveals their hand: Grizzly Bears, Shock, Mountain" in w for w in words)
    assert g.s.pending == "pick" and g.legal_actions() == ["Ana chooses Shock"]
    with pytest.raises(ScenarioError) as info:
        g.apply("Ana chooses Grizzly Bears")
    assert "not a card Ana may choose from Ben's hand (Shock)" in info.value.message
    steps = run(g, "Ana chooses Shock")
    assert [c.name for c in g.s.graveyard["Ben"]] == ["Shock"] and "701.9a" in cited(steps)
    assert g.s.pending is None and g.s.priority == "Ana"


def test_a_revealed_hand_with_nothing_to_choose_and_a_choice_with_nothing_done_to_it():
    g = game(
        {
            "costs": "ignore",
            "cards": {"Duress": DURESS, "Grizzly Bears": BEARS},
            "state": {"hand": {"Ana": ["Duress"], "Ben": ["Grizzly Bears"]}},
        }
    )
    steps = run(g, "Ana casts Duress targeting Ben", "Ana passes", "Ben passes")
    assert any("there is no card in Ben's hand Ana could choose" in w for w in said(steps)) and g.s.pending is None
    odd = {"type": "Sorcery", "effect": "Target opponent reveals their hand. You choose a nonland card from it."}
    with pytest.raises(ScenarioError) as info:
        game({"cards": {"Odd": odd}, "state": {"hand": {"Ana": ["Odd"]}}})
    assert "a card chosen from a hand and nothing done to it is not modelled" in info.value.message


AVEN_SURVEYOR = {
    "type": "Creature — Bird Scout",
    "cost": "{3}{U}{U}",
    "power": 2,
    "toughness": 2,
    "effect": "Flying\nWhen Aven Surveyor enters the battlefield, choose one —\n• Put a +1/+1 counter on Aven "
    "Surveyor.\n• Return target creature to its owner's hand.",
}


def test_a_modal_trigger_has_its_mode_chosen_as_it_is_put_on_the_stack():
    g = game(
        {
            "costs": "ignore",
            "cards": {"Aven Surveyor": AVEN_SURVEYOR},
            "state": {"hand": {"Ana": ["Aven Surveyor"]}, "permanents": [bear("Ogre", "Ben", 3, 3)]},
        }
    )
    steps = run(g, "Ana casts Aven Surveyor", "Ana passes", "Ben passes")
    assert g.s.pending == "aim" and "700.2b" in cited(steps)
    legal = g.legal_actions()
    assert 'Ana puts Aven Surveyor trigger on the stack choosing "Put a +1/+1 counter on Aven Surveyor"' in legal
    assert (
        'Ana puts Aven Surveyor trigger on the stack choosing "Return target creature to its owner\'s hand" '
        "targeting Ogre" in legal
    )
    with pytest.raises(ScenarioError) as info:
        g.apply("Ana puts Aven Surveyor trigger on the stack targeting Ogre")
    assert "is modal: say its mode" in info.value.message
    steps = run(
        g, 'Ana puts Aven Surveyor trigger on the stack choosing "2" targeting Ogre', "Ana passes", "Ben passes"
    )
    assert any('chooses the mode "Return target creature to its owner\'s hand"' in w for w in said(steps))
    assert [c.name for c in g.s.hand["Ben"]] == ["Ogre"]


def test_a_modal_trigger_with_no_mode_that_can_be_chosen_is_removed():
    ogre = {
        "type": "Creature — Ogre",
        "cost": "{2}{R}",
        "power": 3,
        "toughness": 2,
        "effect": "When Defiant Ogre enters the battlefield, choose one —\n• Return target creature card from your "
        "graveyard to your hand.\n• Destroy target artifact.",
    }
    g = game({"costs": "ignore", "cards": {"Defiant Ogre": ogre}, "state": {"hand": {"Ana": ["Defiant Ogre"]}}})
    steps = run(g, "Ana casts Defiant Ogre", "Ana passes", "Ben passes")
    assert any("none of its modes can be chosen (no legal targets): it is removed" in w for w in said(steps))
    assert g.s.pending is None and not g.s.stack and g.s.priority == "Ana"


def test_heroic_triggers_when_its_controller_casts_a_spell_that_targets_it():
    hoplite = {
        "type": "Creature — Human Soldier",
        "cost": "{W}{U}",
        "power": 2,
        "toughness": 1,
        "effect": "Heroic — Whenever you cast a spell that targets Battlewise Hoplite, put a +1/+1 counter on "
        "Battlewise Hoplite, then scry 1.",
    }
    boost = {"type": "Instant", "cost": "{W}", "effect": "Target creature gets +1/+1 until end of turn."}
    g = game(
        {
            "costs": "ignore",
            "cards": {"Battlewise Hoplite": hoplite, "Boost": boost},
            "state": {
                "permanents": [{"name": "Battlewise Hoplite", "controller": "Ana"}],
                "hand": {"Ana": ["Boost"], "Ben": ["Boost"]},
                "library": {"Ana": 3, "Ben": 3},
            },
        }
    )
    steps = run(g, "Ana casts Boost targeting Battlewise Hoplite")
    assert any("Battlewise Hoplite trigger triggers" in w for w in said(steps))
    run(g, "Ana passes", "Ben passes")  # the trigger resolves first: a counter, then the scry waits
    assert g.s.find_permanent("Battlewise Hoplite").counters == {"+1/+1": 1} and g.s.pending == "scry"
    run(g, "Ana scries: top card 1", "Ana passes", "Ben passes")
    assert g.s.power(g.s.find_permanent("Battlewise Hoplite")) == 4
    steps = run(g, "Ana passes", "Ben casts Boost targeting Battlewise Hoplite")  # an opponent's spell: no trigger
    assert not any("triggers" in w for w in said(steps))


def test_when_it_becomes_the_target_of_a_spell_or_ability_it_is_sacrificed():
    walker = {
        "type": "Creature — Elemental",
        "cost": "{1}{U}",
        "power": 4,
        "toughness": 1,
        "effect": "When Frost Walker becomes the target of a spell or ability, sacrifice it.",
    }
    shock = {"type": "Instant", "cost": "{R}", "effect": "Shock deals 2 damage to any target."}
    g = game(
        {
            "costs": "ignore",
            "cards": {"Frost Walker": walker, "Shock": shock},
            "state": {"permanents": [{"name": "Frost Walker", "controller": "Ben"}], "hand": {"Ana": ["Shock"]}},
        }
    )
    steps = run(g, "Ana casts Shock targeting Frost Walker", "Ana passes", "Ben passes")
    assert any("Ben sacrifices Frost Walker" in w for w in said(steps))
    assert [c.name for c in g.s.graveyard["Ben"]] == ["Frost Walker"]


def test_the_top_cards_of_a_library_are_put_into_its_owners_graveyard_and_a_target_player_gains_life():
    skaab = {
        "type": "Creature — Zombie Warrior",
        "cost": "{2}{U}",
        "power": 1,
        "toughness": 4,
        "effect": "When Armored Skaab enters the battlefield, put the top four cards of your library into your "
        "graveyard.",
    }
    laquatus = {
        "type": "Sorcery",
        "effect": "Target player puts the top three cards of their library into their graveyard.",
    }
    hands = {"type": "Sorcery", "effect": "Target player gains 4 life.\nDraw a card."}
    g = game(
        {
            "costs": "ignore",
            "cards": {"Armored Skaab": skaab, "Mill Three": laquatus, "Healing Hands": hands},
            "state": {
                "hand": {"Ana": ["Armored Skaab", "Mill Three", "Healing Hands"]},
                "library": {"Ana": 6, "Ben": 2},
            },
        }
    )
    steps = run(g, "Ana casts Armored Skaab", "Ana passes", "Ben passes", "Ana passes", "Ben passes")
    assert len(g.s.library["Ana"]) == 2 and len(g.s.graveyard["Ana"]) == 4
    assert any("Ana puts the top 4 cards of their library into their graveyard" in w for w in said(steps))
    run(g, "Ana casts Mill Three targeting Ben", "Ana passes", "Ben passes")
    assert g.s.library["Ben"] == [] and len(g.s.graveyard["Ben"]) == 2  # as many as there are
    run(g, "Ana casts Healing Hands targeting Ben", "Ana passes", "Ben passes")
    assert g.s.life["Ben"] == 24 and len(g.s.hand["Ana"]) == 1


def test_up_to_two_targets_may_be_two_one_or_none_but_not_one_twice():
    conditions = {"type": "Instant", "cost": "{3}{U}", "effect": "Tap up to two target creatures."}
    g = game(
        {
            "costs": "ignore",
            "cards": {"Adverse Conditions": conditions},
            "state": {
                "hand": {"Ana": ["Adverse Conditions", "Adverse Conditions", "Adverse Conditions"]},
                "permanents": [bear("Bear", "Ben"), bear("Ogre", "Ben", 3, 3)],
            },
        }
    )
    legal = g.legal_actions()
    assert {"Ana casts Adverse Conditions targeting Bear, Ogre", "Ana casts Adverse Conditions targeting Bear"} <= set(
        legal
    )
    assert "Ana casts Adverse Conditions" in legal
    with pytest.raises(IllegalAction) as info:
        g.apply("Ana casts Adverse Conditions targeting Bear, Bear")
    assert "chosen twice" in info.value.message
    run(g, "Ana casts Adverse Conditions targeting Ogre", "Ana passes", "Ben passes")
    assert g.s.find_permanent("Ogre").tapped and not g.s.find_permanent("Bear").tapped
    run(g, "Ana casts Adverse Conditions", "Ana passes", "Ben passes")  # none: it resolves and does nothing
    assert len(g.s.graveyard["Ana"]) == 2 and g.s.pending is None


def test_up_to_two_target_creature_cards_return_from_the_graveyard():
    dutiful = {"type": "Sorcery", "effect": "Return up to two target creature cards from your graveyard to your hand."}
    g = game(
        {
            "costs": "ignore",
            "cards": {"Dutiful Return": dutiful, "Grizzly Bears": BEARS},
            "state": {"hand": {"Ana": ["Dutiful Return"]}, "graveyard": {"Ana": ["Grizzly Bears", "Grizzly Bears"]}},
        }
    )
    run(g, "Ana casts Dutiful Return targeting Grizzly Bears, Grizzly Bears#2", "Ana passes", "Ben passes")
    assert [c.name for c in g.s.hand["Ana"]] == ["Grizzly Bears", "Grizzly Bears#2"]


BLOOD_CRYPT = {
    "type": "Land — Swamp Mountain",
    "effect": "As Blood Crypt enters the battlefield, you may pay 2 life. If you don't, Blood Crypt enters the "
    "battlefield tapped.",
}


@pytest.mark.parametrize("edition, rule", [("2026-02-27", "119.4"), ("2008-10-01", "215.4")])
def test_a_shockland_played_enters_untapped_if_its_player_pays_life(edition, rule):
    g = game({"cards": {"Blood Crypt": BLOOD_CRYPT}, "state": {"hand": {"Ana": ["Blood Crypt"]}}}, edition)
    assert {"Ana plays Blood Crypt", "Ana plays Blood Crypt paying 2 life"} <= set(g.legal_actions())
    steps = run(g, "Ana plays Blood Crypt paying 2 life")
    crypt = g.s.find_permanent("Blood Crypt")
    assert not crypt.tapped and g.s.life["Ana"] == 18 and rule in cited(steps)
    assert any("Ana pays 2 life as Blood Crypt enters (20 -> 18): it enters untapped" in w for w in said(steps))


def test_a_shockland_played_without_paying_enters_tapped_and_too_little_life_cannot_pay():
    g = game({"cards": {"Blood Crypt": BLOOD_CRYPT}, "state": {"hand": {"Ana": ["Blood Crypt"]}, "life": {"Ana": 1}}})
    with pytest.raises(IllegalAction) as info:
        g.apply("Ana plays Blood Crypt paying 2 life")
    assert "cannot pay 2 life with 1 life" in info.value.message
    steps = run(g, "Ana plays Blood Crypt")
    assert g.s.find_permanent("Blood Crypt").tapped and g.s.life["Ana"] == 1
    assert any("Blood Crypt enters tapped: Ana chose not to pay 2 life" in w for w in said(steps))


def test_the_player_discarding_chooses_the_cards_unless_the_hand_has_no_more():
    command = {"type": "Sorcery", "cost": "{1}{B}", "effect": "Target player discards two cards."}
    loot = {"type": "Sorcery", "cost": "{U}", "effect": "Draw a card, then discard a card."}
    g = game(
        {
            "costs": "ignore",
            "cards": {"Mind Rot": command, "Loot": loot, "Grizzly Bears": BEARS},
            "state": {
                "hand": {"Ana": ["Mind Rot", "Loot"], "Ben": ["Grizzly Bears", "Mountain", "Forest"]},
                "library": {"Ana": ["Grizzly Bears"], "Ben": 2},
            },
        }
    )
    steps = run(g, "Ana casts Mind Rot targeting Ben", "Ana passes", "Ben passes")
    assert (
        g.s.pending == "discard"
        and g.s.deciding == "Ben"
        and "Ben discards Grizzly Bears, Mountain" in g.legal_actions()
    )
    with pytest.raises(ScenarioError) as info:
        g.apply("Ben discards Forest")
    assert "Ben discards 2 card(s), 1 named" in info.value.message
    steps = run(g, "Ben discards Mountain, Forest")
    assert [c.name for c in g.s.hand["Ben"]] == ["Grizzly Bears"] and "701.9a" in cited(steps)
    steps = run(g, "Ana casts Loot", "Ana passes", "Ben passes")  # Ana holds one card then: no choice
    assert any("Loot: Ana discards Grizzly Bears" in w for w in said(steps)) and g.s.pending is None


IMPULSE = {
    "type": "Sorcery",
    "cost": "{G}",
    "effect": "Look at the top three cards of your library. You may reveal a creature or land card from among them "
    "and put it into your hand. Put the rest on the bottom of your library in any order.",
}


def test_looking_at_the_top_cards_its_controller_takes_one_that_fits_and_orders_the_rest_on_the_bottom():
    g = game(
        {
            "costs": "ignore",
            "cards": {
                "Adventurous Impulse": IMPULSE,
                "Grizzly Bears": BEARS,
                "Shock": {"type": "Instant", "effect": "Shock deals 2 damage to any target."},
            },
            "state": {
                "hand": {"Ana": ["Adventurous Impulse"]},
                "library": {"Ana": ["Shock", "Grizzly Bears", "Island", "Forest"]},
            },
        }
    )
    steps = run(g, "Ana casts Adventurous Impulse", "Ana passes", "Ben passes")
    assert g.s.pending == "look" and any(
        "looks at the top 3 cards of their library (Shock, Grizzly Bears, Island)" in w for w in said(steps)
    )
    assert (
        "Ana takes Grizzly Bears; bottom Shock, Island" in g.legal_actions()
        and "Ana takes nothing; bottom Shock, Grizzly Bears, Island" in g.legal_actions()
    )
    with pytest.raises(ScenarioError):
        g.apply("Ana takes Shock; bottom Grizzly Bears, Island")  # not a creature or land card
    with pytest.raises(ScenarioError) as info:
        g.apply("Ana takes Island")
    assert "say the order of the rest, '; bottom Shock, Grizzly Bears'" in info.value.message
    run(g, "Ana takes Island; bottom Grizzly Bears, Shock")
    assert [c.name for c in g.s.hand["Ana"]] == ["Island"]
    assert [c.name for c in g.s.library["Ana"]] == ["Forest", "Grizzly Bears", "Shock"]


def test_all_the_cards_that_fit_go_to_the_hand_and_the_rest_to_the_graveyard_with_nothing_to_choose():
    hunt = {
        "type": "Sorcery",
        "effect": "Reveal the top three cards of your library. Put all creature cards revealed this way into your hand and the rest into your graveyard.",
    }
    g = game(
        {
            "costs": "ignore",
            "cards": {"Beast Hunt": hunt, "Grizzly Bears": BEARS},
            "state": {
                "hand": {"Ana": ["Beast Hunt"]},
                "library": {"Ana": ["Grizzly Bears", "Island", "Grizzly Bears", "Forest"]},
            },
        }
    )
    run(g, "Ana casts Beast Hunt", "Ana passes", "Ben passes")
    assert g.s.pending is None and [c.name for c in g.s.hand["Ana"]] == ["Grizzly Bears", "Grizzly Bears#2"]
    assert [c.name for c in g.s.graveyard["Ana"]] == ["Island", "Beast Hunt"] and len(g.s.library["Ana"]) == 1


def test_a_scry_only_if_a_condition_holds_is_refused_not_skipped():
    fated = {
        "type": "Instant",
        "cost": "{1}{R}{R}{R}",
        "effect": "Fated Conflagration deals 5 damage to target creature or planeswalker. If it's your turn, scry 2.",
    }
    with pytest.raises(ScenarioError) as info:
        game({"cards": {"Fated Conflagration": fated}, "state": {"hand": {"Ana": ["Fated Conflagration"]}}})
    assert "scry 2" in info.value.message.lower()


def test_you_may_waits_for_its_controller_to_accept_or_decline():
    saboteur = {
        "type": "Creature — Human Rogue",
        "cost": "{1}{U}",
        "power": 2,
        "toughness": 1,
        "effect": "When Angler Drake enters the battlefield, you may return target creature to its owner's hand.",
    }
    g = game(
        {
            "costs": "ignore",
            "cards": {"Angler Drake": saboteur},
            "state": {"hand": {"Ana": ["Angler Drake", "Angler Drake"]}, "permanents": [bear("Ogre", "Ben", 3, 3)]},
        }
    )
    run(
        g,
        "Ana casts Angler Drake",
        "Ana passes",
        "Ben passes",
        "Ana puts Angler Drake trigger on the stack targeting Ogre",
    )
    steps = run(g, "Ana passes", "Ben passes")
    assert g.s.pending == "may" and g.legal_actions() == ["Ana accepts", "Ana declines"]
    assert any("Ana may return target creature to its owner's hand; Ana chooses" in w for w in said(steps))
    assert "608.2d" in cited(steps)
    run(g, "Ana declines")
    assert g.s.find_permanent("Ogre") is not None and g.s.pending is None
    run(
        g,
        "Ana casts Angler Drake",
        "Ana passes",
        "Ben passes",
        "Ana puts Angler Drake#2 trigger on the stack targeting Ogre",
        "Ana passes",
        "Ben passes",
    )
    run(g, "Ana accepts")
    assert g.s.find_permanent("Ogre") is None and [c.name for c in g.s.hand["Ben"]] == ["Ogre"]


def test_rally_itself_or_another_ally_entering_triggers_and_you_may_put_a_counter():
    brigand = {
        "type": "Creature — Human Warrior Ally",
        "cost": "{1}{B}",
        "power": 1,
        "toughness": 1,
        "effect": "Whenever Bojuka Brigand or another Ally enters the battlefield under your control, you may put a "
        "+1/+1 counter on Bojuka Brigand.",
    }
    other = {"type": "Creature — Kor Ally", "cost": "{W}", "power": 1, "toughness": 1}
    g = game(
        {
            "costs": "ignore",
            "cards": {"Bojuka Brigand": brigand, "Kor Ally": other, "Grizzly Bears": BEARS},
            "state": {"hand": {"Ana": ["Bojuka Brigand", "Kor Ally", "Grizzly Bears"]}},
        }
    )
    steps = run(g, "Ana casts Bojuka Brigand", "Ana passes", "Ben passes")
    assert any("Bojuka Brigand trigger triggers" in w for w in said(steps))
    run(g, "Ana passes", "Ben passes", "Ana accepts")
    run(g, "Ana casts Grizzly Bears", "Ana passes", "Ben passes")  # not an Ally: no trigger
    assert g.s.pending is None and not g.s.stack
    run(g, "Ana casts Kor Ally", "Ana passes", "Ben passes", "Ana passes", "Ben passes", "Ana accepts")
    assert g.s.find_permanent("Bojuka Brigand").counters == {"+1/+1": 2}


def test_if_you_do_after_you_may_follows_the_answer():
    careful = {"type": "Sorcery", "effect": "You may draw a card. If you do, you lose 3 life."}
    g = game(
        {
            "costs": "ignore",
            "cards": {"Careful Study": careful},
            "state": {"hand": {"Ana": ["Careful Study", "Careful Study"]}, "library": {"Ana": 3}},
        }
    )
    run(g, "Ana casts Careful Study", "Ana passes", "Ben passes", "Ana declines")
    assert g.s.life["Ana"] == 20 and len(g.s.hand["Ana"]) == 1
    run(g, "Ana casts Careful Study", "Ana passes", "Ben passes", "Ana accepts")
    assert g.s.life["Ana"] == 17 and len(g.s.hand["Ana"]) == 1


def test_a_counter_of_any_kind_is_put_on_a_permanent_without_changing_its_power():
    clock = {
        "type": "Artifact",
        "cost": "{2}",
        "ability": {"cost": "{T}", "effect": "Put a charge counter on Grindclock."},
    }
    g = game({"costs": "ignore", "cards": {"Grindclock": clock}, "state": {"permanents": [{"name": "Grindclock"}]}})
    steps = run(g, "Ana activates Grindclock", "Ana passes", "Ben passes")
    assert g.s.find_permanent("Grindclock").counters == {"charge": 1}
    assert any("puts 1 charge counter on Grindclock (1 in all)" in w for w in said(steps))
    with pytest.raises(ScenarioError) as info:
        game({"cards": {"Odd": {"type": "Instant", "effect": "Put a poison counter on target player."}}})
    assert "counters put on a player are not modelled" in info.value.message


SEEKER = {
    "type": "Creature — Human Pirate",
    "cost": "{2}{B}",
    "power": 2,
    "toughness": 2,
    "effect": "When Brazen Buccaneers enters the battlefield, it explores.",
}


def test_a_creature_that_explores_puts_a_land_into_the_hand_or_gets_a_counter_and_its_controller_chooses():
    g = game(
        {
            "costs": "ignore",
            "cards": {"Brazen Buccaneers": SEEKER, "Grizzly Bears": BEARS},
            "state": {
                "hand": {"Ana": ["Brazen Buccaneers", "Brazen Buccaneers"]},
                "library": {"Ana": ["Island", "Grizzly Bears", "Forest"]},
            },
        }
    )
    steps = run(g, "Ana casts Brazen Buccaneers", "Ana passes", "Ben passes", "Ana passes", "Ben passes")
    assert any("reveals Island, a land card, and puts it into their hand" in w for w in said(steps))
    assert "701.44a" in cited(steps) and g.s.find_permanent("Brazen Buccaneers").counters == {}
    steps = run(g, "Ana casts Brazen Buccaneers", "Ana passes", "Ben passes", "Ana passes", "Ben passes")
    assert any(
        "reveals Grizzly Bears, not a land card; a +1/+1 counter is put on Brazen Buccaneers#2" in w
        for w in said(steps)
    )
    assert g.s.pending == "may" and g.legal_actions() == ["Ana accepts", "Ana declines"]
    run(g, "Ana accepts")
    assert [c.name for c in g.s.graveyard["Ana"]] == ["Grizzly Bears"] and [c.name for c in g.s.library["Ana"]] == [
        "Forest"
    ]


def test_explore_is_refused_under_rules_before_it_came():
    with pytest.raises(ScenarioError) as info:
        game({"cards": {"Brazen Buccaneers": SEEKER}, "state": {"hand": {"Ana": ["Brazen Buccaneers"]}}}, "2008-10-01")
    assert 'the keyword action "explore" is not in the 2008-10-01 Comprehensive Rules' in info.value.message


def test_any_number_of_the_cards_looked_at_into_the_graveyard_and_the_rest_back_on_top_in_order():
    plan = {
        "type": "Sorcery",
        "cost": "{1}{U}",
        "effect": "Look at the top three cards of your library. Put any number of them into your graveyard and the "
        "rest back on top of your library in any order.",
    }
    g = game(
        {
            "costs": "ignore",
            "cards": {"Taigam's Scheming": plan},
            "state": {
                "hand": {"Ana": ["Taigam's Scheming"]},
                "library": {"Ana": ["Island", "Forest", "Swamp", "Plains"]},
            },
        }
    )
    run(g, "Ana casts Taigam's Scheming", "Ana passes", "Ben passes")
    assert "Ana takes Forest; top Island, Swamp" in g.legal_actions()
    run(g, "Ana takes Forest; top Swamp, Island")
    assert [c.name for c in g.s.library["Ana"]] == ["Swamp", "Island", "Plains"]
    assert [c.name for c in g.s.graveyard["Ana"]] == ["Forest", "Taigam's Scheming"]
