"""The card a judge's question names: "Does Abandoned Hall's ability trigger if the spell is countered?",
"can bolt hit a planeswalker", "glorybringr: can I still exert it".

:func:`named_card` looks for a card's name in the words of a question, in three passes, each stricter
about what counts:

1. the whole query is a name as ``judge card`` reads one (exact, a part such as ``bolt``, misspelt);
2. a run of the question's words is a card's name, or a face's, exactly (case, punctuation and a
   possessive ``'s`` aside), the longest run first;
3. a run holding a word no book uses is a card's name misspelt (``glorybringr``).

A name that is also the rules' own vocabulary or plain English is not taken for a card lightly: a
run of words names one only when it is no term the rules define and one of its words is not common in
the rules or the rules never say the words together ("back to back"); one word alone only when typed
with a capital inside the sentence ("how does Fog work"), or, in lower case, when it is no English word
or an English word neither frequent ("wear" is, so "when does damage wear off" names no Wear // Tear)
nor used by the rules more than a few times ("disintegrate", "fame"). Besides whole names (a face's
too, a possessive aside: ``tawnos coffin``), a run may be a card's first name (``janna``, ``arlinn``)
or a word of names that one card is printed with most (``bolt``). A name found in several games, with
no game given, is not guessed between: the mention says so (``choices``).

>>> _runs(["can", "bolt", "hit"], 2)
[(0, 2), (1, 3), (0, 1), (1, 2), (2, 3)]
"""

from __future__ import annotations

import re
import weakref
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from rapidfuzz import fuzz, process
from rapidfuzz.distance import OSA

from rulebook.cards.lookup import find_card
from rulebook.cards.store import norm_name
from rulebook.search.answer import QUESTION_WORDS

if TYPE_CHECKING:
    from rulebook.cards.store import CardStore

LONGEST = 6  # words in a run looked at: card names longer than this are named by a part of them
SPELLING_CUTOFF = 88  # rapidfuzz ratio of a misspelt run to a name (glorybringr -> glorybringer: 96)
SPELLING_NEAR = 70  # or a lower ratio, when at most 1 edit (2 beyond 7 letters; a swap is one) apart:
# "skithyrix" is Skithiryx (ratio 78, two edits), as search corrects a word (rulebook.search.query)
SPELLING_MIN = 6  # letters in a run read as a misspelt name
KIND_OF_CARD = 10  # a subtype this many cards have is a kind of card ("dragon"), not a name ("janna")
PART_MIN = 4  # letters in a first name or a word read as a part of a card's name ("vi" is too short)
PLAIN = 20_000  # an English word this frequent (pyspellchecker's counts: "wear" 207,741) is read as English
# when typed in lower case, never as a card's name ("fame" 10,283 may be Claim // Fame's face)
TIE = 2


@dataclass(frozen=True, slots=True)
class Mention:
    card: Any  # rulebook.cards.model.Card; None when the words name cards of several games (choices)
    words: str  # the words of the question that named it, as typed
    matched: str  # "exact", "part" or "spelling"
    rest: str  # the question without those words
    choices: tuple[tuple[str, str], ...] = ()  # (game, name) of each card the words name, when several
    start: int = 0  # where the words stand in the question
    end: int = 0

    def to_json(self) -> dict[str, Any]:
        if self.card is None:
            return {
                "game": None,
                "name": None,
                "words": self.words,
                "matched": self.matched,
                "choices": [{"game": g, "name": n} for g, n in self.choices],
            }
        return {"game": self.card.game, "name": self.card.name, "words": self.words, "matched": self.matched}


_TOKEN = re.compile(r"[\w’'][\w’'\-]*")


def _tokens(query: str) -> list[tuple[str, int, int]]:
    """The question's words with where each stands: (word, start, end)."""
    return [(m.group(), m.start(), m.end()) for m in _TOKEN.finditer(query)]


def _keys(words: list[str]) -> list[str]:
    """What a run of typed words may be as a name (:func:`rulebook.cards.store.norm_name` of it): as typed
    (``dragon's rage``), and without a possessive ``'s`` on its last word (``Abandoned Hall's``)."""
    typed = norm_name(" ".join(words))
    last = re.sub(r"['’]s$", "", words[-1], flags=re.IGNORECASE)
    bare = norm_name(" ".join([*words[:-1], last]))
    return [typed] if bare == typed else [typed, bare]


