"""The Riftbound engine on concrete situations: what each step does and which rules it cites."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml

from engine.core import Citations, IllegalAction, ScenarioError, ask, play
from engine.riftbound import effects, new_game
from engine.riftbound.legality import assignments, check_assignment
from engine.riftbound.state import Card, CardDef
from scenarios.citations import timeline

ROOT = Path(__file__).resolve().parents[1]
TABLE = yaml.safe_load((ROOT / "data/citations/riftbound-v1.2.yaml").read_text(encoding="utf-8"))
CIT = Citations("riftbound", "v1.2", TABLE["citations"], timeline=timeline("riftbound"))


def game(state: dict, cards: dict | None = None, turn: dict | None = None, **extra):
    return new_game(
        {
            "players": ["Ana", "Ben"],
            "turn": turn or {"player": "Ana", "phase": "main"},
            "state": state,
            "cards": cards or {},
            **extra,
        },
        CIT,
    )


def rules(events) -> set[str]:
    return {r for e in events for r in e.rules}


def illegal(g, sentence: str) -> IllegalAction:
    with pytest.raises(IllegalAction) as err:
        g.apply(sentence)
    return err.value


BASIC = {
    "battlefields": [{"name": "Grove"}, {"name": "Altar", "controller": "Ben"}],
    "units": [
        {"name": "Jinx", "controller": "Ana", "at": "base", "might": 3},
        {"name": "Garen", "controller": "Ben", "at": "Altar", "might": 4},
    ],
    "deck": {"Ana": 3, "Ben": 3},
}


# Zhonya's Hourglass replaces Braum's death (364-366): the events two scenarios below both show.
HOURGLASS_SAVES_BRAUM = [
    (
        "Braum would die: Zhonya's Hourglass's replacement effect (\"the next time a friendly unit would die\") applies, "
        'and it does not happen; instead: "kill me. recall that unit exhausted" ("the next time": this replacement '
        "effect is used up)",
        ("364", "365", "365.1", "366", "366.1", "415.2"),
    ),
    ("Zhonya's Hourglass is killed at base and goes to Ben's trash", ("366.1", "415.2")),
    ("Braum is recalled to its base (not a move)", ("366.1", "433")),
    ("Braum is exhausted", ("366.1", "401.1")),
]


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
    g = game(
        {
            **BASIC,
            "units": BASIC["units"]
            + [
                {"name": "Shen", "controller": "Ana", "at": "Grove", "might": 2},
                {"name": "Vi", "controller": "Ana", "at": "base", "might": 2, "exhausted": True},
            ],
        },
    )
    assert illegal(g, "Ana moves Shen to Altar").reason == "move.ganking"
    assert illegal(g, "Ana moves Vi to Grove").reason == "exhaust.cost_must_complete"
    assert illegal(g, "Ana moves Jinx to base").reason == "move.between_locations"
    assert illegal(g, "Ben moves Garen to base").reason == "move.action_phase"


def test_priority_passes_in_turn_order_and_the_chain_resolves_last_in_first_out():
    g = game(
        {**BASIC, "hand": {"Ana": ["Zap"], "Ben": ["Mend"]}},
        {
            "Zap": {"type": "spell", "effect": "deal 2 to target unit"},
            "Mend": {"type": "spell", "keywords": ["Reaction"], "effect": "heal target unit"},
        },
    )
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
    g = game(
        {**BASIC, "hand": {"Ana": ["Zap", "Zap#2"]}}, {"Zap": {"type": "spell", "effect": "deal 1 to target unit"}}
    )
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
    g = game(
        {
            "battlefields": [{"name": "Grove", "controller": "Ana"}],
            "units": [
                {"name": "Jinx", "controller": "Ana", "at": "Grove", "might": 3},
                {"name": "Garen", "controller": "Ben", "at": "base", "might": 4},
            ],
            "hidden": {"Grove": "Blade"},
            "hand": {"Ben": ["Zap"]},
            "deck": {"Ana": 3, "Ben": 3},
        },
        {
            "Blade": {"type": "spell", "keywords": ["Hidden"], "effect": "kill target unit"},
            "Zap": {"type": "spell", "effect": "deal 1 to target unit"},
        },
        turn={"player": "Ben", "phase": "main"},
    )
    g.apply("Ben plays Zap targeting Jinx")
    g.apply("Ben passes")
    assert illegal(g, "Ana plays Blade targeting Garen").reason == "hide.targets_at_that_battlefield"
    events = g.apply("Ana plays Blade targeting Jinx")
    assert {"737.6", "737.1.c.3", "309.1.a"} <= rules(events)


def test_unit_played_to_controlled_battlefield_starts_no_showdown():
    g = game(
        {
            "battlefields": [{"name": "Grove", "controller": "Ana"}],
            "units": [{"name": "Jinx", "controller": "Ana", "at": "Grove", "might": 3}],
            "hand": {"Ana": ["Recruit"]},
            "deck": {"Ana": 3, "Ben": 3},
        },
        {"Recruit": {"type": "unit", "might": 1}},
    )
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


@pytest.mark.parametrize(
    "scenario, path, words",
    [
        ({"players": ["Ana", "Ben"], "turn": {"player": "Anna"}}, ("turn", "player"), 'did you mean "Ana"'),
        ({"players": ["Ana", "Ben"], "state": {"unitz": []}}, ("state", "unitz"), 'did you mean "units"'),
        (
            {
                "players": ["Ana", "Ben"],
                "cards": {"Gust": {"type": "spell", "effect": "returm target unit to its owner's hand"}},
            },
            ("cards", "Gust", "effect"),
            'did you mean "return a unit',
        ),
        ({"players": ["Ana", "Ben"], "turn": {"phase": "mian"}}, ("turn", "phase"), 'did you mean "main"'),
    ],
)
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


# --- replacement effects (364-368), an extension of the scenario format ---------------------------

ZHONYA = {
    "when": "the next time a friendly unit would die",
    "instead": "kill me. recall that unit exhausted",
    "once": True,
}
STUBBORN = {"when": "this would die", "instead": "return me to its owner's hand"}


def replacement_game(braum: dict | None = None, gear_controller: str = "Ben", hand=("Execute",)):
    """Ben's Braum at Altar with its own replacement effect, Ben's Zhonya's Hourglass; Ana holds kill spells."""
    braum = {"name": "Braum", "controller": "Ben", "at": "Altar", "might": 4, "replacement": STUBBORN, **(braum or {})}
    return game(
        {
            "battlefields": [{"name": "Altar", "controller": braum["controller"]}],
            "units": [{"name": "Jinx", "controller": "Ana", "at": "base", "might": 3}, braum],
            "gear": [{"name": "Zhonya's Hourglass", "controller": gear_controller, "replacement": ZHONYA}],
            "hand": {"Ana": list(hand)},
            "deck": {"Ana": 3, "Ben": 3},
        },
        {
            "Execute": {"type": "spell", "effect": "kill target unit"},
            "Double Execute": {"type": "spell", "effect": "kill target unit. kill target unit"},
        },
    )


