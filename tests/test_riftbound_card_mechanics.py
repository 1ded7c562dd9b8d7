"""Riftbound mechanics the library's cards needed to be read whole (issue 23), step by step with their rules:
a power of either of two domains ("[Body/Order]", a card of two domains), a condition on using an activated
ability, and what the other clauses read here do."""

from __future__ import annotations

import pytest

from engine.core import IllegalAction
from tests.test_riftbound_mechanics import CIT, CIT13, game, rules


def text(events) -> str:
    return "\n".join(e.what for e in events)


# --- a power of either of two domains ----------------------------------------------------------------------------
STRIKE = {"type": "spell", "cost": "[1][Body/Order]", "domain": ["Body", "Order"], "effect": "Draw 1."}


@pytest.mark.parametrize("rune", ["Body", "Order"])
def test_a_power_of_either_domain_is_paid_by_a_rune_of_either(rune):
    g = game({"runes": {"Ana": {"ready": [rune, "Calm"]}}, "hand": {"Ana": ["Strike"]}}, {"Strike": STRIKE})
    events = g.apply("Ana plays Strike")
    assert f"exhausted {rune} rune for power" in text(events)
    assert {"159.2", "354.1"} <= rules(events)  # Power pays Domain-associated Power Costs (v1.2 159.2)


def test_a_power_of_either_domain_is_not_paid_by_a_third_domain():
    g = game({"runes": {"Ana": {"ready": ["Calm", "Fury"]}}, "hand": {"Ana": ["Strike"]}}, {"Strike": STRIKE})
    with pytest.raises(IllegalAction) as err:
        g.apply("Ana plays Strike")
    assert err.value.reason == "cost.must_pay" and "[1][Body/Order]" in str(err.value)


def test_a_power_of_either_domain_is_paid_from_the_pool_under_v1_3():
    g = game(
        {"pool": {"Ana": {"energy": 1, "power": ["Order"]}}, "hand": {"Ana": ["Strike"]}}, {"Strike": STRIKE}, CIT13
    )
    events = g.apply("Ana plays Strike")
    assert "spends [Order] from their Rune Pool" in text(events) and {"162.2", "357.1"} <= rules(events)


# --- a condition on using an activated ability (377.2.b) ------------------------------------------------------
CAITLYN = {
    "type": "unit",
    "might": 3,
    "effect": "[E]: Deal damage equal to my Might to a unit at a battlefield. "
    "Use this ability only while I'm at a battlefield.",
}


@pytest.mark.parametrize("citations, rule", [(CIT13, "377.2.b"), (CIT, "002")])
def test_an_ability_used_only_while_at_a_battlefield(citations, rule):
    state = {
        "battlefields": [{"name": "Grove"}, {"name": "Altar", "controller": "Ben"}],
        "units": [
            {"name": "Caitlyn", "controller": "Ana", "at": "base"},
            {"name": "Garen", "controller": "Ben", "at": "Altar", "might": 4},
        ],
    }
    g = game(state, {"Caitlyn": CAITLYN}, citations)
    with pytest.raises(IllegalAction) as err:
        g.apply("Ana activates Caitlyn targeting Garen")
    assert err.value.reason == "ability.use_condition" and err.value.rules == (rule,)
    assert "only while it is at a battlefield" in str(err.value)
    state["units"][0]["at"] = "Grove"
    state["battlefields"][0]["controller"] = "Ana"
    g = game(state, {"Caitlyn": CAITLYN}, citations)
    g.apply("Ana activates Caitlyn targeting Garen")
    events = g.apply("Ana passes") + g.apply("Ben passes")
    assert "Garen" in text(events) and g.snapshot()["units"]["Garen"]["damage"] == 3


# --- discarding as a trigger's event -----------------------------------------------------------------------------
DISCARDS = {
    "Toss": {"type": "spell", "effect": "Discard 1."},
    "Chompers": {
        "type": "unit",
        "might": 3,
        "cost": "[3][Fury]",
        "domain": ["Fury"],
        "effect": "When you discard me, you may pay [Fury] to play me.",
    },
    "Jinx": {
        "type": "unit",
        "might": 5,
        "effect": "When you discard one or more cards, ready me and give me +1 [M] this turn.",
    },
}


def _play_out(g, answer: str = "Ana accepts") -> list:
    events: list = []
    while g.snapshot()["chain"] or not events:
        legal = g.legal_actions()
        events += g.apply(answer if answer in legal else next(a for a in legal if a.endswith("passes")))
    return events


