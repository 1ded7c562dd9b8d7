"""Search over rules, glossary terms and rulings: FTS5 with bm25, typo correction with rapidfuzz.

Judges type questions (``who gets priority during a showdown``), misspell (``priorty``) and type rule
numbers (``312.2b``). :func:`search` handles all three.
"""

from __future__ import annotations

import json
import math
import re
from dataclasses import asdict, dataclass, field
from functools import cache, lru_cache
from pathlib import Path
from collections.abc import Callable
from typing import Any

from rulebook import numbers
from rulebook.model import ModelUnavailable
from rulebook.shipped import data_file
from rulebook.store import Store

HIGHLIGHT = ("**", "**")  # how snippets mark the words that matched (documented in docs/json.md)

STOPWORDS = frozenset("""
a about above after again against all am an and any are as at be because been before being below between
both but by can could did do does doing down during each few for from further had has have having he her
here hers herself him himself his how i if in into is it its itself just me more most my myself no nor not
now of off on once only or other our ours ourselves out over own same she should so some such than that
the their theirs them themselves then there these they this those through to too under until up very was
we were what when where which while who whom why will with would you your yours yourself yourselves
get gets got happen happens happened does doing can't cannot may might must shall let lets
work works need needs mean means come comes go goes exactly still also ever really able allowed supposed
know want wants say says tell many much don't doesn't didn't isn't aren't won't
""".split())
# Kept although common: words that carry rules meaning in both games.
STOPWORDS = STOPWORDS - {"first", "before", "after", "until", "each", "all", "no", "not", "more", "other",
                         "might", "own", "down", "up", "out", "off", "same", "once"}

# A heading ("311 Priority and Focus") names a topic but answers nothing: rank the rules under it first.
HEADING_FACTOR = 0.5
TITLE_WEIGHT = 4.0
EXAMPLES_WEIGHT = 0.5  # bm25 column weight of a rule's examples when picking the candidates

_WORD = re.compile(r"[A-Za-z][A-Za-z'’]*|\d+(?:\.\d+)*[a-z]?")


@dataclass(frozen=True)
class Hit:
    kind: str  # rule | term | ruling
    book: str
    id: str  # rule number, term, or ruling id
    title: str | None
    snippet: str
    score: float

    def to_json(self) -> dict[str, Any]:
        return asdict(self)


@dataclass(frozen=True)
class SearchResult:
    query: str
    corrected: str | None  # the query as corrected, when a word was misspelt
    hits: list[Hit] = field(default_factory=list)
    jumped: bool = False  # the query was a rule number
    ranking: str = "words"  # "words+meaning" when the sentence model ranked the rules too
    note: str | None = None  # why meaning was not used although asked for

    def to_json(self) -> dict[str, Any]:
        return {"query": self.query, "corrected": self.corrected, "ranking": self.ranking, "note": self.note,
                "hits": [h.to_json() for h in self.hits]}


def words(query: str) -> list[str]:
    return [w.lower().replace("’", "'") for w in _WORD.findall(query)]


def content_words(query: str) -> list[str]:
    """The words that matter for ranking: stop words out, unless nothing would be left."""
    all_words = [re.sub(r"'s$", "", w).rstrip("'") or w for w in words(query)]  # possessive 's only
    kept = [w for w in all_words if w not in STOPWORDS and (len(w) > 1 or w.isdigit())]
    return kept or all_words


def correct(query: str, vocabulary: dict[str, int], known: Callable[[str], bool] | None = None) -> tuple[str, bool]:
    """Replace words the books never use with their closest word that they do use.

    ``known(word)``: whether the books' index already matches the word in another form (FTS5 is
    Porter-stemmed: "decide" matches "decided"); such a word is correct and is kept.

    >>> correct("priorty passes", {"priority": 40, "passes": 9, "party": 1})
    ('priority passes', True)
    >>> correct("decide who", {"decided": 3}, known=lambda w: w == "decide")
    ('decide who', False)
    """
    from rapidfuzz import fuzz, process

    out, changed = [], False
    for token in re.split(r"(\s+)", query):
        word = token.lower()
        if len(word) < 4 or not word.isalpha() or word in vocabulary or word in STOPWORDS or (known and known(word)):
            out.append(token)
            continue
        candidates = [w for w in vocabulary if abs(len(w) - len(word)) <= 2]
        best = process.extractOne(word, candidates, scorer=fuzz.ratio, score_cutoff=75)
        if best is None:
            out.append(token)
            continue
        # Among equally close words, the one the books use most.
        ties = process.extract(word, candidates, scorer=fuzz.ratio, score_cutoff=best[1] - 1e-6, limit=10) or [best]
        choice = max(ties, key=lambda t: (round(t[1], 6), vocabulary.get(t[0], 0)))[0]
        out.append(choice)
        changed = True
    return "".join(out), changed


