"""``judge card NAME`` and ``judge cards QUERY``: the card library (issue 21). A card is named as a
judge types it (exact, a part, misspelt); it is shown with its text, each keyword and keyword action
linked to the rule of the game's default book that defines it, its rulings newest first, and the
rulings of the loaded FAQs that name it."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any

import typer

from judge.commands.options import JSON
from judge.output import echo, emit_json, fail
from rulebook import games

if TYPE_CHECKING:
    from rulebook.store import Store

CARD_GAME = typer.Option(None, "--game", "-g", help="Only this game's cards: riftbound or mtg.")
NO_CARDS = (
    "no cards are loaded: judge load reads card files (Scryfall card and rulings data, MTGJSON v3 or v5 "
    "set files, the Riftbound card gallery and errata)"
)


def _cards(game: str | None):
    from rulebook.cards.store import CardStore, card_db_path
    from rulebook.home import default_home

    if game is not None:
        games.get(game)  # an unknown game: one line with "did you mean" (judge.errors)
    path = card_db_path(default_home())
    if not path.exists():
        fail(NO_CARDS, code=1)
    store = CardStore(path)
    if not store.has_cards(game):
        fail(NO_CARDS if game is None else f"no {game} cards are loaded (judge load reads card files)", code=1)
    return store


def card(
    name: str = typer.Argument(..., help="A card's name: exact, a part of it (bolt) or misspelt (lightning blot)."),
    game: str = CARD_GAME,
    engine: bool = typer.Option(
        False,
        "--engine",
        help="Also say whether the reference engine reads the card whole (a scenario naming it takes its "
        "text), and if not the words it refuses (Magic: under the newest rules).",
    ),
    json_: bool = JSON,
) -> None:
    """Show a card: its text with its keywords linked to their rules, its rulings and the FAQ rulings naming it."""
    view = card_json(name, game, engine)
    if json_:
        emit_json(view)
        return
    show_card(view)


def card_json(name: str, game: str | None = None, engine: bool = False) -> dict[str, Any]:
    """What ``judge card NAME --json`` prints (and ``GET /api/card/NAME`` answers); :func:`fail` (exit 1)
    when no card is loaded or none is named so, with the names meant."""
    from rulebook.cards.lookup import faq_rulings, find_card, links

    store = _cards(game)
    found, suggestions = find_card(store, name, game)
    if found is None and game is None and suggestions:  # a name of both games: the judge's default game's
        from judge.books import default_game

        preferred = default_game()
        if preferred is not None:
            found, _ = find_card(store, name, preferred)
    if found is None:
        said = f"; did you mean: {', '.join(suggestions)}" if suggestions else ""
        fail(f"no card named {name!r}{said}", code=1, suggestions=tuple(suggestions))
    c = found.card
    view = card_view(c, found.matched, name)
    rules = _rules_store()
    if rules is not None:
        book = _default_book(rules, c.game)
        if book is not None:
            view["book"] = book
            view["links"] = [dict(link, book=book) for link in links(rules, book, c)]
        view["faq"] = [
            {
                "book": r["book"],
                "id": r["id"],
                "faq": r["faq"],
                "published": r["published"],
                "question": r["question"],
                "answer": r["answer"],
            }
            for r in faq_rulings(rules, c.game, c)
        ]
    view["engine"] = _engine_reading(c) if engine else None
    return view


def _engine_reading(c) -> dict[str, Any]:
    # The engines and the scenario reader load only when asked (the lookup stays as quick as judge rule).
    from rulebook.cards.scenario import CardLibrary
    from rulebook.home import default_home
    from scenarios.reading import engine_reading

    return engine_reading(c, CardLibrary(default_home())).to_json()


def cards(
    query: str = typer.Argument(..., help="Words of a card's name or text."),
    type_: str = typer.Option(
        None, "--type", "-t", help="Only cards of this type (Creature, Instant, Unit, Spell, ...)."
    ),
    keyword: str = typer.Option(
        None, "--keyword", "-k", help="Only cards with this keyword (Flying, Accelerate, ...)."
    ),
    game: str = CARD_GAME,
    limit: int = typer.Option(20, "--limit", "-n", min=1, max=500, help="At most this many cards."),
    json_: bool = JSON,
) -> None:
    """Search card names and text."""
    store = _cards(game)
    found = store.search(query, game, type_, keyword, limit)
    views = [
        {
            "game": c.game,
            "name": c.name,
            "type_line": c.type_line,
            "cost": c.cost,
            "keywords": list(c.keywords),
            "text": c.text,
        }
        for c in found
    ]
    if json_:
        emit_json(views)
        return
    if not views:
        fail(
            f"no card matches {query!r}"
            + (f" with type {type_}" if type_ else "")
            + (f" and keyword {keyword}" if keyword else ""),
            code=1,
        )
    for v in views:
        first = v["text"].split("\n")[0] if v["text"] else ""
        echo(f"{v['name']}  {v['cost'] or ''}".rstrip() + f"  [{v['game']}] {v['type_line']}")
        if first:
            echo(f"    {first[:110]}" + ("..." if len(first) > 110 else ""))


def card_view(c, matched: str, query: str) -> dict[str, Any]:
    """A card as ``judge card --json`` prints it (docs/json.md)."""
    return {
        "query": query,
        "matched": matched,
        "game": c.game,
        "name": c.name,
        "type_line": c.type_line,
        "types": list(c.types),
        "subtypes": list(c.subtypes),
        "supertypes": list(c.supertypes),
        "cost": c.cost,
        "keywords": list(c.keywords),
        "text": c.text,
        "layout": c.layout,
        "sets": list(c.sets),
        "faces": [
            {
                "name": f.name,
                "cost": f.cost,
                "type_line": f.type_line,
                "text": f.text,
                "power": f.power,
                "toughness": f.toughness,
                "loyalty": f.loyalty,
                "might": f.might,
            }
            for f in c.faces
        ],
        "extra": dict(c.extra),
        "rulings": [{"date": r.date, "text": r.text, "source": r.source, "official": r.official} for r in c.rulings],
        "book": None,
        "links": [],
        "faq": [],
    }


def _rules_store() -> Store | None:
    """judge.db, for a card's links to the rules and the FAQ rulings naming it; None when it cannot be read."""
    from judge.books import open_store

    try:
        return open_store()
    except Exception:  # noqa: BLE001 - a card is shown without links when the rules cannot be read
        return None


