"""Synthetic multi-domain data standing in for the private GoEco! data (decision A12).

One TAN over a class C and discrete features with a random tree; global CPT columns
mu_{i,pa} ~ Dirichlet(1); for every domain (user) f and parent configuration
theta_{X_i|pa,f} ~ Dirichlet(c·mu_{i,pa}) (the class prior likewise), so a small c gives very
different users. Each user's records come from that user's own network.

The structure and mu depend only on the generator's shape, the user CPTs on (c, user), and the
records on the job's key: scenario (n, K) uses users 0..K-1 of one population of ``users``, so
the 6 users of (500, 6) are among the 100 of (100, 100), as in the paper.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from hierbn.bn.counting import parent_configurations
from hierbn.bn.structures import BNStructure


@dataclass(frozen=True)
class GeneratorShape:
    """Sizes of the synthetic population (GoEco!: 13 classes, 16 five-state features)."""

    users: int
    n_classes: int = 13
    n_features: int = 16
    n_states: int = 5


@dataclass(frozen=True)
class DomainPopulation:
    """The true TAN and every user's CPTs ``theta[node][x, pa, f]``."""

    structure: BNStructure
    cpts: tuple[np.ndarray, ...]

    @property
    def users(self) -> int:
        return self.cpts[0].shape[2]


def random_tan(rng: np.random.Generator, shape: GeneratorShape) -> BNStructure:
    """A TAN with the class last and a uniformly random recursive tree over the features
    (each feature in a random order attaches to a uniformly chosen earlier one)."""
    order = rng.permutation(shape.n_features)
    class_index = shape.n_features
    parents: list[tuple[int, ...]] = [()] * (shape.n_features + 1)
    parents[order[0]] = (class_index,)
    for k in range(1, shape.n_features):
        parents[order[k]] = (class_index, int(order[rng.integers(k)]))
    names = (*(f"X{i + 1}" for i in range(shape.n_features)), "C")
    cards = (shape.n_states,) * shape.n_features + (shape.n_classes,)
    return BNStructure(names, cards, tuple(parents), class_index)


def user_cpts(rng: np.random.Generator, mu: np.ndarray, c: float, users: int) -> np.ndarray:
    """theta[x, pa, f] ~ Dirichlet(c·mu[:, pa]) independently per (pa, f)."""
    n_states, n_configs = mu.shape
    theta = np.empty((n_states, n_configs, users))
    for pa in range(n_configs):
        theta[:, pa, :] = rng.dirichlet(c * mu[:, pa], size=users).T
    return theta


def make_population(
    shape: GeneratorShape,
    c: float,
    structure_rng: np.random.Generator,
    users_rng: np.random.Generator,
) -> DomainPopulation:
    """The population for heterogeneity ``c``: the structure and mu from ``structure_rng``
    (callers key it without c, so every c shares them), the user CPTs from ``users_rng``."""
    structure = random_tan(structure_rng, shape)
    mus = [
        structure_rng.dirichlet(np.ones(card), size=structure.parent_cardinality(node)).T
        for node, card in enumerate(structure.cardinalities)
    ]
    cpts = tuple(user_cpts(users_rng, mu, c, shape.users) for mu in mus)
    return DomainPopulation(structure, cpts)


def sample_records(
    rng: np.random.Generator, population: DomainPopulation, domains: np.ndarray
) -> np.ndarray:
    """Forward-sample one record per entry of ``domains`` from that user's network (codes)."""
    structure = population.structure
    cards = np.asarray(structure.cardinalities, dtype=np.int64)
    codes = np.zeros((domains.size, structure.n_nodes), dtype=np.int32)
    for node in structure.topological_order():
        configs = parent_configurations(
            codes, np.asarray(structure.parents[node], dtype=np.int64), cards
        )
        columns = population.cpts[node][:, configs, domains]  # x, row
        cumulative = np.cumsum(columns, axis=0)
        u = rng.random(domains.size) * cumulative[-1]
        codes[:, node] = np.minimum((u[None, :] >= cumulative).sum(axis=0), cards[node] - 1)
    return codes
