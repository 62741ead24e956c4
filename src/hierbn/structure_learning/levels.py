"""Dense codes over each column's observed levels, the input of the structure-learning kernels
(dombowsky2025 decision A16: bnlearn counts the levels of R factors, which drop unused levels)."""

from __future__ import annotations

from typing import Any

import numpy as np

from hierbn.structure_learning.search_kernels import recode_columns

_LOOKUP_LIMIT = 1 << 20  # codes up to this are recoded through a lookup table, larger by np.unique


def observed_levels(codes: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """``codes[row, column]`` (checked non-negative integers, at least one row) as dense codes
    ``codes_t[column, row]`` in ``0 .. r_j - 1`` (the order of the original codes) and the
    number ``r_j`` of observed levels of each column."""
    array = np.asarray(codes, dtype=np.int64)
    maxima = array.max(axis=0)
    large = np.flatnonzero(maxima > max(_LOOKUP_LIMIT, 4 * array.shape[0]))
    if large.size:  # sparse huge codes: rank them first, one column at a time
        array = array.copy()
        for j in large:
            array[:, j] = np.unique(array[:, j], return_inverse=True)[1].reshape(-1)
        maxima = array.max(axis=0)
    return recode_columns(np.ascontiguousarray(array), maxima)


def refuse_constant(data: Any, codes: np.ndarray, levels: np.ndarray) -> None:
    """Refuse a column of ``codes`` with one observed level (``levels`` from
    :func:`observed_levels`), naming its index (and name, for a data frame): every structure
    learner refuses it, as bnlearn's ``hc``, ``tabu`` and ``learn.mb`` refuse such data (issues 26
    and 46)."""
    constant = np.flatnonzero(levels == 1)
    if constant.size:
        j = int(constant[0])
        names = getattr(data, "columns", None)
        label = f"{j} ({names[j]!r})" if names is not None and len(names) > j else f"{j}"
        raise ValueError(
            f"data column {label} has a single value ({int(codes[0, j])}) in all {len(codes)} "
            "rows; a constant column cannot enter a network (bnlearn refuses it too): drop it "
            "before the search"
        )
