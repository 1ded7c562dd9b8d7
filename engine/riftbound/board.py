"""Changes to the board every rule shares: moving, leaving the board, drawing, scoring; and carrying out
the Standard Move and hiding once :mod:`engine.riftbound.legality` allowed them.

Each function reports what happened through ``g.emit`` (an event citing the rules) and changes ``g.s``.
"""

from __future__ import annotations

from engine.riftbound import replacement
from engine.riftbound.legality import Hiding, Moving
from engine.riftbound.state import Battlefield, Card, ChainItem, Game


def set_location(card: Card, place: str) -> None:
    if place.lower() == "base":
        card.zone, card.at = "base", None
    else:
        card.zone, card.at = "battlefield", place


def move_units(g: Game, player: str, units: list[Card], place: str, *keys: str) -> None:
    """Move ``units`` (already checked) to ``place``; apply Contested (428, 184.3.a.1)."""
    names = ", ".join(u.name for u in units)
    origins = sorted({u.location or "?" for u in units})
    for u in units:
        set_location(u, place)
    g.emit(f"{names} {'moves' if len(units) == 1 else 'move'} from {', '.join(origins)} to {g.s.place_name(place)}", *keys)
    if place.lower() != "base":
        contest(g, g.s.bf(place), player)


def contest(g: Game, bf: Battlefield, player: str) -> None:
    """A unit of ``player`` became present at ``bf``: Contested, unless already so or ``player`` controls it."""
    if bf.controller == player or bf.contested_by is not None:
        return
    bf.contested_by = player
    if bf.controller is None:
        g.emit(f"{bf.name} is uncontrolled: {player} applies Contested to it (a Showdown without a Combat will be staged)",
               "move.contests_destination", "control.contested_status", "move.showdown_without_combat")
    else:
        g.emit(f"{bf.name} is controlled by {bf.controller}: {player} applies Contested to it (a Combat will be staged)",
               "move.contests_destination", "control.contested_status", "move.causes_combat")


def leave_board(g: Game, card: Card, zone: str) -> None:
    """``card`` goes to ``zone`` (hand, trash, deck) from wherever it is; it becomes a new object (356.3.e.4)."""
    card.zone, card.at = zone, None
    card.controller = None if zone not in ("base", "battlefield") else card.controller
    card.exhausted = card.buffed = card.stunned = False
    card.damage = card.temp_might = 0
    card.designation = None
    card.hidden_turn = None
    card.replacement_used = False
    card_epoch_bump(g, card)


def card_epoch_bump(g: Game, card: Card) -> None:
    g.s.epochs[card.key] = g.s.epochs.get(card.key, 0) + 1


def kill(g: Game, card: Card, *keys: str) -> None:
    """Kill: Deathknell goes onto the chain first, then the card goes to its owner's trash (415.1.a.1.b, 415.2).

    A replacement effect may replace the death (366): then nothing of this happens."""
    if replacement.would(g, "die", card, f"{card.name} would die", "kill.to_trash"):
        return
    effect = card.defn.trigger("deathknell")
    if effect is not None:
        add_trigger(g, card, "deathknell", effect, card.controller or card.owner, "kill.deathknell_first", "trigger.deathknell")
    where = card.location
    leave_board(g, card, "trash")
    g.emit(f"{card.name} is killed at {where} and goes to {card.owner}'s trash", *keys, "kill.to_trash")


def add_trigger(g: Game, source: Card, when: str, effect: str, controller: str, *keys: str, initial: bool = False) -> ChainItem:
    item = ChainItem(f"{source.name} ({when})", controller, "trigger", effect=effect, source=source.key,
                     pending=True, initial=initial, uid=g.s.new_uid(), place=source.location)
    g.s.chain.append(item)
    g.emit(f"{source.name}'s {when} ability triggers: it goes onto the Chain as a Pending Item, controlled by {controller}",
           *keys, "trigger.onto_chain")
    return item


def draw(g: Game, player: str, n: int, *keys: str) -> None:
    """Draw ``n``; an empty Main Deck burns out first (400.4, 418)."""
    s = g.s
    for _ in range(n):
        guard = 0
        while not s.deck[player]:
            guard += 1
            burn_out(g, player)
            if guard > s.victory_score + 2 or any(p >= s.victory_score for p in s.points.values()):
                break
        if not s.deck[player]:
            return
        top = s.deck[player].pop(0)
        if top is None:
            s.hand_unnamed[player] += 1
            g.emit(f"{player} draws a card from the top of their Main Deck", *keys, "draw.top_card")
        else:
            card = s.cards[top]
            card.zone = "hand"
            g.emit(f"{player} draws {card.name}", *keys, "draw.top_card")


