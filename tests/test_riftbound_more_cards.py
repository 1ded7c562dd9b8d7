"""Riftbound card text the library's cards needed read whole (issue 23), step by step with the rules cited: cards
put into the hand from among those looked at, recycled one or both and put back in order; buffs worth more this
turn; winning by a card; an Additional Turn; a spell's "this"; delayed abilities ("... at the end of this turn", "the
next unit you play this turn enters ready"); discounts (while an enemy unit has died this turn, by the highest Might,
in the player's best order); a card in the trash chosen by its costs; a legend's passive for a unit defending alone;
triggers (leaving the board, an opponent's move, a friendly unit's move, a kill, a choice made with a spell, a
spell's from the trash); a battlefield forbidding a move; a move to or from base; each player returning a unit in
turn; damage split among targets."""

from __future__ import annotations

import pytest

from engine.core import IllegalAction
from tests.test_riftbound_mechanics import CIT, CIT13, game


def run(g, *actions: str) -> list:
    return [e for a in actions for e in g.apply(a)]


def rules(events) -> set[str]:
    return {r for e in events for r in e.rules}


def text(events) -> str:
    return "\n".join(e.what for e in events)


# --- put N into your hand from among the cards looked at ------------------------------------------------------
STACKED = {
    "Stacked Deck": {
        "type": "spell",
        "effect": "Look at the top 3 cards of your Main Deck. Put 1 into your hand and recycle the rest.",
    },
    **{name: {"type": "unit", "might": 1} for name in ("Alpha", "Beta", "Gamma", "Delta")},
}


def test_a_card_looked_at_is_chosen_into_the_hand_and_the_rest_recycled():
    g = game({"hand": {"Ana": ["Stacked Deck"]}, "deck": {"Ana": ["Alpha", "Beta", "Gamma", "Delta"]}}, STACKED)
    events = run(g, "Ana plays Stacked Deck", "Ana passes", "Ben passes")
    assert "Ana chooses the card to put into their hand among those looked at (Alpha, Beta, Gamma" in text(events)
    assert g.legal_actions() == ["Ana chooses Alpha", "Ana chooses Beta", "Ana chooses Gamma"]
    events = g.apply("Ana chooses Beta")
    assert "Ana puts Beta from among the cards looked at into their hand" in text(events)
    assert "Ana recycles Alpha, Gamma to the bottom of their Main Deck" in text(events)
    assert {"103.2.e.1", "352.10.a", "403.1.a"} <= rules(events)
    snap = g.snapshot()
    assert snap["hand"]["Ana"] == 1 and snap["deck"]["Ana"] == 3


# --- buffs give an additional +N Might this turn --------------------------------------------------------------
def test_buffs_give_more_might_this_turn_then_expire():
    cards = {
        "Stand United": {
            "type": "spell",
            "effect": "Buff a friendly unit. Buffs give an additional +1 [M] to friendly units this turn.",
        }
    }
    units = [
        {"name": "Garen", "controller": "Ana", "at": "base", "might": 3, "buffed": True},
        {"name": "Lux", "controller": "Ana", "at": "base", "might": 2},
        {"name": "Teemo", "controller": "Ben", "at": "base", "might": 2, "buffed": True},
    ]
    g = game({"units": units, "hand": {"Ana": ["Stand United"]}}, cards)
    events = run(g, "Ana plays Stand United targeting Lux", "Ana passes", "Ben passes")
    assert "each buff on Ana's units gives +2 Might instead of +1" in text(events)
    assert {"703", "710"} <= rules(events)
    might = {k: v["might"] for k, v in g.snapshot()["units"].items()}
    assert might == {"Garen": 5, "Lux": 4, "Teemo": 3}  # Ben's buff is still +1
    run(g, "Ana ends turn")
    assert g.snapshot()["units"]["Garen"]["might"] == 4  # expired in the Expiration Step