def test_discarding_triggers_the_discarder_s_watchers_and_the_card_discarded_from_its_trash():
    g = game(
        {
            "runes": {"Ana": {"ready": ["Fury"]}},
            "hand": {"Ana": ["Toss", "Chompers"]},
            "units": [{"name": "Jinx", "controller": "Ana", "at": "base", "exhausted": True}],
        },
        DISCARDS,
        CIT13,
    )
    g.apply("Ana plays Toss")
    events = _play_out(g)
    said = text(events)
    assert "Ana discards Chompers" in said and "Jinx's discard ability triggers" in said
    assert "Chompers's discard ability triggers" in said and "385.2" in rules(events)  # a trigger from the trash
    assert "Ana plays Chompers from their trash" in said and "recycles a Fury rune for power" in said
    units = g.snapshot()["units"]
    assert units["Chompers"]["at"] == "base" and units["Jinx"] == {**units["Jinx"], "might": 6, "exhausted": False}


def test_a_card_discarded_whose_controller_declines_stays_in_the_trash():
    g = game({"hand": {"Ana": ["Toss", "Chompers"]}}, DISCARDS, CIT13)
    g.apply("Ana plays Toss")
    _play_out(g, "Ana declines")
    assert "Chompers" not in g.snapshot().get("units", {})


# --- a spell that costs no more than [4] and no more than [A] ----------------------------------------------------
DEFY = {
    "type": "spell",
    "keywords": ["Reaction"],
    "effect": "Counter a spell that costs no more than [4] and no more than [A].",
}


@pytest.mark.parametrize(
    "cost, why",
    [("[2][Fury]", None), ("[5]", "its Energy cost is 5, more than 4"), ("[1][Fury][Fury]", "its Power cost is 2")],
)
def test_a_spell_is_countered_only_if_its_printed_costs_are_no_more_than_said(cost, why):
    g = game(
        {"hand": {"Ana": ["Zap"], "Ben": ["Defy"]}},
        {"Zap": {"type": "spell", "cost": cost, "effect": "Draw 1."}, "Defy": DEFY},
    )
    g.apply("Ana plays Zap")
    g.apply("Ana passes")
    if why is None:
        g.apply("Ben plays Defy targeting Zap")
        g.apply("Ben passes")
        assert "Zap is countered" in text(g.apply("Ana passes"))
        return
    with pytest.raises(IllegalAction) as err:
        g.apply("Ben plays Defy targeting Zap")
    assert err.value.reason == "play.target_restrictions" and why in str(err.value)
    assert "130.4" in err.value.rules  # a card's printed cost (v1.2 130.4)


# --- "this combat" ---------------------------------------------------------------------------------------------------
@pytest.mark.parametrize("citations, rule", [(CIT13, "461.7.b"), (CIT, "002")])
def test_a_keyword_gained_this_combat_is_lost_as_the_combat_ends(citations, rule):
    g = game(
        {
            "battlefields": [
                {
                    "name": "Grove",
                    "controller": "Ana",
                    "effect": "When you defend here, choose a unit. It gains [Shield 2] this combat.",
                }
            ],
            "units": [
                {"name": "Lux", "controller": "Ana", "at": "Grove", "might": 2},
                {"name": "Garen", "controller": "Ben", "at": "base", "might": 3},
            ],
        },
        citations=citations,
        turn={"player": "Ben", "phase": "main"},
    )
    events = g.apply("Ben moves Garen to Grove") + g.apply("Ana chooses Lux")
    for _ in range(4):
        events += g.apply(next(a for a in g.legal_actions() if a.endswith("passes")))
    said = text(events)
    assert "Lux gets Shield 2 this combat" in said and "the Defenders 4 (Lux 4)" in said  # Shield 2 while defending
    ended = next(e for e in events if "no longer has what it gained this combat" in e.what)
    assert ended.rules == (rule,) and g.snapshot()["units"]["Lux"]["might"] == 2


# --- "it deals damage equal to its Might" -------------------------------------------------------------------------
def test_the_unit_readied_before_deals_damage_equal_to_its_might():
    g = game(
        {
            "battlefields": [{"name": "Altar", "controller": "Ben"}],
            "units": [
                {"name": "Lux", "controller": "Ana", "at": "base", "might": 4, "exhausted": True},
                {"name": "Garen", "controller": "Ben", "at": "Altar", "might": 5},
            ],
            "hand": {"Ana": ["Breath"]},
        },
        {
            "Breath": {
                "type": "spell",
                "effect": "Ready a friendly unit. It deals damage equal to its Might to an enemy unit at a battlefield.",
            }
        },
    )
    g.apply("Ana plays Breath targeting Lux, Garen")
    g.apply("Ana passes")
    events = g.apply("Ben passes")
    assert "Lux is readied" in text(events) and g.snapshot()["units"]["Garen"]["damage"] == 4
    dealt = next(e for e in events if "Lux deals 4 to Garen" in e.what)
    assert "deal.unit_source" in dealt.keys  # the unit is the source of the damage


