"""Lookups a judge runs by name or number, over judge.db's tables (docs/database.md).

Each function reads through the store (:class:`rulebook.store.Store`, its named methods: no SQL here),
so a command only parses, calls and prints. ``judge rule`` reads rule records (named tuples), not the
model's classes.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, NamedTuple

from rulebook import games, numbers
from rulebook.game_rulings import Reading, brief
from rulebook.game_rulings import rulings_for_rule as found

if TYPE_CHECKING:
    from collections.abc import Callable

    from rulebook.game_rulings import Reading
    from rulebook.model import Rule
    from rulebook.store import Cite, CitedBy, RuleRecord, RuleText, RulingRow, Store


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


def is_heading(r: RuleRecord | RuleText) -> bool:
    return bool(r.title) and not r.text


def heading_of(store: Store, book: str, rule: RuleRecord) -> dict | None:
    """Riftbound groups rules under heading rules that are their siblings (311 Priority and Focus
    heads 312 and 313); the breadcrumb shows that heading too."""
    if is_heading(rule):
        return None
    for sibling in store.siblings_before(book, rule.parent, rule.sort):
        if is_heading(sibling):
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
