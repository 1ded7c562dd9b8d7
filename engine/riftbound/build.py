"""Building a game's state from a scenario dict, checking the Riftbound parts of it.

Every mistake is a :class:`ScenarioError` naming the key path, with a suggestion where one is close.

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

from collections.abc import Iterator, Mapping
from typing import Any

from engine.core import ScenarioError, flag, items, mapping, suggest, whole_number
from engine.core import name as name_of
from engine.riftbound import effects
from engine.riftbound.state import KEYWORDS, PHASES, TRIGGERS, Ability, Battlefield, Card, CardDef, Replacement, State

TOP_KEYS = ("game", "book", "title", "description", "notes", "players", "turn", "victory_score", "state",
            "cards", "actions", "expect")
STATE_KEYS = ("points", "battlefields", "units", "gear", "hand", "deck", "trash", "scored_this_turn", "runes", "hidden")
UNIT_KEYS = ("name", "controller", "owner", "at", "might", "exhausted", "damage", "keywords", "ability", "effect",
             "triggers", "buffed", "stunned", "type", "replacement")
CARD_KEYS = ("type", "keywords", "might", "effect", "ability", "triggers", "cost", "replacement")
REPLACEMENT_KEYS = ("when", "instead", "once")
ABILITY_KEYS = ("cost", "effect", "keywords")
CARD_TYPES = ("unit", "spell", "gear")

# Limits on the numbers a scenario gives (docs/scenarios.md): far above any real game, low enough that
# a typo (a billion cards) fails in one line.
MAX_COUNT = 500  # unnamed cards in a hand or deck, runes
MAX_MIGHT = 999  # a unit's Might, damage marked on it
MAX_POINTS = 999  # points, the victory score


def _check_keys(data: Any, allowed: tuple[str, ...], path: tuple) -> Mapping:
    if not isinstance(data, Mapping):
        raise ScenarioError(path, f"expected a mapping with keys {', '.join(allowed)}, got "
                                  f"{'a list' if isinstance(data, list) else repr(data)}")
    for key in data:
        if key not in allowed:
            raise ScenarioError((*path, key), f'unknown key "{key}"{suggest(str(key), allowed)}')
    return data


def _player(name: Any, players: list[str], path: tuple) -> str:
    for p in players:
        if str(name).lower() == p.lower():
            return p
    raise ScenarioError(path, f'no player named "{name}"{suggest(str(name), players)}')


def _keywords(raw: Any, path: tuple) -> frozenset[str]:
    out = set()
    for i, word in enumerate(items(raw, path, f"keywords ({', '.join(KEYWORDS)})")):
        for known in KEYWORDS:
            if str(word).lower() == known.lower():
                out.add(known)
                break
        else:
            raise ScenarioError((*path, i), f'unknown keyword "{word}"{suggest(str(word), KEYWORDS)}')
    return frozenset(out)


def _effect(text: Any, path: tuple, *, self_ok: bool, that_ok: bool = False) -> str:
    text = "" if text is None else str(text)
    try:
        instructions = effects.parse(text)
    except ValueError as exc:
        part = str(exc).split('"')[1] if '"' in str(exc) else text
        raise ScenarioError(path, f"{exc}{suggest(part, effects.VOCABULARY)}; known: {'; '.join(effects.VOCABULARY)}") from None
    if any(i.amount > MAX_MIGHT for i in instructions):
        raise ScenarioError(path, f"a number in an effect is at most {MAX_MIGHT}: {text!r}")
    if not self_ok and any(i.target and i.target.kind == "me" for i in instructions):
        raise ScenarioError(path, '"me" names the object an ability belongs to; a spell has none')
    if not that_ok and any(i.target and i.target.kind == "that" for i in instructions):
        raise ScenarioError(path, '"that unit" names the unit a replacement effect\'s event would act on; '
                                  'it is written only in a replacement\'s "instead"')
    if that_ok and any(i.chooses for i in instructions):
        raise ScenarioError(path, 'a replacement effect chooses no targets (352.10.c): write "me", "that unit", '
                                  'or an instruction without a target')
    return text


def _replacement(raw: Any, path: tuple) -> Replacement | None:
    """``replacement: {when: "a friendly unit would die", instead: "kill me. recall that unit exhausted", once: true}``."""
    if raw is None:
        return None
    _check_keys(raw, REPLACEMENT_KEYS, path)
    when = str(raw.get("when") or "")
    try:
        who, event = effects.parse_when(when)
    except ValueError as exc:
        raise ScenarioError((*path, "when"), f"{exc}{suggest(when, effects.WHEN_VOCABULARY)}; known: "
                                              f"{'; '.join(effects.WHEN_VOCABULARY)}") from None
    instead = _effect(raw.get("instead"), (*path, "instead"), self_ok=True, that_ok=True)
    once = raw.get("once", False)
    if not isinstance(once, bool):
        raise ScenarioError((*path, "once"), f"once must be true or false, not {once!r}")
    return Replacement(when, who, event, instead, once)


def _ability(raw: Any, path: tuple) -> Ability | None:
    if raw is None:
        return None
    if isinstance(raw, str):
        raw = {"effect": raw}
    _check_keys(raw, ABILITY_KEYS, path)
    return Ability(_effect(raw.get("effect"), (*path, "effect"), self_ok=True), str(raw.get("cost", "") or ""),
                   _keywords(raw.get("keywords"), (*path, "keywords")))


def _triggers(raw: Any, path: tuple) -> tuple[tuple[str, str], ...]:
    if raw is None:
        return ()
    if not isinstance(raw, Mapping):
        raise ScenarioError(path, "expected a mapping of when -> effect (play, attack, defend, conquer, hold, deathknell)")
    out = []
    for when, text in raw.items():
        if str(when).lower() not in TRIGGERS:
            raise ScenarioError((*path, when), f'unknown trigger "{when}"{suggest(str(when), TRIGGERS)}')
        out.append((str(when).lower(), _effect(text, (*path, when), self_ok=True)))
    return tuple(out)


def card_def(raw: Mapping, path: tuple, default_type: str | None = None) -> CardDef:
    kind = str(raw.get("type", default_type or "")).lower()
    if kind not in CARD_TYPES:
        raise ScenarioError((*path, "type"), f'unknown card type "{raw.get("type")}"{suggest(kind, CARD_TYPES)}; '
                                             f"riftbound card types: {', '.join(CARD_TYPES)}")
    keywords = _keywords(raw.get("keywords"), (*path, "keywords"))
    effect = _effect(raw.get("effect"), (*path, "effect"), self_ok=kind != "spell")
    triggers = _triggers(raw.get("triggers"), (*path, "triggers"))
    if kind != "spell" and effect:
        # A permanent's ``effect`` is its Deathknell effect when it has Deathknell, else its play effect.
        when = "deathknell" if "Deathknell" in keywords else "play"
        if when not in dict(triggers):
            triggers = ((when, effect), *triggers)
    might = raw.get("might")
    might = 0 if might is None else whole_number(might, (*path, "might"), 0, MAX_MIGHT)
    replacement = _replacement(raw.get("replacement"), (*path, "replacement"))
    if replacement is not None and kind == "spell":
        raise ScenarioError((*path, "replacement"), "a spell has no replacement effect here: give it to a unit or gear "
                                                    "(a passive ability of an object on the board, 365.1)")
    return CardDef(kind, keywords, might, effect if kind == "spell" else "", _ability(raw.get("ability"), (*path, "ability")),
                   triggers, replacement)


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
        raise ScenarioError(("turn", "phase"), f'unknown riftbound phase "{turn.get("phase")}"{suggest(phase, PHASES)}; '
                                               f"phases: {', '.join(PHASES)}")
    victory = scenario.get("victory_score")
    victory = 8 if victory is None else whole_number(victory, ("victory_score",), 1, MAX_POINTS)

    s = State(players=players, turn_player=turn_player, phase=phase, victory_score=victory)
    s.points = {p: 0 for p in players}
    s.deck = {p: [] for p in players}
    s.hand_unnamed = {p: 0 for p in players}
    s.runes = {p: None for p in players}
    s.scored = {p: set() for p in players}

    cards_raw = scenario.get("cards") or {}
    if not isinstance(cards_raw, Mapping):
        raise ScenarioError(("cards",), "expected a mapping of card name -> {type, keywords, might, effect, ability}")
    defs: dict[str, CardDef] = {}
    raws: dict[str, Mapping] = {}
    for name, raw in cards_raw.items():
        path: tuple = ("cards", name)
        _check_keys(raw or {}, CARD_KEYS, path)
        defs[str(name).lower()] = card_def(raw or {}, path)
        raws[str(name).lower()] = raw or {}

    state = _check_keys(scenario.get("state") or {}, STATE_KEYS, ("state",))
    names = _Names()

    for player, value in _per_player(state.get("points"), players, ("state", "points"), "points"):
        s.points[player] = whole_number(value, ("state", "points", player), 0, MAX_POINTS)

    for i, raw in enumerate(items(state.get("battlefields"), ("state", "battlefields"),
                                  "battlefields ({name, controller})", one=False)):
        path = ("state", "battlefields", i)
        if isinstance(raw, str):
            raw = {"name": raw}
        _check_keys(raw, ("name", "controller", "hidden"), path)
        name = names.add(raw.get("name"), (*path, "name"), "a battlefield name")
        if name.lower() == "base":
            raise ScenarioError((*path, "name"), '"base" is every player\'s own base, not a battlefield')
        ctrl = raw.get("controller")
        ctrl = None if ctrl in (None, "none", "None") else _player(ctrl, players, (*path, "controller"))
        s.battlefields[name.lower()] = Battlefield(name, ctrl)

    def place_of(value: Any, path: tuple) -> tuple[str, str | None]:
        text = str(value or "base")
        if text.lower() == "base":
            return "base", None
        if text.lower() in s.battlefields:
            return "battlefield", s.battlefields[text.lower()].name
        raise ScenarioError(path, f'no battlefield named "{text}"{suggest(text, [b.name for b in s.battlefields.values()] + ["base"])}')

    for group, kind in (("units", "unit"), ("gear", "gear")):
        for i, raw in enumerate(items(state.get(group), ("state", group), f"{group} ({{name, controller, at}})",
                                      one=False)):
            path = ("state", group, i)
            _check_keys(raw, UNIT_KEYS, path)
            name = names.add(raw.get("name"), (*path, "name"))
            if "controller" not in raw:
                raise ScenarioError(path, f'{name}: say who controls it: controller: {players[0]}')
            ctrl = _player(raw["controller"], players, (*path, "controller"))
            owner = _player(raw.get("owner", ctrl), players, (*path, "owner"))
            zone, at = place_of(raw.get("at"), (*path, "at"))
            # A definition under ``cards:`` gives the defaults; what the state says of this object wins.
            known = raws.get(base_name(name).lower(), {})
            merged = {**known, **{k: v for k, v in raw.items() if k in CARD_KEYS}}
            merged["type"] = merged.get("type", kind)
            defn = card_def(merged, path)
            damage = raw.get("damage")
            damage = 0 if damage is None else whole_number(damage, (*path, "damage"), 0, MAX_MIGHT)
            s.cards[name.lower()] = Card(name, owner, defn, zone=zone, at=at, controller=ctrl,
                                         exhausted=flag(raw.get("exhausted"), (*path, "exhausted")), damage=damage,
                                         buffed=flag(raw.get("buffed"), (*path, "buffed")),
                                         stunned=flag(raw.get("stunned"), (*path, "stunned")))

    for zone in ("hand", "trash"):
        for player, value in _per_player(state.get(zone), players, ("state", zone),
                                          "card names" + (" or a count" if zone == "hand" else "")):
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

    for player, value in _per_player(state.get("runes"), players, ("state", "runes"), "runes"):
        # ``runes: {Ana: null}``: not counted, as when runes are not given
        s.runes[player] = None if value is None else whole_number(value, ("state", "runes", player), 0, MAX_COUNT)

    for player, value in _per_player(state.get("scored_this_turn"), players, ("state", "scored_this_turn"),
                                     "battlefield names"):
        for i, name in enumerate(items(value, ("state", "scored_this_turn", player), "battlefield names")):
            if str(name).lower() not in s.battlefields:
                raise ScenarioError(("state", "scored_this_turn", player, i),
                                    f'no battlefield named "{name}"{suggest(str(name), [b.name for b in s.battlefields.values()])}')
            s.scored[player].add(str(name).lower())

    hidden = mapping(state.get("hidden"), ("state", "hidden"), "battlefield -> the card hidden there")
    for bf_name, card_name in hidden.items():
        path = ("state", "hidden", bf_name)
        if str(bf_name).lower() not in s.battlefields:
            raise ScenarioError(path, f'no battlefield named "{bf_name}"{suggest(str(bf_name), [b.name for b in s.battlefields.values()])}')
        bf = s.battlefields[str(bf_name).lower()]
        if bf.controller is None:
            raise ScenarioError(path, f"{bf.name} has no controller: a card is hidden only at a battlefield its owner controls (408.1)")
        name = names.add(card_name, path)
        card = Card(name, bf.controller, defs.get(base_name(name).lower(), _UNDEFINED), zone="facedown", at=bf.name,
                    controller=bf.controller, hidden_turn=0)
        if not card.defn.has("Hidden") and card.defn is not _UNDEFINED:
            raise ScenarioError(path, f"{name} has no Hidden keyword")
        s.cards[name.lower()] = card
        bf.facedown = name.lower()

    for bf in s.battlefields.values():
        if bf.controller and bf.controller not in s.players_at(bf.name):
            raise ScenarioError(("state", "battlefields", list(s.battlefields).index(bf.key), "controller"),
                                f"{bf.name} is controlled by {bf.controller} but none of {bf.controller}'s units is there; "
                                "a battlefield without its controller's units is uncontrolled (184.4.c)")
    return s


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
    raise ScenarioError(path, f"expected {either}a list of card names, got "
                              f"{'a mapping' if isinstance(value, Mapping) else repr(value).lower()}")


def _per_player(value: Any, players: list[str], path: tuple, what: str = "value") -> Iterator[tuple[str, Any]]:
    if value is None:
        return
    if not isinstance(value, Mapping):
        raise ScenarioError(path, f"expected a mapping of player -> {what}, e.g. {{{players[0]}: ...}}")
    for name, v in value.items():
        yield _player(name, players, (*path, name)), v
