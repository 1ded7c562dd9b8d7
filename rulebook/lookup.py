"""Lookups a judge runs by name or number, over judge.db's tables (docs/database.md).

Each function takes anything with ``query(sql, params) -> list[dict]`` (the store, or the plain
sqlite3 rows the fastest lookups read), so a command only parses, calls and prints.
"""

from __future__ import annotations

import bisect

from rulebook import numbers

NEAREST = 6  # rule numbers suggested for one that is not there


def nearest_numbers(db, number: str, books: list[str], limit: int = NEAREST) -> list[str]:
    """What a judge who typed ``number`` may have meant, in the books searched: first the numbers one
    slip away (a character too many or too few, two swapped: 601.2ff -> 601.2f), then its nearest
    existing parent, then the numbers on either side of where it would be, then those one character
    different (every sibling letter is, so they come last).

    >>> class Rows:
    ...     def query(self, sql, params=()):
    ...         if "game" in sql:
    ...             return [{"game": "mtg"}]
    ...         return [{"number": n} for n in ("601", "601.2", "601.2e", "601.2f", "601.2g", "601.3")]
    >>> nearest_numbers(Rows(), "601.2ff", ["cr"])
    ['601.2f', '601.2', '601.2g', '601.3']
    >>> nearest_numbers(Rows(), "601.2z", ["cr"])
    ['601.2', '601.2g', '601.3', '601.2e', '601.2f']
    """
    out: list[str] = []
    for book in books:
        game = db.query("SELECT game FROM books WHERE id = ?", [book])[0]["game"]
        wanted = numbers.canonical(number, game)
        existing = [r["number"] for r in db.query("SELECT number FROM rules WHERE book = ? ORDER BY sort", [book])]
        typos = [n for n in existing if _one_typo(wanted, n)]
        slips = [n for n in typos if len(n) != len(wanted) or sorted(n) == sorted(wanted)]
        p = numbers.parent(wanted, game)
        while p and p not in existing:
            p = numbers.parent(p, game)
        keys = [numbers.sort_text(n) for n in existing]
        i = bisect.bisect_left(keys, numbers.sort_text(wanted))
        for n in [*slips, *([p] if p else []), *existing[max(0, i - 1): i + 1], *typos]:
            if n not in out:
                out.append(n)
    return out[:limit]


def _one_typo(typed: str, number: str) -> bool:
    """One insertion, deletion, substitution or swap of neighbours apart (Damerau-Levenshtein 1).

    >>> [_one_typo("601.2ff", n) for n in ("601.2f", "610.2ff", "601.2", "601.2e")]
    [True, True, False, False]
    """
    if typed == number or abs(len(typed) - len(number)) > 1:
        return False
    from rapidfuzz.distance import DamerauLevenshtein

    return DamerauLevenshtein.distance(typed, number, score_cutoff=1) <= 1


def find_terms(store, term: str, books: list[str]) -> tuple[list, list[str]]:
    """Glossary entries (``(book, Term)``) for ``term``, and suggestions when none is taken as meant.

    Exact (case-insensitive) matches first; else the headwords with the same words in another form
    ("burn out" -> "Burning Out", "state based action" -> "State-Based Actions"); else the closest
    headwords if they are close enough ("permanant" -> "permanent"); else suggestions only.
    """
    from rapidfuzz import fuzz, process

    rows = [row for b in books for row in store.term_rows(b)]
    wanted = term.strip().lower()
    exact = [(b, t) for b, t in rows if t.term.lower() == wanted]
    if exact:
        return exact, []
    forms = word_forms(wanted)
    same = [(b, t) for b, t in rows if forms and word_forms(t.term) == forms]
    if same:
        return same, []
    names = [t.term.lower() for _, t in rows]
    # A close spelling of one headword (fuzz.ratio: "permanant" -> "permanent") is taken as meant;
    # anything looser only becomes a suggestion.
    close = process.extract(wanted, names, scorer=fuzz.ratio, limit=8, score_cutoff=85)
    if close:
        top = close[0][1]
        return [rows[i] for _, s, i in close if s == top], []
    scored = process.extract(wanted, names, scorer=fuzz.WRatio, limit=6, score_cutoff=60)
    return [], list(dict.fromkeys(rows[i][1].term for _, _, i in scored))


def word_forms(text: str) -> tuple[str, ...]:
    """The words of a headword or query with their endings taken off (the search's light stemmer),
    hyphens read as spaces.

    >>> word_forms("Burning Out") == word_forms("burn out"), word_forms("State-Based Actions") == word_forms("state based action")
    (True, True)
    """
    from rulebook.search.query import stems

    return tuple(stems(text.replace("-", " ")))


def book_document(store, book_id: str) -> dict:
    """A whole book as JSON (``judge export json``, docs/json.md): rules in rule order, terms, rulings."""
    book = store.book(book_id)
    return {
        "book": {"id": book.id, "game": book.game, "title": book.title, "edition": book.edition,
                 "sources": [{"name": s.name, "kind": s.kind, "sha256": s.sha256} for s in book.sources]},
        "rules": [{"number": r.number, "parent": r.parent, "title": r.title, "text": r.text,
                   "examples": list(r.examples)} for r in store.rules(book_id)],
        "terms": [{"term": t.term, "definition": t.definition, "obsolete": t.obsolete} for t in store.terms(book_id)],
        "rulings": [{"id": r.id, "topic": r.topic, "question": r.question, "answer": r.answer}
                    for r in store.rulings(book_id)],
    }
