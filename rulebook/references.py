"""Cross-references inside a rule book: find them in text, resolve them against the book.

Two steps, kept apart so that extraction can be tested on plain strings:

* :func:`extract` finds every reference a piece of text makes, in the forms the real documents use,
  and returns :class:`RawRef` values (numbers in canonical form, ranges not yet expanded);
* :func:`resolve_book` runs :func:`extract` over a whole book (rule text, examples, glossary
  definitions, rulings), expands ranges over the rules that exist, and returns one
  :class:`Reference` per target with its outcome: ``resolved``, ``title_mismatch`` or ``dangling``.

:func:`uses` links rules to the glossary terms they mention, and :func:`derive_terms` makes terms
out of the Riftbound rules that define them (Riftbound has no glossary).

>>> [(r.target, r.kind, r.cited_title) for r in extract('See rule 702.139, "Companion."', "mtg")]
[('702.139', 'rule', 'Companion.')]
>>> [(r.target, r.range_end) for r in extract("see rules 603.7d–f.", "mtg")]
[('603.7d', '603.7f')]
>>> [(r.target, r.cited_title) for r in extract("See rule 375. Triggered Abilities for more information.", "riftbound")]
[('375', 'Triggered Abilities')]

This module imports nothing heavy: the CLI's fast path may import it.
"""

from __future__ import annotations

import re
from collections import defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, fields
from typing import TYPE_CHECKING, Any

from rulebook import games
from rulebook.model import Rule, Ruling, Term
from rulebook.numbers import canonical, sort_key, tokens
from rulebook.numbers import parent as number_parent

if TYPE_CHECKING:
    from rulebook.store import Store

OUTCOMES = ("resolved", "title_mismatch", "dangling")

# Reasons given for a dangling reference; a partial book (the seeds, or a text with truncations)
# only shows part of the document, so a missing target there says nothing about the document.
REASON_PARTIAL = "not in the loaded text"
REASON_BROKEN = "broken: no such rule in this book"
REASON_NO_TERM_PARTIAL = "no such glossary entry in the loaded text"
REASON_NO_TERM = "broken: no such glossary entry in this book"


@dataclass(frozen=True)
class RawRef:
    """One reference as written, before it meets the book.

    ``target`` is a canonical rule number (``601.2c``, ``312.1``), a part number for a section
    reference (``8``), or a term as written for a glossary cross-reference. A range keeps its
    first number in ``target`` and its last in ``range_end``; :func:`expand_range` expands it.
    ``start`` is the character offset of ``raw`` in the text.
    """

    raw: str
    target: str
    kind: str  # rule | section | term
    cited_title: str | None = None
    range_end: str | None = None
    start: int = 0


@dataclass(frozen=True)
class Reference:
    """A resolved (or unresolvable) reference from a rule, term or ruling to a rule, section or term.

    ``line`` and ``source`` are where the citing rule/term/ruling starts in its source file.
    ``reason`` says in words why the outcome is not ``resolved`` (empty when it is): for a dangling
    reference in a partial book it is ``"not in the loaded text"`` rather than "broken".
    """

    book: str
    from_kind: str  # rule | term | ruling
    from_id: str  # rule number, term, or ruling id
    raw: str
    target: str
    target_kind: str  # rule | section | term
    cited_title: str | None
    line: int
    source: str
    outcome: str  # resolved | title_mismatch | dangling
    actual_title: str | None
    reason: str = ""


# ---------------------------------------------------------------------------------------------
# Extraction

_DASH = r"\s*[-–—]\s*"  # hyphen, en dash, em dash (the CR mixes the first two)
_QUOTE_OPEN = '"“”„«'
_QUOTE_CLOSE = '"”“»'
# MTG rule numbers: 601, 601.2, 601.2c. Letters may run past z (aa, ab) in long lists.
_MTG_NUM = r"\d{3}(?:\.\d+[a-z]{0,2})?"
_MTG_DOTTED = r"\d{3}\.\d+[a-z]{0,2}"
# The end of a range: a full number, a bare sub-number (119.7–8) or a bare letter (603.7d–f).
_MTG_RANGE_END = rf"(?:{_MTG_DOTTED}|\d{{1,3}}[a-z]{{0,2}}|[a-z]{{1,2}})"
_MTG_TITLE = rf",?\s*[{_QUOTE_OPEN}](?P<title>[^{_QUOTE_CLOSE}\n]{{1,80}})[{_QUOTE_CLOSE}]"
_END = r"(?![\w/])"  # a number ends at a word boundary that is not a slash (no 1/1, no 601.2cx)

