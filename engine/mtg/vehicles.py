"""Vehicles and crew (301.7, 702.122).

A Vehicle is an artifact with a printed power and toughness that it has only while it is also a creature
(301.7a). "Crew N" is an activated ability: "Tap any number of other untapped creatures you control with
total power N or greater: This permanent becomes an artifact creature until end of turn" (702.122a). A
player crews with ``P crews VEHICLE with C[, C2]``: the creatures are tapped as the cost (summoning
sickness does not stop them: the cost has no {T} symbol, 302.6), and the ability goes on the stack.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from engine.core import Refusal, ScenarioError
from engine.mtg.keywords import amount
from engine.mtg.state import Permanent, StackItem, State, Target

if TYPE_CHECKING:
    from engine.mtg.state import Game

BECOMES = "~ becomes an artifact creature until end of turn"


@dataclass(frozen=True)
class Crewing:
    player: str
    vehicle: Permanent
    crew: tuple[Permanent, ...]
    n: int


def check_crew(s: State, player: str, vehicle_name: str, crew_names: tuple[str, ...]) -> Crewing:
    """Whether ``player`` may crew the Vehicle with those creatures now (the caller checked priority)."""
    vehicle = s.find_permanent(vehicle_name)
    if vehicle is None:
        raise s.unknown(vehicle_name, "permanent")
    n = amount(s.keywords(vehicle), "crew")
    if n is None:
        raise ScenarioError((), f"{vehicle.name} has no crew ability (a Vehicle's Crew N)")
    if vehicle.controller != player:
        raise Refusal(
            f"{player} cannot crew {vehicle.name}: only its controller, {vehicle.controller}, can",
            "activate.controller",
        )
    if not crew_names:
        raise ScenarioError((), f"name the creatures that crew it: '{player} crews {vehicle.name} with CREATURE'")
    crew: list[Permanent] = []
    for name in crew_names:
        perm = s.find_permanent(name)
        if perm is None:
            raise s.unknown(name, "permanent")
        if perm is vehicle or perm in crew:
            raise Refusal(
                f"{perm.name} cannot crew {vehicle.name}: the creatures tapped are other creatures, each once",
                "keyword.crew",
            )
        if not perm.is_a("creature") or perm.controller != player or perm.tapped:
            raise Refusal(
                f"{perm.name} cannot crew {vehicle.name}: the cost taps untapped creatures {player} controls",
                "keyword.crew",
            )
        crew.append(perm)
    total = sum(s.power(p) for p in crew)
    if total < n:
        raise Refusal(
            f"{', '.join(p.name for p in crew)} {'has' if len(crew) == 1 else 'have'} total power {total}: crew {n} "
            f"needs {n} or greater",
            "keyword.crew",
        )
    return Crewing(player, vehicle, tuple(crew), n)


def crew(g: Game, plan: Crewing) -> None:
    """Pay the crew cost (tap the creatures) and put the ability on the stack (602.2)."""
    s = g.s
    for perm in plan.crew:
        perm.tapped = True
    vehicle = plan.vehicle
    item = StackItem(
        s.oid(),
        f"{vehicle.name} crew",
        plan.player,
        "ability",
        effect=BECOMES,
        source=vehicle.name,
        src=s.source_of(vehicle),
        subject=Target("permanent", vehicle.oid, vehicle.name),
    )
    s.stack.append(item)
    total = sum(s.power(p) for p in plan.crew)
    g.emit(
        f"{plan.player} crews {vehicle.name} (crew {plan.n}), tapping {', '.join(p.name for p in plan.crew)} (total "
        f"power {total}) to pay its cost; the ability goes on top of the stack",
        "keyword.crew",
        "activate.on_stack",
        "stack.add",
    )
    s.passes = 0
    g.receive_priority(plan.player, f"{plan.player} receives priority again", "priority.after_action")


def become(g: Game, item: StackItem, perm: Permanent, types: tuple[str, ...]) -> None:
    """``~ becomes an artifact creature until end of turn``: a Vehicle then has its printed power and
    toughness (301.7b); the effect ends in the cleanup step (514.2)."""
    perm.became = tuple(dict.fromkeys(perm.became + types))
    stats = (
        f" with its printed power and toughness ({g.s.power(perm)}/{g.s.toughness(perm)})"
        if perm.card.power is not None
        else ""
    )
    g.emit(
        f"{item.name}: {perm.name} becomes an artifact creature until end of turn{stats}",
        "resolve.instructions",
        "type.vehicle",
        "effect.until_eot",
    )
