"""What changed between two editions of a game's rules, and where a rule went.

:func:`diff_books` compares two loaded books rule by rule and term by term. Rules are matched
across the editions one-to-one, by number and by text, so that a rule moved (renumbered) and
reworded is still recognised; every rule of either book ends up in exactly one of *unchanged*,
*changed* (same number, other words), *renumbered* (another number, with or without other words),
*removed* (old rules nothing matched) or *added* (new rules nothing matched).

The matching rule (docs/decisions.md, "Editions compared"), decided before it was tuned (the sub-rules
as context, the 3-word minimum and a text kept whole came after the held-out check):

1. **Anchors.** A rule whose number and text (title, text and examples; whitespace and curly quotes
   aside) are the same in both books is unchanged, and takes no further part.
2. **Similarity** of two rules is the word-level Indel similarity of their *content words*
   (``2 * LCS / (len(a) + len(b))``, rapidfuzz): lower-cased, a small list of function words
   dropped ("the", "of", ...), and rule numbers cited in the text masked, so that a cross-reference
   updated by the renumbering itself does not lower it. Unrelated rules of one section score
   0.05-0.25; a rule reworded in place 0.2-0.9; a rule moved with its words 1.0.
3. **Who may match whom.** The same number: similarity at least :data:`SAME_NUMBER_MIN` (the slot
   rewritten), or any similarity when most of the two rules' sub-rules are matched to each other (a
   heading renamed over its own sub-rules: 308 Tribals -> Kindreds); another number: at least
   :data:`MOVE_MIN` ("the same or nearly the same text"); another number *in context* (parents matched
   to each other, or most sub-rules): at least :data:`NEAR_MIN`, between texts of at least
   :data:`NEAR_WORDS` content words (two-word headings sharing "Cards" say nothing), where a text kept
   whole inside a longer one counts as its share of the shorter (a sentence added or cut).
4. **One assignment.** Among the pairs allowed, the matching is the one-to-one assignment of
   greatest total weight, ``similarity - OFFSET + SAME_BONUS * same number + PARENT_BONUS * each
   context`` (Hungarian method on each connected group of candidates), not greedy first matches: one
   strong move beats two weak matches in place. The offset is what makes it so (weights count the
   evidence above the background of unrelated rules).
5. **Context.** The contexts are read from the matching itself: the assignment is solved again with
   the parents and sub-rules paired by the previous solution until it no longer changes (at most
   :data:`ROUNDS` times), so the sub-rules of a moved rule follow it (701.34h "See rule 708" goes to
   701.40h with Manifest, not to the identical 701.58h of Cloak).
6. **How sure.** Each match carries its similarity and a confidence: ``high`` when the evidence (the
   similarity, or the share of a text kept whole) is at least 0.8 and no other candidate of either
   rule comes within 0.1 of its weight (identical texts: unless another candidate is identical too),
   ``medium`` when at least 0.5 and none within 0.05 (or a heading whose sub-rules stayed with it),
   ``low`` otherwise.

Tuned on the Comprehensive Rules 2025-02-07 -> 2026-02-27 and checked on 2022-11-18 -> 2025-02-07
(docs/decisions.md, "Editions compared", says what each showed).

A book that is an excerpt (a seed, ``partial``) is not a whole edition: the rules of the other book
that no rule of the excerpt matches are counted as outside the excerpt, never as added or removed.

>>> old = [_rule("701.5", "Counter"), _rule("701.5a", "To counter a spell or ability means to cancel it.", "701.5"),
...        _rule("701.6", "Create"), _rule("701.6a", "To create a token, put it onto the battlefield.", "701.6")]
>>> new = [_rule("701.5", "Cast"), _rule("701.5a", "To cast a spell is to put it on the stack.", "701.5"),
...        _rule("701.6", "Counter"), _rule("701.6a", "To counter a spell or ability means to cancel it.", "701.6"),
...        _rule("701.7", "Create"), _rule("701.7a", "To create tokens, put them onto the battlefield.", "701.7")]
>>> m = match_rules(old, new)
>>> sorted((p.old, p.new) for p in m.pairs)
[('701.5', '701.6'), ('701.5a', '701.6a'), ('701.6', '701.7'), ('701.6a', '701.7a')]
>>> m.unmatched_new
['701.5', '701.5a']
"""

from __future__ import annotations

import difflib
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from rapidfuzz import process
from rapidfuzz.distance import Indel

from rulebook import numbers
from rulebook.editions import edition_key

if TYPE_CHECKING:
    from rulebook.store import Store

SAME_NUMBER_MIN = 0.2  # a number kept: the slot rewritten, if nothing better claims either rule
NEAR_MIN = 0.4  # another number, under parents matched to each other
MOVE_MIN = 0.6  # another number anywhere: the same or nearly the same text
NEAR_WORDS = 3  # content words a text needs before a shared word or two says anything
OFFSET = 0.3  # the background similarity of unrelated rules, taken off every weight
SAME_BONUS = 0.15
PARENT_BONUS = 0.05
ROUNDS = 4
TERM_MOVE_MIN = 0.6  # a glossary entry renamed: its definition nearly the same

