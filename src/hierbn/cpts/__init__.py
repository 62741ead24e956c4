"""The one CPT-estimator API of the project (interface in :mod:`hierbn.cpts.base`).

:data:`ESTIMATORS` maps every estimator name to the function that builds it from its
settings; :func:`make_estimator` looks a name up (``bdeu`` takes its equivalent sample size
in the name: ``bdeu1``, ``bdeu10``). :func:`fit_network` fits the CPTs of a structure from
integer codes, one family at a time (per-node seeds, threads, and optionally a domain that
becomes every family's first parent: the multi-domain model), and
:class:`FittedNetwork` answers the class posterior and the fitted tables.
"""

from __future__ import annotations

import dataclasses
import time
from collections.abc import Callable, Mapping
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from typing import Any

import numpy as np

from hierbn.bn.counting import validate_codes
from hierbn.bn.structures import BNStructure
from hierbn.cpts import bdeu, hdp, hidden, hier, hier_domains, laplace, m_backoff
from hierbn.cpts.base import CPTEstimator, Family, FittedCPT, family_of_valid

ESTIMATORS: dict[str, Callable[[str, dict[str, Any]], CPTEstimator]] = {
    "laplace": laplace.build,  # (n + 1) / (n_y + |X|)
    "bdeu": bdeu.build,  # bdeu<iss>: eq. (2) of azzimonti2019
    "hier": hier.build,  # hierarchical Multinomial-Dirichlet by VI (azzimonti2019)
    "hier_domains": hier_domains.build,  # its multi-domain model (azzimonti2019 Sec. 5)
    "m": m_backoff.build,  # m-estimates with back-off (petitjean2018 eq. (16))
    "hdp": hdp.build,  # HDP context trees by Gibbs sampling (petitjean2018)
    "hidden": hidden.build,  # HiDDeN by MALA-within-Gibbs (dombowsky2025)
}
NAMED_BY_PARAMETER = ("bdeu",)  # the name carries a number: bdeu1, bdeu0.5


def make_estimator(name: str, settings: Mapping[str, dict[str, Any]]) -> CPTEstimator:
    """The estimator called ``name`` with its entry of ``settings`` (keyed by registry name;
    estimators without settings need none)."""
    key = next((k for k in NAMED_BY_PARAMETER if name.startswith(k)), name)
    if key not in ESTIMATORS:
        raise ValueError(f"unknown CPT estimator {name!r}; known: {', '.join(ESTIMATORS)}")
    return ESTIMATORS[key](name, dict(settings.get(key, {})))


def fit_cpt(estimator: CPTEstimator, fam: Family, seed: np.random.SeedSequence) -> FittedCPT:
    """``estimator.fit`` with its wall-clock seconds in the fit info."""
    start = time.perf_counter()
    fitted = estimator.fit(fam, seed)
    seconds = time.perf_counter() - start
    return dataclasses.replace(fitted, info=dataclasses.replace(fitted.info, seconds=seconds))


@dataclass(frozen=True)
class Domains:
    """One domain code per training row (``codes``) out of ``count`` domains."""

    codes: np.ndarray
    count: int

    def __post_init__(self) -> None:
        check_domains(self.codes, self.count)


def check_domains(domains: np.ndarray, count: int) -> np.ndarray:
    """``domains`` as int64 after checking it is one integer in [0, count) per row."""
    values = np.asarray(domains)
    if values.ndim != 1 or not np.issubdtype(values.dtype, np.integer):
        raise ValueError(
            f"domains must be a 1-d integer array, got shape {values.shape} ({values.dtype})"
        )
    if values.size and (values.min() < 0 or values.max() >= count):
        raise ValueError(
            f"domains must be integers in [0, {count}); got values in "
            f"[{values.min()}, {values.max()}]"
        )
    return values.astype(np.int64)


def _with_domain(codes: np.ndarray, domains: np.ndarray | None) -> np.ndarray:
    """The codes with the domain appended as a last column (every family's first parent)."""
    if domains is None:
        return codes
    if np.asarray(domains).shape != (codes.shape[0],):
        raise ValueError(f"domains must have one entry per row ({codes.shape[0]})")
    return np.ascontiguousarray(np.column_stack([codes, domains]), dtype=np.int32)


