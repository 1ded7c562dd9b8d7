"""Scenarios that name cards of the card library (issue 21, contract version 3): a card named in a hand or
on the board, or under ``cards:`` alone, is the library's card, every field the scenario writes winning; a
sentence of its text the engine cannot read is refused in one line naming the card and the sentence; a
name found nowhere is the usual error with the library's near names; the explanation says where each
card's text came from. The card files are loaded once a module: the invented ones always, the
corpora's when ``../shared/corpora`` is there."""

from __future__ import annotations

import dataclasses
import json
import re
import textwrap
from pathlib import Path

import pytest

from rulebook.cards.model import Card, Face
from rulebook.cards.scenario import Shelf, read_card, resolve
from tests.conftest import CORPORA, REPO, judge_in

INVENTED = REPO / "tests" / "data" / "cards" / "invented-scryfall.json"
CARDS = CORPORA / "cards"
INVENTED_SOURCE = "invented-scryfall.json (scryfall-cards; TST, released 2026-01-01)"


@pytest.fixture(scope="module")
def invented(tmp_path_factory) -> Path:
    """A home whose card library holds the two invented Magic cards (Practice Bolt, an instant: 2 damage to
    any target; Drill Sergeant Drake, a 2/3 flyer with vigilance and an enters trigger)."""
    home = tmp_path_factory.mktemp("invented-cards")
    code, _, err = judge_in(home, "load", INVENTED)
    assert code == 0, err
    return home


@pytest.fixture(scope="module")
def corpora(tmp_path_factory) -> Path:
    """A home with two MTGJSON v3 sets (M10: Lightning Bolt; 10E: Grizzly Bears), the Riftbound gallery and
    its errata."""
    files = [
        CARDS / "mtg" / "mtgjson-v3" / "M10.json",
        CARDS / "mtg" / "mtgjson-v3" / "10E.json",
        CARDS / "riftbound" / "cards.json",
        CORPORA / "riftbound" / "errata.json",
    ]
    missing = [f for f in files if not f.exists()]
    if missing:
        pytest.skip(f"corpus card files are absent ({missing[0]}): real documents live in ../shared/corpora")
    home = tmp_path_factory.mktemp("corpora-cards")
    code, _, err = judge_in(home, "load", *files)
    assert code == 0, err
    return home


def explain(home: Path, tmp_path: Path, scenario: str, *args: str) -> tuple[int, str, str]:
    path = tmp_path / "scen.yaml"
    path.write_text(scenario if scenario.startswith("game:") else textwrap.dedent(scenario), encoding="utf-8")
    return judge_in(home, "explain", path, "--check", *args)


MTG = "game: mtg\nplayers: [Ana, Ben]\nturn: {player: Ana, phase: main1}\n"


def test_a_card_named_in_a_hand_is_the_librarys(invented, tmp_path):
    code, out, err = explain(
        invented,
        tmp_path,
        MTG
        + textwrap.dedent("""\
    state:
      permanents:
        - {name: Mountain, controller: Ana}
      hand: {Ana: [Practice Bolt]}
    actions:
      - Ana casts Practice Bolt targeting Ben     # {R}: the Mountain pays the library's cost
      - Ana passes
      - Ben passes
    expect:
      - {after: 1, cites: ["409.1a"]}
      - {after: 3, life: {Ben: 18}, stack: []}
    """),
    )
    assert code == 0, err + out
    assert f"Cards from the library:\n   - Practice Bolt: text from {INVENTED_SOURCE}\n" in out
    assert "Ana pays {R} for Practice Bolt by tapping Mountain" in out
    assert "Practice Bolt deals 2 damage to Ben" in out


