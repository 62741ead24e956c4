"""A network fitted by :func:`hierbn.fit.fit`: its structure and CPTs with the codings of the
data's columns, so that it classifies new rows given in the file's own terms, prints a
summary, and leaves as a pgmpy model, BIF or XMLBIF (:mod:`hierbn.fit.export`)."""

from __future__ import annotations

import math
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from hierbn.cpts import FittedNetwork
from hierbn.fit.encoding import ColumnCoding, encode_table


@dataclass(frozen=True)
class FittedModel:
    """The fitted ``network`` (node ``i`` is ``codings[i]``), how it was made (``structure``:
    a classifier name, ``edges``, ``hc`` or ``tabu``; ``estimator`` and its ``settings``), the
    ``target`` column (None for a network without a class), the columns left out (SkDB's
    selection), the seconds the CPTs took and those the structure took (made or searched,
    with its checks), and the columns left out with a single state (``one_state``)."""

    network: FittedNetwork
    codings: tuple[ColumnCoding, ...]
    structure: str
    estimator: str
    settings: dict[str, Any]
    target: str | None
    left_out: tuple[str, ...]
    seconds: float
    structure_seconds: float = 0.0
    one_state: tuple[str, ...] = ()

    @property
    def nodes(self) -> tuple[str, ...]:
        """The node names (interchange-safe column names)."""
        return tuple(c.node for c in self.codings)

    def parents(self, node: str) -> tuple[str, ...]:
        """The parents of ``node`` in CPT order."""
        index = self.nodes.index(node)
        return tuple(self.nodes[p] for p in self.network.structure.parents[index])

    def states(self, node: str) -> tuple[str, ...]:
        return self.codings[self.nodes.index(node)].states

    @property
    def classes(self) -> tuple[str, ...]:
        """The target's states, the columns of :meth:`predict_proba`."""
        if self.target is None:
            raise ValueError("the network was fitted without a target: it has no classes")
        return self.states(self.codings[self.network.structure.class_index].node)

    def table(self, node: str) -> np.ndarray:
        """``theta[p, x]`` of ``node`` over every parent configuration (last parent fastest)."""
        return self.network.table(self.nodes.index(node))

    def encode(self, frame: pd.DataFrame) -> np.ndarray:
        """``codes[row, node]`` of ``frame`` (the file's columns and values; the target may
        be absent) under the fitted codings."""
        skip = None if self.target is None else self.target
        return encode_table(self.codings, frame, "predict_proba", skip=skip)

    def predict_proba(self, frame: pd.DataFrame) -> np.ndarray:
        """P(class | the other columns) of every row of ``frame`` (rows x :attr:`classes`),
        the class posterior of the whole network (azzimonti2019 §2.4)."""
        if self.target is None:
            raise ValueError("the network was fitted without a target: it has no classes")
        return self.network.predict_proba(self.encode(frame))

    def summary(self) -> pd.DataFrame:
        """One row per node: its parents, states, parent configurations, CPT cells and the
        seconds its fit took."""
        structure = self.network.structure
        rows = []
        for i, node in enumerate(self.nodes):
            configurations = math.prod(structure.cardinalities[p] for p in structure.parents[i])
            rows.append(
                {
                    "node": node,
                    "parents": ", ".join(self.parents(node)) or "-",
                    "states": structure.cardinalities[i],
                    "parent_configurations": configurations,
                    "cpt_cells": configurations * structure.cardinalities[i],
                    "fit_seconds": self.network.cpts[i].info.seconds,
                }
            )
        return pd.DataFrame(rows)

    def to_pgmpy(self) -> Any:
        """The network as a pgmpy ``DiscreteBayesianNetwork`` whose ``TabularCPD``s keep the
        state names (needs the ``pgmpy`` extra)."""
        from hierbn.fit.export import to_pgmpy

        return to_pgmpy(self)

    def write(self, path: str | Path) -> Path:
        """Write the network as BIF (``.bif``) or XMLBIF (``.xml``, ``.xmlbif``), atomically."""
        from hierbn.fit.export import write_network

        return write_network(self, Path(path))
