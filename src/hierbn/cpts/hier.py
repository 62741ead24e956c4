"""Hierarchical Multinomial-Dirichlet CPTs fitted by variational inference (Algorithm 1 of
azzimonti2019, s = |X|, alpha0 = 1): E_q[theta_{x|y}] = (n_xy + s kappa_x) / (n_y + s).

Settings (both optional):

- ``configurations``: ``all`` fits the model over every parent configuration y in Y, as the
  paper's model is written (azzimonti2019 uses it); ``observed`` (the default) over the
  configurations seen in training only, so a kDB or SkDB family never enumerates Y (the
  panel). An unseen configuration adds no counts, but the analytic bound L~ of App. B.1 is
  not exact, so the two fits agree to the VI tolerance, not bit for bit. An unseen
  configuration is answered with E[alpha]/s = kappa.
- ``root``: the estimator of a parentless node (azzimonti2019 decision A6), ``laplace`` (the
  default, the reference code's rule) or ``bdeu<iss>``.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from hierbn.cpts import bdeu, laplace
from hierbn.cpts.base import CPTEstimator, Family, FitInfo, FittedCPT, TableCPT
from hierbn.estimators.hier_vi import fit_hier_vi

CONFIGURATIONS = ("all", "observed")


@dataclass(frozen=True)
class HierarchicalVI:
    root: CPTEstimator
    configurations: str = "observed"
    name: str = "hier"

    def fit(self, family: Family, seed: np.random.SeedSequence) -> FittedCPT:
        if not family.radix:
            return self.root.fit(family, seed)
        dense = self.configurations == "all"
        counts = family.dense() if dense else family.counts
        result = fit_hier_vi(counts)
        info = FitInfo(result.n_iter, result.converged, details={"tau": result.tau})
        if dense:
            return FittedCPT(TableCPT.from_dense(family, result.theta), info)
        return FittedCPT(TableCPT.from_family(family, result.theta, result.kappa), info)


def build(name: str, settings: dict[str, Any]) -> HierarchicalVI:
    unknown = set(settings) - {"root", "configurations"}
    configurations = settings.get("configurations", "observed")
    root = settings.get("root", "laplace")
    if (
        unknown
        or configurations not in CONFIGURATIONS
        or not (root == "laplace" or root.startswith("bdeu"))
    ):
        raise ValueError(
            f"estimator {name!r}: settings are configurations ({' or '.join(CONFIGURATIONS)}) "
            f"and root (laplace or bdeu<iss>); got {settings}"
        )
    return HierarchicalVI(
        laplace.build(root, {}) if root == "laplace" else bdeu.build(root, {}), configurations
    )
