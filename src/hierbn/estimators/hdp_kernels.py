"""Numba kernels of the HDP Gibbs sampler of table counts (petitjean2018 §3–4, Algorithms 1–5;
petitjean2018 decisions §2.4, §2.6, §2.9 and §7.1); the Python API is :mod:`hierbn.estimators.hdp`.

The state of one context tree (nodes in level order, node 0 the root) is the data-plus-tables
counts ``n[node, value]``, the table counts ``t[node, value]``, the concentrations
``alpha[concentration]`` (node j uses ``alpha[conc_id[j]]``; the root, id -1, uses alpha_0) and
the sums ``psum`` of the recorded node probabilities. Every kernel updates it in place and draws
from Numba's generator of the calling thread, seeded by :func:`initial_tables`. The
per-entry helpers of the table sweep are inlined into it (``inline="always"``): as calls they
cost ~7 % of its time. The sweep visits only the entries that can have two or more customers
(:func:`hierbn.estimators.hdp.sweep_entries`; in a deep tree of a large data set, nine in ten
have at most one), the weights leave out every term that is the same for all candidates of
an entry, and an entry's ln Gamma ratios cost one logarithm, not one per candidate
(:func:`table_log_weights`; 1.2-1.3 times faster sweeps, the same chain to rounding), and the
candidates' exponentials are computed inline (:func:`exp_below_top`; 1.16 times). Since
issue 24's last step an entry whose counts lie inside the ratio tables of neighbouring
Stirling numbers (every entry but a few near the root of a large data set) needs neither:
its candidates' weights are running products of those ratios (:func:`ratio_prefix_sums`)
and the draw counts the running sums below the uniform (1.7-2.3 times faster chains; the same
probabilities to rounding, and the same chains bit for bit on the 11 networks compared). The
sweep reads its uniforms in blocks from Numba's own generator
(:mod:`hierbn.uniform_stream`; the same numbers, 1.17-1.29 times faster chains). The
sums of the frozen nodes (whose counts never move: every leaf, and about half the internal
nodes of a deep tree) wait until the concentrations change (:func:`flush_frozen`), and the
concentrations' Beta auxiliaries are drawn pooled (:func:`sample_concentrations`): together
about a third of a deep tree's time before (petitjean2018 decision §2.9).
"""

from __future__ import annotations

import math

import numpy as np
from numba import njit

from hierbn.random_variates import pooled_neg_log_beta
from hierbn.special import digamma
from hierbn.uniform_stream import BLOCK_UNIFORMS, fill_uniforms, thread_state, unread_uniforms

ALPHA_MIN = 1e-6
# the sweep's factor r_c of a window w reaches (2w)!: 128! is about 4e215, inside a double
MAX_WINDOW = 64
RATIO_SUM_MAX = 1e300  # ratio_prefix_sums above this (or not finite) fall back to the logs
POOLED_CUSTOMERS = 32  # nodes of at most this many customers share pooled auxiliary draws
# ... when their concentration is at least this: a node's -ln q then exceeds the 1e-75 floor's
# 172.7 with probability below 1e-34 (Chernoff), so the floor, which the pooled sum cannot
# apply node by node, never acts; a smaller concentration draws node by node
POOLED_ALPHA_MIN = 0.5
# exp_below_top: e^x = 2^(-m/128) e^r, m = round(-x 128 / ln 2), the power from two tables
EXP_FLOOR = -700.0
EXP_STEPS_PER_UNIT = 128.0 / math.log(2.0)
LN2_STEP_HI = 0.6931471803691238 / 128.0  # ln 2 split: steps * HI is exact (HI has 32 bits)
LN2_STEP_LO = 1.9082149292705877e-10 / 128.0
POW2_NEG_INT = 2.0 ** -np.arange(1011.0)  # 2^-i, i up to 700 / ln 2 (1010)
POW2_NEG_FRAC = 2.0 ** (-np.arange(128.0) / 128.0)  # 2^(-f/128)


@njit(cache=True, nogil=True)
def initial_tables(level, parent, leaf_counts, level_start, alpha_init, seed):
    """Algorithm 2: bottom-up initialisation of the table counts with eq. (15); also seeds
    numba's generator of the calling thread with the tree's own key."""
    np.random.seed(seed)
    n_nodes, k_values = leaf_counts.shape
    depth = level[n_nodes - 1]
    n = leaf_counts.copy()
    t = np.zeros((n_nodes, k_values), dtype=np.int64)
    for d in range(depth, -1, -1):
        for j in range(level_start[d], level_start[d + 1]):
            for k in range(k_values):
                if d == 0 or n[j, k] <= 1:
                    t[j, k] = min(1, n[j, k]) if d == 0 else n[j, k]
                else:
                    a = alpha_init
                    t[j, k] = max(1, int(a * (digamma(a + n[j, k]) - digamma(a))))
            if d > 0:
                for k in range(k_values):
                    n[parent[j], k] += t[j, k]
    return n, t


