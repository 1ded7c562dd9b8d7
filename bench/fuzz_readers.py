"""Fuzzing the readers (issue 25): mutated real files into every reader, each case ending in a result or
the reader's one-line error, never a traceback or a hang.

    python bench/fuzz_readers.py [--cases 100000] [--seed 0] [--timeout 5] [--workers 2]
                                 [--formats rules,rulings,books,pdf,docx,cards,scenarios] [--corpora DIR]
                                 [--crashes DIR] [--keep 5]
    python bench/fuzz_readers.py --replay FORMAT:SEED:CASE     # one case again, its traceback printed

Formats and their real files (``../shared/corpora``; without it, the seeds and the shipped scenarios):

- ``rules``: every Comprehensive Rules text (ten editions, four encodings, four line-end conventions),
  Riftbound's Core Rules v1.2 and v1.3 and the rule seeds, most cases a window of 20-800 lines of one
  (one in ten the whole file), in the file's own encoding and line ends, through
  ``rulebook.readers.read_file``;
- ``rulings``: the Riftbound FAQs, the patch notes and the FAQ seed, the same way;
- ``books``: windows of 20-300 lines of all of those, read and then made a book and written as ``judge load``
  writes it (``rulebook.library.read_book`` and ``write_book``: references, term uses, meaning rows) into a
  database of the worker's own, in memory;
- ``pdf``: PDFs of 1-3 pages cut from the 2025-02-07 CR's PDF (pypdf), half of them with their content
  streams written uncompressed, so that mutations reach the text operators;
- ``docx``: Word files of 20-200 paragraphs cut from the 2025-02-07 CR's DOCX (python-docx), mutated as a
  zip or inside ``word/document.xml`` (its bytes, its paragraphs, the text of its runs);
- ``cards``: 1-30 records of every card file (MTGJSON v3 and v5, Scryfall cards and rulings, the Riftbound
  gallery and errata) in the file's own shape and layout, loaded into a card library of the worker's
  own (``rulebook.cards.load.load``: the reader and the store building the cards);
- ``scenarios``: every shipped scenario, read by ``scenarios.scenario.load_scenario`` (a card library
  holding the Riftbound gallery) and, when it reads, played by ``scenarios.explain.explain``.

Mutations (several per case): bytes flipped, inserted, deleted; the file cut short; lines deleted,
duplicated, swapped, split and joined; junk rule numbers ("702. 37a Storm", "Refl391.", "999.999.999z");
Unicode oddities (zero-width, bidi marks, NUL, U+2028, NEL, fullwidth digits, a BOM in the middle,
combining marks); huge lines; another encoding or line end; for JSON and YAML, values of the wrong type,
deleted and renamed keys, deep nesting, huge numbers, YAML aliases that multiply ("billion laughs").

The contract, per case: the reader returns, or raises the project's documented error for bad input
(``rulebook.model.ReadError`` for rules and cards, ``scenarios.scenario.ScenarioFileError`` for
scenarios) whose text is one line naming the file. Outcomes: ``result``, ``error`` (that one line),
``crash`` (any other exception, or an error of more than one line or not naming the file) and ``hang``
(no answer within ``--timeout`` seconds: the worker process is killed and started again). Each case
runs in a worker process (``--workers`` of them); a case is made from (format, seed, number) alone, so
``--replay`` makes it again. The first ``--keep`` crashes and hangs of each format are saved to
``--crashes`` (default ``$TMPDIR/rules-judge-fuzz-crashes/``, outside the checkout: the inputs are pieces of
the publishers' files): the input, the traceback and the
replay command.

Prints a progress line every 5% and a summary table (counts per outcome and format, time), the machine
and the date.
"""

from __future__ import annotations

import argparse
import copy
import io
import json
import multiprocessing as mp
import os
import platform
import random
import re
import shutil
import sys
import tempfile
import time
import traceback
import zipfile
from datetime import date
from multiprocessing.connection import wait
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))
CORPORA = REPO.parent / "shared" / "corpora"
FORMATS = ("rules", "rulings", "books", "pdf", "docx", "cards", "scenarios")
WEIGHTS = {"rules": 26, "rulings": 10, "books": 8, "pdf": 8, "docx": 10, "cards": 20, "scenarios": 18}
SUFFIX = {
    "rules": ".txt",
    "rulings": ".md",
    "books": ".txt",
    "pdf": ".pdf",
    "docx": ".docx",
    "cards": ".json",
    "scenarios": ".yaml",
}

# -- the real files ---------------------------------------------------------------------------------------


def _text_seed(path: Path) -> dict:
    """A text file as its lines, encoding, BOM and line end, so a window of it is written back alike."""
    from rulebook.readers.text import decode, detect_encoding

    raw = path.read_bytes()
    encoding = detect_encoding(raw)
    newline = "\r\r\n" if b"\r\r\n" in raw[:5000] else "\r\n" if b"\r\n" in raw[:5000] else "\n"
    if encoding.startswith("utf-16") and b"\r\x00\n" not in raw[:5000] and b"\x00\r\x00\n" not in raw[:5000]:
        newline = "\r"
    return {"name": path.name, "lines": decode(raw, str(path)), "encoding": encoding, "newline": newline}


