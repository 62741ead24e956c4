"""MCMC convergence diagnostics for every sampler of the project (Stan's NUTS, the HDP Gibbs
chains, the HiDDeN and Gibbs-regression samplers to come), all from ArviZ: rank-normalised
split R-hat and bulk / tail effective sample sizes (Vehtari et al. 2021).

Draws are ``draws[chain, draw, ...]``: any trailing axes are separate scalar parameters."""

from __future__ import annotations

import warnings
from dataclasses import dataclass

import numpy as np

with warnings.catch_warnings():
    warnings.simplefilter("ignore", FutureWarning)  # ArviZ 0.x announces its 1.0 refactor
    import arviz as az


def _dataset(draws: np.ndarray):  # -> xarray.Dataset
    arr = np.asarray(draws, dtype=np.float64)
    if arr.ndim < 2 or arr.shape[0] < 1 or arr.shape[1] < 4:
        raise ValueError(f"draws must be [chain, draw, ...] with >= 4 draws, got shape {arr.shape}")
    if not np.all(np.isfinite(arr)):
        raise ValueError("draws contain NaN or infinite values")
    return az.convert_to_dataset({"x": arr.reshape(arr.shape[0], arr.shape[1], -1)})


def _varying(draws: np.ndarray) -> np.ndarray:
    """Mask of the scalar parameters that move (constant ones have no R-hat or ESS)."""
    arr = np.asarray(draws, dtype=np.float64)
    flat = arr.reshape(arr.shape[0], arr.shape[1], -1)
    return np.ptp(flat, axis=(0, 1)) > 0


def rhat(draws: np.ndarray) -> np.ndarray:
    """Rank-normalised split R-hat of each scalar parameter (NaN where it is constant)."""
    values = az.rhat(_dataset(draws), method="rank")["x"].values
    return np.where(_varying(draws), values, np.nan)


def ess_bulk(draws: np.ndarray) -> np.ndarray:
    """Bulk effective sample size of each scalar parameter (NaN where it is constant)."""
    return np.where(_varying(draws), az.ess(_dataset(draws), method="bulk")["x"].values, np.nan)


def ess_tail(draws: np.ndarray) -> np.ndarray:
    """Tail (5% and 95% quantile) effective sample size of each scalar parameter."""
    return np.where(_varying(draws), az.ess(_dataset(draws), method="tail")["x"].values, np.nan)


@dataclass(frozen=True)
class Convergence:
    """Worst case over the parameters: largest R-hat, smallest bulk and tail ESS."""

    rhat_max: float
    ess_bulk_min: float
    ess_tail_min: float

    def as_metrics(self) -> dict[str, float]:
        return {
            "rhat_max": self.rhat_max,
            "ess_bulk_min": self.ess_bulk_min,
            "ess_tail_min": self.ess_tail_min,
        }


def convergence(draws: np.ndarray) -> Convergence:
    """R-hat and ESS summary of ``draws[chain, draw, ...]``; a draw set with no moving
    parameter has R-hat 1 and ESS equal to its number of draws; non-finite draws (a failed
    fit) give NaN."""
    if not np.all(np.isfinite(np.asarray(draws, dtype=np.float64))):
        return Convergence(np.nan, np.nan, np.nan)
    if not _varying(draws).any():
        n = float(np.asarray(draws).shape[0] * np.asarray(draws).shape[1])
        return Convergence(1.0, n, n)
    return Convergence(
        float(np.nanmax(rhat(draws))),
        float(np.nanmin(ess_bulk(draws))),
        float(np.nanmin(ess_tail(draws))),
    )
