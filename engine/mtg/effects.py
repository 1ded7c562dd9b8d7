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

import itertools
import re
from dataclasses import dataclass, replace
from functools import cache

from engine.core import suggest
from engine.mtg.conditions import read_if
from engine.mtg.counts import read_count, read_each
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
        return self.target not in ("", "self", "it", "attached", "new", "those")


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
    "nonland permanent an opponent controls",
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
_N = r"(\d+|x|a|an|one|two|three|four|five|six|seven|eight|nine|ten)"
# A target kind with a number: "creature with power 4 or greater", "nonland permanent with converted mana
# cost 3 or less" (stat_kind reads it).
_STAT_KIND = re.compile(
    r"^(nonland permanent|permanent|creature|artifact|enchantment) with (power|toughness|converted mana cost|mana "
    r"value) (\d{1,2}) or (greater|less)$"
)
# A target kind with a filter of colours, card types or supertypes before its noun, each word maybe "non":
# "nonblack creature", "nonartifact, nonblack creature", "red or green creature", "nonland, nontoken
# permanent". Terms split by commas must all hold; the words of a term joined by "or", one of them
# (filter_matches reads it).
_FILTER_WORD = (
    r"(?:(?:non-?)?(?:white|blue|black|red|green|colorless|multicolored|artifact|creature|enchantment|land|"
    r"planeswalker|legendary|basic|snow|token)|non-[a-z]+)"
)
_FILTERED_KIND = re.compile(
    rf"^({_FILTER_WORD}(?: or {_FILTER_WORD})*(?:, {_FILTER_WORD}(?: or {_FILTER_WORD})*)*) "
    r"(creature|permanent|artifact|enchantment|land)$"
)
_TARGET = (
    r"(?:target ("
    + "|".join(re.escape(k) for k in TARGET_KINDS)
    + "|"
    + _STAT_KIND.pattern.strip("^$").replace("(", "(?:").replace("(?:?:", "(?:")
    + "|"
    + _FILTERED_KIND.pattern.strip("^$").replace("(", "(?:").replace("(?:?:", "(?:")
    + r")|(any target))"
)


def filtered_kind(kind: str) -> tuple[tuple[tuple[str, ...], ...], str] | None:
    """(the terms of a filtered target kind, each its words, and its noun), or None for another kind.

    >>> filtered_kind("nonartifact, nonblack creature")
    ((('nonartifact',), ('nonblack',)), 'creature')
    >>> filtered_kind("creature you control") is None, filtered_kind("creature or player") is None
    (True, True)
    """
    m = _FILTERED_KIND.match(kind)
    if m is None:
        return None
    terms = tuple(tuple(w.replace("non-", "non") for w in term.split(" or ")) for term in m[1].split(", "))
    return terms, m[2]


def filter_matches(
    terms: tuple[tuple[str, ...], ...], colours: frozenset[str], types: frozenset[str], token: bool
) -> bool:
    """Does an object of these colours, types, supertypes and subtypes (and a token or not) meet every term
    of a filtered kind, one word of each term (``nonblack``, ``red or green``, ``non-human``: a word that is no
    colour or type is a subtype)?

    >>> filter_matches((("nonartifact",), ("nonblack",)), frozenset("R"), frozenset({"creature"}), False)
    True
    >>> filter_matches((("red", "green"),), frozenset("B"), frozenset({"creature"}), False)
    False
    """

    def has(word: str) -> bool:
        if word in COLOUR_WORDS:
            return COLOUR_WORDS[word] in colours
        if word == "colorless":
            return not colours
        if word == "multicolored":
            return len(colours) > 1
        if word == "token":
            return token
        return word in types

    return all(any((not has(w[3:])) if w.startswith("non") else has(w) for w in term) for term in terms)


def stat_kind(kind: str) -> tuple[str, str, int, str] | None:
    """(the kind, the characteristic, N, "greater" or "less") of a target kind with a number, or None.

    >>> stat_kind("creature with power 4 or greater")
    ('creature', 'power', 4, 'greater')
    """
    m = _STAT_KIND.match(kind)
    return (m[1], m[2], int(m[3]), m[4]) if m else None


# "enchanted creature" / "equipped creature": the permanent the ability's source is attached to ("attached")
_SUBJECT = (
    r"(~|it|that creature|that spell or ability|that spell|(?:enchanted|equipped) (?:creature|permanent|artifact|"
    r"land))"
)
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


# A card in a graveyard a spell or ability targets: "target creature card", "target instant or sorcery card",
# "target card" (115.1: cards in graveyards are objects too). Its target kind is "KIND in your graveyard".
_CARD_TYPE = r"(?:creature|artifact|enchantment|land|instant|sorcery|planeswalker)"
_CARD_KIND = rf"((?:{_CARD_TYPE}(?: or {_CARD_TYPE})? )?card)"
IN_GRAVEYARD = " in your graveyard"
IN_A_GRAVEYARD = " in a graveyard"  # any player's graveyard ("from a graveyard")


def card_kind(kind: str) -> tuple[str, ...] | None:
    """The card types (one of them needed; () any card) of a target kind in a graveyard, or None.

    >>> card_kind("instant or sorcery card in your graveyard"), card_kind("creature")
    (('instant', 'sorcery'), None)
    """
    if not kind.endswith((IN_GRAVEYARD, IN_A_GRAVEYARD)):
        return None
    words = kind.removesuffix(IN_GRAVEYARD).removesuffix(IN_A_GRAVEYARD).removesuffix("card").strip()
    return tuple(w for w in words.split(" or ") if w)


# What is taken from the cards looked at ("a creature or land card", "a noncreature card"): pick_matches terms.
_SEL = r"((?:[a-z]+(?:,? or |, ))*[a-z]+)"
_REST_WHERE = r"(on the bottom of your library(?: in any order)?|into your graveyard)"
_REST = rf"(?: and the (?:rest|other) {_REST_WHERE})?"
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
        (r"^return (~|it) to (?:its|their) owner'?s hand$", "bounce_self"),
        (
            r"^create a token that's a copy of (~|it), except it's (white|black)(?:, it's (\d+)/(\d+))?, it has no mana "
            r"cost, and it's a ([a-z]+) in addition to its other types$",
            "copy_token",
        ),
        (
            r"^you may cast (~|it|this card) from exile (without paying its mana cost|for its madness cost)$",
            "offer_cast",
        ),
        (rf"^put {_TARGET} on top of (?:its|their) owner'?s library$", "tuck"),
        (rf"^(?:you )?draws? {_N}(?: cards?)?$", "draw"),
        (rf"^bolster {_N}$", "bolster"),
        (r"^(that player|each opponent) exiles the top card of (?:his or her|their) library$", "exile_top"),
        (rf"^monstrosity {_N}$", "monstrosity"),
        (rf"^fabricate {_N}$", "fabricate"),
        (rf"^scry {_N}$", "scry"),
        (rf"^(?:{_TARGET}|(~|it)) explores(?: again)?$", "explore"),
        (r"^target (player|opponent) reveals (?:their|his or her) hand$", "reveal_hand"),
        (
            r"^you choose an? (?:((?:[a-z]+(?:,? or |, ))*[a-z]+) )?card from it(?: with (?:converted mana cost|mana "
            r"value) (\d+) or (less|greater))?(?: and (exile|discard) that card)?$",
            "pick",
        ),
        (r"^(?:that player (discards)|(exile)) that card$", "pick_then"),
        # "Look at the top N cards of your library. You may reveal a creature card from among them and put it into
        # your hand. Put the rest on the bottom of your library in any order.": one instruction (see _looks)
        (rf"^(?:look at|reveal) the top {_N} cards of your library$", "look"),
        (
            rf"^(?:(you may) (?:reveal an? {_SEL} card from among them and put it|put an? {_SEL} card from among them)"
            rf"|put ({_N}) of them|put all {_SEL} cards revealed this way) into your hand{_REST}$",
            "look_take",
        ),
        (
            r"^put any number of them into your graveyard and the rest back on top of your library in any order$",
            "look_any",
        ),
        (rf"^(?:then )?put the rest {_REST_WHERE}$", "look_rest"),
        (rf"^(?:(?:target (player|opponent)|(each opponent)) )?discards? {_N} cards?$", "discard"),
        (rf"^return target {_CARD_KIND} from your graveyard to (your hand|the battlefield)$", "from_graveyard"),
        (rf"^(?:you )?gains? {_N} life$", "gain"),
        (rf"^(?:you )?loses? {_N} life$", "lose"),
        (rf"^each opponent loses {_N} life$", "opponent_loses"),
        (rf"^each opponent loses {_N} life and you gain that much life$", "drain"),
        (r"^you may pay ((?:\{[wubrgc](?:/[wubrgc])?\})+|(?:\{e\})+)$", "may_pay"),
        (r"^(?:you )?gets? ((?:\{e\})+)$", "energy"),  # energy counters (107.14)
        (r"^you may sacrifice (a|another) creature$", "may_sacrifice"),
        (r"^you may pair (~ with another unpaired creature you control|that creature with ~)$", "may_pair"),
        (rf"^defending player loses {_N} life$", "defending_loses"),  # the engine's games have two players
        (rf"^target (player|opponent) loses {_N} life$", "target_loses"),
        (rf"^target (player|opponent) gains {_N} life$", "target_gains"),
        (
            rf"^(?:(?:(you)|target (player|opponent)|(each opponent|each player)) )?puts? the top (?:card|{_N} cards) of "
            r"(?:your|their|his or her) library into (?:your|their|his or her) graveyard$",
            "mill",
        ),
        (rf"^its controller (loses|gains) {_N} life$", "controller_life"),
        (
            rf"^(?:enchanted|equipped) (?:creature|permanent|land|artifact)'s controller (loses|gains) {_N} life$",
            "host_life",
        ),
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
        (rf"^(tap|untap) {_SUBJECT}$", "tap_subject"),
        (rf"^gain control of (?:{_TARGET}|{_SUBJECT})( until end of turn)?$", "control"),
        (r'^(?:it has|they have|they each have) "(.+)"$', "token_has"),
        # "those creatures": each target the sentence before named ("tap up to two target creatures")
        (
            r"^those (?:creatures|permanents|lands) don't untap during their controller(?:'s|s') next untap step$",
            "those_skip",
        ),
        (r"^(tap|untap) those (?:creatures|permanents|lands)$", "those_tap"),
        (rf"^(?:enchanted|equipped) (?:creature|permanent) gets? {_PT}{_UNTIL}$", "attached_boost"),
        (rf"^(?:enchanted|equipped) (?:creature|permanent) gains? (.+?){_UNTIL}$", "attached_grant"),
        (
            rf"^put {_N} ([+-]\d+/[+-]\d+) counters? on (?:enchanted|equipped) (?:creature|permanent)$",
            "attached_counters",
        ),
        (
            rf"^(?:{_TARGET}|{_SUBJECT}) doesn't untap during (?:its controller'?s|your) next untap step$",
            "skip_untap",
        ),
        (rf"^exile {_TARGET} until ~ leaves the battlefield$", "exile_until"),
        (r"^add ((?:\{[wubrgc]\})+|\{\d\})(?: to your mana pool)?$", "add"),
        (r"^add (\{[wubrgc]\}(?:(?:,|,? or) \{[wubrgc]\})+)(?: to your mana pool)?$", "add_one_of"),
        (r"^add one mana of any colou?r(?: to your mana pool)?$", "add_any"),
        (rf"^add {_N} mana of any one colou?r(?: to your mana pool)?$", "add_any_one"),
        (rf"^put {_N} ([+-]\d+/[+-]\d+|[a-z]+) counters? on (?:{_TARGET}|(~|it))$", "counters"),
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
        # "it": the permanent the instruction before put onto the battlefield (living weapon's Germ)
        (r"^attach (?:~|this equipment|this) to (?:it|that token)$", "attach_new"),
        (r"^sacrifice (~|it)$", "sacrifice"),
        (r"^transform (~|it)$", "transform"),
        (rf"^(?:[^,]+? )?deals? damage to {_TARGET} equal to (.+)$", "damage_counted"),
        (r"^(~|it) becomes an artifact creature until end of turn$", "become"),
        (
            rf"^if (~|it) isn't renowned, put {_N} \+1/\+1 counters? on (?:~|it) and (?:~|it) becomes renowned$",
            "renown",
        ),
        # "Destroy all enchantments", "destroy all artifacts and enchantments", "destroy all nonland
        # permanents": each permanent of the kinds (a creature group is read by "group" above)
        (
            rf"^destroy all ((?:{_FILTER_WORD}(?:,? (?:or )?{_FILTER_WORD})* )?(?:permanent|artifact|enchantment|"
            r"land|creature|planeswalker)s(?: and (?:artifact|enchantment|land|creature|planeswalker)s)?)$",
            "destroy_all",
        ),
        (r"^(it|they|that creature|those creatures) can't be regenerated$", "no_regenerate"),
        (rf"^investigate(?: (twice)| {_N} times)?$", "investigate"),
        # a noncreature artifact token with the ability in quotes it has ("a colorless Treasure artifact token with
        # "{T}, Sacrifice this artifact: Add one mana of any color."", 111.10a)
        (rf'^create {_N} colou?rless ([a-z]+) artifact tokens? with "(.+)"$', "artifact_token"),
        (r"^if a creature dealt damage this way would die this turn, exile it instead$", "dies_exiled"),
        (
            rf"^(?:put|return) target {_CARD_KIND} from a graveyard (?:onto|to) the battlefield under your control$",
            "from_a_graveyard",
        ),
        (rf"^support {_N}$", "support"),
        (r"^you gain life equal to the life lost this way$", "gain_lost"),
        (
            r"^if (?:that spell|it) is countered this way, (?:exile it|put it into its owner'?s exile) instead of "
            r"putting it into its owner'?s graveyard$",
            "countered_exile",
        ),
        # "Search your library for a basic land card, reveal it, put it into your hand, then shuffle" (701.23):
        # the searching player's choice, made as it resolves (_searches joins the shuffle to it)
        (
            rf"^search your library for (a|an|up to {_N}) ([a-z ]+? )?cards?(?:,? (?:and )?reveal (?:it|that card|them|"
            r"those cards))?,? (?:and )?put (?:it|that card|them|those cards) (into your hand|onto the battlefield"
            r"(?: tapped)?)$",
            "search",
        ),
        (r"^(?:then )?shuffle(?: your library)?$", "shuffle"),
    ]
]
_WORDS = {"a": 1, "an": 1, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "x": X}
_WORDS |= {"six": 6, "seven": 7, "eight": 8, "nine": 9, "ten": 10}