@dataclass(frozen=True)
class FittedNetwork:
    """The fitted CPTs of ``structure`` (``cpts[node]``), with the number of domains when the
    domain is every family's first parent."""

    structure: BNStructure
    cpts: dict[int, FittedCPT]
    n_domains: int | None = None

    def _parents(self, node: int) -> list[int]:
        own = list(self.structure.parents[node])
        return own if self.n_domains is None else [self.structure.n_nodes, *own]

    def class_log_posterior(
        self, codes: np.ndarray, domains: np.ndarray | None = None
    ) -> np.ndarray:
        """log P(c | x) (rows x classes): log-score_c = log theta_C[c] + the sum over the other
        fitted nodes, in the order they were fitted, of log theta_i[x_i | c, x_pa(i)],
        normalised with log-sum-exp (azzimonti2019 §2.4). The class column of ``codes`` is
        ignored; ``domains`` gives each row's domain when the network has them."""
        k = self.structure.class_index
        if k is None:
            raise ValueError("the structure has no class node")
        if k not in self.cpts:
            raise ValueError("the class node was not fitted: include it in fit_network's nodes")
        if (domains is None) != (self.n_domains is None):
            raise ValueError("domains are needed exactly when the network was fitted with them")
        if domains is not None:
            domains = check_domains(domains, self.n_domains)
        work = _with_domain(np.array(codes, dtype=np.int64, copy=True), domains)
        scores = np.zeros((work.shape[0], self.structure.cardinalities[k]))
        for c in range(scores.shape[1]):
            work[:, k] = c
            for node in sorted(self.cpts, key=lambda n: n != k):  # the class first
                parents = work[:, self._parents(node)]
                scores[:, c] += self.cpts[node].log_probability(parents, work[:, node])
        top = scores.max(axis=1, keepdims=True)
        return scores - (top + np.log(np.exp(scores - top).sum(axis=1, keepdims=True)))

    def predict_proba(self, codes: np.ndarray, domains: np.ndarray | None = None) -> np.ndarray:
        """P(c | x) of every row of ``codes`` (rows x classes)."""
        return np.exp(self.class_log_posterior(codes, domains))

    def table(self, node: int) -> np.ndarray:
        """``theta[p, x]`` of ``node`` over every parent configuration (last parent fastest;
        with domains, the domain is the first parent)."""
        cards = [*self.structure.cardinalities, *([self.n_domains] if self.n_domains else [])]
        radix = [cards[p] for p in self._parents(node)]
        grid = np.indices(radix).reshape(len(radix), -1).T if radix else np.zeros((1, 0), int)
        return self.cpts[node].query(grid)


def fit_network(
    structure: BNStructure,
    codes: np.ndarray,
    estimator: CPTEstimator,
    seed: np.random.SeedSequence | Mapping[int, np.random.SeedSequence],
    nodes: tuple[int, ...] | None = None,
    threads: int = 1,
    domains: Domains | None = None,
    on_fitted: Callable[[int, FittedCPT], None] | None = None,
) -> FittedNetwork:
    """Fit the CPTs of ``nodes`` (default: every node) of ``structure`` from integer
    ``codes``. ``seed`` is either one stream, whose stateless child ``node`` feeds node's
    sampler, or one stream per node. ``threads`` fits families in parallel (the samplers'
    kernels release the GIL; results do not depend on it). With ``domains``, the domain is
    every family's first parent (the multi-domain model, estimator ``hier_domains``).
    ``on_fitted(node, cpt)`` is called as each family is done (a progress bar, say)."""
    chosen = tuple(range(structure.n_nodes)) if nodes is None else tuple(nodes)
    cards = list(structure.cardinalities)
    checked = validate_codes(codes, np.asarray(cards), "codes")
    data = _with_domain(checked, None if domains is None else domains.codes)
    extra = [] if domains is None else [structure.n_nodes]
    cards_all = tuple(cards + ([domains.count] if domains else []))

    def node_seed(node: int) -> np.random.SeedSequence:
        if isinstance(seed, Mapping):
            if node not in seed:
                raise ValueError(f"seed: no stream for node {node} ({structure.names[node]!r})")
            return seed[node]
        return np.random.SeedSequence(seed.entropy, spawn_key=(*seed.spawn_key, node))

    def fit(node: int) -> FittedCPT:
        fam = family_of_valid(data, node, (*extra, *structure.parents[node]), cards_all)
        fitted = fit_cpt(estimator, fam, node_seed(node))
        if on_fitted is not None:
            on_fitted(node, fitted)
        return fitted

    if threads <= 1:
        fitted = {node: fit(node) for node in chosen}
    else:
        with ThreadPoolExecutor(max_workers=threads) as pool:
            fitted = dict(zip(chosen, pool.map(fit, chosen), strict=True))
    return FittedNetwork(structure, fitted, None if domains is None else domains.count)
