"""Casting spells (601), playing lands (305, 116.2a), activating abilities (602, 605), paying costs
from lands, and resolving the top of the stack (608) with the effect vocabulary of ``effects``.

Mana: each land taps for one mana of its colour (basic lands by their type: Mountain {R} ...; other
lands by their ``mana:`` key, colourless otherwise). Costs are paid from the mana pool first, then by
tapping the player's untapped lands in the order they are listed. ``costs: ignore`` makes all free.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from engine.core import ScenarioError
from engine.mtg.effects import Instruction, parse_effect, target_kinds
from engine.mtg.settle import find_target, fire, leave_battlefield
from engine.mtg.state import MAIN_PHASES, Card, CardDef, Permanent, StackItem, Target, show_cost

if TYPE_CHECKING:
    from engine.mtg.game import MagicGame


# -- finding things -------------------------------------------------------------------------------
def card_in_hand(g: MagicGame, player: str, name: str) -> Card:
    card = g.s.match(name, g.s.hand.get(player, []))
    if card is not None:
        return card
    where = g.s.where(name)
    if where:
        raise ScenarioError((), f'no card named "{name}" in {player}\'s hand (it is {where})')
    raise g.s.unknown(name, f"card in {player}'s hand:")


def choose_targets(g: MagicGame, player: str, what: str, effect: str, names: tuple[str, ...],
                   itself: int | None = None) -> tuple[Target, ...]:
    kinds = target_kinds(effect)
    if len(names) > len(kinds):
        raise ScenarioError((), f"{what} has {len(kinds)} target(s), {len(names)} given")
    if len(names) < len(kinds):
        g.illegal(f"{what} needs a target ({', '.join('target ' + k for k in kinds)}) and none is named",
                  "cast.targets")
    out = []
    for kind, name in zip(kinds, names):
        target = find_target(g, name)
        if target is None:
            where = g.s.where(name)
            if where:
                g.illegal(f"{name} is {where}: it is not a legal target for {what}", "cast.targets")
            raise g.s.unknown(name, "player or object")
        if not fits(g, target, kind) or target.ref == itself:
            g.illegal(f"{target.name} is not a legal target for {what} (it needs target {kind})", "cast.targets")
        out.append(target)
    return tuple(out)


def fits(g: MagicGame, target: Target, kind: str) -> bool:
    """Is ``target`` (still) a legal target of this kind? A permanent that left is a new object (400.7)."""
    if target.kind == "player":
        return "player" in kind and target.ref not in g.s.lost
    if target.kind == "permanent":
        perm = g.s.permanent(target.ref)  # type: ignore[arg-type]
        return perm is not None and "creature" in kind and perm.is_a("creature")
    if target.kind == "spell":
        return kind == "spell" and g.s.on_stack(target.ref) is not None  # type: ignore[arg-type]
    return False


# -- paying -------------------------------------------------------------------------------------
def pay(g: MagicGame, player: str, cost, what: str, exclude: int | None = None) -> None:
    mana = {sym: n for sym, n in cost if sym != "T"}
    if g.s.costs_ignore or not any(mana.values()):
        return
    pool = dict(g.s.pool.get(player, {}))
    lands = [p for p in g.s.battlefield if p.controller == player and p.is_a("land") and not p.tapped and p.oid != exclude]
    taps: list[Permanent] = []
    from_pool = 0
    for colour in [c for c in mana if c != "*"] + ["*"]:
        need = mana.get(colour, 0)
        while need:
            if colour != "*" and pool.get(colour):
                pool[colour] -= 1
                from_pool += 1
            elif colour == "*" and any(pool.values()):
                spend = max(pool, key=lambda c: (c == "C", pool[c]))
                pool[spend] -= 1
                from_pool += 1
            else:
                options = [l for l in lands if l not in taps and (colour == "*" or l.mana_colour == colour)]
                if colour == "*":
                    options.sort(key=lambda l: l.mana_colour != "C")
                if not options:
                    g.illegal(f"{player} cannot pay {show_cost(cost)} for {what}: not enough untapped lands "
                              "or mana of the right colour", "cast.pay")
                taps.append(options[0])
            need -= 1
    g.s.pool[player] = {c: n for c, n in pool.items() if n}
    for land in taps:
        land.tapped = True
    how = []
    if taps:
        how.append("tapping " + ", ".join(f"{l.name} for {{{l.mana_colour}}}" for l in taps))
    if from_pool:
        how.append(f"{from_pool} mana from the mana pool")
    g.emit(f"{player} pays {show_cost(cost)} for {what} by {' and '.join(how)}", "cast.pay", "mana.basic_land")


# -- actions ------------------------------------------------------------------------------------
def cast(g: MagicGame, player: str, name: str, target_names: tuple[str, ...]) -> None:
    card = card_in_hand(g, player, name)
    d = g.s.definition(card.name)
    if d is None:
        raise ScenarioError((), f'"{card.name}" has no definition under cards:')
    if "land" in d.types:
        g.illegal(f"{card.name} is a land: it is played as a special action, never cast as a spell",
                  "land.not_a_spell")
    g.require_priority(player, f"cast {card.name}")
    instant_speed = "instant" in d.types or "flash" in d.keywords
    if not instant_speed:
        problems = []
        if player != g.s.turn_player:
            problems.append(f"it is {g.s.turn_player}'s turn")
        if g.s.step not in MAIN_PHASES:
            problems.append(f"it is the {g.s.step} step, not a main phase")
        if g.s.stack:
            problems.append(f"the stack is not empty ({', '.join(s.name for s in g.s.stack)})")
        if problems:
            kind = next((t for t in ("creature", "sorcery", "artifact", "enchantment") if t in d.types), "sorcery")
            g.illegal(f"{card.name} ({kind}) can be cast only in its controller's main phase while the stack is empty: "
                      + "; ".join(problems), "cast.sorcery_speed", f"type.{kind}")
    targets = choose_targets(g, player, card.name, d.effect, target_names)
    pay(g, player, d.cost, card.name)
    g.s.hand[player].remove(card)
    g.s.stack.append(StackItem(card.oid, card.name, player, "spell", card, d, d.effect, targets))
    aimed = f" targeting {', '.join(t.name for t in targets)}" if targets else ""
    keys = ["cast.announce"] + (["cast.targets"] if targets else []) + ["stack.add"]
    if "flash" in d.keywords and "instant" not in d.types:
        keys.append("cast.flash")
    elif "instant" in d.types:
        keys.append("cast.instant")
    g.emit(f"{player} casts {card.name}{aimed}; it goes on top of the stack", *keys)
    g.s.passes = 0
    g.receive_priority(player, f"{player} receives priority again", "priority.after_action")


def play(g: MagicGame, player: str, name: str, target_names: tuple[str, ...]) -> None:
    """``P plays CARD``: a land is played; any other card is cast (playing a card means either)."""
    card = card_in_hand(g, player, name)
    d = g.s.definition(card.name)
    if d is not None and "land" not in d.types:
        cast(g, player, name, target_names)
        return
    if player != g.s.turn_player:
        g.illegal(f"{player} cannot play {card.name}: a land can be played only during its player's own turn",
                  "land.own_turn")
    if g.s.step not in MAIN_PHASES or g.s.stack:
        why = f"it is the {g.s.step} step" if g.s.step not in MAIN_PHASES else "the stack is not empty"
        g.illegal(f"{player} cannot play {card.name} now: a land is played in a main phase with an empty stack ({why})",
                  "land.timing", "special.land")
    g.require_priority(player, f"play {card.name}")
    if g.s.lands_played.get(player, 0) >= 1:
        g.illegal(f"{player} has already played a land this turn: a player can normally play one land each turn",
                  "land.one_per_turn")
    g.s.hand[player].remove(card)
    definition = d or CardDef(card.name, frozenset({"land"}))
    perm = Permanent(card.oid, card.name, player, player, definition, sick=True)
    g.s.battlefield.append(perm)
    g.s.lands_played[player] = g.s.lands_played.get(player, 0) + 1
    g.emit(f"{player} plays {card.name}: a special action that does not use the stack", "special.land",
          "land.one_per_turn")
    fire(g, "enters", perm)
    g.s.passes = 0
    g.receive_priority(player, f"{player} receives priority again", "special.priority_after")


def activate(g: MagicGame, player: str, name: str, target_names: tuple[str, ...]) -> None:
    perm = g.s.find_permanent(name)
    if perm is None:
        if g.s.where(name):
            raise ScenarioError((), f'"{name}" is {g.s.where(name)}: only permanents\' abilities can be activated')
        raise g.s.unknown(name, "permanent")
    ability = perm.card.ability
    mana_land = ability is None and perm.is_a("land")
    if ability is None and not mana_land:
        raise ScenarioError((), f'{perm.name} has no activated ability (give it one with ability: {{cost, effect}})')
    if perm.controller != player:
        g.illegal(f"{player} cannot activate {perm.name}: only its controller, {perm.controller}, can",
                  "activate.controller")
    g.require_priority(player, f"activate {perm.name}")
    cost = ability.cost if ability else (("T", 1),)
    if dict(cost).get("T"):
        if perm.tapped:
            g.illegal(f"{perm.name} is already tapped: its {{T}} cost cannot be paid", "activate.tap")
        if perm.is_a("creature") and perm.sick and not perm.has("haste"):
            g.illegal(f"{perm.name} cannot use {{T}}: {player} has not controlled it continuously since the turn began",
                      "activate.tap_sick", "combat.haste")
    if mana_land or (ability is not None and ability.is_mana):
        colour = perm.mana_colour if mana_land else "".join(
            i.mana for i in parse_effect(ability.effect) if i.verb == "add")  # type: ignore[union-attr]
        pay(g, player, cost, perm.name, exclude=perm.oid)
        perm.tapped = perm.tapped or bool(dict(cost).get("T"))
        pool = g.s.pool.setdefault(player, {})
        for c in colour:
            pool[c] = pool.get(c, 0) + 1
        g.emit(f"{player} activates {perm.name} for {''.join('{' + c + '}' for c in colour)}: a mana ability, "
              "it resolves at once without using the stack", "mana.no_stack", "mana.basic_land")
        g.s.passes = 0
        return
    assert ability is not None
    what = f"{perm.name} ability"
    targets = choose_targets(g, player, what, ability.effect, target_names)
    pay(g, player, cost, what, exclude=perm.oid)
    if dict(cost).get("T"):
        perm.tapped = True
    g.s.stack.append(StackItem(g.s.oid(), what, player, "ability", effect=ability.effect, targets=targets, source=perm.name))
    aimed = f" targeting {', '.join(t.name for t in targets)}" if targets else ""
    g.emit(f"{player} activates {perm.name}{aimed}; the ability goes on top of the stack",
          "activate.any_time", "activate.on_stack", "stack.add")
    g.s.passes = 0
    g.receive_priority(player, f"{player} receives priority again", "priority.after_action")


# -- resolving ------------------------------------------------------------------------------------
def resolve_top(g: MagicGame) -> None:
    from engine.mtg.combat import deal_combat_damage

    item = g.s.stack.pop()
    if item.kind == "combat damage":
        deal_combat_damage(g, item.damage)
        return
    instructions = parse_effect(item.effect) if item.effect else ()
    kinds = [i.target for i in instructions if i.targeted]
    if item.targets:
        legal = [fits(g, t, k) for t, k in zip(item.targets, kinds)]
        if not any(legal):
            what = "is" if len(item.targets) == 1 else "are"
            g.emit(f"{item.name} does not resolve: its target {what} no longer legal "
                  f"({', '.join(t.name for t in item.targets)})", "resolve.illegal_targets")
            _finish(g, item, resolved=False)
            return
    else:
        legal = []
    slot = 0
    for instr in instructions:
        target = None
        if instr.targeted:
            target, ok = item.targets[slot], legal[slot]
            slot += 1
            if not ok:
                g.emit(f"{target.name} is no longer a legal target: this part of {item.name} does not affect it",
                      "resolve.illegal_target_unaffected")
                continue
        execute(g, item, instr, target)
    _finish(g, item, resolved=True)


def _finish(g: MagicGame, item: StackItem, resolved: bool) -> None:
    if item.kind != "spell" or item.card is None or item.definition is None:
        return
    d = item.definition
    owner = item.card.owner
    if resolved and d.is_permanent:
        perm = Permanent(item.card.oid, item.card.name, owner, item.controller, d, sick=True)
        g.s.battlefield.append(perm)
        g.emit(f"{perm.name} enters the battlefield under {item.controller}'s control", "resolve.permanent")
        fire(g, "enters", perm)
        return
    g.s.graveyard.setdefault(owner, []).append(item.card)
    if resolved:
        g.emit(f"{item.name} is put into {owner}'s graveyard", "resolve.to_graveyard")
    else:
        g.emit(f"{item.name} is put into {owner}'s graveyard without effect", "resolve.illegal_targets")


def deal_damage(g: MagicGame, source: str, target: Target, amount: int, *keys: str, combat: bool = False) -> None:
    kind = "combat damage" if combat else "damage"
    if target.kind == "player":
        player = str(target.ref)
        before = g.s.life[player]
        g.s.life[player] -= amount
        g.emit(f"{source} deals {amount} {kind} to {player}: {player}'s life goes from {before} to {g.s.life[player]}",
              *keys, "damage.player")
        return
    perm = g.s.permanent(target.ref)  # type: ignore[arg-type]
    if perm is None:
        g.emit(f"{target.name} has left the battlefield: the {amount} {kind} from {source} is not dealt", *keys,
              "zone.new_object")
        return
    perm.damage += amount
    g.emit(f"{source} deals {amount} {kind} to {perm.name} ({perm.damage} damage marked, toughness {perm.toughness})",
          *keys, "damage.creature")


def execute(g: MagicGame, item: StackItem, instr: Instruction, target: Target | None) -> None:
    me = item.controller
    verb = instr.verb
    if verb == "damage":
        who = me if instr.who == "you" else g.s.other(me)
        recipient = target or Target("player", who, who)
        deal_damage(g, item.name, recipient, instr.amount, "resolve.instructions")
    elif verb in ("gain", "lose"):
        who = str(target.ref) if target else (me if instr.who == "you" else g.s.other(me))
        before = g.s.life[who]
        g.s.life[who] += instr.amount if verb == "gain" else -instr.amount
        g.emit(f"{who} {'gains' if verb == 'gain' else 'loses'} {instr.amount} life ({before} -> {g.s.life[who]})",
              "resolve.instructions", "life.change")
    elif verb == "draw":
        from engine.mtg.turn import draw
        draw(g, me, instr.amount, "resolve.instructions")
    elif verb == "counter":
        victim = g.s.on_stack(target.ref)  # type: ignore[union-attr, arg-type]
        if victim is None:
            _gone(g, item, target)  # type: ignore[arg-type]
        else:
            g.s.stack.remove(victim)
            if victim.card is not None:
                g.s.graveyard.setdefault(victim.card.owner, []).append(victim.card)
            g.emit(f"{item.name} counters {victim.name}: it leaves the stack without resolving"
                  + (f" and goes to {victim.card.owner}'s graveyard" if victim.card else ""), "effect.counter")
    elif verb in ("destroy", "bounce", "boost", "tap", "untap"):
        perm = g.s.permanent(target.ref)  # type: ignore[union-attr, arg-type]
        if perm is None:
            _gone(g, item, target)  # type: ignore[arg-type]
            return
        if verb == "destroy":
            g.emit(f"{item.name} destroys {perm.name}", "resolve.instructions", "effect.destroy")
            leave_battlefield(g, perm, "graveyard")
        elif verb == "bounce":
            g.emit(f"{item.name} returns {perm.name} to {perm.owner}'s hand", "resolve.instructions")
            leave_battlefield(g, perm, "hand")
        elif verb == "boost":
            perm.boost = (perm.boost[0] + instr.amount, perm.boost[1] + instr.amount2)
            g.emit(f"{perm.name} gets +{instr.amount}/+{instr.amount2} until end of turn "
                  f"(now {perm.power}/{perm.toughness})", "resolve.instructions")
        else:
            perm.tapped = verb == "tap"
            g.emit(f"{item.name} {verb}s {perm.name}", "resolve.instructions", "effect.tap")
    elif verb == "add":
        pool = g.s.pool.setdefault(me, {})
        for c in instr.mana:
            pool[c] = pool.get(c, 0) + 1
        g.emit(f"{me} adds {''.join('{' + c + '}' for c in instr.mana)} to the mana pool", "resolve.instructions")


def _gone(g: MagicGame, item: StackItem, target: Target) -> None:
    """An earlier instruction of the same spell moved the target: what is there now is a new object."""
    g.emit(f"{target.name} has already left its zone: {item.name} does nothing more to it",
          "resolve.instructions", "zone.new_object")
