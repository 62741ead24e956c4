"""Numba kernels of the HiDDeN MALA-within-Gibbs sampler (Dombowsky & Dunson 2025, Sec. 3–4,
Algorithms 1–4).

Hand-written because they run inside Numba, chain after chain, ~10^5–10^6 times per data set.

Per node j with child values x and observed parent configurations p (a sparse table; empty
configurations contribute exactly 0, dombowsky2025 decision A20), shape s = rho_j / k_j and rate
b_j:

* the data part of log h_{j,x} (eq. 9) is A_x(t) = sum_p [lgamma(N_px + t) - lgamma(t)] and of
  its derivative (eq. 10) A'_x(t) = sum_p [psi(N_px + t) - psi(t)]. Both depend on column x
  only through the histogram of its positive counts (value v, number of cells c_v), which is
  how tables are passed (``vals``, ``mult``, ``nh``); a count v <= 16 uses the exact recurrence
  log prod_{i<v} (t+i) (and sum 1/(t+i) from the product's derivative), one log instead of
  lgamma/digamma;
* the auxiliaries u_p ~ Beta(beta, N_p) enter MALA only through L = sum_p log u_p. As
  Beta(beta, N) is the product of independent Beta(beta + i, 1), i < N, and -log Beta(a, 1) is
  Exp(a), -L = sum_i G_i / (beta + i) with G_i ~ Gamma(m_i), m_i = #{p : N_p > i}: max_p N_p
  Gamma draws instead of one Beta per configuration, the cheaper way chosen per table (Table 3
  has ~150 configurations holding a handful of rows each);
* log h(t) = -b t + (s-1) log t + A(t) + t L, and the MALA step is eq. (12) on untransformed t,
  a proposal t* <= 0 rejected outright (dombowsky2025 decisions §2.1);
* the node score (log of eq. 7) is sum_p [lgamma(beta) - lgamma(N_p + beta)] + sum_x A_x(t_x),
  its first part from the histogram of parent counts.

Every chain seeds Numba's per-thread generator with its own seed at its start, so its draws do
not depend on how many threads run the ``prange`` over replicate chains.
"""

from __future__ import annotations

import math

import numpy as np
from numba import njit, prange, types
from numba.typed import Dict, List

from hierbn.random_variates import log_beta_variate, pooled_neg_log_beta
from hierbn.special import digamma

SMALL_COUNT = 16
PRODUCT_LIMIT = 1e15  # (t + 16)^16 stays far below the float range
TARGET_ACCEPTANCE = 0.574  # Roberts & Rosenthal (1998), quoted in dombowsky2025 decisions §2.2


# ----------------------------------------------------------------------------- log h pieces
@njit(cache=True)
def rising(t: float, v: int) -> tuple[float, float]:
    """(lgamma(t + v) - lgamma(t), psi(t + v) - psi(t)) for a count v >= 0."""
    if v <= SMALL_COUNT and t < PRODUCT_LIMIT:
        product = 1.0
        derivative = 0.0
        for j in range(v):
            derivative = derivative * (t + j) + product
            product *= t + j
        return math.log(product), derivative / product
    return math.lgamma(t + v) - math.lgamma(t), digamma(t + v) - digamma(t)


@njit(cache=True)
def column_terms(t: float, vals: np.ndarray, mult: np.ndarray, nh: int) -> tuple[float, float]:
    """(A(t), A'(t)) of one column given the histogram of its positive counts."""
    a = 0.0
    g = 0.0
    for i in range(nh):
        sa, sg = rising(t, vals[i])
        a += mult[i] * sa
        g += mult[i] * sg
    return a, g


@njit(cache=True)
def log_rising(beta: float, n: int) -> float:
    """lgamma(n + beta) - lgamma(beta)."""
    if n <= SMALL_COUNT and beta < PRODUCT_LIMIT:
        product = 1.0
        for j in range(n):
            product *= beta + j
        return math.log(product)
    return math.lgamma(n + beta) - math.lgamma(beta)


