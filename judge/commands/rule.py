"""``judge rule NUMBER``: the rule, where it sits, its sub-rules, and what it cites and is cited by.

The lookup a judge runs most: :func:`rulebook.lookup.rule_views` reads the store's rule records (named
tuples, sqlite3 alone), not the model's classes. ``--applied`` adds where
the engine applies the rule (:mod:`scenarios.applied`): it reads the citation tables and plays the
shipped scenarios once, so it is asked for, not paid by every lookup (docs/decisions.md, "The house")."""

from __future__ import annotations

from typing import TYPE_CHECKING

import typer

from judge.books import books_for, open_store
from judge.commands.options import BOOK, GAME, JSON
from judge.output import echo, emit_json, fail, pick_format
from rulebook.lookup import RuleView, excerpt_hint, rule_views

if TYPE_CHECKING:
    from rulebook.store import Store


def rule(
    number: str = typer.Argument(..., help="A rule number: 312.2.b or 312.2b, 601.2c or 601.2.c."),
    book: str = BOOK,
    game: str = GAME,
    depth: int = typer.Option(1, "--depth", "-d", min=0, help="How many levels of sub-rules to show."),
    applied: bool = typer.Option(
        False,
        "--applied",
        "-a",
        help="Also show the engine's citation keys that cite "
        "the rule or a rule under it, where the engine's code uses them, and the shipped "
        "scenarios that exercise them.",
    ),
    all_: bool = typer.Option(
        False, "--all", help="Every sub-rule, at every depth, its text untruncated (a whole section to read or print)."
    ),
    format: str = typer.Option(
        "text",
        "--format",
        "-f",
        help='text, line (one line to paste into chat or a written ruling: "CR 702.19b: ...") or json.',
    ),
    json_: bool = JSON,
) -> None:
    """Show a rule: its ancestors, text, examples, sub-rules, citations, and what the loaded text lacks."""
    format = pick_format(format, json_, FORMATS)
    if all_:
        depth = ALL_DEPTH

    store, views = found_views(number, book, game, depth)
    found = applied_to(store, views) if applied else [None] * len(views)
    if format == "line":
        for view in views:
            for number, text in lines_of(view, all_):
                echo(f"{'[' + view.book + '] ' if len(views) > 1 or book is None else ''}CR {number}: {text}")
        return
    if format == "json":
        emit_json(views_json(views, found, applied))
        return
    for i, (view, by) in enumerate(zip(views, found)):
        if i:
            echo()
        print_view(view, labelled=len(views) > 1 or book is None, whole=all_)
        if by is not None:
            print_applied(by)


FORMATS = ("text", "line", "json")
ALL_DEPTH = 99  # --all: deeper than any book numbers its rules


def found_views(number: str, book: str | None, game: str | None, depth: int) -> tuple[Store, list[RuleView]]:
    """The rule ``number`` in each book covered, ``depth`` levels of sub-rules under it; :func:`fail`
    (exit 2) for what is not a rule number, (exit 1) with the nearest numbers for a rule not found."""
    from rulebook import numbers

    if not numbers.looks_like_number(number):
        fail(
            f"{number!r} is not a rule number (expected e.g. 312.2.b or 601.2c); to search text: judge search {number!r}"
        )
    store = open_store()
    books = books_for(store, book, game)
    views = rule_views(store, number, books, depth)
    if not views:
        from rulebook.nearest import nearest_numbers  # a miss only: a rule found never loads rapidfuzz

        near = nearest_numbers(store, number, books)
        said = f"; nearest: {', '.join(near)}" if near else ""
        fail(f"no rule {number} in {', '.join(books)}{said}", code=1, suggestions=near, hint=excerpt_hint(store, books))
    return store, views


def views_json(views: list[RuleView], found: list, applied: bool) -> list[dict]:
    """What ``judge rule --json`` prints, a list (docs/json.md)."""
    return [v.to_json() | _applied_json(a, applied) for v, a in zip(views, found)]


