"""Search over rules, glossary terms and rulings.

Judges type questions (``who gets priority during a showdown``), misspell (``priorty``) and type rule
numbers (``312.2b``). :func:`search` handles all three, in stages, each a module of this package:

1. :mod:`~rulebook.search.query`: the query's words, stop words out, misspelt words corrected
   against the books' vocabulary, words stemmed.
2. :mod:`~rulebook.search.expansion`: what else each word may be called (the search vocabulary's
   synonyms and irregular forms, the book's own thesaurus) and the rules that define a term named.
3. :mod:`~rulebook.search.lexical`: bm25 picks candidate rules; each is rescored on coverage,
   proximity, citations, definitions. Terms and rulings are ranked by bm25.
4. :mod:`~rulebook.search.meaning`: the sentence model's nearest rules.
5. :mod:`~rulebook.search.fusion`: the two rankings of rules fused by rank.
6. :mod:`~rulebook.search.answer`: the list a judge sees: a derived term counted as its rule, and,
   for a question, rules first (terms and rulings beside them, never filling the top five).

Each hit carries ``why``: what each stage saw (the reasons ``judge search --why`` prints).

Every number they were tuned with is a field of :class:`Settings`, passed down the stages.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace

from rulebook import numbers
from rulebook.game_rulings import older_books
from rulebook.search.answer import merge_derived, question_like, rules_first
from rulebook.search.expansion import associated, expansions
from rulebook.search.expansion import games as book_games
from rulebook.search.fusion import fuse
from rulebook.search.hits import HIGHLIGHT, Hit, SearchResult
from rulebook.search.index import SearchIndex
from rulebook.search.lexical import Snippets, ruling_hits, term_hits, word_ranked
from rulebook.search.query import (
    STOPWORDS,
    BookWords,
    book_forms,
    book_uses,
    content_words,
    correct,
    expand_shorthand,
    fts_query,
    index_matches,
    porter,
    stem,
    words,
)
from rulebook.search.settings import DEFAULT, Settings
from rulebook.search.vocabulary import vocabulary_table
from rulebook.shipped import ModelUnavailable
from rulebook.store import Store

_fts_query = fts_query  # the name bench/run.py imports

__all__ = [
    "HIGHLIGHT",
    "STOPWORDS",
    "Hit",
    "SearchIndex",
    "SearchResult",
    "Settings",
    "associated",
    "baseline_search",
    "book_forms",
    "content_words",
    "correct",
    "expansions",
    "fts_query",
    "fuse",
    "merge_derived",
    "porter",
    "question_like",
    "rules_first",
    "search",
    "search_books",
    "stem",
    "vocabulary_table",
    "words",
]


def search(
    store: Store,
    query: str,
    book: str | None = None,
    limit: int = 10,
    kinds: tuple[str, ...] = ("rule", "term", "ruling"),
    correct_typos: bool = True,
    meaning: bool = True,
    settings: Settings = DEFAULT,
    context: str = "",
) -> SearchResult:
    """Ranked hits for ``query``; a rule number jumps straight to that rule.

    ``context``: more words to rank the rules with, never corrected (a card's printed text, added to
    the question that names it: :mod:`rulebook.search.question`).

    Rules are ranked by their words (below) and, with ``meaning``, also by the sentence model
    (:mod:`rulebook.vectors`); the two rankings are fused. Without the model, words alone, and
    ``note`` says why.
    """
    query = query.strip()
    if numbers.looks_like_number(query) and "rule" in kinds:
        found = store.find_rule(query, book)
        if found:
            exact = [
                Hit(
                    "rule",
                    r.book,
                    r.number,
                    r.rule.title,
                    (r.rule.text or r.rule.title or "")[:200],
                    1.0,
                    why={"number": True},
                )
                for r in found
            ]
            return SearchResult(query, None, exact[:limit], jumped=True)
    # 1. The query.
    corrected = None
    effective = query
    vocab: Mapping[str, int] = {}
    if correct_typos or "rule" in kinds:  # one book's words as they are asked for; every book's at once
        vocab = BookWords.of(store, book) if book else SearchIndex.of(store).vocabulary()
    if correct_typos:  # judges' shorthand written out ("sba": state-based actions), then misspellings corrected
        written = expand_shorthand(query, book_games(store, book), lambda phrase: book_uses(store, phrase, book))
        fixed, changed = correct(written, vocab, lambda w: index_matches(store, w, book), settings)
        if changed or written != query:
            corrected = effective = fixed
    asked = f"{effective} {context}" if context.strip() else effective
    terms = book_forms(content_words(asked), vocab) if vocab else content_words(asked)
    if context.strip():  # a card's text repeats the question's words
        terms = list(dict.fromkeys(terms))
    if not terms:
        return SearchResult(query, corrected, [])
    hits: list[Hit] = []
    ranking, note = "words", None
    snippets = Snippets()  # made for the hits shown only
    if "rule" in kinds:
        # 2-3. Rules by their words (expanded), then 4-5. by meaning too, fused.
        lexical = word_ranked(store, terms, book, max(limit, settings.fusion_depth // 3 + 1), vocab, settings, snippets)
        if meaning:
            try:
                lexical = fuse(store, asked, book, lexical, settings)
                ranking = "words+meaning"
            except ModelUnavailable as exc:
                note = f"ranked by words alone: {exc}"
        hits += lexical[: limit * 3]
    if "term" in kinds:
        hits += term_hits(store, fts_query(terms), book, limit * 3, settings, snippets)
    if "ruling" in kinds:  # a book is read with the rulings of its game's older editions too
        hits += ruling_hits(store, fts_query(terms), _ruling_books(store, book), limit * 3, settings)
    # 6. The answer: a derived term counts as its rule; a question is answered by rules first.
    hits = rules_first(merge_derived(hits), effective, settings)
    return SearchResult(query, corrected, snippets.fill(store, hits[:limit]), ranking=ranking, note=note)


def _ruling_books(store: Store, book: str | None) -> str | list[str] | None:
    """The books whose rulings a search of ``book`` reads: ``book``, then the older books of its game
    that hold rulings, newest first (rulebook.game_rulings: rulings stay with the game)."""
    if book is None or not SearchIndex.of(store).others_of_game_hold_rulings(book):  # most libraries
        return book

    older = older_books(store, book)
    return [book, *older] if older else book


def search_books(store, query: str, books: list[str], **options):
    """:func:`rulebook.search.search` over ``books``: one search when they are one book or every
    loaded book; else one per book, merged (:func:`merge_results`)."""
    run = search
    if len(books) == 1:
        return run(store, query, book=books[0], **options)
    if set(books) == set(store.book_ids()):
        return run(store, query, book=None, **options)
    return merge_results([run(store, query, book=b, **options) for b in books], options.get("limit", 10))


def merge_results(results: list[SearchResult], limit: int) -> SearchResult:
    """Searches of one book each as one result, hits merged by score (bm25 is computed over the whole
    index whichever book a search is limited to, so scores compare as they do in one search over all)."""

    hits = sorted((h for r in results for h in r.hits), key=lambda h: -h.score)
    rankings = {r.ranking for r in results if r.hits}
    return replace(
        results[0],
        corrected=next((r.corrected for r in results if r.corrected), None),
        hits=hits[:limit],
        jumped=any(r.jumped for r in results),
        ranking=rankings.pop() if len(rankings) == 1 else results[0].ranking,
        note=next((r.note for r in results if r.note), None),
    )


def baseline_search(store: Store, query: str, book: str | None = None, limit: int = 10) -> list[Hit]:
    """Plain FTS5 bm25 over the rules, every word of the query ORed, default column weights: the
    yardstick bench/search_quality.py measures :func:`search` against."""
    terms = words(query)
    if not terms:
        return []
    return [
        Hit("rule", r.book, r.number, r.title, (r.text or r.title or "")[:160], r.score)
        for r in SearchIndex.of(store).rules_bm25(fts_query(terms), book, limit)
    ]
