"""The Riftbound v1.2 citations table against the full Core Rules v1.2 text: every cited number exists
and its text still says what the key claims (the key phrase, case-insensitive, whitespace-normalised),
so a renumbered or reworded rulebook fails here, loudly. And every key the engine uses is in the table.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
import yaml

ROOT = Path(__file__).resolve().parents[1]
CORPUS = Path(__file__).resolve().parents[2] / "shared" / "corpora" / "riftbound" / "core-rules-v1.2.txt"
TABLE = yaml.safe_load((ROOT / "data" / "citations" / "riftbound-v1.2.yaml").read_text(encoding="utf-8"))


def _norm(text: str) -> str:
    return re.sub(r"\s+", " ", text).strip().lower()


@pytest.fixture(scope="module")
def rules() -> dict[str, str]:
    if not CORPUS.exists():
        pytest.skip(f"the Core Rules v1.2 text is not at {CORPUS} (shared corpora absent)")
    from rulebook.readers import read_file

    return {r.number: r.text for r in read_file(CORPUS).rules}


def test_table_shape():
    assert TABLE["game"] == "riftbound" and TABLE["edition"] == "v1.2"
    for key, entry in TABLE["citations"].items():
        assert re.fullmatch(r"[a-z_]+(\.[a-z_]+)+", key), key
        assert entry["rules"] and entry["phrase"], key


@pytest.mark.parametrize("key", sorted(TABLE["citations"]))
def test_cited_rule_exists_and_says_what_the_key_claims(rules, key):
    entry = TABLE["citations"][key]
    for number in entry["rules"]:
        assert number in rules, f"{key}: rule {number} is not in Core Rules v1.2"
    text = " ".join(rules[n] for n in entry["rules"])
    assert _norm(entry["phrase"]) in _norm(text), (
        f"{key}: {entry['rules']} no longer says {entry['phrase']!r}: {text!r}"
    )


def test_every_key_the_engine_names_is_in_the_table():
    """Every key the engine names is in the v1.2 table, or in the table of the edition with the Spiritforged FAQ,
    or names a rule Core Rules v1.3 changed (in the v1.3 table: the engine cites those only when the scenario's
    edition has them; tests/test_riftbound_v13.py checks that table whole)."""
    faq_keys = set(
        yaml.safe_load((ROOT / "data" / "citations" / "riftbound-2026-01-14.yaml").read_text(encoding="utf-8"))[
            "citations"
        ]
    )
    from engine.riftbound.game import V1_3_CHANGES

    faq_keys |= set(V1_3_CHANGES)
    used = set()
    for path in (ROOT / "engine" / "riftbound").glob("*.py"):
        used |= set(re.findall(r'"([a-z_]+\.[a-z_]+(?:\.[a-z_]+)*)"', path.read_text(encoding="utf-8")))
    prefixes = {k2.split(".")[0] for k2 in [*TABLE["citations"], *faq_keys]}
    used = {k for k in used if k.split(".")[0] in prefixes}
    missing = sorted(used - set(TABLE["citations"]) - faq_keys)
    assert not missing, f"keys used by the engine but not in the table: {missing}"


def test_no_rule_number_literal_in_engine_logic():
    """Both engines and their shared core: numbers live in the citation tables only."""
    for path in [*(ROOT / "engine").glob("*.py"), *(ROOT / "engine").glob("*/*.py")]:
        code = "\n".join(
            line
            for line in path.read_text(encoding="utf-8").splitlines()
            if not line.lstrip().startswith("#") and not line.lstrip().startswith(">>>")
        )
        code = re.sub(r'""".*?"""', "", code, flags=re.S)
        assert not re.search(r"['\"]\d{3}(\.\d+[a-z]?)*['\"]", code), f"{path} names a rule number in code"


# --- the table of the edition with the Spiritforged FAQ (2026-01-14) ---------------------------------------------
FAQ = ROOT.parent / "shared" / "corpora" / "riftbound" / "faq-spiritforged.md"
FAQ_TABLE = yaml.safe_load((ROOT / "data" / "citations" / "riftbound-2026-01-14.yaml").read_text(encoding="utf-8"))


@pytest.fixture(scope="module")
def faq() -> tuple[dict[str, str], dict[str, str]]:
    """The FAQ's questions (id -> question and answer) and the rules it revises (number -> revised text)."""
    if not FAQ.exists():
        pytest.skip(f"the Spiritforged FAQ is not at {FAQ}")
    from rulebook.model import Source
    from rulebook.readers.rulings import link_revisions, read_rulings

    doc = read_rulings(FAQ.read_text(encoding="utf-8").splitlines(), Source(str(FAQ), "", "rulings"), "riftbound")
    rulings = link_revisions(doc.rulings, "riftbound")
    return (
        {r.id: f"{r.question} {r.answer}" for r in rulings},
        {r.revises_rule: r.answer for r in rulings if r.revises_rule},
    )


def test_the_faq_edition_is_based_on_v1_2_and_only_adds():
    assert FAQ_TABLE["game"] == "riftbound" and FAQ_TABLE["based_on"] == "v1.2"
    assert str(FAQ_TABLE["edition"]) == "2026-01-14"


@pytest.mark.parametrize("key", sorted(FAQ_TABLE["citations"]))
def test_faq_edition_key_says_what_the_faq_says(rules, faq, key):
    """An FAQ ruling's id must say the phrase in its question or answer; a rule number must exist in v1.2 and say
    the phrase in its v1.2 text or in the FAQ's revised text of that rule."""
    questions, revised = faq
    entry = FAQ_TABLE["citations"][key]
    for number in entry["rules"]:
        if str(number).startswith("faq-"):
            assert number in questions, f"{key}: {number} is not a ruling of the Spiritforged FAQ"
            text = questions[number]
        else:
            assert number in rules, f"{key}: rule {number} is not in Core Rules v1.2"
            text = rules[number] + " " + revised.get(number, "")
        assert _norm(entry["phrase"]) in _norm(text), f"{key}: {number} does not say {entry['phrase']!r}"
