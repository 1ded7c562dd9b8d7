"""``judge search QUERY``: ranked rules, terms and rulings, typos corrected, rules ranked by words and meaning."""

from __future__ import annotations

from dataclasses import dataclass, replace
from functools import partial
from typing import TYPE_CHECKING, Any

import typer

from judge.books import books_for, default_game, open_store
from judge.commands.options import BOOK, GAME, JSON
from judge.output import echo, emit_json, warn

if TYPE_CHECKING:
    from rulebook.store import Store


def search(
    query: str = typer.Argument(..., help="Words, a question, or a rule number."),
    book: str = BOOK,
    game: str = GAME,
    limit: int = typer.Option(10, "--limit", "-n", min=1, max=200, help="How many hits."),
    words: bool = typer.Option(False, "--words", help="Rank rules by their words alone, without the sentence model."),
    exact: bool = typer.Option(False, "--exact", help="Search the words as typed: no typo correction."),
    why: bool = typer.Option(False, "--why", help="Show under each hit why it ranked there."),
    json_: bool = JSON,
) -> None:
    """Search rule text, titles, examples, glossary terms and rulings; a rule number jumps to the rule.

    A question naming a loaded card shows the card first and searches the rules with its text too;
    without --game or --book, the game is the card's, else the default game (judge config game), else
    the one the question's words belong to, and the search says which.
    """
    found = searched(query, book, game, limit, words, exact)
    answer, result, hint = found.answer, found.result, found.hint
    if result.note:
        warn(result.note)
    if json_:
        emit_json(found.to_json())
    else:
        said = game_said(answer)
        if said:
            warn(said)
        if answer.card is not None:
            show_card(answer, why)
        show(result, why, editions=_editions(found.store, result.hits))
        if hint:
            echo(f"hint: {hint}")
    if not result.hits and answer.card is None:
        raise typer.Exit(1)


@dataclass(frozen=True)
class Searched:
    """A search's answer (:func:`rulebook.search.question.ask`), its hits ordered as shown, and the hint
    for a miss in an excerpt; ``store``, the library it read."""

    store: Store
    answer: Any
    result: Any
    hint: str | None

    def to_json(self) -> dict:
        """What ``judge search --json`` prints (and ``GET /api/search`` answers)."""
        return {**self.answer.to_json(), **self.result.to_json(), "hint": self.hint}


def searched(
    query: str,
    book: str | None = None,
    game: str | None = None,
    limit: int = 10,
    words: bool = False,
    exact: bool = False,
) -> Searched:
    """The search ``judge search`` runs; :func:`fail` (exit 2) for an empty query or a wrong book or game."""
    from rulebook.search import rules_first
    from rulebook.search.question import ask

    store = open_store()
    if not query.strip():
        from judge.output import fail

        fail("empty query: expected words, a question or a rule number")
    chosen = books_for(store, book, game) if book or game else None
    defaults = _defaults(store)
    if not words:
        numpy_on_one_thread()
    answer = ask(
        store,
        query,
        defaults,
        chosen=chosen,
        name_card=_card_namer(),
        setting=None if chosen else default_game(store),
        limit=limit,
        meaning=not words,
        correct_typos=not exact,
    )
    result = answer.result
    if not result.jumped:  # hits merged from several books: a question's rules first again
        result = replace(result, hits=rules_first(result.hits, result.corrected or result.query))
    hint = None
    if not result.hits:
        from rulebook.lookup import excerpt_hint

        hint = excerpt_hint(store, list(answer.books))
    return Searched(store, answer, result, hint)


def _defaults(store: Store) -> dict[str, str]:
    """game -> its default book, for every game with a book loaded."""
    from rulebook.editions import default_books

    game_of = {r.id: r.game for r in store.book_rows()}
    return {game_of[b]: b for b in default_books(store)}


def _card_namer():
    """The card a question names (:func:`rulebook.cards.mention.named_card` over the card library), when
    cards are loaded (else None: a search of the rules alone, which imports nothing of the cards)."""
    from rulebook.home import default_home

    path = default_home() / "cards.db"
    if not path.exists():
        return None
    from judge.books import open_cards
    from rulebook.cards.mention import named_card
    from rulebook.cards.store import CardLibraryError

    try:
        cards = open_cards(path)
    except CardLibraryError as exc:  # damaged, or a read-only folder: the rules are still searched
        warn(f"{exc}; searching the rules alone")
        return None
    return partial(named_card, cards) if cards.has_cards() else None


def game_said(answer) -> str | None:
    """One line saying which game a search read when the judge named none, and why."""
    guess = answer.game
    if guess.source == "card":
        return (
            f"searching {guess.game} ({answer.books[0]}): the question names the card {guess.evidence[0]}; "
            "--game to choose"
        )
    if guess.source == "setting":
        return f"searching {guess.game} ({answer.books[0]}): your default game (judge config game)"
    if guess.source == "words":
        return (
            f"searching {guess.game} ({answer.books[0]}): {', '.join(guess.evidence)} "
            f"{'is' if len(guess.evidence) == 1 else 'are'} {guess.game} words; --game to choose"
        )
    return None


