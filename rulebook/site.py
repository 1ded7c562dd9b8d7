"""A static hyperlinked site of the loaded books (``judge site``): pages built as strings, no server.

:func:`build_site` reads the store and returns every file of the site as a :class:`SiteFile` (a path
relative to the site's folder and its text); :func:`write_site` writes them. Pages are plain HTML made
with :func:`html.escape`; the style sheet and the search script are ours, shipped in
``rulebook/site_assets/``; the search index is a script (``search-index.js``) so that a page opened
from the file system, where a browser refuses to fetch a local JSON file, still searches.

Layout: ``index.html`` (each book's contents), then per book ``BOOK/NNN.html`` (a section: the
three-digit rule and every rule under it, an anchor per rule), ``BOOK/glossary.html`` and
``BOOK/rulings.html``; ``diff/OLD--NEW.html`` for each two editions of a game that follow each other in
the site (``judge diff`` as release notes, linked both ways from the rules); with cards loaded, ``cards/GAME/NAME.html`` for each card of the books' games
(its text, each keyword linked to the rule that defines it in the site's book of its game, its rulings
and the loaded FAQs' rulings that name it).
"""

from __future__ import annotations

import json
import re
import unicodedata
from collections import defaultdict
from dataclasses import dataclass
from html import escape
from importlib.resources import files
from pathlib import Path
from typing import TYPE_CHECKING

from rulebook import numbers
from rulebook.cards.lookup import book_terms, faq_rulings, links
from rulebook.diff import diff_books
from rulebook.editions import default_book
from rulebook.game_rulings import rulings_under_rules
from rulebook.references import extract

if TYPE_CHECKING:
    from collections.abc import Collection, Iterable, Sequence

    from rulebook.cards.model import Card
    from rulebook.cards.store import CardStore
    from rulebook.diff import BookDiff
    from rulebook.model import Rule, Ruling, Term
    from rulebook.store import Store

ASSETS = ("site.css", "site.js")
CARDS_SHOWN = 12  # the cards named under a rule; the rest are on the rule's page of cards
# A word in more than this share of a book's rules finds nothing by itself ("the", "player"): left
# out of the search index, which it would only make larger.
COMMON_SHARE = 0.3
_WORD = re.compile(r"[a-z][a-z'’]+")
_NUMBER = re.compile(r"\d{1,3}(?:\.(?:\d+|[a-z]{1,2}))*(?:\d+)?[a-z]{0,2}")


@dataclass(frozen=True)
class SiteFile:
    path: str  # relative to the site's folder, with "/"
    text: str


@dataclass(frozen=True)
class Span:
    """A stretch of a text that becomes a link (``href``) or is marked missing (``href`` None)."""

    start: int
    end: int
    href: str | None
    note: str = ""


@dataclass(frozen=True)
class BookData:
    """What the pages of one book are made from, read once."""

    id: str
    game: str
    title: str
    edition: str | None
    rules: tuple[Rule, ...]
    terms: tuple[Term, ...]
    rulings: tuple[Ruling, ...]
    cited_by: dict[str, tuple[tuple[str, str], ...]]  # rule number -> (kind, id) of what cites it
    # rule number -> (book, id, question) of the rulings resting on it, the book's own and its older
    # editions' (rulebook.game_rulings.rulings_under_rules)
    rulings_of: dict[str, tuple[tuple[str, str, str], ...]]
    uses: dict[str, tuple[str, ...]]  # rule number -> the glossary terms its text uses
    child_counts: dict[str, int]


@dataclass(frozen=True)
class CardEntry:
    """A card as its page shows it: the site's book its keywords link into (None: no book of its game),
    those links (:func:`rulebook.cards.lookup.links`) and the FAQ rulings that name it."""

    card: Card
    book: str | None
    links: tuple[dict, ...]
    faq: tuple[dict, ...]


def read_cards(store: Store, cards: CardStore, book_ids: Sequence[str]) -> list[CardEntry]:
    """The cards of the games of ``book_ids``, in name order, each with its links into the game's default
    book when it is one of ``book_ids``, else the first of them of its game."""
    linked_to: dict[str, str] = {}
    for book in book_ids:
        game = store.game_of(book)
        default = default_book(store, game)
        linked_to.setdefault(game, default if default is not None and default in book_ids else book)
    out = []
    for game, book in linked_to.items():
        terms = book_terms(store, book)  # read once, not once a card
        for _, name in cards.names(game):
            card = cards.card(game, name)
            if card is not None:
                found = tuple(links(store, book, card, terms))
                out.append(CardEntry(card, book, found, tuple(faq_rulings(store, game, card))))
    return out


