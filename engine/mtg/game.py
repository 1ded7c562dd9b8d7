"""The Magic game: state, priority, the action dispatcher and the snapshot.

The rules live in small modules that act on a :class:`MagicGame`: ``turn`` (phases and steps),
``stack`` (casting, special actions, resolving), ``combat`` and ``sba`` (state-based actions and
triggered abilities). Events are collected in ``self.events`` while one action is applied.
"""

from __future__ import annotations

from engine import core
from engine.core import Citations, Event
from engine.mtg import actions as parse_actions
from engine.mtg.state import ORDER, PHASES, SECOND_DAMAGE, State


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
        from engine.mtg import combat, turn

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
            combat.damage_step(self)
        else:
            s.priority = ap
        out, self.events = self.events, []
        return out

    # -- priority ----------------------------------------------------------------------------------
    def require_priority(self, player: str, doing: str) -> None:
        if self.s.over:
            self.illegal(f"the game is over: {self.s.winner or 'nobody'} won", "game.over")
        if self.s.priority == player:
            return
        if self.s.priority is None:
            why = {"attackers": f"{self.s.turn_player} must first declare attackers",
                   "blockers": f"{self.s.defending} must first declare blockers"}.get(self.s.pending or "", "")
            key = {"attackers": "turn.declare_attackers", "blockers": "turn.declare_blockers"}.get(self.s.pending or "")
            keys = ("priority.who_acts",) + ((key,) if key else ())
            self.illegal(f"{player} cannot {doing}: nobody has priority" + (f" ({why})" if why else ""), *keys)
        self.illegal(f"{player} cannot {doing}: {self.s.priority} has priority, not {player}", "priority.who_acts")

    def receive_priority(self, player: str, what: str, *keys: str) -> None:
        """Someone would receive priority: state-based actions and triggers first (117.5)."""
        from engine.mtg.settle import settle

        settle(self)
        if self.s.over:
            self.s.priority = None
            return
        self.s.priority = player
        self.emit(what, *keys)

    def pass_priority(self, player: str) -> None:
        from engine.mtg.stack import resolve_top
        from engine.mtg.turn import advance

        self.require_priority(player, "pass priority")
        self.s.passes += 1
        if self.s.passes < len(self.s.players):
            nxt = self.s.players[(self.s.players.index(player) + 1) % len(self.s.players)]
            self.receive_priority(nxt, f"{player} passes priority; {nxt} receives priority", "priority.pass")
            return
        self.s.passes = 0
        self.s.priority = None
        if self.s.stack:
            top = self.s.stack[-1]
            self.emit(f"{player} passes priority. All players passed in succession: {top.name} resolves",
                     "priority.all_pass", "stack.resolve_top", "resolve.spell")
            resolve_top(self)
            self.receive_priority(self.s.turn_player, f"{self.s.turn_player} receives priority after {top.name} resolved",
                                  "priority.after_resolution")
        else:
            from engine.mtg.state import TITLE
            self.emit(f"{player} passes priority. All players passed in succession with the stack empty: "
                     f"the {TITLE[self.s.step]} ends", "priority.all_pass", "stack.resolve_top", "turn.step_ends")
            advance(self)

    # -- the Engine protocol -----------------------------------------------------------------------
    def apply(self, action: str) -> list[Event]:
        from engine.mtg import combat, stack, turn

        self.events = []
        act = parse_actions.parse(action)
        player = self.s.player_named(act.player)
        if self.s.over:
            self.illegal(f"the game is over: {self.s.winner or 'nobody'} won", "game.over")
        if act.verb == "cast":
            stack.cast(self, player, act.names[0], act.targets)
        elif act.verb == "play":
            stack.play(self, player, act.names[0], act.targets)
        elif act.verb == "activate":
            stack.activate(self, player, act.names[0], act.targets)
        elif act.verb == "attack":
            combat.declare_attackers(self, player, act.names)
        elif act.verb == "block":
            combat.declare_blockers(self, player, act.pairs)
        elif act.verb == "pass":
            self.pass_priority(player)
        elif act.verb == "move":
            turn.move_to(self, player, act.names[0])
        return self.events

    def view(self) -> core.Snapshot:
        zone: dict[str, str] = {}
        for p in self.s.battlefield:
            zone[p.name] = "battlefield"
        for s in self.s.stack:
            if s.card is not None:
                zone[s.name] = "stack"
        for label, z in (("hand", self.s.hand), ("library", self.s.library), ("graveyard", self.s.graveyard)):
            for cards in z.values():
                for c in cards:
                    if c.name != "a card":
                        zone[c.name] = label
        return {
            "state": self.s.step,
            "phase": self.s.step,
            "turn_player": self.s.turn_player,
            "turn": self.s.turn_number,
            "priority": self.s.priority,
            "life": dict(self.s.life),
            "controller": {p.name: p.controller for p in self.s.battlefield},
            "zone": zone,
            "stack": [s.name for s in self.s.stack],
            "winner": self.s.winner,
            "tapped": [p.name for p in self.s.battlefield if p.tapped],
            "damage": {p.name: p.damage for p in self.s.battlefield if p.damage},
            "hand": {p: [c.name for c in cards] for p, cards in self.s.hand.items()},
            "library": {p: len(cards) for p, cards in self.s.library.items()},
            "graveyard": {p: [c.name for c in cards] for p, cards in self.s.graveyard.items()},
            "mana_pool": {p: dict(m) for p, m in self.s.pool.items() if any(m.values())},
            "lands_played": dict(self.s.lands_played),
            "attacking": [p.name for p in self.s.battlefield if p.attacking],
            "blocking": {p.name: self.s.permanent(p.blocking).name for p in self.s.battlefield
                         if p.blocking is not None and self.s.permanent(p.blocking)},
            "pending": self.s.pending,
        }


def step_position(step: str) -> float:
    return ORDER[step]


__all__ = ["MagicGame", "PHASES", "SECOND_DAMAGE", "step_position"]