# --- "recycle me to ready your runes" (a Deathknell) -------------------------------------------------------------
@pytest.mark.parametrize("in_trash", [True, False])
def test_recycling_the_dead_card_readies_every_rune(in_trash):
    cards = {
        "Ekko": {"type": "unit", "might": 5, "effect": "[Deathknell] - Recycle me to ready your runes."},
        "Zap": {"type": "spell", "effect": "Kill a unit."},
    }
    g = game(
        {
            "runes": {"Ana": {"exhausted": ["Mind", "Mind", "Fury"], "ready": ["Calm"]}},
            "units": [{"name": "Ekko", "controller": "Ana", "at": "base"}],
            "hand": {"Ana": ["Zap"]},
        },
        cards,
    )
    g.apply("Ana plays Zap targeting Ekko")
    g.apply("Ana passes")
    events = g.apply("Ben passes")
    if not in_trash:  # something moved Ekko from the trash before its Deathknell resolved
        g.s.cards["ekko"].zone = "banishment"
    events += g.apply("Ana passes") + g.apply("Ben passes")
    runes = g.snapshot()["runes"]["Ana"]
    if in_trash:
        assert "Ana readies 3 rune(s)" in text(events) and runes["exhausted"] == 0 and "352.10.c.1" in rules(events)
    else:
        assert "cannot be recycled to pay" in text(events) and runes["exhausted"] == 3


# --- "deal its Energy cost as damage" --------------------------------------------------------------------------
@pytest.mark.parametrize("hand, damage", [(["Excited", "Bolt"], 3), (["Excited"], 0)])
def test_the_card_discarded_deals_its_printed_energy_cost(hand, damage):
    g = game(
        {
            "battlefields": [{"name": "Altar", "controller": "Ben"}],
            "units": [{"name": "Garen", "controller": "Ben", "at": "Altar", "might": 5}],
            "hand": {"Ana": hand},
        },
        {
            "Excited": {
                "type": "spell",
                "effect": "Discard 1. Deal its Energy cost as damage to a unit at a battlefield.",
            },
            "Bolt": {"type": "spell", "cost": "[3][Fury]", "effect": "Draw 1."},
        },
    )
    g.apply("Ana plays Excited targeting Garen")
    g.apply("Ana passes")
    events = g.apply("Ben passes")
    assert g.snapshot()["units"]["Garen"]["damage"] == damage
    if damage:
        assert "Bolt's printed Energy cost is 3" in text(events) and "130.4" in rules(events)
    else:
        assert "no damage is dealt" in text(events)


# --- "opponents can't play cards this turn" -----------------------------------------------------------------------
def test_opponents_cannot_play_cards_for_the_rest_of_the_turn():
    g = game(
        {"hand": {"Ana": ["Brynhir", "Zap"], "Ben": ["Shield"]}},
        {
            "Brynhir": {
                "type": "unit",
                "might": 5,
                "effect": "When you play me, opponents can't play cards this turn.",
            },
            "Zap": {"type": "spell", "keywords": ["Reaction"], "effect": "Draw 1."},
            "Shield": {"type": "spell", "keywords": ["Reaction"], "effect": "Draw 1."},
        },
    )
    g.apply("Ana plays Brynhir")
    events = g.apply("Ana passes") + g.apply("Ben passes")
    assert "the opponents of Ana can't play cards this turn" in text(events) and "054.1" in rules(events)
    g.apply("Ana plays Zap")  # its controller still can
    g.apply("Ana passes")
    with pytest.raises(IllegalAction) as err:
        g.apply("Ben plays Shield")
    assert err.value.reason == "rules.cant_beats_can" and err.value.rules == ("054.1",)
    g.apply("Ben passes")
    g.apply("Ana ends turn")  # the Expiration Step ends it: Ben may play Shield on his turn
    assert any(a.startswith("Ben plays Shield") for a in g.legal_actions())


# --- "Increase the points needed to win the game by 1" ----------------------------------------------------------
def test_a_battlefield_raises_the_victory_score():
    climb = {"name": "Climb", "effect": "Increase the points needed to win the game by 1."}
    state = {
        "battlefields": [climb, {"name": "Grove"}],
        "points": {"Ana": 8},
        "units": [{"name": "Jinx", "controller": "Ana", "at": "base", "might": 3}],
    }
    g = game(state)
    opened = next(e for e in g.opening if e.what.startswith("Climb"))
    assert "the Victory Score is 9" in opened.what and {"460.3", "002"} <= set(opened.rules)
    g.apply("Ana moves Jinx to Grove")  # a cleanup: 8 points no longer win
    assert g.snapshot().get("winner") is None
    state["battlefields"] = [{"name": "Grove"}]
    g = game(state)
    g.apply("Ana moves Jinx to Grove")
    assert g.snapshot()["winner"] == "Ana"


