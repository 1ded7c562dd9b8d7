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
``enchant creature``, by the table of :mod:`engine.mtg.keywords` (one entry per keyword). Anything else is
refused with a message naming it (the engine does not pretend to model a keyword it does not know).

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
from engine.mtg.keywords import (  # noqa: F401 (the keyword vocabulary, read where the effects are)
    COLOUR_NAMES,
    COLOUR_WORDS,
    DATED_KEYWORDS,
    ENCHANTABLE,
    KEYWORDS,
    KNOWN,
    QUALITIES,
    SIMPLE,
    TYPE_QUALITIES,
    KeywordError,
    amount,
    check_edition,
    cost_of,
    enchants,
    entry,
    protections,
    quality_matches,
    read_keyword,
)

# -- keywords: the table, and how a judge writes them, are engine.mtg.keywords' ---------------------------


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


# -- effects -----------------------------------------------------------------------------------------------
# The amount of an instruction that says X (107.3): the value announced for the spell; -X for "-X" (a
# toughness of -X/-X). Out of the range of any printed number, so "-1/-1" is never read as X.
X = 1_000_000


@dataclass(frozen=True)
class Instruction:
    verb: str  # damage, destroy, exile, bounce, draw, gain, lose, counter, counter_unless, boost, grant,
    #                 restrict, regenerate, tap, untap, add, counters, token, shield, fog, poison, return_self, attach
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


