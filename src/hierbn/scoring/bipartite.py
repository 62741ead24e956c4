"""The bipartite hidden -> observed structure class (beal2006 decisions §3.1).

Hidden variables have no parents; observed variables have a subset of the hidden variables
as parents. Structures that differ only by permuting a-priori identical hidden variables
(same cardinality) are one structure. With 2 binary hidden and 4 observed variables the
class has 136 structures. Nothing here is specific to that size.
"""

from __future__ import annotations

import itertools
import math
from dataclasses import dataclass

import numpy as np


@dataclass(frozen=True)
class BipartiteClass:
    """Cardinalities of the hidden and observed variables."""

    hidden: tuple[int, ...]
    observed: tuple[int, ...]

    @property
    def n_joint_hidden(self) -> int:
        return int(np.prod(self.hidden))

    def joint_hidden_states(self) -> np.ndarray:
        """(S, k) table of joint hidden states, first hidden variable slowest."""
        return np.array(list(itertools.product(*[range(c) for c in self.hidden])), dtype=np.int64)


@dataclass(frozen=True)
class Structure:
    """``children[h]`` = bitmask over observed variables of the children of hidden ``h``."""

    children: tuple[int, ...]

    def parents_of(self, v: int) -> tuple[int, ...]:
        """Hidden parents of observed ``v`` in increasing order (the CPT row order)."""
        return tuple(h for h, mask in enumerate(self.children) if mask >> v & 1)

    def label(self, n_observed: int) -> str:
        sets = [
            "{" + ",".join(f"y{v + 1}" for v in range(n_observed) if m >> v & 1) + "}"
            for m in self.children
        ]
        return " ".join(f"h{h + 1}->{s}" for h, s in enumerate(sets))


def canonical(children: tuple[int, ...], cls: BipartiteClass) -> tuple[int, ...]:
    """Canonical form under permutations of hidden variables with equal cardinality."""
    order = sorted(range(len(children)), key=lambda h: (cls.hidden[h], h))
    groups: dict[int, list[int]] = {}
    for h in order:
        groups.setdefault(cls.hidden[h], []).append(children[h])
    out = list(children)
    for card, masks in groups.items():
        slots = [h for h in range(len(children)) if cls.hidden[h] == card]
        for slot, mask in zip(slots, sorted(masks), strict=True):
            out[slot] = mask
    return tuple(out)


def enumerate_structures(cls: BipartiteClass) -> list[Structure]:
    """Every distinct structure of the class, in a fixed order (sorted canonical forms)."""
    n_masks = 1 << len(cls.observed)
    forms = {canonical(c, cls) for c in itertools.product(range(n_masks), repeat=len(cls.hidden))}
    return [Structure(f) for f in sorted(forms)]


def parameter_count(structure: Structure, cls: BipartiteClass) -> int:
    """d(m), eq. (23): sum_j (|z_j| - 1) * prod of parent cardinalities (simple count)."""
    d = sum(c - 1 for c in cls.hidden)
    for v, card in enumerate(cls.observed):
        d += (card - 1) * int(
            np.prod([cls.hidden[h] for h in structure.parents_of(v)], dtype=np.int64)
        )
    return d


def parent_configurations(
    structure: Structure, cls: BipartiteClass
) -> tuple[np.ndarray, np.ndarray]:
    """(cfg[v, s], n_cfg[v]): parent-configuration index of observed v at joint hidden state s
    (mixed radix over the parents, last parent fastest: [h1 h2] = 2a + b)."""
    states = cls.joint_hidden_states()
    cfg = np.zeros((len(cls.observed), states.shape[0]), dtype=np.int64)
    n_cfg = np.ones(len(cls.observed), dtype=np.int64)
    for v in range(len(cls.observed)):
        for h in structure.parents_of(v):
            cfg[v] = cfg[v] * cls.hidden[h] + states[:, h]
            n_cfg[v] *= cls.hidden[h]
    return cfg, n_cfg


def _used(structure: Structure) -> list[int]:
    return [h for h, mask in enumerate(structure.children) if mask]


def log_aliases(structure: Structure, cls: BipartiteClass, rule: str = "R1'") -> float:
    """ln S(m), the alias count of eq. (24) (beal2006 decision A2).

    ``R1'``: (permutations of identical used hidden variables) x prod_{used} |s_j|!.
    ``R1``: prod_{used} |s_j|! x (hidden-variable permutations that map the graph onto itself).
    Childless hidden variables contribute a factor 1.
    """
    used = _used(structure)
    labels = sum(math.lgamma(cls.hidden[h] + 1) for h in used)
    if rule == "R1'":
        groups: dict[int, int] = {}
        for h in used:
            groups[cls.hidden[h]] = groups.get(cls.hidden[h], 0) + 1
    elif rule == "R1":
        shared: dict[tuple[int, int], int] = {}
        for h in used:
            key = (cls.hidden[h], structure.children[h])
            shared[key] = shared.get(key, 0) + 1
        groups = dict(enumerate(shared.values()))
    else:
        raise ValueError(f"unknown alias rule {rule!r}; expected R1' or R1")
    return labels + sum(math.lgamma(size + 1) for size in groups.values())


def log_prior_at_map(structure: Structure, cls: BipartiteClass) -> float:
    """ln p(theta_hat | m) in the theta (simplex) basis with lambda = 1 (beal2006 decision A3):
    sum over every CPT row of ln Gamma(|z_j|), independent of theta_hat."""
    _, n_cfg = parent_configurations(structure, cls)
    hidden = sum(math.lgamma(c) for c in cls.hidden)
    return hidden + sum(int(n) * math.lgamma(c) for n, c in zip(n_cfg, cls.observed, strict=True))
