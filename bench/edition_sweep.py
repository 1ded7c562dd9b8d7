"""Every shipped scenario explained on every edition of its game the corpora hold (issue 20).

For each book (the ten Comprehensive Rules of ../shared/corpora/mtg, Riftbound Core Rules v1.2 and
v1.3) and each shipped scenario of its game, the scenario is explained with that book as the default:
its ``edition:`` and ``book:`` taken out, so the rules applied are the book's (by its date) and the
numbers are the book's own (its table, or the tables carried onto it). Each run is then judged:

- **same rules**: the rules changes the run consulted (data/editions/<game>.yaml) are in force alike at
  the scenario's own edition and the book's: every expectation must hold. Expectations about the rules
  cited (``rule``, ``cites``) name numbers of the scenario's edition; they are read as the citation keys
  those numbers stand for in the scenario's own table and checked by key (a key not located in the book
  fails: the explanation's citations are incomplete).
- **decided differently**: a change the run consulted differs between the two dates: that edition's
  rules decide it, and the scenario written for that side of the change (its ``-2008``/``-2026``
  sibling, or a scenario pinned to such an edition) carries the expectation; the run must still go
  through, or be refused with a line naming what the edition lacks.
- Whatever the case, every rule text quoted says the phrase of each key that cites it.

``python bench/edition_sweep.py`` runs the whole sweep and prints a table; tests/test_editions_sweep.py
runs a sample of the books (the whole takes longer than the test suite may).
"""

from __future__ import annotations

import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))
CORPORA = REPO.parent / "shared" / "corpora"

MTG = (
    "2008-10-01",
    "2010-07-16",
    "2013-07-11",
    "2017-04-28",
    "2019-10-04",
    "2022-11-18",
    "2023-10-13",
    "2025-02-07",
    "2025-09-19",
    "2026-02-27",
)
BOOKS = {
    **{f"cr-{d}": ("mtg", CORPORA / "mtg" / f"MagicCompRules-{d}.txt") for d in MTG},
    "rb-1.2": ("riftbound", CORPORA / "riftbound" / "core-rules-v1.2.txt"),
    "rb-1.3": ("riftbound", CORPORA / "riftbound" / "core-rules-v1.3.txt"),
}


@dataclass
class Outcome:
    scenario: str
    book: str
    verdict: str  # "same rules", "decided differently", "refused"
    problems: list[str] = field(default_factory=list)
    differing: list[str] = field(default_factory=list)  # the consulted changes that differ
    unlocated: list[str] = field(default_factory=list)  # rules named by the scenario whose key the book lacks


def build(home: Path, books=BOOKS):
    """A library with ``books`` loaded; its store."""
    from rulebook.library import Library
    from rulebook.shipped import seeds_dir

    lib = Library(home, seeds=seeds_dir())
    for book_id, (game, path) in books.items():
        if path.exists():
            lib.load([path], book_id, game=game)
    return lib.open()


def scenarios(game: str) -> list[Path]:
    return sorted((REPO / "data" / "scenarios" / game).glob("*.yaml"))


def _keys_for(table, numbers) -> list[set[str]]:
    """For each expected number (or list of alternatives), the keys of ``table`` that cite it or a sub-rule."""
    from scenarios.expectations import rule_matches

    out = []
    for want in numbers:
        options = want if isinstance(want, list) else [want]
        out.append({c.key for c in table for r in c.rules for o in options if rule_matches(str(o), r)})
    return out


