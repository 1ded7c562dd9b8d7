"""Auras, Equipment and what they say of the permanent they are attached to, and control (issue 23): the
steps a judge sees and the rules cited, read from the cards' own words.

Enchanted or equipped permanents that don't untap (502.3) or whose activated abilities can't be
activated (602.5), abilities an Aura gives (613.1f), totem armor (702.89a), living weapon (702.92a),
control-changing effects (layer 2, 613.1b) and exile "until ~ leaves the battlefield" (610.3).
"""

from __future__ import annotations

import pytest

from engine.core import ScenarioError, play
from engine.mtg import new_game
from scenarios.citations import load_citations

NEW, OLD = "2026-02-27", "2008-10-01"


def game(cards: dict, permanents: list, hand: list, edition: str = NEW, phase: str = "main1"):
    data = {
        "players": ["Ana", "Ben"],
        "turn": {"player": "Ana", "phase": phase},
        "costs": "ignore",
        "cards": cards,
        "state": {"library": {"Ana": 10, "Ben": 10}, "hand": {"Ana": hand}, "permanents": permanents},
    }
    return new_game(data, load_citations("mtg", edition))


def run(g, *actions: str) -> list[tuple[str, tuple[str, ...]]]:
    """Every event of the actions, as (what, rules); an illegal action fails the test."""
    out = []
    for step in play(g, [(a, False) for a in actions]):
        assert step.legal, (step.action, [e.what for e in step.events])
        out += [(e.what, e.rules) for e in step.events]
    return out


def cites(events, rule: str) -> list[str]:
    return [what for what, rules in events if rule in rules]


def bear(name="Bear", controller="Ben", **more):
    return {"name": name, "controller": controller, "type": "creature", "power": 2, "toughness": 2, **more}


AURA = "Enchantment — Aura"
CLAUSTROPHOBIA = {
    "type": AURA,
    "cost": "1UU",
    "effect": "Enchant creature\nWhen Claustrophobia enters the battlefield, tap enchanted creature.\n"
    "Enchanted creature doesn't untap during its controller's untap step.",
}


def test_an_aura_taps_the_creature_it_enters_on_and_keeps_it_tapped_in_its_untap_step():
    g = game({"Claustrophobia": CLAUSTROPHOBIA}, [bear(), bear("Cub")], ["Claustrophobia"])
    events = run(g, "Ana casts Claustrophobia targeting Bear", "Ana passes", "Ben passes", "Ana passes", "Ben passes")
    assert "Claustrophobia trigger taps Bear" in cites(events, "701.26a")
    g.s.find_permanent("Cub").tapped = True
    events = run(g, "Ana moves to cleanup")
    assert cites(events, "502.3")[-1] == "Bear doesn't untap during Ben's untap step (Claustrophobia's ability)"
    assert g.s.find_permanent("Bear").tapped and not g.s.find_permanent("Cub").tapped


def test_a_permanent_that_says_it_doesnt_untap_stays_tapped():
    vault = {"type": "artifact", "effect": "Mana Vault doesn't untap during your untap step."}
    g = game({"Mana Vault": vault}, [{"name": "Mana Vault", "controller": "Ben", "tapped": True}], [])
    events = run(g, "Ana moves to cleanup")
    assert "Mana Vault doesn't untap during Ben's untap step (its own ability)" in cites(events, "502.3")


def test_what_an_aura_may_enchant_is_read_in_parts():
    ice = {
        "type": AURA,
        "effect": "Enchant artifact or creature\nEnchanted permanent doesn't untap during its controller's untap step.",
    }
    vines = {"type": AURA, "effect": "Enchant tapped creature\nEnchanted creature gets -1/-1."}
    rock = {"name": "Rock", "controller": "Ben", "type": "artifact"}
    shrine = {"name": "Shrine", "controller": "Ben", "type": "enchantment"}
    g = game({"Ice Over": ice, "Vines": vines}, [rock, shrine, bear()], ["Ice Over", "Vines"])
    legal = g.legal_actions()
    assert "Ana casts Ice Over targeting Rock" in legal and "Ana casts Ice Over targeting Bear" in legal
    assert "Ana casts Ice Over targeting Shrine" not in legal
    assert not any(a.startswith("Ana casts Vines") for a in legal)  # no tapped creature to enchant
    g.s.find_permanent("Bear").tapped = True
    assert "Ana casts Vines targeting Bear" in g.legal_actions()


