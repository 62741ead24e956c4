"""Numba kernels for discrete bipartite DAGs with hidden variables (beal2006).

Parameters are stored padded: ``log_hid[h, k]`` (k < card_h) and ``log_obs[v, cf, k]``
(l < n_cfg[v], k < card_v). Data are unique observed patterns ``patterns[u, v]`` with
multiplicities ``counts[u]`` (exact pattern compression, beal2006 decisions §2).
``states[s, h]`` is the table of joint hidden states and ``cfg[v, s]`` the parent configuration
of v at state s.
"""

from __future__ import annotations

import math

import numpy as np
from numba import njit

from hierbn.special import digamma


@njit(cache=True)
def _state_log_joint(log_hid, log_obs, states, cfg, patterns, u, out) -> float:
    """out[s] = ln p(s, y_u | theta) for every joint hidden state s; returns ln p(y_u | theta)."""
    n_s, n_h = states.shape
    top = -np.inf
    for s in range(n_s):
        value = 0.0
        for h in range(n_h):
            value += log_hid[h, states[s, h]]
        for v in range(patterns.shape[1]):
            value += log_obs[v, cfg[v, s], patterns[u, v]]
        out[s] = value
        top = max(top, value)
    if top == -np.inf:
        return top
    acc = 0.0
    for s in range(n_s):
        acc += math.exp(out[s] - top)
    return top + math.log(acc)


@njit(cache=True)
def log_likelihood(log_hid, log_obs, states, cfg, patterns, counts) -> float:
    """ln p(y | theta) = sum_u c_u ln sum_s p(s, y_u | theta), eq. (7)."""
    buf = np.empty(states.shape[0])
    total = 0.0
    for u in range(patterns.shape[0]):
        total += counts[u] * _state_log_joint(log_hid, log_obs, states, cfg, patterns, u, buf)
    return total


@njit(cache=True)
def e_step(log_hid, log_obs, states, cfg, patterns, counts, n_hid, n_obs) -> tuple[float, float]:
    """Exact E-step at (possibly sub-normalised) parameters: fills the expected counts
    N_jlk (eq. 19/55) in ``n_hid``/``n_obs`` and returns (sum_u c_u ln Z_u, sum_u c_u H[q_u])."""
    n_hid[:] = 0.0
    n_obs[:] = 0.0
    buf = np.empty(states.shape[0])
    total = 0.0
    entropy = 0.0
    for u in range(patterns.shape[0]):
        log_z = _state_log_joint(log_hid, log_obs, states, cfg, patterns, u, buf)
        total += counts[u] * log_z
        for s in range(states.shape[0]):
            q = math.exp(buf[s] - log_z)
            if q <= 0.0:
                continue
            entropy -= counts[u] * q * (buf[s] - log_z)
            w = counts[u] * q
            for h in range(states.shape[1]):
                n_hid[h, states[s, h]] += w
            for v in range(patterns.shape[1]):
                n_obs[v, cfg[v, s], patterns[u, v]] += w
    return total, entropy


@njit(cache=True)
def _log_beta_row(alpha, size) -> float:
    """ln B(a) = sum_k ln Gamma(a_k) - ln Gamma(sum_k a_k) over the first ``size`` entries."""
    total = 0.0
    s = 0.0
    for k in range(size):
        total += math.lgamma(alpha[k])
        s += alpha[k]
    return total - math.lgamma(s)


@njit(cache=True)
def log_marginal_complete(n_hid, n_obs, lam, hcard, ocard, ncfg) -> float:
    """ln p(s, y | m) at (fractional) counts, eq. (5)/(28): sum_jl [ln B(lam + N_jl) - ln B(lam)]."""
    total = 0.0
    buf = np.empty(max(n_hid.shape[1], n_obs.shape[2]))
    for h in range(n_hid.shape[0]):
        for k in range(hcard[h]):
            buf[k] = lam + n_hid[h, k]
        total += _log_beta_row(buf, hcard[h]) - (
            hcard[h] * math.lgamma(lam) - math.lgamma(hcard[h] * lam)
        )
    for v in range(n_obs.shape[0]):
        prior = ocard[v] * math.lgamma(lam) - math.lgamma(ocard[v] * lam)
        for cf in range(ncfg[v]):
            for k in range(ocard[v]):
                buf[k] = lam + n_obs[v, cf, k]
            total += _log_beta_row(buf, ocard[v]) - prior
    return total


