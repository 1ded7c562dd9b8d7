"""Lookups a judge runs by name or number, over judge.db's tables (docs/database.md).

Each function takes anything with ``query(sql, params) -> list[dict]`` (the store, or the plain
sqlite3 rows the fastest lookups read), so a command only parses, calls and prints.
"""

from __future__ import annotations

import bisect
import json
from dataclasses import dataclass, field, fields

from rulebook import games, numbers

NEAREST = 6  # rule numbers suggested for one that is not there
SUGGEST_MIN = 75  # rapidfuzz WRatio of a glossary term suggested for one that is not there


def nearest_numbers(db, number: str, books: list[str], limit: int = NEAREST) -> list[str]:
    """What a judge who typed ``number`` may have meant, in the books searched: first the numbers one
    slip away (a character too many or too few, two swapped: 601.2ff -> 601.2f), then its nearest
    existing parent, then the numbers on either side of where it would be, then those one character
    different (every sibling letter is, so they come last). Only numbers near it are offered: one slip
    away or in its section (the same first number: 702.19b is not near 308 or 399, which is all an
    excerpt may have).

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
        section = numbers.tokens(wanted)[:1]
        for n in [*slips, *([p] if p else []), *existing[max(0, i - 1) : i + 1], *typos]:
            if n not in out and (n in typos or numbers.tokens(n)[:1] == section):
                out.append(n)
    return out[:limit]


def excerpt_hint(db, books: list[str]) -> str | None:
    """For a miss: the books searched that are excerpts (a built-in seed, or a document the reader found
    truncated), each with its edition and how many rules it has, and how to load the full rules; None
    when every book searched is whole.

    >>> class Rows:
    ...     def query(self, sql, params=()):
    ...         return [{"id": "mtg", "title": "Comprehensive Rules (seed excerpt)", "edition": "2008-10-01",
    ...                  "builtin": 1, "rules": 31}]
    >>> excerpt_hint(Rows(), ["mtg"])
    'mtg is the built-in excerpt Comprehensive Rules (seed excerpt), edition 2008-10-01, 31 rules: load the full rules with judge load PATH --book ID'
    """
    if not books:
        return None
    rows = db.query(
        f"SELECT id, title, edition, builtin, (SELECT count(*) FROM rules WHERE rules.book = books.id) AS rules "
        f"FROM books WHERE partial AND id IN ({', '.join('?' * len(books))}) ORDER BY position, id",
        list(books),
    )
    if not rows:
        return None
    said = []
    for r in rows:
        what = "the built-in excerpt" if r["builtin"] else "read from a truncated text:"
        said.append(
            " ".join(p for p in (f"{r['id']} is {what}", r["title"]) if p)
            + (f", edition {r['edition']}" if r["edition"] else "")
            + f", {r['rules']} rules"
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


def find_terms(store, term: str, books: list[str]) -> tuple[list, list[str]]:
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


def shorthand_meanings(store, word: str, books: list[str]) -> dict[str, dict[tuple[str, ...], str]]:
    """For each book whose game has ``word`` as judges' shorthand: what it stands for, by its
    :func:`word_forms` (every wording it has had: "sba" is State-Based Actions, and State-Based
    Effects in an older book)."""
    from rulebook.search.vocabulary import shorthand

    out: dict[str, dict[tuple[str, ...], str]] = {}
    for book in books:
        game = store.query("SELECT game FROM books WHERE id = ?", [book])
        means = shorthand({game[0]["game"]} if game else None).get(word.strip().lower(), [])
        if means:
            out[book] = {word_forms(m): m for m in means}
    return out


RULES_SHOWN = 50  # the rules a term's definition lists at most (the rest: judge rule NUMBER --depth)


def term_rules(db, book: str, term: str, limit: int = RULES_SHOWN) -> tuple[list[dict], int]:
    """The rules that say what a term is, in rule order, at most ``limit`` (and how many more there
    are): each rule its entry points at (Magic: the glossary's "See rule 702.19"; Riftbound: the rule
    that defines the term), with its sub-rules. A Riftbound term whose rule sits under a heading
    naming it (815 Tank over 815.1 "Tank is a Passive Ability keyword.") is the heading's: every rule
    under it, and a heading that names it among its siblings (706 Mighty, then 707 to 711) heads the
    rules after it up to the next heading. Each: ``{"number", "title", "text", "depth"}``, depth 0 for
    the rule the entry points at."""
    derived = db.query(
        "SELECT derived_from FROM terms WHERE book = ? AND term = ? AND derived_from IS NOT NULL", [book, term]
    )
    if derived:
        roots = term_section(db, book, term, derived[0]["derived_from"])
    else:
        roots = [
            r["target"]
            for r in db.query(
                "SELECT target FROM refs WHERE book = ? AND from_kind = 'term' AND from_id = ? AND target_kind = 'rule' "
                "AND outcome != 'dangling' ORDER BY rowid",
                [book, term],
            )
        ]
    out: list[dict] = []
    seen: set[str] = set()
    for i, root in enumerate(dict.fromkeys(roots)):
        rule = get(db, book, root)
        if rule is not None:
            _with_sub_rules(db, book, rule, 1 if derived and i else 0, out, seen)
    return out[:limit], max(0, len(out) - limit)


def term_section(db, book: str, term: str, number: str) -> list[str]:
    """The rules whose sub-rules say what a Riftbound term defined by rule ``number`` is: the heading
    that names the term over it (815 Tank over 815.1), or beside it with the siblings it heads up to
    the next heading (706 Mighty, then 707 to 711); else the rule itself."""
    root = _term_root(db, book, number, term)
    rule = get(db, book, root) if root != number else None
    if rule is None or not _is_heading(rule) or children(db, book, root):
        return [root]
    return [root] + [r["number"] for r in _headed(db, book, rule)]


_HEADING = "title IS NOT NULL AND title != '' AND (text IS NULL OR text = '')"  # as _is_heading says


def _term_root(db, book: str, number: str, term: str) -> str:
    """The rule a Riftbound term stands for: the heading that names it, over or beside the rule that
    defines it, else that rule."""
    rule = get(db, book, number)
    if rule is None:
        return number
    wanted = word_forms(term)
    parent = get(db, book, rule["parent"]) if rule["parent"] else None
    if parent is not None and parent["title"] and word_forms(parent["title"]) == wanted:
        return parent["number"]
    if not _is_heading(rule):  # the heading among its siblings above it (heading_of, one row read)
        above = db.query(
            f"SELECT number, title FROM rules WHERE book = ? AND parent IS ? AND sort < ? AND {_HEADING} "
            "ORDER BY sort DESC LIMIT 1",
            [book, rule["parent"], rule["sort"]],
        )
        if above and word_forms(above[0]["title"]) == wanted:
            return above[0]["number"]
    return number


def _headed(db, book: str, heading: dict) -> list[dict]:
    """The siblings after a Riftbound heading, up to the next heading: the rules it heads."""
    following = db.query(
        f"SELECT sort FROM rules WHERE book = ? AND parent IS ? AND sort > ? AND {_HEADING} ORDER BY sort LIMIT 1",
        [book, heading["parent"], heading["sort"]],
    )
    until = " AND sort < ?" if following else ""
    rows = db.query(
        f"SELECT {_COLUMNS} FROM rules WHERE book = ? AND parent IS ? AND sort > ?{until} ORDER BY sort",
        [book, heading["parent"], heading["sort"]] + ([following[0]["sort"]] if following else []),
    )
    return [_rule(row) for row in rows]


def _with_sub_rules(db, book: str, rule: dict, depth: int, out: list[dict], seen: set[str]) -> None:
    """``rule`` and every rule under it, in rule order (one query: the numbers that begin with its own)."""
    import re

    number = rule["number"]
    rows = db.query(
        "SELECT number, title, text FROM rules WHERE book = ? AND substr(number, 1, ?) = ? ORDER BY sort",
        [book, len(number), number],
    )
    levels = len(numbers.tokens(number))
    for row in [rule] + [r for r in rows if r["number"] != number and re.match(r"[.a-z]", r["number"][len(number)])]:
        if row["number"] in seen:
            continue
        seen.add(row["number"])
        out.append(
            {
                "number": row["number"],
                "title": row["title"],
                "text": row["text"] or "",
                "depth": depth + len(numbers.tokens(row["number"])) - levels,
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


def book_document(store, book_id: str) -> dict:
    """A whole book as JSON (``judge export json``, docs/json.md): rules in rule order, terms, rulings."""
    book = store.book(book_id)
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
_COLUMNS = "book, number, parent, title, text, examples, source, line, expected_children, sort"


@dataclass(frozen=True)
class RuleView:
    """A rule as a judge looks it up: where it sits (its ancestors, and in Riftbound the headings that
    group it), its text and examples, its sub-rules ``depth`` levels deep, what the loaded text lacks,
    what it cites and what cites it, the FAQ sections that revise it, and the rulings that rest on it
    (its own book's and its older editions', :mod:`rulebook.game_rulings`). Nested items are JSON-ready
    dicts; :meth:`to_json` gives docs/json.md's object."""

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
    rulings: list[dict] = field(default_factory=list)

    def to_json(self) -> dict:
        return {f.name: getattr(self, f.name) for f in fields(self)}


