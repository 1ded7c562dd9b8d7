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
    assert _norm(entry["phrase"]) in _norm(text), f"{key}: {entry['rules']} no longer says {entry['phrase']!r}: {text!r}"


def test_every_key_the_engine_names_is_in_the_table():
    used = set()
    for path in (ROOT / "engine" / "riftbound").glob("*.py"):
        used |= set(re.findall(r'"([a-z_]+\.[a-z_]+(?:\.[a-z_]+)*)"', path.read_text(encoding="utf-8")))
    used = {k for k in used if k.split(".")[0] in {k2.split(".")[0] for k2 in TABLE["citations"]}}
    missing = sorted(used - set(TABLE["citations"]))
    assert not missing, f"keys used by the engine but not in the table: {missing}"


def test_no_rule_number_literal_in_engine_logic():
    """Both engines and their shared core: numbers live in the citation tables only."""
    for path in [*(ROOT / "engine").glob("*.py"), *(ROOT / "engine").glob("*/*.py")]:
        code = "\n".join(line for line in path.read_text(encoding="utf-8").splitlines()
                         if not line.lstrip().startswith("#") and not line.lstrip().startswith(">>>"))
        code = re.sub(r'""".*?"""', "", code, flags=re.S)
        assert not re.search(r"['\"]\d{3}(\.\d+[a-z]?)*['\"]", code), f"{path} names a rule number in code"
