"""Score-based structure search with bnlearn's ``hc()`` and ``tabu()`` semantics on the
decomposable BIC (the HC and TABU competitors of dombowsky2025 decisions §4.5 and A18).

Both searches start from the empty graph plus the whitelisted arcs and move by single-arc
operations: *add* ``u -> v``, *delete* ``u -> v`` or *reverse* ``u -> v`` into ``v -> u``.
An operation is legal when the arc it creates is not blacklisted, the arc it removes or turns
is not whitelisted, and the graph stays acyclic (checked by reachability: adding ``u -> v``
needs no path ``v ~> u``; reversing ``u -> v`` needs no path ``u ~> v`` other than the arc).

The score is bnlearn's BIC, ``loglik - (d / 2) log n`` (larger is better;
dombowsky2025 decisions §4.3 and A16, via :func:`hierbn.scoring.decomposable.node_scores`). It
decomposes over families, so an operation's score change needs the families of at most two nodes;
each family ``(node, parents)`` is scored once per search and cached.

Numerical and tie-breaking conventions (ours; bnlearn's only documented rule is "largest
improvement"):

* tolerance ``tol = 1e-9 * max(1, |BIC of the start graph|)``: a change of ``tol`` or less
  counts as no change. It absorbs rounding (e.g. reversing a covered arc changes the
  score-equivalent BIC by exactly 0 in exact arithmetic) and is far below a real difference;
* operations are enumerated in a fixed order: all additions, then all deletions, then all
  reversals, each over arcs ``(u, v)`` in lexicographic order. The chosen operation is the
  first in this order whose score change is not exceeded by more than ``tol`` by any other,
  so on exact ties the lower-numbered node becomes the parent.

Hill climbing (``hc``) applies the best legal operation while it improves the score by more than
``tol``. Tabu search (``tabu``, dombowsky2025 decision A18) applies the best legal operation whose
resulting network is not among the last ``tabu`` networks visited (the start included), even when it
lowers the score; it stops once ``max_tabu`` consecutive iterations have not raised the best score
seen by more than ``tol`` (bnlearn's ``max.tabu``: "the iterations tabu search can perform without
improving the best network score"), or when no non-tabu legal operation is left, and returns the
best network seen (the first one, on ties).
"""

from __future__ import annotations

import itertools
from collections import deque
from collections.abc import Iterable, Sequence
from typing import Any, NamedTuple

import numpy as np

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
) -> list[list[int]]:
    """bnlearn's ``tabu()`` with its defaults on the BIC (dombowsky2025 decisions §4.5 and A18):
    from the empty graph (plus ``whitelist``), apply at each iteration the best legal operation
    whose resulting network is not among the last ``tabu`` networks visited, even if it lowers the
    BIC; stop once ``max_tabu`` consecutive iterations have not raised the best BIC seen by more
    than the tolerance, when no such operation exists, or after ``max_iter`` operations (``None``:
    no cap). Returns the best network seen as sorted parent lists per column.

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
        search.network = _apply(search.network, move)
        visited.append(search.network)
        iterations += 1
        score = search.score()
        if score > best_score + search.tol:
            best, best_score, stalled = search.network, score, 0
            continue
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


__all__ = ["hill_climbing", "network_bic", "tabu_search"]