def rule_views(db, number: str, books: list[str], depth: int = 1) -> list[RuleView]:
    """The rule ``number`` (typed in either game's style) of each of ``books`` that has it, in ``books`` order."""
    return [rule_view(db, book, r, depth) for book, r in find(db, number, books)]


def _rule(row: dict) -> dict:
    row["text"] = row["text"] or ""
    row["examples"] = json.loads(row["examples"] or "[]")
    row["source"], row["line"] = row["source"] or "", row["line"] or 0
    return row


def get(db, book: str, number: str) -> dict | None:
    rows = db.query(f"SELECT {_COLUMNS} FROM rules WHERE book = ? AND number = ?", [book, number])
    return _rule(rows[0]) if rows else None


def find(db, text: str, books: list[str]) -> list[tuple[str, dict]]:
    """Each book's rule with this number, typed in either game's style, in ``books`` order; where the
    publisher printed the number twice, every rule printed so (``744.5``, then ``744.5-2``), in
    document order. A number typed with its ``-2`` finds that rule alone."""
    found: dict[str, list[dict]] = {}
    marks = ", ".join("?" * len(books))
    for candidate in numbers.candidates(text):  # a book answers to the first spelling it has
        rows = db.query(
            f"SELECT {_COLUMNS} FROM rules WHERE (number = ? OR number GLOB ? || '-[0-9]*') "
            f"AND book IN ({marks}) ORDER BY sort",
            [candidate, candidate, *books],
        )
        answered = set(found)
        for row in rows:
            if row["book"] not in answered:
                found.setdefault(row["book"], []).append(_rule(row))
    return [(b, r) for b in books for r in found.get(b, [])]


