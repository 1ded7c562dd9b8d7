"""Mutated real-shaped files into every reader (issue 25): rule texts, FAQs, Word and PDF files, card files and
scenario files end in a result or the reader's one-line error naming the file, never another exception.

The inputs are the seeds, the invented cards of tests/data/cards and the shipped scenarios, each mutated the
ways damaged files are (lines lost, doubled, swapped, wrapped and joined; bytes flipped; a file cut short;
junk numbers; odd characters; values of the wrong type; deep nesting). Hypothesis runs few, derandomized
examples so the file takes seconds; the long run over the publishers' files is ``bench/fuzz_readers.py``
(docs/benchmarks.md). The tests at the end keep the faults that run found.
"""

from __future__ import annotations

import copy
import io
import json
import random
import zipfile
from pathlib import Path
from typing import Any

import pytest
from conftest import REPO, judge_in, pdf_of
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rulebook.cards.load import load as load_cards
from rulebook.cards.store import CardStore, card_db_path
from rulebook.model import ReadError
from rulebook.readers import read_file

SEEDS = REPO / "seeds"
RULE_SEEDS = {p.name: p.read_text(encoding="utf-8").splitlines() for p in sorted(SEEDS.glob("*.txt"))}
# The shipped scenarios on their game's current rules (one citation table each to load: the test stays fast;
# the bench takes every scenario, every edition).
SCENARIOS = [
    p
    for p in sorted((REPO / "data" / "scenarios").glob("*/*.yaml"))
    if "\nedition:" not in "\n" + p.read_text(encoding="utf-8")
]
FUZZ = settings(
    max_examples=40, deadline=None, derandomize=True, suppress_health_check=[HealthCheck.function_scoped_fixture]
)

JUNK = [
    "702. 37a Storm",
    "Refl391. Deflect",
    "999.999.999z",
    "100." + "9" * 5000 + " A sub-number of thousands of digits.",
    "... and " + "9" * 5000 + " more rules",
    "9" * 5000 + " subsections",
    "### Q:",
    "A:",
    "Example:",
    "Glossary",
    "#### [NEW TEXT]",
    "\u2028\x85\x0c\u200b\ufeff\x00",
    "\uff11\uff10\uff10\uff0e\uff11 Fullwidth.",
    "x" * 20_000,
]


def mutate_lines(lines: list[str], rnd: random.Random, times: int) -> list[str]:
    lines = list(lines) or [""]
    for _ in range(times):
        i, j = rnd.randrange(len(lines)), rnd.randrange(len(lines))
        op = rnd.randrange(7)
        if op == 0:
            del lines[i : i + rnd.randint(1, 4)]
        elif op == 1:
            lines[i:i] = lines[i : i + rnd.randint(1, 4)]
        elif op == 2:
            lines[i], lines[j] = lines[j], lines[i]
        elif op == 3:
            lines.insert(i, rnd.choice(JUNK))
        elif op == 4:  # wrapped in two
            cut = rnd.randrange(len(lines[i]) + 1)
            lines[i : i + 1] = [lines[i][:cut], lines[i][cut:]]
        elif op == 5 and i + 1 < len(lines):  # joined
            lines[i : i + 2] = [lines[i] + " " + lines[i + 1]]
        else:  # odd characters
            cut = rnd.randrange(len(lines[i]) + 1)
            lines[i] = lines[i][:cut] + rnd.choice(JUNK[-3:-1]) + lines[i][cut:]
        lines = lines or [""]
    return lines


def mutate_bytes(raw: bytes, rnd: random.Random, times: int) -> bytes:
    data = bytearray(raw)
    for _ in range(times):
        pos = rnd.randrange(len(data) + 1)
        op = rnd.randrange(4)
        if op == 0 and data:
            data[rnd.randrange(len(data))] ^= 1 << rnd.randrange(8)
        elif op == 1:
            data[pos:pos] = rnd.randbytes(rnd.randint(1, 8))
        elif op == 2:
            del data[pos : pos + rnd.randint(1, 64)]
        else:
            del data[pos:]  # cut short
    return bytes(data)


