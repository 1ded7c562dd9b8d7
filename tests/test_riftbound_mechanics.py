"""The mechanics of contract version 2 in the Riftbound engine (issue 14), step by step with their rules:
costs, keywords with values, tokens, Temporary, Vision, Assault and Shield, Deflect under both editions,
Weaponmaster under both editions, and the one-line refusals of what the engine cannot read."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml

from engine.core import Citations, IllegalAction, ScenarioError
from engine.riftbound import new_game
from scenarios.citations import timeline

ROOT = Path(__file__).resolve().parents[1]
V12 = yaml.safe_load((ROOT / "data/citations/riftbound-v1.2.yaml").read_text(encoding="utf-8"))["citations"]
FAQ = yaml.safe_load((ROOT / "data/citations/riftbound-2026-01-14.yaml").read_text(encoding="utf-8"))["citations"]
CIT = Citations("riftbound", "v1.2", V12, timeline=timeline("riftbound"))
CIT_FAQ = Citations("riftbound", "2026-01-14", {**V12, **FAQ}, timeline=timeline("riftbound"))
V13 = yaml.safe_load((ROOT / "data/citations/riftbound-2026-03-30.yaml").read_text(encoding="utf-8"))["citations"]
CIT13 = Citations("riftbound", "2026-03-30", V13, timeline=timeline("riftbound"))


def game(state: dict, cards: dict | None = None, citations: Citations = CIT, turn: dict | None = None, **extra):
    return new_game(
        {
            "players": ["Ana", "Ben"],
            "turn": turn or {"player": "Ana", "phase": "main"},
            "state": {"deck": {"Ana": 5, "Ben": 5}, **state},
            "cards": cards or {},
            **extra,
        },
        citations,
    )


def rules(events) -> set[str]:
    return {r for e in events for r in e.rules}


def run(g, *sentences):
    events = []
    for s in sentences:
        events += g.apply(s)
    return events


# --- what the engine cannot read is refused in one line naming it -------------------------------------------
@pytest.mark.parametrize(
    "cards, path, words",
    [
        ({"X": {"type": "unit", "keywords": ["Mighty"]}}, ("cards", "X", "keywords", 0), '"Mighty" is not a keyword'),
        (
            {"X": {"type": "unit", "keywords": ["Overwhelm"]}},
            ("cards", "X", "keywords", 0),
            'unknown keyword "Overwhelm"',
        ),
        ({"X": {"type": "unit", "keywords": ["Assault two"]}}, ("cards", "X", "keywords", 0), "Assault takes a value"),
        ({"X": {"type": "unit", "keywords": ["Repeat"]}}, ("cards", "X", "keywords", 0), "Repeat needs its cost"),
        ({"X": {"type": "spell", "effect": "Scry 2."}}, ("cards", "X", "effect"), 'unknown effect "scry 2"'),
        (
            {"X": {"type": "unit", "effect": "When I dance, draw 1."}},
            ("cards", "X", "effect"),
            'unknown trigger condition "when i dance"',
        ),
        ({"X": {"type": "spell", "cost": "[2][Q]"}}, ("cards", "X", "cost"), 'cannot read the symbol "[q]"'),
        (
            {"X": {"type": "unit", "effect": "While I'm angry, I have +2 might."}},
            ("cards", "X", "effect"),
            'unknown condition "while i\'m angry"',
        ),
    ],
)
def test_unreadable_text_is_refused_naming_it(cards, path, words):
    with pytest.raises(ScenarioError) as err:
        game({}, cards)
    assert err.value.path == path and words in err.value.message and "\n" not in err.value.message


def test_winning_a_combat_is_refused_under_v1_2_and_read_under_the_faq_edition():
    cards = {"Draven": {"type": "unit", "might": 4, "effect": "When I win a combat, you gain 1 point."}}
    with pytest.raises(ScenarioError) as err:
        game({"hand": {"Ana": ["Draven"]}}, cards)
    assert err.value.path == ("cards", "Draven", "effect") and "2026-01-14" in err.value.message
    game({"hand": {"Ana": ["Draven"]}}, cards, CIT_FAQ)


# --- costs ---------------------------------------------------------------------------------------------------
def test_a_cost_that_cannot_be_paid_is_refused_and_one_that_can_is_paid_from_runes():
    g = game(
        {"runes": {"Ana": {"ready": ["Calm"]}}, "hand": {"Ana": ["Spark", "Bolt"]}},
        {
            "Spark": {"type": "spell", "cost": "[R]", "effect": "Draw 1."},
            "Bolt": {"type": "spell", "cost": "[1]", "effect": "Draw 1."},
        },
    )
    with pytest.raises(IllegalAction) as err:
        g.apply("Ana plays Spark")
    assert err.value.reason == "cost.must_pay" and "406.2.a" in err.value.rules
    assert {"354.1", "160.2.a"} <= rules(g.apply("Ana plays Bolt"))
    assert g.snapshot()["runes"]["Ana"] == {"ready": 0, "exhausted": 1, "pool": "empty"}


def test_players_whose_runes_are_not_given_pay_nothing():
    g = game({"hand": {"Ana": ["Bolt"]}}, {"Bolt": {"type": "spell", "cost": "[9][R][R]", "effect": "Draw 1."}})
    g.apply("Ana plays Bolt")
    assert g.snapshot()["chain"] == ["Bolt"] and "runes" not in g.snapshot()


def test_the_rune_pool_empties_at_the_end_of_the_turn():
    g = game({"pool": {"Ana": {"energy": 2, "power": ["Fury"]}}})
    assert {"163", "317.3.b"} <= rules(g.apply("Ana ends turn"))


# --- keywords ------------------------------------------------------------------------------------------------
def test_assault_and_shield_add_might_only_while_attacking_or_defending():
    g = game(
        {
            "battlefields": [{"name": "Altar", "controller": "Ben"}],
            "units": [
                {"name": "Jinx", "controller": "Ana", "at": "base", "might": 2, "keywords": ["Assault 2"]},
                {"name": "Braum", "controller": "Ben", "at": "Altar", "might": 2, "keywords": ["Shield 3"]},
            ],
        }
    )
    assert g.snapshot()["units"]["Jinx"]["might"] == 2 and g.snapshot()["units"]["Braum"]["might"] == 2
    g.apply("Ana moves Jinx to Altar")
    assert g.snapshot()["units"]["Jinx"]["might"] == 4 and g.snapshot()["units"]["Braum"]["might"] == 5
    events = run(g, "Ana passes", "Ben passes")
    assert {"733.1.c", "740.1.c"} <= rules(events)
    assert g.snapshot()["zone"]["Jinx"] == "trash"


def test_temporary_kills_before_scoring_and_a_token_ceases_to_exist():
    g = game(
        {
            "battlefields": [{"name": "Grove", "controller": "Ana"}],
            "units": [
                {
                    "name": "Sprite",
                    "controller": "Ana",
                    "at": "Grove",
                    "might": 3,
                    "keywords": ["Temporary"],
                    "token": True,
                }
            ],
        },
        turn={"player": "Ana", "phase": "beginning"},
    )
    assert {"742.1.b", "180.1"} <= rules(g.opening)
    assert g.snapshot()["zone"]["Sprite"] == "gone" and g.snapshot()["controller"]["Grove"] is None


def test_vision_is_a_triggered_ability_that_looks_at_the_top_card_and_may_recycle_it():
    state = {"hand": {"Ana": ["Seer"]}, "deck": {"Ana": ["Top Card", "Other"], "Ben": 3}}
    cards = {
        "Seer": {"type": "unit", "might": 1, "keywords": ["Vision"]},
        "Top Card": {"type": "spell"},
        "Other": {"type": "spell"},
    }
    g = game(state, cards)
    events = g.apply("Ana plays Seer to base")
    assert {"743.1.b", "743.1.c"} <= rules(events) and g.snapshot()["chain"] == ["Seer (vision)"]
    events = run(g, "Ana passes", "Ben passes")
    assert any("looks at the top card" in e.what and "Top Card" in e.what for e in events)
    assert g.snapshot()["priority"] is None  # "you may recycle it": Ana decides
    events = g.apply("Ana accepts")
    assert "403.1.a" in rules(events) and g.s.deck["Ana"] == ["other", "top card"]
    g = game(state, cards)
    run(g, "Ana plays Seer to base", "Ana passes", "Ben passes", "Ana declines")
    assert g.s.deck["Ana"] == ["top card", "other"]


def test_revealing_counts_printed_keywords_and_recycles_what_was_revealed():
    """Teemo's text (Origins FAQ, revised): one target, chosen as the trigger goes on the Chain; the cards revealed
    stay in the deck (411.1.a.2), those with [Hidden] count (737.5), then they are recycled (411.4.a)."""
    teemo = (
        "When I defend, choose an enemy unit here and reveal the top 5 cards of your Main Deck. Deal 1 to that "
        "unit for each card with [Hidden] revealed this way, then recycle the revealed cards."
    )
    g = game(
        {
            "battlefields": [{"name": "Grove", "controller": "Ana"}],
            "units": [
                {"name": "Teemo", "controller": "Ana", "at": "Grove", "might": 2, "effect": teemo},
                {"name": "Garen", "controller": "Ben", "at": "base", "might": 5},
            ],
            "deck": {"Ana": ["Sneak", "Plain", "Sneak#2"], "Ben": 5},
        },
        {"Sneak": {"type": "unit", "might": 1, "keywords": ["Hidden"]}, "Plain": {"type": "spell"}},
        turn={"player": "Ben", "phase": "main"},
    )
    run(g, "Ben moves Garen to Grove")  # the defend trigger: Garen, the only enemy unit there, is its target
    events = run(g, "Ana passes", "Ben passes")
    assert {"411.1", "411.1.a.2", "418.1.c", "737.5", "411.4.a"} <= rules(events)
    assert g.snapshot()["units"]["Garen"]["damage"] == 2 and g.s.deck["Ana"] == ["sneak", "plain", "sneak#2"]


def test_deflect_is_paid_once_per_spell_in_v1_2_and_for_each_choice_in_the_faq_edition():
    state = {
        "units": [{"name": "Tianna", "controller": "Ben", "at": "base", "might": 9, "keywords": ["Deflect"]}],
        "runes": {"Ana": {"ready": 1}},
        "hand": {"Ana": ["Falling Star"]},
    }
    cards = {"Falling Star": {"type": "spell", "effect": "Deal 3 to a unit.\nDeal 3 to a unit."}}
    g = game(state, cards)
    g.apply("Ana plays Falling Star targeting Tianna, Tianna")  # [A] once: one rune recycled
    assert g.snapshot()["runes"]["Ana"]["ready"] == 0
    g = game(state, cards, CIT_FAQ)
    with pytest.raises(IllegalAction):  # [A][A]: one rune is not enough
        g.apply("Ana plays Falling Star targeting Tianna, Tianna")


def test_paying_deflect_may_be_said_and_is_paid_anyway_but_only_for_a_target_with_deflect():
    """The contract's ``... paying Deflect``: Deflect is a mandatory additional cost (735.1.c), paid whether the
    sentence says so or not; said of a spell that chooses no opponent's object with Deflect, it is an error."""
    state = {
        "units": [
            {"name": "Tianna", "controller": "Ben", "at": "base", "might": 9, "keywords": ["Deflect"]},
            {"name": "Zed", "controller": "Ben", "at": "base", "might": 2},
        ],
        "runes": {"Ana": {"ready": 1}},
        "hand": {"Ana": ["Zap"]},
    }
    cards = {"Zap": {"type": "spell", "effect": "Deal 1 to a unit."}}
    g = game(state, cards)
    events = g.apply("Ana plays Zap targeting Tianna paying Deflect")
    assert "735.1.c" in rules(events) and g.snapshot()["runes"]["Ana"]["ready"] == 0
    assert "353.2.b.1" not in rules(events)  # not an optional cost
    with pytest.raises(ScenarioError, match="paying Deflect"):
        game(state, cards).apply("Ana plays Zap targeting Zed paying Deflect")


