"""Changes every step shares: a permanent entering or leaving the battlefield (with the replacement
effects that change how, 614), damage dealt (with the prevention effects and protection that stop it,
615, 702.16e, and deathtouch and lifelink, 702.2, 702.15), destroying, cards drawn, and triggered
abilities waiting to be put on the stack (603.2; they go on as a player would receive priority,
:mod:`engine.mtg.settle`).

Each function reports what happened through ``g.emit`` (an event citing the rules) and changes ``g.s``.
"""

from __future__ import annotations

from collections.abc import Sequence

from engine.mtg.effects import ReplacementDef, amount
from engine.mtg.keywords import KeywordTrigger, entries, land_types
from engine.mtg.state import (
    COLOURS,
    Card,
    CardDef,
    Game,
    PendingTrigger,
    Permanent,
    Shield,
    Source,
    StackItem,
    Target,
    TriggerDef,
)

_ZONE = {"graveyard": "graveyard", "hand": "hand", "exile": "exile", "library": "library"}


# -- entering and leaving -----------------------------------------------------------------------------------
def enter(g: Game, perm: Permanent, attach_to: int | None = None) -> Permanent:
    """``perm`` enters the battlefield: the replacement effects that modify how it enters (614.1c-d), its
    loyalty (306.5b), an Aura attached to what it enchants; then "enters" abilities trigger (603.6a)."""
    s = g.s
    perm.since = s.oid()
    if perm.card.loyalty is not None and "loyalty" not in perm.counters:
        perm.counters["loyalty"] = perm.card.loyalty
        g.emit(f"{perm.name} enters with {perm.card.loyalty} loyalty counters", "counter.loyalty")
    for r in perm.card.replacements:
        if r.event != "enter":
            continue
        if r.instead == "tapped" and r.unless:
            met, said = _unless(g, perm, r.unless)
            perm.tapped = perm.tapped or not met
            g.emit(
                f"{perm.name} enters {'untapped' if met else 'tapped'} (a replacement effect of its own: "
                f"{perm.controller} {'controls' if met else 'does not control'} {said})",
                "replace.enters_tapped",
                "replace.instead",
            )
        elif r.instead == "tapped":
            perm.tapped = True
            g.emit(
                f"{perm.name} enters tapped (a replacement effect of its own)",
                "replace.enters_tapped",
                "replace.instead",
            )
        elif r.instead == "counters":
            perm.counters[r.counter] = perm.counters.get(r.counter, 0) + r.amount
            g.emit(
                f"{perm.name} enters with {r.amount} {r.counter} counter{'s' if r.amount != 1 else ''} on it "
                "(a replacement effect of its own)",
                "replace.enters",
                "counter.put",
            )
    if attach_to is not None:
        perm.attached_to = attach_to
    s.battlefield.append(perm)
    fire(g, "enters", perm)
    watchers(g, perm)
    return perm


def _unless(g: Game, perm: Permanent, unless: tuple) -> tuple[bool, str]:
    """Whether the condition of "enters tapped unless you control ..." is met as ``perm`` enters (it is not
    on the battlefield yet), and the condition in words."""
    lands = [p for p in g.s.battlefield if p.controller == perm.controller and p.is_a("land") and p is not perm]
    if unless[0] == "land types":
        wanted = set(unless[1:])
        return any(land_types(p) & wanted for p in lands), " or ".join(f"a {t.title()}" for t in unless[1:])
    kind, bound, n = unless
    count = len([p for p in lands if kind == "other lands" or "basic" in p.card.supertypes])
    met = count <= n if bound == "at most" else count >= n
    return met, f"{n} or {'fewer' if bound == 'at most' else 'more'} {kind} (it controls {count})"


