"""Numba kernels of :mod:`hierbn.forest.weka`: one Weka RandomTree grown on nominal codes, and
the forest's class distributions.

A tree is stored in arrays, one entry per node in the order the nodes are made: ``attribute``
(-1 at a leaf), ``first_child`` (the children of a split on attribute ``a`` are the
``cards[a]`` consecutive nodes from there, child ``v`` for value ``v``) and ``counts`` (the
node's class counts, weighted by the bootstrap multiplicities). A node with no row is empty: its
counts are all zero. The rules, and the Weka source they follow, are the decisions W1-W10 of
:mod:`hierbn.forest.weka`; the entropies below keep the order of Weka's sums
(``weka.core.ContingencyTables.entropyOverColumns`` / ``entropyConditionedOnRows``) so that a
tree with every attribute a candidate reproduces Weka's, ties between attributes included.

Hand-written: no library grows Weka's multiway RandomTree (scikit-learn splits in two).
"""

from __future__ import annotations

import math

import numpy as np
from numba import njit

MIN_NUM = 1.0  # RandomTree -M: a node weighing less than 2 * MIN_NUM is a leaf
SMALL = 1e-6  # weka.core.Utils.SMALL: Utils.gr(a, b) is a - b > SMALL, Utils.eq |a - b| < SMALL
LOG2 = math.log(2.0)


@njit(cache=True, nogil=True)
def xlogx_table(n: int) -> np.ndarray:
    """``k ln k`` for k = 0..n (0 at 0): ContingencyTables.lnFunc of every count a node of
    ``n`` weighted rows can hold, in Weka's arithmetic (``k * Math.log(k)``)."""
    table = np.zeros(n + 1)
    for k in range(1, n + 1):
        table[k] = float(k) * math.log(float(k))
    return table


@njit(cache=True, nogil=True)
def prior_entropy(class_counts: np.ndarray, xlogx: np.ndarray) -> float:
    """Class entropy in bits of a node (entropyOverColumns of any of its split tables)."""
    value = 0.0
    total = 0
    for c in range(class_counts.shape[0]):
        value -= xlogx[class_counts[c]]
        total += class_counts[c]
    if total == 0:
        return 0.0
    return (value + xlogx[total]) / (total * LOG2)


@njit(cache=True, nogil=True)
def conditional_entropy(table: np.ndarray, present: np.ndarray, xlogx: np.ndarray) -> float:
    """Class entropy in bits given the attribute, from the rows ``present`` (ascending) of its
    value x class table: entropyConditionedOnRows, whose values no row takes add exact zeros."""
    value = 0.0
    total = 0
    for i in range(present.shape[0]):
        v = present[i]
        row = 0
        for c in range(table.shape[1]):
            value += xlogx[table[v, c]]
            row += table[v, c]
        value -= xlogx[row]
        total += row
    if total == 0:
        return 0.0
    return -value / (total * LOG2)


@njit(cache=True, nogil=True)
def split_table(column, y, w, idx, start, stop, table, row_total, present):  # fmt: skip
    """Add the weights of rows ``idx[start:stop]`` into ``table[value, class]`` (zero on entry)
    and ``row_total``; returns how many values occur, listed ascending in ``present``."""
    n_present = 0
    for i in range(start, stop):
        r = idx[i]
        v = column[r]
        if row_total[v] == 0:
            present[n_present] = v
            n_present += 1
        row_total[v] += w[r]
        table[v, y[r]] += w[r]
    for i in range(1, n_present):  # insertion sort: Weka sums the values in order
        v = present[i]
        j = i - 1
        while j >= 0 and present[j] > v:
            present[j + 1] = present[j]
            j -= 1
        present[j + 1] = v
    return n_present


@njit(cache=True, nogil=True)
def clear_table(table: np.ndarray, row_total: np.ndarray, present: np.ndarray) -> None:
    """Zero the rows ``present`` of ``table`` and ``row_total`` for the next candidate."""
    for i in range(present.shape[0]):
        table[present[i]] = 0
        row_total[present[i]] = 0


@njit(cache=True, nogil=True)
def bootstrap(n: int, bagging: bool) -> np.ndarray:
    """Multiplicity of each row in the tree's sample: n draws with replacement (Weka's
    Bagging at 100%), or every row once."""
    w = np.zeros(n, dtype=np.int64)
    if not bagging:
        w[:] = 1
        return w
    for _ in range(n):
        w[np.random.randint(0, n)] += 1
    return w


@njit(cache=True, nogil=True)
def choose_attribute(
    xt, y, w, idx, start, stop, counts, k_features, window, table, row_total, present, xlogx
):  # fmt: skip
    """Weka's candidate loop: attributes drawn one at a time without replacement from all of
    them, at least ``k_features``, then on until one gains more than SMALL or none is left;
    the best gain wins, ties to the lower attribute index. Returns (attribute, gain)."""
    prior = prior_entropy(counts, xlogx)
    best, best_gain = 0, -np.inf
    left, k, found = window.shape[0], k_features, False
    while left > 0 and (k > 0 or not found):  # Weka: (windowSize > 0) && (k-- > 0 || !gainFound)
        k -= 1
        pick = np.random.randint(0, left)
        a = window[pick]
        window[pick] = window[left - 1]
        window[left - 1] = a
        left -= 1
        n_present = split_table(xt[a], y, w, idx, start, stop, table, row_total, present)
        gain = prior - conditional_entropy(table, present[:n_present], xlogx)
        clear_table(table, row_total, present[:n_present])
        if gain > SMALL:
            found = True
        if gain > best_gain or (gain == best_gain and a < best):
            best, best_gain = a, gain
    return best, best_gain


