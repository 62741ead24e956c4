"""Markov-blanket discovery by Grow-Shrink (GS) and IAMB with the semantics of bnlearn's
``learn.mb(data, node, method = "gs" | "iamb")`` and its defaults: test ``"mi"``, α = 0.05
(the competitors of dombowsky2025 decisions §4.2 and A17). Written from bnlearn's documented
behaviour, not from its source.

The test is the conditional G² (log-likelihood ratio) test of X ⫫ Y | Z on integer-coded
discrete data,

    G² = 2 Σ_{x,y,z} n_xyz log(n_xyz n_z / (n_xz n_yz)) = 2 N Î(X; Y | Z),

referred to χ² with df = (r_x − 1)(r_y − 1) ∏_{z∈Z} r_z and no df adjustment
(dombowsky2025 decision A17). Every r is the number of *observed* levels of that column in the whole
data set, as bnlearn uses the levels of R factors, which drop unused levels
(dombowsky2025 decision A16); a level missing from one stratum does not lower df.

Both searches decide "dependent" when p ≤ α (IAMB adds the minimum-p-value node while p ≤ α,
dombowsky2025 decision A17), and "independent" when p > α. The search loops are written against a
p-value callable (:data:`PValue`), so the same code runs on the G² test (:func:`grow_shrink`,
:func:`iamb`) and on any other test, e.g. a d-separation oracle.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from typing import Any, NamedTuple

import numpy as np
from scipy.stats import chi2

from hierbn.bn.sparse_tables import configuration_ids

PValue = Callable[[int, tuple[int, ...]], float]
"""``pvalue(candidate, conditioning_set)``: p-value of candidate ⫫ target | conditioning set."""


class G2Result(NamedTuple):
    """Outcome of one conditional G² test."""

    statistic: float
    df: int
    p_value: float


def _check_data(data: Any) -> np.ndarray:
    """``data[row, column]`` as an int64 array of non-negative codes (at least one row)."""
    array = np.asarray(data)
    if array.ndim != 2:
        raise ValueError(
            f"data must be a 2-d array [row, column] of codes, got shape {array.shape}"
        )
    if not np.issubdtype(array.dtype, np.integer):
        raise ValueError(f"data must hold integer codes, got dtype {array.dtype}")
    if array.shape[0] == 0 or array.shape[1] == 0:
        raise ValueError(f"data must have at least one row and one column, got shape {array.shape}")
    negative = np.argwhere(array < 0)
    if negative.size:
        row, col = (int(i) for i in negative[0])
        raise ValueError(
            f"data must hold non-negative codes: data[{row}, {col}] = {array[row, col]}"
        )
    return array.astype(np.int64)


def _observed_levels(codes: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Dense codes ``0..r_j-1`` of every column over its observed levels, and the r_j
    (dombowsky2025 decision A16)."""
    dense = np.empty_like(codes)
    levels = np.empty(codes.shape[1], dtype=np.int64)
    for j in range(codes.shape[1]):
        values, dense[:, j] = np.unique(codes[:, j], return_inverse=True)
        levels[j] = values.size
    return dense, levels


def _check_node(value: Any, name: str, n_vars: int) -> int:
    """A column index in ``[0, n_vars)``."""
    if isinstance(value, bool) or not isinstance(value, int | np.integer):
        raise ValueError(f"{name} must be an integer column index, got {value!r}")
    if not 0 <= value < n_vars:
        raise ValueError(f"{name} must lie in [0, {n_vars}), got {value}")
    return int(value)


def _check_alpha(alpha: Any) -> float:
    """A significance level strictly between 0 and 1."""
    try:
        level = float(alpha)
    except (TypeError, ValueError):
        level = math.nan
    if not 0.0 < level < 1.0:
        raise ValueError(f"alpha must lie in (0, 1), got {alpha!r}")
    return level


def _g2(dense: np.ndarray, levels: np.ndarray, x: int, y: int, z: Sequence[int]) -> G2Result:
    """The G² test on dense codes; the strata are the observed configurations of ``z``, since
    an empty stratum contributes 0 to G² (it still counts in df)."""
    r_x, r_y = int(levels[x]), int(levels[y])
    strata, configs = configuration_ids(dense[:, list(z)])
    n_strata = configs.shape[0]
    cells = np.bincount(
        (strata * r_x + dense[:, x]) * r_y + dense[:, y], minlength=n_strata * r_x * r_y
    )
    n_xyz = cells.reshape(n_strata, r_x, r_y).astype(np.float64)
    n_xz = n_xyz.sum(axis=2, keepdims=True)
    n_yz = n_xyz.sum(axis=1, keepdims=True)
    n_z = n_xz.sum(axis=1, keepdims=True)
    ratio = np.divide(n_xyz * n_z, n_xz * n_yz, out=np.ones_like(n_xyz), where=n_xyz > 0)
    statistic = max(0.0, 2.0 * float(np.sum(n_xyz * np.log(ratio))))  # >= 0 up to rounding
    df = (r_x - 1) * (r_y - 1) * math.prod(int(levels[j]) for j in z)
    p_value = float(chi2.sf(statistic, df)) if df > 0 else 1.0
    return G2Result(statistic, df, p_value)


