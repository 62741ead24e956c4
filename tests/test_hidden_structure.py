"""HiDDeN structure learning (dombowsky2025 §3): posterior summaries of indicator draws, Markov
blankets by Algorithm 2, candidate parent sets by Algorithm 3, and bad input."""

from __future__ import annotations

import numpy as np
import pytest

from hierbn.structure_learning.hidden_parents import (
    hamming,
    markov_blanket,
    nonempty_subsets,
    posterior_of,
    sample_parent_sets,
    sample_parents,
)


def test_posterior_summaries_of_known_indicator_draws() -> None:
    draws = np.array([[1, 0, 1], [1, 0, 1], [1, 1, 0], [0, 0, 1], [1, 0, 1]])
    post = posterior_of([4, 7, 9], draws)
    np.testing.assert_allclose(post.edge_probability, [0.8, 0.2, 0.8])
    assert post.map_set == (4, 9) and post.map_probability == pytest.approx(0.6)
    assert post.mpm_set == (4, 9)
    assert post.sets[0] == ((4, 9), 0.6)
    assert sorted(s for s, _ in post.sets) == [(4, 7), (4, 9), (9,)]
    assert sum(f for _, f in post.sets) == pytest.approx(1.0)


def test_map_ties_go_to_the_smaller_then_first_set() -> None:
    draws = np.array([[1, 1], [0, 1], [1, 0], [1, 1], [0, 1], [1, 0]])
    assert posterior_of([0, 1], draws).map_set == (0,)  # (0,), (1,), (0, 1) each 1/3


def test_hamming_is_the_size_of_the_symmetric_difference() -> None:
    assert hamming([1, 2, 5], [2, 3]) == 3
    assert hamming([], []) == 0


def test_nonempty_subsets_by_size_then_lexicographic() -> None:
    assert nonempty_subsets([0, 1, 2]) == [(0,), (1,), (2,), (0, 1), (0, 2), (1, 2), (0, 1, 2)]
    assert len(nonempty_subsets(range(4))) == 15  # App. F.3: STKV has M = 15


def _blanket_data(n: int, seed: int) -> np.ndarray:
    """x0, x1 drive the binary target (column 4) strongly; x2, x3 are noise."""
    rng = np.random.default_rng(seed)
    x = rng.integers(0, 2, (n, 4))
    x[:, 1] = rng.integers(0, 3, n)
    logit = -2.0 + 3.0 * x[:, 0] + 1.5 * x[:, 1]
    y = (rng.random(n) < 1 / (1 + np.exp(-logit))).astype(np.int64)
    return np.column_stack([x, y])


def test_markov_blanket_recovers_the_true_parents_of_a_strong_model() -> None:
    data = _blanket_data(2000, 3)
    fit, post = markov_blanket(data, 4, 0.3, np.random.SeedSequence(5), n_iter=2000, burn=200)
    assert post.candidates == (0, 1, 2, 3)
    assert post.map_set == (0, 1) and post.mpm_set == (0, 1)
    assert post.edge_probability[:2].min() > 0.99 and post.edge_probability[2:].max() < 0.3
    assert fit.z.shape == (2000, 4) and np.all((fit.acceptance > 0.2) & (fit.acceptance < 1))


def test_sample_parents_uses_only_the_given_candidates() -> None:
    data = _blanket_data(500, 4)
    _, post = sample_parents(data, 4, [2, 0], 0.3, np.random.SeedSequence(1), n_iter=500, burn=50)
    assert post.candidates == (2, 0) and set(post.map_set) <= {0, 2}


def test_parent_sets_edge_probabilities_sum_the_set_frequencies() -> None:
    data = [_blanket_data(300, s) for s in (1, 2)]
    sets = nonempty_subsets([0, 1, 2])
    seeds = [np.random.SeedSequence(s) for s in (1, 2)]
    fit, posts = sample_parent_sets(data, 4, sets, 0.3, seeds, n_iter=3000, burn=200)
    for post in posts:
        assert post.frequency.sum() == pytest.approx(1.0)
        for v in (0, 1, 2):
            inside = sum(f for s, f in zip(sets, post.frequency, strict=True) if v in s)
            assert post.edge_probability[v] == pytest.approx(inside)
        assert post.map_set == sets[int(np.argmax(post.frequency))]
        assert {0, 1} <= set(post.map_set)
        np.testing.assert_allclose(post.rao_blackwell.sum(), 1.0)
    assert fit.models.shape == (2, 3000)


SEED = np.random.SeedSequence(0)
RUN = {"n_iter": 10, "burn": 0}
BAD_CALLS = [
    (lambda d: markov_blanket(d, 9, 0.3, SEED, **RUN), "target"),
    (lambda d: sample_parents(d, 4, [4, 0], 0.3, SEED, **RUN), "candidates"),
    (lambda d: markov_blanket(d[:, :1], 0, 0.3, SEED, **RUN), "data"),
    (lambda d: markov_blanket(d - 1, 4, 0.3, SEED, **RUN), "data"),
    (lambda d: sample_parent_sets([d], 4, [(0,), (0,)], 0.3, [SEED], **RUN), "parent_sets"),
    (lambda d: sample_parent_sets([d], 4, [(4,)], 0.3, [SEED], **RUN), "child"),
]


@pytest.mark.parametrize(("call", "message"), BAD_CALLS)
def test_bad_input_names_the_argument(call, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        call(_blanket_data(50, 0))
