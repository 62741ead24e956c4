"""MCMC convergence diagnostics for every sampler of the project (Stan's NUTS, the HDP Gibbs
chains, HiDDeN's MALA-within-Gibbs and becker2018's Gibbs regression), all from ArviZ:
rank-normalised split R-hat and bulk / tail effective sample sizes (Vehtari et al. 2021);
and, for comparison with R results, coda's single-chain AR-spectral effective sample size
(``effectiveSize``).

Every function takes a :class:`hierbn.draws.Draws` record and ``var_names`` (default: every
posterior variable; a sample statistic such as ``lp`` can be named too) and returns one array
per variable, of the variable's own shape: each element is a scalar parameter."""

from __future__ import annotations

import warnings
from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numpy as np

from hierbn.draws import Draws

PerVariable = dict[str, np.ndarray]
# A chain is converged below this rank-normalised split R-hat (Vehtari et al. 2021, Section 4).
CONVERGED_RHAT = 1.01


def _flat(draws: Draws, name: str) -> np.ndarray:
    """``name`` as ``[chain, draw, scalar parameter]`` (checked)."""
    arr = np.asarray(draws.variable(name), dtype=np.float64)
    if arr.shape[1] < 4:
        raise ValueError(
            f"{name}: draws must be [chain, draw, ...] with >= 4 draws, got {arr.shape}"
        )
    if not np.all(np.isfinite(arr)):
        raise ValueError(f"{name}: draws contain NaN or infinite values")
    return arr.reshape(arr.shape[0], arr.shape[1], -1)


def _per_variable(
    draws: Draws, var_names: Sequence[str] | None, statistic: Callable[[np.ndarray], np.ndarray]
) -> PerVariable:
    """``statistic`` of each scalar parameter, NaN where it is constant (no R-hat or ESS)."""
    out = {}
    for name in draws.names(var_names):
        flat = _flat(draws, name)
        moving = np.ptp(flat, axis=(0, 1)) > 0
        values = np.where(moving, statistic(flat), np.nan)
        out[name] = values.reshape(np.shape(draws.variable(name))[2:])
    return out


def _arviz(function: str, **kwargs) -> Callable[[np.ndarray], np.ndarray]:
    def statistic(flat: np.ndarray) -> np.ndarray:
        # imported here: ArviZ (and the matplotlib it loads) costs a second at start-up
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", FutureWarning)  # ArviZ 0.x announces its 1.0
            import arviz as az

        dataset = az.convert_to_dataset({"x": flat})
        return getattr(az, function)(dataset, **kwargs)["x"].values

    return statistic


def rhat(draws: Draws, var_names: Sequence[str] | None = None) -> PerVariable:
    """Rank-normalised split R-hat of each scalar parameter (NaN where it is constant)."""
    return _per_variable(draws, var_names, _arviz("rhat", method="rank"))


def ess_bulk(draws: Draws, var_names: Sequence[str] | None = None) -> PerVariable:
    """Bulk effective sample size of each scalar parameter (NaN where it is constant)."""
    return _per_variable(draws, var_names, _arviz("ess", method="bulk"))


def ess_tail(draws: Draws, var_names: Sequence[str] | None = None) -> PerVariable:
    """Tail (5% and 95% quantile) effective sample size of each scalar parameter."""
    return _per_variable(draws, var_names, _arviz("ess", method="tail"))


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


