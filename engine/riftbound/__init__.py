"""The Riftbound reference engine (Core Rules v1.2).

``new_game(scenario, citations)`` builds a game from a scenario dict (the YAML of
``../shared/spec/scenarios.md``) and a citations table; the game implements :class:`engine.core.Engine`.
"""

from __future__ import annotations

from engine.core import Citations, ScenarioError
from engine.riftbound.build import build
from engine.riftbound.game import FAQ_RULINGS, V1_3_CHANGES, RiftboundGame

__all__ = ["RiftboundGame", "new_game"]


def new_game(scenario: dict, citations: Citations) -> RiftboundGame:
    """A game at the scenario's starting situation, the automatic phases before the first decision run.

    Raises :class:`engine.core.ScenarioError` (with the key path) for a scenario it cannot accept.
    """
    missing = (set(FAQ_RULINGS) | set(V1_3_CHANGES) | {"deflect.each_choice"}) - citations.timeline.names()
    if missing:
        raise ValueError(
            "the Riftbound engine needs the timeline of data/editions/riftbound.yaml handed in with its "
            f"citations (it lacks {', '.join(sorted(missing))})"
        )
    state = build(scenario)
    if not citations.follows("faq.win_combat"):
        for card in state.cards.values():
            if any(t.spec.event == "win" for t in card.defn.triggers):
                name = card.name.split("#", 1)[0].strip()
                in_cards = any(str(k).lower() == name.lower() for k in (scenario.get("cards") or {}))
                raise ScenarioError(
                    ("cards", name, "effect") if in_cards else ("state",),
                    f'{card.name}: "when I win a combat": the {citations.edition} rules do not define '
                    "winning a combat; the Spiritforged FAQ does (explain with edition: 2026-01-14)",
                )
    return RiftboundGame(state, citations)
