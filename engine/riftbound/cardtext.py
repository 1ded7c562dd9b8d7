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
from dataclasses import dataclass, replace
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
_CLAUSE_VERBS = "kill|heal|exhaust|ready|recall|stun|buff|draw|move|deal|banish|give|reveal|look|channel|recycle|they"
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
?sentence: ifdo | conditional | otherwise | choose_two | clauses | reflexive | for_each | unless | for_pick
// "for each player that chooses cards, you and that player each draw 1": after "each other player chooses cards or runes"
for_pick: "for" "each" ("player" | "opponent") "that" "chooses" PICK_ONE "," "you" "and" "that" ("player" | "opponent") "each" clause
PICK_ONE.3: /[a-z]+(?=,)/
// "deal 6 to it unless its controller has you draw 2": that player chooses which of the two is done
unless: clause "unless" "its" "controller" "has" clause
// "for each friendly unit, you may spend its buff to ready it": the clauses once for each object that fits ("it")
for_each: "for" "each" described "," clauses
ifdo: "if" "you" "do" ","? clauses
// a condition the instructions are done under, checked as they resolve: "if it is stunned, kill it. otherwise,
// stun it", "draw 1 if you have one or fewer cards in your hand"
conditional: (then ","?)? "if" condition ("," | CONJ)? clauses | clauses "if" condition
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
         | ("a" | "an") side? "unit" "has" "died" "this" "turn" -> cond_died
         | "i" "have" "moved" word_number "times"? "this" "turn" -> cond_moved
         | ("you've" | "you" "have") "discarded" ("a" "card" | word_number "or" "more" "cards") "this" "turn" -> cond_discarded
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
pronoun: "me" | "myself" | "this" | "itself" | "that" "unit" | "it" | "them" | "they" | "those" "units"
       | "this" ("unit" | "gear" | "spell")
champion: ("your" | "a")? "chosen" "champion" (("from" | "in") "your" "trash")?
described: count? modifier* tag? noun qualifier*
?modifier: other | state | side | non_type
non_type: NON_TYPE
NON_TYPE: /non-(?:unit|spell|gear)\b/
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
    | "permanent" | "permanents" | "equipment" | "rune" | "runes" | "legend" | "battlefield" | "card" | "cards"
    | "mech" | "mechs"
?qualifier: you_control | where | in_your_trash | in_their_trash | in_trashes | might_max | with_keyword | cost_max
          | total_might | from_your_hand | from_it | not_yours | unchosen
// "a unit you don't control"; "that hasn't been chosen for this spell" (a choice of several players, each different)
not_yours: "you" "don't" "control"
unchosen: "that" "hasn't" "been" "chosen" "for" "this" "spell"
from_your_hand: "from" "your" "hand"
// "choose a card from it": from the hand an instruction before revealed
from_it: "from" "it"
you_control: "you" "control" | "of" "yours"
where: "at" "a" "battlefield" -> at_a_battlefield
     | ("here" | "at" "my" "battlefield" | "at" "this" "battlefield") -> here
     | "in" ("a" | "its" | "their" | "your") "base" -> in_a_base
     | "from" "a" "battlefield" -> at_a_battlefield
     | "at" "another" "location" -> at_another_location
     | "at" "its" "destination" -> at_its_destination
     | "there" -> there
in_your_trash: ("in" | "from") "your" "trash"
in_their_trash: ("in" | "from") "an" OPPONENTS "trash"
in_trashes: ("in" | "from") "trashes"
OPPONENTS: /opponent'?s'?/
might_max: "with" "might" NUMBER "or" "less" | "with" NUMBER "might" NUMBER "or" "less"
         | "with" NUMBER "might" "or" "less" | "with" "might" "up" "to" NUMBER
with_keyword: "with" TARGET_KEYWORD
TARGET_KEYWORD: /(?:{_TARGET_KEYWORDS})\b/
cost_max: "that" "costs" ("no" "more" "than")? SYMBOLS ("or" "less" | "and" "no" "more" "than" SYMBOLS)?
        | "costing" "no" "more" "than" SYMBOLS ("and" "no" "more" "than" SYMBOLS)?
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
       | no_score_here | victory_plus | deathknell_more | bonus_damage | enters_ready | others_enter_ready | enters_exhausted | discount
       | discount_optional | play_to | others_play_to | assigned_last | self_might_per | self_discount
       | discount_min | ability_only | no_damage | only_base | no_ready | any_buffs | others_alone | no_move_to_base
// "If I have moved twice this turn, I don't take damage": damage to the source is prevented while it holds
no_damage: ("while" | "if") passive_cond "," "i" ("don't" | "do" "not") "take" "damage"
// "While I'm at a battlefield, opponents can only play units to their base"; "..., spells and abilities can't
// ready enemy units and gear": restrictions on what opponents may do while they hold
only_base: ("while" passive_cond ",")? "opponents" "can" "only" "play" "units" "to" "their" "base"
// "I can have any number of buffs": its text supersedes the rule that a unit has at most one
any_buffs: "i" "can" "have" "any" "number" "of" "buffs"
no_ready: ("while" passive_cond ",")? "spells" "and" "abilities" "can't" "ready" "enemy" ("units" ("and" "gear")? | "gear")
// a condition on using an activated ability (377.2.b): "Use this ability only while I'm at a battlefield"
ability_only: "use" "this" "ability" "only" "while" passive_cond
self_might: ("i" "have" | "i" "get") SIGNED "might" ("while" passive_cond)?
          | ("while" | "if") passive_cond "," "i" "have" "an"? "additional"? SIGNED "might"
self_keywords: ("while" | "if") passive_cond "," "i" "have" keyword_list
others_might: passive_who passive_where? ("have" | "get") SIGNED "might" passive_where? minimum?
others_keywords: passive_who passive_where? "have" keyword_list IF_NOT_ALREADY?
// a battlefield's "units can't move from here to base" (054: can't beats can)
no_move_to_base: "units" "can't" "move" "from" "here" "to" "base"
// "while a friendly unit defends alone, it gets +2 [M]": each unit that attacks or defends alone (741.1)
others_alone: "while" ("a" | "an") side? "unit" ALONE_ROLE "," "it" ("gets" | "has") SIGNED "might"
ALONE_ROLE: /(?:attacks or defends|defends or attacks|attacks|defends) alone(?![a-z])/
IF_NOT_ALREADY: /if they didn't already\b/
passive_who: "other"? who_words? "units" | "stunned"? "enemy" "units"
who_words: "friendly" | "buffed" "friendly" | "friendly" "buffed"
passive_where: "here" | "at" "my" "battlefield"
equipment_keywords: "your" "equipment" "everywhere"? "have" keyword_list
no_points: ("while" passive_cond ",")? "opponents" "can't" "gain" "points" ("while" passive_cond)?
no_score_here: "players" "can't" "score" "here"
// "Your [Deathknell] effects trigger an additional time": each Deathknell of its controller's units
deathknell_more: "your" "deathknell" "effects" "trigger" "an" "additional" "time"
// "Increase the points needed to win the game by 1": the Victory Score (a battlefield's, while it is on the board)
victory_plus: "increase" "the" "points" "needed" "to" "win" "the" "game" "by" NUMBER
bonus_damage: "your"? "spells" "and" "abilities" "deal" NUMBER "bonus" "damage" ("to" "units" "here")?
enters_ready: ("if" passive_cond ",")? "i" "enter" "ready"
others_enter_ready: passive_who "enter" "ready"
enters_exhausted: ("this" "enters" | "i" "enter") "exhausted"
assigned_last: "i" "must" "be" "assigned" "combat" "damage" "last"
// amounts that vary: "my Might is increased by your points", "I get +1 [M] for each buffed friendly unit here"
self_might_per: "my" "might" "is" "increased" "by" per_amount | "i" "get" SIGNED "might" "for" per_each
self_discount: ("if" passive_cond ",")? ("this" "costs" | "i" "cost") SYMBOLS "less" ("for" per_each)?
             | ("this" SPELLS_WORD | "my") "energy" "cost" "is" "reduced" "by" per_amount
