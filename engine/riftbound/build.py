"""Building a game's state from a scenario dict, checking the Riftbound parts of it.

Every mistake is a :class:`ScenarioError` naming the key path, with a suggestion where one is close; an
effect, keyword or ability the engine cannot read is refused naming its words (never ignored).

>>> s = build({"players": ["Ana", "Ben"], "turn": {"player": "Ana", "phase": "main"},
...            "state": {"units": [{"name": "Jinx", "controller": "Ana", "at": "base", "might": 3}]}})
>>> s.cards["jinx"].location, s.points
('base', {'Ana': 0, 'Ben': 0})
>>> build({"players": ["Ana", "Ben"], "turn": {"player": "Anna"}})
Traceback (most recent call last):
...
engine.core.ScenarioError: no player named "Anna" (did you mean "Ana"?)
"""

from __future__ import annotations

import functools
import re
from collections.abc import Iterator, Mapping
from typing import Any

from engine.core import ScenarioError, flag, items, mapping, suggest, whole_number
from engine.core import name as name_of
from engine.riftbound import effects
from engine.riftbound.effects import Cost
from engine.riftbound.state import (
    PHASES,
    TRIGGERS,
    Ability,
    Battlefield,
    Card,
    CardDef,
    Pool,
    Replacement,
    Rune,
    State,
    Trigger,
)

TOP_KEYS = (
    "game",
    "book",
    "title",
    "description",
    "notes",
    "players",
    "turn",
    "victory_score",
    "state",
    "cards",
    "actions",
    "expect",
    "costs",
    "edition",
    "teams",
)
STATE_KEYS = (
    "points",
    "battlefields",
    "units",
    "gear",
    "hand",
    "deck",
    "trash",
    "scored_this_turn",
    "runes",
    "hidden",
    "pool",
    "rune_deck",
    "legends",
    "champion",
    "played_this_turn",
)
UNIT_KEYS = (
    "name",
    "controller",
    "owner",
    "at",
    "might",
    "exhausted",
    "damage",
    "keywords",
    "ability",
    "effect",
    "triggers",
    "buffed",
    "buffs",
    "stunned",
    "type",
    "replacement",
    "cost",
    "domain",
    "tags",
    "token",
    "champion",
    "attached_to",
    "might_bonus",
    "attached",
)
CARD_KEYS = (
    "type",
    "keywords",
    "might",
    "effect",
    "ability",
    "triggers",
    "cost",
    "replacement",
    "domain",
    "tags",
    "token",
    "champion",
    "might_bonus",
    "attached",
)
REPLACEMENT_KEYS = ("when", "instead", "once")
ABILITY_KEYS = ("cost", "effect", "keywords")
CARD_TYPES = ("unit", "spell", "gear", "legend")
BATTLEFIELD_KEYS = ("name", "controller", "hidden", "effect", "keywords")

# Limits on the numbers a scenario gives (docs/scenarios.md): far above any real game, low enough that
# a typo (a billion cards) fails in one line.
MAX_COUNT = 500  # unnamed cards in a hand or deck, runes
MAX_MIGHT = 999  # a unit's Might, damage marked on it
MAX_POINTS = 999  # points, the victory score


def _check_keys(data: Any, allowed: tuple[str, ...], path: tuple) -> Mapping:
    if not isinstance(data, Mapping):
        raise ScenarioError(
            path,
            f"expected a mapping with keys {', '.join(allowed)}, got "
            f"{'a list' if isinstance(data, list) else repr(data)}",
        )
    for key in data:
        if key not in allowed:
            raise ScenarioError((*path, key), f'unknown key "{key}"{suggest(str(key), allowed)}')
    return data


def _player(name: Any, players: list[str], path: tuple) -> str:
    for p in players:
        if str(name).lower() == p.lower():
            return p
    raise ScenarioError(path, f'no player named "{name}"{suggest(str(name), players)}')


def _keywords(raw: Any, path: tuple) -> tuple[frozenset[str], tuple[tuple[str, int], ...], Cost | None, Cost | None]:
    """Keywords (with values: ``Assault 2``, ``Deflect``, ``Repeat [2]``, ``Equip [1][C]``): the names, the values,
    Repeat's cost and Equip's cost."""
    names, values, repeat, equip = set(), [], None, None
    for i, word in enumerate(items(raw, path, f"keywords ({', '.join(effects.KEYWORDS)})")):
        try:
            kw, value, cost = effects.parse_keyword(word)
        except ValueError as exc:
            head = re.split(r"[\s\[]", str(word).strip(), maxsplit=1)[0]
            raise ScenarioError(
                (*path, i), f"{exc}{suggest(head, effects.KEYWORDS)}; keywords: {', '.join(effects.KEYWORDS)}"
            ) from None
        names.add(kw)
        if value:
            values.append((kw, value))
        if kw == "Repeat":
            repeat = cost
        if kw == "Equip":
            equip = cost
    return frozenset(names), tuple(values), repeat, equip


