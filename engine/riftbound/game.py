"""The Riftbound engine: one game, stepped by action sentences (the :class:`engine.core.Engine` protocol).

>>> from engine.core import Citations, Timeline
>>> from engine.riftbound.build import build
>>> import yaml, pathlib
>>> data = pathlib.Path(__file__).parents[2] / "data"
>>> table = yaml.safe_load((data / "citations/riftbound-v1.2.yaml").read_text())
>>> timeline = Timeline.from_data(yaml.safe_load((data / "editions/riftbound.yaml").read_text()))
>>> g = RiftboundGame(build({"players": ["Ana", "Ben"], "turn": {"player": "Ana", "phase": "main"},
...     "state": {"battlefields": [{"name": "Grove"}],
...               "units": [{"name": "Jinx", "controller": "Ana", "at": "base", "might": 3}]}}),
...     Citations("riftbound", "v1.2", table["citations"], timeline=timeline))
>>> [e.rules for e in g.apply("Ana moves Jinx to Grove")][-1]
('322.13', '340', '340.2', '316.5.b.1', '341', '313.2', '312.2.b')
>>> g.snapshot()["state"], g.snapshot()["focus"]
('showdown open', 'Ana')
"""

from __future__ import annotations

import copy
import functools
from dataclasses import dataclass

from engine import core
from engine.core import Citations, EngineError, ScenarioError
from engine.riftbound import actions as A
from engine.riftbound import board, chain, combat, effects, instructions, legality, replacement, settle, showdown, turn
from engine.riftbound.candidates import candidates
from engine.riftbound.effects import Instruction
from engine.riftbound.state import BOARD_ZONES, Card, CardDef, ChainItem, RiftboundSnapshot, State, Suspended


@dataclass(frozen=True)
class Checked:
    """An action sentence and the plan :mod:`engine.riftbound.legality` made for it."""

    action: str
    plan: legality.Plan


