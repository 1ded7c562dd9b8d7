"""Reading card text: effects (``cards.*.effect``) into instructions, costs (``[2][R]``, ``[E]``), keywords with
values (``Assault 2``) and the abilities of a card's text (activated ``COST: EFFECT``, triggered ``When ...``,
replacement ``If ... would ..., ... instead``, passive statements).

The words are the cards' own (Core Rules v1.2, 051: card text is read by the rules): ``Deal 3 to a unit at a
battlefield``, ``Buff up to two other friendly units``, ``Play a 1 [M] Recruit unit token here``. Reminder
text in parentheses is ignored (134.2.d.3). Anything else is refused with the words it could not read.

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
from dataclasses import dataclass, field
from functools import cache

VOCABULARY = (
    "deal N to a unit",
    "deal damage equal to my Might to a unit",
    "deal N to all units at PLACE",
    "they deal damage equal to their Mights to each other",
    "kill a unit",
    "banish a unit",
    "return a unit to its owner's hand",
    "move a unit [to PLACE]",
    "recall a unit [exhausted]",
    "ready a unit",
    "exhaust a unit",
    "stun a unit",
    "buff a unit",
    "heal a unit",
    "give a unit +N might this turn",
    "give a unit -N might this turn[, to a minimum of 1]",
    "give a unit [KEYWORD] this turn",
    "give a unit my keywords and +[M] equal to my Might this turn",
    "draw N",
    "discard N",
    "its controller draws N",
    "score N",
    "channel N runes [exhausted]",
    "add [N][R]",
    "ready N runes",
    "you must recycle one of your runes",
    "recycle N from your trash",
    "play a N might NAME unit token [with KEYWORD] [here | to your base | to PLACE]",
    "counter a spell",
    "attach this to a unit you control",
    "choose a unit",
    "gain control of a unit",
    "do this: EFFECT",
    "do this twice: EFFECT",
    "if this kills it, do this: EFFECT",
    "if you do, EFFECT",
    "you may EFFECT",
    "you may COST to EFFECT",
    "heal your units here",
    "look at the top N cards of your Main Deck",
    "reveal the top N cards of your Main Deck",
    "deal N to it for each card with KEYWORD revealed this way",
    "recycle it | recycle the revealed cards",
    "play a card [with KEYWORD] from your hand[, ignoring its cost]",
    "if it's a unit, play it here",
    "banish a unit from among them [that has Might up to N more than the killed unit] and play it[, ignoring its cost]",
)
DOMAINS = {"r": "Fury", "g": "Calm", "b": "Mind", "o": "Body", "p": "Chaos", "y": "Order"}
DOMAIN_NAMES = tuple(DOMAINS.values())
NUMBERS = {"a": 1, "an": 1, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "twice": 2}
# Keywords of the keyword glossary (731-747); those marked True take a value (Assault 2, Repeat [2]).
KEYWORD_VALUES = {
    "Accelerate": False,
    "Action": False,
    "Assault": True,
    "Deathknell": False,
    "Deflect": True,
    "Ganking": False,
    "Hidden": False,
    "Legion": False,
    "Reaction": False,
    "Shield": True,
    "Tank": False,
    "Temporary": False,
    "Vision": False,
    "Equip": True,
    "Quick-Draw": False,
    "Repeat": True,
    "Weaponmaster": False,
}
KEYWORDS = tuple(KEYWORD_VALUES)


@dataclass(frozen=True)
class Cost:
    """A cost: ``energy`` ([2]), ``power`` (domains; ``any`` for [A], ``card`` for [C]), exhausting the
    object ([E]) and other instructions paid as a cost (``Recycle 1 from your trash``, ``Discard 1``)."""

    energy: int = 0
    power: tuple[str, ...] = ()
    exhaust: bool = False
    extra: tuple[Instruction, ...] = ()

    def __bool__(self) -> bool:
        return bool(self.energy or self.power or self.exhaust or self.extra)

    def __add__(self, other: Cost) -> Cost:
        return Cost(
            self.energy + other.energy,
            self.power + other.power,
            self.exhaust or other.exhaust,
            self.extra + other.extra,
        )

    def text(self) -> str:
        parts = ([f"[{self.energy}]"] if self.energy else []) + [f"[{_SHORT.get(p, p)}]" for p in self.power]
        out = "".join(parts)
        words = [out] if out else []
        if self.exhaust:
            words.append("[E]")
        words += [i.text for i in self.extra]
        return ", ".join(words) or "[0]"


_SHORT = {v: k.upper() for k, v in DOMAINS.items()} | {"any": "A", "card": "C"}


@dataclass(frozen=True)
class Target:
    """What an instruction chooses (352.6) or acts on.

    ``kind``: ``unit``, ``gear``, ``permanent`` (a unit or a gear), ``spell``, ``facedown`` (a facedown card),
    ``card`` (a card in a trash), ``me`` (the object the ability belongs to), ``that`` (what a replacement's
    event acts on), ``it`` (the object an earlier instruction of the same effect chose or acted on), ``each``
    (every unit that fits, chosen by no one: not a target, 352.10.d), ``hand`` / ``looked`` (a card of its
    controller's hand, or among the cards it looked at, chosen as it resolves: not a target).
    ``side``: ``friendly``, ``enemy``, or ``your`` (controlled by you). ``where``: ``at a battlefield``,
    ``here``, ``in a base``, ``at another location``, ``at its destination``. ``other``: not the object the
    ability belongs to. ``count``: how many distinct objects (``two friendly units``); ``upto``: any number
    from 0 to it (352.13). ``filters``: (``might_max``, N), (``keyword``, K), (``tag``, T), (``state``, S),
    (``mighty``, True), (``total_might``, N): a group requirement of all the chosen together (352.11)."""

    kind: str
    side: str | None = None
    where: str | None = None
    other: bool = False
    count: int = 1
    upto: int = 0
    filters: tuple[tuple[str, object], ...] = ()

    @property
    def chooses(self) -> bool:
        return self.kind not in ("me", "that", "it", "they", "each", "hand", "looked")

    @property
    def most(self) -> int:
        return self.upto or self.count


@dataclass(frozen=True)
class Instruction:
    verb: str
    amount: int = 0
    target: Target | None = None
    place: str | None = None  # a literal destination for ``move``; None: chosen as the card is played
    data: tuple = ()  # what else the verb needs: keywords granted, a token's name, "this turn", a minimum
    body: tuple[Instruction, ...] = ()  # reflexive, "if you do", "you may": the instructions they govern
    times: int = 1
    text: str = ""  # as written

    @property
    def aim(self) -> Target:
        """What the instruction acts on, for one that acts on something."""
        assert self.target is not None, self
        return self.target

    @property
    def chooses(self) -> bool:
        """Does this instruction take names from the action's ``targeting``?"""
        return self.target is not None and self.target.chooses


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
    return " ".join(t.lower().split())


def split(text: str) -> list[str]:
    parts = re.split(r"\.\s+|;\s*|,?\s+then\s+(?!do this)", str(text).strip().rstrip("."))
    return [p.strip() for p in parts if p.strip()]


# --- targets ---------------------------------------------------------------------------------------------
_COUNT = r"(?:(?P<upto>up to (?P<un>\w+))|(?P<anynum>any number of)|(?P<n>two|three|four|2|3|4)|target|an|a|one)"
_NOUNS = {
    "unit": "unit",
    "units": "unit",
    "gear": "gear",
    "gears": "gear",
    "spell": "spell",
    "spells": "spell",
    "facedown card": "facedown",
    "facedown cards": "facedown",
    "permanent": "permanent",
    "unit card": "card",
    "card": "card",
    "equipment": "gear",
    "unit or gear": "permanent",
    "gear or unit": "permanent",
    "gear, unit, or facedown card": "any",
    "rune": "rune",
    "runes": "rune",
    "legend": "legend",
    "battlefield": "battlefield",
    "mech": "unit",
    "mechs": "unit",
}
_TARGET_RE = re.compile(
    rf"^(?:{_COUNT}\s+)?(?P<other>another |other )?(?P<state>ready |exhausted |stunned |buffed |damaged |mighty )?"
    r"(?P<side>friendly |enemy |your )?(?P<tag>recruit |equipment )?"
    r"(?P<noun>gear, unit, or facedown card|unit or gear|gear or unit|facedown cards?|unit card|units?|gears?|"
    r"spells?|permanents?|equipment|runes?|legend|battlefield|card|mechs?)"
    r"(?P<rest>.*)$"
)
_QUALIFIERS = [
    ("you control", re.compile(r"^ (?:you control|of yours)")),
    ("at a battlefield", re.compile(r"^ at a battlefield")),
    ("here", re.compile(r"^ (?:here|at my battlefield|at this battlefield)")),
    ("in a base", re.compile(r"^ in (?:a|its|their) base")),
    ("at another location", re.compile(r"^ at another location")),
    ("at its destination", re.compile(r"^ at its destination")),
    ("in your trash", re.compile(r"^ (?:in|from) your trash(?= |$)")),
    ("in an opponent's trash", re.compile(r"^ (?:in|from) an opponent'?s'? trash(?= |$)")),
    (
        "might",
        re.compile(
            r"^ with (?:might|\d+ might) (?P<m>\d+) or less|^ with (?P<m2>\d+) might or less|^ with might up to (?P<m3>\d+)"
        ),
    ),
    (
        "keyword",
        re.compile(r"^ with (?P<kw>assault|shield|deflect|tank|ganking|hidden|deathknell|temporary|vision|accelerate)"),
    ),
    ("cost", re.compile(r"^ (?:that costs|with (?:a )?cost(?: of)?) (?:no more than )?\[(?P<c>\d+)\](?: or less)?")),
    ("total might", re.compile(r"^ with (?:a )?total might (?:of )?(?P<t>\d+) or less")),
]


def parse_target(text: str) -> tuple[Target, str]:
    """A target phrase at the start of ``text``: the :class:`Target` and what follows it."""
    t = text.strip()
    m = re.match(r"^(?:your |a )?chosen champion(?: from your trash| in your trash)?(?P<rest>.*)$", t)
    if m:
        return Target("card", "your", None, filters=(("champion", True),)), m.group("rest")
    for word, kind in (
        ("me", "me"),
        ("myself", "me"),
        ("this", "me"),
        ("itself", "me"),
        ("that unit", "that"),
        ("it", "it"),
        ("them", "they"),
        ("they", "they"),
    ):
        if t == word or t.startswith(word + " ") or t.startswith(word + ","):
            if word == "this" and re.match(r"^this (?:unit|gear|spell)\b", t):
                return Target("me"), t.split(" ", 2)[2] if t.count(" ") >= 2 else ""
            return Target(kind), t[len(word) :]
    m = _TARGET_RE.match(t)
    if not m:
        raise ValueError(f'cannot read the target "{text}"')
    count, upto = 1, 0
    if m.group("upto"):
        upto = _n(m.group("un"))
    elif m.group("anynum"):
        upto = 99
    elif m.group("n"):
        count = _n(m.group("n"))
    noun = _NOUNS[m.group("noun")]
    side = (m.group("side") or "").strip() or None
    filters: list[tuple[str, object]] = []
    if m.group("state"):
        st = m.group("state").strip()
        filters.append(("mighty", True) if st == "mighty" else ("state", st))
    if m.group("tag"):
        filters.append(("tag", m.group("tag").strip().capitalize()))
        if m.group("noun") == "equipment":
            pass
    if m.group("noun") == "equipment":
        filters.append(("tag", "Equipment"))
    if m.group("noun").startswith("mech"):
        filters.append(("tag", "Mech"))
    where = None
    rest = m.group("rest")
    while True:
        for name, rx in _QUALIFIERS:
            q = rx.match(rest)
            if not q:
                continue
            if name == "you control":
                side = "your"
            elif name == "might":
                filters.append(("might_max", int(q.group("m") or q.group("m2") or q.group("m3"))))
            elif name == "keyword":
                filters.append(("keyword", q.group("kw").capitalize()))
            elif name == "cost":
                filters.append(("cost_max", int(q.group("c"))))
            elif name == "total might":
                # a group requirement (352.11): met by the chosen units together, at one battlefield
                filters.append(("total_might", int(q.group("t"))))
            elif name == "in your trash":
                if noun in ("unit", "gear"):
                    filters.append(("type", noun))
                noun = "card"
                side = "your"
            elif name == "in an opponent's trash":
                noun = "card"
                side = "enemy"
            else:
                where = name
            rest = rest[q.end() :]
            break
        else:
            break
    return Target(noun, side, where, bool(m.group("other")), count, upto, tuple(filters)), rest


def _card_filters(what: str, keyword: str | None) -> tuple[tuple[str, object], ...]:
    out: list[tuple[str, object]] = [] if what == "card" else [("type", what)]
    if keyword:
        kw = next((k for k in KEYWORDS if k.lower() == keyword), None)
        if kw is None:
            raise ValueError(f'unknown keyword "{keyword}"')
        out.append(("keyword", kw))
    return tuple(out)


# --- instructions ----------------------------------------------------------------------------------------
_PLACE_WORDS = ("a battlefield", "a location", "target battlefield", "target location", "its destination", "place")


def _place(raw: str) -> str | None:
    raw = raw.strip()
    low = raw.lower()
    if low in _PLACE_WORDS:
        return None
    if low in ("base", "its base", "their base", "your base", "its owner's base", "its controller's base"):
        return "base"
    return raw


def _n(word: str) -> int:
    if word.isdigit():
        return int(word)
    if word in NUMBERS:
        return NUMBERS[word]
    raise ValueError(f'cannot read the number "{word}"')


def _power(symbols: str) -> tuple[int, tuple[str, ...]]:
    energy, power = 0, []
    for sym in re.findall(r"\[([^\]]+)\]", symbols):
        s = sym.strip().lower()
        if s.isdigit():
            energy += int(s)
        elif s in DOMAINS:
            power.append(DOMAINS[s])
        elif s == "a":
            power.append("any")
        elif s == "c":
            power.append("card")
        elif s.capitalize() in DOMAIN_NAMES:
            power.append(s.capitalize())
        else:
            raise ValueError(f'cannot read the symbol "[{sym}]"')
    return energy, tuple(power)


def _keyword_list(text: str) -> tuple[tuple[str, int], ...]:
    """``assault 2``, ``deflect, ganking, and shield`` -> (("Assault", 2), ...)."""
    out = []
    for part in re.split(r",\s*(?:and\s+)?|\s+and\s+", text.strip()):
        m = re.match(r"^(?P<kw>[a-z-]+)(?:\s+(?P<v>\d+))?$", part.strip())
        kw = m and next((k for k in KEYWORDS if k.lower() == m.group("kw")), None)
        if not m or kw is None:
            raise ValueError(f'unknown keyword "{part.strip()}"')
        out.append((kw, int(m.group("v") or (1 if KEYWORD_VALUES[kw] else 0))))
    return tuple(out)


def _one(part: str) -> Instruction:
    """One instruction (no sentence breaks)."""
    low = part.strip().lower().rstrip(".")
    if low.startswith("then ") and not low.startswith("then do this"):
        low = low[5:]  # "... Then recycle the rest." (a sentence of its own)
    m = re.match(r"^legion ?- ?(?P<body>.+)$", low)
    if m:
        return Instruction("legion", 0, None, body=tuple(_one(p) for p in _parts(m.group("body"))), text=part)
    m = re.match(r"^(?:you )?must (.+)$", low)
    if m:
        inner = _one(m.group(1))
        return Instruction(
            inner.verb, inner.amount, inner.target, inner.place, (*inner.data, "must"), inner.body, inner.times, part
        )
    m = re.match(
        r"^banish (?:a|an|one) (?P<what>card|unit|gear|spell) from among them(?: that has might up to "
        r"(?P<n>\d+) more than the killed unit)? and play it(?P<free>,? ignoring its cost)?$",
        low,
    )
    if m:
        filters = _card_filters(m.group("what"), None) + (
            (("might_killed_plus", int(m.group("n"))),) if m.group("n") else ()
        )
        return Instruction(
            "play_card",
            0,
            Target("looked", "your", filters=filters),
            data=("looked", "free" if m.group("free") else "", "banish"),
            text=part,
        )
    m = re.match(r"^you may (?:choose|target) (?P<t>.+)$", low)
    if m:
        # "you may choose a unit ...": an optional target, chosen as the ability goes on (up to one, 352.13)
        target, rest = parse_target(m.group("t"))
        if rest.strip():
            raise ValueError(f'cannot read "{rest.strip()}" in "{part}"')
        return Instruction(
            "choose", 0, Target(target.kind, target.side, target.where, target.other, 1, 1, target.filters), text=part
        )
    if re.match(r"^move me to its location and it to my (?:original )?location$", low):
        return Instruction("swap", 0, Target("it"), text=part)
    m = re.match(
        r"^you may (?:(?P<cost>pay \[.+?\]|exhaust me|spend (?:a|its) buff|discard \d+|kill [^,]+?) to )?(?P<what>.+)$",
        low,
    )
    if m:
        body = parse(m.group("what"))
        cost: tuple = ()
        if m.group("cost"):
            cost = (m.group("cost"),)
        return Instruction("may", 0, None, None, cost, body, 1, part)
    m = re.match(r"^(?:choose|target) (?P<t>.+)$", low)
    if m and not low.startswith("choose one"):
        target, rest = parse_target(m.group("t"))
        if rest.strip():
            raise ValueError(f'cannot read "{rest.strip()}" in "{part}"')
        return Instruction("choose", 0, target, text=part)
    m = re.match(r"^(?P<verb>look at|reveal) the top (?:(?P<n>\w+) )?cards? (?:of|from) your main deck$", low)
    if m:
        return Instruction(
            "look", _n(m.group("n") or "one"), data=("reveal" if m.group("verb") == "reveal" else "look",), text=part
        )
    m = re.match(
        r"^deal (?P<n>\d+)(?: damage)? to (?P<t>that unit|it|them) for each card with (?P<kw>[a-z-]+) "
        r"(?:revealed|looked at) this way$",
        low,
    )
    if m:
        kw = next((k for k in KEYWORDS if k.lower() == m.group("kw")), None)
        if kw is None:
            raise ValueError(f'unknown keyword "{m.group("kw")}"')
        return Instruction("deal_per", int(m.group("n")), Target("it"), data=(kw,), text=part)
    if re.match(r"^recycle (?:it|them|the revealed cards|the cards revealed this way|the rest|those cards)$", low):
        return Instruction("recycle_looked", text=part)
    m = re.match(r"^deal (?P<n>\d+|x)(?: damage)? to (?P<t>.+)$", low)
    if m:
        rest_all = re.match(
            r"^(?:all|each) (?P<what>units?|enemy units|friendly units)(?: (?P<where>at (?:my|its|this) battlefield|here|at (?:a|that) battlefield|there|at battlefields))?$",
            m.group("t"),
        )
        if rest_all:
            side = (
                "enemy"
                if "enemy" in rest_all.group("what")
                else "friendly"
                if "friendly" in rest_all.group("what")
                else None
            )
            where = rest_all.group("where") or ""
            if where == "at a battlefield":
                # "Deal N to all units at a battlefield" targets the battlefield, not the units (352.10.b)
                return Instruction("deal_all", int(m.group("n")), Target("battlefield", side), text=part)
            return Instruction(
                "deal_all",
                int(m.group("n")),
                Target(
                    "each",
                    side,
                    "here"
                    if where
                    in (
                        "at my battlefield",
                        "at its battlefield",
                        "at this battlefield",
                        "here",
                        "at that battlefield",
                        "there",
                    )
                    else "battlefields"
                    if where == "at battlefields"
                    else None,
                ),
                text=part,
            )
        target, rest = parse_target(m.group("t"))
        if rest.strip():
            raise ValueError(f'cannot read "{rest.strip()}" in "{part}"')
        return Instruction("deal", int(m.group("n")), target, text=part)
    m = re.match(r"^deal damage equal to (?:my|its) might to (?P<t>.+)$", low)
    if m:
        target, rest = parse_target(m.group("t"))
        if rest.strip():
            raise ValueError(f'cannot read "{rest.strip()}" in "{part}"')
        return Instruction("deal_might", 0, target, text=part)
    if re.match(r"^(?:they|them|those units) deal damage equal to their mights? to each other$", low):
        return Instruction("fight", 0, Target("they"), text=part)
    m = re.match(
        r"^(?P<verb>kill|banish|ready|exhaust|stun|buff|heal|counter|recall|return|gain control of|detach)"
        r" (?P<t>.+)$",
        low,
    )
    if m:
        verb = {"gain control of": "control"}.get(m.group("verb"), m.group("verb"))
        t = m.group("t")
        if verb == "heal" and re.match(r"^(?:your|all friendly|friendly) units(?: here)?$", t):
            return Instruction("heal_all", 0, Target("each", "your", "here" if t.endswith("here") else None), text=part)
        if verb == "kill" and re.match(r"^all units(?: (?:here|at (?:a|that|my) battlefield))?$", t):
            return Instruction(
                "kill_all", 0, Target("each", None, "here" if "here" in t or "my" in t else None), text=part
            )
        if verb == "ready" and re.match(r"^(?:up to )?(?:\w+ )?(?:friendly )?runes?$", t):
            mm = re.match(r"^(?:(?P<up>up to) )?(?P<n>\w+)? ?(?:friendly )?runes?$", t)
            assert mm is not None
            return Instruction(
                "ready_runes", _n(mm.group("n") or "a"), None, data=("upto",) if mm.group("up") else (), text=part
            )
        target, rest = parse_target(t)
        rest = rest.strip()
        data: tuple = ()
        if verb == "return":
            if not re.match(r"^(?:from your trash )?to (?:its|their|your) (?:owners?'?s?'? )?hands?$", rest):
                raise ValueError(f'"return" takes "to its owner\'s hand", not "{rest}"')
            rest = ""
        if verb == "recall" and rest == "exhausted":
            return Instruction("recall", 0, target, data=("exhausted",), text=part)
        if verb == "counter" and target.kind != "spell":
            raise ValueError('"counter" takes "a spell"')
        if rest == "this turn" and verb in ("stun",):
            rest = ""
        if rest:
            raise ValueError(f'cannot read "{rest}" in "{part}"')
        return Instruction(verb, 0, target, data=data, text=part)
    m = re.match(r"^move (?P<t>(?:up to \w+ |any number of )?.+?)(?: (?P<here>from here )?to (?P<place>.+))?$", low)
    if m:
        target, rest = parse_target(m.group("t"))
        if rest.strip() and rest.strip() not in ("from here",):
            raise ValueError(f'cannot read "{rest.strip()}" in "{part}"')
        if (m.group("here") or rest.strip() == "from here") and target.where is None:
            target = Target(target.kind, target.side, "here", target.other, target.count, target.upto, target.filters)
        raw = part[part.lower().rfind(" to ") + 4 :].strip() if m.group("place") else "a location"
        return Instruction("move", 0, target, _place(raw), text=part)
    m = re.match(
        r"^give (?P<t>.+?) (?P<sign>[+-])(?P<n>\d+) might(?P<turn> this turn)?(?P<min>,? to a minimum of (?P<mn>\d+) might)?$",
        low,
    )
    if m:
        target, rest = parse_target(m.group("t"))
        if rest.strip():
            raise ValueError(f'cannot read "{rest.strip()}" in "{part}"')
        n = int(m.group("n")) * (-1 if m.group("sign") == "-" else 1)
        data = (("minimum", int(m.group("mn"))),) if m.group("min") else ()
        if not m.group("turn"):
            raise ValueError(f'"{part}": say how long ("this turn")')
        return Instruction("might", n, target, data=data, text=part)
    m = re.match(r"^give (?P<t>.+?) my keywords and \+might equal to my might this turn$", low)
    if m:
        target, rest = parse_target(m.group("t"))
        return Instruction("give_mine", 0, target, text=part)
    m = re.match(r"^give \+might equal to its might to (?P<t>.+?) this turn$", low)
    if m:
        target, rest = parse_target(m.group("t"))
        return Instruction("might_of_it", 0, target, text=part)
    m = re.match(
        r"^give (?P<t>.+?) (?P<kws>(?:assault|shield|deflect|tank|ganking|deathknell|temporary|vision|hidden|"
        r"accelerate|action|reaction)(?: \d+)?(?:(?:,| and|, and) (?:assault|shield|deflect|tank|ganking)(?: \d+)?)*)"
        r"(?P<turn> this turn)?$",
        low,
    )
    if m:
        target, rest = parse_target(m.group("t"))
        if rest.strip():
            raise ValueError(f'cannot read "{rest.strip()}" in "{part}"')
        return Instruction("grant", 0, target, data=(_keyword_list(m.group("kws")), bool(m.group("turn"))), text=part)
    m = re.match(r"^(?P<who>its controller |you )?draws? (?P<n>\d+|a card|one)(?: cards?)?$", low)
    if m:
        n = 1 if m.group("n") in ("a card", "one") else int(m.group("n"))
        who = "it" if (m.group("who") or "").startswith("its") else "you"
        return Instruction("draw", n, None, data=(who,), text=part)
    m = re.match(r"^discard (?P<n>\d+)$", low)
    if m:
        return Instruction("discard", int(m.group("n")), text=part)
    m = re.match(r"^(?:you )?(?:score|gain) (?P<n>\d+)(?: points?)?$", low)
    if m:
        return Instruction("score", int(m.group("n")), text=part)
    m = re.match(r"^channel (?P<n>\w+) runes?(?P<ex> exhausted)?$", low)
    if m:
        return Instruction("channel", _n(m.group("n")), data=("exhausted",) if m.group("ex") else (), text=part)
    m = re.match(r"^add (?P<sym>(?:\[[^\]]+\])+)$", low)
    if m:
        energy, power = _power(m.group("sym"))
        return Instruction("add", energy, data=power, text=part)
    m = re.match(r"^recycle (?:one of your runes|a rune(?: you control)?)$", low)
    if m:
        return Instruction("recycle_rune", 1, text=part)
    m = re.match(
        r"^play (?:a|an|one) (?P<what>card|unit|gear|spell)(?: with (?P<kw>[a-z-]+))? from your hand"
        r"(?P<free>,? ignoring its cost)?$",
        low,
    )
    if m:
        return Instruction(
            "play_card",
            0,
            Target("hand", "your", filters=_card_filters(m.group("what"), m.group("kw"))),
            data=("hand", "free" if m.group("free") else ""),
            text=part,
        )
    if re.match(r"^if it'?s a unit, play it here$", low):
        return Instruction("unit_here", text=part)
    if re.match(r"^prevent all damage that would be dealt this turn by spells and abilities$", low):
        return Instruction("prevent_all", text=part)
    m = re.match(r"^recycle (?P<n>\d+) from your trash$", low)
    if m:
        return Instruction("recycle_trash", int(m.group("n")), text=part)
    m = re.match(r"^recycle (?P<t>(?:a|an|target|up to \w+) .*card.*)$", low)
    if m:
        target, rest = parse_target(m.group("t"))
        if rest.strip():
            raise ValueError(f'cannot read "{rest.strip()}" in "{part}"')
        return Instruction("recycle", 0, target, text=part)
    m = re.match(r"^recycle (?P<t>(?:a|an|target|another|up to \w+) .+)$", low)
    if m:
        # a unit or gear on the board (403.1.a); a token's destination is the Spiritforged FAQ's (faq-spiritforged-24)
        target, rest = parse_target(m.group("t"))
        if rest.strip():
            raise ValueError(f'cannot read "{rest.strip()}" in "{part}"')
        if target.kind not in ("unit", "gear", "permanent"):
            raise ValueError(f'cannot recycle "{m.group("t")}" (a unit, a gear, or a card in a trash)')
        return Instruction("recycle", 0, target, text=part)
    if re.match(r"^play me from (?:your|the) trash(?:, ignoring its cost)?$", low):
        return Instruction("play_self", text=part)
    m = re.match(
        r"^play (?P<t>(?:a|an|target) (?:unit|gear|card).*? (?:from|in) your trash)(?P<free>,? ignoring its cost)?$",
        low,
    )
    if m:
        target, rest = parse_target(m.group("t"))
        if rest.strip():
            raise ValueError(f'cannot read "{rest.strip()}" in "{part}"')
        return Instruction("play_from", 0, target, data=("free",) if m.group("free") else (), text=part)
    m = re.match(
        r"^play (?P<n>a|an|one|two|three|\d+) (?P<m>\d+) might (?P<name>[a-z' -]+?) unit tokens?"
        r"(?: with (?P<kws>[a-z -]+?(?: \d+)?))?(?P<ready> ready)?(?: (?P<where>here|to (?:your |its )?base|to (?P<place>.+)))?$",
        low,
    )
    if m:
        name = part[m.start("name") : m.end("name")].strip().title()
        kws = _keyword_list(m.group("kws")) if m.group("kws") else ()
        where = (
            "here"
            if m.group("where") == "here"
            else "base"
            if m.group("where") and "base" in m.group("where")
            else (part[m.start("place") : m.end("place")].strip() if m.group("place") else None)
        )
        return Instruction(
            "token",
            int(m.group("m")),
            None,
            where,
            (name, kws, bool(m.group("ready"))),
            times=_n(m.group("n")),
            text=part,
        )
    m = re.match(r"^weaponmaster (?P<t>.+)$", low)
    if m:
        target, rest = parse_target(m.group("t"))
        return Instruction("weaponmaster", 0, target, text=part)
    m = re.match(r"^attach (?:this|me|it) to (?P<t>.+)$", low)
    if m:
        target, rest = parse_target(m.group("t"))
        if rest.strip() not in ("", "here"):
            raise ValueError(f'cannot read "{rest.strip()}" in "{part}"')
        if rest.strip() == "here" and target.where is None:
            target = Target(target.kind, target.side, "here", target.other, target.count, target.upto, target.filters)
        return Instruction("attach", 0, target, text=part)
    raise ValueError(f'unknown effect "{part.strip()}"')


_REFLEXIVE = re.compile(
    r"^(?P<cond>if this kills it,? |if you do,? |then )?do this(?P<times> twice| (?P<n>\w+) times)?: ?(?P<body>.+)$"
)


@cache
def parse(text: str) -> tuple[Instruction, ...]:
    """Instructions of an effect text; ``ValueError`` for text outside the vocabulary. (Cached: a game reads
    the same few texts at every step.)"""
    out: list[Instruction] = []
    paragraphs = [p for p in re.split(r"\n\s*\n|\n", str(text or "")) if p.strip()]
    for paragraph in paragraphs:
        out.extend(_paragraph(normalise(paragraph)))
    for ins in _walk(out):
        if ins.verb == "counter" and (ins.target is None or ins.target.kind != "spell"):
            raise ValueError('"counter" takes "a spell"')
        if ins.verb not in ("counter",) and ins.target is not None and ins.target.kind == "spell":
            raise ValueError(f'"{ins.verb}" takes a unit, not a spell')
    return tuple(out)


def _paragraph(text: str) -> list[Instruction]:
    # A reflexive trigger ("do this:") takes the rest of the paragraph as its own ability (380, 381).
    m = re.search(
        r"(?:^|(?<=[.;] )|(?<=\. ))((?:if this kills it,? |if you do,? |then )?do this(?: twice| \w+ times)?:)", text
    )
    head, tail = (text[: m.start(1)], text[m.start(1) :]) if m else (text, "")
    out: list[Instruction] = []
    for sentence in split(head):
        low = sentence.lower()
        mm = re.match(r"^if you do,? (?P<body>.+)$", low)
        if mm:
            out.append(
                Instruction("ifdo", 0, None, body=tuple(_one(p) for p in _parts(mm.group("body"))), text=sentence)
            )
            continue
        both = re.match(r"^(?P<verb>choose|target) (?P<a>.+?) and (?P<b>(?:a|an|another|up to) .+)$", sentence)
        if both:
            out.extend((_one(f"choose {both.group('a')}"), _one(f"choose {both.group('b')}")))
            continue
        out.extend(_one(p) for p in _parts(sentence))
    if tail:
        r = _REFLEXIVE.match(tail)
        if not r:
            raise ValueError(f'cannot read "{tail}"')
        times = 2 if r.group("times") == " twice" else _n(r.group("n")) if r.group("n") else 1
        cond = (r.group("cond") or "").strip(" ,")
        out.append(
            Instruction(
                "reflexive", 0, None, data=(cond,), body=tuple(_paragraph(r.group("body"))), times=times, text=tail
            )
        )
    return out


def _parts(sentence: str) -> list[str]:
    """``heal it, exhaust it, and recall it`` -> three instructions; a comma inside a target stays."""
    pieces = re.split(
        r",? and (?=(?:kill|heal|exhaust|ready|recall|stun|buff|draw|move|deal|banish|give|reveal|look)\b)|"
        r", (?=(?:kill|heal|exhaust|ready|recall|stun|buff|draw|move|deal|banish|give|reveal|look)\b)",
        sentence,
    )
    return [p.strip() for p in pieces if p.strip()]


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
        out.extend(chosen(i.body) if i.verb in ("ifdo", "may", "legion") else [])
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
    text = re.sub(r"\]\s+\[", "][", normalise(str(raw))).replace("[e]", "exhaust")
    energy, power, exhaust, extra = 0, [], False, []
    for part in [p.strip() for p in re.split(r",\s*", text) if p.strip()]:
        if part in ("exhaust", "exhaust me", "exhaust this", "[t]"):
            exhaust = True
        elif re.fullmatch(r"(?:\[[^\]]+\])+", part):
            e, p = _power(part)
            energy += e
            power.extend(p)
        elif part.isdigit():
            energy += int(part)
        else:
            ins = _one(part)
            if ins.verb not in ("recycle_trash", "discard", "kill", "recycle_rune"):
                raise ValueError(f'cannot read the cost "{part}"')
            extra.append(ins)
    if energy > 99:
        raise ValueError(f"an energy cost is at most 99, not {energy}")
    return Cost(energy, tuple(power), exhaust, tuple(extra))


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
@dataclass(frozen=True)
class TriggerSpec:
    """When a triggered ability triggers (376): ``event`` and who or what it watches.

    ``event``: play (me), attack, defend, conquer, hold, die (deathknell: I die), dies (another unit dies),
    move, played (you play a card: ``what`` spell/unit/card, ``nth`` 2 for "your second card"), beginning (the
    start of your Beginning Phase), end (the end of your turn), recycle (you recycle cards to your Main
    Deck), kill_spell (you kill a unit with a spell). ``who``: me | you | friendly | other friendly | other | here.
    ``first``: "the first time ... each turn". ``zone``: where it is active (board, trash)."""

    event: str
    who: str = "me"
    what: str = ""
    nth: int = 0
    first: bool = False
    zone: str = "board"
    condition: str = ""  # "if I'm at a battlefield" and the like, checked as it triggers

    @property
    def legacy(self) -> str:
        return "deathknell" if self.event == "die" else self.event


_TRIGGER_FORMS: list[tuple[re.Pattern, dict]] = [
    (re.compile(r"^when (?:you play me|i am played|i'm played|you play this|this is played)$"), {"event": "play"}),
    (re.compile(r"^when you play this from face ?down$"), {"event": "play", "what": "facedown"}),
    (re.compile(r"^when i attack$"), {"event": "attack"}),
    (re.compile(r"^when i defend$"), {"event": "defend"}),
    (re.compile(r"^when i conquer$"), {"event": "conquer"}),
    (re.compile(r"^when i conquer a battlefield that was uncontrolled$"), {"event": "conquer", "what": "uncontrolled"}),
    (re.compile(r"^when you conquer$"), {"event": "conquer", "who": "you"}),
    (re.compile(r"^when you conquer here$"), {"event": "conquer", "who": "here"}),
    (re.compile(r"^when i hold$"), {"event": "hold"}),
    (re.compile(r"^when you hold$"), {"event": "hold", "who": "you"}),
    (re.compile(r"^when you hold here$"), {"event": "hold", "who": "here"}),
    (re.compile(r"^when i die$"), {"event": "die"}),
    (re.compile(r"^when i move$"), {"event": "move"}),
    (re.compile(r"^when i move to a battlefield$"), {"event": "move", "what": "battlefield"}),
    (re.compile(r"^when (?P<who>another|a) (?P<side>friendly |enemy )?unit(?: you control)? dies$"), {"event": "dies"}),
    (
        re.compile(r"^the first time (?P<who>another|a) (?P<side>friendly |enemy )?unit dies each turn$"),
        {"event": "dies", "first": True},
    ),
    (re.compile(r"^when you play (?:a|an) (?P<what>spell|unit|card|mighty unit|gear)$"), {"event": "played"}),
    (
        re.compile(r"^when you play your (?P<nth>second|third) card (?:in a|each) turn$"),
        {"event": "played", "what": "card"},
    ),
    (re.compile(r"^at the start of your (?:beginning phase|turn)$"), {"event": "beginning", "who": "you"}),
    (re.compile(r"^at the end of your turn(?P<cond>,? if i'm at a battlefield)?$"), {"event": "end", "who": "you"}),
    (re.compile(r"^when you recycle one or more cards(?: to your main deck)?$"), {"event": "recycle", "who": "you"}),
    (re.compile(r"^when you kill a unit with a spell$"), {"event": "kill_spell", "who": "you", "zone": "trash"}),
    (re.compile(r"^when i win a combat$"), {"event": "win"}),
    (re.compile(r"^when you stun an enemy unit$"), {"event": "stun", "who": "you"}),
]
_NTH = {"second": 2, "third": 3}


@cache
def parse_trigger(condition: str) -> TriggerSpec:
    """A triggered ability's condition (the words before the comma), ValueError when it is not one read here."""
    text = re.sub(r"^whenever ", "when ", normalise(condition).rstrip(","))
    for rx, fixed in _TRIGGER_FORMS:
        m = rx.match(text)
        if not m:
            continue
        kw = dict(fixed)
        groups = m.groupdict()
        if groups.get("nth"):
            kw["nth"] = _NTH[groups["nth"]]
        if groups.get("what"):
            kw["what"] = groups["what"]
        if kw["event"] == "dies":
            side = (groups.get("side") or "").strip()
            kw["who"] = ("other " if groups.get("who") == "another" else "") + (side or "unit")
        if groups.get("cond"):
            kw["condition"] = "at a battlefield"
        return TriggerSpec(**kw)
    raise ValueError(f'unknown trigger condition "{condition.strip()}"')


@dataclass(frozen=True)
class TextAbility:
    """One ability read from a card's text: kind ``keyword``, ``activated``, ``triggered``, ``replacement``,
    ``passive``, ``additional_cost`` or ``instructions`` (a spell's, or a permanent's play effect by default)."""

    kind: str
    text: str
    cost: Cost | None = None
    trigger: TriggerSpec | None = None
    effect: str = ""
    keywords: tuple[tuple[str, int], ...] = ()
    data: tuple = field(default=())


_OPENERS = re.compile(
    r"^(?:when |whenever |at the (?:start|end) |the first time |if .+ would |(?:\[?[a-z-]+\]? ?\d* ?)?- |"
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
        out.extend(_ability(p) for p in pieces)
    return tuple(out)


_KEYWORD_LINE = re.compile(
    r"^(?P<kws>(?:(?:assault|shield|deflect|tank|ganking|action|reaction|hidden|temporary|vision|"
    r"accelerate|quick-draw|weaponmaster)(?: \d+)?[ ,]*)+)\.?$"
)


def _ability(text: str) -> TextAbility:
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
    m = re.match(r"^legion\s*-\s*(?P<effect>.+)$", t)
    if m:
        parse(m.group("effect"))
        return TextAbility("legion", t, effect=m.group("effect"), keywords=(("Legion", 0),))
    m = re.match(r"^as an additional cost to play (?:me|this), (?P<what>.+)$", t)
    if m:
        ins = _one(m.group("what"))
        return TextAbility("additional_cost", t, cost=Cost(extra=(ins,)))
    m = re.match(r"^(?P<cond>(?:when|whenever|at the (?:start|end) of|the first time) [^,]+), (?P<effect>.+)$", t)
    if m:
        spec = parse_trigger(m.group("cond"))
        parse(m.group("effect"))
        return TextAbility("triggered", t, trigger=spec, effect=m.group("effect"))
    m = re.match(r"^(?P<cost>[^:]+): (?P<kws>(?:(?:action|reaction|legion) - )*)(?P<effect>.+)$", t)
    if m and not t.startswith(("if ", "while ")) and "do this" not in m.group("cost") and ". " not in m.group("cost"):
        cost = parse_cost(m.group("cost"))
        kws = tuple((k.capitalize(), 0) for k in re.findall(r"(action|reaction|legion) -", m.group("kws")))
        effect = ("legion - " if ("Legion", 0) in kws else "") + m.group("effect")
        parse(effect)
        return TextAbility("activated", t, cost=cost, effect=effect, keywords=kws)
    if re.match(
        r"^if a combat where you are the attacker ends in a tie that would recall any of your units, recall all "
        r"units at that battlefield instead$",
        t,
    ):
        return TextAbility("passive", t, data=("tie_recall_all",))
    if re.search(r"\bwould\b.*\binstead\b|\binstead\b.*\bwould\b", t):
        return TextAbility("replacement", t)
    passive = parse_passive(t)
    if passive is not None:
        return TextAbility("passive", t, data=passive)
    parse(t)
    return TextAbility("instructions", t, effect=t)


# --- passive abilities ---------------------------------------------------------------------------------------
_PASSIVES: list[tuple[re.Pattern, str]] = [
    (re.compile(r"^(?:i have|i get) (?P<sign>[+-])(?P<n>\d+) might(?: while (?P<cond>.+))?$"), "self_might"),
    (re.compile(r"^while (?P<cond>.+?), i have (?P<sign>[+-])(?P<n>\d+) might$"), "self_might"),
    (re.compile(r"^while (?P<cond>.+?), i have (?P<kws>[a-z, -]+)$"), "self_keywords"),
    (
        re.compile(
            r"^(?P<who>other friendly units|friendly units|units|other units|enemy units)(?P<where> here| at my battlefield)? "
            r"(?:have|get) (?P<sign>[+-])(?P<n>\d+) might$"
        ),
        "others_might",
    ),
    (
        re.compile(
            r"^(?P<who>other friendly units|friendly units|units)(?P<where> here| at my battlefield)? have (?P<kws>[a-z, -]+\d*)$"
        ),
        "others_keywords",
    ),
    (re.compile(r"^your equipment(?: everywhere)? have (?P<kws>[a-z, -]+)$"), "equipment_keywords"),
    (
        re.compile(r"^(?:while i'm at a battlefield, )?opponents can't gain points(?: while i'm at a battlefield)?$"),
        "no_points",
    ),
    (re.compile(r"^players can't score here$"), "no_score_here"),
    (
        re.compile(r"^(?P<whose>your )?spells and abilities deal (?P<n>\d+) bonus damage(?P<here> to units here)?$"),
        "bonus_damage",
    ),
    (re.compile(r"^i enter ready$"), "enters_ready"),
    (re.compile(r"^(?P<what>spells|units|cards) you play cost \[(?P<n>\d+)\] less$"), "discount"),
    (re.compile(r"^optional additional costs you pay cost \[(?P<n>\w)\] less$"), "discount_optional"),
]


def parse_passive(text: str) -> tuple | None:
    """A passive ability (361) as (kind, fields...), or None when the statement is not one read here."""
    t = normalise(text).rstrip(".")
    for rx, kind in _PASSIVES:
        m = rx.match(t)
        if not m:
            continue
        g = m.groupdict()
        if kind in ("self_might", "others_might"):
            n = int(g["n"]) * (-1 if g["sign"] == "-" else 1)
            cond = _condition(g.get("cond") or "")
            if kind == "self_might":
                return (kind, n, cond)
            return (kind, n, g["who"], "here" if g.get("where") else "")
        if kind in ("self_keywords",):
            return (kind, _keyword_list(g["kws"]), _condition(g["cond"]))
        if kind == "others_keywords":
            return (kind, _keyword_list(g["kws"]), g["who"], "here" if g.get("where") else "")
        if kind == "equipment_keywords":
            return (kind, _keyword_list(g["kws"]))
        if kind == "bonus_damage":
            return (kind, int(g["n"]), "here" if g.get("here") else "", "your" if g.get("whose") else "")
        if kind == "discount":
            return (kind, int(g["n"]), g["what"])
        if kind == "discount_optional":
            return (kind, g["n"])
        return (kind,)
    return None


_CONDITIONS = {
    "i'm mighty": "mighty",
    "i am mighty": "mighty",
    "i'm attacking or defending alone": "alone",
    "i'm at a battlefield": "at a battlefield",
    "i'm equipped": "equipped",
    "i'm buffed": "buffed",
    "": "",
}


def _condition(text: str) -> str:
    t = text.strip()
    if t not in _CONDITIONS:
        raise ValueError(f'unknown condition "while {t}"')
    return _CONDITIONS[t]
