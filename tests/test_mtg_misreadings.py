"""Card text the Magic engine once read wrongly without saying so (issue 23: a scenario writer found them with
real cards). A partial reading is worse than a refusal: each is now refused, naming the words."""

from __future__ import annotations

import textwrap

import pytest

from engine.mtg.effects import EffectError, parse_effect


@pytest.mark.parametrize(
    "text",
    [
        # Ghitu Journeymage ("If you control another Wizard, ~ deals 2 damage to each opponent.") and Sarkhan's
        # Rage ("If you control no Dragons, ~ deals 2 damage to you."): the condition was swallowed as the name
        # of the source, so it always dealt 2; they are read with their condition now
        # (tests/test_mtg_card_shapes.py::test_a_condition_once_swallowed_is_read_with_it).
        # Renegade's Getaway ("Create a 1/1 colorless Servo artifact creature token."): the token was named "Servo
        # artifact" and was no artifact; it is an artifact creature named Servo now
        # (tests/test_mtg_tokens_search.py::test_an_artifact_creature_token_is_an_artifact_and_a_creature). A
        # supertype before "creature" was misread the same way, and is refused.
        "Create a 1/1 colorless Servo snow creature token.",
    ],
)
def test_text_once_misread_is_refused(text):
    with pytest.raises(EffectError):
        parse_effect(text)


def test_what_those_patterns_read_is_still_read():
    assert parse_effect("~ deals 3 damage to any target.")[0].verb == "damage"
    servo = parse_effect("Create a 1/1 colorless Servo artifact creature token.")[0].extra
    assert servo[3] == "Servo" and servo[6] == ("artifact", "creature")
    assert parse_effect("Create two 1/1 white Soldier creature tokens with lifelink")[0].extra == (
        1,
        1,
        "W",
        "Soldier",
        ("lifelink",),
    )


def test_a_mana_ability_that_does_more_is_refused_not_cut_short(judge, tmp_path):
    """Pristine Talisman ({T}: Add {C}. You gain 1 life.): the engine added the mana and skipped the life."""
    path = tmp_path / "talisman.yaml"
    path.write_text(
        textwrap.dedent("""\
        game: mtg
        players: [Ana, Ben]
        turn: {player: Ana, phase: main1}
        state:
          permanents:
            - {name: Talisman, controller: Ana, type: artifact, ability: {cost: "{T}", effect: "Add {C}. You gain 1 life."}}
        actions:
          - Ana activates Talisman
        """),
        encoding="utf-8",
    )
    code, out, err = judge("explain", str(path))
    assert code == 2 and err.count("\n") == 1
    assert "a mana ability that also does something else is not modelled: 'Add {C}. You gain 1 life.'" in err


def test_minus_one_is_a_number_not_x():
    # Wither's "-1/-1" once read as X (the value X stood for was -1): the spell asked for X and gave the
    # creature +X/+X. "-X/-X" (Sever the Bloodline's kind) is minus the value announced.
    from engine.mtg.effects import X, uses_x

    boost = parse_effect("Target creature gets -1/-1 until end of turn.")[0]
    assert (boost.amount, boost.amount2) == (-1, -1) and not uses_x("Target creature gets -1/-1 until end of turn.")
    minus_x = parse_effect("Target creature gets -X/-X until end of turn.")[0]
    assert (minus_x.amount, minus_x.amount2) == (-X, -X)


# -- cards an audit found misread (issue 23) --------------------------------------------------------------------
# Oracle text of MTGJSON v3, the card's name written as printed.
TENDRILS = {
    "type": "Instant",
    "cost": "{3}{B}",
    "effect": "Tendrils of Corruption deals X damage to target creature and you gain X life, where X is the number "
    "of Swamps you control.",
}


def _swamps(n: int, controller: str = "Ana") -> list[dict]:
    return [{"name": "Swamp" if i == 0 else f"Swamp#{i + 1}", "controller": controller} for i in range(n)]


