"""Static abilities that change the rules (604, 613, 508.1c, 509.1b): lords over a group of creatures,
evasion and block restrictions by power and by number, "can't attack or block alone", "can't attack unless
defending player controls an Island", and "You have no maximum hand size". Real cards' Oracle text
(MTGJSON v3), what a judge sees: the steps, their words and the rules they cite."""

from __future__ import annotations

import pytest

from engine.core import ScenarioError
from tests.test_engine_mtg import NEW, OLD, game, run
from tests.test_mtg_card_text import cited


def why(step) -> str:
    return " ".join(e.what for e in step.events)


def card(types: str, power: int, toughness: int, text: str, cost: str = "{2}") -> dict:
    return {"type": types, "cost": cost, "power": power, "toughness": toughness, "effect": text}


def combat(cards: dict, attackers: list[dict], blockers: list[dict], edition: str = NEW, **more):
    return game(
        {
            "turn": {"player": "Ana", "phase": "declare_attackers"},
            "costs": "ignore",
            "cards": cards,
            "state": {"library": {"Ana": 10, "Ben": 10}, "permanents": attackers + blockers, **more},
        },
        edition,
    )


BATTLE_SLIVER = card("Creature — Sliver", 3, 3, "Sliver creatures you control get +2/+0.", "{4}{R}")
LORD = card(  # Lord of Lineage's lord, its other ability left out
    "Creature — Vampire", 5, 5, "Flying\nOther Vampire creatures you control get +2/+2.", "{2}{B}{B}"
)
GOBLIN_KING = card("Creature — Goblin", 2, 2, "Other Goblin creatures get +1/+1 and have mountainwalk.", "{1}{R}{R}")


def test_a_lord_pumps_the_creatures_of_its_group_only():
    g = game(
        {
            "cards": {
                "Battle Sliver": BATTLE_SLIVER,
                "Muscle Sliver": card("Creature — Sliver", 1, 1, ""),
                "Bear": card("Creature — Bear", 2, 2, ""),
            },
            "state": {
                "library": {"Ana": 10, "Ben": 10},
                "permanents": [
                    {"name": "Battle Sliver", "controller": "Ana"},
                    {"name": "Muscle Sliver", "controller": "Ana"},
                    {"name": "Muscle Sliver#2", "controller": "Ben"},
                    {"name": "Bear", "controller": "Ana"},
                ],
            },
        }
    )
    s = g.s
    power = {p.name: (s.power(p), s.toughness(p)) for p in s.battlefield}
    assert power == {"Battle Sliver": (5, 3), "Muscle Sliver": (3, 1), "Muscle Sliver#2": (1, 1), "Bear": (2, 2)}


def test_other_and_every_players_lords_and_the_keywords_they_give():
    g = game(
        {
            "cards": {
                "Goblin King": GOBLIN_KING,
                "Raider": card("Creature — Goblin", 1, 1, ""),
                "Lord of Lineage": LORD,
            },
            "state": {
                "library": {"Ana": 10, "Ben": 10},
                "permanents": [
                    {"name": "Goblin King", "controller": "Ana"},
                    {"name": "Raider", "controller": "Ben"},
                    {"name": "Lord of Lineage", "controller": "Ana"},
                ],
            },
        }
    )
    s = g.s
    king, raider, lord = s.battlefield
    assert (s.power(king), s.power(raider), s.has(raider, "mountainwalk"), s.has(king, "mountainwalk")) == (
        2,
        2,
        True,
        False,
    )
    assert s.power(lord) == 5  # "other Vampire creatures": not itself


@pytest.mark.parametrize(
    "text, words",
    [
        ("Multicolored creatures you control get +1/+1.", "group"),
        ("Nonartifact creatures get +1/+1.", "group"),
        ("Historic spells you cast cost {1} less to cast.", "group"),
        ('Lands you control have "{T}: Add one mana of any color."', "cannot read ability"),  # not creatures
    ],
)
def test_a_group_the_engine_cannot_place_is_refused_not_misread(text, words):
    with pytest.raises(ScenarioError, match=words):
        game(
            {
                "cards": {"Odd Lord": card("Creature — Human", 1, 1, text)},
                "state": {"permanents": [{"name": "Odd Lord", "controller": "Ana"}]},
            }
        )