# --- you win the game --------------------------------------------------------------------------------------------
@pytest.mark.parametrize("units, winner", [(7, "Ana"), (6, None)])
def test_a_battlefield_that_wins_the_game_when_held_with_enough_units(units, winner):
    plaza = {"name": "The Grand Plaza", "controller": "Ana"}
    plaza["effect"] = "When you hold here, if you have 7+ units here, you win the game."
    state = {
        "battlefields": [plaza, {"name": "Grove"}],
        "units": [
            {"name": f"Poro#{i}", "controller": "Ana", "at": "The Grand Plaza", "might": 1} for i in range(units)
        ],
    }
    g = game(state, turn={"player": "Ben", "phase": "main"})
    events = run(g, "Ben ends turn", "Ana passes", "Ben passes")
    assert f"Ana has {units} units at The Grand Plaza" in text(events)
    assert g.snapshot()["winner"] == winner
    if winner:
        assert "Ana wins the game" in text(events) and "002" in rules(events) and g.legal_actions() == []


# --- take a turn after this one; a spell's "this" --------------------------------------------------------------
TIME_WARP = {"Time Warp": {"type": "spell", "effect": "Take a turn after this one. Banish this."}}


@pytest.mark.parametrize("citations, rules_cited", [(CIT, {"002"}), (CIT13, {"735", "737"})])
def test_an_additional_turn_comes_next_and_turn_order_goes_on_after_it(citations, rules_cited):
    g = game({"hand": {"Ana": ["Time Warp"]}}, TIME_WARP, citations)
    events = run(g, "Ana plays Time Warp", "Ana passes", "Ben passes")
    assert "an Additional Turn for Ana is queued after this one" in text(events)
    assert "Time Warp is banished" in text(events) and "053.2" in rules(events)
    assert rules_cited <= rules(events)
    events = g.apply("Ana ends turn")
    assert "Ana takes the Additional Turn queued after this one" in text(events)
    assert g.snapshot()["turn"] == 2 and g.legal_actions()[0].startswith("Ana ")
    events = g.apply("Ana ends turn")
    assert "Ben is the next player in Turn Order" in text(events) and g.legal_actions()[0].startswith("Ben ")


def test_an_additional_turn_of_another_player_returns_to_the_queued_turns():
    cards = {
        "Time Warp": {**TIME_WARP["Time Warp"], "keywords": ["Reaction"]},
        "Bolt": {"type": "spell", "effect": "Draw 1."},
    }
    g = game({"hand": {"Ben": ["Time Warp"], "Ana": ["Bolt"]}}, cards, CIT13)
    events = run(g, "Ana plays Bolt", "Ana passes", "Ben plays Time Warp", "Ben passes", "Ana passes")
    assert "an Additional Turn for Ben is queued after this one" in text(events)
    while "Ana ends turn" not in g.legal_actions():
        g.apply(next(a for a in g.legal_actions() if a.endswith(" passes")))
    events = g.apply("Ana ends turn")
    assert "Ben takes the Additional Turn" in text(events) and {"735", "737"} <= rules(events)
    events = g.apply("Ben ends turn")
    assert "Ben is the next player in Turn Order" in text(events)  # the queue goes on after Ana's turn: Ben's


# --- delayed abilities -----------------------------------------------------------------------------------------
def test_an_effect_at_the_end_of_this_turn_triggers_in_the_ending_step():
    peak = {"name": "Targon's Peak", "effect": "When you conquer here, ready up to 2 runes at the end of this turn."}
    state = {
        "battlefields": [peak, {"name": "Grove"}],
        "units": [{"name": "Garen", "controller": "Ana", "at": "base", "might": 3}],
        "runes": {"Ana": {"exhausted": ["Fury", "Fury", "Calm"]}},
    }
    g = game(state)
    events = run(g, "Ana moves Garen to Targon's Peak", "Ana passes", "Ben passes", "Ana passes", "Ben passes")
    assert '"ready up to 2 runes" will trigger at the end of this turn' in text(events) and "383.2" in rules(events)
    assert "readies" not in text(events)
    events = g.apply("Ana ends turn")
    assert "Targon's Peak's end of this turn ability triggers" in text(events) and {"383.2", "385"} <= rules(events)
    events = run(g, "Ana passes", "Ben passes")
    assert "Ana readies 2 rune(s)" in text(events)


