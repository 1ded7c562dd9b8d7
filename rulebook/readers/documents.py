"""Rule documents the publishers ship as PDF or Word (.docx) files, turned into the plain lines the
text readers take (:mod:`rulebook.readers.text`), so the same reader runs on them and the rules come
out as from the publisher's text file.

A Word file is a list of paragraphs: one line each, in order. A PDF is a list of positioned pieces of
text; what it loses is where a paragraph ends, so :func:`join_lines` puts the lines the layout wrapped
back into one, using where each line starts and ends on the page:

- a line ends its paragraph when the next line's first word would have fitted after it, or when the
  next line starts at an indent no continuation of this paragraph uses (a hanging indent is learnt
  from the document), or when a full line ends a sentence and the next line opens the way the
  document's paragraphs open (``Example:``, ``2.``, a rule number: learnt, not listed);
- page furniture (a line repeated at the top or bottom of most pages, digits aside: running titles,
  page numbers) is dropped; a hyphen at a line end is kept where the document writes the word with it
  elsewhere (``turn-based``) and dropped where it writes it without (``inter-action``); ligatures
  (``ﬁ``, ``ﬂ``) become their letters.

>>> [line.text for line in join_lines([PdfLine("100.1. These rules apply to any", 72, 500),
...     PdfLine("game.", 90, 120), PdfLine("Example: A short one.", 110, 220),
...     PdfLine("100.2. To play, each player needs a deck of ﬁfty cards and a state-", 72, 500),
...     PdfLine("based action.", 90, 160)])]
['100.1. These rules apply to any game.', 'Example: A short one.', '100.2. To play, each player needs a deck of fifty cards and a state-based action.']
"""

from __future__ import annotations

import bisect
import io
import logging
import re
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

from rulebook.model import Document, ReadError, ReadWarning

LIGATURES = {"ﬀ": "ff", "ﬁ": "fi", "ﬂ": "fl", "ﬃ": "ffi", "ﬄ": "ffl", "ﬅ": "st", "ﬆ": "st"}
_LIGATURE = re.compile("|".join(LIGATURES))
SOFT_HYPHEN = "\u00ad"
_SENTENCE_END = re.compile(r"[.:;!?][”\"’')\]]?$")
_WORD = re.compile(r"[A-Za-z][A-Za-z'’]*(?:-[A-Za-z'’]+)*")
_DASH_END = ("-", "—", "–", "/")


@dataclass
class PdfLine:
    """One line of a PDF page: its text and, where known, where it starts and ends (points)."""

    text: str
    x0: float | None = None
    x1: float | None = None
    page: int = 1
    size: float = 10.0  # the font size its first piece is set in
    column: int = 0  # 1 for a line starting in the right half of a page (a second column)


@dataclass
class Extracted:
    """The lines of a document, and for a PDF the page each line comes from (1-based)."""

    lines: list[str]
    pages: list[int] = field(default_factory=list)
    notes: list[tuple[int, str]] = field(default_factory=list)  # (0-based line, what was guessed)

    def page_of(self, line: int) -> int | None:
        """The page of 1-based ``line``; None for a document without pages."""
        return self.pages[line - 1] if 0 < line <= len(self.pages) else None


def clean(text: str) -> str:
    """Ligatures spelled out, soft hyphens dropped.

    >>> clean("ﬁrst ﬂying e\u00adffect")
    'first flying effect'
    """
    return _LIGATURE.sub(lambda m: LIGATURES[m.group()], text).replace(SOFT_HYPHEN, "")


# Page furniture -----------------------------------------------------------------------------------
_FURNITURE_DEPTH = 2  # lines looked at, at the top and at the bottom of each page


def _furniture_key(text: str) -> str:
    return re.sub(r"\d+", "#", " ".join(text.split())).lower()


