"""Changes to the board every rule shares: moving, leaving the board, drawing, scoring, dealing damage, paying,
runes and the Rune Pool, tokens, attaching; and carrying out the Standard Move and hiding once
:mod:`engine.riftbound.legality` allowed them.

Each function reports what happened through ``g.emit`` (an event citing the rules) and changes ``g.s``.
"""

from __future__ import annotations

from engine.riftbound import replacement, triggers
from engine.riftbound.costs import Payment
from engine.riftbound.legality import Hiding, Moving
from engine.riftbound.state import Battlefield, Card, CardDef, ChainItem, Game, Rune

add_trigger = triggers.add_trigger


def set_location(card: Card, place: str) -> None:
    if place.lower() == "base":
        card.zone, card.at = "base", None
    else:
        card.zone, card.at = "battlefield", place


def _carry(g: Game, unit: Card) -> None:
    """Attached cards are where their unit is (719.3): they move with it (719.3.a)."""
    for gear in g.s.attached(unit):
        gear.zone, gear.at = unit.zone, unit.at


def move_units(g: Game, player: str, units: list[Card], place: str, *keys: str, mover: str | None = None) -> None:
    """Move ``units`` (already checked) to ``place``; apply Contested (428, 184.3.a.1). ``mover``: the player whose
    effect moves them, when not their controller."""
    names = ", ".join(u.name for u in units)
    origins = sorted({u.location or "?" for u in units})
    if place.lower() == "base" and mover is not None and any(u.controller != mover for u in units):
        g.emit(
            f"{names}: {mover}'s effect moves {'it' if len(units) == 1 else 'them'} to a base: each goes to its own "
            f"controller's base ({', '.join(sorted({str(u.controller) for u in units}))}'s), not {mover}'s",
            "base.own_objects_only",
        )
    origin = {u.key: u.location or "" for u in units}
    for u in units:
        set_location(u, place)
        _carry(g, u)
        u.moves += 1
    g.emit(
        f"{names} {'moves' if len(units) == 1 else 'move'} from {', '.join(origins)} to {g.s.place_name(place)}", *keys
    )
    if place.lower() != "base":
        contest(g, g.s.bf(place), player)
    for u in units:
        triggers.fire(
            g,
            "move",
            subject=u,
            player=player,
            what="battlefield" if place.lower() != "base" else "base",
            before={"from": origin[u.key], "first": u is units[0]},
        )


def contest(g: Game, bf: Battlefield, player: str) -> None:
    """A unit of ``player`` became present at ``bf``: Contested, unless already so or ``player`` controls it."""
    if bf.controller == player or bf.contested_by is not None:
        return
    bf.contested_by = player
    bf.was_controller = bf.controller
    if bf.controller is None:
        g.emit(
            f"{bf.name} is uncontrolled: {player} applies Contested to it (a Showdown without a Combat will be staged)",
            "move.contests_destination",
            "control.contested_status",
            "move.showdown_without_combat",
        )
    else:
        g.emit(
            f"{bf.name} is controlled by {bf.controller}: {player} applies Contested to it (a Combat will be staged)",
            "move.contests_destination",
            "control.contested_status",
            "move.causes_combat",
        )


def leave_board(g: Game, card: Card, zone: str) -> None:
    """``card`` goes to ``zone`` (hand, trash, deck, banishment) from wherever it is; it becomes a new object
    (356.3.e.4) and forgets what was temporary on it (109). A token put off the board ceases to exist (180.1);
    cards attached to it stay where it was, detached (719.5); one attached to something is detached (422)."""
    s = g.s
    was_on_board = card.on_board
    where, at, controller = card.zone, card.at, card.controller
    if where == "facedown":
        for bf in s.battlefields.values():
            if bf.facedown == card.key:
                bf.facedown = None
    card.zone, card.at = zone, None
    card.controller = None if zone not in ("base", "battlefield") else card.controller
    card.exhausted = card.buffed = card.stunned = False
    card.more_buffs = 0
    card.damage = card.temp_might = 0
    card.designation = None
    card.hidden_turn = None
    card.replacement_used = False
    card.granted = ()
    card.attached_to = None
    card.moves = 0
    card_epoch_bump(g, card)
    if was_on_board:
        for gear in [c for c in s.cards.values() if c.attached_to == card.key]:
            gear.attached_to = None
            gear.zone, gear.at = where, at
            g.emit(
                f"{gear.name} is detached from {card.name} and stays where it was ({at or 'base'})",
                "attach.detach_on_leaving",
                "attach.detached_location",
            )
    if card.defn.token and zone not in ("base", "battlefield"):
        card.zone = "gone"
        g.emit(
            f"{card.name} is a token: "
            + ("off the board" if zone == "gone" else f"put into the {zone}")
            + ", it ceases to exist",
            "token.ceases_off_board",
        )
    if was_on_board and zone not in ("base", "battlefield"):  # "When this leaves the board, ...": from its new zone
        for t in card.defn.triggers:
            if t.spec.event == "leave":
                add_trigger(
                    g, card, "leave", t.effect, controller or card.owner, "trigger.after_event", "trigger.outside_board"
                )


