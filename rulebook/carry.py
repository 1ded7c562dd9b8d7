"""Citation tables carried onto a book of an edition no table was written for.

An engine cites by key (``priority.pass``); a table numbers the keys for one edition. A judge holds
editions the package has never seen, so a table is carried onto the book by itself: each key's rules
are found in the book and checked to say the key's phrase, or the key is reported *not located*. A
rule is never quoted under a key whose phrase it does not contain.

How a key is placed, from each table in turn (the tables that place most keys first):

1. **By the text of the rule.** A shipped table comes with a *signature* of each rule it names
   (``data/citations/signatures/<game>-<edition>.json``): the hashed words and word pairs of the rule's
   text, cited numbers masked; not the text itself. The rule of the book whose words are most like the
   signature's (Dice similarity at least :data:`SIMILAR`, and clear of the next best by
   :data:`MARGIN`, or the same number as in the table) is that rule's place.
2. **Checked by its phrase.** The rules placed for a key must together say the key's phrase (the
   phrase of any table: the wording changes between editions). A first rule placed but no longer saying
   it, or not placed, is looked for by the phrase alone: the one rule saying it, or among several, the
   one most like the signature (the same number first).
3. The other rules of a key (a key citing two rules) are kept where their text was found; one not found
   is left out and reported with the key (``partly``).

The result (:class:`Carried`) is a table in the shipped format plus a report: where each key came
from, the keys not located. It is computed once per book and kept (scenarios.citations caches it beside
the library, keyed by the book's fingerprint and the tables' digest).

>>> sig = signature("The active player gets priority in the upkeep step.")
>>> round(similarity(sig, signature("In the upkeep step, the active player gets priority.")), 2) > 0.6
True
"""

from __future__ import annotations

import zlib
from collections import defaultdict
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from rulebook.diff import _QUOTES, Entry, content_words

VERSION = 6  # part of every cached carrying: a change here carries every book again
SIMILAR = 0.5  # Dice similarity of a rule's words with a signature for the rule to be "the same rule"
MARGIN = 0.08  # how far the best rule must lead the next to be chosen by its words alone
SUPPORT = 0.3  # a rule found by its phrase must be at least this like the signature (when there is one)
HEADINGS_MARGIN = 0.2  # or sit under all of the signature's headings, its rivals under clearly fewer
SAME_PLACE = 0.5  # a rule found by its phrase elsewhere must sit under headings half of whose words it had


def signature(text: str, context: str = "") -> frozenset[int]:
    """The hashed content words and word pairs of a rule's text (cited numbers masked), and the words of
    the headings it sits under (``context``, marked as such): what a shipped table keeps of each rule it
    names, to find the rule again in another edition. The headings tell apart the rules every step has
    ("the active player gets priority")."""
    words = content_words(text)
    grams = [*words, *(f"{a} {b}" for a, b in zip(words, words[1:])), *(f"^{w}" for w in content_words(context))]
    return frozenset(zlib.crc32(g.encode("utf-8")) & 0xFFFFFF for g in grams)


def context_of(rules: Mapping[str, Entry], entry: Entry, depth: int = 2) -> str:
    """The titles of the headings above a rule (its parent's and grandparent's), the rule's own excluded."""
    titles: list[str] = []
    parent = entry.parent
    while parent and len(titles) < depth:
        up = rules.get(parent)
        if up is None:
            break
        if up.title:
            titles.append(up.title)
        parent = up.parent
    return " ".join(titles)


def rule_signature(rules: Mapping[str, Entry], entry: Entry) -> frozenset[int]:
    return signature(entry.content, context_of(rules, entry))


# The Comprehensive Rules' move to the singular "they" (2017-2018) rewrote "his or her turn" as "their
# turn" in hundreds of rules; word for word the same statement. Only the forms that stand one for one
# (no verb to agree) are read alike.
_PRONOUNS = ((" his or her ", " their "), (" him or her ", " them "), (" himself or herself ", " themselves "))


def norm(text: str) -> str:
    """Text as a phrase is looked for in it (case, whitespace and curly quotes aside, as
    rulebook.diff.phrase_in; and "his or her" read as "their")."""
    out = " " + " ".join((text or "").translate(_QUOTES).split()).lower() + " "
    for old, new in _PRONOUNS:
        out = out.replace(old, new)
    return out.strip()


def encode(sig: Iterable[int]) -> str:
    return " ".join(f"{h:06x}" for h in sorted(sig))


def decode(text: str) -> frozenset[int]:
    return frozenset(int(h, 16) for h in text.split())


def similarity(a: frozenset[int], b: frozenset[int]) -> float:
    return 2 * len(a & b) / (len(a) + len(b)) if a or b else 0.0


def table_signatures(rules: Mapping[str, Entry], table: Mapping[str, Any]) -> dict[str, str]:
    """The signature of every rule a table names, from a book of the table's edition."""
    out = {}
    for entry in table["citations"].values():
        for number in entry.get("rules") or []:
            if str(number) in rules:
                out[str(number)] = encode(rule_signature(rules, rules[str(number)]))
    return dict(sorted(out.items()))


