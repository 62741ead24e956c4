"""Score-based structure search with bnlearn's ``hc()`` and ``tabu()`` semantics on the
decomposable BIC (the HC and TABU competitors of dombowsky2025 decisions §4.5 and A18).

Both searches start from the empty graph plus the whitelisted arcs and move by single-arc
operations: *add* ``u -> v``, *delete* ``u -> v`` or *reverse* ``u -> v`` into ``v -> u``.
An operation is legal when the arc it creates is not blacklisted, the arc it removes or turns
is not whitelisted, and the graph stays acyclic (checked by reachability: adding ``u -> v``
needs no path ``v ~> u``; reversing ``u -> v`` needs no path ``u ~> v`` other than the arc).

The score is bnlearn's BIC, ``loglik - (d / 2) log n`` (larger is better;
dombowsky2025 decisions §4.3 and A16, the score of :func:`hierbn.scoring.decomposable.node_scores`).
It decomposes over families, so an operation's score change needs the families of at most two
nodes. As in bnlearn, the score of every family one arc away from the current network is kept and
only the families of the nodes a move changed are rescored (the Numba kernels of
:mod:`hierbn.structure_learning.search_kernels`).

A constant column is refused, as bnlearn refuses it: an arc from it changes the BIC by exactly 0,
so it is always the least-bad move of tabu search, which then never leaves the hill-climbing
network (issue 26).

Numerical and tie-breaking conventions (ours; bnlearn's only documented rule is "largest
improvement"):

* tolerance ``tol = 1e-9 * max(1, |BIC of the empty graph|)``: a change of ``tol`` or less
  counts as no change. It absorbs rounding (e.g. reversing a covered arc changes the
  score-equivalent BIC by exactly 0 in exact arithmetic) and is far below a real difference;
* operations are enumerated in a fixed order: all additions, then all deletions, then all
  reversals, each over arcs ``(u, v)`` in lexicographic order. The chosen operation is the
  first in this order whose score change is not exceeded by more than ``tol`` by any other,
  so on exact ties the lower-numbered node becomes the parent.

Hill climbing (``hc``) applies the best legal operation while it improves the score by more than
``tol``. Tabu search (``tabu``, dombowsky2025 decision A18) applies the best legal operation whose
resulting network is not among the last ``tabu`` networks visited (the start included), even when it
lowers the score, and returns the best network seen (the first one, on ties). Its stopping rule is
bnlearn's ``max.tabu`` ("the iterations tabu search can perform without improving the best network
score") as bnlearn's ``tabu.search`` loop applies it (issues 26 and 46). An iteration whose best
legal move raises the current score by more than ``tol`` is free; it resets the count when it
makes a new best. An iteration whose best move does not (it lowers the score, or changes it by no
more than the tolerance, e.g. a covered-arc reversal) first compares the count with ``max_tabu``:
if the count has reached it, the search stops there without moving; otherwise the count grows by
one and the move is made. So after its ``max_tabu``-th move without a gain the search can still
climb, and a new best on the way resets the count. The search also stops when no non-tabu legal
operation is left, or after ``max_iter`` operations. Counting changes within the tolerance keeps
the search finite: between two new bests, a run of free moves raises the current score by more
than ``tol`` each while it stays below the best. (Issue 26 replaced a rule that counted every
iteration without a new best, which ended at a lower BIC than bnlearn's on 3 of 40 random
100-row ALARM samples. Issue 46 moved the check: the search used to stop as soon as the count
reached ``max_tabu``, right after that move, and so missed the climbs bnlearn still makes; the
issue found it below bnlearn's BIC on 3 cases, by 0.011 to 0.75. ``test_structure_search.py`` replays both rules.)
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any, NamedTuple

import numpy as np

from hierbn.scoring.decomposable import network_scores
from hierbn.structure_learning.levels import observed_levels, refuse_constant
from hierbn.structure_learning.search_kernels import family_bic, reachability, search
from hierbn.validate import check_codes

Arc = tuple[int, int]

_RELATIVE_TOLERANCE = 1e-9
_MAX_CODE = 2**62


class SearchRun(NamedTuple):
    """One search: the returned network as sorted parent lists, the BIC of the current network
    after each iteration (entry 0: the start) and the change each applied move made (entry 0:
    0). For tabu search the returned network is the best one seen, not the last."""

    parent_sets: list[list[int]]
    scores: np.ndarray
    changes: np.ndarray


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


def _codes(data: Any) -> np.ndarray:
    """``data[row, column]`` as checked int64 codes (non-negative integers, at least one row
    and one column), refused naming ``data`` and the first bad entry."""
    array = np.asarray(data)
    if array.ndim != 2 or array.shape[1] == 0:
        raise ValueError(
            f"data must be a 2-d array [row, column] with at least one column, "
            f"got shape {array.shape}"
        )
    cards = np.ones(array.shape[1], dtype=np.int64)
    if array.size and (np.issubdtype(array.dtype, np.number) or array.dtype == np.bool_):
        finite = np.where(np.isfinite(array), array, 0).astype(np.float64)
        cards = (np.floor(np.clip(finite.max(axis=0), 0, _MAX_CODE - 1)) + 1).astype(np.int64)
    return check_codes(array, cards, "data")


def _adjacency(arcs: frozenset[Arc], n_nodes: int) -> np.ndarray:
    amat = np.zeros((n_nodes, n_nodes), dtype=np.bool_)
    for source, target in arcs:
        amat[source, target] = True
    return amat


def _max_iter(max_iter: Any) -> int:
    return -1 if max_iter is None else _count(max_iter, "max_iter", 0)


def _run(
    data: Any,
    blacklist: Iterable[Sequence[int]],
    whitelist: Iterable[Sequence[int]],
    max_iter: Any,
    tabu: int = 0,
    max_tabu: int = 1,
) -> SearchRun:
    """Check the input and run hill climbing (``tabu = 0``) or tabu search in the kernel."""
    codes = _codes(data)
    n_nodes = codes.shape[1]
    banned = _arc_set(blacklist, n_nodes, "blacklist")
    fixed = _arc_set(whitelist, n_nodes, "whitelist")
    both = sorted(banned & fixed)
    if both:
        raise ValueError(f"whitelist and blacklist share the arcs {both}")
    start = _adjacency(fixed, n_nodes)
    if np.any(np.diag(reachability(start))):
        raise ValueError(f"whitelist must be acyclic, got arcs {sorted(fixed)}")
    cap = _max_iter(max_iter)
    codes_t, levels = observed_levels(codes)
    refuse_constant(data, codes, levels)
    none = np.zeros(0, dtype=np.int64)
    empty = sum(family_bic(codes_t, levels, v, none) for v in range(n_nodes))
    tol = _RELATIVE_TOLERANCE * max(1.0, abs(empty))
    amat, scores, changes = search(
        codes_t, levels, _adjacency(banned, n_nodes), start, start, tol, tabu, max_tabu, cap
    )
    parent_sets = [np.flatnonzero(amat[:, v]).tolist() for v in range(n_nodes)]
    return SearchRun(parent_sets, scores, changes)


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

    Raises ``ValueError`` naming the argument for bad ``data`` codes, a constant column of
    ``data`` (named by index, and by name for a data frame), malformed or out-of-range arcs, a
    cyclic ``whitelist``, an arc in both lists, and a negative or non-integer ``max_iter``.
    """
    return _run(data, blacklist, whitelist, max_iter).parent_sets


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
    BIC. An iteration whose best move does not raise the current BIC by more than the tolerance
    is counted; once ``max_tabu`` have been counted since the last new best (more than the
    tolerance above the best BIC seen), the next such iteration stops the search instead, while
    moves that climb are free (bnlearn's loop, issues 26 and 46). Also stop when no such
    operation exists, or after ``max_iter`` operations (``None``: no cap). Returns the best
    network seen (the first, on ties) as sorted parent lists per column.

    The arguments are those of :func:`hill_climbing`, plus ``tabu`` and ``max_tabu``
    (integers >= 1; bnlearn's ``tabu = 10`` and ``max.tabu = tabu``). Raises ``ValueError``
    naming the argument for bad input, and for a constant column as :func:`hill_climbing`.
    """
    length = _count(tabu, "tabu", 1)
    patience = _count(max_tabu, "max_tabu", 1)
    return _run(data, blacklist, whitelist, max_iter, length, patience).parent_sets


def network_bic(data: Any, parent_sets: Sequence[Sequence[int]]) -> float:
    """bnlearn's BIC of the DAG with ``parent_sets[i]`` the parents of column ``i`` of
    ``data[row, column]`` (dombowsky2025 decisions §4.3 and A16; the score both searches
    maximise).
    Raises ``ValueError`` naming the argument for bad codes or a ``parent_sets`` that is not
    a DAG on the columns."""
    return network_scores(data, parent_sets).bic


__all__ = ["SearchRun", "hill_climbing", "network_bic", "tabu_search"]