def _unpossessed(norm_or_name: str) -> str:
    """A name with every possessive 's dropped, as a judge may type it (``tawnos coffin``)."""
    return norm_name(re.sub(r"['’]s\b", "", norm_or_name, flags=re.IGNORECASE))


def _runs(words: list, longest: int) -> list[tuple[int, int]]:
    """Every run of ``words`` up to ``longest`` long, as (start, end), longest first, then left first."""
    n = len(words)
    return [(i, i + size) for size in range(min(longest, n), 0, -1) for i in range(n - size + 1)]


def _rest(query: str, start: int, end: int) -> str:
    return " ".join((query[:start] + " " + query[end:]).strip(" ,:;").split())


def named_card(
    store: CardStore,
    query: str,
    game: str | None = None,
    is_common: Callable[[str], bool] = lambda word: False,
    is_word: Callable[[str], bool] = lambda word: True,
    english_frequency: Callable[[str], int] = lambda word: 0,
    is_term: Callable[[str], bool] = lambda words: False,
    in_rules: Callable[[str], bool] = lambda phrase: False,
    is_rare: Callable[[str], bool] = lambda word: True,
) -> Mention | None:
    """The card ``query`` names (in ``game``, else in any), or None.

    What the books say of a word, given by the caller: ``is_common(word)``, the rules use the (lower-case)
    word often, so it names no card on its own; ``is_word(word)``, a book uses the word at all (a run
    without such a word may be misspelt); ``english_frequency(word)``, how common it is in English (0: no
    English word); ``is_term(words)``, the words are a term the rules define (a rule's title, a glossary
    entry: "Flash" is a card, but ``flash`` is the keyword); ``in_rules(phrase)``, whether a rule or term says
    the phrase ("back to back" none does: the Riftbound card, though each word is common); ``is_rare(word)``, the
    rules use the word at most a few times (as an example naming a card may).
    """
    tokens = _tokens(query)
    if not tokens:
        return None
    checks = _Checks(is_common, english_frequency, is_term, in_rules, is_rare)
    whole = _whole(store, query, tokens, game, is_common, is_term)
    if whole is not None:
        return whole
    exact = _exact(store, query, tokens, game, checks)
    misspelt = _misspelt(store, query, tokens, game, is_word, english_frequency)
    if exact is None or (misspelt is not None and (misspelt.start, -misspelt.end) < (exact.start, -exact.end)):
        return misspelt  # the card named first is the one asked about: "wurmcoil ... swords to plowshares";
    return exact  # from the same word, the longer run ("mystic porro": Mystic Poro, not Elvish Mystic)


def _whole(store: CardStore, query: str, tokens, game, is_common, is_term) -> Mention | None:
    """The query is nothing but a name, as ``judge card`` reads one."""

    if len(tokens) > LONGEST or "?" in query or tokens[0][0].lower() in QUESTION_WORDS:
        return None
    words = [t[0].lower() for t in tokens]
    if is_term(" ".join(words)):
        return None
    found, _ = find_card(store, query.strip(), game)
    if found is None:
        return None
    if found.matched != "exact" and all(is_common(w) for w in words):
        return None  # "damage", "priority": the rules' words, not a part of some card's name
    if found.matched == "spelling" and (len(query.strip()) < SPELLING_MIN or len(words) > len(found.card.name.split())):
        return None  # a question a name's letters happen to resemble (WRatio reads parts of strings)
    return Mention(found.card, query.strip(), found.matched, "")


