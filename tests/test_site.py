"""``judge site``: the static site of the seed books, its links, anchors, search index and pages."""

from __future__ import annotations

import json
import re
from html.parser import HTMLParser
from pathlib import Path

import pytest


class _Page(HTMLParser):
    """The ids, links, scripts and style sheets of one page, and its landmarks and headings."""

    def __init__(self) -> None:
        super().__init__()
        self.ids: set[str] = set()
        self.links: list[str] = []
        self.tags: list[str] = []
        self.headings: list[int] = []
        self.labels: set[str] = set()
        self.viewport = False

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        self.tags.append(tag)
        if a.get("id"):
            self.ids.add(a["id"])
        for key in ("href", "src"):
            if a.get(key):
                self.links.append(a[key])
        if re.fullmatch(r"h[1-6]", tag):
            self.headings.append(int(tag[1]))
        if tag == "label" and a.get("for"):
            self.labels.add(a["for"])
        if tag == "meta" and a.get("name") == "viewport":
            self.viewport = True


@pytest.fixture(scope="module")
def site(tmp_path_factory, session_home) -> Path:
    from tests.conftest import judge_in

    out = tmp_path_factory.mktemp("site") / "out"
    code, stdout, stderr = judge_in(session_home, "site", out)
    assert code == 0, stderr
    assert stdout.startswith("wrote ") and "riftbound, mtg" in stdout
    return out


def _parse(path: Path) -> _Page:
    page = _Page()
    page.feed(path.read_text(encoding="utf-8"))
    return page


def _pages(site: Path) -> dict[Path, _Page]:
    return {p: _parse(p) for p in sorted(site.rglob("*.html"))}


def _links_resolve(site: Path) -> None:
    """Every link of every page names a file of the site, and an anchor that page has."""
    pages = _pages(site)
    for path, page in pages.items():
        for link in page.links:
            assert not re.match(r"[a-z]+:", link), (path, link)  # nothing fetched, nothing outside the site
            target, _, anchor = link.partition("#")
            resolved = (path.parent / target).resolve() if target else path
            assert resolved.exists(), (path, link)
            if anchor:
                assert anchor in pages[resolved].ids, (path, link)


def test_pages_exist_a_page_per_section_and_an_anchor_per_rule(site, home):
    from judge.books import open_store

    assert (site / "index.html").exists()
    for name in ("site.css", "site.js", "search-index.js", "mtg/glossary.html", "riftbound/rulings.html"):
        assert (site / name).exists(), name
    store = open_store()
    for book in ("riftbound", "mtg"):
        for number in store.rule_numbers(book):
            page = site / book / f"{re.match(r'[0-9]+', number).group(0)}.html"
            assert number in _parse(page).ids, (book, number)
    # a page per three-digit rule: 312 holds 312 and its sub-rules, never the whole of 300
    ids = _parse(site / "riftbound" / "312.html").ids
    assert {"312", "312.1", "312.2.b"} <= ids and "313" not in ids
    index = (site / "index.html").read_text(encoding="utf-8")
    assert 'href="riftbound/312.html"' in index and 'href="mtg/302.html"' in index


def test_a_reference_links_to_its_rule_and_the_target_lists_it_under_cited_by(site):
    page = (site / "riftbound" / "313.html").read_text(encoding="utf-8")
    rule = re.search(r'<article[^>]*id="313.1".*?</article>', page, re.S).group(0)
    assert 'See rule <a href="307.html#307">307</a>' in rule
    target = (site / "riftbound" / "307.html").read_text(encoding="utf-8")
    cited = re.search(r'<article[^>]*id="307".*?</article>', target, re.S).group(0)
    assert re.search(r'class="cited-by">.*Cited by:.*<a href="313.html#313.1">313.1</a>', cited)


def test_missing_rules_and_references_are_shown_missing(site):
    page = (site / "riftbound" / "316.html").read_text(encoding="utf-8")
    assert "6 sub-rules of 316 are not in the loaded text (the outline lists 6)." in page
    mtg = (site / "mtg" / "300.html").read_text(encoding="utf-8")
    assert '<span class="missing" title="not in the loaded text">314.2</span>' in mtg
    assert "Rule 300 itself is not in the loaded text." in mtg


def test_glossary_terms_are_linked_where_rules_use_them(site):
    page = (site / "riftbound" / "312.html").read_text(encoding="utf-8")
    assert '<a href="glossary.html#term-priority">Priority</a>' in page
    assert "term-priority" in _parse(site / "riftbound" / "glossary.html").ids


def test_the_search_index_has_rule_numbers_and_words(site):
    text = (site / "search-index.js").read_text(encoding="utf-8")
    assert text.startswith("window.JUDGE_INDEX = ") and text.rstrip().endswith(";")
    index = json.loads(text[len("window.JUDGE_INDEX = ") :].rstrip().rstrip(";"))
    numbers = {(index["books"][b]["id"], n): href for b, n, href, _ in index["rules"]}
    assert numbers[("riftbound", "312.2.b")] == "riftbound/312.html#312.2.b"
    assert ("mtg", "302.1") in numbers
    showdown = index["words"]["showdown"]
    assert any(index["rules"][i][1] == "312.2.b" for i in showdown)


