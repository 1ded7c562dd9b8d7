"""Static abilities that apply only as long as a condition is true: "~ gets +2/+2 as long as you control
three or more artifacts", "As long as you control a Swamp, ~ has flying" (611.3a: never locked in).

Read before the rest of a permanent's text (:func:`conditional_statics`), each sentence into the
:class:`engine.mtg.effects.Static` it would be without its condition, the condition kept with it
(:mod:`engine.mtg.conditions` reads it); a sentence whose condition or effect is not read stays in the
text, for the engine to refuse naming it.

>>> rest, statics = conditional_statics("Flying\\n~ gets +2/+2 as long as you control three or more artifacts.")
>>> rest, statics[0].power, statics[0].condition
('Flying', 2, 'you control three or more artifacts')
>>> conditional_statics("As long as you control a Swamp, ~ has first strike and deathtouch.")[1][0].keywords
('first strike', 'deathtouch')
>>> raid = conditional_enters("Raid — ~ enters the battlefield with a +1/+1 counter on it if you attacked this turn.")
>>> raid[0], raid[1][0].amount, raid[1][0].condition
('', 1, 'you attacked this turn')
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from engine.mtg.conditions import condition, read_condition
from engine.mtg.effects import KeywordError, ReplacementDef, Static, read_keywords_list

if TYPE_CHECKING:
    from engine.mtg.state import Permanent, State

_WHO = r"(~|it|other creatures you control|creatures you control|enchanted creature|equipped creature)"
_DOES = r"(?:gets? (?P<p>[+-]\d+)/(?P<t>[+-]\d+)(?: and (?:has|have) (?P<kw1>[^.]+?))?|(?:has|have) (?P<kw2>[^.]+?))"
_FORMS = (
    re.compile(rf"^{_WHO} {_DOES} as long as (?P<cond>[^,.]+)$"),
    re.compile(rf"^as long as (?P<cond>[^,.]+), {_WHO} {_DOES}$", re.I),
)
_SCOPES = {
    "~": "self",
    "it": "self",  # "As long as ~ is attacking, it gets +2/+0"
    "other creatures you control": "other yours",
    "creatures you control": "yours",
    "enchanted creature": "attached",
    "equipped creature": "attached",
}
_ABILITY_WORD = re.compile(r"^[A-Z][a-z]+(?: [a-z]+)? \u2014 ")


def _static(sentence: str) -> Static | None:
    words = _ABILITY_WORD.sub("", sentence.strip().rstrip("."))  # an ability word has no rules meaning (207.2c)
    for form in _FORMS:
        m = form.match(words)
        if m is None:
            continue
        found = read_condition(m["cond"])
        if found is None:
            return None
        try:
            said = m["kw1"] or m["kw2"]
            keywords = read_keywords_list(said) if said else ()
        except KeywordError:
            return None
        power, toughness = (int(m["p"]), int(m["t"])) if m["p"] else (0, 0)
        who = m.group(1) if form is _FORMS[0] else m.group(2)
        if who == "it" and form is _FORMS[0]:
            return None  # "it" of a sentence of its own names what an earlier sentence did
        if found.own is not None and _SCOPES[who.lower()] != "self" and re.match(r"it\b", m["cond"], re.I):
            return None  # "enchanted creature has ... as long as it's ...": a condition of another permanent
        return Static(_SCOPES[who.lower()], power, toughness, keywords, condition=m["cond"])
    return None


def conditional_statics(text: str) -> tuple[str, tuple[Static, ...]]:
    """A permanent's text (its name written ``~``) less its conditional static abilities, and those."""
    found: list[Static] = []
    kept: list[str] = []
    for line in text.split("\n"):
        sentences = [s for s in re.split(r"(?<=\.)\s+", line) if s.strip()]
        rest = []
        for sentence in sentences:
            st = _static(sentence)
            if st is None:
                rest.append(sentence)
            else:
                found.append(st)
        if rest:
            kept.append(" ".join(rest))
    return ("\n".join(kept) if found else text), tuple(found)


def conditions_said(s: State, perm: Permanent) -> list[str]:
    """Each conditional static ability of ``perm`` and whether it applies now, in words."""
    out = []
    for st in perm.card.statics:
        if not st.condition:
            continue
        cond = condition(st.condition)
        true = cond.holds(s, perm.controller, perm)
        out.append(
            f"{perm.name}'s ability applies only as long as {st.condition}: "
            f"{'true' if true else 'not true'} now ({cond.said(s, perm.controller, perm)})"
        )
    return out


_NUMBERS = {"a": 1, "an": 1, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5}
_ENTERS = re.compile(
    r"^~ enters(?: the battlefield)? with (?P<n>a|an|one|two|three|four|five|\d+) (?P<kind>[+-]1/[+-]1) counters? "
    r"on it if (?P<cond>[^,.]+)$"
)


def conditional_enters(text: str) -> tuple[str, tuple[ReplacementDef, ...]]:
    """A permanent's text less ``~ enters with N +1/+1 counters on it if CONDITION`` (614.1c, applied only if
    the condition is true as it enters: raid, morbid, revolt), and those replacement effects."""
    found: list[ReplacementDef] = []
    kept: list[str] = []
    for line in text.split("\n"):
        words = _ABILITY_WORD.sub("", line.strip().rstrip("."))
        m = _ENTERS.match(words)
        if m and read_condition(m["cond"]) is not None:
            n = _NUMBERS.get(m["n"]) or int(m["n"])
            found.append(ReplacementDef("enter", "self", "counters", n, m["kind"], condition=m["cond"]))
        else:
            kept.append(line)
    return ("\n".join(kept) if found else text), tuple(found)
