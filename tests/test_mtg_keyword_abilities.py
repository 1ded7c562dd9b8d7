"""Keyword abilities that come with reminder text on real cards (issue 23): each one's behaviour as a judge
sees it, the steps and the rules they cite, and the keyword refused under an edition before it came.
The cards are real cards' Oracle text (MTGJSON v3), reminder text and all."""

from __future__ import annotations

import pytest

from engine.core import ScenarioError, ask
from tests.test_engine_mtg import NEW, OLD, game, run
from tests.test_mtg_card_text import bear, cited, said

# -- keywords that pay part of a spell's cost (601.2h) ---------------------------------------------------------
GATHER_COURAGE = {  # Gather Courage (M15)
    "type": "Instant",
    "cost": "{G}",
    "keywords": ["Convoke"],
    "effect": "Target creature gets +2/+2 until end of turn.",
}
TREASURE_CRUISE = {"type": "Sorcery", "cost": "{7}{U}", "keywords": ["Delve"], "effect": "Draw three cards."}
METALLIC_REBUKE = {  # Metallic Rebuke (AER)
    "type": "Instant",
    "cost": "{2}{U}",
    "keywords": ["Improvise"],
    "effect": "Counter target spell unless its controller pays {3}.",
}


@pytest.mark.parametrize("edition, rule", [(NEW, "702.51a"), (OLD, "502.46a")])
def test_convoke_taps_a_creature_of_the_spells_colour_for_its_coloured_mana(edition, rule):
    g = game(
        {
            "cards": {"Gather Courage": GATHER_COURAGE},
            "state": {
                "hand": {"Ana": ["Gather Courage"]},
                "permanents": [
                    bear("Elf", "Ana", 1, 1, color="green"),
                    bear("Bear B", "Ben"),
                    {"name": "Island", "controller": "Ana"},
                ],
                "library": {"Ana": 5, "Ben": 5},
            },
        },
        edition,
    )
    steps = run(g, "Ana casts Gather Courage targeting Elf")
    assert steps[0].legal
    assert "Ana pays {G} for Gather Courage by tapping Elf for {G} (convoke)" in said(steps)
    assert rule in cited(steps)
    assert g.s.find_permanent("Elf").tapped and not g.s.find_permanent("Island").tapped


def test_convoke_never_taps_a_creature_for_a_colour_it_lacks_and_the_spell_is_refused():
    g = game(
        {
            "cards": {"Gather Courage": GATHER_COURAGE},
            "state": {
                "hand": {"Ana": ["Gather Courage"]},
                "permanents": [bear("Bear A", "Ana", color="white"), {"name": "Island", "controller": "Ana"}],
                "library": {"Ana": 5, "Ben": 5},
            },
        }
    )
    legal, _, refusal = ask(g, "Ana casts Gather Courage targeting Bear A")
    assert not legal and refusal.reason == "cast.pay"


def test_delve_exiles_graveyard_cards_for_generic_mana_after_the_lands():
    g = game(
        {
            "cards": {"Treasure Cruise": TREASURE_CRUISE},
            "state": {
                "hand": {"Ana": ["Treasure Cruise"]},
                "graveyard": {"Ana": [f"Old Card#{i}" for i in range(1, 7)]},
                "permanents": [{"name": "Island", "controller": "Ana"}, {"name": "Island#2", "controller": "Ana"}],
                "library": {"Ana": 5, "Ben": 5},
            },
        }
    )
    steps = run(g, "Ana casts Treasure Cruise")
    (paid,) = [e for s in steps for e in s.events if "pays" in e.what]
    assert paid.what.count("from the graveyard for {1} (delve)") == 6 and "702.66a" in paid.rules
    assert len(g.s.graveyard["Ana"]) == 0 and len(g.s.exile["Ana"]) == 6


def test_delve_cannot_pay_coloured_mana():
    g = game(
        {
            "cards": {"Treasure Cruise": TREASURE_CRUISE},
            "state": {
                "hand": {"Ana": ["Treasure Cruise"]},
                "graveyard": {"Ana": [f"Old Card#{i}" for i in range(1, 10)]},
                "permanents": [{"name": "Mountain", "controller": "Ana"}],
                "library": {"Ana": 5, "Ben": 5},
            },
        }
    )
    assert ask(g, "Ana casts Treasure Cruise")[2].reason == "cast.pay"


def test_improvise_taps_artifacts_for_generic_mana_only_and_is_refused_under_2008():
    artifact = {"name": "Servo", "controller": "Ana", "type": "artifact"}
    g = game(
        {
            "cards": {
                "Metallic Rebuke": METALLIC_REBUKE,
                "Shock": {"type": "instant", "cost": "R", "effect": "deal 2 damage to any target"},
            },
            "turn": {"player": "Ben", "phase": "main1"},
            "costs": None,
            "state": {
                "hand": {"Ana": ["Metallic Rebuke"], "Ben": ["Shock"]},
                "permanents": [artifact, {**artifact, "name": "Servo#2"}, {"name": "Island", "controller": "Ana"}],
                "library": {"Ana": 5, "Ben": 5},
            },
        }
    )
    steps = run(g, "Ben casts Shock targeting Ana", "Ben passes", "Ana casts Metallic Rebuke targeting Shock")
    assert steps[-1].legal
    assert (
        "Ana pays {2}{U} for Metallic Rebuke by tapping Island for {U} and tapping Servo for {1} (improvise) and "
        "tapping Servo#2 for {1} (improvise)" in said(steps)
    )
    assert "702.126a" in cited(steps)
    with pytest.raises(ScenarioError) as info:
        game({"cards": {"Metallic Rebuke": METALLIC_REBUKE}, "state": {"hand": {"Ana": ["Metallic Rebuke"]}}}, OLD)
    assert 'keyword "improvise" is not in the 2008-10-01 Comprehensive Rules' in info.value.message


# -- keywords that stand for a triggered ability (603) ---------------------------------------------------------
def until(g, steps, words: str, most: int = 10):
    """Pass (whoever may) until an event says ``words``."""
    for _ in range(most):
        if any(words in w for w in said(steps)):
            break
        steps += run(g, next(a for a in g.legal_actions() if a.endswith("passes")))
    return steps


ACCORDER_PALADIN = {  # MBS
    "type": "Creature — Human Knight",
    "cost": "{1}{W}",
    "power": 3,
    "toughness": 1,
    "effect": "Battle cry (Whenever this creature attacks, each other attacking creature gets +1/+0 until end of "
    "turn.)",
}
KHENRA_ETERNAL = {  # HOU, its afflict
    "type": "Creature — Zombie Jackal Warrior",
    "cost": "{1}{B}",
    "power": 2,
    "toughness": 2,
    "effect": "Afflict 1 (Whenever this creature becomes blocked, defending player loses 1 life.)",
}


