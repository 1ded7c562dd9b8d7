"""Search over rules, glossary terms and rulings: FTS5 with bm25, typo correction with rapidfuzz.

Judges type questions (``who gets priority during a showdown``), misspell (``priorty``) and type rule
numbers (``312.2b``). :func:`search` handles all three.
"""

from __future__ import annotations

import re
from dataclasses import asdict, dataclass, field
from typing import Any

from rulebook import numbers
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
""".split())
# Kept although common: words that carry rules meaning in both games.
STOPWORDS = STOPWORDS - {"first", "before", "after", "until", "each", "all", "no", "not", "more", "other",
                         "might", "own", "down", "up", "out", "off", "same", "once"}

# A heading ("311 Priority and Focus") names a topic but answers nothing: rank the rules under it first.
HEADING_FACTOR = 0.5

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

    def to_json(self) -> dict[str, Any]:
        return {"query": self.query, "corrected": self.corrected, "hits": [h.to_json() for h in self.hits]}


def words(query: str) -> list[str]:
    return [w.lower().replace("’", "'") for w in _WORD.findall(query)]


def content_words(query: str) -> list[str]:
    """The words that matter for ranking: stop words out, unless nothing would be left."""
    all_words = [w.rstrip("'s").rstrip("'") or w for w in words(query)]
    kept = [w for w in all_words if w not in STOPWORDS and len(w) > 1]
    return kept or all_words


def correct(query: str, vocabulary: dict[str, int]) -> tuple[str, bool]:
    """Replace words the books never use with their closest word that they do use.

    >>> correct("priorty passes", {"priority": 40, "passes": 9, "party": 1})
    ('priority passes', True)
    """
    from rapidfuzz import fuzz, process

    out, changed = [], False
    for token in re.split(r"(\s+)", query):
        word = token.lower()
        if len(word) < 4 or not word.isalpha() or word in vocabulary or word in STOPWORDS:
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


def _fts_query(terms: list[str]) -> str:
    return " OR ".join('"' + t.replace('"', '""') + '"' for t in terms)


def _rule_hits(store: Store, match: str, book: str | None, limit: int) -> list[Hit]:
    sql = f"""
        SELECT rules.book, rules.number, rules.title,
               snippet(rules_fts, 2, '{HIGHLIGHT[0]}', '{HIGHLIGHT[1]}', '…', 16) AS snip,
               rules.text AS text, -bm25(rules_fts, 0.0, 4.0, 1.0, 0.5) AS score
        FROM rules_fts JOIN rules ON rules.rowid = rules_fts.rowid
        WHERE rules_fts MATCH ? {"AND rules.book = ?" if book else ""}
        ORDER BY bm25(rules_fts, 0.0, 4.0, 1.0, 0.5) LIMIT ?"""
    params: list[Any] = [match] + ([book] if book else []) + [limit]
    return [Hit("rule", r["book"], r["number"], r["title"], _snippet(r["snip"], r["text"], r["title"]),
                r["score"] * (HEADING_FACTOR if not r["text"] else 1.0))
            for r in store.query(sql, params)]


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
           kinds: tuple[str, ...] = ("rule", "term", "ruling"), correct_typos: bool = True) -> SearchResult:
    """Ranked hits for ``query``; a rule number jumps straight to that rule."""
    query = query.strip()
    if numbers.looks_like_number(query) and "rule" in kinds:
        found = store.find_rule(query, book)
        if found:
            hits = [Hit("rule", r.book, r.number, r.rule.title, (r.rule.text or r.rule.title or "")[:200], 1.0)
                    for r in found]
            return SearchResult(query, None, hits[:limit], jumped=True)
    corrected = None
    effective = query
    if correct_typos:
        fixed, changed = correct(query, store.vocabulary(book))
        if changed:
            corrected = effective = fixed
    terms = content_words(effective)
    if not terms:
        return SearchResult(query, corrected, [])
    match = _fts_query(terms)
    hits: list[Hit] = []
    if "rule" in kinds:
        hits += _rule_hits(store, match, book, limit * 3)
    if "term" in kinds:
        hits += _term_hits(store, match, book, limit * 3)
    if "ruling" in kinds:
        hits += _ruling_hits(store, match, book, limit * 3)
    hits = _boost_definitions(store, hits, terms, book)
    hits.sort(key=lambda h: -h.score)
    return SearchResult(query, corrected, hits[:limit])


DEFINES_FACTOR = 2.0


def _boost_definitions(store: Store, hits: list[Hit], terms: list[str], book: str | None) -> list[Hit]:
    """A rule that defines a term the query names ("Priority is the singular exclusive right ...")
    is the first place a judge looks: rank it up, and add it when bm25 missed it."""
    phrases = set(terms) | {f"{a} {b}" for a, b in zip(terms, terms[1:])}
    if not phrases:
        return hits
    marks = ",".join("?" * len(phrases))
    sql = (f"SELECT book, derived_from FROM terms WHERE derived_from IS NOT NULL AND lower(term) IN ({marks})"
           + (" AND book = ?" if book else ""))
    defining = {(r["book"], r["derived_from"]) for r in store.query(sql, list(phrases) + ([book] if book else []))}
    if not defining:
        return hits
    top = max((h.score for h in hits), default=1.0)
    out = []
    for h in hits:
        if h.kind == "rule" and (h.book, h.id) in defining:
            defining.discard((h.book, h.id))
            h = Hit(h.kind, h.book, h.id, h.title, h.snippet, max(h.score * DEFINES_FACTOR, top))
        out.append(h)
    for book_id, number in defining:
        rule = store.rule(book_id, number)
        if rule is not None:
            out.append(Hit("rule", book_id, number, rule.title, rule.text[:200], top))
    return out


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