def resolve(g, sentence: str):
    """Play ``sentence`` (Ana's spell) and pass until it resolves; the events of the resolving pass."""
    g.apply(sentence)
    g.apply("Ana passes")
    return g.apply("Ben passes")


def test_a_single_replacement_effect_replaces_a_death_and_is_used_up():
    g = replacement_game({"replacement": None})
    events = resolve(g, "Ana plays Execute targeting Braum")
    assert [(e.what, e.rules) for e in events[1:6]] == [("Execute resolves", ("336.1",)), *HOURGLASS_SAVES_BRAUM]
    snap = g.snapshot()
    assert snap["zone"]["Braum"] == "base" and snap["units"]["Braum"]["exhausted"]
    assert snap["zone"]["Zhonya's Hourglass"] == "trash" and snap["awaiting"] is None and snap["priority"] == "Ana"


def test_a_replaced_lethal_damage_death_triggers_no_deathknell():
    g = game(
        {
            "battlefields": [{"name": "Altar", "controller": "Ben"}],
            "units": [
                {
                    "name": "Jinx",
                    "controller": "Ana",
                    "at": "base",
                    "might": 3,
                    "keywords": ["Deathknell"],
                    "effect": "draw 1",
                },
                {"name": "Garen", "controller": "Ben", "at": "Altar", "might": 4},
            ],
            "gear": [{"name": "Zhonya's Hourglass", "controller": "Ana", "replacement": ZHONYA}],
            "deck": {"Ana": 3, "Ben": 3},
        }
    )
    g.apply("Ana moves Jinx to Altar")
    g.apply("Ana passes")
    events = g.apply("Ben passes")
    replaced = next(e for e in events if "replacement effect" in e.what)
    assert replaced.what.startswith("Jinx has lethal damage and would die: ")
    assert replaced.rules == ("364", "365", "365.1", "366", "366.1", "322.4", "142.2.a")
    assert not any("deathknell" in e.what.lower() for e in events)
    snap = g.snapshot()
    assert (snap["zone"]["Jinx"], snap["units"]["Jinx"]["damage"], snap["chain"]) == ("base", 0, [])
    assert snap["controller"]["Altar"] == "Ben"


