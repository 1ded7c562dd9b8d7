"""Reading Riftbound effect text with a grammar (issue 23): one Lark grammar for the whole effect language,
read compositionally (a paragraph is sentences, a sentence is clauses joined by ``and`` / ``then``, a clause
is one verb with its selectors, amounts and durations), each clause one :class:`~engine.riftbound.effects.Instruction`.

The grammar is assembled here from two parts: the shared productions (:data:`GRAMMAR`: sentences, selectors,
amounts, keywords, places) and one production per verb, kept by the verb's own class in :data:`VERBS`, the
registry. A verb is one small frozen class: its name, its grammar rule, the forms it documents (the effect
vocabulary, docs/scenarios.md, is generated from them) and the citation keys carrying it out cites
(:mod:`engine.riftbound.citekeys`). A new verb is one class and its grammar line.

What the grammar cannot read is refused with the words it could not read (never skipped):

>>> [i.verb for i in read("deal 3 to a unit at a battlefield and draw 1")]
['deal', 'draw']
>>> read("explode everything")
Traceback (most recent call last):
...
ValueError: unknown effect "explode everything"

The parser is Lark's LALR(1) parser with its contextual lexer (a word's meaning is decided by the next one:
``a unit and an enemy unit`` is two targets, ``a unit and draw 1`` two instructions); its tables ship built
(:mod:`engine.riftbound.cardtext_tables`). The same grammar reads a triggered ability's condition
(:func:`read_triggers`) and a cost (:func:`read_cost`). docs/decisions.md ("Card text read with a grammar")
has the figures.
"""

from __future__ import annotations

import base64
import hashlib
import io
import re
import zlib
from collections.abc import Iterator
from dataclasses import dataclass
from functools import cache
from typing import Any, ClassVar

import lark
from lark import Lark, Tree
from lark.exceptions import LarkError

from engine.riftbound import cardtext_tables
from engine.riftbound import citekeys as K
from engine.riftbound.effect_types import (
    KEYWORDS,
    Condition,
    Cost,
    Instruction,
    Target,
    TriggerSpec,
    _keyword_list,
    _n,
    _place,
    _power,
)

# Verbs after which ``and`` / ``,`` starts a new instruction (``heal it, exhaust it, and recall it``).
_CLAUSE_VERBS = "kill|heal|exhaust|ready|recall|stun|buff|draw|move|deal|banish|give|reveal|look|channel"
_TARGET_KEYWORDS = "assault|shield|deflect|tank|ganking|hidden|deathknell|temporary|vision|accelerate"
# the words a target may say after "a": never a tag's name ("if you control a Poro")
_NOT_TAGS = (
    "another|other|ready|exhausted|stunned|buffed|damaged|mighty|friendly|enemy|your|recruit|equipment|gear|gears"
    "|unit|units|spell|spells|facedown|permanent|permanents|rune|runes|legend|battlefield|card|mech|mechs|chosen"
)
_GRANTED = "assault|shield|deflect|tank|ganking|deathknell|temporary|vision|hidden|accelerate|action|reaction"