def test_x_defined_at_the_end_of_a_sentence_counts_for_each_part_and_is_never_announced():
    """Tendrils of Corruption: the sentence was split at "and" before ", where X is ..." was read, so the damage
    kept a free X the engine took for an X in the cost (cast "with X=20", it dealt 20). X is what the text says
    (107.3, 608.2h), for the damage and the life alike, and no X is announced."""
    from engine.core import ScenarioError
    from engine.mtg.effects import uses_x
    from tests.test_engine_mtg import game, run
    from tests.test_mtg_card_text import bear, cited, said

    assert not uses_x(TENDRILS["effect"])
    assert [i.verb for i in parse_effect(TENDRILS["effect"])] == ["counted", "counted"]
    g = game(
        {
            "cards": {"Tendrils of Corruption": TENDRILS},
            "state": {
                "permanents": [*_swamps(4), bear("Serra Angel", "Ben", 4, 4)],
                "hand": {"Ana": ["Tendrils of Corruption"]},
            },
        }
    )
    assert "Ana casts Tendrils of Corruption targeting Serra Angel" in g.legal_actions()
    with pytest.raises(ScenarioError, match="has no X"):
        g.apply("Ana casts Tendrils of Corruption with X=20 targeting Serra Angel")
    steps = run(g, "Ana casts Tendrils of Corruption targeting Serra Angel", "Ana passes", "Ben passes")
    words = said(steps)
    assert words.count("Tendrils of Corruption: the number of swamps you control is 4") == 2
    assert "Tendrils of Corruption deals 4 damage to Serra Angel (4 damage marked, toughness 4)" in words
    assert "Ana gains 4 life (20 -> 24)" in words and "608.2h" in cited(steps)
    assert g.s.find_permanent("Serra Angel") is None  # destroyed: lethal damage


def test_a_part_without_x_keeps_no_count():
    # "Draw X cards and you lose 2 life, where X is ...": only the part that says X is counted.
    text = "You draw X cards and you lose 2 life, where X is the number of Swamps you control."
    draw, lose = parse_effect(text)
    assert draw.verb == "counted" and draw.extra[2].verb == "draw"
    assert lose.verb == "lose" and lose.amount == 2


RANCOR = {
    "type": "Enchantment — Aura",
    "cost": "{G}",
    "effect": "Enchant creature\nEnchanted creature gets +2/+0 and has trample.\nWhen Rancor is put into a graveyard "
    "from the battlefield, return Rancor to its owner's hand.",
}
SPINE = {  # Mortus Strider's wording: "When ~ dies, return it to its owner's hand."
    "type": "Creature — Skeleton",
    "cost": "{1}{U}{B}",
    "power": 1,
    "toughness": 1,
    "effect": "When Mortus Strider dies, return it to its owner's hand.",
}
SHOCK = {"type": "Instant", "cost": "{R}", "effect": "Shock deals 2 damage to any target."}


@pytest.mark.parametrize(
    "edition, rule", [("2026-02-27", "400.7e"), ("2019-10-04", "400.7d"), ("2008-10-01", "217.1c")]
)
def test_a_card_put_into_a_graveyard_from_the_battlefield_returns_from_there_to_its_owners_hand(edition, rule):
    """Rancor, Mortus Strider: "return ~/it to its owner's hand" was looked for on the battlefield and did
    nothing; an ability that triggers on a zone change finds the new object in the zone it moved to (400.7e in
    2026, 400.7d in 2019, 217.1c's second exception in 2008) and returns that card."""
    from tests.test_engine_mtg import game, run
    from tests.test_mtg_card_text import bear, cited, said

    g = game(
        {
            "costs": "ignore",
            "cards": {"Rancor": RANCOR, "Shock": SHOCK},
            "state": {"permanents": [bear("Runeclaw Bear", "Ana")], "hand": {"Ana": ["Rancor", "Shock"]}},
        },
        edition,
    )
    run(g, "Ana casts Rancor targeting Runeclaw Bear", "Ana passes", "Ben passes")
    steps = run(g, "Ana casts Shock targeting Runeclaw Bear", "Ana passes", "Ben passes", "Ana passes", "Ben passes")
    words = said(steps)
    assert "Rancor trigger finds Rancor in Ana's graveyard, where it was put, and returns it to Ana's hand" in words
    assert rule in cited(steps) and not any("has already left its zone" in w for w in words)
    assert "Rancor" in [c.name for c in g.s.hand["Ana"]]
    assert "Rancor" not in [c.name for c in g.s.graveyard["Ana"]]


