"""``judge ruling ...``: the judge's rulings notebook (rulebook.notebook), a command group.

add, list, show, search, edit, remove, check, export, import. The notebook is ``$JUDGE_HOME/notebook.db``,
the judge's own records: judge.db may be deleted or rebuilt, the notebook is untouched.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import TYPE_CHECKING

import typer

from judge.commands.options import GAME, JSON
from judge.output import echo, emit_json, fail
from rulebook import games

if TYPE_CHECKING:
    from rulebook.notebook import Cited
    from rulebook.store import Store

app = typer.Typer(
    name="ruling",
    help="Your own rulings: recorded with the text of the rules they cite, "
    "checked against newer editions. Every subcommand takes --json.",
    no_args_is_help=True,
    add_completion=False,
)

BOOK = typer.Option(
    None, "--book", "-b", help="The book the ruling cites (see `judge books`); default: the game's default book."
)
ID = typer.Argument(..., metavar="ID", help="The ruling's number (judge ruling list).")


_OPENED: list = []  # the notebooks this command opened, closed when it ends (judge.cli.main)


def notebook():
    from rulebook.home import default_home
    from rulebook.notebook import Notebook, notebook_path

    opened = Notebook(notebook_path(default_home()))
    _OPENED.append(opened)
    return opened


def close_notebooks() -> None:
    """Close what the command opened: its write-ahead log folded into notebook.db now, not whenever the
    connection is collected (a process running several commands, as the tests do, would otherwise
    write into a file long after its command ended)."""
    import sqlite3

    while _OPENED:
        try:
            _OPENED.pop().close()
        except sqlite3.Error:  # the command's answer stands (a full disk: the log stays beside the file)
            pass


def _get(nb, ruling_id: int):
    from rulebook.notebook import NotebookError

    try:
        return nb.get(ruling_id)
    except NotebookError as exc:
        fail(str(exc), code=exc.status, suggestions=tuple(f"#{i}" for i in nb.ids()[-5:]))


def _book(store: Store, book: str | None, game: str | None) -> str:
    from judge.books import books_for

    chosen = books_for(store, book, game)
    if len(chosen) != 1:
        fail(f"several books are loaded ({', '.join(chosen)}): choose one with --book or --game")
    return chosen[0]


def _cites(store: Store, book: str, numbers_: list[str]) -> list[Cited]:
    """The rules cited, as the book reads them now; exit 1 naming the nearest for one it lacks."""
    from rulebook import numbers
    from rulebook.diff import find_number, read_rules
    from rulebook.notebook import Cited

    rules = None
    out = []
    for typed in numbers_:
        if not numbers.looks_like_number(typed):
            fail(f"--cite {typed!r} is not a rule number (expected e.g. 312.2.b or 601.2c)")
        number = find_number(store, book, typed)
        if number is None:
            from rulebook.nearest import nearest_numbers

            near = nearest_numbers(store, typed, [book])
            fail(
                f"no rule {typed} in {book}" + (f"; nearest: {', '.join(near)}" if near else ""),
                code=1,
                suggestions=near,
            )
        rules = rules or {e.number: e for e in read_rules(store, book)}
        out.append(Cited(number, rules[number].content))
    return out


def _scenario(path: Path | None, game: str) -> tuple[str | None, str | None]:
    """A scenario file's text, once it reads as a scenario of the ruling's game."""
    if path is None:
        return None, None
    from scenarios.scenario import load_scenario

    scenario = load_scenario(path)  # one line naming the file and line when it does not read
    if scenario.game != game:
        fail(f"{path}: the scenario is {scenario.game}, the ruling {game}")
    return Path(path).read_text(encoding="utf-8-sig"), Path(path).name


@app.command("add")
def add(
    question: str = typer.Option(..., "--question", "-q", help="The question asked."),
    answer: str = typer.Option(..., "--answer", "-a", help="Your ruling."),
    cite: list[str] = typer.Option([], "--cite", "-c", help="A rule the ruling rests on (repeat for several)."),
    book: str = BOOK,
    game: str = GAME,
    scenario: Path = typer.Option(
        None, "--scenario", "-s", help="A scenario file showing it (re-run by `judge ruling check`)."
    ),
    json_: bool = JSON,
) -> None:
    """Record a ruling with the text of every rule it cites, as the book reads it today."""
    from judge.books import open_store
    from rulebook.diff import book_info

    store = open_store()
    chosen = _book(store, book, game)
    info = book_info(store, chosen)
    cites = _cites(store, chosen, cite)
    text, name = _scenario(scenario, info["game"])
    if not question.strip() or not answer.strip():
        fail("--question and --answer must say something")
    ruling = notebook().add(
        game=info["game"],
        book=chosen,
        edition=info["edition"],
        question=question.strip(),
        answer=answer.strip(),
        cites=cites,
        scenario=text,
        scenario_name=name,
    )
    if json_:
        emit_json(ruling.to_json())
        return
    echo(
        f"recorded ruling #{ruling.id} ({chosen}"
        + (f", {info['edition']}" if info["edition"] else "")
        + ")"
        + (f", citing {', '.join(c.number for c in ruling.cites)}" if ruling.cites else "")
    )


@app.command("list")
def list_(
    book: str = typer.Option(None, "--book", "-b", help="Only rulings recorded against this book."),
    game: str = GAME,
    json_: bool = JSON,
) -> None:
    """Every ruling in the notebook, oldest first."""
    if game is not None:
        games.get(game)  # an unknown game: one line with "did you mean" (judge.errors)
    rulings = notebook().all(game=game, book=book)
    if json_:
        emit_json([r.to_json() for r in rulings])
        return
    if not rulings:
        echo("no rulings recorded (judge ruling add records one)")
    for r in rulings:
        echo(_line(r))


def _line(r) -> str:
    cites = f"  [{', '.join(c.number for c in r.cites)}]" if r.cites else ""
    question = r.question if len(r.question) <= 80 else r.question[:79] + "…"
    return f"#{r.id}  {r.book}{cites}  {question}"


@app.command("show")
def show(ruling_id: int = ID, json_: bool = JSON) -> None:
    """A ruling: question, answer, and the cited rules' text as recorded."""
    r = _get(notebook(), ruling_id)
    if json_:
        emit_json(r.to_json())
        return
    echo(
        f"#{r.id}  recorded against {r.book}"
        + (f" ({r.edition})" if r.edition else "")
        + f", {r.created}"
        + (f", edited {r.updated}" if r.updated != r.created else "")
    )
    echo(f"  Q: {r.question}")
    echo(f"  A: {r.answer}")
    for c in r.cites:
        echo(f"  {c.number}: " + c.text.replace("\n", "\n      "))
    if r.scenario is not None:
        echo(f"  scenario: {r.scenario_name or '(attached)'}")