def _index_matches(store: Store, word: str, book: str | None) -> bool:
    """Whether the book's FTS index (Porter-stemmed) matches the word in any form: the typo corrector
    leaves such a word alone ("decide" matches "decided"; "priorty" matches nothing)."""
    for table, owner in (("rules", "rules_fts"), ("terms", "terms_fts")):
        sql = (f"SELECT 1 FROM {owner} JOIN {table} ON {table}.rowid = {owner}.rowid WHERE {owner} MATCH ?"
               + (f" AND {table}.book = ?" if book else "") + " LIMIT 1")
        if store.query(sql, [_fts_query([word])] + ([book] if book else [])):
            return True
    return False


@cache
def _porter_table():
    """An in-memory FTS5 table with the books' tokenizer, to read the Porter stem SQLite gives a word."""
    import sqlite3

    from rulebook.store import TOKENIZE

    db = sqlite3.connect(":memory:", check_same_thread=False)
    db.execute(f"CREATE VIRTUAL TABLE p USING fts5(w, tokenize='{TOKENIZE}')")
    db.execute("CREATE VIRTUAL TABLE pv USING fts5vocab(p, 'instance')")
    return db


def porter(words: list[str]) -> dict[str, str]:
    """The index's (Porter) stem of each word, as FTS5 computes it.

    >>> sorted(porter(["vigilence", "vigilance", "decide"]).items())
    [('decide', 'decid'), ('vigilance', 'vigil'), ('vigilence', 'vigil')]
    """
    db = _porter_table()
    with db:
        db.executemany("INSERT INTO p(rowid, w) VALUES (?, ?)", list(enumerate(words, 1)))
        found = {words[doc - 1]: term for term, doc in db.execute("SELECT term, doc FROM pv")}
        db.execute("DELETE FROM p")
    return found


def book_forms(terms: list[str], vocabulary: dict[str, int]) -> list[str]:
    """Each word the books never use as typed but their index matches (Porter: "vigilence" and
    "vigilance" are both "vigil") in the form the books use, for the rescoring, whose own light stemmer
    would not see them as one word. Other words are kept.

    >>> book_forms(["vigilence", "creature"], {"vigilance": 5, "vigil": 1, "creature": 90})
    ['vigilance', 'creature']
    """
    odd = [t for t in terms if t.isalpha() and len(t) >= 4 and t not in vocabulary]
    if not odd:
        return terms
    from rapidfuzz import fuzz

    near = {t: [w for w in vocabulary if w[:3] == t[:3] and abs(len(w) - len(t)) <= 3 and w != t] for t in odd}
    stems = porter(sorted(set(odd) | {w for ws in near.values() for w in ws}))
    out = []
    for t in terms:
        same = [w for w in near.get(t, ()) if stems.get(w) == stems.get(t)]
        out.append(max(same, key=lambda w: (fuzz.ratio(t, w), vocabulary[w])) if same else t)
    return out


def _fts_query(terms: list[str]) -> str:
    return " OR ".join('"' + t.replace('"', '""') + '"' for t in terms)


def _rule_rows(store: Store, match: str, book: str | None, limit: int) -> list[dict[str, Any]]:
    sql = f"""
        SELECT rules.book, rules.number, rules.parent, rules.title,
               snippet(rules_fts, 2, '{HIGHLIGHT[0]}', '{HIGHLIGHT[1]}', '…', 16) AS snip,
               rules.text AS text, rules.examples AS examples,
               -bm25(rules_fts, 0.0, {TITLE_WEIGHT}, 1.0, {EXAMPLES_WEIGHT}) AS score
        FROM rules_fts JOIN rules ON rules.rowid = rules_fts.rowid
        WHERE rules_fts MATCH ? {"AND rules.book = ?" if book else ""}
        ORDER BY bm25(rules_fts, 0.0, {TITLE_WEIGHT}, 1.0, {EXAMPLES_WEIGHT}) LIMIT ?"""
    params: list[Any] = [match] + ([book] if book else []) + [limit]
    return store.query(sql, params)


def _term_hits(store: Store, match: str, book: str | None, limit: int) -> list[Hit]:
    sql = f"""
        SELECT terms.book, terms.term, snippet(terms_fts, 1, '{HIGHLIGHT[0]}', '{HIGHLIGHT[1]}', '…', 16) AS snip,
               terms.definition AS text, -bm25(terms_fts, 6.0, 1.0) AS score
        FROM terms_fts JOIN terms ON terms.rowid = terms_fts.rowid
        WHERE terms_fts MATCH ? {"AND terms.book = ?" if book else ""}
        ORDER BY bm25(terms_fts, 6.0, 1.0) LIMIT ?"""
    params: list[Any] = [match] + ([book] if book else []) + [limit]
    return [Hit("term", r["book"], r["term"], r["term"], _snippet(r["snip"], r["text"], None), r["score"])
            for r in store.query(sql, params)]


