"""Reading card text: effects (``cards.*.effect``) into instructions, costs (``[2][R]``, ``[E]``), keywords with
values (``Assault 2``) and the abilities of a card's text (activated ``COST: EFFECT``, triggered ``When ...``,
replacement ``If ... would ..., ... instead``, passive statements).

The words are the cards' own (Core Rules v1.2, 051: card text is read by the rules): ``Deal 3 to a unit at a
battlefield``, ``Buff up to two other friendly units``, ``Play a 1 [M] Recruit unit token here``. Reminder
text in parentheses is ignored (134.2.d.3). Effects, triggers and costs are read by the grammar of
:mod:`engine.riftbound.cardtext` (its registry of verbs is the effect vocabulary); here a card's text is split
into its abilities, and passive abilities and replacement conditions are read. Anything else is refused with
the words it could not read.

>>> [i.verb for i in parse("Deal 4 to target unit at a battlefield. Draw 1")]
['deal', 'draw']
>>> t = parse("give target enemy unit +2 might this turn")[0].target
>>> (t.kind, t.side, t.where)
('unit', 'enemy', None)
>>> parse("move target unit to Grove")[0].place, parse("move target unit to a battlefield")[0].place
('grove', None)
>>> t = parse("Buff up to two other friendly units.")[0].target
>>> (t.kind, t.side, t.other, t.upto)
('unit', 'friendly', True, 2)
>>> parse_cost("[2][R]"), parse_cost("[1], [E]").exhaust
(Cost(energy=2, power=('Fury',), exhaust=False, extra=()), True)
>>> parse("explode everything")
Traceback (most recent call last):
...
ValueError: unknown effect "explode everything"
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field, replace
from functools import cache

from engine.riftbound import cardtext
from engine.riftbound.effect_types import (
    DOMAIN_NAMES,
    DOMAINS,
    KEYWORD_VALUES,
    KEYWORDS,
    Cost,
    Instruction,
    Target,  # noqa: F401  (named here too: effects is where card text's words are looked up)
    TriggerSpec,
)

# The effect forms the engine reads, generated from the grammar's registry of verbs
# (:data:`engine.riftbound.cardtext.VERBS`): what a refusal suggests the nearest of.
VOCABULARY = cardtext.vocabulary()


# --- normalising text --------------------------------------------------------------------------------
def normalise(text: str) -> str:
    """Lower case, reminder text dropped, symbols read: ``+2 [M]`` -> ``+2 might``, ``[Assault 2]`` -> ``assault 2``."""
    t = str(text or "").replace("ʼ", "'").replace("’", "'").replace("–", "-").replace("—", "-")
    t = re.sub(r"\([^)]*\)", " ", t)  # reminder text (134.2.d.3)
    t = re.sub(r"\[\s*[ms]\s*\]", " might", t, flags=re.I)
    t = re.sub(
        r"\[(assault|shield|deflect|tank|ganking|action|reaction|hidden|deathknell|legion|temporary|vision|"
        r"accelerate|quick-draw|weaponmaster|repeat|equip)(?:\s+(\d+))?\]",
        lambda m: m.group(1) + (f" {m.group(2)}" if m.group(2) else ""),
        t,
        flags=re.I,
    )
    t = re.sub(r"\+\s*might", "+might", t, flags=re.I)
    t = re.sub(r"\[(mighty)\]", r"\1", t, flags=re.I)
    return " ".join(t.lower().split())


# --- instructions ----------------------------------------------------------------------------------------
def _one(part: str) -> Instruction:
    """One instruction: a clause of a cost or an additional cost (``Recycle 1 from your trash``)."""
    read = parse(part)
    if len(read) != 1:
        raise ValueError(f'unknown effect "{part.strip()}"')
    return read[0]


@cache
def parse(text: str) -> tuple[Instruction, ...]:
    """Instructions of an effect text, read by the grammar of :mod:`engine.riftbound.cardtext`, paragraph by
    paragraph; ``ValueError`` for text outside the vocabulary. (Cached: a game reads the same few texts at
    every step.)"""
    out: list[Instruction] = []
    paragraphs = [p for p in re.split(r"\n\s*\n|\n", str(text or "")) if p.strip()]
    for paragraph in paragraphs:
        norm = normalise(paragraph)
        if norm.strip(" ."):
            out.extend(cardtext.read(norm))
    for ins in _walk(out):
        if ins.verb == "counter" and (ins.target is None or ins.target.kind != "spell"):
            raise ValueError('"counter" takes "a spell"')
        if ins.verb not in ("counter",) and ins.target is not None and ins.target.kind == "spell":
            raise ValueError(f'"{ins.verb}" takes a unit, not a spell')
        if ins.target is not None and ins.verb != "choose_card" and any(k == "not_type" for k, _ in ins.target.filters):
            raise ValueError(f'unknown effect "{ins.text}"')  # "a non-unit card": read only from a revealed hand
        if ins.target is not None and ins.verb != "each_choose" and ("unchosen", True) in ins.target.filters:
            # "that hasn't been chosen for this spell": read for the choices of several players only
            raise ValueError(f'unknown effect "{ins.text}"')
        if ins.target is not None and ins.target.where == "there" and ins.target.chooses:
            # "there" names a place the effect chose or its trigger noted: read for objects not chosen only
            raise ValueError(f'unknown effect "{ins.text}"')
    return tuple(out)


def _walk(instructions: tuple[Instruction, ...] | list[Instruction]) -> list[Instruction]:
    out = []
    for i in instructions:
        out.append(i)
        out.extend(_walk(i.body))
    return out


def chosen(instructions: tuple[Instruction, ...]) -> list[Instruction]:
    """The instructions that choose targets as the effect is put on the Chain (352.4), in order: not those inside
    a reflexive trigger (its own ability chooses when it is put on the Chain, 381.1)."""
    out = []
    for i in instructions:
        if i.verb == "reflexive":
            continue
        if i.chooses:
            out.append(i)
        out.extend(chosen(i.body) if i.verb in ("ifdo", "may", "legion", "if", "otherwise", "both", "unless") else [])
    return out


def target_count(text: str) -> int:
    return sum(i.aim.most for i in chosen(parse(text)))


def needs_place(text: str) -> bool:
    return any(i.verb == "move" and i.place is None for i in _walk(parse(text)) if i.verb != "reflexive")


# --- costs -----------------------------------------------------------------------------------------------
def parse_cost(raw: object) -> Cost:
    """``[2][R]``, ``2``, ``{energy: 2, power: [Fury]}``, ``exhaust``, ``[1], [E]``, ``Recycle 1 from your trash``."""
    if isinstance(raw, str) and raw:
        return _parse_cost_text(raw)
    return _parse_cost(raw)


@cache
def _parse_cost_text(raw: str) -> Cost:
    return _parse_cost(raw)


def _parse_cost(raw: object) -> Cost:
    if raw is None or raw == "":
        return Cost()
    if isinstance(raw, bool):
        raise ValueError(f"cannot read the cost {raw!r}")
    if isinstance(raw, int):
        if raw < 0:
            raise ValueError(f"a cost is not negative: {raw}")
        return Cost(raw)
    if isinstance(raw, dict):
        unknown = set(raw) - {"energy", "power"}
        if unknown:
            raise ValueError(f'unknown cost key "{sorted(unknown)[0]}" (energy, power)')
        energy = raw.get("energy") or 0
        if isinstance(energy, bool) or not isinstance(energy, int) or not 0 <= energy <= 99:
            raise ValueError(f"energy is a whole number from 0 to 99, not {energy!r}")
        power = raw.get("power") or []
        if isinstance(power, str):
            power = [power]
        if not isinstance(power, list):
            raise ValueError(f"power is a list of domains, not {power!r}")
        return Cost(energy, tuple(_domain(p) for p in power))
    cost = cardtext.read_cost(re.sub(r"\]\s+\[", "][", normalise(str(raw))).replace("[e]", "exhaust"))
    if cost.energy > 99:
        raise ValueError(f"an energy cost is at most 99, not {cost.energy}")
    return cost


def _domain(value: object) -> str:
    text = str(value).strip()
    low = text.lower().strip("[]")
    if low in DOMAINS:
        return DOMAINS[low]
    if low in ("a", "any"):
        return "any"
    if low in ("c", "card"):
        return "card"
    for name in DOMAIN_NAMES:
        if name.lower() == low:
            return name
    raise ValueError(f'unknown domain "{text}" (domains: {", ".join(DOMAIN_NAMES)}, or [A] for any)')


def domain(value: object) -> str:
    """A domain's name (``Fury``) from a name or its shorthand (``R``); ValueError otherwise."""
    d = _domain(value)
    if d in ("any", "card"):
        raise ValueError(f'"{value}" is not a domain (domains: {", ".join(DOMAIN_NAMES)})')
    return d


