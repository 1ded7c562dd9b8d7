"""`judge load` reads the formats the publishers ship (issue 25): a PDF or Word file gives the same rules
as the text file of the same edition; a damaged one is refused in one line, exit 2."""

from __future__ import annotations

import json
import textwrap
import zipfile

import pytest
from conftest import corpus, pdf_of

from rulebook.readers import read_file
from rulebook.readers.documents import PdfLine, clean, drop_furniture, join_lines

CR = "MagicCompRules-2025-02-07"


def _norm(text: str) -> str:
    return " ".join(text.split())


def _rules(doc) -> dict[str, tuple]:
    return {r.number: (_norm(r.title or ""), _norm(r.text), tuple(map(_norm, r.examples))) for r in doc.rules}


@pytest.fixture(scope="module")
def editions() -> dict:
    """The 2025-02-07 Comprehensive Rules read from each format the publisher ships, once (the PDF
    takes about 10 s)."""
    return {ext: read_file(corpus("mtg", f"{CR}.{ext}")) for ext in ("txt", "pdf", "docx")}


@pytest.mark.parametrize("ext", ["pdf", "docx"])
def test_the_same_rules_as_the_text_file(editions, ext):
    text, other = _rules(editions["txt"]), _rules(editions[ext])
    assert set(other) == set(text)
    differ = sorted(n for n in text if other[n] != text[n])
    assert len(differ) <= len(text) * 0.005, differ[:20]
    # Every rule that reads differently is named in a warning of the load.
    reasons = [w.reason for w in editions[ext].warnings]
    assert all(any(f"rule {n}:" in r for r in reasons) for n in differ), differ
    doc = editions[ext]
    assert (doc.game, doc.title, doc.edition) == (editions["txt"].game, editions["txt"].title, editions["txt"].edition)


@pytest.mark.parametrize("ext", ["pdf", "docx"])
def test_the_same_glossary_as_the_text_file(editions, ext):
    text = {t.term: _norm(t.definition) for t in editions["txt"].terms}
    other = {t.term: _norm(t.definition) for t in editions[ext].terms}
    assert set(other) == set(text)
    assert sum(other[t] == d for t, d in text.items()) >= len(text) * 0.99


def test_a_pdf_warning_names_its_page_and_rule(editions):
    for w in editions["pdf"].warnings:
        assert w.source == f"{CR}.pdf" and w.reason.startswith("page "), w


# The text-cleaning step, on lines with made-up positions (points): a 10-point font, text from x=72 to ~500.
def test_wrapped_lines_join_and_paragraphs_stay_apart():
    lines = [
        PdfLine("100.1. These rules apply to any Magic game with two or more players, including two-", 72, 498),
        PdfLine("player games and multiplayer games, and to the ef\ufb01cient playing of both.", 87, 420),
        PdfLine("Example: A short example.", 100, 230),
        PdfLine("100.2. A rule that ends well short of the right margin.", 72, 330),
        PdfLine("100.3. A rule whose long words are divided at the end of the line by the layout inter-", 72, 499),
        PdfLine("action of its hyphenation, as the interaction of a typesetter does.", 87, 400),
        PdfLine(""),
        PdfLine("Glossary", 72, 120),
        PdfLine("Headword", 72, 118),
        PdfLine("Its definition.", 72, 150),
    ]
    assert [line.text for line in join_lines(lines)] == [
        "100.1. These rules apply to any Magic game with two or more players, including two-player games and "
        "multiplayer games, and to the efficient playing of both.",
        "Example: A short example.",
        "100.2. A rule that ends well short of the right margin.",
        "100.3. A rule whose long words are divided at the end of the line by the layout interaction of its "
        "hyphenation, as the interaction of a typesetter does.",
        "",
        "Glossary",
        "Headword",
        "Its definition.",
    ]


def test_lines_without_positions_join_by_their_length():
    full = "word " * 19 + "end"
    lines = [PdfLine(full), PdfLine(full), PdfLine("last words."), PdfLine("Short line."), PdfLine("Another.")]
    assert [line.text for line in join_lines(lines)] == [f"{full} {full} last words.", "Short line.", "Another."]