def text_seeds(corpora: Path, kind: str) -> list[dict]:
    seeds = REPO / "seeds"
    if kind == "rules":
        files = sorted((corpora / "mtg").glob("*.txt")) + sorted((corpora / "riftbound").glob("core-rules-*.txt"))
        files += [p for p in sorted(seeds.glob("*.txt")) if "faq" not in p.name]
    else:
        files = sorted((corpora / "riftbound").glob("faq-*.md")) + sorted((corpora / "riftbound").glob("patch-*.md"))
        files += [p for p in sorted(seeds.glob("*.txt")) if "faq" in p.name]
    return [_text_seed(p) for p in files]


def pdf_seeds(corpora: Path, count: int = 8) -> list[bytes]:
    """Small PDFs cut from the CR's PDF: a few pages each, half with uncompressed content streams."""
    source = corpora / "mtg" / "MagicCompRules-2025-02-07.pdf"
    if not source.exists():
        return []
    import pypdf
    from pypdf.generic import NameObject

    reader = pypdf.PdfReader(str(source))
    rng = random.Random(25)
    out = []
    for n in range(count):
        start = rng.randrange(len(reader.pages))
        writer = pypdf.PdfWriter()
        for i in range(start, min(len(reader.pages), start + rng.randint(1, 3))):
            writer.add_page(reader.pages[i])
        if n % 2:
            for page in writer.pages:
                contents = page.get_contents()
                if contents is not None:
                    data = contents.get_data()
                    stream = pypdf.generic.DecodedStreamObject()
                    stream.set_data(data)
                    page[NameObject("/Contents")] = writer._add_object(stream)
        buffer = io.BytesIO()
        writer.write(buffer)
        out.append(buffer.getvalue())
    return out


def docx_seeds(corpora: Path, count: int = 8) -> list[bytes]:
    """Small Word files cut from the CR's DOCX: a window of its paragraphs and tables each."""
    source = corpora / "mtg" / "MagicCompRules-2025-02-07.docx"
    if not source.exists():
        return []
    import docx

    rng = random.Random(25)
    out = []
    for _ in range(count):
        document = docx.Document(str(source))
        body = document.element.body
        children = [c for c in body.iterchildren() if not c.tag.endswith("}sectPr")]
        start = rng.randrange(max(1, len(children) - 200))
        keep = set(range(start, start + rng.randint(20, 200)))
        for i, child in enumerate(children):
            if i not in keep:
                body.remove(child)
        buffer = io.BytesIO()
        document.save(buffer)
        out.append(buffer.getvalue())
    return out


def card_seeds(corpora: Path) -> list[dict]:
    """Every card file as its JSON value and layout (indent or compact)."""
    files = sorted((corpora / "cards").rglob("*.json")) + [corpora / "riftbound" / "errata.json"]
    files += sorted((REPO / "tests" / "data" / "cards").glob("*.json"))
    out = []
    for p in files:
        if not p.exists():
            continue
        raw = p.read_bytes()
        out.append({"name": p.name, "value": json.loads(raw), "indent": 2 if b"\n " in raw[:2000] else None})
    return out


def scenario_seeds() -> list[dict]:
    return [
        {"name": p.name, "text": p.read_text(encoding="utf-8")}
        for p in sorted((REPO / "data" / "scenarios").glob("*/*.yaml"))
    ]


# -- mutations --------------------------------------------------------------------------------------------
JUNK_LINES = [
    "702. 37a Storm",
    "702. 37b Storm is a triggered ability.",
    "312. 3 When a player does something.",
    "322.8. a The Showdown happens.",
    "Refl391. Deflect is a keyword.",
    "999.999.999z",
    "100.1a.b.c.d.e.f. Nested too deep.",
    "0. Zero",
    "1.",
    "100.",
    "100.1.",
    ".1 Nothing before",
    "9" * 60 + ". A long number.",
    "100.1" + "a" * 40 + " Letters.",
    "Example:",
    "Example: " + "x" * 300,
    "Glossary",
    "Credits",
    "Contents",
    "1. Game Concepts",
    "See rule 9999.9.",
    "See rule 100.1a, 100.1b, and 100.1c.",
    "### Q:",
    "### Q: Does this work?",
    "Q:",
    "A:",
    "A: Yes.",
    "## ",
    "## Topic",
    "#### [NEW TEXT]",
    "#### [OLD TEXT]",
    "- ",
    "Last Updated 2026-13-45",
    "Riftbound Core Rules v99.99 (Last Updated 0000-00-00)",
    "Effective as of February 30, 2026.",
    "(Updated 31/31/2031)",
    "<!DOCTYPE html>",
    "<p>100.1. A rule in markup.</p>",
    "%PDF-1.6",
    "\t\t\t\t101.1. Indented by tabs.",
    " " * 200 + "101.2. Indented far.",
]
ODD_CHARS = [
    "\u200b",
    "\u200e",
    "\u200f",
    "\u202e",
    "\ufeff",
    "\x00",
    "\u2028",
    "\u2029",
    "\x85",
    "\x0c",
    "\x0b",
    "\x1c",
    "\x1d",
    "\x1e",
    "\ud7ff",
    "\U0001f600",
    "\u0301",
    "\u00ad",
    "\ufb01",
    "\uff11\uff10\uff10\uff0e\uff11",
    "\u0661\u0660\u0660",
    "\u00a0",
    "\u3000",
    "\t",
    "\r",
    "\n",
    "\ufffd",
    "İ",
    "ß",
    "ﬃ",
    "\u2014",
    "\u2212",
]
ENCODINGS = ["utf-8", "utf-8-sig", "utf-16", "utf-16-le", "utf-16-be", "cp1252", "latin-1", "utf-32"]
NEWLINES = ["\n", "\r\n", "\r", "\r\r\n", "\n\r", "\u2028"]


