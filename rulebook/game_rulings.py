"""Rulings stay with the game (issue 20): a FAQ loaded with one edition is read from every newer book.

A judge loads Riftbound v1.2 with the Origins and Spiritforged FAQs as one book, then v1.3 with the
Unleashed FAQ as another. v1.3 becomes the default book, yet the Origins rulings still answer
questions v1.3 does not: so a book is read with the rulings of every *older* book of its game
(:func:`older_books`: an older edition by :func:`rulebook.editions.edition_key`, seeds included),
each labelled with the book it was written against, never those of a newer one.

What a ruling *rests on*, in its own book (:func:`rests_on`): the rules it names by number (the
``refs`` the reader found in it, and the rule whose revised text a section gives), then the
*keyword rules* its topic or question names: a rule whose title is a glossary term of the book
(737 Hidden, 702.19 Trample), named as printed, as whole words ("Cards with Hidden"; "cost" is not
"Cost"). A rule is the rule and its sub-rules.

Read in a newer book, each rule it rests on is followed there through the diff's matching
(:func:`rulebook.diff.match_rules`, the matching ``judge diff`` and ``judge ruling check`` use) and
marked: its number there (``now``), its ``status`` (``same``, ``changed``, ``moved``, ``moved and
changed``, ``gone``; ``unchecked`` when the ruling's own book lacks the rule, an excerpt's or a book
of rulings alone), and ``changed`` when it or a sub-rule was reworded, went or gained a sub-rule
(``changes`` lists them). A later FAQ of another book revises an earlier ruling as within one book
(:func:`rulebook.readers.rulings.link_revisions`).

Matching two full books costs about 0.6 s (Riftbound v1.2 -> v1.3) and linking revisions 0.08 s,
too much for every lookup: both are made when the library is written (:mod:`rulebook.ruling_pairs`,
by the load or rebuild that changed either book) and stored in judge.db, where this module reads them.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from rulebook.editions import edition_key

if TYPE_CHECKING:
    from rulebook.store import BookRow, Store


# Which books a book is read with -------------------------------------------------------------------
def older_books(store: Store, book: str, rows: list[BookRow] | None = None) -> list[str]:
    """The books of ``book``'s game whose edition is older and which hold rulings, newest first (equals
    in ``judge books`` order): the books whose rulings ``book`` is read with. ``rows``: the store's
    :meth:`~rulebook.store.Store.book_rows`, when the caller has read them."""

    rows = store.book_rows() if rows is None else rows
    me = next((r for r in rows if r.id == book), None)
    if me is None:
        return []
    mine = edition_key(me.edition)
    older = [r for r in rows if r.game == me.game and r.id != book and r.has_rulings and edition_key(r.edition) < mine]
    return [r.id for r in sorted(older, key=lambda r: tuple(-p for p in edition_key(r.edition)))]


def same_ruling(question: str, answer: str) -> str:
    """What makes two rulings the same one loaded twice: their words, case and punctuation aside."""
    return " ".join(re.findall(r"\w+", f"{question} {answer}".lower()))


# What a ruling rests on, in its own book -----------------------------------------------------------
def keyword_rules(store: Store, book: str) -> dict[str, list[str]]:
    """``{title: [numbers]}`` of the book's rules whose title is one of its glossary terms."""
    terms = {t.lower() for t in store.term_names(book)}
    if not terms:
        return {}
    out: dict[str, list[str]] = {}
    for number, title in store.titled_rules(book):
        if title.lower() in terms:
            out.setdefault(title, []).append(number)
    return out


def names(title: str, text: str | None) -> bool:
    """Whether ``text`` names ``title`` as printed, as whole words.

    >>> names("Hidden", "Cards with Hidden"), names("Cost", "What does it cost?"), names("Hidden", "Hiddenness")
    (True, False, False)
    """
    if not text:
        return False
    return re.search(r"(?<![\w-])" + re.escape(title) + r"(?![\w-])", text) is not None


def rests_on(
    store: Store, book: str, ruling_ids: list[str] | None = None, keywords: dict[str, list[str]] | None = None
) -> dict[str, list[tuple[str, str]]]:
    """``{ruling id: [(rule number, found_by)]}``: the rules each ruling of ``book`` names by number
    (``found_by`` ``number``), then the keyword rules its topic or question names (``keyword``)."""
    if ruling_ids is not None and not ruling_ids:
        return {}
    rulings = store.ruling_rows(book, ruling_ids)
    out: dict[str, list[tuple[str, str]]] = {r.id: [] for r in rulings}
    for ruling, target in store.ruling_rule_refs(book, ruling_ids):
        if ruling in out:
            out[ruling].append((target, "number"))
    keywords = keyword_rules(store, book) if keywords is None else keywords
    for r in rulings:
        found = out[r.id]
        if r.revises_rule:
            found.append((r.revises_rule, "number"))
        for title, numbers_ in keywords.items():
            if names(title, r.topic) or names(title, r.question):
                found.extend((n, "keyword") for n in numbers_)
        first: dict[str, str] = {}  # each rule once, as first found
        for n, how in found:
            first.setdefault(n, how)
        out[r.id] = list(first.items())
    return out