def test_running_heads_page_numbers_and_ligatures_go():
    words = ["\ufb01rst", "second", "third", "fourth", "\ufb01fth"]
    pages = [
        [PdfLine("Riftbound Core Rules"), PdfLine(f"{n}00.1. The {words[n - 1]} rule."), PdfLine(f"Page {n} of 5")]
        for n in range(1, 6)
    ]
    kept = drop_furniture(pages)
    assert [[clean(line.text) for line in page] for page in kept] == [
        ["100.1. The first rule."],
        ["200.1. The second rule."],
        ["300.1. The third rule."],
        ["400.1. The fourth rule."],
        ["500.1. The fifth rule."],
    ]
    assert clean("\ufb02ying, \ufb00ect, a soft\u00adhyphen") == "flying, ffect, a softhyphen"

    # A section's running title, on 5 pages of 20 and nowhere else, goes; a line repeated mid-page stays.
    def body(n: int) -> list[PdfLine]:
        return [PdfLine(f"{n}.1. Rule {'x' * n}."), PdfLine(f"{n}.2. Rule."), PdfLine("See rule 100.1.")] + [
            PdfLine(f"{n}.3. {'y' * n}."),
            PdfLine(f"{n}.4. {'z' * n}."),
        ]

    book = [body(n) for n in range(15)] + [[PdfLine("Glossary"), *body(n)] for n in range(15, 20)]
    kept = drop_furniture(book)
    assert not any(line.text == "Glossary" for page in kept for line in page)
    assert sum(line.text == "See rule 100.1." for page in kept for line in page) == 20


# A real PDF, written here: a monospaced font (Courier, every glyph 600/1000 wide), two pages with a
# running head and a page number, a rule wrapped across the page break.
def _pdf(pages: list[list[tuple[float, float, str]]]) -> bytes:
    def esc(text: str) -> str:
        return text.replace("\\", "\\\\").replace("(", "\\(").replace(")", "\\)")

    objects = [b"<< /Type /Catalog /Pages 2 0 R >>", b""]
    font = 3
    objects.append(
        b"<< /Type /Font /Subtype /Type1 /BaseFont /Courier /Encoding /WinAnsiEncoding /FirstChar 32 "
        b"/LastChar 126 /Widths [" + b" ".join([b"600"] * 95) + b"] >>"
    )
    kids = []
    for page in pages:
        stream = "".join(f"BT /F1 10 Tf {x} {y} Td ({esc(t)}) Tj ET\n" for x, y, t in page).encode("cp1252")
        objects.append(b"<< /Length %d >>\nstream\n" % len(stream) + stream + b"endstream")
        content = len(objects)
        objects.append(
            b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents %d 0 R "
            b"/Resources << /Font << /F1 %d 0 R >> >> >>" % (content, font)
        )
        kids.append(len(objects))
    objects[1] = b"<< /Type /Pages /Kids [%s] /Count %d >>" % (b" ".join(b"%d 0 R" % k for k in kids), len(kids))
    return pdf_of(objects)