@app.command("search")
def search(
    query: str = typer.Argument(..., help="Words of the question or answer, or a rule number (the rulings citing it)."),
    limit: int = typer.Option(20, "--limit", "-n", min=1, max=200, help="How many rulings at most."),
    json_: bool = JSON,
) -> None:
    """Rulings whose question or answer has these words, best first, or that cite a rule."""
    found = notebook().search(query, limit)
    if json_:
        emit_json([r.to_json() for r in found])
        return
    if not found:
        fail(f"no ruling matches {query!r}", code=1)
    for r in found:
        echo(_line(r))


@app.command("edit")
def edit(
    ruling_id: int = ID,
    question: str = typer.Option(None, "--question", "-q", help="A new question."),
    answer: str = typer.Option(None, "--answer", "-a", help="A new answer."),
    cite: list[str] = typer.Option(
        None, "--cite", "-c", help="The rules it cites now (replaces the list; texts recorded anew)."
    ),
    book: str = typer.Option(
        None,
        "--book",
        "-b",
        help="Record the cited rules anew from this book (e.g. a newer "
        "edition, once the ruling is confirmed under it).",
    ),
    scenario: Path = typer.Option(None, "--scenario", "-s", help="Attach this scenario file instead."),
    no_scenario: bool = typer.Option(False, "--no-scenario", help="Detach the scenario."),
    json_: bool = JSON,
) -> None:
    """Change a ruling's question, answer, cited rules, book or scenario."""
    from judge.books import open_store
    from rulebook.diff import book_info

    nb = notebook()
    r = _get(nb, ruling_id)
    cites, edition, text, name = None, None, None, None
    if book is not None or cite:
        store = open_store()
        target = _book(store, book or r.book, None)
        info = book_info(store, target)
        if info["game"] != r.game:
            fail(f"book {target!r} is a {info['game']} book, the ruling {r.game}")
        cites = _cites(store, target, cite or [c.number for c in r.cites])
        edition = info["edition"]
        book = target if book is not None else None
    if scenario is not None:
        text, name = _scenario(scenario, r.game)
    r = nb.edit(
        ruling_id,
        question=question,
        answer=answer,
        cites=cites,
        book=book,
        edition=edition,
        scenario=text,
        scenario_name=name,
        drop_scenario=no_scenario,
    )
    if json_:
        emit_json(r.to_json())
        return
    echo(f"edited ruling #{r.id}")


@app.command("remove")
def remove(ruling_id: int = ID, json_: bool = JSON) -> None:
    """Delete a ruling from the notebook."""
    nb = notebook()
    _get(nb, ruling_id)
    r = nb.remove(ruling_id)
    if json_:
        emit_json({"removed": r.id})
        return
    echo(f"removed ruling #{r.id}: {r.question}")