GRAMMAR = rf"""
// --- effects: a paragraph of sentences, a sentence of clauses, a clause one instruction ------------------------
start: paragraph "."?
// a reflexive trigger ("do this:") takes the rest of its paragraph as its own ability (380, 381)
paragraph: sentence (SEP sentence)*
?sentence: ifdo | conditional | otherwise | choose_two | clauses | reflexive
ifdo: "if" "you" "do" ","? clauses
// a condition the instructions are done under, checked as they resolve: "if it is stunned, kill it. otherwise,
// stun it", "draw 1 if you have one or fewer cards in your hand"
conditional: "if" condition ("," | CONJ)? clauses | clauses "if" condition
otherwise: "otherwise" ","? clauses
condition: ("it" | "that" "unit") "is" cond_state -> cond_it
         | ("i" "am" | "i'm") cond_state -> cond_me
         | "it" "is" "the" "only" "unit" "you" "control" cond_where? -> cond_only
         | "you" "control" cond_object -> cond_control
         | "there" "is" cond_object -> cond_there
         | "you" "have" AT_LEAST cond_counted cond_where? -> cond_at_least
         | "you" "have" word_number "or" ("more" | "fewer") cond_counted cond_where? -> cond_count
         | "you" "paid" "the" "additional" "cost" -> cond_paid
         | "you" ("can't" | "couldn't" ("channel" word_number ("rune" | "runes") "this" "way")?) -> cond_failed
cond_state: state | "at" "a" "battlefield"
cond_object: target | ("a" | "an") TAG_WORD
cond_counted: "units" | "runes" | "cards" "in" "your" "hand"
cond_where: "here" | "there" | "at" "that" "battlefield"
AT_LEAST: /\d+\+/
TAG_WORD: /(?!(?:{_NOT_TAGS})\b)[a-z][a-z'-]*/
choose_two: choose_word target "and" second_target
second_target: target
clauses: first_clause (CONJ clause)*
first_clause: then? clause
clause: instruction (OR_CLAUSE instruction)?
// "draw 1 or channel 1 rune exhausted": its controller chooses one as it resolves
OR_CLAUSE.3: /or(?= (?:{_CLAUSE_VERBS})\b)/
reflexive: reflexive_if? "do" "this" reflexive_times? ":" paragraph
reflexive_if: "if" "this" "kills" "it" ","? | "if" "you" "do" ","? | then
reflexive_times: "twice" | word_number "times"

SEP.3: /\.\s+|;\s*|,?\s+then\s+(?!do this)/
CONJ.3: /,? and(?= (?:{_CLAUSE_VERBS})\b)|,(?= (?:{_CLAUSE_VERBS})\b)/
then: "then"
choose_word: "choose" | "target"

// --- selectors ------------------------------------------------------------------------------------
target: pronoun | champion | described
pronoun: "me" | "myself" | "this" | "itself" | "that" "unit" | "it" | "them" | "they"
       | "this" ("unit" | "gear" | "spell")
champion: ("your" | "a")? "chosen" "champion" (("from" | "in") "your" "trash")?
described: count? modifier* tag? noun qualifier*
?modifier: other | state | side
count: "up" "to" word_number -> up_to
     | "any" "number" "of" -> any_number
     | ("two" | "three" | "four" | NUMBER) -> several
     | ("target" | "an" | "a" | "one") -> one
other: "another" | "other"
state: "ready" | "exhausted" | "stunned" | "buffed" | "damaged" | "mighty"
side: "friendly" | "enemy" | "your"
tag: "recruit" | "equipment"
noun: "gear" "," "unit" "," "or" "facedown" "card" | "unit" "or" "gear" | "gear" "or" "unit"
    | "facedown" ("card" | "cards") | "unit" "card" | "unit" | "units" | "gear" | "gears" | "spell" | "spells"
    | "permanent" | "permanents" | "equipment" | "rune" | "runes" | "legend" | "battlefield" | "card"
    | "mech" | "mechs"
?qualifier: you_control | where | in_your_trash | in_their_trash | might_max | with_keyword | cost_max
          | total_might | from_your_hand
from_your_hand: "from" "your" "hand"
you_control: "you" "control" | "of" "yours"
where: "at" "a" "battlefield" -> at_a_battlefield
     | ("here" | "at" "my" "battlefield" | "at" "this" "battlefield") -> here
     | "in" ("a" | "its" | "their") "base" -> in_a_base
     | "from" "a" "battlefield" -> at_a_battlefield
     | "at" "another" "location" -> at_another_location
     | "at" "its" "destination" -> at_its_destination
in_your_trash: ("in" | "from") "your" "trash"
in_their_trash: ("in" | "from") "an" OPPONENTS "trash"
OPPONENTS: /opponent'?s'?/
might_max: "with" "might" NUMBER "or" "less" | "with" NUMBER "might" NUMBER "or" "less"
         | "with" NUMBER "might" "or" "less" | "with" "might" "up" "to" NUMBER
with_keyword: "with" TARGET_KEYWORD
TARGET_KEYWORD: /(?:{_TARGET_KEYWORDS})\b/
cost_max: "that" "costs" ("no" "more" "than")? SYMBOLS ("or" "less")?
        | "with" "a"? "cost" "of"? ("no" "more" "than")? SYMBOLS ("or" "less")?
total_might: "with" "a"? "total" "might" "of"? NUMBER "or" "less"

// --- amounts, keywords, places -------------------------------------------------------------------------
word_number: NUMBER | "a" | "an" | "one" | "two" | "three" | "four" | "five" | "six" | "twice"
keyword_list: keyword ((","| "and" | "," "and") keyword)*
keyword: KEYWORD NUMBER?
KEYWORD: /(?:{"|".join(k.lower() for k in KEYWORDS)})(?![a-z'-])/
granted: GRANTED NUMBER? ((","| "and" | "," "and") MORE_GRANTED NUMBER?)*
GRANTED: /(?:{_GRANTED})(?![a-z'-])/
MORE_GRANTED: /(?:assault|shield|deflect|tank|ganking)(?![a-z'-])/
this_turn: "this" "turn"
ignoring_cost: ","? "ignoring" "its" ENERGY_WORD? "cost"
ENERGY_WORD: "energy"
// a token's name, and a battlefield named as a destination: the words up to the end of the clause
TOKEN_NAME: /[a-z][a-z' -]*?(?= unit tokens?\b)/
PLACE: /[a-z][a-z0-9' -]*?(?=,? and (?:{_CLAUSE_VERBS})\b|, (?:{_CLAUSE_VERBS})\b|\.|;|,?\s+then\s|$)/
FROM_HERE.2: /from here\b/

SIGNED: /[+-]\d+/
PLUS_MIGHT: "+might"
NUMBER: /\d+/
SYMBOLS: /\[[^\]\s]+\](?:\s*\[[^\]\s]+\])*/
%import common.WS
%ignore WS

// --- costs: an activated ability's, an additional cost ("[1], [E]", "Recycle 1 from your trash") ------------
cost: cost_part ((","| CONJ) cost_part)*
?cost_part: SYMBOLS -> cost_symbols
    | NUMBER -> cost_energy
    | "exhaust" ("me" | "this")? -> cost_exhaust
    | (recycle_trash | discard | kill | recycle_rune | recycle | spend_buff) -> cost_instruction

// --- passive abilities (364): statements true while their card is on the board ---------------------------------
passive: self_might | self_keywords | others_might | others_keywords | equipment_keywords | no_points
       | no_score_here | bonus_damage | enters_ready | others_enter_ready | enters_exhausted | discount
       | discount_optional | play_to | others_play_to | assigned_last | self_might_per | self_discount
       | discount_min
self_might: ("i" "have" | "i" "get") SIGNED "might" ("while" passive_cond)?
          | ("while" | "if") passive_cond "," "i" "have" "an"? "additional"? SIGNED "might"
self_keywords: ("while" | "if") passive_cond "," "i" "have" keyword_list
others_might: passive_who passive_where? ("have" | "get") SIGNED "might" passive_where?
others_keywords: passive_who passive_where? "have" keyword_list IF_NOT_ALREADY?
IF_NOT_ALREADY: /if they didn't already\b/
passive_who: "other"? who_words? "units" | "enemy" "units"
who_words: "friendly" | "buffed" "friendly" | "friendly" "buffed"
passive_where: "here" | "at" "my" "battlefield"
equipment_keywords: "your" "equipment" "everywhere"? "have" keyword_list
no_points: ("while" passive_cond ",")? "opponents" "can't" "gain" "points" ("while" passive_cond)?
no_score_here: "players" "can't" "score" "here"
bonus_damage: "your"? "spells" "and" "abilities" "deal" NUMBER "bonus" "damage" ("to" "units" "here")?
enters_ready: ("if" passive_cond ",")? "i" "enter" "ready"
others_enter_ready: passive_who "enter" "ready"
enters_exhausted: ("this" "enters" | "i" "enter") "exhausted"
assigned_last: "i" "must" "be" "assigned" "combat" "damage" "last"
// amounts that vary: "my Might is increased by your points", "I get +1 [M] for each buffed friendly unit here"
self_might_per: "my" "might" "is" "increased" "by" per_amount | "i" "get" SIGNED "might" "for" per_each
self_discount: ("if" passive_cond ",")? ("this" "costs" | "i" "cost") SYMBOLS "less" ("for" per_each)?
?per_amount: "the" "number" "of" "cards" "in" "your" "trash" -> count_trash
           | "your" "points" -> count_points
?per_each: "each" "card" "in" "your" "trash" -> count_trash
         | "each" described -> count_each
play_to: "you" "may" "play" "me" "to" ("an" | "a") where_to "battlefield"
others_play_to: passive_who "may" "be" "played" "to" where_to "battlefields"
where_to: "open" | "occupied" "enemy"
discount: ("spells" | "units" | "cards") "you" "play" "cost" SYMBOLS "less"
discount_optional: "optional" "additional" "costs" "you" "pay" "cost" SYMBOLS "less"
// "the Energy costs for spells you play is reduced by [1], to a minimum of [1]"; "your Dragons' Energy costs"
discount_min: ("while" passive_cond ",")? discounted "reduced" "by" SYMBOLS "," "to" "a" "minimum" "of" SYMBOLS
discounted: "the" "energy" "costs" "for" ("spells" | "units" | "cards") "you" "play" ("is" | "are")
          | "your" TAGS_POSSESSIVE "energy" "costs" "are"
TAGS_POSSESSIVE: /[a-z]+s'/
// the condition of a passive ability: one of the source's own (``i'm mighty``), or a condition of the game
passive_cond: ("i'm" | "i" "am") SELF_STATE | condition
            | "an" OPPONENTS "score" "is" "within" NUMBER ("point" | "points") "of" "the" "victory" "score" -> near_victory
            | "an" "opponent" "controls" "a" "battlefield" -> opponent_controls
SELF_STATE: /(?:mighty|attacking or defending alone|at a battlefield|equipped|buffed)\b/

// --- optional additional costs (356.2.b): "As you play me, you may discard 1 as an additional cost." ----------------
additional: "as" "you" "play" ("me" | "this") "," "you" "may" add_cost "as" "an" "additional" "cost"
          | "you" "may" add_cost "as" "an" "additional" "cost" "to" "play" ("me" | "this")
          | "as" "an" "additional" "cost" "to" "play" ("me" | "this") "," "you" "may" add_cost
?add_cost: "pay" SYMBOLS -> add_pay
         | "spend" "a" "buff" -> add_spend_buff
         | "discard" NUMBER -> add_discard
         | "exhaust" "a" "friendly" "unit" -> add_exhaust_unit
// what paying it changes of the card's own cost
paid_modifier: "if" "you" "do" "," paid_change
?paid_change: "ignore" ("this" SPELLS_WORD | "my") "cost" -> paid_free
            | "reduce" "my" "cost" "by" SYMBOLS -> paid_reduce
SPELLS_WORD: "spell's"

// --- triggers (376): the words before a triggered ability's comma ------------------------------------------
trigger: ("when" | "whenever") when_event ("and" "when" when_event)? | "the" "first" "time" first_event
       | "at" "the"? (start_event | end_event) | nth_event
?when_event: ("you" "play" ("me" | "this") | ("i" "am" | "i'm" | "this" "is") "played") -> on_play
    | "you" "play" "this" "from" ("facedown" | "face" "down") -> on_play_facedown
    | "you" "play" "me" "to" "a" "battlefield" -> on_play_to_battlefield
    | "i" "attack" -> on_attack
    | "i" ("attack" "or" "defend" | "defend" "or" "attack") -> on_attack_or_defend
    | "i" "defend" -> on_defend
    | "you" "defend" "here" -> on_defend_here
    | "a" "unit" "moves" "from" "here" -> on_moves_from_here
    | "i" "conquer" -> on_conquer
    | "i" "conquer" "a" "battlefield" "that" "was" "uncontrolled" -> on_conquer_uncontrolled
    | "you" "conquer" -> on_you_conquer
    | "you" "conquer" "here" -> on_conquer_here
    | "i" "hold" -> on_hold
    | "you" "hold" -> on_you_hold
    | "you" "hold" "here" -> on_hold_here
    | "i" "die" -> on_die
    | "i" "move" -> on_move
    | "i" "move" "to" "a" "battlefield" -> on_move_to_battlefield
    | dying_unit ("you" "control")? "dies" -> on_dies
    | "you" "play" ("a" | "an") played_what -> on_played
    | "you" "play" "another" played_what -> on_played_other
    | "you" "play" ("a" | "an") played_what "from" "hidden" -> on_played_hidden
    | "you" "play" ("a" | "an") played_what "on" "an" OPPONENTS "turn" -> on_played_their_turn
    | "you" "play" ("a" | "an") played_what "that" "costs" SYMBOLS "or" "more" -> on_played_costly
    | "you" "play" "your" ORDINAL "card" ("in" "a" | "each") "turn" -> on_played_nth
    | "you" "recycle" "one" "or" "more" "cards" ("to" "your" "main" "deck")? -> on_recycle
    | "you" "kill" "a" "unit" "with" "a" "spell" -> on_kill_spell
    | "i" "win" "a" "combat" -> on_win
    | "you" "stun" "an" "enemy" "unit" -> on_stun
?first_event: dying_unit "dies" "each" "turn" -> on_dies_first
?nth_event: "the" ORDINAL "time" "i" "move" ("in" "a" | "each") "turn" -> on_move_nth
?start_event: "start" "of" "your" ("beginning" "phase" | "turn") -> on_beginning
?end_event: "end" "of" "your" "turn" (","? "if" "i'm" "at" "a" "battlefield")? -> on_end
dying_unit: ("another" | "a") DYING_STATE? side? NON_TAG? "unit"
DYING_STATE: "buffed"
NON_TAG: /non-[a-z]+/
played_what: "spell" | "unit" | "card" | "mighty" "unit" | "gear"
ORDINAL: "second" | "third"
"""


# --- reading the tree ---------------------------------------------------------------------------------------
class Node:
    """A production as read: its rule, its children, and the words it covers in the paragraph."""

    __slots__ = ("tree", "source")

    def __init__(self, tree: Tree, source: str) -> None:
        self.tree, self.source = tree, source

    @property
    def rule(self) -> str:
        return str(self.tree.data)

    @property
    def text(self) -> str:
        return self.source[self.tree.meta.start_pos : self.tree.meta.end_pos]

    def words(self) -> list[str]:
        return [str(t) for t in self.tree.scan_values(lambda v: hasattr(v, "type"))]

    def children(self) -> Iterator[Node]:
        for c in self.tree.children:
            if isinstance(c, Tree):
                yield Node(c, self.source)

    def find(self, rule: str) -> Node | None:
        return next(self.all(rule), None)

    def all(self, rule: str) -> Iterator[Node]:
        """The productions named ``rule`` below this one, in order, not looking inside one found."""
        for c in self.children():
            if c.rule == rule:
                yield c
            else:
                yield from c.all(rule)

    def token(self, kind: str) -> str | None:
        return next((str(t) for t in self.tree.children if getattr(t, "type", None) == kind), None)

    def tokens(self, kind: str) -> list[str]:
        return [str(t) for t in self.tree.scan_values(lambda v: getattr(v, "type", None) == kind)]

    def target(self, n: int = 0) -> Target:
        found = list(self.all("target"))
        if len(found) <= n:
            raise ValueError(f'no target in "{self.text}"')
        return read_target(found[n])