# --- "Your [Deathknell] effects trigger an additional time" -------------------------------------------------------
@pytest.mark.parametrize("karthus, draws", [(True, 2), (False, 1)])
def test_deathknell_triggers_an_additional_time_for_each_such_passive(karthus, draws):
    units = [{"name": "Poro", "controller": "Ana", "at": "base"}]
    if karthus:
        units.append({"name": "Karthus", "controller": "Ana", "at": "base"})
    g = game(
        {"units": units, "hand": {"Ana": ["Zap"]}, "deck": {"Ana": 5, "Ben": 5}},
        {
            "Poro": {"type": "unit", "might": 1, "effect": "[Deathknell] - Draw 1."},
            "Karthus": {"type": "unit", "might": 3, "effect": "Your [Deathknell] effects trigger an additional time."},
            "Zap": {"type": "spell", "effect": "Kill a unit."},
        },
    )
    g.apply("Ana plays Zap targeting Poro")
    g.apply("Ana passes")
    events = g.apply("Ben passes")
    while g.snapshot()["chain"]:
        events += g.apply("Ana passes") + g.apply("Ben passes")
    assert text(events).count("Ana draws a card") == draws
    if karthus:
        assert "Karthus: Ana's Deathknell effects trigger an additional time" in text(events)
        assert {"002", "361.2"} <= rules(events)


# --- "each player discards their hand, then draws 4" ------------------------------------------------------------
def test_each_player_discards_their_hand_then_each_draws():
    g = game(
        {"hand": {"Ana": ["Invert", "Bolt"], "Ben": ["Shield", "Guard"]}, "deck": {"Ana": 6, "Ben": 6}},
        {
            "Invert": {"type": "spell", "effect": "Each player discards their hand, then draws 4."},
            "Bolt": {"type": "spell", "effect": "Draw 1."},
            "Shield": {"type": "spell", "effect": "Draw 1."},
            "Guard": {"type": "spell", "effect": "Draw 1."},
        },
    )
    g.apply("Ana plays Invert")
    g.apply("Ana passes")
    events = g.apply("Ben passes")
    said = [e.what for e in events if "discards" in e.what or "draws" in e.what]
    assert said[:3] == ["Ana discards Bolt", "Ben discards Shield", "Ben discards Guard"]
    assert [w.split()[0] for w in said[3:]] == ["Ana"] * 4 + ["Ben"] * 4  # then each draws 4, in turn order
    assert "303.2.a" in rules(events)


# --- cards from trashes; cards with [Hidden]; hiding ignoring costs -----------------------------------------------
def test_up_to_four_cards_are_recycled_from_any_players_trash():
    g = game(
        {
            "units": [{"name": "Forge", "controller": "Ana", "at": "base"}],
            "trash": {"Ana": ["Old"], "Ben": ["Older", "Oldest"]},
        },
        {
            "Forge": {"type": "gear", "effect": "Kill this: Recycle up to 4 cards from trashes."},
            "Old": {"type": "spell"},
            "Older": {"type": "spell"},
            "Oldest": {"type": "spell"},
        },
    )
    events = g.apply("Ana activates Forge targeting Old, Oldest")
    assert "Forge is killed" in text(events)  # its cost
    events = g.apply("Ana passes") + g.apply("Ben passes")
    assert "Old is recycled from Ana's trash" in text(events) and "Oldest is recycled from Ben's trash" in text(events)
    zone = g.snapshot()["zone"]
    assert (zone["Old"], zone["Older"], zone["Oldest"]) == ("deck", "trash", "deck")


GUERILLA = {
    "type": "spell",
    "effect": "Return up to two cards with [Hidden] from your trash to your hand. "
    "You can hide cards ignoring costs this turn.",
}


def test_cards_with_hidden_return_from_the_trash_and_hiding_is_free_this_turn():
    cards = {
        "Guerilla": GUERILLA,
        "Trap": {"type": "spell", "keywords": ["Hidden"], "effect": "Draw 1."},
        "Plain": {"type": "spell", "effect": "Draw 1."},
    }
    state = {
        "battlefields": [{"name": "Grove", "controller": "Ana"}],
        "units": [{"name": "Jinx", "controller": "Ana", "at": "Grove", "might": 3}],
        "runes": {"Ana": {"exhausted": ["Chaos"]}},
        "hand": {"Ana": ["Guerilla"]},
        "trash": {"Ana": ["Trap", "Plain"]},
    }
    g = game(state, cards)
    with pytest.raises(IllegalAction) as err:
        g.apply("Ana plays Guerilla targeting Plain")
    assert "it has no Hidden" in str(err.value)
    g.apply("Ana plays Guerilla targeting Trap")
    events = g.apply("Ana passes") + g.apply("Ben passes")
    assert "Ana can hide cards without paying their cost ([A]) this turn" in text(events)
    events = g.apply("Ana hides Trap at Grove")  # no power left: free only because of Guerilla
    hid = next(e for e in events if "hides Trap ignoring its cost" in e.what)
    assert "cost.ignored" in hid.keys and g.snapshot()["zone"]["Trap"] == "facedown"