class RiftboundGame(core.Game[State]):
    """One game of Riftbound: :class:`engine.core.Game` with the Riftbound steps, and the
    :class:`engine.riftbound.state.Game` protocol the steps call back through."""

    game = "riftbound"

    def __init__(self, state: State, citations: Citations):
        super().__init__(state, citations)
        # The rules in force at the date explained (data/editions/riftbound.yaml): the Spiritforged FAQ's
        # rulings and errata from 2026-01-14, whichever table numbers them.
        state.deflect_each_choice = citations.follows("deflect.each_choice")
        state.rulings = frozenset(k for k in FAQ_RULINGS if citations.follows(k))
        self.answers: tuple[tuple[str, ...], ...] = ()  # replacement orders known while an action is carried out
        self.answer_i = 0
        self.replacing: tuple[str, ...] = ()  # replacement effects being carried out (they do not apply again)
        # Only where an action may stop half-way for a player's limited choice (the order of two replacement
        # effects, 368; a triggered ability's targets, 390.1) is the state before an action kept, to carry the
        # action out again once the choice is made.
        self.may_pause = (
            sum(1 for c in state.cards.values() if c.defn.replacement is not None) >= 2
            or any(_may_stop(c.defn) for c in state.cards.values())
            or any(_may_stop(b.defn) for b in state.battlefields.values())
        )
        # What the rules did before the first action (the phases from turn.phase up to a decision).
        before = copy.deepcopy(state) if self.may_pause else None
        self.events = []
        try:
            self._open()
            settle.until_decision(self)
        except replacement.Pause as pause:
            if pause.awaiting.kind == "order":
                raise ScenarioError(
                    ("turn", "phase"),
                    f"before the first action {pause.awaiting.player} would have to "
                    "order replacement effects; start the scenario in a later phase",
                ) from None
            assert before is not None
            self._stop(pause, before, "", ())
        self.opening, self.events = self.events, []

    def _open(self) -> None:
        for bf in self.s.battlefields.values():  # "Increase the points needed to win the game by 1"
            for passive in bf.defn.passives:
                if passive[0] == "victory_plus":
                    self.s.victory_score += passive[1]
                    self.emit(
                        f"{bf.name}: the points needed to win the game are increased by {passive[1]}: the Victory "
                        f"Score is {self.s.victory_score}",
                        "passive.statement",
                        "victory.score",
                        "text.card_supersedes",
                    )
        if self.s.phase != "main":
            turn.enter(self, self.s.phase)

    # --- engine.core.Game -----------------------------------------------------------------------
    def plan(self, action: str) -> Checked:
        return Checked(action, legality.check(self.s, A.parse(action, self._names())))

    def carry_out(self, checked: Checked) -> None:
        """Carry the action out with the replacement orders known so far; stop at the next one wanted."""
        plan: legality.Plan | None
        if isinstance(checked.plan, (legality.Ordering, legality.Targeting, legality.Answering)):
            # the answer an interrupted action waited for
            job = self.s.suspended
            assert job is not None
            before: State | None = job.before
            answer = (
                checked.plan.order
                if isinstance(checked.plan, legality.Ordering)
                else checked.plan.names
                if isinstance(checked.plan, legality.Targeting)
                else ("yes",)
                if checked.plan.yes
                else ("no",)
            )
            action, answers, shown = job.action, (*job.answers, answer), job.shown
            self.restore(copy.deepcopy(job.before))  # carry the action out again, from before it
            # legal then, legal again; "" is the opening (the phases run before the first action)
            plan = legality.check(self.s, A.parse(action, self._names())) if action else None
        else:
            before = copy.deepcopy(self.s) if self.may_pause else None
            action, answers, shown, plan = checked.action, (), 0, checked.plan
        self.answers, self.answer_i, self.s.suspended = answers, 0, None
        try:
            if plan is None:
                self._open()
            else:
                self._do(plan)
            settle.until_decision(self)
        except replacement.Pause as pause:
            if before is None:
                raise EngineError("a limited choice to wait for, in a game that was not expected to stop") from None
            self._stop(pause, before, action, answers)
        finally:
            self.answers, self.answer_i = (), 0
        del self.events[:shown]  # reported when the action first stopped

    def _stop(self, pause: replacement.Pause, before: State, action: str, answers: tuple[tuple[str, ...], ...]) -> None:
        """The rules wait for a limited choice: keep what is needed to carry ``action`` out again once it is made."""
        stopped = len(self.events)
        self.s.awaiting = pause.awaiting
        self.s.priority = None  # no one has Priority while the rules wait for a limited choice (312.1.b.1)
        self.emit(pause.message, *pause.keys)
        self.s.suspended = Suspended(before, action, answers, stopped)

    def candidates(self) -> list[str]:
        return candidates(self.s)

    def view(self) -> RiftboundSnapshot:
        s = self.s
        zone: dict[str, str] = {}
        units: dict[str, dict[str, object]] = {}
        gear: dict[str, dict[str, object]] = {}
        legends: dict[str, dict[str, object]] = {}
        hand = dict(s.hand_unnamed)
        for c in s.cards.values():  # one pass over every card
            z = c.zone
            zone[c.name] = c.at if z == "battlefield" and c.at is not None else z
            if z == "hand":
                hand[c.owner] += 1
            elif z in BOARD_ZONES:
                if c.defn.type == "unit":
                    units[c.name] = self._unit(c)
                elif c.defn.type == "gear":
                    gear[c.name] = {
                        "at": c.location,
                        "controller": c.controller,
                        "exhausted": c.exhausted,
                        **({"attached_to": s.cards[c.attached_to].name} if c.attached_to else {}),
                    }
            elif z == "legend":
                legends[c.name] = {"controller": c.controller, "exhausted": c.exhausted}
        snap: RiftboundSnapshot = {
            "state": s.state_name,
            "phase": s.phase,
            "turn": s.turn_number,
            "turn_player": s.turn_player,
            "priority": s.priority,
            "focus": s.focus,
            "points": dict(s.points),
            "controller": {bf.name: bf.controller for bf in s.battlefields.values()},
            "contested": {bf.name: bf.contested_by for bf in s.battlefields.values() if bf.contested_by},
            "zone": zone,
            "chain": [i.label for i in s.chain],
            "showdown": s.bf(s.showdown.at).name if s.showdown else None,
            "combat": (
                {"at": s.bf(s.combat.at).name, "attacker": s.combat.attacker, "defender": s.combat.defender}
                if s.combat
                else None
            ),
            "staged": [s.bf(k).name for k in s.staged_showdowns] + [s.bf(k).name for k in s.staged_combats],
            "awaiting": (
                f"{s.awaiting.player} to "
                + (
                    f"choose {s.awaiting.what}"
                    if s.awaiting.kind == "choice"
                    else _AWAITING.get(s.awaiting.kind, "choose a battlefield")
                )
                if s.awaiting
                else None
            ),
            "units": units,
            "hand": hand,
            "deck": {p: len(s.deck[p]) for p in s.players},
            "winner": s.winner,
        }
        if gear:
            snap["gear"] = gear
        if s.tracked:
            snap["runes"] = {p: self._runes(p) for p in s.players if s.pays(p)}
        if legends:
            snap["legends"] = legends
        return snap

    def _unit(self, u: Card) -> dict[str, object]:
        s = self.s
        out: dict[str, object] = {
            "at": u.location,
            "controller": u.controller,
            "might": s.might(u),
            "damage": u.damage,
            "exhausted": u.exhausted,
        }
        if u.designation:
            out["designation"] = u.designation
        if u.stunned:
            out["stunned"] = True
        if u.buffed:
            out["buffed"] = True
        if not s.continuous and not u.granted and u.zone != "facedown":  # its printed keywords alone
            if u.defn.keywords:
                out["keywords"] = list(u.defn.shown_keywords)
        elif values := s.keywords(u):
            out["keywords"] = [
                f"{k} {values[k]}" if k in ("Assault", "Shield", "Deflect") else k
                for k in sorted(values)
                if k != "Reaction" or u.defn.has(k)
            ]
        if u.defn.token:
            out["token"] = True
        return out

    def _runes(self, player: str) -> dict[str, object]:
        s = self.s
        runes = s.runes[player] or []
        ready = sum(1 for r in runes if not r.exhausted)
        pool = s.pool[player]
        return {
            "ready": ready,
            "exhausted": len(runes) - ready,
            "pool": pool.text(),
            **({"deck": s.rune_deck[player]} if s.rune_deck[player] is not None else {}),
        }

    # --- the protocol the steps call back through (engine.riftbound.state.Game) ------------------
    def cleanup(self, special: str | None = None) -> None:
        settle.run(self, special)

    def execute(
        self, item: ChainItem, ins: Instruction, target: Card | ChainItem | None, keys: tuple[str, ...]
    ) -> None:
        instructions.apply_single(self, item, ins, target, keys)

    def next_answer(self) -> tuple[str, ...] | None:
        if self.answer_i >= len(self.answers):
            return None
        self.answer_i += 1
        return self.answers[self.answer_i - 1]

    # --- carrying out a checked plan --------------------------------------------------------------
    def _names(self) -> A.Names:
        s = self.s
        objects = [c.name for c in s.cards.values()] + [i.label for i in s.chain if i.card is None]
        if s.awaiting is not None and s.awaiting.kind == "choice":
            objects += list(s.awaiting.options)  # "P chooses exhausted Fury rune"
        return A.Names(players=list(s.players), objects=objects, places=[b.name for b in s.battlefields.values()])

    def _do(self, plan: legality.Plan) -> None:
        s = self.s
        if isinstance(plan, legality.Playing):
            chain.play(self, plan)
        elif isinstance(plan, legality.Activating):
            chain.activate(self, plan)
        elif isinstance(plan, legality.Moving):
            board.standard_move(self, plan)
        elif isinstance(plan, legality.Hiding):
            board.hide(self, plan)
        elif isinstance(plan, A.Pass):
            if s.chain:
                chain.pass_priority(self, plan.player)
            elif s.showdown:
                showdown.pass_focus(self, plan.player)
            else:
                self.emit(
                    f"{plan.player} passes with nothing on the Chain and no Showdown: {plan.player} chooses to "
                    "take no more Discretionary Actions, so the Action Phase ends",
                    "turn.phase_ends",
                    "turn.ending_turn",
                )
                turn.end_turn(self, plan.player)
        elif isinstance(plan, A.EndTurn):
            turn.end_turn(self, plan.player)
        elif isinstance(plan, legality.Choosing):
            settle.choose(self, plan)
        elif isinstance(plan, legality.Assigning):
            combat.assign(self, plan)
        elif isinstance(plan, legality.RuneUse):
            chain.use_runes(self, plan)


