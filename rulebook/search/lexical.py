"""Stage 3, ranking by words: bm25 picks the candidates, then each rule is rescored on what bm25
cannot see.

Every signal multiplies the candidate's bm25 score (weights in :class:`~rulebook.search.settings.Settings`):

- coverage: the idf-weighted share of the query's words the rule has (a word in the headings above,
  in an example, a prefix, a synonym or an associated word counts less than the word itself);
- proximity: adjacent query words found close together;
- citations: how often other rules, terms and rulings cite the rule;
- definition: the rule defines a term the query names;
- heading: a rule with no text names a topic but answers nothing;
- repeats: a rule saying nearly what a rule above it says drops.

Terms and rulings are ranked by bm25 alone.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping
from dataclasses import replace

from rulebook.game_rulings import same_ruling
from rulebook.search import expansion
from rulebook.search.hits import Hit, snippet
from rulebook.search.index import RuleCandidate, RuleLink, SearchIndex
from rulebook.search.query import STOPWORDS, fts_query, porter, rule_stems, stem
from rulebook.search.settings import DEFAULT, Settings
from rulebook.store import Store


def rule_rows(
    store: Store, match: str, book: str | None, limit: int, settings: Settings = DEFAULT
) -> list[RuleCandidate]:
    """The bm25 candidates among the rules (title and examples weighted), best first."""
    return SearchIndex.of(store).rule_candidates(match, book, limit, settings.title_weight, settings.examples_weight)


def term_hits(
    store: Store,
    match: str,
    book: str | None,
    limit: int,
    settings: Settings = DEFAULT,
    snippets: Snippets | None = None,
) -> list[Hit]:
    """Glossary terms by bm25 (headword weighted); with ``snippets``, their snippets are left for it
    to make (:class:`Snippets`)."""
    rows = SearchIndex.of(store).term_candidates(match, book, limit, settings.term_weights, snippets=snippets is None)
    if snippets is not None:
        snippets.owe("term", match, [(r.book, r.term, r.rowid, r.text, None) for r in rows])
    return [
        Hit(
            "term",
            r.book,
            r.term,
            r.term,
            None if snippets else snippet(r.snip, r.text, None),
            r.score,
            rule=r.rule,
            why={"bm25": round(r.score, 3)},
        )
        for r in rows
    ]


def ruling_hits(
    store: Store, match: str, book: str | list[str] | None, limit: int, settings: Settings = DEFAULT
) -> list[Hit]:
    """Rulings (FAQ) by bm25 (the question weighted). ``book`` may be a list: the book searched, then
    the older books of its game whose rulings it is read with (rulebook.game_rulings), newest first; their
    hits say ``read_in`` the first, and a ruling loaded in more than one of them counts once, from the
    newest."""
    books: list[str] = [book] if isinstance(book, str) else (book or [])
    rows = SearchIndex.of(store).ruling_candidates(match, books, limit, settings.ruling_weights)
    read_in = books[0] if books and len(books) > 1 else None
    if read_in is not None:
        order = {b: i for i, b in enumerate(books)}
        newest: dict[str, int] = {}
        for r in rows:
            same = same_ruling(r.question, r.text)
            newest[same] = min(newest.get(same, len(books)), order[r.book])
        rows = [r for r in rows if order[r.book] == newest[same_ruling(r.question, r.text)]][:limit]
    return [
        Hit(
            "ruling",
            r.book,
            r.id,
            r.question,
            snippet(r.snip, r.text, None),
            r.score,
            why={"bm25": round(r.score, 3)},
            read_in=read_in,
        )
        for r in rows
    ]


class Snippets:
    """Snippets owed to rule and term hits, made only for the hits a search shows.

    FTS5 computes ``snippet()`` for every row its MATCH finds, before the ORDER BY and the LIMIT pick
    the hundred candidates: for a question with a common word, a thousand rules' snippets, two thirds
    of the candidates' query, for the ten hits shown. With a ``Snippets``, :func:`ranked_rule_hits`
    and :func:`term_hits` leave a hit's snippet None and note its row; :meth:`fill` asks FTS5 for those
    rows' snippets with the same MATCH, which marks the same words (a row's snippet depends on the row
    and the MATCH alone).
    """

    def __init__(self) -> None:
        self.match: dict[str, str] = {}  # kind -> the MATCH its rows were found with
        # (kind, book, id) -> its row's rowid, text and title
        self.rows: dict[tuple[str, str, str], tuple[int, str | None, str | None]] = {}

    def owe(self, kind: str, match: str, rows: Iterable[tuple[str, str, int, str | None, str | None]]) -> None:
        """Note the rows (book, id, rowid, text, title) whose hits' snippets are owed."""
        self.match[kind] = match
        self.rows.update(((kind, book, id), (rowid, text, title)) for book, id, rowid, text, title in rows)

    def fill(self, store: Store, hits: list[Hit]) -> list[Hit]:
        """``hits`` with every owed snippet made."""
        owed: dict[str, list[int]] = {}
        for h in hits:
            if h.snippet is None and (h.kind, h.book, h.id) in self.rows:
                owed.setdefault(h.kind, []).append(self.rows[(h.kind, h.book, h.id)][0])
        if not owed:
            return hits
        index = SearchIndex.of(store)
        made = {kind: index.snippets(kind, self.match[kind], rowids) for kind, rowids in owed.items()}
        out = []
        for h in hits:
            row = self.rows.get((h.kind, h.book, h.id)) if h.snippet is None else None
            if row is not None:
                rowid, text, title = row
                h = replace(h, snippet=snippet(made[h.kind].get(rowid), text or "", title))
            out.append(h)
        return out