def test_the_next_unit_played_this_turn_enters_ready():
    cards = {
        "Sun Disc": {"type": "gear", "effect": "[E]: [Legion] - The next unit you play this turn enters ready."},
        "Bolt": {"type": "spell", "effect": "Draw 1."},
        "Poro": {"type": "unit", "might": 1},
        "Yeti": {"type": "unit", "might": 2},
    }
    g = game({"gear": [{"name": "Sun Disc", "controller": "Ana"}], "hand": {"Ana": ["Bolt", "Poro", "Yeti"]}}, cards)
    events = run(g, "Ana plays Bolt", "Ana passes", "Ben passes", "Ana activates Sun Disc", "Ana passes", "Ben passes")
    assert "the next unit Ana plays this turn enters ready" in text(events) and "383.4" in rules(events)
    events = g.apply("Ana plays Poro")
    assert "enters the board ready" in text(events) and "383.4" in rules(events)
    events = g.apply("Ana plays Yeti")
    assert "enters the board exhausted" in text(events)


# --- discounts: a condition of the turn, a varying amount ------------------------------------------------------
SPOILS = {
    "Spoils of War": {
        "type": "spell",
        "cost": "[4]",
        "effect": "[Reaction]\nIf an enemy unit has died this turn, this costs [2] less.\nDraw 2.",
    },
    "Bolt": {"type": "spell", "effect": "Deal 3 to a unit."},
}


def test_a_discount_while_an_enemy_unit_has_died_this_turn():
    state = {
        "hand": {"Ana": ["Spoils of War", "Bolt"]},
        "pool": {"Ana": {"energy": 2}},
        "units": [{"name": "Teemo", "controller": "Ben", "at": "base", "might": 2}],
    }
    g = game(state, SPOILS)
    with pytest.raises(IllegalAction) as err:
        g.apply("Ana plays Spoils of War")
    assert err.value.reason == "cost.must_pay"
    run(g, "Ana plays Bolt targeting Teemo", "Ana passes", "Ben passes")
    events = g.apply("Ana plays Spoils of War")
    assert "The total cost of Spoils of War is [2]" in text(events)


def test_a_spells_cost_reduced_by_the_highest_might_among_your_units():
    cards = {
        "Sky Splitter": {
            "type": "spell",
            "cost": "[8]",
            "effect": "This spell's Energy cost is reduced by the highest Might among units you control.\n"
            "Deal 5 to a unit at a battlefield.",
        }
    }
    state = {
        "battlefields": [{"name": "Grove", "controller": "Ben"}],
        "hand": {"Ana": ["Sky Splitter"]},
        "pool": {"Ana": {"energy": 3}},
        "units": [
            {"name": "Garen", "controller": "Ana", "at": "base", "might": 5},
            {"name": "Lux", "controller": "Ana", "at": "base", "might": 2},
            {"name": "Teemo", "controller": "Ben", "at": "Grove", "might": 9},
        ],
    }
    events = game(state, cards).apply("Ana plays Sky Splitter targeting Teemo")
    assert "The total cost of Sky Splitter is [3]" in text(events)


# --- a card in the trash chosen by its Energy and Power costs -----------------------------------------------------
def test_a_unit_in_the_trash_costing_no_more_than_energy_and_power():
    cards = {
        "Spectral Matron": {
            "type": "unit",
            "might": 3,
            "cost": "[5]",
            "effect": "When you play me, you may play a unit costing no more than [3] and no more than [A] from "
            "your trash, ignoring its cost.",
        },
        "Cheap": {"type": "unit", "might": 2, "cost": "[3][R]"},
        "Twice": {"type": "unit", "might": 4, "cost": "[3][R][R]"},
        "Big": {"type": "unit", "might": 5, "cost": "[4]"},
    }
    state = {
        "hand": {"Ana": ["Spectral Matron"]},
        "trash": {"Ana": ["Cheap", "Twice", "Big"]},
        "pool": {"Ana": {"energy": 5}},
    }
    events = game(state, cards).apply("Ana plays Spectral Matron")
    assert "Cheap, the only valid choice" in text(events)