def card_epoch_bump(g: Game, card: Card) -> None:
    g.s.epochs[card.key] = g.s.epochs.get(card.key, 0) + 1


def kill(g: Game, card: Card, *keys: str) -> bool:
    """Kill: Deathknell goes onto the chain first, then the card goes to its owner's trash (415.1.a.1.b, 415.2).

    A replacement effect may replace the death (366): then nothing of this happens and False is returned."""
    if replacement.would(g, "die", card, f"{card.name} would die", "kill.to_trash"):
        return False
    controller = card.controller
    buffed = card.buffed
    died_at = card.location
    for t in card.defn.triggers:
        if t.spec.event == "die" and t.spec.what == "killed":  # "when this is killed": seen from the trash it enters
            add_trigger(
                g,
                card,
                "killed",
                t.effect,
                card.controller or card.owner,
                "trigger.condition_met",
                "trigger.enters_zone_same_time",
                noted=(("at", died_at or ""),),
            )
        elif t.spec.event == "die":
            for _ in range(1 + deathknell_extra(g, card)):
                add_trigger(
                    g,
                    card,
                    "deathknell",
                    t.effect,
                    card.controller or card.owner,
                    "kill.deathknell_first",
                    "trigger.deathknell",
                    noted=(("at", died_at or ""),),
                )
    where = card.location
    g.emit(f"{card.name} is killed at {where} and goes to {card.owner}'s trash", *keys, "kill.to_trash")
    leave_board(g, card, "trash")  # after: what leaving the board does (a token ceases to exist) follows it
    champion_note(g, card)
    if card.is_unit:
        triggers.left_with(g, [card])
        triggers.fire(g, "dies", subject=card, before={"controller": controller, "buffed": buffed})
    return True


def deathknell_extra(g: Game, unit: Card) -> int:
    """How many additional times ``unit``'s Deathknell triggers: "Your [Deathknell] effects trigger an additional
    time", of each object its controller has on the board as it dies (a passive ability, the card's word)."""
    who = unit.controller or unit.owner
    extra = 0
    for c in g.s.cards.values():
        if c.on_board and c.controller == who and any(p[0] == "deathknell_more" for p in c.defn.passives):
            extra += 1
            g.emit(
                f"{c.name}: {who}'s Deathknell effects trigger an additional time: {unit.name}'s triggers once more",
                "passive.statement",
                "text.card_supersedes",
                "trigger.deathknell",
            )
    return extra


def champion_note(g: Game, card: Card) -> None:
    """A Chosen Champion that leaves the board goes where any card would: not back to the Champion Zone."""
    chosen = g.s.champions.get(card.owner)
    if chosen and card.name.split("#", 1)[0].strip().lower() == chosen.lower() and card.zone == "trash":
        g.emit(
            f"{card.name} is {card.owner}'s Chosen Champion: it goes to the trash like any other card, not back to "
            "the Champion Zone",
            "champion.not_returned",
            "kill.to_trash",
        )


def draw(g: Game, player: str, n: int, *keys: str) -> None:
    """Draw ``n``; an empty Main Deck burns out first (400.4, 418)."""
    s = g.s
    for _ in range(n):
        guard = 0
        while not s.deck[player]:
            guard += 1
            burn_out(g, player)
            if guard > 1 and _wins_by_burn_outs(g, player):
                return
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


def discard(g: Game, player: str, n: int, *keys: str, cards: list[Card] | None = None) -> list[Card]:
    """Discard ``n`` (409): as many as possible; named cards first, in the order listed (``cards``: those, chosen
    by an effect). Returns the named cards discarded."""
    s = g.s
    gone: list[Card] = []
    done = 0
    for _ in range(n):
        named = s.hand(player) if cards is None else [c for c in cards if c.zone == "hand" and c not in gone]
        if named:
            card = named[0]
            card.zone = "trash"
            card_epoch_bump(g, card)
            gone.append(card)
            g.emit(f"{player} discards {card.name}", *keys, "discard.action")
            s.discarded.append(player)
        elif cards is None and s.hand_unnamed[player]:
            s.hand_unnamed[player] -= 1
            g.emit(f"{player} discards a card", *keys, "discard.action")
            s.discarded.append(player)
        else:
            g.emit(f"{player} has no card left to discard: the rest is ignored", *keys, "discard.as_many_as_possible")
            break
        done += 1
    if done:  # "when you discard one or more cards", "when you discard me": once for the cards discarded together
        triggers.fire(g, "discard", player=player, subjects=tuple(gone))
    return gone


