"""Networks of CPTs (hierbn.cpts.fit_network, FittedNetwork): the class posterior against a
brute-force joint and against dense tables computed by hand, the hierarchical model's root
rule, the per-node seeds, the fitted nodes and the errors (multi-domain networks:
tests/test_multidomain.py)."""

from __future__ import annotations

import itertools
import math

import numpy as np
import pytest
from scipy.special import logsumexp

from hierbn.bn.counting import family_counts, validate_codes
from hierbn.bn.structures import BNStructure, kdb, naive_bayes
from hierbn.cpts import FittedNetwork, fit_cpt, fit_network, make_estimator
from hierbn.cpts.base import FittedCPT, TableCPT, family
from hierbn.estimators.bdeu import bdeu_theta
from hierbn.estimators.hier_vi import fit_hier_vi
from hierbn.estimators.m_estimate import m_estimate_theta

HDP = {"hdp": {"iterations": 60, "tying": "level", "prior": [0.0, 0.0], "conc_every": 5}}


def dense_log_posterior(
    structure: BNStructure, tables: dict[int, np.ndarray], codes: np.ndarray
) -> np.ndarray:
    """log P(c | x) by hand from dense ``theta[y, x]`` tables (y: the parents' mixed-radix index,
    last parent fastest): log theta_C[c] + sum over the other nodes of ``tables`` of
    log theta_i[y_i(c), x_i], normalised row by row."""
    k = structure.class_index
    cards = structure.cardinalities
    scores = np.zeros((codes.shape[0], cards[k]))
    for r, row in enumerate(codes):
        for c in range(cards[k]):
            values = np.array(row, dtype=np.int64)
            values[k] = c
            for node, theta in tables.items():
                y = 0
                for p in structure.parents[node]:
                    y = y * cards[p] + values[p]
                scores[r, c] += math.log(theta[y, values[node]])
    return scores - logsumexp(scores, axis=1, keepdims=True)


def _dense_network(structure: BNStructure, tables: dict[int, np.ndarray]) -> FittedNetwork:
    """A FittedNetwork holding the given dense tables as its CPTs."""
    cpts = {}
    for node, theta in tables.items():
        radix = tuple(structure.cardinalities[p] for p in structure.parents[node])
        keys = np.arange(theta.shape[0], dtype=np.int64)
        cpts[node] = FittedCPT(TableCPT(keys, theta, np.full(theta.shape[1], np.nan), radix))
    return FittedNetwork(structure, cpts)


def _codes(cards: list[int], n: int, seed: int) -> np.ndarray:
    rng = np.random.default_rng(seed)
    return validate_codes(np.column_stack([rng.integers(0, c, n) for c in cards]), np.array(cards))


def test_posterior_matches_brute_force_joint() -> None:
    """P(c | x) from the log-space classifier equals the normalised joint of a tiny TAN."""
    rng = np.random.default_rng(3)
    structure = BNStructure(("f0", "f1", "c"), (2, 3, 3), ((2,), (2, 0), ()), class_index=2)
    tables = {
        2: rng.dirichlet(np.ones(3))[None, :],  # [1, c]
        0: rng.dirichlet(np.ones(2), size=3),  # [c, f0]
        1: rng.dirichlet(np.ones(3), size=6),  # [c * 2 + f0, f1]
    }
    network = _dense_network(structure, tables)
    rows = np.array([[a, b, 0] for a, b in itertools.product(range(2), range(3))])
    proba = network.predict_proba(rows)
    assert proba.shape == (6, 3)
    np.testing.assert_allclose(proba.sum(axis=1), 1.0, rtol=1e-12)
    for row, p in zip(rows, proba, strict=True):
        joint = np.array(
            [tables[2][0, c] * tables[0][c, row[0]] * tables[1][c * 2 + row[0], row[1]]
             for c in range(3)]
        )  # fmt: skip
        np.testing.assert_allclose(p, joint / joint.sum(), rtol=1e-12)
    np.testing.assert_allclose(
        network.class_log_posterior(rows), dense_log_posterior(structure, tables, rows), rtol=1e-12
    )
    rows[:, 2] = 2  # the class column is ignored
    np.testing.assert_array_equal(network.predict_proba(rows), proba)
    for node, theta in tables.items():
        np.testing.assert_array_equal(network.table(node), theta)


def test_naive_bayes_with_bdeu_equals_the_dense_classifier() -> None:
    cards = [3, 4, 2, 2]
    codes = _codes(cards, 90, 5)
    structure = naive_bayes(["a", "b", "c", "y"], cards, 3)
    fitted = fit_network(structure, codes, make_estimator("bdeu1", {}), np.random.SeedSequence(0))
    assert list(fitted.cpts) == [0, 1, 2, 3]
    tables = {
        node: bdeu_theta(family_counts(codes, node, structure.parents[node], np.array(cards)), 1.0)
        for node in range(4)
    }
    for node, theta in tables.items():
        np.testing.assert_allclose(fitted.table(node), theta, rtol=1e-12)
    np.testing.assert_allclose(
        fitted.class_log_posterior(codes), dense_log_posterior(structure, tables, codes), rtol=1e-10
    )
    np.testing.assert_allclose(fitted.predict_proba(codes).sum(axis=1), 1.0, rtol=1e-12)


