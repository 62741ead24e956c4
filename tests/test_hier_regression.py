"""VB and Gibbs for the hierarchical regression of becker2018: closed forms, optimality of each
corrected update, a monotone ELBO, Monte Carlo checks of the expectations, the R repository's
toy recovery, and the pilot's numbers on the real data (spec §2–§4)."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import numpy as np
import pytest
from scipy import optimize, special, stats

from hierbn.estimators.hier_regression import GroupedData, Hyper, elbo, fit_vb
from hierbn.estimators.hier_regression_gibbs import sample_gibbs
from hierbn.studies.becker2018.synthetic import toy_data

REGISTRY = Path(__file__).resolve().parents[1] / "config" / "datasets.tsv"


def toy(seed: int = 1234) -> GroupedData:
    """The R repository's self-test (spec §4), as the study generates it."""
    return toy_data(np.random.default_rng(seed))


def tiny(seed: int = 0, groups: int = 2, dim: int = 2) -> GroupedData:
    rng = np.random.default_rng(seed)
    g = np.arange(42) % groups
    x = rng.normal(size=(g.size, dim))
    y = x @ rng.normal(size=dim) + rng.normal(0, 0.5, g.size) + 0.3 * g
    return GroupedData.from_arrays(x, y, g, groups)


@pytest.mark.parametrize("variant", ["faithful", "corrected"])
def test_toy_recovery_within_0_02(variant: str) -> None:
    fit = fit_vb(toy(), variant=variant)
    assert fit.converged and np.all(np.abs(fit.m_delta - [0.1, 0.3]) < 0.02)
    assert abs(1 / np.sqrt(fit.noise_precision) - 0.1) < 0.01
    if variant == "faithful":
        assert abs(fit.n_iter - 31) <= 5  # the pilot's count (summation order shifts it a little)


def test_gibbs_toy_recovery_within_0_02() -> None:
    chain = sample_gibbs(toy(), 500, 2000, seed=np.random.SeedSequence(1))
    assert np.all(np.abs(chain.delta.mean(axis=0) - [0.1, 0.3]) < 0.02)
    record = chain.draws()  # the same draws under the project's record
    assert record.n_chains == 1 and record.n_draws == 2000
    assert np.array_equal(record.posterior["Delta"][0], chain.delta)


def test_corrected_elbo_never_decreases_and_faithful_may() -> None:
    for seed in range(5):
        data = tiny(seed, groups=3, dim=3)
        corrected = fit_vb(data, variant="corrected", tol=1e-12)
        assert np.all(np.diff(corrected.elbo_trace) >= -1e-8 * np.abs(corrected.elbo_trace[1:]))
        assert corrected.elbo_trace[-1] == pytest.approx(elbo(data, corrected), rel=1e-12)
    assert fit_vb(toy(), variant="corrected").elbo_trace[-1] >= fit_vb(toy()).elbo_trace[-1]


def test_random_starts_reach_the_same_fixed_point() -> None:
    data = tiny(3, groups=3, dim=2)
    base = fit_vb(data, variant="corrected", tol=1e-13)
    rng = np.random.default_rng(0)
    for _ in range(3):
        init = {"e_sigma": rng.gamma(2.0), "e_s": rng.gamma(2.0), "e_w": rng.gamma(2.0, size=2),
                "m_delta": rng.normal(size=2)}  # fmt: skip
        other = fit_vb(data, variant="corrected", tol=1e-13, init=init)
        assert np.allclose(other.m_delta, base.m_delta, atol=1e-6)


def _perturbed(q, **changes):
    return dataclasses.replace(q, **changes)


