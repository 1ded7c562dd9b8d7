"""Stage 6, the answer a judge sees: a derived term counted as its rule, and rules first for a question.

A question is answered by rules. Glossary terms and rulings are ranked by bm25 on a scale of their
own, and a question full of defined words ("a triggered ability whose spell is countered") would fill
the top of the list with terms ("Reflexive Triggers", "Trigger Condition", "Countering"). For a
question-like query, at most ``Settings.rules_first_others`` of the first ``Settings.rules_first_top``
hits are terms or rulings; the others follow right after, so they are still shown beside the rules.
A short query naming a term ("deathtouch", "priority") keeps the plain order, the term first.
"""

from __future__ import annotations

from rulebook.search.hits import Hit
from rulebook.search.query import content_words, words
from rulebook.search.settings import DEFAULT, Settings

QUESTION_WORDS = frozenset(
    """
who whom whose what when where which why how can could do does did is are am was were will would shall
should may might must if
""".split()
)


def question_like(query: str, settings: Settings = DEFAULT) -> bool:
    """Whether the query reads as a question: it ends with "?", starts with a question word, or has
    more than ``settings.question_words`` content words.

    >>> [question_like(q) for q in ("deathtouch", "priority", "deathtouch and trample", "priority?",
    ...  "who gets priority", "triggered ability countered spell leaves")]
    [False, False, False, True, True, True]
    """
    said = words(query)
    if not said:
        return False
    return (
        query.rstrip().endswith("?") or said[0] in QUESTION_WORDS or len(content_words(query)) > settings.question_words
    )


def merge_derived(hits: list[Hit]) -> list[Hit]:
    """A derived term (Riftbound: a term its rule defines) counts as its rule: when that rule is a hit
    too, only the rule is kept, noting the term, at the better of the two places. Best first.

    >>> rule = Hit("rule", "rb", "312.1", "Priority", "...", 5.0)
    >>> term = Hit("term", "rb", "Priority", "Priority", "...", 9.0, rule="312.1")
    >>> [(h.kind, h.id, h.score, h.why) for h in merge_derived([term, rule])]
    [('rule', '312.1', 9.0, {'term': 'Priority'})]
    """
    rules = {(h.book, h.id) for h in hits if h.kind == "rule"}
    terms_of: dict[tuple[str, str], list[Hit]] = {}
    for h in hits:
        if h.kind == "term" and h.rule and (h.book, h.rule) in rules:
            terms_of.setdefault((h.book, h.rule), []).append(h)
    out = []
    for h in hits:
        if h.kind == "term" and h.rule and (h.book, h.rule) in terms_of:
            continue
        if h.kind == "rule" and (h.book, h.id) in terms_of:
            terms = sorted(terms_of[(h.book, h.id)], key=lambda t: -t.score)
            h = h.rescored(max(h.score, terms[0].score), term=terms[0].id)
        out.append(h)
    out.sort(key=lambda h: -h.score)
    return out


def rules_first(hits: list[Hit], query: str, settings: Settings = DEFAULT) -> list[Hit]:
    """The hits by score; for a question-like query, at most ``rules_first_others`` terms and rulings
    among the first ``rules_first_top`` while rules remain, the others right after them. Applying it
    again gives the same list (so it can follow a merge of several books' hits).

    >>> hits = [Hit("term", "b", t, t, "", 9.0 - i) for i, t in enumerate("ABCD")]
    >>> hits += [Hit("rule", "b", n, None, "", 4.0 - i) for i, n in enumerate(("1.1", "1.2", "1.3"))]
    >>> [h.id for h in rules_first(hits, "what happens when a trigger is countered")]
    ['A', 'B', '1.1', '1.2', '1.3', 'C', 'D']
    >>> [h.id for h in rules_first(hits, "trigger")]
    ['A', 'B', 'C', 'D', '1.1', '1.2', '1.3']
    """
    ranked = sorted(hits, key=lambda h: -h.score)
    if not question_like(query, settings):
        return ranked
    rules_left = sum(1 for h in ranked if h.kind == "rule")
    top: list[Hit] = []
    held: list[Hit] = []
    rest: list[Hit] = []
    for h in ranked:
        if len(top) >= settings.rules_first_top:
            rest.append(h)
        elif h.kind == "rule":
            top.append(h)
            rules_left -= 1
        elif sum(1 for t in top if t.kind != "rule") < settings.rules_first_others or not rules_left:
            top.append(h)
        else:
            held.append(h)
    return top + sorted(held + rest, key=lambda h: -h.score)
