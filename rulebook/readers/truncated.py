"""Whether a rule document was cut short: it ends in the middle of a rule or glossary entry, or lacks
sections, the glossary or the credits that its own table of contents lists.

A download that stopped, a copy that filled a disk, a paste into an editor with a size limit: the
text reads, and without this the book looks whole ("614.12 Som" the last rule, no warning). The
readers call :func:`reason` with what they found; the warning it makes ends with :data:`TRUNCATED`,
so ``judge load`` can name the files that look truncated.

Only evidence counts, so that a whole document never gets the warning:

- parts the contents promise that the body lacks (compared by number only: the contents need not
  word a heading as the body does);
- a last line that stops mid-sentence (:func:`mid_sentence`: on a lower-case word or a comma, colon
  or dash). A last line that merely lacks a full stop (``103.3.a. 12 Rune Cards``: Riftbound ends a
  twelfth of its rules so) is named only beside missing parts; a section heading alone at the end is
  an excerpt's end, not a cut.

A document cut between two rules, or after a capitalised word, with no contents to compare
(Riftbound's Core Rules have none), cannot be told from a whole one.

>>> is_closed("They attack."), is_closed("(See rule 702.19.)"), is_closed("the subtype “Role.”"), is_closed("614.12 Som")
(True, True, True, False)
>>> mid_sentence("Example: A permane"), mid_sentence("the following:"), mid_sentence("103.3.a. 12 Rune Cards")
(True, True, False)
>>> mid_sentence("Play stops again."), mid_sentence("(see rule 702.19.)")
(False, False)
>>> reason("rule 614.12", ["615", "616", "700", "905"], ["615", "616", "700", "701", "905"], ["the glossary"])
'ends in the middle of rule 614.12 (no closing punctuation) and lacks sections 615-700, 905 and the glossary, which its contents list: the file looks truncated'
>>> reason(None, [], [], ["the credits"])
'lacks the credits, which its contents list: the file looks truncated'
>>> reason(None, [], [], []) is None
True
"""

from __future__ import annotations

TRUNCATED = "the file looks truncated"

_CLOSERS = "”\"’')]»"
_ENDS = (".", "!", "?")


def is_closed(text: str) -> bool:
    """Whether a line ends as a sentence does (after any closing quotes and brackets)."""
    return text.rstrip().rstrip(_CLOSERS).endswith(_ENDS)


def mid_sentence(text: str) -> bool:
    """Whether a line stops in the middle of a sentence: on a word in lower case, or on a comma,
    semicolon, colon or dash."""
    words = text.split()
    return bool(words) and not is_closed(text) and (words[-1][0].islower() or words[-1][-1] in ",;:-–—")


def runs(missing: list[str], listed: list[str]) -> str:
    """``615, 616, 700`` of a contents listing ``..., 614, 615, 616, 700, 701``: ``615-700``, runs
    taken in the contents' order, so a run ends where a listed section is present."""
    gone = set(missing)
    out: list[list[str]] = []
    previous_missing = False
    for number in listed:
        if number in gone:
            if previous_missing:
                out[-1][1] = number
            else:
                out.append([number, number])
        previous_missing = number in gone
    parts = [a if a == b else f"{a}-{b}" for a, b in out]
    if len(parts) > 6:
        parts = parts[:5] + [f"... ({len(missing)} sections in all)"]
    return ", ".join(parts)


def reason(
    ends_in: str | None, missing_sections: list[str], listed_sections: list[str], missing_parts: list[str]
) -> str | None:
    """The warning for a document that looks truncated, or None when nothing says it is.

    ``ends_in`` names where the text stops mid-sentence (``"rule 614.12"``, ``"the glossary entry
    'Trample'"``); ``missing_sections`` are section numbers the contents list (``listed_sections``, in
    their order) that the body lacks; ``missing_parts`` the other parts they list that it lacks
    (``"the glossary"``, ``"the credits"``).
    """
    lacks = []
    if missing_sections:
        word = "section" if len(missing_sections) == 1 else "sections"
        lacks.append(f"{word} {runs(missing_sections, listed_sections)}")
    lacks.extend(missing_parts)
    said = []
    if ends_in:
        said.append(f"ends in the middle of {ends_in} (no closing punctuation)")
    if lacks:
        listed = lacks[0] if len(lacks) == 1 else f"{', '.join(lacks[:-1])} and {lacks[-1]}"
        said.append(f"lacks {listed}, which its contents list")
    if not said:
        return None
    return f"{' and '.join(said)}: {TRUNCATED}"
