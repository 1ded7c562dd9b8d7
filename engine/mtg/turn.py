"""Phases and steps (500-514): what happens as each begins and ends, passing priority (117.3d, 117.4),
and ``P moves to PHASE``."""

from __future__ import annotations

from engine.mtg import combat
from engine.mtg.board import apply_control, dash_returns, discarded, draw, fire, rebound_triggers
from engine.mtg.conditions import turn_passes
from engine.mtg.legality import Attacking, Blocking, MovingTo
from engine.mtg.stack import fizzles, resolve_top
from engine.mtg.state import HAND_SIZE, ORDER, PHASE_OF, PHASES, SECOND_DAMAGE, TITLE, Game

_PRIORITY_KEY = {
    "upkeep": "turn.upkeep",
    "main1": "turn.main",
    "main2": "turn.main",
    "beginning_of_combat": "turn.beginning_of_combat",
    "end_of_combat": "turn.end_of_combat",
    "end": "turn.end_step",
}


def next_step(g: Game) -> str:
    if g.s.step == "declare_attackers" and not any(p.attacking for p in g.s.battlefield):
        return "end_of_combat"  # 508.8: announced when no attackers were declared
    if g.s.step == "combat_damage":
        return SECOND_DAMAGE if g.s.first_strike_step else "end_of_combat"
    if g.s.step == SECOND_DAMAGE:
        return "end_of_combat"
    if g.s.step == "cleanup":
        return "cleanup"  # priority was given in this cleanup step, so another one follows (514.3a)
    return PHASES[PHASES.index(g.s.step) + 1]


def advance(g: Game) -> None:
    """The current step ends; the next begins (and runs until a player must decide)."""
    nxt = next_step(g)
    end_step(g, nxt)
    begin(g, nxt)


def end_step(g: Game, nxt: str) -> None:
    if g.s.step == "end_of_combat" and any(p.attacking or p.blocking is not None for p in g.s.battlefield):
        for perm in g.s.battlefield:
            perm.attacking, perm.blocking, perm.blocked, perm.blockers = False, None, False, []
        g.emit("The end of combat step ends: all creatures are removed from combat", "turn.combat_ends")
    if g.s.step == "end_of_combat":
        g.s.left_combat = []
    phase_ends = PHASE_OF[g.s.step] != PHASE_OF[nxt] or nxt == "untap"
    for p in g.s.players:
        pool = g.s.pool.get(p, {})
        amount = sum(pool.values())
        if not amount:
            continue
        burn = g.s.follows("mana_burn")
        if burn and phase_ends:
            g.s.pool[p] = {}
            before = g.s.life[p]
            g.s.life[p] -= amount
            g.emit(
                f"Mana burn: the {PHASE_OF[g.s.step]} phase ends with {amount} unused mana in {p}'s mana pool, "
                f"so {p} loses {amount} life ({before} -> {g.s.life[p]})",
                "mana.burn",
                "life.change",
            )
        elif not burn:
            g.s.pool[p] = {}
            g.emit(f"The {TITLE[g.s.step]} ends: {p}'s unspent mana empties from the mana pool", "mana.empties")


def begin(g: Game, step: str) -> None:
    g.s.step, g.s.passes, g.s.priority = step, 0, None
    if step == "end_of_combat":
        g.s.first_strike_step = False
        g.s.struck_first = g.s.struck_double = frozenset()
    ap = g.s.turn_player
    if step == "untap":
        new_turn(g, next_player=True)
        return
    if step == "draw":
        if g.s.turn_number == 1:
            g.emit(f"{ap} skips the draw step of the first turn: the player who plays first skips it", "turn.play_draw")
            g.s.step = "main1"
            fire(g, "main1")
            g.receive_priority(
                ap, f"The precombat main phase begins; {ap} receives priority", "turn.main", "priority.ap_first"
            )
            return
        draw(g, ap, 1, "turn.draw")
        fire(g, "draw")
        g.receive_priority(ap, f"{ap} receives priority in the draw step", "turn.draw_priority", "priority.ap_first")
        return
    if step == "declare_attackers":
        combat.begin_declare_attackers(g)
        return
    if step == "declare_blockers":
        combat.begin_declare_blockers(g)
        return
    if step in ("combat_damage", SECOND_DAMAGE):
        combat.damage_step(g)
        return
    if step == "cleanup":
        cleanup(g)
        return
    if step == "end":
        dash_returns(g)
    if step == "upkeep":
        rebound_triggers(g)
    fire(g, step)
    g.receive_priority(
        ap, f"The {TITLE[step]} begins; {ap} receives priority", _PRIORITY_KEY[step], "priority.ap_first"
    )


