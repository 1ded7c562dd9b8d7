"""Triggered abilities (375-381): which trigger on an event, in what order they go onto the Chain.

A condition is evaluated after the event has been processed (376.2.c): an object that left the zone where
its trigger is active at the same time does not see it (376.2.c.2); one that entered it does (376.2.c.1).
Each triggered ability goes onto the Chain as a Pending Item (376.3) and is finalized in the next cleanup,
where it chooses its targets (390.1). Several at once: the turn player's first, then in turn order
(376.3.b.1); "the first time ... each turn" once a turn, once for simultaneous events (376.1.b).
"""

from __future__ import annotations

from engine.riftbound import effects, legality, replacement
from engine.riftbound.state import Awaiting, Battlefield, Card, ChainItem, Game, Trigger

# What a chain item shows for a trigger, by its event.
LABELS = {
    "play": "play",
    "attack": "attack",
    "defend": "defend",
    "conquer": "conquer",
    "hold": "hold",
    "die": "deathknell",
    "dies": "a unit died",
    "move": "move",
    "played": "a card was played",
    "beginning": "beginning",
    "end": "end of turn",
    "recycle": "recycle",
    "discard": "discard",
    "kill_spell": "killed with a spell",
    "kill": "a unit was killed",
    "chosen": "a unit here was chosen",
    "win": "won a combat",
    "stun": "stun",
    "ready": "a unit was readied",
    "buff": "a unit was buffed",
    "temporary": "temporary",
}
KEYS = {
    "play": "trigger.play_effect",
    "attack": "trigger.attack",
    "defend": "trigger.defend",
    "conquer": "trigger.conquer",
    "hold": "trigger.hold",
    "die": "trigger.deathknell",
}


def add_trigger(
    g: Game,
    source: Card | Battlefield,
    when: str,
    effect: str,
    controller: str,
    *keys: str,
    initial: bool = False,
    noted: tuple[tuple[str, str], ...] = (),
) -> ChainItem:
    location = source.location if isinstance(source, Card) else source.name
    item = ChainItem(
        f"{source.name} ({when})",
        controller,
        "trigger",
        effect=effect,
        source=source.key,
        pending=True,
        initial=initial,
        uid=g.s.new_uid(),
        place=location,
        noted=noted or ((("at", location),) if location else ()),
    )
    g.s.chain.append(item)
    g.emit(
        f"{source.name}'s {when} ability triggers: it goes onto the Chain as a Pending Item, controlled by {controller}",
        *keys,
        "trigger.onto_chain",
    )
    if g.citations.follows("trigger.optional_when_triggered"):
        optional_now(g, item)
    return item


def optional_now(g: Game, item: ChainItem) -> None:
    """v1.3 (383.3.a): a triggered ability whose effect begins with "you may" is optional as it triggers: its
    controller chooses now whether to place it on the Chain (v1.2: as it resolves)."""
    first = effects.parse(item.effect)[:1]
    if not first or not (first[0].verb == "may" or optional_choice(first[0])):
        return
    ins = first[0]
    answer = g.next_answer()
    if answer is None:
        about = f'{item.label} triggers: "{ins.text}"; place it on the Chain'
        raise replacement.Pause(
            Awaiting("may", item.controller, ("yes", "no"), about=about),
            f'{about}? {item.controller} decides now ("{item.controller} accepts" or "{item.controller} declines")',
            ("trigger.optional_when_triggered", "priority.limited_actions_regardless"),
        )
    if answer == ("yes",):
        item.taken = True
        g.emit(
            f'{item.controller} chooses to place {item.label} on the Chain ("{ins.text}")'
            + (f'; its cost, "{ins.data[0]}", is paid as it is finalized' if ins.data else ""),
            "trigger.optional_when_triggered",
            "priority.limited_actions_regardless",
        )
        return
    g.s.chain.remove(item)
    g.emit(
        f'{item.controller} chooses not to place {item.label} on the Chain: "{ins.text}" is not done',
        "trigger.optional_when_triggered",
        "priority.limited_actions_regardless",
    )


def optional_choice(ins: effects.Instruction) -> bool:
    """ "You may choose a unit ...": an optional target that begins the effect (read as up to one)."""
    return ins.verb == "choose" and ins.aim.upto == 1 and ins.text.startswith("you may")