# --- "Units you play this turn enter ready" ------------------------------------------------------------------------
def test_every_unit_played_this_turn_enters_ready():
    g = game(
        {"hand": {"Ana": ["Confront", "Poro", "Yeti"]}},
        {
            "Confront": {"type": "spell", "effect": "Units you play this turn enter ready. Draw 1."},
            "Poro": {"type": "unit", "might": 1},
            "Yeti": {"type": "unit", "might": 2},
        },
    )
    g.apply("Ana plays Confront")
    events = g.apply("Ana passes") + g.apply("Ben passes")
    assert "units Ana plays this turn enter ready" in text(events) and "383.4" in rules(events)
    events = g.apply("Ana plays Poro") + g.apply("Ana plays Yeti")
    units = g.snapshot()["units"]
    assert not units["Poro"]["exhausted"] and not units["Yeti"]["exhausted"]
    assert text(events).count("plays this turn enter ready") == 2


# --- delayed triggers on damage this turn -------------------------------------------------------------------------
DAMAGE_CARDS = {
    "Decree": {"type": "spell", "effect": "When any unit takes damage this turn, kill it."},
    "Guillotine": {
        "type": "spell",
        "effect": "Choose a unit. Kill it the next time it takes damage this turn.\n[Legion] - Kill it now instead.",
    },
    "Zap": {"type": "spell", "effect": "Deal 1 to a unit."},
}
DAMAGE_STATE = {
    "battlefields": [{"name": "Altar", "controller": "Ben"}],
    "units": [
        {"name": "Garen", "controller": "Ben", "at": "Altar", "might": 5},
        {"name": "Darius", "controller": "Ben", "at": "Altar", "might": 5},
    ],
}


def _resolve(g) -> list:
    events: list = []
    while g.snapshot()["chain"]:
        events += g.apply("Ana passes") + g.apply("Ben passes")
    return events


def test_when_any_unit_takes_damage_this_turn_it_is_killed_every_time():
    g = game(
        {**DAMAGE_STATE, "hand": {"Ana": ["Decree", "Zap", "Zap2"]}}, {**DAMAGE_CARDS, "Zap2": DAMAGE_CARDS["Zap"]}
    )
    g.apply("Ana plays Decree")
    events = _resolve(g)
    assert "a delayed triggered ability, this turn" in text(events) and "383.2" in rules(events)
    for zap, victim in (("Zap", "Garen"), ("Zap2", "Darius")):
        g.apply(f"Ana plays {zap} targeting {victim}")
        events = _resolve(g)
        assert f"Decree ({victim} took damage)" in text(events) and f"{victim} is killed" in text(events)
        assert "385" in rules(events)  # whether or not its source is on the board
    assert not g.snapshot()["units"]


def test_the_next_time_it_takes_damage_it_is_killed_once_or_now_with_legion():
    g = game(
        {**DAMAGE_STATE, "hand": {"Ana": ["Guillotine", "Zap", "Zap2"]}}, {**DAMAGE_CARDS, "Zap2": DAMAGE_CARDS["Zap"]}
    )
    g.apply("Ana plays Guillotine targeting Garen")
    events = _resolve(g)
    assert "the next time Garen takes damage this turn, kill it" in text(events)
    g.apply("Ana plays Zap targeting Darius")  # another unit: nothing
    assert "took damage" not in text(_resolve(g))
    g.apply("Ana plays Zap2 targeting Garen")
    events = _resolve(g)
    assert "Garen is killed" in text(events) and not g.s.damage_watch  # once only
    # Legion: another card played before it this turn, so it is killed now instead
    g = game({**DAMAGE_STATE, "hand": {"Ana": ["Zap", "Guillotine"]}}, DAMAGE_CARDS)
    g.apply("Ana plays Zap targeting Darius")
    _resolve(g)
    g.apply("Ana plays Guillotine targeting Garen")
    events = _resolve(g)
    assert "now, instead of the delayed ability set up before it" in text(events) and "Garen is killed" in text(events)
    assert not g.s.damage_watch


# --- "increase its Might to the Might of another friendly unit" --------------------------------------------------
@pytest.mark.parametrize("other, might", [("Garen", 5), ("Poro", 2)])
def test_a_unit_s_might_is_increased_to_another_s_never_lowered(other, might):
    g = game(
        {
            "units": [
                {"name": "Lux", "controller": "Ana", "at": "base", "might": 2},
                {"name": "Garen", "controller": "Ana", "at": "base", "might": 5},
                {"name": "Poro", "controller": "Ana", "at": "base", "might": 1},
            ],
            "hand": {"Ana": ["Mutation"]},
        },
        {
            "Mutation": {
                "type": "spell",
                "effect": "Choose a friendly unit. This turn, increase its Might to the Might of another friendly unit.",
            }
        },
    )
    g.apply(f"Ana plays Mutation targeting Lux, {other}")
    events = g.apply("Ana passes") + g.apply("Ben passes")
    assert g.snapshot()["units"]["Lux"]["might"] == might and "layers.snapshot" in {k for e in events for k in e.keys}