def read_or_one_line(path: Path, read) -> Any:
    """``read(path)``, or None for the one-line error naming the file; anything else fails the test."""
    try:
        return read(path)
    except ReadError as exc:
        assert "\n" not in str(exc) and str(path) in str(exc), str(exc)
        return None


@pytest.fixture(scope="module")
def work(tmp_path_factory) -> Path:
    return tmp_path_factory.mktemp("fuzz")


# -- rule texts and FAQs ------------------------------------------------------------------------------------
@FUZZ
@given(
    name=st.sampled_from(sorted(RULE_SEEDS)),
    rnd=st.randoms(use_true_random=False),
    times=st.integers(1, 8),
    encoding=st.sampled_from(["utf-8", "utf-8-sig", "utf-16", "cp1252"]),
    newline=st.sampled_from(["\n", "\r\n", "\r", "\r\r\n"]),
    flips=st.integers(0, 3),
)
def test_mutated_rule_texts_read_or_fail_in_one_line(work, name, rnd, times, encoding, newline, flips):
    lines = mutate_lines(RULE_SEEDS[name], rnd, times)
    raw = mutate_bytes(newline.join(lines).encode(encoding, errors="replace"), rnd, flips)
    path = work / name
    path.write_bytes(raw)
    doc = read_or_one_line(path, read_file)
    assert doc is None or doc.rules or doc.terms or doc.rulings


# -- Word and PDF -------------------------------------------------------------------------------------------
def _docx(lines: list[str]) -> bytes:
    docx = pytest.importorskip("docx")
    document = docx.Document()
    for line in lines:
        document.add_paragraph(line)
    buffer = io.BytesIO()
    document.save(buffer)
    return buffer.getvalue()


def _pdf(lines: list[str]) -> bytes:
    """A one-page PDF of ``lines`` in Helvetica, its content stream uncompressed (so mutations reach its text)."""

    def escaped(text: str) -> str:
        return text.replace("\\", "\\\\").replace("(", "\\(").replace(")", "\\)")

    stream = ("BT /F1 10 Tf 12 TL 72 740 Td " + " ".join(f"({escaped(x)}) '" for x in lines) + " ET").encode(
        "latin-1", "replace"
    )
    objects = [
        b"<< /Type /Catalog /Pages 2 0 R >>",
        b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
        b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R "
        b"/Resources << /Font << /F1 5 0 R >> >> >>",
        b"<< /Length %d >>\nstream\n" % len(stream) + stream + b"\nendstream",
        b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>",
    ]
    return pdf_of(objects)


EXCERPT = RULE_SEEDS["mtg-turn-structure-excerpt.txt"][:60]


@pytest.fixture(scope="module")
def documents() -> dict[str, bytes]:
    pytest.importorskip("pypdf")
    return {".docx": _docx(EXCERPT), ".pdf": _pdf(EXCERPT)}


def test_the_made_documents_read_as_their_text(work, documents):
    for suffix, raw in documents.items():
        path = work / f"made{suffix}"
        path.write_bytes(raw)
        assert len(read_file(path).rules) > 10, suffix


_RUN_TEXT = (b"<w:t>", b'<w:t xml:space="preserve">')


def _docx_text_mutated(raw: bytes, rnd: random.Random, times: int) -> bytes:
    """The DOCX with the text of its paragraphs mutated as lines are, the XML kept well formed."""
    parts = {}
    with zipfile.ZipFile(io.BytesIO(raw)) as z:
        for name in z.namelist():
            parts[name] = z.read(name)
    xml = parts["word/document.xml"].decode("utf-8")
    import re

    texts = re.findall(r"<w:t(?: [^>]*)?>([^<]*)</w:t>", xml)
    mutated = [x.replace("\n", " ") for x in mutate_lines(texts, rnd, times)]
    clean = ["".join(c for c in x if c >= " " and c not in "\ufeff\ufffe\uffff") for x in mutated]
    it = iter(clean + [""] * len(texts))
    xml = re.sub(
        r"(<w:t(?: [^>]*)?>)[^<]*(</w:t>)",
        lambda m: m.group(1) + next(it).replace("&", "&amp;").replace("<", "&lt;") + m.group(2),
        xml,
    )
    parts["word/document.xml"] = xml.encode("utf-8")
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as z:
        for name, data in parts.items():
            z.writestr(name, data)
    return out.getvalue()


