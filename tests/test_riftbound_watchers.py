"""Riftbound triggered abilities that watch what happens to other units (issue 23, card reading): a player
readying, buffing or stunning units ("When you ready a friendly unit", "When you stun one or more enemy
units"), and other units attacking or defending ("When a friendly unit attacks or defends alone", "When an
enemy unit attacks a battlefield you control"), each with the rules it applies."""

from __future__ import annotations

from engine.riftbound import effects, new_game
from tests.test_riftbound_mechanics import CIT, game, rules, run


def test_the_watching_triggers_are_read_compositionally():
    spec = effects.parse_trigger("When you ready a friendly unit")
    assert (spec.event, spec.who, spec.what) == ("ready", "you", "friendly")
    spec = effects.parse_trigger("When you stun one or more enemy units")
    assert (spec.event, spec.what, spec.condition) == ("stun", "enemy", "one or more")
    spec = effects.parse_trigger("When you buff a friendly unit")
    assert (spec.event, spec.what) == ("buff", "friendly")
    both = effects.parse_triggers("When a friendly unit attacks or defends alone")
    assert [(s.event, s.who, s.condition) for s in both] == [
        ("attack", "friendly", "alone"),
        ("defend", "friendly", "alone"),
    ]
    spec = effects.parse_trigger("When an enemy unit attacks a battlefield you control")
    assert (spec.event, spec.who, spec.condition) == ("attack", "enemy", "you control")


HAVEN = {"Haven": {"type": "gear", "effect": "When you ready a friendly unit, give it +1 [M] this turn."}}


def test_readying_a_friendly_unit_by_an_effect_triggers_and_it_is_that_unit():
    cards = {**HAVEN, "Wake": {"type": "spell", "effect": "Ready a unit."}}
    state = {
        "gear": [{"name": "Haven", "controller": "Ana", "at": "base"}],
        "units": [{"name": "Jinx", "controller": "Ana", "at": "base", "might": 2, "exhausted": True}],
        "hand": {"Ana": ["Wake"]},
    }
    g = game(state, cards)
    events = run(g, "Ana plays Wake targeting Jinx", "Ana passes", "Ben passes")
    assert any("Haven" in e.what and "triggers" in e.what for e in events)
    assert {"402.3.b", "376.2.c"} <= rules(events)
    run(g, "Ana passes", "Ben passes")
    assert g.snapshot()["units"]["Jinx"]["might"] == 3


def test_the_awaken_phase_readies_units_and_triggers_too_but_not_an_enemy_unit():
    state = {
        "gear": [{"name": "Haven", "controller": "Ana", "at": "base"}],
        "units": [
            {"name": "Jinx", "controller": "Ana", "at": "base", "might": 2, "exhausted": True},
            {"name": "Vi", "controller": "Ana", "at": "base", "might": 2},
        ],
    }
    g = game(state, HAVEN, turn={"player": "Ana", "phase": "awaken"})
    assert [i.label for i in g.s.chain] == ["Haven (a unit was readied)"]  # Jinx only: Vi was ready


def test_stunning_several_enemy_units_at_once_triggers_one_or_more_once():
    cards = {
        "Dawn": {"type": "legend", "effect": "When you stun one or more enemy units, buff a friendly unit."},
        "Flash": {"type": "spell", "effect": "Stun up to two enemy units."},
    }
    state = {
        "legends": {"Ana": "Dawn"},
        "units": [
            {"name": "Jinx", "controller": "Ana", "at": "base", "might": 2},
            {"name": "Garen", "controller": "Ben", "at": "base", "might": 2},
            {"name": "Lux", "controller": "Ben", "at": "base", "might": 2},
        ],
        "hand": {"Ana": ["Flash"]},
    }
    g = game(state, cards)
    events = run(g, "Ana plays Flash targeting Garen, Lux", "Ana passes", "Ben passes")
    assert sum("Dawn's" in e.what and "triggers" in e.what for e in events) == 1


MISTFALL = "When you buff a friendly unit, you may pay [1] and exhaust this to ready it."