def test_damage_replacement_by_an_effect_and_in_combat():
    shield = {"when": "this would be dealt damage", "instead": "", "once": True}
    g = game(
        {
            "battlefields": [{"name": "Altar", "controller": "Ben"}],
            "units": [
                {"name": "Jinx", "controller": "Ana", "at": "base", "might": 3},
                {"name": "Garen", "controller": "Ben", "at": "Altar", "might": 2, "replacement": shield},
            ],
            "hand": {"Ana": ["Zap"]},
            "deck": {"Ana": 3, "Ben": 3},
        },
        {"Zap": {"type": "spell", "effect": "deal 2 to target unit"}},
    )
    events = resolve(g, "Ana plays Zap targeting Garen")
    assert [(e.what, e.rules) for e in events if "replacement" in e.what] == [
        (
            'Garen would be dealt 2 by Zap: Garen\'s replacement effect ("this would be dealt damage") applies, and it does '
            'not happen; nothing happens instead ("the next time": this replacement effect is used up)',
            ("364", "365", "365.1", "366", "366.1", "404.1.b"),
        )
    ]
    assert g.snapshot()["units"]["Garen"]["damage"] == 0
    # Used up: combat damage is dealt normally now.
    g.apply("Ana moves Jinx to Altar")
    g.apply("Ana passes")
    events = g.apply("Ben passes")
    assert not any("replacement" in e.what for e in events)
    assert g.snapshot()["zone"]["Garen"] == "trash"


def test_combat_damage_replacement_cites_the_combat_damage_rule():
    guard = {"when": "a friendly unit would be dealt damage", "instead": "exhaust that unit"}
    g = game(
        {
            "battlefields": [{"name": "Altar", "controller": "Ben"}],
            "units": [
                {"name": "Jinx", "controller": "Ana", "at": "base", "might": 3},
                {"name": "Garen", "controller": "Ben", "at": "Altar", "might": 3},
            ],
            "gear": [{"name": "Bulwark", "controller": "Ben", "replacement": guard}],
            "deck": {"Ana": 3, "Ben": 3},
        }
    )
    g.apply("Ana moves Jinx to Altar")
    g.apply("Ana passes")
    events = g.apply("Ben passes")
    replaced = [e for e in events if "replacement effect" in e.what]
    assert [e.what.split(":")[0] for e in replaced] == ["Garen would be dealt 3 combat damage"]
    assert replaced[0].rules[-1] == "443.1.e"  # combat.deal_assigned: the rule the replaced damage follows
    assert any(e.what == "All assigned damage is dealt simultaneously: 3 to Jinx" for e in events)
    snap = g.snapshot()
    assert snap["zone"]["Jinx"] == "trash" and snap["zone"]["Garen"] == "Altar" and snap["controller"]["Altar"] == "Ben"