# The FAQ rulings the engine applies from their date (data/editions/riftbound.yaml; numbered by
# data/citations/riftbound-2026-01-14.yaml and the tables after it).
FAQ_RULINGS = (
    "faq.win_combat",
    "faq.tie_combat",
    "faq.win_before_score",
    "faq.token_cost_zero",
    "faq.token_recycled",
    "faq.noncombat_showdown",
    "faq.loses_control_same_cleanup",
    "faq.weaponmaster_optional",
)

# The rules Core Rules v1.3 (2026-03-30) changed that the engine follows: each applies from that date (a change of
# data/editions/riftbound.yaml, decided by the date of the edition explained, whichever table numbers it);
# before it the engine follows v1.2. Where each is checked: settle (control, victory, the combat showdown),
# combat (designations), board (the Winning Point, Burn Outs), triggers/chain/instructions ("you may" triggers),
# instructions (Legion).
V1_3_CHANGES = (
    "control.lost_in_open_state",
    "showdown.becomes_combat_showdown",
    "trigger.optional_when_triggered",
    "trigger.conditional_statement",
    "trigger.cost_when_finalized",
    "victory.more_than_any_opponent",
    "score.winning_point_or_higher",
    "burn_out.wins_at_once",
    "legion.another_card",
    "combat.designations_until_combat_ends",
    "cleanup.designations_before_deaths",
)

