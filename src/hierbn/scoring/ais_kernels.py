"""Numba kernels of annealed importance sampling (beal2006 §3.6, Algorithm 3.1): log-space
Dirichlet draws, the proposal ratio and one annealing run; the Python API is
:mod:`hierbn.scoring.ais`.

The proposal around theta is Dir(a) row by row with a = strength * theta (beal2006 decision A9).
Its Metropolis-Hastings ratio ln q(theta | theta') - ln q(theta' | theta) needs
sum ln Gamma(a) of both points; the current point's shapes and sum are kept from the step that
accepted it, so a step computes them for the proposal only. The rows' ln Gamma(strength) cancel
in the ratio, and so do the prior's normalising constants."""

from __future__ import annotations

import math

import numpy as np
from numba import njit

from hierbn.array_copy import copy_into
from hierbn.random_variates import log_gamma_variate
from hierbn.scoring.kernels import log_likelihood, log_theta_sum, prefix_tree


@njit(cache=True)
def _shapes(log_hid, log_obs, strength, hcard, ocard, ncfg, a_hid, a_obs) -> float:
    """a = strength * theta at every table entry; returns sum ln Gamma(a)."""
    total = 0.0
    for h in range(log_hid.shape[0]):
        for k in range(hcard[h]):
            a_hid[h, k] = strength * math.exp(log_hid[h, k])
            total += math.lgamma(a_hid[h, k])
    for v in range(log_obs.shape[0]):
        for cf in range(ncfg[v]):
            for k in range(ocard[v]):
                a_obs[v, cf, k] = strength * math.exp(log_obs[v, cf, k])
                total += math.lgamma(a_obs[v, cf, k])
    return total


@njit(cache=True)
def _weighted_log_sum(a_hid, a_obs, log_hid, log_obs, offset, hcard, ocard, ncfg) -> float:
    """sum (a - offset) ln x over the table entries."""
    total = 0.0
    for h in range(log_hid.shape[0]):
        for k in range(hcard[h]):
            total += (a_hid[h, k] - offset) * log_hid[h, k]
    for v in range(log_obs.shape[0]):
        for cf in range(ncfg[v]):
            for k in range(ocard[v]):
                total += (a_obs[v, cf, k] - offset) * log_obs[v, cf, k]
    return total


@njit(cache=True)
def _log_dirichlet_row(log_out, shape, size) -> None:
    """log_out[:size] = ln of a Dir(shape[:size]) draw."""
    top = -np.inf
    for k in range(size):
        log_out[k] = log_gamma_variate(shape[k])
        top = max(top, log_out[k])
    acc = 0.0
    for k in range(size):
        acc += math.exp(log_out[k] - top)
    norm = top + math.log(acc)
    for k in range(size):
        log_out[k] -= norm


@njit(cache=True)
def _propose(a_hid, a_obs, hcard, ocard, ncfg, new_hid, new_obs) -> None:
    """ln theta' ~ Dir(a) for every row of the hidden and observed tables."""
    for h in range(new_hid.shape[0]):
        _log_dirichlet_row(new_hid[h], a_hid[h], hcard[h])
    for v in range(new_obs.shape[0]):
        for cf in range(ncfg[v]):
            _log_dirichlet_row(new_obs[v, cf], a_obs[v, cf], ocard[v])


@njit(cache=True)
def proposal_log_ratio(
    lg, new_lg, a_hid, a_obs, b_hid, b_obs, log_hid, log_obs, new_hid, new_obs, hcard, ocard, ncfg
) -> float:
    """ln q(theta | theta') - ln q(theta' | theta) for q(x | theta) = prod_rows Dir(x; a(theta)),
    from both points' shapes a (current), b (proposed) and their sums of ln Gamma (``_shapes``)."""
    return (
        lg
        - new_lg
        + _weighted_log_sum(b_hid, b_obs, log_hid, log_obs, 1.0, hcard, ocard, ncfg)
        - _weighted_log_sum(a_hid, a_obs, new_hid, new_obs, 1.0, hcard, ocard, ncfg)
    )


@njit(cache=True)
def ais_run(
    log_hid0, log_obs0, states, index, counts, lam, hcard, ocard, ncfg, taus, strength, seed
):
    """One AIS run from theta0 ~ prior. Returns (ln Z_hat, acceptance per quarter[4], overall).
    The prior Dir(lam) enters the ratio as the change of sum (lam - 1) ln theta."""
    tree = prefix_tree(index)
    np.random.seed(seed)  # numba's own per-run generator, keyed by the caller's SeedSequence
    log_hid, log_obs = log_hid0.copy(), log_obs0.copy()
    new_hid, new_obs = log_hid.copy(), log_obs.copy()
    a_hid, a_obs = np.zeros(log_hid.shape), np.zeros(log_obs.shape)
    b_hid, b_obs = np.zeros(log_hid.shape), np.zeros(log_obs.shape)
    lg = _shapes(log_hid, log_obs, strength, hcard, ocard, ncfg, a_hid, a_obs)
    current = log_likelihood(log_hid, log_obs, states, index, counts, tree)
    prior = log_theta_sum(lam - 1.0, hcard, ocard, ncfg, log_hid, log_obs)
    n_steps = taus.shape[0] - 1
    log_w = 0.0
    accepted = np.zeros(4)
    totals = np.zeros(4)
    for k in range(1, n_steps + 1):
        tau_prev = taus[k - 1]
        _propose(a_hid, a_obs, hcard, ocard, ncfg, new_hid, new_obs)
        proposed = log_likelihood(new_hid, new_obs, states, index, counts, tree)
        new_lg = _shapes(new_hid, new_obs, strength, hcard, ocard, ncfg, b_hid, b_obs)
        new_prior = log_theta_sum(lam - 1.0, hcard, ocard, ncfg, new_hid, new_obs)
        log_a = new_prior - prior + tau_prev * (proposed - current)
        log_a += proposal_log_ratio(
            lg,
            new_lg,
            a_hid,
            a_obs,
            b_hid,
            b_obs,
            log_hid,
            log_obs,
            new_hid,
            new_obs,
            hcard,
            ocard,
            ncfg,
        )
        quarter = min(3, (4 * (k - 1)) // n_steps)
        totals[quarter] += 1.0
        if np.isfinite(log_a) and math.log(np.random.random()) < log_a:
            copy_into(new_hid, log_hid)
            copy_into(new_obs, log_obs)
            copy_into(b_hid, a_hid)
            copy_into(b_obs, a_obs)
            current, lg, prior = proposed, new_lg, new_prior
            accepted[quarter] += 1.0
        log_w += (taus[k] - tau_prev) * current
    return log_w, accepted / np.maximum(totals, 1.0), accepted.sum() / n_steps