def test_a_cost_of_two_parts_within_an_instruction_is_paid_whole():
    (may,) = effects.parse("you may pay [1] and exhaust this to ready it")
    assert may.data == ("pay [1] and exhaust this",)
    cards = {"Mist": {"type": "gear", "effect": MISTFALL}, "Boost": {"type": "spell", "effect": "Buff a unit."}}
    state = {
        "gear": [{"name": "Mist", "controller": "Ana", "at": "base"}],
        "units": [{"name": "Jinx", "controller": "Ana", "at": "base", "might": 2, "exhausted": True}],
        "hand": {"Ana": ["Boost"]},
    }
    g = game(state, cards)
    run(g, "Ana plays Boost targeting Jinx", "Ana passes", "Ben passes", "Ana passes", "Ben passes")
    events = g.apply("Ana accepts")
    assert g.snapshot()["units"]["Jinx"]["exhausted"] is False and g.s.cards["mist"].exhausted
    assert {"402.3.b"} <= rules(events)


def test_a_friendly_unit_attacking_alone_triggers_and_an_enemy_attacking_a_battlefield_you_control():
    cards = {
        "Mask": {"type": "gear", "effect": "When a friendly unit attacks or defends alone, give it +1 [M] this turn."},
        "Fox": {
            "type": "legend",
            "effect": "When an enemy unit attacks a battlefield you control, give it -1 [M] this turn, to a minimum "
            "of 1 [M].",
        },
    }
    state = {
        "battlefields": [{"name": "Altar", "controller": "Ben"}],
        "gear": [{"name": "Mask", "controller": "Ana", "at": "base"}],
        "legends": {"Ben": "Fox"},
        "units": [
            {"name": "Jinx", "controller": "Ana", "at": "base", "might": 3},
            {"name": "Braum", "controller": "Ben", "at": "Altar", "might": 2},
        ],
    }
    g = game(state, cards)
    events = g.apply("Ana moves Jinx to Altar")
    said = [e.what for e in events if "triggers" in e.what]
    assert any("Mask's Jinx attacks alone" in w for w in said) and any("Fox's Jinx attacks Altar" in w for w in said)
    assert {"376.4.d"} <= rules(events)


def test_a_passive_keyed_to_a_discard_this_turn_and_a_minus_might_with_a_floor():
    soul = "If you've discarded a card this turn, I have [Assault] and [Ganking]."
    cards = {
        "Soul": {"type": "unit", "might": 4, "effect": soul},
        "Toss": {"type": "spell", "effect": "Discard 1. Draw 1."},
        "Leona": {"type": "unit", "might": 6, "effect": "Stunned enemy units here have -8 [M], to a minimum of 1 [M]."},
    }
    state = {
        "battlefields": [{"name": "Altar", "controller": "Ana"}],
        "units": [
            {"name": "Soul", "controller": "Ana", "at": "base"},
            {"name": "Leona", "controller": "Ana", "at": "Altar"},
            {"name": "Garen", "controller": "Ben", "at": "Altar", "might": 5, "stunned": True},
            {"name": "Lux", "controller": "Ben", "at": "Altar", "might": 5},
        ],
        "hand": {"Ana": ["Toss", "Spare"]},
    }
    g = game(state, {**cards, "Spare": {"type": "spell"}})
    soul_card = g.s.cards["soul"]
    assert not g.s.has(soul_card, "Ganking")
    snap = g.snapshot()["units"]
    assert (snap["Garen"]["might"], snap["Lux"]["might"]) == (1, 5)  # -8, but not below 1; Lux is not stunned
    run(g, "Ana plays Toss", "Ana passes", "Ben passes")
    assert g.s.has(soul_card, "Ganking") and g.s.has(soul_card, "Assault")
    assert effects.parse_passive(soul)[2].kind == "discarded"


