"""Turning the bytes of a real rule document into lines of text.

Real files come as UTF-8 with or without a byte-order mark, UTF-16 in either byte order, Windows-1252
or plain ASCII, with LF, CRLF, bare CR or ``\\r\\r\\n`` line ends (the 2026 Comprehensive Rules).

>>> decode(b"\\xef\\xbb\\xbf100. General\\r\\r\\n100.1. These rules\\r\\r\\n", "cr.txt")
['100. General', '100.1. These rules']
>>> decode("302.1 caf\\u00e9\\r".encode("utf-16"), "x.txt")
['302.1 caf\\xe9']
>>> decode(b"It\\x92s", "old.txt")
['It\\u2019s']
>>> is_junk("\\u0412\\u044b\\u0431\\u0440\\u0430\\u0442\\u044c \\u0433\\u043b\\u0430\\u0432\\u0443"), is_junk("302.1 Untap")
(True, False)

A file cut short in the middle of a character loses only that character:

>>> decode("100.1. Caf\\u00e9".encode("utf-8")[:-1], "cut.txt")
['100.1. Caf']

A file that is no rules text is refused, saying what it looks like:

>>> decode(b"%PDF-1.6\\r%\\xe2\\xe3\\xcf\\xd3", "cr.pdf")
Traceback (most recent call last):
...
rulebook.model.ReadError: cr.pdf: looks like a PDF file, not a rules text: save the rules as plain text (.txt)
>>> decode(b"<!DOCTYPE html>\\n<html><body><p>100.1. A rule.</p></body></html>", "cr.html")
Traceback (most recent call last):
...
rulebook.model.ReadError: cr.html: looks like an HTML page, not a rules text: save the rules as plain text (.txt)
"""

from __future__ import annotations

import codecs
import hashlib
import re
import unicodedata
from pathlib import Path

from rulebook.model import ReadError


def detect_encoding(raw: bytes) -> str:
    if raw.startswith(codecs.BOM_UTF8):
        return "utf-8-sig"
    if raw.startswith(codecs.BOM_UTF16_LE) or raw.startswith(codecs.BOM_UTF16_BE):
        return "utf-16"
    # UTF-16 without a byte-order mark: ASCII text leaves every other byte zero.
    sample = raw[:4000]
    if len(sample) >= 4 and sample.count(0) > len(sample) // 4:
        even, odd = sample[0::2].count(0), sample[1::2].count(0)
        if odd > even * 4:
            return "utf-16-le"
        if even > odd * 4:
            return "utf-16-be"
        raise ReadError("", BINARY)
    try:
        _decode_cut(raw, "utf-8")
        return "utf-8"
    except UnicodeDecodeError:
        return "cp1252"


def _decode_cut(raw: bytes, encoding: str) -> str:
    """``raw`` decoded, but for an incomplete character at its very end (a file cut short), which is
    dropped; a byte that cannot be decoded anywhere else raises :class:`UnicodeDecodeError`."""
    return codecs.getincrementaldecoder(encoding)(errors="strict").decode(raw, final=False)


BINARY = "looks like binary data, not a rules text: expected a plain-text (.txt) rules document"
NOT_TEXT = "not a rules text: save the rules as plain text (.txt)"