def children(db, book: str, number: str) -> list[dict]:
    return [
        _rule(r)
        for r in db.query(f"SELECT {_COLUMNS} FROM rules WHERE book = ? AND parent = ? ORDER BY sort", [book, number])
    ]


def ancestors(db, book: str, rule: dict) -> list[dict]:
    out: list[dict] = []
    parent = rule["parent"]
    while parent:
        found = get(db, book, parent)
        if found is None:
            break
        out.insert(0, found)
        parent = found["parent"]
    return out


def _brief(r: dict) -> dict:
    return {"number": r["number"], "title": r["title"], "text": r["text"]}


def _tree(db, book: str, number: str, depth: int) -> list[dict]:
    if depth <= 0:
        return []
    return [
        {
            "number": child["number"],
            "title": child["title"],
            "text": child["text"],
            "children": _tree(db, book, child["number"], depth - 1),
        }
        for child in children(db, book, number)
    ]


def _is_heading(r: dict) -> bool:
    return bool(r["title"]) and not r["text"]


def heading_of(db, book: str, rule: dict) -> dict | None:
    """Riftbound groups rules under heading rules that are their siblings (311 Priority and Focus
    heads 312 and 313); the breadcrumb shows that heading too."""
    if _is_heading(rule):
        return None
    rows = db.query(
        f"SELECT {_COLUMNS} FROM rules WHERE book = ? AND parent IS ? AND sort < ? ORDER BY sort DESC",
        [book, rule["parent"], rule["sort"]],
    )
    for row in rows:
        sibling = _rule(row)
        if _is_heading(sibling):
            return _brief(sibling)
    return None


