"""Bad input never gives a traceback: random bytes into the readers, and scenario files with values
of the wrong type or shape, end in a Document or a one-line error (exit 2), nothing else."""

import copy
import random
from pathlib import Path

import pytest
import yaml
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rulebook.model import ReadError
from rulebook.readers import read_file

REPO = Path(__file__).resolve().parents[1]
SCENARIOS = sorted((REPO / "data" / "scenarios").glob("*/*.yaml"))

lines = st.lists(
    st.one_of(
        st.from_regex(r"\d{1,3}(\.\d{1,3}){0,3}\.?[a-z]?\.? [A-Za-z ,.]{0,30}", fullmatch=True),
        st.from_regex(r"(Q: |### Q: |## |Example: |- )[A-Za-z ?]{0,30}", fullmatch=True),
        st.text(max_size=40),
    ),
    max_size=30,
)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(
    body=lines,
    encoding=st.sampled_from(["utf-8", "utf-8-sig", "utf-16", "cp1252"]),
    newline=st.sampled_from(["\n", "\r\n", "\r", "\r\r\n"]),
)
def test_readers_never_raise_anything_but_read_error(tmp_path, body, encoding, newline):
    path = tmp_path / "doc.txt"
    path.write_bytes(newline.join(body).encode(encoding, errors="replace"))
    try:
        doc = read_file(path)
    except ReadError as exc:
        assert "doc.txt" in str(exc) and "\n" not in str(exc)
        return
    assert doc.rules or doc.terms or doc.rulings


@settings(max_examples=60, deadline=None)
@given(st.binary(max_size=400))
def test_random_bytes(tmp_path_factory, raw):
    path = tmp_path_factory.mktemp("b") / "blob.bin"
    path.write_bytes(raw)
    try:
        read_file(path)
    except ReadError:
        pass


TRIALS = 8  # per scenario (217 of them): the whole file about 25 s; bench/ is the place for longer fuzz runs
ODD_VALUES = [None, 0, -3, 3.5, "", "three", [], {}, ["x"], {"a": 1}, True, "Nobody", 10**9]
# The forms of Riftbound's contract version 2 (costs, keywords with values, card text, runes, pools, editions,
# teams), put where they do not belong as well as where they do (issue 14).
RIFTBOUND_FORMS = [
    "[2][R]",
    "[E]",
    "[1], [E]",
    "Assault 2",
    "Equip [1][C]",
    "Repeat [2]",
    "Mighty",
    "Deflect 99",
    "When I attack, deal 1 to a unit.",
    "Then do this: draw 1.",
    "Buff up to two other friendly units.",
    "Play a 1 might Recruit unit token here.",
    "If a friendly unit would die, kill this instead.",
    "[E]: [Reaction] - Add [R].",
    {"ready": 2, "exhausted": ["Fury"]},
    {"energy": 2, "power": ["Fury"]},
    "2026-01-14",
    [["Ana"], ["Ben"]],
    "Ana paying Accelerate",
    "Ana chooses nothing",
    "Kill any number of units at a battlefield with total Might 4 or less.",
    "Ana paying Deflect",
    "Reveal the top 5 cards of your Main Deck. Then recycle them.",
    "Whenever Ana dies, draw 1.",
    "When I attack, you may play a card with [Hidden] from your hand. If it's a unit, play it here.",
]


def _paths(value, prefix=()):
    if isinstance(value, dict):
        for k, v in value.items():
            yield prefix + (k,)
            yield from _paths(v, prefix + (k,))
    elif isinstance(value, list):
        for i, v in enumerate(value):
            yield prefix + (i,)
            yield from _paths(v, prefix + (i,))


def _set(data, path, value):
    target = data
    for key in path[:-1]:
        target = target[key]
    target[path[-1]] = value


@pytest.mark.parametrize("scenario", SCENARIOS, ids=lambda p: f"{p.parent.name}/{p.stem}")
def test_scenarios_with_wrong_values_fail_in_one_line(home, judge, tmp_path, scenario):
    data = yaml.safe_load(scenario.read_text(encoding="utf-8"))
    rng = random.Random(scenario.name)
    paths = [p for p in _paths(data) if p[0] not in ("title", "expect", "description", "notes")]
    odd = ODD_VALUES + RIFTBOUND_FORMS if scenario.parent.name == "riftbound" else ODD_VALUES
    for trial in range(TRIALS):
        mutated = copy.deepcopy(data)
        _set(mutated, rng.choice(paths), rng.choice(odd))
        target = tmp_path / f"m{trial}.yaml"
        target.write_text(yaml.safe_dump(mutated, allow_unicode=True, sort_keys=False), encoding="utf-8")
        code, out, err = judge("explain", target)
        assert code in (0, 1, 2), err
        assert "Traceback" not in err
        if code == 2:
            errors = [line for line in err.splitlines() if not line.startswith("judge: note:")]
            assert len(errors) == 1 and errors[0].startswith(f"judge: {target}"), err