def watchers(g: Game, entered: Permanent) -> None:
    """Abilities that trigger when a land or creature enters under their controller's control ("Whenever
    a land enters the battlefield under your control", landfall): they wait like any other (603.2)."""
    for source in list(g.s.battlefield):
        for n, trig in enumerate(source.card.triggers):
            words = trig.when.split()
            if words[-2:] != ["enters", "yours"] or source.controller != entered.controller:
                continue
            kind = words[1:-2]
            if words[0] == "another" and source is entered:
                continue
            if not entered.is_a(kind[-1]) or ("nontoken" in kind and entered.token):
                continue
            name = _pend(g, source, n, trig, "enters")
            g.emit(
                f"{name} triggers ({source.controller} controls it): {entered.name} entered the battlefield under "
                f"{entered.controller}'s control",
                "trigger.controller",
                "trigger.words",
            )


def die_replacement(
    g: Game, perm: Permanent, together: Sequence[Permanent] = ()
) -> tuple[Permanent, ReplacementDef] | None:
    """The "if ... would die, ... instead" effect (614.1a) that applies to ``perm`` dying, with its source.
    ``together``: the permanents leaving the battlefield in the same event; those already moved still
    count: a replacement effect applies as the event would happen, when its source is still there (614.1)."""
    s = g.s
    gone = [p for p in together if p is not perm and p not in s.battlefield]
    for other in [perm] + [p for p in s.battlefield if p is not perm] + gone:
        for r in other.card.replacements:
            if r.event != "die":
                continue
            if r.who == "self":
                if other is perm:
                    return other, r
                continue
            if not perm.is_a("creature"):
                continue
            if (
                r.who == "creature"
                or (r.who == "creature you control" and perm.controller == other.controller)
                or (
                    r.who == "another creature you control"
                    and perm.controller == other.controller
                    and other is not perm
                )
                or (r.who == "creature an opponent controls" and perm.controller != other.controller)
                or (r.who == "nontoken creature" and not perm.token)
            ):
                return other, r
    return None


def leave_battlefield(g: Game, perm: Permanent, to: str, together: Sequence[Permanent] = ()) -> str:
    """Move a permanent to its owner's graveyard, hand, library or exile; it leaves combat; "dies" triggers
    fire. A replacement effect may send a dying permanent elsewhere (614.1a), also one whose source leaves
    in the same event (``together``: the permanents leaving at once, moved one after the other). Returns
    where it went.

    Leaving combat changes nothing else: the attacker it blocked stays blocked, and a creature that
    blocked it stays a blocking creature (each then assigns no combat damage, which the damage step
    says with its rule)."""
    s = g.s
    if to == "graveyard":
        found = die_replacement(g, perm, together)
        if found is not None:
            source, r = found
            to = {"exile": "exile", "hand": "hand", "library": "library"}[r.instead]
            old_words = s.follows("removed_from_game")
            where = {
                "exile": "removed from the game" if old_words else "exiled",
                "hand": f"returned to {perm.owner}'s hand",
                "library": f"put on top of {perm.owner}'s library",
            }[to]
            dying = (
                "die"
                if s.follows("dies")
                else "be put into a graveyard from play"
                if old_words
                else "be put into a graveyard from the battlefield"
            )
            if source is not perm and source not in s.battlefield:
                g.emit(
                    f"{perm.name} would {dying}; {source.name} leaves the battlefield in the same event, but it is "
                    f"still there as the event would happen, so its replacement effect applies: {perm.name} is "
                    f"{where} instead and never goes to the graveyard",
                    "replace.instead",
                    "replace.leaves_together",
                    "replace.never_happens",
                )
            else:
                g.emit(
                    f"{perm.name} would {dying}, but {source.name}'s replacement effect applies: it is {where} "
                    "instead; it never goes to the graveyard",
                    "replace.instead",
                    "replace.never_happens",
                )
    s.battlefield.remove(perm)
    if perm.attacking or perm.blocking is not None:
        s.left_combat.append(perm)
    for other in s.battlefield:
        if perm.oid in other.blockers:
            other.blockers.remove(perm.oid)
    card = Card(s.oid(), perm.name, perm.owner, token=perm.token)
    s.loose_tokens = s.loose_tokens or perm.token
    zone = {"graveyard": s.graveyard, "hand": s.hand, "exile": s.exile, "library": s.library}[to]
    if to == "library":
        zone.setdefault(perm.owner, []).insert(0, card)
    else:
        zone.setdefault(perm.owner, []).append(card)
    if to == "graveyard":
        fire(g, "dies", perm, lki=card)
    return to