def convergence(draws: Draws, var_names: Sequence[str] | None = None) -> Convergence:
    """R-hat and ESS summary over the scalar parameters of ``var_names``; draws with no moving
    parameter have R-hat 1 and ESS equal to their number of draws; non-finite draws (a failed
    fit) give NaN."""
    names = draws.names(var_names)
    values = [np.asarray(draws.variable(n), dtype=np.float64) for n in names]
    if not all(np.all(np.isfinite(v)) for v in values):
        return Convergence(np.nan, np.nan, np.nan)
    if not any(np.ptp(v.reshape(v.shape[0], v.shape[1], -1), axis=(0, 1)).any() for v in values):
        n = float(draws.n_chains * draws.n_draws)
        return Convergence(1.0, n, n)

    def pooled(per: PerVariable) -> np.ndarray:
        return np.concatenate([np.ravel(v) for v in per.values()])

    return Convergence(
        float(np.nanmax(pooled(rhat(draws, names)))),
        float(np.nanmin(pooled(ess_bulk(draws, names)))),
        float(np.nanmin(pooled(ess_tail(draws, names)))),
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


def _levinson_durbin(acov: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The Levinson-Durbin recursion (Durbin 1960) on autocovariances ``acov[0..p]``: the
    coefficients ``phi[1 : m + 1, m]`` of the Yule-Walker AR(m) fit of every order m <= p and
    the partial autocorrelations ``pacf[1..p]`` (``pacf[0]`` = 1), as R's ``eureka`` under
    ``ar.yw``. Written here rather than imported: statsmodels' ``tsa.stattools`` costs about a
    second of import on every job that computes coda's ESS, and scipy's ``solve_toeplitz``
    gives only the last order's fit."""
    order_max = acov.size - 1
    phi = np.zeros((order_max + 1, order_max + 1))
    sigma = np.zeros(order_max + 1)
    phi[1, 1] = acov[1] / acov[0]
    sigma[1] = acov[0] - phi[1, 1] * acov[1]
    for k in range(2, order_max + 1):
        phi[k, k] = (acov[k] - np.dot(phi[1:k, k - 1], acov[1:k][::-1])) / sigma[k - 1]
        phi[1:k, k] = phi[1:k, k - 1] - phi[k, k] * phi[k - 1 : 0 : -1, k - 1]
        sigma[k] = sigma[k - 1] * (1 - phi[k, k] ** 2)
    pacf = np.diag(phi).copy()
    pacf[0] = 1.0
    return phi, pacf


def _ar_yw(acov: np.ndarray, n: int) -> tuple[int, np.ndarray, float]:
    """R's ``ar.yw(x, aic = TRUE, demean = TRUE)`` from the autocovariances ``acov[0..p]``
    (``p = order.max``, ``acov[0] > 0``) of a series of length n: the AIC order, its
    coefficients and its ``var.pred``."""
    order_max = acov.size - 1
    phi, pacf = _levinson_durbin(acov)
    # Innovation variances as R's eureka: r0 * prod(1 - pacf^2), orders 0..p.
    var_pred = acov[0] * np.concatenate(([1.0], np.cumprod(1.0 - pacf[1:] ** 2)))
    with np.errstate(divide="ignore"):
        aic = n * np.log(var_pred) + 2.0 * np.arange(order_max + 1)  # + 2 (demean) dropped
    order = int(np.argmin(aic))
    coefs = phi[1 : order + 1, order].copy()
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


def _ess_ar_spectral_chain(x: np.ndarray) -> np.ndarray:
    """coda's ``effectiveSize`` of each column of one chain ``x[draw, parameter]``."""
    arr = _chain(x)
    spec, _ = _spectrum0_ar(arr)
    with np.errstate(divide="ignore", invalid="ignore"):
        return np.where(spec == 0, 0.0, arr.shape[0] * arr.var(axis=0, ddof=1) / spec)


def ess_ar_spectral(draws: Draws, var_names: Sequence[str] | None = None) -> PerVariable:
    """coda's ``effectiveSize`` of each scalar parameter of a one-chain record:
    ``n var(x) / S(0)``, S(0) the spectral density at 0 of the AIC-chosen Yule-Walker AR fit
    (R's ``ar``); 0 for a series constant up to a linear trend."""
    if draws.n_chains != 1:
        raise ValueError(f"coda's effectiveSize takes one chain; the draws have {draws.n_chains}")
    out = {}
    for name in draws.names(var_names):
        values = np.asarray(draws.variable(name), dtype=np.float64)[0]
        ess = _ess_ar_spectral_chain(values.reshape(values.shape[0], -1))
        out[name] = ess.reshape(values.shape[1:])
    return out