def test_a_plural_without_a_count_is_every_object_that_fits_and_there_is_where_it_happened():
    (give,) = effects.parse("Give friendly units +2 [M] this turn.")
    assert ("all", True) in give.target.filters and not give.chooses  # not one chosen unit: all of them
    guardian = "When you play me, buff me. Then, if I am at a battlefield, buff all other friendly units there."
    cards = {"Guardian": {"type": "unit", "might": 5, "effect": guardian}}
    state = {
        "battlefields": [{"name": "Altar", "controller": "Ana"}],
        "units": [
            {"name": "Jinx", "controller": "Ana", "at": "Altar", "might": 2},
            {"name": "Vi", "controller": "Ana", "at": "base", "might": 2},
            {"name": "Lux", "controller": "Ben", "at": "base", "might": 2},
        ],
        "hand": {"Ana": ["Guardian"]},
    }
    g = game(state, cards)
    events = run(g, "Ana plays Guardian to Altar", "Ana passes", "Ben passes")
    if g.s.chain:
        events += run(g, "Ana passes", "Ben passes")
    assert "352.10.d" in rules(events) or "355.10.d" in rules(events)
    buffed = {name for name, u in g.snapshot()["units"].items() if g.s.cards[name.lower()].buffed}
    assert buffed == {"Guardian", "Jinx"}  # not Vi (at base), not Lux (an enemy)
    try:
        effects.parse("Choose a battlefield. Buff a unit there.")
    except ValueError as e:  # "there" on a target chosen as it is played: refused, never guessed
        assert "buff a unit there" in str(e)
    else:
        raise AssertionError("read a chosen target 'there'")


def test_a_unit_that_has_moved_twice_this_turn_takes_no_damage():
    kayn = "If I have moved twice this turn, I don't take damage."
    assert effects.parse_passive(kayn)[1].kind == "moved"
    cards = {
        "Kayn": {"type": "unit", "might": 6, "effect": kayn},
        "Bolt": {"type": "spell", "effect": "Deal 3 to a unit."},
    }
    state = {"units": [{"name": "Kayn", "controller": "Ben", "at": "base"}], "hand": {"Ana": ["Bolt", "Bolt#2"]}}
    g = game(state, cards)
    g.s.cards["kayn"].moves = 1
    run(g, "Ana plays Bolt targeting Kayn", "Ana passes", "Ben passes")
    assert g.snapshot()["units"]["Kayn"]["damage"] == 3
    g.s.cards["kayn"].moves = 2
    events = run(g, "Ana plays Bolt#2 targeting Kayn", "Ana passes", "Ben passes")
    assert g.snapshot()["units"]["Kayn"]["damage"] == 3 and "361.2" in rules(events)


def test_the_next_spell_you_play_this_turn_costs_less_and_deals_bonus_damage_once():
    cards = {
        "Brand": {
            "type": "unit",
            "might": 2,
            "effect": "When you play me, the next spell you play this turn costs [5] less.",
        },
        "Tome": {
            "type": "unit",
            "might": 2,
            "effect": "When you play me, the next spell you play this turn deals 1 Bonus Damage.",
        },
        "Big": {"type": "spell", "cost": "[6]", "effect": "Deal 2 to a unit."},
        "Small": {"type": "spell", "cost": "[1]", "effect": "Deal 2 to a unit."},
    }
    state = {
        "runes": {"Ana": {"ready": ["Calm", "Calm"]}},
        "units": [{"name": "Garen", "controller": "Ben", "at": "base", "might": 9}],
        "hand": {"Ana": ["Brand", "Tome", "Big", "Small"]},
    }
    g = game(state, cards)
    for unit in ("Brand", "Tome"):  # each played, then its play trigger resolves
        run(g, f"Ana plays {unit} to base", "Ana passes", "Ben passes")
        while g.s.chain:
            run(g, "Ana passes", "Ben passes")
    events = g.apply("Ana plays Big targeting Garen")  # [6] - [5]: one rune pays it
    assert {"383.4", "353.4"} <= rules(events)
    events = run(g, "Ana passes", "Ben passes")
    assert g.snapshot()["units"]["Garen"]["damage"] == 3 and "713" in rules(events)  # 2 + 1 Bonus Damage
    run(g, "Ana plays Small targeting Garen", "Ana passes", "Ben passes")  # no longer the next spell: no bonus
    assert g.snapshot()["units"]["Garen"]["damage"] == 5
    assert g.snapshot()["runes"]["Ana"]["ready"] == 0


def test_a_card_played_discarded_or_killed_triggers_for_each_of_its_own_events():
    heap = "When this is played, discarded, or killed, draw 1."
    assert [s.event for s in effects.parse_triggers("When this is played, discarded, or killed")] == [
        "play",
        "discard",
        "die",
    ]
    cards = {
        "Heap": {"type": "gear", "effect": heap},
        "Toss": {"type": "spell", "effect": "Discard 1."},
        "Smash": {"type": "spell", "effect": "Kill a gear."},
    }
    state = {"gear": [{"name": "Heap", "controller": "Ana", "at": "base"}], "hand": {"Ana": ["Smash"]}}
    g = game(state, cards)
    events = run(g, "Ana plays Smash targeting Heap", "Ana passes", "Ben passes")
    assert [i.label for i in g.s.chain] == ["Heap (killed)"] and "376.2.c.1" in rules(events)
    state = {"hand": {"Ana": ["Heap", "Toss"]}}
    g = game(state, cards)
    run(g, "Ana plays Toss", "Ana passes", "Ben passes")
    assert [i.label for i in g.s.chain] == ["Heap (discard)"]


