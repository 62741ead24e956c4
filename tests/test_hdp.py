import hashlib

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from numba import njit
from scipy.special import gammaln, logsumexp
from scipy.stats import ks_2samp

from hierbn.estimators.hdp import (
    build_tree,
    concentration_ids,
    data_counts,
    deepest_nodes,
    fit_hdp,
    frozen_nodes,
    node_path,
    sweep_entries,
)
from hierbn.estimators.hdp_kernels import (
    EXP_FLOOR,
    POOLED_CUSTOMERS,
    RATIO_SUM_MAX,
    draw_candidate,
    exp_below_top,
    ratio_prefix_sums,
    sample_concentrations,
    sample_tables,
    table_log_weights,
)
from hierbn.estimators.stirling import StirlingCache, log_stirling_table, stirling_ratios


def test_stirling_numbers() -> None:
    """Spec §2.4 unit values and the identity sum_t a^t S(n, t) = Gamma(a + n)/Gamma(a)."""
    table = log_stirling_table(100, 100)
    assert np.exp(table[[5, 5, 10, 10], [2, 3, 3, 5]]) == pytest.approx(
        [50, 35, 1_172_700, 269_325]
    )
    assert table[20, 1] == pytest.approx(gammaln(20))
    assert table[100, 10] == pytest.approx(359.3213, abs=1e-4)
    assert table[3, 0] == -np.inf and table[2, 3] == -np.inf and table[0, 0] == 0
    for n in (1, 10, 100):
        ident = logsumexp(np.arange(n + 1) * np.log(2.5) + table[n, : n + 1])
        assert ident == pytest.approx(gammaln(2.5 + n) - gammaln(2.5), abs=1e-10)


def _rows(counts):
    x, y = [], []
    for yv, per_value in enumerate(counts):
        for xv, c in enumerate(per_value):
            x += [xv] * c
            y += [yv] * c
    return np.array(x), np.array(y)[:, None]


@pytest.mark.parametrize(
    ("counts", "expected"),
    [([[2, 0], [20, 5]], [0.885, 0.794]), ([[2, 0], [4, 9]], [0.853, 0.343])],
)
def test_table1_worked_example(counts, expected) -> None:
    """petitjean2018 Table 1 with the spec's verified setting (None tying, concentrations every
    iteration, improper prior, 50k iterations): |delta| <= 0.015 averaged over 4 seeds."""
    x, ctx = _rows(counts)
    runs = [
        fit_hdp(
            x,
            ctx,
            np.array([2]),
            2,
            n_iter=50_000,
            tying="none",
            conc_every=1,
            prior=(0.0, 0.0),
            seed=np.random.SeedSequence(s),
        ).query(np.array([[0], [1]]))[:, 0]
        for s in range(4)
    ]
    assert np.allclose(np.mean(runs, axis=0), expected, atol=0.015)


def test_tree_invariants_and_queries() -> None:
    rng = np.random.default_rng(0)
    ctx = np.column_stack([rng.integers(0, 2, 300), rng.integers(0, 3, 300)])
    x = (ctx[:, 0] + rng.integers(0, 2, 300)) % 3
    est = fit_hdp(x, ctx, np.array([2, 3]), 3, n_iter=400, seed=np.random.SeedSequence(1))
    tree = est.tree
    assert tree.level.tolist() == sorted(tree.level.tolist()) and tree.parent[0] == -1
    for j in range(1, tree.level.size):  # eq. (10): internal n = sum of children's t
        kids = np.flatnonzero(tree.parent == j)
        if kids.size:
            assert np.array_equal(est.n[j], est.t[kids].sum(axis=0))
    assert np.all((est.t >= 0) & (est.t <= est.n)) and np.array_equal(est.t > 0, est.n > 0)
    assert np.array_equal(est.t[0], np.minimum(1, est.n[0]))
    probs = est.query(np.array([[0, 1], [1, 2], [1, 9]]))  # the last context was never seen
    assert np.allclose(probs.sum(axis=1), 1.0) and np.all(probs > 0)
    parent_of_unseen = est.query(np.array([[1]]))[0]
    assert np.allclose(probs[2], parent_of_unseen)  # falls back to the deepest existing node