def _wins_by_burn_outs(g: Game, player: str) -> bool:
    """v1.3 (431.3.b): points from the second Burn Out in sequence on that give an opponent the Victory Score and
    more points than any other player win at once, without waiting for a cleanup."""
    s = g.s
    if not g.citations.follows("burn_out.wins_at_once"):
        return False
    for p in s.players:
        others = [s.points[o] for o in s.players if o != p and not s.allied(o, p)]
        if p != player and s.points[p] >= s.victory_score and all(n < s.points[p] for n in others):
            s.winner = p
            s.priority = s.focus = None
            g.emit(
                f"{p} reaches {s.points[p]} points from Burn Outs in sequence, at least the Victory Score and more "
                f"than any opponent: {p} wins the game at once",
                "burn_out.wins_at_once",
                "victory.wins",
            )
            return True
    return False


def burn_out(g: Game, player: str) -> None:
    s = g.s
    trash = [c for c in s.cards.values() if c.zone == "trash" and c.owner == player]
    for c in trash:
        c.zone = "deck"
        s.deck[player].append(c.key)
    opponent = s.opponents(player)[0] if len(s.players) == 2 else s.next_player(player)
    s.points[opponent] += 1
    g.emit(
        f"{player}'s Main Deck is empty: {player} burns out, recycles {len(trash)} card(s) from their trash into "
        f"their Main Deck, and {opponent} gains 1 point ({s.points[opponent]})",
        "draw.burn_out",
        "burn_out.recycle_trash",
        "burn_out.opponent_point",
        "score.other_sources_unrestricted",
    )


def no_points(g: Game, player: str) -> Card | None:
    """An opponent's object saying "opponents can't gain points" (while it is at a battlefield), or None."""
    for c in g.s.cards.values():
        if c.on_board and c.controller != player and not g.s.allied(c.controller, player):
            for passive in c.defn.passives:
                if passive[0] == "no_points" and c.zone == "battlefield":
                    return c
    return None


def gain_points(g: Game, player: str, n: int, source: str, *keys: str) -> None:
    s = g.s
    stopper = no_points(g, player)
    if stopper is not None:
        g.emit(
            f"{player} would gain {n} point(s) from {source}, but {stopper.name} says opponents can't gain points: "
            f"{player} gains none",
            *keys,
            "rules.cant_beats_can",
            "passive.statement",
        )
        return
    s.points[player] += n
    g.emit(f"{player} gains {n} point(s) ({s.points[player]})", *keys, "score.other_sources_unrestricted")