def _exact(store: CardStore, query: str, tokens, game, checks: _Checks) -> Mention | None:
    """The first run of words, from the left (the card a question names first is the one it asks about),
    longest there, that is a card's name or a face's exactly; or that begins one card's name (``janna``:
    Janna, Savior), holds the beginnings of one card's words (``resto angel``: Restoration Angel), or is
    one word that the card printed most among those naming it has (``bolt``: Lightning Bolt)."""
    words = [t[0] for t in tokens]
    runs = sorted(_runs(words, LONGEST), key=lambda r: (r[0], r[0] - r[1]))
    keys = {r: _keys(words[r[0] : r[1]]) for r in runs}
    by_key = _names_for(store, {k for ks in keys.values() for k in ks}, game)
    for i, j in runs:
        named = sorted({n for k in keys[(i, j)] for n in by_key.get(k, ())})
        matched = "exact"
        if not named and j - i <= 3:
            key = keys[(i, j)][-1]
            if len(key) >= PART_MIN and checks.may_name(words[i:j], i):
                one = _printed_most(store, key, game) if j - i == 1 else _beginning(store, key, game)
                named, matched = ([one] if one else []), "part"
            if not named:
                continue
        elif not named or not checks.may_name(words[i:j], i):
            continue
        start, end = tokens[i][1], tokens[j - 1][2]
        if len(named) > 1:  # the same name in both games, or faces of two cards: not guessed between
            return Mention(None, query[start:end], matched, _rest(query, start, end), tuple(named), start, end)
        card = store.card(*named[0])
        if card is not None:
            return Mention(card, query[start:end], matched, _rest(query, start, end), start=start, end=end)
    return None


def _beginning(store: CardStore, key: str, game: str | None) -> tuple[str, str] | None:
    """The one card whose name begins with the words ``key``, or whose words begin with them, in order
    and with nothing left over but a comma's title or a second face (``janna`` of Janna, Savior,
    ``resto angel`` of Restoration Angel); None for none or several. Read from the names index's words,
    a range of the index per word typed."""
    found = _leading(store, key, game)
    if found is not None:
        return found
    typed = key.split()
    hits = set()
    for hit in store.starting(typed, game):
        front = norm_name(hit.name.split(" // ")[0].split(",")[0]).split()
        if len(front) == len(typed) and all(f.startswith(t) for f, t in zip(front, typed)):
            hits.add((hit.game, hit.name))
    return hits.pop() if len(hits) == 1 else None


@dataclass(frozen=True, slots=True)
class _Checks:
    """What the books say about a question's words (given by the caller): whether a run of them may be
    a card's name, not the rules' words."""

    is_common: Callable[[str], bool]
    english_frequency: Callable[[str], int]
    is_term: Callable[[str], bool]
    in_rules: Callable[[str], bool]
    is_rare: Callable[[str], bool]

    def may_name(self, words: list[str], position: int) -> bool:
        content = [w.lower() for w in words]
        if self.is_term(" ".join(content)):
            return False
        if len(words) > 1:  # words the rules use, as the rules use them together, are the rules'
            return not (all(self.is_common(w) for w in content) and self.in_rules(" ".join(content)))
        word = re.sub(r"['’]s$", "", content[0])
        if self.is_common(word):
            return False
        if position > 0 and words[0][:1].isupper():
            return True
        frequency = self.english_frequency(word)
        return frequency == 0 or (frequency < PLAIN and self.is_rare(word))


def _leading(store: CardStore, key: str, game: str | None) -> tuple[str, str] | None:
    """The one card whose name begins with the words ``key`` (its first name: ``janna`` of Janna, Savior,
    ``arlinn`` of Arlinn Kord // ...), or, for two words or more, whose title after the comma is them
    (``mind sculptor`` of Jace, the Mind Sculptor; ``swarm queen``); None for none or several (``jinx``)."""
    found = set()
    for row in store.with_word(key.split()[0], game):
        if row.norm.startswith(key + " ") or _unpossessed(row.norm).startswith(key + " "):
            found.add((row.game, row.name))
        elif " " in key and "," in row.name.split(" // ")[0]:
            title = norm_name(row.name.split(" // ")[0].split(",", 1)[1])
            if key in (title, " ".join(title.split()[1:]) if title.startswith("the ") else title):
                found.add((row.game, row.name))
    return found.pop() if len(found) == 1 else None


