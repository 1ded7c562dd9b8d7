"""Is this action legal now? (117 priority, 116.2a and 305 lands, 601 casting and its timing, 602 and 605
abilities, 118 paying costs, 508 and 509 declaring attackers and blockers.)

Every function here reads the state and changes nothing. A check raises :class:`engine.core.Refusal`
with the citation keys of the rule that forbids the action (:class:`engine.core.ScenarioError` for a
sentence naming what is not there) or returns the plan the steps carry out; a predicate returns the
citation key of why not, or None. The game checks an action completely before anything changes, so an
illegal action leaves the game untouched.

>>> from engine.mtg.build import build
>>> s = build({"players": ["Ana", "Ben"], "turn": {"player": "Ana", "phase": "main1"},
...            "state": {"permanents": [{"name": "Mountain", "controller": "Ana"}]}}, "2026-02-27")
>>> s.priority = "Ana"
>>> payment(s, "Ana", (("R", 1),), "Shock").taps[0].name
'Mountain'
>>> try:
...     payment(s, "Ana", (("*", 1), ("R", 1)), "Lava Spike")
... except Refusal as no:
...     no.keys
('cast.pay',)
"""

from __future__ import annotations

from dataclasses import dataclass

from engine.core import Refusal, ScenarioError, suggest
from engine.mtg.actions import Action
from engine.mtg.effects import parse_effect, target_kinds
from engine.mtg.state import (
    MAIN_PHASES, ORDER, PHASES, AbilityDef, Card, CardDef, Permanent, State, Target, show_cost,
)


# -- the plans the steps carry out ---------------------------------------------------------------------
@dataclass(frozen=True)
class Payment:
    """How a cost is paid: mana from the pool first, then these lands tapped (in the order listed)."""

    player: str
    cost: tuple[tuple[str, int], ...]
    what: str
    taps: tuple[Permanent, ...]
    pool: dict[str, int]  # the player's mana pool once paid
    from_pool: int


@dataclass(frozen=True)
class Casting:
    player: str
    card: Card
    definition: CardDef
    targets: tuple[Target, ...]
    payment: Payment | None


@dataclass(frozen=True)
class PlayingLand:
    player: str
    card: Card
    definition: CardDef | None


@dataclass(frozen=True)
class Activating:
    player: str
    perm: Permanent
    ability: AbilityDef | None  # None: a land's own mana ability
    cost: tuple[tuple[str, int], ...]
    targets: tuple[Target, ...]
    payment: Payment | None
    mana: str  # the mana a mana ability adds ("" for an ability that uses the stack)


@dataclass(frozen=True)
class Attacking:
    player: str
    attackers: tuple[Permanent, ...]


@dataclass(frozen=True)
class Blocking:
    player: str
    blocks: tuple[tuple[Permanent, Permanent], ...]  # (attacker, blocker)


@dataclass(frozen=True)
class Passing:
    player: str


@dataclass(frozen=True)
class MovingTo:
    player: str
    step: str


Plan = Casting | PlayingLand | Activating | Attacking | Blocking | Passing | MovingTo


def check(s: State, act: Action) -> Plan:
    """The plan for ``act``, or :class:`Refusal` (the rules forbid it now)."""
    player = s.player_named(act.player)
    game_over(s)
    if act.verb == "cast":
        return cast(s, player, act.names[0], act.targets)
    if act.verb == "play":
        return play(s, player, act.names[0], act.targets)
    if act.verb == "activate":
        return activate(s, player, act.names[0], act.targets)
    if act.verb == "attack":
        return attack(s, player, act.names)
    if act.verb == "block":
        return block(s, player, act.pairs)
    if act.verb == "pass":
        priority(s, player, "pass priority")
        return Passing(player)
    return move_to(s, player, act.names[0])


# -- who may act -----------------------------------------------------------------------------------------
def game_over(s: State) -> None:
    if s.over:
        raise Refusal(f"the game is over: {s.winner or 'nobody'} won", "game.over")


