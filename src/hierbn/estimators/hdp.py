"""Hierarchical Dirichlet process CPT estimates by collapsed Gibbs sampling of table counts
(petitjean2018 §3–4; petitjean2018 decisions §2.4, §2.5, §2.6, §2.7 and §2.9).

One context tree per CPT: the root is phi_{X}, depth d branches on the d-th conditioning
variable (class first, then the attribute parents in the structure's order). Only contexts
seen in the data are created. The sampler follows the paper's Algorithms 1–5 with their
misprints corrected: table counts t resampled bottom-up within a window of +-w (Alg. 3–4), root
tables fixed at min(1, n) with concentration alpha_0 (the 2017 code's root,
petitjean2018 decision §2.6), concentrations tied per strategy and resampled by the
Beta-auxiliary / Gamma scheme (Alg. 5, its auxiliaries drawn pooled: petitjean2018 decision
§2.9), and the mean over the iterations after burn-in of the node probabilities of eqs.
(12)–(14) (summed, divided once at the end).
"""

from __future__ import annotations

import functools
import time
from dataclasses import dataclass

import numpy as np

from hierbn.draws import Draws, one_chain
from hierbn.estimators.hdp_kernels import MAX_WINDOW, initial_tables, sweeps
from hierbn.estimators.stirling import SHARED, StirlingCache
from hierbn.seeds import kernel_seed
from hierbn.validate import check_family, check_positive

TYINGS = ("none", "single", "level", "sameparent")
CHILD_TABLE_MAX = 2**23  # entries (32 MB) of a tree's child table; a larger tree searches


@dataclass
class ContextTree:
    """Flat arrays of one context tree (nodes numbered level by level, parents first)."""

    n_values: int
    level: np.ndarray
    parent: np.ndarray
    counts: np.ndarray  # leaf data counts; internal rows are filled by the sampler
    level_codes: list[np.ndarray]  # sorted prefix codes of the nodes at each level
    level_start: np.ndarray
    radix: np.ndarray  # cardinalities of the conditioning variables, in order

    @functools.cached_property
    def children(self) -> tuple[np.ndarray, np.ndarray] | None:
        """(first, child): the child of a node at depth d along value v of the next
        conditioning variable is ``child[first[node] + v]`` (-1 where the data never took v);
        a node of the deepest level has no entries. None when ``child`` would pass
        CHILD_TABLE_MAX entries (:func:`deepest_nodes` then searches the levels)."""
        depth = len(self.level_codes) - 1
        sizes = np.diff(self.level_start)[:depth] * self.radix[:depth]
        if depth == 0 or sizes.sum() > CHILD_TABLE_MAX:
            return None
        base = np.concatenate([[0], np.cumsum(sizes)])
        level = np.minimum(self.level, depth - 1)  # the deepest level's entries are never read
        first = (
            base[level]
            + (np.arange(self.level.size) - self.level_start[level])
            * np.append(self.radix, 1)[level]
        )
        child = np.full(int(base[-1]), -1, dtype=np.int32)
        nodes = np.arange(1, self.level.size)
        last_value = np.concatenate(self.level_codes[1:]) % self.radix[self.level[nodes] - 1]
        child[first[self.parent[nodes]] + last_value] = nodes
        return first, child


