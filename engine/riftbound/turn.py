"""The turn (314-317): Start of Turn phases, the Action Phase, the End of Turn, the next player."""

from __future__ import annotations

from engine.riftbound import board, triggers
from engine.riftbound.state import Game, Pool, Rune

START = ("awaken", "beginning", "channel", "draw", "main")


def enter(g: Game, phase: str) -> None:
    """Begin ``phase`` and do what the rules do in it; a Cleanup follows the transition (319.2)."""
    s = g.s
    s.phase = phase
    p = s.turn_player
    if phase == "awaken":
        readied = [
            c.name for c in s.cards.values() if (c.on_board or c.zone == "legend") and c.controller == p and c.exhausted
        ]
        readied_units = [c for c in s.cards.values() if c.on_board and c.is_unit and c.controller == p and c.exhausted]
        for c in s.cards.values():
            if (c.on_board or c.zone == "legend") and c.controller == p:
                c.exhausted = False
        runes = s.runes[p]
        exhausted_runes = sum(1 for r in runes or [] if r.exhausted)
        if runes:
            s.runes[p] = [Rune(r.domain, False) for r in runes]
        g.emit(
            f"Awaken Phase: {p} readies everything they control"
            + (f" ({', '.join(readied)})" if readied else "")
            + (f" and {exhausted_runes} rune(s)" if exhausted_runes else ""),
            "turn.awaken_readies",
            "ready.action",
        )
        if any(t.spec.event == "ready" for _, t in triggers.watchers(g)):  # "when you ready a friendly unit"
            for c in readied_units:
                triggers.fire(g, "ready", player=p, subject=c, what="awaken")
    elif phase == "beginning":
        temporary = [u for u in s.cards.values() if u.on_board and u.controller == p and s.has(u, "Temporary")]
        watching = [w for w in triggers.watchers(g) if w[1].spec.event == "beginning"]
        if not temporary and not watching:
            g.emit(
                "Beginning Phase, Beginning Step: start-of-Beginning-Phase effects take place (none in this scenario)",
                "turn.beginning_step",
            )
        else:
            g.emit(
                "Beginning Phase, Beginning Step: start-of-Beginning-Phase effects take place", "turn.beginning_step"
            )
            for u in temporary:
                g.emit(
                    f"{u.name} has Temporary: at the start of its controller's Beginning Phase, before scoring, it is "
                    "killed",
                    "temporary.kill",
                    "turn.beginning_step",
                )
                board.kill(g, u, "temporary.kill")
            triggers.fire(g, "beginning", player=p)
        held = [bf for bf in s.battlefields.values() if bf.controller == p]
        g.emit(
            f"Scoring Step: holding is scored now; {p} controls "
            + (", ".join(bf.name for bf in held) if held else "no battlefield"),
            "turn.scoring_step_holds",
        )
        for bf in held:
            board.score(g, p, bf, "hold")
    elif phase == "channel":
        runes = s.runes[p]
        if runes is not None or s.rune_deck[p] is not None:
            board.channel(g, p, 2, False, "turn.channel_two_runes", lead="Channel Phase: ")
        else:
            g.emit(f"Channel Phase: {p} channels 2 runes from their Rune Deck", "turn.channel_two_runes")
    elif phase == "draw":
        if not s.deck[p]:
            g.emit(f"Draw Phase: {p}'s Main Deck is empty", "turn.draw_one", "turn.draw_burn_out")
            board.draw(g, p, 1, "turn.draw_one", "turn.draw_after_burn_out", "burn_out.complete_action")
        else:
            board.draw(g, p, 1, "turn.draw_one")
        _empty_pools(g, "turn.draw_pool_empties")
    elif phase == "main":
        g.emit(
            f"Action Phase: all steps of the Start of Turn are done and {p}'s Action Phase begins",
            "turn.action_phase_begins",
        )
    g.cleanup()


def _empty_pools(g: Game, key: str) -> None:
    s = g.s
    full = [p for p in s.players if s.pool[p].energy or s.pool[p].power or s.pool[p].only]
    for p in full:
        s.pool[p] = Pool()
    if full:
        g.emit(
            f"Every Rune Pool empties: the unspent energy and power of {', '.join(full)} are lost", key, "pool.empties"
        )


