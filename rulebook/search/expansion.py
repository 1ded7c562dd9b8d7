"""Stage 2, expansion: what else a query word may be called in the rules.

- the search vocabulary (``data/search-synonyms.yaml``): irregular forms, synonyms, broader terms, and
  "un" + the word (:func:`expansions`);
- the book's own thesaurus: words used mostly together with a rare query word (:func:`associated`);
- definitions: the rules that define a term the query names (:func:`definitions`), and, for a
  question about two defined terms, the rules under one that use the other's vocabulary
  (:func:`interactions`).

Each alternative carries a credit below 1, so a rule in the judge's own words still ranks first.
"""

from __future__ import annotations

import math
import re
import threading
from collections.abc import Mapping

from rulebook.search.index import SearchIndex
from rulebook.search.query import STOPWORDS, fts_query, phrase_stems, rule_stems, stem
from rulebook.search.settings import DEFAULT, Settings
from rulebook.search.vocabulary import vocabulary_table
from rulebook.store import Store

Alternatives = dict[str, list[tuple[str, tuple[str, ...], float]]]
"""For a query word's stem, its equivalents: (text for the FTS query, their stems, credit)."""


def games(store: Store, book: str | None) -> set[str] | None:
    """The game of the book searched; None (every game) without a book."""
    if not book:
        return None
    game = SearchIndex.of(store).game(book)
    return {game} if game is not None else None


def expansions(
    terms: list[str], games: set[str] | None, vocab: Mapping[str, int] | None = None, settings: Settings = DEFAULT
) -> Alternatives:
    """For each query word's stem, its equivalents: (text for the FTS query, stems, credit).

    >>> alts = expansions(["spend", "trash"], {"riftbound"}, {"unspent": 2})
    >>> sorted((w, c) for w, _, c in alts[stem("spend")])
    [('spent', 1.0), ('unspent', 0.7)]
    >>> ("non-board zone", 0.5) in [(w, c) for w, _, c in alts[stem("trash")]]
    True
    """
    table = vocabulary_table()
    vocab = vocab or {}
    forms: dict[str, set[str]] = {}  # stem -> the irregular forms that reduce to it
    for form, base in table["irregular"].items():
        forms.setdefault(stem(base), set()).update({form, base})
    out: Alternatives = {}
    stemmed = [stem(t) for t in terms]
    phrases = {(s,): s for s in stemmed} | {(a, b): b for a, b in zip(stemmed, stemmed[1:])}
    for t, s in zip(terms, stemmed):
        alts = out.setdefault(s, [])
        for f in sorted(forms.get(s, set()) - {t}):
            alts.append((f, (s,), 1.0))
        for f in sorted(forms.get(s, set()) | {t}):
            if len(f) >= settings.un_min and "un" + f in vocab:
                alts.append(("un" + f, (stem("un" + f),), settings.un_credit))
    for group in table["groups"]:
        if games is not None and not (group["games"] & games):
            continue
        members = {phrase_stems(w): w for w in group["words"]}
        for phrase, s in phrases.items():
            if phrase not in members:
                continue
            alts = out.setdefault(s, [])
            alts += [(w, p, settings.synonym_credit) for p, w in members.items() if p != phrase]
            alts += [(w, phrase_stems(w), settings.synonym_credit) for w in group["rules"]]
            alts += [(w, phrase_stems(w), settings.broader_credit) for w in group["broader"]]
    return {s: alts for s, alts in out.items() if alts}


# The book's own thesaurus -------------------------------------------------------------------------
# Only in the rescoring; joining its words to the candidates' query cost 14 of 110 questions.

# Kept for the vocabulary objects last asked about, a few (a store's book words live as long as the store:
# judge serve's worker threads each keep one), the object kept alive with its entry so its id stays its own.
_STEM_COUNTS: dict[int, tuple[Mapping[str, int], dict[str, int], int, dict[str, str]]] = {}
_STEM_COUNTS_KEPT = 16
_STEM_LOCK = threading.Lock()


def _stem_counts(vocab: Mapping[str, int]) -> tuple[dict[str, int], int, dict[str, str]]:
    """The book's word counts by light stem, their total, and the book's commonest word for each stem
    (cached for the vocabulary object, kept alive with it)."""
    cached = _STEM_COUNTS.get(id(vocab))
    if cached is not None and cached[0] is vocab:
        return cached[1], cached[2], cached[3]
    counts: dict[str, int] = {}
    commonest: dict[str, str] = {}
    for w, n in vocab.items():
        st = stem(w)
        counts[st] = counts.get(st, 0) + n
        if n > vocab.get(commonest.get(st, ""), 0):
            commonest[st] = w
    with _STEM_LOCK:  # threads of judge serve: the oldest dropped by one at a time
        if len(_STEM_COUNTS) >= _STEM_COUNTS_KEPT:
            _STEM_COUNTS.pop(next(iter(_STEM_COUNTS)), None)
        _STEM_COUNTS[id(vocab)] = (vocab, counts, sum(counts.values()) or 1, commonest)
    return counts, sum(counts.values()) or 1, commonest