def _effect(text: Any, path: tuple, *, self_ok: bool, that_ok: bool = False) -> str:
    text = "" if text is None else str(text)
    try:
        instructions = effects.parse(text)
    except ValueError as exc:
        raise ScenarioError(path, _unreadable(exc)) from None
    walked = effects._walk(instructions)
    if any(abs(i.amount) > MAX_MIGHT for i in walked) or any(i.times > 99 for i in walked):
        raise ScenarioError(path, f"a number in an effect is at most {MAX_MIGHT}: {text!r}")
    # a spell's "this" is the spell itself (053.2): "banish this" sends it to banishment as it resolves
    if not self_ok and any(i.target and i.target.kind == "me" and i.verb != "banish" for i in walked):
        raise ScenarioError(path, '"me" names the object an ability belongs to; a spell has none')
    if not that_ok and any(i.target and i.target.kind == "that" for i in walked):
        raise ScenarioError(
            path,
            '"that unit" names the unit a replacement effect\'s event would act on; '
            'it is written only in a replacement\'s "instead"',
        )
    if that_ok and any(i.chooses for i in walked):
        raise ScenarioError(
            path,
            'a replacement effect chooses no targets (352.10.c): write "me", "that unit", '
            "or an instruction without a target",
        )
    return text


def _unreadable(exc: ValueError) -> str:
    message = str(exc)
    part = message.split('"')[1] if '"' in message else message
    return (
        f"{message}{suggest(part, effects.VOCABULARY)}; the effects the engine reads are listed in docs/scenarios.md "
        '("The effect vocabulary")'
    )


def _replacement(raw: Any, path: tuple) -> Replacement | None:
    """``replacement: {when: "a friendly unit would die", instead: "kill me. recall that unit exhausted", once: true}``."""
    if raw is None:
        return None
    _check_keys(raw, REPLACEMENT_KEYS, path)
    when = str(raw.get("when") or "")
    try:
        who, event = effects.parse_when(when)
    except ValueError as exc:
        raise ScenarioError(
            (*path, "when"),
            f"{exc}{suggest(when, effects.WHEN_VOCABULARY)}; known: {'; '.join(effects.WHEN_VOCABULARY)}",
        ) from None
    instead = _effect(raw.get("instead"), (*path, "instead"), self_ok=True, that_ok=True)
    once = raw.get("once", False)
    if not isinstance(once, bool):
        raise ScenarioError((*path, "once"), f"once must be true or false, not {once!r}")
    return Replacement(when, who, event, instead, once)


def _text_replacement(text: str, path: tuple) -> Replacement:
    """A replacement effect in card words: ``If a friendly unit would die, kill this instead. Heal that unit, ...``."""
    m = re.match(
        r"^(?:the next time |if )(?P<when>.+? would (?:die|be killed|be dealt damage|take damage)),? "
        r"(?P<instead>.+?) instead\.?(?P<more>.*)$",
        text,
    )
    if not m:
        raise ScenarioError(
            path,
            f'cannot read the replacement effect "{text}"; write it "If WHO would EVENT, '
            'EFFECT instead" or with replacement: {when, instead, once}',
        )
    more = re.sub(r"\bit\b", "that unit", m.group("more").strip()).strip(". ")
    instead = m.group("instead").replace("this", "me")
    instead = re.sub(r"\bit\b", "that unit", instead)
    full = ". ".join(p for p in (instead, more) if p)
    when = m.group("when")
    try:
        who, event = effects.parse_when(when)
    except ValueError as exc:
        raise ScenarioError(path, f"{exc}; known: {'; '.join(effects.WHEN_VOCABULARY)}") from None
    return Replacement(
        when, who, event, _effect(full, path, self_ok=True, that_ok=True), text.startswith("the next time")
    )


def _ability(raw: Any, path: tuple) -> Ability | None:
    if raw is None:
        return None
    if isinstance(raw, str):
        raw = {"effect": raw}
    _check_keys(raw, ABILITY_KEYS, path)
    return Ability(
        _effect(raw.get("effect"), (*path, "effect"), self_ok=True),
        _cost(raw.get("cost"), (*path, "cost")),
        _keywords(raw.get("keywords"), (*path, "keywords"))[0],
    )


def _cost(raw: Any, path: tuple) -> Cost:
    try:
        return effects.parse_cost(raw)
    except ValueError as exc:
        raise ScenarioError(
            path, f"{exc}; a cost is written [2][R], 2, {{energy: 2, power: [Fury]}}, [E], or [1], [E]"
        ) from None


def _triggers(raw: Any, path: tuple) -> tuple[Trigger, ...]:
    if raw is None:
        return ()
    if not isinstance(raw, Mapping):
        raise ScenarioError(
            path, "expected a mapping of when -> effect (play, attack, defend, conquer, hold, deathknell)"
        )
    out = []
    for when, text in raw.items():
        if str(when).lower() not in TRIGGERS:
            raise ScenarioError((*path, when), f'unknown trigger "{when}"{suggest(str(when), TRIGGERS)}')
        event = "die" if str(when).lower() == "deathknell" else str(when).lower()
        out.append(Trigger(effects.TriggerSpec(event), _effect(text, (*path, when), self_ok=True)))
    return tuple(out)