def g2_test(x: int, y: int, z: Sequence[int], data: Any) -> G2Result:
    """Conditional G² test ("mi" in bnlearn) of column ``x`` ⫫ column ``y`` given the columns
    ``z`` (possibly empty) of ``data[row, column]`` (non-negative integer codes),
    dombowsky2025 decision A17.

    Returns the statistic, df = (r_x − 1)(r_y − 1) ∏ r_z over the observed levels of each column in
    the whole ``data`` (no df adjustment, dombowsky2025 decision A17), and the χ² upper-tail
    p-value. When df = 0 (a constant column) the statistic is 0 and the p-value is taken as 1.
    """
    codes = _check_data(data)
    n_vars = codes.shape[1]
    x, y = _check_node(x, "x", n_vars), _check_node(y, "y", n_vars)
    given = [_check_node(j, "z", n_vars) for j in z]
    if x == y:
        raise ValueError(f"x and y must be different columns, got {x} twice")
    if len(set(given)) != len(given) or {x, y} & set(given):
        raise ValueError(f"z must be distinct columns other than x and y, got {list(z)}")
    dense, levels = _observed_levels(codes)
    return _g2(dense, levels, x, y, given)


def grow_shrink_search(pvalue: PValue, candidates: Sequence[int], alpha: float) -> list[int]:
    """Grow-Shrink over ``candidates`` (their order is the scan order),
    dombowsky2025 decisions §4.2 and A17.

    Grow: scan the candidates in order and add the first one not yet in the blanket B with
    ``pvalue(c, B) <= alpha``; after each addition restart the scan from the first candidate;
    stop after a full scan adds nothing. Shrink: one pass over B in insertion order, removing
    each node with ``pvalue(node, B without node) > alpha`` at once (later tests condition on
    the already-shrunk B). Returns the blanket sorted.
    """
    blanket: list[int] = []
    grown = True
    while grown:
        grown = False
        for node in candidates:
            if node not in blanket and pvalue(node, tuple(blanket)) <= alpha:
                blanket.append(node)
                grown = True
                break
    for node in list(blanket):
        if pvalue(node, tuple(b for b in blanket if b != node)) > alpha:
            blanket.remove(node)
    return sorted(blanket)


def iamb_search(pvalue: PValue, candidates: Sequence[int], alpha: float) -> list[int]:
    """IAMB over ``candidates``, dombowsky2025 decisions §4.2 and A17.

    Forward: test every candidate outside the blanket B given B and add the one with the
    minimum p-value (ties go to the earliest candidate) while that p-value is <= alpha.
    Backward (round-robin, keeping the last-added node): sweep B in insertion order, skipping
    the node added last, and remove each node with ``pvalue(node, B without node) > alpha`` at
    once; repeat the sweep until a full sweep removes nothing. The last-added node is never
    re-tested: it was admitted by the test of it given all the others. Returns B sorted.
    """
    blanket: list[int] = []
    while remaining := [c for c in candidates if c not in blanket]:
        pvalues = [pvalue(c, tuple(blanket)) for c in remaining]
        best = int(np.argmin(pvalues))
        if pvalues[best] > alpha:
            break
        blanket.append(remaining[best])
    removed = True
    while removed:
        removed = False
        for node in blanket[:-1]:
            if pvalue(node, tuple(b for b in blanket if b != node)) > alpha:
                blanket.remove(node)
                removed = True
    return sorted(blanket)


def _search(
    search: Callable[[PValue, Sequence[int], float], list[int]],
    data: Any,
    target: int,
    alpha: float,
) -> list[int]:
    """Run ``search`` for ``target`` with the G² test on ``data``, candidates in column order."""
    codes = _check_data(data)
    target = _check_node(target, "target", codes.shape[1])
    level = _check_alpha(alpha)
    dense, levels = _observed_levels(codes)

    def pvalue(node: int, given: tuple[int, ...]) -> float:
        return _g2(dense, levels, target, node, given).p_value

    others = [j for j in range(codes.shape[1]) if j != target]
    return search(pvalue, others, level)


def grow_shrink(data: Any, target: int, alpha: float = 0.05) -> list[int]:
    """Markov blanket of column ``target`` by Grow-Shrink with the G² test, as bnlearn's
    ``learn.mb(data, node, method = "gs")`` (dombowsky2025 decisions §4.2 and A17); see
    :func:`grow_shrink_search` for the loops. Returns sorted column indices."""
    return _search(grow_shrink_search, data, target, alpha)


def iamb(data: Any, target: int, alpha: float = 0.05) -> list[int]:
    """Markov blanket of column ``target`` by IAMB with the G² test, as bnlearn's
    ``learn.mb(data, node, method = "iamb")`` (dombowsky2025 decisions §4.2 and A17); see
    :func:`iamb_search` for the loops. Returns sorted column indices."""
    return _search(iamb_search, data, target, alpha)
