"""The Riftbound engine: one game, stepped by action sentences (the :class:`engine.core.Engine` protocol).

>>> from engine.core import Citations
>>> from engine.riftbound.build import build
>>> import yaml, pathlib
>>> table = yaml.safe_load((pathlib.Path(__file__).parents[2] / "data/citations/riftbound-v1.2.yaml").read_text())
>>> g = RiftboundGame(build({"players": ["Ana", "Ben"], "turn": {"player": "Ana", "phase": "main"},
...     "state": {"battlefields": [{"name": "Grove"}],
...               "units": [{"name": "Jinx", "controller": "Ana", "at": "base", "might": 3}]}}),
...     Citations("riftbound", "v1.2", table["citations"]))
>>> [e.rules for e in g.apply("Ana moves Jinx to Grove")][-1]
('322.13', '340', '340.2', '316.5.b.1', '341', '313.2', '312.2.b')
>>> g.snapshot()["state"], g.snapshot()["focus"]
('showdown open', 'Ana')
"""

from __future__ import annotations

import copy

from engine import core
from engine.core import Citations, Event, ScenarioError
from engine.riftbound import actions as A
from engine.riftbound import board, chain, combat, legality, replacement, settle, showdown, turn
from engine.riftbound.candidates import candidates
from engine.riftbound.state import Card, State, Suspended, might


