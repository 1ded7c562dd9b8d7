"""The one model for rule documents of every game.

A :class:`Book` is what a judge loads and names (``riftbound``, ``mtg``, ``cr-2026``); it is read from
one or more source files, each of which yields a :class:`Document`: rules, glossary terms, rulings,
and the warnings the reader could not place.

>>> r = Rule(number="312.1", parent="312", text="Priority is the singular exclusive right ...")
>>> r.number, r.parent
('312.1', '312')
"""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass(frozen=True)
class Source:
    """A file a book was read from."""

    name: str  # file name as shown to the judge
    sha256: str
    kind: str  # rules | glossary | rulings | mixed
    path: str = ""  # where it was read from (informative only)


@dataclass(frozen=True)
class Rule:
    number: str  # canonical: riftbound "312.2.b.1", mtg "601.2c"; MTG part headings are "1".."9"
    parent: str | None = None
    title: str | None = None  # for headings ("The Turn", "Game Concepts")
    text: str = ""
    examples: tuple[str, ...] = ()
    source: str = ""  # source file name
    line: int = 0  # 1-based line in the source file
    expected_children: int | None = None  # from an outline's "N subsections"


@dataclass(frozen=True)
class Term:
    term: str
    definition: str
    source: str = ""
    line: int = 0
    obsolete: bool = False
    headword_recovered: bool = False  # the headword line was lost and was recovered from the text


@dataclass(frozen=True)
class Ruling:
    id: str  # stable within the book, e.g. "faq-core-rules-3"
    question: str  # a section's heading when form is "section"
    answer: str
    topic: str | None = None
    source: str = ""
    line: int = 0
    form: str = "question"  # question (Q:/A:) | section (a heading and its text, e.g. a revised text)
    faq: str | None = None  # the title of the FAQ it comes from
    published: str | None = None  # that FAQ's date, YYYY-MM-DD
    revises: tuple[str, ...] = ()  # ids of earlier rulings this one replaces (rulebook.readers.rulings)
    revises_rule: str | None = None  # the rule whose revised text this section gives


@dataclass(frozen=True)
class ReadWarning:
    source: str
    line: int
    reason: str

    def __str__(self) -> str:
        return f"{self.source}:{self.line}: {self.reason}"


@dataclass(frozen=True)
class Truncation:
    """A marker such as ``... and 168 more rules``: the scrape stops here."""

    source: str
    line: int
    missing: int
    after: str | None  # the last rule number read before the marker


@dataclass
class Document:
    """What one reader made of one file."""

    source: Source
    game: str
    kind: str  # rules | glossary | rulings | mixed (a full CR has rules and a glossary)
    title: str | None = None
    edition: str | None = None  # effective date or version when the text states it
    rules: list[Rule] = field(default_factory=list)
    terms: list[Term] = field(default_factory=list)
    rulings: list[Ruling] = field(default_factory=list)
    warnings: list[ReadWarning] = field(default_factory=list)
    truncations: list[Truncation] = field(default_factory=list)


@dataclass(frozen=True)
class Book:
    id: str
    game: str
    title: str
    edition: str | None
    sources: tuple[Source, ...] = ()
    builtin: bool = False


def one_line(text: str) -> str:
    """``text`` with its line breaks written as ``\\n``: an error quoting a value of the file stays one line.

    >>> print(one_line("cannot read {" + chr(10) + "W}"))
    cannot read {\\nW}
    """
    return text.replace("\r", "\\r").replace("\n", "\\n").replace("\u2028", "\\u2028").replace("\u2029", "\\u2029")


class ReadError(Exception):
    """A file that cannot be read at all. ``str()`` is one line naming the file (and line)."""

    def __init__(self, path: str, message: str, line: int | None = None):
        message = one_line(message)  # a message quoting the file stays one line
        self.path, self.line, self.message = path, line, message
        where = f"{path}:{line}" if line else path
        super().__init__(f"{where}: {message}")


from rulebook.shipped import ModelUnavailable  # noqa: E402,F401  (defined there: a search need not build these dataclasses)
