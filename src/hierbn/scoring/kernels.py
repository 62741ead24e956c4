"""Numba kernels for discrete bipartite DAGs with hidden variables (beal2006).

Parameters are stored padded: ``log_hid[h, k]`` (k < card_h) and ``log_obs[v, cf, k]``
(l < n_cfg[v], k < card_v). Data are unique observed patterns ``patterns[u, v]`` with
multiplicities ``counts[u]`` (exact pattern compression, beal2006 decisions §2).
``states[s, h]`` is the table of joint hidden states and ``cfg[v, s]`` the parent configuration
of v at state s. The kernels take the patterns as ``index[u, s, v]``, the flat position in
``log_obs`` of the entry theta_v[cfg[v, s], y_uv] that pattern u uses at state s
(:func:`entry_index`, built once per structure and data set).

A pattern's joint probabilities p(s, y_u | theta) are products of table entries, computed in
linear space from the tables' exponentials (one ``exp`` per table entry per call, then
multiplications, one ``log`` per pattern) instead of a log-sum-exp per pattern (an ``exp`` per
pattern and state). Every factor is a probability (at most 1), so a product can only underflow;
a pattern whose marginal falls below ``TINY`` is recomputed in logs, so the result is the
log-space one to rounding (beal2006 decisions §2).

Patterns that agree on their first variables share the partial product of those variables'
entries (:func:`prefix_tree`): the joints are built down a tree of the patterns' prefixes, each
node's product its parent's times its own entry, p(s) theta_0 theta_1 ... in the order a
per-pattern product takes, so a pattern's joints are that product's numbers bit for bit, with
about a third of the multiplications for beal2006's data (a node per distinct prefix: 5 + 25
+ 125 + 570 nodes for 570 patterns of four variables). The E-step's expected counts go up the
same tree: a node adds its leaves' summed posterior weights to its entry once, instead of
each pattern adding to each of its entries (the sums are the same to rounding, in another
order).
"""

from __future__ import annotations

import math

import numpy as np
from numba import njit

from hierbn.special import digamma

TINY = 1e-280  # a pattern's marginal below this is recomputed in logs (see the module docstring)


@njit(cache=True)
def entry_index(states, cfg, patterns, table_shape):
    """index[u, s, v] = flat position of theta_v[cfg[v, s], y_uv] in an observed table array
    of shape ``table_shape`` = (n_v, max n_cfg, max card)."""
    n_u, n_v = patterns.shape
    index = np.empty((n_u, states.shape[0], n_v), dtype=np.int64)
    for u in range(n_u):
        for s in range(states.shape[0]):
            for v in range(n_v):
                index[u, s, v] = (v * table_shape[1] + cfg[v, s]) * table_shape[2] + patterns[u, v]
    return index


@njit(cache=True)
def _state_log_value(log_hid, flat_log_obs, states, index, u, s) -> float:
    """ln p(s, y_u | theta) of joint hidden state s and pattern u."""
    value = 0.0
    for h in range(states.shape[1]):
        value += log_hid[h, states[s, h]]
    for v in range(index.shape[2]):
        value += flat_log_obs[index[u, s, v]]
    return value


@njit(cache=True)
def _state_log_joint(log_hid, log_obs, states, index, u, out) -> float:
    """out[s] = ln p(s, y_u | theta) for every joint hidden state s; returns ln p(y_u | theta)."""
    n_s = states.shape[0]
    flat = log_obs.reshape(-1)
    top = -np.inf
    for s in range(n_s):
        out[s] = _state_log_value(log_hid, flat, states, index, u, s)
        top = max(top, out[s])
    if top == -np.inf:
        return top
    acc = 0.0
    for s in range(n_s):
        acc += math.exp(out[s] - top)
    return top + math.log(acc)


@njit(cache=True)
def _linear_tables(log_hid, log_obs, states):
    """(p(s | theta) for every joint hidden state s, exp of the observed tables, flat)."""
    n_s, n_h = states.shape
    prior = np.empty(n_s)
    for s in range(n_s):
        value = 0.0
        for h in range(n_h):
            value += log_hid[h, states[s, h]]
        prior[s] = math.exp(value)
    return prior, np.exp(log_obs).reshape(-1)


@njit(cache=True)
def prefix_tree(index):
    """The patterns' prefixes as a tree, from ``index`` (:func:`entry_index`): level v has a
    node per distinct run of consecutive patterns that agree on variables 0..v (every distinct
    prefix when the patterns are sorted, as ``np.unique`` returns them). Returns (``parent[v,
    node]``, the node of level v - 1 it extends; ``node_index[v, node, s]``, the flat table
    position of its variable-v entry at joint state s; ``n_nodes[v]``). The last level has one
    node per pattern, node u for pattern u."""
    n_u, n_s, n_v = index.shape
    parent = np.zeros((n_v, n_u), dtype=np.int64)
    node_index = np.zeros((n_v, n_u, n_s), dtype=np.int64)
    n_nodes = np.zeros(n_v, dtype=np.int64)
    for u in range(n_u):
        first_new = 0  # the first variable at which pattern u leaves pattern u - 1's path
        if u > 0:
            while first_new < n_v - 1 and np.array_equal(
                index[u, :, first_new], index[u - 1, :, first_new]
            ):
                first_new += 1
        for v in range(first_new, n_v):
            node = n_nodes[v]
            n_nodes[v] += 1
            parent[v, node] = n_nodes[v - 1] - 1 if v > 0 else 0
            node_index[v, node] = index[u, :, v]
    return parent, node_index, n_nodes


