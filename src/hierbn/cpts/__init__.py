"""CPT estimators behind one interface (:mod:`hierbn.cpts.base`): each module of this package
is one estimator with a ``PREFIX`` (its name; or the start of it when the module sets
``SUFFIXED = True``: ``bdeu`` for ``bdeu1``) and ``build(name, settings)``. Adding an
estimator is adding a module; :func:`make_estimator` finds it by its prefix.
:func:`fit_classifier` fits every CPT of a BN classifier with one estimator and
:func:`predict_proba` answers the class posterior."""

from __future__ import annotations

import importlib
import pkgutil
from dataclasses import dataclass
from types import ModuleType
from typing import Any

import numpy as np

from hierbn.bn.context_models import class_log_posterior_from_models
from hierbn.bn.structures import BNStructure
from hierbn.cpts.base import CPT, CPTEstimator, family


def estimator_modules() -> dict[str, ModuleType]:
    """PREFIX -> module of every estimator module in this package."""
    modules = {}
    for info in pkgutil.iter_modules(__path__):
        if info.name != "base":
            module = importlib.import_module(f"{__name__}.{info.name}")
            modules[module.PREFIX] = module
    return modules


def make_estimator(name: str, settings: dict[str, dict[str, Any]]) -> CPTEstimator:
    """The estimator called ``name`` (``laplace``, ``bdeu10``, ``hdp``, …) with its entry of
    ``settings`` (keyed by prefix; estimators without settings need none)."""
    modules = estimator_modules()
    prefix = max((p for p in modules if name.startswith(p)), key=len, default=None)
    if prefix is None or (prefix != name and not getattr(modules[prefix], "SUFFIXED", False)):
        raise ValueError(f"unknown CPT estimator {name!r}; known: {', '.join(sorted(modules))}")
    return modules[prefix].build(name, settings.get(prefix, {}))


@dataclass(frozen=True)
class FittedClassifier:
    """A structure with the class CPT and one CPT per kept feature node."""

    structure: BNStructure
    class_cpt: CPT
    cpts: dict[int, CPT]

    def predict_proba(self, codes: np.ndarray) -> np.ndarray:
        """P(c | x) of every row of ``codes`` (the class column is ignored)."""
        prior = self.class_cpt.query(np.zeros((1, 0), dtype=np.int64))[0]
        return np.exp(class_log_posterior_from_models(self.structure, prior, self.cpts, codes))


def fit_classifier(
    structure: BNStructure,
    codes: np.ndarray,
    estimator: CPTEstimator,
    nodes: tuple[int, ...],
    seed: np.random.SeedSequence,
) -> FittedClassifier:
    """Every CPT of ``structure`` (the class and the feature ``nodes``) from training
    ``codes`` with ``estimator``; node i's sampler draws from the i-th child of ``seed``."""
    k = structure.class_index
    cards = structure.cardinalities
    children = [  # stateless children: the same seed always gives the same streams
        np.random.SeedSequence(seed.entropy, spawn_key=(*seed.spawn_key, node))
        for node in range(structure.n_nodes)
    ]
    cpts = {
        node: estimator.fit(family(codes, node, structure.parents[node], cards), children[node])
        for node in nodes
    }
    class_cpt = estimator.fit(family(codes, k, (), cards), children[k])
    return FittedClassifier(structure, class_cpt, cpts)
