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
:func:`iamb`) and on any other test, e.g. a d-separation oracle. The G² callable also answers a
batch of candidates given one conditioning set in one Numba call
(:mod:`hierbn.structure_learning.markov_blanket_kernels`); the loops use the batch where they test
every candidate against the same set (GS's grow scan, IAMB's forward step), with the same results
as one call per candidate.

The loops follow bnlearn's own code (issue 26): Grow-Shrink's shrink phase restarts from the first
blanket node after each removal, and IAMB's backward phase is a single pass over the blanket.

A constant column is refused, naming it, as bnlearn's ``learn.mb`` refuses such data and as the
score searches do (issue 46: one rule for every structure learner; ``hierbn fit`` leaves a
one-state column out by default). Within a test, a candidate constant in the conditioning strata
(df 0) keeps its p-value 1.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from typing import Any, NamedTuple

import numpy as np
from scipy.special import chdtrc

from hierbn.structure_learning.levels import observed_levels, refuse_constant
from hierbn.structure_learning.markov_blanket_kernels import g2_statistics

PValue = Callable[[int, tuple[int, ...]], float]
"""``pvalue(candidate, conditioning_set)``: p-value of candidate ⫫ target | conditioning set.
A callable may also offer ``pvalue.many(candidates, conditioning_set)``, the same p-values for
several candidates at once, which the loops then use for a scan over the candidates."""


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


class _G2:
    """The G² p-value of ``target`` against a candidate given a conditioning set, on dense codes
    ``codes_t[column, row]`` with ``levels`` observed levels (a :data:`PValue` with ``many``)."""

    def __init__(self, codes_t: np.ndarray, levels: np.ndarray, target: int) -> None:
        self.codes_t, self.levels, self.target = codes_t, levels, target

    def results(self, candidates: Sequence[int], given: Sequence[int]) -> list[G2Result]:
        """The test of each candidate ⫫ target | ``given``: df over the observed levels, no
        adjustment (dombowsky2025 decision A17); p = 1 when df = 0 (a constant column)."""
        statistics = g2_statistics(
            self.codes_t,
            self.levels,
            self.target,
            np.asarray(given, dtype=np.int64),
            np.asarray(candidates, dtype=np.int64),
        )
        r_x = int(self.levels[self.target])
        strata = math.prod(int(self.levels[j]) for j in given)
        dfs = [(r_x - 1) * (int(self.levels[c]) - 1) * strata for c in candidates]
        p_values = chdtrc(np.array(dfs, dtype=np.float64), statistics)  # = scipy's chi2.sf
        return [
            G2Result(float(s), df, float(p) if df > 0 else 1.0)
            for s, df, p in zip(statistics, dfs, p_values, strict=True)
        ]

    def many(self, candidates: Sequence[int], given: tuple[int, ...]) -> list[float]:
        return [result.p_value for result in self.results(candidates, given)]

    def __call__(self, candidate: int, given: tuple[int, ...]) -> float:
        return self.results([candidate], given)[0].p_value


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
    codes_t, levels = observed_levels(codes)
    return _G2(codes_t, levels, x).results([y], given)[0]


def grow_shrink_search(pvalue: PValue, candidates: Sequence[int], alpha: float) -> list[int]:
    """Grow-Shrink over ``candidates`` (their order is the scan order),
    dombowsky2025 decisions §4.2 and A17.

    Grow: scan the candidates in order and add the first one not yet in the blanket B with
    ``pvalue(c, B) <= alpha``; after each addition restart the scan from the first candidate;
    stop after a full scan adds nothing. Shrink (as bnlearn's code, issue 26): scan B in
    insertion order and remove the first node with ``pvalue(node, B without node) > alpha``;
    after each removal restart the scan from the first node of the shrunk B (so the nodes kept
    before it are tested again given the smaller B); stop after a full scan removes nothing.
    Returns the blanket sorted.
    """
    blanket: list[int] = []
    while (added := _first(pvalue, candidates, blanket, alpha)) is not None:
        blanket.append(added)
    shrunk = True
    while shrunk:
        shrunk = False
        for node in blanket:
            if pvalue(node, tuple(b for b in blanket if b != node)) > alpha:
                blanket.remove(node)
                shrunk = True
                break
    return sorted(blanket)


def _first(
    pvalue: PValue, candidates: Sequence[int], blanket: list[int], alpha: float
) -> int | None:
    """The first candidate outside ``blanket`` with ``pvalue(c, blanket) <= alpha``: one batch
    when ``pvalue`` offers ``many``, else one call per candidate up to the first dependent one."""
    outside = [c for c in candidates if c not in blanket]
    given = tuple(blanket)
    many = getattr(pvalue, "many", None)
    if many is not None:
        return next(
            (c for c, p in zip(outside, many(outside, given), strict=True) if p <= alpha), None
        )
    return next((c for c in outside if pvalue(c, given) <= alpha), None)


def iamb_search(pvalue: PValue, candidates: Sequence[int], alpha: float) -> list[int]:
    """IAMB over ``candidates``, dombowsky2025 decisions §4.2 and A17.

    Forward: test every candidate outside the blanket B given B and add the one with the
    minimum p-value (ties go to the earliest candidate) while that p-value is <= alpha.
    Backward (a single pass, as bnlearn's code, issue 26): go once through B in insertion
    order, skipping the node added last, and remove each node with
    ``pvalue(node, B without node) > alpha`` at once (later tests condition on the
    already-shrunk B). The last-added node is not re-tested: it was admitted by the test of it
    given all the others. Returns B sorted.
    """
    blanket: list[int] = []
    many = getattr(pvalue, "many", None)
    while remaining := [c for c in candidates if c not in blanket]:
        given = tuple(blanket)
        pvalues = many(remaining, given) if many else [pvalue(c, given) for c in remaining]
        best = int(np.argmin(pvalues))
        if pvalues[best] > alpha:
            break
        blanket.append(remaining[best])
    for node in blanket[:-1]:
        if pvalue(node, tuple(b for b in blanket if b != node)) > alpha:
            blanket.remove(node)
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
    codes_t, levels = observed_levels(codes)
    refuse_constant(data, codes, levels)
    others = [j for j in range(codes.shape[1]) if j != target]
    return search(_G2(codes_t, levels, target), others, level)


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