@njit(cache=True, nogil=True, inline="always")
def table_log_weights(n, t, j, pj, k, log_a, norm_lo, lo, hi, log_s, weights):
    """Algorithm 4: log weights of the table counts lo..hi of node j and value k into
    ``weights[0 : hi - lo + 1]``, up to a constant and to the factor r_c of
    :func:`draw_candidate`; returns their maximum (-inf when none is feasible).

    The normaliser 1 / Gamma(a_p + N_parent) of a candidate c, relative to the candidate lo,
    is prod_{m < c - lo} 1 / (A + m) with A = ``norm_lo`` = a_p + N_parent at lo, that is
    A^-(c - lo) / r_c with r_c = prod_{m < c - lo} (1 + m / A): its power enters the log
    weights as one slope, ln(alpha_j) - ln A, so an entry costs one logarithm, not one per
    candidate (petitjean2018 decision §2.9)."""
    cur, n_child, n_parent, t_parent = t[j, k], n[j, k], n[pj, k], t[pj, k]
    slope = log_a - math.log(norm_lo)
    top = -np.inf
    # candidates below ``first`` would leave the parent fewer customers than tables
    first = min(max(lo, cur + t_parent - n_parent), hi + 1)
    for c in range(lo, first):
        weights[c - lo] = -np.inf
    for c in range(first, hi + 1):
        w = (c - lo) * slope + log_s[n_child, c] + log_s[n_parent + c - cur, t_parent]
        weights[c - lo] = w
        top = max(top, w)
    return top


@njit(cache=True, nogil=True, inline="always")
def exp_below_top(weights, size, top):
    """weights[:size] = exp(weights - top) for weights <= top, exactly 0 at -inf and 0 below
    EXP_FLOOR (where e^x < 1e-304, a candidate no uniform can pick); within 5e-16 of libm's
    exp (petitjean2018 decision §2.9). libm's exp is a call Numba can neither inline nor
    overlap with the sweep's other work, and it took a third of the sweep: e^x is written
    2^(-i) 2^(-f/128) e^r with x = -(128 i + f) ln 2 / 128 + r, |r| <= ln 2 / 256, the two
    powers from tables and e^r from its Taylor series to r^5 (remainder below 1e-18)."""
    for i in range(size):
        x = weights[i] - top
        clipped = max(x, EXP_FLOOR)
        steps = math.floor(clipped * EXP_STEPS_PER_UNIT + 0.5)  # <= 0
        r = (clipped - steps * LN2_STEP_HI) - steps * LN2_STEP_LO
        m = int(-steps)
        e_r = ((((r * (1.0 / 120.0) + 1.0 / 24.0) * r + 1.0 / 6.0) * r + 0.5) * r + 1.0) * r + 1.0
        value = e_r * POW2_NEG_INT[m >> 7] * POW2_NEG_FRAC[m & 127]
        weights[i] = value if x >= EXP_FLOOR else 0.0


@njit(cache=True, nogil=True, inline="always")
def draw_candidate(weights, lo, hi, top, norm_lo, uniform):
    """One draw of lo..hi, given a ``uniform`` in [0, 1), with probabilities proportional to
    exp(weights - top) / r_c, r_c = prod_{m < c - lo} (1 + m / norm_lo) (see
    :func:`table_log_weights`; the largest r_c is at most (2 window)!, 20! for the window of
    10; see MAX_WINDOW).

    The inverse CDF without a branch on the uniform: with u_c = u - w_lo - ... - w_c, which
    never increases (w >= 0), the draw is the first c with u_c <= 0, hi when there is none,
    that is lo plus the number of u_c > 0, capped at hi. The same draw as stopping at the
    first u_c <= 0, but the loop runs to hi: stopping at a random candidate cost a
    mispredicted branch per entry (the sweep 1.1 times faster; petitjean2018 decision §2.9)."""
    size = hi - lo + 1
    exp_below_top(weights, size, top)
    acc = weights[0]
    inv_r = 1.0
    for i in range(1, size):
        inv_r *= norm_lo / (norm_lo + (i - 1))
        weights[i] *= inv_r
        acc += weights[i]
    u = uniform * acc
    above = 0
    for i in range(size):
        u -= weights[i]
        above += u > 0.0
    return min(hi, lo + above)