def _domains(raw: Any, path: tuple) -> tuple[str, ...]:
    out = []
    for i, d in enumerate(items(raw, path, "domains (Fury, Calm, Mind, Body, Chaos, Order)")):
        try:
            out.append(effects.domain(d))
        except ValueError as exc:
            raise ScenarioError((*path, i), str(exc)) from None
    return tuple(out)


def _attached_text(raw: Any, path: tuple) -> tuple:
    """An Equipment's Effect Text (135): keywords and Might its unit has while it is attached."""
    if raw is None:
        return ()
    out = []
    try:
        for ability in effects.abilities(str(raw)):
            if ability.kind == "keyword":
                out.append(("keywords", ability.keywords))
            else:
                raise ScenarioError(
                    path,
                    f'an Equipment\'s attached text here gives keywords ("[Assault 2]"); '
                    f'"{ability.text}" is not read (give Might with might_bonus)',
                )
    except ValueError as exc:
        raise ScenarioError(path, _unreadable(exc)) from None
    return tuple(out)


_SELF_VERBS = {
    "dies": "I die",
    "attacks": "I attack",
    "defends": "I defend",
    "conquers": "I conquer",
    "holds": "I hold",
    "moves": "I move",
    "is played": "I am played",
}


def _own_name(text: str, name: str | None) -> str:
    """A triggered ability written with the card's own name (the contract's ``When NAME dies, ...``) is the card's
    "I" (053: cards refer to themselves in the first person): ``When Yorick dies`` -> ``When I die``."""
    if not name or base_name(name).lower() not in text.lower():
        return text
    own = re.escape(base_name(name))
    text = re.sub(
        rf"\b(when|whenever)\s+{own}\s+(dies|attacks|defends|conquers|holds|moves|is played)\b",
        lambda m: f"{m.group(1)} {_SELF_VERBS[m.group(2).lower()]}",
        text,
        flags=re.I,
    )
    return re.sub(rf"\b(when|whenever)\s+you\s+play\s+{own}\b", lambda m: f"{m.group(1)} you play me", text, flags=re.I)


_CARD_DEFS: dict[tuple[str, str | None, str | None], CardDef] = {}  # definitions already read (they are immutable)


def card_def(raw: Mapping, path: tuple, default_type: str | None = None, name: str | None = None) -> CardDef:
    """A card's definition from its keys (``cards:`` or a state entry); the same keys give the same (immutable)
    definition, read once per process (a scenario replayed is built again and again)."""
    try:
        key = (repr(raw), default_type, name)
    except Exception:  # pragma: no cover - YAML gives plain values
        return _card_def(raw, path, default_type, name)
    known = _CARD_DEFS.get(key)
    if known is None:
        known = _card_def(raw, path, default_type, name)
        if len(_CARD_DEFS) < 20_000:
            _CARD_DEFS[key] = known
    return known


