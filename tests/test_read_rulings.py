"""The rulings reader on the FAQ seed, on the official Riftbound FAQs and on broken input."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rulebook.model import ReadError, ReadWarning, Source
from rulebook.readers import read_file
from rulebook.readers.rulings import read_rulings

SEEDS = Path(__file__).resolve().parents[1] / "seeds"
CORPORA = Path(__file__).resolve().parents[2] / "shared" / "corpora"
SEED_FAQ = SEEDS / "riftbound-faq-core-rules.txt"
ORIGINS = CORPORA / "riftbound" / "faq-origins.md"
SPIRITFORGED = CORPORA / "riftbound" / "faq-spiritforged.md"


def corpus(path: Path):
    if not path.exists():
        pytest.skip(
            f"{path.name} not found at {path.parent}: shared/corpora sits beside the checkout only in the "
            "workplace and CI"
        )
    return read_file(path)


def read(lines: list[str], name: str = "faq.txt"):
    return read_rulings(lines, Source(name=name, sha256="", kind="rulings"), "riftbound")


# ---------------------------------------------------------------------------------------------
# The FAQ seed


@pytest.fixture(scope="module")
def seed():
    return read_file(SEED_FAQ)


def test_seed_faq(seed):
    questions = [line for line in SEED_FAQ.read_text(encoding="utf-8").splitlines() if line.startswith("Q: ")]
    assert len(seed.rulings) == len(questions) == 10
    assert (seed.game, seed.kind, seed.warnings) == ("riftbound", "rulings", [])
    assert [r.id for r in seed.rulings] == [f"riftbound-faq-core-rules-{n}" for n in range(1, 11)]
    assert {r.topic for r in seed.rulings} == {"Core Rules Questions"}
    assert [r.question for r in seed.rulings] == [q[3:] for q in questions]


def test_seed_faq_answer_with_bullets(seed):
    ruling = seed.rulings[2]
    assert (ruling.question, ruling.line, ruling.source) == (
        "When can I play a spell or ability?",
        10,
        "riftbound-faq-core-rules.txt",
    )
    lines = ruling.answer.split("\n")
    assert lines[0] == "It depends on the type of spell or ability:"
    assert [line[:20] for line in lines[1:]] == ["- Reactions can be p", "- Actions can’t be u", "- Spells or abilitie"]
    assert len(seed.rulings[8].answer.split("\n- ")) == 7  # "How does Hidden work?": an intro and six bullets


def test_seed_faq_answer_paragraphs(seed):
    ruling = seed.rulings[6]
    assert ruling.question == "How do I score the winning point?"
    assert ruling.answer == (
        "Like other points, you can score the winning point by holding a battlefield or through extra point "
        "abilities on cards like Tryndamere, Barbarian.\n"
        "To score the winning point through conquering a battlefield, you must have already scored the other "
        "battlefields this turn. If you would score the winning point from conquering a battlefield but haven’t "
        "scored the other battlefields yet this turn, you draw 1 card instead."
    )


# ---------------------------------------------------------------------------------------------
# The official FAQs (Markdown)


def test_origins_faq():
    doc = corpus(ORIGINS)
    text = ORIGINS.read_text(encoding="utf-8")
    assert len(doc.rulings) == len(re.findall(r"(?m)^### Q:", text)) == 97
    assert (doc.game, doc.kind) == ("riftbound", "rulings")
    assert (doc.title, doc.edition) == ("Riftbound Origins FAQ", "2025-10-16")
    assert doc.warnings == []
    assert len({r.id for r in doc.rulings}) == 97 and doc.rulings[-1].id == "faq-origins-97"
    topics = list(dict.fromkeys(r.topic for r in doc.rulings))
    assert topics == re.findall(r"(?m)^## (.+)$", text)
    assert len(topics) == 42 and topics[:3] == ["Scoring", "Movement", "Combat"]


def test_origins_faq_sample():
    first = corpus(ORIGINS).rulings[0]
    assert (first.id, first.topic, first.line) == ("faq-origins-1", "Scoring", 6)
    assert first.question == "How do I score? How are conquer and hold different?"
    assert first.answer == (
        "When you take control of a battlefield you didnʼt already control and which you havenʼt scored yet this "
        "turn, you score 1 point. This is called conquering.\n"
        "If you control a battlefield at the start of your turn, you score 1 point. This is called holding."
    )


def test_origins_faq_bullets_revised_text_and_wrapped_lines():
    rulings = {r.id: r for r in corpus(ORIGINS).rulings}
    bullets = rulings["faq-origins-2"].answer.split("\n")
    assert bullets[2] == "- If you are at 6 points and conquer both battlefields, youʼll go to 7 and then to 8 and win."
    # A card's revised text under its own heading is part of the answer; lines wrapped inside it are joined.
    mutation = rulings["faq-origins-44"].answer.split("\n")
    assert mutation[-3:] == [
        "Convergent Mutation",
        "[Reaction] (Play any time, even before spells and abilities resolve.)",
        "Choose a friendly unit. This turn, increase its Might to the Might of another friendly unit.",
    ]
    # "-" alone on its line, its text indented below it.
    tie = rulings["faq-origins-89"].answer.split("\n")
    assert tie[2] == (
        "- A player loses a combat if the other player in combat still has units present and they do not "
        "(ie, if the other player wins)."
    )
    assert not any("<img" in r.answer for r in rulings.values())


def sections_by_hand(text: str) -> dict[str, int]:
    """What an FAQ page holds, counted from its lines alone: questions; introductions (prose right
    under the title or a topic heading); and headings that are neither questions nor inside a
    question's answer (before the first question of their topic)."""
    lines = [
        line
        for line in text.splitlines()
        if line.strip() and not line.startswith("<img") and not line.startswith("# origin:")
    ]
    questions = sum(line.startswith("### Q:") for line in lines)
    intros = sum(1 for line, after in zip(lines, lines[1:]) if re.match(r"#{1,2} ", line) and not after.startswith("#"))
    loose, asked = 0, False
    for line in lines:
        if re.match(r"#{1,2} ", line):
            asked = False
        elif line.startswith("### Q:"):
            asked = True
        elif line.startswith("###") and not asked:
            loose += 1
    return {"questions": questions, "introductions": intros, "sections": loose}


