"""``judge explain FILE --format html [--site OUTDIR]``: a standalone page in the site's look, read back
with html.parser: its title, its steps, the rules cited (links into a site when one is given), nothing
fetched from the network."""

from __future__ import annotations

import json
import os
import re
import textwrap
from html.parser import HTMLParser
from pathlib import Path

import pytest

from tests.conftest import REPO, judge_in

SPEC = REPO / "data/scenarios/riftbound/spec-example.yaml"
INVENTED = REPO / "tests" / "data" / "cards" / "invented-scryfall.json"


class _Page(HTMLParser):
    """What a test reads of the page: the title, h1, each step's heading, the rule links and plain
    numbers, the rules cited (dt -> dd), and every URL the page would load or link."""

    def __init__(self) -> None:
        super().__init__()
        self.stack: list[tuple[str, dict]] = []
        self.title = self.h1 = ""
        self.steps: list[str] = []
        self.links: dict[str, list[str]] = {}  # rule number -> hrefs
        self.plain: list[str] = []  # rule numbers shown without a link
        self.cited: dict[str, str] = {}
        self.urls: list[str] = []
        self.tags: list[str] = []
        self.cards: list[str] = []
        self._dt = ""

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        self.tags.append(tag)
        self.urls.extend(a[k] for k in ("href", "src") if a.get(k))
        self.stack.append((tag, a))

    def handle_endtag(self, tag):
        while self.stack and self.stack.pop()[0] != tag:
            pass

    def _inside(self, tag: str, **attrs: str) -> dict | None:
        for t, a in reversed(self.stack):
            if t == tag and all(a.get(k, "") == v or v in (a.get(k) or "").split() for k, v in attrs.items()):
                return a
        return None

    def handle_data(self, data):
        if not self.stack:
            return
        tag, a = self.stack[-1]
        if tag == "title":
            self.title += data
        elif tag == "h1":
            self.h1 += data
        elif tag == "h3" and self._inside("article", **{"class": "step"}):
            self.steps.append(data)
        elif tag == "a" and "num" in (a.get("class") or ""):
            self.links.setdefault(data, []).append(a["href"])
            if self._inside("dt"):
                self._dt = data
        elif tag == "span" and a.get("class") == "num":
            self.plain.append(data)
            if self._inside("dt"):
                self._dt = data
        elif tag == "dd" and self._dt:
            self.cited[self._dt] = data
        elif tag == "li" and self._inside("section", **{"aria-labelledby": "cards"}):
            self.cards.append(data)


def read(text: str) -> _Page:
    parsed = _Page()
    parsed.feed(text)
    parsed.close()
    return parsed


def no_network(page: _Page, text: str) -> None:
    assert not [u for u in page.urls if re.match(r"(?i)\s*(https?:)?//", u)]
    assert not re.search(r"(?i)https?://", text)
    assert "script" not in page.tags and "link" not in page.tags  # the style sheet is inlined
    assert "style" in page.tags