_MTG_ITEM = re.compile(rf"(?P<num>{_MTG_NUM}){_END}(?:{_DASH}(?P<end>{_MTG_RANGE_END}){_END})?(?:{_MTG_TITLE})?")
_MTG_SECTION_ITEM = re.compile(rf"(?P<num>[1-9]){_END}(?:{_MTG_TITLE})?")
_LIST_SEP = r"(?:\s*,\s*(?:and\s+|or\s+)?|\s+(?:and|or|through|to)\s+)"

# A keyword then a list of items: "rules 113.7a, 608.2b, and 800.4h", "See 718, “Prototype Cards.”"
# (a three-digit number alone is a reference only after one of these keywords).
_MTG_KEYWORD = re.compile(
    rf"\b(?P<kw>[Rr]ules?|[Ss]ee(?:\s+also)?(?:\s+rules?)?)\s+"
    rf"(?P<list>{_MTG_NUM}{_END}(?:{_DASH}{_MTG_RANGE_END}{_END})?(?:{_MTG_TITLE.replace('?P<title>', '')})?"
    rf"(?:{_LIST_SEP}(?:rules?\s+)?{_MTG_NUM}{_END}(?:{_DASH}{_MTG_RANGE_END}{_END})?"
    rf"(?:{_MTG_TITLE.replace('?P<title>', '')})?)*)"
)
_MTG_SECTION = re.compile(
    rf"\b[Ss]ections?\s+(?P<list>[1-9]{_END}(?:{_MTG_TITLE.replace('?P<title>', '')})?"
    rf"(?:{_LIST_SEP}[1-9]{_END}(?:{_MTG_TITLE.replace('?P<title>', '')})?)*)"
)
# A dotted number anywhere ("as described in 704.5m", "(see 118.9)", "in 103.2a–e"): the shape
# ddd.d is distinctive enough; "1.5", "+1/+1", years and life totals never have it.
_MTG_BARE = re.compile(
    rf"(?<![\w.$/])(?P<num>{_MTG_DOTTED}){_END}(?:{_DASH}(?P<end>{_MTG_RANGE_END}){_END})?(?:{_MTG_TITLE})?"
)

# Riftbound numbers are dotted at every level: 375, 464.1, 103.2.a, 466.8.e.1.b.
_RB_NUM = r"\d{3}(?:\.(?:\d+|[a-z](?![a-z])))*"
# "See rule 375. Triggered Abilities for more information", "See rule 808 Deathknell for more
# information", "See 107.5. Banishment ...": a title is taken only when the phrase that follows the
# number ends at "for more information" or at the next "and rule" (a second reference).
_RB_TITLE = r"(?:\s*\.)?\s+(?P<title>[A-Z][^.:;()\n]{0,60}?)\s*(?=\s+for\s+more\s+information|\s+and\s+rules?\s+\d)"
_RB_REF = re.compile(rf"\b(?P<kw>[Ss]ee\s+rules?|[Ss]ee|[Rr]ules?)\s+(?P<num>{_RB_NUM})(?![\d.]*\d)(?:{_RB_TITLE})?")
_RB_AND = re.compile(rf"\s+and\s+rules?\s+(?P<num>{_RB_NUM})(?![\d.]*\d)(?:{_RB_TITLE})?")

# Glossary cross-references: "See Landcycling.", "See also Timestamp Order.", "See “Enters the
# Battlefield.”" The target must start with a capital (or a quote) so that "see the cards" is not one.
_TERM_REF = re.compile(
    rf"\b[Ss]ee(?P<also>\s+also)?\s+(?P<term>[{_QUOTE_OPEN}]?(?!(?:the|a|an|rules?|sections?)\b)"
    rf"[A-Z][^.;()\n]{{0,60}}?)[.,]?[{_QUOTE_CLOSE}]?(?=\s*$|\.\s|\.$|\)|;)"
)
_TERM_STOP = {"The", "This", "That", "These", "Those", "It", "A", "An", "Rule", "Rules", "Section"}