@settings(max_examples=60, deadline=None)
@given(
    st.integers(0, 10_000), st.lists(st.integers(2, 6), min_size=1, max_size=4), st.integers(1, 400)
)
def test_the_deepest_node_is_the_last_of_the_path(seed, radix, rows) -> None:
    """deepest_nodes (a gather on dense levels, a search on sparse ones) is the last existing
    node of node_path for seen, unseen and out-of-range contexts, and an estimate's
    log_probability is the log of its query's entry, bit for bit."""
    rng = np.random.default_rng(seed)
    radix = np.array(radix)
    contexts = rng.integers(0, radix, (rows, radix.size))
    values = rng.integers(0, 3, rows)
    est = fit_hdp(values, contexts, radix, 3, n_iter=20, seed=np.random.SeedSequence(seed))
    asked = rng.integers(0, radix + 1, (200, radix.size))  # radix itself: out of range
    path = node_path(est.tree, asked)
    last = path[np.arange(path.shape[0]), (path >= 0).sum(axis=1) - 1]
    np.testing.assert_array_equal(deepest_nodes(est.tree, asked), last)
    np.testing.assert_array_equal(
        est.log_probability(asked, np.resize(values, 200)),
        np.log(est.query(asked)[np.arange(200), np.resize(values, 200)]),
    )


def test_the_child_table_lists_every_nodes_children() -> None:
    """child[first[node] + v] is the node whose parent is ``node`` and whose last context value
    is v, -1 for every other pair of an internal node; past CHILD_TABLE_MAX entries there is no
    table and the deepest nodes come from the path."""
    rng = np.random.default_rng(3)
    radix = np.array([2, 6, 3, 6])
    contexts = rng.integers(0, radix, (50, 4))
    tree = build_tree(rng.integers(0, 3, 50), contexts, radix, 3)
    first, child = tree.children
    internal = np.diff(tree.level_start)[:4]
    assert child.size == (internal * radix).sum() and (child >= 0).sum() == tree.level.size - 1
    for node in range(1, tree.level.size):
        d = tree.level[node]
        code = tree.level_codes[d][node - tree.level_start[d]]
        assert child[first[tree.parent[node]] + code % radix[d - 1]] == node
    big = build_tree(
        np.zeros(3, dtype=np.int64), np.array([[5_000_000]] * 3), np.array([2**23 + 1]), 1
    )
    assert big.children is None
    np.testing.assert_array_equal(deepest_nodes(big, np.array([[5_000_000], [7]])), [1, 0])


def test_the_chain_is_fixed_by_its_seed_sequence_which_is_required() -> None:
    rng = np.random.default_rng(2)
    ctx = np.column_stack([rng.integers(0, 2, 200), rng.integers(0, 3, 200)])
    x = (ctx[:, 1] + rng.integers(0, 2, 200)) % 3
    fit = lambda seed: fit_hdp(x, ctx, np.array([2, 3]), 3, n_iter=100, seed=seed)  # noqa: E731
    a, b = fit(np.random.SeedSequence(5)), fit(np.random.SeedSequence(5))
    assert np.array_equal(a.t, b.t) and np.array_equal(a.pbar, b.pbar)
    other = fit(np.random.SeedSequence(5, spawn_key=(1,)))
    assert not np.array_equal(a.pbar, other.pbar)
    with pytest.raises(TypeError, match="seed"):
        fit_hdp(x, ctx, np.array([2, 3]), 3, n_iter=10)


def test_the_chain_of_a_fixed_problem_is_the_recorded_one() -> None:
    """Pins the chain: the table counts and concentrations after 600 iterations of a fixed
    4,000-row problem and the means of three nodes (two of them leaves), recorded with issue
    24's pooled Beta auxiliaries (the chain before them drew one Beta per node; its
    distribution is checked against the pooled one below). A kernel change that alters any
    draw changes the digest (on x86-64 with this glibc and Numba)."""
    rng = np.random.default_rng(11)
    ctx = np.column_stack([rng.integers(0, 3, 4000), rng.integers(0, 4, 4000)])
    x = (ctx[:, 0] + ctx[:, 1] + rng.integers(0, 3, 4000)) % 5
    est = fit_hdp(x, ctx, np.array([3, 4]), 5, n_iter=600, seed=np.random.SeedSequence(21))
    assert est.t.sum() == 128
    assert hashlib.sha256(est.t.tobytes() + est.alpha.tobytes()).hexdigest()[:16] == (
        "52d9b6289994e7b6"
    )
    recorded = {  # node: the mean, printed to 17 digits
        0: [
            0.1886853921062382,
            0.15351728078861424,
            0.19159023573554912,
            0.22561363975361792,
            0.24059345161598053,
        ],
        4: [
            0.26810650356901017,
            0.35725575430343676,
            0.37337927013174077,
            0.0006882637911479177,
            0.0005702082046645751,
        ],
        15: [
            0.32648735964045106,
            0.35888507605464326,
            0.31332926981295206,
            0.0005590071840539654,
            0.0007392873078998812,
        ],
    }
    for node, means in recorded.items():
        np.testing.assert_allclose(est.pbar[node], means, rtol=1e-14, atol=0)