@njit(cache=True, nogil=True, inline="always")
def ratio_prefix_sums(
    prefix, up, down_t, n_child, n_parent, t_parent, cur, lo, first, hi, a_j, norm_lo
):
    """Algorithm 4's weights of the feasible candidates first..hi of an entry (node j with
    ``n_child`` customers and ``cur`` tables, its parent with ``n_parent`` customers and
    ``t_parent`` tables of the value), relative to the candidate ``first``, from the ratio of
    neighbours: w_(c+1) / w_c = alpha_j S(n_j, c + 1) / S(n_j, c) * S(n_p + c + 1 - t, t_p) /
    S(n_p + c - t, t_p) / (a_p + N_p + c - t), the last term Gamma(a_p + N_p + c - t) /
    Gamma(a_p + N_p + c + 1 - t), written norm_lo + c - lo (see :func:`table_log_weights`).
    Writes the running sums into ``prefix[0 : hi - first + 1]`` and returns the total: no
    logarithm and no exponential, one product per candidate (petitjean2018 decision §2.9).
    The weights are at least the first one's 1, so only an overflow can spoil them: a total
    above RATIO_SUM_MAX, or not finite, sends the entry to the logarithms. The Stirling ratios
    come from :func:`hierbn.estimators.stirling.stirling_ratios`, which needs n_child and
    n_parent + window below its rows."""
    w = 1.0
    acc = 1.0
    prefix[0] = 1.0
    for c in range(first, hi):
        w *= a_j * up[n_child, c] * down_t[t_parent, n_parent + c - cur] / (norm_lo + (c - lo))
        acc += w
        prefix[c + 1 - first] = acc
    return acc


@njit(cache=True, nogil=True, inline="always")
def draw_from_prefix_sums(prefix, size, total, uniform):
    """One draw of 0..size-1 with probabilities proportional to the steps of the running sums
    ``prefix[:size]`` (total ``total``): the number of sums below ``uniform`` * total, capped at
    size - 1; no branch on the uniform, and a candidate of weight 0 is never drawn."""
    u = uniform * total
    below = 0
    for i in range(size):
        below += prefix[i] < u
    return min(size - 1, below)


@njit(cache=True, nogil=True)
def sample_tables(
    parent,
    conc_id,
    entry_node,
    entry_value,
    n,
    t,
    n_tot,
    t_tot,
    t_high,
    alpha,
    alpha0,
    log_s,
    up,
    down_t,
    window,
    weights,
):
    """Algorithm 1's table sweep: every t[j, k] of the non-root nodes bottom-up within +-window
    (Algorithm 3), over the entries ``(entry_node[e], entry_value[e])`` that can move (see
    :func:`hierbn.estimators.hdp.sweep_entries`), then the root's tables reset to
    min(1, n) (petitjean2018 decision §2.6); returns the largest table count seen. An entry
    whose counts are inside the ratio tables ``up``/``down_t`` weighs its candidates by
    :func:`ratio_prefix_sums` (about half the sweep's time), the others, and any whose sums
    overflow, by the logarithms of ``log_s`` (:func:`table_log_weights`): the same
    probabilities to rounding, one uniform per entry either way, read in blocks of the
    calling thread's generator (:mod:`hierbn.uniform_stream`)."""
    k_values = n.shape[1]
    log_alpha = np.log(alpha)
    ratio_rows = up.shape[0]
    state = thread_state()
    uniforms = np.empty(BLOCK_UNIFORMS)
    filled = used = 0
    for e in range(entry_node.size):
        j, k = entry_node[e], entry_value[e]
        n_child = n[j, k]
        if n_child <= 1:
            continue
        pj = parent[j]
        a_p = alpha0 if conc_id[pj] < 0 else alpha[conc_id[pj]]
        cur, n_parent, t_parent = t[j, k], n[pj, k], t[pj, k]
        lo = max(1, cur - window)
        hi = min(cur + window, n_child)
        # candidates below ``first`` would leave the parent fewer customers than tables
        first = max(lo, cur + t_parent - n_parent)
        if first > hi:
            continue
        norm_lo = a_p + n_tot[pj] - cur + lo
        if used == filled:
            filled, used = fill_uniforms(state, uniforms), 0
        uniform = uniforms[used]
        used += 1
        chosen = -1
        if n_child < ratio_rows and n_parent + window < ratio_rows:
            a_j = alpha[conc_id[j]]
            total = ratio_prefix_sums(
                weights, up, down_t, n_child, n_parent, t_parent, cur, lo, first, hi, a_j, norm_lo
            )
            if total < RATIO_SUM_MAX:
                chosen = first + draw_from_prefix_sums(weights, hi - first + 1, total, uniform)
        if chosen < 0:
            top = table_log_weights(
                n, t, j, pj, k, log_alpha[conc_id[j]], norm_lo, lo, hi, log_s, weights
            )
            chosen = draw_candidate(weights, lo, hi, top, norm_lo, uniform)
        inc = chosen - cur
        t[j, k] = chosen
        t_high = max(t_high, chosen)
        t_tot[j] += inc
        n[pj, k] += inc
        n_tot[pj] += inc
    unread_uniforms(state, filled - used)
    for k in range(k_values):
        t[0, k] = min(1, n[0, k])
    t_tot[0] = t[0].sum()
    return t_high


