"""The structure-learning loops as they were before issue 26 (hierbn commit 5f109bd,
``src/hierbn/structure_learning/search.py`` and ``markov_blanket.py``), kept as the reference
that ``bench_structure_learning.py`` times the Numba versions against.

The code is the pure-Python/numpy original; only a ``rule`` argument was added: ``"old"`` (the
default) runs the loops as they were, ``"bnlearn"`` runs issue 26's three loop fixes (tabu's
stop counts only iterations whose move does not raise the current BIC by more than the
tolerance; Grow-Shrink's shrink restarts after each removal; IAMB's backward phase is one pass),
so the benchmark can time both implementations doing the same work and check they return the
same networks.
"""

from __future__ import annotations

import itertools
import math
from collections import deque
from collections.abc import Callable, Iterable, Sequence
from typing import Any, NamedTuple

import numpy as np
from scipy.stats import chi2

from hierbn.bn.sparse_tables import configuration_ids
from hierbn.scoring.decomposable import network_scores, node_scores

Arc = tuple[int, int]
Network = tuple[frozenset[int], ...]  # parents of each node

_RELATIVE_TOLERANCE = 1e-9


class _Move(NamedTuple):
    """One single-arc operation ``kind`` in {"add", "delete", "reverse"} on ``source -> target``
    and the BIC change it makes."""

    kind: str
    source: int
    target: int
    delta: float


def _is_index(value: Any) -> bool:
    return isinstance(value, int | np.integer) and not isinstance(value, bool | np.bool_)


def _count(value: Any, name: str, minimum: int) -> int:
    """An integer ``>= minimum``, refusing booleans and non-integers."""
    if not _is_index(value) or value < minimum:
        raise ValueError(f"{name} must be an integer >= {minimum}, got {value!r}")
    return int(value)


def _arc_set(arcs: Iterable[Sequence[int]], n_nodes: int, name: str) -> frozenset[Arc]:
    """The distinct ``(from, to)`` column-index pairs of ``arcs``, each in ``[0, n_nodes)``."""
    try:
        pairs = [tuple(pair) for pair in arcs]
    except TypeError as error:
        raise ValueError(f"{name} must be an iterable of (from, to) column-index pairs") from error
    checked: set[Arc] = set()
    for i, pair in enumerate(pairs):
        if len(pair) != 2 or not all(_is_index(end) for end in pair):
            raise ValueError(f"{name}[{i}] = {pair!r} must be a (from, to) pair of column indices")
        source, target = int(pair[0]), int(pair[1])
        if not (0 <= source < n_nodes and 0 <= target < n_nodes):
            raise ValueError(f"{name}[{i}] = {pair!r} must lie in [0, {n_nodes}) (columns of data)")
        if source == target:
            raise ValueError(f"{name}[{i}] = {pair!r} is a self-loop")
        checked.add((source, target))
    return frozenset(checked)


def _reachability(network: Network) -> np.ndarray:
    """``reach[a, b]``: a directed path of length >= 1 leads from ``a`` to ``b`` (Warshall)."""
    n_nodes = len(network)
    reach = np.zeros((n_nodes, n_nodes), dtype=bool)
    for child, parents in enumerate(network):
        reach[list(parents), child] = True
    for k in range(n_nodes):
        reach |= reach[:, k, None] & reach[None, k, :]
    return reach


def _apply(network: Network, move: _Move) -> Network:
    """The network after ``move``."""
    parents = list(network)
    if move.kind == "add":
        parents[move.target] = parents[move.target] | {move.source}
    else:
        parents[move.target] = parents[move.target] - {move.source}
    if move.kind == "reverse":
        parents[move.source] = parents[move.source] | {move.target}
    return tuple(parents)