@FUZZ
@given(
    suffix=st.sampled_from([".docx", ".pdf"]),
    rnd=st.randoms(use_true_random=False),
    times=st.integers(1, 6),
    inside=st.booleans(),
)
def test_mutated_word_and_pdf_files_read_or_fail_in_one_line(work, documents, suffix, rnd, times, inside):
    raw = documents[suffix]
    if suffix == ".docx" and inside:
        raw = _docx_text_mutated(raw, rnd, times)
    else:
        raw = mutate_bytes(raw, rnd, times)
    path = work / f"case{suffix}"
    path.write_bytes(raw)
    read_or_one_line(path, read_file)


# -- card files ----------------------------------------------------------------------------------------------
INVENTED = json.loads((REPO / "tests" / "data" / "cards" / "invented-scryfall.json").read_text(encoding="utf-8"))
_CARD = {
    "name": "Practice Golem",
    "manaCost": "{3}",
    "type": "Artifact Creature — Golem",
    "types": ["Artifact", "Creature"],
    "subtypes": ["Golem"],
    "supertypes": [],
    "text": "Vigilance",
    "power": "3",
    "toughness": "3",
    "colors": [],
    "layout": "normal",
    "rulings": [{"date": "2026-01-02", "text": "An invented ruling."}],
}
CARD_FILES = {
    "scryfall.json": INVENTED,
    "rulings.json": {
        "object": "list",
        "data": [
            {
                "object": "ruling",
                "oracle_id": INVENTED[0]["oracle_id"],
                "source": "wotc",
                "published_at": "2026-01-02",
                "comment": "Invented.",
            }
        ],
    },
    "v3.json": {"name": "Invented", "code": "TST", "releaseDate": "2026-01-01", "cards": [{**_CARD, "cmc": 3}]},
    "v5.json": {
        "meta": {"date": "2026-01-01", "version": "5.2.2"},
        "data": {
            "code": "TST",
            "baseSetSize": 1,
            "releaseDate": "2026-01-01",
            "cards": [
                {
                    **_CARD,
                    "manaValue": 3.0,
                    "uuid": "u",
                    "keywords": ["Vigilance"],
                    "identifiers": {"scryfallOracleId": "o"},
                }
            ],
        },
    },
    "gallery.json": {
        "count": 1,
        "cards": [
            {
                "name": "Invented Scout",
                "setId": "OGN",
                "domains": ["Fury"],
                "cardTypes": ["Unit"],
                "superTypes": [],
                "tags": ["Yordle"],
                "energy": "2",
                "power": "1",
                "might": "2",
                "abilityText": "[Accelerate] :rb_energy_1:",
            }
        ],
    },
    "errata.json": [
        {
            "kind": "errata",
            "publishedAt": "2026-01-14",
            "content": "## Cards\nInvented Scout\n#### [NEW TEXT]\nDraw 1.\n#### [OLD TEXT]\nDraw 2.\n",
        }
    ],
}
ODD = [None, 0, -1, 3.5, 10**40, "", "x" * 5000, [], {}, ["x"], {"a": 1}, True, "\u200b", [[[[[]]]]]]


def _paths(value: Any, path: tuple = ()) -> list[tuple]:
    out = [path]
    if isinstance(value, dict):
        for k, v in value.items():
            out += _paths(v, path + (k,))
    elif isinstance(value, list):
        for i, v in enumerate(value):
            out += _paths(v, path + (i,))
    return out


