"""The one interface every CPT estimator of the project implements.

An estimator is fitted on the count table of one family (a node and its ordered parents) of a
given structure and returns a :class:`FittedCPT`: a CPT that answers ``query(contexts)`` for
any parent configuration, observed in training or not, with the fit's :class:`FitInfo`.

**Orientation.** A count table is ``counts[y, x]``: one row per parent configuration ``y``,
one column per child value ``x``, in every building block of the project (the closed forms,
:mod:`hierbn.bn.counting`, :mod:`hierbn.bn.sparse_tables`, the VI, HiDDeN and the Stan data);
below, ``counts[p, x]`` is the row of the ``p``-th observed configuration. The family table
is sparse (observed configurations only), so kDB and SkDB families never enumerate their full
parent-configuration space; :meth:`Family.dense` lists every configuration for the
estimators whose model is defined over all of them.
"""

from __future__ import annotations

import functools
import math
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, Protocol

import numpy as np

from hierbn.bn.counting import family_counts, validate_codes
from hierbn.bn.sparse_tables import parent_child_table
from hierbn.draws import Draws


@dataclass(frozen=True)
class Family:
    """``counts[p, x]`` of the ``p``-th observed parent configuration ``configs[p]`` (codes in
    parent order, lexicographic) and child value ``x``; ``radix`` are the parents'
    cardinalities, ``card`` the child's. A parentless node has one configuration of width 0."""

    counts: np.ndarray
    configs: np.ndarray
    radix: tuple[int, ...]
    card: int

    @property
    def n_configurations(self) -> int:
        """|Y|: every joint parent configuration, observed or not (1 for a root)."""
        return math.prod(self.radix)

    def dense(self) -> np.ndarray:
        """``counts[p, x]`` over every parent configuration (last parent fastest), the
        unobserved ones as zero rows."""
        table = np.zeros((self.n_configurations, self.card), dtype=np.int64)
        table[configuration_keys(self.configs, self.radix)] = self.counts
        return table

    def rows(self) -> tuple[np.ndarray, np.ndarray]:
        """The training rows the table counts, as (child values, parent contexts), for the
        estimators whose kernels take rows (HDP and m-estimate context trees)."""
        p, x = np.nonzero(self.counts)
        repeats = self.counts[p, x]
        return np.repeat(x, repeats), np.repeat(self.configs[p], repeats, axis=0)


def family(
    codes: np.ndarray, node: int, parents: tuple[int, ...], cards: tuple[int, ...]
) -> Family:
    """The family table of ``node`` with ``parents`` (in CPT order) from integer ``codes``.
    A parent space no larger than about the data is counted densely (one pass of the Numba
    counter, then the observed rows kept); a larger one by sorting the observed
    configurations (:mod:`hierbn.bn.sparse_tables`). Both give the same table."""
    columns = [node, *parents]
    checked = validate_codes(
        codes[:, columns], np.asarray([cards[c] for c in columns]), f"codes[:, {columns}]"
    )
    sub_cards = tuple(int(cards[c]) for c in columns)
    return family_of_valid(checked, 0, tuple(range(1, len(columns))), sub_cards)


def family_of_valid(
    codes: np.ndarray, node: int, parents: tuple[int, ...], cards: tuple[int, ...]
) -> Family:
    """:func:`family` of codes already checked by :func:`hierbn.bn.counting.validate_codes`
    (C-contiguous int32 within ``cards``), as :func:`hierbn.cpts.fit_network` holds them."""
    radix = tuple(int(cards[p]) for p in parents)
    if math.prod(radix) > 2 * codes.shape[0] + 256:
        table = parent_child_table(codes[:, node], codes[:, list(parents)], cards[node])
        return Family(table.counts, table.configs, radix, int(cards[node]))
    dense = family_counts(codes, node, parents, np.asarray(cards))
    seen = np.flatnonzero(dense.sum(axis=1))
    configs = np.stack(np.unravel_index(seen, radix), axis=1) if radix else seen[:, None][:, :0]
    return Family(dense[seen], configs.astype(np.int64, copy=False), radix, int(cards[node]))


class CPT(Protocol):
    def query(self, contexts: np.ndarray) -> np.ndarray:
        """P(X = x | parents = context) for each row of ``contexts`` (rows x card)."""
        ...


@dataclass(frozen=True)
class FitInfo:
    """What a fit reports besides its CPT: iterations of the optimiser or sampler (0 for a
    closed form), whether it converged, the seconds of ``fit`` (set by
    :func:`hierbn.cpts.fit_cpt`), estimator-specific ``details`` (HDP: tree and sampling
    seconds, tree nodes; multi-domain: joint states) and the sampler's kept draws where it
    keeps them (HiDDeN), as a :class:`hierbn.draws.Draws` record."""

    iterations: int = 0
    converged: bool = True
    seconds: float = 0.0
    details: Mapping[str, float] = field(default_factory=dict)
    draws: Draws | None = None


