"""Reader for rulings: official FAQs as questions and answers, in plain text or Markdown.

Plain text (the FAQ seed): a topic heading, then ``Q: ...`` lines, each answered by the lines that
follow it up to the next question; every line is a paragraph, ``- `` bullets are kept as lines.

Markdown (the official FAQ pages): ``# Title``, ``# origin: ... published 2025-10-16...``,
``## Topic``, ``### Q: ...`` and the answer's paragraphs (lines joined up to a blank line). A
non-question heading inside an answer (a card's revised text) is kept as a paragraph of the answer.

Every ruling gets a stable id ``<file stem>-<n>``, n counting questions from 1 in file order.

>>> from rulebook.model import Source
>>> lines = ["Timing", "Q: Can I react?", "Yes.", "- Only with Reaction."]
>>> doc = read_rulings(lines, Source("faq.txt", "", "rulings"), "riftbound")
>>> [(r.id, r.topic, r.question, r.answer) for r in doc.rulings]
[('faq-1', 'Timing', 'Can I react?', 'Yes.\\n- Only with Reaction.')]
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path

from rulebook.model import Document, ReadWarning, Ruling, Source
from rulebook.readers.riftbound import looks_like_title
from rulebook.readers.text import is_junk

_HEADING = re.compile(r"^(?P<level>#{1,6})\s+(?P<text>.*?)\s*#*$")
_QUESTION = re.compile(r"^(?:#{1,6}\s*)?(?:\*\*)?Q\s*[:.](?:\*\*)?\s*(?P<question>\S.*)$")
_ANSWER_PREFIX = re.compile(r"^(?:\*\*)?A\s*[:.](?:\*\*)?\s*")
_BULLET = re.compile(r"^[-*•](?:\s+|$)")
_HTML_ONLY = re.compile(r"^<[^>]+>$")
_ORIGIN = re.compile(r"^origin:", re.I)
_PUBLISHED = re.compile(r"\bpublished\s+(?P<date>\d{4}-\d{2}-\d{2})")


def _words(text: str) -> str:
    return " ".join(text.split())


@dataclass
class _Question:
    question: str
    line: int
    topic: str | None
    paragraphs: list[str] = field(default_factory=list)


@dataclass
class _Reader:
    source: Source
    doc: Document
    markdown: bool
    topic: str | None = None
    current: _Question | None = None
    open_paragraph: bool = False  # Markdown: the next text line continues the last paragraph
    orphan_line: int | None = None  # first line of text found outside any question

    @property
    def stem(self) -> str:
        return Path(self.source.name).stem

    def warn(self, line: int, reason: str) -> None:
        self.doc.warnings.append(ReadWarning(self.source.name, line, reason))

    # -- line dispatch -----------------------------------------------------------------------

    def feed(self, lineno: int, raw: str, next_line: str) -> None:
        line = raw.strip()
        if not line:
            self.open_paragraph = False
            return
        if is_junk(line):
            self.warn(lineno, f"junk line skipped: {line[:60]!r}")
        elif match := _QUESTION.match(line):
            self.start_question(lineno, _words(match["question"]))
        elif self.markdown and (match := _HEADING.match(line)):
            self.heading(lineno, len(match["level"]), _words(match["text"]))
        elif self.markdown and _HTML_ONLY.match(line):
            pass  # an inline image: nothing a judge can read
        elif self.is_topic(line, next_line):
            # Markdown topics are "##" headings: there a title line before a question only names its card.
            if not self.markdown:
                self.set_topic(line)
        else:
            self.text(lineno, line)

    def is_topic(self, line: str, next_line: str) -> bool:
        """A title-like line right before a question (or, in plain text, before the first question)."""
        if not looks_like_title(line) or (self.current is not None and not self.current.paragraphs):
            return False  # the first line under a question is its answer, however short ("Yes")
        if _QUESTION.match(next_line.strip()):
            return True
        return not self.markdown and not self.doc.rulings and self.current is None

    def heading(self, lineno: int, level: int, text: str) -> None:
        if level == 1:
            self.document_heading(text)
        elif level == 2:
            self.set_topic(text)
        elif self.current is not None:
            self.current.paragraphs.append(text)  # "### Card (revised text)": part of the answer
            self.open_paragraph = True
        else:
            self.orphan(lineno)

    def document_heading(self, text: str) -> None:
        if _ORIGIN.match(text):
            if match := _PUBLISHED.search(text):
                self.doc.edition = match["date"]
        elif self.doc.title is None:
            self.doc.title = text

    def set_topic(self, text: str) -> None:
        self.finish_question()
        self.topic = text

    # -- questions and answers ---------------------------------------------------------------

    def start_question(self, lineno: int, question: str) -> None:
        self.finish_question()
        self.current = _Question(question, lineno, self.topic)

    def text(self, lineno: int, line: str) -> None:
        if self.current is None:
            self.orphan(lineno)
            return
        self.orphan_line = None
        paragraphs = self.current.paragraphs
        if not paragraphs:
            line = _ANSWER_PREFIX.sub("", line)
        if _BULLET.match(line):
            paragraphs.append("- " + _BULLET.sub("", line))
        elif self.markdown and self.open_paragraph and paragraphs:
            paragraphs[-1] += " " + line
        else:
            paragraphs.append(line)
        self.open_paragraph = self.markdown

    def orphan(self, lineno: int) -> None:
        """Text that belongs to no question: warn once per block, at its first line."""
        if self.orphan_line is not None:
            return
        self.orphan_line = lineno
        where = "before the first question" if not self.doc.rulings and self.current is None else "outside any question"
        self.warn(lineno, f"text {where} skipped")

    def finish_question(self) -> None:
        question, self.current = self.current, None
        self.open_paragraph = False
        self.orphan_line = None
        if question is None:
            return
        answer = "\n".join(_words(p) for p in question.paragraphs if _words(p))
        if not answer:
            self.warn(question.line, f"question without an answer: {question.question[:60]!r}")
        self.doc.rulings.append(
            Ruling(
                id=f"{self.stem}-{len(self.doc.rulings) + 1}",
                question=question.question,
                answer=answer,
                topic=question.topic,
                source=self.source.name,
                line=question.line,
            )
        )


def is_markdown(lines: list[str]) -> bool:
    return any(_HEADING.match(line.strip()) for line in lines)


def read_rulings(lines: list[str], source: Source, game: str) -> Document:
    """Read the questions and answers of an FAQ from the decoded lines of ``source``."""
    doc = Document(source=source, game=game, kind="rulings")
    reader = _Reader(source, doc, markdown=is_markdown(lines))
    following = _next_nonblank(lines)
    for index, line in enumerate(lines):
        reader.feed(index + 1, line, following[index])
    reader.finish_question()
    return doc


def _next_nonblank(lines: list[str]) -> list[str]:
    """For each line, the next non-blank line after it ("" at the end)."""
    out, upcoming = [""] * len(lines), ""
    for index in range(len(lines) - 1, -1, -1):
        out[index] = upcoming
        if lines[index].strip():
            upcoming = lines[index]
    return out