def destroy(g: Game, perm: Permanent, by: str, *keys: str) -> None:
    """Destroy ``perm`` (701.8a), unless it is indestructible (702.12b)."""
    if g.s.has(perm, "indestructible"):
        g.emit(
            f"{by} would destroy {perm.name}, but it is indestructible: it is not destroyed",
            *keys,
            "keyword.indestructible",
        )
        return
    if regenerates(g, perm, f"{by} would destroy {perm.name}", *keys):
        return
    g.emit(f"{by} destroys {perm.name}", *keys, "effect.destroy")
    leave_battlefield(g, perm, "graveyard")


def regenerates(g: Game, perm: Permanent, would: str, *keys: str) -> bool:
    """A regeneration shield replaces ``perm``'s destruction (701.19a): all damage is removed from it, it is
    tapped and removed from combat; the shield is used up. False when it has none."""
    if not perm.regeneration:
        return False
    s = g.s
    perm.regeneration -= 1
    perm.damage, perm.deathtouched, perm.tapped = 0, False, True
    combat = perm.attacking or perm.blocking is not None
    if combat:  # the attacker it blocked stays blocked; a creature blocking it stays blocking (506.4)
        for other in s.battlefield:
            if perm.oid in other.blockers:
                other.blockers.remove(perm.oid)
        perm.attacking, perm.blocking, perm.blockers = False, None, []
    g.emit(
        f"{would}; it regenerates instead: all damage is removed from it and it is tapped"
        + (", and it is removed from combat" if combat else ""),
        *keys,
        "effect.regenerate",
        *(("combat.removed",) if combat else ()),
    )
    return True


# -- triggers -----------------------------------------------------------------------------------------------
def fire(g: Game, event: str, perm: Permanent | None = None, lki: Card | None = None) -> None:
    """Abilities that trigger on ``event``: a step name as it begins (``upkeep``), or ``enters``,
    ``attacks``, ``blocks``, ``dies`` for ``perm``. They wait until a player would receive priority (117.2a).
    A dying permanent's persist and undying look at it as it last existed (603.10a)."""
    sources = [perm] if perm is not None else list(g.s.battlefield)
    for source in sources:
        for n, trig in enumerate(source.card.triggers):
            when = trig.when.lower()
            if perm is None:
                own = when == event and source.controller == g.s.turn_player
                if not (own or when == f"each {event}"):
                    continue
            elif when != event:
                continue
            name = _pend(g, source, n, trig, event)
            key = "trigger.beginning" if perm is None else "trigger.controller"
            g.emit(
                f"{name} triggers ({source.controller} controls it)", key, *(("trigger.words",) if trig.words else ())
            )
    if perm is not None and event == "dies" and lki is not None:
        for keyword, kind, key in (("persist", "-1/-1", "keyword.persist"), ("undying", "+1/+1", "keyword.undying")):
            if keyword not in g.s.keywords(perm) and keyword not in perm.card.keywords:
                continue
            if perm.counters.get(kind, 0):
                g.emit(f"{perm.name} had a {kind} counter on it: its {keyword} ability does not trigger", key)
                continue
            g.s.pending_triggers.append(
                PendingTrigger(
                    f"{perm.name} {keyword}",
                    perm.controller,
                    perm.name,
                    f"return it to the battlefield under its owner's control with a {kind} counter on it",
                    (),
                    _lki(g, perm),
                    Target("token" if perm.token else "card", lki.oid, lki.name),
                )
            )
            g.emit(f"{perm.name} {keyword} triggers ({perm.controller} controls it)", key, "trigger.controller")


