"""A judge's question answered: which game it is about, the card it names, and the rules that answer it.

:func:`ask` is what ``judge search`` runs:

1. the game: the one the judge chose (``--game``, ``--book``), else the game of the card the question
   names, else the judge's default game (a setting), else the game the question's words are
   (:mod:`rulebook.search.guess`), else every game's default book;
2. the card (:mod:`rulebook.cards.mention`), shown first;
3. the rules, searched with the question and, when it names a card, the card's keywords and text
   (its own name out), so that "Does Abandoned Hall's ability trigger if the spell is countered?" is
   answered by the rules about the card's trigger and about countering. Only the question's words are
   corrected: a card's text is printed, not typed.
"""

from __future__ import annotations

import re
from dataclasses import replace
from typing import TYPE_CHECKING, Any, NamedTuple

from rulebook import numbers
from rulebook.search import merge_results, search_books
from rulebook.search.guess import GameGuess, by_shorthand, by_words
from rulebook.search.hits import Hit, SearchResult
from rulebook.search.index import SearchIndex
from rulebook.search.query import BookWords, book_uses, content_words, english_frequency, stem, words

if TYPE_CHECKING:
    from rulebook.cards.mention import Mention

COMMON = 20  # a word a book uses this often is the rules' word, never a card's name on its own
RARE = 10  # an English word the books use at most this often (an example naming the card, as the CR names
# Lightning Bolt six times) may name a card in lower case ("disintegrate", "bolt")


class Answer(NamedTuple):
    """What :func:`ask` answers: the search's result, the game it read and why, and the card named."""

    result: SearchResult
    game: GameGuess
    books: tuple[str, ...]  # the books searched
    card: Any = None  # rulebook.cards.mention.Mention
    context: str = ""  # the card's words the rules were searched with besides the question
    ruling: Any = None  # the card's ruling nearest the question (rulebook.cards.model.CardRuling)

    def to_json(self) -> dict[str, Any]:
        card = None
        if self.card is not None:
            card = self.card.to_json()
            if self.card.card is not None:
                card.update(_card_fields(self.card.card))
                r = self.ruling
                card["ruling"] = (
                    None if r is None else {"date": r.date, "text": r.text, "source": r.source, "official": r.official}
                )
        return {
            **self.result.to_json(),
            "game": self.game.to_json(),
            "books": list(self.books),
            "card": card,
            "context": self.context or None,
        }


def _card_fields(card) -> dict[str, Any]:
    return {"type_line": card.type_line, "cost": card.cost, "keywords": list(card.keywords), "text": card.text}


def ask(
    store,
    query: str,
    defaults: dict[str, str],
    *,
    chosen: list[str] | None = None,
    name_card=None,
    setting: str | None = None,
    **options,
) -> Answer:
    """Answer ``query``.

    ``defaults``: game -> its default book; ``chosen``: the books the judge chose (--book, --game), or
    None; ``name_card``: :func:`rulebook.cards.mention.named_card` bound to the card library (the command
    line binds it when cards are loaded) or None; ``setting``:
    the judge's default game; ``options``: as :func:`rulebook.search.search` takes them.
    """

    if chosen:
        game_of = {b: g for g, b in defaults.items()}
        guess = GameGuess(game_of.get(chosen[0]) if len(chosen) == 1 else None, "option")
        books = list(chosen)
        tentative = guess
    else:
        guess, books = GameGuess(None, "none"), list(defaults.values())
        tentative = GameGuess(setting, "setting") if setting in defaults else GameGuess(None, "none")
        if tentative.game is None and len(defaults) > 1:
            tentative = by_words(store, defaults, content_words(query))
            if tentative.game is None:
                tentative = by_shorthand(query, defaults)
    mention = None
    if name_card is not None and not numbers.looks_like_number(query.strip()):
        mention = _mention(store, name_card, query, books, guess.game)
        loose = mention is not None and (
            mention.card is None or (mention.matched != "exact" and mention.card.game != tentative.game)
        )
        if loose and tentative.game is not None and not chosen:
            # the question's words say the game: a name several games have, or one found loosely in the
            # other game ("mystic" of Elvish Mystic), is looked for in that game's cards first
            mention = _mention(store, name_card, query, books, tentative.game) or mention
    if mention is not None and mention.card is not None and not chosen and mention.card.game in defaults:
        game = mention.card.game
        guess, books = GameGuess(game, "card", (mention.card.name,)), [defaults[game]]
    elif tentative.game is not None and not chosen:
        guess, books = tentative, [defaults[tentative.game]]
    named = mention if mention is not None and mention.card is not None else None  # naming one card
    context = card_context(named) if named is not None else ""
    question = (named.rest or "") if named is not None else query
    if named is not None and not question.strip():
        question = named.words  # "How does Switcheroo work?": the card is the question
    if len(books) > 1:  # still every game: a misspelt word's closest correction may tell
        per_book = {b: search_books(store, question, [b], context=context, **options) for b in books}
        corrections = _corrections(question, per_book)
        if corrections:
            guessed = by_words(store, defaults, [], corrections)
            if guessed.game is not None:
                guess = guessed
                books = [defaults[guessed.game]]
                return Answer(
                    per_book[books[0]],
                    guess,
                    tuple(books),
                    mention,
                    context,
                    card_ruling(named.card, question) if named is not None else None,
                )
        result = merge_results(list(per_book.values()), options.get("limit", 10))
    else:
        result = search_books(store, question, books, context=context, **options)
        if named is not None and context and question != named.words:
            result = _fused(search_books(store, question, books, **options), result, options.get("limit", 10))
    if named is not None:
        result = replace(result, query=query)
    return Answer(
        result, guess, tuple(books), mention, context, card_ruling(named.card, question) if named is not None else None
    )