def test_two_replacements_wait_for_the_owner_of_the_unit_to_order_them():
    g = replacement_game()
    events = resolve(g, "Ana plays Execute targeting Braum")
    assert (events[-1].what, events[-1].rules) == (
        "Braum would die, and 2 replacement effects apply to that event (Braum, Zhonya's Hourglass): Ben, the owner of "
        'Braum, decides the order they apply in ("Ben orders replacements: Braum, Zhonya\'s Hourglass")',
        ("368", "366", "415.2", "312.1.b.1"),
    )
    snap = g.snapshot()
    assert (snap["priority"], snap["awaiting"], snap["zone"]["Braum"]) == (
        None,
        "Ben to order replacement effects",
        "Altar",
    )
    wrong = illegal(g, "Ana orders replacements: Braum, Zhonya's Hourglass")
    assert (wrong.reason, wrong.rules) == ("replacement.owner_orders", ("368",))
    assert illegal(g, "Ben orders replacements: Braum").reason == "replacement.owner_orders"
    assert illegal(g, "Ana passes").rules == ("368", "312.1.b")
    legal, _, _ = ask(g, "Ben orders replacements: Braum, Zhonya's Hourglass")
    assert legal and g.snapshot()["awaiting"] == "Ben to order replacement effects"  # ask changed nothing
    events = g.apply("Ben orders replacements: Zhonya's Hourglass, Braum")
    assert [(e.what, e.rules) for e in events[:6]] == [
        ('Ben orders the replacement effects for "Braum would die": Zhonya\'s Hourglass, Braum', ("368", "312.1.b.1")),
        *HOURGLASS_SAVES_BRAUM,
        (
            'Braum\'s replacement effect ("this would die") no longer applies: the event it would replace did not happen',
            ("367", "368"),
        ),
    ]
    assert events[6].what == "Execute goes to Ana's trash"  # the resolution goes on where it stopped, nothing twice
    snap = g.snapshot()
    assert (snap["zone"]["Braum"], snap["zone"]["Zhonya's Hourglass"], snap["priority"], snap["awaiting"]) == (
        "base",
        "trash",
        "Ana",
        None,
    )


def test_the_other_order_lets_the_units_own_replacement_apply_and_leaves_the_hourglass_unused():
    g = replacement_game()
    resolve(g, "Ana plays Execute targeting Braum")
    events = g.apply("Ben orders replacements: Braum, Zhonya's Hourglass")
    assert "Braum returns from Altar to its owner's (Ben's) hand" in [e.what for e in events]
    assert events[3].what.startswith("Zhonya's Hourglass's replacement effect") and events[3].rules == ("367", "368")
    snap = g.snapshot()
    assert (snap["zone"]["Braum"], snap["zone"]["Zhonya's Hourglass"]) == ("hand", "base")


def test_the_owner_not_the_controller_orders_replacements():
    g = replacement_game({"owner": "Ana"})
    events = resolve(g, "Ana plays Execute targeting Braum")
    assert "Ana, the owner of Braum, decides the order" in events[-1].what
    assert illegal(g, "Ben orders replacements: Braum, Zhonya's Hourglass").reason == "replacement.owner_orders"
    g.apply("Ana orders replacements: Braum, Zhonya's Hourglass")
    assert g.snapshot()["zone"]["Braum"] == "hand" and g.s.cards["braum"].owner == "Ana"


