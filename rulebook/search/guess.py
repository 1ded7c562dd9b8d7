"""Which game a question is about, when the judge does not say: "when is the chain empty" is Riftbound's,
"who gets priority after a spell resolves" is Magic's, "when does damage wear off" could be either.

A word is a game's when it is a word of the game's own terms (a rule's title or a glossary entry of
its book) and that book uses it at least ``MIN_COUNT`` times and ``RATIO`` times as often (per word of
the book) as every other game's book: "chain", "showdown", "rune" are Riftbound's, "stack", "mana",
"planeswalker" Magic's; "damage" and "counter" belong to both, and "empty", a word one book happens to
use more, is no game's term. A question whose words
are one game's only is that game's. A misspelt word counts through its correction: each book corrects
it against its own words, and the book whose correction is closest (fewest edits, a swap of two
letters one edit) speaks for its game ("shodown" is Riftbound's showdown, not Magic's "shown"). Failing
words, judges' shorthand of one game only tells it ("sba" is Magic's).

>>> _closest({"rb": "showdown", "cr": "shown"}, "shodown")
['rb']
"""

from __future__ import annotations

from typing import TYPE_CHECKING, NamedTuple

from rapidfuzz.distance import OSA

from rulebook.search.index import SearchIndex
from rulebook.search.query import BookWords, shorthand_games, words

if TYPE_CHECKING:
    from rulebook.store import Store

MIN_COUNT = 3
RATIO = 8.0


class GameGuess(NamedTuple):
    """The game a search reads, and why: ``source`` is ``option`` (--game or --book), ``card`` (the
    question names a card of that game), ``setting`` (the judge's default game), ``words`` (the
    question's words are that game's) or ``none`` (every game's default book)."""

    game: str | None
    source: str
    evidence: tuple[str, ...] = ()

    def to_json(self) -> dict:
        return {"game": self.game, "from": self.source, "evidence": list(self.evidence)}


def _totals(store: Store, books: dict[str, str]) -> dict[str, int]:
    totals = SearchIndex.of(store).vocabulary_totals(list(books.values()))
    return {book: total or 1 for book, total in totals.items()}


def game_words(store, books: dict[str, str], words: list[str]) -> dict[str, list[str]]:
    """For each game of ``books`` (game -> its book), the ``words`` that are that game's."""

    words = list(dict.fromkeys(w.lower() for w in words))
    totals = _totals(store, books)
    vocabularies = {b: BookWords.of(store, b) for b in books.values()}
    out: dict[str, list[str]] = {g: [] for g in books}
    for word in words:
        counts = {b: vocabularies[b].get(word, 0) for b in books.values()}
        freq = {g: (counts[b] + 0.5) / totals.get(b, 1) for g, b in books.items()}
        for g, b in books.items():
            others = [f for o, f in freq.items() if o != g]
            if (
                counts[b] >= MIN_COUNT
                and others
                and all(freq[g] >= RATIO * f for f in others)
                and _a_term_word(store, b, word)
            ):
                out[g].append(word)
    return out


def _a_term_word(store: Store, book: str, word: str) -> bool:
    """Whether ``word`` (or its singular) begins a word of a rule's title or a glossary term of ``book``."""
    base = word[:-1] if word.endswith("s") and len(word) > 3 else word
    return SearchIndex.of(store).names_word_starting(book, base)


def by_words(
    store, books: dict[str, str], words: list[str], corrections: dict[str, dict[str, str]] | None = None
) -> GameGuess:
    """The game ``words`` are the words of, counting each misspelt word (``corrections``: word -> {book:
    its correction there}) as its closest correction, for that book's game only."""
    found = game_words(store, books, words)
    game_of = {b: g for g, b in books.items()}
    for typed, fixes in (corrections or {}).items():
        for book in _closest(fixes, typed):
            g = game_of.get(book)
            if (
                g is not None
                and fixes[book]
                in game_words(store, {g: book, **{o: b for o, b in books.items() if o != g}}, [fixes[book]])[g]
            ):
                found[g].append(fixes[book])
    having = {g: ws for g, ws in found.items() if ws}
    if len(having) == 1:
        ((game, ws),) = having.items()
        return GameGuess(game, "words", tuple(dict.fromkeys(ws)))
    return GameGuess(None, "none")


def by_shorthand(query: str, books: dict[str, str]) -> GameGuess:
    """The game whose judges' shorthand the query uses ("do SBAs use the stack": Magic's), when only one
    game's is (data/search-shorthand.yaml)."""

    games = shorthand_games(query) & set(books)
    if len(games) != 1:
        return GameGuess(None, "none")
    game = games.pop()
    return GameGuess(game, "words", tuple(w for w in words(query) if game in shorthand_games(w)))


def _closest(fixes: dict[str, str], typed: str) -> list[str]:
    """The books whose correction of ``typed`` takes the fewest edits (a swap of neighbours is one)."""

    if not fixes:
        return []
    cost = {book: OSA.distance(typed.lower(), fixed.lower()) for book, fixed in fixes.items()}
    low = min(cost.values())
    return [book for book, c in cost.items() if c == low]