class RiftboundGame(core.Game[State]):
    game = "riftbound"

    def __init__(self, state: State, citations: Citations):
        super().__init__(state, citations)
        self.answers: tuple[tuple[str, ...], ...] = ()  # replacement orders known while an action is carried out
        self.answer_i = 0
        self.replacing: tuple[str, ...] = ()  # replacement effects being carried out (they do not apply again)
        # What the rules did before the first action (the phases from turn.phase up to a decision).
        try:
            self.opening = self._run(self._open)
        except replacement.Pause as pause:
            raise ScenarioError(("turn", "phase"), f"before the first action {pause.awaiting.player} would have to "
                                                   "order replacement effects; start the scenario in a later phase") from None

    def _run(self, step) -> list[Event]:
        self.events = []
        step()
        self._settle()
        out, self.events = self.events, []
        return out

    # --- the Engine protocol ----------------------------------------------------------------
    def apply(self, action: str) -> list[Event]:
        parsed = A.parse(action, self._names())
        if isinstance(parsed, A.Order):
            return self._order(parsed)
        if self.s.awaiting is not None and self.s.awaiting.kind == "order":
            legality.may_act(self, parsed.player)  # illegal: the rules wait for the order
        before = copy.deepcopy(self.s)
        return self._carry_out(Suspended(before, action, (), 0))

    def _carry_out(self, job: Suspended) -> list[Event]:
        """Carry ``job.action`` out with the replacement orders known so far; stop at the next one wanted."""
        self.answers, self.answer_i, self.s.suspended = job.answers, 0, None
        self.events = []
        try:
            self._dispatch(A.parse(job.action, self._names()))
            self._settle()
        except replacement.Pause as pause:
            shown = len(self.events)
            self.s.awaiting = pause.awaiting
            self.s.priority = None  # no one has Priority while the rules wait for a limited choice (312.1.b.1)
            self.emit(pause.message, *pause.keys)
            self.s.suspended = Suspended(job.before, job.action, job.answers, shown)
        out, self.events = self.events[job.shown:], []
        self.answers, self.answer_i = (), 0
        return out

    def next_answer(self) -> tuple[str, ...] | None:
        """The next replacement order given for the action being carried out, or None: ask for it."""
        if self.answer_i >= len(self.answers):
            return None
        self.answer_i += 1
        return self.answers[self.answer_i - 1]

    def view(self) -> core.Snapshot:
        s = self.s
        chain_items = [i.label for i in s.chain]
        return {
            "state": s.state_name,
            "phase": s.phase,
            "turn": s.turn_number,
            "turn_player": s.turn_player,
            "priority": s.priority,
            "focus": s.focus,
            "points": dict(s.points),
            "controller": {bf.name: bf.controller for bf in s.battlefields.values()},
            "contested": {bf.name: bf.contested_by for bf in s.battlefields.values() if bf.contested_by},
            "zone": {c.name: self._zone(c) for c in s.cards.values()},
            "chain": chain_items,
            "showdown": s.bf(s.showdown.at).name if s.showdown else None,
            "combat": ({"at": s.bf(s.combat.at).name, "attacker": s.combat.attacker, "defender": s.combat.defender}
                       if s.combat else None),
            "staged": [s.bf(k).name for k in s.staged_showdowns] + [s.bf(k).name for k in s.staged_combats],
            "awaiting": (f"{s.awaiting.player} to {_AWAITING.get(s.awaiting.kind, 'choose a battlefield')}"
                         if s.awaiting else None),
            "units": {u.name: {"at": u.location, "controller": u.controller, "might": might(u), "damage": u.damage,
                               "exhausted": u.exhausted, **({"designation": u.designation} if u.designation else {}),
                               **({"stunned": True} if u.stunned else {})} for u in s.units()},
            "hand": {p: len(s.hand(p)) + s.hand_unnamed[p] for p in s.players},
            "deck": {p: len(s.deck[p]) for p in s.players},
            "winner": s.winner,
        }

    @staticmethod
    def _zone(card: Card) -> str:
        if card.zone == "battlefield":
            return card.at
        return card.zone

    # --- dispatch ---------------------------------------------------------------------------
    def _names(self) -> A.Names:
        s = self.s
        objects = [c.name for c in s.cards.values()] + [i.label for i in s.chain if i.card is None]
        return A.Names(players=list(s.players), objects=objects, places=[b.name for b in s.battlefields.values()])

    def _card(self, name: str) -> Card:
        card = self.s.cards.get(name.lower())
        if card is None:
            raise ScenarioError((), f'"{name}" is not a card')
        return card

    def _dispatch(self, a) -> None:
        s = self.s
        if isinstance(a, A.Play):
            chain.play(self, a.player, self._card(a.card), a.place, list(a.targets))
        elif isinstance(a, A.Activate):
            chain.activate(self, a.player, self._card(a.obj), a.place, list(a.targets))
        elif isinstance(a, A.Move):
            self._standard_move(a)
        elif isinstance(a, A.Hide):
            self._hide(a)
        elif isinstance(a, A.Pass):
            legality.may_act(self, a.player)
            if s.chain:
                chain.pass_priority(self, a.player)
            elif s.showdown:
                showdown.pass_focus(self, a.player)
            else:
                self.emit(f"{a.player} passes with nothing on the Chain and no Showdown: {a.player} chooses to take no "
                          "more Discretionary Actions, so the Action Phase ends", "turn.phase_ends", "turn.ending_turn")
                turn.end_turn(self, a.player)
        elif isinstance(a, A.EndTurn):
            self._end_turn(a.player)
        elif isinstance(a, A.Choose):
            self._choose(a)
        elif isinstance(a, A.Assign):
            self._assign(a)

    def _open(self) -> None:
        if self.s.phase != "main":
            turn.enter(self, self.s.phase)

    def _settle(self) -> None:
        """Run what the rules make automatic until a player must decide."""
        s = self.s
        for _ in range(1000):
            if s.winner or s.awaiting:
                s.priority = None  # no one has Priority while the rules wait for a limited choice (312.1.b.1)
                return
            if s.chain:
                if s.priority_to_newest or s.priority is None:
                    key = s.priority_to_newest or "chain.newest_controller_priority"
                    s.priority_to_newest = ""
                    chain.give_priority_to_newest(self, key)
                return
            s.priority_to_newest = ""
            if s.showdown:
                return
            if s.phase != "main":
                turn.next_phase(self)
                continue
            if s.priority != s.turn_player:
                s.priority = s.turn_player
                self.emit(f"The turn is Neutral Open in {s.turn_player}'s Action Phase: {s.turn_player} receives Priority",
                          "priority.neutral_open_action_phase", "state.neutral", "state.open")
            return
        raise RuntimeError("the engine did not settle")  # pragma: no cover

    # --- actions ----------------------------------------------------------------------------
    def _standard_move(self, a: A.Move) -> None:
        s = self.s
        units = []
        for name in a.units:
            u = self._card(name)
            if not (u.is_unit and u.on_board):
                raise ScenarioError((), f"{u.name} is not a unit on the board (it is in the {u.zone})")
            if u.controller != a.player:
                raise ScenarioError((), f"{u.name} is controlled by {u.controller}, not {a.player}")
            units.append(u)
        if a.player != s.turn_player:
            self.illegal(f"the Standard Move is made in its controller's own Action Phase; it is {s.turn_player}'s turn",
                         "move.action_phase", "action.own_turn")
        legality.may_act(self, a.player)
        if s.chain:
            self.illegal("the Standard Move cannot be made in a Closed State", "move.not_closed")
        if s.showdown:
            self.illegal("the Standard Move cannot be made during a Showdown", "move.not_showdown")
        dest = a.place
        for u in units:
            origin = u.location
            if origin.lower() == dest.lower():
                self.illegal(f"{u.name} is already at {origin}", "move.between_locations")
            if u.exhausted:
                self.illegal(f"{u.name} is exhausted: the Standard Move's cost (exhausting it) cannot be paid",
                             "exhaust.cost_must_complete", "move.standard_cost")
            if origin != "base" and dest.lower() != "base" and not u.has("Ganking"):
                self.illegal(f"{u.name} is at {origin}, a battlefield: without Ganking a unit's Standard Move goes only "
                             "from its base to a battlefield or back", "move.ganking", "move.base_to_battlefield",
                             "move.battlefield_to_base")
        if dest.lower() != "base":
            others = [p for p in s.players_at(dest) if p != a.player]
            if len(others) >= 2:
                self.illegal(f"{dest} already has units of two other players", "move.not_two_other_players")
        for u in units:
            u.exhausted = True
        to_base = dest.lower() == "base"
        ganked = any(u.location != "base" and not to_base for u in units)
        route = "move.battlefield_to_base" if to_base else "move.ganking" if ganked else "move.base_to_battlefield"
        keys = ("move.standard_is_discretionary", route, *(("move.simultaneous",) if len(units) > 1 else ()))
        self.emit(f"{a.player} exhausts {', '.join(u.name for u in units)} to pay for the Standard Move", "move.standard_cost",
                  "exhaust.action")
        board.move_units(self, a.player, units, dest, *keys)
        settle.run(self)

    def _hide(self, a: A.Hide) -> None:
        s = self.s
        card = self._card(a.card)
        if card.zone != "hand" or card.owner != a.player:
            raise ScenarioError((), f'no card named "{card.name}" in {a.player}\'s hand')
        if a.place.lower() == "base":
            self.illegal("a card is hidden at a battlefield, not at a base", "hide.places_facedown")
        if a.player != s.turn_player:
            self.illegal(f"a card is hidden on its owner's own turn; it is {s.turn_player}'s turn", "hide.timing_and_cost")
        legality.may_act(self, a.player)
        if s.chain:
            self.illegal("a card is hidden only in an Open State", "hide.timing_and_cost")
        if not card.has("Hidden"):
            self.illegal(f"{card.name} has no Hidden keyword: it cannot be hidden", "hide.needs_keyword")
        bf = s.bf(a.place)
        if bf.controller != a.player:
            self.illegal(f"{a.player} does not control {bf.name}: a card is hidden only at a battlefield you control",
                         "hide.places_facedown", "hide.timing_and_cost")
        if bf.facedown:
            self.illegal(f"a card is already hidden at {bf.name}", "hide.one_card_per_battlefield")
        if s.runes[a.player] is not None:
            if s.runes[a.player] < 1:
                self.illegal(f"{a.player} has no rune to recycle for the cost", "recycle.cost_must_complete")
            s.runes[a.player] -= 1
        card.zone, card.at, card.controller, card.hidden_turn = "facedown", bf.name, a.player, s.turn_number
        bf.facedown = card.key
        self.emit(f"{a.player} recycles a rune and hides {card.name} facedown at {bf.name} (no chain opens); "
                  "from the next turn on it can be played for free as a Reaction",
                  "hide.is_discretionary", "hide.places_facedown", "hide.timing_and_cost", "recycle.runes", "hide.no_chain")
        settle.run(self)

    def _end_turn(self, player: str) -> None:
        s = self.s
        if player != s.turn_player:
            self.illegal(f"only the Turn Player ({s.turn_player}) ends the turn", "turn.ending_turn", "turn.turn_player")
        legality.may_act(self, player)
        if s.chain:
            self.illegal("the turn cannot end while the Chain has items", "turn.phase_ends")
        if s.showdown:
            self.illegal("the turn cannot end during a Showdown: it ends when all players pass in sequence",
                         "turn.phase_ends", "showdown.ends_all_passed")
        turn.end_turn(self, player)

    def _choose(self, a: A.Choose) -> None:
        s = self.s
        w = s.awaiting
        if w is None or w.kind not in ("showdown", "combat"):
            self.illegal("nothing is there to choose: a player chooses only when the rules ask",
                         "action.limited_only_when_instructed")
        key = "cleanup.begin_showdown" if w.kind == "showdown" else "cleanup.begin_combat"
        if a.player != w.player:
            self.illegal(f"the Turn Player ({w.player}) chooses", key)
        if a.place.lower() not in [o.lower() for o in w.options]:
            self.illegal(f"{a.place} is not one of the battlefields to choose from ({', '.join(w.options)})", key)
        s.awaiting = None
        self.emit(f"{a.player} chooses {s.bf(a.place).name}", key, "priority.limited_actions_regardless")
        settle.begin(self, w.kind, a.place.lower())
        settle.run(self)

    def _assign(self, a: A.Assign) -> None:
        s = self.s
        w = s.awaiting
        if w is None or w.kind != "assign":
            self.illegal("no combat damage is waiting to be assigned", "action.limited_only_when_instructed")
        if a.player != w.player:
            self.illegal(f"{w.player} assigns damage now, not {a.player}", "combat.assign")
        damage: dict[str, int] = {}
        for name, n in a.damage:
            damage[self._card(name).name] = damage.get(self._card(name).name, 0) + n
        targets = [self._card(n) for n in w.options]
        problem = combat.check_assignment(damage, w.amount, targets)
        if problem:
            self.illegal(problem[0], problem[1], "combat.assign")
        s.awaiting = None
        combat.record(self, a.player, {u.name: damage.get(u.name, 0) for u in targets}, chosen=True)
        combat.next_assignment(self)

    def _order(self, a: A.Order) -> list[Event]:
        """``P orders replacements: A, B`` answers the question an interrupted action stopped at (368)."""
        w = self.s.awaiting
        if w is None or w.kind != "order" or self.s.suspended is None:
            self.illegal("no replacement effects are waiting to be ordered: a player orders them only when several "
                         "apply to the same event", "action.limited_only_when_instructed", "replacement.owner_orders")
        who = {"replacement.owner_orders": "who owns the object acted on",
               "replacement.player_orders": "the player acted on",
               "replacement.turn_player_orders_battlefield": "the Turn Player, for an uncontrolled battlefield"}[w.reason]
        if a.player != w.player:
            self.illegal(f"{w.player}, {who}, decides the order of the replacement effects ({w.about}), not {a.player}",
                         w.reason)
        order = tuple(self._card(n).name for n in a.sources)
        if sorted(o.lower() for o in order) != sorted(o.lower() for o in w.options):
            self.illegal(f"the order must name each replacement effect that applies once: {', '.join(w.options)}",
                         w.reason)
        job = self.s.suspended
        self.restore(copy.deepcopy(job.before))  # carry the action out again, from before it
        return self._carry_out(Suspended(job.before, job.action, (*job.answers, order), job.shown))

    # --- for tools and tests ----------------------------------------------------------------
    def candidates(self) -> list[str]:
        """Sentences worth trying now (a superset of the legal actions; some may be illegal)."""
        return candidates(self)


_AWAITING = {"assign": "assign combat damage", "order": "order replacement effects"}
