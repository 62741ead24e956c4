"""Annealed importance sampling for the marginal likelihood (beal2006 §3.6, Algorithm 3.1).

Schedule eq. (69): tau(k) = e (k/K) / (1 - k/K + e). One Metropolis–Hastings step per
temperature with a joint Dirichlet proposal centred on the current parameters, theta'_jl ~
Dir(alpha * theta_jl) for every row (beal2006 decision A9), then the importance weight (66).
Dirichlet draws are made in log space because alpha * theta_k can be far below one.
"""

from __future__ import annotations

import numpy as np


def schedule(n_steps: int, e_tau: float = 0.2) -> np.ndarray:
    """Inverse temperatures tau(0..K), eq. (69)."""
    x = np.arange(n_steps + 1) / n_steps
    return e_tau * x / (1.0 - x + e_tau)


def log_mean_exp(values: np.ndarray) -> float:
    """ln( mean(exp(values)) ), the AIS^(G) pooling of runs."""
    values = np.asarray(values, dtype=np.float64)
    top = values.max()
    return float(top + np.log(np.mean(np.exp(values - top))))
