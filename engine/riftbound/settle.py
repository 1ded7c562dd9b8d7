"""Settling: Cleanups (318-323), the steps of 322 in order, repeated until nothing changes (321), and
what runs between actions until a player must decide.

``special`` inserts the steps of a Special Cleanup (323) after step 2b: ``end_of_turn`` heals all units
(317.2.b); ``combat`` heals, recalls attackers while defenders remain and removes designations (444.1.a).
A Special Cleanup's own steps run once; any repetition is a normal Cleanup (323.2).
"""

from __future__ import annotations

import operator

from engine.riftbound import board, chain, combat, replacement, showdown, triggers, turn
from engine.riftbound.legality import Choosing
from engine.riftbound.state import Awaiting, Card, ChainItem, Game, State


def until_decision(g: Game) -> None:
    """Run what the rules make automatic until a player must decide: Priority to the newest chain
    item's controller, the phases with nothing to decide, the turn player's Priority in a Neutral Open
    Action Phase."""
    s = g.s
    for _ in range(1000):
        if s.winner or s.awaiting:
            s.priority = None  # no one has Priority while the rules wait for a limited choice (312.1.b.1)
            return
        if s.chain:
            if s.priority_to_newest or s.priority is None:
                key = s.priority_to_newest or "chain.newest_controller_priority"
                s.priority_to_newest = ""
                chain.give_priority_to_newest(g, key)
            return
        s.priority_to_newest = ""
        if s.combat is not None and s.combat.step == "won":
            combat.finish(g)  # the win's triggered abilities have resolved: the combat's resolution goes on
            continue
        if s.showdown:
            return
        if s.phase != "main":
            turn.next_phase(g)
            continue
        if s.priority != s.turn_player:
            s.priority = s.turn_player
            g.emit(
                f"The turn is Neutral Open in {s.turn_player}'s Action Phase: {s.turn_player} receives Priority",
                "priority.neutral_open_action_phase",
                "state.neutral",
                "state.open",
            )
        return
    raise RuntimeError("the engine did not settle")  # pragma: no cover


def run(g: Game, special: str | None = None) -> None:
    s = g.s
    before = _signature(s)
    for round_ in range(100):
        _steps(g, special if round_ == 0 else None)
        if s.winner:
            return
        after = _signature(s)
        if after == before:
            return
        before = after  # nothing changes the state between this round's end and the next round's start
    raise RuntimeError("cleanups did not settle")  # pragma: no cover - a bug, not a game state


_CARD_SIGNATURE = operator.attrgetter("zone", "at", "controller", "damage", "designation", "exhausted")
_BATTLEFIELD_SIGNATURE = operator.attrgetter("controller", "contested_by", "facedown")


def _signature(s: State) -> tuple:
    """What a cleanup step may change, as values (compared before and after a round)."""
    sd = s.showdown
    return (
        list(map(_CARD_SIGNATURE, s.cards.values())),
        list(map(_BATTLEFIELD_SIGNATURE, s.battlefields.values())),
        [(i.uid, i.pending) for i in s.chain],
        tuple(s.staged_showdowns),
        tuple(s.staged_combats),
        s.awaiting,
        sd and (sd.at, sd.combat, sd.passes, sd.initial_chain),
        s.combat and (s.combat.at, s.combat.step),
        tuple(s.points.values()),
    )