def unfollowed(
    store: Store, book: str, rests: list[tuple[str, str]], titles: dict[str, str | None] | None = None
) -> list[dict]:
    """The cites of a ruling read in its own book: each rule as it is there."""
    if not rests:
        return []
    wanted = [n for n, _ in rests]
    if titles is None:
        titles = store.rule_titles(book, wanted)
    return [
        {
            "rule": n,
            "title": titles.get(n),
            "found_by": how,
            "in_book": book,
            "now": n if n in titles else None,
            "status": "same" if n in titles else "unchecked",
            "changed": False,
            "changes": [],
            "diff": None,
        }
        for n, how in rests
    ]


# A pair of books: the older one's rulings read in the newer one ----------------------------------
def pair(store: Store, old: str, new: str) -> tuple[dict[str, list[str]], dict[str, list[dict]]]:
    """What the rulings of ``old`` are in ``new``, as the library stored them when it was written
    (:mod:`rulebook.ruling_pairs`): ``revised`` ``{old ruling id: [ids of new's rulings that revise it]}``
    and ``cites`` ``{old ruling id: [cite, ...]}``; both empty for a pair the library does not hold."""
    return store.ruling_pair(old, new) or ({}, {})


class Reading:
    """The rulings a book is read with: its own, and those of each older book of its game (newest
    first), with the revisions across books and, with ``follow``, each ruling's rules followed into the
    book read."""

    def __init__(self, store: Store, book: str, follow: bool = True, rows: list[BookRow] | None = None):
        rows = store.book_rows() if rows is None else rows
        self.store = store
        self.book = book
        self.editions = {r.id: r.edition for r in rows}
        self.older = older_books(store, book, rows)
        self.books = [book, *self.older]  # newest first
        self._cites: dict[str, dict[str, list[dict]]] = {}
        self._keywords: dict[str, list[str]] | None = None
        self._revised: dict[tuple[str, str], list[tuple[str, str]]] = {}
        self._revises: dict[tuple[str, str], list[tuple[str, str]]] = {}
        for i, old in enumerate(self.older):
            for newer in [book, *self.older[:i]]:
                revised, cites = pair(store, old, newer)
                if newer == book and follow:
                    self._cites[old] = cites
                for earlier, laters in revised.items():
                    for later in laters:
                        self._revised.setdefault((old, earlier), []).append((newer, later))
                        self._revises.setdefault((newer, later), []).append((old, earlier))

    def superseded_by(self, book: str, ruling: str) -> list[tuple[str, str]]:
        """The rulings of newer books read here that revise this one (within its book: the revisions table)."""
        return self._revised.get((book, ruling), [])

    def revises(self, book: str, ruling: str) -> list[tuple[str, str]]:
        return self._revises.get((book, ruling), [])

    def cites(self, book: str, ruling: str) -> list[dict]:
        """The rules the ruling rests on, as the book read numbers them (its own book's: as they are)."""
        if book == self.book:
            if self._keywords is None:
                self._keywords = keyword_rules(self.store, book)
            return unfollowed(self.store, book, rests_on(self.store, book, [ruling], self._keywords).get(ruling, []))
        return self._cites.get(book, {}).get(ruling, [])

    def followed(self, book: str) -> dict[str, list[dict]]:
        """Every ruling of an older ``book`` with its cites followed into the book read."""
        return self._cites.get(book, {})


def brief(store: Store, book: str, ruling: str) -> dict:
    """A ruling named in another's ``superseded_by`` or ``revises``: its book, id, question and FAQ."""
    row = store.ruling_row(book, ruling)
    if row is None:
        return {"book": book, "id": ruling, "question": None, "faq": None, "published": None}
    return {"book": book, "id": ruling, "question": row.question, "faq": row.faq, "published": row.published}


def describe(cite: dict, book: str, limit: int = 3) -> str:
    """A cite in words, as the book it is read in numbers it: ``737 Hidden (rb-1.2) = 811 in rb-1.3,
    changed since: 811.1.b, 811.1.d.1, 811.6 reworded; 811.1.d.1.a added``."""
    name = cite["rule"] + (f" {cite['title']}" if cite.get("title") else "")
    here = f"{name} ({book})" if book != cite["in_book"] else name
    status = cite["status"]
    if status == "unchecked":
        return f"{here}: not in {book}" + (f"; {cite['now']} in {cite['in_book']}" if cite["now"] else "")
    if status == "gone":
        return f"{here}: gone from {cite['in_book']}"
    if book == cite["in_book"]:
        return here
    where = (
        f"{here} = {cite['now']} in {cite['in_book']}"
        if cite["now"] != cite["rule"]
        else f"{here}, {cite['now']} in {cite['in_book']}"
    )
    if not cite["changed"]:
        return f"{where}, unchanged" + (" but for the rule numbers it cites" if cite["changes"] else "")
    real = [c for c in cite["changes"] if not c.get("references_only")]
    own = any(c["rule"] == cite["rule"] for c in real)
    said = []
    for what, numbers_ in (
        ("reworded", [c["now"] for c in real if c["now"] and c["rule"] and c["rule"] != cite["rule"]]),
        ("gone", [c["rule"] for c in real if c["status"] == "gone"]),
        ("added", [c["now"] for c in real if c["status"] == "added"]),
    ):
        if numbers_:
            more = f" and {len(numbers_) - limit} more" if len(numbers_) > limit else ""
            said.append(f"{', '.join(numbers_[:limit])}{more} {what}")
    if own:
        return f"{where}, reworded since" + (f"; {'; '.join(said)}" if said else "")
    return f"{where}, changed since: {'; '.join(said)}"