def word_ranked(
    store: Store,
    terms: list[str],
    book: str | None,
    limit: int,
    vocab: Mapping[str, int],
    settings: Settings = DEFAULT,
    snippets: Snippets | None = None,
) -> list[Hit]:
    """The rules ranked by their words: the query's words and their expansions pick the bm25
    candidates, which are then rescored (:func:`ranked_rule_hits`); the first ``limit * 3``. With
    ``snippets``, their snippets are left for it to make (:class:`Snippets`)."""
    alternatives = expansion.expansions(terms, expansion.games(store, book), vocab, settings)
    extra = sorted({w for alts in alternatives.values() for w, _, _ in alts} - set(terms))
    if extra:  # a form the index already reads as a query word ("leave" for "leaves") would count twice
        same = porter(terms + extra)
        typed = {same.get(t) for t in terms}
        extra = [w for w in extra if " " in w or "-" in w or same.get(w) not in typed]
    hits = ranked_rule_hits(
        store, terms, fts_query(terms + extra), book, limit, alternatives, vocab, settings, snippets
    )
    rank: dict[str, int] = {}
    for i, h in enumerate(hits):
        rank[h.book] = rank.get(h.book, 0) + 1
        hits[i] = h.because(words_rank=rank[h.book])
    return hits


def ranked_rule_hits(
    store: Store,
    terms: list[str],
    match: str,
    book: str | None,
    limit: int,
    alternatives: expansion.Alternatives | None = None,
    vocab: Mapping[str, int] | None = None,
    settings: Settings = DEFAULT,
    snippets: Snippets | None = None,
) -> list[Hit]:
    """The bm25 candidates for ``match``, rescored for the query words ``terms``, best first (with
    ``snippets``, their snippets None, owed to it)."""
    alternatives = dict(alternatives or {})
    index = SearchIndex.of(store)
    rows = rule_rows(store, match, book, settings.candidates, settings)
    if snippets is not None:
        snippets.owe("rule", match, [(r.book, r.number, r.rowid, r.text, r.title) for r in rows])
    if not rows:
        return []
    snips = index.snippets("rule", match, [r.rowid for r in rows]) if snippets is None else {}
    query = [stem(t) for t in terms]
    idf = _idf(index, terms)
    if settings.associated_credit > 0 and book and vocab:
        rare = [t for t in terms if idf.get(t, 0.0) >= settings.associated_min_idf]
        for t, alts in expansion.associated(store, rare, book, vocab, settings).items():
            alternatives[stem(t)] = alternatives.get(stem(t), []) + alts
    weights = {s: idf.get(t, 1.0) for t, s in zip(terms, (stem(t) for t in terms))}
    total = sum(weights.values()) or 1.0
    keys = [(r.book, r.number) for r in rows]
    context = _context(index, rows)
    cited = index.citation_counts(keys)
    definitions = expansion.definitions(store, terms, book)
    named = {
        p: d for p, d in definitions.items() if max(idf.get(w, 0.0) for w in p.split()) >= settings.interaction_min_idf
    }  # "deathtouch", not "creature"
    related = expansion.interactions(store, named, keys, book, settings)
    typed: dict[str, str] = {}  # each stem, as the query typed it
    for t in terms:
        typed.setdefault(stem(t), t)
    hits = []
    words_of: dict[tuple[str, str], set[str]] = {}
    for r, key in zip(rows, keys):
        title, text, shown = rule_stems(r.stems)
        own = title + text
        have = set(own)
        spelt = f" {' '.join(own)}"  # " " + a query stem in it: a rule word begins with that stem
        words_of[key] = have - STOPWORDS
        around = context.get(key, set())
        seen_in = set().union(*shown) if shown else set()
        found: dict[str, tuple[float, str]] = {}  # stem -> (credit, where the rule has it)
        for s in weights:
            options = [_credit(s, have, spelt, around, seen_in, settings)]
            for alt, p, c in alternatives.get(s, ()):
                credit, where = _phrase_credit(p, have, around, seen_in, settings)
                options.append((c * credit, f"as {alt}" + ("" if where == "rule" else f" ({where})")))
            options.append((settings.interaction_credit if s in related.get(key, ()) else 0.0, "interaction"))
            found[s] = max(options, key=lambda o: o[0])
        coverage = sum(w * found[s][0] for s, w in weights.items()) / total
        score = r.score * coverage**settings.coverage_power
        close = max([_close_pairs(query, own, settings)] + [_close_pairs(query, e, settings) for e in shown])
        score *= (1 + settings.proximity_bonus) ** close
        score *= 1 + settings.cited_weight * math.log1p(cited.get(key, 0))
        defines = next((p for p, d in definitions.items() if any(key == k or expansion.under(key, k) for k in d)), None)
        if defines is not None:
            score *= settings.defines_factor
        if not r.text:
            score *= settings.heading_factor
        why = {
            "bm25": round(r.score, 3),
            "coverage": round(coverage, 3),
            "words": {typed[s]: where for s, (credit, where) in found.items() if credit > 0},
            "proximity": close,
            "cited": cited.get(key, 0),
            "definition": defines,
            "heading": not r.text,
        }
        snip = snippet(snips.get(r.rowid), r.text or "", r.title) if snippets is None else None
        hits.append(
            Hit("rule", r.book, r.number, r.title, snip, score, why={k: v for k, v in why.items() if v})
        )  # what Hit.because keeps, without a copy
    hits.sort(key=lambda h: -h.score)
    return _demote_repeats(hits, words_of, limit * 3, settings)[: limit * 3]