?per_amount: "the" "number" "of" "cards" "in" "your" "trash" -> count_trash
           | "your" "points" -> count_points
           | "the" "highest" "might" "among" described -> count_highest
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
    | "a" side? "unit" "moves" "from" "my" "location" -> on_moves_from_mine
    | "i" "conquer" -> on_conquer
    | "i" "conquer" "a" "battlefield" "that" "was" "uncontrolled" -> on_conquer_uncontrolled
    | "you" "conquer" -> on_you_conquer
    | "you" "conquer" "here" -> on_conquer_here
    | "i" "hold" -> on_hold
    | "you" "hold" -> on_you_hold
    | "you" "hold" "here" -> on_hold_here
    | "i" "die" -> on_die
    | ("this" | "i") ("leaves" | "leave") "the" "board" -> on_leave
    | "i" "move" -> on_move
    | "i" "move" "to" "a" "battlefield" -> on_move_to_battlefield
    | "an" "opponent" "moves" "to" "a" "battlefield" ("other" "than" "mine")? -> on_opponent_moves
    | dying_unit ("you" "control")? "dies" -> on_dies
    | "you" "play" ("a" | "an") played_what -> on_played
    | "you" "play" "another" played_what -> on_played_other
    | "you" "play" ("a" | "an") played_what "from" "hidden" -> on_played_hidden
    | "you" "play" ("a" | "an") played_what "on" "an" OPPONENTS "turn" -> on_played_their_turn
    | "you" "play" ("a" | "an") played_what "that" "costs" SYMBOLS "or" "more" -> on_played_costly
    | "you" "play" "your" ORDINAL "card" ("in" "a" | "each") "turn" -> on_played_nth
    | "you" "recycle" "one" "or" "more" "cards" ("to" "your" "main" "deck")? -> on_recycle
    | "you" "discard" "one" "or" "more" "cards" -> on_discard
    | "you" "discard" ("me" | "this") -> on_discard_me
    | "you" "kill" "a" "unit" "with" "a" "spell" -> on_kill_spell
    | "you" "kill" ("a" | "an") state? side? "unit" -> on_you_kill
    | "a" "player" "chooses" ("a" | "an") side? "unit" "here" "with" "a" "spell" "for" "the" "first" "time" "each" "turn" -> on_chosen_here
    | "i" "win" "a" "combat" -> on_win
    | "you" ("stun" | "ready" | "buff") acted_units -> on_you_act
    | ("i" "am" | "i'm" | "this" "is") SELF_EVENTS -> on_self_events
    | dying_unit UNIT_EVENT UNIT_ALONE? ("a" "battlefield" "you" "control")? -> on_unit_acts
?first_event: dying_unit "dies" "each" "turn" -> on_dies_first
?nth_event: "the" ORDINAL "time" "i" "move" ("in" "a" | "each") "turn" -> on_move_nth
?start_event: "start" "of" "your" ("beginning" "phase" | "turn") -> on_beginning
?end_event: "end" "of" "your" "turn" (","? "if" "i'm" "at" "a" "battlefield")? -> on_end
dying_unit: ("another" | "a" | "an") DYING_STATE? side? NON_TAG? "unit"
// "when you stun one or more enemy units", "when you ready a friendly unit": what a player's instruction did
acted_units: ("a" | "an") side? "unit" | "one" "or" "more" side? "units"
// "when a friendly unit attacks or defends alone", "when an enemy unit attacks a battlefield you control"
UNIT_EVENT: /attacks or defends(?![a-z])|defends or attacks(?![a-z])|attacks(?![a-z])|defends(?![a-z])/
UNIT_ALONE: "alone"
// "when this is played, discarded, or killed": a triggered ability for each (its card's own events)
SELF_EVENTS.2: /(?:played|discarded|killed)(?:,? (?:or )?(?:played|discarded|killed))+(?![a-z])/
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
        elif c.rule == "non_type":  # "a non-unit card"
            filters.append(("not_type", c.words()[0].removeprefix("non-")))
        elif c.rule == "noun":
            noun_words = c.words()
        elif c.rule != "one":
            qualifiers.append(c)
    raw = " ".join(noun_words).replace(" ,", ",")
    noun = _NOUNS[raw]
    if raw == "cards" and not any(c.rule in ("up_to", "any_number", "several") for c in inner.children()):
        # "cards" is read with its count ("up to 4 cards from trashes"); a bare plural is not one card
        raise ValueError(f'cannot read "{inner.text}"')
    if raw in _PLURALS and not any(c.rule in ("up_to", "any_number", "several", "one") for c in inner.children()):
        filters.append(("all", True))  # "friendly units here", "all enemy units": each that fits, none a target
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
            symbols = q.tokens("SYMBOLS")
            if len(symbols) > 1:  # "costing no more than [3] and no more than [A]": its Power cost too
                energy, power = _power(symbols[1])
                if energy:
                    raise ValueError(f'cannot read "{q.text}"')
                filters.append(("power_max", len(power)))
        elif r == "total_might":
            filters.append(("total_might", int(q.tokens("NUMBER")[0])))
        elif r == "in_your_trash":
            if noun in ("unit", "gear"):
                filters.append(("type", noun))
            noun, side = "card", "your"
        elif r == "in_their_trash":
            noun, side = "card", "enemy"
        elif r == "not_yours":
            filters.append(("not_yours", True))
        elif r == "unchosen":
            filters.append(("unchosen", True))
        elif r == "in_trashes":  # "up to 4 cards from trashes": any player's
            noun, side = "card", None
        elif r == "in_a_base" and "your" in q.words():  # "a unit in your base": a base, and yours
            where, side = "in a base", side or "your"
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
    "cards": "card",
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


_PLURALS = frozenset(("units", "gears", "spells", "facedown cards", "permanents", "runes", "mechs"))


def _counted(target: Target) -> Target:
    """A plural a phrase counts or checks ("for each of your Mighty units"): what fits, without "all"."""
    return _only(target, filters=tuple(f for f in target.filters if f != ("all", True)))