# --- a legend's passive ability for each unit that defends alone ----------------------------------------------------
@pytest.mark.parametrize("defenders, might", [(["Teemo"], 5), (["Teemo", "Poro"], 3)])
def test_a_unit_that_defends_alone_gets_might_from_a_legend(defenders, might):
    cards = {"Wuju": {"type": "legend", "effect": "While a friendly unit defends alone, it gets +2 [M]."}}
    units = [{"name": "Garen", "controller": "Ana", "at": "base", "might": 4}]
    units += [{"name": n, "controller": "Ben", "at": "Grove", "might": 3 if n == "Teemo" else 1} for n in defenders]
    state = {"battlefields": [{"name": "Grove", "controller": "Ben"}, {"name": "Altar"}], "legends": {"Ben": "Wuju"}}
    g = game({**state, "units": units}, cards)
    assert g.snapshot()["units"]["Teemo"]["might"] == 3  # not defending yet
    g.apply("Ana moves Garen to Grove")
    snap = g.snapshot()["units"]
    assert snap["Teemo"]["designation"] == "defender" and snap["Teemo"]["might"] == might
    assert snap["Garen"]["might"] == 4  # Ana's attacker is not Ben's friendly unit


def test_the_printed_tie_replacement_is_read_as_the_faq_words_it():
    from engine.riftbound import effects

    printed = "If a combat where you are the attacker ends in a tie, recall ALL units instead. (Send them to base.)"
    (ability,) = effects.abilities(printed)
    assert (ability.kind, ability.data) == ("passive", ("tie_recall_all",))


# --- triggers: leaving the board, an opponent's move --------------------------------------------------------------
def test_a_gear_that_leaves_the_board_triggers_from_its_new_zone():
    cards = {
        "Treasure Trove": {
            "type": "gear",
            "effect": "When this leaves the board, draw 1 and channel 1 rune exhausted.\n[Chaos], [E]: Kill this.",
        }
    }
    g = game({"gear": [{"name": "Treasure Trove", "controller": "Ana"}], "runes": {"Ana": {"ready": ["Chaos"]}}}, cards)
    events = run(g, "Ana activates Treasure Trove", "Ana passes", "Ben passes")
    assert "Treasure Trove's leave ability triggers" in text(events) and {"376.2.c", "378.2"} <= rules(events)
    events = run(g, "Ana passes", "Ben passes")
    assert "Ana draws a card" in text(events) and "Ana channels 1 rune exhausted" in text(events)


@pytest.mark.parametrize(
    "move, triggers",
    [("Ana moves Garen and Lux to Altar", 1), ("Ana moves Garen to Grove", 0), ("Ana moves Garen to Altar", 1)],
)
def test_when_an_opponent_moves_to_a_battlefield_other_than_mine(move, triggers):
    cards = {
        "Volibear": {
            "type": "unit",
            "might": 5,
            "effect": "When an opponent moves to a battlefield other than mine, draw 1.",
        }
    }
    units = [
        {"name": "Garen", "controller": "Ana", "at": "base", "might": 4},
        {"name": "Lux", "controller": "Ana", "at": "base", "might": 2},
        {"name": "Volibear", "controller": "Ben", "at": "Grove"},
    ]
    state = {"battlefields": [{"name": "Grove", "controller": "Ben"}, {"name": "Altar"}], "units": units}
    events = game(state, cards).apply(move)
    assert text(events).count("Volibear's move ability triggers") == triggers


def test_a_unit_moved_to_the_battlefield_of_the_unit_acted_on_before():
    cards = {
        "Zenith Blade": {
            "type": "spell",
            "effect": "Stun an enemy unit at a battlefield. You may move a friendly unit to that enemy unit's "
            "battlefield.",
        }
    }
    units = [
        {"name": "Garen", "controller": "Ana", "at": "base", "might": 4},
        {"name": "Teemo", "controller": "Ben", "at": "Grove", "might": 2},
    ]
    state = {"battlefields": [{"name": "Grove", "controller": "Ben"}, {"name": "Altar"}], "units": units}
    g = game({**state, "hand": {"Ana": ["Zenith Blade"]}}, cards)
    run(g, "Ana plays Zenith Blade targeting Teemo and Garen", "Ana passes", "Ben passes")
    events = g.apply("Ana accepts")
    assert "Garen moves from base to Grove" in text(events)


