"""bnlearn's decomposable node scores (dombowsky2025 spec §4.3 / decision A16): hand-computed
values, the spec's BIC-AIC check, observed-level counting, the sparse table against a dense
reference, network sums and refusal of bad input."""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from hierbn.bn.counting import family_counts, validate_codes
from hierbn.scoring.decomposable import NodeScores, network_scores, node_scores

FIELDS = ("loglik", "bic", "aic", "bde")


def _close(a: float, b: float, tol: float = 1e-9) -> bool:
    return math.isclose(a, b, rel_tol=tol, abs_tol=tol)


def _assert_same(a: NodeScores, b: NodeScores, tol: float = 1e-12) -> None:
    assert a.parameters == b.parameters
    for name in FIELDS:
        assert _close(getattr(a, name), getattr(b, name), tol), name


def test_hand_computed_binary_family() -> None:
    """6 rows, binary parent x and child y: x = 0 -> y = (0, 0, 1), x = 1 -> y = (1, 1, 1)."""
    x = np.array([0, 0, 0, 1, 1, 1])
    y = np.array([0, 0, 1, 1, 1, 1])
    scores = node_scores(y, x[:, None])

    loglik = 2 * math.log(2 / 3) + 1 * math.log(1 / 3) + 3 * math.log(3 / 3)
    d = 2 * (2 - 1)  # q = 2 parent levels, r = 2 child levels
    lg = math.lgamma
    # iss = 1: alpha_ij = 1/2, alpha_ijk = 1/4
    bde = (lg(0.5) - lg(0.5 + 3) + lg(0.25 + 2) - lg(0.25) + lg(0.25 + 1) - lg(0.25)) + (
        lg(0.5) - lg(0.5 + 3) + lg(0.25 + 3) - lg(0.25)
    )
    assert scores.parameters == d
    assert _close(scores.loglik, loglik)
    assert _close(scores.bic, loglik - (d / 2) * math.log(6))
    assert _close(scores.aic, loglik - d)
    assert _close(scores.bde, bde)
    assert scores.loglik == pytest.approx(-1.9095425048844386, abs=1e-12)

    # iss = 4: alpha_ij = 2, alpha_ijk = 1
    bde4 = (lg(2) - lg(5) + lg(3) - lg(1) + lg(2) - lg(1)) + (lg(2) - lg(5) + lg(4) - lg(1))
    assert _close(node_scores(y, x[:, None], iss=4.0).bde, bde4)


def _worked_data(tail: list[tuple[int, int, int]]) -> np.ndarray:
    """50 rows: five that show every level of x1 (5), x2 (3) and x3 (2), then ``tail``."""
    head = [(i, i % 3, i % 2) for i in range(5)]
    return np.array(head + tail, dtype=np.int64)


@settings(max_examples=60, deadline=None)
@given(
    st.lists(
        st.tuples(st.integers(0, 4), st.integers(0, 2), st.integers(0, 1)),
        min_size=45,
        max_size=45,
    ),
    st.sampled_from([0.1, 1.0, 7.5]),
)
def test_spec_worked_bic_minus_aic(tail: list[tuple[int, int, int]], iss: float) -> None:
    """Spec §4.3: k = (5, 3, 2), n = 50, G1: Pa(3) = {2}, G2: Pa(3) = {1, 2};
    (ΔBIC - ΔAIC) = 12 (0.5 log 50 - 1) ≈ 11.4721 whatever the data."""
    data = _worked_data(tail)
    g1 = network_scores(data, [[], [], [1]], iss=iss)
    g2 = network_scores(data, [[], [], [0, 1]], iss=iss)
    assert g2.parameters - g1.parameters == 12  # (15 - 3) * (2 - 1)
    gap = (g1.bic - g2.bic) - (g1.aic - g2.aic)
    assert abs(gap - 12 * (0.5 * math.log(50) - 1)) < 1e-9
    assert abs(gap - 11.472138032568875) < 1e-9


def test_recoding_to_non_contiguous_codes_changes_nothing() -> None:
    rng = np.random.default_rng(20250416)
    x1 = rng.integers(0, 3, size=40)
    x2 = rng.integers(0, 2, size=40)
    y = rng.integers(0, 3, size=40)
    base = node_scores(y, np.column_stack([x1, x2]))
    spread = np.array([0, 2, 5])[x1]  # same partition, codes {0, 2, 5}
    _assert_same(node_scores(y, np.column_stack([spread, x2])), base)
    shuffled = np.array([5, 0, 2])[x1]  # same partition, different order of configurations
    _assert_same(node_scores(y, np.column_stack([shuffled, x2])), base)
    child = np.array([1, 4, 9])[y]
    _assert_same(node_scores(child, np.column_stack([spread, x2 * 3])), base)
    assert base.parameters == (3 * 2) * (3 - 1)