def _steps(g: Game, special: str | None) -> None:
    s = g.s
    # 1. Victory. v1.3: also more points than any opponent (323.1); two players at the Victory Score go on.
    if _victory(g):
        return
    # v1.3 (323.2, before 323.3): designations are given and removed before units die to marked damage.
    early = g.citations.follows("cleanup.designations_before_deaths")
    if early and s.combat is not None and s.combat.step == "showdown":
        combat.update_designations(g)

    # 2a, 2b. Lethal damage: Deathknell triggers first, then the units are killed.
    lethal = [u for u in s.units() if _has_lethal(s, u)]
    if lethal:
        _kill_lethal(g, lethal)
    if special == "end_of_turn":
        _heal_all(g, "turn.end_of_turn_heal")
    elif special == "combat":
        _heal_all(g, "combat.cleanup_heal")
        combat.recall_attackers(g)
        if not g.citations.follows("combat.designations_until_combat_ends"):
            combat.remove_designations(g)  # v1.3: only as combat ends, after Control (461.7.a; combat.finish)
    # 3. Attacker and defender designations (v1.2's 322.5, after the deaths).
    if not early and s.combat is not None and s.combat.step == "showdown":
        combat.update_designations(g)
    # 4. Empty battlefields become uncontrolled: v1.2, those not Contested; v1.3, in an Open State, those where no
    # showdown or combat is ongoing (323.6, 187.4.c): a battlefield left empty while the Chain exists stays controlled.
    open_rule = g.citations.follows("control.lost_in_open_state")
    for bf in s.battlefields.values():
        if not bf.controller or s.units_at(bf.name):
            continue
        if open_rule:
            if (
                s.chain
                or (s.showdown is not None and s.showdown.at == bf.key)
                or (s.combat is not None and s.combat.at == bf.key)
            ):
                continue
            g.emit(
                f"{bf.name} has no units, the turn is Open and no showdown or combat is ongoing there: it becomes "
                f"uncontrolled ({bf.controller} loses Control)",
                "cleanup.empty_battlefield_uncontrolled",
                "control.lost_without_units",
                "control.lost_in_open_state",
            )
            bf.controller = None
        elif bf.contested_by is None:
            g.emit(
                f"{bf.name} has no units and is not Contested: it becomes uncontrolled ({bf.controller} loses Control)",
                "cleanup.empty_battlefield_uncontrolled",
                "control.lost_without_units",
            )
            bf.controller = None
    # 5. Gear at battlefields is recalled (147.3, 435.1); hidden cards at battlefields their owner no longer controls
    # go to the trash.
    for c in s.cards.values():
        if c.zone == "battlefield" and c.defn.type == "gear" and c.attached_to is None:
            where = c.at
            board.set_location(c, "base")
            g.emit(
                f"{c.name} is a gear at {where}, attached to nothing: it is recalled to its controller's base",
                "cleanup.recall_gear",
                "gear.recalled_from_battlefield",
                "recall.to_base",
            )
    for bf in s.battlefields.values():
        if bf.facedown:
            card = s.cards[bf.facedown]
            if bf.controller != card.controller:
                bf.facedown = None
                board.leave_board(g, card, "trash")
                g.emit(
                    f"{card.controller or card.owner} no longer controls {bf.name}: the card hidden there ({card.name}) "
                    f"goes to {card.owner}'s trash",
                    "cleanup.hidden_trashed",
                    "hide.lost_with_control",
                )
    # A battlefield its controller has no units at, contested by the only player who has: a gap in Core Rules v1.2
    # that the Spiritforged FAQ fills (a noncombat showdown; the controller loses control in this cleanup).
    for bf in s.battlefields.values():
        if not (bf.contested_by and bf.controller):
            continue
        present = s.players_at(bf.name)
        if (
            bf.contested_by
            and bf.controller
            and present == [bf.contested_by]
            and bf.controller != bf.contested_by
            and not (s.combat is not None and s.combat.at == bf.key)
            and not (s.showdown and s.showdown.at == bf.key)
        ):
            if "faq.noncombat_showdown" in s.rulings:
                g.emit(
                    f"{bf.controller} controls {bf.name} but has no units there, and only {bf.contested_by}'s units, "
                    f"which contested it, are there: {bf.controller} loses control in this cleanup and a noncombat "
                    "showdown will start",
                    "faq.loses_control_same_cleanup",
                    "faq.noncombat_showdown",
                )
                bf.controller = None
            elif s.gap_reported != bf.key:
                s.gap_reported = bf.key
                g.emit(
                    f"{bf.controller} controls {bf.name} with no units there and {bf.contested_by}'s units contest it: "
                    "Core Rules v1.2 keep Control while it is Contested and start neither a combat nor a showdown "
                    "(a gap; the Spiritforged FAQ, edition 2026-01-14, starts a noncombat showdown)",
                    "control.cannot_change_while_contested",
                    "control.kept_while_contested",
                )
    # 6. Showdowns staged at uncontrolled contested battlefields; 7. combats where opposing units meet.
    showdown.stage(g)
    combat.stage(g)
    # 8. Pending items are finalized.
    chain.finalize_pending(g, "cleanup.finalize_pending")
    # 9, 10. In a Neutral Open State, a staged showdown, else a staged combat, begins.
    if s.showdown is None and s.combat is None and not s.chain and s.awaiting is None:
        if s.staged_showdowns:
            _begin_one(g, "showdown", s.staged_showdowns)
        elif s.staged_combats:
            _begin_one(g, "combat", s.staged_combats)
    # v1.3, 9a: in a Showdown Open State, a combat staged where a non-combat showdown is ongoing turns it into a
    # combat showdown (323.14, 455.1). v1.2 ends the showdown first and stages the combat (345.2.b).
    elif (
        s.showdown is not None
        and not s.showdown.combat
        and s.combat is None
        and not s.chain
        and s.awaiting is None
        and s.showdown.at in s.staged_combats
        and g.citations.follows("showdown.becomes_combat_showdown")
    ):
        combat.begin(g, s.showdown.at, converted=True)


