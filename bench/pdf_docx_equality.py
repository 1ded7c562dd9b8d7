"""The formats the publishers ship (issue 25): the Comprehensive Rules read from the publisher's PDF and
Word file against the text file of the same edition.

    python bench/pdf_docx_equality.py [--corpora DIR] [--edition 2025-02-07] [--runs 3] [--show 10]

For the PDF and the DOCX: whether the rule numbers are the same set as the text file's; the share of
rules whose title, text and examples are the same (whitespace aside); the share of glossary entries
with the same definition; the load's warnings, and whether each rule that differs is named in one;
the time to read each file (``rulebook.readers.read_file``, in process, median of ``--runs``), with
the PDF's text extraction alone (``rulebook.readers.documents.pdf_lines``). The issue's bar: the
same numbers and at least 99.5% of rules the same. Prints a markdown table with the machine and date.
"""

from __future__ import annotations

import argparse
import os
import platform
import statistics
import sys
import time
from datetime import date
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from rulebook.readers import read_file  # noqa: E402
from rulebook.readers.documents import docx_lines, pdf_lines  # noqa: E402


def _norm(text: str) -> str:
    return " ".join(text.split())


def _rules(doc) -> dict[str, tuple]:
    return {r.number: (_norm(r.title or ""), _norm(r.text), tuple(map(_norm, r.examples))) for r in doc.rules}


def _timed(runs: int, fn, *args):
    times, result = [], None
    for _ in range(runs):
        start = time.perf_counter()
        result = fn(*args)
        times.append(time.perf_counter() - start)
    return statistics.median(times), result


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--corpora", type=Path, default=REPO.parent / "shared" / "corpora")
    parser.add_argument("--edition", default="2025-02-07")
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--show", type=int, default=10, help="differing rules shown per format")
    args = parser.parse_args()
    stem = args.corpora / "mtg" / f"MagicCompRules-{args.edition}"
    if not stem.with_suffix(".txt").exists():
        print(f"no {stem}.txt: pass --corpora", file=sys.stderr)
        return 2
    text_time, text = _timed(args.runs, read_file, stem.with_suffix(".txt"))
    rules, terms = _rules(text), {t.term: _norm(t.definition) for t in text.terms}
    rows, details = [], []
    extract = {"pdf": pdf_lines, "docx": docx_lines}
    for ext in ("pdf", "docx"):
        path = stem.with_suffix(f".{ext}")
        if not path.exists():
            continue
        raw = path.read_bytes()
        extract_time, _ = _timed(args.runs, extract[ext], raw, str(path))
        read_time, doc = _timed(args.runs, read_file, path)
        other = _rules(doc)
        same = sum(1 for n, r in rules.items() if other.get(n) == r)
        differ = [n for n, r in rules.items() if n in other and other[n] != r]
        other_terms = {t.term: _norm(t.definition) for t in doc.terms}
        same_terms = sum(1 for t, d in terms.items() if other_terms.get(t) == d)
        reasons = [w.reason for w in doc.warnings]
        named = sum(1 for n in differ if any(f"rule {n}:" in r for r in reasons))
        rows.append(
            f"| {ext.upper()} | {'yes' if set(other) == set(rules) else 'no'} ({len(other)} / {len(rules)}) "
            f"| {same / len(rules):.2%} ({same}) | {same_terms / max(1, len(terms)):.2%} ({same_terms} / {len(terms)}) "
            f"| {len(doc.warnings)} | {named} / {len(differ)} | {extract_time:.2f} s | {read_time:.2f} s |"
        )
        for n in differ[: args.show]:
            details.append(f"- {ext}: {n}: {other[n][1][:160]!r}")
    print(f"Comprehensive Rules {args.edition}; the text file read in {text_time:.2f} s ({len(rules)} rules).")
    print(
        f"{platform.machine()}, {os.cpu_count()} cores, Python {platform.python_version()}, "
        f"{date.today().isoformat()}, median of {args.runs} runs\n"
    )
    print(
        "| format | same numbers | rules the same | glossary the same | warnings | differing rules named "
        "| text extraction | whole read |"
    )
    print("|---|---|---|---|---|---|---|---|")
    print("\n".join(rows))
    if details:
        print("\n" + "\n".join(details))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