_QUOTES = str.maketrans({"\u2019": "'", "\u2018": "'", "\u201c": '"', "\u201d": '"', "\u00a0": " "})
# A rule number cited in a text: 3 digits, then .N and letters (MTG 601.2c) or dotted parts
# (Riftbound 312.2.b.1). Masked for similarity only.
_CITED = re.compile(r"\b\d{3}(?:\.\d+(?:[a-z]{1,2}\b|(?:\.[a-z0-9]+)*))?")
_WORD = re.compile(r"[a-z0-9#]+")
_STOP = frozenset(
    "a an the of to and or in on at by for with from as is are be been it its this that these those "
    "if then than which who whom whose there their they them any each".split()
)


# The rules as compared ----------------------------------------------------------------------------
@dataclass(frozen=True)
class Entry:
    """A rule as compared: its number, parent, and what a judge reads (title, text, examples)."""

    number: str
    parent: str | None
    title: str | None
    text: str
    examples: tuple[str, ...] = ()

    @property
    def content(self) -> str:
        """Title, text and each example (``Example: ...``) on lines of their own."""
        parts = [self.title or "", self.text or "", *(f"Example: {e}" for e in self.examples)]
        return "\n".join(p for p in parts if p)

    @property
    def key(self) -> str:
        """The content with typography aside (whitespace, curly quotes): equal keys, same text."""
        return " ".join(self.content.translate(_QUOTES).split())


def _rule(number: str, text: str, parent: str | None = None) -> Entry:
    """A rule for examples: a heading when ``text`` has no full stop."""
    heading = "." not in text
    return Entry(number, parent, text if heading else None, "" if heading else text)


def content_words(text: str) -> list[str]:
    """The words similarity compares: lower case, function words dropped, cited rule numbers as ``#``.

    >>> content_words("See rule 701.19, “Regenerate,” for the rules of a regeneration shield.")
    ['see', 'rule', '#', 'regenerate', 'rules', 'regeneration', 'shield']
    """
    text = _CITED.sub("#", text.translate(_QUOTES).lower())
    return [w for w in _WORD.findall(text) if w not in _STOP]


def masked(text: str) -> str:
    """The text with typography aside and cited rule numbers masked: equal when only references differ."""
    return _CITED.sub("#", " ".join(text.translate(_QUOTES).split()))


def read_rules(store: Store, book: str) -> list[Entry]:
    """A book's rules in rule order, as compared."""
    return [Entry(r.number, r.parent, r.title, r.text, r.examples) for r in store.rule_contents(book)]


# Matching ------------------------------------------------------------------------------------------
@dataclass(frozen=True)
class Pair:
    """Two rules matched across the editions."""

    old: str
    new: str
    similarity: float  # 0..1, of their content words
    confidence: str  # high | medium | low
    identical: bool  # the same text (typography aside)


@dataclass
class Matching:
    """Every rule of both books: anchored (same number and text), paired, or left over."""

    anchored: list[str]
    pairs: list[Pair]
    unmatched_old: list[str]
    unmatched_new: list[str]

    def forward(self) -> dict[str, str]:
        """Old number -> new number, for every rule matched (anchored ones to themselves)."""
        out = {n: n for n in self.anchored}
        out.update({p.old: p.new for p in self.pairs})
        return out


def _encoder() -> Callable[[list[str]], str]:
    """Words as single characters, so rapidfuzz compares word sequences at C speed."""
    codes: dict[str, str] = {}

    def encode(words: list[str]) -> str:
        out = []
        for w in words:
            c = codes.get(w)
            if c is None:
                i = len(codes) + 0x100
                c = codes[w] = chr(i if i < 0xD800 else i + 0x800)  # no surrogates
            out.append(c)
        return "".join(out)

    return encode


def _similarities(old: list[Entry], new: list[Entry]):
    """The matrix of content-word similarities (rows old, columns new), float32, 0 below the lowest
    threshold; and which rules have no content words at all."""
    import numpy as np  # optional (the meaning model's NumPy): tests/test_house.py, OPTIONAL

    encode = _encoder()
    a = [encode(content_words(e.content)) for e in old]
    b = [encode(content_words(e.content)) for e in new]
    if not a or not b:
        return np.zeros((len(a), len(b)), dtype=np.float32), a, b
    sims = process.cdist(a, b, scorer=Indel.normalized_similarity, score_cutoff=SAME_NUMBER_MIN, dtype=np.float32)
    # Rules without a content word (a heading "The", say) are alike only at the same number.
    empty_a = np.array([not s for s in a])
    empty_b = np.array([not s for s in b])
    sims[empty_a, :] = 0
    sims[:, empty_b] = 0
    return sims, a, b


