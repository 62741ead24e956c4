"""Bayesian-network classifier: class posterior in log space (azzimonti2019 §2.4, Fig. 6)."""

from __future__ import annotations

import numpy as np

from hierbn.bn.structures import BNStructure


def _config_index(
    codes: np.ndarray, parents: tuple[int, ...], cards: tuple[int, ...]
) -> np.ndarray:
    index = np.zeros(codes.shape[0], dtype=np.int64)
    for p in parents:
        index = index * cards[p] + codes[:, p]
    return index


def class_log_posterior(
    structure: BNStructure,
    cpts: list[np.ndarray],
    codes: np.ndarray,
    domains: np.ndarray | None = None,
) -> np.ndarray:
    """log P(c | x) for every row and class value; rows sum to one in probability.

    log-score_c = log theta_C[c] + sum_i log theta_i[x_i | c, x_pa(i)], normalised with
    log-sum-exp. The class column of ``codes`` is ignored. With ``domains`` (one domain per
    row), every CPT is ``theta[x, pa, f]`` and row r uses its domain's columns (the
    multi-domain classifier of azzimonti2019 §5).
    """
    k = structure.class_index
    if k is None:
        raise ValueError("the structure has no class node")
    cards = structure.cardinalities
    n_classes = cards[k]
    scores = np.zeros((codes.shape[0], n_classes))
    work = np.array(codes, dtype=np.int64, copy=True)
    logs = [np.log(theta) for theta in cpts]
    for c in range(n_classes):
        work[:, k] = c
        for node in range(structure.n_nodes):
            y = _config_index(work, structure.parents[node], cards)
            if domains is None:
                scores[:, c] += logs[node][work[:, node], y]
            else:
                scores[:, c] += logs[node][work[:, node], y, domains]
    top = scores.max(axis=1, keepdims=True)
    return scores - (top + np.log(np.exp(scores - top).sum(axis=1, keepdims=True)))


def predict_proba(
    structure: BNStructure,
    cpts: list[np.ndarray],
    codes: np.ndarray,
    domains: np.ndarray | None = None,
) -> np.ndarray:
    """Class posterior probabilities (rows x classes); ``domains`` as in :func:`class_log_posterior`."""
    return np.exp(class_log_posterior(structure, cpts, codes, domains))
