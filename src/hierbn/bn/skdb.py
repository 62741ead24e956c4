"""Selective kDB (Martínez et al. 2016; petitjean2018 decision §1.6).

Pass 1 learns the kDB-k_max order and parent lists; pass 2 counts; pass 3 runs the incremental
leave-one-out cross validation over every (number of attributes u, number of parents k') at
once, with m = 1 m-estimates whose own count is removed and the trie back-off rule (descend a
parent only while the node's count for the instance's value, summed over classes, is >= 2).
The (u, k') with the smallest RMSE of the true-class probability wins (prior-only model as
the incumbent; u then k' ascending; strict improvement).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from hierbn.bn.structures import BNStructure, kdb_order_and_parents


@dataclass(frozen=True)
class SkdbSelection:
    """The selected structure, the kept attributes (others get no CPT) and the LOOCV RMSE
    grid ``rmse[k', u]`` (u = 0 is the prior-only model)."""

    structure: BNStructure
    kept: tuple[int, ...]
    n_star: int
    k_star: int
    rmse: np.ndarray


def _prefix_tables(
    codes: np.ndarray, child: int, parents: tuple[int, ...], klass: int, cards: np.ndarray
):
    """For every depth d = 0..len(parents): per instance, counts[x_j at prefix_d(j), y] over the
    whole training data and the prefix totals per class (both including the instance)."""
    n_classes = cards[klass]
    n_values = cards[child]
    y = codes[:, klass]
    x = codes[:, child]
    code = np.zeros(codes.shape[0], dtype=np.int64)
    joint, total = [], []
    for d in range(len(parents) + 1):
        if d > 0:
            code = code * cards[parents[d - 1]] + codes[:, parents[d - 1]]
        uniq, inv = np.unique(code, return_inverse=True)
        table = np.zeros((uniq.size, n_values, n_classes))
        np.add.at(table, (inv, x, y), 1.0)
        joint.append(table[inv, x, :])
        total.append(table.sum(axis=1)[inv, :])
    return joint, total


def select_skdb(
    codes: np.ndarray, names: list[str], cards: list[int], class_index: int, k_max: int = 5
) -> SkdbSelection:
    """SkDB structure selection on training data ``codes`` (int codes, class column included)."""
    card = np.asarray(cards, dtype=np.int64)
    order, attribute_parents = kdb_order_and_parents(codes, names, cards, class_index, k_max)
    n_rows = codes.shape[0]
    n_classes = int(card[class_index])
    y = codes[:, class_index]
    own = np.zeros((n_rows, n_classes))
    own[np.arange(n_rows), y] = 1.0
    class_counts = own.sum(axis=0)
    prior = (
        class_counts[None, :] - own + 1.0 / n_classes
    ) / n_rows  # (n_y - [y = y_j] + 1/|Y|)/(N - 1 + 1)
    log_p = np.repeat(np.log(prior)[:, None, :], k_max + 1, axis=1)  # (rows, k', classes)
    rmse = np.zeros((k_max + 1, len(order) + 1))
    rmse[:, 0] = np.sqrt(np.mean((1 - prior[np.arange(n_rows), y]) ** 2))
    for u, (child, parents) in enumerate(zip(order, attribute_parents, strict=True), start=1):
        joint, total = _prefix_tables(codes, child, parents, class_index, card)
        joint_by_depth = np.stack(joint, axis=1)  # (rows, depth, classes)
        total_by_depth = np.stack(total, axis=1)
        support = joint_by_depth.sum(axis=2)  # the node's count for x_j, incl. itself
        reachable = np.cumprod(support[:, 1:] >= 2, axis=1).sum(axis=1).astype(np.int64)
        n_values = card[child]
        rows = np.arange(n_rows)
        for k in range(k_max + 1):
            depth = np.minimum(min(k, len(parents)), reachable)
            j_counts = joint_by_depth[rows, depth] - own
            t_counts = total_by_depth[rows, depth] - own
            log_p[:, k, :] += np.log((j_counts + 1.0 / n_values) / (t_counts + 1.0))
        post = np.exp(log_p - log_p.max(axis=2, keepdims=True))
        post /= post.sum(axis=2, keepdims=True)
        rmse[:, u] = np.sqrt(np.mean((1 - post[np.arange(n_rows), :, y]) ** 2, axis=0))
    best = (0, 0)
    best_value = rmse[0, 0]
    for u in range(1, len(order) + 1):
        for k in range(k_max + 1):
            if rmse[k, u] < best_value:
                best_value, best = rmse[k, u], (u, k)
    n_star, k_star = best
    parents_out: list[tuple[int, ...]] = [()] * len(names)
    for child, chosen in zip(order[:n_star], attribute_parents[:n_star], strict=True):
        parents_out[child] = (class_index, *chosen[:k_star])
    structure = BNStructure(
        tuple(names), tuple(int(c) for c in cards), tuple(parents_out), class_index
    )
    return SkdbSelection(structure, tuple(order[:n_star]), n_star, k_star, rmse)
