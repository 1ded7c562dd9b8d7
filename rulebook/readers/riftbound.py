"""Reader for Riftbound rule documents: the Core Rules text and the outline/detail scrapes of it.

Riftbound numbers are dotted at every level, digits and letters alternating below the section, to
any depth: ``303``, ``303.2``, ``303.2.a``, ``303.2.a.1``, ``134.2.e.6.a``, ``359.3.f.3.a.1``. One
reader handles the layouts seen in practice:

* one rule a line, number first (``312.1. Priority is ...``), indented or not;
* the number alone on its line and the text on the next (the detail scrape);
* ``N subsections`` under a rule (the outline scrape): how many children the full text has;
* ``... and 168 more rules``: the scrape stops here (a :class:`Truncation`, not text);
* numbers broken by a PDF line wrap (``312. 3 When ...`` is 312.3, ``322.8. a The ...`` is
  322.8.a), repaired where the joined number continues the numbering read so far;
* two rules run together on one line (``... passes. 312.3 When a player ...``);
* a number glued to a word left over from the page (``Refl391. Delayed ...``), read as the rule it
  starts where it continues the numbering, the leftover dropped with a warning naming it;
* a comment line above the title (``# converted from the PDF by ...``), which is not the title;
* a number printed twice: both rules are kept, the second as ``744.5-2`` (see
  :func:`rulebook.numbers.duplicate`), with a warning.

>>> from rulebook.model import Source
>>> doc = read_riftbound(["301. The Turn", "312.2. A player receives Priority:", "312. 3 When a player ..."],
...                      Source("x.txt", "", "rules"))
>>> [(r.number, r.title, r.text) for r in doc.rules]
[('301', 'The Turn', ''), ('312.2', None, 'A player receives Priority:'), ('312.3', None, 'When a player ...')]
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from rulebook.model import Document, ReadWarning, Rule, Source, Truncation
from rulebook.numbers import duplicate, parent, printed, sort_key
from rulebook.readers import truncated
from rulebook.readers.text import glued_note, is_comment, is_junk, is_markup

GAME = "riftbound"

# A number at the start of a line: "312", "312.2.b.1", with or without the final dot.
_LEADING_NUMBER = re.compile(r"^(?P<number>\d{3}(?:\.(?:\d{1,3}|[a-z]{1,2}))*)(?P<dot>\.?)(?:\s+|$)")
# The last part of a number pushed past the space by a line wrap: "312. 3 When" (never "1." , a step label).
_DANGLING_PART = re.compile(r"^(?P<part>\d{1,2}|[a-z])\s+(?=[^\sa-z])")
# A rule run into the end of the previous one: "... passes. 312.3 When a player ...".
_EMBEDDED_NUMBER = re.compile(r"(?<=[.!?\"”)])\s+(?P<number>\d{3}(?:\.(?:\d{1,3}|[a-z]{1,2}))+)\.?\s+(?=[A-Z\"“\[])")
# A number glued to the end of a word left over from the page (a PDF's link or running header), at the
# start of a line or after a sentence: "Refl391. Delayed Abilities ..." (v1.3's 390.5.b).
_GLUED_NUMBER = re.compile(
    r"(?:^|(?<=[.!?\"”)])\s+)(?P<leftover>[A-Za-z][A-Za-z’'-]{0,29}?)"
    r"(?P<number>\d{3}(?:\.(?:\d{1,3}|[a-z]{1,2}))*)(?P<dot>\.?)\s+(?=[A-Z\"“\[])"
)
_SUBSECTIONS = re.compile(r"^(?P<count>\d{1,6})\s+subsections?$", re.I)  # (not thousands of digits: int())
_TRUNCATION = re.compile(r"^(?:\.\.\.|…)\s*and\s+(?P<missing>\d{1,6})\s+more\s+rules?\.?$", re.I)
_LAST_UPDATED = re.compile(r"^(?:Last Updated|Updated|Effective)\s*:?\s*(?P<edition>.+)$", re.I)
_BULLET = re.compile(r"^[*•]\s+")
_EXAMPLE = re.compile(r"\s*\bExamples?:\s*")
_SPACE_BEFORE_PUNCTUATION = re.compile(r"(?<=\S)\s+(?=[,.;:!?](?:\s|$))")

# Words a Title Case heading leaves in lower case ("Presence on Card outside of the Board").
_MINOR_WORDS = frozenset(
    "a an and as at by for from in into of on onto or outside over per the to under upon via vs with within"
    " without".split()
)
_BARE_NUMBER = re.compile(r"^\d+\.?$")


# ---------------------------------------------------------------------------------------------
# Numbers


def is_valid_number(number: str) -> bool:
    """Riftbound structure: a 3-digit section, then digits and letters alternating."""
    parts = number.split(".")
    if not re.fullmatch(r"\d{3}", parts[0]):
        return False
    return all(part.isdigit() if i % 2 else part.isalpha() for i, part in enumerate(parts[1:], start=1))


def _first_child(number: str) -> str:
    return f"{number}.{'1' if number.count('.') % 2 == 0 else 'a'}"


def _previous_sibling(number: str) -> str | None:
    head, _, last = number.rpartition(".")
    if not head:
        return None
    if last.isdigit():
        return f"{head}.{int(last) - 1}" if int(last) > 1 else None
    return f"{head}.{chr(ord(last) - 1)}" if len(last) == 1 and last > "a" else None


def _next_sibling(number: str) -> str | None:
    head, _, last = number.rpartition(".")
    if last.isdigit():
        following = f"{int(last) + 1:0{len(last)}d}" if not head else str(int(last) + 1)
    elif len(last) == 1 and last < "z":
        following = chr(ord(last) + 1)
    else:
        return None
    return f"{head}.{following}" if head else following


def expected_after(number: str | None) -> set[str]:
    """The numbers that may follow ``number`` in order: its first child, or the next sibling of it or of an ancestor."""
    if number is None:
        return set()
    found = {_first_child(number)}
    parts = number.split(".")
    for depth in range(len(parts), 0, -1):
        sibling = _next_sibling(".".join(parts[:depth]))
        if sibling is not None:
            found.add(sibling)
    return found


# ---------------------------------------------------------------------------------------------
# Text


def looks_like_title(text: str) -> bool:
    """A heading rather than a rule sentence: few words, Title Case, no final punctuation.

    >>> looks_like_title("Presence on Card outside of the Board"), looks_like_title("Step 1: Finalize")
    (True, True)
    >>> looks_like_title("Make necessary choices."), looks_like_title("2 Players"), looks_like_title("Victory Score: 8")
    (False, False, False)
    """
    words = text.split()
    if not words or len(words) > 8 or text[-1] in ".,;:!?":
        return False
    if _BARE_NUMBER.match(words[0]) or _BARE_NUMBER.match(words[-1]) or "Example" in text:
        return False
    return _capitalised(words[0]) and all(_capitalised(w) or w.lower() in _MINOR_WORDS for w in words[1:])


def _capitalised(word: str) -> bool:
    stripped = word.lstrip("([\"'“‘")
    return bool(stripped) and (stripped[0].isupper() or stripped[0].isdigit())


def clean_text(text: str) -> str:
    """One line of normal spacing: PDF conversion leaves ``Closed State , they``."""
    text = " ".join(text.split())
    return _SPACE_BEFORE_PUNCTUATION.sub("", text)


def split_examples(text: str) -> tuple[str, tuple[str, ...]]:
    """``"Rule text. Example: one. Example: two."`` -> the rule text and the examples."""
    pieces = _EXAMPLE.split(text)
    return pieces[0].strip(), tuple(p.strip() for p in pieces[1:] if p.strip())


# ---------------------------------------------------------------------------------------------
# Reading


@dataclass
class _Pending:
    """A rule whose text is still being collected from the lines that follow it."""

    number: str
    line: int
    parts: list[str] = field(default_factory=list)
    expected_children: int | None = None


@dataclass
class _Reader:
    source: Source
    doc: Document
    current: _Pending | None = None
    last_number: str | None = None
    first_line: dict[str, int] = field(default_factory=dict)
    times_printed: dict[str, int] = field(default_factory=dict)
    preamble_done: bool = False

    def warn(self, line: int, reason: str) -> None:
        self.doc.warnings.append(ReadWarning(self.source.name, line, reason))

    # -- line dispatch -----------------------------------------------------------------------

    def feed(self, lineno: int, raw: str) -> None:
        line = raw.strip()
        if not line:
            return
        if is_junk(line):
            self.warn(lineno, f"junk line skipped: {line[:60]!r}")
            return
        if is_markup(line):
            self.warn(lineno, f"markup skipped (a web page's or a PDF's, not rules text): {line[:60]!r}")
            return
        if match := _TRUNCATION.match(line):
            self.finish_rule()
            self.doc.truncations.append(Truncation(self.source.name, lineno, int(match["missing"]), self.last_number))
            return
        if match := _SUBSECTIONS.match(line):
            self.set_expected_children(lineno, int(match["count"]))
            return
        if self.start_rule(lineno, line):
            return
        if self.current is None:
            self.read_preamble(lineno, line)
        else:
            self.add_text(lineno, line)

    def read_preamble(self, lineno: int, line: str) -> None:
        """Lines before the first rule: the first is the title, ``Last Updated: ...`` the edition."""
        if self.preamble_done:
            self.warn(lineno, f"text outside any rule skipped: {line[:60]!r}")
        elif is_comment(line):
            pass  # a note about the file ("# converted from the PDF by ..."), not its title
        elif match := _LAST_UPDATED.match(line):
            self.doc.edition = match["edition"].strip()
        elif self.doc.title is None:
            self.doc.title = line.lstrip("#").strip() or line  # "# Riftbound Core Rules": a Markdown heading
        # Other header lines ("Section 300 — 218 rules") describe the scrape, not a rule.

    def set_expected_children(self, lineno: int, count: int) -> None:
        if self.current is None:
            self.warn(lineno, f"'{count} subsections' before any rule")
        else:
            self.current.expected_children = count

    # -- numbers -----------------------------------------------------------------------------

    def start_rule(self, lineno: int, line: str) -> bool:
        """Begin a rule if the line starts with a number; False when it is text."""
        match = _LEADING_NUMBER.match(line)
        if not match:
            return False
        written, rest = match["number"], line[match.end() :]
        if not is_valid_number(written) or (not match["dot"] and "." not in written):
            return False  # "100 cards ..." at the start of a wrapped line is text
        number, rest = self.repair(written, rest)
        self.open_rule(lineno, number)
        self.add_text(lineno, rest)
        return True

    def repair(self, written: str, rest: str) -> tuple[str, str]:
        """Undo a line wrap inside the number where the joined number continues the numbering.

        ``312. 3 When`` is 312.3 and ``359.3.f.3.a. 1 In the case`` is 359.3.f.3.a.1 when the joined
        number is the first child of the rule just read or the next sibling of a child already read.
        Elsewhere the part is the rule's text: ``480.1. 2 Players`` after 480 is rule 480.1 saying
        "2 Players" (480.1.2 is no number), and ``103.3.a. 12 Rune Cards`` is not 103.3.a.12, as no
        103.3.a.11 came before it.
        """
        match = _DANGLING_PART.match(rest)
        if not match:
            return written, rest
        combined = f"{written}.{match['part']}"
        continues = combined == (self.last_number and _first_child(self.last_number)) or (
            _previous_sibling(combined) in self.first_line
        )
        if is_valid_number(combined) and continues and combined not in self.first_line:
            return combined, rest[match.end() :]
        return written, rest

    def open_rule(self, lineno: int, number: str) -> None:
        self.finish_rule()
        self.preamble_done = True
        times = self.times_printed[number] = self.times_printed.get(number, 0) + 1
        address = duplicate(number, times)
        if times > 1:
            self.warn(
                lineno, f"duplicate rule number {number} (first at line {self.first_line[number]}); kept as {address}"
            )
        else:
            if self.last_number is not None and sort_key(number) < sort_key(self.last_number):
                self.warn(lineno, f"rule {number} out of order after {self.last_number}")
            self.first_line[number] = lineno
            self.last_number = number
        self.current = _Pending(address, lineno)

    # -- text --------------------------------------------------------------------------------

    def add_text(self, lineno: int, text: str) -> None:
        """Add text to the current rule, starting a new rule where one runs into the text."""
        assert self.current is not None
        while text:
            split = self.find_embedded(lineno, text)
            if split is None:
                self.current.parts.append(_BULLET.sub("", text))
                return
            before, number, text = split
            if before:
                self.current.parts.append(_BULLET.sub("", before))
            self.open_rule(lineno, number)

    def find_embedded(self, lineno: int, text: str) -> tuple[str, str, str] | None:
        """``(text before, number, text after)`` where an expected rule number runs into the text."""
        expected = expected_after(printed(self.current.number) if self.current else self.last_number)
        for match in _EMBEDDED_NUMBER.finditer(text):
            if match["number"] in expected:
                return text[: match.start()], match["number"], text[match.end() :]
        for match in _GLUED_NUMBER.finditer(text):
            number = match["number"]
            if number in expected and (match["dot"] or "." in number):  # a section is printed "391."
                self.warn(lineno, glued_note(number, match["leftover"]))
                return text[: match.start()], number, text[match.end() :]
        return None

    def finish_rule(self) -> None:
        pending, self.current = self.current, None
        if pending is None:
            return
        text, examples = split_examples(clean_text(" ".join(pending.parts)))
        title = None
        if not examples and looks_like_title(text):
            title, text = text, ""
        self.doc.rules.append(
            Rule(
                number=pending.number,
                parent=parent(pending.number, GAME),
                title=title,
                text=text,
                examples=examples,
                source=self.source.name,
                line=pending.line,
                expected_children=pending.expected_children,
            )
        )


def read(lines: list[str], source: Source, kind: str = "rules") -> Document:
    """The reader :mod:`rulebook.games` names for Riftbound: a Core Rules file (its glossary is its rules)."""
    return read_riftbound(lines, source)


def read_riftbound(lines: list[str], source: Source) -> Document:
    """Read Riftbound rules from the decoded lines of ``source``."""
    doc = Document(source=source, game=GAME, kind="rules")
    reader = _Reader(source, doc)
    for lineno, line in enumerate(lines, start=1):
        reader.feed(lineno, line)
    reader.finish_rule()
    _check_end(lines, doc)
    return doc


def _check_end(lines: list[str], doc: Document) -> None:
    """Warn (and mark the book truncated) when the text stops in the middle of a rule: its last line
    stops mid-sentence, and is not a section heading, an outline's count or a scrape's ``... and N
    more rules`` (:mod:`.truncated`; the Core Rules list no contents to compare)."""
    last = next(
        (
            i
            for i in range(len(lines) - 1, -1, -1)
            if lines[i].strip() and not is_junk(lines[i]) and not is_markup(lines[i])
        ),
        None,
    )
    if last is None or not doc.rules:
        return
    line = lines[last].strip()
    if _TRUNCATION.match(line) or _SUBSECTIONS.match(line) or not truncated.mid_sentence(line):
        return
    final = doc.rules[-1]
    if final.title and not final.text and not final.examples and "." not in final.number:
        return  # an excerpt may end on a section's heading
    said = truncated.reason(f"rule {final.number}", [], [], [])
    if said is None:
        return
    doc.warnings.append(ReadWarning(doc.source.name, last + 1, said))
    doc.truncations.append(Truncation(doc.source.name, last + 1, 0, final.number))
