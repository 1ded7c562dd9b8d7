"""The effect vocabulary: what a card's ``effect`` text may say, in the plain words cards use.

An instant's or sorcery's effect (and an activated or triggered ability's) is a list of instructions
(:func:`parse_effect`), followed in the order written (608.2c). Sentences are separated by ``.``, ``;``
or ``, then``. Each ``target ...`` phrase takes the next target named in the action (``targeting X, Y``).
A permanent's text is its abilities (:func:`parse_abilities`): keywords, triggered abilities
(``When ~ enters, draw a card``), static abilities of Auras and Equipment (``Enchanted creature gets
+2/+2``), replacement effects (``If ~ would die, exile it instead``). In a card's own text its name may
be written ``~`` (the builder writes it so before reading).

>>> parse_effect("deal 3 to any target")
(Instruction(verb='damage', amount=3, target='any', who='', amount2=0, mana='', extra=()),)
>>> [i.verb for i in parse_effect("Counter target spell. Draw a card")]
['counter', 'draw']
>>> parse_effect("target creature gets -2/-2 until end of turn")[0].amount2
-2
>>> parse_effect("Create two 1/1 white Soldier creature tokens with lifelink")[0].extra
(1, 1, 'W', 'Soldier', ('lifelink',))
>>> parse_effect("deal X damage to any target")[0].amount == X
True
>>> target_kinds("destroy target creature; you gain 2 life")
('creature',)

Keywords (702) are read into one normal form each, a lower-case string: ``flying``, ``protection from red``, ``ward 2``, ``equip 1``,
``enchant creature``. Anything else is refused with a message naming it (the engine does not pretend
to model a keyword it does not know).

>>> read_keyword("Protection from Red")
('protection from red',)
>>> read_keyword("protection from white and from blue")
('protection from white', 'protection from blue')
>>> read_keyword("Ward {2}"), read_keyword("Equip 1"), read_keyword("Enchant creature")
(('ward 2',), ('equip 1',), ('enchant creature',))
>>> try:
...     read_keyword("Bushido 2")
... except KeywordError as no:
...     str(no).split(";")[0]
'keyword "Bushido 2" is not modelled'
>>> sorted(colours_of_cost((("*", 1), ("R", 1)))), sorted(read_colours("white and blue"))
(['R'], ['U', 'W'])
>>> parse_modes("Choose one — • Deal 2 damage to any target. • Draw a card.")
('Deal 2 damage to any target', 'Draw a card')
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cache

from engine.core import suggest

# -- keywords ----------------------------------------------------------------------------------------------
# Keywords without a parameter the engine models (evergreen and a few a judge meets often).
SIMPLE = (
    "deathtouch",
    "defender",
    "double strike",
    "first strike",
    "flash",
    "flying",
    "haste",
    "hexproof",
    "indestructible",
    "lifelink",
    "menace",
    "reach",
    "shroud",
    "trample",
    "vigilance",
    "persist",
    "undying",
)
# With a parameter: how a judge writes them.
PARAMETERISED = (
    "protection from QUALITY",
    "ward {N}",
    "equip {N}",
    "enchant creature|permanent|artifact|enchantment|land",
)
KNOWN = SIMPLE + PARAMETERISED

# Keywords that came later than some editions (hexproof, undying, indestructible, menace, ward: each a
# rules change of data/editions/mtg.yaml, with its date; indestructible was only a glossary entry before).
# A scenario explained under an edition before one came that gives it is refused, naming it; the 2008
# citation table points their keys at 502.1 (what a keyword is), see its header.
DATED_KEYWORDS = frozenset({"hexproof", "menace", "ward", "undying", "indestructible"})

COLOUR_WORDS = {"white": "W", "blue": "U", "black": "B", "red": "R", "green": "G"}
COLOUR_NAMES = {v: k for k, v in COLOUR_WORDS.items()}
# Protection from a card type applies to sources of that type (702.16a); "everything" to all (702.16j).
TYPE_QUALITIES = {
    "creatures": "creature",
    "artifacts": "artifact",
    "enchantments": "enchantment",
    "instants": "instant",
    "sorceries": "sorcery",
    "planeswalkers": "planeswalker",
    "lands": "land",
}
QUALITIES = tuple(COLOUR_WORDS) + tuple(TYPE_QUALITIES) + ("everything", "multicolored", "monocolored", "colorless")
ENCHANTABLE = ("creature", "permanent", "artifact", "enchantment", "land", "planeswalker")

_NUMBER = re.compile(r"^\{?(\d{1,3})\}?$")


class KeywordError(ValueError):
    pass


def _fail(text: str, why: str = "") -> KeywordError:
    word = " ".join(str(text).split())
    hint = suggest(word.lower(), list(SIMPLE) + ["protection from", "ward", "equip", "enchant creature"])
    return KeywordError(f'keyword "{word}" is not modelled{why}{hint}; known: {", ".join(KNOWN)}')


def read_keyword(text: object) -> tuple[str, ...]:
    """The normal form(s) of one keyword as written (``Protection from red and from white`` is two)."""
    raw = " ".join(str(text).replace("\u2014", " ").split())
    low = raw.lower().rstrip(".")
    if low in SIMPLE:
        return (low,)
    if low.startswith("protection from "):
        out = []
        for part in re.split(r",? and from |, from ", low[len("protection from ") :]):
            quality = part.strip()
            if quality.startswith("all "):
                quality = quality[4:]
            if quality not in QUALITIES:
                raise _fail(raw, f" (protection from {', '.join(QUALITIES)})")
            out.append(f"protection from {quality}")
        return tuple(out)
    for word in ("ward", "equip"):
        if low == word or low.startswith(word + " "):
            m = _NUMBER.match(low[len(word) :].strip())
            if not m:
                raise _fail(raw, f" (write {word} {{N}}: a mana cost of N generic mana)")
            return (f"{word} {int(m.group(1))}",)
    if low.startswith("enchant "):
        what = low[len("enchant ") :]
        if what not in ENCHANTABLE:
            raise _fail(raw, f" (enchant {' | '.join(ENCHANTABLE)})")
        return (low,)
    raise _fail(raw)


def check_edition(keyword: str, edition: str, rules: frozenset[str], consulted: set[str] | None = None) -> str | None:
    """Why ``keyword`` cannot be used under ``edition``, whose rules changes in force are ``rules``
    (None: it can); a keyword that came with a change is added to ``consulted``."""
    head = keyword.split()[0] if keyword.split()[0] in ("ward",) else keyword
    if head not in DATED_KEYWORDS:
        return None
    if consulted is not None:
        consulted.add(head)
    if head not in rules:
        return (
            f'keyword "{keyword}" is not in the {edition} Comprehensive Rules'
            + (" (a glossary term there, not a numbered rule)" if head == "indestructible" else "")
            + ": explain this scenario under a later edition"
        )
    return None


def amount(keywords: frozenset[str], word: str) -> int | None:
    """The N of ``ward N`` / ``equip N`` among ``keywords``, or None."""
    for k in keywords:
        if k.startswith(word + " "):
            return int(k.split()[1])
    return None


def protections(keywords: frozenset[str]) -> tuple[str, ...]:
    return tuple(sorted(k[len("protection from ") :] for k in keywords if k.startswith("protection from ")))


def enchants(keywords: frozenset[str]) -> str | None:
    return next((k[len("enchant ") :] for k in keywords if k.startswith("enchant ")), None)


def colours_of_cost(cost: tuple[tuple[str, int], ...]) -> frozenset[str]:
    """An object is the colours of the mana symbols in its mana cost (202.2)."""
    return frozenset(sym for sym, _ in cost if sym in "WUBRG")


def read_colours(text: object) -> frozenset[str]:
    """``red``, ``white and blue``, ``colorless`` (or ``R``, ``WU``); raises ValueError."""
    words = [w for w in re.split(r"[\s,/]+|\band\b", str(text).lower()) if w]
    out: set[str] = set()
    for word in words:
        if word in ("colorless", "colourless"):
            continue
        if word in COLOUR_WORDS:
            out.add(COLOUR_WORDS[word])
        elif set(word.upper()) <= set("WUBRG"):
            out |= set(word.upper())
        else:
            raise ValueError(
                f'unknown colour "{word}"{suggest(word, list(COLOUR_WORDS))}; '
                f"colours: {', '.join(COLOUR_WORDS)}, colorless"
            )
    return frozenset(out)


def quality_matches(quality: str, colours: frozenset[str], types: frozenset[str]) -> bool:
    """Does a source of these colours and card types have the stated quality (702.16a)?"""
    if quality == "everything":
        return True
    if quality in COLOUR_WORDS:
        return COLOUR_WORDS[quality] in colours
    if quality in TYPE_QUALITIES:
        return TYPE_QUALITIES[quality] in types
    if quality == "multicolored":
        return len(colours) > 1
    if quality == "monocolored":
        return len(colours) == 1
    if quality == "colorless":
        return not colours
    return False


# -- effects -----------------------------------------------------------------------------------------------
X = -1  # the amount of an instruction that says X (107.3): the value announced for the spell


@dataclass(frozen=True)
class Instruction:
    verb: str  # damage, destroy, exile, bounce, draw, gain, lose, counter, counter_unless, boost, grant,
    #                 tap, untap, add, counters, token, shield, fog, poison, return_self, attach
    amount: int = 0  # X: the announced value
    target: str = (
        ""  # a target kind (TARGET_KINDS), "" untargeted, "self" the object itself, "it" the trigger's subject
    )
    who: str = ""  # untargeted: "you" (the controller), "opponent", "each creature", "each player"
    amount2: int = 0  # toughness part of +N/+N
    mana: str = ""
    extra: tuple = ()  # keywords granted; a counter's kind; a token's (power, toughness, colours, name, keywords)

    @property
    def targeted(self) -> bool:
        return self.target not in ("", "self", "it")


# What a ``target ...`` phrase may ask for (longest first: the regex tries them in order).
TARGET_KINDS = (
    "creature or player",
    "creature or planeswalker",
    "creature you control",
    "creature you don't control",
    "creature an opponent controls",
    "nonland permanent",
    "artifact or enchantment",
    "creature",
    "player",
    "opponent",
    "spell",
    "permanent",
    "artifact",
    "enchantment",
    "land",
    "planeswalker",
)
_N = r"(\d+|x|a|an|one|two|three|four|five)"
_TARGET = r"(?:target (" + "|".join(re.escape(k) for k in TARGET_KINDS) + r")|(any target))"
_SUBJECT = r"(~|it|that creature|that spell or ability|that spell)"
_PT = r"([+-](?:\d+|x))/([+-](?:\d+|x))"
_FORMS: list[tuple[re.Pattern[str], str]] = [
    (re.compile(p), v)
    for p, v in [
        (rf"^(?:.+? )?deals? {_N}(?: damage)? to {_TARGET}$", "damage"),
        (
            rf"^(?:.+? )?deals? {_N}(?: damage)? to (you|each opponent|each player|each creature|each other creature)$",
            "damage_all",
        ),
        (rf"^destroy (?:{_TARGET}|{_SUBJECT})$", "destroy"),
        (rf"^(?:exile (?:{_TARGET}|{_SUBJECT})|remove (?:{_TARGET}|{_SUBJECT}) from the game)$", "exile"),
        (rf"^return {_TARGET} to (?:its|their) owner'?s hand$", "bounce"),
        (rf"^(?:you )?draws? {_N}(?: cards?)?$", "draw"),
        (rf"^(?:you )?gains? {_N} life$", "gain"),
        (rf"^(?:you )?loses? {_N} life$", "lose"),
        (rf"^each opponent loses {_N} life$", "opponent_loses"),
        (rf"^target player loses {_N} life$", "target_loses"),
        (rf"^counter (?:{_TARGET}|{_SUBJECT}) unless its controller pays \{{?(\d+|x)\}}?$", "counter_unless"),
        (rf"^counter {_TARGET}$", "counter"),
        (rf"^(?:give {_TARGET} |{_TARGET} gets? |(~|it) gets? ){_PT}(?: until end of turn| this turn)?$", "boost"),
        (rf"^(?:{_TARGET}|(~|it)) gains? (.+?)(?: until end of turn| this turn)$", "grant"),
        (rf"^tap {_TARGET}$", "tap"),
        (rf"^untap {_TARGET}$", "untap"),
        (r"^add ((?:\{[wubrgc]\})+|\{\d\})(?: to your mana pool)?$", "add"),
        (rf"^put {_N} ([+-]\d+/[+-]\d+) counters? on (?:{_TARGET}|(~|it))$", "counters"),
        (rf"^create {_N} (\d+)/(\d+) (.+?) creature tokens?(?: with (.+))?$", "token"),
        (rf"^put {_N} (\d+)/(\d+) (.+?) creature tokens?(?: with (.+?))? (?:into play|onto the battlefield)$", "token"),
        (rf"^prevent the next {_N} damage that would be dealt to {_TARGET} this turn$", "shield"),
        (rf"^prevent all damage that would be dealt to {_TARGET} this turn$", "shield_all"),
        (r"^prevent all combat damage that would be dealt this turn$", "fog"),
        (rf"^(?:{_TARGET}|(each opponent)) gets? {_N} poison counters?$", "poison"),
        (
            r"^return it to the battlefield under its owner'?s control(?: with an? ([+-]1/[+-]1) counter on it)?$",
            "return_self",
        ),
        (rf"^attach (?:~|it) to {_TARGET}$", "attach"),
    ]
]
_WORDS = {"a": 1, "an": 1, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "x": X}

VOCABULARY = (
    "deal N damage to target creature | target player | any target | ... (also X)",
    "deal N damage to you | each opponent | each creature",
    "destroy target creature",
    "exile target creature",
    "return target creature to its owner's hand",
    "draw N",
    "gain N life",
    "lose N life",
    "each opponent loses N life",
    "target player loses N life",
    "counter target spell",
    "counter target spell unless its controller pays {N}",
    "target creature gets +N/+N (or -N/-N) until end of turn",
    "target creature gains KEYWORD until end of turn",
    "tap target creature",
    "untap target creature",
    "put N +1/+1 (or -1/-1) counters on target creature",
    "create N P/T COLOUR NAME creature token(s) [with KEYWORD]",
    "put N P/T COLOUR NAME creature token(s) into play (the 2008 wording)",
    "prevent the next N damage that would be dealt to any target this turn",
    "prevent all combat damage that would be dealt this turn",
    "target player gets N poison counters",
    "add {R} (mana abilities)",
)
ABILITIES = (
    "a keyword (Flying)",
    "When ~ enters|dies|attacks|blocks, EFFECT",
    "At the beginning of your|each upkeep|end step, EFFECT",
    "Enchanted|Equipped creature gets +N/+N [and has KEYWORD]",
    "Enchanted|Equipped creature has KEYWORD",
    "Enchanted creature can't attack or block",
    "Creatures you control get +N/+N",
    "If ~|a creature [you control|an opponent controls] would die, exile it|return it to its owner's hand instead",
    "~ enters tapped",
    "~ enters with N +1/+1 counters on it",
    "Prevent all damage that would be dealt to ~",
)


class EffectError(ValueError):
    pass


def _number(text: str) -> int:
    return _WORDS[text] if text in _WORDS else int(text)


def _target_of(named: str | None, any_target: str | None, subject: str | None = None) -> str:
    if any_target:
        return "any"
    if named:
        return named
    if subject:
        return "self" if subject == "~" else "it"
    return ""


def _signed(text: str) -> int:
    return X if text.lstrip("+-") == "x" else int(text)


def _sentences(text: str) -> list[tuple[str, str]]:
    """(lower-case words, the words as written) of each sentence."""
    out = []
    for raw in re.split(r"[.;]\s*|,? then ", text.strip()):
        words = " ".join(raw.split())
        if words:
            out.append((words.lower(), words))
    return out


def read_keywords_list(text: str) -> tuple[str, ...]:
    """``flying and first strike`` / ``flying, vigilance`` -> normal forms; raises KeywordError."""
    parts = re.split(r",\s*(?:and\s+)?|\s+and\s+(?!from\b)", text.strip())
    out: list[str] = []
    for part in parts:
        if part.strip():
            out.extend(read_keyword(part))
    return tuple(out)


def _token(g: tuple, original: str, m: re.Match) -> Instruction:
    count, power, toughness, middle, kws = g[0], g[1], g[2], g[3], g[4]
    words = middle.split()
    colours, i = [], 0
    while i < len(words) and (words[i] in COLOUR_WORDS or words[i] in ("colorless", "and")):
        if words[i] in COLOUR_WORDS:
            colours.append(COLOUR_WORDS[words[i]])
        i += 1
    start = m.start(4) + len(" ".join(words[:i])) + (1 if i else 0)
    name = original[start : m.end(4)].strip()
    if not name:
        raise EffectError(f"a token needs a name (its creature type): {original!r}")
    try:
        keywords = read_keywords_list(kws) if kws else ()
    except KeywordError as exc:
        raise EffectError(str(exc)) from None
    return Instruction("token", _number(count), extra=(int(power), int(toughness), "".join(colours), name, keywords))


def _instruction(sentence: str, original: str) -> Instruction:
    for pattern, verb in _FORMS:
        m = pattern.match(sentence)
        if not m:
            continue
        g = m.groups()
        if verb == "damage":
            return Instruction("damage", _number(g[0]), _target_of(g[1], g[2]))
        if verb == "damage_all":
            who = {"you": "you", "each opponent": "opponent"}.get(g[1], g[1])
            return Instruction("damage", _number(g[0]), "", who)
        if verb == "destroy":
            return Instruction(verb, 0, _target_of(g[0], g[1], g[2]))
        if verb == "exile":
            return Instruction(verb, 0, _target_of(g[0], g[1], g[2]) or _target_of(g[3], g[4], g[5]))
        if verb in ("bounce", "counter", "tap", "untap"):
            return Instruction(verb, 0, _target_of(g[0], g[1]))
        if verb in ("draw", "gain", "lose"):
            return Instruction(verb, _number(g[0]), "", "you")
        if verb == "opponent_loses":
            return Instruction("lose", _number(g[0]), "", "opponent")
        if verb == "target_loses":
            return Instruction("lose", _number(g[0]), "player")
        if verb == "counter_unless":
            return Instruction("counter_unless", _number(g[3]), _target_of(g[0], g[1], g[2]))
        if verb == "boost":
            target = _target_of(g[0], g[1]) or _target_of(g[2], g[3]) or _target_of(None, None, g[4])
            return Instruction("boost", _signed(g[5]), target, "", _signed(g[6]))
        if verb == "grant":
            try:
                keywords = read_keywords_list(g[3])
            except KeywordError as exc:
                raise EffectError(str(exc)) from None
            return Instruction("grant", 0, _target_of(g[0], g[1], g[2]), extra=keywords)
        if verb == "add":
            symbols = g[0].replace("{", "").replace("}", "").upper()
            return Instruction("add", 0, "", "you", 0, "C" * int(symbols) if symbols.isdigit() else symbols)
        if verb == "counters":
            return Instruction("counters", _number(g[0]), _target_of(g[2], g[3], g[4]), extra=(g[1],))
        if verb == "token":
            return _token(g, original, m)
        if verb in ("shield", "shield_all"):
            n = _number(g[0]) if verb == "shield" else 0
            named, any_target = (g[1], g[2]) if verb == "shield" else (g[0], g[1])
            return Instruction(
                "shield", n, _target_of(named, any_target), extra=("all",) if verb == "shield_all" else ()
            )
        if verb == "fog":
            return Instruction("fog")
        if verb == "poison":
            return Instruction("poison", _number(g[3]), _target_of(g[0], g[1]), "opponent" if g[2] else "")
        if verb == "return_self":
            return Instruction("return_self", 0, "it", extra=(g[0],) if g[0] else ())
        if verb == "attach":
            return Instruction("attach", 0, _target_of(g[0], g[1]))
    raise EffectError(f"cannot read effect {original!r} (known: {'; '.join(VOCABULARY)})")


@cache
def parse_effect(text: str) -> tuple[Instruction, ...]:
    """Instructions in the order written; raises :class:`EffectError` for text outside the vocabulary."""
    if parse_modes(text):
        raise EffectError(f"{text!r} is modal: give its modes with the card (they are read one by one)")
    return tuple(_instruction(low, original) for low, original in _sentences(text))


def target_kinds(text: str) -> tuple[str, ...]:
    """What each target of the effect must be, in the order the targets are named."""
    return tuple(i.target for i in parse_effect(text) if i.targeted)


def uses_x(text: str) -> bool:
    return any(i.amount == X or i.amount2 == X for i in parse_effect(text))


_MODAL = re.compile(r"^\s*choose (one|two|one or both)\s*(?:\u2014|--|-|:)?\s*", re.I)


@cache
def parse_modes(text: str) -> tuple[str, ...]:
    """The modes of a modal effect (``Choose one — • A. • B.``, 700.2), or ``()`` when it is not modal."""
    m = _MODAL.match(text)
    if not m:
        return ()
    if m.group(1).lower() != "one":
        raise EffectError(f"{text[: m.end()].strip()!r}: only 'choose one' modal spells are modelled")
    body = text[m.end() :]
    parts = re.split(r"\s*(?:\u2022|\n\s*[-*]\s|;\s*or\s+)\s*", body)
    modes = tuple(p.strip().rstrip(".").strip() for p in parts if p.strip().strip("."))
    if len(modes) < 2:
        raise EffectError(f"a modal effect needs two or more modes, each after a bullet (•): {text!r}")
    return modes


# -- a permanent's abilities -------------------------------------------------------------------------------
@dataclass(frozen=True)
class Static:
    """A static ability of an Aura or Equipment (on the creature it is attached to) or an anthem."""

    scope: str  # "attached" or "yours" (creatures you control) or "other yours"
    power: int = 0
    toughness: int = 0
    keywords: tuple[str, ...] = ()
    cant: str = ""  # "attack", "block", "attack or block"


@dataclass(frozen=True)
class ReplacementDef:
    """``If WHO would die, DO instead`` (614.1a) or ``~ enters tapped / with N counters`` (614.1c)."""

    event: str  # "die" or "enter"
    who: str  # "self", "creature", "creature you control", "creature an opponent controls", "another creature you control", "nontoken creature"
    instead: str  # die: "exile", "hand", "library"; enter: "tapped", "counters"
    amount: int = 0
    counter: str = ""


@dataclass(frozen=True)
class TriggerText:
    when: str  # enters, dies, attacks, blocks, a phase, each PHASE
    effect: str


@dataclass(frozen=True)
class Abilities:
    keywords: tuple[str, ...] = ()
    triggers: tuple[TriggerText, ...] = ()
    statics: tuple[Static, ...] = ()
    replacements: tuple[ReplacementDef, ...] = ()
    prevent_all: bool = False


_SELF = r"(?:~|this creature|this permanent|this enchantment|this artifact)"
_WHO = r"(~|a creature you control|a creature an opponent controls|another creature you control|a nontoken creature|a creature)"
_PHASES = {
    "upkeep": "upkeep",
    "draw step": "draw",
    "precombat main phase": "main1",
    "combat": "beginning_of_combat",
    "end step": "end",
    "postcombat main phase": "main2",
}
_ABILITY_FORMS: list[tuple[re.Pattern[str], str]] = [
    (re.compile(p), v)
    for p, v in [
        (
            rf"^(?:when|whenever) {_SELF} (enters(?: the battlefield)?|comes into play|dies|is put into a graveyard from "
            rf"(?:the battlefield|play)|attacks|blocks), (.+)$",
            "trigger",
        ),
        (
            r"^at the (?:beginning|start) of (your|each) (upkeep|draw step|precombat main phase|combat|end step|postcombat main "
            r"phase),? (.+)$",
            "phase_trigger",
        ),
        (rf"^(?:enchanted|equipped) creature gets {_PT}(?: and has (.+))?$", "attached"),
        (r"^(?:enchanted|equipped) creature has (.+)$", "attached_has"),
        (r"^(?:enchanted|equipped) creature can't (attack or block|attack|block)$", "attached_cant"),
        (rf"^(other )?creatures you control get {_PT}(?: and have (.+))?$", "anthem"),
        (
            rf"^if {_WHO} would (?:die|be put into a graveyard from (?:the battlefield|play)), (exile it|remove it from the game|"
            rf"return it to its owner'?s hand|put it on top of its owner'?s library) instead$",
            "die",
        ),
        (rf"^{_SELF} (?:enters(?: the battlefield)?|comes into play) tapped$", "enters_tapped"),
        (
            rf"^{_SELF} (?:enters(?: the battlefield)?|comes into play) with {_N} ([+-]1/[+-]1|loyalty|[a-z]+) counters? on it$",
            "enters_counters",
        ),
        (rf"^prevent all damage that would be dealt to {_SELF}$", "prevent_all"),
    ]
]


@cache
def parse_abilities(text: str) -> Abilities:
    """A permanent's text (its name written ``~``), ability by ability; raises :class:`EffectError`."""
    keywords: list[str] = []
    triggers: list[TriggerText] = []
    statics: list[Static] = []
    replacements: list[ReplacementDef] = []
    prevent_all = False
    for sentence, original in _abilities_of(text):
        for pattern, kind in _ABILITY_FORMS:  # noqa: B007 (kind is read after the break)
            m = pattern.match(sentence)
            if m:
                break
        else:
            try:
                keywords.extend(read_keywords_list(sentence))
                continue
            except KeywordError:
                pass
            hint = ""
            try:
                parse_effect(original)
                hint = (
                    " (a permanent's text is its abilities: for what it does as it enters, write 'When ~ enters, ...')"
                )
            except EffectError:
                pass
            raise EffectError(f"cannot read ability {original!r}{hint} (known: {'; '.join(ABILITIES)})")
        g = m.groups()
        try:
            if kind == "trigger":
                event = (
                    "dies"
                    if g[0].startswith("is put into")
                    else "enters"
                    if g[0] == "comes into play"
                    else g[0].split()[0]
                )
                triggers.append(TriggerText(event, _check_effect(original[m.start(2) :])))
            elif kind == "phase_trigger":
                phase = _PHASES[g[1]]
                triggers.append(
                    TriggerText(phase if g[0] == "your" else f"each {phase}", _check_effect(original[m.start(3) :]))
                )
            elif kind == "attached":
                statics.append(
                    Static("attached", _signed(g[0]), _signed(g[1]), read_keywords_list(g[2]) if g[2] else ())
                )
            elif kind == "attached_has":
                statics.append(Static("attached", keywords=read_keywords_list(g[0])))
            elif kind == "attached_cant":
                statics.append(Static("attached", cant=g[0]))
            elif kind == "anthem":
                statics.append(
                    Static(
                        "other yours" if g[0] else "yours",
                        _signed(g[1]),
                        _signed(g[2]),
                        read_keywords_list(g[3]) if g[3] else (),
                    )
                )
            elif kind == "die":
                who = "self" if g[0] == "~" else g[0].removeprefix("a ").removeprefix("an ")
                instead = "exile" if g[1].startswith(("exile", "remove")) else "hand" if "hand" in g[1] else "library"
                replacements.append(ReplacementDef("die", who, instead))
            elif kind == "enters_tapped":
                replacements.append(ReplacementDef("enter", "self", "tapped"))
            elif kind == "enters_counters":
                if _number(g[0]) == X:
                    raise EffectError(f"X in a static ability is not modelled: {original!r}")
                replacements.append(ReplacementDef("enter", "self", "counters", _number(g[0]), g[1]))
            elif kind == "prevent_all":
                prevent_all = True
        except KeywordError as exc:
            raise EffectError(str(exc)) from None
        if any(s.power == X or s.toughness == X for s in statics):
            raise EffectError(f"X in a static ability is not modelled: {original!r}")
    return Abilities(tuple(keywords), tuple(triggers), tuple(statics), tuple(replacements), prevent_all)


def own_name(text: str, name: str) -> str:
    """A card's text with its own name written ``~`` (``When Elvish Visionary enters`` reads as ``When ~
    enters``), so the vocabulary does not depend on names."""
    if not name or not text:
        return text
    base = name.split("#", 1)[0].strip()
    return re.sub(rf"(?<![\w#]){re.escape(base)}(?![\w#])", "~", text, flags=re.I)


def _check_effect(text: str) -> str:
    text = text.strip().rstrip(".")
    parse_effect(text)
    return text


def _abilities_of(text: str) -> list[tuple[str, str]]:
    """A permanent's text split into abilities: by line and sentence, a triggered ability's effect
    keeping its following sentences only when they are joined by ``;`` or ``then``."""
    out = []
    for raw in re.split(r"(?<=[.])\s+|\n+", text.strip()):
        words = " ".join(raw.split()).rstrip(".")
        if words:
            out.append((words.lower(), words))
    return out
