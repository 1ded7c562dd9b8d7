"""Changes every step shares: a permanent entering or leaving the battlefield (with the replacement
effects that change how, 614), damage dealt (with the prevention effects and protection that stop it,
615, 702.16e, and deathtouch and lifelink, 702.2, 702.15), destroying, cards drawn, and triggered
abilities waiting to be put on the stack (603.2; they go on as a player would receive priority,
:mod:`engine.mtg.settle`).

Each function reports what happened through ``g.emit`` (an event citing the rules) and changes ``g.s``.
"""

from __future__ import annotations

from collections.abc import Sequence

from engine.mtg.conditional import conditions_said
from engine.mtg.conditions import condition, note
from engine.mtg.counts import stats_said
from engine.mtg.effects import CHOSE, ReplacementDef, X, amount, parse_effect, parse_modes
from engine.mtg.faces import card_name
from engine.mtg.keywords import KeywordTrigger, entries, land_types
from engine.mtg.soulbond import can_pair
from engine.mtg.state import (
    COLOURS,
    AbilityDef,
    Card,
    CardDef,
    Game,
    PendingTrigger,
    Permanent,
    Shield,
    Source,
    StackItem,
    State,
    Target,
    TriggerDef,
    parse_cost,
)

_ZONE = {"graveyard": "graveyard", "hand": "hand", "exile": "exile", "library": "library"}


# -- entering and leaving -----------------------------------------------------------------------------------
def others_enter_tapped(g: Game, perm: Permanent) -> None:
    """A replacement effect of another permanent that modifies how ``perm`` enters (614.1c): "Creatures
    your opponents control enter the battlefield tapped"."""
    for other in g.s.battlefield:
        for r in other.card.replacements:
            if r.event != "enter" or r.who == "self" or perm.tapped:
                continue
            yours = r.who.endswith(" you control")
            kind = r.who.removesuffix(" you control").removesuffix(" an opponent controls")
            fits = (
                perm.is_a(kind)
                if kind in ("creature", "artifact", "land")
                else not (kind == "nonland permanent" and perm.is_a("land"))
            )
            if fits and (perm.controller == other.controller) == yours:
                perm.tapped = True
                g.emit(
                    f"{perm.name} enters tapped ({other.name}'s replacement effect: {r.who}s enter tapped)",
                    "replace.enters_tapped",
                    "replace.instead",
                )


def enter(g: Game, perm: Permanent, attach_to: int | None = None, x: int = 0, life: int | None = None) -> Permanent:
    """``perm`` enters the battlefield: the replacement effects that modify how it enters (614.1c-d), its
    loyalty (306.5b), an Aura attached to what it enchants; then "enters" abilities trigger (603.6a). ``x``:
    the value of X of the spell it was, which its "enters with X counters" uses (107.3m; 0 otherwise). ``life``:
    the life its controller chose to pay as it enters, where it asks ("you may pay 2 life. If you don't, it
    enters tapped"); a land played is asked (``P plays LAND paying 2 life``)."""
    s = g.s
    perm.since = s.oid()
    if perm.card.loyalty is not None and "loyalty" not in perm.counters:
        perm.counters["loyalty"] = perm.card.loyalty
        g.emit(f"{perm.name} enters with {perm.card.loyalty} loyalty counters", "counter.loyalty")
    for r in perm.card.replacements:
        if r.event != "enter":
            continue
        if r.instead == "tapped" and r.unless[:1] == ("life",):
            _pay_or_tapped(g, perm, r.unless[1], life)
        elif r.instead == "tapped" and r.unless:
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
        elif r.instead == "counters" and r.when in CHOSE and CHOSE[r.when][1] not in perm.designations:
            g.emit(
                f"{perm.name} was not kicked: it enters without the counters kicking it would give", "keyword.kicker"
            )
        elif r.instead == "counters" and r.condition and not condition(r.condition).holds(s, perm.controller, perm):
            g.emit(
                f"{perm.name} enters without counters: it is not true that {r.condition} "
                f"({condition(r.condition).said(s, perm.controller, perm)})",
                "replace.enters",
            )
        elif r.instead == "counters":
            n = x if r.amount == X else r.amount
            perm.counters[r.counter] = perm.counters.get(r.counter, 0) + n
            g.emit(
                f"{perm.name} enters with {n} {r.counter} counter{'s' if n != 1 else ''} on it "
                f"{f'(X is {x}, as for the spell it was) ' if r.amount == X else ''}(a replacement effect of its own)",
                "replace.enters",
                "counter.put",
                *(("cast.x",) if r.amount == X else ()),
            )
    others_enter_tapped(g, perm)
    bloodthirst(g, perm)
    if attach_to is not None:
        perm.attached_to = attach_to
    s.battlefield.append(perm)
    if perm.card.cda:  # a characteristic-defining ability: its power and toughness as they now are (604.3)
        g.emit(stats_said(s, perm), "static.cda_pt")
    for said in conditions_said(s, perm):  # "as long as ...": whether it applies as it enters (611.3a)
        g.emit(said, "static.as_long_as")
    fire(g, "enters", perm)
    keyword_triggers(g, "enters", perm.controller, perm)  # living weapon
    watchers(g, perm)
    return perm