def test_a_spells_triggered_ability_active_in_the_trash_returns_it_to_the_hand():
    cards = {
        "Rocket": {
            "type": "spell",
            "effect": "Deal 5 to a unit.\nWhen you conquer, you may discard 1 to return this from your trash to your hand.",
        },
        "Junk": {"type": "unit", "might": 1},
    }
    state = {
        "battlefields": [{"name": "Grove"}, {"name": "Altar"}],
        "trash": {"Ana": ["Rocket"]},
        "hand": {"Ana": ["Junk"]},
        "units": [{"name": "Garen", "controller": "Ana", "at": "base", "might": 4}],
    }
    g = game(state, cards)
    events = run(g, "Ana moves Garen to Grove", "Ana passes", "Ben passes")
    assert "Rocket's conquer ability triggers" in text(events) and "378.2" in rules(events)
    run(g, "Ana passes", "Ben passes")
    events = g.apply("Ana accepts")
    assert "Ana discards Junk" in text(events) and "Rocket returns from Ana's trash to their hand" in text(events)


# --- a battlefield that forbids a move ----------------------------------------------------------------------------
def test_units_cant_move_from_a_battlefield_to_base():
    lair = {"name": "Vilemaw's Lair", "controller": "Ana", "effect": "Units can't move from here to base."}
    units = [
        {"name": "Garen", "controller": "Ana", "at": "Vilemaw's Lair", "might": 4},
        {"name": "Teemo", "controller": "Ana", "at": "Vilemaw's Lair", "might": 2, "keywords": ["Ganking"]},
    ]
    cards = {"Shove": {"type": "spell", "effect": "Move a friendly unit to base."}}
    state = {"battlefields": [lair, {"name": "Grove"}], "units": units, "hand": {"Ana": ["Shove"]}}
    g = game(state, cards)
    with pytest.raises(IllegalAction) as err:
        g.apply("Ana moves Garen to base")
    assert err.value.reason == "rules.cant_beats_can" and "054.1" in err.value.rules
    events = run(g, "Ana plays Shove targeting Garen", "Ana passes", "Ben passes")
    assert "Garen does not move" in text(events) and g.snapshot()["units"]["Garen"]["at"] == "Vilemaw's Lair"
    assert "Teemo moves from Vilemaw's Lair to Grove" in text(g.apply("Ana moves Teemo to Grove"))


@pytest.mark.parametrize(
    "unit, place, moved",
    [("Garen", "base", True), ("Lux", "Altar", True), ("Garen", "Altar", False)],
)
def test_a_unit_moved_to_or_from_its_base(unit, place, moved):
    cards = {"Unforgiven": {"type": "legend", "effect": "[2], [E]: Move a friendly unit to or from its base."}}
    units = [
        {"name": "Garen", "controller": "Ana", "at": "Grove", "might": 4},
        {"name": "Lux", "controller": "Ana", "at": "base", "might": 2},
    ]
    state = {
        "battlefields": [{"name": "Grove", "controller": "Ana"}, {"name": "Altar"}],
        "legends": {"Ana": "Unforgiven"},
        "pool": {"Ana": {"energy": 2}},
        "units": units,
    }
    g = game(state, cards)
    events = run(g, f"Ana activates Unforgiven targeting {unit} to {place}", "Ana passes", "Ben passes")
    assert (g.snapshot()["units"][unit]["at"] == place) is moved
    if not moved:
        assert "moves a unit only to or from its base" in text(events) and "055" in rules(events)


def test_a_unit_that_may_be_moved_with_a_friendly_unit_leaving_its_location():
    cards = {
        "Pursuer": {
            "type": "unit",
            "might": 2,
            "effect": "When a friendly unit moves from my location, I may be moved with it.",
        }
    }
    units = [
        {"name": "Garen", "controller": "Ana", "at": "base", "might": 4},
        {"name": "Pursuer", "controller": "Ana", "at": "base"},
        {"name": "Teemo", "controller": "Ben", "at": "base", "might": 1},
    ]
    state = {"battlefields": [{"name": "Grove"}, {"name": "Altar"}], "units": units}
    g = game(state, cards)
    events = g.apply("Ana moves Garen to Grove")
    assert "Pursuer's move ability triggers" in text(events)
    run(g, "Ana passes", "Ben passes")
    events = g.apply("Ana accepts")
    assert "Pursuer moves from base to Grove" in text(events) and "427" in rules(events)
    assert {k: v["at"] for k, v in g.snapshot()["units"].items()} == {
        "Garen": "Grove",
        "Pursuer": "Grove",
        "Teemo": "base",
    }