def test_an_aura_stops_attacks_blocks_and_activated_abilities():
    arrest = {
        "type": AURA,
        "effect": "Enchant creature\nEnchanted creature can't attack or block, and its activated abilities can't be "
        "activated.",
    }
    pinger = bear("Pinger", "Ana", ability={"cost": "{T}", "effect": "deal 1 damage to any target"})
    g = game({"Arrest": arrest}, [pinger], ["Arrest"])
    run(g, "Ana casts Arrest targeting Pinger", "Ana passes", "Ben passes")
    step = next(iter(play(g, [("Ana activates Pinger targeting Ben", False)])))
    assert not step.legal and "602.5" in step.rules
    assert "Arrest says its activated abilities can't be activated" in step.events[0].what


def test_an_aura_gives_the_creature_an_activated_ability_and_a_land_keeps_its_mana():
    teachings = {
        "type": AURA,
        "effect": 'Enchant creature\nEnchanted creature gets +2/+2 and has "{T}: This creature deals 1 damage to '
        'any target."',
    }
    tar = {"type": AURA, "effect": 'Enchant land\nEnchanted land has "{T}: Target player loses 3 life."'}
    swamp = {"name": "Swamp", "controller": "Ana"}
    g = game(
        {"Arcane Teachings": teachings, "Caustic Tar": tar},
        [bear("Cub", "Ana"), swamp, bear()],
        [
            "Arcane Teachings",
            "Caustic Tar",
        ],
    )
    run(g, "Ana casts Arcane Teachings targeting Cub", "Ana passes", "Ben passes")
    run(g, "Ana casts Caustic Tar targeting Swamp", "Ana passes", "Ben passes")
    legal = g.legal_actions()
    assert {
        "Ana activates Cub targeting Bear",
        "Ana activates Swamp targeting Ben",
        "Ana activates Swamp for {B}",
    } <= set(legal)
    events = run(g, "Ana activates Cub targeting Bear", "Ana passes", "Ben passes")
    assert any(w.startswith("Cub ability deals 1 damage to Bear") for w, _ in events)
    run(g, "Ana activates Swamp targeting Ben", "Ana passes", "Ben passes")
    assert g.s.life["Ben"] == 17


@pytest.mark.parametrize(
    "ability",
    ['"{T}, Discard a card: Draw a card."', '"{T}, Pay 1 life: Draw a card."'],
)
def test_an_ability_an_aura_gives_that_the_engine_cannot_do_is_refused_naming_it(ability):
    aura = {"type": AURA, "effect": f"Enchant creature\nEnchanted creature has {ability}"}
    with pytest.raises(ScenarioError) as info:
        game({"Gift": aura}, [], ["Gift"])
    assert "is not modelled" in info.value.message and ability.strip('"').split(":")[0].lower() in info.value.message


def test_an_aura_gives_the_creature_a_triggered_ability_that_is_its_own():
    scarring = {
        "type": AURA,
        "effect": 'Enchant creature\nEnchanted creature gets +2/+0 and has "When this creature dies, draw a card."',
    }
    murder = {"type": "instant", "effect": "Destroy target creature."}
    g = game({"Infernal Scarring": scarring, "Murder": murder}, [bear("Cub", "Ana")], ["Infernal Scarring", "Murder"])
    run(g, "Ana casts Infernal Scarring targeting Cub", "Ana passes", "Ben passes")
    assert g.s.power(g.s.find_permanent("Cub")) == 4
    events = run(g, "Ana casts Murder targeting Cub", "Ana passes", "Ben passes", "Ana passes", "Ben passes")
    assert "Cub trigger triggers (Ana controls it)" in [w for w, _ in events]
    assert len(g.s.library["Ana"]) == 9  # the creature's own ability, looked back on as it died (603.10a)


