"""Every public estimator and scoring entry point refuses bad input with an error naming the
argument and the first bad index (NaN, inf, negative counts, codes outside [0, card), empty
input), and gives finite output on valid extremes (zeros, 10^9 counts, one category)."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra.numpy import arrays

from hierbn.bn.counting import validate_codes
from hierbn.bn.structures import naive_bayes
from hierbn.cpts import Domains, fit_network, make_estimator
from hierbn.estimators.bdeu import bdeu_theta, laplace_theta, ml_theta
from hierbn.estimators.hdp import fit_hdp
from hierbn.estimators.hier_exact import exact_posterior_theta
from hierbn.estimators.hier_vi import fit_hier_vi
from hierbn.estimators.m_estimate import m_estimate_theta
from hierbn.estimators.m_estimate_tree import fit_m_estimate
from hierbn.scoring.bipartite import BipartiteClass, enumerate_structures
from hierbn.scoring.scores import StructureModel, ais_score, em_and_vb, exact_score, score_structure

COUNT_ESTIMATORS = {
    "bdeu": lambda c: bdeu_theta(c, 1.0),
    "laplace": laplace_theta,
    "ml": ml_theta,
    "m_estimate": lambda c: m_estimate_theta(c, 1.0),
    "hier_vi": lambda c: fit_hier_vi(c).theta,
}
BAD_VALUES = {"nan": np.nan, "inf": np.inf, "negative": -1.0}

tables = arrays(
    np.float64,
    st.tuples(st.integers(1, 4), st.integers(1, 4)),
    elements=st.floats(0, 1e9).map(round),
)


@settings(max_examples=40, deadline=None)
@given(table=tables, data=st.data())
@pytest.mark.parametrize("name", COUNT_ESTIMATORS)
@pytest.mark.parametrize("bad", BAD_VALUES)
def test_count_estimators_name_the_first_bad_cell(name: str, bad: str, table, data) -> None:
    i = data.draw(st.integers(0, table.shape[0] - 1))
    j = data.draw(st.integers(0, table.shape[1] - 1))
    table[i, j] = BAD_VALUES[bad]
    first = tuple(int(k) for k in np.argwhere(~np.isfinite(table) | (table < 0))[0])
    with pytest.raises(ValueError, match=rf"counts\[{first[0]}, {first[1]}\]"):
        COUNT_ESTIMATORS[name](table)


@settings(max_examples=40, deadline=None)
@given(table=tables)
@pytest.mark.parametrize("name", COUNT_ESTIMATORS)
def test_count_estimators_give_distributions_on_any_valid_table(name: str, table) -> None:
    """Zero rows, 10^9 counts and one category (one column) included."""
    theta = COUNT_ESTIMATORS[name](table)
    assert theta.shape == table.shape and np.all(np.isfinite(theta)) and np.all(theta >= 0)
    assert np.allclose(theta.sum(axis=1), 1.0)


@pytest.mark.parametrize("name", [*COUNT_ESTIMATORS, "exact"])
@pytest.mark.parametrize(
    ("table", "message"),
    [
        (np.zeros((0, 3)), r"at least 1 row"),
        (np.zeros((2, 0)), r"1 column"),
        (np.zeros(3), r"2-d table"),
        (np.array([["a", "b"]]), r"must hold numbers"),
    ],
)
def test_count_estimators_refuse_empty_and_malformed_tables(name, table, message) -> None:
    function = COUNT_ESTIMATORS.get(name, exact_posterior_theta)
    with pytest.raises(ValueError, match=rf"counts .*{message}|counts {message}"):
        function(table)


def test_exact_posterior_refuses_fractional_and_huge_counts_and_handles_one_category() -> None:
    with pytest.raises(ValueError, match=r"counts\[0, 1\] = 0.5"):
        exact_posterior_theta(np.array([[1.0, 0.5], [2.0, 0.0]]))
    with pytest.raises(ValueError, match="costs ~n\\^4"):
        exact_posterior_theta(np.array([[1e9, 0.0], [0.0, 1.0]]))
    assert np.allclose(exact_posterior_theta(np.array([[3.0], [0.0]])), 1.0)  # one category
    assert np.allclose(exact_posterior_theta(np.zeros((2, 2))), 0.5)


def test_parameters_are_refused_when_not_finite_or_negative() -> None:
    for call, name in (
        (lambda: bdeu_theta(np.ones((2, 2)), 0.0), "iss"),
        (lambda: bdeu_theta(np.ones((2, 2)), np.nan), "iss"),
        (lambda: m_estimate_theta(np.ones((2, 2)), -1.0), "m"),
        (lambda: ml_theta(np.ones((2, 2)), np.full((2, 2), np.nan)), r"fallback\[0, 0\]"),
    ):
        with pytest.raises(ValueError, match=name):
            call()


# ------------------------------------------------------------------ code-based entry points
def _family(n: int, seed: int = 0) -> tuple[np.ndarray, np.ndarray]:
    rng = np.random.default_rng(seed)
    return rng.integers(0, 3, n), np.column_stack([rng.integers(0, 2, n), rng.integers(0, 4, n)])


CONTEXT_FITS = {
    "hdp": lambda x, ctx, n_values=3: fit_hdp(
        x, ctx, np.array([2, 4]), n_values, n_iter=20, seed=np.random.SeedSequence(0)
    ),
    "m_estimate": lambda x, ctx, n_values=3: fit_m_estimate(
        x, ctx, np.array([2, 4]), n_values, 1.0
    ),
}


@settings(max_examples=30, deadline=None)
@given(data=st.data())
@pytest.mark.parametrize("name", CONTEXT_FITS)
@pytest.mark.parametrize(
    ("argument", "bad"),
    [("child_values", -1), ("child_values", 3), ("contexts", 4), ("contexts", np.nan)],
)
def test_context_trees_refuse_codes_outside_their_radix(name, argument, bad, data) -> None:
    x, ctx = _family(30)
    x, ctx = x.astype(np.float64), ctx.astype(np.float64)
    row = data.draw(st.integers(0, 29))
    if argument == "child_values":
        x[row] = bad
        where = rf"child_values\[{row}, 0\]"
    else:
        ctx[row, 1] = bad
        where = rf"contexts\[{row}, 1\]"
    with pytest.raises(ValueError, match=where):
        CONTEXT_FITS[name](x, ctx)


@pytest.mark.parametrize("name", CONTEXT_FITS)
def test_context_trees_on_empty_and_extreme_data(name: str) -> None:
    with pytest.raises(ValueError, match="child_values has no rows"):
        CONTEXT_FITS[name](np.zeros(0, dtype=int), np.zeros((0, 2), dtype=int))
    x, ctx = _family(50)
    with pytest.raises(ValueError, match=r"one row per child value \(50\)"):
        CONTEXT_FITS[name](x, ctx[:10])
    single = CONTEXT_FITS[name](np.zeros(50, dtype=int), ctx, n_values=1)  # one category
    probabilities = single.query(ctx[:5])
    assert np.allclose(probabilities, 1.0)
    one_row = CONTEXT_FITS[name](x[:1], ctx[:1]).query(ctx[:3])
    assert np.all(np.isfinite(one_row)) and np.all(one_row >= 0)


def test_fitting_cpts_refuses_codes_outside_the_structure() -> None:
    structure = naive_bayes(["a", "y"], [2, 2], 1)
    codes = np.array([[0, 1], [1, 0], [2, 1]])
    with pytest.raises(ValueError, match=r"codes\[2, 0\] = 2 \(cardinality 2\)"):
        fit_network(structure, codes, make_estimator("bdeu1", {}), np.random.SeedSequence(0))
    with pytest.raises(ValueError, match=r"codes\[2, 0\] = 2 \(cardinality 2\)"):
        fit_network(structure, codes, make_estimator("hier_domains", {}),
                    np.random.SeedSequence(0), domains=Domains(np.zeros(3, dtype=int), 2))  # fmt: skip
    with pytest.raises(ValueError, match=r"codes\[0, 1\] = -1"):
        validate_codes(np.array([[0, -1]]), np.array([2, 2]), "codes")


# ----------------------------------------------------------------------------- scoring
CLASS = BipartiteClass(hidden=(2,), observed=(3, 3))


@pytest.fixture(scope="module")
def model() -> StructureModel:
    return StructureModel.build(enumerate_structures(CLASS)[-1], CLASS)


SCORES = {
    "score_structure": lambda m, rows: score_structure(m, rows, np.random.default_rng(0), 1)[0][
        "VB"
    ],
    "ais_score": lambda m, rows: ais_score(m, rows, np.random.default_rng(0), 16, 100.0).posterior[
        "log_z"
    ][0, 0],
    "exact_score": lambda m, rows: exact_score(m, rows[:6]),
}


@settings(max_examples=20, deadline=None)
@given(data=st.data())
@pytest.mark.parametrize("name", SCORES)
@pytest.mark.parametrize("bad", [-1, 3, np.nan])
def test_scores_refuse_codes_outside_the_observed_cardinalities(model, name, bad, data) -> None:
    rows = np.random.default_rng(1).integers(0, 3, (6, 2)).astype(np.float64)
    row, column = data.draw(st.integers(0, 5)), data.draw(st.integers(0, 1))
    rows[row, column] = bad
    with pytest.raises(ValueError, match=rf"rows\[{row}, {column}\]"):
        SCORES[name](model, rows)


@pytest.mark.parametrize("name", SCORES)
def test_scores_on_empty_and_extreme_data(model, name: str) -> None:
    with pytest.raises(ValueError, match="rows has no rows"):
        SCORES[name](model, np.zeros((0, 2), dtype=int))
    assert np.isfinite(SCORES[name](model, np.zeros((1, 2), dtype=int)))  # one datum
    assert np.isfinite(SCORES[name](model, np.full((6, 2), 2)))  # one value only


def test_em_and_vb_checks_patterns_and_their_counts(model) -> None:
    init = model.sample_prior(np.random.default_rng(0))
    patterns = np.array([[0, 1], [2, 2]])
    with pytest.raises(ValueError, match=r"patterns\[1, 0\] = 5"):
        em_and_vb(model, np.array([[0, 1], [5, 2]]), np.array([1.0, 2.0]), init)
    with pytest.raises(ValueError, match=r"counts\[0, 1\] = nan"):
        em_and_vb(model, patterns, np.array([1.0, np.nan]), init)
    with pytest.raises(ValueError, match="multiplicity per pattern"):
        em_and_vb(model, patterns, np.array([1.0]), init)
    assert np.isfinite(em_and_vb(model, patterns, np.array([1e9, 1.0]), init)["vb_star"])