# --- "a friendly unit and an enemy unit at the same battlefield" ---------------------------------------------------
def test_two_units_stunned_must_be_at_one_battlefield():
    g = game(
        {
            "battlefields": [{"name": "Grove", "controller": "Ana"}, {"name": "Altar", "controller": "Ben"}],
            "units": [
                {"name": "Lux", "controller": "Ana", "at": "Grove", "might": 2},
                {"name": "Vi", "controller": "Ana", "at": "Altar", "might": 2},
                {"name": "Garen", "controller": "Ben", "at": "Altar", "might": 5},
            ],
            "hand": {"Ana": ["Facebreaker"]},
        },
        {
            "Facebreaker": {
                "type": "spell",
                "keywords": ["Action"],
                "effect": "Stun a friendly unit and an enemy unit at the same battlefield.",
            }
        },
    )
    with pytest.raises(IllegalAction) as err:
        g.apply("Ana plays Facebreaker targeting Lux, Garen")
    assert err.value.reason == "targets.group_requirement" and "352.11" in err.value.rules
    g.apply("Ana plays Facebreaker targeting Vi, Garen")
    events = g.apply("Ana passes") + g.apply("Ben passes")
    assert "Vi is stunned" in text(events) and "Garen is stunned" in text(events)


# --- "return your Chosen Champion from your trash to your Champion Zone if it is empty" ----------------------------
def test_the_chosen_champion_returns_to_an_empty_champion_zone_when_its_controller_holds():
    g = game(
        {
            "battlefields": [
                {
                    "name": "Tomb",
                    "controller": "Ana",
                    "effect": "When you hold here, you may return your Chosen Champion from your trash to your "
                    "Champion Zone if it is empty.",
                }
            ],
            "units": [{"name": "Lux", "controller": "Ana", "at": "Tomb", "might": 2}],
            "champion": {"Ana": "Ahri"},
            "hand": {"Ana": ["Zap"]},
        },
        {"Ahri": {"type": "unit", "might": 3, "champion": True}, "Zap": {"type": "spell", "effect": "Kill a unit."}},
    )
    for action in ("Ana plays Ahri", "Ana plays Zap targeting Ahri", "Ana passes", "Ben passes"):
        g.apply(action)
    assert g.snapshot()["zone"]["Ahri"] == "trash"
    for action in ("Ana ends turn", "Ben ends turn", "Ana passes", "Ben passes"):
        g.apply(action)
    events = g.apply("Ana accepts")
    assert "Ahri returns from Ana's trash to their Champion Zone" in text(events)
    assert {"107.2.b", "002"} <= rules(events) and g.snapshot()["zone"]["Ahri"] == "champion"
    assert any(a.startswith("Ana plays Ahri") for a in g.legal_actions())


# --- "a unit at a battlefield or a gear" --------------------------------------------------------------------------
@pytest.mark.parametrize("target, ok", [("Garen", True), ("Blade", True), ("Poro", False)])
def test_one_target_that_fits_either_description(target, ok):
    g = game(
        {
            "battlefields": [{"name": "Altar", "controller": "Ben"}],
            "units": [
                {"name": "Garen", "controller": "Ben", "at": "Altar", "might": 5},
                {"name": "Poro", "controller": "Ben", "at": "base", "might": 1},
                {"name": "Blade", "controller": "Ben", "at": "base"},
            ],
            "hand": {"Ana": ["Fading"]},
        },
        {
            "Fading": {"type": "spell", "effect": "Give a unit at a battlefield or a gear [Temporary]."},
            "Blade": {"type": "gear"},
        },
    )
    if not ok:
        with pytest.raises(IllegalAction) as err:
            g.apply(f"Ana plays Fading targeting {target}")
        assert "it is not at a battlefield" in str(err.value) and "it is not a gear" in str(err.value)
        return
    g.apply(f"Ana plays Fading targeting {target}")
    events = g.apply("Ana passes") + g.apply("Ben passes")
    assert f"{target} gets Temporary" in text(events)


