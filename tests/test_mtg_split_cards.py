"""Split cards (709) and aftermath (702.127a), issue 23: a card of two halves, one half cast at a time, its
own mana cost paid; a half with aftermath cast only from a graveyard, then exiled. What a judge sees: the
steps, the rules they cite, and the refusals."""

from __future__ import annotations

import pytest

from engine.core import IllegalAction, ScenarioError
from rulebook.cards.model import Card, Face
from rulebook.cards.scenario import definition
from tests.test_engine_mtg import NEW, OLD, game, run
from tests.test_mtg_card_text import bear, cited, said

# Real cards (Oracle text of MTGJSON v3), as the card library gives them (rulebook.cards.scenario).
AFTERMATH = "Aftermath (Cast this spell only from your graveyard. Then exile it.)"
CUT_RIBBONS = Card(
    "mtg",
    "Cut // Ribbons",
    (
        Face("Cut", "{1}{R}", "Sorcery", "Cut deals 4 damage to target creature."),
        Face("Ribbons", "{X}{B}{B}", "Sorcery", f"{AFTERMATH}\nEach opponent loses X life."),
    ),
    "Sorcery // Sorcery",
    ("Sorcery",),
    (),
    (),
    "{1}{R} // {X}{B}{B}",
    ("Aftermath",),
    "",
    ("AKH",),
    "aftermath",
    (),
    {"colors": ["B", "R"]},
)
# Wear // Tear as a judge writes it without its fuse line (fuse is not modelled).
WEAR_TEAR = {
    "halves": [
        {"name": "Wear", "type": "Instant", "cost": "{1}{R}", "effect": "Destroy target artifact."},
        {"name": "Tear", "type": "Instant", "cost": "{W}", "effect": "Destroy target enchantment."},
    ]
}
RELIC = {"name": "Relic", "controller": "Ben", "type": "artifact"}
SEAL = {"name": "Seal", "controller": "Ben", "type": "enchantment"}


def cut_ribbons() -> dict:
    return dict(definition(CUT_RIBBONS).fields)


def test_the_library_gives_a_split_card_as_its_two_halves():
    fields = cut_ribbons()
    assert [h["name"] for h in fields["halves"]] == ["Cut", "Ribbons"]
    assert fields["halves"][1]["keywords"] == ["Aftermath"] and fields["halves"][1]["cost"] == "{X}{B}{B}"


@pytest.mark.parametrize("edition, rule", [(NEW, "709.3"), (OLD, "505.2")])
def test_a_split_card_is_cast_one_half_paying_that_halfs_cost(edition, rule):
    g = game(
        {
            "cards": {"Wear // Tear": WEAR_TEAR},
            "state": {
                "hand": {"Ana": ["Wear // Tear"]},
                "permanents": [{"name": "Plains", "controller": "Ana"}, RELIC, SEAL],
            },
        },
        edition,
    )
    with pytest.raises(IllegalAction):  # Wear costs {1}{R}: one Plains does not pay it
        g.apply("Ana casts Wear targeting Relic")
    steps = run(g, "Ana casts Tear targeting Seal")  # {W}: one Plains, not the whole card's {1}{R}{W}
    assert any(w.startswith("Ana casts Tear (a half of the split card Wear // Tear") for w in said(steps))
    assert rule in cited(steps)
    steps = run(g, "Ana passes", "Ben passes")
    assert "Tear is put into Ana's graveyard" in said(steps)
    assert g.s.find_permanent("Seal") is None and [c.name for c in g.s.graveyard["Ana"]] == ["Wear // Tear"]


def test_the_half_is_said_and_the_whole_card_is_not_cast():
    g = game(
        {
            "cards": {"Wear // Tear": WEAR_TEAR},
            "costs": "ignore",
            "state": {"hand": {"Ana": ["Wear // Tear"]}, "permanents": [RELIC, SEAL]},
        }
    )
    assert {"Ana casts Wear targeting Relic", "Ana casts Tear targeting Seal"} <= set(g.legal_actions())
    with pytest.raises(ScenarioError, match="split card: say the half cast"):
        g.apply("Ana casts Wear // Tear targeting Relic")
    with pytest.raises(IllegalAction):  # the half cast is the only one on the stack: Wear's target kind
        g.apply("Ana casts Wear targeting Seal")
    run(g, "Ana casts Wear targeting Relic", "Ana passes", "Ben passes")
    assert g.s.find_permanent("Relic") is None and g.s.find_permanent("Seal") is not None