def judge_run(store, game: str, book: str, path: Path) -> Outcome:
    """Explain the scenario at ``path`` on ``book`` with its edition taken out, and judge it."""
    from engine.core import ScenarioError
    from rulebook.carry import norm
    from scenarios.citations import citations_for_book, edition_date, load_citations, timeline
    from scenarios.expectations import check_expectations
    from scenarios.explain import builtin_edition, new_engine, rules_cited, run_steps, used_keys, verified_quotes
    from scenarios.scenario import ScenarioFileError, load_scenario

    scenario = load_scenario(path)
    written = scenario.data.pop("edition", None)
    pinned_book = scenario.data.pop("book", None)
    written = written or (builtin_edition(pinned_book) if pinned_book else None)  # written for its book's rules
    info = store.book(book)
    citations = citations_for_book(store, game, book, info.edition)
    own = load_citations(game, str(written)) if written else None
    w_date = edition_date(game, str(written)) if written else None
    name = path.stem
    tl = timeline(game)

    def differ(engine) -> list[str]:
        if not w_date:  # a scenario that names no edition follows whatever book explains it
            return []
        consulted = set(getattr(getattr(engine, "s", None), "consulted", ()) or ())
        if game == "riftbound" or engine is None:  # read once, as the game starts: all of them count
            consulted = set(tl.names())
        return sorted(c for c in consulted if (c in tl.in_force(w_date)) != (c in citations.in_force))

    engine = None
    try:
        engine, _ = new_engine(scenario, book, info.edition, citations)
        steps = list(run_steps(scenario, engine))
    except (ScenarioFileError, ScenarioError) as exc:
        message = str(exc)
        differing = differ(engine)
        if differing:  # the scenario's own sentences follow its edition (a token's name, a step)
            return Outcome(name, book, "decided differently", [], differing)
        ok = "not in the" in message and "Comprehensive Rules" in message or "rules do not define" in message
        return Outcome(name, book, "refused", [] if ok else [f"refused: {message}"])
    differing = differ(engine)
    problems = []
    # No text quoted under a key whose phrase it lacks.
    cited = rules_cited(engine.opening, steps)
    quoted, _ = verified_quotes(
        citations,
        book,
        cited,
        used_keys(engine.opening, steps),
        lambda b, n: _text(store, b, n),
        lambda b, n: _text(store, b, n),
    )
    for n, text in quoted:
        if text is None:
            continue
        for key in used_keys(engine.opening, steps):
            c = citations.citation(key) if key in citations else None
            if (
                c
                and n in c.rules
                and c.phrase
                and norm(c.phrase) not in " ".join(norm(_text(store, book, r) or "") for r in c.rules)
            ):
                problems.append(f"{n} quoted under {key}, which it does not say")
    if differing:
        return Outcome(name, book, "decided differently", problems, differing)
    state_items, rule_items = [], []
    for item in scenario.expect:
        plain = {k: v for k, v in item.items() if k not in ("rule", "cites")}
        if len(plain) > (1 if ("after" in item or "end" in item) else 0):
            state_items.append(plain)
        if ("rule" in item or "cites" in item) and own is not None:
            rule_items.append(item)
    final = engine.snapshot()
    for r in check_expectations(state_items, steps, final):
        if not r.ok:
            problems.append(f"{_where(r.item)}: {r.detail}")
    from scenarios.expectations import rule_matches

    unlocated: list[str] = []
    for item in rule_items:
        step = steps[item["after"] - 1] if isinstance(item.get("after"), int) and item["after"] <= len(steps) else None
        events = step.events if step else [e for s in steps for e in s.events]
        rules = {r for e in events for r in e.rules} | set(step.rules if step else ())
        wanted = ([item["rule"]] if "rule" in item else []) + list(item.get("cites") or [])
        for number, options in zip(wanted, _keys_for(own, wanted)):
            if not options:
                continue
            located = options - citations.unlocated
            if not located:
                unlocated.append(f"{_where(item)}: {number} ({', '.join(sorted(options))})")
                continue
            # the rule the scenario names, as the book numbers it: a rule of any key standing for it
            if not any(
                rule_matches(n, r) for k in located for n in _narrowed(own, k, number, citations) for r in rules
            ):
                problems.append(
                    f"{_where(item)}: {number} ({', '.join(sorted(located))}) not cited as "
                    f"{', '.join(sorted({n for k in located for n in citations.citation(k).rules}))}"
                )
    return Outcome(name, book, "same rules", problems, [], unlocated)


def _narrowed(own, key: str, number, citations) -> list[str]:
    """The book's numbers for the rules of ``key`` that ``number`` (of the scenario's edition) names: the
    same position in the key's list, else all of them."""
    from scenarios.expectations import rule_matches

    mine, theirs = own.citation(key).rules, citations.citation(key).rules
    options = number if isinstance(number, list) else [number]
    at = [i for i, r in enumerate(mine) for o in options if rule_matches(str(o), r)]
    if len(mine) == len(theirs) and at:
        return [theirs[i] for i in at]
    return list(theirs)


def _where(item) -> str:
    return "end" if item.get("end") else f"after {item.get('after')}"


def _text(store, book: str, number: str) -> str | None:
    rule = store.rule(book, number)
    return None if rule is None else "\n".join(x for x in (rule.title, rule.text, *rule.examples) if x)


def sweep(store, books, games=("mtg", "riftbound")) -> list[Outcome]:
    out = []
    for book in books:
        info = store.book(book)
        if info is None or info.game not in games:
            continue
        for path in scenarios(info.game):
            out.append(judge_run(store, info.game, book, path))
    return out


def main() -> int:
    with tempfile.TemporaryDirectory() as home:
        import os

        os.environ["JUDGE_HOME"] = home
        t = time.time()
        store = build(Path(home))
        print(f"library: {time.time() - t:.1f} s", file=sys.stderr)
        t = time.time()
        results = sweep(store, [b for b in BOOKS if store.book(b)])
        print(f"sweep: {len(results)} explanations in {time.time() - t:.1f} s", file=sys.stderr)
    failed = [r for r in results if r.problems]
    by_book: dict[str, dict[str, int]] = {}
    for r in results:
        by_book.setdefault(r.book, {}).setdefault(r.verdict, 0)
        by_book[r.book][r.verdict] += 1
    print("| book | same rules | decided differently | refused | cites not located | failed |")
    print("|---|---|---|---|---|---|")
    for book, counts in by_book.items():
        bad = sum(1 for r in failed if r.book == book)
        gaps = sum(len(r.unlocated) for r in results if r.book == book)
        print(
            f"| {book} | {counts.get('same rules', 0)} | {counts.get('decided differently', 0)} | "
            f"{counts.get('refused', 0)} | {gaps} | {bad} |"
        )
    for r in results:
        if r.unlocated:
            print(f"not located: {r.book} {r.scenario}: {'; '.join(r.unlocated)}")
    for r in failed:
        print(f"FAIL {r.book} {r.scenario}: {'; '.join(r.problems)}")
    return 1 if failed else 0


if __name__ == "__main__":
    raise SystemExit(main())