@njit(cache=True, nogil=True)
def sample_concentrations(
    conc_nodes, conc_first, n_tot, t_tot, alpha, prior_shape, prior_rate, alpha_max, counts
):
    """Algorithm 5 for every concentration c (its nodes are ``conc_nodes[conc_first[c] :
    conc_first[c + 1]]``): the Beta auxiliaries q_j ~ Beta(alpha_c, n_j) of its nodes with
    customers enter only through shape += t_j and rate += -ln q_j, then alpha_c ~
    Gamma(shape, rate), clipped to [ALPHA_MIN, alpha_max] (petitjean2018 decision §7.1).

    The sum of the -ln q_j is drawn pooled (issue 24): Beta(a, n) is the product of the
    independent Beta(a + i, 1), i < n, so -ln q_j is the sum of E_ji / (a + i) with
    E_ji ~ Exp(1), and over the nodes the E_ji of one i add up to one Gamma(m_i, 1) draw,
    m_i the number of nodes with n_j > i. A level of a deep tree, mostly nodes of one to a
    few customers, then costs a handful of Gamma draws instead of a Beta per node. Nodes of
    more than ``counts.size - 1`` customers, and concentrations below POOLED_ALPHA_MIN or
    whose pooled draws would outnumber two per node, draw their Beta one by one (q floored at
    1e-75 so that -ln q stays finite). Both are draws of the same conditional, so the chain's
    distribution is Algorithm 5's; its random numbers are not the per-node ones. ``counts``
    is scratch."""
    largest = counts.size - 1
    for c in range(alpha.size):
        shape, rate, a = prior_shape, prior_rate, alpha[c]
        counts[:] = 0
        pooled = 0
        for e in range(conc_first[c], conc_first[c + 1]):
            j = conc_nodes[e]
            if n_tot[j] > 0:
                shape += t_tot[j]
                if n_tot[j] <= largest:
                    counts[n_tot[j]] += 1
                    pooled += 1
        top = largest
        while top > 0 and counts[top] == 0:
            top -= 1
        pool = a >= POOLED_ALPHA_MIN and top <= 2 * pooled
        if pool:
            for v in range(top - 1, 0, -1):  # counts[i + 1] becomes #{nodes: n_j > i}
                counts[v] += counts[v + 1]
            rate += pooled_neg_log_beta(a, counts[1:], top)
        for e in range(conc_first[c], conc_first[c + 1]):
            j = conc_nodes[e]
            if n_tot[j] > largest or (not pool and n_tot[j] > 0):
                rate -= math.log(max(1e-75, np.random.beta(a, n_tot[j])))
        if shape > 0 and rate > 0:
            draw = np.random.gamma(shape, 1.0 / rate)
            alpha[c] = min(alpha_max, max(ALPHA_MIN, draw))


@njit(cache=True, nogil=True)
def accumulate_sum(parent, conc_id, n, n_tot, alpha, alpha0, p, psum, live, frontier, block):
    """Eqs. (12)-(14) for the root and the ``live`` nodes (those with a child whose table counts
    can move, parents first): their probabilities in the current state into ``p``, each added
    at once to ``psum``, the sum over the recorded states (the caller divides: a running mean
    would cost a division per entry and state). One reciprocal per node: ``p`` may differ from
    the division's in the last bit. The frozen nodes' sums wait for :func:`flush_frozen`:
    ``block`` adds up the probabilities of the ``frontier`` nodes (the root and live nodes
    with a frozen child) until the concentrations change."""
    k_values = n.shape[1]
    scale = 1.0 / (n_tot[0] + alpha0)
    for k in range(k_values):
        p[0, k] = (n[0, k] + alpha0 / k_values) * scale
        psum[0, k] += p[0, k]
    for e in range(live.size):
        j = live[e]
        a, pj = alpha[conc_id[j]], parent[j]
        scale = 1.0 / (n_tot[j] + a)
        for k in range(k_values):
            p[j, k] = (n[j, k] + a * p[pj, k]) * scale
            psum[j, k] += p[j, k]
    for e in range(frontier.size):
        j = frontier[e]
        for k in range(k_values):
            block[j, k] += p[j, k]