def test_a_list_of_names_and_what_json_says_of_each(invented, tmp_path):
    code, out, err = explain(
        invented,
        tmp_path,
        MTG
        + textwrap.dedent("""\
    costs: ignore
    state:
      hand: {Ana: [practice bolt]}
    cards: [Practice Bolt]
    actions:
      - Ana casts Practice Bolt targeting Ben
    """),
        "--json",
    )
    assert code == 0, err
    data = json.loads(out)
    assert data["library_cards"] == [
        {
            "name": "Practice Bolt",
            "card": "Practice Bolt",
            "game": "mtg",
            "named_at": "cards -> 1",
            "line": 7,
            "written": [],
            "assumed": [],
            "source": {
                "file": "invented-scryfall.json",
                "path": str(INVENTED.resolve()),
                "format": "scryfall-cards",
                "set": "TST",
                "date": "2026-01-01",
                "dated_by": "printing",
            },
        }
    ]
    assert data["steps"][0]["legal"] and data["steps"][0]["state"]["stack"] == ["practice bolt"]  # as the hand has it
    from tests.test_json_docs import keys, sections

    assert all(f'"{k}"' in sections()["explain"] for k in keys(data["library_cards"]))


def test_a_field_the_scenario_writes_wins_over_the_librarys(invented, tmp_path):
    code, out, err = explain(
        invented,
        tmp_path,
        MTG
        + textwrap.dedent("""\
    costs: ignore
    state:
      hand: {Ana: [Practice Bolt]}
    cards:
      Practice Bolt: {effect: "Practice Bolt deals 5 damage to any target."}
    actions:
      - Ana casts Practice Bolt targeting Ben
      - Ana passes
      - Ben passes
    expect:
      - {after: 3, life: {Ben: 15}}
    """),
    )
    assert code == 0, err + out
    assert f"Practice Bolt: text from {INVENTED_SOURCE}; effect as the scenario writes it" in out


def test_a_permanent_takes_the_fields_it_does_not_write(invented, tmp_path):
    """Power written (4), toughness, flying and vigilance from the card, its enters trigger written away."""
    code, out, err = explain(
        invented,
        tmp_path,
        """\
    game: mtg
    edition: "2026-02-27"
    players: [Ana, Ben]
    turn: {player: Ana, phase: beginning_of_combat}
    state:
      permanents:
        - {name: Drill Sergeant Drake, controller: Ana, power: 4, effect: ""}
        - {name: Hill Giant, controller: Ben, type: creature, power: 3, toughness: 3}
    actions:
      - Ana moves to declare_attackers
      - Ana attacks with Drill Sergeant Drake
      - Ana moves to declare_blockers
      - ask: Ben blocks Drill Sergeant Drake with Hill Giant     # no: flying
      - Ben declares no blockers
      - Ana moves to combat_damage
    expect:
      - {after: 4, answer: no, rule: "702.9b"}
      - {after: 6, life: {Ben: 16}}
    """,
        "--json",
    )
    assert code == 0, err + out
    data = json.loads(out)
    assert "Drill Sergeant Drake" not in data["steps"][1]["state"]["tapped"]  # vigilance
    assert data["library_cards"][0]["written"] == ["power", "effect"]
    assert data["library_cards"][0]["named_at"] == "state -> permanents -> 1 -> name"


def test_text_the_engine_cannot_read_is_refused_naming_the_card_and_the_sentence(invented, tmp_path):
    code, out, err = explain(
        invented,
        tmp_path,
        MTG
        + textwrap.dedent("""\
    state:
      hand: {Ana: [Practice Bolt, Drill Sergeant Drake]}
    """),
    )
    assert code == 2 and out == ""
    assert err.count("\n") == 1, err
    assert err.startswith(
        f"judge: {tmp_path / 'scen.yaml'}:5: state -> hand -> Ana -> 2: Drill Sergeant Drake (from "
        f'{INVENTED_SOURCE}): cannot read "When Drill Sergeant Drake enters, each player votes for a '
        'creature they control.": '
    )
    assert err.rstrip().endswith("to use it, write its effect: in the scenario")


