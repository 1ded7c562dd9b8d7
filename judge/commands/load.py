"""``judge load PATH... [--book ID]``: rule documents into a book, card files into the card library."""

from __future__ import annotations

from pathlib import Path

import typer

from judge.books import library, notify
from judge.commands.options import JSON
from judge.meaning import prepare
from judge.output import echo, emit_json, fail, warn


def load(
    paths: list[Path] = typer.Argument(
        ...,
        help="Rule, glossary and rulings files (text, PDF or Word .docx; the kind of each is detected), "
        "and card files (Scryfall, MTGJSON v3/v5, the Riftbound card "
        "gallery and errata: recognised by their content).",
    ),
    book: str = typer.Option(
        None,
        "--book",
        "-b",
        help="Id of the book to create or replace, e.g. cr-2026 (for rule files; card files need none).",
    ),
    game: str = typer.Option(None, "--game", help="riftbound or mtg (detected from the text when not given)."),
    edition: str = typer.Option(None, "--edition", help="Edition or effective date (read from the text when stated)."),
    title: str = typer.Option(None, "--title", help="Title of the book."),
    json_: bool = JSON,
) -> None:
    """Read rule, glossary and rulings files into one book, and card files into the game's card library,
    stored under $JUDGE_HOME."""
    from rulebook.cards.readers import KNOWN, describe, detect, looks_like_json
    from rulebook.library import LibraryError
    from rulebook.model import ReadError
    from rulebook.readers.truncated import TRUNCATED

    for p in paths:
        if not p.exists():
            fail(f"{p}: no such file")
    card_paths, rule_paths = [], []
    for p in paths:
        if p.is_file() and detect(p):
            card_paths.append(p)
        elif p.is_file() and looks_like_json(p):
            raise ReadError(
                str(p), f"{describe(p)}: neither a rules text nor a card file judge load reads (expected {KNOWN})"
            )
        else:
            rule_paths.append(p)
    if rule_paths and not book:
        names = ", ".join(p.name for p in rule_paths[:3]) + (", ..." if len(rule_paths) > 3 else "")
        fail(
            f"--book is needed for the rule files ({names}): the id of the book to make, e.g. --book cr-2026 "
            "(card files alone need none)"
        )
    if book and not rule_paths:
        warn(f"card files go to their game's card library, not into a book: --book {book} made no book")
    from judge.progress import Steps

    lib = library()
    cards = None
    try:
        # One load at a time (another waits): what is reported is what this load stored.
        with lib.locked("load", book if rule_paths else "cards"):
            with Steps("reading") as step:  # the files given, then any book the library must build again
                if card_paths:
                    from rulebook.cards.load import loading
                    from rulebook.cards.store import CardStore, card_db_path

                    store_of_cards = CardStore(card_db_path(lib.home), notify=notify)
                    try:
                        # One transaction: a rules file that fails to read takes the cards back too.
                        with loading(store_of_cards, card_paths, progress=step) as cards:
                            if rule_paths:
                                built = lib.load(list(rule_paths), book, game, edition, title, progress=step)
                    finally:
                        store_of_cards.close()
                elif rule_paths:
                    built = lib.load(list(rule_paths), book, game, edition, title, progress=step)
            if rule_paths:
                store = lib.open()
                counts = store.counts(book)
                ready = prepare(store, [book])
    except LibraryError as exc:
        fail(str(exc))
    out: dict = {}
    if rule_paths:
        # A file that looks truncated is said first, however many other warnings there are.
        warnings = sorted((str(w) for w in built.warnings), key=lambda w: not w.endswith(TRUNCATED))
        if not built.edition and counts["rules"]:
            warnings.append(
                f"no edition found in the text or the file names of {book}: explanations on it apply the "
                "newest rules the engine knows; load it again with --edition DATE (the rules' effective "
                "date) to explain it with its own"
            )
        truncated = [d.source.name for d in built.documents if d.truncations]
        vectors = ready[book] if ready is not None else None
        out = {
            "book": book,
            "game": built.spec.game,
            "title": built.title,
            "edition": built.edition,
            **counts,
            "vectors": vectors,
            "truncated": truncated,
            "warnings": warnings,
        }
    if json_:
        emit_json({**out, "cards": cards or []})
        return
    for r in cards or []:
        echo(_card_line(r))
    if rule_paths:
        echo(
            f"loaded {book} ({built.spec.game}): {counts['rules']} rules, {counts['terms']} terms, "
            f"{counts['rulings']} rulings" + (f", edition {built.edition}" if built.edition else "")
        )
        for w in warnings[:50]:
            echo(f"  warning: {w}")
        if len(warnings) > 50:
            echo(f"  ... and {len(warnings) - 50} more warnings (see --json)")


def _card_line(r: dict) -> str:
    """``loaded 8046 cards (8046 new, 0 updated), 17880 rulings from M10.json (mtgjson-v3)``."""
    if r["already_loaded"]:
        return f"{r['file']}: unchanged since it was loaded ({_n(r['cards'], 'card')})"
    line = (
        f"loaded {_n(r['cards'], 'card')} ({r['new']} new, {r['updated']} updated), {_n(r['rulings'], 'ruling')} "
        f"from {r['file']} ({r['format']})"
    )
    if r["pending"]:
        line += f"; {r['pending']} for cards not in the library, kept for when they are loaded"
    return line


def _n(count: int, noun: str) -> str:
    return f"{count} {noun}" + ("" if count == 1 else "s")
