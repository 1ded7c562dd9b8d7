"""The question memory: what ships holds the committed training questions, with digests read from the
documents it names; a remembered answer is used only where a rule of its game reads the same, under
its number or, renumbered, under another; the memory's questions bring up the rules they were
answered by, in a newer edition too; an unreadable memory is refused."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest
from conftest import corpus, full_book, judge_in

from rulebook import memory
from rulebook.model import ModelUnavailable, Rule
from rulebook.shipped import data_file

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO / "bench"))
import train_question_adapter as training  # noqa: E402


def _record() -> dict:
    return json.loads(data_file(memory.MEMORY).read_text(encoding="utf-8"))


def test_the_shipped_memory_holds_the_committed_training_questions():
    # Editing a training file without running bench/distill_static_model.py fails here.
    info = _record()
    assert info["training_files"] == training.training_files()
    questions = training.training_questions()
    assert [(e["question"], e["book"], [n for n, _ in e["answers"]]) for e in info["entries"]] == [
        (q["question"], q["book"], q["answers"]) for q in questions
    ]


def test_the_memory_names_the_documents_its_digests_were_read_from():
    import hashlib

    import search_quality

    documents = _record()["documents"]
    assert set(documents) == {e["book"] for e in _record()["entries"]} == set(search_quality.FULL_BOOKS)
    for book, about in documents.items():
        path, game = search_quality.FULL_BOOKS[book]
        assert (about["file"], about["game"]) == (path.name, game)
        if path.exists():
            assert about["sha256"] == hashlib.sha256(path.read_bytes()).hexdigest(), book


def test_every_remembered_answer_reads_the_same_in_the_document_it_was_written_from(full_library):
    # Digests in another form than rulebook.memory.rule_digest's (bench/question_memory.py not run
    # after a change) fail here.
    store = full_book(full_library, "cr-2026", "riftbound-v1.2")
    entries = _record()["entries"]
    for book_id, game in (("cr-2026", "mtg"), ("riftbound-v1.2", "riftbound")):
        found = memory.applicable(store.rules(book_id), game=game)
        asked = [(e["question"], [n for n, _ in e["answers"]]) for e in entries if e["book"] == book_id]
        assert found == asked, book_id


def _rules(book_id: str, name: str, game: str = "mtg"):
    from rulebook.library import BookSpec, SourceFile, read_book

    return read_book(BookSpec(book_id, game, book_id, None, (SourceFile(corpus(*name.split("/"))),))).rules


def test_another_edition_keeps_the_answers_whose_rules_read_the_same_wherever_they_are(full_library):
    from rulebook.diff import masked

    source = {r.number: r for r in full_book(full_library, "cr-2026").rules("cr-2026")}
    own = [m for m in memory.read_memory() if m.game == "mtg"]
    # A year of changes leaves most rules reading as they did; before the 2009 renumbering, some rules
    # read the same under other numbers (702.7a, first strike, was 502.2a), most do not.
    for book_id, name, low, high in (
        ("cr-2025", "mtg/MagicCompRules-2025-02-07.txt", 0.9, 1.0),
        ("cr-2008", "mtg/MagicCompRules-2008-10-01.txt", 0.05, 0.15),
    ):
        rules = _rules(book_id, name)
        assert low < len(memory.applicable(rules, game="mtg")) / len(own) < high, book_id
        here, found = {r.number: r for r in rules}, memory.index(rules)
        for m in own:
            for number in memory.follow(m.answers, found):  # each answer kept reads as a 2026 answer did
                reads = (masked(here[number].title or ""), masked(here[number].text))
                assert reads in [(masked(source[n].title or ""), masked(source[n].text)) for n, _ in m.answers]


def _memory(tmp_path, entries: list[dict]) -> Path:
    path = tmp_path / "memory.json"
    documents = {"rb": {"game": "riftbound"}, "cr": {"game": "mtg"}}
    path.write_text(json.dumps({"documents": documents, "entries": entries}), encoding="utf-8")
    return path


def test_a_remembered_answer_counts_only_where_its_rule_reads_the_same(tmp_path):
    focus = Rule("313.1", title="Focus", text="The player with focus may act.")
    priority = Rule("312.1", title="Priority", text="Priority is permission to act.")
    digest = memory.rule_digest
    path = _memory(
        tmp_path,
        [
            {"question": "who has focus", "book": "rb", "answers": [["313.1", digest(focus.title, focus.text)]]},
            {"question": "who has focus, an edited rule", "book": "rb", "answers": [["313.1", "0" * 16]]},
            {"question": "a rule the book lacks", "book": "rb", "answers": [["999.9", "1" * 16]]},
            {
                "question": "who gets priority",
                "book": "rb",
                "answers": [["313.1", "0" * 16], ["312.1", digest(priority.title, priority.text)]],
            },
        ],
    )
    assert memory.applicable([focus, priority], path) == [
        ("who has focus", ["313.1"]),
        ("who gets priority", ["312.1"]),
    ]
    assert memory.applicable([], path) == []


def test_a_renumbered_rule_keeps_its_remembered_questions_in_its_own_game_only(tmp_path):
    digest = memory.rule_digest
    chain = ("Resolving", "The last item added resolves first. See rule 346.")  # as v1.2 336.1, citing 346
    pays = "The player pays the costs."
    path = _memory(
        tmp_path,
        [
            {"question": "which item resolves first", "book": "rb", "answers": [["336.1", digest(*chain)]]},
            {"question": "who pays", "book": "rb", "answers": [["402.1", digest(None, pays)]]},
            {"question": "who pays in magic", "book": "cr", "answers": [["601.2h", digest(*chain)]]},
        ],
    )
    v13 = [
        Rule("336.1", text="Pending items are processed the same way."),
        Rule("340.1", title=chain[0], text="The last item added resolves first. See rule 349."),  # renumbered
        Rule("402.1", text="Other words."),
        Rule("404.1", text=pays),
        Rule("420.1", text=pays),
    ]
    # The rule reading the same under another number answers; words two rules read answer nothing;
    # a question written against a Magic document never points into a Riftbound book.
    assert memory.applicable(v13, path, game="riftbound") == [("which item resolves first", ["340.1"])]
    assert ("who pays in magic", ["340.1"]) in memory.applicable(v13, path)  # the same words: only the game stops it
    # Its own number first, when it reads the same there too.
    v12 = [Rule("336.1", title=chain[0], text=chain[1]), Rule("340.1", title=chain[0], text=chain[1])]
    assert memory.applicable(v12, path, game="riftbound") == [("which item resolves first", ["336.1"])]


def test_the_memory_brings_up_the_rule_a_like_question_was_answered_by(full_library):
    from rulebook import vectors

    store = full_book(full_library, "cr-2026")
    entry = next(e for e in _record()["entries"] if e["book"] == "cr-2026")
    near = vectors.nearest(store, "cr-2026", entry["question"], 5)
    assert any(n.remembered == entry["question"] and n.number == entry["answers"][0][0] for n in near)


def test_every_book_is_built_again_when_the_memory_or_its_matching_changes(fresh_home, monkeypatch, tmp_path):
    # The remembered questions a book's rules answer are stored with its vectors when it is built.
    from rulebook.library import Library
    from rulebook.shipped import seeds_dir

    one, other = tmp_path / "one.json", tmp_path / "other.json"
    one.write_text('{"entries": []}', encoding="utf-8")
    other.write_text('{"entries": [] }', encoding="utf-8")
    assert memory.fingerprint(one) != memory.fingerprint(other)
    assert memory.fingerprint(one).startswith(f"{memory.MATCHING_VERSION}:")
    lib = Library(fresh_home, seeds_dir())
    lib.open()
    assert lib.sync() == []
    monkeypatch.setattr(memory, "fingerprint", lambda path=None: "test-next")
    assert sorted(lib.sync()) == ["mtg", "riftbound"]


# --- a newer edition than the memory was written against: Riftbound v1.3, loaded once --------------------------
@pytest.fixture(scope="module")
def v13_home(tmp_path_factory) -> Path:
    """A library with the seeds and Core Rules v1.3 as ``rb-1.3`` (about 1.5 s)."""
    v13 = corpus("riftbound", "core-rules-v1.3.txt")
    home = tmp_path_factory.mktemp("v13-home")
    code, _, err = judge_in(home, "load", v13, "--book", "rb-1.3")
    assert code == 0, err
    return home


def test_a_question_remembered_from_v1_2_brings_up_its_renumbered_rule_in_v1_3(v13_home):
    """v1.3 renumbered 336.1 (the newest item on the Chain resolves) as 340.1, and rewrote the rule
    numbers it cites (346 -> 349): a question answered by it in v1.2 brings 340.1 up in v1.3."""
    question = "i respond with a reaction, which one resolves first"
    entry = next(e for e in _record()["entries"] if e["question"] == question)
    assert entry["book"] == "riftbound-v1.2" and "336.1" in [n for n, _ in entry["answers"]]
    code, out, _ = judge_in(v13_home, "search", question, "--book", "rb-1.3", "--why", "--json")
    assert code == 0
    hits = json.loads(out)["hits"][:5]
    brought = {h["id"] for h in hits if h["kind"] == "rule" and h["why"].get("remembered") == question}
    assert "340.1" in brought, [(h["id"], h["why"].get("remembered")) for h in hits]
    assert "336.1" not in brought  # v1.3's 336.1 reads other words
    code, out, _ = judge_in(v13_home, "search", question, "--book", "rb-1.3", "--why")
    assert f'a like question was answered by it: "{question}"' in out


@pytest.mark.parametrize("text", ["not json", '{"entries": [{"question": 1}]}'])
def test_an_unreadable_memory_is_refused(tmp_path, text):
    path = tmp_path / "memory.json"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(ModelUnavailable, match="cannot be read"):
        memory.read_memory(path)


def test_no_memory_shipped_means_none(tmp_path):
    assert memory.read_memory(tmp_path / "absent.json") == ()
