"""BDeu posterior-mean CPT estimates, eq. (2) of azzimonti2019 (bnlearn ``method="bayes"``),
and the Laplace and ML rules, on count tables ``counts[p, x]`` (parent configurations in rows,
child values in columns: the orientation of :mod:`hierbn.cpts.base`)."""

from __future__ import annotations

import numpy as np

from hierbn.validate import check_counts, check_positive


def bdeu_theta(counts: np.ndarray, iss: float, n_configs: int | None = None) -> np.ndarray:
    """E[theta_{x|y}] = (n_yx + iss/(|X||Y|)) / (n_y + iss/|Y|) for ``counts[y, x]``.

    A parentless node is a table with one row (|Y| = 1). Empty rows give the uniform
    distribution. ``n_configs`` is |Y| when ``counts`` holds only some of the configurations
    (the observed ones of a sparse table); by default every row is one.
    """
    table = check_counts(counts)
    iss = check_positive(iss, "iss")
    n_x = table.shape[1]
    n_y = table.shape[0] if n_configs is None else n_configs
    pseudo = iss / (n_x * n_y)
    return (table + pseudo) / (table.sum(axis=1, keepdims=True) + iss / n_y)


def laplace_theta(counts: np.ndarray) -> np.ndarray:
    """Laplace estimate (n_yx + 1) / (n_y + |X|): the reference code's root-node rule
    (azzimonti2019 decision A6)."""
    table = check_counts(counts)
    return (table + 1.0) / (table.sum(axis=1, keepdims=True) + table.shape[1])


def ml_theta(counts: np.ndarray, fallback: np.ndarray | None = None) -> np.ndarray:
    """Maximum-likelihood CPT; empty rows take ``fallback``'s row (uniform if None)."""
    table = check_counts(counts)
    totals = table.sum(axis=1, keepdims=True)
    if fallback is None:
        backup = np.full_like(table, 1.0 / table.shape[1])
    else:
        backup = check_counts(fallback, "fallback")
        if backup.shape != table.shape:
            raise ValueError(f"fallback has shape {backup.shape}, counts {table.shape}")
    with np.errstate(invalid="ignore", divide="ignore"):
        theta = np.where(totals > 0, table / np.where(totals > 0, totals, 1.0), backup)
    return theta