@njit(cache=True)
def _prefix_products(prior, flat_obs, parent, node_index, n_nodes):
    """partial[node, s] = p(s) times the entries of variables 0..v of the node's prefix, for
    the nodes of level v = n_v - 2 of the prefix tree (for one variable, the root: p(s)). A
    node's product is its parent's times its own entry (the module docstring)."""
    n_v, n_u, n_s = node_index.shape
    above = np.empty((max(n_u, 1), n_s))
    below = np.empty((max(n_u, 1), n_s))
    for s in range(n_s):  # the root, parent of every node of level 0 (no slice assignment:
        above[0, s] = prior[s]  # its error message costs compile time, tests/test_array_copy)
    for v in range(n_v - 1):
        for node in range(n_nodes[v]):
            up = parent[v, node]
            for s in range(n_s):
                below[node, s] = above[up, s] * flat_obs[node_index[v, node, s]]
        above, below = below, above
    return above


@njit(cache=True)
def _leaf_joint(partial, flat_obs, tree, u, out) -> float:
    """out[s] = p(s, y_u | theta) for every joint hidden state s, pattern u's prefix product
    (``partial``, :func:`_prefix_products`) times its last entry; returns p(y_u | theta)."""
    parent, node_index, _ = tree
    last = node_index.shape[0] - 1
    up = parent[last, u]
    total = 0.0
    for s in range(out.shape[0]):
        out[s] = partial[up, s] * flat_obs[node_index[last, u, s]]
        total += out[s]
    return total


@njit(cache=True)
def log_likelihood(log_hid, log_obs, states, index, counts, tree) -> float:
    """ln p(y | theta) = sum_u c_u ln sum_s p(s, y_u | theta), eq. (7); ``tree`` is
    :func:`prefix_tree` of ``index``."""
    prior, flat_obs = _linear_tables(log_hid, log_obs, states)
    partial = _prefix_products(prior, flat_obs, tree[0], tree[1], tree[2])
    buf = np.empty(states.shape[0])
    total = 0.0
    for u in range(index.shape[0]):
        z = _leaf_joint(partial, flat_obs, tree, u, buf)
        if z > TINY:
            total += counts[u] * math.log(z)
        else:
            total += counts[u] * _state_log_joint(log_hid, log_obs, states, index, u, buf)
    return total


@njit(cache=True)
def _log_posterior(log_hid, log_obs, states, index, u, out) -> float:
    """out[s] = p(s | y_u, theta) computed in logs (a pattern whose linear marginal underflowed);
    returns ln p(y_u | theta)."""
    log_z = _state_log_joint(log_hid, log_obs, states, index, u, out)
    for s in range(out.shape[0]):
        out[s] = math.exp(out[s] - log_z)
    return log_z


@njit(cache=True)
def _pattern_entropy(weights, scale, log_z, log_hid, log_obs, states, index, u) -> float:
    """H[q_u] = -sum_s q_s ln q_s, ln q_s = ln p(s, y_u | theta) - ln Z_u, over the posterior
    weights q_s = scale * weights[s] > 0."""
    flat = log_obs.reshape(-1)
    entropy = 0.0
    for s in range(states.shape[0]):
        q = scale * weights[s]
        if q > 0.0:
            entropy -= q * (_state_log_value(log_hid, flat, states, index, u, s) - log_z)
    return entropy


# numpy booleans, so that Numba types the flag boolean rather than as a literal: a literal
# compiles e_step once per value (issue 46: the first call's compile)
WITH_ENTROPY, NO_ENTROPY = np.bool_(True), np.bool_(False)


@njit(cache=True)
def _add_counts(leaf_weights, tree, states, n_hid, flat_counts) -> None:
    """Adds the posterior weights w[u, s] of the patterns to the expected counts: each node of
    the prefix tree adds its leaves' summed weights to its own entry, level by level from the
    leaves up, and the root's (the weights per state) to the hidden tables."""
    parent, node_index, n_nodes = tree
    n_v, _, n_s = node_index.shape
    level = leaf_weights
    for v in range(n_v - 1, -1, -1):
        above = np.zeros((n_nodes[v - 1] if v > 0 else 1, n_s))
        for node in range(n_nodes[v]):
            up = parent[v, node]
            for s in range(n_s):
                flat_counts[node_index[v, node, s]] += level[node, s]
                above[up, s] += level[node, s]
        level = above
    for s in range(n_s):
        for h in range(states.shape[1]):
            n_hid[h, states[s, h]] += level[0, s]


