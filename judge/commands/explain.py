"""``judge explain FILE``: step the reference engine through a scenario, citing every rule applied."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

import typer

from judge.books import check_book, open_store
from judge.commands.options import JSON
from judge.output import echo, emit_json, fail, pick_format

if TYPE_CHECKING:
    from rulebook.store import Store

FORMATS = ("text", "markdown", "html", "json")


def explain(
    file: Path = typer.Argument(..., help="A scenario file (YAML, see docs/scenarios.md)."),
    book: str = typer.Option(
        None,
        "--book",
        "-b",
        help="The book whose rule text is quoted (default: the scenario's book, "
        "else a loaded book of the scenario's edition, else the game's default book: its newest "
        "full edition loaded, else its seed book).",
    ),
    format: str = typer.Option(
        "text",
        "--format",
        "-f",
        help="text, markdown (to paste into a ruling), html (a standalone page in the look of judge site) or json.",
    ),
    site: Path = typer.Option(
        None,
        "--site",
        help="With --format html: a folder judge site wrote; each cited rule links to its page there.",
    ),
    output: Path = typer.Option(
        None,
        "--output",
        "-o",
        help="Write to this file instead of standard output (with --site, the html links to the site relatively "
        "from it).",
    ),
    check: bool = typer.Option(False, "--check", help="Check the scenario's expect items; exit 1 if one fails."),
    step: bool = typer.Option(False, "--step", help="Walk one action at a time (Enter to go on)."),
    json_: bool = JSON,
) -> None:
    """Walk through a scenario step by step with the rules that make each thing happen or forbid it."""
    import sys

    from scenarios.scenario import load_scenario

    format = pick_format(format, json_, FORMATS)
    if site is not None and format != "html":
        fail(f"--site links an html explanation into a site: add --format html (not {format})")
    scenario = load_scenario(file)  # errors name the file and line before any database work
    told, again = explained_scenario(scenario, str(file), book, check)
    if step and output is None and format == "text" and _isatty(sys.stdin) and _isatty(sys.stdout):
        told = _step_through(told, again)
    else:
        from scenarios.render import render

        shown = _html(told, site, output) if format == "html" else render(told, format)
        if output is None:
            sys.stdout.write(shown)
        else:
            try:
                output.write_text(shown, encoding="utf-8")
            except OSError as exc:
                fail(f"cannot write {output}: {exc.strerror or exc}")
            if json_:
                emit_json({"file": str(output)})
            else:
                echo(f"wrote {output}")
    if check and not told.ok:
        raise typer.Exit(1)


def _html(told, site: Path | None, output: Path | None) -> str:
    """The page; with a site, its cited rules linked there: relatively from ``output``, else by absolute
    ``file:`` URLs (standard output may go anywhere)."""
    from scenarios.render_html import NotASite, html, site_links, site_root

    if site is None:
        return html(told)
    try:
        root = site_root(site, output)
        links = site_links(site, root, told.book, [r.rule for r in told.rules if r.in_book])
    except NotASite as exc:
        fail(str(exc))
    return html(told, links, root)


def explain_json(text: str, book: str | None = None, check: bool = False) -> dict:
    """``judge explain --json`` on a scenario given as text, named ``scenario`` in its errors (as
    ``POST /api/explain`` answers it)."""
    from scenarios.scenario import read_scenario

    told, _ = explained_scenario(read_scenario(text, name="scenario"), "scenario", book, check)
    return told.to_json()


def explained_scenario(scenario, file: str, book: str | None, check: bool):
    """The scenario played on its book (``book``, else the scenario's, else one of its edition, else the
    game's default), and a function playing only its first n actions (``--step``); ``file`` names it
    in errors. The command line and ``judge serve`` (``POST /api/explain``) both explain through it."""
    import sys

    from rulebook.editions import default_book
    from scenarios.explain import explain as explained

    store = open_store()
    book_id = book or scenario.book or _book_of_edition(store, scenario) or default_book(store, scenario.game)
    if book_id is None:
        fail(f"{file}: no {scenario.game} book is loaded (judge load adds one)")
    loaded = store.book(book_id)
    if loaded is None:
        if book is None and scenario.book:  # the file names it: say where
            from rulebook.editions import unknown_book_message

            raise scenario.error(("book",), unknown_book_message(book_id, store.book_ids()) + " (judge load adds one)")
        check_book(store, book_id)
    assert loaded is not None  # check_book exits 2 for a book that is not loaded
    if loaded.game != scenario.game:
        fail(f"{file}: book {book_id!r} is a {loaded.game} book, the scenario is {scenario.game}")
    from scenarios.citations import citations_for_book, load_citations

    wanted = scenario.data.get("edition")
    same_edition = not wanted or str(wanted) == str(loaded.edition)
    if same_edition:
        citations = citations_for_book(
            store,
            scenario.game,
            book_id,
            loaded.edition,
            progress=lambda line: print(f"judge: {line}", file=sys.stderr),
        )
    else:
        citations = load_citations(scenario.game, str(wanted))
        print(
            f"judge: note: the scenario follows the {wanted} rules (its edition: key) but book {book_id!r} is the "
            f"{loaded.edition} edition: the {citations.edition} table's numbers are cited and no text is quoted; "
            f"load the {wanted} document (judge load FILE --book ID) and pass --book ID to quote it, or remove "
            "edition: from the scenario to explain it under the book's rules",
            file=sys.stderr,
        )

    def rule_of(book_id: str, number: str):
        return store.rule(book_id, number) if same_edition else None

    def quote(book_id: str, number: str) -> str | None:
        rule = rule_of(book_id, number)
        return None if rule is None else rule.text or rule.title or ""

    def content(book_id: str, number: str) -> str | None:
        rule = rule_of(book_id, number)
        return None if rule is None else "\n".join(x for x in (rule.title, rule.text, *rule.examples) if x)

    def until(actions: int | None = None):
        return explained(
            scenario,
            book_id,
            quote=quote,
            content=content,
            edition=loaded.edition,
            citations=citations,
            check=check,
            excerpt=store.is_partial(book_id),
            actions=actions,
        )

    return until(), until  # the whole file is played before a line is shown


def _step_through(told, until):
    """Show one action at a time (Enter: the next, q: stop); a judge who stops gets the expectations and
    the rules of the actions shown. Returns the explanation shown."""
    import sys

    from scenarios.render import closing_text, opening_text, step_text

    sys.stdout.write(opening_text(told))
    for s in told.steps:
        sys.stdout.write(step_text(told, s))
        if s.n < len(told.steps):
            sys.stdout.write("   [Enter: next action, q: stop] ")
            sys.stdout.flush()
            if sys.stdin.readline().strip().lower().startswith("q"):
                told = until(s.n)
                break
    sys.stdout.write(closing_text(told))
    return told


def _isatty(stream) -> bool:
    try:
        return stream.isatty()
    except (AttributeError, ValueError):
        return False


def _book_of_edition(store: Store, scenario) -> str | None:
    """A scenario that names an edition (``edition: 2026-02-27``) quotes a loaded book of that edition
    (one the judge loaded before the seed book of that edition)."""
    wanted = scenario.data.get("edition")
    if not wanted:
        return None
    same = [b for b in store.books() if b.game == scenario.game and str(b.edition) == str(wanted)]
    same.sort(key=lambda b: b.builtin)
    return same[0].id if same else None