@njit(cache=True)
def parent_part(beta: float, pvals: np.ndarray, pmult: np.ndarray, nph: int) -> float:
    """sum_p [lgamma(beta) - lgamma(N_p + beta)] from the histogram of parent counts."""
    total = 0.0
    for i in range(nph):
        total -= pmult[i] * log_rising(beta, pvals[i])
    return total


@njit(cache=True)
def log_u_sum(beta: float, parent_counts: np.ndarray, exceed: np.ndarray) -> float:
    """A draw of L = sum_p log u_p, u_p ~ Beta(beta, N_p) independently (Alg. 1 lines 2–4); an empty
    configuration (padding) has u = 1, log u = 0 (dombowsky2025 decision A20). With ``exceed`` (m_i
    = #{p : N_p > i}, i < max N_p) non-empty, L = -sum_i Gamma(m_i) / (beta + i) instead."""
    if exceed.shape[0] > 0:
        return -pooled_neg_log_beta(beta, exceed, exceed.shape[0])
    total = 0.0
    for p in range(parent_counts.shape[0]):
        if parent_counts[p] > 0:
            total += log_beta_variate(beta, float(parent_counts[p]))
    return total


@njit(cache=True)
def exceedances(parent_counts: np.ndarray, out: np.ndarray) -> int:
    """Fill ``out[:N]`` with m_i = #{p : N_p > i}, N = max N_p, and return N when that way of
    drawing L (N Gamma draws) is cheaper than one Beta per configuration (two Gamma draws,
    one uniform for N_p = 1); else return 0."""
    top = 0
    beta_cost = 0
    for p in range(parent_counts.shape[0]):
        top = max(top, parent_counts[p])
        if parent_counts[p] > 0:
            beta_cost += 1 if parent_counts[p] == 1 else 2
    if top >= beta_cost:
        return 0
    out[:top] = 0
    for p in range(parent_counts.shape[0]):
        for i in range(parent_counts[p]):
            out[i] += 1
    return top


@njit(cache=True)
def log_u_uniform(parent_counts: np.ndarray) -> float:
    """L with u_p ~ U(0, 1): the fixed-parent sampler's initial state ([code],
    dombowsky2025 decisions §2.3)."""
    total = 0.0
    for p in range(parent_counts.shape[0]):
        if parent_counts[p] > 0:
            total += math.log(1.0 - np.random.random())
    return total


@njit(cache=True)
def log_prior_t(t: float, b: float, s: float) -> float:
    """-b t + (s-1) log t: the Gamma(s, b) kernel of one t_j(x) (eq. 5, rate b)."""
    return -b * t + (s - 1.0) * math.log(t)


@njit(cache=True)
def mala_step(
    t0: float, a0: float, g0: float, eps: float, b: float, s: float, big_l: float,
    vals: np.ndarray, mult: np.ndarray, nh: int,
) -> tuple[float, float, float, float]:  # fmt: skip
    """One MALA update of t_j(x) given u (eq. 12). ``a0``, ``g0`` are A and A' at ``t0``.
    Returns (t, A(t), A'(t), acceptance probability); t is unchanged on rejection."""
    h = 0.5 * eps * eps
    grad0 = -b + (s - 1.0) / t0 + g0 + big_l
    prop = t0 + h * grad0 + eps * np.random.standard_normal()
    if prop <= 0.0:
        return t0, a0, g0, 0.0
    a1, g1 = column_terms(prop, vals, mult, nh)
    grad1 = -b + (s - 1.0) / prop + g1 + big_l
    log_ratio = -b * (prop - t0) + (s - 1.0) * (math.log(prop) - math.log(t0))
    log_ratio += a1 - a0 + (prop - t0) * big_l
    forward = prop - t0 - h * grad0  # proposal density terms phi(.; m, eps^2)
    backward = t0 - prop - h * grad1
    log_ratio += (forward * forward - backward * backward) / (4.0 * h)
    accept_prob = 1.0 if log_ratio >= 0.0 else math.exp(log_ratio)
    if math.log(1.0 - np.random.random()) < log_ratio:
        return prop, a1, g1, accept_prob
    return t0, a0, g0, accept_prob


