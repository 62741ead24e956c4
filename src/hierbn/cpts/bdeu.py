"""BDeu posterior mean, eq. (2) of azzimonti2019, with the equivalent sample size in the name
(``bdeu1``, ``bdeu10``): alpha_xy = iss / (|X||Y|) over every parent configuration, so an
unseen one gets eq. (2) with no counts, the uniform distribution."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from hierbn.cpts.base import Family, FittedCPT, TableCPT, uniform
from hierbn.estimators.bdeu import bdeu_theta


@dataclass(frozen=True)
class BDeu:
    iss: float
    name: str

    def fit(self, family: Family, seed: np.random.SeedSequence) -> FittedCPT:
        theta = bdeu_theta(family.counts, self.iss, family.n_configurations)
        return FittedCPT(TableCPT.from_family(family, theta, uniform(family.card)))


def build(name: str, settings: dict[str, Any]) -> BDeu:
    """``bdeu<iss>``, e.g. ``bdeu1`` or ``bdeu0.5``."""
    try:
        iss = float(name[len("bdeu") :])
    except ValueError:
        raise ValueError(f"estimator {name!r}: expected bdeu<equivalent sample size>") from None
    return BDeu(iss, name)