def new_turn(g: Game, next_player: bool) -> None:
    """The untap step (of the next player's turn): untap, then on to upkeep without priority (502.4)."""
    if next_player:
        g.s.turn_player = g.s.other(g.s.turn_player)
        g.s.turn_number += 1
    g.s.step = "untap"
    ap = g.s.turn_player
    g.s.lands_played = {p: 0 for p in g.s.players}
    g.s.damaged = frozenset()
    turn_passes(g.s)
    for perm in g.s.battlefield:
        if perm.controller == ap:
            perm.sick = False
    tapped = [p for p in g.s.battlefield if p.controller == ap and p.tapped]
    kept = [(p, g.s.keeps_tapped(p) or g.s.skip_untap.get(p.oid)) for p in tapped]
    tapped = [p for p, by in kept if by is None]
    # "doesn't untap during its controller's next untap step": this was that step (used up, tapped or not)
    g.s.skip_untap = {o: n for o, n in g.s.skip_untap.items() if (p := g.s.permanent(o)) and p.controller != ap}
    for perm in tapped:
        perm.tapped = False
    untapped = f": {', '.join(p.name for p in tapped)} untap" if tapped else ""
    g.emit(
        f"{ap}'s turn {g.s.turn_number} begins with the untap step{untapped}; no player receives priority",
        "turn.phases",
        "turn.untap",
        "turn.untap_no_priority",
    )
    for perm, by in kept:
        if isinstance(by, str):
            g.emit(
                f"{perm.name} doesn't untap during {ap}'s untap step ({by}: this untap step only)", "turn.untap_kept"
            )
        elif by is not None:
            whose = "its own ability" if by is perm else f"{by.name}'s ability"
            g.emit(f"{perm.name} doesn't untap during {ap}'s untap step ({whose})", "turn.untap_kept")
    fire(g, "untap")
    end_step(g, "upkeep")
    begin(g, "upkeep")


def cleanup(g: Game) -> None:
    ap = g.s.turn_player
    hand = g.s.hand.get(ap, [])
    unlimited = next((p for p, st in g.s.rules_of(ap) if st.no_max_hand), None) if len(hand) > HAND_SIZE else None
    if unlimited is not None:  # "You have no maximum hand size" (402.2, a rule of the game changed: 613.11)
        g.emit(
            f"{ap} has {len(hand)} cards in hand but no maximum hand size ({unlimited.name} says so): "
            f"{ap} discards nothing",
            "turn.cleanup_discard",
            "rules.no_max_hand",
        )
    elif len(hand) > HAND_SIZE:
        # The player chooses what to discard; the engine discards the cards listed last.
        gone, g.s.hand[ap] = hand[HAND_SIZE:], hand[:HAND_SIZE]
        g.emit(
            f"{ap} discards {', '.join(c.name for c in gone)} down to the maximum hand size of {HAND_SIZE}",
            "turn.cleanup_discard",
        )
        for card in gone:
            discarded(g, card)
    touched = [
        p
        for p in g.s.battlefield
        if p.damage or p.boost != (0, 0) or p.granted or p.restricted or p.regeneration or p.became
    ]
    for perm in touched:
        perm.damage, perm.boost, perm.granted, perm.spared, perm.restricted = 0, (0, 0), (), False, ()
        perm.regeneration, perm.became = 0, ()
    if touched:
        g.emit(
            f'Damage wears off and "until end of turn" effects end ({", ".join(p.name for p in touched)})',
            "turn.cleanup_damage",
            "effect.until_eot",
        )
    if g.s.shields or g.s.fog:
        g.s.shields, g.s.fog = [], False
        g.emit("The prevention effects that last this turn end", "turn.cleanup_damage", "effect.until_eot")
    if g.s.exile_if_dies:  # "If a creature dealt damage this way would die this turn, exile it instead"
        g.s.exile_if_dies = ()
        g.emit('"Would die this turn, exile it instead" effects end', "turn.cleanup_damage", "effect.until_eot")
    if any(c.eot for c in g.s.controls):
        g.s.controls = [c for c in g.s.controls if not c.eot]
        g.emit('"Until end of turn" control-changing effects end', "turn.cleanup_damage", "effect.until_eot")
        apply_control(g)
    events_before = len(g.events)
    stack_before = len(g.s.stack)
    g.settle()
    if g.s.over:
        return
    if g.s.pending in ("triggers", "aim"):
        g.s.resume = (
            ap,
            f"Something happened in the cleanup step, so {ap} receives priority; another cleanup step "
            "follows once all pass",
            ("turn.cleanup_priority",),
        )
        return
    if len(g.events) > events_before or len(g.s.stack) > stack_before:
        g.receive_priority(
            ap,
            f"Something happened in the cleanup step, so {ap} receives priority; "
            "another cleanup step follows once all pass",
            "turn.cleanup_priority",
        )
        return
    g.emit("No player receives priority in the cleanup step", "turn.cleanup_no_priority")
    end_step(g, "untap")
    begin(g, "untap")


