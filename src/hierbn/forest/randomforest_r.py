"""R ``randomForest`` (4.7-1.1, Debian's r-cran-randomforest) classification on factor
predictors, as azzimonti2019 Section 5.1 ran it with "the default settings of the randomForest
package": 500 trees on bootstrap samples, floor(sqrt(p)) candidate variables per node, leaves
of one case, each factor split by a subset of its levels; class probabilities are the shares
of the trees' votes, as ``predict(rf, newdata, type = "prob")`` returns them.

Re-implemented from randomForest's sources (``src/rfsub.f``: buildtree, findbestsplit,
movedata; ``src/classTree.c``: catmax, catmaxb, predictClassTree; ``src/rf.c``: classRF,
classForest; ``src/rfutils.c``: normClassWt, sampleWithReplacement; ``R/randomForest.default.R``
and ``R/predict.randomForest.R``), read in the GitHub mirror ``cran/randomForest`` and, for the
Fortran compiled into 4.7-1.1, checked in the installed library's machine code (the 53-level
tables, ncmax = 10 and ncsplit = 512 in findbestsplit, the leaf tie rule in buildtree) and
against R itself (``tests/fixtures/forest/randomforest_r/``). The kernels are in
:mod:`hierbn.forest._randomforest_r_kernels`.

Decisions
---------
D1. Predictors are unordered factors with all their declared levels: code ``l`` of column
    ``j`` is R's level ``l + 1`` and ``cards[j]`` is ``nlevels`` (not the number of levels seen:
    it picks the search of D8-D10). At most 53 levels (randomForest.default.R: "Can not handle
    categorical predictors with more than 53 categories"). R would split an ordered factor as
    numbers; the studies' data are unordered. A one-level factor never splits.
D2. The bag (classRF, rf.c; sampleWithReplacement, rfutils.c): n draws ``(int)(unif_rand() *
    n)`` with replacement; a case drawn k times is one case of weight k w_c. Without replacement
    (R's ``replace = FALSE, sampsize = n``) every case is in once. The class weight is
    w_c = ((f_c / n) n) / f_c (normClassWt, rfutils.c, with ``classwt = NULL``): 1 up to one
    rounding, kept as R computes it, and added draw by draw, so weights tie where R's tie.
    Sums over a node run over its cases in R's order (by case number at the root, a split
    node's left cases first: movedata), so they round as R's do.
D3. A bag with fewer than two classes is redrawn, at most 31 draws (classRF: ``while (nclass -
    nEmpty < 2 && ntry <= 30)``), then R's error ("Still have fewer than two classes in the
    in-bag sample after 30 attempts") as a ValueError.
D4. A tree that is its root alone (no sampled variable splits the root) is discarded and
    regrown from a new bag (classRF: ``} while (ndbigtree[jb] == 1)``). R repeats without
    bound; we raise after 1,000 bags, and refuse data where no predictor varies (R would hang).
D5. Classes: R stops on a class without training cases ("Can't have empty classes in y") and
    on fewer than two classes (randomForest.default.R). We drop empty classes, as a caller's
    ``droplevels`` would, and give them probability 0; fewer than two is a ValueError.
D6. At each node ``mtry`` variables are drawn without replacement, ``j = (int)(nn * u)`` from
    the ``nn`` not yet drawn (findbestsplit, rfsub.f; the list reset at every node). Default
    floor(sqrt(p)) for classification (randomForest.default.R); 1 <= mtry <= p.
D7. A drawn variable with fewer than two levels present in the node offers no split (nnz <= 1
    in findbestsplit). If none of the ``mtry`` offers one, the node is a leaf: no other
    variable is tried (findbestsplit's jstat = -1). Otherwise the best split is made even when
    it lowers the Gini index by nothing (the running best starts at -1e25; no minimum).
D8. A split with left/right class weights l, r scores sum(l^2)/sum(l) + sum(r^2)/sum(r), the
    largest best (catmax, classTree.c; the Gini decrease up to the node's constant
    pno/pdo of findbestsplit); a left side of weight <= 1e-8 or a right side <= 1e-5 is none.
    With L <= 10 declared levels (ncmax = 10) catmax tries every code 1 .. 2^(L-1) - 1 (bit k:
    level k + 1 goes left) and keeps the first strictly better one, so of equal splits the
    smallest code wins: the last declared level never goes left and levels absent from the
    node go right (a code with them left scores the same and comes later). When the last
    declared level is absent from the node, a split and its mirror image are both codes; their
    scores are equal on unit weights (the highest present level then goes right) and differ
    by rounding on R's class weights of D2, the larger winning, as here: we try the same
    codes but those with absent levels left, summing in catmax's level order.
D9. L > 10 and more than two classes: 512 (ncsplit) random subsets of all L levels, each level
    left with probability 1/2 (catmax: one ``unif_rand() > 0.5`` per level; here the top L
    bits of one uniform), the first best kept. Absent levels go left or right at random.
D10. L > 10 and two classes (catmaxb, classTree.c): levels sorted by their share of the first
    class (a level absent from the node has share 0), cuts only between two different shares,
    scored as D8, the first best kept; the levels whose share is below the cut's midpoint go
    left, absent levels among them. (R's quicksort of equal shares is a stable sort here:
    equal shares never straddle a cut, so only the rounding of running sums could differ.)
D11. Across the drawn variables a split must beat the best so far strictly (catmax and catmaxb
    update findbestsplit's running critmax with ``>``): of equal splits the one of the variable
    drawn first wins.
D12. A new child is a leaf when it holds at most ``nodesize`` distinct in-bag cases (nodepop
    counts cases, not their bag weights) or one class holds all its weight (buildtree); a
    node is also a leaf by D7. The root is always searched. No cap on nodes: R's nrnodes =
    2 sampsize + 1 (randomForest.default.R) exceeds any tree of a bag.
D13. A leaf's class is its heaviest class. Ties (buildtree, as compiled in 4.7-1.1): classes
    are scanned in order, a new maximum sets ntie = 1, and every class equal to the maximum,
    the new maximum itself included, adds one to ntie and takes the leaf with probability
    1/ntie; so of k tied classes the first wins with probability 2/(k+1), each other 1/(k+1).
D14. A case goes left when its level's bit is set in the node's mask (predictClassTree): a
    level never seen at the node goes where D8-D10 sent absent levels (right; left; at random).
D15. Probabilities are vote shares (classForest, rf.c: one vote per tree for its leaf's class;
    predict.randomForest forces norm.votes = TRUE for type = "prob" and divides by the row's
    votes, i.e. by ntree): multiples of 1/trees, not averaged leaf class distributions.
D16. R's random stream is not reproduced: tree t draws from Numba's generator seeded with the
    t-th child of ``SeedSequence(seed)``, whatever the threads. Forests agree with R's in
    distribution; with no randomness left (one tree, no bag, mtry = p, no ties) the tree is R's.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field

import numba
import numpy as np
import pandas as pd

from hierbn.bn.counting import validate_codes
from hierbn.forest import _randomforest_r_kernels as kernels
from hierbn.seeds import kernel_seed

NODE_BUDGET = 4_000_000  # nodes of the per-chunk tree arrays (~80 MB); sets the chunk of trees


@dataclass(frozen=True)
class Forest:
    """Fitted trees, node arrays concatenated: split variable (-1 at a leaf), mask of the levels
    going left, absolute index of the left child (the right child is the next node), class at
    a leaf (-1 inside); ``roots[t]`` is tree t's first node."""

    var: np.ndarray
    mask: np.ndarray
    left: np.ndarray
    cls: np.ndarray
    roots: np.ndarray


