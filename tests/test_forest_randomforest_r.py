"""R randomForest on factors (hierbn.forest.randomforest_r) against R itself and the source's
split rules. The fixtures were made with Debian's R and r-cran-randomforest 4.7-1.1 by
``tests/fixtures/forest/randomforest_r/make_fixtures.sh``; R is not needed here."""

from __future__ import annotations

import math
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from hierbn.forest import RRandomForest
from hierbn.forest import _randomforest_r_kernels as kernels
from hierbn.metrics import rmse_multiclass, zero_one_loss

FIXTURES = Path(__file__).parent / "fixtures" / "forest" / "randomforest_r"
LEVELS = pd.read_csv(FIXTURES / "levels.csv")
SEEDS = range(1, 6)  # five forests of ours per data set, as R's five
SIGMAS = 3.0  # 12 comparisons (4 data sets x 3 statistics): 3 SE keeps a family-wise 5 %
FLOOR = {"rmse": 5e-4, "nodes": 0.5}  # error's floor is one test row


def _split(name: str) -> tuple[np.ndarray, ...]:
    train = pd.read_csv(FIXTURES / f"{name}_train.csv").to_numpy()
    test = pd.read_csv(FIXTURES / f"{name}_test.csv").to_numpy()
    cards = LEVELS.loc[LEVELS.dataset == name, "levels"].to_numpy()
    return train[:, :-1], train[:, -1], test[:, :-1], test[:, -1], cards


@pytest.mark.parametrize("name", ["adult", "vowel", "lymph", "toy"])
def test_forests_match_r_within_the_seed_spread(name: str) -> None:
    """Default forests (500 trees): test-set RMSE of the probabilities, error of their argmax
    and mean tree size agree with R's over five seeds each: |mean_ours - mean_R| <= 3 SE of
    the difference of two means of 5 (+ a floor for a spread that 5 seeds can understate).
    adult has two classes and factors of 14, 16 and 41 levels (catmaxb); vowel 11 classes
    and a 15-level factor (random subsets); lymph four classes, at most 8 levels; toy three
    classes and a 12-level factor on 120 rows (levels absent from many nodes)."""
    x, y, x_test, y_test, cards = _split(name)
    rows = []
    for seed in SEEDS:
        forest = RRandomForest(seed=seed).fit(x, y, cards[:-1], cards[-1])
        proba = forest.predict_proba(x_test)
        nodes = forest.forest_.var.size / forest.trees
        rows.append((rmse_multiclass(y_test, proba), zero_one_loss(y_test, proba), nodes))
    ours = pd.DataFrame(rows, columns=["rmse", "error", "nodes"])
    r = pd.read_csv(FIXTURES / "r_forests.csv").query("dataset == @name")
    floor = FLOOR | {"error": 1.0 / y_test.size}
    for stat in ("rmse", "error", "nodes"):
        se = math.sqrt(ours[stat].var() / len(ours) + r[stat].var() / len(r))
        gap = abs(ours[stat].mean() - r[stat].mean())
        assert gap <= SIGMAS * se + floor[stat], (stat, ours[stat].mean(), r[stat].mean(), se)


@pytest.mark.parametrize("case", ["exact", "exact2"])
def test_one_tree_without_randomness_is_rs_tree(case: str) -> None:
    """ntree = 1, every row once, mtry = p, no ties (R's tree the same for 30 seeds): the same
    nodes, split variables, left-level codes and leaf classes as getTree, and the same
    probabilities on every level combination (unseen ones included). "exact": exhaustive
    subsets of 3, 4 and 6 levels, three classes; "exact2": catmaxb on 14 levels."""
    train = pd.read_csv(FIXTURES / f"{case}_train.csv")
    names = list(train.columns[:-1])
    grid = pd.read_csv(FIXTURES / f"{case}_grid.csv")[names]
    cards = grid.max().to_numpy() + 1  # the grid holds every level of every factor
    forest = RRandomForest(seed=7, trees=1, replace=False, mtry=len(names))
    forest.fit(train[names].to_numpy(), train.y.to_numpy(), cards, int(train.y.max()) + 1)
    ours = forest.get_tree(1)
    r = pd.read_csv(FIXTURES / f"{case}_tree.csv", index_col=0)
    assert len(ours) == len(r)
    np.testing.assert_array_equal(ours["left daughter"], r["left daughter"])
    np.testing.assert_array_equal(ours["status"], r["status"])
    split = ours["status"] == 1
    assert list(np.array(names)[ours["split var"][split] - 1]) == list(r["split var"][split])
    np.testing.assert_array_equal(ours["split point"], r["split point"].astype(np.uint64))
    np.testing.assert_array_equal(ours["prediction"][~split] - 1, r["prediction"][~split])
    expected = pd.read_csv(FIXTURES / f"{case}_proba.csv").to_numpy()
    np.testing.assert_array_equal(forest.predict_proba(grid.to_numpy()), expected)