def _pay_or_tapped(g: Game, perm: Permanent, asked: int, life: int | None) -> None:
    """ "As ~ enters, you may pay N life. If you don't, it enters tapped" (614.1c): as its controller chose."""
    who = perm.controller
    if life:
        before = g.s.life[who]
        g.s.life[who] -= life
        g.emit(
            f"{who} pays {life} life as {perm.name} enters ({before} -> {g.s.life[who]}): it enters untapped",
            "replace.enters",
            "life.pay",
        )
        return
    perm.tapped = True
    why = "chose not to pay" if life == 0 else "was not asked (only a land played is)"
    g.emit(
        f"{perm.name} enters tapped: {who} {why} {asked} life (a replacement effect of its own)",
        "replace.enters",
        "replace.enters_tapped",
    )


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
            if words[0] == "self":  # "~ or another Ally": itself, or another of that subtype
                if entered is not source and words[3] not in entered.card.subtypes:
                    continue
            elif words[0] == "another" and source is entered:
                continue
            elif not entered.is_a(kind[-1]) or ("nontoken" in kind and entered.token):
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
        said = dict(s.exile_if_dies).get(perm.oid)
        if found is None and said is not None and perm.is_a("creature"):  # a spell's "exile it instead" (614.1a)
            to = "exile"
            g.emit(
                f"{perm.name} was dealt damage by {said} this turn and would die: it is exiled instead; it never "
                "goes to the graveyard",
                "replace.instead",
                "replace.never_happens",
            )
        elif found is not None:
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
    note(s, f"left:{perm.controller}", *(("died",) if to == "graveyard" and perm.is_a("creature") else ()))
    if perm.attacking or perm.blocking is not None:
        s.left_combat.append(perm)
    for other in s.battlefield:
        if perm.oid in other.blockers:
            other.blockers.remove(perm.oid)
    card = Card(s.oid(), card_name(perm), perm.owner, token=perm.token)  # its front face's name (712.8a)
    s.loose_tokens = s.loose_tokens or perm.token
    zone = {"graveyard": s.graveyard, "hand": s.hand, "exile": s.exile, "library": s.library}[to]
    if to == "library":
        zone.setdefault(perm.owner, []).insert(0, card)
    else:
        zone.setdefault(perm.owner, []).append(card)
    if to == "graveyard":
        fire(g, "dies", perm, lki=card)
    if s.exiled_until:
        return_exiled(g, perm)
    return to


def return_exiled(g: Game, source: Permanent) -> None:
    """``source`` has left the battlefield: the cards it exiled "until ~ leaves the battlefield" return to
    the battlefield under their owners' control, as new objects (610.3)."""
    s = g.s
    back = [(card, owner) for src, card, owner in s.exiled_until if src == source.oid]
    s.exiled_until = [e for e in s.exiled_until if e[0] != source.oid]
    for oid, owner in back:
        card = next((c for c in s.exile.get(owner, []) if c.oid == oid), None)
        d = s.definition(card.name) if card is not None and not card.token else None
        if card is None or d is None:
            g.emit(
                f"{source.name} has left the battlefield; the card it exiled is no longer in exile (or was a token), "
                "so nothing returns",
                "effect.exile_until",
                "zone.new_object",
            )
            continue
        s.exile[owner].remove(card)
        g.emit(
            f"{source.name} has left the battlefield: {card.name} returns to the battlefield under {owner}'s control",
            "effect.exile_until",
        )
        enter(g, Permanent(s.oid(), card.name, owner, owner, d, sick=True))


