"""hierbn.draws: one record of named draws [chain, draw, ...] with ArviZ's sample statistics,
convertible to an InferenceData; every sampler returns or gives one."""

import numpy as np
import pytest

from hierbn.diagnostics import convergence, rhat
from hierbn.draws import Draws, concat_chains, one_chain
from hierbn.estimators.hidden import fit_fixed_parents


def test_a_record_checks_its_shapes_and_statistic_names() -> None:
    with pytest.raises(ValueError, match="chain, draw"):
        Draws({"a": np.zeros((2, 10)), "b": np.zeros((2, 9))})
    with pytest.raises(ValueError, match="unknown sample statistics"):
        Draws({"a": np.zeros((2, 10))}, {"accept_stat__": np.zeros((2, 10))})
    with pytest.raises(ValueError, match="at least one variable"):
        Draws({})
    record = Draws({"a": np.zeros((2, 10, 3))}, {"lp": np.ones((2, 10))})
    assert (record.n_chains, record.n_draws) == (2, 10)
    assert record.variable("lp").shape == (2, 10) and record.names() == ["a"]


def test_the_inference_data_holds_the_same_draws() -> None:
    rng = np.random.default_rng(0)
    a, lp = rng.normal(size=(3, 50, 2)), rng.normal(size=(3, 50))
    idata = Draws({"a": a}, {"lp": lp}, {"sampler": "test"}).to_inference_data()
    assert np.array_equal(idata.posterior["a"].values, a)
    assert np.array_equal(idata.sample_stats["lp"].values, lp)
    assert idata.attrs["sampler"] == "test"


def test_chains_combine_and_diagnostics_read_them_by_name() -> None:
    rng = np.random.default_rng(1)
    chains = [one_chain({"a": rng.normal(size=200) + shift}) for shift in (0.0, 0.0, 3.0)]
    both = concat_chains(chains[:2])
    assert both.posterior["a"].shape == (2, 200)
    assert rhat(both, ["a"])["a"] < 1.05 and convergence(concat_chains(chains)).rhat_max > 1.5
    with pytest.raises(ValueError, match="different variables"):
        concat_chains([chains[0], one_chain({"b": np.zeros(200)})])


def test_hidden_gives_its_kept_draws_and_log_posterior() -> None:
    counts = np.array([[5, 1], [0, 4], [2, 2]])
    seed = np.random.SeedSequence(3)
    fit = fit_fixed_parents([counts], 0.3, [seed], n_iter=300, burn=50, keep_predictive_draws=True)
    record = fit.draws(0)
    assert np.array_equal(record.posterior["t"][0], fit.t[0, 50:])
    assert np.array_equal(record.sample_stats["lp"][0], fit.log_posterior[0, 50:])
    assert record.posterior["predictive"].shape == (1, 250, 3, 2)
    assert np.array_equal(record.attrs["acceptance_rate"], fit.acceptance[0])
