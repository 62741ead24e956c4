"""The three ways ``hierbn fit`` gets a structure, and the checks run before any CPT is fitted.

* a BN classifier by name (:data:`hierbn.bn.classifier_structures.STRUCTURES`: ``nb``,
  ``tan``, ``kdb1``... ``kdb5``, ``skdb``) learned on the codes with the target as class, as
  the panel learns it per fold (SkDB's left-out attributes are not part of the network);
* an edge list (``from -> to`` pairs of column names), every other column a root;
* learned on BIC by the project's hill climbing or tabu search (bnlearn's ``hc()`` and
  ``tabu()``; :mod:`hierbn.structure_learning.search`) over every column, the target
  included. A constant column is refused first: its arcs change the BIC by 0, which stalls
  tabu's search, and bnlearn refuses it too.

Every family is then checked against a limit on its parent configurations, since a fitted
network is written out as full tables and a family above the limit would take hours and
gigabytes; the error names the family.
"""

from __future__ import annotations

import math
import re
from collections.abc import Sequence
from pathlib import Path

import networkx as nx
import numpy as np

from hierbn.bn.classifier_structures import STRUCTURES, build_structure
from hierbn.bn.structures import BNStructure
from hierbn.fit.options import LEARNERS

_EDGE_SPLIT = re.compile(r"\s*(?:->|,|\t)\s*")


def read_edge_file(path: Path) -> list[tuple[str, str, str]]:
    """``(from, to, where)`` of each line of an edge-list file: ``A -> B``, ``A,B`` or
    ``A<TAB>B``; blank lines, ``#`` comments and a ``from,to`` header are skipped. A line
    that is not a pair is refused naming it."""
    edges = []
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
        text = line.split("#", 1)[0].strip()
        if not text:
            continue
        parts = [part.strip().strip('"') for part in _EDGE_SPLIT.split(text)]
        if len(parts) != 2 or not all(parts):
            raise ValueError(f"{path}, line {number}: expected 'from -> to', got {line!r}")
        if number == 1 and [p.lower() for p in parts] == ["from", "to"]:
            continue
        edges.append((parts[0], parts[1], f"{path}, line {number}"))
    return edges


def edge_parents(
    edges: Sequence[tuple[str, str, str]], columns: Sequence[str], nodes: Sequence[str]
) -> tuple[tuple[int, ...], ...]:
    """Parent tuples (in the order the arcs are listed) of the DAG given by ``edges``, whose
    ends are column names of the data (or their node names). An unknown column, a repeated
    arc, a self-loop or a directed cycle is refused naming it."""
    index = {name: i for i, name in enumerate(nodes)} | {c: i for i, c in enumerate(columns)}
    parents: list[list[int]] = [[] for _ in columns]
    graph = nx.DiGraph()
    places: dict[tuple[int, int], str] = {}
    for source, target, where in edges:
        for end in (source, target):
            if end not in index:
                raise ValueError(
                    f"{where}: {end!r} is not a column of the data; columns are {list(columns)}"
                )
        u, v = index[source], index[target]
        if u == v:
            raise ValueError(f"{where}: the arc {source} -> {target} is a self-loop")
        if u in parents[v]:
            raise ValueError(f"{where}: the arc {source} -> {target} is listed twice")
        parents[v].append(u)
        graph.add_edge(u, v)
        places[u, v] = where
    try:
        cycle = nx.find_cycle(graph)
    except nx.NetworkXNoCycle:
        return tuple(tuple(p) for p in parents)
    loop = " -> ".join([*(columns[u] for u, _ in cycle), columns[cycle[0][0]]])
    arcs = "; ".join(places[u, v] for u, v in cycle)
    raise ValueError(f"the arcs form a directed cycle {loop} (the arcs at {arcs})")


def refuse_constant_columns(codes: np.ndarray, columns: Sequence[str], where: str) -> None:
    """Refuse a column with one observed value, before a structure search (bnlearn refuses
    them; an arc from a constant node changes BIC by 0), naming the data ``where``."""
    for j, name in enumerate(columns):
        values = np.unique(codes[:, j])
        if values.size < 2:
            raise ValueError(
                f"{where}: column {name!r} has a single value in every row; structure "
                f"learning needs at least 2. Leave it out: --drop {name}"
            )


def learned_parents(
    method: str, codes: np.ndarray, columns: Sequence[str], where: str = "data"
) -> list[list[int]]:
    """The parents of each column learned by ``method`` (``hc`` or ``tabu``) on BIC."""
    from hierbn.structure_learning.search import hill_climbing, tabu_search

    if method not in LEARNERS:
        raise ValueError(f"unknown structure learner {method!r}; expected one of {LEARNERS}")
    refuse_constant_columns(codes, columns, where)
    search = hill_climbing if method == "hc" else tabu_search
    return search(codes)


def classifier_structure(
    name: str, codes: np.ndarray, nodes: list[str], cards: list[int]
) -> tuple[BNStructure, tuple[int, ...]]:
    """The BN classifier ``name`` learned on ``codes`` (class last) and the columns it keeps
    (SkDB's selection; every column otherwise), restricted to those columns."""
    if name not in STRUCTURES and not (name.startswith("kdb") and name[3:].isdigit()):
        raise ValueError(f"unknown classifier structure {name!r}; expected one of {STRUCTURES}")
    structure, kept = build_structure(name, codes, nodes, cards)
    keep = tuple(sorted({*kept, structure.class_index}))  # the table's order
    if len(keep) == structure.n_nodes:
        return structure, keep
    position = {node: i for i, node in enumerate(keep)}
    sub = BNStructure(
        tuple(nodes[i] for i in keep),
        tuple(cards[i] for i in keep),
        tuple(tuple(position[p] for p in structure.parents[i]) for i in keep),
        position[structure.class_index],
    )
    return sub, keep


# How a family can get fewer parents, by where its structure came from (for the refusal below)
FEWER_PARENTS = {
    "structure": "a classifier with fewer parents (a smaller k of kdb)",
    "edges": "fewer arcs into it in the edges",
    "learn": "a structure you give instead (--edges FILE; edges= in Python)",
}


def check_parent_configurations(structure: BNStructure, limit: int, how: str = "edges") -> None:
    """Refuse a family with more than ``limit`` parent configurations, naming it and the
    remedies for a structure chosen ``how`` (``structure``, ``edges`` or ``learn``), with
    ``hierbn fit``'s options and the Python parameters."""
    for node, parents in enumerate(structure.parents):
        size = math.prod(structure.cardinalities[p] for p in parents)
        if size > limit:
            family = ", ".join(
                f"{structure.names[p]} ({structure.cardinalities[p]} states)" for p in parents
            )
            raise ValueError(
                f"the family of {structure.names[node]!r} has {size:,} parent configurations "
                f"(parents {family}), above the limit of {limit:,}: its table would be "
                f"{size * structure.cardinalities[node]:,} numbers. Use "
                f"{FEWER_PARENTS[how]}, leave a many-valued parent out (--drop COLUMN; drop= in "
                "Python), or raise the limit (--max-parent-configurations N; "
                "max_parent_configurations= in Python)"
            )