VOCABULARY = (
    "deal N damage to target creature | target player | target player or planeswalker | any target | ... (also X)",
    "deal N damage to you | each opponent | each creature",
    "destroy target creature | attacking creature | tapped creature | creature with flying | ...",
    "exile target creature",
    "return target creature to its owner's hand",
    "put target creature on top of its owner's library",
    "draw N",
    "scry N",
    "~ | it | target creature you control explores",
    "[target player | each opponent] discard(s) N cards (the player discarding chooses)",
    "return target [creature | instant or sorcery | ...] card from your graveyard to your hand | the battlefield",
    "gain N life",
    "lose N life",
    "each opponent loses N life",
    "target player | opponent loses N life",
    "target player | opponent gains N life",
    "you | target player | each opponent put(s) the top N cards of your | their library into your | their graveyard",
    "its controller loses | gains N life (after an instruction with a target)",
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
    "gain control of target creature [until end of turn]",
    "exile target creature an opponent controls until ~ leaves the battlefield",
    "target creature | it doesn't untap during its controller's next untap step",
    "untap target creature",
    "put N +1/+1 (or -1/-1) counters on target creature",
    "create N P/T COLOUR NAME creature token(s) [with KEYWORD]",
    "put N P/T COLOUR NAME creature token(s) into play (the 2008 wording)",
    "prevent the next N damage that would be dealt to any target this turn",
    "prevent all combat damage that would be dealt this turn",
    "target player gets N poison counters",
    "sacrifice ~",
    "transform ~ (a double-faced card)",
    "~ becomes an artifact creature until end of turn",
    "if no spells were cast last turn | a player cast two or more spells last turn, EFFECT",
    "..., and you gain N life (two instructions)",
    "add {R} | {C}{C} | {W} or {U} | one mana of any color (mana abilities)",
)
ABILITIES = (
    "a keyword (Flying)",
    "When ~ enters|dies|attacks|blocks|deals combat damage to a player, EFFECT",
    "Whenever you cast a spell that targets ~ | When ~ becomes the target of a spell or ability, EFFECT",
    "At the beginning of your|each upkeep|end step, EFFECT",
    "Enchanted|Equipped creature gets +N/+N [and has KEYWORD]",
    "Enchanted|Equipped creature has KEYWORD",
    "Enchanted creature can't attack or block",
    "Enchanted|Equipped creature|permanent gets +N/+N, has KEYWORD, can't block, attacks each combat if able, "
    "doesn't untap during its controller's untap step, and its activated abilities can't be activated",
    "You control enchanted creature",
    "~ doesn't untap during your untap step",
    "Creatures you control get +N/+N",
    "~ can't attack | block | attack or block | be blocked",
    "~ attacks each combat if able",
    "~ can block only creatures with flying",
    "[Other] Sliver|white|attacking creatures [you control|your opponents control] get +N/+N [and have KEYWORD]",
    "~ can't be blocked by creatures with power N or less | by more than one creature | except by creatures with "
    "flying; ~ can't attack or block alone; ~ can't attack unless defending player controls an Island",
    "Instant and sorcery spells you cast cost {N} less to cast; You have no maximum hand size",
    "~ can't be countered",
    "If ~|a creature [you control|an opponent controls] would die, exile it|return it to its owner's hand instead",
    "~ enters tapped [unless you control two or fewer other lands | two or more basic lands | a Plains or an Island]",
    "As ~ enters the battlefield, you may pay N life. If you don't, it enters the battlefield tapped",
    "Whenever a|another land|creature enters the battlefield under your control, EFFECT",
    "Whenever enchanted|equipped creature attacks|blocks|attacks or blocks|dies|deals combat damage to a player, EFFECT",
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
        return "self" if subject == "~" else "attached" if subject.startswith(("enchanted", "equipped")) else "it"
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
    quoted = re.findall(r'"[^"]*"', text)  # an ability in quotes is one part of its sentence
    masked = re.sub(r'"[^"]*"', "\x00", text.strip())
    for raw in _joined_parts(masked):
        while "\x00" in raw:
            raw = raw.replace("\x00", quoted.pop(0), 1)
        words = " ".join(raw.split())
        if words:
            out.append((words.lower(), words))
    return out


_PARTS = re.compile(r",? then |,? and (?=you (?:gain|lose)s? \w+ life\b|(?:you )?gets? \{[eE]\})")
_WHERE_X_TAIL = re.compile(r",? where x is [^,]+$", re.I)


def _joined_parts(masked: str) -> list[str]:
    """The parts of each sentence (split at ``, then`` and at ``and you gain ... life``), a closing ``, where X
    is ...`` going with every part that says X: it defines X for the whole sentence (107.3, 608.2h), as in
    Tendrils of Corruption's "~ deals X damage to target creature and you gain X life, where X is ..."."""
    out: list[str] = []
    for sentence in re.split(r"[.;]\s*", masked):
        where = _WHERE_X_TAIL.search(sentence)
        parts = _PARTS.split(sentence[: where.start()] if where else sentence)
        if where is None or len(parts) == 1:
            out.extend(_PARTS.split(sentence))
            continue
        out.extend(p + where[0] if re.search(r"(?<![\w{])[xX]\b", p) else p for p in parts)
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
# The card types a token may have besides creature ("a 3/3 colorless Golem artifact creature token"): a
# token's extra then has a seventh part, its card types (its sixth, the quoted ability it has, or ()).
TOKEN_CARD_TYPES = frozenset({"artifact", "enchantment"})
# A Clue token's ability (111.10f), as read_granted reads it: (cost, effect, sacrifice this).
CLUE_ABILITY = ("{2}", "draw a card", True)


def _token(g: tuple, original: str, m: re.Match) -> Instruction:
    count, power, toughness, middle, kws = g[0], g[1], g[2], g[3], g[4]
    words = middle.split()
    colours, i = [], 0
    while i < len(words) and (words[i] in COLOUR_WORDS or words[i] in ("colorless", "and")):
        if words[i] in COLOUR_WORDS:
            colours.append(COLOUR_WORDS[words[i]])
        i += 1
    other_types = [w for w in words[i:] if w in _TOKEN_OTHER_TYPES]
    unmodelled = [w for w in other_types if w not in TOKEN_CARD_TYPES]
    if unmodelled:  # a legendary or snow token (a supertype) would be misread
        kind = " ".join(other_types)
        article = "an" if kind[0] in "aeiou" else "a"
        raise EffectError(f"{article} {kind} creature token is not modelled (a creature token is): {original!r}")
    start = m.start(4) + len(" ".join(words[:i])) + (1 if i else 0)
    said = original[start : m.end(4)].split()  # its subtypes, then its card types besides creature
    while said and said[-1].lower() in TOKEN_CARD_TYPES:
        said.pop()
    name = " ".join(said)
    if not name or any(w.lower() in _TOKEN_OTHER_TYPES for w in said):
        raise EffectError(f"a token needs a name (its creature type): {original!r}")
    try:
        keywords = read_keywords_list(kws) if kws else ()
    except KeywordError as exc:
        raise EffectError(str(exc)) from None
    extra: tuple = (int(power), int(toughness), "".join(colours), name, keywords)
    if other_types:  # an artifact creature token: no quoted ability yet (()), then its card types
        extra += ((), (*dict.fromkeys(other_types), "creature"))
    return Instruction("token", _number(count), extra=extra)


# "If this spell was kicked, EFFECT" / "if it was kicked, ..." (702.33d-e): a condition of the object itself,
# checked by the stack (a spell's choice) or the board (a permanent that was kicked), read as this one's words.
KICKED = "it was kicked"
SURGED = "its surge cost was paid"
# Conditions of what its caster chose as it was cast (Keyword.chosen): the keyword, and the designation the
# permanent it became keeps (702.33d kicked, 702.117a surge)
CHOSE = {KICKED: ("kicker", "kicked"), SURGED: ("surge", "surged")}
_IF_KICKED = re.compile(r"^if (?:(?:this spell|~|it) was (kicked)|its (surge) cost was paid), (.+)$", re.I)
# "you may pay {W/B}. If you do, ..." (extort, 702.101a): the payment asked as it resolves, and the
# instruction done only if it was paid (State.paid).
PAID = "you do"
_IF_PAID = re.compile(r"^if you do, (.+)$", re.I)
# Evolve's intervening "if" (702.100a), checked by the stack against the trigger's "that creature".
EVOLVES = "that creature's power or toughness is greater than ~'s"
_IF_EVOLVES = re.compile(r"^if that creature's power or toughness is greater than ~'s, (.+)$", re.I)


def overloaded(text: str) -> str:
    """A spell's text as overload changes it: every instance of the word "target" replaced with "each"
    (702.96a, a text-changing effect, 612).

    >>> overloaded("Tap target creature you don't control.")
    "Tap each creature you don't control."
    """
    return re.sub(r"\b([Tt])arget\b", lambda m: "Each" if m[1] == "T" else "each", text)


# Instructions a resolution handles step by step (a choice asked, a pause): never inside "if ..." or a counted
# amount, which carry out one instruction at once (engine.mtg.stack.execute).
STEPWISE = frozenset(
    {
        "may",
        "pick",
        "explore",
        "look",
        "discard",
        "scry",
        "may_sacrifice",
        "may_pair",
        "may_pay",
        "offer_cast",
        "search",
    }
)


def _wrapped(inner: Instruction, original: str) -> Instruction:
    if inner.verb in STEPWISE:
        raise EffectError(f"{inner.verb!r} after a condition or with a counted amount is not modelled: {original!r}")
    return inner


_WHERE_X = re.compile(r"^(.+?),? where x is (the number of .+|your life total|twice the number of .+)$")
_FOR_EACH = re.compile(r"^(.+?) for each (.+)$")


def _counted_amount(sentence: str, original: str) -> Instruction | None:
    """``EFFECT, where X is the number of ...`` (X counted as it resolves, 608.2h) and ``EFFECT for each ...``
    (its amounts that many times): one instruction, its amounts counted, or None when the sentence is
    neither (or its count is not one the engine reads)."""
    m = _WHERE_X.match(sentence)
    kind = "x"
    if m is None:
        m, kind = _FOR_EACH.match(sentence), "each"
    if m is None:
        return None
    said = original[m.start(2) :]
    count = read_count(said) if kind == "x" else read_each(said)
    if count is None:
        return None
    inner = _wrapped(_instruction(m[1], original[: m.end(1)]), original)
    uses = {abs(inner.amount) == X, abs(inner.amount2) == X}
    if kind == "x" and True not in uses:
        raise EffectError(f"X is counted but the effect does not say X: {original!r}")
    if kind == "each" and (True in uses or not (inner.amount or inner.amount2)):
        raise EffectError(f"'for each' of an effect with no amount to count is not modelled: {original!r}")
    return Instruction("counted", 0, inner.target, inner.who, extra=(kind, said, inner))


_INSTEAD = re.compile(r"^(?:instead (.+)|(.+) instead)$", re.I)
_THAT = re.compile(r"\b(?:that creature|that permanent or player|that permanent|that player)\b", re.I)


def _insteads(read: tuple[Instruction, ...], text: str) -> tuple[Instruction, ...]:
    """``X. If this spell was kicked, Y instead``: one instruction, Y if the spell was kicked and X otherwise
    (702.33e), Y doing to X's target what X would ("that creature" is X's target).

    >>> [i.verb for i in parse_effect("~ deals 2 damage to target creature. If this spell was kicked, it deals 4 damage "
    ...  "to that creature instead.")]
    ['either']
    """
    out: list[Instruction] = []
    for i in read:
        if i.verb != "instead":
            out.append(i)
            continue
        words, said = i.extra
        if not out:
            raise EffectError(f"'instead' with nothing before it to replace: {text!r}")
        before = out.pop()
        if before.targeted:
            said = _THAT.sub("any target" if before.target == "any" else f"target {before.target}", said)
        elif before.target in ("it", "self"):  # "It gets +2/+2 ... that creature gets +4/+4 instead"
            said = _THAT.sub("it" if before.target == "it" else "~", said)
        other = _instruction(said.lower(), said)
        if other.verb != before.verb or other.target != before.target or other.who != before.who:
            raise EffectError(f"'{said} instead' is not modelled as what replaces the instruction before it: {text!r}")
        out.append(Instruction("either", before.amount, before.target, before.who, extra=(words, other, before)))
    return tuple(out)


def _instruction(sentence: str, original: str) -> Instruction:
    kicked = _IF_KICKED.match(original) or _IF_EVOLVES.match(original) or _IF_PAID.match(original)
    if kicked is not None:
        rest = kicked[kicked.lastindex or 1]
        instead = _INSTEAD.match(rest) if kicked.re is _IF_KICKED else None
        if instead is not None:  # "If this spell was kicked, X instead": read with the instruction before it
            return Instruction("instead", 0, extra=(KICKED if kicked[1] else SURGED, instead[1] or instead[2]))
        inner = _instruction(rest.lower(), rest)
        if kicked.re is _IF_KICKED:
            words = KICKED if kicked[1] else SURGED
        else:
            words = EVOLVES if kicked.re is _IF_EVOLVES else PAID
        return Instruction("if", 0, inner.target, inner.who, extra=(words, inner))
    amounted = _counted_amount(sentence, original)
    if amounted is not None:
        return amounted
    conditional = read_if(original)
    if conditional is not None:  # "if CONDITION, EFFECT": the effect, done only if it is true (603.4)
        words, rest = conditional
        inner = _wrapped(_instruction(rest.lower(), rest), original)
        return Instruction("if", 0, inner.target, inner.who, extra=(words, inner))
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
        if verb == "offer_cast":  # its controller may cast the card now, as it resolves (608.2g)
            how = "free" if g[1].startswith("without") else "madness"
            return Instruction("offer_cast", 0, _target_of(None, None, "~" if g[0] != "it" else "it"), extra=(how,))
        if verb == "copy_token":  # embalm, eternalize (702.128a, 702.129a): a token copy of the card, except ...
            pt = (int(g[2]), int(g[3])) if g[2] else ()
            return Instruction(
                "copy_token", 0, _target_of(None, None, g[0]), extra=(COLOUR_WORDS[g[1]], pt, g[4].title())
            )
        if verb == "bounce_self":  # the object itself ("return ~ to its owner's hand")
            return Instruction("bounce", 0, _target_of(None, None, g[0]))
        if verb == "from_graveyard":  # to the hand, or onto the battlefield under your control
            where = "hand" if g[1] == "your hand" else "battlefield"
            if where == "battlefield" and (g[0] == "card" or "land" in g[0]):  # its "as it enters" choices
                raise EffectError(
                    f"a land card put onto the battlefield from a graveyard is not modelled: {original!r}"
                )
            return Instruction("from_graveyard", 0, g[0] + IN_GRAVEYARD, extra=(where,))
        if verb == "reveal_hand":
            return Instruction("reveal_hand", 0, g[0])
        if verb == "pick":  # what the card must be: terms all met, each "X or Y" (pick_matches)
            terms = tuple(t.strip() for t in re.split(r",\s*(?!or\b)", g[0] or "") if t.strip())
            _check_pick_terms(terms, original)
            return Instruction("pick", int(g[1] or 0), extra=(terms, g[2] or "", g[3] or ""))
        if verb == "discard":  # the player discarding chooses the cards (701.9b)
            return Instruction("discard", _number(g[2]), g[0] or "", "opponent" if g[1] else "" if g[0] else "you")
        if verb == "explore":  # a keyword action (701.44a): the permanent that explores
            return Instruction("explore", 0, _target_of(g[0], g[1], g[2]))
        if verb == "look":
            return Instruction("look", _number(g[0]))
        if verb == "look_take":
            return _look_take(g, original)
        if verb == "look_any":  # any of them into the graveyard, the rest back on top in the order chosen
            return Instruction("look_take", 0, extra=("any", (), "top"))
        if verb == "look_rest":
            return Instruction("look_rest", extra=(_rest_of(g[0]),))
        if verb == "pick_then":
            return Instruction("pick_then", extra=("discard" if g[0] else "exile",))
        if verb in ("draw", "gain", "lose", "scry"):
            return Instruction(verb, _number(g[0]), "", "you")
        if verb == "opponent_loses":
            return Instruction("lose", _number(g[0]), "", "opponent")
        if verb == "fabricate":  # 702.123a: N +1/+1 counters on it, or N Servos: chosen as it resolves
            return Instruction("fabricate", _number(g[0]), "self")
        if verb == "monstrosity":  # a keyword action (701.37a): the permanent's own ability
            return Instruction("monstrosity", _number(g[0]), "self")
        if verb == "exile_top":  # "that player": the player a keyword's trigger is about (ingest, 702.115a)
            return Instruction("exile_top", 1, "", "that player" if g[0] == "that player" else "opponent")
        if verb == "bolster":  # a keyword action (701.39a): counters on a creature of least toughness
            return Instruction("bolster", _number(g[0]))
        if verb == "drain":  # each opponent loses N life; you gain the total life lost (702.101a)
            return Instruction("drain", _number(g[0]), "", "opponent")
        if verb == "may_sacrifice":  # exploit (702.110a): its controller chooses a creature, or none
            return Instruction("may_sacrifice", 0, extra=(g[0],))
        if verb == "may_pair":  # soulbond (702.95a): its controller pairs the two creatures, or declines
            return Instruction("may_pair", 0)
        if verb == "may_pay":  # its controller may pay this mana as it resolves ("if you do" asks after)
            return Instruction("may_pay", 0, mana=g[0].upper())
        if verb == "energy":  # its controller gets N energy counters (107.14)
            return Instruction("energy", g[0].count("{"), "", "you")
        if verb == "defending_loses":
            return Instruction("lose", _number(g[0]), "", "defending player")
        if verb == "target_loses":
            return Instruction("lose", _number(g[1]), g[0])
        if verb == "target_gains":
            return Instruction("gain", _number(g[1]), g[0])
        if verb == "mill":  # the top cards of a library put into its owner's graveyard
            who = g[2] or ("" if g[1] else "you")
            return Instruction("mill", _number(g[3]) if g[3] else 1, g[1] or "", who)
        if verb == "host_life":  # the controller of the permanent the source is attached to
            return Instruction("lose" if g[0] == "loses" else "gain", _number(g[1]), "", "attached controller")
        if verb == "controller_life":  # the controller of the object the instruction before targeted
            return Instruction("lose" if g[0] == "loses" else "gain", _number(g[1]), "", "its controller")
        if verb == "counter_unless":
            return Instruction("counter_unless", _number(g[3]), _target_of(g[0], g[1], g[2]))
        if verb == "control":  # a control-changing effect (613.1b), for the turn or for good
            return Instruction("control", 0, _target_of(g[0], g[1], g[2]), extra=("eot",) if g[3] else ())
        if verb == "attached_boost":  # "Enchanted creature gets +1/+1 until end of turn": the one it enchants
            return Instruction("boost", _signed(g[0]), "attached", "", _signed(g[1]))
        if verb == "attached_grant":
            return Instruction("grant", 0, "attached", extra=_keywords_of(g[0]))
        if verb == "attached_counters":
            return Instruction("counters", _number(g[0]), "attached", extra=(g[1],))
        if verb == "those_skip":
            return Instruction("skip_untap", 0, "those")
        if verb == "those_tap":
            return Instruction(g[0], 0, "those")
        if verb == "skip_untap":  # a one-shot effect on its controller's next untap step (502.3)
            return Instruction("skip_untap", 0, _target_of(g[0], g[1], g[2]))
        if verb == "token_has":  # joins the token before it (_token_abilities)
            start = original.index('"') + 1
            return Instruction("token_has", extra=(original[start : original.rindex('"')],))
        if verb == "exile_until":  # returned once ~ leaves the battlefield (610.3)
            return Instruction("exile", 0, _target_of(g[0], g[1]), extra=("until ~ leaves",))
        if verb == "tap_subject":
            return Instruction(g[0], 0, _target_of(None, None, g[1]))
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
        if verb == "add_any_one":  # N mana of one colour its controller chooses
            return Instruction("add", _number(g[0]), "", "you", extra=("WUBRG",))
        if verb == "grant":
            try:
                keywords = read_keywords_list(g[3])
            except KeywordError as exc:
                raise EffectError(str(exc)) from None
            return Instruction("grant", 0, _target_of(g[0], g[1], g[2]), extra=keywords)
        if verb == "add":
            symbols = g[0].replace("{", "").replace("}", "").upper()
            return Instruction("add", 0, "", "you", 0, "C" * int(symbols) if symbols.isdigit() else symbols)
        if verb == "counters":  # +1/+1, -1/-1 or any other kind ("a charge counter") on a permanent
            target = _target_of(g[2], g[3], g[4])
            if target == "any" or "player" in target or "opponent" in target:
                raise EffectError(f"counters put on a player are not modelled: {original!r}")
            return Instruction("counters", _number(g[0]), target, extra=(g[1],))
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
        if verb == "transform":
            return Instruction("transform", 0, _target_of(None, None, g[0]))
        if verb == "damage_counted":  # "equal to the number of lands you control": counted as it resolves
            said = original[m.start(3) :] if m.start(3) >= 0 else g[2]
            if read_count(said) is None:
                raise EffectError(f"cannot read the amount {said!r} in {original!r}")
            return Instruction("damage", 0, _target_of(g[0], g[1]), extra=("count", said))
        if verb == "become":
            return Instruction("become", 0, _target_of(None, None, g[0]), extra=("artifact", "creature"))
        if verb == "renown":
            return Instruction("renown", _number(g[1]), _target_of(None, None, g[0]))
        if verb == "attach":
            return Instruction("attach", 0, _target_of(g[0], g[1]))
        if verb == "attach_new":
            return Instruction("attach", 0, "new")
        if verb == "destroy_all":
            return Instruction("destroy", 0, "", all_of(g[0]))
        if verb == "artifact_token":
            start = original.lower().index(g[1], m.start(2))
            name = original[start : start + len(g[1])]
            quoted = original[original.index('"') + 1 : original.rindex('"')]
            ability = _token_ability(quoted)
            return Instruction("token", _number(g[0]), extra=(None, None, "", name, (), ability, ("artifact",)))
        if verb == "dies_exiled":  # joins the damage before it (_searches)
            return Instruction("dies_exiled")
        if verb == "from_a_graveyard":  # any graveyard's card, onto the battlefield under its controller's control
            if g[0] == "card" or "land" in g[0]:
                raise EffectError(
                    f"a land card put onto the battlefield from a graveyard is not modelled: {original!r}"
                )
            return Instruction("from_graveyard", 0, g[0] + IN_A_GRAVEYARD, extra=("battlefield", "yours"))
        if verb == "support":  # a keyword action (701.41a), N instructions (_searches)
            return Instruction("support", _number(g[0]))
        if verb == "gain_lost":  # joins the loss of life before it (_searches)
            return Instruction("gain_lost")
        if verb == "countered_exile":  # joins the counter before it (_searches)
            return Instruction("countered_exile")
        if verb == "search":
            return _search(g, original)
        if verb == "shuffle":
            return Instruction("shuffle")
        if verb == "investigate":  # a keyword action (701.16a): a Clue token (CLUE_ABILITY)
            return Instruction("investigate", 2 if g[0] else _number(g[1]) if g[1] else 1)
        if verb == "no_regenerate":  # joins the destruction before it (_unregenerable)
            return Instruction("no_regenerate", extra=(g[0],))
    optional = re.match(r"^you may (.+)$", original, re.I)
    if optional is not None:  # "you may EFFECT": its controller chooses as it resolves (608.2d)
        inner = _instruction(optional[1].lower(), optional[1])
        if inner.verb in ("scry", "pick", "discard", "look", "reveal_hand", "explore", "counter_unless", "may", "if"):
            raise EffectError(f"a choice whether to {optional[1]!r} is not modelled")
        return Instruction("may", 0, inner.target, inner.who, extra=(inner, optional[1]))
    raise EffectError(f"cannot read effect {original!r} (known: {'; '.join(VOCABULARY)})")


@cache
def parse_effect(text: str) -> tuple[Instruction, ...]:
    """Instructions in the order written; raises :class:`EffectError` for text outside the vocabulary."""
    if parse_modes(text):
        raise EffectError(f"{text!r} is modal: give its modes with the card (they are read one by one)")
    read = _insteads(tuple(i for low, said in _sentences(text) for i in _up_to(low, said)), text)
    return _those_named(_searches(_unregenerable(_token_abilities(_looks(_picks(read, text), text)), text), text), text)


def _those_named(instructions: tuple[Instruction, ...], text: str) -> tuple[Instruction, ...]:
    """``Those creatures`` are the targets of the instruction just before or the group it acted on
    (engine.mtg.stack); after anything else they are refused, never read as nothing."""
    for before, i in zip(((None,) + instructions)[:-1], instructions):
        named = before is not None and (
            before.targeted
            or (bool(before.who) and (before.who in ("each creature", "each other creature") or read_group(before.who)))
        )
        if i.target == "those" and not named:
            raise EffectError(f"'those' names neither targets nor a group of the instruction before: {text!r}")
    return instructions


def _search(g: tuple, original: str) -> Instruction:
    """A search of its controller's library (701.23a): ``search`` with the number of cards K and extra (how,
    terms, where, revealed): how "may" (a card of a stated quality, which the player need not find, 701.23b),
    "up to" (up to K of them) or "exactly" ("a card": one must be found if there is one, 701.23d); where
    "hand", "battlefield" or "battlefield tapped"."""
    count, k, sel, where = g
    said = (sel or "").strip()
    if " or " in said or not said:
        terms = (said,) if said else ()
    else:
        terms = tuple(said.split())
    _check_pick_terms(terms, original)
    if "battlefield" in where and (not terms or ("land" in terms and "basic" not in terms)):
        raise EffectError(f"a card put onto the battlefield from a library is not modelled: {original!r}")
    how = "up to" if count.startswith("up to") else "may" if terms else "exactly"
    revealed = bool(re.search(r"\breveal\b", original, re.I))
    where = where.removeprefix("onto the ").removeprefix("into your ")
    return Instruction("search", _number(k) if k else 1, extra=(how, terms, where, revealed))


COUNTERED_EXILE = "exile"
DIES_EXILED = "exiled if it would die this turn"
# "Support N" (701.41a): on an instant or sorcery, a +1/+1 counter on each of up to N target creatures; on a
# permanent "other" target creatures, which the engine does not read (the builder refuses it there).
SUPPORT = "support"


def _searches(instructions: tuple[Instruction, ...], text: str) -> tuple[Instruction, ...]:
    """A search is followed by its library's shuffle (701.24a), which joins it; neither is read alone. A spell
    countered "this way" exiled instead of put into its owner's graveyard joins the counter before it; "you gain
    life equal to the life lost this way" joins the loss of life before it (a drain); "support N" is N counters."""
    out: list[Instruction] = []
    for i in instructions:
        if i.verb == "dies_exiled":  # "If a creature dealt damage this way would die this turn, exile it instead."
            if not out or out[-1].verb != "damage" or DIES_EXILED in out[-1].extra:
                raise EffectError(f"'dealt damage this way' follows no damage: {text!r}")
            out[-1] = replace(out[-1], extra=(*out[-1].extra, DIES_EXILED))
            continue
        if i.verb == "support":  # "Support N" on a spell: a +1/+1 counter on each of up to N target creatures
            out.extend([Instruction("counters", 1, UP_TO + "creature", extra=("+1/+1", SUPPORT))] * i.amount)
            continue
        if i.verb == "gain_lost":  # "Each opponent loses 3 life. You gain life equal to the life lost this way."
            before = out.pop() if out else Instruction("")
            inner = before.extra[2] if before.verb == "counted" else before
            if inner.verb != "lose" or inner.who != "opponent" or inner.target:
                raise EffectError(f"'the life lost this way' names no loss of life each opponent had: {text!r}")
            drain = replace(inner, verb="drain")
            out.append(replace(before, extra=(*before.extra[:2], drain)) if before.verb == "counted" else drain)
            continue
        if i.verb == "countered_exile":  # "If that spell is countered this way, exile it instead ..." (614.1a)
            if not out or out[-1].verb not in ("counter", "counter_unless") or out[-1].extra:
                raise EffectError(f"'countered this way' follows no counter: {text!r}")
            out[-1] = replace(out[-1], extra=(COUNTERED_EXILE,))
            continue
        if i.verb == "shuffle":  # "you may search ..., then shuffle": the shuffle is part of what may be done
            last = out[-1] if out else Instruction("")
            searched = last.extra[0] if last.verb == "may" else last
            if searched.verb != "search" or searched.amount2:
                raise EffectError(f"a shuffle with no search before it is not modelled: {text!r}")
            searched = replace(searched, amount2=1)
            out[-1] = replace(last, extra=(searched, *last.extra[1:])) if last.verb == "may" else searched
            continue
        out.append(i)
    if any(i.verb == "search" and not i.amount2 for i in out) or any(
        i.verb == "may" and i.extra[0].verb == "search" and not i.extra[0].amount2 for i in out
    ):
        raise EffectError(f"a search with no shuffle after it is not modelled: {text!r}")
    return tuple(out)


# "Destroy target creature. It can't be regenerated." (701.19c): the destruction before it applies no
# regeneration shield; "They can't be regenerated" joins every destruction just before it.
CANT_REGENERATE = "can't be regenerated"


def _unregenerable(instructions: tuple[Instruction, ...], text: str) -> tuple[Instruction, ...]:
    out: list[Instruction] = []
    for i in instructions:
        if i.verb != "no_regenerate":
            out.append(i)
            continue
        plural = i.extra[0] in ("they", "those creatures")
        n = len(out)
        while n and out[n - 1].verb == "destroy" and not out[n - 1].extra and (plural or n == len(out)):
            n -= 1
        if n == len(out) or (not plural and any(o.who for o in out[n:])):
            raise EffectError(f"'{i.extra[0]} can't be regenerated' follows no destruction it can mean: {text!r}")
        out[n:] = [replace(o, extra=(CANT_REGENERATE,)) for o in out[n:]]
    return tuple(out)


# A group of permanents "all KIND": each permanent of a kind (a filtered kind, or two nouns "artifacts and
# enchantments", either of them), as it resolves.
ALL_OF = "all "


def all_of(said: str) -> str:
    """The ``who`` of "destroy all ...": ``all`` and the kind in the singular (``artifact or enchantment``).

    >>> all_of("artifacts and enchantments"), all_of("nonland permanents")
    ('all artifact or enchantment', 'all nonland permanent')
    """
    return ALL_OF + " or ".join(w.removesuffix("s") for w in said.split(" and "))


def _look_take(g: tuple, original: str) -> Instruction:
    """What a sentence after "look at the top N cards" takes into the hand: ("may", terms) one card or none,
    ("exactly", K) any K of them, ("all", terms) every card that matches; and where the rest go, if said."""
    may, sel1, sel2, k, _, sel_all, rest = g
    terms_said = sel1 or sel2 or sel_all or ""
    terms = tuple(t.strip() for t in re.split(r",\s*(?!or\b)", terms_said) if t.strip())
    _check_pick_terms(terms, original)
    how = "may" if may else "exactly" if k else "all"
    return Instruction("look_take", _number(k) if k else 1, extra=(how, terms, _rest_of(rest)))


def _rest_of(said: str | None) -> str:
    return "" if not said else "bottom" if said.startswith("on the bottom") else "graveyard"


# "up to N target creatures": N targets, any of which may be left unchosen (601.2c), each an instruction of
# its own with the kind UP_TO + KIND; the same object is not chosen twice for them (115.3).
UP_TO = "up to "
_UP_TO = re.compile(r"\bup to (one|two|three|four|five) target ")
_PLURALS = [
    (re.compile(r"^(creature|permanent|land|artifact|enchantment|player|opponent)s\b"), r"\1"),
    (re.compile(r"\bcards\b"), "card"),
    (re.compile(r"\btheir owners' hands\b"), "its owner's hand"),
    (re.compile(r"\beach get\b"), "gets"),
    (re.compile(r"\beach gain\b"), "gains"),
    (re.compile(r"\band gain\b"), "and gains"),
]


def _up_to(sentence: str, original: str) -> tuple[Instruction, ...]:
    """A sentence's instructions: one, or N alike for "up to N target ..." (each its own optional target).

    >>> [i.target for i in _up_to("tap up to two target creatures", "")]
    ['up to creature', 'up to creature']
    """
    m = _UP_TO.search(sentence)
    if m is None:
        return (_instruction(sentence, original),)
    rest = sentence[m.end() :]
    for plural, single in _PLURALS:
        rest = plural.sub(single, rest)
    read = _instruction(sentence[: m.start()] + "target " + rest, original)
    if not read.targeted:
        raise EffectError(f"cannot read effect {original!r}")
    return (replace(read, target=UP_TO + read.target),) * _number(m[1])


# What a card chosen from a revealed hand may be asked to be: a card type, its negation ("nonland"), or
# legendary / nonlegendary.
PICK_WORDS = frozenset(
    {"creature", "artifact", "enchantment", "land", "instant", "sorcery", "planeswalker", "legendary", "basic"}
)


def _check_pick_terms(terms: tuple[str, ...], original: str) -> None:
    for term in terms:
        for word in term.split(" or "):
            if word.strip().removeprefix("non") not in PICK_WORDS:
                raise EffectError(f"a card that is {word.strip()!r} is not modelled in {original!r}")


def pick_matches(terms: tuple[str, ...], types: frozenset[str], supertypes: frozenset[str]) -> bool:
    """Does a card of these types meet each term of a choice (``noncreature``, ``artifact or creature``)?

    >>> pick_matches(("noncreature", "nonland"), frozenset({"instant"}), frozenset())
    True
    """
    kinds = types | supertypes
    return all(
        any((w.removeprefix("non") not in kinds) if w.startswith("non") else (w in kinds) for w in term.split(" or "))
        for term in terms
    )


def _token_abilities(instructions: tuple[Instruction, ...]) -> tuple[Instruction, ...]:
    """``Create a 1/1 ... token. It has "Sacrifice this creature: Add {C}."``: the abilities the sentence after
    a token gives it join the token's instruction (its sixth part: (cost, effect, sacrifice) of an activated
    ability, or the text of a triggered one, "~" the token)."""
    out: list[Instruction] = []
    for i in instructions:
        if i.verb != "token_has":
            out.append(i)
            continue
        if not out or out[-1].verb != "token":
            raise EffectError(f"'it has' / 'they have' {i.extra[0]!r} follows no token")
        token = out.pop()
        if len(token.extra) > 5 and token.extra[5]:
            raise EffectError(f"a token given two quoted abilities is not modelled: {i.extra[0]!r}")
        out.append(replace(token, extra=token.extra[:5] + (_token_ability(i.extra[0]),) + token.extra[6:]))
    return tuple(out)


def _token_ability(quoted: str) -> tuple:
    """A quoted ability a token has: an activated one read by :func:`read_granted`, or a triggered one's text
    ("When ~ dies, it deals 1 damage to any target"), checked as a permanent's text."""
    if re.match(r"^(?:when|whenever|at) ", quoted.lower()):
        text = _ITSELF.sub("~", quoted.strip().rstrip("."))
        read = parse_abilities(text)
        if len(read.triggers) != 1 or read.keywords or read.statics or read.replacements:
            raise EffectError(f"a token's ability {quoted!r} is not modelled")
        return ("trigger", read.triggers[0].when, read.triggers[0].effect)
    return ("activated", *read_granted(quoted, quoted))


def _looks(instructions: tuple[Instruction, ...], text: str) -> tuple[Instruction, ...]:
    """ "Look at the top N cards of your library", what is put into the hand, and where the rest go: one
    instruction, ``look`` with N and extra (how, terms, K, rest), decided by its controller as it resolves."""
    out: list[Instruction] = []
    for i in instructions:
        if i.verb == "look_take":
            if not out or out[-1].verb != "look" or out[-1].extra:
                raise EffectError(f"'from among them' follows 'look at the top N cards of your library': {text!r}")
            how, terms, rest = i.extra
            i = replace(out.pop(), extra=(how, terms, i.amount, rest))
        elif i.verb == "look_rest":
            if not out or out[-1].verb != "look" or not out[-1].extra or out[-1].extra[3]:
                raise EffectError(f"'put the rest' follows what is taken from the cards looked at: {text!r}")
            before = out.pop()
            i = replace(before, extra=(*before.extra[:3], i.extra[0]))
        out.append(i)
    if any(i.verb == "look" and (not i.extra or not i.extra[3]) for i in out):
        raise EffectError(f"cards looked at with nothing said of them all is not modelled: {text!r}")
    return tuple(out)


def _picks(instructions: tuple[Instruction, ...], text: str) -> tuple[Instruction, ...]:
    """``Target opponent reveals their hand. You choose a nonland card from it. That player discards that
    card.``: the choice follows a revealed hand, and what is done to the card chosen joins the choice."""
    out: list[Instruction] = []
    for i in instructions:
        if i.verb == "pick" and (not out or out[-1].verb != "reveal_hand"):
            raise EffectError(f"'you choose a card from it' follows 'target player reveals their hand': {text!r}")
        if i.verb == "pick_then":
            if not out or out[-1].verb != "pick" or out[-1].extra[2]:
                raise EffectError(f"'that card' names a card chosen just before it: {text!r}")
            i = Instruction("pick", out[-1].amount, extra=(*out[-1].extra[:2], i.extra[0]))
            out.pop()
        out.append(i)
    if any(i.verb == "pick" and not i.extra[2] for i in out):
        raise EffectError(f"a card chosen from a hand and nothing done to it is not modelled: {text!r}")
    return tuple(out)


def target_kinds(text: str) -> tuple[str, ...]:
    """What each target of the effect must be, in the order the targets are named."""
    return tuple(i.target for i in parse_effect(text) if i.targeted)


def uses_x(text: str) -> bool:
    return any(abs(i.amount) == X or abs(i.amount2) == X for i in parse_effect(text))


_MODAL = re.compile(r"^\s*choose (one or both|one|two)\s*(?:\u2014|--|-|:)?\s*", re.I)


@cache
def parse_modes(text: str) -> tuple[str, ...]:
    """The modes of a modal effect (``Choose one — • A. • B.``, 700.2), or ``()`` when it is not modal. Where
    more than one mode is chosen (``Choose two``, ``Choose one or both``) each legal choice is one entry, the
    modes chosen followed in the order written (608.2c), none twice (700.2d).

    >>> parse_modes("Choose one or both — • Draw a card. • You gain 2 life.")
    ('Draw a card', 'You gain 2 life', 'Draw a card. You gain 2 life')
    """
    m = _MODAL.match(text)
    if not m:
        return ()
    body = text[m.end() :]
    parts = re.split(r"\s*(?:\u2022|\n\s*[-*]\s|;\s*or\s+)\s*", body)
    modes = tuple(p.strip().rstrip(".").strip() for p in parts if p.strip().strip("."))
    if len(modes) < 2:
        raise EffectError(f"a modal effect needs two or more modes, each after a bullet (•): {text!r}")
    return _CHOICES[m.group(1).lower()](modes)


# How many modes each modal phrase chooses: every legal choice, the modes of each in the order written.
_CHOICES = {
    "one": lambda modes: modes,
    "one or both": lambda modes: (*modes, ". ".join(modes)) if len(modes) == 2 else _too_many(modes),
    "two": lambda modes: tuple(". ".join(pair) for pair in itertools.combinations(modes, 2)),
}


def _too_many(modes: tuple[str, ...]) -> tuple[str, ...]:
    raise EffectError(f"'choose one or both' with {len(modes)} modes: {'; '.join(modes)}")


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
    no_untap: bool = False  # it doesn't untap during its controller's untap step (502.3)
    no_activate: bool = False  # its activated abilities can't be activated (602.5)
    control: bool = False  # the Aura's controller controls the permanent it is attached to (layer 2, 613.1b)
    grants: tuple[tuple[str, str, bool], ...] = ()  # activated abilities it has: (cost, effect, sacrifice it)
    granted_triggers: tuple[tuple[str, str], ...] = ()  # triggered abilities it has: (when, effect), "~" it
    base: tuple[int, ...] = ()  # "has base power and toughness 0/2": (power, toughness) set in layer 7b (613.4b)
    per: str = ""  # "gets +1/+1 for each Forest you control": the count ("the number of Forest you control")
    condition: str = ""  # "as long as CONDITION": it applies only while that is true (engine.mtg.conditions)
    # a lord or anthem over a group (scope "yours" / "other yours"): the words a creature must have
    # ("sliver", "white", "nonblack", "attacking", "token", "artifact") and whose creatures ("you", "opponents",
    # "any": "Other Goblin creatures get +1/+1" covers every player's)
    group: tuple[str, ...] = ()
    whose: str = "you"
    blocked_by: tuple = ()  # "can't be blocked by creatures with power 2 or less": ("power", "less", 2);
    #                         "creatures with power less than ~'s power can't block it": ("power", "less", None)
    cant_block_stat: tuple = ()  # "~ can't block creatures with power 2 or greater": ("power", "greater", 2)
    max_blockers: int = 0  # "~ can't be blocked by more than one creature" (509.1b)
    alone: str = ""  # "~ can't attack or block alone": "attack or block", "attack", "block" (508.1c, 509.1b)
    attack_unless: str = ""  # "~ can't attack unless defending player controls an Island": the land type
    no_max_hand: bool = False  # scope "player": "You have no maximum hand size" (402.2, 613.11)
    # scope "player": "Instant and sorcery spells you cast cost {1} less to cast" (601.2f): (the words a spell
    # must have one of, as a lord's group: ("instant", "sorcery"), ("noncreature",), ("dinosaur",); whose spells:
    # "you", "opponents", "any"; the generic mana added, negative for less)
    cost_change: tuple = ()
    keeps_source: bool = False  # "This effect doesn't remove ~": the protection it gives doesn't make it fall off


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
    when: str = ""  # it applies only if this is true of the permanent: KICKED (it was kicked, 702.33e)
    condition: str = ""  # "... if CONDITION": it applies only if that is true as it enters (engine.mtg.conditions)


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
            rf"(?:the battlefield|play)|attacks|blocks|deals combat damage to a player|exploits a creature|becomes monstrous), "
            r"(.+)$",
            "trigger",
        ),
        (
            r"^(?:when|whenever) (enchanted|equipped) creature (attacks or blocks|attacks|blocks|dies|deals combat damage "
            r"to a player), (.+)$",
            "attached_trigger",
        ),
        # heroic: "Whenever you cast a spell that targets ~" (Frost Walker: "When ~ becomes the target of a
        # spell or ability"): the events "targeted by your spell" and "targeted" (603.2)
        (rf"^whenever you cast a spell that targets {_SELF}, (.+)$", "targeted_yours"),
        (rf"^(?:when|whenever) {_SELF} becomes the target of a spell or ability, (.+)$", "targeted"),
        (
            r"^at the beginning of the (upkeep|end step|draw step) of (enchanted|equipped) (creature|permanent|land|"
            r"artifact)'s controller, (.+)$",
            "attached_phase",
        ),
        (
            r"^at the (?:beginning|start) of (your|each|the) (upkeep|draw step|precombat main phase|combat|end step|postcombat main "
            r"phase),? (.+)$",
            "phase_trigger",
        ),
        (rf"^(?:enchanted|equipped) creature gets {_PT}(?: and has ([^\"]+))?$", "attached"),
        (r"^(?:enchanted|equipped) creature has (?!base )([^\"]+)$", "attached_has"),
        (r"^(?:enchanted|equipped) creature can't (attack or block|attack|block)$", "attached_cant"),
        (r"^you control enchanted (creature|permanent|artifact|land)$", "attached_control"),
        (rf"^{_SELF} doesn't untap during your untap step$", "self_no_untap"),
        (rf"^(other )?creatures you control get {_PT}(?: and have (.+))?$", "anthem"),
        (
            rf"^if {_WHO} would (?:die|be put into a graveyard from (?:the battlefield|play)), (exile it|remove it from the game|"
            rf"return it to its owner'?s hand|put it on top of its owner'?s library) instead$",
            "die",
        ),
        (rf"^{_SELF} (?:enters(?: the battlefield)?|comes into play) tapped$", "enters_tapped"),
        (rf"^{_SELF} enters(?: the battlefield)? tapped and doesn't untap during your untap step$", "tapped_stays"),
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
        # "Whenever ~ or another Ally enters the battlefield under your control" (rally): itself or one of a subtype
        (rf"^whenever {_SELF} or another ([a-z]+) enters(?: the battlefield)? under your control, (.+)$", "watch_self"),
        (r"^(other )?creatures you control have (.+)$", "anthem_has"),
        (
            rf"^{_SELF} (?:enters(?: the battlefield)?|comes into play) with {_N} ([+-]1/[+-]1|loyalty|[a-z]+) counters? on it$",
            "enters_counters",
        ),
        (
            rf"^if {_SELF} was kicked, (?:it|{_SELF}) enters(?: the battlefield)? with {_N} ([+-]1/[+-]1|[a-z]+) counters? "
            r"on it$",
            "kicked_counters",
        ),
        # a shockland: "As ~ enters the battlefield, you may pay 2 life. If you don't, it enters the battlefield
        # tapped" (614.1c, its controller choosing as it is played): two sentences, one replacement effect
        (rf"^as {_SELF} enters(?: the battlefield)?, you may pay {_N} life$", "may_pay_life"),
        (r"^if you don't, (?:~|it) enters(?: the battlefield)? tapped$", "unless_paid"),
        (rf"^prevent all damage that would be dealt to {_SELF}$", "prevent_all"),
        (rf"^{_SELF} can't (attack or block|attack|block|be blocked)$", "self_cant"),
        (rf"^{_SELF} attacks each (?:combat|turn) if able$", "self_must"),
        (rf"^{_SELF} can block only creatures with (flying)$", "blocks_only"),
        (rf"^(?:this spell|{_SELF}) can't be countered$", "uncounterable"),
        # last: what an Aura or Equipment says of what it is attached to, clause by clause (_attached_static)
        (r"^(?:enchanted|equipped) (?:creature|permanent|artifact|land) (.+)$", "attached_clauses"),
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
    life_asked: int | None = None  # "As ~ enters, you may pay N life": the sentence after says what if not
    for sentence, original in _abilities_of(text):
        word = _ABILITY_WORD.match(sentence)
        if word:  # an ability word has no rules meaning (207.2c): "Landfall — Whenever ..."
            sentence, original = sentence[word.end() :], original[word.end() :]
        for pattern, kind in _ABILITY_FORMS:  # noqa: B007 (kind is read after the break)
            m = pattern.match(sentence)
            if m:
                break
        else:
            if sentence == "this effect doesn't remove ~" and statics and protections(frozenset(statics[-1].keywords)):
                statics[-1] = replace(statics[-1], keeps_source=True)  # the sentence before gave protection
                continue
            others = _OTHERS_ENTER_TAPPED.match(sentence)
            if others is not None:  # "Creatures your opponents control enter the battlefield tapped" (614.1c)
                who = f"{others[1]} {'you control' if others[2] == 'you control' else 'an opponent controls'}"
                replacements.append(ReplacementDef("enter", who, "tapped"))
                continue
            ruled = rule_static(sentence, original)
            if ruled is not None:  # a lord, an evasion or block restriction, a rule of the game (rule_static)
                statics.append(ruled)
                continue
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
                    else "monstrous"  # it becomes monstrous (701.37a)
                    if g[0] == "becomes monstrous"
                    else g[0].split()[0]
                )
                triggers.append(TriggerText(event, _check_effect(original[m.start(2) :])))
            elif kind == "attached_trigger":  # an event of the permanent it is attached to (board.fire)
                event = "combat damage to a player" if g[1].startswith("deals") else g[1]
                effect = original[m.start(3) :].strip().rstrip(".")
                if "target" not in effect.lower():  # "put a +1/+1 counter on it": on the creature it names
                    effect = re.sub(r"\bits controller\b", f"{g[0]} creature's controller", effect, flags=re.I)
                    effect = re.sub(r"\b(?:it|that creature)\b", f"{g[0]} creature", effect, flags=re.I)
                triggers.append(TriggerText(f"attached {event}", _check_effect(effect)))
            elif kind in ("targeted_yours", "targeted"):
                event = "targeted by your spell" if kind == "targeted_yours" else "targeted"
                triggers.append(TriggerText(event, _check_effect(original[m.start(1) :])))
            elif kind == "attached_phase":  # in the turn of the controller of the permanent it is attached to
                effect = re.sub(r"\bthat player\b", f"{g[1]} {g[2]}'s controller", original[m.start(4) :], flags=re.I)
                triggers.append(TriggerText(f"attached {_PHASES[g[0]]}", _check_effect(effect)))
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
            elif kind == "attached_clauses":
                statics.append(_attached_static(g[0], original))
            elif kind == "attached_control":
                statics.append(Static("attached", control=True))
            elif kind == "self_no_untap":
                statics.append(Static("self", no_untap=True))
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
            elif kind == "tapped_stays":  # two abilities in one sentence: enters tapped; doesn't untap
                replacements.append(ReplacementDef("enter", "self", "tapped"))
                statics.append(Static("self", no_untap=True))
            elif kind == "enters_tapped_count":
                most = "at most" if g[1] == "fewer" else "at least"
                replacements.append(ReplacementDef("enter", "self", "tapped", unless=(g[2], most, _number(g[0]))))
            elif kind == "enters_tapped_type":
                replacements.append(ReplacementDef("enter", "self", "tapped", unless=("land types", g[0], g[1])))
            elif kind == "watch":
                effect = _check_effect(original[m.start(3) :])
                if any(i.target == "it" for e in effects_of(effect) for i in parse_effect(e)):
                    raise EffectError(
                        f"'it' or 'that creature' in {original!r} (the permanent that entered) is not modelled"
                    )
                triggers.append(TriggerText(f"{g[0]} {g[1]} enters yours", effect))
            elif kind == "watch_self":
                effect = _check_effect(original[m.start(2) :])
                if any(i.target == "it" for e in effects_of(effect) for i in parse_effect(e)):
                    raise EffectError(f"'it' in {original!r} (the permanent that entered) is not modelled")
                triggers.append(TriggerText(f"self or another {g[0]} enters yours", effect))
            elif kind == "anthem_has":
                statics.append(Static("other yours" if g[0] else "yours", keywords=read_keywords_list(g[1])))
            elif kind == "enters_counters":  # X: the value paid for the spell it was (107.3m)
                replacements.append(ReplacementDef("enter", "self", "counters", _number(g[0]), g[1]))
            elif kind == "kicked_counters":  # a replacement that applies only if it was kicked (702.33e)
                replacements.append(ReplacementDef("enter", "self", "counters", _number(g[0]), g[1], when=KICKED))
            elif kind == "may_pay_life":
                life_asked = _number(g[0])
            elif kind == "unless_paid":
                if life_asked is None:
                    raise EffectError(f"{original!r} follows no 'you may pay N life'")
                replacements.append(ReplacementDef("enter", "self", "tapped", unless=("life", life_asked)))
                life_asked = None
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
    if life_asked is not None:
        raise EffectError(f"'you may pay {life_asked} life' as it enters, with nothing said if not, is not modelled")
    return Abilities(tuple(keywords), tuple(triggers), tuple(statics), tuple(replacements), prevent_all, uncounterable)


