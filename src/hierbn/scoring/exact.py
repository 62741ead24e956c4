"""Exact marginal likelihood by enumerating every completion of the hidden variables
(beal2006 eq. (8)–(9); the test oracle of beal2006 decision A23). Cost S^n, so only for
small n.

Depth-first enumeration over data points with the sequential (Pólya-urn) form of eq. (5):
adding a completed case multiplies the marginal likelihood by its posterior predictive
probability, so each tree node costs O(#variables).
"""

from __future__ import annotations

import math

import numpy as np
from numba import njit


@njit(cache=True)
def _log_predictives(lam: float, max_card: int, n: int) -> np.ndarray:
    """``table[card, c, t] = ln((lam + c) / (card lam + t))``: the posterior predictive of a
    state seen ``c`` times among ``t`` cases of a variable of ``card`` states (eq. (5)), for
    every count up to ``n``. The enumeration looks each term up instead of taking a logarithm
    at every node; the quotient and its logarithm are those it took before, so the score is
    the same to the last bit whenever ``card lam`` plus a count is exact (any ``lam`` of few
    binary digits, such as the 1 of beal2006)."""
    table = np.zeros((max_card + 1, n + 1, n + 1))
    for card in range(1, max_card + 1):
        for c in range(n + 1):
            for t in range(c, n + 1):
                table[card, c, t] = math.log((lam + c) / (card * lam + t))
    return table


@njit(cache=True)
def exact_log_marginal(rows, states, cfg, lam, hcard, ocard, ncfg, max_cfg, max_card) -> float:
    """ln p(y | m) = ln sum over completions of p(s, y | m) for the data ``rows[i, v]``."""
    n, n_v = rows.shape
    n_s, n_h = states.shape
    log_predictive = _log_predictives(lam, max_card, n)
    n_hid = np.zeros((n_h, max_card), np.int64)
    hid_total = np.zeros(n_h, np.int64)
    n_obs = np.zeros((n_v, max_cfg, max_card), np.int64)
    obs_total = np.zeros((n_v, max_cfg), np.int64)
    choice = np.full(n, -1)
    partial = np.zeros(n + 1)
    acc_max = -np.inf
    acc_sum = 0.0
    depth = 0
    while depth >= 0:
        if depth == n:
            value = partial[n]
            if value > acc_max:
                acc_sum = acc_sum * math.exp(acc_max - value) + 1.0
                acc_max = value
            else:
                acc_sum += math.exp(value - acc_max)
            depth -= 1
            continue
        if choice[depth] >= 0:  # undo the previous choice at this depth
            s = choice[depth]
            for h in range(n_h):
                n_hid[h, states[s, h]] -= 1
                hid_total[h] -= 1
            for v in range(n_v):
                n_obs[v, cfg[v, s], rows[depth, v]] -= 1
                obs_total[v, cfg[v, s]] -= 1
        choice[depth] += 1
        if choice[depth] == n_s:
            choice[depth] = -1
            depth -= 1
            continue
        s = choice[depth]
        delta = 0.0
        for h in range(n_h):
            k = states[s, h]
            delta += log_predictive[hcard[h], n_hid[h, k], hid_total[h]]
            n_hid[h, k] += 1
            hid_total[h] += 1
        for v in range(n_v):
            cf, k = cfg[v, s], rows[depth, v]
            delta += log_predictive[ocard[v], n_obs[v, cf, k], obs_total[v, cf]]
            n_obs[v, cf, k] += 1
            obs_total[v, cf] += 1
        partial[depth + 1] = partial[depth] + delta
        depth += 1
    return acc_max + math.log(acc_sum)
