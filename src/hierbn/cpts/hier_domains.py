"""Multi-domain hierarchical CPTs (azzimonti2019 Sec. 5, Fig. 10; azzimonti2019 decisions
§2.5, §3.7 and A13), fitted through :func:`hierbn.cpts.fit_network` with ``domains``: the
domain F is then the first parent of every family.

All domains f = 1..K share one structure. For node X with parents Pa, the joint variable
X' = X × Pa takes |X'| = |X|·|Pa| states and F is its only "parent": the hierarchical model of
eq. (5) is fitted to the table n[x', f] (x' = x·|Pa| + pa) with s = |X'| and alpha0 = 1, by
the same VI as the single-domain model. Each domain's joint column E_q[theta_{X'|f}] is then
normalised over x per parent configuration (the reference code's ``convert2CPT``):

    theta_{x|pa,f} = (n_{x,pa,f} + s kappa_{x,pa}) / (n_{pa,f} + s sum_x' kappa_{x',pa}).

Every node is fitted this way, the class included (its X' is the class itself).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

import numpy as np

from hierbn.cpts.base import Family, FitInfo, FittedCPT, TableCPT
from hierbn.estimators.hier_vi import fit_hier_vi


def joint_domain_counts(family: Family) -> np.ndarray:
    """``counts[f, x']`` of a family whose first parent is the domain (the domain is the
    joint variable's only parent)."""
    n_domains, n_configs = family.radix[0], math.prod(family.radix[1:])
    by_domain = family.dense().reshape(n_domains, n_configs, family.card)  # [f, pa, x]
    return by_domain.transpose(0, 2, 1).reshape(n_domains, family.card * n_configs)


def joint_to_cpts(joint: np.ndarray, n_states: int) -> np.ndarray:
    """Per-domain joint rows ``joint[f, x']`` -> CPTs ``theta[f, pa, x]`` normalised over x."""
    table = joint.T.reshape(n_states, -1, joint.shape[0])  # [x, pa, f]
    return (table / table.sum(axis=0, keepdims=True)).transpose(2, 1, 0)


@dataclass(frozen=True)
class HierarchicalDomains:
    name: str = "hier_domains"

    def fit(self, family: Family, seed: np.random.SeedSequence) -> FittedCPT:
        if not family.radix:
            raise ValueError("hier_domains needs the domain as a parent: fit with domains=")
        counts = joint_domain_counts(family)
        n_joint = counts.shape[1]
        result = fit_hier_vi(counts, s=float(n_joint), alpha0=np.ones(n_joint))
        rows = joint_to_cpts(result.theta, family.card).reshape(-1, family.card)  # [(f, pa), x]
        details = {"joint_states": n_joint, "finite": float(np.all(np.isfinite(result.theta)))}
        return FittedCPT(
            TableCPT.from_dense(family, rows),
            FitInfo(result.n_iter, result.converged, details=details),
        )


def build(name: str, settings: dict[str, Any]) -> HierarchicalDomains:
    return HierarchicalDomains()
