"""State-based actions (704) and triggered abilities (603), checked each time a player would receive
priority (117.5), and the zone changes they cause.

All applicable state-based actions are performed at once, as a single event (704.3), then the check
is repeated. The engine models those of 704.5 that its objects can meet in a two-player game: a-d, f-k,
m, n, p, q (2008: 420.5a-i, k, m, n, p); 704.5e (copies), r-z (counter limits, sagas, dungeons, space
sculptor, battles, roles, speed) concern objects no scenario can give it (refused when named).
"""

from __future__ import annotations

from dataclasses import replace

from engine.mtg.board import apply_control, armour_of, armoured, leave_battlefield, regenerates, targeted, ward
from engine.mtg.conditions import bless
from engine.mtg.effects import enchants, target_kinds
from engine.mtg.legality import AimingTrigger, has_targets, shown_mode, to_decide, trigger_modes, unaimed
from engine.mtg.state import Game, PendingTrigger, Permanent, Source, StackItem, base_name

POISON_LIMIT = 10


def settle(g: Game) -> None:
    """Perform state-based actions until none apply, then put waiting triggers on the stack; repeat
    until neither happens (117.5, 704.3). Stops while a player is to order their triggers (603.3b)."""
    for _ in range(100):
        if g.s.pending in ("triggers", "aim"):
            return
        apply_control(g)  # layer 2 (613.1b): before the checks, which ask who controls what
        for said in bless(g.s):  # ascend of a permanent applies at any time (702.131b)
            g.emit(said, "keyword.ascend")
        acted = check_state(g)
        if g.s.over:
            return
        placed = place_triggers(g)
        if g.s.pending in ("triggers", "aim"):
            return
        if not acted and not placed:
            return