def _pend(g: Game, source: Permanent, n: int, trig: TriggerDef, event: str) -> str:
    """Put the ``n``-th triggered ability of ``source`` among those waiting (603.2), its targets as the
    scenario wrote them; a dying source is looked at as it last existed (603.10a). Returns its name."""
    name = trig.name or (f"{source.name} trigger" + (f"#{n + 1}" if n else ""))
    dies = event == "dies"
    g.s.pending_triggers.append(
        PendingTrigger(
            name,
            source.controller,
            source.name,
            trig.effect,
            tuple(_trigger_target(g, t) for t in trig.targets),
            _lki(g, source) if dies else g.s.source_of(source),
            None if dies else Target("permanent", source.oid, source.name),
        )
    )
    return name


def keyword_triggers(g: Game, event: str, controller: str, about: Permanent | None = None) -> None:
    """The keywords of ``controller``'s permanents that stand for a triggered ability on ``event``
    (:class:`engine.mtg.keywords.KeywordTrigger`: prowess as they cast a noncreature spell, exalted as a
    creature they control attacks alone, ``about`` it) trigger; they wait like any other (603.2)."""
    s = g.s
    for perm in list(s.battlefield):
        if perm.controller != controller:
            continue
        for keyword, kw in entries(s.keywords(perm)):
            trig: KeywordTrigger | None = kw.trigger
            if trig is None or trig.event != event or (trig.own and perm is not about):
                continue
            subject = perm if trig.subject == "self" else about
            if subject is None or (trig.unless and trig.unless in subject.designations):
                continue
            name = f"{perm.name} {keyword}"
            effect = trig.effect.format(n=keyword.split()[-1]).replace(" 1 +1/+1 counters ", " a +1/+1 counter ")
            s.pending_triggers.append(
                PendingTrigger(
                    name,
                    controller,
                    perm.name,
                    effect,
                    (),
                    s.source_of(perm),
                    Target("permanent", subject.oid, subject.name),
                )
            )
            g.emit(
                f"{name} triggers ({controller} controls it): {effect.replace('~', perm.name)}",
                *kw.keys,
                "trigger.controller",
            )


def _lki(g: Game, perm: Permanent) -> Source:
    return Source(perm.name, perm.controller, perm.card.colours, perm.card.types, g.s.keywords(perm), perm.oid)


def _trigger_target(g: Game, name: str) -> Target:
    # Gone already: the trigger will not resolve (608.2b).
    return g.s.find_target(name, on_stack=False) or Target("permanent", -1, name)


# -- damage ---------------------------------------------------------------------------------------------------
def prevented(g: Game, source: Source, target: Target, amount: int, combat: bool) -> int:
    """Apply the prevention effects to damage ``source`` would deal to ``target`` (615, 702.16e); returns
    what is left. Effects that prevent all of it apply first (so a shield is kept for later damage)."""
    s = g.s
    kind = "combat damage" if combat else "damage"
    perm = s.permanent(target.ref) if target.kind == "permanent" else None  # type: ignore[arg-type]
    if combat and s.fog:
        g.emit(
            f"The {amount} {kind} {source.name} would deal to {target.name} is prevented (all combat damage is "
            "prevented this turn)",
            "prevent.effect",
            "prevent.never_happens",
        )
        return 0
    if perm is not None:
        quality = s.protected_from(perm, source)
        if quality is not None:
            g.emit(
                f"The {amount} {kind} {source.name} would deal to {perm.name} is prevented: {perm.name} has "
                f"protection from {quality}",
                "keyword.protection_damage",
                "prevent.never_happens",
            )
            return 0
        if perm.card.prevent_all:
            g.emit(
                f"The {amount} {kind} {source.name} would deal to {perm.name} is prevented by its own ability",
                "prevent.effect",
                "prevent.never_happens",
            )
            return 0
    for i, shield in enumerate(s.shields):
        if shield.target != target or amount <= 0:
            continue
        if shield.amount is None:
            g.emit(
                f"The {amount} {kind} {source.name} would deal to {target.name} is prevented ({shield.source}: "
                "all damage to it this turn)",
                "prevent.effect",
                "prevent.never_happens",
            )
            return 0
        stopped = min(shield.amount, amount)
        amount -= stopped
        s.shields[i] = Shield(shield.target, shield.amount - stopped, shield.source)
        g.emit(
            f"{stopped} of the {kind} {source.name} would deal to {target.name} is prevented ({shield.source}: "
            f"{shield.amount - stopped} left to prevent); {amount} is dealt",
            "prevent.shield",
            "prevent.effect",
        )
    s.shields = [sh for sh in s.shields if sh.amount is None or sh.amount > 0]
    return amount