def drop_furniture(pages: list[list[PdfLine]]) -> list[list[PdfLine]]:
    """``pages`` without their running heads and feet: a line among the first or last two of a page
    whose text (digits aside) recurs there on at least 3 pages and 40% of them, or on 5 pages and
    nowhere else (a section's running title).

    >>> rules = ["101.1. Draw.", "102.1. Play a land.", "103.1. Attack."]
    >>> pages = [[PdfLine("Core Rules"), PdfLine(rule), PdfLine(f"Page {n} of 3")] for n, rule in enumerate(rules, 1)]
    >>> [[line.text for line in page] for page in drop_furniture(pages)]
    [['101.1. Draw.'], ['102.1. Play a land.'], ['103.1. Attack.']]
    """
    if len(pages) < 3:
        return pages
    seen: Counter[str] = Counter()
    inside: Counter[str] = Counter()  # the same keys in a page's middle
    for page in pages:
        edges = _edges(page)
        seen.update({_furniture_key(line.text) for line in edges})
        ids = {id(line) for line in edges}
        inside.update(_furniture_key(line.text) for line in page if id(line) not in ids and line.text.strip())
    need = max(3, int(len(pages) * 0.4 + 0.999))
    repeated = {key for key, n in seen.items() if key and (n >= need or (n >= 5 and not inside[key]))}
    if not repeated:
        return pages
    kept = []
    for page in pages:
        furniture = {id(line) for line in _edges(page) if _furniture_key(line.text) in repeated}
        kept.append([line for line in page if id(line) not in furniture])
    return kept


def _edges(page: list[PdfLine]) -> list[PdfLine]:
    filled = [line for line in page if line.text.strip()]
    return filled[:_FURNITURE_DEPTH] + filled[max(_FURNITURE_DEPTH, len(filled) - _FURNITURE_DEPTH) :]


# Paragraphs ---------------------------------------------------------------------------------------
def _shape(word: str) -> str:
    """How a paragraph's first word looks: digits as 9, the letters after them as a (``9.9a``)."""
    return re.sub(r"(?<=9)[a-z]{1,2}\b", "a", re.sub(r"\d+", "9", word))


def _first_word(text: str) -> str:
    return text.split(maxsplit=1)[0] if text.strip() else ""


@dataclass
class _Layout:
    """What one document's lines say about its layout."""

    right: dict[int, float]  # column (0, or 1 for a page's right half) -> the right edge its lines reach
    hanging: set[int]  # indents (points, rounded) of a paragraph's second line against its first
    hanging_at: dict[int, set[int]]  # the same for paragraphs whose first line starts at x (rounded)
    openers: set[str]  # first-word shapes that open paragraphs and never continue one
    chars: float  # a full line's length in characters, where positions are unknown


def _quantile(values: Sequence[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(len(ordered) * q))]


def _need(a: PdfLine, b: PdfLine) -> float | None:
    """Where ``a`` would end with ``b``'s first word added to it; None without positions."""
    if a.x0 is None or a.x1 is None or b.x0 is None or b.x1 is None:
        return None
    text = b.text.strip()
    word = _first_word(text)
    return a.x1 + a.size * 0.25 + (b.x1 - b.x0) * len(word) / max(1, len(text))


def _full(a: PdfLine, b: PdfLine, layout: _Layout) -> bool:
    need = _need(a, b)
    if need is None:
        return len(a.text.strip()) + 1 + len(_first_word(b.text)) > layout.chars * 0.97
    return need > layout.right.get(a.column, need) - a.size * 0.8


