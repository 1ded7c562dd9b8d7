"""The Riftbound engine on concrete situations: what each step does and which rules it cites."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml

from engine.core import Citations, IllegalAction, ScenarioError, ask, play
from engine.riftbound import effects, new_game
from engine.riftbound.combat import assignments, check_assignment
from engine.riftbound.model import Card, CardDef

ROOT = Path(__file__).resolve().parents[1]
TABLE = yaml.safe_load((ROOT / "data/citations/riftbound-v1.2.yaml").read_text(encoding="utf-8"))
CIT = Citations("riftbound", "v1.2", TABLE["citations"])


def game(state: dict, cards: dict | None = None, turn: dict | None = None, **extra):
    return new_game({"players": ["Ana", "Ben"], "turn": turn or {"player": "Ana", "phase": "main"},
                     "state": state, "cards": cards or {}, **extra}, CIT)


def rules(events) -> set[str]:
    return {r for e in events for r in e.rules}


def illegal(g, sentence: str) -> IllegalAction:
    with pytest.raises(IllegalAction) as err:
        g.apply(sentence)
    return err.value


BASIC = {"battlefields": [{"name": "Grove"}, {"name": "Altar", "controller": "Ben"}],
         "units": [{"name": "Jinx", "controller": "Ana", "at": "base", "might": 3},
                   {"name": "Garen", "controller": "Ben", "at": "Altar", "might": 4}],
         "deck": {"Ana": 3, "Ben": 3}}


def test_turn_player_has_priority_in_neutral_open_action_phase():
    g = game(BASIC)
    assert g.snapshot()["priority"] == "Ana"
    assert "312.2.a" in rules(g.opening)


def test_move_to_open_battlefield_starts_a_standalone_showdown_with_focus():
    g = game(BASIC)
    events = g.apply("Ana moves Jinx to Grove")
    snap = g.snapshot()
    assert (snap["state"], snap["focus"], snap["priority"]) == ("showdown open", "Ana", "Ana")
    assert {"143.2", "428", "322.8", "322.13", "340", "341"} <= rules(events)
    assert snap["units"]["Jinx"]["exhausted"]


def test_move_into_an_opponents_battlefield_starts_combat():
    g = game(BASIC)
    events = g.apply("Ana moves Jinx to Altar")
    assert g.snapshot()["combat"] == {"at": "Altar", "attacker": "Ana", "defender": "Ben"}
    assert {"322.10", "322.14", "442.1.a.1", "442.1.a.2", "442.1.a.3", "442.1.a.4"} <= rules(events)


def test_standard_move_limits():
    g = game({**BASIC, "units": BASIC["units"] + [{"name": "Shen", "controller": "Ana", "at": "Grove", "might": 2},
                                                   {"name": "Vi", "controller": "Ana", "at": "base", "might": 2,
                                                    "exhausted": True}]},
             )
    assert illegal(g, "Ana moves Shen to Altar").reason == "move.ganking"
    assert illegal(g, "Ana moves Vi to Grove").reason == "exhaust.cost_must_complete"
    assert illegal(g, "Ana moves Jinx to base").reason == "move.between_locations"
    assert illegal(g, "Ben moves Garen to base").reason == "move.action_phase"


def test_priority_passes_in_turn_order_and_the_chain_resolves_last_in_first_out():
    g = game({**BASIC, "hand": {"Ana": ["Zap"], "Ben": ["Mend"]}},
             {"Zap": {"type": "spell", "effect": "deal 2 to target unit"},
              "Mend": {"type": "spell", "keywords": ["Reaction"], "effect": "heal target unit"}})
    g.apply("Ana plays Zap targeting Garen")
    assert g.snapshot()["state"] == "neutral closed"
    assert "312.2.d" in rules(g.apply("Ana passes"))
    g.apply("Ben plays Mend targeting Garen")
    assert g.snapshot()["chain"] == ["Zap", "Mend"] and g.snapshot()["priority"] == "Ben"
    g.apply("Ben passes")
    events = g.apply("Ana passes")  # Mend resolves first (nothing to heal yet)
    assert g.snapshot()["chain"] == ["Zap"] and "336.4" in rules(events)
    g.apply("Ana passes")
    g.apply("Ben passes")
    assert g.snapshot()["units"]["Garen"]["damage"] == 2 and g.snapshot()["state"] == "neutral open"


def test_a_spell_without_reaction_cannot_be_played_in_a_closed_state():
    g = game({**BASIC, "hand": {"Ana": ["Zap", "Zap#2"]}}, {"Zap": {"type": "spell", "effect": "deal 1 to target unit"}})
    g.apply("Ana plays Zap targeting Garen")
    exc = illegal(g, "Ana plays Zap#2 targeting Garen")
    assert exc.rules == ("309.1.a",)


def test_ask_does_not_change_the_game():
    g = game(BASIC)
    legal, events, exc = ask(g, "Ana moves Jinx to Grove")
    assert legal and exc is None and g.snapshot()["state"] == "neutral open"


def test_winning_point_by_conquest_needs_every_other_battlefield():
    g = game({**BASIC, "points": {"Ana": 7}, "deck": {"Ana": ["Spare"], "Ben": 3}}, {"Spare": {"type": "spell"}})
    g.apply("Ana moves Jinx to Grove")
    g.apply("Ana passes")
    events = g.apply("Ben passes")
    assert g.snapshot()["points"]["Ana"] == 7 and g.snapshot()["zone"]["Spare"] == "hand"
    assert "448.1.b.2" in rules(events)


def test_burn_out_gives_the_opponent_a_point_then_draws():
    g = game({"deck": {"Ana": 2, "Ben": []}, "trash": {"Ben": ["Old"]}}, {"Old": {"type": "spell"}})
    events = g.apply("Ana ends turn")
    assert g.snapshot()["points"] == {"Ana": 1, "Ben": 0}
    assert g.snapshot()["zone"]["Old"] == "hand"
    assert {"315.4.b.1", "418.2.b", "418.2.c"} <= rules(events)


def test_victory_is_checked_in_a_cleanup():
    g = game({**BASIC, "points": {"Ana": 8}})
    events = g.apply("Ana moves Jinx to Grove")
    assert g.snapshot()["winner"] == "Ana" and "322.1" in rules(events)
    assert illegal(g, "Ana passes").reason == "victory.wins"


def test_hidden_play_is_a_free_reaction_limited_to_its_battlefield():
    g = game({"battlefields": [{"name": "Grove", "controller": "Ana"}],
              "units": [{"name": "Jinx", "controller": "Ana", "at": "Grove", "might": 3},
                        {"name": "Garen", "controller": "Ben", "at": "base", "might": 4}],
              "hidden": {"Grove": "Blade"}, "hand": {"Ben": ["Zap"]}, "deck": {"Ana": 3, "Ben": 3}},
             {"Blade": {"type": "spell", "keywords": ["Hidden"], "effect": "kill target unit"},
              "Zap": {"type": "spell", "effect": "deal 1 to target unit"}},
             turn={"player": "Ben", "phase": "main"})
    g.apply("Ben plays Zap targeting Jinx")
    g.apply("Ben passes")
    assert illegal(g, "Ana plays Blade targeting Garen").reason == "hide.targets_at_that_battlefield"
    events = g.apply("Ana plays Blade targeting Jinx")
    assert {"737.6", "737.1.c.3", "309.1.a"} <= rules(events)


def test_unit_played_to_controlled_battlefield_starts_no_showdown():
    g = game({"battlefields": [{"name": "Grove", "controller": "Ana"}],
              "units": [{"name": "Jinx", "controller": "Ana", "at": "Grove", "might": 3}],
              "hand": {"Ana": ["Recruit"]}, "deck": {"Ana": 3, "Ben": 3}}, {"Recruit": {"type": "unit", "might": 1}})
    events = g.apply("Ana plays Recruit to Grove")
    assert g.snapshot()["state"] == "neutral open" and "333.1.c" in rules(events)


def test_damage_assignment_rules():
    a = Card("A", "Ben", CardDef("unit", might=3), zone="battlefield", at="X")
    b = Card("B", "Ben", CardDef("unit", might=3), zone="battlefield", at="X")
    t = Card("T", "Ben", CardDef("unit", frozenset({"Tank"}), might=2), zone="battlefield", at="X")
    assert check_assignment({"A": 3, "B": 1}, 4, [a, b]) is None
    assert check_assignment({"A": 2, "B": 2}, 4, [a, b])[1] == "combat.lethal_before_next"
    assert check_assignment({"A": 4, "B": 0}, 4, [a, b])[1] == "combat.no_excess_before_all_lethal"
    assert check_assignment({"A": 3, "T": 1}, 4, [a, t])[1] == "combat.tank_first"
    assert assignments(9, [a, b, t]) == [{"A": 3, "B": 3, "T": 3}]  # all lethal: the excess changes nothing


@pytest.mark.parametrize("scenario, path, words", [
    ({"players": ["Ana", "Ben"], "turn": {"player": "Anna"}}, ("turn", "player"), 'did you mean "Ana"'),
    ({"players": ["Ana", "Ben"], "state": {"unitz": []}}, ("state", "unitz"), 'did you mean "units"'),
    ({"players": ["Ana", "Ben"], "cards": {"Gust": {"type": "spell", "effect": "returm target unit to its owner's hand"}}},
     ("cards", "Gust", "effect"), 'did you mean "return target unit'),
    ({"players": ["Ana", "Ben"], "turn": {"phase": "mian"}}, ("turn", "phase"), 'did you mean "main"'),
])
def test_scenario_errors_name_the_key_path(scenario, path, words):
    with pytest.raises(ScenarioError) as err:
        new_game(scenario, CIT)
    assert err.value.path == path and words in err.value.message


def test_action_errors_carry_the_action_index():
    g = game(BASIC)
    with pytest.raises(ScenarioError) as err:
        list(play(g, [("Ana passes", True), ("Ana moves Jinks to Grove", False)]))
    assert err.value.path == ("actions", 1) and 'did you mean "Jinx"' in err.value.message


def test_effect_vocabulary():
    assert [i.verb for i in effects.parse("Deal 4 to target unit at a battlefield. Draw 1")] == ["deal", "draw"]
    assert effects.target_count("give target unit +2 might this turn; buff me") == 1
    with pytest.raises(ValueError):
        effects.parse("destroy target creature")


@pytest.mark.parametrize("module", ["effects", "actions", "setup", "combat", "model", "game"])
def test_docstring_examples(module):
    import doctest
    import importlib

    result = doctest.testmod(importlib.import_module(f"engine.riftbound.{module}"))
    assert result.failed == 0