def check_state(g: Game) -> bool:
    s = g.s
    losers: list[tuple[str, str, str]] = []
    for p in s.players:
        if s.life[p] <= 0:
            losers.append((p, f"{p} has {s.life[p]} life and loses the game", "sba.life"))
        if p in s.drew_from_empty:
            losers.append((p, f"{p} attempted to draw from an empty library and loses the game", "sba.empty_library"))
        if s.poison.get(p, 0) >= POISON_LIMIT:
            losers.append((p, f"{p} has {s.poison[p]} poison counters and loses the game", "sba.poison"))
    dying: list[tuple[Permanent, str, str]] = []
    said: list[tuple[str, tuple[str, ...]]] = []
    legends = worlds = attachments = pairs = False  # which of the rarer checks can apply at all
    for perm in s.battlefield:
        supertypes = perm.card.supertypes
        if supertypes:
            legends = legends or "legendary" in supertypes
            worlds = worlds or "world" in supertypes
        if perm.attached_to is not None or perm.card.is_aura:
            attachments = True
        if perm.counters:
            pairs = pairs or bool(perm.counters.get("+1/+1") and perm.counters.get("-1/-1"))
        if perm.is_a("planeswalker") and perm.counters.get("loyalty", 0) <= 0:
            dying.append((perm, f"{perm.name} has 0 loyalty and is put into its owner's graveyard", "sba.planeswalker"))
            continue
        if not perm.is_a("creature"):
            continue
        toughness = s.toughness(perm)
        if toughness <= 0:
            dying.append(
                (perm, f"{perm.name} has toughness {toughness} and is put into its owner's graveyard", "sba.toughness")
            )
            continue
        lethal = perm.damage >= toughness
        if (lethal or perm.deathtouched) and s.has(perm, "indestructible"):
            if not perm.spared:
                perm.spared = True
                why = (
                    f"lethal damage ({perm.damage} on a toughness of {toughness})"
                    if lethal
                    else "damage from a source with deathtouch"
                )
                said.append(
                    (
                        f"{perm.name} has {why} but is indestructible: it is not destroyed",
                        ("sba.check", "sba.lethal" if lethal else "sba.deathtouch", "keyword.indestructible"),
                    )
                )
        elif (lethal or perm.deathtouched) and perm.regeneration:
            why = (
                f"has lethal damage ({perm.damage} on a toughness of {toughness})"
                if lethal
                else "was dealt damage by a source with deathtouch"
            )
            regenerates(
                g,
                perm,
                f"{perm.name} {why} and would be destroyed",
                "sba.check",
                "sba.lethal" if lethal else "sba.deathtouch",
            )
        elif (lethal or perm.deathtouched) and (armour := armour_of(s, perm)) is not None:
            why = (
                f"has lethal damage ({perm.damage} on a toughness of {toughness})"
                if lethal
                else "was dealt damage by a source with deathtouch"
            )
            armoured(
                g,
                perm,
                armour,
                f"{perm.name} {why} and would be destroyed",
                "sba.lethal" if lethal else "sba.deathtouch",
            )
            dying.append((armour, f"{armour.name} is destroyed instead of {perm.name}", "keyword.totem_armor"))
        elif lethal:
            dying.append(
                (
                    perm,
                    f"{perm.name} has lethal damage ({perm.damage} on a toughness of {toughness}) and is destroyed",
                    "sba.lethal",
                )
            )
        elif perm.deathtouched:
            dying.append(
                (perm, f"{perm.name} was dealt damage by a source with deathtouch and is destroyed", "sba.deathtouch")
            )
    if legends:
        dying += _legend_rule(g, {p.oid for p, _, _ in dying})
    if worlds:
        dying += _world_rule(g, {p.oid for p, _, _ in dying})
    unattach: list[tuple[Permanent, str, str]] = []
    if attachments:
        dying += _bestowed_stay(g, _auras(g, {p.oid for p, _, _ in dying}))
        unattach = _unattach(g, {p.oid for p, _, _ in dying})
    annihilate = (
        [
            (p, min(p.counters.get("+1/+1", 0), p.counters.get("-1/-1", 0)))
            for p in s.battlefield
            if p.counters.get("+1/+1", 0) and p.counters.get("-1/-1", 0)
        ]
        if pairs
        else []
    )
    vanishing = []
    if s.loose_tokens:  # a token left the battlefield since the last check
        vanishing = [
            (owner, card, zone)
            for zone, cards_of in (
                ("graveyard", s.graveyard),
                ("hand", s.hand),
                ("exile", s.exile),
                ("library", s.library),
            )
            for owner, cards in cards_of.items()
            for card in cards
            if card.token
        ]
        s.loose_tokens = False
    for perm in s.battlefield:
        perm.deathtouched = False
    for what, keys in said:
        g.emit(what, *keys)
    if not losers and not dying and not unattach and not annihilate and not vanishing:
        return False
    for _perm, what, key in dying:
        g.emit(f"State-based action: {what}", "priority.sba_first", "sba.check", *key.split())
    for perm, what, key in unattach:
        g.emit(f"State-based action: {what}", "priority.sba_first", "sba.check", *key.split())
        perm.attached_to = None
    for perm, n in annihilate:
        perm.counters["+1/+1"] -= n
        perm.counters["-1/-1"] -= n
        perm.counters = {k: v for k, v in perm.counters.items() if v}
        g.emit(
            f"State-based action: {perm.name} has +1/+1 and -1/-1 counters: {n} of each are removed "
            f"(now {s.power(perm)}/{s.toughness(perm)})",
            "priority.sba_first",
            "sba.check",
            "sba.counters",
        )
    for owner, card, zone in vanishing:
        {"graveyard": s.graveyard, "hand": s.hand, "exile": s.exile, "library": s.library}[zone][owner].remove(card)
        g.emit(
            f"State-based action: {card.name} is a token in {owner}'s {zone}: it ceases to exist",
            "priority.sba_first",
            "sba.check",
            "sba.token",
        )
    together = [perm for perm, _, _ in dying]  # one event (704.3): each one's replacement effects see all of them
    for perm in together:
        if perm in s.battlefield:
            leave_battlefield(g, perm, "graveyard", together)
    if losers:
        for _p, what, key in losers:
            g.emit(
                f"State-based action: {what}",
                "priority.sba_first",
                "sba.check",
                key,
                "game.lose_draw"
                if key == "sba.empty_library"
                else "game.lose_poison"
                if key == "sba.poison"
                else "game.lose_life",
            )
        s.lost |= {p for p, _, _ in losers}
        left = [p for p in s.players if p not in s.lost]
        s.winner = left[0] if len(left) == 1 else "draw"
        s.priority = None
        s.pending = None
        if len(left) == 1:
            g.emit(f"{left[0]} wins the game: every opponent has lost", "game.win", "game.over")
        else:
            g.emit("All players lost at once: the game is a draw", "game.over")
        s.drew_from_empty.clear()
    return True