def test_a_creature_that_dies_returns_from_the_graveyard_to_its_owners_hand_unless_it_left_the_graveyard():
    from tests.test_engine_mtg import game, run
    from tests.test_mtg_card_text import cited, said

    g = game(
        {
            "costs": "ignore",
            "cards": {"Mortus Strider": SPINE, "Shock": SHOCK},
            "state": {
                "permanents": [{"name": "Mortus Strider", "controller": "Ana"}],
                "hand": {"Ana": ["Shock"]},
            },
        }
    )
    steps = run(g, "Ana casts Shock targeting Mortus Strider", "Ana passes", "Ben passes")
    assert g.s.stack and g.s.stack[-1].name == "Mortus Strider trigger"
    card = next(c for c in g.s.graveyard["Ana"] if c.name == "Mortus Strider")
    g.s.graveyard["Ana"].remove(card)  # as if exiled from the graveyard in response: a new object again
    g.s.exile.setdefault("Ana", []).append(card)
    assert "Mortus Strider trigger triggers (Ana controls it)" in said(steps)
    steps = run(g, "Ana passes", "Ben passes")
    assert "Mortus Strider is no longer in the graveyard: Mortus Strider trigger does nothing" in said(steps)
    assert "400.7" in cited(steps) and not g.s.hand.get("Ana")


def test_a_creature_that_dies_returns_to_its_owners_hand():
    from tests.test_engine_mtg import game, run
    from tests.test_mtg_card_text import said

    g = game(
        {
            "costs": "ignore",
            "cards": {"Mortus Strider": SPINE, "Shock": SHOCK},
            "state": {"permanents": [{"name": "Mortus Strider", "controller": "Ana"}], "hand": {"Ben": ["Shock"]}},
        }
    )
    g.s.priority = "Ben"
    steps = run(g, "Ben casts Shock targeting Mortus Strider", "Ben passes", "Ana passes", "Ana passes", "Ben passes")
    assert (
        "Mortus Strider trigger finds Mortus Strider in Ana's graveyard, where it was put, and returns it to Ana's hand"
        in said(steps)
    )
    assert [c.name for c in g.s.hand["Ana"]] == ["Mortus Strider"] and not g.s.graveyard.get("Ana")


THUNDERMAW = {
    "type": "Creature — Dragon",
    "cost": "{3}{R}{R}",
    "power": 5,
    "toughness": 5,
    "effect": "Flying\nHaste\nWhen Thundermaw Hellkite enters the battlefield, it deals 1 damage to each creature "
    "with flying your opponents control. Tap those creatures.",
}
WAR_FLARE = {
    "type": "Instant",
    "cost": "{2}{R}{W}",
    "effect": "Creatures you control get +2/+1 until end of turn. Untap those creatures.",
}


def test_those_creatures_after_a_group_are_the_group_the_instruction_before_acted_on():
    """Thundermaw Hellkite, War Flare, Tenacity: "those creatures" after an instruction that names a group (no
    targets) did nothing; they are that group, as the instruction before determined it (608.2c, 608.2h)."""
    from tests.test_engine_mtg import game, run
    from tests.test_mtg_card_text import bear, cited, said

    g = game(
        {
            "costs": "ignore",
            "cards": {"Thundermaw Hellkite": THUNDERMAW, "War Flare": WAR_FLARE},
            "state": {
                "permanents": [
                    bear("Serra Angel", "Ben", 4, 4, keywords=["flying"]),
                    bear("Wind Drake", "Ben", 2, 2, keywords=["flying"]),
                    bear("Runeclaw Bear", "Ben"),
                    bear("Arctic Aven", "Ana", 2, 1, keywords=["flying"]),
                    bear("Goblin Piker", "Ana", 2, 1, tapped=True),
                ],
                "hand": {"Ana": ["Thundermaw Hellkite", "War Flare"]},
            },
        }
    )
    steps = run(g, "Ana casts Thundermaw Hellkite", "Ana passes", "Ben passes", "Ana passes", "Ben passes")
    words = said(steps)
    assert "Thundermaw Hellkite trigger taps Serra Angel" in words and "701.26a" in cited(steps)
    assert "Thundermaw Hellkite trigger taps Wind Drake" in words  # 1 damage killed it: not yet, no SBA in between
    assert g.s.find_permanent("Serra Angel").tapped and not g.s.find_permanent("Runeclaw Bear").tapped
    assert not g.s.find_permanent("Arctic Aven").tapped
    steps = run(g, "Ana casts War Flare", "Ana passes", "Ben passes")
    assert "War Flare untaps Goblin Piker" in said(steps)
    assert not g.s.find_permanent("Goblin Piker").tapped and g.s.power(g.s.find_permanent("Goblin Piker")) == 4


