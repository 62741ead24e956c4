"""Numba kernels of becker2018's Gibbs sampler: a hand Cholesky factor and triangular solves
(D ~ 31) and one chain of sweeps beta -> sigma -> s -> Delta -> w; the Python API is
:mod:`hierbn.estimators.hier_regression_gibbs`."""

from __future__ import annotations

import numpy as np
from numba import njit

from hierbn.array_copy import copy_into


@njit(cache=True)
def _cholesky(a, out):
    """Lower Cholesky factor of the SPD ``a`` into ``out`` (D ~ 31: a hand loop beats a LAPACK
    call's overhead at this size)."""
    n = a.shape[0]
    for j in range(n):
        total = a[j, j]
        for k in range(j):
            total -= out[j, k] * out[j, k]
        out[j, j] = np.sqrt(total)
        for i in range(j + 1, n):
            total = a[i, j]
            for k in range(j):
                total -= out[i, k] * out[j, k]
            out[i, j] = total / out[j, j]
        for i in range(j):
            out[i, j] = 0.0


@njit(cache=True)
def _solve_lower(chol, b, out):
    for i in range(b.shape[0]):
        total = b[i]
        for k in range(i):
            total -= chol[i, k] * out[k]
        out[i] = total / chol[i, i]


@njit(cache=True)
def _solve_upper_t(chol, b, out):
    """Solve chol^T out = b."""
    n = b.shape[0]
    for i in range(n - 1, -1, -1):
        total = b[i]
        for k in range(i + 1, n):
            total -= chol[k, i] * out[k]
        out[i] = total / chol[i, i]


@njit(cache=True)
def gibbs_chain(
    xtx, xty, yty, rows, hyper, n_burn, n_keep, thin, seed, record, fixed_sigma, fixed_s, fixed_w
):
    np.random.seed(seed)
    n_groups, dim = xty.shape
    n_rows = rows.sum()
    a0, b0, c0, d0, e0, f0 = hyper[0], hyper[1], hyper[2], hyper[3], hyper[4], hyper[5]
    sigma = np.random.gamma(1.0, 1.0) if fixed_sigma <= 0 else fixed_sigma
    s = np.random.gamma(1.0, 1.0) if fixed_s <= 0 else fixed_s
    delta = np.random.standard_normal(dim)
    w = np.empty(dim)
    for d in range(dim):
        w[d] = np.random.gamma(1.0, 1.0) if fixed_w[d] <= 0 else fixed_w[d]
    beta = np.zeros((n_groups, dim))
    out_delta = np.empty((n_keep, dim))
    out_sigma = np.empty(n_keep)
    out_s = np.empty(n_keep)
    out_w = np.empty((n_keep, dim))
    out_beta = np.empty((n_keep, record.size, dim))
    beta_mean = np.zeros((n_groups, dim))
    beta_sq = np.zeros((n_groups, dim))
    precision = np.empty((dim, dim))
    rhs = np.empty(dim)
    chol = np.zeros((dim, dim))
    half = np.empty(dim)
    draw = np.empty(dim)
    for it in range(n_burn + n_keep * thin):
        sse = 0.0
        for i in range(n_groups):
            for a in range(dim):  # in preallocated buffers: no array is created per group
                for b in range(dim):
                    precision[a, b] = sigma * xtx[i, a, b]
                precision[a, a] += s
                rhs[a] = sigma * xty[i, a] + s * delta[a]
            _cholesky(precision, chol)
            _solve_lower(chol, rhs, half)
            for a in range(dim):
                half[a] += np.random.standard_normal()
            _solve_upper_t(chol, half, draw)  # = mean + chol^-T z: both solve the same triangles
            quad = 0.0
            for a in range(dim):
                beta[i, a] = draw[a]
                row = 0.0
                for b in range(dim):
                    row += xtx[i, a, b] * draw[b]
                quad += draw[a] * (row - 2.0 * xty[i, a])
            sse += yty[i] + quad
        if fixed_sigma <= 0:
            sigma = np.random.gamma(a0 + 0.5 * n_rows, 1.0 / (b0 + 0.5 * max(sse, 0.0)))
        if fixed_s <= 0:
            spread = 0.0
            for i in range(n_groups):
                spread += np.sum((beta[i] - delta) ** 2)
            s = np.random.gamma(c0 + 0.5 * n_groups * dim, 1.0 / (d0 + 0.5 * spread))
        total = beta.sum(axis=0)
        for d in range(dim):  # Lambda_Delta = diag(w) + C s I is diagonal
            lam = w[d] + n_groups * s
            delta[d] = s * total[d] / lam + np.random.standard_normal() / np.sqrt(lam)
        for d in range(dim):
            if fixed_w[d] <= 0:
                w[d] = np.random.gamma(e0 + 0.5, 1.0 / (f0 + 0.5 * delta[d] ** 2))
        k = (it - n_burn) // thin
        if it >= n_burn and (it - n_burn) % thin == thin - 1:
            copy_into(delta, out_delta[k])
            out_sigma[k] = sigma
            out_s[k] = s
            copy_into(w, out_w[k])
            for r in range(record.size):
                copy_into(beta[record[r]], out_beta[k, r])
            beta_mean += beta
            beta_sq += beta * beta
    return out_delta, out_sigma, out_s, out_w, out_beta, beta_mean / n_keep, beta_sq / n_keep