def test_battle_cry_gives_each_other_attacking_creature_plus_one_and_never_before_it_came():
    data = {
        "turn": {"player": "Ana", "phase": "declare_attackers"},
        "cards": {"Accorder Paladin": ACCORDER_PALADIN},
        "state": {
            "permanents": [
                {"name": "Accorder Paladin", "controller": "Ana"},
                bear("Bear A", "Ana"),
                bear("Bear B", "Ana"),
            ],
            "library": {"Ana": 10, "Ben": 10},
        },
    }
    g = game(data)
    steps = until(g, run(g, "Ana attacks with Accorder Paladin, Bear A"), "Bear A gets +1/+0")
    words = said(steps)
    assert any(w.startswith("Accorder Paladin battle cry triggers (Ana controls it)") for w in words)
    assert "702.91a" in cited(steps)
    paladin, bear_a, bear_b = (g.s.find_permanent(n) for n in ("Accorder Paladin", "Bear A", "Bear B"))
    assert (g.s.power(bear_a), g.s.power(paladin), g.s.power(bear_b)) == (3, 3, 2)
    with pytest.raises(ScenarioError) as info:
        game(data, OLD)
    assert 'keyword "battle cry" is not in the 2008-10-01 Comprehensive Rules' in info.value.message


def test_afflict_makes_the_defending_player_lose_life_once_however_many_block():
    data = {
        "turn": {"player": "Ana", "phase": "declare_attackers"},
        "cards": {"Khenra Eternal": KHENRA_ETERNAL},
        "state": {
            "permanents": [{"name": "Khenra Eternal", "controller": "Ana"}, bear("Wall", "Ben"), bear("Wall#2", "Ben")],
            "library": {"Ana": 10, "Ben": 10},
        },
    }
    g = game(data)
    steps = run(g, "Ana attacks with Khenra Eternal", "Ana passes", "Ben passes")
    steps += run(g, "Ben blocks Khenra Eternal with Wall, Khenra Eternal with Wall#2")
    steps = until(g, steps, "Ben loses 1 life")
    words = said(steps)
    assert [w for w in words if "afflict 1 triggers" in w] == [
        "Khenra Eternal afflict 1 triggers (Ana controls it): defending player loses 1 life"
    ]
    assert "Ben loses 1 life (20 -> 19)" in words and "702.130a" in cited(steps)


# -- bestow: an alternative cost that makes a creature card an Aura spell (702.103) -----------------------------
BOON_SATYR = {  # THS
    "type": "Enchantment Creature — Satyr",
    "cost": "{1}{G}{G}",
    "power": 4,
    "toughness": 2,
    "effect": "Flash\nBestow {3}{G}{G} (If you cast this card for its bestow cost, it's an Aura spell with enchant "
    "creature. It becomes a creature again if it's not attached to a creature.)\nEnchanted creature gets +4/+2.",
}
MURDER = {"type": "Instant", "cost": "{1}{B}{B}", "effect": "Destroy target creature."}


def bestow_game(edition: str = NEW):
    return game(
        {
            "costs": "ignore",
            "cards": {"Boon Satyr": BOON_SATYR, "Murder": MURDER},
            "state": {
                "hand": {"Ana": ["Boon Satyr"], "Ben": ["Murder"]},
                "permanents": [bear("Bear A", "Ana")],
                "library": {"Ana": 10, "Ben": 10},
            },
        },
        edition,
    )


def test_a_creature_cast_bestowed_is_an_aura_and_a_creature_again_when_its_host_leaves():
    g = bestow_game()
    steps = run(g, "Ana casts Boon Satyr bestowed targeting Bear A", "Ana passes", "Ben passes")
    words = said(steps)
    assert any("Ana casts Boon Satyr bestowed, for its bestow cost" in w for w in words)
    assert "Boon Satyr enters the battlefield under Ana's control attached to Bear A" in words
    satyr, bear_a = g.s.find_permanent("Boon Satyr"), g.s.find_permanent("Bear A")
    assert not satyr.is_a("creature") and satyr.attached_to == bear_a.oid
    assert (g.s.power(bear_a), g.s.toughness(bear_a)) == (6, 4) and "702.103a" in cited(steps)
    steps = run(g, "Ana passes", "Ben casts Murder targeting Bear A", "Ben passes", "Ana passes")
    words = said(steps)
    assert any(
        w.startswith("Boon Satyr is a bestowed Aura and it is not attached to anything: it becomes") for w in words
    )
    satyr = g.s.find_permanent("Boon Satyr")
    assert satyr is not None and satyr.is_a("creature") and satyr.attached_to is None
    assert (g.s.power(satyr), g.s.toughness(satyr)) == (4, 2) and "702.103f" in cited(steps)


def test_a_bestowed_aura_spell_whose_target_left_resolves_as_a_creature():
    g = bestow_game()
    steps = run(g, "Ana casts Boon Satyr bestowed targeting Bear A", "Ana passes", "Ben casts Murder targeting Bear A")
    steps += run(g, "Ben passes", "Ana passes", "Ana passes", "Ben passes")
    words = said(steps)
    assert any("it ceases to be bestowed and resolves as a creature spell" in w for w in words)
    assert "Boon Satyr enters the battlefield under Ana's control" in words
    assert g.s.find_permanent("Boon Satyr").is_a("creature") and "702.103e" in cited(steps)


def test_bestow_is_cast_only_by_a_card_that_has_it_and_not_before_theros():
    g = bestow_game()
    with pytest.raises(ScenarioError) as info:
        g.apply("Ben casts Murder bestowed targeting Bear A")
    assert "Murder has no bestow" in info.value.message
    with pytest.raises(ScenarioError) as info:
        bestow_game(OLD)
    assert 'keyword "bestow {3}{G}{G}" is not in the 2008-10-01 Comprehensive Rules' in info.value.message


# -- dash: an alternative cost, haste, and a delayed trigger at the next end step (702.109a) -------------------
MARDU_SCOUT = {  # DTK
    "type": "Creature — Goblin Scout",
    "cost": "{R}{R}",
    "power": 3,
    "toughness": 1,
    "effect": "Dash {1}{R} (You may cast this spell for its dash cost. If you do, it gains haste, and it's returned "
    "from the battlefield to its owner's hand at the beginning of the next end step.)",
}