def extract(text: str, game: str) -> list[RawRef]:
    """Every reference in ``text``, in order of appearance.

    Magic forms:

    >>> def show(text, game="mtg"):
    ...     return [(r.kind, r.target, r.range_end, r.cited_title) for r in extract(text, game)]
    >>> show("See rule 601.2c.")
    [('rule', '601.2c', None, None)]
    >>> show('(see rule 303, "Upkeep Step.")')
    [('rule', '303', None, 'Upkeep Step.')]
    >>> show("as described in 704.5m, or (see 118.9)")
    [('rule', '704.5m', None, None), ('rule', '118.9', None, None)]
    >>> show("rules 113.7a, 608.2b, and 800.4h")
    [('rule', '113.7a', None, None), ('rule', '608.2b', None, None), ('rule', '800.4h', None, None)]
    >>> show("see rules 119.7–8 and 903.6-903.11")
    [('rule', '119.7', '119.8', None), ('rule', '903.6', '903.11', None)]
    >>> show('See section 8, “Multiplayer Rules.”')
    [('section', '8', None, 'Multiplayer Rules.')]
    >>> show("Draw 2 cards, put a +1/+1 counter on it; you have 20 life. Since 2011–2018, 1.5 times.")
    []

    Riftbound forms (titles are taken when followed by "for more information"):

    >>> show("See rule 464.1. for more information on Conquering.", "riftbound")
    [('rule', '464.1', None, None)]
    >>> show("See rule 808 Deathknell for more information", "riftbound")
    [('rule', '808', None, 'Deathknell')]
    >>> show("See 107.5. Banishment for more information.", "riftbound")
    [('rule', '107.5', None, 'Banishment')]

    Glossary cross-references (either game):

    >>> show("See Landcycling.")
    [('term', 'Landcycling', None, None)]
    """
    refs = games.get(game).call("references", text)
    refs.extend(_extract_terms(text))
    refs.sort(key=lambda r: r.start)
    return refs


def mtg_references(text: str) -> list[RawRef]:
    """Magic's ways of citing a rule: ``rule 601.2c``, ``601.2a-d``, ``see 702.19``."""
    refs: list[RawRef] = []
    taken: list[tuple[int, int]] = []  # spans already read, so the bare-number pass skips them
    for m in _MTG_SECTION.finditer(text):
        for item in _MTG_SECTION_ITEM.finditer(m.group("list")):
            refs.append(RawRef(m.group(0).strip(), item.group("num"), "section", item.group("title"), None, m.start()))
        taken.append(m.span())
    for m in _MTG_KEYWORD.finditer(text):
        base = m.start("list")
        for item in _MTG_ITEM.finditer(m.group("list")):
            refs.append(_mtg_ref(m.group(0).strip(), item, base + item.start()))
        taken.append(m.span())
    for m in _MTG_BARE.finditer(text):
        if m.start() == 0:  # a rule's own number at the start of its line is not a reference
            continue
        if any(a <= m.start() < b for a, b in taken):
            continue
        refs.append(_mtg_ref(m.group(0).strip(), m, m.start()))
    return refs


def _mtg_ref(raw: str, m: re.Match, start: int) -> RawRef:
    num = canonical(m.group("num"), "mtg")
    end = m.group("end")
    range_end = _range_end(num, end, "mtg") if end else None
    return RawRef(raw, num, "rule", m.group("title"), range_end, start)


def _range_end(first: str, end: str, game: str) -> str:
    """The full number a range's abbreviated end stands for: ``603.7d``–``f`` is ``603.7f``.

    >>> _range_end("603.7d", "f", "mtg"), _range_end("119.7", "8", "mtg"), _range_end("903.6", "903.11", "mtg")
    ('603.7f', '119.8', '903.11')
    """
    end_tokens = tokens(end)
    first_tokens = tokens(first)
    if "." in end or len(end_tokens) >= len(first_tokens):
        return canonical(end, game)
    # Replace the trailing tokens of the first number by the abbreviated end.
    return canonical(".".join(first_tokens[: len(first_tokens) - len(end_tokens)] + end_tokens), game)


def riftbound_references(text: str) -> list[RawRef]:
    """Riftbound's ways of citing a rule: ``rule 312.2.b``, ``See 808 Deathknell``."""
    refs: list[RawRef] = []
    pos = 0
    while (m := _RB_REF.search(text, pos)) is not None:
        pos = m.end()
        if m.start("num") == 0:
            continue
        refs.append(
            RawRef(
                m.group(0).strip(),
                canonical(m.group("num"), "riftbound"),
                "rule",
                _clean_title(m.group("title")),
                None,
                m.start(),
            )
        )
        while (more := _RB_AND.match(text, pos)) is not None:
            refs.append(
                RawRef(
                    more.group(0).strip(),
                    canonical(more.group("num"), "riftbound"),
                    "rule",
                    _clean_title(more.group("title")),
                    None,
                    more.start("num"),
                )
            )
            pos = more.end()
    return refs


