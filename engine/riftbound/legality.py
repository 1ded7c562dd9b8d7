"""Who may act now, and whether this card or ability is legally timed (307-313, 374, 732, 739).

Each check raises :class:`engine.core.IllegalAction` citing the rule that forbids the action, or returns
the citation keys of the rules that allow it (so a "yes" answer names its rules too).
"""

from __future__ import annotations

from engine.riftbound.state import Card


def may_act(g, player: str) -> None:
    """Discretionary actions need Priority (312.1); nothing is open while the rules wait for a choice."""
    s = g.s
    if s.winner:
        g.illegal(f"the game is over: {s.winner} has won", "victory.wins", "game.continues_until_win")
    if s.awaiting is not None:
        a = s.awaiting
        if a.kind == "order":
            g.illegal(f"the rules wait for {a.player} to order the replacement effects ({a.about}: "
                      f"{', '.join(a.options)}); no player has Priority", a.reason, "priority.none_no_actions")
        if a.kind == "assign":
            g.illegal(f"the rules wait for {a.player} to assign {a.amount} combat damage; no player has Priority",
                      "priority.none_no_actions", "combat.assign")
        key = "cleanup.begin_showdown" if a.kind == "showdown" else "cleanup.begin_combat"
        g.illegal(f"the rules wait for {a.player} to choose where a staged {a.kind} begins ({', '.join(a.options)})",
                  key, "priority.none_no_actions")
    if s.priority != player:
        holder = f"{s.priority} has it" if s.priority else "no player has it"
        focus = ("focus.needs_priority",) if s.focus == player else ()
        g.illegal(f"{player} does not have Priority ({holder})" + (", and Focus alone allows nothing" if focus else ""),
                  "priority.singular_right", *focus)


def card_timing(g, player: str, card: Card, *, hidden: bool = False, ability_keywords: frozenset | None = None) -> tuple[str, ...]:
    """Keys of the rules that let ``player`` play ``card`` (or activate an ability with ``ability_keywords``) now."""
    s = g.s
    if ability_keywords is None:
        reaction = card.has("Reaction") or hidden
        action = reaction or card.has("Action")
        what, act = card.name, "played"
        any_turn_closed, any_turn_showdown = "timing.reaction_any_turn_closed", "timing.action_any_turn_showdown"
    else:
        reaction = "Reaction" in ability_keywords
        action = reaction or "Action" in ability_keywords
        what, act = f"{card.name}'s ability", "activated"
        any_turn_closed, any_turn_showdown = "timing.reaction_ability", "timing.action_ability"
    extra = ("hide.gains_reaction",) if hidden else ()
    if s.chain:
        if not reaction:
            g.illegal(f"{what} has no Reaction: in a Closed State only cards and abilities with Reaction can be {act}",
                      "timing.closed_needs_reaction")
        return ("timing.closed_needs_reaction", any_turn_closed, *extra)
    if s.showdown:
        if not action:
            g.illegal(f"{what} has neither Action nor Reaction: in a Showdown State only those can be {act}",
                      "timing.showdown_needs_action_or_reaction")
        return ("timing.showdown_needs_action_or_reaction", "showdown.focus_holder_may",
                *((any_turn_showdown,) if player != s.turn_player else ()), *extra)
    if player != s.turn_player or s.phase != "main":
        g.illegal("in a Neutral Open State only the Turn Player plays cards, in their Action Phase",
                  "timing.neutral_open_own_turn", "turn.action_phase_turn_player_only")
    return ("timing.neutral_open_own_turn", *extra)


def ability_timing(g, player: str, card: Card) -> tuple[str, ...]:
    """Activated abilities: the controller's turn in an Open State (374) unless Action/Reaction say otherwise."""
    s = g.s
    kws = card.defn.ability.keywords
    keys = card_timing(g, player, card, ability_keywords=kws)
    if not kws & {"Action", "Reaction"}:
        if player != s.turn_player or s.chain:
            g.illegal(f"{card.name}'s ability can only be activated on its controller's turn in an Open State",
                      "ability.activated_timing")
        if card.is_unit and (s.showdown or s.phase != "main"):
            g.illegal(f"{card.name}'s ability can only be activated in its controller's Action Phase, not during a Showdown",
                      "ability.unit_timing")
        keys = (*keys, "ability.activated_timing")
    return keys