# Static abilities that change the rules of combat, of a group of creatures or of the game (604.1, 613.11),
# read in parts (rule_static): a lord over a group ("[other] [ADJECTIVE ...] creatures [you control | your
# opponents control] get +N/+N [and have KEYWORD]" / "... have KEYWORD"), an evasion or block restriction of
# the permanent itself (509.1b), an attack restriction (508.1c) and a rule of its controller's game.
_LAND_TYPES = "plains|island|swamp|mountain|forest"
_GROUP_STATES = frozenset(
    {"attacking", "blocking", "tapped", "untapped", "nontoken", "artifact", "legendary", "colorless"}
)
_SPELL_TYPES = frozenset(
    {"creature", "noncreature", "instant", "sorcery", "enchantment", "artifact", "nonartifact", "legendary"}
)
# capitalised words before "creatures" that are no creature type: refused rather than read as one
_NOT_SUBTYPES = frozenset(
    {
        "multicolored",
        "monocolored",
        "colored",
        "historic",
        "enchanted",
        "equipped",
        "nonlegendary",
        "modified",
        "chosen",
    }
)
_LORD = re.compile(
    rf"^(?:all )?(other )?((?:[a-z]+ )*?)(creatures|creature tokens)( you control| your opponents control)? "
    rf"(?:get {_PT}(?: and have (.+))?|have (.+))$"
)
_OTHERS_ENTER_TAPPED = re.compile(
    r"^(creature|artifact|land|nonland permanent|permanent)s (your opponents control|you control) enter(?: the "
    r"battlefield)? tapped$"
)
# "Other Zombies you control get +1/+1", "Elves you control have ...": a creature type in the plural
_LORD_PLURAL = re.compile(
    rf"^(?:all )?(other )?([a-z]+)( you control| your opponents control)? "
    rf"(?:get {_PT}(?: and have (.+))?|have (.+))$"
)
_PLURALS_OF_TYPES = (
    ("zombies", "zombie"),
    ("faeries", "faerie"),
    ("ves", "f"),
    ("ies", "y"),
    ("xes", "x"),
    ("folk", "folk"),
    ("s", ""),
)