STOMPER = card(
    "Creature — Dinosaur", 10, 7, "~ can't be blocked by creatures with power 2 or less.".replace("~", "Stomper")
)
GNARLID = card("Creature — Beast", 2, 2, "Creatures with power less than Gnarlid's power can't block it.")
KRUSHOK = card("Creature — Beast", 5, 4, "Krushok can't be blocked by more than one creature.")
PEGASUS = card("Creature — Pegasus", 2, 2, "Flying\nPegasus can't attack or block alone.")
SEALOCK = card("Creature — Octopus", 5, 5, "Sealock can't attack unless defending player controls an Island.")


@pytest.mark.parametrize("edition, key", [(NEW, "509.1b"), (OLD, "500.3")])
def test_cant_be_blocked_by_creatures_with_power_n_or_less(edition, key):
    cards = {"Stomper": STOMPER, "Bear": card("Creature — Bear", 2, 2, ""), "Ogre": card("Creature — Ogre", 3, 3, "")}
    g = combat(
        cards,
        [{"name": "Stomper", "controller": "Ana"}],
        [{"name": "Bear", "controller": "Ben"}, {"name": "Ogre", "controller": "Ben"}],
        edition,
    )
    run(g, "Ana attacks with Stomper", "Ana moves to declare_blockers")
    small, big = run(g, "Ben blocks Stomper with Bear", "Ben blocks Stomper with Ogre")
    assert not small.legal and key in small.rules and "power 2 or less" in why(small)
    assert big.legal


def test_creatures_with_less_power_than_it_cant_block_it_as_its_power_is_now():
    cards = {"Gnarlid": GNARLID, "Elf": card("Creature — Elf", 1, 1, ""), "Bear": card("Creature — Bear", 2, 2, "")}
    g = combat(
        cards,
        [{"name": "Gnarlid", "controller": "Ana"}],
        [{"name": "Elf", "controller": "Ben"}, {"name": "Bear", "controller": "Ben"}],
    )
    run(g, "Ana attacks with Gnarlid", "Ana moves to declare_blockers")
    elf, bear_ = run(g, "Ben blocks Gnarlid with Elf", "Ben blocks Gnarlid with Bear")
    assert not elf.legal and "509.1b" in elf.rules and "less than Gnarlid's (2)" in why(elf)
    assert bear_.legal


def test_cant_be_blocked_by_more_than_one_creature():
    cards = {"Krushok": KRUSHOK, "Bear": card("Creature — Bear", 2, 2, "")}
    g = combat(
        cards,
        [{"name": "Krushok", "controller": "Ana"}],
        [{"name": "Bear", "controller": "Ben"}, {"name": "Bear#2", "controller": "Ben"}],
    )
    run(g, "Ana attacks with Krushok", "Ana moves to declare_blockers")
    two, one = run(g, "Ben blocks Krushok with Bear, Krushok with Bear#2", "Ben blocks Krushok with Bear")
    assert not two.legal and "509.1b" in two.rules and "more than 1 creature" in why(two)
    assert one.legal


@pytest.mark.parametrize("edition, key", [(NEW, "508.1c"), (OLD, "500.2")])
def test_cant_attack_alone_but_can_with_another(edition, key):
    cards = {"Pegasus": PEGASUS, "Bear": card("Creature — Bear", 2, 2, "")}
    g = combat(cards, [{"name": "Pegasus", "controller": "Ana"}, {"name": "Bear", "controller": "Ana"}], [], edition)
    alone, both = run(g, "Ana attacks with Pegasus", "Ana attacks with Pegasus, Bear")
    assert not alone.legal and key in alone.rules and "can't attack alone" in why(alone)
    assert both.legal


