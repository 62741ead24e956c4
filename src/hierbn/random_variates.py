"""Random variates drawn inside Numba kernels, in log space where a draw can underflow.

Numba's ``np.random`` has no log-scale Gamma or Beta, and a Gamma(a) draw with a tiny shape
``a`` (a Dirichlet component far below one, a HiDDeN concentration beta_j near zero) underflows
to 0; these draw its logarithm instead. Each kernel seeds Numba's per-thread generator with
``np.random.seed`` at the start of its chain, so a chain's draws do not depend on the threads.
"""

from __future__ import annotations

import math

import numpy as np
from numba import njit


@njit(cache=True)
def log_gamma_variate(shape: float) -> float:
    """ln of a Gamma(shape, 1) draw, stable for tiny shapes (Gamma(a+1) * U^(1/a)).

    A zero shape (an exactly-zero current component) gives -inf: such a proposal is rejected."""
    if shape <= 0.0:
        return -np.inf
    if shape >= 1.0:
        return math.log(np.random.gamma(shape, 1.0))
    return math.log(np.random.gamma(shape + 1.0, 1.0)) + math.log(np.random.random()) / shape


@njit(cache=True)
def log_beta_variate(a: float, b: float) -> float:
    """ln of a Beta(a, b) draw as ln G_a - ln(G_a + G_b). Beta(a, 1) is U^(1/a) exactly (its
    CDF is x^a), which saves two Gamma draws in the common case of a count of one."""
    if b == 1.0:
        return math.log(1.0 - np.random.random()) / a  # 1 - U lies in (0, 1]
    log_a = log_gamma_variate(a)
    log_b = log_gamma_variate(b)
    top = max(log_a, log_b)
    return log_a - (top + math.log(math.exp(log_a - top) + math.exp(log_b - top)))


@njit(cache=True)
def pooled_neg_log_beta(a: float, exceed: np.ndarray, count: int) -> float:
    """A draw of -sum_j ln q_j for independent q_j ~ Beta(a, N_j), from the exceedance counts
    ``exceed[i]`` = #{j : N_j > i}, i < ``count`` = max N_j. Beta(a, N) is the product of the
    independent Beta(a + i, 1), i < N, and -ln Beta(a + i, 1) is Exp(a + i), so the sum is
    sum_i Gamma(exceed[i], 1) / (a + i): max N_j Gamma draws instead of one Beta per j
    (HiDDeN's auxiliaries, dombowsky2025 Alg. 1; the HDP's, petitjean2018 Algorithm 5)."""
    total = 0.0
    for i in range(count):
        total += np.random.gamma(exceed[i], 1.0) / (a + i)
    return total
