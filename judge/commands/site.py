"""``judge site OUTDIR``: the loaded books as a static hyperlinked site (rulebook.site)."""

from __future__ import annotations

from pathlib import Path

import typer

from judge.books import books_for, check_book, open_store
from judge.commands.options import JSON
from judge.output import echo, emit_json, fail


def site(
    outdir: Path = typer.Argument(..., help="The folder to write the site into (made when absent)."),
    book: list[str] = typer.Option(
        None, "--book", "-b", help="A book to include (repeat for more); default: every loaded book."
    ),
    cards: bool = typer.Option(
        True, "--cards/--no-cards", help="A page per loaded card of the books' games, and card names in the search."
    ),
    json_: bool = JSON,
) -> None:
    """Write a static site of the books: an index, a page per section with an anchor per rule, every
    reference a link, "cited by" under each rule, the glossary and rulings, what changed between
    editions, a page per card, and a search that works offline, opened from the file system or any web
    server."""
    from rulebook.site import write_site

    if outdir.exists() and not outdir.is_dir():
        fail(f"{outdir} is a file: give a folder to write the site into")
    store = open_store()
    if book:
        for one in book:
            check_book(store, one)
        chosen = list(dict.fromkeys(b for one in book for b in books_for(store, one)))
    else:
        chosen = store.book_ids()
    files = site_files(store, chosen, cards)
    try:
        written = write_site(files, outdir)
    except OSError as exc:
        fail(f"cannot write the site into {outdir}: {exc.strerror or exc}")
    pages = sum(1 for f in files if f.path.endswith(".html"))
    card_pages = sum(1 for f in files if f.path.startswith("cards/"))
    if json_:
        emit_json(
            {
                "outdir": str(outdir),
                "books": chosen,
                "pages": pages,
                "cards": card_pages,
                "files": written,
                "index": str(outdir / "index.html"),
            }
        )
        return
    with_cards = f" (of which {card_pages} cards)" if card_pages else ""
    echo(f"wrote {pages} pages{with_cards} of {', '.join(chosen)} to {outdir}; open {outdir / 'index.html'}")


def site_files(store, books: list[str], cards: bool) -> list:
    """The site's files (:func:`rulebook.site.build_site`), with the cards of the books' games when asked."""
    from rulebook.site import build_site

    return build_site(store, books, _cards(store, books) if cards else ())


def _cards(store, books: list[str]) -> list:
    """The cards of the books' games, when the card library has any (rulebook.site.read_cards)."""
    from rulebook.cards.store import CardStore, card_db_path
    from rulebook.home import default_home
    from rulebook.site import read_cards

    path = card_db_path(default_home())
    if not path.exists():
        return []
    return read_cards(store, CardStore(path), books)