def _clean_title(title: str | None) -> str | None:
    if title is None:
        return None
    title = title.strip(" ,")
    return title or None


def _extract_terms(text: str) -> list[RawRef]:
    refs = []
    for m in _TERM_REF.finditer(text):
        term = m.group("term").strip().strip(_QUOTE_OPEN + _QUOTE_CLOSE + " .,")
        if not term or term.split()[0] in _TERM_STOP or re.match(r"\d", term):
            continue
        refs.append(RawRef(m.group(0).strip(), term, "term", None, None, m.start()))
    return refs


# ---------------------------------------------------------------------------------------------
# Titles


def normalise_title(title: str) -> str:
    """Case, quotes, punctuation, plurals and a leading article do not make titles differ.

    >>> normalise_title("“Phased Out,”"), normalise_title("The Steps of Combat")
    ('phased out', 'step of combat')
    """
    text = re.sub(r"[^\w\s]", " ", title.lower().replace("’", "'").replace("'", ""))
    # Plural or singular does not make a different title either ("Enchantment", "Enchantments").
    words = [w[:-1] if len(w) > 3 and w.endswith("s") and not w.endswith("ss") else w for w in text.split()]
    return re.sub(r"^(?:the|a|an) ", "", " ".join(words))


def _heading(rule: Rule) -> str | None:
    """What a reference's title is compared with: the title, else the start of the text."""
    if rule.title:
        return rule.title
    if rule.text:
        # Its first 80 characters are all that is kept: only so much of the text is looked at (a rule of a
        # damaged file, its text a line of 100,000 characters, took seconds for each reference to it).
        first = re.split(r"(?<=[.:!?])\s", rule.text.lstrip()[:200].strip(), maxsplit=1)[0]
        return first[:80]
    return None


def title_matches(cited: str, rule: Rule) -> bool:
    """Does the title a reference names agree with the rule it points at?

    Equal after :func:`normalise_title`, or the rule's text starts with it (Riftbound headings are
    often the first words of the rule: ``398.1. Discretionary Actions``).

    >>> title_matches("Upkeep Step.", Rule("303", title="Upkeep Step"))
    True
    >>> title_matches("Control", Rule("179", text="Tokens are not cards."))
    False
    """
    want = normalise_title(cited)
    if not want:
        return True
    for have in (rule.title, rule.text):
        if have:
            got = normalise_title(have)
            if got == want or got.startswith(want + " "):
                return True
    return False


# ---------------------------------------------------------------------------------------------
# Resolution


class _Index:
    """The rules of one book by number, with children in numeric order for range expansion."""

    def __init__(self, rules: Iterable[Rule], game: str):
        self.game = game
        self.rules: dict[str, Rule] = {}
        for rule in rules:
            self.rules.setdefault(rule.number, rule)
        children: dict[str | None, list[str]] = defaultdict(list)
        for number, rule in self.rules.items():
            children[rule.parent if rule.parent is not None else number_parent(number, game)].append(number)
        self.children = {k: sorted(v, key=sort_key) for k, v in children.items()}


def expand_range(first: str, last: str, game: str, existing: Iterable[str] | _Index | None = None) -> list[str]:
    """The numbers a range covers: the siblings between ``first`` and ``last`` that exist.

    Magic skips the letters l and o, so ``111.10j–r`` is j k m n p q r; expanding over the rules
    that exist gets that right without knowing the convention. The ends of the range are always
    included, so a missing end is reported as dangling. Without ``existing`` the range is spelled
    out by numbering alone (skipping l and o for Magic).

    >>> expand_range("111.10j", "111.10r", "mtg")
    ['111.10j', '111.10k', '111.10m', '111.10n', '111.10p', '111.10q', '111.10r']
    >>> expand_range("119.7", "119.10", "mtg", ["119.6", "119.7", "119.8", "119.9", "119.10", "119.10a"])
    ['119.7', '119.8', '119.9', '119.10']
    """
    if existing is None:
        return _spell_range(first, last, game)
    index = existing if isinstance(existing, _Index) else _Index((Rule(n) for n in existing), game)
    lo, hi = sort_key(first), sort_key(last)
    if hi < lo:
        lo, hi = hi, lo
    siblings = index.children.get(number_parent(first, game), [])
    depth = len(tokens(first))
    out = [n for n in siblings if len(tokens(n)) == depth and lo <= sort_key(n) <= hi]
    for end in (first, last):
        if end not in out:
            out.append(end)
    return sorted(out, key=sort_key)