def test_the_refusal_as_json(invented, tmp_path):
    code, out, _ = explain(
        invented,
        tmp_path,
        MTG
        + textwrap.dedent("""\
    cards: [Drill Sergeant Drake]
    """),
        "--json",
    )
    error = json.loads(out)["error"]
    assert code == 2 and error["status"] == 2 and error["line"] == 4
    assert "cards -> 1: Drill Sergeant Drake (from " in error["message"]
    assert '"When Drill Sergeant Drake enters, each player votes for a creature they control."' in error["message"]


@pytest.mark.parametrize(
    "state, cards, where, message",
    [
        (
            "{hand: {Ana: [Practise Bolt]}}",
            "{}",
            ":4: state -> hand -> Ana -> 1:",
            'no card named "Practise Bolt" under cards: or in the mtg card library (did you mean "Practice Bolt"?)',
        ),
        (
            "{}",
            "[Practice Bolt, Drill Sargent Drake]",
            ":5: cards -> 2:",
            'no card named "Drill Sargent Drake" under cards: or in the mtg card library (did you mean "Drill Sergeant Drake"?)',
        ),
        (
            "{permanents: [{name: Practice Bolt, controller: Ana}]}",
            "{}",
            ":4: state -> permanents -> 1 -> name:",
            "Practice Bolt is an Instant: not a permanent",
        ),
    ],
)
def test_a_name_found_nowhere_is_the_usual_error_with_the_librarys_names(
    invented, tmp_path, state, cards, where, message
):
    code, out, err = explain(invented, tmp_path, MTG + f"state: {state}\ncards: {cards}\n")
    assert code == 2, out
    assert err == f"judge: {tmp_path / 'scen.yaml'}{where} {message}\n"


def test_an_action_naming_a_library_card_nobody_has(invented, tmp_path):
    code, _, err = explain(
        invented,
        tmp_path,
        MTG
        + textwrap.dedent("""\
    actions:
      - Ana casts Practice Bolt targeting Ben
      - Ana casts Practise Blot targeting Ben
    """),
    )
    assert code == 2
    assert err.rstrip().endswith(
        '("Practice Bolt" is a card of the mtg card library: name it in a hand, a deck or on the board to use it)'
    )
    path = tmp_path / "scen.yaml"
    path.write_text(textwrap.dedent(MTG + "actions:\n  - Ana casts Practise Blot targeting Ben\n"), encoding="utf-8")
    code, _, err = judge_in(invented, "explain", path)
    assert code == 2 and err.rstrip().endswith('(in the mtg card library: did you mean "Practice Bolt"?)')


def test_copies_and_a_definition_that_writes_type(invented, tmp_path):
    """``Name#2`` is another copy of the library's card; an entry that writes ``type`` is the scenario's own
    (contract version 2), whatever is loaded."""
    code, out, err = explain(
        invented,
        tmp_path,
        MTG
        + textwrap.dedent("""\
    costs: ignore
    state:
      hand: {Ana: [Practice Bolt, Practice Bolt#2], Ben: [Shock]}
    cards:
      Shock: {type: instant, effect: "Shock deals 1 damage to any target."}
    actions:
      - Ana casts Practice Bolt targeting Ben
      - Ana passes
      - Ben passes
      - Ana casts Practice Bolt#2 targeting Ben
      - Ana passes
      - Ben casts Shock targeting Ana
      - Ben passes
      - Ana passes
      - Ana passes
      - Ben passes
    expect:
      - {end: true, life: {Ana: 19, Ben: 16}}
    """),
    )
    assert code == 0, err + out
    assert "Cards from the library:\n   - Practice Bolt: text from" in out and "Shock: text" not in out


def test_markdown_names_the_cards_too(invented, tmp_path):
    code, out, err = explain(
        invented, tmp_path, MTG + "costs: ignore\ncards: [Practice Bolt]\n", "--format", "markdown"
    )
    assert code == 0, err
    assert f"**Cards from the library**\n- Practice Bolt: text from {INVENTED_SOURCE}\n" in out