def _default_book(rules: Store, game: str) -> str | None:
    from rulebook.editions import default_book

    return default_book(rules, game)


def show_card(v: dict[str, Any]) -> None:
    head = v["name"] + (f"  {v['cost']}" if v["cost"] else "") + f"  [{v['game']}]"
    echo(head if v["matched"] == "exact" else f"{head}  (for {v['query']!r})")
    stats = []
    for face in v["faces"] if len(v["faces"]) > 1 else []:
        echo(f"  {face['name']}" + (f"  {face['cost']}" if face["cost"] else "") + f" — {face['type_line']}")
        for line in (face["text"] or "").split("\n"):
            echo(f"    {line}")
    if len(v["faces"]) <= 1:
        echo(f"  {v['type_line']}")
        for line in (v["text"] or "").split("\n"):
            echo(f"  {line}")
        face = v["faces"][0] if v["faces"] else {}
        if face.get("power") is not None or face.get("toughness") is not None:
            stats.append(f"{face.get('power')}/{face.get('toughness')}")
        if face.get("loyalty"):
            stats.append(f"loyalty {face['loyalty']}")
        if face.get("might"):
            stats.append(f"might {face['might']}")
    if stats:
        echo(f"  {', '.join(stats)}")
    if v["sets"]:
        echo(f"  sets: {', '.join(v['sets'])}")
    if v["links"]:
        echo(f"\nRules (book {v['book']}):")
        for link in v["links"]:
            echo(
                f"  {link['word']:18} {link['rule']}" + (f" {link['title'].title()}" if link["kind"] == "term" else "")
            )
    if v.get("engine"):
        e = v["engine"]
        under = f" under the {e['edition']} rules" if e["edition"] else ""
        if e["reads"]:
            echo(f"\nEngine: reads it whole{under}: a scenario naming it takes its text")
            for sentence in e.get("assumed") or ():
                echo(f"  but {sentence}")
        else:
            # The engine's vocabulary in the refusal is for writing a scenario; --json keeps it whole.
            echo(f"\nEngine: does not read it{under}: {re.sub(r' [(]known: .*[)](?=; to use it)', '', e['refused'])}")
    if v["rulings"]:
        echo(f"\nRulings ({len(v['rulings'])}, newest first):")
        for r in v["rulings"]:
            who = r["source"] + ("" if r["official"] else ", not official")
            echo(f"  {r['date'] or 'undated'} ({who}): {r['text']}")
    if v["faq"]:
        echo(f"\nFAQ rulings naming it ({len(v['faq'])}):")
        for r in v["faq"]:
            echo(f"  [{r['id']}] {r['question']}")
            echo(f"      {r['answer']}")