def pass_priority(g: Game, player: str) -> None:
    """``player`` (who has priority) passes: the next player receives it, or, all having passed in
    succession, the top of the stack resolves or the step ends (117.4)."""
    s = g.s
    s.passes += 1
    if s.passes < len(s.players):
        nxt = s.players[(s.players.index(player) + 1) % len(s.players)]
        g.receive_priority(nxt, f"{player} passes priority; {nxt} receives priority", "priority.pass")
        return
    s.passes = 0
    s.priority = None
    if s.stack:
        top = s.stack[-1]
        resolves = not fizzles(g, top)  # one with only illegal targets is said not to resolve, once (608.2b)
        g.emit(
            f"{player} passes priority. All players passed in succession: "
            + (f"{top.name} resolves" if resolves else f"{top.name}, on top of the stack, would resolve"),
            "priority.all_pass",
            "stack.resolve_top",
            "resolve.spell",
        )
        resolve_top(g)
        # it waits for a player's choice; priority follows the answer
        if s.pending in ("pay", "scry", "pick", "offer", "discard", "look", "may"):
            return
        after_resolution(g, top.name, resolves)
    else:
        g.emit(
            f"{player} passes priority. All players passed in succession with the stack empty: "
            f"the {TITLE[s.step]} ends",
            "priority.all_pass",
            "stack.resolve_top",
            "turn.step_ends",
        )
        advance(g)


def after_resolution(g: Game, name: str, resolved: bool = True) -> None:
    done = "resolved" if resolved else "left the stack"
    g.receive_priority(
        g.s.turn_player, f"{g.s.turn_player} receives priority after {name} {done}", "priority.after_resolution"
    )


def move_to(g: Game, plan: MovingTo) -> None:
    """The players pass (each pass shown) until the step ``plan`` names begins; a declaration nobody
    made counts as declaring none, a damage assignment or trigger order nobody gave is made the
    engine's way. Stops as that step begins, before its declaration."""
    s, target = g.s, plan.step
    goal = (s.turn_number if ORDER[target] > ORDER[s.step] else s.turn_number + 1, ORDER[target])
    for _ in range(500):
        if s.over or (s.turn_number, ORDER[s.step]) >= goal:
            return
        if s.pending == "attackers":
            combat.declare_attackers(g, Attacking(s.turn_player, ()))
        elif s.pending == "blockers":
            combat.declare_blockers(g, Blocking(s.defending, ()))
        elif s.pending in ("damage", "triggers"):
            g.decide_by_default()
        elif s.priority is not None:
            pass_priority(g, s.priority)
        else:
            return
