"""MCMC convergence diagnostics computed from raw draws (backend-independent)."""

from __future__ import annotations

import numpy as np
from scipy.special import ndtri
from scipy.stats import rankdata


def _split_chains(draws: np.ndarray) -> np.ndarray:
    half = draws.shape[1] // 2
    return np.concatenate([draws[:, :half], draws[:, draws.shape[1] - half :]], axis=0)


def _basic_rhat(chains: np.ndarray) -> float:
    n = chains.shape[1]
    means = chains.mean(axis=1)
    within = chains.var(axis=1, ddof=1).mean()
    between = n * means.var(ddof=1)
    if within <= 0:
        return float("nan") if between > 0 else 1.0
    return float(np.sqrt(((n - 1) / n * within + between / n) / within))


def rank_normalized_rhat(draws: np.ndarray) -> float:
    """Rank-normalised split R-hat (Vehtari et al. 2021) for ``draws[chain, iteration]``:
    the maximum of the bulk and folded (tail) versions."""
    chains = _split_chains(np.asarray(draws, dtype=np.float64))
    size = chains.size

    def z_scores(values: np.ndarray) -> np.ndarray:
        ranks = rankdata(values.ravel()).reshape(values.shape)
        return ndtri((ranks - 0.375) / (size + 0.25))

    bulk = _basic_rhat(z_scores(chains))
    folded = _basic_rhat(z_scores(np.abs(chains - np.median(chains))))
    return float(np.nanmax([bulk, folded]))


def max_rhat(draws: np.ndarray) -> float:
    """Largest R-hat over all scalar parameters of ``draws[chain, iteration, ...]``."""
    arr = np.asarray(draws, dtype=np.float64)
    flat = arr.reshape(arr.shape[0], arr.shape[1], -1)
    values = [
        rank_normalized_rhat(flat[:, :, j])
        for j in range(flat.shape[2])
        if np.ptp(flat[:, :, j]) > 0
    ]
    return float(np.nanmax(values)) if values else 1.0
