"""The turn (314-317): Start of Turn phases, the Action Phase, the End of Turn, the next player."""

from __future__ import annotations

from engine.riftbound import board
from engine.riftbound.state import Game

START = ("awaken", "beginning", "channel", "draw", "main")


def enter(g: Game, phase: str) -> None:
    """Begin ``phase`` and do what the rules do in it; a Cleanup follows the transition (319.2)."""
    s = g.s
    s.phase = phase
    p = s.turn_player
    if phase == "awaken":
        readied = [c.name for c in s.cards.values() if c.on_board and c.controller == p and c.exhausted]
        for c in s.cards.values():
            if c.on_board and c.controller == p:
                c.exhausted = False
        g.emit(f"Awaken Phase: {p} readies everything they control" + (f" ({', '.join(readied)})" if readied else ""),
               "turn.awaken_readies", "ready.action")
    elif phase == "beginning":
        g.emit("Beginning Phase, Beginning Step: start-of-Beginning-Phase effects take place (none in this scenario)",
               "turn.beginning_step")
        held = [bf for bf in s.battlefields.values() if bf.controller == p]
        g.emit(f"Scoring Step: holding is scored now; {p} controls "
               + (", ".join(bf.name for bf in held) if held else "no battlefield"), "turn.scoring_step_holds")
        for bf in held:
            board.score(g, p, bf, "hold")
    elif phase == "channel":
        runes = s.runes[p]
        if runes is not None:
            s.runes[p] = runes = runes + 2
        g.emit(f"Channel Phase: {p} channels 2 runes from their Rune Deck"
               + (f" ({runes} runes)" if runes is not None else ""), "turn.channel_two_runes")
    elif phase == "draw":
        if not s.deck[p]:
            g.emit(f"Draw Phase: {p}'s Main Deck is empty", "turn.draw_one", "turn.draw_burn_out")
            board.draw(g, p, 1, "turn.draw_one", "turn.draw_after_burn_out", "burn_out.complete_action")
        else:
            board.draw(g, p, 1, "turn.draw_one")
    elif phase == "main":
        g.emit(f"Action Phase: all steps of the Start of Turn are done and {p}'s Action Phase begins",
               "turn.action_phase_begins")
    g.cleanup()


def next_phase(g: Game) -> None:
    s = g.s
    if s.phase == "ending":
        end_of_turn(g)
        return
    i = START.index(s.phase)
    enter(g, START[i + 1])


def end_turn(g: Game, player: str) -> None:
    """``P ends turn``: the Action Phase ends (316.6) and the End of Turn Phase runs (317)."""
    g.emit(f"{player} ends their turn: the Action Phase ends", "turn.ending_turn", "turn.ending_ends_action_phase",
           "turn.phase_ends")
    g.s.priority = None
    end_of_turn(g)


def end_of_turn(g: Game) -> None:
    s = g.s
    s.phase = "ending"
    s.priority = None
    stunned = [u.name for u in s.units() if u.stunned]
    for u in s.units():
        u.stunned = False
    g.emit("End of Turn, Ending Step: end-of-turn effects take place"
           + (f"; {', '.join(stunned)} {'is' if len(stunned) == 1 else 'are'} no longer stunned" if stunned else ""),
           "turn.ending_step", *(("stun.ends_at_ending_step",) if stunned else ()))
    g.emit("End of Turn Cleanup: a Special Cleanup that also heals all units", "turn.end_of_turn_cleanup", "cleanup.special")
    g.cleanup(special="end_of_turn")
    if s.winner:
        return
    for u in s.units():
        u.temp_might = 0
    g.emit('Expiration Step: all "this turn" effects expire', "turn.expiration")
    old = s.turn_player
    s.turn_player = s.next_player(old)
    s.turn_number += 1
    s.scored = {p: set() for p in s.players}
    g.emit(f"{s.turn_player} is the next player in Turn Order and becomes the Turn Player", "turn.next_player",
           "turn.player_changes", "turn.turn_player")
    enter(g, "awaken")