def _typeset(lines: list[str], title: str, per_page: int = 55) -> bytes:
    """A PDF of ``lines`` as a publisher lays out a rules text: each line a paragraph, indented by its
    leading spaces, wrapped at 80 columns with a hanging indent of 3, a running head and page numbers."""
    placed: list[tuple[float, str]] = []
    for line in lines:
        indent, text = len(line) - len(line.lstrip()), line.strip()
        wrapped = [w.strip() for w in textwrap.wrap(text, width=80 - indent, subsequent_indent="   ")] or [""]
        placed.append((72.0 + 6 * indent, wrapped[0]))
        placed += [(72.0 + 6 * (indent + 3), rest) for rest in wrapped[1:]]
    pages = []
    for start in range(0, len(placed), per_page):
        body = [(x, 740.0 - 12 * i, t) for i, (x, t) in enumerate(placed[start : start + per_page]) if t]
        pages.append([(72.0, 765.0, title), *body, (300.0, 30.0, str(start // per_page + 1))])
    return _pdf(pages)


def test_a_riftbound_text_typeset_as_a_pdf_reads_the_same(tmp_path):
    # No Riftbound PDF is in the corpora: its Core Rules v1.3, typeset here as its publisher's PDF lays
    # them out (one rule a paragraph, wrapped, running heads), go through the same Riftbound reader.
    source = corpus("riftbound", "core-rules-v1.3.txt")
    lines = [
        line.encode("cp1252", errors="replace").decode("cp1252")
        for line in source.read_text(encoding="utf-8").splitlines()
    ]
    text, pdf = tmp_path / "core-rules.txt", tmp_path / "core-rules.pdf"
    text.write_text("\n".join(lines) + "\n", encoding="utf-8")
    pdf.write_bytes(_typeset(lines, "Riftbound Core Rules"))
    want, got = read_file(text), read_file(pdf)
    assert got.game == "riftbound" and len(got.rules) > 2000
    assert _rules(got) == _rules(want)
    assert not [w for w in got.warnings if "opens like a paragraph" in w.reason]


def _page(number: int, body: list[tuple[float, str]]) -> list[tuple[float, float, str]]:
    lines = [(72.0, 750.0, "Example Game Rules")]
    lines += [(x, 700.0 - 12 * i, text) for i, (x, text) in enumerate(body)]
    return lines + [(300.0, 40.0, str(number))]


PAGES = [
    # 72 columns of Courier at 10 points reach x=504 from x=72: the right margin.
    _page(
        1,
        [
            (72, "Example Game Rules"),
            (72, "100. General"),
            (72, "100.1. Every player starts with seven cards in hand and twenty life; the"),
            (90, "player who goes first skips their first draw."),
            (72, "100.2. A player who has no card left to draw when they would draw one"),
            (90, "loses the game the next time a player would receive priority, and that"),
        ],
    ),
    _page(
        2,
        [
            (90, "happens at once."),
            (72, "100.3. A rule of one short line."),
            (72, "101. Turns"),
            (72, "101.1. A turn has five phases, in order: beginning, precombat main, com-"),
            (90, "bat, postcombat main and ending."),
        ],
    ),
    _page(3, [(72, "101.2. The last rule; combat has steps."), (72, "101.3. Another one.")]),
]


def test_a_pdf_loads_like_its_text(fresh_home, judge, tmp_path):
    pdf = tmp_path / "rules.pdf"
    pdf.write_bytes(_pdf(PAGES))
    code, out, err = judge("load", pdf, "--book", "made", "--game", "mtg", "--json")
    assert code == 0, err
    assert json.loads(out)["rules"] == 8
    code, out, _ = judge("rule", "100.2", "--book", "made", "--json")
    assert json.loads(out)[0]["text"] == (
        "A player who has no card left to draw when they would draw one loses the game the next time a "
        "player would receive priority, and that happens at once."
    )
    code, out, _ = judge("rule", "101.1", "--book", "made", "--json")
    assert json.loads(out)[0]["text"] == (
        "A turn has five phases, in order: beginning, precombat main, combat, postcombat main and ending."
    )
    code, out, _ = judge("rule", "101.3", "--book", "made", "--json")
    assert json.loads(out)[0]["text"] == "Another one."  # the page number and running head are gone


def test_a_word_document_loads_its_paragraphs_in_order(fresh_home, judge, tmp_path):
    docx = pytest.importorskip("docx")
    document = docx.Document()
    for text in [
        "Example Game Rules",
        "",
        "100. General",
        "100.1. Every player starts with twenty life.",
        "Example: A player at twenty life.",
        "100.2. The \ufb01rst player skips their draw.",
    ]:
        document.add_paragraph(text)
    path = tmp_path / "rules.docx"
    document.save(str(path))
    code, out, err = judge("load", path, "--book", "word", "--game", "mtg", "--json")
    assert code == 0, err
    assert json.loads(out)["rules"] == 3
    rule = json.loads(judge("rule", "100.1", "--book", "word", "--json")[1])[0]
    assert rule["text"] == "Every player starts with twenty life."
    assert (
        json.loads(judge("rule", "100.2", "--book", "word", "--json")[1])[0]["text"]
        == "The first player skips their draw."
    )


def _refused(judge, path, expected: str) -> None:
    code, out, err = judge("load", path, "--book", "broken", "--json")
    assert code == 2, err
    lines = err.strip().splitlines()
    assert len(lines) == 1 and "Traceback" not in err, err
    assert lines[0].startswith(f"judge: {path}: {expected}"), lines[0]
    assert json.loads(out)["error"]["file"] == str(path)


def test_a_damaged_pdf_or_word_file_is_refused_in_one_line(fresh_home, judge, tmp_path):
    whole = _pdf(PAGES)
    for n, cut in enumerate([len(whole) // 2, 400, 40, 10]):
        pdf = tmp_path / f"cut{n}.pdf"
        pdf.write_bytes(whole[:cut])
        code, out, err = judge("load", pdf, "--book", "broken", "--json")
        # Cut where the pages are still whole, a PDF may still read; anything else is one line, exit 2.
        assert code in (0, 2) and "Traceback" not in err, err
        if code == 2:
            assert len(err.strip().splitlines()) == 1 and f"judge: {pdf}: " in err, err
    header = tmp_path / "header.pdf"
    header.write_bytes(b"%PDF-1.6\r%\xe2\xe3\xcf\xd3\r\n")
    _refused(judge, header, "damaged PDF, cannot read its text")
    empty = tmp_path / "blank.pdf"
    empty.write_bytes(_pdf([[]]))
    _refused(judge, empty, "the PDF holds no text (a scan?)")
    word = tmp_path / "rules.docx"
    with zipfile.ZipFile(word, "w") as z:
        z.writestr("[Content_Types].xml", "<not xml")
        z.writestr("word/document.xml", "<w:document")
    _refused(judge, word, "damaged Word document")
    cut = tmp_path / "cut.docx"
    cut.write_bytes(word.read_bytes()[:60])
    code, out, err = judge("load", cut, "--book", "broken", "--json")
    assert code == 2 and len(err.strip().splitlines()) == 1 and "Traceback" not in err, err