def test_each_player_in_turn_may_return_a_unit_starting_with_the_next_player():
    cards = {
        "Whirlwind": {
            "type": "spell",
            "effect": "Starting with the next player, each player may return a unit to its owner's hand.",
        }
    }
    units = [
        {"name": "Garen", "controller": "Ana", "at": "base", "might": 4},
        {"name": "Teemo", "controller": "Ben", "at": "base", "might": 1},
    ]
    g = game({"hand": {"Ana": ["Whirlwind"]}, "units": units}, cards)
    events = run(g, "Ana plays Whirlwind", "Ana passes", "Ben passes")
    assert "Ben chooses a unit to return to its owner's hand, or nothing" in text(events)
    assert g.legal_actions() == ["Ben chooses Garen", "Ben chooses Teemo", "Ben chooses nothing"]
    events = g.apply("Ben chooses Garen")
    assert "Garen (not a target): it returns from base to its owner's (Ana's) hand" in text(events)
    assert {"352.10.e", "107.6.f"} <= rules(events) and g.legal_actions() == [
        "Ana chooses Teemo",
        "Ana chooses nothing",
    ]
    events = g.apply("Ana chooses nothing")
    assert "Ana chooses to return nothing" in text(events) and list(g.snapshot()["units"]) == ["Teemo"]


@pytest.mark.parametrize("spell, stunned, triggers", [("Bolt", True, 1), ("Slay", True, 1), ("Bolt", False, 0)])
def test_when_you_kill_a_stunned_enemy_unit_with_a_spell(spell, stunned, triggers):
    cards = {
        "Solari Shrine": {
            "type": "gear",
            "effect": "When you kill a stunned enemy unit, you may exhaust this to draw 1.",
        },
        "Bolt": {"type": "spell", "effect": "Deal 3 to a unit."},
        "Slay": {"type": "spell", "effect": "Kill a unit."},
    }
    state = {
        "gear": [{"name": "Solari Shrine", "controller": "Ana"}],
        "hand": {"Ana": [spell]},
        "units": [{"name": "Teemo", "controller": "Ben", "at": "base", "might": 2, "stunned": stunned}],
    }
    g = game(state, cards)
    events = run(g, f"Ana plays {spell} targeting Teemo", "Ana passes", "Ben passes")
    assert text(events).count("Solari Shrine's a unit was killed ability triggers") == triggers
    if triggers:
        run(g, "Ana passes", "Ben passes")
        events = g.apply("Ana accepts")
        assert "Ana exhausts Solari Shrine to pay" in text(events) and "Ana draws" in text(events)


@pytest.mark.parametrize(
    "answers, said",
    [
        (("Ana accepts", "Ana chooses Alpha"), "recycles Alpha to the bottom of their Main Deck\nAna puts Beta back"),
        (("Ana accepts", "Ana chooses both"), "recycles Alpha, Beta to the bottom of their Main Deck"),
        (("Ana declines", "Ana chooses Beta"), "Ana puts Beta, Alpha back on top of their Main Deck in that order"),
    ],
)
def test_cards_looked_at_recycled_one_or_both_and_the_rest_put_back_in_any_order(answers, said):
    sanctum = {
        "name": "The Candlelit Sanctum",
        "effect": "When you conquer here, look at the top two cards of your Main Deck. You may recycle one or both of "
        "them. Put those you don't back in any order.",
    }
    state = {
        "battlefields": [sanctum, {"name": "Grove"}],
        "deck": {"Ana": ["Alpha", "Beta", "Gamma"]},
        "units": [{"name": "Garen", "controller": "Ana", "at": "base", "might": 3}],
    }
    g = game(state, {n: {"type": "unit", "might": 1} for n in ("Alpha", "Beta", "Gamma")})
    run(g, "Ana moves Garen to The Candlelit Sanctum", "Ana passes", "Ben passes", "Ana passes", "Ben passes")
    events = run(g, *answers)
    assert said in text(events) and "352.10.a" in rules(events)


