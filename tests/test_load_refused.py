"""A file that is no rules text is refused (exit 2, one line saying what it looks like), and nothing
stored is lost (issue 20: a web page was loaded as a book of 0 rules and one glossary term named
`<!DOCTYPE html>`, exit 0)."""

from __future__ import annotations

import json
import random
import sqlite3

import pytest

from rulebook.model import ReadError
from rulebook.readers import read_file

PAGE = """<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>Comprehensive Rules</title>
</head>
<body>
<h1>Magic: The Gathering Comprehensive Rules</h1>
<p>100.1. These Magic rules apply to any Magic game with two or more players.</p>
<p>100.2. To play, each player needs their own deck.</p>
</body>
</html>
"""
NOT_TEXT = "not a rules text: save the rules as plain text (.txt)"


def _keep(judge, tmp_path) -> None:
    good = tmp_path / "good.txt"
    good.write_text("100. General\n100.1. Keep me.\n", encoding="utf-8")
    assert judge("load", good, "--book", "keep", "--game", "mtg")[0] == 0


def _refused(judge, path, expected: str) -> None:
    """Loading ``path`` over the book ``keep`` is refused in one line saying ``expected``; ``keep`` stays."""
    code, out, err = judge("load", path, "--book", "keep", "--json")
    assert code == 2, err
    lines = err.strip().splitlines()
    assert len(lines) == 1 and "Traceback" not in err, err
    assert lines[0] == f"judge: {path}: {expected}"
    assert json.loads(out)["error"]["file"] == str(path)
    code, out, _ = judge("rule", "100.1", "--book", "keep", "--json")
    assert code == 0 and json.loads(out)[0]["text"] == "Keep me."


def test_a_web_page_is_refused_and_nothing_is_lost(fresh_home, judge, tmp_path):
    _keep(judge, tmp_path)
    page = tmp_path / "rules.html"
    page.write_text(PAGE, encoding="utf-8")
    _refused(judge, page, f"looks like an HTML page, {NOT_TEXT}")
    # Saved from a browser: a byte-order mark, a comment first, Windows line ends.
    saved = tmp_path / "saved.htm"
    saved.write_bytes(
        b"\xef\xbb\xbf<!-- saved from url=(0014)about:internet -->\r\n" + PAGE.encode().replace(b"\n", b"\r\n")
    )
    _refused(judge, saved, f"looks like an HTML page, {NOT_TEXT}")
    # A fragment with no doctype: markup on most lines, nothing a reader can use.
    fragment = tmp_path / "fragment.txt"
    fragment.write_text("<div class='rules'>\n<span>Rules</span>\n<b>Turn</b>\n</div>\n", encoding="utf-8")
    _refused(judge, fragment, f"looks like an HTML page, {NOT_TEXT}")


# The publishers' PDF and Word files are read since issue 25 (tests/test_pdf_docx.py); a damaged one is
# refused there.


def test_empty_binary_and_wordless_files_are_refused(fresh_home, judge, tmp_path):
    _keep(judge, tmp_path)
    empty = tmp_path / "empty.txt"
    empty.write_bytes(b"")
    _refused(judge, empty, "empty file: expected rule text")
    noise = tmp_path / "noise.bin"
    noise.write_bytes(random.Random(20).randbytes(5000))
    _refused(judge, noise, "looks like binary data, not a rules text: expected a plain-text (.txt) rules document")
    prose = tmp_path / "letter.txt"
    prose.write_text("Dear friend,\nsee you at the table on Friday.\n", encoding="utf-8")
    _refused(
        judge,
        prose,
        "no numbered rule, glossary entry or ruling found: expected rules numbered like "
        "'100.1.', glossary entries or Q:/A: rulings",
    )
    # A PDF cut after its header: tests/test_pdf_docx.py (a damaged PDF).


@pytest.mark.parametrize("markup", ["<!DOCTYPE html>", "<html>", "%PDF-1.6", "</body></html>"])
def test_markup_is_never_a_glossary_term(tmp_path, markup):
    glossary = tmp_path / "glossary.txt"
    glossary.write_text(
        f"Glossary\n\nAbandon\nTo turn a face-up scheme card face down.\n\n{markup}\n\n"
        "Poison Counter\nA counter that may be given to a player.\n",
        encoding="utf-8",
    )
    doc = read_file(glossary, game="mtg", kind="glossary")
    assert [(t.term, t.definition) for t in doc.terms] == [
        ("Abandon", "To turn a face-up scheme card face down."),
        ("Poison Counter", "A counter that may be given to a player."),
    ]
    assert [(w.line, w.reason.split(":")[0]) for w in doc.warnings] == [
        (6, "markup skipped (a web page's or a PDF's, not rules text)")
    ]


def test_markup_alone_is_no_glossary(tmp_path):
    only = tmp_path / "only.txt"
    only.write_text("Glossary\n\n<b>\n\n</b>\n", encoding="utf-8")
    with pytest.raises(ReadError, match=f"looks like an HTML page, {NOT_TEXT.replace('(', '.').replace(')', '.')}"):
        read_file(only, game="mtg", kind="glossary")


def test_no_markup_term_is_stored(fresh_home, judge, tmp_path):
    glossary = tmp_path / "glossary.txt"
    glossary.write_text(
        "Glossary\n\n<html>\n\nAbandon\nTo turn a face-up scheme card face down.\n\n%PDF-1.6\n", encoding="utf-8"
    )
    code, out, err = judge("load", glossary, "--book", "words", "--game", "mtg", "--json")
    assert code == 0, err
    assert json.loads(out)["terms"] == 1
    conn = sqlite3.connect(fresh_home / "judge.db")
    terms = [t for (t,) in conn.execute("SELECT term FROM terms WHERE book = 'words'")]
    assert terms == ["Abandon"]


def test_a_stored_book_that_no_longer_reads_is_kept_empty_and_the_rest_still_builds(fresh_home, judge, tmp_path):
    # A web page loaded before issue 20 (readers 2 took it for a glossary) is refused by the readers now:
    # the library rebuilds every other book, keeps that one's files, and says what to do.
    _keep(judge, tmp_path)
    house = tmp_path / "house.txt"
    house.write_text("100. General\n100.1. House rules apply.\n", encoding="utf-8")
    assert judge("load", house, "--book", "house", "--game", "mtg")[0] == 0
    stored = fresh_home / "books" / "house" / "house.txt"
    stored.write_text(PAGE, encoding="utf-8")
    code, out, err = judge("rule", "100.1", "--book", "keep", "--json")
    assert code == 0 and json.loads(out)[0]["text"] == "Keep me."
    assert (
        f"judge: warning: book 'house' no longer reads ({stored}: looks like an HTML page, {NOT_TEXT}); its files "
        "are kept but it holds nothing: load it again from a good file, or unload it"
    ) in err
    code, out, _ = judge("books", "--json")
    house_row = next(b for b in json.loads(out) if b["id"] == "house")
    assert (house_row["rules"], house_row["terms"], house_row["default"]) == (0, 0, False)
    assert stored.read_text(encoding="utf-8") == PAGE
    code, out, err = judge("books")  # said once, when the library was rebuilt
    assert code == 0 and "no longer reads" not in err
    assert judge("load", house, "--book", "house", "--game", "mtg")[0] == 0
    assert json.loads(judge("rule", "100.1", "--book", "house", "--json")[1])[0]["text"] == "House rules apply."