def _data(n: int = 300, seed: int = 0) -> tuple[np.ndarray, np.ndarray]:
    rng = np.random.default_rng(seed)
    c = rng.integers(0, 3, n)
    f0 = (c + (rng.random(n) < 0.3)) % 3
    f1 = (f0 + rng.integers(0, 2, n)) % 2
    cards = np.array([3, 2, 3])
    return validate_codes(np.column_stack([f0, f1, c]), cards), cards


def test_m_estimate_nb_matches_the_dense_classifier() -> None:
    """Without back-off effects (NB, m > 0, all contexts seen) the context-tree m-estimates are
    eq. (16) on the dense tables, the class prior included (same m)."""
    codes, cards = _data()
    structure = naive_bayes(["f0", "f1", "c"], list(cards), 2)
    estimator = make_estimator("m", {"m": {"m": 0.5, "backoff": "context"}})
    fitted = fit_network(structure, codes, estimator, np.random.SeedSequence(0))
    tables = {
        i: m_estimate_theta(family_counts(codes, i, structure.parents[i], cards), 0.5)
        for i in (2, 0, 1)
    }
    np.testing.assert_allclose(
        fitted.class_log_posterior(codes[:50]),
        dense_log_posterior(structure, tables, codes[:50]),
        rtol=1e-12,
    )


def test_hier_uses_laplace_root_and_vi_elsewhere() -> None:
    """azzimonti2019 decision A6: a parentless node takes (n_x + 1)/(n + |X|), or BDeu(iss)
    with ``root: bdeu<iss>``; the others the hierarchical VI fit of their table."""
    rng = np.random.default_rng(0)
    codes = validate_codes(
        np.column_stack([rng.integers(0, 3, 50), rng.integers(0, 2, 50)]), np.array([3, 2])
    )
    structure = BNStructure(("f", "c"), (3, 2), ((1,), ()), class_index=1)
    fitted = fit_network(structure, codes, make_estimator("hier", {}), np.random.SeedSequence(0))
    n_c = np.bincount(codes[:, 1], minlength=2)
    np.testing.assert_allclose(fitted.table(1), [(n_c + 1) / (50 + 2)], rtol=1e-12)
    vi = fit_hier_vi(family_counts(codes, 0, (1,), np.array([3, 2])))
    np.testing.assert_allclose(fitted.table(0), vi.theta, rtol=1e-12)
    assert fitted.cpts[0].info.converged and fitted.cpts[0].info.iterations == vi.n_iter
    assert all(np.allclose(fitted.table(node).sum(axis=1), 1) for node in (0, 1))
    bdeu_root = make_estimator("hier", {"hier": {"root": "bdeu4"}})
    with_bdeu = fit_network(structure, codes, bdeu_root, np.random.SeedSequence(0))
    np.testing.assert_allclose(with_bdeu.table(1), [(n_c + 2) / (50 + 4)], rtol=1e-12)
    np.testing.assert_allclose(with_bdeu.table(0), vi.theta, rtol=1e-12)


def test_hier_over_all_configurations_answers_an_unseen_one_from_the_dense_fit() -> None:
    cards = [3, 2, 4, 2]
    codes = _codes(cards, 40, 1)
    codes = codes[~((codes[:, 1] == 1) & (codes[:, 2] == 3))]  # configuration (1, 3) unseen
    structure = BNStructure(("x", "a", "b", "c"), tuple(cards), ((1, 2), (), (), ()))
    estimator = make_estimator("hier", {"hier": {"configurations": "all"}})
    fitted = fit_network(structure, codes, estimator, np.random.SeedSequence(0), nodes=(0,))
    dense = fit_hier_vi(family(codes, 0, (1, 2), tuple(cards)).dense())
    np.testing.assert_array_equal(fitted.table(0), dense.theta)
    np.testing.assert_allclose(fitted.table(0)[7], dense.kappa, rtol=1e-12)


