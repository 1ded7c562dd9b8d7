"""Lookups a judge runs by name or number, over judge.db's tables (docs/database.md).

Each function reads through the store (:class:`rulebook.store.Store`, its named methods: no SQL here),
so a command only parses, calls and prints. ``judge rule`` reads rule records (named tuples), not the
model's classes.
"""

from __future__ import annotations

import bisect
from typing import TYPE_CHECKING, Any, NamedTuple

from rulebook import games, numbers

if TYPE_CHECKING:
    from collections.abc import Callable

    from rulebook.game_rulings import Reading
    from rulebook.model import Rule, Term
    from rulebook.store import Cite, CitedBy, RuleRecord, RuleText, RulingRow, Store

NEAREST = 6  # rule numbers suggested for one that is not there
SUGGEST_MIN = 75  # rapidfuzz WRatio of a glossary term suggested for one that is not there


def nearest_numbers(store: Store, number: str, books: list[str], limit: int = NEAREST) -> list[str]:
    """What a judge who typed ``number`` may have meant, in the books searched: first the numbers one
    slip away (a character too many or too few, two swapped: 601.2ff -> 601.2f), then its nearest
    existing parent, then the numbers on either side of where it would be, then those one character
    different (every sibling letter is, so they come last). Only numbers near it are offered: one slip
    away or in its section (the same first number: 702.19b is not near 308 or 399, which is all an
    excerpt may have).

    >>> class Book:  # what it reads of the store
    ...     def game_of(self, book):
    ...         return "mtg"
    ...     def rule_numbers(self, book):
    ...         return ["601", "601.2", "601.2e", "601.2f", "601.2g", "601.3"]
    >>> nearest_numbers(Book(), "601.2ff", ["cr"])
    ['601.2f', '601.2', '601.2g', '601.3']
    >>> nearest_numbers(Book(), "601.2z", ["cr"])
    ['601.2', '601.2g', '601.3', '601.2e', '601.2f']
    """
    out: list[str] = []
    for book in books:
        game = store.game_of(book)
        wanted = numbers.canonical(number, game)
        existing = store.rule_numbers(book)
        typos = [n for n in existing if _one_typo(wanted, n)]
        slips = [n for n in typos if len(n) != len(wanted) or sorted(n) == sorted(wanted)]
        p = numbers.parent(wanted, game)
        while p and p not in existing:
            p = numbers.parent(p, game)
        keys = [numbers.sort_text(n) for n in existing]
        i = bisect.bisect_left(keys, numbers.sort_text(wanted))
        section = numbers.tokens(wanted)[:1]
        for n in [*slips, *([p] if p else []), *existing[max(0, i - 1) : i + 1], *typos]:
            if n not in out and (n in typos or numbers.tokens(n)[:1] == section):
                out.append(n)
    return out[:limit]


def excerpt_hint(store: Store, books: list[str]) -> str | None:
    """For a miss: the books searched that are excerpts (a built-in seed, or a document the reader found
    truncated), each with its edition and how many rules it has, and how to load the full rules; None
    when every book searched is whole.

    >>> from rulebook.store import BookRow
    >>> class Books:  # what it reads of the store
    ...     def book_rows(self):
    ...         return [BookRow("mtg", "mtg", "Comprehensive Rules (seed excerpt)", "2008-10-01", True, True, "", True, False)]
    ...     def rule_count(self, book):
    ...         return 31
    >>> excerpt_hint(Books(), ["mtg"])
    'mtg is the built-in excerpt Comprehensive Rules (seed excerpt), edition 2008-10-01, 31 rules: load the full rules with judge load PATH --book ID'
    """
    if not books:
        return None
    rows = [r for r in store.book_rows() if r.partial and r.id in books]
    if not rows:
        return None
    said = []
    for r in rows:
        what = "the built-in excerpt" if r.builtin else "read from a truncated text:"
        said.append(
            " ".join(p for p in (f"{r.id} is {what}", r.title) if p)
            + (f", edition {r.edition}" if r.edition else "")
            + f", {store.rule_count(r.id)} rules"
        )
    return "; ".join(said) + ": load the full rules with judge load PATH --book ID"


def _one_typo(typed: str, number: str) -> bool:
    """One insertion, deletion, substitution or swap of neighbours apart (Damerau-Levenshtein 1).

    >>> [_one_typo("601.2ff", n) for n in ("601.2f", "610.2ff", "601.2", "601.2e")]
    [True, True, False, False]
    """
    if typed == number or abs(len(typed) - len(number)) > 1:
        return False
    from rapidfuzz.distance import DamerauLevenshtein

    return DamerauLevenshtein.distance(typed, number, score_cutoff=1) <= 1


