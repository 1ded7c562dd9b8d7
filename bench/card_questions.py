"""How often `judge search` answers a judge's question that names a card (issue 21's acceptance).

    python bench/card_questions.py            # the blind set, both ways, totals and by game
    python bench/card_questions.py --list     # also each question's card and first answering rule
    python bench/card_questions.py --dev --list   # the questions tuned on instead

The questions are tests/card_questions.yaml: written from the card files and rulings alone, before
any card search existed, and measured once (not tuned on). A question counts when the card it names
is the card the search shows (top 1) and a rule that answers it is among the first 5 rule hits
(a rule listed or one of its sub-rules, as bench/search_quality.py counts; rule hits only, as there).

Two ways of asking: as a judge types it, no game named (the search finds the card and the game), and
with the question's book given (`--book`). The library: the 2026 Comprehensive Rules (`cr-2026`),
Riftbound Core Rules v1.3 with the three FAQs (`rb-1.3`), and every card file of
../shared/corpora/cards with the Riftbound errata.
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
from functools import partial
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
if str(REPO) not in sys.path:
    sys.path.insert(0, str(REPO))
sys.path.insert(0, str(REPO / "bench"))
QUESTIONS = REPO / "tests" / "card_questions.yaml"
CORPORA = REPO.parent / "shared" / "corpora"
K = 5
BAR = 0.8


def build(home: Path) -> None:
    """Load the books and the card files into ``home`` with the judge command, as a judge would."""
    from judge.cli import main as judge

    cards = CORPORA / "cards"
    loads = [
        [CORPORA / "mtg" / "MagicCompRules-2026-02-27.txt", "--book", "cr-2026"],
        [
            CORPORA / "riftbound" / "core-rules-v1.3.txt",
            *sorted((CORPORA / "riftbound").glob("faq-*.md")),
            "--book",
            "rb-1.3",
        ],
        [
            *sorted((cards / "mtg" / "mtgjson-v3").glob("*.json")),
            *sorted((cards / "mtg" / "mtgjson-v5").glob("*.json")),
            *sorted((cards / "mtg" / "scryfall").glob("*.json")),
            cards / "riftbound" / "cards.json",
            CORPORA / "riftbound" / "errata.json",
        ],
    ]
    os.environ["JUDGE_HOME"] = str(home)
    for args in loads:
        sys.argv = ["judge", "load", *map(str, args)]
        try:
            judge()
        except SystemExit as exc:
            if exc.code:
                raise


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--list", action="store_true", help="each question's outcome")
    parser.add_argument(
        "--dev",
        action="store_true",
        help="the tuning questions (bench/data/card_questions_dev.yaml) instead of the blind set",
    )
    parser.add_argument("--questions", type=Path, help="another question file of the same form")
    args = parser.parse_args()
    if not (CORPORA / "cards").exists():
        sys.exit(f"the corpora are absent ({CORPORA}): nothing to measure")
    import yaml
    from search_quality import rank

    path = args.questions or (REPO / "bench" / "data" / "card_questions_dev.yaml" if args.dev else QUESTIONS)
    questions = yaml.safe_load(path.read_text(encoding="utf-8"))["questions"]
    with tempfile.TemporaryDirectory() as tmp:
        home = Path(tmp)
        build(home)
        from judge.books import open_store
        from judge.commands.search import _defaults
        from rulebook.cards.mention import named_card
        from rulebook.cards.store import CardStore, card_db_path
        from rulebook.home import default_home
        from rulebook.search.question import ask

        store = open_store()
        cards = CardStore(card_db_path(default_home()))
        name_card = partial(named_card, cards)
        defaults = _defaults(store)
        print(f"{len(questions)} questions; books {defaults}; {cards.count()} cards")
        for way in ("as typed", "book given"):
            rows = []
            for q in questions:
                chosen = [q["book"]] if way == "book given" else None
                answer = ask(
                    store, q["question"], defaults, chosen=chosen, name_card=name_card, limit=10, kinds=("rule",)
                )
                card = answer.card.card.name if answer.card is not None and answer.card.card is not None else None
                r = rank([h.id for h in answer.result.hits], [str(a) for a in q["answers"]])
                rows.append((q, card == q["card"], r is not None and r <= K, card, r))
            print(f"\n== {way}")
            for game in ("mtg", "riftbound", None):
                mine = [row for row in rows if game is None or row[0]["game"] == game]
                n = len(mine) or 1
                both = sum(1 for _, c, ok, _, _ in mine if c and ok)
                print(
                    f"{game or 'all':10} n={len(mine):3}  card top-1 {sum(1 for r in mine if r[1]) / n:.2f}  "
                    f"rule top-5 {sum(1 for r in mine if r[2]) / n:.2f}  both {both / n:.2f}"
                    + ("" if game else f"  (bar {BAR})")
                )
            if args.list:
                for q, c, ok, card, r in rows:
                    mark = "ok " if c and ok else "-- "
                    print(f"  {mark}{q['question'][:70]:70}  card={card}  rank={r}")


if __name__ == "__main__":
    main()