def show_card(answer, why: bool = False) -> None:
    """The card the question names, above the rules."""
    mention = answer.card
    c = mention.card
    if c is None:
        names = ", ".join(f"{n} ({g})" for g, n in mention.choices)
        echo(f'cards: "{mention.words}" names {names}: choose the game with --game')
        echo()
        return
    cost = f"  {c.cost}" if c.cost else ""
    echo(f"card: {c.name}{cost}  [{c.game}] {c.type_line}")
    for line in c.text.splitlines():
        echo(f"    {line}")
    if answer.ruling is not None:
        r = answer.ruling
        echo(f"    its ruling nearest the question ({r.date or 'undated'}, {r.source}): {r.text}")
    if why:
        echo(f'    why: named by "{mention.words}" ({mention.matched}); the rules searched with its text too')
    echo()


def _editions(store: Store, hits) -> dict[str, str | None]:
    """The editions of the books of the rulings carried from an older edition's book (for their label)."""
    carried = {h.book for h in hits if h.read_in and h.read_in != h.book}
    if not carried:
        return {}
    return {r.id: r.edition for r in store.book_rows() if r.id in carried}


def numpy_on_one_thread() -> None:
    """Import NumPy with OpenBLAS on one thread, unless the user set OPENBLAS_NUM_THREADS.

    Search by meaning multiplies one vector by a book's rows (a millisecond on one core), but OpenBLAS
    starts a thread per core when NumPy loads it, and they spin waiting for work: 40-50 ms of CPU on
    two cores, more with more cores, and the main thread's time on a busy machine. OpenBLAS reads the
    variable once, as it loads; it is taken out of the environment again, so nothing this process
    starts inherits it. Hits are the same; a few cosines differ in their last bits (13 of 376
    evaluation questions, none of their hits): on several threads OpenBLAS splits a book's rows by the
    number of cores, so those bits differed from machine to machine already, and on one they do not.
    """
    import os
    import sys

    if "numpy" in sys.modules or "OPENBLAS_NUM_THREADS" in os.environ:
        return
    os.environ["OPENBLAS_NUM_THREADS"] = "1"
    try:
        import numpy  # noqa: F401
    except ImportError:  # search says so, and ranks by words alone
        pass
    finally:
        os.environ.pop("OPENBLAS_NUM_THREADS", None)


def show(result, why: bool = False, editions: dict[str, str | None] | None = None) -> None:
    if result.corrected:
        echo(f"showing results for: {result.corrected}  (you typed: {result.query})")
    if not result.hits:
        echo("no matches; try fewer or other words")
        return
    for hit in result.hits:
        label = {"rule": hit.id, "term": f"term: {hit.id}", "ruling": f"ruling {hit.id}"}[hit.kind]
        title = f"  {hit.title}" if hit.title and hit.kind != "term" else ""
        if hit.kind == "term" and hit.rule:
            title = f"  (rule {hit.rule})"
        elif hit.why.get("term"):
            title += f"  (defines the term {hit.why['term']})"
        echo(f"[{hit.book}] {label}{title}")
        echo(f"    {plain(hit.snippet)}")
        if hit.read_in and hit.read_in != hit.book:  # a ruling of an older edition's book
            edition = (editions or {}).get(hit.book)
            echo(
                f"    written for {hit.book}"
                + (f" (edition {edition})" if edition else "")
                + f", read in {hit.read_in}"
            )
        if why and hit.why:
            echo(f"    why: {reasons(hit.why)}")


def plain(snippet: str) -> str:
    """A snippet for the terminal: the ** marks around matched words (kept in JSON) taken out."""
    from rulebook.search import HIGHLIGHT

    return snippet.replace(HIGHLIGHT[0], "").replace(HIGHLIGHT[1], "")


def reasons(why: dict) -> str:
    """A hit's ``why`` (docs/json.md) in words, in the order of the stages."""
    said = []
    if why.get("number"):
        said.append("the query is its number")
    if "bm25" in why:
        said.append(f"bm25 {why['bm25']:g}")
    if "coverage" in why:
        found = ", ".join(f"{w} ({how})" for w, how in why.get("words", {}).items())
        said.append(f"has {why['coverage']:.0%} of the query" + (f": {found}" if found else ""))
    if why.get("proximity"):
        said.append(f"{why['proximity']} pair{'s' if why['proximity'] > 1 else ''} of query words close together")
    if why.get("cited"):
        said.append(f"cited {why['cited']} time{'s' if why['cited'] > 1 else ''}")
    if why.get("definition"):
        said.append(f'defines "{why["definition"]}"')
    if why.get("heading"):
        said.append("a heading (ranked below the rules under it)")
    if why.get("repeats"):
        said.append(f"repeats {why['repeats']} (ranked lower)")
    if why.get("term"):
        said.append(f"the term {why['term']} counts as this rule")
    if why.get("words_rank"):
        said.append(f"#{why['words_rank']} by words")
    if why.get("meaning_rank"):
        near = (
            f"#{why['meaning_rank']} by meaning (cosine {why['cosine']:.2f})"
            if "cosine" in why
            else f"#{why['meaning_rank']} by meaning"
        )
        said.append(near)
    if why.get("remembered"):
        said.append(f'a like question was answered by it: "{why["remembered"]}"')
    if why.get("fused"):
        said.append(f"fused {why['fused']:g}")
    return "; ".join(said)
