"""Reading the mtg parts of a scenario (a plain dict) into a game's :class:`State`, with errors that name
the key path.

>>> try:
...     build({"players": ["Ana", "Ben"], "turn": {"player": "Ana", "phase": "mian1"}}, "2026-02-27", frozenset())
... except ScenarioError as exc:
...     exc.path, exc.message
(('turn', 'phase'), 'unknown phase "mian1" (did you mean "main1"?)')
"""

from __future__ import annotations

from typing import Any

from engine.core import ScenarioError, flag, mapping, suggest, whole_number
from engine.core import name as name_of
from engine.mtg.effects import (
    Abilities,
    EffectError,
    KeywordError,
    ReplacementDef,
    Static,
    X,
    additional_cost,
    amount,
    check_edition,
    colours_of_cost,
    entry,
    own_name,
    parse_abilities,
    parse_effect,
    parse_modes,
    read_colours,
    read_keyword,
    spell_properties,
    target_kinds,
    uses_x,
)
from engine.mtg.state import (
    BASIC_LANDS,
    CARD_TYPES,
    NOT_MODELLED_TYPES,
    ORDER,
    PHASES,
    SUBTYPES_WITH_RULES,
    SUPERTYPES,
    AbilityDef,
    Card,
    CardDef,
    Permanent,
    State,
    TriggerDef,
    base_name,
    parse_cost,
)

# Top-level keys the mtg engine reads (the loader owns game, book, title, actions, expect).
SCENARIO_KEYS = ("players", "turn", "state", "cards", "costs", "edition")
STATE_KEYS = ("life", "permanents", "hand", "library", "graveyard", "exile", "lands_played", "trigger_order", "poison")
CARD_KEYS = (
    "type",
    "cost",
    "power",
    "toughness",
    "keywords",
    "effect",
    "ability",
    "triggers",
    "mana",
    "color",
    "colour",
    "loyalty",
    "modes",
)
PERMANENT_KEYS = (
    "name",
    "controller",
    "owner",
    "tapped",
    "sick",
    "damage",
    "attacking",
    "blocking",
    "counters",
    "token",
    "attached_to",
) + CARD_KEYS
TURN_KEYS = ("player", "phase", "number")
TRIGGER_KEYS = ("when", "effect", "name", "targeting")
ABILITY_KEYS = ("cost", "effect", "keywords")
WHEN = ("enters", "attacks", "blocks", "dies")

# Limits on the numbers a scenario gives (docs/engine-mtg.md): far above any real game, low enough that
# a typo (a library of a billion cards) fails in one line.
MAX_COUNT = 500  # unnamed cards in a library
MAX_STAT = 999  # power, toughness (at least -MAX_STAT), damage marked, N in an effect
LIFE = (-999, 9999)
MAX_TURN = 999
MAX_LANDS_PLAYED = 99
MAX_POISON = 99


def _fail(path: tuple, message: str) -> ScenarioError:
    return ScenarioError(tuple(path), message)


def _keys(data: Any, allowed: tuple[str, ...], path: tuple) -> dict:
    if data is None:
        return {}
    if not isinstance(data, dict):
        raise _fail(path, f"expected a mapping with keys {', '.join(allowed)}")
    for key in data:
        if str(key) not in allowed:
            raise _fail(
                path + (key,), f'unknown key "{key}"{suggest(str(key), list(allowed))}; known: {", ".join(allowed)}'
            )
    return data


def _int(value: Any, path: tuple, low: int, high: int) -> int:
    return whole_number(value, path, low, high)


def _list(value: Any, path: tuple) -> list:
    if value is None:
        return []
    if isinstance(value, str):
        return [value]
    if not isinstance(value, list):
        raise _fail(path, f"expected a list, got {'a mapping' if isinstance(value, dict) else repr(value)}")
    return value


