"""Reading the mtg parts of a scenario (a plain dict) into a game's :class:`State`, with errors that name
the key path.

>>> try:
...     build({"players": ["Ana", "Ben"], "turn": {"player": "Ana", "phase": "mian1"}}, "2026-02-27", frozenset())
... except ScenarioError as exc:
...     exc.path, exc.message
(('turn', 'phase'), 'unknown phase "mian1" (did you mean "main1"?)')
"""

from __future__ import annotations

import re
from dataclasses import replace
from typing import Any

from engine.core import ScenarioError, flag, mapping, suggest, whole_number
from engine.core import name as name_of
from engine.mtg.chosen import (
    ANCHOR,
    COLOUR_VALUES,
    entry_choice,
    said,
    unread_choice,
    values,
    with_value,
    without_choice,
)
from engine.mtg.conditional import conditional_enters, conditional_statics
from engine.mtg.counts import characteristic_defining
from engine.mtg.effects import (
    CHOSE,
    SUPPORT,
    UP_TO,
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
    cost_of,
    effects_of,
    entry,
    overloaded,
    own_name,
    parse_abilities,
    parse_effect,
    parse_modes,
    read_colours,
    read_keyword,
    spell_properties,
    target_kinds,
    use_restriction,
    uses_x,
)
from engine.mtg.events import split_events
from engine.mtg.exert import Exerting, exert_abilities
from engine.mtg.faces import transform_triggers
from engine.mtg.levels import LEVEL_UP_EFFECT, Level, at_level, read_symbol
from engine.mtg.soulbond import paired_statics
from engine.mtg.state import (
    BASIC_LANDS,
    CARD_TYPES,
    NOT_MODELLED_TYPES,
    ORDER,
    PERMANENT_TYPES,
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

# Instructions that wait for a player's choice as they resolve (engine.mtg.stack.go_on stops for them).
ASKING = frozenset({"scry", "pick", "discard", "look", "reveal_hand", "explore", "search"})

# Top-level keys the mtg engine reads (the loader owns game, book, title, actions, expect).
SCENARIO_KEYS = ("players", "turn", "state", "cards", "costs", "edition")
STATE_KEYS = (
    "life",
    "permanents",
    "hand",
    "library",
    "graveyard",
    "exile",
    "lands_played",
    "trigger_order",
    "poison",
    "energy",
    "spells_cast",
    "city_blessing",
)
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
    "back",
    "halves",
    "levels",
)
# A transforming double-faced card's back face (712): a face of its own, with its name; no mana cost (712.8e).
BACK_KEYS = ("name",) + tuple(k for k in CARD_KEYS if k not in ("cost", "back"))
# A split card's half (709.1): an instant or sorcery of its own, with its name and mana cost.
# A leveler card's level symbol (711.2): the level counters it holds for and what it gives.
LEVEL_KEYS = ("level", "power", "toughness", "keywords", "effect", "ability")
HALF_KEYS = ("name", "type", "cost", "keywords", "effect", "modes", "color", "colour")
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
    "chosen",
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


_SACRIFICE_ITSELF = re.compile(
    r"^(.*?)(?:,\s*)?sacrifice (?:~|this (?:creature|artifact|enchantment|land|permanent))\s*$", re.I
)


def _sacrifice_itself(cost: str) -> tuple[str, bool]:
    """A cost that says "Sacrifice ~" (or "this artifact"): the rest of it, and True (the permanent is
    sacrificed as the ability is activated, 602.2b, 701.17a); else the cost, False.

    >>> _sacrifice_itself("{1}, {T}, Sacrifice ~")
    ('{1}, {T}', True)
    """
    m = _SACRIFICE_ITSELF.match(cost.strip())
    return (m[1].strip(), True) if m else (cost, False)


_SACRIFICE_ANOTHER = re.compile(r"^(.*?)(?:,\s*)?sacrifice (a|an|another) ([a-z]+(?: creature)?)\s*$", re.I)