def test_a_dashed_creature_has_haste_and_returns_to_its_owners_hand_at_the_next_end_step():
    g = game(
        {
            "cards": {"Mardu Scout": MARDU_SCOUT},
            "state": {
                "hand": {"Ana": ["Mardu Scout"]},
                "permanents": [{"name": "Mountain", "controller": "Ana"}, {"name": "Mountain#2", "controller": "Ana"}],
                "library": {"Ana": 10, "Ben": 10},
            },
        }
    )
    steps = run(g, "Ana casts Mardu Scout dashed", "Ana passes", "Ben passes")
    words = said(steps)
    assert any(w.startswith("Ana casts Mardu Scout for its dash cost") for w in words)
    assert any("Ana pays {1}{R} for Mardu Scout" in w for w in words) and "702.109a" in cited(steps)
    scout = g.s.find_permanent("Mardu Scout")
    assert g.s.has(scout, "haste")
    steps = run(g, "Ana moves to declare_attackers", "Ana attacks with Mardu Scout")
    assert steps[-1].legal
    steps = until(g, run(g, "Ana moves to end"), "Mardu Scout dash resolves", 6)
    words = said(steps)
    assert any(w.startswith("Mardu Scout dash triggers (Ana controls it; its dash cost was paid)") for w in words)
    assert g.s.find_permanent("Mardu Scout") is None and [c.name for c in g.s.hand["Ana"]] == ["Mardu Scout"]


def test_a_creature_cast_for_its_mana_cost_is_not_dashed():
    g = game(
        {
            "costs": "ignore",
            "cards": {"Mardu Scout": MARDU_SCOUT},
            "state": {"hand": {"Ana": ["Mardu Scout"]}, "library": {"Ana": 10, "Ben": 10}},
        }
    )
    run(g, "Ana casts Mardu Scout", "Ana passes", "Ben passes")
    steps = run(g, "Ana moves to end")
    assert not any("dash" in w for w in said(steps)) and g.s.find_permanent("Mardu Scout") is not None


# -- unleash: a choice as it is cast, a counter as it enters, no blocking with it (702.98a) --------------------
GORE_HOUSE_CHAINWALKER = {  # RTR
    "type": "Creature — Human Warrior",
    "cost": "{1}{R}",
    "power": 2,
    "toughness": 1,
    "effect": "Unleash (You may have this creature enter the battlefield with a +1/+1 counter on it. It can't block "
    "as long as it has a +1/+1 counter on it.)",
}


@pytest.mark.parametrize("unleashed", [True, False])
def test_an_unleashed_creature_enters_with_a_counter_and_cannot_block(unleashed):
    g = game(
        {
            "costs": "ignore",
            "turn": {"player": "Ben", "phase": "main1"},
            "cards": {"Gore-House Chainwalker": GORE_HOUSE_CHAINWALKER},
            "state": {
                "hand": {"Ben": ["Gore-House Chainwalker"]},
                "permanents": [bear("Bear A", "Ana"), bear("Bear B", "Ben")],
                "library": {"Ana": 10, "Ben": 10},
            },
        }
    )
    cast = "Ben casts Gore-House Chainwalker" + (" unleashed" if unleashed else "")
    steps = run(g, cast, "Ben passes", "Ana passes")
    chainwalker = g.s.find_permanent("Gore-House Chainwalker")
    assert g.s.power(chainwalker) == (3 if unleashed else 2)
    assert ("702.98a" in cited(steps)) == unleashed
    run(g, "Ben moves to end", "Ben passes", "Ana passes")
    run(g, "Ana moves to declare_attackers", "Ana attacks with Bear A", "Ana passes", "Ben passes")
    legal, _, refusal = ask(g, "Ben blocks Bear A with Gore-House Chainwalker")
    assert legal != unleashed
    if unleashed:
        assert "it has unleash and a +1/+1 counter on it" in refusal.message and "702.98a" in refusal.rules


# -- kicker: an additional cost, and what the card does if it was kicked (702.33) -------------------------------
ACADEMY_DRAKE = {  # DOM
    "type": "Creature — Drake",
    "cost": "{2}{U}",
    "power": 2,
    "toughness": 2,
    "effect": "Kicker {4} (You may pay an additional {4} as you cast this spell.)\nFlying\nIf Academy Drake was "
    "kicked, it enters the battlefield with two +1/+1 counters on it.",
}
INTO_THE_ROIL = {  # ZEN
    "type": "Instant",
    "cost": "{1}{U}",
    "keywords": ["Kicker {1}{U}"],
    "effect": "Return target nonland permanent to its owner's hand. If this spell was kicked, draw a card.",
}
KOR_SANCTIFIERS = {  # ZEN
    "type": "Creature — Kor Cleric",
    "cost": "{2}{W}",
    "power": 2,
    "toughness": 3,
    "effect": "Kicker {W} (You may pay an additional {W} as you cast this spell.)\nWhen Kor Sanctifiers enters the "
    "battlefield, if it was kicked, destroy target artifact or enchantment.",
}


def islands(n: int) -> list[dict]:
    return [{"name": "Island" + (f"#{i}" if i > 1 else ""), "controller": "Ana"} for i in range(1, n + 1)]


@pytest.mark.parametrize("kicked, lands, power", [(True, 7, 4), (False, 3, 2)])
def test_a_kicked_creature_pays_its_kicker_cost_and_enters_with_the_counters(kicked, lands, power):
    g = game(
        {
            "cards": {"Academy Drake": ACADEMY_DRAKE},
            "state": {
                "hand": {"Ana": ["Academy Drake"]},
                "permanents": islands(lands),
                "library": {"Ana": 5, "Ben": 5},
            },
        }
    )
    steps = run(g, "Ana casts Academy Drake" + (" kicked" if kicked else ""), "Ana passes", "Ben passes")
    words = said(steps)
    assert any(w.startswith(f"Ana pays {{{6 if kicked else 2}}}{{U}} for Academy Drake") for w in words)
    assert (g.s.power(g.s.find_permanent("Academy Drake")), "702.33a" in cited(steps)) == (power, True)
    assert any(("enters with 2 +1/+1 counters" if kicked else "was not kicked") in w for w in words)


def test_kicking_needs_the_mana_for_the_kicker_cost_too():
    g = game(
        {
            "cards": {"Academy Drake": ACADEMY_DRAKE},
            "state": {"hand": {"Ana": ["Academy Drake"]}, "permanents": islands(6), "library": {"Ana": 5, "Ben": 5}},
        }
    )
    assert ask(g, "Ana casts Academy Drake kicked")[2].reason == "cast.pay"


@pytest.mark.parametrize("kicked", [True, False])
def test_if_this_spell_was_kicked_is_checked_as_it_resolves(kicked):
    g = game(
        {
            "costs": "ignore",
            "cards": {"Into the Roil": INTO_THE_ROIL},
            "state": {
                "hand": {"Ana": ["Into the Roil"]},
                "permanents": [bear("Bear B", "Ben")],
                "library": {"Ana": 5, "Ben": 5},
            },
        }
    )
    steps = run(g, f"Ana casts Into the Roil{' kicked' if kicked else ''} targeting Bear B", "Ana passes", "Ben passes")
    words = said(steps)
    assert ("Into the Roil: it is true that Into the Roil was kicked" in words) == kicked
    assert len(g.s.hand["Ana"]) == (1 if kicked else 0) and g.s.find_permanent("Bear B") is None