WARDEN = (
    "While I'm at a battlefield, opponents can only play units to their base.\n"
    "While I'm at a battlefield, spells and abilities can't ready enemy units and gear."
)


def test_restrictions_on_opponents_while_the_source_is_at_a_battlefield():
    import pytest

    from engine.core import IllegalAction

    cards = {
        "Warden": {"type": "unit", "might": 6, "effect": WARDEN},
        "Scout": {"type": "unit", "might": 1},
        "Wake": {"type": "spell", "effect": "Ready a unit."},
    }
    state = {
        "battlefields": [{"name": "Altar", "controller": "Ben"}, {"name": "Grove", "controller": "Ana"}],
        "units": [
            {"name": "Warden", "controller": "Ben", "at": "Altar"},
            {"name": "Jinx", "controller": "Ana", "at": "base", "might": 2, "exhausted": True},
            {"name": "Vi", "controller": "Ana", "at": "Grove", "might": 2},
        ],
        "hand": {"Ana": ["Scout", "Wake"]},
    }
    g = game(state, cards)
    with pytest.raises(IllegalAction) as err:
        g.apply("Ana plays Scout to Grove")
    assert "361.2" in err.value.rules and "only to Ana's base" in str(err.value)
    events = run(g, "Ana plays Wake targeting Jinx", "Ana passes", "Ben passes")
    assert g.snapshot()["units"]["Jinx"]["exhausted"] is True and "361.2" in rules(events)
    moved = [{**state["units"][0], "at": "base"}, *state["units"][1:]]
    g = game(
        {**state, "units": moved, "battlefields": [{"name": "Altar"}, {"name": "Grove", "controller": "Ana"}]}, cards
    )
    g.apply("Ana plays Scout to Grove")  # Warden at its base: no restriction


def test_activating_the_conquer_effects_of_units_here_as_if_a_conquer_occurred():
    arena = "When you hold here, activate the conquer effects of units here."
    cards = {
        "Jinx": {"type": "unit", "might": 2, "effect": "When I conquer, draw 1."},
        "Yone": {"type": "unit", "might": 2, "effect": "When I conquer a battlefield that was uncontrolled, draw 1."},
        "Vi": {"type": "unit", "might": 2, "effect": "When I conquer, draw 1."},
    }
    state = {
        "battlefields": [{"name": "Arena", "controller": "Ana", "effect": arena}, {"name": "Grove"}],
        "units": [
            {"name": "Jinx", "controller": "Ana", "at": "Arena"},
            {"name": "Yone", "controller": "Ana", "at": "Arena"},
            {"name": "Vi", "controller": "Ana", "at": "base"},
        ],
    }
    g = game(state, cards, turn={"player": "Ana", "phase": "beginning"})
    assert [i.label for i in g.s.chain] == ["Arena (hold)"]
    events = run(g, "Ana passes", "Ben passes")
    assert [i.label for i in g.s.chain] == ["Jinx (conquer)"]  # not Yone (it was controlled), not Vi (at base)
    assert "376.4.b" in rules(events)


def test_a_unit_banished_then_played_again_by_its_owner_to_their_base():
    cards = {
        "Rescue": {
            "type": "spell",
            "effect": "Banish a friendly unit, then its owner plays it to their base, ignoring its cost.",
        }
    }
    state = {
        "battlefields": [{"name": "Altar", "controller": "Ana"}],
        "units": [{"name": "Jinx", "controller": "Ana", "at": "Altar", "might": 2, "damage": 1}],
        "hand": {"Ana": ["Rescue"]},
    }
    g = game(state, {**cards, "Jinx": {"type": "unit", "might": 2, "cost": "[3]"}})
    events = run(g, "Ana plays Rescue targeting Jinx", "Ana passes", "Ben passes")
    while g.s.chain:
        events += run(g, "Ana passes", "Ben passes")
    assert g.snapshot()["zone"]["Jinx"] == "base" and g.snapshot()["units"]["Jinx"]["damage"] == 0
    assert {"353.1.a", "406.3"} <= rules(events)