# --- replacement effects' conditions ---------------------------------------------------------------------
WHEN_VOCABULARY = (
    "this would die",
    "a [friendly|enemy] unit would die",
    "another [friendly|enemy] unit would die",
    "this would be dealt damage",
    "a [friendly|enemy] unit would be dealt damage",
    "another [friendly|enemy] unit would be dealt damage",
)
_WHEN = re.compile(
    r"^(?:if |when )?(?:the next time )?(?P<who>this(?: unit| gear)?|me|i|(?:a|an|another) (?:(?P<side>friendly|enemy) )?unit)"
    r" would (?P<event>die|be killed|be dealt damage|take damage)$"
)


def parse_when(text: str) -> tuple[str, str]:
    """A replacement effect's ``when``: (who, event), ``who`` one of ``this``, ``unit``, ``friendly``, ``enemy``,
    ``other``, ``other friendly``; ``event`` ``die`` or ``damage``. ``ValueError`` outside the vocabulary.

    >>> parse_when("The next time a friendly unit would die"), parse_when("this would be dealt damage")
    (('friendly', 'die'), ('this', 'damage'))
    """
    m = _WHEN.match(" ".join(str(text).lower().split()).rstrip(".,"))
    if not m:
        raise ValueError(f'unknown replacement condition "{text}"')
    who = m.group("who")
    if who.startswith(("this", "me")) or who == "i":
        who = "this"
    elif who.startswith("another"):
        who = (
            "other friendly"
            if m.group("side") == "friendly"
            else "other enemy"
            if m.group("side") == "enemy"
            else "other"
        )
    else:
        who = m.group("side") or "unit"
    return who, ("die" if m.group("event") in ("die", "be killed") else "damage")


