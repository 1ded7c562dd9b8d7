"""The Magic game: :class:`engine.core.Game` with the Magic steps, dispatching checked plans, and the
:class:`engine.mtg.state.Game` protocol the steps call back through.

The rules live in layers that import only downwards: ``state`` (data and queries), ``legality`` (is it
legal, and the plan), the steps ``board`` (zone changes, damage, draws, triggers), ``combat``,
``stack`` (casting, special actions, resolving) and ``turn`` (steps, passing priority), and ``settle``
(state-based actions and triggered abilities). Events are collected in ``self.events`` while one action
is applied.
"""

from __future__ import annotations

from collections.abc import Callable

from engine import core
from engine.core import Citations, Event
from engine.mtg import actions as parse_actions
from engine.mtg import combat, legality, settle, stack, turn, vehicles
from engine.mtg.candidates import candidates
from engine.mtg.state import MagicSnapshot, Paused, State
from engine.mtg.vehicles import Crewing


class MagicGame(core.Game[State]):
    """One two-player game of Magic under one edition's rules (``citations.edition``)."""

    game = "mtg"
    no_priority = "none"  # the published snapshot says "none" (docs/json.md)

    def __init__(self, state: State, citations: Citations):
        super().__init__(state, citations)
        self.opening = self._open()

    def _open(self) -> list[Event]:
        """Start at the scenario's step: its turn-based actions are taken as done and the active player
        holds priority, except in the steps without priority (untap, cleanup) and the declarations,
        which are run or awaited as in play. Returns what the rules did."""
        s = self.s
        phase, ap = s.step, s.turn_player
        if phase == "untap":
            turn.new_turn(self, next_player=False)
        elif phase == "cleanup":
            turn.cleanup(self)
        elif phase == "declare_attackers":
            combat.begin_declare_attackers(self)
        elif phase == "declare_blockers":
            if any(p.attacking for p in s.battlefield):
                combat.begin_declare_blockers(self)
            else:
                s.priority = ap
        elif phase in ("combat_damage", "combat_damage#2"):
            s.first_strike_step = phase == "combat_damage#2"
            if s.first_strike_step:  # taken as done: those with first strike or double strike now dealt it
                combat.remember_first_strikers(self)
            combat.damage_step(self)
        else:
            s.priority = ap
        out, self.events = self.events, []
        return out

    # -- engine.core.Game ------------------------------------------------------------------------------
    def plan(self, action: str) -> legality.Plan:
        return legality.check(self.s, parse_actions.parse(action), self.asking)

    def carry_out(self, plan: legality.Plan) -> None:
        if isinstance(plan, legality.Casting):
            stack.cast(self, plan)
        elif isinstance(plan, legality.StartCasting):
            stack.start_casting(self, plan)
        elif isinstance(plan, legality.AssigningDamage) and plan.asked:
            self._would_assign(plan)
        elif isinstance(plan, legality.AssigningDamage):
            combat.announce(self, plan)
        elif isinstance(plan, legality.OrderingTriggers):
            settle.order(self, plan.player, plan.order)
            self._after_decision()
        elif isinstance(plan, legality.AimingTrigger):
            settle.aim(self, plan)
            self._after_decision()
        elif isinstance(plan, legality.Paying):
            paused = self.s.paused
            assert paused is not None
            stack.decide_payment(self, plan)
            if self.s.paused is None:  # not stopped again (for another payment or a scry)
                turn.after_resolution(self, paused.item.name)
        elif isinstance(
            plan, legality.Scrying | legality.Picking | legality.Discarding | legality.Looking | legality.Choosing
        ):
            paused = self.s.paused
            assert paused is not None
            if isinstance(plan, legality.Scrying):
                stack.decide_scry(self, plan)
            elif isinstance(plan, legality.Discarding):
                stack.decide_discard(self, plan)
            elif isinstance(plan, legality.Looking):
                stack.decide_look(self, plan)
            elif isinstance(plan, legality.Choosing):
                stack.decide_may(self, plan)
            else:
                stack.decide_pick(self, plan)
            if self.s.paused is None:
                turn.after_resolution(self, paused.item.name)
        elif isinstance(plan, legality.PlayingLand):
            stack.play_land(self, plan)
        elif isinstance(plan, legality.Activating):
            stack.activate(self, plan)
        elif isinstance(plan, legality.Cycling):
            stack.cycle(self, plan)
        elif isinstance(plan, legality.Scavenging):
            stack.scavenge(self, plan)
        elif isinstance(plan, Crewing):
            vehicles.crew(self, plan)
        elif isinstance(plan, legality.Attacking):
            combat.declare_attackers(self, plan)
        elif isinstance(plan, legality.Blocking):
            combat.declare_blockers(self, plan)
        elif isinstance(plan, legality.Declining):
            stack.resume_offer(self)
        elif isinstance(plan, legality.Sacrificing):
            stack.sacrifice_offered(self, plan)
        elif isinstance(plan, legality.Pairing):
            stack.paired(self, plan)
        elif isinstance(plan, legality.Fabricating):
            stack.fabricated(self, plan)
        elif isinstance(plan, legality.Passing):
            turn.pass_priority(self, plan.player)
        else:
            turn.move_to(self, plan)

    def candidates(self) -> list[str]:
        return candidates(self.s)

    def _would_assign(self, plan: legality.AssigningDamage) -> None:
        """The answer to an ``ask:`` about an assignment the engine makes by itself: nothing is assigned."""
        listing = ", ".join(f"{a.amount} to {a.target.name}" for a in plan.assignments)
        keys = dict.fromkeys(k for a in plan.assignments for k in a.keys if k != "combat.chosen")
        total = sum(a.amount for a in plan.assignments)
        self.emit(
            f"As combat stands now, {plan.player} may assign {plan.attacker.name}'s {total} combat damage this "
            f"way: {listing}"
            if listing
            else f"As combat stands now, {plan.attacker.name} assigns no combat damage",
            *keys,
            "combat.assign",
        )

    # -- the protocol the steps call back through (engine.mtg.state.Game) --------------------------------
    def receive_priority(self, player: str, what: str, *keys: str) -> None:
        self.settle()
        if self.s.over:
            self.s.priority = None
            return
        if self.s.pending in ("triggers", "aim"):  # a player orders their triggers first; then ``player`` receives it
            self.s.resume, self.s.priority = (player, what, keys), None
            return
        self.s.priority = player
        self.emit(what, *keys)

    def settle(self) -> None:
        settle.settle(self)

    def decide_by_default(self) -> None:
        """A ``moves to`` passes a damage assignment or a trigger order nobody gave: the engine's way."""
        if self.s.pending == "damage":
            combat.assign_by_default(self)
        elif self.s.pending == "triggers":
            settle.order(self, self.s.deciding or self.s.turn_player, None)
            self._after_decision()

    def _after_decision(self) -> None:
        """The triggers are on the stack: the other player's next (APNAP), then whoever was to receive priority."""
        self.settle()
        if self.s.pending in ("triggers", "aim") or self.s.over:
            return
        if self.s.resume is not None:
            player, what, keys = self.s.resume
            self.s.resume = None
            self.receive_priority(player, what, *keys)

    def view(self) -> MagicSnapshot:
        s = self.s
        zone: dict[str, str] = {}
        controller: dict[str, str | None] = {}
        tapped, attacking, tokens = [], [], []
        damage: dict[str, int] = {}
        counters: dict[str, dict[str, int]] = {}
        attached: dict[str, int] = {}
        names = {}
        for p in s.battlefield:  # one pass over the battlefield: this runs after every step
            name = p.name
            zone[name] = "battlefield"
            controller[name] = p.controller
            names[p.oid] = name
            if p.tapped:
                tapped.append(name)
            if p.damage:
                damage[name] = p.damage
            if p.attacking:
                attacking.append(name)
            if p.counters:
                counters[name] = dict(p.counters)
            if p.attached_to is not None:
                attached[name] = p.attached_to
            if p.token:
                tokens.append(name)
        for item in s.stack:
            if item.card is not None:
                zone[item.name] = "stack"
        for label, z in (("hand", s.hand), ("library", s.library), ("graveyard", s.graveyard), ("exile", s.exile)):
            for cards in z.values():
                for c in cards:
                    if c.name != "a card":
                        zone[c.name] = label
        snap: MagicSnapshot = {
            "state": s.step,
            "phase": s.step,
            "turn_player": s.turn_player,
            "turn": s.turn_number,
            "priority": s.priority,
            "life": dict(s.life),
            "controller": controller,
            "zone": zone,
            "stack": [item.name for item in s.stack],
            "winner": s.winner,
            "tapped": tapped,
            "damage": damage,
            "hand": {p: [c.name for c in cards] for p, cards in s.hand.items()},
            "library": {p: len(cards) for p, cards in s.library.items()},
            "graveyard": {p: [c.name for c in cards] for p, cards in s.graveyard.items()},
            "mana_pool": {p: dict(m) for p, m in s.pool.items() if any(m.values())},
            "lands_played": dict(s.lands_played),
            "attacking": attacking,
            "blocking": {
                p.name: names[p.blocking] for p in s.battlefield if p.blocking is not None and p.blocking in names
            },
            "pending": s.pending,
        }
        # Issue 14's keys, present only when they say something (so older explanations read the same).
        if counters:
            snap["counters"] = counters
        if attached:
            snap["attached"] = {name: names.get(host, "nothing") for name, host in attached.items()}
        if tokens:
            snap["tokens"] = tokens
        if any(s.poison.values()):
            snap["poison"] = {p: n for p, n in s.poison.items() if n}
        if any(s.energy.values()):
            snap["energy"] = {p: n for p, n in s.energy.items() if n}
        says = AWAITING.get(s.pending or "")
        if says is not None:
            snap["awaiting"] = says(s, s.deciding or s.turn_player) or ""
        return snap