def _card_def(raw: Mapping, path: tuple, default_type: str | None = None, name: str | None = None) -> CardDef:
    kind = str(raw.get("type", default_type or "")).lower()
    if kind not in CARD_TYPES:
        raise ScenarioError(
            (*path, "type"),
            f'unknown card type "{raw.get("type")}"{suggest(kind, CARD_TYPES)}; '
            f"riftbound card types: {', '.join(CARD_TYPES)}",
        )
    keywords, values, repeat, equip = _keywords(raw.get("keywords"), (*path, "keywords"))
    triggers = list(_triggers(raw.get("triggers"), (*path, "triggers")))
    replacement = _replacement(raw.get("replacement"), (*path, "replacement"))
    abilities: list[Ability] = []
    first = _ability(raw.get("ability"), (*path, "ability"))
    if first is not None:
        abilities.append(first)
    passives: list[tuple] = []
    legion, additional = "", None
    optional: Cost | None = None
    optional_mod: tuple = ()
    spell_effect: list[str] = []
    play_effects: list[str] = []
    text = _own_name("" if raw.get("effect") is None else str(raw.get("effect")), name)
    epath = (*path, "effect")
    try:
        parsed = effects.abilities(text)
    except ValueError as exc:
        raise ScenarioError(epath, _unreadable(exc)) from None
    for ab in parsed:
        if ab.kind == "keyword":
            for kw, value in ab.keywords:
                keywords |= {kw}
                if value:
                    values = (*values, (kw, value))
            if ab.cost is not None:
                repeat = ab.cost if ab.keywords[0][0] == "Repeat" else repeat
                equip = ab.cost if ab.keywords[0][0] == "Equip" else equip
        elif ab.kind == "triggered":
            assert ab.trigger is not None
            if kind == "spell" and ab.trigger.zone == "board":  # one active from the trash says so (378.2)
                raise ScenarioError(epath, f'a spell has no triggered ability: "{ab.text}"')
            triggers.append(Trigger(ab.trigger, _effect(ab.effect, epath, self_ok=True)))
            keywords |= {k for k, _ in ab.keywords}
        elif ab.kind == "activated":
            assert ab.cost is not None
            abilities.append(
                Ability(
                    _effect(ab.effect, epath, self_ok=True),
                    ab.cost,
                    frozenset(k for k, _ in ab.keywords if k in ("Action", "Reaction")),
                    spend_only=dict(ab.data).get("spend_only") or "",
                    only=dict(ab.data).get("only") or "",
                )
            )
        elif ab.kind == "replacement":
            if replacement is not None:
                raise ScenarioError(epath, "one replacement effect per object here")
            replacement = _text_replacement(ab.text, epath)
        elif ab.kind == "passive":
            passives.append(ab.data)
        elif ab.kind == "legion":
            keywords |= {"Legion"}
            if kind == "spell":
                spell_effect.append(f"legion - {ab.effect}")  # read there ("Legion - Kill it now instead" too)
            else:
                legion = _effect(ab.effect, epath, self_ok=True)
        elif ab.kind == "additional_cost":
            additional = ab.cost
        elif ab.kind == "optional_cost":
            optional, optional_mod = ab.cost, ab.data
            if ab.effect:
                (spell_effect if kind == "spell" else play_effects).append(ab.effect)
        else:
            (spell_effect if kind == "spell" else play_effects).append(ab.effect)
    if kind != "spell" and play_effects:
        # A permanent's plain instructions are its Deathknell effect when it has Deathknell, else its play effect.
        effect = _effect(". ".join(play_effects), epath, self_ok=True)
        when = "die" if "Deathknell" in keywords else "play"
        if not any(t.spec.event == when and t.spec.who == "me" for t in triggers):
            triggers.insert(0, Trigger(effects.TriggerSpec(when), effect))
    spell_text = _effect(". ".join(spell_effect), epath, self_ok=False) if kind == "spell" else ""
    might = raw.get("might")
    might = 0 if might is None else whole_number(might, (*path, "might"), 0, MAX_MIGHT)
    if replacement is not None and kind == "spell":
        raise ScenarioError(
            (*path, "replacement"),
            "a spell has no replacement effect here: give it to a unit or gear "
            "(a passive ability of an object on the board, 365.1)",
        )
    if "Quick-Draw" in keywords and kind == "gear":
        # Quick-Draw: Reaction, and "When you play this, attach it to a unit you control" (745.1.d).
        triggers.append(Trigger(effects.TriggerSpec("play"), "attach this to a unit you control"))
    if "Weaponmaster" in keywords and kind == "unit":
        # Weaponmaster: "When you play me, choose a card you control with the Equipment tag ... pay the cost of its
        # Equip ability, reduced by [A], to attach it to this unit" (747.1.c).
        triggers.append(Trigger(effects.TriggerSpec("play"), "weaponmaster an equipment you control"))
    cost = None
    if raw.get("cost") is not None:
        cost = _cost(raw.get("cost"), (*path, "cost"))
        if cost.exhaust or cost.extra:
            raise ScenarioError(
                (*path, "cost"),
                "a card's cost is energy and power ([2][R]); other costs are an ability's (ability: {cost: ...})",
            )
    tags = tuple(str(t) for t in items(raw.get("tags"), (*path, "tags"), "tags"))
    might_bonus = raw.get("might_bonus")
    might_bonus = 0 if might_bonus is None else whole_number(might_bonus, (*path, "might_bonus"), -MAX_MIGHT, MAX_MIGHT)
    return CardDef(
        kind,
        keywords,
        might,
        spell_text,
        abilities[0] if abilities else None,
        tuple(triggers),
        replacement,
        tuple(values),
        cost,
        _domains(raw.get("domain"), (*path, "domain")),
        tags,
        flag(raw.get("token"), (*path, "token")),
        flag(raw.get("champion"), (*path, "champion")),
        repeat,
        equip,
        might_bonus,
        _attached_text(raw.get("attached"), (*path, "attached")),
        tuple(passives),
        legion,
        additional,
        tuple(abilities),
        optional,
        optional_mod,
    )


class _Names:
    """Every card name in the scenario, unique case-insensitively (duplicates are written ``Name#2``)."""

    def __init__(self) -> None:
        self.seen: dict[str, tuple] = {}

    def add(self, name: Any, path: tuple, what: str = "a card name") -> str:
        name = name_of(name, path, what)
        if name.lower() in self.seen:
            raise ScenarioError(path, f'"{name}" is listed twice; write the second one "{name}#2"')
        self.seen[name.lower()] = path
        return name


def base_name(name: str) -> str:
    """``Garen#2`` -> ``Garen``: the name its definition is under."""
    return name.split("#", 1)[0].strip()