def test_cant_block_alone():
    cards = {"Pegasus": PEGASUS, "Bear": card("Creature — Bear", 2, 2, "")}
    g = combat(
        cards,
        [{"name": "Bear", "controller": "Ana"}, {"name": "Bear#2", "controller": "Ana"}],
        [{"name": "Pegasus", "controller": "Ben"}, {"name": "Bear#3", "controller": "Ben"}],
    )
    run(g, "Ana attacks with Bear, Bear#2", "Ana moves to declare_blockers")
    alone, both = run(g, "Ben blocks Bear with Pegasus", "Ben blocks Bear with Pegasus, Bear#2 with Bear#3")
    assert not alone.legal and "509.1b" in alone.rules and "can't block alone" in why(alone)
    assert both.legal


def test_cant_attack_unless_defending_player_controls_an_island():
    cards = {"Sealock": SEALOCK, "Bear": card("Creature — Bear", 2, 2, "")}
    g = combat(cards, [{"name": "Sealock", "controller": "Ana"}, {"name": "Bear", "controller": "Ana"}], [])
    (no,) = run(g, "Ana attacks with Sealock")
    assert not no.legal and "508.1c" in no.rules and "controls an Island" in why(no)
    g = combat(cards, [{"name": "Sealock", "controller": "Ana"}], [{"name": "Island", "controller": "Ben"}])
    (yes,) = run(g, "Ana attacks with Sealock")
    assert yes.legal


@pytest.mark.parametrize("edition, rule", [(NEW, "402.2"), (OLD, "217.3b")])
def test_no_maximum_hand_size_keeps_every_card_in_cleanup(edition, rule):
    journal = {"type": "Artifact", "cost": "{6}", "effect": "You have no maximum hand size."}
    g = game(
        {
            "turn": {"player": "Ana", "phase": "end"},
            "cards": {"Venser's Journal": journal},
            "state": {
                "library": {"Ana": 10, "Ben": 10},
                "hand": {"Ana": ["Venser's Journal"] * 9},
                "permanents": [{"name": "Venser's Journal", "controller": "Ana"}],
            },
        },
        edition,
    )
    steps = run(g, "Ana passes", "Ben passes")
    assert rule in cited(steps) and len(g.s.hand["Ana"]) == 9
    assert any("no maximum hand size (Venser's Journal says so)" in e.what for s in steps for e in s.events)


BARAL = card(  # Baral, Chief of Compliance's first ability
    "Legendary Creature — Human Wizard", 1, 3, "Instant and sorcery spells you cast cost {1} less to cast.", "{1}{U}"
)
THALIA = card(
    "Legendary Creature — Human Soldier", 2, 1, "First strike\nNoncreature spells cost {1} more to cast.", "{1}{W}"
)
DIVINATION = {"type": "Sorcery", "cost": "{2}{U}", "effect": "Draw two cards."}


@pytest.mark.parametrize("edition, rule", [(NEW, "601.2f"), (OLD, "409.1f")])
def test_a_cost_reduction_takes_generic_mana_off_and_says_so(edition, rule):
    g = game(
        {
            "cards": {"Baral": BARAL, "Divination": DIVINATION, "Island": {"type": "Basic Land — Island"}},
            "state": {
                "library": {"Ana": 10, "Ben": 10},
                "hand": {"Ana": ["Divination"]},
                "permanents": [{"name": "Baral", "controller": "Ana"}]
                + [{"name": f"Island#{i}", "controller": "Ana"} for i in (1, 2)],
            },
        },
        edition,
    )
    (step,) = run(g, "Ana casts Divination")
    assert step.legal and rule in cited([step])
    assert any("Divination's total cost is {1}{U} (Baral: {1} less)" in e.what for e in step.events)
    assert sum(p.tapped for p in g.s.battlefield) == 2