# A creature target with a qualifier: what the creature must be (the words of the kind after "creature").
QUALIFIED = (
    "attacking or blocking creature",
    "attacking creature",
    "blocking creature",
    "tapped creature",
    "untapped creature",
    "creature with flying",
    "creature without flying",
)
# What a ``target ...`` phrase may ask for (longest first: the regex tries them in order).
TARGET_KINDS = (
    "player or planeswalker",
    "opponent or planeswalker",
    "creature or player",
    "creature or planeswalker",
    "creature you control",
    "creature you don't control",
    "creature an opponent controls",
    "creature spell",
    "noncreature spell",
    *QUALIFIED,
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
SPELL_KINDS = ("spell", "creature spell", "noncreature spell")
_N = r"(\d+|x|a|an|one|two|three|four|five)"
# A target kind with a number: "creature with power 4 or greater", "nonland permanent with converted mana
# cost 3 or less" (stat_kind reads it).
_STAT_KIND = re.compile(
    r"^(nonland permanent|permanent|creature|artifact|enchantment) with (power|toughness|converted mana cost|mana "
    r"value) (\d{1,2}) or (greater|less)$"
)
_TARGET = (
    r"(?:target ("
    + "|".join(re.escape(k) for k in TARGET_KINDS)
    + "|"
    + _STAT_KIND.pattern.strip("^$").replace("(", "(?:").replace("(?:?:", "(?:")
    + r")|(any target))"
)


def stat_kind(kind: str) -> tuple[str, str, int, str] | None:
    """(the kind, the characteristic, N, "greater" or "less") of a target kind with a number, or None.

    >>> stat_kind("creature with power 4 or greater")
    ('creature', 'power', 4, 'greater')
    """
    m = _STAT_KIND.match(kind)
    return (m[1], m[2], int(m[3]), m[4]) if m else None


_SUBJECT = r"(~|it|that creature|that spell or ability|that spell)"
_PT = r"([+-](?:\d+|x))/([+-](?:\d+|x))"
# A group of permanents an untargeted instruction acts on, each of them (stack.members): a selector read
# in parts, "[other] [attacking | blocking | tapped | untapped | nontoken] creatures [with | without KEYWORD]
# [you control | your opponents control | you don't control]": "creatures you control get +1/+1 until end of
# turn", "destroy all creatures with flying", "deal 1 damage to each creature without flying". Its normal
# form is the plural ("each attacking creature" is "attacking creatures"); read_group takes it apart.
GROUP_FORM = re.compile(
    r"^(other )?(?:(attacking|blocking|tapped|untapped|nontoken) )?creatures?(?: (with|without) (flying|reach|"
    r"defender|haste|trample|deathtouch|lifelink|vigilance))?(?: (you control|your opponents control|you don't "
    r"control|an opponent controls))?$"
)
_GROUP = r"(?:all |each )?((?:other )?(?:(?:attacking|blocking|tapped|untapped|nontoken) )?creatures?(?: with(?:out)? [a-z]+)?(?: you control| your opponents control| you don't control| an opponent controls)?)"


def read_group(who: str) -> tuple[bool, str, str, str, str] | None:
    """(other, a state, "with" or "without", a keyword, whose) of a group's normal form, or None when
    ``who`` is no group.

    >>> read_group("other attacking creatures you control")
    (True, 'attacking', '', '', 'you control')
    """
    m = GROUP_FORM.match(who)
    if m is None:
        return None
    return (bool(m[1]), m[2] or "", m[3] or "", m[4] or "", m[5] or "")


_UNTIL = r"(?: until end of turn| this turn)"
_FORMS: list[tuple[re.Pattern[str], str]] = [
    (re.compile(p), v)
    for p, v in [
        (rf"^(?:[^,]+? )?deals? {_N}(?: damage)? to {_TARGET}$", "damage"),
        (
            rf"^(?:[^,]+? )?deals? {_N}(?: damage)? to (you|each opponent|each player|each creature|each other creature)$",
            "damage_all",
        ),
        (rf"^(?:[^,]+? )?deals? {_N}(?: damage)? to {_GROUP}$", "damage_group"),
        (rf"^destroy (?:{_TARGET}|{_SUBJECT})$", "destroy"),
        (rf"^(?:exile (?:{_TARGET}|{_SUBJECT})|remove (?:{_TARGET}|{_SUBJECT}) from the game)$", "exile"),
        (rf"^return {_TARGET} to (?:its|their) owner'?s hand$", "bounce"),
        (rf"^put {_TARGET} on top of (?:its|their) owner'?s library$", "tuck"),
        (rf"^(?:you )?draws? {_N}(?: cards?)?$", "draw"),
        (rf"^(?:you )?gains? {_N} life$", "gain"),
        (rf"^(?:you )?loses? {_N} life$", "lose"),
        (rf"^each opponent loses {_N} life$", "opponent_loses"),
        (rf"^target (player|opponent) loses {_N} life$", "target_loses"),
        (rf"^counter (?:{_TARGET}|{_SUBJECT}) unless its controller pays \{{?(\d+|x)\}}?$", "counter_unless"),
        (rf"^counter {_TARGET}$", "counter"),
        (rf"^(?:give {_TARGET} |{_TARGET} gets? |(~|it) gets? ){_PT}(?: until end of turn| this turn)?$", "boost"),
        (rf"^(?:{_TARGET}|(~|it)) gets? {_PT} and gains? (.+?){_UNTIL}$", "boost_grant"),
        (rf"^{_GROUP} gets? {_PT}(?: and gains? (.+?))?{_UNTIL}$", "group_boost"),
        (rf"^{_GROUP} gains? (.+?){_UNTIL}$", "group_grant"),
        (rf"^(destroy|tap|untap) {_GROUP}$", "group"),
        (rf"^(?:{_TARGET}|(~|it)) gains? (.+?)(?: until end of turn| this turn)$", "grant"),
        (rf"^(?:{_TARGET}|(~|it)) can't (attack or block|attack|block|be blocked){_UNTIL}$", "restrict"),
        (rf"^regenerate (?:{_TARGET}|(~|it))$", "regenerate"),
        (rf"^tap {_TARGET}$", "tap"),
        (rf"^untap {_TARGET}$", "untap"),
        (r"^add ((?:\{[wubrgc]\})+|\{\d\})(?: to your mana pool)?$", "add"),
        (r"^add (\{[wubrgc]\}(?:(?:,|,? or) \{[wubrgc]\})+)(?: to your mana pool)?$", "add_one_of"),
        (r"^add one mana of any colou?r(?: to your mana pool)?$", "add_any"),
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
        (r"^sacrifice (~|it)$", "sacrifice"),
        (
            rf"^if (~|it) isn't renowned, put {_N} \+1/\+1 counters? on (?:~|it) and (?:~|it) becomes renowned$",
            "renown",
        ),
    ]
]
_WORDS = {"a": 1, "an": 1, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "x": X}

VOCABULARY = (
    "deal N damage to target creature | target player | target player or planeswalker | any target | ... (also X)",
    "deal N damage to you | each opponent | each creature",
    "destroy target creature | attacking creature | tapped creature | creature with flying | ...",
    "exile target creature",
    "return target creature to its owner's hand",
    "put target creature on top of its owner's library",
    "draw N",
    "gain N life",
    "lose N life",
    "each opponent loses N life",
    "target player | opponent loses N life",
    "counter target spell | creature spell | noncreature spell",
    "counter target spell unless its controller pays {N}",
    "target creature gets +N/+N (or -N/-N) until end of turn",
    "target creature gains KEYWORD until end of turn",
    "target creature gets +N/+N and gains KEYWORD until end of turn",
    "creatures you control | other creatures you control | creatures your opponents control | all creatures "
    "get +N/+N [and gain KEYWORD] until end of turn",
    "destroy | tap | untap all [other] [attacking | tapped | ...] creatures [with | without flying] [you control | "
    "your opponents control]",
    "deal N damage to each [attacking | ...] creature [with | without flying] [you control | ...]",
    "target creature | ~ can't attack | block | attack or block | be blocked this turn",
    "regenerate ~ | target creature",
    "tap target creature",
    "untap target creature",
    "put N +1/+1 (or -1/-1) counters on target creature",
    "create N P/T COLOUR NAME creature token(s) [with KEYWORD]",
    "put N P/T COLOUR NAME creature token(s) into play (the 2008 wording)",
    "prevent the next N damage that would be dealt to any target this turn",
    "prevent all combat damage that would be dealt this turn",
    "target player gets N poison counters",
    "sacrifice ~",
    "..., and you gain N life (two instructions)",
    "add {R} | {C}{C} | {W} or {U} | one mana of any color (mana abilities)",
)
ABILITIES = (
    "a keyword (Flying)",
    "When ~ enters|dies|attacks|blocks|deals combat damage to a player, EFFECT",
    "At the beginning of your|each upkeep|end step, EFFECT",
    "Enchanted|Equipped creature gets +N/+N [and has KEYWORD]",
    "Enchanted|Equipped creature has KEYWORD",
    "Enchanted creature can't attack or block",
    "Creatures you control get +N/+N",
    "~ can't attack | block | attack or block | be blocked",
    "~ attacks each combat if able",
    "~ can block only creatures with flying",
    "~ can't be countered",
    "If ~|a creature [you control|an opponent controls] would die, exile it|return it to its owner's hand instead",
    "~ enters tapped [unless you control two or fewer other lands | two or more basic lands | a Plains or an Island]",
    "Whenever a|another land|creature enters the battlefield under your control, EFFECT",
    "Creatures you control have KEYWORD",
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


def _group(text: str) -> str:
    """A group's selector in its normal form: the plural (``each creature`` is ``creatures``)."""
    normal = re.sub(r"\bcreature\b", "creatures", text)
    if read_group(normal) is None:
        raise EffectError(f"cannot read the group {text!r}")
    return normal


def _keywords_of(text: str) -> tuple[str, ...]:
    try:
        return read_keywords_list(text)
    except KeywordError as exc:
        raise EffectError(str(exc)) from None


def _signed(text: str) -> int:
    if text.lstrip("+-") == "x":
        return -X if text.startswith("-") else X
    return int(text)


def _sentences(text: str) -> list[tuple[str, str]]:
    """(lower-case words, the words as written) of each sentence."""
    out = []
    for raw in re.split(r"[.;]\s*|,? then |,? and (?=you (?:gain|lose)s? \w+ life\b)", text.strip()):
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


_TOKEN_OTHER_TYPES = frozenset({"artifact", "enchantment", "land", "legendary", "snow"})


def _token(g: tuple, original: str, m: re.Match) -> Instruction:
    count, power, toughness, middle, kws = g[0], g[1], g[2], g[3], g[4]
    words = middle.split()
    colours, i = [], 0
    while i < len(words) and (words[i] in COLOUR_WORDS or words[i] in ("colorless", "and")):
        if words[i] in COLOUR_WORDS:
            colours.append(COLOUR_WORDS[words[i]])
        i += 1
    other_types = [w for w in words[i:] if w in _TOKEN_OTHER_TYPES]
    if other_types:  # a token is modelled as a creature alone: an artifact creature token would be misread
        kind = " ".join(other_types)
        article = "an" if kind[0] in "aeiou" else "a"
        raise EffectError(f"{article} {kind} creature token is not modelled (a creature token is): {original!r}")
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
        if verb == "damage_group":
            return Instruction("damage", _number(g[0]), "", _group(g[1]))
        if verb == "damage_all":
            who = {"you": "you", "each opponent": "opponent"}.get(g[1], g[1])
            return Instruction("damage", _number(g[0]), "", who)
        if verb == "destroy":
            return Instruction(verb, 0, _target_of(g[0], g[1], g[2]))
        if verb == "exile":
            return Instruction(verb, 0, _target_of(g[0], g[1], g[2]) or _target_of(g[3], g[4], g[5]))
        if verb in ("bounce", "counter", "tap", "untap", "tuck"):
            return Instruction(verb, 0, _target_of(g[0], g[1]))
        if verb in ("draw", "gain", "lose"):
            return Instruction(verb, _number(g[0]), "", "you")
        if verb == "opponent_loses":
            return Instruction("lose", _number(g[0]), "", "opponent")
        if verb == "target_loses":
            return Instruction("lose", _number(g[1]), g[0])
        if verb == "counter_unless":
            return Instruction("counter_unless", _number(g[3]), _target_of(g[0], g[1], g[2]))
        if verb == "regenerate":
            return Instruction("regenerate", 0, _target_of(g[0], g[1], g[2]))
        if verb == "restrict":
            return Instruction("restrict", 0, _target_of(g[0], g[1], g[2]), extra=(g[3],))
        if verb == "boost":
            target = _target_of(g[0], g[1]) or _target_of(g[2], g[3]) or _target_of(None, None, g[4])
            return Instruction("boost", _signed(g[5]), target, "", _signed(g[6]))
        if verb in ("boost_grant", "group_boost"):
            read = _keywords_of(g[-1]) if g[-1] else ()
            if verb == "group_boost":
                return Instruction("boost", _signed(g[1]), "", _group(g[0]), _signed(g[2]), extra=read)
            target = _target_of(g[0], g[1], g[2])
            return Instruction("boost", _signed(g[3]), target, "", _signed(g[4]), extra=read)
        if verb == "group_grant":
            return Instruction("grant", 0, "", _group(g[0]), extra=_keywords_of(g[1]))
        if verb == "group":
            return Instruction(g[0], 0, "", _group(g[1]))
        if verb == "add_one_of":
            return Instruction("add", 0, "", "you", extra=("".join(re.findall(r"\{([wubrgc])\}", g[0])).upper(),))
        if verb == "add_any":
            return Instruction("add", 0, "", "you", extra=("WUBRG",))
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
        if verb == "sacrifice":
            return Instruction("sacrifice", 0, _target_of(None, None, g[0]))
        if verb == "renown":
            return Instruction("renown", _number(g[1]), _target_of(None, None, g[0]))
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
    return any(abs(i.amount) == X or abs(i.amount2) == X for i in parse_effect(text))


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

    scope: str  # "attached" or "yours" (creatures you control) or "other yours", or "self" (its own)
    power: int = 0
    toughness: int = 0
    keywords: tuple[str, ...] = ()
    cant: str = ""  # "attack", "block", "attack or block", "be blocked"
    must: str = ""  # "attack": it attacks each combat if able (a requirement, 508.1d)
    blocks_only: str = ""  # a keyword: it can block only creatures with it ("flying")


@dataclass(frozen=True)
class ReplacementDef:
    """``If WHO would die, DO instead`` (614.1a) or ``~ enters tapped / with N counters`` (614.1c)."""

    event: str  # "die" or "enter"
    who: str  # "self", "creature", "creature you control", "creature an opponent controls", "another creature you control", "nontoken creature"
    instead: str  # die: "exile", "hand", "library"; enter: "tapped", "counters"
    amount: int = 0
    counter: str = ""
    unless: tuple = ()  # enters tapped unless its controller controls: ("other lands", "at most", 2),
    #                     ("basic lands", "at least", 2), ("land types", "plains", "island")


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
    uncounterable: bool = False  # "~ can't be countered" (a static ability that functions on the stack)


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
            rf"(?:the battlefield|play)|attacks|blocks|deals combat damage to a player), (.+)$",
            "trigger",
        ),
        (
            r"^at the (?:beginning|start) of (your|each|the) (upkeep|draw step|precombat main phase|combat|end step|postcombat main "
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
            rf"^{_SELF} enters(?: the battlefield)? tapped unless you control {_N} or (fewer|more) (other lands|basic "
            r"lands)$",
            "enters_tapped_count",
        ),
        (
            rf"^{_SELF} enters(?: the battlefield)? tapped unless you control an? (plains|island|swamp|mountain|forest)"
            r" or an? (plains|island|swamp|mountain|forest)$",
            "enters_tapped_type",
        ),
        (
            r"^whenever (a|another) (land|creature|nontoken creature|artifact|enchantment) enters(?: the battlefield)? "
            r"under your control, (.+)$",
            "watch",
        ),
        (r"^(other )?creatures you control have (.+)$", "anthem_has"),
        (
            rf"^{_SELF} (?:enters(?: the battlefield)?|comes into play) with {_N} ([+-]1/[+-]1|loyalty|[a-z]+) counters? on it$",
            "enters_counters",
        ),
        (rf"^prevent all damage that would be dealt to {_SELF}$", "prevent_all"),
        (rf"^{_SELF} can't (attack or block|attack|block|be blocked)$", "self_cant"),
        (rf"^{_SELF} attacks each (?:combat|turn) if able$", "self_must"),
        (rf"^{_SELF} can block only creatures with (flying)$", "blocks_only"),
        (rf"^(?:this spell|{_SELF}) can't be countered$", "uncounterable"),
    ]
]


