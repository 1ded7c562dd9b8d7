"""The Magic: The Gathering reference engine (two-player games under the rules of any date: the rules
that changed are the timeline of data/editions/mtg.yaml, handed in with the citation table).

>>> from engine.core import Citations, Timeline
>>> import yaml, pathlib
>>> data = pathlib.Path(__file__).parents[2] / "data"
>>> table = yaml.safe_load((data / "citations/mtg-2026-02-27.yaml").read_text("utf-8"))
>>> timeline = Timeline.from_data(yaml.safe_load((data / "editions/mtg.yaml").read_text("utf-8")))
>>> cite = Citations("mtg", table["edition"], table["citations"], timeline=timeline)
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
from engine.mtg.state import CHANGES, PHASES, SECOND_DAMAGE

EDITIONS = ("2026-02-27", "2008-10-01")


def new_game(scenario: dict, citations: Citations) -> MagicGame:
    """A game in the scenario's starting situation under the rules in force at ``citations.date`` (the
    timeline handed in with the citations); raises :class:`~engine.core.ScenarioError`."""
    if citations.timeline.names() != CHANGES:
        raise ValueError(
            "the Magic engine needs the timeline of data/editions/mtg.yaml handed in with its citations "
            f"(it knows {len(CHANGES)} rules changes, the timeline names {len(citations.timeline.names())})"
        )
    return MagicGame(build(scenario, _edition_name(citations), citations.in_force & CHANGES), citations)


def _edition_name(citations: Citations) -> str:
    """The edition as a judge reads it in a message: the date of the rules applied."""
    return citations.date


__all__ = ["EDITIONS", "MagicGame", "PHASES", "SCENARIO_KEYS", "SECOND_DAMAGE", "new_game"]