def test_banish_from_among_the_cards_looked_at_then_play_it_reducing_its_cost():
    reinforce = (
        "Look at the top 5 cards of your Main Deck. You may banish a unit from among them, then play it, reducing "
        "its cost by [5]. Recycle the remaining cards."
    )
    cards = {
        "Reinforce": {"type": "spell", "effect": reinforce},
        "Titan": {"type": "unit", "might": 8, "cost": "[6]"},
        "Spark": {"type": "spell", "cost": "[1]"},
    }
    state = {
        "runes": {"Ana": {"ready": ["Calm"]}},
        "deck": {"Ana": ["Spark", "Titan"], "Ben": 3},
        "hand": {"Ana": ["Reinforce"]},
    }
    g = game(state, cards)
    run(g, "Ana plays Reinforce", "Ana passes", "Ben passes")
    events = g.apply("Ana accepts")
    assert "353.4" in rules(events) and g.snapshot()["runes"]["Ana"]["ready"] == 0  # [6] - [5]: one rune
    assert g.s.cards["titan"].zone == "base" and g.s.deck["Ana"] == ["spark"]  # played; the rest recycled


def test_for_each_friendly_unit_its_controller_may_pay_with_that_units_buff():
    overt = "For each friendly unit, you may spend its buff to ready it. Then buff all friendly units."
    cards = {"Overt": {"type": "spell", "effect": overt}}
    state = {
        "units": [
            {"name": "Jinx", "controller": "Ana", "at": "base", "might": 2, "exhausted": True, "buffed": True},
            {"name": "Vi", "controller": "Ana", "at": "base", "might": 2, "exhausted": True, "buffed": True},
            {"name": "Lux", "controller": "Ben", "at": "base", "might": 2},
        ],
        "hand": {"Ana": ["Overt"]},
    }
    g = game(state, cards)
    run(g, "Ana plays Overt", "Ana passes", "Ben passes")
    assert "(Jinx)" in g.s.awaiting.about
    g.apply("Ana accepts")
    assert "(Vi)" in g.s.awaiting.about
    g.apply("Ana declines")
    jinx, vi, lux = (g.s.cards[k] for k in ("jinx", "vi", "lux"))
    assert (jinx.exhausted, vi.exhausted) == (False, True)  # Jinx's buff spent to ready it; then buffed again
    assert jinx.buffed and vi.buffed and not lux.buffed


def test_an_opponent_reveals_their_hand_and_a_card_chosen_from_it_is_recycled_or_discarded():
    sabotage = "Choose an opponent. They reveal their hand. Choose a non-unit card from it, and recycle that card."
    cards = {
        "Sabotage": {"type": "spell", "effect": sabotage},
        "Split": {
            "type": "spell",
            "effect": "Choose an opponent. They reveal their hand. Choose a card from it, and they discard that card.",
        },
        "Garen": {"type": "unit", "might": 3},
        "Bolt": {"type": "spell"},
        "Shield": {"type": "gear"},
    }
    state = {"hand": {"Ana": ["Sabotage", "Split"], "Ben": ["Garen", "Bolt", "Shield"]}, "deck": {"Ana": 3, "Ben": 2}}
    g = game(state, cards)
    events = run(g, "Ana plays Sabotage", "Ana passes", "Ben passes")
    assert {"411.1", "352.8"} <= rules(events) and g.s.awaiting.options == ("Bolt", "Shield")  # not Garen, a unit
    events = g.apply("Ana chooses Shield")
    assert "352.10.a" in rules(events) and g.s.cards["shield"].zone == "deck" and g.s.deck["Ben"][-1] == "shield"
    run(g, "Ana plays Split", "Ana passes", "Ben passes")
    events = g.apply("Ana chooses Garen")
    assert g.s.cards["garen"].zone == "trash" and "409.1" in rules(events)  # discarded by its owner
    assert g.s.discarded == ["Ben"]