def _singular_type(word: str, original: str) -> str | None:
    """The creature type a capitalised plural names ("Zombies": "zombie", "Elves": "elf"), or None."""
    if not re.search(rf"\b{word.capitalize()}\b", original) or word in ("creatures", "permanents", "others"):
        return None
    for end, single in _PLURALS_OF_TYPES:
        if word.endswith(end):
            single = word[: len(word) - len(end)] + single
            return None if single in _NOT_CREATURE_TYPES else single
    return None


# subtypes of lands, artifacts, enchantments and spells: a lord names creatures only (its group is not read)
_NOT_CREATURE_TYPES = frozenset(
    "plains island swamp mountain forest desert gate lair locus equipment vehicle clue treasure food aura curse "
    "shrine saga cartouche trap arcane land artifact enchantment planeswalker creature permanent token spell card "
    "nonland nontoken".split()
)


# "~ can't be blocked except by creatures with flying or reach", "... except by black creatures", "~ can't be
# blocked by artifact creatures": ("with" KEYWORDS | "group" WORDS, allowed: True for "except by")
_BLOCKED_BY_KIND = re.compile(
    rf"^{_SELF} can't be blocked (except )?by (?:creatures with ([a-z]+)(?: or ([a-z]+))?|((?:[a-z]+ )+)creatures)$"
)
_BLOCKER_STAT = rf"creatures with (power|toughness) {_N} or (less|greater)"
_RULE_FORMS: list[tuple[re.Pattern[str], str]] = [
    (re.compile(p), v)
    for p, v in [
        (rf"^{_SELF} can't be blocked by {_BLOCKER_STAT}$", "blocked_by"),
        (r"^creatures with (power) (less|greater) than ~'s power can't block (?:it|~)$", "blocked_by_own"),
        (rf"^{_SELF} can't block {_BLOCKER_STAT}$", "cant_block_stat"),
        (rf"^{_SELF} can't be blocked by more than {_N} creatures?$", "max_blockers"),
        (rf"^{_SELF} can't (attack or block|attack|block) alone$", "alone"),
        (rf"^{_SELF} can't attack unless defending player controls an? ({_LAND_TYPES})$", "attack_unless"),
        (r"^you have no maximum hand size$", "no_max_hand"),
        (rf"^all creatures able to block {_SELF} do so$", "lure"),
        (rf"^{_SELF} must be blocked if able$", "must_be_blocked"),
        (rf"^{_SELF} can't (attack or block|attack|block) and can't be blocked$", "cant_and_unblockable"),
        (
            r"^((?:[a-z]+(?:,? and |,? or | ))*?)spells( you cast| your opponents cast)? cost \{(\d+)\} (less|more) to cast$",
            "cost_change",
        ),
    ]
]


