"""The Magic game: state, priority, the action dispatcher and the snapshot.

The rules live in small modules that act on a :class:`MagicGame`: ``turn`` (phases and steps),
``stack`` (casting, special actions, resolving), ``combat`` and ``sba`` (state-based actions and
triggered abilities). Events are collected in ``self.events`` while one action is applied.
"""

from __future__ import annotations

import difflib
from typing import Any

from engine.core import Citations, Event, ScenarioError
from engine.mtg import actions as parse_actions
from engine.mtg.state import (
    ORDER, PHASES, SECOND_DAMAGE, Card, CardDef, PendingTrigger, Permanent, StackItem,
)


def suggest(word: str, choices: list[str]) -> str:
    """`` (did you mean "X"?)`` or ``""``."""
    by_lower = {c.lower(): c for c in choices}
    close = difflib.get_close_matches(word.lower(), list(by_lower), n=1, cutoff=0.6)
    return f' (did you mean "{by_lower[close[0]]}"?)' if close else ""


class MagicGame:
    """One two-player game of Magic under one edition's rules (``citations.edition``)."""

    game = "mtg"

    def __init__(self, citations: Citations):
        self.cite = citations
        self.edition = citations.edition
        self.players: list[str] = []
        self.life: dict[str, int] = {}
        self.hand: dict[str, list[Card]] = {}
        self.library: dict[str, list[Card]] = {}
        self.graveyard: dict[str, list[Card]] = {}
        self.battlefield: list[Permanent] = []
        self.stack: list[StackItem] = []
        self.cards: dict[str, CardDef] = {}      # lower-case base name -> definition
        self.step = "main1"
        self.turn_player = ""
        self.turn_number = 2                      # 1: the starting player's first turn (103.8a)
        self.priority: str | None = None
        self.passes = 0                           # passes in succession since the last action
        self.pending: str | None = None           # "attackers" / "blockers": a declaration is due
        self.first_strike_step = False
        self.left_combat: list[Permanent] = []   # attackers and blockers that left the battlefield this combat
        self.lands_played: dict[str, int] = {}
        self.pool: dict[str, dict[str, int]] = {}
        self.pending_triggers: list[PendingTrigger] = []
        self.trigger_order: dict[str, list[str]] = {}
        self.drew_from_empty: set[str] = set()
        self.lost: set[str] = set()
        self.winner: str | None = None
        self.costs_ignore = False
        self.next_oid = 1
        self.opening: list[Event] = []            # what happened before the first action (an untap start)
        self.events: list[Event] = []

    def __deepcopy__(self, memo):
        # The citation table and the card definitions never change during a game: share them.
        import copy

        clone = type(self).__new__(type(self))
        memo[id(self)] = clone
        for key, value in self.__dict__.items():
            clone.__dict__[key] = value if key in ("cite", "cards") else copy.deepcopy(value, memo)
        return clone

    # -- small helpers -------------------------------------------------------------------------
    @property
    def old(self) -> bool:
        """The 2008 rules: combat damage uses the stack, mana burn."""
        return self.edition.startswith("2008")

    @property
    def over(self) -> bool:
        return bool(self.lost)

    @property
    def phase(self) -> str:
        return self.step

    def say(self, what: str, *keys: str) -> None:
        self.events.append(self.cite.event(what, *keys))

    def illegal(self, message: str, *keys: str) -> None:
        self.cite.illegal(message, *keys)

    def oid(self) -> int:
        self.next_oid += 1
        return self.next_oid

    def other(self, player: str) -> str:
        return next(p for p in self.players if p != player)

    @property
    def defending(self) -> str:
        return self.other(self.turn_player)

    def apnap(self) -> list[str]:
        i = self.players.index(self.turn_player)
        return self.players[i:] + self.players[:i]

    def definition(self, name: str) -> CardDef | None:
        from engine.mtg.state import base_name
        return self.cards.get(base_name(name).lower())

    def permanent(self, oid: int) -> Permanent | None:
        return next((p for p in self.battlefield if p.oid == oid), None)

    def on_stack(self, oid: int) -> StackItem | None:
        return next((s for s in self.stack if s.oid == oid), None)

    # -- names -----------------------------------------------------------------------------------
    def player_named(self, name: str) -> str:
        for p in self.players:
            if p.lower() == name.lower():
                return p
        raise ScenarioError((), f'no player named "{name}"{suggest(name, self.players)}')

    def all_names(self) -> list[str]:
        names = [p.name for p in self.battlefield] + [s.name for s in self.stack]
        for zone in (self.hand, self.library, self.graveyard):
            for cards in zone.values():
                names += [c.name for c in cards if c.name != "a card"]
        return names

    @staticmethod
    def _match(name: str, candidates):
        """Exact (case-insensitive) name first, then a duplicate written without its ``#n``."""
        low = name.lower()
        for c in candidates:
            if c.name.lower() == low:
                return c
        if "#" not in low:
            for c in candidates:
                if c.name.lower().split("#")[0] == low:
                    return c
        return None

    def find_permanent(self, name: str) -> Permanent | None:
        return self._match(name, self.battlefield)

    def where(self, name: str) -> str | None:
        """A description of where an object named ``name`` is, or None when there is none."""
        if self._match(name, self.battlefield):
            return "on the battlefield"
        if self._match(name, self.stack):
            return "on the stack"
        for zone, label in ((self.hand, "hand"), (self.graveyard, "graveyard"), (self.library, "library")):
            for owner, cards in zone.items():
                if self._match(name, cards):
                    return f"in {owner}'s {label}"
        return None

    def unknown(self, name: str, what: str = "object") -> ScenarioError:
        return ScenarioError((), f'no {what} named "{name}"{suggest(name, self.all_names() + self.players)}')

    # -- priority ----------------------------------------------------------------------------------
    def require_priority(self, player: str, doing: str) -> None:
        if self.over:
            self.illegal(f"the game is over: {self.winner or 'nobody'} won", "game.over")
        if self.priority == player:
            return
        if self.priority is None:
            why = {"attackers": f"{self.turn_player} must first declare attackers",
                   "blockers": f"{self.defending} must first declare blockers"}.get(self.pending or "", "")
            key = {"attackers": "turn.declare_attackers", "blockers": "turn.declare_blockers"}.get(self.pending or "")
            keys = ("priority.who_acts",) + ((key,) if key else ())
            self.illegal(f"{player} cannot {doing}: nobody has priority" + (f" ({why})" if why else ""), *keys)
        self.illegal(f"{player} cannot {doing}: {self.priority} has priority, not {player}", "priority.who_acts")

    def receive_priority(self, player: str, what: str, *keys: str) -> None:
        """Someone would receive priority: state-based actions and triggers first (117.5)."""
        from engine.mtg.sba import settle

        settle(self)
        if self.over:
            self.priority = None
            return
        self.priority = player
        self.say(what, *keys)

    def pass_priority(self, player: str) -> None:
        from engine.mtg.stack import resolve_top
        from engine.mtg.turn import advance

        self.require_priority(player, "pass priority")
        self.passes += 1
        if self.passes < len(self.players):
            nxt = self.players[(self.players.index(player) + 1) % len(self.players)]
            self.receive_priority(nxt, f"{player} passes priority; {nxt} receives priority", "priority.pass")
            return
        self.passes = 0
        self.priority = None
        if self.stack:
            top = self.stack[-1]
            self.say(f"{player} passes priority. All players passed in succession: {top.name} resolves",
                     "priority.all_pass", "stack.resolve_top", "resolve.spell")
            resolve_top(self)
            self.receive_priority(self.turn_player, f"{self.turn_player} receives priority after {top.name} resolved",
                                  "priority.after_resolution")
        else:
            from engine.mtg.state import TITLE
            self.say(f"{player} passes priority. All players passed in succession with the stack empty: "
                     f"the {TITLE[self.step]} ends", "priority.all_pass", "stack.resolve_top", "turn.step_ends")
            advance(self)

    # -- the Engine protocol -----------------------------------------------------------------------
    def apply(self, action: str) -> list[Event]:
        from engine.mtg import combat, stack, turn

        self.events = []
        act = parse_actions.parse(action)
        player = self.player_named(act.player)
        if self.over:
            self.illegal(f"the game is over: {self.winner or 'nobody'} won", "game.over")
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

    def snapshot(self) -> dict[str, Any]:
        zone: dict[str, str] = {}
        for p in self.battlefield:
            zone[p.name] = "battlefield"
        for s in self.stack:
            if s.card is not None:
                zone[s.name] = "stack"
        for label, z in (("hand", self.hand), ("library", self.library), ("graveyard", self.graveyard)):
            for cards in z.values():
                for c in cards:
                    if c.name != "a card":
                        zone[c.name] = label
        return {
            "state": self.step,
            "phase": self.step,
            "turn_player": self.turn_player,
            "turn": self.turn_number,
            "priority": self.priority or "none",
            "life": dict(self.life),
            "controller": {p.name: p.controller for p in self.battlefield},
            "zone": zone,
            "stack": [s.name for s in self.stack],
            "winner": self.winner,
            "tapped": [p.name for p in self.battlefield if p.tapped],
            "damage": {p.name: p.damage for p in self.battlefield if p.damage},
            "hand": {p: [c.name for c in cards] for p, cards in self.hand.items()},
            "library": {p: len(cards) for p, cards in self.library.items()},
            "graveyard": {p: [c.name for c in cards] for p, cards in self.graveyard.items()},
            "mana_pool": {p: dict(m) for p, m in self.pool.items() if any(m.values())},
            "lands_played": dict(self.lands_played),
            "attacking": [p.name for p in self.battlefield if p.attacking],
            "blocking": {p.name: self.permanent(p.blocking).name for p in self.battlefield
                         if p.blocking is not None and self.permanent(p.blocking)},
            "pending": self.pending,
        }


def step_position(step: str) -> float:
    return ORDER[step]


__all__ = ["MagicGame", "PHASES", "SECOND_DAMAGE", "suggest", "step_position"]
