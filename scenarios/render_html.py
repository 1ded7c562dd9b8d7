"""An :class:`~scenarios.explain.Explanation` as one standalone HTML page in the look of ``judge site``
(its page shell, the style sheet inlined, nothing fetched): the title, the library's cards, each step
with its events and the rules cited, the rules' texts at the end. Given ``links`` (rule number -> URL
into a site, :func:`site_links`), each cited rule is a link; otherwise its number is plain text.

>>> import pathlib
>>> from scenarios.explain import explain
>>> spec = pathlib.Path(__file__).resolve().parents[1] / "data/scenarios/riftbound/spec-example.yaml"
>>> "<h1>" in html(explain(spec))
True
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Mapping
from html import escape
from pathlib import Path
from urllib.parse import quote

from engine.core import Event, Step
from rulebook.site import book_dir, page, page_key
from scenarios.expectations import show_value
from scenarios.explain import Explanation
from scenarios.render import _numbers, library_line, rule_notes, state_line


class NotASite(ValueError):
    """The folder is not one ``judge site`` wrote, or its site lacks the book."""


def site_root(site: Path, page_at: Path | None = None) -> str:
    """The address of the site's folder, ending in ``/``, as the page links to it: relative from the
    page's folder when the page's file is known (``page_at``: the page then works served with the site
    too), else an absolute ``file:`` URL (the page works wherever it is saved and opened from disk).
    Raises :class:`NotASite`."""
    if not (site / "index.html").is_file() or not (site / "search-index.js").is_file():
        raise NotASite(f"{site} is not a site folder (no index.html and search-index.js): judge site {site} writes one")
    folder = site.resolve()
    if page_at is not None:
        try:
            relative = os.path.relpath(folder, page_at.resolve().parent)
        except ValueError:  # another drive (Windows): no relative path
            pass
        else:
            return "./" if relative == "." else quote(Path(relative).as_posix()) + "/"
    return folder.as_uri() + "/"


def site_links(site: Path, root: str, book_id: str, numbers: Iterable[str]) -> dict[str, str]:
    """Each of ``numbers`` whose section page is in the site at ``site``, as ``root`` (:func:`site_root`)
    + ``BOOK/NNN.html#number``. Raises :class:`NotASite` when the site lacks the book."""
    where = book_dir(book_id)
    if not (site / where).is_dir():
        raise NotASite(f"the site in {site} has no book {book_id!r}: judge site {site} --book {book_id} adds it")
    out = {}
    for number in numbers:
        key = page_key(number)
        if (site / where / f"{key}.html").is_file():
            out[number] = f"{root}{quote(where)}/{key}.html#{quote(number)}"
    return out


def html(explanation: Explanation, links: Mapping[str, str] | None = None, root: str | None = None) -> str:
    """The whole page; ``root``: the site's address (:func:`site_root`), for the home link."""
    return _Html(explanation, links or {}).page(root)


class _Html:
    def __init__(self, explanation: Explanation, links: Mapping[str, str]):
        self.x, self.links = explanation, links

    def rule(self, number: str) -> str:
        href = self.links.get(number)
        shown = escape(number)
        return f'<a class="num" href="{escape(href)}">{shown}</a>' if href else f'<span class="num">{shown}</span>'

    def cite(self, rules: Iterable[str], keys: Iterable[str] = ()) -> str:
        missing = [k for k in keys if k in self.x.unlocated]
        shown = ", ".join(self.rule(r) for r in rules)
        if missing:
            shown += ("; " if shown else "") + escape(f"not located in {self.x.book}: {', '.join(missing)}")
        return f'<span class="cites">({shown})</span>'

    def event(self, e: Event) -> str:
        return f"<li>{escape(e.what)} {self.cite(e.rules, e.keys)}</li>"

    def page(self, root: str | None) -> str:
        x = self.x
        scenario = x.scenario
        d = scenario.data
        turn = d.get("turn") or {}
        parts = [f"<h1>{escape(scenario.title)}</h1>"]
        parts.append(
            '<p class="where">'
            + escape(
                f"{scenario.game} · book {x.book} · {_numbers(x.citations, x.book)} · players "
                f"{', '.join(map(str, d.get('players', [])))} · {turn.get('player', '?')}'s turn, "
                f"{turn.get('phase', 'main')}"
            )
            + "</p>"
        )
        if scenario.library_cards:
            parts.append('<section aria-labelledby="cards"><h2 id="cards">Cards from the library</h2><ul>')
            parts.extend(f"<li>{escape(library_line(card))}</li>" for card in scenario.library_cards)
            parts.append("</ul></section>")
        if x.opening:
            parts.append('<section aria-labelledby="opening"><h2 id="opening">Before the first action</h2><ul>')
            parts.extend(self.event(e) for e in x.opening)
            parts.append("</ul></section>")
        parts.append('<section aria-labelledby="steps"><h2 id="steps">Actions</h2>')
        parts.extend(self.step(s) for s in x.steps)
        parts.append("</section>")
        if x.checked:
            parts.append(self.expectations())
        parts.append(self.rules())
        crumbs = f'<a href="{escape(root)}index.html">Books</a> › ' if root is not None else ""
        crumbs += f"explanation · {escape(x.book)}"
        return page(f"{scenario.title} · {x.book}", "\n".join(parts), root or "", crumbs, standalone=True)

    def step(self, s: Step) -> str:
        if s.asked:
            head = f"{s.n}. ask: {s.action}: {'YES' if s.legal else 'NO'}"
        else:
            head = f"{s.n}. {s.action}" + ("" if s.legal else ": ILLEGAL")
        css = "step" if s.legal else "step illegal"
        parts = [f'<article class="{css}" id="step-{s.n}"><h3>{escape(head)}</h3><ul>']
        if s.asked and s.legal:
            parts.append("<li>Legal now; if it were done (it is not applied):</li>")
        parts.extend(self.event(e) for e in s.events)
        if not s.legal and not s.asked:
            parts.append("<li>Not applied: play goes on from the state before it.</li>")
        parts.append(f'</ul><p class="state"><span class="label">State:</span> {escape(state_line(dict(s.state)))}</p>')
        parts.append("</article>")
        return "".join(parts)

    def expectations(self) -> str:
        parts = ['<section aria-labelledby="expectations"><h2 id="expectations">Expectations</h2><ul>']
        for r in self.x.expectations:
            where = "end" if r.item.get("end") else f"after {r.item.get('after')}"
            what = ", ".join(f"{k}: {show_value(v)}" for k, v in r.item.items() if k not in ("after", "end"))
            parts.append(f"<li>{'ok' if r.ok else 'FAIL'} ({escape(where)}) {escape(what)}: {escape(r.detail)}</li>")
        parts.append("</ul></section>")
        return "".join(parts)

    def rules(self) -> str:
        book = self.x.book
        parts = [
            f'<section aria-labelledby="rules"><h2 id="rules">Rules cited (text from book {escape(book)})</h2><dl>'
        ]
        for r in self.x.rules:
            if r.lacks_phrase_of:
                shown = f"[{book}'s {r.rule} does not say what {', '.join(r.lacks_phrase_of)} cites it for: not quoted]"
            else:
                shown = r.text if r.text is not None else f"[not in book {book}]"
            parts.append(f'<dt id="rule-{escape(r.rule)}">{self.rule(r.rule)}</dt><dd>{escape(shown)}</dd>')
        parts.append("</dl>")
        parts.extend(f'<p class="where">{escape(note)}</p>' for note in rule_notes(self.x))
        parts.append("</section>")
        return "".join(parts)
