"""Bayesian-network classifiers whose CPTs are answered by queries rather than dense tables:
HDP context trees and m-estimate count tries (petitjean2018). Needed for kDB-5/SkDB, whose
full parent-configuration tables can be far too large to enumerate.
"""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor
from typing import Any, Protocol

import numpy as np

from hierbn.bn.structures import BNStructure
from hierbn.estimators.hdp import fit_hdp
from hierbn.estimators.m_estimate import m_estimate_theta
from hierbn.estimators.m_estimate_tree import fit_m_estimate


class ConditionalModel(Protocol):
    def query(self, contexts: np.ndarray) -> np.ndarray: ...


def fit_context_models(
    structure: BNStructure,
    codes: np.ndarray,
    kind: str,
    nodes: tuple[int, ...] | None = None,
    seeds: dict[int, int] | None = None,
    threads: int = 1,
    **params: Any,
) -> tuple[np.ndarray, dict[int, ConditionalModel]]:
    """Class prior and one query model per (kept) feature node.

    ``kind`` is ``hdp`` (``fit_hdp`` keyword arguments in ``params``; the class prior is the
    m = 1 estimate, petitjean2018 decision §1.8) or ``m`` (``m`` and ``rule``; the prior uses
    the same m).
    ``seeds`` gives each HDP tree its own random stream; ``threads`` fits trees in parallel
    (results do not depend on it: every tree seeds its own generator).
    """
    k = structure.class_index
    cards = np.asarray(structure.cardinalities)
    class_counts = np.bincount(codes[:, k], minlength=cards[k])[:, None]
    chosen = nodes if nodes is not None else tuple(i for i in range(structure.n_nodes) if i != k)
    if kind not in ("hdp", "m"):
        raise ValueError(f"unknown model kind {kind!r}; expected hdp or m")

    def fit(node: int) -> ConditionalModel:
        parents = structure.parents[node]
        if not parents or parents[0] != k:
            raise ValueError(
                f"node {structure.names[node]!r} must have the class as its first parent"
            )
        contexts = codes[:, list(parents)]
        radix = cards[list(parents)]
        if kind == "hdp":
            seed = (seeds or {}).get(node, 0)
            return fit_hdp(codes[:, node], contexts, radix, int(cards[node]), seed=seed, **params)
        rule = params.get("rule", "literal")
        return fit_m_estimate(codes[:, node], contexts, radix, int(cards[node]), params["m"], rule)

    # Trees are independent; the Gibbs kernel releases the GIL, so threads fit them in parallel.
    with ThreadPoolExecutor(max_workers=max(1, threads)) as pool:
        models: dict[int, ConditionalModel] = dict(zip(chosen, pool.map(fit, chosen), strict=True))
    prior_m = params.get("m", 1.0) if kind == "m" else 1.0
    return m_estimate_theta(class_counts, prior_m)[:, 0], models


def class_log_posterior_from_models(
    structure: BNStructure,
    class_prior: np.ndarray,
    models: dict[int, ConditionalModel],
    codes: np.ndarray,
) -> np.ndarray:
    """log P(c | x) (rows x classes) from the class prior and the query models, in log space."""
    k = structure.class_index
    n_classes = structure.cardinalities[k]
    scores = np.tile(np.log(class_prior), (codes.shape[0], 1))
    work = np.array(codes, dtype=np.int64, copy=True)
    rows = np.arange(codes.shape[0])
    for c in range(n_classes):
        work[:, k] = c
        for node, model in models.items():
            probs = model.query(work[:, list(structure.parents[node])])
            scores[:, c] += np.log(probs[rows, work[:, node]])
    top = scores.max(axis=1, keepdims=True)
    return scores - (top + np.log(np.exp(scores - top).sum(axis=1, keepdims=True)))