def test_unless_its_controller_has_you_draw_that_player_chooses():
    shake = "Choose an enemy unit. Deal 6 to it unless its controller has you draw 2."
    cards = {"Shake": {"type": "spell", "effect": shake}}
    state = {
        "units": [{"name": "Garen", "controller": "Ben", "at": "base", "might": 9}],
        "hand": {"Ana": ["Shake", "Shake#2"]},
        "deck": {"Ana": 5, "Ben": 5},
    }
    g = game(state, cards)
    run(g, "Ana plays Shake targeting Garen", "Ana passes", "Ben passes")
    assert g.s.awaiting.player == "Ben" and g.s.awaiting.options == ("deal 6 to it", "Ana draws 2")
    g.apply("Ben chooses Ana draws 2")
    assert g.snapshot()["units"]["Garen"]["damage"] == 0 and g.snapshot()["hand"]["Ana"] == 3
    run(g, "Ana plays Shake#2 targeting Garen", "Ana passes", "Ben passes", "Ben chooses deal 6 to it")
    assert g.snapshot()["units"]["Garen"]["damage"] == 6


def test_each_other_player_chooses_a_different_unit_you_dont_control_then_those_units_die():
    edict = (
        "Starting with the next player, each other player chooses a unit you don't control that hasn't been chosen "
        "for this spell. Kill those units."
    )
    g = new_game(
        {
            "players": ["Ana", "Ben", "Cid"],
            "turn": {"player": "Ana", "phase": "main"},
            "state": {
                "deck": {"Ana": 3, "Ben": 3, "Cid": 3},
                "units": [
                    {"name": "Jinx", "controller": "Ana", "at": "base", "might": 2},
                    {"name": "Garen", "controller": "Ben", "at": "base", "might": 2},
                    {"name": "Lux", "controller": "Cid", "at": "base", "might": 2},
                ],
                "hand": {"Ana": ["Edict"]},
            },
            "cards": {"Edict": {"type": "spell", "effect": edict}},
        },
        CIT,
    )
    run(g, "Ana plays Edict", "Ana passes", "Ben passes", "Cid passes")
    assert g.s.awaiting.player == "Ben" and g.s.awaiting.options == ("Garen", "Lux")  # not Jinx: Ana's
    events = g.apply("Ben chooses Lux")  # then Cid: Garen is the only one left not chosen
    zones = g.snapshot()["zone"]
    assert (zones["Garen"], zones["Lux"], zones["Jinx"]) == ("trash", "trash", "base")
    assert "352.10.e" in rules(events) and any("Cid chooses Garen" in e.what for e in events)


def test_each_other_player_chooses_one_of_two_words_and_what_follows_is_done_for_each():
    favors = (
        "Each other player chooses Cards or Runes. For each player that chooses Cards, you and that player each draw "
        "1. For each player that chooses Runes, you and that player each channel 1 rune exhausted."
    )
    g = game(
        {"hand": {"Ana": ["Favors"]}, "deck": {"Ana": 5, "Ben": 5}}, {"Favors": {"type": "spell", "effect": favors}}
    )
    run(g, "Ana plays Favors", "Ana passes", "Ben passes")
    assert g.s.awaiting.player == "Ben" and g.s.awaiting.options == ("cards", "runes")
    events = g.apply("Ben chooses cards")
    assert g.snapshot()["hand"] == {"Ana": 1, "Ben": 1} and "352.10.e" in rules(events)


def test_a_unit_that_can_have_any_number_of_buffs_gets_and_spends_them_one_by_one():
    lee = "[E]: Buff me.\nI can have any number of buffs."
    cards = {"Lee": {"type": "unit", "might": 5, "effect": lee}, "Boost": {"type": "spell", "effect": "Buff a unit."}}
    state = {"units": [{"name": "Lee", "controller": "Ana", "at": "base", "buffs": 2}], "hand": {"Ana": ["Boost"]}}
    g = game(state, cards)
    assert g.snapshot()["units"]["Lee"]["might"] == 7
    events = run(g, "Ana plays Boost targeting Lee", "Ana passes", "Ben passes")
    assert g.snapshot()["units"]["Lee"]["might"] == 8 and "002" in rules(events)  # card text supersedes 702.3
    assert any("can have any number of buffs" in e.what for e in events)
    g.s.spend_buff(g.s.cards["lee"])
    assert g.snapshot()["units"]["Lee"]["might"] == 7 and g.s.cards["lee"].buffed