def match_rules(old: list[Entry], new: list[Entry]) -> Matching:
    """Match the rules of two editions one-to-one (the module docstring says how)."""
    import numpy as np  # optional (the meaning model's NumPy): tests/test_house.py, OPTIONAL

    new_by_number = {e.number: e for e in new}
    anchored = [e.number for e in old if e.number in new_by_number and e.key == new_by_number[e.number].key]
    fixed = set(anchored)
    rest_old = [e for e in old if e.number not in fixed]
    rest_new = [e for e in new if e.number not in fixed]
    sims, enc_old, enc_new = _similarities(rest_old, rest_new)
    same = np.zeros(sims.shape, dtype=bool)
    col = {e.number: j for j, e in enumerate(rest_new)}
    for i, e in enumerate(rest_old):
        j = col.get(e.number)
        if j is not None:
            same[i, j] = True
            if not enc_old[i] and not enc_new[j]:
                sims[i, j] = 1.0
    # Candidates: every pair above the lowest threshold or at the same number; pairs whose children
    # were matched to each other join them as the rounds find them. Which are allowed depends on
    # the context the previous round's matching gives.
    rows, cols = np.nonzero((sims >= NEAR_MIN) | same)
    base = {(int(i), int(j)) for i, j in zip(rows, cols)}
    length_old = [len(x) for x in enc_old]
    length_new = [len(x) for x in enc_new]
    row_of = {e.number: i for i, e in enumerate(rest_old)}
    kids_old: dict[str, list[str]] = {}
    for e in old:
        if e.parent is not None:
            kids_old.setdefault(e.parent, []).append(e.number)
    new_parent = {e.number: e.parent for e in new}

    def similarity(i: int, j: int) -> float:
        if sims[i, j] or not enc_old[i] or not enc_new[j]:
            return float(sims[i, j])

        return Indel.normalized_similarity(enc_old[i], enc_new[j])

    def evidence(i: int, j: int, s: float) -> float:
        """The similarity, or how much of the shorter text the longer keeps (a rule extended by a
        sentence, a list's heading shortened), when the shorter has enough words to say."""
        shorter = min(length_old[i], length_new[j])
        if shorter < NEAR_WORDS:
            return s
        return max(s, min(1.0, (length_old[i] + length_new[j]) * s / (2 * shorter)))

    def children_agree(paired: dict[str, str]) -> set[tuple[int, int]]:
        """(old, new) rules most of whose sub-rules were matched to each other's."""
        out = set()
        for number, kids in kids_old.items():
            i = row_of.get(number)
            if i is None:
                continue
            votes: dict[str, int] = {}
            for k in kids:
                parent = new_parent.get(paired[k]) if k in paired else None
                if parent is not None:
                    votes[parent] = votes.get(parent, 0) + 1
            for target, n in votes.items():
                if 2 * n >= len(kids) and target in col:
                    out.add((i, col[target]))
        return out

    paired: dict[str, str] = {n: n for n in anchored}
    chosen: dict[int, int] = {}
    weights: dict[tuple[int, int], float] = {}
    for _ in range(ROUNDS):
        weights = {}
        agree = children_agree(paired)
        for i, j in base | agree:
            s = similarity(i, j)
            po, pn = rest_old[i].parent, rest_new[j].parent
            parents = (po is None and pn is None) or (po is not None and paired.get(po) == pn)
            children = (i, j) in agree
            if same[i, j]:
                ok = s >= SAME_NUMBER_MIN or children
            elif s >= MOVE_MIN:
                ok = True
            else:  # a weaker likeness counts only in context, and only between texts long enough
                ok = (
                    (parents or children)
                    and min(length_old[i], length_new[j]) >= NEAR_WORDS
                    and evidence(i, j, s) >= NEAR_MIN
                )
            if ok:
                weights[(i, j)] = max(
                    0.01, s - OFFSET + SAME_BONUS * same[i, j] + PARENT_BONUS * parents + PARENT_BONUS * children
                )
        solution = _assign(weights)
        if solution == chosen:
            break
        chosen = solution
        paired = {n: n for n in anchored}
        paired.update({rest_old[i].number: rest_new[j].number for i, j in chosen.items()})
    best_row: dict[int, list[tuple[float, int]]] = {}
    best_col: dict[int, list[tuple[float, int]]] = {}
    for (i, j), w in weights.items():
        best_row.setdefault(i, []).append((w, j))
        best_col.setdefault(j, []).append((w, i))
    for table in (best_row, best_col):
        for k in table:
            table[k] = sorted(table[k], reverse=True)[:2]

    def rival(i: int, j: int) -> tuple[float | None, bool]:
        """The best other candidate of either rule, and whether one has the very same text."""
        others = [(w, i, b) for w, b in best_row.get(i, []) if b != j] + [
            (w, a, j) for w, a in best_col.get(j, []) if a != i
        ]
        twin = any(sims[a, b] >= 1.0 and rest_old[a].key == rest_new[b].key for _, a, b in others)
        return max((w for w, _, _ in others), default=None), twin

    pairs = []
    for i, j in sorted(chosen.items()):
        s = similarity(i, j)
        identical = rest_old[i].key == rest_new[j].key
        best_other, twin = rival(i, j)
        margin = weights[(i, j)] - best_other if best_other is not None else 1.0
        ev = evidence(i, j, s)
        if identical:
            confidence = "medium" if twin else "high"
        else:
            confidence = "high" if ev >= 0.8 and margin >= 0.1 else "medium" if ev >= 0.5 and margin >= 0.05 else "low"
            if confidence == "low" and (i, j) in agree:  # a heading renamed: its sub-rules stayed with it
                confidence = "medium"
        pairs.append(Pair(rest_old[i].number, rest_new[j].number, round(s, 3), confidence, identical))
    matched_new = set(chosen.values())
    return Matching(
        anchored=anchored,
        pairs=pairs,
        unmatched_old=[e.number for i, e in enumerate(rest_old) if i not in chosen],
        unmatched_new=[e.number for j, e in enumerate(rest_new) if j not in matched_new],
    )