def test_unused_levels_do_not_count() -> None:
    y = np.array([0, 2, 2, 0, 2, 0, 0, 2])  # level 1 never occurs: r = 2
    x = np.array([0, 3, 3, 0, 0, 3, 3, 0])  # levels {0, 3}: 2 levels
    constant = np.full(8, 4)  # a parent with a single observed level
    scores = node_scores(y, np.column_stack([x, constant]))
    assert scores.parameters == 2 * 1 * (2 - 1)
    compact = node_scores(y // 2, np.column_stack([x // 3, np.zeros(8, dtype=int)]))
    _assert_same(scores, compact)
    root = node_scores(y, np.zeros((8, 0), dtype=int))
    assert root.parameters == 1
    # the BDeu pseudo counts use r = 2, not the code range 3
    lg = math.lgamma
    assert _close(root.bde, lg(1) - lg(9) + 2 * (lg(0.5 + 4) - lg(0.5)))


def test_q_counts_parent_levels_not_observed_configurations() -> None:
    """Two perfectly correlated binary parents show 2 configurations but q = 2 * 2 = 4."""
    x = np.array([0, 0, 1, 1, 0, 1, 0, 1, 1])
    y = np.array([0, 1, 2, 2, 0, 1, 2, 0, 2])
    one = node_scores(y, x[:, None])
    two = node_scores(y, np.column_stack([x, x]))
    assert one.parameters == 2 * 2 and two.parameters == 4 * 2
    assert _close(two.loglik, one.loglik)
    assert _close(two.aic, one.loglik - 8)
    assert _close(two.bic, one.loglik - 4 * math.log(9))
    lg = math.lgamma
    # alpha_ij = 1/4, alpha_ijk = 1/12; x = 0 -> y = (0, 1, 0, 2), x = 1 -> y = (2, 2, 1, 0, 2)
    a, b = 1 / 4, 1 / 12
    bde = (lg(a) - lg(a + 4) + lg(b + 2) + 2 * lg(b + 1) - 3 * lg(b)) + (
        lg(a) - lg(a + 5) + 2 * lg(b + 1) + lg(b + 3) - 3 * lg(b)
    )
    assert _close(two.bde, bde)
    assert not _close(two.bde, one.bde)


def test_constant_child_scores_zero() -> None:
    x = np.array([[0, 1], [1, 1], [2, 0], [2, 1]])
    scores = node_scores(np.full(4, 3), x)
    assert scores == NodeScores(0.0, 0.0, 0.0, scores.bde, 0)
    assert abs(scores.bde) < 1e-12


def _dense_reference(data: np.ndarray, child: int, parents: list[int], iss: float) -> tuple:
    """loglik, BDeu and d from the dense ``family_counts`` table: every parent configuration
    of the code ranges (empty ones included) and every child code (unused ones included)."""
    cards = data.max(axis=0) + 1
    table = family_counts(validate_codes(data, cards), child, parents, cards)  # [y, x]
    r = len(set(data[:, child].tolist()))
    q = 1
    for p in parents:
        q *= len(set(data[:, p].tolist()))
    a_ij, a_ijk = iss / q, iss / (q * r)
    loglik = bde = 0.0
    for j in range(table.shape[0]):
        n_ij = int(table[j].sum())
        bde += math.lgamma(a_ij) - math.lgamma(a_ij + n_ij)
        for k in range(table.shape[1]):
            n_ijk = int(table[j, k])
            bde += math.lgamma(a_ijk + n_ijk) - math.lgamma(a_ijk)
            if n_ijk:
                loglik += n_ijk * math.log(n_ijk / n_ij)
    return loglik, bde, q * (r - 1)


@st.composite
def families(draw: st.DrawFn) -> tuple[np.ndarray, float]:
    n = draw(st.integers(1, 30))
    n_parents = draw(st.integers(0, 3))
    ranges = draw(st.lists(st.integers(1, 6), min_size=n_parents + 1, max_size=n_parents + 1))
    columns = [draw(st.lists(st.integers(0, c - 1), min_size=n, max_size=n)) for c in ranges]
    iss = draw(st.floats(0.05, 50.0))
    return np.array(columns, dtype=np.int64).T.reshape(n, n_parents + 1), iss


@settings(max_examples=150, deadline=None)
@given(families())
def test_sparse_matches_dense_reference(family: tuple[np.ndarray, float]) -> None:
    data, iss = family
    parents = list(range(1, data.shape[1]))
    loglik, bde, d = _dense_reference(data, 0, parents, iss)
    scores = node_scores(data[:, 0], data[:, 1:], iss=iss)
    n = data.shape[0]
    assert scores.parameters == d
    assert _close(scores.loglik, loglik)
    assert _close(scores.bde, bde)
    assert _close(scores.bic, loglik - 0.5 * d * math.log(n))
    assert _close(scores.aic, loglik - d)


def test_network_is_sum_of_nodes_and_root_bdeu() -> None:
    rng = np.random.default_rng(7)
    n = 60
    data = np.column_stack([rng.integers(0, k, size=n) for k in (3, 2, 4, 2, 3)])
    data[:, 3] = (data[:, 0] + data[:, 1]) % 2  # some dependence
    dag = [[], [0], [0, 1], [1, 2], []]
    iss = 2.5
    total = network_scores(data, dag, iss=iss)
    nodes = [node_scores(data[:, i], data[:, dag[i]], iss=iss) for i in range(5)]
    assert total.parameters == sum(s.parameters for s in nodes)
    for name in FIELDS:
        assert _close(getattr(total, name), sum(getattr(s, name) for s in nodes)), name

    root = nodes[4]
    levels, n_k = np.unique(data[:, 4], return_counts=True)
    r = levels.size
    expected = math.lgamma(iss) - math.lgamma(iss + n)
    expected += sum(math.lgamma(iss / r + int(c)) - math.lgamma(iss / r) for c in n_k)
    assert _close(root.bde, expected)
    assert root.parameters == r - 1
    assert _close(root.loglik, sum(int(c) * math.log(int(c) / n) for c in n_k))
    # the empty graph sums the root scores
    empty = network_scores(data, [[]] * 5, iss=iss)
    roots = [node_scores(data[:, i], np.zeros((n, 0), dtype=int), iss=iss) for i in range(5)]
    assert _close(empty.bde, sum(s.bde for s in roots))


Y = np.array([0, 1, 1, 0])
X = np.array([[0], [1], [0], [1]])


@pytest.mark.parametrize(
    ("child", "parents", "iss", "name"),
    [
        (np.array([0, 1.5, 1, 0]), X, 1.0, "child"),
        (np.array([0, -1, 1, 0]), X, 1.0, "child"),
        (np.array([0, np.nan, 1, 0]), X, 1.0, "child"),
        (np.array(["a", "b", "a", "b"]), X, 1.0, "child"),
        (np.array([], dtype=int), np.zeros((0, 1), dtype=int), 1.0, "child"),
        (Y[:, None], X, 1.0, "child"),
        (Y, np.array([[0], [1], [-2], [1]]), 1.0, "parents"),
        (Y, np.array([[0], [1], [0.5], [1]]), 1.0, "parents"),
        (Y, X[:3], 1.0, "parents"),
        (Y, np.zeros((3, 0)), 1.0, "parents"),
        (Y, X[:, 0], 1.0, "parents"),
        (Y, X, 0.0, "iss"),
        (Y, X, -1.0, "iss"),
        (Y, X, float("nan"), "iss"),
        (Y, X, float("inf"), "iss"),
        (Y, X, "one", "iss"),
    ],
)
def test_node_scores_refuses_bad_input(child, parents, iss, name) -> None:
    with pytest.raises(ValueError, match=rf"\b{name}\b"):
        node_scores(child, parents, iss=iss)


DATA = np.array([[0, 1, 1], [1, 0, 1], [1, 1, 0], [0, 0, 0]])


@pytest.mark.parametrize(
    ("data", "parent_sets", "iss", "name"),
    [
        (np.zeros((0, 3), dtype=int), [[], [], []], 1.0, "data"),
        (np.zeros((4, 0), dtype=int), [], 1.0, "data"),
        (DATA[:, 0], [[]], 1.0, "data"),
        (DATA - 1, [[], [], []], 1.0, "data"),
        (DATA + 0.25, [[], [], []], 1.0, "data"),
        (DATA, [[], []], 1.0, "parent_sets"),
        (DATA, [[], [3], []], 1.0, "parent_sets"),
        (DATA, [[], [1], []], 1.0, "parent_sets"),
        (DATA, [[], [0, 0], []], 1.0, "parent_sets"),
        (DATA, [[], [0.5], []], 1.0, "parent_sets"),
        (DATA, [[2], [0], [1]], 1.0, "parent_sets"),
        (DATA, [[], [0], []], 0.0, "iss"),
    ],
)
def test_network_scores_refuses_bad_input(data, parent_sets, iss, name) -> None:
    with pytest.raises(ValueError, match=rf"\b{name}\b"):
        network_scores(data, parent_sets, iss=iss)