def test_weaponmaster_is_paid_when_it_can_be_under_v1_2():
    state = {"gear": [{"name": "Sword", "controller": "Ana"}], "hand": {"Ana": ["Yone"]}}
    cards = {
        "Sword": {"type": "gear", "tags": ["Equipment"], "keywords": ["Equip [A]"], "might_bonus": 2},
        "Yone": {"type": "unit", "might": 3, "keywords": ["Weaponmaster"]},
    }
    g = game(state, cards)
    events = run(g, "Ana plays Yone to base", "Ana passes", "Ben passes")
    assert "747.1.c" in rules(events) and g.snapshot()["gear"]["Sword"].get("attached_to") == "Yone"
    assert g.snapshot()["units"]["Yone"]["might"] == 5


def test_legion_needs_a_main_deck_card_played_before():
    g = game(
        {"hand": {"Ana": ["Rally", "Spare"]}, "deck": {"Ana": 10, "Ben": 5}},
        {"Rally": {"type": "spell", "effect": "Draw 1. Legion - Draw 1."}, "Spare": {"type": "unit", "might": 1}},
    )
    events = run(g, "Ana plays Spare to base", "Ana plays Rally", "Ana passes", "Ben passes")
    assert "738.1.c.1" in rules(events) and g.snapshot()["hand"]["Ana"] == 2