def _printed_most(store: CardStore, word: str, game: str | None) -> tuple[str, str] | None:
    """Among the cards with ``word`` in their name, the one printed in the most sets, when one is; never
    for a type or subtype many cards have (a champion's or a planeswalker's own subtype is a name:
    "janna", "jace")."""
    if store.count_of_kind(word, KIND_OF_CARD) >= KIND_OF_CARD:
        return None  # a type or subtype of many cards ("dragon", "angel"): a kind of card, not a name
    rows = store.most_printed_with(word, game, 2)
    if not rows or (len(rows) > 1 and rows[1].printed >= rows[0].printed):
        return None
    return rows[0].game, rows[0].name


# The names of several faces and the possessive ones are read by a scan of every card (10 ms each); kept
# for a card store as long as it lives (the command line: one question; judge serve: while cards.db is
# the same, judge.books.open_cards).
_RARE: weakref.WeakKeyDictionary[CardStore, dict] = weakref.WeakKeyDictionary()


def _rare_names(store: CardStore, game: str | None) -> tuple[list[tuple[str, str]], list[tuple[str, str]]]:
    """The (game, name) of the cards of several faces, and of those whose name has a possessive 's."""
    mine = _RARE.setdefault(store, {})
    if game not in mine:
        mine[game] = (store.faced_names(game), store.possessive_names(game))
    return mine[game]


def _names_for(store: CardStore, keys: set[str], game: str | None) -> dict[str, list[tuple[str, str]]]:
    """Normalised name -> the (game, name) of the cards that have it as their name or a face's name, a
    possessive 's aside (``tawnos coffin`` is Tawnos's Coffin)."""
    out = store.named_each(keys, game)
    faced, possessive = _rare_names(store, game)
    for g, name in faced:  # the other faces, and the whole name typed without its "//"
        for key in [norm_name(face) for face in name.split(" // ")[1:]] + [norm_name(name.replace(" // ", " "))]:
            if key in keys and (g, name) not in out.get(key, []):
                out.setdefault(key, []).append((g, name))
    for g, name in possessive:
        key = _unpossessed(name)
        if key in keys and (g, name) not in out.get(key, []):
            out.setdefault(key, []).append((g, name))
    return out


def _misspelt(store: CardStore, query: str, tokens, game, is_word, english_frequency) -> Mention | None:
    """A run holding a word no book uses (nor a frequent English word: "wear"), close to one card's name
    (or a face's, or a legend's first name)."""
    words = [t[0] for t in tokens]
    unknown = {i for i, w in enumerate(words) if not is_word(w.lower()) and english_frequency(w.lower()) < PLAIN}
    if not unknown:
        return None

    names = store.names(game)
    choices: dict[int, str] = {}
    owner: dict[int, tuple[str, str]] = {}
    for g, name in names:
        faces = [name] + name.split(" // ") if " // " in name else [name]
        firsts = [f.split(",")[0] for f in faces if "," in f]  # a legend's first name: "skithyrix"
        for face in dict.fromkeys(faces + firsts):
            k = len(choices)
            choices[k], owner[k] = norm_name(face), (g, name)
    best: tuple[float, int, int, tuple[str, str]] | None = None
    tied = False
    for i, j in _runs(words, 4):
        if not unknown & set(range(i, j)):
            continue
        run = norm_name(" ".join(words[i:j]))
        if len(run.replace(" ", "")) < SPELLING_MIN:
            continue
        found = [
            f
            for f in process.extract(run, choices, scorer=fuzz.ratio, limit=5, score_cutoff=SPELLING_NEAR)
            if f[1] >= SPELLING_CUTOFF or OSA.distance(run, f[0]) <= (1 if len(run) <= 7 else 2)
        ]
        if not found:
            continue
        top = found[0][1]
        cards = {owner[k] for _, score, k in found if score >= top - TIE}
        if best is None or top > best[0] + TIE:
            best, tied = (top, i, j, next(iter(cards))), len(cards) > 1
        elif top >= best[0] - TIE and cards != {best[3]}:
            tied = True
    if best is None or tied:
        return None
    _, i, j, (g, name) = best
    card = store.card(g, name)
    if card is None:
        return None
    start, end = tokens[i][1], tokens[j - 1][2]
    return Mention(card, query[start:end], "spelling", _rest(query, start, end), start=start, end=end)