def _odd_text(rng: random.Random) -> str:
    return "".join(
        rng.choice(ODD_CHARS) if rng.random() < 0.5 else chr(rng.randrange(32, 0x3000))
        for _ in range(rng.randint(1, 8))
    )


def mutate_lines(lines: list[str], rng: random.Random) -> list[str]:
    """One line-level mutation."""
    lines = list(lines)
    if not lines:
        lines = [""]
    i, j = rng.randrange(len(lines)), rng.randrange(len(lines))
    op = rng.randrange(14)
    if op == 0:
        del lines[i : i + rng.randint(1, 5)]
    elif op == 1:
        lines[i:i] = lines[i : i + rng.randint(1, 5)] * rng.randint(1, 3)
    elif op == 2:
        lines[i], lines[j] = lines[j], lines[i]
    elif op == 3:
        lines.insert(i, rng.choice(JUNK_LINES))
    elif op == 4:  # a line wrapped in two
        cut = rng.randrange(len(lines[i]) + 1)
        lines[i : i + 1] = [lines[i][:cut], lines[i][cut:]]
    elif op == 5 and i + 1 < len(lines):  # two lines joined
        lines[i : i + 2] = [lines[i] + rng.choice(["", " "]) + lines[i + 1]]
    elif op == 6:  # odd characters somewhere in a line
        cut = rng.randrange(len(lines[i]) + 1)
        lines[i] = lines[i][:cut] + _odd_text(rng) + lines[i][cut:]
    elif op == 7:  # a huge line
        piece = rng.choice([lines[i] or "x", "9", "100.1a ", "word ", "\u200b", "("])
        lines.insert(i, piece * (rng.randint(1000, 200_000) // max(1, len(piece))))
    elif op == 8:  # indentation changed
        lines[i] = rng.choice(["", " ", "  ", "\t", " " * 17]) + lines[i].lstrip()
    elif op == 9:  # a number in a line changed
        lines[i] = re.sub(
            r"\d+",
            lambda m: rng.choice(["0", "", m.group() * 2, str(rng.randrange(10**6)), "1" * 30]),
            lines[i],
            count=rng.randint(1, 3),
        )
    elif op == 10:  # a block moved
        block = lines[i : i + rng.randint(1, 40)]
        del lines[i : i + len(block)]
        k = rng.randrange(len(lines) + 1)
        lines[k:k] = block
    elif op == 11:
        lines.insert(i, "")
        lines[i:i] = [""] * rng.randint(1, 50)
    elif op == 12:  # a run of junk numbers
        lines[i:i] = [
            f"{rng.randint(0, 999)}.{rng.randint(0, 99)}{rng.choice(['', 'a', 'z', '.b', '. a'])} {rng.choice(['', 'Text.', 'Storm'])}"
            for _ in range(rng.randint(1, 20))
        ]
    else:  # a line's punctuation changed
        lines[i] = lines[i].replace(".", rng.choice(["", ". ", ",", "..", "．"]), rng.randint(1, 2))
    return lines


def mutate_bytes(raw: bytes, rng: random.Random) -> bytes:
    """One byte-level mutation."""
    data = bytearray(raw)
    op = rng.randrange(7)
    pos = rng.randrange(len(data) + 1)
    if op == 0 and data:  # flip bits
        for _ in range(rng.randint(1, 8)):
            k = rng.randrange(len(data))
            data[k] ^= 1 << rng.randrange(8)
    elif op == 1:  # random bytes
        data[pos:pos] = rng.randbytes(rng.randint(1, 16))
    elif op == 2:  # bytes deleted
        del data[pos : pos + rng.randint(1, 64)]
    elif op == 3:  # cut short
        del data[pos:]
    elif op == 4 and data:  # a chunk repeated
        k = rng.randrange(len(data))
        data[pos:pos] = data[k : k + rng.randint(1, 512)] * rng.randint(1, 4)
    elif op == 5:  # interesting bytes
        data[pos:pos] = rng.choice(
            [
                b"\x00",
                b"\xff",
                b"\xef\xbb\xbf",
                b"\xff\xfe",
                b"\xfe\xff",
                b"\xc3",
                b"\xe2\x80",
                b"\r",
                b"\r\r\n",
                b"\x80\x81\x8d",
            ]
        )
    elif data:  # one byte set
        data[rng.randrange(len(data))] = rng.randrange(256)
    return bytes(data)


def text_case(seed: dict, rng: random.Random, whole: bool = True, most: int = 800) -> bytes:
    lines = seed["lines"]
    if (rng.random() < 0.9 or not whole) and len(lines) > 40:
        size = rng.randint(20, most)
        start = rng.randrange(max(1, len(lines) - size))
        head = lines[: rng.choice([0, 0, 3, 10])]
        lines = head + lines[start : start + size]
    for _ in range(rng.choice([1, 1, 2, 3, 5, 10])):
        lines = mutate_lines(lines, rng)
    encoding, newline = seed["encoding"], seed["newline"]
    if rng.random() < 0.1:
        encoding = rng.choice(ENCODINGS)
    if rng.random() < 0.1:
        newline = rng.choice(NEWLINES)
    raw = newline.join(lines).encode(encoding, errors="replace")
    if rng.random() < 0.3:
        for _ in range(rng.randint(1, 3)):
            raw = mutate_bytes(raw, rng)
    return raw


_XML_TEXT = re.compile(rb"(<w:t(?: [^>]*)?>)([^<]*)(</w:t>)")
_XML_PARA = re.compile(rb"<w:p[ >].*?</w:p>", re.S)


def docx_case(seed: bytes, rng: random.Random) -> bytes:
    if rng.random() < 0.3:  # the zip itself
        raw = seed
        for _ in range(rng.randint(1, 3)):
            raw = mutate_bytes(raw, rng)
        return raw
    zin = zipfile.ZipFile(io.BytesIO(seed))
    parts = {name: zin.read(name) for name in zin.namelist()}
    xml = parts["word/document.xml"]
    op = rng.randrange(4)
    if op == 0:  # the XML's bytes
        for _ in range(rng.randint(1, 3)):
            xml = mutate_bytes(xml, rng)
    elif op == 1:  # paragraphs deleted, duplicated, swapped
        paras = [m.group() for m in _XML_PARA.finditer(xml)]
        if paras:
            mutated = [p.decode("utf-8", "replace") for p in paras]
            for _ in range(rng.randint(1, 5)):
                mutated = mutate_lines(mutated, rng)
            safe = [p for p in mutated if p.startswith("<w:p") and p.endswith("</w:p>")]
            start, end = _XML_PARA.search(xml).start(), list(_XML_PARA.finditer(xml))[-1].end()  # type: ignore[union-attr]
            xml = xml[:start] + "".join(safe).encode() + xml[end:]
    else:  # the text of runs, as the readers' lines

        def run(m: re.Match) -> bytes:
            if rng.random() > 0.1:
                return m.group()
            text = m.group(2).decode("utf-8", "replace")
            text = "\n".join(mutate_lines([text], rng)).replace("\n", " ")
            text = "".join(
                c
                for c in text
                if c in "\t\n\r" or (ord(c) >= 32 and not 0xD800 <= ord(c) <= 0xDFFF and c not in "\ufffe\uffff")
            )
            escaped = text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
            return m.group(1) + escaped.encode("utf-8") + m.group(3)

        xml = _XML_TEXT.sub(run, xml)
    parts["word/document.xml"] = xml
    if rng.random() < 0.05:
        del parts[rng.choice(list(parts))]
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as zout:
        for name, data in parts.items():
            zout.writestr(name, data)
    return out.getvalue()


def pdf_case(seed: bytes, rng: random.Random) -> bytes:
    raw = seed
    if rng.random() < 0.5:  # the text operators of an uncompressed content stream
        for m in list(re.finditer(rb"\((?:[^()\\]|\\.){1,200}\)\s*Tj|\[(?:[^\]]){1,400}\]\s*TJ", raw))[:2000]:
            if rng.random() < 0.05:
                junk = rng.choice(
                    [
                        b"(702. 37a Storm) Tj",
                        b"(Refl391.) Tj",
                        b"() Tj",
                        b"[(1)-300(0)] TJ",
                        b"(\\377\\376) Tj",
                        b"(" + b"9" * 5000 + b") Tj",
                        b"[] TJ",
                        b"Tj",
                        b"(unclosed Tj",
                    ]
                )
                raw = raw[: m.start()] + junk + raw[m.end() :]
                break
    for _ in range(rng.randint(1, 4)):
        raw = mutate_bytes(raw, rng)
    return raw


ODD_VALUES: list[Any] = [
    None,
    0,
    -1,
    3.5,
    1e308,
    float("inf"),
    10**40,
    "",
    "x" * 10_000,
    "three",
    [],
    {},
    ["x"],
    {"a": 1},
    True,
    False,
    "2026-13-45",
    "\u200b",
    "{9}{G/U/P}",
    ":rb_energy_99:",
]


def _nodes(value: Any, path: tuple = ()) -> list[tuple]:
    out = [path]
    if len(path) > 40:  # a value nested deep by an earlier mutation: its depths are not walked
        return out
    if isinstance(value, dict):
        for k, v in list(value.items())[:60]:
            out += _nodes(v, path + (k,))
    elif isinstance(value, list):
        for i, v in enumerate(value[:60]):
            out += _nodes(v, path + (i,))
    return out


def _get(value: Any, path: tuple) -> Any:
    for k in path:
        value = value[k]
    return value


def mutate_value(value: Any, rng: random.Random) -> Any:
    """One structural mutation of a JSON or YAML value (none, for a value nested too deep to copy)."""
    try:
        return _mutate_value(value, rng)
    except RecursionError:
        return value


def _mutate_value(value: Any, rng: random.Random) -> Any:
    paths = _nodes(value)
    path = rng.choice(paths)
    op = rng.randrange(6)
    if not path:
        return rng.choice([value, [value], {"data": value}, None, []])
    parent, key = _get(value, path[:-1]), path[-1]
    if op == 0:
        parent[key] = copy.deepcopy(rng.choice(ODD_VALUES))
    elif op == 1:  # deleted
        del parent[key]
    elif op == 2 and isinstance(parent, dict):  # renamed
        parent[rng.choice(["", "name", "cards", "object", "data", str(key).upper(), str(key) + "x"])] = parent.pop(key)
    elif op == 3:  # nested deep
        nested = parent[key]
        for _ in range(rng.choice([5, 50, 500, 5000])):
            nested = [nested] if rng.random() < 0.5 else {"a": nested}
        parent[key] = nested
    elif op == 4:  # another value of the file put here
        parent[key] = copy.deepcopy(_get(value, rng.choice(paths)))
    else:  # type changed
        old = parent[key]
        parent[key] = (
            {"0": old}
            if isinstance(old, list)
            else list(old.values())
            if isinstance(old, dict)
            else [old]
            if rng.random() < 0.5
            else str(old)
        )
    return value


def _card_slice(value: Any, rng: random.Random) -> Any:
    """1-30 records of a card file, in its own shape (a copy: the real file's value is never changed)."""

    def cut(items: list) -> list:
        if len(items) <= 30:
            return copy.deepcopy(items)
        start = rng.randrange(len(items))
        return copy.deepcopy(items[start : start + rng.randint(1, 30)])

    if isinstance(value, list):
        return cut(value)
    if not isinstance(value, dict):
        return copy.deepcopy(value)
    return {k: cut(v) if isinstance(v, list) else copy.deepcopy(v) for k, v in value.items()}


def card_case(seed: dict, rng: random.Random) -> bytes:
    value = _card_slice(seed["value"], rng)
    for _ in range(rng.choice([0, 1, 1, 2, 3, 6])):
        value = mutate_value(value, rng)
    try:
        text = json.dumps(value, indent=seed["indent"], ensure_ascii=rng.random() < 0.2)
    except (RecursionError, ValueError):
        text = json.dumps(None)
    if rng.random() < 0.05:  # deep nesting beyond json.dumps
        depth = rng.choice([1000, 100_000])
        text = (
            text[:-1] + ', "x": ' + "[" * depth + "]" * depth + text[-1:]
            if text.endswith("}")
            else "[" * depth + "]" * depth
        )
    if rng.random() < 0.35:
        lines = text.split("\n")
        for _ in range(rng.randint(1, 3)):
            lines = mutate_lines(lines, rng)
        text = "\n".join(lines)
    raw = text.encode("utf-8", "surrogatepass")
    if rng.random() < 0.3:
        for _ in range(rng.randint(1, 3)):
            raw = mutate_bytes(raw, rng)
    return raw


YAML_JUNK = [
    "a: &a [x, x, x, x, x, x, x, x, x]\nb: &b [*a, *a, *a, *a, *a, *a, *a, *a, *a]\nc: &c [*b, *b, *b, *b, *b, *b, *b, *b, *b]\n"
    "d: &d [*c, *c, *c, *c, *c, *c, *c, *c, *c]\ne: &e [*d, *d, *d, *d, *d, *d, *d, *d, *d]\nf: [*e, *e, *e, *e, *e, *e, *e, *e, *e]",
    "x: " + "[" * 5000 + "]" * 5000,
    "x: " + "{a: " * 200 + "1" + "}" * 200,
    "x: " + "1" * 5000,
    "x: 1e999999",
    "x: !!python/object/apply:os.system ['true']",
    "x: !!binary AAAA",
    "x: &x [*x]",
    "x: *nowhere",
    "? [a, b]\n: c",
    "x: |\n\tbad tab",
    "--- !!set\n? a",
    "%YAML 9.9\n---",
    "x: 2026-02-30",
    "x: 0x" + "f" * 100,
    "x: .inf",
    "x: ~",
    "<<: {a: 1}",
]


def scenario_case(seed: dict, rng: random.Random) -> bytes:
    import yaml

    text = seed["text"]
    if rng.random() < 0.5:
        try:
            value = yaml.safe_load(text)
            for _ in range(rng.choice([1, 1, 2, 3])):
                value = mutate_value(value, rng)
            text = yaml.safe_dump(value, allow_unicode=True, sort_keys=False)
        except (RecursionError, yaml.YAMLError):
            pass
    lines = text.split("\n")
    if rng.random() < 0.6:
        for _ in range(rng.randint(1, 3)):
            if rng.random() < 0.3:
                i = rng.randrange(len(lines) + 1)
                lines[i:i] = rng.choice(YAML_JUNK).split("\n")
            else:
                lines = mutate_lines(lines, rng)
    raw = "\n".join(lines).encode("utf-8", "surrogatepass")
    if rng.random() < 0.2:
        raw = mutate_bytes(raw, rng)
    return raw


# -- the cases ----------------------------------------------------------------------------------------------
class Seeds:
    """Every format's real files, made once per process (the workers are forked after)."""

    def __init__(self, corpora: Path, formats: tuple[str, ...]):
        self.corpora = corpora
        self.by_format: dict[str, list] = {}
        makers = {
            "rules": lambda: text_seeds(corpora, "rules"),
            "rulings": lambda: text_seeds(corpora, "rulings"),
            "books": lambda: text_seeds(corpora, "rules") + text_seeds(corpora, "rulings"),
            "pdf": lambda: pdf_seeds(corpora),
            "docx": lambda: docx_seeds(corpora),
            "cards": lambda: card_seeds(corpora),
            "scenarios": scenario_seeds,
        }
        for fmt in formats:
            self.by_format[fmt] = makers[fmt]()


def plan(formats: tuple[str, ...], cases: int, seeds: Seeds) -> list[str]:
    """The format of each case, by the weights, round-robin (formats without files left out)."""
    wheel = [f for f in formats if seeds.by_format.get(f) for _ in range(WEIGHTS[f])]
    if not wheel:
        return []
    random.Random(0).shuffle(wheel)
    return [wheel[i % len(wheel)] for i in range(cases)]


def make_case(seeds: Seeds, fmt: str, seed: int, number: int) -> tuple[str, bytes]:
    """(the real file it comes from, the mutated bytes) of case ``number``."""
    rng = random.Random(f"{fmt}:{seed}:{number}")
    pool = seeds.by_format[fmt]
    if fmt in ("rules", "rulings"):
        s = rng.choice(pool)
        return s["name"], text_case(s, rng)
    if fmt == "books":  # a window only: writing a whole CR's book takes seconds
        s = rng.choice(pool)
        return s["name"], text_case(s, rng, whole=False, most=300)
    if fmt == "pdf":
        k = rng.randrange(len(pool))
        return f"cr-pages-{k}.pdf", pdf_case(pool[k], rng)
    if fmt == "docx":
        k = rng.randrange(len(pool))
        return f"cr-paragraphs-{k}.docx", docx_case(pool[k], rng)
    if fmt == "cards":
        s = rng.choice(pool)
        return s["name"], card_case(s, rng)
    s = rng.choice(pool)
    return s["name"], scenario_case(s, rng)


def case_options(fmt: str, seed: int, number: int) -> dict:
    """How a rule document is read: mostly as detected; one case in six with the game or the kind a judge
    may force (``judge load --game mtg`` on a Riftbound text)."""
    rng = random.Random(f"options:{fmt}:{seed}:{number}")
    if fmt not in ("rules", "rulings", "pdf", "docx") or rng.random() > 1 / 6:
        return {}
    options = {"game": rng.choice(["mtg", "riftbound"])}
    if rng.random() < 0.5:
        options["kind"] = rng.choice(["rules", "glossary", "rulings"])
    return options


# -- running a case ---------------------------------------------------------------------------------------------
class Runner:
    """What a worker does with a case: write it to a file of its own and hand it to the reader."""

    def __init__(self, work: Path, corpora: Path):
        self.work, self.corpora = work, corpora
        self._cards = None
        self._books = None
        self._scenario_library = None

    def book_db(self):
        if self._books is None:
            import sqlite_utils

            from rulebook.store import create_schema

            self._books = sqlite_utils.Database(memory=True)
            create_schema(self._books)
        return self._books

    def card_store(self):
        if self._cards is None:
            from rulebook.cards.store import CardStore, card_db_path

            home = self.work / "cards-home"
            home.mkdir(exist_ok=True)
            self._cards = CardStore(card_db_path(home))
        return self._cards

    def scenario_library(self):
        if self._scenario_library is None:
            from rulebook.cards.load import load
            from rulebook.cards.scenario import CardLibrary
            from rulebook.cards.store import CardStore, card_db_path

            home = self.work / "scenario-home"
            home.mkdir(exist_ok=True)
            gallery = self.corpora / "cards" / "riftbound" / "cards.json"
            if gallery.exists():
                store = CardStore(card_db_path(home))
                load(store, [gallery])
                store.close()
            self._scenario_library = CardLibrary(home)
        return self._scenario_library

    def run(self, fmt: str, raw: bytes, options: dict | None = None) -> tuple[str, str]:
        """(outcome, detail): ``result``, ``error`` (its line) or ``crash`` (the traceback)."""
        from rulebook.model import ReadError
        from scenarios.scenario import ScenarioFileError

        path = self.work / f"case{SUFFIX[fmt]}"
        path.write_bytes(raw)
        expected: tuple[type[BaseException], ...] = (ScenarioFileError,) if fmt == "scenarios" else (ReadError,)
        try:
            self._call(fmt, path, options or {})
        except expected as exc:
            line = str(exc)
            if "\n" in line or "\r" in line or str(path) not in line:
                return "crash", f"not one line naming the file: {line!r}"
            return "error", line
        except Exception:  # noqa: BLE001 - every other exception is what the fuzz looks for
            return "crash", traceback.format_exc()
        return "result", ""

    def _call(self, fmt: str, path: Path, options: dict) -> None:
        if fmt in ("rules", "rulings", "pdf", "docx"):
            from rulebook.readers import read_file

            read_file(path, **options)
        elif fmt == "books":  # read, then made a book and written as judge load does (references, uses, ...)
            from rulebook.library import BookSpec, SourceFile, read_book, write_book
            from rulebook.readers import read_file

            doc = read_file(path)
            spec = BookSpec("fuzz", doc.game, "fuzz", None, (SourceFile(path, doc.kind),))
            book = read_book(spec, already_read={doc.source.sha256: doc})
            db = self.book_db()
            with db.conn:
                write_book(db, book, 0)
        elif fmt == "cards":  # as judge load: a JSON file that is no card file described, else loaded
            from rulebook.cards import readers
            from rulebook.cards.load import load
            from rulebook.model import ReadError

            if readers.detect(path) is None:
                if readers.looks_like_json(path):
                    raise ReadError(str(path), f"{readers.describe(path)}: expected {readers.KNOWN}")
            load(self.card_store(), [path])
        else:
            from scenarios.explain import explain
            from scenarios.scenario import load_scenario

            explain(load_scenario(path, library=self.scenario_library()))


def _worker(conn, seeds: Seeds, seed: int, work: str) -> None:
    import logging

    logging.disable(logging.WARNING)
    os.environ["JUDGE_HOME"] = str(Path(work) / "home")
    runner = Runner(Path(work), seeds.corpora)
    while True:
        job = conn.recv()
        if job is None:
            return
        fmt, number = job
        _, raw = make_case(seeds, fmt, seed, number)
        started = time.perf_counter()
        outcome, detail = runner.run(fmt, raw, case_options(fmt, seed, number))
        conn.send((outcome, detail, time.perf_counter() - started))


class Pool:
    def __init__(self, seeds: Seeds, seed: int, workers: int, root: Path):
        self.seeds, self.seed, self.root = seeds, seed, root
        self.ctx = mp.get_context("fork")
        self.slots = [self._start(i) for i in range(workers)]

    def _start(self, i: int) -> dict:
        work = self.root / f"worker-{i}-{time.monotonic_ns()}"
        work.mkdir(parents=True)
        parent, child = self.ctx.Pipe()
        proc = self.ctx.Process(target=_worker, args=(child, self.seeds, self.seed, str(work)), daemon=True)
        proc.start()
        child.close()
        return {"i": i, "conn": parent, "proc": proc, "job": None, "since": 0.0, "work": work}

    def restart(self, slot: dict) -> dict:
        slot["proc"].kill()
        slot["proc"].join()
        shutil.rmtree(slot["work"], ignore_errors=True)
        fresh = self._start(slot["i"])
        self.slots[slot["i"]] = fresh
        return fresh

    def close(self) -> None:
        for slot in self.slots:
            try:
                slot["conn"].send(None)
            except OSError:
                pass
            slot["proc"].join(timeout=5)
            if slot["proc"].is_alive():
                slot["proc"].kill()


def fuzz(args) -> int:
    formats = tuple(f for f in args.formats.split(",") if f)
    unknown = [f for f in formats if f not in FORMATS]
    if unknown:
        print(f"fuzz_readers: unknown format {unknown[0]!r}: expected some of {', '.join(FORMATS)}", file=sys.stderr)
        return 2
    started = time.perf_counter()
    seeds = Seeds(args.corpora, formats)
    missing = [f for f in formats if not seeds.by_format.get(f)]
    if missing:
        print(
            f"fuzz_readers: no real files for {', '.join(missing)} (is {args.corpora} there?): left out",
            file=sys.stderr,
        )
    order = plan(formats, args.cases, seeds)
    print(
        f"fuzz_readers: {len(order)} cases, seed {args.seed}, {args.workers} workers, timeout {args.timeout} s; "
        f"real files: "
        + ", ".join(f"{f} {len(seeds.by_format[f])}" for f in formats if seeds.by_format.get(f))
        + f" (made in {time.perf_counter() - started:.1f} s)",
        flush=True,
    )
    counts: dict[str, dict[str, int]] = {f: {"result": 0, "error": 0, "crash": 0, "hang": 0} for f in formats}
    slowest: dict[str, tuple[float, int]] = {f: (0.0, -1) for f in formats}
    spent: dict[str, float] = {f: 0.0 for f in formats}
    kept: dict[str, int] = {f: 0 for f in formats}
    signatures: dict[str, int] = {}
    crashes = Path(args.crashes)
    root = Path(tempfile.mkdtemp(prefix="fuzz-readers-"))
    pool = Pool(seeds, args.seed, args.workers, root)
    done, next_case, step = 0, 0, max(1, len(order) // 20)
    fuzz_started = time.perf_counter()

    def record(fmt: str, number: int, outcome: str, detail: str, seconds: float) -> None:
        nonlocal done
        counts[fmt][outcome] += 1
        spent[fmt] += seconds
        done += 1
        if seconds > slowest[fmt][0]:
            slowest[fmt] = (seconds, number)
        if outcome in ("crash", "hang"):
            lines = [line for line in detail.strip().splitlines() if line.strip()]
            signature = f"{fmt}: {outcome}: {re.sub(r'[0-9]+', 'N', lines[-1][:160]) if lines else ''}"
            signatures[signature] = signatures.get(signature, 0) + 1
            if kept[fmt] < args.keep and signatures[signature] == 1:
                kept[fmt] += 1
                origin, raw = make_case(seeds, fmt, args.seed, number)
                folder = crashes / f"{fmt}-{args.seed}-{number}"
                folder.mkdir(parents=True, exist_ok=True)
                (folder / f"case{SUFFIX[fmt]}").write_bytes(raw)
                (folder / "what.txt").write_text(
                    f"{outcome} in {seconds:.1f} s, a mutation of {origin}\n"
                    f"replay: python bench/fuzz_readers.py --replay {fmt}:{args.seed}:{number}\n\n{detail}\n",
                    encoding="utf-8",
                )
        if done % step == 0 or done == len(order):
            bad = sum(c["crash"] + c["hang"] for c in counts.values())
            print(
                f"  {done}/{len(order)} cases, {time.perf_counter() - fuzz_started:.0f} s, {bad} crashes or hangs",
                flush=True,
            )

    try:
        while done < len(order):
            for slot in pool.slots:
                if slot["job"] is None and next_case < len(order):
                    slot["job"], slot["since"] = (order[next_case], next_case), time.monotonic()
                    slot["conn"].send(slot["job"])
                    next_case += 1
            busy = [s for s in pool.slots if s["job"] is not None]
            ready = wait([s["conn"] for s in busy], timeout=0.5)
            for slot in list(busy):
                if slot["conn"] in ready:
                    try:
                        outcome, detail, seconds = slot["conn"].recv()
                    except (EOFError, OSError):  # the worker died (a crash of the interpreter itself)
                        fmt, number = slot["job"]
                        record(fmt, number, "crash", f"the worker process died (exit {slot['proc'].exitcode})", 0.0)
                        pool.restart(slot)
                        continue
                    fmt, number = slot["job"]
                    slot["job"] = None
                    record(fmt, number, outcome, detail, seconds)
                elif time.monotonic() - slot["since"] > args.timeout:
                    fmt, number = slot["job"]
                    record(fmt, number, "hang", f"no answer in {args.timeout} s", time.monotonic() - slot["since"])
                    pool.restart(slot)
    finally:
        pool.close()
        shutil.rmtree(root, ignore_errors=True)
    elapsed = time.perf_counter() - fuzz_started
    print()
    print(
        f"Fuzzing the readers, {date.today().isoformat()}: {platform.machine()}, {os.cpu_count()} cores, "
        f"Python {platform.python_version()}, {args.workers} workers, seed {args.seed}"
    )
    print()
    print("| format | cases | result | one-line error | crash | hang | mean case | slowest case |")
    print("|---|---:|---:|---:|---:|---:|---:|---:|")
    total = {"result": 0, "error": 0, "crash": 0, "hang": 0}
    for fmt in formats:
        c = counts[fmt]
        n = sum(c.values())
        if not n:
            continue
        for k in total:
            total[k] += c[k]
        print(
            f"| {fmt} | {n} | {c['result']} | {c['error']} | {c['crash']} | {c['hang']} | {1000 * spent[fmt] / n:.0f} ms "
            f"| {slowest[fmt][0]:.2f} s (#{slowest[fmt][1]}) |"
        )
    print(
        f"| all | {sum(total.values())} | {total['result']} | {total['error']} | {total['crash']} | {total['hang']} | | |"
    )
    print()
    print(f"{len(order)} cases in {elapsed:.0f} s ({len(order) / max(elapsed, 1e-9):.0f} a second)")
    for signature, n in sorted(signatures.items(), key=lambda kv: -kv[1]):
        print(f"  {n} x {signature}")
    if signatures:
        print(f"examples saved in {crashes}")
    return 1 if signatures else 0


def replay(args) -> int:
    fmt, seed, number = args.replay.split(":")
    if fmt not in FORMATS:
        print(f"fuzz_readers: unknown format {fmt!r}: expected one of {', '.join(FORMATS)}", file=sys.stderr)
        return 2
    seeds = Seeds(args.corpora, (fmt,))
    origin, raw = make_case(seeds, fmt, int(seed), int(number))
    work = Path(tempfile.mkdtemp(prefix="fuzz-replay-"))
    os.environ["JUDGE_HOME"] = str(work / "home")
    started = time.perf_counter()
    options = case_options(fmt, int(seed), int(number))
    outcome, detail = Runner(work, args.corpora).run(fmt, raw, options)
    if options:
        print(f"read with {options}")
    print(
        f"{fmt}:{seed}:{number} (a mutation of {origin}, {len(raw)} bytes): {outcome} in {time.perf_counter() - started:.2f} s"
    )
    if detail:
        print(detail)
    print(f"input: {work / ('case' + SUFFIX[fmt])}")
    return 0 if outcome != "crash" else 1


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--cases", type=int, default=100_000)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--timeout", type=float, default=5.0, help="seconds a case may take before it is a hang")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--formats", default=",".join(FORMATS))
    parser.add_argument("--corpora", type=Path, default=CORPORA)
    parser.add_argument("--crashes", default=str(Path(tempfile.gettempdir()) / "rules-judge-fuzz-crashes"))
    parser.add_argument("--keep", type=int, default=5, help="crashes and hangs saved per format")
    parser.add_argument("--replay", help="FORMAT:SEED:CASE: make and run that one case again")
    args = parser.parse_args()
    return replay(args) if args.replay else fuzz(args)


if __name__ == "__main__":
    sys.exit(main())
