"""The card a judge's question names: "Does Abandoned Hall's ability trigger if the spell is countered?",
"can bolt hit a planeswalker", "glorybringr: can I still exert it".

:func:`named_card` looks for a card's name in the words of a question, in three passes, each stricter
about what counts:

1. the whole query is a name as ``judge card`` reads one (exact, a part such as ``bolt``, misspelt);
2. a run of the question's words is a card's name, or a face's, exactly (case, punctuation and a
   possessive ``'s`` aside), the longest run first;
3. a run holding a word no book uses is a card's name misspelt (``glorybringr``).

A name that is also the rules' own vocabulary or plain English is not taken for a card lightly: a
run of words names one only when one of its words is not common in the rules (``is_common``, given by
the caller from the books) or the rules never say the words together ("back to back"), and a name of
one word only when typed with a capital inside the sentence ("how does Fog work"), or, in lower case,
when it is no English word, or the whole name of a card (not a face: "wear" of Wear // Tear) that the
rules rarely use ("disintegrate"). A name found in several games, with no game given, is
not guessed between: the mention says so (``choices``).

>>> _runs(["can", "bolt", "hit"], 2)
[(0, 2), (1, 3), (0, 1), (1, 2), (2, 3)]
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from rulebook.cards.store import loose_name

LONGEST = 6  # words in a run looked at: card names longer than this are named by a part of them
SPELLING_CUTOFF = 88  # rapidfuzz ratio of a misspelt run to a name (glorybringr -> glorybringer: 96)
SPELLING_MIN = 6  # letters in a run read as a misspelt name
TIE = 2


@dataclass(frozen=True, slots=True)
class Mention:
    card: Any  # rulebook.cards.model.Card; None when the words name cards of several games (choices)
    words: str  # the words of the question that named it, as typed
    matched: str  # "exact", "part" or "spelling"
    rest: str  # the question without those words
    choices: tuple[tuple[str, str], ...] = ()  # (game, name) of each card the words name, when several

    def to_json(self) -> dict[str, Any]:
        if self.card is None:
            return {"game": None, "name": None, "words": self.words, "matched": self.matched,
                    "choices": [{"game": g, "name": n} for g, n in self.choices]}
        return {"game": self.card.game, "name": self.card.name, "words": self.words, "matched": self.matched}


_TOKEN = re.compile(r"[\w’'][\w’'\-]*")


def _tokens(query: str) -> list[tuple[str, int, int]]:
    """The question's words with where each stands: (word, start, end); a possessive 's is not part of
    the word (``Hall's`` is ``Hall``)."""
    out = []
    for m in _TOKEN.finditer(query):
        word, end = m.group(), m.end()
        if re.search(r"['’]s$", word, re.IGNORECASE) and len(word) > 2:
            word, end = word[:-2], end - 2
        out.append((word, m.start(), end))
    return out


def _runs(words: list, longest: int) -> list[tuple[int, int]]:
    """Every run of ``words`` up to ``longest`` long, as (start, end), longest first, then left first."""
    n = len(words)
    return [(i, i + size) for size in range(min(longest, n), 0, -1) for i in range(n - size + 1)]


def _rest(query: str, start: int, end: int) -> str:
    rest = (query[:start] + " " + query[end:]).strip(" ,:;")
    rest = re.sub(r"^['’]s\b", "", rest).strip()
    return " ".join(rest.split())


def named_card(store, query: str, game: str | None = None,
               is_common: Callable[[str], bool] = lambda word: False,
               is_word: Callable[[str], bool] = lambda word: True,
               is_english: Callable[[str], bool] = lambda word: False,
               is_term: Callable[[str], bool] = lambda words: False,
               in_rules: Callable[[str], int] = lambda phrase: 0,
               is_rare: Callable[[str], bool] = lambda word: True) -> Mention | None:
    """The card ``query`` names (in ``game``, else in any), or None.

    ``is_common(word)``: the rules use the (lower-case) word often, so it names no card on its own;
    ``is_word(word)``: a book uses the word at all (a run without such a word may be misspelt);
    ``is_english(word)``: the word is plain English (a name of one such word needs a capital);
    ``is_term(words)``: the words are a term the rules define (a rule's title, a glossary entry):
    "Flash" is a card, but ``flash`` is the keyword; ``in_rules(phrase)``: how many rules say the phrase
    ("back to back" none: the Riftbound card, though each word is common); ``is_rare(word)``: the rules
    use the word at most a few times (an English word alone names a card then).
    """
    tokens = _tokens(query)
    if not tokens:
        return None
    whole = _whole(store, query, tokens, game, is_common, is_term)
    if whole is not None:
        return whole
    exact = _exact(store, query, tokens, game, is_common, is_english, is_term, in_rules, is_rare)
    if exact is not None:
        return exact
    return _misspelt(store, query, tokens, game, is_word)


def _whole(store, query: str, tokens, game, is_common, is_term) -> Mention | None:
    """The query is nothing but a name, as ``judge card`` reads one."""
    from rulebook.cards.lookup import find_card

    if len(tokens) > LONGEST or "?" in query:
        return None
    words = [t[0].lower() for t in tokens]
    if is_term(" ".join(words)):
        return None
    found, _ = find_card(store, query.strip(), game)
    if found is None:
        return None
    if found.matched != "exact" and all(is_common(w) for w in words):
        return None  # "damage", "priority": the rules' words, not a part of some card's name
    if found.matched == "spelling" and (len(query.strip()) < SPELLING_MIN
                                        or len(words) > len(found.card.name.split())):
        return None  # a question a name's letters happen to resemble (WRatio reads parts of strings)
    return Mention(found.card, query.strip(), found.matched, "")


def _exact(store, query: str, tokens, game, is_common, is_english, is_term, in_rules, is_rare) -> Mention | None:
    """The longest run of words that is a card's name or a face's, exactly."""
    words = [t[0] for t in tokens]
    runs = _runs(words, LONGEST)
    keys = {r: loose_name(" ".join(words[r[0]:r[1]])) for r in runs}
    by_key = _names_for(store, set(keys.values()), game)
    for (i, j) in runs:
        named = by_key.get(keys[(i, j)])
        if not named:
            continue
        content = [w.lower() for w in words[i:j]]
        if is_term(" ".join(content)):
            continue
        if j - i > 1 and all(is_common(w) for w in content) and in_rules(" ".join(content)) > 1:
            continue  # words the rules use, as the rules use them together
        if j - i == 1 and not _a_name_alone(words[i], i, named, is_common, is_english, is_rare):
            continue
        start, end = tokens[i][1], tokens[j - 1][2]
        if len(named) > 1:  # the same name in both games, or faces of two cards: not guessed between
            return Mention(None, query[start:end], "exact", _rest(query, start, end), tuple(sorted(named)))
        g, name = named[0]
        card = store.card(g, name)
        if card is not None:
            return Mention(card, query[start:end], "exact", _rest(query, start, end))
    return None


def _a_name_alone(word: str, position: int, named: list[tuple[str, str]], is_common, is_english, is_rare) -> bool:
    """Whether one word of a question names the card(s) ``named``: a word typed with a capital inside
    the sentence does; else not a word the rules use often, and, when English, the whole name of a card
    (not one face of it: "wear" is a face of Wear // Tear) that the rules rarely use ("disintegrate")."""
    lower = word.lower()
    if position > 0 and word[:1].isupper():
        return not is_common(lower)
    if is_common(lower):
        return False
    if not is_english(lower):
        return True
    whole = all(loose_name(name) == loose_name(word) for _, name in named)
    return whole and is_rare(lower)


def _names_for(store, keys: set[str], game: str | None) -> dict[str, list[tuple[str, str]]]:
    """Loose name -> the (game, name) of the cards that have it as their name or as a face's name."""
    marks = ",".join("?" * len(keys))
    where = " AND game = ?" if game else ""
    params = [*keys] + ([game] if game else [])
    out: dict[str, list[tuple[str, str]]] = {}
    for g, name, loose in store.conn.execute(f"SELECT game, name, loose FROM cards WHERE loose IN ({marks}){where}",
                                             params):
        out.setdefault(loose, []).append((g, name))
    for g, name in _faced(store, game):
        for face in name.split(" // "):
            key = loose_name(face)
            if key in keys and (g, name) not in out.get(key, []):
                out.setdefault(key, []).append((g, name))
    return out


def _faced(store, game: str | None) -> list[tuple[str, str]]:
    sql = "SELECT game, name FROM cards WHERE name LIKE '% // %'" + (" AND game = ?" if game else "")
    return list(store.conn.execute(sql, [game] if game else []))


def _misspelt(store, query: str, tokens, game, is_word) -> Mention | None:
    """A run holding a word no book uses, close to one card's name (or a face's)."""
    words = [t[0] for t in tokens]
    unknown = {i for i, w in enumerate(words) if not is_word(w.lower())}
    if not unknown:
        return None
    from rapidfuzz import fuzz, process

    names = store.names(game)
    choices: dict[int, str] = {}
    owner: dict[int, tuple[str, str]] = {}
    for g, name in names:
        for face in ([name] + name.split(" // ") if " // " in name else [name]):
            k = len(choices)
            choices[k], owner[k] = loose_name(face), (g, name)
    best: tuple[float, int, int, tuple[str, str]] | None = None
    tied = False
    for (i, j) in _runs(words, 4):
        if not unknown & set(range(i, j)):
            continue
        run = loose_name(" ".join(words[i:j]))
        if len(run.replace(" ", "")) < SPELLING_MIN:
            continue
        found = process.extract(run, choices, scorer=fuzz.ratio, limit=5, score_cutoff=SPELLING_CUTOFF)
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
    return Mention(card, query[start:end], "spelling", _rest(query, start, end))
