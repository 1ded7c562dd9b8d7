"""Reader for rulings: official FAQs as questions and answers, in plain text or Markdown.

Plain text (the FAQ seed): a topic heading, then ``Q: ...`` lines, each answered by the lines that
follow it up to the next question; every line is a paragraph, ``- `` bullets are kept as lines.

Markdown (the official FAQ pages): ``# Title``, ``# origin: ... published 2025-10-16...``,
``## Topic``, ``### Q: ...`` and the answer's paragraphs (lines joined up to a blank line).

Every part of the file is kept. A heading that is not a question (``#### Falling Star, Icathian
Rain, and Deflect``, ``### Rule 735.1.c (revised text)``) starts a *section*: a ruling whose question
is the heading and whose answer is the text under it. Inside a question's answer such a heading (a
card's revised text) stays part of the answer, except one giving a rule's revised text
(:func:`revised_rule`), which is always a section of its own. Text under the title or a topic, before
any question, is a section named by that heading. Only text under no heading at all (plain text
before its first question) is skipped, with a warning. A card's revised text ends where the publisher
speaks again ("we", "our"): that paragraph carries on the discussion the revised texts interrupted.
A comment line (``# origin: ...``, ``# downloaded from ...``: :func:`rulebook.readers.text.is_comment`)
is neither the title nor text; it may give the FAQ's date (``published 2025-10-16``).

Every ruling gets a stable id ``<file stem>-<n>``, n counting questions and sections from 1 in file
order, and carries its FAQ's title and date. :func:`link_revisions` links a later FAQ's ruling to the
earlier rulings and the rule it revises.

>>> from rulebook.model import Source
>>> lines = ["Timing", "Q: Can I react?", "Yes.", "- Only with Reaction."]
>>> doc = read_rulings(lines, Source("faq.txt", "", "rulings"), "riftbound")
>>> [(r.id, r.topic, r.question, r.answer) for r in doc.rulings]
[('faq-1', 'Timing', 'Can I react?', 'Yes.\\n- Only with Reaction.')]
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass, field, replace
from pathlib import Path

from rulebook import numbers
from rulebook.model import Document, ReadWarning, Ruling, Source
from rulebook.readers.riftbound import looks_like_title
from rulebook.readers.text import is_comment, is_junk

_HEADING = re.compile(r"^(?P<level>#{1,6})\s+(?P<text>.*?)\s*#*$")
_QUESTION = re.compile(r"^(?:#{1,6}\s*)?(?:\*\*)?Q\s*[:.](?:\*\*)?\s*(?P<question>\S.*)$")
_EMPTY_QUESTION = re.compile(r"^(?:\*\*)?Q\s*[:.]?(?:\*\*)?$")
_ANSWER_PREFIX = re.compile(r"^(?:\*\*)?A\s*[:.](?:\*\*)?\s*")
_BULLET = re.compile(r"^[-*•](?:\s+|$)")
_HTML_ONLY = re.compile(r"^<[^>]+>$")
_PUBLISHED = re.compile(r"\bpublished:?\s+(?P<date>\d{4}-\d{2}-\d{2})", re.I)
# The publisher speaking for itself ("we're changing these two cards"): never a card's text.
_PUBLISHER_VOICE = re.compile(r"\b(?:[Ww]e(?:[’'](?:re|ve|ll|d))?|[Oo]urs?|us)\b")
_DATE = re.compile(r"^\d{4}-\d{2}-\d{2}$")


def _words(text: str) -> str:
    return " ".join(text.split())


@dataclass
class _Entry:
    form: str  # question | section
    question: str
    line: int
    topic: str | None
    paragraphs: list[str] = field(default_factory=list)
    resumes: int | None = None  # the index in doc.rulings of the discussion this text carries on


@dataclass
class _Reader:
    source: Source
    doc: Document
    markdown: bool
    topic: str | None = None
    current: _Entry | None = None
    open_paragraph: bool = False  # Markdown: the next text line continues the last paragraph
    orphan_line: int | None = None  # first line of text found outside any question
    heading: tuple[int, str] | None = None  # the title or topic last seen, while no text follows it

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
        elif _unreadable(line):
            self.warn(lineno, f"unreadable line skipped: {line[:60]!r}")
        elif is_comment(line) and (line.startswith("#") or self.current is None):  # "// ..." in an answer is text
            self.comment(line)
        elif match := _QUESTION.match(line):
            self.start(lineno, "question", _words(match["question"]))
        elif self.markdown and (match := _HEADING.match(line)):
            self.on_heading(lineno, len(match["level"]), _words(match["text"]))
        elif self.markdown and _HTML_ONLY.match(line):
            pass  # an inline image: nothing a judge can read
        elif self.is_topic(line, next_line):
            # Markdown topics are "##" headings: there a title line before a question only names its card.
            if not self.markdown:
                self.set_topic(lineno, line)
        else:
            self.text(lineno, line)

    def is_topic(self, line: str, next_line: str) -> bool:
        """A title-like line right before a question (or, in plain text, before the first question)."""
        if not looks_like_title(line) or (self.current is not None and not self.current.paragraphs):
            return False  # the first line under a question is its answer, however short ("Yes")
        if _QUESTION.match(next_line.strip()):
            return True
        return not self.markdown and not self.doc.rulings and self.current is None

    def on_heading(self, lineno: int, level: int, text: str) -> None:
        if _EMPTY_QUESTION.match(text):
            self.finish()
            self.warn(lineno, "question heading without a question skipped")
        elif level == 1:
            self.document_heading(lineno, text)
        elif level == 2:
            self.set_topic(lineno, text)
        elif self.current is not None and self.current.form == "question" and revised_rule(text) is None:
            self.current.paragraphs.append(text)  # "### Card (revised text)": part of the answer
            self.open_paragraph = True
        else:
            self.start(lineno, "section", text)

    def document_heading(self, lineno: int, text: str) -> None:
        if self.doc.title is None:  # "# origin: ..." never gets here: it is a comment (self.comment)
            self.finish()
            self.doc.title = text
            self.heading = (lineno, text)
        else:
            self.set_topic(lineno, text)  # a second "#" heading parts the file as a topic does

    def comment(self, line: str) -> None:
        """A note about the file (``# origin: ... published 2025-10-16``): its date may be the FAQ's, but
        it is never the title, a topic or text."""
        if self.doc.edition is None and (match := _PUBLISHED.search(line)):
            self.doc.edition = match["date"]

    def set_topic(self, lineno: int, text: str) -> None:
        self.finish()
        self.topic = text
        self.heading = (lineno, text)

    # -- questions, sections and their text ----------------------------------------------------

    def start(self, lineno: int, form: str, question: str) -> None:
        self.finish()
        self.current = _Entry(form, question, lineno, self.topic)
        self.heading = None

    def text(self, lineno: int, line: str) -> None:
        if self.current is None:
            if self.heading is None:
                self.orphan(lineno)
                return
            self.start(self.heading[0], "section", self.heading[1])  # an introduction, named by its heading
        assert self.current is not None  # started just above
        self.orphan_line = None
        if not (self.markdown and self.open_paragraph) and self.ends_revised_text(line):
            self.resume_discussion(lineno)
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

    def ends_revised_text(self, line: str) -> bool:
        """Whether a new paragraph ends the card text under a card's revised-text heading: after the
        card's text, the publisher speaking in its own voice ("In addition to these card changes, we
        have ...") is no longer the card's text but the discussion the card's text interrupted."""
        entry = self.current
        return (
            entry is not None
            and entry.form == "section"
            and bool(entry.paragraphs)
            and _is_card_revision(entry.question, entry.topic, self.doc.title)
            and _PUBLISHER_VOICE.search(line) is not None
        )

    def resume_discussion(self, lineno: int) -> None:
        """End the card's revised text; what follows carries on the discussion above the revised texts
        (the section or question of the same topic before them), or starts a section named by the
        topic when there is none. With neither, the text stays where it is."""
        assert self.current is not None
        topic = self.current.topic
        index = len(self.doc.rulings) - 1
        while (
            index >= 0
            and self.doc.rulings[index].form == "section"
            and _is_card_revision(self.doc.rulings[index].question, topic, self.doc.title)
        ):
            index -= 1
        if index >= 0 and self.doc.rulings[index].topic == topic:
            self.finish()
            ruling = self.doc.rulings[index]
            self.current = _Entry(ruling.form, ruling.question, ruling.line, topic, resumes=index)
        elif topic:
            self.start(lineno, "section", topic)

    def orphan(self, lineno: int) -> None:
        """Text under no heading and no question: warn once per block, at its first line."""
        if self.orphan_line is not None:
            return
        self.orphan_line = lineno
        where = "before the first question" if not self.doc.rulings else "outside any question"
        self.warn(lineno, f"text {where} skipped")

    def finish(self) -> None:
        entry, self.current = self.current, None
        self.open_paragraph = False
        self.orphan_line = None
        if entry is None:
            return
        answer = "\n".join(_words(p) for p in entry.paragraphs if _words(p))
        if entry.resumes is not None:  # more of a discussion read before: its answer goes on
            earlier = self.doc.rulings[entry.resumes]
            self.doc.rulings[entry.resumes] = replace(earlier, answer="\n".join(filter(None, (earlier.answer, answer))))
            return
        if not answer:
            what = "question without an answer" if entry.form == "question" else "section without text"
            self.warn(entry.line, f"{what}: {entry.question[:60]!r}")
        self.doc.rulings.append(
            Ruling(
                id=f"{self.stem}-{len(self.doc.rulings) + 1}",
                question=entry.question,
                answer=answer,
                topic=entry.topic,
                source=self.source.name,
                line=entry.line,
                form=entry.form,
            )
        )


def _is_card_revision(heading: str, topic: str | None, title: str | None) -> bool:
    """A heading over a card's revised text (``Falling Star (revised text)``): not a rule's, nor the
    title or topic an introduction is named by (``## Origins FAQ Outstanding Issues and Errata``)."""
    if heading in (topic, title):
        return False
    return _REVISION_WORD.search(heading) is not None and revised_rule(heading) is None


def _unreadable(line: str) -> bool:
    """Text that decoded to nothing a judge can read: a third or more replacement or control characters."""
    bad = sum(1 for ch in line if ch == "\ufffd" or unicodedata.category(ch) in ("Cc", "Co", "Cn"))
    return bad * 3 >= len(line)


def is_markdown(lines: list[str]) -> bool:
    """Whether the FAQ is Markdown: it has headings (a comment line such as ``# saved by ...`` is none)."""
    return any(_HEADING.match(line.strip()) and not is_comment(line) for line in lines)


def read_rulings(lines: list[str], source: Source, game: str) -> Document:
    """Read the questions, answers and sections of an FAQ from the decoded lines of ``source``."""
    doc = Document(source=source, game=game, kind="rulings")
    reader = _Reader(source, doc, markdown=is_markdown(lines))
    following = _next_nonblank(lines)
    for index, line in enumerate(lines):
        reader.feed(index + 1, line, following[index])
    reader.finish()
    published = doc.edition if doc.edition and _DATE.match(doc.edition) else None
    doc.rulings = [replace(r, faq=doc.title, published=published) for r in doc.rulings]
    return doc


def _next_nonblank(lines: list[str]) -> list[str]:
    """For each line, the next line after it with text ("" at the end): blank lines and inline
    images are passed over, so a card's name above its picture still names the question below."""
    out, upcoming = [""] * len(lines), ""
    for index in range(len(lines) - 1, -1, -1):
        out[index] = upcoming
        if lines[index].strip() and not _HTML_ONLY.match(lines[index].strip()):
            upcoming = lines[index]
    return out


# -- revisions: a later FAQ's ruling that replaces an earlier ruling, or gives a rule's new text ----

_REVISION_WORD = re.compile(
    r"\b(?:revised|revision|updated|update|errata|erratum|amended|amendment|corrected|correction|reversed|"
    r"reversal|superseded|replaced|changed|change|new (?:text|wording))\b",
    re.I,
)
_CHANGE = re.compile(
    r"\b(?:revers\w*|supersed\w*|replac(?:e|es|ed|ing)\b|overrid\w*|overturn\w*|revis\w*|chang\w*|updat\w*|"
    r"errata|erratum|amend\w*|mistake\w*|no longer\b)",
    re.I,
)
_EARLIER = re.compile(r"\b(?:previous|earlier|prior|original|old|last)\s+(?:FAQ|rulings?|answers?|guidance)\b", re.I)
_RULE_NAMED = re.compile(r"\b(?:rules?|CR)\s+(?P<number>\d{1,3}(?:\.\d+)?(?:\.?[a-z](?![a-z]))?(?:\.\d+)*)", re.I)
_DOTTED_NUMBER = re.compile(r"\b\d{1,3}(?:\.\d+)+(?:\.?[a-z](?![a-z]))?(?:\.\d+)*")
_NAME_SPLIT = re.compile(r"\s*(?:[,&/;]|\band\b|\bor\b)\s*")
_PARENTHESES = re.compile(r"\s*\([^)]*\)")
# Words every FAQ's title and headings use: a name made of them alone names nothing.
_GENERIC = {
    "faq",
    "frequently",
    "asked",
    "questions",
    "rulings",
    "ruling",
    "official",
    "riftbound",
    "magic",
    "the",
    "gathering",
    "mtg",
    "of",
    "a",
}


def revised_rule(heading: str) -> str | None:
    """The rule number a heading gives the revised text of: it names one rule and says "revised",
    "updated", "errata", ... (``Rule 735.1.c (revised text)``, ``CR 601.2c updated``); else None.

    >>> revised_rule("Rule 735.1.c (revised text)"), revised_rule("Errata to rule 601.2c")
    ('735.1.c', '601.2c')
    >>> revised_rule("Falling Star (revised text)"), revised_rule("Rule 735.1.c and you")
    (None, None)
    >>> revised_rule("Rules 735.1.c and 735.1.d (revised text)") is None
    True
    """
    found = {m["number"] for m in _RULE_NAMED.finditer(heading)} | set(_DOTTED_NUMBER.findall(heading))
    if len(found) != 1 or not _REVISION_WORD.search(heading):
        return None
    return found.pop()


def _names(text: str | None) -> set[str]:
    """The names a heading lists, "(revised text)" and the like left out:

    >>> sorted(_names("Falling Star, Icathian Rain, and Deflect (revised text)"))
    ['Deflect', 'Falling Star', 'Icathian Rain']
    >>> sorted(_names("Origins FAQ Outstanding Issues and Errata"))
    ['Origins FAQ Outstanding Issues']
    """
    out = set()
    for part in _NAME_SPLIT.split(_PARENTHESES.sub("", text or "")):
        part = part.strip(" .:!?\"'")
        if len(part) < 3 or not (part[0].isupper() or part[0].isdigit()):
            continue
        if all(w.lower() in _GENERIC or _REVISION_WORD.fullmatch(w) for w in part.split()):
            continue
        out.add(part)
    return out


def _headings(ruling: Ruling) -> str:
    return f"{ruling.topic or ''}\n{ruling.question}"


def _listed_names(ruling: Ruling) -> set[str]:
    return _names(ruling.topic) | (_names(ruling.question) if ruling.form == "section" else set())


def _mentions(text: str, name: str) -> bool:
    return re.search(rf"(?<!\w){re.escape(name)}(?!\w)", text) is not None


def _names_faq(text: str, title: str | None) -> bool:
    """Whether ``text`` names the FAQ titled ``title`` ("Riftbound Origins FAQ": "the Origins FAQ")."""
    if not title:
        return False
    own = [w for w in title.split() if w.lower() not in _GENERIC]
    short = rf"\b{re.escape(' '.join(own))}\s+(?:FAQ|rulings?)\b" if own else None
    return title.lower() in text.lower() or (short is not None and re.search(short, text, re.I) is not None)


def _asked_again(later: Ruling, earlier: Ruling) -> bool:
    return (
        later.form == earlier.form == "question" and _words(later.question).lower() == _words(earlier.question).lower()
    )


def _says_it_changes(later: Ruling, earlier: Ruling) -> bool:
    if later.form == "section" and _REVISION_WORD.search(later.question):
        return True
    text = f"{later.question}\n{later.answer}"
    return _CHANGE.search(text) is not None and (_EARLIER.search(text) is not None or _names_faq(text, earlier.faq))


def link_revisions(rulings: list[Ruling], game: str) -> list[Ruling]:
    """``rulings`` (of one book, from all its FAQs) with ``revises`` and ``revises_rule`` set.

    A ruling L *revises* an earlier ruling E when L's FAQ is dated after E's (an undated FAQ revises
    nothing and is revised by nothing: which came first is unknown) and either L asks E's question
    again (the later answer stands), or both of these hold:

    1. they are about the same thing: a name that a topic or a section heading of either lists
       ("Falling Star & Icathian Rain", "Falling Star (revised text)": split at commas, "&" and
       "and", parentheses and revision words dropped) stands, as whole words with its capitals, in
       the topic or question (heading) of both;
    2. L says it changes something: it is a section whose heading says "revised", "updated",
       "errata", "reversed", "superseded", "replaced", "changed", ... (a card's revised text
       replaces the rulings on the old wording); or its text says it reverses, replaces, supersedes,
       overrides, revises, changes, updates or issues errata (or calls something a mistake, or says
       "no longer") *and* names E's FAQ ("the Origins FAQ") or an earlier ruling ("previous
       ruling", "earlier FAQ").

    E is then *superseded* (by every L that revises it). A section *revises a rule* when its heading
    names that one rule and a revision word (:func:`revised_rule`: "Rule 735.1.c (revised text)");
    its text is the rule's revised text. Detection reads only the texts: a reversal that names
    neither the cards nor the earlier FAQ is not found, and a card's revised text supersedes every
    earlier ruling that names the card in its topic or question.
    """

    headings = {id(r): _headings(r) for r in rulings}
    names = {id(r): _listed_names(r) for r in rulings}

    def same_subject(later: Ruling, earlier: Ruling) -> bool:
        return any(
            _mentions(headings[id(later)], n) and _mentions(headings[id(earlier)], n)
            for n in names[id(later)] | names[id(earlier)]
        )

    def revises(later: Ruling, earlier: Ruling) -> bool:
        if not (later.published and earlier.published and later.published > earlier.published):
            return False
        return _asked_again(later, earlier) or (same_subject(later, earlier) and _says_it_changes(later, earlier))

    out = []
    for later in rulings:
        rule = revised_rule(later.question) if later.form == "section" else None
        out.append(
            replace(
                later,
                revises=tuple(e.id for e in rulings if revises(later, e)),
                revises_rule=numbers.canonical(rule, game) if rule else None,
            )
        )
    return out