def rule_view(db, book: str, r: dict, depth: int) -> RuleView:
    above = ancestors(db, book, r)
    ancestors_shown = [_brief(a) for a in above]
    game = db.query("SELECT game FROM books WHERE id = ?", [book])[0]["game"]
    if games.get(game).numbering.sibling_headings:
        with_headings: list[dict] = []
        for item in above + [r]:
            heading = heading_of(db, book, item) if item["parent"] else None
            if heading and heading not in with_headings:
                with_headings.append(heading)
            if item is not r:
                with_headings.append(_brief(item))
        ancestors_shown = with_headings
    present = db.query("SELECT count(*) AS n FROM rules WHERE book = ? AND parent = ?", [book, r["number"]])[0]["n"]
    expected = r["expected_children"]
    missing = max(0, expected - present) if expected is not None else 0
    return RuleView(
        book=book,
        number=r["number"],
        printed=numbers.printed(r["number"]),
        title=r["title"],
        text=r["text"],
        examples=r["examples"],
        parent=r["parent"],
        ancestors=ancestors_shown,
        children=_tree(db, book, r["number"], depth),
        missing_children=missing,
        expected_children=expected,
        source=r["source"],
        line=r["line"],
        cites=[_cite(db, book, c) for c in _cites(db, book, r["number"])],
        cited_by=[_cited_by(db, book, c) for c in _cited_by_rows(db, book, r["number"])],
        revised_by=revised_by(db, book, r["number"]),
        rulings=rulings_for_rule(db, book, r["number"], r["title"]),
    )


def rulings_for_rule(db, book: str, number: str, title: str | None) -> list[dict]:
    """The rulings that rest on the rule, the book's own and its older editions' (:mod:`rulebook.game_rulings`)."""
    if not db.query(
        "SELECT 1 FROM rulings JOIN books ON books.id = rulings.book "
        "WHERE books.game = (SELECT game FROM books WHERE id = ?) LIMIT 1",
        [book],
    ):
        return []  # no FAQ of the game is loaded (the mtg seed, the Comprehensive Rules)
    from rulebook.game_rulings import rulings_for_rule as found

    return found(db, book, number, title)


def revised_by(db, book: str, number: str) -> list[dict]:
    """The FAQ sections of the book that give this rule's revised text (``Rule 735.1.c (revised text)``)."""
    rows = db.query(
        "SELECT id, answer, faq, published, source, line FROM rulings WHERE book = ? AND revises_rule = ? "
        "ORDER BY published, rowid",
        [book, number],
    )
    return [
        {
            "ruling": row["id"],
            "faq": row["faq"],
            "published": row["published"],
            "text": row["answer"],
            "source": row["source"],
            "line": row["line"],
        }
        for row in rows
    ]


def _cites(db, book: str, number: str) -> list[dict]:
    return db.query(
        "SELECT DISTINCT target, target_kind, outcome, raw, cited_title, actual_title FROM refs "
        "WHERE book = ? AND from_kind = 'rule' AND from_id = ? AND target_kind != 'term' ORDER BY rowid",
        [book, number],
    )


def _cited_by_rows(db, book: str, number: str) -> list[dict]:
    return db.query(
        "SELECT DISTINCT from_kind, from_id FROM refs WHERE book = ? AND target = ? "
        "AND target_kind != 'term' ORDER BY rowid",
        [book, number],
    )


def _title(db, book: str, number: str) -> tuple[bool, str | None]:
    rows = db.query("SELECT title FROM rules WHERE book = ? AND number = ?", [book, number])
    return (True, rows[0]["title"]) if rows else (False, None)


def _cite(db, book: str, row: dict) -> dict:
    in_book, title = _title(db, book, row["target"])
    return {
        "number": row["target"],
        "title": title if in_book else row["cited_title"],
        "outcome": row["outcome"],
        "in_book": in_book,
    }


def _cited_by(db, book: str, row: dict) -> dict:
    if row["from_kind"] == "rule":
        return {"kind": "rule", "number": row["from_id"], "title": _title(db, book, row["from_id"])[1]}
    return {"kind": row["from_kind"], "number": row["from_id"], "title": None}


# ``judge rulings``: FAQ answers, the current one first (docs/json.md) ----------------------------------
_RULING_COLUMNS = ", ".join(
    f"rulings.{c}"
    for c in ("book", "id", "topic", "question", "answer", "source", "line", "form", "faq", "published", "revises_rule")
)