def mutate_value(value: Any, rnd: random.Random, times: int) -> Any:
    value = copy.deepcopy(value)
    for _ in range(times):
        path = rnd.choice(_paths(value))
        if not path:
            value = rnd.choice([[value], {"data": value}, None])
            continue
        parent = value
        for key in path[:-1]:
            parent = parent[key]
        op = rnd.randrange(3)
        if op == 0:
            parent[path[-1]] = copy.deepcopy(rnd.choice(ODD))
        elif op == 1:
            del parent[path[-1]]
        else:
            nested = parent[path[-1]]
            for _ in range(rnd.choice([3, 30])):
                nested = [nested]
            parent[path[-1]] = nested
    return value


@pytest.fixture(scope="module")
def card_store(work):
    store = CardStore(card_db_path(work / "cards-home"))
    yield store
    store.close()


@FUZZ
@given(
    name=st.sampled_from(sorted(CARD_FILES)),
    rnd=st.randoms(use_true_random=False),
    times=st.integers(0, 5),
    text_times=st.integers(0, 2),
    flips=st.integers(0, 2),
)
def test_mutated_card_files_load_or_fail_in_one_line(work, card_store, name, rnd, times, text_times, flips):
    value = mutate_value(CARD_FILES[name], rnd, times)
    lines = json.dumps(value, indent=1).split("\n")
    raw = "\n".join(mutate_lines(lines, rnd, text_times) if text_times else lines).encode("utf-8", "surrogatepass")
    path = work / name
    path.write_bytes(mutate_bytes(raw, rnd, flips))
    read_or_one_line(path, lambda p: load_cards(card_store, [p]))


# -- scenario files ------------------------------------------------------------------------------------------
YAML_JUNK = [
    "x: &a [1, 2, 3, 4, 5, 6, 7, 8, 9]\ny: &b [*a, *a, *a, *a, *a, *a, *a, *a, *a]\nz: [*b, *b, *b, *b, *b, *b, *b, *b, *b]",
    "x: " + "[" * 2000 + "]" * 2000,
    "x: " + "1" * 5000,
    "x: !!python/object/apply:os.system ['true']",
    "x: &x [*x]",
    "x: *nowhere",
    "\tx: 1",
    "? [a, b]\n: c",
]


@FUZZ
@given(
    scenario=st.sampled_from(SCENARIOS),
    rnd=st.randoms(use_true_random=False),
    times=st.integers(1, 4),
    junk=st.one_of(st.none(), st.sampled_from(YAML_JUNK)),
)
def test_mutated_scenario_files_explain_or_fail_in_one_line(work, scenario, rnd, times, junk):
    from rulebook.cards.scenario import CardLibrary
    from scenarios.explain import explain
    from scenarios.scenario import ScenarioFileError, load_scenario

    lines = mutate_lines(scenario.read_text(encoding="utf-8").split("\n"), rnd, times)
    if junk:
        lines.insert(rnd.randrange(len(lines) + 1), junk)
    path = work / scenario.name
    path.write_text("\n".join(lines), encoding="utf-8", errors="surrogatepass")
    try:
        explain(load_scenario(path, library=CardLibrary(work / "scenario-home")))
    except ScenarioFileError as exc:
        assert "\n" not in str(exc) and str(exc).startswith(str(path)), str(exc)


