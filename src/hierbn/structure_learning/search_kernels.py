"""Numba kernels of the structure searches (:mod:`hierbn.structure_learning.search`) and the
configuration ids shared with the G² test (:mod:`hierbn.structure_learning.markov_blanket_kernels`).

Data reach the kernels as ``codes_t[column, row]``: dense codes ``0 .. levels[column] - 1`` over
each column's *observed* levels (dombowsky2025 decision A16), one contiguous row per column. The
checks sit in front of the kernels, which run without bounds checks.

A parent configuration is renumbered after each parent in the order of first occurrence, so the
ids of any set of columns stay in ``[0, n_rows)`` however many levels the product has; the count
tables are therefore at most ``n_rows x levels`` whatever the number of parents.

The search kernel keeps, as bnlearn does, the score of every family one arc away from the
current network (``scores[u, v]``: the BIC of ``v`` with ``u`` added to or removed from its
parents) and rescores only the column of a node whose parents a move changed, so each iteration
costs at most two columns of family scores plus the reachability of the new graph.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from hierbn.array_copy import copy_into

ONE = np.int64(1)  # a count of 1 passed to a kernel as int64, not as a literal (see ADD)


@njit(cache=True)
def recode_columns(codes: np.ndarray, maxima: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """``codes[row, column]`` (non-negative, column ``j`` at most ``maxima[j]``) as dense codes
    ``codes_t[column, row]`` in increasing order of the original codes, and the number of
    observed levels of each column."""
    n_rows, n_cols = codes.shape
    codes_t = np.empty((n_cols, n_rows), dtype=np.int64)
    levels = np.empty(n_cols, dtype=np.int64)
    for j in range(n_cols):
        present = np.zeros(maxima[j] + 1, dtype=np.int64)
        for i in range(n_rows):
            present[codes[i, j]] = 1
        count = 0
        for value in range(maxima[j] + 1):
            if present[value]:
                present[value] = count
                count += 1
        for i in range(n_rows):
            codes_t[j, i] = present[codes[i, j]]
        levels[j] = count
    return codes_t, levels


@njit(cache=True)
def configuration_ids(
    codes_t: np.ndarray, levels: np.ndarray, columns: np.ndarray
) -> tuple[np.ndarray, int]:
    """Dense ids (first-occurrence order) of the observed configurations of ``columns`` in each
    row, and their number (1 for no columns)."""
    n_rows = codes_t.shape[1]
    ids = np.zeros(n_rows, dtype=np.int64)
    n_ids = 1
    for c in range(columns.shape[0]):
        column = columns[c]
        radix = levels[column]
        lookup = np.full(n_ids * radix, -1, dtype=np.int64)
        fresh = 0
        row = codes_t[column]
        for i in range(n_rows):
            key = ids[i] * radix + row[i]
            if lookup[key] < 0:
                lookup[key] = fresh
                fresh += 1
            ids[i] = lookup[key]
        n_ids = fresh
    return ids, n_ids


@njit(cache=True)
def _loglik(
    ids: np.ndarray,
    n_ids: int,
    extra: np.ndarray,
    extra_levels: int,
    child: np.ndarray,
    child_levels: int,
) -> float:
    """``sum_jk n_jk log(n_jk / n_j)`` of ``child`` given the configurations ``ids`` crossed
    with the column ``extra`` (``extra_levels = 1``: no extra column)."""
    n_configs = n_ids * extra_levels
    counts = np.zeros(n_configs * child_levels, dtype=np.int64)
    if extra_levels == 1:
        for i in range(ids.shape[0]):
            counts[ids[i] * child_levels + child[i]] += 1
    else:
        for i in range(ids.shape[0]):
            counts[(ids[i] * extra_levels + extra[i]) * child_levels + child[i]] += 1
    total = 0.0
    for j in range(n_configs):
        base = j * child_levels
        n_j = 0
        for k in range(child_levels):
            n_j += counts[base + k]
        if n_j == 0:
            continue
        for k in range(child_levels):
            count = counts[base + k]
            if count > 0:
                total += count * np.log(count / n_j)
    return total


@njit(cache=True)
def family_bic(codes_t: np.ndarray, levels: np.ndarray, child: int, parents: np.ndarray) -> float:
    """bnlearn's BIC of ``child`` given ``parents``: ``loglik - q (r - 1) log(n) / 2`` with ``q``
    the product of the parents' observed levels (dombowsky2025 decisions §4.3 and A16)."""
    ids, n_ids = configuration_ids(codes_t, levels, parents)
    row = codes_t[child]
    q = 1.0
    for c in range(parents.shape[0]):
        q *= levels[parents[c]]
    penalty = 0.5 * q * (levels[child] - 1) * np.log(codes_t.shape[1])
    return _loglik(ids, n_ids, row, ONE, row, levels[child]) - penalty