def card_path(card: Card) -> str:
    """A card's page, by its name in ASCII.

    >>> from types import SimpleNamespace as C
    >>> card_path(C(game="mtg", name="Fire // Ice")), card_path(C(game="mtg", name="Æther Vial"))
    ('cards/mtg/fire-ice.html', 'cards/mtg/aether-vial.html')
    """
    name = unicodedata.normalize("NFKD", card.name.replace("Æ", "Ae").replace("æ", "ae"))
    slug = re.sub(r"[^a-z0-9]+", "-", name.encode("ascii", "ignore").decode().lower()).strip("-") or "card"
    return f"cards/{book_dir(card.game)}/{slug}.html"


def page_key(number: str) -> str:
    """The page a rule is on: its first number (``702.19b`` is on 702, ``312.2.b.1`` on 312).

    >>> page_key("702.19b"), page_key("312.2.b.1"), page_key("744.5-2"), page_key("7")
    ('702', '312', '744', '7')
    """
    match = re.match(r"\d+", number)
    return match.group(0) if match else "other"


def book_dir(book_id: str) -> str:
    """A book's folder name: its id, with anything but letters, digits, ``.``, ``_`` and ``-`` replaced."""
    return re.sub(r"[^A-Za-z0-9._-]", "_", book_id) or "_"


def term_anchor(term: str) -> str:
    """A glossary entry's anchor.

    >>> term_anchor("State-Based Actions")
    'term-state-based-actions'
    """
    return "term-" + (re.sub(r"[^a-z0-9]+", "-", term.lower()).strip("-") or "x")


def ruling_anchor(ruling_id: str) -> str:
    return "ruling-" + re.sub(r"[^A-Za-z0-9._-]", "_", ruling_id)


def read_book(store: Store, book_id: str) -> BookData:
    book = store.book(book_id)
    assert book is not None, book_id  # a book the command chose among those loaded
    cited: dict[str, list[tuple[str, str]]] = defaultdict(list)
    for ref in store.refs(book_id):
        if ref["target_kind"] == "term":
            continue
        item = (ref["from_kind"], ref["from_id"])
        if item not in cited[ref["target"]]:
            cited[ref["target"]].append(item)
    under = rulings_under_rules(store, book_id)
    questions = {
        (b, r.id): r.question for b in {b for pairs in under.values() for b, _ in pairs} for r in store.ruling_rows(b)
    }
    uses: dict[str, list[str]] = defaultdict(list)
    for rule, term in store.uses(book_id):
        uses[rule].append(term)
    rules = tuple(store.rules(book_id))
    counts: dict[str, int] = defaultdict(int)
    for one in rules:
        if one.parent:
            counts[one.parent] += 1
    return BookData(
        id=book_id,
        game=book.game,
        title=book.title,
        edition=book.edition,
        rules=rules,
        terms=tuple(store.terms(book_id)),
        rulings=tuple(store.rulings(book_id)),
        cited_by={k: tuple(v) for k, v in cited.items()},
        rulings_of={k: tuple((b, i, questions[b, i]) for b, i in v) for k, v in under.items()},
        uses={k: tuple(v) for k, v in uses.items()},
        child_counts=dict(counts),
    )


def build_site(store: Store, book_ids: Sequence[str], cards: Sequence[CardEntry] = ()) -> list[SiteFile]:
    """Every file of the site of ``book_ids``: the index, each book's pages, the cards' pages, the search
    index, the assets."""
    books = [read_book(store, b) for b in book_ids]
    paths = _card_paths(cards)
    diffs = edition_diffs(store, books)
    out: list[SiteFile] = [SiteFile("index.html", index_page(books, cards, paths, diffs))]
    notes = diff_notes(diffs)
    ids = {b.id for b in books}
    under: dict[str, dict[str, list[tuple[str, str]]]] = defaultdict(lambda: defaultdict(list))
    for i, entry in enumerate(cards):
        for number in dict.fromkeys(link["rule"] for link in entry.links):
            if entry.book:
                under[entry.book][number].append((entry.card.name, paths[i]))
    for book in books:
        out.extend(book_pages(book, notes.get(book.id, {}), under.get(book.id), ids))
    out.extend(SiteFile(diff_path(d.old["book"], d.new["book"]), diff_page(d, ids)) for d in diffs)
    by_id = {b.id: b for b in books}
    labels = {b.id: {r.number: _short(_label(r), 60) for r in b.rules} for b in books}
    out.extend(
        SiteFile(paths[i], card_page(entry, by_id, labels.get(entry.book or "", {}))) for i, entry in enumerate(cards)
    )
    out.append(SiteFile("search-index.js", search_index(books, cards, paths)))
    out.extend(SiteFile(name, asset(name)) for name in ASSETS)
    return out