def test_each_corrected_factor_maximises_the_elbo_given_the_others() -> None:
    """At the corrected fixed point, numerically maximising the ELBO over one factor with the
    others held returns that factor (C = 2, D = 2)."""
    data = tiny(7)
    q = fit_vb(data, variant="corrected", tol=1e-13, max_iter=5000)
    for name in ("b_n", "d_n", "a_n", "c_n", "e_n"):
        best = optimize.minimize_scalar(
            lambda log_v, name=name: -elbo(data, _perturbed(q, **{name: float(np.exp(log_v))})),
            bracket=(np.log(getattr(q, name)) - 0.1, np.log(getattr(q, name)) + 0.1),
        )
        assert np.exp(best.x) == pytest.approx(getattr(q, name), rel=1e-4), name
    for d in range(2):

        def f_n_at(log_v, d=d):
            f_n = q.f_n.copy()
            f_n[d] = np.exp(log_v)
            return -elbo(data, _perturbed(q, f_n=f_n))

        assert np.exp(optimize.minimize_scalar(f_n_at, bracket=(-12, 0)).x) == pytest.approx(
            q.f_n[d], rel=1e-4
        )

    def mean_at(v):
        m = q.m.copy()
        m[0] = v
        return -elbo(data, _perturbed(q, m=m))

    assert np.allclose(optimize.minimize(mean_at, q.m[0] + 0.3).x, q.m[0], atol=1e-5)
    assert np.allclose(
        optimize.minimize(lambda v: -elbo(data, _perturbed(q, m_delta=v)), q.m_delta + 0.2).x,
        q.m_delta,
        atol=1e-5,
    )

    def covariance_at(params):
        chol = np.array([[np.exp(params[0]), 0.0], [params[1], np.exp(params[2])]])
        S = q.S.copy()
        S[1] = chol @ chol.T
        return -elbo(data, _perturbed(q, S=S))

    chol = np.linalg.cholesky(q.S[1])
    start = np.array([np.log(chol[0, 0]) + 0.2, chol[1, 0] + 0.01, np.log(chol[1, 1]) - 0.2])
    best = optimize.minimize(
        covariance_at,
        start,
        method="Nelder-Mead",
        options={"xatol": 1e-10, "fatol": 1e-12, "maxiter": 5000},
    )
    fitted = np.array([[np.exp(best.x[0]), 0.0], [best.x[1], np.exp(best.x[2])]])
    assert np.allclose(fitted @ fitted.T, q.S[1], rtol=1e-3)


def test_faithful_pooling_update_is_not_the_maximiser() -> None:
    data = tiny(7)
    q = fit_vb(data, variant="faithful", tol=1e-13, max_iter=5000)
    best = optimize.minimize_scalar(lambda v: -elbo(data, _perturbed(q, d_n=float(np.exp(v)))),
                                    bracket=(np.log(q.d_n) - 0.1, np.log(q.d_n) + 0.1))  # fmt: skip
    assert abs(np.exp(best.x) / q.d_n - 1) > 1e-3  # it leaves out C tr(S_Delta) (spec §2.2)


def test_gamma_and_gaussian_expectations_match_monte_carlo() -> None:
    rng = np.random.default_rng(0)
    a, b = 3.5, 2.0
    draws = rng.gamma(a, 1 / b, 400_000)
    assert np.mean(np.log(draws)) == pytest.approx(special.digamma(a) - np.log(b), abs=3e-3)
    entropy = a - np.log(b) + special.gammaln(a) + (1 - a) * special.digamma(a)
    assert entropy == pytest.approx(stats.gamma(a, scale=1 / b).entropy(), rel=1e-12)
    m_i, m_d = np.array([0.4, -1.0]), np.array([0.1, 0.2])
    S_i, S_d = np.array([[0.3, 0.1], [0.1, 0.2]]), np.diag([0.05, 0.02])
    beta = rng.multivariate_normal(m_i, S_i, 400_000)
    delta = rng.multivariate_normal(m_d, S_d, 400_000)
    closed = np.sum((m_i - m_d) ** 2) + np.trace(S_i) + np.trace(S_d)
    assert np.mean(np.sum((beta - delta) ** 2, axis=1)) == pytest.approx(closed, rel=5e-3)