def test_two_orders_in_one_resolution():
    g = game(
        {
            "battlefields": [{"name": "Altar", "controller": "Ben"}],
            "units": [
                {"name": "Braum", "controller": "Ben", "at": "Altar", "might": 4, "replacement": STUBBORN},
                {"name": "Poro", "controller": "Ben", "at": "Altar", "might": 1, "replacement": STUBBORN},
            ],
            "gear": [
                {
                    "name": "Aegis",
                    "controller": "Ben",
                    "replacement": {"when": "a friendly unit would die", "instead": "recall that unit exhausted"},
                }
            ],
            "hand": {"Ana": ["Double Execute"]},
            "deck": {"Ana": 3, "Ben": 3},
        },
        {"Double Execute": {"type": "spell", "effect": "kill target unit. kill target unit"}},
    )
    resolve(g, "Ana plays Double Execute targeting Braum, Poro")
    first = g.apply("Ben orders replacements: Aegis, Braum")
    assert first[-1].what.startswith("Poro would die, and 2 replacement effects apply")
    assert g.snapshot()["zone"]["Braum"] == "base" and g.snapshot()["awaiting"] == "Ben to order replacement effects"
    second = g.apply("Ben orders replacements: Poro, Aegis")
    assert second[0].what == 'Ben orders the replacement effects for "Poro would die": Poro, Aegis'
    assert not any(e.what.startswith("Braum") for e in second)  # Braum's part was reported with the first order
    snap = g.snapshot()
    assert (snap["zone"]["Braum"], snap["zone"]["Poro"], snap["zone"]["Double Execute"]) == ("base", "hand", "trash")


def test_a_replacement_does_not_apply_to_what_its_own_instead_does():
    g = game(
        {
            "units": [
                {
                    "name": "Phoenix",
                    "controller": "Ben",
                    "at": "base",
                    "might": 2,
                    "replacement": {"when": "this would die", "instead": "kill me"},
                }
            ],
            "hand": {"Ana": ["Execute"]},
            "deck": {"Ana": 3, "Ben": 3},
        },
        {"Execute": {"type": "spell", "effect": "kill target unit"}},
    )
    events = resolve(g, "Ana plays Execute targeting Phoenix")
    assert [e.what for e in events].count("Phoenix is killed at base and goes to Ben's trash") == 1
    assert g.snapshot()["zone"]["Phoenix"] == "trash"


def test_ordering_replacements_when_none_wait_is_illegal():
    g = replacement_game()
    assert (
        illegal(g, "Ben orders replacements: Braum, Zhonya's Hourglass").reason == "action.limited_only_when_instructed"
    )


@pytest.mark.parametrize(
    "replacement, path, words",
    [
        ({"when": "a unit would explode", "instead": "draw 1"}, ("when",), "unknown replacement condition"),
        ({"when": "this would die", "instead": "kill target unit"}, ("instead",), "chooses no targets"),
        ({"when": "this would die", "insted": "draw 1"}, ("insted",), 'did you mean "instead"'),
        ({"when": "this would die", "once": "yes"}, ("once",), "true or false"),
    ],
)
def test_replacement_errors_name_the_key_path(replacement, path, words):
    with pytest.raises(ScenarioError) as err:
        game({"units": [{"name": "Jinx", "controller": "Ana", "at": "base", "might": 3, "replacement": replacement}]})
    assert err.value.path == ("state", "units", 0, "replacement", *path) and words in err.value.message


def test_that_unit_and_replacements_belong_to_replacement_effects_of_permanents():
    with pytest.raises(ScenarioError) as err:
        game({}, {"Zap": {"type": "spell", "effect": "kill that unit"}})
    assert err.value.path == ("cards", "Zap", "effect")
    with pytest.raises(ScenarioError) as err:
        game({}, {"Zap": {"type": "spell", "replacement": STUBBORN}})
    assert err.value.path == ("cards", "Zap", "replacement")
    assert effects.parse_when("another enemy unit would take damage") == ("other enemy", "damage")


# --- bad values in a scenario: one ScenarioError naming the key path (found by tests/test_bad_input_fuzz.py) ---

UNIT = {"name": "Jinx", "controller": "Ana", "at": "base", "might": 3}


