"""The Magic: The Gathering reference engine (two-player games, Comprehensive Rules 2026-02-27 or
2008-10-01, chosen by the citation table handed in).

>>> from engine.core import Citations
>>> import yaml, pathlib
>>> table = yaml.safe_load((pathlib.Path(__file__).parents[2] / "data/citations/mtg-2026-02-27.yaml").read_text("utf-8"))
>>> cite = Citations("mtg", table["edition"], table["citations"])
>>> game = new_game({"players": ["Ana", "Ben"], "turn": {"player": "Ana", "phase": "main1"}}, cite)
>>> [e.what for e in game.apply("Ana passes")]
['Ana passes priority; Ben receives priority']
>>> game.apply("Ben passes")[0].rules
('117.4', '405.5', '500.2')
>>> game.snapshot()["phase"], game.snapshot()["priority"]
('beginning_of_combat', 'Ana')
"""

from __future__ import annotations

from engine.core import Citations
from engine.mtg.build import SCENARIO_KEYS, build
from engine.mtg.game import MagicGame
from engine.mtg.state import PHASES, SECOND_DAMAGE

EDITIONS = ("2026-02-27", "2008-10-01")


def new_game(scenario: dict, citations: Citations) -> MagicGame:
    """A game in the scenario's starting situation; raises :class:`~engine.core.ScenarioError`."""
    return MagicGame(build(scenario, citations.edition), citations)


__all__ = ["EDITIONS", "MagicGame", "PHASES", "SCENARIO_KEYS", "SECOND_DAMAGE", "new_game"]