@njit(cache=True, nogil=True)
def partition(column, y, w, idx, start, stop, card, scratch, child_counts):  # fmt: skip
    """Stable counting sort of ``idx[start:stop]`` by the rows' values in ``column``; adds
    the class weights of value v's rows into ``child_counts[v]`` (zero on entry) and returns the
    offsets of the ``card`` value groups (card + 1)."""
    offsets = np.zeros(card + 1, dtype=np.int64)
    for i in range(start, stop):
        r = idx[i]
        offsets[column[r] + 1] += 1
        child_counts[column[r], y[r]] += w[r]
    offsets[0] = start
    for v in range(card):
        offsets[v + 1] += offsets[v]
    fill = offsets[:card].copy()
    for i in range(start, stop):
        r = idx[i]
        scratch[fill[column[r]]] = r
        fill[column[r]] += 1
    idx[start:stop] = scratch[start:stop]
    return offsets


@njit(cache=True, nogil=True)
def _grown_1d(values: np.ndarray, size: int) -> np.ndarray:
    out = np.empty(size, dtype=values.dtype)
    out[: values.shape[0]] = values
    return out


@njit(cache=True, nogil=True)
def _grown_2d(values: np.ndarray, size: int) -> np.ndarray:
    out = np.zeros((size, values.shape[1]), dtype=values.dtype)
    out[: values.shape[0]] = values
    return out


@njit(cache=True, nogil=True)
def grow_tree(xt, y, cards, n_classes, k_features, bagging, seed, xlogx):  # fmt: skip
    """One RandomTree on the rows (``xt``: attributes x rows codes, ``y`` class codes) from
    a bootstrap sample drawn with Numba's generator seeded ``seed``; ``xlogx`` is
    ``xlogx_table(rows)``. Returns the node arrays (attribute, first_child, counts) described
    in the module docstring."""
    np.random.seed(seed)
    n_attributes, n = xt.shape
    w = bootstrap(n, bagging)
    idx = np.flatnonzero(w > 0)
    scratch = np.empty_like(idx)
    window = np.arange(n_attributes)
    table = np.zeros((cards.max(), n_classes), dtype=np.int64)
    row_total = np.zeros(cards.max(), dtype=np.int64)
    present = np.zeros(cards.max(), dtype=np.int64)
    capacity = 64
    attribute = np.full(capacity, -1, dtype=np.int32)
    first_child = np.full(capacity, -1, dtype=np.int64)
    counts = np.zeros((capacity, n_classes), dtype=np.int32)
    for i in range(idx.shape[0]):
        counts[0, y[idx[i]]] += w[idx[i]]
    size = 1
    # depth-first stack of (node, start, stop): the node's rows are idx[start:stop]
    stack = np.zeros((64, 3), dtype=np.int64)
    stack[0, 2] = idx.shape[0]
    depth = 1
    while depth > 0:
        depth -= 1
        node, start, stop = stack[depth, 0], stack[depth, 1], stack[depth, 2]
        if stop == start:
            continue  # empty: a leaf without counts
        total = counts[node].sum()
        if total < 2 * MIN_NUM or abs(counts[node].max() - total) < SMALL:
            continue  # too light or pure: a leaf
        a, gain = choose_attribute(
            xt, y, w, idx, start, stop, counts[node], k_features, window, table, row_total,
            present, xlogx,
        )  # fmt: skip
        if not gain > SMALL:
            continue  # no attribute gains: a leaf
        card = cards[a]
        if size + card > capacity:
            capacity = 2 * (size + card)
            attribute = _grown_1d(attribute, capacity)
            first_child = _grown_1d(first_child, capacity)
            counts = _grown_2d(counts, capacity)
            attribute[size:] = -1
            first_child[size:] = -1
        offsets = partition(xt[a], y, w, idx, start, stop, card, scratch, table)
        attribute[node], first_child[node] = a, size
        counts[size : size + card] = table[:card]
        table[:card] = 0
        if depth + card > stack.shape[0]:
            stack = _grown_2d(stack, 2 * (depth + card))
        for v in range(card - 1, -1, -1):  # children pop in value order, as Weka builds them
            stack[depth, 0], stack[depth, 1], stack[depth, 2] = size + v, offsets[v], offsets[v + 1]
            depth += 1
        size += card
    return attribute[:size].copy(), first_child[:size].copy(), counts[:size].copy()


@njit(cache=True, nogil=True)
def forest_distributions(x, attribute, first_child, empty, distribution, roots, out, start, stop):  # fmt: skip
    """Rows ``start:stop`` of ``out`` (zeros on entry): the sum over trees, in tree order, of
    each tree's normalised counts (``distribution``) at the row's leaf, then normalised (Weka's
    Bagging). A row reaching an empty node takes its parent's distribution
    (RandomTree.Tree.distributionForInstance). Tree by tree, so one tree's nodes stay in cache."""
    n_classes = out.shape[1]
    for t in range(roots.shape[0]):
        root = roots[t]
        for r in range(start, stop):
            node = root
            while attribute[node] >= 0:
                child = first_child[node] + x[r, attribute[node]]
                if empty[child]:
                    break
                node = child
            for c in range(n_classes):
                out[r, c] += distribution[node, c]
    for r in range(start, stop):
        total = 0.0
        for c in range(n_classes):
            total += out[r, c]
        if not abs(total) < SMALL:
            for c in range(n_classes):
                out[r, c] /= total