def rule_json(number: str, book: str | None = None, game: str | None = None, all_: bool = False) -> list[dict]:
    """``judge rule NUMBER --json`` (with ``--all``), as ``GET /api/rule/BOOK/NUMBER`` answers it."""
    _, views = found_views(number, book, game, ALL_DEPTH if all_ else 1)
    return views_json(views, [None] * len(views), False)


def lines_of(view: RuleView, whole: bool) -> list[tuple[str, str]]:
    """``(number, text)`` of the rule for ``--format line``, its paragraphs on one line (a heading: its title);
    with ``whole``, then each sub-rule's, in the book's order."""

    def one(title: str | None, text: str) -> str:
        return " ".join(p.strip() for p in (text or title or "").split("\n") if p.strip())

    out = [(view.number, one(view.title, view.text))]

    def walk(children: list[dict]) -> None:
        for child in children:
            out.append((child["number"], one(child["title"], child["text"])))
            walk(child["children"])

    if whole:
        walk(view.children)
    return out


def applied_to(store: Store, views: list[RuleView]) -> list:
    """For each view, what applies its rule (:class:`scenarios.applied.Applied`), or None when its book's
    game has no engine table."""
    import sys

    from scenarios.applied import book_applied

    def progress(line: str) -> None:
        print(f"judge: {line}", file=sys.stderr)

    return [book_applied(store, v.book, v.printed, progress=progress) for v in views]


def _applied_json(found, asked: bool) -> dict:
    """``applied`` and ``scenarios`` (docs/json.md): null unless --applied asked, empty when nothing applies."""
    if not asked:
        return {"applied": None, "scenarios": None}
    return found.to_json() if found is not None else {"applied": [], "scenarios": []}


SHOWN = 10  # keys and scenarios listed in text (all in the JSON)


def print_applied(by) -> None:
    """Under the rule: the keys of the engine's table that cite it or a rule under it, where the engine
    uses each, and the shipped scenarios that exercise them, each list cut at :data:`SHOWN`; one line when
    no key cites it."""
    echo()
    if not by:
        echo(
            f"  not applied by the engine: no key of its {by.game} {by.table} citation table cites {by.rule} "
            "or a rule under it"
        )
        return
    echo(f"  applied by the engine ({by.game} {by.table} citation table):")
    for k in by.keys[:SHOWN]:
        phrase = f'  "{k.phrase}"' if k.phrase else ""
        echo(f"    {k.key} ({', '.join(k.rules)}){phrase}")
        echo(f"      {_places(k.used_in) if k.used_in else 'not named in the engine code'}")
    if len(by.keys) > SHOWN:
        echo(f"    and {len(by.keys) - SHOWN} more keys (--json lists them all)")
    if by.scenarios:
        echo(f"  exercised by scenarios ({len(by.scenarios)}, in data/scenarios):")
        for name in by.scenarios[:SHOWN]:
            echo(f"    {name}")
        if len(by.scenarios) > SHOWN:
            echo(f"    and {len(by.scenarios) - SHOWN} more")


def _places(used_in: tuple[str, ...], most: int = 12) -> str:
    """``engine/mtg/combat.py:237,249; engine/mtg/legality.py:667``: the lines grouped by file."""
    files: dict[str, list[str]] = {}
    for place in used_in[:most]:
        path, _, line = place.rpartition(":")
        files.setdefault(path, []).append(line)
    more = f" and {len(used_in) - most} more" if len(used_in) > most else ""
    return "; ".join(f"{path}:{','.join(lines)}" for path, lines in files.items()) + more


def _line(r: dict, width: int = 48) -> str:
    if r.get("title"):
        return f"{r['number']} {r['title']}"
    text = r.get("text") or ""
    return f"{r['number']} {text[: width - 1] + '…' if len(text) > width else text}".strip()