def associated(
    store: Store, terms: list[str], book: str, vocab: Mapping[str, int], settings: Settings = DEFAULT
) -> Alternatives:
    """A distributional thesaurus from the book's own text, for the words judges use and the rules do
    not: for each query word, the words over-represented (pointwise mutual information against the
    book's word frequencies) in the rules that use it, found in several of them. Those words stand in
    for the query word at ``settings.associated_credit`` where a rule lacks it (in the rescoring only:
    the text given for each is the book's commonest word of its stem, for the reasons shown)."""
    book_counts = None  # the book's words by stem: stemming all of them costs 4 ms, so only when needed
    qstems = {stem(t) for t in terms}
    out: Alternatives = {}
    index = SearchIndex.of(store)
    for t in terms:
        rows = index.matching_stems(fts_query([t]), book, settings.associated_docs)
        if len(rows) < settings.associated_min_docs:
            continue
        if book_counts is None:
            book_counts = _stem_counts(vocab)
        counts, total, commonest = book_counts
        tf: dict[str, int] = {}
        docs: dict[str, int] = {}
        n_tokens = 0
        for stored in rows:
            title, text, _ = rule_stems(stored)
            bag = [w for w in title + text if w not in STOPWORDS and len(w) > 2 and not w.isdigit()]
            n_tokens += len(bag)
            for w in bag:
                tf[w] = tf.get(w, 0) + 1
            for w in set(bag):
                docs[w] = docs.get(w, 0) + 1
        scored = []
        for w, n in tf.items():
            if w in qstems or docs[w] < settings.associated_min_docs or w not in counts:
                continue
            pmi = math.log((n / max(n_tokens, 1)) / (counts[w] / total))
            if pmi > 0:
                scored.append((docs[w] / len(rows) * pmi, w))
        scored.sort(reverse=True)
        out[t] = [
            (commonest.get(w, w), (w,), settings.associated_credit) for _, w in scored[: settings.associated_terms]
        ]
    return out


# Definitions --------------------------------------------------------------------------------------


def under(key: tuple[str, str], ancestor: tuple[str, str]) -> bool:
    """Whether rule ``key`` (book, number) is a sub-rule of ``ancestor``.

    >>> under(("cr", "702.19b"), ("cr", "702.19")), under(("cr", "702.190"), ("cr", "702.19"))
    (True, False)
    """
    (book, number), (abook, anumber) = key, ancestor
    return (
        book == abook and number.startswith(anumber) and re.match(r"[.a-z]", number[len(anumber) :] or "0") is not None
    )


def definitions(store: Store, terms: list[str], book: str | None) -> dict[str, set[tuple[str, str]]]:
    """Rules that define a term the query names (a Riftbound term's rule, an MTG glossary entry's "See
    rule"), by the query word or pair of words naming it."""
    phrases = {p: p for p in set(terms) | {f"{a} {b}" for a, b in zip(terms, terms[1:])}}
    phrases |= {p[:-1]: p for p in phrases if p.endswith("s") and len(p) > 3}
    if not phrases:
        return {}
    out: dict[str, set[tuple[str, str]]] = {}
    for defined_in, rule, name in SearchIndex.of(store).defining_rules(list(phrases), book):
        out.setdefault(phrases[name], set()).add((defined_in, rule))
    return out


def interactions(
    store: Store,
    by_word: dict[str, set[tuple[str, str]]],
    keys: list[tuple[str, str]],
    book: str | None,
    settings: Settings = DEFAULT,
) -> dict[tuple[str, str], set[str]]:
    """Questions about two terms together ("deathtouch and trample"): a rule under one term's definition
    that uses a specific term of the other's definition (702.2c, under deathtouch, speaks of the lethal and
    excess damage that trample's 702.19b is about) is credited with the other term's word.

    ``by_word``: the query's words and pairs of words that name a term, with the rules defining it.
    Returns, for each candidate rule, the stems of the query words it is so credited with."""
    if len(by_word) < 2 or not keys:
        return {}
    index = SearchIndex.of(store)
    books = {b for defs in by_word.values() for b, _ in defs}
    uses_of: dict[tuple[str, str], set[str]] = {}
    for b in books:
        prefixes = sorted({n for defs in by_word.values() for bb, n in defs if bb == b})
        for rule, term in index.term_uses_under(b, prefixes):
            uses_of.setdefault((b, rule), set()).add(term)
    for b, rule, term in index.term_uses_of(keys):
        uses_of.setdefault((b, rule), set()).add(term)
    named = set(by_word)

    def inside(key: tuple[str, str], defs: set[tuple[str, str]]) -> bool:
        return any(key == d or under(key, d) for d in defs)

    vocab_of = {t: set().union(*(u for k, u in uses_of.items() if inside(k, d))) - named for t, d in by_word.items()}
    common = set().union(*vocab_of.values())
    if common:
        counts = index.term_use_counts(list(common), book)
        vocab_of = {t: {u for u in v if counts.get(u, 0) <= settings.interaction_max_uses} for t, v in vocab_of.items()}
    out: dict[tuple[str, str], set[str]] = {}
    for key in keys:
        for a, da in by_word.items():
            if not inside(key, da):
                continue
            for b, db in by_word.items():
                if b != a and not inside(key, db) and uses_of.get(key, set()) & vocab_of[b]:
                    out.setdefault(key, set()).update(phrase_stems(b))
    return out