def _conditional_statement(g: Game, source: Card | Battlefield, t: Trigger, owner: str, at: str | None) -> bool:
    """v1.3 (383.3.e): a conditional statement following the trigger's condition ("When you play me, if you
    control a Poro, ...") must be true for the ability to be placed on the Chain; it is checked again as it
    resolves, with the rest of its effect. v1.2 has no such rule: it is checked only as it resolves. One about
    "it" (what the effect chooses) cannot be checked before anything is chosen."""
    first = effects.parse(t.effect)[:1]
    if not first or first[0].verb != "if" or not g.citations.follows("trigger.conditional_statement"):
        return True
    cond = first[0].data[0]
    if cond.kind in ("it", "only", "failed"):
        return True
    card = source if isinstance(source, Card) else None
    ok, why = legality.condition_holds(g.s, owner, card, None, cond, at=at or (source.name if card is None else None))
    if not ok:
        g.emit(
            f'{source.name}\'s ability meets its trigger condition, but "if {cond.text}" is not true ({why}): it is '
            "not placed on the Chain",
            "trigger.conditional_statement",
        )
    return ok


def _controller(g: Game, source: Card | Battlefield) -> str | None:
    if isinstance(source, Battlefield):
        return source.controller or g.s.turn_player  # an uncontrolled battlefield's: the turn player (184.6.b)
    return source.holder


def _active(source: Card | Battlefield, trigger: Trigger) -> bool:
    if isinstance(source, Battlefield):
        return True
    if source.attached_to is not None:
        return False  # an attached card's rules text is inactive (718.2)
    if trigger.spec.zone == "trash":
        return source.zone == "trash"
    return source.on_board or source.zone == "legend"


def watchers(g: Game) -> list[tuple[Card | Battlefield, Trigger]]:
    """Every triggered ability active now, in board order (legends, permanents, battlefields)."""
    out: list[tuple[Card | Battlefield, Trigger]] = []
    for c in g.s.cards.values():
        for t in c.defn.triggers:
            if _active(c, t):
                out.append((c, t))
    for bf in g.s.battlefields.values():
        for t in bf.defn.triggers:
            out.append((bf, t))
    return out


def fire(
    g: Game,
    event: str,
    *,
    subject: Card | None = None,
    player: str | None = None,
    bf: Battlefield | None = None,
    subjects: tuple[Card, ...] = (),
    what: str = "",
    nth: int = 0,
    before: dict | None = None,
) -> int:
    """The triggered abilities that ``event`` meets, put onto the Chain in turn order; returns how many.

    ``subject``: the object the event happened to (the unit that attacked, died, moved; the card played);
    ``player``: who did it (played, conquered, held, recycled); ``bf``: the battlefield scored; ``subjects``:
    everything that happened at once (simultaneous deaths); ``before``: what was true just before (a dead
    unit's controller)."""
    s = g.s
    if event == "dies" and before:  # "if an enemy unit has died this turn": its controller as it died
        s.died.append(str(before.get("controller") or ""))
    if not any(event in c.defn.trigger_events for c in s.cards.values()) and not any(
        event in b.defn.trigger_events for b in s.battlefields.values()
    ):
        return 0  # nothing in the game watches for it (the common case: events are fired on every step)
    met: list[tuple[str, Card | Battlefield, Trigger]] = []
    for source, t in watchers(g):
        spec = t.spec
        if spec.event != event:
            continue
        owner = _controller(g, source)
        if owner is None or not _meets(
            g,
            source,
            t,
            owner,
            subject=subject,
            player=player,
            bf=bf,
            subjects=subjects,
            what=what,
            nth=nth,
            before=before or {},
        ):
            continue
        if not _conditional_statement(g, source, t, owner, bf.name if bf is not None else None):
            continue
        if spec.first:
            mark = f"{source.key}:{t.effect}"
            if mark in s.first_done:
                continue
            s.first_done.add(mark)
        if spec.condition == "one or more":  # "when you stun one or more units": once for one instruction's units
            mark = f"{source.key}:{t.effect}:{what}"
            if mark in s.first_done:
                continue
            s.first_done.add(mark)
        met.append((owner, source, t))
    if event == "played" and nth and player is not None:
        for c in s.cards.values():
            if (
                c.owner == player
                and not (c.on_board or c.zone == "legend")
                and c.key != (subject.key if subject else "")
            ):
                for t in c.defn.triggers:
                    if t.spec.event == "played" and t.spec.nth == nth:
                        g.emit(
                            f"{player} plays their {'second' if nth == 2 else 'third'} card this turn; {c.name} is not on "
                            f"the board as that happens, so its ability does not trigger",
                            "trigger.after_event",
                        )
    order = s.in_turn_order({m[0] for m in met})
    for controller in order:
        for owner, source, t in met:
            if owner != controller:
                continue
            label = LABELS.get(t.spec.event, t.spec.event)
            if t.spec.event == "played":
                label = (
                    f"{'second' if t.spec.nth == 2 else 'third'} card played"
                    if t.spec.nth
                    else f"{'an' if t.spec.what[:1] in 'aeiou' else 'a'} {t.spec.what or 'card'} was played".replace(
                        "a mighty unit", "a Mighty unit"
                    ).replace("an other ", "another ")
                )
            elif t.spec.event == "dies" and t.spec.first:
                label = "first death this turn"
            keys = (
                [KEYS[t.spec.event]]
                if t.spec.event in KEYS and t.spec.who in ("me", "you")
                else [KEYS.get(t.spec.event, "trigger.condition_met"), "trigger.after_event"]
            )
            if event in ("conquer", "hold"):
                keys.insert(0, "score.triggers")
            if t.spec.first:
                keys.append("trigger.first_time")
            if t.spec.what == "mighty unit":
                keys.append("mighty.is_mighty")
            if t.spec.event in ("end", "beginning") or (controller != s.turn_player and t.spec.event not in KEYS):
                keys.append("trigger.any_state")
            if t.spec.zone == "trash":
                keys.append("trigger.outside_board")
                if subject is not None and isinstance(source, Card) and subject.key == source.key:
                    keys.append("trigger.enters_zone_same_time")
            noted: tuple[tuple[str, str], ...] = ()
            if subject is not None and subject.location:
                noted = (("at", subject.location),)
            if isinstance(source, Card) and source.location:
                noted = (("at", source.location),)
            if not noted and bf is not None:
                noted = (("at", bf.name),)  # "that battlefield": the one conquered or held
            if event == "dies" and subject is not None:
                noted = (*noted, ("died", subject.key))
            if event == "move" and t.spec.who in ("from here", "from my location") and subject is not None:
                noted = (*noted, ("it", subject.key))  # "give it +1 [M]": the unit that moved
            if event == "chosen" and player is not None:
                noted = (*noted, ("player", player))  # "they draw 1": the player who chose
            if event in ("stun", "ready", "buff") and subject is not None:
                noted = (*noted, ("it", subject.key))  # "when you ready a friendly unit, give it ...": that unit
            add_trigger(g, source, label, t.effect, controller, *keys, noted=noted)
    return len(met)