def test_hdp_kdb_classifier_posteriors_are_normalised_and_informative() -> None:
    codes, cards = _data(600, 1)
    structure = kdb(codes, ["f0", "f1", "c"], list(cards), 2, k=1)
    settings = {"hdp": {**HDP["hdp"], "iterations": 300}}
    seeds = {
        0: np.random.SeedSequence(1),
        1: np.random.SeedSequence(2),
        2: np.random.SeedSequence(3),
    }
    fitted = fit_network(structure, codes, make_estimator("hdp", settings), seeds)
    log_post = fitted.class_log_posterior(codes)
    np.testing.assert_allclose(np.exp(log_post).sum(axis=1), 1.0, rtol=1e-12)
    assert np.mean(log_post.argmax(axis=1) == codes[:, 2]) > 0.5
    tables = {node: fitted.table(node) for node in fitted.cpts}  # the trees' answers, densely
    np.testing.assert_allclose(log_post, dense_log_posterior(structure, tables, codes), rtol=1e-10)
    # the class (a root) takes the m = 1 estimate (petitjean2018 decision §1.8)
    n_c = np.bincount(codes[:, 2], minlength=3)
    np.testing.assert_allclose(fitted.table(2), m_estimate_theta(n_c[None, :], 1.0), rtol=1e-12)
    for node in (0, 1):
        info = fitted.cpts[node].info
        assert set(info.details) == {"tree_seconds", "sampling_seconds", "tree_nodes"}
        assert info.details["tree_nodes"] > 1 and info.iterations == 300 and info.seconds > 0


def test_each_node_draws_from_its_own_stateless_child_seed() -> None:
    """Node i's sampler gets SeedSequence(seed.entropy, spawn_key=(*seed.spawn_key, i)), the
    same whether the seed is one stream or a per-node dict, and whatever the threads."""
    codes, cards = _data(200, 2)
    structure = naive_bayes(["f0", "f1", "c"], list(cards), 2)
    estimator = make_estimator("hdp", HDP)
    seed = np.random.SeedSequence(7, spawn_key=(3,))
    fitted = fit_network(structure, codes, estimator, seed)
    children = {
        node: np.random.SeedSequence(7, spawn_key=(3, node)) for node in range(structure.n_nodes)
    }
    contexts = np.array([[0], [1], [2]])
    for node in (0, 1):
        fam = family(codes, node, structure.parents[node], structure.cardinalities)
        alone = fit_cpt(estimator, fam, children[node])
        np.testing.assert_array_equal(fitted.cpts[node].query(contexts), alone.query(contexts))
    by_dict = fit_network(structure, codes, estimator, children, threads=2)
    np.testing.assert_array_equal(by_dict.predict_proba(codes), fitted.predict_proba(codes))
    other = fit_network(structure, codes, estimator, np.random.SeedSequence(7, spawn_key=(4,)))
    assert not np.array_equal(other.table(0), fitted.table(0))


def test_only_the_chosen_nodes_are_fitted_and_scored() -> None:
    """``nodes`` fits those nodes in that order; the class posterior sums over them only."""
    cards = [3, 4, 2, 2]
    codes = _codes(cards, 90, 6)
    structure = naive_bayes(["a", "b", "c", "y"], cards, 3)
    kept = (2, 0)
    fitted = fit_network(
        structure, codes, make_estimator("laplace", {}), np.random.SeedSequence(0),
        nodes=(*kept, structure.class_index),
    )  # fmt: skip
    assert list(fitted.cpts) == [2, 0, 3]
    tables = {node: fitted.table(node) for node in fitted.cpts}
    expected = dense_log_posterior(structure, tables, codes)
    np.testing.assert_allclose(fitted.class_log_posterior(codes), expected, rtol=1e-12)
    everything = fit_network(
        structure, codes, make_estimator("laplace", {}), np.random.SeedSequence(0)
    )
    assert not np.allclose(everything.class_log_posterior(codes), expected)  # node 1 counts there


def test_a_network_refuses_what_it_cannot_answer() -> None:
    codes = _codes([2, 3], 20, 0)
    no_class = BNStructure(("a", "b"), (2, 3), ((), (0,)))
    fitted = fit_network(no_class, codes, make_estimator("laplace", {}), np.random.SeedSequence(0))
    assert fitted.table(1).shape == (2, 3) and fitted.table(0).shape == (1, 2)
    with pytest.raises(ValueError, match="no class node"):
        fitted.predict_proba(codes)
    structure = naive_bayes(["a", "y"], [2, 3], 1)
    classifier = fit_network(
        structure, codes, make_estimator("laplace", {}), np.random.SeedSequence(0)
    )
    with pytest.raises(ValueError, match="domains are needed exactly when"):
        classifier.predict_proba(codes, domains=np.zeros(20, dtype=int))
    without_class = fit_network(
        structure, codes, make_estimator("laplace", {}), np.random.SeedSequence(0), nodes=(0,)
    )
    with pytest.raises(ValueError, match="the class node was not fitted"):
        without_class.predict_proba(codes)
    with pytest.raises(ValueError, match=r"seed: no stream for node 1 \('y'\)"):
        fit_network(structure, codes, make_estimator("laplace", {}), {0: np.random.SeedSequence(0)})