def _explain_one_line(judge, target):
    code, out, err = judge("explain", target)
    assert code == 2 and "Traceback" not in err, err
    errors = [line for line in err.splitlines() if not line.startswith("judge: note:")]
    assert len(errors) == 1 and errors[0].startswith(f"judge: {target}"), err
    return errors[0]


@pytest.mark.parametrize("item", [{"ask": {}}, {"ask": None}, {"ask": True}, {"Ana passes": []}])
def test_an_action_written_as_a_mapping_must_hold_a_sentence(home, judge, tmp_path, item):
    """``- ask: {}`` crashed the loader's sentence joiner (ValueError: not enough values to unpack)."""
    target = tmp_path / "a.yaml"
    target.write_text(
        yaml.safe_dump({"game": "riftbound", "players": ["Ana", "Ben"], "actions": ["Ana passes", item]}),
        encoding="utf-8",
    )
    assert "actions -> 2: expected a sentence or {ask: sentence}" in _explain_one_line(judge, target)


@pytest.mark.parametrize("book", [3.5, [], {"a": 1}, True, "two words"])
def test_a_book_that_cannot_be_an_id_is_an_error_in_the_file(home, judge, tmp_path, book):
    """``book: 3.5`` reached rapidfuzz (TypeError: object of type 'float' has no len())."""
    target = tmp_path / "b.yaml"
    target.write_text(yaml.safe_dump({"game": "mtg", "book": book, "players": ["Ana", "Ben"]}), encoding="utf-8")
    assert "book: expected the id of a loaded book" in _explain_one_line(judge, target)


def test_an_unknown_book_names_the_file(home, judge, tmp_path):
    target = tmp_path / "c.yaml"
    target.write_text(yaml.safe_dump({"game": "mtg", "book": "Nobody", "players": ["Ana", "Ben"]}), encoding="utf-8")
    _explain_one_line(judge, target)