_AWAITING = {
    "assign": "assign combat damage",
    "order": "order replacement effects",
    "targets": "choose targets",
    "may": "accept or decline",
    "subset": "choose the targets it affects",
    "pick": "choose a card to play",
}


_MAY_STOP: dict[int, tuple[CardDef, bool]] = {}  # id -> (the definition, kept alive so the id stays its own; answer)


def _may_stop(defn: CardDef) -> bool:
    """Can this card make the rules wait for a player's choice in the middle of an action (targets of a
    triggered ability, a "you may", a reflexive trigger)? Answered once per definition."""
    known = _MAY_STOP.get(id(defn))
    if known is not None and known[0] is defn:
        return known[1]
    answer = _may_stop_now(defn)
    if len(_MAY_STOP) < 20_000:
        _MAY_STOP[id(defn)] = (defn, answer)
    return answer


def _may_stop_now(defn: CardDef) -> bool:
    texts = (defn.effect, defn.legion, *(a.effect for a in defn.abilities))
    if (
        defn.has("Vision")
        or any("vision" in (text or "").lower() for text in (*texts, *(t.effect for t in defn.triggers)))
        or any("Vision" in str(p) for p in defn.passives)
    ):
        return True  # Vision's "you may recycle it" (743.1.b), its own or given
    return any(_text_may_stop(text, False) for text in texts if text) or any(
        _text_may_stop(t.effect, True) for t in defn.triggers
    )


@functools.cache
def _text_may_stop(text: str, trigger: bool) -> bool:
    walked = effects._walk(effects.parse(text))
    stops: tuple[str, ...] = ("may", "reflexive", "play_card", "recycle_rune", "each_kill", "either", "put_looked")
    stops += ("each_return", "recycle_some", "put_back", "split")
    # an opponent among several, a card from a revealed hand, other players' choices
    stops += ("choose_opponent", "choose_card", "unless", "each_choose", "each_pick")
    if any(i.verb in stops for i in walked):
        return True
    if any(i.target is not None and any(k == "total_might" for k, _ in i.target.filters) for i in walked):
        return True  # a group of targets may need a subset chosen as it resolves (352.11.b)
    return trigger and effects.target_count(text) > 0