def find_terms(store: Store, term: str, books: list[str]) -> tuple[list[tuple[str, Term]], list[str]]:
    """Glossary entries (``(book, Term)``) for ``term``, and suggestions when none is taken as meant.

    Exact (case-insensitive) matches first; else, when ``term`` is judges' shorthand of the book's game
    (``data/search-shorthand.yaml``: "sba", "etb"), the entry it stands for ("State-Based Actions");
    else the headwords with the same words in another form ("burn out" -> "Burning Out", "state based
    action" -> "State-Based Actions"); else the closest headwords if they are close enough
    ("permanant" -> "permanent"); else suggestions only (what a shorthand stands for first).
    """
    from rapidfuzz import fuzz, process

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
    from rulebook.search.vocabulary import shorthand

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
    if rule is None or not _is_heading(rule) or store.child_records(book, root):
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
    if not _is_heading(rule):  # the heading among its siblings above it (heading_of, one row read)
        above = store.heading_before(book, rule.parent, rule.sort)
        if above and word_forms(above.title or "") == wanted:
            return above.number
    return number


def _with_sub_rules(store: Store, book: str, rule: RuleRecord, depth: int, out: list[dict], seen: set[str]) -> None:
    """``rule`` and every rule under it, in rule order (one query: the numbers that begin with its own)."""
    import re

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
    from rulebook.search.query import stems

    return tuple(stems(text.replace("-", " ")))


def book_document(store: Store, book_id: str) -> dict:
    """A whole book as JSON (``judge export json``, docs/json.md): rules in rule order, terms, rulings."""
    book = store.book(book_id)
    assert book is not None, book_id  # a book the command chose among those loaded
    return {
        "book": {
            "id": book.id,
            "game": book.game,
            "title": book.title,
            "edition": book.edition,
            "sources": [{"name": s.name, "kind": s.kind, "sha256": s.sha256} for s in book.sources],
        },
        "rules": [
            {"number": r.number, "parent": r.parent, "title": r.title, "text": r.text, "examples": list(r.examples)}
            for r in store.rules(book_id)
        ],
        "terms": [{"term": t.term, "definition": t.definition, "obsolete": t.obsolete} for t in store.terms(book_id)],
        "rulings": [
            {
                "id": r.id,
                "topic": r.topic,
                "question": r.question,
                "answer": r.answer,
                "form": r.form,
                "faq": r.faq,
                "published": r.published,
                "revises": list(r.revises),
                "revises_rule": r.revises_rule,
            }
            for r in store.rulings(book_id)
        ],
    }


# ``judge rule``: a rule where it sits (docs/json.md) -------------------------------------------------
class RuleView(NamedTuple):
    """A rule as a judge looks it up: where it sits (its ancestors, and in Riftbound the headings that
    group it), its text and examples, its sub-rules ``depth`` levels deep, what the loaded text lacks,
    what it cites and what cites it, the FAQ sections that revise it, and the rulings that rest on it
    (its own book's and its older editions', :mod:`rulebook.game_rulings`). Nested items are JSON-ready
    dicts; :meth:`to_json` gives docs/json.md's object. A named tuple: defined and made for every
    ``judge rule`` at a fraction of a dataclass's cost."""

    book: str
    number: str  # as stored: a number the publisher printed twice is 744.5, then 744.5-2
    printed: str  # as the publisher printed it (744.5 for both)
    title: str | None
    text: str
    examples: list[str]
    parent: str | None
    ancestors: list[dict]
    children: list[dict]
    missing_children: int
    expected_children: int | None
    source: str
    line: int
    cites: list[dict]
    cited_by: list[dict]
    revised_by: list[dict]
    rulings: list[dict]

    def to_json(self) -> dict:
        return self._asdict()


def rule_views(store: Store, number: str, books: list[str], depth: int = 1) -> list[RuleView]:
    """The rule ``number`` (typed in either game's style) of each of ``books`` that has it, in ``books`` order."""
    return [rule_view(store, book, r, depth) for book, r in find(store, number, books)]


def find(store: Store, text: str, books: list[str]) -> list[tuple[str, RuleRecord]]:
    """Each book's rule with this number, typed in either game's style, in ``books`` order; where the
    publisher printed the number twice, every rule printed so (``744.5``, then ``744.5-2``), in
    document order. A number typed with its ``-2`` finds that rule alone."""
    found: dict[str, list[RuleRecord]] = {}
    for candidate in numbers.candidates(text):  # a book answers to the first spelling it has
        answered = set(found)
        for row in store.records_numbered(candidate, books):
            if row.book not in answered:
                found.setdefault(row.book, []).append(row)
    return [(b, r) for b in books for r in found.get(b, [])]