def _legend_rule(g: Game, already: set[int]) -> list[tuple[Permanent, str, str]]:
    """Since 2013-07-13: a player with two or more legendary permanents of one name keeps one (the engine
    keeps the newest, as players usually do); before: all legendary permanents of that name go, whoever
    controls them."""
    groups: dict[tuple[str, str], list[Permanent]] = {}
    legends = [p for p in g.s.battlefield if "legendary" in p.card.supertypes and p.oid not in already]
    per_player = len(legends) > 1 and g.s.follows("legend_rule_per_player")
    for perm in legends:
        key = (base_name(perm.name).lower(), perm.controller if per_player else "")
        groups.setdefault(key, []).append(perm)
    out = []
    for perms in groups.values():
        if len(perms) < 2:
            continue
        doomed = sorted(perms, key=lambda p: p.since)[:-1] if per_player else perms
        for perm in doomed:
            out.append((perm, f"legend rule: {perm.name} is put into its owner's graveyard", "sba.legend"))
    return out


def _world_rule(g: Game, already: set[int]) -> list[tuple[Permanent, str, str]]:
    """All permanents with the supertype world but the newest go (704.5k; 2008: 420.5i)."""
    worlds = [p for p in g.s.battlefield if "world" in p.card.supertypes and p.oid not in already]
    if len(worlds) < 2:
        return []
    newest = max(worlds, key=lambda p: p.since)
    return [
        (
            p,
            f"world rule: {p.name} is put into its owner's graveyard ({newest.name} is the newest world permanent)",
            "sba.world",
        )
        for p in worlds
        if p is not newest
    ]


def _bestowed_stay(g: Game, auras: list[tuple[Permanent, str, str]]) -> list[tuple[Permanent, str, str]]:
    """Of the Auras about to go to the graveyard (704.5m), a bestowed Aura stays: it becomes unattached
    and ceases to be bestowed, a creature again (702.103f, an exception to 704.5m); the others go."""
    out = []
    for aura, why, key in auras:
        card = g.s.definition(aura.name) if "bestowed" in aura.designations else None
        if card is None:
            out.append((aura, why, key))
            continue
        aura.card, aura.attached_to = card, None
        aura.designations = tuple(d for d in aura.designations if d != "bestowed")
        g.emit(
            f"{aura.name} is a bestowed Aura and {why.split(': ', 1)[-1]}: it becomes unattached and ceases to be "
            "bestowed, a creature again, rather than going to the graveyard",
            "keyword.bestow",
        )
    return out


def _auras(g: Game, already: set[int]) -> list[tuple[Permanent, str, str]]:
    """An Aura attached to an illegal object, or to nothing, goes to its owner's graveyard (704.5m), among
    them one attached to a permanent with protection from a quality it has (702.16c)."""
    s = g.s
    out = []
    for aura in s.battlefield:
        if not aura.card.is_aura or aura.oid in already:
            continue
        host = s.permanent(aura.attached_to) if aura.attached_to is not None else None
        why, key = "", "sba.aura"
        if host is None:
            why = "it is not attached to anything"
        else:
            kind = enchants(aura.card.keywords) or "creature"
            quality = s.protected_from(host, s.source_of(aura), keeping=aura)
            if not s.enchantable(host, kind, aura.controller):
                why = f"{host.name} is not a {kind}"
            elif quality is not None:
                why, key = f"{host.name} has protection from {quality}", "sba.aura keyword.protection_enchant"
        if why:
            out.append((aura, f"the Aura {aura.name} is put into its owner's graveyard: {why}", key))
    return out