class _Search:
    """The state shared by both searches: checked data, arc constraints, the family-score cache
    and the current network."""

    def __init__(self, data: Any, blacklist: Any, whitelist: Any) -> None:
        array = np.asarray(data)
        if array.ndim != 2 or array.shape[1] == 0:
            raise ValueError(
                f"data must be a 2-d array [row, column] with at least one column, "
                f"got shape {array.shape}"
            )
        n_nodes = array.shape[1]
        # network_scores refuses bad codes naming ``data``; its value is the start graph's BIC
        empty = network_scores(array, [[] for _ in range(n_nodes)]).bic
        self.codes = array.astype(np.int64)
        self.tol = _RELATIVE_TOLERANCE * max(1.0, abs(empty))
        self.banned = _arc_set(blacklist, n_nodes, "blacklist")
        self.fixed = _arc_set(whitelist, n_nodes, "whitelist")
        both = sorted(self.banned & self.fixed)
        if both:
            raise ValueError(f"whitelist and blacklist share the arcs {both}")
        start = [set[int]() for _ in range(n_nodes)]
        for source, target in self.fixed:
            start[target].add(source)
        self.network: Network = tuple(frozenset(parents) for parents in start)
        if np.any(np.diag(_reachability(self.network))):
            raise ValueError(f"whitelist must be acyclic, got arcs {sorted(self.fixed)}")
        self._cache: dict[tuple[int, frozenset[int]], float] = {}

    def family(self, node: int, parents: frozenset[int]) -> float:
        """BIC of ``node`` given ``parents``, scored once and cached."""
        key = (node, parents)
        if key not in self._cache:
            columns = self.codes[:, sorted(parents)]
            self._cache[key] = node_scores(self.codes[:, node], columns).bic
        return self._cache[key]

    def score(self) -> float:
        """BIC of the current network as a sum of cached family scores."""
        return sum(self.family(node, parents) for node, parents in enumerate(self.network))

    def _gain(self, node: int, parents: frozenset[int]) -> float:
        return self.family(node, parents) - self.family(node, self.network[node])

    def moves(self) -> list[_Move]:
        """Every legal operation on the current network with its BIC change, in the fixed
        order: additions, deletions, reversals, each over arcs in lexicographic order."""
        network, reach = self.network, _reachability(self.network)
        pairs = list(itertools.permutations(range(len(network)), 2))
        present = [(u, v) for u, v in pairs if u in network[v] and (u, v) not in self.fixed]
        adds = [
            _Move("add", u, v, self._gain(v, network[v] | {u}))
            for u, v in pairs
            if u not in network[v] and (u, v) not in self.banned and not reach[v, u]
        ]
        deletes = [_Move("delete", u, v, self._gain(v, network[v] - {u})) for u, v in present]
        reverses = [
            _Move("reverse", u, v, deletion.delta + self._gain(u, network[u] | {v}))
            for (u, v), deletion in zip(present, deletes, strict=True)
            if (v, u) not in self.banned
            and not any(reach[c, v] for c, parents in enumerate(network) if u in parents and c != v)
        ]
        return adds + deletes + reverses

    def best(self, moves: Iterable[_Move]) -> _Move | None:
        """The first of ``moves`` whose change no later one exceeds by more than ``tol``."""
        chosen: _Move | None = None
        for move in moves:
            if chosen is None or move.delta > chosen.delta + self.tol:
                chosen = move
        return chosen

    def parent_sets(self, network: Network | None = None) -> list[list[int]]:
        """Sorted parent lists of ``network`` (default: the current one)."""
        chosen = self.network if network is None else network
        return [sorted(int(parent) for parent in parents) for parents in chosen]


def _max_iter(max_iter: Any) -> int | None:
    return None if max_iter is None else _count(max_iter, "max_iter", 0)


def hill_climbing(
    data: Any,
    blacklist: Iterable[Sequence[int]] = (),
    whitelist: Iterable[Sequence[int]] = (),
    max_iter: int | None = None,
) -> list[list[int]]:
    """bnlearn's ``hc()`` with its defaults on the BIC (dombowsky2025 decisions §4.5 and A18):
    greedy add/delete/reverse from the empty graph (plus ``whitelist``) until no legal operation
    raises the BIC by more than the tolerance (see the module docstring).

    ``data[row, column]`` holds non-negative integer codes; ``blacklist`` and ``whitelist``
    are ``(from, to)`` column-index pairs that may never / must always appear; ``max_iter``
    caps the number of operations (``None``: no cap, bnlearn's ``Inf``). Returns the parents
    of each column as sorted lists.

    Raises ``ValueError`` naming the argument for bad ``data`` codes, malformed or
    out-of-range arcs, a cyclic ``whitelist``, an arc in both lists, and a negative or
    non-integer ``max_iter``.
    """
    search = _Search(data, blacklist, whitelist)
    cap = _max_iter(max_iter)
    iterations = 0
    while cap is None or iterations < cap:
        move = search.best(search.moves())
        if move is None or move.delta <= search.tol:
            break
        search.network = _apply(search.network, move)
        iterations += 1
    return search.parent_sets()