def read_target(node: Node) -> Target:
    """The :class:`Target` of a ``target`` production (352.6)."""
    inner = node if node.rule == "described" else next(node.children())
    if inner.rule == "pronoun":
        words = inner.words()
        if words[0] == "this" and len(words) == 2:
            return Target("me")
        return Target(
            {"me": "me", "myself": "me", "this": "me", "itself": "me", "that": "that", "it": "it"}.get(words[0], "they")
        )
    if inner.rule == "champion":
        return Target("card", "your", None, filters=(("champion", True),))
    count, upto = 1, 0
    side = other = state = tag = None
    noun_words: list[str] = []
    filters: list[tuple[str, object]] = []
    where = None
    qualifiers: list[Node] = []
    for c in inner.children():
        if c.rule == "up_to":
            upto = _n(c.words()[-1])
        elif c.rule == "any_number":
            upto = 99
        elif c.rule == "several":
            count = _n(c.words()[0])
        elif c.rule == "other":
            other = True
        elif c.rule == "state":
            state = c.words()[0]
        elif c.rule == "side":
            side = c.words()[0]
        elif c.rule == "tag":
            tag = c.words()[0]
        elif c.rule == "noun":
            noun_words = c.words()
        elif c.rule != "one":
            qualifiers.append(c)
    raw = " ".join(noun_words).replace(" ,", ",")
    noun = _NOUNS[raw]
    if state:
        filters.append(("mighty", True) if state == "mighty" else ("state", state))
    if tag:
        filters.append(("tag", tag.capitalize()))
    if raw == "equipment":
        filters.append(("tag", "Equipment"))
    if raw.startswith("mech"):
        filters.append(("tag", "Mech"))
    for q in qualifiers:
        r = q.rule
        if r == "you_control":
            side = "your"
        elif r == "might_max":
            filters.append(("might_max", int(q.tokens("NUMBER")[-1])))
        elif r == "with_keyword":
            filters.append(("keyword", q.words()[-1].capitalize()))
        elif r == "cost_max":
            filters.append(("cost_max", int(q.tokens("SYMBOLS")[0].strip("[]"))))
        elif r == "total_might":
            filters.append(("total_might", int(q.tokens("NUMBER")[0])))
        elif r == "in_your_trash":
            if noun in ("unit", "gear"):
                filters.append(("type", noun))
            noun, side = "card", "your"
        elif r == "in_their_trash":
            noun, side = "card", "enemy"
        else:
            where = r.replace("_", " ")
    return Target(noun, side, where, bool(other), count, upto, tuple(filters))


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
    "permanents": "permanent",
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


def _card_filters(what: str, keyword: str | None) -> tuple[tuple[str, object], ...]:
    out: list[tuple[str, object]] = [] if what == "card" else [("type", what)]
    if keyword:
        kw = next((k for k in KEYWORDS if k.lower() == keyword), None)
        if kw is None:
            raise ValueError(f'unknown keyword "{keyword}"')
        out.append(("keyword", kw))
    return tuple(out)


def _only(target: Target, **changes: Any) -> Target:
    fields = {s: getattr(target, s) for s in ("kind", "side", "where", "other", "count", "upto", "filters")}
    return Target(**(fields | changes))


# --- the registry of verbs -----------------------------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class Verb:
    """One verb of the effect language: its grammar production (``rule``: the right-hand side of the rule
    named ``name``), the forms it documents (the effect vocabulary), what it does, and the citation keys its
    carrying out cites. ``build`` makes the instruction of one clause it read."""

    name: ClassVar[str]
    rule: ClassVar[str]
    forms: ClassVar[tuple[str, ...]]
    does: ClassVar[str] = ""
    keys: ClassVar[tuple[str, ...]] = ()

    def build(self, node: Node, text: str) -> Instruction:
        raise NotImplementedError


VERBS: list[Verb] = []


def verb(cls: type[Verb]) -> type[Verb]:
    """Register a verb (its order is the documented vocabulary's)."""
    assert all(v.name != cls.name for v in VERBS), cls.name
    VERBS.append(cls())
    return cls


@verb
@dataclass(frozen=True, slots=True)
class Legion(Verb):
    name = "legion"
    rule = '"legion" "-" clause'
    forms = ("Legion - EFFECT",)
    does = "applies only if its controller played another Main Deck card this turn (738)"
    keys = (K.LEGION_ON_PLAY, K.LEGION_OTHER, K.LEGION_ANOTHER_CARD)

    def build(self, node: Node, text: str) -> Instruction:
        return Instruction("legion", 0, None, body=(_clause(next(node.all("clause"))),), text=text)


@verb
@dataclass(frozen=True, slots=True)
class Must(Verb):
    name = "must"
    rule = '"you"? "must" clause'
    forms = ("you must EFFECT",)
    does = "the instruction is not optional"

    def build(self, node: Node, text: str) -> Instruction:
        inner = _clause(next(node.all("clause")))
        return Instruction(
            inner.verb, inner.amount, inner.target, inner.place, (*inner.data, "must"), inner.body, inner.times, text
        )


@verb
@dataclass(frozen=True, slots=True)
class BanishAndPlay(Verb):
    name = "banish_play"
    rule = (
        '"banish" target FROM_AMONG ("that" "has" "might" "up" "to" NUMBER "more" "than" "the" "killed" "unit")? '
        '"and" "play" "it" ignoring_cost?\nFROM_AMONG.2: /from among them\\b/'
    )
    forms = (
        "banish a unit from among them [that has Might up to N more than the killed unit] and play it[, ignoring its cost]",
    )
    does = "after `look at the top N cards`: banished first, then played (stays banished if it cannot be)"
    keys = (K.BANISH_ACTION, K.BANISH_HOLDING_SPACE, K.PLAY_BY_EFFECT, K.COST_IGNORED)

    def build(self, node: Node, text: str) -> Instruction:
        what = next(node.all("target")).text
        if not re.fullmatch(r"(?:a|an|one) (?:card|unit|gear|spell)", what):
            raise ValueError(f'unknown effect "{text}"')
        n = node.token("NUMBER")
        filters = _card_filters(what.split()[1], None) + ((("might_killed_plus", int(n)),) if n else ())
        free = "free" if node.find("ignoring_cost") else ""
        return Instruction(
            "play_card", 0, Target("looked", "your", filters=filters), data=("looked", free, "banish"), text=text
        )


@verb
@dataclass(frozen=True, slots=True)
class May(Verb):
    name = "may"
    rule = '"you" "may" (may_cost "to")? clause\nmay_cost: "pay" SYMBOLS | "exhaust" "me" | "spend" ("a" | "its") "buff" | "discard" NUMBER | "kill" target'
    forms = ("you may EFFECT", "you may COST to EFFECT", "you may choose a unit")
    does = "asked as it resolves (`P accepts` / `P declines`); COST: `pay [1]`, `exhaust me`, `spend a buff`, `discard 1`, `kill a unit`; `you may choose` is an optional target (352.13); opening a triggered ability's effect, either is decided as it triggers under v1.3 (383.3.a)"
    keys = (
        K.PRIORITY_LIMITED_ACTIONS_REGARDLESS,
        K.TRIGGER_OPTIONAL_WHEN_TRIGGERED,
        K.TRIGGER_COST_WHEN_FINALIZED,
        K.COST_WITHIN_INSTRUCTION,
    )

    def build(self, node: Node, text: str) -> Instruction:
        cost = node.find("may_cost")
        body = _clause(next(node.all("clause")))
        if body.verb == "choose" and not cost and not body.data:
            # "you may choose a unit": an optional target, chosen as the ability goes on (up to one, 352.13)
            return Instruction("choose", 0, _only(body.aim, count=1, upto=1), text=text)
        return Instruction("may", 0, None, None, (cost.text,) if cost else (), (body,), 1, text)


@verb
@dataclass(frozen=True, slots=True)
class Choose(Verb):
    name = "choose"
    rule = "choose_word target"
    forms = ("choose a unit",)
    does = "chooses without doing anything yet; `choose a friendly unit and an enemy unit` chooses two"

    def build(self, node: Node, text: str) -> Instruction:
        return Instruction("choose", 0, node.target(), text=text)


@verb
@dataclass(frozen=True, slots=True)
class Look(Verb):
    name = "look"
    rule = '("look" "at" | "reveal") "the" "top" word_number? ("card" | "cards") ("of" | "from") "your" "main" "deck"'
    forms = ("look at the top N cards of your Main Deck", "reveal the top N cards of your Main Deck")
    does = "the cards stay in the deck while revealed (411)"
    keys = (K.LOOK_WHEN_INSTRUCTED, K.LOOK_EXCESS_NO_BURN_OUT, K.REVEAL_PRESENTS, K.REVEAL_STAYS_IN_ZONE)

    def build(self, node: Node, text: str) -> Instruction:
        n = node.find("word_number")
        kind = "reveal" if node.words()[0] == "reveal" else "look"
        return Instruction("look", _n(n.words()[0]) if n else 1, data=(kind,), text=text)


@verb
@dataclass(frozen=True, slots=True)
class DealPer(Verb):
    name = "deal_per"
    rule = '"deal" NUMBER "damage"? "to" ("that" "unit" | "it" | "them") "for" "each" "card" "with" KEYWORD ("revealed" | "looked" "at") "this" "way"'
    forms = ("deal N to it for each card with KEYWORD revealed this way",)
    does = "after `reveal the top N cards`"
    keys = (K.TEXT_DO_WHAT_YOU_CAN,)

    def build(self, node: Node, text: str) -> Instruction:
        kw = next(k for k in KEYWORDS if k.lower() == node.tokens("KEYWORD")[0])
        return Instruction("deal_per", int(node.tokens("NUMBER")[0]), Target("it"), data=(kw,), text=text)