@pytest.mark.parametrize("kicked", [True, False])
def test_an_enters_trigger_if_it_was_kicked_triggers_only_if_it_was(kicked):
    g = game(
        {
            "costs": "ignore",
            "cards": {"Kor Sanctifiers": KOR_SANCTIFIERS},
            "state": {
                "hand": {"Ana": ["Kor Sanctifiers"]},
                "permanents": [{"name": "Relic", "controller": "Ben", "type": "artifact"}],
                "library": {"Ana": 5, "Ben": 5},
            },
        }
    )
    steps = run(g, f"Ana casts Kor Sanctifiers{' kicked' if kicked else ''}", "Ana passes", "Ben passes")
    if kicked:
        steps += run(g, "Ana puts Kor Sanctifiers trigger on the stack targeting Relic", "Ana passes", "Ben passes")
    words = said(steps)
    assert ("Kor Sanctifiers's ability does not trigger: it is not true that it was kicked" in words) != kicked
    assert (g.s.find_permanent("Relic") is None) == kicked


def test_a_spell_whose_kicked_part_has_a_target_is_refused():
    with pytest.raises(ScenarioError) as info:
        game(
            {
                "cards": {
                    "Odd Spell": {
                        "type": "Instant",
                        "cost": "{R}",
                        "keywords": ["Kicker {1}"],
                        "effect": "Draw a card. If this spell was kicked, destroy target creature.",
                    }
                },
                "state": {"hand": {"Ana": ["Odd Spell"]}},
            }
        )
    assert "a target chosen only if the spell is kicked is not modelled" in info.value.message


# -- rebound: exiled as it resolves, cast again at its owner's next upkeep (702.88a) ---------------------------
STAGGERSHOCK = {  # ROE
    "type": "Instant",
    "cost": "{2}{R}",
    "keywords": ["Rebound"],
    "effect": "Staggershock deals 2 damage to any target.",
}


def rebound_game(edition: str = NEW):
    return game(
        {
            "costs": "ignore",
            "cards": {"Staggershock": STAGGERSHOCK},
            "state": {"hand": {"Ana": ["Staggershock"]}, "library": {"Ana": 10, "Ben": 10}},
        },
        edition,
    )


def to_anas_next_upkeep(g):
    steps = run(g, "Ana moves to upkeep")  # Ben's turn
    steps += run(g, "Ben moves to upkeep")  # Ana's next turn: the rebound trigger
    return until(g, steps, "Staggershock rebound: Ana may cast Staggershock", 6)


def test_a_rebound_spell_cast_from_hand_is_exiled_and_cast_again_at_the_next_upkeep():
    g = rebound_game()
    steps = run(g, "Ana casts Staggershock targeting Ben", "Ana passes", "Ben passes")
    assert any("it is exiled as it resolves" in w for w in said(steps)) and "702.88a" in cited(steps)
    assert [c.name for c in g.s.exile["Ana"]] == ["Staggershock"] and g.s.life["Ben"] == 18
    steps = to_anas_next_upkeep(g)
    words = said(steps)
    assert (
        "Staggershock rebound triggers (Ana controls it): you may cast Staggershock from exile without paying its mana cost"
        in words
    )
    assert "Ana declines" in g.legal_actions()
    steps = run(g, "Ana casts Staggershock targeting Ben")
    assert any("from exile without paying its mana cost, as the ability resolves" in w for w in said(steps))
    steps += run(g, "Ana passes", "Ben passes")
    assert g.s.life["Ben"] == 16 and [c.name for c in g.s.graveyard["Ana"]] == ["Staggershock"]  # no second rebound
    assert not g.s.exile["Ana"]


def test_a_player_may_decline_to_cast_the_rebound_card_and_it_stays_in_exile():
    g = rebound_game()
    run(g, "Ana casts Staggershock targeting Ben", "Ana passes", "Ben passes")
    to_anas_next_upkeep(g)
    assert "Ana must first cast the card offered or decline" in ask(g, "Ana passes")[2].message
    steps = run(g, "Ana declines")
    assert "Ana does not cast it: it stays in exile" in said(steps) and g.s.priority == "Ana"
    assert [c.name for c in g.s.exile["Ana"]] == ["Staggershock"]


def test_rebound_is_refused_before_it_came():
    with pytest.raises(ScenarioError) as info:
        rebound_game(OLD)
    assert 'keyword "rebound" is not in the 2008-10-01 Comprehensive Rules' in info.value.message


# -- madness: a discarded card is exiled, and may be cast for its madness cost (702.35a) ------------------------
FIERY_TEMPER = {  # SOI
    "type": "Instant",
    "cost": "{1}{R}{R}",
    "keywords": ["Madness {R}"],
    "effect": "Fiery Temper deals 3 damage to any target.",
}


@pytest.mark.parametrize("edition, rule", [(NEW, "702.35a"), (OLD, "502.24a")])
def test_a_card_with_madness_discarded_in_cleanup_is_exiled_and_cast_for_its_madness_cost(edition, rule):
    hand = [f"Filler#{i}" for i in range(1, 8)] + ["Fiery Temper"]
    g = game(
        {
            "cards": {
                "Fiery Temper": FIERY_TEMPER,
                "Filler": {"type": "sorcery", "cost": "{9}", "effect": "draw a card"},
            },
            "state": {
                "hand": {"Ana": hand},
                "permanents": [{"name": "Mountain", "controller": "Ana"}],
                "library": {"Ana": 10, "Ben": 10},
            },
        },
        edition,
    )
    steps = until(g, run(g, "Ana moves to end", "Ana passes", "Ben passes"), "Ana may cast Fiery Temper", 8)
    words = said(steps)
    assert any(
        w.startswith("Fiery Temper has madness: it is exiled instead of being put into Ana's graveyard") for w in words
    )
    assert rule in cited(steps)
    steps = run(g, "Ana casts Fiery Temper targeting Ben")
    words = said(steps)
    assert any("Ana pays {R} for Fiery Temper" in w for w in words)
    assert any(w.startswith("Ana casts Fiery Temper from exile for its madness cost") for w in words)
    until(g, steps, "Fiery Temper deals 3 damage to Ben", 6)
    assert g.s.life["Ben"] == 17


