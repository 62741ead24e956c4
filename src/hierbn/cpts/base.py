"""The one small interface every CPT estimator of the estimator panel implements.

An estimator is fitted on the count table of one family (a node and its ordered parents) of a
given structure and returns a CPT that answers ``query(contexts)`` for any parent
configuration, observed in training or not. The table is sparse (observed configurations
only, :mod:`hierbn.bn.sparse_tables`), so kDB and SkDB families never enumerate their full
parent-configuration space.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any, Protocol

import numpy as np

from hierbn.bn.sparse_tables import parent_child_table


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

    def rows(self) -> tuple[np.ndarray, np.ndarray]:
        """The training rows the table counts, as (child values, parent contexts), for the
        estimators whose kernels take rows (HDP and m-estimate context trees)."""
        p, x = np.nonzero(self.counts)
        repeats = self.counts[p, x]
        return np.repeat(x, repeats), np.repeat(self.configs[p], repeats, axis=0)


def family(
    codes: np.ndarray, node: int, parents: tuple[int, ...], cards: tuple[int, ...]
) -> Family:
    """The family table of ``node`` with ``parents`` (in CPT order) from integer ``codes``."""
    table = parent_child_table(codes[:, node], codes[:, list(parents)], cards[node])
    return Family(table.counts, table.configs, tuple(cards[p] for p in parents), cards[node])


class CPT(Protocol):
    def query(self, contexts: np.ndarray) -> np.ndarray:
        """P(X = x | parents = context) for each row of ``contexts`` (rows x card)."""
        ...


class CPTEstimator(Protocol):
    name: str

    def fit(self, family: Family, seed: np.random.SeedSequence) -> CPT:
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
        return cls(configuration_keys(fam.configs, fam.radix), theta, default, fam.radix)

    def query(self, contexts: np.ndarray) -> np.ndarray:
        keys = configuration_keys(np.asarray(contexts, dtype=np.int64), self.radix)
        at = np.minimum(np.searchsorted(self.keys, keys), max(self.keys.size - 1, 0))
        seen = self.keys[at] == keys if self.keys.size else np.zeros(keys.size, dtype=bool)
        return np.where(seen[:, None], self.theta[at], self.default[None, :])


def configuration_keys(configs: np.ndarray, radix: tuple[int, ...]) -> np.ndarray:
    """One int64 per configuration row, last parent fastest (lexicographic order = key order)."""
    if math.prod(radix) >= 2**62:
        raise ValueError(f"{math.prod(radix)} parent configurations do not fit a 64-bit key")
    configs = np.asarray(configs, dtype=np.int64)
    if not radix:  # a root: every row is the one empty configuration
        return np.zeros(configs.shape[0], dtype=np.int64)
    weights = np.array([math.prod(radix[j + 1 :]) for j in range(len(radix))], dtype=np.int64)
    return configs @ weights


def uniform(card: int) -> np.ndarray:
    return np.full(card, 1.0 / card)


def setting(settings: dict[str, Any], key: str, estimator: str) -> Any:
    """A required value of an estimator's settings, with an error naming both."""
    if key not in settings:
        raise ValueError(f"estimator {estimator!r} needs setting {key!r}; got {sorted(settings)}")
    return settings[key]
