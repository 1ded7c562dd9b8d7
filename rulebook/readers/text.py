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
"""

from __future__ import annotations

import codecs
import hashlib
import re
import unicodedata
from pathlib import Path

from rulebook.model import ReadError

_CP1252_HOLES = {0x81, 0x8D, 0x8F, 0x90, 0x9D}  # bytes Windows-1252 leaves undefined


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
        raise ReadError("", "binary file (NUL bytes), not a text document")
    try:
        raw.decode("utf-8")
        return "utf-8"
    except UnicodeDecodeError:
        return "cp1252"


def _decode_cp1252(raw: bytes) -> str:
    # Bytes that Windows-1252 leaves undefined are read as Latin-1 rather than failing the file.
    return "".join(
        bytes([b]).decode("latin-1") if b in _CP1252_HOLES else bytes([b]).decode("cp1252") for b in raw
    ) if any(b in _CP1252_HOLES for b in raw) else raw.decode("cp1252")


def split_lines(text: str) -> list[str]:
    """Split on every kind of line end; ``\\r\\r\\n`` is one line end, not two."""
    text = text.replace("\r\r\n", "\n").replace("\r\n", "\n").replace("\r", "\n")
    lines = text.split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    return lines


def decode(raw: bytes, path: str) -> list[str]:
    """The lines of a document; raises :class:`ReadError` for an empty or binary file."""
    if not raw.strip():
        raise ReadError(path, "empty file: expected rule text")
    try:
        encoding = detect_encoding(raw)
    except ReadError as exc:
        raise ReadError(path, exc.message) from None
    if encoding == "cp1252":
        text = _decode_cp1252(raw)
    else:
        try:
            text = raw.decode(encoding)
        except UnicodeDecodeError as exc:
            raise ReadError(path, f"cannot decode as {encoding}: {exc.reason}") from None
    if "\x00" in text or _mostly_control(text):
        raise ReadError(path, "binary file, not a text document")
    text = text.lstrip("\ufeff")
    return [line.rstrip() for line in split_lines(text)]


def _mostly_control(text: str) -> bool:
    sample = text[:4000]
    bad = sum(1 for ch in sample if unicodedata.category(ch) in ("Cc", "Co", "Cn") and ch not in "\r\n\t\f")
    return bad > max(8, len(sample) // 20)


def read_lines(path: str | Path) -> tuple[list[str], str]:
    """The lines of the file at ``path`` and its sha256."""
    p = Path(path)
    try:
        raw = p.read_bytes()
    except FileNotFoundError:
        raise ReadError(str(path), "no such file") from None
    except IsADirectoryError:
        raise ReadError(str(path), "is a folder, expected a rule document") from None
    except OSError as exc:
        raise ReadError(str(path), f"cannot read: {exc.strerror}") from None
    return decode(raw, str(path)), hashlib.sha256(raw).hexdigest()


_LATIN_LETTER = re.compile(r"[A-Za-z]")


def is_junk(line: str) -> bool:
    """A line left by a web scrape: letters, but none of them Latin (``Выбрать главу``)."""
    stripped = line.strip()
    if not stripped or _LATIN_LETTER.search(stripped) or any(ch.isdigit() for ch in stripped):
        return False
    return any(ch.isalpha() for ch in stripped)