def _assign(weights: dict[tuple[int, int], float]) -> dict[int, int]:
    """The one-to-one matching of greatest total weight over the pairs given (all weights > 0):
    row -> column. Solved per connected group of candidates, most of which are one pair.

    >>> _assign({(0, 0): 0.5, (0, 1): 0.6, (1, 1): 0.55})
    {0: 0, 1: 1}
    >>> _assign({(0, 0): 0.1, (1, 1): 0.1, (0, 1): 0.9})
    {0: 1}
    """
    import numpy as np  # optional (the meaning model's NumPy): tests/test_house.py, OPTIONAL

    parent: dict[tuple[str, int], tuple[str, int]] = {}

    def root(x):
        while parent.setdefault(x, x) != x:
            parent[x] = parent[parent[x]]
            x = parent[x]
        return x

    for i, j in weights:
        a, b = root(("r", i)), root(("c", j))
        if a != b:
            parent[a] = b
    groups: dict = {}
    for i, j in weights:
        groups.setdefault(root(("r", i)), []).append((i, j))
    out: dict[int, int] = {}
    for edges in groups.values():
        if len(edges) == 1:
            out[edges[0][0]] = edges[0][1]
            continue
        rows = sorted({i for i, _ in edges})
        cols = sorted({j for _, j in edges})
        ri = {r: k for k, r in enumerate(rows)}
        ci = {c: k for k, c in enumerate(cols)}
        cost = np.zeros((len(rows), len(cols)))
        for i, j in edges:
            cost[ri[i], ci[j]] = -weights[(i, j)]
        if len(rows) <= len(cols):
            got = [(rows[a], cols[b]) for a, b in enumerate(_hungarian(cost))]
        else:
            got = [(rows[a], cols[b]) for b, a in enumerate(_hungarian(cost.T.copy()))]
        for i, j in got:
            if (i, j) in weights:  # a row given a column it has no candidate pair with stays unmatched
                out[i] = j
    return dict(sorted(out.items()))


def _hungarian(cost):
    """The column of each row in a minimum-cost assignment (rows <= columns): the Hungarian method
    with potentials (Kuhn-Munkres, as Jonker and Volgenant write it), each step over NumPy arrays.

    >>> import numpy as np
    >>> _hungarian(np.array([[4.0, 1, 3], [2, 0, 5], [3, 2, 2]])).tolist()
    [1, 0, 2]
    """
    import numpy as np  # optional (the meaning model's NumPy): tests/test_house.py, OPTIONAL

    n, m = cost.shape
    u = np.zeros(n + 1)
    v = np.zeros(m + 1)
    p = np.zeros(m + 1, dtype=np.int64)  # p[j]: the row (1-based) holding column j, 0 none
    way = np.zeros(m + 1, dtype=np.int64)
    for i in range(1, n + 1):
        p[0] = i
        j0 = 0
        minv = np.full(m + 1, np.inf)
        used = np.zeros(m + 1, dtype=bool)
        while True:
            used[j0] = True
            i0 = p[j0]
            free = ~used
            cur = cost[i0 - 1] - u[i0] - v[1:]
            better = free[1:] & (cur < minv[1:])
            minv[1:][better] = cur[better]
            way[1:][better] = j0
            open_ = np.where(free[1:], minv[1:], np.inf)
            j1 = int(np.argmin(open_)) + 1
            delta = open_[j1 - 1]
            u[p[used]] += delta
            v[used] -= delta
            minv[free] -= delta
            j0 = j1
            if p[j0] == 0:
                break
        while j0:
            j1 = way[j0]
            p[j0] = p[j1]
            j0 = j1
    out = np.full(n, -1, dtype=np.int64)
    for j in range(1, m + 1):
        if p[j]:
            out[p[j] - 1] = j - 1
    return out


# Word diff -----------------------------------------------------------------------------------------
def word_diff(old: str, new: str) -> str:
    """The words changed, git's word-diff style: ``[-removed-]`` and ``{+added+}`` among the rest.

    >>> word_diff("Each player may gain control of themselves.", "Each player may lose control of themselves.")
    'Each player may [-gain-]{+lose+} control of themselves.'
    """
    a, b = old.split(), new.split()
    na = [w.translate(_QUOTES) for w in a]
    nb = [w.translate(_QUOTES) for w in b]
    out: list[str] = []
    for op, i1, i2, j1, j2 in difflib.SequenceMatcher(None, na, nb, autojunk=False).get_opcodes():
        if op == "equal":
            out.append(" ".join(b[j1:j2]))
            continue
        piece = ""
        if i2 > i1:
            piece += "[-" + " ".join(a[i1:i2]) + "-]"
        if j2 > j1:
            piece += "{+" + " ".join(b[j1:j2]) + "+}"
        out.append(piece)
    return " ".join(out)