# --- keywords ----------------------------------------------------------------------------------------------
def parse_keyword(word: object) -> tuple[str, int, Cost | None]:
    """``Assault 2`` -> ("Assault", 2, None); ``Repeat [2]`` / ``Equip [1][C]`` -> (name, 0, the cost)."""
    return _parse_keyword(str(word))


@cache
def _parse_keyword(word: str) -> tuple[str, int, Cost | None]:
    text = " ".join(str(word).replace("[", " [").split())
    m = re.match(r"^\[?(?P<kw>[A-Za-z-]+)\]?(?:\s+(?P<rest>.+))?$", text)
    if not m:
        raise ValueError(f'unknown keyword "{word}"')
    kw = next((k for k in KEYWORDS if k.lower() == m.group("kw").lower()), None)
    if kw is None:
        if m.group("kw").lower() == "mighty":
            raise ValueError('"Mighty" is not a keyword: a unit is Mighty while its Might is 5 or more (707, 708)')
        raise ValueError(f'unknown keyword "{word}"')
    rest = (m.group("rest") or "").strip()
    if kw in ("Repeat", "Equip"):
        if not rest:
            raise ValueError(f'{kw} needs its cost: "{kw} [2]"')
        return kw, 0, parse_cost(rest)
    if rest:
        if not KEYWORD_VALUES[kw] or not rest.isdigit() or not 1 <= int(rest) <= 99:
            raise ValueError(f'"{word}": {kw} takes {"a value from 1 to 99" if KEYWORD_VALUES[kw] else "no value"}')
        return kw, int(rest), None
    return kw, 1 if KEYWORD_VALUES[kw] else 0, None


# --- the abilities of a card's text ----------------------------------------------------------------------------
@cache
def parse_triggers(condition: str) -> tuple[TriggerSpec, ...]:
    """A triggered ability's condition (the words before the comma), read by the grammar of
    :mod:`engine.riftbound.cardtext`: the event or events it names; ValueError when it is not one read there."""
    return cardtext.read_triggers(normalise(condition).rstrip(","))


def parse_trigger(condition: str) -> TriggerSpec:
    """The one event a triggered ability's condition names (:func:`parse_triggers`)."""
    specs = parse_triggers(condition)
    if len(specs) != 1:
        raise ValueError(f'"{condition.strip()}" names {len(specs)} events: one triggered ability each')
    return specs[0]


@dataclass(frozen=True)
class TextAbility:
    """One ability read from a card's text: kind ``keyword``, ``activated``, ``triggered``, ``replacement``,
    ``passive``, ``additional_cost``, ``optional_cost`` or ``instructions`` (a spell's, or a permanent's play effect by default)."""

    kind: str
    text: str
    cost: Cost | None = None
    trigger: TriggerSpec | None = None
    effect: str = ""
    keywords: tuple[tuple[str, int], ...] = ()
    data: tuple = field(default=())