def test_an_aftermath_half_is_cast_from_the_graveyard_for_its_own_cost_then_exiled():
    g = game(
        {
            "cards": {"Cut // Ribbons": cut_ribbons()},
            "state": {
                "graveyard": {"Ana": ["Cut // Ribbons"]},
                "permanents": [{"name": "Swamp", "controller": "Ana"} for _ in range(3)],
            },
        }
    )
    assert "Ana casts Ribbons with X=1" in g.legal_actions() and "Ana casts Cut" not in " ".join(g.legal_actions())
    with pytest.raises(IllegalAction):  # {X}{B}{B} with X=2 is four mana: three Swamps do not pay it
        g.apply("Ana casts Ribbons with X=2")
    steps = run(g, "Ana casts Ribbons with X=1", "Ana passes", "Ben passes")
    assert any("from Ana's graveyard: it has aftermath" in w for w in said(steps))
    assert (
        "Ribbons has aftermath and was cast from a graveyard: Cut // Ribbons is exiled instead of going anywhere else"
        in said(steps)
    )
    assert {"702.127a", "709.3"} <= cited(steps)
    assert (
        g.s.life["Ben"] == 19 and [c.name for c in g.s.exile["Ana"]] == ["Cut // Ribbons"] and not g.s.graveyard["Ana"]
    )


def test_each_half_is_cast_only_from_its_own_zone():
    hand = game(
        {"cards": {"Cut // Ribbons": cut_ribbons()}, "costs": "ignore", "state": {"hand": {"Ana": ["Cut // Ribbons"]}}}
    )
    assert not any("Ribbons" in a for a in hand.legal_actions())
    with pytest.raises(IllegalAction) as info:
        hand.apply("Ana casts Ribbons with X=1")
    assert "it has aftermath, so it can be cast only from a graveyard" in str(info.value)
    yard = game(
        {
            "cards": {"Cut // Ribbons": cut_ribbons()},
            "costs": "ignore",
            "state": {"graveyard": {"Ana": ["Cut // Ribbons"]}, "permanents": [bear("Bear", "Ben")]},
        }
    )
    with pytest.raises(IllegalAction) as info:
        yard.apply("Ana casts Cut targeting Bear")
    assert "only a half with aftermath is cast from a graveyard" in str(info.value)


def test_an_aftermath_half_countered_is_exiled_too():
    counterspell = {"type": "Instant", "cost": "{U}{U}", "effect": "Counter target spell."}
    g = game(
        {
            "cards": {"Cut // Ribbons": cut_ribbons(), "Counterspell": counterspell},
            "costs": "ignore",
            "state": {"graveyard": {"Ana": ["Cut // Ribbons"]}, "hand": {"Ben": ["Counterspell"]}},
        }
    )
    steps = run(g, "Ana casts Ribbons with X=1", "Ana passes", "Ben casts Counterspell targeting Ribbons")
    steps += run(g, "Ben passes", "Ana passes")
    assert any("Cut // Ribbons is exiled instead" in w for w in said(steps))
    assert "Counterspell counters Ribbons: it leaves the stack without resolving" in said(steps)  # not graveyard
    assert [c.name for c in g.s.exile["Ana"]] == ["Cut // Ribbons"] and g.s.life["Ben"] == 20


def test_aftermath_is_refused_under_rules_before_amonkhet():
    with pytest.raises(ScenarioError) as info:
        game({"cards": {"Cut // Ribbons": cut_ribbons()}, "state": {"hand": {"Ana": ["Cut // Ribbons"]}}}, OLD)
    assert "not in the 2008-10-01 Comprehensive Rules" in info.value.message


def test_a_split_card_of_other_than_two_instant_or_sorcery_halves_is_refused():
    one = {"halves": [WEAR_TEAR["halves"][0]]}
    with pytest.raises(ScenarioError, match="a split card has two halves"):
        game({"cards": {"Odd": one}, "state": {"hand": {"Ana": ["Odd"]}}})
    creature = {"halves": [WEAR_TEAR["halves"][0], {"name": "Wall", "type": "artifact"}]}
    with pytest.raises(ScenarioError, match="is a permanent is not modelled"):
        game({"cards": {"Odd": creature}, "state": {"hand": {"Ana": ["Odd"]}}})


