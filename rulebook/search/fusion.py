"""Stage 5, fusion: the words' ranking and the meaning's, as one list (reciprocal rank fusion).

A rule scores the sum over both lists of weight / (k + its rank there). Ranks, not scores, because
bm25 products and cosines have nothing in common; a small k lets a rule that one list puts first win
over one both lists put fifth. A rule only the meaning found is kept when its cosine is high enough.
"""

from __future__ import annotations

from rulebook.search import meaning
from rulebook.search.hits import Hit
from rulebook.search.index import SearchIndex
from rulebook.search.settings import DEFAULT, Settings
from rulebook.store import Store


def fuse(store: Store, query: str, book: str | None, lexical: list[Hit], settings: Settings = DEFAULT) -> list[Hit]:
    """The word-ranked rule hits and the sentence model's nearest rules, fused, best first.

    Scores keep the word ranker's scale (the n-th fused hit gets the n-th best word score), so rules
    still sort sensibly among terms and rulings. Raises ModelUnavailable without the model.
    """
    out: list[Hit] = []
    for b in [book] if book else store.book_ids():
        words_list = [h for h in lexical if h.book == b][: settings.fusion_depth]
        near = meaning.nearest(store, b, query, settings.fusion_depth)
        score: dict[str, float] = {}
        for rank, h in enumerate(words_list, 1):
            score[h.id] = score.get(h.id, 0.0) + 1 / (settings.fusion_k + rank)
        meaning_rank: dict[str, int] = {}
        for rank, n in enumerate(near, 1):
            # a rule no word matched needs a close meaning, and a query that reads like no judge's
            # question, or none of whose words this book uses, gets nothing from it by meaning alone
            if n.number in score or (
                words_list and near.familiar >= settings.meaning_familiar and n.cosine >= settings.meaning_only_cosine
            ):
                score[n.number] = score.get(n.number, 0.0) + settings.meaning_weight / (settings.fusion_k + rank)
                meaning_rank[n.number] = rank
        order = sorted(score, key=lambda n: -score[n])
        scale = sorted((h.score for h in words_list), reverse=True)
        cosine = {n.number: n.cosine for n in near}
        remembered = {n.number: n.remembered for n in near}
        found = {h.id: h for h in words_list}
        for i, number in enumerate(order):
            if i < len(scale):
                value = scale[i]
            elif scale:
                value = scale[-1] * settings.fused_tail_decay ** (i - len(scale) + 1)
            else:
                value = max(cosine.get(number, 0.0), 0.0)
            hit = found.get(number) or _rule_hit(store, b, number)
            near_enough = number in meaning_rank
            out.append(
                hit.rescored(
                    value,
                    meaning_rank=meaning_rank.get(number),
                    cosine=round(cosine[number], 3) if near_enough else None,
                    remembered=remembered.get(number) if near_enough else None,
                    fused=round(score[number], 4),
                )
            )
    out.sort(key=lambda h: -h.score)
    return out


def _rule_hit(store: Store, book: str, number: str) -> Hit:
    """A hit for a rule only the meaning found (its score set by :func:`fuse`)."""
    title, text = SearchIndex.of(store).rule_title_text(book, number)
    return Hit("rule", book, number, title, " ".join((text or title or "")[:160].split()), 0.0)