# --- "The next time it would die this turn, ... instead" (a delayed replacement) -----------------------------------
def test_the_next_time_the_chosen_unit_would_die_this_turn_it_is_saved_once():
    zap = {"type": "spell", "effect": "Kill a unit."}
    g = game(
        {
            "battlefields": [{"name": "Grove", "controller": "Ana"}],
            "units": [
                {"name": "Lux", "controller": "Ana", "at": "Grove", "might": 3, "damage": 1},
                {"name": "Vi", "controller": "Ana", "at": "Grove", "might": 3},
            ],
            "hand": {"Ana": ["Highlander", "Zap", "Zap2"]},
        },
        {
            "Highlander": {
                "type": "spell",
                "keywords": ["Reaction"],
                "effect": "Choose a friendly unit. The next time it would die this turn, heal it, exhaust it, and "
                "recall it instead. (Send it to base. This isn't a move.)",
            },
            "Zap": zap,
            "Zap2": zap,
        },
    )
    for action in ("Ana plays Highlander targeting Lux", "Ana passes", "Ben passes", "Ana plays Zap targeting Lux"):
        g.apply(action)
    events = g.apply("Ana passes") + g.apply("Ben passes")
    said = text(events)
    assert "Highlander's delayed replacement effect" in said and "Lux is recalled" in said
    assert {"383.3", "366.1"} <= rules(events)
    assert g.snapshot()["units"]["Lux"] == {
        **g.snapshot()["units"]["Lux"],
        "at": "base",
        "damage": 0,
        "exhausted": True,
    }
    g.apply("Ana plays Zap2 targeting Lux")  # used up: now it dies
    events = g.apply("Ana passes") + g.apply("Ben passes")
    assert "Lux is killed" in text(events) and "Lux" not in g.snapshot()["units"]


# --- "[Add] [A]. Use only to play spells." ------------------------------------------------------------------------
SPELLS_ONLY = {
    "Daughter": {
        "type": "legend",
        "effect": "[E]: [Reaction] - [Add] [A]. Use only to play spells. (Abilities that add resources can't be "
        "reacted to.)",
    },
    "Bolt": {"type": "spell", "cost": "[1][Mind]", "effect": "Draw 1."},
    "Sword": {"type": "gear", "cost": "[Mind]"},
}


@pytest.mark.parametrize("activate_first", [False, True])
def test_power_added_only_to_play_spells_pays_for_a_spell_and_nothing_else(activate_first):
    g = game(
        {"legends": {"Ana": "Daughter"}, "runes": {"Ana": {"ready": ["Fury"]}}, "hand": {"Ana": ["Bolt", "Sword"]}},
        SPELLS_ONLY,
    )
    if activate_first:
        events = g.apply("Ana activates Daughter")
        assert "adds [any] to Ana's Rune Pool, only to play spells" in text(events) and "002" in rules(events)
    with pytest.raises(IllegalAction) as err:
        g.apply("Ana plays Sword")
    assert err.value.reason == "cost.must_pay"
    events = g.apply("Ana plays Bolt")
    paid = next(e for e in events if e.what.startswith("Ana pays [1][B] for Bolt"))
    assert ("added only to play spells" if activate_first else "exhausts Daughter to add its power") in paid.what
    assert g.snapshot()["runes"]["Ana"]["pool"] == "empty"


# --- "reveal cards from the top of your Main Deck until you reveal a unit" ----------------------------------------
def test_cards_are_revealed_until_a_unit_which_is_banished_and_played_the_rest_recycled():
    cards = {
        "Aurora": {
            "type": "gear",
            "effect": "At the end of your turn, reveal cards from the top of your Main Deck until you reveal a unit "
            "and banish it. Play it, ignoring its cost, and recycle the rest.",
        },
        "Bolt": {"type": "spell", "effect": "Draw 1."},
        "Sword": {"type": "gear"},
        "Yeti": {"type": "unit", "might": 4, "cost": "[9]"},
        "Last": {"type": "spell"},
    }
    g = game(
        {
            "units": [{"name": "Aurora", "controller": "Ana", "at": "base"}],
            "deck": {"Ana": ["Bolt", "Sword", "Yeti", "Last"], "Ben": 3},
        },
        cards,
    )
    events = g.apply("Ana ends turn") + g.apply("Ana passes") + g.apply("Ben passes")
    said = text(events)
    assert "Ana reveals Bolt, Sword, Yeti from the top of their Main Deck: Yeti is a unit" in said
    assert "Yeti is banished from Ana's Main Deck" in said and "Ana plays Yeti to their base, ignoring its cost" in said
    assert "Ana recycles Bolt, Sword to the bottom of their Main Deck" in said and "411.1.a.2" in rules(events)
    assert g.snapshot()["zone"] == {"Aurora": "base", "Bolt": "deck", "Sword": "deck", "Yeti": "base", "Last": "deck"}


# --- "a unit in your base" -----------------------------------------------------------------------------------------
def test_a_unit_in_your_base_is_one_of_yours_there():
    g = game(
        {
            "battlefields": [{"name": "Grove", "controller": "Ana"}],
            "units": [
                {"name": "Lux", "controller": "Ana", "at": "Grove", "might": 2},
                {"name": "Vi", "controller": "Ana", "at": "base", "might": 2},
                {"name": "Garen", "controller": "Ben", "at": "base", "might": 5},
            ],
            "hand": {"Ana": ["Show"]},
        },
        {"Show": {"type": "spell", "effect": "Choose a unit in your base. Draw 1."}},
    )
    for other in ("Lux", "Garen"):
        with pytest.raises(IllegalAction):
            g.apply(f"Ana plays Show targeting {other}")
    g.apply("Ana plays Show targeting Vi")