def _aimed(node: Node) -> Target:
    """The target of a verb that may say ``all`` before it (``buff all other friendly units there``)."""
    target = node.target()
    if node.words()[1] == "all" and ("all", True) not in target.filters:
        raise ValueError(f'"all" takes a plural: "{node.text}"')
    return target


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
    rule = '"legion" "-" clause NOW_INSTEAD?\nNOW_INSTEAD.2: /now instead\\b/'
    forms = ("Legion - EFFECT", "Legion - EFFECT now instead")
    does = "applies only if its controller played another Main Deck card this turn (738); `now instead`: in place of the delayed ability the effect set up before it (`kill it the next time it takes damage this turn`)"
    keys = (K.LEGION_ON_PLAY, K.LEGION_OTHER, K.LEGION_ANOTHER_CARD, K.DELAYED_TRIGGER)

    def build(self, node: Node, text: str) -> Instruction:
        data = ("instead",) if node.token("NOW_INSTEAD") else ()
        return Instruction("legion", 0, None, data=data, body=(_clause(next(node.all("clause"))),), text=text)


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
        '("and" | THEN_IT) "play" "it" (ignoring_cost | reducing_cost)?\nFROM_AMONG.2: /from among them\\b/\n'
        'THEN_IT.4: /,? then(?= play it\\b)/\nreducing_cost: ","? "reducing" "its" "cost" "by" SYMBOLS'
    )
    forms = (
        "banish a unit from among them [that has Might up to N more than the killed unit] and play it[, ignoring its cost]",
        "banish a unit from among them, then play it, reducing its cost by [5]",
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
        cut = node.find("reducing_cost")  # "reducing its cost by [5]": a discount (353.4)
        reduce = (f"reduce:{_power(cut.tokens('SYMBOLS')[0])[0]}",) if cut is not None else ()
        return Instruction(
            "play_card",
            0,
            Target("looked", "your", filters=filters),
            data=("looked", free, "banish", *reduce),
            text=text,
        )


@verb
@dataclass(frozen=True, slots=True)
class May(Verb):
    name = "may"
    rule = '"you" "may" (may_cost "to")? clause\nmay_cost: "pay" SYMBOLS ("and" "exhaust" ("me" | "this"))? | "exhaust" ("me" | "this") | "spend" ("a" | "its") "buff" | "discard" NUMBER | "kill" target'
    forms = ("you may EFFECT", "you may COST to EFFECT", "you may choose a unit")
    does = "asked as it resolves (`P accepts` / `P declines`); COST: `pay [1]`, `exhaust me`, `pay [1] and exhaust this`, `spend a buff`, `discard 1`, `kill a unit`; `you may choose` is an optional target (352.13); opening a triggered ability's effect, either is decided as it triggers under v1.3 (383.3.a)"
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
class CostTo(Verb):
    name = "cost_to"
    rule = '"recycle" ("me" | "this") "to" clause'
    forms = ("recycle me to EFFECT",)
    does = "a cost within the instruction (352.10.c.1): EFFECT is done only if the card could be recycled (from the trash it is in, as after Deathknell)"
    keys = (K.COST_WITHIN_INSTRUCTION, K.RECYCLE_TO_MAIN_DECK)

    def build(self, node: Node, text: str) -> Instruction:
        body = _clause(next(node.all("clause")))
        return Instruction("cost_to", 0, None, None, ("recycle me",), (body,), 1, text)


@verb
@dataclass(frozen=True, slots=True)
class CantPlay(Verb):
    name = "cant_play"
    rule = '(OPPONENTS | "players") "can\'t" "play" CANT_PLAY_WHAT this_turn\nCANT_PLAY_WHAT: /(?:cards|spells|units|gear)\\b/'
    forms = ("opponents can't play cards this turn", "players can't play spells this turn")
    does = "until the turn ends, the cards said cannot be played (by the controller's opponents, or by anyone), from hand or facedown"
    keys = (K.RULES_CANT_BEATS_CAN,)

    def build(self, node: Node, text: str) -> Instruction:
        who = "players" if node.words()[0] == "players" else "opponents"
        what = node.tokens("CANT_PLAY_WHAT")[0].removesuffix("s")
        return Instruction("cant_play", 0, None, data=(who, what), text=text)


@verb
@dataclass(frozen=True, slots=True)
class HideFree(Verb):
    name = "hide_free"
    rule = '"you" "can" "hide" "cards" "ignoring" ("its" | "their")? ("cost" | "costs") this_turn'
    forms = ("you can hide cards ignoring costs this turn",)
    does = "until the turn ends, its controller hides cards without paying [A]"
    keys = (K.COST_IGNORED,)

    def build(self, node: Node, text: str) -> Instruction:
        return Instruction("hide_free", text=text)


@verb
@dataclass(frozen=True, slots=True)
class WhenDamaged(Verb):
    name = "when_damaged"
    rule = (
        '"when" "any" "unit" "takes" "damage" THIS_TURN_COMMA clause'
        ' | DAMAGED_VERB "it" "the" "next" "time" "it" "takes" "damage" this_turn\n'
        "DAMAGED_VERB.2: /(?:kill|stun|banish)(?= it the next time)/\nTHIS_TURN_COMMA.3: /this turn,/"
    )
    forms = ("when any unit takes damage this turn, EFFECT", "kill it the next time it takes damage this turn")
    does = "a delayed triggered ability (383.2): EFFECT (`it`: the unit damaged) goes onto the Chain each time a unit takes damage this turn, or the next time that unit does, whether or not its source is still there"
    keys = (K.DELAYED_TRIGGER, K.DELAYED_SOURCE_IRRELEVANT)

    def build(self, node: Node, text: str) -> Instruction:
        clause = node.find("clause")
        if clause is not None:
            return Instruction("when_damaged", 0, None, data=("any",), body=(_clause(clause),), text=text)
        word = node.tokens("DAMAGED_VERB")[0]
        body = Instruction(word, 0, Target("it"), text=f"{word} it")
        return Instruction("when_damaged", 0, Target("it"), data=("next",), body=(body,), text=text)


@verb
@dataclass(frozen=True, slots=True)
class BothAtOnePlace(Verb):
    name = "both_at_one_battlefield"
    rule = '("stun" | "kill" | "exhaust" | "banish") target "and" second_target SAME_BATTLEFIELD\nSAME_BATTLEFIELD.2: /at the same battlefield\\b/'
    forms = ("stun a friendly unit and an enemy unit at the same battlefield",)
    does = "two targets that must be at one battlefield as they are chosen and as it resolves (a requirement of the group, 352.11): if they no longer are, the second is unaffected"
    keys = (K.TARGETS_GROUP_REQUIREMENT,)

    def build(self, node: Node, text: str) -> Instruction:
        word = node.words()[0]
        first, second = (read_target(t) for t in node.all("target"))
        if first.upto or second.upto or first.count != 1 or second.count != 1:
            raise ValueError(f'unknown effect "{text}"')
        first = _only(first, where="at a battlefield")
        second = _only(second, where="at a battlefield", filters=(*second.filters, ("same_place", True)))
        body = (Instruction(word, 0, first, text=f"{word} one"), Instruction(word, 0, second, text=f"{word} the other"))
        return Instruction("both", 0, None, body=body, text=text)


@verb
@dataclass(frozen=True, slots=True)
class NextTimeInstead(Verb):
    name = "next_time_instead"
    rule = 'NEXT_TIME_DIES clauses "instead"\nNEXT_TIME_DIES.3: /the next time it would die this turn,/'
    forms = ("the next time it would die this turn, EFFECT instead",)
    does = "a delayed replacement effect (383.3) on the unit chosen before: used up the first time it would die this turn (`it` in EFFECT: that unit), ordered with others by its owner (368)"
    keys = (K.DELAYED_REPLACEMENT,)

    def build(self, node: Node, text: str) -> Instruction:
        clauses = node.find("clauses")
        assert clauses is not None
        body = tuple(_clauses(clauses))
        if any(i.verb == "may" for i in body):
            # "..., you may pay [C] to heal it, ... instead": whether the death is replaced at all is the
            # player's choice as it would happen, which the delayed replacement does not ask: refused, not guessed
            raise ValueError(f'unknown effect "{text}"')
        return Instruction("next_time_instead", 0, Target("it"), data=("die",), body=body, text=text)


@verb
@dataclass(frozen=True, slots=True)
class Choose(Verb):
    name = "choose"
    rule = "choose_word target"
    forms = ("choose a unit",)
    does = "chooses without doing anything yet; `choose a friendly unit and an enemy unit` chooses two"

    def build(self, node: Node, text: str) -> Instruction:
        target = node.target()
        if target.where == "from it":  # "choose a non-unit card from it": a card of the hand revealed before
            if target.kind != "card" or target.count != 1 or target.upto:
                raise ValueError(f'unknown effect "{text}"')
            return Instruction("choose_card", 0, Target("hand", None, filters=target.filters), text=text)
        if any(k == "not_type" for k, _ in target.filters):
            raise ValueError(f'unknown effect "{text}"')
        return Instruction("choose", 0, target, text=text)


@verb
@dataclass(frozen=True, slots=True)
class ChooseOpponent(Verb):
    name = "choose_opponent"
    rule = 'choose_word "an" OPPONENT_WORD\nOPPONENT_WORD: "opponent"'
    forms = ("choose an opponent",)
    does = "the player `they` names after it: the only opponent, or (several) the one its controller names as it resolves (`P chooses Ben`)"
    keys = (K.PLAY_TARGET_VALID,)

    def build(self, node: Node, text: str) -> Instruction:
        return Instruction("choose_opponent", text=text)


@verb
@dataclass(frozen=True, slots=True)
class RevealHand(Verb):
    name = "reveal_hand"
    rule = '"they" "reveal" "their" "hand"'
    forms = ("they reveal their hand",)
    does = "the player chosen before presents the cards of their hand to all players; they stay in the hand (411)"
    keys = (K.REVEAL_PRESENTS, K.REVEAL_STAYS_IN_ZONE)

    def build(self, node: Node, text: str) -> Instruction:
        return Instruction("reveal_hand", text=text)


@verb
@dataclass(frozen=True, slots=True)
class TheyDo(Verb):
    name = "they_do"
    rule = '"they"? ("discard" | "recycle") "that" "card"'
    forms = ("choose a [non-unit] card from it, and they discard that card", "... and recycle that card")
    does = "after `they reveal their hand`: its controller chooses a card of that hand as it resolves (`P chooses CARD`; not a target: a hand is not public, 352.10.a), and its owner discards it (409) or recycles it (403)"
    keys = (K.CHOICE_NOT_TARGET_PRIVATE, K.DISCARD_ACTION, K.RECYCLE_TO_MAIN_DECK)

    def build(self, node: Node, text: str) -> Instruction:
        return Instruction("they_do", data=(node.words()[-3],), text=text)


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
class RevealUntil(Verb):
    name = "reveal_until"
    rule = '"reveal" "cards" "from" "the" "top" "of" "your" "main" "deck" "until" "you" "reveal" ("a" | "an") UNTIL_WHAT\nUNTIL_WHAT: /(?:unit|gear|spell)\\b/'
    forms = ("reveal cards from the top of your Main Deck until you reveal a unit",)
    does = "one at a time from the top, the cards staying in the deck (411); `it`: the one that fits; `the rest`: the others revealed; a card the scenario does not name stops it (what it is is unknown)"
    keys = (K.REVEAL_PRESENTS, K.REVEAL_STAYS_IN_ZONE, K.PLAY_NULL_INFORMATION)

    def build(self, node: Node, text: str) -> Instruction:
        return Instruction("reveal_until", 0, None, data=(node.tokens("UNTIL_WHAT")[0],), text=text)


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
    rule = '"recycle" ("it" | "them" | "the" "revealed" "cards" | "the" "cards" "revealed" "this" "way" | "the" "rest" | "those" "cards" | "the" "remaining" "cards")'
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
    rule = '("deal" | "it" "deals") "damage" "equal" "to" ("my" | "its") "might" "to" target'
    forms = ("deal damage equal to my Might to a unit", "it deals damage equal to its Might to a unit")
    does = "the unit is the source of the damage; `it deals`: the unit an instruction before acted on"
    keys = (K.DEAL_UNIT_SOURCE,)

    def build(self, node: Node, text: str) -> Instruction:
        it = node.words()[:2] == ["it", "deals"]
        return Instruction("deal_might", 0, node.target(), data=("it",) if it else (), text=text)


@verb
@dataclass(frozen=True, slots=True)
class DealCost(Verb):
    name = "deal_cost"
    rule = '"deal" "its" "energy" "cost" "as" "damage" "to" target'
    forms = ("deal its Energy cost as damage to a unit",)
    does = (
        "`its`: the card an instruction before acted on (`discard 1`), its printed Energy cost (131.4); none: no damage"
    )
    keys = (K.COST_BASE, K.PLAY_NULL_INFORMATION)

    def build(self, node: Node, text: str) -> Instruction:
        return Instruction("deal_cost", 0, node.target(), data=("it",), text=text)


@verb
@dataclass(frozen=True, slots=True)
class MightTo(Verb):
    name = "might_to"
    rule = '"this" "turn" "," "increase" "its" "might" "to" "the" "might" "of" target'
    forms = ("this turn, increase its Might to the Might of another friendly unit",)
    does = "`its`: the unit chosen before; it gets + the difference this turn, counted as this resolves (none if its Might is already as high)"
    keys = (K.MIGHT_CURRENT, K.LAYERS_SNAPSHOT)

    def build(self, node: Node, text: str) -> Instruction:
        return Instruction("might_to", 0, node.target(), data=("it",), text=text)


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
        return Instruction(self.name, 0, _aimed(node), text=text)


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
    rule = '"ready" "all"? target'
    forms = ("ready a unit", "ready N runes")
    does = "`ready up to 2 runes`: the Rune Pool and runes (160-162)"
    keys = (K.READY_ACTION, K.READY_ALREADY_READY, K.READY_BY_EFFECT)

    def build(self, node: Node, text: str) -> Instruction:
        target = _aimed(node)
        if target.kind == "rune":
            if ("all", True) in target.filters:  # "ready your runes": every one of them
                return Instruction("ready_runes", 0, None, data=("all",), text=text)
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
    rule = '"stun" "all"? target this_turn?'
    forms = ("stun a unit",)
    does = "a stunned unit adds no Might in combat until the next Ending Step"
    keys = (K.STUN_ACTION, K.STUN_NOT_AGAIN)


@verb
@dataclass(frozen=True, slots=True)
class Buff(OnTarget):
    name = "buff"
    rule = '"buff" "all"? target'
    forms = ("buff a unit", "buff all other friendly units there")
    does = "+1 Might; a unit has at most one buff. A plural without a count (`all`, or none: `give friendly units +1 might this turn`) is every object that fits as it resolves, none a target (352.10.d); `there`: the battlefield the effect chose, else where its trigger happened"
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
class ReturnToChampionZone(Verb):
    name = "return_champion"
    rule = '"return" target "to" "your" "champion" "zone" "if" "it" "is" "empty"'
    forms = ("return your Chosen Champion from your trash to your Champion Zone if it is empty",)
    does = "the card is put back in its owner's Champion Zone, which the rules alone never do (the card says so), only if no card is there as it resolves"
    keys = (K.CHAMPION_NOT_RETURNED, K.TEXT_CARD_SUPERSEDES, K.CHAMPION_SAME_NAME)

    def build(self, node: Node, text: str) -> Instruction:
        target = node.target()
        if target.kind != "card" or ("champion", True) not in target.filters:
            raise ValueError(f'unknown effect "{text}"')
        return Instruction("return_champion", 0, target, text=text)


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
    forms = (
        "move a unit [to PLACE]",
        "move me to its location and it to my original location",
        "move a unit to or from its base",
        "move a unit to that enemy unit's battlefield",
    )
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
        if place in ("or from its base", "or from their base", "or from base"):
            # "move a friendly unit to or from its base": the destination chosen, one end of the move its base
            return Instruction("move", 0, target, None, data=("base_end",), text=text)
        if place and re.fullmatch(r"(?:that (?:[a-z]+ )*unit's|its) battlefield", place):
            # "move a friendly unit to that enemy unit's battlefield": where the unit acted on before is
            return Instruction("move", 0, target, "there", text=text)
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
class MightPair(Verb):
    name = "might_pair"
    rule = 'give_to SIGNED "might" this_turn "and" target SIGNED "might" this_turn minimum?'
    forms = (
        "give friendly units there +N might this turn and enemy units there -N might this turn[, to a minimum of 1]",
    )
    does = "two Might changes, the verb said once: each is done as `give ...` is, top to bottom"
    keys = (K.MIGHT_CURRENT, K.LAYERS_SNAPSHOT)

    def build(self, node: Node, text: str) -> Instruction:
        low = node.find("minimum")
        data = (("minimum", int(low.tokens("NUMBER")[0])),) if low else ()
        first, second = (read_target(t) for t in node.all("target"))
        up, down = (int(n) for n in node.tokens("SIGNED"))
        head, _, tail = text.partition(" and ")
        return Instruction(
            "both",
            body=(
                Instruction("might", up, first, data=data, text=head),
                Instruction("might", down, second, data=data, text=f"give {tail}"),
            ),
            text=text,
        )


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
class Gains(Verb):
    name = "gains"
    rule = '("it" | "they") ("gains" | "gain") granted (this_turn | this_combat)?\nthis_combat: "this" "combat"'
    forms = ("it gains [KEYWORD] this combat", "it gains [KEYWORD] this turn")
    does = "the unit chosen or acted on before; `this combat`: until the combat ends"
    keys = (K.KEYWORD_GRANTED, K.KEYWORD_VALUES_SUMMED)

    def build(self, node: Node, text: str) -> Instruction:
        kws = node.find("granted")
        assert kws is not None
        until: bool | str = "combat" if node.find("this_combat") else bool(node.find("this_turn"))
        who = Target("they") if node.words()[0] == "they" else Target("it")  # "they gain": every one chosen before
        return Instruction("grant", 0, who, data=(_keyword_list(kws.text), until), text=text)


@verb
@dataclass(frozen=True, slots=True)
class GrantEither(Verb):
    name = "grant_either"
    rule = '"give" target "or" second_target granted this_turn?'
    forms = ("give a unit at a battlefield or a gear [KEYWORD]",)
    does = "one target that fits either description; keywords as `give a unit [KEYWORD]`"
    keys = (K.KEYWORD_GRANTED,)

    def build(self, node: Node, text: str) -> Instruction:
        first, second = (read_target(t) for t in node.all("target"))
        if any(t.upto or t.count != 1 or t.kind not in ("unit", "gear") for t in (first, second)):
            raise ValueError(f'unknown effect "{text}"')
        kind = first.kind if first.kind == second.kind else "permanent"
        kws = node.find("granted")
        assert kws is not None
        target = Target(kind, filters=(("either", (first, second)),))
        return Instruction("grant", 0, target, data=(_keyword_list(kws.text), bool(node.find("this_turn"))), text=text)


@verb
@dataclass(frozen=True, slots=True)
class Draw(Verb):
    name = "draw"
    rule = (
        '("its" "controller" | "you" | "they")? ("draw" | "draws") (NUMBER | "a" "card" | "one") ("card" | "cards")? '
        'draw_per?\ndraw_per: "for" "each" "of" "your" described'
    )
    forms = ("draw N", "its controller draws N", "they draw N", "draw N for each of your Mighty units")
    does = (
        "Burn Out on an empty deck; `they`: the player the trigger's condition names; `for each of your ...`: N for "
        "each unit of yours that fits, counted as it resolves"
    )
    keys = (K.DRAW_BY_EFFECT,)

    def build(self, node: Node, text: str) -> Instruction:
        n = node.tokens("NUMBER")
        who = {"its": "it", "they": "they"}.get(node.words()[0], "you")
        per = node.find("draw_per")
        if per is not None:
            described = per.find("described")
            assert described is not None
            each = _only(_counted(read_target(described)), side="your", count=1, upto=0)
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
        if t.text == "it" and free:  # "banish it. play it, ignoring its cost": the card banished before (PlayIt)
            return Instruction("play_it", 0, Target("it"), data=("you",), text=text)
        if t.text in ("me", "this") and not free:
            # "when you discard me, you may pay [R] to play me": the card from the trash it went to (PlaySelf)
            return Instruction("play_self", text=text)
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
class Split(Verb):
    name = "split"
    rule = '"deal" NUMBER "damage"? "split" "among" target'
    forms = ("deal N damage split among any number of enemy units here",)
    does = "each unit chosen is a target, at most N of them (352.14); how the N is divided is chosen as it resolves, at least 1 each (`P chooses 2`)"
    keys = (K.SPLIT_TARGETS, K.SPLIT_AT_RESOLUTION)

    def build(self, node: Node, text: str) -> Instruction:
        n = int(node.tokens("NUMBER")[0])
        target = node.target()
        if target.upto > n:  # no more targets than the damage to divide (352.14.c)
            target = _only(target, upto=n)
        return Instruction("split", n, target, text=text)


@verb
@dataclass(frozen=True, slots=True)
class RecycleSome(Verb):
    name = "recycle_some"
    rule = '"recycle" "one" "or" "both" "of" "them"'
    forms = ("recycle one or both of them",)
    does = "after `look at the top 2 cards`: its controller chooses as it resolves (`P chooses CARD`, `P chooses both`; not a target); to the bottom of the Main Deck (403)"
    keys = (K.CHOICE_NOT_TARGET_PRIVATE, K.RECYCLE_TO_MAIN_DECK)

    def build(self, node: Node, text: str) -> Instruction:
        return Instruction("recycle_some", text=text)


@verb
@dataclass(frozen=True, slots=True)
class PutBack(Verb):
    name = "put_back"
    rule = '"put" "those" "you" ("don\'t" | "do" "not") "back" "in" "any" "order"'
    forms = ("put those you don't back in any order",)
    does = "the cards looked at and left on top of the Main Deck: its controller chooses their order as it resolves, the top one first (`P chooses CARD`)"
    keys = (K.CHOICE_NOT_TARGET_PRIVATE, K.LOOK_WHEN_INSTRUCTED)

    def build(self, node: Node, text: str) -> Instruction:
        return Instruction("put_back", text=text)


@verb
@dataclass(frozen=True, slots=True)
class EachReturn(Verb):
    name = "each_return"
    rule = (
        '(STARTING_NEXT ",")? "each" ("player" | "opponent") "may" "return" ("a" | "one") "unit" "to" "its" OWNERS '
        '"hand"\nSTARTING_NEXT.2: /starting with the next player\\b/'
    )
    forms = ("starting with the next player, each player may return a unit to its owner's hand",)
    does = "each of those players in turn, as it resolves, chooses a unit or nothing (`P chooses UNIT`, `P chooses nothing`; not a target); it returns at once"
    keys = (K.TARGETS_EACH_PLAYER_CHOOSES, K.TURN_ORDER_SEQUENCE, K.RETURN_OWNERS_HAND)

    def build(self, node: Node, text: str) -> Instruction:
        who = "player" if "player" in node.words() else "opponent"
        return Instruction("each_return", 0, None, data=(who, "next" if node.token("STARTING_NEXT") else ""), text=text)


@verb
@dataclass(frozen=True, slots=True)
class MovedWith(Verb):
    name = "moved_with"
    rule = '("i" | "this") "may" "be" "moved" "with" ("it" | "them")'
    forms = ("I may be moved with it",)
    does = "asked as it resolves (`P accepts` / `P declines`): the ability's source moves to where the unit the trigger names is now"
    keys = (K.MOVE_BY_EFFECT,)

    def build(self, node: Node, text: str) -> Instruction:
        return Instruction("may", 0, None, body=(Instruction("move", 0, Target("me"), "there", text=text),), text=text)


@verb
@dataclass(frozen=True, slots=True)
class ReturnSelf(Verb):
    name = "return_self"
    rule = '"return" ("me" | "this") "from" ("your" | "the") "trash" "to" ("your" | "my" | "its" OWNERS) "hand"'
    forms = ("return this from your trash to your hand",)
    does = "a triggered ability active in the trash (378.2): the card itself, if it is still there"
    keys = (K.RETURN_OWNERS_HAND, K.PLAY_NULL_INFORMATION)

    def build(self, node: Node, text: str) -> Instruction:
        return Instruction("return_self", text=text)


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
class EachPlayer(Verb):
    name = "each_player"
    rule = (
        '"each" ("player" | "opponent") each_act\n'
        'each_act: "discards" "their" "hand" -> each_discard_hand | "draws" NUMBER -> each_draw'
    )
    forms = ("each player discards their hand, then draws N", "each opponent draws N")
    does = "each of those players in turn order; a following `then draws N` is theirs too"
    keys = (K.TURN_ORDER_SEQUENCE, K.DRAW_BY_EFFECT)

    def build(self, node: Node, text: str) -> Instruction:
        act = next(node.children())
        step = (
            Instruction("discard_hand", text=act.text)
            if act.rule == "each_discard_hand"
            else Instruction("draw", int(act.tokens("NUMBER")[0]), data=("you",), text=act.text)
        )
        return Instruction("each_player", 0, None, data=(node.words()[1],), body=(step,), text=text)


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


@verb
@dataclass(frozen=True, slots=True)
class PutLooked(Verb):
    name = "put_looked"
    rule = '"put" word_number ("of" "them")? "into" "your" "hand"'
    forms = ("put N into your hand",)
    does = "after `look at the top N cards`: its controller chooses which of them as it resolves (`P chooses CARD`; not a target), from the Main Deck to the hand"
    keys = (K.LOOK_WHEN_INSTRUCTED, K.CHOICE_NOT_TARGET_PRIVATE)

    def build(self, node: Node, text: str) -> Instruction:
        n = node.find("word_number")
        assert n is not None
        return Instruction("put_looked", _n(n.words()[0]), text=text)


@verb
@dataclass(frozen=True, slots=True)
class BuffBonus(Verb):
    name = "buff_bonus"
    rule = '"buffs" "give" "an" "additional" SIGNED "might" "to" ("friendly" | "your") "units" this_turn'
    forms = ("buffs give an additional +N might to friendly units this turn",)
    does = "each buff on its controller's units gives +1 and N more Might until the Expiration Step"
    keys = (K.BUFF_PLUS_ONE_MIGHT, K.MIGHT_CURRENT)

    def build(self, node: Node, text: str) -> Instruction:
        return Instruction("buff_bonus", int(node.tokens("SIGNED")[0]), text=text)


@verb
@dataclass(frozen=True, slots=True)
class Win(Verb):
    name = "win"
    rule = '"you" "win" "the" "game"'
    forms = ("you win the game",)
    does = "its controller wins at once: the card's text supersedes the rules of the Victory Score (002)"
    keys = (K.TEXT_CARD_SUPERSEDES,)

    def build(self, node: Node, text: str) -> Instruction:
        return Instruction("win", text=text)


@verb
@dataclass(frozen=True, slots=True)
class TakeTurn(Verb):
    name = "take_turn"
    rule = '"take" "a" "turn" "after" "this" "one"?'
    forms = ("take a turn after this one",)
    does = "an Additional Turn for its controller, after the current turn (v1.3 734); Turn Order does not change"
    keys = (K.TURN_ADDITIONAL,)

    def build(self, node: Node, text: str) -> Instruction:
        return Instruction("take_turn", text=text)


@verb
@dataclass(frozen=True, slots=True)
class AtEndOfTurn(Verb):
    name = "delayed"
    rule = "instruction AT_END_OF_TURN\nAT_END_OF_TURN.3: /at the end of this turn\\b/"
    forms = ("EFFECT at the end of this turn",)
    does = "a delayed triggered ability (383): EFFECT goes onto the Chain in the Ending Step, whether or not its source is still there"
    keys = (K.DELAYED_TRIGGER, K.DELAYED_SOURCE_IRRELEVANT)

    def build(self, node: Node, text: str) -> Instruction:
        inner = next(node.children())  # the instruction delayed
        verb = next(inner.children())
        return Instruction("delayed", 0, None, body=(_BY_NAME[verb.rule].build(verb, inner.text),), text=text)


@verb
@dataclass(frozen=True, slots=True)
class NextReady(Verb):
    name = "next_ready"
    rule = (
        '("the" "next" ("unit" | NUMBER "units") "you" "play" "this" "turn" | ALL_YOU_PLAY) ("enters" | "enter") "ready"'
        "\nALL_YOU_PLAY.2: /units you play this turn\\b/"
    )
    forms = ("the next unit you play this turn enters ready", "units you play this turn enter ready")
    does = (
        "a delayed passive ability (383.4): the next unit (or every unit) its controller plays this turn enters ready"
    )
    keys = (K.DELAYED_PASSIVE,)

    def build(self, node: Node, text: str) -> Instruction:
        if node.token("ALL_YOU_PLAY"):  # "units you play this turn enter ready": every one
            return Instruction("next_ready", 0, data=("all",), text=text)
        n = node.tokens("NUMBER")
        return Instruction("next_ready", int(n[0]) if n else 1, text=text)


@verb
@dataclass(frozen=True, slots=True)
class NextSpell(Verb):
    name = "next_spell"
    rule = '"the" "next" "spell" "you" "play" "this" "turn" ("costs" SYMBOLS "less" | "deals" NUMBER "bonus" "damage")'
    forms = (
        "the next spell you play this turn costs [N] less",
        "the next spell you play this turn deals N Bonus Damage",
    )
    does = "a delayed passive ability (383.4) on the next spell its controller plays this turn, from the hand or by an effect: its Energy cost reduced (a discount, 353.4), or each instance of damage it deals increased by N (Bonus Damage)"
    keys = (K.DELAYED_PASSIVE, K.COST_DISCOUNTS, K.BONUS_APPLIES)

    def build(self, node: Node, text: str) -> Instruction:
        symbols = node.tokens("SYMBOLS")
        if symbols:
            energy, power = _power(symbols[0])
            if power:
                raise ValueError(f'unknown effect "{text}"')
            return Instruction("next_spell", energy, data=("less",), text=text)
        return Instruction("next_spell", int(node.tokens("NUMBER")[0]), data=("bonus",), text=text)


@verb
@dataclass(frozen=True, slots=True)
class PlayIt(Verb):
    name = "play_it"
    rule = '("its" "owner" "plays" | "play") "it" "to" ("their" | "your" | "its" "owner\'s") "base" ignoring_cost'
    forms = ("banish a friendly unit, then its owner plays it to their base, ignoring its cost",)
    does = "the card an instruction before moved off the board (banished), played again by an effect (its owner's, or yours): its base costs are 0; it goes onto the Chain as a Pending Item, finalized once the effect is done"
    keys = (K.PLAY_BY_EFFECT, K.COST_IGNORED)

    def build(self, node: Node, text: str) -> Instruction:
        return Instruction(
            "play_it", 0, Target("it"), data=("owner" if node.words()[0] == "its" else "you",), text=text
        )


@verb
@dataclass(frozen=True, slots=True)
class EachChooses(Verb):
    name = "each_choose"
    rule = '(STARTING_NEXT ",")? "each" OTHER_PLAYER? ("player" | "opponent") "chooses" target\nOTHER_PLAYER: "other"'
    forms = (
        "starting with the next player, each other player chooses a unit you don't control that hasn't been chosen for this spell",
    )
    does = "each of those players in turn, as it resolves, chooses one that fits (`P chooses UNIT`; not a target, 352.10.e), each a different one with `that hasn't been chosen for this spell`; `those units` after it are the ones chosen"
    keys = (K.TARGETS_EACH_PLAYER_CHOOSES, K.TURN_ORDER_SEQUENCE)

    def build(self, node: Node, text: str) -> Instruction:
        target = node.target()
        if target.kind != "unit" or target.count != 1 or target.upto:
            raise ValueError(f'unknown effect "{text}"')
        who = ("other " if node.token("OTHER_PLAYER") else "") + ("player" if "player" in node.words() else "opponent")
        start = "next" if node.token("STARTING_NEXT") else ""
        return Instruction("each_choose", 0, _only(target, kind="each"), data=(who, start), text=text)


@verb
@dataclass(frozen=True, slots=True)
class EachPicks(Verb):
    name = "each_pick"
    rule = (
        '"each" OTHER_PLAYER? ("player" | "opponent") "chooses" PICK_PAIR\nPICK_PAIR.3: /[a-z]+ or [a-z]+(?=\\.|;|$)/'
    )
    forms = (
        "each other player chooses cards or runes",
        "for each player that chooses cards, you and that player each draw 1",
    )
    does = "each of those players, in turn order, chooses one of the two words as it resolves (`P chooses cards`); `for each player that chooses WORD, you and that player each EFFECT`: EFFECT done by its controller and by that player, once for each player who chose it"
    keys = (K.TARGETS_EACH_PLAYER_CHOOSES, K.TURN_ORDER_SEQUENCE)

    def build(self, node: Node, text: str) -> Instruction:
        first, _, second = node.tokens("PICK_PAIR")[0].partition(" or ")
        who = ("other " if node.token("OTHER_PLAYER") else "") + ("player" if "player" in node.words() else "opponent")
        return Instruction("each_pick", 0, None, data=(who, (first, second)), text=text)


@verb
@dataclass(frozen=True, slots=True)
class ActivateConquer(Verb):
    name = "activate_conquer"
    rule = '"activate" "the" "conquer" "effects" "of" ("units" | "friendly" "units") "here"'
    forms = ("activate the conquer effects of units here",)
    does = "as if a conquer had occurred here, for those units' own conquer effects only: each whose other conditions hold goes onto the Chain (the Unleashed FAQ's reading); no conquer occurs"
    keys = (K.TRIGGER_CONQUER,)

    def build(self, node: Node, text: str) -> Instruction:
        return Instruction(
            "activate_conquer", 0, Target("each", "friendly" if "friendly" in node.words() else None, "here"), text=text
        )


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
        ("EFFECT unless its controller has you EFFECT",),
        "the controller of the object `it` names chooses as it resolves which one is done (`P chooses draw 2`); "
        "the first one's targets were chosen as it was played",
    ),
    (
        ("for each OBJECT, EFFECT",),
        "EFFECT done once for each object that fits as it resolves (`it`: that one), none of them a target (352.10.d)",
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

    >>> vocabulary_table().splitlines()[2][:90]
    '| `Legion - EFFECT`, `Legion - EFFECT now instead` | applies only if its controller played'
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
        elif name == "unit_acts":
            out += _unit_acts(event)
        elif name == "self_events":  # "this is played, discarded, or killed": its own play, discard and kill
            for word in re.findall(r"played|discarded|killed", event.tokens("SELF_EVENTS")[0]):
                out.append(
                    {
                        "played": TriggerSpec("play"),
                        "discarded": TriggerSpec("discard", zone="trash"),
                        "killed": TriggerSpec("die", what="killed"),
                    }[word]
                )
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
        "moves_from_mine": {"event": "move", "who": "from my location"},
        "move_to_battlefield": {"event": "move", "what": "battlefield"},
        "opponent_moves": {"event": "move", "who": "opponent", "what": "battlefield"},
        "recycle": {"event": "recycle", "who": "you"},
        "discard": {"event": "discard", "who": "you"},
        "discard_me": {"event": "discard", "zone": "trash"},  # the card discarded sees it from the trash
        "kill_spell": {"event": "kill_spell", "who": "you", "zone": "trash"},
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
    elif name == "you_act":  # "when you stun one or more enemy units", "when you ready a friendly unit"
        what = event.find("acted_units")
        assert what is not None
        acted = next((w for w in what.words() if w in ("friendly", "enemy", "your")), "")
        kw = {"event": event.words()[1], "who": "you", "what": {"your": "friendly"}.get(acted, acted)}
        if what.words()[0] == "one":  # once for all the units one instruction acts on (376.1.b)
            kw["condition"] = "one or more"
    elif name in ("moves_from_mine", "chosen_here"):  # "a friendly unit": its side
        side_node = event.find("side")
        side_word = side_node.words()[0] if side_node is not None else ""
        if name == "chosen_here":  # "when a player chooses a friendly unit here with a spell for the first time ..."
            kw = {"event": "chosen", "who": "here", "what": side_word, "first": True}
        else:
            kw["what"] = "friendly" if side_word == "your" else side_word
    elif name == "you_kill":  # "when you kill a stunned enemy unit": what it was as it died
        kw = {"event": "kill", "who": "you", "what": " ".join(w for w in event.words()[3:-1])}
    elif name == "opponent_moves" and "other" in event.words():  # "to a battlefield other than mine"
        kw["what"] = "other battlefield"
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


def _unit_acts(event: Node) -> list[TriggerSpec]:
    """ "When a friendly unit attacks or defends alone", "when an enemy unit attacks a battlefield you control":
    an attack or defend trigger (383.4.e, 383.4.f) watching other units than its source; ``who`` the unit's
    side (``friendly``, ``enemy``, ``unit``), ``condition`` ``alone`` (741.1) or ``you control`` (the
    battlefield)."""
    unit = event.find("dying_unit")
    assert unit is not None
    if unit.token("DYING_STATE") or unit.token("NON_TAG") or unit.words()[0] == "another":
        raise ValueError(f'unknown trigger condition "{event.text}"')
    side = next((w for w in unit.words() if w in ("friendly", "enemy", "your")), "unit")
    side = {"your": "friendly"}.get(side, side)
    condition = "alone" if event.token("UNIT_ALONE") else "you control" if "control" in event.words() else ""
    happens = event.tokens("UNIT_EVENT")[0]
    if condition == "you control" and happens != "attacks":
        raise ValueError(f'unknown trigger condition "{event.text}"')
    events = [e for e in ("attack", "defend") if e in happens]
    return [TriggerSpec(e, who=side, condition=condition) for e in events]


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
        low = node.find("minimum")
        if low is not None:  # "stunned enemy units here have -8 [M], to a minimum of 1 [M]"
            return (kind, first, " ".join(who.words()), here, int(low.tokens("NUMBER")[0]))
        return (kind, first, " ".join(who.words()), here)
    if kind == "others_alone":
        side = node.find("side")
        role = (node.token("ALONE_ROLE") or "").removesuffix(" alone")
        roles = {"attacks": "attacker", "defends": "defender"}
        return (kind, int(signed[0]), f"{side.words()[0] if side else ''} units".strip(), roles.get(role, "either"))
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
        symbols = node.tokens("SYMBOLS")  # none: "my Energy cost is reduced by" the amount itself
        return (kind, _power(symbols[0])[0] if symbols else 1, cond, count)
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
    if kind in ("no_damage", "only_base"):
        return (kind, cond)
    if kind == "no_ready":
        w = node.words()
        return (kind, cond, tuple(k for k, word in (("unit", "units"), ("gear", "gear")) if word in w))
    if kind == "ability_only":
        return (kind, cond)
    if kind == "victory_plus":
        return (kind, int(node.tokens("NUMBER")[0]))
    return (kind,)


def _count(node: Node) -> tuple:
    """What a varying amount counts: ``("trash",)``, ``("points",)``, ``("units", Target)``."""
    if node.rule == "count_highest":  # "the highest Might among units you control"
        described = node.find("described")
        assert described is not None
        return ("highest", read_target(described))
    if node.rule == "count_each":
        described = node.find("described")
        assert described is not None
        return ("units", _counted(read_target(described)))
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
        read = [_reflexive(c)] if c.rule == "reflexive" else _sentence(c)
        if out and out[-1].verb == "each_player" and len(read) == 1 and read[0].text.startswith("draws "):
            # "each player discards their hand, then draws 4": the players of the clause before draw
            last = out.pop()
            read = [replace(last, body=(*last.body, read[0]), text=f"{last.text}, then {read[0].text}")]
        out.extend(read)
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
    if node.rule == "for_pick":
        clause = node.find("clause")
        assert clause is not None
        done = _clause(clause)
        if done.chooses or done.verb not in ("draw", "channel", "score"):  # what a player does for themself
            raise ValueError(f'unknown effect "{node.text}"')
        return [Instruction("for_pick", 0, None, data=(node.tokens("PICK_ONE")[0],), body=(done,), text=node.text)]
    if node.rule == "unless":
        done, instead = (_clause(c) for c in node.all("clause"))
        if instead.chooses or instead.verb != "draw" or instead.data[:1] != ("you",):
            raise ValueError(f'unknown effect "{node.text}"')  # "has you draw N": what its controller may let you do
        return [Instruction("unless", 0, None, body=(done, instead), text=node.text)]
    if node.rule == "for_each":
        described, clauses = node.find("described"), node.find("clauses")
        assert described is not None and clauses is not None
        body = tuple(_clauses(clauses))
        if any(i.chooses for i in body):  # what each one does is to "it", never to a target chosen again
            raise ValueError(f'unknown effect "{node.text}"')
        each = read_target(described)
        each = _only(each, count=1, upto=0, filters=tuple(dict.fromkeys((*each.filters, ("all", True)))))
        return [Instruction("for_each", 0, each, body=body, text=node.text)]
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
            target = _counted(read_target(next(obj.children())))
        fields["target"] = _only(target, side="your") if kind == "control" else target
    if kind == "moved":  # "if I have moved twice this turn": the source, at least n times
        n = node.find("word_number")
        assert n is not None
        fields["n"] = _n(n.words()[0])
    if kind == "discarded":  # "if you've discarded a card this turn": at least n cards
        n = node.find("word_number")
        fields["n"] = _n(n.words()[0]) if n is not None else 1
    if kind == "died":  # "an enemy unit has died this turn"
        side = node.find("side")
        fields["target"] = Target("unit", side.words()[0] if side is not None else None)
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
            ins = _clause(c)
            if out and out[-1].verb == "may":
                # "you may spend a buff to buff me and ready me": "may" (and its cost) governs every clause
                # joined to it by "and" or a comma, never only the first
                last = out.pop()
                ins = replace(last, body=(*last.body, ins), text=f"{last.text}, {ins.text}")
            out.append(ins)
    return out