def _demote_repeats(
    hits: list[Hit], words_of: dict[tuple[str, str], set[str]], depth: int, settings: Settings
) -> list[Hit]:
    """Parallel rules (each Mode of Play's "Format: ... wins the Match") say the same thing: a rule whose
    words are nearly those of a rule ranked above it drops by ``repeat_factor``, so that the top of the
    list offers different answers. Only the first ``depth`` hits are compared."""
    seen: list[tuple[str, set[str], int]] = []
    out = []
    for i, h in enumerate(hits):
        own = words_of.get((h.book, h.id)) if i < depth else None
        like = _first_like(own, seen, settings.repeat_similarity) if own else None
        if like is not None:
            h = h.rescored(h.score * settings.repeat_factor, repeats=like)
        elif own:
            seen.append((h.id, own, len(own)))
        out.append(h)
    out.sort(key=lambda h: -h.score)
    return out


def _first_like(own: set[str], seen: list[tuple[str, set[str], int]], similarity: float) -> str | None:
    """The first rule of ``seen`` whose words overlap ``own`` (Jaccard: shared / all) at least ``similarity``.

    The union is not built (its size is the two sizes less the shared), and a rule whose size alone
    keeps the overlap under the bar (shared / all <= smaller / larger) is not intersected: the same
    comparisons of the same numbers, a hundred candidates against each other in 1 ms rather than 5.

    >>> _first_like({"a", "b", "c", "d"}, [("1", {"x"}, 1), ("2", {"a", "b", "c", "d", "e"}, 5)], 0.8)
    '2'
    """
    a = len(own)
    for key, words, b in seen:
        if (a / b if a < b else b / a) < similarity:
            continue
        shared = len(own & words)
        if shared / (a + b - shared) >= similarity:
            return key
    return None