_OPENERS = re.compile(
    r"^(?:when |whenever |at the (?:start|end) |the (?:first|second|third) time |if .+ would |(?:\[?[a-z-]+\]? ?\d* ?)?- |"
    r"deathknell|legion|as an additional cost|i have |i enter |while |other |friendly |units here |"
    r"spells and abilities |your spells |your equipment |opponents can't |players can't |(?:\[[^\]]+\]|exhaust|recycle|discard|kill this)[^:]*: )"
)


@cache
def abilities(text: str) -> tuple[TextAbility, ...]:
    """The abilities of a card's text, one per paragraph or per sentence that opens a new ability."""
    out: list[TextAbility] = []
    for paragraph in [p for p in re.split(r"\n", str(text or "")) if p.strip()]:
        norm = normalise(paragraph)
        if not norm:
            continue
        pieces: list[str] = []
        for sentence in re.split(r"(?<=\.)\s+", norm):
            if pieces and _OPENERS.match(sentence) and not sentence.startswith(("if you do", "if this kills")):
                pieces.append(sentence)
            elif pieces:
                pieces[-1] += " " + sentence
            else:
                pieces.append(sentence)
        for piece in pieces:
            read = _ability(piece)
            out.extend(read if isinstance(read, tuple) else (read,))
    return tuple(out)


_KEYWORD_LINE = re.compile(
    r"^(?P<kws>(?:(?:assault|shield|deflect|tank|ganking|action|reaction|hidden|temporary|vision|"
    r"accelerate|quick-draw|weaponmaster)(?: \d+)?[ ,]*)+)\.?$"
)


def _ability(text: str) -> TextAbility | tuple[TextAbility, ...]:
    t = text.strip().rstrip(".")
    if _KEYWORD_LINE.match(t):
        return TextAbility(
            "keyword",
            t,
            keywords=tuple(
                (parse_keyword(k)[0], parse_keyword(k)[1]) for k in re.split(r"[ ,]+(?=[a-z])", t) if k.strip()
            ),
        )
    m = re.match(r"^(?:repeat|equip) (?P<cost>(?:\[[^\]]+\])+)$", t)
    if m:
        kw = "Repeat" if t.startswith("repeat") else "Equip"
        return TextAbility("keyword", t, cost=parse_cost(m.group("cost")), keywords=((kw, 0),))
    m = re.match(r"^(?:deathknell|\[deathknell\])\s*-\s*(?P<effect>.+)$", t)
    if m:
        parse(m.group("effect"))
        return TextAbility(
            "triggered", t, trigger=TriggerSpec("die"), effect=m.group("effect"), keywords=(("Deathknell", 0),)
        )
    m = re.match(r"^legion\s*-\s*(?P<cond>(?:when|whenever) [^,]+), (?P<effect>.+)$", t)
    if m:
        # Legion on a triggered ability ("[Legion] - When you play me, ready me"): the trigger's effect applies
        # only if its condition holds (738)
        spec = parse_trigger(m.group("cond"))
        effect = "legion - " + m.group("effect")
        parse(effect)
        return TextAbility("triggered", t, trigger=spec, effect=effect, keywords=(("Legion", 0),))
    m = re.match(r"^legion\s*-\s*(?P<effect>.+)$", t)
    if m:
        passive = cardtext.read_passive(m.group("effect"))
        if passive is not None and passive[0] == "self_discount" and not passive[2]:
            # "[Legion] - I cost [2] less": the discount applies if another card was played this turn (738)
            return TextAbility("passive", t, data=(*passive[:2], "legion", passive[3]), keywords=(("Legion", 0),))
        # "[Legion] - Kill it now instead": read with its Legion, in place of what the effect set up before
        parse(("legion - " if m.group("effect").endswith(" now instead") else "") + m.group("effect"))
        return TextAbility("legion", t, effect=m.group("effect"), keywords=(("Legion", 0),))
    optional = _optional_cost(t)
    if optional is not None:
        return optional
    m = re.match(r"^as an additional cost to play (?:me|this), (?P<what>.+)$", t)
    if m:
        ins = _one(m.group("what"))
        return TextAbility("additional_cost", t, cost=Cost(extra=(ins,)))
    m = re.match(
        r"^(?P<cond>(?:when|whenever|at (?:the )?(?:start|end) of|the (?:first|second|third) time) [^,]+"
        r"(?:, if i'm at a battlefield|(?:, (?:or )?(?:played|discarded|killed)\b)+)?), "
        r"(?P<effect>.+)$",
        t,
    )
    if m:
        try:
            specs = parse_triggers(m.group("cond"))
        except ValueError:
            if not m.group("cond").endswith(" this turn"):
                raise
            # "When any unit takes damage this turn, kill it": a delayed trigger a spell creates (383.2)
            parse(t)
            return TextAbility("instructions", t, effect=t)
        if any(i.verb in ("play_self", "return_self") for i in _walk(parse(m.group("effect")))):
            # "... return this from your trash to your hand": it says it is active from the trash (378.2)
            specs = tuple(replace(spec, zone="trash") for spec in specs)
        # "When I attack or defend, ...": a triggered ability for each event
        return tuple(TextAbility("triggered", t, trigger=spec, effect=m.group("effect")) for spec in specs)
    m = re.match(r"^(?P<cost>[^:]+): (?P<kws>(?:(?:action|reaction|legion)(?:,| -) )*)(?P<effect>.+)$", t)
    if m and not t.startswith(("if ", "while ")) and "do this" not in m.group("cost") and ". " not in m.group("cost"):
        cost = parse_cost(m.group("cost"))
        kws = tuple((k.capitalize(), 0) for k in re.findall(r"(action|reaction|legion)(?:,| -)", m.group("kws")))
        effect, only, spend = m.group("effect"), None, ""
        last = re.match(r"^(?P<effect>.+?)\.? (?P<only>use this ability only .+)$", effect)
        if last:  # a condition on using it (377.2.b): "Use this ability only while I'm at a battlefield"
            read = cardtext.read_passive(last.group("only"))
            if read is None or read[0] != "ability_only":
                raise ValueError(f'unknown effect "{last.group("only")}"')
            effect, only = last.group("effect"), read[1]
        last = re.match(r"^(?P<effect>(?:\[add\]|add) [^.]+?)\.? use only to play spells$", effect)
        if last:  # "[Add] [A]. Use only to play spells": what the resources added may pay for
            effect, spend = last.group("effect"), "spell"
        effect = ("legion - " if ("Legion", 0) in kws else "") + effect
        parse(effect)
        data = (*((("only", only),) if only else ()), *((("spend_only", spend),) if spend else ()))
        return TextAbility("activated", t, cost=cost, effect=effect, keywords=kws, data=data)
    if re.match(
        # as printed ("..., recall ALL units instead") and as the Spiritforged FAQ words it
        r"^if a combat where you are the attacker ends in a tie(?: that would recall any of your units)?, recall all "
        r"units(?: at that battlefield)? instead$",
        t,
    ):
        return TextAbility("passive", t, data=("tie_recall_all",))
    if re.search(r"\bwould\b.*\binstead\b|\binstead\b.*\bwould\b", t) and not re.search(
        r"\bthe next time it would die this turn\b", t
    ):  # (not "choose a unit. The next time it would die this turn, ... instead": a delayed one an effect sets up)
        return TextAbility("replacement", t)
    passive = parse_passive(t)
    if passive is not None:
        return TextAbility("passive", t, data=passive)
    parse(t)
    return TextAbility("instructions", t, effect=t)


