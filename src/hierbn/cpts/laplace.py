"""ML with Laplace smoothing: theta_{x|y} = (n_xy + 1) / (n_y + |X|); unseen configurations
get the uniform distribution (the same formula with n = 0)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from hierbn.cpts.base import Family, FittedCPT, TableCPT, uniform
from hierbn.estimators.bdeu import laplace_theta


@dataclass(frozen=True)
class Laplace:
    name: str = "laplace"

    def fit(self, family: Family, seed: np.random.SeedSequence) -> FittedCPT:
        theta = laplace_theta(family.counts)
        return FittedCPT(TableCPT.from_family(family, theta, uniform(family.card)))


def build(name: str, settings: dict[str, Any]) -> Laplace:
    return Laplace()
