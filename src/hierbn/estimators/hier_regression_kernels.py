"""Numba kernels of the mean-field VB for becker2018's hierarchical regression: the ELBO and
the coordinate-ascent sweeps on per-group sufficient statistics; the Python API is
:mod:`hierbn.estimators.hier_regression`."""

from __future__ import annotations

import math

import numpy as np
from numba import njit

from hierbn.array_copy import copy_into
from hierbn.special import digamma

LOG_2PI = math.log(2.0 * math.pi)


@njit(cache=True)
def _gamma_entropy(a: float, b: float) -> float:
    return a - math.log(b) + math.lgamma(a) + (1.0 - a) * digamma(a)


@njit(cache=True)
def elbo_value(
    n_groups,
    dim,
    spread,
    tr_s,
    logdet_s,
    m_delta,
    sd2,
    a_n,
    b_n,
    c_n,
    d_n,
    e_n,
    f_n,
    sse,
    tr_xxs,
    n_rows,
    hyper,
):
    """The correct ELBO (becker2018 decisions §2.5) from the sufficient quantities of the current
    factors: spread = sum_i ||m_i - m_Delta||^2, tr_s = sum_i tr S_i, logdet_s = sum_i ln det S_i,
    sd2 = diag(S_Delta) (S_Delta is diagonal), sse and tr_xxs = sum_i tr(X_i'X_i S_i)."""
    a0, b0, c0, d0, e0, f0 = hyper[0], hyper[1], hyper[2], hyper[3], hyper[4], hyper[5]
    e_ln_sigma = digamma(a_n) - math.log(b_n)
    e_ln_s = digamma(c_n) - math.log(d_n)
    value = 0.5 * n_rows * (e_ln_sigma - LOG_2PI) - 0.5 * a_n / b_n * (sse + tr_xxs)
    value += 0.5 * n_groups * dim * (e_ln_s - LOG_2PI)
    value -= 0.5 * c_n / d_n * (spread + tr_s + n_groups * sd2.sum())
    for d in range(dim):
        e_ln_w = digamma(e_n) - math.log(f_n[d])
        e_w = e_n / f_n[d]
        value += 0.5 * (e_ln_w - LOG_2PI) - 0.5 * e_w * (m_delta[d] ** 2 + sd2[d])
        value += e0 * math.log(f0) - math.lgamma(e0) + (e0 - 1.0) * e_ln_w - f0 * e_w
        value += _gamma_entropy(e_n, f_n[d])
    value += a0 * math.log(b0) - math.lgamma(a0) + (a0 - 1.0) * e_ln_sigma - b0 * a_n / b_n
    value += c0 * math.log(d0) - math.lgamma(c0) + (c0 - 1.0) * e_ln_s - d0 * c_n / d_n
    entropy_const = 0.5 * dim * (1.0 + LOG_2PI)
    value += 0.5 * logdet_s + n_groups * entropy_const
    value += 0.5 * np.sum(np.log(sd2)) + entropy_const
    value += _gamma_entropy(a_n, b_n) + _gamma_entropy(c_n, d_n)
    return value


@njit(cache=True)
def vb_sweeps(xtx, xty, yty, rows, hyper, corrected, m, m_delta, e_sigma, e_s, e_w, max_iter, tol):
    """Coordinate ascent from the given means and expectations (in the order of
    becker2018 decision 4: beta_i, Delta, s, sigma, w); returns the fitted factors, the ELBO
    trace and the iteration count.

    With X_i'X_i = Q_i diag(l_i) Q_i' computed once, S_i = Q_i diag(1 / (E[s] + E[sigma] l_i)) Q_i',
    so a sweep needs only O(C D^2): the means, traces and log-determinants come from the
    eigenvalues, and the covariances themselves are formed once, at the end."""
    n_groups, dim = xty.shape
    n_rows = rows.sum()
    a0, b0, c0, d0, e0, f0 = hyper[0], hyper[1], hyper[2], hyper[3], hyper[4], hyper[5]
    a_n = a0 + 0.5 * n_rows
    c_n = c0 + 0.5 * n_groups * dim
    e_n = e0 + 0.5
    eigvals = np.empty((n_groups, dim))
    eigvecs = np.empty((n_groups, dim, dim))
    for i in range(n_groups):
        values, vectors = np.linalg.eigh(xtx[i])
        copy_into(values, eigvals[i])
        copy_into(vectors, eigvecs[i])
    inverse = np.empty((n_groups, dim))  # 1 / (E[s] + E[sigma] l_i) of the last beta update
    sd2 = np.zeros(dim)
    b_n, d_n = b0, d0
    f_n = np.full(dim, f0)
    trace = np.zeros(max_iter)
    converged = False
    it = 0
    while it < max_iter:
        sse, tr_xxs, tr_s, stale, logdet_s = 0.0, 0.0, 0.0, 0.0, 0.0
        sum_m = np.zeros(dim)
        for i in range(n_groups):
            copy_into(1.0 / (e_s + e_sigma * eigvals[i]), inverse[i])
            projected = eigvecs[i].T @ (e_sigma * xty[i] + e_s * m_delta)
            copy_into(eigvecs[i] @ (projected * inverse[i]), m[i])
            sse += yty[i] - 2.0 * m[i] @ xty[i] + m[i] @ (xtx[i] @ m[i])
            tr_xxs += np.sum(eigvals[i] * inverse[i])
            tr_s += np.sum(inverse[i])
            logdet_s += np.sum(np.log(inverse[i]))
            stale += np.sum((m[i] - m_delta) ** 2)
            sum_m += m[i]
        diag = n_groups * e_s + e_w
        sd2 = 1.0 / diag
        m_delta = e_s * sum_m / diag  # mu_0 = 0
        spread = 0.0
        for i in range(n_groups):
            spread += np.sum((m[i] - m_delta) ** 2)
        # corrected: exact; faithful: the paper's and the R code's (stale m_Delta, no C;
        # becker2018 decision 4)
        pooled = spread + tr_s + n_groups * sd2.sum() if corrected else stale + sd2.sum() + tr_s
        d_n = d0 + 0.5 * pooled
        b_n = b0 + 0.5 * (sse + tr_xxs)
        f_n = f0 + 0.5 * (m_delta**2 + sd2)
        e_sigma, e_s, e_w = a_n / b_n, c_n / d_n, e_n / f_n
        trace[it] = elbo_value(n_groups, dim, spread, tr_s, logdet_s, m_delta, sd2, a_n, b_n, c_n,
                          d_n, e_n, f_n, sse, tr_xxs, n_rows, hyper)  # fmt: skip
        it += 1
        if it > 1 and abs(trace[it - 1] - trace[it - 2]) < tol:
            converged = True
            break
    S = np.empty((n_groups, dim, dim))
    for i in range(n_groups):
        copy_into((eigvecs[i] * inverse[i]) @ eigvecs[i].T, S[i])
    return m, S, m_delta, np.diag(sd2), a_n, b_n, c_n, d_n, e_n, f_n, trace[:it], it, converged
