"""What the rulings of an older book are in a newer one of its game: the revisions across the two
books (the rulings reader's linking) and each ruling's rules followed through the diff's matching.

Made when the library is written (:meth:`rulebook.library.Library.sync`, :func:`make_pairs`) and stored
in judge.db's ``ruling_pairs``; a lookup reads them (:func:`rulebook.game_rulings.pair`) and never
imports the diff. ``VERSION`` is part of every book's fingerprint: change it when what is computed
here changes, and every library is rebuilt.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from rulebook import diff as d
from rulebook.game_rulings import older_books, rests_on
from rulebook.model import Ruling
from rulebook.readers.rulings import link_revisions

if TYPE_CHECKING:
    from collections.abc import Callable

    from rulebook.store import Store

VERSION = 1


def needed_pairs(store: Store) -> list[tuple[str, str]]:
    """Every (old, new) pair a lookup reads: each book with each older book of its game holding rulings."""
    rows = store.book_rows()
    return [(old, r.id) for r in rows for old in older_books(store, r.id, rows)]


def make_pairs(
    store: Store, have: set[tuple[str, str]], progress: Callable[[str], None] | None = None
) -> list[tuple[str, str, dict, dict]]:
    """``(old, new, revised, cites)`` of each needed pair not in ``have``."""
    out = []
    for old, new in needed_pairs(store):
        if (old, new) in have:
            continue
        if progress:
            progress(f"rulings of {old} read in {new}")
        out.append((old, new, revised_across(store, old, new), follow_rules(store, old, new)))
    return out


def revised_across(store: Store, old: str, new: str) -> dict[str, list[str]]:
    """``{old ruling id: [new ruling ids]}``: the rulings of ``new`` that revise one of ``old``'s, found
    as within one book (:func:`rulebook.readers.rulings.link_revisions`: a later-dated FAQ asking the
    same question again, or naming the same subject and saying it changes something)."""
    rows = {b: store.ruling_rows(b) for b in (old, new)}
    if not any(r.published for r in rows[old]) or not any(r.published for r in rows[new]):
        return {}  # an undated FAQ revises nothing and is revised by nothing
    game = store.game_of(new)
    both = [
        Ruling(
            id=f"{b}\0{r.id}",
            question=r.question,
            answer=r.answer,
            topic=r.topic,
            source=r.source or "",
            line=r.line or 0,
            form=r.form or "question",
            faq=r.faq,
            published=r.published,
        )
        for b in (old, new)
        for r in rows[b]
    ]
    out: dict[str, list[str]] = {}
    for later in link_revisions(both, game):
        later_book, later_id = later.id.split("\0", 1)
        if later_book != new:
            continue
        for earlier in later.revises:
            earlier_book, earlier_id = earlier.split("\0", 1)
            if earlier_book == old:
                out.setdefault(earlier_id, []).append(later_id)
    return out


def follow_rules(store: Store, old: str, new: str) -> dict[str, list[dict]]:
    """``{old ruling id: [cite]}``: each rule a ruling of ``old`` rests on, followed into ``new`` through
    the diff's matching. A cite: ``rule`` and ``title`` (in ``old``), ``found_by``, ``in_book`` (``new``),
    ``now`` (its number in ``new``, or null), ``status``, ``changed``, ``changes`` (the rule and sub-rules
    reworded, gone or added since: ``rule``, ``now``, ``status``, ``diff``) and ``diff`` (the rule's own
    words changed, or null)."""
    rests = rests_on(store, old)
    if not any(rests.values()):
        return {}
    old_rules = d.read_rules(store, old)
    new_rules = d.read_rules(store, new)
    old_by = {e.number: e for e in old_rules}
    new_by = {e.number: e for e in new_rules}
    forward: dict[str, str] = {}
    if old_rules and new_rules:
        forward = d.match_rules(old_rules, new_rules).forward()
    backward = {v: k for k, v in forward.items()}
    partial_new = store.is_partial(new)
    kids_old = _kids(old_rules)
    kids_new = _kids(new_rules)

    def status(number: str, now: str) -> str:
        moved = now != number
        reworded = old_by[number].key != new_by[now].key
        return "moved and changed" if moved and reworded else "moved" if moved else "changed" if reworded else "same"

    followed: dict[str, dict] = {}

    def one(number: str, how: str) -> dict:
        cite: dict[str, Any] = {
            "rule": number,
            "title": old_by[number].title if number in old_by else None,
            "found_by": how,
            "in_book": new,
            "now": None,
            "status": "unchecked",
            "changed": False,
            "changes": [],
            "diff": None,
        }
        if number not in old_by:  # the ruling's own book lacks it: an excerpt's, or a book of rulings alone
            cite["now"] = number if number in new_by else None
            return cite
        if number not in followed:
            now = forward.get(number)
            if now is None:
                followed[number] = {
                    "now": None,
                    "status": "unchecked" if partial_new else "gone",
                    "changed": not partial_new,
                    "changes": [],
                    "diff": None,
                }
            else:
                changes = []
                for x in _subtree(kids_old, number):
                    nx = forward.get(x)
                    if nx is None:
                        if not partial_new:
                            changes.append(
                                {"rule": x, "now": None, "status": "gone", "diff": None, "references_only": False}
                            )
                    elif old_by[x].key != new_by[nx].key:
                        a, b = old_by[x].content, new_by[nx].content
                        changes.append(
                            {
                                "rule": x,
                                "now": nx,
                                "status": status(x, nx),
                                "diff": d.word_diff(a, b),
                                "references_only": d.masked(a) == d.masked(b),
                            }
                        )
                for y in _subtree(kids_new, now):
                    if y not in backward:
                        changes.append(
                            {"rule": None, "now": y, "status": "added", "diff": None, "references_only": False}
                        )
                own = next((c for c in changes if c["rule"] == number), None)
                followed[number] = {
                    "now": now,
                    "status": status(number, now),
                    "changed": any(not c.get("references_only") for c in changes),
                    "changes": changes,
                    "diff": own["diff"] if own else None,
                }
        cite.update(followed[number])
        return cite

    return {rid: [one(n, how) for n, how in found] for rid, found in rests.items() if found}


def _kids(entries) -> dict[str, list[str]]:
    out: dict[str, list[str]] = {}
    for e in entries:
        if e.parent is not None:
            out.setdefault(e.parent, []).append(e.number)
    return out


def _subtree(kids: dict[str, list[str]], number: str) -> list[str]:
    out, todo = [], [number]
    while todo:
        n = todo.pop(0)
        out.append(n)
        todo[:0] = kids.get(n, [])
    return out


# A book read with its older books' rulings ---------------------------------------------------------