def _spell_range(first: str, last: str, game: str) -> list[str]:
    a, b = tokens(first), tokens(last)
    if len(a) != len(b) or a[:-1] != b[:-1]:
        return [first, last]
    head, x, y = a[:-1], a[-1], b[-1]
    if x.isdigit() and y.isdigit():
        steps = [str(i) for i in range(int(x), int(y) + 1)]
    elif len(x) == 1 and len(y) == 1 and x.isalpha() and y.isalpha():
        letters = games.get(game).numbering.letters()
        steps = [chr(c) for c in range(ord(x), ord(y) + 1) if chr(c) in letters]
    else:
        return [first, last]
    return [canonical(".".join(head + [s]), game) for s in steps]


def resolve_book(
    book_id: str,
    game: str,
    rules: Sequence[Rule],
    terms: Sequence[Term] = (),
    rulings: Sequence[Ruling] = (),
    partial: bool = False,
) -> list[Reference]:
    """Every reference in the book, resolved against it.

    Rule text and examples, glossary definitions and rulings are all read. A range gives one
    :class:`Reference` per covered rule; a section reference (``See section 8``) targets the part
    heading ``8``; a glossary cross-reference targets a term (case-insensitive). ``partial`` says
    the book is an excerpt (seeds, truncated scrapes): dangling references then read
    "not in the loaded text".

    >>> rules = [Rule("312", text="At any given time, up to one player has Priority."),
    ...          Rule("312.1", parent="312", text="Priority is ... See rule 398.1. Discretionary Actions for more information.")]
    >>> [(r.target, r.outcome, r.reason) for r in resolve_book("riftbound", "riftbound", rules, partial=True)]
    [('398.1', 'dangling', 'not in the loaded text')]
    """
    index = _Index(rules, game)
    term_index = _term_index(terms)
    out: list[Reference] = []

    def emit(from_kind: str, from_id: str, text: str, line: int, source: str) -> None:
        for raw in extract(text, game):
            out.extend(_resolve(book_id, game, index, term_index, raw, from_kind, from_id, line, source, partial))

    for rule in rules:
        for text in (rule.text, *rule.examples):
            if text:
                emit("rule", rule.number, text, rule.line, rule.source)
    for term in terms:
        if term.definition and not term.source.startswith("rule "):  # derived terms are rule text
            emit("term", term.term, term.definition, term.line, term.source)
    for ruling in rulings:
        emit("ruling", ruling.id, f"{ruling.question}\n{ruling.answer}", ruling.line, ruling.source)
    return out


def _term_key(term: str) -> str:
    return normalise_title(term)


def _term_index(terms: Sequence[Term]) -> dict[str, Term]:
    index: dict[str, Term] = {}
    for term in terms:
        for name in _term_names(term.term):
            index.setdefault(_term_key(name), term)
    return index


def _term_names(headword: str) -> list[str]:
    """A glossary headword and its variants: ``Active Player, Nonactive Player Order`` is also
    ``Active Player`` ...; ``Planeswalker Uniqueness Rule (Obsolete)`` is also without the note."""
    names = [headword]
    bare = re.sub(r"\s*\((?:obsolete|[^)]*)\)\s*$", "", headword, flags=re.I).strip()
    if bare and bare != headword:
        names.append(bare)
    for part in re.split(r",\s*|\s+and\s+", bare):
        part = part.strip(' “”"')
        if part and part not in names:
            names.append(part)
    return names


def _resolve(book_id, game, index: _Index, term_index, raw: RawRef, from_kind, from_id, line, source, partial):
    def ref(target, target_kind, outcome, actual, reason=""):
        return Reference(
            book_id,
            from_kind,
            from_id,
            raw.raw,
            target,
            target_kind,
            raw.cited_title,
            line,
            source,
            outcome,
            actual,
            reason,
        )

    if raw.kind == "term":
        # "See also Dependency, Timestamp Order." names two entries; a headword may hold a comma
        # itself ("Active Player, Nonactive Player Order"), so the whole phrase is tried first.
        term = term_index.get(_term_key(raw.target))
        names = (
            [raw.target] if term else [p for p in re.split(r",\s*(?:and\s+|or\s+)?|\s+(?:and|or)\s+", raw.target) if p]
        )
        out = []
        for name in names:
            term = term_index.get(_term_key(name))
            if term is None:
                out.append(ref(name, "term", "dangling", None, REASON_NO_TERM_PARTIAL if partial else REASON_NO_TERM))
            else:
                out.append(ref(term.term, "term", "resolved", term.term))
        return out

    target_kind = "section" if raw.kind == "section" else "rule"
    targets = [raw.target] if raw.range_end is None else expand_range(raw.target, raw.range_end, game, index)
    out = []
    for number in targets:
        rule = index.rules.get(number)
        if rule is None:
            out.append(ref(number, target_kind, "dangling", None, REASON_PARTIAL if partial else REASON_BROKEN))
            continue
        actual = _heading(rule)
        # A title named with a range or list item belongs to the first number only.
        if raw.cited_title and number == raw.target and not title_matches(raw.cited_title, rule):
            out.append(
                ref(
                    number,
                    target_kind,
                    "title_mismatch",
                    actual,
                    f"cites “{raw.cited_title.strip(' .,')}” but {number} is “{actual}”",
                )
            )
        else:
            out.append(ref(number, target_kind, "resolved", actual))
    return out