def build_tree(
    child_values: np.ndarray, contexts: np.ndarray, radix: np.ndarray, n_values: int
) -> ContextTree:
    """Context tree of the rows' conditioning values ``contexts[row, depth]`` (vectorised)."""
    depth = contexts.shape[1]
    codes_by_level = [np.zeros(1, dtype=np.int64)]
    row_code = np.zeros(contexts.shape[0], dtype=np.int64)
    levels = [np.zeros(1, dtype=np.int64)]
    parents = [np.full(1, -1, dtype=np.int64)]
    start = [0]
    offset = 1
    for d in range(depth):
        row_code = row_code * radix[d] + contexts[:, d]
        unique = np.unique(row_code)
        parent_ids = np.searchsorted(codes_by_level[-1], unique // radix[d]) + start[-1]
        codes_by_level.append(unique)
        levels.append(np.full(unique.size, d + 1, dtype=np.int64))
        parents.append(parent_ids)
        start.append(offset)
        offset += unique.size
    n_nodes = offset
    counts = np.zeros((n_nodes, n_values), dtype=np.int64)
    leaf = np.searchsorted(codes_by_level[-1], row_code) + start[-1]
    np.add.at(counts, (leaf, child_values), 1)
    return ContextTree(
        n_values,
        np.concatenate(levels),
        np.concatenate(parents),
        counts,
        codes_by_level,
        np.array([*start, n_nodes]),
        np.asarray(radix, dtype=np.int64),
    )


def concentration_ids(tree: ContextTree, tying: str) -> np.ndarray:
    """Map every non-root node to a shared concentration (root: -1, fixed alpha_0)."""
    if tying not in TYINGS:
        raise ValueError(f"unknown tying {tying!r}; expected one of {TYINGS}")
    n = tree.level.size
    ids = np.full(n, -1, dtype=np.int64)
    rest = np.arange(1, n)
    if tying == "none":
        ids[rest] = rest - 1
    elif tying == "single":
        ids[rest] = 0
    elif tying == "level":
        ids[rest] = tree.level[rest] - 1
    else:
        _, ids[rest] = np.unique(tree.parent[rest], return_inverse=True)
    return ids


def node_path(tree: ContextTree, contexts: np.ndarray) -> np.ndarray:
    """Node id at every depth 0..D along each row's context (-1 below the deepest existing node)."""
    rows = np.atleast_2d(contexts)
    path = np.full((rows.shape[0], rows.shape[1] + 1), -1, dtype=np.int64)
    path[:, 0] = 0
    code = np.zeros(rows.shape[0], dtype=np.int64)
    alive = np.ones(rows.shape[0], dtype=bool)
    for d in range(rows.shape[1]):
        code = code * tree.radix[d] + rows[:, d]
        level = tree.level_codes[d + 1]
        pos = np.minimum(np.searchsorted(level, code), level.size - 1)
        alive &= level[pos] == code
        path[:, d + 1] = np.where(alive, pos + tree.level_start[d + 1], -1)
    return path


def deepest_nodes(tree: ContextTree, contexts: np.ndarray) -> np.ndarray:
    """The deepest existing node along each row's context: the last node of its
    :func:`node_path`, without the path (a classifier asks this of every test row, class and
    node), by gathers from :attr:`ContextTree.children`, or from the path when a value lies
    outside its variable's cardinality."""
    rows = np.atleast_2d(contexts)
    tables = tree.children
    if tables is None or not ((rows >= 0) & (rows < tree.radix[: rows.shape[1]])).all():
        path = node_path(tree, rows)
        return path[np.arange(path.shape[0]), (path >= 0).sum(axis=1) - 1]
    first, child = tables
    deepest = np.zeros(rows.shape[0], dtype=np.int64)
    alive = np.ones(rows.shape[0], dtype=bool)
    for d in range(rows.shape[1]):
        found = child[np.where(alive, first[deepest] + rows[:, d], 0)]
        alive &= found >= 0
        deepest = np.where(alive, found, deepest)
    return deepest


def data_counts(tree: ContextTree) -> np.ndarray:
    """Data counts of every node (leaf counts summed up the tree): the prefix count trie."""
    counts = tree.counts.copy()
    for d in range(int(tree.level.max()), 0, -1):
        nodes = np.arange(tree.level_start[d], tree.level_start[d + 1])
        np.add.at(counts, tree.parent[nodes], counts[nodes])
    return counts


def sweep_entries(tree: ContextTree) -> tuple[np.ndarray, np.ndarray]:
    """The (node, value) entries Algorithm 1's table sweep visits, in its order (levels
    bottom-up, nodes in level order, values ascending): the non-root ones whose data count is 2
    or more. No other entry can ever have the n >= 2 a table count needs to move: a leaf's n is
    its data count, and an internal node's n sums its children's tables, each at most the
    child's n. Returns (nodes, values)."""
    data = data_counts(tree)
    nodes, values = [], []
    for d in range(int(tree.level.max()), 0, -1):
        first = tree.level_start[d]
        rows, cols = np.nonzero(data[first : tree.level_start[d + 1]] >= 2)
        nodes.append(rows + first)
        values.append(cols)
    empty = np.zeros(0, dtype=np.int64)
    return (
        np.concatenate([empty, *nodes]).astype(np.int64),
        np.concatenate([empty, *values]).astype(np.int64),
    )


def frozen_nodes(
    tree: ContextTree, entry_node: np.ndarray
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(live, frozen, frontier) nodes, each in node order (parents first), given the nodes of
    the entries the sweep visits (:func:`sweep_entries`). A non-root node is frozen when none
    of its children has such an entry: its counts, the sums of its children's table counts,
    never move, so its sums can wait for the concentrations to change (petitjean2018 decision
    §2.9). Every leaf is frozen, and so are a frozen node's children. The other non-root
    nodes are live; the frontier is the root and the live nodes with a frozen child."""
    n_nodes = tree.level.size
    has_movable_child = np.zeros(n_nodes, dtype=bool)
    has_movable_child[tree.parent[entry_node]] = True  # the sweep never visits the root
    frozen = ~has_movable_child
    frozen[0] = False
    has_frozen_child = np.zeros(n_nodes, dtype=bool)
    has_frozen_child[tree.parent[1:][frozen[1:]]] = True
    frontier = has_frozen_child & ~frozen
    live = ~frozen
    live[0] = False
    return tuple(np.flatnonzero(mask).astype(np.int64) for mask in (live, frozen, frontier))


def sweep_layout(tree: ContextTree, conc_id: np.ndarray, n_conc: int) -> tuple:
    """The kernel's fixed arrays of one tree, in the order of :func:`sweeps`' last arguments:
    the entries the sweep visits (node, value), the nodes grouped by concentration (nodes,
    first), the live, frozen and frontier nodes (:func:`frozen_nodes`), and the frozen nodes'
    pending sums (eq. (14)) with their count of states."""
    entry_node, entry_value = sweep_entries(tree)
    conc_nodes, conc_first = nodes_by_concentration(conc_id, n_conc)
    live, frozen, frontier = frozen_nodes(tree, entry_node)
    block = np.zeros(tree.counts.shape)
    pending = np.zeros(1, dtype=np.int64)
    return entry_node, entry_value, conc_nodes, conc_first, live, frozen, frontier, block, pending


def nodes_by_concentration(conc_id: np.ndarray, n_conc: int) -> tuple[np.ndarray, np.ndarray]:
    """The non-root nodes grouped by concentration, in node order within each: concentration
    c's are ``nodes[first[c] : first[c + 1]]`` (Algorithm 5 visits them together)."""
    nodes = np.argsort(conc_id[1:], kind="stable").astype(np.int64) + 1
    first = np.searchsorted(conc_id[nodes], np.arange(n_conc + 1)).astype(np.int64)
    return nodes, first


@dataclass
class HDPEstimate:
    """Averaged node probabilities of a fitted context tree; ``query`` answers any context."""

    tree: ContextTree
    pbar: np.ndarray
    alpha: np.ndarray
    n: np.ndarray
    t: np.ndarray
    seconds: dict[str, float]  # tree building and sampling (petitjean2018 decision §E12)
    alpha_trace: np.ndarray | None = None  # [iteration, concentration] when traced

    def draws(self) -> Draws:
        """The traced concentrations as a one-chain draws record (``alpha[draw, tie]``)."""
        if self.alpha_trace is None:
            raise ValueError("the chain was not traced: fit with trace=True")
        return one_chain({"alpha": self.alpha_trace})

    def query(self, contexts: np.ndarray) -> np.ndarray:
        """P(X | context) for each row of conditioning values: the deepest existing node
        (petitjean2018 decision §2.5)."""
        return self.pbar[deepest_nodes(self.tree, contexts)]

    def log_probability(self, contexts: np.ndarray, values: np.ndarray) -> np.ndarray:
        """``log(query(contexts)[i, values[i]])`` of each row, gathering only that entry."""
        return np.log(self.pbar[deepest_nodes(self.tree, contexts), values])


def fit_hdp(
    child_values: np.ndarray,
    contexts: np.ndarray,
    radix: np.ndarray,
    n_values: int,
    *,
    n_iter: int = 50_000,
    burn_in: int | None = None,
    tying: str = "level",
    window: int = 10,
    alpha0: float = 2.0,
    alpha_init: float = 2.0,
    prior: tuple[float, float] = (0.0, 0.0),
    alpha_max: float = 4000.0,
    conc_every: int = 5,
    seed: np.random.SeedSequence,
    stirling: StirlingCache = SHARED,
    trace: bool = False,
) -> HDPEstimate:
    """Fit one HDP context tree (Algorithm 1). The defaults follow
    petitjean2018 decisions §2.5, §2.6, §2.7 and §7.1: the paper's improper Gamma(0, 0)
    concentration prior (``prior`` = (shape, rate); the 2017 code used (2, 1)), concentrations
    resampled every 5 iterations, burn-in min(1000, n_iter/10), alpha in [1e-6, 4000], root
    tables min(1, n) with alpha_0 = 2, Level tying. ``trace`` keeps the concentrations of every
    iteration (``alpha_trace``) for :mod:`hierbn.diagnostics`; it does not change the chain."""
    start = time.perf_counter()
    values, context_matrix = check_family(child_values, contexts, radix, n_values)
    if n_iter < 1 or not 1 <= window <= MAX_WINDOW or conc_every < 1:
        raise ValueError(
            f"n_iter and conc_every must be >= 1 and window in 1..{MAX_WINDOW}: got "
            f"n_iter={n_iter}, conc_every={conc_every}, window={window}"
        )
    prior = (
        check_positive(prior[0], "prior shape", allow_zero=True),
        check_positive(prior[1], "prior rate", allow_zero=True),
    )
    tree = build_tree(values, context_matrix, np.asarray(radix, dtype=np.int64), n_values)
    ids = concentration_ids(tree, tying)
    n_conc = int(ids.max()) + 1 if ids.max() >= 0 else 1
    n_max = int(tree.counts.sum())
    built = time.perf_counter()
    burn = min(1000, n_iter // 10) if burn_in is None else burn_in
    n, t = initial_tables(
        tree.level, tree.parent, tree.counts, tree.level_start, alpha_init, kernel_seed(seed)
    )
    alpha = np.full(n_conc, float(alpha_init))
    psum = np.zeros(n.shape)
    recorded = np.zeros(1, dtype=np.int64)
    alpha_trace = np.zeros((n_iter if trace else 0, n_conc))
    layout = sweep_layout(tree, ids, n_conc)
    it, need = 0, int(t.max()) + window + 1
    # resumes after growing the shared Stirling table (petitjean2018 decision §2.4)
    while it < n_iter:
        tables = stirling.tables(n_max, need)  # ln S and its ratio tables
        it = sweeps(
            tree.parent,
            ids,
            n,
            t,
            alpha,
            psum,
            recorded,
            it,
            *tables,
            n_iter,
            burn,
            window,
            alpha0,
            prior[0],
            prior[1],
            alpha_max,
            conc_every,
            alpha_trace,
            *layout,
        )
        need = tables[0].shape[1]  # only reached when a table count outgrew the columns
    seconds = {"tree_seconds": built - start, "sampling_seconds": time.perf_counter() - built}
    pbar = psum / max(1, int(recorded[0]))  # the mean of the recorded states (eq. (14))
    return HDPEstimate(tree, pbar, alpha, n, t, seconds, alpha_trace if trace else None)