def test_a_trigger_written_with_the_cards_own_name_or_whenever_is_its_first_person():
    """The contract's ``when NAME dies|attacks|is played, EFFECT`` and ``whenever``: cards refer to themselves in
    the first person (053), so ``Whenever Yorick dies`` is Yorick's ``When I die`` (734.1.c)."""
    state = {"units": [{"name": "Yorick", "controller": "Ana", "at": "base", "might": 2}], "hand": {"Ana": ["End"]}}
    cards = {
        "Yorick": {"type": "unit", "effect": "Whenever Yorick dies, draw 1."},
        "End": {"type": "spell", "effect": "Kill a unit."},
    }
    g = game(state, cards)
    events = run(g, "Ana plays End targeting Yorick", "Ana passes", "Ben passes")
    assert "734.1.c" in rules(events) and g.snapshot()["chain"] == ["Yorick (deathknell)"]
    run(g, "Ana passes", "Ben passes")
    assert g.snapshot()["hand"]["Ana"] == 1


def test_a_keyword_on_a_battlefield_is_refused_by_name():
    with pytest.raises(ScenarioError, match='keyword "Tank" on a battlefield is not modelled') as info:
        game({"battlefields": [{"name": "Grove", "keywords": ["Tank"]}]})
    assert info.value.path == ("state", "battlefields", 0, "keywords", 0)


