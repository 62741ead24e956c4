"""Polygamma functions for Numba kernels.

Numba cannot call :mod:`scipy.special`, so digamma ψ, trigamma ψ' and tetragamma ψ''
are implemented here by upward recurrence to x ≥ 10 followed by the asymptotic
(Bernoulli-number) series. Accuracy is ~1e-14 relative on x > 0 (tested against scipy).
"""

from __future__ import annotations

import math

import numpy as np
from numba import njit

_SHIFT_TO = 10.0
# Asymptotic-series coefficients in powers of 1/x^2 (Bernoulli numbers B2..B12).
_DIGAMMA = np.array([-1 / 12, 1 / 120, -1 / 252, 1 / 240, -1 / 132, 691 / 32760])
_TRIGAMMA = np.array([1 / 6, -1 / 30, 1 / 42, -1 / 30, 5 / 66, -691 / 2730])
_TETRAGAMMA = np.array([0.5, -1 / 6, 1 / 6, -3 / 10, 5 / 6, -691 / 210])


@njit(cache=True)
def _shift_up(x: float, order: int) -> tuple[float, float]:
    """Apply psi^(k)(x) = psi^(k)(x+1) + (-1)^(k+1) k! / x^(k+1) until x >= 10.

    Returns (shifted x, accumulated recurrence terms)."""
    sign_factorial = -1.0 if order == 0 else (1.0 if order == 1 else -2.0)
    acc = 0.0
    while x < _SHIFT_TO:
        acc += sign_factorial / x ** (order + 1)
        x += 1.0
    return x, acc


@njit(cache=True)
def _horner(z: float, coefficients: np.ndarray) -> float:
    """sum_k coefficients[k] * z^k."""
    value = 0.0
    for k in range(coefficients.shape[0] - 1, -1, -1):
        value = value * z + coefficients[k]
    return value


@njit(cache=True)
def digamma(x: float) -> float:
    """ψ(x) for x > 0."""
    if x <= 0.0 or math.isnan(x):
        return math.nan
    x, acc = _shift_up(x, 0)
    inv = 1.0 / x
    inv2 = inv * inv
    return acc + math.log(x) - 0.5 * inv + inv2 * _horner(inv2, _DIGAMMA)


@njit(cache=True)
def trigamma(x: float) -> float:
    """ψ'(x) for x > 0."""
    if x <= 0.0 or math.isnan(x):
        return math.nan
    x, acc = _shift_up(x, 1)
    inv = 1.0 / x
    inv2 = inv * inv
    return acc + inv + 0.5 * inv2 + inv * inv2 * _horner(inv2, _TRIGAMMA)


@njit(cache=True)
def tetragamma(x: float) -> float:
    """ψ''(x) for x > 0."""
    if x <= 0.0 or math.isnan(x):
        return math.nan
    x, acc = _shift_up(x, 2)
    inv = 1.0 / x
    inv2 = inv * inv
    return acc - inv2 - inv * inv2 - inv2 * inv2 * _horner(inv2, _TETRAGAMMA)