def next_phase(g: Game) -> None:
    s = g.s
    if s.phase == "ending":
        end_of_turn(g)
        return
    i = START.index(s.phase)
    enter(g, START[i + 1])


def end_turn(g: Game, player: str) -> None:
    """``P ends turn``: the Action Phase ends (316.6) and the End of Turn Phase runs (317)."""
    g.emit(
        f"{player} ends their turn: the Action Phase ends",
        "turn.ending_turn",
        "turn.ending_ends_action_phase",
        "turn.phase_ends",
    )
    g.s.priority = None
    g.s.ending = ""
    end_of_turn(g)


def _delayed_at_end(g: Game) -> int:
    """The delayed triggered abilities "at the end of this turn" (383.2) go onto the Chain, whether or not their
    source is still on the board (385); returns how many."""
    s = g.s
    due, s.delayed = s.delayed, []
    n = 0
    for controller, effect, key in due:
        source = s.cards.get(key) or s.battlefields.get(key)
        if source is not None:
            board.add_trigger(
                g, source, "end of this turn", effect, controller, "delayed.trigger", "delayed.source_irrelevant"
            )
            n += 1
    return n


def end_of_turn(g: Game) -> None:
    """The End of Turn (317): the Ending Step (its "at the end of your turn" triggers use the Chain, and the
    players can react to them: the engine stops there), the End of Turn Cleanup, the Expiration Step."""
    s = g.s
    if s.phase != "ending" or not s.ending:
        s.phase = "ending"
        s.priority = None
        s.ending = "step"
        stunned = [u.name for u in s.units() if u.stunned]
        for u in s.units():
            u.stunned = False
        g.emit(
            "End of Turn, Ending Step: end-of-turn effects take place"
            + (f"; {', '.join(stunned)} {'is' if len(stunned) == 1 else 'are'} no longer stunned" if stunned else ""),
            "turn.ending_step",
            *(("stun.ends_at_ending_step",) if stunned else ()),
        )
        if _delayed_at_end(g) + triggers.fire(g, "end", player=s.turn_player):
            g.cleanup()
            return  # the triggered abilities are on the Chain; the turn goes on once it is empty
    s.ending = ""
    g.emit(
        "End of Turn Cleanup: a Special Cleanup that also heals all units",
        "turn.end_of_turn_cleanup",
        "cleanup.special",
    )
    g.cleanup(special="end_of_turn")
    if s.winner:
        return
    for c in s.cards.values():
        c.temp_might = 0
        if c.granted:
            c.granted = tuple(k for k in c.granted if not k[2])
        c.moves = 0
    s.first_done.clear()
    s.played = {p: [] for p in s.players}
    s.prevent.clear()
    s.buff_bonus.clear()
    s.died.clear()
    s.delayed.clear()
    s.next_ready.clear()
    s.cant_play.clear()
    s.hide_free.clear()
    s.damage_watch.clear()
    s.delayed_replace.clear()
    s.next_spell.clear()
    s.discarded.clear()
    g.emit('Expiration Step: all "this turn" effects expire', "turn.expiration")
    _empty_pools(g, "turn.expiration_pool_empties")
    old = s.turn_player
    s.turn_number += 1
    s.scored = {p: set() for p in s.players}
    if s.extra_turns:  # an Additional Turn is the next queued turn; Turn Order does not change (v1.3 737)
        s.regular = s.regular or old
        s.turn_player = s.extra_turns.pop(0)
        g.emit(
            f"{s.turn_player} takes the Additional Turn queued after this one and becomes the Turn Player; Turn "
            "Order does not change",
            "turn.additional",
            "turn.player_changes",
            "turn.turn_player",
        )
    else:  # after Additional Turns, the queue goes on from the last turn that was not one
        s.turn_player = s.next_player(s.regular or old)
        s.regular = ""
        g.emit(
            f"{s.turn_player} is the next player in Turn Order and becomes the Turn Player",
            "turn.next_player",
            "turn.player_changes",
            "turn.turn_player",
        )
    enter(g, "awaken")