def score(g: Game, player: str, bf: Battlefield, how: str, before: dict | None = None) -> None:
    """``player`` scores ``bf`` by ``how`` (conquer or hold): once per battlefield per turn, the final point rule."""
    s = g.s
    how_key = "score.conquer" if how == "conquer" else "score.hold"
    if bf.key in s.scored[player]:
        g.emit(f"{player} already scored {bf.name} this turn: no score", how_key, "score.once_per_battlefield")
        return
    for passive in bf.defn.passives:
        if passive[0] == "no_score_here":
            g.emit(
                f"{bf.name} says players can't score here: {player} does not {how} it (no point, no {how} abilities)",
                how_key,
                "battlefield.passive",
                "rules.cant_beats_can",
            )
            return
    s.scored[player].add(bf.key)
    stopper = no_points(g, player)
    # The Final Point's restrictions: a player one point from the Victory Score (v1.2, 448.1.b), or more (v1.3,
    # 466.1.b: a player at the Victory Score has not always won, 323.1)
    higher = g.citations.follows("score.winning_point_or_higher")
    if s.points[player] == s.victory_score - 1 or (higher and s.points[player] >= s.victory_score - 1):
        others = [b for b in s.battlefields.values() if b.key != bf.key]
        missing = [b.name for b in others if b.key not in s.scored[player]]
        extra = ("score.winning_point_or_higher",) if higher and s.points[player] >= s.victory_score else ()
        if how == "hold" and stopper is None:
            s.points[player] += 1
            g.emit(
                f"{player} holds {bf.name} and scores the Final Point ({s.points[player]})",
                how_key,
                "score.final_point_hold",
                *extra,
            )
        elif not missing and stopper is None:
            s.points[player] += 1
            g.emit(
                f"{player} conquers {bf.name} having scored every other battlefield this turn: {player} scores the "
                f"Final Point ({s.points[player]})",
                how_key,
                "score.final_point_conquer",
                *extra,
            )
        elif missing and how == "conquer":
            g.emit(
                f"{player} conquers {bf.name} for what would be the Final Point, but has not scored "
                f"{', '.join(missing)} this turn: {player} draws a card instead",
                how_key,
                "score.final_point_draw_instead",
                *extra,
                *(
                    ("trigger.conquer_even_if_negated",)
                    if any(t.spec.event == "conquer" for _, t in triggers.watchers(g))
                    else ()
                ),
            )
            draw(g, player, 1, "score.final_point_draw_instead")
        else:
            assert stopper is not None
            g.emit(
                f"{player} {'holds' if how == 'hold' else 'conquers'} {bf.name}, but {stopper.name} says opponents "
                f"can't gain points: no point",
                how_key,
                "rules.cant_beats_can",
                "passive.statement",
            )
    elif stopper is not None:
        verb = "conquers" if how == "conquer" else "holds"
        g.emit(
            f"{player} {verb} {bf.name}, but {stopper.name} says opponents can't gain points: {player} gains no "
            f"point; {how} abilities still trigger",
            how_key,
            "rules.cant_beats_can",
            "passive.statement",
            "trigger.conquer_even_if_negated" if how == "conquer" else "trigger.hold_even_if_negated",
        )
    else:
        s.points[player] += 1
        verb = "conquers" if how == "conquer" else "holds"
        g.emit(f"{player} {verb} {bf.name} and scores 1 point ({s.points[player]})", how_key, "score.earns_point")
    triggers.fire(g, how, player=player, bf=bf, before=before or {})


def establish_control(g: Game, bf: Battlefield, player: str, *keys: str) -> None:
    bf.contested_by = None
    if bf.controller == player:
        g.emit(f"{player} keeps Control of {bf.name}; Contested is cleared", *keys)
        return
    before = {"controller": bf.was_controller if bf.was_controller is not None else bf.controller}
    bf.controller = player
    g.emit(f"{player} establishes Control of {bf.name}", *keys, "control.established_by_units")
    score(g, player, bf, "conquer", before)


def standard_move(g: Game, plan: Moving) -> None:
    """The Standard Move (143): its cost is exhausting the units; they move together."""
    units, dest = list(plan.units), plan.place
    for u in units:
        u.exhausted = True
    to_base = dest.lower() == "base"
    ganked = any(u.location != "base" and not to_base for u in units)
    route = "move.battlefield_to_base" if to_base else "move.ganking" if ganked else "move.base_to_battlefield"
    keys = (
        "move.standard_is_discretionary",
        route,
        "move.no_chain",
        *(("ganking.adds_permission",) if ganked else ()),
        *(("move.simultaneous",) if len(units) > 1 else ()),
        *(("battlefield.any_number_of_units",) if len(units) > 1 and not to_base else ()),
    )
    g.emit(
        f"{plan.player} exhausts {', '.join(u.name for u in units)} to pay for the Standard Move",
        "move.standard_cost",
        "exhaust.action",
    )
    move_units(g, plan.player, units, dest, *keys)
    g.cleanup()


def hide(g: Game, plan: Hiding) -> None:
    """Hiding a card (737.1): pay [A], the card goes facedown at the battlefield; no chain."""
    s = g.s
    card, bf, player = plan.card, plan.bf, plan.player
    paid = plan.payment is not None and not plan.payment.free
    free = player in s.hide_free  # "you can hide cards ignoring costs this turn"
    if paid:
        assert plan.payment is not None
        pay(g, plan.payment, f"hiding {card.name}")
        how = f"pays [A] and hides {card.name}"
    elif free:
        how = f"hides {card.name} ignoring its cost ([A]), as an effect lets them this turn,"
    else:
        how = f"pays [A] (its costs are not tracked) and hides {card.name}"
    card.zone, card.at, card.controller, card.hidden_turn = "facedown", bf.name, player, s.turn_number
    bf.facedown = card.key
    g.emit(
        f"{player} {how} facedown at {bf.name} (no chain opens); "
        "from the next turn on it can be played for free as a Reaction",
        "hide.is_discretionary",
        "hide.places_facedown",
        "hide.timing_and_cost",
        "hide.no_chain",
        *(("cost.ignored",) if free else ()),
    )
    g.cleanup()


