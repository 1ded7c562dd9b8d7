"""The integrity report a rules manager wants for one book.

:func:`integrity_report` returns a plain dict (JSON as is):

* ``dangling``: references whose target is not in the book, with the citing rule's line;
* ``title_mismatches``: references that name a title the target does not have;
* ``missing_children``: rules an outline promises ("6 subsections") that the text lacks;
* ``numbering``: gaps in sibling sequences, numbers out of order, duplicates;
* ``most_cited``: the rules the most rules, terms and rulings cite.

>>> from rulebook.model import Rule
>>> rules = [Rule("316", expected_children=6, line=40, source="outline.txt"),
...          Rule("601.2a", parent="601.2", line=1), Rule("601.2c", parent="601.2", line=2)]
>>> report = integrity_report("demo", "mtg", rules, [], [], partial=True)
>>> report["missing_children"]
[{'number': '316', 'expected': 6, 'found': 0}]
>>> [(i["kind"], i["number"]) for i in report["numbering"]]
[('gap', '601.2b')]
"""

from __future__ import annotations

import re
from collections import defaultdict
from collections.abc import Iterable, Sequence

from rulebook import games
from rulebook.model import ReadWarning, Rule, Truncation
from rulebook.numbers import canonical, sort_key, tokens
from rulebook.numbers import parent as number_parent
from rulebook.references import REASON_NO_TERM_PARTIAL, REASON_PARTIAL, Reference, stored_references

REPORT_KEYS = ("book", "dangling", "title_mismatches", "missing_children", "numbering", "most_cited")


def _from(ref: Reference) -> str:
    """Who cites: a rule by its number, anything else as ``term:Endure`` / ``ruling:faq-3``."""
    return ref.from_id if ref.from_kind == "rule" else f"{ref.from_kind}:{ref.from_id}"


def _title(rule: Rule | None) -> str | None:
    if rule is None:
        return None
    if rule.title:
        return rule.title
    text = rule.text.strip()
    return (text[:60] + "…") if len(text) > 60 else (text or None)


def integrity_report(
    book_id: str,
    game: str,
    rules: Sequence[Rule],
    references: Iterable[Reference],
    truncations: Sequence[Truncation] = (),
    partial: bool = False,
    warnings: Sequence[ReadWarning] = (),
    top: int = 10,
) -> dict:
    """The report for one book; ``partial`` (or any truncation) makes dangling targets read
    "not in the loaded text". ``warnings`` are the readers' (duplicates they dropped, numbers they
    found out of order); they join the numbering issues found here."""
    partial = partial or bool(truncations)
    references = list(references)
    by_number: dict[str, Rule] = {}
    for rule in rules:
        by_number.setdefault(rule.number, rule)

    dangling, mismatches = [], []
    cited_by: dict[str, set] = defaultdict(set)
    for ref in references:
        if ref.outcome == "dangling":
            reason = ref.reason
            if partial:
                reason = REASON_NO_TERM_PARTIAL if ref.target_kind == "term" else REASON_PARTIAL
            dangling.append(
                {
                    "from": _from(ref),
                    "raw": ref.raw,
                    "target": ref.target,
                    "line": ref.line,
                    "source": ref.source,
                    "reason": reason,
                }
            )
            continue
        if ref.outcome == "title_mismatch":
            mismatches.append(
                {
                    "from": _from(ref),
                    "raw": ref.raw,
                    "target": ref.target,
                    "cited_title": (ref.cited_title or "").strip(" .,"),
                    "actual_title": ref.actual_title,
                    "line": ref.line,
                }
            )
        if ref.target_kind in ("rule", "section"):
            cited_by[ref.target].add((ref.from_kind, ref.from_id))

    ranked = sorted(cited_by.items(), key=lambda kv: (-len(kv[1]), sort_key(kv[0])))[:top]
    most_cited = [{"number": n, "title": _title(by_number.get(n)), "count": len(c)} for n, c in ranked]

    return {
        "book": book_id,
        "dangling": dangling,
        "title_mismatches": mismatches,
        "missing_children": missing_children(rules, game),
        "numbering": numbering_issues(rules, game, warnings),
        "most_cited": most_cited,
    }


def _children(rules: Sequence[Rule], game: str) -> dict[str, set[str]]:
    children: dict[str, set[str]] = defaultdict(set)
    for rule in rules:
        p = rule.parent if rule.parent is not None else number_parent(rule.number, game)
        if p is not None:
            children[p].add(rule.number)
    return children


def missing_children(rules: Sequence[Rule], game: str) -> list[dict]:
    """Rules whose outline count ("N subsections") exceeds the children present in any source."""
    children = _children(rules, game)
    expected: dict[str, int] = {}
    for rule in rules:
        if rule.expected_children is not None:
            expected.setdefault(rule.number, rule.expected_children)
    out = []
    for number in sorted(expected, key=sort_key):
        found = len(children.get(number, ()))
        if found < expected[number]:
            out.append({"number": number, "expected": expected[number], "found": found})
    return out


def _letters(game: str) -> list[str]:
    return games.get(game).numbering.letters()


_WARNING_KIND = (
    (re.compile(r"\bduplicate\b", re.I), "duplicate"),
    (re.compile(r"\bout of order\b", re.I), "out_of_order"),
)
_WARNING_NUMBER = re.compile(r"\b(\d{1,3}(?:\.(?:\d+[a-z]*|[a-z]))*)\b")


