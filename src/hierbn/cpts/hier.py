"""Hierarchical Multinomial-Dirichlet CPTs fitted by variational inference (Algorithm 1 of
azzimonti2019, s = |X|, alpha0 = 1): E_q[theta_{x|y}] = (n_xy + s kappa_x) / (n_y + s). An
unseen configuration adds nothing to the likelihood of alpha, so fitting the observed ones
is exact and it gets E[alpha]/s = kappa. A root node takes the Laplace rule
(azzimonti2019 decision A6)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from hierbn.cpts.base import Family, TableCPT
from hierbn.estimators.bdeu import laplace_theta
from hierbn.estimators.hier_vi import fit_hier_vi

PREFIX = "hier"


@dataclass(frozen=True)
class HierarchicalVI:
    name: str = PREFIX

    def fit(self, family: Family, seed: np.random.SeedSequence) -> TableCPT:
        if not family.radix:
            theta = laplace_theta(family.counts.T).T
            return TableCPT.from_family(family, theta, theta[0])
        result = fit_hier_vi(family.counts.T)
        return TableCPT.from_family(family, result.theta.T, result.kappa)


def build(name: str, settings: dict[str, Any]) -> HierarchicalVI:
    return HierarchicalVI()