def test_a_cost_increase_applies_to_every_players_spells_of_its_kind_and_not_others():
    cards = {"Thalia": THALIA, "Divination": DIVINATION, "Bear": card("Creature — Bear", 2, 2, "", "{1}{G}")}
    g = game(
        {
            "costs": "ignore",
            "cards": cards,
            "state": {
                "library": {"Ana": 10, "Ben": 10},
                "hand": {"Ana": ["Divination", "Bear"]},
                "permanents": [{"name": "Thalia", "controller": "Ben"}],
            },
        }
    )
    (spell,) = run(g, "Ana casts Divination")
    assert any("total cost is {3}{U} (Thalia: {1} more)" in e.what for e in spell.events)
    run(g, "Ana passes", "Ben passes")
    (bear,) = run(g, "Ana casts Bear")
    assert bear.legal and "601.2f" not in cited([bear])


@pytest.mark.parametrize("keeps, stays", [(True, True), (False, False)])
def test_this_effect_doesnt_remove_the_aura_that_gives_protection(keeps, stays):
    text = "Enchant creature\nEnchanted creature has protection from black." + (
        " This effect doesn't remove Black Ward." if keeps else ""
    )
    ward = {"type": "Enchantment — Aura", "cost": "{W}", "color": "black", "effect": text}  # Black Ward, made black
    g = game(
        {
            "costs": "ignore",
            "cards": {"Black Ward": ward, "Bear": card("Creature — Bear", 2, 2, "")},
            "state": {
                "library": {"Ana": 10, "Ben": 10},
                "hand": {"Ana": ["Black Ward"]},
                "permanents": [{"name": "Bear", "controller": "Ana"}],
            },
        }
    )
    steps = run(g, "Ana casts Black Ward targeting Bear", "Ana passes", "Ben passes")
    assert all(s.legal for s in steps)
    assert any(p.name == "Black Ward" for p in g.s.battlefield) == stays


def test_creatures_your_opponents_control_enter_tapped():
    sovereign = card("Creature — Zombie", 3, 4, "Creatures your opponents control enter the battlefield tapped.")
    g = game(
        {
            "costs": "ignore",
            "turn": {"player": "Ben", "phase": "main1"},
            "cards": {"Imposing Sovereign": sovereign, "Bear": card("Creature — Bear", 2, 2, "", "{1}{G}")},
            "state": {
                "library": {"Ana": 10, "Ben": 10},
                "hand": {"Ben": ["Bear"]},
                "permanents": [{"name": "Imposing Sovereign", "controller": "Ana"}],
            },
        }
    )
    steps = run(g, "Ben casts Bear", "Ben passes", "Ana passes")
    assert g.s.find_permanent("Bear").tapped and "614.1d" in cited(steps)
    assert any("Imposing Sovereign's replacement effect" in e.what for s in steps for e in s.events)


def test_plural_creature_types_are_lords_too():
    g = game(
        {
            "cards": {
                "Death Baron": card("Creature — Zombie", 2, 2, "Other Zombies you control get +1/+1.", "{1}{B}{B}"),
                "Walker": card("Creature — Zombie", 2, 2, ""),
                "Elf": card("Creature — Elf", 1, 1, ""),
            },
            "state": {
                "library": {"Ana": 10, "Ben": 10},
                "permanents": [{"name": n, "controller": "Ana"} for n in ("Death Baron", "Walker", "Elf")],
            },
        }
    )
    s = g.s
    assert [s.power(p) for p in s.battlefield] == [2, 3, 1]


@pytest.mark.parametrize(
    "text, blocker, legal",
    [
        ("Tracer can't be blocked except by creatures with flying or reach.", "Spider", True),
        ("Tracer can't be blocked except by creatures with flying or reach.", "Bear", False),
        ("Tracer can't be blocked by artifact creatures.", "Golem", False),
        ("Tracer can't be blocked by artifact creatures.", "Bear", True),
    ],
)
def test_cant_be_blocked_by_a_kind_of_creature_or_except_by_one(text, blocker, legal):
    cards = {
        "Tracer": card("Creature — Scout", 1, 1, text),
        "Spider": card("Creature — Spider", 1, 4, "Reach"),
        "Bear": card("Creature — Bear", 2, 2, ""),
        "Golem": card("Artifact Creature — Golem", 3, 3, ""),
    }
    g = combat(cards, [{"name": "Tracer", "controller": "Ana"}], [{"name": blocker, "controller": "Ben"}])
    run(g, "Ana attacks with Tracer", "Ana moves to declare_blockers")
    (step,) = run(g, f"Ben blocks Tracer with {blocker}")
    assert step.legal == legal
    assert legal or ("509.1b" in step.rules and "can't be blocked" in why(step))