def test_without_cards_loaded(tmp_path):
    """A version-3 name needs card files; a version-2 file needs none and reads as it always did."""
    home = tmp_path / "home"
    code, _, err = explain(home, tmp_path, MTG + "cards: [Practice Bolt]\n")
    assert code == 2
    assert err.rstrip().endswith(
        ':4: cards -> 1: no mtg cards are loaded to take "Practice Bolt" from (judge load '
        "reads card files); or define it under cards: with type:"
    )
    code, out, err = judge_in(
        home, "explain", REPO / "data" / "scenarios" / "riftbound" / "spec-example.yaml", "--check", "--json"
    )
    assert code == 0, err
    assert "library_cards" not in json.loads(out)
    assert not (home / "cards.db").exists()


# -- the corpora's cards --------------------------------------------------------------------------------------
def library_examples() -> list[str]:
    text = (REPO / "docs" / "scenarios.md").read_text(encoding="utf-8")
    section = text.split("## Cards from the library (contract version 3)", 1)[1].split("\n## ", 1)[0]
    return re.findall(r"```yaml\n(.*?)```", section, re.S)


@pytest.mark.parametrize("n", range(2))
def test_the_documented_examples_pass(corpora, tmp_path, n):
    code, out, err = explain(corpora, tmp_path, library_examples()[n])
    assert code == 0, err + out
    assert "FAIL" not in out


def test_lightning_bolt_kills_grizzly_bears(corpora, tmp_path):
    code, out, err = explain(
        corpora,
        tmp_path,
        library_examples()[0].replace(
            "{after: 3, zone: {Grizzly Bears: graveyard}}",
            '{after: 3, zone: {Grizzly Bears: graveyard}, cites: ["420.5c"]}',
        ),
    )
    assert code == 0, err + out
    assert (
        "   - Grizzly Bears: text from 10E.json (mtgjson-v3; 10E, released 2007-07-13)\n"
        "   - Lightning Bolt: text from M10.json (mtgjson-v3; M10, released 2009-07-17)\n"
    ) in out
    assert "Lightning Bolt deals 3 damage to Grizzly Bears" in out


def test_grizzly_bears_with_the_power_the_scenario_gives(corpora, tmp_path):
    code, out, err = explain(
        corpora,
        tmp_path,
        """\
    game: mtg
    edition: "2026-02-27"
    players: [Ana, Ben]
    turn: {player: Ana, phase: beginning_of_combat}
    state:
      permanents:
        - {name: Grizzly Bears, controller: Ana}
    cards:
      Grizzly Bears: {power: 3}
    actions:
      - Ana moves to declare_attackers
      - Ana attacks with Grizzly Bears
      - Ana moves to combat_damage
    expect:
      - {after: 3, life: {Ben: 17}}
    """,
    )
    assert code == 0, err + out
    assert (
        "Grizzly Bears: text from 10E.json (mtgjson-v3; 10E, released 2007-07-13); power as the scenario writes it"
        in out
    )


def test_a_riftbound_unit_whose_text_the_engine_cannot_read(corpora, tmp_path):
    code, _, err = explain(
        corpora,
        tmp_path,
        """\
    game: riftbound
    players: [Ana, Ben]
    turn: {player: Ana, phase: main}
    state:
      units:
        - {name: "heimerdinger inventor", controller: Ana, at: base}
    """,
    )
    assert code == 2 and err.count("\n") == 1
    assert (
        ':6: state -> units -> 1: Heimerdinger, Inventor (from cards.json (riftbound-gallery; OGN)): cannot read "I '
        'have all [E] abilities of all friendly legends, units, and gear.": unknown effect'
    ) in err