def test_a_token_has_the_ability_the_sentence_after_it_gives_and_sacrifices_itself_to_pay():
    invader = {
        "type": "creature",
        "power": 2,
        "toughness": 2,
        "effect": "When Nest Invader enters the battlefield, create a 0/1 colorless Eldrazi Spawn creature token. It has "
        '"Sacrifice this creature: Add {C}."',
    }
    devils = {
        "type": "instant",
        "effect": 'Create two 1/1 red Devil creature tokens. They have "When this creature dies, it deals 1 damage to '
        'any target."',
    }
    g = game({"Nest Invader": invader, "Dance with Devils": devils}, [], ["Nest Invader", "Dance with Devils"])
    run(g, "Ana casts Nest Invader", "Ana passes", "Ben passes", "Ana passes", "Ben passes")
    events = run(g, "Ana activates Eldrazi Spawn Token")
    assert events[0] == ("Ana sacrifices Eldrazi Spawn Token to pay the cost of its ability", ("601.2h", "701.21a"))
    assert g.s.pool["Ana"] == {"C": 1} and g.s.find_permanent("Eldrazi Spawn Token") is None
    run(g, "Ana casts Dance with Devils", "Ana passes", "Ben passes")
    devil = g.s.find_permanent("Devil Token")
    assert devil.card.triggers[0].when == "dies" and g.s.find_permanent("Devil Token#2") is not None


UMBRA = {
    "type": AURA,
    "effect": "Enchant creature\nEnchanted creature gets +1/+1 and has first strike.\nTotem armor (If enchanted "
    "creature would be destroyed, instead remove all damage from it and destroy this Aura.)",
}


@pytest.mark.parametrize("edition, rule", [(NEW, "702.89a"), ("2019-10-04", "702.88a")])
def test_totem_armor_destroys_the_aura_instead_of_the_creature(edition, rule):
    murder = {"type": "instant", "effect": "Destroy target creature."}
    g = game({"Hyena Umbra": UMBRA, "Murder": murder}, [bear("Cub", "Ana")], ["Hyena Umbra", "Murder"], edition)
    run(g, "Ana casts Hyena Umbra targeting Cub", "Ana passes", "Ben passes")
    events = run(g, "Ana casts Murder targeting Cub", "Ana passes", "Ben passes")
    assert cites(events, rule)[0] == (
        "Murder would destroy Cub; instead all damage is removed from it and Hyena Umbra is destroyed (its totem armor)"
    )
    assert g.s.find_permanent("Cub") is not None and g.s.find_permanent("Hyena Umbra") is None


def test_totem_armor_replaces_destruction_by_lethal_damage_and_is_not_in_the_2008_rules():
    bolt = {"type": "instant", "effect": "Deal 5 damage to target creature."}
    g = game({"Hyena Umbra": UMBRA, "Bolt": bolt}, [bear("Cub", "Ana")], ["Hyena Umbra", "Bolt"])
    run(g, "Ana casts Hyena Umbra targeting Cub", "Ana passes", "Ben passes")
    events = run(g, "Ana casts Bolt targeting Cub", "Ana passes", "Ben passes")
    assert any("Hyena Umbra is destroyed (its totem armor)" in w for w in cites(events, "702.89a"))
    cub = g.s.find_permanent("Cub")
    assert cub is not None and cub.damage == 0 and g.s.find_permanent("Hyena Umbra") is None
    with pytest.raises(ScenarioError) as info:
        game({"Hyena Umbra": UMBRA}, [], ["Hyena Umbra"], edition=OLD)
    assert 'keyword "totem armor" is not in the 2008-10-01 Comprehensive Rules' in info.value.message


