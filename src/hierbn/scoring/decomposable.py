"""Decomposable structure scores of a discrete Bayesian network, as bnlearn's ``score()``
computes them: log-likelihood, BIC, AIC and BDeu (dombowsky2025 decisions §4.3 and A16).

The scores are the HiDDeN competitors, so they follow bnlearn's conventions exactly (natural
logs, larger is better):

* ``loglik = sum_jk n_ijk log(n_ijk / n_ij)`` over the observed cells (0 log 0 = 0);
* ``d = q_i (r_i - 1)`` free parameters, where ``r_i`` is the number of *observed* levels of
  the child and ``q_i`` the product over the parents of each parent's number of *observed*
  levels (R's ``factor()`` drops unused levels; ``q_i`` is not the number of observed parent
  configurations; a root node has ``q_i = 1``);
* ``BIC = loglik - (d / 2) log n`` and ``AIC = loglik - d`` (bnlearn ``k = 1``);
* BDeu with imaginary sample size ``iss`` (bnlearn default 1): ``alpha_ijk = iss / (q_i r_i)``,
  ``alpha_ij = iss / q_i`` and
  ``sum_j [lgamma(alpha_ij) - lgamma(alpha_ij + n_ij)
  + sum_k {lgamma(alpha_ijk + n_ijk) - lgamma(alpha_ijk)}]``.

A parent configuration with ``n_ij = 0`` and a child level with ``n_ijk = 0`` contribute
exactly 0 to every score, so each node is scored from the sparse table of its *observed*
parent configurations (:func:`hierbn.bn.sparse_tables.parent_child_table`), while ``q_i`` and
``r_i`` still count the observed levels of each variable.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
from scipy.special import gammaln

from hierbn.bn.sparse_tables import parent_child_table
from hierbn.validate import check_codes, check_positive

_MAX_CARD = 2**62


@dataclass(frozen=True)
class NodeScores:
    """Scores of one node (family) or, summed, of a whole network
    (dombowsky2025 decisions §4.3 and A16): ``loglik``, ``bic``, ``aic`` and ``bde`` (BDeu) in nats,
    larger is better, and ``parameters``, the number ``d`` of free parameters bnlearn counts."""

    loglik: float
    bic: float
    aic: float
    bde: float
    parameters: int

    def __add__(self, other: NodeScores) -> NodeScores:
        if not isinstance(other, NodeScores):
            return NotImplemented
        return NodeScores(
            loglik=self.loglik + other.loglik,
            bic=self.bic + other.bic,
            aic=self.aic + other.aic,
            bde=self.bde + other.bde,
            parameters=self.parameters + other.parameters,
        )


def _codes(values: Any, name: str, ndim: int) -> np.ndarray:
    """Non-negative integer codes of ``ndim`` dimensions and at least one row as int64 (2-d
    ``[row, variable]``); the codes need not be contiguous, so no cardinality is imposed."""
    array = np.asarray(values)
    if array.ndim != ndim:
        shape = "a 1-d array of codes" if ndim == 1 else "a 2-d array [row, variable]"
        raise ValueError(f"{name} must be {shape}, got shape {array.shape}")
    matrix = array.reshape(-1, 1) if ndim == 1 else array
    cards = np.ones(matrix.shape[1], dtype=np.int64)
    if matrix.size and (np.issubdtype(matrix.dtype, np.number) or matrix.dtype == np.bool_):
        finite = np.where(np.isfinite(matrix), matrix, 0).astype(np.float64)
        cards = (np.floor(np.clip(finite.max(axis=0), 0, _MAX_CARD - 1)) + 1).astype(np.int64)
    # check_codes refuses non-numbers, an empty array, NaN/inf, non-integers and negatives,
    # naming ``name`` and the first bad entry
    return check_codes(matrix, cards, name)


def _check_iss(iss: Any) -> float:
    if isinstance(iss, bool | np.bool_):
        raise ValueError(f"iss must be a finite number > 0, got {iss!r}")
    try:
        return check_positive(iss, "iss")
    except (TypeError, ValueError) as error:
        raise ValueError(f"iss must be a finite number > 0, got {iss!r}") from error


def _observed_levels(codes: np.ndarray) -> int:
    return int(np.unique(codes).size)


def _family_scores(y: np.ndarray, pa: np.ndarray, iss: float) -> NodeScores:
    """Scores of checked codes ``y[row]`` against ``pa[row, parent]``."""
    n = y.shape[0]
    table = parent_child_table(y, pa, int(y.max()) + 1)
    counts = table.counts.astype(np.float64)  # (P, k), every row sum > 0
    n_ij = counts.sum(axis=1)

    r = _observed_levels(y)
    q = math.prod(_observed_levels(pa[:, j]) for j in range(pa.shape[1]))
    parameters = q * (r - 1)

    observed = counts > 0
    ratio = np.where(observed, counts / n_ij[:, None], 1.0)
    loglik = float(np.sum(counts * np.log(ratio)))

    alpha_ij = iss / q
    alpha_ijk = alpha_ij / r
    bde = float(
        np.sum(gammaln(alpha_ij) - gammaln(alpha_ij + n_ij))
        + np.sum(np.where(observed, gammaln(alpha_ijk + counts) - gammaln(alpha_ijk), 0.0))
    )
    return NodeScores(
        loglik=loglik,
        bic=loglik - 0.5 * parameters * math.log(n),
        aic=loglik - parameters,
        bde=bde,
        parameters=int(parameters),
    )


def node_scores(child: np.ndarray, parents: np.ndarray, iss: float = 1.0) -> NodeScores:
    """bnlearn's node scores of ``child`` given ``parents``
    (dombowsky2025 decisions §4.3 and A16).

    ``child`` is a 1-d array of non-negative integer codes and ``parents`` a ``[row, parent]``
    array of non-negative integer codes with the same number of rows (width 0 for a root
    node). Codes need not be contiguous: only the levels that occur count (a parent with codes
    ``{0, 3}`` has 2 levels). ``iss`` is the BDeu imaginary sample size (> 0).

    Raises ``ValueError`` naming the argument for non-integer, negative or non-finite codes,
    an empty ``child``, ``parents`` whose rows do not match, and ``iss <= 0``.
    """
    alpha = _check_iss(iss)
    y = _codes(child, "child", 1)[:, 0]
    array = np.asarray(parents)
    if array.ndim != 2 or array.shape[0] != y.shape[0]:
        raise ValueError(
            f"parents must be a 2-d array [row, parent] with {y.shape[0]} rows (one per child "
            f"value), got shape {array.shape}"
        )
    if array.shape[1]:
        pa = _codes(array, "parents", 2)
    else:
        if not (np.issubdtype(array.dtype, np.number) or array.dtype == np.bool_):
            raise ValueError(f"parents must hold numbers, got dtype {array.dtype}")
        pa = np.zeros((y.shape[0], 0), dtype=np.int64)
    return _family_scores(y, pa, alpha)


def _check_dag(parent_sets: Sequence[Sequence[int]], n_nodes: int) -> list[np.ndarray]:
    """Parent index arrays of a DAG on ``n_nodes`` nodes, refusing anything else."""
    try:
        sets = list(parent_sets)
    except TypeError as error:
        raise ValueError("parent_sets must be a sequence of parent lists") from error
    if len(sets) != n_nodes:
        raise ValueError(
            f"parent_sets must give one parent list per column of data ({n_nodes}), got {len(sets)}"
        )
    checked: list[np.ndarray] = []
    for node, members in enumerate(sets):
        try:
            raw = np.asarray(list(members))
        except TypeError as error:
            raise ValueError(f"parent_sets[{node}] must be a list of node indices") from error
        if raw.size == 0:
            checked.append(np.zeros(0, dtype=np.intp))
            continue
        if raw.ndim != 1 or not np.issubdtype(raw.dtype, np.integer):
            raise ValueError(
                f"parent_sets[{node}] must be a list of integer node indices, got {members!r}"
            )
        index = raw.astype(np.intp)
        if np.any((index < 0) | (index >= n_nodes)):
            raise ValueError(f"parent_sets[{node}] = {members!r} must lie in [0, {n_nodes})")
        if np.any(index == node):
            raise ValueError(f"parent_sets[{node}] = {members!r} makes node {node} its own parent")
        if np.unique(index).size != index.size:
            raise ValueError(f"parent_sets[{node}] = {members!r} repeats a parent")
        checked.append(index)
    # Kahn's algorithm: every node must be removable once its parents are
    indegree = np.array([len(index) for index in checked])
    children: list[list[int]] = [[] for _ in range(n_nodes)]
    for node, index in enumerate(checked):
        for parent in index:
            children[int(parent)].append(node)
    ready = [node for node in range(n_nodes) if indegree[node] == 0]
    removed = 0
    while ready:
        node = ready.pop()
        removed += 1
        for child in children[node]:
            indegree[child] -= 1
            if indegree[child] == 0:
                ready.append(child)
    if removed != n_nodes:
        cyclic = [node for node in range(n_nodes) if indegree[node] > 0]
        raise ValueError(f"parent_sets must describe a DAG; nodes {cyclic} lie on a cycle")
    return checked


def network_scores(
    data: np.ndarray, parent_sets: Sequence[Sequence[int]], iss: float = 1.0
) -> NodeScores:
    """bnlearn's network scores (sums of the node scores,
    dombowsky2025 decisions §4.3 and A16) of the DAG with ``parent_sets[i]`` the parents of
    column ``i`` of ``data[row, node]`` (non-negative integer codes, not necessarily contiguous).

    Raises ``ValueError`` naming the argument for bad codes or empty ``data``, a
    ``parent_sets`` that is not one list of distinct in-range node indices per column or is
    cyclic, and ``iss <= 0``.
    """
    alpha = _check_iss(iss)
    codes = _codes(data, "data", 2)
    if codes.shape[1] == 0:
        raise ValueError(f"data must have at least one column (node), got shape {codes.shape}")
    sets = _check_dag(parent_sets, codes.shape[1])
    total = NodeScores(0.0, 0.0, 0.0, 0.0, 0)
    for node, index in enumerate(sets):
        total = total + _family_scores(codes[:, node], codes[:, index], alpha)
    return total


__all__ = ["NodeScores", "network_scores", "node_scores"]