# -- costs, runes and the Rune Pool -----------------------------------------------------------------------
def pay(g: Game, payment: Payment, what: str) -> None:
    """Carry out a payment (354): pool first, then runes exhausted for energy, recycled for power, and objects
    exhausted for the power they add."""
    s = g.s
    player = payment.player
    if payment.free or not payment.cost:
        return
    pool = s.pool[player]
    parts = []
    if payment.pool_energy:
        pool.energy -= payment.pool_energy
        parts.append(f"spends [{payment.pool_energy}] from their Rune Pool")
    for p in payment.pool_power:
        pool.power.remove(p)
    if payment.pool_power:
        parts.append(f"spends {''.join(f'[{p}]' for p in payment.pool_power)} from their Rune Pool")
    for o in payment.only_spent:
        pool.only.remove(o)
    if payment.only_spent:
        spent = "".join(f"[{'1' if r == 'energy' else r}]" for r, _ in payment.only_spent)
        parts.append(f"spends {spent} from their Rune Pool, added only to play {payment.only_spent[0][1]}s")
    runes = s.runes[player] or []
    if payment.exhaust:
        for i in payment.exhaust:
            runes[i] = Rune(runes[i].domain, True)
        parts.append(f"exhausts {len(payment.exhaust)} rune(s) for [{len(payment.exhaust)}]")
    for key in payment.sources:
        obj = s.cards[key]
        obj.exhausted = True
        parts.append(f"exhausts {obj.name} to add its power")
    if payment.recycle:
        names = [
            f"{'an exhausted' if runes[i].exhausted else 'a'} {runes[i].domain or ''} rune".replace("  ", " ")
            for i in payment.recycle
        ]
        parts.append(f"recycles {', '.join(names)} for power")
        for i in sorted(payment.recycle, reverse=True):
            runes.pop(i)
        if s.rune_deck[player] is not None:
            s.rune_deck[player] = (s.rune_deck[player] or 0) + len(payment.recycle)
    _after_pay = bool(payment.recycle)
    g.emit(
        f"{player} pays {payment.text()} for {what}: {'; '.join(parts)}",
        "play.pay_costs",
        *(("rune.abilities",) if payment.exhaust or payment.recycle else ()),
        *(("recycle.runes",) if payment.recycle else ()),
        *(("pool.spend",) if payment.pool_energy or payment.pool_power or payment.only_spent else ()),
        *(("rune.exhaust_energy",) if payment.exhaust else ()),
        *(("rune.recycle_power",) if payment.recycle else ()),
        *(("cost.power_of_domain",) if any("/" in p for p in payment.cost.power) else ()),
    )
    if _after_pay:
        triggers.rune_not_card(g, player)


def add(g: Game, player: str, energy: int, power: tuple[str, ...], source: str, *keys: str, only: str = "") -> None:
    """Add to ``player``'s Rune Pool; ``only``: what it may pay for ("spell": "Use only to play spells")."""
    pool = g.s.pool[player]
    if only:
        pool.only.extend([("energy", only)] * energy + [(p, only) for p in power])
    else:
        pool.energy += energy
        pool.power.extend(power)
    g.emit(
        f"{source} adds {'[' + str(energy) + ']' if energy else ''}{''.join(f'[{p}]' for p in power)} to {player}'s "
        f"Rune Pool{f', only to play {only}s' if only else ''} ({pool.text()})",
        *keys,
        "add.to_pool",
        *(("text.card_supersedes",) if only else ()),
    )


def channel(g: Game, player: str, n: int, exhausted: bool, *keys: str, lead: str = "") -> int:
    """Channel ``n`` runes (417) from the Rune Deck; as many as there are (315.3.b.1). Returns how many."""
    s = g.s
    left = s.rune_deck[player]
    got = n if left is None else min(n, left)
    if left is not None:
        s.rune_deck[player] = left - got
    if s.runes[player] is not None:
        s.runes[player] = [*(s.runes[player] or []), *(Rune(None, exhausted) for _ in range(got))]
    count = f" ({len(s.runes[player] or [])} runes)" if s.runes[player] is not None else ""
    if got < n:
        g.emit(
            f"{lead}{player} channels {got} rune(s){' exhausted' if exhausted else ''}: the Rune Deck has no more; "
            f"nothing else happens{count}",
            *keys,
            "channel.action",
            "channel.as_many_as_possible",
        )
    else:
        g.emit(
            f"{lead}{player} channels {got} rune{'s' if got != 1 else ''}{' exhausted' if exhausted else ''} from their "
            f"Rune Deck{count}",
            *keys,
            "channel.action",
            *(("channel.exhausted",) if exhausted else ()),
        )
    return got


