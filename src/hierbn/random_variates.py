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