@verb
@dataclass(frozen=True, slots=True)
class RecycleLooked(Verb):
    name = "recycle_looked"
    rule = '"recycle" ("it" | "them" | "the" "revealed" "cards" | "the" "cards" "revealed" "this" "way" | "the" "rest" | "those" "cards")'
    forms = ("recycle it", "recycle the revealed cards")
    does = "the cards looked at or revealed, to the bottom of the Main Deck (403)"
    keys = (K.RECYCLE_TO_MAIN_DECK, K.REVEAL_DESTINATION, K.LOOK_TOO_FEW_IGNORED)

    def build(self, node: Node, text: str) -> Instruction:
        return Instruction("recycle_looked", text=text)


@verb
@dataclass(frozen=True, slots=True)
class DealAll(Verb):
    name = "deal_all"
    rule = '"deal" NUMBER "damage"? "to" ("all" | "each") all_units all_where?\nall_units: "unit" | "units" | "enemy" "units" | "friendly" "units"\nall_where: "at" ("my" | "its" | "this" | "a" | "that") "battlefield" | "here" | "there" | "at" "battlefields" | "in" "combat"'
    forms = ("deal N to all units at PLACE", "deal N to all enemy units in combat")
    does = "`here`, `at a battlefield`, `at battlefields`, `in combat` (attacking or defending): no unit is a target (352.10.d); `at a battlefield` targets the battlefield"
    keys = (K.TARGETS_PROGRAMMATIC,)

    def build(self, node: Node, text: str) -> Instruction:
        what = node.find("all_units")
        assert what is not None
        side = "enemy" if "enemy" in what.words() else "friendly" if "friendly" in what.words() else None
        where_node = node.find("all_where")
        where = where_node.text if where_node else ""
        n = int(node.tokens("NUMBER")[0])
        if where == "at a battlefield":
            # "Deal N to all units at a battlefield" targets the battlefield, not the units (352.10.b)
            return Instruction("deal_all", n, Target("battlefield", side), text=text)
        here = (
            "at my battlefield",
            "at its battlefield",
            "at this battlefield",
            "here",
            "at that battlefield",
            "there",
        )
        place = "here" if where in here else "battlefields" if where == "at battlefields" else None
        if where == "in combat":
            place = "in combat"
        return Instruction("deal_all", n, Target("each", side, place), text=text)


@verb
@dataclass(frozen=True, slots=True)
class Deal(Verb):
    name = "deal"
    rule = '"deal" NUMBER "damage"? "to" ("each" "of")? target'
    forms = ("deal N to a unit", "deal N to each of up to two units")
    does = "marks N damage; lethal damage kills in the next cleanup"

    def build(self, node: Node, text: str) -> Instruction:
        return Instruction("deal", int(node.tokens("NUMBER")[0]), node.target(), text=text)


@verb
@dataclass(frozen=True, slots=True)
class DealMight(Verb):
    name = "deal_might"
    rule = '"deal" "damage" "equal" "to" ("my" | "its") "might" "to" target'
    forms = ("deal damage equal to my Might to a unit",)
    does = "the unit is the source of the damage"
    keys = (K.DEAL_UNIT_SOURCE,)

    def build(self, node: Node, text: str) -> Instruction:
        return Instruction("deal_might", 0, node.target(), text=text)


@verb
@dataclass(frozen=True, slots=True)
class Fight(Verb):
    name = "fight"
    rule = '("they" | "them" | "those" "units" | "we") "deal" "damage" "equal" "to" ("their" | "our") ("might" | "mights") "to" "each" "other"'
    forms = ("they deal damage equal to their Mights to each other", "we deal damage equal to our Mights to each other")
    does = "the units are the source of the damage"
    keys = (K.DEAL_UNIT_SOURCE,)

    def build(self, node: Node, text: str) -> Instruction:
        # "we": the ability's source and the unit chosen before (its controller's unit and "it")
        return Instruction("fight", 0, Target("they"), data=("we",) if node.words()[0] == "we" else (), text=text)


@verb
@dataclass(frozen=True, slots=True)
class HealAll(Verb):
    name = "heal_all"
    rule = '"heal" "all" "friendly" "units" "here"?'
    forms = ("heal your units here",)
    does = "**extension**"
    keys = (K.HEAL_CLEARS_DAMAGE,)

    def build(self, node: Node, text: str) -> Instruction:
        return Instruction(
            "heal_all", 0, Target("each", "your", "here" if node.words()[-1] == "here" else None), text=text
        )


@verb
@dataclass(frozen=True, slots=True)
class KillAll(Verb):
    name = "kill_all"
    rule = (
        '"kill" "all" kill_state? kill_side? kill_noun ("here" | "at" ("a" | "that" | "my") "battlefield")?\n'
        'kill_state: "damaged" | "stunned" | "exhausted" | "buffed"\nkill_side: "enemy" | "friendly"\n'
        'kill_noun: "units" | "gear"'
    )
    forms = ("kill all [damaged] [enemy] units [here]", "kill all gear")
    does = "no unit is a target (352.10.d)"
    keys = (K.TARGETS_PROGRAMMATIC,)

    def build(self, node: Node, text: str) -> Instruction:
        w = node.words()
        state, side, noun = node.find("kill_state"), node.find("kill_side"), node.find("kill_noun")
        assert noun is not None
        filters: list[tuple[str, object]] = [("type", "gear" if noun.words() == ["gear"] else "unit")]
        if state is not None:
            filters.append(("state", state.words()[0]))
        where = "here" if "here" in w or "my" in w else None
        side_word = side.words()[0] if side is not None else None
        return Instruction("kill_all", 0, Target("each", side_word, where, filters=tuple(filters)), text=text)


@dataclass(frozen=True, slots=True)
class OnTarget(Verb):
    """A verb acting on one target: ``kill a unit``."""

    def build(self, node: Node, text: str) -> Instruction:
        return Instruction(self.name, 0, node.target(), text=text)


@verb
@dataclass(frozen=True, slots=True)
class Kill(OnTarget):
    name = "kill"
    rule = '"kill" target'
    forms = ("kill a unit",)
    does = "Deathknell goes onto the chain, then the unit goes to its owner's trash"
    keys = (K.KILL_INSTRUCTION_RESPONSIBLE,)


@verb
@dataclass(frozen=True, slots=True)
class Banish(OnTarget):
    name = "banish"
    rule = '"banish" target'
    forms = ("banish a unit",)
    does = "to banishment"
    keys = (K.BANISH_ACTION,)


@verb
@dataclass(frozen=True, slots=True)
class Ready(OnTarget):
    name = "ready"
    rule = '"ready" target'
    forms = ("ready a unit", "ready N runes")
    does = "`ready up to 2 runes`: the Rune Pool and runes (160-162)"
    keys = (K.READY_ACTION, K.READY_ALREADY_READY, K.READY_BY_EFFECT)

    def build(self, node: Node, text: str) -> Instruction:
        target = node.target()
        if target.kind == "rune":
            return Instruction("ready_runes", target.most, None, data=("upto",) if target.upto else (), text=text)
        return Instruction("ready", 0, target, text=text)


@verb
@dataclass(frozen=True, slots=True)
class Exhaust(OnTarget):
    name = "exhaust"
    rule = '"exhaust" target'
    forms = ("exhaust a unit",)
    keys = (K.EXHAUST_ACTION, K.EXHAUST_ALREADY_EXHAUSTED)


@verb
@dataclass(frozen=True, slots=True)
class Stun(OnTarget):
    name = "stun"
    rule = '"stun" target this_turn?'
    forms = ("stun a unit",)
    does = "a stunned unit adds no Might in combat until the next Ending Step"
    keys = (K.STUN_ACTION, K.STUN_NOT_AGAIN)


@verb
@dataclass(frozen=True, slots=True)
class Buff(OnTarget):
    name = "buff"
    rule = '"buff" target'
    forms = ("buff a unit",)
    does = "+1 Might; a unit has at most one buff"
    keys = (K.BUFF_ONE_COUNTER, K.BUFF_PLUS_ONE_MIGHT)


@verb
@dataclass(frozen=True, slots=True)
class Heal(OnTarget):
    name = "heal"
    rule = '"heal" target'
    forms = ("heal a unit",)
    does = "**extension**"
    keys = (K.HEAL_CLEARS_DAMAGE,)

    def build(self, node: Node, text: str) -> Instruction:
        what = text.split(" ", 1)[1]
        if re.fullmatch(r"(?:your|friendly) units(?: here)?", what):
            return Instruction(
                "heal_all", 0, Target("each", "your", "here" if what.endswith("here") else None), text=text
            )
        return Instruction("heal", 0, node.target(), text=text)


@verb
@dataclass(frozen=True, slots=True)
class Counter(OnTarget):
    name = "counter"
    rule = '"counter" target'
    forms = ("counter a spell",)
    does = "the spell goes to the trash and was not played"
    keys = (K.COUNTER_DOES_NOTHING, K.COUNTER_NOT_PLAYED)

    def build(self, node: Node, text: str) -> Instruction:
        target = node.target()
        if target.kind != "spell":
            raise ValueError('"counter" takes "a spell"')
        return Instruction("counter", 0, target, text=text)


@verb
@dataclass(frozen=True, slots=True)
class Recall(OnTarget):
    name = "recall"
    rule = '"recall" target "exhausted"?'
    forms = ("recall a unit [exhausted]",)
    does = "to its base; not a move. `exhausted` (**extension**): then exhausts it"
    keys = (K.RECALL_TO_BASE, K.EXHAUST_ACTION)

    def build(self, node: Node, text: str) -> Instruction:
        data = ("exhausted",) if node.words()[-1] == "exhausted" else ()
        return Instruction("recall", 0, node.target(), data=data, text=text)


@verb
@dataclass(frozen=True, slots=True)
class Return(OnTarget):
    name = "return"
    rule = (
        '"return" target "to" ("its" | "their" | "your" | "my") OWNERS? ("hand" | "hands")\nOWNERS: /owners?\'?s?\'?/'
    )
    forms = ("return a unit to its owner's hand", "return your Chosen Champion from your trash to your hand")
    keys = (K.RETURN_OWNERS_HAND, K.CHAMPION_SAME_NAME)