@njit(cache=True)
def adapt_step_size(log_eps: float, iteration: int, accept_prob: float) -> float:
    """Robbins–Monro pilot update log eps += r^-0.6 (alpha_r - 0.574)
    (dombowsky2025 decisions §2.2 and A2)."""
    return log_eps + iteration**-0.6 * (accept_prob - TARGET_ACCEPTANCE)


# ----------------------------------------------------------------- Algorithm 1, fixed parents
@njit(cache=True)
def _fixed_chain(
    vals, mult, nh, parent_counts, pvals, pmult, nph, exceed, counts, t, eps, b, s, n_iter, burn,
    code_order, adapt, seed, acc, pred_sum, logpost, t_trace, pred_trace,
):  # fmt: skip
    """One chain of Algorithm 1 for one node. ``code_order``: MALA with the previous u, then refresh
    u, starting from u ~ U(0,1) ([code], dombowsky2025 decisions §2.3); else u then MALA. Draw 0 is
    the initial state; quantities after ``burn`` draws are averaged (pred_sum, acc)."""
    np.random.seed(seed)
    k = t.shape[0]
    n_cfg = counts.shape[0]
    a = np.empty(k)
    g = np.empty(k)
    log_eps = np.log(eps)
    for x in range(k):
        a[x], g[x] = column_terms(t[x], vals[x], mult[x], nh[x])
    big_l = log_u_uniform(parent_counts) if code_order else 0.0
    keep_pred = pred_trace.shape[0] > 0
    for r in range(n_iter):
        if r > 0:
            if not code_order:
                big_l = log_u_sum(t.sum(), parent_counts, exceed)
            for x in range(k):
                before = t[x]
                t[x], a[x], g[x], prob = mala_step(
                    t[x], a[x], g[x], math.exp(log_eps[x]), b, s, big_l, vals[x], mult[x], nh[x]
                )
                if adapt:
                    log_eps[x] = adapt_step_size(log_eps[x], r, prob)
                if r >= burn and t[x] != before:
                    acc[x] += 1
            if code_order:
                big_l = log_u_sum(t.sum(), parent_counts, exceed)
        beta = t.sum()
        lp = parent_part(beta, pvals, pmult, nph)
        for x in range(k):
            lp += a[x] + log_prior_t(t[x], b, s)
            t_trace[r, x] = t[x]
        logpost[r] = lp
        if r >= burn:
            for p in range(n_cfg):
                denominator = beta + parent_counts[p]
                for x in range(k):
                    value = (t[x] + counts[p, x]) / denominator
                    pred_sum[p, x] += value
                    if keep_pred:
                        pred_trace[r - burn, p, x] = value
    for x in range(k):
        eps[x] = math.exp(log_eps[x])


@njit(cache=True, parallel=True)
def fixed_chains(
    vals, mult, nh, parent_counts, pvals, pmult, nph, exceed, nex, counts, t0, eps, b, s, n_iter,
    burn, code_order, adapt, seeds, keep_pred,
):  # fmt: skip
    """Independent replicate chains of Algorithm 1 (one node each, tables padded).
    Returns (t draws [R, n_iter, k], acceptances [R, k], predictive means [R, P, k],
    log-posterior [R, n_iter], step sizes [R, k], predictive draws [R, n_kept, P, k] or empty)."""
    n_rep, n_cfg, k = counts.shape
    kept = n_iter - burn
    t_trace = np.zeros((n_rep, n_iter, k))
    acc = np.zeros((n_rep, k))
    pred = np.zeros((n_rep, n_cfg, k))
    logpost = np.zeros((n_rep, n_iter))
    steps = eps.copy()
    pred_trace = np.zeros((n_rep, kept if keep_pred else 0, n_cfg, k))
    for r in prange(n_rep):
        t = t0[r].copy()
        _fixed_chain(
            vals[r], mult[r], nh[r], parent_counts[r], pvals[r], pmult[r], nph[r],
            exceed[r, : nex[r]], counts[r], t, steps[r], b, s, n_iter, burn, code_order, adapt,
            seeds[r], acc[r], pred[r],
            logpost[r], t_trace[r], pred_trace[r],
        )  # fmt: skip
        for p in range(n_cfg):
            for x in range(k):
                pred[r, p, x] /= kept
    return t_trace, acc, pred, logpost, steps, pred_trace


