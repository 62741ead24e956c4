"""hierbn.diagnostics: ArviZ's rank-normalised R-hat and bulk/tail ESS for any sampler, and
coda's AR-spectral ESS of one chain, all read from a draws record with var_names."""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy.linalg import solve_toeplitz
from scipy.signal import lfilter
from statsmodels.tsa.stattools import levinson_durbin

from hierbn.diagnostics import (
    _ar_yw_order_max,
    _autocovariances,
    _levinson_durbin,
    _spectrum0_ar,
    convergence,
    ess_ar_spectral,
    ess_bulk,
    ess_tail,
    rhat,
)
from hierbn.draws import Draws, one_chain
from hierbn.estimators.hdp import fit_hdp


def _x(draws: np.ndarray) -> Draws:
    """``draws[chain, draw, ...]`` as the record's one variable ``x``."""
    return Draws({"x": draws})


def _chain(x: np.ndarray):
    """coda's ESS of one chain ``x[draw]`` or ``x[draw, parameter]``."""
    return ess_ar_spectral(one_chain({"x": x}))["x"]


def test_chains_stuck_in_different_places_have_a_large_rhat() -> None:
    rng = np.random.default_rng(0)
    mixed = rng.normal(size=(4, 1000))
    stuck = mixed + np.arange(4)[:, None]
    assert rhat(_x(mixed))["x"] < 1.01
    assert rhat(_x(stuck))["x"] > 1.5
    assert convergence(_x(np.stack([mixed, stuck], axis=-1))).rhat_max > 1.5


def test_a_slow_drift_inside_each_chain_is_caught_by_split_rhat() -> None:
    rng = np.random.default_rng(1)
    drift = rng.normal(size=(4, 1000)) + np.linspace(0, 3, 1000)
    assert rhat(_x(drift))["x"] > 1.01


def test_iid_draws_have_an_ess_close_to_their_number() -> None:
    draws = np.random.default_rng(2).normal(size=(4, 1000, 3))
    assert np.all(np.abs(ess_bulk(_x(draws))["x"] / 4000 - 1) < 0.1)
    assert np.all(np.abs(ess_tail(_x(draws))["x"] / 4000 - 1) < 0.2)


def test_autocorrelated_draws_have_a_smaller_ess() -> None:
    """AR(1) with phi = 0.9: ESS ~ n (1 - phi) / (1 + phi) = n / 19."""
    rng = np.random.default_rng(3)
    x = np.zeros((4, 4000))
    for i in range(1, 4000):
        x[:, i] = 0.9 * x[:, i - 1] + rng.normal(size=4)
    assert 0.5 < ess_bulk(_x(x))["x"] / (16000 / 19) < 1.5


def test_constant_parameters_are_ignored_and_bad_input_is_refused() -> None:
    draws = np.random.default_rng(4).normal(size=(2, 500, 2))
    draws[:, :, 1] = 0.3
    summary = convergence(_x(draws))
    assert np.isnan(rhat(_x(draws))["x"][1]) and summary.rhat_max == rhat(_x(draws))["x"][0]
    assert convergence(_x(np.zeros((2, 100)))).as_metrics() == {
        "rhat_max": 1.0,
        "ess_bulk_min": 200.0,
        "ess_tail_min": 200.0,
    }
    assert np.isnan(convergence(_x(np.full((2, 100), np.nan))).rhat_max)
    with pytest.raises(ValueError, match="chain, draw"):
        _x(np.zeros(10))
    with pytest.raises(ValueError, match=">= 4 draws"):
        rhat(_x(np.zeros((2, 3))))
    with pytest.raises(KeyError, match="no variable 'y'"):
        rhat(_x(np.zeros((2, 10))), ["y"])


def test_hdp_gibbs_chains_can_be_diagnosed() -> None:
    """Four HDP chains (Table 1's D1 of petitjean2018) from different seeds: the traced
    concentration mixes; tracing leaves the chain unchanged. 20,000 iterations (2,000 burnt):
    2,000-iteration chains pass R-hat < 1.05 and ESS > 100 for a minority of seed sets only
    (seen on 8 sets of 4 seeds), 20,000 for every one of 10 sets (R-hat <= 1.02, ESS >= 270)."""
    x = np.repeat([0, 1, 0, 1], [2, 0, 20, 5])
    ctx = np.repeat([0, 0, 1, 1], [2, 0, 20, 5])[:, None]
    kwargs = {"n_iter": 20_000, "tying": "none", "conc_every": 1}
    seeds = [np.random.SeedSequence(s) for s in range(4)]
    fits = [fit_hdp(x, ctx, np.array([2]), 2, seed=s, trace=True, **kwargs) for s in seeds]
    chains = [f.draws() for f in fits]
    trace = Draws({"alpha": np.concatenate([c.posterior["alpha"][:, 2000:] for c in chains])})
    assert trace.posterior["alpha"].shape == (4, 18_000, fits[0].alpha.size)
    summary = convergence(trace, ["alpha"])
    assert summary.rhat_max < 1.05 and summary.ess_bulk_min > 100
    untraced = fit_hdp(x, ctx, np.array([2]), 2, seed=np.random.SeedSequence(0), **kwargs)
    assert untraced.alpha_trace is None and np.array_equal(untraced.pbar, fits[0].pbar)
    with pytest.raises(ValueError, match="not traced"):
        untraced.draws()


