"""Weka's RandomForest on nominal attributes, as petitjean2018 ran it (§6.1: "the Weka default
parameterization, i.e. selecting log2(n)+1 attributes in each tree, no minimum leaf size and
using 100 decision trees"; §6.4: on the discretised attributes, which a Weka user holds as
nominal attributes). Weka's RandomTree splits a nominal attribute multiway, one branch per
declared value; scikit-learn's forest on the integer codes (:mod:`hierbn.forest.sklearn_codes`)
splits them in two as ordered numbers.

Re-implemented from Weka's documented behaviour and its sources, read for Weka 3.8 (the
``Waikato/weka-3.8`` mirror, ``weka/src/main/java/weka/``: ``classifiers/trees/RandomTree.java``
and ``classifiers/meta/Bagging.java`` at 068bb26, ``classifiers/trees/RandomForest.java`` at
fc81364, ``core/Utils.java`` at 101f5b9) and for Weka 3.6.14, the release Debian ships
(``javap -c`` of ``/usr/share/java/weka-3.6.14.jar``: ``RandomForest``, ``RandomTree``,
``RandomTree$Tree``, ``meta.Bagging``, ``core.ContingencyTables``, ``core.Utils``; its
``-help``). Checked against Weka 3.6.14 itself in ``tests/test_forest_weka.py``
(fixtures and the commands that made them in ``tests/fixtures/forest/weka/``).

Decisions
---------
W1. K, the attributes tried per node, defaults to ``int(log2(M)) + 1`` with M the number of
    predictors, the class not counted, computed as Weka does (``Math.log(M) / Math.log(2)``,
    truncated). 3.6.14: ``RandomForest.buildClassifier`` sets
    ``(int) Utils.log2(data.numAttributes() - 1) + 1``, and ``-help`` reads
    "<1=int(log_2(#predictors)+1)"; 3.8: ``RandomForest`` extends ``Bagging`` and leaves K to
    ``RandomTree.buildClassifier``, the same expression, "(<1 = int(log_2(#predictors)+1))".
    (An older development ``RandomTree``, ``bnjmn/weka`` at 00f5860, used ``numAttributes()``,
    the class counted, for a stand-alone tree only.) A K above M is lowered to M
    (``RandomTree.buildClassifier``); K below 1 is refused (Weka reads it as "default", our
    ``None``).
W2. Bagging: each tree grows on n draws with replacement from the n training rows (``Bagging``,
    bag size 100%), the rows' multiplicities acting as weights (3.8's RandomForest represents
    copies by weights, 3.6.14 copies the instances: the same counts, the same tree). The random
    streams are ours, not Java's (3.6.14 draws every bag and tree seed from one
    ``java.util.Random(seed)``, 3.8 one ``Random(seed + i)`` per bag): one seed gives one forest
    here at any ``threads`` (one Numba stream per tree, seeded from ``SeedSequence(seed)``), but
    not Weka's forest for that seed. ``bagging=False`` grows every tree on all rows once, as a
    stand-alone ``weka.classifiers.trees.RandomTree`` does.
W3. Candidates: at every node attributes are drawn uniformly one at a time, without
    replacement, from all M (those split on above included: constant in the node, they gain
    nothing); at least K are tried, and the draws go on past K until one gains more than 1e-6
    or all M are tried: ``while ((windowSize > 0) && (k-- > 0 || !gainFound))`` with
    ``gainFound = Utils.gr(currVal, 0)`` in ``RandomTree.Tree.buildTree`` (3.8 source; the same
    loop in 3.6.14's bytecode).
W4. Criterion: information gain in bits, ``ContingencyTables.entropyOverColumns`` minus
    ``entropyConditionedOnRows`` of the value x class table of weights, x ln x (0 at 0) summed
    in Weka's order and divided by ``total * Math.log(2)``, so a tree reproduces Weka's to the
    last bit and equal tables give equal gains. The largest gain wins; an exact tie goes to the
    lower attribute index (``(currVal == val) && (attIndex < bestIndex)``; 3.8's ``-B``
    breakTiesRandomly is off by default, 3.6.14 has no such option).
W5. Leaves: a node is a leaf when it has no rows (empty), weighs less than 2 * minNum with
    minNum = 1 (``-M 1``: a single row drawn once), is pure (``Utils.eq(max count, total)``),
    or when its best gain is not above 1e-6 (``Utils.gr(val, 0)``; ``Utils.SMALL = 1e-6`` in
    both versions), which also keeps gains of rounding noise (1e-16) from splitting. No depth
    limit (``-depth 0``).
W6. Splits: a nominal attribute splits multiway, one child per declared value (``cards[j]``),
    values no row of the node takes included; such a child is empty.
W7. Prediction: a leaf gives its class counts normalised (``Utils.normalize``). A row reaching
    an empty child gets the distribution of the node that split (its parent): the empty
    successor returns null in ``RandomTree.Tree.distributionForInstance`` and the parent, which
    kept its class counts because it has an empty successor, returns them normalised. A class
    absent from a tree's bag gets 0 from that tree, and 0 from the forest if absent from all.
W8. Forest: the trees' distributions summed in tree order and normalised
    (``Bagging.distributionForInstance``; left as is when the sum is 0, which a non-empty
    training set never gives).
W9. Missing values: there are none; the codes carry "missing" as a declared state of its own
    (:func:`hierbn.data.cv.encode_fold`). Weka's fractional instances for '?' are not
    implemented.
W10. 3.6.14 against 3.8: with nominal attributes, a nominal class and these defaults the trees
    follow the same rules (W1-W8); what differs is where K is computed, the random streams
    (W2), 3.6.14's out-of-bag error (always computed, unused by predictions) and 3.8's extra
    options (random tie breaking, numeric class, impurity importances).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from typing import Any, NamedTuple

import numpy as np

from hierbn.bn.counting import validate_codes
from hierbn.forest._weka_kernels import forest_distributions, grow_tree, xlogx_table
from hierbn.seeds import kernel_seed

PREDICT_CHUNK = 4096  # rows per prediction task when threads > 1


def weka_default_features(n_attributes: int) -> int:
    """Weka's K for ``n_attributes`` predictors: ``(int) Utils.log2(M) + 1`` (W1)."""
    return int(math.log(n_attributes) / math.log(2.0)) + 1


