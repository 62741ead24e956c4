"""Structure learning with HiDDeN on the sampler of :mod:`hierbn.estimators.hidden`
(Dombowsky & Dunson 2025, Sec. 4): Markov blankets (Ca(j) = every other variable, Algorithm 2,
dombowsky2025 decisions §3.3), parent sets under a known ordering (Algorithm 2 per node with its
own candidate set; the nodes are independent, dombowsky2025 decisions §3.4) and candidate parent
sets (Algorithm 3, dombowsky2025 decisions §3.2), with the estimators of dombowsky2025 decisions
§2.4: edge probabilities, the MAP set (the most visited indicator vector) and the median
probability (MPM) set (edges with probability > 1/2)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from hierbn.bn.sparse_tables import parent_child_table
from hierbn.estimators.hidden import EdgeFit, ModelFit, sample_edges, sample_models
from hierbn.validate import check_codes


@dataclass(frozen=True)
class ParentPosterior:
    """The posterior over the parents of one node from one chain (after burn-in):
    ``candidates`` the column indices of Ca(j); ``edge_probability[c]`` = Pr(candidate c in
    Pa(j) | n); ``map_set`` the most visited set with its frequency ``map_probability``;
    ``mpm_set`` the candidates with probability > 1/2; ``sets`` every visited set with its
    frequency, most visited first."""

    candidates: tuple[int, ...]
    edge_probability: np.ndarray
    map_set: tuple[int, ...]
    map_probability: float
    mpm_set: tuple[int, ...]
    sets: tuple[tuple[tuple[int, ...], float], ...]


def posterior_of(candidates: Sequence[int], indicators: np.ndarray) -> ParentPosterior:
    """Summaries of post-burn-in indicator rows ``indicators[draw, c]`` (0/1; the draws of
    several chains may be stacked). Ties between
    equally visited sets go to the smaller set, then the lexicographically first one, so the
    MAP is deterministic."""
    cand = tuple(int(c) for c in candidates)
    rows, counts = np.unique(indicators.astype(np.int8), axis=0, return_counts=True)
    sets = [tuple(c for c, z in zip(cand, row, strict=True) if z) for row in rows]
    freq = counts / indicators.shape[0]
    order = sorted(range(len(sets)), key=lambda i: (-counts[i], len(sets[i]), sets[i]))
    ranked = tuple((sets[i], float(freq[i])) for i in order)
    edge = indicators.mean(axis=0)
    mpm = tuple(c for c, p in zip(cand, edge, strict=True) if p > 0.5)
    return ParentPosterior(cand, edge, ranked[0][0], ranked[0][1], mpm, ranked)


def _check_data(data: np.ndarray) -> np.ndarray:
    codes = np.asarray(data)
    if codes.ndim != 2 or codes.shape[0] == 0 or codes.shape[1] < 2:
        raise ValueError(
            f"data must be a 2-d array [row, variable] with >= 2 columns, got {codes.shape}"
        )
    check_codes(codes, codes.max(axis=0) + 1, "data")
    return codes.astype(np.int64)


def _check_node(node: int, n_columns: int, name: str) -> int:
    if not 0 <= int(node) < n_columns:
        raise ValueError(f"{name} must be a column index in [0, {n_columns}), got {node}")
    return int(node)


def sample_parents(
    data: np.ndarray,
    child: int,
    candidates: Sequence[int],
    eps: float | Sequence[float],
    seed: np.random.SeedSequence,
    *,
    n_iter: int,
    burn: int,
    **settings,
) -> tuple[EdgeFit, ParentPosterior]:
    """Algorithm 2 for column ``child`` of ``data[row, variable]`` (zero-based codes) with
    Ca(child) = ``candidates`` (eq. 13, the Beta–Bernoulli prior integrated out); ``settings``
    go to :func:`~hierbn.estimators.hidden.sample_edges` (c, d, b, rho_rule, init, step_size).
    The posterior summaries use the draws after ``burn``."""
    codes = _check_data(data)
    j = _check_node(child, codes.shape[1], "child")
    cand = [_check_node(c, codes.shape[1], "candidates") for c in candidates]
    if j in cand or len(set(cand)) != len(cand):
        raise ValueError(
            f"candidates must be distinct columns other than the child {j}, got {list(candidates)}"
        )
    fit = sample_edges(codes[:, j], codes[:, cand], eps, seed, n_iter=n_iter, burn=burn, **settings)
    return fit, posterior_of(cand, fit.z[burn:])


def markov_blanket(
    data: np.ndarray,
    target: int,
    eps: float | Sequence[float],
    seed: np.random.SeedSequence,
    *,
    n_iter: int,
    burn: int,
    **settings,
) -> tuple[EdgeFit, ParentPosterior]:
    """dombowsky2025 decisions §3.3: the conditional model of ``target`` given every other variable;
    its "parent set" is the Markov blanket Mb(target)."""
    codes = _check_data(data)
    j = _check_node(target, codes.shape[1], "target")
    others = [c for c in range(codes.shape[1]) if c != j]
    return sample_parents(codes, j, others, eps, seed, n_iter=n_iter, burn=burn, **settings)


def hamming(selected: Sequence[int], truth: Sequence[int]) -> int:
    """H(z_hat, z0) of App. C.2: the number of variables in exactly one of the two sets."""
    return len(set(selected) ^ set(truth))


@dataclass(frozen=True)
class SetPosterior:
    """Algorithm 3 for one node: ``parent_sets[m]`` with visit frequency ``frequency[m]`` and
    Rao–Blackwellised probability ``rao_blackwell[m]`` (dombowsky2025 decision A5), the MAP set
    (largest frequency) and ``edge_probability[v]`` = total frequency of the sets containing
    variable ``v``, computed from the parent-set samples (dombowsky2025 decision A14), for every
    variable of any candidate set."""

    parent_sets: tuple[tuple[int, ...], ...]
    frequency: np.ndarray
    rao_blackwell: np.ndarray
    map_set: tuple[int, ...]
    edge_probability: dict[int, float]


def sample_parent_sets(
    datasets: Sequence[np.ndarray],
    child: int,
    parent_sets: Sequence[Sequence[int]],
    eps: float | Sequence[float],
    seeds: Sequence[np.random.SeedSequence],
    *,
    n_iter: int,
    burn: int,
    prior: Sequence[float] | None = None,
    **settings,
) -> tuple[ModelFit, list[SetPosterior]]:
    """Algorithm 3 for column ``child`` of each data set (one chain each, run together) over
    the candidate ``parent_sets`` (uniform prior unless ``prior``); ``settings`` go to
    :func:`~hierbn.estimators.hidden.sample_models` (b, rho_rule, init, step_size)."""
    if len(datasets) != len(seeds) or not datasets:
        raise ValueError(
            f"need one seed per data set, got {len(datasets)} data sets and {len(seeds)} seeds"
        )
    sets = tuple(tuple(int(v) for v in s) for s in parent_sets)
    if len(set(sets)) != len(sets) or not sets:
        raise ValueError(f"parent_sets must be distinct, got {list(parent_sets)}")
    coded = [_check_data(x) for x in datasets]
    j = _check_node(child, coded[0].shape[1], "child")
    for s in sets:
        for v in s:
            _check_node(v, coded[0].shape[1], "parent_sets")
        if j in s:
            raise ValueError(f"parent set {s} contains the child {j}")
    k = max(int(x[:, j].max()) + 1 for x in coded)
    tables = [[[parent_child_table(x[:, j], x[:, list(s)], k).counts for s in sets]] for x in coded]
    eps_array = np.broadcast_to(np.asarray(eps, dtype=np.float64), (k,))[None, :]
    fit = sample_models(
        tables, [k], eps_array, seeds, n_iter=n_iter, burn=burn, prior=prior, **settings
    )
    variables = sorted({v for s in sets for v in s})
    out = []
    for r in range(len(coded)):
        freq = fit.frequency[r]
        best = int(np.argmax(freq))
        edges = {
            v: float(sum(f for s, f in zip(sets, freq, strict=True) if v in s)) for v in variables
        }
        out.append(SetPosterior(sets, freq, fit.rao_blackwell[r], sets[best], edges))
    return fit, out


def nonempty_subsets(variables: Sequence[int]) -> list[tuple[int, ...]]:
    """Every non-empty subset of ``variables`` (App. F.3's candidate parent sets), by size then
    lexicographically."""
    items = tuple(variables)
    masks = range(1, 2 ** len(items))
    subsets = [tuple(v for b, v in enumerate(items) if m >> b & 1) for m in masks]
    return sorted(subsets, key=lambda s: (len(s), s))


__all__ = [
    "ParentPosterior",
    "SetPosterior",
    "hamming",
    "markov_blanket",
    "nonempty_subsets",
    "posterior_of",
    "sample_parent_sets",
    "sample_parents",
]