@verb
@dataclass(frozen=True, slots=True)
class Control(OnTarget):
    name = "control"
    rule = '("gain" | "take") "control" "of" target'
    forms = ("gain control of a unit", "take control of a unit")
    keys = (K.CONTROL_OF_PERMANENT,)


@verb
@dataclass(frozen=True, slots=True)
class Move(Verb):
    name = "move"
    rule = '"move" target FROM_HERE? ("to" PLACE)?'
    forms = ("move a unit [to PLACE]", "move me to its location and it to my original location")
    does = "PLACE is a battlefield name or `base`; or `a battlefield` / `a location`: chosen when played, with `to PLACE` in the sentence. Ignores the Standard Move's limits (FAQ)"
    keys = (K.MOVE_BY_EFFECT, K.MOVE_BETWEEN_LOCATIONS, K.TEAM_CONTROL_NOT_SHARED)

    def build(self, node: Node, text: str) -> Instruction:
        target = node.target()
        place = node.token("PLACE")
        if target.kind == "me" and place in (
            "its location and it to my location",
            "its location and it to my original location",
        ):
            return Instruction("swap", 0, Target("it"), text=text)
        if node.token("FROM_HERE") and target.where is None:
            target = _only(target, where="here")
        # the destination is the words after the last "to"; "to here": where the ability's source is
        return Instruction("move", 0, target, _place((place or "a location").rsplit(" to ", 1)[-1]), text=text)


@verb
@dataclass(frozen=True, slots=True)
class Might(Verb):
    name = "might"
    rule = '(give_to SIGNED | "an" "additional" SIGNED) "might" this_turn minimum?\ngive_to: "give" target "each"?\nminimum: ","? "to" "a" "minimum" "of" NUMBER "might"'
    forms = (
        "give a unit +N might this turn",
        "give a unit -N might this turn[, to a minimum of 1]",
        "then an additional +N might this turn",
    )
    does = "expires in the Expiration Step"
    keys = (K.MIGHT_CURRENT, K.LAYERS_SNAPSHOT)

    def build(self, node: Node, text: str) -> Instruction:
        low = node.find("minimum")
        data = (("minimum", int(low.tokens("NUMBER")[0])),) if low else ()
        # "then an additional +1 [M] this turn": to the unit the instruction before it gave Might to
        target = node.target() if node.find("give_to") is not None else Target("it")
        return Instruction("might", int(node.tokens("SIGNED")[0]), target, data=data, text=text)


@verb
@dataclass(frozen=True, slots=True)
class GiveMine(Verb):
    name = "give_mine"
    rule = 'give_to "my" "keywords" "and" PLUS_MIGHT "equal" "to" "my" "might" "this" "turn"'
    forms = ("give a unit my keywords and +[M] equal to my Might this turn",)
    keys = (K.KEYWORD_GRANTED, K.MIGHT_CURRENT)

    def build(self, node: Node, text: str) -> Instruction:
        return Instruction("give_mine", 0, node.target(), text=text)


@verb
@dataclass(frozen=True, slots=True)
class MightOfIt(Verb):
    name = "might_of_it"
    rule = '"give" PLUS_MIGHT "equal" "to" "its" "might" "to" target "this" "turn"'
    forms = ("give +[M] equal to its Might to a unit this turn",)
    does = "`its`: the unit an earlier instruction acted on, looked back at once it left the board"
    keys = (K.MIGHT_CURRENT, K.PLAY_LOOK_BACK, K.PLAY_NULL_INFORMATION)

    def build(self, node: Node, text: str) -> Instruction:
        return Instruction("might_of_it", 0, node.target(), text=text)


@verb
@dataclass(frozen=True, slots=True)
class Grant(Verb):
    name = "grant"
    rule = "give_to granted this_turn?"
    forms = ("give a unit [KEYWORD] this turn",)
    does = "keywords (with values), for the turn or (without `this turn`) for good"
    keys = (K.KEYWORD_GRANTED, K.KEYWORD_VALUES_SUMMED)

    def build(self, node: Node, text: str) -> Instruction:
        kws = node.find("granted")
        assert kws is not None
        return Instruction(
            "grant", 0, node.target(), data=(_keyword_list(kws.text), bool(node.find("this_turn"))), text=text
        )


@verb
@dataclass(frozen=True, slots=True)
class Draw(Verb):
    name = "draw"
    rule = (
        '("its" "controller" | "you")? ("draw" | "draws") (NUMBER | "a" "card" | "one") ("card" | "cards")? '
        'draw_per?\ndraw_per: "for" "each" "of" "your" described'
    )
    forms = ("draw N", "its controller draws N", "draw N for each of your Mighty units")
    does = (
        "Burn Out on an empty deck; `for each of your ...`: N for each unit of yours that fits, counted as it resolves"
    )
    keys = (K.DRAW_BY_EFFECT,)

    def build(self, node: Node, text: str) -> Instruction:
        n = node.tokens("NUMBER")
        who = "it" if node.words()[0] == "its" else "you"
        per = node.find("draw_per")
        if per is not None:
            described = per.find("described")
            assert described is not None
            each = _only(read_target(described), side="your", count=1, upto=0)
            return Instruction("draw", int(n[0]) if n else 1, None, data=(who, each), text=text)
        return Instruction("draw", int(n[0]) if n else 1, None, data=(who,), text=text)


@verb
@dataclass(frozen=True, slots=True)
class Discard(Verb):
    name = "discard"
    rule = '"discard" NUMBER'
    forms = ("discard N",)

    def build(self, node: Node, text: str) -> Instruction:
        return Instruction("discard", int(node.tokens("NUMBER")[0]), text=text)


@verb
@dataclass(frozen=True, slots=True)
class Score(Verb):
    name = "score"
    rule = '"you"? ("score" | "gain") NUMBER ("point" | "points")?'
    forms = ("score N",)
    does = "(`gain N points`): the controller gains N points (not Conquer or Hold: the final-point rule does not apply)"

    def build(self, node: Node, text: str) -> Instruction:
        return Instruction("score", int(node.tokens("NUMBER")[0]), text=text)


@verb
@dataclass(frozen=True, slots=True)
class Channel(Verb):
    name = "channel"
    rule = '(("its" "owner" | "its" "controller") "channels" | "channel") word_number ("rune" | "runes") "exhausted"?'
    forms = ("channel N runes [exhausted]", "its owner channels N runes [exhausted]")
    does = "the Rune Pool and runes (160-162)"

    def build(self, node: Node, text: str) -> Instruction:
        n = node.find("word_number")
        assert n is not None
        data: tuple[str, ...] = ("exhausted",) if node.words()[-1] == "exhausted" else ()
        if node.words()[0] == "its":  # "its owner channels": the player who owns the unit acted on before
            data = (*data, "it " + node.words()[1])
        return Instruction("channel", _n(n.words()[0]), data=data, text=text)


@verb
@dataclass(frozen=True, slots=True)
class Add(Verb):
    name = "add"
    rule = '("add" | "[add]") SYMBOLS'
    forms = ("add [N][R]",)
    does = "to the Rune Pool"

    def build(self, node: Node, text: str) -> Instruction:
        energy, power = _power(node.tokens("SYMBOLS")[0])
        return Instruction("add", energy, data=power, text=text)


@verb
@dataclass(frozen=True, slots=True)
class RecycleRune(Verb):
    name = "recycle_rune"
    rule = '"recycle" "one" "of" "your" "runes"'
    forms = ("you must recycle one of your runes",)
    does = "not a target: its controller chooses which as it resolves (`P chooses exhausted Fury rune`) when their runes differ (352.10.f)"
    keys = (K.TARGETS_MUST_NOT_TARGET,)

    def build(self, node: Node, text: str) -> Instruction:
        return Instruction("recycle_rune", 1, text=text)


@verb
@dataclass(frozen=True, slots=True)
class PlayFromHand(Verb):
    name = "play_card"
    rule = '"play" target ignoring_cost?'
    forms = (
        "play a card [with KEYWORD] from your hand[, ignoring its cost]",
        "play a unit from your trash[, ignoring its cost]",
        "play a unit from your trash, ignoring its Energy cost",
    )
    does = "from the hand, a Limited Play (406.3): the player chooses the card as it resolves (`P chooses CARD`; not a target, 352.10.a); its cost is paid unless ignored; a spell chooses its targets once the effect is done"
    keys = (K.PLAY_BY_EFFECT, K.PLAY_BY_EFFECT_NONE, K.CHOICE_NOT_TARGET_PRIVATE, K.COST_IGNORED, K.COST_MUST_PAY)

    def build(self, node: Node, text: str) -> Instruction:
        t = next(node.all("target"))
        free = node.find("ignoring_cost") is not None
        m = re.fullmatch(r"(?:a|an|one) (card|unit|gear|spell)(?: with ([a-z-]+))? from your hand", t.text)
        if m:
            filters = _card_filters(m.group(1), m.group(2))
            return Instruction(
                "play_card",
                0,
                Target("hand", "your", filters=filters),
                data=("hand", "free" if free else ""),
                text=text,
            )
        if not re.match(r"(?:a|an|target) (?:unit|gear|card).*? (?:from|in) your trash$", t.text):
            raise ValueError(f'unknown effect "{text}"')
        ignoring = node.find("ignoring_cost")
        data = () if ignoring is None else ("energy",) if ignoring.token("ENERGY_WORD") else ("free",)
        return Instruction("play_from", 0, read_target(t), data=data, text=text)


