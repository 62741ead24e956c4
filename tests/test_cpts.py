"""The CPT estimators (hierbn.cpts): each against a dense oracle or a closed form, answers for
unseen parent configurations, the registry and the family tables they are fitted on (networks
built from them: tests/test_fit_network.py)."""

from __future__ import annotations

import itertools

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from hierbn.bn.counting import family_counts, validate_codes
from hierbn.cpts import ESTIMATORS, fit_cpt, make_estimator
from hierbn.cpts.base import Family, FittedCPT, TableCPT, family
from hierbn.estimators.bdeu import bdeu_theta, laplace_theta
from hierbn.estimators.hdp import fit_hdp
from hierbn.estimators.hier_vi import fit_hier_vi
from hierbn.estimators.m_estimate_tree import fit_m_estimate

SETTINGS = {
    "m": {"m": 1.0, "backoff": "literal"},
    "hdp": {"iterations": 60, "tying": "level", "prior": [0.0, 0.0], "conc_every": 5},
    "hidden": {"iterations": 200, "burn": 20, "step_size": "fixed", "eps": 0.3, "b": 1.0,
               "rho_rule": "code"},
}  # fmt: skip
CARDS = (3, 2, 4)  # child, parent 1, parent 2: 8 configurations, some left unseen below


def _codes(n: int = 40, seed: int = 0) -> np.ndarray:
    rng = np.random.default_rng(seed)
    codes = np.column_stack([rng.integers(0, c, n) for c in CARDS])
    keep = ~((codes[:, 1] == 1) & (codes[:, 2] >= 2))  # configurations (1, 2), (1, 3) unseen
    return validate_codes(codes[keep], np.array(CARDS))


def _all_contexts() -> np.ndarray:
    return np.array(list(itertools.product(range(CARDS[1]), range(CARDS[2]))))


@pytest.mark.parametrize(("name", "oracle"), [("laplace", laplace_theta),
                                              ("bdeu1", lambda c: bdeu_theta(c, 1.0)),
                                              ("bdeu10", lambda c: bdeu_theta(c, 10.0))])  # fmt: skip
def test_closed_form_estimators_equal_their_dense_tables(name, oracle) -> None:
    codes = _codes()
    fam = family(codes, 0, (1, 2), CARDS)
    assert fam.configs.shape[0] == 6 and fam.n_configurations == 8  # two unseen
    got = make_estimator(name, SETTINGS).fit(fam, np.random.SeedSequence(0)).query(_all_contexts())
    dense = oracle(family_counts(codes, 0, (1, 2), np.array(CARDS)))  # theta[y, x]
    assert dense.shape == (8, 3)
    np.testing.assert_allclose(got, dense, rtol=1e-12)


def test_hierarchical_vi_on_observed_configurations_equals_the_dense_fit() -> None:
    codes = _codes(120)
    fam = family(codes, 0, (1, 2), CARDS)
    got = make_estimator("hier", SETTINGS).fit(fam, np.random.SeedSequence(0))
    dense = fit_hier_vi(family_counts(codes, 0, (1, 2), np.array(CARDS)))
    # an empty row adds nothing to alpha's likelihood: it only gets E[alpha]/s = kappa
    np.testing.assert_allclose(got.query(_all_contexts()), dense.theta, atol=1e-6)
    assert got.info.converged and got.info.iterations > 0


def test_hierarchical_vi_over_all_configurations_is_the_dense_fit_exactly() -> None:
    codes = _codes(120)
    fam = family(codes, 0, (1, 2), CARDS)
    estimator = make_estimator("hier", {"hier": {"configurations": "all"}})
    got = estimator.fit(fam, np.random.SeedSequence(0))
    dense = fit_hier_vi(fam.dense())
    np.testing.assert_array_equal(got.query(_all_contexts()), dense.theta)
    assert got.info.iterations == dense.n_iter and got.info.details["tau"] == dense.tau