FUSION_K = 10  # reciprocal rank fusion's constant: small, so that the first few places of each list count


def _fused(plain: SearchResult, with_card: SearchResult, limit: int) -> SearchResult:
    """The question's own ranking and its ranking with the card's text, fused by reciprocal rank (the
    card's ruling closest to the question, as a third ranking, was tried and lost a question): a rule
    the question's words put first stays near the top ("how does its investigate work" is answered by
    Investigate, not drowned by the card's other words), and the rules the card adds join it."""
    if not plain.hits:
        return with_card
    score: dict[tuple, float] = {}
    hit_of: dict[tuple, Any] = {}
    card_rank: dict[tuple, int] = {}
    for n, ranked in enumerate((plain, with_card)):
        for i, h in enumerate(ranked.hits, 1):
            key = (h.kind, h.book, h.id)
            score[key] = score.get(key, 0.0) + 1 / (FUSION_K + i)
            hit_of.setdefault(key, h)
            if n == 1:
                card_rank[key] = i
    order = sorted(score, key=lambda k: -score[k])
    hits = [hit_of[k].rescored(round(score[k], 4), with_card_rank=card_rank.get(k)) for k in order]
    return replace(with_card, hits=varied(hits)[:limit], corrected=plain.corrected)


VARIED_TOP, VARIED_PER = 5, 3  # in the first 5, at most 3 rules of one rule's sub-rules (702.11, 820.1)


def varied(hits: list[Hit], top: int = VARIED_TOP, per: int = VARIED_PER) -> list[Hit]:
    """The first ``top`` hits with at most ``per`` of one rule's sub-rules (a card's text names its
    keyword over and over, and five sub-rules of Repeat crowd out the rule the question asks about);
    the others follow, in order.

    >>> from rulebook.search.hits import Hit
    >>> [h.id for h in varied([Hit("rule", "b", n, None, "", 1.0) for n in
    ...  ("820.1.b", "820.1.c", "820.1.d", "820.1.e", "355.4", "820.3")])]
    ['820.1.b', '820.1.c', '820.1.d', '355.4', '820.3', '820.1.e']
    """
    first: list[Hit] = []
    rest: list[Hit] = []
    seen: dict[tuple[str, str, str], int] = {}
    for h in hits:
        m = re.match(r"\d+(?:\.\d+)?", h.id)
        key = (h.kind, h.book, m.group() if m else h.id)
        if len(first) < top and seen.get(key, 0) < per:
            first.append(h)
            seen[key] = seen.get(key, 0) + 1
        else:
            rest.append(h)
    return first + rest


RULING_OVERLAP = 3  # the question's content words (stemmed) a card's ruling must share to be shown with it


def card_ruling(card, question: str):
    """The card's ruling that shares the most of the question's content words, at least
    ``RULING_OVERLAP`` of them (the newest among equals): a judge's question about a card is often one
    its rulings answer, so it is shown with the card. ``question`` is the question without the card's
    name (which every ruling of the card says)."""

    asked = {stem(w) for w in content_words(question)}
    best, most = None, RULING_OVERLAP - 1
    for ruling in card.rulings:  # newest first
        shared = len(asked & {stem(w) for w in content_words(ruling.text)})
        if shared > most:
            best, most = ruling, shared
    return best


def _mention(store, name_card, query: str, books: list[str], game: str | None) -> Mention | None:

    vocabularies = [BookWords.of(store, b) for b in books]
    index = SearchIndex.of(store)

    def count(word: str) -> int:
        word = word.lower().replace("’", "'")
        return max(v.get(word, 0) for v in vocabularies)

    def is_term(words: str) -> bool:
        return index.names_term(books, words)

    return name_card(
        query,
        game,
        is_common=lambda word: count(word) >= COMMON,
        is_word=lambda word: count(word) > 0,
        english_frequency=english_frequency,
        is_term=is_term,
        in_rules=lambda phrase: any(book_uses(store, phrase, b) for b in books),
        is_rare=lambda word: count(word) <= RARE,
    )


_ICON = re.compile(r":[a-z0-9_]+:|\[[A-Z]\]|\{[^}]*\}")  # energy/might icons, mana symbols: not words


def card_context(mention) -> str:
    """The card's keywords and text as words to search the rules with: its own names out (a rule never
    names the card), icons and mana symbols out, keyword brackets opened (``[Accelerate]``)."""
    card = mention.card
    text = card.text.replace("\n//\n", "\n")
    for name in sorted({card.name, *(f.name for f in card.faces)}, key=len, reverse=True):
        text = re.sub(re.escape(name), " ", text, flags=re.IGNORECASE)
    text = _ICON.sub(" ", text)
    text = re.sub(r"[\[\]]", " ", text)
    text = re.sub(r"[+-]?\d+(/[+-]?\d+)?", " ", text)
    said = " ".join([*card.keywords, text])
    return " ".join(said.split())


def _corrections(question: str, per_book: dict[str, SearchResult]) -> dict[str, dict[str, str]]:
    """typed word -> {book: the word it became there}, for the words some book corrected."""

    typed = words(question)
    out: dict[str, dict[str, str]] = {}
    for book, result in per_book.items():
        if not result.corrected:
            continue
        fixed = words(result.corrected)
        if len(fixed) != len(typed):
            continue
        for a, b in zip(typed, fixed):
            if a != b:
                out.setdefault(a, {})[book] = b
    return out