@njit(cache=True)
def e_step(
    log_hid, log_obs, states, index, counts, tree, n_hid, n_obs, with_entropy=True
) -> tuple[float, float]:
    """Exact E-step at (possibly sub-normalised) parameters: fills the expected counts
    N_jlk (eq. 19/55) in ``n_hid``/``n_obs`` and returns (sum_u c_u ln Z_u, sum_u c_u H[q_u]);
    the entropy is 0 unless ``with_entropy``. ``tree`` is :func:`prefix_tree` of ``index``:
    the joints come down the tree and the counts go up it (:func:`_add_counts`)."""
    n_hid[:] = 0.0
    n_obs[:] = 0.0
    prior, flat_obs = _linear_tables(log_hid, log_obs, states)
    partial = _prefix_products(prior, flat_obs, tree[0], tree[1], tree[2])
    weights = np.empty((index.shape[0], states.shape[0]))
    q = np.empty(states.shape[0])
    total = 0.0
    entropy = 0.0
    for u in range(index.shape[0]):
        z = _leaf_joint(partial, flat_obs, tree, u, q)
        if z > TINY:
            log_z = math.log(z)
            scale = 1.0 / z  # q = joint / z
        else:
            log_z = _log_posterior(log_hid, log_obs, states, index, u, q)
            scale = 1.0
        total += counts[u] * log_z
        if with_entropy:
            entropy += counts[u] * _pattern_entropy(
                q, scale, log_z, log_hid, log_obs, states, index, u
            )
        weight = counts[u] * scale
        for s in range(q.shape[0]):
            weights[u, s] = q[s] * weight
    _add_counts(weights, tree, states, n_hid, n_obs.reshape(-1))
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
def log_theta_sum(lam, hcard, ocard, ncfg, log_hid, log_obs) -> float:
    """lam * sum ln theta over the table entries: the MAP objective's prior part
    (beal2006 decision A4) and, with lam - 1, the log kernel of the Dir(lam) prior (AIS)."""
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
def map_em(log_hid0, log_obs0, states, index, counts, tree, lam, hcard, ocard, ncfg, max_iter, tol):
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
        ll, _ = e_step(log_hid, log_obs, states, index, counts, tree, n_hid, n_obs, NO_ENTROPY)
        objective = ll + log_theta_sum(lam, hcard, ocard, ncfg, log_hid, log_obs)
        iterations = it + 1
        if (objective - previous) / n < tol:
            converged = True
            break
        previous = objective
        _map_update(n_hid, n_obs, lam, hcard, ocard, ncfg, log_hid, log_obs)
    ll, entropy = e_step(log_hid, log_obs, states, index, counts, tree, n_hid, n_obs, WITH_ENTROPY)
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
def _kl_dirichlet_total(a_hid, a_obs, log_hid, log_obs, lam, hcard, ocard, ncfg) -> float:
    """sum_jl KL[Dir(a_jl) || Dir(lam)], from the shapes and their ln theta_tilde = psi(a) -
    psi(a0) (:func:`_expected_log_theta`, the same digammas)."""
    total = 0.0
    for h in range(a_hid.shape[0]):
        a0 = 0.0
        for k in range(hcard[h]):
            a0 += a_hid[h, k]
        part = math.lgamma(a0) - math.lgamma(hcard[h] * lam) + hcard[h] * math.lgamma(lam)
        for k in range(hcard[h]):
            part += -math.lgamma(a_hid[h, k]) + (a_hid[h, k] - lam) * log_hid[h, k]
        total += part
    for v in range(a_obs.shape[0]):
        for cf in range(ncfg[v]):
            a0 = 0.0
            for k in range(ocard[v]):
                a0 += a_obs[v, cf, k]
            part = math.lgamma(a0) - math.lgamma(ocard[v] * lam) + ocard[v] * math.lgamma(lam)
            for k in range(ocard[v]):
                part += -math.lgamma(a_obs[v, cf, k]) + (a_obs[v, cf, k] - lam) * log_obs[v, cf, k]
            total += part
    return total


@njit(cache=True)
def _expected_log_theta(a_hid, a_obs, hcard, ocard, ncfg, log_hid, log_obs) -> None:
    """ln theta_tilde = psi(alpha) - psi(sum alpha), eq. (60)."""
    for h in range(a_hid.shape[0]):
        a0 = 0.0
        for k in range(hcard[h]):
            a0 += a_hid[h, k]
        psi0 = digamma(a0)
        for k in range(hcard[h]):
            log_hid[h, k] = digamma(a_hid[h, k]) - psi0
    for v in range(a_obs.shape[0]):
        for cf in range(ncfg[v]):
            a0 = 0.0
            for k in range(ocard[v]):
                a0 += a_obs[v, cf, k]
            psi0 = digamma(a0)
            for k in range(ocard[v]):
                log_obs[v, cf, k] = digamma(a_obs[v, cf, k]) - psi0


@njit(cache=True)
def vbem(n_hid0, n_obs0, states, index, counts, tree, lam, hcard, ocard, ncfg, max_iter, tol):
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
        total, _ = e_step(log_hid, log_obs, states, index, counts, tree, n_hid, n_obs, NO_ENTROPY)
        kl = _kl_dirichlet_total(a_hid, a_obs, log_hid, log_obs, lam, hcard, ocard, ncfg)
        bound = total - kl
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
