"""Glossary lookups (``judge define``): a term by name, judges' shorthand or another form of its words,
else the closest headwords; and the rules a term's definition lists. Reads through the store
(:class:`rulebook.store.Store`, its named methods: no SQL here).
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from rapidfuzz import fuzz, process

from rulebook import numbers
from rulebook.lookup import is_heading
from rulebook.search.query import stems
from rulebook.search.vocabulary import shorthand

if TYPE_CHECKING:
    from rulebook.model import Term
    from rulebook.store import RuleRecord, RuleText, Store

SUGGEST_MIN = 75  # rapidfuzz WRatio of a glossary term suggested for one that is not there


def find_terms(store: Store, term: str, books: list[str]) -> tuple[list[tuple[str, Term]], list[str]]:
    """Glossary entries (``(book, Term)``) for ``term``, and suggestions when none is taken as meant.

    Exact (case-insensitive) matches first; else, when ``term`` is judges' shorthand of the book's game
    (``data/search-shorthand.yaml``: "sba", "etb"), the entry it stands for ("State-Based Actions");
    else the headwords with the same words in another form ("burn out" -> "Burning Out", "state based
    action" -> "State-Based Actions"); else the closest headwords if they are close enough
    ("permanant" -> "permanent"); else suggestions only (what a shorthand stands for first).
    """
    rows = [row for b in books for row in store.term_rows(b)]
    wanted = term.strip().lower()
    exact = [(b, t) for b, t in rows if t.term.lower() == wanted]
    if exact:
        return exact, []
    meant = shorthand_meanings(store, wanted, books)
    short = []  # each book's entry for the first of the shorthand's meanings it has ("cmc": Mana Value)
    for b, forms_meant in meant.items():
        have = {word_forms(t.term): (b, t) for bb, t in rows if bb == b}
        short += [have[f] for f in forms_meant if f in have][:1]
    if short:
        return short, []
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
    # Only near ones: "combat" -> Combat Damage Step, "showdown open" -> Showdown Closed; not "trample"
    # -> Neutral Closed (62), which is all an excerpt may have. A shorthand ("sba", "fizzle") is not
    # spelt like anything: it suggests what it stands for, never a headword it resembles.
    if meant:
        return [], list(dict.fromkeys(m for b in books for m in meant.get(b, {}).values()))
    scored = process.extract(wanted, names, scorer=fuzz.WRatio, limit=6, score_cutoff=SUGGEST_MIN)
    return [], list(dict.fromkeys(rows[i][1].term for _, _, i in scored))


def shorthand_meanings(store: Store, word: str, books: list[str]) -> dict[str, dict[tuple[str, ...], str]]:
    """For each book whose game has ``word`` as judges' shorthand: what it stands for, by its
    :func:`word_forms` (every wording it has had: "sba" is State-Based Actions, and State-Based
    Effects in an older book)."""
    out: dict[str, dict[tuple[str, ...], str]] = {}
    for book in books:
        game = store.book_game(book)
        means = shorthand({game} if game else None).get(word.strip().lower(), [])
        if means:
            out[book] = {word_forms(m): m for m in means}
    return out


RULES_SHOWN = 50  # the rules a term's definition lists at most (the rest: judge rule NUMBER --depth)


def term_rules(store: Store, book: str, term: str, limit: int = RULES_SHOWN) -> tuple[list[dict], int]:
    """The rules that say what a term is, in rule order, at most ``limit`` (and how many more there
    are): each rule its entry points at (Magic: the glossary's "See rule 702.19"; Riftbound: the rule
    that defines the term), with its sub-rules. A Riftbound term whose rule sits under a heading
    naming it (815 Tank over 815.1 "Tank is a Passive Ability keyword.") is the heading's: every rule
    under it, and a heading that names it among its siblings (706 Mighty, then 707 to 711) heads the
    rules after it up to the next heading. Each: ``{"number", "title", "text", "depth"}``, depth 0 for
    the rule the entry points at."""
    derived = store.term_derived_from(book, term)
    if derived is not None:
        roots = term_section(store, book, term, derived)
    else:
        roots = store.term_rule_targets(book, term)
    out: list[dict] = []
    seen: set[str] = set()
    for i, root in enumerate(dict.fromkeys(roots)):
        rule = store.rule_record(book, root)
        if rule is not None:
            _with_sub_rules(store, book, rule, 1 if derived is not None and i else 0, out, seen)
    return out[:limit], max(0, len(out) - limit)


def term_section(store: Store, book: str, term: str, number: str) -> list[str]:
    """The rules whose sub-rules say what a Riftbound term defined by rule ``number`` is: the heading
    that names the term over it (815 Tank over 815.1), or beside it with the siblings it heads up to
    the next heading (706 Mighty, then 707 to 711); else the rule itself."""
    root = _term_root(store, book, number, term)
    rule = store.rule_record(book, root) if root != number else None
    if rule is None or not is_heading(rule) or store.child_records(book, root):
        return [root]
    return [root] + [r.number for r in store.headed_records(book, rule.parent, rule.sort)]


def _term_root(store: Store, book: str, number: str, term: str) -> str:
    """The rule a Riftbound term stands for: the heading that names it, over or beside the rule that
    defines it, else that rule."""
    rule = store.rule_record(book, number)
    if rule is None:
        return number
    wanted = word_forms(term)
    parent = store.rule_record(book, rule.parent) if rule.parent else None
    if parent is not None and parent.title and word_forms(parent.title) == wanted:
        return parent.number
    if not is_heading(rule):  # the heading among its siblings above it (heading_of, one row read)
        above = store.heading_before(book, rule.parent, rule.sort)
        if above and word_forms(above.title or "") == wanted:
            return above.number
    return number


def _with_sub_rules(store: Store, book: str, rule: RuleRecord, depth: int, out: list[dict], seen: set[str]) -> None:
    """``rule`` and every rule under it, in rule order (one query: the numbers that begin with its own)."""

    number = rule.number
    rows = store.texts_beginning(book, number)
    levels = len(numbers.tokens(number))
    under: list[RuleRecord | RuleText] = [rule]
    under += [r for r in rows if r.number != number and re.match(r"[.a-z]", r.number[len(number)])]
    for row in under:
        if row.number in seen:
            continue
        seen.add(row.number)
        out.append(
            {
                "number": row.number,
                "title": row.title,
                "text": row.text,
                "depth": depth + len(numbers.tokens(row.number)) - levels,
            }
        )


def word_forms(text: str) -> tuple[str, ...]:
    """The words of a headword or query with their endings taken off (the search's light stemmer),
    hyphens read as spaces.

    >>> word_forms("Burning Out") == word_forms("burn out"), word_forms("State-Based Actions") == word_forms("state based action")
    (True, True)
    """
    return tuple(stems(text.replace("-", " ")))
