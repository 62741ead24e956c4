"""HDP CPTs on the parent-prefix context tree (Algorithm 1 of petitjean2018) with the
settings' iterations, tying (Level by default), concentration prior and update interval; an
unseen configuration is answered by its deepest seen prefix (§2.5). A root node takes the
m = 1 estimate, as the class of petitjean2018 decision §1.8."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from hierbn.cpts.base import Family, FitInfo, FittedCPT, TableCPT, setting
from hierbn.estimators.hdp import fit_hdp
from hierbn.estimators.m_estimate import m_estimate_theta


@dataclass(frozen=True)
class HDP:
    iterations: int
    tying: str
    prior: tuple[float, float]
    conc_every: int
    name: str = "hdp"

    def fit(self, family: Family, seed: np.random.SeedSequence) -> FittedCPT:
        if not family.radix:
            theta = m_estimate_theta(family.counts, 1.0)
            return FittedCPT(TableCPT.from_family(family, theta, theta[0]))
        values, contexts = family.rows()
        estimate = fit_hdp(
            values,
            contexts,
            np.asarray(family.radix),
            family.card,
            n_iter=self.iterations,
            tying=self.tying,
            prior=self.prior,
            conc_every=self.conc_every,
            seed=seed,
        )
        details = {**estimate.seconds, "tree_nodes": float(estimate.tree.level.size)}
        return FittedCPT(estimate, FitInfo(self.iterations, details=details))


def build(name: str, settings: dict[str, Any]) -> HDP:
    prior = setting(settings, "prior", name)
    return HDP(
        int(setting(settings, "iterations", name)),
        setting(settings, "tying", name),
        (float(prior[0]), float(prior[1])),
        int(setting(settings, "conc_every", name)),
    )