# --- audit: "you may COST to A and B" governs both; a "you may" in a delayed replacement is refused ------------------
WILDCLAW = {
    "type": "unit",
    "might": 2,
    "effect": "When you play me, you may spend a buff to buff me and ready me. (If I don't have a buff, I get a +1 [M] "
    "buff.)",
}


@pytest.mark.parametrize("answer, ready", [("Ana accepts", True), ("Ana declines", False)])
def test_a_may_with_a_cost_governs_every_clause_joined_to_it(answer, ready):
    # Wildclaw Shaman: declining spends no buff and readies nothing (the "and ready me" was done anyway)
    g = game(
        {
            "units": [{"name": "Poro", "controller": "Ana", "at": "base", "might": 1, "buffed": True}],
            "hand": {"Ana": ["Wildclaw"]},
        },
        {"Wildclaw": {**WILDCLAW, "keywords": []}},
    )
    for action in ("Ana plays Wildclaw", "Ana passes", "Ben passes", answer):
        g.apply(action)
    if "Ana chooses Poro" in g.legal_actions():  # the buff spent: Poro's, the only one
        g.apply("Ana chooses Poro")
    units = g.snapshot()["units"]
    assert units["Wildclaw"]["exhausted"] is (not ready)
    assert units["Poro"].get("buffed", False) is (not ready)


def test_a_may_inside_the_next_time_it_would_die_instead_is_refused():
    from engine.riftbound.effects import parse

    with pytest.raises(ValueError, match="you may pay"):
        parse(
            "choose a friendly unit. the next time it would die this turn, you may pay [c] to heal it, exhaust it, "
            "and recall it instead"
        )
    assert [i.verb for i in parse("you may spend a buff to buff me and ready me")] == ["may"]


def test_another_unit_is_not_the_one_the_same_effect_chose_before():
    # Defiant Dance: "Give a unit +2 [M] this turn and another unit -2 [M] this turn"
    dance = {
        "type": "spell",
        "keywords": ["Reaction"],
        "effect": "Give a unit +2 [M] this turn and another unit -2 [M] this turn.",
    }
    units = [
        {"name": "Poro", "controller": "Ana", "at": "base", "might": 3},
        {"name": "Yeti", "controller": "Ben", "at": "base", "might": 3},
    ]
    g = game({"units": units, "hand": {"Ana": ["Dance"]}}, {"Dance": dance})
    with pytest.raises(IllegalAction) as err:
        g.apply("Ana plays Dance targeting Poro, Poro")
    assert "it says another" in str(err.value) and err.value.reason == "play.target_restrictions"
    g.apply("Ana plays Dance targeting Poro, Yeti")
    g.apply("Ana passes")
    g.apply("Ben passes")
    assert g.snapshot()["units"]["Poro"]["might"] == 5 and g.snapshot()["units"]["Yeti"]["might"] == 1


def test_cards_without_a_count_are_refused_not_read_as_one_card():
    from engine.riftbound.effects import parse

    with pytest.raises(ValueError, match="cards from your trash"):
        parse("recycle cards from your trash")
    (up_to,) = parse("recycle up to 4 cards from trashes")
    assert (up_to.aim.kind, up_to.aim.upto) == ("card", 4)


def test_they_draw_after_choose_an_opponent_is_the_opponent_chosen():
    g = game({"hand": {"Ana": ["Gift"]}}, {"Gift": {"type": "spell", "effect": "Choose an opponent. They draw 2."}})
    events = g.apply("Ana plays Gift") + g.apply("Ana passes") + g.apply("Ben passes")
    assert "Ben draws a card" in text(events) and "Ana draws" not in text(events)
    assert g.snapshot()["hand"] == {"Ana": 0, "Ben": 2}


def test_they_gain_is_every_unit_chosen_before_not_the_last():
    units = [
        {"name": "Poro", "controller": "Ana", "at": "base", "might": 1},
        {"name": "Yeti", "controller": "Ana", "at": "base", "might": 1},
    ]
    gift = {"type": "spell", "effect": "Choose two friendly units. They gain [Tank] this turn."}
    g = game({"units": units, "hand": {"Ana": ["Gift"]}}, {"Gift": gift})
    g.apply("Ana plays Gift targeting Poro, Yeti")
    g.apply("Ana passes")
    g.apply("Ben passes")
    got = g.snapshot()["units"]
    assert got["Poro"]["keywords"] == ["Tank"] and got["Yeti"]["keywords"] == ["Tank"]
