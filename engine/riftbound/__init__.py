"""The Riftbound reference engine (Core Rules v1.2).

``new_game(scenario, citations)`` builds a game from a scenario dict (the YAML of
``../shared/spec/scenarios.md``) and a citations table; the game implements :class:`engine.core.Engine`.
"""

from __future__ import annotations

from engine.core import Citations
from engine.riftbound.build import build
from engine.riftbound.game import RiftboundGame

__all__ = ["RiftboundGame", "new_game"]


def new_game(scenario: dict, citations: Citations) -> RiftboundGame:
    """A game at the scenario's starting situation, the automatic phases before the first decision run.

    Raises :class:`engine.core.ScenarioError` (with the key path) for a scenario it cannot accept.
    """
    return RiftboundGame(build(scenario), citations)