def _learn(lines: list[PdfLine]) -> _Layout:
    right: dict[int, float] = {}
    for column in {line.column for line in lines}:
        ends = [line.x1 for line in lines if line.column == column and line.x1 is not None and len(line.text) > 20]
        if ends:
            right[column] = _quantile(ends, 0.98)
    lengths = [len(line.text.strip()) for line in lines if line.text.strip()]
    layout = _Layout(right, set(), {}, set(), _quantile(lengths, 0.9) if lengths else 80.0)
    hanging: Counter[int] = Counter()
    hanging_at: dict[int, Counter[int]] = {}
    opens: Counter[str] = Counter()
    continues: Counter[str] = Counter()
    first = True
    for a, b in zip(lines, lines[1:]):
        if not (a.text.strip() and b.text.strip()):
            if b.text.strip():
                opens[_shape(_first_word(b.text))] += 1
            first = True
            continue
        shape = _shape(_first_word(b.text))
        if not _full(a, b, layout):
            if _SENTENCE_END.search(a.text.rstrip()):  # not after a heading or a glossary headword
                opens[shape] += 1
            first = True
            continue
        if _SENTENCE_END.search(a.text.rstrip()):  # a full line that ends a sentence: either
            continues[shape] += 1
        elif first and a.x0 is not None and b.x0 is not None:  # cut mid-sentence: surely wrapped
            hanging[round(b.x0 - a.x0)] += 1
            hanging_at.setdefault(round(a.x0), Counter())[round(b.x0 - a.x0)] += 1
        first = False
    total = sum(hanging.values())
    layout.hanging = {shift for shift, n in hanging.items() if n >= 2 and n * 10 >= total} or {0}
    for x, shifts in hanging_at.items():
        if sum(shifts.values()) >= 3:  # paragraphs starting at x wrap the way most of them do there
            layout.hanging_at[x] = {shift for shift, n in shifts.items() if n * 5 >= sum(shifts.values())}
    # A word that opens paragraphs (after a blank or a short line) far more often than it follows a
    # full line that ends a sentence opens a paragraph there too ("Example:", "2."); "The" does not.
    layout.openers = {shape for shape, n in opens.items() if n >= 3 and n >= 5 * continues[shape]}
    return layout


def join_lines(lines: list[PdfLine], notes: list[tuple[int, str]] | None = None) -> list[PdfLine]:
    """Lines the layout wrapped put back into one paragraph each (blank lines kept); ``notes`` gets
    (output index, reason) for each paragraph break that was a guess."""
    lines = [PdfLine(clean(line.text).rstrip(), line.x0, line.x1, line.page, line.size, line.column) for line in lines]
    layout = _learn(lines)
    vocabulary = Counter(word.lower() for line in lines for word in _WORD.findall(line.text))
    out: list[PdfLine] = []
    tails: list[PdfLine] = []  # the last printed line of each paragraph in ``out``: where it ends
    first = True  # the last line added started its paragraph
    for b in lines:
        a = out[-1] if out else None
        if a is None or not a.text.strip() or not b.text.strip() or not _full(tails[-1], b, layout):
            out.append(b)
            tails.append(b)
            first = True
            continue
        last = tails[-1]
        opener = _shape(_first_word(b.text)) in layout.openers
        guess = ""
        if last.x0 is not None and b.x0 is not None:
            shift = b.x0 - last.x0
            allowed = layout.hanging_at.get(round(last.x0), layout.hanging) if first else {0}
            if not any(abs(shift - h) <= 1.5 for h in allowed):
                out.append(b)
                tails.append(b)
                first = True
                continue
        if opener and _SENTENCE_END.search(a.text):
            guess = "a full line ends a sentence"
        if guess:
            if notes is not None:
                notes.append(
                    (
                        len(out),
                        f"{guess} and the next opens like a paragraph ({_first_word(b.text)!r}): read as a new paragraph",
                    )
                )
            out.append(b)
            tails.append(b)
            first = True
            continue
        out[-1] = PdfLine(_joined(a.text, b.text, vocabulary), a.x0, a.x1, a.page, a.size, a.column)
        tails[-1] = b
        first = False
    return out


