"""``judge path A B``: how two rules are linked, by citations and by the rules' own structure."""

from __future__ import annotations

import typer

from judge.books import one_book, open_store
from judge.commands.options import BOOK, GAME, JSON
from judge.output import echo, emit_json, fail

# How the step before relates to a step, as the text output says it.
_SAY = {
    "cites": "cites",
    "cited_by": "cited by",
    "contains": "contains",
    "part_of": "part of",
    "heads": "heads",
    "under": "under",
}


def path(
    start: str = typer.Argument(..., metavar="A", help="A rule number."),
    end: str = typer.Argument(..., metavar="B", help="Another rule number."),
    book: str = BOOK,
    game: str = GAME,
    json_: bool = JSON,
) -> None:
    """How two rules are linked: the shortest chain of citations and parent/sub-rule steps.

    Each step says how it follows from the one before: "cites" or "cited by" (a citation), or containment: "contains" or "part of" (a rule and its direct parent), "heads" or "under" (a Riftbound heading rule and the rules after it).

    A chain never passes through a section, a heading over other headings (MTG 7 and 702 Keyword Abilities, Riftbound 300 Playing the Game): everything under one is linked through it.

    Of equally short chains, the one with fewer containment steps wins; a chain is never made longer only to avoid containment. Containment alone is an answer (the rules share a topic).

    No chain: one line saying so, naming the sections that alone link the rules; exit status 1.
    """
    from judge.graphs import canonical_in, load_graph
    from rulebook.graph import sections_between, shortest_path

    store = open_store()
    book = one_book(store, book, game, start)
    a, b = canonical_in(store, book, start), canonical_in(store, book, end)
    for n in (a, b):
        if store.rule(book, n) is None:
            fail(f"no rule {n} in {book}", code=1)
    G = load_graph(store, book)
    steps = shortest_path(G, ("rule", a), ("rule", b))
    only_through = [] if steps else sections_between(G, ("rule", a), ("rule", b))
    chain = []
    for step in steps:
        kind, name = step.node
        rule = store.rule(book, name) if kind == "rule" else None
        chain.append(
            {
                "kind": kind,
                "number": name,
                "title": rule.title if rule else None,
                "text": (rule.text if rule else ""),
                "via": _via(step.kind),
                "link": step.link,
                "containment": step.containment,
            }
        )
    sections = [{"number": node[1], "title": G.nodes[node].get("title") or None} for node in only_through]
    if json_:
        emit_json({"book": book, "from": a, "to": b, "path": chain, "linked_only_through": sections})
    elif not chain:
        echo(_no_path(book, a, b, sections))
    else:
        _print(book, a, b, chain)
    if not chain:
        raise typer.Exit(1)


def _via(kind: str | None) -> str | None:
    # ``via`` predates heads edges and keeps its two values: a heading heading a rule is containment.
    return None if kind is None else ("cites" if kind == "cites" else "contains")


def _no_path(book: str, a: str, b: str, sections: list[dict]) -> str:
    if not sections:
        return f"no path: no chain of citations or sub-rules links {a} and {b} in {book}"
    named = ", ".join(f"{s['number']} {s['title']}".strip() for s in sections)
    return (
        f"no path: {a} and {b} are linked in {book} only through the section{'s' if len(sections) > 1 else ''} "
        f"{named} (a chain never passes through a section)"
    )


def _print(book: str, a: str, b: str, chain: list[dict]) -> None:
    cites = sum(1 for step in chain[1:] if not step["containment"])
    contained = len(chain) - 1 - cites
    if len(chain) == 1:
        echo(f"{a} → {b} in {book}: the same rule")
    else:
        echo(
            f"{a} → {b} in {book}: {len(chain) - 1} step{'s' if len(chain) > 2 else ''} "
            f"({cites} citation{'' if cites == 1 else 's'}, {contained} containment)"
        )
    for i, step in enumerate(chain):
        text = step["title"] or step["text"]
        text = text[:90] + "…" if len(text) > 90 else text
        name = step["number"] if step["kind"] == "rule" else f"{step['kind']} {step['number']}"
        line = f"{name}  {text}".rstrip()
        echo(line if i == 0 else f"  ↳ {_SAY[step['link']]:<10}{line}")