def _optional_cost(t: str) -> TextAbility | None:
    """An optional additional cost (356.2.b), and what paying it does: to the card's own cost ("If you do,
    ignore this spell's cost"), or instructions done only if it was paid ("If you do, draw 2. Otherwise,
    draw 1.", read as "if you paid the additional cost, ...")."""
    first, _, rest = t.partition(". ")
    cost = cardtext.read_additional(first.rstrip("."))
    if cost is None:
        return None
    rest = rest.strip().rstrip(".")
    modifier = cardtext.read_paid_modifier(rest) if rest else ()
    effect = ""
    if modifier is None:
        modifier = ()
        effect = re.sub(r"^if you do,", "if you paid the additional cost,", rest)
        parse(effect)
    return TextAbility("optional_cost", t, cost=cost, effect=effect, data=modifier)


# --- passive abilities ---------------------------------------------------------------------------------------
def parse_passive(text: str) -> tuple | None:
    """A passive ability (364) as (kind, fields...), read by the grammar of :mod:`engine.riftbound.cardtext`
    (:func:`~engine.riftbound.cardtext.read_passive`), or None when the statement is not one read there; a
    ``While ...,`` statement whose condition is not read is refused naming it."""
    t = normalise(text).rstrip(".")
    read = cardtext.read_passive(t)
    if read is None and t.startswith("while "):
        cond = t.removeprefix("while ").split(",", 1)[0]
        if cardtext.read_passive(f"while {cond}, i have +1 might") is None:
            raise ValueError(f'unknown condition "while {cond}"')
    return read
