"""Finding a card as a judge names it, and what the rules and the FAQs say about it.

- :func:`find_card`: an exact name, a part of one (``bolt``, ``jinx rebel``) or a misspelt one
  (``lightning blot``), in one game or every game; several cards equally likely are not guessed
  between: they come back as suggestions.
- :func:`links`: the card's keywords and keyword actions, each linked to the rule of a rules book
  that defines it (Magic: 702.x and 701.x; Riftbound: its keyword and action rules), found by the
  rule's title, never by a number written here.
- :func:`faq_rulings`: the rulings of the loaded FAQs that name the card.

>>> _words("Kill a unit. Then ready it.")
['kill', 'a', 'unit', 'then', 'ready', 'it']
"""

from __future__ import annotations

import re
from collections import defaultdict
from dataclasses import dataclass
from typing import Any

SCORE_CUTOFF = 80  # a misspelt name: rapidfuzz WRatio at least this (lightning blot -> Lightning Bolt: 93)
TIE = 2  # names scoring within this of the best are equally likely: a suggestion, not a guess


@dataclass(frozen=True, slots=True)
class Found:
    card: Any  # rulebook.cards.model.Card
    matched: str  # "exact", "part" or "spelling"


# Punctuation read as a space (an apostrophe as nothing: "smugglers copter"), by one str.translate: a
# lookup normalises every name of the library, 16,000 for the Magic test files.
_PUNCT = {ord(c): " " for c in ",.:;!?()[]{}\"-—–+*&%$#@^~`|\\<>="} | {ord("'"): None, ord("’"): None}


def _norm(name: str) -> str:
    return " ".join(name.lower().translate(_PUNCT).split())


def find_card(store, name: str, game: str | None = None) -> tuple[Found | None, list[str]]:
    """The card ``name`` names, or None with the names it may have meant."""
    from rapidfuzz import fuzz, process

    from rulebook.editions import GAMES

    for g in ([game] if game else GAMES):  # the name as printed: one indexed look-up a game
        card = store.card(g, name.strip())
        if card is not None and (game or not any(store.card(o, name.strip()) for o in GAMES if o != g)):
            return Found(card, "exact"), []
    names = store.names(game)
    if not names:
        return None, []
    wanted = _norm(name)
    exact = [(g, n) for g, n in names if _norm(n) == wanted or _norm(n.split(" // ")[0]) == wanted]
    if len(exact) == 1 or (exact and len({n for _, n in exact}) == 1):
        g, n = exact[0]
        return Found(store.card(g, n), "exact"), []
    if exact:
        return None, [f"{n} ({g})" for g, n in exact]
    # A part of the name: every word the judge typed begins a word of the name.
    words = wanted.split()
    part = []
    for g, n in names:
        theirs = _norm(n).split()
        if words and all(any(t.startswith(w) for t in theirs) for w in words):
            part.append((len(theirs) - len(words), len(n), g, n))
    if part:
        part.sort()
        best = [p for p in part if p[0] == part[0][0]]
        if len(best) > 1:  # names as close as each other: the card printed in most sets ("bolt")
            printed = sorted(((len(store.card(g, n).sets), g, n) for _, _, g, n in best[:50]), reverse=True)
            if printed[0][0] > printed[1][0]:
                best = [(0, 0, printed[0][1], printed[0][2])]
        if len(best) == 1:
            return Found(store.card(best[0][2], best[0][3]), "part"), []
        return None, [f"{n} ({g})" if game is None else n for _, _, g, n in best[:8]]
    choices = {i: _norm(n) for i, (g, n) in enumerate(names)}
    ranked = process.extract(wanted, choices, scorer=fuzz.WRatio, limit=8, score_cutoff=SCORE_CUTOFF)
    if not ranked:
        near = process.extract(wanted, choices, scorer=fuzz.WRatio, limit=3, score_cutoff=60)
        return None, [names[i][1] for _, _, i in near]
    top = ranked[0][1]
    tied = [names[i] for _, score, i in ranked if score >= top - TIE]
    if len(tied) == 1:
        g, n = tied[0]
        return Found(store.card(g, n), "spelling"), []
    return None, [n for _, n in tied]


# -- links to the rules ---------------------------------------------------------------------------------
def _words(text: str) -> list[str]:
    return re.findall(r"[a-z][a-z'-]*", text.lower())