# Glossary ------------------------------------------------------------------------------------------
@dataclass(frozen=True)
class TermChanges:
    added: list[dict]
    removed: list[dict]
    changed: list[dict]
    renamed: list[dict]

    def to_json(self) -> dict:
        return {"added": self.added, "removed": self.removed, "changed": self.changed, "renamed": self.renamed}


def diff_terms(
    old: list[tuple[str, str]], new: list[tuple[str, str]], old_partial: bool = False, new_partial: bool = False
) -> tuple[TermChanges, int, int]:
    """Glossary entries ``(term, definition)`` compared: by headword (case aside), then a headword
    renamed when its definition is nearly the same (an assignment, as for rules). Returns the
    changes, the count of unchanged entries, and the count left outside an excerpt."""
    o = {_norm(t).lower(): (t, d) for t, d in old}  # "Isn't" and "Isn’t" are one headword
    n = {_norm(t).lower(): (t, d) for t, d in new}
    changed, unchanged = [], 0
    for k in o:
        if k in n:
            (ot, od), (nt, nd) = o[k], n[k]
            if _norm(od) == _norm(nd):
                unchanged += 1
            else:
                changed.append(
                    {
                        "term": nt,
                        "old_definition": od,
                        "new_definition": nd,
                        "diff": word_diff(od, nd),
                        "references_only": masked(od) == masked(nd),
                    }
                )
    gone = [o[k] for k in o if k not in n]
    fresh = [n[k] for k in n if k not in o]
    renamed = []
    if gone and fresh:
        ea = [Entry(t, None, None, d) for t, d in gone]
        eb = [Entry(t, None, None, d) for t, d in fresh]
        sims, _, _ = _similarities(ea, eb)
        import numpy as np  # optional (the meaning model's NumPy): tests/test_house.py, OPTIONAL

        rows, cols = np.nonzero(sims >= TERM_MOVE_MIN)
        chosen = _assign({(int(i), int(j)): float(sims[i, j]) - OFFSET for i, j in zip(rows, cols)})
        for i, j in chosen.items():
            (ot, od), (nt, nd) = gone[i], fresh[j]
            renamed.append(
                {
                    "old": ot,
                    "new": nt,
                    "similarity": round(float(sims[i, j]), 3),
                    "changed": _norm(od) != _norm(nd),
                    "diff": word_diff(od, nd) if _norm(od) != _norm(nd) else None,
                }
            )
        gone = [g for i, g in enumerate(gone) if i not in chosen]
        taken = set(chosen.values())
        fresh = [f for j, f in enumerate(fresh) if j not in taken]
    outside = 0
    if old_partial:
        outside += len(fresh)
        fresh = []
    if new_partial:
        outside += len(gone)
        gone = []
    return (
        TermChanges(
            added=[{"term": t, "definition": d} for t, d in fresh],
            removed=[{"term": t, "definition": d} for t, d in gone],
            changed=changed,
            renamed=renamed,
        ),
        unchanged,
        outside,
    )


def _norm(text: str) -> str:
    return " ".join((text or "").translate(_QUOTES).split())


# Two books compared --------------------------------------------------------------------------------
@dataclass(frozen=True)
class BookDiff:
    """What changed from one book to another (docs/json.md, ``judge diff``)."""

    old: dict  # {"book", "edition", "title", "partial"}
    new: dict
    section: str | None
    added: list[dict]
    removed: list[dict]
    changed: list[dict]
    renumbered: list[dict]
    unchanged: int
    outside_excerpt: int  # rules of one book no rule of the other (an excerpt) matched: not compared
    terms: TermChanges | None
    terms_unchanged: int
    terms_outside_excerpt: int
    matching: Matching | None = field(repr=False, compare=False, default=None)

    def to_json(self) -> dict:
        return {
            "old": self.old["book"],
            "new": self.new["book"],
            "old_edition": self.old["edition"],
            "new_edition": self.new["edition"],
            "partial": [b["book"] for b in (self.old, self.new) if b["partial"]],
            "section": self.section,
            "added": self.added,
            "removed": self.removed,
            "changed": self.changed,
            "renumbered": self.renumbered,
            "unchanged": self.unchanged,
            "outside_excerpt": self.outside_excerpt,
            "terms": (
                self.terms.to_json()
                | {"unchanged": self.terms_unchanged, "outside_excerpt": self.terms_outside_excerpt}
            )
            if self.terms is not None
            else None,
        }

    @property
    def counts(self) -> dict:
        return {
            "added": len(self.added),
            "removed": len(self.removed),
            "changed": len(self.changed),
            "renumbered": len(self.renumbered),
            "unchanged": self.unchanged,
        }


class DiffError(ValueError):
    """Two books that cannot be compared (another game); one line for the judge."""