def write_site(site: Iterable[SiteFile], outdir: Path) -> int:
    """Write the files under ``outdir`` (made when absent); returns how many were written."""
    count = 0
    for item in site:
        path = outdir / item.path
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(item.text, encoding="utf-8")
        count += 1
    return count


def asset(name: str) -> str:
    return files("rulebook").joinpath("site_assets", name).read_text(encoding="utf-8")


# Links -----------------------------------------------------------------------------------------------
class Linker:
    """Where a rule, term or ruling of a book is, as a link from one of the book's pages."""

    def __init__(self, book: BookData):
        self.book = book
        self.numbers = {r.number for r in book.rules}
        self.terms = {t.term.lower(): t.term for t in book.terms}
        self.ruling_ids = {r.id for r in book.rulings}

    def rule(self, number: str) -> str | None:
        if number not in self.numbers:
            return None
        return f"{page_key(number)}.html#{escape(number)}"

    def term(self, term: str) -> str | None:
        found = self.terms.get(term.lower().strip())
        return f"glossary.html#{term_anchor(found)}" if found else None

    def ruling(self, ruling_id: str) -> str | None:
        return f"rulings.html#{ruling_anchor(ruling_id)}" if ruling_id in self.ruling_ids else None

    def spans(self, text: str, terms: Sequence[str] = ()) -> list[Span]:
        """The references ``text`` makes (rules, sections, glossary entries), each a link or marked
        missing, then the first mention of each of ``terms`` not already inside a reference."""
        found: list[Span] = []
        for raw in extract(text, self.book.game):
            if raw.kind == "term":
                at = text.find(raw.target, raw.start)
                if at >= 0:
                    href = self.term(raw.target)
                    found.append(Span(at, at + len(raw.target), href, "" if href else "not in the loaded glossary"))
                continue
            targets = [raw.target, raw.range_end] if raw.range_end else [raw.target]  # a range: its two ends
            at = raw.start
            for target in targets:
                match = _written(text, at, target, self.book.game)
                if match is None:
                    break
                href = self.rule(target)
                found.append(Span(match[0], match[1], href, "" if href else "not in the loaded text"))
                at = match[1]
        taken = [(s.start, s.end) for s in found]
        for term in terms:
            href = self.term(term)
            if href is None:
                continue
            for m in re.finditer(rf"\b{re.escape(term)}(?:s|es)?\b", text, re.IGNORECASE):
                if not any(a < m.end() and m.start() < b for a, b in taken):
                    found.append(Span(m.start(), m.end(), href))
                    taken.append(m.span())
                    break
        return sorted(found, key=lambda s: s.start)


def _written(text: str, start: int, target: str, game: str) -> tuple[int, int] | None:
    """Where ``target`` is written in ``text`` from ``start`` on (in any spelling of its game)."""
    for m in _NUMBER.finditer(text, start):
        written = m.group(0).rstrip(".")
        if numbers.canonical(written, game) == target or written == target:
            return m.start(), m.start() + len(written)
        if m.start() - start > 200:
            return None
    return None


def linked(text: str, spans: Sequence[Span]) -> str:
    """``text`` as HTML, each span a link (or marked missing)."""
    out, at = [], 0
    for span in spans:
        if span.start < at:
            continue
        out.append(escape(text[at : span.start]))
        shown = escape(text[span.start : span.end])
        if span.href:
            out.append(f'<a href="{span.href}">{shown}</a>')
        else:
            out.append(f'<span class="missing" title="{escape(span.note)}">{shown}</span>')
        at = span.end
    out.append(escape(text[at:]))
    return "".join(out)


# Pages -------------------------------------------------------------------------------------------------
def _head(title: str, style: str) -> str:
    """The start of every page, to its ``<head>``'s end: ``style`` is a link to the style sheet or the sheet."""
    return f"""<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{escape(title)}</title>
{style}
</head>
"""


def page(title: str, body: str, root: str, crumbs: str = "", *, standalone: bool = False) -> str:
    """A whole page: the header with the search box, the breadcrumb as navigation, the main part.
    ``standalone``: a page kept outside a site (``judge explain --format html``): the style sheet inlined,
    no search; its home link to ``root`` (a site's folder as a URL) when one is given."""
    if standalone:
        home = f'<header>\n<a class="home" href="{escape(root)}index.html">rules-judge</a>\n</header>\n' if root else ""
        return (
            _head(title, f"<style>\n{asset('site.css')}</style>")
            + f"""<body>
{home}<nav aria-label="Breadcrumb">{crumbs}</nav>
<main>
{body}
</main>
</body>
</html>
"""
        )
    return (
        _head(title, f'<link rel="stylesheet" href="{root}site.css">')
        + f"""<body data-root="{root}">
<header>
<a class="home" href="{root}index.html">rules-judge</a>
<form role="search" class="search" onsubmit="return false">
<label for="q">Search rules, words or numbers</label>
<input id="q" type="search" autocomplete="off" spellcheck="false" placeholder="702.19b, tramle, priority"
 role="combobox" aria-expanded="false" aria-controls="results" aria-autocomplete="list">
<ul id="results" role="listbox" aria-label="Search results" hidden></ul>
<p id="status" class="status" role="status" aria-live="polite"></p>
</form>
</header>
<nav aria-label="Breadcrumb">{crumbs}</nav>
<main>
{body}
</main>
<script src="{root}search-index.js"></script>
<script src="{root}site.js"></script>
</body>
</html>
"""
    )