def test_context_tree_estimators_equal_their_kernels_on_the_raw_rows() -> None:
    codes = _codes(200)
    fam = family(codes, 0, (1, 2), CARDS)
    contexts = _all_contexts()
    m = make_estimator("m", SETTINGS).fit(fam, np.random.SeedSequence(0))
    trie = fit_m_estimate(codes[:, 0], codes[:, 1:], np.array(CARDS[1:]), 3, 1.0, "literal")
    np.testing.assert_array_equal(m.query(contexts), trie.query(contexts))
    seed = np.random.SeedSequence(4)
    hdp = make_estimator("hdp", SETTINGS).fit(fam, seed)
    # the tree keeps counts only: the rows' order does not matter, the seed fixes the chain
    order = np.random.default_rng(1).permutation(codes.shape[0])
    raw = fit_hdp(codes[order, 0], codes[order, 1:], np.array(CARDS[1:]), 3, n_iter=60,
                  tying="level", prior=(0.0, 0.0), conc_every=5, seed=seed)  # fmt: skip
    np.testing.assert_allclose(hdp.query(contexts), raw.query(contexts), rtol=1e-12)
    assert set(hdp.info.details) == {"tree_seconds", "sampling_seconds", "tree_nodes"}
    assert hdp.info.details["tree_nodes"] == raw.tree.level.size and hdp.info.iterations == 60


def test_hidden_answers_are_eq14_over_its_own_draws() -> None:
    from hierbn.estimators.hidden import fit_fixed_parents

    codes = _codes(80)
    fam = family(codes, 0, (1, 2), CARDS)
    seed = np.random.SeedSequence(9)
    cpt = make_estimator("hidden", SETTINGS).fit(fam, seed)
    fit = fit_fixed_parents([fam.counts], 0.3, [seed], n_iter=200, burn=20)
    t = fit.t[0, 20:]  # the kept draws
    n = fam.counts.astype(float)
    eq14 = np.mean(
        (n[None] + t[:, None, :]) / (n.sum(1)[None, :, None] + t.sum(1)[:, None, None]), 0
    )
    np.testing.assert_allclose(cpt.query(fam.configs), eq14, rtol=1e-10)
    unseen = cpt.query(np.array([[1, 3]]))[0]
    np.testing.assert_allclose(unseen, np.mean(t / t.sum(1, keepdims=True), axis=0), rtol=1e-12)
    np.testing.assert_array_equal(cpt.info.draws.posterior["t"][0], t)


@pytest.mark.parametrize("name", ["laplace", "bdeu1", "bdeu10", "m", "hier", "hdp", "hidden"])
def test_every_estimator_answers_every_configuration_with_a_distribution(name) -> None:
    codes = _codes(60, seed=3)
    fam = family(codes, 0, (1, 2), CARDS)
    probs = (
        make_estimator(name, SETTINGS).fit(fam, np.random.SeedSequence(2)).query(_all_contexts())
    )
    assert probs.shape == (8, 3) and np.all(probs > 0)
    if name != "m":  # the literal back-off need not normalise (petitjean2018 §1.7)
        np.testing.assert_allclose(probs.sum(axis=1), 1.0, rtol=1e-9)
    root = make_estimator(name, SETTINGS).fit(
        family(codes, 0, (), CARDS), np.random.SeedSequence(2)
    )
    np.testing.assert_allclose(root.query(np.zeros((2, 0), dtype=np.int64)).sum(axis=1), 1.0)


def test_estimators_are_found_by_name_and_unknown_names_are_refused() -> None:
    assert set(ESTIMATORS) == {"laplace", "bdeu", "hier", "hier_domains", "m", "hdp", "hidden"}
    assert make_estimator("bdeu0.5", {}).iss == 0.5 and make_estimator("bdeu10", {}).iss == 10
    assert make_estimator("hier", {}).configurations == "observed"
    assert make_estimator("hier", {}).root.name == "laplace"
    root = make_estimator("hier", {"hier": {"root": "bdeu4", "configurations": "all"}}).root
    assert root.iss == 4.0
    with pytest.raises(ValueError, match=r"unknown CPT estimator 'hdpx'.*laplace"):
        make_estimator("hdpx", SETTINGS)
    with pytest.raises(ValueError, match=r"unknown CPT estimator 'ml'"):
        make_estimator("ml", {})
    with pytest.raises(ValueError, match="bdeu<equivalent sample size>"):
        make_estimator("bdeux", {})
    with pytest.raises(ValueError, match="needs setting 'prior'"):
        make_estimator("hdp", {"hdp": {}})
    with pytest.raises(ValueError, match="needs setting 'backoff'"):
        make_estimator("m", {"m": {"m": 1.0}})
    for bad in ({"root": "ml"}, {"configurations": "some"}, {"roots": "laplace"}):
        with pytest.raises(ValueError, match="settings are configurations"):
            make_estimator("hier", {"hier": bad})