@pytest.mark.parametrize(
    "state, extra, path, words",
    [
        ({"deck": {"Ana": 10**9}}, {}, ("state", "deck", "Ana"), "from 0 to 500, got 1000000000"),  # was a MemoryError
        ({"deck": {"Ana": -3}}, {}, ("state", "deck", "Ana"), "from 0 to 500"),  # was an empty deck, silently
        ({"deck": {"Ana": 3.5}}, {}, ("state", "deck", "Ana"), "a count of unnamed cards from 0 to 500 or a list"),
        ({"hand": {"Ana": 10**9}}, {}, ("state", "hand", "Ana"), "from 0 to 500"),
        ({"trash": {"Ben": 3}}, {}, ("state", "trash", "Ben"), "a list of card names"),  # was ignored
        ({"points": {"Ana": "three"}}, {}, ("state", "points", "Ana"), "whole number from 0 to 999"),  # ValueError
        ({"points": {"Ana": None}}, {}, ("state", "points", "Ana"), "whole number"),  # TypeError
        ({"points": 3}, {}, ("state", "points"), "mapping of player -> points"),
        (
            {"runes": {"Ana": "three"}},
            {},
            ("state", "runes", "Ana"),
            "a count of ready runes or {ready: N, exhausted: N}",
        ),
        ({"runes": {"Ana": 13}}, {}, ("state", "runes", "Ana"), "a count of runes from 0 to 12"),
        ({"runes": {"Ana": {"ready": ["Furry"]}}}, {}, ("state", "runes", "Ana", "ready", 0), 'unknown domain "Furry"'),
        ({"units": 3}, {}, ("state", "units"), "expected a list of units"),  # 'int' is not iterable
        ({"battlefields": True}, {}, ("state", "battlefields"), "expected a list of battlefields"),
        ({"units": [{**UNIT, "keywords": 3.5}]}, {}, ("state", "units", 0, "keywords"), "a list of keywords"),
        ({"units": [{**UNIT, "damage": "three"}]}, {}, ("state", "units", 0, "damage"), "from 0 to 999"),
        ({"units": [{**UNIT, "might": 3.5}]}, {}, ("state", "units", 0, "might"), "from 0 to 999, got 3.5"),
        ({"units": [{**UNIT, "exhausted": "false"}]}, {}, ("state", "units", 0, "exhausted"), "true or false"),
        ({"units": [{**UNIT, "name": ["x"]}]}, {}, ("state", "units", 0, "name"), "expected a card name"),
        ({"battlefields": [{"name": None}]}, {}, ("state", "battlefields", 0, "name"), "a battlefield name"),
        (
            {"battlefields": [{"name": "Grove"}], "scored_this_turn": {"Ana": True}},
            {},
            ("state", "scored_this_turn", "Ana"),
            "a list of battlefield names",
        ),
        ({}, {"victory_score": 0}, ("victory_score",), "from 1 to 999"),
        ({}, {"victory_score": "three"}, ("victory_score",), "from 1 to 999"),
    ],
)
def test_bad_values_are_scenario_errors(state, extra, path, words):
    with pytest.raises(ScenarioError) as err:
        game(state, **extra)
    assert err.value.path == path and words in err.value.message


def test_numbers_in_effects_are_bounded():
    with pytest.raises(ScenarioError) as err:
        game({}, {"Big": {"type": "spell", "effect": "draw 1000000000"}})
    assert err.value.path == ("cards", "Big", "effect") and "at most 999" in err.value.message


def test_harmless_forms_are_accepted():
    g = game(
        {
            "hand": {"Ana": "Gust"},
            "deck": {"Ana": 5, "Ben": 0},
            "runes": {"Ana": None},
            "units": [{**UNIT, "might": "3", "exhausted": None}],
        },
        {"Gust": {"type": "spell", "keywords": "Action"}},
    )
    snap = g.snapshot()
    assert snap["zone"]["Gust"] == "hand" and snap["deck"] == {"Ana": 5, "Ben": 0}  # one card, not G, u, s, t


# --- triggered abilities that choose targets (390) ------------------------------------------------------
DEATHKNELL_TARGETS = {
    "battlefields": [{"name": "Altar", "controller": "Ben"}],
    "units": [
        {"name": "Darius", "controller": "Ana", "at": "base", "might": 5},
        {"name": "Jinx", "controller": "Ana", "at": "base", "might": 2},
        {
            "name": "Yorick",
            "controller": "Ben",
            "at": "Altar",
            "might": 2,
            "keywords": ["Deathknell"],
            "effect": "deal 2 to target unit",
        },
    ],
    "deck": {"Ana": 5, "Ben": 5},
}