# The rulings a rule lists (``judge rule``) ---------------------------------------------------------
def rulings_for_rule(
    store: Store, book: str, number: str, title: str | None, rows: list[BookRow] | None = None
) -> list[dict]:
    """The rulings ``book`` is read with (its own and its older books') that rest on rule ``number``: that
    name it or a sub-rule of it by number (an older book's: as followed into ``book``), or, when its title
    is a glossary term of ``book`` (737 Hidden), name that title as printed in their topic or question.
    The current ones first, each book's in document order, the same ruling loaded twice shown once (the
    newest book's); docs/json.md, ``judge rule``."""
    reading = Reading(store, book, rows=rows)
    books = reading.books
    subtree = store.subtree_numbers(book, number)
    inside = set(subtree)
    found: dict[tuple[str, str], str] = {}
    for rid in store.rulings_citing(book, subtree):
        found[(book, rid)] = "number"
    for section in store.revised_texts(book, subtree):
        found[(book, section.id)] = "number"
    for old in reading.older:
        for rid, cites in reading.followed(old).items():
            hows = {c["found_by"] for c in cites if c["now"] in inside}
            if hows:
                found[(old, rid)] = "number" if "number" in hows else "keyword"
    if title and store.has_term(book, title):
        for r in store.rulings_naming(books, title):
            if names(title, r.topic) or names(title, r.question):
                found.setdefault((r.book, r.id), "keyword")
    if not found:
        return []
    order = {b: i for i, b in enumerate(books)}
    wanted = sorted({b for b, _ in found}, key=order.__getitem__)  # found's books are all read here
    chosen = [r for b in wanted for r in store.ruling_rows(b) if (r.book, r.id) in found]
    chosen.sort(key=lambda r: (order[r.book], r.position))
    seen: set[str] = set()
    out = []
    for r in chosen:
        same = same_ruling(r.question, r.answer)
        if same in seen:
            continue
        seen.add(same)
        later = [(r.book, x.id) for x in store.later_rulings(r.book, r.id)]
        later += reading.superseded_by(r.book, r.id)
        out.append(
            {
                "book": r.book,
                "edition": reading.editions.get(r.book),
                "id": r.id,
                "topic": r.topic,
                "question": r.question,
                "faq": r.faq,
                "published": r.published,
                "current": not later,
                "superseded_by": [brief(store, b, i) for b, i in later],
                "found_by": found[(r.book, r.id)],
                "cites": reading.cites(r.book, r.id),
            }
        )
    return sorted(out, key=lambda item: not item["current"])


# The rulings under each rule of a book (``judge site``) --------------------------------------------
def rulings_under_rules(store: Store, book: str, rows: list[BookRow] | None = None) -> dict[str, list[tuple[str, str]]]:
    """``{rule number: [(ruling's book, ruling id)]}``: every rule of ``book`` with the rulings it is read
    with that rest on that very rule (not a sub-rule: the sub-rule lists its own), as :func:`rulings_for_rule`
    finds them: the book's own (by number, a revised text, or its keyword rule named), then each older
    book's, followed into ``book`` (its number there). The same ruling loaded twice is listed once, from
    the newer book; each list in the order read (the book's own first, each in document order)."""
    reading = Reading(store, book, rows=rows)
    out: dict[str, list[tuple[str, str]]] = {}
    seen: dict[str, set[str]] = {}
    texts = {b: {r.id: same_ruling(r.question, r.answer) for r in store.ruling_rows(b)} for b in reading.books}

    def put(number: str, ruling_book: str, ruling: str) -> None:
        same = texts[ruling_book].get(ruling)
        if same is None or same in seen.setdefault(number, set()):
            return
        seen[number].add(same)
        out.setdefault(number, []).append((ruling_book, ruling))

    for ruling, rests in rests_on(store, book).items():
        for number, _ in rests:
            put(number, book, ruling)
    for old in reading.older:
        for ruling, cites in reading.followed(old).items():
            for cite in cites:
                if cite["now"]:
                    put(cite["now"], old, ruling)
    return out