@pytest.mark.parametrize(
    "boosts, killed",
    [
        ({"R1": 6}, {"R2", "R3", "R4"}),  # "One Recruit gets +6 Might ... You must kill the other three"
        ({"R1": 6, "R2": 6, "R3": 6, "R4": 6}, set()),  # "Fox-Fire does nothing"
    ],
)
def test_a_group_that_no_longer_fits_keeps_the_only_largest_subset_without_asking(boosts, killed):
    """352.11.b with the Origins FAQ's Fox-Fire examples: when only one largest subset of the original targets fits,
    it is the one affected; when none fits, nothing is."""
    units = [{"name": f"R{i}", "controller": "Ben", "at": "Grove", "might": 1} for i in range(1, 5)]
    g = game(
        {"battlefields": [{"name": "Grove", "controller": "Ben"}], "units": units, "hand": {"Ana": ["Fox-Fire"]}},
        {
            "Fox-Fire": {
                "type": "spell",
                "effect": "Kill any number of units at a battlefield with total Might 4 or less.",
            }
        },
    )
    g.apply("Ana plays Fox-Fire targeting R1, R2, R3, R4")
    for name, n in boosts.items():
        g.s.cards[name.lower()].temp_might += n
    events = run(g, "Ana passes", "Ben passes")
    assert "352.11.b" in rules(events) and g.snapshot()["priority"] == "Ana"
    assert {n for n in ("R1", "R2", "R3", "R4") if g.snapshot()["zone"][n] == "trash"} == killed


def test_a_card_an_effect_plays_without_ignoring_its_cost_is_paid_for_or_stays_where_it_is():
    """406.3: a Limited Play by an effect; its costs are paid as usual unless the effect says to ignore them."""
    cards = {
        "Scout": {
            "type": "unit",
            "might": 1,
            "effect": "When you play me, you may play a unit with [Hidden] from your hand.",
        },
        "Sneak": {"type": "unit", "might": 2, "cost": "[2]", "keywords": ["Hidden"]},
    }
    g = game({"hand": {"Ana": ["Scout", "Sneak"]}, "runes": {"Ana": {"ready": 1}}}, cards)
    events = run(g, "Ana plays Scout to base", "Ana passes", "Ben passes", "Ana accepts")
    assert "cannot pay [2] for Sneak" in " ".join(e.what for e in events) and g.snapshot()["zone"]["Sneak"] == "hand"
    g = game({"hand": {"Ana": ["Scout", "Sneak"]}, "runes": {"Ana": {"ready": 2}}}, cards)
    run(g, "Ana plays Scout to base", "Ana passes", "Ben passes", "Ana accepts")
    assert g.snapshot()["zone"]["Sneak"] == "base" and g.snapshot()["runes"]["Ana"]["ready"] == 0


def test_a_spell_an_effect_plays_chooses_its_targets_as_it_is_finalized_or_goes_back():
    """A spell an effect plays is pending until the effect is done (351.3); then its targets are chosen (352.4) and,
    with no valid choice, it cannot be put on the Chain (352.7): it goes back to its hand."""
    cards = {
        "Scout": {
            "type": "unit",
            "might": 1,
            "effect": "When you play me, play a spell from your hand, ignoring its cost.",
        },
        "Zap": {"type": "spell", "effect": "Deal 1 to an enemy unit."},
    }
    g = game(
        {
            "hand": {"Ana": ["Scout", "Zap"]},
            "units": [
                {"name": "Garen", "controller": "Ben", "at": "base", "might": 3},
                {"name": "Lux", "controller": "Ben", "at": "base", "might": 3},
            ],
        },
        cards,
    )
    events = run(g, "Ana plays Scout to base", "Ana passes", "Ben passes")
    assert g.snapshot()["priority"] is None and "352.8" in rules(events)
    run(g, "Ana chooses Garen", "Ana passes", "Ben passes")
    assert g.snapshot()["units"]["Garen"]["damage"] == 1 and g.snapshot()["zone"]["Zap"] == "trash"
    g = game({"hand": {"Ana": ["Scout", "Zap"]}}, cards)
    events = run(g, "Ana plays Scout to base", "Ana passes", "Ben passes")
    assert "352.7" in rules(events) and g.snapshot()["zone"]["Zap"] == "hand" and g.snapshot()["chain"] == []