def _joined(left: str, right: str, vocabulary: Counter[str]) -> str:
    """Two printed lines as one: a hyphen at the end kept where the document writes the word with it.

    >>> _joined("a state-", "based action", Counter(["state-based"])), _joined("an inter-", "action", Counter(["interaction"]))
    ('a state-based action', 'an interaction')
    """
    left, right = left.rstrip(), right.strip()
    if left.endswith("-") and left[-2:-1].isalpha() and right[:1].islower():
        stem = (_WORD.findall(left[:-1]) or [""])[-1]
        tail = (_WORD.findall(right) or [""])[0]
        whole, hyphened = (stem + tail).lower(), (stem + "-" + tail).lower()
        return left[:-1] + right if vocabulary[whole] and not vocabulary[hyphened] else left + right
    if left.endswith(_DASH_END) and not left[-2:-1].isspace():  # "Two-|Headed", "[-|N]", "turn—|the"
        return left + right
    return f"{left} {right}"  # "Artifact —|Equipment": a spaced dash keeps its space


# Reading the files --------------------------------------------------------------------------------
def _simple_widths(font) -> tuple[dict[str, float], float] | None:
    """A simple font's glyph widths (thousandths of the size) by character, and their mean; None when
    the font has no ``/Widths`` (a composite font: its lines are measured with the mean width)."""
    try:
        widths = [float(w) for w in font["/Widths"].get_object()]
        first = int(font.get("/FirstChar", 0))
    except (KeyError, TypeError, ValueError, AttributeError):
        return None
    table: dict[str, float] = {}
    for code, width in enumerate(widths, start=first):
        if width > 0 and 0 <= code < 256:
            table[bytes([code]).decode("cp1252", errors="replace")] = width
            table.setdefault(chr(code), width)
    if not table:
        return None
    return table, sum(table.values()) / len(table)


def _units(text: str, widths: tuple[dict[str, float], float] | None) -> float:
    return sum(widths[0].get(ch, widths[1]) for ch in text) if widths else 500.0 * len(text)


def _page_lines(page, number: int, fonts: dict[int, tuple[dict[str, float], float] | None]) -> list[PdfLine]:
    """The lines of one page as pypdf extracts them, each with where it starts and (by the fonts'
    widths) ends."""
    lines: list[PdfLine] = []
    state: dict = {"text": "", "x0": None, "width": 0.0, "ink": 0.0, "size": 10.0}  # ink: to the last glyph
    half = float(page.mediabox.width) / 2 + float(page.mediabox.left)

    def finish() -> None:
        x0 = state["x0"]
        lines.append(
            PdfLine(
                state["text"],
                x0,
                None if x0 is None else x0 + state["ink"],
                number,
                state["size"],
                1 if x0 is not None and x0 >= half else 0,
            )
        )
        state.update(text="", x0=None, width=0.0, ink=0.0)

    def visit(text: str, cm, tm, font, size) -> None:
        placed = not (tm[0] == 1 and tm[4] == 0 and tm[5] == 0)  # pypdf's bare line ends carry no place
        scale = abs(size * tm[0] * cm[0]) or 10.0
        if font is not None and id(font) not in fonts:
            fonts[id(font)] = _simple_widths(font)
        widths = fonts.get(id(font)) if font is not None else None
        for i, part in enumerate(text.split("\n")):
            if i:
                finish()
            if not part:
                continue
            if state["x0"] is None and part.strip() and placed:
                state["x0"] = tm[4] * cm[0] + tm[5] * cm[2] + cm[4]
                state["size"] = scale
                part_width = part.lstrip()
            else:
                part_width = part
            state["text"] += part
            if state["x0"] is not None:
                inked = part_width.rstrip()
                if inked:  # a trailing space (pypdf adds one at many line ends) is no ink
                    state["ink"] = state["width"] + _units(inked, widths) / 1000 * scale
                state["width"] += _units(part_width, widths) / 1000 * scale

    page.extract_text(visitor_text=visit)
    if state["text"]:
        finish()
    return lines