def tabu_search(
    data: Any,
    blacklist: Iterable[Sequence[int]] = (),
    whitelist: Iterable[Sequence[int]] = (),
    tabu: int = 10,
    max_tabu: int = 10,
    max_iter: int | None = None,
    rule: str = "old",
) -> list[list[int]]:
    """bnlearn's ``tabu()`` with its defaults on the BIC (dombowsky2025 decisions §4.5 and A18):
    from the empty graph (plus ``whitelist``), apply at each iteration the best legal operation
    whose resulting network is not among the last ``tabu`` networks visited, even if it lowers the
    BIC. ``rule="old"`` (before issue 26): stop once ``max_tabu`` consecutive iterations have not
    raised the best BIC seen by more than the tolerance. ``rule="bnlearn"`` (issues 26 and 46):
    a move that does not raise the current BIC by more than the tolerance is counted, after the
    count is compared with ``max_tabu`` (equal: stop without moving); a climbing move is free; a
    new best resets the count. Also stop when no such operation exists, or after ``max_iter``
    operations (``None``: no cap). Returns the best network seen as sorted parent lists.

    The arguments are those of :func:`hill_climbing`, plus ``tabu`` and ``max_tabu``
    (integers >= 1; bnlearn's ``tabu = 10`` and ``max.tabu = tabu``). Raises ``ValueError``
    naming the argument for bad input.
    """
    search = _Search(data, blacklist, whitelist)
    length = _count(tabu, "tabu", 1)
    patience = _count(max_tabu, "max_tabu", 1)
    cap = _max_iter(max_iter)
    visited: deque[Network] = deque([search.network], maxlen=length)
    best, best_score = search.network, search.score()
    iterations = stalled = 0
    while cap is None or iterations < cap:
        allowed = (move for move in search.moves() if _apply(search.network, move) not in visited)
        move = search.best(allowed)
        if move is None:
            break
        if rule == "bnlearn" and move.delta <= search.tol:
            if stalled >= patience:  # issue 46: compared before the move, as bnlearn's loop
                break
            stalled += 1
        search.network = _apply(search.network, move)
        visited.append(search.network)
        iterations += 1
        score = search.score()
        if score > best_score + search.tol:
            best, best_score, stalled = search.network, score, 0
        elif rule == "old":
            stalled += 1
            if stalled >= patience:
                break
    return search.parent_sets(best)


def network_bic(data: Any, parent_sets: Sequence[Sequence[int]]) -> float:
    """bnlearn's BIC of the DAG with ``parent_sets[i]`` the parents of column ``i`` of
    ``data[row, column]`` (dombowsky2025 decisions §4.3 and A16; the score both searches
    maximise).
    Raises ``ValueError`` naming the argument for bad codes or a ``parent_sets`` that is not
    a DAG on the columns."""
    return network_scores(data, parent_sets).bic


# ---- markov_blanket.py ------------------------------------------------------------

PValue = Callable[[int, tuple[int, ...]], float]
"""``pvalue(candidate, conditioning_set)``: p-value of candidate ⫫ target | conditioning set."""


class G2Result(NamedTuple):
    """Outcome of one conditional G² test."""

    statistic: float
    df: int
    p_value: float


def _check_data(data: Any) -> np.ndarray:
    """``data[row, column]`` as an int64 array of non-negative codes (at least one row)."""
    array = np.asarray(data)
    if array.ndim != 2:
        raise ValueError(
            f"data must be a 2-d array [row, column] of codes, got shape {array.shape}"
        )
    if not np.issubdtype(array.dtype, np.integer):
        raise ValueError(f"data must hold integer codes, got dtype {array.dtype}")
    if array.shape[0] == 0 or array.shape[1] == 0:
        raise ValueError(f"data must have at least one row and one column, got shape {array.shape}")
    negative = np.argwhere(array < 0)
    if negative.size:
        row, col = (int(i) for i in negative[0])
        raise ValueError(
            f"data must hold non-negative codes: data[{row}, {col}] = {array[row, col]}"
        )
    return array.astype(np.int64)