def _has_lethal(s: State, u: Card) -> bool:
    return u.on_board and u.damage > 0 and u.damage >= s.might(u)


def _kill_lethal(g: Game, lethal: list[Card]) -> None:
    """Cleanup steps 2a, 2b for the units with lethal damage: Deathknell triggers first, then they are killed."""
    s = g.s
    order = s.in_turn_order(s.players)
    lethal = sorted(lethal, key=lambda u: order.index(u.holder))
    # A death a replacement effect replaces does not happen (366): no Deathknell, no trash. What a replacement
    # does instead may move or heal another unit with lethal damage: each is looked at again before its turn.
    lethal = [
        u
        for u in lethal
        if _has_lethal(s, u)
        and not replacement.would(
            g, "die", u, f"{u.name} has lethal damage and would die", "cleanup.lethal_damage_kills", "might.lethal"
        )
    ]
    lethal = [u for u in lethal if _has_lethal(s, u)]
    for u in sorted(lethal, key=lambda u: order.index(u.holder)):
        for t in u.defn.triggers:
            if t.spec.event == "die":
                for _ in range(1 + board.deathknell_extra(g, u)):
                    board.add_trigger(
                        g,
                        u,
                        "deathknell",
                        t.effect,
                        u.holder,
                        "cleanup.deathknell_triggers",
                        "cleanup.deathknell_before_trash",
                        "trigger.deathknell",
                        noted=(("at", u.location or ""),),
                    )
    dead = []
    buffed = {u.key for u in lethal if u.buffed}
    stunned = {u.key for u in lethal if u.stunned}
    for u in lethal:
        where, controller = u.location, u.controller
        by = s.damaged_by.get(u.key, "")
        g.emit(
            f"{u.name} has lethal damage and is killed at {where}",
            "cleanup.lethal_damage_kills",
            "might.lethal",
            "kill.to_trash",
        )
        board.leave_board(g, u, "trash")  # after: what leaving the board does (a token ceases to exist) follows it
        board.champion_note(g, u)
        dead.append((u, controller))
        if s.responsible and by.startswith(s.responsible.split(":")[0] + ":") and by.endswith(":item"):
            _killed_by(g, u, by, controller, u.key in stunned)
    triggers.left_with(g, [d for d, _ in dead])
    for u, controller in dead:
        triggers.fire(
            g,
            "dies",
            subject=u,
            subjects=tuple(d for d, _ in dead),
            before={"controller": controller, "buffed": u.key in buffed},
        )