def book_info(store: Store, book: str) -> dict:
    """A loaded book as a diff labels it: ``book``, ``game``, ``title``, ``edition``, ``partial``."""
    row = store.book_row(book)
    if row is None:
        raise KeyError(f"no book {book!r}")
    return {"book": row.id, "game": row.game, "title": row.title, "edition": row.edition, "partial": row.partial}


def under(number: str, section: str, game: str) -> bool:
    """Whether rule ``number`` is ``section`` or under it (by numbering).

    >>> under("702.19b", "702", "mtg"), under("702.19b", "7", "mtg"), under("701.1", "702", "mtg")
    (True, True, False)
    >>> under("312.2.b", "300", "riftbound"), under("312.2.b", "312.2", "riftbound")
    (True, True)
    """
    n: str | None = numbers.printed(number)
    while n:
        if n == section:
            return True
        n = numbers.parent(n, game)
    return False


def diff_books(store: Store, old_book: str, new_book: str, section: str | None = None) -> BookDiff:
    """Compare two loaded books of one game."""
    old_info, new_info = book_info(store, old_book), book_info(store, new_book)
    game = old_info["game"]
    if new_info["game"] != game:
        raise DiffError(
            f"{old_book} is a {game} book and {new_book} a {new_info['game']} book: "
            "only editions of one game can be compared"
        )
    old_rules, new_rules = read_rules(store, old_book), read_rules(store, new_book)
    m = match_rules(old_rules, new_rules)
    return assemble(old_info, new_info, old_rules, new_rules, m, section, store)


def assemble(
    old_info: dict,
    new_info: dict,
    old_rules: list[Entry],
    new_rules: list[Entry],
    m: Matching,
    section: str | None = None,
    store: Store | None = None,
) -> BookDiff:
    game = old_info["game"]
    if section is not None:
        section = numbers.canonical(section, game)
    o = {e.number: e for e in old_rules}
    n = {e.number: e for e in new_rules}

    def keep(*nums: str | None) -> bool:
        return section is None or any(x is not None and under(x, section, game) for x in nums)

    changed: list[dict[str, Any]] = []
    renumbered: list[dict[str, Any]] = []
    for p in m.pairs:
        a, b = o[p.old], n[p.new]
        if not keep(p.old, p.new):
            continue
        item = {"similarity": p.similarity, "confidence": p.confidence}
        if p.old == p.new:
            changed.append(
                {
                    "number": p.new,
                    "old_text": a.content,
                    "new_text": b.content,
                    "diff": word_diff(a.content, b.content),
                    "references_only": masked(a.content) == masked(b.content),
                    **item,
                }
            )
        else:
            entry = {"old": p.old, "new": p.new, **item, "changed": not p.identical}
            if not p.identical:
                entry.update(
                    {
                        "old_text": a.content,
                        "new_text": b.content,
                        "diff": word_diff(a.content, b.content),
                        "references_only": masked(a.content) == masked(b.content),
                    }
                )
            else:
                entry["text"] = b.content
            renumbered.append(entry)
    order_new = {e.number: i for i, e in enumerate(new_rules)}
    order_old = {e.number: i for i, e in enumerate(old_rules)}
    changed.sort(key=lambda c: order_new[c["number"]])
    renumbered.sort(key=lambda r: order_old[r["old"]])
    added = [{"number": x, "text": n[x].content} for x in m.unmatched_new if keep(x)]
    removed = [{"number": x, "text": o[x].content} for x in m.unmatched_old if keep(x)]
    outside = 0
    if old_info["partial"]:  # the excerpt lacks them; that says nothing of the edition
        outside += len(added)
        added = []
    if new_info["partial"]:
        outside += len(removed)
        removed = []
    unchanged = sum(1 for x in m.anchored if keep(x))
    terms, t_same, t_out = None, 0, 0
    if section is None and store is not None:
        terms, t_same, t_out = diff_terms(
            _terms(store, old_info["book"]), _terms(store, new_info["book"]), old_info["partial"], new_info["partial"]
        )
    return BookDiff(
        old_info, new_info, section, added, removed, changed, renumbered, unchanged, outside, terms, t_same, t_out, m
    )


def _terms(store: Store, book: str) -> list[tuple[str, str]]:
    return [(t.term, t.definition or "") for t in store.terms(book)]


# Following a rule across editions ------------------------------------------------------------------
def game_editions(store: Store, game: str) -> list[str]:
    """The books of ``game`` that hold rules, oldest edition first (rulebook.editions.edition_key; equal
    editions in `judge books` order): the books the judge loaded, or the seed when it is the only one
    (an excerpt says nothing of what an edition lacks)."""

    rows = [r for r in store.book_rows() if r.game == game and r.has_rules]
    loaded = [r for r in rows if not r.builtin]
    return [r.id for r in sorted(loaded or rows, key=lambda r: edition_key(r.edition))]


@dataclass(frozen=True)
class History:
    """A rule's life across the loaded editions of its game (docs/json.md, ``judge history``)."""

    game: str
    number: str  # as asked, canonical
    book: str  # the edition whose numbering ``number`` is in
    editions: list[dict]  # oldest first: {"book", "edition", "number", "text", "status", ...}

    def to_json(self) -> dict:
        return {"game": self.game, "number": self.number, "book": self.book, "editions": self.editions}


