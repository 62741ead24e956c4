"""Multi-domain hierarchical CPTs (azzimonti2019 §2.5, §3.7; hierbn.cpts.hier_domains, fitted by
fit_network with domains) and the E5 synthetic generator (A12)."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from hierbn.bn.structures import BNStructure
from hierbn.cpts import Domains, FittedNetwork, fit_network, make_estimator
from hierbn.cpts.base import FittedCPT, TableCPT, family
from hierbn.cpts.hier_domains import joint_domain_counts, joint_to_cpts
from hierbn.estimators.hier_vi import fit_hier_vi
from hierbn.forest import RRandomForest
from hierbn.studies.azzimonti2019.multidomain import forest_per_user, run_e5_job
from hierbn.studies.azzimonti2019.multidomain_data import (
    GeneratorShape,
    make_population,
    sample_records,
)
from hierbn.studies.azzimonti2019.tables import e5_summary

CHAIN = BNStructure(("C", "A", "B"), (3, 2, 4), ((), (0,), (0, 1)), class_index=0)
HIER_DOMAINS = make_estimator("hier_domains", {})
SEED = np.random.SeedSequence(0)


def _data(rng: np.random.Generator, rows: int, n_domains: int) -> tuple[np.ndarray, np.ndarray]:
    codes = np.column_stack([rng.integers(0, k, rows) for k in CHAIN.cardinalities]).astype(
        np.int32
    )
    return codes, rng.integers(0, n_domains, rows)


def _domain_family(codes: np.ndarray, domains: np.ndarray, n_domains: int, node: int):
    """The family of ``node`` with the domain (an extra last column) as its first parent."""
    data = np.column_stack([codes, domains]).astype(np.int64)
    cards = (*CHAIN.cardinalities, n_domains)
    return family(data, node, (CHAIN.n_nodes, *CHAIN.parents[node]), cards)


def _fit(codes: np.ndarray, domains: np.ndarray, n_domains: int) -> FittedNetwork:
    return fit_network(CHAIN, codes, HIER_DOMAINS, SEED, domains=Domains(domains, n_domains))


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), rows=st.integers(0, 200), n_domains=st.integers(1, 5))
def test_joint_counts_match_a_brute_force_count(seed: int, rows: int, n_domains: int) -> None:
    codes, domains = _data(np.random.default_rng(seed), rows, n_domains)
    counts = joint_domain_counts(_domain_family(codes, domains, n_domains, 2))
    assert counts.shape == (n_domains, 4 * 3 * 2)  # [f, x'], x' = x |Pa| + pa
    expected = np.zeros((n_domains, 4, 3, 2), dtype=np.int64)
    np.add.at(expected, (domains, codes[:, 2], codes[:, 0], codes[:, 1]), 1)
    np.testing.assert_array_equal(counts, expected.reshape(n_domains, 24))
    assert counts.sum() == rows
    np.testing.assert_array_equal(counts.sum(axis=1), np.bincount(domains, minlength=n_domains))


def test_a_parentless_node_equals_the_single_domain_fit_with_the_domain_as_parent() -> None:
    """With no parents X' = X, so the multi-domain model is eq. (5) with Y = F: the same fit as
    the single-domain hierarchical CPT of X given F (s = |X| = |X'|, alpha0 = 1)."""
    rng = np.random.default_rng(3)
    x = rng.integers(0, 4, 300)
    f = rng.integers(0, 6, 300)
    alone = BNStructure(("X",), (4,), ((),))
    multi = fit_network(
        alone, x[:, None].astype(np.int32), HIER_DOMAINS, SEED, domains=Domains(f, 6)
    )
    with_parent = BNStructure(("F", "X"), (6, 4), ((), (0,)))
    hier = make_estimator("hier", {"hier": {"configurations": "all"}})
    single = fit_network(with_parent, np.column_stack([f, x]).astype(np.int32), hier, SEED)
    assert multi.table(0).shape == (6, 4)  # [f, x]: the domain is the first parent
    np.testing.assert_allclose(multi.table(0), single.table(1), rtol=0, atol=1e-12)
    assert multi.cpts[0].info.iterations == single.cpts[1].info.iterations


def test_cpts_follow_the_normalisation_formula_of_section_2_5() -> None:
    """theta_{x|pa,f} = (n_{x,pa,f} + s kappa_{x,pa}) / (n_{pa,f} + s sum_x' kappa_{x',pa})."""
    codes, domains = _data(np.random.default_rng(5), 400, 4)
    fitted = _fit(codes, domains, 4)
    counts = joint_domain_counts(_domain_family(codes, domains, 4, 2))  # [f, x']
    s = counts.shape[1]
    kappa = fit_hier_vi(counts, s=float(s)).kappa.reshape(4, 6)  # [x, pa]
    n = counts.reshape(4, 4, 6)  # [f, x, pa]
    expected = (n + s * kappa[None]) / (n.sum(axis=1) + s * kappa.sum(axis=0)[None])[:, None, :]
    table = fitted.table(2)  # [(f, pa), x]: the domain first, pa = c |A| + a
    np.testing.assert_allclose(table, expected.transpose(0, 2, 1).reshape(24, 4), rtol=1e-12)
    infos = [fitted.cpts[node].info for node in range(3)]
    assert [int(i.details["joint_states"]) for i in infos] == [3, 6, 24]
    assert all(i.converged and i.details["finite"] == 1.0 and i.iterations > 0 for i in infos)
    for node in range(3):
        np.testing.assert_allclose(fitted.table(node).sum(axis=1), 1.0, rtol=1e-12)


def test_joint_to_cpts_normalises_each_parent_configuration() -> None:
    joint = np.arange(1, 13, dtype=float).reshape(6, 2).T  # [f, x']: |X| = 3, |Pa| = 2, K = 2
    theta = joint_to_cpts(joint, 3)  # [f, pa, x]
    assert theta.shape == (2, 2, 3)
    np.testing.assert_allclose(theta[0, 0], np.array([1, 5, 9]) / 15)
    np.testing.assert_allclose(theta[1, 1], np.array([4, 8, 12]) / 24)
    np.testing.assert_allclose(theta.sum(axis=2), 1.0)


def test_the_large_cpt_case_converges_with_finite_values() -> None:
    """The spec's GoEco-sized CPT: |X'| = 325, |Y| = 100 users, 100 observations per row."""
    rng = np.random.default_rng(11)
    mu = rng.dirichlet(np.ones(325))
    counts = np.stack([rng.multinomial(100, rng.dirichlet(20 * mu)) for _ in range(100)])
    result = fit_hier_vi(counts, s=325.0)
    assert result.theta.shape == (100, 325) and result.kappa.shape == (325,)
    assert result.converged and result.n_iter < 1000
    assert np.all(np.isfinite(result.theta)) and np.all(np.isfinite(result.kappa))
    assert np.all(np.diff(result.elbo_trace) >= -1e-9 * np.abs(result.elbo_trace[1:]))


def test_domain_predictions_equal_each_domains_own_classifier() -> None:
    codes, domains = _data(np.random.default_rng(8), 300, 3)
    fitted = _fit(codes, domains, 3)
    proba = fitted.predict_proba(codes, domains)
    np.testing.assert_allclose(proba.sum(axis=1), 1.0, rtol=1e-12)
    for f in range(3):
        rows = domains == f
        cpts = {}
        for node in range(CHAIN.n_nodes):  # domain f's slice of every table, as its own CPT
            own = fitted.table(node).reshape(3, -1, CHAIN.cardinalities[node])[f]
            radix = tuple(CHAIN.cardinalities[p] for p in CHAIN.parents[node])
            keys = np.arange(own.shape[0])
            cpts[node] = FittedCPT(TableCPT(keys, own, np.full(own.shape[1], np.nan), radix))
        alone = FittedNetwork(CHAIN, cpts).predict_proba(codes[rows])
        np.testing.assert_allclose(proba[rows], alone, rtol=1e-12)
        # by hand: P(c | x, f) ∝ theta_C[c | f] theta_A[a | c, f] theta_B[b | c, a, f]
        t = [fitted.table(node).reshape(3, -1, CHAIN.cardinalities[node])[f] for node in range(3)]
        for (_, a, b), p in zip(codes[rows], proba[rows], strict=True):
            joint = np.array([t[0][0, c] * t[1][c, a] * t[2][c * 2 + a, b] for c in range(3)])
            np.testing.assert_allclose(p, joint / joint.sum(), rtol=1e-12)
    assert not np.allclose(proba, fitted.predict_proba(codes, (domains + 1) % 3))


def test_bad_domains_are_refused_by_name() -> None:
    codes, _ = _data(np.random.default_rng(0), 10, 2)
    with pytest.raises(ValueError, match=r"domains must be integers in \[0, 2\); got .*\[2, 2\]"):
        Domains(np.full(10, 2), 2)
    with pytest.raises(ValueError, match=r"domains must be integers in \[0, 2\)"):
        Domains(np.full(10, -1), 2)
    with pytest.raises(ValueError, match=r"1-d integer array, got shape \(10,\) \(float64\)"):
        Domains(np.zeros(10), 2)  # floats
    with pytest.raises(ValueError, match=r"1-d integer array, got shape \(0, 2\)"):
        Domains(np.zeros((0, 2), dtype=int), 2)
    with pytest.raises(ValueError, match="one entry per row"):
        fit_network(CHAIN, codes, HIER_DOMAINS, SEED, domains=Domains(np.zeros(9, dtype=int), 2))
    with pytest.raises(ValueError, match="needs the domain as a parent"):
        fit_network(CHAIN, codes, HIER_DOMAINS, SEED)  # no domains: the class is a plain root
    fitted = _fit(codes, np.zeros(10, dtype=int), 2)
    with pytest.raises(ValueError, match="domains are needed exactly when"):
        fitted.predict_proba(codes)
    with pytest.raises(ValueError, match=r"domains must be integers in \[0, 2\)"):
        fitted.predict_proba(codes, np.full(10, 3))  # a domain the network never saw


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
              "methods": ["user_bdeu1", "user_bdeu10", "user_rf", "user_rf_sklearn", "md_hier",
                          "pooled_bdeu10"]}  # fmt: skip
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


def test_the_per_user_forest_is_rs_on_factors_and_a_one_class_user_gets_its_class() -> None:
    pooled = CHAIN
    k = pooled.class_index
    rng = np.random.default_rng(5)
    train = np.column_stack([rng.integers(0, c, 60) for c in pooled.cardinalities])
    test = np.column_stack([rng.integers(0, c, 20) for c in pooled.cardinalities])
    features = [j for j in range(train.shape[1]) if j != k]
    cards = [pooled.cardinalities[j] for j in features]
    ours = forest_per_user("user_rf", pooled, train, test, 7)
    r_forest = RRandomForest(seed=7).fit(train[:, features], train[:, k], cards,
                                         pooled.cardinalities[k])  # fmt: skip
    np.testing.assert_array_equal(ours, r_forest.predict_proba(test[:, features]))
    assert np.allclose((ours * 500) % 1, 0)  # vote shares of R's 500 trees
    train[:, k] = 1
    one_class = forest_per_user("user_rf", pooled, train, test, 7)
    assert (one_class[:, 1] == 1).all() and one_class.sum() == len(test)
    sklearn = forest_per_user("user_rf_sklearn", pooled, train, test, 7)
    assert (sklearn[:, 1] == 1).all()


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