def numbering_issues(rules: Sequence[Rule], game: str, warnings: Sequence[ReadWarning] = ()) -> list[dict]:
    """Gaps, out-of-order numbers and duplicates, each ``{"kind", "number", "line", "source", "detail"}``.

    * gap: a sibling sequence skips a number or letter (``601.2a``, ``601.2c``: ``601.2b`` is
      missing), or does not start at 1 / a. Magic's sequences skip l and o by design. Sections
      (``390``, ``392``: ``391`` is missing) are checked within their hundred, where a hole of at
      most three numbers is a gap; a longer one is room the publisher left (Riftbound's ``003`` to
      ``049`` before its Silver Rule at ``050``), as the hundreds do (``122``, then ``200``).
      The line given is the line of the sibling after the gap.
    * out_of_order: within one source file, a rule whose number sorts before the rule above it.
    * duplicate: a number read twice from one source file (and the readers' duplicate warnings).

    >>> rules = [Rule("702.16k", parent="702.16", line=1), Rule("702.16m", parent="702.16", line=2),
    ...          Rule("702.16p", parent="702.16", line=3)]
    >>> [i["number"] for i in numbering_issues(rules, "mtg")]  # l and o are skipped, n is missing
    ['702.16a', '702.16b', '702.16c', '702.16d', '702.16e', '702.16f', '702.16g', '702.16h', '702.16i', '702.16j', '702.16n']
    """
    issues: list[dict] = []
    first_seen: dict[tuple[str, str], Rule] = {}
    by_source: dict[str, list[Rule]] = defaultdict(list)
    for rule in rules:
        key = (rule.source, rule.number)
        if key in first_seen:
            issues.append(
                {
                    "kind": "duplicate",
                    "number": rule.number,
                    "line": rule.line,
                    "source": rule.source,
                    "detail": f"{rule.number} again (first at line {first_seen[key].line})",
                }
            )
            continue
        first_seen[key] = rule
        by_source[rule.source].append(rule)

    for source, items in by_source.items():
        items = sorted(items, key=lambda r: r.line)
        for before, rule in zip(items, items[1:]):
            if sort_key(rule.number) < sort_key(before.number):
                issues.append(
                    {
                        "kind": "out_of_order",
                        "number": rule.number,
                        "line": rule.line,
                        "source": source,
                        "detail": f"{rule.number} comes after {before.number} (line {before.line})",
                    }
                )

    by_number: dict[str, Rule] = {}
    for rule in rules:
        by_number.setdefault(rule.number, rule)
    for parent_number, kids in _children(rules, game).items():
        issues.extend(_gaps(parent_number, kids, by_number, game))

    seen = {(i["kind"], i["number"], i["line"]) for i in issues}
    for warning in warnings:
        for pattern, kind in _WARNING_KIND:
            if pattern.search(warning.reason):
                m = _WARNING_NUMBER.search(warning.reason)
                number = canonical(m.group(1), game) if m else ""
                if (kind, number, warning.line) not in seen:
                    seen.add((kind, number, warning.line))
                    issues.append(
                        {
                            "kind": kind,
                            "number": number,
                            "line": warning.line,
                            "source": warning.source,
                            "detail": warning.reason,
                        }
                    )
                break
    issues.sort(key=lambda i: (i["source"], i["line"], i["kind"]))
    return issues


def _gaps(parent_number: str, kids: set[str], by_number: dict[str, Rule], game: str) -> list[dict]:
    lasts = {}
    for kid in kids:
        t = tokens(kid)
        if len(t) < 2:
            return _section_gaps(parent_number, kids, by_number)  # three-digit sections under a heading
        lasts[t[-1]] = kid
    head = tokens(parent_number)
    out = []
    if all(x.isdigit() for x in lasts):
        have = sorted(int(x) for x in lasts)
        sequence = [str(i) for i in range(1, have[-1] + 1)]
    elif all(len(x) == 1 and x.isalpha() for x in lasts):
        letters = _letters(game)
        top = max(lasts)
        sequence = letters[: letters.index(top) + 1] if top in letters else []
    else:
        return []  # mixed or two-letter sequences (..., z, aa): not worth guessing
    following = None
    for step in reversed(sequence):
        if step in lasts:
            following = by_number.get(lasts[step])
            continue
        number = canonical(".".join(head + [step]), game)
        out.append(
            {
                "kind": "gap",
                "number": number,
                "line": following.line if following else 0,
                "source": following.source if following else "",
                "detail": f"{parent_number} has no {number}" + (f" before {following.number}" if following else ""),
            }
        )
    return out[::-1]


_ROOM = 3  # a hole of more sections than this, inside one hundred, is room the publisher left


def _section_gaps(parent_number: str, kids: set[str], by_number: dict[str, Rule]) -> list[dict]:
    """Sections missing between two sections of one hundred (``390``, ``392``: ``391``), the hole at
    most :data:`_ROOM` numbers wide."""
    present = sorted({int(k) for k in kids if re.fullmatch(r"\d{3}", k)})
    out = []
    for before, after in zip(present, present[1:]):
        if before // 100 != after // 100 or not 1 < after - before <= _ROOM + 1:
            continue
        following = by_number.get(f"{after:03d}")
        for missing in range(before + 1, after):
            out.append(
                {
                    "kind": "gap",
                    "number": f"{missing:03d}",
                    "line": following.line if following else 0,
                    "source": following.source if following else "",
                    "detail": f"{parent_number} has no {missing:03d} between {before:03d} and {after:03d}",
                }
            )
    return out


def book_report(store, book_id: str, top: int = 10) -> dict:
    """:func:`integrity_report` of a book in the store (``judge check``)."""
    book = store.book(book_id)
    truncations = [Truncation(t["source"], t["line"], t["missing"], t["after"]) for t in store.truncations(book_id)]
    warnings = [ReadWarning(w["source"], w["line"], w["reason"]) for w in store.warnings(book_id)]
    return integrity_report(
        book_id,
        book.game,
        store.rules(book_id),
        stored_references(store, book_id),
        truncations,
        partial=store.is_partial(book_id),
        warnings=warnings,
        top=top,
    )