@dataclass(frozen=True)
class Source:
    """A table to carry from: its edition, its keys, its rules' signatures (maybe none)."""

    edition: str
    citations: Mapping[str, Mapping[str, Any]]
    signatures: Mapping[str, frozenset[int]] = field(default_factory=dict)


@dataclass(frozen=True)
class Placed:
    key: str
    rules: tuple[str, ...]  # empty: not located
    phrase: str
    table: str  # the edition of the table it was carried from ('' when not located)
    found_by: str  # "number", "text", "phrase" or "" (not located)
    left_out: tuple[str, ...] = ()  # rules of the table's entry not found (the key is partly located)


@dataclass(frozen=True)
class Carried:
    """A table carried onto ``book``: ``citations`` in the shipped format (unlocated keys with no rules)."""

    game: str
    book: str
    edition: str | None
    tables: tuple[str, ...]  # the tables carried from, most used first
    placed: tuple[Placed, ...]

    @property
    def citations(self) -> dict[str, dict[str, Any]]:
        return {p.key: {"rules": list(p.rules), "phrase": p.phrase} for p in self.placed}

    @property
    def unlocated(self) -> list[str]:
        return [p.key for p in self.placed if not p.rules]

    @property
    def partly(self) -> list[Placed]:
        return [p for p in self.placed if p.rules and p.left_out]

    @property
    def table(self) -> str:
        """The table most keys came from."""
        return self.tables[0] if self.tables else ""

    def to_json(self) -> dict[str, Any]:
        return {
            "game": self.game,
            "book": self.book,
            "edition": self.edition,
            "tables": list(self.tables),
            "keys": [
                {
                    "key": p.key,
                    "rules": list(p.rules),
                    "phrase": p.phrase,
                    "table": p.table,
                    "found_by": p.found_by,
                    "left_out": list(p.left_out),
                }
                for p in self.placed
            ],
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Carried:
        return cls(
            data["game"],
            data["book"],
            data.get("edition"),
            tuple(data["tables"]),
            tuple(
                Placed(
                    k["key"], tuple(k["rules"]), k["phrase"], k["table"], k["found_by"], tuple(k.get("left_out") or ())
                )
                for k in data["keys"]
            ),
        )


class _Book:
    """The rules of the book carried onto, with an index from hashed word to rules."""

    def __init__(self, rules: list[Entry], rulings: Iterable[str] = ()):
        self.rules = {e.number: e for e in rules}
        self.rulings = set(rulings)
        self.sig = {e.number: rule_signature(self.rules, e) for e in rules}
        self.heads = {e.number: signature("", context_of(self.rules, e)) for e in rules}
        self.norm = {e.number: norm(e.content) for e in rules}
        self.index: dict[int, list[str]] = defaultdict(list)
        for number, sig in self.sig.items():
            for h in sig:
                self.index[h].append(number)
        self._saying: dict[str, list[str]] = {}

    def exists(self, number: str) -> bool:
        return number in self.rules or number in self.rulings

    def says(self, phrase: str) -> list[str]:
        if phrase not in self._saying:
            p = norm(phrase)
            self._saying[phrase] = [n for n, t in self.norm.items() if p in t]
        return self._saying[phrase]

    def say(self, numbers: list[str], phrase: str) -> bool:
        """Whether these rules together say ``phrase``."""
        return norm(phrase) in " ".join(self.norm.get(n, "") for n in numbers)

    def nearest(self, sig: frozenset[int]) -> list[tuple[float, str]]:
        """The rules sharing words with ``sig``, most alike first."""
        shared: dict[str, int] = defaultdict(int)
        for h in sig:
            for number in self.index.get(h, ()):
                shared[number] += 1
        scored = [(2 * n / (len(sig) + len(self.sig[number])), number) for number, n in shared.items()]
        return sorted(scored, key=lambda x: (-x[0], x[1]))


def _by_text(book: _Book, number: str, sig: frozenset[int] | None) -> str | None:
    """Where the rule ``number`` of the table's edition is in ``book``, by its words."""
    if not sig:
        return None
    ranked = book.nearest(sig)
    if not ranked or ranked[0][0] < SIMILAR:
        return None
    best, choice = ranked[0]
    rivals = [n for s, n in ranked[1:] if best - s < MARGIN]
    if not rivals:
        return choice
    tied = [choice, *rivals]
    return number if number in tied else None  # texts alike: the same number, else nobody can tell


def _place(book: _Book, key: str, entry: Mapping[str, Any], source: Source, phrases: list[str]) -> Placed | None:
    wanted = [str(r) for r in (entry.get("rules") or [])]
    if not wanted:
        return None
    found: list[str | None] = []
    how = []
    for number in wanted:
        if not _looks_like_rule(number):  # an FAQ ruling's id: the same ruling, wherever the game keeps it
            found.append(number if book.exists(number) else None)
            how.append("number")
            continue
        sig = source.signatures.get(number)
        at = _by_text(book, number, sig)
        if at is not None:
            found.append(at)
            how.append("number" if at == number else "text")
        elif not sig and number in book.rules:
            found.append(number)  # no signature: the same number, which the phrase then checks
            how.append("number")
        else:
            found.append(None)
            how.append("")

    def says(numbers: list[str], phrase: str) -> bool:
        if not phrase:
            return True
        if any(not _looks_like_rule(n) for n in numbers):
            return True  # a ruling's text is the FAQ's; the table's own test checks its phrase
        return book.say(numbers, phrase)

    kept = [f for f in found if f]
    left = tuple(w for w, f in zip(wanted, found) if not f)
    for phrase in phrases:
        if found[0] and says(list(dict.fromkeys(kept)), phrase):
            return Placed(key, tuple(dict.fromkeys(kept)), phrase, source.edition, how[0], left)
    # The first rule moved or reworded past its words: the rule that says the phrase.
    for phrase in phrases:
        if not phrase or not _looks_like_rule(wanted[0]):
            continue
        saying = book.says(phrase)
        if not saying:
            continue
        sig = source.signatures.get(wanted[0])
        if sig:  # the text must back the phrase: a rule alike enough, and clearly the likest ...
            order = sorted(((similarity(sig, book.sig[n]), n) for n in saying), key=lambda x: (-x[0], x[1]))
            if order[0][0] < SUPPORT or (
                len(order) > 1 and order[0][0] - order[1][0] < MARGIN and wanted[0] not in (order[0][1], order[1][1])
            ):
                head = _under_same_headings(book, sig, saying)  # ... or the one under the same headings
                if head is None:
                    continue
            else:
                head = (
                    wanted[0]
                    if wanted[0] in saying and order[0][0] - similarity(sig, book.sig[wanted[0]]) < MARGIN
                    else order[0][1]
                )
                if head != wanted[0] and _headings_shared(book, sig, head) < SAME_PLACE:
                    continue  # the same words in another part of the rules (a showdown's conquer for a combat's)
        elif len(saying) == 1 or wanted[0] in saying:
            head = wanted[0] if wanted[0] in saying else saying[0]
        else:
            continue
        rest = [f for f in found[1:] if f and f != head]
        left = tuple(w for w, f in zip(wanted[1:], found[1:]) if not f)
        return Placed(key, (head, *dict.fromkeys(rest)), phrase, source.edition, "phrase", left)
    return None


def _headings_shared(book: _Book, sig: frozenset[int], number: str) -> float:
    """How many of the words of the headings above ``number`` the signature has (1.0 when it has none)."""
    heads = book.heads[number]
    return len(heads & sig) / len(heads) if heads else 1.0


def _under_same_headings(book: _Book, sig: frozenset[int], saying: list[str]) -> str | None:
    """Among rules that say a phrase, the one whose headings are all the signature's and whose rivals'
    are clearly not: the rules every step has ("Second, the active player gets priority") told apart by
    their step when their words have changed around the phrase."""
    scored = []
    for n in saying:
        heads = book.heads[n]
        if heads:
            scored.append((len(heads & sig) / len(heads), n))
    scored.sort(key=lambda x: (-x[0], x[1]))
    if not scored or scored[0][0] < 1.0 or (len(scored) > 1 and scored[1][0] > scored[0][0] - HEADINGS_MARGIN):
        return None
    return scored[0][1]


def _looks_like_rule(number: str) -> bool:
    return number[:1].isdigit()


def carry(
    game: str, book: str, edition: str | None, rules: list[Entry], sources: list[Source], rulings: Iterable[str] = ()
) -> Carried:
    """Carry the tables ``sources`` onto ``book`` (its ``rules``, the ids of the FAQ rulings its game
    has): every key any table has, placed from the table that places most keys, else from the next."""
    target = _Book(rules, rulings)
    keys = list(dict.fromkeys(k for s in sources for k in s.citations))
    phrases: dict[str, list[str]] = {}
    for s in sources:
        for k, entry in s.citations.items():
            p = str(entry.get("phrase") or "")
            if p not in phrases.setdefault(k, []):
                phrases[k].append(p)
    attempts: dict[str, dict[str, Placed]] = {}
    for s in sources:
        attempts[s.edition] = {}
        for k, entry in s.citations.items():
            own = [str(entry.get("phrase") or "")]
            placed = _place(target, k, entry, s, own + [p for p in phrases[k] if p not in own])
            if placed is not None:
                attempts[s.edition][k] = placed
    order = sorted(sources, key=lambda s: -len(attempts[s.edition]))
    out = []
    used: dict[str, int] = defaultdict(int)
    for k in keys:
        chosen = next((attempts[s.edition][k] for s in order if k in attempts[s.edition]), None)
        if chosen is None:
            first = next(s for s in order if k in s.citations)
            chosen = Placed(k, (), str(first.citations[k].get("phrase") or ""), "", "")
        else:
            used[chosen.table] += 1
        out.append(chosen)
    tables = tuple(sorted(used, key=lambda t: -used[t]))
    return Carried(game, book, edition, tables, tuple(out))