def test_spiritforged_faq_keeps_every_section():
    doc = corpus(SPIRITFORGED)
    counted = sections_by_hand(SPIRITFORGED.read_text(encoding="utf-8"))
    assert counted == {"questions": 27, "introductions": 4, "sections": 4}
    assert len(doc.rulings) == sum(counted.values()) == 35
    forms = [r.form for r in doc.rulings]
    assert (forms.count("question"), forms.count("section")) == (27, 8)
    assert (doc.title, doc.edition) == ("Riftbound Spiritforged FAQ", "2026-01-14")
    assert {(r.faq, r.published) for r in doc.rulings} == {("Riftbound Spiritforged FAQ", "2026-01-14")}
    assert doc.warnings == []
    sections = [(r.line, r.topic, r.question) for r in doc.rulings if r.form == "section"]
    outstanding = "Origins FAQ Outstanding Issues and Errata"
    assert sections == [
        (1, None, "Riftbound Spiritforged FAQ"),
        (33, outstanding, outstanding),
        (37, outstanding, "Falling Star, Icathian Rain, and Deflect"),
        (48, outstanding, "Falling Star (revised text)"),
        (58, outstanding, "Icathian Rain (revised text)"),
        (78, outstanding, "Rule 735.1.c (revised text)"),
        (132, "Spiritforged Functional Errata", "Spiritforged Functional Errata"),
        (270, "Rules Clarifications", "Rules Clarifications"),
    ]
    topics = list(dict.fromkeys(r.topic for r in doc.rulings if r.form == "question"))
    assert topics == [
        "Cards that Tell You to Play Other Cards from Your Deck",
        "Reflexive Triggers on Spiritforged Cards",
        "Spiritforged Functional Errata",
        "Rules Clarifications",
        "Cards that Reduce Might",
    ]