def _lord_group(words: str, original: str, spells: bool = False) -> tuple[str, ...]:
    """The words of a lord's group, each a colour, a state, a card type or a creature type (capitalised in
    the card's text: "Sliver creatures you control"); raises :class:`EffectError` for a word it cannot place.
    With ``spells``, the words of a kind of spell ("instant", "noncreature", "Dinosaur")."""
    out = []
    for word in words.split():
        plain = word.removeprefix("non")
        if (word in _SPELL_TYPES if spells else word in _GROUP_STATES) or plain in COLOUR_WORDS:
            out.append(word)
        elif (
            word not in _NOT_SUBTYPES
            and not word.startswith("non")
            and re.search(rf"\b{word.capitalize()}\b", original)
        ):
            out.append(word)  # a creature type (205.3m): capitalised in rules text
        else:
            raise EffectError(f"cannot read the group {words!r} ({word!r}) in {original!r}")
    return tuple(out)


def _lord(
    other: str | None,
    group: tuple[str, ...],
    whose: str | None,
    power: str | None,
    toughness: str | None,
    gives: str | None,
    original: str,
) -> Static:
    """A lord over ``group`` (whose creatures: " you control", " your opponents control", None: everyone's)."""
    owner = {" you control": "you", " your opponents control": "opponents", None: "any"}[whose]
    keywords, grants, granted_triggers = _granted(gives, original) if gives else ((), (), ())
    return Static(
        "other yours" if other else "yours",
        _signed(power) if power else 0,
        _signed(toughness) if toughness else 0,
        keywords,
        grants=grants,
        granted_triggers=granted_triggers,
        group=group,
        whose=owner,
    )