def _label(rule: Rule) -> str:
    return rule.title or _short(rule.text)


def _short(text: str, size: int = 80) -> str:
    return text if len(text) <= size else text[: size - 1].rstrip() + "…"


def _card_paths(cards: Sequence[CardEntry]) -> list[str]:
    """Each card's page, two cards whose names make the same file name told apart by a number."""
    out, taken = [], set()
    for entry in cards:
        path = card_path(entry.card)
        n = 2
        while path in taken:
            path = card_path(entry.card).removesuffix(".html") + f"-{n}.html"
            n += 1
        taken.add(path)
        out.append(path)
    return out


def index_page(
    books: Sequence[BookData],
    cards: Sequence[CardEntry] = (),
    paths: Sequence[str] = (),
    diffs: Sequence[BookDiff] = (),
) -> str:
    parts = ["<h1>The rule books</h1>"]
    for book in books:
        where = book_dir(book.id)
        edition = f", edition {escape(book.edition)}" if book.edition else ""
        parts.append(f'<section class="book" aria-labelledby="book-{where}">')
        parts.append(f'<h2 id="book-{where}">{escape(book.title)} <small>({escape(book.id)}{edition})</small></h2>')
        parts.append(_contents(book, f"{where}/"))
        extra = []
        if book.terms:
            extra.append(f'<a href="{where}/glossary.html">Glossary</a> ({len(book.terms)} terms)')
        if book.rulings:
            extra.append(f'<a href="{where}/rulings.html">Rulings</a> ({len(book.rulings)})')
        if extra:
            parts.append("<p>" + " · ".join(extra) + "</p>")
        parts.append("</section>")
    if diffs:
        parts.append('<section aria-labelledby="changes"><h2 id="changes">What changed between editions</h2><ul>')
        parts.extend(
            f'<li><a href="{diff_path(d.old["book"], d.new["book"])}">{escape(d.old["book"])} to '
            f"{escape(d.new['book'])}</a></li>"
            for d in diffs
        )
        parts.append("</ul></section>")
    if cards:
        parts.append('<section class="cards" aria-labelledby="cards"><h2 id="cards">Cards</h2>')
        parts.append(f'<p>{len(cards)} cards: find one by name with the search box.</p><ul class="card-list">')
        parts.extend(f'<li><a href="{p}">{escape(e.card.name)}</a></li>' for e, p in zip(cards, paths))
        parts.append("</ul></section>")
    return page("rules-judge: the rule books", "\n".join(parts), "", "Books")


def _pages(book: BookData) -> dict[str, list[Rule]]:
    pages: dict[str, list[Rule]] = {}
    for rule in book.rules:
        pages.setdefault(page_key(rule.number), []).append(rule)
    return pages


def _contents(book: BookData, prefix: str) -> str:
    """The book's sections as nested lists: a section under the section its first rule's parent is on."""
    pages = _pages(book)
    under: dict[str | None, list[str]] = defaultdict(list)
    for key, rules in pages.items():
        head = rules[0]
        above = page_key(head.parent) if head.parent and head.number == key else None
        under[above if above in pages and above != key else None].append(key)

    def items(parent: str | None) -> str:
        rows = []
        for key in under.get(parent, []):
            head = pages[key][0]
            label = _label(head) if head.number == key else f"{head.number} …"
            rows.append(
                f'<li><a href="{prefix}{key}.html">{escape(key)}</a> {escape(label)}{items(key)}</li>'
                if head.number == key
                else f'<li><a href="{prefix}{key}.html">{escape(key)}</a> <span class="missing">(not in the loaded text; from {escape(head.number)})</span>{items(key)}</li>'
            )
        return "<ul>" + "".join(rows) + "</ul>" if rows else ""

    return items(None)


def cards_page(number: str) -> str:
    """The page, in its book's folder, naming every card whose keyword rule ``number`` is."""
    return f"cards-{number}.html"


