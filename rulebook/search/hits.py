"""What a search returns: :class:`Hit` (one rule, term or ruling) and :class:`SearchResult`."""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from typing import Any

HIGHLIGHT = ("**", "**")  # how snippets mark the words that matched (documented in docs/json.md)


@dataclass(frozen=True)
class Hit:
    kind: str  # rule | term | ruling
    book: str
    id: str  # rule number, term, or ruling id
    title: str | None
    snippet: str | None  # None while owed: made for the hits shown (rulebook.search.lexical.Snippets)
    score: float
    rule: str | None = None  # a derived term's rule: the rule that defines it (Riftbound)
    why: dict[str, Any] = field(default_factory=dict, compare=False, hash=False)
    """Why it ranked where it did: what each stage saw (keys in docs/json.md; a stage that found
    nothing adds no key)."""
    read_in: str | None = field(default=None, repr=False)
    """The book whose search found the hit, when it is not the hit's own: a ruling of an older edition's
    book read with a newer one (rulebook.game_rulings)."""

    def to_json(self) -> dict[str, Any]:
        out = asdict(self)
        out["read_in"] = self.read_in or self.book
        return out

    def because(self, **reasons: Any) -> Hit:
        """The same hit with more reasons; a reason that is None, False, zero or empty is left out.

        >>> Hit("rule", "b", "1.1", None, "", 1.0).because(bm25=2.5, proximity=0, definition=None).why
        {'bm25': 2.5}
        """
        return self.rescored(self.score, **reasons)

    def rescored(self, score: float, **reasons: Any) -> Hit:
        """The same hit with another score and more reasons, in one copy: ``replace(hit,
        score=score).because(**reasons)``.

        >>> Hit("rule", "b", "1.1", None, "", 1.0, why={"bm25": 2.5}).rescored(3.0, fused=0.2, cosine=None)
        Hit(kind='rule', book='b', id='1.1', title=None, snippet='', score=3.0, rule=None, why={'bm25': 2.5, 'fused': 0.2})
        """
        # The constructor, not dataclasses.replace: a search copies a few hundred hits, and replace's
        # look at every field costs three times as much.
        return Hit(
            self.kind,
            self.book,
            self.id,
            self.title,
            self.snippet,
            score,
            self.rule,
            {**self.why, **{k: v for k, v in reasons.items() if v}},
            self.read_in,
        )


@dataclass(frozen=True)
class SearchResult:
    query: str
    corrected: str | None  # the query as corrected, when a word was misspelt
    hits: list[Hit] = field(default_factory=list)
    jumped: bool = False  # the query was a rule number
    ranking: str = "words"  # "words+meaning" when the sentence model ranked the rules too
    note: str | None = None  # why meaning was not used although asked for

    def to_json(self) -> dict[str, Any]:
        return {
            "query": self.query,
            "corrected": self.corrected,
            "ranking": self.ranking,
            "note": self.note,
            "hits": [h.to_json() for h in self.hits],
        }


def snippet(snip: str | None, text: str, title: str | None) -> str:
    """FTS5's snippet, whitespace folded; the start of the text when FTS5 marked nothing."""
    snip = (snip or "").strip()
    if not snip or HIGHLIGHT[0] not in snip:
        snip = snip or (text or title or "")[:160]
    return " ".join(snip.split())