@pytest.mark.parametrize("edition, rule", [(NEW, "509.1c"), (OLD, "500.3")])
def test_all_creatures_able_to_block_a_lure_must_block_it(edition, rule):
    cards = {
        "Decoy": card("Creature — Elf", 1, 1, "All creatures able to block Decoy do so."),
        "Bear": card("Creature — Bear", 2, 2, ""),
        "Drake": card("Creature — Drake", 2, 2, "Flying"),
    }
    g = combat(
        cards,
        [{"name": "Decoy", "controller": "Ana"}, {"name": "Drake", "controller": "Ana"}],
        [{"name": "Bear", "controller": "Ben"}, {"name": "Bear#2", "controller": "Ben"}],
        edition,
    )
    run(g, "Ana attacks with Decoy, Drake", "Ana moves to declare_blockers")
    none, one, both = run(
        g, "Ben declares no blockers", "Ben blocks Decoy with Bear", "Ben blocks Decoy with Bear, Decoy with Bear#2"
    )
    assert not none.legal and rule in none.rules and "all creatures able to block Decoy must do so" in why(none)
    assert not one.legal and "Bear#2 is able to block Decoy" in why(one)
    assert both.legal


def test_must_be_blocked_if_able_and_cant_block_and_cant_be_blocked():
    cards = {
        "Protector": card("Creature — Elemental Warrior", 2, 5, "Protector must be blocked if able."),
        "Prowler": card("Creature — Human Rogue", 5, 1, "Prowler can't block and can't be blocked."),
        "Bear": card("Creature — Bear", 2, 2, ""),
    }
    g = combat(
        cards,
        [{"name": "Protector", "controller": "Ana"}, {"name": "Prowler", "controller": "Ana"}],
        [{"name": "Bear", "controller": "Ben"}],
    )
    run(g, "Ana attacks with Protector, Prowler", "Ana moves to declare_blockers")
    none, prowler, good = run(
        g, "Ben declares no blockers", "Ben blocks Prowler with Bear", "Ben blocks Protector with Bear"
    )
    assert not none.legal and "509.1c" in none.rules and "Protector must be blocked if able" in why(none)
    assert not prowler.legal and "509.1b" in prowler.rules
    assert good.legal


def test_a_lord_gives_its_group_a_quoted_activated_ability():
    constricting = card(  # Constricting Sliver's cousin: Sliver creatures you control have a quoted ability
        "Creature — Sliver",
        2,
        2,
        'Sliver creatures you control have "{T}: This creature deals 1 damage to target creature."',
    )
    g = game(
        {
            "costs": "ignore",
            "cards": {
                "Lord Sliver": constricting,
                "Muscle Sliver": card("Creature — Sliver", 1, 1, ""),
                "Bear": card("Creature — Bear", 2, 2, ""),
            },
            "state": {
                "library": {"Ana": 10, "Ben": 10},
                "permanents": [
                    {"name": "Lord Sliver", "controller": "Ana"},
                    {"name": "Muscle Sliver", "controller": "Ana"},
                    {"name": "Bear", "controller": "Ben"},
                ],
            },
        }
    )
    steps = run(g, "Ana activates Muscle Sliver targeting Bear", "Ana passes", "Ben passes")
    assert all(s.legal for s in steps)
    assert g.s.find_permanent("Bear").damage == 1 and g.s.find_permanent("Muscle Sliver").tapped
    with pytest.raises(ScenarioError, match="Bear has no activated ability"):  # not a Sliver
        run(g, "Ana activates Bear targeting Muscle Sliver")