def _credit(
    s: str, have: set[str], spelt: str, around: set[str], shown: set[str], settings: Settings
) -> tuple[float, str]:
    """How much of a query word a rule has, and where: the word ("rule": its title or text), a longer
    word it begins ("prefix": "react", "reaction"), the word only in the rule's examples ("example"),
    or only in the headings above ("headings"). ``spelt``: the rule's words, each after a space.

    >>> settings = Settings()
    >>> [_credit(s, {"reaction", "play"}, " reaction play", set(), set(), settings) for s in ("play", "react", "act")]
    [(1.0, 'rule'), (0.7, 'prefix'), (0.0, '')]
    """
    if s in have:
        return 1.0, "rule"
    if len(s) >= settings.prefix_min and f" {s}" in spelt:
        if s in shown and settings.example_credit > settings.prefix_credit:
            return settings.example_credit, "example"
        return settings.prefix_credit, "prefix"
    if s in shown:
        return settings.example_credit, "example"
    if s in around:
        return settings.context_credit, "headings"
    return 0.0, ""


def _phrase_credit(
    phrase: tuple[str, ...], have: set[str], around: set[str], shown: set[str], settings: Settings
) -> tuple[float, str]:
    """How much of an alternative (a word or phrase, by its stems) a rule has, and where."""
    if all(p in have for p in phrase):
        return 1.0, "rule"
    if all(p in have or p in shown for p in phrase):
        return settings.example_credit, "example"
    if all(p in have or p in around for p in phrase):
        return settings.context_credit, "headings"
    return 0.0, ""


def _close_pairs(query: list[str], own: list[str], settings: Settings) -> int:
    """How many adjacent pairs of query words stand within ``proximity_window`` words of each other."""
    if len(query) < 2:
        return 0
    asked = set(query)
    where: dict[str, list[int]] = {}  # the positions of the query's words (others are never looked up)
    for i, s in enumerate(own):
        if s in asked:
            where.setdefault(s, []).append(i)
    n = 0
    window = settings.proximity_window
    for a, b in zip(query, query[1:]):
        if any(abs(i - j) <= window for i in where.get(a, ()) for j in where.get(b, ())):
            n += 1
    return n


def _idf(index: SearchIndex, terms: list[str]) -> dict[str, float]:
    """ln(N / rules containing the word), from the FTS index (Porter-stemmed like the candidates).

    Counted over every book loaded: restricting the count to one book means a join that costs tens of
    milliseconds per word, and the books of a game share their vocabulary anyway."""
    total = max(index.rule_count(), 1)
    out = {}
    for t in terms:
        df = index.rule_frequency(fts_query([t]))
        out[t] = math.log((total + 1) / (df + 0.5))
    return out


def _context(index: SearchIndex, rows: list[RuleCandidate]) -> dict[tuple[str, str], set[str]]:
    """The stems of the headings above each rule and of its parent's text: where the rule sits."""
    parents = {(r.book, r.number): r.parent for r in rows}
    known: dict[tuple[str, str], RuleLink] = {}
    todo = {(b, p) for (b, _), p in parents.items() if p}
    while todo:
        found = index.rule_links(todo)
        for f in found:
            known[(f.book, f.number)] = f
        todo = {(f.book, f.parent) for f in found if f.parent} - set(known)
    titles: dict[tuple[str, str], set[str]] = {}  # each heading's stems, read once for all the rules under it
    texts: dict[tuple[str, str], set[str]] = {}
    out = {}
    for (b, number), parent in parents.items():
        words: set[str] = set()
        first = True
        while parent and (b, parent) in known:
            p = known[(b, parent)]
            if (b, parent) not in titles:
                title, text, _ = rule_stems(p.stems)
                titles[(b, parent)], texts[(b, parent)] = set(title), set(text)
            words.update(titles[(b, parent)])
            if first:
                words.update(texts[(b, parent)])
                first = False
            parent = p.parent
        out[(b, number)] = words
    return out