def build(scenario: Mapping[str, Any]) -> State:
    players_raw = scenario.get("players")
    if not isinstance(players_raw, list) or len(players_raw) < 2:
        raise ScenarioError(("players",), "list the players in turn order, at least two: players: [Ana, Ben]")
    players = [str(p) for p in players_raw]
    for i, p in enumerate(players):
        if not p or " " in p.strip():
            raise ScenarioError(("players", i), f'player names are single words, not "{p}"')
        if [q.lower() for q in players].count(p.lower()) > 1:
            raise ScenarioError(("players", i), f'player "{p}" is listed twice')

    turn = _check_keys(scenario.get("turn") or {}, ("player", "phase"), ("turn",))
    turn_player = _player(turn.get("player", players[0]), players, ("turn", "player"))
    phase = str(turn.get("phase", "main")).lower()
    if phase == "action":
        phase = "main"
    if phase not in PHASES:
        raise ScenarioError(
            ("turn", "phase"),
            f'unknown riftbound phase "{turn.get("phase")}"{suggest(phase, PHASES)}; phases: {", ".join(PHASES)}',
        )
    teams = _teams(scenario.get("teams"), players)
    victory = scenario.get("victory_score")
    victory = (11 if teams else 8) if victory is None else whole_number(victory, ("victory_score",), 1, MAX_POINTS)
    costs = scenario.get("costs")
    if costs not in (None, "ignore", "check"):
        raise ScenarioError(("costs",), f"costs is ignore or check, not {costs!r}")

    s = State(players=players, turn_player=turn_player, phase=phase, victory_score=victory)
    s.teams = teams
    s.points = {p: 0 for p in players}
    s.deck = {p: [] for p in players}
    s.hand_unnamed = {p: 0 for p in players}
    s.runes = {p: None for p in players}
    s.rune_deck = {p: None for p in players}
    s.pool = {p: Pool() for p in players}
    s.played = {p: [] for p in players}
    s.scored = {p: set() for p in players}

    cards_raw = scenario.get("cards") or {}
    if not isinstance(cards_raw, Mapping):
        raise ScenarioError(("cards",), "expected a mapping of card name -> {type, keywords, might, effect, ability}")
    defs: dict[str, CardDef] = {}
    raws: dict[str, Mapping] = {}
    for name, raw in cards_raw.items():
        path: tuple = ("cards", name)
        _check_keys(raw or {}, CARD_KEYS, path)
        defs[str(name).lower()] = card_def(raw or {}, path, name=str(name))
        raws[str(name).lower()] = raw or {}

    state = _check_keys(scenario.get("state") or {}, STATE_KEYS, ("state",))
    names = _Names()

    for player, value in _per_player(state.get("points"), players, ("state", "points"), "points"):
        s.points[player] = whole_number(value, ("state", "points", player), 0, MAX_POINTS)

    for i, raw in enumerate(
        items(state.get("battlefields"), ("state", "battlefields"), "battlefields ({name, controller})", one=False)
    ):
        path = ("state", "battlefields", i)
        if isinstance(raw, str):
            raw = {"name": raw}
        _check_keys(raw, BATTLEFIELD_KEYS, path)
        name = names.add(raw.get("name"), (*path, "name"), "a battlefield name")
        if name.lower() == "base":
            raise ScenarioError((*path, "name"), '"base" is every player\'s own base, not a battlefield')
        ctrl = raw.get("controller")
        ctrl = None if ctrl in (None, "none", "None") else _player(ctrl, players, (*path, "controller"))
        defn = Battlefield(name).defn
        for j, word in enumerate(items(raw.get("keywords"), (*path, "keywords"), "keywords")):
            # The contract lets battlefields list keywords; no keyword of 731-747 is a battlefield's (each names the
            # objects it is on: units, gear, spells, permanents), so one given is refused by name, never ignored.
            head = _keywords([word], (*path, "keywords", j))[0]
            raise ScenarioError(
                (*path, "keywords", j),
                f'keyword "{word}" on a battlefield is not modelled: '
                f"{', '.join(sorted(head))} is a keyword of cards played, not of "
                "battlefields; write a battlefield's abilities under effect",
            )
        if raw.get("effect") is not None:
            defn = _battlefield_def(raw.get("effect"), (*path, "effect"))
        s.battlefields[name.lower()] = Battlefield(name, ctrl, defn=defn)

    def place_of(value: Any, path: tuple) -> tuple[str, str | None]:
        text = str(value or "base")
        if text.lower() == "base":
            return "base", None
        if text.lower() in s.battlefields:
            return "battlefield", s.battlefields[text.lower()].name
        raise ScenarioError(
            path, f'no battlefield named "{text}"{suggest(text, [b.name for b in s.battlefields.values()] + ["base"])}'
        )

    attachments: list[tuple[str, Any, tuple]] = []
    for group, kind in (("units", "unit"), ("gear", "gear")):
        for i, raw in enumerate(
            items(state.get(group), ("state", group), f"{group} ({{name, controller, at}})", one=False)
        ):
            path = ("state", group, i)
            _check_keys(raw, UNIT_KEYS, path)
            name = names.add(raw.get("name"), (*path, "name"))
            if "controller" not in raw:
                raise ScenarioError(path, f"{name}: say who controls it: controller: {players[0]}")
            ctrl = _player(raw["controller"], players, (*path, "controller"))
            owner = _player(raw.get("owner", ctrl), players, (*path, "owner"))
            zone, at = place_of(raw.get("at"), (*path, "at"))
            # A definition under ``cards:`` gives the defaults; what the state says of this object wins.
            known = raws.get(base_name(name).lower(), {})
            merged = {**known, **{k: v for k, v in raw.items() if k in CARD_KEYS}}
            merged["type"] = merged.get("type", kind)
            defn = card_def(merged, path, name=name)
            damage = raw.get("damage")
            damage = 0 if damage is None else whole_number(damage, (*path, "damage"), 0, MAX_MIGHT)
            buffed = flag(raw.get("buffed"), (*path, "buffed"))
            more_buffs = 0
            if raw.get("buffs") is not None and any(p[0] == "any_buffs" for p in defn.passives):
                n = whole_number(raw.get("buffs"), (*path, "buffs"), 0, 99, "a number of buffs")
                buffed, more_buffs = n > 0, max(0, n - 1)  # "I can have any number of buffs"
            elif raw.get("buffs") is not None:
                buffed = bool(
                    whole_number(
                        raw.get("buffs"), (*path, "buffs"), 0, 1, "a number of buffs (a unit has at most one, 702.3)"
                    )
                )
            s.cards[name.lower()] = Card(
                name,
                owner,
                defn,
                zone=zone,
                at=at,
                controller=ctrl,
                exhausted=flag(raw.get("exhausted"), (*path, "exhausted")),
                damage=damage,
                buffed=buffed,
                more_buffs=more_buffs,
                stunned=flag(raw.get("stunned"), (*path, "stunned")),
            )
            if raw.get("attached_to") is not None:
                attachments.append((name.lower(), raw.get("attached_to"), (*path, "attached_to")))

    for key, unit_name, path in attachments:
        gear = s.cards[key]
        unit = s.cards.get(str(unit_name).lower())
        if gear.defn.type != "gear":
            raise ScenarioError(path, f"{gear.name} is not a gear: only gear is attached here (Equipment, 744)")
        if unit is None or not unit.is_unit:
            raise ScenarioError(
                path, f'no unit named "{unit_name}" on the board{suggest(str(unit_name), [u.name for u in s.units()])}'
            )
        gear.attached_to = unit.key
        gear.zone, gear.at = unit.zone, unit.at  # an attached card is where its unit is (719.3)

    for zone in ("hand", "trash"):
        for player, value in _per_player(
            state.get(zone), players, ("state", zone), "card names" + (" or a count" if zone == "hand" else "")
        ):
            if zone == "hand" and _is_count(value):
                s.hand_unnamed[player] = _count(value, ("state", zone, player))
                continue
            for i, name in enumerate(_names(value, ("state", zone, player), counts=zone == "hand")):
                path = ("state", zone, player, i)
                name = names.add(name, path)
                s.cards[name.lower()] = Card(name, player, defs.get(base_name(name).lower(), _UNDEFINED), zone=zone)

    for player, value in _per_player(state.get("deck"), players, ("state", "deck"), "card names or a count"):
        if _is_count(value):
            s.deck[player] = [None] * _count(value, ("state", "deck", player))
            continue
        for i, name in enumerate(_names(value, ("state", "deck", player), counts=True)):
            name = names.add(name, ("state", "deck", player, i))
            s.cards[name.lower()] = Card(name, player, defs.get(base_name(name).lower(), _UNDEFINED), zone="deck")
            s.deck[player].append(name.lower())

    for player, value in _per_player(state.get("legends"), players, ("state", "legends"), "their legend"):
        path = ("state", "legends", player)
        if isinstance(value, Mapping):
            _check_keys(value, ("name", "effect", "ability", "triggers", "exhausted", "domain", "keywords"), path)
            lname = names.add(value.get("name"), (*path, "name"), "a legend's name")
            raw = {**raws.get(lname.lower(), {}), **{k: v for k, v in value.items() if k not in ("name", "exhausted")}}
            exhausted = flag(value.get("exhausted"), (*path, "exhausted"))
        else:
            lname = names.add(value, path, "a legend's name")
            raw, exhausted = raws.get(lname.lower(), {}), False
        defn = card_def({**raw, "type": "legend"}, path, name=lname)
        s.cards[lname.lower()] = Card(lname, player, defn, zone="legend", controller=player, exhausted=exhausted)

    for player, value in _per_player(state.get("champion"), players, ("state", "champion"), "their Chosen Champion"):
        path = ("state", "champion", player)
        cname = names.add(value, path, "a champion's name")
        defn = defs.get(base_name(cname).lower(), _UNDEFINED)
        if defn is not _UNDEFINED and defn.type != "unit":
            raise ScenarioError(path, f"{cname} is not a unit: the Chosen Champion is a champion unit (103.2.a.2)")
        s.cards[cname.lower()] = Card(cname, player, defn, zone="champion")
        s.champions[player] = base_name(cname)

    tracked = set()
    for player, value in _per_player(state.get("runes"), players, ("state", "runes"), "runes"):
        path = ("state", "runes", player)
        if value is None:  # ``runes: {Ana: null}``: not counted, as when runes are not given
            continue
        s.runes[player] = _runes(value, path)
        tracked.add(player)
    for player, value in _per_player(state.get("pool"), players, ("state", "pool"), "their Rune Pool"):
        path = ("state", "pool", player)
        _check_keys(value or {}, ("energy", "power"), path)
        energy = whole_number((value or {}).get("energy") or 0, (*path, "energy"), 0, MAX_COUNT)
        power = []
        for i, d in enumerate(items((value or {}).get("power"), (*path, "power"), "domains")):
            try:
                power.append(
                    effects.parse_cost(f"[{d}]").power[0]
                    if len(str(d)) == 1
                    else ("any" if str(d).lower() == "any" else effects.domain(d))
                )
            except (ValueError, IndexError) as exc:
                raise ScenarioError((*path, "power", i), str(exc) or f"unknown domain {d!r}") from None
        s.pool[player] = Pool(energy, power)
        tracked.add(player)
        if s.runes[player] is None:
            s.runes[player] = []
    for player, value in _per_player(state.get("rune_deck"), players, ("state", "rune_deck"), "a count of runes"):
        s.rune_deck[player] = whole_number(value, ("state", "rune_deck", player), 0, 12, "a count of runes")
    s.tracked = frozenset() if costs == "ignore" else frozenset(tracked)

    for player, value in _per_player(
        state.get("played_this_turn"), players, ("state", "played_this_turn"), "a count of cards"
    ):
        s.played[player] = [("", True)] * whole_number(
            value, ("state", "played_this_turn", player), 0, 99, "a count of cards played this turn"
        )

    for player, value in _per_player(
        state.get("scored_this_turn"), players, ("state", "scored_this_turn"), "battlefield names"
    ):
        for i, name in enumerate(items(value, ("state", "scored_this_turn", player), "battlefield names")):
            if str(name).lower() not in s.battlefields:
                raise ScenarioError(
                    ("state", "scored_this_turn", player, i),
                    f'no battlefield named "{name}"{suggest(str(name), [b.name for b in s.battlefields.values()])}',
                )
            s.scored[player].add(str(name).lower())

    hidden = mapping(state.get("hidden"), ("state", "hidden"), "battlefield -> the card hidden there")
    for bf_name, card_name in hidden.items():
        path = ("state", "hidden", bf_name)
        if str(bf_name).lower() not in s.battlefields:
            raise ScenarioError(
                path,
                f'no battlefield named "{bf_name}"{suggest(str(bf_name), [b.name for b in s.battlefields.values()])}',
            )
        bf = s.battlefields[str(bf_name).lower()]
        if bf.controller is None:
            raise ScenarioError(
                path, f"{bf.name} has no controller: a card is hidden only at a battlefield its owner controls (408.1)"
            )
        name = names.add(card_name, path)
        card = Card(
            name,
            bf.controller,
            defs.get(base_name(name).lower(), _UNDEFINED),
            zone="facedown",
            at=bf.name,
            controller=bf.controller,
            hidden_turn=0,
        )
        if not card.defn.has("Hidden") and card.defn is not _UNDEFINED:
            raise ScenarioError(path, f"{name} has no Hidden keyword")
        s.cards[name.lower()] = card
        bf.facedown = name.lower()

    for bf in s.battlefields.values():
        if bf.controller and bf.controller not in s.players_at(bf.name):
            raise ScenarioError(
                ("state", "battlefields", list(s.battlefields).index(bf.key), "controller"),
                f"{bf.name} is controlled by {bf.controller} but none of {bf.controller}'s units is there; "
                "a battlefield without its controller's units is uncontrolled (184.4.c)",
            )
    _check_places(s, cards_raw, state)
    s.continuous = (
        any(c.defn.passives or c.defn.values or c.defn.might_bonus or c.defn.attached_text for c in s.cards.values())
        or any(bf.defn.passives for bf in s.battlefields.values())
        or any(d.passives or d.values for d in defs.values())
    )
    return s