def test_every_internal_link_resolves_to_a_file_and_an_anchor(site):
    assert len(_pages(site)) > 100
    _links_resolve(site)


def test_no_url_in_any_generated_file_but_the_books_own_text(site, home):
    from judge.books import open_store

    store = open_store()
    books_text = (
        " ".join(r.text + " ".join(r.examples) for b in ("riftbound", "mtg") for r in store.rules(b))
        + " ".join(t.definition for b in ("riftbound", "mtg") for t in store.terms(b))
        + " ".join(r.question + r.answer for r in store.rulings("riftbound"))
    )
    for path in site.rglob("*"):
        if path.is_file():
            for url in re.findall(r"https?://[^\s\"'<>]+", path.read_text(encoding="utf-8")):
                assert url in books_text, (path, url)


def test_pages_are_for_phones_print_dark_mode_and_accessible(site):
    css = (site / "site.css").read_text(encoding="utf-8")
    assert "@media print" in css and "prefers-color-scheme: dark" in css
    for path, page in _pages(site).items():
        assert page.viewport, path
        assert {"header", "nav", "main"} <= set(page.tags), path
        assert page.headings[0] == 1 and page.headings.count(1) == 1, path
        assert all(b - a <= 1 for a, b in zip(page.headings, page.headings[1:])), path
        assert "q" in page.labels, path


def test_one_book_and_bad_input(judge, home, tmp_path):
    code, out, _ = judge("site", tmp_path / "one", "--book", "mtg", "--json")
    assert code == 0
    told = json.loads(out)
    assert set(told) == {"outdir", "books", "pages", "cards", "files", "index"} and told["books"] == ["mtg"]
    assert not (tmp_path / "one" / "riftbound").exists()
    code, _, err = judge("site", tmp_path / "two", "--book", "nosuch")
    assert code == 2 and len(err.strip().splitlines()) <= 2 and "Traceback" not in err
    afile = tmp_path / "a-file"
    afile.write_text("x")
    code, _, err = judge("site", afile)
    assert code == 2 and err.startswith("judge: ") and "is a file" in err
    code, _, err = judge("site", afile / "inside")
    assert code == 2 and err.startswith("judge: cannot write the site into ") and "Traceback" not in err


# The search script run by Node on a stand-in for the page's three elements: the browser tests
# (Playwright) drive the real page; this holds the search's logic where Node alone is installed.
_HARNESS = r"""
const fs = require("fs"), vm = require("vm");
const [site, root, ...queries] = process.argv.slice(2);
function el(id) {
  return { id, children: [], attrs: {}, hidden: true, value: "", listeners: {}, textContent: "",
    set innerHTML(v) { this.children = []; }, appendChild(c) { this.children.push(c); },
    setAttribute(k, v) { this.attrs[k] = v; }, getAttribute(k) { return this.attrs[k]; },
    removeAttribute(k) { delete this.attrs[k]; }, addEventListener(k, f) { this.listeners[k] = f; },
    querySelectorAll(sel) { return sel === "li a" ? this.children.map(c => c.children[0]) : this.children; } };
}
const nodes = { q: el("q"), results: el("results"), status: el("status") };
const document = { getElementById: id => nodes[id], body: { getAttribute: () => root },
  createElement: tag => el(tag), addEventListener() {} };
const context = { window: {}, document };
vm.createContext(context);
vm.runInContext(fs.readFileSync(site + "/search-index.js", "utf8"), context);
vm.runInContext(fs.readFileSync(site + "/site.js", "utf8"), context);
const out = {};
for (const q of queries) {
  nodes.q.value = q;
  nodes.q.listeners.input();
  out[q] = { hrefs: nodes.results.children.map(c => c.children[0].href), status: nodes.status.textContent };
}
console.log(JSON.stringify(out));
"""


def test_the_search_script_finds_a_rule_by_number_and_by_a_misspelt_word(site, tmp_path):
    import shutil
    import subprocess

    node = shutil.which("node") or shutil.which("nodejs")
    if node is None:
        pytest.skip("node is not installed: the search script is run by the browser tests alone")
    harness = tmp_path / "harness.js"
    harness.write_text(_HARNESS, encoding="utf-8")
    queries = ["312.2b", "302.1", "showdwn", "prority focus", "a", ""]
    ran = subprocess.run([node, harness, site, "../", *queries], capture_output=True, text=True, timeout=60)
    assert ran.returncode == 0, ran.stderr
    found = json.loads(ran.stdout)
    assert found["312.2b"]["hrefs"] == ["../riftbound/312.html#312.2.b"]
    assert found["302.1"]["hrefs"] == ["../mtg/302.html#302.1"]
    assert found["showdwn"]["status"].startswith("showing results for showdown: ")
    assert "../riftbound/338.html#338" in found["showdwn"]["hrefs"]
    assert found["prority focus"]["hrefs"][0] == "../riftbound/311.html#311"  # 311 Priority and Focus
    assert found["a"] == {"hrefs": [], "status": "nothing found"} and found[""] == {"hrefs": [], "status": ""}