@verb
@dataclass(frozen=True, slots=True)
class UnitHere(Verb):
    name = "unit_here"
    rule = '"if" IT_S "a" "unit" "," "play" "it" "here"\nIT_S: /it\'?s/'
    forms = ("if it's a unit, play it here",)
    does = "where a unit the effect plays goes"
    keys = (K.PLAY_UNIT_LOCATION,)

    def build(self, node: Node, text: str) -> Instruction:
        return Instruction("unit_here", text=text)


@verb
@dataclass(frozen=True, slots=True)
class PreventAll(Verb):
    name = "prevent_all"
    rule = (
        '"prevent" "all" ("damage" "that" "would" "be" "dealt" "this" "turn" "by" "spells" "and" "abilities" '
        '| "spell" "and" "ability" "damage" "this" "turn")'
    )
    forms = (
        "prevent all damage that would be dealt this turn by spells and abilities",
        "prevent all spell and ability damage this turn",
    )
    keys = (K.DEAL_SOURCE_DEFAULT,)

    def build(self, node: Node, text: str) -> Instruction:
        return Instruction("prevent_all", text=text)


@verb
@dataclass(frozen=True, slots=True)
class RecycleTrash(Verb):
    name = "recycle_trash"
    rule = '"recycle" NUMBER "from" "your" "trash"'
    forms = ("recycle N from your trash",)
    does = "to the bottom of its owner's Main Deck (403)"

    def build(self, node: Node, text: str) -> Instruction:
        return Instruction("recycle_trash", int(node.tokens("NUMBER")[0]), text=text)


@verb
@dataclass(frozen=True, slots=True)
class Recycle(Verb):
    name = "recycle"
    rule = '"recycle" described'
    forms = ("recycle a card from an opponent's trash", "recycle a Mech you control")
    does = "to the bottom of its owner's Main Deck (403)"

    def build(self, node: Node, text: str) -> Instruction:
        described = node.find("described")
        assert described is not None
        target = read_target(described)
        what = text.split(" ", 1)[1]
        if not re.match(r"(?:a|an|target|another|up to \w+) ", what):
            raise ValueError(f'unknown effect "{text}"')
        if re.fullmatch(r"a rune(?: you control)?", what):
            return Instruction("recycle_rune", 1, text=text)
        if "card" in what and not what.startswith("another"):
            return Instruction("recycle", 0, target, text=text)
        # a unit or gear on the board (403.1.a); a token's destination is the Spiritforged FAQ's (faq-spiritforged-24)
        if target.kind not in ("unit", "gear", "permanent"):
            raise ValueError(f'cannot recycle "{what}" (a unit, a gear, or a card in a trash)')
        return Instruction("recycle", 0, target, text=text)


@verb
@dataclass(frozen=True, slots=True)
class PlaySelf(Verb):
    name = "play_self"
    rule = '"play" "me" "from" ("your" | "the") "trash" ignoring_cost?'
    forms = ("play me from your trash",)
    keys = (K.PLAY_NULL_INFORMATION,)

    def build(self, node: Node, text: str) -> Instruction:
        return Instruction("play_self", text=text)


@verb
@dataclass(frozen=True, slots=True)
class PlayToken(Verb):
    name = "token"
    rule = (
        '"play" word_number TOKEN_READY? NUMBER "might" TOKEN_NAME "unit" ("token" | "tokens") ("with" keyword_list)? "ready"? token_at?\n'
        "TOKEN_READY.2: /ready(?= \\d)/\n"
        'token_at: "here" | "to" PLACE | ("at" | "in" | "into") ("your" | "its")? "base"'
    )
    forms = ("play a N might NAME unit token [with KEYWORD] [here / to your base / to PLACE]",)
    does = "tokens named Recruit, Recruit#2, ... (179)"
    keys = (K.HIDE_UNITS_AT_THAT_BATTLEFIELD,)

    def build(self, node: Node, text: str) -> Instruction:
        n = node.find("word_number")
        name = node.token("TOKEN_NAME")
        assert n is not None and name is not None
        kws = node.find("keyword_list")
        at = node.find("token_at")
        where = None
        if at is not None:
            place = at.token("PLACE") or ""
            where = (
                "here"
                if at.words() == ["here"]
                else "base"
                if place in ("", "base", "your base", "its base")
                else place
            )
        # "a ready 3 [M] Sprite unit token", "a 1 [M] Recruit unit token ready"
        ready = (
            bool(node.token("TOKEN_READY"))
            or "ready" in node.words()[len(node.words()) - (len(at.words()) if at else 0) - 1 :]
        )
        return Instruction(
            "token",
            int(node.tokens("NUMBER")[0]),
            None,
            where,
            (name.strip().title(), _keyword_list(kws.text) if kws else (), ready),
            times=_n(n.words()[0]),
            text=text,
        )


@verb
@dataclass(frozen=True, slots=True)
class Weaponmaster(OnTarget):
    name = "weaponmaster"
    rule = '"weaponmaster" target'
    forms = ("weaponmaster an equipment you control",)
    does = "the Weaponmaster keyword's play effect"
    keys = (K.WEAPONMASTER_PLAY_EFFECT, K.WEAPONMASTER_STAYS, K.FAQ_WEAPONMASTER_OPTIONAL)


@verb
@dataclass(frozen=True, slots=True)
class Attach(Verb):
    name = "attach"
    rule = '"attach" ("this" | "me" | "it") "to" target "here"?'
    forms = ("attach this to a unit you control",)

    def build(self, node: Node, text: str) -> Instruction:
        target = node.target()
        if node.words()[-1] == "here" and target.where is None:
            target = _only(target, where="here")
        return Instruction("attach", 0, target, text=text)


@verb
@dataclass(frozen=True, slots=True)
class EachKills(Verb):
    name = "each_kill"
    rule = '"each" ("player" | "opponent") ("kills" | "kill") "one" "of" "their" ("units" | "unit" | "gear" | "gears")'
    forms = ("each player kills one of their units", "each opponent kills one of their gear")
    does = "each of those players, in turn order, chooses one of their own as it resolves (not a target): `P chooses UNIT`; then they die"
    keys = (K.TARGETS_EACH_PLAYER_CHOOSES, K.KILL_INSTRUCTION_RESPONSIBLE)

    def build(self, node: Node, text: str) -> Instruction:
        w = node.words()
        return Instruction("each_kill", 0, None, data=(w[1], "gear" if w[-1].startswith("gear") else "unit"), text=text)


@verb
@dataclass(frozen=True, slots=True)
class ExhaustAll(Verb):
    name = "exhaust_all"
    rule = '"exhaust" "all" kill_side? "units" ("here")?'
    forms = ("exhaust all friendly units",)
    does = "no unit is a target (352.10.d)"
    keys = (K.TARGETS_PROGRAMMATIC, K.EXHAUST_ACTION)

    def build(self, node: Node, text: str) -> Instruction:
        side = node.find("kill_side")
        w = node.words()
        return Instruction(
            "exhaust_all",
            0,
            Target("each", side.words()[0] if side else None, "here" if w[-1] == "here" else None),
            text=text,
        )


@verb
@dataclass(frozen=True, slots=True)
class SpendBuff(Verb):
    name = "spend_buff"
    rule = '"spend" ("my" | "its") "buff"'
    forms = ("spend my buff",)
    does = "removes the unit's buff; as a cost (`Spend my buff: ...`), the unit must have one (702.2.b)"
    keys = (K.BUFF_SPEND,)

    def build(self, node: Node, text: str) -> Instruction:
        return Instruction("spend_buff", 0, Target("me" if node.words()[1] == "my" else "it"), text=text)


@verb
@dataclass(frozen=True, slots=True)
class DoubleMight(Verb):
    name = "double_might"
    rule = '"double" target POSSESSIVE "might" "this" "turn"\nPOSSESSIVE: "\'s"'
    forms = ("double a friendly unit's Might this turn",)
    does = "+[M] equal to its Might as it resolves, until the Expiration Step"
    keys = (K.MIGHT_CURRENT,)

    def build(self, node: Node, text: str) -> Instruction:
        return Instruction("double_might", 0, node.target(), text=text)


# ... more verbs are appended below


_BY_NAME: dict[str, Verb] = {v.name: v for v in VERBS}

# Forms of the sentences, not of one verb: how instructions are put together (the grammar's first rules).
STRUCTURES: tuple[tuple[tuple[str, ...], str], ...] = (
    (("if you do, EFFECT",), "done only if the instruction before it was"),
    (
        ("EFFECT or EFFECT",),
        "its controller chooses one as it resolves (`P chooses draw 1`; not a target)",
    ),
    (
        ("if CONDITION, EFFECT", "EFFECT if CONDITION", "otherwise, EFFECT"),
        "CONDITION checked as it resolves: `it is stunned` (a state, or `at a battlefield`), `I am Mighty`, "
        "`it is the only unit you control`, `you control a Poro` (a target, or a tag), `there is a ready enemy "
        "unit here`, `you have 2+ units here`, `you have one or fewer cards in your hand` (units, runes); "
        "`otherwise`: when the condition before it did not hold. Opening a triggered ability's effect, it is also "
        "checked as it triggers under v1.3 (383.3.e)",
    ),
    (
        ("do this: EFFECT", "then do this: EFFECT", "do this twice: EFFECT", "if this kills it, do this: EFFECT"),
        "a reflexive trigger: a new ability on the Chain (380, 381), the rest of the paragraph",
    ),
)


def vocabulary() -> tuple[str, ...]:
    """Every documented form, verb by verb (the registry's order), then the sentences' forms."""
    return tuple(f for v in VERBS for f in v.forms) + tuple(f for forms, _ in STRUCTURES for f in forms)


