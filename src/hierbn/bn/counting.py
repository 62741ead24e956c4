"""Numba counting kernels on integer-coded data.

Data are ``int32`` matrices (rows x variables) of state codes ``0 .. card-1``. A parent
configuration is the mixed-radix index of the parents' states with the *last* parent varying
fastest (C order), so a family (child, parents) maps to a ``counts[y, x]`` table (the
orientation of :mod:`hierbn.cpts.base`) with ``|Y| = prod(card[parents])`` rows, unobserved
configurations included.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from hierbn.validate import check_codes


def validate_codes(data: np.ndarray, cards: np.ndarray, name: str = "data") -> np.ndarray:
    """Return ``data`` as C-contiguous int32 after checking every code is an integer in
    ``[0, card)`` (NaN, -1 for missing or a code beyond its column's cardinality is refused,
    naming the row and column; impute missing values first)."""
    return np.ascontiguousarray(check_codes(data, cards, name, allow_empty=True), dtype=np.int32)


@njit(cache=True)
def _family_counts(
    data: np.ndarray, child: int, parents: np.ndarray, cards: np.ndarray, n_cols: int
) -> np.ndarray:
    counts = np.zeros((n_cols, cards[child]), dtype=np.int64)
    n_par = parents.shape[0]
    for r in range(data.shape[0]):
        y = 0
        for k in range(n_par):
            p = parents[k]
            y = y * cards[p] + data[r, p]
        counts[y, data[r, child]] += 1
    return counts


def family_counts(
    data: np.ndarray, child: int, parents: tuple[int, ...] | list[int], cards: np.ndarray
) -> np.ndarray:
    """``counts[y, x]`` of ``child`` against the joint configuration ``y`` of ``parents``.

    ``data`` must already be validated int32 codes (see :func:`validate_codes`).
    """
    card = np.asarray(cards, dtype=np.int64)
    par = np.asarray(parents, dtype=np.int64)
    n_cols = int(np.prod(card[par])) if par.size else 1
    return _family_counts(data, int(child), par, card, n_cols)


@njit(cache=True)
def parent_configurations(data: np.ndarray, parents: np.ndarray, cards: np.ndarray) -> np.ndarray:
    """Mixed-radix parent-configuration index of every row (last parent fastest)."""
    out = np.zeros(data.shape[0], dtype=np.int64)
    for r in range(data.shape[0]):
        y = 0
        for k in range(parents.shape[0]):
            p = parents[k]
            y = y * cards[p] + data[r, p]
        out[r] = y
    return out


@njit(cache=True)
def _cmi_matrix(
    data: np.ndarray, features: np.ndarray, klass: int, cards: np.ndarray
) -> np.ndarray:
    n_f = features.shape[0]
    n_rows = data.shape[0]
    n_c = cards[klass]
    out = np.zeros((n_f, n_f))
    class_counts = np.zeros(n_c)
    for r in range(n_rows):
        class_counts[data[r, klass]] += 1.0
    for a in range(n_f):
        i = features[a]
        for b in range(a + 1, n_f):
            j = features[b]
            ci = cards[i]
            cj = cards[j]
            joint = np.zeros((ci, cj, n_c))
            for r in range(n_rows):
                joint[data[r, i], data[r, j], data[r, klass]] += 1.0
            left = joint.sum(axis=1)
            right = joint.sum(axis=0)
            value = 0.0
            for u in range(ci):
                for v in range(cj):
                    for c in range(n_c):
                        nuvc = joint[u, v, c]
                        if nuvc > 0.0:
                            value += nuvc * np.log(
                                nuvc * class_counts[c] / (left[u, c] * right[v, c])
                            )
            out[a, b] = out[b, a] = value / n_rows
    return out


def conditional_mutual_information(
    data: np.ndarray, features: list[int] | np.ndarray, class_index: int, cards: np.ndarray
) -> np.ndarray:
    """Matrix of empirical I(X_i; X_j | C) (nats, ML plug-in) over the given features."""
    return _cmi_matrix(
        data,
        np.asarray(features, dtype=np.int64),
        int(class_index),
        np.asarray(cards, dtype=np.int64),
    )


def mutual_information_with_class(
    data: np.ndarray, features: list[int] | np.ndarray, class_index: int, cards: np.ndarray
) -> np.ndarray:
    """Empirical I(X_i; C) (nats, ML plug-in, zero cells skipped) for each feature."""
    card = np.asarray(cards, dtype=np.int64)
    n = data.shape[0]
    out = np.zeros(len(features))
    for a, i in enumerate(features):
        # joint[x, c], summed in this order (the structure learners rank features by it)
        joint = family_counts(data, int(i), (int(class_index),), card).T.astype(np.float64)
        px = joint.sum(axis=1, keepdims=True)
        pc = joint.sum(axis=0, keepdims=True)
        mask = joint > 0
        expected = np.broadcast_to(px * pc, joint.shape)[mask]
        out[a] = float(np.sum(joint[mask] * np.log(joint[mask] * n / expected)) / n)
    return out
