"""A value chosen as a permanent enters: "As ~ enters the battlefield, choose a color | a creature type."
(a replacement effect that modifies how it enters, 614.1c; the choice is made before it enters, 614.12a),
and the text that uses it ("~ has protection from the chosen color", "Creatures you control of the chosen
type get +1/+1").

The choice is its controller's, said with the spell (``P casts CARD choosing "red"``) or, for a permanent
already on the battlefield, with ``chosen: red``. The card's text is read once for each value it may take
(the words "the chosen color" written as the colour, "creatures ... of the chosen type" as that type's
creatures), so the permanent has, from the time it enters, the abilities of the value chosen; before it has
entered, what depends on the choice does nothing.
"""

from __future__ import annotations

import re

COLOUR_VALUES = ("white", "blue", "black", "red", "green")

_AS_ENTERS = re.compile(
    r"^as ~ (?:enters the battlefield|enters|comes into play), choose (a color|a creature type|[a-z]+ or [a-z]+)\.?$",
    re.I,
)
# "• Khans — ABILITY": an ability the permanent has only if that anchor word was chosen (614.12c)
_ANCHORED = re.compile(r"^\s*\u2022\s*([A-Za-z]+)\s*(?:\u2014|--)\s*(.+)$")
ANCHOR = "anchor word"
_CHOSEN_COLOUR = re.compile(r"\bthe chosen colou?r\b", re.I)
# "[other] creatures you control of the chosen type": that type's creatures (205.3m)
_OF_TYPE = re.compile(
    r"\b((?:[Oo]ther |[Ee]ach (?:other )?)?)([Cc]reatures?)"
    r"((?: you control| your opponents control| you don't control)?) of the chosen type\b"
)
_CHOSEN = re.compile(r"\bchosen\b", re.I)


def entry_choice(text: str) -> tuple[str, str]:
    """A permanent's text (its name written ``~``) less its "As ~ enters, choose ..." sentence, and what is
    chosen (``color``, ``creature type``), or ``(text, "")``.

    >>> entry_choice("Flying\\nAs ~ enters the battlefield, choose a color.\\n~ has protection from the chosen color.")
    ('Flying\\n~ has protection from the chosen color.', 'color')
    """
    kept, kind = [], ""
    for line in text.split("\n"):
        m = _AS_ENTERS.match(line.strip())
        if m is not None and not kind:
            kind = m[1].lower().removeprefix("a ")
            kind = kind if kind in ("color", "creature type") else f"{ANCHOR}: {kind}"
            continue
        kept.append(line)
    return ("\n".join(kept), kind) if kind else (text, "")


def with_value(text: str, kind: str, value: str) -> str:
    """The text with the value chosen written in it.

    >>> with_value("~ has protection from the chosen color.", "color", "red")
    'Protection from red'
    >>> with_value("Other creatures you control of the chosen type get +1/+1.", "creature type", "elf")
    'Other Elf creatures you control get +1/+1.'
    """
    if kind.startswith(ANCHOR):  # the chosen anchor word's ability, the other one's left out (614.12c)
        kept = []
        for line in text.split("\n"):
            m = _ANCHORED.match(line)
            if m is None or m[1].lower() == value:
                kept.append(m[2] if m is not None else line)
        return "\n".join(kept)
    if kind == "color":
        return "\n".join(
            _has(_CHOSEN_COLOUR.sub(value, line)) if _CHOSEN.search(line) else line for line in text.split("\n")
        )

    def typed(m: re.Match) -> str:
        lead = m[1]
        return f"{lead}{value.capitalize()} {m[2].lower()}{m[3]}"

    return _OF_TYPE.sub(typed, text)


_HAS = re.compile(r"^~ has ((?:protection from )?[a-z]+)\.?$", re.I)


def _has(line: str) -> str:
    """``~ has protection from red.``: the keyword, as a keyword line of its own text (702.16a)."""
    m = _HAS.match(line.strip())
    return m[1][0].upper() + m[1][1:] if m else line


def values(kind: str) -> tuple[str, ...]:
    """The values of a choice of two anchor words (``anchor word: khans or dragons``), else ()."""
    return tuple(kind.removeprefix(f"{ANCHOR}: ").split(" or ")) if kind.startswith(ANCHOR) else ()


def without_choice(text: str) -> str:
    """The text of the permanent before a value is chosen: the abilities that use it do nothing (left out)."""
    return "\n".join(line for line in text.split("\n") if not _CHOSEN.search(line) and not _ANCHORED.match(line))


def unread_choice(text: str) -> str | None:
    """A sentence still naming "the chosen ..." once the value is written in (one the engine does not read
    as that value), or None."""
    m = _CHOSEN.search(text)
    if m is None:
        return None
    return next(line for line in text.split("\n") if _CHOSEN.search(line)).strip()


def said(kind: str) -> str:
    """What is chosen, in words: ``a color``, ``a creature type``, ``Khans or Dragons``."""
    return " or ".join(v.title() for v in values(kind)) if kind.startswith(ANCHOR) else f"a {kind}"