# ---------------------------------------------------------------------------------------------
# Terms


# Short or ubiquitous glossary words that would link nearly every rule to them.
COMMON_TERMS = frozenset(
    "a an the it you card cards game player players turn object objects rule rules text ability abilities "
    "effect effects spell spells zone zones cost costs owner controller control target targets "
    "damage life mana permanent permanents".split()
)


def _usable_names(terms: Sequence[Term], min_len: int) -> dict[str, str]:
    """Lower-cased name -> headword, for every variant name worth looking for."""
    names: dict[str, str] = {}
    for term in terms:
        for name in _term_names(term.term):
            key = " ".join(name.lower().replace("’", "'").split())
            if len(key) < min_len or key in COMMON_TERMS or not re.search(r"[a-z]", key):
                continue
            names.setdefault(key, term.term)
    return names


_QUOTED = re.compile(r"[“\"][^”\"\n]*[”\"]")  # card text and cited titles: not the rules' own spelling
_NUMBER_END = re.compile(r"\d[.a-z]*$")  # "... 702.19b" / "2." before a word: the start of a rule's sentence


def _matches(text: str, pattern: re.Pattern[str]) -> list[tuple[str, str, int]]:
    """(name as written, lower-cased, where) for each match of ``pattern`` in ``text``."""
    return [
        (m.group(1), " ".join(m.group(1).lower().split()), m.start()) for m in pattern.finditer(text.replace("’", "'"))
    ]


def _by_choice(text: str, where: int, quoted: list[tuple[int, int]]) -> bool:
    """Whether a name at ``where`` in ``text`` is spelt by choice: in the middle of a sentence and outside
    quotes (card text, cited titles), where a capital letter is how the rules write the name and not
    the start of a sentence."""
    before = text[max(0, where - 40) : where].rstrip()
    return (
        bool(before)
        and before[-1] not in '.:!?("“'
        and not _NUMBER_END.search(before)
        and not any(a <= where < b for a, b in quoted)
    )


class _Defined:
    """Where each term is defined: the rules its glossary entry points at ("See rule 702.19"), or the
    rule that defines a Riftbound term, with the rules under them. ``at(number)``: the terms (lower
    case) a rule defines, itself or through a rule above it."""

    def __init__(self, rules: Sequence[Rule], terms: Sequence[Term]):
        self._rules = {r.number: r for r in rules}
        self._defines: dict[str, set[str]] = {}
        for term in terms:
            if term.source.startswith("rule "):
                targets = [term.source[5:]]
            else:  # the glossary's "See rule 702.19" (cited after the word: all a glossary writes)
                targets = [
                    canonical(item.group("num"), "mtg")
                    for m in _MTG_KEYWORD.finditer(term.definition or "")
                    for item in _MTG_ITEM.finditer(m.group("list"))
                ]
            for number in targets:
                self._defines.setdefault(number, set()).add(term.term.lower())
        self._at: dict[str | None, frozenset[str]] = {None: frozenset()}

    def __bool__(self) -> bool:
        return bool(self._defines)

    def at(self, number: str | None) -> frozenset[str]:
        if number not in self._at:
            self._at[number] = frozenset()  # a number that is its own ancestor ends here
            above = self._rules.get(number)  # type: ignore[arg-type]
            self._at[number] = (
                frozenset(self._defines.get(number, ()))  # type: ignore[arg-type]
                | self.at(above.parent if above else None)
            )
        return self._at[number]


