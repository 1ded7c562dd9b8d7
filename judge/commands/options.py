"""Options several commands share, so they read the same everywhere."""

import typer

JSON = typer.Option(False, "--json", help="Print JSON (stable keys, see docs/json.md) instead of text.")
BOOK = typer.Option(None, "--book", "-b", help="Only this book (see `judge books`); default: each game's default book.")
GAME = typer.Option(
    None,
    "--game",
    "-g",
    help="Only this game's default book: riftbound or mtg (its newest full edition loaded, else its seed book).",
)
