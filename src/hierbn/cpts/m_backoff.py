"""m-estimates with back-off along the parent prefixes (petitjean2018 eq. (16),
petitjean2018 decision §1.7):
``m`` and the back-off rule (``literal`` or ``context``) from the settings. The query walks the
prefix trie, so an unseen configuration backs off to its deepest seen prefix. A root node
takes eq. (16) without back-off."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from hierbn.cpts.base import Family, FittedCPT, TableCPT, setting
from hierbn.estimators.m_estimate import m_estimate_theta
from hierbn.estimators.m_estimate_tree import fit_m_estimate


@dataclass(frozen=True)
class MEstimate:
    m: float
    rule: str
    name: str = "m"

    def fit(self, family: Family, seed: np.random.SeedSequence) -> FittedCPT:
        if not family.radix:
            theta = m_estimate_theta(family.counts, self.m)
            return FittedCPT(TableCPT.from_family(family, theta, theta[0]))
        values, contexts = family.rows()
        radix = np.asarray(family.radix)
        return FittedCPT(fit_m_estimate(values, contexts, radix, family.card, self.m, self.rule))


def build(name: str, settings: dict[str, Any]) -> MEstimate:
    return MEstimate(float(setting(settings, "m", name)), setting(settings, "backoff", name))