def _node_probabilities(est) -> np.ndarray:
    """Eqs. (12)-(14) of the fitted state (n, alpha), in numpy: the oracle of one recorded
    state."""
    tree, ids = est.tree, concentration_ids(est.tree, "level")
    p = np.zeros(est.n.shape, dtype=float)
    k_values = est.n.shape[1]
    p[0] = (est.n[0] + 2.0 / k_values) / (est.n[0].sum() + 2.0)
    for j in range(1, tree.level.size):
        a = est.alpha[ids[j]]
        p[j] = (est.n[j] + a * p[tree.parent[j]]) / (est.n[j].sum() + a)
    return p


@pytest.mark.parametrize(("rows", "cards"), [(2000, 3), (150, 5)])
def test_the_frozen_nodes_sums_are_eq14_of_their_parents_sums(rows, cards) -> None:
    """The frozen nodes' sums (every leaf, and internal nodes none of whose children's table
    counts can move) are added when the concentrations change (flush_frozen), not at every
    state. With one recorded state the means are eqs. (12)-(14) of the final state at every
    node; with the concentrations never redrawn, a frozen node's mean over 300 states is
    eq. (14) of its parent's mean, since its counts never move. The sparse problem has
    frozen internal nodes; the dense one only frozen leaves."""
    rng = np.random.default_rng(4)
    ctx = rng.integers(0, cards, (rows, 3))
    x = (ctx[:, 0] + ctx[:, 2] + rng.integers(0, 2, rows)) % 4
    radix, seed = np.full(3, cards), np.random.SeedSequence(9)
    one = fit_hdp(x, ctx, radix, 4, n_iter=50, burn_in=49, conc_every=7, seed=seed)
    np.testing.assert_allclose(one.pbar, _node_probabilities(one), rtol=1e-12, atol=0)
    fixed = fit_hdp(x, ctx, radix, 4, n_iter=300, conc_every=10**6, seed=seed)
    tree = fixed.tree
    live, frozen, frontier = frozen_nodes(tree, sweep_entries(tree)[0])
    internal = frozen[frozen < tree.level_start[3]]
    assert (internal.size > 0) == (cards == 5)
    assert np.array_equal(np.union1d(live, frozen), np.arange(1, tree.level.size))
    assert np.isin(frontier, np.append(live, 0)).all()
    a = fixed.alpha[concentration_ids(tree, "level")[frozen]][:, None]
    n = fixed.n[frozen]
    expected = (n + a * fixed.pbar[tree.parent[frozen]]) / (n.sum(axis=1, keepdims=True) + a)
    np.testing.assert_allclose(fixed.pbar[frozen], expected, rtol=1e-12, atol=0)
    assert np.allclose(fixed.pbar.sum(axis=1), 1.0)


@njit
def _pooled_alpha_draws(seed, reps, n_tot, t_tot, alpha):
    """``reps`` draws of the first concentration by sample_concentrations, every node on it."""
    np.random.seed(seed)
    nodes = np.arange(1, n_tot.size)
    first = np.array([0, nodes.size])
    counts = np.zeros(POOLED_CUSTOMERS + 1, dtype=np.int64)
    out = np.empty(reps)
    for r in range(reps):
        draw = alpha.copy()
        sample_concentrations(nodes, first, n_tot, t_tot, draw, 0.0, 0.0, 4000.0, counts)
        out[r] = draw[0]
    return out


