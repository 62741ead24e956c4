"""m-estimates with back-off answered from a prefix count trie (petitjean2018 eq. (16),
petitjean2018 decision §1.7).

The same context tree as the HDP estimator stores the data counts of every prefix of the
parent list, so a query walks the prefix path of each row and backs off as the dense
``m_estimate_backoff`` does, without enumerating every parent configuration (kDB-5 tables
can have millions of columns).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from hierbn.estimators.hdp import ContextTree, build_tree, data_counts, node_path
from hierbn.estimators.m_estimate import BACKOFF_RULES
from hierbn.validate import check_family, check_positive


@dataclass
class MEstimateTrie:
    tree: ContextTree
    counts: np.ndarray
    m: float
    rule: str

    def query(self, contexts: np.ndarray) -> np.ndarray:
        """P(X | context) for each row, with back-off (rows x values)."""
        path = node_path(self.tree, contexts)
        k = self.counts.shape[1]
        counts = self.counts
        level1 = path[:, 1]
        safe1 = np.maximum(level1, 0)
        joint1 = np.where(level1[:, None] >= 0, counts[safe1], 0).astype(np.float64)
        total1 = joint1.sum(axis=1, keepdims=True)
        with np.errstate(invalid="ignore", divide="ignore"):
            probs = (joint1 + self.m / k) / (total1 + self.m)
        probs = np.where(np.isfinite(probs), probs, 1.0 / k)
        if self.m == 0:
            root = counts[0].astype(np.float64)
            smooth = (root + 1.0 / k) / (root.sum() + 1.0)
            probs = np.where(joint1 > 0, probs, smooth[None, :])
        for d in range(2, path.shape[1]):
            node = path[:, d]
            joint = np.where(node[:, None] >= 0, counts[np.maximum(node, 0)], 0).astype(np.float64)
            total = joint.sum(axis=1, keepdims=True)
            with np.errstate(invalid="ignore", divide="ignore"):
                estimate = (joint + self.m / k) / (total + self.m)
            keep = (
                joint >= 1 if self.rule == "literal" else np.broadcast_to(total >= 1, joint.shape)
            )
            probs = np.where(keep, estimate, probs)
        return probs


def fit_m_estimate(
    child_values: np.ndarray,
    contexts: np.ndarray,
    radix: np.ndarray,
    n_values: int,
    m: float,
    rule: str = "literal",
) -> MEstimateTrie:
    """Count trie of one CPT for m-estimate queries."""
    if rule not in BACKOFF_RULES:
        raise ValueError(f"unknown back-off rule {rule!r}; expected one of {BACKOFF_RULES}")
    values, context_codes = check_family(child_values, contexts, radix, n_values)
    tree = build_tree(values, context_codes, np.asarray(radix, dtype=np.int64), n_values)
    return MEstimateTrie(tree, data_counts(tree), check_positive(m, "m", allow_zero=True), rule)