def _teams(raw: Any, players: list[str]) -> dict[str, int]:
    """``teams: [[Ana, Cid], [Ben, Dee]]`` (2v2, 466): every player on exactly one team."""
    if raw is None:
        return {}
    if not isinstance(raw, list) or len(raw) < 2 or not all(isinstance(t, list) and t for t in raw):
        raise ScenarioError(
            ("teams",), "expected a list of teams, each a list of players: teams: [[Ana, Cid], [Ben, Dee]]"
        )
    out: dict[str, int] = {}
    for i, team in enumerate(raw):
        for j, name in enumerate(team):
            player = _player(name, players, ("teams", i, j))
            if player in out:
                raise ScenarioError(("teams", i, j), f"{player} is on two teams")
            out[player] = i
    missing = [p for p in players if p not in out]
    if missing:
        raise ScenarioError(("teams",), f"every player is on a team: {', '.join(missing)} is on none")
    return out


def _check_places(s: State, cards_raw: Mapping, state: Mapping) -> None:
    """A place an effect names (``move a unit to Grove``) must be a battlefield of the scenario (or base)."""
    seen: set[int] = set()
    for c in s.cards.values():
        if id(c.defn) in seen:
            continue
        seen.add(id(c.defn))
        for place, text in _places_named(
            c.defn.effect, tuple(t.effect for t in c.defn.triggers), tuple(a.effect for a in c.defn.abilities)
        ):
            if place.lower() not in s.battlefields:
                name = base_name(c.name)
                path = ("cards", name, "effect") if name in cards_raw else ("state",)
                raise ScenarioError(
                    path,
                    f'{c.name}: "{text}" names "{place}", which is not a battlefield here'
                    f"{suggest(place, [b.name for b in s.battlefields.values()])}",
                )