@pytest.mark.parametrize(
    ("alpha", "customers"),
    [
        (2.0, [1] * 40 + [2] * 10 + [5] * 3 + [40, 300]),  # pooled, two nodes one by one
        (0.3, [1] * 40 + [2] * 10 + [5] * 3),  # below POOLED_ALPHA_MIN: one by one
        (5.0, [1, 30]),  # pooled draws would outnumber two per node: one by one
        (0.8, [1] * 500),  # the deep level of a large data set
    ],
)
def test_pooled_auxiliaries_draw_algorithm5s_conditional(alpha, customers) -> None:
    """The concentration draw of the pooled auxiliaries has the distribution of Algorithm 5's
    one Beta per node (a numpy reference): two-sample Kolmogorov-Smirnov on 20,000 draws each,
    and the means within 5 standard errors."""
    n_tot = np.array([sum(customers), *customers], dtype=np.int64)  # node 0: the root
    t_tot = np.array([1, *[(c + 1) // 2 for c in customers]], dtype=np.int64)
    pooled = _pooled_alpha_draws(5, 20_000, n_tot, t_tot, np.array([alpha]))
    rng = np.random.default_rng(6)
    q = np.maximum(1e-75, rng.beta(alpha, np.array(customers), size=(20_000, len(customers))))
    rate = -np.log(q).sum(axis=1)
    reference = rng.gamma(t_tot[1:].sum(), 1.0 / rate)
    assert ks_2samp(pooled, reference).pvalue > 1e-3
    se = np.hypot(pooled.std(), reference.std()) / np.sqrt(20_000)
    assert abs(pooled.mean() - reference.mean()) < 5 * se


PER_NODE_SAMPLER = {  # problem: 32 chains of 1,000 iterations of the per-node Beta sampler
    # (the kernel before issue 24's pooled auxiliaries): mean over chains of each
    # concentration's post-burn-in mean and of three nodes' means of value 0, with s.e.
    "level-depth2": {
        "alpha": ([179.524, 0.803242], [47.2663, 0.00579144]),
        "pbar": ([0.187909, 0.177573, 0.326488], [0.00100517, 0.00129483, 4.34066e-06]),
    },
    "sameparent-depth3": {
        "alpha": (
            [6.0734, 188.69, 141.704, 1.25545, 1.53092, 1.31734, 1.54942, 1.32794, 1.4529],
            [
                0.514675,
                62.8766,
                33.8728,
                0.0453544,
                0.0710066,
                0.0456391,
                0.0886618,
                0.0628438,
                0.0478252,
            ],
        ),
        "pbar": ([0.266231, 0.143147, 0.449804], [0.00203394, 0.00305714, 0.000273857]),
    },
    "level-depth4-sparse": {
        "alpha": ([12.9395, 19.9697, 28.4266, 1.7353], [2.31322, 1.44317, 1.30255, 0.0139703]),
        "pbar": ([0.502729, 0.500188, 0.711419], [0.000821209, 0.000529656, 0.000280684]),
    },
}


def _problems():
    rng = np.random.default_rng(11)
    ctx = np.column_stack([rng.integers(0, 3, 4000), rng.integers(0, 4, 4000)])
    x = (ctx[:, 0] + ctx[:, 1] + rng.integers(0, 3, 4000)) % 5
    yield "level-depth2", x, ctx, np.array([3, 4]), 5, "level"
    rng = np.random.default_rng(12)
    ctx = np.column_stack(
        [rng.integers(0, 2, 600), rng.integers(0, 3, 600), rng.integers(0, 3, 600)]
    )
    x = (ctx[:, 0] + (ctx[:, 2] > 0) + rng.integers(0, 2, 600)) % 3
    yield "sameparent-depth3", x, ctx, np.array([2, 3, 3]), 3, "sameparent"
    rng = np.random.default_rng(13)
    ctx = rng.integers(0, 4, (1500, 4))
    x = ((ctx[:, 0] + ctx[:, 3]) % 2) ^ (rng.random(1500) < 0.2)
    yield "level-depth4-sparse", x.astype(int), ctx, np.array([4, 4, 4, 4]), 2, "level"


def test_the_posterior_is_the_per_node_samplers_on_three_problems() -> None:
    """Issue 24: the pooled auxiliaries change the random numbers, not the distribution: on
    three problems (depth 2 and 4 with Level tying, depth 3 with SameParent) the means over
    32 chains of the concentrations and of three nodes' probabilities are within 4.5
    combined standard errors of the per-node sampler's (pinned above)."""
    for name, x, ctx, radix, k_values, tying in _problems():
        alphas, pbars = [], []
        for s in range(32):
            seed = np.random.SeedSequence(100 + s, spawn_key=(24,))  # not the pinned chains
            est = fit_hdp(x, ctx, radix, k_values, n_iter=1000, tying=tying, seed=seed, trace=True)
            alphas.append(est.alpha_trace[100:].mean(axis=0))
            nodes = [0, est.tree.level_start[1], est.tree.level.size - 1]
            pbars.append(est.pbar[nodes, 0])
        for label, draws in (("alpha", np.array(alphas)), ("pbar", np.array(pbars))):
            mean, se = (np.array(v) for v in PER_NODE_SAMPLER[name][label])
            ours_se = draws.std(axis=0, ddof=1) / np.sqrt(len(draws))
            z = (draws.mean(axis=0) - mean) / np.hypot(se, ours_se)
            assert np.all(np.abs(z) < 4.5), (name, label, z)


@settings(max_examples=300, deadline=None)
@given(
    st.integers(2, 3_000),
    st.data(),
    st.floats(1e-6, 4000.0),
    st.floats(1e-6, 4000.0),
    st.integers(1, 12),
)
def test_candidate_probabilities_are_algorithm4s(n_child, data, alpha, alpha_parent, window):
    """The sweep's weights of the candidates lo..hi (one logarithm per entry, the rest a
    running product) are Algorithm 4's probabilities written with ln Gamma:
    alpha^c S(n_j, c) S(n_p + c - t, t_p) / Gamma(a_p + N_p + c - t), zero where the parent
    would have fewer customers than tables."""
    cur = data.draw(st.integers(1, n_child))
    n_parent = cur + data.draw(st.integers(0, 3_000))
    t_parent = data.draw(st.integers(1, n_parent))
    parent_total = n_parent + data.draw(st.integers(0, 3_000))
    n = np.array([[n_parent], [n_child]])
    t = np.array([[t_parent], [cur]])
    lo, hi = max(1, cur - window), min(cur + window, n_child)
    log_s = log_stirling_table(n_parent + window + n_child, max(hi, t_parent) + 1)
    weights = np.empty(hi - lo + 1)
    norm_lo = alpha_parent + parent_total - cur + lo
    top = table_log_weights(n, t, 1, 0, 0, np.log(alpha), norm_lo, lo, hi, log_s, weights)
    c = np.arange(lo, hi + 1)
    feasible = n_parent + c - cur >= t_parent
    exact = np.where(
        feasible,
        c * np.log(alpha)
        + log_s[n_child, c]
        + log_s[np.maximum(n_parent + c - cur, 0), t_parent]
        - gammaln(alpha_parent + parent_total + c - cur),
        -np.inf,
    )
    if not feasible.any():
        assert top == -np.inf
        return
    draw_candidate(weights, lo, hi, top, norm_lo, 0.5)  # leaves the linear weights in weights
    want = np.exp(exact - logsumexp(exact))
    np.testing.assert_allclose(weights / weights.sum(), want, atol=1e-12, rtol=1e-9)
    # the ratio path: running sums from the first feasible candidate, the same probabilities
    up, down_t = stirling_ratios(log_s, log_s.shape[0] - 1)
    first = int(c[feasible][0])
    prefix = np.empty(hi - first + 1)
    total = ratio_prefix_sums(
        prefix, up, down_t, n_child, n_parent, t_parent, cur, lo, first, hi, alpha, norm_lo
    )
    steps = np.diff(prefix, prepend=0.0) / total
    if total < RATIO_SUM_MAX:
        np.testing.assert_allclose(steps, want[first - lo :], atol=1e-12, rtol=1e-9)
        assert np.all(want[: first - lo] == 0.0)


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 10_000), st.integers(1, 3), st.integers(2, 5), st.integers(1, 300))
def test_the_sweep_visits_every_entry_that_can_move(seed, depth, k_values, rows) -> None:
    """The table sweep's entries are exactly the non-root (node, value) pairs with data count
    >= 2, in Algorithm 1's order (levels bottom-up, nodes and values ascending), and no state
    of a chain gives any other entry n >= 2 (so skipping them never changes a draw)."""
    rng = np.random.default_rng(seed)
    radix = rng.integers(2, 4, depth)
    contexts = rng.integers(0, radix, (rows, depth))
    x = rng.integers(0, k_values, rows)
    tree = build_tree(x, contexts, radix, k_values)
    data = data_counts(tree)
    expected = [
        (j, k)
        for d in range(depth, 0, -1)
        for j in range(tree.level_start[d], tree.level_start[d + 1])
        for k in range(k_values)
        if data[j, k] >= 2
    ]
    nodes, values = sweep_entries(tree)
    assert list(zip(nodes.tolist(), values.tolist(), strict=True)) == expected
    est = fit_hdp(x, contexts, radix, k_values, n_iter=30, seed=np.random.SeedSequence(seed))
    assert np.all(est.n[1:] <= data[1:])


def test_tying_strategies() -> None:
    tree = build_tree(
        np.array([0, 1, 1, 0]), np.array([[0, 0], [0, 1], [1, 0], [1, 1]]), np.array([2, 2]), 2
    )
    assert concentration_ids(tree, "single")[1:].tolist() == [0] * 6
    assert concentration_ids(tree, "level")[1:].tolist() == [0, 0, 1, 1, 1, 1]
    assert concentration_ids(tree, "none")[1:].tolist() == list(range(6))
    assert concentration_ids(tree, "sameparent")[1:].tolist() == [0, 0, 1, 1, 2, 2]
    with pytest.raises(ValueError):
        concentration_ids(tree, "other")


def test_stirling_cache_grows_to_the_direct_table() -> None:
    """Growing rows and columns in steps gives exactly the table computed in one go."""
    cache = StirlingCache()
    for n, t in [(5, 2), (40, 3), (41, 30), (200, 31), (150, 120)]:
        grown = cache.table(n, t)
        assert grown.shape[0] > n and grown.shape[1] > t
    direct = log_stirling_table(grown.shape[0] - 1, grown.shape[1] - 1)
    assert np.array_equal(grown, direct)
    assert cache.log_s(10, 3) == pytest.approx(np.log(1_172_700))
    assert cache.log_s(3, 4) == -np.inf and cache.log_s(3, 0) == -np.inf


def test_stirling_ratios_are_the_exact_integers_ratios() -> None:
    """up[n, t] = S(n, t + 1) / S(n, t) and down_t[t, n] = S(n + 1, t) / S(n, t) against the
    integers of S(n, t) = S(n - 1, t - 1) + (n - 1) S(n - 1, t), 0 where S(n, t) = 0 or the
    neighbour leaves the table."""
    size = 70
    exact = [[0] * (size + 1) for _ in range(size + 1)]
    exact[0][0] = 1
    for n in range(1, size + 1):
        for t in range(1, n + 1):
            exact[n][t] = exact[n - 1][t - 1] + (n - 1) * exact[n - 1][t]
    log_s = log_stirling_table(size, 40)
    up, down_t = stirling_ratios(log_s, 50)
    assert up.shape == (50, 41) and down_t.shape == (41, 50)
    for n in range(50):
        for t in range(41):
            s_nt = exact[n][t]
            want_up = exact[n][t + 1] / s_nt if s_nt and t < 40 else 0.0
            want_down = exact[n + 1][t] / s_nt if s_nt else 0.0
            assert up[n, t] == pytest.approx(want_up, rel=1e-12)
            assert down_t[t, n] == pytest.approx(want_down, rel=1e-12)


@njit
def _seed_numba(seed: int) -> None:
    np.random.seed(seed)


def _one_entry_draws(alpha_child: float, seeds: range, log_s, up, down_t) -> list[int]:
    """The table count drawn by :func:`sample_tables` (window 40), for each seed, for a node of
    500 customers at one table under a root of 41 customers at one table."""
    drawn = []
    for seed in seeds:
        n, t = np.array([[41], [500]]), np.array([[1], [1]])
        _seed_numba(seed)
        sample_tables(
            np.array([-1, 0]), np.array([-1, 0]), np.array([1]), np.array([0]), n, t,
            n.sum(axis=1), t.sum(axis=1), 1, np.array([alpha_child]), 2.0, log_s, up, down_t,
            40, np.empty(81),
        )  # fmt: skip
        drawn.append(int(t[1, 0]))
    return drawn


@pytest.mark.parametrize("alpha_child", [2.0, 1e12])
def test_the_ratio_path_and_the_logarithms_draw_the_same_table_count(alpha_child) -> None:
    """One entry, 100 seeds: the sweep with the ratio tables draws what it draws from the
    logarithms alone (empty ratio tables). With alpha = 1e12 the running sums overflow (checked
    below), so the sweep must fall back to the logarithms for the entry, which then draw the
    top of the window (read past the overflow, the sums would stop short of it)."""
    log_s = log_stirling_table(700, 200)
    up, down_t = stirling_ratios(log_s, 600)
    prefix = np.empty(41)
    total = ratio_prefix_sums(prefix, up, down_t, 500, 41, 1, 1, 1, 1, 41, alpha_child, 43.0)
    assert (total < RATIO_SUM_MAX) == (alpha_child == 2.0)
    with_ratios = _one_entry_draws(alpha_child, range(100), log_s, up, down_t)
    logs_only = _one_entry_draws(alpha_child, range(100), log_s, up[:0], down_t[:, :0])
    assert with_ratios == logs_only
    assert len(set(with_ratios)) > 3 if alpha_child == 2.0 else set(with_ratios) == {41}


def test_the_chain_does_not_depend_on_which_entries_use_the_ratio_tables() -> None:
    """A chain whose entries all weigh their candidates from the logarithms (no ratio rows)
    equals the default one (ratio tables for counts below 1,024), table counts and means."""
    rng = np.random.default_rng(9)
    ctx = np.column_stack([rng.integers(0, 3, 3000), rng.integers(0, 4, 3000)])
    x = (ctx[:, 0] + rng.integers(0, 3, 3000)) % 4
    kwargs = dict(n_iter=300, seed=np.random.SeedSequence(8))
    logs_only = fit_hdp(x, ctx, np.array([3, 4]), 4, stirling=StirlingCache(ratio_rows=1), **kwargs)
    default = fit_hdp(x, ctx, np.array([3, 4]), 4, stirling=StirlingCache(), **kwargs)
    assert np.array_equal(logs_only.t, default.t) and np.array_equal(logs_only.pbar, default.pbar)


def test_chain_does_not_depend_on_the_stirling_table_size() -> None:
    """A chain that must pause to grow a small shared table equals one run on a big table,
    and large concentrations push table counts past the initial columns."""
    rng = np.random.default_rng(3)
    ctx = rng.integers(0, 3, (3000, 1))
    x = rng.integers(0, 4, 3000)
    seed = np.random.SeedSequence(7)
    kwargs = dict(n_iter=300, tying="level", seed=seed, alpha_init=400.0, prior=(2.0, 0.005))
    small, big = StirlingCache(), StirlingCache()
    big.table(3000, 3000)
    a = fit_hdp(x, ctx, np.array([3]), 4, stirling=small, **kwargs)
    b = fit_hdp(x, ctx, np.array([3]), 4, stirling=big, **kwargs)
    assert a.t.max() > 60 and np.array_equal(a.t, b.t) and np.array_equal(a.pbar, b.pbar)
    assert small.shape[1] < big.shape[1]


@settings(max_examples=30, deadline=None)
@given(st.lists(st.tuples(st.integers(0, 120), st.integers(0, 120)), min_size=1, max_size=6))
def test_any_growth_sequence_gives_the_direct_stirling_table(requests) -> None:
    cache = StirlingCache()
    for n, t in requests:
        table = cache.table(n, t)
    direct = log_stirling_table(table.shape[0] - 1, table.shape[1] - 1)
    assert np.array_equal(table, direct)
    n = table.shape[0] - 1  # the identity sum_t 2.5^t S(n, t) = Gamma(2.5 + n) / Gamma(2.5)
    if table.shape[1] > n:
        ident = logsumexp(np.arange(n + 1) * np.log(2.5) + table[n, : n + 1])
        assert ident == pytest.approx(gammaln(2.5 + n) - gammaln(2.5), rel=1e-12, abs=1e-9)


@settings(max_examples=200, deadline=None)
@given(
    st.lists(st.floats(-750.0, 0.0), min_size=1, max_size=129),
    st.floats(-1e4, 1e4),
)
def test_the_sweeps_exponential_is_libms_to_rounding(xs, top) -> None:
    """exp_below_top(w, top) = exp(w - top) within 5e-16 relative for w - top down to
    EXP_FLOOR, exactly 1 at the top, exactly 0 at -inf and below the floor."""
    x = np.array([*xs, 0.0, -np.inf, -1e-300, -0.3465, -0.3466, -699.99])
    weights = x + top
    out = weights.copy()
    exp_below_top(out, out.size, top)
    shifted = weights - top
    kept = shifted >= EXP_FLOOR
    want = np.exp(shifted[kept])
    np.testing.assert_allclose(out[kept], want, rtol=5e-16, atol=0)
    assert np.all(out[~kept] == 0.0) and out[x.size - 6] == 1.0