def destroy(g: Game, perm: Permanent, by: str, *keys: str, regenerable: bool = True) -> None:
    """Destroy ``perm`` (701.8a), unless it is indestructible (702.12b); ``regenerable`` False when it
    "can't be regenerated" (701.19c: its regeneration shields are not applied)."""
    if g.s.has(perm, "indestructible"):
        g.emit(
            f"{by} would destroy {perm.name}, but it is indestructible: it is not destroyed",
            *keys,
            "keyword.indestructible",
        )
        return
    if not regenerable and perm.regeneration > 0:
        g.emit(
            f"{perm.name} can't be regenerated: its regeneration shield is not applied",
            *keys,
            "effect.no_regenerate",
        )
    elif regenerates(g, perm, f"{by} would destroy {perm.name}", *keys):
        return
    armour = armour_of(g.s, perm)
    if armour is not None:
        armoured(g, perm, armour, f"{by} would destroy {perm.name}", *keys)
        destroy(g, armour, f"The totem armor of {armour.name}", "keyword.totem_armor")
        return
    g.emit(f"{by} destroys {perm.name}", *keys, "effect.destroy")
    leave_battlefield(g, perm, "graveyard")


def apply_control(g: Game) -> None:
    """Layer 2 (613.1b): who controls each permanent. The control-changing effects that apply to it (an
    Aura's "You control enchanted creature" while attached; a resolved "gain control of" until it ends)
    apply in timestamp order (613.7), so the latest decides; with none, it is back under the control it
    had without them. A permanent that changes controller has not been under its new controller's control
    continuously since their most recent turn began (302.6), and leaves combat (506.4)."""
    s = g.s
    if not s.controls and not s.own_control and not any(st.control for p in s.battlefield for st in p.card.statics):
        return
    here = {p.oid for p in s.battlefield}
    s.controls = [c for c in s.controls if c.oid in here]
    s.own_control = {oid: who for oid, who in s.own_control.items() if oid in here}
    for perm in s.battlefield:
        effects = [(c.since, c.player, c.source) for c in s.controls if c.oid == perm.oid]
        effects += [(o.since, o.controller, o.name) for o, st in s.statics_for(perm) if st.control and o is not perm]
        if effects:
            _, player, source = max(effects)
            s.own_control.setdefault(perm.oid, perm.controller)
        elif perm.oid in s.own_control:
            player, source = s.own_control.pop(perm.oid), ""
        else:
            continue
        if player == perm.controller:
            continue
        perm.controller, perm.sick = player, True
        perm.paired = None  # another player gains control of it: it becomes unpaired (702.95e)
        combat = perm.attacking or perm.blocking is not None
        if combat:
            for other in s.battlefield:
                if perm.oid in other.blockers:
                    other.blockers.remove(perm.oid)
            perm.attacking, perm.blocking, perm.blockers = False, None, []
        said = (
            f"{source} gives {player} control of {perm.name}"
            if source
            else f"{perm.name} returns to {player}'s control"
        )
        g.emit(
            f"{said} (a control-changing effect); it has not been under {player}'s control continuously since "
            f"{player}'s most recent turn began" + (", and it is removed from combat" if combat else ""),
            "effect.control",
            "combat.summoning_sickness",
            *(("combat.removed",) if combat else ()),
        )


def armour_of(s: State, perm: Permanent) -> Permanent | None:
    """An Aura with totem (umbra) armor attached to ``perm``, the one that came first, or None (702.89a)."""
    return next((a for a in s.attachments(perm) if "totem armor" in s.keywords(a)), None)