def priority(s: State, player: str, doing: str) -> None:
    """Casting, activating, playing a land and passing need priority (117.1)."""
    game_over(s)
    if s.priority == player:
        return
    if s.priority is None:
        why = {"attackers": f"{s.turn_player} must first declare attackers",
               "blockers": f"{s.defending} must first declare blockers"}.get(s.pending or "", "")
        key = {"attackers": "turn.declare_attackers", "blockers": "turn.declare_blockers"}.get(s.pending or "")
        keys = ("priority.who_acts",) + ((key,) if key else ())
        raise Refusal(f"{player} cannot {doing}: nobody has priority" + (f" ({why})" if why else ""), *keys)
    raise Refusal(f"{player} cannot {doing}: {s.priority} has priority, not {player}", "priority.who_acts")


# -- finding things ----------------------------------------------------------------------------------------
def card_in_hand(s: State, player: str, name: str) -> Card:
    card = s.match(name, s.hand.get(player, []))
    if card is not None:
        return card
    where = s.where(name)
    if where:
        raise ScenarioError((), f'no card named "{name}" in {player}\'s hand (it is {where})')
    raise s.unknown(name, f"card in {player}'s hand:")


def choose_targets(s: State, player: str, what: str, effect: str, names: tuple[str, ...],
                   itself: int | None = None) -> tuple[Target, ...]:
    kinds = target_kinds(effect)
    if len(names) > len(kinds):
        raise ScenarioError((), f"{what} has {len(kinds)} target(s), {len(names)} given")
    if len(names) < len(kinds):
        raise Refusal(f"{what} needs a target ({', '.join('target ' + k for k in kinds)}) and none is named",
                      "cast.targets")
    out = []
    for kind, name in zip(kinds, names):
        target = s.find_target(name)
        if target is None:
            where = s.where(name)
            if where:
                raise Refusal(f"{name} is {where}: it is not a legal target for {what}", "cast.targets")
            raise s.unknown(name, "player or object")
        if not fits(s, target, kind) or target.ref == itself:
            raise Refusal(f"{target.name} is not a legal target for {what} (it needs target {kind})", "cast.targets")
        out.append(target)
    return tuple(out)


def fits(s: State, target: Target, kind: str) -> bool:
    """Is ``target`` (still) a legal target of this kind? A permanent that left is a new object (400.7)."""
    if target.kind == "player":
        return "player" in kind and target.ref not in s.lost
    if target.kind == "permanent":
        perm = s.permanent(target.ref)  # type: ignore[arg-type]
        return perm is not None and "creature" in kind and perm.is_a("creature")
    if target.kind == "spell":
        return kind == "spell" and s.on_stack(target.ref) is not None  # type: ignore[arg-type]
    return False


# -- paying ------------------------------------------------------------------------------------------------
def payment(s: State, player: str, cost: tuple[tuple[str, int], ...], what: str,
            exclude: int | None = None) -> Payment | None:
    """How ``player`` pays ``cost`` (None: nothing to pay), or :class:`Refusal` when they cannot."""
    mana = {sym: n for sym, n in cost if sym != "T"}
    if s.costs_ignore or not any(mana.values()):
        return None
    pool = dict(s.pool.get(player, {}))
    lands = [p for p in s.battlefield if p.controller == player and p.is_a("land") and not p.tapped and p.oid != exclude]
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
                options = [land for land in lands if land not in taps and (colour == "*" or land.mana_colour == colour)]
                if colour == "*":
                    options.sort(key=lambda land: land.mana_colour != "C")
                if not options:
                    raise Refusal(f"{player} cannot pay {show_cost(cost)} for {what}: not enough untapped lands "
                                  "or mana of the right colour", "cast.pay")
                taps.append(options[0])
            need -= 1
    return Payment(player, cost, what, tuple(taps), {c: n for c, n in pool.items() if n}, from_pool)


# -- casting, playing lands, activating ----------------------------------------------------------------
def cast(s: State, player: str, name: str, target_names: tuple[str, ...]) -> Casting:
    card = card_in_hand(s, player, name)
    d = s.definition(card.name)
    if d is None:
        raise ScenarioError((), f'"{card.name}" has no definition under cards:')
    if "land" in d.types:
        raise Refusal(f"{card.name} is a land: it is played as a special action, never cast as a spell",
                      "land.not_a_spell")
    priority(s, player, f"cast {card.name}")
    instant_speed = "instant" in d.types or "flash" in d.keywords
    if not instant_speed:
        problems = []
        if player != s.turn_player:
            problems.append(f"it is {s.turn_player}'s turn")
        if s.step not in MAIN_PHASES:
            problems.append(f"it is the {s.step} step, not a main phase")
        if s.stack:
            problems.append(f"the stack is not empty ({', '.join(i.name for i in s.stack)})")
        if problems:
            kind = next((t for t in ("creature", "sorcery", "artifact", "enchantment") if t in d.types), "sorcery")
            raise Refusal(f"{card.name} ({kind}) can be cast only in its controller's main phase while the stack is "
                          "empty: " + "; ".join(problems), "cast.sorcery_speed", f"type.{kind}")
    targets = choose_targets(s, player, card.name, d.effect, target_names)
    return Casting(player, card, d, targets, payment(s, player, d.cost, card.name))