def print_view(view: RuleView, labelled: bool, whole: bool = False) -> None:
    head = f"[{view.book}] " if labelled else ""
    twice = (
        f"  (the publisher printed {view.printed} twice; this one is {view.number})"
        if view.printed != view.number
        else ""
    )
    echo(f"{head}{view.number}" + (f"  {view.title}" if view.title else "") + twice)
    if view.ancestors:
        for depth, ancestor in enumerate(view.ancestors):
            echo(f"  {'  ' * depth}{_line(ancestor, 90)}")
    if view.text:
        echo()
        for paragraph in view.text.split("\n"):
            echo(f"  {paragraph}")
    for example in view.examples:
        echo(f"  Example: {example}")
    for revision in view.revised_by:
        echo()
        dated = f" ({revision['published']})" if revision["published"] else ""
        echo(f"  revised by FAQ {revision['faq'] or revision['source']}{dated}, ruling {revision['ruling']}:")
        for paragraph in revision["text"].split("\n"):
            echo(f"    {paragraph}")
    if view.children:
        echo()
        _print_tree(view.children, 1, whole)
    if view.missing_children:
        n = view.missing_children
        echo()
        echo(
            f"  {n} sub-rule{'s' if n != 1 else ''} of {view.number} {'are' if n != 1 else 'is'} not in the "
            f"loaded text (the outline lists {view.expected_children})."
        )
    if view.cites:
        echo()
        echo(
            "  cites: "
            + ", ".join(_line(c) + ("" if c["in_book"] else " (not in the loaded text)") for c in view.cites)
        )
    if view.cited_by:
        echo(
            "  cited by: "
            + ", ".join(_line(c) if c["kind"] == "rule" else f"{c['kind']} {c['number']}" for c in view.cited_by)
        )
    if view.rulings:
        echo()
        echo(f"  rulings ({len(view.rulings)}):")
        _print_rulings(view)


def _print_rulings(view: RuleView) -> None:
    """The rulings that rest on the rule: the book's own, then those of older editions' books, grouped by
    their book and by what they rest on, said once (``737 Hidden (rb-1.2) = 811 in rb-1.3, changed since:
    ...``)."""
    from rulebook.game_rulings import describe

    group = None
    for r in view.rulings:
        if r["book"] == view.book:
            _print_ruling(r, "    ")
            continue
        rests = "; ".join(describe(c, r["book"]) for c in r["cites"] if c["now"] and _under(c["now"], view.number))
        if (r["book"], rests) != group:
            group = (r["book"], rests)
            edition = f" (edition {r['edition']})" if r["edition"] else ""
            echo(f"    from {r['book']}{edition}" + (f", {rests}" if rests else "") + ":")
        _print_ruling(r, "      ")


def _under(number: str, rule: str) -> bool:
    """``number`` is ``rule`` or one of its sub-rules (702.19a of 702.19, 811.1.b of 811; not 702.190)."""
    return number == rule or (number.startswith(rule) and not number[len(rule)].isdigit())


def _print_ruling(r: dict, indent: str) -> None:
    question = r["question"] if len(r["question"]) <= 100 else r["question"][:97] + "..."
    where = ", ".join(p for p in (r["faq"], r["published"]) if p)
    state = (
        ""
        if r["current"]
        else "  SUPERSEDED by "
        + ", ".join((f"[{n['book']}] " if n["book"] != r["book"] else "") + n["id"] for n in r["superseded_by"])
    )
    echo(f"{indent}{r['id']}" + (f" ({where})" if where else "") + f": {question}{state}")


def _print_tree(children: list[dict], level: int, whole: bool = False) -> None:
    """The sub-rules, each on a line cut at 110 characters; ``whole`` (``--all``): each paragraph of its text."""
    for child in children:
        text = child["title"] or child["text"]
        if whole:
            first, *more = text.split("\n")
            echo(f"{'  ' * level}{child['number']}  {first}")
            for paragraph in more:
                echo(f"{'  ' * level}{' ' * (len(child['number']) + 2)}{paragraph}")
        else:
            echo(f"{'  ' * level}{child['number']}  {text[:107] + '...' if len(text) > 110 else text}")
        _print_tree(child["children"], level + 1, whole)