def book_pages(
    book: BookData,
    notes: dict[str, list[str]] | None = None,
    cards: dict[str, list[tuple[str, str]]] | None = None,
    in_site: Collection[str] = (),
) -> list[SiteFile]:
    """The book's section pages, glossary and rulings; ``notes``: HTML said under a rule, by number (what
    an edition compared with it changed, :func:`diff_notes`); ``cards``: (name, path) of the cards whose
    keywords link to a rule, by number; ``in_site``: the ids of the site's books."""
    notes = notes or {}
    cards = cards or {}
    links = Linker(book)
    where = book_dir(book.id)
    crumbs_book = f'<a href="../index.html">Books</a> › <a href="../index.html#book-{where}">{escape(book.id)}</a>'
    out = []
    pages = _pages(book)
    keys = list(pages)
    for i, (key, rules) in enumerate(pages.items()):
        head = rules[0]
        title = f"{key} {_label(head)}" if head.number == key else f"{key} (from {head.number})"
        parts = [f"<h1>{escape(title)}</h1>"]
        if head.number != key:
            parts.append(f'<p class="missing">Rule {escape(key)} itself is not in the loaded text.</p>')
        for rule in rules:
            parts.append(
                _rule_html(book, links, rule, key, notes.get(rule.number, ()), cards.get(rule.number, ()), in_site)
            )
        below = [k for k in keys if k != key and pages[k][0].number == k and page_key(pages[k][0].parent or "") == key]
        if below:
            parts.append('<section aria-labelledby="below"><h2 id="below">Sections</h2><ul>')
            parts.extend(f'<li><a href="{k}.html">{escape(k)}</a> {escape(_label(pages[k][0]))}</li>' for k in below)
            parts.append("</ul></section>")
        step = []
        if i > 0:
            step.append(f'<a rel="prev" href="{keys[i - 1]}.html">← {escape(keys[i - 1])}</a>')
        if i + 1 < len(keys):
            step.append(f'<a rel="next" href="{keys[i + 1]}.html">{escape(keys[i + 1])} →</a>')
        parts.append('<p class="steps">' + " ".join(step) + "</p>")
        out.append(
            SiteFile(
                f"{where}/{key}.html",
                page(f"{title} · {book.id}", "\n".join(parts), "../", f"{crumbs_book} › {escape(key)}"),
            )
        )
    labels = {r.number: _label(r) for r in book.rules}
    for number, named in cards.items():
        if len(named) > CARDS_SHOWN and number in labels:
            title = f"Cards under {number} {labels[number]}"
            body = f"<h1>{escape(title)}</h1><ul>" + "".join(
                f'<li><a href="../{path}">{escape(name)}</a></li>' for name, path in named
            )
            body += f'</ul><p><a href="{page_key(number)}.html#{escape(number)}">Back to {escape(number)}</a></p>'
            crumbs = f"{crumbs_book} › {escape(number)} cards"
            out.append(SiteFile(f"{where}/{cards_page(number)}", page(f"{title} · {book.id}", body, "../", crumbs)))
    if book.terms:
        out.append(SiteFile(f"{where}/glossary.html", _glossary(book, links, crumbs_book)))
    if book.rulings:
        out.append(SiteFile(f"{where}/rulings.html", _rulings(book, links, crumbs_book)))
    return out