@pytest.fixture(scope="module")
def site(session_home, tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("site") / "site"
    code, _, err = judge_in(session_home, "site", out, "--no-cards")
    assert code == 0, err
    return out


def test_the_page_without_a_site(home, judge):
    code, text, err = judge("explain", SPEC, "--format", "html", "--check")
    assert code == 0, err
    assert '<h2 id="expectations">Expectations</h2>' in text and "FAIL" not in text
    page = read(text)
    assert page.title == "Conquering an open battlefield · riftbound"
    assert page.h1 == "Conquering an open battlefield"
    assert page.steps[:3] == [
        "1. Ana moves Jinx to Grove",
        "2. Ana plays Gust targeting Garen",
        "3. Ben plays Hidden Blade targeting Jinx: ILLEGAL",
    ]
    assert page.steps[4] == "5. ask: Ben plays Hidden Blade targeting Jinx: YES"
    assert len(page.steps) == 9
    assert not page.links and "312.1" in page.plain  # numbers are plain text
    assert page.cited["312.1"].startswith("Priority is the singular exclusive right")
    assert page.cited["143.2"] == "[not in book riftbound]"
    no_network(page, text)


def test_each_cited_rule_links_into_the_site(home, judge, site):
    code, text, err = judge("explain", SPEC, "--format", "html", "--site", site)
    assert code == 0, err
    page = read(text)
    target = site.resolve() / "riftbound" / "312.html"
    assert page.links["312.1"][0] == f"{target.as_uri()}#312.1"
    assert 'id="312.1"' in target.read_text(encoding="utf-8")
    for number, hrefs in page.links.items():  # every link lands on a rule of the site
        path, anchor = hrefs[0].removeprefix("file://").split("#")
        assert anchor == number and f'id="{number}"' in Path(path).read_text(encoding="utf-8"), number
    assert "143.2" not in page.links and "143.2" in page.plain  # not in the loaded text: plain
    assert page.cited["312.1"].startswith("Priority is the singular exclusive right")
    no_network(page, text)


def test_written_with_o_links_relatively(home, judge, site, tmp_path):
    """A page written beside or inside the site links to it relatively: it still works when the two are
    moved together or served."""
    out = tmp_path / "rulings" / "gust.html"
    out.parent.mkdir()
    code, said, err = judge("explain", SPEC, "--format", "html", "--site", site, "-o", out)
    assert code == 0, err
    assert said == f"wrote {out}\n"
    page = read(out.read_text(encoding="utf-8"))
    rel = Path(os.path.relpath(site, out.parent)).as_posix()
    assert page.links["312.1"][0] == f"{rel}/riftbound/312.html#312.1"
    assert (out.parent / rel / "riftbound" / "312.html").is_file()
    inside = site / "explained.html"
    try:
        code, said, err = judge("explain", SPEC, "-f", "html", "--site", site, "-o", inside)
        assert code == 0, err
        assert read(inside.read_text(encoding="utf-8")).links["312.1"][0] == "./riftbound/312.html#312.1"
    finally:
        inside.unlink(missing_ok=True)


def test_json_to_a_file(home, judge, tmp_path):
    out = tmp_path / "told.json"
    code, said, err = judge("explain", SPEC, "--json", "-o", out)
    assert code == 0, err
    assert json.loads(said) == {"file": str(out)}
    assert json.loads(out.read_text(encoding="utf-8"))["scenario"]["title"] == "Conquering an open battlefield"


def test_an_output_that_cannot_be_written(home, judge, tmp_path):
    code, out, err = judge("explain", SPEC, "-f", "html", "-o", tmp_path / "none" / "x.html")
    assert code == 2 and out == "" and err.count("\n") == 1
    assert err.startswith(f"judge: cannot write {tmp_path / 'none' / 'x.html'}: ")


def test_everything_is_escaped(home, judge, tmp_path):
    scenario = tmp_path / "x.yaml"
    scenario.write_text(
        SPEC.read_text(encoding="utf-8").replace(
            "title: Conquering an open battlefield", 'title: "<script>alert(1)</script> & co"'
        ),
        encoding="utf-8",
    )
    code, text, err = judge("explain", scenario, "--format", "html")
    assert code == 0, err
    assert "<script>" not in text and "&lt;script&gt;alert(1)&lt;/script&gt; &amp; co" in text
    assert read(text).h1 == "<script>alert(1)</script> & co"


def test_a_folder_that_is_not_a_site(home, judge, tmp_path):
    code, out, err = judge("explain", SPEC, "--format", "html", "--site", tmp_path)
    assert code == 2 and out == ""
    assert (
        err
        == f"judge: {tmp_path} is not a site folder (no index.html and search-index.js): judge site {tmp_path} writes one\n"
    )


def test_a_site_without_the_book(home, judge, tmp_path):
    code, _, err = judge("site", tmp_path / "s", "--book", "mtg", "--no-cards")
    assert code == 0, err
    code, out, err = judge("explain", SPEC, "--format", "html", "--site", tmp_path / "s")
    assert code == 2 and out == "" and err.count("\n") == 1
    assert "has no book 'riftbound'" in err


def test_site_needs_the_html_format(home, judge, site):
    code, out, err = judge("explain", SPEC, "--site", site)
    assert code == 2 and out == "" and err.count("\n") == 1
    assert "add --format html" in err


def test_cards_from_the_library(tmp_path):
    home = tmp_path / "home"
    code, _, err = judge_in(home, "load", INVENTED)
    assert code == 0, err
    scenario = tmp_path / "bolt.yaml"
    scenario.write_text(
        textwrap.dedent("""\
        game: mtg
        title: A bolt from the library
        players: [Ana, Ben]
        turn: {player: Ana, phase: main1}
        state:
          permanents:
            - {name: Mountain, controller: Ana}
          hand: {Ana: [Practice Bolt]}
        actions:
          - Ana casts Practice Bolt targeting Ben
        """),
        encoding="utf-8",
    )
    code, text, err = judge_in(home, "explain", scenario, "--format", "html")
    assert code == 0, err
    page = read(text)
    assert page.h1 == "A bolt from the library"
    assert page.cards == ["Practice Bolt: text from invented-scryfall.json (scryfall-cards; TST, released 2026-01-01)"]
    assert page.steps == ["1. Ana casts Practice Bolt targeting Ben"]