def armoured(g: Game, perm: Permanent, armour: Permanent, would: str, *keys: str) -> None:
    """Totem (umbra) armor replaces ``perm``'s destruction (702.89a): all damage marked on it is removed;
    the caller destroys the Aura instead."""
    perm.damage, perm.deathtouched = 0, False
    g.emit(
        f"{would}; instead all damage is removed from it and {armour.name} is destroyed (its totem armor)",
        *keys,
        "keyword.totem_armor",
        "replace.instead",
    )


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
        for n, trig in enumerate(g.s.triggers_of(source)):  # with those Auras and Equipment give it
            when = trig.when.lower()
            if perm is None:
                own = when == event and source.controller == g.s.turn_player
                host = g.s.permanent(source.attached_to) if source.attached_to is not None else None
                hosts = when == f"attached {event}" and host is not None and host.controller == g.s.turn_player
                if not (own or hosts or when == f"each {event}"):
                    continue
            elif when != event:
                continue
            if not intervening(g, source, trig):
                continue
            name = _pend(g, source, n, trig, event, lki)
            key = "trigger.beginning" if perm is None else "trigger.controller"
            g.emit(
                f"{name} triggers ({source.controller} controls it)", key, *(("trigger.words",) if trig.words else ())
            )
    if perm is not None:
        attached_triggers(g, event, perm)
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


def fire_controlled(g: Game, event: str, controller: str) -> None:
    """The abilities of ``controller``'s permanents that trigger on ``event`` whatever object it is about
    ("Whenever you exert a creature", 603.2); they wait like any other."""
    for source in list(g.s.battlefield):
        if source.controller != controller:
            continue
        for n, trig in enumerate(g.s.triggers_of(source)):
            if trig.when.lower() == event and intervening(g, source, trig):
                name = _pend(g, source, n, trig, event)
                g.emit(f"{name} triggers ({source.controller} controls it)", "trigger.controller", "trigger.words")


def targeted(g: Game, targets: Sequence[Target], controller: str, spell: bool) -> None:
    """Permanents that become the target of a spell or ability as it is put on the stack: "When ~ becomes the
    target of a spell or ability", and heroic, "Whenever you cast a spell that targets ~" (603.2)."""
    seen: set[int] = set()
    for t in targets:
        perm = g.s.permanent(t.ref) if t.kind == "permanent" and isinstance(t.ref, int) else None
        if perm is None or perm.oid in seen:
            continue
        seen.add(perm.oid)
        fire(g, "targeted", perm)
        if spell and perm.controller == controller:
            fire(g, "targeted by your spell", perm)


def intervening(g: Game, source: Permanent, trig: TriggerDef) -> bool:
    """A triggered ability whose effect begins "if CONDITION" (an intervening "if") triggers only if the
    condition is true then (603.4); said when it is not."""
    first = parse_effect(trig.effect)[:1] if not parse_modes(trig.effect) else ()
    if not first or first[0].verb != "if":
        return True
    if first[0].extra[0] in CHOSE:  # "if it was kicked": a fact of the permanent itself (702.33d-e)
        keyword, designation = CHOSE[first[0].extra[0]]
        if designation in source.designations:
            return True
        g.emit(
            f"{source.name}'s ability does not trigger: it is not true that {first[0].extra[0]}",
            "trigger.if",
            f"keyword.{keyword}",
        )
        return False
    cond = condition(first[0].extra[0])
    if cond.holds(g.s, source.controller, source):
        return True
    g.emit(
        f"{source.name}'s ability does not trigger: it is not true that {cond.said_as} "
        f"({cond.said(g.s, source.controller, source)})",
        "trigger.if",
    )
    return False


def attached_triggers(g: Game, event: str, perm: Permanent) -> None:
    """The abilities of the Auras and Equipment attached to ``perm`` that trigger on its ``event``
    ("Whenever equipped creature attacks"); a dying creature's are looked at as it last existed (603.10a)."""
    for source in g.s.attachments(perm):
        for n, trig in enumerate(g.s.triggers_of(source)):
            if not trig.when.startswith("attached ") or event not in trig.when[len("attached ") :].split(" or "):
                continue
            if not intervening(g, source, trig):
                continue
            name = _pend(g, source, n, trig, f"attached {event}")
            g.emit(
                f"{name} triggers ({source.controller} controls it): {perm.name}, the creature it is attached to, "
                f"{'deals combat damage to a player' if event.startswith('combat') else event}",
                "trigger.controller",
                "trigger.words",
            )