def _rule_html(
    book: BookData,
    links: Linker,
    rule: Rule,
    key: str,
    notes: Sequence[str] = (),
    cards: Sequence[tuple[str, str]] = (),
    in_site: Collection[str] = (),
) -> str:
    """A rule's article; ``cards``: (name, path) of the cards whose keywords it defines; ``in_site``: the
    ids of the site's books (an older edition's ruling is a link when its book is one of them)."""
    number = escape(rule.number)
    level = min(numbers.depth(rule.number) - numbers.depth(key), 5)
    terms = book.uses.get(rule.number, ())
    heading = f'<a class="num" href="#{number}">{number}</a>'
    if rule.title:
        heading += f" {escape(rule.title)}"
    tag = "h2" if level == 1 else "p"
    parts = [f'<article class="rule d{max(level, 0)}" id="{number}">']
    if rule.title and level <= 1 and rule.number != key:
        parts.append(f'<{tag} class="head">{heading}</{tag}>')
        if rule.text:
            parts.append(f'<p class="text">{linked(rule.text, links.spans(rule.text, terms))}</p>')
    elif rule.number == key:
        parts.append(f'<p class="text">{heading}')
        if rule.text:
            parts.append(f" {linked(rule.text, links.spans(rule.text, terms))}")
        parts.append("</p>")
    else:
        text = linked(rule.text, links.spans(rule.text, terms))
        parts.append(f'<p class="text">{heading} {text}</p>')
    for example in rule.examples:
        parts.append(f'<p class="example">{linked(example, links.spans(example))}</p>')
    if rule.expected_children is not None:
        missing = rule.expected_children - book.child_counts.get(rule.number, 0)
        if missing > 0:
            parts.append(
                f'<p class="missing">{missing} sub-rule{"s" if missing != 1 else ""} of {number} '
                f"{'are' if missing != 1 else 'is'} not in the loaded text (the outline lists {rule.expected_children}).</p>"
            )
    citing = book.cited_by.get(rule.number, ())
    if citing:
        shown = [_citer(links, kind, ident) for kind, ident in citing if kind != "ruling"]
        if shown:
            parts.append('<p class="cited-by"><span class="label">Cited by:</span> ' + ", ".join(shown) + "</p>")
    resting = book.rulings_of.get(rule.number, ())
    if resting:
        items = []
        for ruling_book, ident, question in resting:
            said = escape(_short(question, 120))
            if ruling_book != book.id:
                said += f' <small class="book">({escape(ruling_book)})</small>'
            if ruling_book == book.id or ruling_book in in_site:
                where = "" if ruling_book == book.id else f"../{book_dir(ruling_book)}/"
                said = f'<a href="{where}rulings.html#{ruling_anchor(ident)}">{said}</a>'
            items.append(f"<li>{said}</li>")
        parts.append('<div class="rulings"><span class="label">Rulings:</span><ul>' + "".join(items) + "</ul></div>")
    if cards:
        shown_cards = ", ".join(f'<a href="../{path}">{escape(name)}</a>' for name, path in cards[:CARDS_SHOWN])
        more = ""
        if len(cards) > CARDS_SHOWN:
            more = f' … <a href="{cards_page(rule.number)}">all {len(cards)} cards</a>'
        parts.append(f'<p class="cards"><span class="label">Cards:</span> {shown_cards}{more}</p>')
    parts.extend(f'<p class="changed">{note}</p>' for note in notes)
    parts.append("</article>")
    return "".join(parts)


def _citer(links: Linker, kind: str, ident: str) -> str:
    href = links.rule(ident) if kind == "rule" else links.term(ident) if kind == "term" else links.ruling(ident)
    shown = escape(ident if kind == "rule" else f"{ident} (glossary)" if kind == "term" else ident)
    return f'<a href="{href}">{shown}</a>' if href else shown


def _glossary(book: BookData, links: Linker, crumbs: str) -> str:
    parts = [f"<h1>Glossary · {escape(book.id)}</h1>", "<dl>"]
    for term in book.terms:
        source = ""
        if term.source.startswith("rule "):
            href = links.rule(term.source[5:])
            if href:
                source = f' <a class="source" href="{href}">(rule {escape(term.source[5:])})</a>'
        obsolete = " <small>(obsolete)</small>" if term.obsolete else ""
        parts.append(f'<dt id="{term_anchor(term.term)}">{escape(term.term)}{obsolete}</dt>')
        parts.append(f"<dd>{linked(term.definition, links.spans(term.definition))}{source}</dd>")
    parts.append("</dl>")
    return page(f"Glossary · {book.id}", "\n".join(parts), "../", f"{crumbs} › glossary")


def _rulings(book: BookData, links: Linker, crumbs: str) -> str:
    parts = [f"<h1>Rulings · {escape(book.id)}</h1>"]
    for ruling in book.rulings:
        where = " · ".join(escape(p) for p in (ruling.faq, ruling.published, ruling.topic) if p)
        parts.append(f'<article class="ruling" id="{ruling_anchor(ruling.id)}">')
        parts.append(f"<h2>{linked(ruling.question, links.spans(ruling.question))}</h2>")
        if where:
            parts.append(f'<p class="where">{where}</p>')
        parts.append(f'<p class="answer">{linked(ruling.answer, links.spans(ruling.answer))}</p>')
        parts.append("</article>")
    return page(f"Rulings · {book.id}", "\n".join(parts), "../", f"{crumbs} › rulings")