def _unattach(g: Game, dying: set[int]) -> list[tuple[Permanent, str, str]]:
    """Equipment attached to an illegal permanent becomes unattached (704.5n; protection, 702.16d); a
    permanent attached that is neither an Aura nor an Equipment becomes unattached (704.5p)."""
    s = g.s
    out = []
    for perm in s.battlefield:
        if perm.attached_to is None or perm.oid in dying or perm.card.is_aura:
            continue
        host = s.permanent(perm.attached_to)
        if not perm.card.is_equipment or perm.is_a("creature"):
            out.append(
                (
                    perm,
                    f"{perm.name} is neither an Aura nor an Equipment: it becomes unattached "
                    f"and stays on the battlefield",
                    "sba.attached",
                )
            )
            continue
        if host is None or host.oid in dying:
            if host is None:
                out.append(
                    (
                        perm,
                        f"{perm.name} is attached to nothing on the battlefield: it becomes unattached",
                        "sba.equipment",
                    )
                )
            continue
        quality = s.protected_from(host, s.source_of(perm))
        if not host.is_a("creature"):
            out.append(
                (
                    perm,
                    f"{perm.name} is attached to {host.name}, not a creature: it becomes unattached "
                    "and stays on the battlefield",
                    "sba.equipment",
                )
            )
        elif quality is not None:
            out.append(
                (
                    perm,
                    f"{perm.name} is attached to {host.name}, which has protection from {quality}: it "
                    "becomes unattached and stays on the battlefield",
                    "sba.equipment keyword.protection_equip",
                )
            )
    return out


def place_triggers(g: Game) -> bool:
    """APNAP order: the active player's triggers go on the stack first (so resolve last); each player
    orders their own (603.3b), as ``P orders triggers`` says, as ``state.trigger_order`` states, or, when
    they are alike, in the order they triggered. A player with two or more different triggers and no
    stated order is asked: the engine waits (``pending: triggers``)."""
    s = g.s
    if not s.pending_triggers:
        return False
    placed = False
    for player in s.apnap():
        if _targets_to_choose(g, player):
            return placed
        mine = [t for t in s.pending_triggers if t.controller == player]
        if not mine:
            continue
        wanted = [n.lower() for n in s.trigger_order.get(player, [])]
        if len(mine) > 1 and not wanted and len({(t.name, t.effect, t.targets, t.subject) for t in mine}) > 1:
            s.pending, s.deciding, s.priority = "triggers", player, None
            g.emit(
                f"{player} has {len(mine)} triggered abilities to put on the stack ({', '.join(t.name for t in mine)}) "
                f"and chooses their order; no player has priority until then",
                "trigger.apnap",
                "trigger.to_stack",
            )
            return placed
        stated = bool(wanted) and len(mine) > 1
        mine.sort(key=lambda t: wanted.index(t.name.lower()) if t.name.lower() in wanted else len(wanted))
        put(g, player, mine, " in the order the scenario states" if stated else "")
        placed = True
    return placed


