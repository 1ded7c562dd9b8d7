"""Rule numbers: canonical forms, parents and numeric ordering for both games.

Riftbound numbers are dotted at every level (``312.2.b.1``); Magic numbers put the letter straight
after the sub-number (``601.2c``); Magic part headings are single digits (``1`` is Game Concepts).
A judge may type either style for either game.

A number the publisher printed twice names two rules. The first keeps it; the second is stored as
``744.5-2``, a third as ``744.5-3`` (:func:`duplicate`): the printed number, a hyphen, and which
occurrence it is. The form is typed as it is shown (no shell gives ``-`` or digits a meaning inside
a word), cannot collide with a printed number (none has a hyphen), and is not a range (``702.9-12``
would be the twelfth 702.9). It is the printed rule's sibling: same parent and depth, sorted after
the first and its sub-rules. To find every rule printed as ``744.5``, look for ``744.5`` and for
``744.5-`` followed by digits (SQL: ``number = ? OR number GLOB ? || '-[0-9]*'``); :func:`printed`
gives back ``744.5``.

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
>>> sorted(["744.6", "744.5-2", "744.5.a", "744.5"], key=sort_key) == sorted(["744.6", "744.5-2", "744.5.a", "744.5"], key=sort_text)
True
>>> sorted(["744.6", "744.5-2", "744.5.a", "744.5"], key=sort_key)
['744.5', '744.5.a', '744.5-2', '744.6']
>>> canonical("744.5-2", "riftbound"), canonical("601.2.c-2", "mtg"), canonical("744.5-1", "riftbound")
('744.5-2', '601.2c-2', '744.5')
>>> parent("744.5-2", "riftbound"), depth("744.5-2"), printed("744.5-2"), printed("744.5")
('744', 2, '744.5', '744.5')
"""

from __future__ import annotations

import re

from rulebook import games

_TOKEN = re.compile(r"\d+|[a-z]+")
# Something a judge might type as a rule number: digits first, then digits/letters/dots only. Each
# run of digits or letters is taken whole ((?!\d), (?![a-z])): with the separators optional, a run
# that could also be split ("teammate" as te-am-ma-te) made the match backtrack exponentially, and a
# question such as "2v2 me and my teammate ..." took minutes to be told it is not a number.
_LOOKS_LIKE = re.compile(
    r"^\s*\d{1,3}(?!\d)(?:\s*\.?\s*(?:\d+(?!\d)|[a-z]{1,2}(?![a-z])))*(?:-\d{1,3}(?!\d))?\s*\.?\s*$", re.I
)
_DUPLICATE = re.compile(r"-(\d+)\s*\.?\s*$")  # "744.5-2": the second rule printed as 744.5


def duplicate(number: str, occurrence: int) -> str:
    """Where the ``occurrence``-th rule printed as ``number`` is stored (the first keeps ``number``).

    >>> duplicate("744.5", 2), duplicate("744.5", 1)
    ('744.5-2', '744.5')
    """
    return number if occurrence <= 1 else f"{number}-{occurrence}"


def _split(number: str) -> tuple[str, int]:
    m = _DUPLICATE.search(number) if "-" in number else None
    return (number[: m.start()], int(m.group(1))) if m else (number, 1)


def printed(number: str) -> str:
    """The number as the publisher printed it: ``744.5-2`` -> ``744.5``."""
    return _split(number)[0]


def tokens(number: str) -> list[str]:
    """The parts of the printed number (a duplicate's ``-2`` is not one)."""
    return _TOKEN.findall(printed(number).lower())


def looks_like_number(text: str) -> bool:
    """True for ``312``, ``312.2b``, ``601.2c.``; False for words.

    >>> [looks_like_number(t) for t in ("312", "312.2.b.1", "601.2c.", "100.1aa", "312 2 b", "1", "744.5-2")]
    [True, True, True, True, True, True, True]
    >>> [looks_like_number(t) for t in ("2v2 me and my teammate", "3 of each", "1234", "601.2abc", "744.5-")]
    [False, False, False, False, False]
    """
    return text.lstrip()[:1].isdigit() and _LOOKS_LIKE.match(text) is not None


def canonical(number: str, game: str) -> str:
    """The number as the game's documents write it (without a trailing dot); a duplicate keeps its ``-2``."""
    parts = tokens(number)
    if not parts:
        return number.strip()
    if games.get(game).numbering.compact:
        head = parts[0]
        if len(parts) >= 2:
            head += "." + parts[1]
        return duplicate(head + "".join(parts[2:]), _split(number)[1])
    return duplicate(".".join(parts), _split(number)[1])


def parent(number: str, game: str) -> str | None:
    """The number of the rule that contains this one, by numbering alone."""
    parts = tokens(number)
    if len(parts) > 1:
        return canonical(".".join(parts[:-1]), game)
    if not parts:
        return None
    value = int(parts[0])
    if games.get(game).numbering.parts:
        # Magic: 601 is in part 6; the parts themselves ("6") have no parent.
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
    occurrence = _split(number)[1]
    if occurrence > 1:  # after the first and its sub-rules: every part above starts with 0 or 1
        key.append((2, occurrence))
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
    occurrence = _split(number)[1]
    if occurrence > 1:  # "~~" sorts after every digit part ("0...") and letter part ("~0...")
        out.append(f"~~{occurrence:06d}")
    return ".".join(out)


def candidates(text: str) -> list[str]:
    """Every canonical spelling of what the judge typed, one per game style, without duplicates."""
    seen: list[str] = []
    for game in games.names():
        c = canonical(text, game)
        if c not in seen:
            seen.append(c)
    return seen