def ready_runes(g: Game, player: str, n: int, *keys: str, every: bool = False) -> None:
    """Ready ``n`` of ``player``'s exhausted runes, or ``every`` one ("ready your runes")."""
    runes = g.s.runes[player]
    if runes is None:
        g.emit(f"{player} readies {'all their' if every else f'up to {n}'} rune(s)", *keys, "ready.action")
        return
    if every:
        n = sum(1 for r in runes if r.exhausted)
    done = 0
    for i, r in enumerate(runes):
        if r.exhausted and done < n:
            runes[i] = Rune(r.domain, False)
            done += 1
    g.emit(f"{player} readies {done} rune(s)", *keys, "ready.action", *(("text.do_what_you_can",) if done < n else ()))


def rune_label(rune: Rune) -> str:
    """A rune as a player names it when choosing one: ``exhausted Fury rune``, ``ready rune``."""
    return " ".join(w for w in ("exhausted" if rune.exhausted else "ready", rune.domain or "", "rune") if w)


def recycle_rune(g: Game, player: str, *keys: str, pick: int | None = None) -> None:
    """ "You must recycle one of your runes": chosen by the player as it resolves, not a target (355.10.f):
    ``pick`` is the rune chosen (None: the runes do not differ, or are not counted)."""
    runes = g.s.runes[player]
    if runes is None:
        g.emit(
            f"{player} recycles one of their runes (chosen now, as it resolves)",
            *keys,
            "recycle.runes",
            "targets.must_not_target",
        )
        return
    if not runes:
        g.emit(f"{player} has no rune to recycle", *keys, "text.do_what_you_can")
        return
    rune = runes.pop(pick or 0)
    if g.s.rune_deck[player] is not None:
        g.s.rune_deck[player] = (g.s.rune_deck[player] or 0) + 1
    g.emit(
        f"{player} recycles {'an exhausted' if rune.exhausted else 'a'}{' ' + rune.domain if rune.domain else ''} "
        f"rune, {'the one they choose' if pick is not None else 'chosen now'} as it resolves",
        *keys,
        "recycle.runes",
        "targets.must_not_target",
    )
    triggers.rune_not_card(g, player)


def recycle_from_trash(g: Game, player: str, n: int, *keys: str) -> int:
    """Recycle ``n`` cards from the trash to the bottom of the Main Deck (403); fires "when you recycle"."""
    s = g.s
    trash = [c for c in s.cards.values() if c.zone == "trash" and c.owner == player][:n]
    for c in trash:
        c.zone = "deck"
        card_epoch_bump(g, c)
        s.deck[player].append(c.key)
    if trash:
        g.emit(
            f"{player} recycles {', '.join(c.name for c in trash)} from their trash to the bottom of their Main Deck",
            *keys,
            "recycle.to_main_deck",
        )
        triggers.fire(g, "recycle", player=player)
    return len(trash)


def recycle_cards(g: Game, cards: list[Card], *keys: str) -> None:
    """Recycle cards from wherever they are to the bottom of their owners' Main Decks: each player recycles their
    own cards, whoever is told to (403.1.c); each owner's "when you recycle" abilities see it."""
    s = g.s
    owners: list[str] = []
    for c in cards:
        was = c.zone
        c.zone = "deck"
        card_epoch_bump(g, c)
        s.deck[c.owner].append(c.key)
        g.emit(
            f"{c.name} is recycled from {c.owner}'s {was} to the bottom of {c.owner}'s Main Deck: its owner "
            f"recycles it",
            *keys,
            "recycle.to_main_deck",
            "recycle.own_decks",
        )
        if c.owner not in owners:
            owners.append(c.owner)
    for owner in owners:
        triggers.fire(g, "recycle", player=owner)