@njit(cache=True)
def _rescore_column(
    codes_t: np.ndarray,
    levels: np.ndarray,
    amat: np.ndarray,
    node: int,
    family: np.ndarray,
    scores: np.ndarray,
) -> None:
    """``family[node]`` and ``scores[u, node]`` for every ``u``: the BIC of ``node`` with ``u``
    added to (arc absent) or removed from (arc present) its current parents."""
    n_nodes = amat.shape[0]
    n_parents = 0
    for u in range(n_nodes):
        if amat[u, node]:
            n_parents += 1
    parents = np.empty(n_parents, dtype=np.int64)
    others = np.empty(max(n_parents - 1, 0), dtype=np.int64)
    c = 0
    q = 1.0
    for u in range(n_nodes):
        if amat[u, node]:
            parents[c] = u
            c += 1
            q *= levels[u]
    child = codes_t[node]
    r = levels[node]
    half_log_n = 0.5 * np.log(codes_t.shape[1])
    ids, n_ids = configuration_ids(codes_t, levels, parents)
    family[node] = _loglik(ids, n_ids, child, ONE, child, r) - q * (r - 1) * half_log_n
    for u in range(n_nodes):
        if u == node:
            continue
        if amat[u, node]:
            c = 0
            q_less = 1.0
            for w in parents:
                if w != u:
                    others[c] = w
                    c += 1
                    q_less *= levels[w]
            less, n_less = configuration_ids(codes_t, levels, others)
            loglik = _loglik(less, n_less, child, ONE, child, r)
            scores[u, node] = loglik - q_less * (r - 1) * half_log_n
        else:
            loglik = _loglik(ids, n_ids, codes_t[u], levels[u], child, r)
            scores[u, node] = loglik - q * levels[u] * (r - 1) * half_log_n


@njit(cache=True)
def reachability(amat: np.ndarray) -> np.ndarray:
    """``reach[a, b]``: a directed path of length >= 1 leads from ``a`` to ``b``."""
    n_nodes = amat.shape[0]
    reach = np.zeros((n_nodes, n_nodes), dtype=np.bool_)
    stack = np.empty(n_nodes, dtype=np.int64)
    for source in range(n_nodes):
        top = 0
        for w in range(n_nodes):
            if amat[source, w]:
                reach[source, w] = True
                stack[top] = w
                top += 1
        while top > 0:
            top -= 1
            a = stack[top]
            for w in range(n_nodes):
                if amat[a, w] and not reach[source, w]:
                    reach[source, w] = True
                    stack[top] = w
                    top += 1
    return reach


# numpy scalars, so that Numba types them int64 rather than as literals: a literal argument
# compiles a kernel once per value (issue 46: 10 specialisations of 3 small kernels, a quarter
# of the structure search's first-call compile)
ADD, DELETE, REVERSE = np.int64(0), np.int64(1), np.int64(2)


@njit(cache=True)
def _is_tabu(
    memory: np.ndarray, n_stored: int, differences: np.ndarray, kind: int, u: int, v: int
) -> bool:
    """Whether the network one ``kind`` move on ``u -> v`` away from the current one is among
    the stored networks: a stored network equals it when it differs from the current one in
    exactly the entries the move flips (``differences``: entries differing from the current)."""
    for k in range(n_stored):
        if kind == REVERSE:
            if differences[k] == 2 and not memory[k, u, v] and memory[k, v, u]:
                return True
        elif differences[k] == 1 and memory[k, u, v] == (kind == ADD):
            return True
    return False