def rule_static(sentence: str, original: str) -> Static | None:
    """A lord, an evasion or block restriction or a rule of the game (see _RULE_FORMS), or None."""
    m = _LORD.match(sentence)
    if m is not None:
        other, words, noun, whose, power, toughness, also, has = m.groups()
        group = _lord_group(words, original) + (("token",) if noun == "creature tokens" else ())
        if not group and whose == " you control":
            return None  # "[other] creatures you control get ...": the anthem forms read it
        return _lord(other, group, whose, power, toughness, also or has, original)
    m = _LORD_PLURAL.match(sentence)
    single = _singular_type(m[2], original) if m is not None else None
    if m is not None and single is not None:
        other, _, whose, power, toughness, also, has = m.groups()
        return _lord(other, (single,), whose, power, toughness, also or has, original)
    m = _BLOCKED_BY_KIND.match(sentence)
    if m is not None:
        allowed, kw1, kw2, words = m.groups()
        if words:
            return Static("self", blocked_by=("group", _lord_group(words, original), bool(allowed)))
        kws = tuple(k for k in (kw1, kw2) if k)
        for kw in kws:
            if kw not in KEYWORDS:
                raise EffectError(f"cannot read the keyword {kw!r} in {original!r}")
        return Static("self", blocked_by=("with", kws, bool(allowed)))
    for pattern, kind in _RULE_FORMS:
        m = pattern.match(sentence)
        if m is None:
            continue
        g = m.groups()
        if kind == "blocked_by":
            return Static("self", blocked_by=(g[0], g[2], _number(g[1])))
        if kind == "blocked_by_own":
            return Static("self", blocked_by=(g[0], g[1], None))
        if kind == "cant_block_stat":
            return Static("self", cant_block_stat=(g[0], g[2], _number(g[1])))
        if kind == "max_blockers":
            return Static("self", max_blockers=_number(g[0]))
        if kind == "alone":
            return Static("self", alone=g[0])
        if kind == "attack_unless":
            return Static("self", attack_unless=g[0])
        if kind == "no_max_hand":
            return Static("player", no_max_hand=True)
        if kind == "lure":  # a requirement on the defending player's creatures (509.1c)
            return Static("self", must="be blocked by all")
        if kind == "must_be_blocked":
            return Static("self", must="be blocked")
        if kind == "cant_and_unblockable":
            return Static("self", cant=f"{g[0]} or be blocked")
        if kind == "cost_change":
            words = re.sub(r",? (?:and|or) |, ", " ", g[0]).strip()
            kinds = _lord_group(words, original, spells=True) if words else ()
            whose = {" you cast": "you", " your opponents cast": "opponents", None: "any"}[g[1]]
            return Static("player", cost_change=(kinds, whose, int(g[2]) * (-1 if g[3] == "less" else 1)))
    return None


