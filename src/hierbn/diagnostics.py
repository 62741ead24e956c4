"""MCMC convergence diagnostics for every sampler of the project (Stan's NUTS, the HDP Gibbs
chains, HiDDeN's MALA-within-Gibbs and becker2018's Gibbs regression), all from ArviZ: rank-normalised
split R-hat and bulk / tail effective sample sizes (Vehtari et al. 2021); and, for comparison
with R results, coda's single-chain AR-spectral effective sample size (``effectiveSize``).

Draws are ``draws[chain, draw, ...]``: any trailing axes are separate scalar parameters
(``ess_ar_spectral`` takes one chain, ``x[draw]`` or ``x[draw, parameter]``)."""

from __future__ import annotations

import warnings
from dataclasses import dataclass

import numpy as np
from statsmodels.tsa.stattools import levinson_durbin

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


# --- coda::effectiveSize (coda 0.19: spectrum0.ar + stats::ar.yw) ----------------------------

_CONSTANT_RTOL = 1.5e-8  # all.equal's tolerance, here relative to max|x| (see _detrended_sd)


def _chain(x: np.ndarray) -> np.ndarray:
    """``x[draw]`` or ``x[draw, parameter]`` as a float ``[draw, parameter]`` array."""
    arr = np.asarray(x, dtype=np.float64)
    if arr.ndim not in (1, 2):
        raise ValueError(f"x must be [draw] or [draw, parameter], got shape {arr.shape}")
    if arr.shape[0] < 4:
        raise ValueError(f"x must have >= 4 draws, got {arr.shape[0]}")
    if not np.all(np.isfinite(arr)):
        raise ValueError("x contains NaN or infinite values")
    return arr.reshape(arr.shape[0], -1)


def _detrended_sd(x: np.ndarray) -> np.ndarray:
    """Residual sd (n - 1 divisor) of each column of ``x[draw, parameter]`` regressed by least
    squares on ``1..n``, as of coda's ``lm(x ~ seq_along(x))``."""
    z = np.arange(x.shape[0], dtype=np.float64)
    z -= z.mean()
    xc = x - x.mean(axis=0)
    resid = xc - np.outer(z, z @ xc / (z @ z))
    return resid.std(axis=0, ddof=1)


def _is_constant_after_trend(x: np.ndarray) -> np.ndarray:
    """coda's ``all.equal(sd(residuals(lm(x ~ z))), 0)``, per column. In R that comparison
    with 0 is absolute (sd <= 1.5e-8); here the tolerance scales with max|x| so that the test
    does not depend on the units of x and a float-rounded exact trend of large values still
    counts as constant."""
    scale = np.max(np.abs(x), axis=0)
    return _detrended_sd(x) <= _CONSTANT_RTOL * scale


def _autocovariances(x: np.ndarray, max_lag: int) -> np.ndarray:
    """Biased (divisor n) autocovariances ``r[lag, parameter]``, lags 0..max_lag, of the
    demeaned columns, as R's ``acf(type = "covariance")``."""
    n = x.shape[0]
    xc = x - x.mean(axis=0)
    return np.stack([np.einsum("ij,ij->j", xc[: n - k], xc[k:]) / n for k in range(max_lag + 1)])


def _ar_yw_order_max(n: int) -> int:
    """R's default ``order.max`` of ``ar``: ``min(n - 1, floor(10 log10 n))``."""
    return int(min(n - 1, np.floor(10 * np.log10(n))))


def _ar_yw(acov: np.ndarray, n: int) -> tuple[int, np.ndarray, float]:
    """R's ``ar.yw(x, aic = TRUE, demean = TRUE)`` from the autocovariances ``acov[0..p]``
    (``p = order.max``, ``acov[0] > 0``) of a series of length n: the AIC order, its
    coefficients and its ``var.pred``."""
    order_max = acov.size - 1
    ld = levinson_durbin(acov, nlags=order_max, isacov=True)
    # ld.pacf[0] is a placeholder 1; ld.phi[1 : m + 1, m] are the AR(m) coefficients.
    # Innovation variances as R's eureka: r0 * prod(1 - pacf^2), orders 0..p.
    var_pred = acov[0] * np.concatenate(([1.0], np.cumprod(1.0 - ld.pacf[1:] ** 2)))
    with np.errstate(divide="ignore"):
        aic = n * np.log(var_pred) + 2.0 * np.arange(order_max + 1)  # + 2 (demean) dropped
    order = int(np.argmin(aic))
    coefs = ld.phi[1 : order + 1, order].copy()
    return order, coefs, float(var_pred[order] * n / (n - (order + 1)))


def _spectrum0_ar(x: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """coda's ``spectrum0.ar`` of each column of ``x[draw, parameter]`` (validated): the
    spectral density at frequency 0 of the AR fit, and the AR order chosen by AIC (0 for a
    series constant up to a linear trend, whose spectrum is 0)."""
    n, n_par = x.shape
    spec = np.zeros(n_par)
    order = np.zeros(n_par, dtype=int)
    moving = ~_is_constant_after_trend(x)
    acov = _autocovariances(x[:, moving], _ar_yw_order_max(n))
    for j, col in zip(np.flatnonzero(moving), acov.T, strict=True):
        order[j], coefs, var_pred = _ar_yw(col, n)
        spec[j] = var_pred / (1.0 - coefs.sum()) ** 2
    return spec, order


def ess_ar_spectral(x: np.ndarray) -> float | np.ndarray:
    """coda's ``effectiveSize`` of one chain, ``x[draw]`` (a float) or ``x[draw, parameter]``
    (one ESS per parameter): ``n var(x) / S(0)``, S(0) the spectral density at 0 of the
    AIC-chosen Yule-Walker AR fit (R's ``ar``); 0 for a series constant up to a linear
    trend."""
    arr = _chain(x)
    spec, _ = _spectrum0_ar(arr)
    with np.errstate(divide="ignore", invalid="ignore"):
        ess = np.where(spec == 0, 0.0, arr.shape[0] * arr.var(axis=0, ddof=1) / spec)
    return float(ess[0]) if np.ndim(x) == 1 else ess