def play(s: State, player: str, name: str, target_names: tuple[str, ...]) -> Casting | PlayingLand:
    """``P plays CARD``: a land is played; any other card is cast (playing a card means either)."""
    card = card_in_hand(s, player, name)
    d = s.definition(card.name)
    if d is not None and "land" not in d.types:
        return cast(s, player, name, target_names)
    if player != s.turn_player:
        raise Refusal(f"{player} cannot play {card.name}: a land can be played only during its player's own turn",
                      "land.own_turn")
    if s.step not in MAIN_PHASES or s.stack:
        why = f"it is the {s.step} step" if s.step not in MAIN_PHASES else "the stack is not empty"
        raise Refusal(f"{player} cannot play {card.name} now: a land is played in a main phase with an empty stack "
                      f"({why})", "land.timing", "special.land")
    priority(s, player, f"play {card.name}")
    if s.lands_played.get(player, 0) >= 1:
        raise Refusal(f"{player} has already played a land this turn: a player can normally play one land each turn",
                      "land.one_per_turn")
    return PlayingLand(player, card, d)


def activate(s: State, player: str, name: str, target_names: tuple[str, ...]) -> Activating:
    perm = s.find_permanent(name)
    if perm is None:
        if s.where(name):
            raise ScenarioError((), f'"{name}" is {s.where(name)}: only permanents\' abilities can be activated')
        raise s.unknown(name, "permanent")
    ability = perm.card.ability
    mana_land = ability is None and perm.is_a("land")
    if ability is None and not mana_land:
        raise ScenarioError((), f'{perm.name} has no activated ability (give it one with ability: {{cost, effect}})')
    if perm.controller != player:
        raise Refusal(f"{player} cannot activate {perm.name}: only its controller, {perm.controller}, can",
                      "activate.controller")
    priority(s, player, f"activate {perm.name}")
    cost = ability.cost if ability else (("T", 1),)
    if dict(cost).get("T"):
        if perm.tapped:
            raise Refusal(f"{perm.name} is already tapped: its {{T}} cost cannot be paid", "activate.tap")
        if perm.is_a("creature") and perm.sick and not perm.has("haste"):
            raise Refusal(f"{perm.name} cannot use {{T}}: {player} has not controlled it continuously since the turn "
                          "began", "activate.tap_sick", "combat.haste")
    if mana_land or (ability is not None and ability.is_mana):
        colour = perm.mana_colour if mana_land else "".join(
            i.mana for i in parse_effect(ability.effect) if i.verb == "add")  # type: ignore[union-attr]
        return Activating(player, perm, ability, cost, (), payment(s, player, cost, perm.name, exclude=perm.oid), colour)
    assert ability is not None
    what = f"{perm.name} ability"
    targets = choose_targets(s, player, what, ability.effect, target_names)
    return Activating(player, perm, ability, cost, targets, payment(s, player, cost, what, exclude=perm.oid), "")


# -- combat declarations -----------------------------------------------------------------------------
def can_attack(s: State, perm: Permanent) -> str | None:
    """Why ``perm`` cannot attack (a citation key), or None."""
    if perm.controller != s.turn_player or not perm.is_a("creature") or perm.tapped:
        return "combat.attackers"
    if perm.has("defender"):
        return "combat.defender"
    if perm.sick and not perm.has("haste"):
        return "combat.summoning_sickness"
    return None


def can_block(s: State, perm: Permanent) -> bool:
    return perm.controller == s.defending and perm.is_a("creature") and not perm.tapped