def _victory(g: Game) -> bool:
    """Cleanup step 1: the player with points at least the Victory Score wins (v1.2, 322.1: the first in turn order
    of those who have); v1.3 (323.1) also wants more points than any opponent."""
    s = g.s
    if max(s.points.values(), default=0) < s.victory_score:
        return False  # no one has the Victory Score (s.points has every player)
    strict = g.citations.follows("victory.more_than_any_opponent")
    for p in s.in_turn_order(s.players):
        if s.points[p] < s.victory_score:
            continue
        others = [s.points[o] for o in s.players if o != p and not s.allied(o, p)]
        if strict and any(n >= s.points[p] for n in others):
            continue
        s.winner = p
        s.priority = s.focus = None
        if strict:
            g.emit(
                f"{p} has {s.points[p]} points, at least the Victory Score ({s.victory_score}) and more than any "
                f"opponent: {p} wins the game",
                "cleanup.victory",
                "victory.wins",
                "victory.more_than_any_opponent",
            )
        else:
            g.emit(
                f"{p} has {s.points[p]} points, as many as the Victory Score ({s.victory_score}): {p} wins the game",
                "cleanup.victory",
                "victory.wins",
            )
        return True
    return False


def _killed_by(g: Game, unit: Card, by: str, was: str | None = None, stunned: bool = False) -> None:
    """A unit killed in the cleanup right after the spell or ability that dealt it lethal damage resolved: that
    spell killed it (415.5.c); "if this kills it, do this" triggers now (380)."""
    s = g.s
    uid, controller, kind = by.split(":")[:3]
    for watch in list(s.watch):
        key, _, body, who, label, source = watch
        if key == unit.key:
            s.watch.remove(watch)
            item = ChainItem(
                f"{label.split(' (')[0]} (reflexive)",
                who,
                "trigger",
                effect=body,
                source=source or None,
                pending=True,
                uid=s.new_uid(),
            )
            s.chain.append(item)
            g.emit(
                f'{unit.name} died from {label}: its reflexive trigger ("{body}") goes onto the Chain as a Pending Item',
                "reflexive.creates_item",
                "kill.spell_responsible",
            )
    if kind == "spell":
        g.emit(
            f"{unit.name} was killed by {controller}'s spell (it dealt the lethal damage and just resolved)",
            "kill.spell_responsible",
        )
        triggers.fire(g, "kill_spell", player=controller, subject=unit)
    # "when you kill a stunned enemy unit": the spell or ability that dealt the lethal damage killed it (415.5.c)
    triggers.fire(g, "kill", player=controller, subject=unit, before={"controller": was, "stunned": stunned})


def _heal_all(g: Game, key: str) -> None:
    hurt = [u for u in g.s.units() if u.damage]
    for u in hurt:
        u.damage = 0
    g.emit(
        "All units are healed" + (f" ({', '.join(u.name for u in hurt)})" if hurt else ""), key, "heal.clears_damage"
    )


def _begin_one(g: Game, kind: str, staged: list[str]) -> None:
    s = g.s
    if len(staged) == 1:
        begin(g, kind, staged[0])
        return
    names = tuple(s.bf(k).name for k in staged)
    s.awaiting = Awaiting(kind, s.turn_player, names)
    s.priority = None
    key = "cleanup.begin_showdown" if kind == "showdown" else "cleanup.begin_combat"
    extra = () if kind == "showdown" else ("combat.turn_player_picks",)
    g.emit(
        f"{kind.capitalize()}s are staged at {', '.join(names)}: {s.turn_player}, the Turn Player, chooses where one "
        f'begins ("{s.turn_player} chooses {names[0]}")',
        key,
        *extra,
    )


def begin(g: Game, kind: str, key: str) -> None:
    if kind == "showdown":
        showdown.begin(g, key)
    else:
        combat.begin(g, key)


def choose(g: Game, plan: Choosing) -> None:
    """``P chooses BATTLEFIELD``: where the staged showdown or combat the rules asked about begins."""
    s = g.s
    s.awaiting = None
    key = "cleanup.begin_showdown" if plan.kind == "showdown" else "cleanup.begin_combat"
    g.emit(f"{plan.player} chooses {s.bf(plan.place).name}", key, "priority.limited_actions_regardless")
    begin(g, plan.kind, plan.place)
    run(g)