def test_a_page_per_card_with_its_keywords_linked_and_the_search_finds_it_by_name(judge, fresh_home, tmp_path):
    from tests.conftest import REPO

    cards = REPO / "tests" / "data" / "cards" / "invented-scryfall.json"
    assert judge("load", cards)[0] == 0
    code, out, err = judge("site", tmp_path / "site", "--book", "mtg", "--json")
    assert code == 0, err
    told = json.loads(out)
    assert told["cards"] >= 2
    site = tmp_path / "site"
    page = (site / "cards" / "mtg" / "drill-sergeant-drake.html").read_text(encoding="utf-8")
    assert "<h1>Drill Sergeant Drake</h1>" in page and "Flying" in page
    index = json.loads(
        (site / "search-index.js").read_text(encoding="utf-8")[len("window.JUDGE_INDEX = ") :].rstrip()[:-1]
    )
    assert ["Practice Bolt", "cards/mtg/practice-bolt.html", "mtg"] in index["cards"]
    index_page = (site / "index.html").read_text(encoding="utf-8")
    assert 'href="cards/mtg/practice-bolt.html"' in index_page
    _links_resolve(site)  # the cards' links too
    code, out, _ = judge("site", tmp_path / "bare", "--book", "mtg", "--no-cards", "--json")
    assert code == 0 and json.loads(out)["cards"] == 0 and not (tmp_path / "bare" / "cards").exists()


_EDITION = (
    "Riftbound Core Rules\n\n301.\nThe Turn\n302.\nPlay continues {how} until one player wins. See rule 301.\n{more}"
)


def test_two_editions_get_a_page_of_what_changed_linked_both_ways(judge, fresh_home, tmp_path):
    old, new = tmp_path / "old.txt", tmp_path / "new.txt"
    old.write_text(_EDITION.format(how="cyclically", more=""), encoding="utf-8")
    new.write_text(_EDITION.format(how="in turns", more="303.\nA new rule about turns.\n"), encoding="utf-8")
    assert judge("load", old, "--book", "rb-a", "--game", "riftbound", "--edition", "2025-01-01")[0] == 0
    assert judge("load", new, "--book", "rb-b", "--game", "riftbound", "--edition", "2026-01-01")[0] == 0
    code, _, err = judge("site", tmp_path / "site", "--book", "rb-a", "--book", "rb-b")
    assert code == 0, err
    site = tmp_path / "site"
    changes = (site / "diff" / "rb-a--rb-b.html").read_text(encoding="utf-8")
    assert (
        '<li id="new-302"><a href="../rb-b/302.html#302">302</a> Play continues <del>cyclically</del>'
        "<ins>in turns</ins> until one player wins." in changes
    )
    assert '<li id="new-303"><a href="../rb-b/303.html#303">303</a> A new rule about turns.</li>' in changes
    assert 'href="../diff/rb-a--rb-b.html#new-302">Reworded since rb-a</a>' in (site / "rb-b" / "302.html").read_text()
    assert 'href="../diff/rb-a--rb-b.html#new-302">Reworded in rb-b</a>' in (site / "rb-a" / "302.html").read_text()
    assert 'href="diff/rb-a--rb-b.html"' in (site / "index.html").read_text(encoding="utf-8")
    _links_resolve(site)


_KEYWORDS = (
    "Magic: The Gathering Comprehensive Rules\n\n702. Keyword Abilities\n\n702.9. Flying\n\n"
    "702.9a Flying is an evasion ability.\n"
)


def test_the_cards_whose_keyword_a_rule_defines_are_listed_under_it(judge, fresh_home, tmp_path, monkeypatch):
    from tests.conftest import REPO

    book = tmp_path / "keywords.txt"
    book.write_text(_KEYWORDS, encoding="utf-8")
    assert judge("load", book, "--book", "kw", "--game", "mtg", "--edition", "2025-01-01")[0] == 0
    assert judge("load", REPO / "tests" / "data" / "cards" / "invented-scryfall.json")[0] == 0
    assert judge("site", tmp_path / "site", "--book", "kw")[0] == 0
    flying = (tmp_path / "site" / "kw" / "702.html").read_text(encoding="utf-8").split('id="702.9"', 1)[1]
    assert flying.split("</article>", 1)[0].endswith(
        '<p class="cards"><span class="label">Cards:</span> '
        '<a href="../cards/mtg/drill-sergeant-drake.html">Drill Sergeant Drake</a></p>'
    )
    monkeypatch.setattr("rulebook.site.CARDS_SHOWN", 0)  # more cards than a rule names: a page of them all
    assert judge("site", tmp_path / "all", "--book", "kw")[0] == 0
    under = (tmp_path / "all" / "kw" / "702.html").read_text(encoding="utf-8")
    assert '… <a href="cards-702.9.html">all 1 cards</a>' in under
    listed = (tmp_path / "all" / "kw" / "cards-702.9.html").read_text(encoding="utf-8")
    assert '<li><a href="../cards/mtg/drill-sergeant-drake.html">Drill Sergeant Drake</a></li>' in listed
    _links_resolve(tmp_path / "all")
