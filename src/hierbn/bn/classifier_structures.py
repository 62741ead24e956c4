"""The BN classifier structures of petitjean2018 §3 by name: naive Bayes, TAN, kDB-k and
selective kDB, learned on training codes whose last column is the class, and the encoded fold
that learns each structure once for every estimator fitted on it."""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from hierbn.bn.skdb import select_skdb
from hierbn.bn.structures import BNStructure, kdb, naive_bayes, tan

STRUCTURES = ("nb", "tan", "kdb1", "kdb2", "kdb3", "kdb4", "kdb5", "skdb")


def build_structure(
    name: str, codes: np.ndarray, names: list[str], cards: list[int]
) -> tuple[BNStructure, tuple[int, ...]]:
    """One of :data:`STRUCTURES` learned on training codes; returns it and the kept features
    (SkDB drops attributes; the others keep all)."""
    k = len(names) - 1
    if name == "nb":
        structure = naive_bayes(names, cards, k)
    elif name == "tan":
        structure = tan(codes, names, cards, k, spanning="prim")
    elif name.startswith("kdb") and name[3:].isdigit():
        structure = kdb(codes, names, cards, k, int(name[3:]))
    elif name == "skdb":
        selection = select_skdb(codes, names, cards, k)
        return selection.structure, selection.kept
    else:
        raise ValueError(f"unknown structure {name!r}; expected one of {STRUCTURES}")
    return structure, tuple(i for i in range(len(names)) if i != k)


@dataclass
class FoldData:
    """Encoded training/test codes of one split (:func:`hierbn.data.cv.encode_fold`), with each
    structure learned once on the training codes and shared by every estimator."""

    train: np.ndarray
    test: np.ndarray
    names: list[str]
    cards: list[int]
    structures: dict[str, tuple[BNStructure, tuple[int, ...]]] = field(default_factory=dict)

    def structure(self, name: str) -> tuple[BNStructure, tuple[int, ...]]:
        if name not in self.structures:
            self.structures[name] = build_structure(name, self.train, self.names, self.cards)
        return self.structures[name]
