"""Stage 4, ranking by meaning: the call into the sentence model (:mod:`rulebook.vectors`).

The only place search touches the model. Without it (no NumPy, no model files, a refused adapter)
:func:`nearest` raises :class:`~rulebook.model.ModelUnavailable` and search ranks by words alone.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, NamedTuple

from rulebook.shipped import ModelUnavailable

if TYPE_CHECKING:
    from rulebook.store import Store


class Near(NamedTuple):
    """A rule near the query in meaning."""

    number: str
    cosine: float
    remembered: str | None  # the remembered training question that brought it, when the model says so


class Nearby(list):
    """The rules near a query, best first; ``familiar``: the query's cosine with the nearest remembered
    judges' question of the book (1.0 when it has none)."""

    familiar: float = 1.0


def nearest(store: Store, book: str, query: str, depth: int) -> Nearby:
    """The book's ``depth`` rules nearest the query in meaning, best first."""
    try:
        from rulebook import vectors
    except ImportError as exc:
        raise ModelUnavailable(f"NumPy is not installed ({exc})") from exc
    found = vectors.nearest(store, book, query, depth)
    out = Nearby(Near(number, cosine, via[0] if via else None) for number, cosine, *via in found)
    out.familiar = getattr(found, "familiar", 1.0)
    return out