class Builder:
    def __init__(self, data: dict, edition: str, rules: frozenset[str]):
        self.data = data
        self.s = State(edition, rules)
        self.seen: dict[str, int] = {}
        self.die_replacements: list[tuple[tuple, str, str]] = []  # (path, card, whom it applies to)

    def player(self, name: Any, path: tuple) -> str:
        for p in self.s.players:
            if str(name).lower() == p.lower():
                return p
        raise _fail(path, f'no player named "{name}"{suggest(str(name), self.s.players)}')

    def unique(self, name: str) -> str:
        """Duplicates get ``#2``, ``#3`` in the order they appear (unless written so already)."""
        key = name.lower()
        self.seen[key] = self.seen.get(key, 0) + 1
        if self.seen[key] > 1 and "#" not in name:
            return f"{name}#{self.seen[key]}"
        return name

    # -- definitions ---------------------------------------------------------------------------
    def types(self, value: Any, path: tuple) -> tuple[frozenset[str], frozenset[str], frozenset[str]]:
        """Card types, supertypes and subtypes: ``legendary creature — elf warrior``, ``enchantment aura``."""
        text = str(value or "").lower().replace("\u2014", " - ").replace("--", " - ")
        main, _, sub = text.partition(" - ")
        words = main.replace("-", " ").split()
        if not words:
            raise _fail(path, f"a type is required ({', '.join(CARD_TYPES)})")
        types, supers, subs = set(), set(), set(sub.split())
        for word in words + sorted(subs):
            if word in NOT_MODELLED_TYPES:
                raise _fail(
                    path,
                    f'type "{word}" is not modelled (the engine models {", ".join(CARD_TYPES)}, '
                    f"and the subtypes {', '.join(SUBTYPES_WITH_RULES)})",
                )
        for word in words:
            if word in CARD_TYPES:
                types.add(word)
            elif word in SUPERTYPES:
                supers.add(word)
            elif word in SUBTYPES_WITH_RULES:
                subs.add(word)
            else:
                raise _fail(
                    path,
                    f'unknown type "{word}"{suggest(word, list(CARD_TYPES + SUPERTYPES))} (subtypes '
                    f"go after a dash: creature — elf)",
                )
        if not types:
            raise _fail(path, f"no card type in {value!r} ({', '.join(CARD_TYPES)})")
        return frozenset(types), frozenset(supers), frozenset(subs)

    def keyword_list(self, words: Any, path: tuple) -> list[str]:
        """Keywords in their normal form, each allowed under the scenario's edition."""
        out = []
        for kw in words:
            why = check_edition(kw, self.s.edition, self.s.rules, self.s.consulted)
            if why:
                raise _fail(path, why)
            out.append(kw)
        return out

    def keywords(self, value: Any, path: tuple) -> frozenset[str]:
        out: list[str] = []
        for i, word in enumerate(_list(value, path)):
            try:
                out += self.keyword_list(read_keyword(name_of(word, path + (i,), "a keyword")), path + (i,))
            except KeywordError as exc:
                raise _fail(path + (i,), str(exc)) from None
        return frozenset(out)

    def effect(self, value: Any, path: tuple, name: str = "", mana_ability: bool = False) -> str:
        """An instant's, sorcery's or ability's effect (the card's name may stand for itself, as ``~``)."""
        if value is not None and not isinstance(value, str):
            raise _fail(path, f"expected effect text, got {'a mapping' if isinstance(value, dict) else repr(value)}")
        text = own_name("" if value is None else str(value), name)
        try:
            instructions = parse_effect(text)
        except EffectError as exc:
            raise _fail(path, str(exc)) from None
        self.check_instructions(instructions, text, path)
        if not mana_ability and any(i.verb == "add" and i.extra for i in instructions):
            raise _fail(path, f"a choice of the colour of mana is modelled in a mana ability only: {text!r}")
        if mana_ability and any(i.verb != "add" for i in instructions):
            # A mana ability resolves at once (605.3b) and the engine carries out only its mana: refused
            # rather than doing part of it ("{T}: Add {C}. You gain 1 life." would gain no life).
            raise _fail(path, f"a mana ability that also does something else is not modelled: {text!r}")
        return text

    def mode(self, value: Any, path: tuple, name: str) -> str:
        """A mode as written (the name of the card kept, for the judge to name it by); checked as an effect."""
        text = name_of(value, path, "a mode's effect text").rstrip(".")
        self.effect(text, path, name)
        return text

    def check_instructions(self, instructions: tuple, text: str, path: tuple) -> None:
        for i in instructions:
            numbers = [i.amount, i.amount2] + [n for n in i.extra[:2] if isinstance(n, int)]
            if any(abs(n) > MAX_STAT for n in numbers if abs(n) != X):
                raise _fail(path, f"a number in an effect is at most {MAX_STAT}: {text!r}")
            if i.verb in ("grant", "token", "boost"):
                self.keyword_list(i.extra if i.verb != "token" else i.extra[4], path)

    def abilities(self, value: Any, path: tuple, name: str) -> Abilities:
        text = own_name("" if value is None else str(value), name)
        try:
            read = parse_abilities(text)
            for trig in read.triggers:
                self.check_instructions(parse_effect(trig.effect), trig.effect, path)
                if uses_x(trig.effect):
                    raise _fail(path, f"X in a triggered ability is not modelled: {trig.effect!r}")
            self.keyword_list(read.keywords, path)
            for st in read.statics:
                self.keyword_list(st.keywords, path)
        except (EffectError, KeywordError) as exc:
            raise _fail(path, str(exc)) from None
        return read

    def cost(self, value: Any, path: tuple) -> tuple[tuple[str, int], ...]:
        try:
            return parse_cost(value)
        except ValueError as exc:
            raise _fail(path, f"{exc}: write mana as {{1}}{{R}} or 1R, the tap symbol as {{T}}") from None

    def ability(self, value: Any, path: tuple, name: str = "") -> AbilityDef | None:
        if value is None:
            return None
        data = _keys(value, ABILITY_KEYS, path)
        cost = self.cost(data.get("cost"), path + ("cost",))
        said = str(data.get("effect") or "").strip().lower()
        effect = self.effect(data.get("effect"), path + ("effect",), name, mana_ability=said.startswith("add "))
        if dict(cost).get("X") or uses_x(effect):
            raise _fail(
                path, "X in an activated ability is not modelled (X is announced for spells: 'P casts CARD with X=N')"
            )
        return AbilityDef(
            cost, effect, frozenset(str(k).lower() for k in _list(data.get("keywords"), path + ("keywords",)))
        )

    def triggers(self, value: Any, path: tuple, name: str = "") -> tuple[TriggerDef, ...]:
        out = []
        for i, item in enumerate(_list(value, path)):
            data = _keys(item, TRIGGER_KEYS, path + (i,))
            when = " ".join(str(data.get("when", "")).lower().split())
            phase = when[5:] if when.startswith("each ") else when
            if phase not in PHASES and when not in WHEN:
                choices = list(PHASES) + [f"each {p}" for p in PHASES] + list(WHEN)
                raise _fail(
                    path + (i, "when"),
                    f'unknown trigger event "{when}"{suggest(when, choices)}; '
                    f"use a phase name, 'each PHASE', enters, attacks, blocks or dies",
                )
            effect = self.effect(data.get("effect"), path + (i, "effect"), name)
            if uses_x(effect):
                raise _fail(path + (i, "effect"), "X in a triggered ability is not modelled")
            targets = tuple(str(t) for t in _list(data.get("targeting"), path + (i, "targeting")))
            if len(targets) != len(target_kinds(effect)):
                raise _fail(
                    path + (i, "targeting"),
                    f"the effect has {len(target_kinds(effect))} target(s): name them with targeting:",
                )
            out.append(TriggerDef(when, effect, str(data.get("name") or ""), targets))
        return tuple(out)

    def definition(self, name: str, data: dict, path: tuple) -> CardDef:
        types, supers, subs = self.types(data.get("type"), path + ("type",))
        power = data.get("power")
        toughness = data.get("toughness")
        if "creature" in types:
            if power is None or toughness is None:
                raise _fail(path, f"creature {name} needs power and toughness")
            power = _int(power, path + ("power",), -MAX_STAT, MAX_STAT)
            toughness = _int(toughness, path + ("toughness",), -MAX_STAT, MAX_STAT)
        mana = str(data.get("mana") or "").upper()
        if mana and (len(mana) != 1 or mana not in "WUBRGC"):
            raise _fail(path + ("mana",), "a land's mana is one of W U B R G C")
        cost = self.cost(data.get("cost"), path + ("cost",))
        keywords = set(self.keywords(data.get("keywords"), path + ("keywords",)))
        ability = self.ability(data.get("ability"), path + ("ability",), name)
        triggers = list(self.triggers(data.get("triggers"), path + ("triggers",), name))
        colour_key = "color" if "color" in data else "colour"
        if data.get(colour_key) is not None:
            try:
                colours = read_colours(name_of(data[colour_key], path + (colour_key,), "a colour"))
            except ValueError as exc:
                raise _fail(path + (colour_key,), str(exc)) from None
        else:
            colours = colours_of_cost(cost)
        loyalty = None
        if data.get("loyalty") is not None:
            if "planeswalker" not in types:
                raise _fail(path + ("loyalty",), "only a planeswalker has loyalty")
            loyalty = _int(data["loyalty"], path + ("loyalty",), 0, MAX_STAT)
        effect, prevent_all, uncounterable, sacrifice = "", False, False, ""
        modes: tuple[str, ...] = ()
        statics: tuple[Static, ...] = ()
        replacements: tuple[ReplacementDef, ...] = ()
        permanent = bool(types & {"land", "creature", "artifact", "enchantment", "planeswalker"})
        if data.get("modes") is not None:
            modes = tuple(
                self.mode(m, path + ("modes", i), name) for i, m in enumerate(_list(data["modes"], path + ("modes",)))
            )
            if permanent or len(modes) < 2:
                raise _fail(path + ("modes",), "modes: two or more effects of an instant or sorcery (choose one)")
        elif permanent:
            read = self.abilities(data.get("effect"), path + ("effect",), name)
            keywords |= set(read.keywords)
            triggers += [TriggerDef(trig.when, trig.effect, words=True) for trig in read.triggers]
            statics, replacements, prevent_all = read.statics, read.replacements, read.prevent_all
            uncounterable = read.uncounterable
        else:
            text = "" if not isinstance(data.get("effect"), str) else data["effect"]
            rest, uncounterable = spell_properties(own_name(text, name))
            text = rest if uncounterable else text
            rest, sacrifice = additional_cost(text)
            text = rest if sacrifice else text
            try:
                modes = parse_modes(text)
            except EffectError as exc:
                raise _fail(path + ("effect",), str(exc)) from None
            if modes:
                modes = tuple(self.mode(m, path + ("effect",), name) for m in modes)
            else:
                changed = uncounterable or sacrifice
                effect = self.effect(text if changed else data.get("effect"), path + ("effect",), name)
        if any(entry(k).colourless for k in keywords):
            colours = frozenset()  # devoid: a characteristic-defining ability (702.114a)
        equip = amount(frozenset(keywords), "equip")
        if equip is not None:
            if "artifact" not in types:
                raise _fail(path + ("keywords",), f"equip is an ability of Equipment, and {name} is not an artifact")
            if ability is not None:
                raise _fail(path + ("ability",), "an Equipment with another activated ability is not modelled")
            ability = AbilityDef(
                (("*", equip),) if equip else (), "attach ~ to target creature you control", equip=True
            )
            subs |= {"equipment"}
        if any(k.startswith("enchant ") for k in keywords):
            if "enchantment" not in types:
                raise _fail(path + ("keywords",), f"enchant is an ability of Auras, and {name} is not an enchantment")
            subs |= {"aura"}
        elif "aura" in subs:
            raise _fail(path + ("keywords",), f"the Aura {name} needs its enchant keyword (Enchant creature)")
        for r in replacements:
            if r.event == "die" and base_name(name).lower() not in [n for _, n, _ in self.die_replacements]:
                self.die_replacements.append((path, base_name(name).lower(), r.who))
        return CardDef(
            name,
            types,
            supers,
            cost,
            power,
            toughness,
            frozenset(keywords),
            effect,
            ability,
            tuple(triggers),
            mana,
            frozenset(subs),
            colours,
            statics,
            replacements,
            prevent_all,
            modes,
            loyalty,
            uncounterable,
            sacrifice,
        )

    # -- the scenario ---------------------------------------------------------------------------
    def build(self) -> State:
        s, data = self.s, self.data
        players = data.get("players")
        if (
            not isinstance(players, list)
            or len(players) != 2
            or not all(isinstance(p, str) and p.split() == [p] for p in players)
        ):
            raise _fail(
                ("players",),
                "the mtg engine models two-player games (multiplayer is not modelled): "
                "players: [Ana, Ben] (single words)",
            )
        s.players = list(players)
        turn = _keys(data.get("turn"), TURN_KEYS, ("turn",))
        s.turn_player = self.player(turn.get("player", players[0]), ("turn", "player"))
        phase = str(turn.get("phase", "main1")).lower()
        if phase not in ORDER:
            raise _fail(("turn", "phase"), f'unknown phase "{phase}"{suggest(phase, list(ORDER))}')
        s.turn_number = _int(turn.get("number", 2), ("turn", "number"), 1, MAX_TURN)
        costs = data.get("costs")
        if costs not in (None, "ignore", "pay"):
            raise _fail(("costs",), "costs: ignore (every cost is free) is the only setting")
        s.costs_ignore = costs == "ignore"
        cards = mapping(data.get("cards"), ("cards",), "card name -> {type, cost, power, toughness, effect}")
        for name, spec in cards.items():
            s.cards[base_name(str(name)).lower()] = self.definition(
                str(name), _keys(spec, CARD_KEYS, ("cards", name)), ("cards", name)
            )
        for land, colour in BASIC_LANDS.items():
            s.cards.setdefault(land, CardDef(land.title(), frozenset({"land"}), frozenset({"basic"}), mana=colour))
        state = _keys(data.get("state"), STATE_KEYS, ("state",))
        s.life = {p: 20 for p in s.players}
        for p, life in _keys(state.get("life"), tuple(s.players), ("state", "life")).items():
            s.life[self.player(p, ("state", "life", p))] = _int(life, ("state", "life", p), *LIFE)
        for p in s.players:
            s.hand[p], s.library[p], s.graveyard[p], s.exile[p], s.pool[p] = [], [], [], [], {}
            s.lands_played[p] = 0
        for p, n in _keys(state.get("poison"), tuple(s.players), ("state", "poison")).items():
            s.poison[self.player(p, ("state", "poison", p))] = _int(n, ("state", "poison", p), 0, MAX_POISON)
        self.permanents(_list(state.get("permanents"), ("state", "permanents")))
        self.zone(state.get("hand"), ("state", "hand"), s.hand, defined=True)
        self.zone(state.get("library"), ("state", "library"), s.library, defined=True, counts=True)
        self.zone(state.get("graveyard"), ("state", "graveyard"), s.graveyard, defined=False)
        self.zone(state.get("exile"), ("state", "exile"), s.exile, defined=False)
        for p, n in _keys(state.get("lands_played"), tuple(s.players), ("state", "lands_played")).items():
            s.lands_played[self.player(p, ("state", "lands_played", p))] = _int(
                n, ("state", "lands_played", p), 0, MAX_LANDS_PLAYED
            )
        order_path = ("state", "trigger_order")
        for p, names in _keys(state.get("trigger_order"), tuple(s.players), order_path).items():
            s.trigger_order[self.player(p, order_path + (p,))] = [str(n) for n in _list(names, order_path + (p,))]
        s.paying = frozenset(
            p for p in s.players if any(perm.controller == p and perm.is_a("land") for perm in s.battlefield)
        )
        others = [r for r in self.die_replacements if r[2] != "self"]
        if len(others) >= 2 or (others and len(self.die_replacements) >= 2):
            path, _, _ = self.die_replacements[1]
            names = ", ".join(n for _, n, _ in self.die_replacements)
            raise _fail(
                path,
                f"two 'would die' replacement effects ({names}) could apply to the same creature: the "
                "choice its controller then makes (616.1) is not modelled",
            )
        s.step = phase
        return s

    def permanents(self, items: list) -> None:
        s = self.s
        for i, item in enumerate(items):
            path = ("state", "permanents", i)
            spec = _keys(item, PERMANENT_KEYS, path)
            if spec.get("name") is None:
                raise _fail(path, "a permanent needs a name")
            name = self.unique(name_of(spec["name"], path + ("name",), "a permanent's name"))
            known = s.definition(name)
            merged = {k: v for k, v in (spec.items()) if k in CARD_KEYS}
            if known is not None and "type" not in merged:
                d = known
                if merged:
                    raise _fail(path, f"{name} is defined under cards:; give its characteristics there or add type:")
            else:
                if "type" not in merged and base_name(name).lower() in BASIC_LANDS:
                    merged["type"] = "basic land"
                d = self.definition(base_name(name), merged, path)
                s.cards.setdefault(base_name(name).lower(), d)
            controller = self.player(spec.get("controller", s.turn_player), path + ("controller",))
            owner = self.player(spec.get("owner", controller), path + ("owner",))
            perm = Permanent(
                s.oid(),
                name,
                owner,
                controller,
                d,
                tapped=flag(spec.get("tapped"), path + ("tapped",)),
                sick=flag(spec.get("sick"), path + ("sick",)),
                damage=_int(spec.get("damage", 0), path + ("damage",), 0, MAX_STAT),
                attacking=flag(spec.get("attacking"), path + ("attacking",)),
                counters=self.counters(spec.get("counters"), path + ("counters",)),
                token=flag(spec.get("token"), path + ("token",)),
            )
            if d.loyalty is not None and "loyalty" not in perm.counters:
                perm.counters["loyalty"] = d.loyalty  # it entered with its printed loyalty (306.5b)
            perm.since = perm.oid
            s.battlefield.append(perm)
        for i, item in enumerate(items):
            host = item.get("attached_to") if isinstance(item, dict) else None
            if host is not None:
                at = ("state", "permanents", i, "attached_to")
                target = s.find_permanent(name_of(host, at, "the name of a permanent"))
                if target is None or target is s.battlefield[i]:
                    raise _fail(
                        at,
                        f'"{host}" is not another permanent on the battlefield'
                        f"{suggest(str(host), [p.name for p in s.battlefield])}",
                    )
                s.battlefield[i].attached_to = target.oid
        for i, item in enumerate(items):
            blocking = item.get("blocking") if isinstance(item, dict) else None
            if blocking:
                attacker = s.find_permanent(str(blocking))
                if attacker is None or not attacker.attacking:
                    raise _fail(("state", "permanents", i, "blocking"), f'"{blocking}" is not an attacking permanent')
                blocker = s.battlefield[i]
                blocker.blocking = attacker.oid
                attacker.blockers.append(blocker.oid)
                attacker.blocked = True

    def counters(self, value: Any, path: tuple) -> dict[str, int]:
        """``{"+1/+1": 2, "-1/-1": 1, loyalty: 3}``: any kind of counter, a whole number of each."""
        out = {}
        for kind, n in mapping(value, path, 'counter kind -> number ("+1/+1": 2)').items():
            label = " ".join(str(kind).lower().split())
            if not label or len(label) > 30:
                raise _fail(path + (kind,), "expected a kind of counter, such as +1/+1, -1/-1, loyalty or charge")
            number = _int(n, path + (kind,), 0, MAX_STAT)
            if number or label == "loyalty":  # a planeswalker with no loyalty counter left has loyalty 0
                out[label] = number
        return out

    def zone(self, value: Any, path: tuple, zone: dict, defined: bool, counts: bool = False) -> None:
        s = self.s
        for p, cards in _keys(value, tuple(s.players), path).items():
            owner = self.player(p, path + (p,))
            if counts and isinstance(cards, int) and not isinstance(cards, bool):
                count = whole_number(cards, path + (p,), 0, MAX_COUNT, "a count of unnamed cards")
                zone[owner] = [Card(s.oid(), "a card", owner) for _ in range(count)]
                continue
            if not (cards is None or isinstance(cards, (str, list))):
                either = f"a count of unnamed cards from 0 to {MAX_COUNT} or " if counts else ""
                raise _fail(
                    path + (p,),
                    f"expected {either}a list of card names, got "
                    f"{'a mapping' if isinstance(cards, dict) else repr(cards)}",
                )
            for j, name in enumerate(_list(cards, path + (p,))):
                name = name_of(name, path + (p, j), "a card name")
                if defined and s.definition(name) is None:
                    raise _fail(
                        path + (p, j),
                        f'no card named "{name}" under cards:'
                        f"{suggest(base_name(name), [d.name for d in s.cards.values()])}",
                    )
                zone[owner].append(Card(s.oid(), self.unique(name), owner))


def build(data: dict, edition: str, rules: frozenset[str]) -> State:
    """The state at the scenario's start under ``edition``'s rules, ``rules`` the changes in force at its
    date (the game runs what the starting step does)."""
    return Builder(data, edition, rules).build()
