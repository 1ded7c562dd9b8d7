"""Real cards that choose a colour or a creature type as they enter (614.12a), read whole by the Magic engine
(issue 23): the choice said with the spell or, on the battlefield, with ``chosen:``, and the text that uses
"the chosen color | type". The texts are the cards' Oracle text as MTGJSON v3 gives it."""

from __future__ import annotations

import pytest

from engine.core import ScenarioError
from tests.test_engine_mtg import OLD, game, run
from tests.test_mtg_card_text import bear, cited, said

VOICE_OF_ALL = {
    "type": "Creature — Angel",
    "cost": "{2}{W}{W}",
    "power": 2,
    "toughness": 2,
    "keywords": ["Flying"],
    "effect": "As Voice of All enters the battlefield, choose a color.\n"
    "Voice of All has protection from the chosen color.",
}
OBELISK_OF_URD = {
    "type": "Artifact",
    "cost": "{6}",
    "effect": "As Obelisk of Urd enters the battlefield, choose a creature type.\n"
    "Creatures you control of the chosen type get +2/+2.",
}
ELF = {"type": "Creature — Elf Warrior", "power": 1, "toughness": 1}
GOBLIN = {"type": "Creature — Goblin", "power": 1, "toughness": 1}


def _game(hand: list[str], permanents: tuple[dict, ...] = (), edition: str = "2026-02-27"):
    return game(
        {
            "costs": "ignore",
            "cards": {"Voice of All": VOICE_OF_ALL, "Obelisk of Urd": OBELISK_OF_URD, "Elf": ELF, "Goblin": GOBLIN},
            "state": {"hand": {"Ana": hand}, "permanents": list(permanents), "library": {"Ana": 10, "Ben": 10}},
        },
        edition,
    )


def test_the_colour_chosen_as_it_enters_gives_it_protection_from_that_colour():
    g = _game(["Voice of All"])
    assert 'Ana casts Voice of All choosing "red"' in g.legal_actions()
    steps = run(g, 'Ana casts Voice of All choosing "red"', "Ana passes", "Ben passes")
    assert "As Voice of All enters the battlefield, Ana chooses the color Red" in said(steps)
    assert "614.12a" in cited(steps)
    voice = g.s.find_permanent("Voice of All")
    assert g.s.has(voice, "protection from red") and not g.s.has(voice, "protection from blue")


def test_a_spell_that_chooses_as_it_enters_is_refused_without_the_choice():
    g = _game(["Voice of All"])
    with pytest.raises(ScenarioError) as info:
        g.apply("Ana casts Voice of All")
    assert 'Ana casts Voice of All choosing "white" (white, blue, black, red, green)' in info.value.message
    with pytest.raises(ScenarioError):
        g.apply('Ana casts Voice of All choosing "purple"')


def test_creatures_of_the_chosen_type_get_the_bonus_and_others_do_not():
    g = _game(["Obelisk of Urd"], ({"name": "Elf"}, {"name": "Goblin"}))
    steps = run(g, "Ana casts Obelisk of Urd choosing Elf", "Ana passes", "Ben passes")
    assert "As Obelisk of Urd enters the battlefield, Ana chooses the creature type Elf" in said(steps)
    assert g.s.power(g.s.find_permanent("Elf")) == 3 and g.s.power(g.s.find_permanent("Goblin")) == 1


def test_a_permanent_on_the_battlefield_says_what_it_chose():
    g = _game([], ({"name": "Voice of All", "chosen": "black"}, bear("Bear", "Ben")))
    assert g.s.has(g.s.find_permanent("Voice of All"), "protection from black")
    with pytest.raises(ScenarioError) as info:
        _game([], ({"name": "Voice of All"},))
    assert "chose a color as it entered: say which with chosen:" in info.value.message
    with pytest.raises(ScenarioError):
        _game([], ({"name": "Elf", "chosen": "red"},))


def test_the_choice_is_cited_under_the_2008_rules_as_it_comes_into_play():
    voice = dict(VOICE_OF_ALL, effect=VOICE_OF_ALL["effect"].replace("enters the battlefield", "comes into play"))
    g = game(
        {"costs": "ignore", "cards": {"Voice of All": voice}, "state": {"hand": {"Ana": ["Voice of All"]}}},
        OLD,
    )
    steps = run(g, 'Ana casts Voice of All choosing "green"', "Ana passes", "Ben passes")
    assert "419.1b" in cited(steps)
    assert g.s.has(g.s.find_permanent("Voice of All"), "protection from green")


def test_a_use_of_the_chosen_value_the_engine_does_not_read_is_refused():
    prism = {
        "type": "Artifact",
        "cost": "{1}",
        "effect": "As Prism Ring enters the battlefield, choose a color.\n"
        "Whenever you cast a spell of the chosen color, you gain 1 life.",
    }
    with pytest.raises(ScenarioError):
        game({"cards": {"Prism Ring": prism}, "state": {"hand": {"Ana": ["Prism Ring"]}}})


PALACE_SIEGE = {
    "type": "Enchantment",
    "cost": "{3}{B}{B}",
    "effect": "As Palace Siege enters the battlefield, choose Khans or Dragons.\n"
    "\u2022 Khans \u2014 At the beginning of your upkeep, return target creature card from your graveyard to your hand.\n"
    "\u2022 Dragons \u2014 At the beginning of your upkeep, each opponent loses 2 life and you gain 2 life.",
}


def test_the_anchor_word_chosen_gives_its_ability_alone():
    g = game(
        {
            "costs": "ignore",
            "cards": {"Palace Siege": PALACE_SIEGE},
            "state": {"hand": {"Ana": ["Palace Siege"]}, "library": {"Ana": 10, "Ben": 10}},
        }
    )
    assert {'Ana casts Palace Siege choosing "khans"', 'Ana casts Palace Siege choosing "dragons"'} <= set(
        g.legal_actions()
    )
    steps = run(g, "Ana casts Palace Siege choosing Dragons", "Ana passes", "Ben passes")
    assert "As Palace Siege enters the battlefield, Ana chooses Dragons" in said(steps)
    assert {"614.12a", "614.12c"} <= cited(steps)
    run(g, "Ana moves to upkeep", "Ben moves to upkeep", "Ana passes", "Ben passes")
    assert g.s.life == {"Ana": 22, "Ben": 18}


def test_anchor_words_are_refused_under_rules_before_fate_reforged():
    siege = dict(PALACE_SIEGE, effect=PALACE_SIEGE["effect"].replace("enters the battlefield", "comes into play"))
    with pytest.raises(ScenarioError) as info:
        game({"cards": {"Palace Siege": siege}, "state": {"hand": {"Ana": ["Palace Siege"]}}}, OLD)
    assert "anchor word (Khans or Dragons) are not in the 2008-10-01" in info.value.message


def test_the_chosen_type_is_written_where_the_text_names_it_and_never_misread():
    # Riders of Gavony: "protection from creatures of the chosen type" is protection from Elf creatures (not
    # modelled: refused), never "Human Elf creatures ... have protection from creatures".
    riders = {
        "type": "Creature — Human Knight",
        "cost": "{2}{W}{W}",
        "power": 3,
        "toughness": 3,
        "keywords": ["Vigilance"],
        "effect": "As Riders of Gavony enters the battlefield, choose a creature type.\n"
        "Human creatures you control have protection from creatures of the chosen type.",
    }
    with pytest.raises(ScenarioError) as info:
        game({"cards": {"Riders of Gavony": riders, "Elf": ELF}, "state": {"hand": {"Ana": ["Riders of Gavony"]}}})
    assert "protection from elf creatures" in info.value.message