def _combat_kills_yorick(state: dict):
    g = game(state)
    for sentence in ("Ana moves Darius to Altar", "Ana passes", "Ben passes"):
        g.apply(sentence)
    return g


def test_a_deathknell_that_targets_on_the_opponents_turn_never_crashes():
    """The trigger resolved with no stored target: ``next(targets)`` raised StopIteration inside
    :func:`engine.core.play` ("RuntimeError: generator raised StopIteration"). Its controller now chooses
    the target as it goes onto the Chain, and the scenario plays to the end."""
    scenario = {"players": ["Ana", "Ben"], "turn": {"player": "Ana", "phase": "main"}, "state": DEATHKNELL_TARGETS}
    steps = list(
        play(
            new_game(scenario, CIT),
            [
                (a, False)
                for a in (
                    "Ana moves Darius to Altar",
                    "Ana passes",
                    "Ben passes",
                    "Ana passes",
                    "Ben passes",
                    "Ben chooses Darius",
                    "Ben passes",
                    "Ana passes",
                )
            ],
        )
    )
    assert [s.legal for s in steps] == [True, True, True, False, False, True, True, True]
    assert steps[3].reason == "trigger.choose_targets"
    assert steps[-1].state["units"]["Darius"]["damage"] == 2


def test_the_controller_of_a_targeting_trigger_chooses_and_nobody_has_priority_meanwhile():
    g = _combat_kills_yorick(DEATHKNELL_TARGETS)
    snap = g.snapshot()
    assert snap["priority"] is None and snap["awaiting"] == "Ben to choose targets"
    assert g.legal_actions() == ["Ben chooses Darius", "Ben chooses Jinx"]
    assert illegal(g, "Ana chooses Jinx").reason == "trigger.choose_targets"
    assert illegal(g, "Ben chooses Darius, Jinx").reason == "trigger.choose_targets"
    events = g.apply("Ben chooses Jinx")
    assert {"390.1", "444.2", "446.1"} <= rules(events)
    assert g.snapshot()["priority"] == "Ben" and g.snapshot()["chain"] == ["Yorick (deathknell)"]


def test_a_targeting_trigger_with_one_valid_choice_takes_it():
    one = {**DEATHKNELL_TARGETS, "units": [u for u in DEATHKNELL_TARGETS["units"] if u["name"] != "Jinx"]}
    g = _combat_kills_yorick(one)
    assert g.snapshot()["priority"] == "Ben" and g.snapshot()["chain"] == ["Yorick (deathknell)"]


def test_a_targeting_trigger_with_no_valid_choice_is_removed_not_countered():
    state = {**DEATHKNELL_TARGETS, "units": [u for u in DEATHKNELL_TARGETS["units"] if u["name"] != "Jinx"]}
    state["units"] = [
        {**u, "effect": "buff target friendly unit"} if u["name"] == "Yorick" else u for u in state["units"]
    ]
    g = game(state)
    g.apply("Ana moves Darius to Altar")
    g.apply("Ana passes")
    assert {"390.3", "390.3.a"} <= rules(g.apply("Ben passes"))


def test_a_targeting_trigger_before_the_first_action_waits_for_its_choice():
    state = {
        "battlefields": [{"name": "Altar", "controller": "Ana"}],
        "units": [
            {"name": "Taric", "controller": "Ana", "at": "Altar", "might": 3, "triggers": {"hold": "stun target unit"}},
            {"name": "Garen", "controller": "Ben", "at": "base", "might": 4},
        ],
        "deck": {"Ana": 5, "Ben": 5},
    }
    g = game(state, turn={"player": "Ana", "phase": "beginning"})
    assert g.snapshot()["awaiting"] == "Ana to choose targets" and "390.1" in rules(g.opening)
    events = g.apply("Ana chooses Garen")
    assert g.snapshot()["chain"] == ["Taric (hold)"] and g.snapshot()["priority"] == "Ana"
    assert not any("Beginning Phase" in e.what for e in events)  # reported once, in the opening
    g.apply("Ana passes")
    g.apply("Ben passes")
    assert g.snapshot()["units"]["Garen"]["stunned"]