def test_those_creatures_that_name_nothing_before_them_are_refused():
    with pytest.raises(EffectError, match="'those' names neither targets nor a group"):
        parse_effect("You gain 2 life. Tap those creatures.")


def test_cards_put_back_are_said_in_the_order_chosen():
    """Taigam's Scheming: "top Swamp, Island, Plains" was said as "Island, Swamp, Plains back on top ..., in this
    order" (the order seen); the library was right."""
    from tests.test_engine_mtg import game, run
    from tests.test_mtg_card_text import said

    scheming = {
        "type": "Sorcery",
        "cost": "{1}{U}",
        "effect": "Look at the top five cards of your library. Put any number of them into your graveyard and the "
        "rest back on top of your library in any order.",
    }
    g = game(
        {
            "costs": "ignore",
            "cards": {"Taigam's Scheming": scheming},
            "state": {
                "hand": {"Ana": ["Taigam's Scheming"]},
                "library": {"Ana": ["Forest", "Island", "Mountain", "Swamp", "Plains", "Forest#2"]},
            },
        }
    )
    run(g, "Ana casts Taigam's Scheming", "Ana passes", "Ben passes")
    steps = run(g, "Ana takes Forest, Mountain; top Swamp, Island, Plains")
    assert (
        "Ana puts Forest, Mountain into their graveyard and Swamp, Island, Plains back on top of their library, in "
        "the order chosen (the first is now the top card)" in said(steps)
    )
    assert [c.name for c in g.s.library["Ana"]][:3] == ["Swamp", "Island", "Plains"]


def test_a_revealed_hand_with_nothing_to_choose_is_said_once():
    """Despise with no creature or planeswalker card in the hand revealed: it said "no hand was revealed" after
    the hand was revealed."""
    from tests.test_engine_mtg import game, run
    from tests.test_mtg_card_text import said

    despise = {
        "type": "Sorcery",
        "cost": "{B}",
        "effect": "Target opponent reveals their hand. You choose a creature or planeswalker card from it. That "
        "player discards that card.",
    }
    g = game(
        {
            "costs": "ignore",
            "cards": {"Despise": despise, "Shock": SHOCK},
            "state": {"hand": {"Ana": ["Despise"], "Ben": ["Shock", "Forest"]}},
        }
    )
    words = said(run(g, "Ana casts Despise targeting Ben", "Ana passes", "Ben passes"))
    assert "Ben reveals their hand: Shock, Forest" in words
    assert "Despise: there is no card in Ben's hand Ana could choose: nothing is chosen" in words
    assert not any("no hand was revealed" in w for w in words)
    assert [c.name for c in g.s.hand["Ben"]] == ["Shock", "Forest"]


def test_a_may_choice_names_the_object_not_a_tilde():
    """Suspension Field's "you may exile ... until ~ leaves the battlefield": the choice showed a "~"."""
    from tests.test_engine_mtg import game, run
    from tests.test_mtg_card_text import bear, said

    field = {
        "type": "Enchantment",
        "cost": "{1}{W}",
        "effect": "When Suspension Field enters the battlefield, you may exile target creature with toughness 3 or "
        "greater until Suspension Field leaves the battlefield.",
    }
    g = game(
        {
            "costs": "ignore",
            "cards": {"Suspension Field": field},
            "state": {"permanents": [bear("Serra Angel", "Ben", 4, 4)], "hand": {"Ana": ["Suspension Field"]}},
        }
    )
    run(g, "Ana casts Suspension Field", "Ana passes", "Ben passes")
    steps = run(g, "Ana puts Suspension Field trigger on the stack targeting Serra Angel", "Ana passes", "Ben passes")
    words = said(steps) + said(run(g, "Ana accepts"))
    assert any(
        "may exile target creature with toughness 3 or greater until Suspension Field leaves the battlefield" in w
        for w in words
    )
    assert (
        "Ana chooses to exile target creature with toughness 3 or greater until Suspension Field leaves the "
        "battlefield" in words
    )
    assert not any("~" in w for w in words)