@functools.cache
def _places_named(effect: str, triggers: tuple[str, ...], abilities: tuple[str, ...]) -> tuple[tuple[str, str], ...]:
    """The battlefields a card's effects name (``move a unit to Grove``), with the instruction's text."""
    out = []
    for text in (effect, *triggers, *abilities):
        for ins in effects._walk(effects.parse(text or "")):
            place = ins.place if ins.verb in ("move", "token") else None
            if place and place not in ("base", "here", "there"):
                out.append((place, ins.text))
    return tuple(out)


def _battlefield_def(text: Any, path: tuple) -> CardDef:
    """A battlefield's abilities (166.8, 166.9): passive statements and triggered abilities, in card words."""
    passives, triggers = [], []
    try:
        for ab in effects.abilities(str(text)):
            if ab.kind == "passive":
                passives.append(ab.data)
            elif ab.kind == "triggered":
                assert ab.trigger is not None
                triggers.append(Trigger(ab.trigger, _effect(ab.effect, path, self_ok=True)))
            else:
                raise ScenarioError(
                    path,
                    f'a battlefield\'s ability is a passive or triggered ability; "{ab.text}" is neither as read here',
                )
    except ValueError as exc:
        raise ScenarioError(path, _unreadable(exc)) from None
    return CardDef("battlefield", triggers=tuple(triggers), passives=tuple(passives))