def test_gibbs_with_fixed_precisions_matches_the_gaussian_posterior() -> None:
    """sigma, s and w held: (beta, Delta) | y is Gaussian with a closed-form mean and covariance."""
    data = tiny(11)
    sigma, s, w = 4.0, 2.5, np.array([0.5, 1.5])
    C, D = data.n_groups, data.dim
    precision = np.zeros(((C + 1) * D, (C + 1) * D))
    rhs = np.zeros((C + 1) * D)
    for i in range(C):
        block = slice(i * D, (i + 1) * D)
        precision[block, block] = sigma * data.xtx[i] + s * np.eye(D)
        precision[block, C * D :] = precision[C * D :, block] = -s * np.eye(D)
        rhs[block] = sigma * data.xty[i]
    precision[C * D :, C * D :] = np.diag(w) + C * s * np.eye(D)
    cov = np.linalg.inv(precision)
    mean = cov @ rhs
    chain = sample_gibbs(
        data, 200, 40_000, np.random.SeedSequence(5), fixed_sigma=sigma, fixed_s=s, fixed_w=w
    )
    assert np.allclose(chain.delta.mean(axis=0), mean[C * D :], atol=0.02)
    assert np.allclose(np.cov(chain.delta.T), cov[C * D :, C * D :], rtol=0.05, atol=0.01)
    assert np.allclose(chain.beta_mean[0], mean[:D], atol=0.02)


def test_predictive_interval_covers_the_noise_and_parameter_uncertainty() -> None:
    data = toy()
    fit = fit_vb(data, variant="corrected")
    x = np.column_stack([np.arange(1, 101), np.ones(100)])
    mean, variance, lower, upper = fit.predictive(x, np.zeros(100, dtype=int))
    noise = fit.b_n / (fit.a_n - 1)
    assert np.all(variance > noise) and np.allclose(upper - mean, mean - lower)
    assert np.all((upper - lower) / (2 * np.sqrt(variance)) == pytest.approx(1.96, rel=0.01))
    new_mean, new_variance, *_ = fit.predictive(x[:3], np.full(3, -1))
    assert np.allclose(new_mean, x[:3] @ fit.m_delta) and np.all(new_variance > variance[:3])


def test_bad_input_is_refused_with_its_name() -> None:
    x = np.ones((4, 2))
    with pytest.raises(ValueError, match="groups must be integer codes"):
        GroupedData.from_arrays(x, np.ones(4), np.array([0, 1, 2, 5]), 3)
    with pytest.raises(ValueError, match=r"y must be finite: y\[2\]"):
        GroupedData.from_arrays(x, np.array([1, 2, np.nan, 4]), np.array([0, 0, 1, 1]), 2)
    with pytest.raises(ValueError, match=r"group\(s\) \[2\] have no rows"):
        GroupedData.from_arrays(x, np.ones(4), np.array([0, 0, 1, 1]), 3)
    with pytest.raises(ValueError, match="unknown variant"):
        fit_vb(toy(), variant="exact")
    with pytest.raises(ValueError, match="a0 must be"):
        Hyper(a0=0.0)


def test_real_data_reproduces_the_pilot(mirror) -> None:
    """Spec §3.4 and §3.5: the faithful fixed point on the Turkiye data (pilot 589 sweeps)."""
    from hierbn.data.convert import build_dataset
    from hierbn.data.registry import load_registry

    entry = load_registry(REGISTRY)[("becker2018", "turkiye")]
    frame = build_dataset(entry, [mirror / entry.parts[0].file])
    predictors = ["nb.repeat", "attendance", *[f"Q{i}" for i in range(1, 29)]]
    x = np.column_stack([frame[predictors].to_numpy(), np.ones(len(frame))])
    data = GroupedData.from_arrays(
        x, frame["difficulty"].to_numpy(), frame["class"].to_numpy() - 1, 13
    )
    faithful = fit_vb(data)
    assert abs(faithful.n_iter - 589) <= 5 and faithful.converged
    assert faithful.elbo_trace[-1] == pytest.approx(-9439.42, abs=0.01)
    assert faithful.noise_precision == pytest.approx(0.7442, abs=1e-4)
    assert faithful.pooling_precision == pytest.approx(585.85, abs=0.01)
    assert np.round(faithful.m_delta[[0, 1, 18, 30]], 4).tolist() == [0.3806, 0.3868, 0.0951, 1.609]
    corrected = fit_vb(data, variant="corrected")
    assert corrected.n_iter == 146 and corrected.elbo_trace[-1] == pytest.approx(-9432.69, abs=0.01)
    assert np.all(np.diff(corrected.elbo_trace) >= -1e-8)
