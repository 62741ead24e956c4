"""HiDDeN posterior-mean CPTs with the parents fixed (Algorithm 1 of dombowsky2025, MALA-
within-Gibbs): pi(. | y) ~ Dir(t), t(x) ~ Gamma(rho/k, b). An observed configuration gets the
eq. (14) posterior mean E[(n_yx + t_x) / (n_y + sum t)]; an unseen one E[t_x / sum t] over the
same kept draws. Settings: iterations, burn, step_size (``auto``: the Robbins-Monro pilot of
dombowsky2025 decision A2 from ``eps``; ``fixed``: ``eps``), b and rho_rule
(dombowsky2025 decision A1)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from hierbn.cpts.base import Family, FitInfo, FittedCPT, TableCPT, setting
from hierbn.estimators.hidden import fit_fixed_parents


@dataclass(frozen=True)
class HiDDeN:
    iterations: int
    burn: int
    step_size: str
    eps: float
    b: float
    rho_rule: str
    name: str = "hidden"

    def fit(self, family: Family, seed: np.random.SeedSequence) -> FittedCPT:
        fit = fit_fixed_parents(
            [family.counts],
            self.eps,
            [seed],
            n_iter=self.iterations,
            burn=self.burn,
            b=self.b,
            rho_rule=self.rho_rule,
            step_size=self.step_size,
        )
        kept = fit.t[0, self.burn :]  # the draws eq. (14) averaged
        default = np.mean(kept / kept.sum(axis=1, keepdims=True), axis=0)
        info = FitInfo(self.iterations, draws=fit.draws(0))
        return FittedCPT(TableCPT.from_family(family, fit.predictive[0], default), info)


def build(name: str, settings: dict[str, Any]) -> HiDDeN:
    return HiDDeN(
        *(int(setting(settings, key, name)) for key in ("iterations", "burn")),
        setting(settings, "step_size", name),
        *(float(setting(settings, key, name)) for key in ("eps", "b")),
        setting(settings, "rho_rule", name),
    )