def card_page(entry: CardEntry, books: dict[str, BookData], rules: dict[str, str]) -> str:
    """A card's page; ``rules``: the labels of the rules of the book its keywords link into, by number."""
    card = entry.card
    root = "../../"
    where = book_dir(entry.book) if entry.book else None

    def rule_href(number: str) -> str | None:
        return f"{root}{where}/{page_key(number)}.html#{escape(number)}" if number in rules else None

    parts = [f"<h1>{escape(card.name)}</h1>"]
    for face in card.faces:
        if len(card.faces) > 1:
            parts.append(f"<h2>{escape(face.name)}</h2>")
        head = " · ".join(escape(p) for p in (face.cost, face.type_line) if p)
        stats = "/".join(p for p in (face.power, face.toughness) if p) or face.might or face.loyalty
        parts.append(f'<p class="type">{head}{" · " + escape(stats) if stats else ""}</p>')
        spans = []
        taken: list[tuple[int, int]] = []
        for link in entry.links:
            href = rule_href(link["rule"])
            m = re.search(rf"(?<!\w){re.escape(link['word'])}(?!\w)", face.text, re.IGNORECASE) if href else None
            if m and not any(a < m.end() and m.start() < b for a, b in taken):
                spans.append(Span(m.start(), m.end(), href))
                taken.append(m.span())
        text = linked(face.text, sorted(spans, key=lambda x: x.start))
        parts.append('<p class="card-text">' + text.replace("\n", "<br>") + "</p>")
    shown = [(link, rule_href(link["rule"])) for link in entry.links]
    if any(href for _, href in shown):
        parts.append('<section aria-labelledby="rules"><h2 id="rules">Rules</h2><ul>')
        parts.extend(
            f'<li>{escape(link["word"])}: <a href="{href}">{escape(link["rule"])} {escape(rules[link["rule"]])}</a></li>'
            for link, href in shown
            if href
        )
        parts.append("</ul></section>")
    if card.rulings:
        parts.append('<section aria-labelledby="card-rulings"><h2 id="card-rulings">Rulings</h2><ul>')
        parts.extend(
            f"<li>{escape(r.date or '')} {escape(r.text)} <small>({escape(r.source)})</small></li>"
            for r in card.rulings
        )
        parts.append("</ul></section>")
    if entry.faq:
        parts.append('<section aria-labelledby="faq"><h2 id="faq">FAQ rulings naming it</h2>')
        for r in entry.faq:
            book = books.get(r["book"])
            ids = {x.id for x in book.rulings} if book else set()
            question = escape(r["question"])
            if r["id"] in ids:
                question = f'<a href="{root}{book_dir(r["book"])}/rulings.html#{ruling_anchor(r["id"])}">{question}</a>'
            parts.append(f'<p class="question">{question}</p><p class="answer">{escape(r["answer"])}</p>')
        parts.append("</section>")
    crumbs = f'<a href="{root}index.html">Books</a> › <a href="{root}index.html#cards">cards</a> › {escape(card.name)}'
    return page(f"{card.name} · {card.game}", "\n".join(parts), root, crumbs)


# Editions compared ------------------------------------------------------------------------------------
def edition_diffs(store: Store, books: Sequence[BookData]) -> list[BookDiff]:
    """``judge diff`` (:func:`rulebook.diff.diff_books`) of each two whole editions of a game that follow
    each other in the site, by edition (an excerpt is left out: most of a book is outside it)."""
    whole: dict[str, list[BookData]] = defaultdict(list)
    for book in books:
        if not store.is_partial(book.id):
            whole[book.game].append(book)
    out: list[BookDiff] = []
    for editions in whole.values():
        editions.sort(key=lambda b: b.edition or "")
        out.extend(diff_books(store, a.id, b.id) for a, b in zip(editions, editions[1:]))
    return out


def diff_path(old: str, new: str) -> str:
    return f"diff/{book_dir(old)}--{book_dir(new)}.html"


def diff_notes(diffs: Sequence[BookDiff]) -> dict[str, dict[str, list[str]]]:
    """``{book: {number: [HTML]}}``: under each rule of the newer book what it was in the older, and
    under each rule of the older what became of it, each a link to its line on the diff page."""
    out: dict[str, dict[str, list[str]]] = defaultdict(lambda: defaultdict(list))
    for d in diffs:
        old, new = d.old["book"], d.new["book"]
        page = "../" + diff_path(old, new)
        for r in d.added:
            out[new][r["number"]].append(
                f'New in {escape(new)}: <a href="{page}#new-{escape(r["number"])}">not in {escape(old)}</a>'
            )
        for r in d.removed:
            out[old][r["number"]].append(f'<a href="{page}#old-{escape(r["number"])}">Removed in {escape(new)}</a>')
        for r in d.changed:
            n = escape(r["number"])
            out[new][r["number"]].append(f'<a href="{page}#new-{n}">Reworded since {escape(old)}</a>')
            out[old][r["number"]].append(f'<a href="{page}#new-{n}">Reworded in {escape(new)}</a>')
        for r in d.renumbered:
            a, b = escape(r["old"]), escape(r["new"])
            how = "and reworded " if r["changed"] else ""
            out[new][r["new"]].append(f'<a href="{page}#new-{b}">Was {a} in {escape(old)}</a> ({how}renumbered)')
            out[old][r["old"]].append(f'<a href="{page}#new-{b}">Is {b} in {escape(new)}</a> ({how}renumbered)')
    return out