def test_a_madness_card_not_cast_goes_to_the_graveyard():
    g = game(
        {
            "costs": "ignore",
            "cards": {
                "Fiery Temper": FIERY_TEMPER,
                "Filler": {"type": "sorcery", "cost": "{9}", "effect": "draw a card"},
            },
            "state": {
                "hand": {"Ana": [f"Filler#{i}" for i in range(1, 8)] + ["Fiery Temper"]},
                "library": {"Ana": 10, "Ben": 10},
            },
        }
    )
    until(g, run(g, "Ana moves to end", "Ana passes", "Ben passes"), "Ana may cast Fiery Temper", 8)
    steps = run(g, "Ana declines")
    assert "Ana does not cast Fiery Temper: it is put into Ana's graveyard" in said(steps)
    assert [c.name for c in g.s.graveyard["Ana"]] == ["Fiery Temper"] and not g.s.exile["Ana"]


# -- overload: an alternative cost that changes "target" to "each" (702.96a) ------------------------------------
ELECTRICKERY = {  # RTR
    "type": "Instant",
    "cost": "{R}",
    "keywords": ["Overload {1}{R}"],
    "effect": "Electrickery deals 1 damage to target creature you don't control.",
}


def overload_game():
    return game(
        {
            "costs": "ignore",
            "cards": {"Electrickery": ELECTRICKERY},
            "state": {
                "hand": {"Ana": ["Electrickery"]},
                "permanents": [bear("Elf", "Ana", 1, 1), bear("Elf B", "Ben", 1, 1), bear("Elf C", "Ben", 1, 1)],
                "library": {"Ana": 5, "Ben": 5},
            },
        }
    )


def test_an_overloaded_spell_has_no_targets_and_affects_each_object_it_named_as_a_target():
    g = overload_game()
    steps = run(g, "Ana casts Electrickery overloaded", "Ana passes", "Ben passes")
    words = said(steps)
    assert any(w.startswith("Ana casts Electrickery for its overload cost") for w in words)
    assert "702.96a" in cited(steps)
    assert g.s.find_permanent("Elf B") is None and g.s.find_permanent("Elf C") is None
    assert g.s.find_permanent("Elf") is not None
    with pytest.raises(ScenarioError) as info:
        overload_game().apply("Ana casts Electrickery overloaded targeting Elf B")
    assert "Electrickery has 0 target(s), 1 given" in info.value.message


def test_a_spell_cast_without_overload_keeps_its_target():
    g = overload_game()
    run(g, "Ana casts Electrickery targeting Elf B", "Ana passes", "Ben passes")
    assert g.s.find_permanent("Elf B") is None and g.s.find_permanent("Elf C") is not None


# -- bloodthirst: enters with counters if an opponent was dealt damage this turn (702.54a) ----------------------
BLOOD_OGRE = {  # M12
    "type": "Creature — Ogre Warrior",
    "cost": "{2}{R}",
    "power": 2,
    "toughness": 2,
    "effect": "Bloodthirst 1 (If an opponent was dealt damage this turn, this creature enters the battlefield with a "
    "+1/+1 counter on it.)\nFirst strike",
}


@pytest.mark.parametrize("edition, rule", [(NEW, "702.54a"), (OLD, "502.50a")])
@pytest.mark.parametrize("shock_first", [True, False])
def test_bloodthirst_counts_damage_dealt_to_an_opponent_this_turn(edition, rule, shock_first):
    g = game(
        {
            "costs": "ignore",
            "cards": {
                "Blood Ogre": BLOOD_OGRE,
                "Shock": {"type": "instant", "cost": "R", "effect": "deal 2 damage to any target"},
            },
            "state": {"hand": {"Ana": ["Blood Ogre", "Shock"]}, "library": {"Ana": 5, "Ben": 5}},
        },
        edition,
    )
    steps = run(g, "Ana casts Shock targeting Ben", "Ana passes", "Ben passes") if shock_first else []
    steps += run(g, "Ana casts Blood Ogre", "Ana passes", "Ben passes")
    ogre = g.s.find_permanent("Blood Ogre")
    assert g.s.power(ogre) == (3 if shock_first else 2) and rule in cited(steps)
    assert any(
        ("Ben was dealt damage this turn" if shock_first else "no opponent was dealt damage") in w for w in said(steps)
    )


# -- evolve: a creature entering with greater power or toughness (702.100a) ------------------------------------
CLOUDFIN_RAPTOR = {  # GTC
    "type": "Creature — Bird Mutant",
    "cost": "{U}",
    "power": 0,
    "toughness": 1,
    "effect": "Flying\nEvolve (Whenever a creature enters the battlefield under your control, if that creature has "
    "greater power or toughness than this creature, put a +1/+1 counter on this creature.)",
}


def evolve_game(edition: str = NEW):
    return game(
        {
            "costs": "ignore",
            "cards": {
                "Cloudfin Raptor": CLOUDFIN_RAPTOR,
                "Grizzly Bears": {"type": "creature", "cost": "{1}{G}", "power": 2, "toughness": 2},
                "Gnat": {"type": "creature", "cost": "{G}", "power": 1, "toughness": 1},
            },
            "state": {
                "hand": {"Ana": ["Grizzly Bears", "Gnat"]},
                "permanents": [{"name": "Cloudfin Raptor", "controller": "Ana"}],
                "library": {"Ana": 5, "Ben": 5},
            },
        },
        edition,
    )


def test_evolve_puts_a_counter_when_a_greater_creature_enters_and_not_otherwise():
    g = evolve_game()
    steps = until(g, run(g, "Ana casts Grizzly Bears", "Ana passes", "Ben passes"), "Cloudfin Raptor evolve resolves")
    steps = until(g, steps, "+1/+1 counter", 4)
    words = said(steps)
    assert any(w.startswith("Cloudfin Raptor evolve triggers (Ana controls it)") for w in words)
    assert "702.100a" in cited(steps)
    raptor = g.s.find_permanent("Cloudfin Raptor")
    assert (g.s.power(raptor), g.s.toughness(raptor)) == (1, 2)
    steps = run(g, "Ana casts Gnat", "Ana passes", "Ben passes")  # 1/1 against 1/2: no greater stat
    assert any("Cloudfin Raptor's evolve does not trigger: Gnat (1/1)" in w for w in said(steps))
    assert g.s.power(g.s.find_permanent("Cloudfin Raptor")) == 1


def test_evolve_is_refused_before_gatecrash():
    with pytest.raises(ScenarioError) as info:
        evolve_game(OLD)
    assert 'keyword "evolve" is not in the 2008-10-01 Comprehensive Rules' in info.value.message


# -- scavenge: an activated ability of a card in the graveyard (702.97a) -----------------------------------------
DREG_MANGLER = {  # RTR
    "type": "Creature — Plant Zombie",
    "cost": "{1}{B}{G}",
    "power": 3,
    "toughness": 3,
    "effect": "Haste\nScavenge {3}{B}{G} ({3}{B}{G}, Exile this card from your graveyard: Put a number of +1/+1 "
    "counters equal to this card's power on target creature. Scavenge only as a sorcery.)",
}