def recycle_permanent(g: Game, card: Card, *keys: str) -> None:
    """Recycle a unit or gear from the board to the bottom of its owner's Main Deck (403.1.a). A token is no Main
    Deck card: the Spiritforged FAQ sends it there like a card of its type, where it ceases to exist (faq-spiritforged-24,
    180.1); Core Rules v1.2 name no destination for it (a gap), and it ceases to exist off the board all the same."""
    s = g.s
    where = card.location
    if card.defn.token:
        if "faq.token_recycled" in s.rulings:
            g.emit(
                f"{card.name} is a token: it is recycled from {where} to {card.owner}'s Main Deck like any other "
                f"{card.defn.type}, and still counts as the {card.defn.type} recycled",
                *keys,
                "faq.token_recycled",
                "recycle.to_main_deck",
            )
        else:
            g.emit(
                f"{card.name} is a token, neither a Main Deck card nor a rune: the rules of this edition name no "
                "deck it is recycled to (a gap; the Spiritforged FAQ, edition 2026-01-14: the Main Deck); it leaves "
                f"{where}",
                *keys,
                "token.not_card",
                "recycle.to_main_deck",
                "recycle.runes",
            )
        leave_board(g, card, "gone")
        return
    leave_board(g, card, "deck")
    s.deck[card.owner].append(card.key)
    g.emit(
        f"{card.name} is recycled from {where} to the bottom of {card.owner}'s Main Deck: its owner recycles it",
        *keys,
        "recycle.to_main_deck",
        "recycle.own_decks",
    )
    triggers.fire(g, "recycle", player=card.owner)


def play_from(g: Game, card: Card, player: str, place: str, item: ChainItem, *keys: str) -> None:
    """An effect plays ``card`` from a zone (a trash): its first step puts it on the Chain as a Pending Item; it
    is finalized once what is resolving is done (351.3, 333.1.b)."""
    s = g.s
    was = card.zone
    warden = s.restrictor(player, "only_base") if card.is_unit and place.lower() != "base" else None
    if warden is not None:  # "opponents can only play units to their base"
        g.emit(
            f"{warden.name} says {warden.controller}'s opponents can only play units to their base: {card.name} is "
            f"played to {player}'s base",
            *keys,
            "passive.statement",
        )
        place = "base"
    card.zone = "chain"
    card_epoch_bump(g, card)
    new = ChainItem(
        card.name,
        player,
        card.defn.type,
        effect=card.defn.effect if card.defn.type == "spell" else "",
        card=card.key,
        place=place,
        uid=s.new_uid(),
        pending=True,
        origin=was,
    )
    s.chain.append(new)
    g.emit(
        f"{item.label}: {player} plays {card.name} from their {was}: it goes onto the Chain as a Pending Item and "
        "is finalized once the current effect has finished resolving",
        *keys,
        "play.becomes_pending",
        "play.continue_resolving",
    )
    if new.kind == "spell" and s.next_spell:  # "the next spell you play this turn ...": this one
        next_spell_played(g, new)


def next_spell_played(g: Game, item: ChainItem) -> None:
    """The spell ``item`` is its controller's next spell this turn: the delayed passive abilities waiting for it
    ("the next spell you play this turn costs [5] less / deals 1 Bonus Damage", 383.4) apply to it, and are used."""
    s = g.s
    mine = [n for n in s.next_spell if n[0] == item.controller]
    if not mine or item.kind != "spell":
        return
    s.next_spell = [n for n in s.next_spell if n[0] != item.controller]
    for _, what, n, source in mine:
        if what == "bonus":
            item.noted = (*item.noted, ("bonus", f"{n}:{source}"))
        said = f"costs [{n}] less" if what == "less" else f"deals {n} Bonus Damage"
        g.emit(
            f"{item.label} is the next spell {item.controller} plays this turn: it {said} ({source})",
            "delayed.passive",
            *(("cost.discounts",) if what == "less" else ("bonus.applies",)),
        )


# -- damage --------------------------------------------------------------------------------------------------
def bonus_damage(g: Game, item: ChainItem, unit: Card) -> tuple[int, list[str]]:
    """Bonus Damage a spell's or ability's Deal gets on ``unit`` (712-715): every instance summed, applied once."""
    s = g.s
    total, names = 0, []
    for bf in s.battlefields.values():
        for passive in bf.defn.passives:
            if passive[0] == "bonus_damage" and (passive[2] != "here" or (unit.location or "").lower() == bf.key):
                total += passive[1]
                names.append(bf.name)
    for c in s.cards.values():
        if c.on_board and c.controller == item.controller:
            for passive in c.defn.passives:
                if passive[0] == "bonus_damage" and passive[3] == "your":
                    total += passive[1]
                    names.append(c.name)
    for key, value in item.noted:  # "the next spell you play this turn deals 1 Bonus Damage"
        if key == "bonus":
            n, _, source = value.partition(":")
            total += int(n)
            names.append(source)
    return max(0, total), names


