"""Rule numbers: canonical forms, parents and numeric ordering for both games.

Riftbound numbers are dotted at every level (``312.2.b.1``); Magic numbers put the letter straight
after the sub-number (``601.2c``); Magic part headings are single digits (``1`` is Game Concepts).
A judge may type either style for either game.

>>> canonical("312.2b", "riftbound"), canonical("601.2.c", "mtg"), canonical("312.2.b.1.", "riftbound")
('312.2.b', '601.2c', '312.2.b.1')
>>> parent("312.2.b.1", "riftbound"), parent("302", "riftbound"), parent("601.2c", "mtg"), parent("601", "mtg")
('312.2.b', '300', '601.2', '6')
>>> sorted(["702.10", "702.9", "702.1"], key=sort_key)
['702.1', '702.9', '702.10']
>>> sorted(["100.1z", "100.1aa", "100.1b"], key=sort_key)
['100.1b', '100.1z', '100.1aa']
>>> sorted(["700", "7", "100", "1", "702.9"], key=sort_text)
['1', '100', '7', '700', '702.9']
"""

from __future__ import annotations

import re

_TOKEN = re.compile(r"\d+|[a-z]+")
# Something a judge might type as a rule number: digits first, then digits/letters/dots only. Each
# run of digits or letters is taken whole ((?!\d), (?![a-z])): with the separators optional, a run
# that could also be split ("teammate" as te-am-ma-te) made the match backtrack exponentially, and a
# question such as "2v2 me and my teammate ..." took minutes to be told it is not a number.
_LOOKS_LIKE = re.compile(r"^\s*\d{1,3}(?!\d)(?:\s*\.?\s*(?:\d+(?!\d)|[a-z]{1,2}(?![a-z])))*\s*\.?\s*$", re.I)


def tokens(number: str) -> list[str]:
    return _TOKEN.findall(number.lower())


def looks_like_number(text: str) -> bool:
    """True for ``312``, ``312.2b``, ``601.2c.``; False for words.

    >>> [looks_like_number(t) for t in ("312", "312.2.b.1", "601.2c.", "100.1aa", "312 2 b", "1")]
    [True, True, True, True, True, True]
    >>> [looks_like_number(t) for t in ("2v2 me and my teammate", "3 of each", "1234", "601.2abc")]
    [False, False, False, False]
    """
    return bool(_LOOKS_LIKE.match(text))


def canonical(number: str, game: str) -> str:
    """The number as the game's documents write it (without a trailing dot)."""
    parts = tokens(number)
    if not parts:
        return number.strip()
    if game == "mtg":
        head = parts[0]
        if len(parts) >= 2:
            head += "." + parts[1]
        return head + "".join(parts[2:])
    return ".".join(parts)


def parent(number: str, game: str) -> str | None:
    """The number of the rule that contains this one, by numbering alone."""
    parts = tokens(number)
    if len(parts) > 1:
        return canonical(".".join(parts[:-1]), game)
    if not parts:
        return None
    value = int(parts[0])
    if game == "mtg":
        # 601 is in part 6; the parts themselves ("6") have no parent.
        return str(value // 100) if len(parts[0]) == 3 else None
    # Riftbound: 312 is in section 300 (a heading); 300 itself is top-level.
    if len(parts[0]) == 3 and value % 100:
        return f"{value // 100 * 100:03d}"
    return None


def depth(number: str) -> int:
    return len(tokens(number))


def sort_key(number: str) -> tuple:
    """Numeric order: 702.9 < 702.10, z < aa, and a part heading ``7`` before ``700``."""
    key: list[tuple] = []
    for i, part in enumerate(tokens(number)):
        if part.isdigit():
            if i == 0 and len(part) == 1:  # an MTG part heading sorts just before its first section
                key.append((0, int(part) * 100, 0))
            else:
                key.append((0, int(part), 1))
        else:
            key.append((1, len(part), part))
    return tuple(key)


def sort_text(number: str) -> str:
    """:func:`sort_key` as a string, so SQLite can ``ORDER BY`` it."""
    out = []
    for i, part in enumerate(tokens(number)):
        if part.isdigit():
            if i == 0 and len(part) == 1:
                out.append(f"{int(part) * 100:06d}0")
            else:
                out.append(f"{int(part):06d}1")
        else:
            out.append(f"~{len(part):02d}{part}")
    return ".".join(out)


def candidates(text: str) -> list[str]:
    """Every canonical spelling of what the judge typed, one per game style, without duplicates."""
    seen: list[str] = []
    for game in ("riftbound", "mtg"):
        c = canonical(text, game)
        if c not in seen:
            seen.append(c)
    return seen