def _meets(
    g: Game,
    source: Card | Battlefield,
    t: Trigger,
    owner: str,
    *,
    subject: Card | None,
    player: str | None,
    bf: Battlefield | None,
    subjects: tuple[Card, ...],
    what: str,
    nth: int,
    before: dict,
) -> bool:
    spec = t.spec
    s = g.s
    if spec.condition == "at a battlefield" and not (isinstance(source, Card) and source.zone == "battlefield"):
        return False
    if spec.event == "move" and spec.who == "from my location":  # "when a friendly unit moves from my location"
        if not (isinstance(source, Card) and source.on_board and subject is not None and subject is not source):
            return False
        friendly = subject.controller == owner or s.allied(subject.controller, owner)
        if (spec.what == "friendly" and not friendly) or (spec.what == "enemy" and friendly):
            return False
        return str(before.get("from", "")).lower() == (source.location or "").lower()
    if spec.event == "move" and spec.who == "opponent":  # "when an opponent moves to a battlefield [other than mine]"
        if not before.get("first", True) or player not in s.opponents(owner) or what != "battlefield":
            return False  # once for the units moved together
        mine = source.location if isinstance(source, Card) and source.zone == "battlefield" else None
        there = subject.location if subject is not None else None
        return spec.what != "other battlefield" or mine is None or (there or "").lower() != mine.lower()
    if spec.event == "move" and spec.who == "from here":  # a battlefield's "when a unit moves from here"
        return isinstance(source, Battlefield) and str(before.get("from", "")).lower() == source.key
    if spec.event in ("play", "attack", "defend", "die", "move", "win"):
        if spec.event == "play" and spec.what == "facedown" and what != "facedown":
            return False
        if spec.event == "play" and spec.what == "battlefield" and (subject is None or subject.zone != "battlefield"):
            return False  # "when you play me to a battlefield"
        if spec.event == "move" and spec.what == "battlefield" and what != "battlefield":
            return False
        if spec.event == "move" and spec.nth and (subject is None or subject.moves != spec.nth):
            return False  # "the third time I move in a turn"
        return subject is not None and isinstance(source, Card) and subject.key == source.key
    if spec.event in ("conquer", "hold"):
        if spec.who == "me":
            if not (
                isinstance(source, Card)
                and source.on_board
                and bf is not None
                and (source.location or "").lower() == bf.key
                and source.controller == player
            ):
                return False
            if spec.what == "uncontrolled":
                return before.get("controller") is None
            return True
        if spec.who == "here":
            return isinstance(source, Battlefield) and bf is not None and source.key == bf.key
        return player == owner
    if spec.event == "dies":
        if subject is None:
            return False
        if isinstance(source, Card) and source.key == subject.key:
            return False  # units do not see themselves die (376.2.c.2; Deathknell is how they do)
        was = before.get("controller")
        if "friendly" in spec.who and was != owner and not s.allied(was, owner):
            return False
        if "enemy" in spec.who and (was == owner or s.allied(was, owner)):
            return False
        if spec.what == "buffed" and not before.get("buffed"):
            return False  # "when a buffed friendly unit dies": it had a buff as it died
        if spec.what.startswith("non-"):  # "another non-Recruit unit"
            tag = spec.what.removeprefix("non-").capitalize()
            if tag in subject.defn.tags or (tag == "Recruit" and subject.key.startswith("recruit")):
                return False
        return True
    if spec.event == "played":
        if player != owner or subject is None:
            return False
        if spec.nth:
            return nth == spec.nth
        if spec.condition == "from hidden" and what != "facedown":
            return False
        if spec.condition == "opponent's turn" and s.turn_player not in s.opponents(owner):
            return False
        if spec.cost and (subject.defn.cost is None or subject.defn.cost.energy < spec.cost):
            return False
        if spec.what.startswith("other "):
            if isinstance(source, Card) and subject.key == source.key:
                return False  # "another": not the card with the ability itself
            return subject.defn.type == spec.what.removeprefix("other ") or spec.what == "other card"
        if spec.what == "spell":
            return subject.defn.type == "spell"
        if spec.what == "unit":
            return subject.defn.type == "unit"
        if spec.what == "mighty unit":
            return subject.defn.type == "unit" and s.mighty(subject)
        if spec.what == "gear":
            return subject.defn.type == "gear"
        return True
    if spec.event in ("stun", "ready", "buff"):  # "when you stun an enemy unit", "when you ready a friendly unit"
        if player != owner or subject is None or not subject.is_unit:
            return False
        if spec.what == "enemy":
            return subject.controller in s.opponents(owner)
        if spec.what == "friendly":
            return subject.controller == owner or s.allied(subject.controller, owner)
        return True
    if spec.event == "discard" and spec.who == "me":  # "when you discard me": the card is one of those discarded
        return isinstance(source, Card) and any(c.key == source.key for c in subjects)
    if spec.event == "chosen":  # "when a player chooses a friendly unit here with a spell": its targets (352)
        if not isinstance(source, Battlefield) or player is None:
            return False
        for unit in subjects:
            if (unit.location or "").lower() != source.key:
                continue
            friendly = unit.controller == player or s.allied(unit.controller, player)
            if spec.what in ("friendly", "your") and not friendly:
                continue
            if spec.what == "enemy" and friendly:
                continue
            return True
        return False
    if spec.event == "kill":  # "when you kill a stunned enemy unit": by a spell or ability of yours (415.5)
        if player != owner or subject is None:
            return False
        was = before.get("controller")
        words = spec.what.split()
        if "enemy" in words and (was == owner or s.allied(was, owner)):
            return False
        if "friendly" in words and was != owner and not s.allied(was, owner):
            return False
        return "stunned" not in words or bool(before.get("stunned"))
    if spec.event in ("beginning", "end", "recycle", "kill_spell", "discard"):
        return player == owner
    return False


