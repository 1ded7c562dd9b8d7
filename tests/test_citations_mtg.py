"""Every citation key of the Magic engine, checked against both Comprehensive Rules texts: the rule
number exists and the key phrase is in its text (case-insensitive, whitespace and quotes normalised).

The rule texts are found with a small regex of their own over the decoded file, independent of the
project's MTG reader.
"""

from __future__ import annotations

import re
from functools import cache
from pathlib import Path

import pytest
import yaml

from tests.conftest import corpus

REPO = Path(__file__).resolve().parents[1]
EDITIONS = {
    "2026-02-27": "MagicCompRules-2026-02-27.txt",
    "2019-10-04": "MagicCompRules-2019-10-04.txt",
    "2008-10-01": "MagicCompRules-2008-10-01.txt",
}
_QUOTES = str.maketrans({"\u2019": "'", "\u2018": "'", "\u201c": '"', "\u201d": '"'})
_RULE = re.compile(r"^(\d{3}(?:\.\d+[a-z]?)?)\.?\s+(.*)")


def table(edition: str) -> dict:
    return yaml.safe_load((REPO / "data" / "citations" / f"mtg-{edition}.yaml").read_text(encoding="utf-8"))


def norm(text: str) -> str:
    return " ".join(text.translate(_QUOTES).lower().split())


@cache
def rules_of(path: Path) -> dict[str, str]:
    raw = path.read_bytes()
    text = raw.decode("utf-8-sig") if raw.startswith(b"\xef\xbb\xbf") else raw.decode("cp1252")
    text = text.replace("\r\r\n", "\n").replace("\r\n", "\n").replace("\r", "\n")
    out: dict[str, str] = {}
    current = None
    for line in text.split("\n"):
        m = _RULE.match(line)
        if m:
            current = m.group(1)
            out[current] = out.get(current, "") + " " + m.group(2)
        elif current and line.strip():
            out[current] += " " + line  # continuation lines and examples belong to the rule above
    return out


def test_every_edition_has_the_same_keys():
    a, b, c = table("2026-02-27"), table("2008-10-01"), table("2019-10-04")
    assert a["game"] == b["game"] == c["game"] == "mtg"
    assert (a["edition"], b["edition"], c["edition"]) == ("2026-02-27", "2008-10-01", "2019-10-04")
    assert set(a["citations"]) == set(b["citations"]) == set(c["citations"])


def test_every_key_the_engine_uses_is_in_the_table():
    keys = set(table("2026-02-27")["citations"])
    source = "\n".join(p.read_text(encoding="utf-8") for p in (REPO / "engine" / "mtg").glob("*.py"))
    used = set(
        re.findall(
            r'"((?:turn|mana|priority|stack|resolve|cast|type|activate|special|land|trigger|sba|game|draw|'
            r'damage|life|effect|combat|zone|keyword|counter|token|replace|prevent|attach|mode)\.[a-z_]+)"',
            source,
        )
    )
    used |= {f"type.{t}" for t in ("creature", "sorcery", "artifact", "enchantment")}  # built as f"type.{kind}"
    assert used - keys == set()
    assert len(used) > 60


@pytest.mark.parametrize("edition", sorted(EDITIONS))
def test_every_rule_exists_and_contains_its_phrase(edition):
    rules = rules_of(corpus("mtg", EDITIONS[edition]))
    problems = []
    for key, entry in table(edition)["citations"].items():
        for number in entry["rules"]:
            if number not in rules:
                problems.append(f"{key}: rule {number} is not in the {edition} text")
        if not entry["rules"]:  # a mechanic this edition does not have (the engine refuses it)
            continue
        first = entry["rules"][0]
        if first in rules and norm(entry["phrase"]) not in norm(rules[first]):
            problems.append(f"{key}: {first} does not contain {entry['phrase']!r}")
    assert problems == []


def test_the_editions_differ_where_the_rules_moved():
    new, old = table("2026-02-27")["citations"], table("2008-10-01")["citations"]
    assert new["priority.pass"]["rules"] == ["117.3d"] and old["priority.pass"]["rules"] == ["408.1c"]
    assert new["combat.damage_on_stack"]["rules"] == ["510.2"] and old["combat.damage_on_stack"]["rules"] == ["310.1"]
    assert old["mana.burn"]["rules"] == ["300.3"]


def test_mechanics_the_2008_rules_lack_are_marked_and_refused():
    """Keys of keywords the 2008 rules do not have name no rule in the 2008 table (not located there),
    and a scenario under 2008 naming such a keyword is refused (engine.mtg.effects.DATED_KEYWORDS, each
    a change of data/editions/mtg.yaml that came after 2008)."""
    from engine.core import ScenarioError
    from engine.mtg import new_game
    from engine.mtg.effects import DATED_KEYWORDS
    from scenarios.citations import load_citations, timeline

    # a change is named as its keyword, a space written "_" ("battle_cry": battle cry)
    later = {c.name.replace("_", " ") for c in timeline("mtg").changes if c.since and c.since > "2008-10-01"}
    NOT_IN_EDITION = {"2008": DATED_KEYWORDS & later}
    assert NOT_IN_EDITION["2008"] == DATED_KEYWORDS

    old = table("2008-10-01")["citations"]
    absent = {k for k, v in old.items() if v["rules"] == []}
    # double-faced cards (2011) and Vehicles (2016): refused under 2008 by the builder
    faces = {
        "effect.transform",
        "card.dfc_faces",
        "type.vehicle",
        "effect.bolster",
        "effect.explore",
        "effect.monstrosity",
        "effect.investigate",
        "effect.support",
        "effect.search",
        "effect.shuffle",
        "counter.energy",  # energy (Kaladesh, 2016) and exert (Amonkhet, 2017): refused under 2008 by the builder
        "effect.exert",
        "combat.optional_attack_cost",
        "replace.enters_anchor",  # anchor words (Fate Reforged, 2015)
        "card.level",  # leveler cards' level symbols (Rise of the Eldrazi, 2010)
    }
    assert absent == {f"keyword.{k.replace(' ', '_')}" for k in NOT_IN_EDITION["2008"]} | faces
    header = (REPO / "data" / "citations" / "mtg-2008-10-01.yaml").read_text(encoding="utf-8").split("game:")[0]
    assert all(k in header for k in absent)
    for keyword in sorted(NOT_IN_EDITION["2008"]):
        written = {
            "ward": "Ward 2",
            "renown": "Renown 1",
            "afflict": "Afflict 1",
            "bestow": "Bestow {2}",
            "dash": "Dash {1}{R}",
            "overload": "Overload {1}{R}",
            "scavenge": "Scavenge {2}",
            "surge": "Surge {1}{R}",
            "embalm": "Embalm {2}",
            "eternalize": "Eternalize {2}",
            "fabricate": "Fabricate 1",
            "crew": "Crew 1",
            "level up": "Level up {2}",
        }.get(keyword, keyword.title())
        bear = {"name": "Bear", "type": "creature", "power": 2, "toughness": 2, "keywords": [written]}
        with pytest.raises(ScenarioError) as info:
            new_game({"players": ["Ana", "Ben"], "state": {"permanents": [bear]}}, load_citations("mtg", "2008-10-01"))
        assert "not in the 2008-10-01 Comprehensive Rules" in info.value.message and "\n" not in info.value.message
        new_game({"players": ["Ana", "Ben"], "state": {"permanents": [bear]}}, load_citations("mtg", "2026-02-27"))