def scavenge_game(phase: str = "main1"):
    return game(
        {
            "costs": "ignore",
            "turn": {"player": "Ana", "phase": phase},
            "cards": {"Dreg Mangler": DREG_MANGLER},
            "state": {
                "graveyard": {"Ana": ["Dreg Mangler"]},
                "permanents": [bear("Bear A", "Ana")],
                "library": {"Ana": 5, "Ben": 5},
            },
        }
    )


def test_scavenge_exiles_the_card_and_puts_counters_equal_to_its_power():
    g = scavenge_game()
    steps = run(g, "Ana activates Dreg Mangler targeting Bear A", "Ana passes", "Ben passes")
    words = said(steps)
    assert any(
        w.startswith("Ana activates Dreg Mangler's scavenge ability: pays {3}{B}{G} and exiles it") for w in words
    )
    assert "702.97a" in cited(steps)
    bear_a = g.s.find_permanent("Bear A")
    assert (g.s.power(bear_a), g.s.toughness(bear_a)) == (5, 5)
    assert [c.name for c in g.s.exile["Ana"]] == ["Dreg Mangler"] and not g.s.graveyard["Ana"]


def test_scavenge_only_as_a_sorcery():
    g = scavenge_game("upkeep")
    legal, _, refusal = ask(g, "Ana activates Dreg Mangler targeting Bear A")
    assert not legal and "602.5d" in refusal.rules and "only as a sorcery" in refusal.message


# -- extort: whenever its controller casts a spell, they may pay {W/B} to drain 1 (702.101a) ---------------------
SYNDIC_OF_TITHES = {  # GTC
    "type": "Creature — Human Cleric",
    "cost": "{1}{W}",
    "power": 2,
    "toughness": 2,
    "effect": "Extort (Whenever you cast a spell, you may pay {W/B}. If you do, each opponent loses 1 life and you "
    "gain that much life.)",
}


def extort_game(lands: list[str], edition: str = NEW):
    return game(
        {
            "cards": {"Syndic of Tithes": SYNDIC_OF_TITHES, **BOLT},
            "state": {
                "hand": {"Ana": ["Shock"]},
                "permanents": [{"name": "Syndic of Tithes", "controller": "Ana"}]
                + [{"name": land, "controller": "Ana"} for land in lands],
                "library": {"Ana": 5, "Ben": 5},
            },
        },
        edition,
    )


BOLT = {"Shock": {"type": "instant", "cost": "R", "effect": "deal 2 damage to any target"}}


@pytest.mark.parametrize("pays", [True, False])
def test_extort_asks_for_w_or_b_and_drains_one_if_paid(pays):
    g = extort_game(["Mountain", "Swamp"])
    steps = run(g, "Ana casts Shock targeting Ben", "Ana passes", "Ben passes")
    words = said(steps)
    assert any(w.startswith("Syndic of Tithes extort triggers (Ana controls it): you may pay {W/B}") for w in words)
    assert "702.101a" in cited(steps) and "Ana does not pay" in g.legal_actions()
    steps = run(g, "Ana pays" if pays else "Ana does not pay")
    words = said(steps)
    if pays:
        assert any("Ana pays {B} for Syndic of Tithes extort by tapping Swamp" in w for w in words)
        assert "Ana gains 1 life, the life lost this way (20 -> 21)" in words
    else:
        assert "Syndic of Tithes extort: Ana did not pay, so this part does nothing" in words
    assert (g.s.life["Ana"], g.s.life["Ben"]) == ((21, 19) if pays else (20, 20))


def test_extort_without_the_mana_is_said_and_does_nothing():
    g = extort_game(["Mountain", "Island"])
    steps = run(g, "Ana casts Shock targeting Ben", "Ana passes", "Ben passes")
    assert "Syndic of Tithes extort: Ana cannot pay {W/B}" in said(steps) and g.s.priority == "Ana"


# -- surge: an alternative cost once its caster has cast another spell this turn (702.117a) ---------------------
CRUSH_OF_TENTACLES = {  # OGW, a surge spell whose text the engine reads
    "type": "Sorcery",
    "cost": "{4}{U}{U}",
    "keywords": ["Surge {3}{U}{U}"],
    "effect": "Draw a card.",
}


def test_surge_needs_another_spell_cast_this_turn():
    g = game(
        {
            "costs": "ignore",
            "cards": {"Surge Spell": CRUSH_OF_TENTACLES, **BOLT},
            "state": {"hand": {"Ana": ["Surge Spell", "Shock"]}, "library": {"Ana": 5, "Ben": 5}},
        }
    )
    legal, _, refusal = ask(g, "Ana casts Surge Spell surged")
    assert not legal and "has cast no other spell this turn" in refusal.message and "702.117a" in refusal.rules
    steps = run(g, "Ana casts Shock targeting Ben", "Ana passes", "Ben passes", "Ana casts Surge Spell surged")
    assert steps[-1].legal and any(
        "for its surge cost (Ana has cast another spell this turn)" in w for w in said(steps)
    )


RECKLESS_BUSHWHACKER = {  # OGW
    "type": "Creature — Goblin Warrior Ally",
    "cost": "{2}{R}",
    "power": 2,
    "toughness": 1,
    "effect": "Surge {1}{R} (You may cast this spell for its surge cost if you or a teammate has cast another spell "
    "this turn.)\nHaste\nWhen Reckless Bushwhacker enters the battlefield, if its surge cost was paid, other "
    "creatures you control get +1/+0 and gain haste until end of turn.",
}


@pytest.mark.parametrize("surged", [True, False])
def test_an_enters_trigger_if_its_surge_cost_was_paid(surged):
    g = game(
        {
            "costs": "ignore",
            "cards": {"Reckless Bushwhacker": RECKLESS_BUSHWHACKER, **BOLT},
            "state": {
                "hand": {"Ana": ["Reckless Bushwhacker", "Shock"]},
                "permanents": [bear("Bear A", "Ana")],
                "library": {"Ana": 5, "Ben": 5},
            },
        }
    )
    steps = run(g, "Ana casts Shock targeting Ben", "Ana passes", "Ben passes")
    steps += run(g, "Ana casts Reckless Bushwhacker" + (" surged" if surged else ""), "Ana passes", "Ben passes")
    steps = until(g, steps, "Reckless Bushwhacker trigger resolves", 4) if surged else steps
    words = said(steps)
    assert any("does not trigger: it is not true that its surge cost was paid" in w for w in words) != surged
    assert g.s.power(g.s.find_permanent("Bear A")) == (3 if surged else 2)