def test_a_riftbound_card_whose_text_an_erratum_gave(corpora, tmp_path):
    """Falling Star's text is its erratum's ("Deal 3 to a unit." twice): the explanation names the errata file."""
    code, out, err = explain(
        corpora,
        tmp_path,
        """\
    game: riftbound
    players: [Ana, Ben]
    turn: {player: Ana, phase: main}
    state:
      units:
        - {name: Yeti, controller: Ben, at: base, might: 3}
        - {name: Poro, controller: Ben, at: base, might: 4}
      hand: {Ana: [Falling Star]}
    actions:
      - Ana plays Falling Star targeting Yeti, Poro
      - Ana passes
      - Ben passes
    expect:
      - {after: 3, zone: {Yeti: trash, Poro: base}}
    """,
        "--json",
    )
    assert code == 0, err + out
    (card,) = json.loads(out)["library_cards"]
    assert card["source"]["file"] == "errata.json" and card["source"]["dated_by"] == "erratum"
    assert re.fullmatch(r"\d{4}-\d{2}-\d{2}", card["source"]["date"])


def test_a_battlefield_named_from_the_library_takes_its_text(corpora, tmp_path):
    """A battlefield under state: battlefields named after a library Battlefield card reads its text (Grove of the
    God-Willow: "When you hold here, draw 1."); the same card in a hand is refused, saying where it goes."""
    code, out, err = explain(
        corpora,
        tmp_path,
        """\
    game: riftbound
    players: [Ana, Ben]
    turn: {player: Ana, phase: main}
    state:
      battlefields:
        - {name: Grove of the God-Willow, controller: Ana}
      units:
        - {name: Yeti, controller: Ana, at: Grove of the God-Willow, might: 3}
      deck: {Ana: 5, Ben: 5}
    actions:
      - Ana ends turn
      - Ben ends turn       # Ana's turn begins: she holds the Grove, scores 1, and its hold ability triggers
    expect:
      - {after: 2, turn_player: Ana, points: {Ana: 1}}
    """,
        "--json",
    )
    assert code == 0, err or out
    taken = json.loads(out)["library_cards"]
    assert [(c["card"], c["named_at"]) for c in taken] == [
        ("Grove of the God-Willow", "state -> battlefields -> 1 -> name")
    ]
    events = [e["what"] for e in json.loads(out)["steps"][1]["events"]]
    assert (
        "Grove of the God-Willow's hold ability triggers: it goes onto the Chain as a Pending Item, controlled by Ana"
        in (" ".join(events))
    ), events
    code, _, err = explain(
        corpora,
        tmp_path,
        "game: riftbound\nplayers: [Ana, Ben]\nturn: {player: Ana, phase: main}\n"
        'state:\n  hand: {Ana: ["Grove of the God-Willow"]}\n',
    )
    assert code == 2 and err.count("\n") == 1
    assert "Grove of the God-Willow is a Battlefield: not a card a scenario plays or holds" in err


def test_a_rune_card_named_where_runes_are_listed_is_a_rune_of_its_domain(corpora, tmp_path):
    """``runes: {Ana: {ready: [Fury Rune]}}``: a library Rune card stands for a rune of its domain (recycled, it
    adds [Fury]); the same card in a hand is refused, saying where it goes."""
    code, out, err = explain(
        corpora,
        tmp_path,
        """\
    game: riftbound
    players: [Ana, Ben]
    turn: {player: Ana, phase: main}
    state:
      runes: {Ana: {ready: [Fury Rune, Calm]}}
      rune_deck: {Ana: 4}
    actions:
      - Ana recycles a ready Fury rune
    expect:
      - {after: 1, runes: {Ana: {ready: 1, pool: "[Fury]", deck: 5}}}
    """,
        "--json",
    )
    assert code == 0, err or out
    taken = json.loads(out)["library_cards"]
    assert [(c["card"], c["named_at"]) for c in taken] == [("Fury Rune", "state -> runes -> Ana -> ready -> 1")]
    code, _, err = explain(
        corpora,
        tmp_path,
        'game: riftbound\nplayers: [Ana, Ben]\nturn: {player: Ana, phase: main}\nstate:\n  hand: {Ana: ["Body Rune"]}\n',
    )
    assert code == 2 and err.count("\n") == 1
    assert "Body Rune is a Rune: not a card a scenario plays or holds" in err


