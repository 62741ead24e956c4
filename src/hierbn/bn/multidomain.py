"""Multi-domain hierarchical CPTs (azzimonti2019 Sec. 5, Fig. 10;
azzimonti2019 decisions §2.5, §3.7 and A13).

All domains f = 1..K share one structure. For node X with parents Pa, the joint variable
X' = X × Pa takes |X'| = |X|·|Pa| states and the domain F is its only "parent": the
hierarchical model of eq. (5) is fitted to the table n[x', f] with s = |X'| and alpha0 = 1,
by the same VI as the single-domain model (:func:`hierbn.estimators.hier_vi.fit_hier_vi`).
Each domain's joint column E_q[theta_{X'|f}] is then normalised over x per parent
configuration (the reference code's ``convert2CPT``):

    theta_{x|pa,f} = (n_{x,pa,f} + s kappa_{x,pa}) / (n_{pa,f} + s sum_x' kappa_{x',pa}).

Every node is fitted this way, the class included (its X' is the class itself).
"""

from __future__ import annotations

import time
from typing import Any

import numpy as np

from hierbn.bn.counting import parent_configurations, validate_codes
from hierbn.bn.structures import BNStructure
from hierbn.estimators.hier_vi import fit_hier_vi


def joint_domain_counts(
    codes: np.ndarray,
    node: int,
    parents: tuple[int, ...],
    cards: np.ndarray,
    domains: np.ndarray,
    n_domains: int,
) -> np.ndarray:
    """``counts[x', f]`` with x' = x·|Pa| + pa (so a column reshapes to ``[x, pa]``)."""
    cards = np.asarray(cards, dtype=np.int64)
    n_configs = int(np.prod(cards[list(parents)])) if parents else 1
    configs = parent_configurations(codes, np.asarray(parents, dtype=np.int64), cards)
    joint = codes[:, node].astype(np.int64) * n_configs + configs
    n_joint = int(cards[node]) * n_configs
    flat = np.bincount(joint * n_domains + domains, minlength=n_joint * n_domains)
    return flat.reshape(n_joint, n_domains)


def joint_to_cpts(joint: np.ndarray, n_states: int) -> np.ndarray:
    """Per-domain joint columns ``joint[x', f]`` -> CPTs ``theta[x, pa, f]`` normalised over x."""
    table = joint.reshape(n_states, -1, joint.shape[1])
    return table / table.sum(axis=0, keepdims=True)


def _check_domains(domains: np.ndarray, n_rows: int, n_domains: int) -> np.ndarray:
    values = np.asarray(domains)
    if values.shape != (n_rows,):
        raise ValueError(
            f"domains must have one entry per row ({n_rows}), got shape {values.shape}"
        )
    if values.size and (
        not np.issubdtype(values.dtype, np.integer) or values.min() < 0 or values.max() >= n_domains
    ):
        raise ValueError(
            f"domains must be integers in [0, {n_domains}); got values in [{values.min()}, {values.max()}]"
        )
    return values.astype(np.int64)


def fit_multidomain_cpts(
    structure: BNStructure, codes: np.ndarray, domains: np.ndarray, n_domains: int
) -> tuple[list[np.ndarray], list[dict[str, Any]]]:
    """Fit every node's multi-domain hierarchical model (azzimonti2019 decisions §3.7).

    Returns one array ``theta[x, pa, f]`` per node and per-node VI diagnostics (seconds,
    iterations, convergence, |X'|).
    """
    cards = np.asarray(structure.cardinalities)
    codes = validate_codes(codes, cards, "codes")
    domains = _check_domains(domains, codes.shape[0], n_domains)
    cpts: list[np.ndarray] = []
    infos: list[dict[str, Any]] = []
    for node in range(structure.n_nodes):
        start = time.perf_counter()
        counts = joint_domain_counts(
            codes, node, structure.parents[node], cards, domains, n_domains
        )
        n_joint = counts.shape[0]
        result = fit_hier_vi(counts, s=float(n_joint), alpha0=np.ones(n_joint))
        cpts.append(joint_to_cpts(result.theta, int(cards[node])))
        infos.append(
            {
                "seconds": time.perf_counter() - start,
                "n_iter": result.n_iter,
                "converged": result.converged,
                "joint_states": n_joint,
                "finite": bool(np.all(np.isfinite(result.theta))),
            }
        )
    return cpts, infos
