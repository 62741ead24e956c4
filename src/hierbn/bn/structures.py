"""Bayesian-network structures as plain parent lists (naive Bayes, TAN, kDB).

A :class:`BNStructure` is shared by the classifier and by every later study; it records
the variable names, cardinalities, the ordered parent tuple of each node and the class node.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from hierbn.bn.counting import conditional_mutual_information, mutual_information_with_class


@dataclass(frozen=True)
class BNStructure:
    """A DAG over discrete variables given by parent lists (parents ordered as in the CPT)."""

    names: tuple[str, ...]
    cardinalities: tuple[int, ...]
    parents: tuple[tuple[int, ...], ...]
    class_index: int | None = None

    def __post_init__(self) -> None:
        n = len(self.names)
        if len(self.cardinalities) != n or len(self.parents) != n:
            raise ValueError("names, cardinalities and parents must have one entry per node")
        for i, pa in enumerate(self.parents):
            if i in pa or any(not 0 <= p < n for p in pa) or len(set(pa)) != len(pa):
                raise ValueError(f"node {self.names[i]!r} has invalid parents {pa}")
        self.topological_order()

    @property
    def n_nodes(self) -> int:
        return len(self.names)

    def parent_cardinality(self, node: int) -> int:
        """|Y| = number of joint parent configurations of ``node``."""
        return int(np.prod([self.cardinalities[p] for p in self.parents[node]], dtype=np.int64))

    def topological_order(self) -> list[int]:
        """Nodes ordered parents-first; raises ValueError on a directed cycle."""
        remaining = {i: set(pa) for i, pa in enumerate(self.parents)}
        order: list[int] = []
        while remaining:
            ready = sorted(i for i, pa in remaining.items() if not pa)
            if not ready:
                raise ValueError(f"the structure has a directed cycle among {sorted(remaining)}")
            for i in ready:
                order.append(i)
                del remaining[i]
            for pa in remaining.values():
                pa.difference_update(ready)
        return order

    def to_dict(self) -> dict[str, Any]:
        return {
            "names": list(self.names),
            "cardinalities": list(self.cardinalities),
            "parents": [list(p) for p in self.parents],
            "class_index": self.class_index,
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> BNStructure:
        return cls(
            names=tuple(data["names"]),
            cardinalities=tuple(int(c) for c in data["cardinalities"]),
            parents=tuple(tuple(int(p) for p in pa) for pa in data["parents"]),
            class_index=data.get("class_index"),
        )


def naive_bayes(names: list[str], cards: list[int], class_index: int) -> BNStructure:
    """Naive Bayes: the class is the only parent of every feature."""
    parents = tuple(() if i == class_index else (class_index,) for i in range(len(names)))
    return BNStructure(tuple(names), tuple(int(c) for c in cards), parents, class_index)


def maximum_spanning_tree(weights: np.ndarray) -> list[tuple[int, int]]:
    """Kruskal's maximum-weight spanning tree; ties are broken by (i, j) column order."""
    n = weights.shape[0]
    edges = [(i, j) for i in range(n) for j in range(i + 1, n)]
    edges.sort(key=lambda e: -weights[e])  # stable: equal weights keep lexicographic order
    root = list(range(n))

    def find(a: int) -> int:
        while root[a] != a:
            root[a] = root[root[a]]
            a = root[a]
        return a

    tree: list[tuple[int, int]] = []
    for i, j in edges:
        ri, rj = find(i), find(j)
        if ri != rj:
            root[rj] = ri
            tree.append((i, j))
            if len(tree) == n - 1:
                break
    return tree


def prim_tree_parents(weights: np.ndarray, root: int = 0) -> list[int | None]:
    """Prim's maximum spanning tree grown from ``root``; each vertex's parent is the tree vertex
    it was attached from. Ties: the lowest-index new vertex, then the earliest attachment
    (petitjean2018 decision §1.4)."""
    n = weights.shape[0]
    parent: list[int | None] = [None] * n
    best = np.full(n, -np.inf)
    in_tree = np.zeros(n, dtype=bool)
    in_tree[root] = True
    best[:] = weights[root]
    attach = np.full(n, root)
    for _ in range(n - 1):
        candidates = np.where(in_tree, -np.inf, best)
        v = int(np.argmax(candidates))  # first maximum: the lowest index wins ties
        in_tree[v] = True
        parent[v] = int(attach[v])
        better = ~in_tree & (weights[v] > best)  # strict: earlier attachments keep ties
        best[better] = weights[v][better]
        attach[better] = v
    return parent