def damaged(g: Game, units: list[Card]) -> None:
    """Units took damage: the delayed triggered abilities watching for it go onto the Chain (383.2), whether or not
    their source is still on the board (385); "the next time" ones only once."""
    s = g.s
    if not s.damage_watch:
        return
    keep = []
    for watch in s.damage_watch:
        controller, key, epoch, effect, src = watch
        hit = [u for u in units if not key or (u.key == key and s.epochs.get(key, 0) == epoch)]
        source = s.cards.get(src) or s.battlefields.get(src)
        for u in hit:
            if source is not None:
                noted = (("it", u.key), *((("at", u.location),) if u.location else ()))
                add_trigger(
                    g,
                    source,
                    f"{u.name} took damage",
                    effect,
                    controller,
                    "delayed.trigger",
                    "delayed.source_irrelevant",
                    noted=noted,
                )
        if not (key and hit):
            keep.append(watch)
    s.damage_watch = keep


def left_with(g: Game, dead: list[Card]) -> None:
    """Objects watching for deaths that died themselves: they do not see their own death, nor deaths at the same
    time (376.2.c.2); say so for each."""
    for card in dead:
        if any(t.spec.event == "dies" for t in card.defn.triggers):
            others = [d.name for d in dead if d.key != card.key]
            g.emit(
                f"{card.name} left the board as it died: its ability does not see its own death"
                + (f", nor that of {', '.join(others)} at the same time" if others else ""),
                "trigger.leaves_zone_same_time",
            )


def rune_not_card(g: Game, player: str) -> None:
    """A rune recycled is not a card recycled (052): say so where an ability watches for recycled cards."""
    for source, t in watchers(g):
        if t.spec.event == "recycle" and _controller(g, source) == player:
            g.emit(
                f"A rune is not a card for card effects: {source.name}'s ability (\"when you recycle one or more "
                'cards") does not trigger',
                "card.main_deck_only",
            )