# ------------------------------------------------------- Algorithms 3 and 4, candidate models
@njit(cache=True)
def node_score(t, kj, vals, mult, nh, pvals, pmult, nph) -> float:
    """log f(n_{j|Pa} | n_Pa, t_j), eq. (7), from the table's histograms."""
    beta = 0.0
    for x in range(kj):
        beta += t[x]
    score = parent_part(beta, pvals, pmult, nph)
    for x in range(kj):
        score += column_terms(t[x], vals[x], mult[x], nh[x])[0]
    return score


@njit(cache=True)
def _draw_categorical(log_weights: np.ndarray, probs: np.ndarray) -> int:
    """Index drawn with probability softmax(log_weights); ``probs`` receives the softmax."""
    top = -np.inf
    for i in range(log_weights.shape[0]):
        top = max(top, log_weights[i])
    total = 0.0
    for i in range(log_weights.shape[0]):
        probs[i] = math.exp(log_weights[i] - top) if log_weights[i] > -np.inf else 0.0
        total += probs[i]
    last = 0
    for i in range(log_weights.shape[0]):
        probs[i] /= total
        if probs[i] > 0.0:
            last = i
    u = np.random.random()
    cumulative = 0.0
    for i in range(log_weights.shape[0]):
        cumulative += probs[i]
        if u < cumulative:
            return i
    return last  # rounding left u above the last cumulative sum


@njit(cache=True)
def _model_log_weights(t, kj, log_prior, vals, mult, nh, pvals, pmult, nph, out) -> None:
    """out[m] = log Pr(G_m) + sum_j score(t_j, CT_{j,m}) (Algorithm 4; Algorithm 3 if J = 1)."""
    for m in range(log_prior.shape[0]):
        if log_prior[m] == -np.inf:
            out[m] = -np.inf
            continue
        total = log_prior[m]
        for j in range(kj.shape[0]):
            total += node_score(t[j], kj[j], vals[j, m], mult[j, m], nh[j, m], pvals[j, m],
                                pmult[j, m], nph[j, m])  # fmt: skip
        out[m] = total


@njit(cache=True)
def _model_chain(
    vals, mult, nh, parent_counts, pvals, pmult, nph, exceed, nex, kj, log_prior, t, eps, b, s,
    m0, n_iter, burn, adapt, seed, models, rb, acc, logpost, t_trace,
):  # fmt: skip
    """One chain of Algorithm 1 + Algorithm 4 over candidate models (u, then MALA, per varying
    node, then the model; u is re-drawn from the current model's table each sweep, so it is
    never stale after a model change, dombowsky2025 decisions §2.3)."""
    np.random.seed(seed)
    n_nodes = kj.shape[0]
    n_models = log_prior.shape[0]
    weights = np.empty(n_models)
    probs = np.empty(n_models)
    log_eps = np.log(eps)
    m = m0
    if m < 0:  # drawn from the prior (dombowsky2025 decision A4)
        m = _draw_categorical(log_prior.copy(), probs)
    for r in range(n_iter):
        if r > 0:
            for j in range(n_nodes):
                beta = 0.0
                for x in range(kj[j]):
                    beta += t[j, x]
                big_l = log_u_sum(beta, parent_counts[j, m], exceed[j, m, : nex[j, m]])
                for x in range(kj[j]):
                    a, g = column_terms(t[j, x], vals[j, m, x], mult[j, m, x], nh[j, m, x])
                    before = t[j, x]
                    t[j, x], a, g, prob = mala_step(
                        before, a, g, math.exp(log_eps[j, x]), b[j], s[j], big_l,
                        vals[j, m, x], mult[j, m, x], nh[j, m, x],
                    )  # fmt: skip
                    if adapt:
                        log_eps[j, x] = adapt_step_size(log_eps[j, x], r, prob)
                    if r >= burn and t[j, x] != before:
                        acc[j, x] += 1
        _model_log_weights(t, kj, log_prior, vals, mult, nh, pvals, pmult, nph, weights)
        if r > 0:
            m = _draw_categorical(weights, probs)
            if r >= burn:
                for i in range(n_models):
                    rb[i] += probs[i]
        models[r] = m
        lp = weights[m]
        for j in range(n_nodes):
            for x in range(kj[j]):
                lp += log_prior_t(t[j, x], b[j], s[j])
                t_trace[r, j, x] = t[j, x]
        logpost[r] = lp
    for j in range(n_nodes):
        for x in range(kj[j]):
            eps[j, x] = math.exp(log_eps[j, x])


