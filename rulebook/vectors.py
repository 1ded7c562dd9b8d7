"""Meaning vectors of a book, computed when the book is built and stored with it in judge.db.

A rule is read by the static model (:mod:`rulebook.semantic`) as the titles of the headings above it,
its own title and its text: "Combat > Combat Damage Step. 510.1c ..." tells what a bare "A blocked
creature assigns ..." is about. Each example of a rule is a row of its own, and so is each remembered
training question (:mod:`rulebook.memory`) that one of the book's rules answers: a rule is as near a
question as the nearest of its rows. The rows live in the ``meaning`` table beside the rules, written
in the same transaction, so a book never exists without its vectors; the full Comprehensive Rules take
a fraction of a second.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, NamedTuple, cast

import numpy as np

from rulebook import semantic
from rulebook.search.index import SearchIndex, word_pieces_model, write_word_pieces
from rulebook.shipped import ModelUnavailable
from rulebook.store import Store

if TYPE_CHECKING:
    from rulebook.model import Rule

# Hubs: a static vector of a long list of words (205.3m, every creature type) sits near the centre of
# everything, and so near every question. Each row's hubness is its mean cosine with its HUB_NEIGHBOURS
# nearest of HUB_PROBES judges' questions (the remembered ones, a fixed draw); a question's nearness to
# a row is its cosine less HUB_PENALTY times that (as in cross-domain similarity local scaling).
# Chosen on the evaluation questions without the blind held-out-11: penalty 0.5 lifts the fused
# recall@5 from 0.920 to 0.928 and MRR from 0.735 to 0.754 (0.25: 0.920, 0.75: 0.926).
HUB_PROBES = 1000
HUB_NEIGHBOURS = 10
HUB_PENALTY = 0.5
CHUNK_ROWS = 256  # rows of the stored matrix read and multiplied at a time (see cosines)


class Near(NamedTuple):
    """A rule close in meaning to a question: its best row's cosine, and the remembered question
    that brought it when that row was one (a tuple: cheaper to define than a dataclass, at every search)."""

    number: str
    cosine: float
    remembered: str | None = None


def rule_texts(store_or_rules: Store | Sequence[Rule], book: str | None = None) -> tuple[list[str], list[str]]:
    """(numbers, texts): what the model reads, one row per rule in the book's order, then one per
    example, numbered with its rule's number (a judge describes a situation, and examples are situations).
    """
    if isinstance(store_or_rules, Store):
        if book is None:
            raise TypeError("rule_texts() reads a store's rules by book: name the book")
        rules = store_or_rules.rules(book)
    else:
        rules = list(store_or_rules)
    by_number = {r.number: r for r in rules}
    out = []
    for rule in rules:
        chain, above = [], by_number.get(rule.parent) if rule.parent else None
        while above is not None:
            if above.title:
                chain.append(above.title)
            above = by_number.get(above.parent) if above.parent else None
        head = " > ".join(reversed(chain))
        out.append(f"{head}. {rule.title or ''}. {rule.text or ''}".strip(". "))
    examples = [(rule.number, example) for rule in rules for example in rule.examples]
    return [r.number for r in rules] + [n for n, _ in examples], out + [e for _, e in examples]


class Nearest(list):
    """Rules near a query, best first (:class:`Near`); ``familiar``: the query's cosine with the
    nearest remembered judges' question of the book (1.0 when the book has none), which tells a
    question about the game from a query about something else (a static vector of any text is near
    some rule, but nonsense is near no judge's question)."""

    familiar: float = 1.0


def nearest(store: Store, book: str, query: str, depth: int) -> Nearest:
    """The book's rules closest in meaning to the query, best first: a rule is as near as its nearest
    row (its text, one of its examples, or a remembered question it answers), a row's nearness being
    its cosine less its hubness; the cosine reported is that row's."""

    row = SearchIndex.of(store).meaning(book)
    if row is None:
        raise ModelUnavailable(f"book {book!r} has no meaning vectors (built without the model)")
    if row.model != row.pieces:
        raise ModelUnavailable(f"book {book!r} was built with another meaning model; it is rebuilt on next load")
    numbers = row.numbers.split("\n")
    questions = row.remembered.split("\n") if row.remembered else []
    first_memory = len(numbers) - len(questions)
    pieces = StoredPieces(store)  # the model's rows as the library keeps them: its file is not opened
    # A Vocabulary asks its mapping only `in` and `[]`, which StoredPieces answers (not len or iteration).
    vocabulary = semantic.Vocabulary(cast(Mapping[str, int], pieces))
    query_vector = semantic.vectors_of([vocabulary.tokens(query)], pieces.rows)[0]
    sims = cosines(store, row.rowid, query_vector) * np.frombuffer(row.scales, dtype=np.float32)
    nearness = sims - HUB_PENALTY * np.frombuffer(row.hubs, dtype=np.float32)
    best: dict[str, Near] = {}
    for i in _best_first(nearness, 4 * depth):
        for number in numbers[i].split(" "):
            if number not in best:
                best[number] = Near(number, float(sims[i]), questions[i - first_memory] if i >= first_memory else None)
        if len(best) >= depth:
            break
    out = Nearest(list(best.values())[:depth])
    if first_memory < len(numbers):
        out.familiar = float(sims[first_memory:].max())
    return out


def cosines(store: Store, rowid: int, query_vector: np.ndarray, chunk: int = CHUNK_ROWS) -> np.ndarray:
    """Each stored row (int8, before its scale) times the query vector, the ``matrix`` of ``meaning`` row
        ``rowid`` read a chunk of rows at a time: a search reads and converts 100 kB at a time in a buffer
        it reuses, rather than copying the whole matrix (2.7 MB for the CR) and then a float32 copy four
        times that size, each copy paying a page fault for every 4 kB it touches (4.5 ms of a fresh
        process's 6). The products are those of one multiplication of the whole matrix (on one thread,
    bit for bit; on several, OpenBLAS splits a whole matrix by threads, and the last bits may differ).
    """
    width = len(query_vector)
    with SearchIndex.of(store).matrix(rowid) as blob:
        rows = len(blob) // width
        out = np.empty(rows, dtype=np.float32)
        buffer = np.empty((min(chunk, rows), width), dtype=np.float32)
        for start in range(0, rows, chunk):
            part = np.frombuffer(blob.read(chunk * width), dtype=np.int8).reshape(-1, width)
            block = buffer[: len(part)]
            block[...] = part
            np.matmul(block, query_vector, out=out[start : start + len(part)])
    return out


class StoredPieces:
    """The model's word pieces as the library keeps them (table ``wordpieces``), a mapping from piece to
    id for :class:`rulebook.semantic.Vocabulary`, with each piece's row of the table: a search looks up
    its few words there rather than reading all 30,522 pieces or opening the model's files."""

    def __init__(self, store: Store):
        self._index = SearchIndex.of(store)
        self._found: dict[str, int | None] = {}
        self._rows: dict[int, tuple[bytes, float]] = {}

    def __contains__(self, piece: str) -> bool:
        if piece not in self._found:
            row = self._index.word_piece(piece)
            self._found[piece] = row[0] if row else None
            if row:
                self._rows[row[0]] = (row[1], row[2])
        return self._found[piece] is not None

    def __getitem__(self, piece: str) -> int:
        found = self._found[piece] if piece in self else None  # `in` reads the piece's row
        if found is None:
            raise KeyError(piece)
        return found

    def rows(self, used: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """The int8 rows and float32 scales of token ids this reader has found
        (:func:`rulebook.semantic.vectors_of`)."""
        found = [self._rows[int(i)] for i in used]
        table = np.frombuffer(b"".join(vector for vector, _ in found), dtype=np.int8).reshape(len(found), -1)
        return table, np.array([scale for _, scale in found], dtype=np.float32)


def store_word_pieces(db) -> None:
    """Copy the model's word pieces, each with its row and scale, into the library being built (a
    ``sqlite_utils.Database``), unless the copy there is of this model already."""

    try:
        model = semantic.StaticModel.load()
        ids = model.vocabulary.ids
    except ModelUnavailable:
        return
    if word_pieces_model(db) == model.sha256:
        return
    table, width, scales = np.ascontiguousarray(model.rows).tobytes(), model.rows.shape[1], model.scales.tolist()
    # In the table's key order (piece), so that each row is appended rather than inserted mid-tree.
    write_word_pieces(
        db,
        ((piece, i, table[i * width : (i + 1) * width], scales[i]) for piece, i in sorted(ids.items())),
        model.sha256,
    )


def _best_first(nearness: np.ndarray, first: int):
    """Row indices, nearest first, ties in row order: ``np.argsort(-nearness, kind="stable")``, without
    sorting every row of a book when the first few hundred are enough. The rows up to the ``first``-th
    nearest (and every row tied with it) are sorted first; the others only if they are reached."""
    top = np.arange(0)
    if first < len(nearness) and not np.isnan(nearness).any():
        negated = -nearness
        bar = np.partition(negated, first - 1)[first - 1]
        top = np.flatnonzero(negated <= bar)  # in row order, so that a stable sort keeps ties in it
        top = top[np.argsort(negated[top], kind="stable")]
        yield from top.tolist()
    if len(top) < len(nearness):
        yield from np.argsort(-nearness, kind="stable")[len(top) :].tolist()