# What a static ability of an Aura or Equipment says of the permanent it is attached to, clause by clause
# ("Enchanted creature gets -2/-0 and can't block", "... can't attack or block, and its activated abilities
# can't be activated"): each clause one field of the Static.
_ATTACHED_CLAUSES: list[tuple[re.Pattern[str], str]] = [
    (re.compile(p), v)
    for p, v in [
        (rf"^gets {_PT}$", "pt"),
        (rf"^gets {_PT} for each (.+)$", "pt_per"),
        (r"^gets ([+-])x/([+-])x, where x is (.+)$", "pt_count"),
        (r"^has base power and toughness (\d+)/(\d+)$", "base"),
        (r"^has (.+)$", "keywords"),
        (r"^can't (attack or block|attack|block|be blocked)$", "cant"),
        (r"^attacks each (?:combat|turn) if able$", "must"),
        (r"^doesn't untap during its controller's untap step$", "no_untap"),
        (r"^its activated abilities can't be activated$", "no_activate"),
    ]
]
_CLAUSE_SPLIT = re.compile(
    r",? and (?=(?:gets|has|can't|attacks|doesn't|its) )|, (?=(?:gets|has|can't|attacks|doesn't|its) )"
)


_GRANTED = re.compile(r"^((?:\{[0-9wubrgct]\}(?:, )?)*)(sacrifice this (?:creature|artifact|permanent))?: (.+?)\.?$")
_ITSELF = re.compile(r"\bthis (?:creature|land|permanent|artifact)\b", re.I)