def find_number(store: Store, book: str, number: str) -> str | None:
    """The rule ``number`` (either game's style) as the book stores it, or None."""
    for candidate in numbers.candidates(number):
        if store.has_rule(book, candidate):
            return candidate
    return None


def rule_history(
    store: Store, game: str, number: str, book: str | None = None, books: list[str] | None = None
) -> History | None:
    """Where rule ``number`` (numbered as in ``book``, else in the newest edition that has it) stands in
    every edition of ``books`` (default: :func:`game_editions`), followed through the matching of each
    edition with the next. None when no edition has the number."""
    books = books or game_editions(store, game)
    if book is not None and book not in books:  # a seed asked for by name joins the editions, in order
        books = sorted([*books, book], key=lambda b: edition_key(book_info(store, b)["edition"]))
    anchor_book = book or next((b for b in reversed(books) if find_number(store, b, number)), None)
    if anchor_book is None:
        return None
    anchor = find_number(store, anchor_book, number)
    if anchor is None:
        return None
    rules = {b: {e.number: e for e in read_rules(store, b)} for b in books}
    k0 = books.index(anchor_book)
    matchings = [match_rules(list(rules[a].values()), list(rules[b].values())) for a, b in zip(books, books[1:])]
    at: list[str | None] = [None] * len(books)
    at[k0] = anchor
    for k in range(k0, len(books) - 1):  # forwards
        number_k = at[k]
        at[k + 1] = matchings[k].forward().get(number_k) if number_k else None
    for k in range(k0, 0, -1):  # backwards
        back = {v: o for o, v in matchings[k - 1].forward().items()}
        number_k = at[k]
        at[k - 1] = back.get(number_k) if number_k else None
    info = {b: book_info(store, b) for b in books}
    out = []
    for k, b in enumerate(books):
        number_k, number_before = at[k], (at[k - 1] if k else None)
        here = rules[b].get(number_k) if number_k else None
        entry = {
            "book": b,
            "edition": info[b]["edition"],
            "number": at[k],
            "text": here.content if here else None,
            "status": None,
            "from": None,
            "similarity": None,
            "confidence": None,
            "diff": None,
        }
        before = rules[books[k - 1]].get(number_before) if number_before else None
        if k == 0:
            entry["status"] = "present" if here else "absent"
        elif here is None:
            entry["status"] = "removed" if before is not None else "absent"
        elif before is None:
            entry["status"] = "added"
        else:
            moved, reworded = before.number != here.number, before.key != here.key
            entry["status"] = (
                "renumbered and changed"
                if moved and reworded
                else "renumbered"
                if moved
                else "changed"
                if reworded
                else "unchanged"
            )
            entry["from"] = before.number
            pair = next((p for p in matchings[k - 1].pairs if p.old == before.number), None)
            entry["similarity"], entry["confidence"] = (pair.similarity, pair.confidence) if pair else (1.0, "high")
            if reworded:
                entry["diff"] = word_diff(before.content, here.content)
        out.append(entry)
    return History(game, anchor, anchor_book, out)


# Citation tables against a book --------------------------------------------------------------------
def phrase_in(phrase: str, text: str) -> bool:
    """Whether ``text`` says ``phrase`` (case, whitespace and curly quotes aside), as the citation
    tests read it."""
    return _norm(phrase).lower() in _norm(text).lower()


def carry_phrase(phrase: str, old: str, new: str) -> str | None:
    """The words of ``new`` standing where ``phrase`` stood in ``old``, through the word diff: what a
    reworded rule now says in place of a citation's phrase.

    >>> carry_phrase("any unspent mana left", "Then any unspent mana left in a player's pool empties.",
    ...              "When a step ends, any unused mana left in a player's pool empties.")
    'any unused mana left'
    >>> carry_phrase("gone words", "Some gone words here.", "Nothing alike.") is None
    True
    """
    a = old.split()
    na = [w.translate(_QUOTES).lower() for w in a]
    want = _norm(phrase).lower().split()
    if not want:
        return None
    # The phrase's words in the old text (its first and last words may carry punctuation there).
    start = None
    for i in range(len(na) - len(want) + 1):
        window = na[i : i + len(want)]
        if window[1:-1] == want[1:-1] and window[0].endswith(want[0]) and window[-1].startswith(want[-1]):
            start = i
            break
    if start is None:
        return None
    end = start + len(want)
    b = new.split()
    nb = [w.translate(_QUOTES).lower() for w in b]
    lo = hi = None
    for op, i1, i2, j1, j2 in difflib.SequenceMatcher(None, na, nb, autojunk=False).get_opcodes():
        if i2 <= start or i1 >= end:
            continue
        if op == "equal":
            first = j1 + max(0, start - i1)
            last = j1 + min(i2, end) - i1
        else:
            first, last = j1, j2
        lo = first if lo is None else min(lo, first)
        hi = last if hi is None else max(hi, last)
    if lo is None or hi is None or hi <= lo:
        return None
    words = b[lo:hi]
    equal = sum(1 for w in [x.translate(_QUOTES).lower() for x in words] if w in set(want))
    if equal * 2 < len(want):  # mostly other words: not the same statement
        return None
    return " ".join(words).strip(" ,;:.")