def test_living_weapon_makes_a_germ_and_attaches_the_equipment_to_it():
    husk = {"type": "Artifact — Equipment", "keywords": ["Living weapon"], "effect": "Equipped creature gets +1/+1."}
    husk["keywords"].append("Equip {2}")
    g = game({"Flayer Husk": husk}, [], ["Flayer Husk"])
    events = run(g, "Ana casts Flayer Husk", "Ana passes", "Ben passes", "Ana passes", "Ben passes")
    assert cites(events, "702.92a")[0].startswith("Flayer Husk living weapon triggers (Ana controls it)")
    germ = g.s.find_permanent("Phyrexian Germ Token")
    assert germ is not None and g.s.find_permanent("Flayer Husk").attached_to == germ.oid
    assert (g.s.power(germ), g.s.toughness(germ)) == (1, 1)


CONTROL_MAGIC = {"type": AURA, "effect": "Enchant creature\nYou control enchanted creature."}


def test_an_aura_that_says_you_control_the_creature_changes_its_controller_while_attached():
    disenchant = {"type": "instant", "effect": "Destroy target enchantment."}
    g = game({"Control Magic": CONTROL_MAGIC, "Disenchant": disenchant}, [bear()], ["Control Magic", "Disenchant"])
    events = run(g, "Ana casts Control Magic targeting Bear", "Ana passes", "Ben passes")
    said = cites(events, "613.1b")
    assert said and said[0].startswith("Control Magic gives Ana control of Bear") and "302.6" in events[-2][1]
    bear_now = g.s.find_permanent("Bear")
    assert bear_now.controller == "Ana" and bear_now.sick
    events = run(g, "Ana casts Disenchant targeting Control Magic", "Ana passes", "Ben passes")
    assert any(w.startswith("Bear returns to Ben's control") for w in cites(events, "613.1b"))
    assert g.s.find_permanent("Bear").controller == "Ben"


def test_gaining_control_until_end_of_turn_with_untap_and_haste_ends_in_the_cleanup_step():
    treason = {
        "type": "sorcery",
        "effect": "Gain control of target creature until end of turn. Untap that creature. It gains haste until end "
        "of turn.",
    }
    g = game({"Act of Treason": treason}, [bear(tapped=True)], ["Act of Treason"])
    events = run(g, "Ana casts Act of Treason targeting Bear", "Ana passes", "Ben passes")
    assert "Act of Treason untaps Bear" in [w for w, _ in events]
    run(g, "Ana moves to declare_attackers")
    assert "Ana attacks with Bear" in g.legal_actions()
    events = run(g, "Ana moves to cleanup")
    assert any(w.startswith("Bear returns to Ben's control") for w in cites(events, "613.1b"))
    assert g.s.find_permanent("Bear").controller == "Ben"


BANISHER = {
    "type": "creature",
    "power": 2,
    "toughness": 2,
    "effect": "When Banisher Priest enters the battlefield, exile target creature an opponent controls until Banisher "
    "Priest leaves the battlefield.",
}


def test_a_card_exiled_until_its_exiler_leaves_returns_under_its_owners_control():
    murder = {"type": "instant", "effect": "Destroy target creature."}
    g = game({"Banisher Priest": BANISHER, "Murder": murder}, [bear()], ["Banisher Priest", "Murder"])
    run(g, "Ana casts Banisher Priest", "Ana passes", "Ben passes")
    events = run(g, "Ana puts Banisher Priest trigger on the stack targeting Bear", "Ana passes", "Ben passes")
    assert "Banisher Priest trigger exiles Bear until Banisher Priest leaves the battlefield" in cites(events, "610.3")
    assert g.s.find_permanent("Bear") is None
    events = run(g, "Ana casts Murder targeting Banisher Priest", "Ana passes", "Ben passes")
    assert "Banisher Priest has left the battlefield: Bear returns to the battlefield under Ben's control" in cites(
        events, "610.3"
    )
    assert g.s.find_permanent("Bear").controller == "Ben"