def test_leaf_ties_are_broken_as_rs() -> None:
    """Leaves that cannot split with one case of each of two (three) classes: R's vote shares
    (2/3, 1/3; 1/2, 1/4, 1/4 from buildtree's rule) and ours, 6,000 trees each, within 3
    binomial SE of their difference."""
    r = pd.read_csv(FIXTURES / "tie_proba.csv", dtype={"design": str})
    for design, group in r.groupby("design"):
        a = np.array([int(c) for c in design])
        forest = RRandomForest(seed=11, trees=6000, replace=False, mtry=1)
        forest.fit(a[:, None], np.array([0, 1, 2, 2]), [2], 3)
        ours = forest.predict_proba(np.array([[0]]))[0]
        share = group.share.to_numpy()
        se = np.sqrt(2 * share * (1 - share) / 6000)
        assert (np.abs(ours - share) <= 3 * se + 1e-12).all(), (design, ours, share)


def _brute_force(tcc: np.ndarray) -> tuple[float, int]:
    """catmax's loop: every code 1 .. 2^(L-1) - 1, the first strictly best."""
    n_levels = tcc.shape[0]
    total = tcc.sum(axis=0)
    best, best_code = kernels.NO_SPLIT, 0
    for code in range(1, 2 ** (n_levels - 1)):
        left = tcc[(code >> np.arange(n_levels)) & 1 == 1].sum(axis=0)
        crit = kernels.gini_crit(left, total, total.sum())
        if crit > best:
            best, best_code = crit, code
    return best, best_code


def _present(tcc: np.ndarray) -> tuple[np.ndarray, int]:
    present = np.flatnonzero(tcc.sum(axis=1) > 0)
    return np.pad(present, (0, kernels.MAX_LEVELS - present.size)), present.size


COUNTS = st.integers(2, 10).flatmap(
    lambda levels: st.integers(2, 4).flatmap(
        lambda classes: st.lists(
            st.lists(st.integers(0, 4), min_size=classes, max_size=classes),
            min_size=levels,
            max_size=levels,
        )
    )
)


@settings(max_examples=150, deadline=None)
@given(COUNTS)
def test_subset_split_is_the_gini_best_of_all_subsets(counts) -> None:
    """L <= 10: the split is catmax's over all 2^(L-1) - 1 codes (the best crit, the smallest
    code of equals): the same mask and crit to the bit on integer weights."""
    tcc = np.array(counts, dtype=float)
    present, m = _present(tcc)
    assume(m >= 2)
    total = tcc.sum(axis=0)
    n_classes = total.size
    crit, mask = kernels.exhaustive_split(
        np.pad(tcc, ((0, kernels.MAX_LEVELS - tcc.shape[0]), (0, 0))), present, m,
        tcc.shape[0], total, total.sum(), kernels.NO_SPLIT,
        np.zeros((kernels.MAX_LEVELS + 1, n_classes)),
        np.zeros(kernels.MAX_LEVELS + 1, dtype=np.uint64),
        np.zeros(kernels.MAX_LEVELS + 1, dtype=np.int64),
    )  # fmt: skip
    best, code = _brute_force(tcc)
    assert (crit, int(mask)) == (best, code)


@settings(max_examples=100, deadline=None)
@given(st.lists(st.tuples(st.integers(0, 5), st.integers(0, 5)), min_size=11, max_size=13))
def test_two_class_sorting_finds_the_best_subset(counts) -> None:
    """catmaxb (two classes, L > 10): the best cut of the levels sorted by class share is the
    best of all subsets (Breiman et al. 1984, Thm 4.5), and absent levels go left."""
    tcc = np.array(counts, dtype=float)
    present, m = _present(tcc)
    total = tcc.sum(axis=0)
    assume(m >= 2 and (total > 0).all())
    padded = np.pad(tcc, ((0, kernels.MAX_LEVELS - tcc.shape[0]), (0, 0)))
    work = tuple(np.zeros(kernels.MAX_LEVELS, dtype=d) for d in (float, float, np.int64))
    crit, mask = kernels.sorted_split(
        padded, present, m, tcc.shape[0], total, total.sum(), kernels.NO_SPLIT, work,
        np.zeros(2), np.zeros(2),
    )  # fmt: skip
    best, _ = _brute_force(tcc)
    assert crit == best
    if best > kernels.NO_SPLIT:
        absent = np.flatnonzero(tcc.sum(axis=1) == 0)
        assert all(int(mask) >> int(level) & 1 for level in absent)