def _ar_order(x: np.ndarray) -> int:
    """The AR order coda's spectrum0.ar chooses for the 1-d chain x."""
    return int(_spectrum0_ar(np.asarray(x, dtype=float)[:, None])[1][0])


def test_ar_spectral_ess_of_a_long_ar1_chain_matches_its_closed_form() -> None:
    """AR(1) with phi = 0.6: ESS / n -> (1 - phi) / (1 + phi) = 1/4."""
    n, phi = 200_000, 0.6
    x = lfilter([1.0], [1.0, -phi], np.random.default_rng(5).normal(size=n))
    assert abs(_chain(x) / n / ((1 - phi) / (1 + phi)) - 1) < 0.05


def test_ar_spectral_ess_is_exactly_n_when_aic_picks_order_0() -> None:
    """Order 0: var.pred = r0 n / (n - 1) = var(x, ddof=1) and sum(ar) = 0, so ESS = n."""
    x = np.random.default_rng(1).normal(size=50)
    assert _ar_order(x) == 0
    assert _chain(x) == pytest.approx(50, rel=1e-12)


def test_ar_spectral_ess_of_a_short_series_matches_a_hand_worked_order_1_fit() -> None:
    """n = 12, so R's order.max = min(11, floor(10 log10 12)) = 10. The innovation variance
    of each order m comes from solving the Yule-Walker system directly (not by Levinson-
    Durbin); AIC = n log(var_m) + 2m picks m = 1, then phi = r1 / r0 and
    var.pred = r0 (1 - phi^2) n / (n - 2), spec = var.pred / (1 - phi)^2."""
    x = np.array([-1.4, -1.9, -1.0, -1.2, -0.3, 0.6, -1.0, 0.3, -0.4, 1.8, 2.0, 0.9])
    n, order_max = x.size, 10
    xc = x - x.mean()
    r = np.array([xc[: n - k] @ xc[k:] / n for k in range(order_max + 1)])
    innov = [r[0]] + [
        r[0] - solve_toeplitz(r[:m], r[1 : m + 1]) @ r[1 : m + 1] for m in range(1, order_max + 1)
    ]
    aic = n * np.log(innov) + 2 * np.arange(order_max + 1)
    assert np.argmin(aic) == 1 and _ar_order(x) == 1
    phi = r[1] / r[0]
    spec = r[0] * (1 - phi**2) * n / (n - 2) / (1 - phi) ** 2
    assert _chain(x) == pytest.approx(n * x.var(ddof=1) / spec, rel=1e-12)


@settings(max_examples=60, deadline=None)
@given(
    n=st.integers(5, 2000),
    walk=st.floats(0.0, 1.0),
    seed=st.integers(0, 2**32 - 1),
)
def test_levinson_durbin_is_statsmodels_bit_for_bit(n: int, walk: float, seed: int) -> None:
    """The hand-written recursion (kept so that coda's ESS does not import statsmodels) gives
    statsmodels' AR coefficients and partial autocorrelations exactly, noise to random walks."""
    rng = np.random.default_rng(seed)
    x = walk * np.cumsum(rng.normal(size=n)) + rng.normal(size=n)
    acov = _autocovariances(x[:, None], _ar_yw_order_max(n))[:, 0]
    phi, pacf = _levinson_durbin(acov)
    oracle = levinson_durbin(acov, nlags=acov.size - 1, isacov=True)
    assert np.array_equal(phi, oracle.phi) and np.array_equal(pacf, oracle.pacf)


def test_ar_spectral_ess_of_constant_or_linear_series_is_0() -> None:
    t = np.arange(500.0)
    for x in (np.full(500, 0.1), np.zeros(500), 3 - 0.25 * t, 1e6 + 1e3 * t, 1e-9 * t):
        assert _chain(x) == 0.0
    assert _ar_order(3 - 0.25 * t) == 0
    wiggle = 3 - 0.25 * t + 1e-3 * np.random.default_rng(6).normal(size=500)
    assert _chain(wiggle) > 0


def test_ar_spectral_ess_of_a_matrix_is_that_of_each_column() -> None:
    rng = np.random.default_rng(7)
    x = np.column_stack(
        [
            lfilter([1.0], [1.0, -0.9], rng.normal(size=300)),
            rng.normal(size=300),
            np.full(300, 2.0),
            lfilter([1.0], [1.0, -0.5, 0.3], rng.normal(size=300)),
        ]
    )
    ess = _chain(x)
    assert isinstance(ess, np.ndarray) and ess.shape == (4,)
    assert _chain(x[:, 0]).shape == ()
    columns = [_chain(x[:, j]) for j in range(4)]
    np.testing.assert_allclose(ess, columns, rtol=1e-12)  # equal up to summation order
    assert ess[2] == 0.0 and len(set(ess.tolist())) == 4


def test_ar_spectral_ess_refuses_bad_input() -> None:
    with pytest.raises(ValueError, match="NaN or infinite"):
        _chain(np.array([0.0, 1.0, np.inf, 2.0, 3.0]))
    with pytest.raises(ValueError, match=">= 4 draws"):
        _chain(np.array([0.0, 1.0, 2.0]))
    assert _chain(np.random.default_rng(8).normal(size=(10, 2, 2))).shape == (2, 2)
    with pytest.raises(ValueError, match="one chain"):
        ess_ar_spectral(Draws({"x": np.zeros((2, 10))}))