# -- embalm and eternalize: a token copy of the card, from the graveyard (702.128a, 702.129a) -------------------
SACRED_CAT = {  # AKH
    "type": "Creature — Cat",
    "cost": "{W}",
    "power": 1,
    "toughness": 1,
    "effect": "Lifelink\nEmbalm {W} ({W}, Exile this card from your graveyard: Create a token that's a copy of it, "
    "except it's a white Zombie Cat with no mana cost. Embalm only as a sorcery.)",
}
ADORNED_POUNCER = {  # HOU
    "type": "Creature — Cat",
    "cost": "{1}{W}",
    "power": 1,
    "toughness": 1,
    "effect": "Double strike\nEternalize {3}{W}{W} ({3}{W}{W}, Exile this card from your graveyard: Create a token "
    "that's a copy of it, except it's a 4/4 black Zombie Cat with no mana cost. Eternalize only as a sorcery.)",
}


@pytest.mark.parametrize(
    "card, text, rule, stats, colour",
    [
        ("Sacred Cat", SACRED_CAT, "702.128a", (1, 1), "W"),
        ("Adorned Pouncer", ADORNED_POUNCER, "702.129a", (4, 4), "B"),
    ],
)
def test_embalm_and_eternalize_make_a_token_copy_of_the_exiled_card(card, text, rule, stats, colour):
    g = game(
        {
            "costs": "ignore",
            "cards": {card: text},
            "state": {"graveyard": {"Ana": [card]}, "library": {"Ana": 5, "Ben": 5}},
        }
    )
    steps = run(g, f"Ana activates {card}", "Ana passes", "Ben passes")
    assert rule in cited(steps) and "707.2" in cited(steps)
    token = g.s.find_permanent(card)
    assert token is not None and token.token and (g.s.power(token), g.s.toughness(token)) == stats
    assert token.card.colours == {colour} and "zombie" in token.card.subtypes and token.card.cost == ()
    assert token.card.keywords == text_keywords(g, card)
    assert [c.name for c in g.s.exile["Ana"]] == [card]


def text_keywords(g, card):
    return g.s.definition(card).keywords


# -- exploit: may sacrifice a creature as it enters; "when ~ exploits a creature" (702.110) ----------------------
SILUMGAR_BUTCHER = {  # DTK
    "type": "Creature — Zombie Djinn",
    "cost": "{4}{B}",
    "power": 3,
    "toughness": 3,
    "effect": "Exploit (When this creature enters the battlefield, you may sacrifice a creature.)\nWhen Silumgar "
    "Butcher exploits a creature, target creature gets -3/-3 until end of turn.",
}


def exploit_game():
    return game(
        {
            "costs": "ignore",
            "cards": {"Silumgar Butcher": SILUMGAR_BUTCHER},
            "state": {
                "hand": {"Ana": ["Silumgar Butcher"]},
                "permanents": [bear("Bear A", "Ana"), bear("Bear B", "Ben", 3, 3)],
                "library": {"Ana": 5, "Ben": 5},
            },
        }
    )


def test_exploit_sacrifices_the_creature_chosen_and_the_exploits_trigger_follows():
    g = exploit_game()
    steps = until(
        g,
        run(g, "Ana casts Silumgar Butcher", "Ana passes", "Ben passes"),
        "Silumgar Butcher exploit: Ana may sacrifice",
    )
    assert any(w.startswith("Silumgar Butcher exploit triggers (Ana controls it)") for w in said(steps))
    assert "Ana sacrifices Bear A" in g.legal_actions() and "Ana declines" in g.legal_actions()
    steps = run(g, "Ana sacrifices Bear A")
    assert "Ana sacrifices Bear A (Silumgar Butcher exploit)" in said(steps) and "702.110a" in cited(steps)
    steps += run(g, "Ana puts Silumgar Butcher trigger on the stack targeting Bear B", "Ana passes", "Ben passes")
    steps = until(g, steps, "Bear B", 4)
    assert g.s.find_permanent("Bear A") is None and g.s.find_permanent("Bear B") is None


def test_exploit_declined_sacrifices_nothing_and_nothing_else_triggers():
    g = exploit_game()
    until(
        g,
        run(g, "Ana casts Silumgar Butcher", "Ana passes", "Ben passes"),
        "Silumgar Butcher exploit: Ana may sacrifice",
    )
    legal, _, refusal = ask(g, "Ana sacrifices Bear B")
    assert not legal and "it must be a creature Ana controls" in refusal.message
    steps = run(g, "Ana declines")
    assert "Ana does not sacrifice a creature" in said(steps) and g.s.priority == "Ana" and not g.s.pending_triggers
    assert g.s.find_permanent("Bear A") is not None


# -- bolster: a keyword action (701.39a) --------------------------------------------------------------------------
CACHED_DEFENSES = {"type": "Sorcery", "cost": "{2}{G}", "effect": "Bolster 3."}  # FRF


def bolster_game(edition: str = NEW, creatures: tuple = ()):
    return game(
        {
            "costs": "ignore",
            "cards": {"Cached Defenses": CACHED_DEFENSES},
            "state": {
                "hand": {"Ana": ["Cached Defenses"]},
                "permanents": list(creatures)
                or [bear("Bear A", "Ana"), bear("Elf", "Ana", 1, 1), bear("Orc", "Ben", 1, 1)],
                "library": {"Ana": 5, "Ben": 5},
            },
        },
        edition,
    )


def test_bolster_puts_counters_on_the_creature_of_least_toughness_its_controller_controls():
    g = bolster_game()
    steps = run(g, "Ana casts Cached Defenses", "Ana passes", "Ben passes")
    assert (
        "Cached Defenses: Ana bolsters 3: Elf has the least toughness (1) and gets 3 +1/+1 counters (now 4/4)"
        in said(steps)
    )
    assert "701.39a" in cited(steps)


def test_bolster_with_a_tie_says_whose_choice_it_is_and_is_refused_before_fate_reforged():
    g = bolster_game(creatures=(bear("Elf", "Ana", 1, 1), bear("Elf#2", "Ana", 1, 1)))
    steps = run(g, "Ana casts Cached Defenses", "Ana passes", "Ben passes")
    assert any("(Ana chooses among Elf, Elf#2: the first listed)" in w for w in said(steps))
    with pytest.raises(ScenarioError) as info:
        bolster_game(OLD)
    assert 'the keyword action "bolster" is not in the 2008-10-01 Comprehensive Rules' in info.value.message


# -- monstrosity: a keyword action of an activated ability (701.37a) ----------------------------------------------
KEEPSAKE_LIKE = {  # Gluttonous Cyclops (THS), with a "becomes monstrous" trigger of the template's words
    "type": "Creature — Cyclops",
    "cost": "{5}{R}",
    "power": 5,
    "toughness": 4,
    "ability": {"cost": "{5}{R}{R}", "effect": "Monstrosity 3"},  # as the card library gives its first ability
    "effect": "When Gluttonous Cyclops becomes monstrous, you gain 3 life.",
}


