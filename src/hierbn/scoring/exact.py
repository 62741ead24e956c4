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
def exact_log_marginal(rows, states, cfg, lam, hcard, ocard, ncfg, max_cfg, max_card) -> float:
    """ln p(y | m) = ln sum over completions of p(s, y | m) for the data ``rows[i, v]``."""
    n, n_v = rows.shape
    n_s, n_h = states.shape
    n_hid = np.zeros((n_h, max_card))
    n_obs = np.zeros((n_v, max_cfg, max_card))
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
                n_hid[h, states[s, h]] -= 1.0
            for v in range(n_v):
                n_obs[v, cfg[v, s], rows[depth, v]] -= 1.0
        choice[depth] += 1
        if choice[depth] == n_s:
            choice[depth] = -1
            depth -= 1
            continue
        s = choice[depth]
        delta = 0.0
        for h in range(n_h):
            total = hcard[h] * lam
            for k in range(hcard[h]):
                total += n_hid[h, k]
            delta += math.log((lam + n_hid[h, states[s, h]]) / total)
            n_hid[h, states[s, h]] += 1.0
        for v in range(n_v):
            cf = cfg[v, s]
            total = ocard[v] * lam
            for k in range(ocard[v]):
                total += n_obs[v, cf, k]
            delta += math.log((lam + n_obs[v, cf, rows[depth, v]]) / total)
            n_obs[v, cf, rows[depth, v]] += 1.0
        partial[depth + 1] = partial[depth] + delta
        depth += 1
    return acc_max + math.log(acc_sum)