def test_spiritforged_faq_loses_no_text():
    """Every line of prose is in a ruling, but for a card's name on its own line above a question
    (which names the card itself, but for these two)."""
    doc = corpus(SPIRITFORGED)
    kept = "\n".join(f"{r.question}\n{r.answer}" for r in doc.rulings)
    lines = SPIRITFORGED.read_text(encoding="utf-8").splitlines()
    prose = [line.strip() for line in lines if line.strip() and not line.startswith(("#", "<img"))]
    lost = [line for line in prose if " ".join(line.lstrip("- ").split()) not in kept]
    assert lost == ["Draven, Audacious", "Cards with Weaponmaster"]


def test_spiritforged_faq_sections():
    rulings = {r.question: r for r in corpus(SPIRITFORGED).rulings}
    rule = rulings["Rule 735.1.c (revised text)"]
    assert (rule.id, rule.form, rule.line) == ("faq-spiritforged-6", "section", 78)
    assert rule.answer == (
        'It is functionally short for "Spells and abilities an opponent controls that choose me cost an amount of '
        'Power equal to [Deflect Value] more to play as an additional cost for each time they choose me."'
    )
    falling = rulings["Falling Star (revised text)"]
    assert falling.answer == "Deal 3 to a unit.\nDeal 3 to a unit.\n(You can choose different units.)"
    rain = rulings["Icathian Rain (revised text)"]
    assert rain.answer == "\n".join(["Deal 2 to a unit."] * 6 + ["(You can choose different units.)"])
    # The paragraph on Deflect after the revised card texts carries on the discussion they interrupted.
    reversal = rulings["Falling Star, Icathian Rain, and Deflect"].answer.split("\n")
    assert reversal[0].startswith("The Origins FAQ impacted these two Origins cards")
    assert reversal[-2].endswith("You can still choose the same unit or different units for each choice.")
    assert reversal[-1].startswith("In addition to these card changes, we have a small rules change to make.")
    intro = rulings["Riftbound Spiritforged FAQ"].answer.split("\n")
    assert intro[0].startswith("Hi all!") and intro[-1].startswith("- [C] in other cases")


def test_spiritforged_faq_sample():
    rulings = {r.id: r for r in corpus(SPIRITFORGED).rulings}
    last = rulings["faq-spiritforged-35"]
    assert (last.topic, last.line, last.form) == ("Cards that Reduce Might", 390, "question")
    assert last.question == (
        'The reminder text of Weaponmaster says "You may", but the Core Rules reads like it is mandatory. Which is it?'
    )
    assert last.answer == (
        "Oh, sharp catch. Weaponmaster as a keyword is always meant to be optional. While the rules utilize a language "
        "structure that imply a mandatory target, the reminder text is more accurate here. It is always a choice on "
        "whether or not to use this play ability. We will clean up that language in the future."
    )
    # A card name on its own line before the next question names that question; it is not answer text,
    # not even with the card's picture between the name and the question.
    assert rulings["faq-spiritforged-11"].answer.endswith("\nDraw 1.")
    assert rulings["faq-spiritforged-22"].answer.endswith("instead of a point for conquering.")
    assert rulings["faq-spiritforged-30"].answer.endswith("to get it back up to 1 Might.")


@pytest.mark.parametrize("path", [SEED_FAQ, ORIGINS, SPIRITFORGED], ids=lambda p: p.name)
def test_faqs_are_detected(path):
    doc = corpus(path)
    assert (doc.game, doc.kind, doc.source.kind) == ("riftbound", "rulings", "rulings")


# ---------------------------------------------------------------------------------------------
# Broken input