def _pend(g: Game, source: Permanent, n: int, trig: TriggerDef, event: str, lki: Card | None = None) -> str:
    """Put the ``n``-th triggered ability of ``source`` among those waiting (603.2), its targets as the
    scenario wrote them; a dying source is looked at as it last existed (603.10a). Returns its name. A trigger
    on its source being put into a graveyard finds the card it became there (``lki``, 400.7e): its "it"."""
    name = trig.name or (f"{source.name} trigger" + (f"#{n + 1}" if n else ""))
    dies = event == "dies"
    found = Target("token" if lki.token else "card", lki.oid, lki.name) if dies and lki is not None else None
    g.s.pending_triggers.append(
        PendingTrigger(
            name,
            source.controller,
            source.name,
            trig.effect,
            tuple(_trigger_target(g, t) for t in trig.targets),
            _lki(g, source) if dies else g.s.source_of(source),
            found if dies else Target("permanent", source.oid, source.name),
        )
    )
    return name


def keyword_triggers(g: Game, event: str, controller: str, about: Permanent | None = None, player: str = "") -> None:
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
            if trig.compare and not compared(g, perm, about, trig.compare):
                continue
            name = f"{perm.name} {keyword}"
            effect = trig.effect.format(n=keyword.split()[-1]).replace(" 1 +1/+1 counters ", " a +1/+1 counter ")
            if trig.compare == "soulbond" and about is not perm:  # its second ability (702.95a)
                effect = "you may pair that creature with ~"
            s.pending_triggers.append(
                PendingTrigger(
                    name,
                    controller,
                    perm.name,
                    effect,
                    (),
                    s.source_of(perm),
                    Target("permanent", subject.oid, subject.name),
                    (Target("permanent", about.oid, about.name), s.power(about), s.toughness(about))
                    if trig.compare and about is not None
                    else (Target("player", player, player), 0, 0)  # "that player": the player dealt damage
                    if player
                    else None,
                )
            )
            g.emit(
                f"{name} triggers ({controller} controls it): {effect.replace('~', perm.name)}",
                *kw.keys,
                "trigger.controller",
            )


def compared(g: Game, perm: Permanent, about: Permanent | None, how: str) -> bool:
    """A keyword trigger's intervening "if" comparing the creature the event is about with ``perm`` (603.4),
    checked as it would trigger: evolve's (``greater``, 702.100a); said when it does not trigger. Soulbond's:
    both creatures unpaired (702.95a)."""
    if how == "soulbond":
        return can_pair(g.s, perm, about)
    if about is None or about is perm or not about.is_a("creature"):
        return False
    s = g.s
    mine, theirs = (s.power(perm), s.toughness(perm)), (s.power(about), s.toughness(about))
    if theirs[0] > mine[0] or theirs[1] > mine[1]:
        return True
    g.emit(
        f"{perm.name}'s evolve does not trigger: {about.name} ({theirs[0]}/{theirs[1]}) has neither greater power "
        f"nor greater toughness than it ({mine[0]}/{mine[1]})",
        "keyword.evolve",
        "trigger.if",
    )
    return False


def bloodthirst(g: Game, perm: Permanent) -> None:
    """Bloodthirst N: the permanent enters with N +1/+1 counters if an opponent of its controller was dealt
    damage this turn (702.54a), a replacement of how it enters; said either way."""
    n = amount(perm.card.keywords, "bloodthirst")
    if n is None:
        return
    hurt = sorted(p for p in g.s.damaged if p != perm.controller)
    if not hurt:
        g.emit(
            f"{perm.name} has bloodthirst {n}: no opponent was dealt damage this turn, so it enters without counters",
            "keyword.bloodthirst",
        )
        return
    perm.counters["+1/+1"] = perm.counters.get("+1/+1", 0) + n
    g.emit(
        f"{perm.name} has bloodthirst {n}: {hurt[0]} was dealt damage this turn, so it enters with {n} +1/+1 "
        f"counter{'s' if n != 1 else ''} on it",
        "keyword.bloodthirst",
        "counter.put",
    )


