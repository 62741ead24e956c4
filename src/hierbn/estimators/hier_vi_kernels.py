"""Numba kernels of the hierarchical Multinomial–Dirichlet VI (azzimonti2019, Algorithm 1).

The analytic lower bound L~ (App. B.1), the Newton step in log tau (eq. B.4), the constrained
Newton step for kappa with Armijo backtracking (eq. B.5) and the outer coordinate-ascent loop;
the Python API is :mod:`hierbn.estimators.hier_vi`.
"""

from __future__ import annotations

import math

import numpy as np
from numba import njit

from hierbn.special import digamma, tetragamma, trigamma

TAU_INIT = 100.0
NEWTON_TOL = 1e-6
MAX_NEWTON = 5000
KAPPA_FLOOR = 1e-10
ARMIJO = 0.4
BACKTRACK = 0.9
MIN_STEP = 1e-8
DECREMENT_TOL = 2e-6


@njit(cache=True)
def _psi_sums(nu: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Return (sum_y psi(nu_xy) per x, psi(nu_.y) per y)."""
    n_x, n_y = nu.shape
    spsi = np.zeros(n_x)
    psi_col = np.zeros(n_y)
    for y in range(n_y):
        col = 0.0
        for x in range(n_x):
            spsi[x] += digamma(nu[x, y])
            col += nu[x, y]
        psi_col[y] = digamma(col)
    return spsi, psi_col


@njit(cache=True)
def kappa_tau_objective(
    kappa: np.ndarray, tau: float, s: float, alpha0: np.ndarray, n_cols: int, spsi: np.ndarray
) -> float:
    """The part of L~ that depends on (kappa, tau), constants dropped (App. B.1)."""
    n_x = kappa.shape[0]
    psi_tau = digamma(tau)
    value = 0.0
    for x in range(n_x):
        tk = tau * kappa[x]
        psi_tk = digamma(tk)
        sk = s * kappa[x]
        value += s * kappa[x] * spsi[x]
        value -= n_cols * math.lgamma(sk)
        value += n_cols * (sk - 1.0) * (math.log(kappa[x]) - psi_tk + psi_tau)
        value += math.lgamma(tk) + (alpha0[x] - tk) * (psi_tk - psi_tau)
    value -= (s / tau) * n_cols * (n_x - 1) + math.lgamma(tau)
    return value


@njit(cache=True)
def lower_bound(
    counts: np.ndarray, nu: np.ndarray, kappa: np.ndarray, tau: float, s: float, alpha0: np.ndarray
) -> float:
    """The analytic lower bound L~ of the ELBO (App. B.1 of azzimonti2019, corrected form)."""
    n_x, n_y = counts.shape
    total = 0.0
    psi_tau = digamma(tau)
    s0 = 0.0
    for x in range(n_x):
        s0 += alpha0[x]
    for y in range(n_y):
        col = 0.0
        for x in range(n_x):
            col += nu[x, y]
        psi_col = digamma(col)
        for x in range(n_x):
            e_log = digamma(nu[x, y]) - psi_col
            total += counts[x, y] * e_log
            total += (s * kappa[x] - 1.0) * e_log
            total += math.lgamma(nu[x, y]) - (nu[x, y] - 1.0) * e_log
        total -= math.lgamma(col)
    for x in range(n_x):
        tk = tau * kappa[x]
        psi_tk = digamma(tk)
        total -= n_y * math.lgamma(s * kappa[x])
        total += n_y * (s * kappa[x] - 1.0) * (math.log(kappa[x]) - psi_tk + psi_tau)
        total -= math.lgamma(alpha0[x])
        total += math.lgamma(tk) + (alpha0[x] - tk) * (psi_tk - psi_tau)
    total += n_y * math.lgamma(s) - (s / tau) * n_y * (n_x - 1) + math.lgamma(s0) - math.lgamma(tau)
    return total


@njit(cache=True)
def tau_gradient_hessian(
    kappa: np.ndarray, tau: float, s: float, alpha0: np.ndarray, n_cols: int
) -> tuple[float, float]:
    """dL~/dtau and d2L~/dtau2 (App. B.3.1)."""
    n_x = kappa.shape[0]
    tri_tau = trigamma(tau)
    tetra_tau = tetragamma(tau)
    grad = 0.0
    hess = 0.0
    for x in range(n_x):
        tk = tau * kappa[x]
        a_x = alpha0[x] - tk - n_cols * (s * kappa[x] - 1.0)
        tri_tk = trigamma(tk)
        grad += (kappa[x] * tri_tk - tri_tau) * a_x
        hess += (kappa[x] * kappa[x] * tetragamma(tk) - tetra_tau) * a_x
        hess -= kappa[x] * kappa[x] * tri_tk
    hess += tri_tau
    penalty = s * n_cols * (n_x - 1)
    grad += penalty / (tau * tau)
    hess -= 2.0 * penalty / (tau * tau * tau)
    return grad, hess


@njit(cache=True)
def kappa_gradient_hessian(
    kappa: np.ndarray, tau: float, s: float, alpha0: np.ndarray, n_cols: int, spsi: np.ndarray
) -> tuple[np.ndarray, np.ndarray]:
    """x-dependent part of dL~/dkappa_x and the diagonal Hessian (App. B.3.2)."""
    n_x = kappa.shape[0]
    grad = np.empty(n_x)
    hess = np.empty(n_x)
    for x in range(n_x):
        k = kappa[x]
        tk = tau * k
        sk = s * k
        a_x = alpha0[x] - tk - n_cols * (sk - 1.0)
        tri_tk = trigamma(tk)
        grad[x] = (
            tau * tri_tk * a_x
            - s * n_cols * (digamma(tk) + digamma(sk) - math.log(k) - 1.0)
            - n_cols / k
            + s * spsi[x]
        )
        hess[x] = (
            tau * tau * tetragamma(tk) * a_x
            - tau * tri_tk * (tau + 2.0 * s * n_cols)
            - s * s * n_cols * trigamma(sk)
            + s * n_cols / k
            + n_cols / (k * k)
        )
    return grad, hess


@njit(cache=True)
def optimise_tau(kappa: np.ndarray, tau: float, s: float, alpha0: np.ndarray, n_cols: int) -> float:
    """Newton iterations in log tau, eq. (B.4); restarts 10x larger if tau collapses."""
    start = tau
    for _ in range(MAX_NEWTON):
        grad, hess = tau_gradient_hessian(kappa, tau, s, alpha0, n_cols)
        if abs(grad) <= NEWTON_TOL:
            break
        exponent = -grad / (hess * tau + grad)
        if exponent > 50.0:
            exponent = 50.0
        elif exponent < -50.0:
            exponent = -50.0
        tau = tau * math.exp(exponent)
        if math.isnan(tau) or tau < 1e-10:
            start *= 10.0
            tau = start
    return tau


@njit(cache=True)
def optimise_kappa(
    kappa: np.ndarray, tau: float, s: float, alpha0: np.ndarray, n_cols: int, spsi: np.ndarray
) -> np.ndarray:
    """Constrained Newton on the simplex, eq. (B.5), with Armijo backtracking."""
    kappa = kappa.copy()
    n_x = kappa.shape[0]
    for _ in range(MAX_NEWTON):
        grad, hess = kappa_gradient_hessian(kappa, tau, s, alpha0, n_cols, spsi)
        sum_gh = 0.0
        sum_inv_h = 0.0
        for x in range(n_x):
            sum_gh += grad[x] / hess[x]
            sum_inv_h += 1.0 / hess[x]
        ratio = sum_gh / sum_inv_h
        delta = np.empty(n_x)
        decrement = 0.0
        slope = 0.0
        step = 1.0
        for x in range(n_x):
            delta[x] = (ratio - grad[x]) / hess[x]
            decrement -= hess[x] * delta[x] * delta[x]
            slope += grad[x] * delta[x]
            if delta[x] < 0.0:
                bound = (kappa[x] - KAPPA_FLOOR) / (-delta[x])
                if bound < step:
                    step = bound
        if decrement <= DECREMENT_TOL or math.isnan(decrement):
            break
        current = kappa_tau_objective(kappa, tau, s, alpha0, n_cols, spsi)
        accepted = False
        while step > MIN_STEP:
            trial = kappa + step * delta
            if (
                kappa_tau_objective(trial, tau, s, alpha0, n_cols, spsi)
                >= current + ARMIJO * step * slope
            ):
                accepted = True
                break
            step *= BACKTRACK
        if not accepted:
            break
        kappa = trial / trial.sum()
    return kappa


@njit(cache=True)
def optimise_kappa_tau(
    kappa: np.ndarray, tau: float, s: float, alpha0: np.ndarray, n_cols: int, spsi: np.ndarray
) -> tuple[np.ndarray, float]:
    """Alternate tau and kappa updates until the (kappa, tau) part of L~ settles."""
    previous = kappa_tau_objective(kappa, tau, s, alpha0, n_cols, spsi)
    for loop in range(MAX_NEWTON):
        tau = optimise_tau(kappa, tau, s, alpha0, n_cols)
        kappa = optimise_kappa(kappa, tau, s, alpha0, n_cols, spsi)
        value = kappa_tau_objective(kappa, tau, s, alpha0, n_cols, spsi)
        if loop >= 1 and abs(value - previous) <= NEWTON_TOL * abs(previous):
            break
        previous = value
    return kappa, tau


@njit(cache=True)
def fit_core(
    counts: np.ndarray, s: float, alpha0: np.ndarray, max_outer: int, tol: float
) -> tuple[np.ndarray, float, int, bool, np.ndarray]:
    n_x, n_y = counts.shape
    kappa = np.full(n_x, 1.0 / n_x)
    tau = TAU_INIT
    trace = np.empty(max_outer)
    converged = False
    n_iter = 0
    previous = 0.0
    for it in range(max_outer):
        nu = counts + s * kappa.reshape(n_x, 1)
        spsi, _ = _psi_sums(nu)
        kappa, tau = optimise_kappa_tau(kappa, tau, s, alpha0, n_y, spsi)
        value = lower_bound(counts, nu, kappa, tau, s, alpha0)
        trace[it] = value
        n_iter = it + 1
        if it > 0 and abs(value - previous) <= tol * abs(previous):
            converged = True
            break
        previous = value
    return kappa, tau, n_iter, converged, trace[:n_iter].copy()