def test_text_before_the_first_question_warns():
    doc = read(["Welcome to the FAQ, read on.", "More intro.", "Q: Is this a question?", "Yes."])
    assert [(r.question, r.answer, r.topic) for r in doc.rulings] == [("Is this a question?", "Yes.", None)]
    assert doc.warnings == [ReadWarning("faq.txt", 1, "text before the first question skipped")]


def test_empty_answer_warns_and_keeps_the_question():
    doc = read(["Q: First?", "Q: Second?", "Answer two."])
    assert [(r.id, r.answer) for r in doc.rulings] == [("faq-1", ""), ("faq-2", "Answer two.")]
    assert doc.warnings == [ReadWarning("faq.txt", 1, "question without an answer: 'First?'")]


def test_answer_prefix_and_topics_in_plain_text():
    doc = read(["Timing", "Q: When?", "A: Now.", "Later too.", "Combat Basics", "Q: Who attacks?", "The mover."])
    assert [(r.topic, r.question, r.answer) for r in doc.rulings] == [
        ("Timing", "When?", "Now.\nLater too."),
        ("Combat Basics", "Who attacks?", "The mover."),
    ]


def test_short_answer_is_not_taken_for_a_topic():
    doc = read(["Basics", "Q: Can I pass?", "Yes", "Q: Can I concede?", "Any Time"])
    assert [(r.topic, r.answer) for r in doc.rulings] == [("Basics", "Yes"), ("Basics", "Any Time")]


def test_markdown_paragraphs_and_text_outside_questions():
    """Text under a topic but outside any question is a section named by the topic."""
    doc = read(
        [
            "# My FAQ",
            "## Topic One",
            "Intro for the topic.",
            "",
            "### Q: Wrapped?",
            "",
            "First line",
            "second line.",
            "",
            "- bullet",
            "",
            "## Topic Two",
            "Loose text.",
        ],
        name="my-faq.md",
    )
    assert doc.title == "My FAQ" and doc.edition is None
    answers = [(r.id, r.form, r.topic, r.question, r.answer, r.line) for r in doc.rulings]
    assert answers == [
        ("my-faq-1", "section", "Topic One", "Topic One", "Intro for the topic.", 2),
        ("my-faq-2", "question", "Topic One", "Wrapped?", "First line second line.\n- bullet", 5),
        ("my-faq-3", "section", "Topic Two", "Topic Two", "Loose text.", 12),
    ]
    assert doc.warnings == []


def test_headings_that_are_not_questions():
    doc = read(
        [
            "# My FAQ",
            "# origin: somewhere published 2024-05-01",
            "Welcome.",
            "## Cards",
            "### Q: Is it fixed?",
            "Yes.",
            "### Spark (revised text)",
            "",
            "Deal 1.",
            "### Rule 101.2 (revised text)",
            "",
            "New rule text.",
            "#### Frost and Flame",
            "",
            "Both changed.",
            "### Q: Another?",
            "No.",
        ],
        name="my-faq.md",
    )
    assert [(r.form, r.question, r.answer) for r in doc.rulings] == [
        ("section", "My FAQ", "Welcome."),
        # a card's revised text under a question answers it; a rule's revised text stands on its own
        ("question", "Is it fixed?", "Yes.\nSpark (revised text)\nDeal 1."),
        ("section", "Rule 101.2 (revised text)", "New rule text."),
        ("section", "Frost and Flame", "Both changed."),
        ("question", "Another?", "No."),
    ]
    assert {(r.faq, r.published) for r in doc.rulings} == {("My FAQ", "2024-05-01")}
    assert doc.warnings == []


def test_file_without_questions_is_a_read_error(tmp_path):
    path = tmp_path / "faq-empty.md"
    path.write_text("Nothing here yet.\nStill nothing.\n", encoding="utf-8")
    with pytest.raises(ReadError, match="faq-empty.md"):
        read_file(path, game="riftbound", kind="rulings")


def test_empty_faq_file_is_a_read_error(tmp_path):
    path = tmp_path / "faq.txt"
    path.write_bytes(b"")
    with pytest.raises(ReadError, match="faq.txt"):
        read_file(path)