@dataclass(frozen=True)
class RulingView:
    """A ruling as a judge reads it: the question and whole answer, where it comes from (its book, that
    book's edition, and the book it is read in: a newer edition of its game, docs/decisions.md "Rulings
    stay with the game"), the rules it rests on as that book numbers them, and whether a later FAQ
    revised it (``superseded_by``) or it revises earlier ones (``revises``, ``revises_rule``)."""

    book: str
    id: str
    form: str
    topic: str | None
    question: str
    answer: str
    faq: str | None
    published: str | None
    source: str
    line: int | None
    score: float | None
    current: bool
    superseded_by: list[dict]
    revises: list[dict]
    revises_rule: str | None
    edition: str | None = None
    read_in: str | None = None
    cites: list[dict] = field(default_factory=list)

    def to_json(self) -> dict:
        return {f.name: getattr(self, f.name) for f in fields(self)}

    @property
    def carried(self) -> bool:
        """A ruling of an older edition's book, read in a newer one."""
        return self.read_in is not None and self.read_in != self.book


def ruling_views(store, found: list[tuple]) -> list[RulingView]:
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


def _ruling_brief(row: dict, book: str) -> dict:
    return {
        "book": book,
        "id": row["id"],
        "question": row["question"],
        "faq": row["faq"],
        "published": row["published"],
    }


def _ruling_view(store, book: str, ruling_id: str, score: float | None, reading) -> RulingView:
    from rulebook.game_rulings import brief

    row = store.query(
        f"SELECT {_RULING_COLUMNS} FROM rulings WHERE rulings.book = ? AND rulings.id = ?", [book, ruling_id]
    )[0]
    later = store.query(
        f"SELECT {_RULING_COLUMNS} FROM revisions JOIN rulings ON rulings.book = revisions.book AND rulings.id = revisions.ruling "
        "WHERE revisions.book = ? AND revisions.revises = ? ORDER BY rulings.rowid",
        [book, ruling_id],
    )
    earlier = store.query(
        f"SELECT {_RULING_COLUMNS} FROM revisions JOIN rulings ON rulings.book = revisions.book AND rulings.id = revisions.revises "
        "WHERE revisions.book = ? AND revisions.ruling = ? ORDER BY rulings.rowid",
        [book, ruling_id],
    )
    # Within its book (the revisions table), then across books (a newer edition's FAQ: rulebook.game_rulings).
    superseded_by = [_ruling_brief(r, book) for r in later] + [
        brief(store, b, i) for b, i in reading.superseded_by(book, ruling_id)
    ]
    revises = [_ruling_brief(r, book) for r in earlier] + [
        brief(store, b, i) for b, i in reading.revises(book, ruling_id)
    ]
    return RulingView(
        book=book,
        id=row["id"],
        form=row["form"],
        topic=row["topic"],
        question=row["question"],
        answer=row["answer"],
        faq=row["faq"],
        published=row["published"],
        source=row["source"],
        line=row["line"],
        score=score,
        current=not superseded_by,
        superseded_by=superseded_by,
        revises=revises,
        revises_rule=row["revises_rule"],
        edition=reading.editions.get(book),
        read_in=reading.book,
        cites=reading.cites(book, ruling_id),
    )


def _current_first(store, found: list[RulingView], reading) -> list[RulingView]:
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
def citation_trees(store, book: str, rule, depth: int = 1) -> dict:
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


def _citation_tree(store, book: str, number: str, depth: int, direction: str, seen: set[str]) -> list[dict]:
    if depth <= 0:
        return []
    rows = (
        store.cites(book, number)
        if direction == "cites"
        else [r for r in store.cited_by(book, number) if r["from_kind"] == "rule"]
    )
    out = []
    for row in rows:
        target = row["target"] if direction == "cites" else row["from_id"]
        if target in seen:
            continue
        seen.add(target)
        rule = store.rule(book, target)
        item = {"number": target, "title": rule.title if rule else None, "in_book": rule is not None}
        if direction == "cites":
            item["outcome"] = row["outcome"]
        item[direction] = _citation_tree(store, book, target, depth - 1, direction, seen) if rule else []
        out.append(item)
    return out