@cache
def parse_abilities(text: str) -> Abilities:
    """A permanent's text (its name written ``~``), ability by ability; raises :class:`EffectError`."""
    keywords: list[str] = []
    triggers: list[TriggerText] = []
    statics: list[Static] = []
    replacements: list[ReplacementDef] = []
    prevent_all = uncounterable = False
    for sentence, original in _abilities_of(text):
        word = _ABILITY_WORD.match(sentence)
        if word:  # an ability word has no rules meaning (207.2c): "Landfall — Whenever ..."
            sentence, original = sentence[word.end() :], original[word.end() :]
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
                    else "combat damage to a player"
                    if g[0].startswith("deals combat damage")
                    else g[0].split()[0]
                )
                triggers.append(TriggerText(event, _check_effect(original[m.start(2) :])))
            elif kind == "phase_trigger":
                phase = _PHASES[g[1]]
                triggers.append(  # "the end step": each end step, whoever's turn it is
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
            elif kind == "enters_tapped_count":
                most = "at most" if g[1] == "fewer" else "at least"
                replacements.append(ReplacementDef("enter", "self", "tapped", unless=(g[2], most, _number(g[0]))))
            elif kind == "enters_tapped_type":
                replacements.append(ReplacementDef("enter", "self", "tapped", unless=("land types", g[0], g[1])))
            elif kind == "watch":
                effect = _check_effect(original[m.start(3) :])
                if any(i.target == "it" for i in parse_effect(effect)):
                    raise EffectError(
                        f"'it' or 'that creature' in {original!r} (the permanent that entered) is not modelled"
                    )
                triggers.append(TriggerText(f"{g[0]} {g[1]} enters yours", effect))
            elif kind == "anthem_has":
                statics.append(Static("other yours" if g[0] else "yours", keywords=read_keywords_list(g[1])))
            elif kind == "enters_counters":
                if _number(g[0]) == X:
                    raise EffectError(f"X in a static ability is not modelled: {original!r}")
                replacements.append(ReplacementDef("enter", "self", "counters", _number(g[0]), g[1]))
            elif kind == "prevent_all":
                prevent_all = True
            elif kind == "self_cant":
                statics.append(Static("self", cant=g[0]))
            elif kind == "self_must":
                statics.append(Static("self", must="attack"))
            elif kind == "blocks_only":
                statics.append(Static("self", blocks_only=g[0]))
            elif kind == "uncounterable":
                uncounterable = True
        except KeywordError as exc:
            raise EffectError(str(exc)) from None
        if any(abs(s.power) == X or abs(s.toughness) == X for s in statics):
            raise EffectError(f"X in a static ability is not modelled: {original!r}")
    return Abilities(tuple(keywords), tuple(triggers), tuple(statics), tuple(replacements), prevent_all, uncounterable)


_ABILITY_WORD = re.compile(r"^[a-z]+(?: [a-z]+)? \u2014 (?=whenever |when |at |~ |as long )")
_UNCOUNTERABLE = re.compile(r"(?:^|(?<=[.\n]))\s*(?:this spell|~) can't be countered\.?", re.I)


_ADDITIONAL = re.compile(
    r"(?:^|(?<=[.\n]))\s*as an additional cost to cast this spell, sacrifice an? (creature|artifact|land|permanent)\.?",
    re.I,
)


def additional_cost(text: str) -> tuple[str, str]:
    """A spell's text less its additional cost of sacrificing a permanent (118.8), and what kind of permanent
    is sacrificed ("" : none).

    >>> additional_cost("As an additional cost to cast this spell, sacrifice a creature.\\nDraw two cards.")
    ('Draw two cards.', 'creature')
    """
    m = _ADDITIONAL.search(text)
    if m is None:
        return text, ""
    return (text[: m.start()] + text[m.end() :]).strip(), m.group(1).lower()


def spell_properties(text: str) -> tuple[str, bool]:
    """An instant's or sorcery's text less the static ability that functions on the stack (113.6g), and
    whether it had it: ``This spell can't be countered.`` is no instruction of its effect.

    >>> spell_properties("This spell can't be countered.\\nDestroy target creature.")
    ('Destroy target creature.', True)
    """
    rest = _UNCOUNTERABLE.sub("", text)
    return rest.strip(), rest != text


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


_REMINDER = re.compile(r"\s*\([^()]*\)")


def _abilities_of(text: str) -> list[tuple[str, str]]:
    """A permanent's text split into abilities: by line and sentence, a triggered ability's effect
    keeping its following sentences only when they are joined by ``;`` or ``then``."""
    out = []
    text = _REMINDER.sub("", text)  # reminder text is not rules text (207.2)
    for raw in re.split(r"(?<=[.])\s+|\n+", text.strip()):
        words = " ".join(raw.split()).rstrip(".")
        if words:
            out.append((words.lower(), words))
    return out