# ---------------------------------------------------------------------------------------------
# Property: an FAQ rendered as text or Markdown reads back as the same rulings


_CAPITAL = ["Units", "Players", "Spells", "Battlefields", "Showdowns", "Runes"]
_LOWER = ["can", "move", "score", "react", "during", "the", "chain", "turn", "again", "never"]


def _sentence(draw, end: str) -> str:
    words = [draw(st.sampled_from(_CAPITAL))] + draw(st.lists(st.sampled_from(_LOWER), min_size=1, max_size=6))
    return " ".join(words) + end


@st.composite
def faqs(draw):
    """[(topic, question, [answer lines])]: answer lines are sentences or "- " bullets."""
    out = []
    for _ in range(draw(st.integers(1, 3))):
        topic = " ".join(draw(st.lists(st.sampled_from(_CAPITAL), min_size=1, max_size=3)))
        for _ in range(draw(st.integers(1, 3))):
            answer = [
                ("- " if draw(st.booleans()) and i else "") + _sentence(draw, ".")
                for i in range(draw(st.integers(1, 4)))
            ]
            out.append((topic, _sentence(draw, "?"), answer))
    return out


def render_text(faq) -> list[str]:
    lines, topic = [], None
    for this_topic, question, answer in faq:
        if this_topic != topic:
            lines.append(this_topic)
            topic = this_topic
        lines += [f"Q: {question}", *answer]
    return lines


def render_markdown(faq, wrap: bool) -> list[str]:
    lines, topic = ["# Generated FAQ"], None
    for this_topic, question, answer in faq:
        if this_topic != topic:
            lines += ["", f"## {this_topic}"]
            topic = this_topic
        lines += ["", f"### Q: {question}"]
        for paragraph in answer:
            words = paragraph.split(" ")
            if wrap and len(words) > 2:  # a hard-wrapped paragraph
                lines += ["", " ".join(words[:2]), "    " + " ".join(words[2:])]
            else:
                lines += ["", paragraph]
    return lines


@settings(max_examples=100, deadline=None)
@given(faq=faqs(), markdown=st.booleans(), wrap=st.booleans())
def test_rendered_faq_reads_back(faq, markdown, wrap):
    lines = render_markdown(faq, wrap) if markdown else render_text(faq)
    doc = read(lines, name="gen.md" if markdown else "gen.txt")
    assert [(r.topic, r.question, r.answer) for r in doc.rulings] == [(t, q, "\n".join(a)) for t, q, a in faq]
    assert [r.id for r in doc.rulings] == [f"gen-{n}" for n in range(1, len(faq) + 1)]
    assert doc.warnings == []


def test_unreadable_section_warns_with_file_and_line():
    doc = read(
        [
            "# Broken FAQ",
            "## Cards",
            "### Q: Fine?",
            "Yes.",
            "### Ember (revised text)",
            "",
            "\ufffd\ufffd\ufffd\ufffd \ufffd\ufffd",
            "\x01\x02\x03\x04\x05",
            "### Q:",
            "Orphaned words.",
            "#### Empty heading",
            "### Q: Still read?",
            "Yes.",
        ],
        name="faq-broken.md",
    )
    assert [(r.form, r.question, r.answer) for r in doc.rulings] == [
        ("question", "Fine?", "Yes.\nEmber (revised text)"),
        ("section", "Empty heading", ""),
        ("question", "Still read?", "Yes."),
    ]
    assert [str(w) for w in doc.warnings] == [
        "faq-broken.md:7: unreadable line skipped: '\ufffd\ufffd\ufffd\ufffd \ufffd\ufffd'",
        "faq-broken.md:8: unreadable line skipped: '\\x01\\x02\\x03\\x04\\x05'",
        "faq-broken.md:9: question heading without a question skipped",
        "faq-broken.md:10: text outside any question skipped",
        "faq-broken.md:11: section without text: 'Empty heading'",
    ]