# -- Magic: the forms of contract version 2 (issue 14), odd values and odd sentences -------------------------
MTG_KEYWORDS = [
    "Flying",
    "Deathtouch",
    "Lifelink",
    "Menace",
    "Hexproof",
    "Indestructible",
    "Ward {2}",
    "Protection from red",
    "Persist",
    "Undying",
    "Trample",
    "First strike",
    "Reach",
    "Vigilance",
    # refused:
    "Ward",
    "Ward {x}",
    "Protection from",
    "Protection from red and from",
    "Protection from dragons",
    "Equip {1}",
    "Enchant creature",
    "Enchant player",
    "Banding",
    "flying, reach",
    "",
    3,
    None,
    ["Flying"],
    {"a": 1},
]
MTG_EFFECTS = [
    "deal 2 damage to any target",
    "deal X damage to any target",
    "Choose one — • draw a card • gain 2 life",
    "Choose one — • Zap deals 2 damage to target creature • draw a card",
    "create two 1/1 white Soldier creature tokens",
    "put three -1/-1 counters on target creature",
    "put two +1/+1 counters on target creature",
    "counter target spell unless its controller pays {X}",
    "counter target spell unless its controller pays {3}",
    "prevent the next 3 damage that would be dealt to any target this turn",
    "prevent all combat damage that would be dealt this turn",
    "target creature gains protection from red until end of turn",
    "target player gets two poison counters",
    "exile target creature",
    "destroy target creature",
    "target creature gets -2/-2 until end of turn",
    # refused, each naming what it cannot read:
    "Choose one — • draw a card",
    "Choose two — • draw a card • gain 2 life",
    "create a 1/1 white creature token",
    "create two 1/1 Soldier creature tokens with banding",
    "put -5/-5 counters on target creature",
    "counter target spell unless its controller pays {99999}",
    "target player gets 11 poison counters",
    "When ~ enters, draw a card",
    "copy target spell",
    "",
    7,
    None,
    ["draw 1"],
]
MTG_TEXTS = [
    "",
    "Flying",
    "When ~ enters, draw a card",
    "Whenever ~ attacks, it gets +1/+0 until end of turn",
    "If ~ would die, exile it instead",
    "If a creature would die, return it to its owner's hand instead",
    "~ enters with two +1/+1 counters on it",
    "~ enters tapped",
    "Prevent all damage that would be dealt to ~",
    "At the beginning of your upkeep, you lose 1 life",
    "Creatures you control get +1/+1",
    # refused:
    "When ~ enters, deal 2 damage to any target",
    "Equipped creature has banding",
    "~ enters with X +1/+1 counters on it",
    "deal 2 damage to any target",
    "Enchanted creature gets +X/+0",
    5,
    None,
]
MTG_SENTENCES = [
    "Ana assigns damage: Bear 99999",
    "Ana assigns damage: Ben 1, Ben 1",
    "Ana assigns damage:",
    "Ana assigns damage: Nobody 2",
    "Ana assigns damage from Nobody: Ben 2",
    "Ana casts Zap with X=-1 targeting Ben",
    "Ana casts Zap with X=abc",
    "Ana casts Zap with X=3",
    'Ana casts Zap choosing "nothing"',
    'Ana casts Zap choosing "" targeting Ben',
    'Ana chooses ""',
    "Ana chooses 7",
    "Ana chooses draw a card targeting Ben, Ben",
    "Ana orders triggers:",
    "Ana orders triggers: Nobody",
    "Ben pays {x}",
    "Ben pays",
    "Ben does not pay",
    "Ana activates Bear targeting Bear",
    "Ana casts Zap targeting Bear",
    "Ana passes",
    "Ben passes",
    "Ana moves to combat_damage",
    "Ana moves to cleanup",
    "Ana attacks with Bear",
    "Ben blocks Bear with Wall",
    "Ana casts Zap",
]


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(
    keywords=st.lists(st.sampled_from(MTG_KEYWORDS), max_size=2),
    effect=st.sampled_from(MTG_EFFECTS),
    perm_effect=st.sampled_from(MTG_TEXTS),
    counters=st.sampled_from(
        [None, {"+1/+1": 1, "-1/-1": 2}, {"loyalty": 0}, {"": 1}, {"+1/+1": -1}, {"x" * 40: 1}, [1], "two"]
    ),
    attached=st.sampled_from([None, "Bear", "Wall", "Nobody", 3, ["Bear"]]),
    token=st.sampled_from([None, True, "yes", 2]),
    colour=st.sampled_from([None, "red", "white and blue", "purple", "", 3]),
    edition=st.sampled_from(["2026-02-27", "2008-10-01"]),
    sentences=st.lists(st.sampled_from(MTG_SENTENCES), min_size=1, max_size=8),
)
def test_magic_scenarios_with_the_new_forms_never_end_in_a_traceback(
    home, judge, tmp_path, keywords, effect, perm_effect, counters, attached, token, colour, edition, sentences
):
    """Keywords with amounts, effects in the words of cards, counters, tokens, attachments, colours, modes, X,
    damage assignments, trigger orders and payments, in odd values and odd sentences: judge explain ends in
    a walk-through (0 or 1) or one line naming the file (2), never a traceback (issue 14)."""
    bear = {
        "name": "Bear",
        "controller": "Ana",
        "type": "creature",
        "power": 2,
        "toughness": 2,
        "keywords": keywords,
        "effect": perm_effect,
        "counters": counters,
        "token": token,
        "color": colour,
    }
    wall = {
        "name": "Wall",
        "controller": "Ben",
        "type": "artifact creature",
        "power": 0,
        "toughness": 4,
        "attached_to": attached,
    }
    data = {
        "game": "mtg",
        "edition": edition,
        "players": ["Ana", "Ben"],
        "turn": {"player": "Ana", "phase": "declare_attackers"},
        "costs": "ignore",
        "state": {"permanents": [bear, wall], "hand": {"Ana": ["Zap"]}, "library": {"Ana": 5, "Ben": 5}},
        "cards": {"Zap": {"type": "instant", "effect": effect}},
        "actions": sentences,
    }
    target = tmp_path / "new-forms.yaml"
    target.write_text(yaml.safe_dump(data, allow_unicode=True, sort_keys=False), encoding="utf-8")
    code, out, err = judge("explain", target)
    assert code in (0, 1, 2) and "Traceback" not in err, err
    if code == 2:
        errors = [line for line in err.splitlines() if not line.startswith("judge: note:")]
        assert len(errors) == 1 and errors[0].startswith(f"judge: {target}"), err
