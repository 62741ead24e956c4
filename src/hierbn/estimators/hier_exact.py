"""Exact posterior moments of alpha in the hierarchical MD model (azzimonti2019, App. A.3).

For integer alpha0 and integer s the posterior of alpha, eq. (A.3)/(A.4),

    p(alpha | D) ∝ prod_x alpha_x^{[alpha0]_x - 1} prod_{x,y: n_xy>0} prod_{m=1}^{n_xy} (alpha_x + m - 1)

on the scaled simplex {alpha >= 0, sum alpha = s} is a product of univariate polynomials
P_x(alpha_x) whose coefficients are convolved unsigned Stirling numbers of the first kind.
With the Dirichlet integral  ∫ prod_x alpha_x^{m_x} dσ = s^{M+|X|-1} prod_x m_x! / (M+|X|-1)!
every moment E[prod_x alpha_x^{k_x}] of Lemmas 3–4 is a ratio of two exact sums (a fast
replacement for the paper's symbolic integration, azzimonti2019 decisions §3.2). Python integers and
:class:`fractions.Fraction` keep the result exact until the final conversion to float.
"""

from __future__ import annotations

from fractions import Fraction
from functools import lru_cache
from math import factorial

import numpy as np

from hierbn.validate import check_counts

EXACT_MAX_TOTAL = 2560  # ~4 min; the E1 schema stops exact_max_n at 640


@lru_cache(maxsize=4096)
def rising_factorial_coefficients(m: int) -> tuple[int, ...]:
    """Coefficients c_k of t(t+1)...(t+m-1) = sum_k c_k t^k (unsigned Stirling numbers)."""
    coeffs = [1]
    for j in range(m):
        shifted = [0, *coeffs]
        for k, c in enumerate(coeffs):
            shifted[k] += j * c
        coeffs = shifted
    return tuple(coeffs)


def _multiply(a: list[int], b: tuple[int, ...] | list[int]) -> list[int]:
    out = [0] * (len(a) + len(b) - 1)
    for i, ai in enumerate(a):
        if ai == 0:
            continue
        for j, bj in enumerate(b):
            out[i + j] += ai * bj
    return out


def _child_polynomial(row_counts: np.ndarray, power: int) -> list[int]:
    """Coefficients of alpha^power * prod_y rising(alpha, n_xy) in alpha."""
    poly = [0] * power + [1]
    for count in row_counts:
        if count > 0:
            poly = _multiply(poly, rising_factorial_coefficients(int(count)))
    return poly


def _integral(polys: list[list[int]], s: int, scale_degree: int) -> int:
    """(scale_degree + |X| - 1)! * ∫ prod_x P_x(alpha_x) dσ over the simplex of total s."""
    n_x = len(polys)
    total = [1]
    for poly in polys:
        weighted = [c * factorial(m) for m, c in enumerate(poly)]
        total = _multiply(total, weighted)
    top = scale_degree + n_x - 1
    value = 0
    for degree, d in enumerate(total):
        if d:
            value += d * s ** (degree + n_x - 1) * (factorial(top) // factorial(degree + n_x - 1))
    return value


def _validate(
    counts: np.ndarray, s: int, alpha0: np.ndarray | None
) -> tuple[np.ndarray, int, list[int]]:
    table = check_counts(counts, integer=True).astype(np.int64).T  # [x, y] below
    if table.sum() > EXACT_MAX_TOTAL:
        raise ValueError(
            f"counts total {int(table.sum())} rows; the exact posterior costs ~n^4 (16 s at "
            f"n = 1280), so it stops at n = {EXACT_MAX_TOTAL}: use the VI fit beyond"
        )
    n_x = table.shape[0]
    prior = np.ones(n_x, dtype=np.int64) if alpha0 is None else np.asarray(alpha0)
    if prior.shape != (n_x,) or np.any(prior < 1) or not np.all(prior == np.round(prior)):
        raise ValueError("the exact method needs integer alpha0 >= 1, one per child state")
    if int(s) != s or s < 1:
        raise ValueError("the exact method needs an integer s >= 1")
    return table, int(s), [int(a) - 1 for a in prior]


def exact_alpha_moments(
    counts: np.ndarray, s: int | None = None, alpha0: np.ndarray | None = None, second: bool = False
) -> tuple[np.ndarray, np.ndarray | None]:
    """Exact E[alpha | D] (and E[alpha alpha^T | D] if ``second``) for integer s and alpha0.

    ``counts[y, x]`` has child states in columns. Defaults: s = |X|, alpha0 = 1.
    """
    table, s_int, base = _validate(counts, np.asarray(counts).shape[1] if s is None else s, alpha0)
    n_x = table.shape[0]
    extra = 2 if second else 1
    polys = [_child_polynomial(table[x], base[x]) for x in range(n_x)]
    scale = sum(len(p) - 1 for p in polys) + extra
    z = _integral(polys, s_int, scale)

    def moment(powers: dict[int, int]) -> Fraction:
        raised = [
            _child_polynomial(table[x], base[x] + powers.get(x, 0)) if powers.get(x) else polys[x]
            for x in range(n_x)
        ]
        return Fraction(_integral(raised, s_int, scale), z)

    mean = np.array([float(moment({x: 1})) for x in range(n_x)])
    if not second:
        return mean, None
    outer = np.empty((n_x, n_x))
    for i in range(n_x):
        for j in range(i, n_x):
            powers = {i: 2} if i == j else {i: 1, j: 1}
            outer[i, j] = outer[j, i] = float(moment(powers))
    return mean, outer


def exact_posterior_theta(
    counts: np.ndarray, s: int | None = None, alpha0: np.ndarray | None = None
) -> np.ndarray:
    """Exact posterior mean of theta, eq. (8): (n_yx + E[alpha_x]) / (n_y + s), as
    ``theta[y, x]``."""
    table = check_counts(counts, integer=True)
    s_value = table.shape[1] if s is None else s
    mean, _ = exact_alpha_moments(counts, s_value, alpha0)
    return (table + mean[None, :]) / (table.sum(axis=1, keepdims=True) + s_value)
