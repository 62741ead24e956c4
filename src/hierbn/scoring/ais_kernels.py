"""Numba kernels of annealed importance sampling (beal2006 §3.6, Algorithm 3.1): log-space
Dirichlet draws and densities, the prior, the proposal ratio and one annealing run; the Python
API is :mod:`hierbn.scoring.ais`."""

from __future__ import annotations

import math

import numpy as np
from numba import njit

from hierbn.random_variates import log_gamma_variate
from hierbn.scoring.kernels import log_likelihood


@njit(cache=True)
def _log_dirichlet_row(log_out, strength, log_mean, size) -> None:
    """log_out[:size] = ln of a Dir(strength * exp(log_mean)) draw."""
    top = -np.inf
    for k in range(size):
        log_out[k] = log_gamma_variate(strength * math.exp(log_mean[k]))
        top = max(top, log_out[k])
    acc = 0.0
    for k in range(size):
        acc += math.exp(log_out[k] - top)
    norm = top + math.log(acc)
    for k in range(size):
        log_out[k] -= norm


@njit(cache=True)
def _log_dirichlet_density(log_x, strength, log_mean, size) -> float:
    """ln Dir(x; strength * mean) with x and mean given in logs."""
    total = math.lgamma(strength)
    for k in range(size):
        a = strength * math.exp(log_mean[k])
        total += -math.lgamma(a) + (a - 1.0) * log_x[k]
    return total


@njit(cache=True)
def _log_prior(log_hid, log_obs, lam, hcard, ocard, ncfg) -> float:
    """ln p(theta | m) for symmetric Dirichlet(lam) rows (simplex basis)."""
    total = 0.0
    for h in range(log_hid.shape[0]):
        total += math.lgamma(hcard[h] * lam) - hcard[h] * math.lgamma(lam)
        for k in range(hcard[h]):
            total += (lam - 1.0) * log_hid[h, k]
    for v in range(log_obs.shape[0]):
        for cf in range(ncfg[v]):
            total += math.lgamma(ocard[v] * lam) - ocard[v] * math.lgamma(lam)
            for k in range(ocard[v]):
                total += (lam - 1.0) * log_obs[v, cf, k]
    return total


@njit(cache=True)
def _proposal_terms(log_from, log_to, strength, hcard, ocard, ncfg, hid_from, hid_to) -> float:
    """sum_rows ln Dir(to; strength*from) for the (hidden, observed) parameter blocks."""
    total = 0.0
    for h in range(hid_from.shape[0]):
        total += _log_dirichlet_density(hid_to[h], strength, hid_from[h], hcard[h])
    for v in range(log_from.shape[0]):
        for cf in range(ncfg[v]):
            total += _log_dirichlet_density(log_to[v, cf], strength, log_from[v, cf], ocard[v])
    return total


@njit(cache=True)
def ais_run(
    log_hid0, log_obs0, states, cfg, patterns, counts, lam, hcard, ocard, ncfg, taus, strength, seed
):
    """One AIS run from theta0 ~ prior. Returns (ln Z_hat, acceptance per quarter[4], overall)."""
    np.random.seed(seed)  # numba's own per-run generator, keyed by the caller's SeedSequence
    log_hid = log_hid0.copy()
    log_obs = log_obs0.copy()
    new_hid = log_hid.copy()
    new_obs = log_obs.copy()
    current = log_likelihood(log_hid, log_obs, states, cfg, patterns, counts)
    prior = _log_prior(log_hid, log_obs, lam, hcard, ocard, ncfg)
    n_steps = taus.shape[0] - 1
    log_w = 0.0
    accepted = np.zeros(4)
    totals = np.zeros(4)
    for k in range(1, n_steps + 1):
        tau_prev = taus[k - 1]
        for h in range(log_hid.shape[0]):
            _log_dirichlet_row(new_hid[h], strength, log_hid[h], hcard[h])
        for v in range(log_obs.shape[0]):
            for cf in range(ncfg[v]):
                _log_dirichlet_row(new_obs[v, cf], strength, log_obs[v, cf], ocard[v])
        proposed = log_likelihood(new_hid, new_obs, states, cfg, patterns, counts)
        new_prior = _log_prior(new_hid, new_obs, lam, hcard, ocard, ncfg)
        log_a = new_prior - prior + tau_prev * (proposed - current)
        log_a += _proposal_terms(new_obs, log_obs, strength, hcard, ocard, ncfg, new_hid, log_hid)
        log_a -= _proposal_terms(log_obs, new_obs, strength, hcard, ocard, ncfg, log_hid, new_hid)
        quarter = min(3, (4 * (k - 1)) // n_steps)
        totals[quarter] += 1.0
        if np.isfinite(log_a) and math.log(np.random.random()) < log_a:
            log_hid[:] = new_hid
            log_obs[:] = new_obs
            current = proposed
            prior = new_prior
            accepted[quarter] += 1.0
        log_w += (taus[k] - tau_prev) * current
    return log_w, accepted / np.maximum(totals, 1.0), accepted.sum() / n_steps