def _word_diff(marked: str) -> str:
    """``judge diff``'s word diff (``[-old-]{+new+}``) as HTML ``del`` and ``ins``."""
    text = escape(marked)
    text = re.sub(r"\[-(.*?)-\]", r"<del>\1</del>", text, flags=re.S)
    return re.sub(r"\{\+(.*?)\+\}", r"<ins>\1</ins>", text, flags=re.S)


def diff_page(d: BookDiff, in_site: set[str]) -> str:
    old, new = d.old["book"], d.new["book"]

    def rule(book: str, number: str) -> str:
        if book not in in_site:
            return escape(number)
        return f'<a href="../{book_dir(book)}/{page_key(number)}.html#{escape(number)}">{escape(number)}</a>'

    parts = [f"<h1>What changed from {escape(old)} to {escape(new)}</h1>"]
    parts.append(
        f"<p>{len(d.added)} rules added, {len(d.removed)} removed, {len(d.changed)} reworded, "
        f"{len(d.renumbered)} renumbered, {d.unchanged} unchanged.</p>"
    )
    parts.append('<section aria-labelledby="added"><h2 id="added">Added</h2><ul>')
    parts.extend(
        f'<li id="new-{escape(r["number"])}">{rule(new, r["number"])} {escape(_short(r["text"], 160))}</li>'
        for r in d.added
    )
    parts.append('</ul></section><section aria-labelledby="removed"><h2 id="removed">Removed</h2><ul>')
    parts.extend(
        f'<li id="old-{escape(r["number"])}">{rule(old, r["number"])} {escape(_short(r["text"], 160))}</li>'
        for r in d.removed
    )
    parts.append('</ul></section><section aria-labelledby="reworded"><h2 id="reworded">Reworded</h2><ul>')
    parts.extend(
        f'<li id="new-{escape(r["number"])}">{rule(new, r["number"])} {_word_diff(r["diff"])}</li>' for r in d.changed
    )
    parts.append('</ul></section><section aria-labelledby="renumbered"><h2 id="renumbered">Renumbered</h2><ul>')
    for r in d.renumbered:
        said = _word_diff(r["diff"]) if r["changed"] else escape(_short(r.get("text") or "", 120))
        parts.append(f'<li id="new-{escape(r["new"])}">{rule(old, r["old"])} → {rule(new, r["new"])} {said}</li>')
    parts.append("</ul></section>")
    crumbs = f'<a href="../index.html">Books</a> › <a href="../index.html#changes">changes</a> › {escape(old)} to {escape(new)}'
    return page(f"{old} to {new}", "\n".join(parts), "../", crumbs)


# Search ------------------------------------------------------------------------------------------------
def search_index(books: Sequence[BookData], cards: Sequence[CardEntry] = (), paths: Sequence[str] = ()) -> str:
    """``search-index.js``: the rules (book, number, link, label), each word of their text with the
    rules it is in (a word in more than :data:`COMMON_SHARE` of a book's rules left out), and the cards
    (name, link, game)."""
    rules: list[list] = []
    words: dict[str, list[int]] = defaultdict(list)
    for b, book in enumerate(books):
        where = book_dir(book.id)
        mine: dict[str, list[int]] = defaultdict(list)
        for rule in book.rules:
            i = len(rules)
            rules.append([b, rule.number, f"{where}/{page_key(rule.number)}.html#{rule.number}", _short(_label(rule))])
            for word in set(_WORD.findall(f"{rule.title or ''} {rule.text}".lower())):
                if len(word) >= 3:
                    mine[word].append(i)
        limit = max(COMMON_SHARE * len(book.rules), 5)
        for word, found in mine.items():
            if len(found) <= limit:
                words[word].extend(found)
    index = {
        "books": [{"id": b.id, "title": b.title} for b in books],
        "rules": rules,
        "words": dict(sorted(words.items())),
        "cards": [[e.card.name, p, e.card.game] for e, p in zip(cards, paths)],
    }
    return INDEX_START + json.dumps(index, ensure_ascii=False, separators=(",", ":")) + ";\n"


INDEX_START = "window.JUDGE_INDEX = "


def card_pages(index: str) -> dict[tuple[str, str], str]:
    """``{(game, name): page}`` of the cards of a site, read from its ``search-index.js`` (``index``): a
    name two cards share as ASCII has its page numbered (``-2``), so a page is found here, not guessed."""
    cards = json.loads(index.removeprefix(INDEX_START).rstrip().removesuffix(";"))["cards"]
    return {(game, name): path for name, path, game in cards}