def test_judge_card_engine_says_whether_the_engine_reads_the_card(corpora):
    """``judge card NAME --engine``: a card the engine reads whole (Lightning Bolt, under the newest Magic
    rules), and one it refuses, with the words (Heimerdinger, Inventor's borrowed abilities); without the option the key
    is null."""
    code, out, err = judge_in(corpora, "card", "Lightning Bolt", "--engine", "--json")
    assert code == 0, err
    assert json.loads(out)["engine"] == {"reads": True, "refused": None, "edition": "2026-02-27", "assumed": []}
    code, out, _ = judge_in(corpora, "card", "Lightning Bolt", "--json")
    assert json.loads(out)["engine"] is None
    code, out, err = judge_in(corpora, "card", "Heimerdinger, Inventor", "--engine")
    assert code == 0, err
    line = next(x for x in out.splitlines() if x.startswith("Engine:"))
    assert line.startswith(
        'Engine: does not read it: Heimerdinger, Inventor (from cards.json (riftbound-gallery; OGN)): cannot read "'
    )
    code, out, _ = judge_in(corpora, "card", "Lightning Bolt", "--engine")
    assert "Engine: reads it whole under the 2026-02-27 rules: a scenario naming it takes its text" in out


def test_a_two_domain_cost_is_said_to_be_assumed(corpora, tmp_path):
    """The gallery gives a card of two domains its domains, not the domain of each power of its cost: a power of
    either is accepted, and the explanation and ``judge card --engine`` say so where the card is named; a
    scenario writing ``cost:`` assumes nothing."""
    said = (
        "the card data gives Decisive Strike the domains Body and Order, not the domain of each power of its cost: "
        "a power of either is accepted for each (write cost: in the scenario for the printed one)"
    )
    scenario = (
        "game: riftbound\nplayers: [Ana, Ben]\nturn: {player: Ana, phase: main}\nstate:\n"
        "  hand: {Ana: [Decisive Strike]}\n  units:\n    - {name: Yeti, controller: Ana, at: base, might: 3}\n"
        "  runes: {Ana: {ready: [Body, Body, Body, Body, Body, Order]}}\nactions:\n  - Ana plays Decisive Strike\n"
    )
    code, out, err = explain(corpora, tmp_path, scenario)
    assert code == 0, err
    assert f"Decisive Strike: text from cards.json (riftbound-gallery; OGS); {said}" in out
    code, out, err = explain(corpora, tmp_path, scenario, "--json")
    assert json.loads(out)["library_cards"][0]["assumed"] == [said]
    written = scenario.replace("state:\n", "cards: {Decisive Strike: {cost: '[5][Order]'}}\nstate:\n")
    code, out, err = explain(corpora, tmp_path, written, "--json")
    assert code == 0, err
    assert json.loads(out)["library_cards"][0]["assumed"] == []
    code, out, err = judge_in(corpora, "card", "Decisive Strike", "--engine", "--json")
    assert json.loads(out)["engine"]["assumed"] == [said]


def test_a_library_reads_each_card_once_however_many_scenarios_name_it():
    """The scenarios explained with one library (a bench, the server, a session of the Python API) share each
    card's reading: the second scenario naming Lightning Bolt takes the reading the first made; a card loaded
    again with other text is read again."""
    text = "Lightning Bolt deals 3 damage to any target."
    bolt = Card("mtg", "Lightning Bolt", (Face("Lightning Bolt", "{R}", "Instant", text),), "Instant", ("Instant",),
                (), (), "{R}", (), text, ("M10",), "normal", (), {"colors": ["R"]})  # fmt: skip
    library = Shelf({("mtg", "lightning bolt"): bolt})
    for hand in (["Lightning Bolt"], ["Lightning Bolt", "Lightning Bolt"]):
        resolve({"game": "mtg", "state": {"hand": {"Ana": hand}}}, library)
    assert len(library.readings) == 1
    assert read_card(library, bolt) is read_card(library, bolt)
    errata = dataclasses.replace(bolt, text="Lightning Bolt deals 2 damage to any target.")
    assert read_card(library, errata) is not read_card(library, bolt) and len(library.readings) == 2