def _observed_levels(codes: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Dense codes ``0..r_j-1`` of every column over its observed levels, and the r_j
    (dombowsky2025 decision A16)."""
    dense = np.empty_like(codes)
    levels = np.empty(codes.shape[1], dtype=np.int64)
    for j in range(codes.shape[1]):
        values, dense[:, j] = np.unique(codes[:, j], return_inverse=True)
        levels[j] = values.size
    return dense, levels


def _check_node(value: Any, name: str, n_vars: int) -> int:
    """A column index in ``[0, n_vars)``."""
    if isinstance(value, bool) or not isinstance(value, int | np.integer):
        raise ValueError(f"{name} must be an integer column index, got {value!r}")
    if not 0 <= value < n_vars:
        raise ValueError(f"{name} must lie in [0, {n_vars}), got {value}")
    return int(value)


def _check_alpha(alpha: Any) -> float:
    """A significance level strictly between 0 and 1."""
    try:
        level = float(alpha)
    except (TypeError, ValueError):
        level = math.nan
    if not 0.0 < level < 1.0:
        raise ValueError(f"alpha must lie in (0, 1), got {alpha!r}")
    return level


def _g2(dense: np.ndarray, levels: np.ndarray, x: int, y: int, z: Sequence[int]) -> G2Result:
    """The G² test on dense codes; the strata are the observed configurations of ``z``, since
    an empty stratum contributes 0 to G² (it still counts in df)."""
    r_x, r_y = int(levels[x]), int(levels[y])
    strata, configs = configuration_ids(dense[:, list(z)])
    n_strata = configs.shape[0]
    cells = np.bincount(
        (strata * r_x + dense[:, x]) * r_y + dense[:, y], minlength=n_strata * r_x * r_y
    )
    n_xyz = cells.reshape(n_strata, r_x, r_y).astype(np.float64)
    n_xz = n_xyz.sum(axis=2, keepdims=True)
    n_yz = n_xyz.sum(axis=1, keepdims=True)
    n_z = n_xz.sum(axis=1, keepdims=True)
    ratio = np.divide(n_xyz * n_z, n_xz * n_yz, out=np.ones_like(n_xyz), where=n_xyz > 0)
    statistic = max(0.0, 2.0 * float(np.sum(n_xyz * np.log(ratio))))  # >= 0 up to rounding
    df = (r_x - 1) * (r_y - 1) * math.prod(int(levels[j]) for j in z)
    p_value = float(chi2.sf(statistic, df)) if df > 0 else 1.0
    return G2Result(statistic, df, p_value)


def g2_test(x: int, y: int, z: Sequence[int], data: Any) -> G2Result:
    """Conditional G² test ("mi" in bnlearn) of column ``x`` ⫫ column ``y`` given the columns
    ``z`` (possibly empty) of ``data[row, column]`` (non-negative integer codes),
    dombowsky2025 decision A17.

    Returns the statistic, df = (r_x − 1)(r_y − 1) ∏ r_z over the observed levels of each column in
    the whole ``data`` (no df adjustment, dombowsky2025 decision A17), and the χ² upper-tail
    p-value. When df = 0 (a constant column) the statistic is 0 and the p-value is taken as 1.
    """
    codes = _check_data(data)
    n_vars = codes.shape[1]
    x, y = _check_node(x, "x", n_vars), _check_node(y, "y", n_vars)
    given = [_check_node(j, "z", n_vars) for j in z]
    if x == y:
        raise ValueError(f"x and y must be different columns, got {x} twice")
    if len(set(given)) != len(given) or {x, y} & set(given):
        raise ValueError(f"z must be distinct columns other than x and y, got {list(z)}")
    dense, levels = _observed_levels(codes)
    return _g2(dense, levels, x, y, given)


def grow_shrink_search(
    pvalue: PValue, candidates: Sequence[int], alpha: float, rule: str = "old"
) -> list[int]:
    """Grow-Shrink over ``candidates`` (their order is the scan order),
    dombowsky2025 decisions §4.2 and A17.

    Grow: scan the candidates in order and add the first one not yet in the blanket B with
    ``pvalue(c, B) <= alpha``; after each addition restart the scan from the first candidate;
    stop after a full scan adds nothing. Shrink: one pass over B in insertion order, removing
    each node with ``pvalue(node, B without node) > alpha`` at once (later tests condition on
    the already-shrunk B). Returns the blanket sorted.
    """
    blanket: list[int] = []
    grown = True
    while grown:
        grown = False
        for node in candidates:
            if node not in blanket and pvalue(node, tuple(blanket)) <= alpha:
                blanket.append(node)
                grown = True
                break
    if rule == "bnlearn":  # issue 26: restart the shrink scan after each removal
        shrunk = True
        while shrunk:
            shrunk = False
            for node in blanket:
                if pvalue(node, tuple(b for b in blanket if b != node)) > alpha:
                    blanket.remove(node)
                    shrunk = True
                    break
        return sorted(blanket)
    for node in list(blanket):
        if pvalue(node, tuple(b for b in blanket if b != node)) > alpha:
            blanket.remove(node)
    return sorted(blanket)


def iamb_search(
    pvalue: PValue, candidates: Sequence[int], alpha: float, rule: str = "old"
) -> list[int]:
    """IAMB over ``candidates``, dombowsky2025 decisions §4.2 and A17.

    Forward: test every candidate outside the blanket B given B and add the one with the
    minimum p-value (ties go to the earliest candidate) while that p-value is <= alpha.
    Backward (round-robin, keeping the last-added node): sweep B in insertion order, skipping
    the node added last, and remove each node with ``pvalue(node, B without node) > alpha`` at
    once; repeat the sweep until a full sweep removes nothing. The last-added node is never
    re-tested: it was admitted by the test of it given all the others. Returns B sorted.
    """
    blanket: list[int] = []
    while remaining := [c for c in candidates if c not in blanket]:
        pvalues = [pvalue(c, tuple(blanket)) for c in remaining]
        best = int(np.argmin(pvalues))
        if pvalues[best] > alpha:
            break
        blanket.append(remaining[best])
    if rule == "bnlearn":  # issue 26: a single backward pass
        for node in blanket[:-1]:
            if pvalue(node, tuple(b for b in blanket if b != node)) > alpha:
                blanket.remove(node)
        return sorted(blanket)
    removed = True
    while removed:
        removed = False
        for node in blanket[:-1]:
            if pvalue(node, tuple(b for b in blanket if b != node)) > alpha:
                blanket.remove(node)
                removed = True
    return sorted(blanket)


def _search(
    search: Callable[..., list[int]],
    data: Any,
    target: int,
    alpha: float,
    rule: str = "old",
) -> list[int]:
    """Run ``search`` for ``target`` with the G² test on ``data``, candidates in column order."""
    codes = _check_data(data)
    target = _check_node(target, "target", codes.shape[1])
    level = _check_alpha(alpha)
    dense, levels = _observed_levels(codes)

    def pvalue(node: int, given: tuple[int, ...]) -> float:
        return _g2(dense, levels, target, node, given).p_value

    others = [j for j in range(codes.shape[1]) if j != target]
    return search(pvalue, others, level, rule)


def grow_shrink(data: Any, target: int, alpha: float = 0.05, rule: str = "old") -> list[int]:
    """Markov blanket of column ``target`` by Grow-Shrink with the G² test, as bnlearn's
    ``learn.mb(data, node, method = "gs")`` (dombowsky2025 decisions §4.2 and A17); see
    :func:`grow_shrink_search` for the loops. Returns sorted column indices."""
    return _search(grow_shrink_search, data, target, alpha, rule)


def iamb(data: Any, target: int, alpha: float = 0.05, rule: str = "old") -> list[int]:
    """Markov blanket of column ``target`` by IAMB with the G² test, as bnlearn's
    ``learn.mb(data, node, method = "iamb")`` (dombowsky2025 decisions §4.2 and A17); see
    :func:`iamb_search` for the loops. Returns sorted column indices."""
    return _search(iamb_search, data, target, alpha, rule)