def burn_out(g: Game, player: str) -> None:
    s = g.s
    trash = [c for c in s.cards.values() if c.zone == "trash" and c.owner == player]
    for c in trash:
        c.zone = "deck"
        s.deck[player].append(c.key)
    opponent = s.opponents(player)[0] if len(s.players) == 2 else s.next_player(player)
    s.points[opponent] += 1
    g.emit(f"{player}'s Main Deck is empty: {player} burns out, recycles {len(trash)} card(s) from their trash into "
           f"their Main Deck, and {opponent} gains 1 point ({s.points[opponent]})",
           "draw.burn_out", "burn_out.recycle_trash", "burn_out.opponent_point", "score.other_sources_unrestricted")


def score(g: Game, player: str, bf: Battlefield, how: str) -> None:
    """``player`` scores ``bf`` by ``how`` (conquer or hold): once per battlefield per turn, the final point rule."""
    s = g.s
    how_key = "score.conquer" if how == "conquer" else "score.hold"
    if bf.key in s.scored[player]:
        g.emit(f"{player} already scored {bf.name} this turn: no score", how_key, "score.once_per_battlefield")
        return
    s.scored[player].add(bf.key)
    if s.points[player] == s.victory_score - 1:
        others = [b for b in s.battlefields.values() if b.key != bf.key]
        missing = [b.name for b in others if b.key not in s.scored[player]]
        if how == "hold":
            s.points[player] += 1
            g.emit(f"{player} holds {bf.name} and scores the Final Point ({s.points[player]})", how_key,
                   "score.final_point_hold")
        elif not missing:
            s.points[player] += 1
            g.emit(f"{player} conquers {bf.name} having scored every other battlefield this turn: {player} scores the "
                   f"Final Point ({s.points[player]})", how_key, "score.final_point_conquer")
        else:
            g.emit(f"{player} conquers {bf.name} for what would be the Final Point, but has not scored "
                   f"{', '.join(missing)} this turn: {player} draws a card instead", how_key, "score.final_point_draw_instead")
            draw(g, player, 1, "score.final_point_draw_instead")
    else:
        s.points[player] += 1
        verb = "conquers" if how == "conquer" else "holds"
        g.emit(f"{player} {verb} {bf.name} and scores 1 point ({s.points[player]})", how_key, "score.earns_point")
    when = "conquer" if how == "conquer" else "hold"
    key = "trigger.conquer" if how == "conquer" else "trigger.hold"
    for unit in s.units_at(bf.name):
        effect = unit.defn.trigger(when)
        if effect is not None and unit.controller == player:
            add_trigger(g, unit, when, effect, player, "score.triggers", key)


def establish_control(g: Game, bf: Battlefield, player: str, *keys: str) -> None:
    bf.contested_by = None
    if bf.controller == player:
        g.emit(f"{player} keeps Control of {bf.name}; Contested is cleared", *keys)
        return
    bf.controller = player
    g.emit(f"{player} establishes Control of {bf.name}", *keys, "control.established_by_units")
    score(g, player, bf, "conquer")


def standard_move(g: Game, plan: Moving) -> None:
    """The Standard Move (143): its cost is exhausting the units; they move together."""
    units, dest = list(plan.units), plan.place
    for u in units:
        u.exhausted = True
    to_base = dest.lower() == "base"
    ganked = any(u.location != "base" and not to_base for u in units)
    route = "move.battlefield_to_base" if to_base else "move.ganking" if ganked else "move.base_to_battlefield"
    keys = ("move.standard_is_discretionary", route, "move.no_chain", *(("ganking.adds_permission",) if ganked else ()),
            *(("move.simultaneous",) if len(units) > 1 else ()),
            *(("battlefield.any_number_of_units",) if len(units) > 1 and not to_base else ()))
    g.emit(f"{plan.player} exhausts {', '.join(u.name for u in units)} to pay for the Standard Move",
           "move.standard_cost", "exhaust.action")
    move_units(g, plan.player, units, dest, *keys)
    g.cleanup()


def hide(g: Game, plan: Hiding) -> None:
    """Hiding a card (737.1): recycle a rune, the card goes facedown at the battlefield; no chain."""
    s = g.s
    card, bf, player = plan.card, plan.bf, plan.player
    runes = s.runes[player]
    if runes is not None:
        s.runes[player] = runes - 1
    card.zone, card.at, card.controller, card.hidden_turn = "facedown", bf.name, player, s.turn_number
    bf.facedown = card.key
    g.emit(f"{player} recycles a rune and hides {card.name} facedown at {bf.name} (no chain opens); "
           "from the next turn on it can be played for free as a Reaction",
           "hide.is_discretionary", "hide.places_facedown", "hide.timing_and_cost", "recycle.runes", "hide.no_chain")
    g.cleanup()
