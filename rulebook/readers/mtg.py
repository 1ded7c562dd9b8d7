"""Reader for the Magic: The Gathering Comprehensive Rules and for glossary fragments of them.

A full CR is: an introduction, a ``Contents`` list of the headings (not always in the body's words),
the numbered rules, a ``Glossary`` (headword line, definition lines, blank line between entries) and
``Credits``. Where the rules begin is decided by :func:`_body_start`. A number split by a space
(``702. 37a Storm``) is joined, and one glued to a leftover of the page (``Refl702.38.``) read, where
it is a number that comes next (:func:`_rejoin`, :func:`_glued`).

>>> from rulebook.model import Source
>>> doc = read_mtg(["1. Game Concepts", "", "100. General", "100.1. These rules apply.",
...                 "Example: A game.", "100.1a A subrule."], Source("cr.txt", "", "rules"))
>>> for r in doc.rules: print(r.number, r.parent, r.title or r.text, sep=" | ")
1 | None | Game Concepts
100 | 1 | General
100.1 | 100 | These rules apply.
100.1a | 100.1 | A subrule.
>>> doc.rules[2].examples
('A game.',)
>>> terms = read_mtg(["A permanent is any card or token in play.", "Poison Counter", "Ten of them lose."],
...                  Source("g.txt", "", "glossary"), glossary_only=True).terms
>>> [(t.term, t.headword_recovered) for t in terms]
[('permanent', True), ('Poison Counter', False)]
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from rulebook import games
from rulebook.model import Document, ReadWarning, Rule, Source, Term, Truncation
from rulebook.numbers import duplicate, parent, printed, sort_key
from rulebook.readers import truncated
from rulebook.readers.text import glued_note, is_comment, is_junk, is_markup

GAME = "mtg"

# "100.1. Text", "100.1a Text", "302.1 Text" (dot lost), "901.4.All" (space lost), "1. Game Concepts".
# (A sub-number has at most 4 digits: "100.99999..." of thousands is text, not a number int() would refuse.)
_NUMBERED = re.compile(r"^(\d{1,3})\.(?:(\d{1,4})([a-z]*))?(\.?)(?:\s+|$|(?<=\.)(?=[A-Z“\"]))(.*)$")
# "306.b If ..." (2008 CR): a letter subrule that lost its sub-number.
_LETTER_ONLY = re.compile(r"^(\d{3})\.([a-z]{1,2})\.?\s+(.*)$")
# The rest of a number pushed past a space (a line wrap, a PDF's spacing): "702. 37a Storm ..." after
# "702.", and "702.37 a Storm ..." after "702.37" (joined only where they make the next number, _rejoin).
_SPLIT_SUB = re.compile(r"^(\d{1,3})([a-z]{0,2})\.?(?:\s+|$)")
_SPLIT_LETTER = re.compile(r"^([a-z]{1,2})\.?\s+(?=[A-Z“\"(])")
# A number glued to the end of a leftover word of the page (a PDF's link or header): "Refl702.38. Text".
_GLUED = re.compile(r"^(?P<leftover>[A-Za-z][A-Za-z’'-]{0,29}?)(?P<number>\d{3}(?:\.\d+[a-z]*)?)\.?\s+(?P<rest>\S.*)$")
_EXAMPLE = re.compile(r"^Example:\s*")
_EFFECTIVE = re.compile(r"(?:effective|current) as of ([A-Z][a-z]+) (\d{1,2}), (\d{4})")
_MONTHS = (
    "january",
    "february",
    "march",
    "april",
    "may",
    "june",
    "july",
    "august",
    "september",
    "october",
    "november",
    "december",
)
_ITALICS = re.compile(r"(?<![\w_])_([^_\n]+?)_(?![\w_])")  # _Magic_ in the 2008 text
_SENTENCE_END = (".", ":", ";", ",")
_SENTENCE_BREAK = re.compile(r"\w{3,}\.\s")  # "paid. (See": but not "Team vs. Team Variant"


@dataclass(frozen=True)
class _Layout:
    """Line indexes (0-based, end exclusive) of the parts of a document."""

    has_intro: bool
    rules: tuple[int, int]
    glossary: tuple[int, int]


@dataclass(frozen=True)
class _RuleDraft:
    number: str
    title: str | None
    line: int
    text: list[str] = field(default_factory=list)
    examples: list[str] = field(default_factory=list)

    def rule(self, source: str) -> Rule:
        return Rule(
            number=self.number,
            parent=parent(self.number, GAME),
            title=self.title,
            text="\n".join(self.text),
            examples=tuple(self.examples),
            source=source,
            line=self.line,
        )


@dataclass(frozen=True)
class _TermDraft:
    term: str
    line: int
    recovered: bool = False
    obsolete: bool = False
    informal: bool = False  # "(Informal)" in the 2008 CR: slang, not a rules term
    lines: list[str] = field(default_factory=list)
    orphans: list[int] = field(default_factory=list)  # lines kept here although no headword led to them

    def as_term(self, source: str) -> Term:
        definition = "\n".join(self.lines)
        if self.informal:  # the model has no field for it, and the judge should still see it
            definition = f"(Informal) {definition}"
        return Term(
            term=self.term,
            definition=definition,
            source=source,
            line=self.line,
            obsolete=self.obsolete,
            headword_recovered=self.recovered,
        )


def read(lines: list[str], source: Source, kind: str = "rules") -> Document:
    """The reader :mod:`rulebook.games` names for Magic: a Comprehensive Rules file, or its glossary alone."""
    return read_mtg(lines, source, glossary_only=kind == "glossary")


def read_mtg(lines: list[str], source: Source, glossary_only: bool = False) -> Document:
    """Rules and glossary terms of a Comprehensive Rules text; ``glossary_only`` for a bare glossary."""
    warnings: list[ReadWarning] = []
    layout = _glossary_layout(lines) if glossary_only else _layout(lines)
    rules = _read_rules(lines, layout, source.name, warnings)
    terms = _read_glossary(lines, layout.glossary, source.name, warnings)
    cut = _truncation(lines, layout, rules, terms, source.name) if rules or terms else None
    if cut is not None:
        warnings.append(cut[0])
    warnings.sort(key=lambda w: w.line)
    kind = "mixed" if rules and terms else "glossary" if terms else "rules"
    return Document(
        source=source,
        game=GAME,
        kind=kind,
        title=_title(lines),
        edition=_edition(lines),
        rules=rules,
        terms=terms,
        warnings=warnings,
        truncations=[cut[1]] if cut else [],
    )


# --- layout ---------------------------------------------------------------------------------------


def _index(lines: list[str], text: str, start: int, end: int | None = None) -> int | None:
    for i in range(start, len(lines) if end is None else end):
        if lines[i].strip() == text:
            return i
    return None


def _layout(lines: list[str]) -> _Layout:
    contents = _index(lines, "Contents", 0)
    rules_start = 0 if contents is None else _body_start(lines, contents)
    # The first Glossary heading after the body's start follows the last rule; the one inside the
    # contents is behind it. Credits follow the glossary.
    glossary = _index(lines, "Glossary", rules_start)
    if glossary is None:
        return _Layout(contents is not None, (rules_start, len(lines)), (len(lines), len(lines)))
    credits = _index(lines, "Credits", glossary + 1)
    end = len(lines) if credits is None else credits
    return _Layout(contents is not None, (rules_start, glossary), (glossary + 1, end))


def _body_start(lines: list[str], contents: int) -> int:
    """Where the numbered rules begin, wherever the table of contents ends and whatever it holds.

    The contents list headings only: parts (``1. Game Concepts``) and sections (``100. General``),
    never a rule inside a section (``100.1.``). Their wording need not match the body's (the July
    2009 contents say ``1. Game Concepts`` where the body says ``1. The Game``), and they may end
    with any entries (``Glossary``, ``Credits``, ``Questions?``). So the body begins at the first
    numbered sub-rule after the contents, moved back over the headings of its own section and part
    that stand right before it, blank lines between them allowed: ``1. The Game``, ``100. General``,
    ``100.1. These rules...``. A heading is taken only if it is the parent of the one below it, so a
    contents list that ends on section headings with no line between it and the body stays out.
    With no sub-rule at all, everything after the contents is read.
    """
    first_rule = next((i for i in range(contents + 1, len(lines)) if "." in _number_of(lines[i])), None)
    if first_rule is None:
        return contents + 1
    start, wanted = first_rule, parent(_number_of(lines[first_rule]), GAME)
    for i in range(first_rule - 1, contents, -1):
        if not lines[i].strip():
            continue
        if wanted is None or _number_of(lines[i]) != wanted:
            break
        start, wanted = i, parent(wanted, GAME)
    return start


def _number_of(line: str) -> str:
    """The rule number a line starts with, or ``""``."""
    numbered = _numbered(line.strip(), None)
    return numbered[0] if numbered else ""


def _glossary_layout(lines: list[str]) -> _Layout:
    start = next((i for i, line in enumerate(lines) if line.strip()), 0)
    if start < len(lines) and lines[start].strip() == "Glossary":
        start += 1
    end = _index(lines, "Credits", start)
    return _Layout(False, (0, 0), (start, len(lines) if end is None else end))


def _title(lines: list[str]) -> str | None:
    # A note about the file ("# source: ...") above the document is no title: the first line of the text is.
    first = next((line.strip() for line in lines[:20] if line.strip() and not is_comment(line)), "")
    return _clean(first.lstrip("#").strip()) if "Comprehensive Rules" in first else None  # "# Magic: ...": a heading


def _edition(lines: list[str]) -> str | None:
    for line in lines[:50]:
        m = _EFFECTIVE.search(line)
        if m and m.group(1).lower() in _MONTHS:
            return f"{m.group(3)}-{_MONTHS.index(m.group(1).lower()) + 1:02d}-{int(m.group(2)):02d}"
    return None


def _clean(text: str) -> str:
    """Text as the judge should read it: ``_Magic_`` (2008 italics) becomes ``Magic``."""
    return _ITALICS.sub(r"\1", text) if "_" in text else text


def _truncation(
    lines: list[str], layout: _Layout, rules: list[Rule], terms: list[Term], source: str
) -> tuple[ReadWarning, Truncation] | None:
    """A warning (and a truncation marker) when the text stops in the middle of a rule or glossary
    entry, or lacks sections, the glossary or the credits its contents list (:mod:`.truncated`)."""
    listed: list[str] = []  # what the contents promise: section numbers, "Glossary", "Credits"
    contents = _index(lines, "Contents", 0) if layout.has_intro else None
    if contents is not None:
        for line in lines[contents + 1 : layout.rules[0]]:
            number = _number_of(line)
            listed.append(number if len(number) == 3 else line.strip())
    sections = [n for n in listed if n.isdigit()]
    present = {printed(r.number).split(".")[0] for r in rules}
    missing = [n for n in sections if n not in present]
    has_glossary, has_credits = bool(terms), layout.glossary[1] < len(lines)
    parts = []
    if "Glossary" in listed and not has_glossary:
        parts.append("the glossary")
    elif "Credits" in listed and not has_credits:
        parts.append("the credits")
    # Where the file ends: in the rules (no glossary after them), in the glossary (no credits), or later.
    ends_in, last = None, None
    glossary_read = layout.glossary[0] < layout.glossary[1]
    span = layout.glossary if glossary_read else layout.rules
    if not has_credits:
        last = next(
            (
                i
                for i in range(span[1] - 1, span[0] - 1, -1)
                if lines[i].strip() and not is_junk(lines[i]) and not is_markup(lines[i])
            ),
            None,
        )
    # A line without a full stop is a cut when it stops mid-sentence, or when parts are missing too.
    if (
        last is not None
        and not truncated.is_closed(lines[last])
        and (truncated.mid_sentence(lines[last]) or missing or parts)
    ):
        if glossary_read and terms:
            ends_in = f"the glossary entry {terms[-1].term!r}"
        elif not glossary_read and rules:
            final = rules[-1]
            heading_alone = final.title and not final.text and not final.examples
            if not (heading_alone and "." not in final.number):  # an excerpt may end on a section heading
                ends_in = f"rule {final.number}"
    said = truncated.reason(ends_in, missing, sections, parts)
    if said is None:
        return None
    at = (last if last is not None else len(lines) - 1) + 1
    return ReadWarning(source, at, said), Truncation(source, at, 0, rules[-1].number if rules else None)


# --- numbered rules -------------------------------------------------------------------------------


def _read_rules(lines: list[str], layout: _Layout, source: str, warnings: list[ReadWarning]) -> list[Rule]:
    start, end = layout.rules
    drafts: list[_RuleDraft] = []
    first_line: dict[str, int] = {}
    times_printed: dict[str, int] = {}
    previous: str | None = None  # the last number read as printed (a duplicate's address has a suffix)
    current: _RuleDraft | None = None  # where unnumbered lines go

    def warn(i: int, reason: str) -> None:
        warnings.append(ReadWarning(source, i + 1, reason))

    for i in range(start, end):
        stripped = lines[i].strip()
        if not stripped:
            continue
        if is_junk(stripped) or is_markup(stripped):
            warn(i, _junk(stripped))
            continue
        numbered = _numbered(stripped, previous)
        glued = _glued(stripped, previous) if numbered is None else None
        if glued:
            leftover, number, rest = glued
            warn(i, glued_note(number, leftover))
            numbered = _numbered(f"{number}. {rest}" if "." not in number else f"{number} {rest}", previous)
        if numbered is None:
            current = _attach(stripped, current, lambda reason: warn(i, reason), layout.has_intro)
            continue
        number, title, text, repaired = numbered
        if repaired:
            warn(i, f"rule number {stripped.split()[0]} lacks its sub-number; read as {number}")
        times = times_printed[number] = times_printed.get(number, 0) + 1
        address = duplicate(number, times)  # a number printed twice keeps both rules (rulebook.numbers)
        if times > 1:
            warn(i, f"duplicate rule number {number} (first at line {first_line[number]}); kept as {address}")
        else:
            if previous and sort_key(number) < sort_key(previous):
                warn(i, f"rule {number} out of order after {previous}")
            first_line[number] = i + 1
        current = _RuleDraft(address, title, i + 1, [text] if text else [])
        drafts.append(current)
        previous = number
    return [d.rule(source) for d in drafts]


def _numbered(line: str, previous: str | None) -> tuple[str, str | None, str, bool] | None:
    """``(number, title, text, repaired)`` for a line that starts a rule, else None."""
    m = _NUMBERED.match(line)
    if m and _is_rule_start(m, line):
        head, sub, letters, _dot, rest = m.groups()
        joined = _rejoin(head, sub, rest, previous) if previous and not letters else None
        if joined:
            number, rest = joined
        elif sub is None:  # part heading "1. Game Concepts" or section heading "100. General"
            return head, _clean(rest), "", False
        else:
            number = f"{head}.{int(sub)}{letters}"
        if not number[-1].isalpha() and _is_title(rest):
            return number, _clean(rest), "", False
        return number, None, _clean(rest), False
    m = _LETTER_ONLY.match(line)
    if m and previous:
        repaired = _repair_letter(m.group(1), m.group(2), previous)
        if repaired:
            return repaired, None, _clean(m.group(3)), True
    return None


def _rejoin(head: str, sub: str | None, rest: str, previous: str) -> tuple[str, str] | None:
    """``(number, rest)`` for a number split by a space, where the joined number is one that comes
    next after ``previous`` (:func:`_expected_after`): ``702. 37a Storm ...`` right after 702.37 is
    702.37a, ``702.37 a Storm ...`` too. Elsewhere the part after the space is text: ``100. 2 ...``
    after 100.1 is no split number (None)."""
    m = _SPLIT_SUB.match(rest) if sub is None else _SPLIT_LETTER.match(rest)
    if m is None:
        return None
    number = f"{head}.{int(m.group(1))}{m.group(2)}" if sub is None else f"{head}.{int(sub)}{m.group(1)}"
    return (number, rest[m.end() :]) if number in _expected_after(previous) else None


def _expected_after(previous: str) -> set[str]:
    """The numbers that may come right after ``previous``: its first sub-rule, the next sub-rule of
    it or of the rule above it, or the next section (Magic's letters skip l and o).

    >>> sorted(_expected_after("702")), sorted(_expected_after("702.37")), sorted(_expected_after("702.37k"))
    (['702.1', '703'], ['702.37a', '702.38', '703'], ['702.37m', '702.38', '703'])
    """
    m = re.fullmatch(r"(\d{3})(?:\.(\d+)([a-z]*))?", previous)
    if m is None:
        return set()
    section, sub, letters = m.groups()
    found = {f"{int(section) + 1:03d}"}
    if sub is None:
        return found | {f"{section}.1"}
    found.add(f"{section}.{int(sub) + 1}")
    order = games.get(GAME).numbering.letters()
    if not letters:
        found.add(f"{section}.{sub}{order[0]}")
    elif letters in order[:-1]:
        found.add(f"{section}.{sub}{order[order.index(letters) + 1]}")
    return found


def _glued(line: str, previous: str | None) -> tuple[str, str, str] | None:
    """``(leftover, number, rest)`` for a line whose rule number is glued to the end of a word left
    over from the page (``Refl702.38. Text``), where the number is one that comes next; else None."""
    m = _GLUED.match(line) if previous else None
    if m is None or not previous or m.group("number") not in _expected_after(previous):
        return None
    if "." not in m.group("number") and not line[m.end("number") :].startswith("."):
        return None  # a section is printed "703.": "Page703 cards" is no rule
    return m.group("leftover"), m.group("number"), m.group("rest")


def _is_rule_start(m: re.Match, line: str) -> bool:
    head, sub, _letters, dot, rest = m.groups()
    if len(head) == 1:  # a part heading: "1. Game Concepts", never "1.5 ..."
        return sub is None and bool(rest)
    if len(head) != 3:
        return False
    if sub is None:
        return bool(rest)
    glued = m.end(4) < len(line) and not line[m.end(4)].isspace()
    return not glued or bool(dot)  # "901.4.All" lost its space; "100.1aAll" would be a word


def _is_title(rest: str) -> bool:
    """``702.9. Flying``, ``418.5. Interaction of Continuous Effects``: a rule that is a heading."""
    return 0 < len(rest) <= 60 and not _is_sentence(rest)


def _is_sentence(text: str) -> bool:
    # A sentence may end inside quotes or parentheses: '... the subtype “Role.”', '(See rule 203.1b.)'.
    return text.rstrip('”"’)').endswith(_SENTENCE_END) or bool(_SENTENCE_BREAK.search(text))


def _repair_letter(section: str, letters: str, previous: str) -> str | None:
    """``306.b`` after ``306.3a`` is ``306.3b``: the sub-number was dropped, not the rule."""
    m = re.fullmatch(r"(\d{3})\.(\d+)([a-z]+)", previous)
    if m and m.group(1) == section and sort_key(letters) > sort_key(m.group(3)):
        return f"{section}.{m.group(2)}{letters}"
    return None


def _attach(line: str, current: _RuleDraft | None, warn, has_intro: bool) -> _RuleDraft | None:
    """An unnumbered line: an example or a continuation paragraph of the rule above."""
    if current is None:
        # Before the first rule of a full document is the introduction; elsewhere it is a stray line.
        if not has_intro and not (_EFFECTIVE.search(line) or "Comprehensive Rules" in line or is_comment(line)):
            warn(f"text before the first rule, not read: {_preview(line)}")
        return None
    example = _EXAMPLE.match(line)
    if example:
        current.examples.append(_clean(line[example.end() :]))
    else:
        current.text.append(_clean(line))
    return current


def _junk(line: str) -> str:
    if is_markup(line):
        return f"markup skipped (a web page's or a PDF's, not rules text): {_preview(line.strip())}"
    return f"junk line skipped (no Latin letters): {line.strip()!r}"


def _preview(text: str, width: int = 60) -> str:
    return repr(text if len(text) <= width else text[: width - 3] + "...")


# --- glossary -------------------------------------------------------------------------------------

_SMALL_WORDS = {
    "a",
    "an",
    "and",
    "as",
    "at",
    "by",
    "for",
    "from",
    "in",
    "into",
    "of",
    "on",
    "or",
    "than",
    "that",
    "the",
    "to",
    "with",
}
_MARKER = re.compile(r"\s*\((Obsolete|Informal)\)\s*$", re.I)
_SEE_ALSO = re.compile(r"^See [A-Z][^.]{0,60}\.$")
_X = r"(?P<t>[^\s,.;:“”\"]+(?: [^\s,.;:“”\"]+){0,3})"  # a term: one to four words
# Sentences that name what they define, for glossary text whose headword line was lost.
_NAMING = [
    re.compile(rf"\breferred to as (?:the |an? )?[“\"]?{_X}[”\"]?\."),
    re.compile(rf"\bis called (?:the |an? )?[“\"]?{_X}[”\"]?\."),
    re.compile(rf"\bknown as (?:the |an? )?[“\"]?{_X}[”\"]?[.,]"),
    re.compile(rf"^(?:Certain|Some) older cards (?:were printed with|used) the term [“\"]{_X}[”\"]"),
    re.compile(rf"^(?:To|to) {_X} (?:is to|means)\b"),
    re.compile(rf"^(?:A|An|The) {_X} (?:is|are) (?:a|an|the|any|one|each)\b"),
    re.compile(r"^[“\"]?(?P<t>[A-Z][\w/-]*(?: [\w/-]+)?)[”\"]? is (?:a|an|the|any|one)\b"),
    re.compile(rf"^The [^.]+ is its {_X}\."),
]
_NOT_A_SUBJECT = {
    "if",
    "when",
    "whenever",
    "in",
    "each",
    "some",
    "this",
    "that",
    "it",
    "there",
    "other",
    "any",
    "all",
    "whoever",
    "for",
}


def _read_glossary(lines: list[str], span: tuple[int, int], source: str, warnings: list[ReadWarning]) -> list[Term]:
    blocks = _blocks(lines, span, source, warnings)
    # A scrape that lost the blank lines between entries also lost many headwords: every line may
    # then start an entry, and the headword has to be recovered from the text.
    lossy = sum(len(b) for b in blocks) > 8 * max(1, len(blocks))
    drafts: list[_TermDraft] = []

    def warn(i: int, reason: str) -> None:
        warnings.append(ReadWarning(source, i + 1, reason))

    for block in blocks:
        for pos, (i, raw) in enumerate(block):
            _glossary_line(raw, i, pos == 0, pos + 1 < len(block), lossy, drafts, warn)
    for d in drafts:
        if not d.lines:
            warn(d.line - 1, f"glossary entry {d.term!r} has no definition")
        for first, last in _runs(d.orphans):
            lines_kept = f"line {first}" if first == last else f"lines {first}-{last}"
            warn(first - 1, f"glossary text without a headword ({lines_kept}) kept with {d.term!r}")
    return [d.as_term(source) for d in drafts]


def _runs(numbers: list[int]) -> list[tuple[int, int]]:
    """``[19, 20, 21, 25]`` -> ``[(19, 21), (25, 25)]``: one warning per run of orphan lines."""
    runs: list[tuple[int, int]] = []
    for n in numbers:
        if runs and runs[-1][1] == n - 1:
            runs[-1] = (runs[-1][0], n)
        else:
            runs.append((n, n))
    return runs


def _blocks(
    lines: list[str], span: tuple[int, int], source: str, warnings: list[ReadWarning]
) -> list[list[tuple[int, str]]]:
    """Runs of non-blank lines as ``(index, line)``, junk lines dropped with a warning."""
    blocks: list[list[tuple[int, str]]] = [[]]
    for i in range(*span):
        line = lines[i].rstrip()
        if not line.strip():
            blocks.append([])
        elif is_junk(line) or is_markup(line):
            warnings.append(ReadWarning(source, i + 1, _junk(line)))
        else:
            blocks[-1].append((i, line))
    return [b for b in blocks if b]


def _glossary_line(
    raw: str, i: int, starts_block: bool, has_next: bool, lossy: bool, drafts: list[_TermDraft], warn
) -> None:
    indented = raw[:1].isspace()
    line = _clean(raw.strip())
    # A headword starts an entry; a lone one (its definition lost) is kept and warned about later.
    if not indented and (has_next or starts_block) and _is_headword(line, loose=starts_block):
        drafts.append(_headword(line, i))
        return
    may_start = not indented and (starts_block or lossy) and not _EXAMPLE.match(line)
    recovered = _recover_headword(line) if may_start else None
    if recovered:
        drafts.append(_TermDraft(recovered, i + 1, recovered=True, lines=[line]))
        return
    if not drafts:
        warn(i, f"glossary text with no headword, not read: {_preview(line)}")
        return
    previous = drafts[-1]
    previous.lines.append(line)
    if may_start and _SEE_ALSO.match(line):
        warn(i, f"cross-reference {line!r} lost its headword; kept with {previous.term!r}")
    elif may_start and (starts_block or previous.recovered):
        previous.orphans.append(i + 1)


def _is_headword(line: str, loose: bool) -> bool:
    """``Poison Counter``, ``Banding, “Bands with Other”``, ``Bury (Obsolete)``; not a sentence.

    At the start of an entry (``loose``) any short line without a final period is a headword; inside
    an entry it must also be title-cased, so that a short definition line is not taken for one.
    """
    if not line or len(line) > 80 or _is_sentence(line) or _EXAMPLE.match(line):
        return False
    if loose:
        return True
    words = _MARKER.sub("", line).split()
    return (
        len(words) <= 8
        and all(not w[:1].islower() or w.lower().strip(",") in _SMALL_WORDS for w in words)
        and (line[0].isupper() or line[0] in '“"')
    )


def _headword(line: str, i: int) -> _TermDraft:
    term, obsolete, informal = line, False, False
    while m := _MARKER.search(term):
        obsolete |= m.group(1).lower() == "obsolete"
        informal |= m.group(1).lower() == "informal"
        term = term[: m.start()]
    term = term.strip()
    if re.fullmatch(r"[“\"][^“”\"]+[”\"]", term):
        term = term[1:-1]  # "As Though": the quotes are the document's, not part of the name
    return _TermDraft(term, i + 1, obsolete=obsolete, informal=informal)


def _recover_headword(line: str) -> str | None:
    for pattern in _NAMING:
        m = pattern.search(line)
        if m and m.group("t").split()[0].lower() not in _NOT_A_SUBJECT:
            return m.group("t")
    return None
