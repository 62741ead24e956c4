"""Multi-domain hierarchical CPTs (azzimonti2019 §2.5, §3.7) and the E5 synthetic generator (A12)."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from hierbn.bn.classifier import predict_proba
from hierbn.bn.multidomain import fit_multidomain_cpts, joint_domain_counts, joint_to_cpts
from hierbn.bn.parameters import EstimatorSpec, fit_cpts
from hierbn.bn.structures import BNStructure
from hierbn.estimators.hier_vi import fit_hier_vi
from hierbn.studies.azzimonti2019.multidomain import run_e5_job
from hierbn.studies.azzimonti2019.multidomain_data import (
    GeneratorShape,
    make_population,
    sample_records,
)
from hierbn.studies.azzimonti2019.tables import e5_summary

CHAIN = BNStructure(("C", "A", "B"), (3, 2, 4), ((), (0,), (0, 1)), class_index=0)


def _data(rng: np.random.Generator, rows: int, n_domains: int) -> tuple[np.ndarray, np.ndarray]:
    codes = np.column_stack([rng.integers(0, k, rows) for k in CHAIN.cardinalities]).astype(
        np.int32
    )
    return codes, rng.integers(0, n_domains, rows)


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), rows=st.integers(0, 200), n_domains=st.integers(1, 5))
def test_joint_counts_match_a_brute_force_count(seed: int, rows: int, n_domains: int) -> None:
    codes, domains = _data(np.random.default_rng(seed), rows, n_domains)
    counts = joint_domain_counts(
        codes, 2, (0, 1), np.array(CHAIN.cardinalities), domains, n_domains
    )
    assert counts.shape == (4 * 3 * 2, n_domains)
    expected = np.zeros((4, 3, 2, n_domains), dtype=np.int64)
    np.add.at(expected, (codes[:, 2], codes[:, 0], codes[:, 1], domains), 1)
    np.testing.assert_array_equal(counts, expected.reshape(24, n_domains))


def test_a_parentless_node_equals_the_single_domain_fit_with_the_domain_as_parent() -> None:
    """With no parents X' = X, so the multi-domain model is eq. (5) with Y = F: the same fit as
    the single-domain hierarchical CPT of X given F (s = |X| = |X'|, alpha0 = 1)."""
    rng = np.random.default_rng(3)
    x = rng.integers(0, 4, 300)
    f = rng.integers(0, 6, 300)
    alone = BNStructure(("X",), (4,), ((),))
    multi, _ = fit_multidomain_cpts(alone, x[:, None].astype(np.int32), f, 6)
    with_parent = BNStructure(("F", "X"), (6, 4), ((), (0,)))
    single, _ = fit_cpts(
        with_parent, np.column_stack([f, x]).astype(np.int32), EstimatorSpec("hier")
    )
    np.testing.assert_allclose(multi[0][:, 0, :], single[1], rtol=0, atol=1e-12)


def test_cpts_follow_the_normalisation_formula_of_section_2_5() -> None:
    """theta_{x|pa,f} = (n_{x,pa,f} + s kappa_{x,pa}) / (n_{pa,f} + s sum_x' kappa_{x',pa})."""
    codes, domains = _data(np.random.default_rng(5), 400, 4)
    cpts, infos = fit_multidomain_cpts(CHAIN, codes, domains, 4)
    counts = joint_domain_counts(codes, 2, (0, 1), np.array(CHAIN.cardinalities), domains, 4)
    s = counts.shape[0]
    kappa = fit_hier_vi(counts, s=float(s)).kappa.reshape(4, 6)
    n = counts.reshape(4, 6, 4)
    expected = (n + s * kappa[:, :, None]) / (n.sum(axis=0) + s * kappa.sum(axis=0)[:, None])[None]
    np.testing.assert_allclose(cpts[2], expected, rtol=1e-12)
    assert [i["joint_states"] for i in infos] == [3, 6, 24]
    for theta in cpts:
        np.testing.assert_allclose(theta.sum(axis=0), 1.0, rtol=1e-12)


def test_joint_to_cpts_normalises_each_parent_configuration() -> None:
    joint = np.arange(1, 13, dtype=float).reshape(6, 2)  # |X| = 3, |Pa| = 2, K = 2
    theta = joint_to_cpts(joint, 3)
    np.testing.assert_allclose(theta[:, 0, 0], np.array([1, 5, 9]) / 15)
    np.testing.assert_allclose(theta[:, 1, 1], np.array([4, 8, 12]) / 24)


def test_the_large_cpt_case_converges_with_finite_values() -> None:
    """The spec's GoEco-sized CPT: |X'| = 325, |Y| = 100 users, 100 observations per column."""
    rng = np.random.default_rng(11)
    mu = rng.dirichlet(np.ones(325))
    counts = np.stack([rng.multinomial(100, rng.dirichlet(20 * mu)) for _ in range(100)], axis=1)
    result = fit_hier_vi(counts, s=325.0)
    assert result.converged and result.n_iter < 1000
    assert np.all(np.isfinite(result.theta)) and np.all(np.isfinite(result.kappa))
    assert np.all(np.diff(result.elbo_trace) >= -1e-9 * np.abs(result.elbo_trace[1:]))


def test_domain_predictions_equal_each_domains_own_classifier() -> None:
    codes, domains = _data(np.random.default_rng(8), 300, 3)
    cpts, _ = fit_multidomain_cpts(CHAIN, codes, domains, 3)
    proba = predict_proba(CHAIN, cpts, codes, domains)
    for f in range(3):
        rows = domains == f
        own = predict_proba(CHAIN, [theta[:, :, f] for theta in cpts], codes[rows])
        np.testing.assert_allclose(proba[rows], own, rtol=1e-12)


def test_bad_domains_are_refused_by_name() -> None:
    codes, _ = _data(np.random.default_rng(0), 10, 2)
    with pytest.raises(ValueError, match=r"domains must be integers in \[0, 2\)"):
        fit_multidomain_cpts(CHAIN, codes, np.full(10, 2), 2)
    with pytest.raises(ValueError, match="one entry per row"):
        fit_multidomain_cpts(CHAIN, codes, np.zeros(9, dtype=int), 2)


# --------------------------------------------------------------------------- generator
SHAPE = GeneratorShape(users=400, n_classes=4, n_features=5, n_states=3)


def _population(c: float, users_seed: int = 2):
    return make_population(SHAPE, c, np.random.default_rng(1), np.random.default_rng(users_seed))


def test_the_generator_builds_a_tan_shared_by_every_c() -> None:
    a, b = _population(5.0), _population(100.0, users_seed=9)
    assert a.structure == b.structure
    structure = a.structure
    k = structure.class_index
    assert structure.parents[k] == ()
    tree_parents = [p[1] for p in structure.parents if len(p) == 2]
    assert all(p[0] == k for i, p in enumerate(structure.parents) if i != k)
    assert len(tree_parents) == SHAPE.n_features - 1  # one root feature: a spanning tree
    for theta in a.cpts:
        np.testing.assert_allclose(theta.sum(axis=0), 1.0)


@pytest.mark.parametrize("c", [5.0, 100.0])
def test_user_columns_scatter_around_the_global_ones_as_dirichlet_c_mu(c: float) -> None:
    """Var(theta_{x|pa,f}) over users = mu (1 - mu) / (c + 1) for Dirichlet(c mu)."""
    theta = _population(c).cpts[SHAPE.n_features]  # the class prior: one column per user
    mu = theta.mean(axis=2)[:, 0]
    observed = theta[:, 0, :].var(axis=1)
    np.testing.assert_allclose(observed, mu * (1 - mu) / (c + 1), rtol=0.25)


def test_records_follow_each_users_network() -> None:
    population = _population(5.0)
    rng = np.random.default_rng(4)
    domains = np.repeat([0, 1], 20000)
    codes = sample_records(rng, population, domains)
    k = population.structure.class_index
    for f in (0, 1):
        freq = np.bincount(codes[domains == f, k], minlength=SHAPE.n_classes) / 20000
        np.testing.assert_allclose(freq, population.cpts[k][:, 0, f], atol=0.015)


def test_an_e5_job_is_deterministic_and_scores_every_user_and_method() -> None:
    config = {"users": 6, "n_classes": 4, "n_features": 5, "n_states": 3, "n_test": 30,
              "methods": ["user_bdeu1", "user_bdeu10", "user_rf", "md_hier", "pooled_bdeu10"]}  # fmt: skip
    first = run_e5_job(40, 4, 20.0, 0, config, 0)
    again = run_e5_job(40, 4, 20.0, 0, config, 0)
    scores = first[first.metric.isin(["accuracy", "auc"])]
    pd.testing.assert_frame_equal(
        scores.reset_index(drop=True),
        again[again.metric.isin(["accuracy", "auc"])].reset_index(drop=True),
    )
    assert scores.groupby(["method", "metric"]).size().eq(4).all()
    assert set(scores.method) == set(config["methods"])
    assert scores.value.between(0, 1).all()
    vi = first[first.metric == "vi_seconds"]
    assert sorted(vi.joint_states) == sorted(
        [4] + [12] + [36] * 4
    )  # class, root feature, tree features
    with pytest.raises(ValueError, match="exceeds the generator's users"):
        run_e5_job(40, 7, 20.0, 0, config, 0)


def test_e5_summary_medians_and_user_fractions_by_hand() -> None:
    """Gains md_hier - user_bdeu1: user 0 reps (+0.2, -0.1) -> mean +0.05; user 1 (-0.3, -0.1)
    -> mean -0.2; median over the four user-reps is -0.1, one user of two gains."""
    rows = []
    for user, rep, md, bdeu in (
        (0, 0, 0.7, 0.5),
        (0, 1, 0.6, 0.7),
        (1, 0, 0.4, 0.7),
        (1, 1, 0.5, 0.6),
    ):
        for method, value in (("md_hier", md), ("user_bdeu1", bdeu)):
            rows.append({"n": 100, "n_users": 2, "c": 5.0, "rep": rep, "user": user, "method": method,
                         "metric": "accuracy", "value": value})  # fmt: skip
    rows.append({"n": 100, "n_users": 2, "c": 5.0, "rep": 0, "user": -1, "method": "md_hier", "metric": "fit_seconds",
                 "value": 9.0})  # fmt: skip
    summary = e5_summary(pd.DataFrame(rows))
    assert len(summary) == 1
    row = summary.iloc[0]
    assert row.baseline == "user_bdeu1" and row.metric == "accuracy"
    assert row.median_gain == pytest.approx(-0.1) and row.users_positive == 0.5