def _runes(value: Any, path: tuple) -> list[Rune]:
    """``3`` (three ready runes), or ``{ready: 2, exhausted: [Fury]}``: counts, or lists of their domains."""
    if _is_count(value):
        return [Rune() for _ in range(whole_number(value, path, 0, 12, "a count of runes"))]
    if not isinstance(value, Mapping):
        raise ScenarioError(path, f"expected a count of ready runes or {{ready: N, exhausted: N}}, got {value!r}")
    _check_keys(value, ("ready", "exhausted"), path)
    out: list[Rune] = []
    for state in ("ready", "exhausted"):
        raw = value.get(state)
        if raw is None:
            continue
        if _is_count(raw):
            out.extend(
                Rune(None, state == "exhausted")
                for _ in range(whole_number(raw, (*path, state), 0, 12, "a count of runes"))
            )
            continue
        for i, d in enumerate(items(raw, (*path, state), "the runes' domains")):
            try:
                out.append(Rune(effects.domain(d), state == "exhausted"))
            except ValueError as exc:
                raise ScenarioError((*path, state, i), str(exc)) from None
    if len(out) > 12:
        raise ScenarioError(path, f"a player has at most 12 runes (103.3.a), not {len(out)}")
    return out


_UNDEFINED = CardDef("undefined")


def _is_count(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _count(value: int, path: tuple) -> int:
    return whole_number(value, path, 0, MAX_COUNT, "a count of unnamed cards")


def _names(value: Any, path: tuple, counts: bool) -> list:
    """The card names of a hand, deck or trash: a list (one name alone stands for a list of it)."""
    if value is None or isinstance(value, (str, list)):
        return items(value, path, "card names", one=isinstance(value, str))
    either = f"a count of unnamed cards from 0 to {MAX_COUNT} or " if counts else ""
    raise ScenarioError(
        path,
        f"expected {either}a list of card names, got "
        f"{'a mapping' if isinstance(value, Mapping) else repr(value).lower()}",
    )


def _per_player(value: Any, players: list[str], path: tuple, what: str = "value") -> Iterator[tuple[str, Any]]:
    if value is None:
        return
    if not isinstance(value, Mapping):
        raise ScenarioError(path, f"expected a mapping of player -> {what}, e.g. {{{players[0]}: ...}}")
    for name, v in value.items():
        yield _player(name, players, (*path, name)), v