def _ruling_hits(store: Store, match: str, book: str | None, limit: int) -> list[Hit]:
    sql = f"""
        SELECT rulings.book, rulings.id, rulings.question,
               snippet(rulings_fts, -1, '{HIGHLIGHT[0]}', '{HIGHLIGHT[1]}', '…', 16) AS snip,
               rulings.answer AS text, -bm25(rulings_fts, 0.5, 2.0, 1.0) AS score
        FROM rulings_fts JOIN rulings ON rulings.rowid = rulings_fts.rowid
        WHERE rulings_fts MATCH ? {"AND rulings.book = ?" if book else ""}
        ORDER BY bm25(rulings_fts, 0.5, 2.0, 1.0) LIMIT ?"""
    params: list[Any] = [match] + ([book] if book else []) + [limit]
    return [Hit("ruling", r["book"], r["id"], r["question"], _snippet(r["snip"], r["text"], None), r["score"])
            for r in store.query(sql, params)]


def _snippet(snip: str | None, text: str, title: str | None) -> str:
    snip = (snip or "").strip()
    if not snip or HIGHLIGHT[0] not in snip:
        snip = snip or (text or title or "")[:160]
    return " ".join(snip.split())


def search(store: Store, query: str, book: str | None = None, limit: int = 10,
           kinds: tuple[str, ...] = ("rule", "term", "ruling"), correct_typos: bool = True,
           meaning: bool = True) -> SearchResult:
    """Ranked hits for ``query``; a rule number jumps straight to that rule.

    Rules are ranked by their words (below) and, with ``meaning``, also by the sentence model
    (:mod:`rulebook.vectors`); the two rankings are fused. Without the model, words alone, and
    ``note`` says why.
    """
    query = query.strip()
    if numbers.looks_like_number(query) and "rule" in kinds:
        found = store.find_rule(query, book)
        if found:
            hits = [Hit("rule", r.book, r.number, r.rule.title, (r.rule.text or r.rule.title or "")[:200], 1.0)
                    for r in found]
            return SearchResult(query, None, hits[:limit], jumped=True)
    corrected = None
    effective = query
    vocab = store.vocabulary(book) if correct_typos or "rule" in kinds else {}
    if correct_typos:
        fixed, changed = correct(query, vocab, lambda w: _index_matches(store, w, book))
        if changed:
            corrected = effective = fixed
    terms = book_forms(content_words(effective), vocab) if vocab else content_words(effective)
    if not terms:
        return SearchResult(query, corrected, [])
    hits: list[Hit] = []
    ranking, note = "words", None
    if "rule" in kinds:
        lexical = _word_ranked(store, terms, book, max(limit, FUSION_DEPTH // 3 + 1), vocab)
        if meaning:
            try:
                lexical = fuse(store, effective, book, lexical)
                ranking = "words+meaning"
            except ModelUnavailable as exc:
                note = f"ranked by words alone: {exc}"
        hits += lexical[:limit * 3]
    if "term" in kinds:
        hits += _term_hits(store, _fts_query(terms), book, limit * 3)
    if "ruling" in kinds:
        hits += _ruling_hits(store, _fts_query(terms), book, limit * 3)
    hits.sort(key=lambda h: -h.score)
    return SearchResult(query, corrected, hits[:limit], ranking=ranking, note=note)


def _word_ranked(store: Store, terms: list[str], book: str | None, limit: int, vocab: dict[str, int]) -> list[Hit]:
    alternatives = expansions(terms, _games(store, book), vocab)
    extra = sorted({w for alts in alternatives.values() for w, _, _ in alts} - set(terms))
    if extra:  # a form the index already reads as a query word ("leave" for "leaves") would count twice
        same = porter(terms + extra)
        typed = {same.get(t) for t in terms}
        extra = [w for w in extra if " " in w or "-" in w or same.get(w) not in typed]
    return _ranked_rule_hits(store, terms, _fts_query(terms + extra), book, limit, alternatives, vocab)


# Fusing the two rankings -------------------------------------------------------------------------
# Reciprocal rank fusion: a rule scores the sum over both lists of 1 / (FUSION_K + its rank there).
# Ranks, not scores, because bm25 products and cosines have nothing in common; a small K lets a rule
# that one list puts first win over one both lists put fifth.
FUSION_DEPTH = 100  # rules taken from each list
FUSION_K = 10
MEANING_WEIGHT = 1.5  # the sentence model's list counts this much against the words' (more since the question adapter)
MEANING_ONLY_COSINE = 0.40  # a rule no word matched needs this cosine: 95% of answers reach it on our
# question set; nonsense ("xylophonequartz", "banana smoothie recipe") stays below 0.4


def fuse(store: Store, query: str, book: str | None, lexical: list[Hit]) -> list[Hit]:
    """The word-ranked rule hits and the sentence model's nearest rules, fused, best first.

    Scores keep the word ranker's scale (the n-th fused hit gets the n-th best word score), so rules
    still sort sensibly among terms and rulings.
    """
    try:
        from rulebook import semantic, vectors
    except ImportError as exc:
        raise ModelUnavailable(f"NumPy is not installed ({exc})") from exc
    encoder = semantic.Encoder.load()
    out: list[Hit] = []
    for b in [book] if book else store.book_ids():
        words_list = [h for h in lexical if h.book == b][:FUSION_DEPTH]
        near = vectors.nearest(store, b, query, FUSION_DEPTH, encoder)
        score: dict[str, float] = {}
        for rank, h in enumerate(words_list, 1):
            score[h.id] = score.get(h.id, 0.0) + 1 / (FUSION_K + rank)
        for rank, (number, cosine) in enumerate(near, 1):
            if number in score or cosine >= MEANING_ONLY_COSINE:
                score[number] = score.get(number, 0.0) + MEANING_WEIGHT / (FUSION_K + rank)
        order = sorted(score, key=lambda n: -score[n])
        scale = sorted((h.score for h in words_list), reverse=True)
        cosine = dict(near)
        found = {h.id: h for h in words_list}
        for i, number in enumerate(order):
            if i < len(scale):
                value = scale[i]
            elif scale:
                value = scale[-1] * 0.99 ** (i - len(scale) + 1)
            else:
                value = max(cosine.get(number, 0.0), 0.0)
            hit = found.get(number) or _rule_hit(store, b, number)
            out.append(Hit(hit.kind, hit.book, hit.id, hit.title, hit.snippet, value))
    out.sort(key=lambda h: -h.score)
    return out


def _rule_hit(store: Store, book: str, number: str) -> Hit:
    rule = store.rule(book, number)
    return Hit("rule", book, number, rule.title, " ".join((rule.text or rule.title or "")[:160].split()), 0.0)


# Ranking rules for a question -------------------------------------------------------------------
# bm25 (title weighted) picks the candidates; each is then rescored on what bm25 cannot see. All the
# signals multiply the bm25 score:
CANDIDATES = 100  # bm25 candidates rescored per book
COVERAGE_POWER = 1.0  # x coverage ** power: the idf-weighted share of the query's words the rule has
CONTEXT_CREDIT = 0.6  # a word found only in the headings above the rule (or its parent's text) counts this much
PREFIX_CREDIT = 0.7  # ... and a rule word the query word begins ("react" in "reaction") this much
PREFIX_MIN = 4
PROXIMITY_BONUS = 0.25  # x (1 + bonus) per adjacent pair of query words found close together in the rule
PROXIMITY_WINDOW = 3  # "close": at most this many words apart, either order
CITED_WEIGHT = 0.1  # x (1 + weight * ln(1 + number of references to the rule)): the graph's in-degree
EXAMPLE_CREDIT = 0.7  # a query word found only in the rule's examples (the situation a judge describes)
DEFINES_FACTOR = 2.0  # the rule that defines a term the query names (Riftbound: derived terms; MTG: the
# glossary entry's "See rule ..."), and its sub-rules

REPEAT_SIMILARITY = 0.8  # Jaccard of the rule's word stems with a rule ranked above it ...
REPEAT_FACTOR = 0.5  # ... above which its score is multiplied by this

_SUFFIXES = ("ing", "ed")


@lru_cache(maxsize=65536)
def stem(word: str) -> str:
    """A light stemmer, applied alike to the question and the rules: plurals, -ed, -ing, a final e or y.

    >>> [stem(w) for w in ("passes", "passed", "priorities", "damaged", "creatures", "killed", "stopped")]
    ['pass', 'pass', 'prioriti', 'damag', 'creatur', 'kill', 'stop']
    """
    w = word.lower().replace("’", "'")
    if w.endswith("'s"):
        w = w[:-2]
    w = w.rstrip("'")
    w = _irregular().get(w, w)
    if len(w) <= 3:
        return w
    if w.endswith("ies") and len(w) > 4:
        w = w[:-3] + "y"
    elif w.endswith("sses"):
        w = w[:-2]
    elif w.endswith("s") and not w.endswith(("ss", "us", "is")):
        w = w[:-1]
    for suffix in _SUFFIXES:
        rest = w[: -len(suffix)]
        if w.endswith(suffix) and len(rest) >= 3 and any(c in "aeiouy" for c in rest):
            w = rest
            if len(w) > 3 and w[-1] == w[-2] and w[-1] not in "lsz":
                w = w[:-1]
            break
    if len(w) > 3 and w[-1] == "y":
        w = w[:-1] + "i"
    if len(w) > 3 and w[-1] == "e":
        w = w[:-1]
    return w


def _stems(text: str | None) -> list[str]:
    return [stem(w) for w in _TEXT_WORD.findall((text or "").lower())]


_TEXT_WORD = re.compile(r"[a-z][a-z'’]*|\d+")


def _ranked_rule_hits(store: Store, terms: list[str], match: str, book: str | None, limit: int,
                      alternatives: dict[str, list[tuple[str, tuple[str, ...], float]]] | None = None,
                      vocab: dict[str, int] | None = None) -> list[Hit]:
    alternatives = dict(alternatives or {})
    rows = _rule_rows(store, match, book, CANDIDATES)
    if not rows:
        return []
    query = [stem(t) for t in terms]
    idf = _idf(store, terms)
    if ASSOCIATED_CREDIT > 0 and book and vocab:
        rare = [t for t in terms if idf.get(t, 0.0) >= ASSOCIATED_MIN_IDF]
        for t, alts in associated(store, rare, book, vocab).items():
            alternatives[stem(t)] = alternatives.get(stem(t), []) + alts
    weights = {s: idf.get(t, 1.0) for t, s in zip(terms, (stem(t) for t in terms))}
    total = sum(weights.values()) or 1.0
    keys = [(r["book"], r["number"]) for r in rows]
    context = _context(store, rows)
    cited = _in_degree(store, keys)
    definitions = _definitions(store, terms, book)
    defining = set().union(*definitions.values()) if definitions else set()
    named = {p: d for p, d in definitions.items()
             if max(idf.get(w, 0.0) for w in p.split()) >= INTERACTION_MIN_IDF}  # "deathtouch", not "creature"
    related = _interactions(store, named, keys, book)
    hits = []
    words_of: dict[tuple[str, str], set[str]] = {}
    for r, key in zip(rows, keys):
        own = _stems(r["title"]) + _stems(r["text"])
        have = set(own)
        words_of[key] = have - STOPWORDS
        around = context.get(key, set())
        shown = [_stems(e) for e in _examples(r["examples"])]
        seen_in = set().union(*shown) if shown else set()
        coverage = sum(w * max([_credit(s, have, around, seen_in)]
                               + [c * _phrase_credit(p, have, around, seen_in) for _, p, c in alternatives.get(s, ())]
                               + [INTERACTION_CREDIT if s in related.get(key, ()) else 0.0])
                       for s, w in weights.items()) / total
        score = r["score"] * coverage ** COVERAGE_POWER
        score *= (1 + PROXIMITY_BONUS) ** max([_close_pairs(query, own)] + [_close_pairs(query, e) for e in shown])
        score *= 1 + CITED_WEIGHT * math.log1p(cited.get(key, 0))
        if any(key == d or _under(key, d) for d in defining):
            score *= DEFINES_FACTOR
        if not r["text"]:
            score *= HEADING_FACTOR
        hits.append(Hit("rule", r["book"], r["number"], r["title"], _snippet(r["snip"], r["text"], r["title"]),
                        score))
    hits.sort(key=lambda h: -h.score)
    return _demote_repeats(hits, words_of, limit * 3)[: limit * 3]


# A distributional thesaurus from the book's own text (see associated): only in the rescoring; joining
# its words to the candidates' query cost 14 of 110 questions.
ASSOCIATED_CREDIT = 0.4  # a word the book uses mostly together with the query word
ASSOCIATED_TERMS = 8  # ... this many per query word
ASSOCIATED_DOCS = 60  # ... read from the query word's first rules by bm25
ASSOCIATED_MIN_DOCS = 3  # ... found in at least this many of them
ASSOCIATED_MIN_IDF = 3.0  # ... only for query words at least this rare (idf as for coverage): the
# associates of common words are generic, and reading their rules costs time


_STEM_COUNTS: dict[int, tuple[dict[str, int], dict[str, int], int]] = {}


def _stem_counts(vocab: dict[str, int]) -> tuple[dict[str, int], int]:
    """The book's word counts by light stem (cached for the vocabulary object, kept alive with it)."""
    cached = _STEM_COUNTS.get(id(vocab))
    if cached is not None and cached[0] is vocab:
        return cached[1], cached[2]
    counts: dict[str, int] = {}
    for w, n in vocab.items():
        st = stem(w)
        counts[st] = counts.get(st, 0) + n
    _STEM_COUNTS.clear()
    _STEM_COUNTS[id(vocab)] = (vocab, counts, sum(counts.values()) or 1)
    return counts, sum(counts.values()) or 1


def associated(store: Store, terms: list[str], book: str, vocab: dict[str, int]
               ) -> dict[str, list[tuple[str, tuple[str, ...], float]]]:
    """A distributional thesaurus from the book's own text, for the words judges use and the rules do
    not: for each query word, the words over-represented (pointwise mutual information against the
    book's word frequencies) in the rules that use it, found in several of them. Those words stand in
    for the query word at ASSOCIATED_CREDIT where a rule lacks it."""
    counts, total = _stem_counts(vocab)
    qstems = {stem(t) for t in terms}
    out: dict[str, list[tuple[str, tuple[str, ...], float]]] = {}
    for t in terms:
        rows = store.query(
            "SELECT rules.title AS title, rules.text AS text FROM rules_fts JOIN rules ON rules.rowid = rules_fts.rowid "
            "WHERE rules_fts MATCH ? AND rules.book = ? ORDER BY bm25(rules_fts) LIMIT ?",
            [_fts_query([t]), book, ASSOCIATED_DOCS])
        if len(rows) < ASSOCIATED_MIN_DOCS:
            continue
        tf: dict[str, int] = {}
        docs: dict[str, int] = {}
        n_tokens = 0
        for r in rows:
            bag = [w for w in _stems(r["title"]) + _stems(r["text"]) if w not in STOPWORDS and len(w) > 2
                   and not w.isdigit()]
            n_tokens += len(bag)
            for w in bag:
                tf[w] = tf.get(w, 0) + 1
            for w in set(bag):
                docs[w] = docs.get(w, 0) + 1
        scored = []
        for w, n in tf.items():
            if w in qstems or docs[w] < ASSOCIATED_MIN_DOCS or w not in counts:
                continue
            pmi = math.log((n / max(n_tokens, 1)) / (counts[w] / total))
            if pmi > 0:
                scored.append((docs[w] / len(rows) * pmi, w))
        scored.sort(reverse=True)
        out[t] = [(w, (w,), ASSOCIATED_CREDIT) for _, w in scored[:ASSOCIATED_TERMS]]
    return out


def _demote_repeats(hits: list[Hit], words_of: dict[tuple[str, str], set[str]], depth: int) -> list[Hit]:
    """Parallel rules (each Mode of Play's "Format: ... wins the Match") say the same thing: a rule whose
    words are nearly those of a rule ranked above it drops by REPEAT_FACTOR, so that the top of the list
    offers different answers. Only the first ``depth`` hits are compared."""
    seen: list[set[str]] = []
    out = []
    for i, h in enumerate(hits):
        own = words_of.get((h.book, h.id)) if i < depth else None
        if own and any(len(own & s) / len(own | s) >= REPEAT_SIMILARITY for s in seen):
            h = Hit(h.kind, h.book, h.id, h.title, h.snippet, h.score * REPEAT_FACTOR)
        elif own:
            seen.append(own)
        out.append(h)
    out.sort(key=lambda h: -h.score)
    return out


def _credit(s: str, have: set[str], around: set[str], shown: set[str] = frozenset()) -> float:
    """How much of a query word a rule has: the word, a longer word it begins ("react", "reaction"),
    the word only in the rule's examples, or only in the headings above."""
    if s in have:
        return 1.0
    if len(s) >= PREFIX_MIN and any(w.startswith(s) for w in have):
        return max(PREFIX_CREDIT, EXAMPLE_CREDIT if s in shown else 0.0)
    if s in shown:
        return EXAMPLE_CREDIT
    if s in around:
        return CONTEXT_CREDIT
    return 0.0


def _examples(raw: str | None) -> list[str]:
    """A rule's examples, stored as a JSON list."""
    if not raw:
        return []
    try:
        found = json.loads(raw)
    except ValueError:
        return [raw]
    return [str(e) for e in found] if isinstance(found, list) else [str(found)]


def _under(key: tuple[str, str], ancestor: tuple[str, str]) -> bool:
    (book, number), (abook, anumber) = key, ancestor
    return book == abook and number.startswith(anumber) and re.match(r"[.a-z]", number[len(anumber):] or "0") is not None


def _close_pairs(query: list[str], own: list[str]) -> int:
    """How many adjacent pairs of query words stand within PROXIMITY_WINDOW words of each other."""
    if len(query) < 2:
        return 0
    where: dict[str, list[int]] = {}
    for i, s in enumerate(own):
        where.setdefault(s, []).append(i)
    n = 0
    for a, b in zip(query, query[1:]):
        if any(abs(i - j) <= PROXIMITY_WINDOW for i in where.get(a, ()) for j in where.get(b, ())):
            n += 1
    return n


def _idf(store: Store, terms: list[str]) -> dict[str, float]:
    """ln(N / rules containing the word), from the FTS index (Porter-stemmed like the candidates).

    Counted over every book loaded: restricting the count to one book means a join that costs tens of
    milliseconds per word, and the books of a game share their vocabulary anyway."""
    total = max(store.query("SELECT count(*) AS n FROM rules")[0]["n"], 1)
    out = {}
    for t in terms:
        df = store.query("SELECT count(*) AS n FROM rules_fts WHERE rules_fts MATCH ?", [_fts_query([t])])[0]["n"]
        out[t] = math.log((total + 1) / (df + 0.5))
    return out


def _context(store: Store, rows: list[dict[str, Any]]) -> dict[tuple[str, str], set[str]]:
    """The stems of the headings above each rule and of its parent's text: where the rule sits."""
    parents = {(r["book"], r["number"]): r["parent"] for r in rows}
    known: dict[tuple[str, str], dict[str, Any]] = {}
    todo = {(b, p) for (b, _), p in parents.items() if p}
    while todo:
        marks = ",".join("(?, ?)" for _ in todo)
        found = store.query(f"SELECT book, number, parent, title, text FROM rules WHERE (book, number) IN (VALUES {marks})",
                            [x for pair in todo for x in pair])
        for f in found:
            known[(f["book"], f["number"])] = f
        todo = {(f["book"], f["parent"]) for f in found if f["parent"]} - set(known)
    out = {}
    for (b, number), parent in parents.items():
        words: set[str] = set()
        first = True
        while parent and (b, parent) in known:
            p = known[(b, parent)]
            words.update(_stems(p["title"]))
            if first:
                words.update(_stems(p["text"]))
                first = False
            parent = p["parent"]
        out[(b, number)] = words
    return out


def _in_degree(store: Store, keys: list[tuple[str, str]]) -> dict[tuple[str, str], int]:
    """How many references (from rules, glossary entries and rulings) point at each rule."""
    if not keys:
        return {}
    marks = ",".join("(?, ?)" for _ in keys)
    rows = store.query(f"SELECT book, target, count(*) AS n FROM refs WHERE target_kind = 'rule' AND "
                       f"(book, target) IN (VALUES {marks}) GROUP BY book, target", [x for k in keys for x in k])
    return {(r["book"], r["target"]): r["n"] for r in rows}


INTERACTION_CREDIT = 0.5  # a query word whose term the rule does not name but whose definition's terms it uses
INTERACTION_MIN_IDF = 4.0  # ... between terms rare enough to be the question's subject (idf as above)
INTERACTION_MAX_USES = 40  # ... counting only terms that few rules use (not "creature", "player")


def _interactions(store: Store, by_word: dict[str, set[tuple[str, str]]], keys: list[tuple[str, str]],
                  book: str | None) -> dict[tuple[str, str], set[str]]:
    """Questions about two terms together ("deathtouch and trample"): a rule under one term's definition
    that uses a specific term of the other's definition (702.2c, under deathtouch, speaks of the lethal and
    excess damage that trample's 702.19b is about) is credited with the other term's word.

    ``by_word``: the query's words and pairs of words that name a term, with the rules defining it.
    Returns, for each candidate rule, the stems of the query words it is so credited with."""
    if len(by_word) < 2 or not keys:
        return {}
    books = {b for defs in by_word.values() for b, _ in defs}
    uses_of: dict[tuple[str, str], set[str]] = {}
    for b in books:
        prefixes = sorted({n for defs in by_word.values() for bb, n in defs if bb == b})
        where = " OR ".join("rule = ? OR rule LIKE ?" for _ in prefixes)
        params = [b] + [x for n in prefixes for x in (n, n + "%")]
        for r in store.query(f"SELECT rule, lower(term) AS term FROM uses WHERE book = ? AND ({where})", params):
            uses_of.setdefault((b, r["rule"]), set()).add(r["term"])
    marks = ",".join("(?, ?)" for _ in keys)
    for r in store.query(f"SELECT book, rule, lower(term) AS term FROM uses WHERE (book, rule) IN (VALUES {marks})",
                         [x for k in keys for x in k]):
        uses_of.setdefault((r["book"], r["rule"]), set()).add(r["term"])
    named = set(by_word)

    def inside(key: tuple[str, str], defs: set[tuple[str, str]]) -> bool:
        return any(key == d or _under(key, d) for d in defs)

    vocab_of = {t: set().union(*(u for k, u in uses_of.items() if inside(k, d))) - named for t, d in by_word.items()}
    common = set().union(*vocab_of.values())
    if common:
        marks = ",".join("?" * len(common))
        counts = {r["term"]: r["n"] for r in store.query(
            f"SELECT lower(term) AS term, count(*) AS n FROM uses WHERE lower(term) IN ({marks})"
            + (" AND book = ?" if book else "") + " GROUP BY lower(term)", list(common) + ([book] if book else []))}
        vocab_of = {t: {u for u in v if counts.get(u, 0) <= INTERACTION_MAX_USES} for t, v in vocab_of.items()}
    out: dict[tuple[str, str], set[str]] = {}
    for key in keys:
        for a, da in by_word.items():
            if not inside(key, da):
                continue
            for b, db in by_word.items():
                if b != a and not inside(key, db) and uses_of.get(key, set()) & vocab_of[b]:
                    out.setdefault(key, set()).update(_phrase_stems(b))
    return out


def _definitions(store: Store, terms: list[str], book: str | None) -> dict[str, set[tuple[str, str]]]:
    """Rules that define a term the query names (a Riftbound term's rule, an MTG glossary entry's "See
    rule"), by the query word or pair of words naming it."""
    phrases = {p: p for p in set(terms) | {f"{a} {b}" for a, b in zip(terms, terms[1:])}}
    phrases |= {p[:-1]: p for p in phrases if p.endswith("s") and len(p) > 3}
    if not phrases:
        return {}
    marks = ",".join("?" * len(phrases))
    in_book = " AND book = ?" if book else ""
    params = list(phrases) + ([book] if book else [])
    out: dict[str, set[tuple[str, str]]] = {}
    for r in store.query(f"SELECT book, derived_from AS rule, lower(term) AS term FROM terms WHERE derived_from IS NOT "
                         f"NULL AND lower(term) IN ({marks}){in_book}", params):
        out.setdefault(phrases[r["term"]], set()).add((r["book"], r["rule"]))
    for r in store.query(f"SELECT book, target AS rule, lower(from_id) AS term FROM refs WHERE from_kind = 'term' AND "
                         f"target_kind = 'rule' AND lower(from_id) IN ({marks}){in_book}", params):
        out.setdefault(phrases[r["term"]], set()).add((r["book"], r["rule"]))
    return out


def _defining(store: Store, terms: list[str], book: str | None) -> set[tuple[str, str]]:
    """Rules that define a term the query names: a Riftbound term's rule, an MTG glossary entry's "See rule"."""
    return set().union(*_definitions(store, terms, book).values())


# Search vocabulary ------------------------------------------------------------------------------
# data/search-synonyms.yaml: the judges' words for what the rules call otherwise (see that file and
# docs/decisions.md, "Search vocabulary"). A question's word is credited, at a lower weight, for an
# equivalent in the rule; the equivalents also join the bm25 candidates' query.
SYNONYM_CREDIT = 0.6  # a group's other word, instead of the word typed
BROADER_CREDIT = 0.5  # what the word is an instance of ("trash" -> "non-board zone")
UN_CREDIT = 0.7  # "un" + the word ("spend" / "unspent", "block" / "unblocked")
UN_MIN = 4  # shortest word after "un"
SYNONYMS_FILE = "search-synonyms.yaml"


@cache
def vocabulary_table(path: str | None = None) -> dict[str, Any]:
    """The search vocabulary: ``{"irregular": {form: base}, "groups": [{games, words, rules, broader}]}``;
    empty when the file is absent."""
    import yaml

    file = Path(path) if path else data_file(SYNONYMS_FILE)
    if not file.is_file():
        return {"irregular": {}, "groups": []}
    data = yaml.safe_load(file.read_text(encoding="utf-8")) or {}
    return {"irregular": {str(k).lower(): str(v).lower() for k, v in (data.get("irregular") or {}).items()},
            "groups": [{"games": set(g.get("games") or ()), "words": [str(w).lower() for w in g.get("words") or ()],
                        "rules": [str(w).lower() for w in g.get("rules") or ()],
                        "broader": [str(w).lower() for w in g.get("broader") or ()]}
                       for g in data.get("groups") or ()]}


@cache
def _irregular() -> dict[str, str]:
    return vocabulary_table()["irregular"]


def _games(store: Store, book: str | None) -> set[str] | None:
    """The game of the book searched; None (every game) without a book."""
    if not book:
        return None
    found = store.book(book)
    return {found.game} if found else None


def _phrase_stems(phrase: str) -> tuple[str, ...]:
    return tuple(stem(w) for w in _TEXT_WORD.findall(phrase.lower()))


def expansions(terms: list[str], games: set[str] | None, vocab: dict[str, int] | None = None
               ) -> dict[str, list[tuple[str, tuple[str, ...], float]]]:
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
    out: dict[str, list[tuple[str, tuple[str, ...], float]]] = {}
    stems = [stem(t) for t in terms]
    phrases = {(s,): s for s in stems} | {(a, b): b for a, b in zip(stems, stems[1:])}
    for t, s in zip(terms, stems):
        alts = out.setdefault(s, [])
        for f in sorted(forms.get(s, set()) - {t}):
            alts.append((f, (s,), 1.0))
        for f in sorted(forms.get(s, set()) | {t}):
            if len(f) >= UN_MIN and "un" + f in vocab:
                alts.append(("un" + f, (stem("un" + f),), UN_CREDIT))
    for group in table["groups"]:
        if games is not None and not (group["games"] & games):
            continue
        members = {_phrase_stems(w): w for w in group["words"]}
        for phrase, s in phrases.items():
            if phrase not in members:
                continue
            alts = out.setdefault(s, [])
            alts += [(w, p, SYNONYM_CREDIT) for p, w in members.items() if p != phrase]
            alts += [(w, _phrase_stems(w), SYNONYM_CREDIT) for w in group["rules"]]
            alts += [(w, _phrase_stems(w), BROADER_CREDIT) for w in group["broader"]]
    return {s: alts for s, alts in out.items() if alts}


def _phrase_credit(phrase: tuple[str, ...], have: set[str], around: set[str], shown: set[str] = frozenset()) -> float:
    if all(p in have for p in phrase):
        return 1.0
    if all(p in have or p in shown for p in phrase):
        return EXAMPLE_CREDIT
    if all(p in have or p in around for p in phrase):
        return CONTEXT_CREDIT
    return 0.0


def baseline_search(store: Store, query: str, book: str | None = None, limit: int = 10) -> list[Hit]:
    """Plain FTS5 bm25 over the rules, every word of the query ORed, default column weights: the
    yardstick bench/search_quality.py measures :func:`search` against."""
    terms = words(query)
    if not terms:
        return []
    sql = f"""
        SELECT rules.book, rules.number, rules.title, rules.text, -bm25(rules_fts) AS score
        FROM rules_fts JOIN rules ON rules.rowid = rules_fts.rowid
        WHERE rules_fts MATCH ? {"AND rules.book = ?" if book else ""}
        ORDER BY bm25(rules_fts) LIMIT ?"""
    params: list[Any] = [_fts_query(terms)] + ([book] if book else []) + [limit]
    return [Hit("rule", r["book"], r["number"], r["title"], (r["text"] or r["title"] or "")[:160], r["score"])
            for r in store.query(sql, params)]