def _targets_to_choose(g: Game, player: str) -> bool:
    """Whether ``player`` is to choose the targets of a waiting triggered ability of a card's text first
    (603.3d: as it is put on the stack, as for a spell, 601.2c); the engine then waits (``pending: aim``).
    One with no legal target for a target it needs is removed instead (603.3d)."""
    s = g.s
    for t in [t for t in s.pending_triggers if t.controller == player and unaimed(t)]:
        src = t.src or Source(t.source, player)
        if has_targets(s, unaimed(t), src):
            continue
        s.pending_triggers.remove(t)
        g.emit(
            f"{t.name} has no legal target ({', '.join('target ' + k for k in unaimed(t))}): it is removed "
            "from the stack as it would be put on it",
            "trigger.no_target",
        )
    for t in [t for t in s.pending_triggers if t.controller == player and trigger_modes(t)]:
        src = t.src or Source(t.source, player)
        if any(has_targets(s, target_kinds(mode), src) for mode in trigger_modes(t)):
            continue
        s.pending_triggers.remove(t)
        g.emit(
            f"{t.name} is modal and none of its modes can be chosen (no legal targets): it is removed from the "
            "stack as it would be put on it",
            "mode.trigger",
            "trigger.no_target",
        )
    first = next((t for t in s.pending_triggers if t.controller == player and to_decide(t)), None)
    if first is None:
        return False
    s.pending, s.deciding, s.priority = "aim", player, None
    if trigger_modes(first):
        modes = "; ".join(f'"{shown_mode(first, m)}"' for m in trigger_modes(first))
        g.emit(
            f"{player} puts {first.name} on the stack and chooses its mode as it does ({modes}); no player has "
            "priority until then",
            "mode.trigger",
            "trigger.to_stack",
        )
        return True
    g.emit(
        f"{player} puts {first.name} on the stack and chooses its targets as it does "
        f"({', '.join('target ' + k for k in unaimed(first))}); no player has priority until then",
        "trigger.targets",
        "trigger.to_stack",
    )
    return True


def aim(g: Game, plan: AimingTrigger) -> None:
    """The targets ``plan.player`` chose for their waiting triggered ability (603.3d)."""
    s = g.s
    mine = [t for t in s.pending_triggers if t.controller == plan.player]
    trigger = mine[plan.index]
    chosen = replace(trigger, targets=plan.targets, effect=plan.mode or trigger.effect)
    s.pending_triggers[s.pending_triggers.index(trigger)] = chosen
    s.pending = s.deciding = None
    if plan.mode:
        g.emit(
            f'{plan.player} chooses the mode "{shown_mode(trigger, plan.mode)}" of {trigger.name} as it is put on '
            "the stack",
            "mode.trigger",
        )
    if not plan.targets:
        return
    g.emit(
        f"{plan.player} chooses {', '.join(t.name for t in plan.targets)} as the target of {trigger.name}",
        "trigger.targets",
        "cast.targets",
    )


def put(g: Game, player: str, triggers: list[PendingTrigger], how: str = "") -> None:
    """Put ``player``'s ``triggers`` on the stack in this order (the last resolves first)."""
    s = g.s
    placed = []
    for t in triggers:
        s.pending_triggers.remove(t)
        item = StackItem(
            s.oid(),
            t.name,
            player,
            "trigger",
            effect=t.effect,
            targets=t.targets,
            source=t.source,
            src=t.src,
            subject=t.subject,
            about=t.about,
        )
        s.stack.append(item)
        placed.append(item)
    names = ", then ".join(t.name for t in triggers)
    g.emit(
        f"{player} puts {names} on the stack{how} (the last one resolves first)",
        "trigger.to_stack",
        "trigger.apnap",
        "stack.add",
    )
    for item in placed:
        if item.targets:
            ward(g, item)  # a triggered ability targeting a permanent with ward (702.21a)
            targeted(g, item.targets, player, spell=False)
    s.passes = 0


def order(g: Game, player: str, indices: tuple[int, ...] | None) -> None:
    """``player``'s answer (or, moving past the question, the order they triggered in)."""
    s = g.s
    mine = [t for t in s.pending_triggers if t.controller == player]
    chosen = [mine[i] for i in indices] if indices is not None else mine
    s.pending = s.deciding = None
    put(
        g,
        player,
        chosen,
        " in the order they choose" if indices is not None else " in the order they triggered (no order was given)",
    )
