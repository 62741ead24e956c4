"""hierbn.diagnostics: ArviZ's rank-normalised R-hat and bulk/tail ESS for any sampler."""

import numpy as np
import pytest

from hierbn.diagnostics import convergence, ess_bulk, ess_tail, rhat
from hierbn.estimators.hdp import fit_hdp


def test_chains_stuck_in_different_places_have_a_large_rhat() -> None:
    rng = np.random.default_rng(0)
    mixed = rng.normal(size=(4, 1000))
    stuck = mixed + np.arange(4)[:, None]
    assert rhat(mixed)[0] < 1.01
    assert rhat(stuck)[0] > 1.5
    assert convergence(np.stack([mixed, stuck], axis=-1)).rhat_max > 1.5


def test_a_slow_drift_inside_each_chain_is_caught_by_split_rhat() -> None:
    rng = np.random.default_rng(1)
    drift = rng.normal(size=(4, 1000)) + np.linspace(0, 3, 1000)
    assert rhat(drift)[0] > 1.01


def test_iid_draws_have_an_ess_close_to_their_number() -> None:
    draws = np.random.default_rng(2).normal(size=(4, 1000, 3))
    assert np.all(np.abs(ess_bulk(draws) / 4000 - 1) < 0.1)
    assert np.all(np.abs(ess_tail(draws) / 4000 - 1) < 0.2)


def test_autocorrelated_draws_have_a_smaller_ess() -> None:
    """AR(1) with phi = 0.9: ESS ~ n (1 - phi) / (1 + phi) = n / 19."""
    rng = np.random.default_rng(3)
    x = np.zeros((4, 4000))
    for i in range(1, 4000):
        x[:, i] = 0.9 * x[:, i - 1] + rng.normal(size=4)
    assert 0.5 < ess_bulk(x)[0] / (16000 / 19) < 1.5


def test_constant_parameters_are_ignored_and_bad_input_is_refused() -> None:
    draws = np.random.default_rng(4).normal(size=(2, 500, 2))
    draws[:, :, 1] = 0.3
    summary = convergence(draws)
    assert np.isnan(rhat(draws)[1]) and summary.rhat_max == rhat(draws)[0]
    assert convergence(np.zeros((2, 100))).as_metrics() == {
        "rhat_max": 1.0,
        "ess_bulk_min": 200.0,
        "ess_tail_min": 200.0,
    }
    assert np.isnan(convergence(np.full((2, 100), np.nan)).rhat_max)
    with pytest.raises(ValueError, match="chain, draw"):
        rhat(np.zeros(10))


def test_hdp_gibbs_chains_can_be_diagnosed() -> None:
    """Four HDP chains (Table 1's D1 of petitjean2018) from different seeds: the traced
    concentration mixes; tracing leaves the chain unchanged."""
    x = np.repeat([0, 1, 0, 1], [2, 0, 20, 5])
    ctx = np.repeat([0, 0, 1, 1], [2, 0, 20, 5])[:, None]
    kwargs = {"n_iter": 2000, "tying": "none", "conc_every": 1}
    fits = [fit_hdp(x, ctx, np.array([2]), 2, seed=s, trace=True, **kwargs) for s in range(4)]
    trace = np.stack([f.alpha_trace[200:] for f in fits])  # chain, draw, concentration
    assert trace.shape == (4, 1800, fits[0].alpha.size)
    summary = convergence(trace)
    assert summary.rhat_max < 1.05 and summary.ess_bulk_min > 100
    untraced = fit_hdp(x, ctx, np.array([2]), 2, seed=0, **kwargs)
    assert untraced.alpha_trace is None and np.array_equal(untraced.pbar, fits[0].pbar)