# -- what bench/fuzz_readers.py found -------------------------------------------------------------------------
def test_card_fields_of_the_wrong_type_are_read_as_absent(tmp_path):
    """A number for a name, an object for a type line, a true among the supertypes, a string for the card
    faces: AttributeError and TypeError deep in the readers and the store; now such a field is read as
    absent (a record without a name is skipped), and the rest of the file loads."""
    good, bad = copy.deepcopy(INVENTED)
    odd = [
        {**bad, "name": 3},
        {**bad, "name": "Odd Type", "type_line": 7},
        {**bad, "name": "Odd Faces", "card_faces": "front // back", "colors": {"R": 1}, "layout": ["normal"]},
        {**bad, "name": "Odd Keywords", "keywords": [True, "Flying"], "power": [2], "cmc": "many"},
    ]
    path = tmp_path / "odd.json"
    path.write_text(json.dumps([good, *odd]), encoding="utf-8")
    v3 = tmp_path / "v3.json"
    v3.write_text(
        json.dumps(
            {
                "code": "TST",
                "releaseDate": "2026-01-01",
                "cards": [{**_CARD, "supertypes": [True], "names": 5, "cmc": []}, {"name": {"a": 1}}],
            }
        ),
        encoding="utf-8",
    )
    gallery = tmp_path / "gallery.json"
    gallery.write_text(
        json.dumps(
            {"cards": [{**CARD_FILES["gallery.json"]["cards"][0], "tags": [1, "Yordle"], "power": "²", "setId": 5}]}
        ),
        encoding="utf-8",
    )
    store = CardStore(card_db_path(tmp_path / "home"))
    reports = load_cards(store, [path, v3, gallery])
    assert [r["cards"] for r in reports] == [4, 1, 1]
    assert store.card("mtg", "odd type").type_line == ""
    assert store.card("mtg", "practice golem").supertypes == ()
    assert store.card("riftbound", "invented scout").subtypes == ("Yordle",)
    store.close()


@pytest.mark.parametrize(
    "text, message",
    [
        ('{"object": "list", "data": ' + "[" * 100_000 + "]" * 100_000 + "}", "nested too deep"),
        ('[{"object": "card", "name": "Big", "cmc": ' + "9" * 5000 + "}]", "a number of thousands of digits"),
    ],
    ids=["deep", "long-number"],
)
def test_json_past_what_python_decodes_is_one_line(tmp_path, text, message):
    """RecursionError and ValueError (int's 4,300-digit limit) from the JSON decoder were tracebacks."""
    path = tmp_path / "cards.json"
    path.write_text(text, encoding="utf-8")
    code, out, err = judge_in(tmp_path / "home", "load", path)
    assert code == 2 and "Traceback" not in err and err.count("\n") == 1, err
    assert err.startswith(f"judge: {path}") and message in err


def test_a_rule_number_of_thousands_of_digits_is_text(tmp_path):
    """``100.99999...`` (a damaged line) reached int() (ValueError past 4,300 digits) in the Magic reader; the
    Riftbound reader's "N subsections" and "... and N more rules" lines alike."""
    path = tmp_path / "cr.txt"
    lines = RULE_SEEDS["mtg-turn-structure-excerpt.txt"][:20]
    path.write_text("\n".join([*lines, "300.1" + "9" * 5000 + " Damaged.", *lines[5:9]]), encoding="utf-8")
    assert read_file(path).rules
    riftbound = tmp_path / "rb.txt"
    rb = RULE_SEEDS["riftbound-300-outline.txt"]
    riftbound.write_text(
        "\n".join([*rb[:30], "9" * 5000 + " subsections", "... and " + "9" * 5000 + " more rules", *rb[30:]]),
        encoding="utf-8",
    )
    assert read_file(riftbound).rules


def test_windows_1252_with_an_undefined_byte_reads_each_byte(tmp_path):
    """A Windows-1252 file with a byte that code page leaves undefined was decoded byte by byte (9 s for a
    1.7 MB CR, a hang for the fuzz); it is decoded at once, the undefined byte read as Latin-1."""
    path = tmp_path / "cr.txt"
    lines = RULE_SEEDS["mtg-turn-structure-excerpt.txt"][:20]
    raw = "\r\n".join(lines).encode("cp1252", errors="replace") + b"\r\n300.99. \x93Quoted\x94 \x81 text.\r\n"
    path.write_bytes(raw)
    assert [r.text for r in read_file(path).rules if "Quoted" in r.text] == ["“Quoted” \x81 text."]


@pytest.mark.parametrize("want", [3, "Ana", {"a": 1}, [1, "a", {"b": 2}]])
def test_an_expectation_of_the_wrong_type_fails_and_does_not_crash(tmp_path, want):
    """``stack: 3`` in an expectation reached ``for v in 3`` (TypeError) when the scenario was checked."""
    from rulebook.cards.scenario import CardLibrary
    from scenarios.explain import explain
    from scenarios.scenario import load_scenario

    path = tmp_path / "s.yaml"
    path.write_text(
        json.dumps(
            {
                "game": "riftbound",
                "players": ["Ana", "Ben"],
                "actions": ["Ana passes"],
                "expect": [{"after": 1, "chain": want}],
            }
        ),
        encoding="utf-8",
    )
    told = explain(load_scenario(path, library=CardLibrary(tmp_path / "home")))
    assert [r.ok for r in told.expectations] == [False]


