"""A book's meaning row, made when the book is built (:mod:`rulebook.library`): every rule's and
example's unit vector under the static model, the remembered judges' questions each answers, and each
row's hubness (:data:`rulebook.vectors.HUB_PROBES`). Reading and searching the rows is
:mod:`rulebook.vectors`'; this side also reads the judges' memory (:mod:`rulebook.memory`).
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache
from typing import TYPE_CHECKING

import numpy as np

from rulebook import memory, semantic
from rulebook.shipped import ModelUnavailable
from rulebook.vectors import HUB_NEIGHBOURS, HUB_PROBES, rule_texts

if TYPE_CHECKING:
    from rulebook.model import Rule


def book_rows(rules: Sequence[Rule], game: str | None = None) -> dict | None:
    """The ``meaning`` row of a book of ``game`` (without its id): every row's rule numbers (a line each,
    spaces between), the remembered question of each memory row (a line each: those of the game whose
    answers read the same here, :func:`rulebook.memory.applicable`), the model's sha256 and the unit
    vectors (int8 rows, a scale each); None without the model."""
    try:
        model = semantic.StaticModel.load()
        remembered = memory.applicable(rules, game=game)
    except ModelUnavailable:
        return None
    numbers, texts = rule_texts(rules)
    vectors = model.encode(texts + [q for q, _ in remembered])
    rows, scales = semantic.quantize(vectors)
    return {
        "model": model.sha256,
        "numbers": "\n".join([*numbers, *(" ".join(ns) for _, ns in remembered)]),
        "remembered": "\n".join(" ".join(q.split()) for q, _ in remembered),
        "matrix": rows.tobytes(),
        "scales": scales.tobytes(),
        "hubs": hubness(vectors, model).tobytes(),
    }


def hubness(vectors: np.ndarray, model) -> np.ndarray:
    """Each row's mean cosine with its HUB_NEIGHBOURS nearest probe questions (float32)."""
    probes = _probes(model)
    if not len(probes) or not len(vectors):
        return np.zeros(len(vectors), dtype=np.float32)
    sims = vectors @ probes.T
    k = min(HUB_NEIGHBOURS, sims.shape[1])
    return np.partition(sims, -k, axis=1)[:, -k:].mean(axis=1).astype(np.float32)


@cache
def _probes(model) -> np.ndarray:
    """The vectors of HUB_PROBES remembered questions (a fixed draw), made once for every book built."""
    questions = [m.question for m in memory.read_memory()]
    chosen = sorted(np.random.default_rng(0).permutation(len(questions))[:HUB_PROBES])
    return model.encode([questions[i] for i in chosen]) if questions else np.zeros((0, 0), dtype=np.float32)