def pdf_lines(raw: bytes, path: str) -> Extracted:
    """The text of a PDF as a rules text's lines. Raises :class:`ReadError` for a damaged or
    encrypted PDF, or one without text (a scan)."""
    import pypdf

    log = logging.getLogger("pypdf")  # its notes on a damaged file go unsaid: the error says it once
    level = log.level
    log.setLevel(logging.CRITICAL + 1)
    try:
        reader = pypdf.PdfReader(io.BytesIO(raw), strict=False)
        if reader.is_encrypted:
            raise ReadError(path, "the PDF is encrypted: save it again without a password, or as plain text (.txt)")
        fonts: dict[int, tuple[dict[str, float], float] | None] = {}
        pages = [_page_lines(page, n, fonts) for n, page in enumerate(reader.pages, start=1)]
    except ReadError:
        raise
    except Exception as exc:  # untrusted bytes: whatever pypdf raises on them, the file is damaged
        reason = " ".join(str(exc).split())[:120] or type(exc).__name__
        raise ReadError(path, f"damaged PDF, cannot read its text ({reason}): expected a whole PDF file") from None
    finally:
        log.setLevel(level)
    if not any(line.text.strip() for page in pages for line in page):
        raise ReadError(path, "the PDF holds no text (a scan?): expected a PDF with text, or a plain-text (.txt) file")
    notes: list[tuple[int, str]] = []
    joined = join_lines([line for page in drop_furniture(pages) for line in page], notes)
    return Extracted([line.text for line in joined], [line.page for line in joined], notes)


def docx_lines(raw: bytes, path: str) -> Extracted:
    """The paragraphs of a Word document, in order (tables' cells too), one line each."""
    import docx
    from docx.table import Table
    from docx.text.paragraph import Paragraph

    try:
        document = docx.Document(io.BytesIO(raw))
        lines: list[str] = []
        for block in document.iter_inner_content():
            if isinstance(block, Paragraph):
                lines.extend(clean(block.text).split("\n"))
            elif isinstance(block, Table):
                for row in block.rows:
                    for cell in row.cells:
                        lines.extend(clean(p.text) for p in cell.paragraphs)
    except Exception as exc:  # untrusted bytes: not a zip, a part missing or not XML
        reason = " ".join(str(exc).split())[:120] or type(exc).__name__
        raise ReadError(
            path, f"damaged Word document, cannot read it ({reason}): expected a whole .docx file"
        ) from None
    return Extracted([line.rstrip() for line in lines])


KINDS = {"a PDF file": pdf_lines, "a Word document (.docx)": docx_lines}


def read_document(raw: bytes, path: str | Path, what: str | None) -> Extracted | None:
    """The lines of a PDF or Word document (``what`` is :func:`rulebook.readers.text.sniff`'s answer);
    None for any other file."""
    reader = KINDS.get(what or "")
    return reader(raw, str(path)) if reader else None


def warnings(extracted: Extracted, doc: Document) -> list[ReadWarning]:
    """``doc``'s warnings with the page each line is on, and one for each paragraph break the PDF's
    layout left to a guess, naming the rule or glossary entry it falls in."""
    starts = sorted(
        [(rule.line, f"rule {rule.number}") for rule in doc.rules]
        + [(t.line, f"glossary entry {t.term!r}") for t in doc.terms]
    )
    lines = [line for line, _ in starts]

    def where(line: int) -> str:
        page = extracted.page_of(line)
        return f"page {page}: " if page else ""

    out = [ReadWarning(w.source, w.line, where(w.line) + w.reason) for w in doc.warnings]
    for index, note in extracted.notes:
        line = index + 1
        at = bisect.bisect_right(lines, line) - 1
        # The guess falls between the paragraph before the break and the one after it.
        names = [starts[i][1] for i in ((at - 1, at) if at >= 0 and starts[at][0] == line else (at,)) if i >= 0]
        named = " / ".join(dict.fromkeys(names)) or "the introduction"
        out.append(
            ReadWarning(doc.source.name, line, f"{where(line)}{named}: {note}: check it against the publisher's text")
        )
    return sorted(out, key=lambda w: w.line)