@njit(cache=True, parallel=True)
def model_chains(
    vals, mult, nh, parent_counts, pvals, pmult, nph, exceed, nex, kj, log_prior, t0, eps, b, s,
    m0, n_iter, burn, adapt, seeds,
):  # fmt: skip
    """Independent replicate chains of Algorithm 4 (tables of replicate r at index r).
    Returns (models [R, n_iter], Rao–Blackwellised model probabilities [R, M] (mean over kept
    draws of the conditional probabilities), acceptances [R, J, k], log-posterior [R, n_iter],
    t draws [R, n_iter, J, k], step sizes [R, J, k])."""
    n_rep = vals.shape[0]
    n_nodes, kmax = t0.shape[1], t0.shape[2]
    n_models = log_prior.shape[0]
    models = np.zeros((n_rep, n_iter), dtype=np.int64)
    rb = np.zeros((n_rep, n_models))
    acc = np.zeros((n_rep, n_nodes, kmax))
    logpost = np.zeros((n_rep, n_iter))
    t_trace = np.zeros((n_rep, n_iter, n_nodes, kmax))
    steps = eps.copy()
    for r in prange(n_rep):
        t = t0[r].copy()
        _model_chain(
            vals[r], mult[r], nh[r], parent_counts[r], pvals[r], pmult[r], nph[r], exceed[r],
            nex[r], kj, log_prior, t, steps[r], b, s, m0[r], n_iter, burn, adapt, seeds[r],
            models[r],
            rb[r], acc[r], logpost[r], t_trace[r],
        )  # fmt: skip
        for i in range(n_models):
            rb[r, i] /= max(n_iter - max(burn, 1), 1)
    return models, rb, acc, logpost, t_trace, steps


# --------------------------------------------------------------- Algorithm 2, edge indicators
_MAX_KEY = 2**62


@njit(cache=True)
def _dense_rank(keys: np.ndarray) -> int:
    """Replace ``keys`` by dense ranks 0..G-1 in place; returns G."""
    order = np.argsort(keys)
    rank = -1
    previous = -1
    for i in range(order.shape[0]):
        value = keys[order[i]]
        if i == 0 or value != previous:
            rank += 1
            previous = value
        keys[order[i]] = rank
    return rank + 1


@njit(cache=True)
def sorted_cell_keys(x_cand, cards, mask, y, k, keys) -> np.ndarray:
    """Sorted keys config * k + child of every row for the parents where ``mask`` is set (the
    configuration is the mixed-radix code of those parents, re-ranked densely whenever its
    range would pass 2^62, so any number of parents works)."""
    n = y.shape[0]
    keys[:] = 0
    bound = 1
    for c in range(cards.shape[0]):
        if mask[c]:
            if bound > _MAX_KEY // cards[c]:
                bound = _dense_rank(keys)
            for i in range(n):
                keys[i] = keys[i] * cards[c] + x_cand[i, c]
            bound *= cards[c]
    if bound > _MAX_KEY // k:
        _dense_rank(keys)
    for i in range(n):
        keys[i] = keys[i] * k + y[i]
    return np.sort(keys)