def _node_rows(tree: pd.DataFrame, x: np.ndarray) -> list[list[int]]:
    """The rows of ``x`` reaching every node of a getTree-like table."""
    left, var, point, status = (tree[c].to_numpy() for c in tree.columns[[0, 2, 3, 4]])
    reach: list[list[int]] = [[] for _ in range(len(tree))]
    for row, codes in enumerate(x):
        node = 0
        while True:
            reach[node].append(row)
            if status[node] == -1:
                break
            bit = (int(point[node]) >> int(codes[var[node] - 1])) & 1
            node = left[node] - 1 if bit else left[node]
    return reach


DATA = st.integers(2, 4).flatmap(
    lambda p: st.tuples(
        st.lists(st.integers(2, 6), min_size=p, max_size=p),
        st.lists(
            st.tuples(st.lists(st.integers(0, 5), min_size=p, max_size=p), st.integers(0, 2)),
            min_size=4,
            max_size=30,
        ),
        st.integers(0, 2**31 - 1),
    )
)


@settings(max_examples=40, deadline=None)
@given(DATA)
def test_pure_nodes_are_leaves_and_leaves_cannot_split(data) -> None:
    """One tree on all rows, mtry = p, nodesize = 1: no split node holds a pure set of rows,
    and every leaf holds a pure set or rows that no variable separates (D7, D12)."""
    cards, rows, seed = data
    x = np.array([[c % k for c, k in zip(r, cards, strict=True)] for r, _ in rows])
    y = np.array([label for _, label in rows])
    assume(np.unique(y).size >= 2 and (x != x[:1]).any())
    forest = RRandomForest(seed=seed, trees=1, replace=False, mtry=len(cards))
    tree = forest.fit(x, y, cards, 3).get_tree(1)
    for node, reached in enumerate(_node_rows(tree, x), start=1):
        pure = np.unique(y[reached]).size == 1
        if tree.loc[node, "status"] == 1:
            assert node == 1 or not pure
        else:
            assert pure or (x[reached] == x[reached][:1]).all()


@settings(max_examples=25, deadline=None)
@given(DATA, st.integers(1, 9))
def test_probabilities_are_vote_shares(data, trees) -> None:
    """predict_proba is the share of trees voting for each class: multiples of 1/trees that
    sum to 1, 0 for a class absent from training (D15, D5)."""
    cards, rows, seed = data
    x = np.array([[c % k for c, k in zip(r, cards, strict=True)] for r, _ in rows])
    y = np.array([label for _, label in rows])
    assume(np.unique(y).size >= 2 and (x != x[:1]).any())
    proba = RRandomForest(seed=seed, trees=trees).fit(x, y, cards, 4).predict_proba(x)
    votes = proba * trees
    np.testing.assert_allclose(votes, np.round(votes), atol=1e-9)
    np.testing.assert_allclose(proba.sum(axis=1), 1.0)
    assert (proba[:, 3] == 0).all()


def test_threads_do_not_change_the_forest() -> None:
    x, y, x_test, _, cards = _split("toy")
    one = RRandomForest(seed=3, trees=60, threads=1).fit(x, y, cards[:-1], cards[-1])
    two = RRandomForest(seed=3, trees=60, threads=2).fit(x, y, cards[:-1], cards[-1])
    np.testing.assert_array_equal(one.predict_proba(x_test), two.predict_proba(x_test))
    other = RRandomForest(seed=4, trees=60).fit(x, y, cards[:-1], cards[-1])
    assert not np.array_equal(one.predict_proba(x_test), other.predict_proba(x_test))


@pytest.mark.parametrize(
    ("x", "y", "cards", "message"),
    [
        ([[0], [1]], [1, 1], [2], "two classes"),
        ([[0], [2]], [0, 1], [2], r"x\[1, 0\] = 2"),  # the row and column named
        ([[0], [1]], [0, 1], [54], "53 levels"),
        ([[1], [1]], [0, 1], [2], "no predictor"),
        ([[0], [1]], [0, 3], [2], "classes in 0..2"),
    ],
)
def test_bad_input_is_refused(x, y, cards, message) -> None:
    with pytest.raises(ValueError, match=message):
        RRandomForest(seed=0, trees=2).fit(np.array(x), np.array(y), cards, 3)