def vocabulary_table() -> str:
    """The table of docs/scenarios.md, "The effect vocabulary": one row per verb of the registry.

    >>> vocabulary_table().splitlines()[2]
    '| `Legion - EFFECT` | applies only if its controller played another Main Deck card this turn (738) |'
    """
    rows = ["| instruction | what it does |", "|---|---|"]
    for forms, does in [(v.forms, v.does) for v in VERBS] + list(STRUCTURES):
        rows.append(f"| {', '.join(f'`{f}`' for f in forms)} | {does} |".replace("|  |", "| |"))
    return "\n".join(rows)


# --- the parser ------------------------------------------------------------------------------------------------
def grammar() -> str:
    """The whole grammar: the shared productions and one rule per verb of the registry."""
    lines = [GRAMMAR, "instruction: " + "\n           | ".join(f"{v.name}" for v in VERBS)]
    lines += [f"{v.name}: {v.rule}" for v in VERBS]
    return "\n".join(lines)


_OPTIONS: dict[str, Any] = {
    "start": ["start", "trigger", "cost", "passive", "additional", "paid_modifier"],
    "parser": "lalr",
    "lexer": "contextual",
    "propagate_positions": True,
    "keep_all_tokens": True,
}


def grammar_key() -> str:
    """What the shipped parse tables were built from: the grammar, the options and Lark's version."""
    return hashlib.sha256(f"{grammar()}\n{sorted(_OPTIONS.items())}\n{lark.__version__}".encode()).hexdigest()


@cache
def parser() -> Lark:
    """The LALR parser of :func:`grammar`. Building its tables takes about a second, so they ship built
    (:mod:`engine.riftbound.cardtext_tables`, written by ``python bench/write_cardtext_tables.py``) and are
    loaded in a tenth of that; tables built from another grammar or Lark are not used: the parser is built."""
    if cardtext_tables.KEY == grammar_key():
        return Lark.load(io.BytesIO(zlib.decompress(base64.b85decode(cardtext_tables.TABLES))))
    return build_parser()


def build_parser() -> Lark:
    return Lark(grammar(), **_OPTIONS)


def tables_source() -> str:
    """The module of built parse tables, as text (a generated file: the key, and Lark's pickled tables,
    compressed); ``python bench/write_cardtext_tables.py`` writes it."""
    out = io.BytesIO()
    build_parser().save(out)
    packed = base64.b85encode(zlib.compress(out.getvalue(), 9)).decode()
    lines = [packed[i : i + 100] for i in range(0, len(packed), 100)]
    return (
        '"""The parse tables of engine/riftbound/cardtext.py\'s grammar, built (generated by '
        'bench/write_cardtext_tables.py: do not edit)."""\n\n'
        f'KEY = "{grammar_key()}"\n'
        "TABLES = (\n" + "".join(f'    "{line}"\n' for line in lines) + ")\n"
    )


def _clause(node: Node) -> Instruction:
    """One clause: its instruction, built by its verb; its text is the clause's words as written."""
    parts = [next(i.children()) for i in node.children()]  # its instruction, or two joined by "or"
    if len(parts) == 2:
        body = tuple(_BY_NAME[p.rule].build(p, p.text) for p in parts)
        if any(b.chooses for b in body):  # a choice between instructions that would choose targets: not read
            raise ValueError(f'unknown effect "{node.text}"')
        return Instruction("either", 0, None, body=body, text=node.text)
    return _BY_NAME[parts[0].rule].build(parts[0], node.text)


def read_cost(text: str) -> Cost:
    """A cost written in words and symbols (normalised, ``[E]`` as ``exhaust``): energy, power, exhausting the
    object, and the instructions paid as a cost.

    >>> read_cost("[1][r], exhaust, recycle 1 from your trash").text()
    '[1][R], [E], recycle 1 from your trash'
    """
    try:
        tree = parser().parse(text, start="cost")
    except LarkError:
        part = next((p for p in re.split(r",\s*", text) if not _is_cost(p)), text)
        raise ValueError(f'cannot read the cost "{part.strip()}"') from None
    energy, exhaust = 0, False
    power: list[str] = []
    extra: list[Instruction] = []
    for part in Node(tree, text).children():
        if part.rule == "cost_exhaust" or (part.rule == "cost_symbols" and part.text == "[t]"):
            exhaust = True
        elif part.rule == "cost_symbols":
            e, p = _power(part.text)
            energy += e
            power.extend(p)
        elif part.rule == "cost_energy":
            energy += int(part.text)
        else:
            inner = next(part.children())
            extra.append(_BY_NAME[inner.rule].build(inner, part.text))
    if any(i.verb not in ("recycle_trash", "discard", "kill", "recycle_rune", "spend_buff") for i in extra):
        raise ValueError(f'cannot read the cost "{text}"')
    return Cost(energy, tuple(power), exhaust, tuple(extra))


def _is_cost(part: str) -> bool:
    try:
        parser().parse(part.strip(), start="cost")
    except LarkError:
        return False
    return True


def read_triggers(text: str) -> tuple[TriggerSpec, ...]:
    """A triggered ability's condition (normalised, without its comma) as the :class:`TriggerSpec` of each
    event it names (376): one, or two for ``When I attack or defend``.

    >>> [t.event for t in read_triggers("when i attack or defend")]
    ['attack', 'defend']
    >>> read_triggers("the first time another friendly unit dies each turn")
    (TriggerSpec(event='dies', who='other friendly', what='', nth=0, first=True, zone='board', condition='', cost=0),)
    """
    try:
        tree = parser().parse(text, start="trigger")
    except LarkError:
        raise ValueError(f'unknown trigger condition "{text.strip()}"') from None
    node = Node(tree, text)
    out: list[TriggerSpec] = []
    for event in node.children():  # "when I'm played and when I conquer": an ability for each event
        name = event.rule.removeprefix("on_")
        if name == "attack_or_defend":
            out += [TriggerSpec("attack"), TriggerSpec("defend")]
        else:
            out.append(_trigger(event, name))
    return tuple(out)


def _trigger(event: Node, name: str) -> TriggerSpec:
    kinds: dict[str, dict[str, Any]] = {
        "play": {"event": "play"},
        "play_facedown": {"event": "play", "what": "facedown"},
        "play_to_battlefield": {"event": "play", "what": "battlefield"},
        "conquer_uncontrolled": {"event": "conquer", "what": "uncontrolled"},
        "you_conquer": {"event": "conquer", "who": "you"},
        "conquer_here": {"event": "conquer", "who": "here"},
        "you_hold": {"event": "hold", "who": "you"},
        "hold_here": {"event": "hold", "who": "here"},
        "defend_here": {"event": "defend", "who": "here"},
        "moves_from_here": {"event": "move", "who": "from here"},
        "move_to_battlefield": {"event": "move", "what": "battlefield"},
        "recycle": {"event": "recycle", "who": "you"},
        "kill_spell": {"event": "kill_spell", "who": "you", "zone": "trash"},
        "stun": {"event": "stun", "who": "you"},
        "beginning": {"event": "beginning", "who": "you"},
        "end": {"event": "end", "who": "you"},
    }
    kw: dict[str, Any] = dict(kinds.get(name, {"event": name}))
    if name in ("dies", "dies_first"):
        unit = event.find("dying_unit")
        assert unit is not None
        words = [w for w in unit.words() if not w.startswith("non-") and w != "buffed"]
        side = words[1] if len(words) == 3 else "friendly" if "control" in event.words() else ""
        kw = {"event": "dies", "who": ("other " if words[0] == "another" else "") + (side or "unit")}
        kw["first"] = name == "dies_first"
        non = unit.token("NON_TAG")
        if non is not None:  # "another non-Recruit unit": not one with that tag
            kw["what"] = non
        if unit.token("DYING_STATE"):  # "a buffed friendly unit dies": buffed as it died
            kw["what"] = "buffed"
    elif name == "move_nth":  # "the third time I move in a turn"
        kw = {"event": "move", "nth": {"second": 2, "third": 3}[event.tokens("ORDINAL")[0]]}
    elif name in ("played", "played_other", "played_costly", "played_hidden", "played_their_turn"):
        what = event.find("played_what")
        assert what is not None
        kw = {"event": "played", "what": ("other " if name == "played_other" else "") + what.text}
        if name == "played_hidden":  # "when you play a card from [Hidden]": from facedown
            kw["zone"] = "board"
            kw["condition"] = "from hidden"
        if name == "played_their_turn":  # "on an opponent's turn"
            kw["condition"] = "opponent's turn"
        if name == "played_costly":
            kw["cost"] = _power(event.tokens("SYMBOLS")[0])[0]
    elif name == "played_nth":
        kw = {"event": "played", "what": "card", "nth": {"second": 2, "third": 3}[event.tokens("ORDINAL")[0]]}
    elif name == "end" and "if" in event.words():
        kw["condition"] = "at a battlefield"
    return TriggerSpec(**kw)


_SELF_CONDITIONS = {
    "mighty": "mighty",
    "attacking or defending alone": "alone",
    "at a battlefield": "at a battlefield",
    "equipped": "equipped",
    "buffed": "buffed",
}