def read_granted(quoted: str, original: str) -> tuple[str, str, bool]:
    """A quoted activated ability an object is given ("{T}: This creature deals 1 damage to any target.",
    "Sacrifice this creature: Add {C}."): its mana and {T} cost, its effect in the effect vocabulary with
    "this creature" written ``~`` (the permanent that has it), and whether sacrificing it is part of the cost;
    raises EffectError for one the engine can't do."""
    m = _GRANTED.match(quoted.strip().lower())
    if m is None or not (m[1] or m[2]):
        raise EffectError(
            f"the ability {quoted!r} in {original!r} is not modelled (a granted ability: '{{cost}}: effect')"
        )
    cost, effect = m[1].replace(", ", "").strip(", "), _ITSELF.sub("~", m[3])
    instructions = parse_effect(effect)
    if any(abs(i.amount) == X or abs(i.amount2) == X for i in instructions):
        raise EffectError(f"X in a granted ability is not modelled: {original!r}")
    adds = [i.verb == "add" for i in instructions]
    if any(adds) and not all(adds):
        raise EffectError(f"a mana ability that also does something else is not modelled: {original!r}")
    return cost, effect, bool(m[2])


def _granted(text: str, original: str) -> tuple[tuple[str, ...], tuple, tuple]:
    """The keywords, the quoted activated abilities and the quoted triggered abilities of "has flying and
    "{T}: ..."" (613.1f: an effect that adds abilities), each read by :func:`_token_ability`."""
    read = [_token_ability(quoted) for quoted in re.findall(r'"([^"]*)"', text)]
    rest = re.sub(r'(?:,? and )?"[^"]*"', "", text).strip(" ,")
    return (
        (read_keywords_list(rest) if rest else ()),
        tuple(r[1:] for r in read if r[0] == "activated"),
        tuple(r[1:] for r in read if r[0] == "trigger"),
    )


def _attached_static(text: str, original: str) -> Static:
    """The Static an "Enchanted/Equipped creature ..." sentence says, every clause read, or EffectError."""
    fields: dict = {}
    for clause in _CLAUSE_SPLIT.split(text):
        for pattern, field in _ATTACHED_CLAUSES:
            m = pattern.match(clause)
            if m is None:
                continue
            if field in fields:
                m = None
            break
        if m is None:
            raise EffectError(f"cannot read ability {original!r}: {clause!r} (known: {'; '.join(ABILITIES)})")
        if field == "pt":
            fields["power"], fields["toughness"] = _signed(m[1]), _signed(m[2])
        elif field == "keywords":
            fields["keywords"], fields["grants"], fields["granted_triggers"] = _granted(m[1], original)
        elif field in ("pt_per", "pt_count"):  # +N/+N for each ..., or +X/+X where X is a count
            at = original.lower().find(m[3])  # a subtype is read with its capital ("for each Forest")
            words = original[at : at + len(m[3])] if at >= 0 else m[3]
            per = f"the number of {words}" if field == "pt_per" else words
            if read_count(per) is None:
                raise EffectError(f"cannot read ability {original!r}: what {m[3]!r} counts is not modelled")
            one = (_signed(m[1]), _signed(m[2])) if field == "pt_per" else (int(m[1] + "1"), int(m[2] + "1"))
            fields["power"], fields["toughness"], fields["per"] = *one, per
        elif field == "base":
            fields["base"] = (int(m[1]), int(m[2]))
        elif field in ("cant",):
            fields["cant"] = m[1]
        elif field == "must":
            fields["must"] = "attack"
        else:
            fields[field] = True
    return Static("attached", **fields)


_ABILITY_WORD = re.compile(r"^[a-z]+(?: [a-z]+)? \u2014 (?=whenever |when |at |~ |as long )")
_UNCOUNTERABLE = re.compile(r"(?:^|(?<=[.\n]))\s*(?:this spell|~) can't be countered\.?", re.I)


_ADDITIONAL = re.compile(
    r"(?:^|(?<=[.\n]))\s*as an additional cost to cast (?:this spell|~), "  # older cards name themselves
    r"sacrifice an? ((?:creature|artifact|land|enchantment) or (?:creature|artifact|land|enchantment)|creature|"
    r"artifact|land|permanent)\.?",
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


_ONCE = re.compile(r"(?:^|(?<=[.\n]))\s*(?:activate|play) (?:this ability )?only once each turn\.?\s*$", re.I)


def use_restriction(text: str) -> tuple[str, bool]:
    """An activated ability's effect less its restriction on its use (602.5b), and whether it is activated
    only once each turn.

    >>> use_restriction("~ gets +2/+2 until end of turn. Activate this ability only once each turn.")
    ('~ gets +2/+2 until end of turn.', True)
    """
    rest = _ONCE.sub("", text)
    return rest.strip(), rest != text


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
    # a card of two faces named whole ("Gatstaf Shepherd // Gatstaf Howler"): its face's text names the face
    for each in [base, *(face.strip() for face in base.split(" // ") if " // " in base)]:
        # a card named as a keyword (Fear, Lifelink): its name is the capitalised word, the keyword it gives
        # ("Enchanted creature has fear") is not
        flags = 0 if each.lower() in KEYWORDS else re.I
        text = re.sub(rf"(?<![\w#]){re.escape(each)}(?![\w#])", "~", text, flags=flags)
    return text


def _check_effect(text: str) -> str:
    """A triggered ability's effect, each of its modes read when it is modal (chosen as it is put on the
    stack, 700.2b)."""
    text = text.strip().rstrip(".")
    for mode in parse_modes(text) or (text,):
        parse_effect(mode)
    return text


def effects_of(text: str) -> tuple[str, ...]:
    """The effect, or each legal choice of modes of a modal one (``Choose one — • A • B``)."""
    return parse_modes(text) or (text,)


_REMINDER = re.compile(r"\s*\([^()]*\)")
_MODAL_IN = re.compile(r", choose (?:one or both|one|two)\s*\u2014\s*\u2022", re.I)


_TRIGGER_LINE = re.compile(
    r"^(?:[A-Za-z]+(?: [A-Za-z]+)? \u2014 )?(?:when|whenever|at the beginning of|at the start of) ", re.I
)


def _split_sentences(line: str) -> list[str]:
    """A line's sentences, an ability in quotes kept whole ("has "At the beginning of your upkeep, you may
    pay {W}{W}. If you do, you gain 1 life."")."""
    quoted = re.findall(r'"[^"]*"', line)
    out = []
    for piece in re.split(r"(?<=[.])\s+", re.sub(r'"[^"]*"', "\x00", line)):
        while "\x00" in piece:
            piece = piece.replace("\x00", quoted.pop(0), 1)
        out.append(piece)
    return out


def _abilities_of(text: str) -> list[tuple[str, str]]:
    """A permanent's text split into abilities: by line and sentence, a triggered ability keeping its whole
    line (the sentences after its condition are its effect, 603.1: "When ~ enters, tap target creature an
    opponent controls. That creature doesn't untap ...")."""
    out = []
    text = _REMINDER.sub("", text)  # reminder text is not rules text (207.2)
    text = re.sub(r"\n\s*(?=\u2022)", " ", text)  # a modal ability's modes, a line each, are part of it
    lines = re.split(r"\n+", text.strip())
    pieces = [
        p
        for line in lines
        for p in ([line] if _MODAL_IN.search(line) or _TRIGGER_LINE.match(line) else _split_sentences(line))
    ]
    joined: list[str] = []
    for piece in pieces:  # 'It has "..."' gives the token the sentence before made its ability: one ability
        if joined and re.match(r'^(?:it has|they have|they each have) "', piece.strip(), re.I):
            joined[-1] += " " + piece
        else:
            joined.append(piece)
    for raw in joined:
        words = " ".join(raw.split()).rstrip(".")
        if words:
            out.append((words.lower(), words))
    return out
