"""BDeu posterior mean, eq. (2) of azzimonti2019, with the equivalent sample size in the name
(``bdeu1``, ``bdeu10``): alpha_xy = iss / (|X||Y|) over every parent configuration, so an
unseen one gets the uniform distribution."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from hierbn.cpts.base import Family, TableCPT, uniform
from hierbn.estimators.bdeu import bdeu_theta

PREFIX = "bdeu"
SUFFIXED = True  # the name carries the equivalent sample size


@dataclass(frozen=True)
class BDeu:
    iss: float
    name: str

    def fit(self, family: Family, seed: np.random.SeedSequence) -> TableCPT:
        theta = bdeu_theta(family.counts.T, self.iss, family.n_configurations).T
        return TableCPT.from_family(family, theta, uniform(family.card))


def build(name: str, settings: dict[str, Any]) -> BDeu:
    """``bdeu<iss>``, e.g. ``bdeu1`` or ``bdeu0.5``."""
    try:
        iss = float(name[len(PREFIX) :])
    except ValueError:
        raise ValueError(f"estimator {name!r}: expected bdeu<equivalent sample size>") from None
    return BDeu(iss, name)
