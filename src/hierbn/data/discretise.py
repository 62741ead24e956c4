"""Discretisers: unsupervised equal-frequency bins and supervised MDL (Fayyad & Irani 1993).

Bins are right-closed: code k holds values in (cut[k-1], cut[k]], the first bin is
(-inf, cut[0]] and the last (cut[-1], +inf).
"""

from __future__ import annotations

import itertools

import numpy as np


def equal_frequency_cuts(values: np.ndarray, n_bins: int = 5) -> np.ndarray:
    """Cut points at the 1/n_bins, ..., (n_bins-1)/n_bins empirical quantiles (numpy's
    linear rule = R type 7), duplicates merged so heavily tied variables get fewer bins."""
    if n_bins < 2:
        raise ValueError(f"n_bins must be at least 2, got {n_bins}")
    finite = np.asarray(values, dtype=np.float64)
    if finite.size == 0:
        return np.empty(0)
    probs = np.arange(1, n_bins) / n_bins
    cuts = np.unique(np.quantile(finite, probs))
    return cuts[cuts < finite.max()]


def apply_cuts(values: np.ndarray, cuts: np.ndarray) -> np.ndarray:
    """Bin index of every value (NaN gets -1)."""
    values = np.asarray(values, dtype=np.float64)
    codes = np.searchsorted(np.asarray(cuts, dtype=np.float64), values, side="left").astype(
        np.int64
    )
    codes[np.isnan(values)] = -1
    return codes


def bin_labels(cuts: np.ndarray) -> list[str]:
    """Readable labels such as ``(-inf,2.45]``, ``(2.45,4.75]``, ``(4.75,inf)``."""
    edges = [-np.inf, *list(cuts), np.inf]
    labels = []
    for lo, hi in itertools.pairwise(edges):
        right = ")" if np.isinf(hi) else "]"
        labels.append(f"({lo:.6g},{hi:.6g}{right}")
    return labels


def _entropy(counts: np.ndarray) -> np.ndarray:
    """Row-wise entropy (bits) of class-count rows."""
    totals = counts.sum(axis=-1, keepdims=True)
    with np.errstate(divide="ignore", invalid="ignore"):
        p = np.where(totals > 0, counts / np.where(totals > 0, totals, 1), 0.0)
        logs = np.where(p > 0, np.log2(np.where(p > 0, p, 1.0)), 0.0)
    return -(p * logs).sum(axis=-1)


def _mdl_split(values: np.ndarray, onehot: np.ndarray, cuts: list[float]) -> None:
    """Recursive Fayyad–Irani split of sorted ``values`` with class indicator rows."""
    n = values.size
    if n < 2:
        return
    distinct = np.flatnonzero(values[1:] != values[:-1])  # split after index i
    if distinct.size == 0:
        return
    cumulative = np.cumsum(onehot, axis=0)
    total = cumulative[-1]
    left = cumulative[distinct]
    right = total - left
    n_left = (distinct + 1).astype(np.float64)
    n_right = n - n_left
    weighted = (n_left * _entropy(left) + n_right * _entropy(right)) / n
    best = int(np.argmin(weighted))
    ent = float(_entropy(total[None, :])[0])
    gain = ent - float(weighted[best])
    k = int((total > 0).sum())
    k1 = int((left[best] > 0).sum())
    k2 = int((right[best] > 0).sum())
    e1 = float(_entropy(left[best][None, :])[0])
    e2 = float(_entropy(right[best][None, :])[0])
    delta = np.log2(3.0**k - 2.0) - (k * ent - k1 * e1 - k2 * e2)
    if gain <= (np.log2(n - 1.0) + delta) / n:
        return
    i = int(distinct[best])
    cuts.append(float((values[i] + values[i + 1]) / 2.0))
    _mdl_split(values[: i + 1], onehot[: i + 1], cuts)
    _mdl_split(values[i + 1 :], onehot[i + 1 :], cuts)


def mdl_cuts(values: np.ndarray, classes: np.ndarray, n_classes: int | None = None) -> np.ndarray:
    """Supervised MDL cut points of one numeric variable (NaNs ignored).

    Recursive binary entropy splitting at midpoints between adjacent distinct values; a
    split of S into S1, S2 is accepted iff Gain > log2(N-1)/N + Delta/N with
    Delta = log2(3^c - 2) - [c Ent(S) - c1 Ent(S1) - c2 Ent(S2)] (Fayyad & Irani 1993;
    Weka's supervised Discretize default).
    """
    x = np.asarray(values, dtype=np.float64)
    y = np.asarray(classes, dtype=np.int64)
    keep = ~np.isnan(x)
    x, y = x[keep], y[keep]
    order = np.argsort(x, kind="stable")
    x, y = x[order], y[order]
    width = int(n_classes if n_classes is not None else (y.max() + 1 if y.size else 1))
    onehot = np.zeros((x.size, width))
    onehot[np.arange(x.size), y] = 1.0
    cuts: list[float] = []
    _mdl_split(x, onehot, cuts)
    return np.array(sorted(cuts))


class MDLDiscretiser:
    """Fit MDL cut points per numeric column on training data; transform any data with them."""

    def __init__(self) -> None:
        self.cuts_: dict[int, np.ndarray] = {}

    def fit(self, features: np.ndarray, classes: np.ndarray) -> MDLDiscretiser:
        """``features``: float matrix (NaN = missing); ``classes``: integer class codes."""
        matrix = np.asarray(features, dtype=np.float64)
        if matrix.ndim != 2 or matrix.shape[0] != np.asarray(classes).shape[0]:
            raise ValueError("features must be a 2-d matrix with one row per class label")
        n_classes = int(np.max(classes)) + 1 if len(classes) else 1
        self.cuts_ = {j: mdl_cuts(matrix[:, j], classes, n_classes) for j in range(matrix.shape[1])}
        return self

    def transform(self, features: np.ndarray) -> np.ndarray:
        """Bin codes (-1 where the value is missing)."""
        if not self.cuts_:
            raise RuntimeError("call fit before transform")
        matrix = np.asarray(features, dtype=np.float64)
        if matrix.shape[1] != len(self.cuts_):
            raise ValueError(f"fitted on {len(self.cuts_)} columns, got {matrix.shape[1]}")
        return np.column_stack(
            [apply_cuts(matrix[:, j], self.cuts_[j]) for j in range(matrix.shape[1])]
        )
