"""Polygamma functions for Numba kernels.

Numba cannot call :mod:`scipy.special`, so digamma ψ, trigamma ψ' and tetragamma ψ''
are implemented here by upward recurrence to x ≥ 10 followed by the asymptotic
(Bernoulli-number) series. Accuracy is ~1e-14 relative on x > 0 (tested against scipy).
"""

from __future__ import annotations

import math

from numba import njit

_SHIFT_TO = 10.0


@njit(cache=True)
def digamma(x: float) -> float:
    """ψ(x) for x > 0."""
    if x <= 0.0 or math.isnan(x):
        return math.nan
    acc = 0.0
    while x < _SHIFT_TO:
        acc -= 1.0 / x
        x += 1.0
    inv = 1.0 / x
    inv2 = inv * inv
    series = inv2 * (
        -1.0 / 12.0
        + inv2
        * (
            1.0 / 120.0
            + inv2
            * (-1.0 / 252.0 + inv2 * (1.0 / 240.0 + inv2 * (-1.0 / 132.0 + inv2 * 691.0 / 32760.0)))
        )
    )
    return acc + math.log(x) - 0.5 * inv + series


@njit(cache=True)
def trigamma(x: float) -> float:
    """ψ'(x) for x > 0."""
    if x <= 0.0 or math.isnan(x):
        return math.nan
    acc = 0.0
    while x < _SHIFT_TO:
        acc += 1.0 / (x * x)
        x += 1.0
    inv = 1.0 / x
    inv2 = inv * inv
    series = (
        inv
        + 0.5 * inv2
        + inv
        * inv2
        * (
            1.0 / 6.0
            + inv2
            * (
                -1.0 / 30.0
                + inv2
                * (1.0 / 42.0 + inv2 * (-1.0 / 30.0 + inv2 * (5.0 / 66.0 - inv2 * 691.0 / 2730.0)))
            )
        )
    )
    return acc + series


@njit(cache=True)
def tetragamma(x: float) -> float:
    """ψ''(x) for x > 0."""
    if x <= 0.0 or math.isnan(x):
        return math.nan
    acc = 0.0
    while x < _SHIFT_TO:
        acc -= 2.0 / (x * x * x)
        x += 1.0
    inv = 1.0 / x
    inv2 = inv * inv
    series = (
        -inv2
        - inv * inv2
        - inv2
        * inv2
        * (
            0.5
            + inv2
            * (
                -1.0 / 6.0
                + inv2
                * (1.0 / 6.0 + inv2 * (-3.0 / 10.0 + inv2 * (5.0 / 6.0 - inv2 * 691.0 / 210.0)))
            )
        )
    )
    return acc + series