@njit(cache=True)
def cell_runs(cell_keys: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The distinct cell keys of sorted ``cell_keys`` and their counts (run lengths)."""
    n = cell_keys.shape[0]
    cells = np.empty(n, dtype=np.int64)
    runs = np.empty(n, dtype=np.int64)
    m = 0
    i = 0
    while i < n:
        cells[m] = cell_keys[i]
        runs[m] = 0
        while i < n and cell_keys[i] == cells[m]:
            runs[m] += 1
            i += 1
        m += 1
    return cells[:m], runs[:m]


@njit(cache=True)
def table_sorted(cell_keys, k, columns, sizes, parent_counts) -> int:
    """Fill ``columns[x, :sizes[x]]`` with the positive counts of child value x and
    ``parent_counts[:P]``; returns P, the number of observed configurations."""
    cells, runs = cell_runs(cell_keys)
    sizes[:] = 0
    n_cfg = 0
    n_config = 0
    for c in range(cells.shape[0]):
        x = cells[c] % k
        columns[x, sizes[x]] = runs[c]
        sizes[x] += 1
        n_config += runs[c]
        if c + 1 == cells.shape[0] or cells[c + 1] // k != cells[c] // k:
            parent_counts[n_cfg] = n_config
            n_cfg += 1
            n_config = 0
    return n_cfg


@njit(cache=True)
def histogram_into(values: np.ndarray, vals: np.ndarray, mult: np.ndarray) -> int:
    """Distinct ``values`` into ``vals[:h]`` with their multiplicities in ``mult[:h]``; returns h."""
    ordered = np.sort(values)
    h = 0
    i = 0
    while i < ordered.shape[0]:
        vals[h] = ordered[i]
        mult[h] = 0.0
        while i < ordered.shape[0] and ordered[i] == vals[h]:
            mult[h] += 1.0
            i += 1
        h += 1
    return h


@njit(cache=True)
def _mask_key(mask: np.ndarray) -> int:
    key = 0
    for c in range(mask.shape[0]):
        if mask[c]:
            key |= 1 << c
    return key


MAX_CACHED_FAMILIES = 4096  # parent sets whose tables Algorithm 2 keeps (cleared when full)


@njit(cache=True)
def family_slot(mask, x_cand, cards, y, k, keys, columns, sizes, parent_counts, cache):
    """The slot of the parent set ``mask`` in ``cache`` = (slot by mask key, histograms vals
    [k, W], mult [k, W], nh [k], parent counts [P], their histogram values and multiplicities),
    building its table (one sort of the rows' cell keys) on first use. A table does not depend
    on t, and a chain revisits few parent sets, so Algorithm 2's 2|Ca| scores per iteration
    cost a pass over histograms instead of a sort of n keys each. Candidate sets of more than
    62 variables are not cached (the key is a bit mask)."""
    slots, vals_l, mult_l, nh_l, pc_l, pv_l, pm_l = cache
    cacheable = mask.shape[0] <= 62
    key = _mask_key(mask) if cacheable else -1
    if cacheable and key in slots:
        return slots[key]
    if len(vals_l) >= MAX_CACHED_FAMILIES or not cacheable:
        slots.clear()
        vals_l.clear()
        mult_l.clear()
        nh_l.clear()
        pc_l.clear()
        pv_l.clear()
        pm_l.clear()
    cells = sorted_cell_keys(x_cand, cards, mask, y, k, keys)
    n_cfg = table_sorted(cells, k, columns, sizes, parent_counts)
    width = max(1, sizes.max())
    vals = np.zeros((k, width), dtype=np.int64)
    mult = np.zeros((k, width))
    nh = np.zeros(k, dtype=np.int64)
    for x in range(k):
        nh[x] = histogram_into(columns[x, : sizes[x]], vals[x], mult[x])
    counts = parent_counts[:n_cfg].copy()
    pvals = np.zeros(n_cfg, dtype=np.int64)
    pmult = np.zeros(n_cfg)
    nph = histogram_into(counts, pvals, pmult)
    slot = len(vals_l)
    vals_l.append(vals)
    mult_l.append(mult)
    nh_l.append(nh)
    pc_l.append(counts)
    pv_l.append(pvals[:nph].copy())
    pm_l.append(pmult[:nph].copy())
    if cacheable:
        slots[key] = slot
    return slot


@njit(cache=True)
def new_family_cache():
    """An empty cache for :func:`family_slot`."""
    return (
        Dict.empty(key_type=types.int64, value_type=types.int64),
        List.empty_list(types.int64[:, ::1]),
        List.empty_list(types.float64[:, ::1]),
        List.empty_list(types.int64[::1]),
        List.empty_list(types.int64[::1]),
        List.empty_list(types.int64[::1]),
        List.empty_list(types.float64[::1]),
    )


@njit(cache=True)
def cached_score(slot, cache, t, k) -> float:
    """Node score (log eq. 7) of the family in ``slot``."""
    pv, pm = cache[5][slot], cache[6][slot]
    return node_score(t, k, cache[1][slot], cache[2][slot], cache[3][slot], pv, pm, pv.shape[0])


@njit(cache=True)
def edge_chain(
    x_cand, cards, y, k, c, d, t, eps, b, s, z, n_iter, burn, adapt, seed,
):  # fmt: skip
    """One chain of Algorithm 1 + Algorithm 2 for one node: u and MALA under the current parent set,
    then each candidate's indicator in turn from eq. (13) with gamma_j integrated out (Beta(c, d)
    prior). Returns (z draws [n_iter, C], acceptances [k], log-posterior [n_iter] (App. B with the
    correct shape, dombowsky2025 decision A19), t draws, step sizes)."""
    np.random.seed(seed)
    n = y.shape[0]
    n_cand = cards.shape[0]
    keys = np.zeros(n, dtype=np.int64)
    columns = np.zeros((k, n), dtype=np.int64)
    sizes = np.zeros(k, dtype=np.int64)
    parent_counts = np.zeros(n, dtype=np.int64)
    exceed = np.zeros(n + 1, dtype=np.int64)
    z_trace = np.zeros((n_iter, n_cand), dtype=np.int8)
    acc = np.zeros(k)
    logpost = np.zeros(n_iter)
    t_trace = np.zeros((n_iter, k))
    log_eps = np.log(eps)
    mask = z.copy()
    cache = new_family_cache()
    for r in range(n_iter):
        if r > 0:
            slot = family_slot(
                mask, x_cand, cards, y, k, keys, columns, sizes, parent_counts, cache
            )
            vals, mult, nh, counts = cache[1][slot], cache[2][slot], cache[3][slot], cache[4][slot]
            n_ex = exceedances(counts, exceed)
            big_l = log_u_sum(t.sum(), counts, exceed[:n_ex])
            for x in range(k):
                a, g = column_terms(t[x], vals[x], mult[x], nh[x])
                before = t[x]
                t[x], a, g, prob = mala_step(
                    before, a, g, math.exp(log_eps[x]), b, s, big_l, vals[x], mult[x], nh[x]
                )
                if adapt:
                    log_eps[x] = adapt_step_size(log_eps[x], r, prob)
                if r >= burn and t[x] != before:
                    acc[x] += 1
            for jp in range(n_cand):
                others_in = 0
                for c2 in range(n_cand):
                    if c2 != jp and mask[c2]:
                        others_in += 1
                mask[jp] = 0
                slot = family_slot(
                    mask, x_cand, cards, y, k, keys, columns, sizes, parent_counts, cache
                )
                l0 = math.log(d + (n_cand - 1 - others_in)) + cached_score(slot, cache, t, k)
                mask[jp] = 1
                slot = family_slot(
                    mask, x_cand, cards, y, k, keys, columns, sizes, parent_counts, cache
                )
                l1 = math.log(c + others_in) + cached_score(slot, cache, t, k)
                mask[jp] = 1 if np.random.random() < 1.0 / (1.0 + math.exp(l0 - l1)) else 0
        included = mask.sum()
        slot = family_slot(mask, x_cand, cards, y, k, keys, columns, sizes, parent_counts, cache)
        lp = cached_score(slot, cache, t, k)
        lp += math.lgamma(included + c) + math.lgamma(n_cand - included + d)
        for x in range(k):
            lp += log_prior_t(t[x], b, s)
            t_trace[r, x] = t[x]
        logpost[r] = lp
        z_trace[r] = mask
    for x in range(k):
        eps[x] = math.exp(log_eps[x])
    return z_trace, acc, logpost, t_trace, eps