@dataclass(frozen=True)
class CitationCheck:
    """An engine's citation table read against a book (docs/json.md, ``judge citations``)."""

    game: str
    table: str  # the table's edition
    book: str
    edition: str | None
    partial: bool
    via: str | None  # the book of the table's edition whose diff with ``book`` followed moved rules
    keys: list[dict]

    def to_json(self) -> dict:
        counts = {s: 0 for s in ("ok", "moved", "reworded", "missing", "outside_excerpt")}
        for k in self.keys:
            counts[k["status"]] += 1
        return {
            "game": self.game,
            "table": self.table,
            "book": self.book,
            "edition": self.edition,
            "partial": self.partial,
            "via": self.via,
            "counts": counts,
            "keys": self.keys,
        }

    @property
    def unresolved(self) -> list[dict]:
        return [k for k in self.keys if k["proposed"] is None]

    def table_for_book(self) -> dict[str, dict]:
        """The citations as the book numbers them: each key's proposed rules and phrase."""
        return {k["key"]: {"rules": k["proposed"], "phrase": k["proposed_phrase"] or k["phrase"]} for k in self.keys}


def check_citations(store: Store, table: dict, book: str, via: str | None = None) -> CitationCheck:
    """Check a citation table (``{"game", "edition", "citations": {key: {"rules", "phrase"}}}``) against
    ``book``: each key's rules exist there and still say the key's phrase (the phrase in their texts
    together: Magic's tables put it in the first rule, Riftbound's sometimes in a later one).

    A key that fails is followed: through the diff from ``via`` (a loaded book of the table's own
    edition) to ``book``, each of its rules to where the matching puts it; else (or when the rule the
    diff gives no longer says the phrase) to the one rule of ``book`` that says the phrase. Statuses:
    ``ok``; ``moved`` (found under another number, saying the phrase); ``reworded`` (the diff follows
    the rule, which no longer says the phrase: ``proposed_phrase`` is what it says in its place, for a
    judge to read); ``missing`` (nothing found); ``outside_excerpt`` (``book`` is an excerpt lacking
    the rule: nothing can be said).
    """
    info = book_info(store, book)
    rules = {e.number: e for e in read_rules(store, book)}
    forward: dict[str, str] = {}
    source: dict[str, Entry] = {}
    if via is not None and via != book:
        source = {e.number: e for e in read_rules(store, via)}
        forward = match_rules(list(source.values()), list(rules.values())).forward()
    saying: dict[str, list[str]] = {}

    def says(phrase: str) -> list[str]:
        if phrase not in saying:
            saying[phrase] = [n for n, e in rules.items() if phrase and phrase_in(phrase, e.content)]
        return saying[phrase]

    out = []
    for key, entry in table["citations"].items():
        wanted = [str(r) for r in (entry.get("rules") or [entry.get("rule")])]
        phrase = str(entry.get("phrase") or "")
        first = rules.get(wanted[0])
        item = {
            "key": key,
            "rules": wanted,
            "phrase": phrase,
            "status": "ok",
            "proposed": None,
            "proposed_phrase": None,
            "found_by": None,
            "text": first.content if first else None,
            "candidates": [],
        }
        out.append(item)

        def say(numbers_: list[str]) -> bool:
            return not phrase or phrase_in(phrase, " ".join(rules[n].content for n in numbers_ if n in rules))

        same_place = not forward or all(forward.get(r) == r for r in wanted)
        if all(r in rules for r in wanted) and say(wanted) and same_place:
            item["proposed"] = wanted
            continue
        if info["partial"] and first is None:
            item["status"] = "outside_excerpt"
            continue
        followed = [forward.get(r) for r in wanted] if forward else []
        head = rules.get(followed[0]) if followed and followed[0] else None
        kept = list(dict.fromkeys(f for f in followed if f))
        if head is not None and say(kept):
            item.update(status="moved" if kept != wanted else "ok", found_by="diff", text=head.content, proposed=kept)
            continue
        candidates = says(phrase) if phrase else []
        item["candidates"] = candidates[:10]
        rest = kept[1:] if forward else [r for r in wanted[1:] if r in rules]
        if len(candidates) == 1:
            proposed = list(dict.fromkeys([candidates[0], *rest]))
            item.update(
                status="moved" if proposed != wanted else "ok",
                found_by="phrase",
                proposed=proposed,
                text=rules[candidates[0]].content,
            )
        elif head is not None:
            carried = carry_phrase(phrase, source[wanted[0]].content, head.content) if wanted[0] in source else None
            item.update(
                status="reworded",
                found_by="diff",
                text=head.content,
                proposed_phrase=carried,
                proposed=kept if carried else None,
            )
        else:
            item["status"] = "missing"
    return CitationCheck(
        info["game"],
        str(table.get("edition")),
        book,
        info["edition"],
        info["partial"],
        via if via != book else None,
        out,
    )