@dataclass(kw_only=True)
class RRandomForest:
    """R ``randomForest(x, y)`` on factors (decisions D1-D16 of this module).

    ``mtry`` None is floor(sqrt(p)); ``replace`` False takes every row once (R's
    ``replace = FALSE, sampsize = nrow(x)``); ``threads`` grow trees and predict rows in
    parallel without changing either."""

    seed: int
    trees: int = 500
    mtry: int | None = None
    nodesize: int = 1
    replace: bool = True
    threads: int = 1
    forest_: Forest | None = field(default=None, init=False, repr=False)
    cards_: np.ndarray | None = field(default=None, init=False, repr=False)
    n_classes_: int = field(default=0, init=False, repr=False)

    def fit(
        self, x: np.ndarray, y: np.ndarray, cards: Sequence[int] | np.ndarray, n_classes: int
    ) -> RRandomForest:
        """Grow the forest on codes ``x`` (rows x p, column j in 0..cards[j]-1) and classes
        ``y`` (0..n_classes-1)."""
        x, cards = _checked_codes(x, cards)
        y = np.asarray(y)
        if y.shape != (x.shape[0],) or (y.size and (y.min() < 0 or y.max() >= n_classes)):
            raise ValueError(f"y must hold {x.shape[0]} classes in 0..{n_classes - 1}")
        present, cl = np.unique(y, return_inverse=True)
        if present.size < 2:
            raise ValueError("need at least two classes in y to do classification (D5)")
        if not (x != x[:1]).any():
            raise ValueError("no predictor takes two values: R would grow root-only trees forever")
        mtry = int(np.floor(np.sqrt(cards.size))) if self.mtry is None else self.mtry
        if not 1 <= mtry <= cards.size or self.trees < 1 or self.nodesize < 1:
            raise ValueError(f"need 1 <= mtry <= {cards.size} (D6), trees >= 1, nodesize >= 1")
        freq = np.bincount(cl).astype(float)
        classwt = freq / cl.size * cl.size / freq  # normClassWt's arithmetic (D2)
        xt = np.ascontiguousarray(x.T, dtype=np.uint8)
        self.forest_ = self._grow(xt, cl, cards, classwt, mtry, present)
        self.cards_, self.n_classes_ = cards, int(n_classes)
        return self

    def _grow(
        self, xt: np.ndarray, cl: np.ndarray, cards: np.ndarray, classwt: np.ndarray,
        mtry: int, present: np.ndarray,
    ) -> Forest:  # fmt: skip
        """All trees, grown ``chunk`` at a time into fixed-size arrays, then packed."""
        seeds = np.array(
            [kernel_seed(s) for s in np.random.SeedSequence(self.seed).spawn(self.trees)]
        )
        max_nodes = 2 * cl.size - 1
        chunk = int(np.clip(NODE_BUDGET // max_nodes, max(self.threads, 1), self.trees))
        parts = []
        with _numba_threads(self.threads):
            for first in range(0, self.trees, chunk):
                batch = seeds[first : first + chunk]
                arrays = _node_arrays(batch.size, max_nodes)
                sizes, status = kernels.grow_trees(
                    xt, cl.astype(np.int64), cards, classwt, mtry, self.nodesize,
                    self.replace, batch, *arrays,
                )  # fmt: skip
                _raise_on_status(status)
                parts.append((arrays, sizes))
        return _packed(parts, present)

    def predict_proba(self, x: np.ndarray) -> np.ndarray:
        """Vote shares (rows x n_classes; D15), 0 for classes without training cases."""
        f = self._fitted()
        x, _ = _checked_codes(x, self.cards_)
        with _numba_threads(self.threads):
            votes = kernels.forest_votes(x, f.var, f.mask, f.left, f.cls, f.roots, self.n_classes_)
        return votes / f.roots.size

    def get_tree(self, k: int) -> pd.DataFrame:
        """Tree ``k`` (1-based) as R's ``getTree(rf, k)``: left/right daughter (1-based, 0 at a
        leaf), split var (1-based, 0 at a leaf), split point (the left levels' code, bit l for
        level l + 1), status (1 split, -1 leaf), prediction (class + 1 at a leaf, else 0)."""
        f = self._fitted()
        start = f.roots[k - 1]
        end = f.roots[k] if k < f.roots.size else f.var.size
        var, left = f.var[start:end], f.left[start:end]
        leaf = var < 0
        return pd.DataFrame(
            {
                "left daughter": np.where(leaf, 0, left - start + 1),
                "right daughter": np.where(leaf, 0, left - start + 2),
                "split var": np.where(leaf, 0, var + 1),
                "split point": np.where(leaf, 0, f.mask[start:end]).astype(np.uint64),
                "status": np.where(leaf, -1, 1),
                "prediction": np.where(leaf, f.cls[start:end] + 1, 0),
            },
            index=pd.RangeIndex(1, end - start + 1),
        )

    def _fitted(self) -> Forest:
        if self.forest_ is None:
            raise ValueError("RRandomForest used before fit")
        return self.forest_


@contextmanager
def _numba_threads(threads: int) -> Iterator[None]:
    """Numba's threads set to ``threads`` (at most its pool) for the block, then restored."""
    before = numba.get_num_threads()
    numba.set_num_threads(max(1, min(threads, numba.config.NUMBA_NUM_THREADS)))
    try:
        yield
    finally:
        numba.set_num_threads(before)


def _checked_codes(
    x: np.ndarray, cards: Sequence[int] | np.ndarray
) -> tuple[np.ndarray, np.ndarray]:
    """``x`` as new uint8 codes and ``cards`` as new int64 (writable arrays: one Numba
    specialisation), or a ValueError naming the row and column (:func:`validate_codes`)."""
    x = np.asarray(x)
    cards = np.array(cards, dtype=np.int64)
    if x.ndim != 2 or x.shape[1] != cards.size:
        raise ValueError(f"x must be rows x {cards.size} codes, got shape {x.shape}")
    if cards.size and (cards.min() < 1 or cards.max() > kernels.MAX_LEVELS):
        raise ValueError(f"every factor needs 1 to {kernels.MAX_LEVELS} levels (D1): {cards}")
    return validate_codes(x, cards, "x").astype(np.uint8), cards  # names the row and column


def _node_arrays(n_trees: int, max_nodes: int) -> tuple[np.ndarray, ...]:
    """Empty (var, mask, left, cls) arrays for ``n_trees`` trees of at most ``max_nodes``."""
    shape = (n_trees, max_nodes)
    return (
        np.empty(shape, dtype=np.int32),
        np.empty(shape, dtype=np.uint64),
        np.empty(shape, dtype=np.int32),
        np.empty(shape, dtype=np.int32),
    )


def _raise_on_status(status: np.ndarray) -> None:
    """R's errors for a tree that could not be grown (D3, D4)."""
    if (status == kernels.BAG_FAILED).any():
        raise ValueError(
            "Still have fewer than two classes in the in-bag sample after 30 attempts (D3)"
        )
    if (status == kernels.ROOT_ONLY).any():
        raise RuntimeError(f"{kernels.ROOT_ATTEMPTS} bags in a row grew a root-only tree (D4)")


def _packed(parts: list[tuple[tuple[np.ndarray, ...], np.ndarray]], present: np.ndarray) -> Forest:
    """The chunks' trees trimmed to their sizes and concatenated; left children made absolute
    and leaf classes mapped back to the caller's class codes."""
    var, mask, left, cls, roots = [], [], [], [], []
    offset = 0
    for (t_var, t_mask, t_left, t_cls), sizes in parts:
        for t, size in enumerate(sizes):
            roots.append(offset)
            var.append(t_var[t, :size])
            mask.append(t_mask[t, :size])
            left.append(np.where(t_left[t, :size] >= 0, t_left[t, :size] + offset, -1))
            cls.append(np.where(t_cls[t, :size] >= 0, present[t_cls[t, :size]], -1))
            offset += size
    return Forest(
        np.concatenate(var), np.concatenate(mask), np.concatenate(left).astype(np.int32),
        np.concatenate(cls).astype(np.int32), np.array(roots, dtype=np.int64),
    )  # fmt: skip