def test_an_exiler_gone_before_its_ability_resolves_exiles_nothing():
    murder = {"type": "instant", "effect": "Destroy target creature."}
    g = game({"Banisher Priest": BANISHER, "Murder": murder}, [bear()], ["Banisher Priest", "Murder"])
    run(g, "Ana casts Banisher Priest", "Ana passes", "Ben passes")
    run(g, "Ana puts Banisher Priest trigger on the stack targeting Bear")
    events = run(
        g, "Ana casts Murder targeting Banisher Priest", "Ana passes", "Ben passes", "Ana passes", "Ben passes"
    )
    assert any("does not exile Bear" in w for w in cites(events, "610.3"))
    assert g.s.find_permanent("Bear") is not None


def test_a_trigger_line_keeps_its_sentences_and_that_creature_skips_its_next_untap_step():
    lynx = {
        "type": "creature",
        "power": 2,
        "toughness": 2,
        "effect": "When Frost Lynx enters the battlefield, tap target creature an opponent controls. That creature "
        "doesn't untap during its controller's next untap step.",
    }
    g = game({"Frost Lynx": lynx}, [bear()], ["Frost Lynx"])
    run(g, "Ana casts Frost Lynx", "Ana passes", "Ben passes")
    events = run(g, "Ana puts Frost Lynx trigger on the stack targeting Bear", "Ana passes", "Ben passes")
    assert "Bear doesn't untap during Ben's next untap step" in cites(events, "502.3")
    events = run(g, "Ana moves to cleanup")
    assert "Bear doesn't untap during Ben's untap step (Frost Lynx trigger: this untap step only)" in cites(
        events, "502.3"
    )
    assert g.s.find_permanent("Bear").tapped and not g.s.skip_untap


def test_an_auras_ability_and_trigger_name_the_creature_it_enchants():
    firebreathing = {
        "type": AURA,
        "effect": "Enchant creature",
        "ability": {"cost": "{R}", "effect": "Enchanted creature gets +1/+0 until end of turn."},
    }
    g = game({"Firebreathing": firebreathing}, [bear("Cub", "Ana")], ["Firebreathing"])
    run(g, "Ana casts Firebreathing targeting Cub", "Ana passes", "Ben passes")
    run(g, "Ana activates Firebreathing", "Ana passes", "Ben passes")
    assert g.s.power(g.s.find_permanent("Cub")) == 3


def test_an_equipments_abilities_trigger_on_what_the_creature_it_equips_does():
    armory = {
        "type": "Artifact — Equipment",
        "effect": "Whenever equipped creature attacks, put a +1/+1 counter on it.",
    }
    staff = {"type": "Artifact — Equipment", "effect": "Whenever equipped creature dies, you gain 3 life."}
    murder = {"type": "instant", "effect": "Destroy target creature."}
    permanents = [
        bear("Cub", "Ana"),
        {"name": "Armory", "controller": "Ana", "attached_to": "Cub"},
        {"name": "Lifestaff", "controller": "Ana", "attached_to": "Cub"},
    ]
    g = game({"Armory": armory, "Lifestaff": staff, "Murder": murder}, permanents, ["Murder"])
    events = run(g, "Ana moves to declare_attackers", "Ana attacks with Cub", "Ana passes", "Ben passes")
    assert "Armory trigger triggers (Ana controls it): Cub, the creature it is attached to, attacks" in [
        w for w, _ in events
    ]
    assert g.s.find_permanent("Cub").counters == {"+1/+1": 1}
    run(
        g,
        "Ana moves to main2",
        "Ana casts Murder targeting Cub",
        "Ana passes",
        "Ben passes",
        "Ana passes",
        "Ben passes",
    )
    assert g.s.life["Ana"] == 23


def test_a_permanent_that_enters_tapped_and_doesnt_untap():
    traxos = {
        "type": "artifact creature",
        "power": 7,
        "toughness": 7,
        "effect": "Traxos enters the battlefield tapped and doesn't untap during your untap step.",
    }
    g = game({"Traxos": traxos}, [], ["Traxos"], phase="main1")
    run(g, "Ana casts Traxos", "Ana passes", "Ben passes")
    assert g.s.find_permanent("Traxos").tapped
    events = run(g, "Ana moves to cleanup", "Ben moves to cleanup")
    assert "Traxos doesn't untap during Ana's untap step (its own ability)" in cites(events, "502.3")