@njit(cache=True, nogil=True)
def flush_frozen(parent, conc_id, n, n_tot, alpha, psum, frozen, frontier, block, states):
    """Eq. (14) for the ``frozen`` nodes (parents first) over the last ``states`` recorded
    states, all with the current concentrations. A frozen node's counts never move (no table
    count of its children can), so the sum of its probabilities (n + a p_parent) / (n_tot + a)
    is (states n + a sum p_parent) / (n_tot + a), with the parent's sum from ``block``: a
    frontier node's accumulated one, or a frozen parent's computed just before (written to its
    row of ``block``). The frontier rows are then cleared. Equal to adding every state's
    probabilities to rounding, at a fraction of the cost: every leaf is frozen, and so is
    about half the internal nodes of a deep tree of a large data set."""
    if states == 0:
        return
    k_values = n.shape[1]
    for e in range(frozen.size):
        j = frozen[e]
        a, pj = alpha[conc_id[j]], parent[j]
        scale = 1.0 / (n_tot[j] + a)
        for k in range(k_values):
            block[j, k] = (states * n[j, k] + a * block[pj, k]) * scale
            psum[j, k] += block[j, k]
    for e in range(frontier.size):
        block[frontier[e], :] = 0.0


@njit(cache=True, nogil=True)
def sweeps(
    parent,
    conc_id,
    n,
    t,
    alpha,
    psum,
    recorded,
    it_from,
    log_s,
    up,
    down_t,
    n_iter,
    burn_in,
    window,
    alpha0,
    prior_shape,
    prior_rate,
    alpha_max,
    conc_every,
    alpha_trace,
    entry_node,
    entry_value,
    conc_nodes,
    conc_first,
    live,
    frozen,
    frontier,
    block,
    pending,
):
    """Iterations it_from.. of Algorithm 1 on the state (n, t, alpha, psum, recorded[0]),
    updated in place, with the Stirling numbers ``log_s`` and their ratio tables ``up`` and
    ``down_t`` (:func:`sample_tables`); with a non-empty
    ``alpha_trace[iteration, concentration]`` the concentrations after each iteration are
    recorded (for convergence diagnostics).
    ``conc_nodes``/``conc_first`` group the nodes by concentration
    (:func:`sample_concentrations`); the sums of the ``frozen`` nodes are added when the
    concentrations change (:func:`flush_frozen`), from ``block`` (the ``frontier`` nodes'
    sums) and ``pending[0]`` states, which carry over a pause; the ``live`` nodes' at every
    recorded state (:func:`accumulate_sum`). Returns the first iteration not run: n_iter, or
    earlier when a table count could leave the Stirling table's columns (the caller grows it
    and resumes, so neither the chain nor the estimate depends on the table's size)."""
    n_nodes, k_values = n.shape
    n_tot = n.sum(axis=1)
    t_tot = t.sum(axis=1)
    t_high = t.max()
    p = np.zeros((n_nodes, k_values))
    weights = np.empty(2 * window + 1)
    counts = np.zeros(POOLED_CUSTOMERS + 1, dtype=np.int64)
    for it in range(it_from, n_iter):
        if t_high + window >= log_s.shape[1]:
            return it
        t_high = sample_tables(
            parent,
            conc_id,
            entry_node,
            entry_value,
            n,
            t,
            n_tot,
            t_tot,
            t_high,
            alpha,
            alpha0,
            log_s,
            up,
            down_t,
            window,
            weights,
        )
        if (it + conc_every // 2) % conc_every == 0:
            flush_frozen(
                parent, conc_id, n, n_tot, alpha, psum, frozen, frontier, block, pending[0]
            )
            pending[0] = 0
            sample_concentrations(
                conc_nodes,
                conc_first,
                n_tot,
                t_tot,
                alpha,
                prior_shape,
                prior_rate,
                alpha_max,
                counts,
            )
        if alpha_trace.shape[0] > 0:
            alpha_trace[it, :] = alpha
        if it >= burn_in:
            accumulate_sum(parent, conc_id, n, n_tot, alpha, alpha0, p, psum, live, frontier, block)
            recorded[0] += 1
            pending[0] += 1
    flush_frozen(parent, conc_id, n, n_tot, alpha, psum, frozen, frontier, block, pending[0])
    pending[0] = 0
    return n_iter