def discarded(g: Game, card: Card) -> None:
    """A card discarded goes to its owner's graveyard; one with madness is exiled instead, and its
    triggered ability triggers: its owner may cast it for its madness cost (702.35a)."""
    s = g.s
    d = s.definition(card.name)
    if d is None or not any(k.startswith("madness ") for k in d.keywords):
        s.graveyard.setdefault(card.owner, []).append(card)
        return
    s.exile.setdefault(card.owner, []).append(card)
    name = f"{card.name} madness"
    effect = "you may cast ~ from exile for its madness cost"
    src = Source(card.name, card.owner, d.colours, d.types, oid=card.oid)
    s.pending_triggers.append(
        PendingTrigger(name, card.owner, card.name, effect, (), src, Target("card", card.oid, card.name))
    )
    g.emit(
        f"{card.name} has madness: it is exiled instead of being put into {card.owner}'s graveyard, and {name} "
        f"triggers ({card.owner} controls it): {effect.replace('~', card.name)}",
        "keyword.madness",
        "replace.instead",
        "trigger.controller",
    )


def rebound_triggers(g: Game) -> None:
    """As the active player's upkeep begins, each card they exiled by rebound has its delayed triggered
    ability trigger: they may cast it from exile without paying its mana cost (702.88a)."""
    s = g.s
    for oid, owner in s.rebounds:
        if owner != s.turn_player:
            continue
        card = next((c for c in s.exile.get(owner, []) if c.oid == oid), None)
        s.rebounds = tuple(r for r in s.rebounds if r != (oid, owner))
        if card is None:
            continue
        d = s.definition(card.name)
        src = Source(card.name, owner, d.colours if d else frozenset(), d.types if d else frozenset(), oid=oid)
        name = f"{card.name} rebound"
        effect = "you may cast ~ from exile without paying its mana cost"
        s.pending_triggers.append(
            PendingTrigger(name, owner, card.name, effect, (), src, Target("card", oid, card.name))
        )
        g.emit(
            f"{name} triggers ({owner} controls it): {effect.replace('~', card.name)}",
            "keyword.rebound",
            "trigger.controller",
        )


def dash_returns(g: Game) -> None:
    """As an end step begins, each permanent whose dash cost was paid has its delayed triggered ability
    trigger: return it to its owner's hand (702.109a); it triggers once, at the next end step only."""
    s = g.s
    for perm in list(s.battlefield):
        if "dashed" not in perm.designations:
            continue
        perm.designations = tuple(d for d in perm.designations if d != "dashed")
        name = f"{perm.name} dash"
        s.pending_triggers.append(
            PendingTrigger(
                name,
                perm.controller,
                perm.name,
                "return ~ to its owner's hand",
                (),
                s.source_of(perm),
                Target("permanent", perm.oid, perm.name),
            )
        )
        g.emit(
            f"{name} triggers ({perm.controller} controls it; its dash cost was paid): return {perm.name} to its "
            "owner's hand",
            "keyword.dash",
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
    if perm is None:
        s.damaged |= {str(target.ref)}  # dealt damage this turn (bloodthirst asks)
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
        keyword_triggers(g, "combat damage to a player", dealer.controller, dealer, str(target.ref))


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


def token_definition(
    name: str,
    power: int | None,
    toughness: int | None,
    colours: str,
    keywords: tuple[str, ...],
    ability: tuple = (),
    types: tuple[str, ...] = ("creature",),
) -> CardDef:
    """A token's characteristics (111.4): a creature unless ``types`` says otherwise ("artifact",
    "creature"; a Clue is an artifact alone), with the ability "It has ..." gives it (its activated
    ability, or a triggered one read from its words)."""
    activated = (
        AbilityDef(parse_cost(ability[1]), ability[2], sacrifice_self=ability[3])
        if ability[:1] == ("activated",)
        else None
    )
    triggers = (TriggerDef(ability[1], ability[2], words=True),) if ability[:1] == ("trigger",) else ()
    return CardDef(
        name,
        frozenset(types),
        power=power,
        toughness=toughness,
        keywords=frozenset(keywords),
        colours=frozenset(c for c in colours if c in COLOURS and c != "C"),
        ability=activated,
        triggers=triggers,
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