def capitalised_names(
    rules: Sequence[Rule], names: dict[str, str], found: dict[str, list[tuple[str, str, int]]], defined: _Defined
) -> set[str]:
    """The one-word names the book writes with a capital, where that capital tells the term from the
    English word: "case" in "in that case" is not Case, the enchantment subtype. ``found``: each rule's
    :func:`_matches` in its text; ``defined``: where each term is defined.

    A term's spelling is read where it is defined (:class:`_Defined`); a name written there in the
    middle of a sentence, outside quotes, only with a capital is written so. That tells the term from
    the word only in a book that writes its terms in lower case (Magic's "creature", "trample": most
    terms with a spelling there are written in lower case only): a term it writes with a capital is a
    name (Case, Role, Background, Mountain). A book that capitalises its terms (Riftbound's Chain,
    Might, Rune, and now and then "the chain") says nothing by a capital, and its every occurrence counts.

    >>> terms = [Term("Case", "An enchantment subtype. See rule 719.1."), Term("Creature", "See rule 302.1."),
    ...          Term("Trample", "See rule 702.19a.")]
    >>> rules = [Rule("719.1", text="Each Case has a to solve ability."), Rule("302.1", text="A creature attacks."),
    ...          Rule("702.19a", text="An attacking creature with trample ..."), Rule("101.1", text="In that case, ...")]
    >>> names = _usable_names(terms, 4)
    >>> found = {r.number: _matches(r.text, _names_pattern(names)) for r in rules}
    >>> capitalised_names(rules, names, found, _Defined(rules, terms))
    {'case'}
    """
    if not defined:
        return set()
    lowered = {key: term.lower() for key, term in names.items()}
    spelling: dict[str, list[int]] = {}  # term (lower case) -> [capitalised, lower-case] mid-sentence
    for rule in rules:
        here = defined.at(rule.number)
        if not here or not rule.text:
            continue
        text = rule.text.replace("’", "'")
        quoted = [m.span() for m in _QUOTED.finditer(text)]
        for written, key, where in found.get(rule.number, ()):
            term = lowered[key]
            if term in here and _by_choice(text, where, quoted):
                spelling.setdefault(term, [0, 0])[written[0].islower()] += 1
    capital = {t for t, (cap, low) in spelling.items() if cap and not low}
    lower = {t for t, (cap, low) in spelling.items() if low and not cap}
    if len(lower) <= len(capital):  # a book that capitalises its terms: case says nothing
        return set()
    return {key for key, term in lowered.items() if term in capital and " " not in key}


def _names_pattern(names: dict[str, str]) -> re.Pattern[str]:
    """The regex that finds any of ``names`` as whole words, in any case (the longest name wins)."""
    return re.compile(r"(?<![\w-])(" + _trie_pattern(sorted(names)) + r")(?:e?s)?(?![\w-])", re.I)


def _trie_pattern(words: Iterable[str]) -> str:
    """One regex that matches any of ``words``, built as a trie so matching is linear in the text.

    >>> bool(re.fullmatch(_trie_pattern(["chain", "chain item", "cleanup"]), "chain item"))
    True
    """
    trie: dict = {}
    for word in words:
        node = trie
        for ch in word:
            node = node.setdefault(ch, {})
        node[""] = {}

    def build(node: dict) -> str:
        end = "" in node
        branches = [re.escape(ch) + build(child) for ch, child in sorted(node.items()) if ch]
        if not branches:
            return ""
        body = branches[0] if len(branches) == 1 else "(?:" + "|".join(branches) + ")"
        # Greedy optional tail: the longest term wins ("Chain Item" over "Chain").
        return f"(?:{body})?" if end else body

    return build(trie)