def test_monstrosity_once_then_it_is_monstrous_and_its_trigger_fires():
    g = game(
        {
            "costs": "ignore",
            "cards": {"Gluttonous Cyclops": KEEPSAKE_LIKE},
            "state": {
                "permanents": [{"name": "Gluttonous Cyclops", "controller": "Ana"}],
                "library": {"Ana": 5, "Ben": 5},
            },
        }
    )
    steps = run(g, "Ana activates Gluttonous Cyclops", "Ana passes", "Ben passes")
    steps = until(g, steps, "Ana gains 3 life", 6)
    words = said(steps)
    assert any("monstrosity 3: 3 +1/+1 counters are put on Gluttonous Cyclops (now 8/7)" in w for w in words)
    assert "701.37a" in cited(steps) and g.s.life["Ana"] == 23
    steps = run(g, "Ana activates Gluttonous Cyclops", "Ana passes", "Ben passes")
    assert any("Gluttonous Cyclops is already monstrous" in w for w in said(steps))
    assert g.s.power(g.s.find_permanent("Gluttonous Cyclops")) == 8


def test_monstrosity_is_refused_before_theros():
    with pytest.raises(ScenarioError) as info:
        game({"cards": {"Gluttonous Cyclops": KEEPSAKE_LIKE}, "state": {"hand": {"Ana": ["Gluttonous Cyclops"]}}}, OLD)
    assert 'the keyword action "monstrosity" is not in the 2008-10-01 Comprehensive Rules' in info.value.message


# -- ingest: the player dealt combat damage exiles the top card of their library (702.115a) ---------------------
BENTHIC_INFILTRATOR = {  # BFZ
    "type": "Creature — Eldrazi Drone",
    "cost": "{2}{U}",
    "power": 1,
    "toughness": 4,
    "effect": "Devoid (This card has no color.)\nIngest (Whenever this creature deals combat damage to a player, that "
    "player exiles the top card of their library.)\nBenthic Infiltrator can't be blocked.",
}


def test_ingest_exiles_the_top_card_of_the_damaged_players_library():
    g = game(
        {
            "turn": {"player": "Ana", "phase": "declare_attackers"},
            "cards": {"Benthic Infiltrator": BENTHIC_INFILTRATOR},
            "state": {
                "permanents": [{"name": "Benthic Infiltrator", "controller": "Ana"}],
                "library": {"Ana": 5, "Ben": 5},
            },
        }
    )
    steps = until(g, run(g, "Ana attacks with Benthic Infiltrator"), "exiles the top card of their library:", 10)
    words = said(steps)
    assert any(w.startswith("Benthic Infiltrator ingest triggers (Ana controls it): that player exiles") for w in words)
    assert "702.115a" in cited(steps) and len(g.s.library["Ben"]) == 4 and len(g.s.exile["Ben"]) == 1


def test_that_player_in_a_cards_own_text_is_refused():
    card = {"type": "Sorcery", "cost": "{U}", "effect": "That player exiles the top card of their library."}
    with pytest.raises(ScenarioError) as info:
        game({"cards": {"Odd": card}, "state": {"hand": {"Ana": ["Odd"]}}})
    assert "'that player' here is not modelled" in info.value.message


SHIVAN_FIRE = {  # DOM
    "type": "Instant",
    "cost": "{R}",
    "keywords": ["Kicker {4}"],
    "effect": "Shivan Fire deals 2 damage to target creature. If this spell was kicked, it deals 4 damage to that "
    "creature instead.",
}


@pytest.mark.parametrize("kicked, survives", [(True, False), (False, True)])
def test_if_this_spell_was_kicked_x_instead_replaces_the_instruction_before_it(kicked, survives):
    g = game(
        {
            "costs": "ignore",
            "cards": {"Shivan Fire": SHIVAN_FIRE},
            "state": {
                "hand": {"Ana": ["Shivan Fire"]},
                "permanents": [bear("Ogre", "Ben", 3, 3)],
                "library": {"Ana": 5, "Ben": 5},
            },
        }
    )
    steps = run(g, f"Ana casts Shivan Fire{' kicked' if kicked else ''} targeting Ogre", "Ana passes", "Ben passes")
    words = said(steps)
    assert any(f"Shivan Fire deals {4 if kicked else 2} damage to Ogre" in w for w in words)
    assert (g.s.find_permanent("Ogre") is not None) == survives and "702.33a" in cited(steps)


def test_an_instead_that_does_something_else_is_refused():
    card = {
        "type": "Instant",
        "cost": "{R}",
        "keywords": ["Kicker {4}"],
        "effect": "Shivan Fire deals 2 damage to target creature. If this spell was kicked, draw a card instead.",
    }
    with pytest.raises(ScenarioError) as info:
        game({"cards": {"Shivan Fire": card}, "state": {"hand": {"Ana": ["Shivan Fire"]}}})
    assert "is not modelled as what replaces the instruction before it" in info.value.message


# -- fabricate: counters on it or Servos, chosen as it resolves (702.123a) ----------------------------------------
ANGEL_OF_INVENTION = {  # KLD, its fabricate and anthem
    "type": "Creature — Angel",
    "cost": "{3}{W}{W}",
    "power": 2,
    "toughness": 1,
    "effect": "Flying, vigilance, lifelink\nFabricate 2 (When this creature enters the battlefield, put two +1/+1 "
    "counters on it or create two 1/1 colorless Servo artifact creature tokens.)\nOther creatures you control get "
    "+1/+1.",
}


@pytest.mark.parametrize("choice", ["counters", "servos"])
def test_fabricate_puts_counters_or_makes_servos_as_its_controller_chooses(choice):
    g = game(
        {
            "costs": "ignore",
            "cards": {"Angel of Invention": ANGEL_OF_INVENTION},
            "state": {"hand": {"Ana": ["Angel of Invention"]}, "library": {"Ana": 5, "Ben": 5}},
        }
    )
    steps = until(g, run(g, "Ana casts Angel of Invention", "Ana passes", "Ben passes"), "Ana chooses servos')", 6)
    assert "702.123a" in cited(steps) and f"Ana chooses {choice}" in g.legal_actions()
    run(g, f"Ana chooses {choice}")
    angel = g.s.find_permanent("Angel of Invention")
    servos = [p for p in g.s.battlefield if p.token]
    if choice == "counters":
        assert g.s.power(angel) == 4 and not servos
    else:
        assert g.s.power(angel) == 2 and len(servos) == 2
        assert all(p.is_a("artifact") and p.is_a("creature") and g.s.power(p) == 2 for p in servos)  # the anthem
    assert g.s.priority == "Ana"