@pytest.mark.parametrize(
    "line, says",
    [
        ("<<: {a: 1}", "not valid YAML: could not determine a constructor for the tag 'tag:yaml.org,2002:merge'"),
        ("edition: 2026-02-30", "not a scenario: cannot read the value '2026-02-30': day is out of range for month"),
        ("notes: " + "[" * 5000 + "]" * 5000, "not a scenario: nested more than 32 deep"),
    ],
    ids=["merge-key", "no-such-day", "brackets"],
)
def test_yaml_the_safe_loader_cannot_build_is_one_line_with_its_line(tmp_path, line, says):
    """A merge key's error was PyYAML's text of four lines; a date of no calendar was called "a number too
    large"; 5,000 brackets took seconds to scan before the depth was checked."""
    from scenarios.scenario import ScenarioFileError, read_scenario

    with pytest.raises(ScenarioFileError) as caught:
        read_scenario(f"game: riftbound\nplayers: [Ana, Ben]\n{line}\nactions: [Ana passes]\n", name="s.yaml")
    assert str(caught.value) == f"s.yaml:3: {says}"


def test_a_v3_half_named_by_none_of_its_names_reads_as_one_face(tmp_path):
    """A v3 split card's record whose own name is none of its ``names`` left no record to read
    (ValueError: not enough values to unpack)."""
    half = {**_CARD, "name": "Stray", "names": ["Heads", "Tails"], "layout": "split"}
    path = tmp_path / "v3.json"
    path.write_text(json.dumps({"code": "TST", "releaseDate": "2026-01-01", "cards": [half]}), encoding="utf-8")
    store = CardStore(card_db_path(tmp_path / "home"))
    assert [r["cards"] for r in load_cards(store, [path])] == [1]
    store.close()


def test_errors_quoting_the_file_stay_one_line(tmp_path):
    """A cost written across two lines was quoted, line break and all, in the scenario's error; a JSON key
    with a line break in the card reader's description of the file."""
    from rulebook.cards.scenario import CardLibrary
    from scenarios.explain import explain
    from scenarios.scenario import ScenarioFileError, load_scenario

    path = tmp_path / "s.yaml"
    path.write_text(
        json.dumps(
            {
                "game": "mtg",
                "players": ["Ana", "Ben"],
                "cards": {"Pacifism": {"type": "enchantment", "cost": "{1}{\nW}"}},
                "actions": ["Ana passes"],
            }
        ),
        encoding="utf-8",
    )
    with pytest.raises(ScenarioFileError) as caught:
        explain(load_scenario(path, library=CardLibrary(tmp_path / "home")))
    assert "\n" not in str(caught.value) and "{1}{\\nW}" in str(caught.value)
    odd = tmp_path / "odd.json"
    odd.write_text(json.dumps({"object": "error", "two\nlines": 1}), encoding="utf-8")
    code, out, err = judge_in(tmp_path / "home", "load", odd)
    assert code == 2 and err.count("\n") == 1 and "two\\nlines" in err, err


def test_an_edition_of_no_such_day_does_not_crash_the_explanation(tmp_path):
    """``edition: 2026-13-45`` reached date.fromisoformat when the nearest citation table was looked for."""
    from rulebook.cards.scenario import CardLibrary
    from scenarios.explain import explain
    from scenarios.scenario import load_scenario

    path = tmp_path / "s.yaml"
    path.write_text("game: mtg\nedition: '2026-13-45'\nplayers: [Ana, Ben]\nactions: [Ana passes]\n", encoding="utf-8")
    assert explain(load_scenario(path, library=CardLibrary(tmp_path / "home"))).steps