@app.command("export")
def export(
    output: Path = typer.Option(None, "--output", "-o", help="Write to this file (default: standard output)."),
    json_: bool = JSON,
) -> None:
    """Every ruling as JSON, to keep or to import on another machine."""
    data = notebook().export()
    if output is None:
        emit_json(data)
        return
    output.write_text(json.dumps(data, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
    if json_:
        emit_json({"exported": len(data["rulings"]), "file": str(output)})
    else:
        echo(f"exported {len(data['rulings'])} rulings to {output}")


@app.command("import")
def import_(
    file: Path = typer.Argument(..., help="A file `judge ruling export` wrote."),
    json_: bool = JSON,
) -> None:
    """Add the rulings of an export that the notebook does not have yet (each ruling keeps its uid)."""
    from rulebook.notebook import NotebookError

    try:
        data = json.loads(file.read_text(encoding="utf-8"))
    except FileNotFoundError:
        fail(f"{file}: no such file")
    except (OSError, UnicodeDecodeError, ValueError) as exc:
        fail(f"{file}: not JSON: {exc}")
    try:
        added, skipped = notebook().import_(data, str(file))
    except NotebookError as exc:
        fail(str(exc), code=exc.status)
    if json_:
        emit_json({"imported": added, "skipped": skipped})
        return
    echo(
        f"imported {len(added)} rulings"
        + (f" (#{added[0]}-#{added[-1]})" if added else "")
        + (f"; {skipped} already in the notebook" if skipped else "")
    )


@app.command("check")
def check(
    book: str = typer.Option(
        None,
        "--book",
        "-b",
        help="The book to check against (default: each game's default book, its newest edition loaded).",
    ),
    game: str = GAME,
    json_: bool = JSON,
) -> None:
    """Flag rulings whose cited rules changed, moved or went in a book (with the diff), and re-run their scenarios."""
    from judge.books import books_for, open_store
    from rulebook.diff import book_info
    from rulebook.notebook import check as check_rulings

    nb = notebook()
    store = open_store()
    out = []
    for target in books_for(store, book, game):
        info = book_info(store, target)
        rulings = nb.all(game=info["game"])
        for result in check_rulings(store, rulings, target):
            if result.ruling.scenario is not None:
                result.scenario = rerun(result.ruling, target, info["edition"])
            out.append(result)
    data = {"rulings": [r.to_json() for r in out], "flagged": sum(r.flagged for r in out), "checked": len(out)}
    if json_:
        emit_json(data)
        return
    if not out:
        echo("no rulings to check (judge ruling add records one)")
        return
    echo(f"{data['checked']} rulings checked, {data['flagged']} flagged")
    for r in out:
        if not r.flagged:
            continue
        echo()
        echo(f"#{r.ruling.id}  {r.ruling.question}")
        echo(
            f"  recorded against {r.ruling.book}"
            + (f" ({r.ruling.edition})" if r.ruling.edition else "")
            + f", checked against {r.book}"
        )
        for c in r.cites:
            if c.status == "same":
                echo(f"  {c.number}: the same")
                continue
            where = f" -> {c.now}" if c.now and c.now != c.number else ""
            sure = (
                f" (similarity {c.similarity:.2f}, {c.confidence} confidence)"
                if c.similarity is not None and c.confidence
                else ""
            )
            echo(f"  {c.number}{where}: {c.status}{sure}")
            if c.diff:
                echo(f"      {c.diff}")
        if r.scenario and r.scenario["status"] != "passed":
            echo(f"  scenario {r.scenario['name'] or ''}: {r.scenario['status']}: {r.scenario['detail']}")


def rerun(ruling, book: str, edition: str | None) -> dict:
    """Run the ruling's scenario again against ``book`` (as of its edition), with its expect items."""
    import yaml

    from scenarios.explain import explain
    from scenarios.scenario import ScenarioFileError, read_scenario

    name = ruling.scenario_name or "scenario"
    data = yaml.safe_load(ruling.scenario)
    if isinstance(data, dict):
        data["book"] = book
        data.pop("edition", None)
    try:
        told = explain(
            read_scenario(yaml.safe_dump(data, allow_unicode=True, sort_keys=False), name), book, edition=edition
        )
    except ScenarioFileError as exc:
        return {"name": ruling.scenario_name, "status": "error", "detail": str(exc)}
    except Exception as exc:  # noqa: BLE001 - an engine that cannot play the scenario any more is the finding
        return {"name": ruling.scenario_name, "status": "error", "detail": f"{type(exc).__name__}: {exc}"}
    return {
        "name": ruling.scenario_name,
        "status": "passed" if told.ok else "failed",
        "detail": "; ".join(f"{dict(r.item)}: {r.detail}" for r in told.failed) or None,
    }