def test_fit_cpt_times_the_fit_and_keeps_its_answers() -> None:
    fam = family(_codes(), 0, (1, 2), CARDS)
    estimator = make_estimator("hier", {})
    timed = fit_cpt(estimator, fam, np.random.SeedSequence(0))
    plain = estimator.fit(fam, np.random.SeedSequence(0))
    assert isinstance(timed, FittedCPT) and timed.info.seconds > 0 and plain.info.seconds == 0
    np.testing.assert_array_equal(timed.query(_all_contexts()), plain.query(_all_contexts()))
    assert timed.info.iterations == plain.info.iterations


def test_a_family_lists_observed_rows_and_its_dense_table_every_configuration() -> None:
    codes = _codes()
    fam = family(codes, 0, (1, 2), CARDS)
    dense = fam.dense()
    np.testing.assert_array_equal(dense, family_counts(codes, 0, (1, 2), np.array(CARDS)))
    assert dense.shape == (8, 3) and not dense[[6, 7]].any()  # (1, 2), (1, 3) unseen
    values, contexts = fam.rows()
    order = np.lexsort((codes[:, 0], codes[:, 2], codes[:, 1]))
    np.testing.assert_array_equal(np.column_stack([contexts, values]), codes[order][:, [1, 2, 0]])
    root = family(codes, 0, (), CARDS)
    assert root.n_configurations == 1 and root.configs.shape == (1, 0)
    np.testing.assert_array_equal(root.dense(), np.bincount(codes[:, 0], minlength=3)[None, :])


@settings(max_examples=60, deadline=None)
@given(st.lists(st.integers(1, 4), min_size=0, max_size=3), st.integers(0, 2**31 - 1))
def test_a_table_cpt_answers_seen_rows_from_its_table_and_unseen_from_the_default(radix, seed):
    rng = np.random.default_rng(seed)
    radix = tuple(radix)
    n_configs = int(np.prod(radix)) if radix else 1
    everything = np.array(list(itertools.product(*(range(r) for r in radix)))).reshape(
        n_configs, len(radix)
    )
    seen = np.sort(rng.choice(n_configs, rng.integers(1, n_configs + 1), replace=False))
    theta = rng.dirichlet(np.ones(3), size=seen.size)
    fam = Family(np.ones((seen.size, 3), dtype=np.int64), everything[seen], radix, 3)
    cpt = TableCPT.from_family(fam, theta, np.full(3, 1 / 3))
    answers = cpt.query(everything)
    expected = np.full((n_configs, 3), 1 / 3)
    expected[seen] = theta
    np.testing.assert_array_equal(answers, expected)


@settings(max_examples=80, deadline=None)
@given(
    st.lists(st.integers(1, 4), min_size=2, max_size=5),
    st.integers(0, 40),
    st.integers(0, 2**31 - 1),
)
def test_dense_and_sparse_counting_give_the_same_family(cards, n, seed) -> None:
    """family() counts a small parent space densely and a large one by sorting: same table."""
    from hierbn.bn.sparse_tables import parent_child_table

    rng = np.random.default_rng(seed)
    codes = np.column_stack([rng.integers(0, c, n) for c in cards]).reshape(n, len(cards))
    node, parents = 0, tuple(int(p) for p in rng.permutation(range(1, len(cards))))
    got = family(codes, node, parents, tuple(cards))
    sparse = parent_child_table(codes[:, node], codes[:, list(parents)], cards[node])
    np.testing.assert_array_equal(got.counts, sparse.counts)
    np.testing.assert_array_equal(got.configs, sparse.configs)
    assert got.radix == tuple(cards[p] for p in parents) and got.card == cards[0]