def test_an_aura_triggers_in_the_upkeep_of_the_enchanted_creatures_controller_and_that_player_loses_life():
    lashes = {
        "type": AURA,
        "effect": "Enchant creature\nAt the beginning of the upkeep of enchanted creature's controller, that player "
        "loses 1 life.",
    }
    g = game({"Lashes": lashes}, [bear()], ["Lashes"])
    run(g, "Ana casts Lashes targeting Bear", "Ana passes", "Ben passes")
    events = run(g, "Ana moves to cleanup", "Ben passes", "Ana passes")
    assert "Lashes trigger triggers (Ana controls it)" in [w for w, _ in events]
    assert g.s.life == {"Ana": 20, "Ben": 19}
    run(g, "Ben moves to cleanup")  # Ana's upkeep: the enchanted creature's controller is Ben
    assert g.s.life == {"Ana": 20, "Ben": 19}


def test_an_aura_sets_base_power_and_toughness_before_other_changes_apply():
    wrappings = {"type": AURA, "effect": "Enchant creature\nEnchanted creature has base power and toughness 0/2."}
    g = game({"Wrappings": wrappings}, [bear("Cub", "Ana", counters={"+1/+1": 1})], ["Wrappings"])
    run(g, "Ana casts Wrappings targeting Cub", "Ana passes", "Ben passes")
    cub = g.s.find_permanent("Cub")
    assert (g.s.power(cub), g.s.toughness(cub)) == (1, 3)  # 0/2 (layer 7b), then the counter (7c)


def test_a_land_given_a_mana_ability_adds_two_mana_of_the_colour_chosen():
    gift = {"type": AURA, "effect": 'Enchant land\nEnchanted land has "{T}: Add two mana of any one color."'}
    g = game({"Gift of Paradise": gift}, [{"name": "Forest", "controller": "Ana"}], ["Gift of Paradise"])
    run(g, "Ana casts Gift of Paradise targeting Forest", "Ana passes", "Ben passes")
    assert "Ana activates Forest for {U}" in g.legal_actions()
    run(g, "Ana activates Forest for {U}")
    assert g.s.pool["Ana"] == {"U": 2}


def test_an_aura_gives_plus_one_for_each_permanent_its_controller_controls_of_a_kind():
    armor = {"type": AURA, "effect": "Enchant creature\nEnchanted creature gets +1/+1 for each Forest you control."}
    forests = [{"name": f"Forest#{i}", "controller": "Ana"} for i in (1, 2, 3)]
    g = game({"Blanchwood Armor": armor}, [bear("Cub", "Ana"), *forests], ["Blanchwood Armor"])
    run(g, "Ana casts Blanchwood Armor targeting Cub", "Ana passes", "Ben passes")
    cub = g.s.find_permanent("Cub")
    assert (g.s.power(cub), g.s.toughness(cub)) == (5, 5)


def test_those_creatures_are_each_target_chosen_and_skip_their_next_untap_step():
    conditions = {
        "type": "instant",
        "effect": "Tap up to two target creatures. Those creatures don't untap during their controller's next untap "
        "step.",
    }
    g = game({"Adverse Conditions": conditions}, [bear(), bear("Ogre")], ["Adverse Conditions"])
    events = run(g, "Ana casts Adverse Conditions targeting Bear", "Ana passes", "Ben passes")
    assert cites(events, "502.3") == ["Bear doesn't untap during Ben's next untap step"]
    assert not g.s.find_permanent("Ogre").tapped


def test_a_card_named_as_a_keyword_gives_the_keyword_its_text_names():
    fear = {"type": AURA, "effect": "Enchant creature\nEnchanted creature has fear."}
    g = game({"Fear": fear}, [bear("Cub", "Ana")], ["Fear"])
    run(g, "Ana casts Fear targeting Cub", "Ana passes", "Ben passes")
    assert g.s.has(g.s.find_permanent("Cub"), "fear")