def ancestors(store: Store, book: str, rule: RuleRecord) -> list[RuleRecord]:
    out: list[RuleRecord] = []
    parent = rule.parent
    while parent:
        found = store.rule_record(book, parent)
        if found is None:
            break
        out.insert(0, found)
        parent = found.parent
    return out


def _brief(r: RuleRecord) -> dict:
    return {"number": r.number, "title": r.title, "text": r.text}


def _tree(store: Store, book: str, number: str, depth: int) -> list[dict]:
    if depth <= 0:
        return []
    return [
        {
            "number": child.number,
            "title": child.title,
            "text": child.text,
            "children": _tree(store, book, child.number, depth - 1),
        }
        for child in store.child_records(book, number)
    ]


def _is_heading(r: RuleRecord | RuleText) -> bool:
    return bool(r.title) and not r.text


def heading_of(store: Store, book: str, rule: RuleRecord) -> dict | None:
    """Riftbound groups rules under heading rules that are their siblings (311 Priority and Focus
    heads 312 and 313); the breadcrumb shows that heading too."""
    if _is_heading(rule):
        return None
    for sibling in store.siblings_before(book, rule.parent, rule.sort):
        if _is_heading(sibling):
            return _brief(sibling)
    return None


def rule_view(store: Store, book: str, r: RuleRecord, depth: int) -> RuleView:
    above = ancestors(store, book, r)
    ancestors_shown = [_brief(a) for a in above]
    if games.get(store.game_of(book)).numbering.sibling_headings:
        with_headings: list[dict] = []
        for item in above + [r]:
            heading = heading_of(store, book, item) if item.parent else None
            if heading and heading not in with_headings:
                with_headings.append(heading)
            if item is not r:
                with_headings.append(_brief(item))
        ancestors_shown = with_headings
    present = store.child_count(book, r.number)
    expected = r.expected_children
    missing = max(0, expected - present) if expected is not None else 0
    return RuleView(
        book=book,
        number=r.number,
        printed=numbers.printed(r.number),
        title=r.title,
        text=r.text,
        examples=list(r.examples),
        parent=r.parent,
        ancestors=ancestors_shown,
        children=_tree(store, book, r.number, depth),
        missing_children=missing,
        expected_children=expected,
        source=r.source,
        line=r.line,
        cites=[_cite(store, book, c) for c in store.cites(book, r.number)],
        cited_by=[_cited_by(store, book, c) for c in store.cited_by(book, r.number)],
        revised_by=revised_by(store, book, r.number),
        rulings=rulings_for_rule(store, book, r.number, r.title),
    )


def rulings_for_rule(store: Store, book: str, number: str, title: str | None) -> list[dict]:
    """The rulings that rest on the rule, the book's own and its older editions' (:mod:`rulebook.game_rulings`)."""
    if not store.game_has_rulings(book):
        return []  # no FAQ of the game is loaded (the mtg seed, the Comprehensive Rules)
    from rulebook.game_rulings import rulings_for_rule as found

    return found(store, book, number, title)


def revised_by(store: Store, book: str, number: str) -> list[dict]:
    """The FAQ sections of the book that give this rule's revised text (``Rule 735.1.c (revised text)``)."""
    return [
        {
            "ruling": row.id,
            "faq": row.faq,
            "published": row.published,
            "text": row.answer,
            "source": row.source,
            "line": row.line,
        }
        for row in store.revised_texts(book, [number])
    ]


def _cite(store: Store, book: str, row: Cite) -> dict:
    in_book, title = store.rule_title(book, row["target"])
    return {
        "number": row["target"],
        "title": title if in_book else row["cited_title"],
        "outcome": row["outcome"],
        "in_book": in_book,
    }


def _cited_by(store: Store, book: str, row: CitedBy) -> dict:
    if row["from_kind"] == "rule":
        return {"kind": "rule", "number": row["from_id"], "title": store.rule_title(book, row["from_id"])[1]}
    return {"kind": row["from_kind"], "number": row["from_id"], "title": None}


# ``judge rulings``: FAQ answers, the current one first (docs/json.md) ----------------------------------
class RulingView(NamedTuple):
    """A ruling as a judge reads it: the question and whole answer, where it comes from (its book, that
    book's edition, and the book it is read in: a newer edition of its game, docs/decisions.md "Rulings
    stay with the game"), the rules it rests on as that book numbers them, and whether a later FAQ
    revised it (``superseded_by``) or it revises earlier ones (``revises``, ``revises_rule``)."""

    book: str
    id: str
    form: str | None
    topic: str | None
    question: str
    answer: str
    faq: str | None
    published: str | None
    source: str | None
    line: int | None
    score: float | None
    current: bool
    superseded_by: list[dict]
    revises: list[dict]
    revises_rule: str | None
    edition: str | None
    read_in: str | None
    cites: list[dict]

    def to_json(self) -> dict:
        return self._asdict()

    @property
    def carried(self) -> bool:
        """A ruling of an older edition's book, read in a newer one."""
        return self.read_in is not None and self.read_in != self.book