@njit(cache=True)
def search(
    codes_t: np.ndarray,
    levels: np.ndarray,
    banned: np.ndarray,
    fixed: np.ndarray,
    start: np.ndarray,
    tol: float,
    tabu_length: int,
    max_tabu: int,
    max_iter: int,
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Hill climbing (``tabu_length = 0``) or tabu search from the adjacency matrix ``start``
    (``amat[u, v]``: arc ``u -> v``) under the rules of :mod:`hierbn.structure_learning.search`;
    ``max_iter < 0`` means no cap. Returns the adjacency matrix of the result (tabu: the best
    network seen), the BIC of the current network after each iteration (entry 0: the start) and
    the change each applied move made."""
    n_nodes = start.shape[0]
    amat = start.copy()
    family = np.zeros(n_nodes)
    scores = np.zeros((n_nodes, n_nodes))
    for v in range(n_nodes):
        _rescore_column(codes_t, levels, amat, v, family, scores)
    reach = reachability(amat)
    tabu = tabu_length > 0
    memory = np.zeros((max(tabu_length, 1), n_nodes, n_nodes), dtype=np.bool_)
    copy_into(amat, memory[0])
    n_stored = ONE
    differences = np.zeros(max(tabu_length, 1), dtype=np.int64)
    best = amat.copy()
    best_score = family.sum()
    trace = np.empty(64)
    deltas = np.empty(64)
    trace[0] = best_score
    iterations = 0
    stalled = 0
    while max_iter < 0 or iterations < max_iter:
        if tabu:
            for k in range(n_stored):
                differences[k] = 0
                for u in range(n_nodes):
                    for v in range(n_nodes):
                        if memory[k, u, v] != amat[u, v]:
                            differences[k] += 1
        kind, source, target, change = -ONE, -ONE, -ONE, 0.0
        for u in range(n_nodes):  # additions
            for v in range(n_nodes):
                if u == v or amat[u, v] or banned[u, v] or reach[v, u]:
                    continue
                if tabu and _is_tabu(memory, n_stored, differences, ADD, u, v):
                    continue
                delta = scores[u, v] - family[v]
                if kind < 0 or delta > change + tol:
                    kind, source, target, change = ADD, u, v, delta
        for u in range(n_nodes):  # deletions
            for v in range(n_nodes):
                if not amat[u, v] or fixed[u, v]:
                    continue
                if tabu and _is_tabu(memory, n_stored, differences, DELETE, u, v):
                    continue
                delta = scores[u, v] - family[v]
                if kind < 0 or delta > change + tol:
                    kind, source, target, change = DELETE, u, v, delta
        for u in range(n_nodes):  # reversals
            for v in range(n_nodes):
                if not amat[u, v] or fixed[u, v] or banned[v, u]:
                    continue
                detour = False
                for c in range(n_nodes):
                    if c != v and amat[u, c] and reach[c, v]:
                        detour = True
                        break
                if detour or (tabu and _is_tabu(memory, n_stored, differences, REVERSE, u, v)):
                    continue
                delta = (scores[u, v] - family[v]) + (scores[v, u] - family[u])
                if kind < 0 or delta > change + tol:
                    kind, source, target, change = REVERSE, u, v, delta
        if kind < 0 or (not tabu and change <= tol):
            break
        if tabu and change <= tol:  # no move raises the score: bnlearn's check, then count
            if stalled >= max_tabu:
                break
            stalled += 1
        amat[source, target] = kind == ADD
        if kind == REVERSE:
            amat[target, source] = True
        _rescore_column(codes_t, levels, amat, target, family, scores)  # parents of target
        if kind == REVERSE:
            _rescore_column(codes_t, levels, amat, source, family, scores)
        reach = reachability(amat)
        iterations += 1
        if iterations >= trace.shape[0]:
            trace = np.concatenate((trace, np.empty(trace.shape[0])))
            deltas = np.concatenate((deltas, np.empty(deltas.shape[0])))
        score = family.sum()
        trace[iterations] = score
        deltas[iterations] = change
        if not tabu:
            continue
        copy_into(amat, memory[iterations % tabu_length])
        n_stored = min(n_stored + 1, tabu_length)
        if score > best_score + tol:
            copy_into(amat, best)
            best_score = score
            stalled = 0
    deltas[0] = 0.0
    return (best if tabu else amat), trace[: iterations + 1], deltas[: iterations + 1]