def nominal_arff(codes: np.ndarray, cards: Sequence[int] | np.ndarray, relation: str) -> str:
    """Codes (rows x attributes, the class last) as the ARFF a Weka user would hold: nominal
    attributes ``x0 .. x{M-1}`` and class ``y``, every declared state a value ``0 .. card-1``
    (what Weka is run on in the fixtures and the benchmark)."""
    names = [f"x{j}" for j in range(len(cards) - 1)] + ["y"]
    header = [f"@relation {relation}", ""] + [
        f"@attribute {name} {{{','.join(map(str, range(int(card))))}}}"
        for name, card in zip(names, cards, strict=True)
    ]
    rows = [",".join(map(str, row)) for row in np.asarray(codes, dtype=np.int64).tolist()]
    return "\n".join([*header, "", "@data", *rows]) + "\n"


class ForestNodes(NamedTuple):
    """Every tree's nodes, concatenated: tree t's root is ``roots[t]``; ``first_child`` indexes
    the concatenated arrays (-1 at a leaf); ``attribute`` is -1 at a leaf; ``counts`` are the
    weighted class counts, ``distribution`` the counts normalised (Weka's ``Utils.normalize``),
    both all 0 at an ``empty`` node."""

    attribute: np.ndarray
    first_child: np.ndarray
    counts: np.ndarray
    roots: np.ndarray
    distribution: np.ndarray
    empty: np.ndarray