# --- damage split among targets ---------------------------------------------------------------------------------
def test_damage_split_among_targets_is_divided_as_it_resolves():
    cards = {
        "Volibear": {
            "type": "unit",
            "might": 6,
            "effect": "When I attack, deal 5 damage split among any number of enemy units here.",
        }
    }
    units = [
        {"name": "Volibear", "controller": "Ana", "at": "base"},
        {"name": "Teemo", "controller": "Ben", "at": "Grove", "might": 2},
        {"name": "Lux", "controller": "Ben", "at": "Grove", "might": 3},
        {"name": "Yeti", "controller": "Ben", "at": "Grove", "might": 9},
    ]
    state = {"battlefields": [{"name": "Grove", "controller": "Ben"}, {"name": "Altar"}], "units": units}
    g = game(state, cards)
    g.apply("Ana moves Volibear to Grove")
    assert "Ana chooses Teemo, Lux, Yeti" in g.legal_actions()
    events = run(g, "Ana chooses Teemo, Lux, Yeti", "Ana passes", "Ben passes")
    assert "how much of the 5 left Teemo is dealt (1, 2, 3" in text(events) and "352.14.e" in rules(events)
    events = run(g, "Ana chooses 2", "Ana chooses 2")
    assert "Ana divides 5 damage among its targets: Teemo 2, Lux 2, Yeti 1" in text(events)
    assert {"352.14.a", "352.14.g"} <= rules(events) and "Teemo has lethal damage" in text(events)


def test_a_battlefield_that_watches_a_player_choose_their_unit_there_with_a_spell():
    tree = {
        "name": "The Dreaming Tree",
        "controller": "Ana",
        "effect": "When a player chooses a friendly unit here with a spell for the first time each turn, they draw 1.",
    }
    cards = {"Boost": {"type": "spell", "effect": "Give a unit +1 [M] this turn."}}
    state = {
        "battlefields": [tree, {"name": "Grove"}],
        "hand": {"Ana": ["Boost", "Boost#2"]},
        "units": [{"name": "Garen", "controller": "Ana", "at": "The Dreaming Tree", "might": 4}],
    }
    g = game(state, cards)
    events = g.apply("Ana plays Boost targeting Garen")
    assert "The Dreaming Tree's a unit here was chosen ability triggers" in text(events) and "376.1.b" in rules(events)
    events = run(g, "Ana passes", "Ben passes")
    assert "Ana draws a card" in text(events)
    run(g, "Ana passes", "Ben passes")
    assert "Dreaming Tree" not in text(g.apply("Ana plays Boost#2 targeting Garen"))  # the first time each turn only


def test_discounts_in_the_players_best_order_the_rules_example():
    """353.4.c: Eager Apprentice's discount (to a minimum of 1) first, then Sky Splitter's own: 0, not 1."""
    cards = {
        "Sky Splitter": {
            "type": "spell",
            "cost": "[8]",
            "effect": "This spell's Energy cost is reduced by the highest Might among units you control.\n"
            "Deal 5 to a unit at a battlefield.",
        },
        "Eager Apprentice": {
            "type": "unit",
            "might": 7,
            "effect": "While I'm at a battlefield, the Energy costs for spells you play is reduced by [1], to a "
            "minimum of [1].",
        },
    }
    state = {
        "battlefields": [{"name": "Grove", "controller": "Ana"}, {"name": "Altar", "controller": "Ben"}],
        "hand": {"Ana": ["Sky Splitter"]},
        "pool": {"Ana": {"energy": 0}},
        "units": [
            {"name": "Eager Apprentice", "controller": "Ana", "at": "Grove"},
            {"name": "Teemo", "controller": "Ben", "at": "Altar", "might": 9},
        ],
    }
    events = game(state, cards).apply("Ana plays Sky Splitter targeting Teemo")
    assert "The total cost of Sky Splitter is [0]" in text(events) and "353.4" in rules(events)
