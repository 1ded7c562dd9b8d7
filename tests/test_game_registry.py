"""A third game joins through the registry alone (rulebook.games): its rules are read, looked up, and a
scenario of it explained with the rule its engine applies quoted, without editing any other module."""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from types import SimpleNamespace

import pytest

from engine.core import Citations, Event, IllegalAction, ScenarioError
from rulebook import games
from rulebook.model import Document, Rule

TOY_RULES = """TOY RULES, edition 2026-05-01
1. Turns
1.1. On a player's turn, that player draws one card.
1.2. A player with no card left to draw loses the game.
2. Winning
2.1. The last player in the game wins.
"""

_RULE = re.compile(r"^(\d+(?:\.\d+)*)\.\s+(.*)$")


def read_toy(lines: list[str], source, kind: str) -> Document:
    rules = []
    for n, line in enumerate(lines, 1):
        m = _RULE.match(line.strip())
        if m:
            number = m.group(1)
            parent = number.rsplit(".", 1)[0] if "." in number else None
            heading = parent is None
            rules.append(
                Rule(
                    number,
                    parent,
                    m.group(2) if heading else None,
                    "" if heading else m.group(2),
                    source=source.name,
                    line=n,
                )
            )
    return Document(source, "toy", "rules", "Toy Rules", "2026-05-01", rules)


@dataclass
class ToyGame:
    """A one-rule engine: ``NAME draws`` (rule 1.1), refused when the deck is empty (rule 1.2)."""

    citations: Citations
    decks: dict[str, int]
    game: str = "toy"
    opening: list[Event] = field(default_factory=list)

    def _cite(self, key: str) -> tuple[str, ...]:
        return self.citations.citation(key).rules

    def check(self, action: str) -> str:
        m = re.fullmatch(r"(\w+) draws", action.strip())
        if not m or m.group(1) not in self.decks:
            raise ScenarioError((), f"not a toy action: {action!r} (expected 'NAME draws')")
        if self.decks[m.group(1)] == 0:
            raise IllegalAction(f"{m.group(1)} has no card to draw", "draw.empty", self._cite("draw.empty"))
        return m.group(1)

    def apply(self, action: str) -> list[Event]:
        player = self.check(action)
        self.decks[player] -= 1
        return [Event(f"{player} draws a card ({self.decks[player]} left)", self._cite("draw.turn"), ("draw.turn",))]

    def copy(self) -> ToyGame:
        return ToyGame(self.citations, dict(self.decks))

    def snapshot(self) -> dict:
        return {"decks": dict(self.decks), "priority": None}


def new_toy_game(data: dict, citations: Citations) -> ToyGame:
    return ToyGame(citations, {str(p): int(n) for p, n in ((data.get("state") or {}).get("decks") or {}).items()})


@pytest.fixture
def toy(tmp_path):
    tables = tmp_path / "toy-citations"
    tables.mkdir()
    (tables / "toy-2026-05-01.yaml").write_text(
        "game: toy\nedition: '2026-05-01'\ncitations:\n"
        "  draw.turn: {rules: ['1.1'], phrase: draws one card}\n"
        "  draw.empty: {rules: ['1.2'], phrase: no card left to draw}\n",
        encoding="utf-8",
    )
    game = games.register(
        games.Game(
            "toy",
            "Toy",
            games.Numbering(compact=False),
            seed_book="toy",
            reader=read_toy,
            references=lambda text: [],
            detect=lambda lines: float("inf") if lines and lines[0].startswith("TOY RULES") else float("-inf"),
            engine=SimpleNamespace(new_game=new_toy_game),
            citations=tables,
        )
    )
    yield game
    games.unregister("toy")


def test_a_toy_game_is_read_looked_up_and_explained(toy, fresh_home, judge, tmp_path):
    rules = tmp_path / "toy-rules.txt"
    rules.write_text(TOY_RULES, encoding="utf-8")
    code, out, err = judge("load", rules, "--book", "toy-2026")
    assert code == 0, err
    code, out, _ = judge("rule", "1.1", "--book", "toy-2026", "--json")
    assert code == 0 and json.loads(out)[0]["text"] == "On a player's turn, that player draws one card."

    scenario = tmp_path / "draw.yaml"
    scenario.write_text(
        "game: toy\nbook: toy-2026\nplayers: [Ana, Ben]\nstate: {decks: {Ana: 1, Ben: 0}}\n"
        "actions:\n  - Ana draws\n  - Ben draws\n"
        "expect:\n  - after: 1\n    cites: '1.1'\n  - after: 2\n    illegal: true\n",
        encoding="utf-8",
    )
    code, out, err = judge("explain", scenario, "--check", "--json")
    assert code == 0, out + err
    doc = json.loads(out)
    assert [s["legal"] for s in doc["steps"]] == [True, False]
    assert doc["steps"][0]["events"][0] == {"what": "Ana draws a card (0 left)", "rules": ["1.1"]}
    quoted = {r["rule"]: r["text"] for r in doc["rules_cited"]}
    assert quoted == {
        "1.1": "On a player's turn, that player draws one card.",
        "1.2": "A player with no card left to draw loses the game.",
    }


def test_an_unknown_game_says_did_you_mean(home, judge):
    code, out, err = judge("card", "Bolt", "--game", "mtgg")
    assert code == 2 and err.strip() == "judge: unknown game 'mtgg' (did you mean \"mtg\"?): expected riftbound or mtg"