def attack(s: State, player: str, names: tuple[str, ...]) -> Attacking:
    """A complete declaration of attackers (508.1); an illegal one is refused whole."""
    game_over(s)
    if s.step != "declare_attackers" or s.pending != "attackers":
        raise Refusal(f"{player} cannot declare attackers now: attackers are declared as the declare attackers step "
                      f"begins (it is the {s.step} step)", "turn.declare_attackers")
    if player != s.turn_player:
        raise Refusal(f"{player} cannot declare attackers: only the active player, {s.turn_player}, attacks",
                      "combat.attacking_player", "turn.declare_attackers")
    chosen: list[Permanent] = []
    for name in names:
        perm = s.find_permanent(name)
        if perm is None:
            if s.where(name):
                raise Refusal(f"{name} is {s.where(name)}, not on the battlefield: it cannot attack", "combat.attackers",
                              "combat.illegal_attack")
            raise s.unknown(name, "creature")
        if perm in chosen:
            raise Refusal(f"{perm.name} is declared as an attacker twice", "combat.attackers", "combat.illegal_attack")
        why = can_attack(s, perm)
        if why == "combat.attackers":
            state = ("is controlled by " + perm.controller if perm.controller != player else
                     "is not a creature" if not perm.is_a("creature") else "is tapped")
            raise Refusal(f"{perm.name} cannot attack: it {state}", "combat.attackers", "combat.illegal_attack")
        if why == "combat.defender":
            raise Refusal(f"{perm.name} has defender and cannot attack", "combat.defender", "combat.illegal_attack")
        if why == "combat.summoning_sickness":
            raise Refusal(f"{perm.name} cannot attack: {player} has not controlled it continuously since the turn "
                          f"began and it has no haste", "combat.summoning_sickness", "combat.haste",
                          "combat.illegal_attack")
        chosen.append(perm)
    return Attacking(player, tuple(chosen))


def block(s: State, player: str, pairs: tuple[tuple[str, str], ...]) -> Blocking:
    """A complete declaration of blockers (509.1); an illegal one is refused whole."""
    game_over(s)
    if s.step != "declare_blockers" or s.pending != "blockers":
        raise Refusal(f"{player} cannot declare blockers now: blockers are declared as the declare blockers step "
                      f"begins (it is the {s.step} step)", "turn.declare_blockers")
    if player != s.defending:
        raise Refusal(f"{player} cannot declare blockers: the defending player, {s.defending}, does",
                      "turn.declare_blockers")
    chosen: list[tuple[Permanent, Permanent]] = []
    for attacker_name, blocker_name in pairs:
        attacker, blocker = s.find_permanent(attacker_name), s.find_permanent(blocker_name)
        for name, perm in ((attacker_name, attacker), (blocker_name, blocker)):
            if perm is None:
                if s.where(name):
                    raise Refusal(f"{name} is {s.where(name)}, not on the battlefield", "combat.blockers",
                                  "combat.illegal_block")
                raise s.unknown(name, "creature")
        assert attacker is not None and blocker is not None
        if not attacker.attacking:
            raise Refusal(f"{blocker.name} cannot block {attacker.name}: {attacker.name} is not attacking",
                          "combat.blockers", "combat.illegal_block")
        if blocker.controller != player or not blocker.is_a("creature"):
            raise Refusal(f"{blocker.name} cannot block: it is not a creature {player} controls",
                          "combat.blockers", "combat.illegal_block")
        if blocker.tapped:
            raise Refusal(f"{blocker.name} cannot block: it is tapped", "combat.blockers", "combat.illegal_block")
        if any(b is blocker for _, b in chosen):
            raise Refusal(f"{blocker.name} is declared as a blocker twice: each blocker blocks one creature",
                          "combat.blockers", "combat.illegal_block")
        chosen.append((attacker, blocker))
    return Blocking(player, tuple(chosen))


# -- moving to a step ------------------------------------------------------------------------------------
def move_to(s: State, player: str, target: str) -> MovingTo:
    """``P moves to PHASE``: said by the player with priority, or by anyone while a declaration is pending."""
    if target not in ORDER:
        raise ScenarioError((), f'no phase named "{target}"{suggest(target, list(ORDER))}; mtg phases: {", ".join(PHASES)}')
    if s.priority is not None:
        priority(s, player, f"move to {target}")
    else:
        game_over(s)
    if target == s.step:
        raise ScenarioError((), f"already in {target}: write the actions of this step, or move to a later one")
    return MovingTo(player, target)