@dataclass(eq=False)
class WekaRandomForest:
    """Weka's RandomForest (``-I trees -K features -S seed``, RandomTree ``-M 1``) on nominal
    codes; the rules are the module's decisions W1-W10. ``features`` None is Weka's default K;
    ``bagging`` False grows each tree on every row once (a stand-alone RandomTree);
    ``threads`` grows trees and predicts rows in parallel, the output the same at any value."""

    seed: int
    trees: int = 100
    features: int | None = None
    bagging: bool = True
    threads: int = 1
    nodes: ForestNodes | None = field(default=None, init=False, repr=False)
    cards: np.ndarray | None = field(default=None, init=False, repr=False)
    n_classes: int = field(default=0, init=False, repr=False)

    def __post_init__(self) -> None:
        if self.trees < 1:
            raise ValueError(f"trees must be >= 1, got {self.trees}")
        if self.features is not None and self.features < 1:
            raise ValueError(f"features must be >= 1 or None (Weka's default), got {self.features}")
        if self.threads < 1:
            raise ValueError(f"threads must be >= 1, got {self.threads}")

    def resolved_features(self, n_attributes: int) -> int:
        """K for ``n_attributes`` predictors: the given one lowered to M, or Weka's default."""
        if self.features is None:
            return weka_default_features(n_attributes)
        return min(self.features, n_attributes)

    def fit(
        self, x: np.ndarray, y: np.ndarray, cards: Sequence[int] | np.ndarray, n_classes: int
    ) -> WekaRandomForest:
        """Grow the forest on codes ``x`` (rows x attributes, 0..cards[j]-1) and classes ``y``
        (0..n_classes-1); ``cards`` are the declared states, one branch each."""
        card = np.asarray(cards, dtype=np.int64)
        x = np.asarray(x)
        if x.ndim != 2 or x.shape[0] == 0 or x.shape[1] == 0 or x.shape[1] != card.size:
            raise ValueError(
                f"x must be rows x {card.size} attributes (one per card), got shape {x.shape}"
            )
        if np.asarray(y).shape != (x.shape[0],):
            raise ValueError(
                f"y must hold one class per row of x ({x.shape[0]}), got {np.shape(y)}"
            )
        if np.any(card < 1) or n_classes < 1:
            raise ValueError(f"cards and n_classes must be >= 1, got {card.tolist()}, {n_classes}")
        xt = np.ascontiguousarray(validate_codes(x, card, "x").T)
        labels = validate_codes(np.reshape(y, (-1, 1)), np.array([n_classes]), "y")[:, 0].copy()
        k = self.resolved_features(card.size)
        seeds = [kernel_seed(s) for s in np.random.SeedSequence(self.seed).spawn(self.trees)]
        xlogx = xlogx_table(labels.size)

        def grow(tree_seed: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
            return grow_tree(xt, labels, card, n_classes, k, self.bagging, tree_seed, xlogx)

        grown = self._map(grow, seeds)
        self.nodes = _concatenate(grown)
        self.cards, self.n_classes = card, n_classes
        return self

    def predict_proba(self, x: np.ndarray) -> np.ndarray:
        """Class probabilities (rows x n_classes) of codes ``x`` (W7, W8)."""
        if self.nodes is None or self.cards is None:
            raise ValueError("the forest is not fitted: call fit first")
        x = np.asarray(x)
        if x.ndim != 2 or x.shape[1] != self.cards.size:
            raise ValueError(f"x must be rows x {self.cards.size} attributes, got shape {x.shape}")
        codes = validate_codes(x, self.cards, "x")
        nodes = self.nodes
        n = codes.shape[0]
        out = np.zeros((n, self.n_classes))
        chunk = PREDICT_CHUNK if self.threads > 1 else max(n, 1)

        def predict(start: int) -> None:
            stop = min(start + chunk, n)
            forest_distributions(
                codes, nodes.attribute, nodes.first_child, nodes.empty, nodes.distribution,
                nodes.roots, out, start, stop,
            )  # fmt: skip

        self._map(predict, range(0, n, chunk))
        return out

    def _map(self, func: Callable[[Any], Any], items: Iterable[Any]) -> list[Any]:
        """``func`` over ``items`` in order, on ``threads`` threads (the kernels release the GIL)."""
        if self.threads == 1:
            return [func(item) for item in items]
        with ThreadPoolExecutor(max_workers=self.threads) as pool:
            return list(pool.map(func, items))


def _concatenate(grown: list[tuple[np.ndarray, np.ndarray, np.ndarray]]) -> ForestNodes:
    """One node table for all trees, children re-indexed into it."""
    sizes = np.array([attribute.size for attribute, _, _ in grown])
    roots = np.concatenate([[0], np.cumsum(sizes)[:-1]]).astype(np.int64)
    first = np.concatenate(
        [np.where(f >= 0, f + root, -1) for (_, f, _), root in zip(grown, roots, strict=True)]
    )
    counts = np.concatenate([c for _, _, c in grown])
    totals = counts.sum(axis=1, keepdims=True)
    distribution = np.divide(counts, totals, out=np.zeros(counts.shape), where=totals > 0)
    return ForestNodes(
        attribute=np.concatenate([a for a, _, _ in grown]),
        first_child=first,
        counts=counts,
        roots=roots,
        distribution=distribution,
        empty=totals[:, 0] == 0,
    )