def deal_damage(g: Game, source: Source, target: Target, amount: int, *keys: str, combat: bool = False) -> None:
    s = g.s
    kind = "combat damage" if combat else "damage"
    perm = None
    if target.kind == "permanent":
        perm = s.permanent(target.ref)  # type: ignore[arg-type]
        if perm is None:
            g.emit(
                f"{target.name} has left the battlefield: the {amount} {kind} from {source.name} is not dealt",
                *keys,
                "zone.new_object",
            )
            return
    amount = prevented(g, source, target, amount, combat)
    if amount <= 0:
        return
    how, how_keys = _damage_as(source)
    if perm is None and how == "infect":
        player = str(target.ref)
        s.poison[player] = s.poison.get(player, 0) + amount
        g.emit(
            f"{source.name} deals {amount} {kind} to {player}; it has infect, so {player} gets {amount} poison "
            f"counter{'s' if amount != 1 else ''} ({s.poison[player]} in all) instead of losing life",
            *keys,
            "damage.player",
            *how_keys,
            "counter.poison",
        )
    elif perm is None:
        player = str(target.ref)
        before = s.life[player]
        s.life[player] -= amount
        g.emit(
            f"{source.name} deals {amount} {kind} to {player}: {player}'s life goes from {before} to {s.life[player]}",
            *keys,
            "damage.player",
        )
    elif perm.is_a("planeswalker") and not perm.is_a("creature"):
        left = max(0, perm.counters.get("loyalty", 0) - amount)
        perm.counters["loyalty"] = left
        g.emit(
            f"{source.name} deals {amount} {kind} to {perm.name}: {amount} loyalty counters are removed ({left} left)",
            *keys,
            "damage.planeswalker",
        )
    else:
        if how:
            perm.counters["-1/-1"] = perm.counters.get("-1/-1", 0) + amount
            g.emit(
                f"{source.name} deals {amount} {kind} to {perm.name}; it has {how_keys[0].split('.')[-1]}, so the "
                f"damage is not marked: {amount} -1/-1 counter{'s' if amount != 1 else ''} are put on "
                f"{perm.name} instead (now {s.power(perm)}/{s.toughness(perm)})",
                *keys,
                "damage.creature",
                *how_keys,
                "counter.put",
            )
        else:
            perm.damage += amount
            g.emit(
                f"{source.name} deals {amount} {kind} to {perm.name} ({perm.damage} damage marked, toughness "
                f"{s.toughness(perm)})",
                *keys,
                "damage.creature",
            )
        if source.has("deathtouch"):
            if s.follows("deathtouch_triggered"):
                g.s.pending_triggers.append(
                    PendingTrigger(
                        f"{source.name} deathtouch",
                        source.controller,
                        source.name,
                        "destroy that creature",
                        (),
                        source,
                        Target("permanent", perm.oid, perm.name),
                    )
                )
                g.emit(
                    f"{source.name}'s deathtouch triggers: {perm.name} will be destroyed when it resolves",
                    "keyword.deathtouch_trigger",
                    "trigger.controller",
                )
            else:
                perm.deathtouched = True
                g.emit(
                    f"{source.name} has deathtouch: {perm.name} will be destroyed by the next state-based check",
                    "keyword.deathtouch",
                )
    if source.has("lifelink"):
        who = source.controller
        if s.follows("lifelink_triggered"):
            g.s.pending_triggers.append(
                PendingTrigger(f"{source.name} lifelink", who, source.name, f"gain {amount} life", (), source)
            )
            g.emit(
                f"{source.name}'s lifelink triggers: {who} will gain {amount} life when it resolves",
                "keyword.lifelink_trigger",
                "trigger.controller",
            )
        else:
            before = s.life[who]
            s.life[who] += amount
            g.emit(
                f"{source.name} has lifelink: {who} gains {amount} life as the damage is dealt "
                f"({before} -> {s.life[who]})",
                "keyword.lifelink",
                "damage.lifelink",
                "life.change",
            )
    dealer = s.permanent(source.oid) if combat and perm is None and source.oid else None
    if dealer is not None:  # "Whenever ~ deals combat damage to a player" (603.2), renown
        fire(g, "combat damage to a player", dealer)
        keyword_triggers(g, "combat damage to a player", dealer.controller, dealer)