def orient_tree(n: int, edges: list[tuple[int, int]], root: int = 0) -> list[int | None]:
    """Parent of every vertex when the undirected tree is oriented away from ``root``."""
    adjacency: dict[int, list[int]] = {i: [] for i in range(n)}
    for i, j in edges:
        adjacency[i].append(j)
        adjacency[j].append(i)
    parent: list[int | None] = [None] * n
    seen = {root}
    frontier = [root]
    while frontier:
        nxt = []
        for u in frontier:
            for v in sorted(adjacency[u]):
                if v not in seen:
                    seen.add(v)
                    parent[v] = u
                    nxt.append(v)
        frontier = nxt
    if len(seen) != n:
        raise ValueError("the edges do not form a spanning tree")
    return parent


def tan(
    data: np.ndarray,
    names: list[str],
    cards: list[int],
    class_index: int,
    spanning: str = "kruskal",
) -> BNStructure:
    """Tree-augmented naive Bayes (Friedman et al. 1997).

    Chow–Liu maximum spanning tree on the empirical I(X_i; X_j | C), rooted at the first
    feature and oriented away from it; the class is a parent of every feature. A feature's
    parents are ordered (class, tree parent). ``spanning`` decides ties between equal weights:
    ``kruskal`` (bnlearn ``tree.bayes``, azzimonti2019 decision A9) or ``prim`` (grown from
    the first feature, petitjean2018 decision §1.4).
    """
    if spanning not in ("kruskal", "prim"):
        raise ValueError(f"unknown spanning-tree rule {spanning!r}; expected kruskal or prim")
    features = [i for i in range(len(names)) if i != class_index]
    parents: list[tuple[int, ...]] = [()] * len(names)
    if len(features) > 1:
        cmi = conditional_mutual_information(data, features, class_index, np.asarray(cards))
        if spanning == "prim":
            tree_parent = prim_tree_parents(cmi, root=0)
        else:
            tree_parent = orient_tree(len(features), maximum_spanning_tree(cmi), root=0)
    else:
        tree_parent = [None] * len(features)
    for a, i in enumerate(features):
        tp = tree_parent[a]
        parents[i] = (class_index,) if tp is None else (class_index, features[tp])
    return BNStructure(tuple(names), tuple(int(c) for c in cards), tuple(parents), class_index)


def kdb_order_and_parents(
    data: np.ndarray, names: list[str], cards: list[int], class_index: int, k: int
) -> tuple[list[int], list[tuple[int, ...]]]:
    """The kDB feature order (I(X_i; C) descending, stable) and each feature's attribute parents
    (the min(u-1, k) earlier features with the highest I(X_i; X_j | C), in descending CMI)."""
    if k < 0:
        raise ValueError(f"k must be >= 0, got {k}")
    features = [i for i in range(len(names)) if i != class_index]
    if not features:
        return [], []
    mi = mutual_information_with_class(data, features, class_index, np.asarray(cards))
    order = [features[a] for a in np.argsort(-mi, kind="stable")]
    position = {f: a for a, f in enumerate(features)}
    cmi = conditional_mutual_information(data, features, class_index, np.asarray(cards))
    parents = []
    for u, child in enumerate(order):
        earlier = order[:u]
        scores = np.asarray([cmi[position[child], position[j]] for j in earlier])
        parents.append(tuple(earlier[b] for b in np.argsort(-scores, kind="stable")[: min(u, k)]))
    return order, parents


def kdb(
    data: np.ndarray, names: list[str], cards: list[int], class_index: int, k: int
) -> BNStructure:
    """k-dependence Bayesian classifier (Sahami 1996; petitjean2018 decision §1.5).

    Features are ordered by I(X_i; C) descending (stable: ties keep column order); each feature
    takes as parents the class and the min(u-1, k) earlier features with the highest
    I(X_i; X_j | C) (no threshold; ties keep the MI order). Parents are ordered (class, then
    descending CMI), which is also the HDP tree order of the paper (§3.3).
    """
    order, attribute_parents = kdb_order_and_parents(data, names, cards, class_index, k)
    parents: list[tuple[int, ...]] = [()] * len(names)
    for child, chosen in zip(order, attribute_parents, strict=True):
        parents[child] = (class_index, *chosen)
    return BNStructure(tuple(names), tuple(int(c) for c in cards), tuple(parents), class_index)