# What a player is waiting to decide, by the kind of pause (State.pending): a pause is a function and a
# line here, saying who decides what (None when the pause has lost what it is about). ``paused``: a
# pause of a resolving instruction, said from it (State.paused).
Awaiting = Callable[[State, str], "str | None"]
AWAITING: dict[str, Awaiting] = {}


def _awaits(pending: str, paused: bool = False) -> Callable[[Callable], Callable]:
    def register(says: Callable) -> Callable:
        if paused:
            AWAITING[pending] = lambda s, who: says(s.paused, who) if s.paused is not None else None
        else:
            AWAITING[pending] = says
        return says

    return register


@_awaits("damage")
def _assigning(s: State, who: str) -> str:
    names = ", ".join(p.name for p in (s.permanent(o) for o in s.awaiting) if p is not None)
    return f"{who} assigns the combat damage of {names}"


@_awaits("triggers")
def _ordering(s: State, who: str) -> str:
    return f"{who} orders triggers: " + ", ".join(t.name for t in s.pending_triggers if t.controller == who)


@_awaits("aim")
def _aiming(s: State, who: str) -> str:
    first = next((t for t in s.pending_triggers if t.controller == who and legality.to_decide(t)), None)
    what = "mode and targets" if first is not None and legality.trigger_modes(first) else "targets"
    return f"{who} chooses the {what} of {first.name if first else 'a triggered ability'}"


