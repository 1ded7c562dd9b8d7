"""The site in a real browser (issue 24): Debian's Chromium (``/usr/bin/chromium``) driven by Playwright for
Python, headless, the pages opened from the file system as a judge opens a site copied to a phone or a
laptop. Following a reference lands on the rule, which lists the source under "Cited by"; the search box
finds a rule by number, a rule by a misspelt word and a card by name; no request leaves the machine; no
console error. Screenshots of a rule page and a card page, light and dark, are saved for a person to look
at, in ``$JUDGE_SCREENSHOTS`` (default ``build/screenshots``). Skipped, saying why, where Playwright or
Chromium is not installed (``.ci/run`` installs both)."""

from __future__ import annotations

import os
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

import pytest

from tests.conftest import REPO, judge_in, serving

CHROMIUM = Path("/usr/bin/chromium")
sync_api = pytest.importorskip(
    "playwright.sync_api", reason="Playwright for Python is not installed (the test extra; .ci/run installs it)"
)
if not CHROMIUM.exists():
    pytest.skip(
        "Debian's chromium is not at /usr/bin/chromium (.ci/run installs it: apt-get install chromium)",
        allow_module_level=True,
    )

SHOTS = Path(os.environ.get("JUDGE_SCREENSHOTS") or REPO / "build" / "screenshots")


@pytest.fixture(scope="module")
def library(tmp_path_factory) -> Path:
    """The seed books with the invented test cards (Practice Bolt, Drill Sergeant Drake)."""
    home = tmp_path_factory.mktemp("browser-home")
    code, _, err = judge_in(home, "load", REPO / "tests" / "data" / "cards" / "invented-scryfall.json")
    assert code == 0, err
    return home


@pytest.fixture(scope="module")
def site(library, tmp_path_factory) -> Path:
    """The library's site, written by ``judge site``."""
    home = library
    out = tmp_path_factory.mktemp("browser-site") / "site"
    code, _, err = judge_in(home, "site", out)
    assert code == 0, err
    return out


@pytest.fixture(scope="module")
def browser() -> Iterator:
    with sync_api.sync_playwright() as playwright:
        launched = playwright.chromium.launch(
            executable_path=str(CHROMIUM), headless=True, args=["--no-sandbox"] if os.geteuid() == 0 else []
        )
        yield launched
        launched.close()


@dataclass
class Tab:
    """A page of a fresh browser context, every request outside the file system refused and recorded, and
    every console error recorded."""

    page: object
    left: list[str] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)

    def open(self, path: Path | str) -> None:
        self.page.goto(path if isinstance(path, str) else path.as_uri())  # type: ignore[attr-defined]


def _tab(browser, scheme: str = "light", allowed: str = "file://") -> Tab:
    """``allowed``: the start of the addresses a page may ask for (the file system, or the server's)."""
    context = browser.new_context(color_scheme=scheme)
    tab = Tab(context.new_page())

    def guard(route) -> None:
        if route.request.url.startswith(allowed):
            route.continue_()
        else:
            tab.left.append(route.request.url)
            route.abort()

    context.route("**/*", guard)
    tab.page.on("console", lambda m: tab.errors.append(m.text) if m.type == "error" else None)
    tab.page.on("pageerror", lambda e: tab.errors.append(str(e)))
    return tab


@pytest.fixture
def tab(browser) -> Iterator[Tab]:
    opened = _tab(browser)
    yield opened
    opened.page.context.close()  # type: ignore[attr-defined]
    assert opened.left == [], f"requests left the machine: {opened.left}"
    assert opened.errors == [], f"console errors: {opened.errors}"


def test_following_a_reference_lands_on_the_rule_which_lists_the_source_under_cited_by(site, tab):
    tab.open(site / "riftbound" / "313.html")
    page = tab.page
    page.locator('[id="313.1"] a[href="307.html#307"]').click()
    page.wait_for_url("**/riftbound/307.html#307")
    target = page.locator('[id="307"]')
    assert target.is_visible()
    back = target.locator(".cited-by a", has_text="313.1")
    assert back.get_attribute("href") == "313.html#313.1"
    back.click()
    page.wait_for_url("**/riftbound/313.html#313.1")
    assert page.locator('[id="313.1"]').is_visible()


def _search(tab: Tab, query: str) -> list[str]:
    page = tab.page
    page.fill("#q", query)
    page.wait_for_function(
        "q => document.getElementById('results').getAttribute('data-query') === q"
        " && document.querySelectorAll('#results li a').length > 0",
        arg=query,
    )
    return page.eval_on_selector_all("#results li a", "links => links.map(a => a.getAttribute('href'))")