# Far // Away (Dragon's Maze), Away's text simplified to a verb the engine reads.
FAR_AWAY = {
    "halves": [
        {
            "name": "Far",
            "type": "Instant",
            "cost": "{1}{U}",
            "keywords": ["Fuse"],
            "effect": "Return target creature to its owner's hand.",
        },
        {
            "name": "Away",
            "type": "Instant",
            "cost": "{2}{B}",
            "keywords": ["Fuse"],
            "effect": "Target player loses 2 life.",
        },
    ]
}


def test_a_card_with_fuse_is_cast_with_both_halves_for_both_costs_left_half_first():
    lands = [{"name": "Swamp", "controller": "Ana"}] * 3 + [{"name": "Island", "controller": "Ana"}] * 2
    g = game(
        {
            "cards": {"Far // Away": FAR_AWAY},
            "state": {"hand": {"Ana": ["Far // Away"]}, "permanents": [bear("Bear", "Ben"), *lands]},
        }
    )
    assert "Ana casts Far // Away fused targeting Bear, Ben" in g.legal_actions()
    steps = run(g, "Ana casts Far // Away fused targeting Bear, Ben", "Ana passes", "Ben passes")
    words = said(steps)
    assert any(w.startswith("Ana pays {3}{B}{U} for Far // Away") for w in words)  # {1}{U} and {2}{B}
    assert words.index("Far // Away returns Bear to Ben's hand") < words.index("Ben loses 2 life (20 -> 18)")
    assert {"702.102a", "702.102d"} <= cited(steps)
    assert [c.name for c in g.s.graveyard["Ana"]] == ["Far // Away"]


def test_fuse_is_refused_under_rules_before_dragons_maze():
    with pytest.raises(ScenarioError) as info:
        game({"cards": {"Far // Away": FAR_AWAY}, "state": {"hand": {"Ana": ["Far // Away"]}}}, OLD)
    assert "not in the 2008-10-01 Comprehensive Rules" in info.value.message


def test_playing_a_half_casts_it():
    mouth_feed = {
        "halves": [
            {
                "name": "Mouth",
                "type": "Sorcery",
                "cost": "{2}{G}",
                "effect": "Create a 3/3 green Hippo creature token.",
            },
            {"name": "Feed", "type": "Sorcery", "cost": "{3}{G}", "keywords": ["Aftermath"], "effect": "Draw a card."},
        ]
    }
    g = game({"cards": {"Mouth // Feed": mouth_feed}, "costs": "ignore", "state": {"hand": {"Ana": ["Mouth // Feed"]}}})
    steps = run(g, "Ana plays Mouth")
    assert any(w.startswith("Ana casts Mouth (a half of the split card Mouth // Feed") for w in said(steps))


def test_an_additional_cost_an_older_half_words_with_its_name_is_paid():
    start_finish = {
        "halves": [
            {"name": "Start", "type": "Instant", "cost": "{2}{W}", "effect": "Gain 1 life."},
            {
                "name": "Finish",
                "type": "Sorcery",
                "cost": "{2}{B}",
                "keywords": ["Aftermath"],
                "effect": "As an additional cost to cast Finish, sacrifice a creature.\nDestroy target creature.",
            },
        ]
    }
    g = game(
        {
            "cards": {"Start // Finish": start_finish},
            "costs": "ignore",
            "state": {
                "graveyard": {"Ana": ["Start // Finish"]},
                "permanents": [bear("Token", "Ana"), bear("Bear", "Ben")],
            },
        }
    )
    with pytest.raises(IllegalAction):  # the additional cost is said
        g.apply("Ana casts Finish targeting Bear")
    steps = run(g, "Ana casts Finish sacrificing Token targeting Bear", "Ana passes", "Ben passes")
    assert "Ana sacrifices Token to pay Finish's additional cost" in said(steps)
    assert g.s.find_permanent("Bear") is None and [c.name for c in g.s.exile["Ana"]] == ["Start // Finish"]
