"""Showdowns (337-345): staging, beginning with Focus, passing Focus, closing.

A showdown at an uncontrolled battlefield is a stand-alone phase (316.5.b.1); one opened by a combat is
its first step (340.1) and is begun by :func:`engine.riftbound.combat.begin`.
"""

from __future__ import annotations

from engine.riftbound import board, combat
from engine.riftbound.state import Game, Showdown


def stage(g: Game) -> None:
    """Cleanup step 6: a showdown is staged at each contested, uncontrolled battlefield with no opposing units."""
    s = g.s
    for bf in s.battlefields.values():
        live = s.showdown is not None and s.showdown.at == bf.key
        should = (
            bf.contested_by is not None
            and bf.controller is None
            and not live
            and not (s.combat and s.combat.at == bf.key)
            and all(p == bf.contested_by for p in s.players_at(bf.name))
        )
        if should and bf.key not in s.staged_showdowns:
            s.staged_showdowns.append(bf.key)
            g.emit(
                f"{bf.name} is Contested by {bf.contested_by} and uncontrolled: a Showdown is staged there",
                "cleanup.stage_showdown",
                "cleanup.showdown_staged_when_uncontrolled",
            )
        elif not should and bf.key in s.staged_showdowns:
            s.staged_showdowns.remove(bf.key)
            if not live:
                g.emit(
                    f"Opposing units are now at {bf.name}: the Showdown staged there is no longer staged",
                    "cleanup.stage_showdown",
                )


def begin(g: Game, key: str) -> None:
    s = g.s
    bf = s.bf(key)
    if key in s.staged_showdowns:
        s.staged_showdowns.remove(key)
    s.showdown = Showdown(key)
    contester = bf.contested_by or s.turn_player
    s.focus = s.priority = contester
    g.emit(
        f"A Showdown begins at {bf.name} (the turn is Neutral Open; a stand-alone showdown, no Combat): "
        f"{contester} applied Contested and gains Focus and Priority",
        "cleanup.begin_showdown",
        "showdown.begins_when_contested",
        "showdown.opened_in_cleanup",
        "showdown.standalone",
        "showdown.focus_to_contester",
        "focus.gains_priority",
        "priority.gains_focus",
    )


def chain_emptied(g: Game) -> None:
    """The last chain item resolved during a showdown: Focus passes (343), except after an Initial Chain (343.1)."""
    s = g.s
    sd = s.showdown
    assert sd is not None
    sd.passes = 0
    if sd.initial_chain:
        sd.initial_chain = False
        s.priority = s.focus
        g.emit(
            f"The Initial Chain is done: Focus does not pass; {s.focus} keeps Focus and proceeds with Priority",
            "focus.not_after_initial_chain",
            "combat.initial_chain_closes",
            "focus.gains_priority",
        )
        return
    nxt = s.next_player(s.focus or s.turn_player)
    s.focus = s.priority = nxt
    g.emit(
        f"The chain is empty during a Showdown: Focus passes; {nxt} is next and gains Focus and Priority",
        "focus.passes_when_chain_empties",
        "focus.gains_priority",
        "priority.gains_focus",
    )


def pass_focus(g: Game, player: str) -> None:
    s = g.s
    sd = s.showdown
    assert sd is not None
    sd.passes += 1
    if sd.passes >= len(s.players):
        g.emit(
            f"{player} passes; all players have passed in sequence: the Showdown at {s.bf(sd.at).name} ends",
            "showdown.focus_holder_may",
            "showdown.ends_all_passed",
            "showdown.closes",
        )
        close(g)
        return
    nxt = s.next_player(player)
    s.focus = s.priority = nxt
    g.emit(
        f"{player} passes; Focus passes to {nxt}, the next player in Turn Order, who gains Priority",
        "showdown.focus_holder_may",
        "focus.passes_to_next",
        "focus.gains_priority",
    )


def close(g: Game) -> None:
    s = g.s
    sd = s.showdown
    assert sd is not None
    s.showdown = None
    s.focus = s.priority = None
    bf = s.bf(sd.at)
    if sd.combat:
        g.emit(
            f"The Showdown Step of the Combat at {bf.name} is over: combat goes on",
            "showdown.combat_continues",
            "focus.none_in_neutral",
        )
        combat.damage_step(g)
        return
    present = s.players_at(bf.name)
    if len(present) == 1:
        g.emit(f"Only {present[0]}'s units remain at {bf.name}", "showdown.establish_control", "showdown.conquer")
        board.establish_control(g, bf, present[0], "showdown.establish_control")
    elif not present:
        bf.contested_by = None
        g.emit(
            f"No units remain at {bf.name}: no one establishes Control; it stays uncontrolled",
            "showdown.closes",
            "showdown.establish_control",
        )
    else:
        if bf.key not in s.staged_combats:
            s.staged_combats.append(bf.key)
        g.emit(
            f"Units of {' and '.join(present)} remain at {bf.name}: Control cannot be established, it stays Contested "
            f"and a Combat is staged; {bf.contested_by}, who applied Contested, will be the Attacker",
            "showdown.staged_combat",
            "showdown.contester_attacks",
        )
    g.cleanup()