def uses(rules: Sequence[Rule], terms: Sequence[Term], min_len: int = 4) -> list[tuple[str, str]]:
    """(rule number, term) for every glossary term a rule's text mentions.

    Whole words, case-insensitive, plural ``s``/``es`` allowed; the longest term wins where terms
    overlap. Terms shorter than ``min_len`` and the ubiquitous words in :data:`COMMON_TERMS` are
    skipped. An obsolete entry names old cards' wording ("Terms marked (Obsolete) ... were used only on
    older cards", the glossary says): the rules use it only where its entry points (Totem Armor in
    702.89; never During (Obsolete): the rules' "during" is English). A name that a book writing its
    terms in lower case writes with a capital counts only where it has one (:func:`capitalised_names`:
    "in that case" does not use Case). One
    trie-shaped regex runs once over each rule, so the full Magic rules (9,000 rules, 700 terms) take
    a fraction of a second. A rule does not "use" a term it defines (its source).

    >>> rules = [Rule("313.1", text="Focus is the permission ..."), Rule("316.2.a", text="Players with focus may act in a Showdown.")]
    >>> terms = [Term("Focus", "...", source="rule 313.1"), Term("Showdown", "...")]
    >>> uses(rules, terms)
    [('316.2.a', 'Focus'), ('316.2.a', 'Showdown')]
    """
    names = _usable_names(terms, min_len)
    if not names:
        return []
    pattern = _names_pattern(names)
    in_text = {rule.number: _matches(rule.text, pattern) for rule in rules if rule.text}
    defined = _Defined(rules, terms)
    capital = capitalised_names(rules, names, in_text, defined)
    obsolete = {t.term for t in terms if t.obsolete}
    defined_by = {t.source[5:]: t.term for t in terms if t.source.startswith("rule ")}
    out: list[tuple[str, str]] = []
    for rule in rules:
        seen: set[str] = set()
        for written, key, _ in (_matches(rule.title, pattern) if rule.title else []) + in_text.get(rule.number, []):
            term = names.get(key)
            if key in capital and written[0].islower():  # "in that case": English, not Case
                continue
            if term in obsolete and term.lower() not in defined.at(rule.number):  # "during": not During (Obsolete)
                continue
            if term and term not in seen and defined_by.get(rule.number) != term:
                seen.add(term)
                out.append((rule.number, term))
    return out


# Riftbound definitions. Each pattern names the term in group "term"; the term is one to five
# words, capitalised except for linking words ("State of the Turn"), optionally after an article:
#   "Focus is the permission to ...", "A Showdown is a Window of Opportunity ...",
#   "The Chain is a Non-Board Zone ...", "Priority is the singular exclusive right ...",
#   "Banishing is the action of ...", "Moving is defined by ...", "Neutral Open: There is ...".
_TERM_WORDS = r"[A-Z][\w'’-]*(?:\s+(?:of\s+the|of|or|and|to|[A-Z][\w'’-]*)){0,4}"
_DEFINITIONS = (
    re.compile(
        rf"^(?:(?:A|An|The)\s+)?(?P<term>{_TERM_WORDS})\s+(?:is|are)\s+(?:the|a|an|any|one)\s+(?!only\b|same\b|first\b|last\b|next\b)\w"
    ),
    re.compile(rf"^(?:(?:A|An|The)\s+)?(?P<term>{_TERM_WORDS})\s+(?:is|are)\s+defined\s+(?:by|as)\b"),
    re.compile(rf"^(?P<term>{_TERM_WORDS}):\s+[A-Z]"),
)
_NOT_TERMS = frozenset(
    "it this that these those there here each every no such all any one some if when while during "
    "example note reminder step players player you they we".split()
)


def derive_terms(rules: Sequence[Rule], game: str) -> list[Term]:
    """Terms defined by rules, for a game without a glossary (Riftbound).

    Magic has a glossary, so nothing is derived for it. When several rules define the same term,
    the lowest-numbered one is kept.

    >>> rules = [Rule("313.1", text="Focus is the permission to take appropriately timed Discretionary Actions."),
    ...          Rule("338", text="A Showdown is a Window of Opportunity in which Players have an Open State."),
    ...          Rule("312", text="At any given time, up to one player has Priority.")]
    >>> [(t.term, t.source) for t in derive_terms(rules, "riftbound")]
    [('Focus', 'rule 313.1'), ('Showdown', 'rule 338')]
    """
    if not games.get(game).terms_from_rules:
        return []
    found: dict[str, tuple[tuple, Term]] = {}
    for rule in rules:
        text = rule.text.strip()
        for pattern in _DEFINITIONS:
            m = pattern.match(text)
            if not m:
                continue
            term = m.group("term").strip()
            if term.split()[0].lower() in _NOT_TERMS or len(term) < 3:
                break
            key = term.lower()
            candidate = Term(term=term, definition=text, source=f"rule {rule.number}", line=rule.line)
            if key not in found or sort_key(rule.number) < found[key][0]:
                found[key] = (sort_key(rule.number), candidate)
            break
    return [term for _, term in sorted(found.values(), key=lambda kv: kv[0])]


def stored_references(store: Store, book_id: str) -> list[Reference]:
    """The references stored for a book (:meth:`rulebook.store.Store.refs`) as :class:`Reference` objects."""
    names = [f.name for f in fields(Reference)]
    out = []
    for row in store.refs(book_id):
        values: dict[str, Any] = {n: row.get(n) for n in names}  # a column's value, as stored
        out.append(Reference(**values))
    return out