@dataclass(frozen=True)
class FittedCPT:
    """A fitted CPT and its :class:`FitInfo`."""

    cpt: CPT
    info: FitInfo = field(default_factory=FitInfo)

    def query(self, contexts: np.ndarray) -> np.ndarray:
        return self.cpt.query(contexts)

    def log_probability(self, contexts: np.ndarray, values: np.ndarray) -> np.ndarray:
        """log P(X = values[i] | parents = contexts[i]) of each row (the classifier's term)."""
        gather = getattr(self.cpt, "log_probability", None)  # a table, an HDP tree
        if gather is not None:  # the CPT gathers the one entry a row needs
            return gather(contexts, values)
        return np.log(self.cpt.query(contexts)[np.arange(len(values)), values])


class CPTEstimator(Protocol):
    name: str

    def fit(self, family: Family, seed: np.random.SeedSequence) -> FittedCPT:
        """Estimate the CPT of ``family``; ``seed`` feeds the samplers (others ignore it)."""
        ...


@dataclass(frozen=True)
class TableCPT:
    """A CPT with one row per observed configuration (``theta[p]``) and ``default`` for every
    configuration unseen in training (the estimator's prior predictive there)."""

    keys: np.ndarray  # mixed-radix key of each observed configuration, increasing
    theta: np.ndarray  # (P, card)
    default: np.ndarray  # (card,)
    radix: tuple[int, ...]

    @classmethod
    def from_family(cls, fam: Family, theta: np.ndarray, default: np.ndarray) -> TableCPT:
        """``theta[p]`` for the family's observed configurations; a parent space no larger
        than a few times the observed rows is stored whole (``default`` in the unseen rows),
        so that a query indexes by key."""
        keys = configuration_keys(fam.configs, fam.radix)
        size = fam.n_configurations
        if size > 4 * keys.size + 64:
            return cls(keys, theta, default, fam.radix)
        whole = np.tile(np.asarray(default, dtype=np.float64), (size, 1))
        whole[keys] = theta
        return cls(np.arange(size, dtype=np.int64), whole, default, fam.radix)

    @classmethod
    def from_dense(cls, fam: Family, theta: np.ndarray) -> TableCPT:
        """``theta[p]`` for every configuration of :meth:`Family.dense` (no default needed)."""
        keys = np.arange(fam.n_configurations, dtype=np.int64)
        return cls(keys, theta, np.full(fam.card, np.nan), fam.radix)

    def query(self, contexts: np.ndarray) -> np.ndarray:
        keys = configuration_keys(contexts, self.radix)
        if self.keys.size == math.prod(self.radix):  # a row for every configuration: row = key
            return self.theta[keys]
        at, seen = self._rows(keys)
        return np.where(seen[:, None], self.theta[at], self.default[None, :])

    @functools.cached_property
    def _log_theta(self) -> tuple[np.ndarray, np.ndarray]:
        with np.errstate(divide="ignore"):  # a zero probability is -inf, as np.log gives
            return np.log(self.theta), np.log(self.default)

    def log_probability(self, contexts: np.ndarray, values: np.ndarray) -> np.ndarray:
        """``log(query(contexts)[i, values[i]])`` of each row, from the table logged once."""
        log_theta, log_default = self._log_theta
        keys = configuration_keys(contexts, self.radix)
        if self.keys.size == math.prod(self.radix):
            return log_theta[keys, values]
        at, seen = self._rows(keys)
        return np.where(seen, log_theta[at, values], log_default[values])

    def _rows(self, keys: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """The table row of each key and whether the key was seen in training."""
        at = np.minimum(np.searchsorted(self.keys, keys), max(self.keys.size - 1, 0))
        seen = self.keys[at] == keys if self.keys.size else np.zeros(keys.size, dtype=bool)
        return at, seen


def configuration_keys(configs: np.ndarray, radix: tuple[int, ...]) -> np.ndarray:
    """One int64 per configuration row, last parent fastest (lexicographic order = key order)."""
    if math.prod(radix) >= 2**62:
        raise ValueError(f"{math.prod(radix)} parent configurations do not fit a 64-bit key")
    configs = np.asarray(configs)
    keys = np.zeros(configs.shape[0], dtype=np.int64)  # a root: the one empty configuration
    for j, size in enumerate(radix):
        keys *= size
        keys += configs[:, j]
    return keys


def uniform(card: int) -> np.ndarray:
    return np.full(card, 1.0 / card)


def setting(settings: dict[str, Any], key: str, estimator: str) -> Any:
    """A required value of an estimator's settings, with an error naming both."""
    if key not in settings:
        raise ValueError(f"estimator {estimator!r} needs setting {key!r}; got {sorted(settings)}")
    return settings[key]