def deal(g: Game, item: ChainItem, unit: Card, amount: int, *keys: str, source: Card | None = None) -> None:
    """``item`` deals ``amount`` to ``unit`` (404), or ``source`` (a unit) does when the effect names it (404.6.b.3)."""
    s = g.s
    bonus, bonus_names = 0, list[str]()
    if source is None and item.kind in ("spell", "ability", "trigger"):
        bonus, bonus_names = bonus_damage(g, item, unit)
        amount += bonus
    if amount <= 0:
        g.emit(f"{unit.name} would be dealt 0: no damage (0 is not an amount of damage)", *keys, "might.lethal")
        return
    by = source.name if source is not None else item.label
    if source is None and s.prevent.get(item.controller, "") == "all":
        g.emit(f"Damage that {item.label} would deal to {unit.name} is prevented this turn", *keys, "prevent.damage")
        return
    if source is None and "spells and abilities" in s.prevent.values():
        g.emit(
            f"{item.label} would deal {amount} to {unit.name}: damage dealt by spells and abilities is prevented this "
            "turn",
            *keys,
            "deal.source_default",
            "prevent.damage",
        )
        return
    if replacement.would(g, "damage", unit, f"{unit.name} would be dealt {amount} by {by}", "deal.marks_damage"):
        return
    if unit.defn.passives and s.takes_no_damage(unit):
        g.emit(
            f"{by} would deal {amount} to {unit.name}, which doesn't take damage now: it is prevented",
            *keys,
            "passive.statement",
            "prevent.damage",
        )
        return
    unit.damage += amount
    s.damaged_by[unit.key] = f"{item.uid}:{item.controller}:{item.kind}:{'unit' if source is not None else 'item'}"
    g.emit(
        f"{by} deals {amount} to {unit.name} (damage {unit.damage})"
        + (f", {bonus} of it Bonus Damage from {', '.join(bonus_names)}" if bonus else ""),
        *keys,
        "deal.marks_damage",
        *(("bonus.applies", "bonus.summed_once") if bonus else ()),
        *(("battlefield.passive",) if bonus and any(n.lower() in s.battlefields for n in bonus_names) else ()),
        *(("deal.unit_source",) if source is not None else ()),
    )
    triggers.damaged(g, [unit])


# -- tokens, attaching -----------------------------------------------------------------------------------------
def make_token(
    g: Game,
    player: str,
    name: str,
    might: int,
    keywords: tuple[tuple[str, int], ...],
    ready: bool,
    place: str,
    item: ChainItem,
    *keys: str,
) -> Card:
    """``Play a N might NAME unit token``: a token is played like a unit (179.1.a): it goes onto the Chain as a
    Pending Item and, finalized in the next cleanup, enters the board (exhausted unless the effect says)."""
    s = g.s
    key, n = name, 1
    while key.lower() in s.cards:
        n += 1
        key = f"{name}#{n}"
    values = tuple((k, v) for k, v in keywords if v)
    defn = CardDef("unit", frozenset(k for k, _ in keywords), might, values=values, token=True, tags=(name,))
    card = Card(key, player, defn, zone="chain")
    s.cards[key.lower()] = card
    if values:
        s.continuous = True
    if place != "base" and s.bf(place).controller != player:
        g.emit(
            f"{place} is not {player}'s: the token is played to {player}'s base", *keys, "play.unit_default_locations"
        )
        place = "base"
    warden = s.restrictor(player, "only_base") if place != "base" else None
    if warden is not None:  # "opponents can only play units to their base"
        g.emit(
            f"{warden.name} says {warden.controller}'s opponents can only play units to their base: the token is "
            f"played to {player}'s base",
            *keys,
            "passive.statement",
        )
        place = "base"
    new = ChainItem(
        key, player, "unit", card=card.key, place=place, uid=s.new_uid(), pending=True, paid=("ready",) if ready else ()
    )
    s.chain.append(new)
    g.emit(
        f"{item.label} plays a {might} Might {name} unit token{' with ' + ', '.join(k for k, _ in keywords) if keywords else ''} "
        f"to {s.place_name(place)}: {key} goes onto the Chain as a Pending Item (a token is not a card)",
        *keys,
        "token.played",
        "token.not_card",
        "play.becomes_pending",
    )
    return card


def attach(g: Game, gear: Card, unit: Card, *keys: str) -> None:
    """Attach ``gear`` to ``unit`` (421): it goes where the unit is (not a move, 421.4.a)."""
    if gear.attached_to == unit.key:
        return
    gear.attached_to = unit.key
    gear.zone, gear.at = unit.zone, unit.at
    g.s.continuous = True
    g.emit(
        f"{gear.name} is attached to {unit.name}: its Effect Text and Might Bonus apply to {unit.name}, its own rules "
        "text is inactive",
        *keys,
        "attach.action",
        "attach.topmost_gets_text",
        "attach.location",
    )