@_awaits("mode")
def _choosing_mode(s: State, who: str) -> str | None:
    return f"{who} chooses a mode of {s.casting.card.name}" if s.casting is not None else None


@_awaits("pay", paused=True)
def _paying(p: Paused, who: str) -> str:
    return f"{who} pays {p.mana or '{' + str(p.amount) + '}'} or not ({p.item.name})"


@_awaits("may", paused=True)
def _accepting(p: Paused, who: str) -> str:
    return f"{who} accepts or declines what {p.item.name} offers"


@_awaits("look", paused=True)
def _taking(p: Paused, who: str) -> str:
    return f"{who} takes cards from those looked at ({p.item.name})"


@_awaits("discard", paused=True)
def _discarding(p: Paused, who: str) -> str:
    return f"{who} discards {p.amount} card(s) ({p.item.name})"


@_awaits("pick", paused=True)
def _picking(p: Paused, who: str) -> str:
    return f"{who} chooses a card from {p.whose}'s hand ({p.item.name})"


@_awaits("offer", paused=True)
def _offered(p: Paused, who: str) -> str:
    return f"{who} casts the card {p.item.name} offers, or declines"


@_awaits("scry", paused=True)
def _scrying(p: Paused, who: str) -> str:
    return f"{who} scries {p.amount} ({p.item.name}): where each card looked at goes"