def test_the_search_box_finds_a_rule_by_number_a_misspelt_word_and_a_card_by_name(site, tab):
    tab.open(site / "index.html")
    page = tab.page
    assert page.get_attribute("#q", "type") == "search" and page.locator("label[for=q]").count() == 1
    assert _search(tab, "312.2b")[0] == "riftbound/312.html#312.2.b"  # the Magic way of writing it
    found = _search(tab, "prority")  # priority, misspelt
    assert found and all(href.startswith("riftbound/31") for href in found[:3])
    assert "priority" in page.inner_text("#status").lower()
    assert _search(tab, "practice bolt")[0] == "cards/mtg/practice-bolt.html"
    page.press("#q", "Enter")
    page.wait_for_url("**/cards/mtg/practice-bolt.html")
    assert page.inner_text("h1") == "Practice Bolt"


def test_screenshots_of_a_rule_page_and_a_card_page_light_and_dark(site, browser):
    """Saved for a person to look at; dark mode changes the page's colours (the system's setting)."""
    SHOTS.mkdir(parents=True, exist_ok=True)
    backgrounds = {}
    for scheme in ("light", "dark"):
        tab = _tab(browser, scheme)
        for name, path in (
            ("rule", site / "riftbound" / "312.html"),
            ("card", site / "cards" / "mtg" / "practice-bolt.html"),
        ):
            tab.open(path)
            shot = SHOTS / f"{name}-{scheme}.png"
            tab.page.screenshot(path=str(shot), full_page=True)
            assert shot.stat().st_size > 1000
            backgrounds[name, scheme] = tab.page.evaluate("getComputedStyle(document.body).backgroundColor")
        tab.page.context.close()
        assert tab.left == [] and tab.errors == [], (tab.left, tab.errors)
    assert backgrounds["rule", "light"] != backgrounds["rule", "dark"]
    assert backgrounds["card", "light"] != backgrounds["card", "dark"]


def test_a_page_is_read_on_a_phone_without_sideways_scrolling(site, browser):
    context = browser.new_context(viewport={"width": 360, "height": 740}, is_mobile=True)
    page = context.new_page()
    page.goto((site / "riftbound" / "312.html").as_uri())
    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth + 1")
    context.close()


@pytest.fixture(scope="module")
def served(library, tmp_path_factory) -> Iterator[str]:
    """``judge serve`` over the same library, on a free port of 127.0.0.1: its address."""
    with serving(library, tmp_path_factory.mktemp("serve-logs")) as (base, _, _):
        yield base


@pytest.fixture
def served_tab(browser, served) -> Iterator[Tab]:
    opened = _tab(browser, allowed=served + "/")
    yield opened
    opened.page.context.close()  # type: ignore[attr-defined]
    assert opened.left == [], f"requests left the machine: {opened.left}"
    assert opened.errors == [], f"console errors: {opened.errors}"


def test_served_pages_a_reference_lands_on_the_rule_which_lists_the_source(served, served_tab):
    page = served_tab.page
    served_tab.open(f"{served}/riftbound/313.html")
    page.locator('[id="313.1"] a[href="307.html#307"]').click()
    page.wait_for_url(f"{served}/riftbound/307.html#307")
    back = page.locator('[id="307"] .cited-by a', has_text="313.1")
    assert back.get_attribute("href") == "313.html#313.1"
    back.click()
    page.wait_for_url(f"{served}/riftbound/313.html#313.1")
    assert page.locator('[id="313.1"]').is_visible()


def test_served_pages_search_with_the_projects_search(served, served_tab):
    """The search box of a served page asks ``/api/site-search``: the project's search (``judge search``:
    typo correction, the card a question names), not the index a written site carries."""
    page = served_tab.page
    asked: list[str] = []
    page.on("request", lambda r: asked.append(r.url) if "/api/site-search" in r.url else None)
    served_tab.open(f"{served}/riftbound/312.html")
    assert _search(served_tab, "312.2b")[0] == "../riftbound/312.html#312.2.b"
    found = _search(served_tab, "prority")
    assert found[0].startswith("../riftbound/312.html#312.")
    assert page.inner_text("#status").startswith("showing results for priority: ")
    assert _search(served_tab, "practice bolt")[0] == "../cards/mtg/practice-bolt.html"
    page.press("#q", "Enter")
    page.wait_for_url(f"{served}/cards/mtg/practice-bolt.html")
    assert page.inner_text("h1") == "Practice Bolt"
    assert any("q=prority" in url for url in asked)


def test_an_explanation_in_html_links_each_cited_rule_into_the_site(site, tab, tmp_path):
    """``judge explain FILE --format html --site OUTDIR -o FILE``: a cited rule followed lands on it."""
    out = tmp_path / "explained.html"
    scenario = REPO / "data" / "scenarios" / "riftbound" / "spec-example.yaml"
    code, _, err = judge_in(tmp_path / "home", "explain", scenario, "--format", "html", "--site", site, "-o", out)
    assert code == 0, err
    tab.open(out)
    page = tab.page
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / "explanation-light.png"), full_page=True)  # for a person to look at
    link = page.locator('main a[href*="riftbound/312.html#"]').first
    target = link.get_attribute("href").split("#")[1]
    link.click()
    page.wait_for_url(f"**/riftbound/312.html#{target}")
    assert page.locator(f'[id="{target}"]').is_visible()
