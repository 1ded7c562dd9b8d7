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

lines = st.lists(st.one_of(
    st.from_regex(r"\d{1,3}(\.\d{1,3}){0,3}\.?[a-z]?\.? [A-Za-z ,.]{0,30}", fullmatch=True),
    st.from_regex(r"(Q: |### Q: |## |Example: |- )[A-Za-z ?]{0,30}", fullmatch=True),
    st.text(max_size=40),
), max_size=30)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(body=lines, encoding=st.sampled_from(["utf-8", "utf-8-sig", "utf-16", "cp1252"]),
       newline=st.sampled_from(["\n", "\r\n", "\r", "\r\r\n"]))
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


TRIALS = 20  # per scenario: about 0.5 s each, the whole file well under 40 s
ODD_VALUES = [None, 0, -3, 3.5, "", "three", [], {}, ["x"], {"a": 1}, True, "Nobody", 10**9]


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
    for trial in range(TRIALS):
        mutated = copy.deepcopy(data)
        _set(mutated, rng.choice(paths), rng.choice(ODD_VALUES))
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
    target.write_text(yaml.safe_dump({"game": "riftbound", "players": ["Ana", "Ben"], "actions": ["Ana passes", item]}),
                      encoding="utf-8")
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