@njit(cache=True)
def _map_update(n_hid, n_obs, lam, hcard, ocard, ncfg, log_hid, log_obs) -> float:
    """Softmax-basis MAP M-step theta = (lam + N)/(lam0 + N) (beal2006 decision A4); returns
    sum_jlk lam * ln theta (the prior part of the monotone MAP objective)."""
    prior = 0.0
    for h in range(n_hid.shape[0]):
        total = hcard[h] * lam
        for k in range(hcard[h]):
            total += n_hid[h, k]
        for k in range(hcard[h]):
            log_hid[h, k] = math.log((lam + n_hid[h, k]) / total)
            prior += lam * log_hid[h, k]
    for v in range(n_obs.shape[0]):
        for cf in range(ncfg[v]):
            total = ocard[v] * lam
            for k in range(ocard[v]):
                total += n_obs[v, cf, k]
            for k in range(ocard[v]):
                log_obs[v, cf, k] = math.log((lam + n_obs[v, cf, k]) / total)
                prior += lam * log_obs[v, cf, k]
    return prior


@njit(cache=True)
def _prior_term(lam, hcard, ocard, ncfg, log_hid, log_obs) -> float:
    prior = 0.0
    for h in range(log_hid.shape[0]):
        for k in range(hcard[h]):
            prior += lam * log_hid[h, k]
    for v in range(log_obs.shape[0]):
        for cf in range(ncfg[v]):
            for k in range(ocard[v]):
                prior += lam * log_obs[v, cf, k]
    return prior


@njit(cache=True)
def map_em(
    log_hid0, log_obs0, states, cfg, patterns, counts, lam, hcard, ocard, ncfg, max_iter, tol
):
    """MAP-EM in the softmax basis (beal2006 decisions A4 and A6), stopping when the monotone
    objective ln p(y|theta) + sum lam ln theta gains < tol per datum. Returns the final E-step
    quantities at theta_hat: (ll, cs_star, entropy, log_hid, log_obs, n_hid, n_obs, iterations,
    converged)."""
    log_hid = log_hid0.copy()
    log_obs = log_obs0.copy()
    n_hid = np.zeros(log_hid.shape)
    n_obs = np.zeros(log_obs.shape)
    n = counts.sum()
    previous = -np.inf
    iterations = 0
    converged = False
    for it in range(max_iter):
        ll, _ = e_step(log_hid, log_obs, states, cfg, patterns, counts, n_hid, n_obs)
        objective = ll + _prior_term(lam, hcard, ocard, ncfg, log_hid, log_obs)
        iterations = it + 1
        if (objective - previous) / n < tol:
            converged = True
            break
        previous = objective
        _map_update(n_hid, n_obs, lam, hcard, ocard, ncfg, log_hid, log_obs)
    ll, entropy = e_step(log_hid, log_obs, states, cfg, patterns, counts, n_hid, n_obs)
    complete = 0.0  # ln p(s_hat, y | theta_hat), eq. (30)
    for h in range(n_hid.shape[0]):
        for k in range(hcard[h]):
            complete += n_hid[h, k] * log_hid[h, k]
    for v in range(n_obs.shape[0]):
        for cf in range(ncfg[v]):
            for k in range(ocard[v]):
                if n_obs[v, cf, k] > 0.0:
                    complete += n_obs[v, cf, k] * log_obs[v, cf, k]
    cs_star = (
        log_marginal_complete(n_hid, n_obs, lam, hcard, ocard, ncfg) + ll - complete
    )  # eq. (27)
    return ll, cs_star, entropy, log_hid, log_obs, n_hid, n_obs, iterations, converged