def _damage_as(source: Source) -> tuple[str, tuple[str, ...]]:
    """How damage from ``source`` is dealt when a keyword changes it: ("infect", its keys): to a creature as
    -1/-1 counters and to a player as poison counters (702.90b-c); ("counters", ...): wither, to a creature
    as -1/-1 counters (702.80a); ("", ()): as damage."""
    found = [(kw.damage, kw.keys) for _, kw in entries(source.keywords) if kw.damage]
    return min(found, key=lambda f: f[0] != "infect", default=("", ()))


def draw(g: Game, player: str, n: int, *keys: str) -> None:
    for _ in range(n):
        library = g.s.library.get(player, [])
        if not library:
            g.s.drew_from_empty.add(player)
            g.emit(f"{player} must draw a card but the library is empty", *keys, "sba.empty_library")
            continue
        card = library.pop(0)
        g.s.hand.setdefault(player, []).append(card)
        shown = card.name if card.name != "a card" else "a card"
        g.emit(f"{player} draws {shown}", *keys, "draw.card")


def token_definition(name: str, power: int, toughness: int, colours: str, keywords: tuple[str, ...]) -> CardDef:
    return CardDef(
        name,
        frozenset({"creature"}),
        power=power,
        toughness=toughness,
        keywords=frozenset(keywords),
        colours=frozenset(c for c in colours if c in COLOURS and c != "C"),
    )


def unique_name(g: Game, name: str) -> str:
    """``name``, or ``name#2``, ``#3`` ... when an object of that name exists (tokens made in play)."""
    taken = {n.lower() for n in g.s.all_names()}
    if name.lower() not in taken:
        return name
    n = 2
    while f"{name}#{n}".lower() in taken:
        n += 1
    return f"{name}#{n}"


def ward(g: Game, item: StackItem) -> None:
    """A permanent with ward that becomes the target of a spell or ability an opponent controls triggers
    (702.21a): counter it unless that player pays the ward cost."""
    for target in item.targets:
        if target.kind != "permanent":
            continue
        perm = g.s.permanent(target.ref)  # type: ignore[arg-type]
        if perm is None or perm.controller == item.controller:
            continue
        cost = amount(g.s.keywords(perm), "ward")
        if cost is None:
            continue
        what = "spell" if item.kind == "spell" else "ability"
        g.s.pending_triggers.append(
            PendingTrigger(
                f"{perm.name} ward",
                perm.controller,
                perm.name,
                f"counter that spell or ability unless its controller pays {{{cost}}}",
                (),
                g.s.source_of(perm),
                Target(what, item.oid, item.name),
            )
        )
        g.emit(
            f"{perm.name} has ward {{{cost}}} and became the target of {item.controller}'s {what} {item.name}: "
            f"its ward ability triggers",
            "keyword.ward",
            "trigger.controller",
        )