# What a file that is no text looks like, by its first bytes; a ZIP archive by what it holds.
_MAGIC = (
    (b"%PDF-", "a PDF file"),
    (b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1", "a Word (.doc) or other Microsoft Office file"),
    (b"{\\rtf", "an RTF document"),
    (b"\x1f\x8b", "a gzip archive"),
    (b"\x89PNG", "a PNG image"),
    (b"\xff\xd8\xff", "a JPEG image"),
    (b"GIF8", "a GIF image"),
)
_ZIPPED = (
    (b"word/", "a Word document (.docx)"),
    (b"application/vnd.oasis.opendocument.text", "an OpenDocument text (.odt)"),
    (b"application/epub+zip", "an EPUB e-book"),
    (b"xl/", "an Excel workbook (.xlsx)"),
    (b"ppt/", "a PowerPoint file (.pptx)"),
)
# A web page starts with its doctype or <html> (after an XML declaration or comments, if any).
_PAGE_START = re.compile(r"\s*(?:<\?xml[^>]*>\s*)?(?:<!--.*?-->\s*)*<(?:!doctype\s+html|html)\b", re.I | re.S)
_TAG = re.compile(r"<\s*/?\s*[A-Za-z][\w:-]*(?:\s[^<>]*)?/?\s*>|<!(?:doctype\b|--)|<\?xml\b", re.I)


def sniff(raw: bytes) -> str | None:
    """What a file that is no plain text looks like (``"a PDF file"``), by its bytes; None for text."""
    if raw.startswith(b"PK\x03\x04"):
        return next((what for mark, what in _ZIPPED if mark in raw), "a ZIP archive")
    head = raw[:64].lstrip()
    return next((what for mark, what in _MAGIC if head.startswith(mark)), None)


def markup(lines: list[str]) -> str | None:
    """What a text made of markup looks like, ``"an HTML page"`` or ``"an XML file"``; None otherwise.

    >>> markup(["<!DOCTYPE html>", "<title>CR</title>", "Rules"]), markup(["100.1. A <b>rule</b>.", "100.2. Two.", "100.3. Three."])
    ('an HTML page', None)
    """
    if _PAGE_START.match("\n".join(lines[:50])):
        return "an HTML page"
    nonblank = [line for line in lines[:2000] if line.strip()]
    if nonblank and sum(1 for line in nonblank if _TAG.search(line)) * 2 > len(nonblank):
        return "an XML file" if nonblank[0].lstrip().startswith("<?xml") else "an HTML page"
    return None


def is_markup(line: str) -> bool:
    """A line that opens with a tag of a web page or is a PDF header (``<!DOCTYPE html>``, ``<html>``,
    ``%PDF-1.6``): never a rule's title, nor a glossary headword.

    >>> is_markup("<!DOCTYPE html>"), is_markup("%PDF-1.6"), is_markup("</p>"), is_markup("Poison Counter")
    (True, True, True, False)
    """
    stripped = line.strip()
    return stripped.startswith("%PDF-") or bool(_TAG.match(stripped))


def _latin1_fallback(exc: UnicodeError) -> tuple[str, int]:
    assert isinstance(exc, UnicodeDecodeError)
    return exc.object[exc.start : exc.end].decode("latin-1"), exc.end


codecs.register_error("rulebook-latin-1", _latin1_fallback)


def _decode_cp1252(raw: bytes) -> str:
    """Bytes that Windows-1252 leaves undefined are read as Latin-1 rather than failing the file (by an
    error handler: decoding such a file byte by byte took 9 s for 1.7 MB, found by bench/fuzz_readers.py).

    >>> _decode_cp1252(b"\\x93A\\x81\\x94")
    '“A\\x81”'
    """
    return raw.decode("cp1252", errors="rulebook-latin-1")


def split_lines(text: str) -> list[str]:
    """Split on every kind of line end; ``\\r\\r\\n`` is one line end, not two."""
    text = text.replace("\r\r\n", "\n").replace("\r\n", "\n").replace("\r", "\n")
    lines = text.split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    return lines


def decode(raw: bytes, path: str) -> list[str]:
    """The lines of a document. Raises :class:`ReadError` for an empty file, and for one that is no
    plain text (binary data, a PDF, a Word document, a web page), saying what it looks like."""
    if not raw.strip():
        raise ReadError(path, "empty file: expected rule text")
    what = sniff(raw)
    if what:
        raise ReadError(path, f"looks like {what}, {NOT_TEXT}")
    try:
        encoding = detect_encoding(raw)
    except ReadError as exc:
        raise ReadError(path, exc.message) from None
    if encoding == "cp1252":
        text = _decode_cp1252(raw)
    else:
        try:
            text = _decode_cut(raw, encoding)
        except UnicodeDecodeError as exc:
            raise ReadError(path, f"cannot decode as {encoding}: {exc.reason}") from None
    if "\x00" in text or _mostly_control(text):
        raise ReadError(path, BINARY)
    text = text.lstrip("\ufeff")
    if _PAGE_START.match(text[:4000]):  # a saved web page: refused before anything reads it
        raise ReadError(path, f"looks like an HTML page, {NOT_TEXT}")
    return [line.rstrip() for line in split_lines(text)]


def _mostly_control(text: str) -> bool:
    sample = text[:4000]
    bad = sum(1 for ch in sample if unicodedata.category(ch) in ("Cc", "Co", "Cn") and ch not in "\r\n\t\f")
    return bad > max(8, len(sample) // 20)


def read_bytes(path: str | Path) -> bytes:
    """The bytes of the file at ``path``; :class:`ReadError` saying why it cannot be read."""
    try:
        return Path(path).read_bytes()
    except FileNotFoundError:
        raise ReadError(str(path), "no such file") from None
    except IsADirectoryError:
        raise ReadError(str(path), "is a folder, expected a rule document") from None
    except OSError as exc:
        raise ReadError(str(path), f"cannot read: {exc.strerror}") from None


def read_lines(path: str | Path) -> tuple[list[str], str]:
    """The lines of the file at ``path`` and its sha256."""
    raw = read_bytes(path)
    return decode(raw, str(path)), hashlib.sha256(raw).hexdigest()


_LATIN_LETTER = re.compile(r"[A-Za-z]")


def is_junk(line: str) -> bool:
    """A line left by a web scrape: letters, but none of them Latin (``Выбрать главу``)."""
    stripped = line.strip()
    if not stripped or _LATIN_LETTER.search(stripped) or any(ch.isdigit() for ch in stripped):
        return False
    return any(ch.isalpha() for ch in stripped)


def glued_note(number: str, leftover: str) -> str:
    """The load warning for a rule number found glued to a word left over from the page it came from.

    >>> glued_note("391", "Refl")
    "rule 391 was glued to 'Refl', a leftover of the page it came from: read as rule 391, 'Refl' dropped"
    """
    return (
        f"rule {number} was glued to {leftover!r}, a leftover of the page it came from: "
        f"read as rule {number}, {leftover!r} dropped"
    )


# A comment about the file, not its text: "# origin: https://... published 2025-10-16", "# converted
# from the PDF by ...", "// saved 2025-01-02", "<!-- scraped -->". A "#" line that reads as a title
# ("# Riftbound Origins FAQ") is a Markdown heading instead.
_COMMENT_MARK = re.compile(r"^(?:#+|//+|;+|<!--)\s*")
# Words a note about where a file came from starts with ("Source: ...", "Converted from ...").
_PROVENANCE = re.compile(
    r"^(?:(?:origin|source|url|link|encoding|sha256|md5|checksum|licen[cs]e|author|date)\s*:|"
    r"(?:published|updated|retrieved|downloaded|fetched|converted|rendered|extracted|generated|scraped|saved|"
    r"copied)\s*(?::|(?:from|by|on|at|with|in|using|via)\b|\d))",
    re.I,
)
_URL = re.compile(r"\b(?:https?://|www\.)\S+", re.I)


def is_comment(line: str) -> bool:
    """A line that says something about the file rather than being part of it, which no reader may
    take for a title, a rule or a ruling.

    >>> [is_comment(x) for x in ("# origin: https://x.org published 2025-10-16", "# Converted from the PDF",
    ...  "// saved by hand", "<!-- scraped 2025 -->", "# see riftbound.gg", "# https://x.org/cr.txt")]
    [True, True, True, True, True, True]
    >>> [is_comment(x) for x in ("# Riftbound Origins FAQ", "## Errata: Falling Star", "# Updated Rulings", "#1 pick",
    ...  "### Q: Is https://x.org right?")]
    [False, False, False, False, False]
    """
    stripped = line.strip()
    mark = _COMMENT_MARK.match(stripped)
    if mark is None or stripped.startswith("#") and not stripped.lstrip("#")[:1].isspace():
        return False  # "#1 pick" or "#hashtag" is text, not a comment
    body = stripped[mark.end() :].removesuffix("-->").strip()
    if not stripped.startswith("#"):
        return True
    if not body or _PROVENANCE.match(body) or _URL.match(body):
        return True
    return body[0].islower() and not stripped.startswith("##")  # "## errata" may be a Markdown topic
