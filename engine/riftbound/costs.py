"""Paying costs (353, 354, 160-164): what a card or ability costs in total, and how a player pays it from their
Rune Pool, their runes (exhaust: [1]; recycle: 1 power of the rune's domain, even an exhausted one, 160.2)
and other objects that add power (a Seal: ``[E]: Add [R]``).

Read-only: :func:`plan` returns a :class:`Payment` or None when the player cannot pay; the steps carry a payment
out. A player whose runes and pool the scenario does not give pays everything (their costs are not checked).

>>> from engine.riftbound.state import State, Rune, Pool
>>> s = State(players=["Ana", "Ben"], turn_player="Ana", phase="main")
>>> s.runes = {"Ana": [Rune("Fury"), Rune("Fury", exhausted=True), Rune("Calm")], "Ben": None}
>>> s.pool = {"Ana": Pool(), "Ben": Pool()}; s.tracked = frozenset({"Ana"})
>>> p = plan(s, "Ana", Cost(2, ("Fury",)), ())
>>> p.exhaust, p.recycle
((0, 2), (1,))
>>> plan(s, "Ana", Cost(3, ("Fury",)), ()) is None
True
"""

from __future__ import annotations

from dataclasses import dataclass

from engine.riftbound.effects import Cost
from engine.riftbound.state import Card, State


@dataclass(frozen=True)
class Payment:
    """How ``player`` pays ``cost``: pool energy and power spent, runes exhausted (for energy) and recycled (for
    power), by their index in the player's runes, and objects exhausted for the power they add."""

    player: str
    cost: Cost
    pool_energy: int = 0
    pool_power: tuple[str, ...] = ()
    exhaust: tuple[int, ...] = ()
    recycle: tuple[int, ...] = ()
    sources: tuple[str, ...] = ()  # keys of objects exhausted to add power (their "[E]: Add [R]" ability)
    free: bool = False  # the player's costs are not checked
    only_spent: tuple[tuple[str, str], ...] = ()  # pool resources only for this use spent ("energy" or a power, use)

    def text(self) -> str:
        return self.cost.text()


def resolve_card_domain(cost: Cost, card: Card | None) -> Cost:
    """[C] is one power of the card's domain, or of any domain when it has none or several (134.2.e.6.b)."""
    if "card" not in cost.power:
        return cost
    domains = card.defn.domains if card is not None else ()
    one = domains[0] if len(domains) == 1 else "any"
    return Cost(cost.energy, tuple(one if p == "card" else p for p in cost.power), cost.exhaust, cost.extra)


def plan(s: State, player: str, cost: Cost, adders: tuple[tuple[str, str], ...], use: str = "") -> Payment | None:
    """A way for ``player`` to pay the energy and power of ``cost``, or None. ``adders``: (object key, domain)
    of ready objects whose exhaust ability adds one power of that domain ("any" for [A]). ``use``: what is paid
    for (``spell``): the pool's resources added "only to play spells" are spent first on it, never on another."""
    if not s.pays(player):
        return Payment(player, cost, free=True)
    pool = s.pool[player]
    runes = s.runes[player] or []
    energy_left = cost.energy
    only = [o for o in pool.only if o[1] == use] if use and pool.only else []
    only_spent = [o for o in only if o[0] == "energy"][:energy_left]
    energy_left -= len(only_spent)
    only_power = [o[0] for o in only if o[0] != "energy"]
    pool_energy = min(pool.energy, energy_left)
    energy_left -= pool_energy
    # Power: the pool first (its own domain, then any), then adders (Seals), then recycling runes.
    # specific domains first, then a power of either of two domains ("Body/Order", paid by either: 162.2)
    needs = sorted(cost.power, key=lambda p: (p == "any", "/" in p))
    pool_power = list(pool.power)
    spent: list[str] = []
    left: list[str] = []
    for need in needs:
        match = _match(only_power, need) if only_power else None
        if match is not None:  # a power added only for this use first
            only_power.remove(match)
            only_spent.append((match, use))
            continue
        match = _match(pool_power, need)
        if match is not None:
            pool_power.remove(match)
            spent.append(match)
        else:
            left.append(need)
    used_sources: list[str] = []
    still: list[str] = []
    free_adders = list(adders)
    for need in left:
        found = next(
            (a for a in free_adders if a[1] == need or a[1] == "any" or need == "any" or a[1] in _either(need)), None
        )
        if found is not None:
            free_adders.remove(found)
            used_sources.append(found[0])
        else:
            still.append(need)
    recycle: list[int] = []
    taken: set[int] = set()
    for need in still:
        order = sorted(
            range(len(runes)),
            key=lambda i: (
                runes[i].domain is None if need != "any" else False,  # a rune of the very domain before an unknown one
                not runes[i].exhausted,
            ),
        )  # an exhausted rune (its energy used) before a ready one
        fits = (need, None, *_either(need))
        choice = next((i for i in order if i not in taken and (need == "any" or runes[i].domain in fits)), None)
        if choice is None:
            return None
        taken.add(choice)
        recycle.append(choice)
    ready = [i for i in range(len(runes)) if not runes[i].exhausted]
    if energy_left > len(ready):
        return None
    # Exhaust first the runes that are recycled anyway, then the others in order.
    ready.sort(key=lambda i: i not in taken)
    return Payment(
        player,
        cost,
        pool_energy,
        tuple(spent),
        tuple(sorted(ready[:energy_left])),
        tuple(recycle),
        tuple(used_sources),
        only_spent=tuple(only_spent),
    )


def _match(powers: list[str], need: str) -> str | None:
    """The power of ``powers`` spent on ``need``: its own domain (or either, for "Body/Order"), else any."""
    match = next((p for p in powers if p == need or p in _either(need)), None) if need != "any" else None
    return match or next((p for p in powers if p == "any"), None) or (powers[0] if need == "any" and powers else None)


def _either(need: str) -> tuple[str, ...]:
    """The domains a power of either of two domains ("Body/Order") is paid by; () for one domain or any."""
    return tuple(need.split("/")) if "/" in need else ()


def can_pay_power(s: State, player: str, domain: str) -> bool:
    return plan(s, player, Cost(0, (domain,)), ()) is not None