def read_passive(text: str) -> tuple | None:
    """A passive ability (364) as (kind, fields...), or None when the statement is not one the grammar reads.

    >>> read_passive("while i'm mighty, i have deflect")
    ('self_keywords', (('Deflect', 1),), 'mighty')
    >>> read_passive("other friendly units here have +1 might")
    ('others_might', 1, 'other friendly units', 'here')
    """
    try:
        tree = parser().parse(text, start="passive")
    except LarkError:
        return None
    node = next(Node(tree, text).children())
    kind = node.rule
    cond_node = node.find("passive_cond") or node.find("near_victory") or node.find("opponent_controls")
    cond = _passive_condition(cond_node) if cond_node is not None else ""
    if isinstance(cond, Condition) and cond.kind in ("it", "only", "control", "there", "failed", "paid"):
        return None  # not a condition a passive ability is checked under here
    signed = node.tokens("SIGNED")
    kws = node.find("keyword_list")
    who = node.find("passive_who")
    here = "here" if node.find("passive_where") is not None else ""
    if kind == "self_might":
        return (kind, int(signed[0]), cond)
    if kind == "self_keywords":
        assert kws is not None
        return (kind, _keyword_list(kws.text), cond)
    if kind in ("others_might", "others_keywords"):
        assert who is not None
        first = int(signed[0]) if kind == "others_might" else _keyword_list(kws.text if kws else "")
        if node.token("IF_NOT_ALREADY"):  # "... have [Deflect] if they didn't already": not added to their own
            return (kind, first, " ".join(who.words()), here, "unless_has")
        return (kind, first, " ".join(who.words()), here)
    if kind == "equipment_keywords":
        assert kws is not None
        return (kind, _keyword_list(kws.text))
    if kind == "bonus_damage":
        w = node.words()
        return (
            kind,
            int(node.tokens("NUMBER")[0]),
            "here" if w[-1] == "here" else "",
            "your" if w[0] == "your" else "",
        )
    if kind == "no_points":
        if cond not in ("", "at a battlefield"):
            return None
        return (kind,)
    if kind == "others_enter_ready" and (who is None or " ".join(who.words()) != "other friendly units"):
        return None
    if kind == "enters_ready":
        return (kind, cond) if cond else (kind,)
    if kind == "discount":
        return (kind, int(node.tokens("SYMBOLS")[0].strip("[]")), node.words()[0])
    if kind == "others_play_to" and (who is None or " ".join(who.words()) != "friendly units"):
        return None
    if kind in ("play_to", "others_play_to"):
        to = node.find("where_to")
        assert to is not None
        return (kind, " ".join(to.words()))
    if kind in ("self_might_per", "self_discount"):
        per = next((c for c in node.children() if c.rule.startswith("count_")), None)
        count = _count(per) if per is not None else None
        if kind == "self_might_per":
            assert count is not None
            return (kind, int(signed[0]) if signed else 1, count)
        return (kind, _power(node.tokens("SYMBOLS")[0])[0], cond, count)
    if kind == "discount_min":
        what = node.find("discounted")
        assert what is not None
        tag = what.token("TAGS_POSSESSIVE")
        played = (
            tag.removesuffix("s'").title()
            if tag
            else next(w for w in what.words() if w in ("spells", "units", "cards"))
        )
        cut, least = (_power(x)[0] for x in node.tokens("SYMBOLS"))
        return (kind, cut, played, least, cond)
    if kind == "discount_optional":
        return (kind, node.tokens("SYMBOLS")[0].strip("[]"))
    return (kind,)


def _count(node: Node) -> tuple:
    """What a varying amount counts: ``("trash",)``, ``("points",)``, ``("units", Target)``."""
    if node.rule == "count_each":
        described = node.find("described")
        assert described is not None
        return ("units", read_target(described))
    return (node.rule.removeprefix("count_"),)


def _passive_condition(node: Node) -> str | Condition:
    """A passive's condition: a word for one of its source's own states (``mighty``, ``alone``), else a
    :class:`Condition`."""
    if node.rule == "near_victory":
        return Condition("near_victory", n=int(node.tokens("NUMBER")[0]), text=" ".join(node.words()))
    if node.rule == "opponent_controls":
        return Condition("opponent_controls", text=" ".join(node.words()))
    own = node.token("SELF_STATE")
    if own is not None:
        return _SELF_CONDITIONS[own]
    inner = next(node.children())
    cond = read_condition(inner if inner.rule != "condition" else next(inner.children()))
    if cond.kind == "me" and cond.state in _SELF_CONDITIONS:
        return _SELF_CONDITIONS[cond.state]  # "while I'm Mighty": the source's own state
    return cond


def read_additional(text: str) -> Cost | None:
    """An optional additional cost (356.2.b: paid only if the player chooses to) as a :class:`Cost`: energy
    and power, or an instruction paid (spend a buff, discard N, exhaust a friendly unit); None when the
    sentence is not one.

    >>> read_additional("as you play me, you may discard 1 as an additional cost").text()
    'discard 1'
    """
    try:
        tree = parser().parse(text, start="additional")
    except LarkError:
        return None
    node = next(Node(tree, text).children())
    if node.rule == "add_pay":
        energy, power = _power(node.tokens("SYMBOLS")[0])
        return Cost(energy, power)
    if node.rule == "add_discard":
        return Cost(extra=(Instruction("discard", int(node.tokens("NUMBER")[0]), text=node.text),))
    state = "buffed" if node.rule == "add_spend_buff" else "ready"
    verb = "spend_buff" if node.rule == "add_spend_buff" else "exhaust"
    aim = Target("unit", "your", filters=(("state", state),))
    return Cost(extra=(Instruction(verb, 0, aim, text=node.text),))


def read_paid_modifier(text: str) -> tuple | None:
    """What paying an optional additional cost does to the card's own cost: ``("free",)`` ("If you do, ignore
    this spell's cost"), ``("reduce", N)`` ("If you do, reduce my cost by [2]"); None when it is not one."""
    try:
        tree = parser().parse(text, start="paid_modifier")
    except LarkError:
        return None
    node = Node(tree, text)
    if node.find("paid_free") is not None:
        return ("free",)
    return ("reduce", _power(node.tokens("SYMBOLS")[0])[0])


def read(text: str) -> tuple[Instruction, ...]:
    """The instructions of one normalised paragraph; ValueError naming the words not read."""
    try:
        tree = parser().parse(text, start="start")
    except LarkError:
        raise ValueError(f'unknown effect "{_unread(text)}"') from None
    return tuple(_paragraph(next(Node(tree, text).children())))


def _unread(text: str) -> str:
    """The first clause of ``text`` the grammar cannot read on its own (what a refusal names)."""
    for part in re.split(
        rf"\.\s+|;\s*|,?\s+then\s+(?!do this)|,? and (?=(?:{_CLAUSE_VERBS})\b)|, (?=(?:{_CLAUSE_VERBS})\b)",
        text.strip().rstrip("."),
    ):
        try:
            parser().parse(part, start="start")
        except LarkError:
            return part.strip()
    return text.strip().rstrip(".")


def _paragraph(node: Node) -> list[Instruction]:
    out: list[Instruction] = []
    for c in node.children():
        out.extend([_reflexive(c)] if c.rule == "reflexive" else _sentence(c))
    return out


def _reflexive(node: Node) -> Instruction:
    cond_node = node.find("reflexive_if")
    cond = " ".join(cond_node.words()).replace(" ,", "").strip(" ,") if cond_node else ""
    times_node = node.find("reflexive_times")
    times = 1
    if times_node is not None:
        w = times_node.words()
        times = 2 if w == ["twice"] else _n(w[0])
    body_node = node.find("paragraph")
    assert body_node is not None
    tail = node.source[node.tree.meta.start_pos :]
    return Instruction("reflexive", 0, None, data=(cond,), body=tuple(_paragraph(body_node)), times=times, text=tail)


def _sentence(node: Node) -> list[Instruction]:
    if node.rule == "ifdo":
        clauses = node.find("clauses")
        assert clauses is not None
        return [Instruction("ifdo", 0, None, body=tuple(_clauses(clauses)), text=node.text)]
    if node.rule == "conditional":
        clauses = node.find("clauses")
        cond = next(c for c in node.children() if c.rule.startswith("cond_"))
        assert clauses is not None
        return [Instruction("if", 0, None, data=(read_condition(cond),), body=tuple(_clauses(clauses)), text=node.text)]
    if node.rule == "otherwise":
        clauses = node.find("clauses")
        assert clauses is not None
        return [Instruction("otherwise", 0, None, body=tuple(_clauses(clauses)), text=node.text)]
    if node.rule == "choose_two":
        first, second = list(node.all("target"))
        return [
            Instruction("choose", 0, read_target(first), text=f"choose {first.text}"),
            Instruction("choose", 0, read_target(second), text=f"choose {second.text}"),
        ]
    return _clauses(node)


def read_condition(node: Node) -> Condition:
    """The :class:`Condition` of a ``condition`` production (``it is stunned``, ``you control a Poro``)."""
    kind = node.rule.removeprefix("cond_")
    text = " ".join(node.words())
    state = node.find("cond_state")
    counted = node.find("cond_counted")
    where = node.find("cond_where")
    fields: dict[str, Any] = {"text": text}
    if state is not None:
        fields["state"] = "at a battlefield" if state.words()[0] == "at" else state.words()[0]
    if kind in ("control", "there"):
        obj = node.find("cond_object")
        assert obj is not None
        tag = obj.token("TAG_WORD")
        if tag is not None:
            target = Target("permanent", None, filters=(("tag", tag.title()),))
        else:
            target = read_target(next(obj.children()))
        fields["target"] = _only(target, side="your") if kind == "control" else target
    if kind == "only" and where is not None:
        fields["where"] = "there"  # "the only unit you control there": at its location
    if counted is not None:
        words = counted.words()
        fields["counted"] = "hand" if words[0] == "cards" else words[0]
        fields["where"] = "" if where is None else "here" if where.words() == ["here"] else "there"
    if kind == "at_least":
        fields["n"] = int(node.tokens("AT_LEAST")[0].rstrip("+"))
    elif kind == "count":
        n = node.find("word_number")
        assert n is not None
        kind = "at_least" if "more" in node.words() else "at_most"
        fields["n"] = _n(n.words()[0])
    return Condition(kind, **fields)


def _clauses(node: Node) -> list[Instruction]:
    out = []
    for c in node.children():
        if c.rule == "first_clause":
            clause = next(c.all("clause"))
            ins = _clause(clause)
            if c.find("then"):
                ins = Instruction(ins.verb, ins.amount, ins.target, ins.place, ins.data, ins.body, ins.times, c.text)
            out.append(ins)
        elif c.rule == "clause":
            out.append(_clause(c))
    return out
