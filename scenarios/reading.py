"""Whether the reference engine reads a library card whole (issue 23): ``judge card NAME --engine`` and
``bench/card_reading.py`` ask the same question the same way.

A card is read whole when a scenario holding it builds with the library's text (contract version 3): in
a hand, a Riftbound Battlefield under ``state: battlefields``, a Rune card in ``state: runes``. The engine
refuses what it cannot carry out, so a build that succeeds means every field and every sentence was
taken; a refusal names the words. Magic is read under the newest edition a citation table is shipped for
(the rules a judge holds), unless another is given.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from rulebook.cards.model import Card
from scenarios.citations import shipped_folder
from scenarios.explain import new_engine
from scenarios.scenario import ScenarioFileError, read_scenario

PLAYERS = "players: [Ana, Ben]\n"
TURN = {"mtg": "turn: {player: Ana, phase: main1}\n", "riftbound": "turn: {player: Ana, phase: main}\n"}
# What the smoke run puts on the board beside the card: something to target on each side, and cards to draw.
BOARD = {
    "mtg": (
        "  permanents:\n"
        "    - {name: Bear A, controller: Ana, type: creature, power: 2, toughness: 2}\n"
        "    - {name: Bear B, controller: Ben, type: creature, power: 2, toughness: 2}\n"
        "    - {name: Ogre B, controller: Ben, type: creature, power: 3, toughness: 3}\n"
        "  library: {Ana: 20, Ben: 20}\n"
    ),
    "riftbound": (
        "  units:\n"
        "    - {name: Yeti A, controller: Ana, at: base, might: 3}\n"
        "    - {name: Yeti B, controller: Ben, at: base, might: 3}\n"
        "    - {name: Poro B, controller: Ben, at: base, might: 2}\n"
        "  deck: {Ana: 20, Ben: 20}\n"
    ),
}


@dataclass(frozen=True, slots=True)
class EngineReading:
    """Whether the engine reads the card whole, under which rules, and if not, why (its one-line refusal)."""

    reads: bool
    refused: str | None
    edition: str | None
    assumed: tuple[str, ...] = ()  # what the card data does not say, and what the engine is given instead

    def to_json(self) -> dict[str, Any]:
        return {"reads": self.reads, "refused": self.refused, "edition": self.edition, "assumed": list(self.assumed)}


def newest_edition(game: str) -> str | None:
    """The newest edition of ``game`` a citation table is shipped for (``data/citations/mtg-DATE.yaml``)."""
    dates = sorted(p.stem.removeprefix(f"{game}-") for p in shipped_folder(game).glob(f"{game}-*.yaml"))
    return dates[-1] if dates else None


def holding(card: Card, *, edition: str | None = None, smoke: bool = False) -> str:
    """A scenario's text holding ``card`` where a card of its kind is held; ``smoke``: costs not checked, and
    something to target on each side."""
    game, name = card.game, json.dumps(card.name)
    kind = (card.types or ("",))[0]
    head = f"game: {game}\n" + PLAYERS + TURN[game]
    head += f"edition: {json.dumps(edition)}\n" if edition else ""
    head += "costs: ignore\n" if smoke else ""
    if game == "riftbound" and kind == "Battlefield":
        return head + f"state:\n  battlefields:\n    - {{name: {name}}}\n"
    if game == "riftbound" and kind == "Rune":
        return head + f"state:\n  runes: {{Ana: {{ready: [{name}]}}}}\n"
    return head + f"state:\n  hand: {{Ana: [{name}]}}\n" + (BOARD[game] if smoke else "")


def engine_reading(card: Card, library: Any, edition: str | None = None) -> EngineReading:
    """Whether the engine reads ``card`` whole (``library``: a :class:`rulebook.cards.scenario.Library`
    holding it). Magic: under ``edition``, default the newest with a shipped citation table."""
    if edition is None and card.game == "mtg":
        edition = newest_edition("mtg")
    try:
        scenario = read_scenario(holding(card, edition=edition), card.name, library)
        new_engine(scenario)
    except ScenarioFileError as exc:
        return EngineReading(False, exc.message, edition)
    assumed = tuple(sentence for taken in scenario.library_cards for _, sentence in taken.assumed)
    return EngineReading(True, None, edition, assumed)