@njit(cache=True)
def _kl_dirichlet_total(a_hid, a_obs, lam, hcard, ocard, ncfg) -> float:
    """sum_jl KL[Dir(a_jl) || Dir(lam)]."""
    total = 0.0
    for h in range(a_hid.shape[0]):
        a0 = 0.0
        for k in range(hcard[h]):
            a0 += a_hid[h, k]
        part = math.lgamma(a0) - math.lgamma(hcard[h] * lam) + hcard[h] * math.lgamma(lam)
        psi0 = digamma(a0)
        for k in range(hcard[h]):
            part += -math.lgamma(a_hid[h, k]) + (a_hid[h, k] - lam) * (digamma(a_hid[h, k]) - psi0)
        total += part
    for v in range(a_obs.shape[0]):
        for cf in range(ncfg[v]):
            a0 = 0.0
            for k in range(ocard[v]):
                a0 += a_obs[v, cf, k]
            part = math.lgamma(a0) - math.lgamma(ocard[v] * lam) + ocard[v] * math.lgamma(lam)
            psi0 = digamma(a0)
            for k in range(ocard[v]):
                part += -math.lgamma(a_obs[v, cf, k]) + (a_obs[v, cf, k] - lam) * (
                    digamma(a_obs[v, cf, k]) - psi0
                )
            total += part
    return total


@njit(cache=True)
def _expected_log_theta(a_hid, a_obs, hcard, ocard, ncfg, log_hid, log_obs) -> None:
    """ln theta_tilde = psi(alpha) - psi(sum alpha), eq. (60)."""
    for h in range(a_hid.shape[0]):
        a0 = 0.0
        for k in range(hcard[h]):
            a0 += a_hid[h, k]
        for k in range(hcard[h]):
            log_hid[h, k] = digamma(a_hid[h, k]) - digamma(a0)
    for v in range(a_obs.shape[0]):
        for cf in range(ncfg[v]):
            a0 = 0.0
            for k in range(ocard[v]):
                a0 += a_obs[v, cf, k]
            for k in range(ocard[v]):
                log_obs[v, cf, k] = digamma(a_obs[v, cf, k]) - digamma(a0)


@njit(cache=True)
def vbem(n_hid0, n_obs0, states, cfg, patterns, counts, lam, hcard, ocard, ncfg, max_iter, tol):
    """VBEM (beal2006 Sections 3.4–3.5; beal2006 decisions §2) from initial expected counts:
    VBM q_theta = Dir(lam + N), VBE with ln theta_tilde = psi(alpha) - psi(alpha0).
    F = sum_u c_u ln Z_u - sum_jl KL[Dir(alpha) || Dir(lam)] is evaluated after every VBE step.
    Returns (F, min step of F, iterations, converged, ln theta_tilde of the hidden and observed
    tables at the end, eq. (60))."""
    a_hid = lam + n_hid0
    a_obs = lam + n_obs0
    n_hid = np.zeros(a_hid.shape)
    n_obs = np.zeros(a_obs.shape)
    log_hid = np.full(a_hid.shape, -np.inf)
    log_obs = np.full(a_obs.shape, -np.inf)
    n = counts.sum()
    previous = -np.inf
    bound = -np.inf
    min_step = np.inf
    iterations = 0
    converged = False
    for it in range(max_iter):
        _expected_log_theta(a_hid, a_obs, hcard, ocard, ncfg, log_hid, log_obs)
        total, _ = e_step(log_hid, log_obs, states, cfg, patterns, counts, n_hid, n_obs)
        bound = total - _kl_dirichlet_total(a_hid, a_obs, lam, hcard, ocard, ncfg)
        iterations = it + 1
        if it > 0:
            min_step = min(min_step, bound - previous)
        if (bound - previous) / n < tol:
            converged = True
            break
        previous = bound
        a_hid = lam + n_hid
        a_obs = lam + n_obs
    return bound, min_step, iterations, converged, log_hid, log_obs