def ruling_views(store: Store, found: list[tuple]) -> list[RulingView]:
    """The rulings ``(book, id, score[, read_in])`` a search found, the current ones first: the current
    rulings (by score), each superseded ruling's revisions the search did not find (score None), then
    the superseded rulings (by score), so the judge always sees the current answer. ``read_in`` is the
    book whose search found the ruling (a newer edition of its game), else its own book."""
    from rulebook.game_rulings import Reading

    readings: dict[str, Reading] = {}

    def reading(book: str) -> Reading:
        if book not in readings:
            readings[book] = Reading(store, book)
        return readings[book]

    views = [
        _ruling_view(store, item[0], item[1], item[2], reading(item[3] if len(item) > 3 and item[3] else item[0]))
        for item in found
    ]
    return _current_first(store, views, reading)


def _ruling_brief(row: RulingRow, book: str) -> dict:
    return {
        "book": book,
        "id": row.id,
        "question": row.question,
        "faq": row.faq,
        "published": row.published,
    }


def _ruling_view(store: Store, book: str, ruling_id: str, score: float | None, reading: Reading) -> RulingView:
    from rulebook.game_rulings import brief

    row = store.ruling_row(book, ruling_id)
    if row is None:
        raise KeyError(f"no ruling {ruling_id!r} in {book!r}")
    # Within its book (the revisions table), then across books (a newer edition's FAQ: rulebook.game_rulings).
    superseded_by = [_ruling_brief(r, book) for r in store.later_rulings(book, ruling_id)] + [
        brief(store, b, i) for b, i in reading.superseded_by(book, ruling_id)
    ]
    revises = [_ruling_brief(r, book) for r in store.earlier_rulings(book, ruling_id)] + [
        brief(store, b, i) for b, i in reading.revises(book, ruling_id)
    ]
    return RulingView(
        book=book,
        id=row.id,
        form=row.form,
        topic=row.topic,
        question=row.question,
        answer=row.answer,
        faq=row.faq,
        published=row.published,
        source=row.source,
        line=row.line,
        score=score,
        current=not superseded_by,
        superseded_by=superseded_by,
        revises=revises,
        revises_rule=row.revises_rule,
        edition=reading.editions.get(book),
        read_in=reading.book,
        cites=reading.cites(book, ruling_id),
    )


def _current_first(store: Store, found: list[RulingView], reading: Callable[[str], Reading]) -> list[RulingView]:
    """The current rulings (by score), each superseded ruling's revisions that the search did not find
    (score None), then the superseded rulings (by score)."""
    current = [r for r in found if r.current]
    superseded = [r for r in found if not r.current]
    shown = {(r.book, r.id) for r in found}
    for old in superseded:
        for newer in old.superseded_by:
            if (newer["book"], newer["id"]) not in shown:
                shown.add((newer["book"], newer["id"]))
                current.append(_ruling_view(store, newer["book"], newer["id"], None, reading(old.read_in or old.book)))
    return current + superseded


# ``judge refs``: a rule's citation neighbourhood (docs/json.md) ----------------------------------------
def citation_trees(store: Store, book: str, rule: Rule, depth: int = 1) -> dict:
    """What ``rule`` cites and what cites it, as trees ``depth`` levels deep (JSON as is); a rule
    already shown higher up is not repeated."""
    number = rule.number
    return {
        "book": book,
        "number": number,
        "title": rule.title,
        "cites": _citation_tree(store, book, number, depth, "cites", {number}),
        "cited_by": _citation_tree(store, book, number, depth, "cited_by", {number}),
    }


def _citation_tree(store: Store, book: str, number: str, depth: int, direction: str, seen: set[str]) -> list[dict]:
    if depth <= 0:
        return []
    found: list[tuple[str, str | None]] = (  # (rule, outcome)
        [(c["target"], c["outcome"]) for c in store.cites(book, number)]
        if direction == "cites"
        else [(c["from_id"], None) for c in store.cited_by(book, number) if c["from_kind"] == "rule"]
    )
    out = []
    for target, outcome in found:
        if target in seen:
            continue
        seen.add(target)
        rule = store.rule(book, target)
        item: dict[str, Any] = {"number": target, "title": rule.title if rule else None, "in_book": rule is not None}
        if direction == "cites":
            item["outcome"] = outcome
        item[direction] = _citation_tree(store, book, target, depth - 1, direction, seen) if rule else []
        out.append(item)
    return out
