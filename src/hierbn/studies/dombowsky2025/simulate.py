"""Simulated data of dombowsky2025: Table 1, Table 3 and Tables 7–8 (decisions §4.1, §4.3 and §4.4).
Zero-based codes; every probability is re-drawn per replicate ([code]). Each replicate's stream
comes from its own key, so a replicate is the same whichever block or job draws it."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np


@dataclass(frozen=True)
class SparseCountData:
    """Table 1: a binary child of one K-level parent."""

    parent: np.ndarray  # codes 0..K-1
    child: np.ndarray  # 0/1
    q: np.ndarray  # true Pr(child = 1 | parent = x), x = 0..K-1


def table1_data(rng: np.random.Generator, n_levels: int, n: int) -> SparseCountData:
    """Parent counts ~ Mult(n, 1/K); Pr(x_j = 1 | x) = 2/3 for even 1-indexed categories
    (odd zero-based codes), 1/3 otherwise (decisions §4.1)."""
    parent = rng.integers(0, n_levels, n)
    q = np.where(np.arange(n_levels) % 2 == 1, 2 / 3, 1 / 3)
    child = (rng.random(n) < q[parent]).astype(np.int64)
    return SparseCountData(parent, child, q)


def table3_data(rng: np.random.Generator, k1: int, n: int) -> np.ndarray:
    """Rows (x1, x2, x3) from G2 of decisions §4.3: x1 uniform on k1 levels, Pr(x2 = 1 | x1) ~
    U(0.01, 0.99) per level, Pr(x3 = 1 | x1, x2) ~ Beta(2, 15) per cell."""
    p2 = rng.uniform(0.01, 0.99, k1)
    p3 = rng.beta(2.0, 15.0, (k1, 2))
    x1 = rng.integers(0, k1, n)
    x2 = (rng.random(n) < p2[x1]).astype(np.int64)
    x3 = (rng.random(n) < p3[x1, x2]).astype(np.int64)
    return np.column_stack([x1, x2, x3])


def tables78_data(rng: np.random.Generator, truth: str, n: int) -> np.ndarray:
    """Rows (x1, x2, x3) of App. E: x1 uniform on 5 levels, x2 on 3; Pr(x3 = 1 | x2) ~ U(0, 1)
    per level under G1 (sparse), Pr(x3 = 1 | x1, x2) ~ U(0, 1) per cell under G2 (dense)."""
    if truth not in ("G1", "G2"):
        raise ValueError(f"truth must be G1 or G2, got {truth!r}")
    x1 = rng.integers(0, 5, n)
    x2 = rng.integers(0, 3, n)
    cells = rng.uniform(0.0, 1.0, 3 if truth == "G1" else (5, 3))
    p3 = cells[x2] if truth == "G1" else cells[x1, x2]
    x3 = (rng.random(n) < p3).astype(np.int64)
    return np.column_stack([x1, x2, x3])