def term_rules(rules_store, book: str) -> dict[str, str]:
    """Lower-case title -> rule number, for the rules of ``book`` that define a term a card uses: the
    rules of a section of short titled rules (Magic's 701 Keyword Actions and 702 Keyword Abilities,
    Riftbound's actions and keywords), found by the shape of the sections, not by their numbers."""
    rows = rules_store.query("SELECT number, parent, title FROM rules WHERE book = ? AND title IS NOT NULL "
                             "AND title != ''", [book])
    by_parent: dict[str | None, list[dict]] = defaultdict(list)
    for r in rows:
        by_parent[r["parent"]].append(r)
    out: dict[str, str] = {}
    for siblings in by_parent.values():
        short = [r for r in siblings if len(r["title"].split()) <= 3]
        if len(siblings) >= 6 and len(short) >= 0.8 * len(siblings):
            for r in short:
                out.setdefault(r["title"].lower(), r["number"])
    return out


def links(rules_store, book: str, card) -> list[dict[str, str]]:
    """Each keyword of the card, and each keyword action or other term its text uses that a rule of
    ``book`` is titled by, with that rule: ``{"word", "rule", "title", "kind"}`` (``keyword``, or ``term``
    for a word of the text: Magic's keyword actions and concepts such as Destroy, Exert, Damage)."""
    terms = term_rules(rules_store, book)
    out: list[dict[str, str]] = []
    seen: set[str] = set()
    for keyword in card.keywords:
        for title in _titles(keyword):
            number = terms.get(title) or _by_title(rules_store, book, title)
            if number:
                break
        if number and title not in seen:
            seen.add(title)
            out.append({"word": keyword, "rule": number, "title": title, "kind": "keyword"})
    words = _words(card.text)
    for i, word in enumerate(words):
        for form in _stems(word):
            number = terms.get(form)
            if number is None or form in seen or form in _keywords_lower(card):
                continue
            if form == "counter" and (i + 1 < len(words) and words[i + 1] in ("on", "of")
                                      or i and re.fullmatch(r"[a-z]+", words[i - 1] or "") and words[i - 1] in
                                      ("a", "an", "the", "loyalty", "poison", "charge", "time")):
                continue  # the noun ("a +1/+1 counter on it"), not the keyword action
            seen.add(form)
            out.append({"word": word, "rule": number, "title": form, "kind": "term"})
    return out


def _keywords_lower(card) -> set[str]:
    return {t for k in card.keywords for t in _titles(k)}


def _titles(keyword: str) -> list[str]:
    """The titles a keyword as printed may be defined under: itself, then without its parameter
    (``Assault 2`` -> assault; ``Ward {2}`` -> ward; ``Protection from red`` -> protection).

    >>> _titles("Assault 2"), _titles("Protection from red")
    (['assault 2', 'assault'], ['protection from red', 'protection from', 'protection'])
    """
    words = keyword.lower().replace("—", " ").split()
    return [" ".join(words[:n]) for n in range(len(words), 0, -1)]


def _stems(word: str) -> list[str]:
    """The word and the forms a keyword action's title may have: destroys/destroyed -> destroy."""
    out = [word]
    for suffix, repl in (("ies", "y"), ("es", ""), ("s", ""), ("ed", ""), ("ed", "e"), ("d", ""), ("ing", ""),
                         ("ing", "e")):
        if word.endswith(suffix) and len(word) > len(suffix) + 2:
            out.append(word[: -len(suffix)] + repl)
    return out


def _by_title(rules_store, book: str, title: str) -> str | None:
    rows = rules_store.query("SELECT number FROM rules WHERE book = ? AND lower(title) = lower(?) ORDER BY depth, sort "
                             "LIMIT 1", [book, title])
    return rows[0]["number"] if rows else None


def faq_rulings(rules_store, game: str, card) -> list[dict[str, Any]]:
    """The rulings of the loaded FAQs of ``game`` that name the card (its name, or a face's), each once."""
    names = {card.name, *(f.name for f in card.faces)}
    rows = []
    seen: set[tuple[str, str]] = set()
    for name in sorted(names):
        if len(name) < 3:
            continue
        found = rules_store.query(
            "SELECT rulings.book, rulings.id, rulings.faq, rulings.published, rulings.question, rulings.answer "
            "FROM rulings JOIN books ON books.id = rulings.book WHERE books.game = ? AND "
            "(rulings.question LIKE ? OR rulings.answer LIKE ?) ORDER BY rulings.published DESC, rulings.id",
            [game, f"%{name}%", f"%{name}%"])
        for r in found:
            if (r["faq"] or r["book"], r["id"]) in seen:
                continue
            if not re.search(rf"(?<!\w){re.escape(name)}(?!\w)", f"{r['question']} {r['answer']}", re.IGNORECASE):
                continue
            seen.add((r["faq"] or r["book"], r["id"]))
            rows.append(dict(r))
    return rows