def _sacrifice_another(cost: str) -> tuple[str, str]:
    """A cost that says "Sacrifice a creature" ("another creature", "an artifact", "a Goblin"): the rest of
    it, and the kind of permanent sacrificed (701.17a), "another ..." when it may not be the source itself.

    >>> _sacrifice_another("{1}, Sacrifice another creature"), _sacrifice_another("{T}")
    (('{1}', 'another creature'), ('{T}', ''))
    """
    m = _SACRIFICE_ANOTHER.match(cost.strip())
    if m is None:
        return cost, ""
    kind = m[3].lower()
    return m[1].strip(), f"another {kind}" if m[2].lower() == "another" else kind


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
        # "if CONDITION, EFFECT" is checked as its effect is; one whose effect waits for a player's choice as it
        # resolves (scry, discard, looking at cards, a card chosen from a hand) is not modelled
        if any(i.verb == "if" and i.extra[1].verb in ASKING for i in instructions):
            raise _fail(path, f"a choice made only if a condition holds is not modelled: {text!r}")
        instructions = tuple(i.extra[-1] if i.verb in ("if", "counted") else i for i in instructions)
        kinds = [i.target for i in instructions if i.targeted]
        if any(a.startswith(UP_TO) and not b.startswith(UP_TO) for a, b in zip(kinds, kinds[1:])):
            raise _fail(path, f"a target named after 'up to N target ...' is not modelled: {text!r}")
        for n, i in enumerate(instructions):
            if i.who == "its controller" and not any(earlier.targeted for earlier in instructions[:n]):
                raise _fail(path, f"'its controller' names the controller of a target named before it: {text!r}")
            numbers = [i.amount, i.amount2] + [n for n in i.extra[:2] if isinstance(n, int)]
            if any(abs(n) > MAX_STAT for n in numbers if abs(n) != X):
                raise _fail(path, f"a number in an effect is at most {MAX_STAT}: {text!r}")
            if i.who == "that player":  # a keyword's trigger says whom it means (ingest); a card's own text does not
                raise _fail(path, f"'that player' here is not modelled: {text!r}")
            acts = i.extra[0].verb if i.verb == "may" else "support" if i.extra[1:2] == (SUPPORT,) else i.verb
            # keyword actions since 2013, 2015, 2016; search, a rule since M10 (data/editions/mtg.yaml)
            if acts in ("bolster", "monstrosity", "investigate", "search", "support") and not self.s.follows(acts):
                raise _fail(
                    path,
                    f'the keyword action "{acts}" is not in the {self.s.edition} Comprehensive Rules: explain this '
                    "scenario under a later edition",
                )
            if (i.verb == "energy" or (i.verb == "may_pay" and "{E}" in i.mana)) and not self.s.follows("energy"):
                self.no_energy(path)
            if i.verb == "explore" and not self.s.follows("explore"):  # a keyword action since Ixalan (2017)
                raise _fail(
                    path,
                    f'the keyword action "explore" is not in the {self.s.edition} Comprehensive Rules: explain this '
                    "scenario under a later edition",
                )
            if i.verb in ("grant", "token", "boost"):
                self.keyword_list(i.extra if i.verb != "token" else i.extra[4], path)

    def no_energy(self, path: tuple) -> None:
        """Energy (107.14) came with Kaladesh (2016): refused under older rules."""
        raise _fail(
            path,
            f"energy counters and the energy symbol {{E}} are not in the {self.s.edition} Comprehensive Rules (they "
            "came with Kaladesh, 2016): explain this scenario under a later edition",
        )

    def abilities(self, value: Any, path: tuple, name: str) -> Abilities:
        text = own_name("" if value is None else str(value), name)
        try:
            read = parse_abilities(text)
            for trig in read.triggers:
                for each in effects_of(trig.effect):  # each mode of a modal one (700.2b)
                    self.check_instructions(parse_effect(each), each, path)
                    if any(i.target.startswith(UP_TO) for i in parse_effect(each)):
                        raise _fail(path, f"'up to N target' in a triggered ability is not modelled: {each!r}")
                if any(uses_x(each) for each in effects_of(trig.effect)):
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
        said_cost, itself = _sacrifice_itself(own_name(str(data.get("cost") or ""), name))
        said_cost, victim = _sacrifice_another(said_cost)
        cost = self.cost(said_cost if itself or victim else data.get("cost"), path + ("cost",))
        if dict(cost).get("E") and not self.s.follows("energy"):
            self.no_energy(path + ("cost",))
        said = str(data.get("effect") or "").strip().lower()
        written, once = use_restriction(str(data.get("effect") or ""))
        effect = self.effect(
            written if once else data.get("effect"), path + ("effect",), name, mana_ability=said.startswith("add ")
        )
        if dict(cost).get("X") or uses_x(effect):
            raise _fail(
                path, "X in an activated ability is not modelled (X is announced for spells: 'P casts CARD with X=N')"
            )
        if victim and said.startswith("add "):
            raise _fail(path, f"a mana ability that costs sacrificing {victim} is not modelled")
        if re.search(r"(?:^|[.;,] )support \w+", effect, re.I):  # "other target creatures" (701.41a)
            raise _fail(path, f"support on a permanent (other target creatures) is not modelled: {effect!r}")
        return AbilityDef(
            cost,
            effect,
            frozenset(str(k).lower() for k in _list(data.get("keywords"), path + ("keywords",))),
            once=once,
            sacrifice_self=itself,
            sacrifice=victim,
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
        if data.get("halves") is not None:
            return self.split_card(name, data, path)
        types, supers, subs = self.types(data.get("type"), path + ("type",))
        if types & set(PERMANENT_TYPES) and isinstance(data.get("effect"), str):
            rest, kind = entry_choice(own_name(data["effect"], name))
            if kind:  # "As ~ enters the battlefield, choose a color" (614.1c, 614.12a)
                return self.chosen_definition(name, data, path, rest, kind)
        power = data.get("power")
        toughness = data.get("toughness")
        # a "*" is set by a characteristic-defining ability of the text (208.2a): checked once it is read
        stars = tuple(k for k, v in (("power", power), ("toughness", toughness)) if str(v).strip() == "*")
        if "vehicle" in subs:
            self.vehicle(name, types, path)
        if "creature" in types or "vehicle" in subs:  # a Vehicle's, printed: its own once a creature (301.7a)
            if power is None or toughness is None:
                raise _fail(path, f"creature {name} needs power and toughness")
            power = 0 if "power" in stars else power
            toughness = 0 if "toughness" in stars else toughness
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
        cda: tuple = ()
        exerting = Exerting()
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
            text, cda = characteristic_defining(own_name(str(data.get("effect") or ""), name))
            text, conditional = conditional_statics(text)
            text, entering = conditional_enters(text)
            text, turning = transform_triggers(text)
            text, exerting = exert_abilities(text)
            text, split = split_events(text)  # "whenever ~ enters the battlefield or attacks": one for each event
            text, bonded = paired_statics(text)  # "as long as ~ is paired with another creature, ..." (702.95b)
            taken = bool(cda or conditional or entering or turning or exerting.triggers or exerting.may or split)
            taken = taken or bool(bonded)
            read = self.abilities(text if taken else data.get("effect"), path + ("effect",), name)
            keywords |= set(read.keywords)
            triggers += [TriggerDef(trig.when, trig.effect, words=True) for trig in read.triggers]
            for when, effect in turning:  # "whenever this creature transforms into ~" (701.27e)
                triggers.append(TriggerDef(when, self.effect(effect, path + ("effect",), name), words=True))
            triggers += self.exert_triggers(exerting, path + ("effect",), name)
            statics, replacements, prevent_all = read.statics, read.replacements, read.prevent_all
            if bonded and "soulbond" not in keywords:
                raise _fail(path + ("effect",), f"{name} says what it has while paired and has no soulbond")
            for st in bonded:
                self.keyword_list(st.keywords, path + ("effect",))
            statics += bonded
            for st in conditional:
                self.keyword_list(st.keywords, path + ("effect",))
            statics += conditional
            replacements += entering
            uncounterable = read.uncounterable
        else:
            text = "" if not isinstance(data.get("effect"), str) else data["effect"]
            rest, uncounterable = spell_properties(own_name(text, name))
            text = rest if uncounterable else text
            rest, sacrifice = additional_cost(own_name(text, name))  # older cards name themselves: "cast ~"
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
                if any(k.startswith("overload ") for k in keywords):  # its overloaded text is read too (702.96a)
                    try:
                        parse_effect(overloaded(effect))
                    except EffectError as exc:
                        raise _fail(path + ("effect",), f"overloaded: {exc}") from None
                if any(i.verb == "if" and i.extra[0] in CHOSE and i.targeted for i in parse_effect(effect)):
                    # its target is chosen only if the spell is kicked (601.2c): not modelled
                    raise _fail(
                        path + ("effect",), f"a target chosen only if the spell is kicked is not modelled: {effect!r}"
                    )
        if "ascend" in keywords and not permanent:  # a spell ability of an instant or sorcery (702.131a)
            raise _fail(path + ("keywords",), "ascend on an instant or sorcery is not modelled (on a permanent it is)")
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
        if cost_of(frozenset(keywords), "level up") is not None:  # "{N}: put a level counter on ~" (702.87a)
            if ability is not None:
                raise _fail(path + ("ability",), "a leveler with another activated ability is not modelled")
            ability = AbilityDef(parse_cost(cost_of(frozenset(keywords), "level up")), LEVEL_UP_EFFECT, sorcery=True)
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
            cda=self.defined_stats(stars, cda, path),
            back=self.back_face(data.get("back"), types, path + ("back",)),
            exert=exerting.may,
            levels=self.levels(name, data, keywords, path),
        )

    def chosen_definition(self, name: str, data: dict, path: tuple, rest: str, kind: str) -> CardDef:
        """A permanent whose controller chooses a colour or a creature type as it enters (614.12a): its text
        read for each value (engine.mtg.chosen), the definition before the choice without what uses it."""
        if kind.startswith(ANCHOR) and not self.s.follows("anchor_words"):
            raise _fail(
                path + ("effect",),
                f"abilities chosen by an anchor word ({said(kind)}) are not in the {self.s.edition} Comprehensive "
                "Rules (they came with Fate Reforged, 2015): explain this scenario under a later edition",
            )
        choices = (
            COLOUR_VALUES if kind == "color" else self.creature_types() if kind == "creature type" else values(kind)
        )
        variants = []
        for value in choices:
            text = with_value(rest, kind, value)
            unread = unread_choice(text)
            if unread is not None:
                raise _fail(path + ("effect",), f"the chosen {kind} here is not modelled: {unread!r}")
            variants.append((value, self.definition(name, {**data, "effect": text}, path)))
        base = self.definition(name, {**data, "effect": without_choice(rest)}, path)
        return replace(base, choose=kind, choices=tuple(variants))

    def creature_types(self) -> tuple[str, ...]:
        """The creature types a choice may name: those of the scenario's cards and permanents (a type no object
        of the game has changes nothing), and Human, so that a text is read with one at least."""
        found = {"human"}
        cards: dict = self.data["cards"] if isinstance(self.data.get("cards"), dict) else {}
        state: dict = self.data["state"] if isinstance(self.data.get("state"), dict) else {}
        listed = state.get("permanents")
        specs = list(cards.values()) + [p for p in (listed if isinstance(listed, list) else []) if isinstance(p, dict)]
        for spec in specs:
            typed = str(spec.get("type") or "") if isinstance(spec, dict) else ""
            main, _, sub = typed.lower().replace("\u2014", " - ").replace("--", " - ").partition(" - ")
            if "creature" in main or "tribal" in main:
                found |= {w for w in sub.split() if w not in SUBTYPES_WITH_RULES}
        return tuple(sorted(found))

    def exert_triggers(self, exerting: Exerting, path: tuple, name: str) -> list[TriggerDef]:
        """The abilities that trigger as a creature is exerted (701.43d, 607.2h); exert is refused under rules
        older than it (Amonkhet, 2017)."""
        if (exerting.may or exerting.triggers) and not self.s.follows("exert"):
            raise _fail(
                path,
                f'the keyword action "exert" is not in the {self.s.edition} Comprehensive Rules (it came with '
                "Amonkhet, 2017): explain this scenario under a later edition",
            )
        out = []
        for when, effect in exerting.triggers:
            text = self.effect(effect, path, name)
            if uses_x(text) or any(i.target.startswith(UP_TO) for i in parse_effect(text)):
                raise _fail(path, f"X or 'up to N target' in a triggered ability is not modelled: {text!r}")
            out.append(TriggerDef(when, text, words=True))
        return out

    def vehicle(self, name: str, types: frozenset[str], path: tuple) -> None:
        """A Vehicle (301.7) is an artifact; refused under rules older than Vehicles (Kaladesh, 2016)."""
        if not self.s.follows("crew"):
            raise _fail(
                path + ("type",),
                f"Vehicles are not in the {self.s.edition} Comprehensive Rules (they came with Kaladesh, 2016): "
                "explain this scenario under a later edition",
            )
        if "artifact" not in types:
            raise _fail(path + ("type",), f"a Vehicle is an artifact, and {name} is not")

    def back_face(self, value: Any, front: frozenset[str], path: tuple) -> CardDef | None:
        """The back face of a transforming double-faced card (712.2): a permanent face, read as a card is;
        refused under rules older than double-faced cards (Innistrad, 2011)."""
        if value is None:
            return None
        data = _keys(value, BACK_KEYS, path)
        if not self.s.follows("transform"):
            raise _fail(
                path,
                f"double-faced cards are not in the {self.s.edition} Comprehensive Rules (they came with Innistrad, "
                "2011): explain this scenario under a later edition",
            )
        if not front & {"creature", "artifact", "enchantment", "land", "planeswalker"}:
            raise _fail(path, "a card that transforms has a permanent front face (not an instant or sorcery)")
        if data.get("name") is None:
            raise _fail(path + ("name",), "a back face needs its name")
        name = name_of(data["name"], path + ("name",), "a face's name")
        back = self.definition(name, {k: v for k, v in data.items() if k != "name"}, path)
        if not back.is_permanent:
            raise _fail(path + ("type",), "a back face that is not a permanent (an instant or sorcery) is not modelled")
        return back

    def levels(self, name: str, data: dict, keywords: set[str], path: tuple) -> tuple[Level, ...]:
        """A leveler card's level symbols (711.2): ``levels: [{level: 1-4, power, toughness, keywords, effect}]``,
        in order, each read as the card's own text is; a card with level symbols has level up (702.87b)."""
        if data.get("levels") is None:
            return ()
        if not self.s.follows("level_up"):
            raise _fail(
                path + ("levels",),
                f"leveler cards are not in the {self.s.edition} Comprehensive Rules (they came with Rise of the "
                "Eldrazi, 2010): explain this scenario under a later edition",
            )
        if cost_of(frozenset(keywords), "level up") is None:
            raise _fail(path + ("levels",), f"{name} has level symbols and no level up ability (Level up {{N}})")
        out: list[Level] = []
        for i, item in enumerate(_list(data["levels"], path + ("levels",))):
            block = _keys(item, LEVEL_KEYS, path + ("levels", i))
            symbol = read_symbol(str(block.get("level", "")))
            if symbol is None or (out and symbol[0] <= (out[-1].high or out[-1].low)):
                raise _fail(path + ("levels", i, "level"), "a level symbol is N1-N2 or N3+, each above the one before")
            if block.get("power") is None or block.get("toughness") is None:
                raise _fail(path + ("levels", i), "a level symbol gives a power and toughness (power:, toughness:)")
            fields = {"type": data.get("type"), **{k: v for k, v in block.items() if k != "level"}}
            made = self.definition(name, fields, path + ("levels", i))
            if made.ability is not None:
                raise _fail(path + ("levels", i, "effect"), "an activated ability of a level symbol is not modelled")
            out.append(Level(symbol[0], symbol[1], made))
        return tuple(out)

    def split_card(self, name: str, data: dict, path: tuple) -> CardDef:
        """A split card (709): one card of two halves, each an instant or sorcery cast on its own (709.3); in
        every zone but the stack it has the types, mana cost and colours of both halves combined (709.4)."""
        if set(data) - {"halves"}:
            extra = sorted(set(data) - {"halves"})[0]
            raise _fail(path + (extra,), "a split card's fields are its halves' (halves: [{name, type, cost, ...}])")
        listed = _list(data["halves"], path + ("halves",))
        if len(listed) != 2:
            raise _fail(path + ("halves",), "a split card has two halves")
        halves = []
        for i, item in enumerate(listed):
            spec = _keys(item, HALF_KEYS, path + ("halves", i))
            if spec.get("name") is None:
                raise _fail(path + ("halves", i, "name"), "a half needs its name")
            own = name_of(spec["name"], path + ("halves", i, "name"), "a half's name")
            made = self.definition(own, {k: v for k, v in spec.items() if k != "name"}, path + ("halves", i))
            if made.is_permanent or not made.types & {"instant", "sorcery"}:
                raise _fail(path + ("halves", i, "type"), "a half of a split card that is a permanent is not modelled")
            if made.modes:
                raise _fail(path + ("halves", i, "effect"), "a modal half of a split card is not modelled")
            halves.append(made)
        if "aftermath" in halves[0].keywords:
            raise _fail(path + ("halves", 0, "keywords"), "aftermath is an ability of a split card's second half")
        cost: dict[str, int] = {}
        for half in halves:
            for sym, n in half.cost:
                cost[sym] = cost.get(sym, 0) + n
        return CardDef(
            name,
            halves[0].types | halves[1].types,
            cost=tuple(sorted(cost.items())),
            keywords=halves[0].keywords | halves[1].keywords,  # each ability of each half (709.4c)
            colours=halves[0].colours | halves[1].colours,
            halves=tuple(halves),
        )

    def defined_stats(self, stars: tuple[str, ...], cda: tuple, path: tuple) -> tuple:
        """The characteristic-defining abilities that set a ``*`` power or toughness (208.2a); a ``*`` no
        ability of the text sets is refused, naming it."""
        for stat in stars:
            if not any(stat in which for which, _ in cda):
                raise _fail(
                    path + (stat,),
                    f'a {stat} of "*" needs the ability that sets it in the text ("~\'s {stat} is equal to the '
                    'number of creatures you control", 208.2a)',
                )
        return cda

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
        for p, n in _keys(state.get("energy"), tuple(s.players), ("state", "energy")).items():
            if not s.follows("energy"):
                self.no_energy(("state", "energy"))
            s.energy[self.player(p, ("state", "energy", p))] = _int(n, ("state", "energy", p), 0, MAX_STAT)
        self.permanents(_list(state.get("permanents"), ("state", "permanents")))
        self.zone(state.get("hand"), ("state", "hand"), s.hand, defined=True)
        self.zone(state.get("library"), ("state", "library"), s.library, defined=True, counts=True)
        self.zone(state.get("graveyard"), ("state", "graveyard"), s.graveyard, defined=False)
        self.zone(state.get("exile"), ("state", "exile"), s.exile, defined=False)
        self.spells_cast(state.get("spells_cast"), ("state", "spells_cast"))
        blessing = ("state", "city_blessing")
        s.blessed = frozenset(
            self.player(p, blessing + (i,)) for i, p in enumerate(_list(state.get("city_blessing"), blessing))
        )
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
            merged = {k: v for k, v in (spec.items()) if k in CARD_KEYS}  # "chosen": read below (entered_as)
            if known is not None and "type" not in merged:
                d = known
                if merged:
                    raise _fail(path, f"{name} is defined under cards:; give its characteristics there or add type:")
            else:
                if "type" not in merged and base_name(name).lower() in BASIC_LANDS:
                    merged["type"] = "basic land"
                d = self.definition(base_name(name), merged, path)
                s.cards.setdefault(base_name(name).lower(), d)
            d = self.entered_as(d, spec.get("chosen"), path + ("chosen",))
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
            if d.levels:  # a leveler with level counters has what its level symbol gives (711.2)
                perm.card = at_level(d, perm.counters.get("level", 0))
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

    def entered_as(self, d: CardDef, value: Any, path: tuple) -> CardDef:
        """A permanent on the battlefield whose controller chose a colour or creature type as it entered
        (614.12a): ``chosen: red`` says which."""
        if not d.choices:
            if value is not None:
                raise _fail(path, f"{d.name} chooses nothing as it enters (chosen: is for 'As ~ enters, choose ...')")
            return d
        listed = ", ".join(v for v, _ in d.choices)
        if value is None:
            raise _fail(path, f"{d.name} chose {said(d.choose)} as it entered: say which with chosen: ({listed})")
        chosen = d.chosen(name_of(value, path, said(d.choose)))
        if chosen is None:
            raise _fail(path, f'"{value}" is not {said(d.choose)} {d.name} may choose here ({listed})')
        return chosen

    def spells_cast(self, value: Any, path: tuple) -> None:
        """``spells_cast: {this_turn: {Ana: 1}, last_turn: {Ben: 2}}``: the spells each player cast (none by
        default), which "if no spells were cast last turn" asks about."""
        turns = _keys(value, ("this_turn", "last_turn"), path)
        counts = []
        for which in ("this_turn", "last_turn"):
            given = _keys(turns.get(which), tuple(self.s.players), path + (which,))
            counts.append(
                tuple(
                    sorted(
                        (self.player(p, path + (which, p)), _int(n, path + (which, p), 0, MAX_COUNT))
                        for p, n in given.items()
                    )
                )
            )
        self.s.spells_cast = (counts[0], counts[1])

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
